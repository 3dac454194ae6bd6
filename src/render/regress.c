/*
 * regress.c — `check` verdicts and `history` series as text, Markdown and
 * JSON (see regress.h).
 *
 * Text and Markdown tables go through a small grid of cells, each marked as
 * input text (sanitised / escaped) or ours (names, numbers). JSON is written
 * directly. Input text here is condition values (shared conditions, axis
 * values, --by values) and the reasons of accepted steps.
 */
#include "render/regress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/gate.h"
#include "core/msg.h"
#include "render/render_impl.h"
#include "render/words.h"

/* ------------------------------------------------------------- pieces */

static int finish(FILE *out, int rc, struct pl_error *err)
{
	if (rc == PL_ENOMEM)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc)
		return rc;
	if (ferror(out))
		return pl_error_set(err, PL_EIO, "cannot write the table");
	return 0;
}

/* "shared: a=b, ..." (all conditions every run shares, off the axis and
 * the fields travelling with it). */
static int put_shared(FILE *out, const struct pl_comparison *cmp, enum pl_table_format fmt)
{
	int rc = pl_render_write_shared(out, cmp, fmt, 1);

	if (!rc)
		fputs(fmt == PL_FMT_MARKDOWN ? "\n\n" : "\n", out);
	return rc;
}

/* 1 if caveat b repeats a: equal (pl_msg_equal), or, with two arguments or
 * more, the same but for the first (the point or run it names) and, for a
 * reference-only caveat, its row's index ({5}: never printed, read by the
 * bundle's links). */
static int caveat_repeats(const struct pl_msg *a, const struct pl_msg *b)
{
	struct pl_msg t;

	if (pl_msg_equal(a, b))
		return 1;
	if (a->code != b->code || a->nargs < 2 || a->nargs != b->nargs)
		return 0;
	t = *a; /* a shallow view: never released */
	t.args[0] = b->args[0];
	if (a->code == PL_MSG_CAV_REFERENCE_ONLY && a->nargs >= 5)
		t.args[4] = b->args[4];
	return pl_msg_equal(&t, b);
}

/* How many rows a collapsed caveat line names besides its own. */
#define CAVEAT_NAMES_MAX 3

/* The words after caveat i that repeats count times: "(and likewise for
 * 1.1)" naming up to CAVEAT_NAMES_MAX other rows ({1} of the repeats, a
 * label), "(and likewise for A, B, C and 22 more)", or "(and 3 more like
 * it)" when the repeats name no other row. A new string, NULL on out of
 * memory. */
static char *repeats_words(const struct pl_msgs *l, size_t i, size_t count)
{
	const struct pl_msg *c = &l->v[i];
	const char *names[CAVEAT_NAMES_MAX];
	size_t nn = 0;
	struct pl_msg m;
	char *t;

	for (size_t j = i + 1; j < l->n && nn < CAVEAT_NAMES_MAX && c->nargs; j++) {
		const struct pl_msg_arg *a = &l->v[j].args[0];
		int dup = a->kind != PL_MA_TEXT || !a->s || !c->args[0].s ||
		          c->args[0].kind != PL_MA_TEXT || strcmp(a->s, c->args[0].s) == 0 ||
		          !caveat_repeats(c, &l->v[j]);

		for (size_t k = 0; k < nn && !dup; k++)
			dup = strcmp(names[k], a->s) == 0;
		if (!dup)
			names[nn++] = a->s;
	}
	if (nn == 0) {
		pl_msg_init(&m, PL_MSG_CAVEAT_REPEATED);
		pl_msg_int(&m, (long long)count);
	} else {
		pl_msg_init(&m, nn < count ? PL_MSG_CAVEAT_LIKEWISE_MORE : PL_MSG_CAVEAT_LIKEWISE);
		pl_msg_list(&m, names, nn);
		if (nn < count)
			pl_msg_int(&m, (long long)(count - nn));
	}
	t = m.oom ? NULL : pl_words_msg(&m, PL_LANG_EN);
	pl_msg_release(&m);
	return t;
}

int pl_render_put_caveats(FILE *out, const struct pl_msgs *caveats, enum pl_table_format fmt)
{
	int rc;

	for (size_t i = 0; i < caveats->n; i++) {
		size_t more = 0;
		int seen = 0;
		char *t;
		for (size_t j = 0; j < i && !seen; j++)
			seen = caveat_repeats(&caveats->v[j], &caveats->v[i]);
		if (seen)
			continue;
		for (size_t j = i + 1; j < caveats->n; j++)
			more += caveat_repeats(&caveats->v[i], &caveats->v[j]);
		if (!(t = pl_words_msg(&caveats->v[i], PL_LANG_EN)))
			return PL_ENOMEM;
		fputs(fmt == PL_FMT_MARKDOWN ? "- caveat: " : "caveat: ", out);
		rc = pl_render_write_input(out, t, fmt);
		free(t);
		if (rc)
			return rc;
		if (more) {
			if (!(t = repeats_words(caveats, i, more)))
				return PL_ENOMEM;
			fputc(' ', out);
			rc = pl_render_write_input(out, t, fmt); /* it holds the rows' labels */
			free(t);
			if (rc)
				return rc;
		}
		fputc('\n', out);
	}
	return 0;
}

static const char *direction_name(enum pl_direction d)
{
	return d == PL_LOWER_IS_BETTER ? "lower is better"
	       : d == PL_HIGHER_IS_BETTER ? "higher is better"
	                                  : "no direction";
}

static const char *direction_key(enum pl_direction d)
{
	return d == PL_LOWER_IS_BETTER ? "lower_is_better"
	       : d == PL_HIGHER_IS_BETTER ? "higher_is_better"
	                                  : "none";
}

/* "0.06213 [0.06151, 0.06270]" or "0.06213 [n < 6]". */
static char *fmt_summary(char *buf, size_t n, const struct pl_sample_summary *s)
{
	char a[32], b[32], c[32];

	if (s->n == 0) {
		snprintf(buf, n, "-");
		return buf;
	}
	pl_fmt_sig4(a, sizeof(a), s->median);
	if (s->ci_valid)
		snprintf(buf, n, "%s [%s, %s]", a, pl_fmt_sig4(b, sizeof(b), s->ci_low),
		         pl_fmt_sig4(c, sizeof(c), s->ci_high));
	else
		snprintf(buf, n, "%s [n < 6]", a);
	return buf;
}

