/*
 * inventory.c — the field inventory walk: no key of a source file is
 * dropped silently.
 *
 * Each adapter lists, per format version, every key it knows and its fate
 * (struct pl_field in adapters.h). After an adapter converted a record,
 * the walk looks up every key of the record in that list; a key no entry
 * matches is classified by the one rule of schema/formats.md ("Keys an
 * inventory does not know", pl_inventory_classify: its place in the
 * file's sections, then its shape): an unplaced measurement (kept on the
 * run, never a condition) or the extra condition "<format>.<path>" with
 * its value as text (the safe side). The run gets one marker line per key
 * in its warnings, which pl_inventory_summarize() turns into one summary
 * line per run for the import to print. An entry of fate "extra" names a condition that no
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
#include "util/alloc.h"
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

const char *pl_place_name(enum pl_place place)
{
	switch (place) {
	case PL_PLACE_CONFIG:
		return "configuration";
	case PL_PLACE_RESULT:
		return "result";
	case PL_PLACE_NONE:
		break;
	}
	return "-";
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

/* The place of path: the first section whose pattern matches path or a
 * prefix of it that ends before a '.' (so "benchmarks[].config" covers
 * "benchmarks[].config.backend.stream"). */
static enum pl_place place_of(const struct pl_format_version *v, const char *path)
{
	size_t n = strlen(path);

	for (const struct pl_section *sec = v ? v->sections : NULL; sec && sec->key; sec++)
		for (size_t k = 1; k <= n; k++)
			if ((k == n || path[k] == '.') && match(sec->key, path, k))
				return sec->place;
	return PL_PLACE_NONE;
}

/* 1 if word (NUL-terminated) is one of list. */
static int in_list(const char *word, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(word, *list) == 0)
			return 1;
	return 0;
}

/* The shape step of the rule for a number: 1 when the key's words say it
 * is a measured result (see pl_inventory_classify). */
