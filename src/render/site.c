/*
 * site.c — `perfledger site`: the static site of every series and metric
 * (see site.h for the files and the verdicts).
 *
 * Rendering streams: index.html, index.json and index.csv are open for the
 * whole walk and get one row per series and metric as each series arrives;
 * a series' own three files are written and closed before the next series
 * is read. So memory holds one series at a time whatever the ledger's size
 * (the walk, pl_store_each_set(), reads one conditions row's runs at a
 * time too). A first walk before it keeps only each series' conditions,
 * so that its label names what tells it from its siblings (site_labels.c).
 * All of it happens in the temporary directory that pl_bundle_publish()
 * swaps in at the end.
 *
 * Charts are our own inline SVG (no gnuplot: a site of 10k series must not
 * spawn 10k processes, and inline SVG needs no second request), drawn by
 * svg.c from the timeline site_chart.c maps each history to. Input text
 * never enters the SVG but through pl_html_write_text (axis labels are
 * times we print from parsed numbers).
 */
#include "render/site.h"

#include <math.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include "core/condkey.h"
#include "core/hash.h"
#include "core/history.h"
#include "render/bundle_impl.h"
#include "render/regress.h"
#include "render/site_impl.h"
#include "render/render_impl.h"
#include "util/buf.h"
#include "util/file.h"

static const int default_metrics[] = {PL_M_TTFT_P50, PL_M_TPOT_P50, PL_M_OUTPUT_THROUGHPUT};

const int *pl_site_default_metrics(size_t *count)
{
	*count = sizeof(default_metrics) / sizeof(default_metrics[0]);
	return default_metrics;
}

/* The render state: options, the open index files, counts. */
struct site {
	const struct pl_site_opts *o;
	const int *metrics;   /* the metrics shown */
	size_t nmetrics;
	const char *dir;      /* the temporary directory being filled */
	FILE *html, *json, *csv; /* index.html, index.json, index.csv */
	size_t nseries;       /* series with at least one row */
	size_t nrows;         /* index rows (series x metric) */
	size_t nregressions;  /* rows with the verdict regression */
	size_t nfailedrows;   /* rows with the verdict failed */
	size_t nundated;      /* series left out: no run with run_started_at */
	struct pl_site_labels labels; /* every series' label (site_labels.c) */
};

/* ------------------------------------------------------------ helpers */

int pl_site_html(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	for (; *p; p++)
		if (*p < 0x20 || *p > 0x7E || *p == '&' || *p == '<' || *p == '>' || *p == '"' ||
		    *p == '\'')
			return pl_html_write_text(f, s);
	fputs(s ? s : "", f);
	return ferror(f) ? PL_EIO : 0;
}

char *pl_site_fmt_day(char *buf, size_t n, double t)
{
	long long z = (long long)floor(t / 86400.0) + 719468, era, doe, yoe, doy, mp, d, m, y;

	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp + (mp < 10 ? 3 : -9);
	snprintf(buf, n, "%04d-%02d-%02d", (int)(y + (m <= 2)) % 100000, (int)m % 100, (int)d % 100);
	return buf;
}

static const char *verdict_of(const struct pl_history *h)
{
	const struct pl_history_step *last = h->nsteps ? &h->steps[h->nsteps - 1] : NULL;

	if (h->latest_failed || h->gate_superseded) /* failed runs fail the gate; a series */
		return h->latest_failed ? "failed" : "superseded"; /* continued: not gated */
	if (h->nfailing) /* a failing step, or the latest point a regression */
		return "regression";
	if (h->latest_verdict == PL_V_ACCEPTED || (last && last->accepted))
		return "accepted";
	if (h->latest_verdict == PL_V_IMPROVEMENT || (last && last->better))
		return "improvement";
	if (!h->detected && h->latest_verdict == PL_V_TOO_FEW)
		return "too few points";
	return "stable";
}

/* -------------------------------------------------------------- pages */

static const char css[] =
	"body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans',sans-serif;"
	"margin:0 auto;max-width:1200px;padding:12px;color:#222;line-height:1.4}"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}"
	"table{border-collapse:collapse;font-size:13px}"
	"th,td{border-bottom:1px solid #e4e4e4;padding:4px 6px;text-align:left;vertical-align:middle}"
	"th{background:#f3f3f3;position:sticky;top:0}"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}"
	".wrap{overflow-x:auto}"
	".v-regression,.v-failed{color:#b71c1c;font-weight:600}.v-accepted{color:#2e7d32}"
	".v-improvement{color:#1565c0}.v-stable{color:#555}"
	".controls{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0}"
	".controls input{flex:1 1 240px;padding:6px;font-size:14px}"
	".controls select{padding:6px;font-size:14px}"
	"svg.chart{width:100%;height:auto;max-width:720px;display:block}"
	"dl.conds{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;font-size:13px}"
	"dl.conds dt{color:#555}dl.conds dd{margin:0;word-break:break-word}"
	"footer{margin-top:2em;color:#666;font-size:12px}"
	"td.series{max-width:340px;word-break:break-word}td.num{white-space:nowrap}"
	/* a phone: each index row a small card, the series label on top */
	"@media (max-width:640px){#series thead{display:none}"
	"#series tr{display:grid;grid-template-columns:auto auto 1fr;gap:2px 8px;"
	"border-bottom:1px solid #ddd;padding:6px 0}"
	"#series td{border:0;padding:1px 2px}"
	"#series td.series{grid-column:1/-1;max-width:none;font-weight:600}"
	"#series td:empty{display:none}}";

/* The filter of index.html: text (rows whose text or conditions, the
 * data-conds attribute, contain it, case insensitively) and verdict; starts from #q=TEXT in the URL. Our own
 * constant text: no input reaches it. */
