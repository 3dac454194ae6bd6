/*
 * bundle.c — renders a report definition into a bundle directory and
 * compares two bundles (for `perfledger verify`).
 *
 * One template context feeds both report.md and report.html: the selection,
 * the shared condition key, the comparison rows, caveats, the procurement
 * groups (derived figures, labelled as such), the publication checklist per
 * run, the runs with their sources and hashes, and the charts. Words that
 * the C code must produce (chart titles, how an SLO figure was found) come
 * from the word tables (render/words_{en,zh}.c, the W_BUNDLE_* codes),
 * gathered into a struct words by words_fill(); everything else a reader
 * sees is in the templates. Nothing here reads the clock: the
 * one timestamp is opts->epoch.
 *
 * This file holds words_fill() and pl_bundle_write, which decides
 * the order in which the files are written; the context, the charts, the
 * manifest, the directory (a temporary sibling swapped in, under a lock)
 * and verify are in bundle_context.c, bundle_charts.c, bundle_manifest.c,
 * bundle_dir.c and bundle_verify.c (bundle_impl.h).
 */
#include "render/bundle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/bundle_impl.h"
#include "render/plot.h"
#include "render/render.h"
#include "render/render_impl.h"
#include "render/template.h"
#include "render/words.h"
#include "render/xlsx.h"


int pl_bundle_lang_ok(const char *lang)
{
	return lang && (strcmp(lang, "en") == 0 || strcmp(lang, "zh-CN") == 0);
}

/* Fills w with the words of lang ("zh-CN", else English) from the word
 * tables (render/words_{en,zh}.c), where every translated word lives. */
