/*
 * source.c — the source bytes of imported files (table source_chunks,
 * migration 010): compressed in zlib's format, chunk by chunk, stored once per
 * sha256, read back and checked against that sha256. The import compresses
 * on its parser thread (pl_source_compress needs no store) and stores the
 * chunks from its writer; reimport and merge read them back.
 *
 * The stored stream is zlib's (RFC 1950, tag 'zlib'), written by
 * libdeflate at level 6 and read by zlib's inflate: the same format every
 * ledger has held since source bytes were kept, so old and new chunks read
 * alike, and a ledger written now reads in a perfledger that predates the
 * change. libdeflate compresses whole buffers with a compressor kept per
 * thread (no per-file setup): on the benchmark sets it took 2-4x less CPU
 * than zlib -6 with a window sized to each file, for the same size or
 * smaller; zstd level 1 was faster still but 8-10% larger and a new
 * format (bench/README.md, "Compression of kept source bytes").
 */
#include "store/store_impl.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/hash.h"
#include "util/alloc.h"

#define SOURCE_LEVEL 6 /* libdeflate's level: zlib -6's size, measured */

static pthread_key_t comp_key; /* the thread's libdeflate compressor */
static pthread_once_t comp_once = PTHREAD_ONCE_INIT;
static int comp_key_ok;

static void free_comp(void *c)
{
	libdeflate_free_compressor(c);
}

static void make_comp_key(void)
{
	comp_key_ok = pthread_key_create(&comp_key, free_comp) == 0;
}

/* The calling thread's compressor, made on first use; NULL when out of
 * memory. A thread without a key slot gets NULL too (never seen). */
static struct libdeflate_compressor *thread_compressor(void)
{
	struct libdeflate_compressor *c;

	pthread_once(&comp_once, make_comp_key);
	if (!comp_key_ok)
		return NULL;
	if ((c = pthread_getspecific(comp_key)))
		return c;
	if (!(c = libdeflate_alloc_compressor(SOURCE_LEVEL)))
		return NULL;
	if (pthread_setspecific(comp_key, c)) {
		libdeflate_free_compressor(c);
		return NULL;
	}
	return c;
}

int pl_source_compress(const void *in, size_t n, struct pl_source_chunk *out,
                       struct pl_error *err)
{
	struct libdeflate_compressor *c;
	size_t bound;

	memset(out, 0, sizeof(*out));
	if (n > (size_t)0x7fffffff)
		return pl_error_set(err, PL_EUSAGE, "a source chunk of %zu bytes is too large", n);
	if (!(c = thread_compressor()))
		return pl_error_set(err, PL_ENOMEM, "out of memory (while compressing source bytes)");
	bound = libdeflate_zlib_compress_bound(c, n);
	if (!(out->z = malloc(bound ? bound : 1)))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	out->zlen = libdeflate_zlib_compress(c, in, n, out->z, bound);
	if (out->zlen == 0) { /* cannot happen within the bound */
		pl_source_chunk_release(out);
		return pl_error_set(err, PL_ENOMEM, "out of memory (while compressing source bytes)");
	}
	out->size = n;
	return 0;
}

void pl_source_chunk_release(struct pl_source_chunk *c)
{
	if (!c)
		return;
	free(c->z);
	memset(c, 0, sizeof(*c));
}

