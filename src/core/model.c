/*
 * model.c — the condition and metric tables and the run's lifecycle.
 */
#include "core/model.h"
#include "core/carried.h"
#include "core/requests.h"

#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "util/alloc.h"

#define PL_COND_ROW_(id, nm, ty, fl, tw, tw2, desc) [PL_C_##id] = {nm, ty, fl, PL_C_##tw, PL_C_##tw2, desc},
const struct pl_cond_info pl_cond_info[PL_COND_COUNT] = {PL_CONDITIONS(PL_COND_ROW_)};
#undef PL_COND_ROW_

#define PL_METRIC_ROW_(id, nm, un, dir, st, desc) [PL_M_##id] = {nm, un, dir, st, desc},
const struct pl_metric_info pl_metric_info[PL_METRIC_COUNT] = {PL_METRICS(PL_METRIC_ROW_)};
#undef PL_METRIC_ROW_

/* Name lookups: open-addressing hash tables over the names, built once
 * per process (pthread_once). Adapters look up every JSON key they read,
 * so a linear strcmp over the tables was a visible share of an import. */
#define LOOKUP_SLOTS 512 /* power of two, well above both tables' sizes */

static signed char cond_slot[LOOKUP_SLOTS];  /* id + 1, 0 = empty */
static short metric_slot[LOOKUP_SLOTS];      /* id + 1, 0 = empty */
static pthread_once_t lookup_once = PTHREAD_ONCE_INIT;