static void words_fill(struct words *w, const char *lang)
{
	enum pl_lang l = pl_words_lang(lang);

	w->lang = l == PL_LANG_ZH ? "zh-CN" : "en";
	w->sweep_title = pl_word(PL_MSG_W_BUNDLE_SWEEP_TITLE, l);
	w->sweep_x = pl_word(PL_MSG_W_BUNDLE_SWEEP_X, l);
	w->sweep_y = pl_word(PL_MSG_W_BUNDLE_SWEEP_Y, l);
	w->pareto_title = pl_word(PL_MSG_W_BUNDLE_PARETO_TITLE, l);
	w->pareto_x = pl_word(PL_MSG_W_BUNDLE_PARETO_X, l);
	w->pareto_y = pl_word(PL_MSG_W_BUNDLE_PARETO_Y, l);
	w->pareto_mark = pl_word(PL_MSG_W_BUNDLE_PARETO_MARK, l);
	w->pareto_no_acc = pl_word(PL_MSG_W_BUNDLE_PARETO_NO_ACC, l);
	w->pareto_no_tpot = pl_word(PL_MSG_W_BUNDLE_PARETO_NO_TPOT, l);
	w->measured = pl_word(PL_MSG_W_BUNDLE_MEASURED, l);
	w->interpolated = pl_word(PL_MSG_W_BUNDLE_INTERPOLATED, l);
	w->none = pl_word(PL_MSG_W_BUNDLE_NONE, l);
	w->no_slo = pl_word(PL_MSG_W_BUNDLE_NO_SLO, l);
	w->price_runs = pl_word(PL_MSG_W_BUNDLE_PRICE_RUNS, l);
	w->price_table = pl_word(PL_MSG_W_BUNDLE_PRICE_TABLE, l);
	w->price_none = pl_word(PL_MSG_W_BUNDLE_PRICE_NONE, l);
	w->price_conflict = pl_word(PL_MSG_W_BUNDLE_PRICE_CONFLICT, l);
	w->price_tokens = pl_word(PL_MSG_W_BUNDLE_PRICE_TOKENS, l);
	w->checklist[0] = pl_word(PL_MSG_W_BUNDLE_CHK_WEIGHTS_SOURCE, l);
	w->checklist[1] = pl_word(PL_MSG_W_BUNDLE_CHK_ENGINE_VERSION, l);
	w->checklist[2] = pl_word(PL_MSG_W_BUNDLE_CHK_ENGINE_ARGS, l);
	w->checklist[3] = pl_word(PL_MSG_W_BUNDLE_CHK_DRIVER, l);
	w->checklist[4] = pl_word(PL_MSG_W_BUNDLE_CHK_LENGTHS, l);
	w->checklist[5] = pl_word(PL_MSG_W_BUNDLE_CHK_CONCURRENCY, l);
	w->checklist[6] = pl_word(PL_MSG_W_BUNDLE_CHK_WARMUP, l);
	w->checklist[7] = pl_word(PL_MSG_W_BUNDLE_CHK_TTFT, l);
	w->checklist[8] = pl_word(PL_MSG_W_BUNDLE_CHK_TPOT, l);
	w->checklist[9] = pl_word(PL_MSG_W_BUNDLE_CHK_THROUGHPUT, l);
	w->checklist[10] = pl_word(PL_MSG_W_BUNDLE_CHK_P95, l);
	w->sweep_title_rate = pl_word(PL_MSG_W_BUNDLE_SWEEP_TITLE_RATE, l);
	w->sweep_x_rate = pl_word(PL_MSG_W_BUNDLE_SWEEP_X_RATE, l);
	w->measured_rate = pl_word(PL_MSG_W_BUNDLE_MEASURED_RATE, l);
	w->interpolated_rate = pl_word(PL_MSG_W_BUNDLE_INTERPOLATED_RATE, l);
	w->none_rate = pl_word(PL_MSG_W_BUNDLE_NONE_RATE, l);
	w->load_concurrency = pl_word(PL_MSG_W_BUNDLE_LOAD_CONCURRENCY, l);
	w->load_rate = pl_word(PL_MSG_W_BUNDLE_LOAD_RATE, l);
	w->load_word_concurrency = pl_word(PL_MSG_W_BUNDLE_LOAD_WORD_CONCURRENCY, l);
	w->load_word_rate = pl_word(PL_MSG_W_BUNDLE_LOAD_WORD_RATE, l);
	w->flag_lower_bound = pl_word(PL_MSG_W_BUNDLE_FLAG_LOWER_BOUND, l);
	w->flag_single = pl_word(PL_MSG_W_BUNDLE_FLAG_SINGLE, l);
	w->flag_interpolated = pl_word(PL_MSG_W_BUNDLE_FLAG_INTERPOLATED, l);
	w->flag_reference = pl_word(PL_MSG_W_BUNDLE_FLAG_REFERENCE, l);
	w->note_lower_bound_one = pl_word(PL_MSG_W_BUNDLE_NOTE_LOWER_BOUND_ONE, l);
	w->note_lower_bound_top = pl_word(PL_MSG_W_BUNDLE_NOTE_LOWER_BOUND_TOP, l);
	w->note_skipped = pl_word(PL_MSG_W_BUNDLE_NOTE_SKIPPED, l);
	w->note_no_acc = pl_word(PL_MSG_W_BUNDLE_NOTE_NO_ACC, l);
	w->note_no_price = pl_word(PL_MSG_W_BUNDLE_NOTE_NO_PRICE, l);
	w->note_price_conflict = pl_word(PL_MSG_W_BUNDLE_NOTE_PRICE_CONFLICT, l);
	w->note_price_override = pl_word(PL_MSG_W_BUNDLE_NOTE_PRICE_OVERRIDE, l);
	w->note_price_same = pl_word(PL_MSG_W_BUNDLE_NOTE_PRICE_SAME, l);
	w->price_override = pl_word(PL_MSG_W_BUNDLE_PRICE_OVERRIDE, l);
	w->ref_caveat = pl_word(PL_MSG_W_BUNDLE_REF_CAVEAT, l);
	w->ref_rows = pl_word(PL_MSG_W_BUNDLE_REF_ROWS, l);
	w->per_hour = pl_word(PL_MSG_W_BUNDLE_PER_HOUR, l);
	w->per_mtok = pl_word(PL_MSG_W_BUNDLE_PER_MTOK, l);
	w->price_unused = pl_word(PL_MSG_W_BUNDLE_PRICE_UNUSED, l);
	w->list_sep = pl_word(PL_MSG_W_BUNDLE_LIST_SEP, l);
	w->no_currency = pl_word(PL_MSG_W_BUNDLE_NO_CURRENCY, l);
	w->sweep_not_drawn = pl_word(PL_MSG_W_BUNDLE_SWEEP_NOT_DRAWN, l);
	w->sweep_points_not_drawn = pl_word(PL_MSG_W_BUNDLE_SWEEP_POINTS_NOT_DRAWN, l);
	w->point_label = pl_word(PL_MSG_W_BUNDLE_POINT_LABEL, l);
	w->latency_title = pl_word(PL_MSG_W_BUNDLE_LATENCY_TITLE, l);
	w->latency_x = pl_word(PL_MSG_W_BUNDLE_LATENCY_X, l);
	w->slo_line = pl_word(PL_MSG_W_BUNDLE_SLO_LINE, l);
	w->cost_title = pl_word(PL_MSG_W_BUNDLE_COST_TITLE, l);
	w->cost_x = pl_word(PL_MSG_W_BUNDLE_COST_X, l);
	w->cost_no_price = pl_word(PL_MSG_W_BUNDLE_COST_NO_PRICE, l);
	w->cost_no_slo = pl_word(PL_MSG_W_BUNDLE_COST_NO_SLO, l);
	w->bars_title = pl_word(PL_MSG_W_BUNDLE_BARS_TITLE, l);
	w->better_lower = pl_word(PL_MSG_W_BUNDLE_BETTER_LOWER, l);
	w->better_higher = pl_word(PL_MSG_W_BUNDLE_BETTER_HIGHER, l);
	w->unit_s = pl_word(PL_MSG_W_BUNDLE_UNIT_S, l);
	w->unit_toks = pl_word(PL_MSG_W_BUNDLE_UNIT_TOKS, l);
	w->point_label_rate = pl_word(PL_MSG_W_BUNDLE_POINT_LABEL_RATE, l);
	w->latency_title_rate = pl_word(PL_MSG_W_BUNDLE_LATENCY_TITLE_RATE, l);
	w->pareto_title_rate = pl_word(PL_MSG_W_BUNDLE_PARETO_TITLE_RATE, l);
	w->with_currency = pl_word(PL_MSG_W_BUNDLE_WITH_CURRENCY, l);
	w->currency_unnamed = pl_word(PL_MSG_W_BUNDLE_CURRENCY_UNNAMED, l);
}

