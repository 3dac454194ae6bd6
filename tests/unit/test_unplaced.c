/*
 * test_unplaced.c — the rule for keys an inventory does not know
 * (schema/formats.md): unplaced measurements are kept per run and never
 * conditions; a record without a latency or throughput is refused; the
 * renamed and re-nested layouts are read. Fixtures: tests/fixtures/unplaced
 * (our own files in each tool's layout), expectations by hand. The corpus
 * check skips visibly when ../shared is absent.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "adapters/adapters.h"
#include "core/compare.h"
#include "core/condkey.h"
#include "core/model.h"

#include "corpus_fixture.h"

static int fixture(const char *rel, const char *format, struct pl_run_list *l, struct pl_error *err)
{
	char path[4096];
	size_t len;
	char *buf;
	int rc;

	snprintf(path, sizeof(path), "%s/unplaced/%s", PL_FIXTURES_DIR, rel);
	buf = slurp(path, &len);
	pl_run_list_init(l);
	pl_error_init(err);
	rc = pl_adapters_parse(rel, buf, len, format, l, err);
	free(buf);
	return rc;
}

static void load_ok(const char *rel, struct pl_run_list *l)
{
	struct pl_error err;

	if (fixture(rel, NULL, l, &err))
		fail_msg("%s: %s", rel, err.message);
}

static double num_of(const struct pl_run *r, const char *name)
{
	const struct pl_measure *m = pl_run_measure(r, name);

	if (!m || !m->is_num)
		fail_msg("no numeric measurement %s", name);
	return m->num;
}

/* The rule itself: inventory (not here), place, then shape. */
static void test_classify(void **state)
{
	static const struct {
		const char *path;
		int kind, want;
	} cases[] = {
		{"spec_decode_acceptance_rate", 'n', PL_KEY_MEASURE},
		{"accept_length", 'n', PL_KEY_MEASURE},
		{"correct_rate(%)", 'n', PL_KEY_MEASURE},
		{"Mean Time per Output Token (ns)", 'n', PL_KEY_MEASURE},
		{"total_output_tokens", 'n', PL_KEY_MEASURE},
		{"max_ttft_ms", 'n', PL_KEY_MEASURE},
		{"per_position", 'a', PL_KEY_MEASURE},
		{"input_tokens", 'n', PL_KEY_CONDITION},    /* a length alone: a setting */
		{"max_concurrency", 'n', PL_KEY_CONDITION},
		{"request_rate", 'n', PL_KEY_CONDITION},
		{"gpu_count", 'n', PL_KEY_CONDITION},
		{"ttft_limit_ms", 'n', PL_KEY_CONDITION},
		{"new_knob", 'n', PL_KEY_CONDITION},        /* fits neither: the safe side */
		{"latency_mode", 's', PL_KEY_CONDITION},    /* a string names a setting */
	};
	size_t n = 0;
	const struct pl_adapter_info *all = pl_adapters_list(&n), *aiperf = NULL, *vllm = NULL;
	enum pl_place place;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (pl_inventory_classify(NULL, NULL, cases[i].path, cases[i].kind, NULL) != cases[i].want)
			fail_msg("%s classified wrong", cases[i].path);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(all[i].name, "aiperf") == 0)
			aiperf = &all[i];
		if (strcmp(all[i].name, "vllm-serving") == 0)
			vllm = &all[i];
	}
	assert_non_null(aiperf);
	assert_non_null(vllm);
	/* place outweighs shape: a ratio in AIPerf's input_config is a setting */
	assert_int_equal(pl_inventory_classify(aiperf, NULL,
	                                       "input_config.loadgen.trajectory_start_max_ratio", 'n',
	                                       &place),
	                 PL_KEY_CONDITION);
	assert_int_equal(place, PL_PLACE_CONFIG);
	/* vLLM's spec_decode_* section is results, whatever the name */
	assert_int_equal(pl_inventory_classify(vllm, NULL, "spec_decode_num_drafts", 'n', &place),
	                 PL_KEY_MEASURE);
	assert_int_equal(place, PL_PLACE_RESULT);
}

