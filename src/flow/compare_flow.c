/*
 * compare_flow.c — select -> compare: which store query a comparison
 * needs, the comparison, and for a selection that matches nothing the
 * filter to blame with the closest stored values.
 */
#include "flow/compare_flow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "core/requests.h"
#include "store/requests.h"
#include "util/alloc.h"
#include "util/suggest.h"

/* Results a default comparison shows beside the default metrics when any
 * selected run records them: speculative decoding's acceptance (a run that
 * speculates shows how well) and structured output's correct rate. */
static const int shown_if_recorded[] = {PL_M_SPEC_ACCEPTANCE_RATE, PL_M_SPEC_ACCEPTANCE_LENGTH,
                                        PL_M_CORRECT_RATE};

/* A default comparison (no --metric): opts gets the default metrics and
 * each of shown_if_recorded that some selected run (runs, else cols)
 * holds. */
static void with_recorded(struct pl_compare_opts *opts, const struct pl_run_list *runs,
                          const struct pl_run_columns *cols)
{
	size_t n;
	const int *d = pl_compare_default_metrics(&n);

	if (opts->nmetrics)
		return;
	memcpy(opts->metrics, d, n * sizeof(int));
	opts->nmetrics = n;
	for (size_t i = 0; i < sizeof(shown_if_recorded) / sizeof(shown_if_recorded[0]); i++) {
		int m = shown_if_recorded[i], held = 0;
		for (size_t r = 0; runs && r < runs->n && !held; r++)
			held = runs->v[r].has_metric[m];
		for (size_t r = 0; !runs && cols->metric[m] && r < cols->n && !held; r++)
			held = !isnan(cols->metric[m][r]);
		if (held && opts->nmetrics < sizeof(opts->metrics) / sizeof(opts->metrics[0]))
			opts->metrics[opts->nmetrics++] = m;
	}
}

/* The metrics a comparison under opts reads: those it shows and those its
 * rules read (the errors rule, the workload rule). */
static void compared_metrics(const struct pl_compare_opts *opts, unsigned char want[PL_METRIC_COUNT])
{
	size_t n = opts->nmetrics;
	const int *m = opts->metrics;

	memset(want, 0, PL_METRIC_COUNT);
	if (n == 0)
		m = pl_compare_default_metrics(&n);
	for (size_t i = 0; i < n; i++)
		want[m[i]] = 1;
	want[PL_M_ERROR_RATE] = want[PL_M_INPUT_TOKENS_MEAN] = want[PL_M_OUTPUT_TOKENS_MEAN] = 1;
	want[PL_M_REQUEST_THROUGHPUT] = 1; /* the workload rule's rate shortfall */
	want[PL_M_REQUESTS_COMPLETED] = 1; /* failed runs are left out */
	if (opts->nmetrics == 0) /* shown by default where recorded (with_recorded()) */
		for (size_t i = 0; i < sizeof(shown_if_recorded) / sizeof(shown_if_recorded[0]); i++)
			want[shown_if_recorded[i]] = 1;
	if (opts->has_slo) /* goodput at a per-request SLO: per second of the run */
		want[PL_M_DURATION] = 1;
	if (want[PL_M_GOODPUT]) /* goodput compares only under one SLO */
		want[PL_M_GOODPUT_SLO_TTFT] = want[PL_M_GOODPUT_SLO_TPOT] = want[PL_M_GOODPUT_SLO_E2EL] = 1;
}

/* The distinct stored values of one condition (closest_values()). */
struct values_seen {
	int cond;    /* enum pl_cond_id */
	char **v;    /* distinct texts, owned */
	size_t n, cap;
	int oom;
};

static int collect_value(void *ctx, const struct pl_run *run, struct pl_error *err)
{
	struct values_seen *vs = ctx;
	const struct pl_value *val = &run->cond[vs->cond];

	(void)err;
	if (!val->set || !val->text || vs->n >= 10000)
		return 0;
	for (size_t i = 0; i < vs->n; i++)
		if (strcmp(vs->v[i], val->text) == 0)
			return 0;
	if (PL_ALLOC_GROW(vs->v, vs->n + 1, vs->cap) || !(vs->v[vs->n] = strdup(val->text))) {
		vs->oom = 1;
		return 0;
	}
	vs->n++;
	return 0;
}

/* For a selection matching no run: the first --where FIELD=VALUE whose
 * value no run matching the other filters holds, and the (at most 3)
 * stored values of FIELD closest to it by edit distance (ties by text),
 * as "; no run has model=X (closest stored values: 'a', 'b', 'c')" into
 * out. "" when no single filter is to blame (each value is held by some
 * run matching the others, or the others match nothing) or on error. */
