/*
 * compare_slo.c — a comparison graded at a per-request SLO (compare
 * --slo): each row's slo_attainment, goodput and goodput output
 * throughput, pooled over its runs the way every metric of a row is (the
 * median of the runs' values, with min, max and n), from grades the flow
 * layer computed on each run's stored requests (core/requests.h). Runs
 * without stored requests, or without a duration, are named in caveats.
 */
#include "core/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/msg.h"
#include "core/stats.h"
#include "util/sort.h"

const char *const pl_slo_col_name[PL_SLO_COLS] = {"slo_attainment", "goodput",
                                                  "goodput_output_throughput"};

static int cmp_grade(const void *a, const void *b)
{
	long long x = ((const struct pl_run_grade *)a)->run, y = ((const struct pl_run_grade *)b)->run;
	return x < y ? -1 : x > y;
}

/* The grade of run id in grades[0..n) (sorted by run), or NULL when it
 * has none. */
static const struct pl_run_grade *grade_of(const struct pl_run_grade *grades, size_t n, long long id)
{
	struct pl_run_grade key = {.run = id};
	const struct pl_run_grade *g = n ? bsearch(&key, grades, n, sizeof(*grades), cmp_grade) : NULL;

	return g && g->has_requests ? g : NULL;
}

/* Column c of a grade (NaN when the run has no value of it). */
static double col_value(const struct pl_rq_grade *g, int c)
{
	return c == PL_SLO_ATTAINMENT ? g->attainment : c == PL_SLO_GOODPUT ? g->goodput : g->goodput_tokens;
}

/* Pools one row: v is scratch of row->n entries. Collects the row's runs
 * without requests (or with requests and no duration) into bare / nodur. */
static void pool_row(struct pl_compare_row *row, const struct pl_run_grade *grades, size_t n,
                     double *v, long long *bare, size_t *nbare, long long *nodur, size_t *nnodur)
{
	for (size_t i = 0; i < row->n; i++) {
		const struct pl_run_grade *g = grade_of(grades, n, row->run_ids[i]);
		if (!g)
			bare[(*nbare)++] = row->run_ids[i];
		else if (isnan(g->grade.goodput))
			nodur[(*nnodur)++] = row->run_ids[i];
	}
	for (int c = 0; c < PL_SLO_COLS; c++) {
		size_t k = 0;
		for (size_t i = 0; i < row->n; i++) {
			const struct pl_run_grade *g = grade_of(grades, n, row->run_ids[i]);
			double x = g ? col_value(&g->grade, c) : NAN;
			if (!isnan(x))
				v[k++] = x;
		}
		row->slo.n[c] = k;
		row->slo.value[c] = row->slo.min[c] = row->slo.max[c] = NAN;
		if (k == 0)
			continue;
		row->slo.min[c] = row->slo.max[c] = v[0];
		for (size_t i = 1; i < k; i++) {
			row->slo.min[c] = v[i] < row->slo.min[c] ? v[i] : row->slo.min[c];
			row->slo.max[c] = v[i] > row->slo.max[c] ? v[i] : row->slo.max[c];
		}
		row->slo.value[c] = pl_median(v, k); /* the rule of every row's median */
	}
}

static int push_runs(struct pl_comparison *cmp, enum pl_msg_code code, long long *ids, size_t n)
{
	struct pl_msg m;

	if (n == 0)
		return 0;
	qsort(ids, n, sizeof(*ids), pl_cmp_ll);
	pl_msg_init(&m, code);
	pl_msg_runs(&m, ids, n);
	return pl_msgs_push(&cmp->caveats, &m);
}

int pl_compare_grade_slo(struct pl_comparison *cmp, const struct pl_rq_slo *slo,
                         const struct pl_run_grade *grades, size_t n, struct pl_error *err)
{
	size_t total = 0, nbare = 0, nnodur = 0;
	long long *bare, *nodur;
	struct pl_run_grade *sorted;
	double *v;
	int rc = 0;

	cmp->has_slo = 1;
	cmp->slo = *slo;
	for (size_t r = 0; r < cmp->nrows; r++)
		total += cmp->rows[r].n;
	bare = malloc((total ? total : 1) * sizeof(*bare));
	nodur = malloc((total ? total : 1) * sizeof(*nodur));
	v = malloc((total ? total : 1) * sizeof(*v));
	sorted = malloc((n ? n : 1) * sizeof(*sorted));
	if (!bare || !nodur || !v || !sorted) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	if (n)
		memcpy(sorted, grades, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_grade);
	for (size_t r = 0; r < cmp->nrows; r++)
		pool_row(&cmp->rows[r], sorted, n, v, bare, &nbare, nodur, &nnodur);
	for (size_t r = 0; r < cmp->nrows; r++) {
		struct pl_compare_row *row = &cmp->rows[r];
		const struct pl_compare_row *base = &cmp->rows[row->base];
		if (cmp->naxis > 1 && row->base == r)
			continue; /* the first of its kind, as for the metrics */
		for (int c = 0; c < PL_SLO_COLS; c++) {
			if (row->slo.n[c] && base->slo.n[c] && base->slo.value[c] != 0) {
				row->slo.delta_pct[c] = 100.0 * (row->slo.value[c] / base->slo.value[c] - 1.0);
				row->slo.has_delta[c] = 1;
			}
		}
	}
	if (push_runs(cmp, PL_MSG_CAV_SLO_NO_REQUESTS, bare, nbare) ||
	    push_runs(cmp, PL_MSG_CAV_SLO_NO_DURATION, nodur, nnodur))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
out:
	free(bare);
	free(nodur);
	free(v);
	free(sorted);
	return rc;
}
