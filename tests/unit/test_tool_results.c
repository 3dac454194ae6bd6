/*
 * test_tool_results.c — the tool adapters on every corpus file, and
 * one small test per "honest numbers" rule.
 *
 * Corpus files are read in place from PL_CORPUS_DIR. Every expected value
 * was worked out by hand from the file; the arithmetic is in the comment
 * next to it (ms / 1000 = s, ns / 1e9 = s). Values are compared with a
 * relative tolerance of 1e-12. Runs are validated after the required
 * conditions the files lack are filled in, as --set would.
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

#include "refusal_text.h"
#include "adapters/adapters.h"
#include "core/compare.h"
#include "core/error.h"
#include "core/model.h"
#include "core/normalize.h"
#include "core/validate.h"

#include "corpus_fixture.h"
#include "caveat_text.h"

/* ------------------------------------------------------------------ SGLang */

static void test_sglang_deepseek(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_file("sglang_bench_serving/datacrunch_deepseek_dp_mla.jsonl", NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].adapter, "sglang-bench-serving");
	static const struct kt c[] = {
		{"api_backend", "sglang"}, {"dataset", "random"}, {"request_rate", "inf"},
		{"concurrency", "inf"}, /* max_concurrency null + rate Infinity = unbounded */
		{"input_tokens", "1"}, {"max_output_tokens", "512"},
		{"benchmark_tool", "sglang-bench-serving"}, {"model", NULL}, {"engine", NULL}, {NULL, NULL},
	};
	static const struct kv m[] = {
		{"e2el_mean", 381.23682297268615},  /* 381236.82297268615 ms */
		{"e2el_p50", 374.5595875820145},    /* 374559.5875820145 ms */
		{"ttft_p50", 10.014104524045251},   /* 10014.104524045251 ms */
		{"itl_p50", 0.371844899491407},     /* 371.844899491407 ms */
		{"output_throughput", 12412.394674113431},
		{"duration", 412.49091206211597},
		{"requests_completed", 10000},
		{"total_input_tokens", 10000}, {"total_output_tokens", 5120000},
		{"input_tokens_mean", MISSING},     /* derived on validation, below */
		{"error_rate", MISSING},            /* no failure count in the file */
		{NULL, 0},
	};
	/* the realized workload, derived from the totals for every adapter */
	static const struct kv means[] = {
		{"input_tokens_mean", 1},           /* 10000 / 10000 */
		{"output_tokens_mean", 512},        /* 5120000 / 10000 */
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 9);
	validate_all(&l);
	expect_metrics(&l.v[0], means);
	pl_run_list_release(&l);
}

static void test_sglang_online(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_file("sglang_bench_serving/datacrunch_llama33_70b_online.jsonl", NULL, &l, &err), 0);
	assert_int_equal(l.n, 7);
	for (size_t i = 0; i < l.n; i++)
		assert_int_equal(l.v[i].record, (long)i);
	static const struct kt c0[] = {
		{"request_rate", "1"}, {"concurrency", NULL}, /* open loop: no concurrency */
		{"input_tokens", "1024"}, {"max_output_tokens", "1024"}, {NULL, NULL},
	};
	static const struct kv m0[] = {
		{"e2el_mean", 7.840616212638561}, /* 7840.616212638561 ms */
		{"ttft_p50", 0.08574514742940664}, /* 85.74514742940664 ms */
		{"itl_p50", 0.013638956006616354}, /* 13.638956006616354 ms */
		{NULL, 0},
	};
	static const struct kv means0[] = {
		{"input_tokens_mean", 508.70666666666665}, /* 152612 / 300 */
		{"output_tokens_mean", 534.49},            /* 160347 / 300 */
		{NULL, 0},
	};
	expect_conds(&l.v[0], c0);
	expect_metrics(&l.v[0], m0);
	assert_non_null(l.v[0].warnings); /* random_range_ratio 0 */
	/* line 7 is a sharegpt run: no requested lengths in the file */
	static const struct kt c6[] = {
		{"dataset", "sharegpt"}, {"request_rate", "8"}, {"input_tokens", NULL},
		{"max_output_tokens", NULL}, {NULL, NULL},
	};
	expect_conds(&l.v[6], c6);
	validate_all(&l);
	expect_metrics(&l.v[0], means0);
	pl_run_list_release(&l);
}

