/*
 * test_trtllm_vllm_offline.c — issue 16: TensorRT-LLM trtllm-bench
 * --report_json and vLLM's offline `bench throughput` / `bench latency`
 * --output-json.
 *
 * Corpus files (../shared/corpus) are read in place and skipped, saying
 * so, when absent; the project's own fixtures (tests/fixtures/<format>/)
 * run everywhere. Every expected value is the file's number converted by
 * hand (ms / 1000 = s) or worked out in the comment next to it.
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
#include "core/error.h"
#include "core/model.h"

#include "corpus_fixture.h"

/* Skips the test (visibly) when rel, under PL_CORPUS_DIR, is absent. */
static void need(const char *rel)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", PL_CORPUS_DIR, rel);
	need_shared(path);
}

/* Parses fixture rel (under tests/fixtures) read under the name path
 * (NULL: its own path). */
static int parse_fixture(const char *rel, const char *path, struct pl_run_list *out,
                         struct pl_error *err)
{
	char full[4096];
	size_t len;
	char *buf;
	int rc;

	snprintf(full, sizeof(full), "%s/%s", PL_FIXTURES_DIR, rel);
	buf = slurp(full, &len);
	pl_error_init(err);
	rc = pl_adapters_parse(path ? path : full, buf, len, NULL, out, err);
	free(buf);
	return rc;
}

/* --------------------------------------------------------------- trtllm-bench */

#define TRT "trtllm_bench/"

/* What the three 1.2.0 latency reports share (Qwen2.5-0.5B, TP 1, batch 1). */
static const struct kt trt_common[] = {
	{"model", "Qwen/Qwen2.5-0.5B-Instruct"},
	{"model_source", NULL}, /* model_path is the string "None" */
	{"precision", "bfloat16"},
	{"quantization", NULL}, /* null */
	{"kv_cache_dtype", NULL}, /* null */
	{"engine", "trt-llm"},
	{"engine_version", "1.2.0"},
	{"benchmark_tool", "trtllm-bench"},
	{"tensor_parallel_size", "1"},
	{"pipeline_parallel_size", "1"},
	{"expert_parallel_size", "1"},
	{"max_num_seqs", "1"}, /* world_info.max_batch_size */
	{"max_output_tokens", "40"}, /* osl_stats minimum = maximum = 40 */
	{"concurrency", NULL}, /* not recorded: never guessed */
	{"request_rate", NULL},
	{NULL, NULL},
};

static void trt_common_extras(const struct pl_run *r)
{
	expect_extra(r, "trtllm-bench.engine.backend", "TRT");
	expect_extra(r, "trtllm-bench.world_info.scheduling_policy", "GUARANTEED_NO_EVICT");
	expect_extra(r, "trtllm-bench.world_info.kv_cache_percentage", "0.9");
	expect_extra(r, "trtllm-bench.engine.revision", NULL); /* null holds nothing */
	expect_extra(r, "trtllm-bench.engine.model_path", NULL);
	expect_extra(r, "trtllm-bench.engine.engine_dir", NULL); /* ignored: a path */
	expect_extra(r, "trtllm-bench.world_info.issue_rate", NULL);
}

