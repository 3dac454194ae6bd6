/*
 * bundle_charts.c — the charts of a bundle: which ones the definition asks
 * for and how they enter the report.
 *
 * With "sweep" a procurement bundle answers its question in three charts
 * drawn as SVG by svg.c from the procurement figures: the cost per 1M
 * output tokens at the SLO as bars sorted lowest first (an offer without
 * a figure is listed with the reason), one latency vs output throughput
 * chart per SLO metric (each offer's points joined in throughput order,
 * labelled with their load — "c=16", or "r=8" for a request rate in an
 * open-loop sweep —, the SLO limit a dashed line), and output throughput
 * vs the load. The cost axis names the definition's currency, or says
 * none is named. "pareto" adds interactivity vs
 * throughput per accelerator (points joined in throughput order and
 * labelled, the Pareto front ringed). "bars" are the gnuplot charts
 * plot.c writes, which pl_bundle_write runs. Each chart is listed in the
 * template context: Markdown links the file, HTML inlines the SVG (for the
 * gnuplot charts horizontal SVG bars of the same metrics, so report.html
 * stays self-contained). Titles say what is drawn.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/bundle_impl.h"
#include "render/render_impl.h"
#include "render/svg.h"
#include "render/template.h"
#include "render/words.h"

/* fmt with each "%s" replaced in turn by a, then b (our own formats from
 * the words table; a missing argument leaves the "%s" out). */
static void fill(char *buf, size_t n, const char *fmt, const char *a, const char *b)
{
	const char *args[2] = {a, b};
	size_t len = 0, k = 0;

	if (n == 0)
		return;
	buf[0] = '\0';
	while (*fmt && len + 1 < n) {
		const char *piece = NULL;
		size_t plen = 1;
		if (fmt[0] == '%' && fmt[1] == 's') {
			piece = k < 2 && args[k] ? args[k] : "";
			k++;
			plen = strlen(piece);
			fmt += 2;
		} else {
			piece = fmt++;
		}
		if (len + plen >= n)
			plen = n - 1 - len;
		memcpy(buf + len, piece, plen);
		len += plen;
		buf[len] = '\0';
	}
}

/* A metric's name as a chart says it: "ttft_p95" -> "TTFT p95",
 * "output_throughput" -> "output throughput". */
static void metric_words(char *buf, size_t n, int m)
{
	static const char *const upper[] = {"ttft_", "tpot_", "itl_", "e2el_"};
	const char *name = pl_metric_info[m].name;
	size_t up = 0;

	snprintf(buf, n, "%s", name);
	for (size_t i = 0; i < 4; i++)
		if (strncmp(name, upper[i], strlen(upper[i])) == 0)
			up = strlen(upper[i]) - 1;
	for (size_t i = 0; buf[i]; i++) {
		if (i < up)
			buf[i] = (char)(buf[i] - 'a' + 'A');
		else if (buf[i] == '_')
			buf[i] = ' ';
	}
}

static char *num_text(char *buf, size_t n, double v)
{
	return pl_fmt_num(buf, n, pl_round_sig(v, 4));
}

/* Appends a drawn chart to b->svg (takes svg). Returns 0 or PL_ENOMEM. */
static int add_svg(struct bundle *b, const char *file, const char *title, char *svg)
{
	struct bundle_svg *o;

	if (!svg)
		return PL_ENOMEM;
	if (b->nsvg >= BUNDLE_MAX_SVG) { /* cannot happen: 1 + PL_SLO_MAX + 2 charts at most */
		free(svg);
		return PL_ENOMEM;
	}
	o = &b->svg[b->nsvg];
	snprintf(o->file, sizeof(o->file), "%s", file);
	o->title = strdup(title);
	o->svg = svg;
	b->nsvg++;
	return o->title ? 0 : PL_ENOMEM;
}

/* The groups of one kind of sweep (all of them unless the report is mixed)
 * and the words their charts are titled in. */
struct kind {
	const size_t *idx; /* n group indexes, in the groups' order */
	size_t n;
	int load;          /* PL_C_CONCURRENCY or PL_C_REQUEST_RATE; -1: all groups */
	const struct words *w;
};