static void test_vllm_spec_decode(void **state)
{
	struct pl_run_list l;

	(void)state;
	load_ok("vllm_spec_a.json", &l);
	assert_int_equal(l.n, 1);
	/* the inventory maps acceptance rate (percent -> fraction) and length
	 * to canonical metrics; the rest of the section is unplaced */
	assert_int_equal(l.v[0].nmeasure, 3);
	assert_true(l.v[0].has_metric[PL_M_SPEC_ACCEPTANCE_RATE]);
	assert_true(l.v[0].metric[PL_M_SPEC_ACCEPTANCE_RATE] == 0.584);
	assert_true(l.v[0].has_metric[PL_M_SPEC_ACCEPTANCE_LENGTH]);
	assert_true(l.v[0].metric[PL_M_SPEC_ACCEPTANCE_LENGTH] == 2.75);
	assert_true(num_of(&l.v[0], "vllm-serving.spec_decode_num_drafts") == 4655);
	assert_true(num_of(&l.v[0], "vllm-serving.spec_decode_draft_tokens") == 13965);
	assert_true(num_of(&l.v[0], "vllm-serving.spec_decode_accepted_tokens") == 8145);
	/* the per-position rates are metrics, one per draft position */
	assert_null(pl_run_measure(&l.v[0], "vllm-serving.spec_decode_per_position_acceptance_rates"));
	assert_true(l.v[0].metric[PL_M_SPEC_ACCEPTANCE_RATE_POS1] == 0.81);
	assert_true(l.v[0].metric[PL_M_SPEC_ACCEPTANCE_RATE_POS2] == 0.58);
	assert_true(l.v[0].metric[PL_M_SPEC_ACCEPTANCE_RATE_POS3] == 0.36);
	assert_false(l.v[0].has_metric[PL_M_SPEC_ACCEPTANCE_RATE_POS4]);
	/* none of them is a condition */
	for (size_t i = 0; i < l.v[0].nextra; i++)
		assert_null(strstr(l.v[0].extra[i].name, "spec_decode"));
	assert_int_equal(l.v[0].nextra, 2); /* endpoint_type, tokenizer_id */
	assert_string_equal(l.v[0].warnings,
	                    "3 keys not in the vllm-serving field inventory: 3 kept as unplaced "
	                    "measurements (spec_decode_num_drafts, spec_decode_draft_tokens, "
	                    "spec_decode_accepted_tokens)");
	pl_run_list_release(&l);
}

/* trtllm-bench's decoding_stats (speculative decoding: draft acceptance
 * rate and acceptance length percentiles) is a result section: its values
 * (average, p50, ... with no result word of their own) are unplaced
 * measurements named by their full path, never conditions. The block is
 * written for speculative runs only: its mode "MTP" is speculative_method
 * (mtp once normalized), no mode is "unknown", and a run without the block has none. */
static void test_trtllm_decoding_stats(void **state)
{
	struct pl_run_list l;

	(void)state;
	load_ok("trtllm_decoding_stats.json", &l);
	assert_int_equal(l.n, 1);
	for (size_t i = 0; i < l.v[0].nextra; i++)
		assert_null(strstr(l.v[0].extra[i].name, "decoding_stats"));
	assert_true(num_of(&l.v[0], "trtllm-bench.decoding_stats.acceptance_length_percentiles.average") ==
	            2.4);
	assert_true(num_of(&l.v[0], "trtllm-bench.decoding_stats.acceptance_length_percentiles.p50") ==
	            2.3);
	assert_true(num_of(&l.v[0],
	                   "trtllm-bench.decoding_stats.draft_acceptance_rate_percentiles.p50") == 0.6);
	assert_true(num_of(&l.v[0],
	                   "trtllm-bench.decoding_stats.draft_acceptance_rate_percentiles.p99") == 0.9);
	/* as the file says it; the import's normalization stores "mtp" */
	assert_string_equal(l.v[0].cond[PL_C_SPECULATIVE_METHOD].text, "MTP");
	pl_run_list_release(&l);
	load_ok("trtllm_decoding_stats_nomode.json", &l);
	assert_string_equal(l.v[0].cond[PL_C_SPECULATIVE_METHOD].text, "unknown");
	pl_run_list_release(&l);
	load_ok("../trtllm-bench/throughput_tp2_1.2.0.json", &l);
	assert_false(l.v[0].cond[PL_C_SPECULATIVE_METHOD].set);
	pl_run_list_release(&l);
}

/* Ten draft positions (ngram, 10 draft tokens; 900, 780, ... 70 of 1000
 * drafts accepted at each position): positions 1..8 are metrics, and the
 * whole list is kept as the unplaced measurement so 9 and 10 are not lost;
 * acceptance 4250 / 10000 = 0.425, length 1 + 4250 / 1000 = 5.25. */
