/*
 * stats.h — the statistics of regression tracking: medians with a
 * distribution-free confidence interval, the Mann-Whitney U test, the
 * comparison of two sample sets of one metric, and step detection over a
 * history series.
 *
 * Repeated runs of one condition key are samples of a metric (DESIGN.md,
 * issue 4). `check` summarises each side with pl_stats_summarize(), decides
 * with pl_stats_compare(), and `history` marks level shifts found by
 * pl_stats_detect_steps(). The module is pure: no I/O, no globals, no
 * printing; inputs are plain arrays of doubles in the metric's canonical unit
 * and every output is in that same unit unless said otherwise. GSL is used
 * here and nowhere else (binomial and normal distribution functions).
 *
 * Non-finite inputs (NaN, +-inf) are rejected with PL_EINVALID: a metric in
 * the store is always a finite number, so a non-finite sample is a bug
 * upstream and must not turn into a silently wrong verdict.
 */
#ifndef PL_STATS_H
#define PL_STATS_H

#include <stddef.h>

#include "core/error.h"
#include "core/model.h"

/* ------------------------------------------------------ median and interval */

/* Median of v[0..n) (no NaN; n >= 1). Reorders v: linear-time selection,
 * not a sort. For even n the midpoint of the two middle values is rounded to
 * 15 significant digits (DBL_DIG), so that the median of decimal inputs
 * prints as a decimal; pl_stats_summarize() and pl_stats_compare() use the
 * same rule, so compare, check and history agree on every median. */
double pl_median(double *v, size_t n);

/* Summary of one sample set. All values are in the unit of the input. */
struct pl_sample_summary {
	size_t n;        /* number of samples */
	double median;   /* sample median; mean of the two middle values if n is even */
	double min;      /* smallest sample */
	double max;      /* largest sample */
	double ci_low;   /* lower end of the median interval: order statistic x_(j) */
	double ci_high;  /* upper end of the median interval: order statistic x_(n+1-j) */
	double ci_level; /* achieved coverage of [ci_low, ci_high], 0..1 (see below) */
	int ci_valid;    /* 1 if ci_level >= the requested level; 0 if n is too small */
};

/*
 * Summarises the n samples v[0..n-1] (any order; v is not modified):
 * n, median, min, max and a confidence interval of the population median at
 * the requested confidence level (0 < level < 1, e.g. 0.95).
 *
 * The interval is the classic distribution-free one built from order
 * statistics (Conover, Practical Nonparametric Statistics, 3rd ed. 1999,
 * sec. 3.2 "confidence interval for a quantile"; Lehmann, Nonparametrics,
 * 1975, pp. 182-183), which is what benchstat reports for a median
 * (golang.org/x/perf/benchmath, AssumeNothing.Summary ->
 * github.com/aclements/go-moremath stats.QuantileCI). With the samples
 * sorted as x_(1) <= ... <= x_(n) and B ~ Binomial(n, 1/2) the number of
 * samples below the population median,
 *
 *     P(x_(j) <= median < x_(k)) = P(j <= B < k) = P(j <= B <= k - 1).
 *
 * Convention: the interval is symmetric, k = n + 1 - j, so its coverage is
 *
 *     coverage(j) = P(j <= B <= n - j) = 1 - 2 * P(B <= j - 1),
 *
 * computed with gsl_cdf_binomial_P. Coverage falls as j grows; we take the
 * largest j >= 1 (the narrowest interval) whose coverage is still >= level.
 * Example n = 10, level 0.95: j = 2, [x_(2), x_(9)], coverage 1 - 2*11/1024
 * = 0.978515625 (j = 3 would give 1 - 2*56/1024 = 0.890625 < 0.95).
 * Unlike go-moremath we use the exact binomial at every n (it switches to a
 * normal approximation above n = 30).
 *
 * When even j = 1 ([min, max], coverage 1 - 2^(1-n)) falls short of level
 * (n < 6 at 95%), ci_valid is 0, ci_low/ci_high are min/max and ci_level is
 * the coverage [min, max] does achieve (0 for n = 1). benchstat prints +-inf
 * there; we keep finite numbers and let the caller say "too few samples".
 *
 * Returns 0; PL_EEMPTY if n == 0; PL_EUSAGE if v or out is NULL or level is
 * not inside (0, 1); PL_EINVALID if a sample is not finite; PL_ENOMEM.
 * out is filled only on success. Allocates a temporary copy of v.
 */
