/*
 * compare_sets.c — the grouping machinery of compare.c: a stable sort of
 * indices with a context, and condition sets grouped by equal values of
 * some fields in linear time (hashing; by pointer where the texts are
 * pooled). compare.c's rules and rows are built on these; split from it
 * to keep each file one concern (issue 18).
 */
#include "core/compare_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/normalize.h"

/* An order on indices that needs context, which qsort cannot pass: a
 * stable merge sort over an index array takes it as an argument. */

/* Stable merge sort of idx[0..n) by cmp (tmp holds n entries). */
void pl_compare_sort_indices(size_t *idx, size_t *tmp, size_t n, index_cmp cmp, const void *ctx)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	pl_compare_sort_indices(idx, tmp, h, cmp, ctx);
	pl_compare_sort_indices(idx + h, tmp, n - h, cmp, ctx);
	if (cmp(ctx, idx[h - 1], idx[h]) <= 0)
		return; /* already in order */
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = cmp(ctx, idx[i], idx[j]) <= 0 ? idx[i++] : idx[j++];
	while (i < h)
		tmp[k++] = idx[i++];
	while (j < n)
		tmp[k++] = idx[j++];
	memcpy(idx, tmp, n * sizeof(*idx));
}

/* Condition sets grouped by equal texts in some fields (missing equals
 * missing): what a sort would do, in linear time, since a million runs can
 * bring a hundred thousand sets with a handful of distinct values each. */

void pl_compare_groups_release(struct set_groups *g)
{
	free(g->group);
	free(g->rep);
	memset(g, 0, sizeof(*g));
}

/* pl_value_equal(), by pointer where the texts are pooled (runs->texts:
 * equal texts are one string). */
int pl_compare_same_value(const struct pl_run_columns *runs, const struct pl_value *a,
                      const struct pl_value *b)
{
	if (!runs->texts || !a->set || !b->set)
		return pl_value_equal(a, b);
	return a->text == b->text;
}

static unsigned long long set_hash(const struct pl_run_columns *runs, const struct pl_run *set,
                                   const int *fields, size_t nfields)
{
	unsigned long long h = 0;

	for (size_t k = 0; k < nfields; k++) {
		const struct pl_value *v = &set->cond[fields[k]];
		unsigned long long vh = 1;

		if (v->set && runs->texts)
			vh = (unsigned long long)(uintptr_t)v->text * 0x9e3779b97f4a7c15ULL;
		else if (v->set)
			vh = pl_hash64(v->text, strlen(v->text));
		h = (h ^ (vh >> 29)) * 0x100000001b3ULL + vh;
	}
	return h;
}

static int set_equal(const struct pl_run_columns *runs, const struct pl_run *a,
                     const struct pl_run *b, const int *fields, size_t nfields)
{
	for (size_t k = 0; k < nfields; k++)
		if (!pl_compare_same_value(runs, &a->cond[fields[k]], &b->cond[fields[k]]))
			return 0;
	return 1;
}

/* Groups runs->sets by fields[0..nfields) into *g (groups numbered in order
 * of first appearance). Returns 0 or PL_ENOMEM (g empty). */
int pl_compare_group_sets(const struct pl_run_columns *runs, const int *fields, size_t nfields,
                      struct set_groups *g)
{
	size_t nslots = 16, *slot; /* group + 1 per slot, 0 = empty */

	memset(g, 0, sizeof(*g));
	while (nslots < 2 * runs->nsets)
		nslots *= 2;
	slot = calloc(nslots, sizeof(*slot));
	g->group = malloc(runs->nsets * sizeof(*g->group));
	g->rep = malloc(runs->nsets * sizeof(*g->rep));
	if (!slot || !g->group || !g->rep) {
		free(slot);
		pl_compare_groups_release(g);
		return PL_ENOMEM;
	}
	for (size_t i = 0; i < runs->nsets; i++) {
		const struct pl_run *set = &runs->sets[i];
		size_t h = (size_t)set_hash(runs, set, fields, nfields) & (nslots - 1);

		while (slot[h] &&
		       !set_equal(runs, &runs->sets[g->rep[slot[h] - 1]], set, fields, nfields))
			h = (h + 1) & (nslots - 1);
		if (!slot[h]) {
			g->rep[g->n] = i;
			slot[h] = ++g->n;
		}
		g->group[i] = slot[h] - 1;
	}
	free(slot);
	return 0;
}

