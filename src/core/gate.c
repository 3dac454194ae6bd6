/*
 * gate.c — one night's checks judged together (see gate.h): each check's
 * t score in log space, Stouffer pooling over a family, Holm over the
 * night's tests, then the verdicts.
 */
#include "core/gate.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "util/sort.h"

/* |z| beyond this is clamped (p of 0 or 1 in double precision). */
#define Z_MAX 40.0

void pl_gate_opts_init(struct pl_gate_opts *opts)
{
	opts->alpha = PL_GATE_ALPHA_DEFAULT;
	opts->member_alpha = PL_GATE_MEMBER_ALPHA_DEFAULT;
	opts->threshold = PL_GATE_THRESHOLD_DEFAULT;
	opts->pool = 1;
}

static double median_of_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

/* The normal score whose upper tail is p, clamped to +-Z_MAX. */
static double z_of_p(double p)
{
	if (!(p > 0))
		return Z_MAX;
	if (!(p < 1))
		return -Z_MAX;
	double z = gsl_cdf_ugaussian_Qinv(p);
	return z > Z_MAX ? Z_MAX : z < -Z_MAX ? -Z_MAX : z;
}

/* Step 1 of gate.h for one check; logs/tmp are scratch of nwindow doubles. */
static void judge_one(const struct pl_gate_check *c, double *logs, double *tmp,
                      struct pl_gate_verdict *v)
{
	size_t k = 0, nu = 0;
	double med, mad, sr, mean = 0, ss = 0, s, y, d, t, sign;

	if (c->direction != PL_LOWER_IS_BETTER && c->direction != PL_HIGHER_IS_BETTER)
		return;
	if (!(c->latest > 0) || !isfinite(c->latest) || c->nwindow < PL_GATE_MIN_WINDOW)
		return;
	for (size_t i = 0; i < c->nwindow; i++) {
		if (!(c->window[i] > 0) || !isfinite(c->window[i]))
			return;
		logs[k++] = log(c->window[i]);
	}
	memcpy(tmp, logs, k * sizeof(double));
	qsort(tmp, k, sizeof(double), pl_cmp_double);
	med = median_of_sorted(tmp, k);
	for (size_t i = 0; i < k; i++)
		tmp[i] = fabs(logs[i] - med);
	qsort(tmp, k, sizeof(double), pl_cmp_double);
	mad = median_of_sorted(tmp, k);
	sr = 1.4826 * mad;
	for (size_t i = 0; i < k; i++)
		if (sr == 0 || fabs(logs[i] - med) <= PL_GATE_OUTLIER_SIGMAS * sr)
			logs[nu++] = logs[i];
	if (nu < PL_GATE_MIN_WINDOW)
		return;
	for (size_t i = 0; i < nu; i++)
		mean += logs[i];
	mean /= (double)nu;
	for (size_t i = 0; i < nu; i++)
		ss += (logs[i] - mean) * (logs[i] - mean);
	s = sqrt(ss / (double)(nu - 1));
	y = log(c->latest);
	sign = c->direction == PL_LOWER_IS_BETTER ? 1.0 : -1.0;
	d = sign * (y - mean);
	v->decidable = 1;
	v->nused = nu;
	v->rel_change = exp(y - mean) - 1.0;
	{ /* the two-sided 95% prediction band, for charts and history's line */
		double half = s * sqrt(1.0 + 1.0 / (double)nu) * gsl_cdf_tdist_Pinv(0.975, (double)(nu - 1));
		v->band_low = exp(mean - half);
		v->band_high = exp(mean + half);
	}
	/* s and |d| below 1e-12 count as 0: equal values summed leave rounding */
	if (s < 1e-12) {
		v->p = fabs(d) < 1e-12 ? 0.5 : d > 0 ? 0.0 : 1.0;
		v->z = fabs(d) < 1e-12 ? 0.0 : d > 0 ? Z_MAX : -Z_MAX;
		return;
	}
	t = d / (s * sqrt(1.0 + 1.0 / (double)nu));
	v->p = gsl_cdf_tdist_Q(t, (double)(nu - 1));
	v->z = z_of_p(v->p);
}

