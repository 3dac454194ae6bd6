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

const char *pl_verdict_name(enum pl_verdict v)
{
	switch (v) {
	case PL_V_REGRESSION:
		return "regression";
	case PL_V_ACCEPTED:
		return "accepted";
	case PL_V_IMPROVEMENT:
		return "improvement";
	case PL_V_WITHIN:
		return "within threshold";
	case PL_V_CHANGED:
		return "changed";
	case PL_V_NO_CHANGE:
		return "no change";
	case PL_V_TOO_FEW:
		return "too few samples";
	}
	return "?";
}

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

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
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

/* Summarises and compares metric m; sel holds the baseline runs [0, nb) and
 * then the candidate runs [nb, sel->n). */
static int check_metric(const struct pl_run_list *sel, size_t nb, int m, const struct pl_check *chk,
                        const struct pl_accepted_list *accepted, struct pl_check_metric *out,
                        double *old, double *new_, struct pl_error *err)
{
	size_t no = gather(sel, 0, nb, m, old), nn = gather(sel, nb, sel->n, m, new_);
	int rc;

	memset(out, 0, sizeof(*out));
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
	if ((rc = pl_stats_compare(old, no, new_, nn, pl_metric_info[m].direction, chk->alpha,
	                           chk->threshold, &out->change, err)))
		return rc;
	if (!out->change.decidable)
		out->verdict = PL_V_TOO_FEW;
	else if (!out->change.significant)
		out->verdict = PL_V_NO_CHANGE;
	else if (out->change.worse) {
		out->accepted = pl_accepted_find(accepted, m, chk->cand_ids, chk->n_cand);
		out->verdict = out->accepted ? PL_V_ACCEPTED : PL_V_REGRESSION;
	} else if (out->change.better)
		out->verdict = PL_V_IMPROVEMENT;
	else if (pl_metric_info[m].direction == PL_NO_DIRECTION)
		out->verdict = PL_V_CHANGED;
	else
		out->verdict = PL_V_WITHIN;
	return 0;
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
		const char *want = side ? opts->candidate : opts->baseline;
		for (size_t i = 0; i < runs->n; i++) {
			struct pl_run *r;
			if (!axis_is(&runs->v[i], opts->axis, want))
				continue;
			if (pl_run_failed(&runs->v[i])) { /* never a sample */
				if (side == 0) {
					out->n_base_failed++;
				} else {
					long long *ids = realloc(out->failed_ids,
					                         (out->n_failed + 1) * sizeof(*ids));
					if (!ids)
						return pl_error_set(err, PL_ENOMEM, "out of memory");
					out->failed_ids = ids;
					ids[out->n_failed++] = runs->v[i].id;
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
		qsort(out->failed_ids, out->n_failed, sizeof(long long), cmp_ll);
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
	return 0;
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
	if (opts->axis < 0 || opts->axis >= PL_COND_COUNT)
		return pl_error_set(err, PL_EUSAGE, "check needs one --axis field");
	if (!(opts->alpha > 0 && opts->alpha < 1))
		return pl_error_set(err, PL_EUSAGE, "alpha must be inside (0, 1)");
	if (!(opts->threshold >= 0 && isfinite(opts->threshold)))
		return pl_error_set(err, PL_EUSAGE, "the threshold must be a finite percentage >= 0");
	if (strcmp(opts->baseline, opts->candidate) == 0)
		return pl_error_set(err, PL_EUSAGE, "baseline and candidate are the same value '%s'",
		                    opts->baseline);
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
	qsort(out->base_ids, out->n_base, sizeof(long long), cmp_ll);
	qsort(out->cand_ids, out->n_cand, sizeof(long long), cmp_ll);

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
