/*
 * requests.c — the store side of a run's requests (migration 014): the
 * columnar encoding of store/requests.h, zlib-compressed, and the
 * run_requests table (write, read, counts, delete). Statements are
 * prepared per call: a run's requests are written once at import and read
 * by `requests`, `show` and `export`, one run at a time.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "store/requests.h"
#include "store/store_impl.h"
#include "util/alloc.h"

#define MAGIC "PLRQ"
#define FORMAT 1
#define RAW_MAX ((size_t)1 << 31) /* a decoded payload above 2 GiB is damage */

/* ----------------------------------------------------------- byte buffer */

/* Where put() sends bytes: a growing buffer (the header), nowhere (the
 * payload counted, to write its size in the header first), or zlib's
 * deflate a window at a time (the payload compressed as it is made: no
 * buffer of the whole payload, 18.8 MB for the bench file's 2.3 million
 * gaps; the stream is byte for byte compress2()'s). */
enum { TO_BUF, TO_COUNT, TO_DEFLATE };

struct bbuf {
	unsigned char *p; /* bytes (TO_BUF) or the window (TO_DEFLATE), owned */
	size_t n, cap;    /* used, allocated */
	int oom;          /* sticky: an append or deflate failed */
	int to;           /* TO_* */
	uint64_t total;   /* bytes put, in any mode */
	z_stream *zs;     /* TO_DEFLATE: the stream, writing into its output */
};

#define WINDOW ((size_t)1 << 16)

/* Deflates the window (flush: Z_NO_FLUSH, or Z_FINISH at the end). */
static void drain(struct bbuf *b, int flush)
{
	int zr;

	b->zs->next_in = b->p;
	b->zs->avail_in = (uInt)b->n;
	do {
		zr = deflate(b->zs, flush);
	} while (zr == Z_OK && (b->zs->avail_in > 0 || flush == Z_FINISH) && b->zs->avail_out > 0);
	if (flush == Z_FINISH ? zr != Z_STREAM_END : (zr != Z_OK || b->zs->avail_in > 0))
		b->oom = 1;
	b->n = 0;
}

