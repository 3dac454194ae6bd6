/*
 * condkey.c — the condition key of a run: its canonical key_text, written
 * by hand into a growing buffer (no printf per value: an import makes one
 * key per run), and the text's 64-bit hash. See condkey.h.
 */
#include "core/condkey.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/hash.h"
#include "util/buf.h"

static int is_numeric(enum pl_ctype t)
{
	return t == PL_CT_INT || t == PL_CT_REAL || t == PL_CT_BOOL;
}

int pl_cond_key_has(const struct pl_run *run, int id)
{
	const struct pl_value *v = &run->cond[id];

	if (!v->set)
		return 0;
	if (is_numeric(pl_cond_info[id].type))
		return !isnan(v->num);
	return v->text != NULL;
}

/* Appends text with backslash and newline escaped, so that key_text lines
 * cannot run into each other; with eq also '=' (as "\\="), so that an
 * extra condition's name cannot end early and take part of its value. */
static void kb_escaped(struct pl_buf *k, const char *text, int eq)
{
	const char *run = text;

	for (const char *p = text;; p++) {
		if (*p != '\\' && *p != '\n' && *p != '\0' && !(eq && *p == '='))
			continue;
		pl_buf_add(k, run, (size_t)(p - run));
		if (*p == '\0')
			return;
		pl_buf_add(k, *p == '\\' ? "\\\\" : *p == '\n' ? "\\n" : "\\=", 2);
		run = p + 1;
	}
}

/* v in pl_fmt_num() form. Whole numbers below 1e15 (nearly every condition:
 * tokens, counts) are written here digit by digit, which is what
 * pl_fmt_num()'s "%.0f" gives for them, without a printf per value. */
static void kb_num(struct pl_buf *k, double v)
{
	char buf[40];

	if (v == floor(v) && fabs(v) < 1e15) {
		unsigned long long u = (unsigned long long)fabs(v);
		char *e = buf + sizeof(buf), *p = e;

		do {
			*--p = (char)('0' + u % 10);
			u /= 10;
		} while (u);
		if (v < 0)
			*--p = '-';
		pl_buf_add(k, p, (size_t)(e - p));
		return;
	}
	pl_fmt_num(buf, sizeof(buf), v);
	pl_buf_add(k, buf, strlen(buf));
}

/* The canonical serialization of run's conditions (all but run_started_at):
 * one "name=value\n" line per known condition in table order; missing
 * conditions have no line. Numbers are in pl_fmt_num() form ("8", "inf"),
 * booleans "true"/"false". Then one "FORMAT.key=value\n" line per extra
 * condition, by name (run->extra's order): a canonical name has no '.', so
 * no extra line can pass for a canonical one, and a set without extras has
 * exactly the key_text it had before extras were stored. */
int pl_cond_key_make(const struct pl_run *run, struct pl_cond_key *key)
{
	struct pl_buf k;

	memset(key, 0, sizeof(*key));
	pl_buf_init(&k);
	pl_buf_grow(&k, 511); /* most keys fit: one allocation */
	for (int i = 0; i < PL_COND_COUNT; i++) {
		const char *name = pl_cond_info[i].name;

		if (pl_cond_per_run(i) || !pl_cond_key_has(run, i))
			continue;
		pl_buf_add(&k, name, strlen(name));
		pl_buf_add(&k, "=", 1);
		if (pl_cond_info[i].type == PL_CT_BOOL)
			pl_buf_add(&k, run->cond[i].num != 0 ? "true" : "false",
			       run->cond[i].num != 0 ? 4 : 5);
		else if (is_numeric(pl_cond_info[i].type))
			kb_num(&k, run->cond[i].num);
		else
			kb_escaped(&k, run->cond[i].text, 0);
		pl_buf_add(&k, "\n", 1);
	}
	for (size_t i = 0; i < run->nextra; i++) {
		kb_escaped(&k, run->extra[i].name, 1);
		pl_buf_add(&k, "=", 1);
		kb_escaped(&k, run->extra[i].value, 0);
		pl_buf_add(&k, "\n", 1);
	}
	if (!(key->text = pl_buf_detach(&k, &key->len))) /* "" when no condition is known */
		return PL_ENOMEM;
	key->hash = pl_hash64(key->text, key->len);
	return 0;
}

/* Appends n bytes to the fixed buffer fix (*len used of cap) while they
 * fit, else to b (moving what fix held there first). */
static void rid_add(char *fix, size_t cap, size_t *len, struct pl_buf *b, const void *p, size_t n)
{
	if (b->len == 0 && *len + n <= cap) {
		memcpy(fix + *len, p, n);
		*len += n;
		return;
	}
	if (b->len == 0 && *len)
		pl_buf_add(b, fix, *len);
	pl_buf_add(b, p, n);
}

int pl_run_record_id(const struct pl_run *run, const struct pl_cond_key *key, char hex[33])
{
	const struct pl_value *t = &run->cond[PL_C_RUN_STARTED_AT];
	const char *adapter = run->adapter ? run->adapter : "";
	const char *fv = run->format_version ? run->format_version : "";
	const char *started = t->set && t->text ? t->text : "";
	char fix[2048]; /* nearly every record fits: no allocation per run */
	size_t n = 0;
	struct pl_buf b;
	int rc = 0;

	pl_buf_init(&b);
	/* NUL between the parts: no part can run into the next */
	rid_add(fix, sizeof(fix), &n, &b, adapter, strlen(adapter) + 1);
	rid_add(fix, sizeof(fix), &n, &b, fv, strlen(fv) + 1);
	rid_add(fix, sizeof(fix), &n, &b, key->text, key->len);
	rid_add(fix, sizeof(fix), &n, &b, "", 1);
	rid_add(fix, sizeof(fix), &n, &b, started, strlen(started) + 1);
	/* each metric: its name, NUL, its IEEE 754 bits little-endian (exact,
	 * and no printf per value: an import makes one identity per run) */
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		if (run->has_metric[m] && !isnan(run->metric[m])) {
			unsigned char le[8];
			uint64_t bits;
			double v = run->metric[m] == 0 ? 0.0 : run->metric[m]; /* -0 is 0 */
			memcpy(&bits, &v, sizeof(bits));
			for (int k = 0; k < 8; k++)
				le[k] = (unsigned char)(bits >> (8 * k));
			rid_add(fix, sizeof(fix), &n, &b, pl_metric_info[m].name,
			        strlen(pl_metric_info[m].name) + 1);
			rid_add(fix, sizeof(fix), &n, &b, le, sizeof(le));
		}
	{
		char full[65];
		if (b.oom || (b.len ? pl_sha256_hex(b.data, b.len, full) : pl_sha256_hex(fix, n, full)))
			rc = PL_ENOMEM;
		else
			memcpy(hex, full, 32); /* the first 128 bits */
		hex[rc ? 0 : 32] = '\0';
	}
	pl_buf_release(&b);
	return rc;
}

void pl_cond_key_release(struct pl_cond_key *key)
{
	if (!key)
		return;
	free(key->text);
	memset(key, 0, sizeof(*key));
}