/* A chart's title (base, with the kind of sweep in a mixed report:
 * "Output throughput vs request rate (open loop)") into title, and its file
 * (stem.svg; an open-loop chart of a mixed report stem_open_loop.svg) into
 * file; a NULL base or stem writes nothing there. */
static void kind_name(const struct bundle *b, const struct kind *kd, char *title, size_t tn,
                      const char *base, char *file, size_t fn, const char *stem)
{
	int mixed = b->proc->mixed && kd->load >= 0, open = kd->load == PL_C_REQUEST_RATE;

	if (base) {
		if (mixed) {
			struct pl_msg m;
			char *t;
			pl_msg_init(&m, PL_MSG_VERDICT_KIND_CHART);
			pl_msg_text(&m, base);
			pl_msg_code_arg(&m, open ? PL_MSG_VERDICT_KIND_OPEN : PL_MSG_VERDICT_KIND_CLOSED);
			t = m.oom ? NULL : pl_words_msg(&m, pl_words_lang(b->w->lang));
			pl_msg_release(&m);
			snprintf(title, tn, "%s", t ? t : base);
			free(t);
		} else {
			snprintf(title, tn, "%s", base);
		}
	}
	if (stem)
		snprintf(file, fn, "%s%s.svg", stem, mixed && open ? "_open_loop" : "");
}

/* Cost per 1M output tokens at the SLO, one bar per offer, lowest first;
 * offers without a figure last, with the reason. */
static int cost_chart(struct bundle *b, const struct kind *kd)
{
	const struct pl_procurement *p = b->proc;
	size_t n = kd->n, *order = calloc(n, sizeof(size_t));
	int *styles = calloc(n ? n : 1, sizeof(int));
	char title[256], file[64];
	const char **labels = calloc(n, sizeof(char *)), **notes = calloc(n, sizeof(char *));
	const char **prefixes = calloc(n, sizeof(char *));
	enum pl_lang lang = pl_words_lang(b->w->lang);
	double *vals = calloc(n, sizeof(double));
	const char *cur = b->o->spec->currency;
	char axis[256];
	const char *series[1] = {axis};
	int rc = 0;

	/* the axis names the definition's currency; prices stored with the
	 * runs (or a definition without "currency") name none, and it says so */
	fill(axis, sizeof(axis), b->w->with_currency, b->w->cost_x,
	     cur && *cur ? cur : b->w->currency_unnamed);

	if (!order || !labels || !notes || !vals || !prefixes || !styles) {
		rc = PL_ENOMEM;
		goto out;
	}
	for (size_t g = 0; g < n; g++)
		order[g] = kd->idx[g];
	for (size_t i = 1; i < n; i++) { /* insertion sort by cost, NAN last, stable */
		size_t v = order[i], j = i;
		double cv = p->groups[v].slo_cost_per_mtok;
		cv = isnan(cv) ? INFINITY : cv;
		while (j > 0) {
			double cp = p->groups[order[j - 1]].slo_cost_per_mtok;
			if ((isnan(cp) ? INFINITY : cp) <= cv)
				break;
			order[j] = order[j - 1];
			j--;
		}
		order[j] = v;
	}
	for (size_t i = 0; i < n; i++) {
		const struct pl_procure_group *gr = &p->groups[order[i]];
		int priced = gr->token_priced || isfinite(gr->price_per_hour);
		labels[i] = gr->label;
		styles[i] = (int)gr->offer + 1; /* the offer's colour in every chart */
		vals[i] = gr->slo_cost_per_mtok;
		notes[i] = !priced ? b->w->cost_no_price
		           : gr->slo.status == PL_SLO_NONE_MEETS && gr->usable == 0
		               ? pl_word(PL_MSG_VERDICT_FLAG_NOT_EVALUABLE, lang)
		           : gr->slo.status == PL_SLO_NONE_MEETS ? b->w->cost_no_slo
		                                                 : "-";
		/* the chart a blog embeds says the bound too: "≤ 0.4167" */
		if (gr->cost_upper_bound)
			prefixes[i] = pl_word(PL_MSG_VERDICT_AT_MOST_SIGN, lang);
	}
	{
		struct pl_svg_bars c = {title, axis, labels, n, series, 1, vals, notes, prefixes, styles};
		kind_name(b, kd, title, sizeof(title), b->w->cost_title, file, sizeof(file), "cost");
		rc = add_svg(b, file, title, pl_svg_bars(&c));
	}
out:
	free(order);
	free(styles);
	free(labels);
	free(notes);
	free(prefixes);
	free(vals);
	return rc;
}

