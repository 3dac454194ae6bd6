/*
 * compare_subsets.c — what would compare when a comparison is refused: the
 * largest subsets of the selection whose runs agree on every field the
 * refusal lists, each named by the FIELD=VALUE filters that select it and
 * checked by building its comparison (so running it compares).
 *
 * Every subset that compares agrees on each listed field that is a
 * condition or an extra condition (else that field would differ inside
 * it), so it lies inside one group of runs with equal values of those
 * fields: the groups, largest first, are the candidates, and a candidate
 * that is still refused (the workload rule, the errors rule) is passed over.
 * Each candidate's runs are compared once: O(runs) over all candidates.
 */
#include "core/compare_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

/* A listed field the subsets are grouped by. */
struct field {
	int cond;          /* enum pl_cond_id, or PL_C_NONE for an extra */
	const char *extra; /* the extra condition's name, or NULL */
};

struct ctx {
	const struct pl_run_columns *cols;
	const struct field *f;
	size_t nf;
};

/* Run i's text of field f, NULL where missing. */
static const char *field_text(const struct pl_run_columns *cols, size_t i, const struct field *f)
{
	const struct pl_run *set = &cols->sets[cols->set[i]];

	if (f->extra)
		return pl_run_extra(set, f->extra);
	return set->cond[f->cond].set ? set->cond[f->cond].text : NULL;
}

/* Missing first, then by text. */
static int text_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return a == b ? 0 : strcmp(a, b);
}

/* Orders runs a and b by their values of the listed fields (0: equal). */
static int values_cmp(const struct ctx *c, size_t a, size_t b)
{
	for (size_t k = 0; k < c->nf; k++) {
		int d = text_cmp(field_text(c->cols, a, &c->f[k]), field_text(c->cols, b, &c->f[k]));
		if (d)
			return d;
	}
	return 0;
}

/* values_cmp(), then by position: a stable order for the sort. */
static int by_values(const void *p, size_t a, size_t b)
{
	int d = values_cmp(p, a, b);

	return d ? d : (a > b) - (a < b);
}

/* One group: order[start .. start + n). */
struct group {
	size_t start, n;
	long long first; /* its lowest run id */
};

/* Largest first; equal sizes by the lowest run id. */
static int group_cmp(const void *pa, const void *pb)
{
	const struct group *a = pa, *b = pb;

	if (a->n != b->n)
		return a->n < b->n ? 1 : -1;
	return (a->first > b->first) - (a->first < b->first);
}

/* Builds the comparison of the runs at idx[0..n) (positions in cols, in
 * ascending order), over the condition sets they use alone (a comparison
 * reads every set it is given). newset (cols->nsets entries, all SIZE_MAX)
 * is scratch space, left all SIZE_MAX again. Returns 1 if it compares with
 * at least opts->subsets_min_rows rows, 0 if not, -1 without memory. */
static int compares(const struct pl_run_columns *cols, const size_t *idx, size_t n,
                    const struct pl_compare_opts *opts, size_t *newset)
{
	struct pl_run_columns sub;
	struct pl_comparison cmp;
	struct pl_error err;
	struct pl_run *sets = NULL;
	struct pl_compare_opts o = *opts;
	int rc = -1, oom;

	memset(&sub, 0, sizeof(sub));
	sub.n = n;
	sub.id = malloc(n * sizeof(*sub.id));
	sub.set = malloc(n * sizeof(*sub.set));
	sub.checklist_missing = malloc(n * sizeof(*sub.checklist_missing));
	sets = malloc(n * sizeof(*sets));
	oom = !sub.id || !sub.set || !sub.checklist_missing || !sets;
	for (int m = 0; m < PL_METRIC_COUNT && !oom; m++)
		if (cols->metric[m] && !(sub.metric[m] = malloc(n * sizeof(double))))
			oom = 1;
	if (!oom) {
		for (size_t j = 0; j < n; j++) {
			size_t old = cols->set[idx[j]];

			if (newset[old] == SIZE_MAX) {
				newset[old] = sub.nsets;
				sets[sub.nsets++] = cols->sets[old]; /* borrowed: never released */
			}
			sub.id[j] = cols->id[idx[j]];
			sub.set[j] = newset[old];
			sub.checklist_missing[j] = cols->checklist_missing[idx[j]];
			for (int m = 0; m < PL_METRIC_COUNT; m++)
				if (sub.metric[m])
					sub.metric[m][j] = cols->metric[m][idx[j]];
		}
		sub.sets = sets;
		pl_error_init(&err);
		o.subsets_min_rows = 0; /* the subset's own refusal seeks none */
		rc = pl_compare_build_columns(&sub, &o, &cmp, &err);
		if (rc == 0 && cmp.nrows < opts->subsets_min_rows)
			rc = PL_EMISMATCH; /* compares, but too few rows for the caller */
		pl_comparison_release(&cmp);
		rc = rc == 0 ? 1 : rc == PL_ENOMEM ? -1 : 0;
		for (size_t j = 0; j < n; j++) /* back to unmapped for the next call */
			newset[cols->set[idx[j]]] = SIZE_MAX;
	}
	free(sets);
	free(sub.id);
	free(sub.set);
	free(sub.checklist_missing);
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		free(sub.metric[m]);
	return rc;
}

