/*
 * bundle.c — renders a report definition into a bundle directory and
 * compares two bundles (for `perfledger verify`).
 *
 * One template context feeds both report.md and report.html: the selection,
 * the shared condition key, the comparison rows, caveats, the procurement
 * groups (derived figures, labelled as such), the publication checklist per
 * run, the runs with their sources and hashes, and the charts. Words that
 * the C code must produce (chart titles, how an SLO figure was found) come
 * from the small table below, in English and Simplified Chinese; everything
 * else a reader sees is in the templates. Nothing here reads the clock: the
 * one timestamp is opts->epoch.
 */
#include "render/bundle.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>

#include "core/hash.h"
#include "render/plot.h"
#include "render/render.h"
#include "render/render_impl.h"
#include "render/svg.h"
#include "render/template.h"
#include "render/xlsx.h"

/* Words the C code produces, per language. */
struct words {
	const char *lang;
	const char *sweep_title, *sweep_x, *sweep_y;
	const char *pareto_title, *pareto_x, *pareto_y, *pareto_mark;
	const char *pareto_no_acc, *pareto_no_tpot; /* legend notes of a group not drawn */
	const char *measured;     /* "measured at concurrency %s" */
	const char *interpolated; /* "interpolated between concurrency %s and %s (at %s)" */
	const char *none;         /* no point meets */
	const char *no_slo;
	const char *price_runs, *price_table, *price_none, *price_conflict;
	const char *price_tokens; /* "%s in / %s out per 1M tokens" */
	const char *checklist[PL_CHK_COUNT];
};

static const struct words words_en = {
	"en",
	"Output throughput vs concurrency", "concurrency (log2)", "output throughput (tok/s)",
	"Interactivity vs throughput per accelerator", "output throughput per accelerator (tok/s)",
	"interactivity = 1 / TPOT p50 (tok/s per request)", "Pareto front",
	" (not shown: no accelerator count)",
	" (not shown: no point has both throughput per accelerator and TPOT p50)",
	"measured at concurrency %s",
	"interpolated between concurrency %s and %s (at %s)",
	"no measured concurrency meets the SLO",
	"no SLO given",
	"from the runs", "from the definition's price table", "unknown", "runs disagree",
	"%s in / %s out per 1M tokens",
	{"weights source", "engine version", "launch parameters", "driver/CUDA", "input/output lengths",
	 "concurrency", "warm-up", "TTFT", "TPOT", "throughput", "p95"},
};

static const struct words words_zh = {
	"zh-CN",
	"输出吞吐量与并发数", "并发数（log2）", "输出吞吐量（tok/s）",
	"交互性与单卡吞吐量", "单卡输出吞吐量（tok/s）",
	"交互性 = 1 / TPOT p50（每请求 tok/s）", "帕累托前沿",
	"（未显示：无加速器数量）", "（未显示：没有同时具备单卡吞吐量与 TPOT p50 的点）",
	"在并发数 %s 实测",
	"在并发数 %s 与 %s 之间插值（约 %s）",
	"没有任何实测并发数满足 SLO",
	"未给出 SLO",
	"来自运行记录", "来自报告定义的价格表", "未知", "运行记录之间不一致",
	"每百万 token：输入 %s / 输出 %s",
	{"权重来源", "引擎版本", "启动参数", "驱动/CUDA", "输入/输出长度",
	 "并发数", "预热", "TTFT", "TPOT", "吞吐量", "p95"},
};

int pl_bundle_lang_ok(const char *lang)
{
	return lang && (strcmp(lang, "en") == 0 || strcmp(lang, "zh-CN") == 0);
}

static const struct words *words_for(const char *lang)
{
	return lang && strcmp(lang, "zh-CN") == 0 ? &words_zh : &words_en;
}

/* Copies fmt into out replacing each "%s" by the next of a, b, c (the
 * phrase tables hold only "%s" directives). */
static void subst(char *out, size_t n, const char *fmt, const char *a, const char *b, const char *c)
{
	const char *args[3] = {a, b, c};
	size_t len = 0, k = 0;

	for (; *fmt && len + 1 < n; fmt++) {
		if (fmt[0] == '%' && fmt[1] == 's' && k < 3) {
			const char *s = args[k++];
			for (; s && *s && len + 1 < n; s++)
				out[len++] = *s;
			fmt++;
		} else {
			out[len++] = *fmt;
		}
	}
	out[len] = '\0';
}

static char *num(char *buf, size_t n, double v)
{
	if (isnan(v)) {
		snprintf(buf, n, "-");
		return buf;
	}
	return pl_fmt_sig4(buf, n, v);
}

static char *full(char *buf, size_t n, double v)
{
	if (isnan(v)) {
		snprintf(buf, n, "%s", "");
		return buf;
	}
	return pl_fmt_num(buf, n, v);
}

static int run_in_cmp(const struct pl_comparison *cmp, long long id)
{
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t i = 0; i < cmp->rows[r].n; i++)
			if (cmp->rows[r].run_ids[i] == id)
				return 1;
	return 0;
}