static unsigned name_hash(const char *s)
{
	unsigned h = 2166136261u; /* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void lookup_build(void)
{
	for (int i = 0; i < PL_COND_COUNT; i++) {
		unsigned h = name_hash(pl_cond_info[i].name) & (LOOKUP_SLOTS - 1);
		while (cond_slot[h])
			h = (h + 1) & (LOOKUP_SLOTS - 1);
		cond_slot[h] = (signed char)(i + 1);
	}
	for (int i = 0; i < PL_METRIC_COUNT; i++) {
		unsigned h = name_hash(pl_metric_info[i].name) & (LOOKUP_SLOTS - 1);
		while (metric_slot[h])
			h = (h + 1) & (LOOKUP_SLOTS - 1);
		metric_slot[h] = (short)(i + 1);
	}
}

_Static_assert(PL_COND_COUNT < 127 && PL_COND_COUNT < LOOKUP_SLOTS / 2, "cond_slot too small");
_Static_assert(PL_METRIC_COUNT < LOOKUP_SLOTS / 2, "metric_slot too small");

int pl_cond_lookup(const char *name)
{
	unsigned h;

	if (!name)
		return PL_C_NONE;
	pthread_once(&lookup_once, lookup_build);
	for (h = name_hash(name) & (LOOKUP_SLOTS - 1); cond_slot[h]; h = (h + 1) & (LOOKUP_SLOTS - 1))
		if (strcmp(pl_cond_info[cond_slot[h] - 1].name, name) == 0)
			return cond_slot[h] - 1;
	return PL_C_NONE;
}

int pl_metric_lookup(const char *name)
{
	unsigned h;

	if (!name)
		return PL_M_NONE;
	pthread_once(&lookup_once, lookup_build);
	for (h = name_hash(name) & (LOOKUP_SLOTS - 1); metric_slot[h];
	     h = (h + 1) & (LOOKUP_SLOTS - 1))
		if (strcmp(pl_metric_info[metric_slot[h] - 1].name, name) == 0)
			return metric_slot[h] - 1;
	return PL_M_NONE;
}

const char *pl_unit_label(enum pl_unit unit)
{
	switch (unit) {
	case PL_U_SECONDS: return "s";
	case PL_U_TOKENS_PER_S: return "tok/s";
	case PL_U_REQUESTS_PER_S: return "req/s";
	case PL_U_FRACTION: return "fraction";
	case PL_U_COUNT: return "count";
	case PL_U_BYTES: return "bytes";
	case PL_U_WATTS: return "W";
	}
	return "?";
}

static const char *const checklist_items[PL_CHK_COUNT] = {
	"weights source", "engine version", "engine launch parameters",
	"driver and CUDA versions", "input/output lengths", "concurrency",
	"warm-up", "TTFT", "TPOT", "throughput", "p95 latency",
};

const char *pl_checklist_item(int i)
{
	if (i < 0 || i >= PL_CHK_COUNT)
		return "?";
	return checklist_items[i];
}

void pl_run_init(struct pl_run *run)
{
	memset(run, 0, sizeof(*run));
}

void pl_run_release(struct pl_run *run)
{
	if (!run)
		return;
	for (int i = 0; i < PL_COND_COUNT; i++)
		free(run->cond[i].text);
	free(run->source);
	free(run->adapter);
	free(run->format_version);
	free(run->imported_at);
	free(run->warnings);
	for (size_t i = 0; i < run->nextra; i++) {
		free(run->extra[i].name);
		free(run->extra[i].value);
	}
	free(run->extra);
	for (size_t i = 0; i < run->nmeasure; i++) {
		free(run->measure[i].name);
		free(run->measure[i].json);
	}
	free(run->measure);
	free(run->reject);
	for (int f = 0; f < PL_BUILD_COUNT; f++)
		free(run->build[f]);
	pl_carried_free(run->carried);
	pl_requests_free(run->requests);
	pl_run_init(run);
}

int pl_run_failed(const struct pl_run *run)
{
	return (run->has_metric[PL_M_REQUESTS_COMPLETED] &&
	        run->metric[PL_M_REQUESTS_COMPLETED] == 0) ||
	       (run->has_metric[PL_M_ERROR_RATE] && run->metric[PL_M_ERROR_RATE] >= 1);
}

int pl_run_reject(struct pl_run *run, const struct pl_error *err)
{
	if (!run->reject && !(run->reject = malloc(sizeof(*run->reject))))
		return PL_ENOMEM;
	*run->reject = *err;
	return 0;
}

int pl_strset(char **field, const char *s)
{
	char *copy = NULL;

	if (s) {
		copy = strdup(s);
		if (!copy)
			return PL_ENOMEM;
	}
	free(*field);
	*field = copy;
	return 0;
}

int pl_run_copy(struct pl_run *dst, const struct pl_run *src)
{
	pl_run_init(dst);
	dst->id = src->id;
	memcpy(dst->metric, src->metric, sizeof(dst->metric));
	memcpy(dst->has_metric, src->has_metric, sizeof(dst->has_metric));
	memcpy(dst->sha256, src->sha256, sizeof(dst->sha256));
	dst->record = src->record;
	dst->checklist_missing = src->checklist_missing;
	dst->revision = src->revision;
	dst->retracted = src->retracted;
	memcpy(dst->record_id, src->record_id, sizeof(dst->record_id));
	if (src->reject && pl_run_reject(dst, src->reject))
		goto oom;
	for (int i = 0; i < PL_COND_COUNT; i++) {
		dst->cond[i].set = src->cond[i].set;
		dst->cond[i].num = src->cond[i].num;
		if (pl_strset(&dst->cond[i].text, src->cond[i].text))
			goto oom;
	}
	if (pl_strset(&dst->source, src->source) || pl_strset(&dst->adapter, src->adapter) ||
	    pl_strset(&dst->format_version, src->format_version) ||
	    pl_strset(&dst->imported_at, src->imported_at) ||
	    pl_strset(&dst->warnings, src->warnings))
		goto oom;
	for (size_t i = 0; i < src->nextra; i++)
		if (pl_run_set_extra(dst, src->extra[i].name, src->extra[i].value, NULL))
			goto oom;
	for (size_t i = 0; i < src->nmeasure; i++)
		if (pl_run_set_measure(dst, src->measure[i].name, src->measure[i].num,
		                       src->measure[i].json, NULL))
			goto oom;
	for (int f = 0; f < PL_BUILD_COUNT; f++)
		if (pl_strset(&dst->build[f], src->build[f]))
			goto oom;
	dst->provenance_given = src->provenance_given;
	if (pl_carried_copy(&dst->carried, src->carried))
		goto oom;
	if (src->requests && !(dst->requests = pl_requests_dup(src->requests)))
		goto oom;
	return 0;
oom:
	pl_run_release(dst);
	return PL_ENOMEM;
}

void pl_run_warn(struct pl_run *run, const char *fmt, ...)
{
	char line[512];
	size_t old, n, cap = 0; /* cap: bytes warnings is known to hold (0: not known) */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	old = run->warnings ? strlen(run->warnings) : 0;
	n = strlen(line);
	if (PL_ALLOC_GROW(run->warnings, old + n + 2, cap))
		return;
	if (old)
		run->warnings[old++] = '\n';
	memcpy(run->warnings + old, line, n + 1);
}

