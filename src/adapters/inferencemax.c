/*
 * inferencemax.c — SemiAnalysis InferenceMAX / InferenceX processed results.
 *
 * Three shapes, one run per object (agg_bmk.json is an array of them):
 *   agg (fixed sequence length): hw, conc, isl, osl, framework, precision,
 *     tp, latencies in SECONDS as <stat>_<family> (median, p90, p99, p99.9),
 *     per-GPU throughputs, and "intvty" = 1/TPOT in tok/s per user;
 *   agentic (aiperf-driven, flat): also p75/p95, request counts, token
 *     totals and totals of throughput; a failed run has no metrics and 0
 *     requests;
 *   agentic v3 (utils/agentic/aggregation/process_agentic_result.py, 2026-07):
 *     the statistics nested under request_metrics (latency, throughput,
 *     tokens, qps, cache, in seconds), server_metrics, request_accounting;
 *   together_runner baselines: a nested "metrics" object in ms and a "gpu"
 *     block with power.
 * Interactivity percentiles are 1/TPOT percentiles, so their order is
 * reversed (p99 intvty is the slowest user): only the median (order-free)
 * and the mean are stored, as tokens_per_second_p50 / _mean. Empty strings
 * (agg_bmk.json) are missing values, never "".
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"

static const char *const ix_mapping[] = {
	"hw -> hardware; model -> model; framework -> engine; precision -> precision (\"\" -> missing)",
	"image tag vX.Y.Z (e.g. vllm/vllm-openai:v0.22.0) -> engine_version; other tags -> missing",
	"isl -> input_tokens; osl -> max_output_tokens; conc -> concurrency; tp -> tensor_parallel_size",
	"ep -> expert_parallel_size; offloading -> kv_offload (none, lmcache, ...); spec_decoding -> speculative_method (none, mtp, ...)",
	"dp_attention, disagg, is_multinode, scenario_type -> extra conditions inferencemax.<key> (text; no canonical field fits)",
	"disagg true: prefill_hw (else hw) -> prefill_hardware; decode_hw (else hw) -> decode_hardware; num_prefill_gpu, num_decode_gpu -> prefill/decode_accelerator_count; prefill_tp, decode_tp -> prefill/decode_tensor_parallel_size; hardware names both pools and accelerator_count is their sum",
	"(constant) -> benchmark_tool = inferencemax",
	"mean/median/std/p90/p95/p99/p99.9_<f> -> <f>_mean/p50/std/p90/p95/p99/p99_9 (s) for f in ttft, tpot, itl, e2el; p75 ignored",
	"median_intvty -> tokens_per_second_p50; mean_intvty -> tokens_per_second_mean; other intvty stats ignored (1/TPOT: percentile order reversed)",
	"output_tput_per_gpu -> output_throughput_per_accelerator; tput_per_gpu -> total_token_throughput_per_accelerator",
	"input_tput_per_gpu, input_tput_tps -> not stored (prompt tokens only)",
	"output_tput_tps -> output_throughput; total_tput_tps -> total_token_throughput; duration_seconds -> duration",
	"num_requests_successful -> requests_completed (0 -> a failed run); num_requests_total - successful -> requests_failed",
	"mean_input_tokens -> input_tokens_mean; mean_output_tokens_actual -> output_tokens_mean",
	"total_prompt_tokens, total_generation_tokens -> total_input_tokens, total_output_tokens",
	"together: metrics.<stat>_<f>_ms -> <f>_<stat> (s, / 1000); metrics.successful_requests -> requests_completed",
	"together: metrics.output_token_throughput, total_token_throughput, request_throughput -> same",
	"together: gpu.n_gpus -> accelerator_count; gpu.mean_power_per_gpu_w -> power_watts; ts -> run_started_at",
	"agentic (v3): request_metrics.latency.<f>.{mean,p50,std,p90,p95} -> <f>_<stat> (s); throughput.{output,total}.tokens_per_second, duration_seconds, per_gpu -> the throughputs",
	"agentic (v3): tokens.{input,output_actual}.mean -> input/output_tokens_mean; server_metrics.tokens.{prompt,generation}_total -> total_input/output_tokens",
	"agentic (v3): requests_failed = request_accounting.records_error_dropped (num_requests_total counts warm-up records too)",
	"agentic (v3): kv_offloading -> kv_offload; pp -> pipeline_parallel_size; dataset.hf_dataset_name -> dataset",
	NULL,
};

static const struct pl_field ix_fields[] = {
	{"hw", PL_FATE_DERIVED,
	 "hardware; with disagg true, the pools' hardware where prefill_hw / decode_hw are absent "
	 "(hardware then names both pools)"},
	{"model", PL_FATE_CONDITION, "model"},
	{"framework", PL_FATE_CONDITION, "engine"},
	{"precision", PL_FATE_CONDITION, "precision (\"\" -> missing)"},
	{"image", PL_FATE_CONDITION, "engine_version (a vX.Y.Z tag; other tags -> missing)"},
	{"isl", PL_FATE_CONDITION, "input_tokens"},
	{"osl", PL_FATE_CONDITION, "max_output_tokens"},
	{"conc", PL_FATE_CONDITION, "concurrency"},
	{"tp", PL_FATE_CONDITION, "tensor_parallel_size"},
	{"{mean,median,std,p90,p95,p99,p99.9}_{ttft,tpot,itl,e2el}", PL_FATE_METRIC,
	 "<f>_<stat> (s; median = p50, p99.9 = p99_9)"},
	{"p75_{ttft,tpot,itl,e2el}", PL_FATE_IGNORED, "a percentile without a canonical slot"},
	{"median_intvty", PL_FATE_METRIC, "tokens_per_second_p50 (1/TPOT, tok/s per user)"},
	{"mean_intvty", PL_FATE_METRIC, "tokens_per_second_mean (tok/s per user)"},
	{"*_intvty", PL_FATE_IGNORED, "1/TPOT percentiles: their order is reversed (p99 is the slowest user)"},
	{"output_tput_per_gpu", PL_FATE_METRIC, "output_throughput_per_accelerator (tok/s)"},
	{"tput_per_gpu", PL_FATE_METRIC, "total_token_throughput_per_accelerator (tok/s)"},
	{"{input_tput_per_gpu,input_tput_tps}", PL_FATE_IGNORED, "prompt tokens only; not a canonical metric"},
	{"output_tput_tps", PL_FATE_METRIC, "output_throughput (tok/s)"},
	{"total_tput_tps", PL_FATE_METRIC, "total_token_throughput (tok/s)"},
	{"duration_seconds", PL_FATE_METRIC, "duration (s)"},
	{"num_requests_successful", PL_FATE_METRIC, "requests_completed (0 -> a failed run)"},
	{"num_requests_total", PL_FATE_DERIVED, "requests_failed = total - successful; -> error_rate"},
	{"mean_input_tokens", PL_FATE_METRIC, "input_tokens_mean"},
	{"mean_output_tokens_actual", PL_FATE_METRIC, "output_tokens_mean"},
	{"total_prompt_tokens", PL_FATE_METRIC, "total_input_tokens"},
	{"total_generation_tokens", PL_FATE_METRIC, "total_output_tokens"},
	{"metrics.{mean,median,std,p90,p95,p99,p99.9}_{ttft,tpot,itl,e2el}_ms", PL_FATE_METRIC,
	 "together_runner: <f>_<stat> (s, ms / 1000)"},
	{"metrics.successful_requests", PL_FATE_METRIC, "together_runner: requests_completed"},
	{"metrics.{output_token_throughput,total_token_throughput,request_throughput}", PL_FATE_METRIC,
	 "together_runner: the same canonical names"},
	{"gpu.n_gpus", PL_FATE_CONDITION, "together_runner: accelerator_count"},
	{"request_metrics.latency.{ttft,tpot,itl,e2el}.{mean,p50,std,p90,p95}", PL_FATE_METRIC,
	 "agentic: <f>_<stat> (s); the rest of request_metrics (p75, qps, intvty = 1/ITL statistics, "
	 "full-response ITL, token spreads, cache) is kept as unplaced measurements"},
	{"request_metrics.throughput.{output,total}.tokens_per_second", PL_FATE_METRIC,
	 "agentic: output_throughput, total_token_throughput (tok/s)"},
	{"request_metrics.throughput.input.tokens_per_second", PL_FATE_IGNORED,
	 "agentic: prompt tokens only; not a canonical metric"},
	{"request_metrics.throughput.duration_seconds", PL_FATE_METRIC, "agentic: duration (s)"},
	{"request_metrics.throughput.per_gpu.{output_tput_tps,total_tput_tps}", PL_FATE_METRIC,
	 "agentic: output_throughput_per_accelerator, total_token_throughput_per_accelerator"},
	{"request_metrics.throughput.per_gpu.input_tput_tps", PL_FATE_IGNORED,
	 "agentic: prompt tokens only; not a canonical metric"},
	{"request_metrics.tokens.{input,output_actual}.mean", PL_FATE_METRIC,
	 "agentic: input_tokens_mean, output_tokens_mean"},
	{"request_accounting.records_error_dropped", PL_FATE_DERIVED,
	 "agentic: requests_failed (num_requests_total also counts the warm-up records)"},
	{"request_accounting.{records_total,records_profiled,records_dropped_total}", PL_FATE_IGNORED,
	 "agentic: the same counts as num_requests_total, num_requests_successful and their difference"},
	{"request_accounting.{records_warmup_dropped,error_categories}", PL_FATE_IGNORED,
	 "agentic: warm-up records (not measured) and the failures by kind (their sum is requests_failed)"},
	{"server_metrics.tokens.{prompt_total,generation_total}", PL_FATE_METRIC,
	 "agentic: total_input_tokens, total_output_tokens"},
	{"server_metrics.tokens.requests_completed", PL_FATE_IGNORED,
	 "agentic: the same count as num_requests_successful"},
	{"server_metrics.{present,adapter,metric_count}", PL_FATE_IGNORED,
	 "agentic: whether and how the server's metrics were scraped; the values are under cache, kv_cache, "
	 "kv_offload and sources (unplaced measurements)"},
	{"kv_cache_pool_tokens", PL_FATE_IGNORED, "agentic: the same value as server_metrics.kv_cache.gpu_total_tokens"},
	{"warnings", PL_FATE_IGNORED, "agentic: the aggregator's notes (e.g. server metrics missing); no value"},
	{"kv_offloading", PL_FATE_CONDITION, "agentic: kv_offload (none, dram)"},
	{"kv_offload_backend.{name,version}", PL_FATE_EXTRA, "agentic: the offload backend (hicache, lmcache, ...) and its version"},
	{"pp", PL_FATE_CONDITION, "pipeline_parallel_size"},
	{"{dcp_size,pcp_size}", PL_FATE_EXTRA, "decode and prefill context parallel sizes; no canonical field yet"},
	{"{prefill,decode}_{num_workers,pp,dcp_size,pcp_size,ep,dp_attention}", PL_FATE_EXTRA,
	 "multi-node: each pool's workers and parallelism; no canonical field yet"},
	{"{recipe_fingerprint,allocated_cpu_dram_gb,kv_p2p_transfer}", PL_FATE_EXTRA,
	 "agentic: the serving recipe's identity, the CPU memory given to KV offload (GB) and the KV transfer method"},
	{"router.{name,version}", PL_FATE_EXTRA, "agentic: the request router in front of the engines"},
	{"dataset.hf_dataset_name", PL_FATE_CONDITION, "agentic: dataset"},
	{"dataset.{source_type,loader,hf_split,num_dataset_entries}", PL_FATE_EXTRA,
	 "agentic: how the trace dataset was loaded (its loader, split and size)"},
	{"gpu.mean_power_per_gpu_w", PL_FATE_METRIC, "together_runner: power_watts (W)"},
	{"ts", PL_FATE_CONDITION, "together_runner: run_started_at (UTC timestamps only)"},
	{"ep", PL_FATE_CONDITION, "expert_parallel_size"},
	{"offloading", PL_FATE_CONDITION, "kv_offload (none, lmcache, ...)"},
	{"spec_decoding", PL_FATE_CONDITION, "speculative_method (none, mtp, ...)"},
	{"{disagg,dp_attention,is_multinode,scenario_type,tuning}", PL_FATE_EXTRA,
	 "serving setup (disaggregated prefill, DP attention, multi-node, "
	 "scenario, tuning) with no canonical field yet"},
	{"{prefill_hw,decode_hw}", PL_FATE_CONDITION,
	 "prefill_hardware, decode_hardware (disagg; absent -> hw for both pools)"},
	{"{num_prefill_gpu,num_decode_gpu}", PL_FATE_CONDITION,
	 "prefill_accelerator_count, decode_accelerator_count (disagg); accelerator_count = their sum"},
	{"{prefill_tp,decode_tp}", PL_FATE_CONDITION,
	 "prefill_tensor_parallel_size, decode_tensor_parallel_size (disagg)"},
	{"host", PL_FATE_IGNORED, "the machine's name: provenance, not a condition"},
	{"{infmax_model_prefix,profile}", PL_FATE_IGNORED, "labels; the model and settings are their own keys"},
	{"{cpu_kv_cache_usage_pct,response_cache_hit_rate,server_cpu_cache_hit_rate,server_gpu_cache_hit_rate,"
	 "theoretical_cache_hit_rate}",
	 PL_FATE_IGNORED, "cache statistics; no canonical metric"},
	{"kv_offload_{bytes,time}_*", PL_FATE_IGNORED, "KV transfer volume and time; no canonical metric"},
	{"{mean,std,p75,p90,p95,p99}_qps", PL_FATE_IGNORED,
	 "the measured arrival rate; request_throughput is stored"},
	{"{std,p75,p90,p95,p99}_{input_tokens,output_tokens_actual}", PL_FATE_IGNORED,
	 "the spread of request lengths; their means are stored"},
	{"total_requests_completed", PL_FATE_IGNORED, "the same count as num_requests_successful"},
	{"gpu.{peak_power_per_gpu_w,total_avg_power_w,tokens_per_kw}", PL_FATE_IGNORED,
	 "a peak, a sum over GPUs and a ratio; power_watts is the mean per GPU"},
	{NULL, 0, NULL},
};

/* Where unknown keys sit: an agentic result's request_metrics (and a
 * together_runner's metrics) are results. */
