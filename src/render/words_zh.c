/*
 * words_zh.c — the Simplified Chinese (zh-CN) table of words.h: one
 * template per message code of core/msg.h, in the order of PL_MSG_CODES.
 * Names and values from the data stay as they are; only the frame is
 * Chinese. Full-width punctuation (：，（）) inside Chinese text.
 */
#include "core/msg.h"

const char *const pl_words_zh[PL_MSG_COUNT] = {
	[PL_MSG_TEXT] = "{1}",
	/* bundle identity, offline verify and errata (issue 25) */
	[PL_MSG_BUNDLE_HOW_TO_CHECK] = "如何核验本报告：报告包 id 为 {1}。在报告包目录中运行 'perfledger verify --offline . --id {1}'，它会按 manifest.json 核对每个文件，并根据随包附带的运行记录（runs.jsonl）和报告定义（definition.json）重新计算该 id。若要从数据重新渲染，请将 runs.jsonl 导入一个空账本（'perfledger import runs.jsonl'），再在该处运行 'perfledger verify .'。",
	[PL_MSG_BUNDLE_ERRATA_SINCE] = "自报告包 {1}（截至 {2}）以来的勘误，来自账本中所选运行记录的审计轨迹：",
	[PL_MSG_BUNDLE_ERRATA_NONE] = "自报告包 {1}（截至 {2}）以来的勘误：账本的审计轨迹中所选运行记录没有任何更改。",
	[PL_MSG_BUNDLE_ERRATUM_AMENDED] = "{1}：已修正 {2} {3} -> {4}（“{5}”，{6}，{7}）",
	[PL_MSG_BUNDLE_ERRATUM_RETRACTED] = "{1}：已撤回（“{2}”，{3}，{4}）",
	[PL_MSG_BUNDLE_ERRATUM_RESTORED] = "{1}：已恢复（“{2}”，{3}，{4}）",
	[PL_MSG_BUNDLE_ERRATUM_ADDED] = "{1}：新增（导入于 {2}）",
	[PL_MSG_VERIFY_RUN_ABSENT] = "{1} 不在此账本中（此后已清除，或从未在此导入）",
	[PL_MSG_VERIFY_RUN_RETRACTED] = "运行 {1}（{2}）在此报告包之后被撤回",
	[PL_MSG_VERIFY_RUN_AMENDED] = "运行 {1}（{2}）在此报告包之后被修正：修订 {3} -> {4}",
	[PL_MSG_VERIFY_RUN_OLDER] = "运行 {1}（{2}）在此处为修订 {4}，早于报告包中的修订 {3}：此账本缺少其后来的修正",
	[PL_MSG_VERIFY_RUN_LEFT] = "运行 {1}（{2}）已不在报告包的选择范围内",
	[PL_MSG_VERIFY_RUN_NEW] = "运行 {1}（{2}）是报告包选择范围内的新运行（此后导入、恢复或修正）",
	[PL_MSG_VERIFY_SUPERSEDED] = "已被取代：此报告包之后账本已被更正（'perfledger report --as-of TIME' 可按当时的状态渲染运行记录）",
	[PL_MSG_VERIFY_FILE_CHANGED] = "已更改：{1}",
	[PL_MSG_VERIFY_FILE_MISSING] = "缺失：{1}",
	[PL_MSG_VERIFY_FILE_ADDED] = "多出：{1}",
	[PL_MSG_VERIFY_OFFLINE_OK] = "报告包 '{1}' 完整：每个文件都与 manifest.json 一致，且报告包 id {2} 已根据 runs.jsonl 和 definition.json 重新算出",
	[PL_MSG_VERIFY_OFFLINE_BAD] = "报告包 '{1}' 与其清单不一致：{2} 个文件",
	[PL_MSG_VERIFY_ID_MANIFEST] = "随包的运行记录和报告定义得出报告包 id {1}，但 manifest.json 写的是 {2}",
	[PL_MSG_VERIFY_ID_GIVEN] = "报告包 id 为 {1}，不是给定的 id（{2}）",
	[PL_MSG_VERIFY_ID_OK] = "报告包 id {1}：与给定的 id 一致",
	[PL_MSG_VERIFY_AS_OF_SAME] = "按运行记录在 {1}（其截至时间）时的状态，报告包逐字节重新渲染一致：它反映了账本当时的内容",
};
