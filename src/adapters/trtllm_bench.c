/*
 * trtllm_bench.c — TensorRT-LLM `trtllm-bench latency|throughput
 * --report_json` reports.
 *
 * One object per file: engine, machine, world_info, request_info,
 * performance, streaming_metrics and dataset blocks (the latency and the
 * throughput report share the layout). Times are in milliseconds and are
 * converted to seconds. The engine is TensorRT-LLM itself (engine.version
 * is its version). Throughputs: system_total_throughput_tok_s counts input
 * plus output tokens and is stored as total_token_throughput only.
 *
 * Per-request decode speed: gen_tps_percentiles is stored as the
 * tokens_per_second distribution as the file gives it. Its average (also
 * written as token_output_speed_tok_s) is dragged by requests whose TPOT is
 * near zero (one request at 281103 tok/s makes the mean 14391 where the
 * median is 349): when the mean is more than twice the median a warning
 * says so; compare the median.
 *
 * The workload is the realized one: input_tokens and max_output_tokens
 * come from the dataset block's isl_stats / osl_stats when every request
 * has the same length (else missing, with a warning: supply it). An engine
 * max_input_length below the requests' input length is a warning naming
 * both; the dataset block wins. model_path "None" (the string) is missing.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"

#define NAME "trtllm-bench"

static const char *const trtllm_mapping[] = {
	"(constant) -> engine = trt-llm; engine.version -> engine_version",
	"(constant) -> benchmark_tool = trtllm-bench",
	"engine.model -> model; engine.model_path -> model_source (the string \"None\" -> missing)",
	"engine.dtype -> precision; engine.quantization -> quantization (null -> missing)",
	"engine.kv_cache_dtype -> kv_cache_dtype (null -> missing)",
	"engine.max_sequence_length -> max_model_len",
	"world_info.world_size + machine.name -> hardware \"Nx NAME\" (accelerator_count N)",
	"world_info.tp_size / pp_size / ep_size -> tensor / pipeline / expert_parallel_size",
	"world_info.max_batch_size -> max_num_seqs; world_info.max_num_tokens -> max_num_batched_tokens",
	"dataset.isl_stats / osl_stats (all requests one length) -> input_tokens / max_output_tokens",
	"request_info.num_requests -> num_prompts",
	"request_info.avg_input_length / avg_output_length -> input_tokens_mean / output_tokens_mean",
	"request_info.avg_num_concurrent_requests -> concurrency_mean",
	"performance.total_latency_ms -> duration (s)",
	"performance.request_latency_percentiles_ms -> e2el_{p50,p90,p95,p99,min,max,mean} (s)",
	"performance.request_throughput_req_s -> request_throughput (req/s)",
	"performance.system_output_throughput_tok_s -> output_throughput (tok/s)",
	"performance.system_total_throughput_tok_s -> total_token_throughput (input + output tok/s)",
	"performance.output_throughput_per_gpu_tok_s -> output_throughput_per_accelerator",
	"streaming_metrics.ttft_percentiles / tpot_percentiles -> ttft_* / tpot_* (s)",
	"streaming_metrics.gen_tps_percentiles -> tokens_per_second_* (tok/s; the mean is "
	"dragged by near-zero-TPOT requests: a warning when it exceeds twice the median)",
	"decoding_stats (written for speculative runs only) -> speculative_method = its mode "
	"(normalized: lower-cased), unknown without one; its percentiles stay unplaced measurements",
	NULL,
};

#define STATS_NOTE "{p50,p90,p95,p99,minimum,maximum,average} -> _p50.._p99, _min, _max, _mean"

static const struct pl_field trtllm_fields[] = {
	{"engine.model", PL_FATE_CONDITION, "model (as is)"},
	{"engine.model_path", PL_FATE_DERIVED,
	 "model_source (a weights path); the string \"None\" -> missing"},
	{"engine.engine_dir", PL_FATE_IGNORED,
	 "local path of the built engine: provenance; a folder name never supplies a condition"},
	{"engine.revision", PL_FATE_EXTRA, "the model's hub revision (null -> nothing)"},
	{"engine.version", PL_FATE_CONDITION, "engine_version (engine = trt-llm)"},
	{"engine.backend", PL_FATE_EXTRA, "TensorRT-LLM's backend (TRT engine, pytorch, ...)"},
	{"engine.dtype", PL_FATE_CONDITION, "precision"},
	{"engine.kv_cache_dtype", PL_FATE_CONDITION, "kv_cache_dtype (null -> missing)"},
	{"engine.quantization", PL_FATE_CONDITION, "quantization (null -> missing)"},
	{"engine.max_input_length", PL_FATE_EXTRA,
	 "the engine's build limit on input tokens; below the dataset's input length: a warning "
	 "(the realized workload wins)"},
	{"engine.max_sequence_length", PL_FATE_CONDITION, "max_model_len (tokens)"},
	{"machine.name", PL_FATE_DERIVED, "hardware \"<world_size>x <name>\""},
	{"machine.memory.total", PL_FATE_IGNORED,
	 "accelerator memory (GiB) as the driver reports it; the name identifies the accelerator"},
	{"machine.clocks.mem", PL_FATE_IGNORED, "memory clock read at report time, not a setting"},
	{"world_info.tp_size", PL_FATE_CONDITION, "tensor_parallel_size"},
	{"world_info.pp_size", PL_FATE_CONDITION, "pipeline_parallel_size"},
	{"world_info.ep_size", PL_FATE_CONDITION, "expert_parallel_size"},
	{"world_info.world_size", PL_FATE_DERIVED, "the accelerator count in hardware"},
	{"world_info.max_batch_size", PL_FATE_CONDITION, "max_num_seqs"},
	{"world_info.max_num_tokens", PL_FATE_CONDITION, "max_num_batched_tokens"},
	{"world_info.scheduling_policy", PL_FATE_EXTRA, "the executor's scheduling policy"},
	{"world_info.kv_cache_percentage", PL_FATE_EXTRA,
	 "fraction of free accelerator memory given to the KV cache"},
	{"world_info.issue_rate", PL_FATE_IGNORED,
	 "the rate the client enqueued requests at, measured (1.5e17 req/s: all at once), not a "
	 "setting; no canonical metric"},
	{"request_info.num_requests", PL_FATE_CONDITION, "num_prompts"},
	{"request_info.avg_num_concurrent_requests", PL_FATE_METRIC, "concurrency_mean"},
	{"request_info.avg_input_length", PL_FATE_METRIC, "input_tokens_mean (count)"},
	{"request_info.avg_output_length", PL_FATE_METRIC, "output_tokens_mean (count)"},
	{"performance.total_latency_ms", PL_FATE_METRIC, "duration (s, / 1000)"},
	{"performance.avg_request_latency_ms", PL_FATE_METRIC, "e2el_mean (s, / 1000)"},
	{"performance.request_latency_percentiles_ms", PL_FATE_METRIC, "e2el: " STATS_NOTE " (s, / 1000)"},
	{"performance.request_throughput_req_s", PL_FATE_METRIC, "request_throughput (req/s)"},
	{"performance.system_output_throughput_tok_s", PL_FATE_METRIC, "output_throughput (tok/s)"},
	{"performance.system_total_throughput_tok_s", PL_FATE_METRIC,
	 "total_token_throughput (tok/s; counts input tokens: never output throughput)"},
	{"performance.output_throughput_per_gpu_tok_s", PL_FATE_METRIC,
	 "output_throughput_per_accelerator (tok/s)"},
	{"performance.output_throughput_per_user_tok_s", PL_FATE_IGNORED,
	 "per-request output tokens / request latency (TTFT included), averaged: no canonical metric"},
	{"streaming_metrics.token_output_speed_tok_s", PL_FATE_DERIVED,
	 "the same value as gen_tps_percentiles.average (tokens_per_second_mean)"},
	{"streaming_metrics.avg_ttft_ms", PL_FATE_METRIC, "ttft_mean (s, / 1000)"},
	{"streaming_metrics.avg_tpot_ms", PL_FATE_METRIC, "tpot_mean (s, / 1000)"},
	{"streaming_metrics.ttft_percentiles", PL_FATE_METRIC, "ttft: " STATS_NOTE " (s, / 1000)"},
	{"streaming_metrics.tpot_percentiles", PL_FATE_METRIC, "tpot: " STATS_NOTE " (s, / 1000)"},
	{"streaming_metrics.gen_tps_percentiles", PL_FATE_METRIC,
	 "tokens_per_second (per-request decode speed): " STATS_NOTE
	 " (tok/s); the mean is dragged by requests with a near-zero TPOT, compare the median"},
	{"dataset.isl_stats", PL_FATE_DERIVED,
	 "input_tokens when minimum = maximum (else missing, with a warning)"},
	{"dataset.osl_stats", PL_FATE_DERIVED,
	 "max_output_tokens when minimum = maximum (else missing, with a warning)"},
	{"dataset.seq_len_stats", PL_FATE_IGNORED, "input + output length, known from isl and osl"},
	{"dataset.num_requests", PL_FATE_IGNORED, "the same count as request_info.num_requests"},
	{"dataset.dataset_path", PL_FATE_EXTRA,
	 "the request file the run replayed (a path: kept as given, its name supplies nothing)"},
	{"dataset.{max_isl,max_osl,avg_isl,avg_osl}", PL_FATE_IGNORED,
	 "the same values as isl_stats / osl_stats"},
	{"dataset.{max_sequence_length,avg_sequence_length}", PL_FATE_IGNORED,
	 "the same values as seq_len_stats"},
	{"decoding_stats.mode", PL_FATE_CONDITION,
	 "speculative_method (lower-cased; decoding_stats without a mode -> unknown)"},
	{NULL, 0, NULL},
};

/* Where unknown keys sit: the engine, world and dataset blocks are the
 * configuration; performance, streaming_metrics and decoding_stats
 * (speculative decoding's acceptance percentiles) the results. */