static const char filter_js[] =
	"(function(){var q=document.getElementById('q'),v=document.getElementById('v'),"
	"c=document.getElementById('count'),rows=document.querySelectorAll('#series tbody tr');"
	"var h=location.hash;if(h.indexOf('#q=')===0){q.value=decodeURIComponent(h.slice(3));}"
	"function f(){var t=q.value.toLowerCase(),w=v.value,n=0;"
	"for(var i=0;i<rows.length;i++){var r=rows[i];"
	"var ok=(!t||(r.textContent+' '+r.getAttribute('data-conds')).toLowerCase().indexOf(t)>=0)&&"
	"(!w||r.getAttribute('data-verdict')===w);"
	"r.hidden=!ok;if(ok)n++;}"
	"c.textContent=n+' of '+rows.length+' rows shown';}"
	"q.addEventListener('input',f);v.addEventListener('change',f);f();})();";

static void page_head(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n<title>",
	      f);
	pl_site_html(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n", css);
}

static void footer(FILE *f, const struct site *S)
{
	char t[40];
	double e = (double)S->o->epoch;
	long long sod = ((S->o->epoch % 86400) + 86400) % 86400;

	pl_site_fmt_day(t, sizeof(t), e);
	fprintf(f, "<footer>perfledger %s; generated %sT%02lld:%02lld:%02lldZ", S->o->tool_version,
	        t, sod / 3600, sod / 60 % 60, sod % 60);
	if (S->o->selection && *S->o->selection) {
		fputs("; selection: ", f);
		pl_site_html(f, S->o->selection);
	}
	fputs("</footer>\n", f);
}

/* " (by NAME, AT)" of an acceptance: who accepted it and when (nothing for
 * who when it was stored before authors were recorded). */
static int accepted_by(FILE *f, const struct pl_accepted_step *a)
{
	int rc;

	fputs(" <small>(", f);
	if (a->accepted_by && *a->accepted_by) {
		fputs("by ", f);
		if ((rc = pl_site_html(f, a->accepted_by)))
			return rc;
		fputs(", ", f);
	}
	if ((rc = pl_site_html(f, a->accepted_at)))
		return rc;
	fputs(")</small>", f);
	return 0;
}

/* The row of one series and metric in index.html: its label linking to
 * its page, the sparkline, the latest value (or the last point's failed
 * runs), the verdict, the steps and their acceptances. The latest value is
 * the last point with a median; a last point of failed runs is named as
 * failed. */
static int index_html(FILE *f, const char *page, const char *label, const char *conds,
                      const struct pl_history *h, const double *xs, const char *verdict)
{
	const struct pl_metric_info *mi = &pl_metric_info[h->metric];
	const struct pl_history_point *last = &h->points[h->latest_point];
	const struct pl_history_point *end = &h->points[h->npoints - 1];
	char a[32], ch[64];
	int rc;

	fprintf(f, "<tr data-verdict=\"%s\" data-conds=\"", verdict);
	if ((rc = pl_site_html(f, conds)))
		return rc;
	fprintf(f, "\"><td class=\"series\"><a href=\"%s.html#%s\">", page, mi->name);
	if ((rc = pl_site_html(f, label)))
		return rc;
	fprintf(f, "</a></td><td>%s (%s)</td><td>", mi->name, pl_unit_label(mi->unit));
	if ((rc = pl_site_sparkline(f, h, xs)))
		return rc;
	if (end->nfailed) {
		fprintf(f, "</td><td class=\"num v-failed\">%zu failed</td><td>", end->nfailed);
		if ((rc = pl_site_html(f, end->value.text)))
			return rc;
		if (last->n > 0 && last != end) {
			fprintf(f, "<br>last value %s at ", pl_fmt_sig4(a, sizeof(a), last->s.median));
			if ((rc = pl_site_html(f, last->value.text)))
				return rc;
		}
	} else {
		fprintf(f, "</td><td class=\"num\">%s</td><td>",
		        pl_fmt_sig4(a, sizeof(a), last->s.median));
		if ((rc = pl_site_html(f, last->value.text)))
			return rc;
	}
	fprintf(f, "</td><td class=\"num\">%zu</td><td class=\"v-%s\">%s</td><td>", h->npoints,
	        strcmp(verdict, "too few points") ? verdict : "stable", verdict);
	for (size_t k = 0; k < h->nsteps; k++)
		fprintf(f, "%s%s", k ? "<br>" : "",
		        pl_fmt_change(ch, sizeof(ch), h->steps[k].rel_change, mi->direction));
	fputs("</td><td>", f);
	for (size_t k = 0, any = 0; k < h->nsteps; k++) {
		if (!h->steps[k].accepted)
			continue;
		fputs(any++ ? "<br>" : "", f);
		if ((rc = pl_site_html(f, h->steps[k].accepted->reason)) ||
		    (rc = accepted_by(f, h->steps[k].accepted)))
			return rc;
	}
	fputs("</td></tr>\n", f);
	return 0;
}

/* The object of one series and metric in index.json (after a comma unless
 * it is the first row, first). */
