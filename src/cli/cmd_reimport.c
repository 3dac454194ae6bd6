/*
 * cmd_reimport.c — `perfledger reimport`: stored runs re-derived from
 * their kept source bytes with this build's adapters
 * (src/import/reimport.c); every change is a revision with the reason
 * "reimport with perfledger X.Y".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/ledger_cli.h"
#include "cli/options.h"
#include "render/render.h"
#include "core/amend.h"
#include "import/import.h"

static const char usage_text[] =
	"usage: perfledger reimport [--where FIELD=VALUE]... [--by NAME]\n"
	"\n"
	"Re-derives stored runs from the source bytes perfledger kept when it imported\n"
	"them, with this build's adapters: every run of each file that holds a selected\n"
	"run (all runs without --where; retracted runs too). A condition the file gives\n"
	"now and a run lacks is added; a metric the file gives now with another value\n"
	"(or that was missing) is set. A condition a run has is never changed (it may\n"
	"come from a sidecar, --set or amend, which the bytes do not hold), and a metric\n"
	"the file no longer gives stays. Each change is a new revision of the run with\n"
	"the reason \"reimport with perfledger X.Y\" ('perfledger show ID' prints it).\n"
	"Each file is one transaction. Files imported before the bytes were kept\n"
	"(schema version 10) are counted and left as they are: import them again to keep\n"
	"their bytes.\n"
	"\n";

/* Writes one value of a change, quoted, or (missing), inert. */
static void put_value(const char *v)
{
	if (!v) {
		fputs("(missing)", stdout);
		return;
	}
	fputc('\'', stdout);
	pl_cli_put_inert_cut(stdout, v, PL_CLI_VALUE_MAX);
	fputc('\'', stdout);
}

/* --summary json: the entries of the summary's two lists, written as they come. */
struct summary {
	int json;
	FILE *runs, *failures; /* memory streams */
	int nruns, nfailures;
};

static void json_value(FILE *f, const char *v)
{
	if (v)
		pl_json_write_string(f, v);
	else
		fputs("null", f);
}

static void on_run(void *ctx, const char *path, long long id, int revision,
                   const struct pl_amend_change *c, size_t n)
{
	struct summary *s = ctx;

	if (s->json) {
		fputs(s->nruns++ ? ", {\"id\": " : "{\"id\": ", s->runs);
		fprintf(s->runs, "%lld, \"source\": ", id);
		pl_json_write_string(s->runs, path);
		fprintf(s->runs, ", \"revision\": %d, \"changes\": [", revision);
		for (size_t i = 0; i < n; i++) {
			fputs(i ? ", {\"field\": " : "{\"field\": ", s->runs);
			pl_json_write_string(s->runs, c[i].field);
			fputs(", \"old\": ", s->runs);
			json_value(s->runs, c[i].old_value);
			fputs(", \"new\": ", s->runs);
			json_value(s->runs, c[i].new_value);
			fputc('}', s->runs);
		}
		fputs("]}", s->runs);
		return;
	}
	printf("run %lld: revision %d:", id, revision);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : " ", stdout);
		pl_cli_put_inert(stdout, c[i].field);
		fputc(' ', stdout);
		put_value(c[i].old_value);
		fputs(" -> ", stdout);
		put_value(c[i].new_value);
	}
	fputc('\n', stdout);
}

static void on_failure(void *ctx, const char *path, const struct pl_error *why)
{
	struct summary *s = ctx;
	char buf[2048];

	pl_cli_print_error(why);
	if (!s->json)
		return;
	pl_error_format(why, buf, sizeof(buf));
	fputs(s->nfailures++ ? ", {\"path\": " : "{\"path\": ", s->failures);
	pl_json_write_string(s->failures, path);
	fputs(", \"reason\": ", s->failures);
	pl_json_write_string(s->failures, buf);
	fputc('}', s->failures);
}

