/*
 * test_inventory.c — the field inventories against every real file.
 *
 * Walks ../shared/corpus and ../shared/cases (read in place; the test is
 * skipped, saying so, when they are absent), parses every file an adapter
 * reads (*.json, *.jsonl, *.yaml, *.yml, *.csv, *.txt; sidecars and files
 * refused by name are not runs) and fails on any key that no inventory
 * knows, printing the file and the key: such a key became an extra
 * condition "FORMAT.key" with a warning, which is right for a user's
 * unknown file but means the inventory of a format we claim to read is
 * incomplete. Also checks the walk itself on small inputs, with the exact
 * extra names, values and warnings.
 */
#define _GNU_SOURCE /* memmem, scandir */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "adapters/adapters.h"
#include "core/error.h"
#include "core/model.h"

#include "corpus_fixture.h"

static int has_ext(const char *s, const char *e)
{
	size_t n = strlen(s), m = strlen(e);
	return n >= m && strcmp(s + n - m, e) == 0;
}

static int readable_input(const char *name)
{
	if (name[0] == '.' || has_ext(name, ".conditions.json"))
		return 0;
	return has_ext(name, ".json") || has_ext(name, ".jsonl") || has_ext(name, ".yaml") ||
	       has_ext(name, ".yml") || has_ext(name, ".csv") || has_ext(name, ".txt");
}

struct tally {
	size_t files, read, refused, unknown, extras;
};

/* Parses one file; prints and counts every extra of its runs. */
static void check_file(const char *path, struct tally *t)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	size_t len;
	char *buf = slurp(path, &len);

	t->files++;
	pl_error_init(&err);
	if (pl_adapters_parse(path, buf, len, NULL, &l, &err) != 0) {
		t->refused++; /* not read by an adapter: nothing to account for */
		free(buf);
		return;
	}
	free(buf);
	t->read++;
	for (size_t i = 0; i < l.n; i++) {
		/* an unknown key is an extra with a warning naming it; the
		 * inventory's own "extra" keys are kept without one */
		const char *w = l.v[i].warnings;
		t->extras += l.v[i].nextra;
		while (w && *w) {
			const char *nl = strchr(w, '\n');
			size_t n = nl ? (size_t)(nl - w) : strlen(w);
			if (memmem(w, n, "field inventory: ", 17) && memmem(w, n, " kept as ", 9)) {
				printf("unknown key: %s (record %ld): %.*s\n", path, l.v[i].record, (int)n, w);
				t->unknown++;
			}
			w = nl ? nl + 1 : w + n;
		}
	}
	pl_run_list_release(&l);
}

static void walk_dir(const char *dir, struct tally *t)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat sb;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && stat(path, &sb) == 0) {
			if (S_ISDIR(sb.st_mode))
				walk_dir(path, t);
			else if (S_ISREG(sb.st_mode) && readable_input(names[i]->d_name))
				check_file(path, t);
		}
		free(names[i]);
	}
	free(names);
}

static void test_every_shared_key_is_known(void **state)
{
	static const char *const roots[] = {PL_CORPUS_DIR, PL_CORPUS_DIR "/../cases"};
	struct tally t = {0};
	int present = 0;

	(void)state;
	for (size_t r = 0; r < 2; r++) {
		struct stat sb;
		if (stat(roots[r], &sb) != 0 || !S_ISDIR(sb.st_mode)) {
			printf("note: %s is absent: its files are not checked\n", roots[r]);
			continue;
		}
		present++;
		walk_dir(roots[r], &t);
	}
	if (!present)
		need_shared(roots[0]); /* skips, saying so */
	printf("inventory: %zu files, %zu read by an adapter, %zu refused, %zu unknown keys, "
	       "%zu extra conditions kept by the inventories\n",
	       t.files, t.read, t.refused, t.unknown, t.extras);
	assert_true(t.read > 0);
	assert_int_equal(t.unknown, 0);
}

