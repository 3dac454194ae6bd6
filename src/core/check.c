/*
 * check.c — baseline against candidate, metric by metric. See check.h.
 *
 * The order of work: split the runs into baseline and candidate by the axis
 * value, let the comparator accept or refuse their union, resolve the
 * metrics, then summarise and compare each metric and give it a verdict.
 */
#include "core/check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/normalize.h"
#include "util/alloc.h"
#include "util/sort.h"

/* 1 if run's axis value is text (normalized). Numbers compare numerically so
 * that "16" and "16.0" select the same runs. */
static int axis_is(const struct pl_run *run, int axis, const char *text)
{
	const struct pl_value *v = &run->cond[axis];
	enum pl_ctype t = pl_cond_info[axis].type;

	if (!v->set)
		return 0;
	if (t == PL_CT_INT || t == PL_CT_REAL) {
		double d;
		return pl_parse_num(text, 1, &d) == 0 && d == v->num;
	}
	return strcmp(v->text, text) == 0;
}

static void append(char *buf, size_t n, const char *s)
{
	size_t len = strlen(buf);
	if (len + 1 < n)
		snprintf(buf + len, n - len, "%s", s);
}

/* "0.9.0, 0.9.1" — the distinct axis values of runs, in value order. */
static void list_values(const struct pl_run_list *runs, int axis, char *buf, size_t n)
{
	const struct pl_value *prev = NULL;

	buf[0] = '\0';
	for (;;) {
		/* the smallest value greater than prev (n is small: quadratic is fine) */
		const struct pl_value *best = NULL;
		for (size_t i = 0; i < runs->n; i++) {
			const struct pl_value *v = &runs->v[i].cond[axis];
			if (!v->set || (prev && pl_value_cmp(axis, v, prev) <= 0))
				continue;
			if (!best || pl_value_cmp(axis, v, best) < 0)
				best = v;
		}
		if (!best)
			break;
		append(buf, n, prev ? ", " : "");
		append(buf, n, best->text);
		prev = best;
	}
	if (!buf[0])
		append(buf, n, "none");
}

/* Values of metric m on the runs idx[0..n) that have it; returns the count. */
static size_t gather(const struct pl_run_list *sel, size_t from, size_t to, int m, double *out)
{
	size_t k = 0;

	for (size_t i = from; i < to; i++)
		if (sel->v[i].has_metric[m])
			out[k++] = sel->v[i].metric[m];
	return k;
}

static int side_has(const struct pl_run_list *sel, size_t from, size_t to, int m)
{
	for (size_t i = from; i < to; i++)
		if (sel->v[i].has_metric[m])
			return 1;
	return 0;
}

static void count_verdict(struct pl_check *out);
static int check_series(const struct pl_run_list *runs, const struct pl_check_opts *opts,
                        const struct pl_accepted_list *accepted, struct pl_check *out,
                        struct pl_error *err);

/* Summarises old[0..no) and new_[0..nn) of metric m into out and judges
 * them: the U test, or, when it cannot decide with these n and the baseline
 * has PL_STATS_PREDICTION_MIN values, the candidate's median against the
 * prediction interval of the baseline values (check.h). cand_ids[0..ncand)
 * are the candidate's runs (for accepted steps). */
static int judge_sets(const double *old, size_t no, const double *new_, size_t nn, int m,
                      const struct pl_check *chk, const struct pl_accepted_list *accepted,
                      const long long *cand_ids, size_t ncand, struct pl_check_metric *out,
                      struct pl_error *err)
{
	enum pl_direction dir = pl_metric_info[m].direction;
	int rc;

	out->metric = m;
	out->min_p = pl_stats_mann_whitney_min_p(no, nn);
	if (no && (rc = pl_stats_summarize(old, no, PL_CHECK_CI_LEVEL, &out->base, err)))
		return rc;
	if (nn && (rc = pl_stats_summarize(new_, nn, PL_CHECK_CI_LEVEL, &out->cand, err)))
		return rc;
	if (!no || !nn) {
		out->verdict = PL_V_TOO_FEW;
		out->change.n_old = no;
		out->change.n_new = nn;
		return 0;
	}
	if ((rc = pl_stats_compare(old, no, new_, nn, dir, chk->alpha, chk->threshold, &out->change,
	                           err)))
		return rc;
	if (!out->change.decidable && no >= PL_STATS_PREDICTION_MIN &&
	    (rc = pl_stats_compare_prediction(old, no, new_, nn, dir, chk->alpha, chk->threshold,
	                                      &out->change, err)))
		return rc;
	out->verdict = pl_verdict_of(&out->change, dir, accepted, m, cand_ids, ncand, &out->accepted);
	return 0;
}

