/*
 * table.c — a comparison or a list of runs as a terminal, Markdown, CSV or
 * JSON table.
 *
 * Text, Markdown and CSV go through one small grid of cells: each cell
 * knows whether it came from an input file (then it is sanitised for the
 * terminal, escaped for Markdown, neutralised for CSV) or from us (names,
 * units, numbers). JSON is written directly in the shapes render.h fixes.
 * Human tables show 4 significant digits; CSV and JSON show the shortest
 * text that reads back to the same double. Everything is in the C locale.
 */
#include "core/names.h"
#include "util/suggest.h"
#include "render/render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render_impl.h"
#include "render/words.h"

#define REF_FOOTNOTE "includes reference-only runs (publication checklist items missing)"

/* --------------------------------------------------------------- helpers */

static int finish(FILE *out, int rc, struct pl_error *err)
{
	if (rc == PL_ENOMEM)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc != 0)
		return rc;
	if (fflush(out) != 0 || ferror(out))
		return pl_error_set(err, PL_EIO, "cannot write the table");
	return 0;
}

/* Text of a metric value: 4 significant digits for humans, round-trip
 * for machines. */
static void fmt_metric(char *buf, size_t n, double v, enum pl_table_format fmt)
{
	if (fmt == PL_FMT_TEXT || fmt == PL_FMT_MARKDOWN)
		pl_fmt_sig4(buf, n, v);
	else
		pl_fmt_num(buf, n, v);
}

/* Deltas are derived numbers: machine outputs round them to 0.001 %. */
static double round_delta(double v)
{
	double r = round(v * 1000.0) / 1000.0;
	return r == 0 ? 0.0 : r;
}

static void metric_header(char *buf, size_t n, int m)
{
	snprintf(buf, n, "%s (%s)", pl_metric_info[m].name,
	         pl_unit_label(pl_metric_info[m].unit));
}

int pl_table_format_parse(const char *s, enum pl_table_format *out, struct pl_error *err)
{
	static const struct {
		const char *name;
		enum pl_table_format fmt;
	} names[] = {{"text", PL_FMT_TEXT}, {"markdown", PL_FMT_MARKDOWN}, {"csv", PL_FMT_CSV},
	             {"json", PL_FMT_JSON}};

	for (size_t i = 0; s && i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(s, names[i].name) == 0) {
			*out = names[i].fmt;
			return 0;
		}
	}
	{
		const char *cands[] = {"text", "markdown", "csv", "json"};
		char dym[96];
		return pl_error_set(err, PL_EUSAGE,
		                    "unknown format '%s'%s (expected text, markdown, csv or json)", s ? s : "",
		                    pl_did_you_mean(dym, sizeof(dym), s ? pl_suggest(s, cands, 4) : NULL));
	}
}

/* ------------------------------------------------------------ comparison */

/* Which columns a comparison table has. */
struct layout {
	int conds[PL_COND_COUNT];     /* axis fields, then travelling fields that differ */
	size_t nconds;
	int metrics[PL_METRIC_COUNT]; /* metrics of cmp present in at least one row */
	size_t nmetrics;
	int any_ref;                  /* some row has reference-only runs */
};

static void layout_build(const struct pl_comparison *cmp, struct layout *l)
{
	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < cmp->naxis; i++)
		if (cmp->axis[i] >= 0 && cmp->axis[i] < PL_COND_COUNT)
			l->conds[l->nconds++] = cmp->axis[i];
	for (int id = 0; id < PL_COND_COUNT; id++) {
		if (!cmp->varies[id] || pl_render_is_axis(cmp, id) || cmp->shared[id].set)
			continue;
		for (size_t r = 0; r < cmp->nrows; r++) {
			if (cmp->rows[r].axis[id].set) {
				l->conds[l->nconds++] = id;
				break;
			}
		}
	}
	for (size_t i = 0; i < cmp->nmetrics; i++) {
		int m = cmp->metrics[i];
		if (m < 0 || m >= PL_METRIC_COUNT)
			continue;
		for (size_t r = 0; r < cmp->nrows; r++) {
			if (cmp->rows[r].n_metric[m]) {
				l->metrics[l->nmetrics++] = m;
				break;
			}
		}
	}
	for (size_t r = 0; r < cmp->nrows; r++)
		if (cmp->rows[r].reference_only > 0)
			l->any_ref = 1;
}

