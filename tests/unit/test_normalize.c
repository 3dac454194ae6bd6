/* test_normalize.c — every normalization rule, and what must not merge. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/normalize.h"

static void check(char *(*fn)(const char *), const char *in, const char *want)
{
	char *got = fn(in);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void precision_aliases(void **state)
{
	(void)state;
	check(pl_normalize_precision, "bf16", "bfloat16");
	check(pl_normalize_precision, "BF16", "bfloat16");
	check(pl_normalize_precision, " bfloat16 ", "bfloat16");
	check(pl_normalize_precision, "fp16", "float16");
	check(pl_normalize_precision, "half", "float16");
	check(pl_normalize_precision, "FP8", "fp8");
	/* different things never merge */
	check(pl_normalize_precision, "fp8_e5m2", "fp8_e5m2");
	check(pl_normalize_precision, "int8", "int8");
	check(pl_normalize_precision, "w8a8", "w8a8");
	check(pl_normalize_precision, "int4-awq", "int4-awq");
	check(pl_normalize_precision, "nvfp4", "nvfp4");
}

static void engine_aliases(void **state)
{
	(void)state;
	check(pl_normalize_engine, "vLLM", "vllm");
	check(pl_normalize_engine, "TensorRT-LLM", "trt-llm");
	check(pl_normalize_engine, "tensorrt_llm", "trt-llm");
	check(pl_normalize_engine, "llama-cpp", "llama.cpp");
	check(pl_normalize_engine, "SGLang", "sglang");
	check(pl_normalize_engine, "text-generation-inference", "tgi");
	check(pl_normalize_engine, "MyEngine", "myengine");
	check(pl_normalize_deployment, "Cloud", "cloud-api");
	check(pl_normalize_deployment, "local", "local");
}

static void accelerator_count(void **state)
{
	(void)state;
	assert_int_equal(pl_hardware_accelerator_count("2x NVIDIA A100 80G"), 2);
	assert_int_equal(pl_hardware_accelerator_count("8xH100"), 8);
	assert_int_equal(pl_hardware_accelerator_count("4 x MI300X"), 4);
	assert_int_equal(pl_hardware_accelerator_count("2\xc3\x97 L40S"), 2);
	assert_int_equal(pl_hardware_accelerator_count("NVIDIA A100"), 0);
	assert_int_equal(pl_hardware_accelerator_count("Groq LPU (cloud API)"), 0);
	assert_int_equal(pl_hardware_accelerator_count("2x"), 0);
	assert_int_equal(pl_hardware_accelerator_count("0x A100"), 0);
	assert_int_equal(pl_hardware_accelerator_count("4090 RTX"), 0);
}

static void versions_in_natural_order(void **state)
{
	(void)state;
	assert_true(pl_version_cmp("0.6.3", "0.10.1") < 0);
	assert_true(pl_version_cmp("0.10.1", "0.6.3") > 0);
	assert_true(pl_version_cmp("v0.6.3", "0.6.3") == 0);
	assert_true(pl_version_cmp("0.6.3", "0.6.3.post1") < 0);
	assert_true(pl_version_cmp("b4800", "b5200") < 0);
	assert_true(pl_version_cmp("550.54.15", "550.9") > 0);
	assert_true(pl_version_cmp("12.4", "12.10") < 0);
	assert_true(pl_version_cmp("0.10", "0.1") > 0);
	assert_true(pl_version_cmp("007", "7") == 0);
}

