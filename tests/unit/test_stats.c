/*
 * test_stats.c — the statistics core against independently computed values.
 *
 * Every reference number below says where it comes from: a hand computation
 * written out in the comment, a table published by benchstat, a brute-force
 * enumeration written here in the test (not sharing code with stats.c), or
 * libm's erfc() for normal tails (stats.c uses GSL for those). scipy could not
 * be run here (no network), so scipy values are not quoted.
 * Random data come from the fixed-seed xorshift64* + Box-Muller generator
 * below, so every run sees the same numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "core/stats.h"

/* cmocka 1.1.5 has only a float comparison; this one keeps double precision
 * and prints both values on failure. eps 0 asks for exact equality. */
#define assert_near(a, b, eps) near_((a), (b), (eps), #a, __FILE__, __LINE__)

static void near_(double a, double b, double eps, const char *what, const char *file, int line)
{
	if (!(fabs(a - b) <= eps)) {
		print_error("%s = %.17g, want %.17g (+- %g)\n", what, a, b, eps);
		_fail(file, line);
	}
}

/* ------------------------------------------------------------ generator */

/* xorshift64* (Vigna 2016); state must be nonzero. */
struct rng {
	uint64_t s; /* state */
};

static void rng_seed(struct rng *r, uint64_t seed)
{
	r->s = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
	if (r->s == 0)
		r->s = 1;
}

/* Uniform in (0, 1), never 0 or 1. */
static double rng_u01(struct rng *r)
{
	uint64_t x = r->s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->s = x;
	x *= 0x2545F4914F6CDD1Dull;
	return ((double)(x >> 11) + 0.5) / 9007199254740992.0; /* 2^53 */
}

/* Standard normal by Box-Muller (one of the pair). */
static double rng_gauss(struct rng *r)
{
	double u1 = rng_u01(r), u2 = rng_u01(r);

	return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* v[i] = level * (1 + rel_sd * N(0,1)): a latency with relative noise. */
static void fill_noisy(struct rng *r, double *v, size_t n, double level, double rel_sd)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = level * (1.0 + rel_sd * rng_gauss(r));
}

/* --------------------------------------------------- median and interval */

static void median_ci_n10(void **state)
{
	/* Sorted: 0.5 1.0 2.5 3.2 4.4 5.1 6.6 7.7 8.8 9.9. */
	const double v[10] = { 5.1, 3.2, 9.9, 1.0, 7.7, 2.5, 8.8, 4.4, 6.6, 0.5 };
	struct pl_sample_summary s;
	struct pl_error err;

	(void)state;
	pl_error_init(&err);
	assert_int_equal(pl_stats_summarize(v, 10, 0.95, &s, &err), 0);
	assert_int_equal(s.n, 10);
	assert_near(s.median, 4.75, 1e-12); /* (4.4 + 5.1) / 2 */
	assert_near(s.min, 0.5, 0);
	assert_near(s.max, 9.9, 0);
	/*
	 * By hand, B ~ Binomial(10, 1/2), 2^10 = 1024:
	 *   P(B <= 0) = 1/1024
	 *   P(B <= 1) = (1 + 10)/1024      = 11/1024
	 *   P(B <= 2) = (1 + 10 + 45)/1024 = 56/1024
	 * [x_(j), x_(11-j)] covers with 1 - 2 P(B <= j-1):
	 *   j = 2: 1 - 22/1024  = 1002/1024 = 0.978515625 >= 0.95  <- chosen
	 *   j = 3: 1 - 112/1024 =  912/1024 = 0.890625    <  0.95
	 * so the interval is [x_(2), x_(9)] = [1.0, 8.8].
	 */
	assert_int_equal(s.ci_valid, 1);
	assert_near(s.ci_low, 1.0, 0);
	assert_near(s.ci_high, 8.8, 0);
	assert_near(s.ci_level, 0.978515625, 1e-6);

	/* At 89% j = 3 qualifies (0.890625 >= 0.89): [x_(3), x_(8)]. */
	assert_int_equal(pl_stats_summarize(v, 10, 0.89, &s, &err), 0);
	assert_near(s.ci_low, 2.5, 0);
	assert_near(s.ci_high, 7.7, 0);
	assert_near(s.ci_level, 0.890625, 1e-6);
}

static void median_ci_n20(void **state)
{
	double v[20];
	struct pl_sample_summary s;
	size_t i;

	(void)state;
	for (i = 0; i < 20; i++) /* a permutation of 1..20 (gcd(7, 20) = 1) */
		v[i] = (double)((i * 7) % 20 + 1);
	assert_int_equal(pl_stats_summarize(v, 20, 0.95, &s, NULL), 0);
	assert_near(s.median, 10.5, 1e-12);
	/*
	 * By hand, 2^20 = 1048576; C(20,0..6) = 1 20 190 1140 4845 15504 38760.
	 *   P(B <= 5) = 21700/1048576, P(B <= 6) = 60460/1048576.
	 *   j = 6: 1 - 43400/1048576  = 1005176/1048576 = 0.958610534667969 >= 0.95
	 *   j = 7: 1 - 120920/1048576 = 0.884681701660156 < 0.95
	 * -> [x_(6), x_(15)] = [6, 15]; the usual table value for n = 20
	 * (e.g. Conover, Table A3 / Altman's "Statistics with confidence").
	 */
	assert_int_equal(s.ci_valid, 1);
	assert_near(s.ci_low, 6.0, 0);
	assert_near(s.ci_high, 15.0, 0);
	assert_near(s.ci_level, 0.958610534667969, 1e-9);
}

