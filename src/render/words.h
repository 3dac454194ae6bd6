/*
 * render/words.h — the wording of messages (core/msg.h), once per
 * language. Each language has one table (render/words_en.c,
 * render/words_zh.c): a template per code. Every renderer (text,
 * Markdown, HTML, SVG, the workbook) and the command line word messages
 * through here and nowhere else.
 *
 * Template syntax:
 *   {N}          argument N (1-based) printed by its kind (core/msg.h):
 *                TEXT and FIELD as they are, INT as a decimal, NUM with 4
 *                significant digits in the C locale, RUNS as "3, 5, 7"
 *                (past 10 ids: "and K more" in the language), LIST joined
 *                by the language's separator, CODE worded in the language,
 *                MSGS each worded in the language, joined like LIST
 *   {N:SPEC}     a NUM with a printf conversion SPEC of [0-9.]* then one
 *                of f, g, e ({2:.1f}); always in the C locale
 *   {N:n}        a NUM as pl_fmt_num() prints it (whole numbers whole,
 *                else the shortest text that reads back)
 *   {N:r}        RUNS as ranges of consecutive ids ("1-109, 112"; past 8
 *                ranges the list ends in ", ...")
 *   {N/SEP}      LIST, RUNS or MSGS joined by SEP (any text but '}'),
 *                every entry (RUNS: no "and K more")
 *   {N|one|many} "one" when INT argument N is 1 (RUNS, LIST, MSGS: when
 *                it holds one entry), else "many"
 *   {{ and }}    a literal brace
 */
#ifndef PL_RENDER_WORDS_H
#define PL_RENDER_WORDS_H

#include "core/msg.h"
#include "util/buf.h"

/* The languages with a table. */
enum pl_lang {
	PL_LANG_EN = 0, /* English: the default */
	PL_LANG_ZH,     /* Simplified Chinese (zh-CN) */
	PL_LANG_COUNT
};

/* The language a tag names: "zh-CN" -> PL_LANG_ZH; anything else
 * (NULL, "en", "") -> PL_LANG_EN. */
enum pl_lang pl_words_lang(const char *tag);

/* The template of code in lang (NULL when the table lacks it: a unit
 * test keeps every code in every table). Static storage. */
const char *pl_words_template(enum pl_msg_code code, enum pl_lang lang);

/* A code with no arguments worded in lang (a word or a fixed phrase,
 * such as a flag or a sheet name): its template as it is. "?" when the
 * code has no template. Static storage. */
const char *pl_word(enum pl_msg_code code, enum pl_lang lang);

/* Appends m worded in lang to o. A placeholder naming an argument m does
 * not have, or of the wrong kind, is printed as "{?N}" (unit_words keeps
 * the tables free of them). Returns 0 or PL_ENOMEM (o->oom set). */
int pl_words_add(struct pl_buf *o, const struct pl_msg *m, enum pl_lang lang);

/* m worded in lang as a new string. Caller frees with free(); NULL on out
 * of memory. */
char *pl_words_msg(const struct pl_msg *m, enum pl_lang lang);

#endif
