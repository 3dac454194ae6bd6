/*
 * test_layout_versions.c — layouts and format versions of four tools: InferenceMAX
 * parallelism, offload and speculative decoding (JSON and the agentic
 * summary CSV), the MLPerf scenario and latency limits, GuideLLM 0.4 and
 * the version-2 report, and llmnop's llmperf-shaped summaries.
 *
 * Corpus files are read in place from PL_CORPUS_DIR, the field-fault cases
 * from PL_CORPUS_DIR/../cases (../shared/cases); a test whose files are
 * absent is skipped with a message naming them. Every expected value was
 * worked out by hand from the file (the arithmetic is in the comment next
 * to it) or is the case's expect.md.
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
#include <unistd.h>

#include "adapters/adapters.h"
#include "core/compare.h"
#include "core/error.h"
#include "core/model.h"
#include "core/normalize.h"
#include "core/validate.h"

#include "corpus_fixture.h"

/* Skips the test (visibly) when rel, under PL_CORPUS_DIR, is absent. */
static void need(const char *rel)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", PL_CORPUS_DIR, rel);
	need_shared(path);
}

/* ------------------------------------------------------------ inferencemax */

static void test_ix_json_parallelism(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	need("inferencemax/rocmfork_agentic_kimik25_b200_tp8_c16.json");
	assert_int_equal(parse_file("inferencemax/rocmfork_agentic_kimik25_b200_tp8_c16.json", NULL, &l, &err), 0);
	static const struct kt c[] = {
		{"tensor_parallel_size", "8"},      /* "tp": 8 */
		{"expert_parallel_size", "1"},      /* "ep": 1 */
		{"kv_offload", "none"},             /* "offloading": "none" */
		{"speculative_method", "none"},     /* "spec_decoding": "none" */
		{"data_parallel_size", NULL},       /* dp_attention is a switch, not a size */
		{NULL, NULL},
	};
	expect_conds(&l.v[0], c);
	expect_extra(&l.v[0], "inferencemax.dp_attention", "false"); /* the string "false" */
	expect_extra(&l.v[0], "inferencemax.disagg", "false");       /* the boolean false */
	expect_extra(&l.v[0], "inferencemax.is_multinode", "false");
	expect_extra(&l.v[0], "inferencemax.scenario_type", "agentic-coding");
	assert_int_equal(l.v[0].nextra, 4);
	validate_all(&l);
	pl_run_list_release(&l);

	/* agg result: spec_decoding mtp, offloading not recorded */
	need("inferencemax/ix_agg_kimik25_int4_mi355x_c4.json");
	assert_int_equal(parse_file("inferencemax/ix_agg_kimik25_int4_mi355x_c4.json", NULL, &l, &err), 0);
	static const struct kt c2[] = {
		{"tensor_parallel_size", "8"}, {"expert_parallel_size", "1"},
		{"speculative_method", "mtp"}, {"kv_offload", NULL}, {NULL, NULL},
	};
	expect_conds(&l.v[0], c2);
	expect_extra(&l.v[0], "inferencemax.scenario_type", NULL);
	expect_extra(&l.v[0], "inferencemax.disagg", "false");
	pl_run_list_release(&l);

	/* together_runner baseline: ep 8 */
	need("inferencemax/ix_together_dsr1_fp4_b200_c128.json");
	assert_int_equal(parse_file("inferencemax/ix_together_dsr1_fp4_b200_c128.json", NULL, &l, &err), 0);
	static const struct kt c3[] = {
		{"tensor_parallel_size", "8"}, {"expert_parallel_size", "8"}, {NULL, NULL},
	};
	expect_conds(&l.v[0], c3);
	/* the image tag "dev-cu13" is no engine version, and tuning has no
	 * canonical field: both kept as extras */
	assert_int_equal(l.v[0].nextra, 2);
	expect_extra(&l.v[0], "inferencemax.image", "lmsysorg/sglang:dev-cu13");
	expect_extra(&l.v[0], "inferencemax.tuning", "1");
	pl_run_list_release(&l);
}

