/*
 * bundle_verdict.c — the verdict section of a bundle's template context
 * (bundle_context.c builds the rest): one table per kind of sweep, one row
 * per offer ranked by cost at the SLO, with its flags and a note for every
 * figure it lacks and why; the same flags and notes kept for the workbook's
 * verdict sheet. Numbers are formatted in the C locale.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/bundle_impl.h"
#include "render/i18n.h"
#include "render/words.h"
#include "render/render.h"
#include "render/render_impl.h"
#include "render/svg.h"
#include "render/template.h"

/* Order of the verdict: cost per 1M output tokens at the SLO, lowest
 * first, unknown last; then SLO throughput per accelerator, highest
 * first; then the label. */
static int cmp_offer(const void *a, const void *b)
{
	const struct pl_procure_group *x = *(const struct pl_procure_group *const *)a;
	const struct pl_procure_group *y = *(const struct pl_procure_group *const *)b;
	int nx = isnan(x->slo_cost_per_mtok), ny = isnan(y->slo_cost_per_mtok);

	/* one verdict per kind of sweep: the closed-loop table first */
	if (x->load != y->load)
		return (x->load == PL_C_REQUEST_RATE) - (y->load == PL_C_REQUEST_RATE);
	if (nx != ny)
		return nx - ny;
	if (!nx && x->slo_cost_per_mtok != y->slo_cost_per_mtok)
		return x->slo_cost_per_mtok < y->slo_cost_per_mtok ? -1 : 1;
	nx = isnan(x->slo_throughput_per_acc);
	ny = isnan(y->slo_throughput_per_acc);
	if (nx != ny)
		return nx - ny;
	if (!nx && x->slo_throughput_per_acc != y->slo_throughput_per_acc)
		return x->slo_throughput_per_acc > y->slo_throughput_per_acc ? -1 : 1;
	return strcmp(x->label, y->label);
}

static int add_text(struct pl_tpl_ctx *it, const char *list, const char *text)
{
	struct pl_tpl_ctx *e = pl_tpl_add_item(it, list);

	return e ? pl_tpl_set(e, "text", text) : PL_ENOMEM;
}

/* add_text, and text appended to joined (size n) after "; " (the
 * Markdown table's one cell). */
static int add_joined(struct pl_tpl_ctx *it, const char *list, const char *text, char *joined,
                      size_t n)
{
	size_t len = strlen(joined);

	snprintf(joined + len, n - len, "%s%s", len ? "; " : "", text);
	return add_text(it, list, text);
}

/* add_joined with message m worded in lang (m released). */
static int add_msg(struct pl_tpl_ctx *it, const char *list, struct pl_msg *m, enum pl_lang lang,
                   char *joined, size_t n)
{
	char *text = m->oom ? NULL : pl_words_msg(m, lang);
	int rc = text ? add_joined(it, list, text, joined, n) : PL_ENOMEM;

	free(text);
	pl_msg_release(m);
	return rc;
}

/* The load word of group g (its kind of sweep's) as a code. */
static enum pl_msg_code load_word(const struct pl_procure_group *g)
{
	return g->load == PL_C_REQUEST_RATE ? PL_MSG_VERDICT_LOAD_RATE : PL_MSG_VERDICT_LOAD_CONCURRENCY;
}

/* The load field of group g, for what its runs lack. */
static int group_load(const struct pl_procure_group *g)
{
	return g->load >= 0 ? g->load : PL_C_CONCURRENCY;
}

/* Notes of g saying what its SLO figure rests on: each limit judged
 * through a higher percentile, each point not evaluable and why, and
 * (no evaluable point) what exactly the runs lack. */
static int evaluable_notes(const struct bundle *b, const struct pl_procure_group *g,
                           struct pl_tpl_ctx *it, char *nt, size_t ntn, enum pl_lang lang)
{
	const struct pl_procurement *p = b->proc;
	const struct pl_slo *slo = &p->slo;
	char buf[64];
	const char *lack[PL_SLO_MAX + 2];
	size_t nlack = 0;
	int rc = 0;
	struct pl_msg m;

