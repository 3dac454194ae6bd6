/*
 * svg.c — the self-made SVG charts of svg.h: axes with "nice" ticks
 * (1, 2, 5 x 10^k, or powers of two on a log2 axis), one colour and marker
 * shape per series, lines, point labels placed where they overlap no other
 * label, reference (SLO) lines, highlighted points drawn as larger rings,
 * a legend under the plot, and horizontal grouped bars. Coordinates are
 * whole numbers in a 720-wide viewBox. Every text's box is estimated as
 * svg.h says; the layout keeps those boxes apart. Last, the static site's
 * timelines (a sparkline and a chart of a metric over time), written into
 * the page with coordinates to a tenth.
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

/* Text s (NULL: none) escaped for SVG and HTML by pl_html_write_text;
 * printable ASCII without & < > " ' (the days, numbers and commits that
 * fill a site's charts) needs none and is written at once, not a
 * character at a time. */
static void text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	for (; *p; p++)
		if (*p < 0x20 || *p > 0x7E || *p == '&' || *p == '<' || *p == '>' || *p == '"' ||
		    *p == '\'') {
			pl_html_write_text(f, s);
			return;
		}
	fputs(s ? s : "", f);
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

/* 1 when a series' legend entry with its note is wider than a legend row:
 * the note then goes on a row of its own under the name. */
static int legend_split(const struct pl_svg_series *se)
{
	return se->note && series_legend_width(se) > (size_t)(W - 10 - (L + 10));
}

/* The title's font size: 16, smaller (down to 10) when the title's
 * estimated box would be wider than the chart less 10 px each side. */
static int title_size(const char *title)
{
	double cols = (double)pl_text_width(title ? title : "");
	int fs = 16;

	while (fs > 10 && PL_SVG_COL_EM * fs * cols > W - 20)
		fs--;
	return fs;
}