static void median_ci_too_few(void **state)
{
	const double v[6] = { 3, 1, 2, 5, 4, 6 };
	struct pl_sample_summary s;

	(void)state;
	/* n = 5: [min, max] covers 1 - 2/32 = 0.9375 < 0.95 -> not valid. */
	assert_int_equal(pl_stats_summarize(v, 5, 0.95, &s, NULL), 0);
	assert_int_equal(s.ci_valid, 0);
	assert_near(s.median, 3.0, 0);
	assert_near(s.ci_low, 1.0, 0);
	assert_near(s.ci_high, 5.0, 0);
	assert_near(s.ci_level, 0.9375, 1e-12);
	/* n = 6: 1 - 2/64 = 0.96875 >= 0.95 -> [x_(1), x_(6)] valid. */
	assert_int_equal(pl_stats_summarize(v, 6, 0.95, &s, NULL), 0);
	assert_int_equal(s.ci_valid, 1);
	assert_near(s.median, 3.5, 0);
	assert_near(s.ci_low, 1.0, 0);
	assert_near(s.ci_high, 6.0, 0);
	assert_near(s.ci_level, 0.96875, 1e-12);
	/* n = 1: no interval at all, coverage 0. */
	assert_int_equal(pl_stats_summarize(v, 1, 0.95, &s, NULL), 0);
	assert_int_equal(s.ci_valid, 0);
	assert_near(s.median, 3.0, 0);
	assert_near(s.ci_low, 3.0, 0);
	assert_near(s.ci_high, 3.0, 0);
	assert_near(s.ci_level, 0.0, 0);
	/* n = 2: 1 - 2/4 = 0.5. */
	assert_int_equal(pl_stats_summarize(v, 2, 0.95, &s, NULL), 0);
	assert_int_equal(s.ci_valid, 0);
	assert_near(s.median, 2.0, 0);
	assert_near(s.ci_level, 0.5, 1e-12);
}

/* pl_stats_quantile_ci_ranks: the equal-tailed 95% interval of a quantile
 * from order statistics, l and u worked out with the exact binomial
 * (Python, math.comb, summed tails):
 *   n = 20, q = 0.5: P(B <= 5) = 21700 / 2^20 = 0.0206947 <= 0.025 <
 *     P(B <= 6) = 0.0576591, so l = 6 and by symmetry u = 15; coverage
 *     1 - 2 * 21700 / 2^20 = 0.958610534667969;
 *   n = 20, q = 0.9: P(B >= 20) = 0.9^20 = 0.1216 > 0.025: no u, n/a;
 * and at each percentile's boundary n - 1 has none, n has:
 *   median  n 5: 0.5^5 = 0.03125 > 0.025;  n 6: l 1, u 6, coverage 0.96875
 *   p90  n 35: 0.9^35 = 0.02503 > 0.025;  n 36: l 29, u 36, 0.953962105
 *   p95  n 71: 0.95^71 = 0.02620;         n 72: l 64, u 72, 0.965490048
 *   p99  n 367: 0.99^367 = 0.02501;       n 368: l 360, u 368, 0.962415820
 *   p99.9  n 3687: 0.999^3687 = 0.0250009; n 3688: l 3680, u 3688, 0.961623752 */
static void quantile_ci_ranks(void **state)
{
	static const struct {
		size_t n;
		double q;
		int ok;
		size_t l, u;
		double coverage;
	} c[] = {
		{20, 0.5, 1, 6, 15, 0.958610534667969}, {20, 0.9, 0, 0, 0, 0},
		{5, 0.5, 0, 0, 0, 0},                   {6, 0.5, 1, 1, 6, 0.96875},
		{35, 0.9, 0, 0, 0, 0},                  {36, 0.9, 1, 29, 36, 0.953962105202652},
		{71, 0.95, 0, 0, 0, 0},                 {72, 0.95, 1, 64, 72, 0.965490047908374},
		{367, 0.99, 0, 0, 0, 0},                {368, 0.99, 1, 360, 368, 0.962415820410858},
		{3687, 0.999, 0, 0, 0, 0},              {3688, 0.999, 1, 3680, 3688, 0.961623751803418},
	};
	size_t l, u;
	double cov;

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		l = u = 0;
		assert_int_equal(pl_stats_quantile_ci_ranks(c[i].n, c[i].q, 0.95, &l, &u, &cov), c[i].ok);
		if (!c[i].ok)
			continue;
		assert_int_equal(l, c[i].l);
		assert_int_equal(u, c[i].u);
		assert_near(cov, c[i].coverage, 1e-9);
	}
	/* the median interval of check (pl_stats_summarize) is its q = 0.5 case */
	assert_int_equal(pl_stats_quantile_ci_ranks(10, 0.5, 0.95, &l, &u, &cov), 1);
	assert_int_equal(l, 2);
	assert_int_equal(u, 9);
	assert_near(cov, 0.978515625, 1e-12);
	/* out of domain: nothing */
	assert_int_equal(pl_stats_quantile_ci_ranks(0, 0.5, 0.95, &l, &u, &cov), 0);
	assert_int_equal(pl_stats_quantile_ci_ranks(100, 0, 0.95, &l, &u, &cov), 0);
	assert_int_equal(pl_stats_quantile_ci_ranks(100, 1, 0.95, &l, &u, &cov), 0);
	assert_int_equal(pl_stats_quantile_ci_ranks(100, 0.5, 1, &l, &u, &cov), 0);
}

static void summarize_errors(void **state)
{
	const double v[3] = { 1, NAN, 3 };
	const double inf[2] = { 1, INFINITY };
	struct pl_sample_summary s;
	struct pl_error err;

	(void)state;
	pl_error_init(&err);
	assert_int_equal(pl_stats_summarize(v, 0, 0.95, &s, &err), PL_EEMPTY);
	assert_int_equal(err.code, PL_EEMPTY);
	assert_int_equal(pl_stats_summarize(v, 3, 0.95, &s, &err), PL_EINVALID);
	assert_string_equal(err.message, "sample 2 is not a finite number");
	assert_int_equal(pl_stats_summarize(inf, 2, 0.95, &s, &err), PL_EINVALID);
	assert_int_equal(pl_stats_summarize(v, 1, 1.0, &s, &err), PL_EUSAGE);
	assert_int_equal(pl_stats_summarize(v, 1, 0.0, &s, &err), PL_EUSAGE);
	assert_int_equal(pl_stats_summarize(v, 1, NAN, &s, &err), PL_EUSAGE);
	assert_int_equal(pl_stats_summarize(NULL, 1, 0.95, &s, &err), PL_EUSAGE);
	assert_int_equal(pl_stats_summarize(v, 1, 0.95, NULL, NULL), PL_EUSAGE);
}

/* ------------------------------------------------------------ Mann-Whitney */

