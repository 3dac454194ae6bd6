/*
 * test_evalscope_ib.c — issue 16: the evalscope perf and Hugging Face
 * inference-benchmarker adapters.
 *
 * No real file of either tool is in ../shared/corpus: the layouts were
 * read from the tools' source (see the adapters' headers), and the
 * fixtures under tests/fixtures/evalscope/ and
 * tests/fixtures/inference-benchmarker/ were written for these tests from
 * that, with numbers chosen so the tools' own arithmetic holds (it is in
 * the comments). They run on any clone. Refusals are tested on copies
 * edited in memory, with their exact messages.
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

/* Fixture rel (under tests/fixtures/) with the first occurrence of from
 * replaced by to (from NULL: unchanged), parsed: the result, the runs in
 * *l (initialised here) and the error in *err. */
static int parse_edit(const char *rel, const char *from, const char *to, struct pl_run_list *l,
                      struct pl_error *err)
{
	char path[4096];
	size_t len;
	char *buf, *text;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", PL_FIXTURES_DIR, rel);
	buf = slurp(path, &len);
	buf[len] = '\0';
	if (from) {
		char *hit = strstr(buf, from);
		size_t flen = strlen(from), tlen = strlen(to), at;
		if (!hit) {
			free(buf);
			fail_msg("%s: no '%s' to replace", rel, from);
		}
		at = (size_t)(hit - buf);
		text = malloc(len - flen + tlen + 1);
		assert_non_null(text);
		memcpy(text, buf, at);
		memcpy(text + at, to, tlen);
		memcpy(text + at + tlen, hit + flen, len - at - flen + 1);
		free(buf);
		buf = text;
		len = len - flen + tlen;
	}
	pl_run_list_init(l);
	pl_error_init(err);
	rc = pl_adapters_parse(path, buf, len, NULL, l, err);
	free(buf);
	return rc;
}

static void load(const char *rel, struct pl_run_list *l)
{
	struct pl_error err;
	if (parse_edit(rel, NULL, NULL, l, &err))
		fail_msg("%s: %s", rel, err.message);
}

/* The edited fixture is refused with code and exactly message. */
static void refused(const char *rel, const char *from, const char *to, int code,
                    const char *message)
{
	struct pl_run_list l;
	struct pl_error err;
	int rc = parse_edit(rel, from, to, &l, &err);

	if (rc != code)
		fail_msg("%s: rc %d (%s), want %d", rel, rc, err.message, code);
	assert_string_equal(err.message, message);
	assert_int_equal(l.n, 0);
	pl_run_list_release(&l);
}

/* The edited file parses, its run `record` a failed run (issue 13). */
static void edited_failed(const char *rel, const char *from, const char *to, size_t record,
                          double failed)
{
	struct pl_run_list l;
	struct pl_error err;
	int rc = parse_edit(rel, from, to, &l, &err);

	if (rc != 0)
		fail_msg("%s: rc %d (%s), want 0 (a failed run is stored)", rel, rc, err.message);
	assert_true(l.n > record);
	expect_failed_run(&l.v[record], failed);
	pl_run_list_release(&l);
}

static void str_refused(const char *text, int code, const char *message)
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

/* -------------------------------------------------------------- evalscope */

#define ES_SUMMARY "evalscope/benchmark_summary.json"
#define ES_PCT "evalscope/benchmark_percentile.json"

/* The 0.17.1-1.4.0 summary: 20 requests at concurrency 4, 19 succeeded,
 * 512 input and 256 output tokens each, in 25 s. */
static void test_es_summary(void **state)
{
	struct pl_run_list l;
	(void)state;
	load(ES_SUMMARY, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].adapter, "evalscope");
	assert_string_equal(l.v[0].format_version, "1.0-summary");
	static const struct kt c[] = {
		{"concurrency", "4"}, {"benchmark_tool", "evalscope-perf"}, {"model", NULL},
		{"request_rate", NULL}, {NULL, NULL},
	};
	expect_conds(&l.v[0], c);
	static const struct kv m[] = {
		{"duration", 25.0},
		{"output_throughput", 194.56},     /* 19 * 256 = 4864 tokens / 25 s */
		{"total_token_throughput", 583.68}, /* (19 * 512 + 4864) / 25 = 14592 / 25 */
		{"request_throughput", 0.76},       /* 19 / 25 */
		{"e2el_mean", 5.1234}, {"ttft_mean", 0.2345}, {"tpot_mean", 0.0193},
		{"itl_mean", 0.0191}, {"input_tokens_mean", 512}, {"output_tokens_mean", 256},
		{"requests_completed", 19}, {"requests_failed", 1},
		{"error_rate", 0.05}, /* 1 / (19 + 1) */
		{NULL, 0},
	};
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 13);
	assert_null(l.v[0].warnings);
	assert_int_equal(l.v[0].nextra, 0);
	validate_all(&l);
	pl_run_list_release(&l);
}

