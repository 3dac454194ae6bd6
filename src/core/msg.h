/*
 * core/msg.h — messages as data: a code and typed arguments (after
 * libgit2's errors and git's i18n). Every caveat, refusal line and note
 * the library hands to a renderer or to the command line leaves it as a
 * struct pl_msg, never as a finished sentence; render/words.c words each
 * code once per language (en, zh-CN), and text, Markdown, HTML, SVG and
 * the workbook all go through it.
 *
 * Adding a message: an entry in PL_MSG_CODES (its contract names the
 * arguments in order and their kinds), then one row in each language's
 * table in render/words.c. unit_words fails when a code lacks a row in
 * either language or a row names an argument the code does not have.
 *
 * Arguments are owned by the message (copied in); pl_msg_release() frees
 * them. Adders never fail loudly: an allocation failure sets the sticky
 * oom flag, which pl_msgs_push() turns into PL_ENOMEM, so a message can be
 * built in a straight sequence and checked once.
 */
#ifndef PL_CORE_MSG_H
#define PL_CORE_MSG_H

#include <stddef.h>

/* The codes, as one X-macro list so the enum and the code names cannot
 * drift: X(NAME, "argument contract"). The contract names each argument
 * {1}, {2}, ... with its kind, as the word tables use them. Each issue's
 * or module's new codes go in their own commented block. */
