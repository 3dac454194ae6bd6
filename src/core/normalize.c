/*
 * normalize.c — the explicit normalization rules of normalize.h.
 *
 * Each rule is a small table or a few lines, and each is pinned by a unit
 * test (tests/unit/test_normalize.c). Nothing here guesses: a value that no
 * rule names passes through trimmed (and lower-cased where case carries no
 * meaning), so two different things never merge.
 */
/* timegm() (glibc, BSD; POSIX has no UTC mktime) */
#define _DEFAULT_SOURCE
#include "core/normalize.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "util/buf.h"

struct alias {
	const char *from; /* lower-case spelling */
	const char *to;   /* canonical form */
};

static const struct alias precision_aliases[] = {
	{"bf16", "bfloat16"},   {"bfloat16", "bfloat16"}, {"fp16", "float16"},
	{"float16", "float16"}, {"half", "float16"},      {"fp32", "float32"},
	{"float32", "float32"}, {"float", "float32"},     {"float8", "fp8"},
	{"fp8", "fp8"},
};

static const struct alias engine_aliases[] = {
	{"tensorrt-llm", "trt-llm"}, {"tensorrt_llm", "trt-llm"}, {"trtllm", "trt-llm"},
	{"trt-llm", "trt-llm"},      {"trt_llm", "trt-llm"},      {"llamacpp", "llama.cpp"},
	{"llama-cpp", "llama.cpp"},  {"llama_cpp", "llama.cpp"},  {"llama.cpp", "llama.cpp"},
	{"text-generation-inference", "tgi"},                     {"tgi", "tgi"},
	{"vllm", "vllm"},            {"sglang", "sglang"},
};

static const struct alias deployment_aliases[] = {
	{"local", "local"},         {"on-prem", "local"},        {"cloud", "cloud-api"},
	{"api", "cloud-api"},       {"cloud-api", "cloud-api"},  {"cloud_api", "cloud-api"},
};

/* Copy of s without leading/trailing white space, with every inner run of
 * white space folded to one space ("1x  NVIDIA H100" = "1x NVIDIA H100"),
 * lower-cased if lower. */
static char *trimmed_copy(const char *s, int lower)
{
	size_t len, o = 0;
	char *out;

	while (*s && isspace((unsigned char)*s))
		s++;
	len = strlen(s);
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	out = malloc(len + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (isspace(c)) {
			if (o > 0 && out[o - 1] == ' ')
				continue;
			c = ' ';
		}
		out[o++] = lower ? (char)tolower(c) : (char)c;
	}
	out[o] = '\0';
	return out;
}

static char *apply_aliases(const char *s, const struct alias *tab, size_t n)
{
	char *low = trimmed_copy(s, 1);

	if (!low)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(low, tab[i].from) == 0) {
			free(low);
			return strdup(tab[i].to);
		}
	}
	return low;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

char *pl_normalize_precision(const char *s)
{
	return apply_aliases(s, precision_aliases, COUNT(precision_aliases));
}

char *pl_normalize_engine(const char *s)
{
	return apply_aliases(s, engine_aliases, COUNT(engine_aliases));
}

char *pl_normalize_deployment(const char *s)
{
	return apply_aliases(s, deployment_aliases, COUNT(deployment_aliases));
}

long pl_hardware_accelerator_count(const char *hw)
{
	long n = 0;
	const char *p = hw;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p)) {
		if (n > 100000)
			return 0;
		n = n * 10 + (*p - '0');
		p++;
	}
	while (*p == ' ')
		p++;
	if (*p == 'x' || *p == 'X')
		p++;
	else if ((unsigned char)p[0] == 0xC3 && (unsigned char)p[1] == 0x97) /* U+00D7 × */
		p += 2;
	else
		return 0;
	/* "2x" must be followed by a space or the name: "2x A100", "2xA100". */
	if (*p == '\0' || n < 1)
		return 0;
	return n;
}

static const char *skip_v(const char *s)
{
	if ((s[0] == 'v' || s[0] == 'V') && isdigit((unsigned char)s[1]))
		return s + 1;
	return s;
}

int pl_version_cmp(const char *a, const char *b)
{
	a = skip_v(a);
	b = skip_v(b);
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *ea = a, *eb = b;
			size_t la, lb;
			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (ea = a; isdigit((unsigned char)*ea); ea++)
				;
			for (eb = b; isdigit((unsigned char)*eb); eb++)
				;
			la = (size_t)(ea - a);
			lb = (size_t)(eb - b);
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = memcmp(a, b, la);
			if (c)
				return c < 0 ? -1 : 1;
			a = ea;
			b = eb;
		} else {
			if (*a != *b)
				return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
			a++;
			b++;
		}
	}
	if (*a == *b)
		return 0;
	return *a ? 1 : -1;
}