/* Everything the writers need. */
struct bundle {
	const struct pl_comparison *cmp;
	const struct pl_run_list *runs;
	const struct pl_procurement *proc;
	const struct pl_bundle_opts *o;
	const struct words *w;
	struct pl_tpl_ctx *ctx;
	char *svg_sweep, *svg_pareto; /* heap, or NULL */
	char db_hash[65];
	char gnuplot[128]; /* `gnuplot --version` when gnuplot drew charts, else "" */
};

/* ---------------------------------------------------------- the context */

static int ctx_header(struct bundle *b)
{
	struct pl_tpl_ctx *c = b->ctx;
	const struct pl_report_spec *s = b->o->spec;
	const char *title = strcmp(b->w->lang, "zh-CN") == 0 && s->title_zh ? s->title_zh
	                    : s->title_en                                   ? s->title_en
	                                                                    : s->name;
	char when[32];
	time_t t = (time_t)b->o->epoch;
	struct tm tm;
	int rc = 0;

	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	rc |= pl_tpl_set(c, "title", title);
	rc |= pl_tpl_set(c, "definition", s->name);
	rc |= pl_tpl_set(c, "tool_version", b->o->tool_version ? b->o->tool_version : "");
	rc |= pl_tpl_set(c, "generated_at", when);
	rc |= pl_tpl_set(c, "db_hash", b->db_hash);
	rc |= pl_tpl_set(c, "lang", b->w->lang);
	rc |= pl_tpl_set(c, "axis", s->axis);
	rc |= pl_tpl_setf(c, "nruns", "%zu", b->cmp->nruns);
	rc |= pl_tpl_set_list(c, "filters");
	for (size_t i = 0; i < s->nwhere; i++) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "filters");
		rc |= it ? pl_tpl_set(it, "text", s->where[i]) : PL_ENOMEM;
	}
	rc |= pl_tpl_set_list(c, "shared");
	for (int id = 0; id < PL_COND_COUNT; id++) {
		struct pl_tpl_ctx *it;
		/* a field travelling with the axis that all rows share (one
		 * tensor_parallel_size for every accelerator) is shared too */
		if (!b->cmp->shared[id].set || pl_render_is_axis(b->cmp, id))
			continue;
		it = pl_tpl_add_item(c, "shared");
		if (!it)
			return PL_ENOMEM;
		rc |= pl_tpl_set(it, "field", pl_cond_info[id].name);
		rc |= pl_tpl_set(it, "value", b->cmp->shared[id].text);
		rc |= pl_tpl_set_bool(it, "key", (pl_cond_info[id].flags & PL_CF_KEY) != 0);
	}
	for (size_t i = 0; i < b->cmp->nshared_extra; i++) { /* "vllm-serving.label" */
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "shared");
		if (!it)
			return PL_ENOMEM;
		rc |= pl_tpl_set(it, "field", b->cmp->shared_extra[i].name);
		rc |= pl_tpl_set(it, "value", b->cmp->shared_extra[i].value);
		rc |= pl_tpl_set_bool(it, "key", 1); /* extras are compared */
	}
	rc |= pl_tpl_set_list(c, "caveats");
	for (size_t i = 0; i < b->cmp->ncaveats; i++) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "caveats");
		rc |= it ? pl_tpl_set(it, "text", b->cmp->caveats[i]) : PL_ENOMEM;
	}
	return rc ? PL_ENOMEM : 0;
}

static int metric_present(const struct pl_comparison *cmp, int m)
{
	for (size_t r = 0; r < cmp->nrows; r++)
		if (cmp->rows[r].n_metric[m])
			return 1;
	return 0;
}

/* The fields travelling with the axis that differ between rows (as the
 * text table's extra columns): varies, not on the axis, not shared, set in
 * some row. Returns how many, ids in ids. */
static size_t varying_fields(const struct pl_comparison *cmp, int *ids)
{
	size_t n = 0;

	for (int id = 0; id < PL_COND_COUNT; id++) {
		if (!cmp->varies[id] || pl_render_is_axis(cmp, id) || cmp->shared[id].set)
			continue;
		for (size_t r = 0; r < cmp->nrows; r++)
			if (cmp->rows[r].axis[id].set) {
				ids[n++] = id;
				break;
			}
	}
	return n;
}

