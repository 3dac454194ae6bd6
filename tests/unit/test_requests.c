/*
 * test_requests.c — a run's requests: the one definition of each latency
 * (core/requests.h) against hand-computed values and against vLLM's own
 * summary of the corpus's 200-request file, a run's latencies derived
 * from its requests (the tool's kept beside them, the 1% rule), SLO
 * grading, the checks of bad
 * input (each naming the request), the columnar codec (store/requests.h)
 * and its compactness on the corpus.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/requests.h"
#include "store/requests.h"
#include "util/base64.h"

#include "corpus_fixture.h"

#define CLOSE(a, b) assert_true(fabs((a) - (b)) <= 1e-12 * (fabs(b) > 1 ? fabs(b) : 1))

static void parse_fixture(const char *name, struct pl_run_list *out)
{
	char path[4096];
	size_t len;
	char *buf;
	struct pl_error err;

	snprintf(path, sizeof(path), "%s/requests/%s", PL_FIXTURES_DIR, name);
	buf = slurp(path, &len);
	pl_error_init(&err);
	if (pl_adapters_parse(path, buf, len, NULL, out, &err))
		fail_msg("%s: %s", name, err.message);
	free(buf);
	assert_int_equal(out->n, 1);
	assert_non_null(out->v[0].requests);
}

/* tests/fixtures/requests/vllm_detailed_small.json, worked by hand:
 * completed TTFTs 0.1 0.2 0.4 0.3 (the fifth request failed: "timeout");
 * E2EL = TTFT + gaps: 0.22 0.3 0.46 0.3; TPOT = (E2EL - TTFT) / (out - 1):
 * 0.06 0.1 0.02 (the one-token request has none); the gaps pooled:
 * 0.05 0.07 0.1 0.02 0.02 0.02. */
static void vllm_small_by_hand(void **state)
{
	struct pl_run_list l = {0};
	struct pl_rq_stats s;

	(void)state;
	parse_fixture("vllm_detailed_small.json", &l);
	const struct pl_requests *rq = l.v[0].requests;
	assert_int_equal(rq->n, 5);
	assert_int_equal(pl_requests_failed(rq), 1);
	assert_string_equal(pl_requests_error(rq, 4), "timeout");
	assert_null(pl_requests_error(rq, 0));
	assert_int_equal(rq->ngaps, 6);
	assert_int_equal(pl_requests_stats(rq, &s), 0);
	assert_int_equal(s.requests, 5);
	assert_int_equal(s.failed, 1);
	assert_int_equal(s.output_tokens, 10);
	/* TTFT sorted 0.1 0.2 0.3 0.4: median (0.2 + 0.3) / 2; p90 at rank
	 * 3 x 0.9 = 2.7 -> 0.3 + 0.7 x 0.1; p99 at 2.97 -> 0.397 */
	assert_int_equal(s.ttft.n, 4);
	CLOSE(s.ttft.p50, 0.25);
	CLOSE(s.ttft.p90, 0.37);
	CLOSE(s.ttft.p95, 0.385);
	CLOSE(s.ttft.p99, 0.397);
	CLOSE(s.ttft.p999, 0.3997);
	CLOSE(s.ttft.mean, 0.25);
	/* TPOT sorted 0.02 0.06 0.1: p90 at rank 1.8 -> 0.06 + 0.8 x 0.04 */
	assert_int_equal(s.tpot.n, 3);
	CLOSE(s.tpot.p50, 0.06);
	CLOSE(s.tpot.p90, 0.092);
	CLOSE(s.tpot.mean, 0.06);
	/* ITL sorted 0.02 0.02 0.02 0.05 0.07 0.1: median 0.035; p90 at rank
	 * 4.5 -> 0.07 + 0.5 x 0.03; mean 0.28 / 6 */
	assert_int_equal(s.itl.n, 6);
	CLOSE(s.itl.p50, 0.035);
	CLOSE(s.itl.p90, 0.085);
	CLOSE(s.itl.mean, 0.28 / 6);
	/* E2EL sorted 0.22 0.3 0.3 0.46 */
	assert_int_equal(s.e2el.n, 4);
	CLOSE(s.e2el.p50, 0.3);
	CLOSE(s.e2el.p99, 0.4552);
	CLOSE(s.e2el.mean, 0.32);
	pl_run_list_release(&l);
}

