/*
 * requests.c — a run's requests in columns, their checks, the latencies
 * derived from them (one definition for every tool) and SLO grading.
 * See requests.h; the definitions are stated in schema/requests.md.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/requests.h"
#include "core/stats.h"
#include "util/alloc.h"
#include "util/sort.h"

void pl_requests_init(struct pl_requests *rq)
{
	memset(rq, 0, sizeof(*rq));
}

void pl_requests_release(struct pl_requests *rq)
{
	if (!rq)
		return;
	for (size_t i = 0; i < rq->nerrors; i++)
		free(rq->errors[i]);
	free(rq->errors);
	free(rq->error);
	free(rq->input_tokens);
	free(rq->output_tokens);
	free(rq->ttft);
	free(rq->e2el);
	free(rq->itl_mean);
	free(rq->gap_off);
	free(rq->gaps);
	free(rq->blob);
	pl_requests_init(rq);
}

struct pl_requests *pl_requests_new(void)
{
	struct pl_requests *rq = malloc(sizeof(*rq));

	if (rq)
		pl_requests_init(rq);
	return rq;
}

void pl_requests_free(struct pl_requests *rq)
{
	if (!rq)
		return;
	pl_requests_release(rq);
	free(rq);
}

static void *dup_bytes(const void *p, size_t n)
{
	void *q;

	if (!p || n == 0)
		return NULL;
	q = malloc(n);
	if (q)
		memcpy(q, p, n);
	return q;
}

#define DUP_COL(field, count)                                                    \
	do {                                                                     \
		if (src->field) {                                                \
			dst->field = dup_bytes(src->field, (count) * sizeof(*src->field)); \
			if (!dst->field && (count) > 0)                          \
				goto fail;                                       \
		}                                                                \
	} while (0)

struct pl_requests *pl_requests_dup(const struct pl_requests *src)
{
	struct pl_requests *dst = pl_requests_new();

	if (!dst)
		return NULL;
	dst->n = dst->cap = src->n;
	dst->columns = src->columns;
	dst->ngaps = src->ngaps;
	dst->gap_cap = src->gaps ? src->ngaps : 0; /* sealed: counted, not held */
	dst->nblob = src->nblob;
	DUP_COL(error, src->n);
	DUP_COL(input_tokens, src->n);
	DUP_COL(output_tokens, src->n);
	DUP_COL(ttft, src->n);
	DUP_COL(e2el, src->n);
	DUP_COL(itl_mean, src->n);
	DUP_COL(gap_off, src->n + 1);
	DUP_COL(gaps, src->ngaps);
	DUP_COL(blob, src->nblob);
	if (src->nerrors) {
		dst->errors = calloc(src->nerrors, sizeof(*dst->errors));
		if (!dst->errors)
			goto fail;
		for (size_t i = 0; i < src->nerrors; i++) {
			dst->errors[i] = dup_bytes(src->errors[i], strlen(src->errors[i]) + 1);
			if (!dst->errors[i])
				goto fail;
			dst->nerrors = i + 1;
		}
	}
	return dst;
fail:
	pl_requests_free(dst);
	return NULL;
}

static int intern_error(struct pl_requests *rq, const char *text, uint32_t *idx)
{
	size_t cap = rq->nerrors;

	for (size_t i = 0; i < rq->nerrors; i++)
		if (strcmp(rq->errors[i], text) == 0) {
			*idx = (uint32_t)(i + 1);
			return 0;
		}
	if (PL_ALLOC_GROW(rq->errors, rq->nerrors + 1, cap))
		return PL_ENOMEM;
	rq->errors[rq->nerrors] = dup_bytes(text, strlen(text) + 1);
	if (!rq->errors[rq->nerrors])
		return PL_ENOMEM;
	*idx = (uint32_t)++rq->nerrors;
	return 0;
}

