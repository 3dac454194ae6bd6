/*
 * cmd_requests.c — `perfledger requests RUN`: the statistics of a run's
 * stored requests, recomputed with the one definition of each latency
 * (core/requests.h), and, given --slo, the run graded against it:
 * attainment and goodput counted from the requests.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/requests.h"
#include "render/render.h"
#include "store/requests.h"

static const char usage_text[] =
	"usage: perfledger requests RUN [--slo ttft=S,tpot=S,e2el=S,itl=S] [--format text|json]\n"
	"\n"
	"Prints the statistics of run RUN's stored requests (a file with per-request\n"
	"data: vLLM --save-detailed, SGLang --output-details), recomputed the same way\n"
	"for every tool: requests, failed, and for TTFT, TPOT, ITL and E2EL the p50,\n"
	"p90, p95, p99, p99.9 and mean (seconds; percentiles by linear interpolation\n"
	"between order statistics). With --slo, each limit in seconds, met when a\n"
	"request's value is at most it: the attainment (share of all requests, failed\n"
	"ones missed, meeting every limit) and the goodput (those requests per second\n"
	"of the run's duration, and their output tokens per second). A request's ITL\n"
	"against a limit is its largest gap. Each percentile has its 95% confidence\n"
	"interval from order statistics (distribution-free; n/a where too few values\n"
	"reach 95%): the uncertainty within this run, not between runs. Text shows 6\n"
	"significant digits; --format json every digit, with the canonical names.\n"
	"\n";

static void num(FILE *out, double v)
{
	char buf[40];

	if (isnan(v))
		fputs("null", out);
	else
		fputs(pl_fmt_num(buf, sizeof(buf), v), out);
}

static void text_num(FILE *out, double v, int width)
{
	char buf[40];

	/* six significant digits on a terminal; --format json has every digit */
	fprintf(out, " %*s", width, isnan(v) ? "n/a" : pl_fmt_num(buf, sizeof(buf), pl_round_sig(v, 6)));
}

static const char *const fam_names[] = {"ttft", "tpot", "itl", "e2el"};

static const struct pl_rq_dist *fam(const struct pl_rq_stats *s, int f)
{
	return f == 0 ? &s->ttft : f == 1 ? &s->tpot : f == 2 ? &s->itl : &s->e2el;
}

static void print_json(FILE *out, long long id, const struct pl_rq_stats *s,
                       const struct pl_rq_slo *slo, const struct pl_rq_grade *g)
{
	static const char *const stat_names[] = {"p50", "p90", "p95", "p99", "p99_9", "mean"};
	const double *limits = slo ? (const double[]){slo->ttft, slo->tpot, slo->itl, slo->e2el} : NULL;

	fprintf(out, "{\"run\": %lld, \"requests_completed\": %zu, \"requests_failed\": %zu", id,
	        s->requests - s->failed, s->failed);
	for (int f = 0; f < 4; f++) {
		const struct pl_rq_dist *d = fam(s, f);
		const double v[] = {d->p50, d->p90, d->p95, d->p99, d->p999, d->mean};
		for (int k = 0; k < 6; k++) {
			fprintf(out, ", \"%s_%s\": ", fam_names[f], stat_names[k]);
			num(out, v[k]);
		}
		for (int k = 0; k < PL_RQ_NPCT; k++) { /* stat_names[k]: p50 .. p99_9 */
			fprintf(out, ", \"%s_%s_ci_low\": ", fam_names[f], stat_names[k]);
			num(out, d->ci_low[k]);
			fprintf(out, ", \"%s_%s_ci_high\": ", fam_names[f], stat_names[k]);
			num(out, d->ci_high[k]);
		}
	}
	if (slo) {
		int first = 1;
		fputs(", \"slo\": {", out);
		for (int f = 0; f < 4; f++) {
			if (isnan(limits[f]))
				continue;
			fprintf(out, "%s\"%s\": ", first ? "" : ", ", fam_names[f]);
			num(out, limits[f]);
			first = 0;
		}
		fputs("}, \"slo_attainment\": ", out);
		num(out, g->attainment);
		fputs(", \"goodput\": ", out);
		num(out, g->goodput);
		fputs(", \"goodput_output_throughput\": ", out);
		num(out, g->goodput_tokens);
	}
	fputs("}\n", out);
}

/* The 95% interval of each percentile, two lines a latency (low, high),
 * in the columns of the percentiles above. */
static void print_text_ci(FILE *out, const struct pl_rq_stats *s)
{
	fputs("95% confidence interval of each percentile (order statistics; n/a: too few values):\n",
	      out);
	fprintf(out, "%-6s %7s %11s %11s %11s %11s %11s\n", "metric", "ci", "p50", "p90", "p95",
	        "p99", "p99.9");
	for (int f = 0; f < 4; f++) {
		const struct pl_rq_dist *d = fam(s, f);
		for (int side = 0; side < 2; side++) {
			fprintf(out, "%-6s %7s", fam_names[f], side ? "high" : "low");
			for (int k = 0; k < PL_RQ_NPCT; k++)
				text_num(out, side ? d->ci_high[k] : d->ci_low[k], 11);
			fputc('\n', out);
		}
	}
}

