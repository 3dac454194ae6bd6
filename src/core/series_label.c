/*
 * series_label.c — the short label of a series and what tells it from its
 * siblings (see series_label.h).
 */
#include "core/series_label.h"

#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The identity, in label order, with each part's prefix. */
static const int ident_ids[] = {PL_C_MODEL,       PL_C_HARDWARE,     PL_C_ENGINE,
                                PL_C_ENGINE_VERSION, PL_C_CONCURRENCY, PL_C_REQUEST_RATE,
                                PL_C_INPUT_TOKENS, PL_C_MAX_OUTPUT_TOKENS};
static const char *const ident_pre[] = {"", "", "", "", "c=", "rate=", "in=", "out="};
#define NIDENT (sizeof(ident_ids) / sizeof(ident_ids[0]))

int pl_series_label_identity(int id)
{
	for (size_t i = 0; i < NIDENT; i++)
		if (ident_ids[i] == id)
			return 1;
	return 0;
}

static int same_value(const struct pl_value *a, const struct pl_value *b)
{
	int sa = a->set && a->text, sb = b->set && b->text;

	if (sa != sb)
		return 0;
	return !sa || strcmp(a->text, b->text) == 0;
}

void pl_series_label_mark(struct pl_label_siblings *sb, const struct pl_label_src *a,
                          const struct pl_label_src *b)
{
	for (int c = 0; c < PL_COND_COUNT; c++)
		if ((pl_cond_info[c].flags & PL_CF_KEY) && !pl_series_label_identity(c) &&
		    !same_value(&a->cond[c], &b->cond[c]))
			sb->differs[c] = 1;
	if (!pl_extras_equal(a->extra, a->nextra, b->extra, b->nextra))
		sb->extras = 1;
}

/* Appends sep, pre and text to buf (length *len of n), truncating. */
static void put(char *buf, size_t n, size_t *len, const char *sep, const char *pre,
                const char *text)
{
	if (*len + 1 >= n)
		return;
	snprintf(buf + *len, n - *len, "%s%s%s", *len ? sep : "", pre, text);
	*len += strlen(buf + *len);
}

char *pl_series_label(char *buf, size_t n, const struct pl_label_src *s,
                      const struct pl_label_siblings *sb, int skip, const char *none)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NIDENT; i++) {
		int id = ident_ids[i];
		const struct pl_value *v = &s->cond[id];
		const char *sep =
			id == PL_C_ENGINE_VERSION || id == PL_C_MAX_OUTPUT_TOKENS ? " " : " / ";

		if (id == skip || !v->set || !v->text || (s->varies && s->varies[id]))
			continue;
		put(buf, n, &len, sep, ident_pre[i], v->text);
	}
	for (int c = 0; sb && c < PL_COND_COUNT; c++) {
		const struct pl_value *v = &s->cond[c];
		char pre[96];

		if (!sb->differs[c] || c == skip || pl_series_label_identity(c) ||
		    (s->varies && s->varies[c]))
			continue;
		snprintf(pre, sizeof(pre), "%s=", pl_cond_info[c].name);
		put(buf, n, &len, " / ", pre, v->set && v->text ? v->text : "-");
	}
	for (size_t k = 0; sb && sb->extras && k < s->nextra; k++) {
		char pre[256];
		snprintf(pre, sizeof(pre), "%s=", s->extra[k].name);
		put(buf, n, &len, " / ", pre, s->extra[k].value);
	}
	if (len == 0)
		snprintf(buf, n, "%s", none);
	return buf;
}

/* A series' identity label and its index, sorted by label then index. */
struct ident {
	char label[512];
	size_t i;
};

static int cmp_ident(const void *pa, const void *pb)
{
	const struct ident *a = pa, *b = pb;
	int c = strcmp(a->label, b->label);

	return c ? c : (a->i > b->i) - (a->i < b->i);
}

int pl_series_labels(const struct pl_label_src *srcs, size_t n,
                     const struct pl_label_siblings *named, const char *none, char **labels)
{
	struct ident *id = n ? malloc(n * sizeof(*id)) : NULL;
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		labels[i] = NULL;
	if (n && !id)
		return PL_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		pl_series_label(id[i].label, sizeof(id[i].label), &srcs[i], NULL, PL_C_NONE, none);
		id[i].i = i;
	}
	if (n) /* qsort's base may not be NULL */
		qsort(id, n, sizeof(*id), cmp_ident);
	for (size_t g = 0, e; g < n && !rc; g = e) {
		struct pl_label_siblings sb;
		char buf[1024];

		if (named)
			sb = *named;
		else
			memset(&sb, 0, sizeof(sb));
		for (e = g + 1; e < n && strcmp(id[e].label, id[g].label) == 0; e++)
			pl_series_label_mark(&sb, &srcs[id[g].i], &srcs[id[e].i]);
		for (size_t k = g; k < e; k++) {
			pl_series_label(buf, sizeof(buf), &srcs[id[k].i], &sb, PL_C_NONE, none);
			if (!(labels[id[k].i] = strdup(buf)))
				rc = PL_ENOMEM;
		}
	}
	free(id);
	if (rc)
		for (size_t i = 0; i < n; i++) {
			free(labels[i]);
			labels[i] = NULL;
		}
	return rc;
}