/* A non-streamed run: evalscope writes the whole latency as TTFT, 0 as
 * TPOT and 0 as ITL (one chunk per response): those three are not
 * stored. */
static void test_es_summary_nonstream(void **state)
{
	struct pl_run_list l;
	struct pl_error err;
	(void)state;
	assert_int_equal(parse_edit(ES_SUMMARY, "\"Average inter-token latency (s)\": 0.0191",
	                            "\"Average inter-token latency (s)\": 0.0", &l, &err),
	                 0);
	static const struct kv m[] = {
		{"ttft_mean", NAN}, {"tpot_mean", NAN}, {"itl_mean", NAN}, {"e2el_mean", 5.1234},
		{"output_throughput", 194.56}, {NULL, 0},
	};
	expect_metrics(&l.v[0], m);
	assert_string_equal(l.v[0].warnings,
	                    "evalscope: 'Average inter-token latency (s)' is 0: no response came in "
	                    "more than one chunk (a non-streamed run), where evalscope writes the whole "
	                    "latency as the time to first token and 0 as the time per output token; "
	                    "ttft_mean, tpot_mean and itl_mean are not stored");
	pl_run_list_release(&l);
}

static void test_es_summary_refusals(void **state)
{
	(void)state;
	/* nothing succeeded: every average is -1 in the file */
	edited_failed(ES_SUMMARY, "\"Succeed requests\": 19", "\"Succeed requests\": 0", 0, 1);
	refused(ES_SUMMARY, "\"Number of concurrency\": 4,",
	        "\"Number of concurrency\": 4, \"Request rate (req/s)\": 2.0,", PL_EFORMAT,
	        "an evalscope perf summary of evalscope 1.4.1 or later (it has 'Request rate (req/s)' "
	        "or 'Input token throughput (tok/s)') is not read; this adapter reads the layout of "
	        "evalscope 0.17.1 to 1.4.0");
	refused(ES_SUMMARY, "\"Average inter-token latency (s)\": 0.0191,",
	        "\"Average package latency (s)\": 0.0191, \"Average package per request\": 200,",
	        PL_EFORMAT,
	        "an evalscope perf summary of evalscope 0.17.0 or earlier ('Average package latency "
	        "(s)': its time per output token is per chunk) is not read; this adapter reads the "
	        "layout of evalscope 0.17.1 to 1.4.0");
	str_refused("{\"Test Duration (s)\": 10.0, \"Concurrency\": 4, \"Avg Latency (s)\": 1.5, "
	            "\"Avg TTFT (ms)\": 120.0}",
	            PL_EFORMAT,
	            "an evalscope perf summary of evalscope 1.5 or later (keys such as 'Avg Latency "
	            "(s)', 'Concurrency') is not read; this adapter reads the layout of evalscope "
	            "0.17.1 to 1.4.0");
}

/* The percentile rows 50%, 90%, 95%, 99% of latency, TTFT and ITL, in s;
 * TPOT is not stored (the file records no version; before 0.17.1 the
 * same key was per chunk). */
static void test_es_percentile(void **state)
{
	struct pl_run_list l;
	(void)state;
	load(ES_PCT, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].format_version, "1.0-percentile");
	static const struct kt c[] = {
		{"benchmark_tool", "evalscope-perf"}, {"concurrency", NULL}, {NULL, NULL},
	};
	expect_conds(&l.v[0], c);
	static const struct kv m[] = {
		{"e2el_p50", 5.0987}, {"e2el_p90", 5.6789}, {"e2el_p95", 5.8802}, {"e2el_p99", 6.1044},
		{"ttft_p50", 0.2211}, {"ttft_p90", 0.3105}, {"ttft_p95", 0.3550}, {"ttft_p99", 0.4230},
		{"itl_p50", 0.0187},  {"itl_p90", 0.0231},  {"itl_p95", 0.0268},  {"itl_p99", 0.0355},
		{"tpot_p50", NAN},    {"tpot_p99", NAN},    {"requests_completed", NAN},
		{NULL, 0},
	};
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 12);
	assert_null(l.v[0].warnings);
	assert_int_equal(l.v[0].nextra, 0);
	pl_run_list_release(&l);
}