/* ------------------------------------------------- the request SLO columns */

/* Units of the SLO columns in headers: the goodputs say they are at the
 * SLO, so that they never read as a tool's own goodput column. */
static const char *const slo_col_unit[PL_SLO_COLS] = {"fraction", "req/s at slo", "tok/s at slo"};

/* The comparison's SLO: "ttft <= 0.2 s, tpot <= 0.05 s" (human, the form
 * `requests` prints) or "ttft=0.2,tpot=0.05" (CSV: the --slo syntax). */
static char *slo_text(const struct pl_rq_slo *slo, int human, char *buf, size_t n)
{
	const double lim[] = {slo->ttft, slo->tpot, slo->itl, slo->e2el};
	static const char *const names[] = {"ttft", "tpot", "itl", "e2el"};
	char num[40];

	buf[0] = '\0';
	for (int k = 0; k < 4; k++) {
		size_t len = strlen(buf);
		if (isnan(lim[k]) || len >= n)
			continue;
		pl_fmt_num(num, sizeof(num), lim[k]);
		snprintf(buf + len, n - len, human ? "%s%s <= %s s" : "%s%s=%s",
		         len ? (human ? ", " : ",") : "", names[k], num);
	}
	return buf;
}

/* Header cells of the SLO columns: each column (and, human, its delta);
 * CSV: "slo", the columns, then their deltas. */
static void slo_header(struct pl_grid *g, int human)
{
	char buf[128];

	if (!human)
		pl_grid_put(g, "slo", 0, 0);
	for (int c = 0; c < PL_SLO_COLS; c++) {
		snprintf(buf, sizeof(buf), "%s (%s)", pl_slo_col_name[c], slo_col_unit[c]);
		pl_grid_put(g, buf, 0, 1);
		if (human)
			pl_grid_put(g, "delta", 0, 1);
	}
	for (int c = 0; !human && c < PL_SLO_COLS; c++) {
		snprintf(buf, sizeof(buf), "%s delta_pct", pl_slo_col_name[c]);
		pl_grid_put(g, buf, 0, 1);
	}
}

/* A row's SLO cells, in slo_header()'s order: n/a (CSV: empty) where no run
 * of the row has the value; human cells show the runs' spread. */
static void slo_cells(struct pl_grid *g, const struct pl_comparison *cmp,
                      const struct pl_compare_row *row, enum pl_table_format fmt)
{
	int human = fmt != PL_FMT_CSV;
	const struct pl_row_slo *s = &row->slo;
	char buf[160];

	if (!human)
		pl_grid_put(g, slo_text(&cmp->slo, 0, buf, sizeof(buf)), 1, 0); /* quoted: commas */
	for (int c = 0; c < PL_SLO_COLS; c++) {
		if (!s->n[c]) {
			pl_grid_put(g, human ? "n/a" : "", 0, 1);
		} else {
			fmt_metric(buf, sizeof(buf), s->value[c], fmt);
			if (human && s->n[c] > 1) { /* "0.5 (0.4–0.6)", as pl_fmt_spread */
				char lo[64], hi[64];
				size_t len = strlen(buf);
				pl_fmt_sig4(lo, sizeof(lo), s->min[c]);
				pl_fmt_sig4(hi, sizeof(hi), s->max[c]);
				if (strcmp(lo, hi) != 0)
					snprintf(buf + len, sizeof(buf) - len, " (%s\xe2\x80\x93%s)", lo, hi);
			}
			pl_grid_put(g, buf, 0, 1);
		}
		if (!human)
			continue;
		if (s->has_delta[c] && isfinite(s->delta_pct[c]))
			pl_fmt_delta(buf, sizeof(buf), s->delta_pct[c]);
		else
			snprintf(buf, sizeof(buf), "-");
		pl_grid_put(g, buf, 0, 1);
	}
	for (int c = 0; !human && c < PL_SLO_COLS; c++) {
		if (s->has_delta[c] && isfinite(s->delta_pct[c]))
			pl_fmt_num(buf, sizeof(buf), round_delta(s->delta_pct[c]));
		else
			buf[0] = '\0';
		pl_grid_put(g, buf, 0, 1);
	}
}

