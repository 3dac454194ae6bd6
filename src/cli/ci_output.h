/*
 * ci_output.h — the --format choices of `check` and `history` that CI
 * systems read (junit, github) next to the table formats, and where the
 * GitHub step summary goes. The rendering is render/ci_format.c's.
 */
#ifndef PL_CI_OUTPUT_H
#define PL_CI_OUTPUT_H

#include <stdio.h>

#include "core/check.h"
#include "core/history.h"
#include "render/render.h"

/* What --format asked for: a table format, or a CI format. */
enum pl_ci_kind {
	PL_CI_NONE,   /* a table: text, markdown or json (table below) */
	PL_CI_JUNIT,  /* JUnit XML on stdout */
	PL_CI_GITHUB  /* GitHub workflow annotations on stdout, summary aside */
};

struct pl_out_format {
	enum pl_table_format table; /* when ci is PL_CI_NONE */
	enum pl_ci_kind ci;         /* the CI format, or PL_CI_NONE */
};

/* Option callback for --format F with F one of text, markdown, json,
 * junit, github, into the struct pl_out_format *fmt. Prints a usage error
 * naming cmd and returns PL_EXIT_USAGE for anything else. */
int pl_cli_opt_format_ci(void *fmt, const char *arg, const char *cmd);

/* The help text of that option. */
#define PL_CLI_FORMAT_CI_HELP                                                              \
	"text (default), markdown, json, junit (JUnit XML) or\n"                           \
	"github (workflow annotations; the Markdown summary is\n"                          \
	"appended to $GITHUB_STEP_SUMMARY, else follows on stdout)"

/* Where the GitHub step summary goes: the file named by
 * $GITHUB_STEP_SUMMARY, opened for appending (GitHub documents that steps
 * append to it), or stdout when the variable is unset or empty. NULL (with
 * the error printed for cmd) when the file cannot be opened. Close with
 * pl_cli_step_summary_close(). */
FILE *pl_cli_step_summary_open(const char *cmd);

/* Closes a summary from pl_cli_step_summary_open() (stdout is left open).
 * Returns 0, or prints an error naming cmd and returns PL_EXIT_USAGE when
 * the file could not be written. */
int pl_cli_step_summary_close(const char *cmd, FILE *f);

/* After a refusal (already printed to stderr by pl_cli_print_refusal):
 * with a CI format, also writes it in that format to stdout (a JUnit error
 * testcase, or a GitHub ::error and the summary), so the CI's report shows
 * why the job failed; with --format json, the refusal as JSON
 * (pl_render_refusal_json()). Each names the subsets that would compare.
 * Returns 0, or prints why and returns -1 when the
 * output could not be written. */
int pl_cli_ci_refusal(const char *cmd, const struct pl_out_format *fmt,
                      const struct pl_comparison *cmp);

/* --format github for a check (chk) or the histories h[0..nh) (chk NULL):
 * the annotations on stdout, the summary to pl_cli_step_summary_open()'s
 * file. Returns 0, or -1 with err set (or err.code 0 when the summary
 * file's error was printed already). */
int pl_cli_ci_github(const char *cmd, const struct pl_check *chk, const struct pl_history *h,
                     size_t nh, struct pl_error *err);

#endif