/* One kind's points, group after group, in the arrays its charts draw. */
struct kind_points {
	struct pl_svg_series *se; /* one series per group */
	size_t ng;                /* groups */
	double *xs, *ys;          /* concurrency, throughput */
	double *px, *py;          /* throughput per accelerator, interactivity */
	double *lx, *ly;          /* a latency chart's throughput and latency */
	const char **labp;        /* each point's label, or NULL */
	unsigned char *mk;        /* 1 for a point on the Pareto front */
};

/* Latency vs throughput for the k-th SLO metric, its limit drawn. */
static int latency_chart(struct bundle *b, const struct kind *kd, const struct kind_points *kp,
                         size_t k)
{
	const struct pl_procurement *p = b->proc;
	const struct words *w = kd->w;
	struct pl_svg_series *se = kp->se;
	size_t ng = kp->ng, at = 0;
	int m = p->slo.metric[k];
	char mw[64], title[256], ylabel[96], lim[40], line[128], file[64];
	struct pl_svg_hline hl;

	for (size_t g = 0; g < ng; g++) {
		const struct pl_procure_group *gr = &p->groups[kd->idx[g]];
		for (size_t i = 0; i < gr->npoints; i++) {
			const struct pl_compare_row *row = &b->cmp->rows[gr->points[i].row];
			kp->lx[at + i] = gr->points[i].throughput;
			kp->ly[at + i] = row->n_metric[m] ? row->metric[m] : NAN;
		}
		se[g].x = kp->lx + at;
		se[g].y = kp->ly + at;
		se[g].label = kp->labp + at;
		se[g].mark = NULL;
		se[g].note = NULL;
		at += gr->npoints;
	}
	metric_words(mw, sizeof(mw), m);
	fill(ylabel, sizeof(ylabel), w->latency_title, mw, NULL);
	kind_name(b, kd, title, sizeof(title), ylabel, NULL, 0, NULL);
	snprintf(ylabel, sizeof(ylabel), "%s (%s)", mw, pl_unit_label(pl_metric_info[m].unit));
	fill(line, sizeof(line), w->slo_line, mw, num_text(lim, sizeof(lim), p->slo.limit[k]));
	hl.y = p->slo.limit[k];
	hl.label = line;
	{
		char stem[40]; /* "latency_" and a metric name */
		snprintf(stem, sizeof(stem), "latency_%s", pl_metric_info[m].name);
		kind_name(b, kd, NULL, 0, NULL, file, sizeof(file), stem);
	}
	{
		struct pl_svg_xy c = {.title = title, .xlabel = w->latency_x, .ylabel = ylabel,
		                      .lines = 1, .sort_x = 1, .hlines = &hl, .nhlines = 1,
		                      .series = se, .nseries = ng};
		return add_svg(b, file, title, pl_svg_xy_chart(&c));
	}
}

/* Throughput vs concurrency (log x). */
static int sweep_chart(struct bundle *b, const struct kind *kd, const struct kind_points *kp)
{
	const struct words *w = kd->w;
	struct pl_svg_series *se = kp->se;
	char title[256], file[64];
	struct pl_svg_xy c = {.title = title, .xlabel = w->sweep_x,
	                      .ylabel = w->sweep_y, .logx = 1, .lines = 1,
	                      .series = se, .nseries = kp->ng};
	size_t at = 0;

	for (size_t g = 0; g < kp->ng; g++) {
		se[g].x = kp->xs + at;
		se[g].y = kp->ys + at;
		se[g].mark = NULL;
		se[g].label = NULL;
		se[g].note = NULL;
		at += se[g].n;
	}
	kind_name(b, kd, title, sizeof(title), w->sweep_title, file, sizeof(file), "sweep");
	return add_svg(b, file, title, pl_svg_xy_chart(&c));
}

