/*
 * cmd_pull.c — `perfledger pull URL`: a team hub's runs into this ledger
 * (src/hub/pull.c), with merge's rules: every row checked as merge checks
 * another ledger, a conflicting run skipped alone and named (exit 4).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/msg.h"
#include "hub/hub.h"
#include "render/render.h"

static const char usage_text[] =
	"usage: perfledger pull [--where FIELD=VALUE]... URL\n"
	"\n"
	"Brings the runs pushed to a team hub on PostgreSQL since this ledger's last\n"
	"pull from it into this ledger (--db; created if missing), with their trail\n"
	"and kept source bytes. URL is as for 'perfledger push'. The new runs are\n"
	"imported into a temporary ledger as 'import' reads an export, and merged as\n"
	"'perfledger merge' merges another ledger: every row checked, a run read from\n"
	"the same bytes as one here but with other conditions that no revision\n"
	"explains named with both values and skipped alone (exit 4), the rest merged.\n"
	"The pull's watermark (a PostgreSQL snapshot, which misses no push committed\n"
	"out of order) is kept per hub (host, port, database; never a password) in\n"
	"the ledger (its hub_marks table), and moves only when nothing was skipped:\n"
	"after a fix, the next pull reads the same runs again. Without a watermark\n"
	"the pull reads the whole hub (merging is idempotent). The file DB.hub-marks\n"
	"an older perfledger kept beside the ledger is moved into it.\n"
	"\n";

int cmd_pull(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_error err;
	struct pl_store *st = NULL;
	struct pl_hub *h = NULL;
	struct pl_pull_stats ps;
	const char *url;
	int rc, json;
	struct pl_selection sel;
	char selection[2048];
	const struct pl_merge_stats *merged = &ps.merged;

	pl_error_init(&err);
	rc = pl_cli_hub_args("pull", usage_text, argc, argv, &sel, &json, &url);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	pl_selection_where_join(&sel, " ", selection, sizeof(selection));
	if (pl_hub_connect(url, &h, &err)) {
		pl_cli_print_error(&err);
		rc = pl_cli_exit_for(err.code);
		goto out;
	}
	st = pl_cli_open_store(cli, PL_CLI_STORE_CREATE);
	if (!st)
		goto out;
	if (pl_hub_pull(h, st, cli->db_path, sel.filters, sel.nfilters, selection, &ps, &err)) {
		pl_cli_print_error(&err);
		rc = pl_cli_exit_for(err.code);
		goto out;
	}
	rc = merged->skipped || ps.rejected ? PL_EXIT_REJECTED : PL_EXIT_OK;
	if (json) {
		fputs("{\"command\": \"pull\", \"hub\": ", stdout);
		pl_json_write_string(stdout, pl_hub_name(h));
		printf(", \"full\": %s, \"lines\": %lld, \"runs\": %lld, \"accepted_steps\": %lld, "
		       "\"revisions\": %lld, \"retractions\": %lld, \"source_chunks\": %lld, "
		       "\"skipped\": %lld, \"rejected\": %lld, \"watermark_moved\": %s}\n",
		       ps.full ? "true" : "false", ps.lines, merged->runs, merged->steps, merged->revisions,
		       merged->retractions, merged->source_chunks, merged->skipped, ps.rejected,
		       ps.watermark_kept ? "false" : "true");
	} else {
		struct pl_msg m[4];
		size_t n = 2;

		pl_msg_init(&m[0], ps.full ? PL_MSG_HUB_PULLED_FROM_FULL : PL_MSG_HUB_PULLED_FROM);
		pl_msg_text(&m[0], pl_hub_name(h));
		pl_msg_init(&m[1], PL_MSG_HUB_PULLED_COUNTS);
		pl_msg_int(&m[1], ps.lines);
		pl_msg_int(&m[1], merged->runs);
		pl_msg_int(&m[1], merged->steps);
		pl_msg_int(&m[1], merged->revisions);
		pl_msg_int(&m[1], merged->retractions);
		pl_msg_int(&m[1], merged->source_chunks);
		if (merged->skipped) {
			pl_msg_init(&m[n], PL_MSG_HUB_SKIPPED_TAIL);
			pl_msg_int(&m[n++], merged->skipped);
		}
		if (ps.rejected) {
			pl_msg_init(&m[n], PL_MSG_HUB_REFUSED_TAIL);
			pl_msg_int(&m[n++], ps.rejected);
		}
		pl_cli_put_msgs(stdout, "", m, n);
		for (size_t k = 0; k < n; k++)
			pl_msg_release(&m[k]);
	}
	fflush(stdout);
	if (merged->skipped) {
		struct pl_msg e;

		pl_msg_init(&e, PL_MSG_HUB_PULL_SKIPPED);
		pl_msg_text(&e, merged->skipped_first);
		pl_cli_put_msgs(stderr, "perfledger: pull: ", &e, 1);
		pl_msg_release(&e);
	}
	if (ps.rejected) {
		struct pl_msg e;

		pl_msg_init(&e, PL_MSG_HUB_PULL_REFUSED);
		pl_msg_int(&e, ps.rejected);
		pl_msg_text(&e, ps.rejected_first);
		pl_cli_put_msgs(stderr, "perfledger: pull: ", &e, 1);
		pl_msg_release(&e);
	}
out:
	pl_store_close(st);
	pl_hub_close(h);
	pl_selection_release(&sel);
	return rc;
}
