/*
 * inventory.c — the field inventory walk: no key of a source file is
 * dropped silently.
 *
 * Each adapter lists, per format version, every key it knows and its fate
 * (struct pl_field in adapters.h). After an adapter converted a record,
 * the walk looks up every key of the record in that list; a key no entry
 * matches is kept on the run as the extra condition "<format>.<path>"
 * with its value as text, and the run gets a warning naming it, which the
 * import prints. An entry of fate "extra" names a condition that no
 * canonical field holds yet: it is kept the same way, without a warning;
 * so is a key whose entry promises a canonical condition that the adapter
 * left unset (promised_but_missing).
 * Patterns: '*' (any characters), {a,b} alternatives, "[]" literally
 * (elements of an array of objects).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/adapters.h"
#include "core/hash.h"
#include "util/buf.h"

const char *pl_fate_name(enum pl_fate fate)
{
	switch (fate) {
	case PL_FATE_CONDITION:
		return "condition";
	case PL_FATE_METRIC:
		return "metric";
	case PL_FATE_DERIVED:
		return "derived";
	case PL_FATE_IGNORED:
		return "ignored";
	case PL_FATE_EXTRA:
		return "extra";
	case PL_FATE_RECORDS:
		return "records";
	}
	return "?";
}

/* Whether s[0..n) matches the pattern p (NUL-terminated). */
static int match(const char *p, const char *s, size_t n)
{
	while (*p) {
		if (*p == '*') {
			p++;
			for (size_t k = 0;; k++) {
				if (match(p, s + k, n - k))
					return 1;
				if (k == n)
					return 0;
			}
		}
		if (*p == '{') {
			const char *close = strchr(p, '}'), *alt = p + 1;
			if (!close)
				return 0;
			while (alt <= close) {
				const char *end = alt;
				char sub[256];
				int k;
				while (end < close && *end != ',')
					end++;
				/* this alternative followed by the rest of the pattern */
				k = snprintf(sub, sizeof(sub), "%.*s%s", (int)(end - alt), alt, close + 1);
				if (k > 0 && (size_t)k < sizeof(sub) && match(sub, s, n))
					return 1;
				alt = end + 1;
			}
			return 0;
		}
		if (n == 0 || *p != *s)
			return 0;
		p++, s++, n--;
	}
	return n == 0;
}

static const struct pl_format_version *version_of(const struct pl_adapter_info *info,
                                                  const char *version)
{
	const struct pl_format_version *v = info->inventory;

	if (!v || !v->version)
		return NULL;
	for (const struct pl_format_version *w = v; version && w->version; w++)
		if (strcmp(w->version, version) == 0)
			return w;
	return v;
}

/* The entry that matches path[0..n), or NULL. */
static const struct pl_field *known(const struct pl_format_version *v, const char *path, size_t n)
{
	const struct pl_field *t[2] = {v->fields, v->common};

	for (int i = 0; i < 2; i++)
		for (const struct pl_field *f = t[i]; f && f->key; f++)
			if (match(f->key, path, n))
				return f;
	return NULL;
}

/* 1 when f promises a canonical condition (fate condition, and its target
 * starts with a condition name) that the adapter did not set on run: the
 * value would be lost, so the walk keeps it as an extra instead. This
 * holds the promise "never dropped" while a mapping the inventory records
 * is not implemented yet, and shows an inventory that claims too much. */
static int promised_but_missing(const struct pl_field *f, const struct pl_run *run)
{
	char name[64];
	size_t n = strspn(f->to, "abcdefghijklmnopqrstuvwxyz0123456789_");
	int id;

	if (f->fate != PL_FATE_CONDITION || n == 0 || n >= sizeof(name))
		return 0;
	memcpy(name, f->to, n);
	name[n] = '\0';
	id = pl_cond_lookup(name);
	return id >= 0 && !run->cond[id].set;
}

