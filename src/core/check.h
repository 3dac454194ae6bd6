/*
 * check.h — the CI gate: did the candidate regress against the baseline
 * beyond noise?
 *
 * `perfledger check --axis FIELD --baseline A --candidate B` takes, from the
 * selected runs, those whose FIELD is A (the baseline samples) or B (the
 * candidate samples). The comparator decides whether they may be compared:
 * pl_compare_build() runs on the union with FIELD as the axis, so mismatched
 * conditions off the axis are refused exactly as `compare` refuses them
 * (PL_EMISMATCH; out->cmp.mismatches lists every field).
 *
 * Per metric, each side is summarised (pl_stats_summarize: n, median, 95%
 * order-statistic interval of the median) and the two are compared with
 * pl_stats_compare(): relative change of the medians, two-sided
 * Mann-Whitney U test at alpha, and the practical threshold. Verdicts:
 *   regression   significant and worse by more than the threshold
 *   accepted     a regression of a metric for which an accepted step names
 *                one of the candidate's runs (`perfledger accept`)
 *   improvement  significant and better by more than the threshold
 *   within       significant but not beyond the threshold (either way)
 *   changed      significant change of a metric that has no direction
 *   no change    not significant
 *   too few      not decidable: the smallest p the test can give with these
 *                n is above alpha (pl_stats_mann_whitney_min_p), or a side
 *                has no value of the metric
 * Failed runs (pl_run_failed: no request completed) are never samples: a
 * failed baseline run is left out (n_base_failed), a failed candidate run
 * fails the gate on its own (failed_ids), whatever the metrics say; when
 * every candidate run failed no metric is tested (nm 0).
 * The exit status the CLI derives: 1 if any regression or failed candidate
 * run, else 5 if no metric was decidable, else 0.
 *
 * When the U test cannot decide with these n (a nightly candidate of one or
 * two runs), and the baseline has at least PL_STATS_PREDICTION_MIN values,
 * the candidate's median is judged against the t prediction interval of the
 * baseline values instead (pl_stats_compare_prediction; change.method says
 * which test decided).
 *
 * Series checks (issue 14): with opts->series the selected runs form a
 * series of points as in history (pl_history_build_grouped, per metric; the
 * comparator's rules with the group's axis). The candidate is the point
 * whose label is opts->candidate, or the last point (candidate_latest). The
 * baseline is
 *   VALUES    the runs of the points with those labels, pooled (U test as
 *             above, with the prediction fallback);
 *   PREVIOUS  the runs of the point just before the candidate (same test);
 *   WINDOW    the medians of the N points before the candidate (not past
 *             the latest accepted step before it, pl_history_window_floor):
 *             the candidate point's median against their robust prediction
 *             interval (median +- t 1.4826 MAD, pl_stats_compare_window in
 *             stats.h), so one new night is judged against the distribution
 *             of the last N nights and one outlier night among them does
 *             not widen it.
 * Accepted steps forgive a regression as above (the acceptance names one of
 * the candidate point's runs). Failed runs of the candidate point fail the
 * gate as in the classic check (failed_ids; a point of failed runs only
 * tests no metric); points of failed runs only are never a baseline point:
 * previous is the nearest earlier point with a median, window:N the N
 * nearest such points.
 */
#ifndef PL_CHECK_H
#define PL_CHECK_H

#include <stddef.h>

#include "core/compare.h"
#include "core/error.h"
#include "core/history.h"
#include "core/model.h"
#include "core/stats.h"

/* Significance level of the U test. */
#define PL_CHECK_ALPHA 0.05
/* Default practical threshold, as a fraction (5%). */
#define PL_CHECK_THRESHOLD_DEFAULT 0.05
/* Confidence level of the interval of each median. */
#define PL_CHECK_CI_LEVEL 0.95

/* What the baseline is (--baseline). */
enum pl_baseline_kind {
	PL_BASELINE_VALUES,   /* VALUE[,VALUE...]: the runs at these values, pooled */
	PL_BASELINE_PREVIOUS, /* "previous": the runs of the point before the candidate */
	PL_BASELINE_WINDOW    /* "window:N": the medians of the N points before it */
};

/* Most values --baseline VALUE,VALUE... may list. */
#define PL_CHECK_VALUES_MAX 32

/* What to check. */
struct pl_check_opts {
	int axis;                     /* enum pl_cond_id of --axis (classic check) */
	const char *baseline;         /* baseline value, normalized (pl_normalize_value);
	                                 with nbaselines > 0 it is ignored */
	const char *candidate;        /* candidate value, normalized; NULL with
	                                 candidate_latest */
	int baseline_kind;            /* enum pl_baseline_kind */
	const char *baselines[PL_CHECK_VALUES_MAX]; /* PL_BASELINE_VALUES: the values,
	                                 normalized; borrowed */
	size_t nbaselines;            /* 0: baseline is the one value */
	size_t window;                /* PL_BASELINE_WINDOW: N >= 1 points */
	int candidate_latest;         /* 1: the candidate is the series' last point */
	int series;                   /* 0: the classic check, runs split by their --axis
	                                 value; 1: a series check (see the file comment) */
	int group;                    /* series: enum pl_group of the points */
	int metrics[PL_METRIC_COUNT]; /* metrics named, in order */
	size_t nmetrics;              /* 0 = the headline metrics both sides have */
	unsigned char allow_mismatch[PL_COND_COUNT]; /* as in compare */
	const char *allow_extra[PL_ALLOW_EXTRA_MAX]; /* as in compare; borrowed */
	size_t nallow_extra;
	unsigned char allow_errors;   /* as in compare (--allow-mismatch error_rate) */
	double threshold;             /* practical threshold, fraction >= 0 (0.05 = 5%) */
	double alpha;                 /* significance level, inside (0, 1) */
	unsigned char seek_subsets;   /* 1: a refusal also names the subsets that
	                                 would be checked (pl_compare_subsets: each
	                                 holds both sides, or 2 points of a
	                                 series) */
};