static const struct pl_section trtllm_sections[] = {
	{"{engine,machine,world_info,dataset}", PL_PLACE_CONFIG},
	{"{performance,streaming_metrics,decoding_stats}", PL_PLACE_RESULT},
	{NULL, 0},
};

static const struct pl_format_version trtllm_inventory[] = {
	{.version = "",
	 .note = "trtllm-bench latency --report_json of TensorRT-LLM 1.2.0 (the throughput report "
	         "has the same layout); the files carry no format version",
	 .fields = trtllm_fields, .sections = trtllm_sections},
	{.version = NULL},
};

static const struct pl_adapter_info trtllm_info = {
	.name = NAME,
	.versions = "trtllm-bench --report_json (TensorRT-LLM 1.2.0)",
	.description = "TensorRT-LLM trtllm-bench latency / throughput report (--report_json)",
	.mapping = trtllm_mapping,
	.inventory = trtllm_inventory,
};

static int trtllm_detect(struct pl_adapter_input *in)
{
	const cJSON *obj = pl_adapter_input_first(in);

	return obj && cJSON_IsObject(pl_json_get(obj, "engine")) &&
	       cJSON_IsObject(pl_json_get(obj, "world_info")) &&
	       cJSON_IsObject(pl_json_get(obj, "performance")) &&
	       cJSON_IsObject(pl_json_get(obj, "request_info"));
}