static void run_normalization(void **state)
{
	struct pl_run r;
	struct pl_error e;
	(void)state;
	pl_run_init(&r);
	pl_error_init(&e);
	pl_run_set_cond(&r, PL_C_PRECISION, "BF16", NULL);
	pl_run_set_cond(&r, PL_C_ENGINE, "vLLM", NULL);
	pl_run_set_cond(&r, PL_C_ENGINE_VERSION, "v0.6.3", NULL);
	pl_run_set_cond(&r, PL_C_HARDWARE, " 2x  NVIDIA\tA100 80G ", NULL);
	pl_run_set_cond(&r, PL_C_MODEL, "Gemma-4-31B", NULL);
	assert_int_equal(pl_normalize_run(&r, &e), 0);
	assert_string_equal(r.cond[PL_C_PRECISION].text, "bfloat16");
	assert_string_equal(r.cond[PL_C_ENGINE].text, "vllm");
	assert_string_equal(r.cond[PL_C_ENGINE_VERSION].text, "0.6.3");
	assert_string_equal(r.cond[PL_C_HARDWARE].text, "2x NVIDIA A100 80G");
	assert_string_equal(r.cond[PL_C_ACCELERATOR_COUNT].text, "2");
	/* model names keep their case: they are identifiers, not aliases */
	assert_string_equal(r.cond[PL_C_MODEL].text, "Gemma-4-31B");

	pl_run_set_cond(&r, PL_C_ACCELERATOR_COUNT, "4", NULL);
	assert_int_equal(pl_normalize_run(&r, &e), PL_EINVALID);
	assert_string_equal(e.message,
	                    "accelerator_count 4 disagrees with hardware '2x NVIDIA A100 80G' (2)");
	pl_run_set_cond(&r, PL_C_ACCELERATOR_COUNT, NULL, NULL);
	pl_run_set_cond(&r, PL_C_DATASET, "   ", NULL);
	assert_int_equal(pl_normalize_run(&r, &e), PL_EINVALID);
	assert_string_equal(e.message, "'dataset' is empty");
	pl_run_release(&r);
}

static void value_order_and_equality(void **state)
{
	struct pl_run a, b;
	(void)state;
	pl_run_init(&a);
	pl_run_init(&b);
	pl_run_set_cond(&a, PL_C_CONCURRENCY, "8", NULL);
	pl_run_set_cond(&b, PL_C_CONCURRENCY, "16", NULL);
	assert_true(pl_value_cmp(PL_C_CONCURRENCY, &a.cond[PL_C_CONCURRENCY], &b.cond[PL_C_CONCURRENCY]) < 0);
	pl_run_set_cond(&b, PL_C_CONCURRENCY, "inf", NULL);
	assert_true(pl_value_cmp(PL_C_CONCURRENCY, &a.cond[PL_C_CONCURRENCY], &b.cond[PL_C_CONCURRENCY]) < 0);
	/* missing vs known: not equal, missing sorts last */
	assert_false(pl_value_equal(&a.cond[PL_C_DATASET], &b.cond[PL_C_CONCURRENCY]));
	assert_true(pl_value_equal(&a.cond[PL_C_DATASET], &b.cond[PL_C_DATASET]));
	assert_true(pl_value_cmp(PL_C_CONCURRENCY, &a.cond[PL_C_DATASET], &a.cond[PL_C_CONCURRENCY]) > 0);
	pl_run_set_cond(&a, PL_C_ENGINE_VERSION, "0.10.1", NULL);
	pl_run_set_cond(&b, PL_C_ENGINE_VERSION, "0.6.3", NULL);
	assert_true(pl_value_cmp(PL_C_ENGINE_VERSION, &a.cond[PL_C_ENGINE_VERSION], &b.cond[PL_C_ENGINE_VERSION]) > 0);
	pl_run_release(&a);
	pl_run_release(&b);

	char *v = pl_normalize_value(PL_C_PRECISION, "bf16");
	assert_string_equal(v, "bfloat16");
	free(v);
	v = pl_normalize_value(PL_C_ENGINE_VERSION, "v0.6.3");
	assert_string_equal(v, "0.6.3");
	free(v);
}

/* Times with a UTC offset become the same instant in UTC, so that history
 * orders 12:00+02:00 (10:00Z) between 09:00Z and 11:00Z. */