/* Two digits at s as a number. */
static int two(const char *s)
{
	return (s[0] - '0') * 10 + (s[1] - '0');
}

/* A time (as pl_is_iso8601 takes it: YYYY-MM-DD, then optionally T or
 * space, HH:MM[:SS[.f]] and a zone Z / +HH:MM / -HH:MM) in the one
 * form that sorts as text: T between date and time, seconds always written
 * (":00" when absent), and a UTC offset turned into the same instant in UTC
 * with Z ("2026-01-02 12:00+02:00" -> "2026-01-02T10:00:00Z"; the fraction
 * kept, without trailing zeros: ".500" -> ".5", ".000" -> none, so that one
 * instant has one text). Kept with their offset: a leap second (:60, which UTC arithmetic
 * cannot place) and an instant whose UTC year is outside 0000-9999. A date
 * alone, a zone-less time, and text that is no such time (a --where value
 * is not checked) keep their meaning. t is a trimmed heap copy;
 * returns it or its replacement (NULL on out of memory). */
static char *normalize_time(char *t)
{
	size_t n = strlen(t), nfrac = 0;
	const char *frac = "", *zone, *p;
	struct tm tm = {0};
	int has_sec = 0, sec = 0;
	char *out;

	if (n <= 10 || !pl_is_iso8601(t))
		return t;
	if (t[10] == ' ')
		t[10] = 'T';
	p = t + 16; /* after THH:MM */
	if (*p == ':') {
		has_sec = 1;
		sec = two(p + 1);
		p += 3;
		if (*p == '.') {
			size_t keep;

			frac = p;
			while (isdigit((unsigned char)*++p))
				;
			nfrac = (size_t)(p - frac);
			/* one instant, one text: ".500" is ".5", ".000" nothing */
			for (keep = nfrac; keep > 1 && frac[keep - 1] == '0'; keep--)
				;
			if (keep == 1)
				keep = 0;
			if (keep < nfrac) {
				memmove(t + (frac - t) + keep, p, strlen(p) + 1);
				p = frac + keep;
				nfrac = keep;
				n = strlen(t);
			}
		}
	}
	zone = p; /* "", "Z" or "+HH:MM" */
	if ((zone[0] == '+' || zone[0] == '-') && sec < 60) {
		int sign = zone[0] == '+' ? 1 : -1;
		time_t when;
		tm.tm_year = two(t) * 100 + two(t + 2) - 1900; /* YYYY: checked digits */
		tm.tm_mon = two(t + 5) - 1;
		tm.tm_mday = two(t + 8);
		tm.tm_hour = two(t + 11);
		tm.tm_min = two(t + 14);
		tm.tm_sec = sec;
		when = timegm(&tm) - sign * (time_t)(two(zone + 1) * 3600 + two(zone + 4) * 60);
		if (gmtime_r(&when, &tm) && tm.tm_year + 1900 >= 0 && tm.tm_year + 1900 <= 9999) {
			if (!(out = malloc(20 + nfrac + 2))) {
				free(t);
				return NULL;
			}
			strftime(out, 20, "%Y-%m-%dT%H:%M:%S", &tm);
			memcpy(out + 19, frac, nfrac);
			memcpy(out + 19 + nfrac, "Z", 2);
			free(t);
			return out;
		}
	}
	if (has_sec)
		return t;
	/* HH:MM then the zone: insert ":00" */
	if (!(out = malloc(n + 4))) {
		free(t);
		return NULL;
	}
	memcpy(out, t, 16);
	memcpy(out + 16, ":00", 3);
	memcpy(out + 19, t + 16, n - 16 + 1);
	free(t);
	return out;
}

/* speculative_method: a method name (eagle, EAGLE3, MTP, ngram) is
 * lower-cased; a draft model's name (it holds a '/') is kept as given. */
static char *normalize_spec_method(const char *value)
{
	return trimmed_copy(value, strchr(value, '/') == NULL);
}

char *pl_normalize_value(int id, const char *value)
{
	if (id < 0 || id >= PL_COND_COUNT || !value)
		return NULL;
	switch (id) {
	case PL_C_PRECISION:
	case PL_C_QUANTIZATION:
	case PL_C_KV_CACHE_DTYPE:
		return pl_normalize_precision(value);
	case PL_C_ENGINE:
		return pl_normalize_engine(value);
	case PL_C_DEPLOYMENT:
		return pl_normalize_deployment(value);
	case PL_C_SPECULATIVE_METHOD:
		return normalize_spec_method(value);
	default:
		break;
	}
	if (pl_cond_info[id].type == PL_CT_VERSION) {
		char *t = trimmed_copy(value, 0);
		if (t && t != skip_v(t))
			memmove(t, t + 1, strlen(t));
		return t;
	}
	if (pl_cond_info[id].type == PL_CT_BOOL)
		return trimmed_copy(value, 1);
	if (pl_cond_info[id].type == PL_CT_TIME) {
		char *t = trimmed_copy(value, 0);
		return t ? normalize_time(t) : NULL;
	}
	return trimmed_copy(value, 0);
}