static void test_sglang_other_files(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_file("sglang_bench_serving/datacrunch_llama33_70b_offline.jsonl", NULL, &l, &err), 0);
	assert_int_equal(l.n, 7);
	static const struct kv m0[] = {
		{"ttft_p50", 91.28220983641222},  /* 91282.20983641222 ms */
		{"requests_completed", 3000},
		{"output_throughput", 4520.698730654741},
		{NULL, 0},
	};
	static const struct kv means0[] = {{"input_tokens_mean", 508.358}, /* 1525074 / 3000 */
	                                   {NULL, 0}};
	expect_metrics(&l.v[0], m0);
	static const struct kt c0[] = {{"request_rate", "inf"}, {"concurrency", "inf"}, {NULL, NULL}};
	expect_conds(&l.v[0], c0);
	validate_all(&l);
	expect_metrics(&l.v[0], means0);
	pl_run_list_release(&l);
	assert_int_equal(parse_file("sglang_bench_serving/datacrunch_llama405b_online.jsonl", NULL, &l, &err), 0);
	assert_int_equal(l.n, 6);
	validate_all(&l);
	pl_run_list_release(&l);
}

/* ----------------------------------------------------------------- llmperf */

static void test_llmperf_lepton(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_file("llmperf/lb_lepton_llama2_7b_summary.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].adapter, "llmperf");
	assert_string_equal(l.v[0].format_version, "2023-08-31");
	static const struct kt c[] = {
		{"model", "llama2-7b"}, {"input_tokens", "550"}, {"max_output_tokens", "150"},
		{"concurrency", "5"}, {"benchmark_tool", "llmperf"},
		{"run_started_at", "2023-12-27T00:56:14Z"}, /* 1703638574 */
		{"engine", NULL}, {"hardware", NULL}, {NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_mean", 1.1107598410000066}, {"ttft_p50", 1.130960661500012},
		{"ttft_p90", 1.270133021299978}, {"ttft_p95", 1.2931924024000125},
		{"ttft_p99", 1.321790463679989}, {"ttft_min", 0.8804335099999889},
		{"ttft_max", 1.3289399789999834}, {"ttft_std", 0.13178586631638076},
		{"tpot_mean", 0.027627672373711026}, {"tpot_p95", 0.03010367305927313},
		{"e2el_p50", 4.158821544999995}, {"e2el_std", 0.23814782112686117},
		{"tokens_per_second_p50", 12.503557982582048},
		{"tokens_per_second_mean", 12.502821054597955},
		{"requests_completed", 20}, {"requests_failed", 130},
		{"error_rate", 0.8666666666666667},      /* 130 / (20 + 130) */
		{"output_throughput", 55.904209686613335},
		{"request_throughput", 22.220951183814506 / 60}, /* per minute / 60 */
		{"input_tokens_mean", 550}, {"output_tokens_mean", 150.95},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_llmperf_other_summaries(void **state)
{
	static const struct {
		const char *file;
		const char *model;
		const char *conc;
		double completed, errors, ttft_p50;
	} f[] = {
		{"lb_anyscale_llama2_70b_summary.json", "meta-llama/Llama-2-70b-chat-hf", "5", -1, -1, -1},
		{"lb_bedrock_llama2_13b_summary.json", "meta.llama2-13b-chat-v1", "5", 53, 97, 0.2687641180000355},
		{"lb_groq_llama2_70b_summary.json", "llama2-70b-4096", "5", 150, 0, 0.2218883791938424},
		{"pr42_tgi_yi34b_4xa10g_c1_summary.json", "01-ai/Yi-1.5-34B-Chat", "1", -1, -1, -1},
		{"pr42_vllm_yi34b_4xa10g_c64_summary.json", "01-ai/Yi-1.5-34B-Chat", "64", -1, -1, -1},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		struct pl_run_list l = {0};
		struct pl_error err;
		char rel[256];
		snprintf(rel, sizeof(rel), "llmperf/%s", f[i].file);
		assert_int_equal(parse_file(rel, NULL, &l, &err), 0);
		assert_int_equal(l.n, 1);
		struct kt c[] = {{"model", f[i].model}, {"concurrency", f[i].conc}, {NULL, NULL}};
		expect_conds(&l.v[0], c);
		if (f[i].completed >= 0) {
			struct kv m[] = {
				{"requests_completed", f[i].completed}, {"requests_failed", f[i].errors},
				{"error_rate", f[i].errors / (f[i].completed + f[i].errors)},
				{"ttft_p50", f[i].ttft_p50}, {NULL, 0},
			};
			expect_metrics(&l.v[0], m);
		}
		validate_all(&l);
		pl_run_list_release(&l);
	}
}

static void test_llmperf_individual_refused(void **state)
{
	(void)state;
	expect_rejected("llmperf/lb_lepton_llama2_7b_individual.json", PL_EFORMAT,
	                "llmperf per-request responses (*_individual_responses.json) are not a run; "
	                "they are imported with the run of the *_summary.json beside them");
	expect_rejected("llmperf/lb_bedrock_llama2_13b_individual.json", PL_EFORMAT,
	                "llmperf per-request responses (*_individual_responses.json) are not a run; "
	                "they are imported with the run of the *_summary.json beside them");
}

/* ------------------------------------------------------------ AIPerf/GenAI */

static void test_aiperf_080(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_file("genai_perf/aiperf080_kimik25_mi355x_c1.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].adapter, "aiperf");
	assert_string_equal(l.v[0].format_version, "1.1");
	static const struct kt c[] = {
		{"model", "amd/Kimi-K2.5-MXFP4"}, {"concurrency", "1"}, {"streaming", "true"},
		{"dataset", "semianalysis_cc_traces_weka_with_subagents_060226_256k"},
		{"benchmark_tool", "aiperf"}, {"benchmark_tool_version", "0.8.0"},
		{"run_started_at", "2026-06-03T08:15:41"}, {"request_rate", NULL},
		{"input_tokens", NULL}, {NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_mean", 1149.2469555081968e-3}, /* ms -> s */
		{"ttft_p50", 768.9501359999999e-3}, {"ttft_p99", 6501.636051999997e-3},
		{"ttft_min", 137.158698e-3}, {"ttft_max", 7542.731113e-3},
		{"tpot_mean", 11.214844537358974e-3}, /* inter_token_latency */
		{"itl_mean", 11.293711545569323e-3},  /* inter_chunk_latency */
		{"itl_p50", 11.220134999999999e-3},
		{"e2el_mean", 13760.434752852458e-3}, /* request_latency */
		{"e2el_p95", 49179.107723e-3},
		{"tokens_per_second_mean", 89.31482522291535}, {"tokens_per_second_p50", 88.965449209132},
		{"requests_completed", 61}, {"requests_failed", 0}, /* error_summary [] */
		{"error_rate", 0},
		{"request_throughput", 0.03487628423485553}, {"output_throughput", 39.101460308553605},
		{"total_token_throughput", 2869.4834486764316},
		{"input_tokens_mean", 81154.91803278688}, {"output_tokens_mean", 1121.1475409836066},
		{"total_input_tokens", 4950450}, {"total_output_tokens", 68390},
		{"duration", 1749.039536128}, {"concurrency_mean", 0.4799193515420742},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_aiperf_old_schema(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_file("genai_perf/aiperf_old_schema_qwen_c1_fixture.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_null(l.v[0].format_version);
	static const struct kt c[] = {
		{"model", "Qwen/Qwen3-0.6B"}, {"concurrency", "1"}, {"warmup_requests", "1"},
		{"input_tokens", "100"}, {"max_output_tokens", "200"}, /* input_config.input.prompt */
		{"benchmark_tool", "aiperf"}, /* loadgen block */
		{"benchmark_tool_version", NULL}, {NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_mean", 30.814987671875e-3}, {"ttft_p50", 30.668547999999998e-3},
		{"requests_completed", 64}, {"error_rate", 0},
		{"output_throughput", 50.08213863971112}, {"request_throughput", 0.2504302580624667},
		{"input_tokens_mean", 100}, {"output_tokens_mean", 199.984375},
		{"total_input_tokens", 6400}, {"total_output_tokens", 12799},
		{"duration", 255.56017270100003}, {"goodput", MISSING}, /* null */
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_aiperf_refusals(void **state)
{
	(void)state;
	/* was_cancelled, only error_request_count {avg 32}: a failed run, stored */
	expect_failed_file("genai_perf/aiperf080_kimik25_b200_c32_failed.json", 0, 32);
	expect_rejected("genai_perf/aiperf080_kimik25_b200_c32_failed_records.jsonl", PL_EFORMAT,
	                "AIPerf per-request records (profile_export.jsonl) are not a run; "
	                "they are imported with the run of the profile_export_aiperf.json beside "
	                "them");
	expect_rejected("genai_perf/genaiperf_analyze_checkpoint_gpt2.json", PL_EFORMAT,
	                "a GenAI-Perf analyze checkpoint (checkpoint.json) is internal state, not a "
	                "run; import the profile exports of its runs");
}

static void test_aiperf_unknown_unit(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_str("u.json",
	                           "{\"input_config\": {}, \"request_count\": {\"unit\": \"requests\", \"avg\": 3},"
	                           " \"time_to_first_token\": {\"unit\": \"minutes\", \"avg\": 1}}",
	                           &l, &err), PL_EINVALID);
	assert_string_equal(err.message,
	                    "unknown unit 'minutes' in 'time_to_first_token' (expected ns, us, ms or sec)");
	/* nanoseconds convert by 10^-9 */
	assert_int_equal(parse_str("u.json",
	                           "{\"input_config\": {}, \"request_count\": {\"unit\": \"requests\", \"avg\": 3},"
	                           " \"error_summary\": [],"
	                           " \"time_to_first_token\": {\"unit\": \"ns\", \"avg\": 1500000, \"p50\": 1200000}}",
	                           &l, &err), 0);
	static const struct kv m[] = {{"ttft_mean", 0.0015}, {"ttft_p50", 0.0012}, {NULL, 0}};
	expect_metrics(&l.v[0], m);
	assert_string_equal(l.v[0].cond[PL_C_BENCHMARK_TOOL].text, "genai-perf");
	pl_run_list_release(&l);
}

/* -------------------------------------------------------------- llama-bench */

static void test_llama_bench_rocm(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	size_t pp = 0, tg = 0;
	(void)state;
	assert_int_equal(parse_file("llama_bench/orion_gptoss20b_radeon8060s_rocm712.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 84);
	for (size_t i = 0; i < l.n; i++) {
		/* a pp row never carries generation speed */
		if (l.v[i].has_metric[PL_M_PREFILL_TPS]) {
			pp++;
			assert_false(l.v[i].has_metric[PL_M_TPS_MEAN]);
			assert_false(l.v[i].has_metric[PL_M_OUTPUT_THROUGHPUT]);
		} else if (l.v[i].has_metric[PL_M_TPS_MEAN]) {
			tg++;
		}
	}
	assert_int_equal(pp, 42); /* 42 rows with n_gen 0, 42 with n_prompt 0 */
	assert_int_equal(tg, 42);
	static const struct kt c0[] = {
		{"model", "gpt-oss 20B MXFP4 MoE"}, {"engine", "llama.cpp"}, {"engine_version", "b8067"},
		{"hardware", "Radeon 8060S Graphics"}, {"kv_cache_dtype", "q8_0"},
		{"input_tokens", "128"}, {"max_output_tokens", "0"}, {"concurrency", "1"},
		{"dataset", "llama-bench pp128"}, {"benchmark_tool", "llama-bench"},
		{"benchmark_tool_version", "b8067"}, {"repetitions", "3"},
		{"run_started_at", "2026-02-16T08:11:49Z"},
		{"engine_args", "backends=ROCm 7.12 n_batch=8192 n_ubatch=2048 n_gpu_layers=99 flash_attn=true"},
		{"precision", NULL}, {NULL, NULL},
	};
	static const struct kv m0[] = {
		{"prefill_tokens_per_second", 774.746509}, {"prefill_tokens_per_second_std", 19.855583},
		{"tokens_per_second_mean", MISSING}, {NULL, 0},
	};
	expect_conds(&l.v[0], c0);
	expect_metrics(&l.v[0], m0);
	assert_int_equal(nmetrics(&l.v[0]), 2);
	/* record 21: tg128 at depth 512 */
	static const struct kt c21[] = {
		{"dataset", "llama-bench tg128 @ d512"}, {"input_tokens", "0"},
		{"max_output_tokens", "128"}, {NULL, NULL},
	};
	static const struct kv m21[] = {
		{"tokens_per_second_mean", 70.195068}, {"output_throughput", 70.195068},
		{"tokens_per_second_std", 0.214115}, {"prefill_tokens_per_second", MISSING}, {NULL, 0},
	};
	expect_conds(&l.v[21], c21);
	expect_metrics(&l.v[21], m21);
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_llama_bench_vulkan(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_file("llama_bench/orion_gptoss20b_rx7900xtx_vulkan_radv.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 84);
	static const struct kt c7[] = {
		{"hardware", "AMD Radeon RX 7900 XTX, AMD Ryzen 9 7950X 16-Core Processor (RADV RAPHAEL_MENDOCINO)"},
		{"engine_version", "b7951"}, {"dataset", "llama-bench tg128"},
		{"run_started_at", "2026-02-06T05:35:38Z"}, {NULL, NULL},
	};
	static const struct kv m7[] = {
		{"tokens_per_second_mean", 208.624877}, {"tokens_per_second_std", 0.082578}, {NULL, 0},
	};
	expect_conds(&l.v[7], c7);
	expect_metrics(&l.v[7], m7);
	validate_all(&l);
	pl_run_list_release(&l);
}

/* ------------------------------------------------------------- InferenceMAX */

static void test_ix_agg(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_file("inferencemax/ix_agg_kimik25_int4_mi355x_c4.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	static const struct kt c[] = {
		{"hardware", "mi355x"}, {"model", "moonshotai/Kimi-K2.5"}, {"engine", "vllm"},
		{"engine_version", "0.21.0"}, /* image vllm/vllm-openai-rocm:v0.21.0 */
		{"precision", "int4"}, {"input_tokens", "1024"}, {"max_output_tokens", "1024"},
		{"concurrency", "4"}, {"tensor_parallel_size", "8"}, {"benchmark_tool", "inferencemax"},
		{"accelerator_count", NULL}, {NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_mean", 0.3170863160688896}, {"ttft_p50", 0.2969768075272441},
		{"ttft_std", 0.0725235775538713}, {"ttft_p90", 0.3538684876635672},
		{"ttft_p99", 0.5859901384473777}, {"ttft_p99_9", 0.6591278487213433},
		{"tpot_p50", 0.017393898241078155}, {"itl_p99", 0.17026271915528923},
		{"e2el_p99_9", 18.445460162415404},
		{"tokens_per_second_p50", 57.49142521935413},  /* median_intvty */
		{"tokens_per_second_mean", 57.82309273569342}, /* mean_intvty */
		{"tokens_per_second_p99", MISSING},            /* p99_intvty: reversed order */
		{"output_throughput_per_accelerator", 27.678011491816765},
		{"total_token_throughput_per_accelerator", 55.62670336516291},
		{"output_throughput", MISSING}, {"error_rate", MISSING}, {NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	validate_all(&l);
	pl_run_list_release(&l);
	assert_int_equal(parse_file("inferencemax/ix_agg_kimik25_int4_8k1k_c32.json", NULL, &l, &err), 0);
	static const struct kt c2[] = {{"input_tokens", "8192"}, {"concurrency", "32"}, {NULL, NULL}};
	expect_conds(&l.v[0], c2);
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_ix_together(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_file("inferencemax/ix_together_dsr1_fp4_b200_c128.json", NULL, &l, &err), 0);
	static const struct kt c[] = {
		{"hardware", "b200"}, {"engine", "sglang"}, {"engine_version", NULL}, /* dev-cu13 */
		{"precision", "fp4"}, {"accelerator_count", "8"}, {"concurrency", "128"},
		{"run_started_at", "2026-06-11T23:25:28Z"}, {NULL, NULL},
	};
	static const struct kv m[] = {
		{"requests_completed", 1280}, {"output_throughput", 4780.3151857351295},
		{"total_token_throughput", 9669.817946887235}, {"request_throughput", 9.501026276936042},
		{"ttft_p50", 515.3742679394782e-3}, {"ttft_p99", 1506.6411917423832e-3},
		{"tpot_p50", 24.524340864086934e-3}, {"itl_p50", 180.71580934338272e-3},
		{"e2el_p99", 26605.433083986874e-3}, {"power_watts", 557.7}, {NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	validate_all(&l);
	static const struct kv d[] = {
		{"output_throughput_per_accelerator", 4780.3151857351295 / 8}, /* derived: / n_gpus */
		{NULL, 0},
	};
	expect_metrics(&l.v[0], d);
	pl_run_list_release(&l);
}

static void test_ix_agentic(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_file("inferencemax/rocmfork_agentic_kimik25_b200_tp8_c16.json", NULL, &l, &err), 0);
	static const struct kt c[] = {
		{"hardware", "b200-dgxc"}, {"model", "/lustre/fsw/models/Kimi-K2.5-NVFP4"},
		{"engine_version", "0.22.0"}, {"precision", "fp4"}, {"concurrency", "16"},
		{"input_tokens", NULL}, {NULL, NULL},
	};
	static const struct kv m[] = {
		{"requests_completed", 818}, {"requests_failed", 0}, {"error_rate", 0},
		{"ttft_mean", 1.0012943749168703}, {"ttft_p90", 1.580330530200001},
		{"ttft_p95", 2.5213910663499988}, {"ttft_p50", MISSING}, /* p75 only: ignored */
		{"tpot_mean", 0.020759218384754734}, {"e2el_p95", 79.64382661424997},
		{"output_throughput", 430.4229896496884}, {"total_token_throughput", 38217.17100919655},
		{"duration", 1826.95631718}, {"input_tokens_mean", 84394.54523227384},
		{"output_tokens_mean", 961.3251833740832}, {"total_input_tokens", 69122034},
		{"total_output_tokens", 790799}, {"tokens_per_second_mean", 51.05641805436494},
		{"output_throughput_per_accelerator", 53.80287370621105},
		{"total_token_throughput_per_accelerator", 4777.146376149569}, {NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	validate_all(&l);
	pl_run_list_release(&l);
	/* agg_bmk.json: an array; empty strings are missing values */
	assert_int_equal(parse_file("inferencemax/rocmfork_agg_bmk_minimax_empty_fields.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	static const struct kt c2[] = {
		{"engine", NULL}, {"precision", NULL}, {"engine_version", NULL},
		{"model", "amd/MiniMax-M2.5-MXFP4"}, {"hardware", "mi355x"}, {NULL, NULL},
	};
	static const struct kv m2[] = {{"requests_completed", 300}, {"ttft_mean", 27.149974573223332}, {NULL, 0}};
	expect_conds(&l.v[0], c2);
	expect_metrics(&l.v[0], m2);
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_ix_refusals(void **state)
{
	(void)state;
	/* no request: a failed run, stored */
	expect_failed_file("inferencemax/rocmfork_agentic_kimik25_b200_tp8_c32_failed.json", 0, 0);
	expect_rejected("inferencemax/rocmfork_run_stats_b200.json", PL_EFORMAT,
	                "InferenceMAX run_stats.json (success counters per hardware) is not a run");
}

/* ------------------------------------------------------------------- rules */

/* A latency of exactly 0 in a run with completed requests is "not measured". */
static void test_rule_zero_latency(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_str("z.jsonl",
	                           "{\"backend\": \"sglang\", \"completed\": 5, \"median_ttft_ms\": 0.0, "
	                           "\"mean_e2e_latency_ms\": 120.5, \"median_itl_ms\": 0}\n",
	                           &l, &err), 0);
	validate_all(&l);
	static const struct kv m[] = {
		{"ttft_p50", MISSING}, {"itl_p50", MISSING}, {"e2el_mean", 0.1205}, {NULL, 0},
	};
	expect_metrics(&l.v[0], m);
	assert_string_equal(l.v[0].warnings,
	                    "2 latency statistics of exactly 0 stored as missing (not measured): "
	                    "ttft_p50, itl_p50");
	pl_run_list_release(&l);
}

/* A run where no request completed is a failed run, stored and flagged. */
static void test_rule_none_completed(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_str("z.jsonl",
	                           "{\"backend\": \"sglang\", \"completed\": 0, \"median_ttft_ms\": 0.0, "
	                           "\"mean_e2e_latency_ms\": 0}\n",
	                           &l, &err), 0);
	assert_int_equal(l.n, 1);
	expect_failed_run(&l.v[0], MISSING);
	pl_run_list_release(&l);
}

/* Per-accelerator throughput is derived from the accelerator count. */
static void test_rule_per_accelerator(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_str("z.jsonl",
	                           "{\"backend\": \"sglang\", \"completed\": 5, "
	                           "\"mean_e2e_latency_ms\": 100, \"output_throughput\": 900}\n",
	                           &l, &err), 0);
	assert_int_equal(pl_run_set_cond(&l.v[0], PL_C_HARDWARE, "4x NVIDIA H100", &err), 0);
	validate_all(&l);
	static const struct kv m[] = {{"output_throughput_per_accelerator", 225}, {NULL, 0}};
	expect_metrics(&l.v[0], m);
	pl_run_list_release(&l);
}

/* The workload that ran is checked against the one requested (10%). */
static void test_rule_workload(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	struct pl_compare_opts opts;
	struct pl_comparison cmp;
	(void)state;
	/* line 0 ran 1024-token prompts as requested; line 1 requested 1024 but
	 * sent 500 on average (1500 / 3) */
	assert_int_equal(parse_str("w.jsonl",
	                           "{\"backend\": \"sglang\", \"dataset_name\": \"random\", \"random_input_len\": 1024,"
	                           " \"random_output_len\": 100, \"random_range_ratio\": 1.0, \"completed\": 2,"
	                           " \"total_input_tokens\": 2048, \"total_output_tokens\": 200, \"mean_e2e_latency_ms\": 10}\n"
	                           "{\"backend\": \"sglang\", \"dataset_name\": \"random\", \"random_input_len\": 1024,"
	                           " \"random_output_len\": 100, \"random_range_ratio\": 1.0, \"completed\": 3,"
	                           " \"total_input_tokens\": 1500, \"total_output_tokens\": 300, \"mean_e2e_latency_ms\": 10}\n",
	                           &l, &err), 0);
	validate_all(&l);
	l.v[0].id = 1;
	l.v[1].id = 2;
	assert_int_equal(pl_run_set_cond(&l.v[1], PL_C_HARDWARE, "2x H", &err), 0);
	memset(&opts, 0, sizeof(opts));
	pl_error_init(&err);
	assert_int_equal(pl_compare_parse_axis(&opts, "hardware", &err), 0);
	assert_int_equal(pl_compare_build(&l, &opts, &cmp, &err), PL_EMISMATCH);
	assert_int_equal(cmp.nmismatches, 1);
	assert_int_equal(cmp.mismatches[0].cond, PL_C_INPUT_TOKENS);
	assert_string_equal(cmp.mismatches[0].values[0], "1024");
	assert_string_equal(cmp.mismatches[0].values[1], "500");
	assert_string_equal(refusal_en(&err, &cmp),
	                    "comparison refused: 1 condition differs off the axis 'hardware': input_tokens: "
	                    "'1024 requested' vs '500 measured mean (run 2)'");
	pl_comparison_release(&cmp);
	/* allowed: compared, with a caveat */
	opts.allow_mismatch[PL_C_INPUT_TOKENS] = 1;
	pl_error_init(&err);
	assert_int_equal(pl_compare_build(&l, &opts, &cmp, &err), 0);
	assert_int_equal(cmp.nrows, 2);
	int found = 0;
	for (size_t i = 0; i < cmp.caveats.n; i++)
		found |= strstr(cav_en(&cmp, i), "run 2 did not run the requested workload: input_tokens "
		                                "1024 requested vs 500 measured mean (run 2)") != NULL;
	assert_true(found);
	pl_comparison_release(&cmp);
	pl_run_list_release(&l);
}

/* A cross-tool pair is refused (benchmark_tool is in the key), then allowed. */
static void test_rule_cross_tool(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	struct pl_compare_opts opts;
	struct pl_comparison cmp;
	(void)state;
	need_shared(PL_CORPUS_DIR "/llmperf/lb_groq_llama2_70b_summary.json"); /* before allocating */
	assert_int_equal(parse_str("x.jsonl",
	                           "{\"backend\": \"sglang\", \"completed\": 2, \"mean_e2e_latency_ms\": 10}\n",
	                           &l, &err), 0);
	assert_int_equal(parse_file("llmperf/lb_groq_llama2_70b_summary.json", NULL, &l, &err), 0);
	for (size_t i = 0; i < l.n; i++) {
		l.v[i].id = (long long)i + 1;
		/* same everything but the tool: strip what the files differ in */
		for (int c = 0; c < PL_COND_COUNT; c++)
			if (c != PL_C_BENCHMARK_TOOL && c != PL_C_BENCHMARK_TOOL_VERSION)
				pl_run_set_cond(&l.v[i], c, NULL, &err);
	}
	validate_all(&l);
	assert_int_equal(pl_run_set_cond(&l.v[1], PL_C_HARDWARE, "2x H", &err), 0);
	memset(&opts, 0, sizeof(opts));
	assert_int_equal(pl_compare_parse_axis(&opts, "hardware", &err), 0);
	assert_int_equal(pl_compare_build(&l, &opts, &cmp, &err), PL_EMISMATCH);
	assert_int_equal(cmp.mismatches[0].cond, PL_C_BENCHMARK_TOOL);
	/* the SGLang line has no failure count (error rate unknown), groq has 0:
	 * the errors rule refuses that too unless allowed */
	assert_int_equal(cmp.nmismatches, 2);
	assert_int_equal(cmp.mismatches[1].cond, PL_C_NONE);
	pl_comparison_release(&cmp);
	opts.allow_mismatch[PL_C_BENCHMARK_TOOL] = 1;
	assert_int_equal(pl_compare_build(&l, &opts, &cmp, &err), PL_EMISMATCH);
	assert_string_equal(refusal_en(&err, &cmp),
	                    "comparison refused: 1 condition differs off the axis 'hardware': error_rate: "
	                    "'0' (run 2) vs '(missing)' (run 1)");
	pl_comparison_release(&cmp);
	opts.allow_errors = 1;
	assert_int_equal(pl_compare_build(&l, &opts, &cmp, &err), 0);
	assert_true(cmp.caveats.n >= 2); /* then the reference-only rows */
	assert_string_equal(cav_en(&cmp, 0),
	                    "conditions differ in benchmark_tool: llmperf vs sglang-bench-serving "
	                    "(allowed by --allow-mismatch)");
	assert_string_equal(cav_en(&cmp, 1),
	                    "runs with and without errors compared (allowed by --allow-mismatch "
	                    "error_rate): error_rate 0 (run 2), (missing) (run 1)");
	pl_comparison_release(&cmp);
	pl_run_list_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sglang_deepseek),
		cmocka_unit_test(test_sglang_online),
		cmocka_unit_test(test_sglang_other_files),
		cmocka_unit_test(test_llmperf_lepton),
		cmocka_unit_test(test_llmperf_other_summaries),
		cmocka_unit_test(test_llmperf_individual_refused),
		cmocka_unit_test(test_aiperf_080),
		cmocka_unit_test(test_aiperf_old_schema),
		cmocka_unit_test(test_aiperf_refusals),
		cmocka_unit_test(test_aiperf_unknown_unit),
		cmocka_unit_test(test_llama_bench_rocm),
		cmocka_unit_test(test_llama_bench_vulkan),
		cmocka_unit_test(test_ix_agg),
		cmocka_unit_test(test_ix_together),
		cmocka_unit_test(test_ix_agentic),
		cmocka_unit_test(test_ix_refusals),
		cmocka_unit_test(test_rule_zero_latency),
		cmocka_unit_test(test_rule_none_completed),
		cmocka_unit_test(test_rule_per_accelerator),
		cmocka_unit_test(test_rule_workload),
		cmocka_unit_test(test_rule_cross_tool),
	};
	pl_adapters_init(); /* cJSON's allocator hooks, as main() does */
	return shared_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