/* Interactivity vs throughput per accelerator, the Pareto front marked. */
static int pareto_chart(struct bundle *b, const struct kind *kd, const struct kind_points *kp)
{
	const struct words *w = kd->w;
	struct pl_svg_series *se = kp->se;
	char title[256], file[64];
	struct pl_svg_xy c = {.title = title, .xlabel = w->pareto_x,
	                      .ylabel = w->pareto_y, .mark_label = w->pareto_mark,
	                      .lines = 1, .sort_x = 1, .series = se, .nseries = kp->ng};
	size_t at = 0;

	for (size_t g = 0; g < kp->ng; g++) {
		int any_x = 0, drawn = 0;

		se[g].x = kp->px + at;
		se[g].y = kp->py + at;
		se[g].mark = kp->mk + at;
		se[g].label = kp->labp + at;
		for (size_t i = 0; i < se[g].n; i++) {
			any_x |= isfinite(se[g].x[i]) != 0;
			drawn |= isfinite(se[g].x[i]) && isfinite(se[g].y[i]);
		}
		/* a group with no point on the chart says why: a cloud API
		 * has no accelerator count to divide by */
		se[g].note = drawn ? NULL : !any_x ? w->pareto_no_acc : w->pareto_no_tpot;
		at += se[g].n;
	}
	kind_name(b, kd, title, sizeof(title), w->pareto_title, file, sizeof(file), "pareto");
	return add_svg(b, file, title, pl_svg_xy_chart(&c));
}

static int kind_charts(struct bundle *b, const struct kind *kd)
{
	const struct pl_procurement *p = b->proc;
	const struct words *w = kd->w;
	unsigned want = b->o->spec->charts;
	size_t ng = kd->n;
	struct kind_points kp;
	struct pl_svg_series *se;
	double *xs, *ys, *px, *py, *lx, *ly;
	char (*lab)[32];
	const char **labp;
	unsigned char *mk;
	size_t total = 0, at = 0;
	int rc = 0, any_price = 0;

	for (size_t g = 0; g < ng; g++) {
		total += p->groups[kd->idx[g]].npoints;
		any_price |= p->groups[kd->idx[g]].token_priced || isfinite(p->groups[kd->idx[g]].price_per_hour);
	}
	se = calloc(ng ? ng : 1, sizeof(*se));
	xs = calloc(total + 1, sizeof(double));
	ys = calloc(total + 1, sizeof(double));
	px = calloc(total + 1, sizeof(double));
	py = calloc(total + 1, sizeof(double));
	lx = calloc(total + 1, sizeof(double));
	ly = calloc(total + 1, sizeof(double));
	lab = calloc(total + 1, sizeof(*lab));
	labp = calloc(total + 1, sizeof(char *));
	mk = calloc(total + 1, 1);
	if (!se || !xs || !ys || !px || !py || !lx || !ly || !lab || !labp || !mk) {
		rc = PL_ENOMEM;
		goto out;
	}
	for (size_t g = 0; g < ng; g++) {
		const struct pl_procure_group *gr = &p->groups[kd->idx[g]];
		for (size_t i = 0; i < gr->npoints; i++) {
			char num[40];
			xs[at + i] = gr->points[i].concurrency;
			ys[at + i] = gr->points[i].throughput;
			px[at + i] = gr->points[i].throughput_per_acc;
			py[at + i] = gr->points[i].interactivity;
			mk[at + i] = (unsigned char)gr->points[i].pareto;
			if (isfinite(gr->points[i].concurrency)) {
				fill(lab[at + i], sizeof(lab[at + i]), w->point_label,
				     num_text(num, sizeof(num), gr->points[i].concurrency), NULL);
				labp[at + i] = lab[at + i];
			}
		}
		se[g].name = gr->label;
		se[g].n = gr->npoints;
		se[g].style = (int)gr->offer + 1; /* one colour and marker per offer */
		at += gr->npoints;
	}
	/* the answer first: what a token costs at the service level */
	if ((want & PL_CHART_SWEEP) && p->slo.n > 0 && any_price)
		rc = cost_chart(b, kd);
	/* latency vs throughput, one chart per SLO metric, its limit drawn */
	kp = (struct kind_points){se, ng, xs, ys, px, py, lx, ly, labp, mk};
	for (size_t k = 0; rc == 0 && (want & PL_CHART_SWEEP) && p->sweep && k < p->slo.n; k++)
		rc = latency_chart(b, kd, &kp, k);
	if (rc == 0 && (want & PL_CHART_SWEEP) && p->sweep)
		rc = sweep_chart(b, kd, &kp);
	if (rc == 0 && (want & PL_CHART_PARETO))
		rc = pareto_chart(b, kd, &kp);
out:
	free(se);
	free(xs);
	free(ys);
	free(px);
	free(py);
	free(lx);
	free(ly);
	free(lab);
	free(labp);
	free(mk);
	return rc;
}