#define PL_MSG_CODES(X) \
	/* a plain text carried unchanged (a sentence not yet a code: its \
	 * wording is the same in every language, so the zh-CN \
	 * English-sentence test fails on it) */ \
	X(TEXT, "{1} TEXT the sentence") \
	/* words: codes with no arguments, worded with pl_word() or as a \
	 * CODE / MSGS argument. The publication checklist items, in \
	 * PL_CHK_* bit order (PL_MSG_W_CHK_WEIGHTS_SOURCE + k is bit k) */ \
	X(W_CHK_WEIGHTS_SOURCE, "") \
	X(W_CHK_ENGINE_VERSION, "") \
	X(W_CHK_ENGINE_ARGS, "") \
	X(W_CHK_DRIVER, "") \
	X(W_CHK_LENGTHS, "") \
	X(W_CHK_CONCURRENCY, "") \
	X(W_CHK_WARMUP, "") \
	X(W_CHK_TTFT, "") \
	X(W_CHK_TPOT, "") \
	X(W_CHK_THROUGHPUT, "") \
	X(W_CHK_P95, "") \
	/* what the workload rule measured (CAV_WORKLOAD_ALLOWED's {5}) */ \
	X(W_MEASURED_MEAN, "") \
	X(W_REQS_ACHIEVED, "") \
	/* a refused concurrency value missing because the run is open-loop */ \
	X(W_OPEN_LOOP_MISSING, "") \
	/* comparison caveats (core/compare.c) */ \
	X(CAV_REFERENCE_ONLY, "{1} TEXT the row's label; {2} INT its reference-only runs; " \
	  "{3} INT its runs; {4} MSGS the checklist items they lack (W_CHK_* words); " \
	  "{5} INT the row's index in the comparison (not printed)") \
	X(CAV_WORKLOAD_ALLOWED, "{1} INT the run; {2} FIELD the condition; {3} TEXT its " \
	  "requested value; {4} NUM what the run measured; {5} CODE what that is " \
	  "(W_MEASURED_MEAN or W_REQS_ACHIEVED)") \
	X(CAV_DIFFER_ALLOWED, "{1} FIELD the condition or extra condition; {2} LIST its " \
	  "distinct values") \
	X(CAV_DIFFER_WITHIN_ALLOWED, "{1} FIELD the condition travelling with the axis; " \
	  "{2} TEXT the row it differs in (axis fields and values); {3} LIST its distinct values") \
	X(CAV_ERRORS_ALLOWED, "{1} MSGS the error rates with their runs (ERR_RATE_RUNS, " \
	  "ERR_RATE_MISSING_RUNS)") \
	X(ERR_RATE_RUNS, "{1} NUM an error rate; {2} RUNS the runs with it") \
	X(ERR_RATE_MISSING_RUNS, "{1} RUNS the runs whose error rate is missing") \
	X(CAV_FAILED_LEFT_OUT, "{1} RUNS the failed runs left out (at most 20)") \
	X(CAV_FAILED_LEFT_OUT_MORE, "{1} RUNS the first 20 failed runs left out; {2} INT " \
	  "how many more") \
	/* a refused comparison (render/refusal.c words struct pl_mismatch) */ \
	X(REFUSAL_HEAD, "{1} LIST the axis fields") \
	X(REFUSAL_FIELD, "{1} FIELD the differing field; {2} MSGS its values (REFUSAL_VALUE*)") \
	X(REFUSAL_FIELD_MORE, "{1} FIELD the differing field; {2} MSGS its first values; " \
	  "{3} INT how many more values") \
	X(REFUSAL_FIELD_WITHIN, "{1} FIELD the differing field; {2} TEXT the row it differs in; " \
	  "{3} MSGS its values") \
	X(REFUSAL_FIELD_WITHIN_MORE, "{1} FIELD the differing field; {2} TEXT the row; " \
	  "{3} MSGS its first values; {4} INT how many more values") \
	X(REFUSAL_VALUE, "{1} TEXT a value; {2} RUNS the runs that hold it") \
	X(REFUSAL_VALUE_REQUESTED, "{1} TEXT the value the workload rule's condition requested") \
	X(REFUSAL_VALUE_MEASURED, "{1} TEXT what a run measured; {2} CODE what that is " \
	  "(W_MEASURED_MEAN or W_REQS_ACHIEVED); {3} RUNS the run") \
	X(REFUSAL_VALUE_ALONE, "{1} TEXT a value (its run named inside it, or none known)") \
	X(REFUSAL_VALUE_WORD, "{1} CODE a value that is a word (W_OPEN_LOOP_MISSING); " \
	  "{2} RUNS the runs that hold it") \
	X(REFUSAL_MORE_FIELDS, "{1} INT how many more differing fields") \
	X(REFUSAL_HINT, "") \
	X(REFUSAL_HINT_DEFINITION, "") \
	/* what would compare (core/compare_subsets.c, struct pl_subset) */ \
	X(REFUSAL_SUBSETS, "") \
	X(REFUSAL_SUBSET, "{1} TEXT the --where options that select the subset; {2} INT its runs") \
	X(REFUSAL_NO_SUBSET, "") \
	X(REFUSAL_SUBSETS_DEFINITION, "") \
	X(REFUSAL_NO_SUBSET_DEFINITION, "") \
	/* the words of a report bundle (render/bundle*.c: struct words), each \
	 * a fixed text or a printf format whose %s the bundle fills in the \
	 * order its struct words comment gives; worded with pl_word() */ \
	X(W_BUNDLE_SWEEP_TITLE, "") \
	X(W_BUNDLE_SWEEP_X, "") \
	X(W_BUNDLE_SWEEP_Y, "") \
	X(W_BUNDLE_PARETO_TITLE, "") \
	X(W_BUNDLE_PARETO_X, "") \
	X(W_BUNDLE_PARETO_Y, "") \
	X(W_BUNDLE_PARETO_MARK, "") \
	X(W_BUNDLE_PARETO_NO_ACC, "") \
	X(W_BUNDLE_PARETO_NO_TPOT, "") \
	X(W_BUNDLE_MEASURED, "") \
	X(W_BUNDLE_INTERPOLATED, "") \
	X(W_BUNDLE_NONE, "") \
	X(W_BUNDLE_NO_SLO, "") \
	X(W_BUNDLE_PRICE_RUNS, "") \
	X(W_BUNDLE_PRICE_TABLE, "") \
	X(W_BUNDLE_PRICE_NONE, "") \
	X(W_BUNDLE_PRICE_CONFLICT, "") \
	X(W_BUNDLE_PRICE_TOKENS, "") \
	X(W_BUNDLE_CHK_WEIGHTS_SOURCE, "") \
	X(W_BUNDLE_CHK_ENGINE_VERSION, "") \
	X(W_BUNDLE_CHK_ENGINE_ARGS, "") \
	X(W_BUNDLE_CHK_DRIVER, "") \
	X(W_BUNDLE_CHK_LENGTHS, "") \
	X(W_BUNDLE_CHK_CONCURRENCY, "") \
	X(W_BUNDLE_CHK_WARMUP, "") \
	X(W_BUNDLE_CHK_TTFT, "") \
	X(W_BUNDLE_CHK_TPOT, "") \
	X(W_BUNDLE_CHK_THROUGHPUT, "") \
	X(W_BUNDLE_CHK_P95, "") \
	X(W_BUNDLE_SWEEP_TITLE_RATE, "") \
	X(W_BUNDLE_SWEEP_X_RATE, "") \
	X(W_BUNDLE_MEASURED_RATE, "") \
	X(W_BUNDLE_INTERPOLATED_RATE, "") \
	X(W_BUNDLE_NONE_RATE, "") \
	X(W_BUNDLE_LOAD_CONCURRENCY, "") \
	X(W_BUNDLE_LOAD_RATE, "") \
	X(W_BUNDLE_LOAD_WORD_CONCURRENCY, "") \
	X(W_BUNDLE_LOAD_WORD_RATE, "") \
	X(W_BUNDLE_FLAG_LOWER_BOUND, "") \
	X(W_BUNDLE_FLAG_SINGLE, "") \
	X(W_BUNDLE_FLAG_INTERPOLATED, "") \
	X(W_BUNDLE_FLAG_REFERENCE, "") \
	X(W_BUNDLE_NOTE_LOWER_BOUND_ONE, "") \
	X(W_BUNDLE_NOTE_LOWER_BOUND_TOP, "") \
	X(W_BUNDLE_NOTE_SKIPPED, "") \
	X(W_BUNDLE_NOTE_NO_ACC, "") \
	X(W_BUNDLE_NOTE_NO_PRICE, "") \
	X(W_BUNDLE_NOTE_PRICE_CONFLICT, "") \
	X(W_BUNDLE_NOTE_PRICE_OVERRIDE, "") \
	X(W_BUNDLE_NOTE_PRICE_SAME, "") \
	X(W_BUNDLE_PRICE_OVERRIDE, "") \
	X(W_BUNDLE_REF_CAVEAT, "") \
	X(W_BUNDLE_REF_ROWS, "") \
	X(W_BUNDLE_PER_HOUR, "") \
	X(W_BUNDLE_PER_MTOK, "") \
	X(W_BUNDLE_PRICE_UNUSED, "") \
	X(W_BUNDLE_LIST_SEP, "") \
	X(W_BUNDLE_NO_CURRENCY, "") \
	X(W_BUNDLE_SWEEP_NOT_DRAWN, "") \
	X(W_BUNDLE_SWEEP_POINTS_NOT_DRAWN, "") \
	X(W_BUNDLE_POINT_LABEL, "") \
	X(W_BUNDLE_LATENCY_TITLE, "") \
	X(W_BUNDLE_LATENCY_X, "") \
	X(W_BUNDLE_SLO_LINE, "") \
	X(W_BUNDLE_COST_TITLE, "") \
	X(W_BUNDLE_COST_X, "") \
	X(W_BUNDLE_COST_NO_PRICE, "") \
	X(W_BUNDLE_COST_NO_SLO, "") \
	X(W_BUNDLE_BARS_TITLE, "") \
	X(W_BUNDLE_BETTER_LOWER, "") \
	X(W_BUNDLE_BETTER_HIGHER, "") \
	X(W_BUNDLE_UNIT_S, "") \
	X(W_BUNDLE_UNIT_TOKS, "") \
	X(W_BUNDLE_POINT_LABEL_RATE, "") \
	X(W_BUNDLE_LATENCY_TITLE_RATE, "") \
	X(W_BUNDLE_PARETO_TITLE_RATE, "") \
	X(W_BUNDLE_WITH_CURRENCY, "") \
	X(W_BUNDLE_CURRENCY_UNNAMED, "") \
	/* the words of the workbook (render/xlsx.c: TR()) */ \
	X(W_XLSX_REFERENCE_ONLY_RUNS, "") \
	X(W_XLSX_LIST_SEP, "") \
	X(W_XLSX_FIELD, "") \
	X(W_XLSX_VALUE, "") \
	X(W_XLSX_STATUS, "") \
	X(W_XLSX_VARIES_WITH_AXIS, "") \
	X(W_XLSX_SHARED, "") \
	X(W_XLSX_SHARED_EXTRA, "") \
	X(W_XLSX_CAVEAT, "") \
	X(W_XLSX_CURRENCY_NOT_NAMED, "") \
	X(W_XLSX_COST_PER_1M_OUTPUT_TOKENS_AT_SLO, "") \
	X(W_XLSX_PRICE_PER_HOUR, "") \
	X(W_XLSX_PRICE_PER_ACCELERATOR_HOUR, "") \
	X(W_XLSX_API_PRICE_PER_1M_INPUT_TOKENS, "") \
	X(W_XLSX_API_PRICE_PER_1M_OUTPUT_TOKENS, "") \
	X(W_XLSX_COST_PER_1M_OUTPUT_TOKENS, "") \
	X(W_XLSX_REQUEST_RATE_REQ_S, "") \
	X(W_XLSX_CONCURRENCY, "") \
	X(W_XLSX_COST_FORMULA, "") \
	X(W_XLSX_YES, "") \
	X(W_XLSX_NO, "") \
	X(W_XLSX_OUTPUT_THROUGHPUT_VS_REQUEST_RATE, "") \
	X(W_XLSX_OUTPUT_THROUGHPUT_VS_CONCURRENCY, "") \
	X(W_XLSX_RUN_ID, "") \
	X(W_XLSX_SOURCE, "") \
	X(W_XLSX_REFERENCE_ONLY, "") \
	X(W_XLSX_MISSING, "") \
	X(W_XLSX_PRESENT, "") \
	X(W_XLSX_RUNS_ID, "") \
	X(W_XLSX_RUNS_SOURCE_FILE, "") \
	X(W_XLSX_RUNS_SHA256, "") \
	X(W_XLSX_RUNS_RECORD, "") \
	X(W_XLSX_RUNS_ADAPTER, "") \
	X(W_XLSX_RUNS_REFERENCE_ONLY_COL, "") \
	X(W_XLSX_RUNS_CHECKLIST_MISSING, "") \
	X(W_XLSX_BUNDLE_ID, "") \
	X(W_XLSX_HOW_TO_CHECK, "") \
	/* the gnuplot charts (render/plot.c) */ \
	X(W_PLOT_TTFT, "") \
	X(W_PLOT_TPOT, "") \
	X(W_PLOT_ITL, "") \
	X(W_PLOT_THROUGHPUT, "") \
	X(W_PLOT_UNIT_S, "") \
	X(W_PLOT_UNIT_TOKS, "") \
	X(W_PLOT_AXIS_S, "") \
	X(W_PLOT_AXIS_TOKS, "") \
	X(PLOT_TITLE, "{1} TEXT the chart's metrics; {2} CODE its unit (W_PLOT_UNIT_*)") \
	/* goodput and its SLO (issue 22): goodput shown n/a in a comparison \
	 * because its values were not counted against one SLO */ \
	X(GOODPUT_SLO_MISSING, "{1} RUNS runs whose goodput records no SLO; {2} LIST the SLOs the others record (may be empty)") \
	X(GOODPUT_SLO_DIFFERS, "{1} LIST the different SLOs, e.g. 'ttft 0.2 s, tpot 0.05 s'") \
	/* compare --slo: a row graded at a per-request SLO from its runs' \
	 * stored requests (core/compare_slo.c) */ \
	X(CAV_SLO_NO_REQUESTS, "{1} RUNS the runs without stored requests") \
	X(CAV_SLO_NO_DURATION, "{1} RUNS the runs with requests but no duration") \
	/* bundle identity, offline verify and errata (issue 25) */ \
	X(BUNDLE_HOW_TO_CHECK, "{1} TEXT the bundle id") \
	X(BUNDLE_ERRATA_SINCE, "{1} TEXT the earlier bundle's id, {2} TEXT its as-of time (UTC)") \
	X(BUNDLE_ERRATA_NONE, "{1} TEXT the earlier bundle's id, {2} TEXT its as-of time (UTC)") \
	X(BUNDLE_ERRATUM_AMENDED, "{1} TEXT the run (source, sha256, record), {2} FIELD the field, " \
	                          "{3} TEXT the old value, {4} TEXT the new value, {5} TEXT the reason, " \
	                          "{6} TEXT who, {7} TEXT when (UTC)") \
	X(BUNDLE_ERRATUM_RETRACTED, "{1} TEXT the run, {2} TEXT the reason, {3} TEXT who, {4} TEXT when") \
	X(BUNDLE_ERRATUM_RESTORED, "{1} TEXT the run, {2} TEXT the reason, {3} TEXT who, {4} TEXT when") \
	X(BUNDLE_ERRATUM_ADDED, "{1} TEXT the run, {2} TEXT when it was imported (UTC)") \
	X(VERIFY_RUN_ABSENT, "{1} TEXT the run's content identity (sha256, record)") \
	X(VERIFY_RUN_RETRACTED, "{1} INT the run's id in this ledger, {2} TEXT its content identity") \
	X(VERIFY_RUN_AMENDED, "{1} INT the run's id here, {2} TEXT its content identity, " \
	                      "{3} INT its revision in the bundle, {4} INT its revision here") \
	X(VERIFY_RUN_OLDER, "{1} INT the run's id here, {2} TEXT its content identity, " \
	                    "{3} INT its revision in the bundle, {4} INT its (older) revision here") \
	X(VERIFY_RUN_LEFT, "{1} INT the run's id here, {2} TEXT its content identity") \
	X(VERIFY_RUN_NEW, "{1} INT the run's id here, {2} TEXT its content identity") \
	X(VERIFY_SUPERSEDED, "") \
	X(VERIFY_FILE_CHANGED, "{1} TEXT the file") \
	X(VERIFY_FILE_MISSING, "{1} TEXT the file") \
	X(VERIFY_FILE_ADDED, "{1} TEXT the file") \
	X(VERIFY_OFFLINE_OK, "{1} TEXT the bundle directory, {2} TEXT the bundle id") \
	X(VERIFY_OFFLINE_BAD, "{1} TEXT the bundle directory, {2} INT files that do not match") \
	X(VERIFY_ID_MANIFEST, "{1} TEXT the id recomputed, {2} TEXT the id the manifest names") \
	X(VERIFY_ID_GIVEN, "{1} TEXT the id recomputed, {2} TEXT the id given with --id") \
	X(VERIFY_ID_OK, "{1} TEXT the id given with --id") \
	X(VERIFY_AS_OF_SAME, "{1} TEXT the bundle's as-of time (UTC)") \
	/* the procurement verdict: bounds said as bounds, failed loads, what \
	 * is judged, bounded by a higher percentile or not evaluable */ \
	X(VERDICT_LOAD_CONCURRENCY, "") \
	X(VERDICT_LOAD_RATE, "") \
	X(VERDICT_AT_MOST, "{1} TEXT a formatted figure") \
	X(VERDICT_AT_LEAST, "{1} TEXT a formatted figure") \
	X(VERDICT_AT_MOST_SIGN, "") \
	X(VERDICT_FLAG_COST_AT_MOST, "") \
	X(VERDICT_FLAG_FAILS_BELOW, "") \
	X(VERDICT_FLAG_FAILED_LOAD, "") \
	X(VERDICT_FLAG_BOUNDED, "") \
	X(VERDICT_FLAG_NOT_EVALUABLE, "") \
	X(VERDICT_COST_AT_MOST, "{1} TEXT the cost as formatted, with the currency when one is named") \
	X(VERDICT_FAILS_AT, "{1} CODE the load word; {2} LIST the failed loads; {3} INT failed runs") \
	X(VERDICT_FAILS_BELOW, "{1} CODE the load word; {2} TEXT the lowest failed load; {3} TEXT the SLO figure's load") \
	X(VERDICT_NO_BOUND_FAILED, "{1} CODE the load word; {2} TEXT the failed load above the SLO load") \
	X(VERDICT_BOUNDED_BY, "{1} FIELD the limited metric not recorded; {2} FIELD the higher percentile; {3} NUM its value (s); {4} NUM the limit (s); {5} CODE the load word; {6} TEXT the load") \
	X(VERDICT_NOT_EVALUABLE_METRIC, "{1} LIST the metrics of its family the runs record; {2} FIELD the limited metric they lack") \
	X(VERDICT_NOT_EVALUABLE_NONE, "{1} FIELD the metric or load the runs lack") \
	X(VERDICT_SKIPPED, "{1} INT points not evaluable; {2} INT points; {3} LIST what they lack") \
	X(VERDICT_PRICE_USED, "{1} TEXT the price the verdict used; {2} TEXT the price stored with the runs") \
	X(VERDICT_PRICE_USED_NONE, "{1} TEXT the price the verdict used") \
	X(VERDICT_ENERGY, "{1} NUM J per output token; {2} NUM kWh per 1M output tokens; {3} NUM the power (W); {4} INT runs it rests on") \
	X(VERDICT_ENERGY_AT_MOST, "{1} NUM J per output token; {2} NUM kWh per 1M output tokens; {3} NUM the power (W); {4} INT runs it rests on") \
	/* the nightly gate over every series (core/gate_night.h) */ \
	X(GATE_HEAD, "{1} INT series; {2} INT checks; {3} INT window points; {4} NUM family-wise alpha; {5} NUM threshold in percent") \
	X(GATE_SERIES, "{1} TEXT the series label; {2} TEXT its latest point") \
	X(GATE_OPEN_SINCE, "{1} TEXT the first point of the open regression") \
	X(GATE_ACROSS, "{1} TEXT the change of conditions, 'field old -> new'") \
	X(GATE_STARTED, "{1} INT points it has; {2} INT points it needs before it is gated") \
	X(GATE_BY_FAMILY, "{1} INT series pooled; {2} NUM their Stouffer Z") \
	X(GATE_FAILED_RUNS, "{1} RUNS the failed runs of the latest point") \
	X(GATE_QUIET, "{1} INT checks without a change") \
	X(GATE_RESULT, "{1} INT regressions; {2} INT improvements; {3} INT accepted; {4} INT series with failed runs; {5} INT series started") \
	/* import --from-ci-env (core/ci_env.h) */ \
	X(CI_ENV_MISSING, "{1} TEXT the CI detected; {2} LIST the variables unset or empty") \
	/* import: nothing to import (cli/cmd_import.c; the fresh-user trial) */ \
	X(IMPORT_NO_RUNS, "{1} TEXT the file's path") \
	X(IMPORT_NO_FILES, "{1} TEXT the paths given, each in quotes, joined by commas") \
	/* repeated caveats collapsed in check and history text (render/regress.c) */ \
	X(CAVEAT_REPEATED, "{1} INT further caveats like it") \
	/* one rule for a series' latest night: history and check (core/history_gate.h) */ \
	X(HISTORY_GATE_LATEST, "{1} INT the latest point; {2} TEXT its median and unit; {3} TEXT the baseline level and unit; {4} INT baseline points; {5} TEXT the change; {6} TEXT the adjusted p; {7} INT checks decided together; {8} TEXT the verdict") \
	X(HISTORY_GATE_OPEN, "{1} INT the first point of the open regression") \
	X(HISTORY_GATE_TOO_FEW, "{1} INT baseline points needed") \
	X(HISTORY_GATE_FAILED_NIGHT, "") \
	X(HISTORY_GATE_SUPERSEDED, "{1} TEXT the change of condition the next series starts at") \
	/* what the nightly gate decided and why, in JUnit (render/gate_report.c) */ \
	X(GATE_WHY_SELF, "{1} NUM its adjusted p; {2} NUM alpha; {3} TEXT the change; {4} NUM threshold in percent") \
	X(GATE_WHY_FAMILY, "{1} INT series pooled; {2} NUM their Stouffer Z; {3} NUM the family's adjusted p; {4} NUM alpha; {5} TEXT the family's change; {6} NUM threshold in percent; {7} NUM the check's own p; {8} NUM member alpha") \
	X(GATE_WHY_NOT_SIGNIFICANT, "{1} NUM its adjusted p; {2} NUM alpha") \
	X(GATE_WHY_WITHIN, "{1} NUM its adjusted p; {2} NUM alpha; {3} TEXT the change; {4} NUM threshold in percent") \
	X(GATE_WHY_BETTER, "{1} NUM the mirrored test's adjusted p; {2} NUM alpha; {3} TEXT the change; {4} NUM threshold in percent") \
	X(GATE_WHY_TOO_FEW, "{1} INT baseline points needed") \
	X(GATE_WHY_ACCEPTED, "{1} INT the accepted run; {2} TEXT the reason") \
	X(GATE_WHY_BASELINE, "{1} INT baseline points; {2} TEXT the first; {3} TEXT the last") \
	/* accept --commit of a step found a night late (cli/cmd_accept.c) */ \
	X(ACCEPT_STEP_LATE, "{1} FIELD the metric; {2} INT the step's first run; {3} TEXT the commit") \
	/* one verdict per kind of sweep (render/bundle_context.c, bundle_charts.c) */ \
	X(VERDICT_KIND_CLOSED, "") \
	X(VERDICT_KIND_OPEN, "") \
	X(VERDICT_KIND_CLOSED_HEAD, "") \
	X(VERDICT_KIND_OPEN_HEAD, "") \
	X(VERDICT_KIND_CHART, "{1} TEXT the chart's title; {2} CODE the kind of sweep") \
	/* the workbook's sheet names (render/xlsx_sheets.c): at most 31 \
	 * characters, none of []:*?/\\ (Excel's rules) */ \
	X(W_XLSX_SHEET_PROCUREMENT, "") \
	X(W_XLSX_SHEET_COMPARISON, "") \
	X(W_XLSX_SHEET_RUNS, "") \
	X(W_XLSX_SHEET_CONDITIONS, "") \
	X(W_XLSX_SHEET_CAVEATS, "") \
	X(W_XLSX_SHEET_CHECKLIST, "") \
	X(W_XLSX_SHEET_CHECK, "") \
	/* hostile ledgers: a stored value outside its plausible range \
	 * (schema/ranges.tsv), left out of a history (core/history.c) */ \
	X(CAV_IMPLAUSIBLE_LEFT_OUT, "{1} FIELD the metric; {2} INT how many runs; {3} RUNS " \
	  "the first of them (at most 10)") \
	/* implausible values in a comparison (core/compare_plausible.c): shown \
	 * marked, no delta computed from them */ \
	X(CAV_IMPLAUSIBLE_NO_DELTA, "{1} FIELD the metric; {2} INT how many runs; {3} RUNS " \
	  "the first of them (at most 10)") \
	/* push and pull (cli/cmd_push.c, cmd_pull.c): the summary line is \
	 * parts worded one after another; the details ({1} of the _SKIPPED \
	 * and {2} of PULL_REFUSED) are the hub's and merge's own text */ \
	X(HUB_PUSHED, "{1} TEXT the hub (HOST:PORT/DB); {2} INT runs read; {3} INT stored; " \
	  "{4} INT on the hub already; {5} INT source chunks stored") \
	X(HUB_PULLED_FROM, "{1} TEXT the hub (HOST:PORT/DB)") \
	X(HUB_PULLED_FROM_FULL, "{1} TEXT the hub (HOST:PORT/DB): no earlier pull") \
	X(HUB_PULLED_COUNTS, "{1} INT new versions read; {2} INT runs; {3} INT accepted steps; " \
	  "{4} INT revisions; {5} INT retractions; {6} INT source chunks stored") \
	X(HUB_SKIPPED_TAIL, "{1} INT runs skipped (a conflict)") \
	X(HUB_REFUSED_TAIL, "{1} INT runs refused (invalid)") \
	X(HUB_PUSH_SKIPPED, "{1} TEXT the first skipped run with both values, then ids") \
	X(HUB_PULL_SKIPPED, "{1} TEXT the first skipped run with both values, then ids") \
	X(HUB_PULL_REFUSED, "{1} INT runs refused; {2} TEXT the first import error") \
	/* a caveat that holds for other rows too, on one line (render/regress.c) */ \
	X(CAVEAT_LIKEWISE, "{1} LIST the other rows' labels (all of them)") \
	X(CAVEAT_LIKEWISE_MORE, "{1} LIST the first other rows' labels; {2} INT how many more") \
	/* (the end of the list: keep this comment last, so every entry above \
	 * ends with a backslash and blocks merge cleanly) */

