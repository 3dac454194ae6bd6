/*
 * cmd_compare.c — `perfledger compare`: like with like, or a refusal that
 * names every mismatched condition.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "render/render.h"

static const char usage_text[] =
	"usage: perfledger compare --axis FIELD[,FIELD...] [--where FIELD=VALUE]...\n"
	"                          [--metric NAME]... [--allow-mismatch FIELD]...\n"
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
	"values. Missing is not equal to known. Runs with errors (error_rate > 0) are\n"
	"not compared with runs without (0) or of unknown error rate unless\n"
	"--allow-mismatch error_rate is given (then a caveat).\n"
	"Runs with the same axis values form one row: n runs, each metric their median\n"
	"with its spread (min-max) when two or more runs have it, and the change in\n"
	"percent against the first row (with several axis fields, the first row with\n"
	"the same values in all but the first: hardware,concurrency compares each\n"
	"accelerator with the first one at the same concurrency).\n"
	"\n"
	"  --axis FIELD[,FIELD]    condition(s) that may differ (required)\n"
	"  --where FIELD=VALUE     select runs (repeatable; ANDed); FIELD= selects the\n"
	"                          runs where FIELD is missing\n"
	"  --metric NAME[,NAME]    metrics to show (default: the headline set)\n"
	"  --allow-mismatch FIELD  let FIELD (or an extra, FORMAT.key) differ anyway;\n"
	"                          printed as a caveat (error_rate: compare runs with\n"
	"                          and without errors)\n"
	"  --format F              text (default), markdown, csv or json (csv: the\n"
	"                          caveats go to stderr)\n"
	"\n"
	"Metrics (canonical units):\n";

static void print_usage(FILE *f)
{
	fputs(usage_text, f);
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
	static const struct option longopts[] = {
		{"axis", required_argument, NULL, 'a'},
		{"where", required_argument, NULL, 'w'},
		{"metric", required_argument, NULL, 'm'},
		{"allow-mismatch", required_argument, NULL, 'A'},
		{"format", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct pl_selection sel;
	struct pl_comparison cmp;
	enum pl_table_format fmt = PL_FMT_TEXT;
	struct pl_error err;
	struct pl_store *st = NULL;
	int c, rc = PL_EXIT_USAGE;

	memset(&sel, 0, sizeof(sel));
	memset(&cmp, 0, sizeof(cmp));
	pl_error_init(&err);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		int shared = pl_sel_option(&sel, "compare", c, optarg);
		if (shared < 0)
			goto out;
		if (shared > 0)
			continue;
		switch (c) {
		case 'a':
			if (pl_compare_parse_axis(&sel.opts, optarg, &err)) {
				pl_cli_errorf("compare", "%s", err.message);
				goto out;
			}
			sel.have_axis = 1;
			break;
		case 'f':
			if (pl_table_format_parse(optarg, &fmt, &err)) {
				pl_cli_errorf("compare", "%s", err.message);
				goto out;
			}
			break;
		case 'h':
			print_usage(stdout);
			rc = PL_EXIT_OK;
			goto out;
		default:
			pl_cli_errorf("compare", "unknown or incomplete option '%s'", argv[optind - 1]);
			fputs("see 'perfledger compare --help'\n", stderr);
			goto out;
		}
	}
	if (optind < argc) {
		pl_cli_errorf("compare", "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	if (!sel.have_axis) {
		pl_cli_errorf("compare", "--axis FIELD is required (e.g. --axis hardware)");
		goto out;
	}
	st = pl_cli_open_store(cli, 0);
	if (!st)
		goto out;
	rc = pl_cli_build_comparison(st, &sel, "compare", NULL, &cmp);
	if (rc)
		goto out;
	if (pl_render_comparison(stdout, &cmp, fmt, &err)) {
		pl_cli_print_error(&err);
		rc = PL_EXIT_USAGE;
		goto out;
	}
	/* CSV has no place for sentences: its caveats go to stderr, so that
	 * a comparison piped into a spreadsheet still warns its reader */
	for (size_t i = 0; fmt == PL_FMT_CSV && i < cmp.ncaveats; i++)
		pl_cli_errorf("compare", "caveat: %s", cmp.caveats[i]);
	rc = PL_EXIT_OK;
out:
	pl_store_close(st);
	pl_comparison_release(&cmp);
	pl_sel_release(&sel);
	return rc;
}
