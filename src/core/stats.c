/*
 * stats.c — medians and their order-statistic interval, the Mann-Whitney U
 * test, the old-vs-new verdict of one metric, and exact L1 step detection.
 *
 * The formulas and their sources are documented in stats.h; this file says
 * how they are computed. It is the only file that includes GSL (binomial
 * and normal distribution functions); everything else is plain C with a few
 * temporary heap arrays, freed before returning. Nothing here prints.
 */
#include "core/stats.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "util/sort.h"

/* ------------------------------------------------------------------ helpers */

/* 1 / Phi^-1(3/4): makes the MAD a consistent estimate of a Gaussian sigma. */
#define MAD_TO_SIGMA 1.482602218505602

/* sqrt(pi) / 2: mean absolute deviation of N(0, 2 s^2) -> s. */
#define SQRT_PI_2 0.886226925452758

/* Rejects non-finite samples; what names the array for the message. */
static int check_finite(const double *v, size_t n, const char *what, struct pl_error *err)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return pl_error_set(err, PL_EINVALID, "%s %zu is not a finite number",
			                    what, i + 1);
	return 0;
}

/* Sorted heap copy of v[0..n-1], or NULL (out of memory, or n == 0). */
static double *sorted_copy(const double *v, size_t n)
{
	double *s;

	if (n == 0 || n > SIZE_MAX / sizeof(double))
		return NULL;
	s = malloc(n * sizeof(double));
	if (!s)
		return NULL;
	memcpy(s, v, n * sizeof(double));
	qsort(s, n, sizeof(double), pl_cmp_double);
	return s;
}

/* Median of sorted s[0..n-1], n > 0. */
/* The median of an even count: the midpoint of the two middle values,
 * rounded to DBL_DIG (15) significant digits. The midpoint of two decimal
 * inputs, (0.08 + 0.09) / 2, is 0.084999... in binary; rounded it prints
 * as 0.085, which is all the precision any input carried. Halves first:
 * cannot overflow, and equal middles give that value. The one formula of
 * every median in the program (compare rows, check, history, steps). */
static double midpoint(double a, double b)
{
	return pl_round_sig(0.5 * a + 0.5 * b, 15);
}

static double median_sorted(const double *s, size_t n)
{
	if (n % 2)
		return s[n / 2];
	return midpoint(s[n / 2 - 1], s[n / 2]);
}

static void swap_double(double *a, double *b)
{
	double t = *a;
	*a = *b;
	*b = t;
}

/* Rearranges v[0..n) (no NaN) so that v[k] holds the value a sort would put
 * there, nothing after it smaller and nothing before it greater: Hoare's
 * selection with a median-of-three pivot and a three-way partition, so that
 * many equal values (error rates of 0) still take linear time. */
static void select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n; /* v[k] is found in [lo, hi) */

	while (hi - lo > 1) {
		double a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi - 1];
		double p = fmax(fmin(a, b), fmin(fmax(a, b), c));
		size_t lt = lo, i = lo, gt = hi; /* [lo,lt) < p, [lt,i) == p, [gt,hi) > p */

		while (i < gt) {
			if (v[i] < p)
				swap_double(&v[lt++], &v[i++]);
			else if (v[i] > p)
				swap_double(&v[i], &v[--gt]);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return;
	}
}

double pl_median(double *v, size_t n)
{
	double lower;

	select_kth(v, n, n / 2);
	if (n % 2)
		return v[n / 2];
	lower = v[0]; /* the largest of v[0..n/2) is the other middle value */
	for (size_t i = 1; i < n / 2; i++)
		if (v[i] > lower)
			lower = v[i];
	return midpoint(lower, v[n / 2]);
}



/* Median of v[0..n-1] (any order) into *out. */
static int median_of(const double *v, size_t n, double *out, struct pl_error *err)
{
	double *s = sorted_copy(v, n);

	if (!s)
		return pl_error_set(err, PL_ENOMEM, "out of memory sorting %zu samples", n);
	*out = median_sorted(s, n);
	free(s);
	return 0;
}

/* --------------------------------------------------- median and interval */

/* Coverage of [x_(j), x_(n+1-j)]: 1 - 2 P(B <= j-1), B ~ Binomial(n, 1/2). */
static double median_ci_coverage(unsigned n, unsigned j)
{
	double c = 1.0 - 2.0 * gsl_cdf_binomial_P(j - 1, 0.5, n);

	return c < 0.0 ? 0.0 : c;
}

int pl_stats_summarize(const double *v, size_t n, double level,
                       struct pl_sample_summary *out, struct pl_error *err)
{
	double *s;
	gsl_error_handler_t *old_handler;
	unsigned lo, hi, j;
	int rc;