int pl_requests_push(struct pl_requests *rq, const char *error, int64_t input, int64_t output,
                     double ttft, double e2el)
{
	size_t n = rq->n, c;
	uint32_t eidx = 0;

	if (n + 2 > rq->cap) {
		size_t want = rq->cap < 64 ? 64 : rq->cap * 2;
		c = rq->cap;
		if (pl_alloc_grow((void **)&rq->error, &c, want, sizeof(*rq->error)))
			return PL_ENOMEM;
		c = rq->cap;
		if (pl_alloc_grow((void **)&rq->input_tokens, &c, want, sizeof(int64_t)))
			return PL_ENOMEM;
		c = rq->cap;
		if (pl_alloc_grow((void **)&rq->output_tokens, &c, want, sizeof(int64_t)))
			return PL_ENOMEM;
		c = rq->cap;
		if (pl_alloc_grow((void **)&rq->ttft, &c, want, sizeof(double)))
			return PL_ENOMEM;
		c = rq->cap;
		if (pl_alloc_grow((void **)&rq->e2el, &c, want, sizeof(double)))
			return PL_ENOMEM;
		c = rq->cap;
		if (pl_alloc_grow((void **)&rq->itl_mean, &c, want, sizeof(double)))
			return PL_ENOMEM;
		c = rq->cap;
		if (pl_alloc_grow((void **)&rq->gap_off, &c, want + 1, sizeof(size_t)))
			return PL_ENOMEM;
		rq->cap = want;
	}
	if (error && *error && intern_error(rq, error, &eidx))
		return PL_ENOMEM;
	rq->error[n] = eidx;
	rq->input_tokens[n] = input;
	rq->output_tokens[n] = output;
	rq->ttft[n] = ttft;
	rq->e2el[n] = e2el;
	rq->itl_mean[n] = NAN;
	if (n == 0)
		rq->gap_off[0] = 0;
	rq->gap_off[n + 1] = rq->ngaps;
	rq->n = n + 1;
	if (input >= 0)
		rq->columns |= PL_RQ_INPUT;
	if (output >= 0)
		rq->columns |= PL_RQ_OUTPUT;
	if (!isnan(ttft))
		rq->columns |= PL_RQ_TTFT;
	if (!isnan(e2el))
		rq->columns |= PL_RQ_E2EL;
	return 0;
}

int pl_requests_add_gap(struct pl_requests *rq, double gap)
{
	if (rq->n == 0)
		return PL_EUSAGE;
	if (PL_ALLOC_GROW(rq->gaps, rq->ngaps + 1, rq->gap_cap))
		return PL_ENOMEM;
	rq->gaps[rq->ngaps++] = gap;
	rq->gap_off[rq->n] = rq->ngaps;
	rq->columns |= PL_RQ_GAPS;
	return 0;
}

int pl_requests_set_itl_mean(struct pl_requests *rq, double mean)
{
	if (rq->n == 0)
		return PL_EUSAGE;
	rq->itl_mean[rq->n - 1] = mean;
	if (!isnan(mean))
		rq->columns |= PL_RQ_ITLMEAN;
	return 0;
}

size_t pl_requests_failed(const struct pl_requests *rq)
{
	size_t f = 0;

	for (size_t i = 0; i < rq->n; i++)
		f += rq->error[i] != 0;
	return f;
}

const char *pl_requests_error(const struct pl_requests *rq, size_t i)
{
	if (i >= rq->n || rq->error[i] == 0 || rq->error[i] > rq->nerrors)
		return NULL;
	return rq->errors[rq->error[i] - 1];
}

const double *pl_requests_gaps(const struct pl_requests *rq, size_t i, size_t *n)
{
	*n = 0;
	if (!(rq->columns & PL_RQ_GAPS) || !rq->gap_off || i >= rq->n)
		return NULL;
	*n = rq->gap_off[i + 1] - rq->gap_off[i];
	return rq->gaps + rq->gap_off[i];
}

static int bad(struct pl_error *err, size_t i, const char *col, const char *what, double v)
{
	char field[64];

	snprintf(field, sizeof(field), "requests[%zu].%s", i, col);
	pl_error_field(err, field);
	return pl_error_set(err, PL_EINVALID, "request %zu: %s %s (%.17g)", i, col, what, v);
}