/* Copies value into text (PL_EXTRA_VALUE_MAX + 1 bytes). A longer value is
 * cut at a UTF-8 character boundary and ends in "... #" and the first 16 hex
 * digits of its sha256, so that two long values that differ after the cut
 * still differ as extra conditions (they never pool). Returns 0 or
 * PL_ENOMEM. */
static int cap_value(char *text, const char *value, size_t len)
{
	char hex[65];
	size_t n;

	if (len <= PL_EXTRA_VALUE_MAX) {
		memcpy(text, value, len);
		text[len] = '\0';
		return 0;
	}
	if (pl_sha256_hex(value, len, hex))
		return PL_ENOMEM;
	n = PL_EXTRA_VALUE_MAX - 21; /* "... #" and 16 digits */
	while (n > 0 && ((unsigned char)value[n] & 0xC0) == 0x80)
		n--;
	memcpy(text, value, n);
	snprintf(text + n, PL_EXTRA_VALUE_MAX + 1 - n, "... #%.16s", hex);
	return 0;
}

/* The name of the extra condition of path: "<format>.<path>"; a path too
 * long for a name keeps its start and " #" and a hash of the whole path
 * (never dropped). */
static void extra_name(char *name, size_t size, const struct pl_adapter_info *info,
                       const char *path)
{
	size_t n = strlen(path), fl = strlen(info->name);

	if (fl + 1 + n < size) { /* the lengths are checked: memcpy, not snprintf */
		memcpy(name, info->name, fl);
		name[fl] = '.';
		memcpy(name + fl + 1, path, n + 1);
		return;
	}
	snprintf(name, size, "%s.%.*s #%016llx", info->name, (int)(size - strlen(info->name) - 22),
	         path, pl_hash64(path, n));
}

static void warn_kept(const struct pl_adapter_info *info, const char *path, const char *name,
                      struct pl_run *run)
{
	if (pl_cond_lookup(path) != PL_C_NONE && !pl_cond_per_run(pl_cond_lookup(path))) {
		/* the import reads it as that condition (pl_normalize_named_extras) */
		pl_run_warn(run,
		            "the key '%s' is not in the %s field inventory: read as the condition of "
		            "that name",
		            path, info->name);
		return;
	}
	pl_run_warn(run,
	            "the key '%s' is not in the %s field inventory: kept as the extra condition '%s'",
	            path, info->name, name);
}

/* Sets extra name to text (capped), counting against PL_EXTRAS_MAX. */
static int set_extra(const struct pl_adapter_info *info, struct pl_run *run, const char *name,
                     const char *text, size_t len, struct pl_error *err)
{
	char capped[PL_EXTRA_VALUE_MAX + 1];

	if (!pl_run_extra(run, name) && run->nextra >= PL_EXTRAS_MAX)
		return pl_error_set(err, PL_EINVALID,
		                    "more than %d keys that the %s field inventory does not know "
		                    "(the last: '%s'): is this file in the %s format?",
		                    PL_EXTRAS_MAX, info->name, name, info->name);
	if (cap_value(capped, text, len))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (pl_run_set_extra(run, name, capped, err))
		return err ? err->code : PL_EINVALID;
	return 0;
}

/* Keeps key = value of a text or CSV format as an extra condition, with a
 * warning unless quiet; a key met again with another value appends
 * "; value". */
static int keep_text(const struct pl_adapter_info *info, const char *key, const char *value,
                     int quiet, struct pl_run *run, struct pl_error *err)
{
	char name[320];
	const char *had;
	int rc;

	extra_name(name, sizeof(name), info, key);
	had = pl_run_extra(run, name);
	if (had && strcmp(had, value) == 0)
		return 0;
	if (had) {
		size_t hl = strlen(had), vl = strlen(value);
		char *both = malloc(hl + vl + 3);
		if (!both)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		memcpy(both, had, hl);
		memcpy(both + hl, "; ", 2);
		memcpy(both + hl + 2, value, vl + 1);
		rc = set_extra(info, run, name, both, hl + vl + 2, err);
		free(both);
		return rc;
	}
	if ((rc = set_extra(info, run, name, value, strlen(value), err)))
		return rc;
	if (!quiet)
		warn_kept(info, key, name, run);
	return 0;
}