static void frame(FILE *f, const char *title, long height)
{
	fprintf(f,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %ld\" role=\"img\" "
	        "class=\"chart\" %s font-size=\"13\">\n<title>",
	        W, height, font);
	text(f, title);
	fprintf(f, "</title>\n<rect width=\"%d\" height=\"%ld\" fill=\"#fff\"/>\n"
	           "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-size=\"%d\">",
	        W, height, W / 2, title_size(title));
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

/* An estimated text box (svg.h): x0,y0 top left, x1,y1 bottom right. */
struct box {
	double x0, y0, x1, y1;
};

enum anchor { A_START, A_MIDDLE, A_END };

static struct box text_box(double x, double y, const char *s, int fs, enum anchor a)
{
	double w = PL_SVG_COL_EM * fs * (double)pl_text_width(s ? s : "");
	struct box b;

	b.x0 = a == A_START ? x : a == A_MIDDLE ? x - w / 2 : x - w;
	b.x1 = b.x0 + w;
	b.y0 = y - 0.8 * fs;
	b.y1 = y + 0.2 * fs;
	return b;
}

static int boxes_overlap(const struct box *a, const struct box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

#define MAX_PLACED 512
#define MAX_SEGMENTS 512

/* Labels and markers placed so far on one chart, and the lines drawn
 * (series polylines, limit lines) that a point label keeps off where it
 * can. */
struct placed {
	struct box v[MAX_PLACED];
	size_t n;
	struct box seg[MAX_SEGMENTS]; /* segments from (x0, y0) to (x1, y1) */
	size_t nseg;
};

static void place_segment(struct placed *p, double x0, double y0, double x1, double y1)
{
	if (p->nseg < MAX_SEGMENTS)
		p->seg[p->nseg++] = (struct box){x0, y0, x1, y1};
}

/* 1 if the segment s passes through box b (Liang-Barsky clipping: some
 * t in [0, 1] puts the point s0 + t (s1 - s0) inside b). */
static int segment_crosses(const struct box *s, const struct box *b)
{
	double dx = s->x1 - s->x0, dy = s->y1 - s->y0, t0 = 0, t1 = 1;
	double pp[4] = {-dx, dx, -dy, dy};
	double qq[4] = {s->x0 - b->x0, b->x1 - s->x0, s->y0 - b->y0, b->y1 - s->y0};

	for (int k = 0; k < 4; k++) {
		if (pp[k] == 0) {
			if (qq[k] < 0)
				return 0;
			continue;
		}
		double t = qq[k] / pp[k];
		if (pp[k] < 0 && t > t0)
			t0 = t;
		else if (pp[k] > 0 && t < t1)
			t1 = t;
		if (t0 > t1)
			return 0;
	}
	return 1;
}

/* 1 if box b crosses none of the lines placed in p. */
static int clear_of_lines(const struct placed *p, const struct box *b)
{
	for (size_t i = 0; i < p->nseg; i++)
		if (segment_crosses(&p->seg[i], b))
			return 0;
	return 1;
}

static int fits(const struct placed *p, const struct box *b, const struct box *area)
{
	if (b->x0 < area->x0 || b->x1 > area->x1 || b->y0 < area->y0 || b->y1 > area->y1)
		return 0;
	for (size_t i = 0; i < p->n; i++)
		if (boxes_overlap(&p->v[i], b))
			return 0;
	return 1;
}

static void place(struct placed *p, const struct box *b)
{
	if (p->n < MAX_PLACED)
		p->v[p->n++] = *b;
}

static const char *const anchors[] = {"start", "middle", "end"};

#define NCOLOURS (sizeof(colours) / sizeof(colours[0]))

/* The colour of style s: one of 8. */
static const char *style_colour(size_t s)
{
	return colours[s % NCOLOURS];
}

/* The marker shape of style s: with the colour, a distinct pair for the
 * first 32 styles (8 colours x 4 shapes; the first 8 as shape s % 4). */
static size_t style_shape(size_t s)
{
	return (s % NCOLOURS + s / NCOLOURS) % 4;
}

/* The style of series s of c: its own (pl_svg_series.style), else its index. */
static size_t series_style(const struct pl_svg_series *se, size_t s)
{
	return se->style > 0 ? (size_t)se->style - 1 : s;
}

/* A marker of style s at (x, y), shape by style_shape, hollow. */
static void marker(FILE *f, size_t s, long x, long y, const char *col)
{
	switch (style_shape(s)) {
	case 0:
		fprintf(f, "<circle cx=\"%ld\" cy=\"%ld\" r=\"5\"", x, y);
		break;
	case 1:
		fprintf(f, "<rect x=\"%ld\" y=\"%ld\" width=\"9\" height=\"9\"", x - 4, y - 4);
		break;
	case 2:
		fprintf(f, "<polygon points=\"%ld,%ld %ld,%ld %ld,%ld\"", x, y - 6, x + 6, y + 4, x - 6,
		        y + 4);
		break;
	default:
		fprintf(f, "<polygon points=\"%ld,%ld %ld,%ld %ld,%ld %ld,%ld\"", x, y - 6, x + 6, y, x,
		        y + 6, x - 6, y);
		break;
	}
	fprintf(f, " fill=\"#fff\" stroke=\"%s\" stroke-width=\"2\"/>\n", col);
}

/* Largest magnitude a chart draws: a value beyond it is left out (the
 * tables show it), so no axis, tick or coordinate overflows to inf or NaN. */
#define CHART_MAX 1e15

static int drawable(double v)
{
	return isfinite(v) && fabs(v) <= CHART_MAX;
}

static int usable(const struct pl_svg_xy *c, double x, double y)
{
	return drawable(x) && drawable(y) && !(c->logx && x <= 0);
}

/* order[0..n) by ascending x (NAN last), equal x in their given order:
 * an insertion sort, the series are short. */
static void sort_by_x(size_t *order, size_t n, const double *x)
{
	for (size_t i = 1; i < n; i++) {
		size_t v = order[i], j = i;
		double xv = isnan(x[v]) ? INFINITY : x[v];
		while (j > 0 && (isnan(x[order[j - 1]]) ? INFINITY : x[order[j - 1]]) > xv) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = v;
	}
}

/* The rows the legend of c takes below the plot: it wraps into as many as
 * its entries need, a series with a split note taking a row of its own and
 * one for the note. */
static long legend_rows(const struct pl_svg_xy *c, long lx)
{
	long rows = 1;

	for (size_t s = 0, x = (size_t)lx; s <= c->nseries; s++) {
		const char *name = s < c->nseries ? c->series[s].name : c->mark_label;
		size_t w;
		if (!name)
			continue;
		w = s < c->nseries ? series_legend_width(&c->series[s]) : legend_width(name);
		if (s < c->nseries && legend_split(&c->series[s])) {
			rows += x > (size_t)lx ? 2 : 1; /* a row of its own, then the note's */
			x = W;                          /* the next entry starts a new row */
			continue;
		}
		if (x > (size_t)lx && x + w > W - 10) {
			rows++;
			x = (size_t)lx;
		}
		x += w;
	}
	return rows;
}

/* The ranges of the axes ax and ay: every usable point and every limit
 * line on the chart, x in powers of two on a log axis, else from 0 with
 * room for the last point's labels; y from 0 to a nice step over 110%. */
static void xy_ranges(const struct pl_svg_xy *c, struct axis *ax, struct axis *ay)
{
	for (size_t s = 0; s < c->nseries; s++)
		for (size_t i = 0; i < c->series[s].n; i++) {
			double x = c->series[s].x[i], y = c->series[s].y[i];
			if (!usable(c, x, y))
				continue;
			ax->lo = fmin(ax->lo, x);
			ax->hi = fmax(ax->hi, x);
			ay->hi = fmax(ay->hi, y);
		}
	if (!isfinite(ax->lo)) {
		ax->lo = c->logx ? 1 : 0;
		ax->hi = c->logx ? 2 : 1;
		ay->hi = 1;
	}
	for (size_t k = 0; k < c->nhlines; k++) /* a limit line stays on the chart */
		if (drawable(c->hlines[k].y))
			ay->hi = fmax(ay->hi, c->hlines[k].y);
	if (c->logx) {
		ax->lo = pow(2, floor(log2(ax->lo)));
		ax->hi = pow(2, ceil(log2(ax->hi)));
		if (ax->hi <= ax->lo)
			ax->hi = ax->lo * 2;
	} else {
		double st = nice_step(ax->hi > 0 ? ax->hi : 1, 5);
		ax->lo = 0;
		ax->hi = ceil(ax->hi * 1.05 / st) * st; /* room for the labels of the last point */
		if (ax->hi <= 0)
			ax->hi = 1;
	}
	if (!(ay->hi > 0))
		ay->hi = 1;
	ay->hi = ceil(ay->hi * 1.1 / nice_step(ay->hi * 1.1, 5)) * nice_step(ay->hi * 1.1, 5);
}

/* The dashed limit lines of c with their labels, above the line or, where
 * that is taken, below it. */
static void xy_hlines(FILE *f, const struct pl_svg_xy *c, const struct axis *ay, struct placed *pl,
                      const struct box *area)
{
	for (size_t k = 0; k < c->nhlines; k++) {
		long y;
		struct box b;
		if (!drawable(c->hlines[k].y))
			continue;
		y = map(ay, c->hlines[k].y);
		fprintf(f, "<line x1=\"%d\" y1=\"%ld\" x2=\"%d\" y2=\"%ld\" stroke=\"#444\" "
		           "stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n",
		        L, y, W - R, y);
		place_segment(pl, L, (double)y, W - R, (double)y);
		b = text_box(W - R - 4, y - 4, c->hlines[k].label, 12, A_END);
		if (!fits(pl, &b, area))
			b = text_box(W - R - 4, y + 14, c->hlines[k].label, 12, A_END);
		fprintf(f, "<text x=\"%d\" y=\"%ld\" text-anchor=\"end\" font-size=\"12\" "
		           "fill=\"#444\">",
		        W - R - 4, lround(b.y0 + 0.8 * 12));
		text(f, c->hlines[k].label);
		fputs("</text>\n", f);
		place(pl, &b);
	}
}

/* Each series' line (in x order when c->sort_x) and markers, a marked
 * point circled; the markers' boxes are placed so labels keep off them.
 * order has room for the longest series. */
static void xy_series(FILE *f, const struct pl_svg_xy *c, const struct axis *ax,
                      const struct axis *ay, struct placed *pl, size_t *order)
{
	for (size_t s = 0; s < c->nseries; s++) {
		const struct pl_svg_series *se = &c->series[s];
		const char *col = style_colour(series_style(se, s));
		int first = 1;
		long lx = 0, ly = 0;
		for (size_t i = 0; i < se->n; i++)
			order[i] = i;
		if (c->sort_x)
			sort_by_x(order, se->n, se->x);
		if (c->lines) {
			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
			for (size_t j = 0; j < se->n; j++) {
				size_t i = order[j];
				long px, py;
				if (!usable(c, se->x[i], se->y[i]))
					continue;
				px = map(ax, se->x[i]);
				py = map(ay, se->y[i]);
				fprintf(f, "%s%ld,%ld", first ? "" : " ", px, py);
				if (!first) /* labels keep off the line where they can */
					place_segment(pl, (double)lx, (double)ly, (double)px, (double)py);
				lx = px;
				ly = py;
				first = 0;
			}
			fputs("\"/>\n", f);
		}
		for (size_t i = 0; i < se->n; i++) {
			long px, py;
			if (!usable(c, se->x[i], se->y[i]))
				continue;
			px = map(ax, se->x[i]);
			py = map(ay, se->y[i]);
			if (se->mark && se->mark[i])
				fprintf(f, "<circle cx=\"%ld\" cy=\"%ld\" r=\"10\" fill=\"none\" "
				           "stroke=\"#000\" stroke-width=\"1.5\"/>\n",
				        px, py);
			marker(f, series_style(se, s), px, py, col);
			{ /* labels keep off the markers too */
				struct box mb = {px - 7, py - 7, px + 7, py + 7};
				place(pl, &mb);
			}
		}
	}
}

/* The first of the places around (px, py) where label fits on the plot
 * without covering a placed box and, with lines 1, without crossing a
 * drawn line; -1 if none. */
#define NPLACES 10
static const int place_dx[NPLACES] = {8, 8, -8, -8, 0, 0, 14, 14, -14, -14};
static const int place_dy[NPLACES] = {-7, 15, -7, 15, -12, 22, -16, 24, -16, 24};
static const enum anchor place_an[NPLACES] = {A_START, A_START, A_END,   A_END,   A_MIDDLE,
                                              A_MIDDLE, A_START, A_START, A_END, A_END};

static int label_place(const struct placed *pl, const struct box *area, long px, long py,
                       const char *label, int lines)
{
	for (int k = 0; k < NPLACES; k++) {
		struct box b = text_box(px + place_dx[k], py + place_dy[k], label, 11, place_an[k]);
		if (fits(pl, &b, area) && (!lines || clear_of_lines(pl, &b)))
			return k;
	}
	return -1;
}

/* The point labels, each at the first of ten places around its point
 * where it fits on the plot without covering a placed box or crossing a
 * line (a series' line, a limit line), else at the first where it covers
 * no box; a label that fits nowhere is left out. */
static void xy_labels(FILE *f, const struct pl_svg_xy *c, const struct axis *ax,
                      const struct axis *ay, struct placed *pl, const struct box *area)
{

	for (size_t s = 0; s < c->nseries; s++) {
		const struct pl_svg_series *se = &c->series[s];
		const char *col = style_colour(series_style(se, s));
		for (size_t i = 0; se->label && i < se->n; i++) {
			long px, py;
			if (!se->label[i] || !usable(c, se->x[i], se->y[i]))
				continue;
			px = map(ax, se->x[i]);
			py = map(ay, se->y[i]);
			int k = label_place(pl, area, px, py, se->label[i], 1);
			if (k < 0)
				k = label_place(pl, area, px, py, se->label[i], 0);
			if (k < 0)
				continue;
			struct box b = text_box(px + place_dx[k], py + place_dy[k], se->label[i], 11,
			                        place_an[k]);
			fprintf(f, "<text x=\"%ld\" y=\"%ld\" text-anchor=\"%s\" font-size=\"11\" "
			           "fill=\"%s\">",
			        px + place_dx[k], py + place_dy[k], anchors[place_an[k]], col);
			text(f, se->label[i]);
			fputs("</text>\n", f);
			place(pl, &b);
		}
	}
}

/* The legend from (lx, ly): each series' marker, name and note, a row
 * wrapped when full (as legend_rows() counted), then the marked point's
 * circle and label. */
static void xy_legend(FILE *f, const struct pl_svg_xy *c, long lx, long ly)
{
	for (size_t s = 0; s < c->nseries; s++) {
		const struct pl_svg_series *se = &c->series[s];
		const char *col = style_colour(series_style(se, s));
		/* legend entry, on the next row when this one is full */
		if (lx > L + 10 &&
		    (legend_split(se) || lx + (long)series_legend_width(se) > W - 10)) {
			lx = L + 10;
			ly += LEGEND_ROW;
		}
		marker(f, series_style(se, s), lx + 6, ly - 5, col);
		fprintf(f, "<text x=\"%ld\" y=\"%ld\">", lx + 16, ly);
		text(f, se->name);
		if (se->note && legend_split(se)) { /* the note on its own row, under the name */
			ly += LEGEND_ROW;
			fprintf(f, "</text>\n<text x=\"%ld\" y=\"%ld\">", lx + 16, ly);
			text(f, se->note);
			fputs("</text>\n", f);
			lx = W; /* the next entry starts a new row */
			continue;
		}
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
		           "stroke-width=\"1.5\"/><text x=\"%ld\" y=\"%ld\">",
		        lx + 6, ly - 5, lx + 16, ly);
		text(f, c->mark_label);
		fputs("</text>\n", f);
	}
}

char *pl_svg_xy_chart(const struct pl_svg_xy *c)
{
	struct axis ax = {INFINITY, -INFINITY, c->logx, L, W - R};
	struct axis ay = {0, -INFINITY, 0, H - B, T};
	struct placed *pl = calloc(1, sizeof(*pl));
	struct box area = {L + 2, T + 2, W - R - 2, H - B - 2};
	char *buf = NULL;
	size_t len = 0, maxn = 1;
	size_t *order;
	FILE *f;

	for (size_t s = 0; s < c->nseries; s++)
		maxn = c->series[s].n > maxn ? c->series[s].n : maxn;
	order = calloc(maxn, sizeof(*order));
	f = pl && order ? open_memstream(&buf, &len) : NULL;
	if (!f) {
		free(pl);
		free(order);
		return NULL;
	}
	xy_ranges(c, &ax, &ay);
	frame(f, c->title, H + LEGEND_ROW * (legend_rows(c, L + 10) - 1));
	ticks(f, &ax, 1);
	ticks(f, &ay, 0);
	axis_labels(f, c->xlabel, c->ylabel);
	xy_hlines(f, c, &ay, pl, &area);
	/* lines and markers first, then the point labels over them */
	xy_series(f, c, &ax, &ay, pl, order);
	xy_labels(f, c, &ax, &ay, pl, &area);
	xy_legend(f, c, L + 10, H - 6);
	free(pl);
	free(order);
	return finish(f, &buf);
}

/* Splits label s into at most 3 lines of at most cols columns at spaces
 * (a word wider than a line is cut), the last line ending in an ellipsis
 * when text is left over. Lines go to out[0..3) (heap; caller frees).
 * Returns the number of lines, 0 on out of memory. */
static size_t wrap_label(const char *s, size_t cols, char *out[3])
{
	size_t nl = 0;

	s = s ? s : "";
	while (nl < 3) {
		size_t end = 0, last_space = 0, w = 0, n = strlen(s);
		while (end < n) {
			unsigned long cp;
			size_t k = pl_utf8_decode(s + end, n - end, &cp);
			char tmp[8] = {0};
			if (k == 0)
				k = 1;
			memcpy(tmp, s + end, k < 8 ? k : 7);
			if (w + pl_text_width(tmp) > cols)
				break;
			w += pl_text_width(tmp);
			if (cp == ' ')
				last_space = end;
			end += k;
		}
		if (end < n && last_space > 0)
			end = last_space; /* break at the last space */
		if (nl == 2 && end < n) {
			char *cut = pl_text_sanitize_cut(s, cols);
			if (!cut)
				goto oom;
			out[nl++] = cut;
			break;
		}
		out[nl] = strndup(s, end);
		if (!out[nl])
			goto oom;
		nl++;
		s += end;
		while (*s == ' ')
			s++;
		if (!*s)
			break;
	}
	return nl;
oom:
	for (size_t i = 0; i < nl; i++)
		free(out[i]);
	return 0;
}

/* Where a bar chart's parts go (pl_svg_bars). */
struct bars_layout {
	size_t ns;    /* series: bars per group */
	long left;    /* x of the value axis: right of the widest label line */
	long top;     /* y of the plot's top, under the title and legend */
	long gh;      /* the least height of a group */
	long plot_h;  /* the plot's height: every group's */
	long bar_h;   /* one bar's height */
};

/* The title and, with more than one series, the legend saying what the
 * colours mean. */
static void bars_head(FILE *f, const struct pl_svg_bars *c, const struct bars_layout *lay,
                      long height)
{
	fprintf(f,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %ld\" role=\"img\" "
	        "class=\"chart\" %s font-size=\"13\">\n<title>",
	        W, height, font);
	text(f, c->title);
	fprintf(f, "</title>\n<rect width=\"%d\" height=\"%ld\" fill=\"#fff\"/>\n"
	           "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-size=\"%d\">",
	        W, height, W / 2, title_size(c->title));
	text(f, c->title);
	fputs("</text>\n", f);
	if (lay->ns > 1) { /* legend: what the colours mean */
		long lx = lay->left;
		for (size_t s = 0; s < lay->ns; s++) {
			fprintf(f, "<rect x=\"%ld\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			           "<text x=\"%ld\" y=\"%d\">",
			        lx, T - 2, colours[s % 8], lx + 16, T + 9);
			text(f, c->series[s]);
			fputs("</text>\n", f);
			lx += (long)legend_width(c->series[s]);
		}
	}
}

/* The value ticks and grid along the bottom, the two axis lines and the
 * value axis' label. */
static void bars_axis(FILE *f, const struct pl_svg_bars *c, const struct bars_layout *lay,
                      const struct axis *axv)
{
	char num[40];
	double step = nice_step(axv->hi, 5);
	long left = lay->left, top = lay->top, plot_h = lay->plot_h;

	for (int i = 0; i < 40 && i * step <= axv->hi * (1 + 1e-9); i++) {
		long p = map(axv, i * step);
		pl_fmt_num(num, sizeof(num), pl_round_sig(i * step, 6));
		fprintf(f,
		        "<line x1=\"%ld\" y1=\"%ld\" x2=\"%ld\" y2=\"%ld\" stroke=\"#ddd\"/>"
		        "<text x=\"%ld\" y=\"%ld\" text-anchor=\"middle\">%s</text>\n",
		        p, top, p, top + plot_h, p, top + plot_h + 18, num);
	}
	fprintf(f, "<line x1=\"%ld\" y1=\"%ld\" x2=\"%ld\" y2=\"%ld\" stroke=\"#333\"/>\n", left,
	        top, left, top + plot_h);
	fprintf(f, "<line x1=\"%ld\" y1=\"%ld\" x2=\"%d\" y2=\"%ld\" stroke=\"#333\"/>\n", left,
	        top + plot_h, W - 80, top + plot_h);
	fprintf(f, "<text x=\"%ld\" y=\"%ld\" text-anchor=\"middle\">", (left + W - 80) / 2,
	        top + plot_h + 38);
	text(f, c->xlabel);
	fputs("</text>\n", f);
}

/* Each group: its label's lines, right-aligned left of the axis, its
 * bars with their values (and prefixes), or its note when no bar of it
 * is drawable. lines[i] holds group i's nlines[i] label lines. */
static void bars_groups(FILE *f, const struct pl_svg_bars *c, const struct bars_layout *lay,
                        const struct axis *axv, char *(*lines)[3], const size_t *nlines)
{
	size_t ns = lay->ns;
	long left = lay->left, bar_h = lay->bar_h;

	for (size_t i = 0, y = (size_t)lay->top; i < c->n; i++) {
		long need = (long)nlines[i] * 14 + 8, h = need > lay->gh ? need : lay->gh;
		long yc = (long)y + h / 2, by = yc - (long)ns * bar_h / 2;
		int any = 0;
		for (size_t k = 0; k < nlines[i]; k++) {
			fprintf(f, "<text x=\"%ld\" y=\"%ld\" text-anchor=\"end\" font-size=\"12\">",
			        left - 8, yc - ((long)nlines[i] - 1) * 7 + 4 + (long)k * 14);
			text(f, lines[i][k]);
			fputs("</text>\n", f);
		}
		for (size_t s = 0; s < ns; s++) {
			double v = c->values[i * ns + s];
			char num[40];
			long x1, top_s = by + (long)s * bar_h;
			if (!drawable(v))
				continue;
			any = 1;
			x1 = map(axv, v);
			fprintf(f, "<rect x=\"%ld\" y=\"%ld\" width=\"%ld\" height=\"%ld\" fill=\"%s\"/>"
			           "<text x=\"%ld\" y=\"%ld\" font-size=\"11\">",
			        left, top_s + 1, x1 - left, bar_h - 2,
			        ns == 1 && c->styles && c->styles[i] > 0 ? style_colour((size_t)c->styles[i] - 1)
			                                                 : colours[(ns > 1 ? s : 0) % 8],
			        x1 + 4,
			        top_s + bar_h - 3);
			if (c->prefixes && c->prefixes[i * ns + s])
				text(f, c->prefixes[i * ns + s]);
			/* as the tables print it: 4 significant digits, trailing zeros kept */
			fprintf(f, "%s</text>\n", pl_fmt_sig4(num, sizeof(num), v));
		}
		if (!any && c->notes && c->notes[i]) {
			fprintf(f, "<text x=\"%ld\" y=\"%ld\" font-size=\"11\" fill=\"#666\">", left + 6,
			        yc + 4);
			text(f, c->notes[i]);
			fputs("</text>\n", f);
		}
		y += (size_t)h;
	}
}

char *pl_svg_bars(const struct pl_svg_bars *c)
{
	size_t maxcols = 0;
	char *(*lines)[3] = calloc(c->n ? c->n : 1, sizeof(*lines));
	size_t *nlines = calloc(c->n ? c->n : 1, sizeof(*nlines));
	struct axis axv = {0, 0, 0, 0, W - 80};
	struct bars_layout lay = {c->nseries ? c->nseries : 1, 0, 0, 0, 0, 14};
	long lw;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = NULL;
	char *out = NULL;

	if (!lines || !nlines)
		goto done;
	for (size_t i = 0; i < c->n; i++) {
		nlines[i] = wrap_label(c->labels[i], PL_SVG_LABEL_COLS, lines[i]);
		if (nlines[i] == 0)
			goto done;
		for (size_t k = 0; k < nlines[i]; k++) {
			size_t w = pl_text_width(lines[i][k]);
			maxcols = w > maxcols ? w : maxcols;
		}
	}
	lw = lround(PL_SVG_COL_EM * 12 * (double)maxcols);
	lay.left = lw + 16 > 80 ? lw + 16 : 80;
	axv.px0 = (int)lay.left;
	lay.top = T + (lay.ns > 1 ? 24 : 0);
	lay.gh = (long)lay.ns * lay.bar_h + 12;
	for (size_t i = 0; i < c->n; i++) {
		long need = (long)nlines[i] * 14 + 8; /* a group grows with its label's lines */
		lay.plot_h += need > lay.gh ? need : lay.gh;
	}
	if (lay.plot_h == 0)
		lay.plot_h = lay.gh;
	for (size_t i = 0; i < c->n * lay.ns; i++)
		if (drawable(c->values[i]))
			axv.hi = fmax(axv.hi, c->values[i]);
	if (!(axv.hi > 0))
		axv.hi = 1;
	axv.hi = ceil(axv.hi * 1.02 / nice_step(axv.hi * 1.02, 5)) * nice_step(axv.hi * 1.02, 5);
	if (!(f = open_memstream(&buf, &len)))
		goto done;
	bars_head(f, c, &lay, lay.top + lay.plot_h + 50);
	bars_axis(f, c, &lay, &axv);
	bars_groups(f, c, &lay, &axv, lines, nlines);
	out = finish(f, &buf);
done:
	for (size_t i = 0; lines && nlines && i < c->n; i++)
		for (size_t k = 0; k < nlines[i]; k++)
			free(lines[i][k]);
	free(lines);
	free(nlines);
	return out;
}

char *pl_svg_offer_mark(size_t style)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fputs("<svg class=\"mk\" viewBox=\"-7 -7 14 14\" width=\"12\" height=\"12\" "
	      "aria-hidden=\"true\">", f);
	marker(f, style, 0, 0, style_colour(style));
	fputs("</svg> ", f);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* ------------------------------------------------------------ timelines */

/* v rounded to a tenth, as "12.3" / "-0.5" / "7.0", into buf: what "%.1f"
 * prints for the small chart coordinates (but for ties and "-0.0"),
 * without the cost of a floating-point conversion (a site draws millions
 * of them). */
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

/* v held inside [lo, hi] (NaN: lo). */
static double clampd(double v, double lo, double hi)
{
	return !(v >= lo) ? lo : v > hi ? hi : v;
}

/* The y range of t: values (and intervals when with_ci) and levels, the
 * drawable ones, with 5% margin; 0..1 when none is. */
static void tl_range(const struct pl_svg_timeline *t, int with_ci, double *lo, double *hi)
{
	double a = INFINITY, b = -INFINITY;

	for (size_t i = 0; i < t->npoints; i++) {
		const struct pl_svg_tpoint *p = &t->points[i];
		double l = with_ci && p->ci ? p->lo : p->y;
		double u = with_ci && p->ci ? p->hi : p->y;
		if (drawable(l) && l < a)
			a = l;
		if (drawable(u) && u > b)
			b = u;
		if (drawable(p->level)) {
			if (p->level < a)
				a = p->level;
			if (p->level > b)
				b = p->level;
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

/* The colours of a step's line and of its label on the chart. */
static const char *step_line_colour(enum pl_svg_step_kind k)
{
	return k == PL_SVG_STEP_ACCEPTED ? "#2e7d32" : k == PL_SVG_STEP_FAILING ? "#c62828" : "#777";
}

static const char *step_text_colour(enum pl_svg_step_kind k)
{
	return k == PL_SVG_STEP_ACCEPTED ? "#2e7d32" : k == PL_SVG_STEP_FAILING ? "#c62828" : "#555";
}

#define SPARK_W 120
#define SPARK_H 28
#define SPARK_MAX 60 /* points drawn at most; more are thinned evenly */

int pl_svg_sparkline(FILE *f, const struct pl_svg_timeline *t)
{
	const struct pl_svg_tpoint *pt = t->points;
	size_t np = t->npoints, stride = np > SPARK_MAX ? (np + SPARK_MAX - 1) / SPARK_MAX : 1;
	double lo, hi;

	tl_range(t, 0, &lo, &hi);
	fprintf(f, "<svg class=\"spark\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	           "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"trend\">"
	           "<polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"1.5\" points=\"",
	        SPARK_W, SPARK_H, SPARK_W, SPARK_H);
	for (size_t i = 0, any = 0; i < np; i += stride) {
		size_t k = i + stride >= np ? np - 1 : i; /* always the last one */
		double x = 2 + pt[k].x * (SPARK_W - 4);
		double y = SPARK_H - 2 - (clampd(pt[k].y, lo, hi) - lo) / (hi - lo) * (SPARK_H - 4);
		char bx[32], by[32];
		if (pt[k].n > 0) /* a point of failed runs only has no value: a mark */
			fprintf(f, "%s%s,%s", any++ ? " " : "", c1(bx, x), c1(by, y));
		if (k == np - 1)
			break;
	}
	fputs("\"/>", f);
	for (size_t k = 0; k < np; k++)
		if (pt[k].nfailed) { /* a red cross at the bottom: failed runs */
			double x = 2 + pt[k].x * (SPARK_W - 4);
			fprintf(f, "<path d=\"M%.1f %d l4 -4 m-4 0 l4 4\" stroke=\"#c62828\" "
			           "stroke-width=\"1.5\"/>", x - 2, SPARK_H - 1);
		}
	for (size_t k = 0; k < t->nsteps; k++) {
		double x = 2 + t->steps[k].x * (SPARK_W - 4);
		fprintf(f, "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
		           "stroke-dasharray=\"2,2\"/>",
		        x, x, SPARK_H, step_line_colour(t->steps[k].kind));
	}
	fputs("</svg>", f);
	return ferror(f) ? PL_EIO : 0;
}

#define CH_W 720
#define CH_H 260
#define CH_L 70  /* left margin: y labels */
#define CH_R 16
#define CH_T 16
#define CH_B 34  /* bottom margin: x labels */
#define STEP_ROWS 3      /* rows of step labels at the top of a chart */
#define STEP_CHAR_W 6.6  /* width of a character of an 11 px label, estimated (px) */

/* Where a timeline chart's values go: the y range and the plot's size. */
struct tl_plot {
	double lo, hi; /* the y range */
	double pw, ph; /* the plot's width and height (px) */
};

/* The chart x of place v on the time axis (0..1). */
static double tl_x(const struct tl_plot *g, double v)
{
	return CH_L + v * g->pw;
}

/* The chart y of value v, held inside the y range. */
static double tl_y(const struct tl_plot *g, double v)
{
	return CH_T + g->ph - (clampd(v, g->lo, g->hi) - g->lo) / (g->hi - g->lo) * g->ph;
}

/* The svg element, the plot's frame, three y ticks (low, middle, high) and
 * the y axis' label. */
static void tl_head(FILE *f, const struct pl_svg_timeline *t, const struct tl_plot *g)
{
	char a[32];

	fputs("<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ", f);
	fprintf(f, "%d %d\" role=\"img\" aria-label=\"", CH_W, CH_H);
	text(f, t->name);
	fputs(" over time\">\n", f);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" fill=\"#fafafa\" "
	           "stroke=\"#ccc\"/>\n",
	        CH_L, CH_T, g->pw, g->ph);
	for (int i = 0; i < 3; i++) {
		double v = g->lo + (g->hi - g->lo) * (0.05 + 0.45 * i) / 1.0;
		if (i == 2)
			v = g->hi - 0.05 * (g->hi - g->lo);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>"
		           "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\" "
		           "fill=\"#444\">%s</text>\n",
		        CH_L, tl_y(g, v), CH_W - CH_R, tl_y(g, v), CH_L - 4, tl_y(g, v) + 4,
		        pl_fmt_sig4(a, sizeof(a), v));
	}
	fprintf(f, "<text x=\"12\" y=\"%d\" font-size=\"11\" fill=\"#444\" "
	           "transform=\"rotate(-90 12 %d)\" text-anchor=\"middle\">",
	        CH_T + (int)(g->ph / 2), CH_T + (int)(g->ph / 2));
	text(f, t->name);
	fputs(" (", f);
	text(f, t->unit);
	fputs(")</text>\n", f);
}

/* The ticks under the plot, each with its mark; then the band. */
static void tl_ticks_band(FILE *f, const struct pl_svg_timeline *t, const struct tl_plot *g)
{
	const struct pl_svg_band *b = &t->band;
	char a[32], c[32];

	for (size_t k = 0; k < t->nticks; k++) {
		double x = tl_x(g, t->ticks[k].x);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
		           "stroke=\"#999\"/><text x=\"%.1f\" y=\"%d\" font-size=\"11\" "
		           "fill=\"#444\"%s>",
		        x, CH_T + g->ph, x, CH_T + g->ph + 4, x, CH_H - 12,
		        k == 0 ? "" : k == t->nticks - 1 ? " text-anchor=\"end\""
		                                         : " text-anchor=\"middle\"");
		text(f, t->ticks[k].label);
		fputs("</text>\n", f);
	}
	if (b->on) {
		double blo = b->lo < g->lo ? g->lo : b->lo;
		double bhi = b->hi > g->hi ? g->hi : b->hi;
		if (bhi > blo)
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			           "fill=\"#1f5fa8\" fill-opacity=\"0.08\"><title>prediction band of the "
			           "window: %s to %s</title></rect>\n",
			        tl_x(g, b->x0), tl_y(g, bhi), tl_x(g, b->x1) - tl_x(g, b->x0),
			        tl_y(g, blo) - tl_y(g, bhi), pl_fmt_sig4(a, sizeof(a), b->lo),
			        pl_fmt_sig4(c, sizeof(c), b->hi));
	}
}