static void test_es_percentile_refusals(void **state)
{
	(void)state;
	refused(ES_PCT, "\"Percentiles\": \"10%\"", "\"Percentiles\": \"50%\"", PL_EINVALID,
	        "row 2: a second '50%' row");
	refused(ES_PCT, "\"TTFT (s)\": 0.1502", "\"TTFT (ms)\": 150.2", PL_EFORMAT,
	        "an evalscope perf percentile file of a later layout ('Input (tok/s)' from evalscope "
	        "1.4.2, 'TTFT (ms)' from 1.7) is not read; this adapter reads the layout of evalscope "
	        "0.17.1 to 1.4.0");
	/* A metric with no sample (ITL of a non-streamed run) is NaN in Python's JSON. */
	refused(ES_PCT, "\"ITL (s)\": 0.0152", "\"ITL (s)\": NaN", PL_EINVALID,
	        "'ITL (s)' is NaN (not a number); give a number, or null if unknown");
}

/* ---------------------------------------------------- inference-benchmarker */

#define IB "inference-benchmarker/results_sweep.json"

/* A sweep: the warm-up (not stored), the throughput step (8 VUs) and one
 * constant-rate step (1.5 req/s, at most 8 in flight). */
static void test_ib_sweep(void **state)
{
	struct pl_run_list l;
	(void)state;
	load(IB, &l);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.v[0].record, 1);
	assert_int_equal(l.v[1].record, 2);
	assert_string_equal(l.v[0].format_version, "0.2");
	static const struct kt c0[] = {
		{"benchmark_tool", "inference-benchmarker"},
		{"model", "meta-llama/Llama-3.1-8B-Instruct"},
		{"concurrency", "8"}, {"request_rate", NULL},
		{"input_tokens", "200"}, {"max_output_tokens", "800"},
		{"run_started_at", "2025-03-28T10:15:30.123456789+00:00"}, /* as written; normalized later */
		{NULL, NULL},
	};
	expect_conds(&l.v[0], c0);
	static const struct kv m0[] = {
		{"ttft_mean", 0.0505}, {"ttft_p50", 0.045123}, {"ttft_p90", 0.06075},
		{"ttft_p95", 0.0685}, {"ttft_p99", 0.09125},              /* ms / 1000 */
		{"tpot_mean", 0.0065}, {"tpot_p50", 0.00625}, {"tpot_p90", 0.007125},
		{"tpot_p99", 0.00875}, {"itl_p50", NAN},
		{"e2el_mean", 4.92575}, {"e2el_p50", 4.8705}, {"e2el_p99", 5.8005},
		{"duration", 60.0},                                      /* 60000 ms */
		{"output_throughput", 1475.0},                           /* 88500 / 60 */
		{"request_throughput", 1.9666666666666666},              /* 118 / 60 */
		{"requests_completed", 118}, {"requests_failed", 2},
		{"error_rate", 2.0 / 120.0},                             /* 2 / (118 + 2) */
		{"total_output_tokens", 88500}, {"output_tokens_mean", 750}, /* 88500 / 118 */
		{"total_input_tokens", 23600},  {"input_tokens_mean", 200},  /* 23600 / 118 */
		{NULL, 0},
	};
	expect_metrics(&l.v[0], m0);
	static const struct kt c1[] = {
		{"concurrency", "8"}, {"request_rate", "1.5"}, {NULL, NULL},
	};
	expect_conds(&l.v[1], c1);
	static const struct kv m1[] = {
		{"duration", 59.5},
		{"output_throughput", 1047.0588235294117},  /* 62300 / 59.5 */
		{"request_throughput", 1.4957983193277311}, /* 89 / 59.5: achieved, not the rate */
		{"error_rate", 0}, {"requests_completed", 89},
		{"input_tokens_mean", 210},  /* 18690 / 89 */
		{"output_tokens_mean", 700}, /* 62300 / 89 */
		{"ttft_p50", 0.0385}, {"tpot_mean", 0.005875}, {"e2el_mean", 4.1255},
		{NULL, 0},
	};
	expect_metrics(&l.v[1], m1);
	for (size_t i = 0; i < l.n; i++) {
		assert_null(l.v[i].warnings);
		assert_int_equal(l.v[i].nextra, 1);
		assert_string_equal(pl_run_extra(&l.v[i], "inference-benchmarker.config.meta"),
		                    "{\"team\":\"perf\"}");
	}
	validate_all(&l);
	pl_run_list_release(&l);
}

/* A 1.0 report (no config.model_name, run_id; written on one line by
 * serde): a throughput run of 16 VUs, no prompt length asked, 256 output
 * tokens asked; meta null. */