static void test_vllm_ten_positions(void **state)
{
	static const double want[] = {0.9, 0.78, 0.65, 0.54, 0.43, 0.33, 0.25, 0.18};
	struct pl_run_list l;

	(void)state;
	load_ok("vllm_spec_ten.json", &l);
	assert_int_equal(l.n, 1);
	for (int k = 0; k < PL_SPEC_POSITIONS; k++) {
		assert_true(l.v[0].has_metric[PL_M_SPEC_ACCEPTANCE_RATE_POS1 + k]);
		assert_true(l.v[0].metric[PL_M_SPEC_ACCEPTANCE_RATE_POS1 + k] == want[k]);
	}
	assert_string_equal(pl_metric_info[PL_M_SPEC_ACCEPTANCE_RATE_POS8].name,
	                    "spec_acceptance_rate_pos8");
	assert_true(l.v[0].metric[PL_M_SPEC_ACCEPTANCE_RATE] == 0.425);
	assert_true(l.v[0].metric[PL_M_SPEC_ACCEPTANCE_LENGTH] == 5.25);
	assert_string_equal(
		pl_run_measure(&l.v[0], "vllm-serving.spec_decode_per_position_acceptance_rates")->json,
		"[0.9,0.78,0.65,0.54,0.43,0.33,0.25,0.18,0.12,0.07]");
	for (size_t i = 0; i < l.v[0].nextra; i++)
		assert_null(strstr(l.v[0].extra[i].name, "spec_decode"));
	pl_run_list_release(&l);
}

static void test_correct_rate_and_accept_length(void **state)
{
	struct pl_run_list l;

	(void)state;
	load_ok("vllm_structured_b.json", &l);
	/* the inventory maps it to the canonical metric, percent -> fraction */
	assert_true(l.v[0].has_metric[PL_M_CORRECT_RATE]);
	assert_true(l.v[0].metric[PL_M_CORRECT_RATE] == 0.986);
	assert_null(pl_run_measure(&l.v[0], "vllm-serving.correct_rate(%)"));
	assert_null(pl_run_extra(&l.v[0], "vllm-serving.correct_rate(%)"));
	pl_run_list_release(&l);
	load_ok("sglang_accept_length.jsonl", &l);
	assert_int_equal(l.n, 2);
	/* SGLang's accept_length is the canonical spec_acceptance_length */
	assert_true(l.v[0].metric[PL_M_SPEC_ACCEPTANCE_LENGTH] == 3.12);
	assert_true(l.v[1].metric[PL_M_SPEC_ACCEPTANCE_LENGTH] == 3.4);
	assert_null(pl_run_measure(&l.v[1], "sglang-bench-serving.accept_length"));
	assert_null(pl_run_extra(&l.v[1], "sglang-bench-serving.accept_length"));
	pl_run_list_release(&l);
}

/* LoadGen's later spelling "Time per Output Token" (ns) reads as tpot_*. */
static void test_mlperf_renamed_tpot(void **state)
{
	struct pl_run_list l;
	static const struct kv m[] = {
		{"tpot_min", 0.04}, {"tpot_max", 0.19}, {"tpot_mean", 0.1}, {"tpot_p50", 0.095},
		{"tpot_p90", 0.12}, {"tpot_p95", 0.13}, {"tpot_p99", 0.15}, {"tpot_p99_9", 0.175},
		{NULL, 0}};

	(void)state;
	load_ok("mlperf_server_tpot_renamed.txt", &l);
	expect_metrics(&l.v[0], m);
	for (size_t i = 0; i < l.v[0].nextra; i++)
		assert_null(strstr(l.v[0].extra[i].name, "Output Token"));
	pl_run_list_release(&l);
}

/* The InferenceX agentic aggregate (the layout
 * utils/agentic/aggregation/process_agentic_result.py writes) with its
 * latencies under request_metrics.latency (seconds): read into canonical
 * metrics; the rest of request_metrics and server_metrics is results
 * (unplaced measurements), never conditions. */