/* ------------------------------------------------------------- writing */

struct tpl_job {
	const char *name;        /* template name */
	enum pl_tpl_escape esc;
	const struct pl_tpl_ctx *ctx;
};

static int write_tpl(FILE *fp, void *vjob, struct pl_error *err)
{
	const struct tpl_job *job = vjob;
	size_t len;
	const char *t = pl_tpl_builtin(job->name, &len);

	if (!t)
		return pl_error_set(err, PL_EIO, "no built-in template '%s'", job->name);
	return pl_tpl_render(t, len, job->name, job->esc, job->ctx, fp, err);
}

struct bytes {
	const char *p;
	size_t n;
};

static int write_bytes(FILE *fp, void *v, struct pl_error *err)
{
	const struct bytes *bt = v;
	(void)err;
	fwrite(bt->p, 1, bt->n, fp);
	return ferror(fp) ? PL_EIO : 0;
}

static int write_csv(FILE *fp, void *v, struct pl_error *err)
{
	return pl_render_comparison(fp, v, PL_FMT_CSV, err);
}

static int write_cjson(FILE *fp, void *v, struct pl_error *err)
{
	return pl_render_comparison(fp, v, PL_FMT_JSON, err);
}

static int write_in(const char *dir, const char *name, int (*fn)(FILE *, void *, struct pl_error *),
                    void *ctx, struct pl_error *err)
{
	char *path = pl_fs_path(dir, name);
	int rc;

	if (!path)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = pl_fs_write_atomic(path, fn, ctx, err);
	free(path);
	return rc;
}

/* The built-in default definition (spec->builtin, `report --axis`). The
 * files and their order are those of the hand-written report.c this
 * replaced: comparison.csv and .json, the gnuplot charts (a missing or
 * failing gnuplot does not stop the rest: PL_ETOOL at the end), the plain
 * workbook, report.md from report.axis.md, then manifest.json (so that a
 * later render may replace the directory: see bundle_dir.c). */