static void mw_exact_known(void **state)
{
	const double a3[3] = { 1, 2, 3 }, b3[3] = { 4, 5, 6 };
	const double a4[4] = { 1, 2, 3, 4 }, b4[4] = { 5, 6, 7, 8 };
	const double a7[3] = { 1, 2, 5 }, b7[4] = { 3, 4, 6, 7 };
	double u, p;

	(void)state;
	/* C(6,3) = 20 equally likely orderings, one has U = 0:
	 * p = 2 * 1/20 = 0.1. */
	assert_int_equal(pl_stats_mann_whitney(a3, 3, b3, 3, &u, &p, NULL), 0);
	assert_near(u, 0.0, 0);
	assert_near(p, 0.1, 1e-12);
	/* swapped: U_a = 9, same p */
	assert_int_equal(pl_stats_mann_whitney(b3, 3, a3, 3, &u, &p, NULL), 0);
	assert_near(u, 9.0, 0);
	assert_near(p, 0.1, 1e-12);
	/* C(8,4) = 70: p = 2/70 = 0.028571428571... */
	assert_int_equal(pl_stats_mann_whitney(a4, 4, b4, 4, &u, &p, NULL), 0);
	assert_near(u, 0.0, 0);
	assert_near(p, 2.0 / 70.0, 1e-12);
	/*
	 * na = 3, nb = 4: pairs a > b are 5>3, 5>4, so U_a = 2 (U_b = 10).
	 * By hand: #orderings with U = u = #partitions of u into at most 3
	 * parts, each <= 4: u=0: {} 1; u=1: {1} 1; u=2: {2},{1,1} 2.
	 * P(U <= 2) = 4/C(7,3) = 4/35, p = 8/35 = 0.228571428571...
	 */
	assert_int_equal(pl_stats_mann_whitney(a7, 3, b7, 4, &u, &p, NULL), 0);
	assert_near(u, 2.0, 0);
	assert_near(p, 8.0 / 35.0, 1e-12);
	/* identical-looking middle: U = mu gives p = 1 */
	{
		const double x[2] = { 1, 4 }, y[2] = { 2, 3 };
		assert_int_equal(pl_stats_mann_whitney(x, 2, y, 2, &u, &p, NULL), 0);
		assert_near(u, 2.0, 0);
		assert_near(p, 1.0, 0);
	}
}

/* Independent reference: P-value by listing every way to give na of the
 * ranks 1..na+nb to the first sample (all equally likely under H0, no ties)
 * and counting those with U <= min(U_a, U_b). */
static double brute_mw_p(const double *a, size_t na, const double *b, size_t nb)
{
	size_t nn = na + nb, i, j, idx[32];
	double ua = 0, umin;
	unsigned long long total = 0, hits = 0;

	for (i = 0; i < na; i++) /* U_a = #pairs a > b (no ties here) */
		for (j = 0; j < nb; j++)
			ua += a[i] > b[j];
	umin = ua < (double)(na * nb) - ua ? ua : (double)(na * nb) - ua;
	for (i = 0; i < na; i++)
		idx[i] = i; /* 0-based ranks of the first sample, increasing */
	for (;;) {
		double u = 0;
		for (i = 0; i < na; i++)
			u += (double)(idx[i] - i); /* b's ranked below this a */
		total++;
		hits += u <= umin;
		/* next combination in lexicographic order */
		i = na;
		while (i > 0 && idx[i - 1] == nn - na + i - 1)
			i--;
		if (i == 0)
			break;
		idx[i - 1]++;
		for (j = i; j < na; j++)
			idx[j] = idx[j - 1] + 1;
	}
	return 2.0 * (double)hits / (double)total > 1.0 ? 1.0 : 2.0 * (double)hits / (double)total;
}

static void mw_exact_vs_bruteforce(void **state)
{
	static const size_t sizes[][2] = { { 5, 7 }, { 8, 8 }, { 3, 11 }, { 10, 12 }, { 9, 6 }, { 1, 9 } };
	struct rng r;
	double a[16], b[16], u, p;
	size_t k, rep;

	(void)state;
	rng_seed(&r, 4242);
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		for (rep = 0; rep < 3; rep++) {
			size_t na = sizes[k][0], nb = sizes[k][1];
			/* second sample shifted by 0, 0.5, 1.0 sd: p from ~1 to small */
			fill_noisy(&r, a, na, 10.0, 0.1);
			fill_noisy(&r, b, nb, 10.0 + 0.5 * (double)rep, 0.1);
			assert_int_equal(pl_stats_mann_whitney(a, na, b, nb, &u, &p, NULL), 0);
			assert_near(p, brute_mw_p(a, na, b, nb), 1e-12);
		}
	}
}

static void mw_exact_largest(void **state)
{
	double a[50], b[50], u, p, z;
	size_t i;

	(void)state;
	/* 50 a side, the biggest exact case. Complete separation must give the
	 * smallest attainable p, 2/C(100,50) = 1.9818e-29. */
	for (i = 0; i < 50; i++) {
		a[i] = (double)i;
		b[i] = 100.0 + (double)i;
	}
	assert_int_equal(pl_stats_mann_whitney(a, 50, b, 50, &u, &p, NULL), 0);
	assert_near(u, 0.0, 0);
	assert_true(fabs(p - pl_stats_mann_whitney_min_p(50, 50)) <= 1e-9 * p);
	/* interleaved (a = even, b = odd ranks): U_a = 1+...+50 = 1275, far
	 * from the tails, where the exact p and the continuity-corrected normal
	 * approximation agree closely: mu = 1250, var = 2500*101/12,
	 * z = 24.5/sqrt(var) = 0.26744, p_normal = erfc(z/sqrt 2) = 0.789. */
	for (i = 0; i < 50; i++) {
		a[i] = 2.0 * (double)(i + 1);
		b[i] = 2.0 * (double)(i + 1) - 1.0;
	}
	assert_int_equal(pl_stats_mann_whitney(a, 50, b, 50, &u, &p, NULL), 0);
	assert_near(u, 1275.0, 0);
	z = 24.5 / sqrt(2500.0 * 101.0 / 12.0);
	assert_near(p, erfc(z / sqrt(2.0)), 2e-3);
}

