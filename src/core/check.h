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

/* Verdict on one metric (see the file comment). */
enum pl_verdict {
	PL_V_REGRESSION,  /* significant, worse beyond the threshold: fails */
	PL_V_ACCEPTED,    /* a regression covered by an accepted step: does not fail */
	PL_V_IMPROVEMENT, /* significant, better beyond the threshold */
	PL_V_WITHIN,      /* significant, but within the threshold */
	PL_V_CHANGED,     /* significant, metric without a direction */
	PL_V_NO_CHANGE,   /* not significant at alpha */
	PL_V_TOO_FEW      /* not decidable with these samples */
};

/* Short name of a verdict: "regression", "accepted", "improvement",
 * "within threshold", "changed", "no change", "too few samples". */
const char *pl_verdict_name(enum pl_verdict v);

/* What to check. */
struct pl_check_opts {
	int axis;                     /* enum pl_cond_id of --axis */
	const char *baseline;         /* baseline value, normalized (pl_normalize_value) */
	const char *candidate;        /* candidate value, normalized */
	int metrics[PL_METRIC_COUNT]; /* metrics named, in order */
	size_t nmetrics;              /* 0 = the headline metrics both sides have */
	unsigned char allow_mismatch[PL_COND_COUNT]; /* as in compare */
	const char *allow_extra[PL_ALLOW_EXTRA_MAX]; /* as in compare; borrowed */
	size_t nallow_extra;
	unsigned char allow_errors;   /* as in compare (--allow-mismatch error_rate) */
	double threshold;             /* practical threshold, fraction >= 0 (0.05 = 5%) */
	double alpha;                 /* significance level, inside (0, 1) */
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
};

/* A check. Release with pl_check_release(). */
struct pl_check {
	int axis;                        /* enum pl_cond_id */
	char *baseline;                  /* baseline value text; owned */
	char *candidate;                 /* candidate value text; owned */
	double threshold;                /* fraction */
	double alpha;
	struct pl_comparison cmp;        /* the comparator's view of the union: shared
	                                    conditions, caveats, or the mismatches */
	long long *base_ids;             /* baseline run ids, ascending; owned */
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

/* Frees everything in chk. NULL is a no-op. */
void pl_check_release(struct pl_check *chk);

#endif
