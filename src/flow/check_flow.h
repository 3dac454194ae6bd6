/*
 * flow/check_flow.h — the store -> check pipeline `perfledger check`
 * calls: the selected runs and the accepted steps read, then either the
 * night of every series (window:N latest over a time group: core/gate_night.h,
 * the gate's one rule) or the classic check of two sets of runs
 * (core/check.h). The command renders what it returns.
 */
#ifndef PL_FLOW_CHECK_FLOW_H
#define PL_FLOW_CHECK_FLOW_H

#include "core/accepted.h"
#include "core/check.h"
#include "core/gate_night.h"
#include "core/model.h"
#include "flow/selection.h"
#include "store/db.h"
#include "util/error.h"

/* What a check decided. Zeroed by pl_flow_check(); release with
 * pl_flow_check_release(). */
struct pl_check_outcome {
	int is_night;                  /* 1: night holds the decision; 0: chk */
	int loaded;                    /* 1 once runs and accepted were read: an
	                                  error after it is the check's own, worded
	                                  for the user in err's message */
	struct pl_gate_night night;    /* is_night: the night (labels named by sel) */
	struct pl_check chk;           /* !is_night: the check (labels named by sel
	                                  on success) */
	struct pl_run_list runs;       /* the selected runs (chk and night point in) */
	struct pl_accepted_list accepted; /* every accepted step (chk and night point in) */
};

/*
 * Runs check over the runs of sel in st: opts (the caller's, from the
 * command line: axis, baseline, candidate, group, threshold, alpha) gets
 * sel's metrics and --allow-mismatch entries copied in. A series check of
 * window:N and latest without --axis over a time group is the night of
 * every series (core/gate_night.h); anything else pl_check_build().
 * Returns 0 with *out filled, or:
 *   PL_EMISMATCH  refused: out->chk.cmp names the fields (classic check);
 *   PL_EEMPTY, PL_EUSAGE  with out->loaded 1: nothing to decide or a bad
 *                 request, err's message saying why; with out->loaded 0 the
 *                 store's own error;
 *   another PL_E* code with err.
 * Release *out with pl_flow_check_release() on any return.
 */
int pl_flow_check(struct pl_store *st, const struct pl_selection *sel, struct pl_check_opts *opts,
                  struct pl_check_outcome *out, struct pl_error *err);

/* Frees what *out holds; a zeroed outcome is a no-op. */
void pl_flow_check_release(struct pl_check_outcome *out);

#endif
