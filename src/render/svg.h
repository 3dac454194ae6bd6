/*
 * svg.h — small self-made SVG charts for the HTML page and the bundle.
 *
 * The HTML report must be one self-contained file, readable on a phone, and
 * byte-reproducible; gnuplot's SVG carries its own version and is sized in
 * pixels. These charts are written by perfledger itself: a viewBox so they
 * scale to the screen, integer coordinates (no locale, no rounding drift),
 * every label escaped as text, a CJK-capable font list so Chinese labels
 * are drawn with Noto Sans CJK rather than boxes.
 */
#ifndef PL_SVG_H
#define PL_SVG_H

#include <stddef.h>

/* One series of an x-y chart. */
struct pl_svg_series {
	const char *name;       /* legend text (input text: escaped) */
	const double *x, *y;    /* n points; NAN points are left out */
	const unsigned char *mark; /* n flags: 1 = highlighted point (Pareto), or NULL */
	const char *const *label; /* n point labels (e.g. "c=16"; NULL entries none), or NULL */
	size_t n;
	const char *note;       /* added to the legend entry (why no point is drawn), or NULL */
	int style;              /* colour and marker: style + 1 (pl_svg_offer_mark), so one
	                           offer looks alike in every chart; 0: the series' index */
};

/* A horizontal reference line (an SLO limit) with its label. */
struct pl_svg_hline {
	double y;               /* in the units of the y axis */
	const char *label;      /* drawn above the line's right end (escaped) */
};

/* An x-y chart with lines and markers. Each series has its own colour and
 * marker shape (hollow circle, square, triangle, diamond), so a point
 * drawn on another series' point stays visible. Point labels are placed
 * beside their point where their estimated box (see below) overlaps no
 * label placed before it, trying six positions; a label that fits
 * nowhere is left out (the point stays). */
struct pl_svg_xy {
	const char *title;   /* chart title (escaped) */
	const char *xlabel;  /* axis labels (escaped) */
	const char *ylabel;
	const char *mark_label; /* legend text for highlighted points, or NULL */
	int logx;            /* 1: log2 x axis (concurrency sweeps) */
	int lines;           /* 1: join the points of a series */
	int sort_x;          /* 1: join them in ascending x order (else in the given order) */
	const struct pl_svg_hline *hlines; /* nhlines reference lines, or NULL */
	size_t nhlines;
	const struct pl_svg_series *series;
	size_t nseries;
};

/* The chart as a standalone <svg> element (no XML prolog, so it can be
 * inlined in HTML and also saved as NAME.svg). Caller frees; NULL on out
 * of memory. */
char *pl_svg_xy_chart(const struct pl_svg_xy *c);

/* A horizontal bar chart: one group of nseries bars per category, the
 * category labels left of the bars (wrapped at spaces into at most three
 * lines of PL_SVG_LABEL_COLS columns, the last cut with an ellipsis), the
 * value at the end of each bar, a legend of the series' colours when
 * nseries > 1. Horizontal bars keep long labels (accelerator names,
 * "hardware / concurrency") readable for any number of categories. */
struct pl_svg_bars {
	const char *title;           /* chart title (escaped) */
	const char *xlabel;          /* value axis label (escaped) */
	const char *const *labels;   /* n category labels (input text: escaped) */
	size_t n;
	const char *const *series;   /* nseries legend names */
	size_t nseries;              /* 1..4 */
	const double *values;        /* n * nseries: values[i * nseries + s]; NAN: no bar */
	const char *const *notes;    /* n texts written where a category has no bar, or NULL */
	const char *const *prefixes; /* n * nseries texts written before a bar's value (a
	                                bound: "≤ "), NULL entries none; or NULL (escaped) */
	const int *styles;           /* nseries == 1: n colours, style + 1 of each category's
	                                bar (an offer's colour in every chart); 0 entries or
	                                NULL: the first colour */
};

#define PL_SVG_LABEL_COLS 34

/* The marker of style `style` (the colour and hollow shape a series of
 * that style is drawn with: 8 colours x 4 shapes, distinct for the first
 * 32 styles), as a small inline <svg class="mk"> followed by a space, for
 * a table cell beside the offer's name. Caller frees; NULL on out of
 * memory. */
char *pl_svg_offer_mark(size_t style); /* columns of a category label line */

/* The bar chart as pl_svg_xy_chart's. Caller frees; NULL on out of memory. */
char *pl_svg_bars(const struct pl_svg_bars *c);

/* Text box estimate shared by the layout here and the overlap test
 * (tests/report/check_report_text.py): a text of `cols` display columns
 * (pl_text_width) at font size fs px is 0.6 * fs px wide per column (CJK
 * characters, 2 columns, 1.2 * fs) and spans from 0.8 * fs above its
 * baseline to 0.2 * fs below it. */
#define PL_SVG_COL_EM 0.6

#endif