/* The outcome for one metric. */
struct pl_check_metric {
	int metric;                      /* enum pl_metric_id */
	struct pl_sample_summary base;   /* baseline summary (n = 0 if it has no value) */
	struct pl_sample_summary cand;   /* candidate summary (n = 0 if it has no value) */
	struct pl_change change;         /* valid when both n > 0 */
	double min_p;                    /* smallest attainable p with these n */
	enum pl_verdict verdict;
	const struct pl_accepted_step *accepted; /* for PL_V_ACCEPTED: the acceptance
	                                    (points into the caller's list) */
	size_t base_points;              /* series checks: points in the baseline */
	size_t cand_point;               /* series checks: index of the candidate point in
	                                    this metric's series */
};

/* A check. Release with pl_check_release(). */
struct pl_check {
	int axis;                        /* enum pl_cond_id */
	char *baseline;                  /* baseline text as given ("0.9.0,0.9.1",
	                                    "previous", "window:20"); owned */
	char *candidate;                 /* candidate value text; with candidate_latest the
	                                    latest point's label (its --group-by value) of
	                                    the first metric; owned */
	int baseline_kind;               /* enum pl_baseline_kind */
	size_t window;                   /* PL_BASELINE_WINDOW: N */
	int series;                      /* as in the options */
	int group;                       /* series: enum pl_group */
	double threshold;                /* fraction */
	double alpha;
	struct pl_comparison cmp;        /* the comparator's view of the union: shared
	                                    conditions, caveats, or the mismatches */
	long long *base_ids;             /* baseline run ids, ascending (series checks: of
	                                    the first metric checked); owned */
	size_t n_base;
	long long *cand_ids;             /* candidate run ids, ascending; owned */
	size_t n_cand;
	struct pl_check_metric *m;       /* one per metric checked, in order; owned */
	size_t nm;
	size_t nregressions;             /* PL_V_REGRESSION */
	size_t naccepted;                /* PL_V_ACCEPTED */
	size_t nimprovements;            /* PL_V_IMPROVEMENT */
	size_t ndecidable;               /* metrics that are not PL_V_TOO_FEW */
	long long *failed_ids;           /* the candidate's failed runs (pl_run_failed),
	                                    ascending; each fails the gate; owned */
	size_t n_failed;                 /* entries in failed_ids */
	size_t failed_ids_cap;           /* allocated entries of failed_ids
	                                    (PL_ALLOC_GROW) */
	size_t n_base_failed;            /* baseline runs left out as failed */
};

/*
 * Checks the candidate against the baseline over runs (as selected by the
 * caller; runs of other axis values are ignored). accepted may be NULL.
 * Returns 0; PL_EUSAGE for bad options (axis, alpha, threshold, baseline
 * equal to candidate); PL_EEMPTY when the baseline or the candidate has no
 * run (the message names the side and lists the values the selection has),
 * or every baseline run failed;
 * PL_EMISMATCH when conditions differ off the axis; PL_ENOMEM. On any
 * return release *out with pl_check_release().
 */
int pl_check_build(const struct pl_run_list *runs, const struct pl_check_opts *opts,
                   const struct pl_accepted_list *accepted, struct pl_check *out,
                   struct pl_error *err);

/* What pl_check_run_starts_change() found. */
enum pl_change_kind {
	PL_CHANGE_NONE,       /* the run starts no step and no regression */
	PL_CHANGE_STEP,       /* its point is the first after a detected step */
	PL_CHANGE_WINDOW,     /* its point is a regression against the window of
	                         PL_HISTORY_WINDOW_DEFAULT points before it */
	PL_CHANGE_PREVIOUS    /* its point is a regression against the point before it */
};

/*
 * Does run run_id start a change of metric that `accept` may accept? Builds
 * the series of runs grouped by group (pl_history_build_grouped, the
 * comparator's rules with allow, may be NULL) and looks at the point
 * holding run_id: the first point after a detected step (either direction),
 * or a point that is a regression (not accepted ones: accepted is not
 * consulted) against the PL_HISTORY_WINDOW_DEFAULT points before it, or
 * against the point just before it (PL_CHECK_ALPHA, threshold). *kind gets
 * the first that holds, in that order, else PL_CHANGE_NONE; *point the
 * index of the run's point.
 * Returns 0; PL_EEMPTY if run_id is not in the series (no such run, or it
 * lacks the metric or the group's value); the codes of
 * pl_history_build_grouped() (PL_EMISMATCH: not one condition key).
 */
int pl_check_run_starts_change(const struct pl_run_list *runs, int group, int metric,
                               const struct pl_compare_opts *allow, double threshold,
                               long long run_id, enum pl_change_kind *kind, size_t *point,
                               struct pl_error *err);

/* Frees everything in chk. NULL is a no-op. */
void pl_check_release(struct pl_check *chk);

#endif
