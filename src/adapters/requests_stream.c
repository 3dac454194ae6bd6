/*
 * requests_stream.c — the inter-token gaps of a large vLLM / SGLang
 * detailed result read without a JSON tree.
 *
 * A `--save-detailed` file's bulk is its "itls" array: millions of numbers,
 * each of which would be a node of the parsed tree (a 52 MB file of 17,190
 * requests: 2.3 million nodes, 305 MB of memory; without "itls" the same
 * import needs 24 MB). For a file of at least the stream minimum whose top
 * level is one object, yajl (a streaming parser) reads the bytes once:
 * the top-level "itls" array goes straight into a column of doubles, and
 * every other member is written again, unchanged (numbers as their text),
 * into a small JSON text that the adapters then parse as usual. After the
 * adapter has made the run's requests from the other arrays, the captured
 * gaps are attached to them (requests_impl.h). Anything this path does not
 * expect (a syntax error, NaN, a gap that is not a number, "itls" twice or
 * not a list of lists, counts that disagree) abandons it: the registry then
 * parses the original bytes as before, so every message stays the same.
 */
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>

#include "adapters/adapters.h"
#include "adapters/requests_impl.h"
#include "core/requests.h"
#include "util/alloc.h"

static size_t stream_min = (size_t)4 << 20;

static size_t streamed; /* files read this way */

void pl_adapters_set_stream_min(size_t bytes)
{
	stream_min = bytes;
}

size_t pl_adapters_streamed(void)
{
	return streamed;
}

struct cap {
	yajl_gen g;           /* the rest of the document */
	int depth;            /* containers open */
	int key_itls;         /* the last top-level key was "itls" */
	int in_itls;          /* 1 inside the itls array, 2 inside one request's list */
	int seen;             /* itls captured once already */
	struct pl_gap_capture *out;
	size_t cap_gaps, cap_off;
};

static int push_off(struct cap *c)
{
	struct pl_gap_capture *o = c->out;

	if (PL_ALLOC_GROW(o->off, o->n + 2, c->cap_off))
		return 0;
	o->off[o->n + 1] = o->ngaps;
	o->n++;
	return 1;
}

static int cb_null(void *ctx)
{
	struct cap *c = ctx;

	if (c->in_itls == 1) /* a request without gaps */
		return push_off(c);
	if (c->in_itls)
		return 0;
	c->key_itls = 0;
	return yajl_gen_null(c->g) == yajl_gen_status_ok;
}

static int cb_bool(void *ctx, int v)
{
	struct cap *c = ctx;

	if (c->in_itls)
		return 0;
	c->key_itls = 0;
	return yajl_gen_bool(c->g, v) == yajl_gen_status_ok;
}

static int cb_number(void *ctx, const char *s, size_t n)
{
	struct cap *c = ctx;
	struct pl_gap_capture *o = c->out;
	char tmp[64];

	if (c->in_itls == 2) {
		if (n >= sizeof(tmp))
			return 0;
		memcpy(tmp, s, n);
		tmp[n] = '\0';
		if (PL_ALLOC_GROW(o->gaps, o->ngaps + 1, c->cap_gaps))
			return 0;
		o->gaps[o->ngaps++] = strtod(tmp, NULL);
		return 1;
	}
	if (c->in_itls)
		return 0;
	c->key_itls = 0;
	return yajl_gen_number(c->g, s, n) == yajl_gen_status_ok;
}

static int cb_string(void *ctx, const unsigned char *s, size_t n)
{
	struct cap *c = ctx;

	if (c->in_itls)
		return 0;
	c->key_itls = 0;
	return yajl_gen_string(c->g, s, n) == yajl_gen_status_ok;
}

static int cb_start_map(void *ctx)
{
	struct cap *c = ctx;

	if (c->in_itls)
		return 0;
	c->key_itls = 0;
	c->depth++;
	return yajl_gen_map_open(c->g) == yajl_gen_status_ok;
}

static int cb_key(void *ctx, const unsigned char *k, size_t n)
{
	struct cap *c = ctx;

	if (c->depth == 1 && n == 4 && memcmp(k, "itls", 4) == 0) {
		if (c->seen)
			return 0; /* twice: the tree path says what it makes of that */
		c->key_itls = 1;
		return 1;
	}
	return yajl_gen_string(c->g, k, n) == yajl_gen_status_ok;
}

static int cb_end_map(void *ctx)
{
	struct cap *c = ctx;

	c->depth--;
	return yajl_gen_map_close(c->g) == yajl_gen_status_ok;
}

static int cb_start_array(void *ctx)
{
	struct cap *c = ctx;

	if (c->in_itls == 1) {
		c->in_itls = 2;
		return 1;
	}
	if (c->in_itls)
		return 0; /* deeper than a list of gaps */
	if (c->key_itls) {
		c->key_itls = 0;
		c->in_itls = 1;
		c->seen = 1;
		c->out->n = 0;
		if (PL_ALLOC_GROW(c->out->off, 1, c->cap_off))
			return 0;
		c->out->off[0] = 0;
		return 1;
	}
	c->depth++;
	return yajl_gen_array_open(c->g) == yajl_gen_status_ok;
}

