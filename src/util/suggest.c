/*
 * suggest.c — edit distance and the closest candidate (see suggest.h).
 */
#include "util/suggest.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

size_t pl_edit_distance(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b), *d, r;

	/* (na+1) x (nb+1) table: names are short */
	if (na > 4096 || nb > 4096)
		return (size_t)-1;
	d = malloc((na + 1) * (nb + 1) * sizeof(*d));
	if (!d)
		return (size_t)-1;
#define D(i, j) d[(i) * (nb + 1) + (j)]
	for (size_t i = 0; i <= na; i++)
		D(i, 0) = i;
	for (size_t j = 0; j <= nb; j++)
		D(0, j) = j;
	for (size_t i = 1; i <= na; i++) {
		for (size_t j = 1; j <= nb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			size_t sub = D(i - 1, j - 1) + (ca != cb), del = D(i - 1, j) + 1,
			       ins = D(i, j - 1) + 1, v;
			v = sub < del ? sub : del;
			v = ins < v ? ins : v;
			/* two neighbours swapped count as one edit ("p59" for "p95") */
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && D(i - 2, j - 2) + 1 < v)
				v = D(i - 2, j - 2) + 1;
			D(i, j) = v;
		}
	}
	r = D(na, nb);
#undef D
	free(d);
	return r;
}

/* 1 if a and b hold the same letters (ASCII case ignored) in any order. */
static int anagram(const char *a, const char *b)
{
	unsigned count[256] = {0};

	if (strlen(a) != strlen(b))
		return 0;
	for (; *a; a++)
		count[tolower((unsigned char)*a)]++;
	for (; *b; b++)
		if (count[tolower((unsigned char)*b)]-- == 0)
			return 0;
	return 1;
}

const char *pl_suggest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1, len = strlen(word);

	for (size_t i = 0; i < n; i++) {
		size_t d;
		if (!cands[i])
			continue;
		d = pl_edit_distance(word, cands[i]);
		/* of equally close names, one holding the same letters wins */
		if (d < bestd || (d == bestd && best && !anagram(word, best) && anagram(word, cands[i]))) {
			bestd = d;
			best = cands[i];
		}
	}
	if (!best || bestd >= len || (bestd > 2 && bestd * 3 > len))
		return NULL;
	return best;
}