/* The block obj.key when it is an object; absent or null -> *out NULL;
 * else PL_EINVALID. */
static int block(const cJSON *obj, const char *key, const cJSON **out, struct pl_error *err)
{
	const cJSON *b = pl_json_get(obj, key);

	*out = NULL;
	if (!b || cJSON_IsNull(b))
		return 0;
	if (!cJSON_IsObject(b)) {
		pl_error_field(err, key);
		return pl_error_set(err, PL_EINVALID, "'%s' must be an object, got %s", key,
		                    pl_json_type_name(b));
	}
	*out = b;
	return 0;
}

/* A statistics block {p50, ..., average} -> family_<stat>, scaled by
 * 10^exp10. */
static int stats(const cJSON *obj, const char *key, const char *family, int exp10,
                 struct pl_run *run, struct pl_error *err)
{
	static const struct {
		const char *key, *stat;
	} map[] = {
		{"p50", "p50"}, {"p90", "p90"}, {"p95", "p95"}, {"p99", "p99"},
		{"minimum", "min"}, {"maximum", "max"}, {"average", "mean"},
	};
	const cJSON *b;
	int rc = block(obj, key, &b, err);

	for (size_t i = 0; rc == 0 && b && i < sizeof(map) / sizeof(map[0]); i++) {
		char name[48];
		snprintf(name, sizeof(name), "%s_%s", family, map[i].stat);
		rc = pl_json_metric(b, map[i].key, pl_metric_lookup(name), exp10, run, err);
	}
	return rc;
}

