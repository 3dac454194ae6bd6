/*
 * history_plot.h — the chart of a history through gnuplot.
 *
 * Writes DIR/history.dat and DIR/history.gp and runs gnuplot on them to get
 * DIR/history.svg and DIR/history.png. The chart shows the median of each
 * point with its 95% interval as an error bar (a point with fewer than 6
 * runs has no interval: a bar of zero length), the fitted level as a step
 * line, and each step as a dashed vertical line between its two points with
 * a label: red "step +12.0% worse" when it is not accepted, green
 * "accepted: REASON" when it is; a latest point that is a regression against
 * the points before it (pl_history.latest_verdict) is ringed in red. Every
 * input text (the --by values used as
 * tick labels, the reasons) lives only in history.dat, as gnuplot data
 * strings read with xtic() / `with labels` under noenhanced terminals; the
 * .gp holds only our own words and numbers. Both files are kept.
 */
#ifndef PL_HISTORY_PLOT_H
#define PL_HISTORY_PLOT_H

#include "core/error.h"
#include "core/history.h"

/* Base name of the history chart files: history.gp/.dat/.svg/.png. */
#define PL_HISTORY_CHART "history"

/* Writes the chart of h into dir (which must exist) and renders it with
 * gnuplot (`gnuplot` on PATH, or $PERFLEDGER_GNUPLOT). Returns 0; PL_EIO if
 * a file cannot be written; PL_ETOOL if gnuplot is missing or fails (the
 * .gp and .dat are written all the same); PL_EEMPTY if h has no point. */
int pl_plot_history(const char *dir, const struct pl_history *h, struct pl_error *err);

#endif
