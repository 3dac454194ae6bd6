/*
 * test_prepare.c — the import's prepare step (src/import/prepare.c) on one
 * file, without threads, files on disk or a store: the sidecar overlay,
 * --set overriding the file (with its warning), engine_args filling the
 * parallel sizes, and a disagreement refused with its exact message. The
 * file and its sidecar are bytes in memory, parsed by the adapters as the
 * importer parses them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "adapters/adapters.h"
#include "core/error.h"
#include "core/model.h"
#include "import/import.h"
#include "import/import_impl.h"

#define PATH "prep/run.json"
#define SIDE "prep/run.conditions.json"
#define SHA "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

/* Parses text as PATH into *runs (one or more runs), as the importer does
 * before the prepare step. */
static void parse(const char *text, struct pl_run_list *runs)
{
	struct pl_error err;

	pl_run_list_init(runs);
	pl_error_init(&err);
	assert_int_equal(pl_adapters_parse(PATH, text, strlen(text), NULL, runs, &err), 0);
	assert_true(runs->n >= 1);
}

/* pl_import_prepare() on runs with the sidecar text side (NULL: none) and
 * the --set list set[0..nset). Returns its result; *warnings (caller frees)
 * and *err get what it gave. */
static int prepare(struct pl_run_list *runs, const char *side, const struct pl_kv *set,
                   size_t nset, size_t *refonly, char **warnings, struct pl_error *err)
{
	struct pl_import_opts opts = {0};

	opts.set = set;
	opts.nset = nset;
	*refonly = 0;
	*warnings = NULL;
	pl_error_init(err);
	return pl_import_prepare(&opts, PATH, SHA, side ? SIDE : NULL, side,
	                         side ? strlen(side) : 0, runs, 0, 0, refonly, warnings, err);
}

/* --set wins over a value the file records, and says so in a warning that
 * names both values; the run gets the file's sha256. */
static void test_set_overrides_file(void **state)
{
	static const struct pl_kv set[] = {{"precision", "fp8"}};
	struct pl_run_list runs;
	struct pl_error err;
	size_t refonly;
	char *warnings;

	(void)state;
	parse("{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\","
	      " \"hardware\": \"1x A100\", \"metric\": {\"ttft_p50\": 0.3}}",
	      &runs);
	assert_int_equal(prepare(&runs, NULL, set, 1, &refonly, &warnings, &err), 0);
	assert_string_equal(runs.v[0].cond[PL_C_PRECISION].text, "fp8");
	assert_string_equal(runs.v[0].sha256, SHA);
	assert_non_null(warnings);
	assert_string_equal(warnings, "--set precision=fp8 replaces 'bfloat16' from the file");
	assert_int_equal(refonly, 1); /* the checklist conditions are not all given */
	free(warnings);
	pl_run_list_release(&runs);
}

/* A --set value the file agrees with is no news: no warning. */
static void test_set_agreeing_is_silent(void **state)
{
	static const struct pl_kv set[] = {{"precision", "bfloat16"}};
	struct pl_run_list runs;
	struct pl_error err;
	size_t refonly;
	char *warnings;

	(void)state;
	parse("{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\","
	      " \"hardware\": \"1x A100\", \"metric\": {\"ttft_p50\": 0.3}}",
	      &runs);
	assert_int_equal(prepare(&runs, NULL, set, 1, &refonly, &warnings, &err), 0);
	assert_null(warnings);
	pl_run_list_release(&runs);
}

/* The sidecar supplies what the file lacks and overrides what it has;
 * --set overrides the sidecar. */
static void test_sidecar_values(void **state)
{
	static const struct pl_kv set[] = {{"engine", "sglang"}};
	struct pl_run_list runs;
	struct pl_error err;
	size_t refonly;
	char *warnings;

	(void)state;
	parse("{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\","
	      " \"hardware\": \"1x A100\", \"metric\": {\"ttft_p50\": 0.3}}",
	      &runs);
	assert_int_equal(prepare(&runs,
	                         "{\"driver_version\": \"550.90.07\", \"hardware\": \"8x H100\","
	                         " \"engine\": \"trt-llm\"}",
	                         set, 1, &refonly, &warnings, &err),
	                 0);
	assert_string_equal(runs.v[0].cond[PL_C_DRIVER_VERSION].text, "550.90.07");
	assert_string_equal(runs.v[0].cond[PL_C_HARDWARE].text, "8x H100");
	assert_string_equal(runs.v[0].cond[PL_C_ENGINE].text, "sglang");
	free(warnings);
	pl_run_list_release(&runs);
}

