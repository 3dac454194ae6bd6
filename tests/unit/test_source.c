/*
 * test_source.c — the kept source bytes' compression (store/source.c):
 * the chunks libdeflate writes are zlib streams (RFC 1950) that zlib's
 * own inflate reads, so a ledger written now reads in a perfledger that
 * predates libdeflate; chunks an older perfledger wrote with zlib's
 * deflate read back as before; each thread has its own compressor.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/error.h"
#include "core/hash.h"
#include "store/db.h"

#define TMP PL_TEST_TMP "/source"

/* n bytes of JSON-like text (compressible, not trivially). */
static char *sample(size_t n, unsigned seed)
{
	char *p = malloc(n + 1);

	assert_non_null(p);
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = "{\"model\": 0123456789,}\n"[(seed >> 16) % 23];
	}
	p[n] = '\0';
	return p;
}

static void fresh(const char *path)
{
	char side[1100];

	mkdir(PL_TEST_TMP, 0755);
	mkdir(TMP, 0755);
	unlink(path);
	snprintf(side, sizeof(side), "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", path);
	unlink(side);
}

/* Every size from 0 up (a one-byte file, a typical descriptor, a whole
 * 1 MiB chunk of a streamed JSONL): zlib's uncompress() gives back the
 * very bytes. */
static void test_zlib_stream(void **state)
{
	static const size_t sizes[] = {0, 1, 560, 65536, 1 << 20};
	struct pl_error err;

	(void)state;
	pl_error_init(&err);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct pl_source_chunk c;
		char *in = sample(sizes[i], (unsigned)i);
		uLongf outlen = (uLongf)sizes[i] + 1;
		unsigned char *out = malloc(outlen);

		assert_non_null(out);
		assert_int_equal(pl_source_compress(in, sizes[i], &c, &err), 0);
		assert_int_equal(c.size, sizes[i]);
		assert_true(c.zlen > 0);
		assert_int_equal(uncompress(out, &outlen, c.z, (uLong)c.zlen), Z_OK);
		assert_int_equal(outlen, sizes[i]);
		if (sizes[i])
			assert_memory_equal(out, in, sizes[i]);
		pl_source_chunk_release(&c);
		free(out);
		free(in);
	}
}

/* A chunk as an older perfledger stored it (zlib's deflate, level 6,
 * inserted by SQL here) reads back beside a chunk stored now. */
static void test_old_chunk_reads(void **state)
{
	const char *db = TMP "/old.db";
	char *old = sample(3000, 7), *cur = sample(2000, 8), sha_old[65], sha_cur[65], *back;
	uLongf zlen = compressBound(3000);
	unsigned char *z = malloc(zlen);
	struct pl_store *st = NULL;
	struct pl_source_chunk c;
	struct pl_error err;
	sqlite3 *raw;
	sqlite3_stmt *s;
	size_t len;

	(void)state;
	fresh(db);
	pl_error_init(&err);
	assert_int_equal(pl_store_open(db, &st, &err), 0);
	pl_store_close(st);
	assert_non_null(z);
	assert_int_equal(compress2(z, &zlen, (const Bytef *)old, 3000, 6), Z_OK);
	assert_int_equal(pl_sha256_hex(old, 3000, sha_old), 0);
	assert_int_equal(pl_sha256_hex(cur, 2000, sha_cur), 0);
	assert_int_equal(sqlite3_open(db, &raw), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(raw,
	                                    "INSERT INTO source_chunks (sha256, seq, size, compression, "
	                                    "bytes) VALUES (?1, 0, 3000, 'zlib', ?2)",
	                                    -1, &s, NULL),
	                 SQLITE_OK);
	sqlite3_bind_text(s, 1, sha_old, -1, SQLITE_STATIC);
	sqlite3_bind_blob(s, 2, z, (int)zlen, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(s), SQLITE_DONE);
	sqlite3_finalize(s);
	sqlite3_close(raw);

	assert_int_equal(pl_store_open(db, &st, &err), 0);
	assert_int_equal(pl_source_compress(cur, 2000, &c, &err), 0);
	assert_int_equal(pl_store_put_source_chunk(st, sha_cur, 0, &c, &err), 0);
	pl_source_chunk_release(&c);
	assert_int_equal(pl_store_read_source(st, sha_old, &back, &len, &err), 0);
	assert_int_equal(len, 3000);
	assert_memory_equal(back, old, 3000);
	free(back);
	assert_int_equal(pl_store_read_source(st, sha_cur, &back, &len, &err), 0);
	assert_int_equal(len, 2000);
	assert_memory_equal(back, cur, 2000);
	free(back);
	pl_store_close(st);
	free(z);
	free(old);
	free(cur);
}

static void *compress_many(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg;
	struct pl_error err;

	pl_error_init(&err);
	for (int k = 0; k < 200; k++) {
		struct pl_source_chunk c;
		size_t n = 100 + (size_t)k * 37;
		char *in = sample(n, seed + (unsigned)k);
		uLongf outlen = (uLongf)n;
		unsigned char *out = malloc(n);

		if (!out || pl_source_compress(in, n, &c, &err) ||
		    uncompress(out, &outlen, c.z, (uLong)c.zlen) != Z_OK || outlen != n ||
		    memcmp(out, in, n) != 0)
			return (void *)1;
		pl_source_chunk_release(&c);
		free(out);
		free(in);
	}
	return NULL;
}

/* Two threads compress at once (the parser thread and the caller's, as in
 * an import beside a reimport): each has its own compressor. */
static void test_threads(void **state)
{
	pthread_t a, b;
	void *ra, *rb;

	(void)state;
	assert_int_equal(pthread_create(&a, NULL, compress_many, (void *)(uintptr_t)1), 0);
	assert_int_equal(pthread_create(&b, NULL, compress_many, (void *)(uintptr_t)2), 0);
	assert_null(compress_many((void *)(uintptr_t)3));
	assert_int_equal(pthread_join(a, &ra), 0);
	assert_int_equal(pthread_join(b, &rb), 0);
	assert_null(ra);
	assert_null(rb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zlib_stream),
		cmocka_unit_test(test_old_chunk_reads),
		cmocka_unit_test(test_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
