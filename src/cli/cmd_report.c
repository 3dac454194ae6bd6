/*
 * cmd_report.c — `perfledger report`: a directory with the Markdown report,
 * the gnuplot charts and the workbook for one comparison.
 */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "flow/bundle_flow.h"
#include "render/bundle.h"
#include "render/spec.h"
#include "util/alloc.h"
#include "util/clock.h"

static const char usage_text[] =
	"usage: perfledger report --out DIR --axis FIELD[,FIELD...] [--where FIELD=VALUE]...\n"
	"                         [--metric NAME]... [--allow-mismatch FIELD]... [--title TEXT]\n"
	"       perfledger report --spec FILE|NAME --out DIR [--lang en|zh-CN]\n"
	"                         [--as-of TIME] [--since DIR|ID@TIME]\n"
	"\n"
	"With --spec, renders the report definition (selection, axis, metrics, SLO,\n"
	"prices, charts, sheets) as a reproducible bundle: report.md, report.html\n"
	"(self-contained), charts, comparison.xlsx (native charts), definition.json\n"
	"and manifest.json (sha256 of every input and output). The one timestamp is\n"
	"$SOURCE_DATE_EPOCH (else now, recorded in the manifest); 'perfledger verify\n"
	"DIR' re-renders it and reports every file that differs. The bundle ships its\n"
	"runs (runs.jsonl, with their trail), a citable bundle id (in the report, the\n"
	"manifest and CITATION.cff) and says how a reader checks it ('perfledger\n"
	"verify --offline DIR --id ID'). --as-of TIME (UTC, YYYY-MM-DDTHH:MM:SSZ)\n"
	"renders the runs as they stood then (later amends undone, later imports and\n"
	"retractions left out); --since DIR (an earlier bundle) or ID@TIME opens the\n"
	"conditions with the errata since it: each field amended (old -> new, reason,\n"
	"who, when), each run retracted, restored or added. Both are recorded in\n"
	"definition.json, so verify re-renders them.\n"
	"DIR' re-renders it and reports every file that differs. A NAME without '/'\n"
	"or '.' is a definition installed with perfledger: share/perfledger/reports/\n"
	"NAME.json beside the binary's prefix (procurement-review, publication,\n"
	"regression-watch), or $PERFLEDGER_DATADIR/reports/NAME.json.\n"
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
	memset(&opts, 0, sizeof(opts));
	pl_run_list_init(&runs);
	pl_error_init(&err);
	if (pl_cli_source_date_epoch("report", &epoch) != PL_EXIT_OK)
		return PL_EXIT_USAGE;
	st = pl_cli_open_store(cli, PL_CLI_STORE_READ);
	if (!st)
		goto out;
	rc = pl_cli_build_comparison(st, sel, "report", &runs, &cmp);
	if (rc)
		goto out;
	rc = PL_EXIT_USAGE;
	if (pl_bundle_runs_relative(&runs)) { /* no path of this machine in the report */
		pl_cli_errorf("report", "out of memory");
		goto out;
	}
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
	fputs("report written to '", stdout);
	pl_cli_put_inert(stdout, out_dir);
	fputs("'\n", stdout);
	rc = PL_EXIT_OK;
out:
	pl_store_close(st);
	pl_comparison_release(&cmp);
	pl_run_list_release(&runs);
	pl_spec_release(&spec);
	return rc;
}

/* The selection of report without --spec, the arguments as given (for the
 * built-in default definition), and whether any of them was given (they
 * cannot be added to --spec). */
struct report_sel {
	struct pl_selection *sel;  /* --axis, --where, --metric, --allow-mismatch */
	struct axis_args *args;    /* the same, as given, and --title */
	const char **metrics;      /* --metric arguments; owned array */
	const char **allow;        /* --allow-mismatch arguments; owned array */
	int other;                 /* one of them was given */
	int oom;                   /* an argument could not be kept */
	size_t metrics_cap;        /* metrics allocated (PL_ALLOC_GROW) */
	size_t allow_cap;          /* allow allocated (PL_ALLOC_GROW) */
};

