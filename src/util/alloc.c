/*
 * alloc.c — pl_alloc_grow() of alloc.h.
 */
#include "util/alloc.h"

#include <stdint.h>
#include <stdlib.h>

#include "util/error.h"

int pl_alloc_grow(void **pv, size_t *cap, size_t n, size_t sz)
{
	size_t want;
	void *p;

	if (n <= *cap)
		return 0;
	if (sz == 0)
		return PL_ENOMEM;
	want = *cap < 8 ? 8 : *cap + *cap / 2;
	if (want < n)
		want = n;
	if (want > SIZE_MAX / sz)
		return PL_ENOMEM;
	p = realloc(*pv, want * sz);
	if (!p)
		return PL_ENOMEM;
	*pv = p;
	*cap = want;
	return 0;
}