/* A p-value for people: 2 significant digits. */
static char *fmt_p(char *buf, size_t n, double p)
{
	return pl_fmt_num(buf, n, pl_round_sig(p, 2));
}

static char *fmt_pct(char *buf, size_t n, double fraction)
{
	return pl_fmt_num(buf, n, pl_round_sig(100.0 * fraction, 12));
}

/* Writes message m worded in English; 0 or PL_ENOMEM (m released). */
static int say_msg(FILE *out, struct pl_msg *m, enum pl_table_format fmt)
{
	char *t = m->oom ? NULL : pl_words_msg(m, PL_LANG_EN);
	int rc;

	pl_msg_release(m);
	if (!t)
		return PL_ENOMEM;
	rc = pl_render_write_input(out, t, fmt);
	free(t);
	return rc;
}

/* The latest point as the gate judged it (core/history_gate.h): one line. */
static int gate_latest(FILE *out, const struct pl_history *h, const char *bullet,
                       enum pl_table_format fmt)
{
	const struct pl_metric_info *mi = &pl_metric_info[h->metric];
	char a[48], b[48], v[32], ch[64], p[32];
	struct pl_msg m;
	int rc;

	snprintf(a, sizeof(a), "%s %s", pl_fmt_sig4(v, sizeof(v), h->latest.new_median),
	         pl_unit_label(mi->unit));
	snprintf(b, sizeof(b), "%s %s", pl_fmt_sig4(v, sizeof(v), h->latest.old_center),
	         pl_unit_label(mi->unit));
	pl_msg_init(&m, PL_MSG_HISTORY_GATE_LATEST);
	pl_msg_int(&m, (long long)h->latest_point);
	pl_msg_text(&m, a);
	pl_msg_text(&m, b);
	pl_msg_int(&m, (long long)h->latest.n_old);
	pl_msg_text(&m, pl_fmt_change(ch, sizeof(ch), h->latest.rel_change, mi->direction));
	pl_msg_text(&m, fmt_p(p, sizeof(p), h->latest.p_value));
	pl_msg_int(&m, (long long)h->gate_checks);
	pl_msg_text(&m, pl_verdict_name(h->latest_verdict));
	fputs(bullet, out);
	if ((rc = say_msg(out, &m, fmt)))
		return rc;
	if (h->gate_family_n) {
		pl_msg_init(&m, PL_MSG_GATE_BY_FAMILY);
		pl_msg_int(&m, (long long)h->gate_family_n);
		pl_msg_num(&m, h->gate_family_z);
		fputs("; ", out);
		if ((rc = say_msg(out, &m, fmt)))
			return rc;
	}
	if (h->gate_open) {
		pl_msg_init(&m, PL_MSG_HISTORY_GATE_OPEN);
		pl_msg_int(&m, (long long)h->gate_open_at);
		fputs("; ", out);
		if ((rc = say_msg(out, &m, fmt)))
			return rc;
	}
	if (h->latest_accepted) {
		fprintf(out, " at run %lld: ", h->latest_accepted->run_id);
		if ((rc = pl_render_write_input(out, h->latest_accepted->reason, fmt)))
			return rc;
	}
	fputc('\n', out);
	return 0;
}

/* -------------------------------------------------------------- JSON bits */

