/*
 * sort.c — ordering doubles (sort.h): the one qsort comparison, and a
 * selection of several order statistics at once for percentiles.
 */
#include "util/sort.h"

#include <stdlib.h>

int pl_cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

int pl_cmp_ll(const void *pa, const void *pb)
{
	long long a = *(const long long *)pa, b = *(const long long *)pb;

	return (a > b) - (a < b);
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
 * past `depth` levels the range is sorted by qsort, so no input makes it
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
			qsort(v + lo, n, sizeof(*v), pl_cmp_double);
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