struct ranked {
	double p;
	size_t i;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	if (a->p != b->p)
		return (a->p > b->p) - (a->p < b->p);
	return (a->i > b->i) - (a->i < b->i);
}

int pl_gate_holm(const double *p, size_t n, double *adj, struct pl_error *err)
{
	struct ranked *r;
	double run = 0;

	if (n == 0)
		return 0;
	if (!p || !adj)
		return pl_error_set(err, PL_EUSAGE, "pl_gate_holm needs p and adj");
	if (!(r = malloc(n * sizeof(*r))))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		r[i].p = p[i];
		r[i].i = i;
	}
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (size_t j = 0; j < n; j++) {
		double a = (double)(n - j) * r[j].p;
		if (a > 1)
			a = 1;
		if (a > run)
			run = a;
		adj[r[j].i] = run;
	}
	free(r);
	return 0;
}

/* Whether check j is a decidable member of check i's family (same family and metric). */
static int same_family(const struct pl_gate_check *checks, const struct pl_gate_verdict *out,
                       size_t i, size_t j)
{
	return out[j].decidable && checks[j].family == checks[i].family &&
	       checks[j].metric == checks[i].metric;
}

/* Step 2 of gate.h: pools each family of two or more decidable members
 * (first member order), giving every member family_n, family_z and
 * family_change; stores each family's first member in fam and its pooled
 * p in p, and returns how many families there are. */
static size_t pool_families(const struct pl_gate_check *checks, size_t n,
                            struct pl_gate_verdict *out, size_t *fam, double *p)
{
	size_t nfam = 0;

	for (size_t i = 0; i < n; i++) {
		size_t members = 0;
		double zs = 0, ls = 0;
		int first = 1;
		if (!out[i].decidable)
			continue;
		for (size_t j = 0; j < i && first; j++)
			if (same_family(checks, out, i, j))
				first = 0;
		if (!first)
			continue;
		for (size_t j = i; j < n; j++)
			if (same_family(checks, out, i, j)) {
				members++;
				zs += out[j].z;
				ls += log1p(out[j].rel_change);
			}
		if (members < 2)
			continue;
		for (size_t j = i; j < n; j++)
			if (same_family(checks, out, i, j)) {
				out[j].family_n = members;
				out[j].family_z = zs / sqrt((double)members);
				out[j].family_change = exp(ls / (double)members) - 1.0;
			}
		p[nfam] = gsl_cdf_ugaussian_Q(out[i].family_z);
		fam[nfam++] = i;
	}
	return nfam;
}

/* Step 4 of gate.h: each decidable check's red (by itself or by its
 * family) and better verdicts, with ntests the night's number of tests. */
static void set_verdicts(const struct pl_gate_check *checks, size_t n,
                         const struct pl_gate_opts *opts, size_t ntests,
                         struct pl_gate_verdict *out)
{
	for (size_t i = 0; i < n; i++) {
		struct pl_gate_verdict *v = &out[i];
		double sign = checks[i].direction == PL_LOWER_IS_BETTER ? 1.0 : -1.0;
		if (!v->decidable)
			continue;
		if (v->p_adjusted <= opts->alpha && sign * v->rel_change > opts->threshold)
			v->by = PL_GATE_BY_SELF;
		else if (v->family_n >= 2 && v->family_p_adjusted <= opts->alpha &&
		         sign * v->family_change > opts->threshold && v->p <= opts->member_alpha)
			v->by = PL_GATE_BY_FAMILY;
		v->red = v->by != PL_GATE_BY_NONE;
		/* an improvement: the mirrored test, Bonferroni over the night's tests */
		v->p_better_adjusted = (1.0 - v->p) * (double)ntests;
		if (v->p_better_adjusted > 1)
			v->p_better_adjusted = 1;
		v->better = v->p_better_adjusted <= opts->alpha && -sign * v->rel_change > opts->threshold;
	}
}

int pl_gate_decide(const struct pl_gate_check *checks, size_t n, const struct pl_gate_opts *opts,
                   struct pl_gate_verdict *out, struct pl_error *err)
{
	size_t maxw = 1, ntests = 0, *fam = NULL, nfam = 0;
	double *logs = NULL, *tmp = NULL, *p = NULL, *adj = NULL;
	gsl_error_handler_t *old_handler;
	int rc = 0;

