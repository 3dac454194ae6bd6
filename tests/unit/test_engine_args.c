/* test_engine_args.c — launch flags read from engine_args, both spellings,
 * quoting, the speculative config, bad values, and disagreements with a
 * value the run gives explicitly. Expected values are written by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/engine_args.h"

/* Parses args; every condition not named in want must be absent. want is
 * {name, text} pairs ended by NULL. */
static void expect_flags(const char *args, const char *const *want)
{
	struct pl_engine_flags f;
	struct pl_error err;
	int seen[PL_COND_COUNT] = {0};

	pl_error_init(&err);
	if (pl_engine_args_parse(args, &f, &err) != 0)
		fail_msg("%s: %s", args, err.message);
	for (int i = 0; want[i]; i += 2) {
		int id = pl_cond_lookup(want[i]);
		assert_true(id >= 0);
		if (!f.value[id])
			fail_msg("%s: %s missing", args, want[i]);
		assert_string_equal(f.value[id], want[i + 1]);
		seen[id] = 1;
	}
	for (int c = 0; c < PL_COND_COUNT; c++)
		if (f.value[c] && !seen[c])
			fail_msg("%s: unexpected %s = %s", args, pl_cond_info[c].name, f.value[c]);
	pl_engine_flags_release(&f);
}

static void expect_error(const char *args, const char *message)
{
	struct pl_engine_flags f;
	struct pl_error err;

	pl_error_init(&err);
	assert_int_equal(pl_engine_args_parse(args, &f, &err), PL_EINVALID);
	assert_string_equal(err.message, message);
	assert_string_equal(err.field, "engine_args");
	for (int c = 0; c < PL_COND_COUNT; c++)
		assert_null(f.value[c]);
}

static void vllm_flags_both_spellings(void **state)
{
	(void)state;
	static const char *const full[] = {
		"tensor_parallel_size", "8", "pipeline_parallel_size", "2", "data_parallel_size", "4",
		"kv_cache_dtype", "fp8_e4m3", "max_num_seqs", "256", "max_num_batched_tokens", "8192",
		"max_model_len", "32768", "prefix_caching", "true", NULL};
	expect_flags("vllm serve org/model --tensor-parallel-size 8 --pipeline-parallel-size 2 "
	             "--data-parallel-size 4 --kv-cache-dtype fp8_e4m3 --max-num-seqs 256 "
	             "--max-num-batched-tokens 8192 --max-model-len 32768 --enable-prefix-caching",
	             full);
	expect_flags("--tensor-parallel-size=8 --pipeline-parallel-size=2 --data-parallel-size=4 "
	             "--kv-cache-dtype=fp8_e4m3 --max-num-seqs=256 --max-num-batched-tokens=8192 "
	             "--max-model-len=32768 --enable-prefix-caching",
	             full);
	static const char *const shorts[] = {"tensor_parallel_size", "4", "pipeline_parallel_size",
	                                     "2", "data_parallel_size", "2", NULL};
	expect_flags("-tp 4 -pp=2 -dp 2", shorts);
	/* '_' for '-' in a long option, as vLLM's parser takes it */
	static const char *const under[] = {"tensor_parallel_size", "8", "max_num_seqs", "64", NULL};
	expect_flags("--tensor_parallel_size 8 --max_num-seqs=64", under);
	static const char *const off[] = {"prefix_caching", "false", NULL};
	expect_flags("--no-enable-prefix-caching", off);
	/* the last of a repeated flag wins, as with argparse */
	static const char *const last[] = {"tensor_parallel_size", "2", NULL};
	expect_flags("-tp 8 --tensor-parallel-size=2", last);
	/* shell operators end a word; a comment is not read */
	static const char *const one[] = {"tensor_parallel_size", "1", NULL};
	expect_flags("--tp 1; rm -rf / # -tp 8", one);
	expect_flags("vllm serve m --tp 1&&echo x|tee y>z", one);
	/* other words and flags are not ours */
	static const char *const none[] = {NULL};
	expect_flags("", none);
	expect_flags("backends=ROCm n_batch=2048 --gpu-memory-utilization 0.9 --tp-sizes 3", none);
}

