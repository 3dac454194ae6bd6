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
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
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
	"\n"
	"  --run ID        the first run after the step (history prints it)\n"
	"  --metric NAME   the metric whose step it is\n"
	"  --reason TEXT   why the change is expected (required)\n"
	"  --list          list the accepted steps (of --metric, else all)\n";

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
		printf("run %lld  %s  %s  ", acc.v[i].run_id, pl_metric_info[acc.v[i].metric].name,
		       acc.v[i].accepted_at);
		for (const char *s = acc.v[i].reason; *s; s++)
			putchar((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
		putchar('\n');
	}
	if (acc.n == 0)
		printf("no accepted steps\n");
	pl_accepted_list_release(&acc);
	return PL_EXIT_OK;
}

int cmd_accept(const struct pl_cli *cli, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"run", required_argument, NULL, 'r'},
		{"metric", required_argument, NULL, 'm'},
		{"reason", required_argument, NULL, 'R'},
		{"list", no_argument, NULL, 'l'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct pl_error err;
	struct pl_store *st = NULL;
	const char *reason = NULL;
	long long run_id = 0;
	int c, rc = PL_EXIT_USAGE, metric = PL_M_NONE, have_run = 0, list = 0, replaced = 0;

	pl_error_init(&err);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': {
			char *end;
			errno = 0;
			run_id = strtoll(optarg, &end, 10);
			if (!*optarg || *end || errno == ERANGE || run_id <= 0) {
				pl_cli_errorf("accept", "bad --run '%s': expected a run id (a whole number)",
				              optarg);
				return PL_EXIT_USAGE;
			}
			have_run = 1;
			break;
		}
		case 'm':
			metric = pl_metric_lookup(optarg);
			if (metric == PL_M_NONE) {
				pl_cli_errorf("accept", "unknown metric '%s' (see 'perfledger compare --help')",
				              optarg);
				return PL_EXIT_USAGE;
			}
			break;
		case 'R':
			reason = optarg;
			break;
		case 'l':
			list = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return PL_EXIT_OK;
		default:
			pl_cli_errorf("accept", "unknown or incomplete option '%s'", argv[optind - 1]);
			fputs("see 'perfledger accept --help'\n", stderr);
			return PL_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		pl_cli_errorf("accept", "unexpected argument '%s'", argv[optind]);
		return PL_EXIT_USAGE;
	}
	if (!list && (!have_run || metric == PL_M_NONE || !reason || !*reason)) {
		pl_cli_errorf("accept", "--run ID, --metric NAME and --reason TEXT are required");
		return PL_EXIT_USAGE;
	}
	st = pl_cli_open_store(cli, 0);
	if (!st)
		return PL_EXIT_USAGE;
	if (list) {
		rc = list_accepted(st, metric);
	} else if (pl_store_accept_step(st, run_id, metric, reason, &replaced, &err)) {
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