static void index_json(FILE *f, int first_row, const char *page, const char *label,
                       const struct pl_history *h, const char *verdict)
{
	const struct pl_metric_info *mi = &pl_metric_info[h->metric];
	const struct pl_history_point *last = &h->points[h->latest_point];
	const struct pl_history_point *end = &h->points[h->npoints - 1];
	int first = 1;
	char file[64];

	fputs(first_row ? "\n{" : ",\n{", f);
	pl_json_write_key(f, &first, "series");
	pl_json_write_string(f, page + 2);
	pl_json_write_key(f, &first, "label");
	pl_json_write_string(f, label);
	pl_json_write_key(f, &first, "page");
	snprintf(file, sizeof(file), "%s.html", page);
	pl_json_write_string(f, file);
	pl_json_write_key(f, &first, "metric");
	pl_json_write_string(f, mi->name);
	pl_json_write_key(f, &first, "unit");
	pl_json_write_string(f, pl_unit_label(mi->unit));
	pl_json_write_key(f, &first, "points");
	fprintf(f, "%zu", h->npoints);
	pl_json_write_key(f, &first, "latest");
	pl_json_write_num(f, last->s.median);
	pl_json_write_key(f, &first, "latest_at");
	pl_json_write_string(f, last->value.text);
	if (end->nfailed) { /* the last point's failed runs */
		pl_json_write_key(f, &first, "failed_at");
		pl_json_write_string(f, end->value.text);
		pl_json_write_key(f, &first, "failed_run_ids");
		fputc('[', f);
		for (size_t k = 0; k < end->nfailed; k++)
			fprintf(f, "%s%lld", k ? ", " : "", end->failed_ids[k]);
		fputc(']', f);
	}
	pl_json_write_key(f, &first, "verdict");
	pl_json_write_string(f, verdict);
	pl_json_write_key(f, &first, "steps");
	fputc('[', f);
	for (size_t k = 0; k < h->nsteps; k++) {
		const struct pl_history_step *s = &h->steps[k];
		int f2 = 1;
		fputs(k ? ", {" : "{", f);
		pl_json_write_key(f, &f2, "at");
		pl_json_write_string(f, h->points[s->index].value.text);
		pl_json_write_key(f, &f2, "change_pct");
		pl_json_write_num(f, 100.0 * s->rel_change);
		pl_json_write_key(f, &f2, "first_run");
		fprintf(f, "%lld", s->first_run);
		pl_json_write_key(f, &f2, "accepted");
		if (s->accepted)
			pl_json_write_string(f, s->accepted->reason);
		else
			fputs("null", f);
		fputc('}', f);
	}
	fputs("]}", f);
}

/* The line of one series and metric in index.csv: series, label, metric,
 * unit, points, latest, latest_at, verdict, steps, failing. */
static int index_csv(FILE *f, const char *page, const char *label, const struct pl_history *h,
                     const char *verdict)
{
	const struct pl_metric_info *mi = &pl_metric_info[h->metric];
	const struct pl_history_point *last = &h->points[h->latest_point];
	int rc;

	if ((rc = pl_csv_write_field(f, page + 2)))
		return rc;
	fputc(',', f);
	if ((rc = pl_csv_write_field(f, label)))
		return rc;
	fprintf(f, ",%s,%s,%zu,", mi->name, pl_unit_label(mi->unit), h->npoints);
	pl_json_write_num(f, last->s.median);
	fputc(',', f);
	if ((rc = pl_csv_write_field(f, last->value.text)))
		return rc;
	fprintf(f, ",%s,%zu,%zu\r\n", verdict, h->nsteps, h->nfailing);
	return 0;
}

/* The rows of one series and metric in the three index files. */
static int index_row(struct site *S, const char *page, const char *label, const char *conds,
                     const struct pl_history *h, const double *xs)
{
	const char *verdict = verdict_of(h);
	int rc;

	if ((rc = index_html(S->html, page, label, conds, h, xs, verdict)))
		return rc;
	index_json(S->json, S->nrows == 0, page, label, h, verdict);
	if ((rc = index_csv(S->csv, page, label, h, verdict)))
		return rc;
	S->nrows++;
	if (!strcmp(verdict, "regression"))
		S->nregressions++;
	if (!strcmp(verdict, "failed"))
		S->nfailedrows++;
	return 0;
}