int pl_bundle_make_charts(struct bundle *b)
{
	const struct pl_procurement *p = b->proc;
	size_t *idx;
	int rc = 0;

	if (!p || p->ngroups == 0 || !(b->o->spec->charts & (PL_CHART_SWEEP | PL_CHART_PARETO)))
		return 0;
	if (!(idx = calloc(p->ngroups, sizeof(*idx))))
		return PL_ENOMEM;
	if (!p->mixed) {
		struct kind kd = {idx, p->ngroups, -1, b->w};
		for (size_t g = 0; g < p->ngroups; g++)
			idx[g] = g;
		rc = kind_charts(b, &kd);
	} else {
		/* one set of charts per kind of sweep, each on its own load axis */
		static const int loads[] = {PL_C_CONCURRENCY, PL_C_REQUEST_RATE};
		for (size_t k = 0; k < 2 && rc == 0; k++) {
			struct kind kd = {idx, 0, loads[k], NULL};
			for (size_t g = 0; g < p->ngroups; g++)
				if (p->groups[g].load == loads[k]) {
					if (!kd.w)
						kd.w = bundle_words(b, &p->groups[g]);
					idx[kd.n++] = g;
				}
			if (kd.n)
				rc = kind_charts(b, &kd);
		}
	}
	free(idx);
	return rc;
}

static int write_str(FILE *fp, void *s, struct pl_error *err)
{
	(void)err;
	fputs(s, fp);
	return ferror(fp) ? PL_EIO : 0;
}

int pl_bundle_write_charts(struct bundle *b, const char *dir, struct pl_error *err)
{
	for (size_t i = 0; i < b->nsvg; i++) {
		char *path = pl_fs_path(dir, b->svg[i].file);
		int rc;
		if (!path)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		rc = pl_fs_write_atomic(path, write_str, b->svg[i].svg, err);
		free(path);
		if (rc != 0)
			return rc;
	}
	return 0;
}

void pl_bundle_free_charts(struct bundle *b)
{
	for (size_t i = 0; i < b->nsvg; i++) {
		free(b->svg[i].title);
		free(b->svg[i].svg);
	}
	b->nsvg = 0;
}

/* The title of a bar chart of metrics ms (nm of them, one unit): "TTFT
 * p50 / p95 (s), median of each row's runs, lower is better". */
static void bars_title(const struct bundle *b, const int *ms, size_t nm, char *buf, size_t n)
{
	char names[128] = "", mw[64], t[256];
	size_t len = 0;

	for (size_t i = 0; i < nm; i++) {
		metric_words(mw, sizeof(mw), ms[i]);
		/* "TTFT p50 / p95": the second name without the shared prefix */
		if (i > 0 && strchr(mw, ' ') && strncmp(mw, names, (size_t)(strchr(mw, ' ') - mw)) == 0)
			len += (size_t)snprintf(names + len, sizeof(names) - len, " / %s", strchr(mw, ' ') + 1);
		else
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? " / " : "", mw);
		if (len >= sizeof(names))
			len = sizeof(names) - 1;
	}
	fill(t, sizeof(t), b->w->bars_title, names, pl_unit_label(pl_metric_info[ms[0]].unit));
	snprintf(buf, n, "%s%s", t,
	         pl_metric_info[ms[0]].direction == PL_LOWER_IS_BETTER ? b->w->better_lower
	                                                         : b->w->better_higher);
}

