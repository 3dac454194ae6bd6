/*
 * cmd_check.c — `perfledger check`: the CI gate. Did the candidate regress
 * against the baseline beyond noise? The work is in core/check.c; this file
 * parses options, loads the runs and accepted steps, prints, and maps the
 * outcome to the exit code (0 ok, 1 regression, 3 refused, 5 too few).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "core/check.h"
#include "cli/ci_output.h"
#include "core/normalize.h"
#include "core/gate_night.h"
#include "render/ci_format.h"
#include "render/gate_report.h"
#include "render/regress.h"

static const char usage_text[] =
	"usage: perfledger check --axis FIELD --baseline VALUE[,VALUE...] --candidate VALUE\n"
	"       perfledger check [--group-by G] --baseline previous|window:N|VALUE[,VALUE...]\n"
	"                        --candidate latest|VALUE\n"
	"                        [--where FIELD=VALUE]... [--metric NAME[,NAME]]... [--threshold PCT]\n"
	"                        [--allow-mismatch FIELD]...\n"
	"                        [--format text|markdown|json|junit|github]\n"
	"\n"
	"Compares the candidate's runs (FIELD = candidate VALUE) with the baseline's\n"
	"(FIELD = baseline VALUE) among the selected runs, as repeated samples. The\n"
	"comparator's rules apply to the two sets together: every condition off the axis\n"
	"must be equal, or the check is refused (exit 3) like compare.\n"
	"Per metric: n, each median with its 95% confidence interval (order statistics,\n"
	"as benchstat), the relative change of the medians (worse/better by the metric's\n"
	"direction), and a two-sided Mann-Whitney U test at alpha 0.05. A regression is\n"
	"a significant change in the bad direction by more than the threshold.\n"
	"When the U test cannot decide with these n (say 4 runs against 2), the\n"
	"candidate's median is judged against the t prediction interval of the baseline\n"
	"runs instead (3 baseline runs at least).\n"
	"A regression of a metric is forgiven when an accepted step of that metric\n"
	"names one of the candidate's runs (see 'perfledger accept').\n"
	"\n"
	"A nightly series: the selected runs (one condition key) form points as in\n"
	"'history --group-by G' (run, day, build, commit, engine_version or\n"
	"driver_version; default run, or the --axis field). --candidate latest is the\n"
	"last point. --baseline previous is the point before it (its runs, as above);\n"
	"window:N the medians of the N points before it (not past an accepted step):\n"
	"the candidate's median is judged against their two-sided (1 - alpha)\n"
	"prediction interval, median +- t 1.4826 MAD sqrt(1 + pi/(2N)) (a robust\n"
	"control chart: one outlier night does not widen it), so one new night is\n"
	"judged against the last N nights; VALUE,VALUE pools the runs of those points.\n"
	"Failed runs of the candidate point fail the gate.\n"
	"\n"
	"Several series: with window:N and latest, a selection of several condition\n"
	"keys is gated in one call, every series x metric together, with the\n"
	"night's family-wise false-alarm rate held at 5% (Holm over the checks,\n"
	"evidence pooled over the load points of one stack; docs/regression.md).\n"
	"A regression stays red until accepted or reverted; a series that starts\n"
	"at a change of condition is judged against the series it continues.\n"
	"\n";

static const char usage_tail[] =
	"\n"
	"Exit: 0 no significant regression beyond the threshold; 1 at least one\n"
	"regression; 3 refused (conditions differ); 5 too few samples to decide (no\n"
	"metric decidable: with n = 2 and 2 the smallest possible p is 0.33 > 0.05;\n"
	"4 runs a side is the least that can decide); 2 usage or I/O error.\n";

/* The night of every series in runs (a selection of several condition keys
 * gated with window:N latest): core/gate_night.h. Returns the exit code. */
