/*
 * svg.h — small self-made SVG charts for the HTML page and the bundle.
 *
 * The HTML report must be one self-contained file, readable on a phone, and
 * byte-reproducible; gnuplot's SVG carries its own version and is sized in
 * pixels. These charts are written by perfledger itself: a viewBox so they
 * scale to the screen, integer coordinates (no locale, no rounding drift),
 * every label escaped as text, a CJK-capable font list so Chinese labels
 * are drawn with Noto Sans CJK rather than boxes. The static site's charts
 * of a metric over time (pl_svg_sparkline, pl_svg_timeline) are drawn here
 * too, so that one file writes every SVG element of the project.
 */
#ifndef PL_SVG_H
#define PL_SVG_H

#include <stddef.h>
#include <stdio.h>

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
 * label or marker placed before it and crosses no line drawn (a series'
 * line, a limit line), trying ten positions; where every position crosses
 * a line, at the first that overlaps nothing; a label that fits nowhere
 * is left out (the point stays). */
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

/* ------------------------------------------ timelines (the static site)
 *
 * A metric's values over time, as the site draws them: the index row's
 * sparkline and the chart on a series' page. Unlike the charts above they
 * are written straight into the page (a site of 10k series draws millions
 * of coordinates), coordinates carry one decimal, and the description is
 * ready-made: svg.c places and escapes, it does not judge. Places along
 * the time axis (x) run from 0 (the first point) to 1 (the last); values
 * (y) are in the unit of the chart, the y range being every drawable
 * value, interval and level with 5% margin (a value beyond 1e15 in size
 * is left out of it and drawn at the edge). */

/* One point: a value (a median) with its interval and fitted level, the
 * runs it is of and the runs that failed there. */
struct pl_svg_tpoint {
	double x;           /* place on the time axis, 0..1 */
	double y;           /* the value; drawn when n > 0 (NAN when n is 0) */
	double lo, hi;      /* its interval, drawn (and in the range) when ci */
	double level;       /* the fitted level here, drawn as a step line; NAN: none
	                       (the line runs on past this point) */
	int ci;             /* 1: lo..hi is drawn as a vertical line */
	size_t n;           /* runs the value is of; 0: no value (failed runs only) */
	size_t nfailed;     /* failed runs here: a red cross on the bottom edge */
	const char *label;  /* what the point is (a day, a build), first in its hover
	                       title (input text: escaped); NULL: "" */
	const char *commit; /* its first run's commit, last in its hover title, or
	                       NULL (escaped) */
};

/* The colour of a step: grey, green (accepted) or red (fails the gate). */
enum pl_svg_step_kind {
	PL_SVG_STEP_PLAIN,
	PL_SVG_STEP_ACCEPTED,
	PL_SVG_STEP_FAILING
};

/* A level shift between two points: a dashed vertical line, labelled on the
 * chart "LABEL at COMMIT" in the first of three rows at the top where it
 * overlaps no earlier step's label (right of the line, or left of it where
 * it would leave the plot; 6.6 px a byte, estimated). */
struct pl_svg_step {
	double x;                  /* place on the time axis, 0..1: between the points */
	const char *label;         /* the change, e.g. "+12.0% worse" (escaped) */
	const char *commit;        /* " at COMMIT" after the label, or NULL (escaped) */
	enum pl_svg_step_kind kind;
};

/* A labelled tick under the plot (a day). */
struct pl_svg_tick {
	double x;          /* place on the time axis, 0..1 */
	const char *label; /* the first anchored at its start, the last at its end,
	                      the others centred (escaped) */
};

/* A shaded band over part of the time axis: the prediction interval the
 * latest value was judged against, titled "prediction band of the window:
 * LO to HI". Drawn held inside the y range, when it is left of any height. */
struct pl_svg_band {
	int on;           /* 1: drawn */
	double x0, x1;    /* its span on the time axis, 0..1 */
	double lo, hi;    /* its span in value */
};

/* A metric over time, as pl_svg_sparkline and pl_svg_timeline draw it. The
 * caller owns every array and text; they are only read during the call. */
struct pl_svg_timeline {
	const char *name;   /* the metric: aria-label "NAME over time", y axis
	                       "NAME (UNIT)" (escaped) */
	const char *unit;   /* the unit of y, after values in hover titles (escaped) */
	const struct pl_svg_tpoint *points; /* npoints, in time order */
	size_t npoints;
	const struct pl_svg_step *steps;    /* nsteps, or NULL */
	size_t nsteps;
	const struct pl_svg_tick *ticks;    /* nticks, or NULL */
	size_t nticks;
	struct pl_svg_band band;
};

/* The sparkline of t into f: an inline <svg class="spark"> 120 x 28 px,
 * its values as a line of at most 60 points (more are thinned evenly, the
 * last always drawn), its failed runs as small red crosses at the bottom,
 * its steps as dashed lines. Reads points (x, y, n, nfailed, level: the
 * range) and steps (x, kind). Returns 0, or PL_EIO when f has an error. */
int pl_svg_sparkline(FILE *f, const struct pl_svg_timeline *t);

/* The chart of t into f, ending in a newline: an <svg class="chart"> with a
 * 720 x 260 viewBox, three y ticks (4 significant digits), the ticks, the
 * band, the steps, the intervals, the level, the values as a line and as
 * dots with hover titles "LABEL: VALUE UNIT, n N, commit COMMIT" (no
 * script), and failed runs as red crosses titled "N failed runs (no
 * request completed)" with "N failed" above them. Returns 0, or PL_EIO
 * when f has an error. */
int pl_svg_timeline(FILE *f, const struct pl_svg_timeline *t);

#endif
