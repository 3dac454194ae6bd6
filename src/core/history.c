/*
 * history.c — builds the history of one metric: comparator check, points,
 * step detection over the point medians, marking accepted steps. See
 * history.h.
 */
#include "core/history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/normalize.h"

/* Confidence level of the per-point interval of the median. */
#define HISTORY_CI_LEVEL 0.95

int pl_history_by_valid(int cond)
{
	return cond == PL_C_RUN_STARTED_AT || cond == PL_C_ENGINE_VERSION ||
	       cond == PL_C_DRIVER_VERSION;
}

/* Order of usable runs: --by value, then run_started_at, then id. qsort
 * cannot carry the field, so a small insertion sort over indices (series
 * are short) takes it as an argument. */
static int run_order(const struct pl_run *a, const struct pl_run *b, int by)
{
	int c = pl_value_cmp(by, &a->cond[by], &b->cond[by]);

	if (c == 0)
		c = pl_value_cmp(PL_C_RUN_STARTED_AT, &a->cond[PL_C_RUN_STARTED_AT],
		                 &b->cond[PL_C_RUN_STARTED_AT]);
	if (c == 0)
		c = a->id < b->id ? -1 : a->id > b->id;
	return c;
}

static void sort_runs(const struct pl_run_list *runs, size_t *idx, size_t n, int by)
{
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0 && run_order(&runs->v[idx[b - 1]], &runs->v[idx[b]], by) > 0;
		     b--) {
			size_t t = idx[b];
			idx[b] = idx[b - 1];
			idx[b - 1] = t;
		}
}

