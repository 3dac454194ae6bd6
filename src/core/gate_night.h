/*
 * gate_night.h — one call gates every series of a selection: the night of
 * a nightly pipeline (`check --baseline window:N --candidate latest` over a
 * selection that holds several condition keys).
 *
 * The selected runs are split into series, one per condition key (as the
 * store's conditions rows: every condition but run_started_at). Each
 * series and metric is a history (pl_history_build_grouped, points by
 * opts->group); its latest point with a median is the candidate and its
 * baseline is the one pl_gate_baseline() picks (the level before the
 * oldest open regression, not past an accepted step nor an accepted point
 * — one whose runs an acceptance names, found as a step or not yet — at
 * most N points).
 * Every check of the night is then decided together by pl_gate_decide()
 * (gate.h): its family-wise false-alarm rate is alpha, evidence pooled over
 * a family — the series that differ only in their load (concurrency,
 * request_rate, input_tokens, max_output_tokens, num_prompts, burstiness):
 * the load points of one runner's stack, which one change moves together.
 *
 * A change of condition (a driver upgrade, a new engine version) makes a
 * new series. A series with fewer than PL_GATE_OWN_MIN points before its
 * latest is judged across the change when it has one predecessor: a series
 * that differs from it only in the versions of its stack (engine_version,
 * driver_version, cuda_version, benchmark_tool_version) — the same model,
 * hardware, precision, engine, load and every other condition — whose last
 * point is before the new series' first. The new points are then judged against the
 * predecessor's last N points (item.across set; the predecessor is not
 * gated itself: it has no new night). Without a predecessor it is started
 * (item.verdict PL_V_TOO_FEW, series.started): not red, listed as started.
 *
 * Verdicts of an item: PL_V_REGRESSION (red), PL_V_ACCEPTED (red, but an
 * accepted step of the metric names one of the candidate point's runs),
 * PL_V_IMPROVEMENT, PL_V_NO_CHANGE, PL_V_TOO_FEW (undecidable or started).
 * A candidate point with failed runs fails its series (series.nfailed), as
 * in check.
 */
#ifndef PL_GATE_NIGHT_H
#define PL_GATE_NIGHT_H

#include <stddef.h>

#include "core/accepted.h"
#include "core/compare.h"
#include "core/error.h"
#include "core/gate.h"
#include "core/history.h"
#include "core/model.h"

/* Points a new series needs before its latest to be gated on its own. */
#define PL_GATE_OWN_MIN 5

/* What to gate. */
struct pl_gate_night_opts {
	int group;                    /* enum pl_group of the points */
	size_t window;                /* N >= 1: baseline points at most */
	int metrics[PL_METRIC_COUNT]; /* metrics named, in order */
	size_t nmetrics;              /* 0 = the headline metrics (pl_compare_default_metrics) */
	struct pl_compare_opts allow; /* only allow_mismatch, allow_extra and
	                                 allow_errors are read */
	struct pl_gate_opts gate;     /* alpha, member alpha, threshold, pooling */
	unsigned char named[PL_COND_COUNT]; /* conditions every series label names
	                                 besides its identity: those the selection
	                                 fixed (--where); zero for none */
	int named_extras;             /* 1: labels name the extra conditions too */
};

/* One series of the night. */
struct pl_gate_series {
	char *label;          /* core/series_label.h: its identity, then the
	                         conditions that tell it from its siblings (the
	                         series of the same identity) and those opts
	                         names, "m / H100 / vllm 0.9.2 / c=8 /
	                         driver_version=570.86.15"; owned */
	size_t family;        /* its family (equal numbers: one runner's load points) */
	long long first_run;  /* its earliest run id (a stable name for it) */
	char *latest;         /* its latest point's label (--group-by value); owned */
	size_t npoints;       /* points of its first metric with a median */
	long long *failed_ids; /* failed runs of its latest point, ascending; owned */
	size_t nfailed;
	int started;          /* 1: too few points and no predecessor */
	int superseded;       /* 1: another series continues it across a change:
	                         not gated */
	size_t predecessor;   /* across a change: index of the series it continues,
	                         else (size_t)-1 */
	char *change;         /* across a change: "driver_version 550.54.15 ->
	                         570.86.15" (each differing condition); owned */
};