static void jids(FILE *out, const long long *ids, size_t n)
{
	fputc('[', out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%lld", i ? ", " : "", ids[i]);
	fputc(']', out);
}

static void jshared(FILE *out, const struct pl_comparison *cmp)
{
	int first = 1;

	fputc('{', out);
	for (int id = 0; id < PL_COND_COUNT; id++) {
		const struct pl_value *v = &cmp->shared[id];
		if (!v->set || cmp->varies[id])
			continue;
		pl_json_write_key(out, &first, pl_cond_info[id].name);
		switch (pl_cond_info[id].type) {
		case PL_CT_INT:
		case PL_CT_REAL:
			pl_json_write_num(out, v->num);
			break;
		case PL_CT_BOOL:
			fputs(v->num != 0 ? "true" : "false", out);
			break;
		default:
			pl_json_write_string(out, v->text);
			break;
		}
	}
	for (size_t i = 0; i < cmp->nshared_extra; i++) {
		pl_json_write_key(out, &first, cmp->shared_extra[i].name); /* escaped */
		pl_json_write_string(out, cmp->shared_extra[i].value);
	}
	fputc('}', out);
}

static void jcaveats(FILE *out, const struct pl_comparison *cmp)
{
	fputc('[', out);
	for (size_t i = 0; i < cmp->caveats.n; i++) {
		char *t = pl_words_msg(&cmp->caveats.v[i], PL_LANG_EN);
		if (i)
			fputs(", ", out);
		pl_json_write_string(out, t ? t : "");
		free(t);
	}
	fputc(']', out);
}

/* The SUMMARY members (without braces). */
static void jsummary_members(FILE *out, int *first, const struct pl_sample_summary *s)
{
	pl_json_write_key(out, first, "n");
	fprintf(out, "%zu", s->n);
	if (s->n == 0)
		return;
	pl_json_write_key(out, first, "median");
	pl_json_write_num(out, s->median);
	pl_json_write_key(out, first, "min");
	pl_json_write_num(out, s->min);
	pl_json_write_key(out, first, "max");
	pl_json_write_num(out, s->max);
	pl_json_write_key(out, first, "ci_low");
	pl_json_write_num(out, s->ci_valid ? s->ci_low : NAN);
	pl_json_write_key(out, first, "ci_high");
	pl_json_write_num(out, s->ci_valid ? s->ci_high : NAN);
	pl_json_write_key(out, first, "ci_level");
	pl_json_write_num(out, s->ci_level);
	pl_json_write_key(out, first, "ci_valid");
	fputs(s->ci_valid ? "true" : "false", out);
}

static void jaccepted(FILE *out, const struct pl_accepted_step *a)
{
	int first = 1;

	if (!a) {
		fputs("null", out);
		return;
	}
	fputc('{', out);
	pl_json_write_key(out, &first, "run_id");
	fprintf(out, "%lld", a->run_id);
	pl_json_write_key(out, &first, "reason");
	pl_json_write_string(out, a->reason);
	pl_json_write_key(out, &first, "accepted_at");
	pl_json_write_string(out, a->accepted_at);
	fputc('}', out);
}

/* ------------------------------------------------------------------ check */

int pl_check_exit_status(const struct pl_check *chk)
{
	if (chk->nregressions || chk->n_failed)
		return PL_EXIT_REGRESSION;
	if (chk->ndecidable == 0)
		return PL_EXIT_TOO_FEW;
	return PL_EXIT_OK;
}

/* Why metric cm cannot be decided, into buf. */
static void why_too_few(char *buf, size_t n, const struct pl_check *chk,
                        const struct pl_check_metric *cm)
{
	char p[32], a[32];

	if (cm->base.n == 0 || cm->cand.n == 0)
		snprintf(buf, n, "no values on the %s side",
		         cm->base.n == 0 ? "baseline" : "candidate");
	else if (chk->series && chk->baseline_kind == PL_BASELINE_WINDOW)
		snprintf(buf, n, "%zu baseline point%s: the prediction interval needs %d", cm->base.n,
		         cm->base.n == 1 ? "" : "s", PL_STATS_PREDICTION_MIN);
	else if (cm->base.n < PL_STATS_PREDICTION_MIN)
		snprintf(buf, n,
		         "n = %zu and %zu: the smallest attainable p is %s > alpha %s, and the "
		         "prediction interval needs %d baseline values",
		         cm->base.n, cm->cand.n, fmt_p(p, sizeof(p), cm->min_p),
		         pl_fmt_num(a, sizeof(a), chk->alpha), PL_STATS_PREDICTION_MIN);
	else
		snprintf(buf, n, "n = %zu and %zu: the smallest attainable p is %s > alpha %s",
		         cm->base.n, cm->cand.n, fmt_p(p, sizeof(p), cm->min_p),
		         pl_fmt_num(a, sizeof(a), chk->alpha));
}

static int check_json(FILE *out, const struct pl_check *chk)
{
	int first = 1;

	fputc('{', out);
	pl_json_write_key(out, &first, "axis");
	pl_json_write_string(out, pl_cond_info[chk->axis].name);
	if (chk->series) {
		pl_json_write_key(out, &first, "group_by");
		pl_json_write_string(out, pl_group_name(chk->group));
		pl_json_write_key(out, &first, "baseline_kind");
		pl_json_write_string(out, chk->baseline_kind == PL_BASELINE_WINDOW     ? "window"
		                          : chk->baseline_kind == PL_BASELINE_PREVIOUS ? "previous"
		                                                                       : "values");
		if (chk->baseline_kind == PL_BASELINE_WINDOW) {
			pl_json_write_key(out, &first, "window");
			fprintf(out, "%zu", chk->window);
		}
	}
	for (int side = 0; side < 2; side++) {
		int f2 = 1;
		pl_json_write_key(out, &first, side ? "candidate" : "baseline");
		fputc('{', out);
		pl_json_write_key(out, &f2, "value");
		pl_json_write_string(out, side ? chk->candidate : chk->baseline);
		pl_json_write_key(out, &f2, "n");
		fprintf(out, "%zu", side ? chk->n_cand : chk->n_base);
		pl_json_write_key(out, &f2, "run_ids");
		jids(out, side ? chk->cand_ids : chk->base_ids, side ? chk->n_cand : chk->n_base);
		fputc('}', out);
	}
	pl_json_write_key(out, &first, "alpha");
	pl_json_write_num(out, chk->alpha);
	pl_json_write_key(out, &first, "threshold_pct");
	pl_json_write_num(out, pl_round_sig(100.0 * chk->threshold, 12));
	pl_json_write_key(out, &first, "shared_conditions");
	jshared(out, &chk->cmp);
	pl_json_write_key(out, &first, "metrics");
	fputc('[', out);
	for (size_t i = 0; i < chk->nm; i++) {
		const struct pl_check_metric *cm = &chk->m[i];
		const struct pl_metric_info *mi = &pl_metric_info[cm->metric];
		int f2 = 1, f3;
		fputs(i ? ", {" : "{", out);
		pl_json_write_key(out, &f2, "metric");
		pl_json_write_string(out, mi->name);
		pl_json_write_key(out, &f2, "unit");
		pl_json_write_string(out, pl_unit_label(mi->unit));
		pl_json_write_key(out, &f2, "direction");
		pl_json_write_string(out, direction_key(mi->direction));
		pl_json_write_key(out, &f2, "verdict");
		pl_json_write_string(out, pl_verdict_name(cm->verdict));
		pl_json_write_key(out, &f2, "baseline");
		f3 = 1;
		fputc('{', out);
		jsummary_members(out, &f3, &cm->base);
		fputc('}', out);
		pl_json_write_key(out, &f2, "candidate");
		f3 = 1;
		fputc('{', out);
		jsummary_members(out, &f3, &cm->cand);
		fputc('}', out);
		if (cm->base.n && cm->cand.n) {
			pl_json_write_key(out, &f2, "change_pct");
			pl_json_write_num(out, 100.0 * cm->change.rel_change);
			pl_json_write_key(out, &f2, "p_value");
			pl_json_write_num(out, cm->change.p_value);
		}
		pl_json_write_key(out, &f2, "test");
		pl_json_write_string(out, cm->change.method == PL_TEST_PREDICTION ? "prediction"
		                          : cm->change.method == PL_TEST_WINDOW   ? "robust-window"
		                                                                  : "mann-whitney");
		if (cm->change.method != PL_TEST_MANN_WHITNEY && cm->verdict != PL_V_TOO_FEW) {
			pl_json_write_key(out, &f2, "bound_low");
			pl_json_write_num(out, cm->change.bound_low);
			pl_json_write_key(out, &f2, "bound_high");
			pl_json_write_num(out, cm->change.bound_high);
		}
		if (chk->series) {
			pl_json_write_key(out, &f2, "baseline_points");
			fprintf(out, "%zu", cm->base_points);
		}
		pl_json_write_key(out, &f2, "min_p");
		pl_json_write_num(out, cm->min_p);
		pl_json_write_key(out, &f2, "decidable");
		fputs(cm->verdict != PL_V_TOO_FEW ? "true" : "false", out);
		pl_json_write_key(out, &f2, "accepted");
		jaccepted(out, cm->accepted);
		fputc('}', out);
	}
	fputc(']', out);
	pl_json_write_key(out, &first, "regressions");
	fprintf(out, "%zu", chk->nregressions);
	pl_json_write_key(out, &first, "accepted");
	fprintf(out, "%zu", chk->naccepted);
	pl_json_write_key(out, &first, "improvements");
	fprintf(out, "%zu", chk->nimprovements);
	pl_json_write_key(out, &first, "decidable");
	fprintf(out, "%zu", chk->ndecidable);
	if (chk->n_failed || chk->n_base_failed) { /* only when there are some */
		pl_json_write_key(out, &first, "failed_candidate_runs");
		fputc('[', out);
		for (size_t i = 0; i < chk->n_failed; i++)
			fprintf(out, "%s%lld", i ? ", " : "", chk->failed_ids[i]);
		fputc(']', out);
		pl_json_write_key(out, &first, "failed_baseline_runs");
		fprintf(out, "%zu", chk->n_base_failed);
	}
	pl_json_write_key(out, &first, "exit_code");
	fprintf(out, "%d", pl_check_exit_status(chk));
	pl_json_write_key(out, &first, "caveats");
	jcaveats(out, &chk->cmp);
	fputs("}\n", out);
	return 0;
}

/* One line per metric of the given verdict: "regression: ttft_p50 +10.0%
 * worse (0.06213 -> 0.06834 s), p = 7.4e-07, n = 12 and 12". */
static int check_lines(FILE *out, const struct pl_check *chk, enum pl_verdict v,
                       enum pl_table_format fmt)
{
	const char *bullet = fmt == PL_FMT_MARKDOWN ? "- " : "";
	int rc;

	for (size_t i = 0; i < chk->nm; i++) {
		const struct pl_check_metric *cm = &chk->m[i];
		const struct pl_metric_info *mi = &pl_metric_info[cm->metric];
		char ch[64], a[32], b[32], p[32], why[160];

		if (cm->verdict != v)
			continue;
		if (v == PL_V_TOO_FEW) {
			why_too_few(why, sizeof(why), chk, cm);
			fprintf(out, "%stoo few samples: %s: %s\n", bullet, mi->name, why);
			continue;
		}
		fprintf(out, "%s%s: %s %s (%s -> %s %s), p = %s, n = %zu and %zu", bullet,
		        pl_verdict_name(v), mi->name,
		        pl_fmt_change(ch, sizeof(ch), cm->change.rel_change, mi->direction),
		        pl_fmt_sig4(a, sizeof(a), cm->base.median),
		        pl_fmt_sig4(b, sizeof(b), cm->cand.median), pl_unit_label(mi->unit),
		        fmt_p(p, sizeof(p), cm->change.p_value), cm->base.n, cm->cand.n);
		if (cm->accepted) {
			fprintf(out, "; step accepted at run %lld: ", cm->accepted->run_id);
			if ((rc = pl_render_write_input(out, cm->accepted->reason, fmt)))
				return rc;
		}
		fputc('\n', out);
	}
	return 0;
}

/* The failed runs: each failed candidate run fails the gate ("failed:
 * candidate run 12 ..."); failed baseline runs are only left out. */
static int failed_lines(FILE *out, const struct pl_check *chk, enum pl_table_format fmt)
{
	const char *bullet = fmt == PL_FMT_MARKDOWN ? "- " : "";

	for (size_t i = 0; i < chk->n_failed; i++)
		fprintf(out,
		        "%sfailed: candidate run %lld completed no request (or every request "
		        "failed): the gate fails\n",
		        bullet, chk->failed_ids[i]);
	if (chk->n_base_failed)
		fprintf(out, "%snote: %zu failed baseline run%s left out (never pooled)\n", bullet,
		        chk->n_base_failed, chk->n_base_failed == 1 ? "" : "s");
	return ferror(out) ? PL_EIO : 0;
}

/* The check's head: the title line (what against what, with run counts),
 * the shared conditions and the line that says which test decides. */
static int check_head(FILE *out, const struct pl_check *chk, enum pl_table_format fmt,
                      const char *thr)
{
	char al[32];
	int rc;

	pl_fmt_num(al, sizeof(al), chk->alpha);
	fprintf(out, "%scheck: %s ", fmt == PL_FMT_MARKDOWN ? "## " : "",
	        chk->series ? pl_group_name(chk->group) : pl_cond_info[chk->axis].name);
	if ((rc = pl_render_write_input(out, chk->baseline, fmt)))
		return rc;
	fprintf(out, " (baseline, %zu run%s) vs ", chk->n_base, chk->n_base == 1 ? "" : "s");
	if ((rc = pl_render_write_input(out, chk->candidate, fmt)))
		return rc;
	if (chk->n_failed)
		fprintf(out, " (candidate, %zu run%s and %zu failed)\n", chk->n_cand,
		        chk->n_cand == 1 ? "" : "s", chk->n_failed);
	else
		fprintf(out, " (candidate, %zu run%s)\n", chk->n_cand, chk->n_cand == 1 ? "" : "s");
	if (fmt == PL_FMT_MARKDOWN)
		fputc('\n', out);
	if ((rc = put_shared(out, &chk->cmp, fmt)))
		return rc;
	if (chk->series && chk->baseline_kind == PL_BASELINE_WINDOW)
		fprintf(out,
		        "test: the candidate point's median against the two-sided %s prediction "
		        "interval of the last %zu point medians (their median +- t 1.4826 MAD, "
		        "robust to outlier nights); a regression is outside it and worse by "
		        "more than %s%%\n\n",
		        pl_fmt_num(al, sizeof(al), 1.0 - chk->alpha), chk->window, thr);
	else {
		int pred = 0;
		for (size_t i = 0; i < chk->nm; i++)
			pred |= chk->m[i].change.method != PL_TEST_MANN_WHITNEY;
		fprintf(out,
		        "test: two-sided Mann-Whitney U at alpha %s%s; a regression is significant and "
		        "worse by more than %s%%; over runs: a request-level interval never turns one "
		        "run a side into a decision\n\n",
		        al,
		        pred ? " (where it cannot decide with these n: the candidate's median against "
		               "the prediction interval of the baseline runs)"
		             : "",
		        thr);
	}
	return 0;
}

/* The check when every candidate run failed: nothing was tested, the
 * failed runs are listed and the result is exit 1. */
static int check_all_failed(FILE *out, const struct pl_check *chk, enum pl_table_format fmt)
{
	int rc;

	fprintf(out, "%sno metric tested: every candidate run failed\n\n",
	        fmt == PL_FMT_MARKDOWN ? "- " : "");
	if ((rc = failed_lines(out, chk, fmt)))
		return rc;
	if (fmt == PL_FMT_MARKDOWN)
		fputc('\n', out);
	fprintf(out, "result: %zu failed candidate run%s (exit 1)\n", chk->n_failed,
	        chk->n_failed == 1 ? "" : "s");
	return 0;
}

/* The table of tested metrics: one row per metric, its n, both summaries,
 * the change, p and the verdict; followed by a blank line. */
static int check_table(FILE *out, const struct pl_check *chk, enum pl_table_format fmt)
{
	struct pl_grid g = {0};
	int rc;

	g.ncols = 7;
	pl_grid_put(&g, "metric", 0, 0);
	pl_grid_put(&g, "n", 0, 1);
	pl_grid_put(&g, "baseline [95% CI]", 0, 0);
	pl_grid_put(&g, "candidate [95% CI]", 0, 0);
	pl_grid_put(&g, "change", 0, 1);
	pl_grid_put(&g, "p", 0, 1);
	pl_grid_put(&g, "verdict", 0, 0);
	for (size_t i = 0; i < chk->nm; i++) {
		const struct pl_check_metric *cm = &chk->m[i];
		const struct pl_metric_info *mi = &pl_metric_info[cm->metric];
		char buf[96];
		snprintf(buf, sizeof(buf), "%s (%s)", mi->name, pl_unit_label(mi->unit));
		pl_grid_put(&g, buf, 0, 0);
		snprintf(buf, sizeof(buf), "%zu/%zu", cm->base.n, cm->cand.n);
		pl_grid_put(&g, buf, 0, 1);
		pl_grid_put(&g, fmt_summary(buf, sizeof(buf), &cm->base), 0, 0);
		pl_grid_put(&g, fmt_summary(buf, sizeof(buf), &cm->cand), 0, 0);
		if (cm->base.n && cm->cand.n) {
			pl_grid_put(&g, pl_fmt_change(buf, sizeof(buf), cm->change.rel_change, mi->direction), 0, 1);
			pl_grid_put(&g, fmt_p(buf, sizeof(buf), cm->change.p_value), 0, 1);
		} else {
			pl_grid_put(&g, "-", 0, 1);
			pl_grid_put(&g, "-", 0, 1);
		}
		pl_grid_put(&g, pl_verdict_name(cm->verdict), 0, 0);
	}
	rc = pl_grid_write(out, &g, fmt);
	pl_grid_release(&g);
	if (rc)
		return rc;
	fputc('\n', out);
	return 0;
}

/* The check's last line: "result: ..." with the exit status it stands for. */
static void check_result(FILE *out, const struct pl_check *chk, const char *thr)
{
	int status = pl_check_exit_status(chk);

	if (status == 1 && chk->n_failed && !chk->nregressions)
		fprintf(out, "result: %zu failed candidate run%s (exit 1)\n", chk->n_failed,
		        chk->n_failed == 1 ? "" : "s");
	else if (status == 1 && chk->n_failed)
		fprintf(out, "result: %zu regression%s beyond %s%% and %zu failed candidate run%s "
		             "(exit 1)\n", chk->nregressions, chk->nregressions == 1 ? "" : "s", thr,
		        chk->n_failed, chk->n_failed == 1 ? "" : "s");
	else if (status == 1)
		fprintf(out, "result: %zu regression%s beyond %s%% (exit 1)\n", chk->nregressions,
		        chk->nregressions == 1 ? "" : "s", thr);
	else if (status == 5)
		fputs("result: too few samples to decide: no metric is decidable (exit 5)\n", out);
	else if (chk->naccepted)
		fprintf(out, "result: no significant regression beyond %s%% that is not accepted "
		             "(%zu accepted) (exit 0)\n", thr, chk->naccepted);
	else
		fprintf(out, "result: no significant regression beyond %s%% (exit 0)\n", thr);
}

int pl_render_check(FILE *out, const struct pl_check *chk, enum pl_table_format fmt,
                    struct pl_error *err)
{
	char thr[32];
	int rc;

	if (fmt == PL_FMT_CSV)
		return pl_error_set(err, PL_EUSAGE, "check writes text, markdown or json");
	if (fmt == PL_FMT_JSON)
		return finish(out, check_json(out, chk), err);

	fmt_pct(thr, sizeof(thr), chk->threshold);
	if ((rc = check_head(out, chk, fmt, thr)))
		return finish(out, rc, err);
	if (chk->nm == 0 && chk->n_failed) /* every candidate run failed: nothing was tested */
		return finish(out, check_all_failed(out, chk, fmt), err);
	if ((rc = check_table(out, chk, fmt)))
		return finish(out, rc, err);
	if ((rc = check_lines(out, chk, PL_V_REGRESSION, fmt)) ||
	    (rc = check_lines(out, chk, PL_V_ACCEPTED, fmt)) ||
	    (rc = check_lines(out, chk, PL_V_IMPROVEMENT, fmt)) ||
	    (rc = check_lines(out, chk, PL_V_TOO_FEW, fmt)) ||
	    (rc = pl_render_put_caveats(out, &chk->cmp.caveats, fmt)))
		return finish(out, rc, err);
	if ((rc = failed_lines(out, chk, fmt)))
		return finish(out, rc, err);
	if (fmt == PL_FMT_MARKDOWN)
		fputc('\n', out);
	check_result(out, chk, thr);
	return finish(out, 0, err);
}

/* ---------------------------------------------------------------- history */

/* history JSON "points": one object per point, its runs, summary, level
 * and (where they apply) its failed runs and time. */
static void jhistory_points(FILE *out, const struct pl_history *h)
{
	fputc('[', out);
	for (size_t i = 0; i < h->npoints; i++) {
		const struct pl_history_point *p = &h->points[i];
		int f2 = 1;
		fputs(i ? ", {" : "{", out);
		pl_json_write_key(out, &f2, "index");
		fprintf(out, "%zu", i);
		pl_json_write_key(out, &f2, "value");
		pl_json_write_string(out, p->value.text);
		pl_json_write_key(out, &f2, "run_ids");
		jids(out, p->run_ids, p->n);
		jsummary_members(out, &f2, &p->s);
		pl_json_write_key(out, &f2, "level");
		pl_json_write_num(out, p->level);
		if (p->nfailed) { /* only where runs failed: other output unchanged */
			pl_json_write_key(out, &f2, "failed_run_ids");
			jids(out, p->failed_ids, p->nfailed);
		}
		if (!isnan(p->t)) {
			pl_json_write_key(out, &f2, "time");
			pl_json_write_num(out, p->t);
		}
		fputc('}', out);
	}
	fputc(']', out);
}

/* history JSON "step_detection" and "steps": how steps were searched, and
 * one object per step found. */
static void jhistory_steps(FILE *out, int *first, const struct pl_history *h)
{
	pl_json_write_key(out, first, "step_detection");
	{
		int f2 = 1;
		fputc('{', out);
		pl_json_write_key(out, &f2, "ran");
		fputs(h->detected ? "true" : "false", out);
		pl_json_write_key(out, &f2, "method");
		pl_json_write_string(out, "l1-potts-pelt over point medians");
		pl_json_write_key(out, &f2, "penalty_scale");
		pl_json_write_num(out, PL_STATS_STEP_PENALTY_DEFAULT);
		pl_json_write_key(out, &f2, "sigma");
		pl_json_write_num(out, h->sigma);
		fputc('}', out);
	}
	pl_json_write_key(out, first, "steps");
	fputc('[', out);
	for (size_t k = 0; k < h->nsteps; k++) {
		const struct pl_history_step *s = &h->steps[k];
		int f2 = 1;
		fputs(k ? ", {" : "{", out);
		pl_json_write_key(out, &f2, "index");
		fprintf(out, "%zu", s->index);
		pl_json_write_key(out, &f2, "value");
		pl_json_write_string(out, h->points[s->index].value.text);
		pl_json_write_key(out, &f2, "before");
		pl_json_write_num(out, s->before);
		pl_json_write_key(out, &f2, "after");
		pl_json_write_num(out, s->after);
		pl_json_write_key(out, &f2, "change_pct");
		pl_json_write_num(out, 100.0 * s->rel_change);
		pl_json_write_key(out, &f2, "direction");
		pl_json_write_string(out, s->worse ? "worse" : s->better ? "better" : "none");
		pl_json_write_key(out, &f2, "first_run");
		fprintf(out, "%lld", s->first_run);
		pl_json_write_key(out, &f2, "accepted");
		jaccepted(out, s->accepted);
		fputc('}', out);
	}
	fputc(']', out);
}

/* history JSON "latest": the latest point's verdict and, where it was
 * judged, the window it was judged against. */
static void jhistory_latest(FILE *out, const struct pl_history *h)
{
	int f2 = 1;

	fputc('{', out);
	pl_json_write_key(out, &f2, "verdict");
	pl_json_write_string(out, pl_verdict_name(h->latest_verdict));
	if (h->latest_verdict != PL_V_TOO_FEW) {
		pl_json_write_key(out, &f2, "point");
		fprintf(out, "%zu", h->latest_point);
		pl_json_write_key(out, &f2, "window");
		fprintf(out, "%zu", h->latest.n_old);
		pl_json_write_key(out, &f2, "median");
		pl_json_write_num(out, h->latest.new_median);
		pl_json_write_key(out, &f2, "window_mean");
		pl_json_write_num(out, h->latest.old_mean);
		pl_json_write_key(out, &f2, "window_sd");
		pl_json_write_num(out, h->latest.old_sd);
		pl_json_write_key(out, &f2, "window_median");
		pl_json_write_num(out, h->latest.old_center);
		pl_json_write_key(out, &f2, "window_sigma");
		pl_json_write_num(out, h->latest.old_scale);
		pl_json_write_key(out, &f2, "bound_low");
		pl_json_write_num(out, h->latest.bound_low);
		pl_json_write_key(out, &f2, "bound_high");
		pl_json_write_num(out, h->latest.bound_high);
		pl_json_write_key(out, &f2, "change_pct");
		pl_json_write_num(out, 100.0 * h->latest.rel_change);
		pl_json_write_key(out, &f2, "p_value");
		pl_json_write_num(out, h->latest.p_value);
	}
	pl_json_write_key(out, &f2, "accepted");
	jaccepted(out, h->latest_accepted);
	if (h->latest_failed) { /* the last point's failed runs: they fail the gate */
		pl_json_write_key(out, &f2, "last_point_failed_run_ids");
		jids(out, h->points[h->npoints - 1].failed_ids, h->points[h->npoints - 1].nfailed);
	}
	fputc('}', out);
}

static int history_json(FILE *out, const struct pl_history *h)
{
	const struct pl_metric_info *mi = &pl_metric_info[h->metric];
	int first = 1;

	fputc('{', out);
	pl_json_write_key(out, &first, "metric");
	pl_json_write_string(out, mi->name);
	pl_json_write_key(out, &first, "unit");
	pl_json_write_string(out, pl_unit_label(mi->unit));
	pl_json_write_key(out, &first, "direction");
	pl_json_write_string(out, direction_key(mi->direction));
	pl_json_write_key(out, &first, "by");
	pl_json_write_string(out, pl_cond_info[h->by].name);
	pl_json_write_key(out, &first, "group_by");
	pl_json_write_string(out, pl_group_name(h->group));
	pl_json_write_key(out, &first, "time_axis");
	fputs(h->time_axis ? "true" : "false", out);
	pl_json_write_key(out, &first, "shared_conditions");
	jshared(out, &h->cmp);
	pl_json_write_key(out, &first, "points");
	jhistory_points(out, h);
	jhistory_steps(out, &first, h);
	pl_json_write_key(out, &first, "failing_steps");
	fprintf(out, "%zu", h->nfailing);
	pl_json_write_key(out, &first, "skipped_no_value");
	fprintf(out, "%zu", h->skipped_no_value);
	pl_json_write_key(out, &first, "skipped_no_metric");
	fprintf(out, "%zu", h->skipped_no_metric);
	if (h->nfailed) {
		pl_json_write_key(out, &first, "failed_runs");
		fprintf(out, "%zu", h->nfailed);
	}
	pl_json_write_key(out, &first, "latest");
	jhistory_latest(out, h);
	pl_json_write_key(out, &first, "caveats");
	jcaveats(out, &h->cmp);
	fputs("}\n", out);
	return 0;
}

/* The gate's line for a latest point it did not judge: a series continued
 * across a change of condition, a failed last point, or too few baseline
 * points. Returns 0 or PL_EIO/PL_ENOMEM. */
static int gate_not_judged(FILE *out, const struct pl_history *h, const char *bullet,
                           enum pl_table_format fmt)
{
	struct pl_msg m;
	int rc;

	if (h->gate_superseded) {
		pl_msg_init(&m, PL_MSG_HISTORY_GATE_SUPERSEDED);
		pl_msg_text(&m, h->gate_change[0] ? h->gate_change : "?");
	} else if (h->npoints && h->points[h->npoints - 1].n == 0) {
		pl_msg_init(&m, PL_MSG_HISTORY_GATE_FAILED_NIGHT);
	} else {
		pl_msg_init(&m, PL_MSG_HISTORY_GATE_TOO_FEW);
		pl_msg_int(&m, PL_GATE_MIN_WINDOW);
	}
	fputs(bullet, out);
	if ((rc = say_msg(out, &m, fmt)))
		return rc;
	fputc('\n', out);
	return 0;
}

/* The step that starts at point i, or NULL. */
static const struct pl_history_step *step_at(const struct pl_history *h, size_t i)
{
	for (size_t k = 0; k < h->nsteps; k++)
		if (h->steps[k].index == i)
			return &h->steps[k];
	return NULL;
}

/* The history table: one row per point (index, value, n, summary, level,
 * the step starting there and, when a run failed, its failed runs);
 * followed by a blank line. */
static int history_table(FILE *out, const struct pl_history *h, const char *by,
                         enum pl_table_format fmt)
{
	const struct pl_metric_info *mi = &pl_metric_info[h->metric];
	struct pl_grid g = {0};
	char buf[160], a[32], b[32];
	int rc;

	g.ncols = 6 + (h->nfailed > 0); /* the failed column only when a run failed */
	pl_grid_put(&g, "i", 0, 1);
	pl_grid_put(&g, by, 0, 0);
	pl_grid_put(&g, "n", 0, 1);
	pl_grid_put(&g, "median [95% CI]", 0, 0);
	pl_grid_put(&g, "level", 0, 1);
	pl_grid_put(&g, "step", 0, 0);
	if (h->nfailed)
		pl_grid_put(&g, "failed", 0, 0);
	for (size_t i = 0; i < h->npoints; i++) {
		const struct pl_history_point *p = &h->points[i];
		const struct pl_history_step *s = step_at(h, i);
		snprintf(buf, sizeof(buf), "%zu", i);
		pl_grid_put(&g, buf, 0, 1);
		pl_grid_put(&g, p->value.text, 1, 0);
		snprintf(buf, sizeof(buf), "%zu", p->n);
		pl_grid_put(&g, buf, 0, 1);
		pl_grid_put(&g, fmt_summary(buf, sizeof(buf), &p->s), 0, 0);
		pl_grid_put(&g, p->n ? pl_fmt_sig4(a, sizeof(a), p->level) : "-", 0, 1);
		if (s) {
			pl_fmt_change(b, sizeof(b), s->rel_change, mi->direction);
			snprintf(buf, sizeof(buf), "%s%s", b, s->accepted ? " (accepted)" : "");
			pl_grid_put(&g, buf, 0, 0);
		} else {
			pl_grid_put(&g, "", 0, 0);
		}
		if (h->nfailed) {
			/* "FAILED: run 12" (", 13"...; "+N more" past four) */
			size_t len = 0;
			buf[0] = '\0';
			for (size_t k = 0; k < p->nfailed && k < 4; k++)
				len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%lld",
				                        k ? ", " : "FAILED: run ", p->failed_ids[k]);
			if (p->nfailed > 4)
				snprintf(buf + len, sizeof(buf) - len, " +%zu more", p->nfailed - 4);
			pl_grid_put(&g, buf, 0, 0);
		}
	}
	rc = pl_grid_write(out, &g, fmt);
	pl_grid_release(&g);
	if (rc)
		return rc;
	fputc('\n', out);
	return 0;
}

