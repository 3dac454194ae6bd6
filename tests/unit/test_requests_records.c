/*
 * test_requests_records.c — per-request records kept in a file of their
 * own beside a summary (adapters.h, pl_adapters_parse_requests): AIPerf
 * profile_export.jsonl and llmperf individual responses, each against the
 * project's fixture worked by hand (tests/fixtures/requests/aiperf,
 * .../llmperf) and the corpus's files; the pairing of names; and the bad
 * records refused, each naming the request.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/requests.h"

#include "corpus_fixture.h"

#define CLOSE(a, b) assert_true(fabs((a) - (b)) <= 1e-12 * (fabs(b) > 1 ? fabs(b) : 1))

/* The summary at dir/summary (one run) with the records at dir/records;
 * returns the parse's code (err set), the run in *l. */
static int parse_pair(const char *dir, const char *summary, const char *records,
                      struct pl_run_list *l, struct pl_error *err)
{
	char path[8192], rpath[8192];
	size_t len, rlen;
	char *buf, *rbuf;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, summary);
	snprintf(rpath, sizeof(rpath), "%s/%s", dir, records);
	buf = slurp(path, &len);
	rbuf = slurp(rpath, &rlen);
	pl_error_init(err);
	if (pl_adapters_parse(path, buf, len, NULL, l, err))
		fail_msg("%s: %s", path, err->message);
	assert_int_equal(l->n, 1);
	rc = pl_adapters_parse_requests(rpath, rbuf, rlen, &l->v[0], err);
	free(buf);
	free(rbuf);
	return rc;
}

/* Records given as text, for the summary of the AIPerf fixture. */
static int aiperf_text(const char *records, struct pl_error *err)
{
	char dir[4096], path[4200];
	struct pl_run_list l = {0};
	size_t len;
	char *buf;
	int rc;

	snprintf(dir, sizeof(dir), "%s/requests/aiperf", PL_FIXTURES_DIR);
	snprintf(path, sizeof(path), "%s/profile_export_aiperf.json", dir);
	buf = slurp(path, &len);
	pl_error_init(err);
	if (pl_adapters_parse(path, buf, len, NULL, &l, err))
		fail_msg("%s", err->message);
	rc = pl_adapters_parse_requests("r.jsonl", records, strlen(records), &l.v[0], err);
	if (rc == 0)
		assert_non_null(l.v[0].requests);
	else
		assert_null(l.v[0].requests);
	free(buf);
	pl_run_list_release(&l);
	return rc;
}

/* tests/fixtures/requests/aiperf, by hand (ms in the file): profiling
 * requests TTFT 100 200 150 300, E2EL 220 300 150 500, output 4 3 1 5,
 * gaps [40 50 30] [60 40] [] [100 100]; two failed with one error; the
 * warm-up record is not a request. TPOT (E2EL - TTFT) / (out - 1): 40 50
 * - 50. */
static void aiperf_fixture_by_hand(void **state)
{
	char dir[4096];
	struct pl_run_list l = {0};
	struct pl_error err;
	struct pl_rq_stats s;
	const struct pl_requests *rq;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/requests/aiperf", PL_FIXTURES_DIR);
	if (parse_pair(dir, "profile_export_aiperf.json", "profile_export.jsonl", &l, &err))
		fail_msg("%s", err.message);
	rq = l.v[0].requests;
	assert_non_null(rq);
	assert_int_equal(rq->n, 6);
	assert_int_equal(pl_requests_failed(rq), 2);
	assert_int_equal(rq->nerrors, 1);
	assert_string_equal(pl_requests_error(rq, 4), "500 InternalServerError: boom");
	assert_string_equal(pl_requests_error(rq, 5), "500 InternalServerError: boom");
	assert_null(pl_requests_error(rq, 0));
	assert_int_equal(rq->input_tokens[2], 12);
	assert_int_equal(rq->input_tokens[4], 10); /* error_isl */
	assert_int_equal(rq->output_tokens[3], 5);
	assert_true(rq->ttft[1] == 0.2);
	assert_true(rq->e2el[3] == 0.5);
	assert_int_equal(rq->ngaps, 7);
	assert_true(isnan(rq->ttft[4]));
	assert_int_equal(pl_requests_stats(rq, &s), 0);
	/* TTFT sorted 0.1 0.15 0.2 0.3: median 0.175; p90 at rank 2.7 */
	CLOSE(s.ttft.p50, 0.175);
	CLOSE(s.ttft.p90, 0.27);
	CLOSE(s.ttft.mean, 0.1875);
	assert_int_equal(s.tpot.n, 3);
	CLOSE(s.tpot.p50, 0.05);
	CLOSE(s.tpot.mean, 0.14 / 3);
	/* gaps sorted 0.03 0.04 0.04 0.05 0.06 0.1 0.1 */
	assert_int_equal(s.itl.n, 7);
	CLOSE(s.itl.p50, 0.05);
	CLOSE(s.itl.mean, 0.06);
	/* E2EL sorted 0.15 0.22 0.3 0.5 */
	CLOSE(s.e2el.p50, 0.26);
	CLOSE(s.e2el.p99, 0.494);
	CLOSE(s.e2el.mean, 0.2925);
	pl_run_list_release(&l);
}