/* FIELD=VALUE of field f for run i ("FIELD=" where it is missing), owned. */
static char *where_text(const struct pl_run_columns *cols, size_t i, const struct field *f)
{
	const char *name = f->extra ? f->extra : pl_cond_info[f->cond].name;
	const char *v = field_text(cols, i, f);
	size_t a = strlen(name), b = v ? strlen(v) : 0;
	char *s = malloc(a + b + 2);

	if (s) {
		memcpy(s, name, a);
		s[a] = '=';
		if (b)
			memcpy(s + a + 1, v, b);
		s[a + 1 + b] = '\0';
	}
	return s;
}

/* Stores the group at order[g->start..) as cmp's next subset. */
static int add_subset(struct pl_comparison *cmp, const struct pl_run_columns *cols,
                      const size_t *idx, const struct group *g, const struct field *f, size_t nf)
{
	struct pl_subset *s = &cmp->subsets[cmp->nsubsets];

	memset(s, 0, sizeof(*s));
	s->nruns = g->n;
	s->first_run = g->first;
	if (nf && !(s->where = calloc(nf, sizeof(*s->where))))
		return PL_ENOMEM;
	for (size_t k = 0; k < nf; k++) {
		if (!(s->where[k] = where_text(cols, idx[0], &f[k]))) {
			pl_subset_release(s);
			return PL_ENOMEM;
		}
		s->nwhere++;
	}
	cmp->nsubsets++;
	return 0;
}

/* The listed fields a subset can be selected by, into f (nmismatches
 * entries). Returns how many. */
static size_t listed_fields(const struct pl_comparison *cmp, struct field *f)
{
	size_t nf = 0;

	for (size_t i = 0; i < cmp->nmismatches; i++) {
		const struct pl_mismatch *m = &cmp->mismatches[i];

		if (m->measured || (m->cond == PL_C_NONE && !m->extra))
			continue; /* the workload and errors rules: no filter selects them */
		f[nf].cond = m->cond;
		f[nf].extra = m->extra;
		nf++;
	}
	return nf;
}

/* Sorted candidate groups of 2 or more runs into *out (*nout entries;
 * caller frees). Returns 0 or PL_ENOMEM. */
static int candidate_groups(const struct ctx *c, const size_t *order, struct group **out,
                            size_t *nout)
{
	const struct pl_run_columns *cols = c->cols;
	struct group *g = NULL;
	size_t ng = 0, cap = 0;

	for (size_t i = 0; i < cols->n;) {
		size_t j = i + 1;
		long long first = cols->id[order[i]];

		while (j < cols->n && values_cmp(c, order[i], order[j]) == 0) {
			if (cols->id[order[j]] < first)
				first = cols->id[order[j]];
			j++;
		}
		if (j - i >= 2) {
			if (PL_ALLOC_GROW(g, ng + 1, cap)) {
				free(g);
				return PL_ENOMEM;
			}
			g[ng].start = i;
			g[ng].n = j - i;
			g[ng].first = first;
			ng++;
		}
		i = j;
	}
	if (ng)
		qsort(g, ng, sizeof(*g), group_cmp);
	*out = g;
	*nout = ng;
	return 0;
}

int pl_compare_subsets(const struct pl_run_columns *cols, const struct pl_compare_opts *opts,
                       struct pl_comparison *cmp)
{
	struct field *f = NULL;
	size_t *order = NULL, *tmp = NULL, *newset = NULL, ng = 0;
	struct group *g = NULL;
	struct ctx c;
	int rc = PL_ENOMEM;

	cmp->subsets_sought = 1;
	if (cmp->nmismatches == 0 || cols->n < 2)
		return 0;
	if (!(f = malloc(cmp->nmismatches * sizeof(*f))) ||
	    !(order = malloc(cols->n * sizeof(*order))) || !(tmp = malloc(cols->n * sizeof(*tmp))) ||
	    !(newset = malloc((cols->nsets ? cols->nsets : 1) * sizeof(*newset))) ||
	    !(cmp->subsets = calloc(PL_SUBSETS_MAX, sizeof(*cmp->subsets))))
		goto out;
	for (size_t k = 0; k < cols->nsets; k++)
		newset[k] = SIZE_MAX;
	c.cols = cols;
	c.f = f;
	c.nf = listed_fields(cmp, f);
	if (c.nf == 0) {
		rc = 0;
		goto out;
	}
	for (size_t i = 0; i < cols->n; i++)
		order[i] = i;
	pl_compare_sort_indices(order, tmp, cols->n, by_values, &c);
	if (candidate_groups(&c, order, &g, &ng))
		goto out;

	rc = 0;
	for (size_t k = 0; k < ng && cmp->nsubsets < PL_SUBSETS_MAX; k++) {
		/* ascending positions: by_values() orders equal values by position */
		const size_t *idx = order + g[k].start;
		int ok;

		if ((ok = compares(cols, idx, g[k].n, opts, newset)) < 0 ||
		    (ok && add_subset(cmp, cols, idx, &g[k], f, c.nf))) {
			rc = PL_ENOMEM;
			break;
		}
	}
out:
	if (rc || cmp->nsubsets == 0)
		pl_subsets_release(cmp);
	free(f);
	free(order);
	free(tmp);
	free(newset);
	free(g);
	return rc;
}

void pl_subset_release(struct pl_subset *s)
{
	for (size_t k = 0; k < s->nwhere; k++)
		free(s->where[k]);
	free(s->where);
	memset(s, 0, sizeof(*s));
}

void pl_subsets_release(struct pl_comparison *cmp)
{
	for (size_t i = 0; cmp->subsets && i < cmp->nsubsets; i++)
		pl_subset_release(&cmp->subsets[i]);
	free(cmp->subsets);
	cmp->subsets = NULL;
	cmp->nsubsets = 0;
}