static void put(struct bbuf *b, const void *src, size_t n)
{
	const unsigned char *s = src;

	if (b->oom || n == 0)
		return;
	b->total += n;
	if (b->to == TO_COUNT)
		return;
	if (b->to == TO_DEFLATE) {
		while (n > 0 && !b->oom) {
			size_t k = b->cap - b->n < n ? b->cap - b->n : n;
			memcpy(b->p + b->n, s, k);
			b->n += k;
			s += k;
			n -= k;
			if (b->n == b->cap)
				drain(b, Z_NO_FLUSH);
		}
		return;
	}
	if (PL_ALLOC_GROW(b->p, b->n + n, b->cap)) {
		b->oom = 1;
		return;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

static void put_varint(struct bbuf *b, uint64_t v)
{
	unsigned char tmp[10];
	size_t k = 0;

	do {
		tmp[k] = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			tmp[k] |= 0x80;
		k++;
	} while (v);
	put(b, tmp, k);
}

static void put_zigzag(struct bbuf *b, int64_t v)
{
	put_varint(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

/* n doubles as 8 byte planes (the lowest byte of every value, then the
 * next, ...): the sign/exponent bytes of nearby values repeat, and zlib
 * finds them. */
static void put_doubles(struct bbuf *b, const double *v, size_t n)
{
	unsigned char tmp[4096];
	size_t k = 0;

	if (b->to == TO_COUNT) {
		put(b, NULL, 0);
		if (!b->oom)
			b->total += 8 * (uint64_t)n;
		return;
	}
	for (int plane = 0; plane < 8; plane++)
		for (size_t i = 0; i < n; i++) {
			uint64_t u;
			memcpy(&u, &v[i], 8);
			tmp[k++] = (unsigned char)(u >> (8 * plane));
			if (k == sizeof(tmp)) {
				put(b, tmp, k);
				k = 0;
			}
		}
	put(b, tmp, k);
}

struct reader {
	const unsigned char *p; /* bytes */
	size_t n, at;           /* length, position */
	int bad;                /* sticky: read past the end or a bad varint */
};

static uint64_t get_varint(struct reader *r)
{
	uint64_t v = 0;

	for (int shift = 0; shift < 64; shift += 7) {
		if (r->at >= r->n) {
			r->bad = 1;
			return 0;
		}
		unsigned char c = r->p[r->at++];
		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	r->bad = 1;
	return 0;
}

/* -------------------------------------------------------------- encoding */

/* The payload: the columns one after the other, to b. */
static void put_payload(struct bbuf *b, const struct pl_requests *rq)
{
	for (size_t i = 0; i < rq->nerrors; i++) {
		size_t l = strlen(rq->errors[i]);
		put_varint(b, l);
		put(b, rq->errors[i], l);
	}
	for (size_t i = 0; i < rq->n; i++)
		put_varint(b, rq->error[i]);
	if (rq->columns & PL_RQ_INPUT)
		for (size_t i = 0; i < rq->n; i++)
			put_zigzag(b, rq->input_tokens[i]);
	if (rq->columns & PL_RQ_OUTPUT)
		for (size_t i = 0; i < rq->n; i++)
			put_zigzag(b, rq->output_tokens[i]);
	if (rq->columns & PL_RQ_TTFT)
		put_doubles(b, rq->ttft, rq->n);
	if (rq->columns & PL_RQ_E2EL)
		put_doubles(b, rq->e2el, rq->n);
	if (rq->columns & PL_RQ_ITLMEAN)
		put_doubles(b, rq->itl_mean, rq->n);
	if (rq->columns & PL_RQ_GAPS) {
		for (size_t i = 0; i < rq->n; i++)
			put_varint(b, rq->gap_off[i + 1] - rq->gap_off[i]);
		put_doubles(b, rq->gaps, rq->ngaps);
	}
}

int pl_store_requests_encode(struct pl_requests *rq, struct pl_error *err)
{
	struct bbuf count = {.to = TO_COUNT}, out = {0}, z = {.to = TO_DEFLATE};
	z_stream zs;
	uLong bound;
	int ok;

	put_payload(&count, rq);
	put(&out, MAGIC, 4);
	put(&out, &(unsigned char){FORMAT}, 1);
	put_varint(&out, rq->n);
	put_varint(&out, rq->columns);
	put_varint(&out, rq->ngaps);
	put_varint(&out, rq->nerrors);
	put_varint(&out, count.total);
	if (count.oom || out.oom || count.total >= RAW_MAX) {
		free(out.p);
		return pl_error_set(err, PL_ENOMEM, "out of memory (while encoding requests)");
	}
	/* level 9 as compress2(..., 9) made it: the same stream, byte for byte */
	memset(&zs, 0, sizeof(zs));
	bound = compressBound((uLong)count.total);
	if (PL_ALLOC_GROW(out.p, out.n + bound, out.cap) || !(z.p = malloc(WINDOW)) ||
	    deflateInit(&zs, 9) != Z_OK) {
		free(z.p);
		free(out.p);
		return pl_error_set(err, PL_ENOMEM, "out of memory (while compressing requests)");
	}
	z.cap = WINDOW;
	z.zs = &zs;
	zs.next_out = out.p + out.n;
	zs.avail_out = (uInt)bound;
	put_payload(&z, rq);
	if (!z.oom)
		drain(&z, Z_FINISH);
	ok = !z.oom && z.total == count.total;
	out.n += bound - zs.avail_out;
	deflateEnd(&zs);
	free(z.p);
	if (!ok) {
		free(out.p);
		return pl_error_set(err, PL_ENOMEM, "out of memory (while compressing requests)");
	}
	free(rq->blob);
	rq->blob = out.p;
	rq->nblob = out.n;
	return 0;
}

int pl_store_requests_seal(struct pl_requests *rq, struct pl_error *err)
{
	int rc;

	if (rq->blob)
		return 0;
	if ((rc = pl_store_requests_encode(rq, err)))
		return rc;
	free(rq->gaps); /* in the blob now; the counts stay */
	rq->gaps = NULL;
	rq->gap_cap = 0;
	return 0;
}

static int damaged(struct pl_error *err, const char *what)
{
	return pl_error_set(err, PL_EINVALID, "the requests blob is damaged (%s)", what);
}

/* Allocates the per-request columns of out for n requests. */
static int alloc_columns(struct pl_requests *out, size_t n, size_t ngaps)
{
	size_t m = n ? n : 1;

	out->error = calloc(m, sizeof(*out->error));
	out->input_tokens = malloc(m * sizeof(int64_t));
	out->output_tokens = malloc(m * sizeof(int64_t));
	out->ttft = malloc(m * sizeof(double));
	out->e2el = malloc(m * sizeof(double));
	out->itl_mean = malloc(m * sizeof(double));
	out->gap_off = calloc(n + 1, sizeof(size_t));
	out->gaps = ngaps > SIZE_MAX / sizeof(double) ? NULL : pl_alloc_large(ngaps * sizeof(double));
	if (!out->error || !out->input_tokens || !out->output_tokens || !out->ttft || !out->e2el ||
	    !out->itl_mean || !out->gap_off || !out->gaps)
		return PL_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		out->input_tokens[i] = out->output_tokens[i] = -1;
		out->ttft[i] = out->e2el[i] = out->itl_mean[i] = NAN;
	}
	out->cap = n;
	out->gap_cap = ngaps;
	return 0;
}

/* The payload read as it inflates, a window at a time, straight into the
 * columns: no buffer of the whole inflated payload (18.8 MB for the bench
 * file's 2.3 million gaps) and, read from the store, no copy of the whole
 * blob either (its compressed bytes come from SQLite in pieces). */
#define ZWIN ((size_t)1 << 16)

struct zin {
	z_stream zs;                /* the inflater */
	const unsigned char *mem;   /* compressed bytes in memory, or NULL */
	size_t memn;                /* their count */
	sqlite3_blob *bh;           /* else the stored blob, read in pieces */
	size_t boff, bn;            /* next byte of the blob to read, its size */
	unsigned char in[ZWIN];     /* compressed bytes read from bh */
	unsigned char win[ZWIN];    /* inflated bytes */
	size_t at, n;               /* next unread byte of win, bytes in win */
	uint64_t left;              /* payload bytes not yet inflated */
	int bad;                    /* sticky: damaged (short, long, not zlib) */
	int init;                   /* inflateInit succeeded */
};

/* Gives the inflater the next piece of a stored blob once it has used the
 * last. Returns 1, or 0 when SQLite cannot read it. */
static int zin_feed(struct zin *z)
{
	size_t k;

	if (z->zs.avail_in > 0 || !z->bh || z->boff >= z->bn)
		return 1;
	k = z->bn - z->boff < ZWIN ? z->bn - z->boff : ZWIN;
	if (sqlite3_blob_read(z->bh, z->in, (int)k, (int)z->boff) != SQLITE_OK)
		return 0;
	z->zs.next_in = z->in;
	z->zs.avail_in = (uInt)k;
	z->boff += k;
	return 1;
}

/* Fills z->win with the next inflated bytes. Returns 1, or 0 (z->bad set)
 * when none are left or the stream is damaged. */
static int zin_fill(struct zin *z)
{
	size_t want = z->left < ZWIN ? (size_t)z->left : ZWIN;
	int zr;

	if (z->bad || want == 0) {
		z->bad = 1;
		return 0;
	}
	z->zs.next_out = z->win;
	z->zs.avail_out = (uInt)want;
	while (z->zs.avail_out > 0) {
		if (!zin_feed(z))
			break;
		zr = inflate(&z->zs, Z_NO_FLUSH);
		if (zr == Z_STREAM_END || (zr != Z_OK && zr != Z_BUF_ERROR) ||
		    (zr == Z_BUF_ERROR && z->zs.avail_in == 0))
			break;
	}
	z->n = want - z->zs.avail_out;
	z->at = 0;
	z->left -= z->n;
	if (z->n == 0) {
		z->bad = 1;
		return 0;
	}
	return 1;
}

static int zin_byte(struct zin *z, unsigned char *c)
{
	if (z->at == z->n && !zin_fill(z))
		return 0;
	*c = z->win[z->at++];
	return 1;
}

static uint64_t zin_varint(struct zin *z)
{
	uint64_t v = 0;
	unsigned char c;

	for (int shift = 0; shift < 64; shift += 7) {
		if (!zin_byte(z, &c))
			return 0;
		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	z->bad = 1;
	return 0;
}

static int64_t zin_zigzag(struct zin *z)
{
	uint64_t u = zin_varint(z);

	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* n doubles from their 8 byte planes, each plane merged into its byte of
 * every value as it inflates (plane 0 stores, the others or in). */
static void zin_doubles(struct zin *z, double *v, size_t n)
{
	if (z->bad || n > z->left / 8 + (z->n - z->at)) {
		z->bad = 1;
		return;
	}
	for (int plane = 0; plane < 8; plane++) {
		for (size_t i = 0; i < n;) {
			const unsigned char *w;
			size_t k;
			if (z->at == z->n && !zin_fill(z))
				return;
			k = z->n - z->at < n - i ? z->n - z->at : n - i;
			w = z->win + z->at;
			for (size_t j = 0; j < k; j++) {
				uint64_t u = 0;
				if (plane)
					memcpy(&u, &v[i + j], 8);
				u |= (uint64_t)w[j] << (8 * plane);
				memcpy(&v[i + j], &u, 8);
			}
			z->at += k;
			i += k;
		}
	}
}

/* 1 when every payload byte was read and the zlib stream ends there; 0
 * otherwise (z->bad set when the stream is at fault). */
static int zin_done(struct zin *z)
{
	int zr;
	unsigned char spare;

	if (z->bad || z->at != z->n || z->left != 0)
		return 0;
	/* the stream must end here: one more byte would be damage */
	z->zs.next_out = &spare;
	z->zs.avail_out = 1;
	for (;;) {
		if (!zin_feed(z))
			break;
		zr = inflate(&z->zs, Z_NO_FLUSH);
		if (zr == Z_STREAM_END && z->zs.avail_out == 1)
			return 1;
		if (zr != Z_OK || z->zs.avail_out == 0)
			break;
	}
	z->bad = 1; /* cut short, longer than its header says, or not zlib */
	return 0;
}

static int decode_payload(struct zin *r, struct pl_requests *out, struct pl_error *err)
{
	size_t n = out->n;

	for (size_t i = 0; i < out->nerrors && !r->bad; i++) {
		uint64_t l = zin_varint(r);
		if (r->bad || l > r->left + (r->n - r->at))
			return damaged(err, "an error text");
		out->errors[i] = malloc((size_t)l + 1);
		if (!out->errors[i])
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		for (size_t k = 0; k < l; k++)
			if (!zin_byte(r, (unsigned char *)&out->errors[i][k]))
				return damaged(err, "an error text");
		out->errors[i][l] = '\0';
	}
	for (size_t i = 0; i < n && !r->bad; i++) {
		uint64_t e = zin_varint(r);
		if (e > out->nerrors)
			return damaged(err, "an error index");
		out->error[i] = (uint32_t)e;
	}
	if (out->columns & PL_RQ_INPUT)
		for (size_t i = 0; i < n; i++)
			out->input_tokens[i] = zin_zigzag(r);
	if (out->columns & PL_RQ_OUTPUT)
		for (size_t i = 0; i < n; i++)
			out->output_tokens[i] = zin_zigzag(r);
	if (out->columns & PL_RQ_TTFT)
		zin_doubles(r, out->ttft, n);
	if (out->columns & PL_RQ_E2EL)
		zin_doubles(r, out->e2el, n);
	if (out->columns & PL_RQ_ITLMEAN)
		zin_doubles(r, out->itl_mean, n);
	if (out->columns & PL_RQ_GAPS) {
		for (size_t i = 0; i < n && !r->bad; i++) {
			uint64_t g = zin_varint(r);
			if (g > out->ngaps - out->gap_off[i])
				return damaged(err, "the gap counts");
			out->gap_off[i + 1] = out->gap_off[i] + (size_t)g;
		}
		if (!r->bad && out->gap_off[n] != out->ngaps)
			return damaged(err, "the gap counts");
		zin_doubles(r, out->gaps, out->ngaps);
	}
	if (!zin_done(r))
		return damaged(err, r->bad ? "it does not inflate" : "the columns");
	return 0;
}

/* The header of blob[0..n) (at least its first hn bytes: the whole blob, or
 * its first bytes read from the store) -> out's counts; *at gets the offset
 * of the zlib stream and *rawn the payload's size. */
static int decode_header(const unsigned char *blob, size_t hn, struct pl_requests *out,
                         size_t *nerr, size_t *at, uint64_t *rawn, struct pl_error *err)
{
	struct reader h = {blob, hn, 0, 0};
	uint64_t nreq, cols, ngaps, ne;

	if (hn < 5 || memcmp(blob, MAGIC, 4) != 0)
		return pl_error_set(err, PL_EINVALID, "not a requests blob (no PLRQ header)");
	if (blob[4] != FORMAT)
		return pl_error_set(err, PL_EINVALID,
		                    "requests blob format %u is not known to this perfledger (1 is)",
		                    blob[4]);
	h.at = 5;
	nreq = get_varint(&h);
	cols = get_varint(&h);
	ngaps = get_varint(&h);
	ne = get_varint(&h);
	*rawn = get_varint(&h);
	if (h.bad || *rawn >= RAW_MAX || nreq > *rawn || ne > *rawn || ngaps > *rawn / 8 ||
	    cols > 0x3f)
		return damaged(err, "its header");
	out->n = (size_t)nreq;
	out->columns = (unsigned)cols;
	out->ngaps = (size_t)ngaps;
	*nerr = (size_t)ne;
	*at = h.at;
	return 0;
}

/* Decodes the blob whose first hn bytes are head (all of it when bh is
 * NULL, else the rest is read from bh, bn bytes in all) into out, without
 * keeping the blob. */
static int decode_from(const unsigned char *head, size_t hn, sqlite3_blob *bh, size_t bn,
                       struct pl_requests *out, struct pl_error *err)
{
	struct zin *z;
	size_t nerr = 0, at = 0;
	uint64_t rawn = 0;
	int rc;

	pl_requests_init(out);
	if ((rc = decode_header(head, hn, out, &nerr, &at, &rawn, err))) {
		pl_requests_init(out);
		return rc;
	}
	if (!(z = calloc(1, sizeof(*z))) || inflateInit(&z->zs) != Z_OK ||
	    alloc_columns(out, out->n, out->ngaps) ||
	    (nerr && !(out->errors = calloc(nerr, sizeof(char *))))) {
		if (z)
			inflateEnd(&z->zs);
		free(z);
		pl_requests_release(out);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	out->nerrors = nerr;
	z->left = rawn;
	if (bh) {
		z->bh = bh;
		z->boff = at;
		z->bn = bn;
	} else {
		z->zs.next_in = (Bytef *)(uintptr_t)(head + at);
		z->zs.avail_in = (uInt)(hn - at);
	}
	rc = decode_payload(z, out, err);
	inflateEnd(&z->zs);
	free(z);
	if (rc)
		pl_requests_release(out); /* errors[] may be partly filled: count what is there */
	return rc;
}

int pl_store_requests_decode(const void *blob, size_t n, struct pl_requests *out,
                             struct pl_error *err)
{
	int rc;

	if (n > (size_t)UINT32_MAX) {
		pl_requests_init(out);
		return damaged(err, "its size");
	}
	if ((rc = decode_from(blob, n, NULL, n, out, err)))
		return rc;
	if (!(out->blob = malloc(n ? n : 1))) {
		pl_requests_release(out);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	memcpy(out->blob, blob, n);
	out->nblob = n;
	return 0;
}

/* ----------------------------------------------------------------- table */

static int prep(struct pl_store *st, const char *sql, sqlite3_stmt **s, const char *doing,
                struct pl_error *err)
{
	if (sqlite3_prepare_v2(st->db, sql, -1, s, NULL) != SQLITE_OK) {
		*s = NULL;
		return pl_store_fail(st, err, doing);
	}
	return 0;
}

/* Writes blob[0..n) into the zeros of run run_id's row, in pieces. */
static int write_blob(struct pl_store *st, long long run_id, const unsigned char *blob, size_t n,
                      struct pl_error *err)
{
	sqlite3_blob *bh = NULL;
	int rc = 0;

	if (n == 0)
		return 0;
	if (sqlite3_blob_open(st->db, "main", "run_requests", "blob", run_id, 1, &bh) != SQLITE_OK)
		rc = pl_store_fail(st, err, "storing requests");
	for (size_t at = 0; rc == 0 && at < n; at += ZWIN) {
		size_t k = n - at < ZWIN ? n - at : ZWIN;
		if (sqlite3_blob_write(bh, blob + at, (int)k, (int)at) != SQLITE_OK)
			rc = pl_store_fail(st, err, "storing requests");
	}
	if (sqlite3_blob_close(bh) != SQLITE_OK && rc == 0)
		rc = pl_store_fail(st, err, "storing requests");
	return rc;
}

int pl_store_write_requests(struct pl_store *st, long long run_id, struct pl_requests *rq,
                            struct pl_error *err)
{
	struct pl_requests check;
	long long n, failed, gaps;
	sqlite3_stmt *s;
	int rc;

	if (!rq)
		return 0;
	if (rq->blob && rq->error) {
		/* encoded from these columns (pl_store_requests_seal) */
		n = (long long)rq->n;
		failed = (long long)pl_requests_failed(rq);
		gaps = (long long)rq->ngaps;
	} else if (rq->blob) {
		/* an export line's bytes (its columns are not decoded): stored
		 * as they are once they decode, with the counts they hold */
		if ((rc = pl_store_requests_decode(rq->blob, rq->nblob, &check, err)))
			return rc;
		n = (long long)check.n;
		failed = (long long)pl_requests_failed(&check);
		gaps = (long long)check.ngaps;
		pl_requests_release(&check);
	} else if ((rc = pl_store_requests_seal(rq, err))) {
		return rc;
	} else {
		n = (long long)rq->n;
		failed = (long long)pl_requests_failed(rq);
		gaps = (long long)rq->ngaps;
	}
	if (rq->nblob > (size_t)INT32_MAX)
		return pl_error_set(err, PL_ENOMEM, "out of memory (requests of %zu bytes)", rq->nblob);
	if ((rc = prep(st, "INSERT OR REPLACE INTO run_requests (run_id, requests, failed, gaps, blob) "
	                   "VALUES (?1, ?2, ?3, ?4, ?5)",
	               &s, "storing requests", err)))
		return rc;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int64(s, 2, n);
	sqlite3_bind_int64(s, 3, failed);
	sqlite3_bind_int64(s, 4, gaps);
	/* zeros first, then the bytes in place: binding the blob would copy
	 * all of it into the record before its pages are written (15 MB for
	 * the bench file) */
	sqlite3_bind_zeroblob(s, 5, (int)rq->nblob);
	if (sqlite3_step(s) != SQLITE_DONE)
		rc = pl_store_fail(st, err, "storing requests");
	sqlite3_finalize(s);
	return rc ? rc : write_blob(st, run_id, rq->blob, rq->nblob, err);
}

int pl_store_read_requests(struct pl_store *st, long long run_id, struct pl_requests **out,
                           struct pl_error *err)
{
	sqlite3_stmt *s;
	int rc = 0, step;

	*out = NULL;
	if ((rc = prep(st, "SELECT blob FROM run_requests WHERE run_id = ?1", &s, "reading requests",
	               err)))
		return rc;
	sqlite3_bind_int64(s, 1, run_id);
	step = sqlite3_step(s);
	if (step == SQLITE_ROW) {
		struct pl_requests *rq = pl_requests_new();
		if (!rq)
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		else if ((rc = pl_store_requests_decode(sqlite3_column_blob(s, 0),
		                                        (size_t)sqlite3_column_bytes(s, 0), rq, err)))
			pl_requests_free(rq);
		else
			*out = rq;
	} else if (step != SQLITE_DONE) {
		rc = pl_store_fail(st, err, "reading requests");
	}
	sqlite3_finalize(s);
	return rc;
}

int pl_store_read_request_columns(struct pl_store *st, long long run_id,
                                  struct pl_requests **out, struct pl_error *err)
{
	struct pl_request_counts c;
	struct pl_requests *rq = NULL;
	sqlite3_blob *bh = NULL;
	unsigned char head[64];
	char sql[64];
	size_t hn;
	int rc, restored, cache = 0;

	*out = NULL;
	if ((rc = pl_store_request_counts(st, run_id, &c, err)) || !c.found)
		return rc;
	if (c.bytes < 0 || c.bytes > (long long)INT32_MAX)
		return damaged(err, "its size");
	hn = (size_t)c.bytes < sizeof(head) ? (size_t)c.bytes : sizeof(head);
	/* each overflow page is read once: a small page cache meanwhile (the
	 * 8 MiB one filled with pages never read again: 2,000 page faults,
	 * a quarter of the time left), the store's own afterwards */
	if ((rc = pl_store_query_int(st, "PRAGMA cache_size", "reading requests", &cache, err)) ||
	    (rc = pl_store_exec_sql(st, "PRAGMA cache_size = -256", "reading requests", err)))
		return rc;
	if (sqlite3_blob_open(st->db, "main", "run_requests", "blob", run_id, 0, &bh) != SQLITE_OK ||
	    sqlite3_blob_read(bh, head, (int)hn, 0) != SQLITE_OK)
		rc = pl_store_fail(st, err, "reading requests");
	else if (!(rq = pl_requests_new()))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	else if ((rc = decode_from(head, hn, bh, (size_t)c.bytes, rq, err)))
		pl_requests_free(rq);
	sqlite3_blob_close(bh);
	snprintf(sql, sizeof(sql), "PRAGMA cache_size = %d", cache);
	if ((restored = pl_store_exec_sql(st, sql, "reading requests", rc ? NULL : err)) && !rc) {
		pl_requests_free(rq);
		return restored;
	}
	if (!rc)
		*out = rq;
	return rc;
}

int pl_store_request_counts(struct pl_store *st, long long run_id,
                            struct pl_request_counts *out, struct pl_error *err)
{
	sqlite3_stmt *s;
	int rc = 0, step;

	memset(out, 0, sizeof(*out));
	if ((rc = prep(st, "SELECT requests, failed, gaps, length(blob) FROM run_requests "
	                   "WHERE run_id = ?1",
	               &s, "reading requests", err)))
		return rc;
	sqlite3_bind_int64(s, 1, run_id);
	step = sqlite3_step(s);
	if (step == SQLITE_ROW) {
		out->found = 1;
		out->requests = sqlite3_column_int64(s, 0);
		out->failed = sqlite3_column_int64(s, 1);
		out->gaps = sqlite3_column_int64(s, 2);
		out->bytes = sqlite3_column_int64(s, 3);
	} else if (step != SQLITE_DONE) {
		rc = pl_store_fail(st, err, "reading requests");
	}
	sqlite3_finalize(s);
	return rc;
}

int pl_store_delete_requests(struct pl_store *st, long long run_id, struct pl_error *err)
{
	sqlite3_stmt *s;
	int rc;

	if ((rc = prep(st, "DELETE FROM run_requests WHERE run_id = ?1", &s, "purging a run", err)))
		return rc;
	sqlite3_bind_int64(s, 1, run_id);
	if (sqlite3_step(s) != SQLITE_DONE)
		rc = pl_store_fail(st, err, "purging a run");
	sqlite3_finalize(s);
	return rc;
}

int pl_store_has_requests(struct pl_store *st, int *any, struct pl_error *err)
{
	*any = 0;
	return pl_store_query_int(st, "SELECT EXISTS (SELECT 1 FROM run_requests)", "reading requests",
	                          any, err);
}
