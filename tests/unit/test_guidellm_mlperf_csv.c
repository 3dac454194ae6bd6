/*
 * test_guidellm_mlperf_csv.c — guidellm (JSON, YAML), MLPerf log
 * summaries, the CSV exports and the CSV files refused with a reason, the
 * errors rule and the JSON reader fixes a tester found.
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

#include <sys/stat.h>

/* ---------------------------------------------------------------- guidellm */

static void check_guidellm_02(const char *rel)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	if (parse_file(rel, NULL, &l, &err))
		fail_msg("%s: %s", rel, err.message);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].adapter, "guidellm");
	assert_string_equal(l.v[0].format_version, "0.2");
	assert_int_equal(l.v[0].record, 0);
	static const struct kt c[] = {
		{"model", "example_model"}, {"benchmark_tool", "guidellm"},
		{"concurrency", "1"},       /* strategy synchronous */
		{"request_rate", NULL},
		{"warmup_requests", "0"},   /* warmup_number and warmup_duration both null */
		{"input_tokens", "256"}, {"max_output_tokens", "128"}, /* "prompt_tokens=256,output_tokens=128" */
		{"run_started_at", "2025-06-05T20:59:28Z"}, /* start_time 1749157168.18 */
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_p50", 0.01638054847717285},   /* median 16.38054847717285 ms (no p50 key in 0.2) */
		{"ttft_p99", 0.021281957626342773},  /* p99 21.281957626342773 ms */
		{"itl_mean", 0.004941609043733832},  /* 4.941609043733832 ms */
		{"tpot_std", 0.00005624627107736628}, /* std_dev 0.05624627107736628 ms */
		{"e2el_p99_9", 0.6891846656799316},  /* request_latency p999, already seconds */
		{"output_throughput", 198.13346751788123},
		{"total_token_throughput", 992.6867036588937},
		{"request_throughput", 1.5481806532737452},
		{"input_tokens_mean", 257.1086956521739},
		{"output_tokens_mean", 127.99999999999999},
		{"concurrency_mean", 0.9977627456483604},
		{"requests_completed", 46}, {"requests_failed", 0},
		{"error_rate", 0},                   /* 0 / (46 + 0); incomplete 1 not counted */
		{"duration", 29.997201442718506},
		{"tokens_per_second_p50", MISSING},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_guidellm_02_json(void **state)
{
	(void)state;
	check_guidellm_02("guidellm/guidellm02x_sweep_stripped_fixture.json");
}

/* The same report as YAML gives the same run. */
static void test_guidellm_02_yaml(void **state)
{
	(void)state;
	check_guidellm_02("guidellm/guidellm02x_sweep_stripped_fixture.yaml");
}

static void test_guidellm_05(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_file("guidellm/guidellm050dev_qwen3_30b_a3b_fp8.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].format_version, "1");
	static const struct kt c[] = {
		{"model", "Qwen/Qwen3-30B-A3B"}, {"benchmark_tool_version", "0.5.0.dev0"},
		{"concurrency", "1"},             /* synchronous */
		{"warmup_requests", NULL},        /* warmup.percent 0.1: a fraction, not requests */
		{"dataset", "/root/aime_2024_v2.jsonl"},
		{"input_tokens", NULL}, {NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_p50", 0.05810093879699707},   /* percentiles.p50 58.10093879699707 ms */
		{"ttft_p99", 0.07279777526855469},   /* 72.79777526855469 ms */
		{"itl_mean", 0.03865124784686373},   /* 38.65124784686373 ms */
		{"tpot_std", 0.0007160321951058463}, /* 0.7160321951058463 ms */
		{"e2el_p99_9", 40.430073499679565},  /* seconds */
		{"output_throughput", 25.859765493102046},
		{"request_throughput", 0.024999999999999994},
		{"input_tokens_mean", 92.05263157894736}, {"output_tokens_mean", 1024},
		{"requests_completed", 19}, {"error_rate", 0}, /* metrics.request_totals 19 / 0 */
		{"duration", 720}, {NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_string_equal(l.v[0].warnings,
	                    "warm-up given as a fraction of the run (warmup.percent 0.1), not a request "
	                    "count: warmup_requests left missing");
	validate_all(&l);
	pl_run_list_release(&l);

	assert_int_equal(parse_file("guidellm/guidellm050dev_qwen3_4b_sanity.json", NULL, &l, &err), 0);
	static const struct kt c2[] = {
		{"model", "Qwen/Qwen3-4B-Thinking-2507"}, {"concurrency", "4"}, /* concurrent, streams 4 */
		{"warmup_requests", "0"},                 /* warmup percent and value null */
		{NULL, NULL},
	};
	static const struct kv m2[] = {
		{"ttft_p50", 0.17152166366577148}, /* 171.52166366577148 ms */
		{"itl_mean", 0.02417877651496134}, /* 24.17877651496134 ms */
		{"output_throughput", 165.59511945248636}, {"requests_completed", 4},
		{"concurrency_mean", 3.9998399194047565}, {NULL, 0},
	};
	expect_conds(&l.v[0], c2);
	expect_metrics(&l.v[0], m2);
	assert_null(l.v[0].warnings);
	pl_run_list_release(&l);
}

static void test_guidellm_yaml_rules(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_str("g.yaml", "benchmarks:\n- type_: generative_benchmark\n  a: 1\n  a: 2\n",
	                           &l, &err), PL_EINVALID);
	assert_string_equal(err.message, "duplicate key 'a' (YAML readers disagree on which one wins)");
	assert_int_equal(err.line, 4);
	assert_int_equal(err.column, 3);
	assert_int_equal(parse_str("g.yaml", "benchmarks:\n- type_: generative_benchmark\n  x: .nan\n",
	                           &l, &err), PL_EINVALID);
	assert_string_equal(err.message, "'x' is NaN or -infinity; give a number, or null if unknown");
	/* every request errored: a failed run, stored */
	assert_int_equal(parse_str("g.yaml",
	                           "benchmarks:\n- type_: generative_benchmark\n  request_totals: "
	                           "{successful: 0, errored: 3}\n",
	                           &l, &err), 0);
	assert_int_equal(l.n, 1);
	expect_failed_run(&l.v[0], 3);
	pl_run_list_release(&l);
	/* an alias bomb (10^7 nodes from 25) is refused before it takes memory:
	 * aliases may expand a document to 16 times its nodes plus 100000 */
	assert_int_equal(parse_str("g.yaml",
	                           "# type_: generative_benchmark\n"
	                           "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	                           "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
	                           "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
	                           "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
	                           "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
	                           "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
	                           "benchmarks: [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n",
	                           &l, &err),
	                 PL_EINVALID);
	assert_string_equal(err.message, "the YAML document's aliases expand its 25 nodes to more "
	                                 "than 100400 (16 times as many, plus 100000)");
	assert_int_equal(l.n, 0);
	pl_run_list_release(&l);
	/* few nodes, one big scalar: aliases copy its bytes (10^4 x 64 KiB = 640 MiB);
	 * the text they expand to is bounded as well, by the file's size */
	{
		size_t big = 65536;
		char *doc = malloc(big + 1024), *p = doc;
		assert_non_null(doc);
		p += snprintf(p, 64, "# type_: generative_benchmark\na: &a ");
		memset(p, 'X', big);
		p += big;
		p += snprintf(p, doc + big + 1024 - p, "\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
		                "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
		                "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
		                "benchmarks: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n");
		assert_int_equal(parse_str("g.yaml", doc, &l, &err), PL_EINVALID);
		if (!strstr(err.message, "the YAML document's aliases expand its text of"))
			fail_msg("%s", err.message);
		assert_int_equal(l.n, 0);
		pl_run_list_release(&l);
		free(doc);
	}
}

/* ------------------------------------------------------------------ MLPerf */

static void test_mlperf_server(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_file("mlperf/v41_nvidia_h200x8_llama2-70b_server_summary.txt", NULL, &l,
	                            &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].adapter, "mlperf");
	static const struct kt c[] = {
		{"benchmark_tool", "mlperf-loadgen"}, {"request_rate", "101"}, /* target_qps */
		{"concurrency", NULL}, {"hardware", NULL}, {NULL, NULL},
	};
	static const struct kv m[] = {
		{"request_throughput", 100.35},        /* Completed samples per second */
		{"output_throughput", 29228.22},       /* Completed tokens per second */
		{"ttft_p50", 0.180758928},             /* 180758928 ns */
		{"ttft_mean", 0.198269106},            /* 198269106 ns */
		{"tpot_p99", 0.146040006},             /* 146040006 ns */
		{"tpot_p99_9", 0.157046729},           /* 157046729 ns */
		{"e2el_max", 146.954146383},           /* 146954146383 ns */
		{"e2el_p99_9", 132.503046236},         /* 132503046236 ns */
		{"error_rate", MISSING}, {NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_mlperf_offline(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_file("mlperf/v41_nvidia_h200x8_llama2-70b_offline_summary.txt", NULL, &l,
	                            &err), 0);
	static const struct kt c[] = {{"request_rate", "inf"}, {NULL, NULL}};
	static const struct kv m[] = {
		{"request_throughput", 107.477}, /* Samples per second */
		{"output_throughput", 31302.7},  /* Tokens per second */
		{"e2el_mean", MISSING},          /* Offline latency = time since start: not stored */
		{"e2el_p50", MISSING}, {NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 2);
	pl_run_list_release(&l);
}

static void test_mlperf_invalid_and_sidecar(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	char dir[512], path[600], side[600], *buf;
	size_t len;
	FILE *f;
	(void)state;
	assert_int_equal(parse_str("s.txt",
	                           "MLPerf Results Summary\nScenario : Server\nMode     : PerformanceOnly\n"
	                           "Completed samples per second    : 3.5\nResult is : INVALID\n"
	                           "  Performance constraints satisfied : NO\n"
	                           "  Min duration satisfied : Yes\n  Early stopping satisfied: NO\n",
	                           &l, &err), PL_EINVALID);
	assert_string_equal(err.message,
	                    "the MLPerf result is INVALID (not satisfied: Performance constraints "
	                    "satisfied, Early stopping satisfied): LoadGen did not accept this run, so "
	                    "it is not imported");
	assert_int_equal(parse_str("s.txt",
	                           "MLPerf Results Summary\nScenario : Offline\nMode : AccuracyOnly\n",
	                           &l, &err), PL_EINVALID);
	assert_string_equal(err.message, "an MLPerf AccuracyOnly run holds no performance result "
	                                 "(only PerformanceOnly summaries are imported)");
	assert_int_equal(l.n, 0);

	/* the system description as the sidecar NAME.conditions.json of NAME.txt:
	 * the importer reads it (test_import.c) and applies its body with
	 * pl_adapters_parse_conditions(), as here; the adapter never opens it */
	snprintf(dir, sizeof(dir), "%s", PL_TEST_TMP);
	mkdir(dir, 0777);
	snprintf(path, sizeof(path), "%s/mlperf_log_summary.txt", dir);
	snprintf(side, sizeof(side), "%s/mlperf_log_summary.conditions.json", dir);
	snprintf(dir, sizeof(dir), "%s/mlperf/v41_nvidia_h200x8_trt_system.json", PL_CORPUS_DIR);
	buf = slurp(dir, &len);
	f = fopen(side, "wb");
	assert_non_null(f);
	fwrite(buf, 1, len, f);
	fclose(f);
	free(buf);
	snprintf(dir, sizeof(dir), "%s/mlperf/v41_nvidia_h200x8_llama2-70b_server_summary.txt",
	         PL_CORPUS_DIR);
	buf = slurp(dir, &len);
	pl_error_init(&err);
	assert_int_equal(pl_adapters_parse(path, buf, len, NULL, &l, &err), 0);
	free(buf);
	assert_null(l.v[0].cond[PL_C_HARDWARE].set ? "set" : NULL); /* not by the adapter */
	buf = slurp(side, &len);
	assert_int_equal(pl_adapters_parse_conditions(side, buf, len, &l.v[0], &err), 0);
	free(buf);
	static const struct kt c[] = {
		{"hardware", "8x NVIDIA H200-SXM-141GB"}, /* accelerators_per_node 8 x accelerator_model_name */
		{"accelerator_count", "8"},               /* 8 per node x 1 node */
		{"engine", NULL}, {"driver_version", NULL}, /* free text: not parsed */
		{NULL, NULL},
	};
	expect_conds(&l.v[0], c);
	pl_run_list_release(&l);
	remove(side);
}

/* --------------------------------------------------------------------- CSV */

/* A nanosecond timestamp is beyond 2^53: as a double 1780474576999999999
 * becomes 1780474577000000000, one second later. Converted on its digits,
 * the start second is exact. */
static void test_aiperf_csv_timestamp_exact(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	char path[1024], *buf, *at;
	size_t len;

	(void)state;
	snprintf(path, sizeof(path), "%s/genai_perf/aiperf080_kimik25_mi355x_c1.csv", PL_CORPUS_DIR);
	buf = slurp(path, &len);
	at = strstr(buf, "1780474576930921984");
	assert_non_null(at);
	memcpy(at, "1780474576999999999", 19);
	pl_error_init(&err);
	assert_int_equal(pl_adapters_parse("t.csv", buf, len, NULL, &l, &err), 0);
	assert_string_equal(l.v[0].cond[PL_C_RUN_STARTED_AT].text, "2026-06-03T08:16:16Z");
	pl_run_list_release(&l);
	free(buf);
}

static void test_aiperf_csv(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_file("genai_perf/aiperf080_kimik25_mi355x_c1.csv", NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].adapter, "aiperf-csv");
	static const struct kt c[] = {
		{"benchmark_tool", "aiperf"}, {"model", NULL},
		{"run_started_at", "2026-06-03T08:16:16Z"}, /* 1780474576930921984 ns -> 1780474576 s */
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_mean", 1.14925},           /* 1149.25 ms */
		{"ttft_p50", 0.76895},            /* 768.95 ms */
		{"tpot_p99", 0.01153},            /* Inter Token Latency p99 11.53 ms */
		{"itl_mean", 0.01129},            /* Inter Chunk Latency avg 11.29 ms */
		{"e2el_p90", 36.02517},           /* Request Latency p90 36025.17 ms */
		{"tokens_per_second_mean", 89.31},
		{"input_tokens_mean", 81154.92}, {"output_tokens_mean", 1121.15},
		{"concurrency_mean", 0.48},
		{"duration", 1749.04}, {"output_throughput", 39.10}, {"request_throughput", 0.03},
		{"requests_completed", 61},
		{"error_rate", MISSING},          /* no Error Request Count row */
		{"ttft_p95", 4.51361},            /* 4513.61 ms */
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_genai_perf_analyze(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_file("genai_perf/genaiperf_analyze_gpt2_sweep.csv", NULL, &l, &err), 0);
	assert_int_equal(l.n, 5);
	assert_int_equal(l.v[4].record, 4);
	static const struct kt c[] = {
		{"concurrency", "32"}, {"input_tokens", "200"}, {"num_prompts", "175"},
		{"benchmark_tool", "genai-perf"}, {NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_p99", 0.18443},   /* 184.43 ms */
		{"tpot_p99", 0.0309},    /* 30.90 ms */
		{"e2el_p99", 3.40624},   /* 3406.24 ms */
		{"output_throughput", 1134.92}, {"request_throughput", 10.12},
		{"power_watts", MISSING}, {"gpu_memory_bytes", MISSING}, {NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	static const struct kv m4[] = {{"request_throughput", 9.83}, {"ttft_p99", 0.19549}, {NULL, 0}};
	expect_metrics(&l.v[4], m4);
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_inferencemax_csv(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	const char *csv =
		"exp_name,tp,conc,offload,status,num_requests,throughput_rps,output_throughput_tps,"
		"total_throughput_tps,input_throughput_tps,mean_ttft_ms,p50_ttft_ms,p90_ttft_ms,p99_ttft_ms,"
		"mean_tpot_ms,p50_tpot_ms,p90_tpot_ms,p99_tpot_ms,mean_latency_ms,p50_latency_ms,"
		"p90_latency_ms,p99_latency_ms\n"
		"x_conc12,4,12,lmcache,SUCCESS,384,0.21,216.85,19544.5,19327.65,28363.36,23842.45,60805.84,"
		"87976.29,15.7,12.32,19.06,69.37,41173.51,34448.53,77154.22,122132.64\n";
	(void)state;
	assert_int_equal(parse_str("summary.csv", csv, &l, &err), 0);
	static const struct kt c[] = {
		{"tensor_parallel_size", "4"}, {"concurrency", "12"}, {"benchmark_tool", "inferencemax"},
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"requests_completed", 384}, {"request_throughput", 0.21}, {"output_throughput", 216.85},
		{"total_token_throughput", 19544.5},
		{"ttft_mean", 28.36336},  /* 28363.36 ms */
		{"tpot_p50", 0.01232},    /* 12.32 ms */
		{"e2el_p99", 122.13264},  /* 122132.64 ms */
		{"error_rate", MISSING}, {NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_refused_files(void **state)
{
	(void)state;
	/* every request failed: a failed run, stored */
	expect_failed_file("genai_perf/aiperf080_kimik25_b200_c32_failed.csv", 0, 32);
	/* inferencemax/rocmfork_agentic_summary_kimik25_b200.csv: read without its failed
	 * row (test_layout_versions.c) */
	expect_rejected("mlperf/v41_hpe_summary_header_only.csv", PL_EFORMAT,
	                "an MLPerf submission summary.csv that holds only its header row: no results "
	                "to import");
	expect_rejected("mlperf/v41_gigacomputing_summary.csv", PL_EFORMAT,
	                "an MLPerf submission summary.csv is not imported: its Units column cannot be "
	                "trusted (LLM rows give tokens/s figures labelled Queries/s or Samples/s, e.g. "
	                "llama2-70b Server 29715.3 'Queries/s'); import each run's "
	                "mlperf_log_summary.txt instead");
	expect_rejected("mlperf/v41_nvidia_h200x8_llama2-70b_offline_detail.txt", PL_EFORMAT,
	                "an MLPerf mlperf_log_detail.txt (:::MLLOG event lines) is not read; import the "
	                "mlperf_log_summary.txt of the same run");
	static const char *const argonne[] = {
		"llm_inference_bench/argonne_all_results.csv",
		"llm_inference_bench/argonne_fig16_power_results.csv",
		"llm_inference_bench/argonne_fig22_ttft_itl.csv",
	};
	for (int i = 0; i < 3; i++)
		expect_rejected(argonne[i], PL_EFORMAT,
		                "an LLM-Inference-Bench (Argonne) result CSV is not imported: it states no "
		                "units (Latency, Throughput, TTFT Latency, end_latency, avg_power) and no "
		                "definition of Throughput (tokens or requests per second), and perfledger "
		                "never guesses a unit");
	expect_rejected("mlperf/v41_nvidia_h200x8_trt_system.json", PL_EFORMAT,
	                "an MLPerf system description (systems/*.json) holds conditions, not results; "
	                "give it as the sidecar NAME.conditions.json of NAME.txt "
	                "(mlperf_log_summary.txt) or with --set");
}

static void test_csv_syntax(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_str("a.csv", "Metric,avg,min,max\r\n\"Request Latency (ms),1,2,3\r\n", &l,
	                           &err), PL_ESYNTAX);
	assert_string_equal(err.message, "invalid CSV: a quoted cell is not closed");
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 1);
	assert_int_equal(parse_str("a.csv", "Metric,avg,min,max\r\nRequest Latency (min),1,2,3\r\n", &l,
	                           &err), PL_EINVALID);
	assert_string_equal(err.message, "unknown unit 'min' in 'Request Latency (min)'");
	assert_int_equal(parse_str("x.csv", "a,b\n1,2\n", &l, &err), PL_EFORMAT);
	assert_int_equal(l.n, 0);	pl_run_list_release(&l);
}

/* ------------------------------------------------------- JSON reader fixes */

static void expect_json_error(const char *text, int code, const char *message, long line,
                              long col, const char *field)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	int rc = parse_str("t.json", text, &l, &err);
	if (rc != code || strcmp(err.message, message) != 0)
		fail_msg("%s: got %d '%s'", text, rc, err.message);
	assert_int_equal(err.line, line);
	assert_int_equal(err.column, col);
	if (field)
		assert_string_equal(err.field, field);
	assert_int_equal(l.n, 0);	pl_run_list_release(&l);
}

static void test_json_fixes(void **state)
{
	char *deep;
	(void)state;
	/* "llama\u0000evil" would read as "llama" */
	expect_json_error("{\"model\": \"llama\\u0000evil\", \"engine\": \"e\", \"metric\": {}}",
	                  PL_EINVALID,
	                  "'model' contains \\u0000 (a NUL character); a text value would be cut there",
	                  1, 17, "model");
	/* the 'o' after the comma is column 16 */
	expect_json_error("{\"model\": \"x\", oops}", PL_ESYNTAX, "invalid JSON: unexpected 'o'", 1, 16,
	                  NULL);
	expect_json_error("{\"a\": 1,,}", PL_ESYNTAX, "invalid JSON: unexpected ','", 1, 9, NULL);
	/* the second "model" key, not the record start */
	expect_json_error("{\"model\": \"x\",\n \"model\": \"y\", \"metric\": {}}", PL_EINVALID,
	                  "duplicate key 'model' (JSON readers disagree on which one wins)", 2, 2,
	                  "model");
	deep = malloc(2402);
	assert_non_null(deep);
	memset(deep, '[', 1200);
	memset(deep + 1200, ']', 1200);
	deep[2400] = '\0';
	expect_json_error(deep, PL_ESYNTAX, "invalid JSON: nesting deeper than 1000 levels", 1, 1001,
	                  NULL);
	free(deep);
	expect_json_error("{\"hw\": \"b200\", \"model\": \"x\", \"metrics\": {\"ttft\": 1}}", PL_EFORMAT,
	                  "unknown format: this looks like InferenceMAX output (it has the key 'hw') in "
	                  "a shape no adapter reads (known: descriptor, vllm-serving, "
	                  "sglang-bench-serving, llmperf, aiperf, llama-bench, inferencemax, guidellm, "
	                  "mlperf, aiperf-csv, genai-perf-analyze, inferencemax-summary-csv, trtllm-bench, "
	                  "vllm-offline, genai-bench, inference-perf, inference-benchmarker, evalscope, ledger; force "
	                  "one with --format)",
	                  0, 0, NULL);
}

/* ---------------------------------------------------------- compare rules */

static void mk_run(struct pl_run_list *l, long long id, const char *hw, int has_err, double er,
                   const char *conc, const char *rate)
{
	struct pl_run *r = pl_run_list_push(l);
	struct pl_error err;
	pl_error_init(&err);
	r->id = id;
	assert_int_equal(pl_run_set_cond(r, PL_C_MODEL, "m", &err), 0);
	assert_int_equal(pl_run_set_cond(r, PL_C_HARDWARE, hw, &err), 0);
	if (conc)
		assert_int_equal(pl_run_set_cond(r, PL_C_CONCURRENCY, conc, &err), 0);
	if (rate)
		assert_int_equal(pl_run_set_cond(r, PL_C_REQUEST_RATE, rate, &err), 0);
	pl_run_set_metric(r, PL_M_TTFT_P50, 0.1);
	if (has_err)
		pl_run_set_metric(r, PL_M_ERROR_RATE, er);
}

static void test_rule_errors(void **state)
{
	struct pl_run_list l = {0};
	struct pl_compare_opts opts;
	struct pl_comparison cmp;
	struct pl_error err;
	(void)state;
	mk_run(&l, 1, "A", 1, 0, "8", NULL);
	mk_run(&l, 2, "B", 1, 0.65, "8", NULL);
	mk_run(&l, 3, "C", 0, 0, "8", NULL);
	memset(&opts, 0, sizeof(opts));
	pl_error_init(&err);
	assert_int_equal(pl_compare_parse_axis(&opts, "hardware", &err), 0);
	assert_int_equal(pl_compare_build(&l, &opts, &cmp, &err), PL_EMISMATCH);
	assert_string_equal(refusal_en(&err, &cmp),
	                    "comparison refused: 1 condition differs off the axis 'hardware': error_rate: "
	                    "'0' (run 1) vs '0.65' (run 2) vs '(missing)' (run 3)");
	assert_int_equal(cmp.mismatches[0].cond, PL_C_NONE);
	assert_int_equal(cmp.mismatches[0].nvalues, 3);
	pl_comparison_release(&cmp);
	opts.allow_errors = 1;
	assert_int_equal(pl_compare_build(&l, &opts, &cmp, &err), 0);
	assert_string_equal(cav_en(&cmp, 0),
	                    "runs with and without errors compared (allowed by --allow-mismatch "
	                    "error_rate): error_rate 0 (run 1), 0.65 (run 2), (missing) (run 3)");
	pl_comparison_release(&cmp);
	pl_run_list_release(&l);

	/* two runs with errors compare; so do two without */
	mk_run(&l, 1, "A", 1, 0.1, "8", NULL);
	mk_run(&l, 2, "B", 1, 0.65, "8", NULL);
	opts.allow_errors = 0;
	assert_int_equal(pl_compare_build(&l, &opts, &cmp, &err), 0);
	pl_comparison_release(&cmp);
	pl_run_list_release(&l);
}

static void test_rule_open_closed_loop(void **state)
{
	struct pl_run_list l = {0};
	struct pl_compare_opts opts;
	struct pl_comparison cmp;
	struct pl_error err;
	(void)state;
	mk_run(&l, 1, "A", 1, 0, "8", NULL);
	mk_run(&l, 2, "B", 1, 0, NULL, "4");
	memset(&opts, 0, sizeof(opts));
	pl_error_init(&err);
	assert_int_equal(pl_compare_parse_axis(&opts, "hardware", &err), 0);
	assert_int_equal(pl_compare_build(&l, &opts, &cmp, &err), PL_EMISMATCH);
	assert_int_equal(cmp.nmismatches, 2);
	assert_int_equal(cmp.mismatches[0].cond, PL_C_CONCURRENCY);
	assert_string_equal(cmp.mismatches[0].values[0], "8");
	assert_string_equal(cmp.mismatches[0].values[1], "(missing)");
	assert_int_equal(cmp.mismatches[0].open_loop, 2); /* values[1] is the open-loop run's */
	assert_string_equal(refusal_en(&err, &cmp),
	                    "comparison refused: 2 conditions differ off the axis 'hardware': "
	                    "concurrency: '8' (run 1) vs '(missing: an open-loop run at a request_rate; "
	                    "open- and closed-loop runs do not compare)' (run 2); request_rate: '4' "
	                    "(run 2) vs '(missing)' (run 1)");
	assert_int_equal(cmp.mismatches[1].cond, PL_C_REQUEST_RATE);
	pl_comparison_release(&cmp);
	pl_run_list_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guidellm_02_json),
		cmocka_unit_test(test_guidellm_02_yaml),
		cmocka_unit_test(test_guidellm_05),
		cmocka_unit_test(test_guidellm_yaml_rules),
		cmocka_unit_test(test_mlperf_server),
		cmocka_unit_test(test_mlperf_offline),
		cmocka_unit_test(test_mlperf_invalid_and_sidecar),
		cmocka_unit_test(test_aiperf_csv),
		cmocka_unit_test(test_aiperf_csv_timestamp_exact),
		cmocka_unit_test(test_genai_perf_analyze),
		cmocka_unit_test(test_inferencemax_csv),
		cmocka_unit_test(test_refused_files),
		cmocka_unit_test(test_csv_syntax),
		cmocka_unit_test(test_json_fixes),
		cmocka_unit_test(test_rule_errors),
		cmocka_unit_test(test_rule_open_closed_loop),
	};
	pl_adapters_init(); /* cJSON's allocator hooks, as main() does */
	return shared_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