/* SLO ttft=0.3,tpot=0.07 on the same file: request 0 meets both; 1 misses
 * TPOT (0.1); 2 misses TTFT (0.4); 3 (one token, TTFT 0.3: at the limit)
 * meets them; 4 failed. 2 of 5: attainment 0.4, goodput 2 / 10 s, output
 * tokens 3 + 1 over 10 s. */
static void vllm_small_grade(void **state)
{
	struct pl_run_list l = {0};
	struct pl_rq_slo slo;
	struct pl_rq_grade g;
	struct pl_error err;

	(void)state;
	parse_fixture("vllm_detailed_small.json", &l);
	pl_error_init(&err);
	assert_int_equal(pl_rq_slo_parse("ttft=0.3,tpot=0.07", &slo, &err), 0);
	assert_true(isnan(slo.e2el) && isnan(slo.itl));
	assert_int_equal(pl_requests_grade(l.v[0].requests, &slo, 10.0, &g), 0);
	assert_int_equal(g.met, 2);
	CLOSE(g.attainment, 0.4);
	CLOSE(g.goodput, 0.2);
	CLOSE(g.goodput_tokens, 0.4);
	/* itl: a request's largest gap; 0.07 lets 0 (max 0.07), 2 (0.02) and 3
	 * (no gap) through, not 1 (0.1) */
	assert_int_equal(pl_rq_slo_parse("itl=0.07", &slo, &err), 0);
	assert_int_equal(pl_requests_grade(l.v[0].requests, &slo, 10.0, &g), 0);
	assert_int_equal(g.met, 3);
	/* e2el=0.25: only request 0 (0.22) */
	assert_int_equal(pl_rq_slo_parse("e2el=0.25", &slo, &err), 0);
	assert_int_equal(pl_requests_grade(l.v[0].requests, &slo, 0, &g), 0);
	assert_int_equal(g.met, 1);
	assert_true(isnan(g.goodput) && isnan(g.goodput_tokens));
	pl_run_list_release(&l);
}

static void slo_parse_errors(void **state)
{
	struct pl_rq_slo slo;
	struct pl_error err;

	(void)state;
	pl_error_init(&err);
	assert_int_equal(pl_rq_slo_parse("ttft=1,tpot=0.05,e2el=10,itl=0.2", &slo, &err), 0);
	CLOSE(slo.itl, 0.2);
	assert_int_equal(pl_rq_slo_parse("ttft<=1", &slo, &err), PL_EUSAGE);
	assert_int_equal(pl_rq_slo_parse("ttfb=1", &slo, &err), PL_EUSAGE);
	assert_string_equal(err.message, "--slo: unknown limit 'ttfb' (names: ttft, tpot, e2el, itl)");
	assert_int_equal(pl_rq_slo_parse("ttft=1,ttft=2", &slo, &err), PL_EUSAGE);
	assert_int_equal(pl_rq_slo_parse("ttft=-1", &slo, &err), PL_EUSAGE);
	assert_int_equal(pl_rq_slo_parse("ttft=inf", &slo, &err), PL_EUSAGE);
	assert_int_equal(pl_rq_slo_parse("ttft=", &slo, &err), PL_EUSAGE);
	assert_int_equal(pl_rq_slo_parse("", &slo, &err), PL_EUSAGE);
}

/* The number the file printed after "key": (ms), read as vLLM's double. */
static double printed(const char *text, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	p = strstr(text, pat);
	assert_non_null(p);
	return strtod(p + strlen(pat), NULL);
}

/* Ours (s) times 1000, as vLLM computes its ms, against the file's value:
 * the same double, so the same printed digits. */
