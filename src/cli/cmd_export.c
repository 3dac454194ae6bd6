/*
 * cmd_export.c — `perfledger export`: the ledger as JSONL, one run per
 * line (src/render/export.c), which `perfledger import` reads back into an
 * equal ledger. Runs are streamed from the store one at a time, so memory
 * does not grow with the ledger; with --out the file is written through a
 * temporary file and renamed, so it is whole or absent.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/carried.h"
#include "core/requests.h"
#include "render/render.h"
#include "store/requests.h"
#include "util/fsutil.h"

static const char usage_text[] =
	"usage: perfledger export [--where FIELD=VALUE]... [--out FILE]\n"
	"\n"
	"Writes every stored run (or those --where selects, as in 'list') as JSONL,\n"
	"one descriptor per line: every condition (extra conditions under \"extras\"),\n"
	"every metric in canonical names and units, the provenance (source path,\n"
	"sha256, record, adapter, format version, import time, record identity), the\n"
	"build identity (commit, branch, build_id, ci_run_url), and the run's accepted\n"
	"steps (author, revocation), revisions (amend) and retractions; retracted runs\n"
	"are exported too.\n"
	"'perfledger import FILE' reads it back: the same runs, the same provenance\n"
	"and trail, and exporting that ledger gives the same bytes. Without --out the\n"
	"lines go to standard output; with --out FILE they replace FILE whole (a\n"
	"FIFO or device such as /dev/stdout is written into, never replaced).\n"
	"--summary json adds one JSON object counting what was written: on standard\n"
	"error when the lines go to standard output, on standard output with --out.\n"
	"\n";

struct export_ctx {
	struct pl_store *st;             /* the ledger */
	const struct pl_filter *filters; /* --where */
	size_t nfilters;                 /* entries */
	struct pl_carried all;           /* every accepted step, revision and retraction,
	                                    each list ordered by run id */
	size_t next[3];                  /* per list, the first entry not yet written */
	FILE *out;                       /* where lines go */
	int any_requests;                /* 1: some run has requests (read per run) */
	size_t runs, retracted;          /* written, and of them retracted */
	size_t steps, revisions, retractions; /* trail records written with them */
};

/* The entries of a list (v, n, element size, run id offset) from next[k]
 * that belong to run id: *first and the count. */
#define SLICE(list, k, id, view)                                                      \
	do {                                                                              \
		while (c->next[k] < (list).n && (list).v[c->next[k]].run_id < (id))           \
			c->next[k]++; /* rows of runs --where left out */                         \
		(view).v = (list).v + c->next[k];                                             \
		(view).n = 0;                                                                 \
		while (c->next[k] < (list).n && (list).v[c->next[k]].run_id == (id)) {        \
			c->next[k]++;                                                             \
			(view).n++;                                                               \
		}                                                                             \
	} while (0)

static int write_run(void *vctx, const struct pl_run *run, struct pl_error *err)
{
	struct export_ctx *c = vctx;
	struct pl_carried view; /* slices of c->all: borrowed, never released */
	struct pl_run line = *run; /* run with its requests: a shallow view */
	int rc;

	memset(&view, 0, sizeof(view));
	if (c->any_requests && (rc = pl_store_read_requests(c->st, run->id, &line.requests, err)))
		return rc;
	SLICE(c->all.accepted, 0, run->id, view.accepted);
	SLICE(c->all.revisions, 1, run->id, view.revisions);
	SLICE(c->all.retractions, 2, run->id, view.retractions);
	rc = pl_render_export_run(c->out, &line, &view);
	pl_requests_free(line.requests);
	if (rc)
		return pl_error_set(err, PL_EIO, "cannot write the export: %s",
		                    "write error (disk full?)");
	c->runs++;
	c->retracted += run->retracted != 0;
	c->steps += view.accepted.n;
	c->revisions += view.revisions.n;
	c->retractions += view.retractions.n;
	return 0;
}

static int write_all(FILE *out, void *vctx, struct pl_error *err)
{
	struct export_ctx *c = vctx;

	c->out = out;
	memset(c->next, 0, sizeof(c->next));
	c->runs = c->retracted = c->steps = c->revisions = c->retractions = 0; /* a retried write */
	return pl_store_each_run(c->st, c->filters, c->nfilters, write_run, c, err);
}

int cmd_export(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_selection sel;
	struct pl_error err;
	struct pl_store *st = NULL;
	const char *out = NULL;
	int argi, rc = PL_EXIT_USAGE, json = 0;
	const struct pl_option options[] = {
		PL_OPT_CALLBACK_ENTRY("where", 0, "FIELD=VALUE", &sel, pl_sel_opt_where, NULL),
		PL_OPT_STRING_ENTRY("out", 0, "FILE", &out, NULL),
		PL_OPT_CALLBACK_ENTRY("summary", 0, "F", &json, pl_cli_opt_summary, NULL),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "export",
		.head = usage_text,
		.options = options,
		.no_operands = 1,
	};
	struct export_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	memset(&sel, 0, sizeof(sel));
	pl_error_init(&err);
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	if (out && !*out) {
		pl_cli_errorf("export", "--out needs a FILE");
		goto out;
	}
	st = pl_cli_open_store(cli, PL_CLI_STORE_READ);
	if (!st)
		goto out;
	ctx.st = st;
	ctx.filters = sel.filters;
	ctx.nfilters = sel.nfilters;
	pl_store_set_retracted_mode(st, PL_RETRACTED_ALL); /* retracted runs too, marked */
	if (pl_store_has_requests(st, &ctx.any_requests, &err) ||
	    pl_store_accepted_steps_all(st, &ctx.all.accepted, &err) ||
	    pl_store_revisions(st, 0, &ctx.all.revisions, &err) ||
	    pl_store_retractions(st, 0, &ctx.all.retractions, &err) ||
	    (out ? pl_fs_write_atomic(out, write_all, &ctx, &err) : write_all(stdout, &ctx, &err))) {
		pl_cli_print_error(&err);
		rc = pl_cli_exit_for(err.code);
		goto out;
	}
	if (json) { /* on stderr when the data is on stdout */
		FILE *f = out ? stdout : stderr;
		fputs("{\"command\": \"export\", \"out\": ", f);
		if (out)
			pl_json_write_string(f, out);
		else
			fputs("null", f);
		fprintf(f, ", \"runs\": %zu, \"retracted\": %zu, \"accepted_steps\": %zu, \"revisions\": %zu, "
		           "\"retractions\": %zu}\n",
		        ctx.runs, ctx.retracted, ctx.steps, ctx.revisions, ctx.retractions);
	}
	rc = PL_EXIT_OK;
out:
	pl_store_close(st);
	pl_accepted_list_release(&ctx.all.accepted);
	pl_revision_list_release(&ctx.all.revisions);
	pl_retraction_list_release(&ctx.all.retractions);
	pl_selection_release(&sel);
	return rc;
}
