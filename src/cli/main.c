/*
 * main.c — perfledger's entry point: global options and the command table.
 *
 *   perfledger [--db PATH] COMMAND [ARGS...]
 *
 * The database is --db, else $PERFLEDGER_DB, else ./perfledger.db. Each
 * command lives in cmd_<name>.c and only calls the library.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "util/suggest.h"
#include "adapters/adapters.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "core/model.h"

struct command {
	const char *name;    /* as typed */
	pl_cmd_fn fn;        /* implementation */
	const char *summary; /* one line for --help */
};

static const struct command commands[] = {
	{"import", cmd_import, "import benchmark result files (descriptors and the tools' formats 'formats' lists)"},
	{"list", cmd_list, "list stored runs"},
	{"compare", cmd_compare, "compare runs along an axis; refuses unlike conditions"},
	{"report", cmd_report, "render a report directory: Markdown, charts, workbook"},
	{"check", cmd_check, "CI gate: did the candidate regress against the baseline beyond noise?"},
	{"history", cmd_history, "one metric over time or versions, with its steps and a chart"},
	{"site", cmd_site, "a static offline web site of every series and metric, with charts"},
	{"accept", cmd_accept, "mark a step (or a check regression) of a metric as expected"},
	{"verify", cmd_verify, "re-render a report bundle and report every file that differs"},
	{"formats", cmd_formats, "list the input formats, their versions and field mappings"},
	{"show", cmd_show, "print one run whole: conditions, metrics, provenance and its trail"},
	{"requests", cmd_requests, "a run's request statistics, and its attainment and goodput at any SLO"},
	{"amend", cmd_amend, "correct stored conditions; the old values stay in the trail"},
	{"retract", cmd_retract, "take runs out of every comparison and report, without deleting"},
	{"restore", cmd_restore, "put retracted runs back"},
	{"purge", cmd_purge, "delete retracted runs for good, saying what was deleted"},
	{"export", cmd_export, "write the ledger as JSONL that 'import' reads back into an equal ledger"},
	{"merge", cmd_merge, "bring other ledgers' runs, steps and source bytes into this one"},
	{"push", cmd_push, "send this ledger's runs to a team hub on PostgreSQL"},
	{"pull", cmd_pull, "bring a team hub's new runs into this ledger, as merge would"},
	{"reimport", cmd_reimport, "re-derive stored runs from their kept source bytes with today's adapters"},
	{"migrate", cmd_migrate, "bring the database to this build's schema (reading commands never do)"},
	{"help", NULL, "print a command's usage and options: perfledger help COMMAND"},
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: perfledger [--db PATH] COMMAND [ARGS...]\n\n"
	           "An offline results database and comparison reporter for LLM inference "
	           "benchmarks.\n\nCommands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nOptions:\n"
	           "  --db PATH   database file (default: $PERFLEDGER_DB, else ./perfledger.db)\n"
	           "  --help      this text;  perfledger help COMMAND for a command\n"
	           "  --version   print the version\n\n%s",
	        pl_exit_help);
}

/* `perfledger --completion-helper [WHAT]`: the names the completion
 * scripts offer, one a line, from the tables themselves. WHAT: commands
 * (default; name TAB summary), options (the global ones, as
 * pl_options_list), metrics, conditions, formats. */
static int completion_helper(const char *what)
{
	if (!what || strcmp(what, "commands") == 0) {
		for (size_t i = 0; i < N_COMMANDS; i++)
			printf("%s\t%s\n", commands[i].name, commands[i].summary);
	} else if (strcmp(what, "options") == 0) {
		printf("--db\t\tPATH\n--help\t-h\t\n--version\t\t\n");
	} else if (strcmp(what, "metrics") == 0) {
		for (int i = 0; i < PL_METRIC_COUNT; i++)
			printf("%s\n", pl_metric_info[i].name);
	} else if (strcmp(what, "conditions") == 0) {
		for (int i = 0; i < PL_COND_COUNT; i++)
			printf("%s\n", pl_cond_info[i].name);
	} else if (strcmp(what, "formats") == 0) {
		size_t n;
		const struct pl_adapter_info *a = pl_adapters_list(&n);
		for (size_t i = 0; i < n; i++)
			printf("%s\n", a[i].name);
	} else {
		pl_cli_errorf(NULL, "--completion-helper: unknown list '%s' (commands, options, metrics, "
		                    "conditions, formats)", what);
		return PL_EXIT_USAGE;
	}
	return PL_EXIT_OK;
}

