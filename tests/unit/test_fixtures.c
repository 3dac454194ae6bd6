/*
 * test_fixtures.c — every adapter on the project's own fixtures
 * (tests/fixtures/<adapter>/), so every format and rule is tested on a bare
 * clone with no ../shared beside it.
 *
 * The fixtures were written for this project (never copied from the
 * corpus), one small file per format and format version, each with the
 * quirks that matter for its format: units (ms, ns, s), nulls, failed
 * requests, Infinity / "inf", a key no inventory knows (kept as an extra
 * with a warning), a percentile without a canonical slot (ignored). Every
 * expected value is worked out by hand from the fixture; the arithmetic is
 * in the comment next to it. Values compare with a relative tolerance of
 * 1e-12. A fixture's refusals are tested on a copy changed in memory
 * (mutate()), with the exact message.
 *
 * test_every_adapter_has_fixtures fails when an adapter has no fixture
 * directory, or a format version its inventory lists has no fixture file
 * (the table fixtures[] below).
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
#include <sys/stat.h>

#include "adapters/adapters.h"
#include "core/error.h"
#include "core/model.h"
#include "import/import.h"
#include "import/import_impl.h"

#include "corpus_fixture.h"

/* ------------------------------------------------------------ the table */

/* One fixture file: the adapter that reads it, the format version (as in
 * the adapter's inventory: "" for a format without versions) and the
 * file, relative to tests/fixtures/. */
static const struct {
	const char *adapter;
	const char *version;
	const char *file;
} fixtures[] = {
	{"descriptor", "1", "descriptor/run.json"},
	{"vllm-serving", "", "vllm-serving/bench_serve.json"},
	{"sglang-bench-serving", "", "sglang-bench-serving/bench_serving.jsonl"},
	{"llmperf", "2023-08-31", "llmperf/llmperf_summary.json"},
	{"llmperf", "2026-01-20", "llmperf/llmnop_summary.json"},
	{"aiperf", "1.1", "aiperf/profile_export_aiperf.json"},
	{"aiperf", "", "aiperf/profile_export_genai_perf.json"},
	{"llama-bench", "", "llama-bench/llama_bench.json"},
	{"llama-bench", "", "llama-bench/llama_bench.jsonl"},
	{"inferencemax", "", "inferencemax/agg_result.json"},
	{"guidellm", "0.2", "guidellm/report_0.2.json"},
	{"guidellm", "0.2", "guidellm/report_0.2.yaml"},
	{"guidellm", "0.4", "guidellm/benchmarks_0.4.json"},
	{"guidellm", "1", "guidellm/report_v1.json"},
	{"guidellm", "2", "guidellm/report_v2.json"},
	{"mlperf", "", "mlperf/server_summary.txt"},
	{"mlperf", "", "mlperf/offline_summary.txt"},
	{"aiperf-csv", "", "aiperf-csv/profile_export_aiperf.csv"},
	{"genai-perf-analyze", "", "genai-perf-analyze/analyze_export_genai_perf.csv"},
	{"inferencemax-summary-csv", "", "inferencemax-summary-csv/summary.csv"},
	{"trtllm-bench", "", "trtllm-bench/throughput_tp2_1.2.0.json"},
	{"vllm-offline", "throughput", "vllm-offline/throughput.json"},
	{"vllm-offline", "latency", "vllm-offline/latency.json"},
	{"genai-bench", "per-run", "genai-bench/d16_8_c2_stream_503.json"},
	{"genai-bench", "per-run", "genai-bench/n480_c1_nonstream.json"},
	{"inference-perf", "lifecycle", "inference-perf/stage_0_lifecycle_metrics.json"},
	{"inference-benchmarker", "0.2", "inference-benchmarker/results_sweep.json"},
	{"inference-benchmarker", "0.2", "inference-benchmarker/results_throughput_1.0.json"},
	{"evalscope", "1.0-summary", "evalscope/benchmark_summary.json"},
	{"evalscope", "1.0-percentile", "evalscope/benchmark_percentile.json"},
	{"ledger", "1", "ledger/export.jsonl"},
	{"ledger", "1", "ledger/list.json"},
};
#define NFIXTURES (sizeof(fixtures) / sizeof(fixtures[0]))

/* A sha256 for pl_import_prepare (the importer's hash of the bytes). */
#define SHA "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

/* ------------------------------------------------------------- helpers */

static void fixture_path(const char *rel, char *path, size_t size)
{
	int n = snprintf(path, size, "%s/%s", PL_FIXTURES_DIR, rel);
	assert_true(n > 0 && (size_t)n < size);
}

/* Parses fixture rel into *l (initialised here); must succeed. */
static void load(const char *rel, struct pl_run_list *l)
{
	char path[4096];
	struct pl_error err;
	size_t len;
	char *buf;
	int rc;

	fixture_path(rel, path, sizeof(path));
	buf = slurp(path, &len);
	pl_run_list_init(l);
	pl_error_init(&err);
	rc = pl_adapters_parse(path, buf, len, NULL, l, &err);
	free(buf);
	if (rc)
		fail_msg("%s: rc %d: %s", rel, rc, err.message);
}

/* Fixture rel with the first occurrence of each subs[2i] replaced by
 * subs[2i + 1] in turn (each must be there; subs ends with NULL), parsed:
 * returns the result, the runs in *l and the error in *err. */
static int parse_edited(const char *rel, const char *const *subs, struct pl_run_list *l,
                        struct pl_error *err)
{
	char path[4096];
	size_t len;
	char *buf;
	int rc;

