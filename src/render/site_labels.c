/*
 * site_labels.c — the site's series labels, named against their siblings
 * (see site_impl.h and core/series_label.h).
 *
 * Memory: per series its identity label and the text of its other key
 * conditions and extras (a few hundred bytes); only a group of siblings
 * (series with one identity) is expanded into full condition arrays at a
 * time, when the labels are made.
 */
#include "render/site_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/condkey.h"
#include "core/error.h"
#include "core/series_label.h"
#include "util/alloc.h"

struct pl_site_label {
	unsigned long long hash;
	char *ident;  /* identity label; owned */
	char *conds;  /* until finish: "ID\tTEXT\n" for each key condition set,
	                 then "\x01NAME\tVALUE\n" for each extra; owned */
	char *label;  /* after finish; owned */
};

int pl_site_labels_add(struct pl_site_labels *L, const struct pl_run *r, unsigned long long hash)
{
	struct pl_label_src src = {r->cond, NULL, r->extra, r->nextra};
	struct pl_site_label *e;
	char ident[512];
	size_t len = 0, total;

	if (PL_ALLOC_GROW(L->v, L->n + 1, L->cap))
		return PL_ENOMEM;
	e = &L->v[L->n];
	memset(e, 0, sizeof(*e));
	e->hash = hash;
	pl_series_label(ident, sizeof(ident), &src, NULL, PL_C_NONE, "(no key conditions)");
	for (int c = 0; c < PL_COND_COUNT; c++)
		if ((pl_cond_info[c].flags & PL_CF_KEY) && r->cond[c].set && r->cond[c].text)
			len += 8 + strlen(r->cond[c].text);
	for (size_t k = 0; k < r->nextra; k++)
		len += 4 + strlen(r->extra[k].name) + strlen(r->extra[k].value);
	if (!(e->ident = strdup(ident)) || !(e->conds = malloc(len + 1))) {
		free(e->ident);
		return PL_ENOMEM;
	}
	total = len;
	len = 0;
	for (int c = 0; c < PL_COND_COUNT; c++)
		if ((pl_cond_info[c].flags & PL_CF_KEY) && r->cond[c].set && r->cond[c].text)
			len += (size_t)snprintf(e->conds + len, total + 1 - len, "%d\t%s\n", c,
			                        r->cond[c].text);
	for (size_t k = 0; k < r->nextra; k++)
		len += (size_t)snprintf(e->conds + len, total + 1 - len, "\x01%s\t%s\n",
		                        r->extra[k].name, r->extra[k].value);
	e->conds[len] = '\0';
	L->n++;
	return 0;
}

int pl_site_labels_collect(void *labels, struct pl_run_list *runs, struct pl_error *err)
{
	struct pl_cond_key key;
	int rc;

	if (!runs->n)
		return 0;
	if (pl_cond_key_make(&runs->v[0], &key))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = pl_site_labels_add(labels, &runs->v[0], key.hash);
	pl_cond_key_release(&key);
	return rc ? pl_error_set(err, PL_ENOMEM, "out of memory") : 0;
}

static int by_ident(const void *pa, const void *pb)
{
	const struct pl_site_label *a = pa, *b = pb;
	int c = strcmp(a->ident, b->ident);

	return c ? c : (a->hash > b->hash) - (a->hash < b->hash);
}

static int by_hash(const void *pa, const void *pb)
{
	const struct pl_site_label *a = pa, *b = pb;

	return (a->hash > b->hash) - (a->hash < b->hash);
}

/* One series' conditions rebuilt from its conds text. */
struct expanded {
	struct pl_value cond[PL_COND_COUNT];
	struct pl_extra *extra;
	size_t nextra, cap;
};

/* Fills x from e->conds (texts point into conds, which it splits in place). */
static int expand(struct expanded *x, char *conds)
{
	char *p = conds;

	memset(x, 0, sizeof(*x));
	while (*p) {
		char *tab = strchr(p, '\t'), *nl = tab ? strchr(tab, '\n') : NULL;
		if (!tab || !nl)
			break;
		*tab = *nl = '\0';
		if (*p == '\x01') {
			if (PL_ALLOC_GROW(x->extra, x->nextra + 1, x->cap))
				return PL_ENOMEM;
			x->extra[x->nextra].name = p + 1;
			x->extra[x->nextra++].value = tab + 1;
		} else {
			int c = (int)strtol(p, NULL, 10);
			if (c >= 0 && c < PL_COND_COUNT) {
				x->cond[c].set = 1;
				x->cond[c].text = tab + 1;
			}
		}
		p = nl + 1;
	}
	return 0;
}

/* Labels the siblings v[0..n) (one identity, n >= 2). */
static int label_group(struct pl_site_label *v, size_t n)
{
	struct expanded *x = calloc(n, sizeof(*x));
	struct pl_label_src *src = calloc(n, sizeof(*src));
	char **labels = calloc(n, sizeof(*labels));
	int rc = x && src && labels ? 0 : PL_ENOMEM;

	for (size_t i = 0; i < n && !rc; i++) {
		rc = expand(&x[i], v[i].conds);
		src[i].cond = x[i].cond;
		src[i].extra = x[i].extra;
		src[i].nextra = x[i].nextra;
	}
	if (!rc)
		rc = pl_series_labels(src, n, NULL, "(no key conditions)", labels);
	for (size_t i = 0; i < n && !rc; i++)
		v[i].label = labels[i];
	for (size_t i = 0; x && i < n; i++)
		free(x[i].extra);
	free(x);
	free(src);
	free(labels);
	return rc;
}

int pl_site_labels_finish(struct pl_site_labels *L)
{
	int rc = 0;

	if (L->n) /* qsort's base may not be NULL */
		qsort(L->v, L->n, sizeof(*L->v), by_ident);
	for (size_t g = 0, e; g < L->n && !rc; g = e) {
		for (e = g + 1; e < L->n && strcmp(L->v[e].ident, L->v[g].ident) == 0; e++)
			;
		if (e - g == 1)
			rc = (L->v[g].label = strdup(L->v[g].ident)) ? 0 : PL_ENOMEM;
		else
			rc = label_group(&L->v[g], e - g);
	}
	for (size_t i = 0; i < L->n; i++) {
		free(L->v[i].conds);
		L->v[i].conds = NULL;
	}
	if (L->n)
		qsort(L->v, L->n, sizeof(*L->v), by_hash);
	L->done = 1;
	return rc;
}

const char *pl_site_labels_find(const struct pl_site_labels *L, unsigned long long hash)
{
	size_t lo = 0, hi = L->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (L->v[mid].hash < hash)
			lo = mid + 1;
		else if (L->v[mid].hash > hash)
			hi = mid;
		else
			return L->v[mid].label ? L->v[mid].label : "(no key conditions)";
	}
	return "(no key conditions)";
}

void pl_site_labels_release(struct pl_site_labels *L)
{
	for (size_t i = 0; i < L->n; i++) {
		free(L->v[i].ident);
		free(L->v[i].conds);
		free(L->v[i].label);
	}
	free(L->v);
	memset(L, 0, sizeof(*L));
}