	if (!v || !out)
		return pl_error_set(err, PL_EUSAGE, "pl_stats_summarize: NULL argument");
	if (!(level > 0.0 && level < 1.0))
		return pl_error_set(err, PL_EUSAGE, "confidence level must be between 0 and 1, got %g",
		                    level);
	if (n == 0)
		return pl_error_set(err, PL_EEMPTY, "no samples to summarize");
	if (n > UINT_MAX)
		return pl_error_set(err, PL_EUSAGE, "too many samples (%zu)", n);
	rc = check_finite(v, n, "sample", err);
	if (rc)
		return rc;
	s = sorted_copy(v, n);
	if (!s)
		return pl_error_set(err, PL_ENOMEM, "out of memory sorting %zu samples", n);

	/* GSL's default error handler aborts; the library must not. The
	 * arguments below are always in GSL's domain, so this is a guard. */
	old_handler = gsl_set_error_handler_off();
	memset(out, 0, sizeof(*out));
	out->n = n;
	out->median = median_sorted(s, n);
	out->min = s[0];
	out->max = s[n - 1];

	/* Coverage decreases as j grows (1 <= j <= ceil(n/2)); binary search for
	 * the largest j whose coverage still reaches level. */
	if (n < 2 || median_ci_coverage((unsigned)n, 1) < level) {
		out->ci_valid = 0;
		out->ci_low = s[0];
		out->ci_high = s[n - 1];
		out->ci_level = n < 2 ? 0.0 : median_ci_coverage((unsigned)n, 1);
	} else {
		lo = 1;                          /* coverage(lo) >= level */
		hi = (unsigned)((n + 1) / 2) + 1; /* coverage(hi) < level (hi - 1 = middle: 0) */
		while (hi - lo > 1) {
			unsigned mid = lo + (hi - lo) / 2;
			if (median_ci_coverage((unsigned)n, mid) >= level)
				lo = mid;
			else
				hi = mid;
		}
		j = lo;
		out->ci_valid = 1;
		out->ci_low = s[j - 1];
		out->ci_high = s[n - j];
		out->ci_level = median_ci_coverage((unsigned)n, j);
	}
	gsl_set_error_handler(old_handler);
	free(s);
	return 0;
}

/* -------------------------------------------------- a quantile's interval */

int pl_stats_quantile_ci_ranks(size_t n, double q, double level, size_t *l, size_t *u,
                               double *coverage)
{
	double a = (1.0 - level) / 2.0, lo_miss, hi_miss;
	gsl_error_handler_t *old_handler;
	unsigned nn, lo, hi;
	int ok = 0;

	if (n == 0 || n > UINT_MAX || !(q > 0.0 && q < 1.0) || !(level > 0.0 && level < 1.0))
		return 0;
	nn = (unsigned)n;
	old_handler = gsl_set_error_handler_off();
	/* l: P(B <= j - 1) grows with j; j = 1 must pass, j = n + 1 never does */
	if (gsl_cdf_binomial_P(0, q, nn) > a || gsl_cdf_binomial_Q(nn - 1, q, nn) > a)
		goto out;
	lo = 1;
	hi = nn + 1;
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;
		if (gsl_cdf_binomial_P(mid - 1, q, nn) <= a)
			lo = mid;
		else
			hi = mid;
	}
	*l = lo;
	lo_miss = gsl_cdf_binomial_P(lo - 1, q, nn);
	/* u: P(B >= j) = Q(j - 1) falls as j grows; j = n passes, j = 0 never does */
	lo = 0;
	hi = nn;
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;
		if (gsl_cdf_binomial_Q(mid - 1, q, nn) <= a)
			hi = mid;
		else
			lo = mid;
	}
	*u = hi;
	hi_miss = gsl_cdf_binomial_Q(hi - 1, q, nn);
	*coverage = 1.0 - lo_miss - hi_miss;
	ok = 1;
out:
	gsl_set_error_handler(old_handler);
	return ok;
}

/* ------------------------------------------------------------ Mann-Whitney */

/* A pooled value and which sample it came from. */
struct mw_item {
	double v;  /* value */
	int from_a; /* 1 if from a, 0 if from b */
};

