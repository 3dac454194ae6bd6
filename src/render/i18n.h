/*
 * i18n.h — the Chinese (zh-CN) texts of what render's C code writes
 * outside the templates: the caveats the comparison produces (in English,
 * by core/compare.c) and the publication checklist items.
 *
 * Caveats are data of the comparison, built by core in English with a few
 * fixed frames ("%s: %zu of %zu runs are reference-only (missing: %s)",
 * "conditions differ in %s (allowed by --allow-mismatch)", ...). A zh-CN
 * report rebuilds each frame in Chinese around the same names and values;
 * a text in no known frame is returned as it is (the zh-CN English-sentence
 * test, tests/report/check_report_text.py english, then fails on it).
 */
#ifndef PL_I18N_H
#define PL_I18N_H

#include "core/msg.h"

/* 1 if lang is "zh-CN". */
int pl_i18n_zh(const char *lang);

/* Checklist item k (pl_checklist_item(k)) in lang ("zh-CN" or English for
 * anything else). Static storage; "?" for k out of range. */
const char *pl_i18n_checklist_item(int k, const char *lang);

/* Caveat text (from a struct pl_comparison) in lang: for "zh-CN" its
 * frame in Chinese, the names and values it holds unchanged; otherwise a
 * copy. Caller frees with free(); NULL on out of memory. */
char *pl_i18n_caveat(const char *text, const char *lang);

/* Message m (a caveat, a note) worded in lang: its code's template in
 * the language's table (render/words.h); a PL_MSG_TEXT message (a
 * sentence the core still words in English) is rebuilt for zh-CN by
 * pl_i18n_caveat(). Caller frees with free(); NULL on out of memory. */
char *pl_i18n_msg(const struct pl_msg *m, const char *lang);

#endif
