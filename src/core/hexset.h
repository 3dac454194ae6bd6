/*
 * hexset.h — a set of short strings (sha256s, record ids: at most 64
 * characters), kept in order of first sight: the distinct source files a
 * reimport redoes, the files and records a dry-run import would have
 * stored. An array and an open-addressing index over pl_hash64, grown at
 * half full.
 */
#ifndef PL_CORE_HEXSET_H
#define PL_CORE_HEXSET_H

#include <stddef.h>

/* Zero it before use ({0}); pl_hexset_release() frees what it owns. */
struct pl_hexset {
	char (*v)[65]; /* the members, in order of first sight; owned */
	size_t n, cap; /* members, allocated */
	size_t *slot;  /* index + 1 into v, 0 empty; nslot a power of two; owned */
	size_t nslot;
};

/* 1 when s holds h (NUL-ended), else 0. */
int pl_hexset_has(const struct pl_hexset *s, const char *h);

/* Adds h (NUL-ended, at most 64 characters) unless s holds it already.
 * Returns 0, PL_EINVALID for a longer h (nothing added) or PL_ENOMEM (s
 * unchanged). */
int pl_hexset_add(struct pl_hexset *s, const char *h);

/* Frees what s owns and zeroes it; s can be filled again after it. */
void pl_hexset_release(struct pl_hexset *s);

#endif