/* Summarises and compares metric m; sel holds the baseline runs [0, nb) and
 * then the candidate runs [nb, sel->n). */
static int check_metric(const struct pl_run_list *sel, size_t nb, int m, const struct pl_check *chk,
                        const struct pl_accepted_list *accepted, struct pl_check_metric *out,
                        double *old, double *new_, struct pl_error *err)
{
	size_t no = gather(sel, 0, nb, m, old), nn = gather(sel, nb, sel->n, m, new_);

	memset(out, 0, sizeof(*out));
	return judge_sets(old, no, new_, nn, m, chk, accepted, chk->cand_ids, chk->n_cand, out, err);
}

/* Copies into sel the runs of runs whose axis field is the baseline value,
 * then those with the candidate value, each in id order; *nb receives the
 * number of baseline runs. Returns 0, PL_ENOMEM, or PL_EEMPTY naming the
 * side that has no run and the values the axis field does have. */
static int select_sides(const struct pl_run_list *runs, const struct pl_check_opts *opts,
                        struct pl_run_list *sel, size_t *nb, struct pl_check *out,
                        struct pl_error *err)
{
	for (int side = 0; side < 2; side++) {
		for (size_t i = 0; i < runs->n; i++) {
			struct pl_run *r;
			int is = 0;
			if (side)
				is = axis_is(&runs->v[i], opts->axis, opts->candidate);
			else if (opts->nbaselines == 0)
				is = axis_is(&runs->v[i], opts->axis, opts->baseline);
			for (size_t k = 0; !side && k < opts->nbaselines && !is; k++)
				is = axis_is(&runs->v[i], opts->axis, opts->baselines[k]);
			if (!is)
				continue;
			if (pl_run_failed(&runs->v[i])) { /* never a sample */
				if (side == 0) {
					out->n_base_failed++;
				} else {
					if (PL_ALLOC_GROW(out->failed_ids, out->n_failed + 1,
					                  out->failed_ids_cap))
						return pl_error_set(err, PL_ENOMEM, "out of memory");
					out->failed_ids[out->n_failed++] = runs->v[i].id;
				}
				continue;
			}
			if (!(r = pl_run_list_push(sel)) || pl_run_copy(r, &runs->v[i]))
				return pl_error_set(err, PL_ENOMEM, "out of memory");
		}
		if (side == 0)
			*nb = sel->n;
	}
	if (out->n_failed)
		qsort(out->failed_ids, out->n_failed, sizeof(long long), pl_cmp_ll);
	if (*nb == 0 && out->n_base_failed)
		return pl_error_set(err, PL_EEMPTY,
		                    "every baseline run with %s '%s' failed (no request completed): "
		                    "nothing to compare with",
		                    pl_cond_info[opts->axis].name, opts->baseline);
	if (sel->n == *nb && out->n_failed)
		return 0; /* every candidate run failed: the gate fails on that alone */
	if (*nb == 0 || sel->n == *nb) {
		char vals[400];
		list_values(runs, opts->axis, vals, sizeof(vals));
		return pl_error_set(err, PL_EEMPTY, "no %s run with %s '%s' in the selection (%s values: %s)",
		                    *nb == 0 ? "baseline" : "candidate", pl_cond_info[opts->axis].name,
		                    *nb == 0 ? opts->baseline : opts->candidate,
		                    pl_cond_info[opts->axis].name, vals);
	}
	return 0;
}

/* Tests each metric named in opts (else each headline metric both sides
 * have) once, filling out->m[0..nm) and the verdict counts. old and new_
 * are scratch arrays of sel->n doubles. Returns 0 or check_metric()'s code. */
