/*
 * words.c — pl_words_add() of words.h: fills a language's template with
 * a message's arguments. The templates themselves are in words_en.c and
 * words_zh.c, one table per language.
 */
#include "render/words.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "render/render_impl.h"

extern const char *const pl_words_en[PL_MSG_COUNT];
extern const char *const pl_words_zh[PL_MSG_COUNT];

/* The words the filler itself needs, per language. */
static const struct {
	const char *sep;       /* between LIST items and RUNS ids */
	const char *more_pre;  /* after 10 run ids: before the rest's count */
	const char *more_post; /* and after it */
} lang_words[PL_LANG_COUNT] = {
	[PL_LANG_EN] = {", ", " and ", " more"},
	[PL_LANG_ZH] = {"、", " 等另 ", " 个"},
};

enum pl_lang pl_words_lang(const char *tag)
{
	return tag && strcmp(tag, "zh-CN") == 0 ? PL_LANG_ZH : PL_LANG_EN;
}

const char *pl_words_template(enum pl_msg_code code, enum pl_lang lang)
{
	if ((int)code <= PL_MSG_NONE || code >= PL_MSG_COUNT || (int)lang < 0 || lang >= PL_LANG_COUNT)
		return NULL;
	return lang == PL_LANG_ZH ? pl_words_zh[code] : pl_words_en[code];
}

const char *pl_word(enum pl_msg_code code, enum pl_lang lang)
{
	const char *t = pl_words_template(code, lang);
	return t ? t : "?";
}

/* d printed with conversion conv ('f', 'g' or 'e') and precision prec
 * (-1: the default) in the C locale whatever the process locale. */
static void num_c(char *buf, size_t n, char conv, int prec, double d)
{
	static locale_t c_locale;
	locale_t old = (locale_t)0;

	if (!c_locale)
		c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (c_locale)
		old = uselocale(c_locale);
	if (prec < 0)
		prec = 6;
	if (conv == 'f')
		snprintf(buf, n, "%.*f", prec, d);
	else if (conv == 'e')
		snprintf(buf, n, "%.*e", prec, d);
	else
		snprintf(buf, n, "%.*g", prec, d);
	if (c_locale)
		uselocale(old);
}

/* The argument a placeholder names, or NULL. */
static const struct pl_msg_arg *arg_at(const struct pl_msg *m, unsigned long k)
{
	return k >= 1 && k <= m->nargs ? &m->args[k - 1] : NULL;
}

static void fill(struct pl_buf *o, const char *t, const struct pl_msg *m, enum pl_lang lang);

/* Appends the ids of a as ranges of consecutive ids: "1-109, 112"; past 8
 * ranges the list ends in ", ..." (sep: the language's). */
static void add_ranges(struct pl_buf *o, const struct pl_msg_arg *a, const char *sep)
{
	size_t ranges = 0;

	for (size_t i = 0; i < a->nids;) {
		long long start = a->ids[i], prev = start;

		for (i++; i < a->nids && a->ids[i] == prev + 1; i++)
			prev = a->ids[i];
		if (ranges == 8) {
			pl_buf_adds(o, sep);
			pl_buf_adds(o, "...");
			return;
		}
		if (ranges)
			pl_buf_adds(o, sep);
		if (start == prev)
			pl_buf_addf(o, "%lld", start);
		else
			pl_buf_addf(o, "%lld-%lld", start, prev);
		ranges++;
	}
}

/* Appends argument a; spec[0..nspec) is what follows ':' (a NUM's
 * conversion, or "r" for RUNS as ranges); join (NULL: the language's
 * separator) what a {N/SEP} names, with every entry of a RUNS. */
static void add_arg(struct pl_buf *o, const struct pl_msg_arg *a, const char *spec, size_t nspec,
                    const char *join, size_t njoin, enum pl_lang lang)
{
	char tmp[64];
	const char *sep = lang_words[lang].sep;
	size_t nsep = strlen(sep);

	if (join) {
		sep = join;
		nsep = njoin;
	}
	switch (a->kind) {
	case PL_MA_TEXT:
	case PL_MA_FIELD:
		pl_buf_adds(o, a->s ? a->s : "");
		break;
	case PL_MA_INT:
		pl_buf_addf(o, "%lld", a->i);
		break;
	case PL_MA_NUM:
		if (nspec == 1 && spec[0] == 'n') {
			pl_fmt_num(tmp, sizeof(tmp), a->d);
		} else if (nspec) { /* "[.P]C", checked by spec_ok() */
			int prec = spec[0] == '.' ? (int)strtol(spec + 1, NULL, 10) : -1;
			num_c(tmp, sizeof(tmp), spec[nspec - 1], prec, a->d);
		} else {
			pl_fmt_sig4(tmp, sizeof(tmp), a->d);
		}
		pl_buf_adds(o, tmp);
		break;
	case PL_MA_RUNS:
		if (nspec) { /* "r" */
			add_ranges(o, a, lang_words[lang].sep);
			break;
		}
		for (size_t k = 0; k < a->nids && (join || k < 10); k++) {
			if (k)
				pl_buf_add(o, sep, nsep);
			pl_buf_addf(o, "%lld", a->ids[k]);
		}
		if (!join && a->nids > 10) {
			pl_buf_adds(o, lang_words[lang].more_pre);
			pl_buf_addf(o, "%zu", a->nids - 10);
			pl_buf_adds(o, lang_words[lang].more_post);
		}
		break;
	case PL_MA_LIST:
		for (size_t k = 0; k < a->nv; k++) {
			if (k)
				pl_buf_add(o, sep, nsep);
			pl_buf_adds(o, a->v[k] ? a->v[k] : "");
		}
		break;
	case PL_MA_CODE: /* a word: a code with no arguments */
		pl_buf_adds(o, pl_word((enum pl_msg_code)a->i, lang));
		break;
	case PL_MA_MSGS:
		for (size_t k = 0; k < a->nsub; k++) {
			const char *t = pl_words_template(a->sub[k].code, lang);
			if (k)
				pl_buf_add(o, sep, nsep);
			if (t)
				fill(o, t, &a->sub[k], lang);
			else
				pl_buf_addf(o, "{?%s}", pl_msg_code_name(a->sub[k].code));
		}
		break;
	}
}