int pl_stats_summarize(const double *v, size_t n, double level,
                       struct pl_sample_summary *out, struct pl_error *err);

/*
 * The distribution-free confidence interval of a quantile from order
 * statistics (Conover 1999, sec. 3.2; the median interval above is its
 * q = 1/2 case): the ranks l, u (1-based) of the interval [x_(l), x_(u)]
 * of the q-quantile (0 < q < 1) of n values at the given level
 * (0 < level < 1), with equal tails. With B ~ Binomial(n, q) the number
 * of values below the population q-quantile and a = (1 - level) / 2:
 *
 *     l = the largest j in 1..n with  P(B <= j - 1) <= a
 *         (the interval starts above the quantile with probability <= a),
 *     u = the smallest j in 1..n with P(B >= j) <= a
 *         (it ends below the quantile with probability <= a),
 *
 * so the coverage P(l <= B <= u - 1) = 1 - P(B <= l - 1) - P(B >= u) is at
 * least level for any continuous distribution (with ties, at least as
 * much). Both probabilities are GSL's binomial CDF (gsl_cdf_binomial_P
 * and _Q), each rank found by bisection (O(log n) evaluations).
 * Example n = 20, q = 0.5, level 0.95: P(B <= 5) = 21700 / 2^20 =
 * 0.0206947 <= 0.025 < P(B <= 6) = 0.0576591, so l = 6, u = 15, coverage
 * 1 - 2 * 0.0206947 = 0.958611.
 * Returns 1 with *l, *u and *coverage set, or 0 when no such interval
 * exists: (1 - q)^n > a (no l: even x_(1) starts above the quantile too
 * often) or q^n > a (no u); at 95% that is n < 6 for the median, n < 36
 * for p90, n < 72 for p95, n < 368 for p99 and n < 3688 for p99.9. Also
 * 0 for n > UINT_MAX (GSL's n) or q, level outside (0, 1). Pure; no
 * allocation.
 */
int pl_stats_quantile_ci_ranks(size_t n, double q, double level, size_t *l, size_t *u,
                               double *coverage);

/* ----------------------------------------------------------- Mann-Whitney */

/* Largest per-side sample size for which pl_stats_mann_whitney() computes an
 * exact p-value (when there are no ties). */
#define PL_STATS_MW_EXACT_MAX 50

/*
 * Two-sided Mann-Whitney U test (Wilcoxon rank-sum test) of samples
 * a[0..na-1] and b[0..nb-1], H0: both come from the same distribution.
 *
 * *u receives U_a = R_a - na(na+1)/2, where R_a is the sum of the ranks of a
 * in the pooled sample (tied values get the mean of their ranks); equivalently
 * the number of pairs (i, j) with a[i] > b[j] plus half the pairs with
 * a[i] == b[j]. This is the statistic scipy.stats.mannwhitneyu reports for
 * its first argument. 0 <= U_a <= na*nb; U_b = na*nb - U_a.
 *
 * *p receives the two-sided p-value (0 < p <= 1):
 *  - exact, when there are no ties and na, nb <= PL_STATS_MW_EXACT_MAX:
 *    p = min(1, 2 * P(U <= min(U_a, U_b))) under H0, where the null
 *    distribution of U is enumerated by the recurrence of Mann & Whitney
 *    (1947, Ann. Math. Stat. 18:50-60, eq. 2.1) in probabilities,
 *        P_{m,n}(u) = m/(m+n) P_{m-1,n}(u-n) + n/(m+n) P_{m,n-1}(u),
 *    (the largest pooled value is from a with chance m/(m+n) and then beats
 *    all n of b). Same as scipy's method="exact" and go-moremath's
 *    MannWhitneyUTest.
 *  - otherwise the normal approximation with tie and continuity correction
 *    (Conover 1999, sec. 5.1; scipy.stats.mannwhitneyu method="asymptotic"):
 *        mu    = na nb / 2
 *        var   = na nb / 12 * ((N + 1) - sum_t (t^3 - t) / (N (N - 1)))
 *        z     = (|U_a - mu| - 1/2) / sqrt(var),   N = na + nb,
 *        p     = min(1, 2 * Q(z))   (Q = upper normal tail, gsl_cdf_ugaussian_Q),
 *    where t runs over the sizes of the groups of tied values. If var == 0
 *    (every value equal) p = 1.
 * u or p may be NULL when not wanted.
 *
 * Returns 0; PL_EEMPTY if na or nb is 0; PL_EUSAGE if a or b is NULL;
 * PL_EINVALID if a value is not finite; PL_ENOMEM.
 */
