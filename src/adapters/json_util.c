/*
 * json_util.c — cJSON with positions, duplicate-key checks and bare tokens.
 *
 * See json_util.h for the rules. The input is copied once (NUL-terminated,
 * BOM removed, bare Infinity rewritten in place with the same length) and
 * every value is parsed from that copy, so a cJSON error offset is an offset
 * into the file's text and gives the real line and column even in JSONL.
 */
#include "adapters/json_util.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adapters/adapters.h"
#include "core/model.h"
#include "core/ranges.h"
#include "util/alloc.h"

/* ---------------------------------------------------- cJSON's memory
 *
 * Parsing a record makes a cJSON node, a key and often a value string per
 * member: about fifty malloc() calls for a small result file, and as many
 * free() calls walking the tree again to delete it, which cost as much as
 * the parse itself. So cJSON's allocator hooks are replaced (once, by
 * pl_adapters_init): every block gets a 16-byte header saying where
 * it came from. While pl_json_parse_records() parses, blocks come from the
 * doc's arena (bump allocation in chunks) and freeing one does nothing; the
 * doc frees its chunks at once. Outside, blocks come from malloc() and are
 * freed by free() as before. The header keeps the two apart whatever frees
 * a block, so a cJSON value made anywhere else in the program (report
 * specs, YAML, sidecars) behaves exactly as with cJSON's own hooks. */

#define HOOK_HEADER 16           /* keeps the payload 16-byte aligned */
#define FROM_HEAP 0x70656168u    /* header tag: malloc()ed, free() it */
#define FROM_ARENA 0x616e6572u   /* header tag: in an arena, freed with it */
#define ARENA_CHUNK_MIN 16384    /* first chunk; each next one doubles, to */
#define ARENA_CHUNK_MAX (4u << 20)

struct arena_chunk {
	struct arena_chunk *next; /* older chunk */
	size_t size, used;        /* bytes of data[], bytes handed out */
	_Alignas(16) unsigned char data[];
};

struct pl_json_arena {
	struct arena_chunk *head; /* chunk being filled */
	size_t next_size;         /* size of the next chunk */
};

/* The arena the calling thread parses into, or NULL: blocks from malloc. */
static _Thread_local struct pl_json_arena *active_arena;

static void *arena_alloc(struct pl_json_arena *a, size_t n)
{
	struct arena_chunk *c = a->head;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->used < n) {
		size_t size = a->next_size ? a->next_size : ARENA_CHUNK_MIN;
		if (size < n)
			size = n;
		if (!(c = malloc(sizeof(*c) + size)))
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = a->head;
		a->head = c;
		if (a->next_size < ARENA_CHUNK_MAX)
			a->next_size = a->next_size ? a->next_size * 2 : 2 * ARENA_CHUNK_MIN;
	}
	c->used += n;
	return c->data + c->used - n;
}

static void arena_free(struct pl_json_arena *a)
{
	if (!a)
		return;
	while (a->head) {
		struct arena_chunk *next = a->head->next;
		free(a->head);
		a->head = next;
	}
	free(a);
}

/* The header: the tag, then (arena blocks) the block's rounded size. */
static void *hook_malloc(size_t n)
{
	unsigned char *p;
	uint32_t tag;
	size_t size = (n + HOOK_HEADER + 15) & ~(size_t)15;

	if (n > SIZE_MAX - 2 * HOOK_HEADER)
		return NULL;
	if (active_arena) {
		p = arena_alloc(active_arena, size);
		tag = FROM_ARENA;
	} else {
		p = malloc(n + HOOK_HEADER);
		tag = FROM_HEAP;
	}
	if (!p)
		return NULL;
	memcpy(p, &tag, sizeof(tag));
	memcpy(p + 8, &size, sizeof(size));
	return p + HOOK_HEADER;
}

static void hook_free(void *q)
{
	unsigned char *p;
	uint32_t tag;
	size_t size;
	struct arena_chunk *c;

	if (!q)
		return;
	p = (unsigned char *)q - HOOK_HEADER;
	memcpy(&tag, p, sizeof(tag));
	if (tag == FROM_HEAP) {
		free(p);
		return;
	}
	/* An arena block is freed with its arena, except the last one handed
	 * out, which is given back at once: cJSON allocates a scratch buffer
	 * for every number and frees it before allocating anything else, and
	 * a file of a million numbers would otherwise keep them all. */
	memcpy(&size, p + 8, sizeof(size));
	c = active_arena ? active_arena->head : NULL;
	if (c && p + size == c->data + c->used)
		c->used -= size;
}

static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;

static void install_hooks(void)
{
	cJSON_Hooks hooks = {hook_malloc, hook_free};

	cJSON_InitHooks(&hooks);
}

/* cJSON_InitHooks must precede every cJSON allocation of the process (a
 * block made before it lacks the header). main() calls this first thing;
 * the JSON parsers below call it too (as curl_easy_init calls
 * curl_global_init), so a JSON parse cannot precede it. pthread_once: the
 * import's parser threads may race to it. */
void pl_adapters_init(void)
{
	pthread_once(&hooks_once, install_hooks);
}

/* Parsing context: the text copy and where it came from. */
struct ctx {
	const char *path; /* for messages */
	char *text;       /* NUL-terminated copy (BOM skipped, Infinity rewritten) */
	size_t len;       /* bytes in text */
};

