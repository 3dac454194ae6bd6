/*
 * flow/check_flow.c — the check of a selection from the store
 * (check_flow.h).
 */
#include "flow/check_flow.h"

#include <string.h>

/* The night of every series of out->runs as check's opts ask it. */
static int night(const struct pl_selection *sel, const struct pl_check_opts *opts,
                 struct pl_check_outcome *out, struct pl_error *err)
{
	struct pl_gate_night_opts go;

	memset(&go, 0, sizeof(go));
	go.group = opts->group;
	go.window = opts->window;
	memcpy(go.metrics, opts->metrics, sizeof(go.metrics));
	go.nmetrics = opts->nmetrics;
	memcpy(go.allow.allow_mismatch, opts->allow_mismatch, sizeof(go.allow.allow_mismatch));
	memcpy(go.allow.allow_extra, opts->allow_extra, sizeof(go.allow.allow_extra));
	go.allow.nallow_extra = opts->nallow_extra;
	go.allow.allow_errors = opts->allow_errors;
	pl_gate_opts_init(&go.gate);
	go.gate.threshold = opts->threshold;
	pl_selection_named(sel, go.named, &go.named_extras);
	out->is_night = 1;
	return pl_gate_night_build(&out->runs, &go, &out->accepted, &out->night, err);
}

int pl_flow_check(struct pl_store *st, const struct pl_selection *sel, struct pl_check_opts *opts,
                  struct pl_check_outcome *out, struct pl_error *err)
{
	int rc;

	memset(out, 0, sizeof(*out));
	pl_run_list_init(&out->runs);
	memcpy(opts->metrics, sel->opts.metrics, sizeof(opts->metrics));
	opts->nmetrics = sel->opts.nmetrics;
	memcpy(opts->allow_mismatch, sel->opts.allow_mismatch, sizeof(opts->allow_mismatch));
	memcpy(opts->allow_extra, sel->opts.allow_extra, sizeof(opts->allow_extra));
	opts->nallow_extra = sel->opts.nallow_extra;
	opts->allow_errors = sel->opts.allow_errors;
	opts->seek_subsets = 1; /* a refusal names what would be checked */
	if ((rc = pl_store_query(st, sel->filters, sel->nfilters, &out->runs, err)) != 0 ||
	    (rc = pl_store_accepted_steps(st, PL_M_NONE, &out->accepted, err)) != 0)
		return rc;
	out->loaded = 1;
	if (opts->series && opts->baseline_kind == PL_BASELINE_WINDOW && opts->candidate_latest &&
	    opts->axis == PL_C_NONE && pl_group_is_time(opts->group))
		/* nights of one series or several (a version group is one series
		 * across its versions, checked as before): one rule, the gate's */
		return night(sel, opts, out, err);
	if ((rc = pl_check_build(&out->runs, opts, &out->accepted, &out->chk, err)) != 0)
		return rc;
	pl_selection_named(sel, out->chk.cmp.named, &out->chk.cmp.named_extras);
	return 0;
}

void pl_flow_check_release(struct pl_check_outcome *out)
{
	pl_gate_night_release(&out->night);
	pl_check_release(&out->chk);
	pl_accepted_list_release(&out->accepted);
	pl_run_list_release(&out->runs);
}
