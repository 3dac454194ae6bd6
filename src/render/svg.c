/*
 * svg.c — the self-made SVG charts of svg.h: axes with "nice" ticks
 * (1, 2, 5 x 10^k, or powers of two on a log2 axis), one colour per series,
 * lines, markers, highlighted points drawn as larger rings, and a legend
 * under the plot. Coordinates are whole numbers in a 720x420 viewBox.
 */
#include "render/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "render/render_impl.h"

#define W 720
#define H 420
#define L 70  /* left margin */
#define R 20
#define T 40
#define B 60  /* room for tick labels and x label */

static const char *const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                      "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

static const char font[] =
	"font-family=\"'Noto Sans CJK SC','Noto Sans SC','Source Han Sans SC','PingFang SC',"
	"'Microsoft YaHei',sans-serif\"";

static void text(FILE *f, const char *s)
{
	pl_html_write_text(f, s ? s : "");
}

static double nice_step(double span, int target)
{
	double raw = span / target, p = pow(10, floor(log10(raw))), m = raw / p;

	if (m <= 1)
		return p;
	if (m <= 2)
		return 2 * p;
	if (m <= 5)
		return 5 * p;
	return 10 * p;
}

struct axis {
	double lo, hi; /* data range shown */
	int log2;      /* log2 scale */
	int px0, px1;  /* pixel range */
};

static long map(const struct axis *a, double v)
{
	double t;

	if (a->log2)
		t = (log2(v) - log2(a->lo)) / (log2(a->hi) - log2(a->lo));
	else
		t = (v - a->lo) / (a->hi - a->lo);
	return lround(a->px0 + t * (a->px1 - a->px0));
}

/* The svg element, background and title; height is H plus room for extra
 * legend rows. */
/* Height of one legend row below the plot. */
#define LEGEND_ROW 18

/* Room a legend entry takes: swatch, text at about 8 px a column, gap. */
static size_t legend_width(const char *name)
{
	return 16 + 8 * pl_text_width(name ? name : "") + 24;
}

/* The legend width of a series: its name and its note. */
static size_t series_legend_width(const struct pl_svg_series *se)
{
	return legend_width(se->name) + (se->note ? 8 * pl_text_width(se->note) : 0);
}

static void frame(FILE *f, const char *title, long height)
{
	fprintf(f,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %ld\" role=\"img\" "
	        "class=\"chart\" %s font-size=\"13\">\n<title>",
	        W, height, font);
	text(f, title);
	fprintf(f, "</title>\n<rect width=\"%d\" height=\"%ld\" fill=\"#fff\"/>\n"
	           "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-size=\"16\">",
	        W, height, W / 2);
	text(f, title);
	fputs("</text>\n", f);
}

/* Ticks and grid of axis a (x when horizontal). */
static void ticks(FILE *f, const struct axis *a, int horizontal)
{
	char num[40];
	double step = a->log2 ? 2 : nice_step(a->hi - a->lo, 5);
	double v = a->log2 ? a->lo : ceil(a->lo / step - 1e-9) * step;

	for (int i = 0; i < 40 && v <= a->hi * (1 + 1e-9); i++) {
		long p = map(a, v);
		pl_fmt_num(num, sizeof(num), pl_round_sig(v, 6));
		if (horizontal)
			fprintf(f,
			        "<line x1=\"%ld\" y1=\"%d\" x2=\"%ld\" y2=\"%d\" stroke=\"#ddd\"/>"
			        "<text x=\"%ld\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			        p, T, p, H - B, p, H - B + 18, num);
		else
			fprintf(f,
			        "<line x1=\"%d\" y1=\"%ld\" x2=\"%d\" y2=\"%ld\" stroke=\"#ddd\"/>"
			        "<text x=\"%d\" y=\"%ld\" text-anchor=\"end\">%s</text>\n",
			        L, p, W - R, p, L - 6, p + 4, num);
		v = a->log2 ? v * 2 : v + step;
	}
}

static void axis_labels(FILE *f, const char *xlabel, const char *ylabel)
{
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", L, H - B,
	        W - R, H - B);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", L, T, L,
	        H - B);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (L + W - R) / 2, H - B + 38);
	text(f, xlabel);
	fprintf(f, "</text>\n<text transform=\"translate(16 %d) rotate(-90)\" "
	           "text-anchor=\"middle\">",
	        (T + H - B) / 2);
	text(f, ylabel);
	fputs("</text>\n", f);
}

/* Closes the memstream f; *buf is only valid after fclose. */
static char *finish(FILE *f, char **buf)
{
	int bad;

	fputs("</svg>\n", f);
	bad = ferror(f) != 0;
	if (fclose(f) != 0 || bad) {
		free(*buf);
		return NULL;
	}
	return *buf;
}

