/*
 * engine_args.c — the launch flags of vLLM and SGLang read from engine_args.
 *
 * Three steps: split the text into words (shell quoting), walk the words
 * against one flag table, and (for --speculative-config) read two members
 * of a small JSON object with a scanner of its own (core links no JSON
 * library). pl_engine_args_apply() then checks each value against what the
 * run already holds. See engine_args.h for the flags and the rules.
 */
#include "core/engine_args.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/normalize.h"
#include "util/alloc.h"

/* How a flag takes its value. */
enum kind {
	K_COUNT, /* a whole number >= 1 */
	K_TEXT,  /* a word, as given */
	K_LOWER, /* a word, lower-cased */
	K_TRUE,  /* no value: the condition is true */
	K_FALSE, /* no value: the condition is false */
	K_EP,    /* no value: expert parallel on (size = tp x dp) */
	K_SPEC,  /* a JSON object: method, num_speculative_tokens */
	K_NAMED  /* a value (a name): the condition is true */
};

static const struct {
	const char *flag;
	int cond;
	enum kind kind;
} flags[] = {
	{"--tensor-parallel-size", PL_C_TENSOR_PARALLEL_SIZE, K_COUNT},
	{"-tp", PL_C_TENSOR_PARALLEL_SIZE, K_COUNT},
	{"--tp-size", PL_C_TENSOR_PARALLEL_SIZE, K_COUNT},
	{"--tp", PL_C_TENSOR_PARALLEL_SIZE, K_COUNT},
	{"--pipeline-parallel-size", PL_C_PIPELINE_PARALLEL_SIZE, K_COUNT},
	{"-pp", PL_C_PIPELINE_PARALLEL_SIZE, K_COUNT},
	{"--pp-size", PL_C_PIPELINE_PARALLEL_SIZE, K_COUNT},
	{"--data-parallel-size", PL_C_DATA_PARALLEL_SIZE, K_COUNT},
	{"-dp", PL_C_DATA_PARALLEL_SIZE, K_COUNT},
	{"--dp-size", PL_C_DATA_PARALLEL_SIZE, K_COUNT},
	{"--dp", PL_C_DATA_PARALLEL_SIZE, K_COUNT},
	{"--ep-size", PL_C_EXPERT_PARALLEL_SIZE, K_COUNT},
	{"--expert-parallel-size", PL_C_EXPERT_PARALLEL_SIZE, K_COUNT},
	{"--enable-expert-parallel", PL_C_EXPERT_PARALLEL_SIZE, K_EP},
	{"--kv-cache-dtype", PL_C_KV_CACHE_DTYPE, K_TEXT},
	{"--max-num-seqs", PL_C_MAX_NUM_SEQS, K_COUNT},
	{"--max-num-batched-tokens", PL_C_MAX_NUM_BATCHED_TOKENS, K_COUNT},
	{"--max-model-len", PL_C_MAX_MODEL_LEN, K_COUNT},
	{"--context-length", PL_C_MAX_MODEL_LEN, K_COUNT},
	{"--enable-prefix-caching", PL_C_PREFIX_CACHING, K_TRUE},
	{"--no-enable-prefix-caching", PL_C_PREFIX_CACHING, K_FALSE},
	{"--disable-radix-cache", PL_C_PREFIX_CACHING, K_FALSE},
	{"--speculative-config", PL_C_SPECULATIVE_METHOD, K_SPEC},
	{"--speculative-algorithm", PL_C_SPECULATIVE_METHOD, K_LOWER},
	{"--num-speculative-tokens", PL_C_SPECULATIVE_DRAFT_TOKENS, K_COUNT},
	{"--reasoning-parser", PL_C_OUTPUT_INCLUDES_REASONING, K_NAMED},
};

void pl_engine_flags_init(struct pl_engine_flags *f)
{
	memset(f, 0, sizeof(*f));
}

void pl_engine_flags_release(struct pl_engine_flags *f)
{
	if (!f)
		return;
	for (int i = 0; i < PL_COND_COUNT; i++)
		free(f->value[i]);
	pl_engine_flags_init(f);
}

/* ------------------------------------------------------------------ words */

struct words {
	char **v;
	size_t n, cap;
};

static void words_release(struct words *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
}

/* Characters that end a word outside quotes, as shell operators do (a
 * command line such as "--tp 1; rm -rf /" gives --tp 1, not "1;"). */
