/*
 * flow/gate_flow.c — the night of a selection from the store (gate_flow.h).
 */
#include "flow/gate_flow.h"

#include <string.h>

/* pl_store_set_fn: one series (conditions row) into the night's builder. */
static int add_series(void *b, struct pl_run_list *runs, struct pl_error *err)
{
	return pl_gate_night_add(b, runs, 1, err);
}

int pl_flow_gate_night(struct pl_store *st, const struct pl_filter *filters, size_t nfilters,
                       const struct pl_gate_night_opts *opts,
                       const struct pl_accepted_list *accepted, struct pl_gate_night *night,
                       int *have, struct pl_error *err)
{
	struct pl_gate_night_builder b;
	int rc;

	*have = 0;
	memset(night, 0, sizeof(*night));
	if ((rc = pl_gate_night_begin(&b, opts, accepted, err)) == 0 &&
	    (rc = pl_store_each_set(st, filters, nfilters, add_series, &b, err)) == 0)
		rc = pl_gate_night_finish(&b, night, err);
	pl_gate_night_builder_release(&b);
	if (rc == PL_EEMPTY) { /* nothing to decide: the callers say so themselves */
		pl_gate_night_release(night);
		pl_error_init(err);
		return 0;
	}
	if (rc) {
		pl_gate_night_release(night);
		return rc;
	}
	*have = 1;
	return 0;
}
