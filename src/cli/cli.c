/*
 * cli.c — messages, exit codes and the selection options shared by the
 * commands.
 */
#include "cli/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/names.h"
#include "flow/compare_flow.h"
#include "render/refusal.h"
#include "render/render.h"
#include "render/words.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/file.h"
#include "util/suggest.h"

const char pl_exit_help[] =
	"Exit codes:\n"
	"  0  ok\n"
	"  1  regression found (check, history --fail-on-step) or bundle differs (verify)\n"
	"  2  usage or I/O error (also: no runs match a compare/report/check/history/\n"
	"     amend/retract/restore/purge selection; gnuplot missing)\n"
	"  3  comparison refused: conditions do not match\n"
	"  4  one or more inputs rejected\n"
	"  5  too few samples to decide\n"
	"  6  superseded: the bundle's runs were corrected since (verify)\n";

void pl_cli_put_inert_cut(FILE *f, const char *s, size_t max_chars)
{
	const char *p = s;
	size_t left = strlen(s), shown = 0;

	while (left > 0) {
		unsigned long cp;
		int inert;
		size_t len = pl_utf8_inert_step(p, left, &cp, &inert);

		if (max_chars > 0 && shown + 1 >= max_chars && len < left) {
			fputs("\xE2\x80\xA6", f); /* U+2026: cut here */
			return;
		}
		if (inert)
			fputc('?', f); /* a newline too: no forged line */
		else
			fwrite(p, 1, len, f);
		shown++;
		p += len;
		left -= len;
	}
}

void pl_cli_put_inert(FILE *f, const char *s)
{
	pl_cli_put_inert_cut(f, s, 0);
}

void pl_cli_print_error(const struct pl_error *err)
{
	char buf[2048];

	pl_error_format(err, buf, sizeof(buf));
	fputs("perfledger: ", stderr);
	pl_cli_put_inert(stderr, buf);
	fputc('\n', stderr);
}

void pl_cli_errorf(const char *cmd, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	fprintf(stderr, "perfledger: %s%s", cmd ? cmd : "", cmd ? ": " : "");
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pl_cli_put_inert(stderr, buf);
	fputc('\n', stderr);
}

int pl_cli_exit_for(int code)
{
	switch (code) {
	case PL_OK:
		return PL_EXIT_OK;
	case PL_EMISMATCH:
		return PL_EXIT_REFUSED;
	case PL_ESYNTAX:
	case PL_EINVALID:
	case PL_EFORMAT:
		return PL_EXIT_REJECTED;
	default:
		return PL_EXIT_USAGE;
	}
}

struct pl_store *pl_cli_open_store(const struct pl_cli *cli, int mode)
{
	struct pl_store *st = NULL;
	struct pl_error err;
	struct stat sb;
	int rc;

	pl_error_init(&err);
	/* Commands that write to an existing database must not create an empty
	 * one at a mistyped path either. */
	if (mode == PL_CLI_STORE_WRITE && stat(cli->db_path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		pl_cli_errorf(NULL, "no perfledger database at '%s' (it is %s, not a regular file)",
		              cli->db_path, pl_file_kind(sb.st_mode));
		return NULL;
	}
	if (mode == PL_CLI_STORE_WRITE && (stat(cli->db_path, &sb) != 0 || sb.st_size == 0)) {
		pl_cli_errorf(NULL, "no perfledger database at '%s' (import creates one)", cli->db_path);
		return NULL;
	}
	rc = mode == PL_CLI_STORE_READ ? pl_store_open_readonly(cli->db_path, &st, &err)
	                               : pl_store_open(cli->db_path, &st, &err);
	if (rc) {
		pl_cli_print_error(&err);
		return NULL;
	}
	return st;
}

int pl_cli_finish(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "perfledger: error writing to standard output: %s\n",
		        strerror(errno ? errno : EIO));
		return PL_EXIT_USAGE;
	}
	return rc;
}

/* Prints err's message as "perfledger: CMD: message"; returns PL_EXIT_USAGE. */
static int sel_error(const char *cmd, const struct pl_error *err)
{
	pl_cli_errorf(cmd, "%s", err->message);
	return PL_EXIT_USAGE;
}

int pl_sel_opt_where(void *sel, const char *arg, const char *cmd)
{
	struct pl_error err;

	pl_error_init(&err);
	return pl_selection_add_where(sel, arg, &err) ? sel_error(cmd, &err) : 0;
}

