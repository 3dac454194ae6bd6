/*
 * cmd_check.c — `perfledger check`: the CI gate. Did the candidate regress
 * against the baseline beyond noise? The work is in flow/check_flow.c and
 * core/check.c; this file parses options, calls pl_flow_check(), prints,
 * and maps the outcome to the exit code (0 ok, 1 regression, 3 refused,
 * 5 too few).
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
#include "flow/check_flow.h"
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
	"The samples are runs, never requests: the request-level 95% interval of a\n"
	"run's percentile ('perfledger requests') is the uncertainty within that run,\n"
	"so it never turns one run a side into a decision.\n"
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

/* Writes the night (several series gated together, flow/check_flow.h)
 * in fmt. Returns the exit code. */
static int render_night(const struct pl_gate_night *night, const struct pl_out_format *fmt)
{
	struct pl_error err;
	int wrc;

	pl_error_init(&err);
	if (fmt->ci == PL_CI_GITHUB) {
		FILE *summary = pl_cli_step_summary_open("check");
		if (!summary)
			return PL_EXIT_USAGE;
		wrc = pl_render_gate_github(stdout, summary, night, &err);
		if (pl_cli_step_summary_close("check", summary))
			return PL_EXIT_USAGE;
	} else {
		wrc = fmt->ci == PL_CI_JUNIT ? pl_render_gate_junit(stdout, night, &err)
		                             : pl_render_gate(stdout, night, fmt->table, &err);
	}
	if (wrc) {
		pl_cli_print_error(&err);
		return PL_EXIT_USAGE;
	}
	return pl_gate_exit_status(night);
}

/* Writes the classic check chk in fmt. Returns the exit code. */
static int render_check(struct pl_check *chk, const struct pl_out_format *fmt)
{
	struct pl_error err;
	int wrc;

	pl_error_init(&err);
	wrc = fmt->ci == PL_CI_JUNIT    ? pl_render_check_junit(stdout, chk, &err)
	      : fmt->ci == PL_CI_GITHUB ? pl_cli_ci_github("check", chk, NULL, 0, &err)
	                                : pl_render_check(stdout, chk, fmt->table, &err);
	if (wrc) {
		if (err.code)
			pl_cli_print_error(&err);
		return PL_EXIT_USAGE;
	}
	return pl_check_exit_status(chk);
}

/* Prints the check's outcome (pl_flow_check() returned rc) in fmt.
 * Returns the exit code. */
