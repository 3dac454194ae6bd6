/*
 * cli.c — messages, exit codes and the selection options shared by the
 * commands.
 */
#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/names.h"
#include "core/normalize.h"
#include "render/refusal.h"
#include "render/render.h"
#include "render/words.h"
#include "util/alloc.h"
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

int pl_sel_add_where(struct pl_selection *sel, const char *cmd, const char *arg)
{
	const char *spec = sel->spec, *eq = strchr(arg, '=');
	char name[128];
	int id;
	char *norm;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(name)) {
		if (spec)
			pl_cli_errorf(cmd, "%s: the definition's 'where' entry '%s' is bad: expected FIELD=VALUE",
			              spec, arg);
		else
			pl_cli_errorf(cmd, "bad --where '%s': expected FIELD=VALUE", arg);
		return PL_EXIT_USAGE;
	}
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	id = pl_cond_lookup(name);
	if (id == PL_C_NONE && !(strchr(name, '.') && name[0] != '.')) {
		char dym[96];
		pl_did_you_mean(dym, sizeof(dym), pl_cond_suggest(name));
		if (spec)
			pl_cli_errorf(cmd,
			              "%s: unknown condition '%s' in the definition's 'where' entry '%s'%s (see "
			              "'perfledger list --help')",
			              spec, name, arg, dym);
		else
			pl_cli_errorf(cmd, "unknown condition '%s' in --where%s (see 'perfledger list --help')",
			              name, dym);
		return PL_EXIT_USAGE;
	}
	if (sel->nfilters >= sizeof(sel->filters) / sizeof(sel->filters[0])) {
		if (spec)
			pl_cli_errorf(cmd, "%s: too many entries in the definition's 'where' (at most 64)",
			              spec);
		else
			pl_cli_errorf(cmd, "too many --where options (at most 64)");
		return PL_EXIT_USAGE;
	}
	sel->filters[sel->nfilters].extra = NULL;
	if (id == PL_C_NONE) {
		/* an extra condition a file recorded ("vllm-serving.label"):
		 * matched as stored, without normalization */
		memcpy(sel->where_extra[sel->nfilters], name, strlen(name) + 1);
		sel->filters[sel->nfilters].extra = sel->where_extra[sel->nfilters];
	}
	if (eq[strspn(eq + 1, " \t") + 1] == '\0') {
		/* FIELD= (or only blanks): the runs where FIELD is missing (no
		 * stored value is empty: import refuses empty values) */
		sel->filters[sel->nfilters].cond = id;
		sel->filters[sel->nfilters].value = NULL;
		sel->values[sel->nfilters] = NULL;
		sel->where_text[sel->nfilters] = arg;
		sel->nfilters++;
		return 0;
	}
	if (id != PL_C_NONE &&
	    (pl_cond_info[id].type == PL_CT_INT || pl_cond_info[id].type == PL_CT_REAL)) {
		double d;
		if (pl_parse_num(eq + 1, 1, &d)) {
			if (spec)
				pl_cli_errorf(cmd,
				              "%s: the definition's 'where' entry '%s': '%s' must be a number "
				              "or inf",
				              spec, arg, name);
			else
				pl_cli_errorf(cmd, "bad --where '%s': '%s' must be a number or inf", arg, name);
			return PL_EXIT_USAGE;
		}
	}
	norm = id == PL_C_NONE ? strdup(eq + 1) : pl_normalize_value(id, eq + 1);
	if (!norm) {
		pl_cli_errorf(cmd, "out of memory");
		return PL_EXIT_USAGE;
	}
	sel->values[sel->nfilters] = norm;
	sel->filters[sel->nfilters].cond = id;
	sel->filters[sel->nfilters].value = norm;
	sel->where_text[sel->nfilters] = arg;
	sel->nfilters++;
	return 0;
}

/* Calls add(sel, cmd, name) for each name of a comma list "a,b,c" given to
 * option opt; an empty or over-long name is a usage error. Returns 0 or
 * PL_EXIT_USAGE (after printing). */