enum pl_msg_code {
	PL_MSG_NONE = 0, /* no message (an unset struct pl_msg) */
#define PL_MSG_ENUM_(name, contract) PL_MSG_##name,
	PL_MSG_CODES(PL_MSG_ENUM_)
#undef PL_MSG_ENUM_
	PL_MSG_COUNT /* number of codes; not a code */
};

/* The argument contract of code (the string of its PL_MSG_CODES entry),
 * "" for PL_MSG_NONE, NULL out of range. Static storage. */
const char *pl_msg_code_contract(enum pl_msg_code code);

/* What an argument holds, and so how a word table prints it. */
enum pl_msg_kind {
	PL_MA_TEXT = 1, /* s: text from input or a name; printed as it is */
	PL_MA_INT,      /* i: a count, an id or an index */
	PL_MA_NUM,      /* d: a number; printed in the C locale by the row's
	                   spec ({N:.2f}) or else with 4 significant digits */
	PL_MA_FIELD,    /* s: a canonical condition or metric name (DESIGN.md's
	                   vocabulary); printed as it is in every language */
	PL_MA_RUNS,     /* ids/nids: run ids, printed "3, 5, 7" and, past 10,
	                   "and K more" in the row's language */
	PL_MA_LIST,     /* v/nv: several texts, joined by the language's
	                   list separator (", " / "、") */
	PL_MA_CODE,     /* i: another code with no arguments (a word such as
	                   a flag), worded in the same language */
	PL_MA_MSGS,     /* sub/nsub: several messages (each a code with its
	                   own arguments: a value with its runs, a word),
	                   each worded in the same language and joined like
	                   a LIST */
};