static void comparison_grid(const struct pl_comparison *cmp, const struct layout *l,
                            enum pl_table_format fmt, struct pl_grid *g)
{
	int human = fmt != PL_FMT_CSV;
	const char *missing = human ? "-" : "";
	char buf[128];

	g->ncols = l->nconds + 1 + (human ? 2 * l->nmetrics : 1 + 2 * l->nmetrics);
	if (cmp->has_slo)
		g->ncols += 2 * PL_SLO_COLS + (human ? 0 : 1);
	for (size_t i = 0; i < l->nconds; i++)
		pl_grid_put(g, pl_cond_info[l->conds[i]].name, 0, 0);
	pl_grid_put(g, "n", 0, 1);
	if (!human)
		pl_grid_put(g, "reference_only", 0, 1);
	for (size_t i = 0; i < l->nmetrics; i++) {
		metric_header(buf, sizeof(buf), l->metrics[i]);
		pl_grid_put(g, buf, 0, 1);
		if (human)
			pl_grid_put(g, "delta", 0, 1);
	}
	for (size_t i = 0; human == 0 && i < l->nmetrics; i++) {
		snprintf(buf, sizeof(buf), "%s delta_pct", pl_metric_info[l->metrics[i]].name);
		pl_grid_put(g, buf, 0, 1);
	}
	if (cmp->has_slo)
		slo_header(g, human);

	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct pl_compare_row *row = &cmp->rows[r];
		for (size_t i = 0; i < l->nconds; i++) {
			const struct pl_value *v = &row->axis[l->conds[i]];
			const char *text = v->set && v->text ? v->text : missing;
			if (i == 0 && human && row->reference_only > 0) {
				size_t k = strlen(text);
				char *marked = malloc(k + 3);
				if (!marked) {
					g->oom = 1;
					return;
				}
				memcpy(marked, text, k);
				memcpy(marked + k, " *", 3);
				pl_grid_put(g, marked, 1, 0);
				free(marked);
			} else {
				pl_grid_put(g, text, 1, 0);
			}
		}
		snprintf(buf, sizeof(buf), "%zu", row->n);
		pl_grid_put(g, buf, 0, 1);
		if (!human) {
			snprintf(buf, sizeof(buf), "%zu", row->reference_only);
			pl_grid_put(g, buf, 0, 1);
		}
		for (size_t i = 0; i < l->nmetrics; i++) {
			int m = l->metrics[i];
			if (row->n_metric[m])
				fmt_metric(buf, sizeof(buf), row->metric[m], fmt);
			else
				snprintf(buf, sizeof(buf), "%s", missing);
			if (human) { /* "0.1097 (0.1050–0.1120)"; "1e+308 !" when implausible */
				char spread[96];
				size_t len = strlen(buf);
				if (pl_fmt_spread(spread, sizeof(spread), row, m)[0])
					snprintf(buf + len, sizeof(buf) - len, " (%s)", spread);
				len = strlen(buf);
				if (row->n_metric[m] && row->implausible[m])
					snprintf(buf + len, sizeof(buf) - len, " !");
			}
			pl_grid_put(g, buf, 0, 1);
			if (!human)
				continue;
			if (row->has_delta[m] && isfinite(row->delta_pct[m]))
				pl_fmt_delta(buf, sizeof(buf), row->delta_pct[m]);
			else
				snprintf(buf, sizeof(buf), "%s", missing);
			pl_grid_put(g, buf, 0, 1);
		}
		for (size_t i = 0; !human && i < l->nmetrics; i++) {
			int m = l->metrics[i];
			if (row->has_delta[m] && isfinite(row->delta_pct[m]))
				pl_fmt_num(buf, sizeof(buf), round_delta(row->delta_pct[m]));
			else
				buf[0] = '\0';
			pl_grid_put(g, buf, 0, 1);
		}
		if (cmp->has_slo)
			slo_cells(g, cmp, row, fmt);
	}
}

