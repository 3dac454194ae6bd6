/*
 * model.h — the canonical run: its conditions, its metrics and their units.
 *
 * Every input adapter turns a tool's output into struct pl_run values; the
 * store saves them, the comparator groups them and the renderers print them.
 * The two tables below (PL_CONDITIONS and PL_METRICS) are the single list of
 * condition fields and metrics in the program: the schema columns, the JSON
 * names of `--format json`, the descriptor keys and the CLI's FIELD names are
 * all these names. A unit test checks that schema/ has a column for each.
 *
 * Canonical units: seconds for latencies, tokens/s for token throughputs,
 * requests/s for request throughputs and goodput, a fraction 0..1 for the
 * error rate, bytes for memory, watts for power.
 */
#ifndef PL_MODEL_H
#define PL_MODEL_H

#include <stddef.h>


#include "core/error.h"
#include "util/utf8.h" /* pl_utf8_valid_prefix, pl_utf8_decode, pl_cp_is_control */

/* ---------------------------------------------------------------- conditions */

/* Value types of a condition field. */
enum pl_ctype {
	PL_CT_TEXT,    /* free text, compared after normalization */
	PL_CT_VERSION, /* version string, TEXT, natural order (0.6.3 < 0.10.1) */
	PL_CT_INT,     /* whole number; may be +inf for "unbounded" (concurrency) */
	PL_CT_REAL,    /* real number; may be +inf (request_rate "inf") */
	PL_CT_BOOL,    /* true / false, stored as 1 / 0 */
	PL_CT_TIME     /* ISO 8601 UTC timestamp text, e.g. 2026-01-02T03:04:05Z */
};

/* Flags of a condition field. */
#define PL_CF_KEY 0x1u       /* part of the condition key (DESIGN.md): compared;
                                every condition but run_started_at (per run) */
#define PL_CF_REQUIRED 0x2u  /* a run without it is rejected */
#define PL_CF_CHECKLIST 0x4u /* publication checklist item: missing => reference-only */

/*
 * X(ID, name, type, flags, travels_with, travels_with2, description)
 * travels_with, travels_with2: the conditions whose axis it travels with (it
 * may differ from row to row when one of them is on the comparison axis),
 * or NONE. Engine launch parameters travel with the engine and with the
 * hardware (they name its parallelism), and so do the conditions that are
 * read from them (engine_args.h: context length, KV-cache dtype, batch
 * limits, prefix caching, speculative decoding); parallelism, driver, CUDA
 * and prices travel with the hardware.
 */
