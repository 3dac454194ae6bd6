/*
 * words_zh.c — the Simplified Chinese (zh-CN) table of words.h: one
 * template per message code of core/msg.h, in the order of PL_MSG_CODES.
 * Names and values from the data stay as they are; only the frame is
 * Chinese. Full-width punctuation (：，（）) inside Chinese text.
 */
#include "core/msg.h"

const char *const pl_words_zh[PL_MSG_COUNT] = {
	[PL_MSG_TEXT] = "{1}",
	/* the nightly gate over every series */
	[PL_MSG_GATE_HEAD] = "门禁：{1} 个序列，{2} 项检查，窗口 {3} 个点，族错误率 alpha {4:g}，阈值 {5:g}%",
	[PL_MSG_GATE_SERIES] = "{1}（最新 {2}）",
	[PL_MSG_GATE_OPEN_SINCE] = "自 {1} 起未关闭：与其之前的水平比较",
	[PL_MSG_GATE_ACROSS] = "跨越条件变化 {1}",
	[PL_MSG_GATE_STARTED] = "新序列：已有 {1} 个点，满 {2} 个点后单独判定",
	[PL_MSG_GATE_BY_FAMILY] = "与同族 {1} 个序列合并判定（Z {2:.2f}）",
	[PL_MSG_GATE_FAILED_RUNS] = "最新点的失败运行：{1}",
	[PL_MSG_GATE_QUIET] = "{1} 项检查无变化",
	[PL_MSG_GATE_RESULT] = "{1} 项回归，{2} 项改进，{3} 项已接受，{4} 个序列有失败运行，{5} 个新序列",
	/* import --from-ci-env */
	[PL_MSG_CI_ENV_MISSING] = "--from-ci-env：检测到 {1}，但 {2} 未设置或为空：CI 未提供提交或运行链接",
	/* repeated caveats */
	[PL_MSG_CAVEAT_REPEATED] = "（另有 {1} 条相同）",
};