static int check_metrics(const struct pl_run_list *sel, size_t nb, const struct pl_check_opts *opts,
                         const struct pl_accepted_list *accepted, struct pl_check *out,
                         double *old, double *new_, struct pl_error *err)
{
	size_t nmetrics;
	const int *metrics;
	int rc;

	if (opts->nmetrics) {
		metrics = opts->metrics;
		nmetrics = opts->nmetrics;
	} else {
		metrics = pl_compare_default_metrics(&nmetrics);
	}
	for (size_t k = 0; k < nmetrics; k++) {
		int m = metrics[k], dup = 0;
		for (size_t j = 0; j < out->nm; j++)
			dup |= out->m[j].metric == m;
		if (dup)
			continue;
		/* by default only the headline metrics both sides have */
		if (!opts->nmetrics && (!side_has(sel, 0, nb, m) || !side_has(sel, nb, sel->n, m)))
			continue;
		if ((rc = check_metric(sel, nb, m, out, accepted, &out->m[out->nm], old, new_, err)))
			return rc;
		count_verdict(out);
	}
	return 0;
}

/* ------------------------------------------------------------ series checks */

/* (run id, index in the run list), sorted by id: finds a point's runs. */
struct id_index {
	long long id;
	size_t i;
};

static int cmp_id_index(const void *a, const void *b)
{
	long long x = ((const struct id_index *)a)->id, y = ((const struct id_index *)b)->id;
	return (x > y) - (x < y);
}

/* Appends the values of metric m of the runs of point p to v (at *n). */
static void point_values(const struct pl_run_list *runs, const struct id_index *ix,
                         const struct pl_history_point *p, int m, double *v, size_t *n)
{
	for (size_t k = 0; k < p->n; k++) {
		struct id_index key = {p->run_ids[k], 0};
		const struct id_index *f = bsearch(&key, ix, runs->n, sizeof(*ix), cmp_id_index);
		if (f && runs->v[f->i].has_metric[m])
			v[(*n)++] = runs->v[f->i].metric[m];
	}
}

/* 1 if point p's label is text. */
static int point_is(const struct pl_history_point *p, const char *text)
{
	return p->value.text && strcmp(p->value.text, text) == 0;
}

/* The run ids of points[from..to) into a new ascending array *ids (*n). */
static int collect_ids(const struct pl_history *h, const size_t *which, size_t nwhich,
                       long long **ids, size_t *n)
{
	size_t total = 0, k = 0;

	for (size_t w = 0; w < nwhich; w++)
		total += h->points[which[w]].n;
	if (!(*ids = malloc((total ? total : 1) * sizeof(long long))))
		return PL_ENOMEM;
	for (size_t w = 0; w < nwhich; w++)
		for (size_t j = 0; j < h->points[which[w]].n; j++)
			(*ids)[k++] = h->points[which[w]].run_ids[j];
	qsort(*ids, k, sizeof(long long), pl_cmp_ll);
	*n = k;
	return 0;
}

static void count_verdict(struct pl_check *out)
{
	switch (out->m[out->nm].verdict) {
	case PL_V_REGRESSION:
		out->nregressions++;
		break;
	case PL_V_ACCEPTED:
		out->naccepted++;
		break;
	case PL_V_IMPROVEMENT:
		out->nimprovements++;
		break;
	default:
		break;
	}
	if (out->m[out->nm].verdict != PL_V_TOO_FEW)
		out->ndecidable++;
	out->nm++;
}

/* One metric of a series check: h is its history. which[] is scratch of
 * h->npoints entries, old/new_ of runs->n doubles. The first call names the
 * sides (candidate label, run ids, failed runs); *skip is set when the
 * candidate point has no run with a value (every run failed): the metric is
 * then not tested. */
static int series_metric(const struct pl_run_list *runs, const struct id_index *ix,
                         const struct pl_check_opts *opts, const struct pl_history *h,
                         const struct pl_accepted_list *accepted, struct pl_check *out,
                         size_t *which, double *old, double *new_, int *skip,
                         struct pl_error *err)
{
	struct pl_check_metric *cm = &out->m[out->nm];
	size_t c = h->npoints, nw = 0, no = 0, nn = 0;
	const struct pl_history_point *cp;
	int m = h->metric, rc;