/* The steps: each label right of its line, or left of it where it would
 * leave the plot, in the first of STEP_ROWS rows where it overlaps no
 * earlier label (width estimated at STEP_CHAR_W px a byte). */
static void tl_steps(FILE *f, const struct pl_svg_timeline *t, const struct tl_plot *g)
{
	double row_end[STEP_ROWS];

	for (int r = 0; r < STEP_ROWS; r++)
		row_end[r] = -1e9;
	for (size_t k = 0; k < t->nsteps; k++) {
		const struct pl_svg_step *s = &t->steps[k];
		const char *label = s->label ? s->label : "";
		double x = tl_x(g, s->x), w, left;
		int r = 0, end;
		w = STEP_CHAR_W * (double)(strlen(label) + (s->commit ? strlen(s->commit) + 4 : 0));
		end = x + 3 + w > CH_W - CH_R;
		left = end ? x - 3 - w : x + 3;
		while (r < STEP_ROWS - 1 && left < row_end[r] + 4)
			r++;
		row_end[r] = left + w;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"%s\" "
		           "stroke-dasharray=\"4,3\"/>\n",
		        x, CH_T, x, CH_T + g->ph, step_line_colour(s->kind));
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"%s\"%s>",
		        end ? x - 3 : x + 3, CH_T + 12 + 13 * r, step_text_colour(s->kind),
		        end ? " text-anchor=\"end\"" : "");
		text(f, label);
		if (s->commit) {
			fputs(" at ", f);
			text(f, s->commit);
		}
		fputs("</text>\n", f);
	}
}

