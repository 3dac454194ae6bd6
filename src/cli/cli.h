/*
 * cli.h — what the command files share: exit codes, messages, selection
 * options. Only the CLI prints; the library reports through struct pl_error.
 */
#ifndef PL_CLI_H
#define PL_CLI_H

#include <stdio.h>

#include "core/compare.h"
#include "core/error.h"
#include "core/exit.h"
#include "flow/selection.h"
#include "store/db.h"

/* The exit-code table as printed by --help. */
extern const char pl_exit_help[];

/* Global options, set by main before the command runs. */
struct pl_cli {
	const char *db_path; /* --db, else $PERFLEDGER_DB, else ./perfledger.db */
};

/* Signature of a command: argv[0] is the command name. Returns a pl_exit. */
typedef int (*pl_cmd_fn)(const struct pl_cli *cli, int argc, char **argv);

int cmd_import(const struct pl_cli *cli, int argc, char **argv);
int cmd_list(const struct pl_cli *cli, int argc, char **argv);
int cmd_compare(const struct pl_cli *cli, int argc, char **argv);
int cmd_report(const struct pl_cli *cli, int argc, char **argv);
int cmd_check(const struct pl_cli *cli, int argc, char **argv);
int cmd_history(const struct pl_cli *cli, int argc, char **argv);
int cmd_accept(const struct pl_cli *cli, int argc, char **argv);
int cmd_verify(const struct pl_cli *cli, int argc, char **argv);
int cmd_migrate(const struct pl_cli *cli, int argc, char **argv);
int cmd_site(const struct pl_cli *cli, int argc, char **argv);
int cmd_show(const struct pl_cli *cli, int argc, char **argv);
int cmd_requests(const struct pl_cli *cli, int argc, char **argv);
int cmd_amend(const struct pl_cli *cli, int argc, char **argv);
int cmd_retract(const struct pl_cli *cli, int argc, char **argv);
int cmd_restore(const struct pl_cli *cli, int argc, char **argv);
int cmd_purge(const struct pl_cli *cli, int argc, char **argv);
int cmd_export(const struct pl_cli *cli, int argc, char **argv);
int cmd_merge(const struct pl_cli *cli, int argc, char **argv);
int cmd_push(const struct pl_cli *cli, int argc, char **argv);
int cmd_pull(const struct pl_cli *cli, int argc, char **argv);
int cmd_reimport(const struct pl_cli *cli, int argc, char **argv);

/* The CLI's one reading of $SOURCE_DATE_EPOCH (util/clock.h's parser): unset or empty is now; else a
 * whole number of seconds 0..253402300799 (up to 9999-12-31T23:59:59Z),
 * 0 included. Stores it in *epoch and returns 0, or prints a usage error
 * naming the variable (as cmd) and returns PL_EXIT_USAGE. Renderers get
 * the result as a parameter and never read the environment. Defined in
 * cmd_report.c. */
int pl_cli_source_date_epoch(const char *cmd, long long *epoch);

/* Renders the report definition at spec_path into out_dir as a bundle, in
 * lang, with epoch as SOURCE_DATE_EPOCH (-1: pl_cli_source_date_epoch()).
 * fresh: out_dir is an empty directory the caller made (verify's
 * re-render: pl_bundle_write_fresh), else it is replaced atomically
 * (pl_bundle_write). as_of (report --as-of, or NULL) and since (report
 * --since: a bundle directory, or ID@TIME; or NULL) are added to the
 * definition (pl_spec_add_inputs); wind_to (or NULL) takes the runs as
 * they stood at that time without recording it (verify's check of a
 * superseded bundle against its own as-of time). The runs are put in the bundle's
 * order with their trails (pl_bundle_runs_canonical), wound back to the
 * definition's "as_of" and, with "since", the errata made. Prints errors;
 * returns an exit code. Defined in cmd_report.c, used by report --spec
 * and verify. */
int pl_cli_render_bundle(const struct pl_cli *cli, const char *spec_path, const char *lang,
                         long long epoch, const char *out_dir, int fresh, const char *as_of,
                         const char *since, const char *wind_to);
