/*
 * cmd_compare.c — `perfledger compare`: like with like, or a refusal that
 * names every mismatched condition.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "render/refusal.h"
#include "render/render.h"
#include "render/words.h"

static const char usage_text[] =
	"usage: perfledger compare --axis FIELD[,FIELD...] [--where FIELD=VALUE]...\n"
	"                          [--metric NAME]... [--allow-mismatch FIELD]...\n"
	"                          [--slo ttft=S,tpot=S,e2el=S,itl=S]\n"
	"                          [--format text|markdown|csv|json]\n"
	"\n"
	"Compares the selected runs along the axis: the condition(s) meant to differ.\n"
	"Fields that travel with an axis field may differ from row to row with it,\n"
	"never inside one row (hardware: its accelerator count, parallelism, driver,\n"
	"CUDA, prices, engine_args and what it sets; engine: engine_version,\n"
	"engine_args and what it sets; see\n"
	"'perfledger list --help'). Every other condition, and every extra condition\n"
	"a file recorded (FORMAT.key), must be equal in all selected runs, else the\n"
	"comparison is refused (exit 3) and each mismatched field is listed with its\n"
	"values and the runs holding each (--format json: also as JSON on stdout).\n"
	"Missing is not equal to known. Runs with errors (error_rate > 0) are\n"
	"not compared with runs without (0) or of unknown error rate unless\n"
	"--allow-mismatch error_rate is given (then a caveat).\n"
	"Runs with the same axis values form one row: n runs, each metric their median\n"
	"with its spread (min-max) when two or more runs have it, and the change in\n"
	"percent against the first row (with several axis fields, the first row with\n"
	"the same values in all but the first: hardware,concurrency compares each\n"
	"accelerator with the first one at the same concurrency).\n"
	"With --slo (the limits of 'perfledger requests --slo'), each row also gets\n"
	"slo_attainment, goodput and goodput_output_throughput counted from its runs'\n"
	"stored requests, pooled like the metrics (the median over its runs, with\n"
	"their spread); a run without stored requests is n/a there, with a caveat.\n"
	"\n";

static const char usage_tail[] =
	"\n"
	"Metrics (canonical units):\n";

/* The metrics, after the usage text. */
static void print_metrics(FILE *f)
{
	size_t width = 0; /* the longest name sets the column */
	for (int i = 0; i < PL_METRIC_COUNT; i++)
		if (strlen(pl_metric_info[i].name) > width)
			width = strlen(pl_metric_info[i].name);
	for (int i = 0; i < PL_METRIC_COUNT; i++)
		fprintf(f, "  %-*s  %s (%s)\n", (int)width, pl_metric_info[i].name, pl_metric_info[i].description,
		        pl_unit_label(pl_metric_info[i].unit));
}

int cmd_compare(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_selection sel;
	struct pl_comparison cmp;
	enum pl_table_format fmt = PL_FMT_TEXT;
	struct pl_error err;
	struct pl_store *st = NULL;
	int argi, rc = PL_EXIT_USAGE;
	const struct pl_option options[] = {
		PL_OPT_CALLBACK_ENTRY("axis", 0, "FIELD[,FIELD]", &sel, pl_sel_opt_axis,
		                      "condition(s) that may differ (required)"),
		PL_OPT_CALLBACK_ENTRY("where", 0, "FIELD=VALUE", &sel, pl_sel_opt_where,
		                      "select runs (repeatable; ANDed); FIELD= selects the\n"
		                      "runs where FIELD is missing"),
		PL_OPT_CALLBACK_ENTRY("metric", 0, "NAME[,NAME]", &sel, pl_sel_opt_metric,
		                      "metrics to show (default: the headline set)"),
		PL_OPT_CALLBACK_ENTRY("allow-mismatch", 0, "FIELD", &sel, pl_sel_opt_allow,
		                      "let FIELD (or an extra, FORMAT.key) differ anyway;\n"
		                      "printed as a caveat (error_rate: compare runs with\n"
		                      "and without errors)"),
		PL_OPT_CALLBACK_ENTRY("slo", 0, "LIMITS", &sel, pl_sel_opt_slo,
		                      "ttft=S,tpot=S,e2el=S,itl=S (seconds, any subset):\n"
		                      "add each row's attainment and goodput at this\n"
		                      "per-request SLO, from its runs' stored requests"),
		PL_OPT_CALLBACK_ENTRY("format", 0, "F", &fmt, pl_cli_opt_format,
		                      "text (default), markdown, csv or json (csv: the\n"
		                      "caveats go to stderr)"),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "compare",
		.head = usage_text,
		.options = options,
		.width = 24,
		.tail = usage_tail,
		.more = print_metrics,
		.no_operands = 1,
	};

	memset(&sel, 0, sizeof(sel));
	memset(&cmp, 0, sizeof(cmp));
	pl_error_init(&err);
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	if (!sel.have_axis) {
		pl_cli_errorf("compare", "--axis FIELD is required (e.g. --axis hardware)");
		goto out;
	}
	st = pl_cli_open_store(cli, PL_CLI_STORE_READ);
	if (!st)
		goto out;
	rc = pl_cli_build_comparison(st, &sel, "compare", NULL, &cmp);
	if (rc == PL_EXIT_REFUSED && fmt == PL_FMT_JSON && pl_render_refusal_json(stdout, &cmp, &err)) {
		/* the refusal as data too, for a script reading stdout */
		pl_cli_print_error(&err);
		goto out;
	}
	if (rc)
		goto out;
	if (pl_render_comparison(stdout, &cmp, fmt, &err)) {
		pl_cli_print_error(&err);
		rc = PL_EXIT_USAGE;
		goto out;
	}
	/* CSV has no place for sentences: its caveats go to stderr, so that
	 * a comparison piped into a spreadsheet still warns its reader */
	for (size_t i = 0; fmt == PL_FMT_CSV && i < cmp.caveats.n; i++) {
		char *t = pl_words_msg(&cmp.caveats.v[i], PL_LANG_EN);
		pl_cli_errorf("compare", "caveat: %s", t ? t : "(out of memory)");
		free(t);
	}
	rc = PL_EXIT_OK;
out:
	pl_store_close(st);
	pl_comparison_release(&cmp);
	pl_selection_release(&sel);
	return rc;
}