/* `perfledger help [COMMAND]`: the usage, or COMMAND --help. */
static int help(const struct pl_cli *cli, int argc, char **argv)
{
	char help_arg[] = "--help";

	if (argc < 2) {
		usage(stdout);
		return PL_EXIT_OK;
	}
	for (size_t c = 0; c < N_COMMANDS; c++)
		if (commands[c].fn && strcmp(argv[1], commands[c].name) == 0) {
			char *args[] = {argv[1], help_arg, NULL};
			return commands[c].fn(cli, 2, args);
		}
	if (strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return PL_EXIT_OK;
	}
	{
		const char *names[N_COMMANDS];
		char dym[96];
		for (size_t c = 0; c < N_COMMANDS; c++)
			names[c] = commands[c].name;
		pl_did_you_mean(dym, sizeof(dym), pl_suggest(argv[1], names, N_COMMANDS));
		pl_cli_errorf("help", "unknown command '%s'%s (see 'perfledger --help')", argv[1], dym);
	}
	return PL_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	struct pl_cli cli = {0};
	int i = 1;

	pl_adapters_init();
	cli.db_path = getenv("PERFLEDGER_DB");
	if (!cli.db_path || !*cli.db_path)
		cli.db_path = "perfledger.db";
	while (i < argc && argv[i][0] == '-') {
		if (strcmp(argv[i], "--db") == 0) {
			if (i + 1 >= argc || !*argv[i + 1]) {
				fprintf(stderr, "perfledger: --db needs a PATH\n");
				return PL_EXIT_USAGE;
			}
			cli.db_path = argv[i + 1];
			i += 2;
		} else if (strncmp(argv[i], "--db=", 5) == 0 && argv[i][5]) {
			cli.db_path = argv[i] + 5;
			i++;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return pl_cli_finish(PL_EXIT_OK);
		} else if (strcmp(argv[i], PL_OPTIONS_HELPER) == 0) {
			return pl_cli_finish(completion_helper(i + 1 < argc ? argv[i + 1] : NULL));
		} else if (strcmp(argv[i], "--version") == 0) {
			printf("perfledger %s\n", PL_VERSION);
			return pl_cli_finish(PL_EXIT_OK);
		} else {
			static const char *const global[] = {"--db", "--help", "--version"};
			char dym[96];
			pl_cli_errorf(NULL, "unknown option '%s'%s", argv[i],
			              pl_did_you_mean(dym, sizeof(dym), pl_suggest(argv[i], global, 3)));
			usage(stderr);
			return PL_EXIT_USAGE;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return PL_EXIT_USAGE;
	}
	if (strcmp(argv[i], "help") == 0)
		return pl_cli_finish(help(&cli, argc - i, argv + i));
	for (size_t c = 0; c < N_COMMANDS; c++)
		if (commands[c].fn && strcmp(argv[i], commands[c].name) == 0)
			return pl_cli_finish(commands[c].fn(&cli, argc - i, argv + i));
	{
		const char *names[sizeof(commands) / sizeof(commands[0])];
		char dym[96];
		for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++)
			names[c] = commands[c].name;
		pl_did_you_mean(dym, sizeof(dym), pl_suggest(argv[i], names, sizeof(names) / sizeof(names[0])));
		pl_cli_errorf(NULL, "unknown command '%s'%s (see 'perfledger --help')", argv[i], dym);
	}
	return PL_EXIT_USAGE;
}
