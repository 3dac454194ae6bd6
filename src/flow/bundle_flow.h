/*
 * flow/bundle_flow.h — the report pipeline: a report definition -> its
 * selection -> the runs with their trails, as they stood at the
 * definition's as-of time -> the comparison and the procurement verdict ->
 * a bundle directory. `report --spec` and `verify` (which re-renders a
 * bundle to check it) run it alike, in two steps so that a command checks
 * its arguments before it opens the ledger.
 */
#ifndef PL_FLOW_BUNDLE_FLOW_H
#define PL_FLOW_BUNDLE_FLOW_H

#include "core/compare.h"
#include "flow/selection.h"
#include "render/spec.h"
#include "store/db.h"
#include "util/error.h"

/* Where a bundle job failed, which says how its error reads. */
enum pl_flow_stage {
	PL_FLOW_AT_ARGS = 0,    /* the command's arguments or the definition's entries:
	                           err's message is about the command ("perfledger: report: ...") */
	PL_FLOW_AT_INPUT = 1,   /* reading the definition, the ledger or writing the
	                           bundle: err is located (file, line) and shown as is */
	PL_FLOW_AT_COMPARE = 2, /* the comparison: PL_EMISMATCH (job->cmp holds the
	                           refusal), PL_EEMPTY, or its error */
	PL_FLOW_AT_LEDGER = 3   /* querying the ledger: err as the store gave it */
};

/* One bundle to render. Zero it, then pl_flow_bundle_load(); release with
 * pl_flow_bundle_release() whatever happened. */
struct pl_flow_bundle {
	struct pl_report_spec spec;   /* the definition, with --as-of and --since added */
	struct pl_selection sel;      /* its selection */
	const char *spec_path;        /* borrowed: the definition's path (in messages) */
	const char *lang;             /* borrowed: "en" or "zh-CN" */
	long long epoch;              /* SOURCE_DATE_EPOCH of the bundle */
	struct pl_comparison cmp;     /* after pl_flow_bundle_render(): the comparison
	                                 (on PL_EMISMATCH, the refusal's mismatches) */
	enum pl_flow_stage stage;     /* where the last call failed */
};

/* Checks the arguments and loads the definition at spec_path (borrowed;
 * must outlive job) with as_of (a UTC time "YYYY-MM-DDTHH:MM:SSZ", or
 * NULL) and since (a bundle directory, whose manifest.json gives its
 * bundle id and as-of time, or "ID@TIME", or NULL) added to it
 * (pl_spec_add_inputs), in lang ("en" or "zh-CN"), with epoch as
 * SOURCE_DATE_EPOCH (-1: from the environment, else now). Returns 0, or a
 * PL_E* code with err filled and job->stage saying how it reads. */
int pl_flow_bundle_load(struct pl_flow_bundle *job, const char *spec_path, const char *lang,
                        long long epoch, const char *as_of, const char *since,
                        struct pl_error *err);

/* Renders the loaded job from the ledger st into out_dir: fresh, out_dir
 * is an empty directory the caller made (verify's re-render:
 * pl_bundle_write_fresh), else it is replaced atomically
 * (pl_bundle_write). The runs are put in the bundle's order with their
 * trails (pl_bundle_runs_canonical), wound back to the definition's
 * "as_of" or, when it has none, to wind_to (or NULL: not wound; verify's
 * check of a superseded bundle against its own as-of time, not recorded)
 * and, with "since", the errata made. Returns 0, or a PL_E* code with err
 * filled and job->stage saying where (PL_FLOW_AT_COMPARE with
 * PL_EMISMATCH: job->cmp holds the refusal). */
int pl_flow_bundle_render(struct pl_flow_bundle *job, struct pl_store *st, const char *out_dir,
                          int fresh, const char *wind_to, struct pl_error *err);

/* Frees what job owns; a zeroed job is a no-op. */
void pl_flow_bundle_release(struct pl_flow_bundle *job);

#endif
