/*
 * cmd_report.c — `perfledger report`: a directory with the Markdown report,
 * the gnuplot charts and the workbook for one comparison.
 *
 * One pipeline: `--spec reports/NAME.json` loads a definition, `--axis`
 * builds the built-in default one from the command line (pl_spec_default);
 * both are rendered by pl_bundle_write. SOURCE_DATE_EPOCH is read here
 * once (pl_cli_source_date_epoch) and passed down as a parameter.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "cli/cli.h"
#include "core/procure.h"
#include "render/bundle.h"
#include "render/spec.h"

static const char usage_text[] =
	"usage: perfledger report --out DIR --axis FIELD[,FIELD...] [--where FIELD=VALUE]...\n"
	"                         [--metric NAME]... [--allow-mismatch FIELD]... [--title TEXT]\n"
	"       perfledger report --spec reports/NAME.json --out DIR [--lang en|zh-CN]\n"
	"\n"
	"With --spec, renders the report definition (selection, axis, metrics, SLO,\n"
	"prices, charts, sheets) as a reproducible bundle: report.md, report.html\n"
	"(self-contained), charts, comparison.xlsx (native charts), definition.json\n"
	"and manifest.json (sha256 of every input and output). The one timestamp is\n"
	"$SOURCE_DATE_EPOCH (else now, recorded in the manifest); 'perfledger verify\n"
	"DIR' re-renders it and reports every file that differs.\n"
	"\n"
	"Without --spec:\n"
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

/* The --axis report's command line, as given. */
struct axis_args {
	const char *axis;            /* --axis text (the last one) */
	const char *title;           /* --title, or NULL */
	const char *const *metrics;  /* --metric arguments */
	size_t nmetrics;
	const char *const *allow;    /* --allow-mismatch arguments */
	size_t nallow;
};

/* report --axis: the built-in default definition (pl_spec_default) built
 * from the command line, rendered by the same pipeline as a definition
 * file (pl_bundle_write). sel holds the parsed selection. Prints errors;
 * returns an exit code. */
static int render_axis(const struct pl_cli *cli, struct pl_selection *sel,
                       const struct axis_args *a, const char *out_dir)
{
	struct pl_run_list runs;
	struct pl_comparison cmp;
	struct pl_report_spec spec;
	struct pl_bundle_opts opts;
	struct pl_error err;
	struct pl_store *st = NULL;
	long long epoch;
	int rc = PL_EXIT_USAGE;

	memset(&cmp, 0, sizeof(cmp));
	memset(&spec, 0, sizeof(spec));
	pl_run_list_init(&runs);
	pl_error_init(&err);
	if (pl_cli_source_date_epoch("report", &epoch) != PL_EXIT_OK)
		return PL_EXIT_USAGE;
	st = pl_cli_open_store(cli, 0);
	if (!st)
		goto out;
	rc = pl_cli_build_comparison(st, sel, "report", &runs, &cmp);
	if (rc)
		goto out;
	rc = PL_EXIT_USAGE;
	if (pl_spec_default(&spec, a->axis, sel->where_text, sel->nfilters, a->metrics, a->nmetrics,
	                    a->allow, a->nallow, a->title, &err)) {
		pl_cli_print_error(&err);
		goto out;
	}
	opts.spec = &spec;
	opts.lang = "en";
	opts.epoch = epoch;
	opts.tool_version = PL_VERSION;
	if (pl_bundle_write(out_dir, &cmp, &runs, NULL, &opts, &err)) {
		pl_cli_print_error(&err);
		goto out;
	}
	printf("report written to '%s'\n", out_dir);
	rc = PL_EXIT_OK;
out:
	pl_store_close(st);
	pl_comparison_release(&cmp);
	pl_run_list_release(&runs);
	pl_spec_release(&spec);
	return rc;
}

