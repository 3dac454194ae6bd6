/*
 * requests.c — the store side of a run's requests (migration 014): the
 * columnar encoding of store/requests.h, zlib-compressed, and the
 * run_requests table (write, read, counts, delete). Statements are
 * prepared per call: a run's requests are written once at import and read
 * by `requests`, `show` and `export`, one run at a time.
 */
#include <math.h>
#include <stdint.h>
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

struct bbuf {
	unsigned char *p; /* bytes, owned */
	size_t n, cap;    /* used, allocated */
	int oom;          /* sticky: an append failed */
};

static void put(struct bbuf *b, const void *src, size_t n)
{
	if (b->oom || n == 0)
		return;
	if (PL_ALLOC_GROW(b->p, b->n + n, b->cap)) {
		b->oom = 1;
		return;
	}
	memcpy(b->p + b->n, src, n);
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
	unsigned char *dst;

	put(b, NULL, 0);
	if (b->oom || n == 0)
		return;
	if (PL_ALLOC_GROW(b->p, b->n + 8 * n, b->cap)) {
		b->oom = 1;
		return;
	}
	dst = b->p + b->n;
	for (size_t i = 0; i < n; i++) {
		uint64_t u;
		memcpy(&u, &v[i], 8);
		for (int plane = 0; plane < 8; plane++)
			dst[(size_t)plane * n + i] = (unsigned char)(u >> (8 * plane));
	}
	b->n += 8 * n;
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

static int64_t get_zigzag(struct reader *r)
{
	uint64_t u = get_varint(r);

	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static void get_doubles(struct reader *r, double *v, size_t n)
{
	if (r->bad || n > (r->n - r->at) / 8) {
		r->bad = 1;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t u = 0;
		for (int plane = 0; plane < 8; plane++)
			u |= (uint64_t)r->p[r->at + (size_t)plane * n + i] << (8 * plane);
		memcpy(&v[i], &u, 8);
	}
	r->at += 8 * n;
}

/* -------------------------------------------------------------- encoding */

int pl_store_requests_encode(struct pl_requests *rq, struct pl_error *err)
{
	struct bbuf raw = {0}, out = {0};
	uLongf zlen;
	unsigned char *z;

	for (size_t i = 0; i < rq->nerrors; i++) {
		size_t l = strlen(rq->errors[i]);
		put_varint(&raw, l);
		put(&raw, rq->errors[i], l);
	}
	for (size_t i = 0; i < rq->n; i++)
		put_varint(&raw, rq->error[i]);
	if (rq->columns & PL_RQ_INPUT)
		for (size_t i = 0; i < rq->n; i++)
			put_zigzag(&raw, rq->input_tokens[i]);
	if (rq->columns & PL_RQ_OUTPUT)
		for (size_t i = 0; i < rq->n; i++)
			put_zigzag(&raw, rq->output_tokens[i]);
	if (rq->columns & PL_RQ_TTFT)
		put_doubles(&raw, rq->ttft, rq->n);
	if (rq->columns & PL_RQ_E2EL)
		put_doubles(&raw, rq->e2el, rq->n);
	if (rq->columns & PL_RQ_ITLMEAN)
		put_doubles(&raw, rq->itl_mean, rq->n);
	if (rq->columns & PL_RQ_GAPS) {
		for (size_t i = 0; i < rq->n; i++)
			put_varint(&raw, rq->gap_off[i + 1] - rq->gap_off[i]);
		put_doubles(&raw, rq->gaps, rq->ngaps);
	}
	put(&out, MAGIC, 4);
	put(&out, &(unsigned char){FORMAT}, 1);
	put_varint(&out, rq->n);
	put_varint(&out, rq->columns);
	put_varint(&out, rq->ngaps);
	put_varint(&out, rq->nerrors);
	put_varint(&out, raw.n);
	zlen = compressBound((uLong)raw.n);
	if (raw.oom || out.oom || raw.n >= RAW_MAX || !(z = malloc(zlen))) {
		free(raw.p);
		free(out.p);
		return pl_error_set(err, PL_ENOMEM, "out of memory (while encoding requests)");
	}
	if (compress2(z, &zlen, raw.p ? raw.p : (const Bytef *)"", (uLong)raw.n, 9) != Z_OK) {
		free(z);
		free(raw.p);
		free(out.p);
		return pl_error_set(err, PL_ENOMEM, "out of memory (while compressing requests)");
	}
	put(&out, z, zlen);
	free(z);
	free(raw.p);
	if (out.oom) {
		free(out.p);
		return pl_error_set(err, PL_ENOMEM, "out of memory (while encoding requests)");
	}
	free(rq->blob);
	rq->blob = out.p;
	rq->nblob = out.n;
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
	out->gaps = malloc((ngaps ? ngaps : 1) * sizeof(double));
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

static int decode_payload(struct reader *r, struct pl_requests *out, struct pl_error *err)
{
	size_t n = out->n;

	for (size_t i = 0; i < out->nerrors && !r->bad; i++) {
		uint64_t l = get_varint(r);
		if (r->bad || l > r->n - r->at)
			return damaged(err, "an error text");
		out->errors[i] = malloc((size_t)l + 1);
		if (!out->errors[i])
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		memcpy(out->errors[i], r->p + r->at, (size_t)l);
		out->errors[i][l] = '\0';
		r->at += (size_t)l;
	}
	for (size_t i = 0; i < n && !r->bad; i++) {
		uint64_t e = get_varint(r);
		if (e > out->nerrors)
			return damaged(err, "an error index");
		out->error[i] = (uint32_t)e;
	}
	if (out->columns & PL_RQ_INPUT)
		for (size_t i = 0; i < n; i++)
			out->input_tokens[i] = get_zigzag(r);
	if (out->columns & PL_RQ_OUTPUT)
		for (size_t i = 0; i < n; i++)
			out->output_tokens[i] = get_zigzag(r);
	if (out->columns & PL_RQ_TTFT)
		get_doubles(r, out->ttft, n);
	if (out->columns & PL_RQ_E2EL)
		get_doubles(r, out->e2el, n);
	if (out->columns & PL_RQ_ITLMEAN)
		get_doubles(r, out->itl_mean, n);
	if (out->columns & PL_RQ_GAPS) {
		for (size_t i = 0; i < n && !r->bad; i++) {
			uint64_t g = get_varint(r);
			if (g > out->ngaps - out->gap_off[i])
				return damaged(err, "the gap counts");
			out->gap_off[i + 1] = out->gap_off[i] + (size_t)g;
		}
		if (!r->bad && out->gap_off[n] != out->ngaps)
			return damaged(err, "the gap counts");
		get_doubles(r, out->gaps, out->ngaps);
	}
	if (r->bad || r->at != r->n)
		return damaged(err, "the columns");
	return 0;
}

int pl_store_requests_decode(const void *blob, size_t n, struct pl_requests *out,
                             struct pl_error *err)
{
	struct reader h = {blob, n, 0, 0}, r;
	uint64_t nreq, cols, ngaps, nerr, rawn;
	unsigned char *raw = NULL;
	uLongf got;
	int rc;

	pl_requests_init(out);
	if (n < 5 || memcmp(blob, MAGIC, 4) != 0)
		return pl_error_set(err, PL_EINVALID, "not a requests blob (no PLRQ header)");
	if (((const unsigned char *)blob)[4] != FORMAT)
		return pl_error_set(err, PL_EINVALID,
		                    "requests blob format %u is not known to this perfledger (1 is)",
		                    ((const unsigned char *)blob)[4]);
	h.at = 5;
	nreq = get_varint(&h);
	cols = get_varint(&h);
	ngaps = get_varint(&h);
	nerr = get_varint(&h);
	rawn = get_varint(&h);
	if (h.bad || rawn >= RAW_MAX || nreq > rawn || nerr > rawn || ngaps > rawn / 8 ||
	    cols > 0x3f)
		return damaged(err, "its header");
	if (!(raw = malloc(rawn ? (size_t)rawn : 1)))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	got = (uLongf)rawn;
	if (uncompress(raw, &got, h.p + h.at, (uLong)(n - h.at)) != Z_OK || got != rawn) {
		free(raw);
		return damaged(err, "it does not inflate");
	}
	out->n = (size_t)nreq;
	out->columns = (unsigned)cols;
	out->ngaps = (size_t)ngaps;
	if (alloc_columns(out, out->n, out->ngaps) ||
	    (nerr && !(out->errors = calloc((size_t)nerr, sizeof(char *))))) {
		free(raw);
		pl_requests_release(out);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	out->nerrors = (size_t)nerr;
	r = (struct reader){raw, (size_t)rawn, 0, 0};
	rc = decode_payload(&r, out, err);
	free(raw);
	if (!rc && !(out->blob = malloc(n)))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc) {
		/* errors[] may be partly filled: count what is there */
		pl_requests_release(out);
		return rc;
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

int pl_store_write_requests(struct pl_store *st, long long run_id, struct pl_requests *rq,
                            struct pl_error *err)
{
	struct pl_requests check;
	long long n, failed, gaps;
	sqlite3_stmt *s;
	int rc;

	if (!rq)
		return 0;
	if (rq->blob) {
		/* an export line's bytes (its columns are not decoded): stored
		 * as they are once they decode, with the counts they hold */
		if ((rc = pl_store_requests_decode(rq->blob, rq->nblob, &check, err)))
			return rc;
		n = (long long)check.n;
		failed = (long long)pl_requests_failed(&check);
		gaps = (long long)check.ngaps;
		pl_requests_release(&check);
	} else if ((rc = pl_store_requests_encode(rq, err))) {
		return rc;
	} else {
		n = (long long)rq->n;
		failed = (long long)pl_requests_failed(rq);
		gaps = (long long)rq->ngaps;
	}
	if ((rc = prep(st, "INSERT OR REPLACE INTO run_requests (run_id, requests, failed, gaps, blob) "
	                   "VALUES (?1, ?2, ?3, ?4, ?5)",
	               &s, "storing requests", err)))
		return rc;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int64(s, 2, n);
	sqlite3_bind_int64(s, 3, failed);
	sqlite3_bind_int64(s, 4, gaps);
	sqlite3_bind_blob(s, 5, rq->blob, (int)rq->nblob, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE)
		rc = pl_store_fail(st, err, "storing requests");
	sqlite3_finalize(s);
	return rc;
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