int cmd_formats(const struct pl_cli *cli, int argc, char **argv);

/* --format F for a command that prints text or json: an option handler
 * setting *(int *)value to 1 for "json" and 0 for "text"; anything else is
 * a usage error naming both (returns PL_EXIT_USAGE). Used by show and
 * requests. */
int pl_cli_opt_format_json(void *value, const char *arg, const char *cmd);

/* The one operand of a command about one run (show, requests): sets
 * *(long long *)id to the run id ARG names. A usage error (PL_EXIT_USAGE,
 * printed) when ARG is not a whole number > 0 or when *id is set already
 * (a second operand). */
int pl_cli_operand_run_id(void *id, const char *arg, const char *cmd);

/* The command line of push and pull (hub_cli.c): `CMD [--where
 * FIELD=VALUE]... [--summary text|json] URL`, parsed with USAGE_TEXT as the
 * --help head. Zeroes and fills *sel (release it with
 * pl_selection_release() whatever this returns), *json (1: --summary json)
 * and *url (borrowed from argv). Returns PL_OPTIONS_CONTINUE when the
 * command should go on, else the exit code (0 after --help; a usage error
 * printed, PL_EXIT_USAGE, for a bad option or not exactly one URL). */
int pl_cli_hub_args(const char *cmd, const char *usage_text, int argc, char **argv,
                    struct pl_selection *sel, int *json, const char **url);

/* --summary F: an option handler setting *(int *)value to 1 for "json" and
 * 0 for "text" (the default); anything else is a usage error naming both.
 * The summary of a command that changes the ledger (import, merge, amend,
 * retract, restore, purge, reimport) or of export. */
int pl_cli_opt_summary(void *value, const char *arg, const char *cmd);

/*
 * Finds the installed data file SUB/NAME (e.g. "reports", "procurement-review.json")
 * without a source tree: in $PERFLEDGER_DATADIR/SUB when that is set, else
 * relative to the running binary (/proc/self/exe, symlinks resolved):
 * BINDIR/../share/perfledger/SUB (an installed prefix, wherever it was
 * moved), then BINDIR/../SUB (a build directory inside the source tree).
 * Writes the first path that is a regular file into out (n bytes) and
 * returns 0; returns -1 when none is (out then holds nothing useful).
 */
int pl_cli_find_data(const char *sub, const char *name, char *out, size_t n);

/* Writes s to f with every terminal control made inert by the one rule of
 * util/utf8.h (pl_utf8_inert_step(), which the tables on stdout use too):
 * C0 controls (a newline too, so that a file name cannot forge a line), DEL,
 * the C1 controls U+0080..U+009F, the bidi marks, overrides and isolates
 * (U+200E-200F, U+202A-202E, U+2066-2069) and bytes that are not UTF-8
 * become '?', so a file name or value from an input cannot move the cursor,
 * clear the screen, retitle the terminal (ESC [ 2 J, a lone 0x9B, and the
 * like) or show a message reordered. */
void pl_cli_put_inert(FILE *f, const char *s);

/* Writes indent, then the n messages parts worded in English one after
 * another (render/words.h) as one line made inert (pl_cli_put_inert(): a
 * message may carry names read from an input), then a newline, to out.
 * An allocation failure, or a part with oom set, writes "(out of
 * memory)" instead. parts are borrowed, not released. */
struct pl_msg;
void pl_cli_put_msgs(FILE *out, const char *indent, const struct pl_msg *parts, size_t n);

/* Lists of values in messages show at most PL_CLI_LIST_MAX of them, then
 * "and K more"; each value at most PL_CLI_VALUE_MAX characters. */
#define PL_CLI_LIST_MAX 20
#define PL_CLI_VALUE_MAX 200
/* Characters of one comparable subset's --where options a refusal shows. */
#define PL_CLI_SUBSET_MAX 400

/* pl_cli_put_inert() that shows at most max_chars characters of s (0: no
 * limit), the last one an ellipsis (U+2026) when s is longer. */
void pl_cli_put_inert_cut(FILE *f, const char *s, size_t max_chars);

/* Prints "perfledger: " + the formatted error to stderr, made inert. */
void pl_cli_print_error(const struct pl_error *err);