int pl_stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
                          double *u, double *p, struct pl_error *err);

/*
 * The smallest two-sided p-value the Mann-Whitney test can give with samples
 * of na and nb: both extreme orderings have probability 1/C(na+nb, na) each,
 * so min p = min(1, 2 / C(na+nb, na)). Examples: 3 and 3 -> 0.1; 4 and 4 ->
 * 2/70 = 0.0285714; 2 and 2 -> 1/3 (cf. the uTestMinP table of benchstat,
 * golang.org/x/perf/benchmath/anone.go). Returns 1 if na or nb is 0. When it
 * exceeds alpha no outcome can be significant: "too few samples to decide".
 * (With ties the normal approximation is used and its p can fall a little
 * below this bound; deciding with this bound stays on the safe side.)
 */
double pl_stats_mann_whitney_min_p(size_t na, size_t nb);

/* ------------------------------------------------ comparing two sample sets */

/* How a pl_change was decided. */
enum pl_test_method {
	PL_TEST_MANN_WHITNEY = 0, /* pl_stats_compare(): U test of two sample sets */
	PL_TEST_PREDICTION,       /* pl_stats_compare_prediction(): the new value
	                             against the t prediction interval of the old ones */
	PL_TEST_WINDOW            /* pl_stats_compare_window(): the same interval
	                             around the median with a MAD-scaled spread */
};

/* Verdict on one metric: old (baseline) samples against new (candidate). */
struct pl_change {
	double old_median;  /* median of the old samples */
	double new_median;  /* median of the new samples */
	double rel_change;  /* new/old - 1, i.e. (new - old) / |old|; see pl_stats_compare() */
	double p_value;     /* two-sided Mann-Whitney p-value, old vs new */
	int significant;    /* decidable && p_value < alpha */
	int worse;          /* significant and changed in the bad direction by more than threshold */
	int better;         /* significant and changed in the good direction by more than threshold */
	int decidable;      /* pl_stats_mann_whitney_min_p(n_old, n_new) <= alpha */
	size_t n_old;       /* number of old samples */
	size_t n_new;       /* number of new samples */
	int method;         /* enum pl_test_method */
	double old_mean;    /* PL_TEST_PREDICTION: mean of the old values */
	double old_sd;      /* PL_TEST_PREDICTION: their standard deviation (n - 1) */
	double bound_low;   /* PL_TEST_PREDICTION: the (1 - alpha) prediction */
	double bound_high;  /*   interval of one new value; outside = significant */
	double old_center;  /* PL_TEST_WINDOW: the interval's centre (median of old) */
	double old_scale;   /* PL_TEST_WINDOW: its robust sigma (1.4826 MAD) */
};

/*
 * Compares the old and new samples of one metric whose direction is dir
 * (from pl_metric_info[].direction).
 *
 *   rel_change  = (new_median - old_median) / |old_median|, which is
 *                 new/old - 1 for the usual positive metrics. If old_median
 *                 is 0: 0 when new_median is 0 too, else +-INFINITY with the
 *                 sign of new_median (0 errors -> some errors is worse by any
 *                 relative threshold). Callers that print it must handle inf.
 *   p_value     = pl_stats_mann_whitney(old, new_) p.
 *   decidable   = pl_stats_mann_whitney_min_p(n_old, n_new) <= alpha.
 *   significant = decidable && p_value < alpha.
 *   PL_LOWER_IS_BETTER:  worse = significant && rel_change >  threshold,
 *                        better = significant && rel_change < -threshold.
 *   PL_HIGHER_IS_BETTER: worse = significant && rel_change < -threshold,
 *                        better = significant && rel_change >  threshold.
 *   PL_NO_DIRECTION:     worse = better = 0 (significant is still set).
 *
 * This is benchstat's decision rule (a U test on the samples, the change
 * reported as the ratio of medians) plus a practical-significance threshold
 * as a fraction (0.05 = 5%), so a real but negligible shift does not fail CI.
 * alpha must be inside (0, 1), threshold finite and >= 0.
 *
 * Returns 0; PL_EEMPTY if n_old or n_new is 0; PL_EUSAGE for NULL pointers
 * or a bad alpha, threshold or dir; PL_EINVALID if a sample is not finite;
 * PL_ENOMEM. out is filled only on success.
 */
