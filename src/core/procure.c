/*
 * procure.c — procurement arithmetic over a comparison: prices, cost per
 * million output tokens, throughput per accelerator, the SLO-constrained
 * throughput along a concurrency sweep and the Pareto front. The formulas
 * are documented once, in procure.h; this file follows them literally.
 */
#include "core/procure.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/normalize.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/suggest.h"

double pl_procure_cost_per_mtok(double price_per_hour, double output_throughput)
{
	if (!isfinite(price_per_hour) || price_per_hour < 0 || !isfinite(output_throughput) ||
	    output_throughput <= 0)
		return NAN;
	return price_per_hour / (output_throughput * 3600.0) * 1e6;
}

double pl_procure_api_cost_per_mtok(double price_in_per_mtok, double price_out_per_mtok,
                                    double input_tokens, double max_output_tokens)
{
	if (!isfinite(price_in_per_mtok) || price_in_per_mtok < 0 || !isfinite(price_out_per_mtok) ||
	    price_out_per_mtok < 0 || !isfinite(input_tokens) || input_tokens < 0 ||
	    !isfinite(max_output_tokens) || max_output_tokens <= 0)
		return NAN;
	return price_out_per_mtok + price_in_per_mtok * (input_tokens / max_output_tokens);
}

int pl_procure_bounding_metric(int m, int after)
{
	static const enum pl_stat order[] = {PL_S_P90, PL_S_P95, PL_S_P99, PL_S_P999, PL_S_MAX};
	enum pl_stat s;
	int base;
	size_t k, start = 0;

	if (m < 0 || m >= PL_METRIC_COUNT)
		return PL_M_NONE;
	s = pl_metric_info[m].stat;
	if (s < PL_S_P50 || s > PL_S_P999)
		return PL_M_NONE;
	/* a family's statistics are declared in enum pl_stat order from its
	 * mean (PL_DIST_METRICS): the family starts at m - (s - PL_S_MEAN) */
	base = m - (int)(s - PL_S_MEAN);
	if (after != PL_M_NONE) {
		if (after < base || after > base + (int)(PL_S_P999 - PL_S_MEAN))
			return PL_M_NONE;
		for (k = 0; k < sizeof(order) / sizeof(order[0]); k++)
			if (base + (int)(order[k] - PL_S_MEAN) == after)
				start = k + 1;
		if (start == 0)
			return PL_M_NONE;
	}
	for (k = start; k < sizeof(order) / sizeof(order[0]); k++)
		if (order[k] > s || order[k] == PL_S_MAX) /* the maximum bounds every percentile */
			return base + (int)(order[k] - PL_S_MEAN);
	return PL_M_NONE;
}

static int cmp_point_conc(const void *a, const void *b)
{
	const struct pl_sweep_point *x = a, *y = b;

	return (x->concurrency > y->concurrency) - (x->concurrency < y->concurrency);
}

/* 1 meets, 0 fails, -1 a limited metric is unknown. */
static int point_meets(const struct pl_sweep_point *p, const struct pl_slo *slo)
{
	for (size_t k = 0; k < slo->n; k++)
		if (!p->has[k] || isnan(p->latency[k]))
			return -1;
	for (size_t k = 0; k < slo->n; k++)
		if (p->latency[k] > slo->limit[k])
			return 0;
	return 1;
}

int pl_procure_slo_throughput(const struct pl_sweep_point *pts, size_t n, const struct pl_slo *slo,
                              struct pl_slo_result *res, struct pl_error *err)
{
	struct pl_sweep_point *v;
	size_t m = 0;

