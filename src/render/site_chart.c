/*
 * site_chart.c — the site's inline SVG charts: a series' sparkline on the
 * index page and the chart of each metric's history on its page (points
 * with hover titles, the confidence band, the rolling window's prediction
 * band, steps named by commit). See site_impl.h.
 */
#include "render/site_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/history.h"
#include "render/render_impl.h"

/* Date ticks along a time axis that spans this many days or more. */
#define DATE_TICKS 5

/* v rounded to a tenth, as "12.3" / "-0.5" / "7.0", into buf: what "%.1f"
 * prints for the small chart coordinates, without the cost of a
 * floating-point conversion (a site draws millions of them). */
static const char *c1(char buf[32], double v)
{
	long long t;
	char *p = buf + 31;

	if (!isfinite(v) || fabs(v) > 1e15) {
		snprintf(buf, 32, "%.1f", isfinite(v) ? v : 0.0);
		return buf;
	}
	t = llround(v * 10.0);
	*p = '\0';
	*--p = (char)('0' + (t < 0 ? -t : t) % 10);
	*--p = '.';
	for (long long u = (t < 0 ? -t : t) / 10;; u /= 10) {
		*--p = (char)('0' + u % 10);
		if (u < 10)
			break;
	}
	if (t < 0)
		*--p = '-';
	return p;
}

#define SPARK_W 120
#define SPARK_H 28
#define SPARK_MAX 60 /* points drawn at most; more are thinned evenly */

void pl_site_point_x(const struct pl_history *h, double *xs)
{
	double t0 = NAN, t1 = NAN;
	int ok = 1;

	for (size_t i = 0; i < h->npoints; i++) {
		xs[i] = h->points[i].t;
		if (!isfinite(xs[i]))
			ok = 0;
	}
	if (ok && h->npoints) {
		t0 = xs[0];
		t1 = xs[h->npoints - 1];
	}
	for (size_t i = 0; i < h->npoints; i++)
		xs[i] = ok && t1 > t0 ? (xs[i] - t0) / (t1 - t0)
		        : h->npoints > 1 ? (double)i / (double)(h->npoints - 1)
		                         : 0.5;
}

/* Largest magnitude a chart draws: a value beyond it (an old ledger's
 * 1.8e308, which import now refuses) is left out of the y range and drawn
 * at the edge, so no range, tick or coordinate overflows to inf or NaN. */
#define CHART_MAX 1e15

static int drawable(double v)
{
	return isfinite(v) && fabs(v) <= CHART_MAX;
}

/* v held inside [lo, hi] (NaN: lo). */
static double clampd(double v, double lo, double hi)
{
	return !(v >= lo) ? lo : v > hi ? hi : v;
}

/* The y range of h: medians (and intervals when with_ci) with 5% margin. */
static void y_range(const struct pl_history *h, int with_ci, double *lo, double *hi)
{
	double a = INFINITY, b = -INFINITY;

	for (size_t i = 0; i < h->npoints; i++) {
		const struct pl_sample_summary *s = &h->points[i].s;
		double l = with_ci && s->ci_valid ? s->ci_low : s->median;
		double u = with_ci && s->ci_valid ? s->ci_high : s->median;
		if (drawable(l) && l < a)
			a = l;
		if (drawable(u) && u > b)
			b = u;
		if (drawable(h->points[i].level)) {
			if (h->points[i].level < a)
				a = h->points[i].level;
			if (h->points[i].level > b)
				b = h->points[i].level;
		}
	}
	if (!(a <= b)) {
		a = 0;
		b = 1;
	}
	if (b - a < 1e-12 * (fabs(a) + 1e-300)) {
		a -= fabs(a) * 0.05 + 1e-9;
		b += fabs(b) * 0.05 + 1e-9;
	}
	*lo = a - 0.05 * (b - a);
	*hi = b + 0.05 * (b - a);
}