#define PL_CONDITIONS(X) \
	X(MODEL, "model", PL_CT_TEXT, PL_CF_KEY | PL_CF_REQUIRED, NONE, NONE, "model name as served") \
	X(MODEL_SOURCE, "model_source", PL_CT_TEXT, PL_CF_KEY | PL_CF_CHECKLIST, NONE, NONE, "where the weights came from (huggingface, modelscope, local path)") \
	X(WEIGHTS_HASH, "weights_hash", PL_CT_TEXT, PL_CF_KEY, NONE, NONE, "hash of the weights files") \
	X(PRECISION, "precision", PL_CT_TEXT, PL_CF_KEY | PL_CF_REQUIRED, NONE, NONE, "weight/compute precision: bfloat16, float16, fp8, int8, int4, ...") \
	X(QUANTIZATION, "quantization", PL_CT_TEXT, PL_CF_KEY, NONE, NONE, "quantization method (awq, gptq, ...)") \
	X(ENGINE, "engine", PL_CT_TEXT, PL_CF_KEY | PL_CF_REQUIRED, NONE, NONE, "serving engine (vllm, sglang, trt-llm, llama.cpp, ...)") \
	X(ENGINE_VERSION, "engine_version", PL_CT_VERSION, PL_CF_KEY | PL_CF_CHECKLIST, ENGINE, NONE, "serving engine version") \
	X(ENGINE_ARGS, "engine_args", PL_CT_TEXT, PL_CF_KEY | PL_CF_CHECKLIST, ENGINE, HARDWARE, "engine launch parameters as given") \
	X(HARDWARE, "hardware", PL_CT_TEXT, PL_CF_KEY | PL_CF_REQUIRED, NONE, NONE, "accelerators, e.g. '2x NVIDIA A100 80G'") \
	X(ACCELERATOR_COUNT, "accelerator_count", PL_CT_INT, PL_CF_KEY, HARDWARE, NONE, "number of accelerators (from hardware 'Nx ...' if not given)") \
	X(DRIVER_VERSION, "driver_version", PL_CT_VERSION, PL_CF_KEY | PL_CF_CHECKLIST, HARDWARE, NONE, "accelerator driver version") \
	X(CUDA_VERSION, "cuda_version", PL_CT_VERSION, PL_CF_KEY | PL_CF_CHECKLIST, HARDWARE, NONE, "CUDA (or ROCm) runtime version") \
	X(TENSOR_PARALLEL_SIZE, "tensor_parallel_size", PL_CT_INT, PL_CF_KEY, HARDWARE, NONE, "tensor parallel size") \
	X(MAX_MODEL_LEN, "max_model_len", PL_CT_INT, PL_CF_KEY, ENGINE, HARDWARE, "maximum model context length in tokens") \
	X(KV_CACHE_DTYPE, "kv_cache_dtype", PL_CT_TEXT, PL_CF_KEY, ENGINE, HARDWARE, "KV-cache data type") \
	X(INPUT_TOKENS, "input_tokens", PL_CT_INT, PL_CF_KEY | PL_CF_CHECKLIST, NONE, NONE, "input (prompt) tokens per request") \
	X(MAX_OUTPUT_TOKENS, "max_output_tokens", PL_CT_INT, PL_CF_KEY | PL_CF_CHECKLIST, NONE, NONE, "output tokens per request (maximum)") \
	X(CONCURRENCY, "concurrency", PL_CT_INT, PL_CF_KEY | PL_CF_CHECKLIST, NONE, NONE, "requests in flight at once (closed loop); inf = unbounded") \
	X(REQUEST_RATE, "request_rate", PL_CT_REAL, PL_CF_KEY, NONE, NONE, "arrival rate in requests/s (open loop); inf = all at once") \
	X(WARMUP_REQUESTS, "warmup_requests", PL_CT_INT, PL_CF_KEY | PL_CF_CHECKLIST, NONE, NONE, "requests sent and discarded before measuring; 0 = cold start") \
	X(DATASET, "dataset", PL_CT_TEXT, PL_CF_KEY, NONE, NONE, "dataset / prompt set") \
	X(NUM_PROMPTS, "num_prompts", PL_CT_INT, PL_CF_KEY, NONE, NONE, "requests measured") \
	X(TEMPERATURE, "temperature", PL_CT_REAL, PL_CF_KEY, NONE, NONE, "sampling temperature") \
	X(STREAMING, "streaming", PL_CT_BOOL, PL_CF_KEY, NONE, NONE, "responses streamed") \
	X(DEPLOYMENT, "deployment", PL_CT_TEXT, PL_CF_KEY, NONE, NONE, "local or cloud-api") \
	X(BENCHMARK_TOOL, "benchmark_tool", PL_CT_TEXT, PL_CF_KEY, NONE, NONE, "benchmark client (vllm-bench-serve, ...)") \
	X(BENCHMARK_TOOL_VERSION, "benchmark_tool_version", PL_CT_VERSION, PL_CF_KEY, BENCHMARK_TOOL, NONE, "benchmark client version") \
	X(API_BACKEND, "api_backend", PL_CT_TEXT, PL_CF_KEY, NONE, NONE, "client API and endpoint the benchmark spoke (vLLM 'backend': openai = /v1/completions, openai-chat = /v1/chat/completions); not the engine") \
	X(REPETITIONS, "repetitions", PL_CT_INT, PL_CF_KEY, NONE, NONE, "repetitions of the run the file summarises") \
	X(PRICE_PER_HOUR, "price_per_hour", PL_CT_REAL, PL_CF_KEY, HARDWARE, NONE, "price per instance-hour, in the user's currency") \
	X(RUN_STARTED_AT, "run_started_at", PL_CT_TIME, 0, NONE, NONE, "when the run started, UTC") \
	X(PRICE_PER_MILLION_INPUT_TOKENS, "price_per_million_input_tokens", PL_CT_REAL, PL_CF_KEY, HARDWARE, NONE, "API price per million input tokens, in the user's currency") \
	X(PRICE_PER_MILLION_OUTPUT_TOKENS, "price_per_million_output_tokens", PL_CT_REAL, PL_CF_KEY, HARDWARE, NONE, "API price per million output tokens, in the user's currency") \
	X(PIPELINE_PARALLEL_SIZE, "pipeline_parallel_size", PL_CT_INT, PL_CF_KEY, HARDWARE, NONE, "pipeline parallel size") \
	X(DATA_PARALLEL_SIZE, "data_parallel_size", PL_CT_INT, PL_CF_KEY, HARDWARE, NONE, "data parallel size (engine replicas)") \
	X(EXPERT_PARALLEL_SIZE, "expert_parallel_size", PL_CT_INT, PL_CF_KEY, HARDWARE, NONE, "expert parallel size (MoE)") \
	X(KV_OFFLOAD, "kv_offload", PL_CT_TEXT, PL_CF_KEY, NONE, NONE, "KV-cache offload: none, or where to (cpu, lmcache, ...)") \
	X(PREFIX_CACHING, "prefix_caching", PL_CT_BOOL, PL_CF_KEY, ENGINE, HARDWARE, "automatic prefix caching enabled") \
	X(SPECULATIVE_METHOD, "speculative_method", PL_CT_TEXT, PL_CF_KEY, ENGINE, HARDWARE, "speculative decoding: none, or the method (eagle, mtp, ngram, draft model)") \
	X(SPECULATIVE_DRAFT_TOKENS, "speculative_draft_tokens", PL_CT_INT, PL_CF_KEY, ENGINE, HARDWARE, "speculative tokens proposed per step") \
	X(MAX_NUM_SEQS, "max_num_seqs", PL_CT_INT, PL_CF_KEY, ENGINE, HARDWARE, "engine limit: sequences in one batch") \
	X(MAX_NUM_BATCHED_TOKENS, "max_num_batched_tokens", PL_CT_INT, PL_CF_KEY, ENGINE, HARDWARE, "engine limit: tokens in one batch") \
	X(BURSTINESS, "burstiness", PL_CT_REAL, PL_CF_KEY, NONE, NONE, "arrival burstiness (gamma shape factor; 1 = Poisson arrivals)") \
	X(RAMP_UP_STRATEGY, "ramp_up_strategy", PL_CT_TEXT, PL_CF_KEY, NONE, NONE, "arrival rate ramp (linear, exponential); missing = a fixed rate") \
	X(RAMP_UP_START_RPS, "ramp_up_start_rps", PL_CT_REAL, PL_CF_KEY, NONE, NONE, "ramp-up start rate, requests/s") \
	X(RAMP_UP_END_RPS, "ramp_up_end_rps", PL_CT_REAL, PL_CF_KEY, NONE, NONE, "ramp-up end rate, requests/s") \
	X(TRACE, "trace", PL_CT_TEXT, PL_CF_KEY, NONE, NONE, "arrival trace replayed (file or name); missing = no replay") \
	X(TRACE_TIME_SCALE, "trace_time_scale", PL_CT_REAL, PL_CF_KEY, NONE, NONE, "time scale of the replayed trace (1 = as recorded)") \
	X(SCENARIO, "scenario", PL_CT_TEXT, PL_CF_KEY, NONE, NONE, "MLPerf scenario: Server, Interactive, Offline, SingleStream, ...") \
	X(TTFT_LIMIT, "ttft_limit", PL_CT_REAL, PL_CF_KEY, NONE, NONE, "TTFT latency limit the run had to meet, s") \
	X(TPOT_LIMIT, "tpot_limit", PL_CT_REAL, PL_CF_KEY, NONE, NONE, "TPOT latency limit the run had to meet, s") \
	X(OUTPUT_INCLUDES_REASONING, "output_includes_reasoning", PL_CT_BOOL, PL_CF_KEY, NONE, NONE, "output token counts and throughputs include reasoning tokens") \
	X(CONVERSATION_COUNT, "conversation_count", PL_CT_INT, PL_CF_KEY, NONE, NONE, "multi-turn workload: conversations (sessions) sent") \
	X(TURNS_PER_CONVERSATION, "turns_per_conversation", PL_CT_REAL, PL_CF_KEY, NONE, NONE, "multi-turn workload: turns (requests) per conversation, mean; 1 = single-turn") \
	X(DATASET_TYPE, "dataset_type", PL_CT_TEXT, PL_CF_KEY, NONE, NONE, "kind of workload the dataset gives: single_turn, multi_turn, trace, synthetic, ...") \
	X(STRUCTURED_OUTPUT_RATIO, "structured_output_ratio", PL_CT_REAL, PL_CF_KEY, NONE, NONE, "share of requests asking for structured (schema/grammar-constrained) output, 0..1") \
	X(PREFILL_HARDWARE, "prefill_hardware", PL_CT_TEXT, PL_CF_KEY, HARDWARE, NONE, "disaggregated serving: the prefill pool's accelerators") \
	X(PREFILL_ACCELERATOR_COUNT, "prefill_accelerator_count", PL_CT_INT, PL_CF_KEY, HARDWARE, NONE, "disaggregated serving: accelerators in the prefill pool") \
	X(PREFILL_TENSOR_PARALLEL_SIZE, "prefill_tensor_parallel_size", PL_CT_INT, PL_CF_KEY, HARDWARE, NONE, "disaggregated serving: tensor parallel size of a prefill worker") \
	X(DECODE_HARDWARE, "decode_hardware", PL_CT_TEXT, PL_CF_KEY, HARDWARE, NONE, "disaggregated serving: the decode pool's accelerators") \
	X(DECODE_ACCELERATOR_COUNT, "decode_accelerator_count", PL_CT_INT, PL_CF_KEY, HARDWARE, NONE, "disaggregated serving: accelerators in the decode pool") \
	X(DECODE_TENSOR_PARALLEL_SIZE, "decode_tensor_parallel_size", PL_CT_INT, PL_CF_KEY, HARDWARE, NONE, "disaggregated serving: tensor parallel size of a decode worker")