static void parse_ok(const char *path, const char *text, struct pl_run_list *l)
{
	struct pl_error err;

	pl_error_init(&err);
	if (pl_adapters_parse(path, text, strlen(text), NULL, l, &err) != 0)
		fail_msg("%s: %s", path, err.message);
}

/* Unknown keys of a JSON record: nested objects by dotted path, arrays of
 * objects as [], scalars and arrays as their JSON text, long values cut;
 * each kept with one warning; known keys (mapped, ignored) leave nothing
 * (an inventory "extra" key, kept quietly: test_layout_versions's InferenceMAX). */
static void test_walk_json_record(void **state)
{
	struct pl_run_list l = {0};
	char text[2048], longv[301];

	(void)state;
	memset(longv, 'a', 300);
	longv[300] = '\0';
	snprintf(text, sizeof(text),
	         "{\"date\": \"20250304-014141\", \"backend\": \"vllm\", \"num_prompts\": 10,"
	         " \"completed\": 10, \"mean_ttft_ms\": 20, \"p25_ttft_ms\": 1, \"generated_texts\": [\"x\"],"
	         " \"new_knob\": 3, \"nested\": {\"a\": \"x\", \"b\": {\"c\": true}},"
	         " \"arr\": [{\"k\": 1}, {\"k\": 2, \"j\": \"y\"}, {\"k\": 1}], \"scalars\": [1, 2.5],"
	         " \"nul\": null, \"max_num_seqs\": 256, \"long\": \"%s\"}",
	         longv);
	parse_ok("w.json", text, &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.v[0].nextra, 6);
	expect_extra(&l.v[0], "vllm-serving.new_knob", "3");
	expect_extra(&l.v[0], "vllm-serving.nested.a", "x");
	expect_extra(&l.v[0], "vllm-serving.nested.b.c", "true");
	/* each element's value at its index, as JSON: positions and types kept */
	expect_extra(&l.v[0], "vllm-serving.arr[].k", "[0]=1; [1]=2; [2]=1");
	expect_extra(&l.v[0], "vllm-serving.arr[].j", "[1]=\"y\"");
	/* an array of numbers is a measurement (the rule's shape step), kept
	 * as its JSON text; JSON null is missing, never the text "null" */
	assert_null(pl_run_extra(&l.v[0], "vllm-serving.scalars"));
	assert_int_equal(l.v[0].nmeasure, 1);
	assert_string_equal(l.v[0].measure[0].name, "vllm-serving.scalars");
	assert_string_equal(l.v[0].measure[0].json, "[1,2.5]");
	assert_null(pl_run_extra(&l.v[0], "vllm-serving.nul"));
	/* a mapped key leaves no extra: the sweep's max_num_seqs is a condition */
	assert_null(pl_run_extra(&l.v[0], "vllm-serving.max_num_seqs"));
	assert_string_equal(l.v[0].cond[PL_C_MAX_NUM_SEQS].text, "256");
	/* 300 bytes -> the first 235, "... #" and 16 hex digits of the sha256
	 * of all 300 (by hand: sha256 of 300 'a' starts 9835fa6bf4e20a9b) */
	assert_int_equal(strlen(pl_run_extra(&l.v[0], "vllm-serving.long")), 256);
	assert_memory_equal(pl_run_extra(&l.v[0], "vllm-serving.long"), longv, 235);
	assert_string_equal(pl_run_extra(&l.v[0], "vllm-serving.long") + 235, "... #9835fa6bf4e20a9b");
	/* one summary line: how many of each, and which */
	assert_string_equal(
		l.v[0].warnings,
		"7 keys not in the vllm-serving field inventory: 6 kept as extra conditions (new_knob, "
		"nested.a, nested.b.c, arr[].k, arr[].j, long); 1 kept as unplaced measurement (scalars)");
	pl_run_list_release(&l);

	/* every key known: no warning; burstiness is its condition */
	parse_ok("k.json",
	         "{\"date\": \"20250304-014141\", \"backend\": \"vllm\", \"completed\": 2,"
	         " \"p99.9_ttft_ms\": 5, \"request_goodput:\": null, \"burstiness\": 1.0}",
	         &l);
	assert_null(l.v[0].warnings);
	assert_string_equal(l.v[0].cond[PL_C_BURSTINESS].text, "1");
	assert_int_equal(l.v[0].nextra, 0);
	pl_run_list_release(&l);

	/* a key the inventory maps to a condition that this record does not
	 * give (random_input_len of a sharegpt run: input_tokens is left
	 * missing) is kept as a quiet extra, not dropped */
	parse_ok("s.jsonl",
	         "{\"backend\": \"sglang\", \"dataset_name\": \"sharegpt\", \"completed\": 2,"
	         " \"random_input_len\": 1024, \"random_output_len\": 128,"
	         " \"sharegpt_output_len\": null, \"mean_e2e_latency_ms\": 10}\n",
	         &l);
	assert_false(l.v[0].cond[PL_C_INPUT_TOKENS].set);
	assert_int_equal(l.v[0].nextra, 2);
	expect_extra(&l.v[0], "sglang-bench-serving.random_input_len", "1024");
	expect_extra(&l.v[0], "sglang-bench-serving.random_output_len", "128");
	assert_null(l.v[0].warnings);
	pl_run_list_release(&l);
}