static void same_digits(double ours_s, const char *text, const char *key)
{
	char a[40], b[40];

	pl_fmt_num(a, sizeof(a), ours_s * 1000);
	pl_fmt_num(b, sizeof(b), printed(text, key));
	if (strcmp(a, b) != 0)
		fail_msg("%s: recomputed %s ms, vLLM printed %s ms", key, a, b);
}

/* The corpus's 200-request vLLM file: TTFT and ITL reproduce vLLM's own
 * mean, median and p99 to every printed digit (17 significant). TPOT
 * needs each request's end-to-end latency, which the file does not carry:
 * E2EL is TTFT + the gaps, and vLLM's latency is taken when the stream
 * closes, a few microseconds later; so TPOT agrees to 7 significant
 * digits (relative 1e-6 at most), not to every digit. */
static void corpus_vllm_reproduces(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	struct pl_rq_stats s;
	const struct pl_run *run;

	char path[4096], *text;
	size_t len;

	(void)state;
	if (parse_file("vllm_serving/llmk8s_dsv25_tp8pp2_qps_inf_full.json", NULL, &l, &err))
		fail_msg("%s", err.message);
	snprintf(path, sizeof(path), "%s/vllm_serving/llmk8s_dsv25_tp8pp2_qps_inf_full.json",
	         PL_CORPUS_DIR);
	text = slurp(path, &len);
	run = &l.v[0];
	assert_non_null(run->requests);
	assert_int_equal(run->requests->n, 200);
	assert_int_equal(run->requests->ngaps, 41971);
	assert_int_equal(pl_requests_stats(run->requests, &s), 0);
	same_digits(s.ttft.mean, text, "mean_ttft_ms");
	same_digits(s.ttft.p50, text, "median_ttft_ms");
	same_digits(s.ttft.p99, text, "p99_ttft_ms");
	same_digits(s.itl.mean, text, "mean_itl_ms");
	same_digits(s.itl.p50, text, "median_itl_ms");
	same_digits(s.itl.p99, text, "p99_itl_ms");
	assert_int_equal(s.tpot.n, 162);
	assert_true(fabs(s.tpot.mean / run->metric[PL_M_TPOT_MEAN] - 1) < 1e-6);
	assert_true(fabs(s.tpot.p50 / run->metric[PL_M_TPOT_P50] - 1) < 1e-6);
	assert_true(fabs(s.tpot.p99 / run->metric[PL_M_TPOT_P99] - 1) < 1e-6);
	free(text);
	pl_run_list_release(&l);
}

static void codec_round_trip_and_size(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	struct pl_requests back;
	struct pl_requests *rq;
	size_t values;

	(void)state;
	if (parse_file("vllm_serving/llmk8s_dsv25_tp8pp2_qps_inf_full.json", NULL, &l, &err))
		fail_msg("%s", err.message);
	rq = l.v[0].requests;
	assert_int_equal(pl_store_requests_encode(rq, &err), 0);
	assert_int_equal(pl_store_requests_decode(rq->blob, rq->nblob, &back, &err), 0);
	assert_int_equal(back.n, rq->n);
	assert_int_equal(back.ngaps, rq->ngaps);
	assert_int_equal(back.columns, rq->columns);
	assert_memory_equal(back.ttft, rq->ttft, rq->n * sizeof(double));
	assert_memory_equal(back.gaps, rq->gaps, rq->ngaps * sizeof(double));
	assert_memory_equal(back.gap_off, rq->gap_off, (rq->n + 1) * sizeof(size_t));
	assert_memory_equal(back.output_tokens, rq->output_tokens, rq->n * sizeof(int64_t));
	/* encoding the decoded set gives the same bytes */
	free(back.blob);
	back.blob = NULL;
	assert_int_equal(pl_store_requests_encode(&back, &err), 0);
	assert_int_equal(back.nblob, rq->nblob);
	assert_memory_equal(back.blob, rq->blob, rq->nblob);
	/* the figure of docs/requests.md: 169,297 bytes for 200 requests x 4
	 * columns (outcome, input, output, TTFT) + 200 gap counts + 41,971
	 * gaps = 42,971 values: 3.94 bytes per request and metric */
	values = 4 * rq->n + rq->n + rq->ngaps;
	assert_int_equal(rq->nblob, 169297);
	assert_int_equal(values, 42971);
	assert_true((double)rq->nblob / (double)values < 4.0);
	pl_requests_release(&back);
	/* a damaged blob is refused, never half-read */
	rq->blob[rq->nblob / 2] ^= 0x55;
	assert_int_equal(pl_store_requests_decode(rq->blob, rq->nblob, &back, &err), PL_EINVALID);
	assert_int_equal(pl_store_requests_decode("PLRQ\2", 5, &back, &err), PL_EINVALID);
	assert_int_equal(pl_store_requests_decode("XXXX\1", 5, &back, &err), PL_EINVALID);
	pl_run_list_release(&l);
}