static void mw_min_p(void **state)
{
	(void)state;
	/* 2 / C(na+nb, na); the n = n values match benchstat's uTestMinP table
	 * (golang.org/x/perf/benchmath/anone.go): 1, 0.333.., 0.1, 0.02857..,
	 * 0.0079365.., ..., 9: 4.113533525298231e-05. */
	assert_near(pl_stats_mann_whitney_min_p(1, 1), 1.0, 0);
	assert_near(pl_stats_mann_whitney_min_p(2, 2), 1.0 / 3.0, 1e-15);
	assert_near(pl_stats_mann_whitney_min_p(3, 3), 0.1, 1e-15);
	assert_near(pl_stats_mann_whitney_min_p(4, 4), 0.02857142857142857, 1e-15);
	assert_near(pl_stats_mann_whitney_min_p(5, 5), 0.007936507936507936, 1e-15);
	assert_near(pl_stats_mann_whitney_min_p(9, 9), 4.113533525298231e-05, 1e-17);
	assert_near(pl_stats_mann_whitney_min_p(10, 10), 2.0 / 184756.0, 1e-17);
	assert_near(pl_stats_mann_whitney_min_p(1, 5), 2.0 / 6.0, 1e-15);
	assert_near(pl_stats_mann_whitney_min_p(5, 1), 2.0 / 6.0, 1e-15);
	assert_near(pl_stats_mann_whitney_min_p(0, 5), 1.0, 0);
	assert_true(pl_stats_mann_whitney_min_p(1000, 1000) == 0.0); /* C overflows */
}

static void mw_normal_ties(void **state)
{
	const double a[4] = { 1, 2, 2, 3 }, b[4] = { 3, 4, 5, 5 };
	double u, p, z;

	(void)state;
	/*
	 * Ties -> normal approximation. By hand: pooled 1a 2a 2a 3a 3b 4b 5b 5b,
	 * mid-ranks 1, 2.5, 2.5, 4.5, 4.5, 6, 7.5, 7.5; R_a = 1+2.5+2.5+4.5 =
	 * 10.5, U_a = 10.5 - 4*5/2 = 0.5 (the 3-3 tie counts half).
	 * mu = 16/2 = 8. Tie groups of 2 (the 2s, 3s, 5s): sum(t^3 - t) = 18.
	 * var = 16/12 * (9 - 18/(8*7)) = (4/3)(243/28) = 81/7, sd = 9/sqrt(7).
	 * z = (|0.5 - 8| - 0.5) / sd = 7 sqrt(7) / 9 = 2.0578065752724597,
	 * p = 2 Q(z) = erfc(z / sqrt 2) = 0.039608704639759795 (Python
	 * math.erfc; checked here against libm's erfc, not GSL).
	 */
	assert_int_equal(pl_stats_mann_whitney(a, 4, b, 4, &u, &p, NULL), 0);
	assert_near(u, 0.5, 0);
	z = 7.0 * sqrt(7.0) / 9.0;
	assert_near(p, erfc(z / sqrt(2.0)), 1e-12);
	assert_near(p, 0.039608704639759795, 1e-12);

	/* all values equal: var = 0, p = 1 */
	{
		const double c[3] = { 2, 2, 2 };
		assert_int_equal(pl_stats_mann_whitney(c, 3, c, 2, &u, &p, NULL), 0);
		assert_near(u, 3.0, 0);
		assert_near(p, 1.0, 0);
	}
}

static void mw_normal_large(void **state)
{
	double a[60], b[60], u, p, z;
	size_t i;

	(void)state;
	/*
	 * 60 a side (> PL_STATS_MW_EXACT_MAX), no ties: normal approximation.
	 * a = 2, 4, ..., 120; b = 1, 3, ..., 119. a = 2k beats the k odd
	 * numbers below it, so U_a = 1 + 2 + ... + 60 = 1830. mu = 1800,
	 * var = 60*60*121/12 = 36300, z = (30 - 0.5)/sqrt(36300) =
	 * 0.154834844919036, p = erfc(z/sqrt 2) = 0.8769515201868247.
	 */
	for (i = 0; i < 60; i++) {
		a[i] = 2.0 * (double)(i + 1);
		b[i] = 2.0 * (double)(i + 1) - 1.0;
	}
	assert_int_equal(pl_stats_mann_whitney(a, 60, b, 60, &u, &p, NULL), 0);
	assert_near(u, 1830.0, 0);
	z = 29.5 / sqrt(36300.0);
	assert_near(p, erfc(z / sqrt(2.0)), 1e-12);
	assert_near(p, 0.8769515201868247, 1e-12);
	/* complete separation: U = 0, z = 1799.5/sqrt(36300) = 9.4449...,
	 * p = erfc(z/sqrt 2) = 3.556570974984777e-21 */
	for (i = 0; i < 60; i++)
		b[i] = 200.0 + (double)i;
	assert_int_equal(pl_stats_mann_whitney(a, 60, b, 60, &u, &p, NULL), 0);
	assert_near(u, 0.0, 0);
	z = 1799.5 / sqrt(36300.0);
	assert_true(fabs(p - erfc(z / sqrt(2.0))) <= 1e-9 * erfc(z / sqrt(2.0)));
}

static void mw_errors(void **state)
{
	const double a[2] = { 1, 2 }, bad[2] = { 1, NAN };
	struct pl_error err;
	double p;

	(void)state;
	pl_error_init(&err);
	assert_int_equal(pl_stats_mann_whitney(a, 0, a, 2, NULL, &p, &err), PL_EEMPTY);
	assert_int_equal(pl_stats_mann_whitney(a, 2, a, 0, NULL, &p, &err), PL_EEMPTY);
	assert_int_equal(pl_stats_mann_whitney(NULL, 2, a, 2, NULL, &p, &err), PL_EUSAGE);
	assert_int_equal(pl_stats_mann_whitney(a, 2, bad, 2, NULL, &p, &err), PL_EINVALID);
	assert_string_equal(err.message, "second-set sample 2 is not a finite number");
	/* u and p may both be NULL */
	assert_int_equal(pl_stats_mann_whitney(a, 2, a, 2, NULL, NULL, &err), 0);
}

/* -------------------------------------------------------------- compare */