	for (size_t k = 0; k < slo->n; k++) {
		if (g->bound_metric[k] == PL_M_NONE)
			continue;
		pl_msg_init(&m, PL_MSG_VERDICT_BOUNDED_BY);
		pl_msg_field(&m, pl_metric_info[slo->metric[k]].name);
		pl_msg_field(&m, pl_metric_info[g->bound_metric[k]].name);
		pl_msg_num(&m, g->bound_value[k]);
		pl_msg_num(&m, slo->limit[k]);
		pl_msg_code_arg(&m, load_word(g));
		pl_msg_text(&m, pl_bundle_full(buf, sizeof(buf), g->bound_load[k]));
		rc |= add_msg(it, "notes", &m, lang, nt, ntn);
	}
	for (size_t k = 0; k < slo->n; k++)
		if (g->lack & (1u << k))
			lack[nlack++] = pl_metric_info[slo->metric[k]].name;
	if (g->lack & PL_LACK_THROUGHPUT)
		lack[nlack++] = pl_metric_info[PL_M_OUTPUT_THROUGHPUT].name;
	if (g->lack & PL_LACK_LOAD)
		lack[nlack++] = pl_cond_info[group_load(g)].name;
	if (g->usable > 0) {
		if (g->slo.skipped == 0)
			return rc;
		pl_msg_init(&m, PL_MSG_VERDICT_SKIPPED);
		pl_msg_int(&m, (long long)g->slo.skipped);
		pl_msg_int(&m, (long long)g->npoints);
		pl_msg_list(&m, lack, nlack);
		return rc | add_msg(it, "notes", &m, lang, nt, ntn);
	}
	/* nothing evaluable: name each missing metric (with what its family
	 * records) and each missing throughput or load */
	for (size_t k = 0; k < slo->n; k++) {
		const char *have[PL_METRIC_COUNT];
		size_t nhave = 0;
		int fam = slo->metric[k] - (int)(pl_metric_info[slo->metric[k]].stat - PL_S_MEAN);
		if (!(g->lack & (1u << k)))
			continue;
		if (pl_metric_info[slo->metric[k]].stat >= PL_S_MEAN)
			for (int f = fam; f <= fam + (int)(PL_S_P999 - PL_S_MEAN) && f < PL_METRIC_COUNT; f++) {
				int any = 0;
				if (f == slo->metric[k] || pl_metric_info[f].stat == PL_S_STD)
					continue;
				for (size_t i = 0; i < g->npoints; i++)
					any |= b->cmp->rows[g->points[i].row].n_metric[f] != 0;
				if (any)
					have[nhave++] = pl_metric_info[f].name;
			}
		pl_msg_init(&m, nhave ? PL_MSG_VERDICT_NOT_EVALUABLE_METRIC : PL_MSG_VERDICT_NOT_EVALUABLE_NONE);
		if (nhave)
			pl_msg_list(&m, have, nhave);
		pl_msg_field(&m, pl_metric_info[slo->metric[k]].name);
		rc |= add_msg(it, "notes", &m, lang, nt, ntn);
	}
	if (g->lack & PL_LACK_THROUGHPUT) {
		pl_msg_init(&m, PL_MSG_VERDICT_NOT_EVALUABLE_NONE);
		pl_msg_field(&m, pl_metric_info[PL_M_OUTPUT_THROUGHPUT].name);
		rc |= add_msg(it, "notes", &m, lang, nt, ntn);
	}
	if (g->lack & PL_LACK_LOAD) {
		pl_msg_init(&m, PL_MSG_VERDICT_NOT_EVALUABLE_NONE);
		pl_msg_field(&m, pl_cond_info[group_load(g)].name);
		rc |= add_msg(it, "notes", &m, lang, nt, ntn);
	}
	return rc;
}

/* Notes of g's failed loads (procure.h: failed runs). */
static int failed_notes(const struct bundle *b, const struct pl_procure_group *g,
                        struct pl_tpl_ctx *it, char *nt, size_t ntn, enum pl_lang lang)
{
	(void)b;
	char bufs[8][32], buf[64], b2[64];
	const char *loads[8];
	size_t nl = 0;
	double above = NAN;
	int rc;
	struct pl_msg m;

