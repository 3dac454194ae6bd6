/*
 * hash.h — sha256 of input bytes (OpenSSL libcrypto), as lowercase hex.
 * Thread-safe: the import hashes on its parser thread.
 */
#ifndef PL_HASH_H
#define PL_HASH_H

#include <stddef.h>

/* Writes the sha256 of buf[0..len) as 64 lowercase hex digits plus NUL into
 * hex (65 bytes). Returns 0, or PL_ENOMEM if libcrypto fails. */
int pl_sha256_hex(const void *buf, size_t len, char hex[65]);

/* Incremental hashing of a stream. pl_sha256_new() returns NULL when out of
 * memory; caller frees with pl_sha256_free() (NULL is a no-op). update and
 * final return 0 or PL_ENOMEM; final writes hex as pl_sha256_hex() does. */
struct pl_sha256;
struct pl_sha256 *pl_sha256_new(void);
int pl_sha256_update(struct pl_sha256 *h, const void *buf, size_t len);
int pl_sha256_final(struct pl_sha256 *h, char hex[65]);
void pl_sha256_free(struct pl_sha256 *h);

/* 64-bit FNV-1a of buf[0..len): the lookup key of a conditions row
 * (conditions.key_hash, from key_text). Not cryptographic: equal hashes are
 * confirmed by comparing the text. Stable across versions and platforms
 * (stored in databases); never change it. */
unsigned long long pl_hash64(const void *buf, size_t len);

#endif
