/*
 * validate.c — the rules every canonical run must meet before it is stored.
 *
 * Runs arrive here converted (adapters) and normalized (normalize.c); this
 * module only decides. Each rule rejects with PL_EINVALID, names the field in
 * err->field and says what was expected, so the user can fix the input.
 * Rules that need the raw input (JSON types, duplicate keys, NaN tokens,
 * unit suffixes) live in the adapters.
 */
#include "core/validate.h"
#include "core/ranges.h"
#include "core/carried.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Statistics that must not decrease, in order, within one family. */
static const enum pl_stat order[] = {PL_S_MIN, PL_S_P50, PL_S_P90, PL_S_P95,
                                     PL_S_P99, PL_S_P999, PL_S_MAX};
#define NORDER (sizeof(order) / sizeof(order[0]))

/* Metric ids of the families, by their first (mean) id; a family is the run
 * of PL_DIST_METRICS rows starting there. */
static const int family_first[] = {PL_M_TTFT_MEAN, PL_M_TPOT_MEAN, PL_M_ITL_MEAN, PL_M_E2EL_MEAN,
                                   PL_M_TPS_MEAN};
#define FAMILY_SIZE (PL_M_TPOT_MEAN - PL_M_TTFT_MEAN)

static int fail(struct pl_error *err, const char *field)
{
	pl_error_field(err, field);
	return PL_EINVALID;
}

/* Names every missing required condition at once, so that a file lacking
 * three of them does not take three attempts to fix. */
int pl_validate_required(const struct pl_run *run, struct pl_error *err)
{
	char names[200] = "", sets[300] = "";
	const char *first = NULL;
	int n = 0;

	for (int i = 0; i < PL_COND_COUNT; i++) {
		const char *name = pl_cond_info[i].name;
		size_t a = strlen(names), b = strlen(sets);
		if (!(pl_cond_info[i].flags & PL_CF_REQUIRED) || run->cond[i].set)
			continue;
		snprintf(names + a, sizeof(names) - a, "%s'%s'", n ? ", " : "", name);
		snprintf(sets + b, sizeof(sets) - b, "%s--set %s=...", n ? " " : "", name);
		if (!first)
			first = name;
		n++;
	}
	if (n == 0)
		return 0;
	if (n == 1)
		pl_error_set(err, PL_EINVALID,
		             "missing required condition %s (give it in the file, a sidecar "
		             "NAME.conditions.json or %s)",
		             names, sets);
	else
		pl_error_set(err, PL_EINVALID,
		             "missing required conditions %s (give them in the file, a sidecar "
		             "NAME.conditions.json or %s)",
		             names, sets);
	return fail(err, first);
}