static void offset_pos(const struct ctx *c, size_t off, long *line, long *col)
{
	long l = 1;
	size_t line_start = 0;

	if (off > c->len)
		off = c->len;
	for (size_t i = 0; i < off; i++)
		if (c->text[i] == '\n') {
			l++;
			line_start = i + 1;
		}
	*line = l;
	*col = (long)(off - line_start) + 1;
}

/* The line of offset off, counting on from an earlier offset *from whose
 * line is *line (both start at 0 and 1, and are moved to off): the lines
 * of a file's records in one pass, not a scan from its start per record,
 * which made a 1 MB JSONL read whole take 0.25 s and a 50 MB one on
 * standard input hours. off must not be before *from. */
static long line_from(const struct ctx *c, size_t off, size_t *from, long *line)
{
	if (off > c->len)
		off = c->len;
	for (const char *p = c->text + *from, *end = c->text + off;
	     p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
		(*line)++;
	*from = off;
	return *line;
}

static int err_at(const struct ctx *c, struct pl_error *err, size_t off)
{
	long line, col;

	offset_pos(c, off, &line, &col);
	pl_error_at(err, c->path, line, col);
	return err ? err->code : PL_EINVALID;
}

static int is_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

static int is_word(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_';
}

/* The object key whose value starts at off, copied into key (raw text, no
 * unescaping); "" if the value is not an object member. */
static void key_before(const struct ctx *c, size_t off, char *key, size_t n)
{
	size_t i = off, end, start;

	key[0] = '\0';
	while (i > 0 && is_ws(c->text[i - 1]))
		i--;
	if (i == 0 || c->text[i - 1] != ':')
		return;
	i--;
	while (i > 0 && is_ws(c->text[i - 1]))
		i--;
	if (i == 0 || c->text[i - 1] != '"')
		return;
	end = i - 1;
	start = end;
	while (start > 0) {
		size_t bs = 0;
		if (c->text[start - 1] == '"') {
			for (size_t k = start - 1; k > 0 && c->text[k - 1] == '\\'; k--)
				bs++;
			if (bs % 2 == 0)
				break;
		}
		start--;
	}
	if (start == 0)
		return;
	snprintf(key, n, "%.*s", (int)(end - start), c->text + start);
}

/* The end of the string token that starts at start (the byte after its
 * closing quote), or len when it is not closed. */
static size_t string_end(const struct ctx *c, size_t start)
{
	for (size_t i = start + 1; i < c->len; i++) {
		if (c->text[i] == '\\')
			i++;
		else if (c->text[i] == '"')
			return i + 1;
	}
	return c->len;
}

/* The opening quote of a string token of text[start, end) that is not
 * closed before end, or (size_t)-1 when every string there is closed. */
static size_t unclosed_string(const struct ctx *c, size_t start, size_t end)
{
	for (size_t i = start; i < end; i++) {
		if (c->text[i] != '"')
			continue;
		size_t open = i;
		for (i++; i < end && c->text[i] != '"'; i++)
			if (c->text[i] == '\\')
				i++;
		if (i >= end)
			return open;
	}
	return (size_t)-1;
}

/* A string holding the escape \u0000: cJSON would end the C string at the
 * NUL, so "llama\u0000evil" would read as "llama" and merge with a real
 * llama. Rejected naming the member (or saying it is a key). */
static int nul_escape(const struct ctx *c, size_t str_start, size_t at, struct pl_error *err)
{
	size_t e = string_end(c, str_start), j = e;
	char key[128];

	while (j < c->len && is_ws(c->text[j]))
		j++;
	if (j < c->len && c->text[j] == ':') {
		pl_error_set(err, PL_EINVALID,
		             "an object key contains \\u0000 (a NUL character), which no name may hold");
		return err_at(c, err, at);
	}
	key_before(c, str_start, key, sizeof(key));
	pl_error_field(err, key);
	if (key[0])
		pl_error_set(err, PL_EINVALID,
		             "'%s' contains \\u0000 (a NUL character); a text value would be cut there",
		             key);
	else
		pl_error_set(err, PL_EINVALID,
		             "a string contains \\u0000 (a NUL character); a text value would be cut there");
	return err_at(c, err, at);
}

/* Bytes scan_bare_tokens() stops at, outside and inside strings; the NUL
 * that ends ctx.text is one of them (the text holds no other), so the skip
 * loops need no bounds check. */
static const unsigned char stop_outside[256] = {['\0'] = 1, ['"'] = 1, ['I'] = 1, ['-'] = 1,
                                                ['N'] = 1};
static const unsigned char stop_inside[256] = {['\0'] = 1, ['"'] = 1, ['\\'] = 1};

/* Rewrites bare Infinity, rejects bare -Infinity and NaN (outside strings)
 * and the \u0000 escape (inside strings). Needs c->text[c->len] == '\0' and
 * no NUL before it (ctx_init checks). Plain bytes are skipped by a table
 * lookup each: this runs over every byte of every input. */
static int scan_bare_tokens(struct ctx *c, struct pl_error *err)
{
	const unsigned char *t = (const unsigned char *)c->text;
	int in_str = 0;
	size_t str_start = 0;
	char key[128];

	for (size_t i = 0; i < c->len; i++) {
		char ch;
		if (in_str) {
			while (!stop_inside[t[i]])
				i++;
			if (i >= c->len)
				break;
			if (t[i] == '\\') {
				if (i + 5 < c->len && c->text[i + 1] == 'u' &&
				    strncmp(c->text + i + 2, "0000", 4) == 0)
					return nul_escape(c, str_start, i, err);
				i++;
			} else {
				in_str = 0;
			}
			continue;
		}
		while (!stop_outside[t[i]])
			i++;
		if (i >= c->len)
			break;
		ch = c->text[i];
		if (ch == '"') {
			in_str = 1;
			str_start = i;
			continue;
		}
		/* only a token starting with I, - or N can be a bare word we treat */
		if (i > 0 && is_word(c->text[i - 1]))
			continue;
		if (strncmp(c->text + i, "Infinity", 8) == 0 && !is_word(c->text[i + 8])) {
			memcpy(c->text + i, "\"inf\"   ", 8);
			i += 7;
		} else if (strncmp(c->text + i, "-Infinity", 9) == 0 && !is_word(c->text[i + 9])) {
			key_before(c, i, key, sizeof(key));
			pl_error_field(err, key);
			if (key[0])
				pl_error_set(err, PL_EINVALID, "'%s' is -Infinity; no value may be negative",
				             key);
			else
				pl_error_set(err, PL_EINVALID, "-Infinity is not allowed; no value may be negative");
			return err_at(c, err, i);
		} else if (strncmp(c->text + i, "NaN", 3) == 0 && !is_word(c->text[i + 3])) {
			key_before(c, i, key, sizeof(key));
			pl_error_field(err, key);
			if (key[0])
				pl_error_set(err, PL_EINVALID,
				             "'%s' is NaN (not a number); give a number, or null if unknown", key);
			else
				pl_error_set(err, PL_EINVALID,
				             "NaN (not a number) is not allowed; give a number, or null if unknown");
			return err_at(c, err, i);
		}
	}
	return 0;
}

static int ctx_init(struct ctx *c, const char *path, const char *buf, size_t len,
                    struct pl_error *err)
{
	size_t bad;

	c->path = path;
	if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
		buf += 3;
		len -= 3;
	}
	c->text = malloc(len + 1);
	if (!c->text)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	memcpy(c->text, buf, len);
	c->text[len] = '\0';
	c->len = len;
	/* A NUL byte inside the text would end cJSON's view of it early. */
	if (memchr(c->text, '\0', len)) {
		size_t off = (size_t)((char *)memchr(c->text, '\0', len) - c->text);
		pl_error_set(err, PL_ESYNTAX, "invalid JSON: unexpected NUL byte");
		return err_at(c, err, off);
	}
	/* JSON text is UTF-8 (RFC 8259); other bytes would reach every output. */
	if ((bad = pl_utf8_valid_prefix(c->text, len)) < len) {
		pl_error_set(err, PL_ESYNTAX, "invalid JSON: byte 0x%02X is not UTF-8",
		             (unsigned)(unsigned char)c->text[bad]);
		return err_at(c, err, bad);
	}
	return scan_bare_tokens(c, err);
}