static int cmp_item(const void *pa, const void *pb)
{
	const struct mw_item *a = pa;
	const struct mw_item *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/*
 * P(U <= umax) under H0 for sample sizes m and n, by the recurrence
 * P_{i,j}(u) = i/(i+j) P_{i-1,j}(u-j) + j/(i+j) P_{i,j-1}(u) with
 * P_{0,j} = P_{i,0} = [1]. Rows are rolled over i; row i holds the arrays
 * for j = 0..n, array j has i*j + 1 entries at offset i*j(j-1)/2 + j.
 * Returns the probability, or -1 if out of memory.
 */
static double mw_exact_cdf(size_t m, size_t n, size_t umax)
{
	size_t cap = m * n * (n + 1) / 2 + n + 1;
	double *prev, *cur, *tmp, sum = 0.0;
	size_t i, j, u;

	if (m > n) { /* the null distribution is symmetric in the roles */
		size_t t = m;
		m = n;
		n = t;
		cap = m * n * (n + 1) / 2 + n + 1;
	}
	prev = calloc(cap, sizeof(double));
	cur = calloc(cap, sizeof(double));
	if (!prev || !cur) {
		free(prev);
		free(cur);
		return -1.0;
	}
	/* row i = 0: P_{0,j} = [1] for every j; offset of array j is j. */
	for (j = 0; j <= n; j++)
		prev[j] = 1.0;
	for (i = 1; i <= m; i++) {
		cur[0] = 1.0; /* P_{i,0} */
		for (j = 1; j <= n; j++) {
			double *pc = cur + i * j * (j - 1) / 2 + j;                 /* P_{i,j}, i*j+1 */
			const double *pl = cur + i * (j - 1) * (j - 2) / 2 + (j - 1); /* P_{i,j-1}, i*(j-1)+1 */
			const double *pp = prev + (i - 1) * j * (j - 1) / 2 + j;      /* P_{i-1,j}, (i-1)*j+1 */
			double wa = (double)i / (double)(i + j);
			double wb = (double)j / (double)(i + j);

			for (u = 0; u <= i * j; u++) {
				double x = 0.0;
				if (u >= j && u - j <= (i - 1) * j)
					x += wa * pp[u - j];
				if (u <= i * (j - 1))
					x += wb * pl[u];
				pc[u] = x;
			}
		}
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	{
		const double *pm = prev + m * n * (n - 1) / 2 + n; /* P_{m,n} */
		if (umax > m * n)
			umax = m * n;
		for (u = 0; u <= umax; u++)
			sum += pm[u];
	}
	free(prev);
	free(cur);
	return sum > 1.0 ? 1.0 : sum;
}

int pl_stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
                          double *u, double *p, struct pl_error *err)
{
	struct mw_item *it;
	size_t nn, i, k;
	double rank_a = 0.0, ties = 0.0, ua, ub, umin, pv;
	int rc, has_ties = 0;

	if (!a || !b)
		return pl_error_set(err, PL_EUSAGE, "pl_stats_mann_whitney: NULL argument");
	if (na == 0 || nb == 0)
		return pl_error_set(err, PL_EEMPTY, "mann-whitney test needs samples on both sides (got %zu and %zu)",
		                    na, nb);
	rc = check_finite(a, na, "first-set sample", err);
	if (!rc)
		rc = check_finite(b, nb, "second-set sample", err);
	if (rc)
		return rc;
	if (na > SIZE_MAX / 2 / sizeof(*it) || nb > SIZE_MAX / 2 / sizeof(*it))
		return pl_error_set(err, PL_ENOMEM, "too many samples");
	nn = na + nb;
	it = malloc(nn * sizeof(*it));
	if (!it)
		return pl_error_set(err, PL_ENOMEM, "out of memory ranking %zu samples", nn);
	for (i = 0; i < na; i++) {
		it[i].v = a[i];
		it[i].from_a = 1;
	}
	for (i = 0; i < nb; i++) {
		it[na + i].v = b[i];
		it[na + i].from_a = 0;
	}
	qsort(it, nn, sizeof(*it), cmp_item);

	/* Mid-ranks: the group it[i..k-1] of equal values shares the mean of
	 * ranks i+1..k, (i + 1 + k) / 2. */
	for (i = 0; i < nn; i = k) {
		size_t t, na_in = 0;
		for (k = i + 1; k < nn && it[k].v == it[i].v; k++)
			;
		for (t = i; t < k; t++)
			na_in += (size_t)it[t].from_a;
		rank_a += (double)na_in * ((double)(i + 1 + k) / 2.0);
		t = k - i;
		if (t > 1) {
			has_ties = 1;
			ties += (double)t * (double)t * (double)t - (double)t;
		}
	}
	free(it);

	ua = rank_a - (double)na * ((double)na + 1.0) / 2.0;
	ub = (double)na * (double)nb - ua;
	umin = ua < ub ? ua : ub;

	if (!has_ties && na <= PL_STATS_MW_EXACT_MAX && nb <= PL_STATS_MW_EXACT_MAX) {
		double cdf = mw_exact_cdf(na, nb, (size_t)floor(umin + 0.5));
		if (cdf < 0.0)
			return pl_error_set(err, PL_ENOMEM, "out of memory in the exact mann-whitney distribution");
		pv = 2.0 * cdf;
	} else {
		double dn = (double)nn;
		double mu = (double)na * (double)nb / 2.0;
		double var = (double)na * (double)nb / 12.0 * ((dn + 1.0) - ties / (dn * (dn - 1.0)));

		if (var <= 0.0) {
			pv = 1.0;
		} else {
			double z = (fabs(ua - mu) - 0.5) / sqrt(var);
			gsl_error_handler_t *old_handler = gsl_set_error_handler_off();
			pv = 2.0 * gsl_cdf_ugaussian_Q(z);
			gsl_set_error_handler(old_handler);
		}
	}
	if (pv > 1.0)
		pv = 1.0;
	if (u)
		*u = ua;
	if (p)
		*p = pv;
	return 0;
}

double pl_stats_mann_whitney_min_p(size_t na, size_t nb)
{
	size_t k, n, i;
	double c = 1.0;

	if (na == 0 || nb == 0)
		return 1.0;
	k = na < nb ? na : nb;
	n = na + nb;
	/* C(n, k) = prod_{i=1..k} (n - k + i) / i; each partial product is itself
	 * a binomial coefficient, so it stays exact while below 2^53. */
	for (i = 1; i <= k && isfinite(c); i++)
		c = c * (double)(n - k + i) / (double)i;
	if (!isfinite(c))
		return 0.0;
	return 2.0 / c > 1.0 ? 1.0 : 2.0 / c;
}

/* ------------------------------------------------------------- comparison */

/* The argument checks the comparisons share; what names the caller. */
static int check_compare_args(const char *what, const double *old, size_t n_old,
                              const double *new_, size_t n_new, enum pl_direction dir,
                              double alpha, double threshold, const void *out,
                              struct pl_error *err)
{
	if (!old || !new_ || !out)
		return pl_error_set(err, PL_EUSAGE, "%s: NULL argument", what);
	if (!(alpha > 0.0 && alpha < 1.0))
		return pl_error_set(err, PL_EUSAGE, "alpha must be between 0 and 1, got %g", alpha);
	if (!(threshold >= 0.0) || !isfinite(threshold))
		return pl_error_set(err, PL_EUSAGE, "threshold must be a finite fraction >= 0, got %g",
		                    threshold);
	if (dir != PL_LOWER_IS_BETTER && dir != PL_HIGHER_IS_BETTER && dir != PL_NO_DIRECTION)
		return pl_error_set(err, PL_EUSAGE, "unknown metric direction %d", (int)dir);
	if (n_old == 0 || n_new == 0)
		return pl_error_set(err, PL_EEMPTY, "nothing to compare: %zu old and %zu new %s",
		                    n_old, n_new,
		                    strcmp(what, "pl_stats_compare") == 0 ? "samples" : "values");
	return 0;
}

/* (new - old) / |old|; 0 when both are 0, +-inf when only old is. */
static double rel_change_of(double old_median, double new_median)
{
	if (old_median != 0.0)
		return (new_median - old_median) / fabs(old_median);
	if (new_median == 0.0)
		return 0.0;
	return new_median > 0.0 ? INFINITY : -INFINITY;
}

/* worse / better of c by the threshold and the metric's direction. */
static void judge(struct pl_change *c, enum pl_direction dir, double threshold)
{
	if (c->significant && dir != PL_NO_DIRECTION) {
		double bad = dir == PL_LOWER_IS_BETTER ? c->rel_change : -c->rel_change;
		c->worse = bad > threshold;
		c->better = -bad > threshold;
	}
}

/* The two-sided (1 - alpha) t interval center +- t(nu) scale into c's
 * bounds, and the p-value of c->new_median against it. Equal values summed
 * in floating point leave a residue of rounding in a scale: below 1e-12 of
 * the level it counts as 0 (p 1 at the center, else 0). */
static void t_interval(struct pl_change *c, double center, double scale, double nu, double alpha)
{
	double half = gsl_cdf_tdist_Qinv(alpha / 2.0, nu) * scale;
	double d = c->new_median - center, eps = 1e-12 * fabs(center);

	c->bound_low = center - half;
	c->bound_high = center + half;
	if (scale > eps)
		c->p_value = fmin(1.0, 2.0 * gsl_cdf_tdist_Q(fabs(d) / scale, nu));
	else
		c->p_value = fabs(d) <= eps ? 1.0 : 0.0;
}

int pl_stats_compare(const double *old, size_t n_old, const double *new_, size_t n_new,
                     enum pl_direction dir, double alpha, double threshold,
                     struct pl_change *out, struct pl_error *err)
{
	struct pl_change c;
	int rc;

	if ((rc = check_compare_args("pl_stats_compare", old, n_old, new_, n_new, dir, alpha,
	                             threshold, out, err)))
		return rc;
	memset(&c, 0, sizeof(c));
	c.n_old = n_old;
	c.n_new = n_new;
	rc = pl_stats_mann_whitney(old, n_old, new_, n_new, NULL, &c.p_value, err);
	if (!rc)
		rc = median_of(old, n_old, &c.old_median, err);
	if (!rc)
		rc = median_of(new_, n_new, &c.new_median, err);
	if (rc)
		return rc;

	c.rel_change = rel_change_of(c.old_median, c.new_median);
	c.decidable = pl_stats_mann_whitney_min_p(n_old, n_new) <= alpha;
	c.significant = c.decidable && c.p_value < alpha;
	judge(&c, dir, threshold);
	*out = c;
	return 0;
}

int pl_stats_compare_prediction(const double *old, size_t n_old, const double *new_,
                                size_t n_new, enum pl_direction dir, double alpha,
                                double threshold, struct pl_change *out, struct pl_error *err)
{
	struct pl_change c;
	double sum = 0.0, ss = 0.0;
	int rc;

	if ((rc = check_compare_args("pl_stats_compare_prediction", old, n_old, new_, n_new, dir,
	                             alpha, threshold, out, err)))
		return rc;
	memset(&c, 0, sizeof(c));
	c.method = PL_TEST_PREDICTION;
	c.n_old = n_old;
	c.n_new = n_new;
	if ((rc = median_of(old, n_old, &c.old_median, err)) ||
	    (rc = median_of(new_, n_new, &c.new_median, err)))
		return rc;
	for (size_t i = 0; i < n_old; i++)
		sum += old[i];
	c.old_mean = sum / (double)n_old;
	for (size_t i = 0; i < n_old; i++)
		ss += (old[i] - c.old_mean) * (old[i] - c.old_mean);
	c.old_sd = n_old > 1 ? sqrt(ss / (double)(n_old - 1)) : 0.0;
	c.decidable = n_old >= PL_STATS_PREDICTION_MIN;
	c.p_value = 1.0;
	c.bound_low = c.bound_high = c.old_mean;
	if (c.decidable)
		t_interval(&c, c.old_mean, c.old_sd * sqrt(1.0 + 1.0 / (double)n_old),
		           (double)(n_old - 1), alpha);
	c.rel_change = rel_change_of(c.old_median, c.new_median);
	c.significant = c.decidable && c.p_value < alpha;
	judge(&c, dir, threshold);
	*out = c;
	return 0;
}

/* pi, for the robust scale (C11 has no M_PI) */
#define PL_PI 3.14159265358979323846
/* Asymptotic efficiency of 1.4826 MAD relative to s for normal data
 * (Rousseeuw & Croux 1993, table 1: 36.75%). */
#define PL_MAD_EFFICIENCY 0.3675

int pl_stats_compare_window(const double *old, size_t n_old, const double *new_, size_t n_new,
                            enum pl_direction dir, double alpha, double threshold,
                            struct pl_change *out, struct pl_error *err)
{
	struct pl_change c;
	double *dev, mad, sum = 0.0;
	int rc;

	if ((rc = pl_stats_compare_prediction(old, n_old, new_, n_new, dir, alpha, threshold, &c,
	                                      err)))
		return rc;
	c.method = PL_TEST_WINDOW;
	c.old_center = c.old_median;
	if (!(dev = malloc(n_old * sizeof(*dev))))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t i = 0; i < n_old; i++) {
		dev[i] = fabs(old[i] - c.old_center);
		sum += dev[i];
	}
	rc = median_of(dev, n_old, &mad, err);
	free(dev);
	if (rc)
		return rc;
	c.old_scale = mad > 0 ? 1.4826 * mad : sqrt(PL_PI / 2.0) * sum / (double)n_old;
	c.worse = c.better = 0;
	c.p_value = 1.0;
	c.bound_low = c.bound_high = c.old_center;
	if (c.decidable) /* the MAD's 36.75% efficiency: of the sd's n - 1 degrees of freedom */
		t_interval(&c, c.old_center, c.old_scale * sqrt(1.0 + PL_PI / (2.0 * (double)n_old)),
		           fmax(1.0, PL_MAD_EFFICIENCY * (double)(n_old - 1)), alpha);
	c.significant = c.decidable && c.p_value < alpha;
	judge(&c, dir, threshold);
	*out = c;
	return 0;
}