int pl_inventory_check(const struct pl_adapter_info *info, const char *version, const char *key,
                       const char *value, struct pl_run *run, struct pl_error *err)
{
	const struct pl_format_version *v = version_of(info, version);
	const struct pl_field *f;

	if (!v || v->closed)
		return 0;
	f = known(v, key, strlen(key));
	if (f && f->fate != PL_FATE_EXTRA && !promised_but_missing(f, run))
		return 0;
	if (f && (!value || !value[0]))
		return 0; /* an empty cell holds nothing */
	return keep_text(info, key, value ? value : "", f != NULL, run, err);
}

/* One extra condition being collected by a walk: its whole text (every
 * element of the arrays it sits in), capped only when set on the run. */
struct acc {
	char *path;  /* the key's path (for the warning); owned */
	struct pl_buf text; /* its value(s), "; "-separated */
	int quiet;   /* 1: the inventory names it (fate extra), no warning */
};

struct walk_ctx {
	const struct pl_adapter_info *info;
	const struct pl_format_version *v;
	struct pl_run *run;
	struct pl_error *err;
	struct acc *acc; /* in the order the keys were met; owned */
	size_t nacc, cap;
};

/* Records path = value. Inside arrays (idx "[0][2]", the element indices
 * from the outermost array in) each element's value is added as
 * "idx=JSON" after "; ", so that elements keep their positions, a missing
 * member stays missing and "1; 2" in one element is not two elements. */
static int collect(struct walk_ctx *c, const char *path, const char *idx, const char *value,
                   int quiet)
{
	struct acc *a = NULL;

	for (size_t i = c->nacc; i-- > 0;)
		if (strcmp(c->acc[i].path, path) == 0) {
			a = &c->acc[i];
			break;
		}
	if (!a) {
		if (c->nacc == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 8;
			struct acc *v = realloc(c->acc, cap * sizeof(*v));
			if (!v)
				return pl_error_set(c->err, PL_ENOMEM, "out of memory");
			c->acc = v;
			c->cap = cap;
		}
		if (c->nacc >= PL_EXTRAS_MAX)
			return pl_error_set(c->err, PL_EINVALID,
			                    "more than %d keys that the %s field inventory does not know "
			                    "(the last: '%s'): is this file in the %s format?",
			                    PL_EXTRAS_MAX, c->info->name, path, c->info->name);
		a = &c->acc[c->nacc];
		memset(a, 0, sizeof(*a));
		pl_buf_init(&a->text);
		if (!(a->path = strdup(path)))
			return pl_error_set(c->err, PL_ENOMEM, "out of memory");
		a->quiet = quiet;
		c->nacc++;
	}
	if (a->text.len)
		pl_buf_adds(&a->text, "; ");
	if (*idx) {
		pl_buf_adds(&a->text, idx);
		pl_buf_addc(&a->text, '=');
	}
	if (pl_buf_adds(&a->text, value))
		return pl_error_set(c->err, PL_ENOMEM, "out of memory");
	return 0;
}

/* item as text for an extra: a string as it is outside arrays, anything
 * else (and strings inside arrays, where types must stay apart) as its
 * JSON text. *owned is what the caller frees with cJSON_free. */
static const char *item_text(const cJSON *item, const char *idx, char **owned)
{
	*owned = NULL;
	if (cJSON_IsString(item) && !idx[0])
		return item->valuestring;
	*owned = cJSON_PrintUnformatted(item);
	return *owned;
}