/* One length of the dataset block (isl_stats / osl_stats): the condition
 * id when every request has the same length, else a warning. */
static int length(const cJSON *dataset, const char *key, int id, struct pl_run *run,
                  struct pl_error *err)
{
	const cJSON *b;
	double lo, hi;
	int rc = block(dataset, key, &b, err);

	if (rc || !b)
		return rc;
	if ((rc = pl_json_get_count(b, "minimum", &lo, err)) < 0 ||
	    (rc == 0 && (rc = pl_json_get_count(b, "maximum", &hi, err)) < 0))
		return rc;
	if (rc)
		return 0;
	if (lo == hi)
		return pl_run_set_cond_num(run, id, lo, err);
	pl_run_warn(run, NAME ": dataset.%s varies from %.0f to %.0f tokens per request: %s is not "
	                      "stored (supply it with a sidecar or --set)",
	            key, lo, hi, pl_cond_info[id].name);
	return 0;
}

static int convert_engine(const cJSON *engine, struct pl_run *run, struct pl_error *err)
{
	const char *path;
	int rc;

	if ((rc = pl_json_cond(engine, "model", PL_C_MODEL, run, err)) ||
	    (rc = pl_json_cond(engine, "version", PL_C_ENGINE_VERSION, run, err)) ||
	    (rc = pl_json_cond(engine, "dtype", PL_C_PRECISION, run, err)) ||
	    (rc = pl_json_cond(engine, "kv_cache_dtype", PL_C_KV_CACHE_DTYPE, run, err)) ||
	    (rc = pl_json_cond(engine, "quantization", PL_C_QUANTIZATION, run, err)) ||
	    (rc = pl_json_cond(engine, "max_sequence_length", PL_C_MAX_MODEL_LEN, run, err)))
		return rc;
	rc = pl_json_get_string(engine, "model_path", &path, err);
	if (rc < 0)
		return rc;
	if (rc == 0 && *path && strcmp(path, "None") != 0)
		return pl_run_set_cond(run, PL_C_MODEL_SOURCE, path, err);
	return 0;
}

/* hardware "Nx NAME" from world_info.world_size and machine.name. */
static int convert_hardware(const cJSON *machine, const cJSON *world, struct pl_run *run,
                            struct pl_error *err)
{
	const char *name;
	double n;
	char hw[256];
	int rc;

	if (!machine)
		return 0;
	rc = pl_json_get_string(machine, "name", &name, err);
	if (rc || !*name)
		return rc < 0 ? rc : 0;
	rc = world ? pl_json_get_count(world, "world_size", &n, err) : 1;
	if (rc < 0)
		return rc;
	if (rc == 0 && n >= 1) {
		snprintf(hw, sizeof(hw), "%.0fx %.200s", n, name);
		return pl_run_set_cond(run, PL_C_HARDWARE, hw, err);
	}
	return pl_run_set_cond(run, PL_C_HARDWARE, name, err);
}