int pl_stats_compare(const double *old, size_t n_old, const double *new_, size_t n_new,
                     enum pl_direction dir, double alpha, double threshold,
                     struct pl_change *out, struct pl_error *err);

/* Fewest old values pl_stats_compare_prediction() decides with. */
#define PL_STATS_PREDICTION_MIN 3

/*
 * Judges one new value against the distribution of the old ones, the way a
 * nightly series is gated: old[0..n_old) are the baseline values (for a
 * window, the medians of the last N points of the series), and the new value
 * x is the median of new_[0..n_new) (usually one point's median, or one
 * run's value).
 *
 * Method: the two-sided (1 - alpha) prediction interval of one further
 * observation from a normal sample (Hahn & Meeker, Statistical Intervals,
 * 1991, sec. 4.4; Geisser 1993):
 *
 *     mean +- t_{1-alpha/2, n-1} * s * sqrt(1 + 1/n),
 *
 * with mean and s (n - 1 denominator) of old, t the Student t quantile
 * (gsl_cdf_tdist_Qinv); p_value = 2 * Q_t(|x - mean| / (s sqrt(1 + 1/n)),
 * n - 1) (gsl_cdf_tdist_Q). This is Conbench's "lookback z-score" (z =
 * (x - mean) / s over a lookback window of earlier results of the same
 * benchmark) and Bencher's t_test threshold (a boundary taken as a percentile
 * of Student's t over the last N metrics of the branch and testbed: see
 * https://bencher.dev/docs/explanation/thresholds/), with the boundary set
 * from alpha and the sqrt(1 + 1/n) factor that makes the false-alarm rate
 * exactly alpha (alpha / 2 each way) for independent normal values whatever
 * n is, instead of a fixed z. If s is 0 (every old value equal; s and
 * |x - mean| below 1e-12 of the mean count as 0, the rounding left by
 * summing equal values), p is 1 when x equals them and 0 otherwise.
 *
 * out: old_median = median of old (the reference of rel_change, as in
 * pl_stats_compare), new_median = x, old_mean, old_sd, bound_low,
 * bound_high, p_value; decidable = n_old >= PL_STATS_PREDICTION_MIN;
 * significant = decidable && p_value < alpha (x outside the bounds);
 * worse / better as pl_stats_compare with the same threshold; method =
 * PL_TEST_PREDICTION.
 *
 * Returns 0; PL_EEMPTY if n_old or n_new is 0; PL_EUSAGE for NULL pointers
 * or a bad alpha, threshold or dir; PL_EINVALID if a value is not finite;
 * PL_ENOMEM. out is filled only on success.
 */
int pl_stats_compare_prediction(const double *old, size_t n_old, const double *new_,
                                size_t n_new, enum pl_direction dir, double alpha,
                                double threshold, struct pl_change *out, struct pl_error *err);