/* Appends arg to *list (n entries, cap allocated). */
static int keep_arg(struct report_sel *rs, const char ***list, size_t *n, size_t *cap,
                    const char *arg)
{
	if (PL_ALLOC_GROW(*list, *n + 1, *cap)) {
		rs->oom = 1;
		pl_cli_errorf("report", "out of memory");
		return PL_EXIT_USAGE;
	}
	(*list)[(*n)++] = arg;
	return 0;
}

static int opt_sel(void *vrs, const char *arg, const char *cmd, pl_opt_cb then)
{
	struct report_sel *rs = vrs;

	rs->other = 1; /* a selection option: not allowed with --spec */
	return then(rs->sel, arg, cmd);
}

static int opt_axis(void *vrs, const char *arg, const char *cmd)
{
	struct report_sel *rs = vrs;

	rs->args->axis = arg; /* the last one, as the selection keeps it */
	return opt_sel(rs, arg, cmd, pl_sel_opt_axis);
}

static int opt_where(void *rs, const char *arg, const char *cmd)
{
	return opt_sel(rs, arg, cmd, pl_sel_opt_where);
}

static int opt_metric(void *vrs, const char *arg, const char *cmd)
{
	struct report_sel *rs = vrs;

	if (keep_arg(rs, &rs->metrics, &rs->args->nmetrics, &rs->metrics_cap, arg))
		return PL_EXIT_USAGE;
	return opt_sel(rs, arg, cmd, pl_sel_opt_metric);
}

static int opt_allow(void *vrs, const char *arg, const char *cmd)
{
	struct report_sel *rs = vrs;

	if (keep_arg(rs, &rs->allow, &rs->args->nallow, &rs->allow_cap, arg))
		return PL_EXIT_USAGE;
	return opt_sel(rs, arg, cmd, pl_sel_opt_allow);
}

static int opt_title(void *vrs, const char *arg, const char *cmd)
{
	struct report_sel *rs = vrs;

	(void)cmd;
	rs->other = 1;
	rs->args->title = arg;
	return 0;
}

