/*
 * fuzz_parse.c — libFuzzer harness for pl_adapters_parse(): every input
 * adapter, forced by name through $PL_FUZZ_FORMAT ("auto" or unset:
 * detection from content), then the descriptor validator on every run the
 * adapter produced (normalize + validate, as the import does). Built and
 * run by fuzz/run.sh with clang -fsanitize=fuzzer,address,undefined.
 * PL_FUZZ_LIST=1 prints the adapter names and exits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/adapters.h"
#include "core/normalize.h"
#include "core/validate.h"

static const char *format; /* NULL: detect */
static const char *path = "fuzz.json";

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *f = getenv("PL_FUZZ_FORMAT");
	const char *p = getenv("PL_FUZZ_PATH");

	(void)argc;
	(void)argv;
	pl_adapters_init(); /* cJSON's allocator hooks, as main() does */
	if (getenv("PL_FUZZ_LIST")) {
		size_t n;
		const struct pl_adapter_info *a = pl_adapters_list(&n);
		for (size_t i = 0; i < n; i++)
			printf("%s\n", a[i].name);
		exit(0);
	}
	if (f && strcmp(f, "auto") != 0)
		format = f;
	if (p)
		path = p; /* e.g. x.jsonl selects JSONL reading */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pl_run_list runs = {0};
	struct pl_error err;

	pl_error_init(&err);
	if (pl_adapters_parse(path, (const char *)data, size, format, &runs, &err) == 0) {
		for (size_t i = 0; i < runs.n; i++) {
			pl_error_init(&err);
			if (pl_normalize_run(&runs.v[i], &err) == 0)
				pl_validate_run(&runs.v[i], &err);
		}
	}
	pl_run_list_release(&runs);
	return 0;
}
