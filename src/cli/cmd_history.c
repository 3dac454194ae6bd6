/*
 * cmd_history.c — `perfledger history`: one metric of one condition key
 * over time or versions, its steps, and a gnuplot chart. The work is in
 * core/history.c and render/history_plot.c.
 */
#include <stdio.h>
#include <string.h>

#include "cli/ci_output.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "core/history.h"
#include "render/ci_format.h"
#include "render/history_plot.h"
#include "render/regress.h"
#include "util/fsutil.h"

static const char usage_text[] =
	"usage: perfledger history --metric NAME [--where FIELD=VALUE]...\n"
	"                          [--by run_started_at|engine_version|driver_version]\n"
	"                          [--allow-mismatch FIELD]...\n"
	"                          [--format text|markdown|json|junit|github]\n"
	"                          [--out DIR] [--fail-on-step]\n"
	"\n"
	"The series of one metric for one condition key: the selected runs must share\n"
	"every condition of the key except the --by field (the comparator's rules with\n"
	"--by as the axis; else refused, exit 3). Runs with the same --by value form a\n"
	"point: n, median and the 95% interval of the median. Points are ordered by time\n"
	"(run_started_at, the default) or in natural version order.\n"
	"Steps (level shifts) are found over the point medians by an exact penalised\n"
	"L1 piecewise-constant fit (as asv does; penalty 2.5 sigma ln n, sigma a robust\n"
	"noise estimate; 4 points at least), each reported with the levels before and\n"
	"after it and the first run after it. Mark a step as expected with\n"
	"'perfledger accept --run ID --metric NAME --reason TEXT'.\n"
	"\n";

/* --by FIELD: run_started_at, engine_version or driver_version, into the
 * int *by (a condition id). */
static int opt_by(void *by, const char *arg, const char *cmd)
{
	int c = pl_cond_lookup(arg);

	if (c == PL_C_NONE || !pl_history_by_valid(c)) {
		pl_cli_errorf(cmd, "bad --by '%s': expected run_started_at, engine_version or "
		                   "driver_version", arg);
		return PL_EXIT_USAGE;
	}
	*(int *)by = c;
	return 0;
}

int cmd_history(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_selection sel;
	struct pl_history h;
	struct pl_run_list runs;
	struct pl_accepted_list acc = {0};
	struct pl_out_format fmt = {PL_FMT_TEXT, PL_CI_NONE};
	struct pl_error err;
	struct pl_store *st = NULL;
	const char *out_dir = NULL;
	int argi, rc = PL_EXIT_USAGE, by = PL_C_RUN_STARTED_AT, fail_on_step = 0;
	const struct pl_option options[] = {
		PL_OPT_CALLBACK_ENTRY("metric", 0, "NAME", &sel, pl_sel_opt_metric,
		                      "the metric (required)"),
		PL_OPT_CALLBACK_ENTRY("where", 0, "FIELD=VALUE", &sel, pl_sel_opt_where,
		                      "select runs (repeatable; ANDed); FIELD= selects the\n"
		                      "runs where FIELD is missing"),
		PL_OPT_CALLBACK_ENTRY("by", 0, "FIELD", &by, opt_by,
		                      "run_started_at (default), engine_version or driver_version"),
		PL_OPT_CALLBACK_ENTRY("allow-mismatch", 0, "FIELD", &sel, pl_sel_opt_allow,
		                      "let FIELD differ anyway; printed as a caveat"),
		PL_OPT_CALLBACK_ENTRY("format", 0, "F", &fmt, pl_cli_opt_format_ci,
		                      PL_CLI_FORMAT_CI_HELP),
		PL_OPT_STRING_ENTRY("out", 0, "DIR", &out_dir,
		                    "also write DIR/history.gp, .dat, .svg and .png (gnuplot)"),
		PL_OPT_FLAG_ENTRY("fail-on-step", 0, &fail_on_step,
		                  "exit 1 if a step is not accepted and goes the worse way\n"
		                  "(any step, for a metric without a direction)"),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "history",
		.head = usage_text,
		.options = options,
		.width = 24,
		.unknown_fmt = "unknown or incomplete option '%s'",
		.on_error = PL_USAGE_SEE_HELP,
		.no_operands = 1,
	};

	memset(&sel, 0, sizeof(sel));
	memset(&h, 0, sizeof(h));
	pl_run_list_init(&runs);
	pl_error_init(&err);
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	if (sel.opts.nmetrics != 1) {
		pl_cli_errorf("history", "--metric NAME is required, exactly one (e.g. --metric ttft_p50)");
		goto out;
	}
	st = pl_cli_open_store(cli, PL_CLI_STORE_READ);
	if (!st)
		goto out;
	if (pl_store_query(st, sel.filters, sel.nfilters, &runs, &err) ||
	    pl_store_accepted_steps(st, sel.opts.metrics[0], &acc, &err)) {
		pl_cli_print_error(&err);
		goto out;
	}
	switch (pl_history_build(&runs, by, sel.opts.metrics[0], &sel.opts, &acc, &h,
	                         &err)) {
	case 0:
		break;
	case PL_EMISMATCH:
		rc = pl_cli_print_refusal("history", &h.cmp);
		if (pl_cli_ci_refusal("history", &fmt, &h.cmp))
			rc = PL_EXIT_USAGE;
		goto out;
	case PL_EEMPTY:
		pl_cli_errorf("history", "%s",
		              runs.n ? err.message : "no runs match the selection");
		goto out;
	default:
		pl_cli_print_error(&err);
		rc = pl_cli_exit_for(err.code);
		goto out;
	}
	if (fmt.ci == PL_CI_JUNIT ? pl_render_history_junit(stdout, &h, &err)
	    : fmt.ci == PL_CI_GITHUB ? pl_cli_ci_github("history", NULL, &h, &err)
	                             : pl_render_history(stdout, &h, fmt.table, &err)) {
		if (err.code)
			pl_cli_print_error(&err);
		goto out;
	}
	if (out_dir) {
		if (pl_fs_mkdirs(out_dir, &err)) { /* as report's bundle directory: mkdir -p */
			pl_cli_errorf("history", "%s", err.message);
			goto out;
		}
		if (pl_plot_history(out_dir, &h, &err)) {
			pl_cli_print_error(&err);
			goto out;
		}
	}
	rc = fail_on_step && h.nfailing ? PL_EXIT_REGRESSION : PL_EXIT_OK;
out:
	pl_store_close(st);
	pl_history_release(&h);
	pl_accepted_list_release(&acc);
	pl_run_list_release(&runs);
	pl_sel_release(&sel);
	return rc;
}