/* The lines under the history table: how steps were searched, one line
 * per step, and the notes on runs left out or failed. */
static int history_steps(FILE *out, const struct pl_history *h, const char *by,
                         enum pl_table_format fmt)
{
	const struct pl_metric_info *mi = &pl_metric_info[h->metric];
	const char *bullet = fmt == PL_FMT_MARKDOWN ? "- " : "";
	char a[32], b[32];
	int rc;

	if (h->detected)
		fprintf(out,
		        "%ssteps: penalised L1 piecewise-constant fit over the %zu point medians "
		        "(penalty %s sigma ln n, noise sigma %s %s)\n",
		        bullet, h->nmedians, pl_fmt_num(a, sizeof(a), PL_STATS_STEP_PENALTY_DEFAULT),
		        pl_fmt_sig4(b, sizeof(b), h->sigma), pl_unit_label(mi->unit));
	else
		fprintf(out, "%ssteps: not searched: %zu point%s, at least %d needed\n", bullet,
		        h->npoints, h->npoints == 1 ? "" : "s", 2 * PL_STATS_STEP_MIN_SEGMENT);
	for (size_t k = 0; k < h->nsteps; k++) {
		const struct pl_history_step *s = &h->steps[k];
		char ch[64];
		fprintf(out, "%sstep at point %zu (%s ", bullet, s->index, by);
		if ((rc = pl_render_write_input(out, h->points[s->index].value.text, fmt)))
			return rc;
		fprintf(out, "): %s -> %s %s (%s), first run after: %lld", pl_fmt_sig4(a, sizeof(a), s->before),
		        pl_fmt_sig4(b, sizeof(b), s->after), pl_unit_label(mi->unit),
		        pl_fmt_change(ch, sizeof(ch), s->rel_change, mi->direction), s->first_run);
		if (s->accepted) {
			fprintf(out, "; accepted at run %lld: ", s->accepted->run_id);
			if ((rc = pl_render_write_input(out, s->accepted->reason, fmt)))
				return rc;
		} else if (!s->fails && (s->worse || mi->direction == PL_NO_DIRECTION)) {
			fputs("; within the 5% threshold: does not fail", out);
		}
		fputc('\n', out);
	}
	if (h->skipped_no_value)
		fprintf(out, "%snote: %zu run%s without %s left out\n", bullet, h->skipped_no_value,
		        h->skipped_no_value == 1 ? "" : "s", by);
	if (h->skipped_no_metric)
		fprintf(out, "%snote: %zu run%s without %s left out\n", bullet, h->skipped_no_metric,
		        h->skipped_no_metric == 1 ? "" : "s", mi->name);
	if (h->nfailed)
		fprintf(out, "%snote: %zu failed run%s (no request completed) marked FAILED, never in a "
		             "median\n", bullet, h->nfailed, h->nfailed == 1 ? "" : "s");
	return 0;
}