/* tests/fixtures/requests/llmperf, by hand: TTFT 0.5 0.4 0.6, E2EL 1.5 1.2
 * 0.6, output 5 3 1; two failed with error code 429. No gaps: llmperf's
 * inter_token_latency_s (E2EL / output tokens) is not kept. */
static void llmperf_fixture_by_hand(void **state)
{
	char dir[4096];
	struct pl_run_list l = {0};
	struct pl_error err;
	struct pl_rq_stats s;
	const struct pl_requests *rq;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/requests/llmperf", PL_FIXTURES_DIR);
	if (parse_pair(dir, "test_10_5_summary.json", "test_10_5_individual_responses.json", &l, &err))
		fail_msg("%s", err.message);
	rq = l.v[0].requests;
	assert_int_equal(rq->n, 5);
	assert_int_equal(pl_requests_failed(rq), 2);
	assert_int_equal(rq->nerrors, 1);
	assert_string_equal(pl_requests_error(rq, 3), "error code 429");
	assert_int_equal(rq->columns & (PL_RQ_GAPS | PL_RQ_ITLMEAN), 0);
	assert_int_equal(pl_requests_stats(rq, &s), 0);
	assert_int_equal(s.itl.n, 0);
	CLOSE(s.ttft.p90, 0.58);
	assert_int_equal(s.tpot.n, 2);
	CLOSE(s.tpot.p50, 0.325);
	CLOSE(s.tpot.p90, 0.385);
	CLOSE(s.e2el.mean, 1.1);
	pl_run_list_release(&l);
}

/* The corpus: llmperf's leaderboard files (the recomputed TTFT equals
 * llmperf's own summary, computed over the completed requests), AIPerf
 * 0.8's records of a run whose 32 requests all failed. */
static void corpus_records(void **state)
{
	char dir[4096];
	struct pl_run_list l = {0};
	struct pl_error err;
	struct pl_rq_stats s;
	const struct pl_requests *rq;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/llmperf", PL_CORPUS_DIR);
	need_shared(dir);
	if (parse_pair(dir, "lb_bedrock_llama2_13b_summary.json", "lb_bedrock_llama2_13b_individual.json",
	               &l, &err))
		fail_msg("%s", err.message);
	rq = l.v[0].requests;
	assert_int_equal(rq->n, 150);
	assert_int_equal(pl_requests_failed(rq), 97);
	assert_int_equal(rq->nerrors, 61); /* "error code -100: Output too few tokens N", 61 N */
	assert_string_equal(pl_requests_error(rq, 0), "error code -100: Output too few tokens 39");
	assert_int_equal(pl_requests_stats(rq, &s), 0);
	assert_true(s.ttft.mean == l.v[0].metric[PL_M_TTFT_MEAN]);
	assert_true(s.ttft.p50 == l.v[0].metric[PL_M_TTFT_P50]);
	assert_true(s.ttft.p90 == l.v[0].metric[PL_M_TTFT_P90]);
	assert_true(s.e2el.mean == l.v[0].metric[PL_M_E2EL_MEAN]);
	pl_run_list_release(&l);

	if (parse_pair(dir, "lb_lepton_llama2_7b_summary.json", "lb_lepton_llama2_7b_individual.json",
	               &l, &err))
		fail_msg("%s", err.message);
	rq = l.v[0].requests;
	assert_int_equal(rq->n, 150);
	assert_int_equal(pl_requests_failed(rq), 130);
	assert_int_equal(rq->nerrors, 1);
	assert_string_equal(pl_requests_error(rq, rq->n - 1), "error code 429");
	pl_run_list_release(&l);

	snprintf(dir, sizeof(dir), "%s/genai_perf", PL_CORPUS_DIR);
	if (parse_pair(dir, "aiperf080_kimik25_b200_c32_failed.json",
	               "aiperf080_kimik25_b200_c32_failed_records.jsonl", &l, &err))
		fail_msg("%s", err.message);
	rq = l.v[0].requests;
	assert_int_equal(rq->n, 32);
	assert_int_equal(pl_requests_failed(rq), 32);
	assert_int_equal(rq->nerrors, 3);
	assert_string_equal(pl_requests_error(rq, 0),
	                    "ValueError: ValueError('Unsupported OpenAI object type: None')");
	pl_run_list_release(&l);
}