	if (!g->nfailed_loads)
		return 0;
	for (size_t i = 0; i < g->nfailed_loads && nl < 8; i++) {
		loads[nl] = isnan(g->failed_loads[i]) ? "?" : pl_bundle_full(bufs[nl], sizeof(bufs[nl]), g->failed_loads[i]);
		nl++;
	}
	pl_msg_init(&m, PL_MSG_VERDICT_FAILS_AT);
	pl_msg_code_arg(&m, load_word(g));
	pl_msg_list(&m, loads, nl);
	pl_msg_int(&m, (long long)g->nfailed_runs);
	rc = add_msg(it, "notes", &m, lang, nt, ntn);
	if (g->slo.status == PL_SLO_NONE_MEETS)
		return rc;
	if (g->fails_below_slo) {
		pl_msg_init(&m, PL_MSG_VERDICT_FAILS_BELOW);
		pl_msg_code_arg(&m, load_word(g));
		pl_msg_text(&m, pl_bundle_full(buf, sizeof(buf), g->failed_loads[0]));
		pl_msg_text(&m, pl_bundle_full(b2, sizeof(b2), g->slo.concurrency));
		rc |= add_msg(it, "notes", &m, lang, nt, ntn);
	}
	for (size_t i = 0; i < g->nfailed_loads; i++)
		if (g->failed_loads[i] > g->slo.concurrency && isnan(above))
			above = g->failed_loads[i];
	if (!isnan(above)) {
		pl_msg_init(&m, PL_MSG_VERDICT_NO_BOUND_FAILED);
		pl_msg_code_arg(&m, load_word(g));
		pl_msg_text(&m, pl_bundle_full(buf, sizeof(buf), above));
		rc |= add_msg(it, "notes", &m, lang, nt, ntn);
	}
	return rc;
}

/* The verdict's heads: whether there is one, its currency and cost unit,
 * and its empty lists. Returns 0 or nonzero (out of memory). */
static int verdict_heads(struct bundle *b)
{
	struct pl_tpl_ctx *c = b->ctx;
	const struct pl_procurement *p = b->proc;
	int rc = 0, priced = 0;

	/* a decision needs a service level or prices: a regression watch has neither */
	rc |= pl_tpl_set_bool(c, "verdict",
	                      p && p->ngroups > 0 && (p->slo.n > 0 || b->o->spec->nprices > 0));
	rc |= pl_tpl_set(c, "currency", b->o->spec->currency ? b->o->spec->currency : "");
	/* the cost column's unit: the currency, or that none is named */
	for (size_t i = 0; p && i < p->ngroups; i++)
		priced |= p->groups[i].price_source != 0;
	rc |= pl_tpl_set(c, "cost_unit", b->o->spec->currency && *b->o->spec->currency
	                                     ? b->o->spec->currency
	                                 : priced ? b->w->currency_unnamed
	                                          : "");
	rc |= pl_tpl_set_bool(c, "has_slo", p && p->slo.n > 0);
	rc |= pl_tpl_set_list(c, "verdicts");
	rc |= pl_tpl_set_list(c, "chart_notes");
	rc |= pl_tpl_set_list(c, "verdict_notes");
	return rc;
}

/* The notes under the verdict: runs priced without a currency, and each
 * price of the definition no offer used. Returns 0 or nonzero. */
static int verdict_notes(struct bundle *b)
{
	const struct pl_procurement *p = b->proc;
	const struct words *w = b->w;
	char line[512];
	int rc = 0;

	if (!b->o->spec->currency) {
		int runs_priced = 0;
		for (size_t i = 0; i < p->ngroups; i++)
			runs_priced |= p->groups[i].price_source == 1;
		if (runs_priced)
			rc |= add_text(b->ctx, "verdict_notes", w->no_currency);
	}
	for (size_t i = 0; i < p->nunused_prices; i++) {
		pl_bundle_subst(line, sizeof(line), w->price_unused, p->unused_prices[i], NULL, NULL);
		rc |= add_text(b->ctx, "verdict_notes", line);
	}
	return rc;
}