/* "axis: ..." and "shared: ..." lines of text and Markdown tables. */
static int write_header_lines(FILE *out, const struct pl_comparison *cmp, enum pl_table_format fmt)
{
	const char *sep = fmt == PL_FMT_MARKDOWN ? "\n\n" : "\n";
	int rc;

	fputs("axis: ", out);
	for (size_t i = 0; i < cmp->naxis; i++)
		if (cmp->axis[i] >= 0 && cmp->axis[i] < PL_COND_COUNT)
			fprintf(out, "%s%s", i ? ", " : "", pl_cond_info[cmp->axis[i]].name);
	fputs(sep, out);
	if ((rc = pl_render_write_shared(out, cmp, fmt, 0)))
		return rc;
	fputs(sep, out);
	if (cmp->has_slo) {
		char buf[200];
		fprintf(out, "slo: %s (per request; slo_attainment and goodput from the runs' stored "
		        "requests)%s", slo_text(&cmp->slo, 1, buf, sizeof(buf)), sep);
	}
	return 0;
}

static int write_caveats(FILE *out, const struct pl_comparison *cmp, const struct layout *l,
                         enum pl_table_format fmt)
{
	if (fmt == PL_FMT_MARKDOWN) {
		if (l->any_ref)
			fputs("\n\\* " REF_FOOTNOTE "\n", out);
		if (cmp->caveats.n > 0)
			fputc('\n', out);
		for (size_t i = 0; i < cmp->caveats.n; i++) {
			char *t = pl_words_msg(&cmp->caveats.v[i], PL_LANG_EN);
			if (!t)
				return PL_ENOMEM;
			fputs("- caveat: ", out);
			pl_markdown_write_cell(out, t);
			fputc('\n', out);
			free(t);
		}
		return 0;
	}
	if (l->any_ref)
		fputs("* " REF_FOOTNOTE "\n", out);
	for (size_t i = 0; i < cmp->caveats.n; i++) {
		char *t = pl_words_msg(&cmp->caveats.v[i], PL_LANG_EN);
		char *s = t ? pl_text_sanitize(t) : NULL;
		free(t);
		if (!s)
			return PL_ENOMEM;
		fprintf(out, "caveat: %s\n", s);
		free(s);
	}
	return 0;
}

/* ------------------------------------------------------------------ JSON */

static void json_cond_value(FILE *out, int id, const struct pl_value *v)
{
	switch (pl_cond_info[id].type) {
	case PL_CT_INT:
	case PL_CT_REAL:
		if (isnan(v->num) && v->text) /* a row's mixed values, "4; 8" */
			pl_json_write_string(out, v->text);
		else
			pl_json_write_num(out, v->num);
		break;
	case PL_CT_BOOL:
		if (isnan(v->num) && v->text)
			pl_json_write_string(out, v->text);
		else
			fputs(v->num != 0 ? "true" : "false", out);
		break;
	default:
		pl_json_write_string(out, v->text);
		break;
	}
}

/* `}, "min": {...` or max: each metric's smallest or largest value over the
 * row's runs that have it (equal to the median when one run has it). */
static void json_spread(FILE *out, const struct pl_comparison *cmp,
                        const struct pl_compare_row *row, const char *key, const double *v)
{
	int first = 1;

	fprintf(out, "}, \"%s\": {", key);
	for (size_t i = 0; i < cmp->nmetrics; i++) {
		int m = cmp->metrics[i];
		if (m < 0 || m >= PL_METRIC_COUNT || !row->n_metric[m] || isnan(v[m]))
			continue;
		pl_json_write_key(out, &first, pl_metric_info[m].name);
		pl_json_write_num(out, v[m]);
	}
}

/* `, "key": {...}` of the SLO columns: v per column where known (valid,
 * else n > 0), the others left out; deltas rounded like the metrics'. */
static void json_slo_obj(FILE *out, const char *key, const struct pl_row_slo *s, const double *v,
                         const unsigned char *valid)
{
	int first = 1;

	fprintf(out, ", \"%s\": {", key);
	for (int c = 0; c < PL_SLO_COLS; c++) {
		if (!(valid ? valid[c] : s->n[c] > 0) || !isfinite(v[c]))
			continue;
		pl_json_write_key(out, &first, pl_slo_col_name[c]);
		pl_json_write_num(out, valid ? round_delta(v[c]) : v[c]);
	}
	fputc('}', out);
}

/* A row's `, "request_slo": {...}`: its runs graded (n: those with stored
 * requests), each column (null = n/a), then their min, max and delta_pct
 * where known. */