	memset(cm, 0, sizeof(*cm));
	cm->metric = m;
	if (opts->candidate_latest) {
		c = h->npoints - 1;
	} else {
		for (size_t i = 0; i < h->npoints && c == h->npoints; i++)
			if (point_is(&h->points[i], opts->candidate))
				c = i;
		if (c == h->npoints)
			return pl_error_set(err, PL_EEMPTY,
			                    "no candidate point with %s '%s' in the series of %s (%zu point%s, "
			                    "the last '%s')",
			                    pl_group_name(opts->group), opts->candidate,
			                    pl_metric_info[m].name, h->npoints, h->npoints == 1 ? "" : "s",
			                    h->points[h->npoints - 1].value.text
			                        ? h->points[h->npoints - 1].value.text
			                        : "");
	}
	cp = &h->points[c];
	cm->cand_point = c;
	point_values(runs, ix, cp, m, new_, &nn);
	/* failed-only points (no median) are failure marks, never a baseline:
	 * previous is the nearest point before with a median, window:N the N
	 * nearest such points */
	switch (opts->baseline_kind) {
	case PL_BASELINE_PREVIOUS:
		for (size_t i = c; i > 0 && nw == 0; i--)
			if (h->points[i - 1].n > 0)
				which[nw++] = i - 1;
		break;
	case PL_BASELINE_WINDOW: {
		size_t from = c, floor_ = pl_history_window_floor(h, c);
		for (size_t k = 0; from > floor_ && k < opts->window; from--)
			if (h->points[from - 1].n > 0)
				k++;
		for (size_t i = from; i < c; i++)
			if (h->points[i].n > 0)
				which[nw++] = i;
		break;
	}
	default:
		for (size_t i = 0; i < h->npoints; i++)
			for (size_t k = 0; k < opts->nbaselines; k++)
				if (i != c && point_is(&h->points[i], opts->baselines[k])) {
					which[nw++] = i;
					break;
				}
		break;
	}
	cm->base_points = nw;
	if (!out->cand_ids) { /* the first metric names the sides */
		size_t nbf = 0;
		for (size_t w = 0; w < nw; w++)
			nbf += h->points[which[w]].nfailed;
		out->n_base_failed = nbf;
		if (cp->nfailed) { /* each fails the gate (check.h) */
			if (!(out->failed_ids = malloc(cp->nfailed * sizeof(long long))))
				return pl_error_set(err, PL_ENOMEM, "out of memory");
			memcpy(out->failed_ids, cp->failed_ids, cp->nfailed * sizeof(long long));
			out->n_failed = cp->nfailed;
			out->failed_ids_cap = cp->nfailed;
			qsort(out->failed_ids, out->n_failed, sizeof(long long), pl_cmp_ll);
		}
		if (pl_strset(&out->candidate, cp->value.text) ||
		    collect_ids(h, which, nw, &out->base_ids, &out->n_base) ||
		    collect_ids(h, &c, 1, &out->cand_ids, &out->n_cand))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (cp->n == 0) { /* every candidate run failed: the metric is not tested */
		*skip = 1;
		return 0;
	}
	if (opts->baseline_kind == PL_BASELINE_WINDOW) {
		enum pl_direction dir = pl_metric_info[m].direction;
		for (size_t w = 0; w < nw; w++)
			old[no++] = h->points[which[w]].s.median;
		cm->min_p = 0;
		if (no && (rc = pl_stats_summarize(old, no, PL_CHECK_CI_LEVEL, &cm->base, err)))
			return rc;
		if ((rc = pl_stats_summarize(new_, nn, PL_CHECK_CI_LEVEL, &cm->cand, err)))
			return rc;
		if (!no) {
			cm->verdict = PL_V_TOO_FEW;
			cm->change.n_new = nn;
			cm->change.method = PL_TEST_WINDOW;
		} else {
			if ((rc = pl_stats_compare_window(old, no, new_, nn, dir, opts->alpha,
			                                      opts->threshold, &cm->change, err)))
				return rc;
			cm->verdict = pl_verdict_of(&cm->change, dir, accepted, m, cp->run_ids, cp->n,
			                            &cm->accepted);
		}
	} else {
		for (size_t w = 0; w < nw; w++)
			point_values(runs, ix, &h->points[which[w]], m, old, &no);
		if ((rc = judge_sets(old, no, new_, nn, m, out, accepted, cp->run_ids, cp->n, cm, err)))
			return rc;
	}
	return 0;
}

/* The series check (check.h). */
static int check_series(const struct pl_run_list *runs, const struct pl_check_opts *opts,
                        const struct pl_accepted_list *accepted, struct pl_check *out,
                        struct pl_error *err)
{
	struct pl_compare_opts allow;
	struct id_index *ix = NULL;
	size_t nmetrics, *which = NULL;
	const int *metrics;
	double *old = NULL, *new_ = NULL;
	char text[64];
	int rc = 0, skip = 0;