/* "8x b200" for pool hardware hw with count n (n 0 = unknown), or hw as it
 * is when it already starts with its count ("8x B200"). */
static void pool_text(struct pl_buf *b, const char *role, const struct pl_value *hw,
                      const struct pl_value *count)
{
	char num[32];

	pl_buf_adds(b, role);
	pl_buf_addc(b, ' ');
	if (count->set && pl_hardware_accelerator_count(hw->text) == 0) {
		pl_buf_adds(b, pl_fmt_num(num, sizeof(num), count->num));
		pl_buf_adds(b, "x ");
	}
	pl_buf_adds(b, hw->text);
}

/* Disaggregated serving: with both pools' hardware known, hardware names
 * both ("prefill 8x b200 + decode 16x h100"), so that a --where
 * hardware=b200 meant for one pool never selects it, and accelerator_count
 * is the sum of the pools' counts when both are known (a given count that
 * disagrees is an error). A hardware given for one pool only is replaced,
 * with a warning. */
static int normalize_pools(struct pl_run *run, struct pl_error *err)
{
	const struct pl_value *ph = &run->cond[PL_C_PREFILL_HARDWARE],
	                      *dh = &run->cond[PL_C_DECODE_HARDWARE],
	                      *pc = &run->cond[PL_C_PREFILL_ACCELERATOR_COUNT],
	                      *dc = &run->cond[PL_C_DECODE_ACCELERATOR_COUNT];
	struct pl_value *hw = &run->cond[PL_C_HARDWARE], *ac = &run->cond[PL_C_ACCELERATOR_COUNT];
	struct pl_buf b;
	int rc = 0;

	if (!ph->set || !dh->set)
		return 0;
	pl_buf_init(&b);
	pool_text(&b, "prefill", ph, pc);
	pl_buf_adds(&b, " + ");
	pool_text(&b, "decode", dh, dc);
	if (b.oom) {
		pl_buf_release(&b);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (hw->set && strcmp(hw->text, b.data) != 0)
		pl_run_warn(run, "hardware '%s' names one pool of a disaggregated run: stored as '%s'",
		            hw->text, b.data);
	if (!hw->set || strcmp(hw->text, b.data) != 0)
		rc = pl_run_set_cond(run, PL_C_HARDWARE, b.data, err);
	pl_buf_release(&b);
	if (rc || !pc->set || !dc->set)
		return rc;
	if (ac->set && ac->num != pc->num + dc->num) {
		pl_error_field(err, "accelerator_count");
		return pl_error_set(err, PL_EINVALID,
		                    "accelerator_count %s disagrees with the disaggregated pools "
		                    "(prefill %s + decode %s)",
		                    ac->text, pc->text, dc->text);
	}
	if (!ac->set)
		rc = pl_run_set_cond_num(run, PL_C_ACCELERATOR_COUNT, pc->num + dc->num, err);
	return rc;
}

int pl_normalize_run(struct pl_run *run, struct pl_error *err)
{
	int rc;

	for (int id = 0; id < PL_COND_COUNT; id++) {
		struct pl_value *v = &run->cond[id];
		enum pl_ctype t = pl_cond_info[id].type;
		char *norm;

		if (!v->set || t == PL_CT_INT || t == PL_CT_REAL || t == PL_CT_BOOL)
			continue;
		norm = pl_normalize_value(id, v->text);
		if (!norm)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		if (!*norm) {
			free(norm);
			pl_error_field(err, pl_cond_info[id].name);
			return pl_error_set(err, PL_EINVALID, "'%s' is empty", pl_cond_info[id].name);
		}
		free(v->text);
		v->text = norm;
	}
	if ((rc = normalize_pools(run, err)))
		return rc;
	if (run->cond[PL_C_HARDWARE].set) {
		long n = pl_hardware_accelerator_count(run->cond[PL_C_HARDWARE].text);
		struct pl_value *ac = &run->cond[PL_C_ACCELERATOR_COUNT];
		if (n > 0 && !ac->set) {
			if (pl_run_set_cond_num(run, PL_C_ACCELERATOR_COUNT, (double)n, err))
				return err ? err->code : PL_ENOMEM;
		} else if (n > 0 && ac->num != (double)n) {
			pl_error_field(err, "accelerator_count");
			return pl_error_set(err, PL_EINVALID,
			                    "accelerator_count %s disagrees with hardware '%s' (%ld)",
			                    ac->text, run->cond[PL_C_HARDWARE].text, n);
		}
	}
	return 0;
}

/* The parts of a time as stored (pl_normalize_value): "YYYY-MM-DDTHH:MM:SS"
 * (19 characters), then an optional ".fraction", then the zone (the rest:
 * "Z", "" or an offset kept for a leap second or a year out of range).
 * Returns 0 if t does not have that shape. */
static int time_parts(const char *t, const char **frac, size_t *nfrac, const char **zone)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";

	for (int i = 0; i < 19; i++)
		if (shape[i] == 'd' ? !isdigit((unsigned char)t[i]) : t[i] != shape[i])
			return 0;
	*frac = t + 19;
	*nfrac = 0;
	if (**frac == '.')
		for ((*frac)++; isdigit((unsigned char)(*frac)[*nfrac]); (*nfrac)++)
			;
	*zone = *frac + *nfrac;
	return 1;
}