	fixture_path(rel, path, sizeof(path));
	buf = slurp(path, &len);
	buf[len] = '\0';
	for (size_t i = 0; subs[i]; i += 2) {
		size_t flen = strlen(subs[i]), tlen = strlen(subs[i + 1]), at;
		char *hit = strstr(buf, subs[i]), *text;
		if (!hit) {
			free(buf);
			fail_msg("%s: no '%s' to replace", rel, subs[i]);
		}
		at = (size_t)(hit - buf);
		text = malloc(len - flen + tlen + 1);
		assert_non_null(text);
		memcpy(text, buf, at);
		memcpy(text + at, subs[i + 1], tlen);
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

static int parse_mutated(const char *rel, const char *from, const char *to,
                         struct pl_run_list *l, struct pl_error *err)
{
	const char *const subs[] = {from, to, NULL};
	return parse_edited(rel, subs, l, err);
}

/* The edited fixture is refused with code and exactly message; nothing
 * is appended. */
static void refused_edited(const char *rel, const char *const *subs, int code,
                           const char *message)
{
	struct pl_run_list l;
	struct pl_error err;
	int rc = parse_edited(rel, subs, &l, &err);

	if (rc != code)
		fail_msg("%s ('%s' -> '%s'): rc %d (%s), want %d", rel, subs[0], subs[1], rc,
		         err.message, code);
	assert_string_equal(err.message, message);
	assert_int_equal(l.n, 0);
	pl_run_list_release(&l);
}

static void refused(const char *rel, const char *from, const char *to, int code,
                    const char *message)
{
	const char *const subs[] = {from, to, NULL};
	refused_edited(rel, subs, code, message);
}

/* The edited fixture parses, its run `record` a failed run (issue 13:
 * no request completed is stored and flagged, never refused). */
static void failed_edited(const char *rel, const char *from, const char *to, size_t record,
                          double failed)
{
	struct pl_run_list l;
	struct pl_error err;
	int rc = parse_mutated(rel, from, to, &l, &err);

	if (rc != 0)
		fail_msg("%s ('%s' -> '%s'): rc %d (%s), want 0", rel, from, to, rc, err.message);
	assert_true(l.n > record);
	expect_failed_run(&l.v[record], failed);
	pl_run_list_release(&l);
}

static void expect_origin(const struct pl_run *r, const char *adapter, const char *version,
                          long record)
{
	assert_string_equal(r->adapter, adapter);
	if (version)
		assert_string_equal(r->format_version ? r->format_version : "(none)", version);
	else if (r->format_version)
		fail_msg("format_version should be unset, is '%s'", r->format_version);
	assert_int_equal(r->record, record);
}

/* ------------------------------------------------------------ coverage */

/* Every adapter has tests/fixtures/<name>/, every version its inventory
 * lists has a fixture file in the table, and every file of the table
 * exists and is read by its adapter, in its version. */
static void test_every_adapter_has_fixtures(void **state)
{
	size_t n;
	const struct pl_adapter_info *a = pl_adapters_list(&n);
	int missing = 0;

	(void)state;
	assert_true(n > 0);
	for (size_t i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		fixture_path(a[i].name, path, sizeof(path));
		if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
			print_error("adapter %s has no fixture directory %s\n", a[i].name, path);
			missing++;
		}
		for (const struct pl_format_version *v = a[i].inventory; v && v->version; v++) {
			size_t k;
			for (k = 0; k < NFIXTURES; k++)
				if (strcmp(fixtures[k].adapter, a[i].name) == 0 &&
				    strcmp(fixtures[k].version, v->version) == 0)
					break;
			if (k == NFIXTURES) {
				print_error("adapter %s, format version '%s' (%s): no fixture file\n",
				            a[i].name, v->version, v->note);
				missing++;
			}
		}
	}
	for (size_t k = 0; k < NFIXTURES; k++) {
		size_t i;
		for (i = 0; i < n; i++)
			if (strcmp(a[i].name, fixtures[k].adapter) == 0)
				break;
		if (i == n) {
			print_error("fixture %s names no adapter '%s'\n", fixtures[k].file,
			            fixtures[k].adapter);
			missing++;
		}
	}
	if (missing)
		fail_msg("%d adapter(s) or format version(s) without a fixture", missing);
	for (size_t k = 0; k < NFIXTURES; k++) {
		struct pl_run_list l;
		load(fixtures[k].file, &l);
		assert_true(l.n >= 1);
		for (size_t r = 0; r < l.n; r++) {
			/* a ledger record keeps its source's adapter and version */
			const char *by = l.v[r].provenance_given ? "ledger" : l.v[r].adapter;
			const char *fv = l.v[r].provenance_given ? "1"
			                 : l.v[r].format_version ? l.v[r].format_version : "";
			if (strcmp(by, fixtures[k].adapter) != 0 || strcmp(fv, fixtures[k].version) != 0)
				fail_msg("%s run %zu: read by %s version '%s', want %s version '%s'",
				         fixtures[k].file, r, by, fv, fixtures[k].adapter, fixtures[k].version);
		}
		validate_all(&l); /* every fixture run is a valid run once --set fills the rest */
		pl_run_list_release(&l);
	}
}

/* ---------------------------------------------------------- descriptor */

static void test_descriptor(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("descriptor/run.json", &l);
	assert_int_equal(l.n, 1);
	expect_origin(&l.v[0], "descriptor", "1", 0);
	static const struct kt c[] = {
		{"model", "fixture-model-7b"}, {"precision", "bfloat16"}, {"engine", "vllm"},
		{"engine_version", "0.6.3"}, {"hardware", "2x NVIDIA A100 80G"},
		{"input_tokens", "512"}, {"max_output_tokens", "256"}, {"concurrency", "8"},
		{"request_rate", "inf"}, /* the string "inf": all requests at once */
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_p50", 0.25},             /* ttft_p50_ms 250 / 1000 */
		{"ttft_p99_9", 1.5},            /* ttft_p99.9_s: seconds as written */
		{"e2el_p50", 4.0},              /* e2el_median, no suffix = seconds */
		{"tokens_per_second_mean", 40}, /* tok/s, no suffix */
		{"output_throughput", 320},
		{"error_rate", 0.125},          /* 1 failed of 8 */
		{"requests_completed", 7}, {"requests_failed", 1},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 8);
	assert_int_equal(l.v[0].nextra, 0); /* x_note: an extension key, ignored */
	expect_warnings(&l.v[0], NULL);
	pl_run_list_release(&l);
	refused("descriptor/run.json", "\"output_throughput\": 320", "\"output_thruput\": 320",
	        PL_EINVALID,
	        "unknown metric 'output_thruput' (see schema/descriptor.md for metric names)");
}

/* ------------------------------------------------------------- ledger */

/* perfledger's own records (issue 13): an export line and a list entry
 * keep their provenance as written, and carry the run's trail. */
static void test_ledger(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("ledger/export.jsonl", &l);
	assert_int_equal(l.n, 2);
	expect_origin(&l.v[0], "vllm-serving", NULL, 0); /* the source's adapter, no version */
	expect_origin(&l.v[1], "descriptor", "1", 7);    /* record 7 of its source, line 2 here */
	assert_int_equal(l.v[0].provenance_given, 2); /* an export line */
	assert_string_equal(l.v[0].source, "results/a100.json");
	assert_string_equal(l.v[0].imported_at, "2026-03-02T00:00:00Z");
	assert_string_equal(l.v[1].sha256,
	                    "2222222222222222222222222222222222222222222222222222222222222222");
	static const struct kt c[] = {
		{"model", "fixture-model-7b"}, {"engine_version", "0.6.3"},
		{"accelerator_count", "2"}, {"request_rate", "inf"}, {"streaming", "true"},
		{"run_started_at", "2026-03-01T12:00:00Z"}, {NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_p50", 0.25}, {"output_throughput", 320},
		{"output_throughput_per_accelerator", 160}, /* a canonical name, canonical unit */
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 3);
	assert_string_equal(pl_run_extra(&l.v[0], "vllm-serving.best_of"), "4");
	assert_non_null(l.v[0].carried);
	assert_null(l.v[1].carried);
	pl_run_list_release(&l);
	refused("ledger/export.jsonl", "\"record\": 0", "\"record\": -1", PL_EINVALID,
	        "'record' must be a whole number >= 0, got -1");
	refused("ledger/export.jsonl", "\"restored_by\": \"carol\"", "\"x\": 1", PL_EINVALID,
	        "a restored retraction needs restored_at, restore_reason and restored_by together");

	load("ledger/list.json", &l);
	assert_int_equal(l.n, 1);
	expect_origin(&l.v[0], "guidellm", "0.4", 2);
	static const struct kt c2[] = {
		{"hardware", "1x NVIDIA L40S 48G"}, {"concurrency", "16"}, {"streaming", "false"},
		{NULL, NULL},
	};
	static const struct kv m2[] = {
		{"ttft_p95", 0.5}, {"tokens_per_second_p50", 48.5}, {"prefill_tokens_per_second", 9000},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c2);
	expect_metrics(&l.v[0], m2);
	assert_int_equal(nmetrics(&l.v[0]), 3);
	assert_string_equal(pl_run_extra(&l.v[0], "guidellm.profile"), "sweep");
	pl_run_list_release(&l);
	refused("ledger/list.json", "\"id\": 41", "\"colour\": 41", PL_EINVALID,
	        "record 0: unknown field 'colour' in a perfledger list entry");
}

/* ---------------------------------------------------------------- vLLM */

static void test_vllm_serving(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("vllm-serving/bench_serve.json", &l);
	assert_int_equal(l.n, 1);
	expect_origin(&l.v[0], "vllm-serving", NULL, 0);
	static const struct kt c[] = {
		{"model", "fixture/model-1b"},
		{"api_backend", "openai-chat"},       /* backend; endpoint_type equal: no extra */
		{"run_started_at", "2026-03-01T12:00:00"}, /* date 20260301-120000, no zone */
		{"num_prompts", "10"},
		{"request_rate", "inf"},              /* "inf" */
		{"burstiness", "1"},
		{"concurrency", "4"},                 /* max_concurrency */
		{"benchmark_tool", "vllm-bench-serve"},
		{"engine", NULL}, {"hardware", NULL}, /* not in the file: supplied, never guessed */
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_mean", 0.12},        /* mean_ttft_ms 120 / 1000 */
		{"ttft_p50", 0.1},          /* median_ttft_ms 100 / 1000 */
		{"ttft_std", 0.03},         /* std_ttft_ms 30 / 1000 */
		{"ttft_p99", 0.25},         /* p99_ttft_ms 250 / 1000 */
		{"ttft_p90", MISSING},      /* p75_ttft_ms has no canonical slot: ignored */
		{"tpot_mean", 0.02}, {"tpot_p50", 0.018}, {"tpot_p99", 0.04},
		{"itl_mean", 0.0195},       /* 19.5 ms */
		{"itl_p99_9", 0.055},       /* p99.9_itl_ms 55 / 1000 */
		{"e2el_mean", 1.1},         /* 1100 ms */
		{"output_throughput", 160}, {"total_token_throughput", 480},
		{"request_throughput", 3.2},
		{"goodput", MISSING},       /* request_goodput null */
		{"requests_completed", 8}, {"requests_failed", 2},
		{"error_rate", 0.2},        /* failed / (completed + failed) = 2 / 10 */
		{"total_input_tokens", 800}, {"total_output_tokens", 400},
		{"duration", 2.5},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 19);
	expect_extra(&l.v[0], "vllm-serving.fixture_unknown_key", "kept");
	expect_extra(&l.v[0], "vllm-serving.tokenizer_id", "fixture/model-1b");
	assert_int_equal(l.v[0].nextra, 2);
	expect_warnings(&l.v[0], "1 key not in the vllm-serving field inventory: 1 kept as extra condition (fixture_unknown_key)");
	validate_all(&l);
	static const struct kv means[] = {
		{"input_tokens_mean", 100}, /* total_input_tokens / completed = 800 / 8 */
		{"output_tokens_mean", 50}, /* total_output_tokens / completed = 400 / 8 */
		{NULL, 0},
	};
	expect_metrics(&l.v[0], means);
	pl_run_list_release(&l);
	failed_edited("vllm-serving/bench_serve.json", "\"completed\": 8,", "\"completed\": 0,", 0, 2);
}

/* -------------------------------------------------------------- SGLang */

static void test_sglang(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("sglang-bench-serving/bench_serving.jsonl", &l);
	assert_int_equal(l.n, 2);
	expect_origin(&l.v[0], "sglang-bench-serving", NULL, 0);
	expect_origin(&l.v[1], "sglang-bench-serving", NULL, 1);
	static const struct kt c0[] = {
		{"api_backend", "sglang"}, {"dataset", "random"},
		{"request_rate", "inf"},   /* Infinity (a bare JSON extension) */
		{"concurrency", "inf"},    /* max_concurrency null with rate Infinity: unbounded */
		{"input_tokens", "400"}, {"max_output_tokens", "200"}, /* random_*_len */
		{"benchmark_tool", "sglang-bench-serving"},
		{NULL, NULL},
	};
	static const struct kv m0[] = {
		{"e2el_mean", 2.5},        /* 2500 ms */
		{"e2el_p50", 2.4},         /* 2400 ms */
		{"ttft_p50", 0.3},         /* 300 ms */
		{"itl_p50", 0.0125},       /* 12.5 ms */
		{"output_throughput", 400}, {"duration", 5},
		{"requests_completed", 10},
		{"total_input_tokens", 4000}, {"total_output_tokens", 2000},
		{"error_rate", MISSING},   /* no failure count in the file */
		{NULL, 0},
	};
	expect_conds(&l.v[0], c0);
	expect_metrics(&l.v[0], m0);
	assert_int_equal(nmetrics(&l.v[0]), 9);
	assert_int_equal(l.v[0].nextra, 0);
	expect_warnings(&l.v[0], NULL);
	/* line 2: sharegpt at 2 req/s, open loop; its random_*_len do not apply */
	static const struct kt c1[] = {
		{"dataset", "sharegpt"}, {"request_rate", "2"}, {"concurrency", NULL},
		{"input_tokens", NULL}, {"max_output_tokens", NULL}, {NULL, NULL},
	};
	static const struct kv m1[] = {
		{"e2el_p50", 1.25},        /* 1250 ms */
		{"itl_p50", 0.01},         /* 10 ms */
		{"itl_p99_9", MISSING},    /* p999_itl_ms: no canonical slot in SGLang's mapping */
		{NULL, 0},
	};
	expect_conds(&l.v[1], c1);
	expect_metrics(&l.v[1], m1);
	expect_extra(&l.v[1], "sglang-bench-serving.random_input_len", "400");
	expect_extra(&l.v[1], "sglang-bench-serving.random_output_len", "200");
	/* an array of numbers is an unplaced measurement, kept as its JSON text */
	expect_extra(&l.v[1], "sglang-bench-serving.fixture_unknown_key", NULL);
	assert_string_equal(pl_run_measure(&l.v[1], "sglang-bench-serving.fixture_unknown_key")->json,
	                    "[1,2]");
	assert_int_equal(l.v[1].nextra, 2);
	expect_warnings(&l.v[1], "1 key not in the sglang-bench-serving field inventory: 1 kept as "
	                         "unplaced measurement (fixture_unknown_key)");
	validate_all(&l);
	static const struct kv means0[] = {
		{"input_tokens_mean", 400},  /* 4000 / 10 */
		{"output_tokens_mean", 200}, /* 2000 / 10 */
		{NULL, 0},
	};
	static const struct kv means1[] = {
		{"input_tokens_mean", 250},  /* 3000 / 12 */
		{"output_tokens_mean", 125}, /* 1500 / 12 */
		{NULL, 0},
	};
	expect_metrics(&l.v[0], means0);
	expect_metrics(&l.v[1], means1);
	pl_run_list_release(&l);
	failed_edited("sglang-bench-serving/bench_serving.jsonl", "\"completed\": 10}",
	              "\"completed\": 0}", 0, MISSING);
}

/* ---------------------------------------------------------------- llmperf */

static void test_llmperf(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("llmperf/llmperf_summary.json", &l);
	assert_int_equal(l.n, 1);
	expect_origin(&l.v[0], "llmperf", "2023-08-31", 0);
	static const struct kt c[] = {
		{"model", "fixture/model-7b"},
		{"input_tokens", "500"}, {"max_output_tokens", "100"}, /* mean_*_tokens requested */
		{"concurrency", "2"},
		{"run_started_at", "2026-01-01T00:00:00Z"}, /* timestamp 1767225600 */
		{"benchmark_tool", "llmperf"}, {"output_includes_reasoning", NULL},
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_mean", 0.21}, {"ttft_std", 0.05}, /* stddev -> std */
		{"ttft_min", 0.1}, {"ttft_max", 0.45},
		{"ttft_p50", 0.2}, {"ttft_p90", 0.3}, {"ttft_p95", 0.35}, {"ttft_p99", 0.4},
		/* quantiles_p25 0.15 and p75 0.25: no canonical slot, ignored */
		{"tpot_mean", 0.02},       /* results_inter_token_latency_s_mean */
		{"e2el_mean", 2.5}, {"e2el_p50", 2.4},
		{"tokens_per_second_mean", 40},
		{"output_throughput", 76.8},
		{"request_throughput", 0.8}, /* 48 completed per minute / 60 */
		{"requests_completed", 16}, {"requests_failed", 4},
		{"error_rate", 0.2},         /* 4 / (16 + 4) */
		{"input_tokens_mean", 500}, {"output_tokens_mean", 96},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 19);
	expect_extra(&l.v[0], "llmperf.fixture_unknown_key", "7"); /* a number, as JSON text */
	assert_int_equal(l.v[0].nextra, 1);
	expect_warnings(&l.v[0], "1 key not in the llmperf field inventory: 1 kept as extra condition (fixture_unknown_key)");
	pl_run_list_release(&l);
	refused("llmperf/llmperf_summary.json", "\"2023-08-31\"", "\"2024-05-01\"", PL_EFORMAT,
	        "an llmperf-shaped summary of version '2024-05-01' is not read (llmperf 2023-08-31 "
	        "and llmnop 2026-01-20 are)");
}

/* llmnop writes llmperf's shape; its own markers make it llmnop, and its
 * output throughput counts reasoning tokens. */
static void test_llmnop(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("llmperf/llmnop_summary.json", &l);
	assert_int_equal(l.n, 1);
	expect_origin(&l.v[0], "llmperf", "2026-01-20", 0);
	static const struct kt c[] = {
		{"model", "fixture/reasoner-4b"}, {"input_tokens", "300"},
		{"max_output_tokens", NULL}, /* no mean_output_tokens in the file */
		{"concurrency", "1"},
		{"benchmark_tool", "llmnop"}, {"output_includes_reasoning", "true"},
		{"run_started_at", "2026-09-21T14:13:20Z"}, /* 1790000000 */
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_mean", 0.05},         /* results_ttft_s; ttfo (4 s) not stored */
		{"tpot_mean", 0.01}, {"e2el_mean", 5}, {"tokens_per_second_mean", 20},
		{"output_throughput", 100},  /* counts output + reasoning tokens */
		{"request_throughput", 0.2}, /* 12 per minute / 60 */
		{"requests_completed", 10}, {"requests_failed", 0}, {"error_rate", 0},
		{"input_tokens_mean", 300},
		{"output_tokens_mean", 100}, /* visible output only; 400 reasoning tokens not stored */
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 11);
	assert_int_equal(l.v[0].nextra, 0);
	expect_warnings(&l.v[0], NULL);
	pl_run_list_release(&l);
}

/* --------------------------------------------------------------- AIPerf */

static void test_aiperf(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("aiperf/profile_export_aiperf.json", &l);
	assert_int_equal(l.n, 1);
	expect_origin(&l.v[0], "aiperf", "1.1", 0);
	static const struct kt c[] = {
		{"model", "fixture/model-8b"}, {"streaming", "true"},
		{"concurrency", "4"}, {"warmup_requests", "2"}, {"dataset", "fixture_set"},
		{"input_tokens", "500"}, {"max_output_tokens", "128"},
		{"benchmark_tool", "aiperf"}, {"benchmark_tool_version", "0.8.0"},
		{"run_started_at", "2026-02-01T10:00:00"}, /* seconds precision, no zone */
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_mean", 0.25}, {"ttft_p50", 0.2}, {"ttft_p99", 0.9}, /* ms / 1000 */
		{"tpot_mean", 0.0125}, {"tpot_p50", 0.012},  /* inter_token_latency, ms */
		{"itl_mean", 0.013},                         /* inter_chunk_latency 13 ms */
		{"e2el_mean", 1.5}, {"e2el_p50", 1.4}, {"e2el_p90", 2.0}, {"e2el_p99", 2.5},
		{"e2el_min", 0.8}, {"e2el_max", 2.6}, {"e2el_std", 0.3},
		/* p1, p25, p75: no canonical slot, ignored */
		{"tokens_per_second_mean", 80}, {"tokens_per_second_p50", 83},
		{"output_throughput", 240}, {"total_token_throughput", 1240},
		{"request_throughput", 2},
		{"goodput", MISSING},                        /* goodput null */
		{"requests_completed", 30}, {"requests_failed", 2},
		{"error_rate", 0.0625},                      /* 2 / (30 + 2) */
		{"input_tokens_mean", 500}, {"output_tokens_mean", 120},
		{"total_input_tokens", 15000}, {"total_output_tokens", 3600}, /* total_isl, total_osl */
		{"duration", 15}, {"concurrency_mean", 3.5},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 27);
	expect_extra(&l.v[0], "aiperf.fixture_unknown_key.a", "1"); /* nested: by dotted path */
	expect_extra(&l.v[0], "aiperf.input_config.endpoint.type", "chat");
	expect_warnings(&l.v[0], "1 key not in the aiperf field inventory: 1 kept as extra condition (fixture_unknown_key.a)");
	pl_run_list_release(&l);
	refused("aiperf/profile_export_aiperf.json", "\"time_to_first_token\": {\"unit\": \"ms\"",
	        "\"time_to_first_token\": {\"unit\": \"fortnights\"", PL_EINVALID,
	        "unknown unit 'fortnights' in 'time_to_first_token' (expected ns, us, ms or sec)");
}

/* GenAI-Perf's export: no schema_version, nanoseconds, no error count and
 * an empty error_summary (0 failed). */
static void test_genai_perf(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("aiperf/profile_export_genai_perf.json", &l);
	assert_int_equal(l.n, 1);
	expect_origin(&l.v[0], "aiperf", NULL, 0);
	static const struct kt c[] = {
		{"model", "fixture/model-3b"}, {"streaming", "true"},
		{"input_tokens", "200"}, {"max_output_tokens", "100"},
		{"benchmark_tool", "genai-perf"}, /* no aiperf_version, loadgen or aiperf command */
		{"benchmark_tool_version", NULL}, {"concurrency", NULL},
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"e2el_mean", 2.0},  /* 2000000000 ns / 1e9 */
		{"e2el_p50", 1.5},   /* 1500000000 ns */
		{"e2el_p99", 4.0},   /* 4000000000 ns */
		{"ttft_mean", 0.1},  /* 100000000 ns */
		{"ttft_p50", 0.08},  /* 80000000 ns */
		{"tpot_mean", 0.015}, /* 15000000 ns */
		{"output_throughput", 400}, {"request_throughput", 4},
		{"requests_completed", 40},
		{"requests_failed", 0}, {"error_rate", 0}, /* no error count, empty error_summary */
		{"input_tokens_mean", 200}, {"output_tokens_mean", 100},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 13);
	expect_warnings(&l.v[0], NULL);
	pl_run_list_release(&l);
	failed_edited("aiperf/profile_export_genai_perf.json",
	              "\"request_count\": {\"unit\": \"requests\", \"avg\": 40.0}",
	              "\"request_count\": {\"unit\": \"requests\", \"avg\": 0}", 0, 0);
}

/* ---------------------------------------------------------- llama-bench */

static void test_llama_bench_json(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("llama-bench/llama_bench.json", &l);
	assert_int_equal(l.n, 2);
	expect_origin(&l.v[0], "llama-bench", NULL, 0);
	expect_origin(&l.v[1], "llama-bench", NULL, 1);
	static const struct kt c0[] = {
		{"model", "llama 1B Q4_K - Medium"}, {"hardware", "Fixture GPU 24GB"},
		{"engine", "llama.cpp"}, {"engine_version", "b5000"},
		{"benchmark_tool", "llama-bench"}, {"benchmark_tool_version", "b5000"},
		{"engine_args", "backends=CUDA n_batch=2048 n_ubatch=512 n_gpu_layers=99 flash_attn=true"},
		{"kv_cache_dtype", "f16"},  /* type_k = type_v */
		{"dataset", "llama-bench pp512"}, {"input_tokens", "512"}, {"max_output_tokens", "0"},
		{"concurrency", "1"}, {"repetitions", "3"}, /* 3 samples */
		{"run_started_at", "2026-01-15T08:00:00Z"},
		{NULL, NULL},
	};
	static const struct kv m0[] = {
		{"prefill_tokens_per_second", 2048}, {"prefill_tokens_per_second_std", 8},
		{"output_throughput", MISSING}, /* a prompt-processing row: no output */
		{NULL, 0},
	};
	static const struct kt c1[] = {
		{"dataset", "llama-bench tg128"}, {"input_tokens", "0"}, {"max_output_tokens", "128"},
		{"repetitions", "2"}, {NULL, NULL},
	};
	static const struct kv m1[] = {
		{"tokens_per_second_mean", 128}, {"tokens_per_second_std", 0.5},
		{"output_throughput", 128}, /* one sequence: its speed is the throughput */
		{"prefill_tokens_per_second", MISSING},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c0);
	expect_metrics(&l.v[0], m0);
	assert_int_equal(nmetrics(&l.v[0]), 2);
	expect_conds(&l.v[1], c1);
	expect_metrics(&l.v[1], m1);
	assert_int_equal(nmetrics(&l.v[1]), 3);
	/* keys with no canonical field are kept, quietly (fate extra) */
	expect_extra(&l.v[0], "llama-bench.n_threads", "8");
	expect_extra(&l.v[0], "llama-bench.cpu_info", "Fixture CPU");
	assert_int_equal(l.v[0].nextra, 11);
	expect_warnings(&l.v[0], NULL);
	pl_run_list_release(&l);
	refused("llama-bench/llama_bench.json", "\"n_prompt\": 512,", "\"n_prompt\": \"512\",",
	        PL_EINVALID, "record 0: 'n_prompt' must be a number, got the string \"512\"");
}

/* -o jsonl: one row per line, the same rules as -o json. */
static void test_llama_bench_jsonl(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("llama-bench/llama_bench.jsonl", &l);
	assert_int_equal(l.n, 2);
	expect_origin(&l.v[0], "llama-bench", NULL, 0);
	expect_origin(&l.v[1], "llama-bench", NULL, 1);
	static const struct kt c0[] = {
		{"model", "qwen2 3B Q8_0"}, {"hardware", "Fixture GPU 48GB"},
		{"engine_version", "b4800"},
		{"engine_args", "backends=Vulkan n_batch=1024 n_ubatch=256 n_gpu_layers=99 flash_attn=false"},
		{"kv_cache_dtype", "q8_0"},
		{"dataset", "llama-bench pp256+tg64"}, {"input_tokens", "256"}, {"max_output_tokens", "64"},
		{"repetitions", "2"}, {"run_started_at", "2026-01-16T09:00:00Z"},
		{NULL, NULL},
	};
	static const struct kv m0[] = {
		{"total_token_throughput", 160}, /* pp+tg row: avg_ts counts prompt tokens too */
		{"output_throughput", MISSING}, {"tokens_per_second_mean", MISSING},
		{NULL, 0},
	};
	/* line 2: type_k q8_0 differs from type_v f16: no kv_cache_dtype, both kept */
	static const struct kt c1[] = {
		{"kv_cache_dtype", NULL}, {"dataset", "llama-bench tg32"}, {"repetitions", "1"},
		{NULL, NULL},
	};
	static const struct kv m1[] = {
		{"tokens_per_second_mean", 64}, {"tokens_per_second_std", 0}, {"output_throughput", 64},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c0);
	expect_metrics(&l.v[0], m0);
	assert_int_equal(nmetrics(&l.v[0]), 1);
	expect_conds(&l.v[1], c1);
	expect_metrics(&l.v[1], m1);
	expect_extra(&l.v[1], "llama-bench.type_k", "q8_0");
	expect_extra(&l.v[1], "llama-bench.type_v", "f16");
	expect_extra(&l.v[0], "llama-bench.type_k", NULL);
	expect_warnings(&l.v[0], NULL);
	expect_extra(&l.v[1], "llama-bench.fixture_unknown_key", "kept");
	assert_int_equal(l.v[1].nextra, 14); /* 11 quiet extras, type_k, type_v, the unknown key */
	expect_warnings(&l.v[1], "1 key not in the llama-bench field inventory: 1 kept as extra condition (fixture_unknown_key)");
	pl_run_list_release(&l);
}

/* --------------------------------------------------------- InferenceMAX */

static void test_inferencemax(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("inferencemax/agg_result.json", &l);
	assert_int_equal(l.n, 1);
	expect_origin(&l.v[0], "inferencemax", NULL, 0);
	static const struct kt c[] = {
		{"model", "fixture/moe-30b"}, {"hardware", "fixture-gpu"}, {"engine", "vllm"},
		{"engine_version", "0.20.1"}, /* image tag v0.20.1 */
		{"precision", "fp8"},
		{"input_tokens", "1024"}, {"max_output_tokens", "256"}, {"concurrency", "16"},
		{"tensor_parallel_size", "4"}, {"expert_parallel_size", "2"},
		{"kv_offload", "none"}, {"speculative_method", "none"},
		{"benchmark_tool", "inferencemax"},
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_mean", 0.5}, {"ttft_p50", 0.4},   /* seconds as written */
		{"ttft_p99_9", 2.0},                     /* p99.9_ttft */
		{"ttft_p90", MISSING},                   /* p75_ttft: no canonical slot, ignored */
		{"tpot_mean", 0.025}, {"tpot_p50", 0.024},
		{"tokens_per_second_mean", 40},          /* mean_intvty */
		{"tokens_per_second_p50", 41},           /* median_intvty */
		{"tokens_per_second_p99", MISSING},      /* p99_intvty: order reversed, ignored */
		{"e2el_mean", 6.75},
		{"output_throughput", 475}, {"total_token_throughput", 2420.6},
		{"output_throughput_per_accelerator", 118.75},       /* output_tput_per_gpu */
		{"total_token_throughput_per_accelerator", 605.15},  /* tput_per_gpu */
		{"requests_completed", 95},
		{"requests_failed", 5},                  /* num_requests_total 100 - 95 */
		{"error_rate", 0.05},                    /* 5 / 100 */
		{"input_tokens_mean", 1024}, {"output_tokens_mean", 250},
		{"total_input_tokens", 97280}, {"total_output_tokens", 23750},
		{"duration", 50},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 20);
	expect_extra(&l.v[0], "inferencemax.dp_attention", "false");
	expect_extra(&l.v[0], "inferencemax.disagg", "false");
	expect_extra(&l.v[0], "inferencemax.is_multinode", "false");
	/* JSON null is a missing value, never the text "null" */
	expect_extra(&l.v[0], "inferencemax.fixture_unknown_key", NULL);
	assert_null(pl_run_measure(&l.v[0], "inferencemax.fixture_unknown_key"));
	assert_int_equal(l.v[0].nextra, 3);
	expect_warnings(&l.v[0], NULL);
	pl_run_list_release(&l);
	failed_edited("inferencemax/agg_result.json", "\"num_requests_successful\": 95",
	              "\"num_requests_successful\": 0", 0, 100);
}

static void test_inferencemax_summary_csv(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("inferencemax-summary-csv/summary.csv", &l);
	/* row 2 (status FAILED, every value 0) is not stored, with a warning */
	assert_int_equal(l.n, 2);
	expect_origin(&l.v[0], "inferencemax-summary-csv", NULL, 0);
	expect_origin(&l.v[1], "inferencemax-summary-csv", NULL, 2);
	static const struct kt c0[] = {
		{"tensor_parallel_size", "4"}, {"concurrency", "8"}, {"kv_offload", "none"},
		{"expert_parallel_size", "1"}, {"speculative_method", "none"}, /* tp4-ep1-..._spec-none */
		{"benchmark_tool", "inferencemax"},
		{"model", NULL}, {"precision", NULL}, {"engine", NULL}, {"hardware", NULL},
		{NULL, NULL},
	};
	static const struct kv m0[] = {
		{"ttft_mean", 1.5}, {"ttft_p50", 1.2}, {"ttft_p90", 3.0}, {"ttft_p99", 4.5}, /* ms / 1000 */
		{"tpot_mean", 0.02}, {"tpot_p50", 0.018}, {"tpot_p90", 0.03}, {"tpot_p99", 0.06},
		{"e2el_mean", 9.0}, {"e2el_p50", 8.5}, {"e2el_p90", 14.0}, {"e2el_p99", 20.0},
		{"request_throughput", 0.5}, {"output_throughput", 150},
		{"total_token_throughput", 12150}, /* input_throughput_tps 12000: not stored */
		{"requests_completed", 200},
		{"error_rate", MISSING},           /* no failure count */
		{NULL, 0},
	};
	static const struct kt c1[] = {
		{"tensor_parallel_size", "8"}, {"concurrency", "16"}, {"kv_offload", "lmcache"},
		{"expert_parallel_size", "8"}, {"speculative_method", "mtp"}, {NULL, NULL},
	};
	static const struct kv m1[] = {
		{"ttft_p50", 0.2}, {"tpot_p50", 0.0095}, {"e2el_p99", 8.0},
		{"request_throughput", 1.25}, {"requests_completed", 400},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c0);
	expect_metrics(&l.v[0], m0);
	assert_int_equal(nmetrics(&l.v[0]), 16);
	expect_extra(&l.v[0], "inferencemax-summary-csv.dp_attention", "false");
	expect_extra(&l.v[0], "inferencemax-summary-csv.disagg", "false");
	expect_conds(&l.v[1], c1);
	expect_metrics(&l.v[1], m1);
	expect_extra(&l.v[1], "inferencemax-summary-csv.dp_attention", "true");
	expect_warnings(&l.v[0], "1 failed run not stored: row 2 (line 3): status 'FAILED' is not SUCCESS");
	pl_run_list_release(&l);
	/* both other rows failed too: no row is left, the file is refused naming each */
	static const char *const all_failed[] = {
		",SUCCESS,200,", ",FAILED,0,", ",SUCCESS,400,", ",FAILED,0,", NULL,
	};
	refused_edited("inferencemax-summary-csv/summary.csv", all_failed, PL_EINVALID,
	               "row 1 (line 2): status 'FAILED' is not SUCCESS; row 2 (line 3): status "
	               "'FAILED' is not SUCCESS; row 3 (line 4): status 'FAILED' is not SUCCESS");
}

/* ------------------------------------------------------------- GuideLLM */

static void test_guidellm_02_json(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("guidellm/report_0.2.json", &l);
	assert_int_equal(l.n, 1);
	expect_origin(&l.v[0], "guidellm", "0.2", 0);
	static const struct kt c[] = {
		{"model", "fixture/model-8b"},               /* worker.backend_model */
		{"input_tokens", "256"}, {"max_output_tokens", "128"}, /* request_loader.data */
		{"request_rate", "2.5"},                     /* strategy constant, rate 2.5 */
		{"concurrency", NULL},
		{"warmup_requests", "0"},                    /* both warm-up keys null */
		{"benchmark_tool", "guidellm"},
		{"run_started_at", "2026-01-01T00:00:00Z"},  /* start_time 1767225600.5, to the second */
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_mean", 0.04}, {"ttft_p50", 0.035},    /* time_to_first_token_ms / 1000 */
		{"ttft_p99", 0.12},                          /* percentiles.p99 120 ms */
		{"tpot_mean", 0.006}, {"tpot_p50", 0.0055},
		{"itl_mean", 0.00625},
		{"e2el_mean", 0.8}, {"e2el_p50", 0.75}, {"e2el_std", 0.1},  /* request_latency: s */
		{"e2el_min", 0.5}, {"e2el_max", 1.4},
		{"e2el_p90", 1.0}, {"e2el_p95", 1.1}, {"e2el_p99", 1.3},
		{"e2el_p99_9", 1.39},                        /* p999; p001, p25, p75 ignored */
		{"output_throughput", 285.75}, {"total_token_throughput", 862.875},
		{"request_throughput", 2.25},
		{"requests_completed", 45}, {"requests_failed", 5},
		{"error_rate", 0.1},                         /* 5 / (45 + 5); 2 incomplete not counted */
		{"duration", 20},
		{"input_tokens_mean", 256.5}, {"output_tokens_mean", 127}, {"concurrency_mean", 1.8},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 25);
	expect_extra(&l.v[0], "guidellm.benchmarks[].fixture_unknown_key", "kept");
	assert_int_equal(l.v[0].nextra, 1);
	expect_warnings(&l.v[0], "1 key not in the guidellm field inventory: 1 kept as extra condition (benchmarks[].fixture_unknown_key)");
	pl_run_list_release(&l);
}

static void test_guidellm_02_yaml(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("guidellm/report_0.2.yaml", &l);
	assert_int_equal(l.n, 1);
	expect_origin(&l.v[0], "guidellm", "0.2", 0);
	static const struct kt c[] = {
		{"model", "fixture/model-1b"}, {"input_tokens", "64"}, {"max_output_tokens", "32"},
		{"concurrency", "1"},                /* strategy synchronous */
		{"request_rate", NULL},
		{"warmup_requests", NULL},           /* warmup_duration 5 s: not a request count */
		{"run_started_at", "2026-01-01T00:00:00Z"},
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_mean", 0.012}, {"ttft_p50", 0.0115}, /* 12 ms, 11.5 ms */
		{"e2el_mean", 0.25}, {"e2el_p50", 0.24},
		{"output_throughput", 128}, {"request_throughput", 4},
		{"requests_completed", 20}, {"requests_failed", 0}, {"error_rate", 0},
		{"duration", 5},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 10);
	expect_warnings(&l.v[0], "warm-up given as a duration (warmup_duration 5 s), not a request "
	                         "count: warmup_requests left missing");
	pl_run_list_release(&l);
}

static void test_guidellm_04(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("guidellm/benchmarks_0.4.json", &l);
	assert_int_equal(l.n, 1);
	expect_origin(&l.v[0], "guidellm", "0.4", 0);
	static const struct kt c[] = {
		{"model", "fixture/model-14b"},      /* config.backend.model */
		{"dataset", "prompt_tokens=1000,output_tokens=200"}, /* args.data, one entry */
		{"input_tokens", "1000"}, {"max_output_tokens", "200"},
		{"concurrency", "8"},                /* strategy concurrent, streams 8 */
		{"warmup_requests", "0"},            /* config.warmup percent and value null */
		{"benchmark_tool_version", NULL},    /* no metadata block */
		{"run_started_at", "2026-09-10T00:26:40Z"}, /* 1789000000 */
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_mean", 0.5}, {"ttft_p50", 0.45}, {"tpot_mean", 0.01625},
		{"e2el_mean", 3.75}, {"e2el_p50", 3.5}, {"e2el_p95", 5.0},
		{"output_throughput", 400}, {"total_token_throughput", 2400}, {"request_throughput", 2},
		{"requests_completed", 60}, {"requests_failed", 0},
		{"error_rate", 0},                   /* 0 / 60; 8 incomplete not counted */
		{"duration", 30},
		{"input_tokens_mean", 1000}, {"output_tokens_mean", 200}, {"concurrency_mean", 7.5},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 16);
	expect_extra(&l.v[0], "guidellm.benchmarks[].config.prefer_response_metrics", "true");
	expect_warnings(&l.v[0], NULL);
	pl_run_list_release(&l);
	failed_edited("guidellm/benchmarks_0.4.json", "\"successful\": 60", "\"successful\": 0", 0, 0);
}

static void test_guidellm_v1(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("guidellm/report_v1.json", &l);
	assert_int_equal(l.n, 1);
	expect_origin(&l.v[0], "guidellm", "1", 0);
	static const struct kt c[] = {
		{"model", "fixture/model-4b"}, {"benchmark_tool_version", "0.5.2"},
		{"request_rate", "8"},               /* strategy poisson, rate 8 */
		{"concurrency", NULL},
		{"input_tokens", "128"}, {"max_output_tokens", "64"},
		{"warmup_requests", NULL},           /* warmup.percent 0.1: a fraction */
		{"run_started_at", "2026-03-02T16:58:16Z"}, /* 1772470696 */
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_mean", 0.075},                /* 75 ms */
		{"e2el_mean", 1.2}, {"e2el_p50", 1.0}, {"e2el_max", 4.0},
		{"e2el_p90", 2.0}, {"e2el_p99", 3.5}, {"e2el_p99_9", 3.9},
		{"output_throughput", 450}, {"request_throughput", 7.5},
		{"requests_completed", 90}, {"requests_failed", 10},
		{"error_rate", 0.1},                 /* 10 / (90 + 10) */
		{"duration", 12}, {"input_tokens_mean", 128}, {"output_tokens_mean", 60},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 15); /* metrics.text: words/s, not stored */
	expect_extra(&l.v[0], "guidellm.benchmarks[].config.warmup",
	             "{\"percent\":0.1,\"value\":null,\"mode\":\"prefer_duration\"}");
	expect_warnings(&l.v[0], "warm-up given as a fraction of the run (warmup.percent 0.1), not a "
	                         "request count: warmup_requests left missing");
	pl_run_list_release(&l);
}

static void test_guidellm_v2(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("guidellm/report_v2.json", &l);
	assert_int_equal(l.n, 1);
	expect_origin(&l.v[0], "guidellm", "2", 0);
	static const struct kt c[] = {
		{"model", "fixture/model-2b"}, {"benchmark_tool_version", "0.8.0"},
		{"dataset", "synthetic_text prompt_tokens=300 output_tokens=50"}, /* non-null settings */
		{"input_tokens", "300"}, {"max_output_tokens", "50"},  /* fixed: stdev, min, max null */
		{"concurrency", "2"}, {"warmup_requests", "0"},
		{"trace", NULL}, {"trace_time_scale", NULL},
		{"run_started_at", "2026-08-14T03:29:08Z"}, /* 1786678148 */
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_mean", 0.025}, {"itl_mean", 0.0095}, /* 25 ms, 9.5 ms */
		{"e2el_mean", 0.5}, {"e2el_p50", 0.5},
		{"output_throughput", 200}, {"total_token_throughput", 1400}, {"request_throughput", 4},
		{"requests_completed", 40}, {"requests_failed", 0}, {"error_rate", 0},
		{"duration", 10}, {"input_tokens_mean", 300}, {"output_tokens_mean", 50},
		{"concurrency_mean", 2},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 14); /* time_to_first_output_token_ms: not stored */
	expect_warnings(&l.v[0], NULL);
	pl_run_list_release(&l);
	refused("guidellm/report_v2.json", "\"version\": 2", "\"version\": 3", PL_EFORMAT,
	        "GuideLLM report layout version 3 (guidellm 0.8.0) is not read (versions 1 and 2 "
	        "are, and 0.2 / 0.4 reports without metadata)");
}

/* --------------------------------------------------------------- MLPerf */

static void test_mlperf_server(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("mlperf/server_summary.txt", &l);
	assert_int_equal(l.n, 1);
	expect_origin(&l.v[0], "mlperf", NULL, 0);
	static const struct kt c[] = {
		{"scenario", "Server"}, {"request_rate", "51"}, /* target_qps */
		{"ttft_limit", "2"},     /* ttft_latency 2000000000 ns / 1e9 */
		{"tpot_limit", "0.2"},   /* tpot_latency 200000000 ns / 1e9 */
		{"benchmark_tool", "mlperf-loadgen"}, {"hardware", NULL}, /* from the sidecar */
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"request_throughput", 50.5}, {"output_throughput", 12625.25},
		{"e2el_min", 0.25},      /* 250000000 ns */
		{"e2el_max", 90},        /* 90000000000 ns */
		{"e2el_mean", 20}, {"e2el_p50", 18}, {"e2el_p90", 40}, {"e2el_p95", 50},
		{"e2el_p99", 75}, {"e2el_p99_9", 85}, /* 97.00 percentile: no canonical slot */
		{"ttft_min", 0.03}, {"ttft_max", 1.5}, {"ttft_mean", 0.25}, {"ttft_p50", 0.2},
		{"ttft_p90", 0.4}, {"ttft_p95", 0.5}, {"ttft_p99", 0.7}, {"ttft_p99_9", 0.9},
		{"tpot_min", 0.04}, {"tpot_max", 0.19}, {"tpot_mean", 0.1}, {"tpot_p50", 0.095},
		{"tpot_p90", 0.12}, {"tpot_p95", 0.13}, {"tpot_p99", 0.15}, {"tpot_p99_9", 0.175},
		{"error_rate", MISSING}, /* no request counts */
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 26);
	expect_extra(&l.v[0], "mlperf.fixture_unknown_param", "7");
	assert_int_equal(l.v[0].nextra, 1);
	expect_warnings(&l.v[0], "1 key not in the mlperf field inventory: 1 kept as extra condition (fixture_unknown_param)");
	pl_run_list_release(&l);
	refused("mlperf/server_summary.txt", "Result is : VALID", "Result is : INVALID",
	        PL_EINVALID,
	        "the MLPerf result is INVALID: LoadGen did not accept this run, so it is not imported");
	refused("mlperf/server_summary.txt", "Mode     : PerformanceOnly", "Mode     : AccuracyOnly",
	        PL_EINVALID,
	        "an MLPerf AccuracyOnly run holds no performance result (only PerformanceOnly "
	        "summaries are imported)");
	refused("mlperf/server_summary.txt", "Scenario : Server", "Scenario : SingleStream",
	        PL_EINVALID, "MLPerf scenario 'SingleStream' is not read (Server and Offline are)");
}