static size_t skip_ws(const struct ctx *c, size_t off, size_t end)
{
	while (off < end && is_ws(c->text[off]))
		off++;
	return off;
}

static int syntax_error(const struct ctx *c, size_t off, size_t end, const char *end_what,
                        struct pl_error *err)
{
	unsigned char ch = off < end ? (unsigned char)c->text[off] : 0;

	if (off >= end)
		pl_error_set(err, PL_ESYNTAX, "invalid JSON: unexpected end of %s", end_what);
	else if (ch >= 0x20 && ch < 0x7f)
		pl_error_set(err, PL_ESYNTAX, "invalid JSON: unexpected '%c'", ch);
	else
		pl_error_set(err, PL_ESYNTAX, "invalid JSON: unexpected byte 0x%02x", ch);
	return err_at(c, err, off);
}

/* Finds a key present twice in any object under item; returns it or NULL.
 * First bytes are compared before strcmp: this runs on every object read. */
static const char *find_duplicate(const cJSON *item)
{
	for (const cJSON *a = item ? item->child : NULL; a; a = a->next) {
		const char *d;
		if (cJSON_IsObject(item) && a->string)
			for (const cJSON *b = a->next; b; b = b->next)
				if (b->string && b->string[0] == a->string[0] &&
				    strcmp(a->string, b->string) == 0)
					return a->string;
		d = find_duplicate(a);
		if (d)
			return d;
	}
	return NULL;
}

/* A number whose literal overflows a double (1e400) reads as infinity: a
 * count or a latency stored as "inf". Bare Infinity was rewritten into a
 * string before parsing, so every non-finite number here is such a
 * literal. Returns 1 with *key the member holding it (or the nearest
 * member above it; "" at the top), else 0. */
static int find_overflow(const cJSON *item, const char *above, const char **key)
{
	for (const cJSON *a = item ? item->child : NULL; a; a = a->next) {
		const char *k = a->string ? a->string : above;
		if (cJSON_IsNumber(a) && !isfinite(a->valuedouble)) {
			*key = k;
			return 1;
		}
		if (a->child && find_overflow(a, k, key))
			return 1;
	}
	return 0;
}

