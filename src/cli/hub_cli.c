/*
 * hub_cli.c — what push and pull share: their command line,
 * `[--where FIELD=VALUE]... [--summary text|json] URL`.
 */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "cli/options.h"

int pl_cli_hub_args(const char *cmd, const char *usage_text, int argc, char **argv,
                    struct pl_selection *sel, int *json, const char **url)
{
	const struct pl_option options[] = {
		PL_OPT_CALLBACK_ENTRY("where", 0, "FIELD=VALUE", sel, pl_sel_opt_where, NULL),
		PL_OPT_CALLBACK_ENTRY("summary", 0, "F", json, pl_cli_opt_summary,
		                      "the summary as text (default) or json"),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = cmd,
		.head = usage_text,
		.options = options,
	};
	int argi, rc;

	memset(sel, 0, sizeof(*sel));
	*json = 0;
	*url = NULL;
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		return rc;
	if (argi + 1 != argc) {
		pl_cli_errorf(cmd, "%s takes one hub (usage: perfledger %s [--where FIELD=VALUE]... URL)",
		              cmd, cmd);
		return PL_EXIT_USAGE;
	}
	*url = argv[argi];
	return PL_OPTIONS_CONTINUE;
}