static void json_row_slo(FILE *out, const struct pl_compare_row *row)
{
	const struct pl_row_slo *s = &row->slo;

	fprintf(out, ", \"request_slo\": {\"n\": %zu", s->n[PL_SLO_ATTAINMENT]);
	for (int c = 0; c < PL_SLO_COLS; c++) {
		fprintf(out, ", \"%s\": ", pl_slo_col_name[c]);
		if (s->n[c] && isfinite(s->value[c]))
			pl_json_write_num(out, s->value[c]);
		else
			fputs("null", out);
	}
	json_slo_obj(out, "min", s, s->min, NULL);
	json_slo_obj(out, "max", s, s->max, NULL);
	json_slo_obj(out, "delta_pct", s, s->delta_pct, s->has_delta);
	fputc('}', out);
}

/* `"slo": {"ttft": 0.2, ...},` — the comparison's SLO, as requests prints it. */
static void json_slo_limits(FILE *out, const struct pl_rq_slo *slo)
{
	const double lim[] = {slo->ttft, slo->tpot, slo->itl, slo->e2el};
	static const char *const names[] = {"ttft", "tpot", "itl", "e2el"};
	int first = 1;

	fputs(",\n  \"slo\": {", out);
	for (int k = 0; k < 4; k++) {
		if (isnan(lim[k]))
			continue;
		pl_json_write_key(out, &first, names[k]);
		pl_json_write_num(out, lim[k]);
	}
	fputc('}', out);
}

static void json_comparison(FILE *out, const struct pl_comparison *cmp)
{
	int first;

	fputs("{\n  \"axis\": [", out);
	for (size_t i = 0; i < cmp->naxis; i++) {
		if (cmp->axis[i] < 0 || cmp->axis[i] >= PL_COND_COUNT)
			continue;
		if (i > 0)
			fputs(", ", out);
		pl_json_write_string(out, pl_cond_info[cmp->axis[i]].name);
	}
	fputs("],\n  \"shared_conditions\": {", out);
	first = 1;
	for (int id = 0; id < PL_COND_COUNT; id++) {
		if (!cmp->shared[id].set || pl_render_is_axis(cmp, id))
			continue;
		pl_json_write_key(out, &first, pl_cond_info[id].name);
		json_cond_value(out, id, &cmp->shared[id]);
	}
	for (size_t i = 0; i < cmp->nshared_extra; i++) {
		pl_json_write_key(out, &first, cmp->shared_extra[i].name); /* escaped */
		pl_json_write_string(out, cmp->shared_extra[i].value);
	}
	fputc('}', out);
	if (cmp->has_slo)
		json_slo_limits(out, &cmp->slo);
	fputs(",\n  \"rows\": [", out);
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct pl_compare_row *row = &cmp->rows[r];
		fputs(r ? ",\n    {\"axis\": {" : "\n    {\"axis\": {", out);
		first = 1;
		for (size_t i = 0; i < cmp->naxis; i++) {
			int id = cmp->axis[i];
			if (id < 0 || id >= PL_COND_COUNT || !row->axis[id].set)
				continue;
			pl_json_write_key(out, &first, pl_cond_info[id].name);
			json_cond_value(out, id, &row->axis[id]);
		}
		for (int id = 0; id < PL_COND_COUNT; id++) {
			if (!row->axis[id].set || pl_render_is_axis(cmp, id))
				continue;
			pl_json_write_key(out, &first, pl_cond_info[id].name);
			json_cond_value(out, id, &row->axis[id]);
		}
		fprintf(out, "}, \"baseline_row\": %zu, \"n\": %zu, \"run_ids\": [", row->base, row->n);
		for (size_t i = 0; i < row->n && row->run_ids; i++)
			fprintf(out, "%s%lld", i ? ", " : "", row->run_ids[i]);
		fprintf(out, "], \"reference_only\": %zu, \"metrics\": {", row->reference_only);
		first = 1;
		for (size_t i = 0; i < cmp->nmetrics; i++) {
			int m = cmp->metrics[i];
			if (m < 0 || m >= PL_METRIC_COUNT || !row->n_metric[m] || isnan(row->metric[m]))
				continue;
			pl_json_write_key(out, &first, pl_metric_info[m].name);
			pl_json_write_num(out, row->metric[m]);
		}
		json_spread(out, cmp, row, "min", row->min);
		json_spread(out, cmp, row, "max", row->max);
		fputs("}, \"delta_pct\": {", out);
		first = 1;
		for (size_t i = 0; i < cmp->nmetrics; i++) {
			int m = cmp->metrics[i];
			if (m < 0 || m >= PL_METRIC_COUNT || !row->has_delta[m] ||
			    !isfinite(row->delta_pct[m]))
				continue;
			pl_json_write_key(out, &first, pl_metric_info[m].name);
			pl_json_write_num(out, round_delta(row->delta_pct[m]));
		}
		fputc('}', out);
		if (cmp->has_slo)
			json_row_slo(out, row);
		fputc('}', out);
	}
	fputs(cmp->nrows ? "\n  ],\n  \"caveats\": [" : "],\n  \"caveats\": [", out);
	for (size_t i = 0; i < cmp->caveats.n; i++) {
		char *t = pl_words_msg(&cmp->caveats.v[i], PL_LANG_EN);
		if (i > 0)
			fputs(", ", out);
		pl_json_write_string(out, t ? t : "");
		free(t);
	}
	fputs("]\n}\n", out);
}

