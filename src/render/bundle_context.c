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
#include "render/words.h"
#include "render/render.h"
#include "render/render_impl.h"
#include "render/svg.h"
#include "render/template.h"

/* Copies fmt into out replacing each "%s" by the next of a, b, c (the
 * phrase tables hold only "%s" directives). */
void pl_bundle_subst(char *out, size_t n, const char *fmt, const char *a, const char *b,
                     const char *c)
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

char *pl_bundle_num(char *buf, size_t n, double v)
{
	if (isnan(v)) {
		snprintf(buf, n, "-");
		return buf;
	}
	return pl_fmt_sig4(buf, n, v);
}

char *pl_bundle_full(char *buf, size_t n, double v)
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
	for (size_t i = 0; i < b->cmp->caveats.n; i++) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "caveats");
		char *cav = pl_i18n_msg(&b->cmp->caveats.v[i], b->w->lang); /* i18n.h */
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

static int is_price_field(int id)
{
	return id == PL_C_PRICE_PER_HOUR || id == PL_C_PRICE_PER_MILLION_INPUT_TOKENS ||
	       id == PL_C_PRICE_PER_MILLION_OUTPUT_TOKENS;
}

/* The procurement group holding comparison row r, NULL if none. */
static const struct pl_procure_group *row_group(const struct bundle *b, size_t r)
{
	for (size_t g = 0; b->proc && g < b->proc->ngroups; g++)
		for (size_t i = 0; i < b->proc->groups[g].npoints; i++)
			if (b->proc->groups[g].points[i].row == r)
				return &b->proc->groups[g];
	return NULL;
}

/* The price the verdict used for row r's field id, worded as the table
 * shows it: the stored value when the runs' price was used, else the
 * definition's with the stored one beside it (the price used is the
 * price shown). NULL (no allocation) when id is no price field; for a
 * price field a heap string, NULL on out of memory. */
static char *price_cell(const struct bundle *b, size_t r, int id, const struct pl_value *v)
{
	const struct pl_procure_group *g;
	const char *stored = v->set && v->text ? v->text : "-";
	double used = NAN;
	char buf[64];
	struct pl_msg m;
	char *text;

	if (!is_price_field(id))
		return NULL;
	g = row_group(b, r);
	if (g && (g->price_source == 2 || g->price_source == 3)) {
		if (id == PL_C_PRICE_PER_HOUR && !g->token_priced)
			used = g->price_per_hour;
		else if (id == PL_C_PRICE_PER_MILLION_INPUT_TOKENS && g->token_priced)
			used = g->price_in_per_mtok;
		else if (id == PL_C_PRICE_PER_MILLION_OUTPUT_TOKENS && g->token_priced)
			used = g->price_out_per_mtok;
	}
	if (isnan(used) || (v->set && v->num == used))
		return strdup(stored);
	pl_msg_init(&m, v->set ? PL_MSG_VERDICT_PRICE_USED : PL_MSG_VERDICT_PRICE_USED_NONE);
	pl_msg_text(&m, pl_bundle_full(buf, sizeof(buf), used));
	if (v->set)
		pl_msg_text(&m, stored);
	text = m.oom ? NULL : pl_words_msg(&m, pl_words_lang(b->w->lang));
	pl_msg_release(&m);
	return text;
}