/* --------------------------------------------------------- step detection */

int pl_stats_noise_sigma(const double *y, size_t n, double *sigma, struct pl_error *err)
{
	double *d, med, s = 0.0;
	size_t i, m;
	int rc;

	if (!y || !sigma)
		return pl_error_set(err, PL_EUSAGE, "pl_stats_noise_sigma: NULL argument");
	rc = check_finite(y, n, "series point", err);
	if (rc)
		return rc;
	*sigma = 0.0;
	if (n < 2)
		return 0;
	m = n - 1;
	d = malloc(m * sizeof(double));
	if (!d)
		return pl_error_set(err, PL_ENOMEM, "out of memory estimating noise of %zu points", n);
	for (i = 0; i < m; i++)
		d[i] = y[i + 1] - y[i];
	qsort(d, m, sizeof(double), pl_cmp_double);
	med = median_sorted(d, m);
	{
		double *dev = malloc(m * sizeof(double));
		double mad;
		if (!dev) {
			free(d);
			return pl_error_set(err, PL_ENOMEM, "out of memory estimating noise of %zu points", n);
		}
		for (i = 0; i < m; i++)
			dev[i] = fabs(d[i] - med);
		qsort(dev, m, sizeof(double), pl_cmp_double);
		mad = median_sorted(dev, m);
		if (mad > 0.0) {
			s = MAD_TO_SIGMA * mad / sqrt(2.0);
		} else {
			double mean_dev = 0.0, mean_abs = 0.0;
			for (i = 0; i < m; i++) {
				mean_dev += dev[i];
				mean_abs += fabs(d[i]);
			}
			mean_dev /= (double)m;
			mean_abs /= (double)m;
			s = (mean_dev > 0.0 ? mean_dev : mean_abs) * SQRT_PI_2;
		}
		free(dev);
	}
	free(d);
	*sigma = s;
	return 0;
}

