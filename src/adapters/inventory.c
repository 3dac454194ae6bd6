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

/* Copies value into text (PL_EXTRA_VALUE_MAX + 4 bytes), cut at a UTF-8
 * character boundary with "..." when longer than PL_EXTRA_VALUE_MAX. */
static void cap_value(char *text, const char *value)
{
	size_t n = strlen(value);

	if (n <= PL_EXTRA_VALUE_MAX) {
		memcpy(text, value, n + 1);
		return;
	}
	n = PL_EXTRA_VALUE_MAX - 3;
	while (n > 0 && ((unsigned char)value[n] & 0xC0) == 0x80)
		n--;
	memcpy(text, value, n);
	memcpy(text + n, "...", 4);
}

/* Keeps path = value as an extra condition of run, with a warning unless
 * the inventory names it (fate extra: quiet). The same key met again (in
 * another element of an array) with another value appends "; value". */
static int keep(const struct pl_adapter_info *info, const char *path, const char *value,
                int quiet, struct pl_run *run, struct pl_error *err)
{
	char name[320], text[PL_EXTRA_VALUE_MAX + 4];
	const char *had;

	snprintf(name, sizeof(name), "%s.%s", info->name, path);
	had = pl_run_extra(run, name);
	if (had) {
		char both[2 * PL_EXTRA_VALUE_MAX + 8];
		if (strcmp(had, value) == 0)
			return 0;
		snprintf(both, sizeof(both), "%s; %s", had, value);
		cap_value(text, both);
	} else {
		cap_value(text, value);
	}
	if (pl_run_set_extra(run, name, text, err))
		return err ? err->code : PL_EINVALID;
	if (!had && !quiet)
		pl_run_warn(run,
		            "the key '%s' is not in the %s field inventory: kept as the extra "
		            "condition '%s'",
		            path, info->name, name);
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
	return keep(info, key, value ? value : "", f != NULL, run, err);
}

static int walk(const struct pl_adapter_info *info, const struct pl_format_version *v,
                const cJSON *obj, char *path, size_t plen, size_t cap, struct pl_run *run,
                struct pl_error *err)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, obj)
	{
		size_t kl = it->string ? strlen(it->string) : 0, n = plen + kl;
		const struct pl_field *f;
		int rc = 0;

		if (!it->string || n + 3 >= cap)
			continue; /* a path too long to name: cannot be a known key either */
		memcpy(path + plen, it->string, kl + 1);
		f = known(v, path, n);
		if (f && ((f->fate != PL_FATE_EXTRA && !promised_but_missing(f, run)) ||
		          cJSON_IsNull(it) || (cJSON_IsString(it) && !it->valuestring[0])))
			continue; /* accounted for; an extra without a value holds nothing */
		if (f) { /* a known condition without a canonical field: kept whole */
			char *text = cJSON_IsString(it) ? NULL : cJSON_PrintUnformatted(it);
			if (!cJSON_IsString(it) && !text)
				rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			else
				rc = keep(info, path, text ? text : it->valuestring, 1, run, err);
			cJSON_free(text);
		} else if (cJSON_IsObject(it) && it->child) {
			path[n] = '.';
			path[n + 1] = '\0';
			rc = walk(info, v, it, path, n + 1, cap, run, err);
		} else if (cJSON_IsArray(it) && it->child && cJSON_IsObject(it->child)) {
			const cJSON *el;
			memcpy(path + n, "[].", 4);
			cJSON_ArrayForEach(el, it)
			{
				if (cJSON_IsObject(el))
					rc = walk(info, v, el, path, n + 3, cap, run, err);
				if (rc)
					break;
			}
		} else if (!cJSON_IsObject(it)) {
			char *text = NULL;
			if (cJSON_IsString(it))
				rc = keep(info, path, it->valuestring, 0, run, err);
			else if ((text = cJSON_PrintUnformatted(it)) != NULL)
				rc = keep(info, path, text, 0, run, err);
			else
				rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			cJSON_free(text);
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
	char path[512];
	size_t plen;

	if (!v || v->closed || !cJSON_IsObject(obj))
		return 0;
	plen = (size_t)snprintf(path, sizeof(path), "%s", prefix ? prefix : "");
	if (plen >= sizeof(path))
		return 0;
	return walk(info, v, obj, path, plen, sizeof(path), run, err);
}