/* Which records file goes with which summary. */
static void pairing_names(void **state)
{
	char *s;

	(void)state;
	assert_int_equal(pl_adapters_records_name("aiperf", "profile_export_aiperf.json", 0, &s), 1);
	assert_string_equal(s, "profile_export.jsonl");
	free(s);
	assert_int_equal(pl_adapters_records_name("aiperf", "profile_export_aiperf.json", 1, &s), 1);
	assert_string_equal(s, "profile_export_aiperf_records.jsonl");
	free(s);
	assert_int_equal(pl_adapters_records_name("aiperf", "profile_export_aiperf.json", 2, &s), 0);
	assert_null(s);
	assert_int_equal(pl_adapters_records_name("llmperf", "m_550_150_summary.json", 0, &s), 1);
	assert_string_equal(s, "m_550_150_individual_responses.json");
	free(s);
	assert_int_equal(pl_adapters_records_name("vllm-serving", "x_summary.json", 0, &s), 0);
	assert_int_equal(pl_adapters_summary_name("profile_export.jsonl", 0, &s), 1);
	assert_string_equal(s, "profile_export_aiperf.json");
	free(s);
	assert_int_equal(pl_adapters_summary_name("a_individual.json", 0, &s), 1);
	assert_string_equal(s, "a_summary.json");
	free(s);
	assert_int_equal(pl_adapters_summary_name("a_summary.json", 0, &s), 0);
}

#define OK_REC(ttft, lat, gaps)                                                                 \
	"{\"metadata\":{\"benchmark_phase\":\"profiling\"},\"metrics\":{"                          \
	"\"time_to_first_token\":{\"value\":" ttft ",\"unit\":\"ms\"},"                            \
	"\"request_latency\":{\"value\":" lat ",\"unit\":\"ms\"},"                                 \
	"\"output_sequence_length\":{\"value\":3,\"unit\":\"tokens\"},"                            \
	"\"inter_chunk_latency\":{\"value\":" gaps ",\"unit\":\"ms\"}},\"error\":null}\n"
#define FAIL_REC "{\"metadata\":{},\"metrics\":{},\"error\":{\"type\":\"E\",\"message\":\"m\"}}\n"

/* Bad records: each refused by name; records of another run refused. */
static void bad_records_refused(void **state)
{
	struct pl_error err;
	struct pl_run run;

	(void)state;
	/* 4 completed, 2 failed as the summary counts: accepted */
	assert_int_equal(aiperf_text(OK_REC("1", "3", "[1,1]") OK_REC("1", "3", "[1,1]")
	                                 OK_REC("1", "3", "[1,1]") OK_REC("1", "3", "[1,1]")
	                                     FAIL_REC FAIL_REC,
	                             &err),
	                 0);
	/* one completed request fewer than the summary counts */
	assert_int_equal(aiperf_text(OK_REC("1", "3", "[1,1]") OK_REC("1", "3", "[1,1]")
	                                 OK_REC("1", "3", "[1,1]") FAIL_REC FAIL_REC,
	                             &err),
	                 PL_EINVALID);
	assert_non_null(strstr(err.message, "3 completed and 2 failed requests, the summary counts 4 and 2"));
	/* a negative TTFT, named by its request */
	assert_int_equal(aiperf_text(OK_REC("1", "3", "[1,1]") OK_REC("-1", "3", "[1,1]"), &err),
	                 PL_EINVALID);
	assert_string_equal(err.field, "requests[1].ttft");
	/* gaps that do not add up to E2EL - TTFT */
	assert_int_equal(aiperf_text(OK_REC("1", "30", "[1,1]"), &err), PL_EINVALID);
	assert_non_null(strstr(err.field, "requests[0]"));
	/* an unknown unit */
	assert_int_equal(aiperf_text("{\"metadata\":{},\"metrics\":{\"request_latency\":{\"value\":1,"
	                             "\"unit\":\"fortnights\"}},\"error\":null}\n",
	                             &err),
	                 PL_EINVALID);
	assert_string_equal(err.field, "requests[0].request_latency");
	/* a gap that is not a number */
	assert_int_equal(aiperf_text(OK_REC("1", "3", "[1,\"x\"]"), &err), PL_EINVALID);
	assert_string_equal(err.field, "requests[0].inter_chunk_latency");
	/* not AIPerf's records at all */
	assert_int_equal(aiperf_text("{\"ttft_s\": 1}\n", &err), PL_EFORMAT);
	/* another adapter's run has no records file */
	pl_run_init(&run);
	assert_int_equal(pl_strset(&run.adapter, "vllm-serving"), 0);
	pl_error_init(&err);
	assert_int_equal(pl_adapters_parse_requests("x", "[]", 2, &run, &err), PL_EUSAGE);
	pl_run_release(&run);
}