	memset(res, 0, sizeof(*res));
	res->status = PL_SLO_NONE_MEETS;
	res->throughput = res->concurrency = NAN;
	res->lo_concurrency = res->hi_concurrency = NAN;
	if (!slo || slo->n == 0 || slo->n > PL_SLO_MAX)
		return pl_error_set(err, PL_EUSAGE, "no service-level objective given");
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		if (point_meets(&pts[i], slo) < 0 || !isfinite(pts[i].throughput) ||
		    (isnan(pts[i].concurrency) && n > 1)) {
			res->skipped++;
			continue;
		}
		v[m++] = pts[i];
	}
	qsort(v, m, sizeof(*v), cmp_point_conc);
	for (size_t i = 0; i < m; i++) {
		if (point_meets(&v[i], slo) != 1)
			continue;
		if (res->status == PL_SLO_NONE_MEETS || v[i].throughput > res->throughput) {
			res->status = PL_SLO_MEASURED;
			res->throughput = v[i].throughput;
			res->concurrency = v[i].concurrency;
			res->lo_concurrency = res->hi_concurrency = NAN;
		}
		if (i + 1 < m && point_meets(&v[i + 1], slo) == 0 && isfinite(v[i].concurrency) &&
		    isfinite(v[i + 1].concurrency)) {
			double t = 1.0, x, c;
			for (size_t k = 0; k < slo->n; k++) {
				double lo = v[i].latency[k], hi = v[i + 1].latency[k], tk;
				if (hi <= slo->limit[k] || hi <= lo)
					continue;
				tk = (slo->limit[k] - lo) / (hi - lo);
				if (tk < t)
					t = tk;
			}
			if (t >= 1.0)
				continue; /* cannot happen for a failing neighbour; be safe */
			x = v[i].throughput + t * (v[i + 1].throughput - v[i].throughput);
			c = v[i].concurrency + t * (v[i + 1].concurrency - v[i].concurrency);
			if (t > 0 && x > res->throughput) {
				res->status = PL_SLO_INTERPOLATED;
				res->throughput = x;
				res->concurrency = c;
				res->lo_concurrency = v[i].concurrency;
				res->hi_concurrency = v[i + 1].concurrency;
			}
		}
	}
	free(v);
	return 0;
}

/* ------------------------------------------------------------ the groups */

static int on_axis(const struct pl_comparison *cmp, int id)
{
	for (size_t i = 0; i < cmp->naxis; i++)
		if (cmp->axis[i] == id)
			return 1;
	return 0;
}

/* The load field of the sweep (pl_procurement.load). */
static int load_field(const struct pl_comparison *cmp)
{
	if (on_axis(cmp, PL_C_CONCURRENCY))
		return PL_C_CONCURRENCY;
	if (on_axis(cmp, PL_C_REQUEST_RATE))
		return PL_C_REQUEST_RATE;
	return -1;
}

/* The load field of row r: with both load fields on the axis, closed
 * loop where the row has a concurrency, open loop where it has only a
 * request_rate (procure.h); else the sweep's. */
static int row_load(const struct pl_comparison *cmp, size_t r, int load)
{
	if (!(on_axis(cmp, PL_C_CONCURRENCY) && on_axis(cmp, PL_C_REQUEST_RATE)))
		return load;
	if (!cmp->rows[r].axis[PL_C_CONCURRENCY].set && cmp->rows[r].axis[PL_C_REQUEST_RATE].set)
		return PL_C_REQUEST_RATE;
	return PL_C_CONCURRENCY;
}

/* Label of row r without the load axis field ("A / B", "(all)" when there
 * is none), of the values the row has (a field it lacks is left out, so a
 * request-rate offer beside concurrency sweeps is not "A / (missing)");
 * heap, NULL when out of memory. */
static char *group_label(const struct pl_comparison *cmp, size_t r, int load)
{
	struct pl_buf b;
	int both = on_axis(cmp, PL_C_CONCURRENCY) && on_axis(cmp, PL_C_REQUEST_RATE);

	pl_buf_init(&b);
	for (size_t i = 0; i < cmp->naxis; i++) {
		const struct pl_value *v;
		if (cmp->axis[i] < 0 || cmp->axis[i] >= PL_COND_COUNT || cmp->axis[i] == load ||
		    (both && (cmp->axis[i] == PL_C_CONCURRENCY || cmp->axis[i] == PL_C_REQUEST_RATE)))
			continue;
		v = &cmp->rows[r].axis[cmp->axis[i]];
		if (!v->set || !v->text)
			continue; /* an offer is named by the values it has, never "(missing)" */
		if (b.len)
			pl_buf_adds(&b, " / ");
		pl_buf_adds(&b, v->text);
	}
	if (b.len == 0)
		pl_buf_adds(&b, "(all)");
	return pl_buf_detach(&b, NULL);
}