/*
 * As pl_stats_compare_prediction(), robust to outliers among the old values:
 * the gate of a nightly window (check --baseline window:N, history's latest
 * point), where one outlier night in the window must not widen the interval
 * until a real regression passes (a +25% night among 20 at 2% noise made s
 * three times sigma).
 *
 * Method: a robust control chart's limits (Rousseeuw & Croux 1993, JASA
 * 88:1273; NIST/SEMATECH e-Handbook 1.3.5.17, "median absolute deviation"):
 *
 *     centre = median(old),  sigma_r = 1.4826 * MAD(old),
 *     MAD = median |old_i - centre|   (1.4826 = 1 / Phi^-1(3/4)),
 *     centre +- t_{1-alpha/2, n-1} * sigma_r * sqrt(1 + pi / (2 n)),
 *
 * (pi / (2 n) is the large-sample variance of a normal sample's median in
 * sigma^2 units, as 1/n is the mean's). When the MAD is 0 (more than half of
 * the old values equal) sigma_r = sqrt(pi/2) * mean |old_i - centre|, and if
 * that is 0 too, p is 1 when x equals them and 0 otherwise (1e-12 of the
 * centre counts as 0). p_value = 2 * Q_t(|x - centre| / scale, n - 1).
 * Measured on 1000 seeded 21-night series at 2% noise (test_nightly): the
 * false-alarm and detection figures are pinned there and in docs/regression.md.
 *
 * out: as pl_stats_compare_prediction (old_mean and old_sd still the mean
 * and s of old), plus old_center, old_scale; method = PL_TEST_WINDOW.
 * Returns as pl_stats_compare_prediction.
 */
int pl_stats_compare_window(const double *old, size_t n_old, const double *new_, size_t n_new,
                            enum pl_direction dir, double alpha, double threshold,
                            struct pl_change *out, struct pl_error *err);

/* ------------------------------------------------------- step detection */

/* Default penalty_scale k of pl_stats_detect_steps(). Chosen on simulated
 * Gaussian noise, 2000 series each: pure noise shows a false step in 0.45%
 * of 30-point series and in none of 200- or 1000-point ones; a shift of
 * 3 sigma over the last 10 points is found in 98% of series of 30 or 200
 * points (93% at 1000, where ln n makes the penalty larger); a 4 sigma
 * shift in 100%. (k = 2 gives 1.5% false steps at n = 30, k = 3 finds only
 * 94% of the 3 sigma shifts.) */
#define PL_STATS_STEP_PENALTY_DEFAULT 2.5

/* Longest series pl_stats_detect_steps() fits exactly. Longer ones are fitted
 * as asv does for speed (asv/step_detect.py, solve_potts_approx): the exact
 * solver with segments of at most PL_STATS_STEP_MAX_SEGMENT points, then
 * neighbouring segments joined, sweep after sweep, wherever one segment
 * costs less than two plus the penalty. O(n * 200 log 200) instead of up to
 * O(n^2 log n) (a long series with few steps prunes little: 16,000 points
 * took 2.4 s, 64,000 about 40 s). */
#define PL_STATS_STEP_EXACT_MAX 1000
#define PL_STATS_STEP_MAX_SEGMENT 200
/* Shortest segment a step fit may contain: one odd point is an outlier, not a
 * level; two points in a row at a new level are a step. */
#define PL_STATS_STEP_MIN_SEGMENT 2

/*
 * Robust estimate of the noise standard deviation of a series that is
 * piecewise constant plus noise: from the first differences d_i = y[i+1] -
 * y[i], which are free of the levels except at the few steps,
 *
 *     sigma = 1.4826 * MAD(d) / sqrt(2),   MAD(d) = median |d_i - median(d)|
 *
 * (difference-based variance estimation: Hall, Kay & Titterington 1990,
 * Biometrika 77:521-528; the MAD with 1.4826 = 1/Phi^-1(3/4) makes it
 * consistent for Gaussian noise: Hampel 1974, JASA 69:383-393; each d_i has
 * variance 2 sigma^2, hence the sqrt(2)). If more than half the differences
 * are equal (quantised data) the MAD is 0; then sqrt(pi)/2 times the mean
 * absolute deviation of d from its median is used instead (the same
 * estimate for Gaussian noise, E|X| = s sqrt(2/pi), but less robust), and if
 * that is 0 too (a straight ramp: all d equal) sqrt(pi)/2 * mean |d_i|.
 * *sigma is 0 only for a constant series (or n < 2).
 *
 * Returns 0; PL_EUSAGE if y or sigma is NULL; PL_EINVALID if a value is not
 * finite; PL_ENOMEM.
 */
int pl_stats_noise_sigma(const double *y, size_t n, double *sigma, struct pl_error *err);

