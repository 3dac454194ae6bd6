/*
 * cmd_merge.c — `perfledger merge OTHER.db...`: other ledgers' runs into
 * this one (src/store/merge.c), one transaction per ledger, in the order
 * given; the first refused ledger stops the command (what was merged
 * before it stays merged, and running the command again after fixing it
 * merges the rest: merging is idempotent). Runs skipped as conflicts are
 * named on stderr and make the exit status 4; the next ledgers are merged.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "render/render.h"

static const char usage_text[] =
	"usage: perfledger merge OTHER.db...\n"
	"\n"
	"Brings the runs of other perfledger ledgers into this one (--db), with their\n"
	"conditions, extra conditions, provenance, accepted steps, revisions,\n"
	"retractions and kept source bytes.\n"
	"A run read from the same bytes (sha256 and record) as one stored here is the\n"
	"same run and is stored once, so merging a ledger twice changes nothing the\n"
	"second time. Each OTHER is opened read-only and never changed; one written by\n"
	"an older perfledger is migrated in a copy. One merge rule:\n"
	"  - an OTHER that fails the checks of a ledger (a view, trigger or virtual\n"
	"    table, a table without a ledger's columns, a row of a type, size or value\n"
	"    no ledger holds) merges nothing (exit 4, naming the first bad object or\n"
	"    row);\n"
	"  - in a valid OTHER, a run read from the same bytes as one here but with\n"
	"    other conditions that no revision of this ledger explains is named with\n"
	"    both values and skipped together with its own trail (make them agree with\n"
	"    'perfledger amend', then merge again); everything else (other runs,\n"
	"    revisions, retractions, acceptances) is merged, in one transaction. Exit 4\n"
	"    when anything was skipped, 0 otherwise;\n"
	"  - a run here that OTHER amended or reimported after it was copied (its trail\n"
	"    there continues this one) takes OTHER's later revisions, of conditions,\n"
	"    build identity or metric values, each checked and applied as amend and\n"
	"    reimport would; one whose revisions are refused, or whose trails the two\n"
	"    ledgers continued apart, is skipped alone, named, as above.\n"
	"\n"
	"Many machines: each CI runner writes its own ledger (--db runner-N.db), and\n"
	"one job merges them: perfledger --db team.db merge runner-*.db\n"
	"\n";

int cmd_merge(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_error err;
	struct pl_store *st = NULL;
	int argi, rc = PL_EXIT_USAGE, json = 0, first = 1;
	const struct pl_option options[] = {
		PL_OPT_CALLBACK_ENTRY("summary", 0, "F", &json, pl_cli_opt_summary,
		                      "the summary as text (default) or json"),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "merge",
		.head = usage_text,
		.options = options,
	};

	pl_error_init(&err);
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		return rc;
	if (argi >= argc) {
		pl_cli_errorf("merge", "no ledger to merge (usage: perfledger merge OTHER.db...)");
		return PL_EXIT_USAGE;
	}
	st = pl_cli_open_store(cli, PL_CLI_STORE_CREATE);
	if (!st)
		return PL_EXIT_USAGE;
	rc = PL_EXIT_OK;
	if (json)
		fputs("{\"command\": \"merge\", \"ledgers\": [", stdout);
	for (int i = argi; i < argc; i++) {
		struct pl_merge_stats ms;

		if (pl_store_merge(st, argv[i], &ms, &err)) {
			pl_cli_print_error(&err);
			rc = pl_cli_exit_for(err.code);
			break;
		}
		if (json) {
			fputs(first ? "{\"path\": " : ", {\"path\": ", stdout);
			pl_json_write_string(stdout, argv[i]);
			printf(", \"runs\": %lld, \"accepted_steps\": %lld, \"revisions\": %lld, "
			       "\"retractions\": %lld, \"source_chunks\": %lld, \"migrated_from\": %d}",
			       ms.runs, ms.steps, ms.revisions, ms.retractions, ms.source_chunks,
			       ms.migrated_from);
			first = 0;
			continue;
		}
		fputs("merged '", stdout);
		pl_cli_put_inert(stdout, argv[i]);
		printf("': %lld run%s, %lld accepted step%s, %lld revision%s, %lld retraction%s, "
		       "%lld source chunk%s stored",
		       ms.runs, ms.runs == 1 ? "" : "s", ms.steps, ms.steps == 1 ? "" : "s",
		       ms.revisions, ms.revisions == 1 ? "" : "s", ms.retractions,
		       ms.retractions == 1 ? "" : "s", ms.source_chunks,
		       ms.source_chunks == 1 ? "" : "s");
		if (ms.migrated_from)
			printf(" (schema version %d, migrated in a copy)", ms.migrated_from);
		if (ms.skipped)
			printf("; %lld run%s skipped", ms.skipped, ms.skipped == 1 ? "" : "s");
		fputc('\n', stdout);
		if (ms.skipped) {
			fflush(stdout);
			pl_cli_errorf("merge", "skipped: %s; make them agree with 'perfledger amend', then "
			                       "merge again", ms.skipped_first);
			rc = PL_EXIT_REJECTED;
		}
	}
	if (json) /* the ledgers merged before a refusal are merged: say so */
		printf("], \"complete\": %s}\n", rc == PL_EXIT_OK ? "true" : "false");
	pl_store_close(st);
	return rc;
}