static void test_inferencex_request_metrics(void **state)
{
	struct pl_run_list l;
	static const struct kv m[] = {
		{"ttft_mean", 1.84211}, {"ttft_p50", 0.91234}, {"ttft_p90", 3.75},  {"ttft_p95", 5.125},
		{"ttft_std", 2},        {"ttft_p99", MISSING}, {"tpot_mean", 0.02875}, {"tpot_p50", 0.0265},
		{"itl_p95", 0.0445},    {"e2el_mean", 24.5},   {"e2el_p90", 52.5},  {"requests_completed", 818},
		{"requests_failed", 4}, {NULL, 0}};

	(void)state;
	load_ok("../inferencemax/agentic_result.json", &l);
	expect_metrics(&l.v[0], m);
	assert_true(num_of(&l.v[0], "inferencemax.request_metrics.qps.mean") == 1.98544);
	assert_true(num_of(&l.v[0], "inferencemax.server_metrics.cache.gpu_cache_hit_rate") == 0.87);
	for (size_t i = 0; i < l.v[0].nextra; i++) {
		assert_null(strstr(l.v[0].extra[i].name, "request_metrics"));
		assert_null(strstr(l.v[0].extra[i].name, "server_metrics"));
	}
	pl_run_list_release(&l);
}

/* No latency and no throughput: refused, naming the layout and the keys. */
static void test_no_measurements(void **state)
{
	struct pl_run_list l;
	struct pl_error err;

	(void)state;
	assert_int_equal(fixture("vllm_no_measurements.json", "vllm-serving", &l, &err), PL_EINVALID);
	assert_int_equal(l.n, 0);
	assert_string_equal(err.message,
	                    "no TTFT/TPOT/ITL/E2EL/throughput found in this vllm-serving file; result "
	                    "keys seen: error_rate, requests_completed, requests_failed, "
	                    "total_input_tokens, total_output_tokens");
	pl_run_list_release(&l);
}

static void set_required(struct pl_run *r)
{
	struct pl_error e;
	assert_int_equal(pl_run_set_cond(r, PL_C_PRECISION, "bf16", &e), 0);
	assert_int_equal(pl_run_set_cond(r, PL_C_ENGINE, "vllm", &e), 0);
	assert_int_equal(pl_run_set_cond(r, PL_C_HARDWARE, "h100", &e), 0);
}

/* Property: for every unplaced measurement of the fixture, two runs that
 * differ only in it have one condition key and compare (no refusal); an
 * unknown configuration string still refuses. */
static void test_measurements_never_refuse(void **state)
{
	struct pl_run_list base;

	(void)state;
	load_ok("vllm_spec_a.json", &base);
	assert_true(base.v[0].nmeasure > 0);
	for (size_t k = 0; k <= base.v[0].nmeasure; k++) {
		struct pl_run_list l;
		struct pl_compare_opts o;
		struct pl_comparison c;
		struct pl_cond_key ka, kb;
		struct pl_error e;
		int want = k < base.v[0].nmeasure ? 0 : PL_EMISMATCH;

		pl_run_list_init(&l);
		pl_error_init(&e);
		memset(&o, 0, sizeof(o));
		assert_int_equal(pl_run_copy(pl_run_list_push(&l), &base.v[0]), 0);
		assert_int_equal(pl_run_copy(pl_run_list_push(&l), &base.v[0]), 0);
		l.v[0].id = 1;
		l.v[1].id = 2;
		set_required(&l.v[0]);
		set_required(&l.v[1]);
		if (k < base.v[0].nmeasure) /* only this measurement differs */
			assert_int_equal(pl_run_set_measure(&l.v[1], base.v[0].measure[k].name, 12345.5,
			                                    NULL, &e),
			                 0);
		else /* an unknown configuration string differs */
			assert_int_equal(pl_run_set_extra(&l.v[1], "vllm-serving.new_mode", "fast", &e), 0);
		assert_int_equal(pl_cond_key_make(&l.v[0], &ka), 0);
		assert_int_equal(pl_cond_key_make(&l.v[1], &kb), 0);
		assert_int_equal(strcmp(ka.text, kb.text) == 0, want == 0);
		pl_cond_key_release(&ka);
		pl_cond_key_release(&kb);
		assert_int_equal(pl_compare_parse_axis(&o, "model", &e), 0);
		assert_int_equal(pl_compare_build(&l, &o, &c, &e), want);
		if (want == 0)
			assert_int_equal(c.nmismatches, 0);
		else /* refused naming the one extra condition */
			assert_int_equal(c.nmismatches, 1);
		pl_comparison_release(&c);
		pl_run_list_release(&l);
	}
	pl_run_list_release(&base);
}

/* ------------------------------------------------------------ the corpus */

struct tally {
	size_t files, read, extras, measures, doubtful;
};

