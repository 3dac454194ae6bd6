/*
 * procure.c — procurement arithmetic over a comparison: prices, cost per
 * million output tokens, throughput per accelerator, the SLO-constrained
 * throughput along a concurrency sweep and the Pareto front. The formulas
 * are documented once, in procure.h; this file follows them literally.
 */
#include "core/procure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/normalize.h"
#include "util/buf.h"

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
		    isnan(pts[i].concurrency)) {
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
		if (i + 1 < m && point_meets(&v[i + 1], slo) == 0 && isfinite(v[i + 1].concurrency)) {
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

static int is_concurrency_axis(const struct pl_comparison *cmp)
{
	for (size_t i = 0; i < cmp->naxis; i++)
		if (cmp->axis[i] == PL_C_CONCURRENCY)
			return 1;
	return 0;
}

/* Label of row r without the concurrency axis field ("A / B", "(all)"
 * when there is none); heap, NULL when out of memory. */
static char *group_label(const struct pl_comparison *cmp, size_t r)
{
	struct pl_buf b;

	pl_buf_init(&b);
	for (size_t i = 0; i < cmp->naxis; i++) {
		const struct pl_value *v;
		if (cmp->axis[i] < 0 || cmp->axis[i] >= PL_COND_COUNT || cmp->axis[i] == PL_C_CONCURRENCY)
			continue;
		v = &cmp->rows[r].axis[cmp->axis[i]];
		if (b.len)
			pl_buf_adds(&b, " / ");
		pl_buf_adds(&b, v->set && v->text ? v->text : "(missing)");
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

/* The group's price: for a cloud-api group, token prices from its runs;
 * then price_per_hour from its runs; then the table's entry for its
 * hardware (token prices count only for a cloud-api group). */
static void group_price(struct pl_procure_group *g, const struct pl_comparison *cmp,
                        const struct pl_run_list *runs, const struct pl_price *prices,
                        size_t nprices)
{
	int have = 0, thave = 0, tconflict = 0, api;
	const char *hw = NULL, *dep = NULL;
	double pin = NAN, pout = NAN;

	g->price_per_hour = NAN;
	g->price_in_per_mtok = g->price_out_per_mtok = NAN;
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
				g->price_per_hour = run->cond[PL_C_PRICE_PER_HOUR].num;
				have = 1;
			} else if (run->cond[PL_C_PRICE_PER_HOUR].num != g->price_per_hour) {
				g->price_conflict = 1;
			}
		}
	}
	api = dep && strcmp(dep, "cloud-api") == 0;
	if (api && thave) {
		g->token_priced = 1;
		g->price_per_hour = NAN;
		g->price_conflict = tconflict;
		if (!tconflict) {
			g->price_in_per_mtok = pin;
			g->price_out_per_mtok = pout;
			g->price_source = 1;
		}
		return;
	}
	if (g->price_conflict) {
		g->price_per_hour = NAN;
		return;
	}
	if (have) {
		g->price_source = 1;
		return;
	}
	for (size_t i = 0; hw && i < nprices; i++) {
		char *norm = pl_normalize_value(PL_C_HARDWARE, prices[i].hardware);
		int same = norm && strcmp(norm, hw) == 0;
		free(norm);
		if (!same)
			continue;
		if (prices[i].per_token) {
			if (!api)
				continue;
			g->token_priced = 1;
			g->price_in_per_mtok = prices[i].per_m_input;
			g->price_out_per_mtok = prices[i].per_m_output;
		} else {
			g->price_per_hour = prices[i].price_per_hour;
		}
		g->price_source = 2;
		return;
	}
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

static int fill_group(struct pl_procure_group *g, const struct pl_comparison *cmp,
                      const struct pl_slo *slo, struct pl_error *err)
{
	struct pl_sweep_point *sp;

	qsort(g->points, g->npoints, sizeof(*g->points), cmp_procure_point);
	g->accelerators = row_cond_num(cmp, g->points[0].row, PL_C_ACCELERATOR_COUNT);
	if (!(g->accelerators > 0) || !isfinite(g->accelerators))
		g->accelerators = NAN;
	g->peak_throughput = g->peak_concurrency = NAN;
	g->goodput = NAN;
	g->price_per_acc_hour = g->price_per_hour / g->accelerators;
	sp = calloc(g->npoints, sizeof(*sp));
	if (!sp)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t p = 0; p < g->npoints; p++) {
		struct pl_procure_point *pt = &g->points[p];
		const struct pl_compare_row *row = &cmp->rows[pt->row];
		double tpot = row_metric(row, PL_M_TPOT_P50);
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
			sp[p].latency[k] = row_metric(row, slo->metric[k]);
			sp[p].has[k] = row->n_metric[slo->metric[k]] != 0;
		}
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
	if (slo->n > 0) {
		int rc = pl_procure_slo_throughput(sp, g->npoints, slo, &g->slo, err);
		if (rc) {
			free(sp);
			return rc;
		}
	}
	free(sp);
	g->slo_throughput_per_acc = g->slo.throughput / g->accelerators;
	if (g->token_priced)
		g->slo_cost_per_mtok = g->slo.status == PL_SLO_NONE_MEETS
		                           ? NAN
		                           : point_cost(g, cmp, g->points[0].row, NAN);
	else
		g->slo_cost_per_mtok = pl_procure_cost_per_mtok(g->price_per_hour, g->slo.throughput);
	return 0;
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
	out->sweep = is_concurrency_axis(cmp);
	out->groups = calloc(cmp->nrows ? cmp->nrows : 1, sizeof(*out->groups));
	if (!out->groups)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t r = 0; r < cmp->nrows; r++) {
		char *label = group_label(cmp, r);
		struct pl_procure_group *g = NULL;
		struct pl_procure_point *pts;
		if (!label)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		for (size_t i = 0; i < out->ngroups; i++)
			if (strcmp(out->groups[i].label, label) == 0)
				g = &out->groups[i];
		if (g) {
			free(label);
		} else {
			g = &out->groups[out->ngroups++];
			g->label = label;
		}
		pts = realloc(g->points, (g->npoints + 1) * sizeof(*pts));
		if (!pts)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		g->points = pts;
		memset(&pts[g->npoints], 0, sizeof(*pts));
		pts[g->npoints].row = r;
		pts[g->npoints].concurrency = row_cond_num(cmp, r, PL_C_CONCURRENCY);
		g->npoints++;
	}
	for (size_t i = 0; i < out->ngroups && rc == 0; i++) {
		group_price(&out->groups[i], cmp, runs, prices, nprices);
		rc = fill_group(&out->groups[i], cmp, slo, err);
	}
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
	}
	free(p->groups);
	memset(p, 0, sizeof(*p));
}
