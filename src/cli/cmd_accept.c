/*
 * cmd_accept.c — `perfledger accept`: mark a step of a metric as expected.
 *
 * A separate command, not a `history --accept` option, because history and
 * check only read the database; writing a judgement is its own act, with
 * its own reason, and scripts can grep for it. The step is named by the
 * first run after it (printed by history and listed by check) and the
 * metric. `accept --list` shows what has been accepted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/history.h"

static const char usage_text[] =
	"usage: perfledger accept --run ID --metric NAME --reason TEXT\n"
	"       perfledger accept --list [--metric NAME]\n"
	"\n"
	"Marks the step of metric NAME whose first run is ID as expected, with a reason\n"
	"(stored in the table accepted_steps; accepting the same run and metric again\n"
	"replaces the reason). An accepted step stays on the history chart, annotated,\n"
	"and no longer fails 'history --fail-on-step'; 'check' does not fail on a\n"
	"regression of that metric when the accepted run is one of the candidate's runs.\n"
	"\n";

/* --run ID: a run id, a whole number > 0, into the long long *id. */
static int opt_run(void *id, const char *arg, const char *cmd)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(arg, &end, 10);
	if (!*arg || *end || errno == ERANGE || v <= 0) {
		pl_cli_errorf(cmd, "bad --run '%s': expected a run id (a whole number)", arg);
		return PL_EXIT_USAGE;
	}
	*(long long *)id = v;
	return 0;
}

/* --metric NAME, into the int *metric (a metric id). */
static int opt_metric(void *metric, const char *arg, const char *cmd)
{
	int m = pl_metric_lookup(arg);

	if (m == PL_M_NONE) {
		pl_cli_errorf(cmd, "unknown metric '%s' (see 'perfledger compare --help')", arg);
		return PL_EXIT_USAGE;
	}
	*(int *)metric = m;
	return 0;
}

static int list_accepted(struct pl_store *st, int metric)
{
	struct pl_accepted_list acc = {0};
	struct pl_error err;

	pl_error_init(&err);
	if (pl_store_accepted_steps(st, metric, &acc, &err)) {
		pl_cli_print_error(&err);
		pl_accepted_list_release(&acc);
		return PL_EXIT_USAGE;
	}
	for (size_t i = 0; i < acc.n; i++) {
		printf("run %lld  %s  ", acc.v[i].run_id, pl_metric_info[acc.v[i].metric].name);
		pl_cli_put_inert(stdout, acc.v[i].accepted_at); /* texts of the database: the one rule */
		fputs("  ", stdout);
		pl_cli_put_inert(stdout, acc.v[i].reason);
		putchar('\n');
	}
	if (acc.n == 0)
		printf("no accepted steps\n");
	pl_accepted_list_release(&acc);
	return PL_EXIT_OK;
}

int cmd_accept(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_error err;
	struct pl_store *st = NULL;
	const char *reason = NULL;
	long long run_id = 0;
	int argi, rc, metric = PL_M_NONE, list = 0, replaced = 0;
	const struct pl_option options[] = {
		PL_OPT_CALLBACK_ENTRY("run", 0, "ID", &run_id, opt_run,
		                      "the first run after the step (history prints it)"),
		PL_OPT_CALLBACK_ENTRY("metric", 0, "NAME", &metric, opt_metric,
		                      "the metric whose step it is"),
		PL_OPT_STRING_ENTRY("reason", 0, "TEXT", &reason,
		                    "why the change is expected (required)"),
		PL_OPT_FLAG_ENTRY("list", 0, &list, "list the accepted steps (of --metric, else all)"),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "accept",
		.head = usage_text,
		.options = options,
		.width = 16,
		.unknown_fmt = "unknown or incomplete option '%s'",
		.on_error = PL_USAGE_SEE_HELP,
		.no_operands = 1,
	};

	pl_error_init(&err);
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		return rc;
	rc = PL_EXIT_USAGE;
	if (!list && (run_id <= 0 || metric == PL_M_NONE || !reason || !*reason)) {
		pl_cli_errorf("accept", "--run ID, --metric NAME and --reason TEXT are required");
		return PL_EXIT_USAGE;
	}
	st = pl_cli_open_store(cli, list ? PL_CLI_STORE_READ : PL_CLI_STORE_WRITE);
	if (!st)
		return PL_EXIT_USAGE;
	if (list) {
		rc = list_accepted(st, metric);
	} else if (pl_store_accept_step(st, run_id, metric, reason, "?", &replaced, &err)) {
		if (err.code == PL_EEMPTY)
			pl_cli_errorf("accept", "%s", err.message);
		else
			pl_cli_print_error(&err);
	} else {
		printf("%s step of %s at run %lld\n", replaced ? "re-accepted" : "accepted",
		       pl_metric_info[metric].name, run_id);
		rc = PL_EXIT_OK;
	}
	pl_store_close(st);
	return rc;
}
