/*
 * cmd_site.c — `perfledger site --out DIR`: the static site of every
 * series and metric. The work is in flow/site_flow.c (pl_flow_site) and
 * render/site.c; this file parses options and prints.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "flow/site_flow.h"

static const char usage_text[] =
	"usage: perfledger site --out DIR [--where FIELD=VALUE]... [--metric NAME]...\n"
	"                       [--group-by run|day|build|commit]\n"
	"\n"
	"Writes a static, offline web site of every series (condition key) and metric\n"
	"over run_started_at, as 'asv publish' does: DIR/index.html lists every series\n"
	"and metric with a sparkline, the latest value, the verdict (regression,\n"
	"accepted, improvement, stable, too few points), the steps and the reasons of\n"
	"accepted steps, filterable without a network; DIR/s-HASH.html is a page per\n"
	"series with a chart per metric, the points, the steps and the runs; the data\n"
	"is beside them as JSON and CSV (index.json, index.csv, s-HASH.json,\n"
	"s-HASH.csv), with manifest.json holding every file's sha256. Steps are the\n"
	"ones 'perfledger history' finds. Links are relative: open DIR/index.html from\n"
	"disk or serve DIR from any static host. DIR is replaced atomically, and only\n"
	"when it is empty or an earlier perfledger output; with SOURCE_DATE_EPOCH set\n"
	"the same database gives the same bytes.\n"
	"\n";

static const char usage_tail[] =
	"\n"
	"Exit: 0 written; 2 usage or I/O error, or nothing to show (no selected run\n"
	"has run_started_at and one of the metrics).\n";

int cmd_site(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_selection sel;
	struct pl_site_opts opts;
	struct pl_error err;
	struct pl_store *st = NULL;
	const char *out_dir = NULL, *group = NULL;
	char where[1024] = "";
	int argi, rc, writing = 0;
	const struct pl_option options[] = {
		PL_OPT_STRING_ENTRY("out", 0, "DIR", &out_dir, "the site's directory (required)"),
		PL_OPT_CALLBACK_ENTRY("where", 0, "FIELD=VALUE", &sel, pl_sel_opt_where,
		                      "select runs (repeatable; ANDed); FIELD= selects the\n"
		                      "runs where FIELD is missing"),
		PL_OPT_CALLBACK_ENTRY("metric", 0, "NAME[,NAME]", &sel, pl_sel_opt_metric,
		                      "metrics to show (default: ttft_p50, tpot_p50,\n"
		                      "output_throughput)"),
		PL_OPT_STRING_ENTRY("group-by", 0, "G", &group,
		                    "points of each series as in history: run (default),\n"
		                    "day, build or commit"),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "site",
		.head = usage_text,
		.options = options,
		.width = 24,
		.tail = usage_tail,
		.no_operands = 1,
	};

	memset(&sel, 0, sizeof(sel));
	memset(&opts, 0, sizeof(opts));
	pl_error_init(&err);
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	if (!out_dir || !*out_dir) {
		pl_cli_errorf("site", "--out DIR is required (e.g. --out perf-site)");
		goto out;
	}
	if (group && ((opts.group = pl_group_lookup(group)) < 0 || !pl_group_is_time(opts.group))) {
		pl_cli_errorf("site", "bad --group-by '%s': expected run, day, build or commit", group);
		goto out;
	}
	if (pl_cli_source_date_epoch("site", &opts.epoch))
		goto out;
	pl_selection_where_join(&sel, ", ", where, sizeof(where));
	opts.metrics = sel.opts.metrics;
	opts.nmetrics = sel.opts.nmetrics;
	opts.tool_version = PL_VERSION;
	opts.selection = where;
	st = pl_cli_open_store(cli, PL_CLI_STORE_READ);
	if (!st)
		goto out;
	rc = pl_flow_site(st, &sel, &opts, out_dir, &writing, &err);
	if (rc == 0) {
		rc = PL_EXIT_OK;
	} else if (writing && (rc == PL_EEMPTY || rc == PL_EUSAGE)) {
		pl_cli_errorf("site", "%s", err.message);
		rc = PL_EXIT_USAGE;
	} else { /* the store's, the gate's or the writer's own error */
		pl_cli_print_error(&err);
		rc = writing ? pl_cli_exit_for(err.code) : PL_EXIT_USAGE;
	}
out:
	pl_store_close(st);
	pl_selection_release(&sel);
	return rc;
}