/*
 * Exact penalised piecewise-constant fit with the L1 cost (the "L1 Potts"
 * problem): over all partitions of y[0..n-1] into contiguous segments of at
 * least min_segment points (min_segment >= 1), minimise
 *
 *     sum over segments S of  sum_{i in S} |y_i - median(S)|  +  beta * (#segments - 1).
 *
 * Solved exactly by optimal partitioning (Jackson et al. 2005, IEEE SPL
 * 12:105-108) with the PELT pruning rule (Killick, Fearnhead & Eckley 2012,
 * JASA 107:1590-1598; valid because splitting a segment never raises its L1
 * cost), in O(n^2 log n) time worst case and O(n) memory.
 *
 * On success *steps is a malloc'ed array of the *nsteps indices (strictly
 * increasing, in 1..n-1) of the first point after each step, or NULL when
 * *nsteps is 0; the caller frees it with free(). Among partitions of equal
 * cost, the one with fewer segments wins.
 *
 * Returns 0; PL_EUSAGE if y, steps or nsteps is NULL, beta is negative or not
 * finite, or min_segment is 0; PL_EINVALID if a value is not finite;
 * PL_ENOMEM.
 */
int pl_stats_partition_l1(const double *y, size_t n, double beta, size_t min_segment,
                          size_t **steps, size_t *nsteps, struct pl_error *err);

/*
 * Finds the level shifts of a history series y[0..n-1] (one point per run,
 * in time or version order; usually each point is a run's median).
 *
 * Method: pl_stats_partition_l1() with min_segment = PL_STATS_STEP_MIN_SEGMENT
 * and the penalty
 *
 *     beta = k * sigma * ln(n),   sigma = pl_stats_noise_sigma(y),
 *     k = penalty_scale, or PL_STATS_STEP_PENALTY_DEFAULT when it is 0.
 *
 * This follows asv (airspeed velocity, asv/step_detect.py), which fits the
 * same L1-cost Potts model (Friedrich et al. 2008, J. Comp. Graph. Stat.
 * 17:201-224) with a Schwarz-type penalty growing like ln(n) (Yao 1988,
 * Stat. Prob. Lett. 6:181-189). The penalty is in units of y because the L1
 * cost is (for Laplace noise it is sigma times the negative log-likelihood,
 * so a BIC-style penalty becomes a multiple of sigma ln n; with the L2 cost
 * it would be sigma^2 ln n). Differences from asv: we solve the problem
 * exactly (asv approximates to stay fast in Python) and fix the penalty from
 * a robust noise estimate instead of asv's search over gamma.
 *
 * Why this method: the L1 cost with a minimum segment of two points is
 * robust to single outliers (an outlier costs the same inside its segment as
 * in a pair of its own, so isolating it only adds penalty); the only
 * parameter is the penalty scale; and the optimum is exact, so a step is
 * placed at the index that best explains the data, not where a rolling
 * window happened to cross a threshold (as a rolling z-score would).
 *
 * Output as pl_stats_partition_l1(): *steps (caller frees with free(), NULL
 * when none) holds the indices of the first point after each step. A series
 * of fewer than 2 * PL_STATS_STEP_MIN_SEGMENT points, or a constant one, has
 * no steps.
 *
 * Returns 0; PL_EUSAGE if y, steps or nsteps is NULL or penalty_scale is
 * negative or not finite; PL_EINVALID if a value is not finite; PL_ENOMEM.
 */
int pl_stats_detect_steps(const double *y, size_t n, double penalty_scale,
                          size_t **steps, size_t *nsteps, struct pl_error *err);

/*
 * The level of every segment that steps[0..nsteps-1] (as returned by
 * pl_stats_detect_steps) cut y[0..n-1] into: levels[i] = median of segment i,
 * for i = 0..nsteps, where segment i runs from steps[i-1] (or 0) up to, not
 * including, steps[i] (or n). The step steps[i] goes from level levels[i]
 * (before) to levels[i+1] (after). levels must hold nsteps + 1 doubles
 * (caller-owned).
 *
 * Returns 0; PL_EUSAGE if a pointer is NULL (steps may be NULL when nsteps is
 * 0) or steps are not strictly increasing inside 1..n-1; PL_EEMPTY if n is 0;
 * PL_EINVALID if a value is not finite; PL_ENOMEM.
 */
int pl_stats_segment_levels(const double *y, size_t n, const size_t *steps, size_t nsteps,
                            double *levels, struct pl_error *err);

#endif