/* Prints "perfledger: CMD: " + printf message + newline to stderr, the
 * whole line made inert (pl_cli_put_inert); CMD may be NULL. */
void pl_cli_errorf(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Maps a library error code to an exit code (2 for I/O, usage and db, 3 for
 * mismatch, 4 for rejected input). */
int pl_cli_exit_for(int code);

/* How a command opens the database (pl_cli_open_store()). */
enum pl_cli_store_mode {
	PL_CLI_STORE_READ = 0,   /* read-only (pl_store_open_readonly()): list, compare, report,
	                            check, history, verify, accept --list; a missing, empty,
	                            foreign, older or newer database is refused untouched */
	PL_CLI_STORE_CREATE = 1, /* created if missing, migrated (import) */
	PL_CLI_STORE_WRITE = 2   /* must exist; migrated (accept, migrate) */
};

/* Opens the database named by cli in mode (enum pl_cli_store_mode); prints
 * the error and returns NULL on failure. */
struct pl_store *pl_cli_open_store(const struct pl_cli *cli, int mode);

/* Flushes stdout and checks it; prints an error and returns PL_EXIT_USAGE
 * if writing failed (full disk, closed pipe), else rc. */
int pl_cli_finish(int rc);

/* Option handlers (options.h pl_opt_cb) for the selection options that
 * list, compare, report, check and history share: value is the struct
 * pl_selection, arg the option's value, cmd the command for messages.
 * --where, --metric and --allow-mismatch; each returns 0 or prints an
 * error and returns PL_EXIT_USAGE. */
int pl_sel_opt_where(void *sel, const char *arg, const char *cmd);
int pl_sel_opt_metric(void *sel, const char *arg, const char *cmd);
int pl_sel_opt_allow(void *sel, const char *arg, const char *cmd);

/* Option handler for compare's --slo ttft=S,tpot=S,e2el=S,itl=S (the
 * syntax of requests --slo, core/requests.h pl_rq_slo_parse): sets the
 * struct pl_selection's opts.slo and opts.has_slo. Returns 0 or prints an
 * error and returns PL_EXIT_USAGE. */
int pl_sel_opt_slo(void *sel, const char *arg, const char *cmd);

/* Option handler for --axis FIELD[,FIELD...] (compare, report): parses into
 * the struct pl_selection sel and sets its have_axis. Returns 0 or prints
 * an error and returns PL_EXIT_USAGE. */
int pl_sel_opt_axis(void *sel, const char *arg, const char *cmd);

/* Option handler for --format of the table commands (list, compare): parses
 * arg into *(enum pl_table_format *)fmt. Returns 0 or prints an error and
 * returns PL_EXIT_USAGE. */
int pl_cli_opt_format(void *fmt, const char *arg, const char *cmd);

/* The select -> compare pipeline for cmd (pl_flow_compare, which says
 * what is loaded), printed: on refusal every mismatched field with its
 * values and returns PL_EXIT_REFUSED; a selection matching no run says
 * which --where is to blame and the closest stored values; other errors
 * are printed and their exit code returned; 0 on success (runs, when
 * given, and cmp filled; the caller releases both). */
int pl_cli_build_comparison(struct pl_store *st, const struct pl_selection *sel, const char *cmd,
                            struct pl_run_list *runs, struct pl_comparison *cmp);

/* What pl_compare_build's return code rc (and err) means for cmd: 0 stays
 * 0; a refusal is printed (pl_cli_print_refusal) and PL_EXIT_REFUSED; no
 * runs or another error is printed and its exit code returned. */
int pl_cli_comparison_outcome(const char *cmd, const struct pl_comparison *cmp, int rc,
                              const struct pl_error *err);

/* Prints the refusal of cmp (PL_EMISMATCH from pl_compare_build) on
 * stderr, worded through the word table: every mismatched field with its
 * values and the runs holding each (render/refusal.h), and a hint. Returns PL_EXIT_REFUSED.
 * Used by pl_cli_build_comparison(), check and history. */
int pl_cli_print_refusal(const char *cmd, const struct pl_comparison *cmp);

#endif