static int ctx_comparison(struct bundle *b)
{
	struct pl_tpl_ctx *c = b->ctx;
	const struct pl_comparison *cmp = b->cmp;
	char buf[64], label[1024];
	int rc = 0, any_ref = 0, vary[PL_COND_COUNT];
	size_t nvary = varying_fields(cmp, vary);

	rc |= pl_tpl_set_bool(c, "has_varying", nvary > 0);
	rc |= pl_tpl_set_list(c, "varying");
	for (size_t i = 0; i < nvary; i++) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "varying");
		rc |= it ? pl_tpl_set(it, "name", pl_cond_info[vary[i]].name) : PL_ENOMEM;
	}

	rc |= pl_tpl_set_list(c, "columns");
	for (size_t i = 0; i < cmp->nmetrics; i++) {
		int m = cmp->metrics[i];
		struct pl_tpl_ctx *it;
		if (!metric_present(cmp, m))
			continue;
		it = pl_tpl_add_item(c, "columns");
		if (!it)
			return PL_ENOMEM;
		rc |= pl_tpl_set(it, "name", pl_metric_info[m].name);
		rc |= pl_tpl_set(it, "unit", pl_unit_label(pl_metric_info[m].unit));
	}
	rc |= pl_tpl_set_list(c, "rows");
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct pl_compare_row *row = &cmp->rows[r];
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "rows");
		if (!it)
			return PL_ENOMEM;
		rc |= pl_tpl_set(it, "label", pl_render_row_label(cmp, r, label, sizeof(label)));
		rc |= pl_tpl_setf(it, "n", "%zu", row->n);
		rc |= pl_tpl_set_bool(it, "reference_only", row->reference_only > 0);
		any_ref |= row->reference_only > 0;
		rc |= pl_tpl_set_list(it, "vcells"); /* values of the varying fields */
		for (size_t i = 0; i < nvary; i++) {
			const struct pl_value *v = &row->axis[vary[i]];
			struct pl_tpl_ctx *vc = pl_tpl_add_item(it, "vcells");
			rc |= vc ? pl_tpl_set(vc, "value", v->set && v->text ? v->text : "-") : PL_ENOMEM;
		}
		rc |= pl_tpl_set_list(it, "cells");
		for (size_t i = 0; i < cmp->nmetrics; i++) {
			int m = cmp->metrics[i];
			struct pl_tpl_ctx *cell;
			if (!metric_present(cmp, m))
				continue;
			cell = pl_tpl_add_item(it, "cells");
			if (!cell)
				return PL_ENOMEM;
			rc |= pl_tpl_set(cell, "value",
			                 row->n_metric[m] ? num(buf, sizeof(buf), row->metric[m]) : "-");
			rc |= pl_tpl_set(cell, "sort",
			                 row->n_metric[m] ? full(buf, sizeof(buf), row->metric[m]) : "");
			rc |= pl_tpl_set(cell, "spread", pl_fmt_spread(buf, sizeof(buf), row, m));
			if (r != row->base && row->has_delta[m] && isfinite(row->delta_pct[m]))
				rc |= pl_tpl_set(cell, "delta", pl_fmt_delta(buf, sizeof(buf), row->delta_pct[m]));
			else
				rc |= pl_tpl_set(cell, "delta", "");
		}
	}
	rc |= pl_tpl_set_bool(c, "headline_reference_only", any_ref);
	return rc ? PL_ENOMEM : 0;
}