static const struct pl_run *find_run(const struct pl_run_list *runs, long long id)
{
	for (size_t i = 0; runs && i < runs->n; i++)
		if (runs->v[i].id == id)
			return &runs->v[i];
	return NULL;
}

static double row_cond_num(const struct pl_comparison *cmp, size_t r, int id)
{
	if (cmp->rows[r].axis[id].set)
		return cmp->rows[r].axis[id].num;
	if (cmp->shared[id].set)
		return cmp->shared[id].num;
	return NAN;
}

static double row_metric(const struct pl_compare_row *row, int m)
{
	return row->n_metric[m] ? row->metric[m] : NAN;
}

static const char *row_hardware(const struct pl_comparison *cmp, size_t r)
{
	if (cmp->rows[r].axis[PL_C_HARDWARE].set)
		return cmp->rows[r].axis[PL_C_HARDWARE].text;
	if (cmp->shared[PL_C_HARDWARE].set)
		return cmp->shared[PL_C_HARDWARE].text;
	return NULL;
}

static const char *row_deployment(const struct pl_comparison *cmp, size_t r)
{
	if (cmp->rows[r].axis[PL_C_DEPLOYMENT].set)
		return cmp->rows[r].axis[PL_C_DEPLOYMENT].text;
	if (cmp->shared[PL_C_DEPLOYMENT].set)
		return cmp->shared[PL_C_DEPLOYMENT].text;
	return NULL;
}

/* The price table's entry for hardware hw (normalized, as rows hold it);
 * a per-token entry only for a cloud-api row (api). NULL if none. */
static const struct pl_price *table_entry(const char *hw, int api, const struct pl_price *prices,
                                          size_t nprices)
{
	for (size_t i = 0; hw && i < nprices; i++) {
		char *norm = pl_normalize_value(PL_C_HARDWARE, prices[i].hardware);
		int same = norm && strcmp(norm, hw) == 0;
		free(norm);
		if (same && (!prices[i].per_token || api))
			return &prices[i];
	}
	return NULL;
}

/* The group's price: the table's entry for its hardware (token prices
 * count only for a cloud-api group), which wins over the runs' prices and
 * keeps them in runs_price_* (price_source 3); else, for a cloud-api
 * group, token prices from its runs; else price_per_hour from its runs. */
static void group_price(struct pl_procure_group *g, const struct pl_comparison *cmp,
                        const struct pl_run_list *runs, const struct pl_price *prices,
                        size_t nprices)
{
	int have = 0, thave = 0, tconflict = 0, conflict = 0, api;
	const char *hw = NULL, *dep = NULL;
	double pin = NAN, pout = NAN, hour = NAN;
	const struct pl_price *e;

	g->price_per_hour = NAN;
	g->price_in_per_mtok = g->price_out_per_mtok = NAN;
	g->runs_price_per_hour = g->runs_price_in = g->runs_price_out = NAN;
	for (size_t p = 0; p < g->npoints; p++) {
		const struct pl_compare_row *row = &cmp->rows[g->points[p].row];
		if (!hw)
			hw = row_hardware(cmp, g->points[p].row);
		if (!dep)
			dep = row_deployment(cmp, g->points[p].row);
		for (size_t i = 0; i < row->n; i++) {
			const struct pl_run *run = find_run(runs, row->run_ids[i]);
			if (!run)
				continue;
			if (run->cond[PL_C_PRICE_PER_MILLION_INPUT_TOKENS].set &&
			    run->cond[PL_C_PRICE_PER_MILLION_OUTPUT_TOKENS].set) {
				double a = run->cond[PL_C_PRICE_PER_MILLION_INPUT_TOKENS].num;
				double b = run->cond[PL_C_PRICE_PER_MILLION_OUTPUT_TOKENS].num;
				if (!thave) {
					pin = a;
					pout = b;
					thave = 1;
				} else if (a != pin || b != pout) {
					tconflict = 1;
				}
			}
			if (!run->cond[PL_C_PRICE_PER_HOUR].set)
				continue;
			if (!have) {
				hour = run->cond[PL_C_PRICE_PER_HOUR].num;
				have = 1;
			} else if (run->cond[PL_C_PRICE_PER_HOUR].num != hour) {
				conflict = 1;
			}
		}
	}
	api = dep && strcmp(dep, "cloud-api") == 0;
	e = table_entry(hw, api, prices, nprices);
	if (e) {
		if (have && !conflict)
			g->runs_price_per_hour = hour;
		if (thave && !tconflict) {
			g->runs_price_in = pin;
			g->runs_price_out = pout;
		}
		if (e->per_token) {
			g->token_priced = 1;
			g->price_in_per_mtok = e->per_m_input;
			g->price_out_per_mtok = e->per_m_output;
		} else {
			g->price_per_hour = e->price_per_hour;
		}
		g->price_source = have || thave ? 3 : 2;
		return;
	}
	if (api && thave) {
		g->token_priced = 1;
		g->price_conflict = tconflict;
		if (!tconflict) {
			g->price_in_per_mtok = pin;
			g->price_out_per_mtok = pout;
			g->price_source = 1;
		}
		return;
	}
	g->price_conflict = conflict;
	if (have && !conflict) {
		g->price_per_hour = hour;
		g->price_source = 1;
	}
}

