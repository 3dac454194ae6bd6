/*
 * cmd_history.c — `perfledger history`: one metric of one condition key
 * over time or versions, its steps, and a gnuplot chart. The work is in
 * flow/history_flow.c (pl_flow_history), core/history.c and
 * render/history_plot.c; this file parses options and prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ci_output.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "core/history.h"
#include "flow/history_flow.h"
#include "render/ci_format.h"
#include "render/history_plot.h"
#include "render/regress.h"
#include "util/fsutil.h"

static const char usage_text[] =
	"usage: perfledger history --metric NAME[,NAME]... [--where FIELD=VALUE]...\n"
	"                          [--group-by run|day|build|commit|engine_version|driver_version]\n"
	"                          [--allow-mismatch FIELD]...\n"
	"                          [--format text|markdown|json|junit|github]\n"
	"                          [--out DIR] [--fail-on-step]\n"
	"\n"
	"The series of one metric for one condition key: the selected runs must share\n"
	"every condition of the key except the --by field (the comparator's rules with\n"
	"--by as the axis; else refused, exit 3). Runs with the same --by value form a\n"
	"point: n, median and the 95% interval of the median. --group-by pools runs into\n"
	"points: run (each run_started_at a point, the default), day (UTC date of\n"
	"run_started_at), build or commit (build identity), ordered by time and drawn\n"
	"to scale in time;\n"
	"or engine_version / driver_version, in natural version order. (--by\n"
	"run_started_at|engine_version|driver_version is the older spelling.)\n"
	"Steps (level shifts) are found over the point medians by an exact penalised\n"
	"L1 piecewise-constant fit (as asv does; penalty 2.5 sigma ln n, sigma a robust\n"
	"noise estimate; 4 points at least), each reported with the levels before and\n"
	"after it and the first run after it. A step needs two points at its new level;\n"
	"so that a regression fails on its first night, the latest point is also judged\n"
	"against the 20 points before it (as 'check --baseline window:20 --candidate\n"
	"latest'). Mark a step as expected with\n"
	"'perfledger accept --run ID --metric NAME --reason TEXT'.\n"
	"Several metrics: one history each, in order; with --out, DIR/METRIC/history.*.\n"
	"\n";

/* --by FIELD: run_started_at, engine_version or driver_version, into the
 * int *by (a condition id). */
static int opt_by(void *group, const char *arg, const char *cmd)
{
	int c = pl_cond_lookup(arg);

	if (c == PL_C_NONE || !pl_history_by_valid(c)) {
		pl_cli_errorf(cmd, "bad --by '%s': expected run_started_at, engine_version or "
		                   "driver_version", arg);
		return PL_EXIT_USAGE;
	}
	*(int *)group = pl_group_of_by(c);
	return 0;
}

/* --group-by G, into the int *group (enum pl_group). */
static int opt_group(void *group, const char *arg, const char *cmd)
{
	int g = pl_group_lookup(arg);

	if (g < 0) {
		pl_cli_errorf(cmd, "bad --group-by '%s': expected run, day, build, commit, "
		                   "engine_version or driver_version", arg);
		return PL_EXIT_USAGE;
	}
	*(int *)group = g;
	return 0;
}

/* The CI formats of the histories hs[0..nh) (nothing for a table format).
 * Returns 0, or nonzero with err set (err.code 0: printed already). */
static int render_ci(struct pl_history *hs, size_t nh, const struct pl_out_format *fmt,
                     struct pl_error *err)
{
	return fmt->ci == PL_CI_JUNIT    ? pl_render_history_junit(stdout, hs, nh, err)
	       : fmt->ci == PL_CI_GITHUB ? pl_cli_ci_github("history", NULL, hs, nh, err)
	                                 : 0;
}

/* The gnuplot chart of h into out_dir (DIR/METRIC with several metrics),
 * made as report's bundle directory is (mkdir -p). Returns 0, or -1
 * printed. */
static int write_plot(const char *out_dir, int several, const struct pl_history *h)
{
	struct pl_error err;
	char *dir = several ? pl_fs_path(out_dir, pl_metric_info[h->metric].name) : strdup(out_dir);
	int bad = !dir;

	pl_error_init(&err);
	if (bad)
		pl_cli_errorf("history", "out of memory");
	else if ((bad = pl_fs_mkdirs(dir, &err) != 0))
		pl_cli_errorf("history", "%s", err.message);
	else if ((bad = pl_plot_history(dir, h, &err) != 0))
		pl_cli_print_error(&err);
	free(dir);
	return bad ? -1 : 0;
}

/* Prints why pl_flow_history() returned rc (nonzero), having stopped at
 * res->stage. Returns the exit code. */