int pl_requests_check(const struct pl_requests *rq, struct pl_error *err)
{
	for (size_t i = 0; i < rq->n; i++) {
		size_t ng;
		const double *g = pl_requests_gaps(rq, i, &ng);
		double sum = 0, t = rq->ttft[i], e = rq->e2el[i];

		if (rq->input_tokens[i] < -1)
			return bad(err, i, "input_tokens", "is negative", (double)rq->input_tokens[i]);
		if (rq->output_tokens[i] < -1)
			return bad(err, i, "output_tokens", "is negative", (double)rq->output_tokens[i]);
		if (!isnan(t) && (!isfinite(t) || t < 0))
			return bad(err, i, "ttft", "is negative or not finite", t);
		if (!isnan(e) && (!isfinite(e) || e < 0))
			return bad(err, i, "e2el", "is negative or not finite", e);
		if (rq->itl_mean && !isnan(rq->itl_mean[i]) &&
		    (!isfinite(rq->itl_mean[i]) || rq->itl_mean[i] < 0))
			return bad(err, i, "itl", "is negative or not finite", rq->itl_mean[i]);
		for (size_t k = 0; k < ng; k++) {
			if (!isfinite(g[k]) || g[k] < 0)
				return bad(err, i, "itl", "has a negative or non-finite gap", g[k]);
			sum += g[k];
		}
		if (rq->error[i])
			continue;
		if (!isnan(t) && !isnan(e) && t > e)
			return bad(err, i, "ttft", "exceeds the request's e2el", t);
		if (ng && !isnan(t) && !isnan(e) && fabs(t + sum - e) > 0.01 * e + 0.001)
			return bad(err, i, "itl", "sum disagrees with e2el - ttft", sum);
		/* a completed request of one token (or none) has no gap after
		 * its first; a failed one's count may stop short of its gaps */
		int64_t out = rq->output_tokens[i];
		if ((rq->columns & PL_RQ_GAPS) && out >= 0 && (out > 1 || !rq->error[i]) &&
		    (int64_t)ng > (out > 1 ? out - 1 : 0))
			return bad(err, i, "output_tokens", "is fewer than the gaps + 1",
			           (double)rq->output_tokens[i]);
	}
	return 0;
}

/* ------------------------------------------------------------- statistics */

/* Element i of the sum: a[i], or with sq its squared deviation from m,
 * (a[i] - m)^2, as numpy's std forms it (x - mean, then x * x). */
static inline double term(const double *a, size_t i, double m, int sq)
{
	return sq ? (a[i] - m) * (a[i] - m) : a[i];
}

/* numpy's pairwise sum of the terms of a[0..n) (see pl_rq_pairwise_sum). */
static double pairwise(const double *a, size_t n, double m, int sq)
{
	if (n < 8) {
		double res = 0.;
		for (size_t i = 0; i < n; i++)
			res += term(a, i, m, sq);
		return res;
	}
	if (n <= 128) {
		double r[8], res;
		size_t i;
		for (int j = 0; j < 8; j++)
			r[j] = term(a, (size_t)j, m, sq);
		for (i = 8; i < n - (n % 8); i += 8)
			for (int j = 0; j < 8; j++)
				r[j] += term(a, i + (size_t)j, m, sq);
		res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
		for (; i < n; i++)
			res += term(a, i, m, sq);
		return res;
	}
	size_t n2 = n / 2;
	n2 -= n2 % 8;
	return pairwise(a, n2, m, sq) + pairwise(a + n2, n - n2, m, sq);
}

double pl_rq_pairwise_sum(const double *a, size_t n)
{
	return pairwise(a, n, 0, 0);
}

/* The lower order statistic percentile q interpolates from, 0-based. */
static size_t pct_index(size_t n, double q)
{
	return (size_t)floor((double)(n - 1) * (q / 100.0));
}

double pl_rq_percentile(const double *s, size_t n, double q)
{
	double h = (double)(n - 1) * (q / 100.0), lo = floor(h), t = h - lo, a, b, d;
	size_t k = pct_index(n, q);

	if (k + 1 >= n)
		return s[n - 1];
	a = s[k];
	b = s[k + 1];
	d = b - a;
	return t >= 0.5 ? b - d * (1 - t) : a + d * t;
}

double pl_rq_median(const double *s, size_t n)
{
	if (n % 2)
		return s[n / 2];
	return (s[n / 2 - 1] + s[n / 2]) / 2;
}

const double pl_rq_pct[PL_RQ_NPCT] = {50, 90, 95, 99, 99.9};