/* A table entry that names the hardware of no row: an error when it looks
 * like a row's hardware mistyped (within 2 edits or a fifth of its length,
 * case ignored) or when some group was left without a price; otherwise
 * (an entry for hardware outside this selection, the definition shared
 * between selections) it is listed in p->unused_prices for the report to
 * name. Run after the groups are priced. */
static int check_price_keys(const struct pl_comparison *cmp, const struct pl_price *prices,
                            size_t nprices, struct pl_procurement *p, struct pl_error *err)
{
	int unpriced = 0;

	for (size_t g = 0; g < p->ngroups; g++)
		if (p->groups[g].price_source == 0 && !p->groups[g].price_conflict)
			unpriced = 1;
	for (size_t i = 0; i < nprices; i++) {
		char *norm = pl_normalize_value(PL_C_HARDWARE, prices[i].hardware);
		const char *best = NULL;
		size_t bestd = (size_t)-1, len = strlen(prices[i].hardware);
		int found = 0;
		if (!norm)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		for (size_t r = 0; r < cmp->nrows && !found; r++) {
			const char *hw = row_hardware(cmp, r);
			size_t d;
			if (!hw)
				continue;
			if (strcmp(hw, norm) == 0) {
				found = 1;
				break;
			}
			d = pl_edit_distance(prices[i].hardware, hw);
			if (d < bestd) {
				bestd = d;
				best = hw;
			}
		}
		free(norm);
		if (found)
			continue;
		if (best && (unpriced || bestd <= 2 || bestd * 5 <= len)) {
			pl_error_set(err, PL_EINVALID,
			             "'prices' entry '%.100s' matches the hardware of no row; the "
			             "closest is '%.100s'",
			             prices[i].hardware, best);
			pl_error_field(err, "prices");
			return PL_EINVALID;
		}
		if (!best && unpriced) {
			pl_error_set(err, PL_EINVALID,
			             "'prices' entry '%.100s' matches the hardware of no row (no row "
			             "has a hardware)",
			             prices[i].hardware);
			pl_error_field(err, "prices");
			return PL_EINVALID;
		}
		if (PL_ALLOC_GROW(p->unused_prices, p->nunused_prices + 1, p->unused_prices_cap) ||
		    !(p->unused_prices[p->nunused_prices] = strdup(prices[i].hardware)))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		p->nunused_prices++;
	}
	return 0;
}

/* Cost per 1M output tokens of point pt of g at throughput x. */
static double point_cost(const struct pl_procure_group *g, const struct pl_comparison *cmp,
                         size_t row, double x)
{
	if (g->token_priced)
		return pl_procure_api_cost_per_mtok(g->price_in_per_mtok, g->price_out_per_mtok,
		                                    row_cond_num(cmp, row, PL_C_INPUT_TOKENS),
		                                    row_cond_num(cmp, row, PL_C_MAX_OUTPUT_TOKENS));
	return pl_procure_cost_per_mtok(g->price_per_hour, x);
}

static int cmp_procure_point(const void *a, const void *b)
{
	const struct pl_procure_point *x = a, *y = b;

	if (isnan(x->concurrency) || isnan(y->concurrency))
		return isnan(x->concurrency) - isnan(y->concurrency);
	return (x->concurrency > y->concurrency) - (x->concurrency < y->concurrency);
}