static void print_text(FILE *out, long long id, const struct pl_rq_stats *s,
                       const struct pl_rq_slo *slo, const struct pl_rq_grade *g)
{
	fprintf(out, "run %lld: %zu requests, %zu completed, %zu failed\n", id, s->requests,
	        s->requests - s->failed, s->failed);
	fprintf(out, "%-6s %7s %11s %11s %11s %11s %11s %11s\n", "metric", "n", "p50", "p90", "p95",
	        "p99", "p99.9", "mean");
	for (int f = 0; f < 4; f++) {
		const struct pl_rq_dist *d = fam(s, f);
		fprintf(out, "%-6s %7zu", fam_names[f], d->n);
		text_num(out, d->p50, 11);
		text_num(out, d->p90, 11);
		text_num(out, d->p95, 11);
		text_num(out, d->p99, 11);
		text_num(out, d->p999, 11);
		text_num(out, d->mean, 11);
		fputc('\n', out);
	}
	fputs("(seconds)\n", out);
	print_text_ci(out, s);
	if (slo) {
		const double limits[] = {slo->ttft, slo->tpot, slo->itl, slo->e2el};
		char buf[40];
		int first = 1;
		fputs("slo:", out);
		for (int f = 0; f < 4; f++) {
			if (isnan(limits[f]))
				continue;
			fprintf(out, "%s %s <= %s s", first ? "" : ",", fam_names[f],
			        pl_fmt_num(buf, sizeof(buf), limits[f]));
			first = 0;
		}
		fprintf(out, "\nmet: %zu of %zu requests\nslo_attainment:", g->met, s->requests);
		text_num(out, g->attainment, 1);
		fputs("\ngoodput:", out);
		text_num(out, g->goodput, 1);
		fputs(" req/s\ngoodput_output_throughput:", out);
		text_num(out, g->goodput_tokens, 1);
		fputs(" tok/s\n", out);
	}
}

/* --slo: its limits, added to those of an earlier --slo. */
struct slo_opt {
	struct pl_rq_slo *slo; /* the limits so far */
	int given;             /* 1 once a --slo was read */
};

static int opt_slo(void *data, const char *arg, const char *cmd)
{
	struct slo_opt *o = data;
	struct pl_error err;

	pl_error_init(&err);
	if (!o->given)
		pl_rq_slo_init(o->slo);
	if (pl_rq_slo_add(arg, o->slo, &err)) {
		pl_cli_errorf(cmd, "%s", err.message);
		return PL_EXIT_USAGE;
	}
	o->given = 1;
	return 0;
}

int cmd_requests(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_run run;
	struct pl_error err;
	struct pl_store *st = NULL;
	struct pl_requests *rq = NULL;
	struct pl_rq_stats stats;
	struct pl_rq_slo slo;
	struct pl_rq_grade grade;
	struct slo_opt slo_opt = {&slo, 0};
	long long id = 0;
	int argi, rc, found = 0, json = 0;
	const struct pl_option options[] = {
		PL_OPT_CALLBACK_ENTRY("slo", 0, "LIMITS", &slo_opt, opt_slo,
		                      "ttft=S,tpot=S,e2el=S,itl=S (seconds, any subset)"),
		PL_OPT_CALLBACK_ENTRY("format", 0, "F", &json, pl_cli_opt_format_json, "text (default) or json"),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "requests",
		.head = usage_text,
		.options = options,
		.width = 14,
		.operand = pl_cli_operand_run_id,
		.operand_data = &id,
	};

	pl_run_init(&run);
	pl_error_init(&err);
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	if (id == 0) {
		pl_cli_errorf("requests", "which run? give its ID ('perfledger list' shows them)");
		goto out;
	}
	if (!(st = pl_cli_open_store(cli, PL_CLI_STORE_READ)))
		goto out;
	if (pl_store_get_run(st, id, &run, &found, &err) ||
	    (found && pl_store_read_request_columns(st, id, &rq, &err))) {
		pl_cli_print_error(&err);
		rc = pl_cli_exit_for(err.code);
		goto out;
	}
	if (!found) {
		pl_cli_errorf("requests", "no run with id %lld", id);
		goto out;
	}
	if (!rq) {
		pl_cli_errorf("requests",
		              "run %lld has no stored requests (its file gave summary statistics only)",
		              id);
		goto out;
	}
	/* graded first: the statistics then reorder the gaps in place */
	if (slo_opt.given)
		pl_requests_grade(rq, &slo,
		                  run.has_metric[PL_M_DURATION] ? run.metric[PL_M_DURATION] : NAN, &grade);
	if (pl_requests_stats_consume(rq, &stats)) {
		pl_cli_errorf("requests", "out of memory");
		goto out;
	}
	if (json)
		print_json(stdout, id, &stats, slo_opt.given ? &slo : NULL, &grade);
	else
		print_text(stdout, id, &stats, slo_opt.given ? &slo : NULL, &grade);
	rc = pl_cli_finish(PL_EXIT_OK);
out:
	pl_requests_free(rq);
	pl_run_release(&run);
	pl_store_close(st);
	return rc;
}