int pl_render_comparison(FILE *out, const struct pl_comparison *cmp, enum pl_table_format fmt,
                         struct pl_error *err)
{
	struct layout l;
	struct pl_grid g = {0};
	int rc = 0;

	if (fmt == PL_FMT_JSON) {
		json_comparison(out, cmp);
		return finish(out, 0, err);
	}
	layout_build(cmp, &l);
	comparison_grid(cmp, &l, fmt, &g);
	if (fmt != PL_FMT_CSV)
		rc = write_header_lines(out, cmp, fmt);
	if (rc == 0)
		rc = pl_grid_write(out, &g, fmt);
	if (rc == 0 && fmt != PL_FMT_CSV)
		rc = write_caveats(out, cmp, &l, fmt);
	pl_grid_release(&g);
	return finish(out, rc, err);
}

/* ------------------------------------------------------ condition table */

static const char *value_form(enum pl_ctype t)
{
	switch (t) {
	case PL_CT_VERSION:
		return "string (version)";
	case PL_CT_INT:
		return "integer or \"inf\"";
	case PL_CT_REAL:
		return "number or \"inf\"";
	case PL_CT_BOOL:
		return "boolean";
	case PL_CT_TIME:
		return "string (ISO 8601)";
	default:
		return "string";
	}
}

int pl_render_condition_table(FILE *out, struct pl_error *err)
{
	fputs("| name | value | flags | travels with | meaning |\n|---|---|---|---|---|\n", out);
	for (int id = 0; id < PL_COND_COUNT; id++) {
		const struct pl_cond_info *c = &pl_cond_info[id];
		const char *sep = "";
		fprintf(out, "| `%s` | %s | ", c->name, value_form(c->type));
		if (c->flags & PL_CF_REQUIRED) {
			fputs("required", out);
			sep = ", ";
		}
		if (c->flags & PL_CF_KEY) {
			fprintf(out, "%skey", sep);
			sep = ", ";
		}
		if (c->flags & PL_CF_CHECKLIST) {
			fprintf(out, "%schecklist", sep);
			sep = ", ";
		}
		if (!(c->flags & PL_CF_KEY))
			fprintf(out, "%sper run", sep);
		fputs(" | ", out);
		if (c->travels_with == PL_C_NONE)
			fputs("\xe2\x80\x94", out); /* U+2014: travels with nothing */
		else
			fprintf(out, "`%s`", pl_cond_info[c->travels_with].name);
		if (c->travels_with2 != PL_C_NONE)
			fprintf(out, ", `%s`", pl_cond_info[c->travels_with2].name);
		fprintf(out, " | %s |\n", c->description);
	}
	return finish(out, 0, err);
}

/* ------------------------------------------------------------------ runs */

static const int run_conds[] = {PL_C_MODEL,        PL_C_PRECISION,   PL_C_ENGINE,
                                PL_C_ENGINE_VERSION, PL_C_HARDWARE,  PL_C_CONCURRENCY,
                                PL_C_INPUT_TOKENS, PL_C_MAX_OUTPUT_TOKENS};
static const int run_metrics[] = {PL_M_TTFT_P50, PL_M_TPOT_P50, PL_M_OUTPUT_THROUGHPUT};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* A run's extra conditions as one cell, "name=value; name=value" (text
 * from the input file: the grid makes it inert), into a heap string, or
 * NULL when out of memory. */