/* The statistics computed in the set's own gap array (`requests`) equal
 * those of a copy to the last bit, failed requests' gaps squeezed out
 * alike; and a set decoded a window at a time (the payload of the corpus's
 * file is 335 KB: several 64 KiB windows, planes straddling them) holds
 * the very columns encoded. */
static void same_stats(struct pl_requests *rq)
{
	struct pl_rq_stats a, b;
	struct pl_requests *dup = pl_requests_dup(rq);

	assert_non_null(dup);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	assert_int_equal(pl_requests_stats(rq, &a), 0);
	assert_int_equal(pl_requests_stats_consume(dup, &b), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_null(dup->gaps);
	assert_int_equal(dup->columns & PL_RQ_GAPS, 0);
	pl_requests_free(dup);
}

static void stats_in_place_and_windows(void **state)
{
	struct pl_run_list l = {0}, small = {0};
	struct pl_requests back, *rq;
	struct pl_error err;

	(void)state;
	parse_fixture("vllm_detailed_small.json", &small);
	same_stats(small.v[0].requests);
	/* a failed request holding gaps (a decoded blob may): not pooled */
	rq = small.v[0].requests;
	for (size_t i = 0; i < rq->n; i++)
		if (rq->error[i] == 0 && rq->gap_off[i + 1] > rq->gap_off[i]) {
			rq->error[i] = 1;
			if (!rq->nerrors) {
				rq->errors = calloc(1, sizeof(char *));
				assert_non_null(rq->errors);
				rq->errors[0] = strdup("boom");
				rq->nerrors = 1;
			}
			break;
		}
	same_stats(rq);
	pl_run_list_release(&small);
	if (parse_file("vllm_serving/llmk8s_dsv25_tp8pp2_qps_inf_full.json", NULL, &l, &err))
		fail_msg("%s", err.message);
	rq = l.v[0].requests;
	same_stats(rq);
	assert_int_equal(pl_store_requests_encode(rq, &err), 0);
	assert_int_equal(pl_store_requests_decode(rq->blob, rq->nblob, &back, &err), 0);
	assert_int_equal(back.nerrors, rq->nerrors);
	assert_memory_equal(back.error, rq->error, rq->n * sizeof(uint32_t));
	assert_memory_equal(back.input_tokens, rq->input_tokens, rq->n * sizeof(int64_t));
	assert_memory_equal(back.gaps, rq->gaps, rq->ngaps * sizeof(double));
	assert_memory_equal(back.blob, rq->blob, rq->nblob);
	pl_requests_release(&back);
	/* cut short, or one byte more: refused */
	assert_int_equal(pl_store_requests_decode(rq->blob, rq->nblob - 1, &back, &err), PL_EINVALID);
	assert_string_equal(err.message, "the requests blob is damaged (it does not inflate)");
	pl_run_list_release(&l);
}

static void base64_round_trip(void **state)
{
	unsigned char *out;
	size_t n;
	char *s;

	(void)state;
	s = pl_base64_encode("perfledger", 10);
	assert_string_equal(s, "cGVyZmxlZGdlcg==");
	assert_int_equal(pl_base64_decode(s, &out, &n), 0);
	assert_int_equal(n, 10);
	assert_memory_equal(out, "perfledger", 10);
	free(out);
	free(s);
	assert_int_equal(pl_base64_decode("cGVy*mxl", &out, &n), -1);
	assert_int_equal(pl_base64_decode("cGV", &out, &n), -1);
	assert_int_equal(pl_base64_decode("=GVy", &out, &n), -1);
}

/* A detailed file with one thing wrong: refused, naming the request. */
static void refused(const char *arrays, const char *field, const char *message)
{
	char text[2048];
	struct pl_run_list l = {0};
	struct pl_error err;

	snprintf(text, sizeof(text),
	         "{\"date\": \"20250101-000000\", \"backend\": \"vllm\", \"model_id\": \"m\", "
	         "\"num_prompts\": 3, \"completed\": 3, \"duration\": 1.0, \"mean_ttft_ms\": 100, %s}",
	         arrays);
	assert_int_not_equal(parse_str("bad.json", text, &l, &err), 0);
	assert_int_equal(err.code, PL_EINVALID);
	assert_string_equal(err.field, field);
	if (!strstr(err.message, message))
		fail_msg("message '%s' lacks '%s'", err.message, message);
	pl_run_list_release(&l);
}

static void bad_input_refused(void **state)
{
	(void)state;
	refused("\"ttfts\": [0.1, 0.2, 0.3], \"output_lens\": [2, 2], \"itls\": [[0.1], [0.1], [0.1]]",
	        "output_lens", "per-request arrays of different lengths: 'output_lens' has 2 entries, "
	                       "'ttfts' 3");
	refused("\"ttfts\": [0.1, -0.2, 0.3], \"output_lens\": [2, 2, 2], \"itls\": [[0.1], [0.1], [0.1]]",
	        "requests[1].ttft", "request 1: ttft is negative or not finite");
	refused("\"ttfts\": [0.1, 0.2, 0.3], \"output_lens\": [2, 2, 2], \"itls\": [[0.1], [0.1], [-0.1]]",
	        "requests[2].itl", "request 2: itl has a negative or non-finite gap");
	/* three gaps cannot follow two tokens */
	refused("\"ttfts\": [0.1, 0.2, 0.3], \"output_lens\": [2, 2, 2], "
	        "\"itls\": [[0.1], [0.1, 0.1, 0.1], [0.1]]",
	        "requests[1].output_tokens", "request 1: output_tokens is fewer than the gaps + 1");
	/* a completed request of one token, or of none, has no gap after its
	 * first (it was left out of TPOT while 10 s of gaps went unchecked) */
	refused("\"ttfts\": [0.1, 0.2, 0.3], \"output_lens\": [2, 1, 2], "
	        "\"itls\": [[0.1], [5, 5], [0.1]]",
	        "requests[1].output_tokens", "request 1: output_tokens is fewer than the gaps + 1");
	refused("\"ttfts\": [0.1, 0.2, 0.3], \"output_lens\": [2, 2, 0], "
	        "\"itls\": [[0.1], [0.1], [3]]",
	        "requests[2].output_tokens", "request 2: output_tokens is fewer than the gaps + 1");
	refused("\"ttfts\": [0.1, \"x\", 0.3]", "ttfts[1]", "request 1: 'ttfts' must be a number");
	refused("\"ttfts\": [0.1, 0.2, 0.3], \"output_lens\": [2, 2.5, 2]", "output_lens[1]",
	        "request 1: 'output_lens' must be a whole number of tokens");
}

/* pl_requests_derive on the same file: the latencies become those the
 * requests give (p90 and p95, which the file's summary lacks, too), the
 * tool's figures are kept as tool_summary.*, the ITL standard deviation
 * is numpy's over the six gaps (deviations from the mean 14/300 of
 * 1, 7, 16, -8, -8, -8 /300: sqrt(498 / 6) / 300 = sqrt(83) / 300) against
 * the file's 0.02906888370749727 (+4.5%: named in a warning), and the run
 * is marked perfledger.latencies = requests. */
static void derive_by_hand(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	struct pl_run *r;
	const struct pl_measure *m;

	(void)state;
	parse_fixture("vllm_detailed_small.json", &l);
	r = &l.v[0];
	pl_error_init(&err);
	assert_false(r->has_metric[PL_M_TTFT_P90]);
	assert_int_equal(pl_requests_derive(r, &err), 0);
	CLOSE(r->metric[PL_M_TTFT_P90], 0.37);
	CLOSE(r->metric[PL_M_TTFT_P95], 0.385);
	CLOSE(r->metric[PL_M_TPOT_MAX], 0.1);
	CLOSE(r->metric[PL_M_ITL_STD], sqrt(83.0) / 300);
	CLOSE(r->metric[PL_M_E2EL_MIN], 0.22);
	assert_non_null(m = pl_run_measure(r, "tool_summary.itl_std"));
	assert_true(m->is_num);
	assert_true(m->num == 0.02906888370749727);
	assert_non_null(m = pl_run_measure(r, "tool_summary.ttft_p99"));
	assert_true(m->num == 0.397);
	assert_null(pl_run_measure(r, "tool_summary.ttft_p90")); /* the file had none */
	assert_string_equal(pl_run_extra(r, PL_RQ_SOURCE_EXTRA), "requests");
	assert_non_null(r->warnings);
	assert_non_null(strstr(r->warnings, "itl recomputed from the requests differs from the "
	                                    "tool's summary by more than 1%: itl_std 0.0303681 s "
	                                    "(tool 0.0290689 s, +4.5%); likely the first-token gap "
	                                    "counted in ITL, or gaps averaged per request, or the "
	                                    "failed requests counted"));
	assert_null(strstr(r->warnings, "ttft")); /* TTFT agrees with the tool's */
	pl_run_list_release(&l);
}

/* A set encoded already (the import encodes before deriving) is derived
 * without a copy of its gaps: the same figures to the last bit as the
 * copying path, its gaps freed with their count kept, its blob the bytes
 * the columns encode to. */
static void derive_encoded_no_copy(void **state)
{
	struct pl_run_list a = {0}, b = {0};
	struct pl_error err;
	struct pl_requests *rq;
	unsigned char *blob;
	size_t nblob;

	(void)state;
	parse_fixture("vllm_detailed_small.json", &a);
	parse_fixture("vllm_detailed_small.json", &b);
	pl_error_init(&err);
	assert_int_equal(pl_requests_derive(&a.v[0], &err), 0);
	rq = b.v[0].requests;
	assert_int_equal(pl_store_requests_encode(rq, &err), 0);
	nblob = rq->nblob;
	assert_non_null(blob = malloc(nblob));
	memcpy(blob, rq->blob, nblob);
	assert_int_equal(pl_requests_derive(&b.v[0], &err), 0);
	assert_memory_equal(a.v[0].metric, b.v[0].metric, sizeof(a.v[0].metric));
	assert_memory_equal(a.v[0].has_metric, b.v[0].has_metric, sizeof(a.v[0].has_metric));
	assert_null(rq->gaps);
	assert_int_equal(rq->ngaps, 6);
	assert_int_equal(rq->nblob, nblob);
	assert_memory_equal(rq->blob, blob, nblob);
	assert_non_null(a.v[0].requests->gaps); /* the copying path keeps them */
	free(blob);
	pl_run_list_release(&a);
	pl_run_list_release(&b);
}

/* The 1% rule at its boundary: one request of TTFT 101 s against a tool
 * mean of 100 s differs by exactly 1% (101 - 100 = 0.01 x 100, exact in
 * binary): no warning; 101.5 s is over it. A run without requests is left
 * as it is. */
static void derive_agree_boundary(void **state)
{
	static const double ttft[] = {101, 101.5};
	static const int warned[] = {0, 1};

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct pl_run r;
		struct pl_error err;

		pl_run_init(&r);
		pl_error_init(&err);
		pl_run_set_metric(&r, PL_M_TTFT_MEAN, 100);
		assert_int_equal(pl_requests_derive(&r, &err), 0); /* no requests: nothing */
		assert_null(pl_run_extra(&r, PL_RQ_SOURCE_EXTRA));
		assert_true(r.metric[PL_M_TTFT_MEAN] == 100);
		assert_non_null(r.requests = pl_requests_new());
		assert_int_equal(pl_requests_push(r.requests, NULL, 10, 1, ttft[k], ttft[k]), 0);
		assert_int_equal(pl_requests_derive(&r, &err), 0);
		assert_true(r.metric[PL_M_TTFT_MEAN] == ttft[k]);
		assert_true(pl_run_measure(&r, "tool_summary.ttft_mean")->num == 100);
		assert_int_equal(r.warnings != NULL && strstr(r.warnings, "ttft_mean") != NULL, warned[k]);
		pl_run_release(&r);
	}
}