/* One metric's section of a series page. */
static int page_metric(FILE *f, const struct pl_history *h, const double *xs,
                       const struct pl_run_list *runs)
{
	const struct pl_metric_info *mi = &pl_metric_info[h->metric];
	const char *verdict = verdict_of(h);
	char a[32], b[32], ch[64];
	int rc;

	fprintf(f, "<section id=\"%s\">\n<h2>%s (%s) — <span class=\"v-%s\">%s</span></h2>\n",
	        mi->name, mi->name, pl_unit_label(mi->unit),
	        strcmp(verdict, "too few points") ? verdict : "stable", verdict);
	if ((rc = pl_site_chart(f, h, xs, runs)))
		return rc;
	if (h->detected)
		fprintf(f, "<p>Steps: penalised L1 piecewise-constant fit over the %zu point medians "
		           "(penalty %s sigma ln n, noise sigma %s %s).</p>\n",
		        h->nmedians, pl_fmt_num(a, sizeof(a), PL_STATS_STEP_PENALTY_DEFAULT),
		        pl_fmt_sig4(b, sizeof(b), h->sigma), pl_unit_label(mi->unit));
	else
		fprintf(f, "<p>Steps: not searched: %zu point%s, at least %d needed.</p>\n", h->npoints,
		        h->npoints == 1 ? "" : "s", 2 * PL_STATS_STEP_MIN_SEGMENT);
	if (h->latest_verdict != PL_V_TOO_FEW) {
		char lo[32], hi[32], p[32];
		fprintf(f, "<p>Latest point (");
		if ((rc = pl_site_html(f, h->points[h->latest_point].value.text)))
			return rc;
		fprintf(f, "): %s %s against the %zu points before it (95%% prediction "
		           "interval [%s, %s]): %s, p = %s: <b>%s</b>",
		        pl_fmt_sig4(a, sizeof(a), h->latest.new_median), pl_unit_label(mi->unit),
		        h->latest.n_old, pl_fmt_sig4(lo, sizeof(lo), h->latest.bound_low),
		        pl_fmt_sig4(hi, sizeof(hi), h->latest.bound_high),
		        pl_fmt_change(ch, sizeof(ch), h->latest.rel_change, mi->direction),
		        pl_fmt_num(p, sizeof(p), pl_round_sig(h->latest.p_value, 2)),
		        pl_verdict_name(h->latest_verdict));
		if (h->latest_accepted) {
			fputs(" (accepted: ", f);
			if ((rc = pl_site_html(f, h->latest_accepted->reason)))
				return rc;
			fputc(')', f);
		}
		fputs(".</p>\n", f);
	}
	if (h->latest_failed) {
		const struct pl_history_point *e = &h->points[h->npoints - 1];
		fputs("<p class=\"v-failed\">Failed: last point (", f);
		if ((rc = pl_site_html(f, e->value.text)))
			return rc;
		fprintf(f, "): run%s", e->nfailed == 1 ? "" : "s");
		for (size_t k = 0; k < e->nfailed; k++)
			fprintf(f, "%s<a href=\"#run-%lld\">%lld</a>", k ? ", " : " ", e->failed_ids[k],
			        e->failed_ids[k]);
		fputs(" completed no request: the gate fails.</p>\n", f);
	}
	if (h->nsteps) {
		fputs("<ul>\n", f);
		for (size_t k = 0; k < h->nsteps; k++) {
			const struct pl_history_step *s = &h->steps[k];
			fprintf(f, "<li>step at ");
			if ((rc = pl_site_html(f, h->points[s->index].value.text)))
				return rc;
			fprintf(f, ": %s &rarr; %s %s (%s), first run after: %lld", pl_fmt_sig4(a, sizeof(a), s->before),
			        pl_fmt_sig4(b, sizeof(b), s->after), pl_unit_label(mi->unit),
			        pl_fmt_change(ch, sizeof(ch), s->rel_change, mi->direction), s->first_run);
			if (s->accepted) {
				fprintf(f, "; accepted at run %lld: ", s->accepted->run_id);
				if ((rc = pl_site_html(f, s->accepted->reason)) || (rc = accepted_by(f, s->accepted)))
					return rc;
			}
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	fputs("</section>\n", f);
	return 0;
}

/* 1 if point a of history ha comes before point b of hb (time, then the
 * label), -1 after, 0 the same point. */
static int point_order(const struct pl_history_point *a, const struct pl_history_point *b)
{
	int c;

	if (isfinite(a->t) && isfinite(b->t) && a->t != b->t)
		return a->t < b->t ? 1 : -1;
	c = strcmp(a->value.text ? a->value.text : "", b->value.text ? b->value.text : "");
	return c < 0 ? 1 : c > 0 ? -1 : 0;
}

/* One table of the points of every metric shown: a row per run_started_at
 * (the histories merged in time order; a metric a point lacks is "-"), its
 * n, each metric's median (with its 95% interval when there is one) and the
 * runs, linked to the runs table. */
static int page_points(FILE *f, const struct pl_history *hs, size_t nh)
{
	size_t *at = calloc(nh ? nh : 1, sizeof(*at));
	char a[32], b[32], c[32];
	int rc = 0;

	if (!at)
		return PL_ENOMEM;
	fprintf(f, "<h2>Points</h2>\n<div class=\"wrap\"><table>\n<thead><tr><th>%s</th>"
	           "<th>n</th>",
	        nh && hs[0].group != PL_G_RUN ? pl_group_name(hs[0].group) : "run_started_at");
	for (size_t k = 0; k < nh; k++)
		if (hs[k].npoints)
			fprintf(f, "<th>%s (%s)</th>", pl_metric_info[hs[k].metric].name,
			        pl_unit_label(pl_metric_info[hs[k].metric].unit));
	fputs("<th>runs</th></tr></thead>\n<tbody>\n", f);
	for (;;) {
		const struct pl_history_point *first = NULL;

		/* the earliest point not yet written, over every metric */
		for (size_t k = 0; k < nh; k++)
			if (at[k] < hs[k].npoints &&
			    (!first || point_order(&hs[k].points[at[k]], first) > 0))
				first = &hs[k].points[at[k]];
		if (!first)
			break;
		fputs("<tr><td>", f);
		if ((rc = pl_site_html(f, first->value.text)))
			break;
		fprintf(f, "</td><td class=\"num\">%zu</td>", first->n);
		for (size_t k = 0; k < nh; k++) {
			const struct pl_history_point *p;
			if (!hs[k].npoints)
				continue;
			if (at[k] >= hs[k].npoints || point_order(&hs[k].points[at[k]], first) != 0) {
				fputs("<td class=\"num\">-</td>", f);
				continue;
			}
			p = &hs[k].points[at[k]++];
			if (p->n == 0)
				fprintf(f, "<td class=\"num v-failed\">failed</td>");
			else if (p->s.ci_valid)
				fprintf(f, "<td class=\"num\">%s [%s, %s]</td>",
				        pl_fmt_sig4(a, sizeof(a), p->s.median),
				        pl_fmt_sig4(b, sizeof(b), p->s.ci_low),
				        pl_fmt_sig4(c, sizeof(c), p->s.ci_high));
			else
				fprintf(f, "<td class=\"num\">%s</td>", pl_fmt_sig4(a, sizeof(a), p->s.median));
		}
		fputs("<td>", f);
		for (size_t r = 0; r < first->n; r++)
			fprintf(f, "%s<a href=\"#run-%lld\">%lld</a>", r ? " " : "", first->run_ids[r],
			        first->run_ids[r]);
		for (size_t r = 0; r < first->nfailed; r++)
			fprintf(f, "%s<a href=\"#run-%lld\">%lld</a> <span class=\"v-failed\">failed"
			           "</span>", r || first->n ? " " : "", first->failed_ids[r],
			        first->failed_ids[r]);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div>\n<p>A 95% interval of a median is shown where a point has "
	      "6 runs or more.</p>\n",
	      f);
	free(at);
	return rc;
}

/* The conditions of a series (all runs share them but run_started_at). */
static int page_conditions(FILE *f, const struct pl_run *r)
{
	int rc;

	fputs("<h2>Conditions</h2>\n<dl class=\"conds\">\n", f);
	for (int id = 0; id < PL_COND_COUNT; id++) {
		if (id == PL_C_RUN_STARTED_AT || !r->cond[id].set || !r->cond[id].text)
			continue;
		fprintf(f, "<dt>%s</dt><dd>", pl_cond_info[id].name);
		if ((rc = pl_site_html(f, r->cond[id].text)))
			return rc;
		fputs("</dd>\n", f);
	}
	for (size_t i = 0; i < r->nextra; i++) {
		fputs("<dt>", f);
		if ((rc = pl_site_html(f, r->extra[i].name)) || (fputs("</dt><dd>", f), 0) ||
		    (rc = pl_site_html(f, r->extra[i].value)))
			return rc;
		fputs("</dd>\n", f);
	}
	fputs("</dl>\n", f);
	return 0;
}

/* The build identity of run r: "build_id · branch · commit" (the commit
 * cut to 12 characters), and a link "CI run" to its ci_run_url (which the
 * model checked to be http(s)://). "-" when none is known. */
static int build_cell(FILE *f, const struct pl_run *r)
{
	static const int order[] = {PL_B_BUILD_ID, PL_B_BRANCH, PL_B_COMMIT};
	int rc, any = 0;

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const char *v = r->build[order[i]];
		char cut[16];
		if (!v)
			continue;
		fputs(any++ ? " · " : "", f);
		if (order[i] == PL_B_COMMIT && strlen(v) > 12) {
			snprintf(cut, sizeof(cut), "%.12s", v);
			fputs("<code>", f);
			rc = pl_site_html(f, cut);
			fputs("</code>", f);
		} else {
			rc = pl_site_html(f, v);
		}
		if (rc)
			return rc;
	}
	if (r->build[PL_B_CI_RUN_URL]) {
		fputs(any++ ? " · <a href=\"" : "<a href=\"", f);
		if ((rc = pl_site_html(f, r->build[PL_B_CI_RUN_URL])))
			return rc;
		fputs("\" rel=\"noopener noreferrer\">CI run</a>", f);
	}
	if (!any)
		fputs("-", f);
	return 0;
}

/* The runs of a series: id, run_started_at, source file, its sha256, the
 * adapter, reference-only. */
static int page_runs(FILE *f, const struct pl_run_list *runs)
{
	int rc;

	fprintf(f, "<h2>Runs (%zu)</h2>\n<div class=\"wrap\"><table>\n<thead><tr><th>id</th>"
	           "<th>run_started_at</th><th>build</th><th>source</th><th>sha256</th>"
	           "<th>adapter</th><th>reference-only</th></tr></thead>\n<tbody>\n",
	        runs->n);
	for (size_t i = 0; i < runs->n; i++) {
		const struct pl_run *r = &runs->v[i];
		fprintf(f, "<tr id=\"run-%lld\"><td class=\"num\">%lld</td><td>", r->id, r->id);
		if ((rc = pl_site_html(f, r->cond[PL_C_RUN_STARTED_AT].set ? r->cond[PL_C_RUN_STARTED_AT].text
		                                                    : "-")))
			return rc;
		fputs("</td><td>", f);
		if ((rc = build_cell(f, r)))
			return rc;
		fputs("</td><td>", f);
		if ((rc = pl_site_html(f, r->source)))
			return rc;
		fprintf(f, "</td><td><code>%.12s</code></td><td>", r->sha256);
		if ((rc = pl_site_html(f, r->adapter)))
			return rc;
		fprintf(f, "</td><td>%s</td></tr>\n", r->checklist_missing ? "yes" : "");
	}
	fputs("</tbody></table></div>\n", f);
	return 0;
}

/* ----------------------------------------------------------- a series */

struct series {
	struct pl_history *h; /* one per metric shown (npoints 0: left out) */
	size_t nh;
	char page[24];        /* "s-HASH" */
	char label[320];
	char *conds;          /* every condition "name=value; ..." (extras too), for
	                         the index filter; owned */
};

/* "name=value; ..." of every condition of r that is set, then its extra
 * conditions: what the index's filter searches besides the row's text.
 * Caller frees; NULL on out of memory. */
static char *series_conds(const struct pl_run *r)
{
	struct pl_buf b = PL_BUF_INIT;

	for (int c = 0; c < PL_COND_COUNT; c++)
		if (c != PL_C_RUN_STARTED_AT && r->cond[c].set && r->cond[c].text)
			pl_buf_addf(&b, "%s%s=%s", b.len ? "; " : "", pl_cond_info[c].name,
			            r->cond[c].text);
	for (size_t k = 0; k < r->nextra; k++)
		pl_buf_addf(&b, "%s%s=%s", b.len ? "; " : "", r->extra[k].name, r->extra[k].value);
	if (b.oom) {
		pl_buf_release(&b);
		return NULL;
	}
	return pl_buf_detach(&b, NULL);
}

/* Creates DIR/PAGE.EXT of the site, fresh, into *f and its path into
 * *path (the caller frees it, *f closed or not). Returns 0, or PL_ENOMEM or
 * PL_EIO with err set (nothing to free). */
static int open_file(const struct site *S, const char *page, const char *ext, char **path,
                     FILE **f, struct pl_error *err)
{
	char name[40];

	snprintf(name, sizeof(name), "%s.%s", page, ext);
	if (!(*path = pl_fs_path(S->dir, name)))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (!(*f = pl_fs_create_fresh(*path, err))) {
		free(*path);
		return PL_EIO;
	}
	__fsetlocking(*f, FSETLOCKING_BYCALLER); /* one thread writes it */
	return 0;
}

/* The page of series sr: DIR/s-HASH.html. Returns 0 or a PL_E* code with
 * err set. */
static int series_html(struct site *S, struct series *sr, const struct pl_run_list *runs,
                       struct pl_error *err)
{
	char *path = NULL;
	FILE *f = NULL;
	int rc = open_file(S, sr->page, "html", &path, &f, err);

	if (rc)
		return rc;
	page_head(f, sr->label);
	fputs("<p><a href=\"index.html\">&larr; all series</a></p>\n<h1>", f);
	rc = pl_site_html(f, sr->label);
	fputs("</h1>\n<p>Data: <a href=\"", f);
	fprintf(f, "%s.json\">JSON</a>, <a href=\"%s.csv\">CSV</a>. Metrics:", sr->page, sr->page);
	for (size_t k = 0; k < sr->nh; k++)
		if (sr->h[k].npoints)
			fprintf(f, " <a href=\"#%s\">%s</a>", pl_metric_info[sr->h[k].metric].name,
			        pl_metric_info[sr->h[k].metric].name);
	fputs("</p>\n", f);
	for (size_t k = 0; k < sr->nh && !rc; k++) {
		double *xs;
		if (!sr->h[k].npoints)
			continue;
		if (!(xs = malloc(sr->h[k].npoints * sizeof(*xs)))) {
			rc = PL_ENOMEM;
			break;
		}
		pl_site_point_x(&sr->h[k], xs);
		rc = page_metric(f, &sr->h[k], xs, runs);
		free(xs);
	}
	if (!rc)
		rc = page_points(f, sr->h, sr->nh);
	if (!rc)
		rc = page_conditions(f, &runs->v[0]);
	if (!rc)
		rc = page_runs(f, runs);
	if (!rc) {
		footer(f, S);
		fputs("</body>\n</html>\n", f);
	}
	if (ferror(f) | fclose(f))
		rc = rc ? rc : PL_EIO;
	if (rc)
		rc = rc == PL_ENOMEM ? pl_error_set(err, rc, "out of memory")
		                     : pl_error_set(err, PL_EIO, "cannot write '%s'", path);
	free(path);
	return rc;
}

/* One run of a series' JSON: id, start, build identity, source. */
static void json_run(FILE *f, const struct pl_run *r, int first)
{
	int f2 = 1, f3 = 1;

	fputs(first ? "\n{" : ",\n{", f);
	pl_json_write_key(f, &f2, "id");
	fprintf(f, "%lld", r->id);
	pl_json_write_key(f, &f2, "run_started_at");
	if (r->cond[PL_C_RUN_STARTED_AT].set)
		pl_json_write_string(f, r->cond[PL_C_RUN_STARTED_AT].text);
	else
		fputs("null", f);
	pl_json_write_key(f, &f2, "build");
	fputc('{', f);
	for (int b = 0; b < PL_BUILD_COUNT; b++) {
		if (!r->build[b])
			continue;
		pl_json_write_key(f, &f3, pl_build_name(b));
		pl_json_write_string(f, r->build[b]);
	}
	fputc('}', f);
	pl_json_write_key(f, &f2, "source");
	pl_json_write_string(f, r->source);
	pl_json_write_key(f, &f2, "sha256");
	pl_json_write_string(f, r->sha256);
	pl_json_write_key(f, &f2, "reference_only");
	fputs(r->checklist_missing ? "true" : "false", f);
	fputc('}', f);
}

/* The conditions of a series (those of its first run, the start left out)
 * as a JSON object. */
static void json_conditions(FILE *f, const struct pl_run *r)
{
	int first = 1;

	fputc('{', f);
	for (int id = 0; id < PL_COND_COUNT; id++) {
		const struct pl_value *v = &r->cond[id];
		if (id == PL_C_RUN_STARTED_AT || !v->set || !v->text)
			continue;
		pl_json_write_key(f, &first, pl_cond_info[id].name);
		pl_json_write_string(f, v->text);
	}
	for (size_t i = 0; i < r->nextra; i++) {
		pl_json_write_key(f, &first, r->extra[i].name);
		pl_json_write_string(f, r->extra[i].value);
	}
	fputc('}', f);
}

/* The data of series sr: DIR/s-HASH.json. Returns 0 or a PL_E* code with
 * err set. */
static int series_json(struct site *S, struct series *sr, const struct pl_run_list *runs,
                       struct pl_error *err)
{
	char *path = NULL;
	FILE *f = NULL;
	int first = 1, rc = open_file(S, sr->page, "json", &path, &f, err);

	if (rc)
		return rc;
	fputc('{', f);
	pl_json_write_key(f, &first, "series");
	pl_json_write_string(f, sr->page + 2);
	pl_json_write_key(f, &first, "label");
	pl_json_write_string(f, sr->label);
	pl_json_write_key(f, &first, "conditions");
	json_conditions(f, &runs->v[0]);
	pl_json_write_key(f, &first, "metrics");
	fputs("[\n", f);
	for (size_t k = 0, n = 0; k < sr->nh && !rc; k++) {
		if (!sr->h[k].npoints)
			continue;
		if (n++)
			fputs(",\n", f);
		rc = pl_render_history(f, &sr->h[k], PL_FMT_JSON, err);
	}
	fputs("]", f);
	pl_json_write_key(f, &first, "runs");
	fputc('[', f);
	for (size_t i = 0; i < runs->n; i++)
		json_run(f, &runs->v[i], i == 0);
	fputs("]}\n", f);
	if (ferror(f) | fclose(f))
		rc = rc ? rc : PL_EIO;
	if (rc == PL_EIO)
		pl_error_set(err, PL_EIO, "cannot write '%s'", path);
	free(path);
	return rc;
}

/* One point i of history h as a CSV row (series_csv()). Returns 0 or
 * nonzero. */
static int csv_point(FILE *f, const struct pl_history *h, size_t i)
{
	const struct pl_history_point *p = &h->points[i];
	const struct pl_history_step *st = NULL;
	int rc;

	for (size_t j = 0; j < h->nsteps; j++)
		if (h->steps[j].index == i)
			st = &h->steps[j];
	fprintf(f, "%s,%s,%zu,", pl_metric_info[h->metric].name,
	        pl_unit_label(pl_metric_info[h->metric].unit), i);
	rc = pl_csv_write_field(f, p->value.text);
	fprintf(f, ",%zu,", p->n);
	if (!isnan(p->s.median)) /* a point of failed runs only: an empty cell */
		pl_json_write_num(f, p->s.median);
	fputc(',', f);
	if (p->s.ci_valid)
		pl_json_write_num(f, p->s.ci_low);
	fputc(',', f);
	if (p->s.ci_valid)
		pl_json_write_num(f, p->s.ci_high);
	fputc(',', f);
	if (!isnan(p->level))
		pl_json_write_num(f, p->level);
	fputc(',', f);
	if (st)
		pl_json_write_num(f, 100.0 * st->rel_change);
	fputc(',', f);
	if (!rc && st && st->accepted)
		rc = pl_csv_write_field(f, st->accepted->reason);
	fputs("\r\n", f);
	return rc;
}

/* The points of series sr: DIR/s-HASH.csv, one row a point
 * (metric,unit,index,run_started_at,n,median,ci_low,ci_high,level,
 * step_change_pct,accepted). Returns 0 or a PL_E* code with err set. */
static int series_csv(struct site *S, struct series *sr, struct pl_error *err)
{
	char *path = NULL;
	FILE *f = NULL;
	int rc = open_file(S, sr->page, "csv", &path, &f, err);

	if (rc)
		return rc;
	fputs("metric,unit,index,run_started_at,n,median,ci_low,ci_high,level,step_change_pct,"
	      "step_accepted_reason\r\n",
	      f);
	for (size_t k = 0; k < sr->nh && !rc; k++)
		for (size_t i = 0; i < sr->h[k].npoints && !rc; i++)
			rc = csv_point(f, &sr->h[k], i);
	if (ferror(f) | fclose(f))
		rc = rc ? rc : PL_EIO;
	if (rc)
		pl_error_set(err, PL_EIO, "cannot write '%s'", path);
	free(path);
	return rc;
}

/* The three files of series sr: its page, its JSON and its CSV. Returns 0
 * or a PL_E* code with err set. */
static int write_series_files(struct site *S, struct series *sr, const struct pl_run_list *runs,
                              struct pl_error *err)
{
	int rc = series_html(S, sr, runs, err);

	if (!rc)
		rc = series_json(S, sr, runs, err);
	if (!rc)
		rc = series_csv(S, sr, err);
	return rc;
}

/* pl_site_add_fn: one series. */
static int add_series(void *v, struct pl_run_list *runs, struct pl_error *err)
{
	struct site *S = v;
	struct series sr;
	struct pl_cond_key key;
	size_t shown = 0;
	int rc = 0;

	if (!runs->n)
		return 0;
	memset(&sr, 0, sizeof(sr));
	if (!(sr.h = calloc(S->nmetrics, sizeof(*sr.h))))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	sr.nh = S->nmetrics;
	if (pl_cond_key_make(&runs->v[0], &key)) {
		free(sr.h);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	snprintf(sr.page, sizeof(sr.page), "s-%016llx", key.hash);
	snprintf(sr.label, sizeof(sr.label), "%s", pl_site_labels_find(&S->labels, key.hash));
	pl_cond_key_release(&key);
	if (!(sr.conds = series_conds(&runs->v[0]))) {
		free(sr.h);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	for (size_t k = 0; k < S->nmetrics && !rc; k++) {
		struct pl_error e;
		int hr;

		pl_error_init(&e);
		hr = pl_history_build_grouped(runs, S->o->group, S->metrics[k], NULL, S->o->accepted,
		                              &sr.h[k], &e);
		if (hr == PL_ENOMEM) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		} else if (hr || sr.h[k].nmedians == 0) {
			/* no dated run with this metric (or, never here, a refusal); failed
			 * runs alone give a metric no row */
			pl_history_release(&sr.h[k]);
			memset(&sr.h[k], 0, sizeof(sr.h[k]));
			sr.h[k].metric = S->metrics[k];
		} else if (sr.h[k].npoints) {
			shown++;
		}
	}
	if (!rc && shown &&
	    !(rc = S->o->night ? (pl_history_gate_night(sr.h, sr.nh, S->o->night, runs->v[0].id), 0)
	                       : pl_history_gate(sr.h, sr.nh, runs, S->o->group, NULL, S->o->accepted,
	                                         err))) {
		for (size_t k = 0; k < sr.nh && !rc; k++) {
			double *xs;
			if (!sr.h[k].npoints)
				continue;
			if (!(xs = malloc(sr.h[k].npoints * sizeof(*xs)))) {
				rc = pl_error_set(err, PL_ENOMEM, "out of memory");
				break;
			}
			pl_site_point_x(&sr.h[k], xs);
			if ((rc = index_row(S, sr.page, sr.label, sr.conds ? sr.conds : "", &sr.h[k], xs)))
				rc = rc == PL_ENOMEM ? pl_error_set(err, PL_ENOMEM, "out of memory")
				                     : pl_error_set(err, PL_EIO, "cannot write the index");
			free(xs);
		}
		if (!rc)
			rc = write_series_files(S, &sr, runs, err);
		S->nseries++;
	} else if (!rc) {
		S->nundated++;
	}
	for (size_t k = 0; k < sr.nh; k++)
		pl_history_release(&sr.h[k]);
	free(sr.h);
	free(sr.conds);
	return rc;
}

/* ------------------------------------------------------------- the site */

struct job {
	const struct pl_site_opts *o;
	pl_site_walk_fn walk;
	void *ctx;
};

static FILE *open_in(const char *dir, const char *name, struct pl_error *err)
{
	char *path = pl_fs_path(dir, name);
	FILE *f;

	if (!path) {
		pl_error_set(err, PL_ENOMEM, "out of memory");
		return NULL;
	}
	f = pl_fs_create_fresh(path, err);
	free(path);
	if (f) /* one thread writes it: no stdio locking per call */
		__fsetlocking(f, FSETLOCKING_BYCALLER);
	return f;
}

static int close_checked(FILE **f, const char *dir, const char *name, int rc, struct pl_error *err)
{
	if (!*f)
		return rc;
	if ((ferror(*f) | fclose(*f)) && !rc)
		rc = pl_error_set(err, PL_EIO, "cannot write '%s/%s'", dir, name);
	*f = NULL;
	return rc;
}

/* manifest.json: the sha256 of every other file, in name order. */
static int write_manifest(const struct site *S, struct pl_error *err)
{
	char **names = NULL, hex[65];
	size_t n = 0;
	FILE *f;
	int rc = pl_bundle_list_dir(S->dir, &names, &n, err), first = 1;

	if (rc)
		return rc;
	if (!(f = open_in(S->dir, "manifest.json", err))) {
		pl_bundle_free_names(names, n);
		return err->code ? err->code : PL_EIO;
	}
	fputs("{\n  \"perfledger\": ", f);
	pl_json_write_string(f, S->o->tool_version);
	fputs(",\n  \"kind\": \"site\",\n  \"selection\": ", f);
	pl_json_write_string(f, S->o->selection ? S->o->selection : "");
	fprintf(f, ",\n  \"source_date_epoch\": %lld,\n  \"series\": %zu,\n  \"outputs\": [",
	        S->o->epoch, S->nseries);
	for (size_t i = 0; i < n && !rc; i++) {
		char *path, *data = NULL;
		size_t len = 0;
		if (!strcmp(names[i], "manifest.json"))
			continue;
		if (!(path = pl_fs_path(S->dir, names[i]))) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		rc = pl_file_read(path, PL_RENDER_READ_MAX, &data, &len, err);
		free(path);
		if (rc)
			break;
		if (pl_sha256_hex(data, len, hex)) {
			free(data);
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		free(data);
		fputs(first ? "\n    {\"path\": " : ",\n    {\"path\": ", f);
		first = 0;
		pl_json_write_string(f, names[i]);
		fprintf(f, ", \"sha256\": \"%s\"}", hex);
	}
	fputs("\n  ]\n}\n", f);
	pl_bundle_free_names(names, n);
	return close_checked(&f, S->dir, "manifest.json", rc, err);
}

static int render(const char *dir, void *v, struct pl_error *err)
{
	struct job *J = v;
	struct site S;
	int rc = 0;

	memset(&S, 0, sizeof(S));
	S.o = J->o;
	S.dir = dir;
	if (J->o->nmetrics) {
		S.metrics = J->o->metrics;
		S.nmetrics = J->o->nmetrics;
	} else {
		S.metrics = pl_site_default_metrics(&S.nmetrics);
	}
	if (!(S.html = open_in(dir, "index.html", err)) || !(S.json = open_in(dir, "index.json", err)) ||
	    !(S.csv = open_in(dir, "index.csv", err))) {
		rc = err->code ? err->code : PL_EIO;
		goto out;
	}
	page_head(S.html, "perfledger: all series");
	fprintf(S.html, "<h1>All series</h1>\n<p>Every condition key (series) and metric, ordered "
	        "by key, over %s. Verdicts:",
	        S.o->group == PL_G_RUN ? "run_started_at" : S.o->group == PL_G_DAY ? "days (the runs of "
	        "a UTC day are a point)" : S.o->group == PL_G_BUILD ? "builds (the runs of a build_id "
	        "are a point)" : "commits (the runs of a commit are a point)");
	fputs(" <b>failed</b> the last point has failed runs (no "
	      "request completed; a red cross); <b>regression</b> a step that is not accepted and "
	      "goes the worse way by more than 5%, or the latest point a regression against the "
	      "points before it (<code>history --fail-on-step</code> fails); <b>accepted</b> the "
	      "latest step is accepted; <b>improvement</b> the latest step is better; "
	      "<b>stable</b> no failing step; <b>too few points</b> fewer than 4 points; <b>"
	      "superseded</b> continued across a change of condition: not gated. ", S.html);
	fputs(S.o->night ? "The latest nights are decided together, as <code>check</code> without "
	      "<code>--where</code> decides them. " : "Each series' latest night is decided alone. ", S.html);
	fputs(
	      "Data: <a href=\"index.json\">index.json</a>, <a href=\"index.csv\">index.csv</a>.</p>\n"
	      "<div class=\"controls\"><input id=\"q\" type=\"search\" "
	      "placeholder=\"filter: model, hardware, metric, verdict…\" aria-label=\"filter\">"
	      "<select id=\"v\" aria-label=\"verdict\"><option value=\"\">any verdict</option>"
	      "<option>failed</option><option>regression</option><option>accepted</option>"
	      "<option>improvement</option><option>stable</option><option>too few points</option>"
	      "<option>superseded</option></select></div>\n"
	      "<p id=\"count\"></p>\n<div class=\"wrap\"><table id=\"series\">\n<thead><tr>"
	      "<th>series</th><th>metric</th><th>trend</th><th>latest</th><th>at</th>"
	      "<th>points</th><th>verdict</th><th>steps</th><th>accepted</th></tr></thead>\n<tbody>\n",
	      S.html);
	fputc('[', S.json);
	fputs("series,label,metric,unit,points,latest,latest_at,verdict,steps,failing_steps\r\n",
	      S.csv);
	if ((rc = J->walk(J->ctx, pl_site_labels_collect, &S.labels, err)))
		goto out;
	if (pl_site_labels_finish(&S.labels)) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = J->walk(J->ctx, add_series, &S, err)))
		goto out;
	if (S.nseries == 0) {
		rc = pl_error_set(err, PL_EEMPTY,
		                  "no series to show: no selected run has run_started_at and one of "
		                  "the metrics");
		goto out;
	}
	fprintf(S.html, "</tbody></table></div>\n<p>%zu series, %zu row%s, %zu with a regression",
	        S.nseries, S.nrows, S.nrows == 1 ? "" : "s", S.nregressions);
	if (S.nfailedrows) /* only when there are some: other sites' bytes unchanged */
		fprintf(S.html, ", %zu with failed runs", S.nfailedrows);
	if (S.nundated)
		fprintf(S.html, "; %zu series left out (no run with run_started_at and one of the metrics)",
		        S.nundated);
	fprintf(S.html, ".</p>\n");
	footer(S.html, &S);
	fprintf(S.html, "<script>%s</script>\n</body>\n</html>\n", filter_js);
	fputs("\n]\n", S.json);
out:
	rc = close_checked(&S.html, dir, "index.html", rc, err);
	rc = close_checked(&S.json, dir, "index.json", rc, err);
	rc = close_checked(&S.csv, dir, "index.csv", rc, err);
	pl_site_labels_release(&S.labels);
	if (!rc)
		rc = write_manifest(&S, err);
	return rc;
}

int pl_site_write(const char *dir, const struct pl_site_opts *opts, pl_site_walk_fn walk,
                  void *ctx, struct pl_error *err)
{
	struct job J = {opts, walk, ctx};

	if (!pl_group_is_time(opts->group))
		return pl_error_set(err, PL_EUSAGE, "a site groups points by run, day, build or commit");
	return pl_bundle_publish(dir, render, &J, err);
}
