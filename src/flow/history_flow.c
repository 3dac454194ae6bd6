/*
 * flow/history_flow.c — the histories of a selection from the store
 * (history_flow.h).
 */
#include "flow/history_flow.h"

#include <stdlib.h>
#include <string.h>

#include "flow/gate_flow.h"

/* 1 if allow lets conditions differ: the history may then span several
 * series (condition keys) of the night. */
static int allows_mismatch(const struct pl_compare_opts *allow)
{
	for (int c = 0; c < PL_COND_COUNT; c++)
		if (allow->allow_mismatch[c])
			return 1;
	return allow->nallow_extra > 0;
}

/* The latest night of hs[0..nh) (the histories of runs, one series) as
 * `check --group-by G --baseline window:20 --candidate latest --metric M...`
 * without --where decides it: every series of the ledger and these metrics
 * together, its family pooled, Holm over the whole night
 * (flow/gate_flow.h). Alone by the same rule (pl_history_gate) when the
 * ledger holds more than PL_HISTORY_NIGHT_MAX_RUNS runs, the history spans
 * several series (--allow-mismatch), or the night has no check of them.
 * Returns 0, or nonzero with err set. */
static int gate_latest(struct pl_store *st, struct pl_history *hs, size_t nh,
                       const struct pl_run_list *runs, int group,
                       const struct pl_compare_opts *allow, const struct pl_accepted_list *acc,
                       struct pl_error *err)
{
	struct pl_gate_night_opts go;
	struct pl_gate_night night = {0};
	long long first = 0, count = 0;
	int have = 0, rc;

	if (!pl_group_is_time(group) || !runs->n || allows_mismatch(allow))
		return pl_history_gate(hs, nh, runs, group, allow, acc, err);
	if (pl_history_night_opts(hs, nh, group, allow, &go) == 0)
		return 0;
	if ((rc = pl_store_count_runs(st, &count, err)) != 0)
		return rc;
	if (count > PL_HISTORY_NIGHT_MAX_RUNS)
		return pl_history_gate(hs, nh, runs, group, allow, acc, err);
	if ((rc = pl_flow_gate_night(st, NULL, 0, &go, acc, &night, &have, err)) != 0)
		return rc;
	first = runs->v[0].id;
	for (size_t i = 1; i < runs->n; i++)
		if (runs->v[i].id < first)
			first = runs->v[i].id;
	rc = have && pl_history_gate_night(hs, nh, &night, first)
	             ? 0
	             : pl_history_gate(hs, nh, runs, group, allow, acc, err);
	pl_gate_night_release(&night);
	return rc;
}

int pl_flow_history(struct pl_store *st, const struct pl_selection *sel, int group,
                    struct pl_history_outcome *out, struct pl_error *err)
{
	struct pl_compare_opts allow = sel->opts;
	int rc;

	allow.subsets_min_rows = 2; /* a refusal names the series that would have 2 points */
	memset(out, 0, sizeof(*out));
	pl_run_list_init(&out->runs);
	out->stage = PL_HISTORY_LOADING;
	if ((rc = pl_store_query(st, sel->filters, sel->nfilters, &out->runs, err)) != 0 ||
	    (rc = pl_store_accepted_steps(st, PL_M_NONE, &out->accepted, err)) != 0)
		return rc;
	out->stage = PL_HISTORY_BUILDING;
	if (!(out->hs = calloc(sel->opts.nmetrics, sizeof(*out->hs))))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t k = 0; k < sel->opts.nmetrics; k++) {
		out->nh = k + 1;
		rc = pl_history_build_grouped(&out->runs, group, sel->opts.metrics[k], &allow,
		                              &out->accepted, &out->hs[k], err);
		if (rc == PL_EEMPTY && !out->runs.n)
			return pl_error_set(err, PL_EEMPTY, "no runs match the selection");
		if (rc)
			return rc;
	}
	out->stage = PL_HISTORY_GATING;
	if ((rc = gate_latest(st, out->hs, out->nh, &out->runs, group, &sel->opts, &out->accepted,
	                      err)) != 0)
		return rc;
	for (size_t k = 0; k < out->nh; k++)
		pl_selection_named(sel, out->hs[k].cmp.named, &out->hs[k].cmp.named_extras);
	out->stage = PL_HISTORY_DONE;
	return 0;
}

void pl_flow_history_release(struct pl_history_outcome *out)
{
	for (size_t k = 0; k < out->nh; k++)
		pl_history_release(&out->hs[k]);
	free(out->hs);
	pl_accepted_list_release(&out->accepted);
	pl_run_list_release(&out->runs);
}