/* speculative_method of a run whose file shows speculative decoding
 * (acceptance rates, accepted lengths) without naming the method: a
 * condition of its own (never equal to "none" or to a named method); the
 * engine's launch flags (engine_args) replace it when they name one. */
#define PL_SPEC_UNKNOWN "unknown"

#define PL_COND_ENUM_(id, name, type, flags, tw, tw2, desc) PL_C_##id,
enum pl_cond_id { PL_CONDITIONS(PL_COND_ENUM_) PL_COND_COUNT, PL_C_NONE = -1 };
#undef PL_COND_ENUM_

/* Static description of a condition field. */
struct pl_cond_info {
	const char *name;        /* canonical snake_case name */
	enum pl_ctype type;      /* value type */
	unsigned flags;          /* PL_CF_* */
	int travels_with;        /* enum pl_cond_id or PL_C_NONE */
	int travels_with2;       /* a second one, or PL_C_NONE */
	const char *description; /* one line, for --help and schema docs */
};

/* The table, indexed by enum pl_cond_id. */
extern const struct pl_cond_info pl_cond_info[PL_COND_COUNT];

/* Returns the id of the condition called name (exact, canonical name), or
 * PL_C_NONE if there is none. */
int pl_cond_lookup(const char *name);

/* ------------------------------------------------------------------- metrics */

