/*
 * util/buf.h — one growable byte buffer, after git's strbuf.
 *
 * data is always NUL-terminated (data[len] == '\0'), also before the first
 * allocation (it then points at a shared empty string, never to be
 * written), so a buffer can be passed as a C string at any time. Appends
 * that cannot allocate set the sticky oom flag and leave the buffer as it
 * was; they also return PL_ENOMEM, so a sequence of appends may either
 * check each call or check b->oom once at the end.
 */
#ifndef PL_UTIL_BUF_H
#define PL_UTIL_BUF_H

#include <stddef.h>

struct pl_buf {
	char *data; /* len bytes, then a NUL; never NULL after pl_buf_init */
	size_t len; /* bytes in use, not counting the NUL */
	size_t cap; /* bytes allocated (0: data is the shared empty string) */
	int oom;    /* sticky: an append could not allocate */
};

/* The empty string an unallocated buffer points at; never written. */
extern char pl_buf_empty[1];

/* An initializer: struct pl_buf b = PL_BUF_INIT; is pl_buf_init(&b). */
#define PL_BUF_INIT {pl_buf_empty, 0, 0, 0}

/* Makes b empty (no allocation). b must not be NULL. */
void pl_buf_init(struct pl_buf *b);

/* Frees b's bytes and makes it empty again (reusable). NULL is a no-op. */
void pl_buf_release(struct pl_buf *b);

/* Makes room for extra more bytes (plus the NUL) without changing len.
 * Returns 0 or PL_ENOMEM (b->oom set, b unchanged). */
int pl_buf_grow(struct pl_buf *b, size_t extra);

/* Appends n bytes at p (may hold NULs). Returns 0 or PL_ENOMEM. */
int pl_buf_add(struct pl_buf *b, const void *p, size_t n);

/* Appends the C string s (NULL appends nothing). Returns 0 or PL_ENOMEM. */
int pl_buf_adds(struct pl_buf *b, const char *s);

/* Appends one byte. Returns 0 or PL_ENOMEM. */
int pl_buf_addc(struct pl_buf *b, char c);

/* Appends printf-style text (the process locale applies to %f: pass
 * numbers already formatted where the C locale matters). Returns 0 or
 * PL_ENOMEM. */
int pl_buf_addf(struct pl_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Cuts b to its first n bytes (n > len is ignored); keeps the memory. */
void pl_buf_truncate(struct pl_buf *b, size_t n);

/* Empties b (len 0) and clears oom; keeps the memory. */
void pl_buf_reset(struct pl_buf *b);

/* Hands b's bytes to the caller (who frees them with free()) and makes b
 * empty. *len (may be NULL) gets the length. Returns NULL when b->oom is
 * set (the bytes are freed) or when a copy of an empty buffer cannot be
 * allocated; the result is always NUL-terminated. */
char *pl_buf_detach(struct pl_buf *b, size_t *len);

#endif