/* The latest point's line: the gate's verdict (judged or not) or, without
 * the gate, the latest point against the points before it; then the last
 * point's failed runs, which fail the gate. */
static int history_latest(FILE *out, const struct pl_history *h, const char *by,
                          enum pl_table_format fmt)
{
	const struct pl_metric_info *mi = &pl_metric_info[h->metric];
	const char *bullet = fmt == PL_FMT_MARKDOWN ? "- " : "";
	char a[32];
	int rc;

	if (h->gate && h->latest_verdict != PL_V_TOO_FEW) {
		if ((rc = gate_latest(out, h, bullet, fmt)))
			return rc;
	} else if (h->gate) {
		if ((rc = gate_not_judged(out, h, bullet, fmt)))
			return rc;
	} else if (h->latest_verdict == PL_V_TOO_FEW) {
		fprintf(out, "%slatest point: not judged: %zu earlier point%s, at least %d needed\n",
		        bullet, h->npoints ? h->npoints - 1 : 0, h->npoints == 2 ? "" : "s",
		        PL_STATS_PREDICTION_MIN);
	} else {
		char ch[64], lo[32], hi[32], p[32];
		fprintf(out,
		        "%slatest point %zu: %s %s against the %zu points before it (95%% prediction "
		        "interval [%s, %s]): %s, p = %s: %s",
		        bullet, h->latest_point, pl_fmt_sig4(a, sizeof(a), h->latest.new_median),
		        pl_unit_label(mi->unit), h->latest.n_old,
		        pl_fmt_sig4(lo, sizeof(lo), h->latest.bound_low),
		        pl_fmt_sig4(hi, sizeof(hi), h->latest.bound_high),
		        pl_fmt_change(ch, sizeof(ch), h->latest.rel_change, mi->direction),
		        fmt_p(p, sizeof(p), h->latest.p_value), pl_verdict_name(h->latest_verdict));
		if (h->latest_accepted) {
			fprintf(out, " at run %lld: ", h->latest_accepted->run_id);
			if ((rc = pl_render_write_input(out, h->latest_accepted->reason, fmt)))
				return rc;
		}
		fputc('\n', out);
	}
	if (h->latest_failed) {
		const struct pl_history_point *lp = &h->points[h->npoints - 1];
		fprintf(out, "%sfailed: last point %zu (%s ", bullet, h->npoints - 1, by);
		if ((rc = pl_render_write_input(out, lp->value.text, fmt)))
			return rc;
		fprintf(out, "): failed run%s", lp->nfailed == 1 ? "" : "s");
		for (size_t k = 0; k < lp->nfailed; k++)
			fprintf(out, "%s%lld", k ? ", " : " ", lp->failed_ids[k]);
		fputs(" (no request completed): the gate fails\n", out);
	}
	return 0;
}

