/*
 * bundle_context.c — the template context of a bundle: one context feeds
 * both report.md and report.html (templates/report.LANG.md / .html).
 *
 * Sections: the header (title, version, the one timestamp), the selection
 * and the shared condition key, the comparison rows with their spread and
 * caveats, the procurement groups (derived figures, labelled as such, and
 * how each SLO figure was found), and the runs with their publication
 * checklist, sources and hashes. The charts' entries are added by
 * bundle_charts.c. Numbers are formatted here, in the C locale.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/bundle_impl.h"
#include "render/i18n.h"
#include "render/render.h"
#include "render/render_impl.h"
#include "render/template.h"

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

int pl_bundle_run_in_cmp(const struct pl_comparison *cmp, long long id)
{
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t i = 0; i < cmp->rows[r].n && cmp->rows[r].run_ids; i++)
			if (cmp->rows[r].run_ids[i] == id)
				return 1;
	return 0;
}

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
		char *cav = pl_i18n_caveat(b->cmp->caveats[i], b->w->lang); /* zh-CN: i18n.h */
		rc |= it && cav ? pl_tpl_set(it, "text", cav) : PL_ENOMEM;
		free(cav);
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
		if (!pl_bundle_run_in_cmp(b->cmp, run->id))
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

int pl_bundle_context(struct bundle *b)
{
	return ctx_header(b) || ctx_comparison(b) || ctx_procurement(b) || ctx_runs(b);
}

/* ------------------------------------------------ the default definition */

/* The context of report.axis.md, the template of `report --axis` (the
 * built-in default definition): title, selection, shared conditions, the
 * comparison table as Markdown (table.c), the reference-only runs, the
 * gnuplot charts and the runs. Names perfledger owns (conditions, chart
 * files, checklist items, the version) are inserted as they are; every
 * text from an input file or the command line is escaped by the template. */
int pl_bundle_axis_context(struct bundle *b, const struct pl_chart *charts, size_t ncharts,
                           struct pl_error *err)
{
	const struct pl_comparison *cmp = b->cmp;
	const struct pl_report_spec *s = b->o->spec;
	struct pl_tpl_ctx *c = b->ctx;
	char *table = NULL, line[512];
	size_t len = 0, at = 0;
	FILE *f;
	int rc = 0, any = 0;

	if (s->title_en && *s->title_en) {
		rc |= pl_tpl_set(c, "title", s->title_en);
	} else {
		at = (size_t)snprintf(line, sizeof(line), "Comparison by ");
		for (size_t i = 0; i < cmp->naxis && at < sizeof(line); i++)
			if (cmp->axis[i] >= 0 && cmp->axis[i] < PL_COND_COUNT)
				at += (size_t)snprintf(line + at, sizeof(line) - at, "%s%s", i ? ", " : "",
				                       pl_cond_info[cmp->axis[i]].name);
		rc |= pl_tpl_set_raw(c, "title", line);
	}
	rc |= pl_tpl_set_raw(c, "tool_version", b->o->tool_version ? b->o->tool_version : PL_VERSION);
	rc |= pl_tpl_set_list(c, "filters");
	for (size_t i = 0; i < s->nwhere; i++) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "filters");
		rc |= it ? pl_tpl_set(it, "text", s->where[i]) : PL_ENOMEM;
	}
	rc |= pl_tpl_setf(c, "nruns", "%zu", cmp->nruns);
	rc |= pl_tpl_set_list(c, "shared");
	for (int id = 0; id < PL_COND_COUNT; id++) {
		struct pl_tpl_ctx *it;
		if (!cmp->shared[id].set || pl_render_is_axis(cmp, id))
			continue;
		it = pl_tpl_add_item(c, "shared");
		rc |= it ? pl_tpl_set_raw(it, "field", pl_cond_info[id].name) |
		               pl_tpl_set(it, "value", cmp->shared[id].text)
		         : PL_ENOMEM;
	}
	for (size_t i = 0; i < cmp->nshared_extra; i++) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "shared");
		rc |= it ? pl_tpl_set(it, "field", cmp->shared_extra[i].name) |
		               pl_tpl_set(it, "value", cmp->shared_extra[i].value)
		         : PL_ENOMEM;
	}
	for (size_t r = 0; r < cmp->nrows; r++)
		if (cmp->rows[r].reference_only > 0)
			any = 1;
	rc |= pl_tpl_set_bool(c, "has_reference_only", any);
	rc |= pl_tpl_set_list(c, "reference_only_runs");
	for (size_t i = 0; any && b->runs && i < b->runs->n; i++) {
		const struct pl_run *run = &b->runs->v[i];
		struct pl_tpl_ctx *it;
		if (!run->checklist_missing || !pl_bundle_run_in_cmp(cmp, run->id))
			continue;
		it = pl_tpl_add_item(c, "reference_only_runs");
		if (!it) {
			rc |= PL_ENOMEM;
			break;
		}
		line[0] = '\0';
		at = 0;
		for (int k = 0; k < PL_CHK_COUNT && at < sizeof(line); k++)
			if (run->checklist_missing & (1u << k))
				at += (size_t)snprintf(line + at, sizeof(line) - at, "%s%s", at ? ", " : "",
				                       pl_checklist_item(k));
		rc |= pl_tpl_setf(it, "id", "%lld", run->id);
		rc |= pl_tpl_set(it, "source", run->source ? run->source : "-");
		rc |= pl_tpl_set_raw(it, "missing", line);
	}
	rc |= pl_tpl_set_bool(c, "has_charts", ncharts > 0);
	rc |= pl_tpl_set_list(c, "charts");
	for (size_t i = 0; i < ncharts; i++) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "charts");
		rc |= it ? pl_tpl_set_raw(it, "title", charts[i].title) |
		               pl_tpl_set_raw(it, "name", charts[i].name) |
		               pl_tpl_set_bool(it, "rendered", charts[i].rendered)
		         : PL_ENOMEM;
	}
	rc |= pl_tpl_set_list(c, "runs");
	for (size_t i = 0; b->runs && i < b->runs->n; i++) {
		const struct pl_run *run = &b->runs->v[i];
		struct pl_tpl_ctx *it;
		if (!pl_bundle_run_in_cmp(cmp, run->id))
			continue;
		it = pl_tpl_add_item(c, "runs");
		rc |= it ? pl_tpl_setf(it, "id", "%lld", run->id) |
		               pl_tpl_set(it, "source", run->source ? run->source : "-") |
		               pl_tpl_set(it, "sha256", run->sha256[0] ? run->sha256 : "-")
		         : PL_ENOMEM;
	}
	if (rc)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	/* the comparison table as `compare --format markdown` writes it; its
	 * last line end is the template's */
	f = open_memstream(&table, &len);
	if (!f)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = pl_render_comparison(f, cmp, PL_FMT_MARKDOWN, err);
	if (fclose(f) != 0 && rc == 0)
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc == 0) {
		if (len > 0 && table[len - 1] == '\n')
			table[len - 1] = '\0';
		if (pl_tpl_set_raw(c, "table", table))
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	free(table);
	return rc;
}