/* Parses buf both ways: as a tree (stream minimum out of reach) and with
 * "itls" streamed (minimum 0); the two runs' requests must be equal, field
 * by field, and so must the parse's code and message. */
static void both_ways(const char *path, const char *buf, size_t len)
{
	struct pl_run_list a = {0}, b = {0};
	struct pl_error ea, eb;
	int ra, rb;

	pl_error_init(&ea);
	pl_error_init(&eb);
	pl_adapters_set_stream_min(SIZE_MAX);
	ra = pl_adapters_parse(path, buf, len, NULL, &a, &ea);
	size_t before = pl_adapters_streamed();
	pl_adapters_set_stream_min(0);
	rb = pl_adapters_parse(path, buf, len, NULL, &b, &eb);
	pl_adapters_set_stream_min((size_t)4 << 20);
	/* streamed exactly when the file parses (bad gaps: the tree's words) */
	assert_int_equal(pl_adapters_streamed() - before, rb == 0 ? 1 : 0);
	assert_int_equal(ra, rb);
	assert_string_equal(ea.message, eb.message);
	assert_string_equal(ea.field, eb.field);
	if (ra)
		return;
	assert_int_equal(a.n, 1);
	assert_int_equal(b.n, 1);
	const struct pl_requests *x = a.v[0].requests, *y = b.v[0].requests;
	assert_non_null(x);
	assert_non_null(y);
	assert_int_equal(x->n, y->n);
	assert_int_equal(x->columns, y->columns);
	assert_int_equal(x->ngaps, y->ngaps);
	assert_int_equal(x->nerrors, y->nerrors);
	assert_memory_equal(x->error, y->error, x->n * sizeof(*x->error));
	assert_memory_equal(x->input_tokens, y->input_tokens, x->n * sizeof(int64_t));
	assert_memory_equal(x->output_tokens, y->output_tokens, x->n * sizeof(int64_t));
	assert_memory_equal(x->ttft, y->ttft, x->n * sizeof(double));
	assert_memory_equal(x->gap_off, y->gap_off, (x->n + 1) * sizeof(size_t));
	if (x->ngaps)
		assert_memory_equal(x->gaps, y->gaps, x->ngaps * sizeof(double));
	assert_memory_equal(a.v[0].metric, b.v[0].metric, sizeof(a.v[0].metric));
	assert_memory_equal(a.v[0].has_metric, b.v[0].has_metric, sizeof(a.v[0].has_metric));
	assert_int_equal(a.v[0].nextra, b.v[0].nextra);
	pl_run_list_release(&a);
	pl_run_list_release(&b);
}

/* The streamed "itls" gives the requests the tree gives: the project's
 * fixture (a failed request's gaps dropped), the corpus's 200-request vLLM
 * file, and bad gaps, where the streamed path steps aside and the tree
 * path's own message is the one given. */
static void streamed_gaps_equal_tree(void **state)
{
	static const char bad_gap[] =
		"{\"backend\": \"vllm\", \"completed\": 1, \"failed\": 0, \"duration\": 1.0, "
		"\"request_throughput\": 1.0, \"ttfts\": [0.1], \"input_lens\": [1], "
		"\"output_lens\": [3], \"errors\": [\"\"], \"itls\": [[0.1, \"x\"]]}";
	static const char failed_gaps[] =
		"{\"backend\": \"vllm\", \"completed\": 1, \"failed\": 1, \"duration\": 1.0, "
		"\"request_throughput\": 1.0, \"ttfts\": [0.1, 0.0], \"input_lens\": [1, 1], "
		"\"output_lens\": [3, 0], \"errors\": [\"\", \"boom\"], "
		"\"itls\": [[0.1, 0.2], [0.5]], \"mean_ttft_ms\": 100.0}";
	char path[4096];
	size_t len;
	char *buf;

	(void)state;
	snprintf(path, sizeof(path), "%s/requests/vllm_detailed_small.json", PL_FIXTURES_DIR);
	buf = slurp(path, &len);
	both_ways(path, buf, len);
	free(buf);
	both_ways("bad.json", bad_gap, strlen(bad_gap));
	both_ways("failed.json", failed_gaps, strlen(failed_gaps));
	snprintf(path, sizeof(path), "%s/vllm_serving/llmk8s_dsv25_tp8pp2_qps_inf_full.json",
	         PL_CORPUS_DIR);
	buf = slurp(path, &len);
	both_ways(path, buf, len);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(aiperf_fixture_by_hand),
		cmocka_unit_test(llmperf_fixture_by_hand),
		cmocka_unit_test(corpus_records),
		cmocka_unit_test(pairing_names),
		cmocka_unit_test(bad_records_refused),
		cmocka_unit_test(streamed_gaps_equal_tree),
	};

	pl_adapters_init();
	return shared_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
