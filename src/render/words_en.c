/*
 * words_en.c — the English table of words.h: one template per message
 * code of core/msg.h. Keep the rows in the order of PL_MSG_CODES, one
 * block per block there.
 */
#include "core/msg.h"

const char *const pl_words_en[PL_MSG_COUNT] = {
	[PL_MSG_TEXT] = "{1}",
	/* the nightly gate over every series */
	[PL_MSG_GATE_HEAD] = "gate: {1} series, {2} checks, window of {3} points, family-wise alpha {4:g}, threshold {5:g}%",
	[PL_MSG_GATE_SERIES] = "{1} (latest {2})",
	[PL_MSG_GATE_OPEN_SINCE] = "open since {1}: judged against the level before it",
	[PL_MSG_GATE_ACROSS] = "across the change {1}",
	[PL_MSG_GATE_STARTED] = "a new series: {1} {1|point|points}, gated on its own after {2}",
	[PL_MSG_GATE_BY_FAMILY] = "with its family of {1} series (Z {2:.2f})",
	[PL_MSG_GATE_FAILED_RUNS] = "failed runs of the latest point: {1}",
	[PL_MSG_GATE_QUIET] = "{1} {1|check|checks} without a change",
	[PL_MSG_GATE_RESULT] = "{1} {1|regression|regressions}, {2} {2|improvement|improvements}, {3} accepted, {4} {4|series|series} with failed runs, {5} started",
	/* import --from-ci-env */
	[PL_MSG_CI_ENV_MISSING] = "--from-ci-env: {1} detected, but {2} unset or empty: no commit or run link from the CI",
	/* repeated caveats */
	[PL_MSG_CAVEAT_REPEATED] = "(and {1} more like it)",
};