/* A new verdict table for the kind of sweep of g (the k-th offer ranked)
 * into *table. Returns 0 or PL_ENOMEM. */
static int verdict_table(struct bundle *b, const struct pl_procure_group *g, size_t k,
                         enum pl_lang lang, struct pl_tpl_ctx **table)
{
	int open = g->load == PL_C_REQUEST_RATE, rc = 0;

	if (!(*table = pl_tpl_add_item(b->ctx, "verdicts")))
		return PL_ENOMEM;
	rc |= pl_tpl_set(*table, "kind_head",
	                 !b->proc->mixed ? ""
	                 : pl_word(open ? PL_MSG_VERDICT_KIND_OPEN_HEAD : PL_MSG_VERDICT_KIND_CLOSED_HEAD,
	                           lang));
	rc |= pl_tpl_set(*table, "table_id", k == 0 ? "verdict-table" : "verdict-table-open");
	rc |= pl_tpl_set_list(*table, "offers");
	return rc;
}

/* The figures of offer g ranked rank into it: its mark, label, throughput
 * and cost at the SLO (a bound says so beside the number), peak and runs.
 * Returns 0 or nonzero. */
static int offer_figures(const struct pl_procure_group *g, size_t rank, struct pl_tpl_ctx *it,
                         enum pl_lang lang)
{
	char buf[64];
	int rc = 0;
	/* the offer's colour and marker, as every chart draws it */
	char *mark = pl_svg_offer_mark(g->offer);

	rc |= pl_tpl_setf(it, "rank", "%zu", rank);
	rc |= pl_tpl_setf(it, "offer_style", "%zu", g->offer);
	rc |= mark ? pl_tpl_set_raw(it, "offer_mark", mark) : PL_ENOMEM;
	free(mark);
	rc |= pl_tpl_set(it, "label", g->label);
	/* a bound says so beside the number: "≥" throughput, "≤" cost */
	rc |= pl_bundle_set_bounded(it, "slo_per_acc", g->slo_throughput_per_acc,
	                            g->lower_bound ? PL_MSG_VERDICT_AT_LEAST : PL_MSG_NONE, lang);
	rc |= pl_bundle_set_bounded(it, "slo_throughput", g->slo.throughput,
	                            g->lower_bound ? PL_MSG_VERDICT_AT_LEAST : PL_MSG_NONE, lang);
	rc |= pl_bundle_set_bounded(it, "cost", g->slo_cost_per_mtok,
	                            g->cost_upper_bound ? PL_MSG_VERDICT_AT_MOST : PL_MSG_NONE, lang);
	rc |= pl_tpl_set(it, "peak", pl_bundle_num(buf, sizeof(buf), g->peak_throughput));
	rc |= pl_tpl_set(it, "peak_sort", pl_bundle_full(buf, sizeof(buf), g->peak_throughput));
	rc |= pl_tpl_setf(it, "n", "%zu", g->nruns);
	return rc;
}

/* The flags of offer g into it's list "flags", joined into fl (size nfl).
 * Returns 0 or nonzero. */
static int offer_flags(const struct bundle *b, const struct pl_procure_group *g,
                       struct pl_tpl_ctx *it, char *fl, size_t nfl, enum pl_lang lang)
{
	const struct pl_procurement *p = b->proc;
	const struct words *w = b->w;
	int rc = 0;

