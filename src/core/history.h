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
 * one of the runs of that point. *
 * Groups (issue 14, pl_history_build_grouped): the points may also be the
 * runs of one UTC day, one build_id or one commit (build identity, model.h),
 * ordered by their earliest run and drawn at that time (point.t, time_axis);
 * --by is the older spelling of run / engine_version / driver_version. The
 * latest point is also judged against the points before it (latest_verdict)
 * so a regression fails on its first night. Runs are ordered by one merge
 * sort of precomputed keys: O(n log n) in the runs, plus the comparator.
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

/* Fields a history may be ordered by (--by, kept for old scripts): run_started_at,
 * engine_version, driver_version. */
int pl_history_by_valid(int cond);

/* How the runs of a series pool into points (--group-by). */
enum pl_group {
	PL_G_RUN,            /* "run": every run is a point (runs with the very same
	                        run_started_at pool, as --by run_started_at did) */
	PL_G_DAY,            /* "day": the runs of one UTC day (run_started_at's date) */
	PL_G_BUILD,          /* "build": the runs of one build_id */
	PL_G_COMMIT,         /* "commit": the runs of one commit */
	PL_G_ENGINE_VERSION, /* "engine_version": natural version order */
	PL_G_DRIVER_VERSION, /* "driver_version": natural version order */
	PL_G_COUNT
};

/* Name of group g ("run", "day", "build", "commit", "engine_version",
 * "driver_version"), NULL when out of range. */
const char *pl_group_name(int g);

/* The group named name, or -1. */
int pl_group_lookup(const char *name);

/* The condition that varies along a series grouped by g, the comparator's
 * axis: engine_version or driver_version for those groups, run_started_at
 * (not a key condition: no effect) for run, day, build and commit. */
int pl_group_axis(int g);

/* 1 if points of group g are ordered by time and drawn at their time: run,
 * day, build and commit (a build's or commit's time is its earliest run). */
int pl_group_is_time(int g);

/* The group of the old --by field: run_started_at -> run, engine_version and
 * driver_version -> themselves; -1 for any other. */
int pl_group_of_by(int cond);

/* Verdict on one metric of a check, or on the latest point of a history
 * (see check.h for the rules). */
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

/* Points of the window a history's latest point is judged against. */
#define PL_HISTORY_WINDOW_DEFAULT 20

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
	double t;                 /* earliest run_started_at of its runs, seconds since
	                             1970-01-01T00:00:00Z (a zone-less time read as UTC);
	                             NAN when none of its runs has one */
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
	int fails;             /* fails --fail-on-step: not accepted, worse (any
	                          direction for a metric without one), and
	                          |rel_change| beyond the 5% threshold of check
	                          (a smaller step is noise-level: never a failure) */
	const struct pl_accepted_step *accepted; /* covering acceptance, or NULL;
	                          points into the list given to pl_history_build() */
};

/* A history. Release with pl_history_release(). */
struct pl_history {
	int by;                           /* the comparator's axis: pl_group_axis(group) */
	int group;                        /* enum pl_group: how runs pool into points */
	int time_axis;                    /* 1 if the x axis is time (pl_group_is_time and
	                                     every point has t): draw at t, not at index */
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
	size_t skipped_implausible;       /* runs left out: metric outside its plausible
	                                     range (core/ranges.h), a caveat in cmp */
	size_t nfailed;                   /* failed runs, in their points' failed_ids */
	size_t nfailing;                  /* steps that fail --fail-on-step (step.fails);
	                                     plus 1 when latest_verdict is
	                                     PL_V_REGRESSION, plus 1 when the last
	                                     point has failed runs (latest_failed) */
	/* The latest point judged against the PL_HISTORY_WINDOW_DEFAULT points
	 * before it (check --baseline window:N --candidate latest, same method:
	 * pl_stats_compare_window over the point medians, not past an accepted
	 * step, at PL_CHECK_ALPHA and PL_CHECK_THRESHOLD_DEFAULT), so that a regression fails on its first
	 * night, before step detection (two points at least after a step) can
	 * see it. The window ends before the trailing points (up to 3) that are
	 * regressions against the points before them, so the second bad night is
	 * not judged against a window holding the first; latest.n_old is the
	 * window's size. */
	enum pl_verdict latest_verdict;   /* PL_V_TOO_FEW with fewer than
	                                     PL_STATS_PREDICTION_MIN earlier points */
	size_t latest_point;              /* the point latest_verdict judges: the last
	                                     point with a median (a later point of
	                                     failed runs only is a mark, not judged) */
	size_t nmedians;                  /* points with a median (step detection's n) */
	size_t latest_failed;             /* failed runs of the last point: each night
	                                     with one fails --fail-on-step (+1 in
	                                     nfailing), as a failed candidate run
	                                     fails check */
	struct pl_change latest;          /* the test (valid unless PL_V_TOO_FEW) */
	const struct pl_accepted_step *latest_accepted; /* for PL_V_ACCEPTED */
	/* Set by pl_history_gate() (core/history_gate.h): the latest point was
	 * judged by the nightly gate's rule, as check judges it. latest then
	 * holds: new_median the latest median, old_center the baseline's level
	 * (geometric mean), n_old its points, rel_change, p_value the
	 * family-wise adjusted one-sided p, bound_low/high the 95% band. */
	int gate;                         /* 1: judged by the gate */
	size_t gate_checks;               /* checks the gate decided together */
	int gate_open;                    /* 1: the baseline stops before an open
	                                     regression beginning at point gate_open_at */
	size_t gate_open_at;
	size_t gate_family_n;             /* >= 2: red with its family of that many
	                                     series (pooled), gate_family_z their
	                                     Stouffer Z; 0: judged alone */
	double gate_family_z;
	int gate_superseded;              /* 1: the night's series is continued by
	                                     another across a change of condition:
	                                     not gated (pl_history_gate_night) */
	char gate_change[256];            /* superseded: the change its successor
	                                     starts at ("driver_version A -> B"),
	                                     "" when unknown */
};