int pl_bundle_ctx_charts(struct bundle *b, const struct pl_chart *charts, size_t ncharts)
{
	struct pl_tpl_ctx *c = b->ctx;
	int rc = pl_tpl_set_list(c, "charts");

	for (size_t i = 0; i < b->nsvg; i++) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "charts");
		if (!it)
			return PL_ENOMEM;
		rc |= pl_tpl_set(it, "title", b->svg[i].title);
		rc |= pl_tpl_set(it, "file", b->svg[i].file);
		rc |= pl_tpl_set_raw(it, "svg", b->svg[i].svg);
	}
	/* the gnuplot bar charts: linked as images in Markdown; in HTML the
	 * same metrics as horizontal bars of our own (self-contained) */
	for (size_t i = 0; i < ncharts; i++) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "charts");
		size_t nr = b->cmp->nrows ? b->cmp->nrows : 1, nm = 0;
		const char **labels = calloc(nr, sizeof(char *));
		char **lab = calloc(nr, sizeof(char *));
		double *vals = calloc(nr * 2, sizeof(double));
		char file[96], title[320], names[2][64], *svg = NULL;
		const char *series[2];
		int cand[2], ms[2];

		if (strcmp(charts[i].name, "ttft") == 0) {
			cand[0] = PL_M_TTFT_P50;
			cand[1] = PL_M_TTFT_P95;
		} else if (strcmp(charts[i].name, "tpot") == 0) {
			int itl = 1;
			for (size_t r = 0; r < b->cmp->nrows; r++)
				itl &= !b->cmp->rows[r].n_metric[PL_M_TPOT_P50] &&
				       !b->cmp->rows[r].n_metric[PL_M_TPOT_P95];
			cand[0] = itl ? PL_M_ITL_P50 : PL_M_TPOT_P50;
			cand[1] = itl ? PL_M_ITL_P95 : PL_M_TPOT_P95;
		} else {
			cand[0] = PL_M_OUTPUT_THROUGHPUT;
			cand[1] = PL_M_NONE;
		}
		for (int k = 0; k < 2; k++) { /* the metrics some row has, as plot.c draws */
			int present = 0;
			for (size_t r = 0; cand[k] != PL_M_NONE && r < b->cmp->nrows; r++)
				present |= b->cmp->rows[r].n_metric[cand[k]] != 0;
			if (present)
				ms[nm++] = cand[k];
		}
		if (!it || !labels || !lab || !vals)
			rc = PL_ENOMEM;
		for (size_t k = 0; k < nm; k++) {
			snprintf(names[k], sizeof(names[k]), "%s", pl_metric_info[ms[k]].name);
			series[k] = names[k];
		}
		for (size_t r = 0; rc == 0 && r < b->cmp->nrows; r++) {
			char buf[1024];
			lab[r] = strdup(pl_render_row_label(b->cmp, r, buf, sizeof(buf)));
			labels[r] = lab[r] ? lab[r] : "";
			for (size_t k = 0; k < nm; k++)
				vals[r * nm + k] = b->cmp->rows[r].n_metric[ms[k]] ? b->cmp->rows[r].metric[ms[k]]
				                                                  : NAN;
		}
		if (rc == 0 && nm > 0) {
			const char *unit = pl_metric_info[ms[0]].unit == PL_U_SECONDS ? b->w->unit_s
			                                                             : b->w->unit_toks;
			struct pl_svg_bars bc = {title, unit, labels, b->cmp->nrows, series, nm, vals, NULL, NULL, NULL};
			bars_title(b, ms, nm, title, sizeof(title));
			svg = pl_svg_bars(&bc);
			snprintf(file, sizeof(file), "%s.svg", charts[i].name);
			rc |= pl_tpl_set(it, "title", title);
			rc |= pl_tpl_set(it, "file", file);
			rc |= svg ? pl_tpl_set_raw(it, "svg", svg) : PL_ENOMEM;
		}
		free(svg);
		for (size_t r = 0; lab && r < b->cmp->nrows; r++)
			free(lab[r]);
		free(lab);
		free(labels);
		free(vals);
		if (rc)
			return PL_ENOMEM;
	}
	return rc ? PL_ENOMEM : 0;
}