/* The importer's sidecar path: server_summary.conditions.json beside the
 * summary is an MLPerf system description (2 nodes x 4 accelerators). */
static void test_mlperf_sidecar(void **state)
{
	static const struct pl_kv set[] = {
		{"model", "fixture-70b"}, {"precision", "fp8"}, {"engine", "fixturert"},
	};
	struct pl_import_opts opts = {0};
	struct pl_run_list l;
	struct pl_error err;
	char path[4096], *side = NULL, *sbuf = NULL, *warnings = NULL;
	size_t slen = 0, refonly = 0;

	(void)state;
	load("mlperf/server_summary.txt", &l);
	fixture_path("mlperf/server_summary.txt", path, sizeof(path));
	pl_error_init(&err);
	assert_int_equal(pl_import_load_sidecar(path, -1, &side, &sbuf, &slen, &err), 0);
	assert_non_null(side);
	assert_non_null(strstr(side, "mlperf/server_summary.conditions.json"));
	opts.set = set;
	opts.nset = sizeof(set) / sizeof(set[0]);
	if (pl_import_prepare(&opts, path, SHA, side, sbuf, slen, &l, 0, 0, &refonly, &warnings, &err))
		fail_msg("prepare: %s", err.message);
	static const struct kt c[] = {
		{"hardware", "8x Fixture Accelerator 96GB (2 nodes x 4)"}, /* 4 per node x 2 nodes */
		{"accelerator_count", "8"},                  /* accelerators_per_node 4 x number_of_nodes 2 */
		{"engine_version", NULL},                    /* framework is free text: not parsed */
		{"scenario", "Server"}, {"model", "fixture-70b"},
		{NULL, NULL},
	};
	expect_conds(&l.v[0], c);
	free(side);
	free(sbuf);
	free(warnings);
	pl_run_list_release(&l);

	/* the Offline summary has no sidecar: nothing is found */
	fixture_path("mlperf/offline_summary.txt", path, sizeof(path));
	assert_int_equal(pl_import_load_sidecar(path, -1, &side, &sbuf, &slen, &err), 0);
	assert_null(side);
	assert_null(sbuf);
}