	rc |= pl_tpl_set_list(it, "flags");
	if (p->mixed)
		rc |= add_joined(it, "flags",
		                 pl_word(g->load == PL_C_REQUEST_RATE ? PL_MSG_VERDICT_KIND_OPEN
		                                                      : PL_MSG_VERDICT_KIND_CLOSED,
		                         lang),
		                 fl, nfl);
	if (g->lower_bound)
		rc |= add_joined(it, "flags", w->flag_lower_bound, fl, nfl);
	if (g->cost_upper_bound)
		rc |= add_joined(it, "flags", pl_word(PL_MSG_VERDICT_FLAG_COST_AT_MOST, lang), fl, nfl);
	if (g->fails_below_slo)
		rc |= add_joined(it, "flags", pl_word(PL_MSG_VERDICT_FLAG_FAILS_BELOW, lang), fl, nfl);
	else if (g->nfailed_loads)
		rc |= add_joined(it, "flags", pl_word(PL_MSG_VERDICT_FLAG_FAILED_LOAD, lang), fl, nfl);
	if (p->slo.n > 0 && g->usable == 0)
		rc |= add_joined(it, "flags", pl_word(PL_MSG_VERDICT_FLAG_NOT_EVALUABLE, lang), fl, nfl);
	for (size_t j = 0; j < p->slo.n; j++)
		if (g->bound_metric[j] != PL_M_NONE) {
			rc |= add_joined(it, "flags", pl_word(PL_MSG_VERDICT_FLAG_BOUNDED, lang), fl, nfl);
			break;
		}
	if (g->single_point)
		rc |= add_joined(it, "flags", w->flag_single, fl, nfl);
	if (g->slo.status == PL_SLO_INTERPOLATED)
		rc |= add_joined(it, "flags", w->flag_interpolated, fl, nfl);
	if (g->reference_only)
		rc |= add_joined(it, "flags", w->flag_reference, fl, nfl);
	return rc;
}

/* The notes of how offer g meets the SLO (measured, interpolated, none, no
 * SLO) and of its throughput or cost being a bound, into it's "notes" and
 * nt (size ntn). Returns 0 or nonzero. */
static int slo_notes(struct bundle *b, const struct pl_procure_group *g, struct pl_tpl_ctx *it,
                     char *nt, size_t ntn, enum pl_lang lang)
{
	const struct words *w = b->w, *gw = bundle_words(b, g);
	char buf[64], b2[64], b3[64], line[512];
	int rc = 0;

	if (b->proc->slo.n == 0) {
		rc |= add_joined(it, "notes", w->no_slo, nt, ntn);
	} else if (g->slo.status == PL_SLO_NONE_MEETS && g->usable == 0) {
		; /* not evaluable: evaluable_notes() says what is missing */
	} else if (g->slo.status == PL_SLO_NONE_MEETS) {
		rc |= add_joined(it, "notes", gw->none, nt, ntn);
	} else if (g->slo.status == PL_SLO_MEASURED) {
		pl_bundle_subst(line, sizeof(line), gw->measured, pl_bundle_full(buf, sizeof(buf), g->slo.concurrency),
		                NULL, NULL);
		rc |= add_joined(it, "notes", line, nt, ntn);
	} else {
		pl_bundle_subst(line, sizeof(line), gw->interpolated, pl_bundle_full(buf, sizeof(buf), g->slo.lo_concurrency),
		                pl_bundle_full(b2, sizeof(b2), g->slo.hi_concurrency), pl_bundle_num(b3, sizeof(b3), g->slo.concurrency));
		rc |= add_joined(it, "notes", line, nt, ntn);
	}
	if (g->lower_bound && g->usable == 1) {
		rc |= add_joined(it, "notes", w->note_lower_bound_one, nt, ntn);
	} else if (g->lower_bound) {
		double top = NAN;
		for (size_t i = 0; i < g->npoints; i++)
			if (g->points[i].meets_slo >= 0 && !isnan(g->points[i].concurrency) &&
			    (isnan(top) || g->points[i].concurrency > top))
				top = g->points[i].concurrency;
		pl_bundle_subst(line, sizeof(line), w->note_lower_bound_top,
		                g->load == PL_C_REQUEST_RATE ? w->load_word_rate : w->load_word_concurrency,
		                pl_bundle_full(buf, sizeof(buf), top), NULL);
		rc |= add_joined(it, "notes", line, nt, ntn);
	}
	if (g->cost_upper_bound) {
		struct pl_msg m;
		pl_msg_init(&m, PL_MSG_VERDICT_COST_AT_MOST);
		char cost[128];
		const char *cur = b->o->spec->currency;
		snprintf(cost, sizeof(cost), "%s%s%s", pl_bundle_num(buf, sizeof(buf), g->slo_cost_per_mtok),
		         cur && *cur ? " " : "", cur && *cur ? cur : "");
		pl_msg_text(&m, cost);
		rc |= add_msg(it, "notes", &m, lang, nt, ntn);
	}
	return rc;
}

