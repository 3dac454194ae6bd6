/*
 * alloc.c — pl_alloc_grow() and pl_alloc_large() of alloc.h.
 */
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE of sys/mman.h, beside _POSIX_C_SOURCE */
#include "util/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

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

#define LARGE_MIN ((size_t)4 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

void *pl_alloc_large(size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	void *p = NULL;

	if (bytes >= LARGE_MIN && bytes <= SIZE_MAX - HUGE_PAGE) {
		size_t len = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
		if (posix_memalign(&p, HUGE_PAGE, len) != 0)
			return NULL;
		(void)madvise(p, len, MADV_HUGEPAGE); /* advice only: fine if refused */
		return p;
	}
#endif
	return malloc(bytes ? bytes : 1);
}