static int is_numeric(enum pl_ctype t)
{
	return t == PL_CT_INT || t == PL_CT_REAL || t == PL_CT_BOOL;
}

/* n digits at p? */
static int digits(const char *p, int n)
{
	for (int i = 0; i < n; i++)
		if (!isdigit((unsigned char)p[i]))
			return 0;
	return 1;
}

int pl_is_iso8601(const char *s)
{
	if (!digits(s, 4) || s[4] != '-' || !digits(s + 5, 2) || s[7] != '-' || !digits(s + 8, 2))
		return 0;
	int y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
	int mo = (s[5] - '0') * 10 + (s[6] - '0'), d = (s[8] - '0') * 10 + (s[9] - '0');
	static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	if (mo < 1 || mo > 12 || d < 1 ||
	    d > mdays[mo - 1] + (mo == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
		return 0; /* no 2026-02-30 */
	s += 10;
	if (*s == '\0')
		return 1;
	if ((*s != 'T' && *s != ' ') || !digits(s + 1, 2) || s[3] != ':' || !digits(s + 4, 2))
		return 0;
	if ((s[1] - '0') * 10 + (s[2] - '0') > 23 || s[4] > '5')
		return 0;
	s += 6;
	if (*s == ':') {
		if (!digits(s + 1, 2) || (s[1] - '0') * 10 + (s[2] - '0') > 60)
			return 0;
		s += 3;
		if (*s == '.') {
			s++;
			if (!isdigit((unsigned char)*s))
				return 0;
			while (isdigit((unsigned char)*s))
				s++;
		}
	}
	if (*s == 'Z')
		return s[1] == '\0';
	if (*s == '+' || *s == '-') /* offsets run from -12:00 to +14:00 */
		return digits(s + 1, 2) && s[3] == ':' && digits(s + 4, 2) && s[6] == '\0' &&
		       (s[1] - '0') * 10 + (s[2] - '0') <= 14 && s[4] <= '5';
	return *s == '\0';
}

int pl_run_set_cond(struct pl_run *run, int id, const char *value, struct pl_error *err)
{
	struct pl_value *v;
	const struct pl_cond_info *ci;
	double num = 0;

	if (id < 0 || id >= PL_COND_COUNT)
		return pl_error_set(err, PL_EUSAGE, "unknown condition id %d", id);
	ci = &pl_cond_info[id];
	v = &run->cond[id];
	if (!value) {
		free(v->text);
		memset(v, 0, sizeof(*v));
		return 0;
	}
	if (ci->type == PL_CT_BOOL) {
		if (strcasecmp(value, "true") == 0 || strcmp(value, "1") == 0)
			return pl_run_set_cond_num(run, id, 1, err);
		if (strcasecmp(value, "false") == 0 || strcmp(value, "0") == 0)
			return pl_run_set_cond_num(run, id, 0, err);
		pl_error_field(err, ci->name);
		return pl_error_set(err, PL_EINVALID, "'%s' must be true or false, got '%s'", ci->name,
		                    value);
	}
	if (is_numeric(ci->type)) {
		if (pl_parse_num(value, 1, &num) != 0 || num < 0 ||
		    (ci->type == PL_CT_INT && isfinite(num) && num != floor(num))) {
			pl_error_field(err, ci->name);
			return pl_error_set(err, PL_EINVALID, "'%s' must be a %s, got '%s'", ci->name,
			                    ci->type == PL_CT_INT ? "non-negative whole number or inf"
			                                          : "non-negative number or inf",
			                    value);
		}
		if (ci->type == PL_CT_INT && isfinite(num) && num >= 9007199254740992.0) {
			/* a double holds whole numbers exactly only below 2^53: beyond,
			 * 2^53 + 1 would be stored as 2^53 without a word */
			pl_error_field(err, ci->name);
			/* value may be the text of an already rounded double (JSON
			 * numbers arrive as doubles), so it is not quoted back */
			return pl_error_set(err, PL_EINVALID,
			                    "'%s' is 2^53 (9007199254740992) or more; integers that large "
			                    "cannot be kept exact",
			                    ci->name);
		}
		return pl_run_set_cond_num(run, id, num, err);
	}
	if (ci->type == PL_CT_TIME && !pl_is_iso8601(value)) {
		pl_error_field(err, ci->name);
		return pl_error_set(err, PL_EINVALID,
		                    "'%s' must be an ISO 8601 time like 2026-01-31T12:00:00Z, got '%s'",
		                    ci->name, value);
	}
	if (pl_strset(&v->text, value))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	v->set = 1;
	v->num = 0;
	return 0;
}

int pl_run_set_cond_num(struct pl_run *run, int id, double num, struct pl_error *err)
{
	char buf[40];
	struct pl_value *v;

	if (id < 0 || id >= PL_COND_COUNT || !is_numeric(pl_cond_info[id].type))
		return pl_error_set(err, PL_EUSAGE, "condition %d is not numeric", id);
	v = &run->cond[id];
	if (pl_cond_info[id].type == PL_CT_BOOL)
		snprintf(buf, sizeof(buf), "%s", num != 0 ? "true" : "false");
	else
		pl_fmt_num(buf, sizeof(buf), num);
	if (pl_strset(&v->text, buf))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	v->set = 1;
	v->num = pl_cond_info[id].type == PL_CT_BOOL ? (num != 0) : num;
	return 0;
}

/* Index of NAME in the array at base of n elements of size bytes, each
 * starting with its `char *name` and sorted by it (strcmp), or where it
 * would be inserted (*found 0). */
_Static_assert(offsetof(struct pl_extra, name) == 0, "name_find reads name first");
_Static_assert(offsetof(struct pl_measure, name) == 0, "name_find reads name first");

static size_t name_find(const void *base, size_t n, size_t size, const char *name, int *found)
{
	size_t lo = 0, hi = n;

	*found = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(*(char *const *)((const char *)base + mid * size), name);
		if (c == 0) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Index of extra name in run->extra, or where it would be inserted
 * (*found 0). */
static size_t extra_find(const struct pl_run *run, const char *name, int *found)
{
	return name_find(run->extra, run->nextra, sizeof(*run->extra), name, found);
}

int pl_run_set_extra(struct pl_run *run, const char *name, const char *value,
                     struct pl_error *err)
{
	int found;
	size_t at;
	char *n = NULL, *v = NULL;

	if (!name || !strchr(name, '.') || name[0] == '.')
		return pl_error_set(err, PL_EINVALID, "extra condition '%s' must be named FORMAT.key",
		                    name ? name : "(null)");
	if (pl_utf8_valid_prefix(name, strlen(name)) != strlen(name) ||
	    (value && pl_utf8_valid_prefix(value, strlen(value)) != strlen(value)))
		return pl_error_set(err, PL_EINVALID, "extra condition '%s' is not UTF-8 text", name);
	at = extra_find(run, name, &found);
	if (!value) {
		if (found) {
			free(run->extra[at].name);
			free(run->extra[at].value);
			memmove(&run->extra[at], &run->extra[at + 1],
			        (run->nextra - at - 1) * sizeof(*run->extra));
			run->nextra--;
		}
		return 0;
	}
	if (!(v = strdup(value)))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (found) {
		free(run->extra[at].value);
		run->extra[at].value = v;
		return 0;
	}
	if (PL_ALLOC_GROW(run->extra, run->nextra + 1, run->extra_cap) || !(n = strdup(name))) {
		free(v);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	memmove(&run->extra[at + 1], &run->extra[at], (run->nextra - at) * sizeof(*run->extra));
	run->extra[at].name = n;
	run->extra[at].value = v;
	run->nextra++;
	return 0;
}

/* Index of measurement name in run->measure, or where it would be
 * inserted (*found 0). */
static size_t measure_find(const struct pl_run *run, const char *name, int *found)
{
	return name_find(run->measure, run->nmeasure, sizeof(*run->measure), name, found);
}

int pl_run_set_measure(struct pl_run *run, const char *name, double num, const char *json,
                       struct pl_error *err)
{
	int found;
	size_t at;
	char *n = NULL, *j = NULL;

	if (!name || !strchr(name, '.') || name[0] == '.')
		return pl_error_set(err, PL_EINVALID, "measurement '%s' must be named FORMAT.key",
		                    name ? name : "(null)");
	if (pl_utf8_valid_prefix(name, strlen(name)) != strlen(name) ||
	    (json && pl_utf8_valid_prefix(json, strlen(json)) != strlen(json)))
		return pl_error_set(err, PL_EINVALID, "measurement '%s' is not UTF-8 text", name);
	if (!json && !isfinite(num))
		return pl_error_set(err, PL_EINVALID, "measurement '%s' is not a finite number", name);
	if (json && !(j = strdup(json)))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	at = measure_find(run, name, &found);
	if (found) {
		free(run->measure[at].json);
	} else {
		if (PL_ALLOC_GROW(run->measure, run->nmeasure + 1, run->measure_cap) ||
		    !(n = strdup(name))) {
			free(j);
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		}
		memmove(&run->measure[at + 1], &run->measure[at],
		        (run->nmeasure - at) * sizeof(*run->measure));
		run->measure[at].name = n;
		run->nmeasure++;
	}
	run->measure[at].is_num = j == NULL;
	run->measure[at].num = j ? 0 : num;
	run->measure[at].json = j;
	return 0;
}

const struct pl_measure *pl_run_measure(const struct pl_run *run, const char *name)
{
	int found;
	size_t at = measure_find(run, name, &found);

	return found ? &run->measure[at] : NULL;
}

int pl_run_set_measure_text(struct pl_run *run, const char *name, const char *text,
                            struct pl_error *err)
{
	double v;
	int rc;

	if (pl_parse_num(text, 0, &v) == 0)
		return pl_run_set_measure(run, name, v, NULL, err);
	if (text[0] == '[' || text[0] == '{' || text[0] == '"')
		return pl_run_set_measure(run, name, 0, text, err);
	{
		/* a JSON string of the text */
		size_t n = strlen(text);
		char *q = malloc(2 * n + 3), *w = q;
		if (!q)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		*w++ = '"';
		for (const char *c = text; *c; c++) {
			if (*c == '"' || *c == '\\')
				*w++ = '\\';
			*w++ = (unsigned char)*c < 0x20 ? ' ' : *c;
		}
		*w++ = '"';
		*w = '\0';
		rc = pl_run_set_measure(run, name, 0, q, err);
		free(q);
	}
	return rc;
}

const char *pl_run_extra(const struct pl_run *run, const char *name)
{
	int found;
	size_t at = extra_find(run, name, &found);

	return found ? run->extra[at].value : NULL;
}

int pl_extras_equal(const struct pl_extra *a, size_t na, const struct pl_extra *b, size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i].name, b[i].name) != 0 || strcmp(a[i].value, b[i].value) != 0)
			return 0;
	return 1;
}

int pl_run_extras_equal(const struct pl_run *a, const struct pl_run *b)
{
	return pl_extras_equal(a->extra, a->nextra, b->extra, b->nextra);
}

void pl_run_set_metric(struct pl_run *run, int id, double value)
{
	if (id < 0 || id >= PL_METRIC_COUNT)
		return;
	run->metric[id] = value;
	run->has_metric[id] = 1;
}

static int has_any(const struct pl_run *run, const int *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (run->has_metric[ids[i]])
			return 1;
	return 0;
}

void pl_run_update_checklist(struct pl_run *run)
{
	static const int ttft[] = {PL_M_TTFT_MEAN, PL_M_TTFT_P50, PL_M_TTFT_P90, PL_M_TTFT_P95,
	                           PL_M_TTFT_P99};
	static const int tpot[] = {PL_M_TPOT_MEAN, PL_M_TPOT_P50, PL_M_TPOT_P90, PL_M_TPOT_P95,
	                           PL_M_TPOT_P99, PL_M_ITL_MEAN, PL_M_ITL_P50, PL_M_ITL_P90,
	                           PL_M_ITL_P95, PL_M_ITL_P99};
	static const int thr[] = {PL_M_OUTPUT_THROUGHPUT, PL_M_TPS_MEAN, PL_M_TPS_P50};
	static const int p95[] = {PL_M_TTFT_P95, PL_M_TPOT_P95, PL_M_ITL_P95, PL_M_E2EL_P95};
	const struct pl_value *c = run->cond;
	unsigned m = 0;

	if (!c[PL_C_MODEL_SOURCE].set && !c[PL_C_WEIGHTS_HASH].set)
		m |= PL_CHK_WEIGHTS_SOURCE;
	if (!c[PL_C_ENGINE_VERSION].set)
		m |= PL_CHK_ENGINE_VERSION;
	if (!c[PL_C_ENGINE_ARGS].set)
		m |= PL_CHK_ENGINE_ARGS;
	if (!c[PL_C_DRIVER_VERSION].set || !c[PL_C_CUDA_VERSION].set)
		m |= PL_CHK_DRIVER;
	if (!c[PL_C_INPUT_TOKENS].set || !c[PL_C_MAX_OUTPUT_TOKENS].set)
		m |= PL_CHK_LENGTHS;
	/* the load: a closed loop, a fixed rate, a rate ramp or a replayed trace */
	if (!c[PL_C_CONCURRENCY].set && !c[PL_C_REQUEST_RATE].set &&
	    !c[PL_C_RAMP_UP_STRATEGY].set && !c[PL_C_TRACE].set)
		m |= PL_CHK_CONCURRENCY;
	if (!c[PL_C_WARMUP_REQUESTS].set)
		m |= PL_CHK_WARMUP;
	if (!has_any(run, ttft, sizeof(ttft) / sizeof(ttft[0])))
		m |= PL_CHK_TTFT;
	if (!has_any(run, tpot, sizeof(tpot) / sizeof(tpot[0])))
		m |= PL_CHK_TPOT;
	if (!has_any(run, thr, sizeof(thr) / sizeof(thr[0])))
		m |= PL_CHK_THROUGHPUT;
	if (!has_any(run, p95, sizeof(p95) / sizeof(p95[0])))
		m |= PL_CHK_P95;
	run->checklist_missing = m;
}

void pl_run_list_init(struct pl_run_list *list)
{
	memset(list, 0, sizeof(*list));
}

struct pl_run *pl_run_list_push(struct pl_run_list *list)
{
	/* the first run alone: most lists (a file's runs) hold one run, and a
	 * struct pl_run is 1.6 KB, so PL_ALLOC_GROW's first 8 would make every
	 * queued file 13 KB; from the second run on it grows the list */
	if (!list->v && list->cap == 0) {
		if (!(list->v = malloc(sizeof(*list->v))))
			return NULL;
		list->cap = 1;
	} else if (PL_ALLOC_GROW(list->v, list->n + 1, list->cap)) {
		return NULL;
	}
	pl_run_init(&list->v[list->n]);
	return &list->v[list->n++];
}

void pl_run_list_release(struct pl_run_list *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->n; i++)
		pl_run_release(&list->v[i]);
	free(list->v);
	pl_run_list_init(list);
}