static char *extras_cell(const struct pl_run *run)
{
	size_t n = 1;
	char *cell, *p;

	for (size_t i = 0; i < run->nextra; i++)
		n += strlen(run->extra[i].name) + strlen(run->extra[i].value) + 3;
	if (!(cell = malloc(n)))
		return NULL;
	p = cell;
	for (size_t i = 0; i < run->nextra; i++) {
		size_t ln = strlen(run->extra[i].name), lv = strlen(run->extra[i].value);

		if (i) {
			memcpy(p, "; ", 2);
			p += 2;
		}
		memcpy(p, run->extra[i].name, ln);
		p += ln;
		*p++ = '=';
		memcpy(p, run->extra[i].value, lv);
		p += lv;
	}
	*p = '\0';
	return cell;
}

static void runs_grid(const struct pl_run_list *runs, enum pl_table_format fmt, struct pl_grid *g,
                      int *any_ref)
{
	int human = fmt != PL_FMT_CSV, any_extra = 0, any_failed = 0;
	const char *missing = human ? "-" : "";
	char buf[128];

	/* the extras column only when a listed run has extra conditions, the
	 * failed column only when a listed run failed */
	for (size_t r = 0; r < runs->n; r++) {
		any_extra |= runs->v[r].nextra > 0;
		any_failed |= pl_run_failed(&runs->v[r]);
	}
	g->ncols = 1 + NELEM(run_conds) + NELEM(run_metrics) + 2 + (size_t)any_extra +
	           (size_t)any_failed;
	pl_grid_put(g, "id", 0, 1);
	for (size_t i = 0; i < NELEM(run_conds); i++)
		pl_grid_put(g, pl_cond_info[run_conds[i]].name, 0, 0);
	for (size_t i = 0; i < NELEM(run_metrics); i++) {
		metric_header(buf, sizeof(buf), run_metrics[i]);
		pl_grid_put(g, buf, 0, 1);
	}
	pl_grid_put(g, human ? "ref" : "reference_only", 0, 0);
	if (any_failed)
		pl_grid_put(g, "failed", 0, 0);
	pl_grid_put(g, "source", 0, 0);
	if (any_extra)
		pl_grid_put(g, "extras", 0, 0);
	*any_ref = 0;
	for (size_t r = 0; r < runs->n; r++) {
		const struct pl_run *run = &runs->v[r];
		snprintf(buf, sizeof(buf), "%lld", run->id);
		pl_grid_put(g, buf, 0, 1);
		for (size_t i = 0; i < NELEM(run_conds); i++) {
			const struct pl_value *v = &run->cond[run_conds[i]];
			pl_grid_put(g, v->set && v->text ? v->text : missing, 1, 0);
		}
		for (size_t i = 0; i < NELEM(run_metrics); i++) {
			int m = run_metrics[i];
			if (run->has_metric[m])
				fmt_metric(buf, sizeof(buf), run->metric[m], fmt);
			else
				snprintf(buf, sizeof(buf), "%s", missing);
			pl_grid_put(g, buf, 0, 1);
		}
		if (run->checklist_missing)
			*any_ref = 1;
		if (human)
			pl_grid_put(g, run->checklist_missing ? "*" : "", 1, 0); /* escaped to \* in Markdown */
		else
			pl_grid_put(g, run->checklist_missing ? "true" : "false", 0, 0);
		if (any_failed && human)
			pl_grid_put(g, pl_run_failed(run) ? "FAILED" : "", 0, 0);
		else if (any_failed)
			pl_grid_put(g, pl_run_failed(run) ? "true" : "false", 0, 0);
		pl_grid_put(g, run->source ? run->source : missing, 1, 0);
		if (any_extra && run->nextra == 0) {
			pl_grid_put(g, missing, 0, 0);
		} else if (any_extra) {
			char *cell = extras_cell(run);

			if (!cell)
				g->oom = 1;
			pl_grid_put(g, cell ? cell : "", 1, 0);
			free(cell);
		}
	}
}

