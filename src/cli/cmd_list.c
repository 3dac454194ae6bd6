/*
 * cmd_list.c — `perfledger list`: the stored runs, filtered.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "render/render.h"

static const char usage_text[] =
	"usage: perfledger list [--where FIELD=VALUE]... [--retracted] [--history]\n"
	"                       [--format text|json|csv|markdown]\n"
	"\n"
	"Lists stored runs. --where selects runs whose condition FIELD equals VALUE\n"
	"after normalization (bf16 = bfloat16, vLLM = vllm); several are ANDed;\n"
	"--where FIELD= selects the runs where FIELD is missing. FIELD may also be\n"
	"an extra condition FORMAT.key that a file recorded and no field below\n"
	"holds (e.g. vllm-serving.best_of), matched as stored.\n"
	"--format json prints every condition and metric with canonical names and\n"
	"units (seconds, tokens/s, requests/s, fraction), and a run's extra\n"
	"conditions as \"extras\"; the other formats show them in an extras column\n"
	"when a listed run has any.\n"
	"Retracted runs are left out; --retracted lists only them. --history adds\n"
	"each listed run's trail (amends with old -> new values, retractions,\n"
	"restores; text or json, as 'perfledger show ID' prints it).\n"
	"\n"
	"Condition fields. Each is compared: runs that differ in one never share a\n"
	"comparison row (refused, exit 3, unless --allow-mismatch FIELD); so is each\n"
	"extra condition a file recorded (FORMAT.key). [per run]: not compared.\n"
	"[travels with X]: may differ from row to row when X is on the axis, never\n"
	"inside one row.\n";

/* The condition fields, after the usage text. */
static void print_conditions(FILE *f)
{
	size_t width = 0; /* the longest name sets the column */
	for (int i = 0; i < PL_COND_COUNT; i++)
		if (strlen(pl_cond_info[i].name) > width)
			width = strlen(pl_cond_info[i].name);
	for (int i = 0; i < PL_COND_COUNT; i++) {
		const struct pl_cond_info *c = &pl_cond_info[i];
		fprintf(f, "  %-*s  %s", (int)width, c->name, c->description);
		if (!(c->flags & PL_CF_KEY))
			fputs(" [per run]", f);
		if (c->travels_with != PL_C_NONE)
			fprintf(f, " [travels with %s%s%s]", pl_cond_info[c->travels_with].name,
			        c->travels_with2 != PL_C_NONE ? ", " : "",
			        c->travels_with2 != PL_C_NONE ? pl_cond_info[c->travels_with2].name : "");
		fputc('\n', f);
	}
}

int cmd_list(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_selection sel;
	struct pl_run_list runs;
	enum pl_table_format fmt = PL_FMT_TEXT;
	struct pl_error err;
	struct pl_store *st = NULL;
	struct pl_revision_list revs = {0};
	struct pl_retraction_list rets = {0};
	int argi, rc = PL_EXIT_USAGE, retracted = 0, history = 0;
	const struct pl_option options[] = {
		PL_OPT_CALLBACK_ENTRY("where", 0, "FIELD=VALUE", &sel, pl_sel_opt_where, NULL),
		PL_OPT_FLAG_ENTRY("retracted", 0, &retracted, NULL),
		PL_OPT_FLAG_ENTRY("history", 0, &history, NULL),
		PL_OPT_CALLBACK_ENTRY("format", 0, "F", &fmt, pl_cli_opt_format, NULL),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "list",
		.head = usage_text,
		.options = options,
		.more = print_conditions,
		.no_operands = 1,
	};

	memset(&sel, 0, sizeof(sel));
	pl_run_list_init(&runs);
	pl_error_init(&err);
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	if (history && fmt != PL_FMT_TEXT && fmt != PL_FMT_JSON) {
		pl_cli_errorf("list", "--history prints text or json");
		goto out;
	}
	st = pl_cli_open_store(cli, PL_CLI_STORE_READ);
	if (!st)
		goto out;
	pl_store_set_retracted_mode(st, retracted ? PL_RETRACTED_ONLY : PL_RETRACTED_HIDE);
	if (pl_store_query(st, sel.filters, sel.nfilters, &runs, &err) ||
	    (history && (pl_store_revisions(st, 0, &revs, &err) ||
	                 pl_store_retractions(st, 0, &rets, &err))) ||
	    (history ? pl_render_runs_history(stdout, &runs, &revs, &rets, fmt, &err)
	             : pl_render_runs(stdout, &runs, fmt, &err))) {
		pl_cli_print_error(&err);
		goto out;
	}
	rc = PL_EXIT_OK;
out:
	pl_revision_list_release(&revs);
	pl_retraction_list_release(&rets);
	pl_store_close(st);
	pl_run_list_release(&runs);
	pl_selection_release(&sel);
	return rc;
}