struct pl_msg;

/* One argument. Only the members of its kind are set. */
struct pl_msg_arg {
	enum pl_msg_kind kind; /* what it holds */
	long long i;           /* PL_MA_INT, PL_MA_CODE */
	double d;              /* PL_MA_NUM */
	char *s;               /* PL_MA_TEXT, PL_MA_FIELD; owned */
	long long *ids;        /* PL_MA_RUNS; owned */
	size_t nids;           /* entries in ids */
	char **v;              /* PL_MA_LIST; owned, each owned */
	size_t nv;             /* entries in v */
	struct pl_msg *sub;    /* PL_MA_MSGS; owned, each owned */
	size_t nsub;           /* entries in sub */
};

/* The most arguments a message carries. */
#define PL_MSG_MAX_ARGS 10

/* A message. Initialise with pl_msg_init(), release with pl_msg_release(). */
struct pl_msg {
	enum pl_msg_code code;                  /* what it says */
	unsigned nargs;                         /* arguments in use */
	struct pl_msg_arg args[PL_MSG_MAX_ARGS]; /* args[0] is {1} in a row */
	int oom;                                /* sticky: an adder failed
	                                           (allocation, or more than
	                                           PL_MSG_MAX_ARGS arguments) */
};

/* A growable list of messages (the caveats of a comparison, say). */
struct pl_msgs {
	struct pl_msg *v; /* n messages, owned */
	size_t n;         /* messages in v */
	size_t cap;       /* allocated entries */
};