static void test_ib_throughput_1_0(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("inference-benchmarker/results_throughput_1.0.json", &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.v[0].record, 1);
	static const struct kt c[] = {
		{"model", NULL}, {"concurrency", "16"}, {"request_rate", NULL},
		{"input_tokens", NULL}, {"max_output_tokens", "256"}, {NULL, NULL},
	};
	expect_conds(&l.v[0], c);
	static const struct kv m[] = {
		{"output_throughput", 853.3333333333334},  /* 102400 / 120 */
		{"request_throughput", 3.3333333333333335}, /* 400 / 120 */
		{"duration", 120}, {"error_rate", 0}, {"requests_completed", 400},
		{"output_tokens_mean", 256}, /* 102400 / 400 */
		{"input_tokens_mean", 495},  /* 198000 / 400 */
		{"ttft_p50", 0.0805}, {"ttft_p99", 0.21075}, {"tpot_mean", 0.018},
		{"e2el_p90", 5.05}, {"e2el_mean", 4.7825},
		{NULL, 0},
	};
	expect_metrics(&l.v[0], m);
	assert_null(l.v[0].warnings);
	assert_int_equal(l.v[0].nextra, 0);
	pl_run_list_release(&l);
}

static void test_ib_refusals(void **state)
{
	(void)state;
	refused(IB, "\"executor_type\": \"ConstantArrivalRate\"", "\"executor_type\": \"RampingVUs\"",
	        PL_EFORMAT,
	        "result 2: inference-benchmarker: executor_type 'RampingVUs' is not one this adapter "
	        "reads (ConstantVUs, ConstantArrivalRate)");
	edited_failed(IB, "\"successful_requests\": 118", "\"successful_requests\": 0", 0, 2);
	refused(IB, "\"rate\": 1.5", "\"rate\": null", PL_EINVALID,
	        "result 2: a ConstantArrivalRate result needs a number config.rate");
	/* 0.1 wrote flat keys */
	str_refused("{\"config\": {\"max_vus\": 1, \"duration_secs\": 10, \"benchmark_kind\": "
	            "\"Throughput\", \"warmup_duration_secs\": 5}, \"results\": [{\"id\": "
	            "\"throughput\", \"time_to_first_token_ms_avg\": 12.5}]}",
	            PL_EFORMAT,
	            "an inference-benchmarker 0.1 report (flat keys such as "
	            "time_to_first_token_ms_avg) is not read; this adapter reads the 0.2 to 1.1 "
	            "layout");
	str_refused("{\"config\": {\"max_vus\": 1, \"duration_secs\": 10, \"benchmark_kind\": "
	            "\"Throughput\", \"warmup_duration_secs\": 5}, \"results\": [{\"id\": "
	            "\"warmup\"}]}",
	            PL_EINVALID, "an inference-benchmarker report with no result but the warm-up");
}

/* Forced with --format, an input that is not one JSON object (JSONL, an
 * array) is refused, not read out of bounds. "[]", which a fuzzer found
 * (the adapter read records[0] of an empty array), holds no record: 0
 * runs before any adapter reads it, as any empty file (finding 15). */
static void test_ib_forced_not_an_object(void **state)
{
	static const char *const inputs[] = {"{\"a\": 1}\n{\"b\": 2}\n", "[1, 2]"};
	(void)state;
	{
		struct pl_run_list l = {0};
		struct pl_error err;
		pl_error_init(&err);
		assert_int_equal(pl_adapters_parse("x.json", "[]", 2, "inference-benchmarker", &l, &err),
		                 0);
		assert_int_equal(l.n, 0);
	}
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		struct pl_run_list l = {0};
		struct pl_error err;
		pl_error_init(&err);
		assert_int_equal(pl_adapters_parse("x.json", inputs[i], strlen(inputs[i]),
		                                   "inference-benchmarker", &l, &err),
		                 PL_EINVALID);
		assert_string_equal(err.message, "an inference-benchmarker report must be one JSON object");
		assert_int_equal(l.n, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_es_summary),
		cmocka_unit_test(test_es_summary_nonstream),
		cmocka_unit_test(test_es_summary_refusals),
		cmocka_unit_test(test_es_percentile),
		cmocka_unit_test(test_es_percentile_refusals),
		cmocka_unit_test(test_ib_sweep),
		cmocka_unit_test(test_ib_throughput_1_0),
		cmocka_unit_test(test_ib_refusals),
		cmocka_unit_test(test_ib_forced_not_an_object),
	};
	pl_adapters_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
