/*
 * sort.c — an LSD radix sort for doubles (sort.h). A double's bits, with
 * the sign bit flipped for a positive value and every bit flipped for a
 * negative one, order as unsigned integers the way the doubles order
 * (the standard mapping, e.g. Herf, "Radix Tricks", 2001).
 */
#include "util/sort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PL_SORT_BITS 11
#define PL_SORT_BUCKETS (1u << PL_SORT_BITS)
#define PL_SORT_PASSES 6 /* 6 x 11 = 66 >= 64 bits */

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static uint64_t key_of(double d)
{
	uint64_t u;

	d += 0.0; /* -0.0 + 0.0 is +0.0: one key for zero */
	memcpy(&u, &d, sizeof(u));
	return (u >> 63) ? ~u : (u | UINT64_C(0x8000000000000000));
}

static double double_of(uint64_t k)
{
	uint64_t u = (k >> 63) ? (k & ~UINT64_C(0x8000000000000000)) : ~k;
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

int pl_sort_doubles(double *v, size_t n)
{
	uint64_t *a, *b;
	size_t(*count)[PL_SORT_BUCKETS];

	if (n < 256) {
		qsort(v, n, sizeof(*v), cmp_double);
		return 0;
	}
	a = malloc(n * sizeof(*a));
	b = malloc(n * sizeof(*b));
	count = calloc(PL_SORT_PASSES, sizeof(*count));
	if (!a || !b || !count) {
		free(a);
		free(b);
		free(count);
		qsort(v, n, sizeof(*v), cmp_double);
		return -1;
	}
	/* one read counts every pass's digits */
	for (size_t i = 0; i < n; i++) {
		a[i] = key_of(v[i]);
		for (int p = 0; p < PL_SORT_PASSES; p++)
			count[p][(a[i] >> (p * PL_SORT_BITS)) & (PL_SORT_BUCKETS - 1)]++;
	}
	for (int p = 0; p < PL_SORT_PASSES; p++) {
		size_t *c = count[p], sum = 0;
		unsigned shift = (unsigned)(p * PL_SORT_BITS);

		if (c[(a[0] >> shift) & (PL_SORT_BUCKETS - 1)] == n)
			continue; /* every value has the same digit: nothing moves */
		for (size_t d = 0; d < PL_SORT_BUCKETS; d++) {
			size_t k = c[d];
			c[d] = sum;
			sum += k;
		}
		for (size_t i = 0; i < n; i++)
			b[c[(a[i] >> shift) & (PL_SORT_BUCKETS - 1)]++] = a[i];
		uint64_t *t = a;
		a = b;
		b = t;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = double_of(a[i]);
	free(a);
	free(b);
	free(count);
	return 0;
}

static void insertion(double *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double x = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static double median3(double a, double b, double c)
{
	if (a > b) {
		double t = a;
		a = b;
		b = t;
	}
	return c < a ? a : c > b ? b : c;
}

/* Places at v[k] (lo <= k < hi, k one of ks[0..nk), sorted) the value the
 * sorted v[lo..hi) has there. A three-way partition (values below, equal
 * to and above the pivot) recurses only into a side holding a wanted index;
 * past `depth` levels the range is radix-sorted, so no input makes it
 * quadratic. */
static void select_range(double *v, size_t lo, size_t hi, const size_t *ks, size_t nk, int depth)
{
	while (nk > 0) {
		size_t n = hi - lo;
		if (n <= 32) {
			insertion(v + lo, n);
			return;
		}
		if (depth-- == 0) {
			pl_sort_doubles(v + lo, n);
			return;
		}
		double p = median3(v[lo], v[lo + n / 2], v[hi - 1]);
		size_t lt = lo, i = lo, gt = hi;
		while (i < gt) {
			double x = v[i];
			if (x < p) {
				v[i++] = v[lt];
				v[lt++] = x;
			} else if (x > p) {
				v[i] = v[--gt];
				v[gt] = x;
			} else {
				i++;
			}
		}
		size_t left = 0, right = nk;
		while (left < nk && ks[left] < lt)
			left++;
		while (right > left && ks[right - 1] >= gt)
			right--;
		/* ks[0..left) lie below the pivot's run, ks[right..nk) above it */
		if (left > 0 && right < nk) {
			select_range(v, lo, lt, ks, left, depth);
			lo = gt;
			ks += right;
			nk -= right;
		} else if (left > 0) {
			hi = lt;
			nk = left;
		} else {
			lo = gt;
			ks += right;
			nk -= right;
		}
	}
}

static int cmp_size(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	return (a > b) - (a < b);
}

int pl_select_doubles(double *v, size_t n, size_t *ks, size_t nk)
{
	int depth = 0;

	for (size_t m = n; m > 1; m >>= 1)
		depth += 2;
	for (size_t j = 0; j < nk; j++)
		if (ks[j] >= n)
			return -1;
	qsort(ks, nk, sizeof(*ks), cmp_size);
	select_range(v, 0, n, ks, nk, depth);
	return 0;
}
