/*
 * ci_output.c — --format junit|github for `check` and `history`, and the
 * GitHub step summary file (see ci_output.h).
 */
#include "cli/ci_output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "render/ci_format.h"
#include "render/refusal.h"

int pl_cli_opt_format_ci(void *fmt, const char *arg, const char *cmd)
{
	struct pl_out_format *f = fmt;
	struct pl_error err;

	pl_error_init(&err);
	if (strcmp(arg, "junit") == 0) {
		f->ci = PL_CI_JUNIT;
		return 0;
	}
	if (strcmp(arg, "github") == 0) {
		f->ci = PL_CI_GITHUB;
		return 0;
	}
	if (pl_table_format_parse(arg, &f->table, &err) || f->table == PL_FMT_CSV) {
		pl_cli_errorf(cmd, "bad --format '%s': expected text, markdown, json, junit or github",
		              arg);
		return PL_EXIT_USAGE;
	}
	f->ci = PL_CI_NONE;
	return 0;
}

FILE *pl_cli_step_summary_open(const char *cmd)
{
	const char *path = getenv("GITHUB_STEP_SUMMARY");
	FILE *f;

	if (!path || !*path)
		return stdout;
	if (!(f = fopen(path, "a"))) {
		pl_cli_errorf(cmd, "cannot open '%s' ($GITHUB_STEP_SUMMARY): %s", path, strerror(errno));
		return NULL;
	}
	return f;
}

int pl_cli_step_summary_close(const char *cmd, FILE *f)
{
	const char *path = getenv("GITHUB_STEP_SUMMARY");

	if (!f || f == stdout)
		return 0;
	if (ferror(f) | fclose(f)) {
		pl_cli_errorf(cmd, "cannot write '%s' ($GITHUB_STEP_SUMMARY)", path ? path : "");
		return PL_EXIT_USAGE;
	}
	return 0;
}

int pl_cli_ci_refusal(const char *cmd, const struct pl_out_format *fmt,
                      const struct pl_comparison *cmp)
{
	struct pl_error err;
	FILE *summary;
	int rc;

	pl_error_init(&err);
	if (fmt->ci == PL_CI_NONE && fmt->table != PL_FMT_JSON)
		return 0;
	if (fmt->ci == PL_CI_NONE) {
		/* the refusal as data, for a script reading stdout, as compare does */
		rc = pl_render_refusal_json(stdout, cmp, &err);
	} else if (fmt->ci == PL_CI_JUNIT) {
		rc = pl_render_refusal_junit(stdout, cmd, cmp, &err);
	} else {
		if (!(summary = pl_cli_step_summary_open(cmd)))
			return -1;
		rc = pl_render_refusal_github(stdout, summary, cmd, cmp, &err);
		if (pl_cli_step_summary_close(cmd, summary))
			return -1;
	}
	if (rc) {
		pl_cli_print_error(&err);
		return -1;
	}
	return 0;
}

int pl_cli_ci_github(const char *cmd, const struct pl_check *chk, const struct pl_history *h,
                     size_t nh, struct pl_error *err)
{
	FILE *summary = pl_cli_step_summary_open(cmd);
	int rc;

	if (!summary) {
		pl_error_init(err);
		return -1;
	}
	rc = chk ? pl_render_check_github(stdout, summary, chk, err)
	         : pl_render_history_github(stdout, summary, h, nh, err);
	if (pl_cli_step_summary_close(cmd, summary) && !rc) {
		pl_error_init(err);
		return -1;
	}
	return rc ? -1 : 0;
}
