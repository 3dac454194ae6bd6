/*
 * sort.h — ordering arrays: one qsort comparison of doubles and one of
 * run ids for every caller, and percentiles of a run's requests (millions of inter-token
 * gaps) by selection, where a full sort was most of the work.
 */
#ifndef PL_UTIL_SORT_H
#define PL_UTIL_SORT_H

#include <stddef.h>

/*
 * The qsort comparison for doubles, ascending: pa and pb point at doubles;
 * returns -1, 0 or 1. NaN compares equal to everything, so callers filter
 * NaN out first.
 */
int pl_cmp_double(const void *pa, const void *pb);

/* The qsort comparison for long longs (run ids), ascending: pa and pb point
 * at long longs; returns -1, 0 or 1. */
int pl_cmp_ll(const void *pa, const void *pb);

/*
 * Partially sorts v[0..n) so that for every index ks[j] (0 <= j < nk),
 * v[ks[j]] holds the value a full ascending sort would put there; the other
 * values are only permuted. v must hold no NaN. ks is sorted ascending in
 * place (duplicates allowed). Expected O(n) per distinct region of the
 * wanted indices (a multi-quickselect with three-way partitions, median-of-
 * three pivots); past 2 log2(n) levels a range is sorted by qsort (glibc's
 * is a merge sort), so hostile input costs at most O(n log n). Allocates
 * nothing itself. Returns 0, or -1 (v untouched) when an index is >= n.
 * Used for percentiles of millions of gaps, where a full sort is most of
 * the time.
 */
int pl_select_doubles(double *v, size_t n, size_t *ks, size_t nk);

#endif