/* The checks that need an E2EL column (AIPerf and llmperf record one). */
static void check_with_e2el(void **state)
{
	struct pl_requests rq;
	struct pl_error err;

	(void)state;
	pl_requests_init(&rq);
	pl_error_init(&err);
	assert_int_equal(pl_requests_push(&rq, NULL, 10, 3, 0.1, 0.3), 0);
	assert_int_equal(pl_requests_add_gap(&rq, 0.1), 0);
	assert_int_equal(pl_requests_add_gap(&rq, 0.1), 0);
	assert_int_equal(pl_requests_check(&rq, &err), 0);
	/* gaps summing to 0.2 against E2EL - TTFT = 0.204: within the
	 * tolerance 1% x 0.304 + 1 ms = 0.00404 */
	assert_int_equal(pl_requests_push(&rq, NULL, 10, 3, 0.1, 0.304), 0);
	assert_int_equal(pl_requests_add_gap(&rq, 0.1), 0);
	assert_int_equal(pl_requests_add_gap(&rq, 0.1), 0);
	assert_int_equal(pl_requests_check(&rq, &err), 0);
	/* 0.2 against 0.2041: 0.0041 beyond 1% x 0.3041 + 1 ms = 0.004041 */
	assert_int_equal(pl_requests_push(&rq, NULL, 10, 3, 0.1, 0.3041), 0);
	assert_int_equal(pl_requests_add_gap(&rq, 0.1), 0);
	assert_int_equal(pl_requests_add_gap(&rq, 0.1), 0);
	assert_int_equal(pl_requests_check(&rq, &err), PL_EINVALID);
	assert_string_equal(err.field, "requests[2].itl");
	pl_requests_release(&rq);
	pl_requests_init(&rq);
	assert_int_equal(pl_requests_push(&rq, NULL, 10, 3, 0.5, 0.3), 0);
	assert_int_equal(pl_requests_check(&rq, &err), PL_EINVALID);
	assert_string_equal(err.field, "requests[0].ttft");
	pl_requests_release(&rq);
	pl_requests_init(&rq);
	assert_int_equal(pl_requests_push(&rq, NULL, 10, 3, 0.1, INFINITY), 0);
	assert_int_equal(pl_requests_check(&rq, &err), PL_EINVALID);
	assert_string_equal(err.field, "requests[0].e2el");
	pl_requests_release(&rq);
}