/* Fills one point from the runs idx[0..n) (all with the same --by value). */
static int build_point(const struct pl_run_list *runs, const size_t *idx, size_t n, int by,
                       int metric, struct pl_history_point *p, struct pl_error *err)
{
	double *vals = malloc(n * sizeof(*vals));
	size_t total = n, k = 0;
	int rc;

	p->run_ids = malloc(n * sizeof(*p->run_ids));
	p->failed_ids = malloc(n * sizeof(*p->failed_ids));
	if (!vals || !p->run_ids || !p->failed_ids) {
		free(vals);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < total; i++) {
		const struct pl_run *r = &runs->v[idx[i]];
		if (pl_run_failed(r)) { /* a failure mark, never a sample */
			p->failed_ids[p->nfailed++] = r->id;
			continue;
		}
		p->run_ids[k] = r->id;
		vals[k++] = r->metric[metric];
	}
	p->n = n = k;
	p->level = NAN;
	p->value.set = 1;
	p->value.num = runs->v[idx[0]].cond[by].num;
	if (pl_strset(&p->value.text, runs->v[idx[0]].cond[by].text)) {
		free(vals);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (n == 0) { /* every run at this value failed */
		free(vals);
		memset(&p->s, 0, sizeof(p->s));
		p->s.median = NAN;
		return 0;
	}
	rc = pl_stats_summarize(vals, n, HISTORY_CI_LEVEL, &p->s, err);
	free(vals);
	return rc;
}

/* Finds the steps over the point medians and fills levels and steps. */
static int detect(struct pl_history *h, const struct pl_accepted_list *accepted,
                  struct pl_error *err)
{
	size_t np = 0, *idx = NULL, nidx = 0;
	double *y = malloc((h->npoints ? h->npoints : 1) * sizeof(*y)), *levels = NULL;
	size_t *at = malloc((h->npoints ? h->npoints : 1) * sizeof(*at)); /* y[i]'s point */
	enum pl_direction dir = pl_metric_info[h->metric].direction;
	int rc;

	if (!y || !at) {
		free(y);
		free(at);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	/* the points with a median: failed-only points take no part */
	for (size_t i = 0; i < h->npoints; i++)
		if (h->points[i].n > 0) {
			at[np] = i;
			y[np++] = h->points[i].s.median;
		}
	if (np == 0) {
		free(y);
		free(at);
		return 0;
	}
	h->detected = np >= 2 * PL_STATS_STEP_MIN_SEGMENT;
	if ((rc = pl_stats_noise_sigma(y, np, &h->sigma, err)))
		goto done;
	if (h->detected && (rc = pl_stats_detect_steps(y, np, 0, &idx, &nidx, err)))
		goto done;
	levels = malloc((nidx + 1) * sizeof(*levels));
	h->steps = calloc(nidx ? nidx : 1, sizeof(*h->steps));
	if (!levels || !h->steps) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto done;
	}
	if ((rc = pl_stats_segment_levels(y, np, idx, nidx, levels, err)))
		goto done;
	for (size_t i = 0, seg = 0; i < np; i++) {
		if (seg < nidx && i == idx[seg])
			seg++;
		h->points[at[i]].level = levels[seg];
	}
	for (size_t k = 0; k < nidx; k++) {
		struct pl_history_step *s = &h->steps[k];
		const struct pl_history_point *p = &h->points[at[idx[k]]];
		double d = levels[k + 1] - levels[k];

		s->index = at[idx[k]];
		s->before = levels[k];
		s->after = levels[k + 1];
		s->rel_change = levels[k] != 0 ? d / fabs(levels[k]) : d > 0 ? INFINITY : -INFINITY;
		if (dir == PL_LOWER_IS_BETTER) {
			s->worse = d > 0;
			s->better = d < 0;
		} else if (dir == PL_HIGHER_IS_BETTER) {
			s->worse = d < 0;
			s->better = d > 0;
		}
		s->first_run = p->run_ids[0];
		s->accepted = pl_accepted_find(accepted, h->metric, p->run_ids, p->n);
		if (!s->accepted && (s->worse || dir == PL_NO_DIRECTION))
			h->nfailing++;
	}
	h->nsteps = nidx;
	rc = 0;
done:
	free(y);
	free(at);
	free(idx);
	free(levels);
	return rc;
}

int pl_history_build(const struct pl_run_list *runs, int by, int metric,
                     const struct pl_compare_opts *allow, const struct pl_accepted_list *accepted,
                     struct pl_history *out, struct pl_error *err)
{
	struct pl_compare_opts opts;
	size_t *idx = NULL, n = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	out->by = by;
	out->metric = metric;
	if (by < 0 || by >= PL_COND_COUNT || !pl_history_by_valid(by))
		return pl_error_set(err, PL_EUSAGE,
		                    "a history is ordered by run_started_at, engine_version or "
		                    "driver_version");
	if (metric < 0 || metric >= PL_METRIC_COUNT)
		return pl_error_set(err, PL_EUSAGE, "unknown metric");

	/* The comparator decides whether the runs are one condition key. */
	memset(&opts, 0, sizeof(opts));
	opts.axis[0] = by;
	opts.naxis = 1;
	opts.metrics[0] = metric;
	opts.nmetrics = 1;
	opts.failed_quiet = 1; /* failed runs are drawn here, not a caveat */
	if (allow) {
		memcpy(opts.allow_mismatch, allow->allow_mismatch, sizeof(opts.allow_mismatch));
		memcpy(opts.allow_extra, allow->allow_extra, sizeof(opts.allow_extra));
		opts.nallow_extra = allow->nallow_extra;
		opts.allow_errors = allow->allow_errors;
	}
	if ((rc = pl_compare_build(runs, &opts, &out->cmp, err)))
		return rc;

	idx = malloc(runs->n * sizeof(*idx));
	out->points = calloc(runs->n, sizeof(*out->points));
	if (!idx || !out->points) {
		free(idx);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < runs->n; i++) {
		if (!runs->v[i].cond[by].set)
			out->skipped_no_value++;
		else if (pl_run_failed(&runs->v[i])) {
			idx[n++] = i; /* a failure mark at its value */
			out->nfailed++;
		} else if (!runs->v[i].has_metric[metric])
			out->skipped_no_metric++;
		else
			idx[n++] = i;
	}
	if (n == 0) {
		free(idx);
		return pl_error_set(err, PL_EEMPTY, "no selected run has both %s and %s",
		                    pl_cond_info[by].name, pl_metric_info[metric].name);
	}
	sort_runs(runs, idx, n, by);
	for (size_t start = 0; start < n;) {
		size_t end = start + 1;
		while (end < n && pl_value_equal(&runs->v[idx[start]].cond[by], &runs->v[idx[end]].cond[by]))
			end++;
		rc = build_point(runs, idx + start, end - start, by, metric,
		                 &out->points[out->npoints], err);
		out->npoints++; /* counted even on failure so release frees it */
		if (rc) {
			free(idx);
			return rc;
		}
		start = end;
	}
	out->nruns = n - out->nfailed;
	free(idx);
	return detect(out, accepted, err);
}

void pl_history_release(struct pl_history *h)
{
	if (!h)
		return;
	pl_comparison_release(&h->cmp);
	for (size_t i = 0; i < h->npoints; i++) {
		free(h->points[i].value.text);
		free(h->points[i].run_ids);
		free(h->points[i].failed_ids);
	}
	free(h->points);
	free(h->steps);
	memset(h, 0, sizeof(*h));
}
