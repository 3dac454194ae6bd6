/*
 * cmd_migrate.c — `perfledger migrate`: bring an existing database to the
 * schema of this build. The commands that only read open the database
 * read-only and refuse one whose schema is older (issue 12); this is the
 * command their message names. `import` and `accept` migrate too, as a
 * side effect of writing; migrate does only that.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/options.h"

static const char usage_text[] =
	"usage: perfledger [--db PATH] migrate\n"
	"\n"
	"Applies the schema migrations the database lacks, each in its own\n"
	"transaction, then switches it to WAL mode; a migration that fails is undone\n"
	"and the file is not switched. The commands that only read (list, compare,\n"
	"report, check, history, verify) never change the file and refuse a database\n"
	"whose schema is older than theirs. A missing database is not created (import\n"
	"creates one).\n";

int cmd_migrate(const struct pl_cli *cli, int argc, char **argv)
{
	const struct pl_option options[] = {PL_OPT_END_ENTRY};
	const struct pl_usage usage = {
		.cmd = "migrate",
		.head = usage_text,
		.options = options,
		.width = 16,
		.no_operands = 1,
	};
	struct pl_store *st;
	int argi = 1, rc, from;

	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		return rc;
	st = pl_cli_open_store(cli, PL_CLI_STORE_WRITE);
	if (!st)
		return PL_EXIT_USAGE;
	from = pl_store_opened_version(st);
	pl_store_close(st);
	fputs("database '", stdout);
	pl_cli_put_inert(stdout, cli->db_path);
	if (from == pl_store_schema_version())
		printf("' is at schema version %d already\n", from);
	else
		printf("' migrated from schema version %d to %d\n", from, pl_store_schema_version());
	return PL_EXIT_OK;
}
