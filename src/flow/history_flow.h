/*
 * flow/history_flow.h — the store -> history pipeline `perfledger history`
 * calls: the selected runs and the accepted steps read, one history per
 * metric built (core/history.h), then the latest night judged by check's
 * rule, every series of the ledger and these metrics decided together
 * (flow/gate_flow.h). The command renders what it returns.
 */
#ifndef PL_FLOW_HISTORY_FLOW_H
#define PL_FLOW_HISTORY_FLOW_H

#include <stddef.h>

#include "core/accepted.h"
#include "core/history.h"
#include "core/model.h"
#include "flow/selection.h"
#include "store/db.h"
#include "util/error.h"

/* Most stored runs for which `history` decides the latest night of every
 * series of the ledger together (as check without --where, and the site at
 * any size, decide it); above it the series is gated alone, so that the
 * history of one series costs one series (bench/nightly_bench.py: 0.07 s
 * in a 1M-run ledger, where the whole ledger's night takes 24 s). */
#define PL_HISTORY_NIGHT_MAX_RUNS 8000

/* Where pl_flow_history() stopped. */
enum pl_history_stage {
	PL_HISTORY_LOADING,  /* reading the runs and accepted steps: the store's error */
	PL_HISTORY_BUILDING, /* building hs[nh - 1] (hs allocated) */
	PL_HISTORY_GATING,   /* judging the latest night */
	PL_HISTORY_DONE,     /* every history built and judged */
};

/* The histories of a selection. Zeroed by pl_flow_history(); release with
 * pl_flow_history_release(). */
struct pl_history_outcome {
	enum pl_history_stage stage;
	struct pl_history *hs;         /* one per metric, in sel's order; NULL
	                                  while loading or out of memory */
	size_t nh;                     /* histories started (to release) */
	struct pl_run_list runs;       /* the selected runs (hs point in) */
	struct pl_accepted_list accepted; /* every accepted step (hs point in) */
};

/*
 * Builds the history of each of sel's metrics (at least one) over the runs
 * of sel in st, points by group (enum pl_group), then judges the latest
 * point by the gate (pl_history_gate_night over the ledger's night, or
 * pl_history_gate alone when the ledger is too large for one night, the
 * group is no time, or sel lets conditions differ). On success the
 * histories' labels name what sel's --where fixed (core/series_label.h).
 * Returns 0 (stage DONE), or with out->stage saying where it stopped:
 *   PL_EMISMATCH  (BUILDING) refused: out->hs[out->nh - 1].cmp names the fields;
 *   PL_EEMPTY     (BUILDING) nothing to show, err's message saying why
 *                 ("no runs match the selection" when none did);
 *   PL_ENOMEM     (BUILDING with hs NULL) no memory for the histories;
 *   another PL_E* code with err.
 * Release *out with pl_flow_history_release() on any return.
 */
int pl_flow_history(struct pl_store *st, const struct pl_selection *sel, int group,
                    struct pl_history_outcome *out, struct pl_error *err);

/* Frees what *out holds; a zeroed outcome is a no-op. */
void pl_flow_history_release(struct pl_history_outcome *out);

#endif