/* Extras that must stay apart stay apart (a fresh-user attack found each
 * of these pooling): long values differing after the cut, "1; 2" in one
 * element vs two elements, a member missing in one element vs the other,
 * a string vs a number inside an array, an empty object vs none. And a
 * file with more unknown keys than any real format has is refused. */
static void test_extras_stay_apart(void **state)
{
	static const char *const pairs[][2] = {
		{"\"cfg\": [{\"a\": \"1; 2\"}]", "\"cfg\": [{\"a\": \"1\"}, {\"a\": \"2\"}]"},
		{"\"cfg\": [{\"a\": 1}, {}]", "\"cfg\": [{}, {\"a\": 1}]"},
		{"\"cfg\": [{\"a\": 1}]", "\"cfg\": [{\"a\": \"1\"}]"},
		{"\"cfg\": {}", "\"other\": 1"},
		{"\"cfg\": [{\"s\": [{\"k\": 1}]}, {\"s\": [{\"k\": 2}]}]",
		 "\"cfg\": [{\"s\": [{\"k\": 1}, {\"k\": 2}]}]"},
	};
	const char *head = "{\"date\": \"20250304-014141\", \"backend\": \"vllm\", \"completed\": 2, "
	                   "\"mean_ttft_ms\": 20, ";
	char a[8192], b[8192], longv[400];
	struct pl_run_list la = {0}, lb = {0};

	(void)state;
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		snprintf(a, sizeof(a), "%s%s}", head, pairs[i][0]);
		snprintf(b, sizeof(b), "%s%s}", head, pairs[i][1]);
		parse_ok("a.json", a, &la);
		parse_ok("b.json", b, &lb);
		if (pl_run_extras_equal(&la.v[0], &lb.v[0]))
			fail_msg("pair %zu pools: %s vs %s", i, pairs[i][0], pairs[i][1]);
		pl_run_list_release(&la);
		pl_run_list_release(&lb);
	}
	parse_ok("a.json", "{\"date\": \"20250304-014141\", \"backend\": \"vllm\", \"completed\": 2,"
	                   " \"mean_ttft_ms\": 20, \"cfg\": [{\"s\": [{\"k\": 1}, {\"k\": 2}]}, {\"s\": [{\"k\": 3}]}]}", &la);
	expect_extra(&la.v[0], "vllm-serving.cfg[].s[].k", "[0][0]=1; [0][1]=2; [1][0]=3");
	pl_run_list_release(&la);
	parse_ok("a.json", "{\"date\": \"20250304-014141\", \"backend\": \"vllm\", \"completed\": 2,"
	                   " \"mean_ttft_ms\": 20, \"cfg\": {}}", &la);
	expect_extra(&la.v[0], "vllm-serving.cfg", "{}");
	pl_run_list_release(&la);

	/* 300 bytes that differ only in the last: two hashes, by hand */
	memset(longv, 'a', 299);
	longv[299] = 'b';
	longv[300] = '\0';
	snprintf(a, sizeof(a), "%s\"long\": \"%s\"}", head, longv);
	parse_ok("a.json", a, &la);
	assert_string_equal(pl_run_extra(&la.v[0], "vllm-serving.long") + 235, "... #daf00507ddaa912f");
	pl_run_list_release(&la);

	/* 1025 unknown keys: not a vLLM result, whatever its first keys say */
	{
		size_t len = 0, cap = 1025 * 16 + 200;
		char *big = malloc(cap);
		struct pl_error err;
		assert_non_null(big);
		len += (size_t)snprintf(big + len, cap - len, "%s", head);
		for (int k = 0; k < 1025; k++)
			len += (size_t)snprintf(big + len, cap - len, "%s\"u%d\": %d", k ? ", " : "", k, k);
		snprintf(big + len, cap - len, "}");
		pl_error_init(&err);
		assert_int_equal(pl_adapters_parse("big.json", big, strlen(big), NULL, &la, &err), PL_EINVALID);
		assert_string_equal(err.message, "more than 1024 keys that the vllm-serving field inventory "
		                                 "does not know (the last: 'u1024'): is this file in the "
		                                 "vllm-serving format?");
		assert_int_equal(la.n, 0);
		free(big);
	}
}