/* The group's point at load c (NULL if none). */
static const struct pl_procure_point *point_at(const struct pl_procure_group *g, double c)
{
	for (size_t i = 0; i < g->npoints; i++)
		if (g->points[i].concurrency == c || (g->npoints == 1 && isnan(c)))
			return &g->points[i];
	return NULL;
}

/* Energy at the SLO (procure.h), from power_watts where recorded. */
static void slo_energy(struct pl_procure_group *g, const struct pl_comparison *cmp)
{
	const struct pl_procure_point *a, *b;
	const struct pl_compare_row *ra, *rb;

	g->energy_j_per_tok = g->energy_kwh_per_mtok = g->power_watts = NAN;
	g->power_runs = 0;
	if (g->slo.status == PL_SLO_MEASURED) {
		if (!(a = point_at(g, g->slo.concurrency)))
			return;
		ra = &cmp->rows[a->row];
		if (!ra->n_metric[PL_M_POWER_WATTS])
			return;
		g->power_watts = ra->metric[PL_M_POWER_WATTS];
		g->power_runs = ra->n_metric[PL_M_POWER_WATTS];
	} else if (g->slo.status == PL_SLO_INTERPOLATED) {
		double t;
		a = point_at(g, g->slo.lo_concurrency);
		b = point_at(g, g->slo.hi_concurrency);
		if (!a || !b)
			return;
		ra = &cmp->rows[a->row];
		rb = &cmp->rows[b->row];
		if (!ra->n_metric[PL_M_POWER_WATTS] || !rb->n_metric[PL_M_POWER_WATTS])
			return;
		t = (g->slo.concurrency - a->concurrency) / (b->concurrency - a->concurrency);
		g->power_watts = ra->metric[PL_M_POWER_WATTS] +
		                 t * (rb->metric[PL_M_POWER_WATTS] - ra->metric[PL_M_POWER_WATTS]);
		g->power_runs = (size_t)ra->n_metric[PL_M_POWER_WATTS] + rb->n_metric[PL_M_POWER_WATTS];
	} else {
		return;
	}
	if (!(g->power_watts > 0) || !(g->slo.throughput > 0)) {
		g->power_watts = NAN;
		g->power_runs = 0;
		return;
	}
	g->energy_j_per_tok = g->power_watts / g->slo.throughput;
	g->energy_kwh_per_mtok = g->energy_j_per_tok * 1e6 / 3.6e6;
}