#define OPERATORS ";|&()<>"

/* Splits s into words with shell quoting. Returns 0, PL_ENOMEM or
 * PL_EINVALID (an unterminated quote). */
static int split(const char *s, struct words *w, struct pl_error *err)
{
	size_t len = strlen(s);
	char *buf = malloc(len + 1);

	if (!buf)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	while (*s) {
		size_t n = 0;
		int any = 0;

		while (*s && (isspace((unsigned char)*s) || strchr(OPERATORS, *s)))
			s++;
		if (*s == '#') { /* a comment, to the end of the line */
			while (*s && *s != '\n')
				s++;
			continue;
		}
		if (!*s)
			break;
		while (*s && !isspace((unsigned char)*s) && !strchr(OPERATORS, *s)) {
			char q = *s;
			any = 1;
			if (q == '\'' || q == '"') {
				s++;
				while (*s && *s != q) {
					if (q == '"' && *s == '\\' && (s[1] == '"' || s[1] == '\\'))
						s++;
					buf[n++] = *s++;
				}
				if (!*s) {
					free(buf);
					pl_error_field(err, "engine_args");
					return pl_error_set(err, PL_EINVALID,
					                    "engine_args: unterminated %s quote",
					                    q == '"' ? "double" : "single");
				}
				s++;
			} else if (q == '\\' && s[1]) {
				buf[n++] = s[1];
				s += 2;
			} else {
				buf[n++] = *s++;
			}
		}
		if (!any)
			continue;
		if (PL_ALLOC_GROW(w->v, w->n + 1, w->cap)) {
			free(buf);
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		}
		buf[n] = '\0';
		if (!(w->v[w->n] = strdup(buf))) {
			free(buf);
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		}
		w->n++;
	}
	free(buf);
	return 0;
}

/* ------------------------------------------- a small JSON object scanner */

static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* Scans a JSON string at p (at its opening quote). When out is not NULL,
 * copies its content (escapes \" \\ \/ \b \f \n \r \t decoded; \u is
 * refused) into a heap string. Returns the position after the closing
 * quote, or NULL when malformed (or out of memory, *oom set). */
static const char *scan_string(const char *p, char **out, int *oom)
{
	const char *start = ++p;
	char *o = NULL;
	size_t n = 0;

	while (*p && *p != '"') {
		if (*p == '\\') {
			if (!p[1])
				return NULL;
			p++;
		}
		p++;
	}
	if (*p != '"')
		return NULL;
	if (!out)
		return p + 1;
	if (!(o = malloc((size_t)(p - start) + 1))) {
		*oom = 1;
		return NULL;
	}
	for (const char *q = start; q < p; q++) {
		if (*q == '\\') {
			static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
			const char *k = strchr(from, *++q);
			if (!k || !*k) {
				free(o);
				return NULL;
			}
			o[n++] = to[k - from];
		} else {
			o[n++] = *q;
		}
	}
	o[n] = '\0';
	*out = o;
	return p + 1;
}

/* Skips one JSON value at p. Returns the position after it, or NULL. */
static const char *skip_value(const char *p, int depth)
{
	p = ws(p);
	if (*p == '"')
		return scan_string(p, NULL, NULL);
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';
		if (depth > 32)
			return NULL;
		p = ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (close == '}') {
				if (*p != '"' || !(p = scan_string(p, NULL, NULL)))
					return NULL;
				p = ws(p);
				if (*p++ != ':')
					return NULL;
			}
			if (!(p = skip_value(p, depth + 1)))
				return NULL;
			p = ws(p);
			if (*p == close)
				return p + 1;
			if (*p++ != ',')
				return NULL;
			p = ws(p);
		}
	}
	if (strncmp(p, "true", 4) == 0 || strncmp(p, "null", 4) == 0)
		return p + 4;
	if (strncmp(p, "false", 5) == 0)
		return p + 5;
	if (*p == '-' || isdigit((unsigned char)*p)) {
		char *end;
		(void)strtod(p, &end); /* C locale: the program never sets another */
		return end > p ? end : NULL;
	}
	return NULL;
}

static int bad_value(struct pl_error *err, const char *flag, const char *what, const char *got)
{
	pl_error_field(err, "engine_args");
	return pl_error_set(err, PL_EINVALID, "engine_args: %s expects %s, got '%.60s'", flag, what,
	                    got);
}