static void sglang_flags(void **state)
{
	(void)state;
	static const char *const want[] = {
		"tensor_parallel_size", "8", "data_parallel_size", "2", "expert_parallel_size", "16",
		"max_model_len", "65536", "prefix_caching", "false", "speculative_method", "eagle3",
		"pipeline_parallel_size", "1", NULL};
	expect_flags("python3 -m sglang.launch_server --model-path m --tp-size 8 --dp 2 --ep-size 16 "
	             "--context-length 65536 --disable-radix-cache --speculative-algorithm EAGLE3 "
	             "--pp-size 1",
	             want);
	static const char *const tp[] = {"tensor_parallel_size", "4", NULL};
	expect_flags("--tp=4", tp);
}

/* --enable-expert-parallel: vLLM's EP group is TP x DP (each 1 if absent). */
static void expert_parallel(void **state)
{
	(void)state;
	static const char *const a[] = {"tensor_parallel_size", "4", "data_parallel_size", "2",
	                                "expert_parallel_size", "8", NULL};
	expect_flags("--enable-expert-parallel -tp 4 -dp 2", a);
	static const char *const b[] = {"tensor_parallel_size", "8", "expert_parallel_size", "8",
	                                NULL};
	expect_flags("-tp 8 --enable-expert-parallel", b);
	static const char *const c[] = {"expert_parallel_size", "1", NULL};
	expect_flags("--enable-expert-parallel", c);
	/* an explicit EP size wins over the product */
	static const char *const d[] = {"tensor_parallel_size", "8", "expert_parallel_size", "4",
	                                NULL};
	expect_flags("-tp 8 --enable-expert-parallel --ep-size 4", d);
}

static void speculative(void **state)
{
	(void)state;
	static const char *const a[] = {"speculative_method", "eagle", "speculative_draft_tokens",
	                                "3", NULL};
	expect_flags("vllm serve m --speculative-config '{\"method\": \"EAGLE\", \"model\": "
	             "\"yuhuili/EAGLE-LLaMA3-Instruct-8B\", \"num_speculative_tokens\": 3, "
	             "\"draft_tensor_parallel_size\": 1, \"x\": [1, {\"y\": null}]}'",
	             a);
	expect_flags("--speculative-config='{\"method\":\"eagle\",\"num_speculative_tokens\":3}'", a);
	/* double quotes with escapes, as a shell would pass them */
	expect_flags("--speculative-config \"{\\\"method\\\": \\\"eagle\\\", "
	             "\\\"num_speculative_tokens\\\": 3}\"",
	             a);
	/* no method: not guessed from the draft model's name */
	static const char *const b[] = {"speculative_draft_tokens", "5", NULL};
	expect_flags("--speculative-config '{\"model\": \"m-draft\", \"num_speculative_tokens\": 5}'",
	             b);
	static const char *const c[] = {"speculative_draft_tokens", "4", NULL};
	expect_flags("--num-speculative-tokens 4", c);
}

static void bad_values(void **state)
{
	(void)state;
	expect_error("--tensor-parallel-size", "engine_args: --tensor-parallel-size needs a value");
	expect_error("-tp=", "engine_args: -tp needs a value");
	expect_error("-tp eight", "engine_args: -tp expects a whole number >= 1, got 'eight'");
	expect_error("--max-num-seqs 0", "engine_args: --max-num-seqs expects a whole number >= 1, "
	                                 "got '0'");
	expect_error("--max-model-len 1.5", "engine_args: --max-model-len expects a whole number >= "
	                                    "1, got '1.5'");
	expect_error("--enable-prefix-caching=false",
	             "engine_args: --enable-prefix-caching takes no value, got "
	             "'--enable-prefix-caching=false'");
	expect_error("--speculative-config '{\"method\": eagle}'",
	             "engine_args: --speculative-config expects a JSON object, got '{\"method\": "
	             "eagle}'");
	expect_error("--speculative-config '[1]'",
	             "engine_args: --speculative-config expects a JSON object, got '[1]'");
	expect_error("--speculative-config '{\"num_speculative_tokens\": -1}'",
	             "engine_args: --speculative-config expects num_speculative_tokens as a whole "
	             "number >= 1, got '-1'");
	expect_error("--kv-cache-dtype 'fp8", "engine_args: unterminated single quote");
}

