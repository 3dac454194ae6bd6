/*
 * cmd_amend.c — `perfledger amend`: correct the stored conditions of runs
 * without losing what they were.
 *
 * One transaction for the whole command: every selected run is read back,
 * the --set values are applied, normalized and validated as an import
 * would (core/amend.h), and each run that changes becomes its next
 * revision (store: the run moves to the conditions row of its new key, the
 * old values go to the revisions table). Any run that fails rolls back
 * everything, so a killed or refused amend leaves the ledger as it was and
 * can be run again; a run already holding the values is said to be
 * unchanged. Messages are printed only after the commit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/ledger_cli.h"
#include "cli/options.h"
#include "core/condkey.h"
#include "core/amend.h"
#include "render/render.h"
#include "util/alloc.h"

static const char usage_text[] =
	"usage: perfledger amend (--run ID... | --where FIELD=VALUE...) --set FIELD=VALUE...\n"
	"                        --reason TEXT [--by NAME]\n"
	"\n"
	"Corrects stored conditions: each selected run gets the --set values (FIELD=\n"
	"removes a value), normalized and validated as 'import --set' would, and\n"
	"becomes its next revision. The old values stay in the ledger's trail with the\n"
	"time, the reason and the author (--by, else $USER); 'perfledger show ID' and\n"
	"'list --history' print it. Comparisons use the current values. A FIELD is a\n"
	"condition (see 'perfledger list --help'), an extra condition FORMAT.key or\n"
	"build identity (commit, branch, build_id, ci_run_url); metrics are\n"
	"measurements and are never amended, except that a new accelerator_count (or\n"
	"hardware) re-derives the per-accelerator throughputs that were derived from\n"
	"the old count, in the same revision (a value the file gave is kept, and\n"
	"said). --where selects among the runs that are not retracted; --run takes\n"
	"any run. All runs or none: a value that a run rejects changes nothing.\n"
	"\n";

/* The --set values: FIELD=VALUE split, room for argc. */
struct set_list {
	struct pl_amend_set *v; /* entries */
	char **owned;           /* the FIELD copies */
	size_t n;               /* in use */
};

static int opt_set(void *vl, const char *arg, const char *cmd)
{
	struct set_list *l = vl;
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg) {
		pl_cli_errorf(cmd, "bad --set '%s': expected FIELD=VALUE (FIELD= removes the value)",
		              arg);
		return PL_EXIT_USAGE;
	}
	if (!(l->owned[l->n] = strndup(arg, (size_t)(eq - arg)))) {
		pl_cli_errorf(cmd, "out of memory");
		return PL_EXIT_USAGE;
	}
	l->v[l->n].field = l->owned[l->n];
	l->v[l->n].value = eq + 1;
	l->n++;
	return 0;
}

/* Writes one value of a change, quoted, or (missing), inert. */
static void put_value(FILE *f, const char *v)
{
	if (!v) {
		fputs("(missing)", f);
		return;
	}
	fputc('\'', f);
	pl_cli_put_inert_cut(f, v, PL_CLI_VALUE_MAX);
	fputc('\'', f);
}

/* A run this command amended: its condition keys before and after. */
struct moved {
	long long id;  /* the run */
	char *before;  /* condition key text before the amend; owned */
	char *after;   /* after; owned */
};

/* The runs of moved (n) that went from before to after, as amend i does:
 * they shared i's conditions already, so i pooled with them before. */
static int pooled_before(const struct moved *v, size_t n, const char *before, const char *after,
                         long long id)
{
	for (size_t k = 0; k < n; k++)
		if (v[k].id == id && strcmp(v[k].before, before) == 0 && strcmp(v[k].after, after) == 0)
			return 1;
	return 0;
}

/* How many other runs run i now pools with that it did not pool with
 * before the command (*fresh), and the lowest id of them (*first): the
 * store's count (shared, lowest id first) less the runs this command
 * moved along the same way (they shared its old conditions). */
