/*
 * site.h — `perfledger site`: a static, offline web site of every series
 * (condition key) and metric, as `asv publish` makes one.
 *
 * The site is one flat directory (so it is replaced atomically like a
 * report bundle, by pl_bundle_publish: rendered into a sibling temporary
 * directory, swapped in whole, and an existing DIR is replaced only when it
 * is an earlier perfledger output):
 *   index.html     every series and metric: a sparkline (inline SVG) of the
 *                  point medians, the latest point, the verdict, the steps
 *                  and the reasons of accepted steps; filterable by text and
 *                  by verdict with a little inline script (no network, no
 *                  CDN). Loaded as index.html#q=TEXT the filter starts with
 *                  TEXT.
 *   index.json     the same rows as data; index.csv likewise
 *   s-HASH.html    a page per series (HASH = 16 hex digits of the condition
 *                  key's hash, stable while the key is): its conditions, a
 *                  chart per metric (inline SVG: each point's median with its
 *                  95% interval, the fitted level, the steps), the points
 *                  table, the steps, and its runs with their sources
 *   s-HASH.json    the series: conditions, the `history --format json` of each
 *                  metric, the runs; s-HASH.csv the points of every metric
 *   manifest.json  the sha256 of every file (as a bundle's manifest)
 * Every link is relative, so the site works from file:// and any static
 * host. Every input string is escaped for its place (HTML, JSON, CSV); no
 * input text ever reaches the script. Nothing depends on the clock but the
 * "generated" line, which is SOURCE_DATE_EPOCH when set: the same database
 * gives the same bytes.
 *
 * A series is the runs of one condition key (all conditions but
 * run_started_at), ordered by run_started_at: its history per metric is
 * pl_history_build() by run_started_at (one point per run_started_at
 * value; steps as `history` finds them, accepted steps marked). The x axis
 * of the charts is proportional to time. Verdicts of a series and metric:
 *   failed          the last point has failed runs (pl_run_failed): drawn
 *                   as a red cross, as every failed run is; the latest value
 *                   is then the last point with a median
 *   regression      a failing step (step.fails), or the latest point a
 *                   regression — `history --fail-on-step` would exit 1
 *   accepted        the latest step is accepted
 *   improvement     the latest step is better
 *   stable          steps were searched and none fails
 *   too few points  fewer than 4 points: no step search
 */
#ifndef PL_SITE_H
#define PL_SITE_H

#include <stddef.h>

#include "core/accepted.h"
#include "core/error.h"
#include "core/gate_night.h"
#include "core/model.h"

/* The metrics a site shows when none are named: ttft_p50, tpot_p50,
 * output_throughput. *count receives the number. */
const int *pl_site_default_metrics(size_t *count);


/* What to render. */
struct pl_site_opts {
	const int *metrics;        /* metrics to show, in order; borrowed */
	size_t nmetrics;           /* 0: pl_site_default_metrics() */
	const struct pl_accepted_list *accepted; /* accepted steps (may be NULL); borrowed */
	long long epoch;           /* SOURCE_DATE_EPOCH (or now): the "generated" time */
	const char *tool_version;  /* perfledger version, for the footer and manifest */
	const char *selection;     /* the --where filters as text ("" for all); input text */
	int group;                 /* enum pl_group of the points: PL_G_RUN (0, every
	                              run_started_at a point), PL_G_DAY, PL_G_BUILD or
	                              PL_G_COMMIT, as history --group-by */
	const struct pl_gate_night *night; /* the latest night of every selected series
	                              decided together, as `check` without --where
	                              decides it (families pooled, Holm over all
	                              checks; pl_history_gate_night); borrowed. NULL:
	                              each series is gated alone (pl_history_gate) */
};

/* Adds one series to a site being rendered: runs are the runs of one
 * condition key (as pl_store_each_set() gives them). site is the opaque
 * render state handed to the walk. Returns 0 or a PL_E* code with err set. */
typedef int (*pl_site_add_fn)(void *site, struct pl_run_list *runs, struct pl_error *err);

/* Supplies every series: calls add(site, runs, err) once per condition key
 * and returns 0 or the first non-zero code. ctx is the caller's. The site
 * walks twice (the labels first, then the pages): each walk must give the
 * same series. */
typedef int (*pl_site_walk_fn)(void *ctx, pl_site_add_fn add, void *site, struct pl_error *err);

/* Renders the site into dir (see the file comment), replacing an earlier
 * perfledger output there atomically; walk(ctx, ...) supplies the series.
 * Returns 0; PL_EEMPTY when no series has a dated run with any of the
 * metrics (nothing is written then); PL_EIO / PL_ENOMEM, a refusal of dir
 * (not perfledger's), or walk's code; err set. */
int pl_site_write(const char *dir, const struct pl_site_opts *opts, pl_site_walk_fn walk,
                  void *ctx, struct pl_error *err);

#endif
