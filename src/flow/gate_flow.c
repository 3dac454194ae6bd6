/*
 * flow/gate_flow.c — the night of a selection from the store (gate_flow.h).
 */
#include "flow/gate_flow.h"

#include <string.h>

#include "render/site.h"

int pl_flow_gate_night(struct pl_store *st, const struct pl_filter *filters, size_t nfilters,
                       const struct pl_gate_night_opts *opts,
                       const struct pl_accepted_list *accepted, struct pl_gate_night *night,
                       int *have, struct pl_error *err)
{
	struct pl_run_list runs;
	long long count = 0;
	int rc;

	*have = 0;
	memset(night, 0, sizeof(*night));
	if ((rc = pl_store_count_runs(st, &count, err)) != 0)
		return rc;
	if (count > PL_SITE_NIGHT_MAX_RUNS)
		return 0;
	pl_run_list_init(&runs);
	rc = pl_store_query(st, filters, nfilters, &runs, err);
	if (!rc)
		rc = pl_gate_night_build(&runs, opts, accepted, night, err);
	pl_run_list_release(&runs);
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
