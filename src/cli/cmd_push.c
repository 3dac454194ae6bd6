/*
 * cmd_push.c — `perfledger push URL`: this ledger's runs to a team hub on
 * PostgreSQL (src/hub/push.c), PL_HUB_BATCH runs per transaction. Runs
 * the hub refuses as conflicts are named on stderr and make the exit
 * status 4; the others are stored.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/msg.h"
#include "hub/hub.h"
#include "render/render.h"

static const char usage_text[] =
	"usage: perfledger push [--where FIELD=VALUE]... URL\n"
	"\n"
	"Sends this ledger's runs (or those --where selects, as in 'list'; retracted\n"
	"runs too) to a team hub on PostgreSQL, with everything 'export' writes of\n"
	"them (conditions, extra conditions, unplaced measurements, metrics,\n"
	"provenance, build identity, revisions, retractions, accepted steps) and their\n"
	"kept source bytes. URL is a libpq connection string or URI\n"
	"(postgresql://host/db, 'host=... dbname=...'), or '' for the PG* environment\n"
	"variables alone; the password comes from it, PGPASSWORD, PGPASSFILE or\n"
	"~/.pgpass, and is never printed. The hub's tables (schema \"perfledger\") are\n"
	"created or migrated first; a hub newer than this perfledger is refused.\n"
	"A run the hub holds already is skipped; a run read from the same bytes as one\n"
	"on the hub but with other conditions that none of this run's (current or as\n"
	"imported) match is skipped and named with both values (exit 4); the others\n"
	"are stored, in transactions of 500 runs, each whole or not at all. Many\n"
	"runners may push at once. 'perfledger pull URL' brings the hub's runs into a\n"
	"ledger.\n"
	"\n";

int cmd_push(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_selection sel;
	struct pl_error err;
	struct pl_store *st = NULL;
	struct pl_hub *h = NULL;
	struct pl_push_stats ps;
	const char *url;
	int rc, json;

	pl_error_init(&err);
	rc = pl_cli_hub_args("push", usage_text, argc, argv, &sel, &json, &url);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	st = pl_cli_open_store(cli, PL_CLI_STORE_READ);
	if (!st)
		goto out;
	if (pl_hub_connect(url, &h, &err) ||
	    pl_hub_push(h, st, sel.filters, sel.nfilters, &ps, &err)) {
		pl_cli_print_error(&err);
		rc = pl_cli_exit_for(err.code);
		goto out;
	}
	rc = ps.skipped ? PL_EXIT_REJECTED : PL_EXIT_OK;
	if (json) {
		fputs("{\"command\": \"push\", \"hub\": ", stdout);
		pl_json_write_string(stdout, pl_hub_name(h));
		printf(", \"runs\": %lld, \"stored\": %lld, \"present\": %lld, \"skipped\": %lld, "
		       "\"source_chunks\": %lld, \"transactions\": %lld}\n",
		       ps.runs, ps.stored, ps.present, ps.skipped, ps.source_chunks, ps.transactions);
	} else {
		struct pl_msg m[2];
		size_t n = 1;

		pl_msg_init(&m[0], PL_MSG_HUB_PUSHED);
		pl_msg_text(&m[0], pl_hub_name(h));
		pl_msg_int(&m[0], ps.runs);
		pl_msg_int(&m[0], ps.stored);
		pl_msg_int(&m[0], ps.present);
		pl_msg_int(&m[0], ps.source_chunks);
		if (ps.skipped) {
			pl_msg_init(&m[n], PL_MSG_HUB_SKIPPED_TAIL);
			pl_msg_int(&m[n++], ps.skipped);
		}
		pl_cli_put_msgs(stdout, "", m, n);
		for (size_t k = 0; k < n; k++)
			pl_msg_release(&m[k]);
	}
	if (ps.skipped) {
		struct pl_msg m;

		fflush(stdout);
		pl_msg_init(&m, PL_MSG_HUB_PUSH_SKIPPED);
		pl_msg_text(&m, ps.skipped_first);
		pl_cli_put_msgs(stderr, "perfledger: push: ", &m, 1);
		pl_msg_release(&m);
	}
out:
	pl_hub_close(h);
	pl_store_close(st);
	pl_selection_release(&sel);
	return rc;
}