static int check_values(const struct pl_run *run, struct pl_error *err)
{
	int any = 0;
	char buf[40];

	for (int i = 0; i < PL_METRIC_COUNT; i++) {
		const struct pl_metric_info *mi = &pl_metric_info[i];
		double v = run->metric[i];

		if (!run->has_metric[i])
			continue;
		any = 1;
		if (isfinite(v) && v >= 0 && !(mi->unit == PL_U_FRACTION && v > 1) &&
		    !((mi->unit == PL_U_COUNT || mi->unit == PL_U_BYTES) && mi->stat != PL_S_MEAN &&
		      v != floor(v)))
			continue; /* valid: no message, so no formatting (costly, as the profile of
			             a 100k-file import showed) */
		pl_fmt_num(buf, sizeof(buf), v);
		if (!isfinite(v)) {
			pl_error_set(err, PL_EINVALID, "metric '%s' must be a finite number, got %s",
			             mi->name, buf);
			return fail(err, mi->name);
		}
		if (v < 0) {
			pl_error_set(err, PL_EINVALID, "metric '%s' must not be negative, got %s", mi->name,
			             buf);
			return fail(err, mi->name);
		}
		if (mi->unit == PL_U_FRACTION && v > 1) {
			pl_error_set(err, PL_EINVALID,
			             "metric '%s' must be a fraction from 0 to 1, got %s", mi->name, buf);
			return fail(err, mi->name);
		}
		if ((mi->unit == PL_U_COUNT || mi->unit == PL_U_BYTES) && mi->stat != PL_S_MEAN &&
		    v != floor(v)) {
			pl_error_set(err, PL_EINVALID, "metric '%s' must be a whole number, got %s",
			             mi->name, buf);
			return fail(err, mi->name);
		}
	}
	for (int i = 0; i < PL_METRIC_COUNT; i++) {
		const struct pl_range_row *r;
		char lo[40], hi[40];

		if (!run->has_metric[i] || pl_range_holds(i, run->metric[i]))
			continue;
		r = pl_range_of_metric(i);
		pl_fmt_num(buf, sizeof(buf), run->metric[i]);
		pl_error_set(err, PL_EINVALID,
		             "metric '%s' = %s is outside the plausible range of %s for %s, %s to %s "
		             "(%s; schema/ranges.tsv)",
		             pl_metric_info[i].name, buf, r->family[0] == '*' ? "every metric" : r->family,
		             r->unit, pl_fmt_num(lo, sizeof(lo), r->lo), pl_fmt_num(hi, sizeof(hi), r->hi),
		             r->why);
		return fail(err, pl_metric_info[i].name);
	}
	if (!any) {
		pl_error_set(err, PL_EINVALID, "the run has no metric (give at least one under \"metric\")");
		return fail(err, "metric");
	}
	return 0;
}

static int check_order(const struct pl_run *run, struct pl_error *err)
{
	for (size_t f = 0; f < sizeof(family_first) / sizeof(family_first[0]); f++) {
		int prev = PL_M_NONE;
		for (size_t o = 0; o < NORDER; o++) {
			int id = PL_M_NONE;
			for (int k = family_first[f]; k < family_first[f] + FAMILY_SIZE; k++)
				if (pl_metric_info[k].stat == order[o])
					id = k;
			if (id < 0 || !run->has_metric[id])
				continue;
			if (prev >= 0 && run->metric[id] < run->metric[prev]) {
				char a[40], b[40];
				pl_error_set(err, PL_EINVALID,
				             "percentiles out of order: '%s' = %s is less than '%s' = %s",
				             pl_metric_info[id].name, pl_fmt_num(a, sizeof(a), run->metric[id]),
				             pl_metric_info[prev].name,
				             pl_fmt_num(b, sizeof(b), run->metric[prev]));
				return fail(err, pl_metric_info[id].name);
			}
			prev = id;
		}
	}
	return 0;
}

/* A latency statistic of exactly 0 in a run that completed requests (or
 * does not say) was not measured (SGLang, llmperf and vLLM write 0.0 for
 * what they did not record): it is dropped, with a warning, so that it can
 * never win a comparison as the fastest value. */
static void drop_zero_latencies(struct pl_run *run)
{
	char names[600] = "";
	size_t n = 0;

	for (int m = 0; m < PL_METRIC_COUNT; m++) {
		if (pl_metric_info[m].unit != PL_U_SECONDS || m == PL_M_DURATION ||
		    pl_metric_info[m].stat == PL_S_STD || pl_metric_info[m].stat == PL_S_LIMIT ||
		    !run->has_metric[m] || run->metric[m] != 0)
			continue;
		run->has_metric[m] = 0;
		run->metric[m] = 0;
		{
			size_t len = strlen(names);
			snprintf(names + len, sizeof(names) - len, "%s%s", n ? ", " : "",
			         pl_metric_info[m].name);
		}
		n++;
	}
	if (n && !pl_run_failed(run)) /* a failed run measured nothing: no news */
		pl_run_warn(run, "%zu latency statistic%s of exactly 0 stored as missing (not measured): %s",
		            n, n > 1 ? "s" : "", names);
}