static void compare_regression(void **state)
{
	/* TTFT 0.300 s -> 0.330 s (+10%): the candidate is the baseline times
	 * 1.1, n = 10 a side, no ties. The baseline's middle values are 0.2995
	 * and 0.3005 and the candidate's 0.32945 and 0.33055, so the medians
	 * are 0.3 and 0.33 and the change 0.33 / 0.3 - 1 = +10%, by hand. */
	const double old[10] = {0.3008, 0.298, 0.2995, 0.302, 0.297, 0.3005, 0.303, 0.2992, 0.301,
	                        0.299};
	const double cur[10] = {0.33088, 0.3278, 0.32945, 0.3322, 0.3267, 0.33055, 0.3333, 0.32912,
	                        0.3311, 0.3289};
	struct pl_change c;

	(void)state;
	assert_int_equal(pl_stats_compare(old, 10, cur, 10, PL_LOWER_IS_BETTER, 0.05, 0.05, &c, NULL), 0);
	assert_int_equal(c.n_old, 10);
	assert_int_equal(c.n_new, 10);
	assert_int_equal(c.decidable, 1);
	assert_int_equal(c.significant, 1);
	assert_int_equal(c.worse, 1);
	assert_int_equal(c.better, 0);
	assert_true(c.old_median == 0.3);
	assert_true(c.new_median == 0.33);
	assert_near(c.rel_change, 0.10, 1e-12);
	/* every candidate above every baseline: complete separation, the
	 * smallest two-sided p, 2 / C(20, 10) = 2 / 184756 */
	assert_near(c.p_value, 2.0 / 184756.0, 1e-15);
}

static void compare_false_alarm_rate(void **state)
{
	double old[10], cur[10];
	struct pl_change c;
	struct rng r;
	unsigned seed, sig = 0, worse = 0;
	double rate;

	(void)state;
	/* No change, same 1% noise, 1000 seeds. The exact two-sided test at
	 * n = 10/10 rejects when U <= 23, which has probability
	 * 2 P(U <= 23) = 0.04326 under H0 (from the exact distribution,
	 * computed independently in Python with the Mann-Whitney recurrence);
	 * the measured rate must stay near that. */
	for (seed = 1; seed <= 1000; seed++) {
		rng_seed(&r, 1000000 + seed);
		fill_noisy(&r, old, 10, 0.300, 0.01);
		fill_noisy(&r, cur, 10, 0.300, 0.01);
		assert_int_equal(pl_stats_compare(old, 10, cur, 10, PL_LOWER_IS_BETTER, 0.05, 0.05, &c, NULL), 0);
		sig += (unsigned)c.significant;
		worse += (unsigned)c.worse;
	}
	rate = (double)sig / 1000.0;
	print_message("false-alarm rate (significant, alpha 0.05, n=10/10, 1000 seeds): %.3f; "
	              "worse beyond 5%%: %u\n", rate, worse);
	/* The seeds are fixed, so the count is exact: 46 alarms in 1000, half
	 * a standard deviation (sqrt(1000 * 0.0433 * 0.9567) = 6.4) from the
	 * test's exact size 43.3. A p-value off by a factor of two (rejecting
	 * at U <= 27, size 0.089) would give about 89. */
	assert_int_equal(sig, 46);
	assert_int_equal(worse, 0); /* 1% noise never moves a median by 5% */
}

static void compare_too_few(void **state)
{
	const double old[4] = { 0.30, 0.31, 0.29, 0.30 }, cur[4] = { 0.60, 0.61, 0.62, 0.63 };
	struct pl_change c;

	(void)state;
	/* n = 2 a side: min p = 1/3 > 0.05, undecidable even at +100% */
	assert_int_equal(pl_stats_compare(old, 2, cur, 2, PL_LOWER_IS_BETTER, 0.05, 0.05, &c, NULL), 0);
	assert_int_equal(c.decidable, 0);
	assert_int_equal(c.significant, 0);
	assert_int_equal(c.worse, 0);
	assert_int_equal(c.better, 0);
	assert_near(c.p_value, 1.0 / 3.0, 1e-12);
	/* medians 0.305 and 0.605: 0.605 / 0.305 - 1 = 0.98360655737705 */
	assert_near(c.rel_change, 0.98360655737705, 1e-12);
	/* n = 3: min p = 0.1 > 0.05 */
	assert_int_equal(pl_stats_compare(old, 3, cur, 3, PL_LOWER_IS_BETTER, 0.05, 0.05, &c, NULL), 0);
	assert_int_equal(c.decidable, 0);
	assert_int_equal(c.worse, 0);
	/* decidable at alpha 0.2 (min p 0.1 <= 0.2), and then significant */
	assert_int_equal(pl_stats_compare(old, 3, cur, 3, PL_LOWER_IS_BETTER, 0.2, 0.05, &c, NULL), 0);
	assert_int_equal(c.decidable, 1);
	assert_int_equal(c.significant, 1);
	assert_int_equal(c.worse, 1);
	/* n = 4: min p = 0.0286 <= 0.05, separated -> worse */
	assert_int_equal(pl_stats_compare(old, 4, cur, 4, PL_LOWER_IS_BETTER, 0.05, 0.05, &c, NULL), 0);
	assert_int_equal(c.decidable, 1);
	assert_int_equal(c.significant, 1);
	assert_int_equal(c.worse, 1);
	/* 1 against 10 is never decidable: 2/11 */
	{
		double ten[10];
		struct rng r;
		rng_seed(&r, 7);
		fill_noisy(&r, ten, 10, 0.3, 0.01);
		assert_int_equal(pl_stats_compare(cur, 1, ten, 10, PL_LOWER_IS_BETTER, 0.05, 0.05, &c, NULL), 0);
		assert_int_equal(c.decidable, 0);
	}
}