/* A whole number >= 1 in canonical text ("8"), or NULL. */
static char *count_text(const char *s)
{
	double v;
	char buf[40];

	if (pl_parse_num(s, 0, &v) || v < 1 || v > 9007199254740992.0 || v != floor(v))
		return NULL;
	return strdup(pl_fmt_num(buf, sizeof(buf), v));
}

static void put(struct pl_engine_flags *f, int cond, char *value, const char *flag)
{
	free(f->value[cond]);
	f->value[cond] = value;
	f->flag[cond] = flag;
}

static char *lower_dup(const char *s)
{
	char *o = strdup(s);
	for (char *p = o; p && *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return o;
}

/* --speculative-config: method and num_speculative_tokens of a JSON object. */
static int parse_spec(const char *flag, const char *json, struct pl_engine_flags *f,
                      struct pl_error *err)
{
	const char *p = ws(json);
	char *method = NULL, *draft = NULL;
	int oom = 0;

	if (*p != '{')
		return bad_value(err, flag, "a JSON object", json);
	p = ws(p + 1);
	if (*p != '}') {
		for (;;) {
			char *key = NULL;
			const char *v;

			if (*p != '"' || !(p = scan_string(p, &key, &oom)))
				goto bad;
			p = ws(p);
			if (*p++ != ':') {
				free(key);
				goto bad;
			}
			v = ws(p);
			if (strcmp(key, "method") == 0 && *v == '"') {
				char *m = NULL;
				free(method);
				method = NULL;
				if (!(p = scan_string(v, &m, &oom))) {
					free(key);
					goto bad;
				}
				method = m[0] ? lower_dup(m) : NULL;
				oom |= m[0] && !method;
				free(m);
			} else {
				if (!(p = skip_value(v, 0))) {
					free(key);
					goto bad;
				}
				if (strcmp(key, "num_speculative_tokens") == 0 && strncmp(v, "null", 4) != 0) {
					char num[40];
					size_t n = (size_t)(p - v);
					if (n >= sizeof(num)) {
						free(key);
						goto bad;
					}
					memcpy(num, v, n);
					num[n] = '\0';
					free(draft);
					if (!(draft = count_text(num))) {
						free(key);
						free(method);
						return bad_value(err, flag,
						                 "num_speculative_tokens as a whole number >= 1", num);
					}
				}
			}
			free(key);
			p = ws(p);
			if (*p == '}')
				break;
			if (*p++ != ',')
				goto bad;
			p = ws(p);
		}
	}
	if (*ws(p + 1))
		goto bad;
	if (method)
		put(f, PL_C_SPECULATIVE_METHOD, method, flag);
	if (draft)
		put(f, PL_C_SPECULATIVE_DRAFT_TOKENS, draft, flag);
	return 0;
bad:
	free(method);
	free(draft);
	if (oom)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	return bad_value(err, flag, "a JSON object", json);
}

/* ------------------------------------------------------------------ parse */

/* 1 if word[0..n) is flag. In a long option '_' stands for '-', as the
 * engines' parsers take it (vLLM's FlexibleArgumentParser rewrites
 * --tensor_parallel_size to --tensor-parallel-size), so either spelling
 * sets the condition. */
static int same_flag(const char *word, size_t n, const char *flag)
{
	if (strlen(flag) != n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = word[i];
		if (c == '_' && n > 2 && word[0] == '-' && word[1] == '-')
			c = '-';
		if (c != flag[i])
			return 0;
	}
	return 1;
}

int pl_engine_args_parse(const char *args, struct pl_engine_flags *f, struct pl_error *err)
{
	struct words w = {0};
	int rc, ep = 0;
	const char *ep_flag = NULL;

	pl_engine_flags_init(f);
	if ((rc = split(args, &w, err)))
		goto out;
	for (size_t i = 0; i < w.n && rc == 0; i++) {
		const char *word = w.v[i], *eq = strchr(word, '='), *value = NULL;
		size_t nlen = eq ? (size_t)(eq - word) : strlen(word);
		size_t k;
		char *text = NULL;

		if (word[0] != '-')
			continue;
		for (k = 0; k < sizeof(flags) / sizeof(flags[0]); k++)
			if (same_flag(word, nlen, flags[k].flag))
				break;
		if (k == sizeof(flags) / sizeof(flags[0]))
			continue;
		if (flags[k].kind == K_TRUE || flags[k].kind == K_FALSE || flags[k].kind == K_EP) {
			if (eq) {
				pl_error_field(err, "engine_args");
				rc = pl_error_set(err, PL_EINVALID, "engine_args: %s takes no value, got '%.60s'",
				                  flags[k].flag, word);
				break;
			}
			if (flags[k].kind == K_EP) {
				ep = 1;
				ep_flag = flags[k].flag;
				continue;
			}
			text = strdup(flags[k].kind == K_TRUE ? "true" : "false");
		} else {
			if (eq)
				value = eq + 1;
			else if (i + 1 < w.n)
				value = w.v[++i];
			if (!value || !*value) {
				pl_error_field(err, "engine_args");
				rc = pl_error_set(err, PL_EINVALID, "engine_args: %s needs a value",
				                  flags[k].flag);
				break;
			}
			if (flags[k].kind == K_SPEC) {
				rc = parse_spec(flags[k].flag, value, f, err);
				continue;
			}
			if (flags[k].kind == K_COUNT) {
				if (!(text = count_text(value))) {
					rc = bad_value(err, flags[k].flag, "a whole number >= 1", value);
					break;
				}
			} else if (flags[k].kind == K_NAMED) {
				text = strdup("true");
			} else {
				text = flags[k].kind == K_LOWER ? lower_dup(value) : strdup(value);
			}
		}
		if (!text) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		put(f, flags[k].cond, text, flags[k].flag);
	}
	if (rc == 0 && ep && !f->value[PL_C_EXPERT_PARALLEL_SIZE]) {
		/* vLLM sizes the expert-parallel group as TP x DP */
		double tp = 1, dp = 1;
		char buf[40], *text;
		if (f->value[PL_C_TENSOR_PARALLEL_SIZE])
			pl_parse_num(f->value[PL_C_TENSOR_PARALLEL_SIZE], 0, &tp);
		if (f->value[PL_C_DATA_PARALLEL_SIZE])
			pl_parse_num(f->value[PL_C_DATA_PARALLEL_SIZE], 0, &dp);
		if (!(text = strdup(pl_fmt_num(buf, sizeof(buf), tp * dp))))
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		else
			put(f, PL_C_EXPERT_PARALLEL_SIZE, text, ep_flag);
	}
out:
	words_release(&w);
	if (rc)
		pl_engine_flags_release(f);
	return rc;
}

/* ------------------------------------------------------------------ apply */

/* 1 if value (from the flags) equals the run's value of cond. */
static int same(const struct pl_run *run, int cond, const char *value)
{
	const struct pl_value *have = &run->cond[cond];
	enum pl_ctype t = pl_cond_info[cond].type;
	char *a, *b;
	int eq;

	if (t == PL_CT_INT || t == PL_CT_REAL) {
		double v;
		return pl_parse_num(value, 1, &v) == 0 && v == have->num;
	}
	if (t == PL_CT_BOOL)
		return (strcmp(value, "true") == 0) == (have->num != 0);
	a = pl_normalize_value(cond, have->text);
	b = pl_normalize_value(cond, value);
	eq = a && b && strcasecmp(a, b) == 0;
	free(a);
	free(b);
	return eq;
}

int pl_engine_args_apply(struct pl_run *run, struct pl_error *err)
{
	struct pl_engine_flags f;
	int rc;

	if (!run->cond[PL_C_ENGINE_ARGS].set)
		return 0;
	if ((rc = pl_engine_args_parse(run->cond[PL_C_ENGINE_ARGS].text, &f, err)))
		return rc;
	for (int c = 0; c < PL_COND_COUNT && rc == 0; c++) {
		if (!f.value[c])
			continue;
		/* a file that shows speculative decoding without its method says
		 * "unknown" (PL_SPEC_UNKNOWN): the launch flags name it */
		if (!run->cond[c].set ||
		    (c == PL_C_SPECULATIVE_METHOD && strcmp(run->cond[c].text, PL_SPEC_UNKNOWN) == 0)) {
			rc = pl_run_set_cond(run, c, f.value[c], err);
			continue;
		}
		if (!same(run, c, f.value[c])) {
			pl_error_field(err, pl_cond_info[c].name);
			rc = pl_error_set(err, PL_EINVALID,
			                  "%s is %s but engine_args says %s (%s): they must agree",
			                  pl_cond_info[c].name, run->cond[c].text, f.value[c], f.flag[c]);
		}
	}
	pl_engine_flags_release(&f);
	return rc;
}
