/*
 * cmd_show.c — `perfledger show ID`: one run whole, with its trail.
 *
 * Every condition (extras included), every metric with its unit, the
 * provenance, the current revision and whether it is retracted, then the
 * trail: imported, each amend (old -> new), each retraction and restore.
 * A retracted run is shown too: show is how one finds out why.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "render/render.h"
#include "store/requests.h"

static const char usage_text[] =
	"usage: perfledger show ID [--format text|json]\n"
	"\n"
	"Prints run ID whole: its conditions (extra conditions too), its metrics in\n"
	"canonical units, where it came from (source, sha256, record, adapter,\n"
	"imported_at), its revision, whether it is retracted, and its trail: every\n"
	"amend with the old and new values, every retraction and restore, each with\n"
	"time, author and reason. --format json prints the 'list --format json'\n"
	"object with \"revision\", \"retracted\" and \"trail\" added.\n"
	"\n";

int cmd_show(const struct pl_cli *cli, int argc, char **argv)
{
	int json = 0;
	struct pl_revision_list revs = {0};
	struct pl_retraction_list rets = {0};
	struct pl_run run;
	struct pl_request_counts counts;
	struct pl_error err;
	struct pl_store *st = NULL;
	long long id = 0;
	int argi, rc, found = 0;
	const struct pl_option options[] = {
		PL_OPT_CALLBACK_ENTRY("format", 0, "F", &json, pl_cli_opt_format_json, "text (default) or json"),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "show",
		.head = usage_text,
		.options = options,
		.width = 12,
		.operand = pl_cli_operand_run_id,
		.operand_data = &id,
	};

	pl_run_init(&run);
	pl_error_init(&err);
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	if (id == 0) {
		pl_cli_errorf("show", "which run? give its ID ('perfledger list' shows them)");
		goto out;
	}
	if (!(st = pl_cli_open_store(cli, PL_CLI_STORE_READ)))
		goto out;
	if (pl_store_get_run(st, id, &run, &found, &err) ||
	    (found && (pl_store_revisions(st, id, &revs, &err) ||
	               pl_store_retractions(st, id, &rets, &err)))) {
		pl_cli_print_error(&err);
		goto out;
	}
	if (!found) {
		pl_cli_errorf("show", "no run with id %lld", id);
		goto out;
	}
	if (pl_store_request_counts(st, id, &counts, &err) ||
	    pl_render_run_show(stdout, &run, &revs, &rets, json ? PL_FMT_JSON : PL_FMT_TEXT, &err)) {
		pl_cli_print_error(&err);
		goto out;
	}
	if (counts.found && !json)
		printf("requests: %lld (%lld completed, %lld failed), %lld inter-token gaps, %lld bytes "
		       "stored ('perfledger requests %lld')\n",
		       counts.requests, counts.requests - counts.failed, counts.failed, counts.gaps,
		       counts.bytes, id);
	rc = pl_cli_finish(PL_EXIT_OK);
out:
	pl_revision_list_release(&revs);
	pl_retraction_list_release(&rets);
	pl_run_release(&run);
	pl_store_close(st);
	return rc;
}
