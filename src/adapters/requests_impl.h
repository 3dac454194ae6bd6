/*
 * requests_impl.h — readers of per-request data inside the adapters layer
 * (private to src/adapters/). Each fills run->requests (core/requests.h)
 * from one tool's layout and checks it (pl_requests_check): a bad request
 * refuses the record, naming the request by its 0-based index.
 */
#ifndef PL_REQUESTS_IMPL_H
#define PL_REQUESTS_IMPL_H

#include <cjson/cJSON.h>

#include "core/error.h"
#include "core/model.h"
#include "core/requests.h"

/* vLLM --save-detailed / SGLang --output-details arrays of obj (ttfts,
 * itls, input_lens, output_lens, errors) -> run->requests. No ttfts: 0 and
 * nothing set. Returns 0, PL_EINVALID (arrays of different lengths, a
 * value of the wrong type, a bad request: err names it) or PL_ENOMEM. */
int pl_requests_from_vllm(const cJSON *obj, struct pl_run *run, struct pl_error *err);

/* The "requests" member of an export line (base64 of the stored blob) ->
 * run->requests with only its blob set (the store decodes and checks it).
 * Absent: 0. Returns 0, PL_EINVALID (not a string, not base64) or PL_ENOMEM. */
int pl_requests_from_export(const cJSON *obj, struct pl_run *run, struct pl_error *err);

/* The top-level "itls" array of a large detailed result, read by a
 * streaming parser (requests_stream.c) instead of into the JSON tree. */
struct pl_gap_capture {
	double *gaps; /* every request's gaps, request by request, s; owned */
	size_t ngaps; /* entries in gaps */
	size_t *off;  /* n + 1 offsets into gaps; owned */
	size_t n;     /* requests (entries of "itls") */
	char *rest;   /* the document without "itls", as JSON text (NUL-ended); owned */
	size_t nrest; /* bytes in rest */
};

/* When buf[0..len) is at least the stream minimum (pl_adapters_set_stream_min)
 * and one JSON object holding a top-level "itls" list of lists of numbers
 * (or nulls for requests without gaps), fills out and returns 1; else
 * (smaller, another shape, any syntax the tree parser would word, out of
 * memory) returns 0 with out empty: parse buf as a tree then. */
int pl_gap_capture_read(const char *buf, size_t len, struct pl_gap_capture *out);

/* The end of a capture fed piece by piece (adapters.h, pl_gap_stream_*):
 * as pl_gap_capture_read() for the bytes fed, which must be at least the
 * stream minimum. Returns 1 with out filled (taken over from s), else 0. */
struct pl_gap_stream;
int pl_gap_stream_finish(struct pl_gap_stream *s, struct pl_gap_capture *out);

/* Gives rq (made by pl_requests_from_vllm from the document without
 * "itls") the captured gaps, taking them over from cap (a failed
 * request's dropped, as the tree path does), and checks rq again. Returns
 * 0, or 1 when they do not fit (no requests, another count, a failed
 * check: err may be set): parse the original bytes as a tree then. */
int pl_gap_capture_attach(struct pl_gap_capture *cap, struct pl_requests *rq, struct pl_error *err);

/* Frees what c owns; c is empty afterwards. */
void pl_gap_capture_release(struct pl_gap_capture *c);

#endif
