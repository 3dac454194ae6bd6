/*
 * history.h — the history of one metric for one condition key, its level
 * shifts (steps), and the steps a user has accepted as expected.
 *
 * `perfledger history` selects runs, and the comparator's rules apply with
 * the --by field (run_started_at, engine_version or driver_version) as the
 * axis: every other key condition must have one value, or the history is
 * refused exactly like a comparison (PL_EMISMATCH, out->cmp.mismatches).
 * Runs with the same --by value form one point, ordered by time (ISO 8601
 * text) or natural version order (pl_version_cmp); each point is summarised
 * by pl_stats_summarize(): n, median and its 95% order-statistic interval.
 *
 * A failed run (pl_run_failed: no request completed) is no sample: it is
 * kept in its point's failed_ids, so a night where every request failed is
 * a point of failures rather than a gap, and it takes no part in medians or
 * step detection (which skip points without a median).
 *
 * Step detection runs over the point medians, one value per point, with
 * pl_stats_detect_steps() (penalised L1 piecewise-constant fit, exact, as
 * asv does; see stats.h for the method and its penalty). Why the medians and
 * not every run in order: a step can only be acted on at a change of the
 * --by value (a new version, a new night), so it must fall between points,
 * never inside one; the median of a point's repetitions is robust to one
 * bad run; and with --by run_started_at, where a point is usually one run,
 * both choices are the same. The price: fewer values, so a version series
 * needs at least 2 * PL_STATS_STEP_MIN_SEGMENT = 4 points before any step
 * can be found (out->detected says whether detection ran).
 *
 * A step is reported with the levels before and after it (medians of the
 * fitted segments), its relative change (after/before - 1, "worse" or
 * "better" by the metric's direction) and the first run after it: the
 * earliest run (by run_started_at, then id) of the first point after the
 * step. A step is accepted when an accepted step of the same metric names
 * one of the runs of that point.
 */
#ifndef PL_HISTORY_H
#define PL_HISTORY_H

#include <stddef.h>

#include "core/accepted.h"
#include "core/compare.h"
#include "core/error.h"
#include "core/model.h"
#include "core/stats.h"

/* ----------------------------------------------------------------- history */

/* Fields a history may be ordered by. */
int pl_history_by_valid(int cond);

/* One point of the series: the runs at one --by value that have the metric. */
struct pl_history_point {
	struct pl_value value;    /* the --by value (owned copy) */
	long long *run_ids;       /* its runs, earliest first (run_started_at, id); owned */
	size_t n;                 /* number of runs */
	struct pl_sample_summary s; /* n, median, min, max, 95% interval of the median
	                             (n 0, median NaN when every run here failed) */
	double level;             /* median of the fitted segment holding this point;
	                             NaN for a point of failed runs only */
	long long *failed_ids;    /* its failed runs (pl_run_failed), earliest first:
	                             drawn as failures, never in the median; owned */
	size_t nfailed;           /* entries in failed_ids */
};

/* One level shift between point index-1 and point index. */
struct pl_history_step {
	size_t index;          /* first point after the step (1..npoints-1) */
	double before;         /* level of the segment before */
	double after;          /* level of the segment after */
	double rel_change;     /* (after - before) / |before|; +-inf if before is 0 */
	int worse;             /* the change is in the metric's bad direction */
	int better;            /* the change is in the metric's good direction */
	long long first_run;   /* earliest run of point index */
	const struct pl_accepted_step *accepted; /* covering acceptance, or NULL;
	                          points into the list given to pl_history_build() */
};

/* A history. Release with pl_history_release(). */
struct pl_history {
	int by;                           /* enum pl_cond_id of --by */
	int metric;                       /* enum pl_metric_id */
	struct pl_comparison cmp;         /* the comparator's view: shared conditions,
	                                     caveats, or the mismatches of a refusal */
	struct pl_history_point *points;  /* ordered points; owned */
	size_t npoints;
	struct pl_history_step *steps;    /* steps in point order; owned */
	size_t nsteps;
	int detected;                     /* 1 if step detection ran (enough points) */
	double sigma;                     /* noise estimate of the medians (stats.h) */
	size_t nruns;                     /* runs in the points */
	size_t skipped_no_value;          /* runs left out: --by field missing */
	size_t skipped_no_metric;         /* runs left out: metric missing */
	size_t nfailed;                   /* failed runs, in their points' failed_ids */
	size_t nfailing;                  /* steps that fail --fail-on-step: not accepted,
	                                     and worse (any step for a metric without
	                                     direction) */
};

/*
 * Builds the history of metric over runs (as selected by the caller),
 * ordered by field `by`. allow (may be NULL) carries the exceptions named on
 * the command line — its allow_mismatch fields and allow_errors, as in
 * compare; its axis and metrics are ignored. accepted (may be NULL) marks accepted steps.
 * Returns 0; PL_EUSAGE if by or metric is not valid; PL_EEMPTY if no run has
 * both the by value and the metric; PL_EMISMATCH if conditions differ off
 * the --by field (out->cmp.mismatches lists them); PL_ENOMEM. On any return
 * release *out with pl_history_release().
 */
int pl_history_build(const struct pl_run_list *runs, int by, int metric,
                     const struct pl_compare_opts *allow, const struct pl_accepted_list *accepted,
                     struct pl_history *out, struct pl_error *err);

/* Frees everything in h. NULL is a no-op. */
void pl_history_release(struct pl_history *h);

#endif