static int ctx_procurement(struct bundle *b)
{
	struct pl_tpl_ctx *c = b->ctx;
	const struct pl_procurement *p = b->proc;
	char buf[64], b2[64], b3[64], slo[256] = "";
	size_t len = 0;
	int rc = 0;

	rc |= pl_tpl_set_bool(c, "procurement", p && p->ngroups > 0);
	rc |= pl_tpl_set_list(c, "groups");
	if (!p)
		return rc ? PL_ENOMEM : 0;
	for (size_t k = 0; k < p->slo.n && len < sizeof(slo); k++)
		len += (size_t)snprintf(slo + len, sizeof(slo) - len, "%s%s <= %s s", k ? ", " : "",
		                        pl_metric_info[p->slo.metric[k]].name,
		                        pl_fmt_num(buf, sizeof(buf), p->slo.limit[k]));
	rc |= pl_tpl_set(c, "slo", slo);
	rc |= pl_tpl_set_bool(c, "sweep", p->sweep);
	{
		int any_tokens = 0;
		for (size_t g = 0; g < p->ngroups; g++)
			any_tokens |= p->groups[g].token_priced;
		rc |= pl_tpl_set_bool(c, "token_priced", any_tokens);
	}
	for (size_t g = 0; g < p->ngroups; g++) {
		const struct pl_procure_group *gr = &p->groups[g];
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "groups");
		char how[256];
		if (!it)
			return PL_ENOMEM;
		rc |= pl_tpl_set(it, "label", gr->label);
		rc |= pl_tpl_set(it, "accelerators", full(buf, sizeof(buf), gr->accelerators));
		if (gr->token_priced && !gr->price_conflict) {
			char pr[160];
			subst(pr, sizeof(pr), b->w->price_tokens, full(buf, sizeof(buf), gr->price_in_per_mtok),
			      full(b2, sizeof(b2), gr->price_out_per_mtok), NULL);
			rc |= pl_tpl_set(it, "price", pr);
		} else {
			rc |= pl_tpl_set(it, "price", isnan(gr->price_per_hour) ? "-" : full(buf, sizeof(buf), gr->price_per_hour));
		}
		rc |= pl_tpl_set_bool(it, "token_priced", gr->token_priced);
		rc |= pl_tpl_set(it, "price_per_acc", num(buf, sizeof(buf), gr->price_per_acc_hour));
		rc |= pl_tpl_set(it, "price_source",
		                 gr->price_conflict      ? b->w->price_conflict
		                 : gr->price_source == 1 ? b->w->price_runs
		                 : gr->price_source == 2 ? b->w->price_table
		                                         : b->w->price_none);
		rc |= pl_tpl_set(it, "peak", num(buf, sizeof(buf), gr->peak_throughput));
		rc |= pl_tpl_set(it, "peak_sort", full(buf, sizeof(buf), gr->peak_throughput));
		rc |= pl_tpl_set(it, "peak_concurrency", full(buf, sizeof(buf), gr->peak_concurrency));
		rc |= pl_tpl_set(it, "slo_throughput", num(buf, sizeof(buf), gr->slo.throughput));
		rc |= pl_tpl_set(it, "slo_throughput_sort", full(buf, sizeof(buf), gr->slo.throughput));
		rc |= pl_tpl_set(it, "slo_per_acc", num(buf, sizeof(buf), gr->slo_throughput_per_acc));
		rc |= pl_tpl_set(it, "slo_per_acc_sort", full(buf, sizeof(buf), gr->slo_throughput_per_acc));
		rc |= pl_tpl_set(it, "slo_cost", num(buf, sizeof(buf), gr->slo_cost_per_mtok));
		rc |= pl_tpl_set(it, "slo_cost_sort", full(buf, sizeof(buf), gr->slo_cost_per_mtok));
		rc |= pl_tpl_set(it, "goodput", num(buf, sizeof(buf), gr->goodput));
		if (p->slo.n == 0)
			snprintf(how, sizeof(how), "%s", b->w->no_slo);
		else if (gr->slo.status == PL_SLO_MEASURED)
			subst(how, sizeof(how), b->w->measured, full(buf, sizeof(buf), gr->slo.concurrency), NULL,
			      NULL);
		else if (gr->slo.status == PL_SLO_INTERPOLATED)
			subst(how, sizeof(how), b->w->interpolated,
			      full(buf, sizeof(buf), gr->slo.lo_concurrency),
			      full(b2, sizeof(b2), gr->slo.hi_concurrency),
			      num(b3, sizeof(b3), gr->slo.concurrency));
		else
			snprintf(how, sizeof(how), "%s", b->w->none);
		rc |= pl_tpl_set(it, "slo_how", how);
		rc |= pl_tpl_set_bool(it, "interpolated", gr->slo.status == PL_SLO_INTERPOLATED);
		rc |= pl_tpl_set_list(it, "points");
		for (size_t i = 0; i < gr->npoints; i++) {
			const struct pl_procure_point *pt = &gr->points[i];
			struct pl_tpl_ctx *pi = pl_tpl_add_item(it, "points");
			if (!pi)
				return PL_ENOMEM;
			rc |= pl_tpl_set(pi, "concurrency", full(buf, sizeof(buf), pt->concurrency));
			rc |= pl_tpl_set(pi, "throughput", num(buf, sizeof(buf), pt->throughput));
			rc |= pl_tpl_set(pi, "per_acc", num(buf, sizeof(buf), pt->throughput_per_acc));
			rc |= pl_tpl_set(pi, "interactivity", num(buf, sizeof(buf), pt->interactivity));
			rc |= pl_tpl_set(pi, "cost", num(buf, sizeof(buf), pt->cost_per_mtok));
			rc |= pl_tpl_set(pi, "meets", pt->meets_slo == 1 ? "✓" : pt->meets_slo == 0 ? "✗" : "-");
			rc |= pl_tpl_set(pi, "pareto", pt->pareto ? "●" : "");
		}
	}
	return rc ? PL_ENOMEM : 0;
}

static int ctx_runs(struct bundle *b)
{
	struct pl_tpl_ctx *c = b->ctx;
	int rc = 0;

	rc |= pl_tpl_set_list(c, "checklist_items");
	for (int k = 0; k < PL_CHK_COUNT; k++) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "checklist_items");
		rc |= it ? pl_tpl_set(it, "name", b->w->checklist[k]) : PL_ENOMEM;
	}
	rc |= pl_tpl_set_list(c, "runs");
	for (size_t i = 0; b->runs && i < b->runs->n; i++) {
		const struct pl_run *run = &b->runs->v[i];
		struct pl_tpl_ctx *it;
		if (!run_in_cmp(b->cmp, run->id))
			continue;
		it = pl_tpl_add_item(c, "runs");
		if (!it)
			return PL_ENOMEM;
		rc |= pl_tpl_setf(it, "id", "%lld", run->id);
		rc |= pl_tpl_set(it, "source", run->source ? run->source : "-");
		rc |= pl_tpl_set(it, "sha256", run->sha256);
		rc |= pl_tpl_set_bool(it, "reference_only", run->checklist_missing != 0);
		rc |= pl_tpl_set_list(it, "marks");
		for (int k = 0; k < PL_CHK_COUNT; k++) {
			struct pl_tpl_ctx *m = pl_tpl_add_item(it, "marks");
			rc |= m ? pl_tpl_set(m, "mark", run->checklist_missing & (1u << k) ? "✗" : "✓")
			        : PL_ENOMEM;
		}
	}
	return rc ? PL_ENOMEM : 0;
}

/* ------------------------------------------------------------- charts */