void pl_site_sparkline(FILE *f, const struct pl_history *h, const double *xs)
{
	double lo, hi;
	size_t stride = h->npoints > SPARK_MAX ? (h->npoints + SPARK_MAX - 1) / SPARK_MAX : 1;

	y_range(h, 0, &lo, &hi);
	fprintf(f, "<svg class=\"spark\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	           "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"trend\">"
	           "<polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"1.5\" points=\"",
	        SPARK_W, SPARK_H, SPARK_W, SPARK_H);
	for (size_t i = 0, any = 0; i < h->npoints; i += stride) {
		size_t k = i + stride >= h->npoints ? h->npoints - 1 : i; /* always the last one */
		double x = 2 + xs[k] * (SPARK_W - 4);
		double y = SPARK_H - 2 - (clampd(h->points[k].s.median, lo, hi) - lo) / (hi - lo) *
		                             (SPARK_H - 4);
		char bx[32], by[32];
		if (h->points[k].n > 0) /* a point of failed runs only has no median: a mark */
			fprintf(f, "%s%s,%s", any++ ? " " : "", c1(bx, x), c1(by, y));
		if (k == h->npoints - 1)
			break;
	}
	fputs("\"/>", f);
	for (size_t k = 0; k < h->npoints; k++)
		if (h->points[k].nfailed) { /* a red cross at the bottom: failed runs */
			double x = 2 + xs[k] * (SPARK_W - 4);
			fprintf(f, "<path d=\"M%.1f %d l4 -4 m-4 0 l4 4\" stroke=\"#c62828\" "
			           "stroke-width=\"1.5\"/>", x - 2, SPARK_H - 1);
		}
	for (size_t k = 0; k < h->nsteps; k++) {
		const struct pl_history_step *s = &h->steps[k];
		double x = 2 + (xs[s->index - 1] + xs[s->index]) / 2 * (SPARK_W - 4);
		fprintf(f, "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
		           "stroke-dasharray=\"2,2\"/>",
		        x, x, SPARK_H,
		        s->accepted ? "#2e7d32"
		        : s->fails ? "#c62828"
		            : "#777");
	}
	fputs("</svg>", f);
}

#define CH_W 720
#define CH_H 260
#define CH_L 70  /* left margin: y labels */
#define CH_R 16
#define CH_T 16
#define CH_B 34  /* bottom margin: x labels */
#define STEP_ROWS 3      /* rows of step labels at the top of a chart */
#define STEP_CHAR_W 6.6  /* width of a character of an 11 px label, estimated (px) */