static int cb_end_array(void *ctx)
{
	struct cap *c = ctx;

	if (c->in_itls == 2) {
		c->in_itls = 1;
		return push_off(c);
	}
	if (c->in_itls == 1) {
		c->in_itls = 0;
		return 1;
	}
	c->depth--;
	return yajl_gen_array_close(c->g) == yajl_gen_status_ok;
}

static const yajl_callbacks callbacks = {
	cb_null, cb_bool, NULL, NULL, cb_number, cb_string, cb_start_map, cb_key, cb_end_map,
	cb_start_array, cb_end_array,
};

void pl_gap_capture_release(struct pl_gap_capture *c)
{
	free(c->gaps);
	free(c->off);
	free(c->rest);
	memset(c, 0, sizeof(*c));
}

/* A capture fed piece by piece (pl_gap_stream_*): the parser, its state
 * and where the document's first byte has got to. */
struct pl_gap_stream {
	struct cap c;                 /* the callbacks' state */
	yajl_handle h;                /* the parser, made at the first '{' */
	struct pl_gap_capture out;    /* what is captured */
	size_t seen;                  /* bytes fed so far */
	int failed;                   /* 1: this path does not apply (stop feeding) */
};

struct pl_gap_stream *pl_gap_stream_new(void)
{
	struct pl_gap_stream *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c.out = &s->out;
	if (!(s->c.g = yajl_gen_alloc(NULL))) {
		free(s);
		return NULL;
	}
	return s;
}

void pl_gap_stream_free(struct pl_gap_stream *s)
{
	if (!s)
		return;
	if (s->h)
		yajl_free(s->h);
	if (s->c.g)
		yajl_gen_free(s->c.g);
	pl_gap_capture_release(&s->out);
	free(s);
}

int pl_gap_stream_feed(struct pl_gap_stream *s, const char *buf, size_t len)
{
	size_t i = 0;

	if (s->failed)
		return 1;
	if (!s->h) {
		/* before the document: a byte order mark (at the very start) and
		 * white space, then it must be an object */
		if (s->seen == 0 && len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
			i = 3;
		while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
			i++;
		s->seen += len;
		if (i == len)
			return 0;
		if (buf[i] != '{' || !(s->h = yajl_alloc(&callbacks, NULL, &s->c)))
			return s->failed = 1;
	} else {
		s->seen += len;
	}
	if (yajl_parse(s->h, (const unsigned char *)buf + i, len - i) != yajl_status_ok)
		return s->failed = 1;
	return 0;
}

int pl_gap_stream_finish(struct pl_gap_stream *s, struct pl_gap_capture *out)
{
	const unsigned char *rest;
	size_t rlen = 0;

	memset(out, 0, sizeof(*out));
	if (s->failed || !s->h || s->seen < stream_min || yajl_complete_parse(s->h) != yajl_status_ok ||
	    !s->c.seen || yajl_gen_get_buf(s->c.g, &rest, &rlen) != yajl_gen_status_ok ||
	    !(s->out.rest = malloc(rlen + 1)))
		return 0;
	memcpy(s->out.rest, rest, rlen);
	s->out.rest[rlen] = '\0';
	s->out.nrest = rlen;
	*out = s->out;
	memset(&s->out, 0, sizeof(s->out));
	return 1;
}

int pl_gap_capture_read(const char *buf, size_t len, struct pl_gap_capture *out)
{
	struct pl_gap_stream *s;
	int ok;

	memset(out, 0, sizeof(*out));
	if (len < stream_min || !(s = pl_gap_stream_new()))
		return 0;
	ok = pl_gap_stream_feed(s, buf, len) == 0 && pl_gap_stream_finish(s, out);
	pl_gap_stream_free(s);
	return ok;
}

size_t pl_adapters_stream_min(void)
{
	return stream_min;
}

int pl_gap_capture_attach(struct pl_gap_capture *cap, struct pl_requests *rq, struct pl_error *err)
{
	size_t w = 0;

	if (!rq || rq->n != cap->n || rq->ngaps != 0 || (rq->columns & PL_RQ_GAPS))
		return 1;
	/* a failed request's gaps are not kept (requests_vllm.c): squeezed out */
	for (size_t i = 0; i < rq->n; i++) {
		size_t from = cap->off[i], k = cap->off[i + 1] - from;
		if (pl_requests_error(rq, i))
			k = 0;
		if (k && w != from)
			memmove(cap->gaps + w, cap->gaps + from, k * sizeof(double));
		w += k;
		rq->gap_off[i + 1] = w;
	}
	rq->gap_off[0] = 0;
	free(rq->gaps);
	rq->gaps = cap->gaps;
	rq->ngaps = w;
	rq->gap_cap = cap->ngaps;
	rq->columns |= PL_RQ_GAPS;
	cap->gaps = NULL;
	cap->ngaps = 0;
	if (pl_requests_check(rq, err))
		return 1;
	streamed++;
	return 0;
}