static int measured_name(const char *path)
{
	static const char *const result[] = {
		"rate", "rates", "ratio", "acceptance", "accept", "accepted", "accuracy", "correct",
		"latency", "latencies", "throughput", "duration", "time", "elapsed", "goodput", "tps",
		"ttft", "tpot", "itl", "e2el", NULL};
	/* words of a count or a length: a result only beside a statistic
	 * ("total_output_tokens"), a setting alone ("input_tokens") */
	static const char *const weak[] = {"count", "counts", "tokens", "length", NULL};
	static const char *const stat[] = {"total", "mean", "avg", "average", "median", "std",
	                                   "stddev", "stdev", "sum", "generated", "per", "p25",
	                                   "p50", "p75", "p90", "p95", "p99", "p999", "min", "max",
	                                   NULL};
	static const char *const setting[] = {"limit", "target", "budget", "slo",   "seed",
	                                      "timeout", "warmup", "threshold", "cap", NULL};
	static const char *const counted[] = {
		"gpu", "gpus", "device", "devices", "node", "nodes", "worker", "workers", "replica",
		"replicas", "thread", "threads", "cpu", "cpus", "process", "processes", "instance",
		"instances", "conversation", "conversations", "turn", "turns", "prompt", "prompts",
		"user", "users", "client", "clients", "shard", "shards", "expert", "experts", "batch",
		"layer", "layers", NULL};
	static const char *const unit[] = {"_ms", "_s", "_us", "_ns", "(ns)", "(ms)", "(us)",
	                                   "(s)", "(%)", NULL};
	const char *leaf = path, *p;
	char low[256], word[64];
	size_t n = 0, wl = 0, nwords = 0;
	int has_result = 0, has_unit = 0, veto = 0, counts = 0, first_minmax = 0, has_weak = 0,
	    has_stat = 0;

	for (p = path; *p; p++) /* the last member: the key itself */
		if (*p == '.')
			leaf = p + 1;
	for (p = leaf; *p && n + 1 < sizeof(low); p++)
		low[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	low[n] = '\0';
	for (const char *const *u = unit; *u; u++) {
		size_t ul = strlen(*u);
		if (n > ul && strcmp(low + n - ul, *u) == 0)
			has_unit = 1;
	}
	if (strstr(low, "request_rate") || strstr(low, "arrival_rate"))
		return 0; /* how fast requests were sent: a setting */
	for (size_t i = 0; i <= n; i++) {
		int alnum = i < n && ((low[i] >= 'a' && low[i] <= 'z') || (low[i] >= '0' && low[i] <= '9'));
		if (alnum) {
			if (wl + 1 < sizeof(word))
				word[wl++] = low[i];
			continue;
		}
		if (wl == 0)
			continue;
		word[wl] = '\0';
		wl = 0;
		if (in_list(word, result))
			has_result = 1;
		if (in_list(word, weak))
			has_weak = 1;
		if (in_list(word, stat))
			has_stat = 1;
		if (in_list(word, setting))
			veto = 1;
		if (in_list(word, counted))
			counts = 1;
		if (nwords++ == 0 && (strcmp(word, "max") == 0 || strcmp(word, "min") == 0))
			first_minmax = 1;
	}
	if (veto || counts || (first_minmax && !has_unit))
		return 0;
	return has_result || has_unit || (has_weak && has_stat);
}

int pl_inventory_classify(const struct pl_adapter_info *info, const char *version,
                          const char *path, int kind, enum pl_place *place)
{
	const struct pl_format_version *v = info ? version_of(info, version) : NULL;
	enum pl_place pl = place_of(v, path);

	if (place)
		*place = pl;
	if (pl == PL_PLACE_CONFIG)
		return PL_KEY_CONDITION;
	if (pl == PL_PLACE_RESULT)
		return PL_KEY_MEASURE;
	if (kind == 'a' || (kind == 'n' && measured_name(path)))
		return PL_KEY_MEASURE;
	return PL_KEY_CONDITION;
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

/* The marker line of a key the rule classified (cls), which
 * pl_inventory_summarize() gathers into the run's one summary line. A
 * key of the name of a canonical condition keeps its own warning. */
#define MARK "\x1f"
static void warn_kept(const struct pl_adapter_info *info, const char *path, int cls,
                      struct pl_run *run)
{
	if (cls == PL_KEY_CONDITION && pl_cond_lookup(path) != PL_C_NONE &&
	    !pl_cond_per_run(pl_cond_lookup(path))) {
		/* the import reads it as that condition (pl_normalize_named_extras) */
		pl_run_warn(run,
		            "the key '%s' is not in the %s field inventory: read as the condition of "
		            "that name",
		            path, info->name);
		return;
	}
	pl_run_warn(run, MARK "%c%s", cls == PL_KEY_MEASURE ? 'M' : 'C', path);
}

/* Appends to b the keys of the marker lines of kind k in w, ", " between
 * them, at most 8 and "and N more". Returns how many there are. */
static size_t list_marked(struct pl_buf *b, const char *w, char k)
{
	size_t count = 0;

	for (const char *p = w; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len > 2 && p[0] == MARK[0] && p[1] == k) {
			if (count < 8) {
				if (count)
					pl_buf_adds(b, ", ");
				pl_buf_add(b, p + 2, len - 2);
			}
			count++;
		}
		p = e ? e + 1 : p + len;
	}
	if (count > 8) {
		char more[40];
		snprintf(more, sizeof(more), " and %zu more", count - 8);
		pl_buf_adds(b, more);
	}
	return count;
}

int pl_inventory_summarize(const char *format, struct pl_run *run)
{
	struct pl_buf rest, cond, meas;
	size_t nc, nm;
	const char *w = run->warnings;
	char head[200];
	int rc = 0;

	if (!w || !strstr(w, MARK))
		return 0;
	pl_buf_init(&rest);
	pl_buf_init(&cond);
	pl_buf_init(&meas);
	nc = list_marked(&cond, w, 'C');
	nm = list_marked(&meas, w, 'M');
	for (const char *p = w; *p;) { /* the other warnings, as they were */
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (!(len > 0 && p[0] == MARK[0])) {
			if (rest.len)
				pl_buf_addc(&rest, '\n');
			pl_buf_add(&rest, p, len);
		}
		p = e ? e + 1 : p + len;
	}
	if (rest.len)
		pl_buf_addc(&rest, '\n');
	snprintf(head, sizeof(head), "%zu key%s not in the %s field inventory: ", nc + nm,
	         nc + nm == 1 ? "" : "s", format);
	pl_buf_adds(&rest, head);
	if (nc) {
		snprintf(head, sizeof(head), "%zu kept as extra condition%s (", nc, nc == 1 ? "" : "s");
		pl_buf_adds(&rest, head);
		pl_buf_add(&rest, cond.data, cond.len);
		pl_buf_adds(&rest, ")");
	}
	if (nm) {
		snprintf(head, sizeof(head), "%s%zu kept as unplaced measurement%s (", nc ? "; " : "", nm,
		         nm == 1 ? "" : "s");
		pl_buf_adds(&rest, head);
		pl_buf_add(&rest, meas.data, meas.len);
		pl_buf_adds(&rest, ")");
	}
	if (rest.oom || cond.oom || meas.oom) {
		rc = PL_ENOMEM;
	} else {
		char *nw = malloc(rest.len + 1);
		if (!nw) {
			rc = PL_ENOMEM;
		} else {
			memcpy(nw, rest.data, rest.len);
			nw[rest.len] = '\0';
			free(run->warnings);
			run->warnings = nw;
		}
	}
	pl_buf_release(&rest);
	pl_buf_release(&cond);
	pl_buf_release(&meas);
	return rc;
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

/* Keeps key = value of a text or CSV format that the rule makes a
 * measurement: a number as that number, other text as its JSON string; a
 * key met again with another value appends "; value" to the text. */
static int keep_text_measure(const char *name, const char *value, struct pl_run *run,
                             struct pl_error *err)
{
	const struct pl_measure *had = pl_run_measure(run, name);
	cJSON *str;
	char *json;
	double v;
	int rc;

	if (!had && pl_parse_num(value, 0, &v) == 0)
		return pl_run_set_measure(run, name, v, NULL, err);
	if (had) {
		char num[40];
		struct pl_buf b;
		cJSON *prev = had->json ? cJSON_Parse(had->json) : NULL;
		pl_buf_init(&b);
		if (!had->json)
			pl_buf_adds(&b, pl_fmt_num(num, sizeof(num), had->num));
		else
			pl_buf_adds(&b, cJSON_IsString(prev) ? prev->valuestring : had->json);
		cJSON_Delete(prev);
		if (strcmp(b.data ? b.data : "", value) == 0) {
			pl_buf_release(&b);
			return 0;
		}
		pl_buf_adds(&b, "; ");
		pl_buf_adds(&b, value);
		str = b.oom ? NULL : cJSON_CreateString(b.data);
		pl_buf_release(&b);
	} else {
		str = cJSON_CreateString(value);
	}
	json = str ? cJSON_PrintUnformatted(str) : NULL;
	cJSON_Delete(str);
	if (!json)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = pl_run_set_measure(run, name, 0, json, err);
	cJSON_free(json);
	return rc;
}

/* Keeps key = value of a text or CSV format as the rule says: an extra
 * condition, or an unplaced measurement; marked for the summary unless
 * quiet (the inventory names it as an extra); an extra met again with
 * another value appends "; value". */
static int keep_text(const struct pl_adapter_info *info, const char *version, const char *key,
                     const char *value, int quiet, struct pl_run *run, struct pl_error *err)
{
	char name[320];
	const char *had;
	double v;
	int rc, seen;

	extra_name(name, sizeof(name), info, key);
	if (!quiet && pl_inventory_classify(info, version, key,
	                                    pl_parse_num(value, 0, &v) == 0 ? 'n' : 's',
	                                    NULL) == PL_KEY_MEASURE) {
		seen = pl_run_measure(run, name) != NULL;
		if ((rc = keep_text_measure(name, value, run, err)))
			return rc;
		if (!seen)
			warn_kept(info, key, PL_KEY_MEASURE, run);
		return 0;
	}
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
		warn_kept(info, key, PL_KEY_CONDITION, run);
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
	return keep_text(info, version, key, value ? value : "", f != NULL, run, err);
}

/* One extra condition being collected by a walk: its whole text (every
 * element of the arrays it sits in), capped only when set on the run. */
struct acc {
	char *path;  /* the key's path (for the warning); owned */
	struct pl_buf text; /* its value(s), "; "-separated */
	int quiet;   /* 1: the inventory names it (fate extra), no warning */
	const cJSON *item; /* its value when met once outside arrays, else NULL */
	int kind;    /* 'n' numbers only, 'a' arrays of numbers only, 's' anything else */
};

/* The kind of item for the rule: 'n' a number, 'a' a non-empty array of
 * numbers only, 's' anything else. */
static int kind_of(const cJSON *item)
{
	const cJSON *e;

	if (cJSON_IsNumber(item))
		return 'n';
	if (!cJSON_IsArray(item) || !item->child)
		return 's';
	cJSON_ArrayForEach(e, item)
	if (!cJSON_IsNumber(e))
		return 's';
	return 'a';
}

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
                   int quiet, const cJSON *item)
{
	struct acc *a = NULL;
	int kind = item ? kind_of(item) : 's';

	for (size_t i = c->nacc; i-- > 0;)
		if (strcmp(c->acc[i].path, path) == 0) {
			a = &c->acc[i];
			break;
		}
	if (!a) {
		if (PL_ALLOC_GROW(c->acc, c->nacc + 1, c->cap))
			return pl_error_set(c->err, PL_ENOMEM, "out of memory");
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
		a->kind = kind;
		a->item = *idx ? NULL : item;
		c->nacc++;
	} else {
		a->item = NULL; /* met again: the joined text is its value */
		if (a->kind != kind)
			a->kind = 's';
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
			rc = collect(c, "(a key path too long to name)", idx, text, 0, NULL);
			cJSON_free(owned);
			if (rc)
				return rc;
			continue;
		}
		if (cJSON_IsNull(it))
			continue; /* JSON null is a missing value, never the text "null" */
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
				else if (cJSON_IsNull(el))
					rc = 0; /* a missing element */
				else if (cJSON_IsObject(el))
					rc = walk(c, el, path, n + 3, cap, idx, ilen + (size_t)k, icap);
				else if ((text = item_text(el, idx, &owned)) != NULL)
					rc = collect(c, path, idx, text, 0, el); /* a non-object element */
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
				rc = collect(c, path, idx, text, f != NULL, it);
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

/* Keeps the collected key a as the unplaced measurement name: a number
 * met once as that number, any other value met once as its JSON text, a
 * key met in several elements of arrays as the JSON string of its joined
 * text ("[0]=1; [1]=2"). Returns 0, PL_ENOMEM or PL_EINVALID. */
static int keep_measure(struct pl_run *run, const char *name, const struct acc *a,
                        struct pl_error *err)
{
	char *json = NULL;
	int rc;

	if (a->item && cJSON_IsNumber(a->item))
		return pl_run_set_measure(run, name, a->item->valuedouble, NULL, err);
	if (a->item) {
		json = cJSON_PrintUnformatted(a->item);
	} else {
		cJSON *str = cJSON_CreateString(a->text.data ? a->text.data : "");
		if (str)
			json = cJSON_PrintUnformatted(str);
		cJSON_Delete(str);
	}
	if (!json)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = pl_run_set_measure(run, name, 0, json, err);
	cJSON_free(json);
	return rc;
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
			if (!a->quiet &&
			    pl_inventory_classify(info, version, a->path, a->kind, NULL) == PL_KEY_MEASURE)
				rc = keep_measure(run, name, a, err);
			else
				rc = set_extra(info, run, name, a->text.data, a->text.len, err);
			if (!rc && !a->quiet)
				warn_kept(info, a->path,
				          pl_run_measure(run, name) ? PL_KEY_MEASURE : PL_KEY_CONDITION, run);
		}
		free(a->path);
		pl_buf_release(&a->text);
	}
	free(c.acc);
	return rc;
}

int pl_inventory_maps(const char *format, const char *version, const char *path)
{
	size_t n;
	const struct pl_adapter_info *all = pl_adapters_list(&n);

	for (size_t i = 0; format && path && i < n; i++) {
		const struct pl_format_version *v;
		const struct pl_field *f;
		if (strcmp(all[i].name, format) != 0 || !all[i].inventory)
			continue;
		if (!(v = version_of(&all[i], version)))
			return 0;
		f = known(v, path, strlen(path));
		return f && f->fate != PL_FATE_EXTRA;
	}
	return 0;
}