static int fill_group(struct pl_procure_group *g, const struct pl_comparison *cmp,
                      const struct pl_slo *slo, struct pl_error *err)
{
	struct pl_sweep_point *sp;
	int *subst; /* [point * PL_SLO_MAX + k]: the percentile that judged limit k */

	qsort(g->points, g->npoints, sizeof(*g->points), cmp_procure_point);
	g->accelerators = row_cond_num(cmp, g->points[0].row, PL_C_ACCELERATOR_COUNT);
	if (!(g->accelerators > 0) || !isfinite(g->accelerators))
		g->accelerators = NAN;
	g->peak_throughput = g->peak_concurrency = NAN;
	g->goodput = NAN;
	g->price_per_acc_hour = g->price_per_hour / g->accelerators;
	for (size_t k = 0; k < PL_SLO_MAX; k++) {
		g->bound_metric[k] = PL_M_NONE;
		g->bound_value[k] = g->bound_load[k] = NAN;
	}
	sp = calloc(g->npoints, sizeof(*sp));
	subst = malloc(g->npoints * PL_SLO_MAX * sizeof(*subst));
	if (!sp || !subst) {
		free(sp);
		free(subst);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < g->npoints * PL_SLO_MAX; i++)
		subst[i] = PL_M_NONE;
	for (size_t p = 0; p < g->npoints; p++) {
		struct pl_procure_point *pt = &g->points[p];
		const struct pl_compare_row *row = &cmp->rows[pt->row];
		double tpot = row_metric(row, PL_M_TPOT_P50);
		g->nruns += row->n;
		if (row->reference_only > 0)
			g->reference_only = 1;
		pt->throughput = row_metric(row, PL_M_OUTPUT_THROUGHPUT);
		pt->throughput_per_acc = pt->throughput / g->accelerators;
		pt->interactivity = tpot > 0 ? 1.0 / tpot : NAN;
		pt->cost_per_mtok = point_cost(g, cmp, pt->row, pt->throughput);
		pt->meets_slo = -1;
		if (isfinite(pt->throughput) &&
		    (isnan(g->peak_throughput) || pt->throughput > g->peak_throughput)) {
			g->peak_throughput = pt->throughput;
			g->peak_concurrency = pt->concurrency;
		}
		sp[p].concurrency = pt->concurrency;
		sp[p].throughput = pt->throughput;
		for (size_t k = 0; k < slo->n; k++) {
			int sub = slo->metric[k];
			sp[p].latency[k] = row_metric(row, sub);
			sp[p].has[k] = row->n_metric[sub] != 0;
			/* not recorded: the nearest recorded higher percentile bounds
			 * it when it meets the limit; over the limit it decides nothing */
			while (!sp[p].has[k] &&
			       (sub = pl_procure_bounding_metric(slo->metric[k], sub)) != PL_M_NONE) {
				if (!row->n_metric[sub])
					continue;
				if (row->metric[sub] <= slo->limit[k]) {
					sp[p].latency[k] = row->metric[sub];
					sp[p].has[k] = 1;
					subst[p * PL_SLO_MAX + k] = sub;
				}
				break;
			}
			if (!sp[p].has[k])
				g->lack |= 1u << k;
		}
		if (!isfinite(pt->throughput))
			g->lack |= PL_LACK_THROUGHPUT;
		if (isnan(pt->concurrency) && g->npoints > 1)
			g->lack |= PL_LACK_LOAD;
		if (slo->n > 0 && isfinite(pt->throughput))
			pt->meets_slo = point_meets(&sp[p], slo);
		if (pt->meets_slo == 1 && row->n_metric[PL_M_GOODPUT] &&
		    (isnan(g->goodput) || row->metric[PL_M_GOODPUT] > g->goodput))
			g->goodput = row->metric[PL_M_GOODPUT];
	}
	memset(&g->slo, 0, sizeof(g->slo));
	g->slo.status = PL_SLO_NONE_MEETS;
	g->slo.throughput = g->slo.concurrency = NAN;
	g->slo.lo_concurrency = g->slo.hi_concurrency = NAN;
	g->single_point = g->npoints == 1;
	if (slo->n > 0) {
		int rc = pl_procure_slo_throughput(sp, g->npoints, slo, &g->slo, err);
		double top = NAN;
		int top_meets = 0;
		if (rc) {
			free(sp);
			free(subst);
			return rc;
		}
		/* where a higher percentile decided at a meeting point: the highest such load */
		for (size_t p = 0; p < g->npoints; p++)
			for (size_t k = 0; k < slo->n; k++)
				if (subst[p * PL_SLO_MAX + k] != PL_M_NONE && g->points[p].meets_slo == 1) {
					g->bound_metric[k] = subst[p * PL_SLO_MAX + k];
					g->bound_value[k] = sp[p].latency[k];
					g->bound_load[k] = g->points[p].concurrency;
				}
		g->usable = g->npoints - g->slo.skipped;
		/* the highest load among the usable points: does it still meet? */
		for (size_t p = 0; p < g->npoints; p++) {
			const struct pl_procure_point *pt = &g->points[p];
			if (pt->meets_slo < 0 || (isnan(pt->concurrency) && g->npoints > 1))
				continue;
			if (isnan(top) || pt->concurrency >= top || isnan(pt->concurrency)) {
				top = pt->concurrency;
				top_meets = pt->meets_slo == 1;
			}
		}
		g->lower_bound = g->slo.status != PL_SLO_NONE_MEETS && (g->usable == 1 || top_meets);
	}
	free(sp);
	free(subst);
	slo_energy(g, cmp);
	g->slo_throughput_per_acc = g->slo.throughput / g->accelerators;
	if (g->token_priced)
		g->slo_cost_per_mtok = g->slo.status == PL_SLO_NONE_MEETS
		                           ? NAN
		                           : point_cost(g, cmp, g->points[0].row, NAN);
	else
		g->slo_cost_per_mtok = pl_procure_cost_per_mtok(g->price_per_hour, g->slo.throughput);
	return 0;
}