static const struct pl_section ix_sections[] = {
	{"{request_metrics,metrics,server_metrics,request_accounting}", PL_PLACE_RESULT},
	{NULL, 0},
};

static const struct pl_format_version ix_inventory[] = {
	{.version = "", .note = "agg, agentic and together_runner result objects (2026); the files carry no version",
	 .fields = ix_fields, .sections = ix_sections},
	{.version = NULL},
};

static const struct pl_adapter_info ix_info = {
	.name = "inferencemax",
	.versions = "InferenceMAX/InferenceX agg and agentic results (2026), together_runner baselines",
	.description = "InferenceMAX / InferenceX processed result JSON (seconds, per-GPU throughputs)",
	.mapping = ix_mapping,
	.inventory = ix_inventory,
};

static int ix_detect(struct pl_adapter_input *in)
{
	const cJSON *obj = pl_adapter_input_first(in);

	return obj && pl_json_get(obj, "hw") && pl_json_get(obj, "conc") && pl_json_get(obj, "framework") &&
	       pl_json_get(obj, "precision");
}

static int latencies(const cJSON *obj, int exp10, const char *suffix, struct pl_run *run,
                     struct pl_error *err)
{
	static const char *const fam[] = {"ttft", "tpot", "itl", "e2el", NULL};
	static const char *const st_in[] = {"mean", "median", "std", "p90", "p95", "p99", "p99.9", NULL};
	static const char *const st_out[] = {"mean", "p50", "std", "p90", "p95", "p99", "p99_9"};

