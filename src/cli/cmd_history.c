/*
 * cmd_history.c — `perfledger history`: one metric of one condition key
 * over time or versions, its steps, and a gnuplot chart. The work is in
 * core/history.c and render/history_plot.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cli/cli.h"
#include "core/history.h"
#include "render/history_plot.h"
#include "render/regress.h"

static const char usage_text[] =
	"usage: perfledger history --metric NAME [--where FIELD=VALUE]...\n"
	"                          [--by run_started_at|engine_version|driver_version]\n"
	"                          [--allow-mismatch FIELD]... [--format text|markdown|json]\n"
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
	"\n"
	"  --metric NAME           the metric (required)\n"
	"  --where FIELD=VALUE     select runs (repeatable; ANDed); FIELD= selects the\n"
	"                          runs where FIELD is missing\n"
	"  --by FIELD              run_started_at (default), engine_version or driver_version\n"
	"  --allow-mismatch FIELD  let FIELD differ anyway; printed as a caveat\n"
	"  --format F              text (default), markdown or json\n"
	"  --out DIR               also write DIR/history.gp, .dat, .svg and .png (gnuplot)\n"
	"  --fail-on-step          exit 1 if a step is not accepted and goes the worse way\n"
	"                          (any step, for a metric without a direction)\n";

int cmd_history(const struct pl_cli *cli, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"metric", required_argument, NULL, 'm'},
		{"where", required_argument, NULL, 'w'},
		{"by", required_argument, NULL, 'b'},
		{"allow-mismatch", required_argument, NULL, 'A'},
		{"format", required_argument, NULL, 'f'},
		{"out", required_argument, NULL, 'o'},
		{"fail-on-step", no_argument, NULL, 'F'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct pl_selection sel;
	struct pl_history h;
	struct pl_run_list runs;
	struct pl_accepted_list acc = {0};
	enum pl_table_format fmt = PL_FMT_TEXT;
	struct pl_error err;
	struct pl_store *st = NULL;
	const char *out_dir = NULL;
	int c, rc = PL_EXIT_USAGE, by = PL_C_RUN_STARTED_AT, fail_on_step = 0;

	memset(&sel, 0, sizeof(sel));
	memset(&h, 0, sizeof(h));
	pl_run_list_init(&runs);
	pl_error_init(&err);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		int shared = pl_sel_option(&sel, "history", c, optarg);
		if (shared < 0)
			goto out;
		if (shared > 0)
			continue;
		switch (c) {
		case 'b':
			by = pl_cond_lookup(optarg);
			if (by == PL_C_NONE || !pl_history_by_valid(by)) {
				pl_cli_errorf("history", "bad --by '%s': expected run_started_at, "
				                         "engine_version or driver_version", optarg);
				goto out;
			}
			break;
		case 'f':
			if (pl_table_format_parse(optarg, &fmt, &err) || fmt == PL_FMT_CSV) {
				pl_cli_errorf("history", "bad --format '%s': expected text, markdown or json",
				              optarg);
				goto out;
			}
			break;
		case 'o':
			out_dir = optarg;
			break;
		case 'F':
			fail_on_step = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			rc = PL_EXIT_OK;
			goto out;
		default:
			pl_cli_errorf("history", "unknown or incomplete option '%s'", argv[optind - 1]);
			fputs("see 'perfledger history --help'\n", stderr);
			goto out;
		}
	}
	if (optind < argc) {
		pl_cli_errorf("history", "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	if (sel.opts.nmetrics != 1) {
		pl_cli_errorf("history", "--metric NAME is required, exactly one (e.g. --metric ttft_p50)");
		goto out;
	}
	st = pl_cli_open_store(cli, 0);
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
	if (pl_render_history(stdout, &h, fmt, &err)) {
		pl_cli_print_error(&err);
		goto out;
	}
	if (out_dir) {
		if (mkdir(out_dir, 0777) != 0 && errno != EEXIST) {
			pl_cli_errorf("history", "cannot create directory '%s': %s", out_dir,
			              strerror(errno));
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