/* A binary heap of doubles: a max-heap when sign is +1, a min-heap with -1
 * (values are stored multiplied by sign). */
struct heap {
	double *v;  /* storage, capacity fixed by the caller */
	size_t n;   /* elements in use */
	double sign; /* +1 max-heap, -1 min-heap */
	double sum; /* sum of the (unsigned) elements */
};

static void heap_push(struct heap *h, double x)
{
	size_t i = h->n++;
	double key = h->sign * x;

	h->sum += x;
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (h->v[parent] >= key)
			break;
		h->v[i] = h->v[parent];
		i = parent;
	}
	h->v[i] = key;
}

static double heap_top(const struct heap *h)
{
	return h->sign * h->v[0];
}

static double heap_pop(struct heap *h)
{
	double top = h->v[0], last = h->v[--h->n];
	size_t i = 0;

	h->sum -= h->sign * top;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->v[c + 1] > h->v[c])
			c++;
		if (last >= h->v[c])
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n > 0)
		h->v[i] = last;
	return h->sign * top;
}

/* Running L1 cost sum |x - median| of a growing set, by two heaps:
 * lo (max-heap) holds the smaller half, |lo| = |hi| or |hi| + 1. */
struct l1_acc {
	struct heap lo; /* lower half, max-heap */
	struct heap hi; /* upper half, min-heap */
};