/* numpy's percentile and median rounding, at the boundaries */
static void percentile_edges(void **state)
{
	const double one[] = {7.0};
	const double two[] = {1.0, 2.0};

	(void)state;
	CLOSE(pl_rq_percentile(one, 1, 99), 7.0);
	CLOSE(pl_rq_median(one, 1), 7.0);
	CLOSE(pl_rq_percentile(two, 2, 0), 1.0);
	CLOSE(pl_rq_percentile(two, 2, 100), 2.0);
	CLOSE(pl_rq_percentile(two, 2, 50), 1.5);
	CLOSE(pl_rq_median(two, 2), 1.5);
}

/* The percentiles' 95% intervals (core/requests.h) on 20 completed
 * requests and a failed one: TTFT k / 100 s for k = 1..20 (pushed out of
 * order), E2EL = TTFT + 1 s, 2 output tokens (TPOT = 1 s each). Sorted,
 * x_(k) = k / 100. The median's ranks at n = 20 (test_stats.c
 * quantile_ci_ranks: P(B <= 5) = 0.0207 <= 0.025 < P(B <= 6), B ~
 * Binomial(20, 1/2)) are l = 6, u = 15: TTFT p50 0.105 s in [0.06, 0.15],
 * E2EL in [1.06, 1.15]; TPOT's 20 equal values give [1, 1]. p90 and above
 * need n >= 36 (0.9^20 = 0.12 > 0.025): n/a. The failed request is not a
 * value. With the first 5 requests alone the median too is n/a (0.5^5 =
 * 0.031 > 0.025); with 6 it is [x_(1), x_(6)]. */