static int make_charts(struct bundle *b)
{
	const struct pl_procurement *p = b->proc;
	unsigned want = b->o->spec->charts;
	struct pl_svg_series *se;
	double *xs, *ys, *px, *py;
	unsigned char *mk;
	size_t total = 0, at = 0;
	int rc = 0;

	if (!p || p->ngroups == 0 || !(want & (PL_CHART_SWEEP | PL_CHART_PARETO)))
		return 0;
	for (size_t g = 0; g < p->ngroups; g++)
		total += p->groups[g].npoints;
	se = calloc(p->ngroups, sizeof(*se));
	xs = calloc(total, sizeof(double));
	ys = calloc(total, sizeof(double));
	px = calloc(total, sizeof(double));
	py = calloc(total, sizeof(double));
	mk = calloc(total, 1);
	if (!se || !xs || !ys || !px || !py || !mk) {
		rc = PL_ENOMEM;
		goto out;
	}
	for (size_t g = 0; g < p->ngroups; g++) {
		const struct pl_procure_group *gr = &p->groups[g];
		for (size_t i = 0; i < gr->npoints; i++) {
			xs[at + i] = gr->points[i].concurrency;
			ys[at + i] = gr->points[i].throughput;
			px[at + i] = gr->points[i].throughput_per_acc;
			py[at + i] = gr->points[i].interactivity;
			mk[at + i] = (unsigned char)gr->points[i].pareto;
		}
		se[g].name = gr->label;
		se[g].n = gr->npoints;
		at += gr->npoints;
	}
	if ((want & PL_CHART_SWEEP) && p->sweep) {
		struct pl_svg_xy c = {b->w->sweep_title, b->w->sweep_x, b->w->sweep_y, NULL, 1, 1,
		                      se, p->ngroups};
		at = 0;
		for (size_t g = 0; g < p->ngroups; g++) {
			se[g].x = xs + at;
			se[g].y = ys + at;
			se[g].mark = NULL;
			at += se[g].n;
		}
		b->svg_sweep = pl_svg_xy_chart(&c);
		if (!b->svg_sweep)
			rc = PL_ENOMEM;
	}
	if (rc == 0 && (want & PL_CHART_PARETO)) {
		struct pl_svg_xy c = {b->w->pareto_title, b->w->pareto_x, b->w->pareto_y,
		                      b->w->pareto_mark, 0, 1, se, p->ngroups};
		at = 0;
		for (size_t g = 0; g < p->ngroups; g++) {
			int any_x = 0, drawn = 0;

			se[g].x = px + at;
			se[g].y = py + at;
			se[g].mark = mk + at;
			for (size_t i = 0; i < se[g].n; i++) {
				any_x |= isfinite(se[g].x[i]) != 0;
				drawn |= isfinite(se[g].x[i]) && isfinite(se[g].y[i]);
			}
			/* a group with no point on the chart says why: a cloud API
			 * has no accelerator count to divide by */
			se[g].note = drawn ? NULL : !any_x ? b->w->pareto_no_acc : b->w->pareto_no_tpot;
			at += se[g].n;
		}
		b->svg_pareto = pl_svg_xy_chart(&c);
		if (!b->svg_pareto)
			rc = PL_ENOMEM;
	}
out:
	free(se);
	free(xs);
	free(ys);
	free(px);
	free(py);
	free(mk);
	return rc;
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

static int write_str(FILE *fp, void *s, struct pl_error *err)
{
	(void)err;
	fputs(s, fp);
	return ferror(fp) ? PL_EIO : 0;
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
	char *path = pl_render_path(dir, name);
	int rc;

	if (!path)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = pl_render_write_file(path, fn, ctx, err);
	free(path);
	return rc;
}

static int hash_file(const char *path, char hex[65], struct pl_error *err)
{
	char *buf;
	size_t len;
	int rc = pl_read_file(path, &buf, &len, err);

	if (rc)
		return rc;
	rc = pl_sha256_hex(buf, len, hex);
	free(buf);
	return rc ? pl_error_set(err, PL_ENOMEM, "sha256 failed") : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the regular files of dir. */
static int list_dir(const char *dir, char ***names, size_t *n, struct pl_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return pl_error_set(err, PL_EIO, "cannot open directory '%s': %s", dir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		char *path;
		struct stat st;
		int reg;
		if (e->d_name[0] == '.')
			continue;
		path = pl_render_path(dir, e->d_name);
		reg = path && lstat(path, &st) == 0 && S_ISREG(st.st_mode);
		free(path);
		if (!reg)
			continue;
		if (*n == cap) {
			char **p = realloc(*names, (cap = cap ? cap * 2 : 32) * sizeof(char *));
			if (!p)
				break;
			*names = p;
		}
		if (!((*names)[*n] = strdup(e->d_name)))
			break;
		(*n)++;
	}
	closedir(d);
	if (e != NULL) {
		for (size_t i = 0; i < *n; i++)
			free((*names)[i]);
		free(*names);
		*names = NULL;
		*n = 0;
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (*n)
		qsort(*names, *n, sizeof(char *), cmp_str);
	return 0;
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

struct manifest_job {
	struct bundle *b;
	const char *dir;
	struct pl_error *err;
};

/* Makes dir ready for a bundle: it must be empty, or hold an earlier bundle
 * (a manifest.json), whose listed outputs and manifest are removed first so
 * that nothing of it is taken for part of the new one. Any other file there
 * is refused rather than overwritten or listed: a bundle's directory holds
 * the bundle only. Names from the old manifest are used only when they are
 * plain file names (no '/', not "." or ".."). */
static int clear_for_bundle(const char *dir, struct pl_error *err)
{
	char **names = NULL, *mpath, *text = NULL;
	size_t n = 0;
	int rc = list_dir(dir, &names, &n, err);

	if (rc)
		return rc;
	for (size_t i = 0; i < n && !text; i++) {
		FILE *f;
		long len;
		if (strcmp(names[i], "manifest.json") != 0)
			continue;
		if (!(mpath = pl_render_path(dir, names[i])))
			break;
		f = fopen(mpath, "rb");
		free(mpath);
		if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && len < (1L << 24) &&
		    fseek(f, 0, SEEK_SET) == 0 && (text = calloc(1, (size_t)len + 1)) &&
		    fread(text, 1, (size_t)len, f) != (size_t)len) {
			free(text);
			text = NULL;
		}
		if (f)
			fclose(f);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (text) {
		/* "outputs": [{"path": "NAME", ...}] as write_manifest writes it */
		const char *o = strstr(text, "\"outputs\"");
		for (const char *p = o; p && (p = strstr(p, "{\"path\": \"")) != NULL;) {
			const char *s = p + 10, *e = strchr(s, '"');
			char name[256];
			if (!e || (size_t)(e - s) >= sizeof(name))
				break;
			memcpy(name, s, (size_t)(e - s));
			name[e - s] = '\0';
			if (!strchr(name, '/') && !strchr(name, '\\') && strcmp(name, ".") != 0 &&
			    strcmp(name, "..") != 0 && (mpath = pl_render_path(dir, name)) != NULL) {
				unlink(mpath);
				free(mpath);
			}
			p = e;
		}
		free(text);
		if ((mpath = pl_render_path(dir, "manifest.json")) != NULL) {
			unlink(mpath);
			free(mpath);
		}
	}
	if ((rc = list_dir(dir, &names, &n, err)))
		return rc;
	if (n > 0)
		rc = pl_error_set(err, PL_EIO,
		                  "'%s' holds files that are not part of a bundle (e.g. '%s'); render "
		                  "a bundle into an empty or new directory",
		                  dir, names[0]);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

static int write_manifest(FILE *fp, void *v, struct pl_error *err)
{
	struct manifest_job *mj = v;
	struct bundle *b = mj->b;
	const struct pl_report_spec *s = b->o->spec;
	char **names = NULL;
	size_t n = 0;
	char hex[65];
	int rc, first = 1;

	rc = list_dir(mj->dir, &names, &n, err);
	if (rc)
		return rc;
	fputs("{\n  \"perfledger\": ", fp);
	pl_json_write_string(fp, b->o->tool_version ? b->o->tool_version : "");
	fputs(",\n  \"definition\": ", fp);
	pl_json_write_string(fp, s->name);
	fputs(",\n  \"lang\": ", fp);
	pl_json_write_string(fp, b->w->lang);
	if (b->gnuplot[0]) {
		/* gnuplot's SVG carries its version; another one may draw other bytes */
		fputs(",\n  \"gnuplot\": ", fp);
		pl_json_write_string(fp, b->gnuplot);
	}
	fprintf(fp, ",\n  \"source_date_epoch\": %lld", b->o->epoch);
	fputs(",\n  \"database_hash\": ", fp);
	pl_json_write_string(fp, b->db_hash);
	fputs(",\n  \"selection\": [", fp);
	for (size_t i = 0; i < s->nwhere; i++) {
		fputs(i ? ", " : "", fp);
		pl_json_write_string(fp, s->where[i]);
	}
	fputs("],\n  \"axis\": ", fp);
	pl_json_write_string(fp, s->axis);
	fputs(",\n  \"inputs\": [", fp);
	for (size_t i = 0; b->runs && i < b->runs->n; i++) {
		const struct pl_run *run = &b->runs->v[i];
		int seen = 0;
		if (!run_in_cmp(b->cmp, run->id))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = run_in_cmp(b->cmp, b->runs->v[j].id) &&
			       strcmp(b->runs->v[j].sha256, run->sha256) == 0;
		if (seen)
			continue;
		fputs(first ? "\n    {\"source\": " : ",\n    {\"source\": ", fp);
		first = 0;
		pl_json_write_string(fp, run->source ? run->source : "");
		fputs(", \"sha256\": ", fp);
		pl_json_write_string(fp, run->sha256);
		fputc('}', fp);
	}
	fputs("\n  ],\n  \"outputs\": [", fp);
	first = 1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *path;
		size_t len = strlen(names[i]);
		/* the manifest itself, and its own temporary file being written */
		if (strcmp(names[i], "manifest.json") == 0 ||
		    (len > 4 && strcmp(names[i] + len - 4, ".tmp") == 0))
			continue;
		path = pl_render_path(mj->dir, names[i]);
		if (!path) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		rc = hash_file(path, hex, err);
		free(path);
		if (rc)
			break;
		fputs(first ? "\n    {\"path\": " : ",\n    {\"path\": ", fp);
		first = 0;
		pl_json_write_string(fp, names[i]);
		fprintf(fp, ", \"sha256\": \"%s\"}", hex);
	}
	fputs("\n  ]\n}\n", fp);
	free_names(names, n);
	if (rc)
		return rc;
	return ferror(fp) ? PL_EIO : 0;
}

/* sha256 of the selected runs as `list --format json` renders them. */
static int db_hash(struct bundle *b, struct pl_error *err)
{
	struct pl_run_list sel;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc = 0;

	pl_run_list_init(&sel);
	for (size_t i = 0; b->runs && i < b->runs->n && rc == 0; i++) {
		struct pl_run *r;
		if (!run_in_cmp(b->cmp, b->runs->v[i].id))
			continue;
		r = pl_run_list_push(&sel);
		rc = r ? pl_run_copy(r, &b->runs->v[i]) : PL_ENOMEM;
	}
	f = rc == 0 ? open_memstream(&buf, &len) : NULL;
	if (!f) {
		pl_run_list_release(&sel);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	rc = pl_render_runs(f, &sel, PL_FMT_JSON, err);
	fclose(f);
	if (rc == 0 && pl_sha256_hex(buf, len, b->db_hash) != 0)
		rc = pl_error_set(err, PL_ENOMEM, "sha256 failed");
	free(buf);
	pl_run_list_release(&sel);
	return rc;
}

static int set_charts(struct bundle *b, const struct pl_chart *charts, size_t ncharts)
{
	struct pl_tpl_ctx *c = b->ctx;
	int rc = pl_tpl_set_list(c, "charts");

	if (b->svg_sweep) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "charts");
		if (!it)
			return PL_ENOMEM;
		rc |= pl_tpl_set(it, "title", b->w->sweep_title);
		rc |= pl_tpl_set(it, "file", "sweep.svg");
		rc |= pl_tpl_set_raw(it, "svg", b->svg_sweep);
	}
	if (b->svg_pareto) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "charts");
		if (!it)
			return PL_ENOMEM;
		rc |= pl_tpl_set(it, "title", b->w->pareto_title);
		rc |= pl_tpl_set(it, "file", "pareto.svg");
		rc |= pl_tpl_set_raw(it, "svg", b->svg_pareto);
	}
	/* the gnuplot bar charts: linked as images in Markdown; in HTML their
	 * data as inline bar charts of our own (self-contained) */
	for (size_t i = 0; i < ncharts; i++) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "charts");
		const char **labels = calloc(b->cmp->nrows ? b->cmp->nrows : 1, sizeof(char *));
		char **lab = calloc(b->cmp->nrows ? b->cmp->nrows : 1, sizeof(char *));
		double *vals = calloc(b->cmp->nrows ? b->cmp->nrows : 1, sizeof(double));
		char file[96], *svg = NULL;
		int m = strcmp(charts[i].name, "ttft") == 0   ? PL_M_TTFT_P50
		        : strcmp(charts[i].name, "tpot") == 0 ? PL_M_TPOT_P50
		                                              : PL_M_OUTPUT_THROUGHPUT;
		if (strcmp(charts[i].title, "ITL p50 / p95 (s)") == 0)
			m = PL_M_ITL_P50;
		if (!it || !labels || !lab || !vals)
			rc = PL_ENOMEM;
		for (size_t r = 0; rc == 0 && r < b->cmp->nrows; r++) {
			char buf[1024];
			lab[r] = strdup(pl_render_row_label(b->cmp, r, buf, sizeof(buf)));
			labels[r] = lab[r] ? lab[r] : "";
			vals[r] = b->cmp->rows[r].n_metric[m] ? b->cmp->rows[r].metric[m] : NAN;
		}
		if (rc == 0) {
			char title[160];
			snprintf(title, sizeof(title), "%s", pl_metric_info[m].name);
			svg = pl_svg_bar_chart(title, pl_unit_label(pl_metric_info[m].unit), labels, vals,
			                       b->cmp->nrows);
			snprintf(file, sizeof(file), "%s.svg", charts[i].name);
			rc |= pl_tpl_set(it, "title", charts[i].title);
			rc |= pl_tpl_set(it, "file", file);
			rc |= svg ? pl_tpl_set_raw(it, "svg", svg) : PL_ENOMEM;
		}
		free(svg);
		for (size_t r = 0; lab && r < b->cmp->nrows; r++)
			free(lab[r]);
		free(lab);
		free(labels);
		free(vals);
		if (rc)
			return PL_ENOMEM;
	}
	return rc ? PL_ENOMEM : 0;
}