/* engine_args gives tensor_parallel_size when nothing else does. */
static void test_engine_args_fills(void **state)
{
	struct pl_run_list runs;
	struct pl_error err;
	size_t refonly;
	char *warnings;

	(void)state;
	parse("{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\","
	      " \"hardware\": \"8x H100\", \"engine_args\": \"--tensor-parallel-size 8\","
	      " \"metric\": {\"ttft_p50\": 0.3}}",
	      &runs);
	assert_false(runs.v[0].cond[PL_C_TENSOR_PARALLEL_SIZE].set);
	assert_int_equal(prepare(&runs, NULL, NULL, 0, &refonly, &warnings, &err), 0);
	assert_true(runs.v[0].cond[PL_C_TENSOR_PARALLEL_SIZE].set);
	assert_true(runs.v[0].cond[PL_C_TENSOR_PARALLEL_SIZE].num == 8);
	free(warnings);
	pl_run_list_release(&runs);
}

/* A sidecar value that engine_args contradicts is refused, naming both
 * values and the flag, located at the file and the field: the sidecar is
 * applied before engine_args is read. */
static void test_disagreement_refused(void **state)
{
	struct pl_run_list runs;
	struct pl_error err;
	size_t refonly;
	char *warnings;

	(void)state;
	parse("{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\","
	      " \"hardware\": \"8x H100\", \"engine_args\": \"vllm serve m -tp 8\","
	      " \"metric\": {\"ttft_p50\": 0.3}}",
	      &runs);
	assert_int_equal(prepare(&runs, "{\"tensor_parallel_size\": 4}", NULL, 0, &refonly,
	                         &warnings, &err),
	                 PL_EINVALID);
	assert_string_equal(err.message,
	                    "tensor_parallel_size is 4 but engine_args says 8 (-tp): they must agree");
	assert_string_equal(err.file, PATH);
	assert_string_equal(err.field, "tensor_parallel_size");
	assert_null(warnings);
	pl_run_list_release(&runs);
}

/* In a file of several runs, a refusal names the record and is that
 * record's alone: the run gets it in run->reject, the others are kept. */
static void test_record_named(void **state)
{
	static const struct pl_kv set[] = {{"tensor_parallel_size", "2"}};
	struct pl_run_list runs;
	struct pl_error err;
	size_t refonly;
	char *warnings;

	(void)state;
	parse("[{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\","
	      " \"hardware\": \"8x H100\", \"metric\": {\"ttft_p50\": 0.3}},"
	      " {\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\","
	      " \"hardware\": \"8x H100\", \"engine_args\": \"--tensor-parallel-size=8\","
	      " \"metric\": {\"ttft_p50\": 0.3}}]",
	      &runs);
	assert_int_equal(runs.n, 2);
	assert_int_equal(prepare(&runs, NULL, set, 1, &refonly, &warnings, &err), 0);
	assert_null(runs.v[0].reject);
	assert_non_null(runs.v[1].reject);
	assert_int_equal(runs.v[1].reject->code, PL_EINVALID);
	assert_string_equal(runs.v[1].reject->message,
	                    "record 1: tensor_parallel_size is 2 but engine_args says "
	                    "8 (--tensor-parallel-size): they must agree");
	assert_string_equal(runs.v[1].reject->field, "tensor_parallel_size");
	free(warnings);
	pl_run_list_release(&runs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_overrides_file),
		cmocka_unit_test(test_set_agreeing_is_silent),
		cmocka_unit_test(test_sidecar_values),
		cmocka_unit_test(test_engine_args_fills),
		cmocka_unit_test(test_disagreement_refused),
		cmocka_unit_test(test_record_named),
	};

	pl_adapters_init(); /* cJSON's allocator hooks, as main() does */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