static int ctx_comparison(struct bundle *b)
{
	struct pl_tpl_ctx *c = b->ctx;
	const struct pl_comparison *cmp = b->cmp;
	char buf[64], label[1024];
	int rc = 0, any_ref = 0, vary[PL_COND_COUNT];
	size_t nvary = varying_fields(cmp, vary);

	rc |= pl_tpl_set_bool(c, "has_varying", nvary > 0);
	/* a few rows are read at a glance; a sweep's many rows are a detail
	 * the reader opens (the HTML collapses them, print opens them) */
	rc |= pl_tpl_set_bool(c, "varying_open", cmp->nrows <= 6);
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
			char *used = price_cell(b, r, vary[i], v);
			if (!vc || (!used && is_price_field(vary[i])))
				return PL_ENOMEM;
			rc |= pl_tpl_set(vc, "value", used ? used : v->set && v->text ? v->text : "-");
			free(used);
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
			if (row->n_metric[m] && row->implausible[m]) { /* marked, as the caveat says */
				char marked[96];
				snprintf(marked, sizeof(marked), "%s !", pl_bundle_num(buf, sizeof(buf), row->metric[m]));
				rc |= pl_tpl_set(cell, "value", marked);
			} else {
				rc |= pl_tpl_set(cell, "value",
				                 row->n_metric[m] ? pl_bundle_num(buf, sizeof(buf), row->metric[m]) : "-");
			}
			rc |= pl_tpl_set(cell, "sort",
			                 row->n_metric[m] ? pl_bundle_full(buf, sizeof(buf), row->metric[m]) : "");
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

/* A price with the definition's currency: "USD 8/h" or "USD 0.6 in /
 * 0.8 out per 1M tokens"; "-" when unknown. */
void pl_bundle_price_text(const struct bundle *b, int per_token, double hour, double in,
                          double out, char *dst, size_t n)
{
	const char *cur = b->o->spec->currency ? b->o->spec->currency : "";
	char x[64], y[64];

	if (per_token && !isnan(in) && !isnan(out))
		pl_bundle_subst(dst, n, b->w->per_mtok, cur, pl_bundle_full(x, sizeof(x), in), pl_bundle_full(y, sizeof(y), out));
	else if (!per_token && !isnan(hour))
		pl_bundle_subst(dst, n, b->w->per_hour, cur, pl_bundle_full(x, sizeof(x), hour), NULL);
	else
		snprintf(dst, n, "-");
	if (!*cur && dst[0] == ' ') /* no currency (runs' prices, no table) */
		memmove(dst, dst + 1, strlen(dst));
}

/* A figure of the verdict, "≤ 1.080" / "≥ 540.0" when it is a bound
 * (code AT_MOST / AT_LEAST; PL_MSG_NONE: as it is). "-" when unknown. */
static int set_bounded(struct pl_tpl_ctx *it, const char *key, double v, enum pl_msg_code bound,
                       enum pl_lang lang)
{
	char buf[64], *text;
	struct pl_msg m;
	int rc;

	pl_bundle_num(buf, sizeof(buf), v);
	if (bound == PL_MSG_NONE || isnan(v))
		return pl_tpl_set(it, key, buf);
	pl_msg_init(&m, bound);
	pl_msg_text(&m, buf);
	text = m.oom ? NULL : pl_words_msg(&m, lang);
	pl_msg_release(&m);
	rc = text ? pl_tpl_set(it, key, text) : PL_ENOMEM;
	free(text);
	return rc;
}

int pl_bundle_set_bounded(struct pl_tpl_ctx *it, const char *key, double v,
                          enum pl_msg_code bound, enum pl_lang lang)
{
	char sort_key[64], buf[64];
	int rc = set_bounded(it, key, v, bound, lang);

	snprintf(sort_key, sizeof(sort_key), "%s_sort", key);
	return rc | pl_tpl_set(it, sort_key, pl_bundle_full(buf, sizeof(buf), v));
}

/* The reference-only runs of row r: the union of what they lack. */
static unsigned row_missing(const struct bundle *b, size_t r)
{
	const struct pl_compare_row *row = &b->cmp->rows[r];
	unsigned m = 0;

	for (size_t i = 0; i < row->n && row->run_ids; i++)
		for (size_t k = 0; b->runs && k < b->runs->n; k++)
			if (b->runs->v[k].id == row->run_ids[i])
				m |= b->runs->v[k].checklist_missing;
	return m;
}

/* The row a caveat of the comparison is about: a reference-only caveat
 * carries its row's index ({5} of PL_MSG_CAV_REFERENCE_ONLY); -1 for the
 * others. */
static long caveat_row(const struct pl_comparison *cmp, const struct pl_msg *m)
{
	if (m->code == PL_MSG_CAV_REFERENCE_ONLY && m->nargs >= 5 && m->args[4].kind == PL_MA_INT &&
	    m->args[4].i >= 0 && (unsigned long long)m->args[4].i < cmp->nrows)
		return (long)m->args[4].i;
	return -1;
}

/* Caveats, one box per distinct caveat with the rows it applies to: the
 * reference-only rows grouped by what their runs lack (in the report's
 * language), then the comparison's other caveats, rows with the same text
 * together. */
static int ctx_caveats(struct bundle *b)
{
	struct pl_tpl_ctx *c = b->ctx;
	const struct pl_comparison *cmp = b->cmp;
	unsigned *miss;
	unsigned char *done;
	char **cavs; /* the caveats worded in the report's language */
	char label[1024], line[1024], x[32], y[32];
	int rc = 0;

	rc |= pl_tpl_set_list(c, "caveat_boxes");
	miss = calloc(cmp->nrows ? cmp->nrows : 1, sizeof(*miss));
	done = calloc(cmp->nrows + cmp->caveats.n + 1, 1);
	cavs = calloc(cmp->caveats.n + 1, sizeof(*cavs));
	for (size_t i = 0; cavs && i < cmp->caveats.n; i++)
		if (!(cavs[i] = pl_i18n_msg(&cmp->caveats.v[i], b->w->lang)))
			rc = PL_ENOMEM;
	if (!miss || !done || !cavs || rc) {
		for (size_t i = 0; cavs && i < cmp->caveats.n; i++)
			free(cavs[i]);
		free(cavs);
		free(miss);
		free(done);
		return PL_ENOMEM;
	}
	for (size_t r = 0; r < cmp->nrows; r++)
		if (cmp->rows[r].reference_only > 0)
			miss[r] = row_missing(b, r);
	for (size_t r = 0; r < cmp->nrows && rc == 0; r++) {
		struct pl_tpl_ctx *box;
		size_t at = 0;
		if (!miss[r] || done[r])
			continue;
		line[0] = '\0';
		for (int k = 0; k < PL_CHK_COUNT && at < sizeof(line); k++)
			if (miss[r] & (1u << k))
				at += (size_t)snprintf(line + at, sizeof(line) - at, "%s%s",
				                       at ? b->w->list_sep : "", b->w->checklist[k]);
		box = pl_tpl_add_item(c, "caveat_boxes");
		if (!box)
			break;
		{
			char text[1200];
			pl_bundle_subst(text, sizeof(text), b->w->ref_caveat, line, NULL, NULL);
			rc |= pl_tpl_set(box, "text", text);
		}
		rc |= pl_tpl_set_list(box, "applies");
		for (size_t q = r; q < cmp->nrows; q++) {
			struct pl_tpl_ctx *e;
			if (miss[q] != miss[r] || done[q])
				continue;
			done[q] = 1;
			snprintf(x, sizeof(x), "%zu", cmp->rows[q].reference_only);
			snprintf(y, sizeof(y), "%zu", cmp->rows[q].n);
			pl_bundle_subst(line, sizeof(line), b->w->ref_rows, x, y, NULL);
			e = pl_tpl_add_item(box, "applies");
			rc |= e ? pl_tpl_set(e, "label", pl_compare_row_label(cmp, q, label, sizeof(label))) |
			              pl_tpl_set(e, "detail", line)
			        : PL_ENOMEM;
		}
		rc |= pl_tpl_set_bool(box, "has_applies", 1);
	}
	for (size_t i = 0; i < cmp->caveats.n && rc == 0; i++) {
		const char *rest = cavs[i];
		long row = caveat_row(cmp, &cmp->caveats.v[i]);
		struct pl_tpl_ctx *box;
		if (done[cmp->nrows + i])
			continue;
		if (row >= 0 && miss[row])
			continue; /* said above, grouped by what the runs lack */
		box = pl_tpl_add_item(c, "caveat_boxes");
		if (!box)
			break;
		rc |= pl_tpl_set(box, "text", rest);
		rc |= pl_tpl_set_bool(box, "has_applies", row >= 0);
		rc |= pl_tpl_set_list(box, "applies");
		for (size_t j = i; j < cmp->caveats.n; j++) {
			long row2 = caveat_row(cmp, &cmp->caveats.v[j]);
			struct pl_tpl_ctx *e;
			if (done[cmp->nrows + j] || strcmp(rest, cavs[j]) != 0 || (row < 0) != (row2 < 0))
				continue;
			done[cmp->nrows + j] = 1;
			if (row2 < 0)
				continue;
			e = pl_tpl_add_item(box, "applies");
			rc |= e ? pl_tpl_set(e, "label",
			                     pl_compare_row_label(cmp, (size_t)row2, label, sizeof(label))) |
			              pl_tpl_set(e, "detail", "")
			        : PL_ENOMEM;
		}
	}
	for (size_t i = 0; i < cmp->caveats.n; i++)
		free(cavs[i]);
	free(cavs);
	free(miss);
	free(done);
	return rc ? PL_ENOMEM : 0;
}

static int ctx_procurement(struct bundle *b)
{
	struct pl_tpl_ctx *c = b->ctx;
	const struct pl_procurement *p = b->proc;
	char buf[64], b2[64], b3[64], slo[256] = "";
	size_t len = 0;
	int rc = 0;
	enum pl_lang lang = pl_words_lang(b->w->lang);

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
	if (p->mixed)
		rc |= pl_tpl_setf(c, "load_name", "%s / %s", b->w->load_concurrency, b->w->load_rate);
	else
		rc |= pl_tpl_set(c, "load_name",
		                 p->load == PL_C_REQUEST_RATE ? b->w->load_rate : b->w->load_concurrency);
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
		if (p->mixed) /* the offer and its kind of sweep */
			rc |= pl_tpl_setf(it, "label", "%s (%s)", gr->label,
			                  pl_word(gr->load == PL_C_REQUEST_RATE ? PL_MSG_VERDICT_KIND_OPEN
			                                                        : PL_MSG_VERDICT_KIND_CLOSED,
			                          lang));
		else
			rc |= pl_tpl_set(it, "label", gr->label);
		rc |= pl_tpl_set(it, "accelerators", pl_bundle_full(buf, sizeof(buf), gr->accelerators));
		{
			char pr[200];
			pl_bundle_price_text(b, gr->token_priced, gr->price_per_hour, gr->price_in_per_mtok,
			                     gr->price_out_per_mtok, pr, sizeof(pr));
			rc |= pl_tpl_set(it, "price", gr->price_conflict ? "-" : pr);
		}
		rc |= pl_tpl_set_bool(it, "token_priced", gr->token_priced);
		rc |= pl_tpl_set(it, "price_per_acc", pl_bundle_num(buf, sizeof(buf), gr->price_per_acc_hour));
		rc |= pl_tpl_set(it, "price_source",
		                 gr->price_conflict      ? b->w->price_conflict
		                 : gr->price_source == 1 ? b->w->price_runs
		                 : gr->price_source == 2 ? b->w->price_table
		                 : gr->price_source == 3 ? b->w->price_override
		                                         : b->w->price_none);
		rc |= pl_tpl_set(it, "peak", pl_bundle_num(buf, sizeof(buf), gr->peak_throughput));
		rc |= pl_tpl_set(it, "peak_sort", pl_bundle_full(buf, sizeof(buf), gr->peak_throughput));
		rc |= pl_tpl_set(it, "peak_concurrency", pl_bundle_full(buf, sizeof(buf), gr->peak_concurrency));
		rc |= pl_bundle_set_bounded(it, "slo_throughput", gr->slo.throughput,
		                            gr->lower_bound ? PL_MSG_VERDICT_AT_LEAST : PL_MSG_NONE, lang);
		rc |= pl_bundle_set_bounded(it, "slo_per_acc", gr->slo_throughput_per_acc,
		                            gr->lower_bound ? PL_MSG_VERDICT_AT_LEAST : PL_MSG_NONE, lang);
		rc |= pl_bundle_set_bounded(it, "slo_cost", gr->slo_cost_per_mtok,
		                            gr->cost_upper_bound ? PL_MSG_VERDICT_AT_MOST : PL_MSG_NONE, lang);
		rc |= pl_tpl_set(it, "goodput", pl_bundle_num(buf, sizeof(buf), gr->goodput));
		if (p->slo.n == 0)
			snprintf(how, sizeof(how), "%s", b->w->no_slo);
		else if (gr->slo.status == PL_SLO_MEASURED)
			pl_bundle_subst(how, sizeof(how), bundle_words(b, gr)->measured, pl_bundle_full(buf, sizeof(buf), gr->slo.concurrency), NULL,
			                NULL);
		else if (gr->slo.status == PL_SLO_INTERPOLATED)
			pl_bundle_subst(how, sizeof(how), bundle_words(b, gr)->interpolated,
			                pl_bundle_full(buf, sizeof(buf), gr->slo.lo_concurrency),
			                pl_bundle_full(b2, sizeof(b2), gr->slo.hi_concurrency),
			                pl_bundle_num(b3, sizeof(b3), gr->slo.concurrency));
		else if (gr->usable == 0)
			snprintf(how, sizeof(how), "%s", pl_word(PL_MSG_VERDICT_FLAG_NOT_EVALUABLE, lang));
		else
			snprintf(how, sizeof(how), "%s", bundle_words(b, gr)->none);
		rc |= pl_tpl_set(it, "slo_how", how);
		rc |= pl_tpl_set_bool(it, "interpolated", gr->slo.status == PL_SLO_INTERPOLATED);
		rc |= pl_tpl_set_list(it, "points");
		for (size_t i = 0; i < gr->npoints; i++) {
			const struct pl_procure_point *pt = &gr->points[i];
			struct pl_tpl_ctx *pi = pl_tpl_add_item(it, "points");
			if (!pi)
				return PL_ENOMEM;
			rc |= pl_tpl_set(pi, "concurrency", pl_bundle_full(buf, sizeof(buf), pt->concurrency));
			rc |= pl_tpl_set(pi, "throughput", pl_bundle_num(buf, sizeof(buf), pt->throughput));
			rc |= pl_tpl_set(pi, "per_acc", pl_bundle_num(buf, sizeof(buf), pt->throughput_per_acc));
			rc |= pl_tpl_set(pi, "interactivity", pl_bundle_num(buf, sizeof(buf), pt->interactivity));
			rc |= pl_tpl_set(pi, "cost", pl_bundle_num(buf, sizeof(buf), pt->cost_per_mtok));
			rc |= pl_tpl_set(pi, "meets", pt->meets_slo == 1 ? "✓" : pt->meets_slo == 0 ? "✗" : "-");
			rc |= pl_tpl_set(pi, "pareto", pt->pareto ? "●" : "");
		}
	}
	return rc ? PL_ENOMEM : 0;
}

int pl_bundle_context(struct bundle *b)
{
	return ctx_header(b) || pl_bundle_ctx_identity(b) || ctx_comparison(b) ||
	       ctx_procurement(b) || pl_bundle_ctx_verdict(b) || ctx_caveats(b) || pl_bundle_ctx_runs(b);
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