/* One check: a series x metric. */
struct pl_gate_item {
	size_t series;        /* index into night.series */
	int metric;           /* enum pl_metric_id */
	enum pl_verdict verdict;
	struct pl_gate_verdict g; /* the gate's numbers (gate.h) */
	double latest;        /* the candidate point's median */
	size_t nbase;         /* baseline points */
	char *base_first;     /* label of the baseline's first point, NULL if none; owned */
	char *base_last;      /* label of its last point; owned */
	char *open_since;     /* label of the first point of the open regression the
	                         baseline stops before, NULL when none; owned */
	int across;           /* 1: judged against the predecessor across a change */
	const struct pl_accepted_step *accepted; /* PL_V_ACCEPTED: the acceptance */
};

/* The night. Release with pl_gate_night_release(). */
struct pl_gate_night {
	struct pl_gate_series *series; /* in the order of their earliest run; owned */
	size_t nseries;
	struct pl_gate_item *items;    /* series-major, metrics in order; owned */
	size_t nitems;
	size_t nred;                   /* PL_V_REGRESSION items */
	size_t naccepted;              /* PL_V_ACCEPTED items */
	size_t nimprovements;          /* PL_V_IMPROVEMENT items */
	size_t ndecidable;             /* items that are not PL_V_TOO_FEW */
	size_t nfailed_series;         /* series whose latest point has failed runs */
	size_t nstarted;               /* series started (too few points) */
	size_t window;                 /* N */
	int group;                     /* enum pl_group */
	struct pl_gate_opts gate;      /* as given */
	struct pl_msgs caveats;        /* the caveats of the series' comparators, each
	                                  distinct one once (pl_msg_equal) */
};

/*
 * Gates every series of runs (as selected by the caller; accepted may be
 * NULL). Returns 0; PL_EUSAGE for bad options; PL_EEMPTY when no run has a
 * metric to gate; PL_EMISMATCH never (each series is one key); PL_ENOMEM.
 * On any return release *out with pl_gate_night_release().
 */
int pl_gate_night_build(const struct pl_run_list *runs, const struct pl_gate_night_opts *opts,
                        const struct pl_accepted_list *accepted, struct pl_gate_night *out,
                        struct pl_error *err);

/*
 * The same night built series by series, so that only one series' runs need
 * be in memory at once (flow/gate_flow.c walks the store one condition key
 * at a time): what a night keeps of a series is its first run's conditions,
 * its latest point and, per metric, at most two windows of opts->window
 * medians (its own baseline, and the one a series continuing it across a
 * change of condition is judged against). pl_gate_night_build() is
 * begin, one add per condition key, finish; both give the same night.
 * The fields are the builder's own.
 */
struct pl_gate_gseries; /* one series while building (gate_night.c) */
struct pl_gate_night_builder {
	const struct pl_gate_night_opts *opts;   /* borrowed until finish */
	const struct pl_accepted_list *accepted; /* borrowed until finish; may be NULL */
	int metrics[PL_METRIC_COUNT];            /* the metrics gated, each once */
	size_t nmetrics;
	struct pl_gate_gseries *series;          /* one per add; owned */
	size_t nseries, cap;
};

/* Starts b for opts and accepted (both borrowed until
 * pl_gate_night_finish()). Returns 0, or PL_EUSAGE for bad options (err
 * set). Release b with pl_gate_night_builder_release() either way. */
int pl_gate_night_begin(struct pl_gate_night_builder *b, const struct pl_gate_night_opts *opts,
                        const struct pl_accepted_list *accepted, struct pl_error *err);

/* Adds the runs of one series (one condition key: every run of it in the
 * selection, in id order) to b. take 1: b may take the contents of runs
 * (they are left released or untouched); 0: runs are only read, and must
 * stay valid until finish (b keeps a pointer to the first run). Returns 0,
 * PL_ENOMEM, or the history's error (err set). */
int pl_gate_night_add(struct pl_gate_night_builder *b, struct pl_run_list *runs, int take,
                      struct pl_error *err);

/* Decides the night of every series added to b into *out (zeroed first),
 * as pl_gate_night_build() does. Returns what it returns (PL_EEMPTY when no
 * series was added, "no run in the selection"). b is spent: release it. */
int pl_gate_night_finish(struct pl_gate_night_builder *b, struct pl_gate_night *out,
                         struct pl_error *err);

/* Frees what b holds. NULL is a no-op. */
void pl_gate_night_builder_release(struct pl_gate_night_builder *b);

/* Frees everything in night. NULL is a no-op. */
void pl_gate_night_release(struct pl_gate_night *night);

/* 1 if condition id is a load condition (a family's members differ in it). */
int pl_gate_is_load(int id);

#endif
