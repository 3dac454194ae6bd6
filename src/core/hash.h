/*
 * hash.h — sha256 of input bytes (OpenSSL libcrypto), as lowercase hex.
 */
#ifndef PL_HASH_H
#define PL_HASH_H

#include <stddef.h>

/* Writes the sha256 of buf[0..len) as 64 lowercase hex digits plus NUL into
 * hex (65 bytes). Returns 0, or PL_ENOMEM if libcrypto fails. */
int pl_sha256_hex(const void *buf, size_t len, char hex[65]);

#endif