static void compare_improvement(void **state)
{
	double old[10], cur[10];
	struct pl_change c;
	struct rng r;

	(void)state;
	rng_seed(&r, 2);
	/* TTFT 0.300 -> 0.270 s: better */
	fill_noisy(&r, old, 10, 0.300, 0.01);
	fill_noisy(&r, cur, 10, 0.270, 0.01);
	assert_int_equal(pl_stats_compare(old, 10, cur, 10, PL_LOWER_IS_BETTER, 0.05, 0.05, &c, NULL), 0);
	assert_int_equal(c.significant, 1);
	assert_int_equal(c.better, 1);
	assert_int_equal(c.worse, 0);
	assert_true(c.rel_change < -0.08 && c.rel_change > -0.12);
	/* throughput 1000 -> 1100 tok/s: better (higher is better) */
	fill_noisy(&r, old, 10, 1000.0, 0.01);
	fill_noisy(&r, cur, 10, 1100.0, 0.01);
	assert_int_equal(pl_stats_compare(old, 10, cur, 10, PL_HIGHER_IS_BETTER, 0.05, 0.05, &c, NULL), 0);
	assert_int_equal(c.better, 1);
	assert_int_equal(c.worse, 0);
	/* ... and the other way round it is worse */
	assert_int_equal(pl_stats_compare(cur, 10, old, 10, PL_HIGHER_IS_BETTER, 0.05, 0.05, &c, NULL), 0);
	assert_int_equal(c.better, 0);
	assert_int_equal(c.worse, 1);
	assert_true(c.rel_change < -0.05);
	/* no direction: significant, never worse or better */
	assert_int_equal(pl_stats_compare(cur, 10, old, 10, PL_NO_DIRECTION, 0.05, 0.05, &c, NULL), 0);
	assert_int_equal(c.significant, 1);
	assert_int_equal(c.better, 0);
	assert_int_equal(c.worse, 0);
}

static void compare_threshold(void **state)
{
	double old[10], cur[10];
	struct pl_change c;
	struct rng r;

	(void)state;
	/* +2% with 0.1% noise: real (significant) but under a 5% threshold */
	rng_seed(&r, 3);
	fill_noisy(&r, old, 10, 0.300, 0.001);
	fill_noisy(&r, cur, 10, 0.306, 0.001);
	assert_int_equal(pl_stats_compare(old, 10, cur, 10, PL_LOWER_IS_BETTER, 0.05, 0.05, &c, NULL), 0);
	assert_int_equal(c.significant, 1);
	assert_int_equal(c.worse, 0);
	assert_int_equal(c.better, 0);
	/* with a 1% threshold it counts */
	assert_int_equal(pl_stats_compare(old, 10, cur, 10, PL_LOWER_IS_BETTER, 0.05, 0.01, &c, NULL), 0);
	assert_int_equal(c.worse, 1);
}

static void compare_zero_baseline(void **state)
{
	const double zero[6] = { 0, 0, 0, 0, 0, 0 };
	const double some[6] = { 0.01, 0.02, 0.015, 0.03, 0.012, 0.02 };
	struct pl_change c;

	(void)state;
	/* error_rate 0 -> ~1.75%: rel_change +inf, worse (ties -> normal approx) */
	assert_int_equal(pl_stats_compare(zero, 6, some, 6, PL_LOWER_IS_BETTER, 0.05, 0.05, &c, NULL), 0);
	assert_true(isinf(c.rel_change) && c.rel_change > 0);
	assert_int_equal(c.significant, 1);
	assert_int_equal(c.worse, 1);
	/* 0 -> 0: no change at all */
	assert_int_equal(pl_stats_compare(zero, 6, zero, 6, PL_LOWER_IS_BETTER, 0.05, 0.05, &c, NULL), 0);
	assert_near(c.rel_change, 0.0, 0);
	assert_near(c.p_value, 1.0, 0);
	assert_int_equal(c.significant, 0);
}

static void compare_errors(void **state)
{
	const double v[3] = { 1, 2, 3 };
	struct pl_change c;
	struct pl_error err;

	(void)state;
	pl_error_init(&err);
	assert_int_equal(pl_stats_compare(v, 0, v, 3, PL_LOWER_IS_BETTER, 0.05, 0.05, &c, &err), PL_EEMPTY);
	assert_int_equal(pl_stats_compare(v, 3, v, 3, PL_LOWER_IS_BETTER, 0.0, 0.05, &c, &err), PL_EUSAGE);
	assert_int_equal(pl_stats_compare(v, 3, v, 3, PL_LOWER_IS_BETTER, 0.05, -0.1, &c, &err), PL_EUSAGE);
	assert_int_equal(pl_stats_compare(v, 3, v, 3, PL_LOWER_IS_BETTER, 0.05, INFINITY, &c, &err), PL_EUSAGE);
	assert_int_equal(pl_stats_compare(v, 3, v, 3, (enum pl_direction)7, 0.05, 0.05, &c, &err), PL_EUSAGE);
	assert_int_equal(pl_stats_compare(v, 3, NULL, 3, PL_LOWER_IS_BETTER, 0.05, 0.05, &c, &err), PL_EUSAGE);
	assert_int_equal(pl_stats_compare(v, 3, v, 3, PL_LOWER_IS_BETTER, 0.05, 0.05, NULL, &err), PL_EUSAGE);
}

/* --------------------------------------------------------- step detection */

/* 30-point TTFT history: 0.300 s, from index `at` 0.330 s (0 = no step),
 * 1% relative noise (10 sd step). */
static void make_series(struct rng *r, double *y, size_t n, size_t at)
{
	size_t i;

	for (i = 0; i < n; i++)
		y[i] = (at && i >= at ? 0.330 : 0.300) + 0.003 * rng_gauss(r);
}

static void steps_found_at_20(void **state)
{
	double y[30], lv[2];
	size_t *steps = NULL, nsteps = 0;
	struct rng r;
	unsigned seed;

	(void)state;
	for (seed = 1; seed <= 100; seed++) {
		rng_seed(&r, 5000 + seed);
		make_series(&r, y, 30, 20);
		assert_int_equal(pl_stats_detect_steps(y, 30, 0, &steps, &nsteps, NULL), 0);
		assert_int_equal(nsteps, 1);
		assert_int_equal(steps[0], 20);
		assert_int_equal(pl_stats_segment_levels(y, 30, steps, nsteps, lv, NULL), 0);
		assert_true(fabs(lv[0] - 0.300) < 0.003);
		assert_true(fabs(lv[1] - 0.330) < 0.004);
		free(steps);
	}
}

