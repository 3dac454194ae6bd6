/*
 * compare_impl.h — what compare.c and compare_sets.c share (private to
 * src/core/compare*.c).
 */
#ifndef PL_COMPARE_IMPL_H
#define PL_COMPARE_IMPL_H

#include <stddef.h>

#include "core/compare.h"
#include "core/model.h"

/* An order on indices that needs context, which qsort cannot pass. */
typedef int (*index_cmp)(const void *ctx, size_t a, size_t b);

/* Stable merge sort of idx[0..n) by cmp (tmp holds n entries). */
void pl_compare_sort_indices(size_t *idx, size_t *tmp, size_t n, index_cmp cmp, const void *ctx);

/* Condition sets grouped by equal texts in some fields (missing equals
 * missing). */
struct set_groups {
	size_t *group; /* per set: its group */
	size_t *rep;   /* per group: its first set */
	size_t n;      /* groups */
};

/* Frees what g holds; g is empty afterwards. */
void pl_compare_groups_release(struct set_groups *g);

/* pl_value_equal(), by pointer where runs' texts are pooled. */
int pl_compare_same_value(const struct pl_run_columns *runs, const struct pl_value *a,
                          const struct pl_value *b);

/* Groups runs->sets by fields[0..nfields) into *g (groups numbered in
 * order of first appearance). Returns 0 or PL_ENOMEM (g empty). */
int pl_compare_group_sets(const struct pl_run_columns *runs, const int *fields, size_t nfields,
                          struct set_groups *g);

/* pl_compare_build_columns() before implausible values are marked
 * (compare.c; compare_plausible.c adds the marks). Same returns. */
int pl_compare_build_rows(const struct pl_run_columns *runs, const struct pl_compare_opts *opts,
                          struct pl_comparison *out, struct pl_error *err);

#endif