	if (opts->group < 0 || opts->group >= PL_G_COUNT)
		return pl_error_set(err, PL_EUSAGE, "unknown --group-by");
	if (opts->baseline_kind == PL_BASELINE_WINDOW && opts->window < 1)
		return pl_error_set(err, PL_EUSAGE, "window:N needs N >= 1");
	if (opts->baseline_kind == PL_BASELINE_VALUES && opts->nbaselines == 0 && !opts->baseline)
		return pl_error_set(err, PL_EUSAGE, "check needs a baseline");
	if (!opts->candidate_latest && !opts->candidate)
		return pl_error_set(err, PL_EUSAGE, "check needs a candidate value or 'latest'");
	out->series = 1;
	out->group = opts->group;
	out->axis = pl_group_axis(opts->group);
	out->baseline_kind = opts->baseline_kind;
	out->window = opts->window;
	out->threshold = opts->threshold;
	out->alpha = opts->alpha;
	if (opts->baseline_kind == PL_BASELINE_WINDOW)
		snprintf(text, sizeof(text), "window:%zu", opts->window);
	else if (opts->baseline_kind == PL_BASELINE_PREVIOUS)
		snprintf(text, sizeof(text), "previous");
	if (pl_strset(&out->baseline,
	              opts->baseline_kind == PL_BASELINE_VALUES ? opts->baseline : text))
		return pl_error_set(err, PL_ENOMEM, "out of memory");

	memset(&allow, 0, sizeof(allow));
	memcpy(allow.allow_mismatch, opts->allow_mismatch, sizeof(allow.allow_mismatch));
	memcpy(allow.allow_extra, opts->allow_extra, sizeof(allow.allow_extra));
	allow.nallow_extra = opts->nallow_extra;
	allow.allow_errors = opts->allow_errors;
	allow.subsets_min_rows = opts->seek_subsets ? 2 : 0;

	ix = malloc((runs->n ? runs->n : 1) * sizeof(*ix));
	which = malloc((runs->n ? runs->n : 1) * sizeof(*which));
	old = malloc((runs->n ? runs->n : 1) * sizeof(*old));
	new_ = malloc((runs->n ? runs->n : 1) * sizeof(*new_));
	out->m = calloc(PL_METRIC_COUNT, sizeof(*out->m));
	if (!ix || !which || !old || !new_ || !out->m) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < runs->n; i++) {
		ix[i].id = runs->v[i].id;
		ix[i].i = i;
	}
	qsort(ix, runs->n, sizeof(*ix), cmp_id_index);

	if (opts->nmetrics) {
		metrics = opts->metrics;
		nmetrics = opts->nmetrics;
	} else {
		metrics = pl_compare_default_metrics(&nmetrics);
	}
	for (size_t k = 0; k < nmetrics; k++) {
		struct pl_history h;
		int m = metrics[k], dup = 0;

		for (size_t j = 0; j < out->nm; j++)
			dup |= out->m[j].metric == m;
		if (dup)
			continue;
		rc = pl_history_build_grouped(runs, opts->group, m, &allow, accepted, &h, err);
		if (rc == PL_EMISMATCH) {
			pl_comparison_release(&out->cmp);
			out->cmp = h.cmp; /* moved: the refusal's mismatches */
			memset(&h.cmp, 0, sizeof(h.cmp));
		} else if (rc == 0 && out->nm == 0) {
			pl_comparison_release(&out->cmp);
			out->cmp = h.cmp; /* moved: the shared conditions of the first metric */
			memset(&h.cmp, 0, sizeof(h.cmp));
		}
		if (rc == PL_EEMPTY && !opts->nmetrics) {
			pl_history_release(&h);
			rc = 0;
			continue;
		}
		if (!rc)
			rc = series_metric(runs, ix, opts, &h, accepted, out, which, old, new_, &skip,
			                   err);
		pl_history_release(&h);
		if (rc)
			goto done;
		if (skip) {
			skip = 0;
			continue;
		}
		count_verdict(out);
	}
	if (out->nm == 0 && !out->n_failed)
		rc = pl_error_set(err, PL_EEMPTY,
		                  "no headline metric has values in the series; name one with --metric");
done:
	free(ix);
	free(which);
	free(old);
	free(new_);
	return rc;
}