static void test_ix_csv_parallelism(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	need("inferencemax/rocmfork_agentic_summary_kimik25_b200.csv");
	assert_int_equal(parse_file("inferencemax/rocmfork_agentic_summary_kimik25_b200.csv", NULL, &l, &err), 0);
	/* 23 data rows; row 20 (tp8, conc 32, lmcache) has num_requests 0: a
	 * failed run, stored and flagged (issue 13) */
	assert_int_equal(l.n, 23);
	for (size_t i = 0; i < l.n; i++)
		assert_null(l.v[i].warnings);
	assert_int_equal(l.v[19].record, 19);
	assert_int_equal(l.v[20].record, 20);
	expect_failed_run(&l.v[19], MISSING);
	assert_int_equal(pl_run_failed(&l.v[18]), 0);
	/* row 0: agentic_..._offloadlmcache_..._tp4-ep1-dpafalse_disagg-false_spec-none_conc12_... */
	static const struct kt c0[] = {
		{"tensor_parallel_size", "4"}, {"concurrency", "12"}, {"kv_offload", "lmcache"},
		{"expert_parallel_size", "1"}, {"speculative_method", "none"}, {NULL, NULL},
	};
	expect_conds(&l.v[0], c0);
	expect_extra(&l.v[0], "inferencemax-summary-csv.dp_attention", "false");
	expect_extra(&l.v[0], "inferencemax-summary-csv.disagg", "false");
	assert_int_equal(l.v[0].nextra, 2);
	/* the two concurrency-16 runs at tp8: row 14 lmcache (25 requests), row 15 none (818) */
	static const struct kt c14[] = {
		{"tensor_parallel_size", "8"}, {"concurrency", "16"}, {"kv_offload", "lmcache"}, {NULL, NULL},
	};
	static const struct kv m14[] = {
		{"requests_completed", 25}, {"ttft_p50", 1.51307}, /* 1513.07 ms */ {NULL, 0},
	};
	expect_conds(&l.v[14], c14);
	expect_metrics(&l.v[14], m14);
	static const struct kt c15[] = {
		{"tensor_parallel_size", "8"}, {"concurrency", "16"}, {"kv_offload", "none"}, {NULL, NULL},
	};
	static const struct kv m15[] = {
		{"requests_completed", 818}, {"ttft_p50", 0.65985}, /* 659.85 ms */
		{"output_throughput", 430.42}, {NULL, 0},
	};
	expect_conds(&l.v[15], c15);
	expect_metrics(&l.v[15], m15);
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_ix_csv_rules(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	static const char head[] =
		"exp_name,tp,conc,offload,status,num_requests,throughput_rps,output_throughput_tps,"
		"total_throughput_tps,input_throughput_tps,mean_ttft_ms,p50_ttft_ms,p90_ttft_ms,p99_ttft_ms,"
		"mean_tpot_ms,p50_tpot_ms,p90_tpot_ms,p99_tpot_ms,mean_latency_ms,p50_latency_ms,"
		"p90_latency_ms,p99_latency_ms\n";
	char csv[2048];
	(void)state;
	/* tp of the name disagrees with the tp column: rejected, naming both */
	snprintf(csv, sizeof(csv), "%s%s", head,
	         "a_tp8-ep2-dpatrue_disagg-true_spec-mtp_conc4_x_01,4,4,none,SUCCESS,10,1,1,1,1,"
	         "1,1,1,1,1,1,1,1,1,1,1,1\n");
	assert_int_equal(parse_str("summary.csv", csv, &l, &err), PL_EINVALID);
	assert_string_equal(err.message, "exp_name segment 'tp8-ep2-dpatrue' does not match tp '4'");
	assert_string_equal(err.field, "exp_name");
	assert_int_equal(err.line, 2);
	pl_run_list_release(&l);
	/* agreeing: ep 2, spec mtp, dpa true, disagg true */
	snprintf(csv, sizeof(csv), "%s%s", head,
	         "a_tp4_conc4_tp4-ep2-dpatrue_disagg-true_spec-mtp_conc4_x_01,4,4,,SUCCESS,10,1,1,1,1,"
	         "1,1,1,1,1,1,1,1,1,1,1,1\n");
	assert_int_equal(parse_str("summary.csv", csv, &l, &err), 0);
	static const struct kt c[] = {
		{"expert_parallel_size", "2"}, {"speculative_method", "mtp"}, {"kv_offload", NULL},
		{NULL, NULL},
	};
	expect_conds(&l.v[0], c);
	expect_extra(&l.v[0], "inferencemax-summary-csv.dp_attention", "true");
	expect_extra(&l.v[0], "inferencemax-summary-csv.disagg", "true");
	pl_run_list_release(&l);
	/* a name without the segments records none of them */
	snprintf(csv, sizeof(csv), "%s%s", head, "x_conc12,4,12,none,SUCCESS,10,1,1,1,1,"
	                                           "1,1,1,1,1,1,1,1,1,1,1,1\n");
	assert_int_equal(parse_str("summary.csv", csv, &l, &err), 0);
	assert_false(l.v[0].cond[PL_C_EXPERT_PARALLEL_SIZE].set);
	assert_int_equal(l.v[0].nextra, 0);
	pl_run_list_release(&l);
	/* a row with no request completed is a failed run; a FAILED status
	 * (nothing measured) is still left out, with a warning */
	snprintf(csv, sizeof(csv), "%s%s%s", head,
	         "a,4,4,none,SUCCESS,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n",
	         "b,4,8,none,FAILED,10,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1\n");
	assert_int_equal(parse_str("summary.csv", csv, &l, &err), 0);
	assert_int_equal(l.n, 1);
	expect_failed_run(&l.v[0], MISSING);
	assert_string_equal(l.v[0].warnings,
	                    "1 failed run not stored: row 2 (line 3): status 'FAILED' is not SUCCESS");
	pl_run_list_release(&l);
	/* every row FAILED: the file is rejected, naming each */
	snprintf(csv, sizeof(csv), "%s%s%s", head,
	         "a,4,4,none,FAILED,10,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1\n",
	         "b,4,8,none,FAILED,10,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1\n");
	assert_int_equal(parse_str("summary.csv", csv, &l, &err), PL_EINVALID);
	assert_string_equal(err.message, "row 1 (line 2): status 'FAILED' is not SUCCESS; "
	                                 "row 2 (line 3): status 'FAILED' is not SUCCESS");
	assert_int_equal(l.n, 0);
	pl_run_list_release(&l);
	/* a FAILED row beside a good one: the good one is stored, with a warning */
	snprintf(csv, sizeof(csv), "%s%s%s", head,
	         "a,4,4,none,FAILED,10,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1\n",
	         "b,4,8,none,SUCCESS,10,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1\n");
	assert_int_equal(parse_str("summary.csv", csv, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.v[0].record, 1);
	assert_string_equal(l.v[0].warnings,
	                    "1 failed run not stored: row 1 (line 2): status 'FAILED' is not SUCCESS");
	pl_run_list_release(&l);
}

/* ------------------------------------------------------------------ mlperf */

static void test_mlperf_scenario_limits(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	need("mlperf/v41_nvidia_h200x8_llama2-70b_server_summary.txt");
	assert_int_equal(parse_file("mlperf/v41_nvidia_h200x8_llama2-70b_server_summary.txt", NULL, &l,
	                            &err), 0);
	static const struct kt c[] = {
		{"scenario", "Server"},  /* Scenario : Server */
		{"ttft_limit", "2"},     /* ttft_latency (ns): 2000000000 */
		{"tpot_limit", "0.2"},   /* tpot_latency (ns): 200000000 */
		{"request_rate", "101"}, /* target_qps : 101 */
		{NULL, NULL},
	};
	expect_conds(&l.v[0], c);
	pl_run_list_release(&l);

	need("mlperf/v41_amd_mi300x8_llama2-70b_server_summary.txt");
	assert_int_equal(parse_file("mlperf/v41_amd_mi300x8_llama2-70b_server_summary.txt", NULL, &l,
	                            &err), 0);
	static const struct kt c2[] = {
		{"scenario", "Server"}, {"ttft_limit", "2"}, {"tpot_limit", "0.2"},
		{"request_rate", "73.5"}, {NULL, NULL},
	};
	expect_conds(&l.v[0], c2);
	pl_run_list_release(&l);

	/* Offline prints ttft_latency / tpot_latency too, but nothing limits
	 * an Offline run's latency: not stored */
	need("mlperf/v41_nvidia_h200x8_llama2-70b_offline_summary.txt");
	assert_int_equal(parse_file("mlperf/v41_nvidia_h200x8_llama2-70b_offline_summary.txt", NULL, &l,
	                            &err), 0);
	static const struct kt c3[] = {
		{"scenario", "Offline"}, {"ttft_limit", NULL}, {"tpot_limit", NULL},
		{"request_rate", "inf"}, {NULL, NULL},
	};
	expect_conds(&l.v[0], c3);
	pl_run_list_release(&l);
}

/* Replaces the first "from" in s (of capacity n) by "to". */
static void replace(char *s, size_t n, const char *from, const char *to)
{
	char *p = strstr(s, from);
	size_t fl = strlen(from), tl = strlen(to);
	assert_non_null(p);
	assert_true(strlen(s) - fl + tl < n);
	memmove(p + tl, p + fl, strlen(p + fl) + 1);
	memcpy(p, to, tl);
}

/* A Server run and an Interactive one (LoadGen's Server scenario with the
 * llama2-70b-interactive limits, TTFT 450 ms and TPOT 40 ms) at another
 * target_qps: allowing request_rate alone does not let them compare. */
static void test_mlperf_server_vs_interactive(void **state)
{
	struct pl_run_list l = {0};
	struct pl_compare_opts opts;
	struct pl_comparison cmp;
	struct pl_error err;
	char path[4096], *text;
	size_t len;
	(void)state;
	need("mlperf/v41_nvidia_h200x8_llama2-70b_server_summary.txt");
	snprintf(path, sizeof(path), "%s/mlperf/v41_nvidia_h200x8_llama2-70b_server_summary.txt",
	         PL_CORPUS_DIR);
	text = slurp(path, &len);
	text = realloc(text, len + 64);
	assert_non_null(text);
	text[len] = '\0';
	assert_int_equal(parse_str("server_summary.txt", text, &l, &err), 0);
	replace(text, len + 64, "ttft_latency (ns): 2000000000", "ttft_latency (ns): 450000000");
	replace(text, len + 64, "tpot_latency (ns): 200000000", "tpot_latency (ns): 40000000");
	replace(text, len + 64, "target_qps : 101", "target_qps : 48");
	pl_error_init(&err);
	assert_int_equal(pl_adapters_parse("interactive_summary.txt", text, strlen(text), NULL, &l, &err), 0);
	free(text);
	assert_int_equal(l.n, 2);
	expect_conds(&l.v[1], (const struct kt[]){{"ttft_limit", "0.45"}, {"tpot_limit", "0.04"},
	                                          {"scenario", "Server"}, {NULL, NULL}});
	validate_all(&l);
	memset(&opts, 0, sizeof(opts));
	assert_int_equal(pl_compare_parse_axis(&opts, "hardware", &err), 0);
	opts.allow_mismatch[PL_C_REQUEST_RATE] = 1;
	assert_int_equal(pl_compare_build(&l, &opts, &cmp, &err), PL_EMISMATCH);
	assert_int_equal(cmp.nmismatches, 2);
	assert_int_equal(cmp.mismatches[0].cond, PL_C_TTFT_LIMIT);
	/* values in ascending order */
	assert_string_equal(cmp.mismatches[0].values[0], "0.45");
	assert_string_equal(cmp.mismatches[0].values[1], "2");
	assert_int_equal(cmp.mismatches[1].cond, PL_C_TPOT_LIMIT);
	assert_string_equal(cmp.mismatches[1].values[0], "0.04");
	assert_string_equal(cmp.mismatches[1].values[1], "0.2");
	pl_comparison_release(&cmp);
	pl_run_list_release(&l);
}

/* ---------------------------------------------------------------- guidellm */

/* ../shared/cases/05: a GuideLLM 0.4.0 benchmarks.json (top-level args and
 * benchmarks, no metadata block) was read as 0.2 and misdiagnosed as "no
 * request completed". expect.md: 2 runs, model org-b/model-7b, request_rate
 * 2 and 5, requests_completed 100 each, ttft_p50 0.04275 s and 0.0665 s. */
static void test_guidellm_04_case(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	need("../cases/05-guidellm-04-no-metadata/benchmarks.json");
	assert_int_equal(parse_file("../cases/05-guidellm-04-no-metadata/benchmarks.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 2);
	static const struct kt c0[] = {
		{"model", "org-b/model-7b"}, {"request_rate", "2"}, {"benchmark_tool", "guidellm"},
		{"benchmark_tool_version", NULL}, /* no metadata: the layout says 0.4, not the version */
		{"input_tokens", "256"}, {"max_output_tokens", "128"}, /* prompt_tokens=256,output_tokens=128 */
		{"warmup_requests", "0"}, {NULL, NULL},
	};
	static const struct kv m0[] = {
		{"requests_completed", 100}, {"ttft_p50", 0.04275}, {"error_rate", 0}, {NULL, 0},
	};
	static const struct kt c1[] = {{"model", "org-b/model-7b"}, {"request_rate", "5"}, {NULL, NULL}};
	static const struct kv m1[] = {{"requests_completed", 100}, {"ttft_p50", 0.0665}, {NULL, 0}};
	for (size_t i = 0; i < 2; i++) {
		assert_string_equal(l.v[i].adapter, "guidellm");
		assert_string_equal(l.v[i].format_version, "0.4");
	}
	expect_conds(&l.v[0], c0);
	expect_metrics(&l.v[0], m0);
	expect_conds(&l.v[1], c1);
	expect_metrics(&l.v[1], m1);
	validate_all(&l);
	pl_run_list_release(&l);
}

/* The version-2 report of GuideLLM 0.8.0.dev18: the load (constant 2 and
 * 4 req/s) and the data spec of config.spec are kept. */
static void test_guidellm_v2(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	need("guidellm/guidellm080dev18_llmd_mock_report_v2.json");
	assert_int_equal(parse_file("guidellm/guidellm080dev18_llmd_mock_report_v2.json", NULL, &l, &err), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0].format_version, "2");
	static const struct kt c0[] = {
		{"model", "e2e-mock-model"}, {"benchmark_tool_version", "0.8.0.dev18"},
		{"request_rate", "2"}, /* strategy constant, rate 2.0 */
		{"concurrency", NULL}, /* open loop; strategy.max_concurrency 10240 is the worker cap */
		{"dataset", "synthetic_text prompt_tokens=32 prompt_tokens_stdev=4 prompt_tokens_min=8 "
		            "prompt_tokens_max=64 output_tokens=8 turns=2 prefix_buckets=[{\"bucket_weight\":"
		            "100,\"prefix_count\":4,\"prefix_tokens\":16}]"},
		{"input_tokens", NULL},        /* prompt_tokens 32 +- 4 (8..64): not a fixed length */
		{"max_output_tokens", "8"},    /* output_tokens 8, stdev/min/max null */
		{"trace", NULL}, {"trace_time_scale", NULL}, {NULL, NULL},
	};
	expect_conds(&l.v[0], c0);
	assert_string_equal(l.v[1].cond[PL_C_REQUEST_RATE].text, "4");
	/* profile.max_concurrency null, rampup 0: no load extras; the client's
	 * endpoint and request options are kept (no canonical field holds them) */
	assert_int_equal(l.v[0].nextra, 4);
	expect_extra(&l.v[0], "guidellm.benchmarks[].config.backend.request_format",
	             "/v1/chat/completions");
	expect_extra(&l.v[0], "guidellm.benchmarks[].config.backend.stream", "true");
	expect_extra(&l.v[0], "guidellm.benchmarks[].config.backend.multiturn_reasoning", "false");
	expect_extra(&l.v[0], "guidellm.benchmarks[].config.prefer_response_metrics", "true");
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_guidellm_layouts(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	static const char metrics[] =
		"\"metrics\": {\"request_totals\": {\"successful\": 3, \"errored\": 0}, "
		"\"requests_per_second\": {\"successful\": {\"mean\": 2}}}";
	char doc[2048];
	(void)state;
	/* a replay in a version-2 report: the trace and its time scale */
	snprintf(doc, sizeof(doc),
	         "{\"metadata\": {\"version\": 2, \"guidellm_version\": \"0.9.0\"}, \"config\": {\"spec\": "
	         "{\"profile\": {\"kind\": \"replay\"}, \"data\": [{\"kind\": \"trace_synthetic\", "
	         "\"path\": \"traces/day1.jsonl\", \"time_scale\": 0.5}]}}, \"benchmarks\": [{\"type_\": "
	         "\"generative_benchmark\", \"config\": {\"strategy\": {\"type_\": \"replay\"}, "
	         "\"backend\": {\"model\": \"m\"}}, %s}]}", metrics);
	assert_int_equal(parse_str("r.json", doc, &l, &err), 0);
	static const struct kt c[] = {
		{"trace", "traces/day1.jsonl"}, {"trace_time_scale", "0.5"}, {"request_rate", NULL},
		{"concurrency", NULL}, {"dataset", NULL}, {NULL, NULL},
	};
	expect_conds(&l.v[0], c);
	pl_run_list_release(&l);
	/* the older spelling: time_scale on the profile */
	snprintf(doc, sizeof(doc),
	         "{\"metadata\": {\"version\": 2}, \"config\": {\"spec\": {\"profile\": {\"kind\": "
	         "\"replay\", \"time_scale\": 2}, \"data\": [{\"kind\": \"trace_synthetic\", \"path\": "
	         "\"t.jsonl\"}]}}, \"benchmarks\": [{\"type_\": \"generative_benchmark\", \"config\": "
	         "{\"strategy\": {\"type_\": \"replay\"}}, %s}]}", metrics);
	assert_int_equal(parse_str("r.json", doc, &l, &err), 0);
	assert_string_equal(l.v[0].cond[PL_C_TRACE_TIME_SCALE].text, "2");
	pl_run_list_release(&l);
	/* a long data spec is kept whole (text beyond 1 KiB too) */
	{
		char path[1501], *big = malloc(4096);
		assert_non_null(big);
		memset(path, 'a', 1500);
		path[1500] = '\0';
		snprintf(big, 4096,
		         "{\"metadata\": {\"version\": 2}, \"config\": {\"spec\": {\"data\": [{\"kind\": "
		         "\"file\", \"path\": \"%s\", \"n\": 7}, {\"kind\": \"x\", \"ok\": true}]}}, "
		         "\"benchmarks\": [{\"type_\": \"generative_benchmark\", \"config\": {\"strategy\": "
		         "{\"type_\": \"synchronous\"}}, %s}]}", path, metrics);
		assert_int_equal(parse_str("r.json", big, &l, &err), 0);
		snprintf(big, 4096, "file path=%s n=7; x ok=true", path);
		assert_string_equal(l.v[0].cond[PL_C_DATASET].text, big);
		free(big);
		pl_run_list_release(&l);
	}
	/* a replay without a trace path */
	snprintf(doc, sizeof(doc),
	         "{\"metadata\": {\"version\": 2}, \"config\": {\"spec\": {\"data\": []}}, "
	         "\"benchmarks\": [{\"type_\": \"generative_benchmark\", \"config\": {\"strategy\": "
	         "{\"type_\": \"replay\"}}, %s}]}", metrics);
	assert_int_equal(parse_str("r.json", doc, &l, &err), PL_EINVALID);
	assert_string_equal(err.message, "benchmark 0: a GuideLLM replay needs one config.spec.data "
	                                 "entry with the trace's 'path'");
	pl_run_list_release(&l);
	/* a replay in a 0.5 report: the trace is not read there, so refused */
	snprintf(doc, sizeof(doc),
	         "{\"metadata\": {\"version\": 1}, \"args\": {\"data\": [\"t.jsonl\"]}, \"benchmarks\": "
	         "[{\"type_\": \"generative_benchmark\", \"config\": {\"strategy\": {\"type_\": "
	         "\"replay\"}}, %s}]}", metrics);
	assert_int_equal(parse_str("r.json", doc, &l, &err), PL_EINVALID);
	assert_string_equal(err.message, "benchmark 0: GuideLLM load strategy 'replay' is read from "
	                                 "version 2 reports only: its trace would be lost");
	pl_run_list_release(&l);
	/* a strategy type no mapping knows */
	snprintf(doc, sizeof(doc),
	         "{\"args\": {}, \"benchmarks\": [{\"type_\": \"generative_benchmark\", \"config\": "
	         "{\"strategy\": {\"type_\": \"sweep\"}}, %s}]}", metrics);
	assert_int_equal(parse_str("r.json", doc, &l, &err), PL_EINVALID);
	assert_string_equal(err.message, "benchmark 0: GuideLLM load strategy 'sweep' is not read "
	                                 "(synchronous, concurrent, constant, poisson, throughput and, "
	                                 "in version 2 reports, replay are)");
	pl_run_list_release(&l);
	/* a layout version no reader knows */
	snprintf(doc, sizeof(doc),
	         "{\"metadata\": {\"version\": 3, \"guidellm_version\": \"0.9.1\"}, \"benchmarks\": "
	         "[{\"type_\": \"generative_benchmark\", %s}]}", metrics);
	assert_int_equal(parse_str("r.json", doc, &l, &err), PL_EFORMAT);
	assert_string_equal(err.message, "GuideLLM report layout version 3 (guidellm 0.9.1) is not "
	                                 "read (versions 1 and 2 are, and 0.2 / 0.4 reports without "
	                                 "metadata)");
	assert_int_equal(l.n, 0);
	pl_run_list_release(&l);
	/* no metadata, and neither the 0.2 nor the 0.4 layout */
	assert_int_equal(parse_str("r.json", "{\"benchmarks\": [{\"type_\": \"generative_benchmark\", "
	                                     "\"metrics\": {}}]}", &l, &err), PL_EFORMAT);
	assert_string_equal(err.message, "a GuideLLM report without a metadata block whose benchmarks "
	                                 "are in neither the 0.2 layout (args or request_totals) nor "
	                                 "the 0.4 one (top-level args; config, metrics.request_totals) "
	                                 "is not read");
	pl_run_list_release(&l);
}

/* ------------------------------------------------------------------ llmnop */

/* ../shared/cases/07: llmnop writes llmperf-shaped summaries (version
 * "2026-01-20", reasoning-token fields); it was stored as llmperf. Its
 * output throughput (400 tok/s) counts 900 reasoning tokens per request
 * besides the 100 visible ones: (100 + 900) * 24 / 60 req/s = 400, while
 * the visible output alone gives 100 * 0.4 = 40 tok/s. */
static void test_llmnop_case(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	need("../cases/07-llmnop-as-llmperf/org-d-reasoner-8b_550_none_summary.json");
	assert_int_equal(parse_file("../cases/07-llmnop-as-llmperf/org-d-reasoner-8b_550_none_summary.json",
	                            NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].format_version, "2026-01-20");
	static const struct kt c[] = {
		{"benchmark_tool", "llmnop"}, {"output_includes_reasoning", "true"},
		{"model", "org-d/reasoner-8b"}, {"concurrency", "4"}, {"input_tokens", "550"},
		{"benchmark_tool_version", NULL}, {NULL, NULL},
	};
	static const struct kv m[] = {
		{"output_throughput", 400},      /* results_mean_output_throughput_token_per_s: output + reasoning */
		{"output_tokens_mean", 100},     /* results_number_output_tokens_mean: visible output only */
		{"request_throughput", 0.4},     /* 24 per min / 60 */
		{"requests_completed", 40}, {"error_rate", 0}, {"ttft_p50", 0.08}, {NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	validate_all(&l);
	pl_run_list_release(&l);
}

static void test_llmperf_versions(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	/* llmperf's own version: llmperf, reasoning not counted (unknown: missing) */
	assert_int_equal(parse_str("s.json", "{\"version\": \"2023-08-31\", \"num_concurrent_requests\": 1, "
	                                     "\"results_num_completed_requests\": 5, \"results_ttft_s_mean\": 0.5}", &l, &err), 0);
	expect_conds(&l.v[0], (const struct kt[]){{"benchmark_tool", "llmperf"},
	                                          {"output_includes_reasoning", NULL}, {NULL, NULL}});
	pl_run_list_release(&l);
	/* another version of the llmperf shape: refused naming it */
	assert_int_equal(parse_str("s.json", "{\"version\": \"2025-02-01\", \"num_concurrent_requests\": 1, "
	                                     "\"results_num_completed_requests\": 5, \"results_ttft_s_mean\": 0.5}", &l, &err), PL_EFORMAT);
	assert_string_equal(err.message, "an llmperf-shaped summary of version '2025-02-01' is not read "
	                                 "(llmperf 2023-08-31 and llmnop 2026-01-20 are)");
	assert_string_equal(err.field, "version");
	pl_run_list_release(&l);
	/* llmnop markers under another version */
	assert_int_equal(parse_str("s.json", "{\"version\": \"2027-01-01\", \"num_concurrent_requests\": 1, "
	                                     "\"results_ttfo_s_mean\": 1, "
	                                     "\"results_num_completed_requests\": 5}", &l, &err), PL_EFORMAT);
	assert_string_equal(err.message, "an llmnop summary (reasoning-token fields) of version "
	                                 "'2027-01-01' is not read (2026-01-20 is)");
	pl_run_list_release(&l);
	/* llmnop markers under llmperf's version: never stored as llmperf */
	assert_int_equal(parse_str("s.json", "{\"version\": \"2023-08-31\", \"num_concurrent_requests\": 1, "
	                                     "\"results_number_reasoning_tokens_mean\": 9, "
	                                     "\"results_num_completed_requests\": 5}", &l, &err), PL_EFORMAT);
	pl_run_list_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ix_json_parallelism),
		cmocka_unit_test(test_ix_csv_parallelism),
		cmocka_unit_test(test_ix_csv_rules),
		cmocka_unit_test(test_mlperf_scenario_limits),
		cmocka_unit_test(test_mlperf_server_vs_interactive),
		cmocka_unit_test(test_guidellm_04_case),
		cmocka_unit_test(test_guidellm_v2),
		cmocka_unit_test(test_guidellm_layouts),
		cmocka_unit_test(test_llmnop_case),
		cmocka_unit_test(test_llmperf_versions),
	};
	pl_adapters_init(); /* cJSON's allocator hooks, as main() does */
	return shared_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
