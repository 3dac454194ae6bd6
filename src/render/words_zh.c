/*
 * words_zh.c — the Simplified Chinese (zh-CN) table of words.h: one
 * template per message code of core/msg.h, in the order of PL_MSG_CODES.
 * Names and values from the data stay as they are; only the frame is
 * Chinese. Full-width punctuation (：，（）) inside Chinese text.
 */
#include "core/msg.h"

const char *const pl_words_zh[PL_MSG_COUNT] = {
	[PL_MSG_TEXT] = "{1}",
	/* words */
	[PL_MSG_W_CHK_WEIGHTS_SOURCE] = "权重来源",
	[PL_MSG_W_CHK_ENGINE_VERSION] = "引擎版本",
	[PL_MSG_W_CHK_ENGINE_ARGS] = "引擎启动参数",
	[PL_MSG_W_CHK_DRIVER] = "驱动与 CUDA 版本",
	[PL_MSG_W_CHK_LENGTHS] = "输入/输出长度",
	[PL_MSG_W_CHK_CONCURRENCY] = "并发数",
	[PL_MSG_W_CHK_WARMUP] = "预热",
	[PL_MSG_W_CHK_TTFT] = "TTFT",
	[PL_MSG_W_CHK_TPOT] = "TPOT",
	[PL_MSG_W_CHK_THROUGHPUT] = "吞吐量",
	[PL_MSG_W_CHK_P95] = "p95 延迟",
	[PL_MSG_W_MEASURED_MEAN] = "实测均值",
	[PL_MSG_W_REQS_ACHIEVED] = "req/s 实际达到",
	[PL_MSG_W_OPEN_LOOP_MISSING] = "（缺失：按 request_rate 运行的开环测试；开环与闭环运行不可比较）",
	/* comparison caveats */
	[PL_MSG_CAV_REFERENCE_ONLY] = "{1}：{3} 次运行中有 {2} 次仅供参考（缺少：{4}）",
	[PL_MSG_CAV_WORKLOAD_ALLOWED] = "运行 {1} 未按要求的负载运行：{2} {3} 要求，实际 {4:n} {5} "
	                                "(运行 {1})（相差超过 10%；经 --allow-mismatch 允许）",
	[PL_MSG_CAV_DIFFER_ALLOWED] = "条件不同：{1}: {2/ vs }（经 --allow-mismatch 允许）",
	[PL_MSG_CAV_DIFFER_WITHIN_ALLOWED] = "条件不同：{1}（范围 {2}): {3/ vs }（经 --allow-mismatch 允许）",
	[PL_MSG_CAV_ERRORS_ALLOWED] = "比较了有错误与无错误的运行（经 --allow-mismatch error_rate "
	                              "允许）：error_rate {1}",
	[PL_MSG_ERR_RATE_RUNS] = "{1:n}（运行 {2:r}）",
	[PL_MSG_ERR_RATE_MISSING_RUNS] = "（缺失）（运行 {1:r}）",
	[PL_MSG_CAV_FAILED_LEFT_OUT] = "已排除失败的运行（没有请求完成；从不合并）：运行 {1/、}",
	[PL_MSG_CAV_FAILED_LEFT_OUT_MORE] = "已排除失败的运行（没有请求完成；从不合并）：运行 {1/、} "
	                                    "等另 {2} 个",
	/* a refused comparison */
	[PL_MSG_REFUSAL_HEAD] = "比较被拒绝：比较轴 '{1/,}' 之外的条件不同：",
	[PL_MSG_REFUSAL_FIELD] = "{1}：{2/ 与 }",
	[PL_MSG_REFUSAL_FIELD_MORE] = "{1}：{2/ 与 } 等另 {3} 个值",
	[PL_MSG_REFUSAL_FIELD_WITHIN] = "{1}（范围 {2}）：{3/ 与 }",
	[PL_MSG_REFUSAL_FIELD_WITHIN_MORE] = "{1}（范围 {2}）：{3/ 与 } 等另 {4} 个值",
	[PL_MSG_REFUSAL_VALUE] = "'{1}'（运行 {2}）",
	[PL_MSG_REFUSAL_VALUE_REQUESTED] = "'{1}'（要求）",
	[PL_MSG_REFUSAL_VALUE_MEASURED] = "'{1}'（{2}，运行 {3}）",
	[PL_MSG_REFUSAL_VALUE_ALONE] = "'{1}'",
	[PL_MSG_REFUSAL_VALUE_WORD] = "{1}（运行 {2}）",
	[PL_MSG_REFUSAL_MORE_FIELDS] = "另有 {1} 个不同的字段",
	[PL_MSG_REFUSAL_HINT] = "提示：用 --where FIELD=VALUE 缩小选择，把该字段放到比较轴上，"
	                        "或用 --allow-mismatch FIELD 接受差异（列为注意事项）",
};