/* The intervals, the fitted level as a step line and the values as a line. */
static void tl_lines(FILE *f, const struct pl_svg_timeline *t, const struct tl_plot *g)
{
	const struct pl_svg_tpoint *pt = t->points;
	char bx[32], b1[32], b2[32];

	for (size_t i = 0; i < t->npoints; i++)
		if (pt[i].ci)
			fprintf(f, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" "
			           "stroke=\"#9bb7d9\"/>\n",
			        c1(bx, tl_x(g, pt[i].x)), c1(b1, tl_y(g, pt[i].lo)), bx,
			        c1(b2, tl_y(g, pt[i].hi)));
	fputs("<path fill=\"none\" stroke=\"#e08a00\" stroke-width=\"1.5\" d=\"", f);
	for (size_t i = 0, started = 0; i < t->npoints; i++) {
		double lv = pt[i].level;
		if (!isfinite(lv)) /* no level here (failed runs only): the segment runs on */
			continue;
		if (!started++)
			fprintf(f, "M%s %s", c1(bx, tl_x(g, pt[i].x)), c1(b1, tl_y(g, lv)));
		else
			fprintf(f, " H%s V%s", c1(bx, tl_x(g, (pt[i - 1].x + pt[i].x) / 2)),
			        c1(b1, tl_y(g, lv)));
	}
	if (t->npoints)
		fprintf(f, " H%.1f", tl_x(g, pt[t->npoints - 1].x));
	fputs("\"/>\n", f);
	fputs("<polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"1\" points=\"", f);
	for (size_t i = 0, any = 0; i < t->npoints; i++)
		if (pt[i].n > 0) /* points of failed runs only have no value */
			fprintf(f, "%s%s,%s", any++ ? " " : "", c1(bx, tl_x(g, pt[i].x)),
			        c1(b1, tl_y(g, pt[i].y)));
	fputs("\"/>\n", f);
}