int pl_render_history(FILE *out, const struct pl_history *h, enum pl_table_format fmt,
                      struct pl_error *err)
{
	const struct pl_metric_info *mi = &pl_metric_info[h->metric];
	const char *by = h->group == PL_G_RUN || h->group == PL_G_ENGINE_VERSION ||
	                         h->group == PL_G_DRIVER_VERSION
	                     ? pl_cond_info[h->by].name
	                     : pl_group_name(h->group);
	int rc;

	if (fmt == PL_FMT_CSV)
		return pl_error_set(err, PL_EUSAGE, "history writes text, markdown or json");
	if (fmt == PL_FMT_JSON)
		return finish(out, history_json(out, h), err);

	fprintf(out, "%shistory: %s (%s) by %s, %s; %zu point%s from %zu run%s\n",
	        fmt == PL_FMT_MARKDOWN ? "## " : "", mi->name, pl_unit_label(mi->unit), by,
	        direction_name(mi->direction), h->npoints, h->npoints == 1 ? "" : "s", h->nruns,
	        h->nruns == 1 ? "" : "s");
	if (fmt == PL_FMT_MARKDOWN)
		fputc('\n', out);
	if ((rc = put_shared(out, &h->cmp, fmt)))
		return finish(out, rc, err);
	fputc('\n', out);
	if ((rc = history_table(out, h, by, fmt)) || (rc = history_steps(out, h, by, fmt)) ||
	    (rc = pl_render_put_caveats(out, &h->cmp.caveats, fmt)) ||
	    (rc = history_latest(out, h, by, fmt)))
		return finish(out, rc, err);
	if (fmt == PL_FMT_MARKDOWN)
		fputc('\n', out);
	fprintf(out, "result: %zu step%s, %zu failing (not accepted, %s)%s%s\n", h->nsteps,
	        h->nsteps == 1 ? "" : "s", h->nfailing,
	        mi->direction == PL_NO_DIRECTION ? "any direction" : "worse",
	        h->latest_verdict == PL_V_REGRESSION ? ", the latest point a regression" : "",
	        h->latest_failed ? ", the last point with failed runs" : "");
	return finish(out, 0, err);
}