void pl_run_columns_init(struct pl_run_columns *cols)
{
	memset(cols, 0, sizeof(*cols));
}

void pl_run_columns_release(struct pl_run_columns *cols)
{
	if (!cols)
		return;
	if (cols->owned_sets && !cols->texts)
		for (size_t i = 0; i < cols->nsets; i++)
			pl_run_release(&cols->owned_sets[i]);
	else if (cols->owned_sets) /* pooled condition texts; extras are the sets' own */
		for (size_t i = 0; i < cols->nsets; i++) {
			struct pl_run *r = &cols->owned_sets[i];
			for (size_t k = 0; k < r->nextra; k++) {
				free(r->extra[k].name);
				free(r->extra[k].value);
			}
			free(r->extra);
			r->extra = NULL;
			r->nextra = 0;
			r->extra_cap = 0;
		}
	for (size_t i = 0; i < cols->ntexts; i++)
		free(cols->texts[i]);
	free(cols->texts);
	free(cols->owned_sets);
	free(cols->id);
	free(cols->set);
	free(cols->checklist_missing);
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		free(cols->metric[m]);
	pl_run_columns_init(cols);
}

int pl_run_columns_borrow(struct pl_run_columns *cols, const struct pl_run_list *list)
{
	size_t n = list->n ? list->n : 1; /* malloc(0) may return NULL */

	pl_run_columns_init(cols);
	cols->id = malloc(n * sizeof(*cols->id));
	cols->set = malloc(n * sizeof(*cols->set));
	cols->checklist_missing = malloc(n * sizeof(*cols->checklist_missing));
	if (!cols->id || !cols->set || !cols->checklist_missing)
		goto oom;
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		if (!(cols->metric[m] = malloc(n * sizeof(double))))
			goto oom;
	for (size_t i = 0; i < list->n; i++) {
		const struct pl_run *r = &list->v[i];

		cols->id[i] = r->id;
		cols->set[i] = i;
		cols->checklist_missing[i] = r->checklist_missing;
		for (int m = 0; m < PL_METRIC_COUNT; m++)
			cols->metric[m][i] = r->has_metric[m] ? r->metric[m] : NAN;
	}
	cols->sets = list->v;
	cols->nsets = list->n;
	cols->n = list->n;
	return 0;
oom:
	pl_run_columns_release(cols);
	return PL_ENOMEM;
}