/* Starts an empty message with code. m must not be NULL. */
void pl_msg_init(struct pl_msg *m, enum pl_msg_code code);

/* Frees m's arguments and leaves it as pl_msg_init(m, PL_MSG_NONE) would.
 * NULL is a no-op. */
void pl_msg_release(struct pl_msg *m);

/* Adders: each appends one argument of its kind (copying s, ids, v).
 * Return 0, or PL_ENOMEM with m->oom set (also when m already holds
 * PL_MSG_MAX_ARGS arguments). A NULL s is stored as "". */
int pl_msg_text(struct pl_msg *m, const char *s);
int pl_msg_int(struct pl_msg *m, long long i);
int pl_msg_num(struct pl_msg *m, double d);
int pl_msg_field(struct pl_msg *m, const char *name);
int pl_msg_runs(struct pl_msg *m, const long long *ids, size_t nids);
int pl_msg_list(struct pl_msg *m, const char *const *v, size_t nv);
int pl_msg_code_arg(struct pl_msg *m, enum pl_msg_code word);
/* Appends a PL_MA_MSGS argument holding deep copies of sub[0..nsub);
 * a sub-message's oom flag makes the adder fail. Same returns. */
int pl_msg_msgs(struct pl_msg *m, const struct pl_msg *sub, size_t nsub);

