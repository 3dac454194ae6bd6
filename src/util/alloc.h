/*
 * util/alloc.h — the one array-growth helper (after git's ALLOC_GROW).
 *
 * Arrays that grow one element at a time keep a pointer, a count and a
 * capacity; PL_ALLOC_GROW(arr, n, cap) makes room for n elements, growing
 * the capacity geometrically (at least 8, then x1.5) so n pushes cost
 * O(n) copies. Every array and byte buffer outside src/util/ grows with
 * it instead of a hand-written realloc loop: scripts/check_banned.sh fails
 * on a realloc( outside src/util/.
 */
#ifndef PL_UTIL_ALLOC_H
#define PL_UTIL_ALLOC_H

#include <stddef.h>

/* Makes *pv (an array of *cap elements of sz bytes) hold at least n
 * elements. Returns 0, or PL_ENOMEM (on overflow or a failed realloc;
 * *pv and *cap are then unchanged and still valid). New elements are not
 * initialised. pv and cap must not be NULL; *pv may be NULL with *cap 0. */
int pl_alloc_grow(void **pv, size_t *cap, size_t n, size_t sz);

/* PL_ALLOC_GROW(arr, n, cap): pl_alloc_grow() on an array lvalue `arr` of
 * any element type and its size_t capacity lvalue `cap`. */
#define PL_ALLOC_GROW(arr, n, cap) pl_alloc_grow((void **)&(arr), &(cap), (n), sizeof(*(arr)))

/* Memory for a large array of bytes bytes that is written once whole (a
 * decoded column of millions of values): on Linux, from 4 MiB up, aligned
 * to 2 MiB and advised for transparent huge pages, so that filling it
 * costs one page fault per 2 MiB instead of one per 4 KiB (on the bench
 * file's 18.6 MB of gaps, 4,500 faults were a fifth of `requests`).
 * Otherwise plain malloc. Free with free(). NULL on out of memory. */
void *pl_alloc_large(size_t bytes);

#endif