int pl_check_build(const struct pl_run_list *runs, const struct pl_check_opts *opts,
                   const struct pl_accepted_list *accepted, struct pl_check *out,
                   struct pl_error *err)
{
	struct pl_run_list sel;
	struct pl_compare_opts copts;
	double *old = NULL, *new_ = NULL;
	size_t nb = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	pl_run_list_init(&sel);
	if (!(opts->alpha > 0 && opts->alpha < 1))
		return pl_error_set(err, PL_EUSAGE, "alpha must be inside (0, 1)");
	if (!(opts->threshold >= 0 && isfinite(opts->threshold)))
		return pl_error_set(err, PL_EUSAGE, "the threshold must be a finite percentage >= 0");
	if (opts->series)
		return check_series(runs, opts, accepted, out, err);
	if (opts->axis < 0 || opts->axis >= PL_COND_COUNT)
		return pl_error_set(err, PL_EUSAGE, "check needs one --axis field");
	if (!opts->baseline || !opts->candidate)
		return pl_error_set(err, PL_EUSAGE, "check needs a baseline and a candidate value");
	if (opts->nbaselines == 0 && strcmp(opts->baseline, opts->candidate) == 0)
		return pl_error_set(err, PL_EUSAGE, "baseline and candidate are the same value '%s'",
		                    opts->baseline);
	for (size_t k = 0; k < opts->nbaselines; k++)
		if (strcmp(opts->baselines[k], opts->candidate) == 0)
			return pl_error_set(err, PL_EUSAGE,
			                    "the candidate '%s' is also one of the baseline values",
			                    opts->candidate);
	out->axis = opts->axis;
	out->threshold = opts->threshold;
	out->alpha = opts->alpha;
	if (pl_strset(&out->baseline, opts->baseline) || pl_strset(&out->candidate, opts->candidate))
		return pl_error_set(err, PL_ENOMEM, "out of memory");

	if ((rc = select_sides(runs, opts, &sel, &nb, out, err)))
		goto done;
	out->n_base = nb;
	out->n_cand = sel.n - nb;
	if (out->n_cand == 0) { /* every candidate run failed: nothing to test */
		rc = 0;
		goto done;
	}

	/* the comparator's rules on the union, with the axis field varying */
	memset(&copts, 0, sizeof(copts));
	copts.axis[0] = opts->axis;
	copts.naxis = 1;
	memcpy(copts.allow_mismatch, opts->allow_mismatch, sizeof(copts.allow_mismatch));
	memcpy(copts.allow_extra, opts->allow_extra, sizeof(copts.allow_extra));
	copts.nallow_extra = opts->nallow_extra;
	copts.allow_errors = opts->allow_errors;
	copts.subsets_min_rows = opts->seek_subsets ? 2 : 0; /* both sides */
	if (opts->nmetrics) {
		memcpy(copts.metrics, opts->metrics, opts->nmetrics * sizeof(int));
		copts.nmetrics = opts->nmetrics;
	}
	if ((rc = pl_compare_build(&sel, &copts, &out->cmp, err)))
		goto done;

	out->base_ids = malloc(out->n_base * sizeof(long long));
	out->cand_ids = malloc(out->n_cand * sizeof(long long));
	old = malloc(sel.n * sizeof(double));
	new_ = malloc(sel.n * sizeof(double));
	out->m = calloc(PL_METRIC_COUNT, sizeof(*out->m));
	if (!out->base_ids || !out->cand_ids || !old || !new_ || !out->m) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < sel.n; i++) {
		if (i < nb)
			out->base_ids[i] = sel.v[i].id;
		else
			out->cand_ids[i - nb] = sel.v[i].id;
	}
	qsort(out->base_ids, out->n_base, sizeof(long long), pl_cmp_ll);
	qsort(out->cand_ids, out->n_cand, sizeof(long long), pl_cmp_ll);

	if ((rc = check_metrics(&sel, nb, opts, accepted, out, old, new_, err)))
		goto done;
	if (out->nm == 0 && !out->n_failed)
		rc = pl_error_set(err, PL_EEMPTY,
		                  "no headline metric has values on both sides; name one with --metric");
	else
		rc = 0;