int pl_sel_opt_metric(void *sel, const char *arg, const char *cmd)
{
	struct pl_error err;

	pl_error_init(&err);
	return pl_selection_add_metric(sel, cmd, arg, &err) ? sel_error(cmd, &err) : 0;
}

int pl_sel_opt_allow(void *sel, const char *arg, const char *cmd)
{
	struct pl_error err;

	pl_error_init(&err);
	return pl_selection_add_allow(sel, arg, &err) ? sel_error(cmd, &err) : 0;
}

int pl_sel_opt_slo(void *vsel, const char *arg, const char *cmd)
{
	struct pl_selection *sel = vsel;
	struct pl_error err;

	pl_error_init(&err);
	if (!sel->opts.has_slo) /* a second --slo adds its limits */
		pl_rq_slo_init(&sel->opts.slo);
	if (pl_rq_slo_add(arg, &sel->opts.slo, &err))
		return sel_error(cmd, &err);
	sel->opts.has_slo = 1;
	return 0;
}

int pl_sel_opt_axis(void *vsel, const char *arg, const char *cmd)
{
	struct pl_selection *sel = vsel;
	struct pl_error err;

	pl_error_init(&err);
	if (pl_compare_parse_axis(&sel->opts, arg, &err)) {
		pl_cli_errorf(cmd, "%s", err.message);
		return PL_EXIT_USAGE;
	}
	sel->have_axis = 1;
	return 0;
}

int pl_cli_opt_format(void *fmt, const char *arg, const char *cmd)
{
	struct pl_error err;

	pl_error_init(&err);
	if (pl_table_format_parse(arg, fmt, &err)) {
		pl_cli_errorf(cmd, "%s", err.message);
		return PL_EXIT_USAGE;
	}
	return 0;
}

void pl_cli_put_msgs(FILE *out, const char *indent, const struct pl_msg *parts, size_t n)
{
	struct pl_buf b = PL_BUF_INIT;

	for (size_t i = 0; i < n; i++)
		if (parts[i].oom || pl_words_add(&b, &parts[i], PL_LANG_EN))
			b.oom = 1;
	fputs(indent, out);
	pl_cli_put_inert(out, b.oom ? "(out of memory)" : b.len ? b.data : "");
	fputc('\n', out);
	pl_buf_release(&b);
}

/* Writes m worded in English and a newline to stderr. */
static void put_msg_line(const char *indent, const struct pl_msg *m)
{
	pl_cli_put_msgs(stderr, indent, m, 1);
}

/* The refusal of cmp on stderr, worded through the word table
 * (render/refusal.h): the axis, then each differing field (at most
 * PL_CLI_LIST_MAX) with its values (at most PL_CLI_LIST_MAX, each cut to
 * PL_CLI_VALUE_MAX characters) and the runs holding each, then the
 * subsets that would compare (each line of options cut to
 * PL_CLI_SUBSET_MAX characters) or, where they were looked for, that none
 * does, then the hint.
 * Control characters of input values are shown as '?'. */
int pl_cli_print_refusal(const char *cmd, const struct pl_comparison *cmp)
{
	const char *axis[PL_COND_COUNT];
	struct pl_msg m;

	for (size_t k = 0; k < cmp->naxis; k++)
		axis[k] = pl_cond_info[cmp->axis[k]].name;
	pl_msg_init(&m, PL_MSG_REFUSAL_HEAD);
	pl_msg_list(&m, axis, cmp->naxis);
	fprintf(stderr, "perfledger: %s: ", cmd);
	put_msg_line("", &m);
	pl_msg_release(&m);
	for (size_t i = 0; i < cmp->nmismatches && i < PL_CLI_LIST_MAX; i++) {
		if (pl_refusal_field_msg(&m, &cmp->mismatches[i], PL_CLI_LIST_MAX, PL_CLI_VALUE_MAX))
			m.oom = 1;
		put_msg_line("  ", &m);
		pl_msg_release(&m);
	}
	if (cmp->nmismatches > PL_CLI_LIST_MAX) {
		pl_msg_init(&m, PL_MSG_REFUSAL_MORE_FIELDS);
		pl_msg_int(&m, (long long)(cmp->nmismatches - PL_CLI_LIST_MAX));
		put_msg_line("  ", &m);
		pl_msg_release(&m);
	}
	if (cmp->nsubsets || cmp->subsets_sought) {
		pl_msg_init(&m, pl_refusal_subsets_head(cmp));
		put_msg_line("", &m);
		pl_msg_release(&m);
	}
	for (size_t i = 0; i < cmp->nsubsets; i++) {
		if (pl_refusal_subset_msg(&m, &cmp->subsets[i], cmp->subsets_in_definition,
		                          PL_CLI_SUBSET_MAX))
			m.oom = 1;
		put_msg_line("  ", &m);
		pl_msg_release(&m);
	}
	pl_msg_init(&m, cmp->subsets_in_definition ? PL_MSG_REFUSAL_HINT_DEFINITION
	                                           : PL_MSG_REFUSAL_HINT);
	put_msg_line("", &m);
	return PL_EXIT_REFUSED;
}

