/*
 * cmd_formats.c — `perfledger formats`: the input formats, the versions of
 * each that are read, and how their fields map to canonical names and units
 * (pl_adapters_list(); the same text as schema/formats.md).
 */
#include <stdio.h>
#include <string.h>

#include "adapters/adapters.h"
#include "cli/cli.h"

static const char usage_text[] =
	"usage: perfledger formats [NAME]\n"
	"\n"
	"Lists the input formats `import` reads (detected from content; force one\n"
	"with `import --format NAME`), the versions of each, and the mapping of\n"
	"each format's fields to canonical conditions and metrics (canonical\n"
	"units: seconds, tokens/s, requests/s, fraction). With NAME, only that one.\n";

int cmd_formats(const struct pl_cli *cli, int argc, char **argv)
{
	size_t n = 0, shown = 0;
	const struct pl_adapter_info *a = pl_adapters_list(&n);
	const char *only = NULL;

	(void)cli;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage_text, stdout);
			return pl_cli_finish(PL_EXIT_OK);
		}
		if (argv[i][0] == '-' || only) {
			pl_cli_errorf("formats", "unexpected argument '%s'", argv[i]);
			fputs(usage_text, stderr);
			return PL_EXIT_USAGE;
		}
		only = argv[i];
	}
	for (size_t i = 0; i < n; i++) {
		if (only && strcmp(only, a[i].name) != 0)
			continue;
		printf("%s%s — %s\n  versions: %s\n  mapping:\n", shown ? "\n" : "", a[i].name,
		       a[i].description, a[i].versions);
		for (size_t k = 0; a[i].mapping && a[i].mapping[k]; k++)
			printf("    %s\n", a[i].mapping[k]);
		shown++;
	}
	if (only && !shown) {
		pl_cli_errorf("formats", "unknown format '%s'", only);
		return PL_EXIT_USAGE;
	}
	return pl_cli_finish(PL_EXIT_OK);
}