/* Fills d from v[0..n) (the order of v is the order of the mean's sum;
 * permuted afterwards: only the order statistics the percentiles, their
 * intervals, min and max read are placed, by selection, not a full sort,
 * which was most of `requests` on millions of gaps). */
static void dist(double *v, size_t n, struct pl_rq_dist *d)
{
	size_t lu[PL_RQ_NPCT][2];
	int has_ci[PL_RQ_NPCT];

	d->n = n;
	for (int j = 0; j < PL_RQ_NPCT; j++)
		d->ci_low[j] = d->ci_high[j] = NAN;
	if (n == 0) {
		d->mean = d->std = d->p50 = d->p90 = d->p95 = d->p99 = d->p999 = d->min = d->max = NAN;
		return;
	}
	d->mean = pl_rq_pairwise_sum(v, n) / (double)n;
	d->std = sqrt(pairwise(v, n, d->mean, 1) / (double)n);
	static const double qs[] = {90, 95, 99, 99.9};
	size_t ks[4 + 2 * 4 + 2 * PL_RQ_NPCT], nk = 0;
	ks[nk++] = 0;
	ks[nk++] = n - 1;
	ks[nk++] = n / 2;
	if (n > 1)
		ks[nk++] = n / 2 - 1;
	for (size_t j = 0; j < sizeof(qs) / sizeof(qs[0]); j++) {
		size_t k = pct_index(n, qs[j]);
		ks[nk++] = k;
		if (k + 1 < n)
			ks[nk++] = k + 1;
	}
	for (int j = 0; j < PL_RQ_NPCT; j++) {
		double cov;
		has_ci[j] = pl_stats_quantile_ci_ranks(n, pl_rq_pct[j] / 100.0, PL_RQ_CI_LEVEL,
		                                        &lu[j][0], &lu[j][1], &cov);
		if (has_ci[j]) { /* 1-based ranks */
			ks[nk++] = lu[j][0] - 1;
			ks[nk++] = lu[j][1] - 1;
		}
	}
	pl_select_doubles(v, n, ks, nk); /* every index is < n: cannot fail */
	for (int j = 0; j < PL_RQ_NPCT; j++) {
		if (has_ci[j]) {
			d->ci_low[j] = v[lu[j][0] - 1];
			d->ci_high[j] = v[lu[j][1] - 1];
		}
	}
	d->p50 = pl_rq_median(v, n);
	d->p90 = pl_rq_percentile(v, n, 90);
	d->p95 = pl_rq_percentile(v, n, 95);
	d->p99 = pl_rq_percentile(v, n, 99);
	d->p999 = pl_rq_percentile(v, n, 99.9);
	d->min = v[0];
	d->max = v[n - 1];
}

/* E2EL of request i: recorded, else TTFT + its gaps' sum (NaN if neither). */
static double e2el_of(const struct pl_requests *rq, size_t i)
{
	size_t ng;
	const double *g;

	if (!isnan(rq->e2el[i]))
		return rq->e2el[i];
	g = pl_requests_gaps(rq, i, &ng);
	if (isnan(rq->ttft[i]) || !(rq->columns & PL_RQ_GAPS))
		return NAN;
	double sum = 0;
	for (size_t k = 0; k < ng; k++)
		sum += g[k];
	return rq->ttft[i] + sum;
}

static double tpot_of(const struct pl_requests *rq, size_t i)
{
	double e = e2el_of(rq, i);

	if (rq->output_tokens[i] <= 1 || isnan(e) || isnan(rq->ttft[i]))
		return NAN;
	return (e - rq->ttft[i]) / (double)(rq->output_tokens[i] - 1);
}

/* The pooled gaps of rq's completed requests, in request order: rq's own
 * array when it may be reordered (inplace; a failed request's gaps, if any,
 * squeezed out first), else a copy in *copy (caller frees). NULL on out
 * of memory. */
