/*
 * test_serving_stacks.c — the conditions of today's serving stacks and the
 * metrics that go with them, on the project's own fixtures
 * (tests/fixtures/<adapter>/, written in each tool's layout): speculative
 * decoding (vLLM spec_decode_*, SGLang accept_length, the launch flags
 * naming the method), reasoning counted as output (AIPerf), multi-turn
 * workloads (AIPerf conversations), structured output (vLLM), disaggregated
 * prefill/decode pools (InferenceX) and goodput kept with its SLO.
 *
 * Every expected value is worked out by hand from the fixture; the
 * arithmetic is in the comment next to it. The comparison rules: two runs
 * that differ only in a new condition are refused naming it (the
 * table-driven no_condition_pools_silently of test_compare.c covers every
 * condition of model.h, these included); two runs that differ only in a
 * new metric compare; two goodput values compare only under one SLO.
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

#include "caveat_text.h"

/* ------------------------------------------------------------- helpers */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
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

/* Parses fixture rel into *l (initialised here); every run then gets the
 * conditions in set (name, value pairs ended by NULL: what a sidecar or
 * --set gives for a file without them) and goes through what the importer
 * does after its adapter: engine_args, named extras, normalization and
 * validation. All must succeed. */
static void load(const char *rel, const char *const *set, struct pl_run_list *l)
{
	char path[4096];
	struct pl_error err;
	size_t len;
	char *buf;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", PL_FIXTURES_DIR, rel);
	buf = slurp(path, &len);
	pl_run_list_init(l);
	pl_error_init(&err);
	rc = pl_adapters_parse(path, buf, len, NULL, l, &err);
	free(buf);
	if (rc)
		fail_msg("%s: rc %d: %s", rel, rc, err.message);
	for (size_t i = 0; i < l->n; i++) {
		struct pl_run *r = &l->v[i];
		for (size_t k = 0; set && set[k]; k += 2)
			assert_int_equal(pl_run_set_cond(r, pl_cond_lookup(set[k]), set[k + 1], &err), 0);
		rc = pl_engine_args_apply(r, &err);
		if (!rc)
			rc = pl_normalize_named_extras(r, &err);
		if (!rc)
			rc = pl_normalize_run(r, &err);
		if (!rc)
			rc = pl_validate_run(r, &err);
		if (rc)
			fail_msg("%s record %zu: rc %d: %s", rel, i, rc, err.message);
	}
}

static void assert_num(double got, double want)
{
	if (!(fabs(got - want) <= 1e-12 * fabs(want)))
		fail_msg("got %.17g, want %.17g", got, want);
}