static int walk(struct walk_ctx *c, const cJSON *obj, char *path, size_t plen, size_t cap,
                char *idx, size_t ilen, size_t icap)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, obj)
	{
		size_t kl = it->string ? strlen(it->string) : 0, n = plen + kl;
		const struct pl_field *f;
		char *owned = NULL;
		const char *text;
		int rc = 0;

		if (!it->string)
			continue;
		if (n + 4 >= cap) { /* a path too long for the buffer: kept whole, hashed */
			if (!(text = item_text(it, idx, &owned)))
				return pl_error_set(c->err, PL_ENOMEM, "out of memory");
			rc = collect(c, "(a key path too long to name)", idx, text, 0);
			cJSON_free(owned);
			if (rc)
				return rc;
			continue;
		}
		memcpy(path + plen, it->string, kl + 1);
		f = known(c->v, path, n);
		if (f && ((f->fate != PL_FATE_EXTRA && !promised_but_missing(f, c->run)) ||
		          cJSON_IsNull(it) || (cJSON_IsString(it) && !it->valuestring[0]) ||
		          ((cJSON_IsObject(it) || cJSON_IsArray(it)) && !it->child))) {
			path[plen] = '\0';
			continue; /* accounted for; an extra without a value holds nothing */
		}
		if (!f && cJSON_IsObject(it) && it->child) {
			path[n] = '.';
			path[n + 1] = '\0';
			rc = walk(c, it, path, n + 1, cap, idx, ilen, icap);
		} else if (!f && cJSON_IsArray(it) && it->child && cJSON_IsObject(it->child)) {
			const cJSON *el;
			size_t i = 0;
			memcpy(path + n, "[].", 4);
			cJSON_ArrayForEach(el, it)
			{
				int k = snprintf(idx + ilen, icap - ilen, "[%zu]", i++);
				if (k < 0 || (size_t)k >= icap - ilen)
					rc = pl_error_set(c->err, PL_EINVALID,
					                  "arrays nested too deep under '%.100s'", path);
				else if (cJSON_IsObject(el))
					rc = walk(c, el, path, n + 3, cap, idx, ilen + (size_t)k, icap);
				else if ((text = item_text(el, idx, &owned)) != NULL)
					rc = collect(c, path, idx, text, 0); /* a non-object element */
				else
					rc = pl_error_set(c->err, PL_ENOMEM, "out of memory");
				cJSON_free(owned);
				owned = NULL;
				idx[ilen] = '\0';
				if (rc)
					break;
			}
		} else if (!cJSON_IsObject(it) || f || !it->child) {
			/* a scalar, an array of scalars, an empty object, or a known
			 * condition without a canonical field (kept whole, quietly) */
			if ((text = item_text(it, idx, &owned)) != NULL)
				rc = collect(c, path, idx, text, f != NULL);
			else
				rc = pl_error_set(c->err, PL_ENOMEM, "out of memory");
			cJSON_free(owned);
		}
		path[plen] = '\0';
		if (rc)
			return rc;
	}
	return 0;
}

int pl_inventory_walk(const struct pl_adapter_info *info, const char *version, const cJSON *obj,
                      const char *prefix, struct pl_run *run, struct pl_error *err)
{
	const struct pl_format_version *v = version_of(info, version);
	struct walk_ctx c = {info, v, run, err, NULL, 0, 0};
	char path[512], idx[256] = "";
	size_t plen;
	int rc;

	if (!v || v->closed || !cJSON_IsObject(obj))
		return 0;
	plen = (size_t)snprintf(path, sizeof(path), "%s", prefix ? prefix : "");
	if (plen >= sizeof(path))
		return 0;
	rc = walk(&c, obj, path, plen, sizeof(path), idx, 0, sizeof(idx));
	for (size_t i = 0; i < c.nacc; i++) {
		struct acc *a = &c.acc[i];
		char name[320];

		if (!rc) {
			extra_name(name, sizeof(name), info, a->path);
			rc = set_extra(info, run, name, a->text.data, a->text.len, err);
			if (!rc && !a->quiet)
				warn_kept(info, a->path, name, run);
		}
		free(a->path);
		pl_buf_release(&a->text);
	}
	free(c.acc);
	return rc;
}