/* The notes of offer g's accelerators and price (missing, in conflict,
 * overridden by the definition), into it's "notes" and nt (size ntn).
 * Returns 0 or nonzero. */
static int price_notes(const struct bundle *b, const struct pl_procure_group *g,
                       struct pl_tpl_ctx *it, char *nt, size_t ntn)
{
	const struct words *w = b->w;
	char line[512], now[200], was[200];
	int rc = 0, was_tok = !isnan(g->runs_price_in);

	if (isnan(g->accelerators))
		rc |= add_joined(it, "notes", w->note_no_acc, nt, ntn);
	if (g->price_conflict)
		rc |= add_joined(it, "notes", w->note_price_conflict, nt, ntn);
	else if (g->price_source == 0)
		rc |= add_joined(it, "notes", w->note_no_price, nt, ntn);
	if (g->price_source != 3)
		return rc;
	pl_bundle_price_text(b, g->token_priced, g->price_per_hour, g->price_in_per_mtok, g->price_out_per_mtok,
	                     now, sizeof(now));
	if (was_tok || !isnan(g->runs_price_per_hour))
		pl_bundle_price_text(b, was_tok, g->runs_price_per_hour, g->runs_price_in, g->runs_price_out, was,
		                     sizeof(was));
	else
		snprintf(was, sizeof(was), "%s", w->price_conflict);
	pl_bundle_subst(line, sizeof(line), strcmp(now, was) == 0 ? w->note_price_same : w->note_price_override,
	                now, was, NULL);
	rc |= add_joined(it, "notes", line, nt, ntn);
	return rc;
}

/* Every note of offer g into it's "notes", joined into nt (size ntn).
 * Returns 0 or nonzero. */
static int offer_notes(struct bundle *b, const struct pl_procure_group *g, struct pl_tpl_ctx *it,
                       char *nt, size_t ntn, enum pl_lang lang)
{
	int rc = pl_tpl_set_list(it, "notes");

	rc |= slo_notes(b, g, it, nt, ntn, lang);
	if (b->proc->slo.n > 0)
		rc |= evaluable_notes(b, g, it, nt, ntn, lang);
	if (!isnan(g->energy_j_per_tok)) {
		struct pl_msg m;
		pl_msg_init(&m, g->lower_bound ? PL_MSG_VERDICT_ENERGY_AT_MOST : PL_MSG_VERDICT_ENERGY);
		pl_msg_num(&m, g->energy_j_per_tok);
		pl_msg_num(&m, g->energy_kwh_per_mtok);
		pl_msg_num(&m, g->power_watts);
		pl_msg_int(&m, (long long)g->power_runs);
		rc |= add_msg(it, "notes", &m, lang, nt, ntn);
	}
	rc |= failed_notes(b, g, it, nt, ntn, lang);
	rc |= price_notes(b, g, it, nt, ntn);
	return rc;
}

/* The sweep chart draws finite loads only: a chart note names how many
 * points of offer g it leaves out. Returns 0 or nonzero. */
static int sweep_note(struct bundle *b, const struct pl_procure_group *g)
{
	char buf[64], line[512];
	size_t out = 0;

	if (!b->proc->sweep || !(b->o->spec->charts & PL_CHART_SWEEP))
		return 0;
	for (size_t i = 0; i < g->npoints; i++)
		if (!isfinite(g->points[i].concurrency) || !isfinite(g->points[i].throughput))
			out++;
	if (!out)
		return 0;
	snprintf(buf, sizeof(buf), "%zu", out);
	pl_bundle_subst(line, sizeof(line), b->w->sweep_points_not_drawn, g->label, buf, NULL);
	return add_text(b->ctx, "chart_notes", line);
}