static void times_to_utc(void **state)
{
	static const char *const cases[][2] = {
		{"2026-01-02T12:00:00+02:00", "2026-01-02T10:00:00Z"},
		{"2026-01-01T01:30:00.25+02:00", "2025-12-31T23:30:00.25Z"},
		{"2026-01-02 12:00-05:30", "2026-01-02T17:30:00Z"},
		{"2024-02-28T23:00:00-02:00", "2024-02-29T01:00:00Z"},
		{"2026-01-02 09:00:00Z", "2026-01-02T09:00:00Z"},
		{"2026-01-02T09:00:00+00:00", "2026-01-02T09:00:00Z"},
		{"2026-01-02T12:00:00", "2026-01-02T12:00:00"}, /* no zone: as given */
		{"2026-01-02", "2026-01-02"},
		/* seconds always written, so that times sort as text */
		{"2026-01-02T10:00Z", "2026-01-02T10:00:00Z"},
		{"2026-01-02 12:00", "2026-01-02T12:00:00"},
		{"2026-01-02T23:30+14:00", "2026-01-02T09:30:00Z"},
		/* one instant, one text: trailing zeros of the fraction dropped */
		{"2026-01-02T10:00:00.500Z", "2026-01-02T10:00:00.5Z"},
		{"2026-01-02T10:00:00.000Z", "2026-01-02T10:00:00Z"},
		{"2026-01-02T12:00:00.50+02:00", "2026-01-02T10:00:00.5Z"},
		{"2026-01-02T10:00:00.10", "2026-01-02T10:00:00.1"},
		{"2026-01-02T10:00:00.0", "2026-01-02T10:00:00"},
		{"2026-01-02T10:00:00.05Z", "2026-01-02T10:00:00.05Z"},
		/* kept with their offset: a leap second, a UTC year beyond 9999 or before 0 */
		{"2026-12-31T23:59:60+00:00", "2026-12-31T23:59:60+00:00"},
		{"9999-12-31T23:00:00-02:00", "9999-12-31T23:00:00-02:00"},
		{"0000-01-01T00:30:00.5+01:00", "0000-01-01T00:30:00.5+01:00"},
	};
	/* --where values are normalized unchecked: text that is no time stays */
	static const char *const not_times[] = {"2026-01-02T1", "2026-01-02Tab:cd", "2026-01-02Txx"};
	static const char *const refused[] = {
		"2026-02-30T10:00:00Z", "2026-02-29", "2026-04-31", "2026-01-02T10:00:00+24:00",
		"2026-01-02T10:00:00+99:99", "2026-01-02T10:00:00+14:60",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pl_run r;
		pl_run_init(&r);
		assert_int_equal(pl_run_set_cond(&r, PL_C_RUN_STARTED_AT, cases[i][0], NULL), 0);
		assert_int_equal(pl_normalize_run(&r, NULL), 0);
		assert_string_equal(r.cond[PL_C_RUN_STARTED_AT].text, cases[i][1]);
		pl_run_release(&r);
	}
	for (size_t i = 0; i < sizeof(not_times) / sizeof(not_times[0]); i++) {
		char *v = pl_normalize_value(PL_C_RUN_STARTED_AT, not_times[i]);
		assert_string_equal(v, not_times[i]);
		free(v);
	}
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct pl_run r;
		pl_run_init(&r);
		if (pl_run_set_cond(&r, PL_C_RUN_STARTED_AT, refused[i], NULL) != PL_EINVALID)
			fail_msg("'%s' was accepted", refused[i]);
		pl_run_release(&r);
	}
	{
		struct pl_run r;
		pl_run_init(&r);
		assert_int_equal(pl_run_set_cond(&r, PL_C_RUN_STARTED_AT, "2024-02-29", NULL), 0);
		pl_run_release(&r);
	}
}