int cmd_report(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_selection sel;
	struct axis_args aa = {NULL, NULL, NULL, 0, NULL, 0};
	const char *out_dir = NULL, *spec_path = NULL, *lang = "en", *as_of = NULL, *since = NULL;
	char found[4096];
	int argi, rc = PL_EXIT_USAGE;
	struct report_sel rs = {&sel, &aa, NULL, NULL, 0, 0, 0, 0};
	/* the option list is in usage_text, written by hand around two synopses */
	const struct pl_option options[] = {
		PL_OPT_STRING_ENTRY("out", 0, "DIR", &out_dir, NULL),
		PL_OPT_CALLBACK_ENTRY("axis", 0, "FIELD", &rs, opt_axis, NULL),
		PL_OPT_CALLBACK_ENTRY("where", 0, "FIELD=VALUE", &rs, opt_where, NULL),
		PL_OPT_CALLBACK_ENTRY("metric", 0, "NAME", &rs, opt_metric, NULL),
		PL_OPT_CALLBACK_ENTRY("allow-mismatch", 0, "FIELD", &rs, opt_allow, NULL),
		PL_OPT_CALLBACK_ENTRY("title", 0, "TEXT", &rs, opt_title, NULL),
		PL_OPT_STRING_ENTRY("spec", 0, "FILE", &spec_path, NULL),
		PL_OPT_STRING_ENTRY("lang", 0, "LANG", &lang, NULL),
		PL_OPT_STRING_ENTRY("as-of", 0, "TIME", &as_of, NULL),
		PL_OPT_STRING_ENTRY("since", 0, "DIR_OR_ID", &since, NULL),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "report",
		.head = usage_text,
		.options = options,
		.no_operands = 1,
	};

	memset(&sel, 0, sizeof(sel));
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	if (!out_dir || !*out_dir) {
		pl_cli_errorf("report", "--out DIR is required");
		goto out;
	}
	if (!spec_path && (as_of || since)) {
		pl_cli_errorf("report", "--as-of and --since apply to report definitions (--spec)");
		goto out;
	}
	if (!spec_path && strcmp(lang, "en") != 0) {
		pl_cli_errorf("report", "--lang applies to report definitions (--spec); the "
		                        "--axis report is written in English");
		goto out;
	}
	if (spec_path) {
		if (rs.other) {
			pl_cli_errorf("report", "--spec takes the selection from the definition; "
			                        "--axis, --where, --metric, --allow-mismatch and --title "
			                        "cannot be added");
			goto out;
		}
		if (!strchr(spec_path, '/') && !strchr(spec_path, '.') && *spec_path) {
			/* a bare NAME: the definition installed with perfledger */
			char file[256];
			snprintf(file, sizeof(file), "%.200s.json", spec_path);
			if (pl_cli_find_data("reports", file, found, sizeof(found)) != 0) {
				pl_cli_errorf("report", "no report definition named '%s' (a FILE, or the NAME "
				                        "of one installed in share/perfledger/reports)", spec_path);
				goto out;
			}
			spec_path = found;
		}
		rc = pl_cli_render_bundle(cli, spec_path, lang, -1, out_dir, 0, as_of, since, NULL);
		if (rc == PL_EXIT_OK) {
			fputs("report bundle written to '", stdout);
			pl_cli_put_inert(stdout, out_dir);
			fputs("'\n", stdout);
		}
		goto out;
	}
	if (!sel.have_axis) {
		pl_cli_errorf("report", "--axis FIELD is required (e.g. --axis hardware)");
		goto out;
	}
	aa.metrics = rs.metrics;
	aa.allow = rs.allow;
	rc = render_axis(cli, &sel, &aa, out_dir);
out:
	pl_selection_release(&sel);
	free(rs.metrics);
	free(rs.allow);
	return rc;
}

int pl_cli_source_date_epoch(const char *cmd, long long *epoch)
{
	struct pl_error err;

	pl_error_init(&err);
	if (pl_clock_from_env(epoch, NULL, &err)) {
		pl_cli_errorf(cmd, "%s", err.message);
		return PL_EXIT_USAGE;
	}
	return PL_EXIT_OK;
}

int pl_cli_render_bundle(const struct pl_cli *cli, const char *spec_path, const char *lang,
                         long long epoch, const char *out_dir, int fresh, const char *as_of,
                         const char *since, const char *wind_to)
{
	struct pl_flow_bundle job;
	struct pl_error err;
	struct pl_store *st = NULL;
	int rc;

	memset(&job, 0, sizeof(job));
	pl_error_init(&err);
	rc = pl_flow_bundle_load(&job, spec_path, lang, epoch, as_of, since, &err);
	if (rc == 0) {
		st = pl_cli_open_store(cli, PL_CLI_STORE_READ);
		if (!st) {
			pl_flow_bundle_release(&job);
			return PL_EXIT_USAGE; /* printed */
		}
		rc = pl_flow_bundle_render(&job, st, out_dir, fresh, wind_to, &err);
	}
	if (rc == 0) {
		rc = PL_EXIT_OK;
	} else if (job.stage == PL_FLOW_AT_COMPARE) {
		rc = pl_cli_comparison_outcome("report", &job.cmp, rc, &err);
	} else if (job.stage == PL_FLOW_AT_ARGS) {
		pl_cli_errorf("report", "%s", err.message);
		rc = PL_EXIT_USAGE;
	} else {
		pl_cli_print_error(&err);
		rc = job.stage == PL_FLOW_AT_LEDGER ? pl_cli_exit_for(err.code) : PL_EXIT_USAGE;
	}
	pl_store_close(st);
	pl_flow_bundle_release(&job);
	return rc;
}