	if (!opts || !(opts->alpha > 0 && opts->alpha < 1) ||
	    !(opts->member_alpha > 0 && opts->member_alpha <= 1) ||
	    !(opts->threshold >= 0 && isfinite(opts->threshold)))
		return pl_error_set(err, PL_EUSAGE, "gate: alpha must be inside (0, 1), the member "
		                    "alpha inside (0, 1], the threshold finite and >= 0");
	if (n == 0)
		return 0;
	if (!checks || !out)
		return pl_error_set(err, PL_EUSAGE, "gate: no checks or no verdicts");
	for (size_t i = 0; i < n; i++) {
		if (checks[i].nwindow && !checks[i].window)
			return pl_error_set(err, PL_EUSAGE, "gate: check %zu has no window values", i);
		if (checks[i].nwindow > maxw)
			maxw = checks[i].nwindow;
	}
	logs = malloc(maxw * sizeof(double));
	tmp = malloc(maxw * sizeof(double));
	p = malloc(2 * n * sizeof(double));
	adj = malloc(2 * n * sizeof(double));
	fam = malloc(n * sizeof(size_t)); /* index of each family's first member */
	if (!logs || !tmp || !p || !adj || !fam) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto done;
	}
	old_handler = gsl_set_error_handler_off();
	memset(out, 0, n * sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		out[i].p = 1;
		out[i].p_adjusted = 1;
		out[i].family_p_adjusted = 1;
		out[i].p_better_adjusted = 1;
		judge_one(&checks[i], logs, tmp, &out[i]);
		out[i].family_n = out[i].decidable;
		out[i].family_z = out[i].z;
		out[i].family_change = out[i].rel_change;
		if (out[i].decidable)
			p[ntests++] = out[i].p;
	}
	/* step 2: each family's pooled test */
	if (opts->pool) {
		nfam = pool_families(checks, n, out, fam, p + ntests);
		ntests += nfam;
	}
	gsl_set_error_handler(old_handler);
	/* step 3: Holm over the night's tests */
	if ((rc = pl_gate_holm(p, ntests, adj, err)))
		goto done;
	{
		size_t t = 0;
		for (size_t i = 0; i < n; i++)
			if (out[i].decidable)
				out[i].p_adjusted = adj[t++];
		for (size_t f = 0; f < nfam; f++, t++) {
			size_t i = fam[f];
			for (size_t j = i; j < n; j++)
				if (same_family(checks, out, i, j))
					out[j].family_p_adjusted = adj[t];
		}
	}
	/* step 4: the verdicts */
	set_verdicts(checks, n, opts, ntests, out);
done:
	free(logs);
	free(tmp);
	free(p);
	free(adj);
	free(fam);
	return rc;
}

void pl_gate_baseline(const double *y, size_t c, size_t floor, size_t open, size_t window,
                      int direction, const struct pl_gate_opts *opts, size_t *from, size_t *to)
{
	size_t end = c;

	if (open != (size_t)-1 && open <= c && open > floor) {
		end = open;
	} else {
		double logs[64], tmp[64];
		for (size_t back = 1; back <= PL_GATE_TRAIL_MAX && back <= c; back++) {
			size_t j = c - back, f;
			struct pl_gate_check one;
			struct pl_gate_verdict v;
			double sign = direction == PL_LOWER_IS_BETTER ? 1.0 : -1.0;
			if (j <= floor)
				break;
			f = j - floor > window ? j - window : floor;
			if (j - f > 64)
				f = j - 64;
			memset(&one, 0, sizeof(one));
			memset(&v, 0, sizeof(v));
			one.window = y + f;
			one.nwindow = j - f;
			one.latest = y[j];
			one.direction = direction;
			judge_one(&one, logs, tmp, &v);
			if (!(v.decidable && v.p <= opts->member_alpha && sign * v.rel_change > opts->threshold))
				break;
			end = j;
		}
	}
	*to = end;
	*from = end - floor > window ? end - window : floor;
}
