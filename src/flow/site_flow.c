/*
 * flow/site_flow.c — the site of a selection from the store
 * (site_flow.h).
 */
#include "flow/site_flow.h"

#include <string.h>

#include "core/history.h"
#include "flow/gate_flow.h"

/* pl_site_walk_fn over the store: one call of add per conditions row. */
struct walk {
	struct pl_store *st;
	const struct pl_selection *sel;
};

static int walk_store(void *v, pl_site_add_fn add, void *site, struct pl_error *err)
{
	struct walk *w = v;

	return pl_store_each_set(w->st, w->sel->filters, w->sel->nfilters, add, site, err);
}

/* The latest night of every selected series decided together, as `check
 * --group-by G --baseline window:20 --candidate latest --metric M...`
 * without --where decides it (flow/gate_flow.h), into *night; *have 0 (and
 * nothing held) when there is none. Returns 0 or a PL_E* code with err. */
static int decide_night(struct pl_store *st, const struct pl_selection *sel,
                        const struct pl_site_opts *opts, struct pl_gate_night *night, int *have,
                        struct pl_error *err)
{
	struct pl_gate_night_opts go;
	const int *metrics = opts->metrics;
	size_t nmetrics = opts->nmetrics;

	if (!nmetrics)
		metrics = pl_site_default_metrics(&nmetrics);
	memset(&go, 0, sizeof(go));
	go.group = opts->group;
	go.window = PL_HISTORY_WINDOW_DEFAULT;
	for (size_t k = 0; k < nmetrics && k < PL_METRIC_COUNT; k++)
		go.metrics[go.nmetrics++] = metrics[k];
	pl_gate_opts_init(&go.gate);
	return pl_flow_gate_night(st, sel->filters, sel->nfilters, &go, opts->accepted, night, have,
	                          err);
}

int pl_flow_site(struct pl_store *st, const struct pl_selection *sel, struct pl_site_opts *opts,
                 const char *dir, int *writing, struct pl_error *err)
{
	struct pl_accepted_list acc = {0};
	struct pl_gate_night night = {0};
	struct walk w = {st, sel};
	int have = 0, rc;

	*writing = 0;
	opts->accepted = &acc;
	if ((rc = pl_store_accepted_steps(st, PL_M_NONE, &acc, err)) == 0 &&
	    (rc = decide_night(st, sel, opts, &night, &have, err)) == 0) {
		opts->night = have ? &night : NULL;
		*writing = 1;
		rc = pl_site_write(dir, opts, walk_store, &w, err);
	}
	opts->accepted = NULL;
	opts->night = NULL;
	pl_gate_night_release(&night);
	pl_accepted_list_release(&acc);
	return rc;
}