static void test_trt_in16(void **state)
{
	static const struct kt conds[] = {
		{"hardware", "1x NVIDIA GeForce RTX 4070 Ti"}, /* world_size 1 x machine.name */
		{"max_model_len", "127"},
		{"max_num_batched_tokens", "127"},
		{"input_tokens", "16"},
		{"num_prompts", "20"},
		{NULL, NULL},
	};
	static const struct kv metrics[] = {
		{"duration", 3.088041949}, /* 3088.041949 ms */
		/* 20 requests / 3.088041949 s = 6.4765959563718 req/s */
		{"request_throughput", 6.476595956371836},
		/* 20 x 40 / 3.088041949 = 259.06383825487 tok/s */
		{"output_throughput", 259.06383825487336},
		/* 20 x (16 + 40) / 3.088041949 = 362.68937355682: input counted, so total only */
		{"total_token_throughput", 362.6893735568228},
		{"output_throughput_per_accelerator", 259.06383825487336}, /* 1 GPU */
		{"e2el_mean", 0.15438254105},
		{"e2el_p50", 0.142286861},
		{"e2el_p90", 0.214489135},
		{"e2el_p95", 0.366060227},
		{"e2el_p99", 0.366060227},
		{"e2el_min", 0.11489224},
		{"e2el_max", 0.366060227},
		{"ttft_mean", 0.0308093241},
		{"ttft_p50", 0.008846278},
		{"ttft_p90", 0.082965426},
		{"ttft_p95", 0.171759453},
		{"ttft_p99", 0.171759453},
		{"ttft_min", 0.003462518},
		{"ttft_max", 0.171759453},
		{"tpot_mean", 0.003168544024358974},
		{"tpot_p50", 0.0028808832564102564},
		{"tpot_p90", 0.005409670153846154},
		{"tpot_p95", 0.009297153282051282},
		{"tpot_p99", 0.009297153282051282},
		{"tpot_min", 3.5574102564102563e-06}, /* the near-zero TPOT behind the outlier */
		{"tpot_max", 0.009297153282051282},
		/* gen_tps as given: the median is robust, the mean is dragged by the
		 * one request at 281103 tok/s */
		{"tokens_per_second_p50", 349.4094720105722},
		{"tokens_per_second_p90", 614.1308968356622},
		{"tokens_per_second_p95", 281103.36675340025},
		{"tokens_per_second_p99", 281103.36675340025},
		{"tokens_per_second_min", 107.55980563755581},
		{"tokens_per_second_max", 281103.36675340025},
		{"tokens_per_second_mean", 14391.200427818336},
		{"concurrency_mean", 0.9998733410988389},
		{"input_tokens_mean", 16},
		{"output_tokens_mean", 40},
		{"requests_completed", MISSING},
		{"error_rate", MISSING}, /* no failure count */
		{"gpu_memory_bytes", MISSING}, /* memory.total is capacity, not use */
		{NULL, 0},
	};
	struct pl_run_list l = {0};
	struct pl_error err;

	(void)state;
	need(TRT "mkubota_latency_qwen05b_rtx4070ti_in16.json");
	assert_int_equal(parse_file(TRT "mkubota_latency_qwen05b_rtx4070ti_in16.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].adapter, "trtllm-bench");
	expect_conds(&l.v[0], trt_common);
	expect_conds(&l.v[0], conds);
	expect_metrics(&l.v[0], metrics);
	/* 7 statistics x (e2el, ttft, tpot, tokens_per_second) + 5 throughputs and
	 * duration + 3 request_info means = 36 */
	assert_int_equal(nmetrics(&l.v[0]), 36);
	trt_common_extras(&l.v[0]);
	expect_extra(&l.v[0], "trtllm-bench.engine.max_input_length", "127");
	expect_extra(&l.v[0], "trtllm-bench.dataset.dataset_path",
	             "/media/masa/ssd_data/minipamayo_experiments/tensorrt_llm_bench/datasets/"
	             "in16_out40.json");
	assert_int_equal(l.v[0].nextra, 5);
	expect_warnings(&l.v[0], "trtllm-bench: per-request decode speed: the mean 14391.200427818336 "
	                         "tok/s is dragged by outliers (max 281103.36675340025, median "
	                         "349.4094720105722): compare tokens_per_second_p50");
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_trt_in9192_engine_limit(void **state)
{
	static const struct kt conds[] = {
		{"hardware", "1x NVIDIA GeForce RTX 4070 Ti"},
		{"max_model_len", "9232"},
		{"max_num_batched_tokens", "9232"},
		{"input_tokens", "9192"}, /* the realized workload, not max_input_length 1024 */
		{"num_prompts", "100"},
		{NULL, NULL},
	};
	static const struct kv metrics[] = {
		{"duration", 32.209121647}, /* 32209.121647 ms */
		/* 100 / 32.209121647 = 3.1047105567163 req/s */
		{"request_throughput", 3.1047105567162876},
		/* 100 x 40 / 32.209121647 = 124.18842226865 tok/s */
		{"output_throughput", 124.18842226865151},
		/* 100 x 9232 / 32.209121647 = 28662.687859605: 9192 input tokens each */
		{"total_token_throughput", 28662.687859604768},
		{"e2el_mean", 0.32206684222},
		{"e2el_p99", 0.53065129},
		{"ttft_mean", 0.17710856733},
		{"ttft_p50", 0.162927155},
		{"tpot_p50", 0.0032939060256410255},
		{"tokens_per_second_p50", 305.0563369438915},
		{"tokens_per_second_p95", 656.5837070908026},
		{"tokens_per_second_p99", 276063.1972365366},
		{"tokens_per_second_mean", 5797.257799224181},
		{"input_tokens_mean", 9192},
		{"output_tokens_mean", 40},
		{NULL, 0},
	};
	struct pl_run_list l = {0};
	struct pl_error err;

	(void)state;
	need(TRT "mkubota_latency_qwen05b_rtx4070ti_in9192_ultralong.json");
	assert_int_equal(parse_file(TRT "mkubota_latency_qwen05b_rtx4070ti_in9192_ultralong.json", NULL,
	                            &l, &err),
	                 0);
	assert_int_equal(l.n, 1);
	expect_conds(&l.v[0], trt_common);
	expect_conds(&l.v[0], conds);
	expect_metrics(&l.v[0], metrics);
	trt_common_extras(&l.v[0]);
	expect_extra(&l.v[0], "trtllm-bench.engine.max_input_length", "1024");
	expect_warnings(&l.v[0],
	                "trtllm-bench: engine.max_input_length 1024 contradicts the requests' 9192 "
	                "input tokens (dataset.isl_stats.maximum): the realized workload is stored\n"
	                "trtllm-bench: per-request decode speed: the mean 5797.257799224181 tok/s is "
	                "dragged by outliers (max 276063.1972365366, median 305.0563369438915): "
	                "compare tokens_per_second_p50");
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_trt_in1024_rtxpro6000(void **state)
{
	static const struct kt conds[] = {
		{"hardware", "1x NVIDIA RTX PRO 6000 Blackwell Server Edition"},
		{"max_model_len", "1065"},
		{"max_num_batched_tokens", "1065"},
		{"input_tokens", "1024"},
		{"num_prompts", "20"},
		{NULL, NULL},
	};
	static const struct kv metrics[] = {
		{"duration", 1.599893513}, /* 1599.893513 ms */
		/* 20 / 1.599893513 = 12.500831985060 req/s */
		{"request_throughput", 12.500831985059746},
		/* 20 x 40 / 1.599893513 = 500.03327940239 tok/s */
		{"output_throughput", 500.0332794023899},
		/* 20 x 1064 / 1.599893513 = 13300.885232104 tok/s */
		{"total_token_throughput", 13300.885232103568},
		{"e2el_p50", 0.077598479},
		{"e2el_mean", 0.0799766077},
		{"ttft_mean", 0.0095749594},
		{"tpot_mean", 0.001805170469230769},
		{"tokens_per_second_p50", 549.7655531846721},
		{"tokens_per_second_max", 584.0915915522385},
		{"tokens_per_second_mean", 554.2220711715628}, /* < 2 x 549.77: no warning */
		{NULL, 0},
	};
	struct pl_run_list l = {0};
	struct pl_error err;

	(void)state;
	need(TRT "mkubota_latency_qwen05b_rtxpro6000_in1024.json");
	assert_int_equal(parse_file(TRT "mkubota_latency_qwen05b_rtxpro6000_in1024.json", NULL, &l, &err),
	                 0);
	assert_int_equal(l.n, 1);
	expect_conds(&l.v[0], trt_common);
	expect_conds(&l.v[0], conds);
	expect_metrics(&l.v[0], metrics);
	trt_common_extras(&l.v[0]);
	expect_extra(&l.v[0], "trtllm-bench.engine.max_input_length", "1024"); /* = 1024: fine */
	expect_warnings(&l.v[0], NULL);
	validate_all(&l);
	pl_run_list_release(&l);
}

/* The project's own fixture: a TP-2 throughput report with varying input
 * lengths, an engine limit below them, FP8 KV cache, an outlier. */
static void test_trt_fixture(void **state)
{
	static const struct kt conds[] = {
		{"model", "meta-llama/Llama-3.1-8B-Instruct"},
		{"model_source", NULL}, /* "None" */
		{"precision", "float16"},
		{"quantization", NULL},
		{"kv_cache_dtype", "FP8"},
		{"engine", "trt-llm"},
		{"engine_version", "1.2.0"},
		{"hardware", "2x NVIDIA H100 80GB HBM3"}, /* world_size 2 */
		{"tensor_parallel_size", "2"},
		{"pipeline_parallel_size", "1"},
		{"expert_parallel_size", "1"},
		{"max_num_seqs", "64"},
		{"max_num_batched_tokens", "8192"},
		{"max_model_len", "512"},
		{"input_tokens", NULL}, /* 100 to 300 per request: not one length */
		{"max_output_tokens", "128"},
		{"num_prompts", "8"},
		{"concurrency", NULL},
		{NULL, NULL},
	};
	static const struct kv metrics[] = {
		{"duration", 2.5},              /* 2500 ms */
		{"request_throughput", 3.2},    /* 8 / 2.5 */
		{"output_throughput", 409.6},   /* 8 x 128 / 2.5 */
		{"total_token_throughput", 1049.6}, /* 8 x (200 + 128) / 2.5 */
		{"output_throughput_per_accelerator", 204.8}, /* 409.6 / 2 */
		{"e2el_mean", 1.2505},
		{"e2el_p50", 1.2},
		{"e2el_p90", 1.4},
		{"e2el_p95", 1.45},
		{"e2el_p99", 1.49},
		{"e2el_min", 1.0},
		{"e2el_max", 1.5},
		{"ttft_mean", 0.25},
		{"ttft_p50", 0.24},
		{"ttft_min", 0.15},
		{"ttft_max", 0.35},
		{"tpot_mean", 0.0075},
		{"tpot_p99", 0.0099},
		{"tpot_min", 0.000004},
		/* gen_tps of 100, 110, 120, 128, 130, 135, 140 and 100000 tok/s:
		 * mean (863 + 100000) / 8 = 12607.875, median 128 */
		{"tokens_per_second_mean", 12607.875},
		{"tokens_per_second_p50", 128},
		{"tokens_per_second_max", 100000},
		{"input_tokens_mean", 200},
		{"output_tokens_mean", 128},
		{"concurrency_mean", 7.5},
		{NULL, 0},
	};
	struct pl_run_list l = {0};
	struct pl_error err;

	(void)state;
	assert_int_equal(parse_fixture("trtllm-bench/throughput_tp2_1.2.0.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].adapter, "trtllm-bench");
	expect_conds(&l.v[0], conds);
	expect_metrics(&l.v[0], metrics);
	/* 7 statistics x (e2el, ttft, tpot, tokens_per_second) + 5 throughputs and
	 * duration + 3 request_info means = 36 */
	assert_int_equal(nmetrics(&l.v[0]), 36);
	expect_extra(&l.v[0], "trtllm-bench.engine.backend", "TRT");
	expect_extra(&l.v[0], "trtllm-bench.engine.max_input_length", "256");
	expect_extra(&l.v[0], "trtllm-bench.world_info.kv_cache_percentage", "0.95");
	expect_extra(&l.v[0], "trtllm-bench.dataset.dataset_path", "/data/mixed_isl_osl128.json");
	assert_int_equal(l.v[0].nextra, 5);
	expect_warnings(&l.v[0],
	                "trtllm-bench: dataset.isl_stats varies from 100 to 300 tokens per request: "
	                "input_tokens is not stored (supply it with a sidecar or --set)\n"
	                "trtllm-bench: engine.max_input_length 256 contradicts the requests' 300 "
	                "input tokens (dataset.isl_stats.maximum): the realized workload is stored\n"
	                "trtllm-bench: per-request decode speed: the mean 12607.875 tok/s is dragged "
	                "by outliers (max 100000, median 128): compare tokens_per_second_p50");
	pl_run_list_release(&l);
}

static void test_trt_refusals(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;

	(void)state;
	/* a block of the wrong type */
	assert_int_equal(parse_str("t.json",
	                           "{\"engine\": {}, \"world_info\": {}, \"performance\": {}, "
	                           "\"request_info\": {}, \"streaming_metrics\": 5}",
	                           &l, &err),
	                 PL_EINVALID);
	assert_string_equal(err.message, "'streaming_metrics' must be an object, got a number");
	assert_int_equal(l.n, 0);
	/* an unknown key is kept as an extra with a warning, never dropped */
	assert_int_equal(parse_str("t.json",
	                           "{\"engine\": {\"model\": \"m\", \"new_knob\": 3}, "
	                           "\"world_info\": {}, \"performance\": {\"total_latency_ms\": 1500, "
	                           "\"request_throughput_req_s\": 2}, \"request_info\": {}}",
	                           &l, &err),
	                 0);
	assert_int_equal(l.n, 1);
	expect_extra(&l.v[0], "trtllm-bench.engine.new_knob", "3");
	expect_close("duration", l.v[0].metric[PL_M_DURATION], 1.5);
	pl_run_list_release(&l);
}

/* --------------------------------------------------------------- vllm-offline */

#define VO "vllm_offline/"

/* Nothing but num_prompts and benchmark_tool: no model, engine, batch size
 * or lengths, whatever the file's name or folder says. */
static void expect_only_tool_conditions(const struct pl_run *r, const char *tool,
                                        const char *prompts)
{
	for (int id = 0; id < PL_COND_COUNT; id++) {
		if (id == PL_C_BENCHMARK_TOOL)
			assert_string_equal(r->cond[id].text, tool);
		else if (id == PL_C_NUM_PROMPTS && prompts)
			assert_string_equal(r->cond[id].text, prompts);
		else if (id == PL_C_REPETITIONS && !prompts)
			assert_true(r->cond[id].set);
		else if (r->cond[id].set)
			fail_msg("%s should be missing, is '%s'", pl_cond_info[id].name, r->cond[id].text);
	}
	assert_int_equal(r->nextra, 0);
	expect_warnings(r, NULL);
}

static void test_vo_throughput(void **state)
{
	static const struct kv metrics[] = {
		{"duration", 72.38106929324567},
		/* 200 / 72.38106929324567 = 2.7631534315930 req/s */
		{"request_throughput", 2.7631534315929653},
		/* 86204 (prompt + output) / 72.38106929324567 = 1190.9743920852 tok/s */
		{"total_token_throughput", 1190.9743920852},
		{"output_throughput", MISSING}, /* never from a prompt-counting rate */
		{"total_input_tokens", MISSING},
		{"total_output_tokens", MISSING},
		{NULL, 0},
	};
	struct pl_run_list l = {0};
	struct pl_error err;

	(void)state;
	need(VO "ascend_throughput_llama8b_tp1.json");
	assert_int_equal(parse_file(VO "ascend_throughput_llama8b_tp1.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].adapter, "vllm-offline");
	assert_string_equal(l.v[0].format_version, "throughput");
	expect_metrics(&l.v[0], metrics);
	assert_int_equal(nmetrics(&l.v[0]), 3);
	expect_only_tool_conditions(&l.v[0], "vllm-bench-throughput", "200");
	validate_all(&l);
	pl_run_list_release(&l);
}

/* results_qwen/throughput_llama8B_tp1.json: neither the folder (qwen) nor
 * the name (llama8B, tp1) supplies a condition. */
static void test_vo_named_for_another_model(void **state)
{
	static const struct kv metrics[] = {
		{"duration", 70.79172945208848},
		/* 200 / 70.79172945208848 = 2.8251887833219 req/s */
		{"request_throughput", 2.8251887833219147},
		/* 86204 / 70.79172945208848 = 1217.7128693874 tok/s */
		{"total_token_throughput", 1217.7128693874117},
		{NULL, 0},
	};
	struct pl_run_list l = {0};
	struct pl_error err;

	(void)state;
	need(VO "ascend_results_qwen_throughput_named_llama8b.json");
	assert_int_equal(parse_file(VO "ascend_results_qwen_throughput_named_llama8b.json", NULL, &l, &err),
	                 0);
	assert_int_equal(l.n, 1);
	expect_metrics(&l.v[0], metrics);
	expect_only_tool_conditions(&l.v[0], "vllm-bench-throughput", "200");
	/* model stays missing: the import asks for it */
	assert_false(l.v[0].cond[PL_C_MODEL].set);
	assert_false(l.v[0].cond[PL_C_TENSOR_PARALLEL_SIZE].set);
	pl_run_list_release(&l);
}

static void test_vo_latency(void **state)
{
	static const struct kv metrics[] = {
		{"e2el_mean", 7.419569773475329},  /* avg_latency, already seconds */
		{"e2el_p50", 7.438288155943155},   /* percentiles["50"] */
		{"e2el_p90", 7.543130602687597},   /* percentiles["90"] */
		{"e2el_p99", 7.734547998122871},   /* percentiles["99"] */
		{"e2el_min", 7.140739871188998},   /* the smallest of the 15 latencies */
		{"e2el_max", 7.7653736267238855},  /* the largest */
		{"e2el_p95", MISSING},
		{"ttft_mean", MISSING},
		{NULL, 0},
	};
	struct pl_run_list l = {0};
	struct pl_error err;

	(void)state;
	need(VO "ascend_latency_llama8b_tp1.json");
	assert_int_equal(parse_file(VO "ascend_latency_llama8b_tp1.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].format_version, "latency");
	expect_metrics(&l.v[0], metrics);
	assert_int_equal(nmetrics(&l.v[0]), 6);
	assert_string_equal(l.v[0].cond[PL_C_REPETITIONS].text, "15"); /* 15 latencies */
	expect_only_tool_conditions(&l.v[0], "vllm-bench-latency", NULL);
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_vo_fixtures(void **state)
{
	static const struct kv thr[] = {
		{"duration", 40},
		{"request_throughput", 2.5},        /* 100 / 40 */
		{"total_token_throughput", 1280},   /* 51200 / 40 */
		{"output_throughput", MISSING},
		{NULL, 0},
	};
	/* latencies 1.25, 1.5, 1.75, 1.5: mean 6 / 4 = 1.5; numpy percentiles of
	 * the sorted 1.25, 1.5, 1.5, 1.75: p50 1.5, p90 1.5 + 0.7 x 0.25 = 1.675,
	 * p99 1.5 + 0.97 x 0.25 = 1.7425 */
	static const struct kv lat[] = {
		{"e2el_mean", 1.5}, {"e2el_p50", 1.5}, {"e2el_p90", 1.675}, {"e2el_p99", 1.7425},
		{"e2el_min", 1.25}, {"e2el_max", 1.75}, {NULL, 0},
	};
	struct pl_run_list l = {0};
	struct pl_error err;

	(void)state;
	assert_int_equal(parse_fixture("vllm-offline/throughput.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].format_version, "throughput");
	expect_metrics(&l.v[0], thr);
	expect_only_tool_conditions(&l.v[0], "vllm-bench-throughput", "100");
	/* the same bytes under a name and folder that suggest a model, a TP
	 * size and a batch: the same conditions */
	assert_int_equal(parse_fixture("vllm-offline/throughput.json",
	                               "/runs/results_qwen/throughput_llama8B_tp4_bs32_in512.json", &l,
	                               &err),
	                 0);
	assert_int_equal(l.n, 2);
	expect_only_tool_conditions(&l.v[1], "vllm-bench-throughput", "100");
	pl_run_list_release(&l);

	assert_int_equal(parse_fixture("vllm-offline/latency.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].format_version, "latency");
	expect_metrics(&l.v[0], lat);
	assert_int_equal(nmetrics(&l.v[0]), 6);
	assert_string_equal(l.v[0].cond[PL_C_REPETITIONS].text, "4");
	expect_only_tool_conditions(&l.v[0], "vllm-bench-latency", NULL);
	pl_run_list_release(&l);
}

static void test_vo_refusals(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;

	(void)state;
	assert_int_equal(parse_str("l.json",
	                           "{\"avg_latency\": 1, \"latencies\": [1, \"x\"], \"percentiles\": {}}",
	                           &l, &err),
	                 PL_EINVALID);
	assert_string_equal(err.message,
	                    "'latencies' must hold non-negative numbers (s), got a string at 1");
	assert_int_equal(parse_str("l.json", "{\"avg_latency\": 1, \"latencies\": 2, \"percentiles\": {}}",
	                           &l, &err),
	                 PL_EINVALID);
	assert_string_equal(err.message, "'latencies' must be an array, got a number");
	assert_int_equal(parse_str("b.json",
	                           "{\"avg_latency\": 1, \"percentiles\": {}, \"elapsed_time\": 2, "
	                           "\"requests_per_second\": 3, \"tokens_per_second\": 4}",
	                           &l, &err),
	                 PL_EINVALID);
	assert_string_equal(err.message,
	                    "a vLLM offline result holds either the throughput keys (elapsed_time, "
	                    "requests_per_second, tokens_per_second) or the latency keys (avg_latency, "
	                    "percentiles), not both");
	assert_int_equal(l.n, 0);
	/* a percentile with a canonical slot must be a number */
	assert_int_equal(parse_str("p.json", "{\"avg_latency\": 1, \"percentiles\": {\"50\": \"x\"}}",
	                           &l, &err),
	                 PL_EINVALID);
	assert_int_equal(l.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trt_in16),
		cmocka_unit_test(test_trt_in9192_engine_limit),
		cmocka_unit_test(test_trt_in1024_rtxpro6000),
		cmocka_unit_test(test_trt_fixture),
		cmocka_unit_test(test_trt_refusals),
		cmocka_unit_test(test_vo_throughput),
		cmocka_unit_test(test_vo_named_for_another_model),
		cmocka_unit_test(test_vo_latency),
		cmocka_unit_test(test_vo_fixtures),
		cmocka_unit_test(test_vo_refusals),
	};
	return shared_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
