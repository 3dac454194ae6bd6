/*
 * sort.h — sorting arrays of doubles fast enough for a run's requests
 * (millions of inter-token gaps), where qsort's comparison calls are most
 * of the work.
 */
#ifndef PL_UTIL_SORT_H
#define PL_UTIL_SORT_H

#include <stddef.h>

/*
 * Sorts v[0..n) ascending in place. v must hold no NaN (the caller filters
 * them); -0.0 is stored as +0.0, so the order is the one qsort with a <
 * comparison gives, with equal values indistinguishable. Uses an LSD radix
 * sort on the IEEE-754 bits (6 passes of 11 bits, a pass whose digit is the
 * same for every value skipped) for n >= 256, qsort below that.
 * Temporary memory: 2n 64-bit keys plus 96 KB of counts, freed here.
 * Returns 0, or -1 when the temporary memory cannot be allocated (v is then
 * sorted by qsort instead, so it is sorted either way).
 */
int pl_sort_doubles(double *v, size_t n);

/*
 * Partially sorts v[0..n) so that for every index ks[j] (0 <= j < nk),
 * v[ks[j]] holds the value a full ascending sort would put there; the other
 * values are only permuted. v must hold no NaN. ks is sorted ascending in
 * place (duplicates allowed). Expected O(n) per distinct region of the
 * wanted indices (a multi-quickselect with three-way partitions, median-of-
 * three pivots); past 2 log2(n) levels a range is radix-sorted, so hostile
 * input costs at most O(n log n). No memory is allocated unless that
 * fallback runs. Returns 0, or -1 (v untouched) when an index is >= n.
 * Used for percentiles of millions of gaps, where a full sort is most of
 * the time.
 */
int pl_select_doubles(double *v, size_t n, size_t *ks, size_t nk);

#endif
