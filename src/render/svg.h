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
	size_t n;
	const char *note;       /* added to the legend entry (why no point is drawn), or NULL */
};

/* An x-y chart with lines and markers. */
struct pl_svg_xy {
	const char *title;   /* chart title (escaped) */
	const char *xlabel;  /* axis labels (escaped) */
	const char *ylabel;
	const char *mark_label; /* legend text for highlighted points, or NULL */
	int logx;            /* 1: log2 x axis (concurrency sweeps) */
	int lines;           /* 1: join the points of a series */
	const struct pl_svg_series *series;
	size_t nseries;
};

/* The chart as a standalone <svg> element (no XML prolog, so it can be
 * inlined in HTML and also saved as NAME.svg). Caller frees; NULL on out
 * of memory. */
char *pl_svg_xy_chart(const struct pl_svg_xy *c);

/* A bar chart: one bar per label. */
char *pl_svg_bar_chart(const char *title, const char *ylabel, const char *const *labels,
                       const double *values, size_t n);

#endif