static int print_failure(int rc, const struct pl_history_outcome *res,
                         const struct pl_out_format *fmt, const struct pl_error *err)
{
	if (res->stage == PL_HISTORY_BUILDING && !res->hs) {
		pl_cli_errorf("history", "out of memory");
		return PL_EXIT_USAGE;
	}
	if (res->stage == PL_HISTORY_BUILDING && rc == PL_EMISMATCH) {
		const struct pl_comparison *cmp = &res->hs[res->nh - 1].cmp;
		rc = pl_cli_print_refusal("history", cmp);
		return pl_cli_ci_refusal("history", fmt, cmp) ? PL_EXIT_USAGE : rc;
	}
	if (res->stage == PL_HISTORY_BUILDING && rc == PL_EEMPTY) {
		pl_cli_errorf("history", "%s", err->message);
		return PL_EXIT_USAGE;
	}
	pl_cli_print_error(err);
	return res->stage == PL_HISTORY_LOADING ? PL_EXIT_USAGE : pl_cli_exit_for(err->code);
}

/* Writes the histories of res in fmt (with out_dir, their charts too).
 * Returns the exit code. */
static int print_histories(const struct pl_history_outcome *res, const struct pl_out_format *fmt,
                           const char *out_dir, int fail_on_step)
{
	struct pl_error err;
	size_t failing = 0;
	int json = fmt->ci == PL_CI_NONE && fmt->table == PL_FMT_JSON && res->nh > 1;

	pl_error_init(&err);
	for (size_t k = 0; k < res->nh; k++) {
		struct pl_history *h = &res->hs[k];

		if (fmt->ci == PL_CI_NONE) { /* the CI formats write every metric at the end */
			if (k > 0)
				fputs(fmt->table == PL_FMT_JSON ? ", " : "\n", stdout);
			if (pl_render_history(stdout, h, fmt->table, &err)) {
				pl_cli_print_error(&err);
				return PL_EXIT_USAGE;
			}
		}
		if (out_dir && write_plot(out_dir, res->nh > 1, h))
			return PL_EXIT_USAGE;
		failing += h->nfailing;
	}
	if (json)
		fputs("]\n", stdout);
	if (render_ci(res->hs, res->nh, fmt, &err)) {
		if (err.code)
			pl_cli_print_error(&err);
		return PL_EXIT_USAGE;
	}
	return fail_on_step && failing ? PL_EXIT_REGRESSION : PL_EXIT_OK;
}

int cmd_history(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_selection sel;
	struct pl_history_outcome res;
	struct pl_out_format fmt = {PL_FMT_TEXT, PL_CI_NONE};
	struct pl_error err;
	struct pl_store *st = NULL;
	const char *out_dir = NULL;
	int argi, rc = PL_EXIT_USAGE, group = PL_G_RUN, fail_on_step = 0;
	const struct pl_option options[] = {
		PL_OPT_CALLBACK_ENTRY("metric", 0, "NAME[,NAME]", &sel, pl_sel_opt_metric,
		                      "the metrics (required; repeatable)"),
		PL_OPT_CALLBACK_ENTRY("where", 0, "FIELD=VALUE", &sel, pl_sel_opt_where,
		                      "select runs (repeatable; ANDed); FIELD= selects the\n"
		                      "runs where FIELD is missing"),
		PL_OPT_CALLBACK_ENTRY("group-by", 0, "G", &group, opt_group,
		                      "run (default), day, build, commit, engine_version\n"
		                      "or driver_version"),
		PL_OPT_CALLBACK_ENTRY("by", 0, "FIELD", &group, opt_by,
		                      "run_started_at, engine_version or driver_version (older\n"
		                      "spelling of --group-by run / engine_version / driver_version)"),
		PL_OPT_CALLBACK_ENTRY("allow-mismatch", 0, "FIELD", &sel, pl_sel_opt_allow,
		                      "let FIELD differ anyway; printed as a caveat"),
		PL_OPT_CALLBACK_ENTRY("format", 0, "F", &fmt, pl_cli_opt_format_ci,
		                      PL_CLI_FORMAT_CI_HELP),
		PL_OPT_STRING_ENTRY("out", 0, "DIR", &out_dir,
		                    "also write DIR/history.gp, .dat, .svg and .png (gnuplot)"),
		PL_OPT_FLAG_ENTRY("fail-on-step", 0, &fail_on_step,
		                  "exit 1 if a step is not accepted and goes the worse way\n"
		                  "(either way, for a metric without a direction) by more\n"
		                  "than 5%, or the latest point is a regression"),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "history",
		.head = usage_text,
		.options = options,
		.width = 24,
		.no_operands = 1,
	};

	memset(&sel, 0, sizeof(sel));
	memset(&res, 0, sizeof(res));
	pl_error_init(&err);
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	if (sel.opts.nmetrics < 1) {
		pl_cli_errorf("history", "--metric NAME is required (e.g. --metric ttft_p50, or "
		                         "--metric ttft_p50,output_throughput)");
		goto out;
	}
	st = pl_cli_open_store(cli, PL_CLI_STORE_READ);
	if (!st)
		goto out;
	rc = pl_flow_history(st, &sel, group, &res, &err);
	/* several metrics in JSON: an array, opened once the histories are begun */
	if (res.hs && fmt.ci == PL_CI_NONE && fmt.table == PL_FMT_JSON && sel.opts.nmetrics > 1)
		fputc('[', stdout);
	rc = rc ? print_failure(rc, &res, &fmt, &err)
	        : print_histories(&res, &fmt, out_dir, fail_on_step);
out:
	pl_store_close(st);
	pl_flow_history_release(&res);
	pl_selection_release(&sel);
	return rc;
}