/* The group of failed run `run` (its axis values other than the load, as
 * group_label words them), NULL when none: a failed offer of its own has
 * no row to stand in. */
static struct pl_procure_group *failed_group(const struct pl_comparison *cmp,
                                             const struct pl_run *run, struct pl_procurement *p)
{
	struct pl_buf b;
	char *label;
	struct pl_procure_group *g = NULL;

	int both = on_axis(cmp, PL_C_CONCURRENCY) && on_axis(cmp, PL_C_REQUEST_RATE);
	int kind = !both ? p->load
	           : !run->cond[PL_C_CONCURRENCY].set && run->cond[PL_C_REQUEST_RATE].set
	               ? PL_C_REQUEST_RATE
	               : PL_C_CONCURRENCY;

	pl_buf_init(&b);
	for (size_t i = 0; i < cmp->naxis; i++) {
		const struct pl_value *v;
		if (cmp->axis[i] < 0 || cmp->axis[i] >= PL_COND_COUNT || cmp->axis[i] == p->load ||
		    (both && (cmp->axis[i] == PL_C_CONCURRENCY || cmp->axis[i] == PL_C_REQUEST_RATE)))
			continue;
		v = &run->cond[cmp->axis[i]];
		if (!v->set || !v->text)
			continue;
		if (b.len)
			pl_buf_adds(&b, " / ");
		pl_buf_adds(&b, v->text);
	}
	if (b.len == 0)
		pl_buf_adds(&b, "(all)");
	label = pl_buf_detach(&b, NULL);
	for (size_t i = 0; label && i < p->ngroups && !g; i++)
		if (strcmp(p->groups[i].label, label) == 0 && p->groups[i].load == kind)
			g = &p->groups[i];
	free(label);
	return g;
}

static int cmp_load(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return (x > y) - (x < y);
}

/* The failed runs of the selection, into their groups (procure.h: failed
 * runs), then what they change: no lower bound with a failed load past
 * the SLO load; fails_below_slo with one below it. */
static int add_failed(const struct pl_comparison *cmp, const struct pl_run_list *runs,
                      struct pl_procurement *p, struct pl_error *err)
{
	for (size_t i = 0; runs && i < runs->n; i++) {
		const struct pl_run *run = &runs->v[i];
		struct pl_procure_group *g;
		double load;
		int seen = 0;
		size_t cap;
		if (!pl_run_failed(run) || !(g = failed_group(cmp, run, p)))
			continue;
		load = g->load >= 0 && run->cond[g->load].set ? run->cond[g->load].num : NAN;
		if (p->load < 0)
			load = run->cond[PL_C_CONCURRENCY].set ? run->cond[PL_C_CONCURRENCY].num : NAN;
		g->nfailed_runs++;
		for (size_t k = 0; k < g->nfailed_loads; k++)
			if (g->failed_loads[k] == load || (isnan(load) && isnan(g->failed_loads[k])))
				seen = 1;
		if (seen)
			continue;
		cap = g->nfailed_loads;
		if (PL_ALLOC_GROW(g->failed_loads, g->nfailed_loads + 1, cap))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		g->failed_loads[g->nfailed_loads++] = load;
	}
	for (size_t i = 0; i < p->ngroups; i++) {
		struct pl_procure_group *g = &p->groups[i];
		if (!g->nfailed_loads)
			continue;
		qsort(g->failed_loads, g->nfailed_loads, sizeof(*g->failed_loads), cmp_load);
		if (g->slo.status == PL_SLO_NONE_MEETS)
			continue;
		for (size_t k = 0; k < g->nfailed_loads; k++) {
			double f = g->failed_loads[k];
			if (isnan(f))
				continue;
			if (f < g->slo.concurrency)
				g->fails_below_slo = 1;
			/* more load may meet the SLO only if no measured load failed */
			g->lower_bound = 0;
		}
	}
	return 0;
}

/* After the failed runs: is the cost an upper bound (procure.h)? */
static void mark_cost_bounds(struct pl_procurement *p)
{
	for (size_t i = 0; i < p->ngroups; i++) {
		struct pl_procure_group *g = &p->groups[i];
		g->cost_upper_bound = g->lower_bound && !g->token_priced && isfinite(g->slo_cost_per_mtok);
	}
}

