/*
 * ledger_cli.h — what amend, retract, restore and purge share: the
 * selection of runs by --run ID (repeatable) or --where FIELD=VALUE, the
 * --reason and --by options, and the run of one write transaction whose
 * messages are printed only once it is committed.
 */
#ifndef PL_LEDGER_CLI_H
#define PL_LEDGER_CLI_H

#include <stdio.h>

#include "cli/cli.h"

/* --run IDs at most in one command. */
#define PL_LEDGER_RUNS_MAX 1024

/* The options of a ledger command. Initialise with memset 0. */
struct pl_ledger_opts {
	struct pl_selection sel;            /* --where */
	long long run[PL_LEDGER_RUNS_MAX];  /* --run IDs, as given */
	size_t nrun;                        /* entries in run */
	const char *reason;                 /* --reason, as given */
	const char *by;                     /* --by, as given, or NULL */
	int retracted;                      /* purge --retracted */
};

/* Option handler for --run ID (repeatable): into the struct pl_ledger_opts. */
int pl_ledger_opt_run(void *opts, const char *arg, const char *cmd);

/* Checks that exactly one of --run and --where (or, with allow_all,
 * --retracted) was given and that --reason is (when need_reason). Prints
 * the error and returns PL_EXIT_USAGE, else 0. */
int pl_ledger_check_opts(const struct pl_ledger_opts *o, const char *cmd, int need_reason,
                         int allow_all);

/* The author to record: --by, else $USER; prints an error and returns
 * NULL when neither is set (or --by is empty). */
const char *pl_ledger_author(const struct pl_ledger_opts *o, const char *cmd);

/* The run ids the command works on, ascending and distinct, into *ids
 * (caller frees) and *n: the --run IDs (each must exist: else "no run with
 * id N", PL_EXIT_USAGE), or the runs that --where (or --retracted, every
 * one) selects among those of mode (enum pl_retracted_mode). Run inside the
 * command's transaction. A selection that matches nothing is an error
 * ("no runs match the selection", PL_EXIT_USAGE), as for compare: *n is
 * never 0 on success. Prints errors; returns 0 or an exit code. */
int pl_ledger_resolve(struct pl_store *st, const struct pl_ledger_opts *o, int mode,
                      const char *cmd, long long **ids, size_t *n);

/* Frees what o owns (the --where values). */
void pl_ledger_opts_release(struct pl_ledger_opts *o);

/* One run of a command that changes the ledger (amend, retract, restore,
 * purge): its text and JSON summaries being written, the ledger in its
 * transaction, the runs it works on. Zero it before
 * pl_ledger_session_begin(). */
struct pl_ledger_session {
	FILE *msg, *js;       /* the text lines; the JSON entries (open until _end) */
	char *buf, *jbuf;     /* what msg and js wrote: valid after _end */
	size_t len, jlen;
	struct pl_store *st;  /* the ledger, in a transaction from _begin to _end */
	long long *ids;       /* the selected runs (pl_ledger_resolve) */
	size_t n;
};

/* Opens the summaries, the ledger of cli for writing, its transaction, and
 * resolves o's selection among the runs of mode (enum pl_retracted_mode)
 * into s->ids. Prints errors; returns 0 or an exit code (then the
 * transaction, if begun, is still open: pass the code to _end). */
int pl_ledger_session_begin(struct pl_ledger_session *s, const struct pl_cli *cli,
                            const struct pl_ledger_opts *o, int mode, const char *cmd);

/* Ends s's transaction: rc != 0 rolls it back and returns rc; else it is
 * committed (a failure is printed and returns PL_EXIT_USAGE) and the
 * summaries are closed, so s->buf/len and s->jbuf/jlen hold them.
 * Returns 0 or an exit code. */
int pl_ledger_session_end(struct pl_ledger_session *s, int rc);

/* Frees what s holds and closes its ledger; a zeroed s is a no-op. */
void pl_ledger_session_release(struct pl_ledger_session *s);

#endif
