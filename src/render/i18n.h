/*
 * i18n.h — the report language ("en" or "zh-CN") as the templates and
 * renderers name it, mapped onto the word tables of render/words.h (one
 * table per language; every caveat and note is a code with typed
 * arguments, core/msg.h).
 */
#ifndef PL_I18N_H
#define PL_I18N_H

#include "core/msg.h"

/* 1 if lang is "zh-CN". */
int pl_i18n_zh(const char *lang);

/* Checklist item k (bit k of PL_CHK_*: the PL_MSG_W_CHK_* words) in lang
 * ("zh-CN", or English for anything else). Static storage; "?" for k out
 * of range. */
const char *pl_i18n_checklist_item(int k, const char *lang);

/* Message m (a caveat, a note) worded in lang by its code's template in
 * that language's table (render/words.h). Caller frees with free(); NULL
 * on out of memory. */
char *pl_i18n_msg(const struct pl_msg *m, const char *lang);

#endif
