/*
 * words_en.c — the English table of words.h: one template per message
 * code of core/msg.h. Keep the rows in the order of PL_MSG_CODES, one
 * block per block there.
 */
#include "core/msg.h"

const char *const pl_words_en[PL_MSG_COUNT] = {
	[PL_MSG_TEXT] = "{1}",
	/* the procurement verdict: bounds, failed loads, what is evaluable */
	[PL_MSG_VERDICT_LOAD_CONCURRENCY] = "concurrency",
	[PL_MSG_VERDICT_LOAD_RATE] = "request rate",
	[PL_MSG_VERDICT_AT_MOST] = "≤ {1}",
	[PL_MSG_VERDICT_AT_LEAST] = "≥ {1}",
	[PL_MSG_VERDICT_AT_MOST_SIGN] = "≤ ",
	[PL_MSG_VERDICT_FLAG_COST_AT_MOST] = "cost at most",
	[PL_MSG_VERDICT_FLAG_FAILS_BELOW] = "fails below its SLO load",
	[PL_MSG_VERDICT_FLAG_FAILED_LOAD] = "failed load",
	[PL_MSG_VERDICT_FLAG_BOUNDED] = "bounded by a higher percentile",
	[PL_MSG_VERDICT_FLAG_NOT_EVALUABLE] = "not evaluable",
	[PL_MSG_VERDICT_COST_AT_MOST] = "cost at most {1} per 1M output tokens: it rests on a lower-bound throughput (more load may still meet the SLO, at a lower cost)",
	[PL_MSG_VERDICT_FAILS_AT] = "fails at {1} {2}: every request failed ({3} {3|run|runs}, left out of the figures)",
	[PL_MSG_VERDICT_FAILS_BELOW] = "fails below its SLO load: every request failed at {1} {2}, below the {3} of the SLO figure",
	[PL_MSG_VERDICT_NO_BOUND_FAILED] = "not a lower bound: the sweep fails at {1} {2}, past the SLO figure",
	[PL_MSG_VERDICT_BOUNDED_BY] = "{1} not recorded: {2} {3:g} s ≤ {4:g} s bounds it (at {5} {6})",
	[PL_MSG_VERDICT_NOT_EVALUABLE_METRIC] = "not evaluable: the runs record {1}, not {2} (none of them bounds it within the limit)",
	[PL_MSG_VERDICT_NOT_EVALUABLE_NONE] = "not evaluable: the runs do not record {1}",
	[PL_MSG_VERDICT_SKIPPED] = "{1} of {2} points not evaluable (not used): they lack {3}",
	[PL_MSG_VERDICT_PRICE_USED] = "{1} (the definition's; stored: {2})",
	[PL_MSG_VERDICT_PRICE_USED_NONE] = "{1} (the definition's; none stored)",
	[PL_MSG_VERDICT_ENERGY] = "energy at the SLO: {1:.4g} J per output token, {2:.4g} kWh per 1M output tokens (power_watts {3:.4g} W recorded by {4} {4|run|runs})",
	[PL_MSG_VERDICT_ENERGY_AT_MOST] = "energy at the SLO at most {1:.4g} J per output token, {2:.4g} kWh per 1M output tokens (a lower-bound throughput; power_watts {3:.4g} W recorded by {4} {4|run|runs})",
};