void pl_render_json_run_fields(FILE *out, const struct pl_run *run, int *pfirst)
{
	int firstc = 1;

	pl_json_write_key(out, pfirst, "id");
	fprintf(out, "%lld", run->id);
	if (run->source) {
		pl_json_write_key(out, pfirst, "source");
		pl_json_write_string(out, run->source);
	}
	if (run->sha256[0]) {
		pl_json_write_key(out, pfirst, "sha256");
		pl_json_write_string(out, run->sha256);
	}
	pl_json_write_key(out, pfirst, "record");
	fprintf(out, "%ld", run->record);
	if (run->adapter) {
		pl_json_write_key(out, pfirst, "adapter");
		pl_json_write_string(out, run->adapter);
	}
	if (run->format_version) {
		pl_json_write_key(out, pfirst, "format_version");
		pl_json_write_string(out, run->format_version);
	}
	if (run->imported_at) {
		pl_json_write_key(out, pfirst, "imported_at");
		pl_json_write_string(out, run->imported_at);
	}
	/* build identity (provenance), only when the run has some */
	for (int f = 0; f < PL_BUILD_COUNT; f++) {
		int fb = 1;
		if (!run->build[f])
			continue;
		pl_json_write_key(out, pfirst, "build");
		fputc('{', out);
		for (; f < PL_BUILD_COUNT; f++) {
			if (!run->build[f])
				continue;
			pl_json_write_key(out, &fb, pl_build_name(f));
			pl_json_write_string(out, run->build[f]);
		}
		fputc('}', out);
	}
	pl_json_write_key(out, pfirst, "reference_only");
	fputs(run->checklist_missing ? "true" : "false", out);
	if (pl_run_failed(run)) { /* only on failed runs: other output unchanged */
		pl_json_write_key(out, pfirst, "failed");
		fputs("true", out);
	}
	pl_json_write_key(out, pfirst, "checklist_missing");
	fputc('[', out);
	for (int i = 0; i < PL_CHK_COUNT; i++) {
		if (!(run->checklist_missing & (1u << i)))
			continue;
		if (!firstc)
			fputs(", ", out);
		firstc = 0;
		pl_json_write_string(out, pl_checklist_item(i));
	}
	fputc(']', out);
	pl_json_write_key(out, pfirst, "conditions");
	fputc('{', out);
	firstc = 1;
	for (int id = 0; id < PL_COND_COUNT; id++) {
		if (!run->cond[id].set)
			continue;
		pl_json_write_key(out, &firstc, pl_cond_info[id].name);
		json_cond_value(out, id, &run->cond[id]);
	}
	fputc('}', out);
	if (run->nextra) { /* the extra conditions, text as the file gave them */
		pl_json_write_key(out, pfirst, "extras");
		fputc('{', out);
		firstc = 1;
		for (size_t i = 0; i < run->nextra; i++) {
			pl_json_write_key(out, &firstc, run->extra[i].name);
			pl_json_write_string(out, run->extra[i].value);
		}
		fputc('}', out);
	}
	pl_json_write_key(out, pfirst, "metrics");
	fputc('{', out);
	firstc = 1;
	for (int m = 0; m < PL_METRIC_COUNT; m++) {
		if (!run->has_metric[m] || isnan(run->metric[m]))
			continue;
		pl_json_write_key(out, &firstc, pl_metric_info[m].name);
		pl_json_write_num(out, run->metric[m]);
	}
	fputc('}', out);
	pl_json_write_measures(out, pfirst, run);
}

static void json_runs(FILE *out, const struct pl_run_list *runs)
{
	fputs("[", out);
	for (size_t r = 0; r < runs->n; r++) {
		int first = 1;

		fputs(r ? ",\n  {" : "\n  {", out);
		pl_render_json_run_fields(out, &runs->v[r], &first);
		fputc('}', out);
	}
	fputs(runs->n ? "\n]\n" : "]\n", out);
}

int pl_render_runs(FILE *out, const struct pl_run_list *runs, enum pl_table_format fmt,
                   struct pl_error *err)
{
	struct pl_grid g = {0};
	int any_ref = 0, rc;

	if (fmt == PL_FMT_JSON) {
		json_runs(out, runs);
		return finish(out, 0, err);
	}
	runs_grid(runs, fmt, &g, &any_ref);
	rc = pl_grid_write(out, &g, fmt);
	if (rc == 0 && any_ref && fmt == PL_FMT_TEXT)
		fputs("* reference-only: publication checklist items missing\n", out);
	if (rc == 0 && any_ref && fmt == PL_FMT_MARKDOWN)
		fputs("\n\\* reference-only: publication checklist items missing\n", out);
	pl_grid_release(&g);
	return finish(out, rc, err);
}