/* The count {N|one|many} looks at: an INT's value, the entries of a
 * RUNS, LIST or MSGS; -1 for other kinds. */
static long long plural_count(const struct pl_msg_arg *a)
{
	switch (a->kind) {
	case PL_MA_INT: return a->i;
	case PL_MA_RUNS: return (long long)a->nids;
	case PL_MA_LIST: return (long long)a->nv;
	case PL_MA_MSGS: return (long long)a->nsub;
	default: return -1;
	}
}

/* 1 if spec[0..n) is a NUM conversion the filler accepts: "C" or ".PC",
 * P one or two digits, C one of f, g, e; or "n". */
static int spec_ok(const char *spec, size_t n)
{
	char c;

	if (n == 1 && spec[0] == 'n')
		return 1;
	if (n == 0 || n > 4)
		return 0;
	c = spec[n - 1];
	if (c != 'f' && c != 'g' && c != 'e')
		return 0;
	if (n == 1)
		return 1;
	if (spec[0] != '.' || n < 3)
		return 0;
	for (size_t k = 1; k + 1 < n; k++)
		if (spec[k] < '0' || spec[k] > '9')
			return 0;
	return 1;
}

static void fill(struct pl_buf *o, const char *t, const struct pl_msg *m, enum pl_lang lang)
{
	while (*t) {
		const char *close;
		char *end;
		unsigned long k;
		const struct pl_msg_arg *a;

		if ((t[0] == '{' && t[1] == '{') || (t[0] == '}' && t[1] == '}')) {
			pl_buf_addc(o, t[0]);
			t += 2;
			continue;
		}
		if (*t != '{' || !(close = strchr(t, '}'))) {
			pl_buf_addc(o, *t++);
			continue;
		}
		k = strtoul(t + 1, &end, 10);
		a = end > t + 1 ? arg_at(m, k) : NULL;
		if (a && *end == '}') {
			add_arg(o, a, NULL, 0, NULL, 0, lang);
		} else if (a && *end == ':' && a->kind == PL_MA_NUM &&
		           spec_ok(end + 1, (size_t)(close - end - 1))) {
			add_arg(o, a, end + 1, (size_t)(close - end - 1), NULL, 0, lang);
		} else if (a && *end == ':' && a->kind == PL_MA_RUNS && close - end == 2 && end[1] == 'r') {
			add_arg(o, a, end + 1, 1, NULL, 0, lang);
		} else if (a && *end == '/' &&
		           (a->kind == PL_MA_LIST || a->kind == PL_MA_RUNS || a->kind == PL_MA_MSGS)) {
			add_arg(o, a, NULL, 0, end + 1, (size_t)(close - end - 1), lang);
		} else if (a && *end == '|' && plural_count(a) >= 0) {
			const char *one = end + 1, *bar = memchr(one, '|', (size_t)(close - one));
			if (!bar)
				goto bad;
			if (plural_count(a) == 1)
				pl_buf_add(o, one, (size_t)(bar - one));
			else
				pl_buf_add(o, bar + 1, (size_t)(close - bar - 1));
		} else {
		bad:
			pl_buf_addf(o, "{?%lu}", k);
		}
		t = close + 1;
	}
}

int pl_words_add(struct pl_buf *o, const struct pl_msg *m, enum pl_lang lang)
{
	const char *t;

	if ((int)lang < 0 || lang >= PL_LANG_COUNT)
		lang = PL_LANG_EN;
	t = pl_words_template(m->code, lang);
	if (!t)
		pl_buf_addf(o, "{?%s}", pl_msg_code_name(m->code));
	else
		fill(o, t, m, lang);
	return o->oom ? PL_ENOMEM : 0;
}

char *pl_words_msg(const struct pl_msg *m, enum pl_lang lang)
{
	struct pl_buf o = PL_BUF_INIT;

	if (pl_words_add(&o, m, lang)) {
		pl_buf_release(&o);
		return NULL;
	}
	return pl_buf_detach(&o, NULL);
}