static const struct pl_adapter_info *info_of(const char *format, size_t len)
{
	size_t n = 0;
	const struct pl_adapter_info *all = pl_adapters_list(&n);

	for (size_t i = 0; i < n; i++)
		if (strlen(all[i].name) == len && strncmp(all[i].name, format, len) == 0)
			return &all[i];
	return NULL;
}

/* The kind of an extra's text for the rule: a number, an array of numbers,
 * anything else. */
static int text_kind(const char *v)
{
	double d;
	char *end;

	if (pl_parse_num(v, 0, &d) == 0)
		return 'n';
	if (v[0] != '[' || v[1] == ']')
		return 's';
	for (const char *p = v + 1; *p && *p != ']';) {
		strtod(p, &end);
		if (end == p)
			return 's';
		p = end;
		if (*p == ',')
			p++;
	}
	return 'a';
}

static void corpus_file(const char *path, struct tally *t)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	size_t len;
	char *buf = slurp(path, &len);

	t->files++;
	pl_error_init(&err);
	if (pl_adapters_parse_records(path, buf, len, NULL, &l, &err) != 0) {
		free(buf);
		return;
	}
	free(buf);
	t->read++;
	for (size_t i = 0; i < l.n; i++) {
		const struct pl_run *r = &l.v[i];
		if (r->reject)
			continue;
		t->measures += r->nmeasure;
		for (size_t e = 0; e < r->nextra; e++) {
			const char *name = r->extra[e].name, *dot = strchr(name, '.');
			const struct pl_adapter_info *info = info_of(name, (size_t)(dot - name));
			t->extras++;
			if (pl_inventory_classify(info, r->format_version, dot + 1,
			                          text_kind(r->extra[e].value), NULL) == PL_KEY_MEASURE) {
				printf("measurement kept as a condition: %s: %s = %s\n", path, name,
				       r->extra[e].value);
				t->doubtful++;
			}
		}
	}
	pl_run_list_release(&l);
}

static int input_name(const char *n)
{
	size_t k = strlen(n);
	if (n[0] == '.' || (k > 16 && strcmp(n + k - 16, ".conditions.json") == 0))
		return 0;
	return (k > 5 && strcmp(n + k - 5, ".json") == 0) || (k > 6 && strcmp(n + k - 6, ".jsonl") == 0) ||
	       (k > 4 && (strcmp(n + k - 4, ".csv") == 0 || strcmp(n + k - 4, ".txt") == 0 ||
	                  strcmp(n + k - 4, ".yml") == 0)) ||
	       (k > 5 && strcmp(n + k - 5, ".yaml") == 0);
}

static void corpus_dir(const char *dir, struct tally *t)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat sb;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && stat(path, &sb) == 0) {
			if (S_ISDIR(sb.st_mode))
				corpus_dir(path, t);
			else if (S_ISREG(sb.st_mode) && input_name(names[i]->d_name))
				corpus_file(path, t);
		}
		free(names[i]);
	}
	free(names);
}

/* Done-check: every corpus file imports with no measurement classified
 * as a condition (no extra condition of a measurement's shape). */
static void test_corpus_no_measurement_is_a_condition(void **state)
{
	struct tally t = {0};
	struct stat sb;

	(void)state;
	if (stat(PL_CORPUS_DIR, &sb) != 0 || !S_ISDIR(sb.st_mode))
		need_shared(PL_CORPUS_DIR); /* skips, saying so */
	corpus_dir(PL_CORPUS_DIR, &t);
	printf("corpus: %zu files, %zu read, %zu extra conditions, %zu unplaced measurements, %zu "
	       "measurement-shaped extras\n",
	       t.files, t.read, t.extras, t.measures, t.doubtful);
	assert_true(t.read > 0);
	assert_int_equal(t.doubtful, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_vllm_spec_decode),
		cmocka_unit_test(test_vllm_ten_positions),
		cmocka_unit_test(test_trtllm_decoding_stats),
		cmocka_unit_test(test_correct_rate_and_accept_length),
		cmocka_unit_test(test_mlperf_renamed_tpot),
		cmocka_unit_test(test_inferencex_request_metrics),
		cmocka_unit_test(test_no_measurements),
		cmocka_unit_test(test_measurements_never_refuse),
		cmocka_unit_test(test_corpus_no_measurement_is_a_condition),
	};
	pl_adapters_init();
	return shared_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