int pl_bundle_write(const char *dir, const struct pl_comparison *cmp,
                    const struct pl_run_list *runs, const struct pl_procurement *proc,
                    const struct pl_bundle_opts *opts, struct pl_error *err)
{
	struct bundle b;
	struct pl_chart *charts = NULL;
	size_t ncharts = 0;
	struct pl_error plot_err;
	int rc, plot_rc = 0;
	char name[64];

	memset(&b, 0, sizeof(b));
	b.cmp = cmp;
	b.runs = runs;
	b.proc = proc;
	b.o = opts;
	b.w = words_for(opts->lang);
	pl_error_init(&plot_err);
	rc = pl_render_mkdirs(dir, err);
	if (rc == 0)
		rc = clear_for_bundle(dir, err);
	if (rc)
		return rc;
	b.ctx = pl_tpl_ctx_new();
	if (!b.ctx)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = db_hash(&b, err);
	if (rc == 0)
		rc = write_in(dir, "comparison.csv", write_csv, (void *)cmp, err);
	if (rc == 0)
		rc = write_in(dir, "comparison.json", write_cjson, (void *)cmp, err);
	if (rc == 0 && (opts->spec->charts & PL_CHART_BARS)) {
		plot_rc = pl_plot_comparison(dir, cmp, &charts, &ncharts, &plot_err);
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
		rc = make_charts(&b) ? pl_error_set(err, PL_ENOMEM, "out of memory") : 0;
	if (rc == 0 && b.svg_sweep)
		rc = write_in(dir, "sweep.svg", write_str, b.svg_sweep, err);
	if (rc == 0 && b.svg_pareto)
		rc = write_in(dir, "pareto.svg", write_str, b.svg_pareto, err);
	if (rc == 0 && (ctx_header(&b) || ctx_comparison(&b) || ctx_procurement(&b) || ctx_runs(&b) ||
	                set_charts(&b, charts, ncharts)))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc == 0) {
		size_t len;
		const char *css = pl_tpl_builtin("report.css", &len);
		const char *js = pl_tpl_builtin("report.js", &len);
		if (pl_tpl_set_raw(b.ctx, "style", css ? css : "") ||
		    pl_tpl_set_raw(b.ctx, "script", js ? js : ""))
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (rc == 0) {
		struct tpl_job job = {name, PL_TPL_MARKDOWN, b.ctx};
		snprintf(name, sizeof(name), "report.%s.md", b.w->lang);
		rc = write_in(dir, "report.md", write_tpl, &job, err);
		if (rc == 0) {
			snprintf(name, sizeof(name), "report.%s.html", b.w->lang);
			job.esc = PL_TPL_HTML;
			rc = write_in(dir, "report.html", write_tpl, &job, err);
		}
	}
	if (rc == 0) {
		char *path = pl_render_path(dir, "comparison.xlsx");
		rc = path ? pl_xlsx_write_bundle(path, cmp, runs, proc, opts->spec->sheets, opts->lang,
		                                   opts->epoch, err)
		          : pl_error_set(err, PL_ENOMEM, "out of memory");
		free(path);
	}
	if (rc == 0) {
		struct bytes bt = {opts->spec->bytes, opts->spec->nbytes};
		rc = write_in(dir, "definition.json", write_bytes, &bt, err);
	}
	if (rc == 0) {
		struct manifest_job mj = {&b, dir, err};
		rc = write_in(dir, "manifest.json", write_manifest, &mj, err);
	}
	free(charts);
	free(b.svg_sweep);
	free(b.svg_pareto);
	pl_tpl_ctx_free(b.ctx);
	if (rc == 0 && plot_rc != 0) {
		if (err)
			*err = plot_err;
		return plot_rc;
	}
	return rc;
}

static int same_file(const char *a, const char *b, int *same, struct pl_error *err)
{
	char *x, *y;
	size_t nx, ny;
	int rc = pl_read_file(a, &x, &nx, err);

	if (rc)
		return rc;
	rc = pl_read_file(b, &y, &ny, err);
	if (rc) {
		free(x);
		return rc;
	}
	*same = nx == ny && memcmp(x, y, nx) == 0;
	free(x);
	free(y);
	return 0;
}

int pl_bundle_compare(const char *bundle_dir, const char *fresh_dir, pl_bundle_diff_cb cb,
                      void *ctx, size_t *ndiff, struct pl_error *err)
{
	char **a = NULL, **f = NULL;
	size_t na = 0, nf = 0, i = 0, j = 0;
	int rc;

	*ndiff = 0;
	rc = list_dir(bundle_dir, &a, &na, err);
	if (rc == 0)
		rc = list_dir(fresh_dir, &f, &nf, err);
	while (rc == 0 && (i < na || j < nf)) {
		int c = i == na ? 1 : j == nf ? -1 : strcmp(a[i], f[j]);
		if (c < 0) {
			cb(ctx, a[i++], "unexpected");
			(*ndiff)++;
		} else if (c > 0) {
			cb(ctx, f[j++], "missing");
			(*ndiff)++;
		} else {
			char *pa = pl_render_path(bundle_dir, a[i]), *pf = pl_render_path(fresh_dir, f[j]);
			int same = 0;
			rc = pa && pf ? same_file(pa, pf, &same, err)
			              : pl_error_set(err, PL_ENOMEM, "out of memory");
			free(pa);
			free(pf);
			if (rc == 0 && !same) {
				cb(ctx, a[i], "differs");
				(*ndiff)++;
			}
			i++;
			j++;
		}
	}
	free_names(a, na);
	free_names(f, nf);
	return rc;
}