/* engine.max_input_length below the requests' input length: a warning. */
static int check_input_limit(const cJSON *engine, const cJSON *dataset, struct pl_run *run,
                             struct pl_error *err)
{
	const cJSON *isl = pl_json_get(dataset, "isl_stats");
	double limit, max;
	int rc;

	if (!engine || !cJSON_IsObject(isl))
		return 0;
	if ((rc = pl_json_get_count(engine, "max_input_length", &limit, err)) != 0 ||
	    (rc = pl_json_get_count(isl, "maximum", &max, err)) != 0)
		return rc < 0 ? rc : 0;
	if (max > limit)
		pl_run_warn(run,
		            NAME ": engine.max_input_length %.0f contradicts the requests' %.0f input "
		                 "tokens (dataset.isl_stats.maximum): the realized workload is stored",
		            limit, max);
	return 0;
}

/* The decode-speed mean dragged by outliers: a warning. */
static void check_decode_mean(struct pl_run *run)
{
	double mean = run->metric[PL_M_TPS_MEAN], p50 = run->metric[PL_M_TPS_P50];

	if (run->has_metric[PL_M_TPS_MEAN] && run->has_metric[PL_M_TPS_P50] && p50 > 0 &&
	    mean > 2 * p50) {
		char a[32], b[32], c[32];
		pl_run_warn(run,
		            NAME ": per-request decode speed: the mean %s tok/s is dragged by outliers "
		                 "(max %s, median %s): compare tokens_per_second_p50",
		            pl_fmt_num(a, sizeof(a), mean),
		            pl_fmt_num(b, sizeof(b), run->metric[PL_M_TPS_MAX]),
		            pl_fmt_num(c, sizeof(c), p50));
	}
}

/* speculative_method from decoding_stats, which trtllm-bench writes only
 * for a speculative run (TensorRT-LLM's bench reporting: its "mode", the
 * decoding type, e.g. "MTP", "Eagle"): the mode lower-cased, "unknown"
 * when it is absent; no block (or null): nothing. A method named by a
 * sidecar or --set wins. Its acceptance percentiles stay unplaced
 * measurements: their rate is a per-request mean of ratios, not vLLM's
 * accepted / drafted tokens over the run, so they are no spec_acceptance_*
 * metric. */
static int convert_decoding(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const cJSON *ds, *mode;
	int rc;

	if ((rc = block(obj, "decoding_stats", &ds, err)) || !ds ||
	    run->cond[PL_C_SPECULATIVE_METHOD].set)
		return rc;
	mode = pl_json_get(ds, "mode");
	if (cJSON_IsString(mode) && mode->valuestring[0])
		return pl_run_set_cond(run, PL_C_SPECULATIVE_METHOD, mode->valuestring, err);
	if (mode && !cJSON_IsNull(mode)) {
		pl_error_field(err, "decoding_stats.mode");
		return pl_error_set(err, PL_EINVALID, "'decoding_stats.mode' must be a string");
	}
	return pl_run_set_cond(run, PL_C_SPECULATIVE_METHOD, PL_SPEC_UNKNOWN, err);
}

