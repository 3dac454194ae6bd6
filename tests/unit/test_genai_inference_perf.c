/*
 * test_genai_inference_perf.c — issue 16: the genai-bench and
 * kubernetes-sigs inference-perf adapters.
 *
 * Corpus files are read in place from PL_CORPUS_DIR (skipped, saying so,
 * on a clone without ../shared); the project's own fixtures from
 * PL_FIXTURES_DIR (tests/fixtures/<format>/, written for these tests), so
 * every rule is also tested on a bare clone. Every expected value is the
 * file's number or worked out by hand (the arithmetic is in the comment).
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

#include "corpus_fixture.h"

/* Skips the test (visibly) when rel, under PL_CORPUS_DIR, is absent. */
static void need(const char *rel)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", PL_CORPUS_DIR, rel);
	need_shared(path);
}

/* Parses fixture rel (under tests/fixtures/); must succeed. */
static void parse_fixture(const char *rel, struct pl_run_list *l)
{
	char path[4096];
	size_t len;
	char *buf;
	struct pl_error err;

	snprintf(path, sizeof(path), "%s/%s", PL_FIXTURES_DIR, rel);
	buf = slurp(path, &len);
	pl_error_init(&err);
	if (pl_adapters_parse(path, buf, len, NULL, l, &err) != 0)
		fail_msg("%s: %s", rel, err.message);
	free(buf);
}

static void expect_str_rejected(const char *text, int code, const char *message)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	int rc = parse_str("t.json", text, &l, &err);

	if (rc != code)
		fail_msg("rc %d (%s), want %d", rc, err.message, code);
	assert_string_equal(err.message, message);
	assert_int_equal(l.n, 0);
	pl_run_list_release(&l);
}

/* text parses into one failed run (issue 13) with `failed` failed requests. */
static void expect_str_failed(const char *text, double failed)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	int rc = parse_str("t.json", text, &l, &err);

	if (rc != 0)
		fail_msg("rc %d (%s), want 0 (a failed run is stored)", rc, err.message);
	assert_int_equal(l.n, 1);
	expect_failed_run(&l.v[0], failed);
	pl_run_list_release(&l);
}

/* ------------------------------------------------------------ genai-bench */