static int each_name(struct pl_selection *sel, const char *cmd, const char *opt,
                     const char *arg,
                     int (*add)(struct pl_selection *, const char *, const char *))
{
	for (const char *p = arg; *p;) {
		size_t len = strcspn(p, ",");
		char name[128];

		if (len == 0 || len >= sizeof(name)) {
			if (sel->spec)
				pl_cli_errorf(cmd, "%s: the definition's '%s' entry '%s' is bad", sel->spec,
				              strcmp(opt, "--metric") == 0 ? "metrics" : "allow_mismatch", arg);
			else
				pl_cli_errorf(cmd, "bad %s '%s'", opt, arg);
			return PL_EXIT_USAGE;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		if (add(sel, cmd, name))
			return PL_EXIT_USAGE;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int add_metric(struct pl_selection *sel, const char *cmd, const char *name)
{
	int id = pl_metric_lookup(name);
	size_t k;

	if (id == PL_M_NONE) {
		char dym[96];
		pl_did_you_mean(dym, sizeof(dym), pl_metric_suggest(name));
		if (sel->spec)
			pl_cli_errorf(cmd,
			              "%s: the definition's 'metrics' entry '%s' is not a metric%s (see "
			              "'perfledger %s --help')",
			              sel->spec, name, dym, cmd);
		else
			pl_cli_errorf(cmd, "unknown metric '%s'%s (see 'perfledger %s --help')", name, dym,
			              cmd);
		return PL_EXIT_USAGE;
	}
	for (k = 0; k < sel->opts.nmetrics; k++)
		if (sel->opts.metrics[k] == id)
			return 0; /* named twice: shown once */
	if (sel->opts.nmetrics < PL_METRIC_COUNT)
		sel->opts.metrics[sel->opts.nmetrics++] = id;
	return 0;
}

static int add_allow(struct pl_selection *sel, const char *cmd, const char *name)
{
	int id = pl_cond_lookup(name);

	if (id == PL_C_NONE && strcmp(name, "error_rate") == 0) {
		sel->opts.allow_errors = 1; /* the errors rule (not a condition) */
		return 0;
	}
	if (id == PL_C_NONE && strchr(name, '.') && name[0] != '.') {
		/* an extra condition a file recorded ("vllm-serving.label") */
		if (sel->opts.nallow_extra == PL_ALLOW_EXTRA_MAX) {
			pl_cli_errorf(cmd, "%s%stoo many extra conditions in %s (at most %d)",
			              sel->spec ? sel->spec : "", sel->spec ? ": " : "",
			              sel->spec ? "the definition's 'allow_mismatch'" : "--allow-mismatch",
			              PL_ALLOW_EXTRA_MAX);
			return PL_EXIT_USAGE;
		}
		snprintf(sel->allow_extra[sel->opts.nallow_extra], sizeof(sel->allow_extra[0]), "%s",
		         name); /* each_name() keeps names under 128 bytes */
		sel->opts.allow_extra[sel->opts.nallow_extra] = sel->allow_extra[sel->opts.nallow_extra];
		sel->opts.nallow_extra++;
		return 0;
	}
	if (id == PL_C_NONE) {
		char dym[96];
		pl_did_you_mean(dym, sizeof(dym), pl_cond_suggest(name));
		if (sel->spec)
			pl_cli_errorf(cmd, "%s: unknown condition '%s' in the definition's 'allow_mismatch'%s",
			              sel->spec, name, dym);
		else
			pl_cli_errorf(cmd, "unknown condition '%s' in --allow-mismatch%s", name, dym);
		return PL_EXIT_USAGE;
	}
	sel->opts.allow_mismatch[id] = 1;
	return 0;
}

int pl_sel_add_metric(struct pl_selection *sel, const char *cmd, const char *arg)
{
	return each_name(sel, cmd, "--metric", arg, add_metric);
}

int pl_sel_add_allow(struct pl_selection *sel, const char *cmd, const char *arg)
{
	return each_name(sel, cmd, "--allow-mismatch", arg, add_allow);
}

int pl_sel_opt_where(void *sel, const char *arg, const char *cmd)
{
	return pl_sel_add_where(sel, cmd, arg);
}

int pl_sel_opt_metric(void *sel, const char *arg, const char *cmd)
{
	return pl_sel_add_metric(sel, cmd, arg);
}

int pl_sel_opt_allow(void *sel, const char *arg, const char *cmd)
{
	return pl_sel_add_allow(sel, cmd, arg);
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

void pl_sel_release(struct pl_selection *sel)
{
	for (size_t i = 0; i < sel->nfilters; i++)
		free(sel->values[i]);
	sel->nfilters = 0;
}

/* Writes m worded in English and a newline to stderr; an allocation
 * failure writes "(out of memory)". */
static void put_msg_line(const char *indent, const struct pl_msg *m)
{
	char *t = m->oom ? NULL : pl_words_msg(m, PL_LANG_EN);

	fputs(indent, stderr);
	pl_cli_put_inert(stderr, t ? t : "(out of memory)");
	fputc('\n', stderr);
	free(t);
}

/* The refusal of cmp on stderr, worded through the word table
 * (render/refusal.h): the axis, then each differing field (at most
 * PL_CLI_LIST_MAX) with its values (at most PL_CLI_LIST_MAX, each cut to
 * PL_CLI_VALUE_MAX characters) and the runs holding each, then the hint.
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
	pl_msg_init(&m, PL_MSG_REFUSAL_HINT);
	put_msg_line("", &m);
	return PL_EXIT_REFUSED;
}

/* Results a default comparison shows beside the default metrics when any
 * selected run records them: speculative decoding's acceptance (a run that
 * speculates shows how well) and structured output's correct rate. */
static const int shown_if_recorded[] = {PL_M_SPEC_ACCEPTANCE_RATE, PL_M_SPEC_ACCEPTANCE_LENGTH,
                                        PL_M_CORRECT_RATE};

/* A default comparison (no --metric): opts gets the default metrics and
 * each of shown_if_recorded that some selected run (runs, else cols)
 * holds. */
static void with_recorded(struct pl_compare_opts *opts, const struct pl_run_list *runs,
                          const struct pl_run_columns *cols)
{
	size_t n;
	const int *d = pl_compare_default_metrics(&n);

	if (opts->nmetrics)
		return;
	memcpy(opts->metrics, d, n * sizeof(int));
	opts->nmetrics = n;
	for (size_t i = 0; i < sizeof(shown_if_recorded) / sizeof(shown_if_recorded[0]); i++) {
		int m = shown_if_recorded[i], held = 0;
		for (size_t r = 0; runs && r < runs->n && !held; r++)
			held = runs->v[r].has_metric[m];
		for (size_t r = 0; !runs && cols->metric[m] && r < cols->n && !held; r++)
			held = !isnan(cols->metric[m][r]);
		if (held && opts->nmetrics < sizeof(opts->metrics) / sizeof(opts->metrics[0]))
			opts->metrics[opts->nmetrics++] = m;
	}
}

/* The metrics a comparison under opts reads: those it shows and those its
 * rules read (the errors rule, the workload rule). */
static void compared_metrics(const struct pl_compare_opts *opts, unsigned char want[PL_METRIC_COUNT])
{
	size_t n = opts->nmetrics;
	const int *m = opts->metrics;

	memset(want, 0, PL_METRIC_COUNT);
	if (n == 0)
		m = pl_compare_default_metrics(&n);
	for (size_t i = 0; i < n; i++)
		want[m[i]] = 1;
	want[PL_M_ERROR_RATE] = want[PL_M_INPUT_TOKENS_MEAN] = want[PL_M_OUTPUT_TOKENS_MEAN] = 1;
	want[PL_M_REQUEST_THROUGHPUT] = 1; /* the workload rule's rate shortfall */
	want[PL_M_REQUESTS_COMPLETED] = 1; /* failed runs are left out */
	if (opts->nmetrics == 0) /* shown by default where recorded (with_recorded()) */
		for (size_t i = 0; i < sizeof(shown_if_recorded) / sizeof(shown_if_recorded[0]); i++)
			want[shown_if_recorded[i]] = 1;
	if (want[PL_M_GOODPUT]) /* goodput compares only under one SLO */
		want[PL_M_GOODPUT_SLO_TTFT] = want[PL_M_GOODPUT_SLO_TPOT] = want[PL_M_GOODPUT_SLO_E2EL] = 1;
}

/* The distinct stored values of one condition (closest_values()). */
struct values_seen {
	int cond;    /* enum pl_cond_id */
	char **v;    /* distinct texts, owned */
	size_t n, cap;
	int oom;
};

static int collect_value(void *ctx, const struct pl_run *run, struct pl_error *err)
{
	struct values_seen *vs = ctx;
	const struct pl_value *val = &run->cond[vs->cond];

	(void)err;
	if (!val->set || !val->text || vs->n >= 10000)
		return 0;
	for (size_t i = 0; i < vs->n; i++)
		if (strcmp(vs->v[i], val->text) == 0)
			return 0;
	if (PL_ALLOC_GROW(vs->v, vs->n + 1, vs->cap) || !(vs->v[vs->n] = strdup(val->text))) {
		vs->oom = 1;
		return 0;
	}
	vs->n++;
	return 0;
}

/* For a selection matching no run: the first --where FIELD=VALUE whose
 * value no run matching the other filters holds, and the (at most 3)
 * stored values of FIELD closest to it by edit distance (ties by text),
 * as "; no run has model=X (closest stored values: 'a', 'b', 'c')" into
 * out. "" when no single filter is to blame (each value is held by some
 * run matching the others, or the others match nothing) or on error. */
static void closest_values(struct pl_store *st, const struct pl_selection *sel, char *out,
                           size_t n)
{
	out[0] = '\0';
	for (size_t i = 0; i < sel->nfilters; i++) {
		const struct pl_filter *f = &sel->filters[i];
		struct pl_filter others[64];
		struct values_seen vs = {0};
		struct pl_error err;
		size_t no = 0, len;
		int held = 0;

		if (f->cond < 0 || !f->value)
			continue;
		for (size_t k = 0; k < sel->nfilters; k++)
			if (k != i)
				others[no++] = sel->filters[k];
		vs.cond = f->cond;
		pl_error_init(&err);
		if (pl_store_each_run(st, others, no, collect_value, &vs, &err) == 0 && !vs.oom) {
			for (size_t k = 0; k < vs.n; k++)
				held |= strcmp(vs.v[k], f->value) == 0;
			if (!held && vs.n > 0) { /* (none: another filter leaves nothing) */
				/* the closest three, by edit distance then text */
				len = (size_t)snprintf(out, n, "; no run has %s=%s", pl_cond_info[f->cond].name,
				                       f->value);
				for (size_t pick = 0; pick < 3 && pick < vs.n && len < n; pick++) {
					size_t best = pick, bd = pl_edit_distance(f->value, vs.v[pick]);
					for (size_t k = pick + 1; k < vs.n; k++) {
						size_t d = pl_edit_distance(f->value, vs.v[k]);
						if (d < bd || (d == bd && strcmp(vs.v[k], vs.v[best]) < 0)) {
							bd = d;
							best = k;
						}
					}
					{
						char *t = vs.v[pick];
						vs.v[pick] = vs.v[best];
						vs.v[best] = t;
					}
					len += (size_t)snprintf(out + len, n - len, "%s'%s'",
					                        pick ? ", " : " (closest stored values: ", vs.v[pick]);
				}
				if (len < n)
					snprintf(out + len, n - len, ")");
			}
		}
		for (size_t k = 0; k < vs.n; k++)
			free(vs.v[k]);
		free(vs.v);
		if (out[0])
			return;
	}
}

int pl_cli_build_comparison(struct pl_store *st, const struct pl_selection *sel, const char *cmd,
                            struct pl_run_list *runs, struct pl_comparison *cmp)
{
	struct pl_run_list own;
	struct pl_run_columns cols;
	struct pl_compare_opts opts;
	struct pl_error err;
	int rc;

	pl_run_list_init(&own);
	pl_run_columns_init(&cols);
	pl_error_init(&err);
	memset(cmp, 0, sizeof(*cmp));
	for (size_t k = 0; k < sel->opts.naxis && !runs; k++)
		if (pl_cond_per_run(sel->opts.axis[k]))
			runs = &own; /* columns hold one value per conditions row */
	if (runs) {
		rc = pl_store_query(st, sel->filters, sel->nfilters, runs, &err);
	} else {
		unsigned char want[PL_METRIC_COUNT];

		compared_metrics(&sel->opts, want);
		rc = pl_store_query_columns(st, sel->filters, sel->nfilters, want, &cols, &err);
	}
	if (rc) {
		pl_cli_print_error(&err);
		rc = PL_EXIT_USAGE;
		goto out;
	}
	opts = sel->opts;
	with_recorded(&opts, runs, &cols);
	rc = runs ? pl_compare_build(runs, &opts, cmp, &err)
	          : pl_compare_build_columns(&cols, &opts, cmp, &err);
	if (rc == PL_EEMPTY && (runs ? runs->n : cols.n) == 0) {
		/* nothing matched: which filter, and what is near */
		char near[600] = "";
		closest_values(st, sel, near, sizeof(near));
		pl_cli_errorf(cmd, "%s%s", err.message[0] ? err.message : "no runs match the selection",
		              near);
		rc = PL_EXIT_USAGE;
	} else {
		rc = pl_cli_comparison_outcome(cmd, cmp, rc, &err);
	}
out:
	pl_run_list_release(&own);
	pl_run_columns_release(&cols);
	return rc;
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

int pl_cli_opt_summary(void *value, const char *arg, const char *cmd)
{
	if (strcmp(arg, "json") == 0 || strcmp(arg, "text") == 0) {
		*(int *)value = arg[0] == 'j';
		return 0;
	}
	pl_cli_errorf(cmd, "bad --summary '%s': expected text or json", arg);
	return 1;
}