static int newly_pooled(struct pl_store *st, const struct moved *v, size_t n, const char *before,
                        const char *after, long long id, long long shared, long long first,
                        long long *fresh, long long *first_fresh, struct pl_error *err)
{
	long long same = 0;
	long long *mates = NULL;
	size_t nmates = 0;
	int rc;

	for (size_t k = 0; k < n; k++)
		if (strcmp(v[k].before, before) == 0 && strcmp(v[k].after, after) == 0)
			same++;
	*fresh = shared - same;
	*first_fresh = first;
	if (*fresh <= 0 || !pooled_before(v, n, before, after, first))
		return 0;
	/* the lowest mate pooled before: find the lowest one that did not */
	if ((rc = pl_store_pool_mates(st, id, &mates, &nmates, err)))
		return rc;
	for (size_t k = 0; k < nmates; k++)
		if (!pooled_before(v, n, before, after, mates[k])) {
			*first_fresh = mates[k];
			break;
		}
	free(mates);
	return 0;
}

/* The JSON summary entry of an amended run (changes of res, revision,
 * the lowest run it now pools with or 0) to js, after a ", " when js
 * holds an entry already. */
static void json_entry(FILE *js, long long id, const struct pl_amend_result *res, int revision,
                       long long pools_with)
{
	fprintf(js, "%s{\"id\": %lld, \"revision\": ", ftell(js) > 0 ? ", " : "", id);
	if (!res) {
		fputs("null, \"changes\": [], \"pools_with\": null}", js);
		return;
	}
	fprintf(js, "%d, \"changes\": [", revision);
	for (size_t c = 0; c < res->nchanges; c++) {
		fputs(c ? ", {\"field\": " : "{\"field\": ", js);
		pl_json_write_string(js, res->changes[c].field);
		fputs(", \"old\": ", js);
		if (res->changes[c].old_value)
			pl_json_write_string(js, res->changes[c].old_value);
		else
			fputs("null", js);
		fputs(", \"new\": ", js);
		if (res->changes[c].new_value)
			pl_json_write_string(js, res->changes[c].new_value);
		else
			fputs("null", js);
		fputc('}', js);
	}
	fputs("], \"pools_with\": ", js);
	if (pools_with > 0)
		fprintf(js, "%lld}", pools_with);
	else
		fputs("null}", js);
}

/* The text summary of run id's amend res (revision number revision):
 * each field and re-derived metric old -> new, each metric kept as the
 * file gave it, and, when shared > 0, the run (first) it now pools with. */
static void print_amended(FILE *msg, long long id, const struct pl_amend_result *r, int revision,
                          long long shared, long long first)
{
	fprintf(msg, "run %lld: revision %d:", id, revision);
	for (size_t c = 0; c < r->nchanges; c++) {
		fputs(c ? ", " : " ", msg);
		pl_cli_put_inert(msg, r->changes[c].field);
		fputc(' ', msg);
		put_value(msg, r->changes[c].old_value);
		fputs(" -> ", msg);
		put_value(msg, r->changes[c].new_value);
	}
	for (size_t m = 0; m < r->nmetrics; m++) {
		char a[40], b[40];

		if (r->metrics[m].kept)
			continue;
		fprintf(msg, ", %s ", pl_metric_info[r->metrics[m].metric].name);
		if (isnan(r->metrics[m].old_value))
			fputs("(missing)", msg);
		else
			fprintf(msg, "'%s'", pl_fmt_num(a, sizeof(a), r->metrics[m].old_value));
		fputs(" -> ", msg);
		if (isnan(r->metrics[m].new_value))
			fputs("(missing)", msg);
		else
			fprintf(msg, "'%s'", pl_fmt_num(b, sizeof(b), r->metrics[m].new_value));
	}
	fputc('\n', msg);
	for (size_t m = 0; m < r->nmetrics; m++) {
		char a[40];

		if (!r->metrics[m].kept)
			continue;
		fprintf(msg, "run %lld: %s kept at '%s': the file gave it (it is not the throughput "
		             "divided by the old accelerator_count)\n",
		        id, pl_metric_info[r->metrics[m].metric].name,
		        pl_fmt_num(a, sizeof(a), r->metrics[m].old_value));
	}
	if (shared > 0)
		fprintf(msg, "run %lld: now has the same conditions as run %lld%s: they pool "
		             "together in comparisons\n",
		        id, first,
		        shared > 1 ? " and other runs" : "");
}