/* Text and CSV formats: an unknown "key : value" line and an unknown
 * column are kept per run with the line's value / the row's cell. */
static void test_walk_text_and_csv(void **state)
{
	struct pl_run_list l = {0};

	(void)state;
	parse_ok("s.txt",
	         "================================================\n"
	         "MLPerf Results Summary\n"
	         "================================================\n"
	         "SUT name : PySUT\n"
	         "Scenario : Server\n"
	         "Mode     : PerformanceOnly\n"
	         "Completed samples per second    : 3.5\n"
	         "Result is : VALID\n"
	         "Fan speed (rpm) : 1200\n",
	         &l);
	assert_int_equal(l.n, 1);
	expect_extra(&l.v[0], "mlperf.Fan speed (rpm)", "1200");
	/* Scenario is the condition scenario, or its quiet extra until mapped */
	if (!l.v[0].cond[PL_C_SCENARIO].set)
		expect_extra(&l.v[0], "mlperf.Scenario", "Server");
	assert_int_equal(l.v[0].nextra, l.v[0].cond[PL_C_SCENARIO].set ? 1 : 2);
	assert_string_equal(l.v[0].warnings, "1 key not in the mlperf field inventory: 1 kept as "
	                                     "extra condition (Fan speed (rpm))");
	pl_run_list_release(&l);

	parse_ok("summary.csv",
	         "exp_name,tp,conc,offload,status,num_requests,throughput_rps,gpu_clock\n"
	         "a,4,8,none,SUCCESS,10,1.5,1980\n"
	         "b,8,8,none,SUCCESS,10,2.5,2100\n",
	         &l);
	assert_int_equal(l.n, 2);
	/* offload is the condition kv_offload, or its quiet extra until mapped */
	if (!l.v[0].cond[PL_C_KV_OFFLOAD].set)
		expect_extra(&l.v[0], "inferencemax-summary-csv.offload", "none");
	assert_int_equal(l.v[0].nextra, l.v[0].cond[PL_C_KV_OFFLOAD].set ? 1 : 2);
	assert_string_equal(l.v[0].warnings,
	                    "1 key not in the inferencemax-summary-csv field inventory: 1 kept as "
	                    "extra condition (gpu_clock)");
	expect_extra(&l.v[0], "inferencemax-summary-csv.gpu_clock", "1980");
	expect_extra(&l.v[1], "inferencemax-summary-csv.gpu_clock", "2100");
	pl_run_list_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk_json_record),
		cmocka_unit_test(test_extras_stay_apart),
		cmocka_unit_test(test_walk_text_and_csv),
		cmocka_unit_test(test_every_shared_key_is_known),
	};
	pl_adapters_init(); /* cJSON's allocator hooks, as main() does */
	return shared_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
