/*
 * words_en.c — the English table of words.h: one template per message
 * code of core/msg.h. Keep the rows in the order of PL_MSG_CODES, one
 * block per block there.
 */
#include "core/msg.h"

const char *const pl_words_en[PL_MSG_COUNT] = {
	[PL_MSG_TEXT] = "{1}",
	/* words */
	[PL_MSG_W_CHK_WEIGHTS_SOURCE] = "weights source",
	[PL_MSG_W_CHK_ENGINE_VERSION] = "engine version",
	[PL_MSG_W_CHK_ENGINE_ARGS] = "engine launch parameters",
	[PL_MSG_W_CHK_DRIVER] = "driver and CUDA versions",
	[PL_MSG_W_CHK_LENGTHS] = "input/output lengths",
	[PL_MSG_W_CHK_CONCURRENCY] = "concurrency",
	[PL_MSG_W_CHK_WARMUP] = "warm-up",
	[PL_MSG_W_CHK_TTFT] = "TTFT",
	[PL_MSG_W_CHK_TPOT] = "TPOT",
	[PL_MSG_W_CHK_THROUGHPUT] = "throughput",
	[PL_MSG_W_CHK_P95] = "p95 latency",
	[PL_MSG_W_MEASURED_MEAN] = "measured mean",
	[PL_MSG_W_REQS_ACHIEVED] = "req/s achieved",
	[PL_MSG_W_OPEN_LOOP_MISSING] = "(missing: an open-loop run at a request_rate; open- and "
	                               "closed-loop runs do not compare)",
	/* comparison caveats */
	[PL_MSG_CAV_REFERENCE_ONLY] = "{1}: {2} of {3} {3|run is|runs are} reference-only (missing: {4})",
	[PL_MSG_CAV_WORKLOAD_ALLOWED] = "run {1} did not run the requested workload: {2} {3} requested "
	                                "vs {4:n} {5} (run {1}) (more than 10% apart; allowed by "
	                                "--allow-mismatch)",
	[PL_MSG_CAV_DIFFER_ALLOWED] = "conditions differ in {1}: {2/ vs } (allowed by --allow-mismatch)",
	[PL_MSG_CAV_DIFFER_WITHIN_ALLOWED] = "conditions differ in {1} (within {2}): {3/ vs } (allowed "
	                                     "by --allow-mismatch)",
	[PL_MSG_CAV_ERRORS_ALLOWED] = "runs with and without errors compared (allowed by "
	                              "--allow-mismatch error_rate): error_rate {1}",
	[PL_MSG_ERR_RATE_RUNS] = "{1:n} ({2|run|runs} {2:r})",
	[PL_MSG_ERR_RATE_MISSING_RUNS] = "(missing) ({1|run|runs} {1:r})",
	[PL_MSG_CAV_FAILED_LEFT_OUT] = "failed runs left out (no request completed; never pooled): "
	                               "run {1/, run }",
	[PL_MSG_CAV_FAILED_LEFT_OUT_MORE] = "failed runs left out (no request completed; never "
	                                    "pooled): run {1/, run } and {2} more",
	/* a refused comparison */
	[PL_MSG_REFUSAL_HEAD] = "comparison refused: conditions differ off the axis '{1/,}':",
	[PL_MSG_REFUSAL_FIELD] = "{1}: {2/ vs }",
	[PL_MSG_REFUSAL_FIELD_MORE] = "{1}: {2/ vs } and {3} more",
	[PL_MSG_REFUSAL_FIELD_WITHIN] = "{1} (within {2}): {3/ vs }",
	[PL_MSG_REFUSAL_FIELD_WITHIN_MORE] = "{1} (within {2}): {3/ vs } and {4} more",
	[PL_MSG_REFUSAL_VALUE] = "'{1}' ({2|run|runs} {2})",
	[PL_MSG_REFUSAL_VALUE_REQUESTED] = "'{1} requested'",
	[PL_MSG_REFUSAL_VALUE_MEASURED] = "'{1} {2} (run {3})'",
	[PL_MSG_REFUSAL_VALUE_ALONE] = "'{1}'",
	[PL_MSG_REFUSAL_VALUE_WORD] = "'{1}' ({2|run|runs} {2})",
	[PL_MSG_REFUSAL_MORE_FIELDS] = "and {1} more differing fields",
	[PL_MSG_REFUSAL_HINT] = "hint: narrow the selection with --where FIELD=VALUE, put the field on "
	                        "the axis, or accept the difference with --allow-mismatch FIELD "
	                        "(printed as a caveat)",
};