char *pl_svg_xy_chart(const struct pl_svg_xy *c)
{
	struct axis ax = {INFINITY, -INFINITY, c->logx, L, W - R};
	struct axis ay = {0, -INFINITY, 0, H - B, T};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	long lx = L + 10, ly = H - 6, rows = 1;

	if (!f)
		return NULL;
	/* the legend wraps into as many rows below the plot as its entries need */
	for (size_t s = 0, x = (size_t)lx; s <= c->nseries; s++) {
		const char *name = s < c->nseries ? c->series[s].name : c->mark_label;
		size_t w;
		if (!name)
			continue;
		w = s < c->nseries ? series_legend_width(&c->series[s]) : legend_width(name);
		if (x > (size_t)lx && x + w > W - 10) {
			rows++;
			x = (size_t)lx;
		}
		x += w;
	}
	for (size_t s = 0; s < c->nseries; s++)
		for (size_t i = 0; i < c->series[s].n; i++) {
			double x = c->series[s].x[i], y = c->series[s].y[i];
			if (!isfinite(x) || !isfinite(y) || (c->logx && x <= 0))
				continue;
			ax.lo = fmin(ax.lo, x);
			ax.hi = fmax(ax.hi, x);
			ay.hi = fmax(ay.hi, y);
		}
	if (!isfinite(ax.lo)) {
		ax.lo = c->logx ? 1 : 0;
		ax.hi = c->logx ? 2 : 1;
		ay.hi = 1;
	}
	if (c->logx) {
		ax.lo = pow(2, floor(log2(ax.lo)));
		ax.hi = pow(2, ceil(log2(ax.hi)));
		if (ax.hi <= ax.lo)
			ax.hi = ax.lo * 2;
	} else {
		double st = nice_step(ax.hi > 0 ? ax.hi : 1, 5);
		ax.lo = 0;
		ax.hi = ceil(ax.hi / st) * st;
		if (ax.hi <= 0)
			ax.hi = 1;
	}
	if (!(ay.hi > 0))
		ay.hi = 1;
	ay.hi = ceil(ay.hi * 1.05 / nice_step(ay.hi * 1.05, 5)) * nice_step(ay.hi * 1.05, 5);
	frame(f, c->title, H + LEGEND_ROW * (rows - 1));
	ticks(f, &ax, 1);
	ticks(f, &ay, 0);
	axis_labels(f, c->xlabel, c->ylabel);
	for (size_t s = 0; s < c->nseries; s++) {
		const struct pl_svg_series *se = &c->series[s];
		const char *col = colours[s % (sizeof(colours) / sizeof(colours[0]))];
		int first = 1;
		if (c->lines) {
			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
			for (size_t i = 0; i < se->n; i++) {
				if (!isfinite(se->x[i]) || !isfinite(se->y[i]) || (c->logx && se->x[i] <= 0))
					continue;
				fprintf(f, "%s%ld,%ld", first ? "" : " ", map(&ax, se->x[i]), map(&ay, se->y[i]));
				first = 0;
			}
			fputs("\"/>\n", f);
		}
		for (size_t i = 0; i < se->n; i++) {
			long px, py;
			if (!isfinite(se->x[i]) || !isfinite(se->y[i]) || (c->logx && se->x[i] <= 0))
				continue;
			px = map(&ax, se->x[i]);
			py = map(&ay, se->y[i]);
			fprintf(f, "<circle cx=\"%ld\" cy=\"%ld\" r=\"4\" fill=\"%s\"/>\n", px, py, col);
			if (se->mark && se->mark[i])
				fprintf(f, "<circle cx=\"%ld\" cy=\"%ld\" r=\"9\" fill=\"none\" "
				           "stroke=\"#000\" stroke-width=\"2\"/>\n",
				        px, py);
		}
		/* legend entry, on the next row when this one is full */
		if (lx > L + 10 && lx + (long)series_legend_width(se) > W - 10) {
			lx = L + 10;
			ly += LEGEND_ROW;
		}
		fprintf(f, "<rect x=\"%ld\" y=\"%ld\" width=\"12\" height=\"12\" fill=\"%s\"/>"
		           "<text x=\"%ld\" y=\"%ld\">",
		        lx, ly - 11, col, lx + 16, ly);
		text(f, se->name);
		if (se->note)
			text(f, se->note);
		fputs("</text>\n", f);
		lx += (long)series_legend_width(se);
	}
	if (c->mark_label) {
		if (lx > L + 10 && lx + (long)legend_width(c->mark_label) > W - 10) {
			lx = L + 10;
			ly += LEGEND_ROW;
		}
		fprintf(f, "<circle cx=\"%ld\" cy=\"%ld\" r=\"6\" fill=\"none\" stroke=\"#000\" "
		           "stroke-width=\"2\"/><text x=\"%ld\" y=\"%ld\">",
		        lx + 6, ly - 5, lx + 16, ly);
		text(f, c->mark_label);
		fputs("</text>\n", f);
	}
	return finish(f, &buf);
}

char *pl_svg_bar_chart(const char *title, const char *ylabel, const char *const *labels,
                       const double *values, size_t n)
{
	struct axis ay = {0, 0, 0, H - B, T};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	long slot;

	if (!f)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (isfinite(values[i]))
			ay.hi = fmax(ay.hi, values[i]);
	if (!(ay.hi > 0))
		ay.hi = 1;
	ay.hi = ceil(ay.hi * 1.05 / nice_step(ay.hi * 1.05, 5)) * nice_step(ay.hi * 1.05, 5);
	frame(f, title, H);
	ticks(f, &ay, 0);
	axis_labels(f, "", ylabel);
	slot = n ? (W - R - L) / (long)n : 1;
	for (size_t i = 0; i < n; i++) {
		long x = L + (long)i * slot + slot / 6, w = slot * 2 / 3;
		char num[40];
		if (isfinite(values[i])) {
			long y = map(&ay, values[i]);
			fprintf(f, "<rect x=\"%ld\" y=\"%ld\" width=\"%ld\" height=\"%ld\" fill=\"%s\"/>"
			           "<text x=\"%ld\" y=\"%ld\" text-anchor=\"middle\">%s</text>\n",
			        x, y, w, (long)(H - B) - y, colours[i % 8], x + w / 2, y - 4,
			        pl_fmt_num(num, sizeof(num), pl_round_sig(values[i], 4)));
		}
		fprintf(f, "<text x=\"%ld\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">",
		        x + w / 2, H - B + 16);
		text(f, labels[i]);
		fputs("</text>\n", f);
	}
	return finish(f, &buf);
}