static int gate_night(const struct pl_run_list *runs, const struct pl_check_opts *opts,
                      const struct pl_accepted_list *acc, const struct pl_out_format *fmt,
                      const struct pl_selection *sel)
{
	struct pl_gate_night_opts go;
	struct pl_gate_night night;
	struct pl_error err;
	int rc = PL_EXIT_USAGE, wrc;

	memset(&go, 0, sizeof(go));
	pl_error_init(&err);
	go.group = opts->group;
	go.window = opts->window;
	memcpy(go.metrics, opts->metrics, sizeof(go.metrics));
	go.nmetrics = opts->nmetrics;
	memcpy(go.allow.allow_mismatch, opts->allow_mismatch, sizeof(go.allow.allow_mismatch));
	memcpy(go.allow.allow_extra, opts->allow_extra, sizeof(go.allow.allow_extra));
	go.allow.nallow_extra = opts->nallow_extra;
	go.allow.allow_errors = opts->allow_errors;
	pl_gate_opts_init(&go.gate);
	go.gate.threshold = opts->threshold;
	pl_selection_named(sel, go.named, &go.named_extras);
	switch (pl_gate_night_build(runs, &go, acc, &night, &err)) {
	case 0:
		break;
	case PL_EEMPTY:
	case PL_EUSAGE:
		pl_cli_errorf("check", "%s", err.message);
		goto out;
	default:
		pl_cli_print_error(&err);
		rc = pl_cli_exit_for(err.code);
		goto out;
	}
	if (fmt->ci == PL_CI_GITHUB) {
		FILE *summary = pl_cli_step_summary_open("check");
		if (!summary)
			goto out;
		wrc = pl_render_gate_github(stdout, summary, &night, &err);
		if (pl_cli_step_summary_close("check", summary))
			goto out;
	} else {
		wrc = fmt->ci == PL_CI_JUNIT ? pl_render_gate_junit(stdout, &night, &err)
		                             : pl_render_gate(stdout, &night, fmt->table, &err);
	}
	if (wrc) {
		pl_cli_print_error(&err);
		goto out;
	}
	rc = pl_gate_exit_status(&night);
out:
	pl_gate_night_release(&night);
	return rc;
}

/* Writes the classic check chk in fmt, its labels naming what sel's --where
 * fixed (core/series_label.h). Returns 0, or nonzero with err set (or
 * err.code 0 when the error was printed). */
static int render_check(struct pl_check *chk, const struct pl_out_format *fmt,
                        const struct pl_selection *sel, struct pl_error *err)
{
	pl_selection_named(sel, chk->cmp.named, &chk->cmp.named_extras);
	return fmt->ci == PL_CI_JUNIT    ? pl_render_check_junit(stdout, chk, err)
	       : fmt->ci == PL_CI_GITHUB ? pl_cli_ci_github("check", chk, NULL, 0, err)
	                                 : pl_render_check(stdout, chk, fmt->table, err);
}

/* --threshold PCT: "5" and "5%" both mean five percent, into the double
 * *threshold as a fraction. */
static int opt_threshold(void *threshold, const char *arg, const char *cmd)
{
	double pct;
	char num[64];
	size_t len = strlen(arg);

	snprintf(num, sizeof(num), "%.*s", (int)(len > 0 && arg[len - 1] == '%' ? len - 1 : len),
	         arg);
	if (pl_parse_num(num, 0, &pct) || pct < 0) {
		pl_cli_errorf(cmd, "bad --threshold '%s': expected a percentage >= 0", arg);
		return PL_EXIT_USAGE;
	}
	*(double *)threshold = pct / 100.0;
	return 0;
}