int cmd_reimport(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_ledger_opts o;
	struct pl_reimport_opts ro;
	struct pl_reimport_stats stats;
	struct pl_error err;
	struct pl_store *st = NULL;
	char reason[64], version[32];
	const char *author, *dot;
	struct summary sum = {0, NULL, NULL, 0, 0};
	char *runs_buf = NULL, *fail_buf = NULL;
	size_t runs_len = 0, fail_len = 0;
	int argi, rc;
	const struct pl_option options[] = {
		PL_OPT_CALLBACK_ENTRY("where", 0, "FIELD=VALUE", &o.sel, pl_sel_opt_where,
		                      "the files holding a matching run (repeatable, ANDed)"),
		PL_OPT_STRING_ENTRY("by", 0, "NAME", &o.by, "who reimports (default: $USER)"),
		PL_OPT_CALLBACK_ENTRY("summary", 0, "F", &sum.json, pl_cli_opt_summary,
		                      "the summary as text (default) or json"),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "reimport",
		.head = usage_text,
		.options = options,
		.width = 20,
		.no_operands = 1,
	};

	memset(&o, 0, sizeof(o));
	memset(&ro, 0, sizeof(ro));
	pl_error_init(&err);
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	if (!(author = pl_ledger_author(&o, "reimport")) ||
	    pl_cli_source_date_epoch("reimport", &ro.when))
		goto out;
	/* "X.Y" of the version: the adapters' behaviour changes with it */
	snprintf(version, sizeof(version), "%s", PL_VERSION);
	if ((dot = strchr(version, '.')) && (dot = strchr(dot + 1, '.')))
		version[dot - version] = '\0';
	snprintf(reason, sizeof(reason), "reimport with perfledger %s", version);
	ro.filters = o.sel.filters;
	ro.nfilters = o.sel.nfilters;
	ro.reason = reason;
	ro.author = author;
	ro.on_run = on_run;
	ro.on_failure = on_failure;
	ro.ctx = &sum;
	if (sum.json && (!(sum.runs = open_memstream(&runs_buf, &runs_len)) ||
	                 !(sum.failures = open_memstream(&fail_buf, &fail_len)))) {
		pl_cli_errorf("reimport", "out of memory");
		goto out;
	}
	if (!(st = pl_cli_open_store(cli, PL_CLI_STORE_WRITE)))
		goto out;
	if (pl_reimport(st, &ro, &stats, &err)) {
		pl_cli_print_error(&err);
		rc = pl_cli_exit_for(err.code);
		goto out;
	}
	if (sum.json) {
		fclose(sum.runs);
		fclose(sum.failures);
		sum.runs = sum.failures = NULL;
		printf("{\"command\": \"reimport\", \"files\": %zu, \"runs\": %zu, \"changed\": %zu, "
		       "\"unlisted\": %zu, \"files_without_bytes\": %zu, \"runs_kept_not_yielded\": %zu, "
		       "\"files_failed\": %zu, \"revisions\": [%.*s], \"failures\": [%.*s]}\n",
		       stats.files, stats.runs, stats.changed, stats.unreported, stats.no_bytes,
		       stats.vanished, stats.failed, (int)runs_len, runs_buf, (int)fail_len, fail_buf);
		rc = stats.failed ? PL_EXIT_REJECTED : PL_EXIT_OK;
		goto out;
	}
	printf("reimported %zu file%s: %zu of %zu runs changed", stats.files,
	       stats.files == 1 ? "" : "s", stats.changed, stats.runs);
	if (stats.unreported)
		printf(" (%zu of them not listed above)", stats.unreported);
	if (stats.no_bytes)
		printf("; %zu file%s without kept bytes left as they are", stats.no_bytes,
		       stats.no_bytes == 1 ? "" : "s");
	if (stats.vanished)
		printf("; %zu run%s the file no longer yields kept", stats.vanished,
		       stats.vanished == 1 ? "" : "s");
	if (stats.failed)
		printf("; %zu file%s could not be re-derived", stats.failed,
		       stats.failed == 1 ? "" : "s");
	putchar('\n');
	rc = stats.failed ? PL_EXIT_REJECTED : PL_EXIT_OK;
out:
	if (sum.runs)
		fclose(sum.runs);
	if (sum.failures)
		fclose(sum.failures);
	free(runs_buf);
	free(fail_buf);
	pl_store_close(st);
	pl_ledger_opts_release(&o);
	return rc;
}