/* Units of metrics (canonical units only: inputs are converted on import). */
enum pl_unit {
	PL_U_SECONDS,
	PL_U_TOKENS_PER_S,
	PL_U_REQUESTS_PER_S,
	PL_U_FRACTION,
	PL_U_COUNT,
	PL_U_BYTES,
	PL_U_WATTS
};

/* Which way is better. */
enum pl_direction { PL_LOWER_IS_BETTER, PL_HIGHER_IS_BETTER, PL_NO_DIRECTION };

/* Statistic of a distribution a metric is (for percentile-order checks). */
enum pl_stat {
	PL_S_VALUE, /* a single value (throughputs, error rate) */
	PL_S_MEAN,
	PL_S_STD,
	PL_S_MIN,
	PL_S_MAX,
	PL_S_P50,
	PL_S_P90,
	PL_S_P95,
	PL_S_P99,
	PL_S_P999,
	PL_S_LIMIT  /* not a measure: a limit another metric was counted against
	               (goodput's SLO); never compared on its own */
};

/* The statistics of one distribution family, in the order they are declared. */
#define PL_DIST_METRICS(X, fam, FAM, unit, dir, what) \
	X(FAM##_MEAN, fam "_mean", unit, dir, PL_S_MEAN, what ", mean") \
	X(FAM##_STD, fam "_std", unit, PL_NO_DIRECTION, PL_S_STD, what ", standard deviation") \
	X(FAM##_MIN, fam "_min", unit, dir, PL_S_MIN, what ", minimum") \
	X(FAM##_MAX, fam "_max", unit, dir, PL_S_MAX, what ", maximum") \
	X(FAM##_P50, fam "_p50", unit, dir, PL_S_P50, what ", median") \
	X(FAM##_P90, fam "_p90", unit, dir, PL_S_P90, what ", 90th percentile") \
	X(FAM##_P95, fam "_p95", unit, dir, PL_S_P95, what ", 95th percentile") \
	X(FAM##_P99, fam "_p99", unit, dir, PL_S_P99, what ", 99th percentile") \
	X(FAM##_P999, fam "_p99_9", unit, dir, PL_S_P999, what ", 99.9th percentile")

/* Speculative decoding's acceptance rate of each draft position (vLLM's
 * spec_decode_per_position_acceptance_rates): position k is the share of
 * verification steps whose k-th draft token was accepted, a fraction.
 * Positions 1..PL_SPEC_POSITIONS are metrics (migration 015); a file with
 * more positions also keeps its whole list as the unplaced measurement. */
#define PL_SPEC_POSITIONS 8
#define PL_POS_METRIC(X, k) \
	X(SPEC_ACCEPTANCE_RATE_POS##k, "spec_acceptance_rate_pos" #k, PL_U_FRACTION, PL_HIGHER_IS_BETTER, PL_S_VALUE, "speculative decoding: acceptance rate of draft position " #k)
#define PL_POS_METRICS(X) \
	PL_POS_METRIC(X, 1) PL_POS_METRIC(X, 2) PL_POS_METRIC(X, 3) PL_POS_METRIC(X, 4) \
	PL_POS_METRIC(X, 5) PL_POS_METRIC(X, 6) PL_POS_METRIC(X, 7) PL_POS_METRIC(X, 8)

/* X(ID, name, unit, direction, stat, description) */
#define PL_METRICS(X) \
	PL_DIST_METRICS(X, "ttft", TTFT, PL_U_SECONDS, PL_LOWER_IS_BETTER, "time to first token") \
	PL_DIST_METRICS(X, "tpot", TPOT, PL_U_SECONDS, PL_LOWER_IS_BETTER, "time per output token after the first") \
	PL_DIST_METRICS(X, "itl", ITL, PL_U_SECONDS, PL_LOWER_IS_BETTER, "inter-token latency") \
	PL_DIST_METRICS(X, "e2el", E2EL, PL_U_SECONDS, PL_LOWER_IS_BETTER, "end-to-end request latency") \
	PL_DIST_METRICS(X, "tokens_per_second", TPS, PL_U_TOKENS_PER_S, PL_HIGHER_IS_BETTER, "per-request decode speed") \
	X(OUTPUT_THROUGHPUT, "output_throughput", PL_U_TOKENS_PER_S, PL_HIGHER_IS_BETTER, PL_S_VALUE, "generated tokens per second, all requests together") \
	X(TOTAL_TOKEN_THROUGHPUT, "total_token_throughput", PL_U_TOKENS_PER_S, PL_HIGHER_IS_BETTER, PL_S_VALUE, "input plus output tokens per second") \
	X(REQUEST_THROUGHPUT, "request_throughput", PL_U_REQUESTS_PER_S, PL_HIGHER_IS_BETTER, PL_S_VALUE, "completed requests per second") \
	X(GOODPUT, "goodput", PL_U_REQUESTS_PER_S, PL_HIGHER_IS_BETTER, PL_S_VALUE, "requests per second meeting the SLO") \
	X(ERROR_RATE, "error_rate", PL_U_FRACTION, PL_LOWER_IS_BETTER, PL_S_VALUE, "failed / total requests") \
	X(REQUESTS_COMPLETED, "requests_completed", PL_U_COUNT, PL_NO_DIRECTION, PL_S_VALUE, "requests that completed") \
	X(REQUESTS_FAILED, "requests_failed", PL_U_COUNT, PL_NO_DIRECTION, PL_S_VALUE, "requests that failed") \
	X(TOTAL_INPUT_TOKENS, "total_input_tokens", PL_U_COUNT, PL_NO_DIRECTION, PL_S_VALUE, "input tokens over all requests") \
	X(TOTAL_OUTPUT_TOKENS, "total_output_tokens", PL_U_COUNT, PL_NO_DIRECTION, PL_S_VALUE, "output tokens over all requests") \
	X(DURATION, "duration", PL_U_SECONDS, PL_NO_DIRECTION, PL_S_VALUE, "wall-clock duration of the measured part") \
	X(GPU_MEMORY_BYTES, "gpu_memory_bytes", PL_U_BYTES, PL_LOWER_IS_BETTER, PL_S_VALUE, "peak accelerator memory used") \
	X(POWER_WATTS, "power_watts", PL_U_WATTS, PL_LOWER_IS_BETTER, PL_S_VALUE, "mean accelerator power draw") \
	X(INPUT_TOKENS_MEAN, "input_tokens_mean", PL_U_COUNT, PL_NO_DIRECTION, PL_S_MEAN, "measured input tokens per request, mean") \
	X(OUTPUT_TOKENS_MEAN, "output_tokens_mean", PL_U_COUNT, PL_NO_DIRECTION, PL_S_MEAN, "measured output tokens per request, mean") \
	X(CONCURRENCY_MEAN, "concurrency_mean", PL_U_COUNT, PL_NO_DIRECTION, PL_S_MEAN, "measured requests in flight, mean") \
	X(OUTPUT_THROUGHPUT_PER_ACCELERATOR, "output_throughput_per_accelerator", PL_U_TOKENS_PER_S, PL_HIGHER_IS_BETTER, PL_S_VALUE, "output throughput per accelerator") \
	X(TOTAL_TOKEN_THROUGHPUT_PER_ACCELERATOR, "total_token_throughput_per_accelerator", PL_U_TOKENS_PER_S, PL_HIGHER_IS_BETTER, PL_S_VALUE, "total token throughput per accelerator") \
	X(PREFILL_TPS, "prefill_tokens_per_second", PL_U_TOKENS_PER_S, PL_HIGHER_IS_BETTER, PL_S_MEAN, "prompt-processing speed, mean") \
	X(PREFILL_TPS_STD, "prefill_tokens_per_second_std", PL_U_TOKENS_PER_S, PL_NO_DIRECTION, PL_S_STD, "prompt-processing speed, standard deviation") \
	X(SPEC_ACCEPTANCE_RATE, "spec_acceptance_rate", PL_U_FRACTION, PL_HIGHER_IS_BETTER, PL_S_VALUE, "speculative decoding: accepted / proposed draft tokens") \
	X(SPEC_ACCEPTANCE_LENGTH, "spec_acceptance_length", PL_U_COUNT, PL_HIGHER_IS_BETTER, PL_S_MEAN, "speculative decoding: tokens emitted per verification step, mean (1 + accepted drafts)") \
	PL_POS_METRICS(X) \
	X(CORRECT_RATE, "correct_rate", PL_U_FRACTION, PL_HIGHER_IS_BETTER, PL_S_VALUE, "structured output: share of responses that are valid / correct") \
	X(GOODPUT_SLO_TTFT, "goodput_slo_ttft", PL_U_SECONDS, PL_NO_DIRECTION, PL_S_LIMIT, "the TTFT limit goodput was counted against (kept with goodput)") \
	X(GOODPUT_SLO_TPOT, "goodput_slo_tpot", PL_U_SECONDS, PL_NO_DIRECTION, PL_S_LIMIT, "the TPOT limit goodput was counted against (kept with goodput)") \
	X(GOODPUT_SLO_E2EL, "goodput_slo_e2el", PL_U_SECONDS, PL_NO_DIRECTION, PL_S_LIMIT, "the E2EL limit goodput was counted against (kept with goodput)")

#define PL_METRIC_ENUM_(id, name, unit, dir, stat, desc) PL_M_##id,
enum pl_metric_id { PL_METRICS(PL_METRIC_ENUM_) PL_METRIC_COUNT, PL_M_NONE = -1 };
#undef PL_METRIC_ENUM_

/* Static description of a metric. */
struct pl_metric_info {
	const char *name;            /* canonical name, e.g. "ttft_p95" */
	enum pl_unit unit;           /* canonical unit */
	enum pl_direction direction; /* which way is better */
	enum pl_stat stat;           /* statistic (for order checks) */
	const char *description;     /* one line */
};

/* The table, indexed by enum pl_metric_id. */
extern const struct pl_metric_info pl_metric_info[PL_METRIC_COUNT];

/* Returns the id of the metric called name (exact canonical name), or PL_M_NONE. */
int pl_metric_lookup(const char *name);

/* Short unit label for headers: "s", "tok/s", "req/s", "fraction", "count",
 * "bytes", "W". Never NULL. */
const char *pl_unit_label(enum pl_unit unit);

/* ------------------------------------------------------------------ the run */

/* One condition value. A missing value has set == 0 (and text == NULL).
 * For every type, text holds the canonical text form ("8", "inf", "0.6.3",
 * "true"); numeric types (INT, REAL, BOOL) also hold num (INFINITY allowed
 * for INT/REAL meaning unbounded). text is owned by the run. */
struct pl_value {
	int set;    /* 1 if known */
	double num; /* numeric value for INT/REAL/BOOL; 0 otherwise */
	char *text; /* canonical text, heap, owned; NULL if !set */
};

/* Bits of pl_run.checklist_missing: publication checklist items missing
 * (DESIGN.md). A run with any bit set is reference-only. */
#define PL_CHK_WEIGHTS_SOURCE 0x001u /* model_source or weights_hash */
#define PL_CHK_ENGINE_VERSION 0x002u
#define PL_CHK_ENGINE_ARGS 0x004u    /* launch parameters */
#define PL_CHK_DRIVER 0x008u         /* driver_version and cuda_version */
#define PL_CHK_LENGTHS 0x010u        /* input_tokens and max_output_tokens */
#define PL_CHK_CONCURRENCY 0x020u    /* concurrency, request_rate, ramp_up_strategy or trace */
#define PL_CHK_WARMUP 0x040u
#define PL_CHK_TTFT 0x080u           /* any TTFT statistic */
#define PL_CHK_TPOT 0x100u           /* any TPOT or ITL statistic */
#define PL_CHK_THROUGHPUT 0x200u     /* output_throughput or tokens_per_second */
#define PL_CHK_P95 0x400u            /* a p95 of TTFT, TPOT, ITL or E2EL */
#define PL_CHK_COUNT 11

/* Name of checklist bit i (0 <= i < PL_CHK_COUNT), e.g. "weights source". */
const char *pl_checklist_item(int i);

/* A condition a source file records that no canonical field holds: kept
 * under the name "FORMAT.key" (e.g. "vllm-serving.best_of"
 * or "llama-bench.n_threads"), with the file's value as text. Extras are
 * part of a run's condition set: two runs that differ in one never pool
 * into one comparison row. */
struct pl_extra {
	char *name;  /* "FORMAT.key", UTF-8, contains a '.'; owned */
	char *value; /* the value as text (a JSON value's text for non-strings); owned */
};

/* An unplaced measurement: a result value a source file records that no
 * canonical metric holds (schema/formats.md, "Keys an inventory does not
 * know"), e.g. "vllm-serving.spec_decode_acceptance_rate". Kept per run,
 * shown and exported, never part of the condition key and never a reason
 * to refuse a comparison. */
struct pl_measure {
	char *name;  /* "FORMAT.path", the key path as the file wrote it; owned */
	int is_num;  /* 1: the value is the number num (json is NULL) */
	double num;  /* the number when is_num */
	char *json;  /* otherwise the value's JSON text (an array, ...); owned */
};

/* Build identity of a run (issue 14): which build of the software under test
 * it measured and where that build ran. Provenance, not a condition: runs
 * that differ only in these pool together (they are not in the condition
 * key, the comparator never looks at them), but history and check may group
 * the points of a series by them (--group-by build / commit). */
enum pl_build_field {
	PL_B_COMMIT,     /* "commit": VCS revision, e.g. a git sha */
	PL_B_BRANCH,     /* "branch": branch (or tag ref) the build came from */
	PL_B_BUILD_ID,   /* "build_id": CI build number, image tag or any build name */
	PL_B_CI_RUN_URL, /* "ci_run_url": link to the CI run that measured it */
	PL_BUILD_COUNT
};

/* Name of build field f ("commit", "branch", "build_id", "ci_run_url"), the
 * key in a descriptor, a sidecar, --set and the `runs` column (build_ prefix
 * for commit and branch: build_commit, build_branch); NULL when out of range. */
const char *pl_build_name(int f);

/* The build field named name (the descriptor key, e.g. "commit"), or -1. */
int pl_build_lookup(const char *name);

/* Checks and sets build field f of run to text (copied): 1 to 1024 bytes of
 * UTF-8 without control characters; ci_run_url must start with http:// or
 * https://. Returns 0; PL_EINVALID (err names the field and what was
 * expected); PL_ENOMEM. */
struct pl_run;
int pl_run_set_build(struct pl_run *run, int f, const char *text, struct pl_error *err);

/* The canonical run. Created by adapters, filled by the store on query.
 * Initialise with pl_run_init(), release with pl_run_release(). */
struct pl_carried; /* core/carried.h */
struct pl_requests; /* core/requests.h */

struct pl_run {
	long long id;                           /* database id; 0 until stored */
	struct pl_value cond[PL_COND_COUNT];    /* conditions, by enum pl_cond_id */
	double metric[PL_METRIC_COUNT];         /* metrics in canonical units */
	unsigned char has_metric[PL_METRIC_COUNT]; /* 1 where metric[] is known */
	char *source;          /* input path as given ("-" for stdin); owned */
	char sha256[65];       /* lowercase hex sha256 of the input file's bytes */
	long record;           /* index of the run inside its file: 0, or the
	                          0-based record/line of a JSONL or array file */
	char *adapter;         /* adapter that read it ("descriptor", ...); owned */
	char *format_version;  /* version of the input format, or NULL; owned */
	char *imported_at;     /* ISO 8601 UTC, set by the store; owned */
	unsigned checklist_missing; /* PL_CHK_* bits; nonzero => reference-only */
	char *warnings;        /* import warnings, one per line ("\n"-separated),
	                          or NULL; not stored in the database; owned */
	struct pl_extra *extra; /* extra conditions, sorted by name (strcmp),
	                           names unique; owned */
	size_t nextra;          /* entries in extra */
	size_t extra_cap;       /* allocated entries of extra (PL_ALLOC_GROW);
	                           reset and moved together with extra */
	struct pl_measure *measure; /* unplaced measurements, sorted by name
	                           (strcmp), names unique; owned */
	size_t nmeasure;        /* entries in measure */
	size_t measure_cap;     /* allocated entries of measure */
	char *build[PL_BUILD_COUNT]; /* build identity by enum pl_build_field,
	                           NULL when not known; provenance, not a
	                           condition; owned */
	int provenance_given;   /* 1: source, sha256, record, adapter, format_version and
	                           imported_at were read from a perfledger ledger record
	                           (`export`, `list --format json`) and are stored as they
	                           are, not as the importing file's; 2: read from an
	                           `export` line, whose record_id is kept as given and
	                           absent means none (stored NULL, as in a ledger older
	                           than migration 008) */
	struct pl_carried *carried; /* accepted steps, revisions and retractions a
	                           ledger record carries (core/carried.h), or NULL; owned */
	int revision;           /* the stored run's current revision: 1 as
	                           imported, +1 per amend (core/amend.h); set
	                           by the store's reads, 0 otherwise */
	int retracted;          /* 1: retracted (`perfledger retract`); set by
	                           the store's reads */
	char record_id[33];     /* identity of the run's content, 32 hex digits
	                           (pl_run_record_id), "" when not made; a record
	                           already stored from other bytes is not stored
	                           again */
	struct pl_error *reject; /* why this record of a multi-record file is
	                            rejected (its other records are kept), or
	                            NULL; owned */
	struct pl_requests *requests; /* the run's requests where its file carries
	                            them (core/requests.h), or NULL; owned. Read
	                            from the store only on demand
	                            (pl_store_read_requests) */
};

/* Zeroes run (all conditions and metrics missing). */
void pl_run_init(struct pl_run *run);

/* Frees everything run owns and re-initialises it. NULL is a no-op. */
void pl_run_release(struct pl_run *run);

/* Deep copy of src into dst (dst must be initialised or released).
 * Returns 0 or PL_ENOMEM (dst is then released). */
int pl_run_copy(struct pl_run *dst, const struct pl_run *src);

/* Sets condition id to the text value (copied). No normalization is done
 * here; numeric types parse text with checked strtod ("inf" allowed for
 * INT/REAL; INT must be whole); TIME must be ISO 8601 (YYYY-MM-DD with an
 * optional THH:MM[:SS[.f]] and zone Z / +HH:MM). Returns 0, PL_ENOMEM, or PL_EINVALID with a
 * message naming the field and the expected form. value NULL clears. */
int pl_run_set_cond(struct pl_run *run, int id, const char *value, struct pl_error *err);

/* Sets numeric condition id to num (INFINITY allowed), making its canonical
 * text ("8", "1.5", "inf", "true"/"false" for BOOL). Returns 0 or PL_ENOMEM
 * or PL_EUSAGE if id is not numeric. */
int pl_run_set_cond_num(struct pl_run *run, int id, double num, struct pl_error *err);

/* Sets the extra condition name (must contain a '.') to value, both
 * copied; an existing entry of that name is replaced, value NULL removes
 * it. The array stays sorted by name. Returns 0, PL_ENOMEM, or PL_EINVALID
 * (name without a '.', or name or value not UTF-8). */
int pl_run_set_extra(struct pl_run *run, const char *name, const char *value,
                     struct pl_error *err);

/* The value of extra condition name, or NULL when the run has none. */
const char *pl_run_extra(const struct pl_run *run, const char *name);

/* Sets the unplaced measurement name (must contain a '.') to the number
 * num (json NULL) or to the JSON text json (an array, a string, ...), both
 * copied; an existing entry of that name is replaced. The array stays
 * sorted by name. Returns 0, PL_ENOMEM, or PL_EINVALID (name without a
 * '.', not UTF-8, or a non-finite number). */
int pl_run_set_measure(struct pl_run *run, const char *name, double num, const char *json,
                       struct pl_error *err);

/* The unplaced measurement name of run, or NULL. */
const struct pl_measure *pl_run_measure(const struct pl_run *run, const char *name);

/* Sets the unplaced measurement name from a value as text: a number in
 * the C locale is stored as that number, anything else as its JSON text
 * when it parses as a JSON array or object, else as a JSON string. Returns
 * as pl_run_set_measure(). */
int pl_run_set_measure_text(struct pl_run *run, const char *name, const char *text,
                            struct pl_error *err);

/* 1 if a[0..na) and b[0..nb), each sorted by name, hold the same extra
 * conditions with equal values. */
int pl_extras_equal(const struct pl_extra *a, size_t na, const struct pl_extra *b, size_t nb);

/* 1 if a and b hold the same extra conditions with equal values. */
int pl_run_extras_equal(const struct pl_run *a, const struct pl_run *b);

/* Sets metric id to value (canonical units). */
void pl_run_set_metric(struct pl_run *run, int id, double value);

/* Appends one warning line (printf-style, C locale numbers are the
 * caller's business) to run->warnings. Out of memory drops the warning. */
void pl_run_warn(struct pl_run *run, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Sets a heap string field (source, adapter, ...) to a copy of s (NULL ok).
 * Returns 0 or PL_ENOMEM. */
int pl_strset(char **field, const char *s);

/* 1 if the run is a failed run: no request completed (requests_completed
 * 0) or every request failed (error_rate 1), else 0. A failed run is
 * stored and listed, drawn in history, and never pooled into a median. */
int pl_run_failed(const struct pl_run *run);

/* Marks run as a rejected record: copies err into run->reject (replacing
 * one already there). Returns 0 or PL_ENOMEM. */
int pl_run_reject(struct pl_run *run, const struct pl_error *err);

/* Recomputes run->checklist_missing from its conditions and metrics. */
void pl_run_update_checklist(struct pl_run *run);

/* A growable array of runs. Initialise with {0} or pl_run_list_init(). */
struct pl_run_list {
	struct pl_run *v; /* runs; owned */
	size_t n;         /* runs in use */
	size_t cap;       /* allocated */
};

void pl_run_list_init(struct pl_run_list *list);

/* Appends a new initialised run and returns it, or NULL on out of memory.
 * The pointer is valid until the next push. */
struct pl_run *pl_run_list_push(struct pl_run_list *list);

/* Releases every run and the array; the list is empty afterwards. NULL ok. */
void pl_run_list_release(struct pl_run_list *list);

/*
 * Runs in columns, for comparisons over many runs: each distinct set of
 * conditions once, and per run only what a comparison reads (its id, its
 * set, its checklist bits and the metrics asked for). A million runs take
 * about 8 bytes per loaded metric each instead of a 1.4 KB struct pl_run
 * with its own copies of every condition text. Filled by
 * pl_store_query_columns() or pl_run_columns_borrow(); initialise with
 * pl_run_columns_init(), release with pl_run_columns_release().
 */
struct pl_run_columns {
	const struct pl_run *sets;  /* condition sets; only cond[] is read */
	size_t nsets;               /* entries in sets */
	struct pl_run *owned_sets;  /* == sets when cols owns them (released with
	                               it); NULL when they belong to a run list */
	char **texts;               /* when set, the owned sets' condition texts,
	                               each distinct text once and shared by
	                               pointer (the sets do not own them, but do
	                               own their extras); owned */
	size_t ntexts;              /* entries in texts */
	size_t n;                   /* runs */
	long long *id;              /* n run ids, in the order the runs were given */
	size_t *set;                /* n indices into sets */
	unsigned *checklist_missing; /* n PL_CHK_* bit sets */
	double *metric[PL_METRIC_COUNT]; /* n values per loaded metric, canonical
	                                    units, NaN = missing in that run;
	                                    NULL = not loaded (missing in all) */
};

/* Empties cols (no runs, no sets). */
void pl_run_columns_init(struct pl_run_columns *cols);

/* Frees everything cols owns and re-initialises it. NULL is a no-op. */
void pl_run_columns_release(struct pl_run_columns *cols);

/* Fills cols (initialised here) with the runs of list, in list order: each
 * run is its own condition set (sets points into list, which must outlive
 * cols and stay unchanged), every metric is loaded (has_metric 0 or a NaN
 * value gives NaN). Returns 0 or PL_ENOMEM (cols is then empty). */
int pl_run_columns_borrow(struct pl_run_columns *cols, const struct pl_run_list *list);

/* 1 if condition id is recorded per run (run_started_at), 0 if it belongs
 * to the set of conditions runs share (every other condition). */
int pl_cond_per_run(int id);

/* -------------------------------------------------------------- formatting */

/* Formats a number in the C locale whatever the process locale:
 * shortest form that reads back to the same double ("0.32", "45.2", "8"),
 * "inf" for +infinity. buf should hold 32 bytes. Returns buf. */
char *pl_fmt_num(char *buf, size_t n, double v);

/* Unit conversion by a power of ten done on the decimal digits, so that
 * 109.68 ms becomes exactly the double nearest to 0.10968 s (plain v / 1000
 * gives 0.10968000000000001): v's shortest decimal form gets its exponent
 * shifted by exp10 and is read back with correctly rounded strtod.
 * Infinity and NaN pass through. Returns the scaled value. */
double pl_scale_pow10(double v, int exp10);

/* 1 if s is a time as run_started_at takes it: YYYY-MM-DD (a real date,
 * leap years included), optionally T or a space and HH:MM[:SS[.fraction]]
 * (hour 00-23, minute 00-59, second 00-60 for a leap second), optionally Z
 * or an offset +HH:MM / -HH:MM up to 14:00; else 0. */
int pl_is_iso8601(const char *s);

/* v rounded to digits significant decimal digits (1..17), as the double
 * nearest to that decimal. Infinity and NaN pass through. */
double pl_round_sig(double v, int digits);

/* Checked number parsing in the C locale: the whole of s must be a finite
 * number (or "inf"/"infinity", any case, when allow_inf). Returns 0 and sets
 * *out, or PL_EINVALID. */
int pl_parse_num(const char *s, int allow_inf, double *out);

#endif
