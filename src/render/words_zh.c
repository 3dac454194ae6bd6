/*
 * words_zh.c — the Simplified Chinese (zh-CN) table of words.h: one
 * template per message code of core/msg.h, in the order of PL_MSG_CODES.
 * Names and values from the data stay as they are; only the frame is
 * Chinese. Full-width punctuation (：，（）) inside Chinese text.
 */
#include "core/msg.h"

const char *const pl_words_zh[PL_MSG_COUNT] = {
	[PL_MSG_TEXT] = "{1}",
	/* goodput and its SLO */
	[PL_MSG_GOODPUT_SLO_MISSING] = "goodput 不可比：运行 {1} 未记录其 goodput 所依据的 SLO（其余运行：{2}）；goodput 仅在同一 SLO 下可比",
	[PL_MSG_GOODPUT_SLO_DIFFERS] = "goodput 不可比：其数值依据不同的 SLO 计算（{1}）；goodput 仅在同一 SLO 下可比",
};
