/*
 * cmd_pull.c — `perfledger pull URL`: a team hub's runs into this ledger
 * (src/hub/pull.c), with merge's rules: every row checked as merge checks
 * another ledger, a conflicting run skipped alone and named (exit 4).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
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
	"the file DB.hub-marks beside the ledger, and moves only when nothing was\n"
	"skipped: after a fix, the next pull reads the same runs again. Without that\n"
	"file the pull reads the whole hub (merging is idempotent).\n"
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
	const struct pl_merge_stats *m = &ps.merged;

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
	rc = m->skipped || ps.rejected ? PL_EXIT_REJECTED : PL_EXIT_OK;
	if (json) {
		fputs("{\"command\": \"pull\", \"hub\": ", stdout);
		pl_json_write_string(stdout, pl_hub_name(h));
		printf(", \"full\": %s, \"lines\": %lld, \"runs\": %lld, \"accepted_steps\": %lld, "
		       "\"revisions\": %lld, \"retractions\": %lld, \"source_chunks\": %lld, "
		       "\"skipped\": %lld, \"rejected\": %lld, \"watermark_moved\": %s}\n",
		       ps.full ? "true" : "false", ps.lines, m->runs, m->steps, m->revisions,
		       m->retractions, m->source_chunks, m->skipped, ps.rejected,
		       ps.watermark_kept ? "false" : "true");
	} else {
		fputs("pulled from '", stdout);
		pl_cli_put_inert(stdout, pl_hub_name(h));
		printf("'%s: %lld new version%s read; %lld run%s, %lld accepted step%s, %lld "
		       "revision%s, %lld retraction%s, %lld source chunk%s stored",
		       ps.full ? " (everything: no earlier pull)" : "", ps.lines,
		       ps.lines == 1 ? "" : "s", m->runs, m->runs == 1 ? "" : "s", m->steps,
		       m->steps == 1 ? "" : "s", m->revisions, m->revisions == 1 ? "" : "s",
		       m->retractions, m->retractions == 1 ? "" : "s", m->source_chunks,
		       m->source_chunks == 1 ? "" : "s");
		if (m->skipped)
			printf("; %lld run%s skipped", m->skipped, m->skipped == 1 ? "" : "s");
		if (ps.rejected)
			printf("; %lld refused", ps.rejected);
		fputc('\n', stdout);
	}
	fflush(stdout);
	if (m->skipped)
		pl_cli_errorf("pull", "skipped: %s; make them agree with 'perfledger amend', then pull "
		                      "again (the watermark did not move)", m->skipped_first);
	if (ps.rejected)
		pl_cli_errorf("pull", "refused %lld run%s from the hub: %s (the watermark did not move)",
		              ps.rejected, ps.rejected == 1 ? "" : "s", ps.rejected_first);
out:
	pl_store_close(st);
	pl_hub_close(h);
	pl_selection_release(&sel);
	return rc;
}