int pl_store_put_source_chunk(struct pl_store *st, const char *sha256, long long seq,
                              const struct pl_source_chunk *c, struct pl_error *err)
{
	sqlite3_stmt *s = st->src_put;
	int rc;

	if (!s && sqlite3_prepare_v3(st->db,
	                             "INSERT INTO source_chunks (sha256, seq, size, compression, bytes) "
	                             "VALUES (?1, ?2, ?3, 'zlib', ?4) ON CONFLICT (sha256, seq) DO NOTHING",
	                             -1, SQLITE_PREPARE_PERSISTENT, &st->src_put, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "storing source bytes");
	s = st->src_put;
	sqlite3_bind_text(s, 1, sha256, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, seq);
	sqlite3_bind_int64(s, 3, (sqlite3_int64)c->size);
	sqlite3_bind_blob64(s, 4, c->z ? (const void *)c->z : (const void *)"", c->zlen,
	                    SQLITE_STATIC);
	rc = sqlite3_step(s) == SQLITE_DONE ? 0 : pl_store_fail(st, err, "storing source bytes");
	sqlite3_reset(s);
	sqlite3_clear_bindings(s); /* the bytes were bound SQLITE_STATIC */
	return rc;
}

int pl_store_has_source(struct pl_store *st, const char *sha256, int *found, struct pl_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	*found = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT 1 FROM source_chunks WHERE sha256 = ?1 AND seq = 0",
	                       -1, &s, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "looking up source bytes");
	sqlite3_bind_text(s, 1, sha256, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*found = 1;
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : pl_store_fail(st, err, "looking up source bytes");
	sqlite3_finalize(s);
	return rc;
}

/* Appends the inflated chunk z[0..zn) of size bytes to *buf (length *len).
 * The declared size is not trusted: one above PL_SOURCE_CHUNK_MAX is
 * damage, and inflation runs in windows of PL_SOURCE_CHUNK (1 MiB) that
 * grow the buffer only as bytes really come out, stopping at the declared
 * size; so a false size costs neither an allocation of that size nor more
 * memory than the chunk really holds. */
static int inflate_chunk(const void *z, size_t zn, size_t size, char **buf, size_t *len,
                         const char *sha256, long long seq, struct pl_error *err)
{
	z_stream zs;
	size_t got = 0, cap = 0; /* cap: bytes *buf is known to hold (0: grow once) */
	char *nb = *buf;
	int zr = Z_OK;

	if (size > PL_SOURCE_CHUNK_MAX)
		return pl_error_set(err, PL_ESCHEMA,
		                    "the stored source bytes of %s are damaged (chunk %lld claims %zu "
		                    "bytes; a chunk holds at most %zu)",
		                    sha256, seq, size, PL_SOURCE_CHUNK_MAX);
	if (zn > (size_t)UINT32_MAX)
		return pl_error_set(err, PL_ESCHEMA,
		                    "the stored source bytes of %s are damaged (chunk %lld)", sha256, seq);
	memset(&zs, 0, sizeof(zs));
	if (inflateInit(&zs) != Z_OK)
		return pl_error_set(err, PL_ENOMEM, "out of memory (while inflating source bytes)");
	zs.next_in = (Bytef *)(uintptr_t)z;
	zs.avail_in = (uInt)zn;
	while (zr == Z_OK) {
		/* one more window, one byte past the declared size at most: a
		 * chunk that inflates beyond it is damaged */
		size_t want = size + 1 - got < PL_SOURCE_CHUNK ? size + 1 - got : PL_SOURCE_CHUNK;

		if (PL_ALLOC_GROW(*buf, *len + got + want + 1, cap)) {
			inflateEnd(&zs);
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		}
		nb = *buf;
		zs.next_out = (Bytef *)nb + *len + got;
		zs.avail_out = (uInt)want;
		zr = inflate(&zs, Z_NO_FLUSH);
		got += want - zs.avail_out;
		if (got > size || (zr == Z_BUF_ERROR && zs.avail_in == 0) ||
		    (zr != Z_OK && zr != Z_STREAM_END))
			break;
	}
	inflateEnd(&zs);
	if (zr != Z_STREAM_END || got != size)
		return pl_error_set(err, PL_ESCHEMA,
		                    "the stored source bytes of %s are damaged (chunk %lld does not "
		                    "inflate to its %zu bytes)",
		                    sha256, seq, size);
	*len += size;
	nb[*len] = '\0';
	return 0;
}

int pl_store_read_source(struct pl_store *st, const char *sha256, char **out, size_t *len,
                         struct pl_error *err)
{
	sqlite3_stmt *s = NULL;
	char *buf = NULL, hex[65];
	size_t n = 0;
	long long want = 0;
	int rc = 0, step;

	*out = NULL;
	*len = 0;
	if (sqlite3_prepare_v2(st->db,
	                       "SELECT seq, size, compression, bytes FROM source_chunks "
	                       "WHERE sha256 = ?1 ORDER BY seq",
	                       -1, &s, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "reading source bytes");
	sqlite3_bind_text(s, 1, sha256, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		const char *comp = (const char *)sqlite3_column_text(s, 2);
		long long seq = sqlite3_column_int64(s, 0);
		sqlite3_int64 size = sqlite3_column_int64(s, 1);

		if (seq != want || size < 0 || !comp || strcmp(comp, "zlib") != 0) {
			rc = pl_error_set(err, PL_ESCHEMA,
			                  "the stored source bytes of %s are damaged (chunk %lld: "
			                  "expected chunk %lld, compression 'zlib')",
			                  sha256, seq, want);
			break;
		}
		if ((rc = inflate_chunk(sqlite3_column_blob(s, 3), (size_t)sqlite3_column_bytes(s, 3),
		                        (size_t)size, &buf, &n, sha256, seq, err)))
			break;
		want++;
	}
	if (!rc && step != SQLITE_DONE)
		rc = pl_store_fail(st, err, "reading source bytes");
	sqlite3_finalize(s);
	if (!rc && want == 0)
		rc = pl_error_set(err, PL_EEMPTY, "the source bytes of %s are not stored", sha256);
	if (!rc && !buf && !(buf = calloc(1, 1)))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	if (!rc && pl_sha256_hex(buf, n, hex))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	if (!rc && strcmp(hex, sha256) != 0)
		rc = pl_error_set(err, PL_ESCHEMA,
		                  "the stored source bytes of %s are damaged (they hash to %s)",
		                  sha256, hex);
	if (rc) {
		free(buf);
		return rc;
	}
	*out = buf;
	*len = n;
	return 0;
}

int pl_store_source_size(struct pl_store *st, const char *sha256, long long *size,
                         long long *chunks, struct pl_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc = 0;

	*size = *chunks = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT coalesce(sum(size), 0), count(*) FROM source_chunks "
	                               "WHERE sha256 = ?1",
	                       -1, &s, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "looking up source bytes");
	sqlite3_bind_text(s, 1, sha256, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW) {
		*size = sqlite3_column_int64(s, 0);
		*chunks = sqlite3_column_int64(s, 1);
	} else {
		rc = pl_store_fail(st, err, "looking up source bytes");
	}
	sqlite3_finalize(s);
	return rc;
}

int pl_store_read_source_chunk(struct pl_store *st, const char *sha256, long long seq, char **out,
                               size_t *len, struct pl_error *err)
{
	sqlite3_stmt *s = NULL;
	char *buf = NULL;
	size_t n = 0;
	int rc = 0, step;

	*out = NULL;
	*len = 0;
	if (sqlite3_prepare_v2(st->db,
	                       "SELECT size, compression, bytes FROM source_chunks "
	                       "WHERE sha256 = ?1 AND seq = ?2",
	                       -1, &s, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "reading source bytes");
	sqlite3_bind_text(s, 1, sha256, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, seq);
	step = sqlite3_step(s);
	if (step == SQLITE_ROW) {
		const char *comp = (const char *)sqlite3_column_text(s, 1);
		sqlite3_int64 size = sqlite3_column_int64(s, 0);

		if (size < 0 || !comp || strcmp(comp, "zlib") != 0)
			rc = pl_error_set(err, PL_ESCHEMA,
			                  "the stored source bytes of %s are damaged (chunk %lld: "
			                  "compression 'zlib' expected)",
			                  sha256, seq);
		else
			rc = inflate_chunk(sqlite3_column_blob(s, 2), (size_t)sqlite3_column_bytes(s, 2),
			                   (size_t)size, &buf, &n, sha256, seq, err);
	} else if (step == SQLITE_DONE) {
		rc = pl_error_set(err, PL_EEMPTY, "chunk %lld of the source bytes of %s is not stored",
		                  seq, sha256);
	} else {
		rc = pl_store_fail(st, err, "reading source bytes");
	}
	sqlite3_finalize(s);
	if (rc) {
		free(buf);
		return rc;
	}
	if (!buf && !(buf = calloc(1, 1)))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	*out = buf;
	*len = n;
	return 0;
}