static void closest_values(struct pl_store *st, const struct pl_selection *sel, char *out,
                           size_t n)
{
	out[0] = '\0';
	for (size_t i = 0; i < sel->nfilters; i++) {
		const struct pl_filter *f = &sel->filters[i];
		struct pl_filter others[64];
		struct values_seen vs = {0};
		struct pl_error err;
		size_t no = 0, len;
		int held = 0;

		if (f->cond < 0 || !f->value)
			continue;
		for (size_t k = 0; k < sel->nfilters; k++)
			if (k != i)
				others[no++] = sel->filters[k];
		vs.cond = f->cond;
		pl_error_init(&err);
		if (pl_store_each_run(st, others, no, collect_value, &vs, &err) == 0 && !vs.oom) {
			for (size_t k = 0; k < vs.n; k++)
				held |= strcmp(vs.v[k], f->value) == 0;
			if (!held && vs.n > 0) { /* (none: another filter leaves nothing) */
				/* the closest three, by edit distance then text */
				len = (size_t)snprintf(out, n, "; no run has %s=%s", pl_cond_info[f->cond].name,
				                       f->value);
				for (size_t pick = 0; pick < 3 && pick < vs.n && len < n; pick++) {
					size_t best = pick, bd = pl_edit_distance(f->value, vs.v[pick]);
					for (size_t k = pick + 1; k < vs.n; k++) {
						size_t d = pl_edit_distance(f->value, vs.v[k]);
						if (d < bd || (d == bd && strcmp(vs.v[k], vs.v[best]) < 0)) {
							bd = d;
							best = k;
						}
					}
					{
						char *t = vs.v[pick];
						vs.v[pick] = vs.v[best];
						vs.v[best] = t;
					}
					len += (size_t)snprintf(out + len, n - len, "%s'%s'",
					                        pick ? ", " : " (closest stored values: ", vs.v[pick]);
				}
				if (len < n)
					snprintf(out + len, n - len, ")");
			}
		}
		for (size_t k = 0; k < vs.n; k++)
			free(vs.v[k]);
		free(vs.v);
		if (out[0])
			return;
	}
}

/* compare --slo: grades every run of cols at slo from its stored requests
 * (a run without them gets none) over the run's duration, and adds the
 * rows' columns (pl_compare_grade_slo). Returns 0 or a PL_E* code. */
static int grade_slo(struct pl_store *st, const struct pl_run_columns *cols,
                     const struct pl_rq_slo *slo, struct pl_comparison *cmp, struct pl_error *err)
{
	struct pl_run_grade *g = calloc(cols->n ? cols->n : 1, sizeof(*g));
	const double *dur = cols->metric[PL_M_DURATION];
	int rc = 0;

	if (!g)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t i = 0; i < cols->n && rc == 0; i++) {
		struct pl_requests *rq = NULL;

		g[i].run = cols->id[i];
		rc = pl_store_read_request_columns(st, cols->id[i], &rq, err); /* no blob copy */
		if (rc == 0 && rq) {
			g[i].has_requests = 1;
			rc = pl_requests_grade(rq, slo, dur ? dur[i] : NAN, &g[i].grade);
		}
		pl_requests_free(rq);
	}
	if (rc == 0)
		rc = pl_compare_grade_slo(cmp, slo, g, cols->n, err);
	free(g);
	return rc;
}

int pl_flow_compare(struct pl_store *st, const struct pl_selection *sel, struct pl_run_list *runs,
                    struct pl_comparison *cmp, char *hint, size_t nhint, struct pl_error *err)
{
	struct pl_run_list own;
	struct pl_run_columns cols;
	struct pl_compare_opts opts;
	int rc;

	pl_run_list_init(&own);
	pl_run_columns_init(&cols);
	memset(cmp, 0, sizeof(*cmp));
	if (nhint)
		hint[0] = '\0';
	for (size_t k = 0; k < sel->opts.naxis && !runs; k++)
		if (pl_cond_per_run(sel->opts.axis[k]))
			runs = &own; /* columns hold one value per conditions row */
	if (runs) {
		rc = pl_store_query(st, sel->filters, sel->nfilters, runs, err);
	} else {
		unsigned char want[PL_METRIC_COUNT];

		compared_metrics(&sel->opts, want);
		rc = pl_store_query_columns(st, sel->filters, sel->nfilters, want, &cols, err);
	}
	if (rc)
		goto out;
	opts = sel->opts;
	with_recorded(&opts, runs, &cols);
	if (runs && (rc = pl_run_columns_borrow(&cols, runs))) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	memset(cmp, 0, sizeof(*cmp));
	opts.subsets_min_rows = 1; /* a refusal names what would compare */
	rc = pl_compare_build_columns(&cols, &opts, cmp, err);
	if (rc == 0 && opts.has_slo)
		rc = grade_slo(st, &cols, &opts.slo, cmp, err);
	if (rc == PL_EEMPTY && (runs ? runs->n : cols.n) == 0 && nhint)
		closest_values(st, sel, hint, nhint); /* nothing matched: which filter, what is near */
out:
	pl_run_list_release(&own);
	pl_run_columns_release(&cols);
	return rc;
}
