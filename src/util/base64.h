/*
 * base64.h — RFC 4648 base64 (standard alphabet, '=' padding), for binary
 * columns that travel inside JSON text (a run's requests in an export line).
 */
#ifndef PL_UTIL_BASE64_H
#define PL_UTIL_BASE64_H

#include <stddef.h>

/* Encodes in[0..n) as a NUL-terminated string; caller frees. NULL on out
 * of memory. */
char *pl_base64_encode(const void *in, size_t n);

/* Decodes the NUL-terminated s (no white space; padding required) into a
 * new buffer *out of *n bytes (caller frees). Returns 0, -1 when s is not
 * base64, or -2 on out of memory. */
int pl_base64_decode(const char *s, unsigned char **out, size_t *n);

#endif