static double *pooled_gaps(struct pl_requests *rq, int inplace, double **copy, size_t *nv)
{
	double *g = rq->gaps;

	*copy = NULL;
	if (!inplace && !(g = *copy = malloc((rq->ngaps ? rq->ngaps : 1) * sizeof(*g))))
		return NULL;
	*nv = 0;
	for (size_t i = 0; i < rq->n; i++) {
		size_t ng;
		const double *gi = pl_requests_gaps(rq, i, &ng);
		if (rq->error[i] || ng == 0)
			continue;
		if (g + *nv != gi)
			memmove(g + *nv, gi, ng * sizeof(*g));
		*nv += ng;
	}
	return g;
}

static int stats(struct pl_requests *rq, int inplace, struct pl_rq_stats *out)
{
	size_t n = rq->n, nv;
	double *v = malloc((n ? n : 1) * sizeof(*v));

	memset(out, 0, sizeof(*out));
	if (!v)
		return PL_ENOMEM;
	out->requests = n;
	out->failed = pl_requests_failed(rq);
	out->output_tokens = (rq->columns & PL_RQ_OUTPUT) ? 0 : -1;
	for (size_t i = 0; i < n; i++)
		if (!rq->error[i] && out->output_tokens >= 0 && rq->output_tokens[i] >= 0)
			out->output_tokens += rq->output_tokens[i];

	nv = 0;
	for (size_t i = 0; i < n; i++)
		if (!rq->error[i] && !isnan(rq->ttft[i]))
			v[nv++] = rq->ttft[i];
	dist(v, nv, &out->ttft);
	nv = 0;
	for (size_t i = 0; i < n; i++) {
		double t = rq->error[i] ? NAN : tpot_of(rq, i);
		if (!isnan(t))
			v[nv++] = t;
	}
	dist(v, nv, &out->tpot);
	nv = 0;
	for (size_t i = 0; i < n; i++) {
		double e = rq->error[i] ? NAN : e2el_of(rq, i);
		if (!isnan(e))
			v[nv++] = e;
	}
	dist(v, nv, &out->e2el);
	if (rq->columns & PL_RQ_GAPS) {
		double *copy, *g = pooled_gaps(rq, inplace, &copy, &nv);
		if (!g) {
			free(v);
			return PL_ENOMEM;
		}
		dist(g, nv, &out->itl);
		free(copy);
	} else {
		nv = 0;
		for (size_t i = 0; rq->itl_mean && i < n; i++)
			if (!rq->error[i] && !isnan(rq->itl_mean[i]))
				v[nv++] = rq->itl_mean[i];
		dist(v, nv, &out->itl);
	}
	free(v);
	return 0;
}

int pl_requests_stats(const struct pl_requests *rq, struct pl_rq_stats *out)
{
	/* not written to: the gaps are copied before they are reordered */
	return stats((struct pl_requests *)(uintptr_t)rq, 0, out);
}

int pl_requests_stats_reorder(struct pl_requests *rq, struct pl_rq_stats *out)
{
	return stats(rq, 1, out);
}

int pl_requests_stats_consume(struct pl_requests *rq, struct pl_rq_stats *out)
{
	int rc = stats(rq, 1, out);

	if (rq->columns & PL_RQ_GAPS) { /* reordered: no longer any request's */
		free(rq->gaps);
		free(rq->gap_off);
		rq->gaps = NULL;
		rq->gap_off = NULL;
		rq->ngaps = rq->gap_cap = 0;
		rq->columns &= ~PL_RQ_GAPS;
	}
	return rc;
}

/* The ITL of request i against an SLO: its largest gap, or its mean gap. */
static double itl_of(const struct pl_requests *rq, size_t i)
{
	size_t ng;
	const double *g = pl_requests_gaps(rq, i, &ng);
	double m = -INFINITY;

	if (rq->columns & PL_RQ_GAPS) {
		for (size_t k = 0; k < ng; k++)
			m = g[k] > m ? g[k] : m;
		return ng ? m : 0; /* no gap (one token): nothing to wait for */
	}
	return rq->itl_mean ? rq->itl_mean[i] : NAN;
}

static int within(double v, double limit)
{
	return isnan(limit) || (!isnan(v) && v <= limit);
}