	for (int f = 0; fam[f]; f++)
		for (int s = 0; st_in[s]; s++) {
			char key[64], name[64];
			int rc;
			snprintf(key, sizeof(key), "%s_%s%s", st_in[s], fam[f], suffix);
			snprintf(name, sizeof(name), "%s_%s", fam[f], st_out[s]);
			if ((rc = pl_json_metric(obj, key, pl_metric_lookup(name), exp10, run, err)))
				return rc;
		}
	return 0;
}

/* The agentic aggregate (utils/agentic/aggregation, "AgentX v3"):
 * request_metrics.latency.<f>.<stat> in seconds (f ttft, tpot, itl,
 * e2el; stat mean, p50, p90, p95, std; p75 has no canonical slot and stays
 * an unplaced measurement), the throughputs and token means beside them;
 * server_metrics.tokens holds the token totals. */
static int agentic(const cJSON *obj, const cJSON *rm, struct pl_run *run, struct pl_error *err)
{
	static const char *const fam[] = {"ttft", "tpot", "itl", "e2el", NULL};
	static const char *const st_in[] = {"mean", "p50", "std", "p90", "p95", NULL};
	const cJSON *lat = pl_json_get(rm, "latency"), *tp = pl_json_get(rm, "throughput");
	const cJSON *tok = pl_json_get(rm, "tokens"), *st = pl_json_get(pl_json_get(obj, "server_metrics"), "tokens");
	const cJSON *pg = pl_json_get(tp, "per_gpu");
	int rc;

	for (int f = 0; fam[f]; f++) {
		const cJSON *o = pl_json_get(lat, fam[f]);
		for (int s = 0; o && st_in[s]; s++) {
			char name[64];
			snprintf(name, sizeof(name), "%s_%s", fam[f], st_in[s]);
			if ((rc = pl_json_metric(o, st_in[s], pl_metric_lookup(name), 0, run, err)))
				return rc;
		}
	}
	if ((rc = pl_json_metric(pl_json_get(tp, "output"), "tokens_per_second", PL_M_OUTPUT_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(pl_json_get(tp, "total"), "tokens_per_second", PL_M_TOTAL_TOKEN_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(tp, "duration_seconds", PL_M_DURATION, 0, run, err)) ||
	    (rc = pl_json_metric(pg, "output_tput_tps", PL_M_OUTPUT_THROUGHPUT_PER_ACCELERATOR, 0, run, err)) ||
	    (rc = pl_json_metric(pg, "total_tput_tps", PL_M_TOTAL_TOKEN_THROUGHPUT_PER_ACCELERATOR, 0, run, err)) ||
	    (rc = pl_json_metric(pl_json_get(tok, "input"), "mean", PL_M_INPUT_TOKENS_MEAN, 0, run, err)) ||
	    (rc = pl_json_metric(pl_json_get(tok, "output_actual"), "mean", PL_M_OUTPUT_TOKENS_MEAN, 0, run, err)) ||
	    (rc = pl_json_metric(st, "prompt_total", PL_M_TOTAL_INPUT_TOKENS, 0, run, err)) ||
	    (rc = pl_json_metric(st, "generation_total", PL_M_TOTAL_OUTPUT_TOKENS, 0, run, err)))
		return rc;
	return 0;
}

/* obj.key (a string, boolean or number) -> extra condition
 * "inferencemax.key" as text; absent, null or "" -> nothing. Other JSON
 * types are PL_EINVALID naming the key. */
static int ix_extra(const cJSON *obj, const char *key, struct pl_run *run, struct pl_error *err)
{
	const cJSON *v = pl_json_get(obj, key);
	char name[64], num[40];
	const char *text;

	if (!v || cJSON_IsNull(v))
		return 0;
	if (cJSON_IsString(v))
		text = v->valuestring;
	else if (cJSON_IsBool(v))
		text = cJSON_IsTrue(v) ? "true" : "false";
	else if (cJSON_IsNumber(v))
		text = pl_fmt_num(num, sizeof(num), v->valuedouble);
	else {
		pl_error_field(err, key);
		return pl_error_set(err, PL_EINVALID,
		                    "'%s' must be a string, a boolean or a number, got %s", key,
		                    pl_json_type_name(v));
	}
	if (!*text)
		return 0;
	snprintf(name, sizeof(name), "inferencemax.%s", key);
	return pl_run_set_extra(run, name, text, err);
}

/* "repo/name:v0.22.0" -> "0.22.0" when the tag is a version, else NULL. */
static int image_version(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const char *img = NULL, *tag;
	int rc = pl_json_get_string(obj, "image", &img, err);

	if (rc)
		return rc < 0 ? rc : 0;
	tag = strrchr(img, ':');
	if (!tag)
		return 0;
	tag++;
	if (*tag == 'v')
		tag++;
	if (!*tag || strspn(tag, "0123456789.") != strlen(tag) || !strchr(tag, '.'))
		return 0;
	return pl_run_set_cond(run, PL_C_ENGINE_VERSION, tag, err);
}

static int together(const cJSON *obj, const cJSON *m, struct pl_run *run, struct pl_error *err)
{
	const cJSON *gpu = pl_json_get(obj, "gpu");
	const char *ts = NULL;
	double ok = 0;
	int rc;

	rc = pl_json_get_count(m, "successful_requests", &ok, err);
	if (rc < 0)
		return rc;
	if ((rc = pl_adapter_requests(run, ok, -1, "successful_requests", err)) ||
	    (rc = latencies(m, -3, "_ms", run, err)) ||
	    (rc = pl_json_metric(m, "output_token_throughput", PL_M_OUTPUT_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(m, "total_token_throughput", PL_M_TOTAL_TOKEN_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(m, "request_throughput", PL_M_REQUEST_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_cond(gpu, "n_gpus", PL_C_ACCELERATOR_COUNT, run, err)) ||
	    (rc = pl_json_metric(gpu, "mean_power_per_gpu_w", PL_M_POWER_WATTS, 0, run, err)))
		return rc;
	rc = pl_json_get_string(obj, "ts", &ts, err);
	if (rc < 0)
		return rc;
	if (rc == 0 && strlen(ts) >= 19 && ts[10] == 'T' &&
	    (strcmp(ts + 19, "+00:00") == 0 || strcmp(ts + 19, "Z") == 0)) {
		char iso[24];
		snprintf(iso, sizeof(iso), "%.19sZ", ts);
		return pl_run_set_cond(run, PL_C_RUN_STARTED_AT, iso, err);
	}
	return 0;
}

/* 1 when obj.disagg says true (a boolean, or the text "true"). */
static int is_disagg(const cJSON *obj)
{
	const cJSON *d = pl_json_get(obj, "disagg");

	return cJSON_IsTrue(d) || (cJSON_IsString(d) && strcmp(d->valuestring, "true") == 0);
}

/* A disaggregated run's pools: each pool's hardware (prefill_hw /
 * decode_hw, else hw for both), accelerator count and tensor parallel
 * size. normalize then names both pools in hardware and sums the counts,
 * so hw is not the run's hardware here. */
static int pools(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const char *hw = pl_json_get(obj, "prefill_hw") ? "prefill_hw" : "hw";
	int rc;

	if ((rc = pl_json_cond(obj, hw, PL_C_PREFILL_HARDWARE, run, err)))
		return rc;
	hw = pl_json_get(obj, "decode_hw") ? "decode_hw" : "hw";
	if ((rc = pl_json_cond(obj, hw, PL_C_DECODE_HARDWARE, run, err)) ||
	    (rc = pl_json_cond(obj, "num_prefill_gpu", PL_C_PREFILL_ACCELERATOR_COUNT, run, err)) ||
	    (rc = pl_json_cond(obj, "num_decode_gpu", PL_C_DECODE_ACCELERATOR_COUNT, run, err)) ||
	    (rc = pl_json_cond(obj, "prefill_tp", PL_C_PREFILL_TENSOR_PARALLEL_SIZE, run, err)) ||
	    (rc = pl_json_cond(obj, "decode_tp", PL_C_DECODE_TENSOR_PARALLEL_SIZE, run, err)))
		return rc;
	return 0;
}

static int ix_convert(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const cJSON *m = pl_json_get(obj, "metrics"), *acc = pl_json_get(obj, "request_accounting");
	double total = 0, ok = 0, err_dropped = 0;
	int rc, has_total, has_ok;

	if ((rc = is_disagg(obj) ? pools(obj, run, err) : pl_json_cond(obj, "hw", PL_C_HARDWARE, run, err)) ||
	    (rc = pl_json_cond(obj, "model", PL_C_MODEL, run, err)) ||
	    (rc = pl_json_cond(obj, "framework", PL_C_ENGINE, run, err)) ||
	    (rc = pl_json_cond(obj, "precision", PL_C_PRECISION, run, err)) ||
	    (rc = pl_json_cond(obj, "isl", PL_C_INPUT_TOKENS, run, err)) ||
	    (rc = pl_json_cond(obj, "osl", PL_C_MAX_OUTPUT_TOKENS, run, err)) ||
	    (rc = pl_json_cond(obj, "conc", PL_C_CONCURRENCY, run, err)) ||
	    (rc = pl_json_cond(obj, "tp", PL_C_TENSOR_PARALLEL_SIZE, run, err)) ||
	    (rc = pl_json_cond(obj, "ep", PL_C_EXPERT_PARALLEL_SIZE, run, err)) ||
	    (rc = pl_json_cond(obj, "offloading", PL_C_KV_OFFLOAD, run, err)) ||
	    (rc = pl_json_cond(obj, "kv_offloading", PL_C_KV_OFFLOAD, run, err)) ||
	    (rc = pl_json_cond(obj, "pp", PL_C_PIPELINE_PARALLEL_SIZE, run, err)) ||
	    (rc = pl_json_cond(pl_json_get(obj, "dataset"), "hf_dataset_name", PL_C_DATASET, run, err)) ||
	    (rc = pl_json_cond(obj, "spec_decoding", PL_C_SPECULATIVE_METHOD, run, err)) ||
	    (rc = ix_extra(obj, "dp_attention", run, err)) ||
	    (rc = ix_extra(obj, "disagg", run, err)) ||
	    (rc = ix_extra(obj, "is_multinode", run, err)) ||
	    (rc = ix_extra(obj, "scenario_type", run, err)) ||
	    (rc = pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, "inferencemax", err)) ||
	    (rc = image_version(obj, run, err)))
		return rc;
	if (cJSON_IsObject(m))
		return together(obj, m, run, err);

	rc = pl_json_get_count(obj, "num_requests_total", &total, err);
	if (rc < 0)
		return rc;
	has_total = rc == 0;
	rc = pl_json_get_count(obj, "num_requests_successful", &ok, err);
	if (rc < 0)
		return rc;
	has_ok = rc == 0;
	/* agentic: num_requests_total counts the warm-up records too; the
	 * failed requests are the records dropped for an error */
	rc = pl_json_get_count(acc, "records_error_dropped", &err_dropped, err);
	if (rc < 0)
		return rc;
	if (rc == 0)
		total = ok + err_dropped, has_total = 1;
	if (has_ok || has_total) {
		if (!has_ok)
			ok = 0;
		if ((rc = pl_adapter_requests(run, ok, has_total && total >= ok ? total - ok : -1,
		                              "num_requests_successful", err)))
			return rc;
	}
	if ((rc = latencies(obj, 0, "", run, err)) ||
	    (rc = agentic(obj, pl_json_get(obj, "request_metrics"), run, err)) ||
	    (rc = pl_json_metric(obj, "median_intvty", PL_M_TPS_P50, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "mean_intvty", PL_M_TPS_MEAN, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "output_tput_per_gpu", PL_M_OUTPUT_THROUGHPUT_PER_ACCELERATOR, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "tput_per_gpu", PL_M_TOTAL_TOKEN_THROUGHPUT_PER_ACCELERATOR, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "output_tput_tps", PL_M_OUTPUT_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "total_tput_tps", PL_M_TOTAL_TOKEN_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "duration_seconds", PL_M_DURATION, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "mean_input_tokens", PL_M_INPUT_TOKENS_MEAN, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "mean_output_tokens_actual", PL_M_OUTPUT_TOKENS_MEAN, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "total_prompt_tokens", PL_M_TOTAL_INPUT_TOKENS, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "total_generation_tokens", PL_M_TOTAL_OUTPUT_TOKENS, 0, run, err)))
		return rc;
	return 0;
}

static int ix_parse(struct pl_adapter_input *in, struct pl_run_list *out, struct pl_error *err)
{
	return pl_adapter_records(&pl_adapter_inferencemax, in, ix_convert, out, err);
}

const struct pl_adapter_impl pl_adapter_inferencemax = {
	.info = &ix_info,
	.detect = ix_detect,
	.parse = ix_parse,
};