done:
	free(old);
	free(new_);
	pl_run_list_release(&sel);
	return rc;
}

void pl_check_release(struct pl_check *chk)
{
	if (!chk)
		return;
	free(chk->baseline);
	free(chk->candidate);
	pl_comparison_release(&chk->cmp);
	free(chk->base_ids);
	free(chk->cand_ids);
	free(chk->failed_ids);
	free(chk->m);
	memset(chk, 0, sizeof(*chk));
}

int pl_check_run_starts_change(const struct pl_run_list *runs, int group, int metric,
                               const struct pl_compare_opts *allow, double threshold,
                               long long run_id, enum pl_change_kind *kind, size_t *point,
                               struct pl_error *err)
{
	struct pl_history h;
	struct id_index *ix = NULL;
	size_t at = (size_t)-1;
	int rc;

	*kind = PL_CHANGE_NONE;
	*point = 0;
	if ((rc = pl_history_build_grouped(runs, group, metric, allow, NULL, &h, err)))
		goto done;
	for (size_t i = 0; i < h.npoints && at == (size_t)-1; i++)
		for (size_t k = 0; k < h.points[i].n; k++)
			if (h.points[i].run_ids[k] == run_id)
				at = i;
	if (at == (size_t)-1) {
		rc = pl_error_set(err, PL_EEMPTY, "run %lld is not in the series of %s (it lacks the "
		                  "metric or its %s)", run_id, pl_metric_info[metric].name,
		                  pl_group_name(group));
		goto done;
	}
	*point = at;
	if (!(ix = malloc((runs->n ? runs->n : 1) * sizeof(*ix)))) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < runs->n; i++) {
		ix[i].id = runs->v[i].id;
		ix[i].i = i;
	}
	qsort(ix, runs->n, sizeof(*ix), cmp_id_index);
	for (size_t k = 0; k < h.nsteps; k++)
		if (h.steps[k].index == at)
			*kind = PL_CHANGE_STEP;
	for (int kindw = 0; kindw < 2 && *kind == PL_CHANGE_NONE && at > 0; kindw++) {
		struct pl_check_opts o;
		struct pl_check chk;
		struct pl_run_list upto;

		memset(&chk, 0, sizeof(chk));
		/* the series up to the run's point, judged with the run's point as latest */
		memset(&o, 0, sizeof(o));
		o.series = 1;
		o.group = group;
		o.candidate_latest = 1;
		o.baseline_kind = kindw == 0 ? PL_BASELINE_WINDOW : PL_BASELINE_PREVIOUS;
		o.window = PL_HISTORY_WINDOW_DEFAULT;
		o.metrics[0] = metric;
		o.nmetrics = 1;
		o.alpha = PL_CHECK_ALPHA;
		o.threshold = threshold;
		if (allow) {
			memcpy(o.allow_mismatch, allow->allow_mismatch, sizeof(o.allow_mismatch));
			memcpy(o.allow_extra, allow->allow_extra, sizeof(o.allow_extra));
			o.nallow_extra = allow->nallow_extra;
			o.allow_errors = allow->allow_errors;
		}
		/* a view of the runs of points 0..at: the runs list shares nothing */
		pl_run_list_init(&upto);
		for (size_t i = 0; i <= at && !rc; i++)
			for (size_t k = 0; k < h.points[i].n && !rc; k++) {
				struct id_index key = {h.points[i].run_ids[k], 0};
				const struct id_index *f = bsearch(&key, ix, runs->n, sizeof(*ix), cmp_id_index);
				struct pl_run *c = f ? pl_run_list_push(&upto) : NULL;
				if (f && (!c || pl_run_copy(c, &runs->v[f->i])))
					rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			}
		if (!rc)
			rc = pl_check_build(&upto, &o, NULL, &chk, err);
		if (!rc && chk.nm == 1 && chk.m[0].verdict == PL_V_REGRESSION)
			*kind = kindw == 0 ? PL_CHANGE_WINDOW : PL_CHANGE_PREVIOUS;
		if (rc != PL_ENOMEM && rc != PL_EMISMATCH)
			rc = 0; /* too few points to judge: no regression found this way */
		pl_check_release(&chk);
		pl_run_list_release(&upto);
		if (rc)
			goto done;
	}
done:
	free(ix);
	pl_history_release(&h);
	return rc;
}
