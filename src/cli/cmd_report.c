/*
 * cmd_report.c — `perfledger report`: a directory with the Markdown report,
 * the gnuplot charts and the workbook for one comparison.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "render/report.h"

static const char usage_text[] =
	"usage: perfledger report --out DIR --axis FIELD[,FIELD...] [--where FIELD=VALUE]...\n"
	"                         [--metric NAME]... [--allow-mismatch FIELD]... [--title TEXT]\n"
	"\n"
	"Renders the comparison (same selection rules as 'perfledger compare') into DIR:\n"
	"  report.md                  the report: selection, shared conditions, table,\n"
	"                             caveats, reference-only runs, charts, sources\n"
	"  comparison.csv, .json      the table, machine-readable\n"
	"  NAME.gp, NAME.dat          gnuplot script and data per chart (re-plot with\n"
	"                             'gnuplot NAME.gp' inside DIR)\n"
	"  NAME.svg, NAME.png         the rendered charts (needs gnuplot on PATH)\n"
	"  comparison.xlsx            the workbook: comparison, runs, conditions\n"
	"\n"
	"A refused comparison writes nothing and exits 3. If gnuplot is missing,\n"
	"everything else is written and the command exits 2 saying how to install it.\n";

int cmd_report(const struct pl_cli *cli, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"out", required_argument, NULL, 'o'},
		{"axis", required_argument, NULL, 'a'},
		{"where", required_argument, NULL, 'w'},
		{"metric", required_argument, NULL, 'm'},
		{"allow-mismatch", required_argument, NULL, 'A'},
		{"title", required_argument, NULL, 't'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct pl_selection sel;
	struct pl_run_list runs;
	struct pl_comparison cmp;
	struct pl_report_info info = {0};
	struct pl_error err;
	struct pl_store *st = NULL;
	const char *out_dir = NULL;
	int c, rc = PL_EXIT_USAGE;

	memset(&sel, 0, sizeof(sel));
	memset(&cmp, 0, sizeof(cmp));
	pl_run_list_init(&runs);
	pl_error_init(&err);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out_dir = optarg;
			break;
		case 'a':
			if (pl_compare_parse_axis(&sel.opts, optarg, &err)) {
				pl_cli_errorf("report", "%s", err.message);
				goto out;
			}
			sel.have_axis = 1;
			break;
		case 'w':
			if (pl_sel_add_where(&sel, "report", optarg))
				goto out;
			break;
		case 'm':
			if (pl_sel_add_metric(&sel, "report", optarg))
				goto out;
			break;
		case 'A':
			if (pl_sel_add_allow(&sel, "report", optarg))
				goto out;
			break;
		case 't':
			info.title = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			rc = PL_EXIT_OK;
			goto out;
		default:
			pl_cli_errorf("report", "unknown or incomplete option '%s'", argv[optind - 1]);
			fputs("see 'perfledger report --help'\n", stderr);
			goto out;
		}
	}
	if (optind < argc) {
		pl_cli_errorf("report", "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	if (!out_dir || !*out_dir) {
		pl_cli_errorf("report", "--out DIR is required");
		goto out;
	}
	if (!sel.have_axis) {
		pl_cli_errorf("report", "--axis FIELD is required (e.g. --axis hardware)");
		goto out;
	}
	st = pl_cli_open_store(cli);
	if (!st)
		goto out;
	rc = pl_cli_build_comparison(st, &sel, "report", &runs, &cmp);
	if (rc)
		goto out;
	info.filters = sel.where_text;
	info.nfilters = sel.nfilters;
	info.tool_version = PL_VERSION;
	if (pl_report_write(out_dir, &cmp, &runs, &info, &err)) {
		pl_cli_print_error(&err);
		rc = PL_EXIT_USAGE;
		goto out;
	}
	printf("report written to '%s'\n", out_dir);
	rc = PL_EXIT_OK;
out:
	pl_store_close(st);
	pl_comparison_release(&cmp);
	pl_run_list_release(&runs);
	pl_sel_release(&sel);
	return rc;
}