static void assert_metric(const struct pl_run *r, int m, double want)
{
	if (!r->has_metric[m])
		fail_msg("metric %s missing", pl_metric_info[m].name);
	assert_num(r->metric[m], want);
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

/* What vLLM and SGLang files lack: the required conditions. */
static const char *const needed[] = {"hardware", "1x NVIDIA H100 80G", "engine", "vllm",
                                     "precision", "bf16", NULL};

/* ----------------------------------------------- speculative decoding */

/* vLLM spec_decode_*: the rate is percent, the method is not in the file. */
static void vllm_spec_decode(void **state)
{
	struct pl_run_list l;
	const struct pl_run *r;

	(void)state;
	load("vllm-serving/spec_decode.json", needed, &l);
	assert_int_equal(l.n, 1);
	r = &l.v[0];
	assert_metric(r, PL_M_SPEC_ACCEPTANCE_RATE, 0.584); /* 58.4 % / 100 */
	assert_metric(r, PL_M_SPEC_ACCEPTANCE_LENGTH, 2.752);
	assert_cond(r, PL_C_SPECULATIVE_METHOD, "unknown"); /* acceptance data, no method */
	assert_cond(r, PL_C_SPECULATIVE_DRAFT_TOKENS, NULL);
	/* metrics never enter the condition key: no extra holds them */
	assert_null(pl_run_extra(r, "vllm-serving.spec_decode_acceptance_rate"));
	assert_null(pl_run_extra(r, "vllm-serving.spec_decode_acceptance_length"));
	pl_run_list_release(&l);
}

/* The launch flags name the method a file only shows as "unknown". */
static void engine_args_name_the_method(void **state)
{
	static const char *const set[] = {
		"hardware", "1x NVIDIA H100 80G", "engine", "vllm", "precision", "bf16",
		"engine_args", "--speculative-config '{\"method\": \"eagle3\", \"num_speculative_tokens\": 3}'",
		NULL};
	struct pl_run_list l;

	(void)state;
	load("vllm-serving/spec_decode.json", set, &l);
	assert_cond(&l.v[0], PL_C_SPECULATIVE_METHOD, "eagle3");
	assert_cond(&l.v[0], PL_C_SPECULATIVE_DRAFT_TOKENS, "3");
	assert_metric(&l.v[0], PL_M_SPEC_ACCEPTANCE_RATE, 0.584);
	pl_run_list_release(&l);
}

/* SGLang accept_length: a number shows speculative decoding, null does not. */
static void sglang_accept_length(void **state)
{
	struct pl_run_list l;

	(void)state;
	load("sglang-bench-serving/spec_accept.jsonl",
	     (const char *const[]){"model", "m", "hardware", "1x NVIDIA H100 80G", "engine", "sglang",
	                           "precision", "bf16", NULL},
	     &l);
	assert_int_equal(l.n, 2);
	assert_metric(&l.v[0], PL_M_SPEC_ACCEPTANCE_LENGTH, 3.12);
	assert_cond(&l.v[0], PL_C_SPECULATIVE_METHOD, "unknown");
	assert_false(l.v[1].has_metric[PL_M_SPEC_ACCEPTANCE_LENGTH]);
	assert_cond(&l.v[1], PL_C_SPECULATIVE_METHOD, NULL);
	assert_null(pl_run_extra(&l.v[1], "sglang-bench-serving.accept_length"));
	pl_run_list_release(&l);
}

/* Method names are one spelling whatever the case; draft models keep theirs. */
static void spec_method_normalized(void **state)
{
	char *a = pl_normalize_value(PL_C_SPECULATIVE_METHOD, " EAGLE3 ");
	char *b = pl_normalize_value(PL_C_SPECULATIVE_METHOD, "Qwen/Qwen3-0.6B");

	(void)state;
	assert_string_equal(a, "eagle3");
	assert_string_equal(b, "Qwen/Qwen3-0.6B");
	free(a);
	free(b);
}

/* ------------------------------------- reasoning, multi-turn, goodput SLO */

static void aiperf_multi_turn_reasoning(void **state)
{
	struct pl_run_list l;
	const struct pl_run *r;

	(void)state;
	load("aiperf/multi_turn_reasoning.json", (const char *const[]){"hardware", "8x NVIDIA H200",
	                                                                 "engine", "vllm", "precision",
	                                                                 "fp8", NULL},
	     &l);
	r = &l.v[0];
	/* reasoning_token_count.avg 350 > 0: output figures include reasoning */
	assert_cond(r, PL_C_OUTPUT_INCLUDES_REASONING, "true");
	assert_cond(r, PL_C_CONVERSATION_COUNT, "50");
	assert_cond(r, PL_C_TURNS_PER_CONVERSATION, "4");
	assert_cond(r, PL_C_DATASET_TYPE, "multi_turn");
	assert_metric(r, PL_M_GOODPUT, 3.2);
	assert_metric(r, PL_M_GOODPUT_SLO_TTFT, 0.5);  /* 500 ms */
	assert_metric(r, PL_M_GOODPUT_SLO_TPOT, 0.02); /* 20 ms */
	assert_false(r->has_metric[PL_M_GOODPUT_SLO_E2EL]);
	/* the extras are settings the inventory names (endpoint type, spreads),
	 * never a measured value */
	assert_int_equal(r->nextra, 4);
	assert_string_equal(pl_run_extra(r, "aiperf.input_config.input.conversation.turn.stddev"), "0");
	assert_null(pl_run_extra(r, "aiperf.reasoning_token_count"));
	pl_run_list_release(&l);
}

/* A reasoning parser on the server: output counts include reasoning. */
static void reasoning_parser_flag(void **state)
{
	struct pl_run r;
	struct pl_error err;

	(void)state;
	pl_run_init(&r);
	pl_error_init(&err);
	assert_int_equal(pl_run_set_cond(&r, PL_C_ENGINE_ARGS,
	                                 "--tensor-parallel-size 8 --reasoning-parser deepseek_r1", &err),
	                 0);
	assert_int_equal(pl_engine_args_apply(&r, &err), 0);
	assert_cond(&r, PL_C_OUTPUT_INCLUDES_REASONING, "true");
	assert_cond(&r, PL_C_TENSOR_PARALLEL_SIZE, "8");
	/* a file that says the output excludes reasoning disagrees: refused */
	pl_run_release(&r);
	pl_run_init(&r);
	assert_int_equal(pl_run_set_cond(&r, PL_C_ENGINE_ARGS, "--reasoning-parser=qwen3", &err), 0);
	assert_int_equal(pl_run_set_cond(&r, PL_C_OUTPUT_INCLUDES_REASONING, "false", &err), 0);
	assert_int_equal(pl_engine_args_apply(&r, &err), PL_EINVALID);
	assert_string_equal(err.message, "output_includes_reasoning is false but engine_args says true "
	                                 "(--reasoning-parser): they must agree");
	pl_run_release(&r);
}

/* ------------------------------------------------ structured output */

static void vllm_structured_output(void **state)
{
	struct pl_run_list l;

	(void)state;
	load("vllm-serving/structured_output.json", needed, &l);
	assert_cond(&l.v[0], PL_C_STRUCTURED_OUTPUT_RATIO, "0.5");
	assert_metric(&l.v[0], PL_M_CORRECT_RATE, 0.986); /* 98.6 % / 100 */
	assert_null(pl_run_extra(&l.v[0], "vllm-serving.correct_rate(%)"));
	pl_run_list_release(&l);
}

/* ------------------------------------------------ disaggregated serving */

static void inferencemax_disaggregated(void **state)
{
	struct pl_run_list l;
	const struct pl_run *r;

	(void)state;
	load("inferencemax/disagg_result.json", NULL, &l);
	r = &l.v[0];
	assert_cond(r, PL_C_HARDWARE, "prefill 8x b200 + decode 16x h100");
	assert_cond(r, PL_C_ACCELERATOR_COUNT, "24"); /* 8 + 16 */
	assert_cond(r, PL_C_PREFILL_HARDWARE, "b200");
	assert_cond(r, PL_C_DECODE_HARDWARE, "h100");
	assert_cond(r, PL_C_PREFILL_ACCELERATOR_COUNT, "8");
	assert_cond(r, PL_C_DECODE_ACCELERATOR_COUNT, "16");
	assert_cond(r, PL_C_PREFILL_TENSOR_PARALLEL_SIZE, "8");
	assert_cond(r, PL_C_DECODE_TENSOR_PARALLEL_SIZE, "8");
	assert_metric(r, PL_M_OUTPUT_THROUGHPUT_PER_ACCELERATOR, 200.0);       /* 4800 / 24 */
	assert_metric(r, PL_M_TOTAL_TOKEN_THROUGHPUT_PER_ACCELERATOR, 1000.0); /* 24000 / 24 */
	pl_run_list_release(&l);
}

/* A hardware naming one pool is replaced; a count that disagrees is refused. */
static void pools_name_the_hardware(void **state)
{
	struct pl_run r;
	struct pl_error err;

	(void)state;
	pl_run_init(&r);
	pl_error_init(&err);
	assert_int_equal(pl_run_set_cond(&r, PL_C_HARDWARE, "b200", &err), 0);
	assert_int_equal(pl_run_set_cond(&r, PL_C_PREFILL_HARDWARE, "4x B200", &err), 0);
	assert_int_equal(pl_run_set_cond(&r, PL_C_DECODE_HARDWARE, "H100", &err), 0);
	assert_int_equal(pl_run_set_cond(&r, PL_C_DECODE_ACCELERATOR_COUNT, "8", &err), 0);
	assert_int_equal(pl_normalize_run(&r, &err), 0);
	assert_string_equal(r.cond[PL_C_HARDWARE].text, "prefill 4x B200 + decode 8x H100");
	assert_false(r.cond[PL_C_ACCELERATOR_COUNT].set); /* prefill's count not given */
	assert_string_equal(r.warnings, "hardware 'b200' names one pool of a disaggregated run: "
	                                "stored as 'prefill 4x B200 + decode 8x H100'");
	/* idempotent: normalizing again changes nothing and warns no more */
	free(r.warnings);
	r.warnings = NULL;
	assert_int_equal(pl_normalize_run(&r, &err), 0);
	assert_null(r.warnings);
	assert_int_equal(pl_run_set_cond(&r, PL_C_PREFILL_ACCELERATOR_COUNT, "4", &err), 0);
	assert_int_equal(pl_run_set_cond(&r, PL_C_ACCELERATOR_COUNT, "8", &err), 0);
	assert_int_equal(pl_normalize_run(&r, &err), PL_EINVALID);
	assert_string_equal(err.message, "accelerator_count 8 disagrees with the disaggregated pools "
	                                 "(prefill 4 + decode 8)");
	assert_int_equal(pl_run_set_cond(&r, PL_C_ACCELERATOR_COUNT, "12", &err), 0);
	assert_int_equal(pl_normalize_run(&r, &err), 0);
	pl_run_release(&r);
}

/* ---------------------------------------------------- comparison rules */

/* A compared run: model m, one hardware, goodput 2 and every condition the
 * checklist wants. */
static struct pl_run *add(struct pl_run_list *l, long long id)
{
	struct pl_run *r = pl_run_list_push(l);
	static const char *const c[][2] = {
		{"model", "m"},          {"precision", "bf16"},     {"engine", "vllm"},
		{"hardware", "1x H100"}, {"input_tokens", "512"},   {"max_output_tokens", "128"},
		{"concurrency", "8"},
	};

	assert_non_null(r);
	r->id = id;
	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++)
		assert_int_equal(pl_run_set_cond(r, pl_cond_lookup(c[k][0]), c[k][1], NULL), 0);
	pl_run_set_metric(r, PL_M_TTFT_P50, 0.2);
	pl_run_set_metric(r, PL_M_REQUESTS_COMPLETED, 100);
	return r;
}