/* Sub-second times order by instant, not as text ('.' sorts before 'Z'). */
static void times_order_by_instant(void **state)
{
	static const char *const ascending[] = {
		"2026-01-02T10:00:00Z", "2026-01-02T10:00:00.25Z", "2026-01-02T10:00:00.5Z",
		"2026-01-02T10:00:00.51Z", "2026-01-02T10:00:01Z", "2026-01-02T10:00:01.000001Z",
	};
	struct pl_run a, b;
	size_t n = sizeof(ascending) / sizeof(ascending[0]);

	(void)state;
	pl_run_init(&a);
	pl_run_init(&b);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			int c;
			assert_int_equal(pl_run_set_cond(&a, PL_C_RUN_STARTED_AT, ascending[i], NULL), 0);
			assert_int_equal(pl_run_set_cond(&b, PL_C_RUN_STARTED_AT, ascending[j], NULL), 0);
			c = pl_value_cmp(PL_C_RUN_STARTED_AT, &a.cond[PL_C_RUN_STARTED_AT],
			                 &b.cond[PL_C_RUN_STARTED_AT]);
			if ((c > 0) - (c < 0) != (i > j) - (i < j))
				fail_msg("%s vs %s: %d", ascending[i], ascending[j], c);
		}
	/* the same instant written with more digits */
	pl_run_set_cond(&a, PL_C_RUN_STARTED_AT, "2026-01-02T10:00:00.5Z", NULL);
	pl_run_set_cond(&b, PL_C_RUN_STARTED_AT, "2026-01-02T10:00:00.500Z", NULL);
	assert_int_equal(pl_value_cmp(PL_C_RUN_STARTED_AT, &a.cond[PL_C_RUN_STARTED_AT],
	                              &b.cond[PL_C_RUN_STARTED_AT]),
	                 0);
	/* without a zone, too */
	pl_run_set_cond(&a, PL_C_RUN_STARTED_AT, "2026-01-02T10:00:00.5", NULL);
	pl_run_set_cond(&b, PL_C_RUN_STARTED_AT, "2026-01-02T10:00:00", NULL);
	assert_true(pl_value_cmp(PL_C_RUN_STARTED_AT, &a.cond[PL_C_RUN_STARTED_AT],
	                         &b.cond[PL_C_RUN_STARTED_AT]) > 0);
	pl_run_release(&a);
	pl_run_release(&b);
}

/* An extra named like a condition is that condition: adopted where the run
 * lacks it, dropped where it agrees, refused where it disagrees (a vLLM
 * file with tensor_parallel_size 4 and a sidecar engine_args saying 8 was
 * stored with both), and left alone when not of the condition's type. */
static void named_extras(void **state)
{
	struct pl_run r;
	struct pl_error err;

	(void)state;
	pl_run_init(&r);
	pl_error_init(&err);
	assert_int_equal(pl_run_set_extra(&r, "vllm-serving.tensor_parallel_size", "4", &err), 0);
	assert_int_equal(pl_run_set_extra(&r, "vllm-serving.kv_cache_dtype", "FP8", &err), 0);
	assert_int_equal(pl_run_set_extra(&r, "vllm-serving.max_model_len", "long", &err), 0);
	assert_int_equal(pl_run_set_extra(&r, "vllm-serving.cfg.tensor_parallel_size", "2", &err), 0);
	assert_int_equal(pl_run_set_cond(&r, PL_C_KV_CACHE_DTYPE, "fp8", &err), 0);
	assert_int_equal(pl_normalize_named_extras(&r, &err), 0);
	assert_string_equal(r.cond[PL_C_TENSOR_PARALLEL_SIZE].text, "4");
	assert_string_equal(r.cond[PL_C_KV_CACHE_DTYPE].text, "fp8");
	assert_false(r.cond[PL_C_MAX_MODEL_LEN].set);
	assert_int_equal(r.nextra, 2); /* "long" is no length; a nested key is not the field */
	assert_string_equal(pl_run_extra(&r, "vllm-serving.max_model_len"), "long");
	assert_string_equal(pl_run_extra(&r, "vllm-serving.cfg.tensor_parallel_size"), "2");
	pl_run_release(&r);

	pl_run_init(&r);
	assert_int_equal(pl_run_set_extra(&r, "vllm-serving.tensor_parallel_size", "4", &err), 0);
	assert_int_equal(pl_run_set_cond(&r, PL_C_TENSOR_PARALLEL_SIZE, "8", &err), 0);
	assert_int_equal(pl_normalize_named_extras(&r, &err), PL_EINVALID);
	assert_string_equal(err.field, "tensor_parallel_size");
	assert_string_equal(err.message, "the file's tensor_parallel_size is '4' but the run's is '8' "
	                                 "(from a sidecar, --set or engine_args): they must agree");
	pl_run_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(named_extras),
		cmocka_unit_test(precision_aliases),
		cmocka_unit_test(engine_aliases),
		cmocka_unit_test(accelerator_count),
		cmocka_unit_test(versions_in_natural_order),
		cmocka_unit_test(run_normalization),
		cmocka_unit_test(value_order_and_equality),
		cmocka_unit_test(times_to_utc),
		cmocka_unit_test(times_order_by_instant),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