int pl_requests_grade(const struct pl_requests *rq, const struct pl_rq_slo *slo,
                      double duration, struct pl_rq_grade *out)
{
	int64_t tokens = 0;
	int tokens_known = (rq->columns & PL_RQ_OUTPUT) != 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < rq->n; i++) {
		if (rq->error[i])
			continue;
		/* one output token: nothing to time after the first (vLLM's goodput too) */
		int one = rq->output_tokens[i] == 0 || rq->output_tokens[i] == 1;
		if (!within(rq->ttft[i], slo->ttft) || !within(e2el_of(rq, i), slo->e2el) ||
		    !within(isnan(slo->tpot) || one ? 0 : tpot_of(rq, i), slo->tpot) ||
		    !within(isnan(slo->itl) ? 0 : itl_of(rq, i), slo->itl))
			continue;
		out->met++;
		if (rq->output_tokens[i] >= 0)
			tokens += rq->output_tokens[i];
		else
			tokens_known = 0;
	}
	out->attainment = rq->n ? (double)out->met / (double)rq->n : NAN;
	out->goodput = duration > 0 && isfinite(duration) ? (double)out->met / duration : NAN;
	out->goodput_tokens =
		duration > 0 && isfinite(duration) && tokens_known ? (double)tokens / duration : NAN;
	return 0;
}

int pl_rq_slo_parse(const char *text, struct pl_rq_slo *slo, struct pl_error *err)
{
	const char *p = text;
	int seen[4] = {0};

	slo->ttft = slo->tpot = slo->e2el = slo->itl = NAN;
	if (!text || !*text)
		return pl_error_set(err, PL_EUSAGE, "--slo: empty; expected ttft=S,tpot=S,e2el=S,itl=S");
	while (*p) {
		static const char *const names[] = {"ttft", "tpot", "e2el", "itl"};
		double *dst[] = {&slo->ttft, &slo->tpot, &slo->e2el, &slo->itl};
		const char *eq = strchr(p, '='), *end = strchr(p, ',');
		char num[64];
		size_t kl, vl;
		int k = -1;
		double v;

		if (!end)
			end = p + strlen(p);
		if (!eq || eq > end)
			return pl_error_set(err, PL_EUSAGE,
			                    "--slo: '%.*s' is not NAME=SECONDS (names: ttft, tpot, e2el, itl)",
			                    (int)(end - p), p);
		kl = (size_t)(eq - p);
		for (int i = 0; i < 4; i++)
			if (strlen(names[i]) == kl && strncmp(p, names[i], kl) == 0)
				k = i;
		if (k < 0)
			return pl_error_set(err, PL_EUSAGE,
			                    "--slo: unknown limit '%.*s' (names: ttft, tpot, e2el, itl)",
			                    (int)kl, p);
		if (seen[k]++)
			return pl_error_set(err, PL_EUSAGE, "--slo: '%s' given twice", names[k]);
		vl = (size_t)(end - eq - 1);
		if (vl == 0 || vl >= sizeof(num))
			return pl_error_set(err, PL_EUSAGE, "--slo: '%s' needs a number of seconds",
			                    names[k]);
		memcpy(num, eq + 1, vl);
		num[vl] = '\0';
		if (pl_parse_num(num, 0, &v) || v < 0)
			return pl_error_set(err, PL_EUSAGE,
			                    "--slo: %s=%s is not a finite number of seconds >= 0", names[k],
			                    num);
		*dst[k] = v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

void pl_rq_slo_init(struct pl_rq_slo *slo)
{
	slo->ttft = slo->tpot = slo->e2el = slo->itl = NAN;
}

int pl_rq_slo_add(const char *text, struct pl_rq_slo *slo, struct pl_error *err)
{
	static const char *const names[] = {"ttft", "tpot", "e2el", "itl"};
	struct pl_rq_slo more;
	double *dst[] = {&slo->ttft, &slo->tpot, &slo->e2el, &slo->itl};
	const double *src[] = {&more.ttft, &more.tpot, &more.e2el, &more.itl};
	int rc = pl_rq_slo_parse(text, &more, err);

	if (rc)
		return rc;
	for (int k = 0; k < 4; k++)
		if (!isnan(*src[k]) && !isnan(*dst[k]))
			return pl_error_set(err, PL_EUSAGE, "--slo: '%s' given twice", names[k]);
	for (int k = 0; k < 4; k++)
		if (!isnan(*src[k]))
			*dst[k] = *src[k];
	return 0;
}
