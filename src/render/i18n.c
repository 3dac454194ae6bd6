/*
 * i18n.c — the report language of i18n.h: messages and checklist items
 * worded through the per-language word tables of render/words.h.
 */
#include "render/i18n.h"

#include <string.h>

#include "core/model.h"
#include "render/words.h"

int pl_i18n_zh(const char *lang)
{
	return lang && strcmp(lang, "zh-CN") == 0;
}

const char *pl_i18n_checklist_item(int k, const char *lang)
{
	if (k < 0 || k >= PL_CHK_COUNT)
		return "?";
	return pl_word((enum pl_msg_code)(PL_MSG_W_CHK_WEIGHTS_SOURCE + k), pl_words_lang(lang));
}

char *pl_i18n_msg(const struct pl_msg *m, const char *lang)
{
	return pl_words_msg(m, pl_words_lang(lang));
}
