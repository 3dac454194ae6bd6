/*
 * test_serving_layouts.c — result layouts of today's tools read as their
 * code writes them, on the project's own fixtures (tests/fixtures/<adapter>/):
 * the InferenceX agentic aggregate (utils/agentic/aggregation), the
 * multi-turn results of genai-bench and GuideLLM, speculative decoding's
 * per-position acceptance rates, and range errors that name the key as the
 * file writes it.
 *
 * Every expected value is worked out by hand from the fixture; the
 * arithmetic is in the comment next to it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/adapters.h"
#include "core/compare.h"
#include "core/engine_args.h"
#include "core/error.h"
#include "core/model.h"
#include "core/normalize.h"
#include "core/validate.h"

/* ------------------------------------------------------------- helpers */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		fail_msg("cannot open %s", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Parses fixture rel (under tests/fixtures) into *l (initialised here), as
 * the importer does: adapter, then set (name, value pairs ended by NULL:
 * what a sidecar gives), engine_args, named extras, normalization,
 * validation. Returns the first error code (err filled) or 0. */
static int parse(const char *rel, const char *const *set, struct pl_run_list *l,
                 struct pl_error *err)
{
	char path[4096];
	size_t len;
	char *buf;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", PL_FIXTURES_DIR, rel);
	buf = slurp(path, &len);
	pl_run_list_init(l);
	pl_error_init(err);
	rc = pl_adapters_parse(rel, buf, len, NULL, l, err);
	free(buf);
	for (size_t i = 0; !rc && i < l->n; i++) {
		struct pl_run *r = &l->v[i];
		for (size_t k = 0; set && set[k]; k += 2)
			assert_int_equal(pl_run_set_cond(r, pl_cond_lookup(set[k]), set[k + 1], err), 0);
		rc = pl_engine_args_apply(r, err);
		if (!rc)
			rc = pl_normalize_named_extras(r, err);
		if (!rc)
			rc = pl_normalize_run(r, err);
		if (!rc)
			rc = pl_validate_run(r, err);
	}
	return rc;
}

static void load(const char *rel, const char *const *set, struct pl_run_list *l)
{
	struct pl_error err;
	int rc = parse(rel, set, l, &err);

	if (rc)
		fail_msg("%s: rc %d: %s", rel, rc, err.message);
}

static void assert_num(double got, double want)
{
	if (!(fabs(got - want) <= 1e-12 * fabs(want)))
		fail_msg("got %.17g, want %.17g", got, want);
}

/* Each {name, value} of want (ended by a NULL name) is the run's metric;
 * a NAN value asserts the metric is absent. */
struct kv {
	const char *name;
	double value;
};

static void assert_metrics(const struct pl_run *r, const struct kv *want)
{
	for (const struct kv *w = want; w->name; w++) {
		int m = pl_metric_lookup(w->name);
		if (m < 0)
			fail_msg("no metric %s", w->name);
		if (isnan(w->value)) {
			if (r->has_metric[m])
				fail_msg("metric %s is %.17g, want missing", w->name, r->metric[m]);
			continue;
		}
		if (!r->has_metric[m])
			fail_msg("metric %s missing", w->name);
		if (!(fabs(r->metric[m] - w->value) <= 1e-12 * fabs(w->value)))
			fail_msg("metric %s: got %.17g, want %.17g", w->name, r->metric[m], w->value);
	}
}

static void assert_cond(const struct pl_run *r, int id, const char *want)
{
	if (!want) {
		if (r->cond[id].set)
			fail_msg("%s is '%s', want missing", pl_cond_info[id].name, r->cond[id].text);
		return;
	}
	if (!r->cond[id].set)
		fail_msg("%s missing, want '%s'", pl_cond_info[id].name, want);
	assert_string_equal(r->cond[id].text, want);
}

static void assert_extra(const struct pl_run *r, const char *name, const char *want)
{
	const char *got = pl_run_extra(r, name);

	if (!want) {
		if (got)
			fail_msg("extra %s is '%s', want none", name, got);
		return;
	}
	if (!got)
		fail_msg("extra %s missing, want '%s'", name, want);
	assert_string_equal(got, want);
}

static double measure(const struct pl_run *r, const char *name)
{
	const struct pl_measure *m = pl_run_measure(r, name);

	if (!m || !m->is_num)
		fail_msg("no numeric measurement %s", name);
	return m->num;
}

/* No extra condition of r has a name containing any of words (NULL-ended). */
static void no_extra_like(const struct pl_run *r, const char *const *words)
{
	for (size_t i = 0; i < r->nextra; i++)
		for (const char *const *w = words; *w; w++)
			if (strstr(r->extra[i].name, *w))
				fail_msg("extra condition %s = '%s' is a measurement", r->extra[i].name,
				         r->extra[i].value);
}

#define MISSING NAN

/* ------------------------------------------------ InferenceX agentic v3 */

/* agentic_result.json is what utils/agentic/aggregation/
 * process_agentic_result.py writes (round_floats: 5 decimals): latencies in
 * seconds under request_metrics.latency.<f>.{mean,p50,p75,p90,p95,std},
 * throughputs under request_metrics.throughput, token totals under
 * server_metrics.tokens, and request_accounting. */
static void inferencex_agentic(void **state)
{
	static const struct kv m[] = {
		{"ttft_mean", 1.84211}, {"ttft_p50", 0.91234}, {"ttft_p90", 3.75}, {"ttft_p95", 5.125},
		{"ttft_std", 2},
		/* the aggregator writes no p99: none is made up */
		{"ttft_p99", MISSING}, {"e2el_p99", MISSING},
		{"e2el_mean", 24.5}, {"e2el_p50", 18.25}, {"e2el_p90", 52.5}, {"e2el_p95", 71},
		{"e2el_std", 19.75},
		{"itl_mean", 0.02875}, {"itl_p50", 0.0265}, {"itl_p90", 0.0385}, {"itl_p95", 0.0445},
		{"itl_std", 0.008},
		{"tpot_mean", 0.02875}, {"tpot_p50", 0.0265}, {"tpot_p90", 0.0385},
		{"tpot_p95", 0.0445}, {"tpot_std", 0.008},
		/* intvty is 1/ITL per statistic, not a per-request rate: not mapped */
		{"tokens_per_second_p50", MISSING}, {"tokens_per_second_mean", MISSING},
		{"output_throughput", 198.75}, {"total_token_throughput", 20075.25},
		{"duration", 412.5},
		{"output_throughput_per_accelerator", 24.84375},       /* 198.75 / 8 */
		{"total_token_throughput_per_accelerator", 2509.40625}, /* 20075.25 / 8 */
		{"input_tokens_mean", 41234.5}, {"output_tokens_mean", 412.25},
		{"total_input_tokens", 33729821}, {"total_output_tokens", 337220},
		/* 830 records: 818 profiled, 8 warm-up and 4 errors dropped; the
		 * warm-up records are not failures */
		{"requests_completed", 818}, {"requests_failed", 4},
		{"error_rate", 4.0 / 822.0},
		{NULL, 0}};
	static const char *const results[] = {"request_metrics", "server_metrics",
	                                      "request_accounting", "kv_cache_pool", NULL};
	static const char *const set[] = {NULL};
	struct pl_run_list l;
	const struct pl_run *r;

	(void)state;
	load("inferencemax/agentic_result.json", set, &l);
	assert_int_equal(l.n, 1);
	r = &l.v[0];
	assert_metrics(r, m);
	assert_cond(r, PL_C_HARDWARE, "b200");
	assert_cond(r, PL_C_CONCURRENCY, "32");
	assert_cond(r, PL_C_ENGINE_VERSION, "0.22.1");
	assert_cond(r, PL_C_SPECULATIVE_METHOD, "mtp");
	assert_cond(r, PL_C_KV_OFFLOAD, "dram");
	assert_cond(r, PL_C_PIPELINE_PARALLEL_SIZE, "1");
	assert_cond(r, PL_C_EXPERT_PARALLEL_SIZE, "8");
	assert_cond(r, PL_C_DATASET, "semianalysisai/cc-traces-weka-062126");
	/* settings with no canonical field: extra conditions */
	assert_extra(r, "inferencemax.kv_offload_backend.name", "vllm-native");
	assert_extra(r, "inferencemax.router.name", "vllm-router");
	assert_extra(r, "inferencemax.allocated_cpu_dram_gb", "512");
	assert_extra(r, "inferencemax.scenario_type", "agentic-coding");
	/* results the product has no metric for: unplaced measurements */
	no_extra_like(r, results);
	assert_num(measure(r, "inferencemax.request_metrics.latency.ttft.p75"), 1.5);
	assert_num(measure(r, "inferencemax.request_metrics.latency.full_response_itl.mean"), 0.0301);
	assert_num(measure(r, "inferencemax.request_metrics.qps.mean"), 1.98544);
	assert_num(measure(r, "inferencemax.request_metrics.cache.theoretical_cache_hit_rate"),
	           0.91234);
	assert_num(measure(r, "inferencemax.server_metrics.kv_cache.gpu_total_tokens"), 1234567);
	assert_num(measure(r, "inferencemax.server_metrics.cache.gpu_cache_hit_rate"), 0.87);
	pl_run_list_release(&l);
}


/* ------------------------------------------------ GuideLLM multi-turn */

/* What a GuideLLM report (metadata.version 2) records of a synthetic
 * multi-turn workload: config.spec.data[0].turns -> turns_per_conversation;
 * the other conversation settings (first_prompt_tokens, delay = think time)
 * stay in the dataset text, a condition. */
static const char *const needed[] = {"hardware", "h100", "engine", "vllm", "precision", "bf16",
                                     NULL};

static void guidellm_multi_turn(void **state)
{
	struct pl_run_list mt, one, old;

	(void)state;
	load("guidellm/report_v2_multiturn.json", needed, &mt);
	load("guidellm/report_v2_turns1.json", needed, &one);
	load("guidellm/report_v2.json", needed, &old);
	assert_cond(&mt.v[0], PL_C_TURNS_PER_CONVERSATION, "4");
	assert_cond(&mt.v[0], PL_C_DATASET,
	            "synthetic_text prompt_tokens=300 output_tokens=50 first_prompt_tokens=1200 "
	            "delay=2.5 turns=4");
	/* a results section: tool_call (null summaries) is no condition */
	no_extra_like(&mt.v[0], (const char *const[]){"tool_call", NULL});
	/* turns 1 written by a newer GuideLLM, and no turns key at all (0.8,
	 * single-turn data only): one single-turn workload, one dataset text */
	assert_cond(&one.v[0], PL_C_TURNS_PER_CONVERSATION, "1");
	assert_cond(&old.v[0], PL_C_TURNS_PER_CONVERSATION, "1");
	assert_string_equal(one.v[0].cond[PL_C_DATASET].text, old.v[0].cond[PL_C_DATASET].text);
	assert_string_equal(old.v[0].cond[PL_C_DATASET].text,
	                    "synthetic_text prompt_tokens=300 output_tokens=50");
	pl_run_list_release(&mt);
	pl_run_list_release(&one);
	pl_run_list_release(&old);
}

/* A multi-turn and a single-turn GuideLLM run never pool: the comparison
 * is refused naming turns_per_conversation. */
static void guidellm_turns_refuse(void **state)
{
	struct pl_run_list a, b, l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	int rc;

	(void)state;
	load("guidellm/report_v2_multiturn.json", needed, &a);
	load("guidellm/report_v2_turns1.json", needed, &b);
	pl_run_list_init(&l);
	for (int k = 0; k < 2; k++) {
		struct pl_run *r = pl_run_list_push(&l);
		assert_non_null(r);
		assert_int_equal(pl_run_copy(r, k ? &b.v[0] : &a.v[0]), 0);
		r->id = k + 1;
	}
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	o.axis[0] = PL_C_HARDWARE;
	o.naxis = 1;
	rc = pl_compare_build(&l, &o, &c, &e);
	assert_int_equal(rc, PL_EMISMATCH);
	{
		int named = 0;
		for (size_t k = 0; k < c.nmismatches; k++)
			if (c.mismatches[k].cond == PL_C_TURNS_PER_CONVERSATION) {
				named = 1;
				assert_int_equal(c.mismatches[k].nvalues, 2);
			}
		assert_true(named);
	}
	pl_comparison_release(&c);
	pl_run_list_release(&l);
	pl_run_list_release(&a);
	pl_run_list_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(inferencex_agentic),
		cmocka_unit_test(guidellm_multi_turn),
		cmocka_unit_test(guidellm_turns_refuse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