/* The commit of run id in runs (ordered by id), NULL when unknown. */
static const char *commit_of(const struct pl_run_list *runs, long long id)
{
	size_t lo = 0, hi = runs ? runs->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (runs->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (runs && lo < runs->n && runs->v[lo].id == id)
		return runs->v[lo].build[PL_B_COMMIT];
	return NULL;
}

int pl_site_chart(FILE *f, const struct pl_history *h, const double *xs,
                  const struct pl_run_list *runs)
{
	const struct pl_metric_info *mi = &pl_metric_info[h->metric];
	double lo, hi, pw = CH_W - CH_L - CH_R, ph = CH_H - CH_T - CH_B;
	char a[32], b[32];

#define X(v) (CH_L + (v) * pw)
#define Y(v) (CH_T + ph - (clampd((v), lo, hi) - lo) / (hi - lo) * ph)
	y_range(h, 1, &lo, &hi);
	fprintf(f, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
	           "role=\"img\" aria-label=\"%s over time\">\n",
	        CH_W, CH_H, mi->name);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" fill=\"#fafafa\" "
	           "stroke=\"#ccc\"/>\n",
	        CH_L, CH_T, pw, ph);
	/* y ticks: low, middle, high */
	for (int i = 0; i < 3; i++) {
		double v = lo + (hi - lo) * (0.05 + 0.45 * i) / 1.0;
		if (i == 2)
			v = hi - 0.05 * (hi - lo);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>"
		           "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\" "
		           "fill=\"#444\">%s</text>\n",
		        CH_L, Y(v), CH_W - CH_R, Y(v), CH_L - 4, Y(v) + 4, pl_fmt_sig4(a, sizeof(a), v));
	}
	fprintf(f, "<text x=\"12\" y=\"%d\" font-size=\"11\" fill=\"#444\" "
	           "transform=\"rotate(-90 12 %d)\" text-anchor=\"middle\">%s (%s)</text>\n",
	        CH_T + (int)(ph / 2), CH_T + (int)(ph / 2), mi->name, pl_unit_label(mi->unit));
	/* x labels: date ticks, DATE_TICKS evenly in time on a time axis (the
	 * first and last day otherwise), each with a tick mark */
	if (h->npoints) {
		double t0 = h->points[0].t;
		double t1 = h->points[h->npoints - 1].t;
		if (isfinite(t0) && isfinite(t1)) {
			int nt = h->time_axis && t1 - t0 >= 86400.0 * (DATE_TICKS - 1) ? DATE_TICKS : 2;
			for (int k = 0; k < nt; k++) {
				double t = t0 + (t1 - t0) * k / (nt - 1), x = X((double)k / (nt - 1));
				if (!h->time_axis)
					x = k ? CH_W - CH_R : CH_L;
				fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
				           "stroke=\"#999\"/><text x=\"%.1f\" y=\"%d\" font-size=\"11\" "
				           "fill=\"#444\"%s>%s</text>\n",
				        x, CH_T + ph, x, CH_T + ph + 4, x, CH_H - 12,
				        k == 0 ? "" : k == nt - 1 ? " text-anchor=\"end\""
				                                  : " text-anchor=\"middle\"",
				        pl_site_fmt_day(a, sizeof(a), t));
			}
		}
	}
	/* the rolling window's prediction band around the latest point: the
	 * interval the latest median was judged against (history's latest) */
	if (h->latest_verdict != PL_V_TOO_FEW && isfinite(h->latest.bound_low) &&
	    isfinite(h->latest.bound_high) && h->latest_point < h->npoints) {
		size_t from = h->latest_point > h->latest.n_old ? h->latest_point - h->latest.n_old : 0;
		double blo = h->latest.bound_low < lo ? lo : h->latest.bound_low;
		double bhi = h->latest.bound_high > hi ? hi : h->latest.bound_high;
		if (bhi > blo)
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			           "fill=\"#1f5fa8\" fill-opacity=\"0.08\"><title>prediction band of the "
			           "window: %s to %s</title></rect>\n",
			        X(xs[from]), Y(bhi), X(xs[h->latest_point]) - X(xs[from]), Y(blo) - Y(bhi),
			        pl_fmt_sig4(a, sizeof(a), h->latest.bound_low),
			        pl_fmt_sig4(b, sizeof(b), h->latest.bound_high));
	}
	/* steps; each label right of its line, or left of it where it would
	 * leave the plot, in the first of STEP_ROWS rows where it overlaps no
	 * earlier label (width estimated at STEP_CHAR_W px a character) */
	{
		double row_end[STEP_ROWS];
		for (int r = 0; r < STEP_ROWS; r++)
			row_end[r] = -1e9;
		for (size_t k = 0; k < h->nsteps; k++) {
			const struct pl_history_step *s = &h->steps[k];
			double x = X((xs[s->index - 1] + xs[s->index]) / 2), w, left;
			int bad = s->fails, r = 0, end;
			const char *cm = commit_of(runs, s->first_run);
			char text[96];
			snprintf(text, sizeof(text), "%s%s",
			         pl_fmt_change(a, sizeof(a), s->rel_change, mi->direction),
			         s->accepted ? " (accepted)" : "");
			w = STEP_CHAR_W * (double)(strlen(text) + (cm ? strlen(cm) + 4 : 0));
			end = x + 3 + w > CH_W - CH_R;
			left = end ? x - 3 - w : x + 3;
			while (r < STEP_ROWS - 1 && left < row_end[r] + 4)
				r++;
			row_end[r] = left + w;
			fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"%s\" "
			           "stroke-dasharray=\"4,3\"/>\n",
			        x, CH_T, x, CH_T + ph, s->accepted ? "#2e7d32" : bad ? "#c62828" : "#777");
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"%s\"%s>%s",
			        end ? x - 3 : x + 3, CH_T + 12 + 13 * r,
			        s->accepted ? "#2e7d32" : bad ? "#c62828" : "#555",
			        end ? " text-anchor=\"end\"" : "", text);
			if (cm) { /* the step named by its first run's commit (escaped) */
				fputs(" at ", f);
				pl_site_html(f, cm);
			}
			fputs("</text>\n", f);
		}
	}
	/* intervals */
	for (size_t i = 0; i < h->npoints; i++) {
		const struct pl_sample_summary *s = &h->points[i].s;
		char bx[32], b1[32], b2[32];
		if (s->ci_valid)
			fprintf(f, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" "
			           "stroke=\"#9bb7d9\"/>\n",
			        c1(bx, X(xs[i])), c1(b1, Y(s->ci_low)), bx, c1(b2, Y(s->ci_high)));
	}
	/* fitted level as a step line */
	fputs("<path fill=\"none\" stroke=\"#e08a00\" stroke-width=\"1.5\" d=\"", f);
	for (size_t i = 0, started = 0; i < h->npoints; i++) {
		double lv = h->points[i].level;
		if (!isfinite(lv)) /* a failed-only point: the segment runs on */
			continue;
		char bx[32], by[32];
		if (!started++)
			fprintf(f, "M%s %s", c1(bx, X(xs[i])), c1(by, Y(lv)));
		else
			fprintf(f, " H%s V%s", c1(bx, X((xs[i - 1] + xs[i]) / 2)), c1(by, Y(lv)));
	}
	if (h->npoints)
		fprintf(f, " H%.1f", X(xs[h->npoints - 1]));
	fputs("\"/>\n", f);
	/* medians */
	fputs("<polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"1\" points=\"", f);
	for (size_t i = 0, any = 0; i < h->npoints; i++) {
		char bx[32], by[32];
		if (h->points[i].n > 0) /* failed-only points have no median */
			fprintf(f, "%s%s,%s", any++ ? " " : "", c1(bx, X(xs[i])),
			        c1(by, Y(h->points[i].s.median)));
	}
	fputs("\"/>\n", f);
	/* the points as dots, each with its point, median and n on hover (a
	 * title element: no script); the values are in the table below too */
	fputs("<g fill=\"#1f5fa8\">", f);
	for (size_t i = 0; i < h->npoints; i++) {
		char bx[32], by[32];
		if (h->points[i].n == 0)
			continue;
		const char *cm = commit_of(runs, h->points[i].run_ids[0]);
		fputs("<g><title>", f);
		pl_site_html(f, h->points[i].value.text ? h->points[i].value.text : "");
		fprintf(f, ": %s %s, n %zu", pl_fmt_sig4(a, sizeof(a), h->points[i].s.median),
		        pl_unit_label(mi->unit), h->points[i].n);
		if (cm) {
			fputs(", commit ", f);
			pl_site_html(f, cm);
		}
		fprintf(f, "</title><circle cx=\"%s\" cy=\"%s\" r=\"2.5\"/></g>", c1(bx, X(xs[i])),
		        c1(by, Y(h->points[i].s.median)));
	}
	fputs("</g>\n", f);
	/* failed runs: a red cross on the bottom edge and "N failed" above it */
	for (size_t i = 0; i < h->npoints; i++) {
		double x = X(xs[i]), y = CH_T + ph - 6;
		if (!h->points[i].nfailed)
			continue;
		fprintf(f, "<g><title>%zu failed run%s (no request completed)</title>"
		           "<path d=\"M%.1f %.1f l8 -8 m-8 0 l8 8\" stroke=\"#c62828\" "
		           "stroke-width=\"2\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
		           "fill=\"#c62828\" text-anchor=\"%s\">%zu failed</text></g>\n",
		        h->points[i].nfailed, h->points[i].nfailed == 1 ? "" : "s", x - 4, y + 4,
		        x, y - 8, x > CH_W - CH_R - 40 ? "end" : x < CH_L + 40 ? "start" : "middle",
		        h->points[i].nfailed);
	}
	fputs("</svg>\n", f);
#undef X
#undef Y
	return 0;
}