static int trtllm_convert(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const cJSON *engine, *machine, *world, *req, *perf, *stream, *dataset;
	int rc;

	if ((rc = block(obj, "engine", &engine, err)) || (rc = block(obj, "machine", &machine, err)) ||
	    (rc = block(obj, "world_info", &world, err)) ||
	    (rc = block(obj, "request_info", &req, err)) ||
	    (rc = block(obj, "performance", &perf, err)) ||
	    (rc = block(obj, "streaming_metrics", &stream, err)) ||
	    (rc = block(obj, "dataset", &dataset, err)))
		return rc;
	if ((rc = pl_run_set_cond(run, PL_C_ENGINE, "trt-llm", err)) ||
	    (rc = pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, "trtllm-bench", err)))
		return rc;
	if (engine && (rc = convert_engine(engine, run, err)))
		return rc;
	if ((rc = convert_hardware(machine, world, run, err)))
		return rc;
	if (world &&
	    ((rc = pl_json_cond(world, "tp_size", PL_C_TENSOR_PARALLEL_SIZE, run, err)) ||
	     (rc = pl_json_cond(world, "pp_size", PL_C_PIPELINE_PARALLEL_SIZE, run, err)) ||
	     (rc = pl_json_cond(world, "ep_size", PL_C_EXPERT_PARALLEL_SIZE, run, err)) ||
	     (rc = pl_json_cond(world, "max_batch_size", PL_C_MAX_NUM_SEQS, run, err)) ||
	     (rc = pl_json_cond(world, "max_num_tokens", PL_C_MAX_NUM_BATCHED_TOKENS, run, err))))
		return rc;
	if (req &&
	    ((rc = pl_json_cond(req, "num_requests", PL_C_NUM_PROMPTS, run, err)) ||
	     (rc = pl_json_metric(req, "avg_num_concurrent_requests", PL_M_CONCURRENCY_MEAN, 0, run, err)) ||
	     (rc = pl_json_metric(req, "avg_input_length", PL_M_INPUT_TOKENS_MEAN, 0, run, err)) ||
	     (rc = pl_json_metric(req, "avg_output_length", PL_M_OUTPUT_TOKENS_MEAN, 0, run, err))))
		return rc;
	if (dataset && ((rc = length(dataset, "isl_stats", PL_C_INPUT_TOKENS, run, err)) ||
	                (rc = length(dataset, "osl_stats", PL_C_MAX_OUTPUT_TOKENS, run, err)) ||
	                (rc = check_input_limit(engine, dataset, run, err))))
		return rc;
	if (perf &&
	    ((rc = pl_json_metric(perf, "total_latency_ms", PL_M_DURATION, -3, run, err)) ||
	     (rc = pl_json_metric(perf, "avg_request_latency_ms", PL_M_E2EL_MEAN, -3, run, err)) ||
	     (rc = stats(perf, "request_latency_percentiles_ms", "e2el", -3, run, err)) ||
	     (rc = pl_json_metric(perf, "request_throughput_req_s", PL_M_REQUEST_THROUGHPUT, 0, run, err)) ||
	     (rc = pl_json_metric(perf, "system_output_throughput_tok_s", PL_M_OUTPUT_THROUGHPUT, 0, run, err)) ||
	     (rc = pl_json_metric(perf, "system_total_throughput_tok_s", PL_M_TOTAL_TOKEN_THROUGHPUT, 0, run, err)) ||
	     (rc = pl_json_metric(perf, "output_throughput_per_gpu_tok_s",
	                          PL_M_OUTPUT_THROUGHPUT_PER_ACCELERATOR, 0, run, err))))
		return rc;
	if (stream &&
	    ((rc = pl_json_metric(stream, "avg_ttft_ms", PL_M_TTFT_MEAN, -3, run, err)) ||
	     (rc = pl_json_metric(stream, "avg_tpot_ms", PL_M_TPOT_MEAN, -3, run, err)) ||
	     (rc = stats(stream, "ttft_percentiles", "ttft", -3, run, err)) ||
	     (rc = stats(stream, "tpot_percentiles", "tpot", -3, run, err)) ||
	     (rc = pl_json_metric(stream, "token_output_speed_tok_s", PL_M_TPS_MEAN, 0, run, err)) ||
	     (rc = stats(stream, "gen_tps_percentiles", "tokens_per_second", 0, run, err))))
		return rc;
	if ((rc = convert_decoding(obj, run, err)))
		return rc;
	check_decode_mean(run);
	return 0;
}

static int trtllm_parse(struct pl_adapter_input *in, struct pl_run_list *out, struct pl_error *err)
{
	return pl_adapter_records(&pl_adapter_trtllm_bench, in, trtllm_convert, out, err);
}

const struct pl_adapter_impl pl_adapter_trtllm_bench = {
	.info = &trtllm_info,
	.detect = trtllm_detect,
	.parse = trtllm_parse,
};
