/*
 * gate.h — the nightly gate's decision over every check of one night, with
 * the family-wise false-alarm rate held at alpha.
 *
 * A night of a nightly pipeline is many checks: one per series (condition
 * key) and metric, each the latest point's median against the medians of
 * the points before it (the window, or the level before an open step).
 * Tested one by one at alpha each, 27 checks a night make a quarter of the
 * nights red from noise alone. pl_gate_decide() judges them together:
 *
 *  1. Each check's own evidence. In log space (the metrics are positive and
 *     their run-to-run noise is multiplicative), window points further than
 *     PL_GATE_OUTLIER_SIGMAS robust sigmas (1.4826 MAD) from the window's
 *     median are left out (a spike night must not widen the interval for
 *     the next N nights), then with mean m and standard deviation s of the
 *     k remaining log medians and y the latest log median,
 *         t = (y - m) / (s sqrt(1 + 1/k))     (toward worse: sign by direction)
 *         p = Q_t(t, k - 1)                    (one-sided, exact for normal logs)
 *         z = Phi^-1(1 - p)                    (the same evidence as a normal score)
 *     rel_change = exp(y - m) - 1 (the latest point against the window's
 *     geometric mean). Fewer than PL_GATE_MIN_WINDOW usable points, or a
 *     value <= 0, make the check undecidable (never red).
 *  2. Pooled evidence of a family: the checks of one metric in series that
 *     one change touches together (the caller gives them one family
 *     number: the load points — concurrency, lengths — of one runner's
 *     stack). Stouffer's Z = sum z_i / sqrt(n) over its n >= 2 decidable
 *     members, p = 1 - Phi(Z); the family's change is the geometric mean of
 *     its members' changes. Members are different runs, so their z are
 *     independent and Z is exactly normal under no change; a +8% shift on
 *     three concurrencies at 4% noise is a 4.8-sigma event where each
 *     member alone is 2.8 sigma.
 *  3. Family-wise control: Holm's step-down over all the night's tests (one
 *     per decidable check, one per family of two or more) at opts->alpha,
 *     so that on a night without a change the chance of any red check is
 *     at most alpha, however many series the gate holds (Holm 1979, Scand.
 *     J. Statist. 6:65-70; valid under any dependence, so the correlated
 *     TPOT and throughput of one run do not break it).
 *  4. Verdict. A check is red (by PL_GATE_BY_SELF) when its own test is
 *     rejected and it is worse by more than opts->threshold; or (by
 *     PL_GATE_BY_FAMILY) when its family's pooled test is rejected, the
 *     family is worse by more than the threshold, and the check itself
 *     moved the worse way at opts->member_alpha (p <= member_alpha): a
 *     member is only blamed when its own points agree. Step 4 never makes
 *     a night red that step 3 left green, so the member level does not
 *     touch the false-alarm rate. A check is better (an improvement to
 *     report, never red) when (1 - p) times the night's number of tests is
 *     <= alpha and it is better by more than the threshold.
 * With opts->pool 0 step 2 is skipped: every check stands alone under
 * Holm (the floor the pooled gate is measured against, bench/gate_sim.c).
 */
#ifndef PL_GATE_H
#define PL_GATE_H

#include <stddef.h>

#include "core/error.h"

/* Fewest usable window points a check is decided with. */
#define PL_GATE_MIN_WINDOW 3
/* Window points this many robust sigmas from the window median are outliers. */
#define PL_GATE_OUTLIER_SIGMAS 5.0
/* Defaults: the family-wise false-alarm rate per night, the level a member
 * of a failing family must reach on its own, the minimum effect (5%). */
#define PL_GATE_ALPHA_DEFAULT 0.05
#define PL_GATE_MEMBER_ALPHA_DEFAULT 0.05
#define PL_GATE_THRESHOLD_DEFAULT 0.05

/* One check of the night: one series x metric. */
struct pl_gate_check {
	const double *window; /* medians of the baseline points, > 0; borrowed */
	size_t nwindow;       /* entries in window */
	double latest;        /* the candidate point's median, > 0 */
	int direction;        /* enum pl_direction of the metric; PL_NO_DIRECTION
	                         checks are undecidable (nothing is worse) */
	int metric;           /* enum pl_metric_id: pooling is per family x metric */
	size_t family;        /* the family of series one change touches together
	                         (any number; equal numbers pool) */
};

