/*
 * condkey.h — the condition key of a run: the canonical text of its full set
 * of condition values (extra conditions included) and the 64-bit hash of
 * that text. Runs with the same key share one conditions row in the store
 * (conditions.key_text, conditions.key_hash; see schema/README.md). It lives
 * in the core, not the store, because the import pipeline makes keys on its
 * parser threads and must not need the store for that.
 */
#ifndef PL_CONDKEY_H
#define PL_CONDKEY_H

#include <stddef.h>

#include "core/model.h"

/* The condition key of a run: key_text (see schema/README.md) and its 64-bit
 * hash (conditions.key_hash). Made without a store, so an import can make it
 * on its parser threads. */
struct pl_cond_key {
	char *text;              /* key_text, NUL-terminated; owned (free()) */
	size_t len;              /* strlen(text) */
	unsigned long long hash; /* pl_hash64(text, len) */
};

/* Fills *key for run's conditions (all but run_started_at) and its extra
 * conditions (by name, after them; a run without extras has the key it had
 * before extras were stored). Thread-safe.
 * Returns 0 or PL_ENOMEM. Release with pl_cond_key_release(). */
int pl_cond_key_make(const struct pl_run *run, struct pl_cond_key *key);

/* The record identity of a run: 32 lowercase hex digits (plus NUL), the
 * first 128 bits of the sha256 of its content as read — adapter, NUL,
 * format version, NUL, the condition key text (key, as made by
 * pl_cond_key_make() for run), NUL, run_started_at, NUL, then for every
 * known metric in table order its name, NUL and its 8 IEEE 754 bytes
 * little-endian (-0 as 0) — so that the same record read from other bytes
 * (a multi-record file fixed and imported again) is recognised as stored.
 * Provenance (path, sha256, record index, import time) is not part of it.
 * Thread-safe. Returns 0 or PL_ENOMEM. */
int pl_run_record_id(const struct pl_run *run, const struct pl_cond_key *key, char hex[33]);

/* Frees key->text and zeroes key. NULL is a no-op. */
void pl_cond_key_release(struct pl_cond_key *key);

/* 1 if run's condition id has a value that is part of its key and stored
 * (set, and not NaN for a numeric condition, not NULL for a text one),
 * else 0. id is an enum pl_cond_id. */
int pl_cond_key_has(const struct pl_run *run, int id);

#endif