static void percentile_intervals(void **state)
{
	static const int order[20] = {7, 3, 20, 1, 14, 9, 18, 5, 12, 16,
	                              2, 11, 19, 6, 13, 4, 17, 8, 10, 15};
	struct pl_requests rq;
	struct pl_rq_stats st;

	(void)state;
	pl_requests_init(&rq);
	for (int i = 0; i < 5; i++)
		assert_int_equal(pl_requests_push(&rq, NULL, 10, 2, order[i] / 100.0,
		                                  order[i] / 100.0 + 1), 0);
	assert_int_equal(pl_requests_stats(&rq, &st), 0);
	assert_int_equal(st.ttft.n, 5);
	assert_true(isnan(st.ttft.ci_low[0]) && isnan(st.ttft.ci_high[0]));
	assert_int_equal(pl_requests_push(&rq, NULL, 10, 2, order[5] / 100.0, order[5] / 100.0 + 1), 0);
	assert_int_equal(pl_requests_stats(&rq, &st), 0);
	/* TTFT 0.07 0.03 0.2 0.01 0.14 0.09: [x_(1), x_(6)] = [0.01, 0.2] */
	assert_true(st.ttft.ci_low[0] == 0.01 && st.ttft.ci_high[0] == 0.2);
	for (int i = 6; i < 20; i++)
		assert_int_equal(pl_requests_push(&rq, NULL, 10, 2, order[i] / 100.0,
		                                  order[i] / 100.0 + 1), 0);
	assert_int_equal(pl_requests_push(&rq, "boom", 10, -1, NAN, NAN), 0);
	assert_int_equal(pl_requests_stats(&rq, &st), 0);
	assert_int_equal(st.ttft.n, 20);
	CLOSE(st.ttft.p50, 0.105);
	assert_true(st.ttft.ci_low[0] == 0.06 && st.ttft.ci_high[0] == 0.15);
	assert_true(st.e2el.ci_low[0] == 0.06 + 1 && st.e2el.ci_high[0] == 0.15 + 1);
	assert_int_equal(st.tpot.n, 20);
	CLOSE(st.tpot.ci_low[0], 1.0);
	CLOSE(st.tpot.ci_high[0], 1.0);
	for (int k = 1; k < PL_RQ_NPCT; k++)
		assert_true(isnan(st.ttft.ci_low[k]) && isnan(st.ttft.ci_high[k]));
	assert_int_equal(st.itl.n, 0);
	assert_true(isnan(st.itl.ci_low[0]));
	pl_requests_release(&rq);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vllm_small_by_hand),
		cmocka_unit_test(vllm_small_grade),
		cmocka_unit_test(derive_by_hand),
		cmocka_unit_test(derive_agree_boundary),
		cmocka_unit_test(derive_encoded_no_copy),
		cmocka_unit_test(slo_parse_errors),
		cmocka_unit_test(corpus_vllm_reproduces),
		cmocka_unit_test(codec_round_trip_and_size),
		cmocka_unit_test(stats_in_place_and_windows),
		cmocka_unit_test(base64_round_trip),
		cmocka_unit_test(bad_input_refused),
		cmocka_unit_test(check_with_e2el),
		cmocka_unit_test(percentile_edges),
		cmocka_unit_test(percentile_intervals),
	};

	pl_adapters_init();
	return shared_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