static void steps_none(void **state)
{
	double y[30];
	size_t *steps = NULL, nsteps = 0;
	struct rng r;
	unsigned seed, with_steps = 0;

	(void)state;
	rng_seed(&r, 77);
	make_series(&r, y, 30, 0);
	assert_int_equal(pl_stats_detect_steps(y, 30, 0, &steps, &nsteps, NULL), 0);
	assert_int_equal(nsteps, 0);
	assert_null(steps);
	/* over many noise-only series: the default penalty was chosen for a
	 * false-step rate well under 1% at n = 30 */
	for (seed = 1; seed <= 1000; seed++) {
		rng_seed(&r, 9000 + seed);
		make_series(&r, y, 30, 0);
		assert_int_equal(pl_stats_detect_steps(y, 30, 0, &steps, &nsteps, NULL), 0);
		with_steps += nsteps > 0;
		free(steps);
	}
	print_message("noise-only 30-point series with a false step: %u of 1000\n", with_steps);
	assert_true(with_steps <= 10);
}

static void steps_outlier(void **state)
{
	double y[30];
	size_t *steps = NULL, nsteps = 0;
	struct rng r;
	size_t at[3] = { 12, 0, 29 }, k;

	(void)state;
	for (k = 0; k < 3; k++) {
		rng_seed(&r, 31);
		make_series(&r, y, 30, 0);
		y[at[k]] = 3.0; /* one run ten times slower: ~900 sd */
		assert_int_equal(pl_stats_detect_steps(y, 30, 0, &steps, &nsteps, NULL), 0);
		assert_int_equal(nsteps, 0);
		free(steps);
	}
	/* two in a row are a level of their own (PL_STATS_STEP_MIN_SEGMENT) */
	rng_seed(&r, 31);
	make_series(&r, y, 30, 0);
	y[12] = y[13] = 3.0;
	assert_int_equal(pl_stats_detect_steps(y, 30, 0, &steps, &nsteps, NULL), 0);
	assert_int_equal(nsteps, 2);
	assert_int_equal(steps[0], 12);
	assert_int_equal(steps[1], 14);
	free(steps);
}

static void steps_two(void **state)
{
	double y[40], lv[3];
	size_t *steps = NULL, nsteps = 0, i;
	struct rng r;

	(void)state;
	rng_seed(&r, 8);
	for (i = 0; i < 40; i++) /* up at 10, back down at 25 */
		y[i] = (i >= 10 && i < 25 ? 55.0 : 50.0) + 0.5 * rng_gauss(&r);
	assert_int_equal(pl_stats_detect_steps(y, 40, 0, &steps, &nsteps, NULL), 0);
	assert_int_equal(nsteps, 2);
	assert_int_equal(steps[0], 10);
	assert_int_equal(steps[1], 25);
	assert_int_equal(pl_stats_segment_levels(y, 40, steps, nsteps, lv, NULL), 0);
	assert_true(fabs(lv[0] - 50.0) < 0.5 && fabs(lv[1] - 55.0) < 0.5 && fabs(lv[2] - 50.0) < 0.5);
	free(steps);
}

/* Independent reference for pl_stats_partition_l1: the plain O(n^3)
 * optimal-partitioning recursion, medians by sorting, no pruning. Returns
 * the optimal penalised cost. */
static double seg_cost(const double *y, size_t s, size_t t)
{
	double tmp[64] = {0}, med, c = 0; /* zeroed: gcc -O2 cannot follow the sort */
	size_t i, j, m = t - s;

	for (i = 0; i < m; i++) { /* insertion sort */
		double x = y[s + i];
		for (j = i; j > 0 && tmp[j - 1] > x; j--)
			tmp[j] = tmp[j - 1];
		tmp[j] = x;
	}
	med = tmp[(m - 1) / 2];
	for (i = s; i < t; i++)
		c += fabs(y[i] - med);
	return c;
}

static double brute_partition(const double *y, size_t n, double beta, size_t minseg)
{
	double f[65];
	size_t t, s;

	f[0] = 0;
	for (t = 1; t <= n; t++) {
		f[t] = INFINITY;
		for (s = 0; s + minseg <= t; s++) {
			double v;
			if (s != 0 && s < minseg)
				continue;
			v = f[s] + seg_cost(y, s, t) + beta;
			if (v < f[t])
				f[t] = v;
		}
	}
	return f[n] - beta; /* beta per step, not per segment */
}

static void partition_vs_bruteforce(void **state)
{
	static const double betas[] = { 0.0, 0.5, 2.0, 6.0, 20.0 };
	double y[48];
	struct rng r;
	size_t rep, bi, minseg, i, n;

	(void)state;
	rng_seed(&r, 99);
	for (rep = 0; rep < 12; rep++) {
		n = 20 + rep * 2;
		for (i = 0; i < n; i++) /* random levels with random jumps */
			y[i] = (i > 0 && rng_u01(&r) < 0.85 ? y[i - 1] : 10.0 * rng_u01(&r)) + rng_gauss(&r);
		for (bi = 0; bi < sizeof(betas) / sizeof(betas[0]); bi++) {
			for (minseg = 1; minseg <= 3; minseg++) {
				size_t *steps = NULL, nsteps = 0, k, start = 0;
				double got = 0, want;
				assert_int_equal(pl_stats_partition_l1(y, n, betas[bi], minseg, &steps, &nsteps, NULL), 0);
				for (k = 0; k <= nsteps; k++) {
					size_t end = k < nsteps ? steps[k] : n;
					assert_true(end >= start + minseg); /* segments long enough */
					got += seg_cost(y, start, end);
					start = end;
				}
				got += betas[bi] * (double)nsteps;
				want = brute_partition(y, n, betas[bi], minseg);
				assert_near(got, want, 1e-9 * (1.0 + want));
				free(steps);
			}
		}
	}
}