static void test_mlperf_offline(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("mlperf/offline_summary.txt", &l);
	assert_int_equal(l.n, 1);
	expect_origin(&l.v[0], "mlperf", NULL, 0);
	static const struct kt c[] = {
		{"scenario", "Offline"},
		{"request_rate", "inf"},  /* every sample issued at once; target_qps 60 is not a rate */
		{"ttft_limit", NULL}, {"tpot_limit", NULL}, /* printed, but no constraint applies */
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"request_throughput", 60.25}, /* Samples per second */
		{"output_throughput", 15000.5}, /* Tokens per second */
		{"e2el_mean", MISSING},        /* time since the test started: not a latency */
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 2);
	expect_warnings(&l.v[0], NULL);
	pl_run_list_release(&l);
}

/* ------------------------------------------------------------- CSV exports */

static void test_aiperf_csv(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("aiperf-csv/profile_export_aiperf.csv", &l);
	assert_int_equal(l.n, 1);
	expect_origin(&l.v[0], "aiperf-csv", NULL, 0);
	static const struct kt c[] = {
		{"benchmark_tool", "aiperf"},   /* the header has a p1 column */
		{"run_started_at", "2026-01-01T00:00:00Z"}, /* 1767225600000000000 ns */
		{"model", NULL}, {"concurrency", NULL}, /* not in the CSV: --set */
		{NULL, NULL},
	};
	static const struct kv m[] = {
		{"ttft_mean", 0.12}, {"ttft_min", 0.04}, {"ttft_max", 0.6}, {"ttft_p50", 0.1},
		{"ttft_p90", 0.2}, {"ttft_p95", 0.3}, {"ttft_p99", 0.55}, {"ttft_std", 0.06}, /* ms */
		/* p1, p5, p10, p25, p75, sum: ignored */
		{"tpot_mean", 0.008}, {"tpot_p50", 0.0078}, {"tpot_p99", 0.0115},
		{"itl_mean", 0.00825}, {"itl_p50", 0.008}, {"itl_p99", 0.015},
		{"itl_p90", MISSING},           /* a blank cell: not available */
		{"e2el_mean", 1.5}, {"e2el_min", 0.5}, {"e2el_max", 4.0}, /* Request Latency (sec) */
		{"e2el_p50", 1.4}, {"e2el_p99", 3.9}, {"e2el_std", 0.6},
		{"tokens_per_second_mean", 125}, {"tokens_per_second_p50", 128},
		{"tokens_per_second_p90", MISSING},
		{"input_tokens_mean", 1000}, {"output_tokens_mean", 180}, {"concurrency_mean", 3.75},
		{"duration", 10}, {"output_throughput", 360}, {"total_token_throughput", 2360},
		{"request_throughput", 2},
		{"requests_completed", 20}, {"requests_failed", 5},
		{"error_rate", 0.2},            /* 5 / (20 + 5) */
		{NULL, 0},
	};
	expect_conds(&l.v[0], c);
	expect_metrics(&l.v[0], m);
	assert_int_equal(nmetrics(&l.v[0]), 46);
	/* an unknown row is kept with its cells; the GPU table is not read */
	expect_extra(&l.v[0], "aiperf-csv.Fixture Unknown Metric (ms)",
	             "1.00,1.00,1.00,,,,,,1.00,,,,1.00,0.00");
	expect_extra(&l.v[0], "aiperf-csv.localhost:9400", NULL);
	assert_int_equal(l.v[0].nextra, 1);
	expect_warnings(&l.v[0], "1 key not in the aiperf-csv field inventory: 1 kept as extra condition (Fixture Unknown Metric (ms))");
	pl_run_list_release(&l);
	refused("aiperf-csv/profile_export_aiperf.csv", "Request Latency (sec)",
	        "Request Latency (min)", PL_EINVALID, "unknown unit 'min' in 'Request Latency (min)'");
}