/* Times in instant order where the text order differs: "10:00:00.5Z" after
 * "10:00:00Z" ('.' sorts before 'Z'), "10:00:00.5Z" equal to
 * "10:00:00.500Z". Times of other shapes or zones compare as text. */
static int time_cmp(const char *x, const char *y)
{
	const char *fx, *fy, *zx, *zy;
	size_t nx, ny;
	int c;

	if (!time_parts(x, &fx, &nx, &zx) || !time_parts(y, &fy, &ny, &zy) || strcmp(zx, zy) != 0)
		return strcmp(x, y);
	if ((c = memcmp(x, y, 19)) != 0)
		return c;
	for (size_t i = 0; i < nx || i < ny; i++) { /* missing digits are zeros */
		char dx = i < nx ? fx[i] : '0', dy = i < ny ? fy[i] : '0';
		if (dx != dy)
			return dx < dy ? -1 : 1;
	}
	return 0;
}

int pl_value_cmp(int id, const struct pl_value *a, const struct pl_value *b)
{
	enum pl_ctype t = pl_cond_info[id].type;

	if (!a->set || !b->set)
		return a->set == b->set ? 0 : (a->set ? -1 : 1);
	if (t == PL_CT_INT || t == PL_CT_REAL || t == PL_CT_BOOL)
		return a->num < b->num ? -1 : a->num > b->num ? 1 : 0;
	if (t == PL_CT_VERSION)
		return pl_version_cmp(a->text, b->text);
	if (t == PL_CT_TIME)
		return time_cmp(a->text, b->text);
	return strcmp(a->text, b->text);
}

int pl_value_equal(const struct pl_value *a, const struct pl_value *b)
{
	if (!a->set || !b->set)
		return a->set == b->set;
	return strcmp(a->text, b->text) == 0;
}

int pl_normalize_named_extras(struct pl_run *run, struct pl_error *err)
{
	for (size_t i = 0; i < run->nextra;) {
		const char *name = run->extra[i].name, *key = strchr(name, '.');
		int id = key ? pl_cond_lookup(key + 1) : PL_C_NONE;
		struct pl_run tmp;
		char *mine, *theirs;
		int same, rc;

		if (id == PL_C_NONE || pl_cond_per_run(id)) {
			i++;
			continue;
		}
		pl_run_init(&tmp);
		if (pl_run_set_cond(&tmp, id, run->extra[i].value, NULL) != 0) {
			pl_run_release(&tmp); /* not of the condition's type: stays an extra */
			i++;
			continue;
		}
		if (!run->cond[id].set) {
			rc = pl_run_set_cond(run, id, tmp.cond[id].text, err);
			pl_run_release(&tmp);
			if (rc || (rc = pl_run_set_extra(run, name, NULL, err)))
				return rc;
			continue; /* the entry at i is gone: the next one moved here */
		}
		mine = pl_normalize_value(id, tmp.cond[id].text);
		theirs = pl_normalize_value(id, run->cond[id].text);
		pl_run_release(&tmp);
		if (!mine || !theirs) {
			free(mine);
			free(theirs);
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		}
		same = pl_cond_info[id].type == PL_CT_TEXT ? strcasecmp(mine, theirs) == 0
		                                           : strcmp(mine, theirs) == 0;
		if (!same) {
			pl_error_field(err, pl_cond_info[id].name);
			rc = pl_error_set(err, PL_EINVALID,
			                  "the file's %s is '%.100s' but the run's is '%.100s' (from a "
			                  "sidecar, --set or engine_args): they must agree",
			                  pl_cond_info[id].name, mine, theirs);
			free(mine);
			free(theirs);
			return rc;
		}
		free(mine);
		free(theirs);
		if ((rc = pl_run_set_extra(run, name, NULL, err)))
			return rc;
	}
	return 0;
}