/* Why a check is red. */
enum pl_gate_by {
	PL_GATE_BY_NONE = 0, /* not red */
	PL_GATE_BY_SELF,     /* its own test passed the family-wise level */
	PL_GATE_BY_FAMILY    /* its family's pooled test did, and it agreed */
};

/* The outcome of one check. */
struct pl_gate_verdict {
	int decidable;        /* 1: window had PL_GATE_MIN_WINDOW usable points */
	size_t nused;         /* window points used (outliers left out) */
	double rel_change;    /* latest / geometric mean of the used window - 1 */
	double band_low;      /* the used window's two-sided 95% prediction band in */
	double band_high;     /* log space, exp(m -+ t(0.975, k-1) s sqrt(1 + 1/k)),
	                         in the metric's unit (drawn; the test is one-sided) */
	double z;             /* its normal score toward worse (+ = worse) */
	double p;             /* its one-sided p of being worse */
	double p_adjusted;    /* its Holm-adjusted p (1 when undecidable) */
	size_t family_n;      /* decidable members of its family x metric (1 alone) */
	double family_z;      /* Stouffer Z of the family (= z alone) */
	double family_change; /* geometric mean of the members' changes */
	double family_p_adjusted; /* Holm-adjusted p of the pooled test (1 when
	                         there is none: fewer than 2 members, or no pooling) */
	int red;              /* 1: fails the gate */
	int by;               /* enum pl_gate_by */
	double p_better_adjusted; /* the mirrored test's p times the night's number
	                         of tests (at most 1) */
	int better;           /* 1: its own test, mirrored (toward better), passes
	                         the family-wise level and it is better by more
	                         than the threshold (an improvement to report) */
};

/* How to decide. */
struct pl_gate_opts {
	double alpha;        /* family-wise false-alarm rate per night, in (0, 1) */
	double member_alpha; /* level a member of a failing family needs, in (0, 1] */
	double threshold;    /* minimum effect, fraction >= 0 (0.05 = 5%) */
	int pool;            /* 1: pool families (step 2); 0: checks stand alone */
};

/* Fills opts with the defaults above and pool = 1. */
void pl_gate_opts_init(struct pl_gate_opts *opts);

/*
 * Decides the night: checks[0..n) in, out[0..n) (caller's array of n) out,
 * entry by entry. Pure: no allocation survives the call.
 * Returns 0; PL_EUSAGE for NULL pointers (with n > 0) or bad options;
 * PL_ENOMEM.
 */
int pl_gate_decide(const struct pl_gate_check *checks, size_t n, const struct pl_gate_opts *opts,
                   struct pl_gate_verdict *out, struct pl_error *err);

/*
 * Holm's step-down adjusted p-values: adj[i] = max over j <= rank(i) of
 * min(1, (n - j) p_(j)) (ranks from 0, p ascending), so that rejecting
 * adj[i] <= alpha is Holm's test at alpha. p and adj may not alias.
 * Returns 0, PL_EUSAGE for NULL pointers with n > 0, PL_ENOMEM.
 */
int pl_gate_holm(const double *p, size_t n, double *adj, struct pl_error *err);

/* Trailing points pl_gate_baseline() looks back over for a regression not
 * yet seen as a step. */
#define PL_GATE_TRAIL_MAX 3

/*
 * The baseline a series' point c is judged against: points [*from, *to) of
 * y[0..c] (the medians of the points that have one, in order). A regression
 * stays red until it is accepted or reverted, so the baseline is the level
 * before the oldest open regression, never a window that has swallowed it:
 *   to = open when open <= c (the first point after the oldest open step:
 *        detected, worse beyond the threshold, not accepted; (size_t)-1
 *        for none), else
 *   to = the earliest of the up to PL_GATE_TRAIL_MAX points just before c
 *        that each are, on their own, worse than the window before them
 *        (p <= opts->member_alpha and beyond opts->threshold: a regression
 *        on its first nights, before step detection can see it), else c;
 *   from = max(floor, to - window): not past floor, the first point after
 *        the latest accepted step (the accepted level is the new normal).
 * direction is the metric's (enum pl_direction). Pure; never fails.
 */
void pl_gate_baseline(const double *y, size_t c, size_t floor, size_t open, size_t window,
                      int direction, const struct pl_gate_opts *opts, size_t *from, size_t *to);

#endif