/* Deep copy of src into *dst (dst initialised here). Returns 0 or
 * PL_ENOMEM (dst then released). */
int pl_msg_copy(struct pl_msg *dst, const struct pl_msg *src);

/* 1 if a and b have the same code and equal arguments (so a list of
 * caveats can collapse repeats into one line with a count), else 0. */
int pl_msg_equal(const struct pl_msg *a, const struct pl_msg *b);

/* The code's stable name (PL_MSG_TEXT's is "TEXT"), for JSON output and
 * tests; "NONE" for PL_MSG_NONE, "?" out of range. Static storage. */
const char *pl_msg_code_name(enum pl_msg_code code);

/* Appends *m to l, taking its arguments over (m is left as after
 * pl_msg_init(m, PL_MSG_NONE)). Returns 0, or PL_ENOMEM when m->oom is set
 * or the list cannot grow (m is then released). */
int pl_msgs_push(struct pl_msgs *l, struct pl_msg *m);

/* A one-argument PL_MSG_TEXT message appended to l (legacy sentences).
 * Returns 0 or PL_ENOMEM. */
int pl_msgs_push_text(struct pl_msgs *l, const char *text);

/* Frees every message and the list; l is left empty. NULL is a no-op. */
void pl_msgs_release(struct pl_msgs *l);

#endif