static int write_default(const char *dir, struct bundle *b, struct pl_error *err)
{
	struct pl_chart *charts = NULL;
	size_t ncharts = 0;
	struct pl_error plot_err;
	char *path;
	int rc, plot_rc = 0;

	rc = pl_bundle_db_hash(b, err);
	if (rc == 0)
		rc = write_in(dir, "comparison.csv", write_csv, (void *)b->cmp, err);
	if (rc == 0)
		rc = write_in(dir, "comparison.json", write_cjson, (void *)b->cmp, err);
	if (rc != 0)
		return rc;

	pl_error_init(&plot_err);
	if (b->o->spec->charts & PL_CHART_BARS)
		plot_rc = pl_plot_comparison(dir, b->cmp, &charts, &ncharts, &plot_err);
	if (plot_rc != 0 && plot_rc != PL_ETOOL) {
		free(charts);
		if (err)
			*err = plot_err;
		return plot_rc;
	}

	path = pl_fs_path(dir, "comparison.xlsx");
	if (!path)
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	else
		rc = pl_xlsx_write(path, b->cmp, b->runs, b->o->epoch, err);
	free(path);
	if (rc == 0 && !(b->ctx = pl_tpl_ctx_new()))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc == 0)
		rc = pl_bundle_axis_context(b, charts, ncharts, err);
	if (rc == 0) {
		struct tpl_job job = {"report.axis.md", PL_TPL_MARKDOWN, b->ctx};
		rc = write_in(dir, "report.md", write_tpl, &job, err);
	}
	if (rc == 0) {
		struct manifest_job mj = {b, dir, err};
		rc = write_in(dir, "manifest.json", pl_bundle_write_manifest, &mj, err);
	}
	free(charts);
	pl_tpl_ctx_free(b->ctx);
	b->ctx = NULL;
	if (rc != 0)
		return rc;
	if (plot_rc != 0) {
		if (err)
			*err = plot_err;
		return plot_rc;
	}
	return 0;
}

/* The words of an open-loop sweep: those of w, but its load is the
 * request rate, and the sweep chart and the SLO texts say so. */
static void rate_words_fill(struct words *rate, const struct words *w)
{
	*rate = *w;
	rate->sweep_title = rate->sweep_title_rate;
	rate->sweep_x = rate->sweep_x_rate;
	rate->measured = rate->measured_rate;
	rate->interpolated = rate->interpolated_rate;
	rate->none = rate->none_rate;
	rate->point_label = rate->point_label_rate;
	rate->latency_title = rate->latency_title_rate;
	rate->pareto_title = rate->pareto_title_rate;
}

/* report.md and report.html from the templates of b's language, with the
 * built-in style and script set in b's context first. */
static int write_reports(const char *dir, struct bundle *b, struct pl_error *err)
{
	size_t len;
	const char *css = pl_tpl_builtin("report.css", &len);
	const char *js = pl_tpl_builtin("report.js", &len);
	char name[64];
	struct tpl_job job = {name, PL_TPL_MARKDOWN, b->ctx};
	int rc;

	if (pl_tpl_set_raw(b->ctx, "style", css ? css : "") ||
	    pl_tpl_set_raw(b->ctx, "script", js ? js : ""))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	snprintf(name, sizeof(name), "report.%s.md", b->w->lang);
	rc = write_in(dir, "report.md", write_tpl, &job, err);
	if (rc == 0) {
		snprintf(name, sizeof(name), "report.%s.html", b->w->lang);
		job.esc = PL_TPL_HTML;
		rc = write_in(dir, "report.html", write_tpl, &job, err);
	}
	return rc;
}

/* comparison.xlsx, with the verdict's order, flags and notes when one was
 * drawn (else the groups' order). */
static int write_workbook(const char *dir, const struct bundle *b, struct pl_error *err)
{
	const struct pl_bundle_opts *opts = b->o;
	char *path = pl_fs_path(dir, "comparison.xlsx");
	struct pl_xlsx_verdict v = {opts->spec->currency, b->offer_order,
	                            (const char *const *)b->offer_flags,
	                            (const char *const *)b->offer_notes, b->bundle_id,
	                            b->how_to_check, b->offer_rank};
	int rc;

	if (!b->proc || b->noffers != b->proc->ngroups) /* no verdict drawn: the groups' order */
		v.order = v.ranks = NULL, v.flags = v.notes = NULL;
	rc = path ? pl_xlsx_write_bundle(path, b->cmp, b->runs, b->proc, &v, opts->spec->sheets,
	                                 opts->lang, opts->epoch, err)
	          : pl_error_set(err, PL_ENOMEM, "out of memory");
	free(path);
	return rc;
}

/* One render into dir, an empty directory. */
struct render_job {
	const struct pl_comparison *cmp;
	const struct pl_run_list *runs;
	const struct pl_procurement *proc;
	const struct pl_bundle_opts *opts;
};