int cmd_check(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_selection sel;
	struct pl_check_opts opts;
	struct pl_check chk;
	struct pl_run_list runs;
	struct pl_accepted_list acc = {0};
	struct pl_out_format fmt = {PL_FMT_TEXT, PL_CI_NONE};
	struct pl_error err;
	struct pl_store *st = NULL;
	const char *axis = NULL, *base = NULL, *cand = NULL, *group = NULL;
	char *ncand = NULL, *nvals[PL_CHECK_VALUES_MAX] = {0};
	int argi, rc = PL_EXIT_USAGE;
	const struct pl_option options[] = {
		PL_OPT_STRING_ENTRY("axis", 0, "FIELD", &axis,
		                    "the condition that differs, e.g. engine_version"),
		PL_OPT_STRING_ENTRY("baseline", 0, "B", &base,
		                    "VALUE[,VALUE...] (runs pooled), previous or window:N"),
		PL_OPT_STRING_ENTRY("candidate", 0, "C", &cand, "VALUE, or latest (the last point)"),
		PL_OPT_STRING_ENTRY("group-by", 0, "G", &group,
		                    "points of a series: run, day, build, commit,\n"
		                    "engine_version or driver_version"),
		PL_OPT_CALLBACK_ENTRY("where", 0, "FIELD=VALUE", &sel, pl_sel_opt_where,
		                      "select runs (repeatable; ANDed); FIELD= selects the\n"
		                      "runs where FIELD is missing"),
		PL_OPT_CALLBACK_ENTRY("metric", 0, "NAME[,NAME]", &sel, pl_sel_opt_metric,
		                      "metrics to check (default: the headline metrics both\n"
		                      "sides have; see 'perfledger compare --help')"),
		PL_OPT_CALLBACK_ENTRY("threshold", 0, "PCT", &opts.threshold, opt_threshold,
		                      "practical threshold in percent (default 5)"),
		PL_OPT_CALLBACK_ENTRY("allow-mismatch", 0, "FIELD", &sel, pl_sel_opt_allow,
		                      "let FIELD differ anyway; printed as a caveat"),
		PL_OPT_CALLBACK_ENTRY("format", 0, "F", &fmt, pl_cli_opt_format_ci,
		                      PL_CLI_FORMAT_CI_HELP),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "check",
		.head = usage_text,
		.options = options,
		.width = 24,
		.tail = usage_tail,
		.no_operands = 1,
	};

	memset(&sel, 0, sizeof(sel));
	memset(&opts, 0, sizeof(opts));
	memset(&chk, 0, sizeof(chk));
	pl_run_list_init(&runs);
	pl_error_init(&err);
	opts.threshold = PL_CHECK_THRESHOLD_DEFAULT;
	opts.alpha = PL_CHECK_ALPHA;
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	if (!base || !cand) {
		pl_cli_errorf("check", "--baseline and --candidate are required (e.g. --axis "
		                       "engine_version --baseline 0.9.0 --candidate 0.9.1, or "
		                       "--group-by day --baseline window:20 --candidate latest)");
		goto out;
	}
	opts.axis = PL_C_NONE;
	if (axis && (opts.axis = pl_cond_lookup(axis)) == PL_C_NONE) {
		char dym[96];
		pl_cli_errorf("check", "unknown condition '%s' in --axis%s (see 'perfledger list --help')",
		              axis, pl_did_you_mean(dym, sizeof(dym), pl_cond_suggest(axis)));
		goto out;
	}
	if (strcmp(base, "previous") == 0) {
		opts.baseline_kind = PL_BASELINE_PREVIOUS;
	} else if (strncmp(base, "window:", 7) == 0) {
		double n;
		if (pl_parse_num(base + 7, 0, &n) || n < 1 || n > 100000 || n != (double)(size_t)n) {
			pl_cli_errorf("check", "bad --baseline '%s': expected window:N with N a whole "
			                       "number from 1 to 100000", base);
			goto out;
		}
		opts.baseline_kind = PL_BASELINE_WINDOW;
		opts.window = (size_t)n;
	}
	opts.candidate_latest = strcmp(cand, "latest") == 0;
	opts.series = group || opts.baseline_kind != PL_BASELINE_VALUES || opts.candidate_latest;
	if (opts.series) {
		opts.group = group ? pl_group_lookup(group)
		             : opts.axis != PL_C_NONE ? pl_group_of_by(opts.axis)
		                                      : PL_G_RUN;
		if (opts.group < 0) {
			if (group)
				pl_cli_errorf("check", "bad --group-by '%s': expected run, day, build, commit, "
				                       "engine_version or driver_version", group);
			else
				pl_cli_errorf("check", "--axis %s cannot order a series: use --group-by", axis);
			goto out;
		}
		if (opts.axis != PL_C_NONE && opts.axis != pl_group_axis(opts.group)) {
			pl_cli_errorf("check", "--axis %s and --group-by %s disagree (the series varies "
			                       "along %s)", axis, pl_group_name(opts.group),
			              pl_cond_info[pl_group_axis(opts.group)].name);
			goto out;
		}
	} else if (opts.axis == PL_C_NONE) {
		pl_cli_errorf("check", "--axis FIELD is required with --baseline VALUE --candidate "
		                       "VALUE (or give --group-by for a series)");
		goto out;
	}
	/* the values, normalized as the axis (or the group's field) stores them */
	{
		int field = opts.series ? pl_group_axis(opts.group) : opts.axis;
		int norm = !opts.series || !pl_group_is_time(opts.group) || opts.group == PL_G_RUN;
		if (opts.baseline_kind == PL_BASELINE_VALUES) {
			const char *p = base;
			while (*p) {
				size_t len = strcspn(p, ",");
				char *one = strndup(p, len);
				if (opts.nbaselines == PL_CHECK_VALUES_MAX) {
					free(one);
					pl_cli_errorf("check", "--baseline lists more than %d values",
					              PL_CHECK_VALUES_MAX);
					goto out;
				}
				if (!one || !*one) {
					free(one);
					pl_cli_errorf("check", "bad --baseline '%s': an empty value", base);
					goto out;
				}
				nvals[opts.nbaselines] = norm ? pl_normalize_value(field, one) : strdup(one);
				free(one);
				if (!nvals[opts.nbaselines]) {
					pl_cli_errorf("check", "out of memory");
					goto out;
				}
				opts.baselines[opts.nbaselines] = nvals[opts.nbaselines];
				opts.nbaselines++;
				p += len;
				if (*p == ',')
					p++;
			}
			opts.baseline = base;
		}
		if (!opts.candidate_latest) {
			ncand = norm ? pl_normalize_value(field, cand) : strdup(cand);
			if (!ncand) {
				pl_cli_errorf("check", "out of memory");
				goto out;
			}
			opts.candidate = ncand;
		}
		if (!opts.series && opts.nbaselines == 1) { /* the classic one-value check */
			opts.baseline = opts.baselines[0];
			opts.nbaselines = 0;
		}
	}
	memcpy(opts.metrics, sel.opts.metrics, sizeof(opts.metrics));
	opts.nmetrics = sel.opts.nmetrics;
	memcpy(opts.allow_mismatch, sel.opts.allow_mismatch, sizeof(opts.allow_mismatch));
	memcpy(opts.allow_extra, sel.opts.allow_extra, sizeof(opts.allow_extra));
	opts.nallow_extra = sel.opts.nallow_extra;
	opts.allow_errors = sel.opts.allow_errors;

	st = pl_cli_open_store(cli, PL_CLI_STORE_READ);
	if (!st)
		goto out;
	if (pl_store_query(st, sel.filters, sel.nfilters, &runs, &err) ||
	    pl_store_accepted_steps(st, PL_M_NONE, &acc, &err)) {
		pl_cli_print_error(&err);
		goto out;
	}
	if (opts.series && opts.baseline_kind == PL_BASELINE_WINDOW && opts.candidate_latest &&
	    opts.axis == PL_C_NONE && pl_group_is_time(opts.group)) {
		/* nights of one series or several (a version group is one series
		 * across its versions, checked as before): one rule, the gate's */
		rc = gate_night(&runs, &opts, &acc, &fmt, &sel);
		goto out;
	}
	switch (pl_check_build(&runs, &opts, &acc, &chk, &err)) {
	case 0:
		break;
	case PL_EMISMATCH:
		rc = pl_cli_print_refusal("check", &chk.cmp);
		if (pl_cli_ci_refusal("check", &fmt, &chk.cmp))
			rc = PL_EXIT_USAGE;
		goto out;
	case PL_EEMPTY:
	case PL_EUSAGE:
		pl_cli_errorf("check", "%s", err.message);
		goto out;
	default:
		pl_cli_print_error(&err);
		rc = pl_cli_exit_for(err.code);
		goto out;
	}
	if (render_check(&chk, &fmt, &sel, &err)) {
		if (err.code)
			pl_cli_print_error(&err);
		goto out;
	}
	rc = pl_check_exit_status(&chk);
out:
	pl_store_close(st);
	pl_check_release(&chk);
	pl_accepted_list_release(&acc);
	pl_run_list_release(&runs);
	pl_selection_release(&sel);
	free(ncand);
	for (size_t k = 0; k < PL_CHECK_VALUES_MAX; k++)
		free(nvals[k]);
	return rc;
}
