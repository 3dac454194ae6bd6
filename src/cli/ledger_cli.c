/*
 * ledger_cli.c — the run selection and options that amend, retract,
 * restore and purge share (ledger_cli.h).
 */
#include "cli/ledger_cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/sort.h"

int pl_ledger_opt_run(void *vo, const char *arg, const char *cmd)
{
	struct pl_ledger_opts *o = vo;
	char *end;
	long long v;

	errno = 0;
	v = strtoll(arg, &end, 10);
	if (!*arg || *end || errno == ERANGE || v <= 0) {
		pl_cli_errorf(cmd, "bad --run '%s': expected a run id (a whole number)", arg);
		return PL_EXIT_USAGE;
	}
	if (o->nrun >= PL_LEDGER_RUNS_MAX) {
		pl_cli_errorf(cmd, "too many --run options (at most %d; use --where)", PL_LEDGER_RUNS_MAX);
		return PL_EXIT_USAGE;
	}
	o->run[o->nrun++] = v;
	return 0;
}

int pl_ledger_check_opts(const struct pl_ledger_opts *o, const char *cmd, int need_reason,
                         int allow_all)
{
	int ways = (o->nrun > 0) + (o->sel.nfilters > 0) + (o->retracted && o->sel.nfilters == 0);

	if (ways != 1) {
		pl_cli_errorf(cmd, ways ? "give either --run ID or --where FIELD=VALUE, not both"
		                        : allow_all ? "which runs? give --run ID, --where FIELD=VALUE or "
		                                      "--retracted"
		                                    : "which runs? give --run ID or --where FIELD=VALUE");
		return PL_EXIT_USAGE;
	}
	if (need_reason && (!o->reason || !*o->reason)) {
		pl_cli_errorf(cmd, "--reason TEXT is required (it is kept in the ledger's trail)");
		return PL_EXIT_USAGE;
	}
	return 0;
}

const char *pl_ledger_author(const struct pl_ledger_opts *o, const char *cmd)
{
	const char *who = o->by ? o->by : getenv("USER");

	if (o->by && !*o->by) {
		pl_cli_errorf(cmd, "--by needs a NAME");
		return NULL;
	}
	if (!who || !*who) {
		pl_cli_errorf(cmd, "who is this? $USER is not set: give --by NAME");
		return NULL;
	}
	return who;
}

int pl_ledger_resolve(struct pl_store *st, const struct pl_ledger_opts *o, int mode,
                      const char *cmd, long long **ids, size_t *n)
{
	struct pl_run_list runs;
	struct pl_error err;
	size_t k = 0;

	*ids = NULL;
	*n = 0;
	pl_error_init(&err);
	if (o->nrun > 0) {
		if (!(*ids = malloc(o->nrun * sizeof(**ids)))) {
			pl_cli_errorf(cmd, "out of memory");
			return PL_EXIT_USAGE;
		}
		memcpy(*ids, o->run, o->nrun * sizeof(**ids));
		qsort(*ids, o->nrun, sizeof(**ids), pl_cmp_ll);
		for (size_t i = 0; i < o->nrun; i++) {
			struct pl_run run;
			int found = 0, rc;

			if (k > 0 && (*ids)[k - 1] == (*ids)[i])
				continue;
			pl_run_init(&run);
			rc = pl_store_get_run(st, (*ids)[i], &run, &found, &err);
			pl_run_release(&run);
			if (rc || !found) {
				if (rc)
					pl_cli_print_error(&err);
				else
					pl_cli_errorf(cmd, "no run with id %lld", (*ids)[i]);
				free(*ids);
				*ids = NULL;
				return PL_EXIT_USAGE;
			}
			(*ids)[k++] = (*ids)[i];
		}
		*n = k;
		return 0;
	}
	pl_run_list_init(&runs);
	pl_store_set_retracted_mode(st, mode);
	if (pl_store_query(st, o->sel.filters, o->sel.nfilters, &runs, &err)) {
		pl_store_set_retracted_mode(st, PL_RETRACTED_HIDE);
		pl_cli_print_error(&err);
		pl_run_list_release(&runs);
		return pl_cli_exit_for(err.code);
	}
	pl_store_set_retracted_mode(st, PL_RETRACTED_HIDE);
	if (runs.n == 0) { /* one rule for every command that writes the trail */
		pl_run_list_release(&runs);
		pl_cli_errorf(cmd, mode == PL_RETRACTED_ONLY
		                       ? "no runs match the selection (only retracted runs are selected; "
		                         "see 'perfledger list --retracted')"
		                       : "no runs match the selection (retracted runs are not selected; "
		                         "see 'perfledger list --retracted')");
		return PL_EXIT_USAGE;
	}
	if (!(*ids = malloc(runs.n * sizeof(**ids)))) {
		pl_run_list_release(&runs);
		pl_cli_errorf(cmd, "out of memory");
		return PL_EXIT_USAGE;
	}
	for (size_t i = 0; i < runs.n; i++)
		(*ids)[i] = runs.v[i].id; /* ordered by id */
	*n = runs.n;
	pl_run_list_release(&runs);
	return 0;
}

void pl_ledger_opts_release(struct pl_ledger_opts *o)
{
	pl_selection_release(&o->sel);
}

int pl_ledger_session_begin(struct pl_ledger_session *s, const struct pl_cli *cli,
                            const struct pl_ledger_opts *o, int mode, const char *cmd)
{
	struct pl_error err;

	pl_error_init(&err);
	if (!(s->msg = open_memstream(&s->buf, &s->len)) ||
	    !(s->js = open_memstream(&s->jbuf, &s->jlen))) {
		pl_cli_errorf(cmd, "out of memory");
		return PL_EXIT_USAGE;
	}
	if (!(s->st = pl_cli_open_store(cli, PL_CLI_STORE_WRITE)))
		return PL_EXIT_USAGE;
	if (pl_store_begin(s->st, &err)) {
		pl_cli_print_error(&err);
		pl_store_close(s->st); /* no transaction to end */
		s->st = NULL;
		return PL_EXIT_USAGE;
	}
	return pl_ledger_resolve(s->st, o, mode, cmd, &s->ids, &s->n);
}

int pl_ledger_session_end(struct pl_ledger_session *s, int rc)
{
	struct pl_error err;

	pl_error_init(&err);
	if (!s->st)
		return rc ? rc : PL_EXIT_USAGE;
	if (rc) {
		pl_store_rollback(s->st, NULL);
		return rc;
	}
	if (pl_store_commit(s->st, &err)) {
		pl_cli_print_error(&err);
		return PL_EXIT_USAGE;
	}
	fclose(s->msg);
	s->msg = NULL;
	fclose(s->js);
	s->js = NULL;
	return 0;
}

void pl_ledger_session_release(struct pl_ledger_session *s)
{
	if (s->msg)
		fclose(s->msg);
	if (s->js)
		fclose(s->js);
	free(s->buf);
	free(s->jbuf);
	free(s->ids);
	pl_store_close(s->st);
	memset(s, 0, sizeof(*s));
}