static int render_into(const char *dir, void *vjob, struct pl_error *err)
{
	const struct render_job *rj = vjob;
	const struct pl_comparison *cmp = rj->cmp;
	const struct pl_run_list *runs = rj->runs;
	const struct pl_procurement *proc = rj->proc;
	const struct pl_bundle_opts *opts = rj->opts;
	struct bundle b;
	struct words lang_words, rate_words;
	struct pl_chart *charts = NULL;
	size_t ncharts = 0;
	struct pl_error plot_err;
	int rc, plot_rc = 0;

	memset(&b, 0, sizeof(b));
	b.cmp = cmp;
	b.runs = runs;
	b.proc = proc;
	b.o = opts;
	words_fill(&lang_words, opts->lang);
	b.w = &lang_words;
	b.w_closed = b.w;
	rate_words_fill(&rate_words, b.w);
	b.w_open = &rate_words;
	if (proc && proc->load == PL_C_REQUEST_RATE && !proc->mixed)
		b.w = &rate_words;
	if (opts->spec->builtin)
		return write_default(dir, &b, err);
	pl_error_init(&plot_err);
	b.ctx = pl_tpl_ctx_new();
	if (!b.ctx)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = pl_bundle_db_hash(&b, err);
	if (rc == 0)
		rc = pl_bundle_compute_id(&b, err);
	if (rc == 0)
		rc = write_in(dir, "comparison.csv", write_csv, (void *)cmp, err);
	if (rc == 0)
		rc = write_in(dir, "comparison.json", write_cjson, (void *)cmp, err);
	if (rc == 0 && (opts->spec->charts & PL_CHART_BARS)) {
		plot_rc = pl_plot_comparison_lang(dir, cmp, opts->lang, &charts, &ncharts, &plot_err);
		if (plot_rc != 0 && plot_rc != PL_ETOOL) {
			rc = plot_rc;
			if (err)
				*err = plot_err;
		}
		for (size_t i = 0; rc == 0 && i < ncharts; i++)
			if (charts[i].rendered) {
				pl_plot_gnuplot_version(b.gnuplot, sizeof(b.gnuplot));
				break;
			}
	}
	if (rc == 0)
		rc = pl_bundle_make_charts(&b) ? pl_error_set(err, PL_ENOMEM, "out of memory") : 0;
	if (rc == 0)
		rc = pl_bundle_write_charts(&b, dir, err);
	if (rc == 0 && (pl_bundle_context(&b) || pl_bundle_ctx_charts(&b, charts, ncharts)))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc == 0)
		rc = write_reports(dir, &b, err);
	if (rc == 0)
		rc = write_workbook(dir, &b, err);
	if (rc == 0) {
		struct bytes bt = {opts->spec->bytes, opts->spec->nbytes};
		rc = write_in(dir, "definition.json", write_bytes, &bt, err);
	}
	if (rc == 0)
		rc = write_in(dir, "runs.jsonl", pl_bundle_write_runs, &b, err);
	if (rc == 0)
		rc = write_in(dir, "CITATION.cff", pl_bundle_write_citation, &b, err);
	if (rc == 0) {
		struct manifest_job mj = {&b, dir, err};
		rc = write_in(dir, "manifest.json", pl_bundle_write_manifest, &mj, err);
	}
	free(charts);
	pl_bundle_free_charts(&b);
	pl_bundle_free_verdict(&b);
	free(b.how_to_check);
	pl_tpl_ctx_free(b.ctx);
	if (rc == 0 && plot_rc != 0) {
		if (err)
			*err = plot_err;
		return plot_rc;
	}
	return rc;
}

int pl_bundle_write(const char *dir, const struct pl_comparison *cmp,
                    const struct pl_run_list *runs, const struct pl_procurement *proc,
                    const struct pl_bundle_opts *opts, struct pl_error *err)
{
	struct render_job rj = {cmp, runs, proc, opts};

	return pl_bundle_publish(dir, render_into, &rj, err);
}

int pl_bundle_write_fresh(const char *dir, const struct pl_comparison *cmp,
                          const struct pl_run_list *runs, const struct pl_procurement *proc,
                          const struct pl_bundle_opts *opts, struct pl_error *err)
{
	struct render_job rj = {cmp, runs, proc, opts};

	return render_into(dir, &rj, err);
}