static void mark_pareto(struct pl_procurement *p)
{
	for (size_t g = 0; g < p->ngroups; g++) {
		for (size_t i = 0; i < p->groups[g].npoints; i++) {
			struct pl_procure_point *a = &p->groups[g].points[i];
			int dominated = 0;
			if (!isfinite(a->throughput_per_acc) || !isfinite(a->interactivity))
				continue;
			for (size_t h = 0; h < p->ngroups && !dominated; h++) {
				if (p->groups[h].load != p->groups[g].load)
					continue; /* one front per kind of sweep */
				for (size_t j = 0; j < p->groups[h].npoints; j++) {
					const struct pl_procure_point *b = &p->groups[h].points[j];
					if (b == a || !isfinite(b->throughput_per_acc) ||
					    !isfinite(b->interactivity))
						continue;
					if (b->throughput_per_acc >= a->throughput_per_acc &&
					    b->interactivity >= a->interactivity &&
					    (b->throughput_per_acc > a->throughput_per_acc ||
					     b->interactivity > a->interactivity)) {
						dominated = 1;
						break;
					}
				}
			}
			a->pareto = !dominated;
		}
	}
}

int pl_procure_build(const struct pl_comparison *cmp, const struct pl_run_list *runs,
                     const struct pl_slo *slo, const struct pl_price *prices, size_t nprices,
                     struct pl_procurement *out, struct pl_error *err)
{
	static const struct pl_slo no_slo;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!slo)
		slo = &no_slo;
	out->slo = *slo;
	out->load = load_field(cmp);
	out->sweep = out->load >= 0;
	out->groups = calloc(cmp->nrows ? cmp->nrows : 1, sizeof(*out->groups));
	if (!out->groups)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t r = 0; r < cmp->nrows; r++) {
		char *label = group_label(cmp, r, out->load);
		int kind = row_load(cmp, r, out->load);
		struct pl_procure_group *g = NULL;
		struct pl_procure_point *pts;
		if (!label)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		for (size_t i = 0; i < out->ngroups; i++)
			if (strcmp(out->groups[i].label, label) == 0 && out->groups[i].load == kind)
				g = &out->groups[i];
		if (g) {
			free(label);
		} else {
			size_t offer = out->noffers;
			for (size_t i = 0; i < out->ngroups; i++)
				if (strcmp(out->groups[i].label, label) == 0)
					offer = out->groups[i].offer;
			if (offer == out->noffers)
				out->noffers++;
			g = &out->groups[out->ngroups++];
			g->label = label;
			g->load = kind;
			g->offer = offer;
			if (kind != out->groups[0].load)
				out->mixed = 1;
		}
		if (PL_ALLOC_GROW(g->points, g->npoints + 1, g->points_cap))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		pts = g->points;
		memset(&pts[g->npoints], 0, sizeof(*pts));
		pts[g->npoints].row = r;
		pts[g->npoints].concurrency = row_cond_num(cmp, r, kind >= 0 ? kind : PL_C_CONCURRENCY);
		if (out->load < 0 && isnan(pts[g->npoints].concurrency))
			pts[g->npoints].concurrency = row_cond_num(cmp, r, PL_C_REQUEST_RATE);
		g->npoints++;
	}
	for (size_t i = 0; i < out->ngroups && rc == 0; i++) {
		group_price(&out->groups[i], cmp, runs, prices, nprices);
		rc = fill_group(&out->groups[i], cmp, slo, err);
	}
	if (rc == 0)
		rc = add_failed(cmp, runs, out, err);
	if (rc == 0)
		mark_cost_bounds(out);
	if (rc == 0)
		rc = check_price_keys(cmp, prices, nprices, out, err);
	if (rc == 0)
		mark_pareto(out);
	return rc;
}

void pl_procurement_release(struct pl_procurement *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->ngroups; i++) {
		free(p->groups[i].label);
		free(p->groups[i].points);
		free(p->groups[i].failed_loads);
	}
	free(p->groups);
	for (size_t i = 0; i < p->nunused_prices; i++)
		free(p->unused_prices[i]);
	free(p->unused_prices);
	memset(p, 0, sizeof(*p));
}
