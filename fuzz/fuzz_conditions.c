/*
 * fuzz_conditions.c — libFuzzer harness for pl_adapters_parse_conditions()
 * (sidecar NAME.conditions.json files), followed by the launch flags of
 * its engine_args, normalize and validate of the run it filled, as the
 * import does.
 */
#include <stdint.h>

#include "adapters/adapters.h"
#include "core/engine_args.h"
#include "core/normalize.h"
#include "core/validate.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	pl_adapters_init(); /* cJSON's allocator hooks, as main() does */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pl_run run;
	struct pl_error err;

	pl_run_init(&run);
	pl_error_init(&err);
	if (pl_adapters_parse_conditions("fuzz.conditions.json", (const char *)data, size, &run,
	                                 &err) == 0) {
		pl_error_init(&err);
		if (pl_engine_args_apply(&run, &err) == 0 && pl_normalize_run(&run, &err) == 0)
			pl_validate_run(&run, &err);
	}
	pl_run_release(&run);
	return 0;
}