static const char *const build_names[PL_BUILD_COUNT] = {"commit", "branch", "build_id",
                                                         "ci_run_url"};

const char *pl_build_name(int f)
{
	return f >= 0 && f < PL_BUILD_COUNT ? build_names[f] : NULL;
}

int pl_build_lookup(const char *name)
{
	for (int f = 0; name && f < PL_BUILD_COUNT; f++)
		if (strcmp(name, build_names[f]) == 0)
			return f;
	return -1;
}

/* Longest build identity text accepted, in bytes. */
#define BUILD_TEXT_MAX 1024

int pl_run_set_build(struct pl_run *run, int f, const char *text, struct pl_error *err)
{
	size_t len;

	if (f < 0 || f >= PL_BUILD_COUNT)
		return pl_error_set(err, PL_EINVALID, "unknown build field");
	len = text ? strlen(text) : 0;
	if (len == 0 || len > BUILD_TEXT_MAX)
		return pl_error_set(err, PL_EINVALID, "%s: expected 1 to %d bytes of text, got %zu",
		                    build_names[f], BUILD_TEXT_MAX, len);
	if (pl_utf8_valid_prefix(text, len) != len)
		return pl_error_set(err, PL_EINVALID, "%s: expected UTF-8 text", build_names[f]);
	for (size_t i = 0; i < len;) {
		unsigned long cp;
		size_t k = pl_utf8_decode(text + i, len - i, &cp);
		if (k == 0 || pl_cp_is_control(cp))
			return pl_error_set(err, PL_EINVALID,
			                    "%s: expected text without control characters (byte %zu)",
			                    build_names[f], i + 1);
		i += k;
	}
	if (f == PL_B_CI_RUN_URL && strncmp(text, "https://", 8) != 0 &&
	    strncmp(text, "http://", 7) != 0)
		return pl_error_set(err, PL_EINVALID,
		                    "ci_run_url: expected an http:// or https:// URL, got '%.60s'", text);
	if (pl_strset(&run->build[f], text))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	return 0;
}