static void l1_reset(struct l1_acc *a)
{
	a->lo.n = a->hi.n = 0;
	a->lo.sum = a->hi.sum = 0.0;
}

static void l1_add(struct l1_acc *a, double x)
{
	if (a->lo.n == 0 || x <= heap_top(&a->lo))
		heap_push(&a->lo, x);
	else
		heap_push(&a->hi, x);
	if (a->lo.n > a->hi.n + 1)
		heap_push(&a->hi, heap_pop(&a->lo));
	else if (a->hi.n > a->lo.n)
		heap_push(&a->lo, heap_pop(&a->hi));
}

static double l1_cost(const struct l1_acc *a)
{
	double med = heap_top(&a->lo);
	double c = (a->hi.sum - (double)a->hi.n * med) + ((double)a->lo.n * med - a->lo.sum);

	return c > 0.0 ? c : 0.0;
}

/* Over 120 lines on purpose: the PELT recurrence (f, last,
 * nseg, the live candidates cand[] and dead_from[]) is one loop whose
 * state every step reads and prunes; split into helpers it would pass the
 * same eight arrays to each of them and read worse than the published
 * algorithm it follows (Killick et al. 2012). */
/* pl_stats_partition_l1() with segments of at most max_segment points
 * (0: unbounded): a candidate start further back than that is dropped, so
 * the work is O(n max_segment log max_segment) instead of up to O(n^2 log n). */
static int partition_impl(const double *y, size_t n, double beta, size_t min_segment,
                          size_t max_segment, size_t **steps, size_t *nsteps,
                          struct pl_error *err)
{
	double *f = NULL, *yc = NULL, *hbuf = NULL, *cost = NULL, ymin, ymax, center;
	size_t *last = NULL, *nseg = NULL, *cand = NULL, *dead_from = NULL, *out = NULL;
	size_t ncand = 0, t, i, k, cnt;
	struct l1_acc acc;
	int rc;

	if (!y || !steps || !nsteps)
		return pl_error_set(err, PL_EUSAGE, "pl_stats_partition_l1: NULL argument");
	if (!(beta >= 0.0) || !isfinite(beta))
		return pl_error_set(err, PL_EUSAGE, "step penalty must be finite and >= 0, got %g", beta);
	if (min_segment == 0)
		return pl_error_set(err, PL_EUSAGE, "minimum segment length must be at least 1");
	rc = check_finite(y, n, "series point", err);
	if (rc)
		return rc;
	*steps = NULL;
	*nsteps = 0;
	if (n < 2 * min_segment)
		return 0;
	if (n > SIZE_MAX / sizeof(double) - 1)
		return pl_error_set(err, PL_ENOMEM, "series too long");

