/*
 * words_zh.c — the Simplified Chinese (zh-CN) table of words.h: one
 * template per message code of core/msg.h, in the order of PL_MSG_CODES.
 * Names and values from the data stay as they are; only the frame is
 * Chinese. Full-width punctuation (：，（）) inside Chinese text.
 */
#include "core/msg.h"

const char *const pl_words_zh[PL_MSG_COUNT] = {
	[PL_MSG_TEXT] = "{1}",
	/* the procurement verdict: bounds, failed loads, what is evaluable */
	[PL_MSG_VERDICT_LOAD_CONCURRENCY] = "并发数",
	[PL_MSG_VERDICT_LOAD_RATE] = "请求速率",
	[PL_MSG_VERDICT_AT_MOST] = "≤ {1}",
	[PL_MSG_VERDICT_AT_LEAST] = "≥ {1}",
	[PL_MSG_VERDICT_AT_MOST_SIGN] = "≤ ",
	[PL_MSG_VERDICT_FLAG_COST_AT_MOST] = "成本最多",
	[PL_MSG_VERDICT_FLAG_FAILS_BELOW] = "在 SLO 负载以下失败",
	[PL_MSG_VERDICT_FLAG_FAILED_LOAD] = "有失败负载",
	[PL_MSG_VERDICT_FLAG_BOUNDED] = "以更高百分位为界",
	[PL_MSG_VERDICT_FLAG_NOT_EVALUABLE] = "无法评估",
	[PL_MSG_VERDICT_COST_AT_MOST] = "每百万输出 token 的成本最多 {1}：它基于吞吐量的下限（更高负载可能仍满足 SLO，成本更低）",
	[PL_MSG_VERDICT_FAILS_AT] = "在{1} {2} 失败：所有请求均失败（{3} 次运行，未计入数值）",
	[PL_MSG_VERDICT_FAILS_BELOW] = "在 SLO 负载以下失败：{1} {2} 时所有请求均失败，低于 SLO 数值所在的 {3}",
	[PL_MSG_VERDICT_NO_BOUND_FAILED] = "不是下限：扫描在{1} {2} 失败，超出 SLO 数值所在负载",
	[PL_MSG_VERDICT_BOUNDED_BY] = "未记录 {1}：{2} {3:g} 秒 ≤ {4:g} 秒，可作为其上界（{5} {6}）",
	[PL_MSG_VERDICT_NOT_EVALUABLE_METRIC] = "无法评估：运行记录了 {1}，没有 {2}（其中没有一个能在上限内为其定界）",
	[PL_MSG_VERDICT_NOT_EVALUABLE_NONE] = "无法评估：运行未记录 {1}",
	[PL_MSG_VERDICT_SKIPPED] = "{2} 个测量点中有 {1} 个无法评估（未使用）：缺少 {3}",
	[PL_MSG_VERDICT_PRICE_USED] = "{1}（报告定义的价格；运行记录中为 {2}）",
	[PL_MSG_VERDICT_PRICE_USED_NONE] = "{1}（报告定义的价格；运行记录中没有）",
	[PL_MSG_VERDICT_ENERGY] = "满足 SLO 时的能耗：每输出 token {1:.4g} J，每百万输出 token {2:.4g} kWh（power_watts {3:.4g} W，来自 {4} 次运行的记录）",
	[PL_MSG_VERDICT_ENERGY_AT_MOST] = "满足 SLO 时的能耗最多为每输出 token {1:.4g} J，每百万输出 token {2:.4g} kWh（吞吐量为下限；power_watts {3:.4g} W，来自 {4} 次运行的记录）",
};