/* cJSON reports running out of input as an error at the last byte. To tell
 * that from a bad last byte, parse again with white space appended: if the
 * error moves past the original end, the input ended too early (returns end). */
static size_t error_at_end(const struct ctx *c, size_t start, size_t end, size_t eo)
{
	size_t n = end - start;
	const char *stop = NULL;
	char *pad = malloc(n + 4);
	cJSON *v;

	if (!pad)
		return eo;
	memcpy(pad, c->text + start, n);
	memcpy(pad + n, "   ", 4);
	v = cJSON_ParseWithLengthOpts(pad, n + 3, &stop, 0);
	if (v)
		cJSON_Delete(v);
	else if (stop && (size_t)(stop - pad) >= n)
		eo = end;
	free(pad);
	return eo;
}

/* cJSON reports a bad object key one byte past the token's start (after
 * '{' or ','): "{\"a\": 1, oops}" would point at the second 'o'. Moves eo
 * back to the token when the byte before it starts a token that follows
 * '{' or ','. Values are reported at their first byte already. */
static size_t key_error_fix(const struct ctx *c, size_t start, size_t eo)
{
	size_t p, q;

	if (eo <= start + 1 || eo > c->len)
		return eo;
	p = eo - 1;
	if (is_ws(c->text[p]) || c->text[p] == '{' || c->text[p] == '[')
		return eo;
	q = p;
	while (q > start && is_ws(c->text[q - 1]))
		q--;
	if (q > start && (c->text[q - 1] == '{' || c->text[q - 1] == ','))
		return p;
	return eo;
}

/* Deepest nesting of arrays and objects in text[start, end). */
static int max_depth(const struct ctx *c, size_t start, size_t end)
{
	int depth = 0, max = 0;

	for (size_t i = start; i < end; i++) {
		char ch = c->text[i];
		if (ch == '"') {
			i = string_end(c, i) - 1;
		} else if (ch == '{' || ch == '[') {
			if (++depth > max)
				max = depth;
		} else if (ch == '}' || ch == ']') {
			depth--;
		}
	}
	return max;
}

/* Finds, in text[start, end), the first object key that repeats a key of
 * the same object (compared as raw text, escapes not decoded). Returns 1
 * with *pos at the repeated key's opening quote and the key copied into
 * key, or 0. */
static int raw_duplicate(const struct ctx *c, size_t start, size_t end, size_t *pos, char *key,
                         size_t keyn)
{
	struct rk {
		size_t off, len;
		int depth;
	} *keys = NULL;
	size_t nkeys = 0, cap = 0;
	unsigned char is_obj[64 * 1024 / 8] = {0}; /* bit per depth: object or array */
	int depth = 0, found = 0;

	for (size_t i = start; i < end && !found; i++) {
		char ch = c->text[i];
		if (ch == '{' || ch == '[') {
			depth++;
			if (depth < (int)sizeof(is_obj) * 8) {
				if (ch == '{')
					is_obj[depth / 8] |= (unsigned char)(1u << (depth % 8));
				else
					is_obj[depth / 8] &= (unsigned char)~(1u << (depth % 8));
			}
		} else if (ch == '}' || ch == ']') {
			while (nkeys > 0 && keys[nkeys - 1].depth >= depth)
				nkeys--;
			depth--;
		} else if (ch == '"') {
			size_t e = string_end(c, i), j = e;
			while (j < end && is_ws(c->text[j]))
				j++;
			if (depth > 0 && depth < (int)sizeof(is_obj) * 8 &&
			    (is_obj[depth / 8] & (1u << (depth % 8))) && j < end && c->text[j] == ':') {
				for (size_t k = nkeys; k > 0 && keys[k - 1].depth == depth; k--)
					if (keys[k - 1].len == e - i &&
					    memcmp(c->text + keys[k - 1].off, c->text + i, e - i) == 0) {
						*pos = i;
						snprintf(key, keyn, "%.*s", (int)(e - i - 2), c->text + i + 1);
						found = 1;
						break;
					}
				if (!found) {
					if (PL_ALLOC_GROW(keys, nkeys + 1, cap))
						break;
					keys[nkeys].off = i;
					keys[nkeys].len = e - i;
					keys[nkeys].depth = depth;
					nkeys++;
				}
			}
			i = e - 1;
		}
	}
	free(keys);
	return found;
}