/* The realized workload: mean input and output tokens per request from the
 * totals and the completed count, where the tool did not give the means
 * itself. Done here, for every run whatever its adapter, so that the 10%
 * workload rule of compare (input_tokens, max_output_tokens) sees every file
 * that records totals (vLLM, SGLang, InferenceMAX, AIPerf, descriptors). */
static void derive_token_means(struct pl_run *run)
{
	double c = run->metric[PL_M_REQUESTS_COMPLETED];

	if (!run->has_metric[PL_M_REQUESTS_COMPLETED] || !(c > 0))
		return;
	if (run->has_metric[PL_M_TOTAL_INPUT_TOKENS] && !run->has_metric[PL_M_INPUT_TOKENS_MEAN])
		pl_run_set_metric(run, PL_M_INPUT_TOKENS_MEAN, run->metric[PL_M_TOTAL_INPUT_TOKENS] / c);
	if (run->has_metric[PL_M_TOTAL_OUTPUT_TOKENS] && !run->has_metric[PL_M_OUTPUT_TOKENS_MEAN])
		pl_run_set_metric(run, PL_M_OUTPUT_TOKENS_MEAN, run->metric[PL_M_TOTAL_OUTPUT_TOKENS] / c);
}

/* Per-accelerator throughputs from the accelerator count, where the tool did
 * not give them itself. */
static void derive_per_accelerator(struct pl_run *run)
{
	const struct pl_value *ac = &run->cond[PL_C_ACCELERATOR_COUNT];

	if (!ac->set || !(ac->num >= 1) || isinf(ac->num))
		return;
	if (run->has_metric[PL_M_OUTPUT_THROUGHPUT] &&
	    !run->has_metric[PL_M_OUTPUT_THROUGHPUT_PER_ACCELERATOR])
		pl_run_set_metric(run, PL_M_OUTPUT_THROUGHPUT_PER_ACCELERATOR,
		                  run->metric[PL_M_OUTPUT_THROUGHPUT] / ac->num);
	if (run->has_metric[PL_M_TOTAL_TOKEN_THROUGHPUT] &&
	    !run->has_metric[PL_M_TOTAL_TOKEN_THROUGHPUT_PER_ACCELERATOR])
		pl_run_set_metric(run, PL_M_TOTAL_TOKEN_THROUGHPUT_PER_ACCELERATOR,
		                  run->metric[PL_M_TOTAL_TOKEN_THROUGHPUT] / ac->num);
}

/* Every condition's text is UTF-8: it reaches JSON, HTML, spreadsheets and
 * terminals, and a reader that replaces bad bytes would show a value that
 * no --where can find. JSON input is checked as it is read; this covers
 * CSV, text formats and --set. */
static int check_utf8(const struct pl_run *run, struct pl_error *err)
{
	for (int i = 0; i < PL_COND_COUNT; i++) {
		const char *t = run->cond[i].text;
		size_t n, bad;
		if (!run->cond[i].set || !t)
			continue;
		n = strlen(t);
		if ((bad = pl_utf8_valid_prefix(t, n)) < n) {
			pl_error_set(err, PL_EINVALID, "'%s' is not UTF-8 (byte 0x%02X at offset %zu)",
			             pl_cond_info[i].name, (unsigned)(unsigned char)t[bad], bad);
			return fail(err, pl_cond_info[i].name);
		}
	}
	return 0;
}

int pl_validate_run(struct pl_run *run, struct pl_error *err)
{
	int rc;

	drop_zero_latencies(run);
	derive_per_accelerator(run);
	derive_token_means(run);
	pl_run_update_checklist(run);
	rc = check_utf8(run, err);
	if (rc == 0)
		rc = pl_validate_required(run, err);
	if (rc == 0)
		rc = check_values(run, err);
	if (rc == 0)
		rc = check_order(run, err);
	if (rc == 0) /* a ledger record's trail: as the commands that write one check it */
		rc = pl_carried_check(run, err);
	return rc;
}
