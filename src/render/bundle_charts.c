/*
 * bundle_charts.c — the charts of a bundle: which ones the definition asks
 * for and how they enter the report.
 *
 * "sweep" (throughput vs concurrency per group) and "pareto"
 * (interactivity vs throughput per accelerator, the Pareto front marked)
 * are drawn as SVG by svg.c from the procurement figures; "bars" are the
 * gnuplot charts plot.c writes, which pl_bundle_write runs. Each chart is
 * listed in the template context: Markdown links the file, HTML inlines
 * the SVG (for the gnuplot charts an SVG bar chart of the same data, so
 * report.html stays self-contained).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/bundle_impl.h"
#include "render/render_impl.h"
#include "render/svg.h"
#include "render/template.h"

int pl_bundle_make_charts(struct bundle *b)
{
	const struct pl_procurement *p = b->proc;
	unsigned want = b->o->spec->charts;
	struct pl_svg_series *se;
	double *xs, *ys, *px, *py;
	unsigned char *mk;
	size_t total = 0, at = 0;
	int rc = 0;

	if (!p || p->ngroups == 0 || !(want & (PL_CHART_SWEEP | PL_CHART_PARETO)))
		return 0;
	for (size_t g = 0; g < p->ngroups; g++)
		total += p->groups[g].npoints;
	se = calloc(p->ngroups, sizeof(*se));
	xs = calloc(total, sizeof(double));
	ys = calloc(total, sizeof(double));
	px = calloc(total, sizeof(double));
	py = calloc(total, sizeof(double));
	mk = calloc(total, 1);
	if (!se || !xs || !ys || !px || !py || !mk) {
		rc = PL_ENOMEM;
		goto out;
	}
	for (size_t g = 0; g < p->ngroups; g++) {
		const struct pl_procure_group *gr = &p->groups[g];
		for (size_t i = 0; i < gr->npoints; i++) {
			xs[at + i] = gr->points[i].concurrency;
			ys[at + i] = gr->points[i].throughput;
			px[at + i] = gr->points[i].throughput_per_acc;
			py[at + i] = gr->points[i].interactivity;
			mk[at + i] = (unsigned char)gr->points[i].pareto;
		}
		se[g].name = gr->label;
		se[g].n = gr->npoints;
		at += gr->npoints;
	}
	if ((want & PL_CHART_SWEEP) && p->sweep) {
		struct pl_svg_xy c = {b->w->sweep_title, b->w->sweep_x, b->w->sweep_y, NULL, 1, 1,
		                      se, p->ngroups};
		at = 0;
		for (size_t g = 0; g < p->ngroups; g++) {
			se[g].x = xs + at;
			se[g].y = ys + at;
			se[g].mark = NULL;
			at += se[g].n;
		}
		b->svg_sweep = pl_svg_xy_chart(&c);
		if (!b->svg_sweep)
			rc = PL_ENOMEM;
	}
	if (rc == 0 && (want & PL_CHART_PARETO)) {
		struct pl_svg_xy c = {b->w->pareto_title, b->w->pareto_x, b->w->pareto_y,
		                      b->w->pareto_mark, 0, 1, se, p->ngroups};
		at = 0;
		for (size_t g = 0; g < p->ngroups; g++) {
			int any_x = 0, drawn = 0;

			se[g].x = px + at;
			se[g].y = py + at;
			se[g].mark = mk + at;
			for (size_t i = 0; i < se[g].n; i++) {
				any_x |= isfinite(se[g].x[i]) != 0;
				drawn |= isfinite(se[g].x[i]) && isfinite(se[g].y[i]);
			}
			/* a group with no point on the chart says why: a cloud API
			 * has no accelerator count to divide by */
			se[g].note = drawn ? NULL : !any_x ? b->w->pareto_no_acc : b->w->pareto_no_tpot;
			at += se[g].n;
		}
		b->svg_pareto = pl_svg_xy_chart(&c);
		if (!b->svg_pareto)
			rc = PL_ENOMEM;
	}
out:
	free(se);
	free(xs);
	free(ys);
	free(px);
	free(py);
	free(mk);
	return rc;
}

int pl_bundle_ctx_charts(struct bundle *b, const struct pl_chart *charts, size_t ncharts)
{
	struct pl_tpl_ctx *c = b->ctx;
	int rc = pl_tpl_set_list(c, "charts");

	if (b->svg_sweep) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "charts");
		if (!it)
			return PL_ENOMEM;
		rc |= pl_tpl_set(it, "title", b->w->sweep_title);
		rc |= pl_tpl_set(it, "file", "sweep.svg");
		rc |= pl_tpl_set_raw(it, "svg", b->svg_sweep);
	}
	if (b->svg_pareto) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "charts");
		if (!it)
			return PL_ENOMEM;
		rc |= pl_tpl_set(it, "title", b->w->pareto_title);
		rc |= pl_tpl_set(it, "file", "pareto.svg");
		rc |= pl_tpl_set_raw(it, "svg", b->svg_pareto);
	}
	/* the gnuplot bar charts: linked as images in Markdown; in HTML their
	 * data as inline bar charts of our own (self-contained) */
	for (size_t i = 0; i < ncharts; i++) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "charts");
		const char **labels = calloc(b->cmp->nrows ? b->cmp->nrows : 1, sizeof(char *));
		char **lab = calloc(b->cmp->nrows ? b->cmp->nrows : 1, sizeof(char *));
		double *vals = calloc(b->cmp->nrows ? b->cmp->nrows : 1, sizeof(double));
		char file[96], *svg = NULL;
		int m = strcmp(charts[i].name, "ttft") == 0   ? PL_M_TTFT_P50
		        : strcmp(charts[i].name, "tpot") == 0 ? PL_M_TPOT_P50
		                                              : PL_M_OUTPUT_THROUGHPUT;
		if (strcmp(charts[i].title, "ITL p50 / p95 (s)") == 0)
			m = PL_M_ITL_P50;
		if (!it || !labels || !lab || !vals)
			rc = PL_ENOMEM;
		for (size_t r = 0; rc == 0 && r < b->cmp->nrows; r++) {
			char buf[1024];
			lab[r] = strdup(pl_render_row_label(b->cmp, r, buf, sizeof(buf)));
			labels[r] = lab[r] ? lab[r] : "";
			vals[r] = b->cmp->rows[r].n_metric[m] ? b->cmp->rows[r].metric[m] : NAN;
		}
		if (rc == 0) {
			char title[160];
			snprintf(title, sizeof(title), "%s", pl_metric_info[m].name);
			svg = pl_svg_bar_chart(title, pl_unit_label(pl_metric_info[m].unit), labels, vals,
			                       b->cmp->nrows);
			snprintf(file, sizeof(file), "%s.svg", charts[i].name);
			rc |= pl_tpl_set(it, "title", charts[i].title);
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