static void test_genai_perf_analyze(void **state)
{
	struct pl_run_list l;
	(void)state;
	load("genai-perf-analyze/analyze_export_genai_perf.csv", &l);
	assert_int_equal(l.n, 2); /* the GPU table is not read */
	expect_origin(&l.v[0], "genai-perf-analyze", NULL, 0);
	expect_origin(&l.v[1], "genai-perf-analyze", NULL, 1);
	static const struct kt c0[] = {
		{"concurrency", "4"}, {"input_tokens", "128"}, {"num_prompts", "100"},
		{"benchmark_tool", "genai-perf"}, {NULL, NULL},
	};
	static const struct kv m0[] = {
		{"ttft_p99", 0.15},      /* 150 ms */
		{"tpot_p99", 0.02},      /* 20 ms */
		{"e2el_p99", 2.5},       /* 2500 ms */
		{"output_throughput", 300}, {"request_throughput", 2.5},
		{"output_tokens_mean", MISSING}, /* p99 Output Sequence Length: a p99, not the mean */
		{"error_rate", MISSING},
		{NULL, 0},
	};
	static const struct kt c1[] = {
		{"concurrency", "16"}, {"num_prompts", "400"}, {NULL, NULL},
	};
	static const struct kv m1[] = {
		{"ttft_p99", 0.6}, {"tpot_p99", 0.0455}, {"e2el_p99", 6.0},
		{"output_throughput", 900}, {"request_throughput", 8.75},
		{NULL, 0},
	};
	expect_conds(&l.v[0], c0);
	expect_metrics(&l.v[0], m0);
	assert_int_equal(nmetrics(&l.v[0]), 5);
	expect_conds(&l.v[1], c1);
	expect_metrics(&l.v[1], m1);
	assert_int_equal(l.v[0].nextra, 0);
	expect_warnings(&l.v[0], NULL);
	pl_run_list_release(&l);
	/* a column in a unit the adapter does not read is never converted: it is
	 * an unknown column, kept as it was written (a latency: an unplaced
	 * measurement, never a condition) with a warning, and e2el_p99 is missing */
	struct pl_error err;
	assert_int_equal(parse_mutated("genai-perf-analyze/analyze_export_genai_perf.csv",
	                               "p99 Request Latency (ms)", "p99 Request Latency (min)", &l,
	                               &err), 0);
	assert_int_equal(l.n, 2);
	static const struct kv m2[] = {{"e2el_p99", MISSING}, {"ttft_p99", 0.15}, {NULL, 0}};
	expect_metrics(&l.v[0], m2);
	expect_extra(&l.v[0], "genai-perf-analyze.p99 Request Latency (min)", NULL);
	assert_true(pl_run_measure(&l.v[0], "genai-perf-analyze.p99 Request Latency (min)")->is_num);
	assert_true(pl_run_measure(&l.v[0], "genai-perf-analyze.p99 Request Latency (min)")->num == 2500);
	assert_true(pl_run_measure(&l.v[1], "genai-perf-analyze.p99 Request Latency (min)")->num == 6000);
	expect_warnings(&l.v[1], "1 key not in the genai-perf-analyze field inventory: 1 kept as "
	                         "unplaced measurement (p99 Request Latency (min))");
	pl_run_list_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_adapter_has_fixtures),
		cmocka_unit_test(test_descriptor),
		cmocka_unit_test(test_ledger),
		cmocka_unit_test(test_vllm_serving),
		cmocka_unit_test(test_sglang),
		cmocka_unit_test(test_llmperf),
		cmocka_unit_test(test_llmnop),
		cmocka_unit_test(test_aiperf),
		cmocka_unit_test(test_genai_perf),
		cmocka_unit_test(test_llama_bench_json),
		cmocka_unit_test(test_llama_bench_jsonl),
		cmocka_unit_test(test_inferencemax),
		cmocka_unit_test(test_inferencemax_summary_csv),
		cmocka_unit_test(test_guidellm_02_json),
		cmocka_unit_test(test_guidellm_02_yaml),
		cmocka_unit_test(test_guidellm_04),
		cmocka_unit_test(test_guidellm_v1),
		cmocka_unit_test(test_guidellm_v2),
		cmocka_unit_test(test_mlperf_server),
		cmocka_unit_test(test_mlperf_sidecar),
		cmocka_unit_test(test_mlperf_offline),
		cmocka_unit_test(test_aiperf_csv),
		cmocka_unit_test(test_genai_perf_analyze),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