/* Parses one value at [*off, end); on success *off is just past it. */
static int parse_at(const struct ctx *c, size_t *off, size_t end, const char *end_what,
                    cJSON **out, struct pl_error *err)
{
	const char *stop = NULL;
	const char *dup;
	cJSON *v;
	size_t start = skip_ws(c, *off, end);

	if (start >= end)
		return syntax_error(c, start, end, end_what, err);
	v = cJSON_ParseWithLengthOpts(c->text + start, end - start, &stop, 0);
	if (!v) {
		size_t eo = stop ? (size_t)(stop - c->text) : start;
		if (eo > end)
			eo = end;
		if (eo + 1 >= end)
			eo = error_at_end(c, start, end, eo);
		if (max_depth(c, start, eo < end ? eo + 1 : end) > CJSON_NESTING_LIMIT) {
			pl_error_set(err, PL_ESYNTAX, "invalid JSON: nesting deeper than %d levels",
			             CJSON_NESTING_LIMIT);
			return err_at(c, err, eo);
		}
		eo = key_error_fix(c, start, eo);
		/* a string still open where the line or the input ends (a file cut
		 * short): cJSON points at its opening quote or the byte after it,
		 * as if that byte were wrong; say what is wrong instead */
		size_t open = unclosed_string(c, start, end);
		if (open != (size_t)-1 && eo + 1 >= open) {
			pl_error_set(err, PL_ESYNTAX,
			             "invalid JSON: unterminated string (opened at this position; the %s ends "
			             "before its closing quote)",
			             end_what);
			return err_at(c, err, open);
		}
		return syntax_error(c, eo, end, end_what, err);
	}
	dup = find_duplicate(v);
	if (dup) {
		char rkey[128];
		size_t at = start;
		size_t vend = stop ? (size_t)(stop - c->text) : end;
		if (raw_duplicate(c, start, vend, &at, rkey, sizeof(rkey)))
			dup = rkey; /* the first repeat in text order, at its position */
		pl_error_field(err, dup);
		pl_error_set(err, PL_EINVALID, "duplicate key '%s' (JSON readers disagree on which one wins)",
		             dup);
		err_at(c, err, at);
		cJSON_Delete(v);
		return PL_EINVALID;
	}
	{
		const char *k = "";
		if ((cJSON_IsNumber(v) && !isfinite(v->valuedouble)) || find_overflow(v, "", &k)) {
			pl_error_field(err, k);
			if (k[0])
				pl_error_set(err, PL_EINVALID,
				             "'%s' is a number too large to hold (beyond 1.8e308)", k);
			else
				pl_error_set(err, PL_EINVALID, "a number is too large to hold (beyond 1.8e308)");
			err_at(c, err, start);
			cJSON_Delete(v);
			return PL_EINVALID;
		}
	}
	*off = stop ? (size_t)(stop - c->text) : end;
	*out = v;
	return 0;
}

int pl_json_parse_value(const char *path, const char *buf, size_t len, cJSON **out,
                        struct pl_error *err)
{
	struct ctx c;
	size_t off = 0;
	int rc;

	pl_adapters_init();
	rc = ctx_init(&c, path, buf, len, err);
	if (rc == 0)
		rc = parse_at(&c, &off, c.len, "input", out, err);
	if (rc == 0) {
		off = skip_ws(&c, off, c.len);
		if (off < c.len) {
			cJSON_Delete(*out);
			*out = NULL;
			rc = syntax_error(&c, off, c.len, "input", err);
			pl_error_set(err, PL_ESYNTAX, "invalid JSON: unexpected '%c' after the value",
			             c.text[off]);
		}
	}
	free(c.text);
	return rc;
}