/* The k-th offer of the ranking, g, ranked rank in its table: one row of
 * the table, and its flags and notes kept for the workbook's verdict
 * sheet. Returns 0 or nonzero. */
static int verdict_offer(struct bundle *b, const struct pl_procure_group *g, size_t k,
                         size_t rank, struct pl_tpl_ctx *table, enum pl_lang lang)
{
	struct pl_tpl_ctx *it = pl_tpl_add_item(table, "offers");
	char fl[256] = "", nt[4096] = "";
	int rc = 0;

	if (!it)
		return PL_ENOMEM;
	b->offer_rank[k] = rank;
	rc |= offer_figures(g, rank, it, lang);
	rc |= offer_flags(b, g, it, fl, sizeof(fl), lang);
	rc |= offer_notes(b, g, it, nt, sizeof(nt), lang);
	rc |= pl_tpl_set(it, "flags_text", fl);
	rc |= pl_tpl_set(it, "notes_text", nt);
	/* the workbook's verdict sheet says the same */
	b->offer_order[k] = (size_t)(g - b->proc->groups);
	b->offer_flags[k] = strdup(fl);
	b->offer_notes[k] = strdup(nt);
	if (!b->offer_flags[k] || !b->offer_notes[k])
		rc = PL_ENOMEM;
	rc |= sweep_note(b, g);
	return rc;
}

/* The verdict: one row per offer (procurement group), ranked by cost at
 * the SLO, with its flags and a note for every figure it lacks and why. */
int pl_bundle_ctx_verdict(struct bundle *b)
{
	const struct pl_procurement *p = b->proc;
	const struct pl_procure_group **order;
	struct pl_tpl_ctx *table = NULL;
	int rc = verdict_heads(b);
	enum pl_lang lang = pl_words_lang(b->w->lang);

	if (!p || p->ngroups == 0)
		return rc ? PL_ENOMEM : 0;
	rc |= verdict_notes(b);
	order = malloc(p->ngroups * sizeof(*order));
	pl_bundle_free_verdict(b);
	b->offer_order = calloc(p->ngroups, sizeof(*b->offer_order));
	b->offer_flags = calloc(p->ngroups, sizeof(*b->offer_flags));
	b->offer_notes = calloc(p->ngroups, sizeof(*b->offer_notes));
	b->offer_rank = calloc(p->ngroups, sizeof(*b->offer_rank));
	if (!order || !b->offer_order || !b->offer_flags || !b->offer_notes || !b->offer_rank) {
		free(order);
		return PL_ENOMEM;
	}
	b->noffers = p->ngroups;
	for (size_t i = 0; i < p->ngroups; i++)
		order[i] = &p->groups[i];
	qsort(order, p->ngroups, sizeof(*order), cmp_offer);
	for (size_t k = 0, rank = 0; k < p->ngroups && rc == 0; k++) {
		/* one verdict table per kind of sweep, each ranked on its own */
		if (k == 0 || order[k]->load != order[k - 1]->load) {
			if ((rc |= verdict_table(b, order[k], k, lang, &table)) != 0)
				break;
			rank = 0;
		}
		rc |= verdict_offer(b, order[k], k, ++rank, table, lang);
	}
	free(order);
	if (!p->sweep && (b->o->spec->charts & PL_CHART_SWEEP))
		rc |= add_text(b->ctx, "chart_notes", b->w->sweep_not_drawn);
	return rc ? PL_ENOMEM : 0;
}

void pl_bundle_free_verdict(struct bundle *b)
{
	for (size_t i = 0; i < b->noffers; i++) {
		if (b->offer_flags)
			free(b->offer_flags[i]);
		if (b->offer_notes)
			free(b->offer_notes[i]);
	}
	free(b->offer_order);
	free(b->offer_flags);
	free(b->offer_notes);
	free(b->offer_rank);
	b->offer_rank = NULL;
	b->offer_order = NULL;
	b->offer_flags = b->offer_notes = NULL;
	b->noffers = 0;
}