static int print_outcome(int rc, struct pl_check_outcome *res, const struct pl_out_format *fmt,
                         const struct pl_error *err)
{
	switch (rc) {
	case 0:
		return res->is_night ? render_night(&res->night, fmt) : render_check(&res->chk, fmt);
	case PL_EMISMATCH:
		rc = pl_cli_print_refusal("check", &res->chk.cmp);
		return pl_cli_ci_refusal("check", fmt, &res->chk.cmp) ? PL_EXIT_USAGE : rc;
	case PL_EEMPTY:
	case PL_EUSAGE:
		if (res->loaded) { /* else the store's own error, printed as it is */
			pl_cli_errorf("check", "%s", err->message);
			return PL_EXIT_USAGE;
		}
		break;
	default:
		break;
	}
	pl_cli_print_error(err);
	return pl_cli_exit_for(err->code);
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

/* The normalized values of --baseline and --candidate, owned. */
struct values {
	char *cand;
	char *base[PL_CHECK_VALUES_MAX];
};

static void values_release(struct values *v)
{
	free(v->cand);
	for (size_t k = 0; k < PL_CHECK_VALUES_MAX; k++)
		free(v->base[k]);
}

/* --baseline previous or window:N into opts (VALUE[,VALUE...] is left to
 * parse_values()). Returns 0 or PL_EXIT_USAGE, printed. */
static int parse_baseline_kind(const char *base, struct pl_check_opts *opts)
{
	if (strcmp(base, "previous") == 0) {
		opts->baseline_kind = PL_BASELINE_PREVIOUS;
	} else if (strncmp(base, "window:", 7) == 0) {
		double n;
		if (pl_parse_num(base + 7, 0, &n) || n < 1 || n > 100000 || n != (double)(size_t)n) {
			pl_cli_errorf("check", "bad --baseline '%s': expected window:N with N a whole "
			                       "number from 1 to 100000", base);
			return PL_EXIT_USAGE;
		}
		opts->baseline_kind = PL_BASELINE_WINDOW;
		opts->window = (size_t)n;
	}
	return 0;
}

/* Whether the check is of a series, and its group (--group-by G, or the
 * group of --axis), into opts. Returns 0 or PL_EXIT_USAGE, printed. */
static int parse_series(const char *axis, const char *group, struct pl_check_opts *opts)
{
	opts->series = group || opts->baseline_kind != PL_BASELINE_VALUES || opts->candidate_latest;
	if (!opts->series) {
		if (opts->axis != PL_C_NONE)
			return 0;
		pl_cli_errorf("check", "--axis FIELD is required with --baseline VALUE --candidate "
		                       "VALUE (or give --group-by for a series)");
		return PL_EXIT_USAGE;
	}
	opts->group = group ? pl_group_lookup(group)
	              : opts->axis != PL_C_NONE ? pl_group_of_by(opts->axis)
	                                        : PL_G_RUN;
	if (opts->group < 0) {
		if (group)
			pl_cli_errorf("check", "bad --group-by '%s': expected run, day, build, commit, "
			                       "engine_version or driver_version", group);
		else
			pl_cli_errorf("check", "--axis %s cannot order a series: use --group-by", axis);
		return PL_EXIT_USAGE;
	}
	if (opts->axis != PL_C_NONE && opts->axis != pl_group_axis(opts->group)) {
		pl_cli_errorf("check", "--axis %s and --group-by %s disagree (the series varies "
		                       "along %s)", axis, pl_group_name(opts->group),
		              pl_cond_info[pl_group_axis(opts->group)].name);
		return PL_EXIT_USAGE;
	}
	return 0;
}

/* One value of a list, normalized as field stores it when norm; NULL when
 * out of memory (printed). */
static char *value_of(int field, int norm, const char *text)
{
	char *v = norm ? pl_normalize_value(field, text) : strdup(text);

	if (!v)
		pl_cli_errorf("check", "out of memory");
	return v;
}

/* The values of --baseline VALUE[,VALUE...] and --candidate VALUE,
 * normalized as the axis (or the group's field) stores them, into v and
 * opts (borrowing v). Returns 0 or PL_EXIT_USAGE, printed. */
static int parse_values(const char *base, const char *cand, struct pl_check_opts *opts,
                        struct values *v)
{
	int field = opts->series ? pl_group_axis(opts->group) : opts->axis;
	int norm = !opts->series || !pl_group_is_time(opts->group) || opts->group == PL_G_RUN;

	if (opts->baseline_kind == PL_BASELINE_VALUES) {
		const char *p = base;
		while (*p) {
			size_t len = strcspn(p, ",");
			char *one = strndup(p, len);
			if (opts->nbaselines == PL_CHECK_VALUES_MAX) {
				free(one);
				pl_cli_errorf("check", "--baseline lists more than %d values",
				              PL_CHECK_VALUES_MAX);
				return PL_EXIT_USAGE;
			}
			if (!one || !*one) {
				free(one);
				pl_cli_errorf("check", "bad --baseline '%s': an empty value", base);
				return PL_EXIT_USAGE;
			}
			v->base[opts->nbaselines] = value_of(field, norm, one);
			free(one);
			if (!v->base[opts->nbaselines])
				return PL_EXIT_USAGE;
			opts->baselines[opts->nbaselines] = v->base[opts->nbaselines];
			opts->nbaselines++;
			p += len;
			if (*p == ',')
				p++;
		}
		opts->baseline = base;
	}
	if (!opts->candidate_latest) {
		if (!(v->cand = value_of(field, norm, cand)))
			return PL_EXIT_USAGE;
		opts->candidate = v->cand;
	}
	if (!opts->series && opts->nbaselines == 1) { /* the classic one-value check */
		opts->baseline = opts->baselines[0];
		opts->nbaselines = 0;
	}
	return 0;
}

/* The check's options from the command line's texts (NULL: not given)
 * into opts and v. Returns 0 or PL_EXIT_USAGE, printed. */
static int parse_check(const char *axis, const char *base, const char *cand, const char *group,
                       struct pl_check_opts *opts, struct values *v)
{
	if (!base || !cand) {
		pl_cli_errorf("check", "--baseline and --candidate are required (e.g. --axis "
		                       "engine_version --baseline 0.9.0 --candidate 0.9.1, or "
		                       "--group-by day --baseline window:20 --candidate latest)");
		return PL_EXIT_USAGE;
	}
	opts->axis = PL_C_NONE;
	if (axis && (opts->axis = pl_cond_lookup(axis)) == PL_C_NONE) {
		char dym[96];
		pl_cli_errorf("check", "unknown condition '%s' in --axis%s (see 'perfledger list --help')",
		              axis, pl_did_you_mean(dym, sizeof(dym), pl_cond_suggest(axis)));
		return PL_EXIT_USAGE;
	}
	if (parse_baseline_kind(base, opts))
		return PL_EXIT_USAGE;
	opts->candidate_latest = strcmp(cand, "latest") == 0;
	if (parse_series(axis, group, opts))
		return PL_EXIT_USAGE;
	return parse_values(base, cand, opts, v);
}

int cmd_check(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_selection sel;
	struct pl_check_opts opts;
	struct pl_check_outcome res;
	struct values vals = {0};
	struct pl_out_format fmt = {PL_FMT_TEXT, PL_CI_NONE};
	struct pl_error err;
	struct pl_store *st = NULL;
	const char *axis = NULL, *base = NULL, *cand = NULL, *group = NULL;
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
	memset(&res, 0, sizeof(res));
	pl_error_init(&err);
	opts.threshold = PL_CHECK_THRESHOLD_DEFAULT;
	opts.alpha = PL_CHECK_ALPHA;
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	if (parse_check(axis, base, cand, group, &opts, &vals))
		goto out;
	st = pl_cli_open_store(cli, PL_CLI_STORE_READ);
	if (!st)
		goto out;
	rc = pl_flow_check(st, &sel, &opts, &res, &err);
	rc = print_outcome(rc, &res, &fmt, &err);
out:
	pl_store_close(st);
	pl_flow_check_release(&res);
	pl_selection_release(&sel);
	values_release(&vals);
	return rc;
}
