/*
 * plot.h — charts through gnuplot.
 *
 * For a comparison, writes one bar chart per headline metric family present
 * (TTFT, TPOT/ITL, output throughput): NAME.dat (tab-separated data, labels
 * quoted), NAME.gp (a gnuplot script that reads NAME.dat and writes NAME.svg
 * and NAME.png), then runs `gnuplot NAME.gp` in DIR from an argv vector
 * (fork/execv, never a shell). Labels from input files are inert: they live
 * only in the .dat file (read with `using ... xtic(1)` under `set noenhanced`
 * ... and never in the script text), with control characters replaced.
 * Titles name only the metrics drawn; tick labels turn further (-20, -45,
 * -90 degrees) as rows get more, so their slots stay wide enough.
 * The .gp and .dat files are always kept so a reader can re-plot.
 */
#ifndef PL_PLOT_H
#define PL_PLOT_H

#include <stddef.h>

#include "core/compare.h"
#include "core/error.h"

/* One chart written. */
struct pl_chart {
	char name[64];   /* base name, e.g. "ttft" (files NAME.gp/.dat/.svg/.png) */
	char title[128]; /* human title, e.g. "TTFT p50 / p95 (s)" */
	int rendered;    /* 1 if gnuplot produced the .svg and .png */
};

/* Writes the charts of cmp into dir (which must exist) and renders them with
 * gnuplot (the program `gnuplot` on PATH, or $PERFLEDGER_GNUPLOT).
 * charts/ncharts (may be NULL) receive what was written (caller frees
 * *charts with free()). Returns 0; PL_EIO if a file cannot be written;
 * PL_ETOOL if gnuplot is missing ("gnuplot not found; install it with
 * 'apt-get install gnuplot-nox'") or fails — the .gp/.dat files are then
 * still written and *charts is still filled. */
int pl_plot_comparison(const char *dir, const struct pl_comparison *cmp, struct pl_chart **charts,
                       size_t *ncharts, struct pl_error *err);

/* pl_plot_comparison with the chart titles and y axis labels in lang
 * ("en" or "zh-CN"; anything else is "en"). */
int pl_plot_comparison_lang(const char *dir, const struct pl_comparison *cmp, const char *lang,
                            struct pl_chart **charts, size_t *ncharts, struct pl_error *err);

/* The first line of `gnuplot --version` (the program as above), e.g.
 * "gnuplot 5.4 patchlevel 4", run from an argv vector, into buf (size n;
 * control and non-ASCII bytes replaced by '?'). Returns 0, or -1 (buf
 * empty) when gnuplot is missing or fails. Bundles record it in their
 * manifest: gnuplot writes its version into the SVG it draws, and
 * another version may draw other bytes. */
int pl_plot_gnuplot_version(char *buf, size_t n);

#endif