	f = malloc((n + 1) * sizeof(double));
	cost = malloc((n + 1) * sizeof(double));
	yc = malloc(n * sizeof(double));
	hbuf = malloc(2 * n * sizeof(double));
	last = malloc((n + 1) * sizeof(size_t));
	nseg = malloc((n + 1) * sizeof(size_t));
	cand = malloc((n + 1) * sizeof(size_t));
	dead_from = malloc((n + 1) * sizeof(size_t));
	if (!f || !cost || !yc || !hbuf || !last || !nseg || !cand || !dead_from) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory fitting steps to %zu points", n);
		goto done;
	}

	/* Centre the data so the heap sums stay small: the costs are
	 * differences of sums, and a large common offset would eat digits. */
	ymin = ymax = y[0];
	for (i = 1; i < n; i++) {
		if (y[i] < ymin)
			ymin = y[i];
		if (y[i] > ymax)
			ymax = y[i];
	}
	center = ymin + (ymax - ymin) / 2.0;
	for (i = 0; i < n; i++)
		yc[i] = y[i] - center;

	acc.lo.v = hbuf;
	acc.lo.sign = 1.0;
	acc.hi.v = hbuf + n;
	acc.hi.sign = -1.0;

	/* f[t]: least penalised cost of y[0..t), with beta per segment; last[t]:
	 * start of its last segment; nseg[t]: its number of segments. Only t = 0
	 * and t >= min_segment are reachable. cand[] holds the candidate last
	 * segment starts still alive (PELT), in increasing order. */
	f[0] = 0.0;
	nseg[0] = 0;
	last[0] = 0;
	cand[ncand++] = 0;
	dead_from[0] = SIZE_MAX;
	for (t = min_segment; t <= n; t++) {
		double best = INFINITY, tol;
		size_t best_s = 0, best_n = 0, lo_s;

		/* Grow the segment [s, t) leftwards from s = t - min_segment down
		 * to the oldest live candidate, noting C(s, t) for candidates.
		 * cand[] is never empty: the best start of each round survives. */
		lo_s = ncand > 0 ? cand[0] : t;
		if (max_segment && t > max_segment && lo_s < t - max_segment)
			lo_s = t - max_segment;
		l1_reset(&acc);
		for (i = t; i > t - min_segment + 1; i--)
			l1_add(&acc, yc[i - 1]);
		for (k = t - min_segment + 1; k-- > lo_s;) {
			l1_add(&acc, yc[k]);
			cost[k] = l1_cost(&acc);
		}
		for (i = 0; i < ncand; i++) {
			size_t s = cand[i];
			double v;
			if (s + min_segment > t)
				break; /* cand[] is increasing: the rest are too close */
			if (max_segment && s + max_segment < t)
				continue; /* too far back (bounded fit) */
			v = f[s] + cost[s] + beta;
			if (v < best || (v == best && nseg[s] + 1 < best_n)) {
				best = v;
				best_s = s;
				best_n = nseg[s] + 1;
			}
		}
		f[t] = best;
		last[t] = best_s;
		nseg[t] = best_n;

		/* PELT: if f[s] + C(s,t) > f[t], ending a segment at t and starting
		 * a new one beats starting at s for every t' >= t + min_segment
		 * (C(s,t') >= C(s,t) + C(t,t')). The tolerance keeps rounding from
		 * pruning a candidate that is really tied. */
		tol = 1e-9 * (fabs(f[t]) + beta) + DBL_MIN;
		for (i = 0, cnt = 0; i < ncand; i++) {
			size_t s = cand[i];
			if (s + min_segment <= t && dead_from[s] == SIZE_MAX &&
			    f[s] + cost[s] > f[t] + tol)
				dead_from[s] = t + min_segment;
			if (dead_from[s] > t + 1 && /* still useful for t + 1 */
			    !(max_segment && s + max_segment < t + 1))
				cand[cnt++] = s;
		}
		ncand = cnt;
		if (isfinite(f[t])) {
			cand[ncand++] = t;
			dead_from[t] = SIZE_MAX;
		}
	}

	/* Walk back from n through the segment starts. */
	cnt = nseg[n] > 0 ? nseg[n] - 1 : 0;
	if (cnt > 0) {
		out = malloc(cnt * sizeof(size_t));
		if (!out) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory fitting steps to %zu points", n);
			goto done;
		}
		for (t = n, k = cnt; k > 0; k--) {
			t = last[t];
			out[k - 1] = t;
		}
	}
	*steps = out;
	*nsteps = cnt;
	rc = 0;
done:
	free(f);
	free(cost);
	free(yc);
	free(hbuf);
	free(last);
	free(nseg);
	free(cand);
	free(dead_from);
	return rc;
}

