/*
 * cmd_retract.c — `perfledger retract` and its inverse `perfledger restore`.
 *
 * A retracted run stays stored and visible (`list --retracted`, `show`) but
 * leaves every comparison, check, history, accept and report; restore puts
 * it back. Both record time, reason and author (table retractions), in one
 * transaction for all the selected runs; only `purge` deletes. One file for
 * the pair because they are one switch, thrown either way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/ledger_cli.h"
#include "cli/options.h"

static const char retract_usage[] =
	"usage: perfledger retract (--run ID... | --where FIELD=VALUE...) --reason TEXT [--by NAME]\n"
	"\n"
	"Takes runs out of every comparison, check, history, accept and report\n"
	"without deleting them: they stay visible with 'list --retracted' and\n"
	"'show ID', with the time, the reason and the author (--by, else $USER).\n"
	"'perfledger restore' puts them back; only 'perfledger purge' deletes.\n"
	"--where selects among the runs that are not retracted.\n"
	"\n";

static const char restore_usage[] =
	"usage: perfledger restore (--run ID... | --where FIELD=VALUE...) --reason TEXT [--by NAME]\n"
	"\n"
	"Puts retracted runs back into comparisons, checks, histories and reports.\n"
	"The retraction stays in the run's trail, with the restore's time, reason and\n"
	"author (--by, else $USER). --where selects among the retracted runs.\n"
	"\n";

static int retract_or_restore(const struct pl_cli *cli, int argc, char **argv, int restore)
{
	const char *cmd = restore ? "restore" : "retract";
	struct pl_ledger_opts o;
	struct pl_error err;
	struct pl_ledger_session s;
	long long when = 0;
	size_t done = 0;
	const char *author;
	int argi, rc, json = 0;
	const struct pl_option options[] = {
		PL_OPT_CALLBACK_ENTRY("run", 0, "ID", &o, pl_ledger_opt_run,
		                      restore ? "a run to restore (repeatable)"
		                              : "a run to retract (repeatable)"),
		PL_OPT_CALLBACK_ENTRY("where", 0, "FIELD=VALUE", &o.sel, pl_sel_opt_where,
		                      restore ? "every retracted run that matches (repeatable, ANDed)"
		                              : "every run that matches (repeatable, ANDed)"),
		PL_OPT_STRING_ENTRY("reason", 0, "TEXT", &o.reason, "why (required; kept in the trail)"),
		PL_OPT_STRING_ENTRY("by", 0, "NAME", &o.by, "who (default: $USER)"),
		PL_OPT_CALLBACK_ENTRY("summary", 0, "F", &json, pl_cli_opt_summary,
		                      "the summary as text (default) or json"),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = cmd,
		.head = restore ? restore_usage : retract_usage,
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
	if (pl_ledger_check_opts(&o, cmd, 1, 0) || !(author = pl_ledger_author(&o, cmd)) ||
	    pl_cli_source_date_epoch(cmd, &when))
		goto out;
	rc = pl_ledger_session_begin(&s, cli, &o, restore ? PL_RETRACTED_ONLY : PL_RETRACTED_HIDE,
	                             cmd);
	for (size_t i = 0; rc == 0 && i < s.n; i++) {
		int changed = 0;

		if ((restore ? pl_store_restore : pl_store_retract)(s.st, s.ids[i], when, o.reason, author,
		                                                    &changed, &err)) {
			pl_cli_print_error(&err);
			rc = PL_EXIT_USAGE;
			break;
		}
		fprintf(s.js, "%s{\"id\": %lld, \"changed\": %s}", i ? ", " : "", s.ids[i],
		        changed ? "true" : "false");
		if (changed) {
			fprintf(s.msg, "%s run %lld\n", restore ? "restored" : "retracted", s.ids[i]);
			done++;
		} else {
			fprintf(s.msg, restore ? "run %lld is not retracted\n"
			                     : "run %lld is retracted already\n", s.ids[i]);
		}
	}
	if ((rc = pl_ledger_session_end(&s, rc)))
		goto out;
	if (json) {
		printf("{\"command\": \"%s\", \"selected\": %zu, \"changed\": %zu, \"runs\": [%.*s]}\n",
		       cmd, s.n, done, (int)s.jlen, s.jbuf);
	} else {
		fwrite(s.buf, 1, s.len, stdout);
		printf("%s %zu run%s\n", restore ? "restored" : "retracted", done, done == 1 ? "" : "s");
	}
	rc = pl_cli_finish(PL_EXIT_OK);
out:
	pl_ledger_session_release(&s);
	pl_ledger_opts_release(&o);
	return rc;
}

int cmd_retract(const struct pl_cli *cli, int argc, char **argv)
{
	return retract_or_restore(cli, argc, argv, 0);
}

int cmd_restore(const struct pl_cli *cli, int argc, char **argv)
{
	return retract_or_restore(cli, argc, argv, 1);
}
