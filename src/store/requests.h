/*
 * store/requests.h — a run's requests in the store (migration 014): the
 * columnar, compressed encoding (one blob per run) and its table.
 *
 * The blob is what the database holds and what `export` carries (base64,
 * the "requests" member of the run's line): import of that line stores the
 * same bytes, so a round trip is byte-identical. Layout (docs/requests.md):
 * "PLRQ", format byte 1, then varints n, columns, number of gaps, number of
 * error texts, then one zlib stream of the columns one after the other:
 * the error texts (varint length + bytes), per request its error index
 * (varint, 0 = ok), input and output tokens (zigzag varints, -1 unknown),
 * TTFT, E2EL and mean gap (float64, byte planes split so that the sign and
 * exponent bytes compress together), per request its number of gaps
 * (varint) and the gaps (float64, byte planes). A column not recorded is
 * not written.
 */
#ifndef PL_STORE_REQUESTS_H
#define PL_STORE_REQUESTS_H

#include <stddef.h>

#include "core/error.h"
#include "core/requests.h"
#include "store/db.h"

/* Encodes rq's columns into rq->blob (replacing one there). Deterministic:
 * the same columns give the same bytes. Returns 0 or PL_ENOMEM. */
int pl_store_requests_encode(struct pl_requests *rq, struct pl_error *err);

/* Encodes rq (pl_store_requests_encode) and frees its gap values, the
 * bulk of it (18.6 MB for 2.3 million gaps), keeping every count and the
 * other columns, so that the blob is stored without the gaps beside it.
 * rq can be stored, counted and exported afterwards, not graded. A set
 * with a blob already is left as it is. Returns 0 or PL_ENOMEM. */
int pl_store_requests_seal(struct pl_requests *rq, struct pl_error *err);

/* Decodes blob[0..n) into out (initialised here; out->blob gets a copy of
 * the bytes). Returns 0, PL_EINVALID (not a request blob, damaged: err
 * says which) or PL_ENOMEM. */
int pl_store_requests_decode(const void *blob, size_t n, struct pl_requests *out,
                             struct pl_error *err);

/* Stores rq as the requests of run run_id in the open transaction (its
 * blob as given when set — an imported export line, or encoded from its
 * columns already —, else encoded now and its gaps freed:
 * pl_store_requests_seal; a given blob that does not decode is
 * PL_EINVALID). The blob is written into the row in pieces, not copied
 * whole into SQLite's record first. Replaces requests already stored for
 * the run. Returns 0, PL_EINVALID, PL_ENOMEM or PL_EDB. */
int pl_store_write_requests(struct pl_store *st, long long run_id, struct pl_requests *rq,
                            struct pl_error *err);

/* Reads the requests of run run_id: *out gets a new set (decoded, with its
 * blob; caller frees with pl_requests_free()), or NULL when the run has
 * none. Returns 0, PL_EDB, PL_EINVALID (a damaged blob) or PL_ENOMEM. */
int pl_store_read_requests(struct pl_store *st, long long run_id, struct pl_requests **out,
                           struct pl_error *err);

/* As pl_store_read_requests(), without the blob (out->blob NULL): the
 * columns alone, decoded as the stored bytes are read and inflated, a
 * window at a time, for a reader that only computes from them
 * (`requests`). */
int pl_store_read_request_columns(struct pl_store *st, long long run_id,
                                  struct pl_requests **out, struct pl_error *err);

/* Counts of the requests stored for run run_id, without decoding them. */
struct pl_request_counts {
	int found;          /* 1 when the run has requests */
	long long requests; /* requests */
	long long failed;   /* failed requests */
	long long gaps;     /* inter-token gaps */
	long long bytes;    /* bytes of the stored blob */
};

/* Fills *out (found 0 when none). Returns 0 or PL_EDB. */
int pl_store_request_counts(struct pl_store *st, long long run_id,
                            struct pl_request_counts *out, struct pl_error *err);

/* *any gets 1 when some run of the store has requests, else 0 (export
 * asks once before reading any run's). Returns 0 or PL_EDB. */
int pl_store_has_requests(struct pl_store *st, int *any, struct pl_error *err);

/* Deletes the requests of run run_id (purge), in the open transaction.
 * Returns 0 or PL_EDB. */
int pl_store_delete_requests(struct pl_store *st, long long run_id, struct pl_error *err);

#endif