/* Two runs that differ only in one of the new metrics compare: one row of
 * two runs, the median of the two values, no refusal. */
static void new_metrics_never_refuse(void **state)
{
	static const int metrics[] = {PL_M_SPEC_ACCEPTANCE_RATE, PL_M_SPEC_ACCEPTANCE_LENGTH,
	                              PL_M_CORRECT_RATE,         PL_M_GOODPUT_SLO_TTFT,
	                              PL_M_GOODPUT_SLO_TPOT,     PL_M_GOODPUT_SLO_E2EL};

	(void)state;
	for (size_t k = 0; k < sizeof(metrics) / sizeof(metrics[0]); k++) {
		struct pl_run_list l;
		struct pl_compare_opts o;
		struct pl_comparison c;
		struct pl_error e;

		pl_run_list_init(&l);
		memset(&o, 0, sizeof(o));
		pl_error_init(&e);
		add(&l, 1);
		add(&l, 2);
		pl_run_set_metric(&l.v[0], metrics[k], 0.5);
		pl_run_set_metric(&l.v[1], metrics[k], 0.75);
		o.axis[0] = PL_C_HARDWARE;
		o.naxis = 1;
		o.metrics[0] = metrics[k];
		o.nmetrics = 1;
		assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
		assert_int_equal(c.nrows, 1);
		assert_int_equal(c.rows[0].n, 2);
		assert_int_equal(c.rows[0].n_metric[metrics[k]], 2);
		assert_num(c.rows[0].metric[metrics[k]], 0.625); /* (0.5 + 0.75) / 2 */
		pl_comparison_release(&c);
		pl_run_list_release(&l);
	}
}