int pl_cond_per_run(int id)
{
	return id == PL_C_RUN_STARTED_AT;
}

/* The C locale, for number formatting and parsing whatever the process
 * locale is (a comma-decimal LC_NUMERIC must not change files we write). */
static locale_t c_numeric_locale(void)
{
	static locale_t c_locale;

	if (!c_locale)
		c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	return c_locale;
}

/* snprintf "%.*g" in the C locale. */
static void fmt_c_locale(char *buf, size_t n, int prec, double v)
{
	locale_t c = c_numeric_locale();
	locale_t old = c ? uselocale(c) : (locale_t)0;

	snprintf(buf, n, "%.*g", prec, v);
	if (c)
		uselocale(old);
}

char *pl_fmt_num(char *buf, size_t n, double v)
{
	locale_t c, old;

	if (n == 0)
		return buf;
	if (isinf(v)) {
		snprintf(buf, n, "%s", v > 0 ? "inf" : "-inf");
		return buf;
	}
	if (isnan(v)) {
		snprintf(buf, n, "nan");
		return buf;
	}
	/* Whole numbers print whole: "%.1g" of 200 reads back as 200 but is "2e+02". */
	if (v == floor(v) && fabs(v) < 1e15) {
		/* "%.0f" digit by digit (-0 prints 0): reading a hundred thousand
		 * condition sets formats a million counts and token numbers */
		char digits[24], *e = digits + sizeof(digits), *p = e;
		unsigned long long u = (unsigned long long)fabs(v);
		size_t len;

		do {
			*--p = (char)('0' + u % 10);
			u /= 10;
		} while (u);
		if (v < 0)
			*--p = '-';
		len = (size_t)(e - p) < n - 1 ? (size_t)(e - p) : n - 1;
		memcpy(buf, p, len);
		buf[len] = '\0';
		return buf;
	}
	c = c_numeric_locale();
	old = c ? uselocale(c) : (locale_t)0;
	/* Shortcut: when 15 significant digits read back exactly, "%.15g" (which
	 * drops trailing zeros) is already the shortest form the loop below
	 * would find: a double within 2^-53 of a decimal of k <= 15 digits
	 * rounds to that decimal at 15 digits, and a non-whole value has more
	 * digits than its exponent, so %g picks the same notation. Subnormals
	 * have fewer bits and take the loop. */
	if (isnormal(v) && (snprintf(buf, n, "%.15g", v), strtod(buf, NULL) == v)) {
		if (c)
			uselocale(old);
		return buf;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (c)
		uselocale(old);
	return buf;
}

double pl_round_sig(double v, int digits)
{
	char buf[40];
	double out;

	if (!isfinite(v) || digits < 1 || digits > 17)
		return v;
	fmt_c_locale(buf, sizeof(buf), digits, v);
	if (pl_parse_num(buf, 0, &out) != 0)
		return v;
	return out;
}

double pl_scale_pow10(double v, int exp10)
{
	char digits[40], shifted[64];
	char *e;
	long ex = 0;
	double out;

	if (!isfinite(v) || v == 0 || exp10 == 0)
		return v;
	pl_fmt_num(digits, sizeof(digits), v);
	e = strpbrk(digits, "eE");
	if (e) {
		ex = strtol(e + 1, NULL, 10);
		*e = '\0';
	}
	snprintf(shifted, sizeof(shifted), "%se%ld", digits, ex + exp10);
	if (pl_parse_num(shifted, 0, &out) != 0)
		return v * pow(10.0, exp10); /* underflow/overflow: plain arithmetic */
	return out;
}

int pl_parse_num(const char *s, int allow_inf, double *out)
{
	locale_t c, old;
	char *end;
	double v;

	if (!s || !*s)
		return PL_EINVALID;
	if (allow_inf && (strcasecmp(s, "inf") == 0 || strcasecmp(s, "infinity") == 0 ||
	                  strcasecmp(s, "+inf") == 0)) {
		*out = INFINITY;
		return 0;
	}
	/* strtod also accepts "nan", "inf" and hex floats: allow only decimal text. */
	for (const char *p = s; *p; p++)
		if (!strchr("0123456789+-.eE", *p))
			return PL_EINVALID;
	c = c_numeric_locale();
	old = c ? uselocale(c) : (locale_t)0;
	errno = 0;
	v = strtod(s, &end);
	if (c)
		uselocale(old);
	if (end == s || *end || errno == ERANGE || !isfinite(v))
		return PL_EINVALID;
	*out = v;
	return 0;
}