int cmd_report(const struct pl_cli *cli, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"out", required_argument, NULL, 'o'},
		{"axis", required_argument, NULL, 'a'},
		{"where", required_argument, NULL, 'w'},
		{"metric", required_argument, NULL, 'm'},
		{"allow-mismatch", required_argument, NULL, 'A'},
		{"title", required_argument, NULL, 't'},
		{"spec", required_argument, NULL, 's'},
		{"lang", required_argument, NULL, 'L'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct pl_selection sel;
	struct pl_error err;
	const char *out_dir = NULL, *spec_path = NULL, *lang = "en", *axis = NULL, *title = NULL;
	const char **metric_args = calloc((size_t)argc + 1, sizeof(char *));
	const char **allow_args = calloc((size_t)argc + 1, sizeof(char *));
	size_t nmetric_args = 0, nallow_args = 0;
	int c, rc = PL_EXIT_USAGE, other = 0;

	memset(&sel, 0, sizeof(sel));
	pl_error_init(&err);
	if (!metric_args || !allow_args) {
		pl_cli_errorf("report", "out of memory");
		goto out;
	}
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		int shared;
		/* the arguments as given, for the default definition */
		if (c == 'm')
			metric_args[nmetric_args++] = optarg;
		else if (c == 'A')
			allow_args[nallow_args++] = optarg;
		shared = pl_sel_option(&sel, "report", c, optarg);
		if (shared < 0)
			goto out;
		if (shared > 0) {
			other = 1; /* a selection option: not allowed with --spec */
			continue;
		}
		switch (c) {
		case 'o':
			out_dir = optarg;
			break;
		case 'a':
			other = 1;
			if (pl_compare_parse_axis(&sel.opts, optarg, &err)) {
				pl_cli_errorf("report", "%s", err.message);
				goto out;
			}
			sel.have_axis = 1;
			axis = optarg;
			break;
		case 't':
			other = 1;
			title = optarg;
			break;
		case 's':
			spec_path = optarg;
			break;
		case 'L':
			lang = optarg;
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
	if (!spec_path && strcmp(lang, "en") != 0) {
		pl_cli_errorf("report", "--lang applies to report definitions (--spec); the "
		                        "--axis report is written in English");
		goto out;
	}
	if (spec_path) {
		if (other) {
			pl_cli_errorf("report", "--spec takes the selection from the definition; "
			                        "--axis, --where, --metric, --allow-mismatch and --title "
			                        "cannot be added");
			goto out;
		}
		rc = pl_cli_render_bundle(cli, spec_path, lang, -1, out_dir);
		if (rc == PL_EXIT_OK)
			printf("report bundle written to '%s'\n", out_dir);
		goto out;
	}
	if (!sel.have_axis) {
		pl_cli_errorf("report", "--axis FIELD is required (e.g. --axis hardware)");
		goto out;
	}
	{
		struct axis_args aa = {axis, title, (const char *const *)metric_args, nmetric_args,
		                       (const char *const *)allow_args, nallow_args};
		rc = render_axis(cli, &sel, &aa, out_dir);
	}
out:
	pl_sel_release(&sel);
	free(metric_args);
	free(allow_args);
	return rc;
}

#define EPOCH_MAX 253402300799LL /* 9999-12-31T23:59:59Z */

int pl_cli_source_date_epoch(const char *cmd, long long *epoch)
{
	const char *e = getenv("SOURCE_DATE_EPOCH");
	char *end;
	long long v;

	if (!e || !*e) {
		*epoch = (long long)time(NULL);
		return PL_EXIT_OK;
	}
	errno = 0;
	v = strtoll(e, &end, 10);
	if (errno || *end || e[0] < '0' || e[0] > '9' || v < 0 || v > EPOCH_MAX) {
		pl_cli_errorf(cmd, "SOURCE_DATE_EPOCH must be a whole number of seconds from 0 to "
		                   "253402300799, got '%s'", e);
		return PL_EXIT_USAGE;
	}
	*epoch = v;
	return PL_EXIT_OK;
}

int pl_cli_render_bundle(const struct pl_cli *cli, const char *spec_path, const char *lang,
                         long long epoch, const char *out_dir)
{
	struct pl_report_spec spec;
	struct pl_selection sel;
	struct pl_run_list runs;
	struct pl_comparison cmp;
	struct pl_procurement proc;
	struct pl_bundle_opts opts;
	struct pl_error err;
	struct pl_store *st = NULL;
	int rc = PL_EXIT_USAGE, lib;

	memset(&sel, 0, sizeof(sel));
	memset(&cmp, 0, sizeof(cmp));
	memset(&proc, 0, sizeof(proc));
	pl_run_list_init(&runs);
	pl_error_init(&err);
	if (!pl_bundle_lang_ok(lang)) {
		pl_cli_errorf("report", "unknown --lang '%s' (en or zh-CN)", lang);
		return PL_EXIT_USAGE;
	}
	if (epoch < 0 && pl_cli_source_date_epoch("report", &epoch) != PL_EXIT_OK)
		return PL_EXIT_USAGE;
	if (pl_spec_load(spec_path, &spec, &err)) {
		pl_cli_print_error(&err);
		goto out;
	}
	if (pl_compare_parse_axis(&sel.opts, spec.axis, &err)) {
		pl_cli_errorf("report", "%s: %s", spec_path, err.message);
		goto out;
	}
	sel.have_axis = 1;
	for (size_t i = 0; i < spec.nwhere; i++)
		if (pl_sel_add_where(&sel, "report", spec.where[i]))
			goto out;
	for (size_t i = 0; i < spec.nmetrics; i++)
		if (pl_sel_add_metric(&sel, "report", spec.metrics[i]))
			goto out;
	for (size_t i = 0; i < spec.nallow; i++)
		if (pl_sel_add_allow(&sel, "report", spec.allow[i]))
			goto out;
	st = pl_cli_open_store(cli, 0);
	if (!st)
		goto out;
	rc = pl_cli_build_comparison(st, &sel, "report", &runs, &cmp);
	if (rc)
		goto out;
	rc = PL_EXIT_USAGE;
	if (pl_procure_build(&cmp, &runs, &spec.slo, spec.prices, spec.nprices, &proc, &err)) {
		pl_cli_print_error(&err);
		goto out;
	}
	opts.spec = &spec;
	opts.lang = lang;
	opts.epoch = epoch;
	opts.tool_version = PL_VERSION;
	lib = pl_bundle_write(out_dir, &cmp, &runs, &proc, &opts, &err);
	if (lib) {
		pl_cli_print_error(&err);
		goto out;
	}
	rc = PL_EXIT_OK;
out:
	pl_store_close(st);
	pl_procurement_release(&proc);
	pl_comparison_release(&cmp);
	pl_run_list_release(&runs);
	pl_sel_release(&sel);
	pl_spec_release(&spec);
	return rc;
}