/*
 * The first point a window judging point `at` may hold: the first point
 * after the latest accepted step before `at` (an accepted step is the new
 * normal: the robust window must not judge the nights after it against the
 * level before it), else 0. h's steps must be detected. O(steps).
 */
size_t pl_history_window_floor(const struct pl_history *h, size_t at);

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

/*
 * As pl_history_build(), with the points formed by group (enum pl_group)
 * instead of a --by field. Runs without the group's value (no
 * run_started_at for day, no build_id for build, no commit for commit, no
 * version) are counted in skipped_no_value. Points are ordered by their
 * earliest run (run_started_at, then id) for the time groups, in natural
 * version order for the version groups. Runs are sorted once: O(n log n)
 * in the runs read, plus the comparator's pass.
 * Returns as pl_history_build(); PL_EUSAGE for a bad group.
 */
int pl_history_build_grouped(const struct pl_run_list *runs, int group, int metric,
                             const struct pl_compare_opts *allow,
                             const struct pl_accepted_list *accepted, struct pl_history *out,
                             struct pl_error *err);

/* Frees everything in h. NULL is a no-op. */
void pl_history_release(struct pl_history *h);

/*
 * The verdict of a test c of metric (direction dir), as check.h lists them:
 * PL_V_TOO_FEW unless c->decidable, PL_V_NO_CHANGE unless significant, then
 * regression (PL_V_ACCEPTED when an accepted step of metric names one of
 * ids[0..n); *acc gets it, else NULL), improvement, changed (no direction)
 * or within threshold.
 */
enum pl_verdict pl_verdict_of(const struct pl_change *c, enum pl_direction dir,
                              const struct pl_accepted_list *accepted, int metric,
                              const long long *ids, size_t n,
                              const struct pl_accepted_step **acc);

/* ------------------------------------------------- one rule with check */

/* (core/history_gate.c) `history --fail-on-step`, the site and `check
 * --baseline window:N --candidate latest` decide a series' latest night with
 * the nightly gate (core/gate_night.h), so that they agree on every night:
 * the same regression red, the same nights, until accepted or reverted. */
/*
 * Re-judges the latest point of each history hs[0..nh) (built by
 * pl_history_build_grouped over runs, one condition key, one metric each,
 * points by group; a history with no point is left alone) by the gate: the checks of the histories'
 * metrics over runs are decided together (pl_gate_night_build: window
 * PL_HISTORY_WINDOW_DEFAULT, threshold PL_GATE_THRESHOLD_DEFAULT, the defaults'
 * alpha), exactly as `check --group-by G --baseline window:20 --candidate
 * latest --metric M1,M2...` decides them. Then, per history:
 *   latest_verdict, latest_accepted and latest (history.h: the gate's
 *   numbers) are the gate's; gate = 1;
 *   a step fails only while the gate holds its metric red: a detected,
 *   unaccepted, worsening step beyond the threshold that the latest point
 *   has reverted, or that the gate finds no longer worse, passes;
 *   nfailing = failing steps + 1 for a red latest point + 1 for failed runs
 *   of the last point (so nfailing > 0 exactly when check exits 1).
 * A version group (engine_version, driver_version), or runs that the gate
 * splits into more than one series (an --allow-mismatch selection), leave
 * the histories as built (gate 0). allow is the histories' comparator
 * options (may be NULL). Returns 0, PL_ENOMEM, PL_EUSAGE.
 */
int pl_history_gate(struct pl_history *hs, size_t nh, const struct pl_run_list *runs, int group,
                    const struct pl_compare_opts *allow, const struct pl_accepted_list *accepted,
                    struct pl_error *err);

struct pl_gate_night;
/*
 * As pl_history_gate(), but with a night already decided over a whole
 * selection (pl_gate_night_build: every series and metric of it together,
 * families pooled, Holm over all its checks — what `check` without --where
 * decides): the histories hs[0..nh) of the series whose earliest run id is
 * first_run take that series' items (a metric the night has no item for,
 * e.g. a series superseded across a change of condition, is "not judged").
 * Returns 1 when the night holds that series, 0 when it does not (hs left
 * as built). Never fails.
 */
int pl_history_gate_night(struct pl_history *hs, size_t nh, const struct pl_gate_night *night,
                          long long first_run);

/*
 * The options of the night a history's gate decides (core/gate_night.h):
 * *o zeroed, then group, the default window (PL_HISTORY_WINDOW_DEFAULT),
 * the metrics of hs[0..nh) that have points (in order), *allow (NULL:
 * none) and the default gate. Returns how many metrics (0: nothing to
 * judge). For pl_history_gate() and `history`'s night over the ledger.
 */
struct pl_gate_night_opts;
size_t pl_history_night_opts(const struct pl_history *hs, size_t nh, int group,
                             const struct pl_compare_opts *allow, struct pl_gate_night_opts *o);

#endif