/* Amends run id inside the open transaction, writing what it did to msg
 * (text) and js (its JSON summary entry), and recording its move (condition keys before and after) in *moved, so
 * that a later run of the same command is not said to pool with a run it
 * pooled with already. Returns 0 or an exit code (printed). */
static int amend_one(struct pl_store *st, long long id, const struct set_list *sets,
                     long long when, const char *reason, const char *author, FILE *msg,
                     FILE *js, size_t *changed, struct moved **moved, size_t *nmoved,
                     size_t *cap)
{
	struct pl_error err;
	struct pl_cond_key kb = {0}, ka = {0};
	struct pl_amend_result res;
	struct pl_run run;
	long long shared = 0, first = 0;
	int found = 0, revision = 0, rc;

	pl_error_init(&err);
	pl_run_init(&run);
	if (pl_store_get_run(st, id, &run, &found, &err) || !found) {
		pl_run_release(&run);
		if (!found && err.code == PL_OK)
			pl_cli_errorf("amend", "no run with id %lld", id);
		else
			pl_cli_print_error(&err);
		return PL_EXIT_USAGE;
	}
	rc = pl_ledger_amend_run(&run, sets->v, sets->n, &res, &err);
	if (!rc && (pl_cond_key_make(&run, &kb) || pl_cond_key_make(&res.run, &ka))) {
		pl_ledger_amend_release(&res);
		rc = PL_ENOMEM;
		pl_error_set(&err, PL_ENOMEM, "out of memory");
	}
	pl_run_release(&run);
	if (rc) {
		pl_cli_errorf("amend", "run %lld: %s; nothing was amended", id, err.message);
		rc = pl_cli_exit_for(rc);
		goto out;
	}
	if (res.nchanges == 0) {
		fprintf(msg, "run %lld: unchanged (it already has these values)\n", id);
		json_entry(js, id, NULL, 0, 0);
		pl_ledger_amend_release(&res);
		goto out;
	}
	res.run.id = id;
	rc = pl_store_amend(st, &res.run, res.changes, res.nchanges, when, reason, author,
	                    &revision, &shared, &first, &err);
	if (!rc) { /* re-derived per-accelerator metrics: part of this revision */
		int mid[2];
		double val[2];
		size_t k = 0;

		for (size_t m = 0; m < res.nmetrics; m++) {
			if (res.metrics[m].kept)
				continue;
			mid[k] = res.metrics[m].metric;
			val[k++] = res.metrics[m].new_value;
		}
		if (k)
			rc = pl_store_revise_metrics(st, id, revision, mid, val, k, when, reason,
			                             author, &err);
	}
	if (!rc && shared > 0)
		rc = newly_pooled(st, *moved, *nmoved, kb.text, ka.text, id, shared, first, &shared,
		                  &first, &err);
	if (!rc && PL_ALLOC_GROW(*moved, *nmoved + 1, *cap))
		rc = pl_error_set(&err, PL_ENOMEM, "out of memory");
	if (!rc) { /* the keys move to the list */
		(*moved)[*nmoved].id = id;
		(*moved)[*nmoved].before = kb.text;
		(*moved)[(*nmoved)++].after = ka.text;
		kb.text = ka.text = NULL;
	}
	if (rc) {
		pl_ledger_amend_release(&res);
		pl_cli_print_error(&err);
		rc = PL_EXIT_USAGE;
		goto out;
	}
	json_entry(js, id, &res, revision, shared > 0 ? first : 0);
	print_amended(msg, id, &res, revision, shared, first);
	(*changed)++;
	pl_ledger_amend_release(&res);
	rc = 0;
out:
	pl_cond_key_release(&kb);
	pl_cond_key_release(&ka);
	return rc;
}

/* Amends every run of ids inside the open transaction, writing what it did
 * to msg (text) and js (the JSON summary's run entries). Returns 0 or an
 * exit code (printed). */
