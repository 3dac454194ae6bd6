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
 *
 * This file holds the language tables and pl_bundle_write, which decides
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
#include "render/xlsx.h"


static const struct words words_en = {
	"en",
	"Output throughput vs concurrency", "concurrency (log2)", "output throughput (tok/s)",
	"Interactivity vs throughput per accelerator (labels: concurrency; rings: Pareto front)",
	"output throughput per accelerator (tok/s)",
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
	"Output throughput vs request rate", "request rate (req/s, log2)",
	"measured at request rate %s req/s",
	"interpolated between request rate %s and %s req/s (at %s)",
	"no measured request rate meets the SLO",
	"concurrency", "request rate (req/s)",
	"concurrency", "request rate",
	"lower bound", "single point", "interpolated", "reference-only",
	"lower bound: the SLO figure rests on one usable point",
	"lower bound: the highest %s measured (%s) still meets the SLO",
	"%s of %s points lack the throughput, the load or a metric the SLO limits: not used",
	"no accelerator count: no figure per accelerator",
	"no price in the definition or the runs: no cost",
	"the runs' prices disagree: no cost",
	"price %s from the definition replaces %s stored with the runs",
	"price %s from the definition (the runs store the same)",
	"from the definition's price table, replacing the runs' price",
	"reference-only: the runs lack %s",
	"%s of %s runs",
	"%s %s/h", "%s %s in / %s out per 1M tokens",
	"The definition's price for '%s' names the hardware of no row of this selection: not used.",
	", ",
	"The costs use the prices stored with the runs, which name no currency; a definition names it with \"currency\" (and its \"prices\" win over the runs').",
	"The sweep chart is not drawn: it needs concurrency or request_rate on the axis.",
	"%s: %s points not drawn in the sweep chart (load infinite, i.e. all requests at once, or unknown)",
	"c=%s",
	"%s vs output throughput per offer (labels: concurrency; dashed: SLO limit)",
	"output throughput (tok/s)",
	"SLO: %s ≤ %s s",
	"Cost per 1M output tokens at the SLO, lowest first", "cost per 1M output tokens at the SLO",
	"no price", "no point meets the SLO",
	"%s (%s), median of each row's runs",
	", lower is better", ", higher is better",
	"seconds", "tokens/s",
	"r=%s",
	"%s vs output throughput per offer (labels: request rate in req/s; dashed: SLO limit)",
	"Interactivity vs throughput per accelerator (labels: request rate in req/s; rings: Pareto front)",
	"%s (%s)", "currency not named",
};

static const struct words words_zh = {
	"zh-CN",
	"输出吞吐量与并发数", "并发数（log2）", "输出吞吐量（tok/s）",
	"交互性与单卡吞吐量（标注：并发数；圆环：帕累托前沿）", "单卡输出吞吐量（tok/s）",
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
	"输出吞吐量与请求速率", "请求速率（req/s，log2）",
	"在请求速率 %s req/s 实测",
	"在请求速率 %s 与 %s req/s 之间插值（约 %s）",
	"没有任何实测请求速率满足 SLO",
	"并发数", "请求速率（req/s）",
	"并发数", "请求速率",
	"下限", "单点", "插值", "仅供参考",
	"下限：SLO 数值仅基于一个可用测量点",
	"下限：实测的最高%s（%s）仍满足 SLO",
	"%s / %s 个测量点缺少吞吐量、负载或 SLO 所限指标：未使用",
	"无加速器数量：无单卡数值",
	"报告定义和运行记录中均无价格：无成本",
	"运行记录之间价格不一致：无成本",
	"报告定义中的价格 %s 取代运行记录中的 %s",
	"价格 %s 来自报告定义（运行记录中的价格相同）",
	"来自报告定义的价格表，取代运行记录中的价格",
	"仅供参考：运行记录缺少%s",
	"%s / %s 次运行",
	"%s %s/小时", "每百万 token：输入 %s %s / 输出 %s",
	"报告定义中“%s”的价格不对应本次选择中任何一行的硬件：未使用。",
	"、",
	"成本使用运行记录中保存的价格，其中未注明货币；报告定义可用 \"currency\" 注明（其 \"prices\" 优先于运行记录中的价格）。",
	"未绘制吞吐量扫描图：轴上需要有 concurrency 或 request_rate。",
	"%s：%s 个测量点未在扫描图中绘制（负载为无穷大即一次性发出全部请求，或未知）",
	"c=%s",
	"各方案的 %s 与输出吞吐量（标注：并发数；虚线：SLO 上限）",
	"输出吞吐量（tok/s）",
	"SLO：%s ≤ %s 秒",
	"满足 SLO 时每百万输出 token 的成本（由低到高）", "满足 SLO 时每百万输出 token 的成本",
	"无价格", "没有任何点满足 SLO",
	"%s（%s），各行运行记录的中位数",
	"，越低越好", "，越高越好",
	"秒", "tok/s",
	"r=%s",
	"各方案的 %s 与输出吞吐量（标注：请求速率 req/s；虚线：SLO 上限）",
	"交互性与单卡吞吐量（标注：请求速率 req/s；圆环：帕累托前沿）",
	"%s（%s）", "未注明货币",
};

int pl_bundle_lang_ok(const char *lang)
{
	return lang && (strcmp(lang, "en") == 0 || strcmp(lang, "zh-CN") == 0);
}

static const struct words *words_for(const char *lang)
{
	return lang && strcmp(lang, "zh-CN") == 0 ? &words_zh : &words_en;
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
	struct words rate_words;
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
	if (proc && proc->load == PL_C_REQUEST_RATE) {
		/* an open-loop sweep: its load is the request rate, and the
		 * sweep chart and the SLO texts say so */
		rate_words = *b.w;
		rate_words.sweep_title = rate_words.sweep_title_rate;
		rate_words.sweep_x = rate_words.sweep_x_rate;
		rate_words.measured = rate_words.measured_rate;
		rate_words.interpolated = rate_words.interpolated_rate;
		rate_words.none = rate_words.none_rate;
		rate_words.point_label = rate_words.point_label_rate;
		rate_words.latency_title = rate_words.latency_title_rate;
		rate_words.pareto_title = rate_words.pareto_title_rate;
		b.w = &rate_words;
	}
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
		char *path = pl_fs_path(dir, "comparison.xlsx");
		struct pl_xlsx_verdict v = {opts->spec->currency, b.offer_order,
		                            (const char *const *)b.offer_flags,
		                            (const char *const *)b.offer_notes, b.bundle_id,
		                            b.how_to_check};
		if (!proc || b.noffers != proc->ngroups) /* no verdict drawn: the groups' order */
			v.order = NULL, v.flags = v.notes = NULL;
		rc = path ? pl_xlsx_write_bundle(path, cmp, runs, proc, &v, opts->spec->sheets, opts->lang,
		                                   opts->epoch, err)
		          : pl_error_set(err, PL_ENOMEM, "out of memory");
		free(path);
	}
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
