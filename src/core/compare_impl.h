/*
 * compare_impl.h — what compare.c and the files beside it (compare_sets.c,
 * compare_errors.c, compare_goodput.c, compare_plausible.c) share; private
 * to src/core/compare*.c.
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

/* Metric m of run i, NaN when missing or not loaded. */
double pl_compare_run_metric(const struct pl_run_columns *runs, size_t i, int m);

/* Frees v[0..n) and v. NULL is a no-op. */
void pl_compare_free_strings(char **v, size_t n);

/* Appends s to the NUL-ended text in buf (n bytes), cut to fit. */
void pl_compare_append(char *buf, size_t n, const char *s);

/* Adds a refusal's mismatch of condition cond (PL_C_NONE: the error rate
 * or an extra condition) with values[0..nvalues) (taken over: on failure
 * too). Returns 0 or PL_ENOMEM. */
int pl_compare_push_mismatch(struct pl_comparison *cmp, int cond, char **values, size_t nvalues);

/* The errors rule (compare_errors.c): a run with errors (error_rate > 0)
 * is never compared with one without (error_rate 0), and a run whose error
 * rate is unknown (missing) is neither. Mixed runs add a mismatch to cmp
 * listing each error rate (ascending, missing last) with its runs; with
 * opts->allow_errors the same list is a caveat instead. Returns 0 or
 * PL_ENOMEM. */
int pl_compare_check_errors(const struct pl_run_columns *runs, const struct pl_compare_opts *opts,
                            struct pl_comparison *cmp);

/* Goodput is a number only with its SLO (compare_goodput.c): two goodput
 * values compare when every run that has one records the SLO it was
 * counted against and the SLOs are equal. Otherwise the rows' goodput is
 * cleared (n/a) with a caveat (GOODPUT_SLO_MISSING naming the runs
 * without one, or GOODPUT_SLO_DIFFERS); when goodput is the only metric,
 * PL_EMISMATCH with err naming the SLOs. Returns 0, that, or PL_ENOMEM. */
int pl_compare_check_goodput_slo(const struct pl_run_columns *runs, struct pl_comparison *cmp,
                                 struct pl_error *err);

#endif