int pl_stats_partition_l1(const double *y, size_t n, double beta, size_t min_segment,
                          size_t **steps, size_t *nsteps, struct pl_error *err)
{
	return partition_impl(y, n, beta, min_segment, 0, steps, nsteps, err);
}

/* L1 cost of y[from..to): sum |y_i - median|; tmp holds to - from doubles. */
static double l1_cost_of(const double *y, size_t from, size_t to, double *tmp)
{
	double med, c = 0.0;

	memcpy(tmp, y + from, (to - from) * sizeof(double));
	med = pl_median(tmp, to - from);
	for (size_t i = from; i < to; i++)
		c += fabs(y[i] - med);
	return c;
}

/* The merge pass of the bounded fit (asv's solve_potts_approx): sweeps the
 * segments left to right and joins two neighbours whenever one segment
 * costs less than the two plus beta, until a sweep joins nothing. steps
 * (*nsteps of them) is rewritten in place. O(n) per sweep. */
static int merge_segments(const double *y, size_t n, double beta, size_t *steps, size_t *nsteps,
                          struct pl_error *err)
{
	double *tmp = malloc(n * sizeof(double));
	int merged = 1;

	if (!tmp)
		return pl_error_set(err, PL_ENOMEM, "out of memory fitting steps to %zu points", n);
	while (merged && *nsteps > 0) {
		size_t k = 0, out = 0, start = 0;
		merged = 0;
		/* segment [start, steps[k]) against [steps[k], next) */
		while (k < *nsteps) {
			size_t mid = steps[k], end = k + 1 < *nsteps ? steps[k + 1] : n;
			double joined = l1_cost_of(y, start, end, tmp);
			double apart = l1_cost_of(y, start, mid, tmp) + l1_cost_of(y, mid, end, tmp);
			if (joined <= apart + beta) {
				merged = 1; /* drop the step at mid; the segment grows */
			} else {
				steps[out++] = mid;
				start = mid;
			}
			k++;
		}
		*nsteps = out;
	}
	free(tmp);
	return 0;
}

int pl_stats_detect_steps(const double *y, size_t n, double penalty_scale,
                          size_t **steps, size_t *nsteps, struct pl_error *err)
{
	double sigma;
	int rc;

	if (!y || !steps || !nsteps)
		return pl_error_set(err, PL_EUSAGE, "pl_stats_detect_steps: NULL argument");
	if (!(penalty_scale >= 0.0) || !isfinite(penalty_scale))
		return pl_error_set(err, PL_EUSAGE, "step penalty scale must be finite and >= 0, got %g",
		                    penalty_scale);
	*steps = NULL;
	*nsteps = 0;
	rc = pl_stats_noise_sigma(y, n, &sigma, err);
	if (rc)
		return rc;
	if (n < 2 * PL_STATS_STEP_MIN_SEGMENT || sigma == 0.0)
		return 0; /* too short, or constant */
	if (penalty_scale == 0.0)
		penalty_scale = PL_STATS_STEP_PENALTY_DEFAULT;
	if (n <= PL_STATS_STEP_EXACT_MAX)
		return pl_stats_partition_l1(y, n, penalty_scale * sigma * log((double)n),
		                             PL_STATS_STEP_MIN_SEGMENT, steps, nsteps, err);
	rc = partition_impl(y, n, penalty_scale * sigma * log((double)n), PL_STATS_STEP_MIN_SEGMENT,
	                    PL_STATS_STEP_MAX_SEGMENT, steps, nsteps, err);
	if (!rc)
		rc = merge_segments(y, n, penalty_scale * sigma * log((double)n), *steps, nsteps, err);
	if (rc) {
		free(*steps);
		*steps = NULL;
		*nsteps = 0;
	} else if (*nsteps == 0) {
		free(*steps);
		*steps = NULL;
	}
	return rc;
}

int pl_stats_segment_levels(const double *y, size_t n, const size_t *steps, size_t nsteps,
                            double *levels, struct pl_error *err)
{
	size_t i, start;
	int rc;

	if (!y || !levels || (nsteps > 0 && !steps))
		return pl_error_set(err, PL_EUSAGE, "pl_stats_segment_levels: NULL argument");
	if (n == 0)
		return pl_error_set(err, PL_EEMPTY, "empty series");
	for (i = 0; i < nsteps; i++)
		if (steps[i] == 0 || steps[i] >= n || (i > 0 && steps[i] <= steps[i - 1]))
			return pl_error_set(err, PL_EUSAGE,
			                    "step %zu at index %zu is out of order or outside 1..%zu",
			                    i + 1, steps[i], n - 1);
	rc = check_finite(y, n, "series point", err);
	if (rc)
		return rc;
	for (i = 0, start = 0; i <= nsteps; i++) {
		size_t end = i < nsteps ? steps[i] : n;
		rc = median_of(y + start, end - start, &levels[i], err);
		if (rc)
			return rc;
		start = end;
	}
	return 0;
}