/* Goodput under one SLO compares; under two, or without one, it is n/a
 * with a caveat while the other metrics still compare; asked alone, the
 * comparison is refused naming the SLOs. */
static void goodput_only_with_its_slo(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	struct pl_run *a, *b;

	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	add(&l, 1);
	add(&l, 2);
	a = &l.v[0]; /* a push may move the runs */
	b = &l.v[1];
	assert_int_equal(pl_run_set_cond(b, PL_C_HARDWARE, "1x B200", NULL), 0);
	pl_run_set_metric(a, PL_M_GOODPUT, 2.0);
	pl_run_set_metric(b, PL_M_GOODPUT, 3.0);
	pl_run_set_metric(a, PL_M_GOODPUT_SLO_TTFT, 0.2);
	pl_run_set_metric(b, PL_M_GOODPUT_SLO_TTFT, 0.2);
	o.axis[0] = PL_C_HARDWARE;
	o.naxis = 1;
	o.metrics[0] = PL_M_GOODPUT;
	o.metrics[1] = PL_M_TTFT_P50;
	o.nmetrics = 2;

	/* one SLO: compared; rows by hardware (B200 first): 2 / 3 - 1 = -33.3% */
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.nrows, 2);
	assert_int_equal(c.caveats.n, 0);
	assert_true(c.rows[1].has_delta[PL_M_GOODPUT]);
	assert_num(c.rows[1].delta_pct[PL_M_GOODPUT], 100.0 * (2.0 / 3.0 - 1.0));
	pl_comparison_release(&c);

	/* two SLOs: goodput n/a, TTFT still compared */
	pl_run_set_metric(b, PL_M_GOODPUT_SLO_TTFT, 0.5);
	pl_run_set_metric(b, PL_M_GOODPUT_SLO_E2EL, 10);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.rows[0].n_metric[PL_M_GOODPUT], 0);
	assert_int_equal(c.rows[1].n_metric[PL_M_GOODPUT], 0);
	assert_false(c.rows[1].has_delta[PL_M_GOODPUT]);
	assert_true(c.rows[1].has_delta[PL_M_TTFT_P50]);
	assert_int_equal(c.caveats.n, 1);
	assert_int_equal(c.caveats.v[0].code, PL_MSG_GOODPUT_SLO_DIFFERS);
	assert_string_equal(cav_en(&c, 0), "goodput is n/a: its values were counted against "
	                                   "different SLOs (ttft 0.2 s, ttft 0.5 s, e2el 10 s); "
	                                   "goodput values compare only under one SLO");
	pl_comparison_release(&c);

	/* asked alone: refused, naming the SLOs */
	o.nmetrics = 1;
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
	assert_int_equal(c.nmismatches, 0);
	assert_string_equal(e.message, "comparison refused: goodput compares only when counted "
	                               "against one SLO, and the SLOs differ: 'ttft 0.2 s' vs "
	                               "'ttft 0.5 s, e2el 10 s'");
	pl_comparison_release(&c);

	/* a run without its SLO: n/a, the caveat names it */
	o.nmetrics = 2;
	pl_run_set_metric(b, PL_M_GOODPUT_SLO_TTFT, NAN);
	b->has_metric[PL_M_GOODPUT_SLO_TTFT] = 0;
	b->has_metric[PL_M_GOODPUT_SLO_E2EL] = 0;
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.caveats.n, 1);
	assert_string_equal(cav_en(&c, 0), "goodput is n/a: runs 2 record no SLO for their goodput "
	                                   "(the others: ttft 0.2 s); goodput values compare only "
	                                   "under one SLO");
	pl_comparison_release(&c);
	o.nmetrics = 1;
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
	assert_string_equal(e.message, "comparison refused: goodput compares only when counted "
	                               "against one SLO; 1 run records none, the others 'ttft 0.2 s'");
	pl_comparison_release(&c);
	pl_run_list_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vllm_spec_decode),
		cmocka_unit_test(engine_args_name_the_method),
		cmocka_unit_test(sglang_accept_length),
		cmocka_unit_test(spec_method_normalized),
		cmocka_unit_test(aiperf_multi_turn_reasoning),
		cmocka_unit_test(reasoning_parser_flag),
		cmocka_unit_test(vllm_structured_output),
		cmocka_unit_test(inferencemax_disaggregated),
		cmocka_unit_test(pools_name_the_hardware),
		cmocka_unit_test(new_metrics_never_refuse),
		cmocka_unit_test(goodput_only_with_its_slo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