/* The values as dots, each with its label, value, n and commit on hover (a
 * title element: no script); then the failed runs: a red cross on the
 * bottom edge and "N failed" above it. */
static void tl_marks(FILE *f, const struct pl_svg_timeline *t, const struct tl_plot *g)
{
	const struct pl_svg_tpoint *pt = t->points;
	char a[32], bx[32], by[32];

	fputs("<g fill=\"#1f5fa8\">", f);
	for (size_t i = 0; i < t->npoints; i++) {
		if (pt[i].n == 0)
			continue;
		fputs("<g><title>", f);
		text(f, pt[i].label);
		fprintf(f, ": %s ", pl_fmt_sig4(a, sizeof(a), pt[i].y));
		text(f, t->unit);
		fprintf(f, ", n %zu", pt[i].n);
		if (pt[i].commit) {
			fputs(", commit ", f);
			text(f, pt[i].commit);
		}
		fprintf(f, "</title><circle cx=\"%s\" cy=\"%s\" r=\"2.5\"/></g>",
		        c1(bx, tl_x(g, pt[i].x)), c1(by, tl_y(g, pt[i].y)));
	}
	fputs("</g>\n", f);
	for (size_t i = 0; i < t->npoints; i++) {
		double x = tl_x(g, pt[i].x), y = CH_T + g->ph - 6;
		if (!pt[i].nfailed)
			continue;
		fprintf(f, "<g><title>%zu failed run%s (no request completed)</title>"
		           "<path d=\"M%.1f %.1f l8 -8 m-8 0 l8 8\" stroke=\"#c62828\" "
		           "stroke-width=\"2\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
		           "fill=\"#c62828\" text-anchor=\"%s\">%zu failed</text></g>\n",
		        pt[i].nfailed, pt[i].nfailed == 1 ? "" : "s", x - 4, y + 4, x, y - 8,
		        x > CH_W - CH_R - 40 ? "end" : x < CH_L + 40 ? "start" : "middle",
		        pt[i].nfailed);
	}
}

int pl_svg_timeline(FILE *f, const struct pl_svg_timeline *t)
{
	struct tl_plot g = {0, 0, CH_W - CH_L - CH_R, CH_H - CH_T - CH_B};

	tl_range(t, 1, &g.lo, &g.hi);
	tl_head(f, t, &g);
	tl_ticks_band(f, t, &g);
	tl_steps(f, t, &g);
	tl_lines(f, t, &g);
	tl_marks(f, t, &g);
	fputs("</svg>\n", f);
	return ferror(f) ? PL_EIO : 0;
}