/* A clean streaming run: D(100,100), 10 requests, GLM-4.6 over an API. */
static void test_gb_corpus_clean(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	need("genai_bench/baseten_glm46_d100_c1_run.json");
	assert_int_equal(parse_file("genai_bench/baseten_glm46_d100_c1_run.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].adapter, "genai-bench");
	assert_string_equal(l.v[0].format_version, "per-run");
	static const struct kt c[] = {
		{"benchmark_tool", "genai-bench"},
		{"input_tokens", "100"},      /* scenario "D(100,100)" */
		{"max_output_tokens", "100"},
		{"concurrency", "1"},         /* num_concurrency */
		{"model", NULL},              /* never guessed: --set or a sidecar */
		{"streaming", NULL},
		{"request_rate", NULL},
		{NULL, NULL},
	};
	expect_conds(&l.v[0], c);
	static const struct kv m[] = {
		{"ttft_mean", 0.256500058299207},
		{"ttft_std", 0.04282550157817509},    /* stddev */
		{"ttft_p50", 0.23779947950060887},
		{"ttft_p99", 0.3468936604980627},
		{"tpot_mean", 0.00808820635454939},
		{"e2el_p95", 1.2599463909997213},
		{"tokens_per_second_mean", 130.00218629069175}, /* output_inference_speed */
		{"output_throughput", 94.40343401932063},  /* 1000 tok / 10.592835 s */
		{"total_token_throughput", 194.4710740798005}, /* 2060 tok / 10.592835 s */
		{"request_throughput", 0.9440343401932063},    /* 10 / 10.592835 s */
		{"duration", 10.592834999999468},
		{"requests_completed", 10},  /* 10 records, no error_code */
		{"requests_failed", 0},
		{"error_rate", 0},
		{"input_tokens_mean", 106},  /* 6% over the scenario's 100: inside the 10% rule */
		{"output_tokens_mean", 100},
		{"total_input_tokens", 1060}, /* 10 x 106 */
		{"total_output_tokens", 1000},
		{"tpot_p99_9", MISSING},
		{NULL, 0},
	};
	expect_metrics(&l.v[0], m);
	assert_int_equal(l.v[0].nextra, 1);
	expect_extra(&l.v[0], "genai-bench.aggregated_metrics.batch_size", "1");
	assert_null(l.v[0].warnings);
	validate_all(&l);
	pl_run_list_release(&l);
}

/* Non-streaming, 8 HTTP 500s and error_rate 0: TTFT a placeholder, the
 * error rate from the records. */
static void test_gb_corpus_nonstream_http500(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	need("genai_bench/baseten_gptoss120b_trtllm_c1_nonstream_http500.json");
	assert_int_equal(parse_file("genai_bench/baseten_gptoss120b_trtllm_c1_nonstream_http500.json",
	                            NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	static const struct kt c[] = {
		{"input_tokens", "8000"}, {"max_output_tokens", "700"}, /* D(8000,700) */
		{"concurrency", "1"}, {NULL, NULL},
	};
	expect_conds(&l.v[0], c);
	static const struct kv m[] = {
		/* 0.001 s on all 61: not measured; tpot = (e2e - 0.001) / 699
		 * and output_inference_speed = 1 / tpot come from it */
		{"ttft_mean", MISSING}, {"ttft_p50", MISSING}, {"tpot_mean", MISSING},
		{"tpot_p99", MISSING}, {"tokens_per_second_mean", MISSING},
		{"e2el_mean", 1.7175172862293724},
		{"e2el_p99", 2.5443070583984078},
		{"e2el_std", 0.18639735417977768},
		{"output_throughput", 353.0226682194258},      /* 42700 tok / 120.9554 s */
		{"total_token_throughput", 4388.071765967463}, /* (488061 + 42700) / 120.9554 s */
		{"request_throughput", 0.5043180974563225},    /* 61 / 120.9554 s */
		{"requests_completed", 61},  /* records without an error_code */
		{"requests_failed", 8},      /* records with error_code 500 */
		{"error_rate", 8.0 / 69.0},  /* 0.115942..., the file says 0 */
		{"input_tokens_mean", 8001},
		{"total_input_tokens", 488061}, /* 61 x 8001 */
		{"total_output_tokens", 42700}, /* 61 x 700 */
		{NULL, 0},
	};
	expect_metrics(&l.v[0], m);
	assert_string_equal(l.v[0].warnings,
	                    "genai-bench: the file's error_rate 0 disagrees with its request records: "
	                    "8 of 69 requests failed (HTTP 500: 8); error_rate stored as 0.115942\n"
	                    "genai-bench: TTFT is the same 0.001 s on all 61 completed requests: the "
	                    "placeholder of a non-streaming run, not a measurement; ttft, and tpot and "
	                    "tokens_per_second computed from it, are stored as missing");
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_gb_corpus_metadata_refused(void **state)
{
	(void)state;
	need("genai_bench/baseten_glm46_d100_c1_experiment_metadata.json");
	expect_rejected("genai_bench/baseten_glm46_d100_c1_experiment_metadata.json", PL_EFORMAT,
	                "a genai-bench experiment_metadata.json is not a run; its conditions can be "
	                "given with --set (it describes a whole experiment folder, and a folder never "
	                "pairs it with a run: it holds model 'GLM-4.6', api_backend 'baseten', task "
	                "'text-to-text', traffic_scenario [D(100,100)], num_concurrency [1], "
	                "benchmark_version '0.0.2'; missing: server_engine, server_version, "
	                "server_gpu_type, server_gpu_count, dataset_path)");
}

/* Fixture: a streaming run with one HTTP 503 among 4 requests and
 * error_rate 0 in the summary. */
static void test_gb_fixture_errors(void **state)
{
	struct pl_run_list l = {0};
	(void)state;
	parse_fixture("genai-bench/d16_8_c2_stream_503.json", &l);
	assert_int_equal(l.n, 1);
	static const struct kt c[] = {
		{"input_tokens", "16"}, {"max_output_tokens", "8"}, {"concurrency", "2"},
		{"benchmark_tool", "genai-bench"}, {NULL, NULL},
	};
	expect_conds(&l.v[0], c);
	static const struct kv m[] = {
		{"ttft_mean", 0.2}, {"ttft_min", 0.1}, {"ttft_max", 0.3}, {"ttft_std", 0.1},
		{"ttft_p99", 0.298}, {"tpot_p50", 0.03}, {"e2el_max", 0.58},
		{"tokens_per_second_std", 12.729376930432884},
		{"output_throughput", 12},      /* 3 x 8 tokens / 2 s */
		{"total_token_throughput", 36}, /* 3 x (16 + 8) / 2 s */
		{"request_throughput", 1.5},    /* 3 / 2 s */
		{"duration", 2},
		{"requests_completed", 3}, {"requests_failed", 1},
		{"error_rate", 0.25},           /* 1 / (3 + 1) */
		{"input_tokens_mean", 16}, {"total_output_tokens", 24},
		{NULL, 0},
	};
	expect_metrics(&l.v[0], m);
	assert_string_equal(l.v[0].warnings,
	                    "genai-bench: the file's error_rate 0 disagrees with its request records: "
	                    "1 of 4 requests failed (HTTP 503: 1); error_rate stored as 0.25");
	validate_all(&l);
	pl_run_list_release(&l);
}

/* Fixture: non-streaming (TTFT 0.001 s on both requests), a scenario
 * with no fixed lengths, null network timings. */
static void test_gb_fixture_nonstream(void **state)
{
	struct pl_run_list l = {0};
	(void)state;
	parse_fixture("genai-bench/n480_c1_nonstream.json", &l);
	static const struct kt c[] = {
		{"input_tokens", NULL}, {"max_output_tokens", NULL}, /* N(480,240)/(300,150) */
		{"concurrency", "1"}, {NULL, NULL},
	};
	expect_conds(&l.v[0], c);
	assert_int_equal(l.v[0].nextra, 2);
	expect_extra(&l.v[0], "genai-bench.aggregated_metrics.scenario", "N(480,240)/(300,150)");
	expect_extra(&l.v[0], "genai-bench.aggregated_metrics.batch_size", "1");
	static const struct kv m[] = {
		{"ttft_mean", MISSING}, {"tpot_mean", MISSING}, {"tokens_per_second_p50", MISSING},
		{"e2el_mean", 2.0}, {"e2el_p90", 2.4},
		{"output_throughput", 100},      /* 2 x 200 tokens / 4 s */
		{"total_token_throughput", 300}, /* 2 x 600 / 4 s */
		{"request_throughput", 0.5},     /* 2 / 4 s */
		{"error_rate", 0}, {"requests_completed", 2},
		{"input_tokens_mean", 400}, {"total_input_tokens", 800},
		{NULL, 0},
	};
	expect_metrics(&l.v[0], m);
	assert_string_equal(l.v[0].warnings,
	                    "genai-bench: TTFT is the same 0.001 s on all 2 completed requests: the "
	                    "placeholder of a non-streaming run, not a measurement; ttft, and tpot and "
	                    "tokens_per_second computed from it, are stored as missing");
	validate_all(&l);
	pl_run_list_release(&l);
}

/* Refusals on a bare clone: time units, metadata. */
static void test_gb_refusals(void **state)
{
	(void)state;
	expect_str_rejected("{\"aggregated_metrics\": {\"scenario\": \"D(1,1)\", \"stats\": {}}, "
	                    "\"_time_unit\": \"ms\"}",
	                    PL_EFORMAT,
	                    "a genai-bench run with _time_unit \"ms\" is not read (only \"s\" is: rerun "
	                    "with --metrics-time-unit s)");
	expect_str_rejected("{\"aggregated_metrics\": {\"scenario\": \"D(1,1)\", \"stats\": {}}}",
	                    PL_EFORMAT,
	                    "a genai-bench run with _time_unit missing is not read (only \"s\" is: "
	                    "rerun with --metrics-time-unit s)");
	expect_str_rejected("{\"benchmark_version\": \"0.0.2\", \"traffic_scenario\": [\"D(8000,700)\"], "
	                    "\"iteration_type\": \"num_concurrency\", \"model\": \"None\", "
	                    "\"api_backend\": \"openai\", \"server_engine\": null}",
	                    PL_EFORMAT,
	                    "a genai-bench experiment_metadata.json is not a run; its conditions can be "
	                    "given with --set (it describes a whole experiment folder, and a folder "
	                    "never pairs it with a run: it holds api_backend 'openai', traffic_scenario "
	                    "[D(8000,700)], benchmark_version '0.0.2'; missing: model, task, "
	                    "num_concurrency, server_engine, server_version, server_gpu_type, "
	                    "server_gpu_count, dataset_path)");
	/* no request completed: a failed run */
	expect_str_failed("{\"aggregated_metrics\": {\"scenario\": \"D(1,1)\", \"stats\": {}, "
	                  "\"num_completed_requests\": 0, \"num_error_requests\": 3}, "
	                  "\"_time_unit\": \"s\"}",
	                  3);
}

/* --------------------------------------------------------- inference-perf */

static const char *const IP_STAGE6 = "inference_perf/kubecon25_vllm_batchsize_stage6_lifecycle.json";

/* Stage 6: requested 222.83 req/s, achieved 116.32, completed 113.66/s. */
static void test_ip_corpus_stage(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	need(IP_STAGE6);
	assert_int_equal(parse_file(IP_STAGE6, NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].adapter, "inference-perf");
	assert_string_equal(l.v[0].format_version, "lifecycle");
	static const struct kt c[] = {
		{"request_rate", "222.83"}, /* load_summary.requested_rate */
		{"benchmark_tool", "inference-perf"},
		{"concurrency", NULL}, {"input_tokens", NULL}, {"model", NULL},
		{NULL, NULL},
	};
	expect_conds(&l.v[0], c);
	static const struct kv m[] = {
		{"ttft_mean", 2.200454697106258},
		{"ttft_p50", 2.097426358028315},     /* "median" */
		{"ttft_p99_9", 2.7599219252541674},  /* "p99.9" */
		{"ttft_std", MISSING},
		{"tpot_p99", 0.01286962536585972},
		{"itl_p50", 4.655006341636181e-05},
		{"e2el_mean", 3.79703725667467},
		{"e2el_max", 4.420221413951367},
		{"output_throughput", 7140.792680764174},
		{"total_token_throughput", 29978.35726849101},
		{"request_throughput", 113.66007597058318}, /* requests_per_sec (completed) */
		{"requests_completed", 13369}, {"requests_failed", 0}, {"error_rate", 0},
		{"input_tokens_mean", 200.92864088563093},
		{"output_tokens_mean", 62.82586580896103},
		{NULL, 0},
	};
	expect_metrics(&l.v[0], m);
	/* (222.83 - 116.31878751107618) / 222.83 = 0.47799 */
	assert_string_equal(l.v[0].warnings,
	                    "inference-perf: the achieved rate 116.319 req/s is 47.8% below the "
	                    "requested request_rate 222.83 req/s: the load generator fell behind "
	                    "(compare refuses it unless --allow-mismatch request_rate)");
	assert_int_equal(l.v[0].nextra, 0);
	validate_all(&l);
	pl_run_list_release(&l);
}

/* Two copies of stage 6 on two "hardware" values: refused by the rate
 * rule (113.66 is 49% below 222.83), allowed with a caveat by name. */
static void test_ip_corpus_compare_refused(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	struct pl_compare_opts o;
	struct pl_comparison cmp;
	(void)state;
	need(IP_STAGE6);
	assert_int_equal(parse_file(IP_STAGE6, NULL, &l, &err), 0);
	assert_int_equal(parse_file(IP_STAGE6, NULL, &l, &err), 0);
	assert_int_equal(pl_run_set_cond(&l.v[1], PL_C_HARDWARE, "1x B", &err), 0);
	validate_all(&l);
	l.v[0].id = 1;
	l.v[1].id = 2;
	memset(&o, 0, sizeof(o));
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &err), 0);
	assert_int_equal(pl_compare_build(&l, &o, &cmp, &err), PL_EMISMATCH);
	assert_string_equal(refusal_en(&err, &cmp),
	                    "comparison refused: 2 conditions differ off the axis 'hardware': request_rate: "
	                    "'222.83 requested' vs '113.66 req/s achieved (run 1)'; request_rate: '222.83 "
	                    "requested' vs '113.66 req/s achieved (run 2)'");
	pl_comparison_release(&cmp);
	o.allow_mismatch[PL_C_REQUEST_RATE] = 1;
	assert_int_equal(pl_compare_build(&l, &o, &cmp, &err), 0);
	pl_comparison_release(&cmp);
	pl_run_list_release(&l);
}

static void test_ip_corpus_refusals(void **state)
{
	(void)state;
	need("inference_perf/kubecon25_vllm_batchsize_summary_lifecycle.json");
	expect_rejected("inference_perf/kubecon25_vllm_batchsize_summary_lifecycle.json", PL_EFORMAT,
	                "an inference-perf sweep summary (summary_lifecycle_metrics.json: load_summary "
	                "has no requested_rate, achieved_rate or send_duration) averages every stage of "
	                "a sweep: it is not one run, nor a peak; import each "
	                "stage_N_lifecycle_metrics.json");
	need("inference_perf/kubecon25_vllm_batchsize_stage6_prometheus.json");
	expect_rejected("inference_perf/kubecon25_vllm_batchsize_stage6_prometheus.json", PL_EFORMAT,
	                "an inference-perf Prometheus report (stage_N_prometheus_metrics.json: "
	                "server-side metrics in another schema, which disagree with the client's "
	                "counts) is not read and never mixed into the client's run; import "
	                "stage_N_lifecycle_metrics.json");
}

/* Fixture: a stage 5% short of its rate (no warning), 2 failures with
 * null sub-objects. */
static void test_ip_fixture(void **state)
{
	struct pl_run_list l = {0};
	(void)state;
	parse_fixture("inference-perf/stage_0_lifecycle_metrics.json", &l);
	static const struct kt c[] = {{"request_rate", "10"}, {NULL, NULL}};
	expect_conds(&l.v[0], c);
	static const struct kv m[] = {
		{"e2el_mean", 1.65}, {"e2el_min", 1.0}, {"e2el_p50", 1.6}, {"e2el_p99_9", 2.1},
		{"e2el_max", 2.2}, {"ttft_p90", 0.28}, {"itl_p95", 0.018}, {"tpot_p99", 0.02},
		{"output_throughput", 512}, {"total_token_throughput", 2112}, {"request_throughput", 8},
		{"requests_completed", 48}, {"requests_failed", 2},
		{"error_rate", 0.04}, /* 2 / (48 + 2) */
		{"input_tokens_mean", 200.5}, {"output_tokens_mean", 64.5},
		{NULL, 0},
	};
	expect_metrics(&l.v[0], m);
	assert_null(l.v[0].warnings); /* 9.5 is 5% below 10: inside the 10% rule */
	validate_all(&l);
	pl_run_list_release(&l);
}

/* Inline shapes on a bare clone: the rate warning just outside 10%, and
 * the summary and Prometheus refusals. */
static void test_ip_inline(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_str("s.json",
	                           "{\"load_summary\": {\"count\": 10, \"requested_rate\": 10, "
	                           "\"achieved_rate\": 8.9, \"send_duration\": 1.1235955}, "
	                           "\"successes\": {\"count\": 10, "
	                           "\"throughput\": {\"requests_per_sec\": 8.5}}, "
	                           "\"failures\": {\"count\": 0}}",
	                           &l, &err), 0);
	/* (10 - 8.9) / 10 = 11.0% */
	assert_string_equal(l.v[0].warnings,
	                    "inference-perf: the achieved rate 8.9 req/s is 11.0% below the requested "
	                    "request_rate 10 req/s: the load generator fell behind (compare refuses it "
	                    "unless --allow-mismatch request_rate)");
	pl_run_list_release(&l);
	expect_str_rejected("{\"load_summary\": {\"count\": 5}, \"successes\": {\"count\": 5, "
	                    "\"latency\": {}}, \"failures\": {\"count\": 0}}",
	                    PL_EFORMAT,
	                    "an inference-perf sweep summary (summary_lifecycle_metrics.json: "
	                    "load_summary has no requested_rate, achieved_rate or send_duration) "
	                    "averages every stage of a sweep: it is not one run, nor a peak; import each "
	                    "stage_N_lifecycle_metrics.json");
	expect_str_rejected("{\"load_summary\": {}, \"successes\": {\"count\": 5, \"rate\": 1.5}, "
	                    "\"failures\": {}}",
	                    PL_EFORMAT,
	                    "an inference-perf Prometheus report (stage_N_prometheus_metrics.json: "
	                    "server-side metrics in another schema, which disagree with the client's "
	                    "counts) is not read and never mixed into the client's run; import "
	                    "stage_N_lifecycle_metrics.json");
	expect_str_failed("{\"load_summary\": {\"requested_rate\": 1}, \"successes\": {\"count\": 0, "
	                  "\"latency\": {}}, \"failures\": {\"count\": 4}}",
	                  4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gb_corpus_clean),
		cmocka_unit_test(test_gb_corpus_nonstream_http500),
		cmocka_unit_test(test_gb_corpus_metadata_refused),
		cmocka_unit_test(test_gb_fixture_errors),
		cmocka_unit_test(test_gb_fixture_nonstream),
		cmocka_unit_test(test_gb_refusals),
		cmocka_unit_test(test_ip_corpus_stage),
		cmocka_unit_test(test_ip_corpus_compare_refused),
		cmocka_unit_test(test_ip_corpus_refusals),
		cmocka_unit_test(test_ip_fixture),
		cmocka_unit_test(test_ip_inline),
	};
	return shared_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