static void apply_to_run(void **state)
{
	struct pl_run r;
	struct pl_error err;
	(void)state;

	/* the flags fill what the run lacks */
	pl_run_init(&r);
	pl_error_init(&err);
	assert_int_equal(pl_run_set_cond(&r, PL_C_ENGINE_ARGS,
	                                 "--tensor-parallel-size 8 --enable-prefix-caching", &err),
	                 0);
	assert_int_equal(pl_engine_args_apply(&r, &err), 0);
	assert_string_equal(r.cond[PL_C_TENSOR_PARALLEL_SIZE].text, "8");
	assert_true(r.cond[PL_C_TENSOR_PARALLEL_SIZE].num == 8);
	assert_string_equal(r.cond[PL_C_PREFIX_CACHING].text, "true");
	pl_run_release(&r);

	/* an equal explicit value is fine (numbers numerically, text in any case) */
	pl_run_init(&r);
	assert_int_equal(pl_run_set_cond(&r, PL_C_ENGINE_ARGS, "-tp=8 --kv-cache-dtype FP8", &err),
	                 0);
	assert_int_equal(pl_run_set_cond(&r, PL_C_TENSOR_PARALLEL_SIZE, "8", &err), 0);
	assert_int_equal(pl_run_set_cond(&r, PL_C_KV_CACHE_DTYPE, "fp8", &err), 0);
	assert_int_equal(pl_engine_args_apply(&r, &err), 0);
	assert_string_equal(r.cond[PL_C_KV_CACHE_DTYPE].text, "fp8");
	pl_run_release(&r);

	/* a disagreement names both values and the flag */
	pl_run_init(&r);
	assert_int_equal(pl_run_set_cond(&r, PL_C_ENGINE_ARGS, "vllm serve m -tp 8", &err), 0);
	assert_int_equal(pl_run_set_cond(&r, PL_C_TENSOR_PARALLEL_SIZE, "4", &err), 0);
	assert_int_equal(pl_engine_args_apply(&r, &err), PL_EINVALID);
	assert_string_equal(err.field, "tensor_parallel_size");
	assert_string_equal(err.message,
	                    "tensor_parallel_size is 4 but engine_args says 8 (-tp): they must agree");
	pl_run_release(&r);

	pl_run_init(&r);
	pl_error_init(&err);
	assert_int_equal(pl_run_set_cond(&r, PL_C_ENGINE_ARGS, "--no-enable-prefix-caching", &err), 0);
	assert_int_equal(pl_run_set_cond(&r, PL_C_PREFIX_CACHING, "true", &err), 0);
	assert_int_equal(pl_engine_args_apply(&r, &err), PL_EINVALID);
	assert_string_equal(err.message, "prefix_caching is true but engine_args says false "
	                                 "(--no-enable-prefix-caching): they must agree");
	pl_run_release(&r);

	/* no engine_args: nothing to do */
	pl_run_init(&r);
	assert_int_equal(pl_engine_args_apply(&r, &err), 0);
	pl_run_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vllm_flags_both_spellings),
		cmocka_unit_test(sglang_flags),
		cmocka_unit_test(expert_parallel),
		cmocka_unit_test(speculative),
		cmocka_unit_test(bad_values),
		cmocka_unit_test(apply_to_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