static int push_root(struct pl_json_doc *doc, cJSON *v, struct pl_error *err)
{
	if (PL_ALLOC_GROW(doc->roots, doc->nroots + 1, doc->roots_cap)) {
		cJSON_Delete(v);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	doc->roots[doc->nroots++] = v;
	return 0;
}

static int push_record(struct pl_json_doc *doc, const cJSON *obj, long line, struct pl_error *err)
{
	struct pl_json_record *r;

	if (PL_ALLOC_GROW(doc->records, doc->nrecords + 1, doc->records_cap))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	r = doc->records;
	r[doc->nrecords].obj = obj;
	r[doc->nrecords].line = line;
	r[doc->nrecords].index = (long)doc->nrecords;
	doc->nrecords++;
	return 0;
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* JSONL: one value per non-blank line. */
static int parse_lines(const struct ctx *c, struct pl_json_doc *doc, struct pl_error *err)
{
	size_t off = 0, counted = 0;
	long line = 1;

	while (off < c->len) {
		const char *nl = memchr(c->text + off, '\n', c->len - off);
		size_t end = nl ? (size_t)(nl - c->text) : c->len;
		size_t p = skip_ws(c, off, end);
		if (p < end) {
			cJSON *v = NULL;
			int rc = parse_at(c, &p, end, "line", &v, err);
			if (rc)
				return rc;
			p = skip_ws(c, p, end);
			if (p < end) {
				cJSON_Delete(v);
				syntax_error(c, p, end, "line", err);
				pl_error_set(err, PL_ESYNTAX,
				             "invalid JSON: unexpected '%c' after the value (JSONL holds one value per line)",
				             c->text[p]);
				return PL_ESYNTAX;
			}
			rc = push_root(doc, v, err);
			if (rc)
				return rc;
			rc = push_record(doc, v, line_from(c, off, &counted, &line), err);
			if (rc)
				return rc;
		}
		off = end + 1;
	}
	return 0;
}

int pl_json_parse_records(const char *path, const char *buf, size_t len,
                          struct pl_json_doc *doc, struct pl_error *err)
{
	struct ctx c;
	size_t off = 0, counted = 0;
	long line = 1;
	int rc;

	memset(doc, 0, sizeof(*doc));
	pl_adapters_init();
	rc = ctx_init(&c, path, buf, len, err);
	if (rc)
		goto out;
	if (!(doc->arena = calloc(1, sizeof(*doc->arena)))) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	active_arena = doc->arena; /* until out: every value of doc goes there */
	if (path && has_suffix(path, ".jsonl")) {
		doc->container = PL_JSON_SEQUENCE;
		rc = parse_lines(&c, doc, err);
		if (rc == 0 && doc->nrecords == 0)
			rc = pl_error_set(err, PL_ESYNTAX, "invalid JSON: the file holds no value");
		goto out;
	}
	for (;;) {
		cJSON *v = NULL;
		size_t start = skip_ws(&c, off, c.len);

		if (start >= c.len && doc->nroots > 0)
			break;
		rc = parse_at(&c, &off, c.len, "input", &v, err);
		if (rc)
			goto out;
		rc = push_root(doc, v, err);
		if (rc)
			goto out;
		line_from(&c, start, &counted, &line);
		if (doc->nroots == 1 && skip_ws(&c, off, c.len) >= c.len && cJSON_IsArray(v)) {
			const cJSON *el;
			doc->container = PL_JSON_ARRAY;
			cJSON_ArrayForEach(el, v)
			{
				rc = push_record(doc, el, 0, err);
				if (rc)
					goto out;
			}
			break;
		}
		rc = push_record(doc, v, line, err);
		if (rc)
			goto out;
	}
	if (doc->container != PL_JSON_ARRAY)
		doc->container = doc->nroots > 1 ? PL_JSON_SEQUENCE : PL_JSON_SINGLE;
	if (doc->container == PL_JSON_SINGLE && doc->nrecords == 1)
		doc->records[0].line = 0; /* one record: a line would only say "1" */
out:
	active_arena = NULL;
	if (rc) {
		pl_json_doc_release(doc);
		if (err && !err->file[0])
			pl_error_at(err, path, err->line, err->column);
	}
	free(c.text);
	return rc;
}

void pl_json_doc_release(struct pl_json_doc *doc)
{
	if (!doc)
		return;
	/* the values are all in the arena: no tree walk to delete them */
	arena_free(doc->arena);
	free(doc->roots);
	free(doc->records);
	memset(doc, 0, sizeof(*doc));
}

const cJSON *pl_json_get(const cJSON *obj, const char *key)
{
	if (!cJSON_IsObject(obj) || !key)
		return NULL;
	/* cJSON_GetObjectItemCaseSensitive, with the first byte compared
	 * before strcmp: format detection asks for absent keys by the hundred */
	for (const cJSON *it = obj->child; it && it->string; it = it->next)
		if (it->string[0] == key[0] && strcmp(it->string, key) == 0)
			return it;
	return NULL;
}

const char *pl_json_type_name(const cJSON *item)
{
	if (!item || cJSON_IsNull(item))
		return "null";
	if (cJSON_IsBool(item))
		return "a boolean";
	if (cJSON_IsNumber(item))
		return "a number";
	if (cJSON_IsString(item))
		return "a string";
	if (cJSON_IsArray(item))
		return "an array";
	if (cJSON_IsObject(item))
		return "an object";
	return "an unknown value";
}

/* The value the last failed pl_json_get_* / pl_json_set_cond /
 * pl_json_metric of this thread named, for pl_json_name_failed(). */
static _Thread_local const cJSON *failed_item;

/* Returns rc, remembering item as the value rc (non-zero) is about. */
static int failed_at(const cJSON *item, int rc)
{
	if (rc)
		failed_item = item;
	return rc;
}

static int type_error(const cJSON *item, const char *key, const char *want, struct pl_error *err)
{
	failed_item = item;
	pl_error_field(err, key);
	if (cJSON_IsString(item))
		return pl_error_set(err, PL_EINVALID, "'%s' must be %s, got the string \"%.60s\"", key,
		                    want, item->valuestring);
	return pl_error_set(err, PL_EINVALID, "'%s' must be %s, got %s", key, want,
	                    pl_json_type_name(item));
}

int pl_json_get_string(const cJSON *obj, const char *key, const char **out, struct pl_error *err)
{
	const cJSON *it = pl_json_get(obj, key);

	if (!it || cJSON_IsNull(it))
		return 1;
	if (!cJSON_IsString(it) || !it->valuestring)
		return type_error(it, key, "a string", err);
	*out = it->valuestring;
	return 0;
}

int pl_json_get_number(const cJSON *obj, const char *key, double *out, struct pl_error *err)
{
	const cJSON *it = pl_json_get(obj, key);

	*out = 0; /* defined on every path (gcc -O2 warns at callers otherwise) */
	if (!it || cJSON_IsNull(it))
		return 1;
	if (!cJSON_IsNumber(it))
		return type_error(it, key, "a number", err);
	if (!isfinite(it->valuedouble)) {
		failed_item = it;
		pl_error_field(err, key);
		return pl_error_set(err, PL_EINVALID, "'%s' must be a finite number", key);
	}
	*out = it->valuedouble;
	return 0;
}

int pl_json_get_count(const cJSON *obj, const char *key, double *out, struct pl_error *err)
{
	double v;
	int rc = pl_json_get_number(obj, key, &v, err);

	if (rc)
		return rc;
	if (v < 0 || v != floor(v)) {
		char buf[40];
		failed_item = pl_json_get(obj, key);
		pl_error_field(err, key);
		return pl_error_set(err, PL_EINVALID, "'%s' must be a non-negative whole number, got %s",
		                    key, pl_fmt_num(buf, sizeof(buf), v));
	}
	*out = v;
	return 0;
}

int pl_json_set_cond(struct pl_run *run, int id, const cJSON *item, const char *key,
                     struct pl_error *err)
{
	enum pl_ctype t = pl_cond_info[id].type;
	char buf[48];

	if (!item || cJSON_IsNull(item))
		return pl_run_set_cond(run, id, NULL, err);
	if (cJSON_IsString(item) && item->valuestring)
		return pl_run_set_cond(run, id, item->valuestring, err);
	if (cJSON_IsBool(item)) {
		if (t != PL_CT_BOOL)
			return type_error(item, key,
			                  t == PL_CT_INT || t == PL_CT_REAL ? "a number" : "a string", err);
		return pl_run_set_cond_num(run, id, cJSON_IsTrue(item) ? 1 : 0, err);
	}
	if (cJSON_IsNumber(item)) {
		double v = item->valuedouble;
		switch (t) {
		case PL_CT_INT:
		case PL_CT_REAL:
			if (v >= 0 && v < 1e15 && v == floor(v)) {
				/* A whole number (tokens, counts): what pl_run_set_cond()
				 * of its pl_fmt_num() text stores, without printf and
				 * strtod; the digits are pl_fmt_num()'s "%.0f". */
				unsigned long long u = (unsigned long long)v;
				char *e = buf + sizeof(buf), *p = e;
				struct pl_value *cv = &run->cond[id];

				*--p = '\0';
				do {
					*--p = (char)('0' + u % 10);
					u /= 10;
				} while (u);
				if (pl_strset(&cv->text, p))
					return pl_error_set(err, PL_ENOMEM, "out of memory");
				cv->set = 1;
				cv->num = v == 0 ? 0.0 : v;
				return 0;
			}
			return pl_run_set_cond(run, id, pl_fmt_num(buf, sizeof(buf), v), err);
		case PL_CT_TEXT:
			/* below 2^53 only: 2^53 + 1 reads as 2^53, so a number that
			 * large may already have lost a digit */
			if (v == floor(v) && fabs(v) < 9007199254740992.0) {
				snprintf(buf, sizeof(buf), "%.0f", v);
				return pl_run_set_cond(run, id, buf, err);
			}
			failed_item = item;
			pl_error_field(err, key);
			return pl_error_set(err, PL_EINVALID,
			                    "'%s' must be a string (a JSON number would lose digits)", key);
		case PL_CT_VERSION:
			failed_item = item;
			pl_error_field(err, key);
			return pl_error_set(err, PL_EINVALID,
			                    "'%s' must be a string (a JSON number would lose digits: 0.10 reads as 0.1)",
			                    key);
		case PL_CT_TIME:
			failed_item = item;
			pl_error_field(err, key);
			return pl_error_set(err, PL_EINVALID,
			                    "'%s' must be a string like \"2026-01-02T03:04:05Z\", got a number",
			                    key);
		case PL_CT_BOOL:
			return type_error(item, key, "true or false", err);
		}
	}
	switch (t) {
	case PL_CT_INT:
	case PL_CT_REAL:
		return type_error(item, key, "a number", err);
	case PL_CT_BOOL:
		return type_error(item, key, "true or false", err);
	default:
		return type_error(item, key, "a string", err);
	}
}

int pl_json_metric(const cJSON *obj, const char *key, int id, int exp10, struct pl_run *run,
                   struct pl_error *err)
{
	double v;
	int rc = pl_json_get_number(obj, key, &v, err);

	if (rc < 0)
		return rc;
	if (rc == 0)
		return failed_at(pl_json_get(obj, key), pl_adapter_metric(run, id, v, exp10, key, 0, err));
	return 0;
}

int pl_adapter_metric(struct pl_run *run, int id, double written, int exp10, const char *key,
                      long line, struct pl_error *err)
{
	const struct pl_range_row *r;
	const struct pl_metric_info *mi;
	char w[40], c[40], lo[40], hi[40], canon[160];
	double v = pl_scale_pow10(written, exp10);

	if (id < 0 || id >= PL_METRIC_COUNT)
		return pl_error_set(err, PL_EUSAGE, "no metric for '%s'", key ? key : "?");
	/* a key that is the canonical name itself (a descriptor, a ledger
	 * record) is named as well by pl_validate_run's messages */
	if (pl_range_holds(id, v) || (exp10 == 0 && key && strcmp(key, pl_metric_info[id].name) == 0)) {
		pl_run_set_metric(run, id, v);
		return 0;
	}
	mi = &pl_metric_info[id];
	r = pl_range_of_metric(id);
	pl_fmt_num(w, sizeof(w), written);
	if (exp10 != 0)
		snprintf(canon, sizeof(canon), " (metric '%s' = %s %s)", mi->name,
		         pl_fmt_num(c, sizeof(c), v), r ? r->unit : pl_range_unit_name(mi->unit));
	else if (!key || strcmp(key, mi->name) != 0)
		snprintf(canon, sizeof(canon), " (metric '%s')", mi->name);
	else
		canon[0] = '\0';
	pl_error_field(err, mi->name);
	if (line > 0)
		pl_error_at(err, NULL, line, 0);
	if (!r)
		return pl_error_set(err, PL_EINVALID, "%s'%s' = %s%s must be a finite number",
		                    canon[0] ? "" : "metric ", key ? key : mi->name, w, canon);
	return pl_error_set(err, PL_EINVALID,
	                    "%s'%s' = %s%s is outside the plausible range of %s for %s, %s to %s "
	                    "(%s; schema/ranges.tsv)",
	                    canon[0] ? "" : "metric ", key ? key : mi->name, w, canon,
	                    r->family[0] == '*' ? "every metric" : r->family, r->unit,
	                    pl_fmt_num(lo, sizeof(lo), r->lo), pl_fmt_num(hi, sizeof(hi), r->hi), r->why);
}

int pl_json_cond(const cJSON *obj, const char *key, int id, struct pl_run *run,
                 struct pl_error *err)
{
	const cJSON *it = pl_json_get(obj, key);

	if (!it || cJSON_IsNull(it) || (cJSON_IsString(it) && it->valuestring &&
	                                it->valuestring[0] == '\0'))
		return 0;
	return failed_at(it, pl_json_set_cond(run, id, it, key, err));
}

void pl_json_forget_failed(void)
{
	failed_item = NULL;
}

/* Appends to b[*n..) the path from node to target ("a.b[2].c"): 1 when
 * found beneath node (b holds it), else 0 (b as it was). */
static int path_to(const cJSON *node, const cJSON *target, char *b, size_t cap, size_t *n,
                   int depth)
{
	const cJSON *c;
	size_t at = *n;
	int i = 0;

	if (depth > 64 || !(cJSON_IsObject(node) || cJSON_IsArray(node)))
		return 0;
	for (c = node->child; c; c = c->next, i++) {
		int w = cJSON_IsArray(node)
		            ? snprintf(b + at, cap - at, "[%d]", i)
		            : snprintf(b + at, cap - at, "%s%s", at ? "." : "", c->string ? c->string : "");
		if (w < 0 || (size_t)w >= cap - at)
			break;
		*n = at + (size_t)w;
		if (c == target || path_to(c, target, b, cap, n, depth + 1))
			return 1;
	}
	*n = at;
	b[at] = '\0';
	return 0;
}

void pl_json_name_failed(const cJSON *root, struct pl_error *err)
{
	const cJSON *it = failed_item;
	char path[200], quoted[210], leaf[140], msg[sizeof(err->message)];
	const char *at;
	size_t n = 0;

	failed_item = NULL;
	if (!err || !err->code || !it || !it->string || !root || it == root)
		return;
	path[0] = '\0';
	if (!path_to(root, it, path, sizeof(path), &n, 0) || strcmp(path, it->string) == 0)
		return;
	snprintf(leaf, sizeof(leaf), "'%s'", it->string);
	snprintf(quoted, sizeof(quoted), "'%s'", path);
	if (!(at = strstr(err->message, leaf)))
		return;
	snprintf(msg, sizeof(msg), "%.*s%s%s", (int)(at - err->message), err->message, quoted,
	         at + strlen(leaf));
	memcpy(err->message, msg, sizeof(msg));
	if (strcmp(err->field, it->string) == 0)
		pl_error_field(err, path);
}

int pl_adapter_requests(struct pl_run *run, double completed, double failed, const char *field,
                        struct pl_error *err)
{
	(void)field;
	(void)err;
	if (completed <= 0) {
		/* a failed run: stored as such (pl_run_failed), never pooled */
		pl_run_set_metric(run, PL_M_REQUESTS_COMPLETED, 0);
		if (failed >= 0)
			pl_run_set_metric(run, PL_M_REQUESTS_FAILED, failed);
		if (failed > 0)
			pl_run_set_metric(run, PL_M_ERROR_RATE, 1);
		return 0;
	}
	pl_run_set_metric(run, PL_M_REQUESTS_COMPLETED, completed);
	if (failed >= 0) {
		pl_run_set_metric(run, PL_M_REQUESTS_FAILED, failed);
		pl_run_set_metric(run, PL_M_ERROR_RATE, failed / (completed + failed));
	}
	return 0;
}

int pl_adapter_epoch(struct pl_run *run, double seconds, struct pl_error *err)
{
	time_t t = (time_t)seconds;
	struct tm tm;
	char iso[32];

	if (!(seconds >= 0 && seconds < 253402300800.0) || !gmtime_r(&t, &tm))
		return pl_error_set(err, PL_EINVALID, "timestamp %.0f is out of range", seconds);
	strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return pl_run_set_cond(run, PL_C_RUN_STARTED_AT, iso, err);
}

int pl_adapter_epoch_ns_text(struct pl_run *run, const char *ns, struct pl_error *err)
{
	size_t n = strspn(ns, "0123456789");
	double v;

	/* digits, and maybe a fraction of a nanosecond ("...984.00", AIPerf) */
	if (n > 0 && (ns[n] == '\0' || (ns[n] == '.' && ns[n + 1] &&
	                                ns[n + 1 + strspn(ns + n + 1, "0123456789")] == '\0'))) {
		/* drop the last nine digits of the whole part: seconds, exactly */
		double seconds = 0;
		for (size_t i = 0; i + 9 < n; i++)
			seconds = seconds * 10 + (ns[i] - '0');
		return pl_adapter_epoch(run, seconds, err);
	}
	if (pl_parse_num(ns, 0, &v))
		return pl_error_set(err, PL_EINVALID, "timestamp '%.40s' is not a number of nanoseconds",
		                    ns);
	return pl_adapter_epoch(run, floor(v / 1e9), err);
}