static int amend_all(struct pl_store *st, const long long *ids, size_t n,
                     const struct set_list *sets, long long when, const char *reason,
                     const char *author, FILE *msg, FILE *js, size_t *changed)
{
	struct moved *moved = NULL;
	size_t nmoved = 0, cap = 0;
	int rc = 0;

	*changed = 0;
	for (size_t i = 0; i < n && !rc; i++)
		rc = amend_one(st, ids[i], sets, when, reason, author, msg, js, changed, &moved, &nmoved,
		               &cap);
	for (size_t k = 0; k < nmoved; k++) {
		free(moved[k].before);
		free(moved[k].after);
	}
	free(moved);
	return rc;
}

int cmd_amend(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_ledger_opts o;
	struct set_list sets = {calloc((size_t)argc + 1, sizeof(*sets.v)),
	                        calloc((size_t)argc + 1, sizeof(*sets.owned)), 0};
	struct pl_error err;
	struct pl_ledger_session s;
	long long when = 0;
	size_t changed = 0;
	const char *author;
	int argi, rc, json = 0;
	const struct pl_option options[] = {
		PL_OPT_CALLBACK_ENTRY("run", 0, "ID", &o, pl_ledger_opt_run,
		                      "a run to amend (repeatable; 'perfledger list' shows ids)"),
		PL_OPT_CALLBACK_ENTRY("where", 0, "FIELD=VALUE", &o.sel, pl_sel_opt_where,
		                      "every run that matches and is not retracted\n(repeatable, ANDed)"),
		PL_OPT_CALLBACK_ENTRY("set", 0, "FIELD=VALUE", &sets, opt_set,
		                      "the corrected value (repeatable); FIELD= removes it"),
		PL_OPT_STRING_ENTRY("reason", 0, "TEXT", &o.reason, "why (required; kept in the trail)"),
		PL_OPT_STRING_ENTRY("by", 0, "NAME", &o.by, "who amends (default: $USER)"),
		PL_OPT_CALLBACK_ENTRY("summary", 0, "F", &json, pl_cli_opt_summary,
		                      "the summary as text (default) or json"),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "amend",
		.head = usage_text,
		.options = options,
		.width = 21,
		.no_operands = 1,
	};

	memset(&o, 0, sizeof(o));
	memset(&s, 0, sizeof(s));
	pl_error_init(&err);
	if (!sets.v || !sets.owned) {
		pl_cli_errorf("amend", "out of memory");
		rc = PL_EXIT_USAGE;
		goto out;
	}
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	if (pl_ledger_check_opts(&o, "amend", 1, 0))
		goto out;
	if (pl_ledger_check_sets(sets.v, sets.n, &err)) {
		pl_cli_errorf("amend", "%s", err.message);
		goto out;
	}
	if (!(author = pl_ledger_author(&o, "amend")) ||
	    pl_cli_source_date_epoch("amend", &when))
		goto out;
	rc = pl_ledger_session_begin(&s, cli, &o, PL_RETRACTED_HIDE, "amend");
	if (rc == 0)
		rc = amend_all(s.st, s.ids, s.n, &sets, when, o.reason, author, s.msg, s.js, &changed);
	if ((rc = pl_ledger_session_end(&s, rc)))
		goto out;
	if (json) {
		printf("{\"command\": \"amend\", \"selected\": %zu, \"changed\": %zu, \"runs\": [%.*s]}\n", s.n,
		       changed, (int)s.jlen, s.jbuf);
	} else {
		fwrite(s.buf, 1, s.len, stdout);
		printf("amended %zu run%s", changed, changed == 1 ? "" : "s");
		if (s.n - changed)
			printf(" (%zu unchanged)", s.n - changed);
		putchar('\n');
	}
	rc = pl_cli_finish(PL_EXIT_OK);
out:
	pl_ledger_session_release(&s);
	pl_ledger_opts_release(&o);
	for (size_t i = 0; sets.owned && i < sets.n; i++)
		free(sets.owned[i]);
	free(sets.owned);
	free(sets.v);
	return rc;
}
