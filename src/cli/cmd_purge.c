/*
 * cmd_purge.c — `perfledger purge`: the one command that deletes runs.
 *
 * Only retracted runs are purged (retract first, with a reason: the
 * deletion is then never a surprise), each with its rows in revisions,
 * retractions and accepted_steps, in one transaction; it says what it
 * deleted. The conditions rows stay (shared, and holding no measurement).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/ledger_cli.h"
#include "cli/options.h"
#include "render/render.h"

static const char usage_text[] =
	"usage: perfledger purge (--run ID... | --where FIELD=VALUE... | --retracted)\n"
	"\n"
	"Deletes retracted runs for good, with their revisions, retractions and\n"
	"accepted steps, and says what it deleted. Only a retracted run is purged:\n"
	"retract it first ('perfledger retract --run ID --reason TEXT'). --where\n"
	"selects among the retracted runs; --retracted purges every one.\n"
	"\n";

static const char *plural(long long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

int cmd_purge(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_ledger_opts o;
	struct pl_purge_counts total = {0, 0, 0};
	struct pl_error err;
	struct pl_ledger_session s;
	int argi, rc, json = 0;
	const struct pl_option options[] = {
		PL_OPT_CALLBACK_ENTRY("run", 0, "ID", &o, pl_ledger_opt_run,
		                      "a retracted run to delete (repeatable)"),
		PL_OPT_CALLBACK_ENTRY("where", 0, "FIELD=VALUE", &o.sel, pl_sel_opt_where,
		                      "every retracted run that matches (repeatable, ANDed)"),
		PL_OPT_FLAG_ENTRY("retracted", 0, &o.retracted, "every retracted run"),
		PL_OPT_CALLBACK_ENTRY("summary", 0, "F", &json, pl_cli_opt_summary,
		                      "the summary as text (default) or json"),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "purge",
		.head = usage_text,
		.options = options,
		.width = 21,
		.no_operands = 1,
	};

	memset(&o, 0, sizeof(o));
	memset(&s, 0, sizeof(s));
	pl_error_init(&err);
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	if (o.retracted && (o.nrun || o.sel.nfilters)) {
		pl_cli_errorf("purge", "--retracted purges every retracted run: give it alone");
		goto out;
	}
	if (pl_ledger_check_opts(&o, "purge", 0, 1))
		goto out;
	rc = pl_ledger_session_begin(&s, cli, &o, PL_RETRACTED_ONLY, "purge");
	for (size_t i = 0; rc == 0 && i < s.n; i++) {
		struct pl_purge_counts c = {0, 0, 0};
		struct pl_run run;
		int found = 0;

		pl_run_init(&run);
		if (pl_store_get_run(s.st, s.ids[i], &run, &found, &err) ||
		    pl_store_purge(s.st, s.ids[i], &c, &err)) {
			pl_run_release(&run);
			if (err.code == PL_EUSAGE || err.code == PL_EEMPTY)
				pl_cli_errorf("purge", "%s; nothing was purged", err.message);
			else
				pl_cli_print_error(&err);
			rc = PL_EXIT_USAGE;
			break;
		}
		fprintf(s.msg, "purged run %lld (", s.ids[i]);
		pl_cli_put_inert_cut(s.msg, run.source ? run.source : "", PL_CLI_VALUE_MAX);
		fprintf(s.msg, " record %ld, sha256 %.12s): %lld %s, %lld %s, %lld %s\n", run.record,
		        run.sha256, c.revisions, plural(c.revisions, "revision record", "revision records"),
		        c.retractions, plural(c.retractions, "retraction", "retractions"), c.accepted,
		        plural(c.accepted, "accepted step", "accepted steps"));
		fprintf(s.js, "%s{\"id\": %lld, \"source\": ", i ? ", " : "", s.ids[i]);
		pl_json_write_string(s.js, run.source ? run.source : "");
		fprintf(s.js, ", \"record\": %ld, \"sha256\": \"%s\", \"revisions\": %lld, "
		            "\"retractions\": %lld, \"accepted\": %lld}",
		        run.record, run.sha256, c.revisions, c.retractions, c.accepted);
		pl_run_release(&run);
		total.revisions += c.revisions;
		total.retractions += c.retractions;
		total.accepted += c.accepted;
	}
	if ((rc = pl_ledger_session_end(&s, rc)))
		goto out;
	if (json) {
		printf("{\"command\": \"purge\", \"purged\": %zu, \"revisions\": %lld, \"retractions\": %lld, "
		       "\"accepted\": %lld, \"runs\": [%.*s]}\n",
		       s.n, total.revisions, total.retractions, total.accepted, (int)s.jlen, s.jbuf);
	} else {
		fwrite(s.buf, 1, s.len, stdout);
		printf("purged %zu run%s, %lld %s, %lld %s, %lld %s\n", s.n, s.n == 1 ? "" : "s",
		       total.revisions, plural(total.revisions, "revision record", "revision records"),
		       total.retractions, plural(total.retractions, "retraction", "retractions"),
		       total.accepted, plural(total.accepted, "accepted step", "accepted steps"));
	}
	rc = pl_cli_finish(PL_EXIT_OK);
out:
	pl_ledger_session_release(&s);
	pl_ledger_opts_release(&o);
	return rc;
}