int pl_cli_build_comparison(struct pl_store *st, const struct pl_selection *sel, const char *cmd,
                            struct pl_run_list *runs, struct pl_comparison *cmp)
{
	struct pl_error err;
	char hint[600];
	int rc;

	pl_error_init(&err);
	rc = pl_flow_compare(st, sel, runs, cmp, hint, sizeof(hint), &err);
	if (rc == PL_EEMPTY) {
		pl_cli_errorf(cmd, "%s%s", err.message[0] ? err.message : "no runs match the selection",
		              hint);
		return PL_EXIT_USAGE;
	}
	return pl_cli_comparison_outcome(cmd, cmp, rc, &err);
}

int pl_cli_comparison_outcome(const char *cmd, const struct pl_comparison *cmp, int rc,
                              const struct pl_error *err)
{
	if (rc == PL_EMISMATCH && cmp->nmismatches == 0) {
		/* refused over a metric, not a condition (goodput without one SLO) */
		pl_cli_errorf(cmd, "%s", err->message);
		rc = PL_EXIT_REFUSED;
	} else if (rc == PL_EMISMATCH) {
		rc = pl_cli_print_refusal(cmd, cmp);
	} else if (rc == PL_EEMPTY) {
		/* the core says why when runs matched (every one failed) */
		pl_cli_errorf(cmd, "%s", err->message[0] ? err->message : "no runs match the selection");
		rc = PL_EXIT_USAGE;
	} else if (rc) {
		pl_cli_print_error(err);
		rc = pl_cli_exit_for(rc);
	}
	return rc;
}

/* out = DIR/REL/SUB/NAME when that is a regular file. */
static int data_at(const char *dir, const char *rel, const char *sub, const char *name, char *out, size_t n)
{
	struct stat sb;
	int len = snprintf(out, n, "%s%s/%s/%s", dir, rel, sub, name);

	return len > 0 && (size_t)len < n && stat(out, &sb) == 0 && S_ISREG(sb.st_mode) ? 0 : -1;
}

int pl_cli_find_data(const char *sub, const char *name, char *out, size_t n)
{
	const char *env = getenv("PERFLEDGER_DATADIR");
	char exe[4096];
	ssize_t len;
	char *slash;

	if (env && *env)
		return data_at(env, "", sub, name, out, n);
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		return -1;
	exe[len] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0'; /* the binary's directory */
	if (data_at(exe, "/../share/perfledger", sub, name, out, n) == 0)
		return 0;
	return data_at(exe, "/..", sub, name, out, n);
}

int pl_cli_opt_format_json(void *value, const char *arg, const char *cmd)
{
	if (strcmp(arg, "json") == 0 || strcmp(arg, "text") == 0) {
		*(int *)value = arg[0] == 'j';
		return 0;
	}
	pl_cli_errorf(cmd, "bad --format '%s': expected text or json", arg);
	return PL_EXIT_USAGE;
}

int pl_cli_operand_run_id(void *id, const char *arg, const char *cmd)
{
	char *end;
	long long v;

	if (*(long long *)id != 0) {
		pl_cli_errorf(cmd, "unexpected argument '%s' (one run id)", arg);
		return PL_EXIT_USAGE;
	}
	errno = 0;
	v = strtoll(arg, &end, 10);
	if (!*arg || *end || errno == ERANGE || v <= 0) {
		pl_cli_errorf(cmd, "bad run id '%s': expected a whole number ('perfledger list' shows them)",
		              arg);
		return PL_EXIT_USAGE;
	}
	*(long long *)id = v;
	return 0;
}

int pl_cli_opt_summary(void *value, const char *arg, const char *cmd)
{
	if (strcmp(arg, "json") == 0 || strcmp(arg, "text") == 0) {
		*(int *)value = arg[0] == 'j';
		return 0;
	}
	pl_cli_errorf(cmd, "bad --summary '%s': expected text or json", arg);
	return 1;
}
