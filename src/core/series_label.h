/*
 * series_label.h — the one short label of a series (a condition key), used
 * by the site (index rows, page titles), JUnit test names, GitHub annotation
 * titles and the Markdown summaries of `check` and `history`.
 *
 * A label is the series' identity, "model / hardware / engine version / c=8
 * / rate=R / in=2048 out=256" (each part where known), followed by
 * " / name=value" for every other condition that tells it from its
 * siblings: the series of the same selection with the same identity. Two
 * series that differ only in driver_version read
 *   "m / 1x H100 / vllm 0.9.2 / c=8 / driver_version=550.54.15"
 *   "m / 1x H100 / vllm 0.9.2 / c=8 / driver_version=570.86.15"
 * so siblings never carry identical labels. Values are raw input text: the
 * caller escapes the label for its place.
 */
#ifndef PL_SERIES_LABEL_H
#define PL_SERIES_LABEL_H

#include <stddef.h>

#include "core/model.h"

/* The conditions of one series as a label reads them; all borrowed. */
struct pl_label_src {
	const struct pl_value *cond;   /* PL_COND_COUNT values (a run's cond[], or a
	                                  comparison's shared[]) */
	const unsigned char *varies;   /* PL_COND_COUNT flags, or NULL: 1 leaves the
	                                  condition out (it varies inside the series) */
	const struct pl_extra *extra;  /* extra conditions ("FORMAT.key"), sorted by name */
	size_t nextra;
};

/* What tells siblings apart: key conditions outside the identity, and the
 * extra conditions as a whole. Zero it (memset) for "nothing". */
struct pl_label_siblings {
	unsigned char differs[PL_COND_COUNT]; /* 1: name this condition */
	int extras;                           /* 1: name every extra condition */
};

/* 1 if condition id is part of the identity a label always names. */
int pl_series_label_identity(int id);

/*
 * Marks in sb every key condition (not run_started_at, not in the identity)
 * whose value differs between a and b (set against unset counts; values
 * compared as text), and sb->extras when their extra conditions differ.
 * Marks accumulate: call it for each sibling against the first.
 */
void pl_series_label_mark(struct pl_label_siblings *sb, const struct pl_label_src *a,
                          const struct pl_label_src *b);

/*
 * Writes the label of s into buf (n bytes, n >= 1; truncated to fit, always
 * terminated): the identity parts that are set, not varying and not skip
 * (a PL_C_* to leave out, e.g. the axis of a check; PL_C_NONE or -1 for
 * none), then " / name=value" for each condition sb marks that s has set
 * and does not vary ("name=-" when s lacks it), then each extra condition
 * when sb->extras. sb may be NULL (identity only). When nothing is written,
 * buf gets none. Returns buf.
 */
char *pl_series_label(char *buf, size_t n, const struct pl_label_src *s,
                      const struct pl_label_siblings *sb, int skip, const char *none);

/*
 * The labels of the series srcs[0..n) of one selection, each as
 * pl_series_label() writes it with the siblings marks of its identity group
 * (the series whose identity labels are equal: every condition that differs
 * inside the group is named in each member's label) and the conditions
 * named marks (may be NULL) in every label. labels[0..n) (caller's array)
 * get malloc'ed strings the caller frees; none as in pl_series_label().
 * O(n log n). Returns 0, or PL_ENOMEM (labels then all NULL).
 */
int pl_series_labels(const struct pl_label_src *srcs, size_t n,
                     const struct pl_label_siblings *named, const char *none, char **labels);

#endif