static void noise_sigma(void **state)
{
	const double alt[5] = { 0, 1, 0, 1, 0 };
	const double ramp[5] = { 1, 2, 3, 4, 5 };
	const double flat[4] = { 2, 2, 2, 2 };
	double y[10000], s;
	struct rng r;
	size_t i, *steps = NULL, nsteps = 9;

	(void)state;
	/* d = 1,-1,1,-1: median 0, MAD 1 -> 1.4826/sqrt(2) = 1.048368... */
	assert_int_equal(pl_stats_noise_sigma(alt, 5, &s, NULL), 0);
	assert_near(s, 1.482602218505602 / sqrt(2.0), 1e-12);
	/* ramp: every d = 1, MAD 0 and deviations 0 -> sqrt(pi)/2 * mean|d| */
	assert_int_equal(pl_stats_noise_sigma(ramp, 5, &s, NULL), 0);
	assert_near(s, sqrt(3.141592653589793) / 2.0, 1e-12);
	assert_int_equal(pl_stats_noise_sigma(flat, 4, &s, NULL), 0);
	assert_near(s, 0.0, 0);
	assert_int_equal(pl_stats_detect_steps(flat, 4, 0, &steps, &nsteps, NULL), 0);
	assert_int_equal(nsteps, 0);
	/* unit Gaussian noise plus one big step: sigma still ~1 */
	rng_seed(&r, 5);
	for (i = 0; i < 10000; i++)
		y[i] = rng_gauss(&r) + (i >= 5000 ? 100.0 : 0.0);
	assert_int_equal(pl_stats_noise_sigma(y, 10000, &s, NULL), 0);
	assert_true(fabs(s - 1.0) < 0.05);
}

static void steps_errors_and_edges(void **state)
{
	const double y[5] = { 1, 2, NAN, 4, 5 };
	const double ok[6] = { 1, 1, 1, 9, 9, 9 };
	size_t *steps = NULL, nsteps = 0, bad[2] = { 3, 3 };
	double lv[3];
	struct pl_error err;

	(void)state;
	pl_error_init(&err);
	assert_int_equal(pl_stats_detect_steps(y, 5, 0, &steps, &nsteps, &err), PL_EINVALID);
	assert_string_equal(err.message, "series point 3 is not a finite number");
	assert_int_equal(pl_stats_detect_steps(ok, 6, -1, &steps, &nsteps, &err), PL_EUSAGE);
	assert_int_equal(pl_stats_detect_steps(ok, 6, NAN, &steps, &nsteps, &err), PL_EUSAGE);
	assert_int_equal(pl_stats_detect_steps(NULL, 6, 0, &steps, &nsteps, &err), PL_EUSAGE);
	assert_int_equal(pl_stats_partition_l1(ok, 6, -1, 2, &steps, &nsteps, &err), PL_EUSAGE);
	assert_int_equal(pl_stats_partition_l1(ok, 6, 1, 0, &steps, &nsteps, &err), PL_EUSAGE);
	/* too short for two segments of 2 */
	assert_int_equal(pl_stats_detect_steps(ok, 3, 0, &steps, &nsteps, &err), 0);
	assert_int_equal(nsteps, 0);
	assert_null(steps);
	/* quantised data (most differences 0): fallback sigma, step found */
	assert_int_equal(pl_stats_detect_steps(ok, 6, 0, &steps, &nsteps, &err), 0);
	assert_int_equal(nsteps, 1);
	assert_int_equal(steps[0], 3);
	assert_int_equal(pl_stats_segment_levels(ok, 6, steps, nsteps, lv, &err), 0);
	assert_near(lv[0], 1.0, 0);
	assert_near(lv[1], 9.0, 0);
	free(steps);
	/* segment_levels validates the steps */
	assert_int_equal(pl_stats_segment_levels(ok, 6, bad, 2, lv, &err), PL_EUSAGE);
	bad[0] = 0;
	assert_int_equal(pl_stats_segment_levels(ok, 6, bad, 1, lv, &err), PL_EUSAGE);
	bad[0] = 6;
	assert_int_equal(pl_stats_segment_levels(ok, 6, bad, 1, lv, &err), PL_EUSAGE);
	assert_int_equal(pl_stats_segment_levels(ok, 0, NULL, 0, lv, &err), PL_EEMPTY);
	assert_int_equal(pl_stats_segment_levels(ok, 6, NULL, 0, lv, &err), 0);
	assert_near(lv[0], 5.0, 0); /* median of 1 1 1 9 9 9 */
}


/* One median for every command: compare's rows (pl_median), check's
 * summaries and changes (pl_stats_summarize, pl_stats_compare) gave 0.085
 * and 0.08499999999999999 for the same two runs. */
static void one_median_everywhere(void **state)
{
	double v[2] = {0.09, 0.08}, w[2] = {0.09, 0.08};
	struct pl_sample_summary s;
	struct pl_change c;
	struct pl_error e;

	(void)state;
	pl_error_init(&e);
	assert_true(pl_median(v, 2) == 0.085);
	assert_int_equal(pl_stats_summarize(w, 2, 0.95, &s, &e), 0);
	assert_true(s.median == 0.085);
	assert_int_equal(pl_stats_compare(w, 2, w, 2, PL_LOWER_IS_BETTER, 0.05, 0.05, &c, &e), 0);
	assert_true(c.old_median == 0.085);
	assert_true(c.new_median == 0.085);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_median_everywhere),
		cmocka_unit_test(median_ci_n10),
		cmocka_unit_test(median_ci_n20),
		cmocka_unit_test(median_ci_too_few),
		cmocka_unit_test(quantile_ci_ranks),
		cmocka_unit_test(summarize_errors),
		cmocka_unit_test(mw_exact_known),
		cmocka_unit_test(mw_exact_vs_bruteforce),
		cmocka_unit_test(mw_exact_largest),
		cmocka_unit_test(mw_min_p),
		cmocka_unit_test(mw_normal_ties),
		cmocka_unit_test(mw_normal_large),
		cmocka_unit_test(mw_errors),
		cmocka_unit_test(compare_regression),
		cmocka_unit_test(compare_false_alarm_rate),
		cmocka_unit_test(compare_too_few),
		cmocka_unit_test(compare_improvement),
		cmocka_unit_test(compare_threshold),
		cmocka_unit_test(compare_zero_baseline),
		cmocka_unit_test(compare_errors),
		cmocka_unit_test(steps_found_at_20),
		cmocka_unit_test(steps_none),
		cmocka_unit_test(steps_outlier),
		cmocka_unit_test(steps_two),
		cmocka_unit_test(partition_vs_bruteforce),
		cmocka_unit_test(noise_sigma),
		cmocka_unit_test(steps_errors_and_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
