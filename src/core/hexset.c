/*
 * hexset.c — the ordered string set of hexset.h.
 */
#include "core/hexset.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/hash.h"
#include "util/alloc.h"

/* The slot of h in an index of nslot slots (a power of two): where it is,
 * or the empty slot where it would go. */
static size_t find_slot(const struct pl_hexset *s, const size_t *slot, size_t nslot, const char *h)
{
	size_t k = (size_t)pl_hash64(h, strlen(h)) & (nslot - 1);

	while (slot[k] && strcmp(s->v[slot[k] - 1], h) != 0)
		k = (k + 1) & (nslot - 1);
	return k;
}

int pl_hexset_has(const struct pl_hexset *s, const char *h)
{
	return s->nslot && s->slot[find_slot(s, s->slot, s->nslot, h)] != 0;
}

static int grow_index(struct pl_hexset *s)
{
	size_t nslot = s->nslot ? s->nslot * 2 : 256;
	size_t *slot = calloc(nslot, sizeof(*slot));

	if (!slot)
		return PL_ENOMEM;
	for (size_t i = 0; i < s->n; i++)
		slot[find_slot(s, slot, nslot, s->v[i])] = i + 1;
	free(s->slot);
	s->slot = slot;
	s->nslot = nslot;
	return 0;
}

int pl_hexset_add(struct pl_hexset *s, const char *h)
{
	size_t len = strlen(h), k;

	if (len > 64)
		return PL_EINVALID;
	if (pl_hexset_has(s, h))
		return 0;
	if ((s->n + 1) * 2 > s->nslot && grow_index(s))
		return PL_ENOMEM;
	if (PL_ALLOC_GROW(s->v, s->n + 1, s->cap))
		return PL_ENOMEM;
	k = find_slot(s, s->slot, s->nslot, h);
	memcpy(s->v[s->n], h, len + 1);
	s->slot[k] = ++s->n;
	return 0;
}

void pl_hexset_release(struct pl_hexset *s)
{
	free(s->v);
	free(s->slot);
	memset(s, 0, sizeof(*s));
}
