/*
 * llama_bench.c — llama.cpp `llama-bench -o json` results.
 *
 * The file is an array of test rows (one run each, record = index). A row
 * with n_gen == 0 is prompt processing ("pp512"): its avg_ts is prefill speed
 * and is stored as prefill_tokens_per_second, never as generation speed. A
 * row with n_prompt == 0 is text generation ("tg128"): one sequence, so its
 * avg_ts is both the per-request decode speed and the output throughput.
 * A row with both ("pp512+tg128") times prompt and generation together: its
 * avg_ts counts prompt tokens and is stored only as total_token_throughput.
 * The test name llama-bench prints (with " @ d<depth>" for a prefilled
 * context) is the dataset, so rows of different tests never merge. The
 * engine is llama.cpp itself, at build b<build_number>.
 */
#include <stdio.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"

static const char *const llama_bench_mapping[] = {
	"(constant) -> engine = llama.cpp, benchmark_tool = llama-bench, concurrency = 1 (one sequence)",
	"build_number -> engine_version and benchmark_tool_version \"b<build_number>\"",
	"model_type -> model (e.g. \"gpt-oss 20B MXFP4 MoE\"); gpu_info -> hardware",
	"type_k (when equal to type_v) -> kv_cache_dtype",
	"backends, n_batch, n_ubatch, n_gpu_layers, flash_attn -> engine_args (\"backends=ROCm 7.12 n_batch=...\")",
	"test name pp<n_prompt> / tg<n_gen> / pp<n>+tg<m>, plus \" @ d<n_depth>\" -> dataset",
	"n_prompt -> input_tokens; n_gen -> max_output_tokens",
	"test_time -> run_started_at; samples_ts length -> repetitions",
	"pp row (n_gen 0): avg_ts -> prefill_tokens_per_second, stddev_ts -> prefill_tokens_per_second_std (tok/s)",
	"tg row (n_prompt 0): avg_ts -> tokens_per_second_mean and output_throughput, stddev_ts -> tokens_per_second_std",
	"pp+tg row: avg_ts -> total_token_throughput (counts prompt tokens)",
	"avg_ns, stddev_ns, samples_ns -> not stored (the same timing as *_ts)",
	NULL,
};

static const struct pl_field llama_bench_fields[] = {
	{"build_number", PL_FATE_CONDITION, "engine_version and benchmark_tool_version \"b<build_number>\""},
	{"model_type", PL_FATE_CONDITION, "model"},
	{"gpu_info", PL_FATE_CONDITION, "hardware"},
	{"{type_k,type_v}", PL_FATE_CONDITION, "kv_cache_dtype (when the two are equal)"},
	{"{backends,n_batch,n_ubatch,n_gpu_layers,flash_attn}", PL_FATE_CONDITION, "engine_args (\"backends=... n_batch=...\")"},
	{"n_prompt", PL_FATE_CONDITION, "input_tokens; with n_gen and n_depth -> dataset (test name)"},
	{"n_gen", PL_FATE_CONDITION, "max_output_tokens; with n_prompt -> dataset (test name)"},
	{"n_depth", PL_FATE_DERIVED, "dataset \" @ d<n_depth>\" (prefilled context)"},
	{"test_time", PL_FATE_CONDITION, "run_started_at"},
	{"samples_ts", PL_FATE_CONDITION, "repetitions (its length)"},
	{"avg_ts", PL_FATE_METRIC, "prefill_tokens_per_second (pp), tokens_per_second_mean and output_throughput (tg), total_token_throughput (pp+tg)"},
	{"stddev_ts", PL_FATE_METRIC, "prefill_tokens_per_second_std (pp) or tokens_per_second_std (tg)"},
	{"{avg_ns,stddev_ns,samples_ns}", PL_FATE_IGNORED, "the same timing as the *_ts values"},
	{"{cpu_info,devices,main_gpu,split_mode,tensor_split,n_threads,cpu_mask,cpu_strict,poll,n_cpu_moe,"
	 "no_host,no_kv_offload,no_op_offload,tensor_buft_overrides,use_direct_io,use_mmap,embeddings}",
	 PL_FATE_EXTRA, "llama-bench test parameters (CPU, threads, devices, offload, memory mapping) "
	 "with no canonical field"},
	{"build_commit", PL_FATE_IGNORED, "build identity is provenance; build_number gives the version"},
	{"model_filename", PL_FATE_IGNORED, "a local path; the model is model_type"},
	{"{model_n_params,model_size}", PL_FATE_IGNORED, "properties of the model file, not settings"},
	{NULL, 0, NULL},
};

static const struct pl_format_version llama_bench_inventory[] = {
	{.version = "", .note = "llama-bench -o json rows; the files carry no version (build_number is the engine's)",
	 .fields = llama_bench_fields},
	{.version = NULL},
};

static const struct pl_adapter_info llama_bench_info = {
	.name = "llama-bench",
	.versions = "llama-bench -o json (builds b3000 to b8000+)",
	.description = "llama.cpp llama-bench JSON (array of pp/tg test rows)",
	.mapping = llama_bench_mapping,
	.inventory = llama_bench_inventory,
};

static int llama_bench_detect(struct pl_adapter_input *in)
{
	const cJSON *obj = pl_adapter_input_first(in);

	return obj && pl_json_get(obj, "n_prompt") && pl_json_get(obj, "n_gen") && pl_json_get(obj, "avg_ts");
}

static int llama_bench_convert(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	double np = 0, ng = 0, nd = 0, build, avg, sd;
	const char *tk = NULL, *tv = NULL, *t = NULL;
	const cJSON *samples = pl_json_get(obj, "samples_ts");
	char buf[256];
	int rc;

	if ((rc = pl_json_get_count(obj, "n_prompt", &np, err)) < 0 ||
	    (rc = pl_json_get_count(obj, "n_gen", &ng, err)) < 0 ||
	    (rc = pl_json_get_count(obj, "n_depth", &nd, err)) < 0)
		return rc;
	if ((rc = pl_run_set_cond(run, PL_C_ENGINE, "llama.cpp", err)) ||
	    (rc = pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, "llama-bench", err)) ||
	    (rc = pl_run_set_cond_num(run, PL_C_CONCURRENCY, 1, err)) ||
	    (rc = pl_json_cond(obj, "model_type", PL_C_MODEL, run, err)) ||
	    (rc = pl_json_cond(obj, "gpu_info", PL_C_HARDWARE, run, err)) ||
	    (rc = pl_json_cond(obj, "test_time", PL_C_RUN_STARTED_AT, run, err)) ||
	    (rc = pl_run_set_cond_num(run, PL_C_INPUT_TOKENS, np, err)) ||
	    (rc = pl_run_set_cond_num(run, PL_C_MAX_OUTPUT_TOKENS, ng, err)))
		return rc;
	rc = pl_json_get_count(obj, "build_number", &build, err);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		snprintf(buf, sizeof(buf), "b%.0f", build);
		if ((rc = pl_run_set_cond(run, PL_C_ENGINE_VERSION, buf, err)) ||
		    (rc = pl_run_set_cond(run, PL_C_BENCHMARK_TOOL_VERSION, buf, err)))
			return rc;
	}
	if ((rc = pl_json_get_string(obj, "type_k", &tk, err)) < 0 ||
	    (rc = pl_json_get_string(obj, "type_v", &tv, err)) < 0)
		return rc;
	if (tk && tv && strcmp(tk, tv) == 0 && (rc = pl_run_set_cond(run, PL_C_KV_CACHE_DTYPE, tk, err)))
		return rc;
	{
		const cJSON *nb = pl_json_get(obj, "n_batch"), *nu = pl_json_get(obj, "n_ubatch");
		const cJSON *gl = pl_json_get(obj, "n_gpu_layers"), *fa = pl_json_get(obj, "flash_attn");
		rc = pl_json_get_string(obj, "backends", &t, err);
		if (rc < 0)
			return rc;
		snprintf(buf, sizeof(buf), "backends=%s n_batch=%.0f n_ubatch=%.0f n_gpu_layers=%.0f flash_attn=%s",
		         t ? t : "?", cJSON_IsNumber(nb) ? nb->valuedouble : -1,
		         cJSON_IsNumber(nu) ? nu->valuedouble : -1, cJSON_IsNumber(gl) ? gl->valuedouble : -1,
		         cJSON_IsTrue(fa) ? "true" : cJSON_IsFalse(fa) ? "false" : "?");
		if ((rc = pl_run_set_cond(run, PL_C_ENGINE_ARGS, buf, err)))
			return rc;
	}
	if (ng == 0)
		snprintf(buf, sizeof(buf), "llama-bench pp%.0f", np);
	else if (np == 0)
		snprintf(buf, sizeof(buf), "llama-bench tg%.0f", ng);
	else
		snprintf(buf, sizeof(buf), "llama-bench pp%.0f+tg%.0f", np, ng);
	if (nd > 0) {
		size_t len = strlen(buf);
		snprintf(buf + len, sizeof(buf) - len, " @ d%.0f", nd);
	}
	if ((rc = pl_run_set_cond(run, PL_C_DATASET, buf, err)))
		return rc;
	if (cJSON_IsArray(samples) &&
	    (rc = pl_run_set_cond_num(run, PL_C_REPETITIONS, cJSON_GetArraySize(samples), err)))
		return rc;
	if ((rc = pl_json_get_number(obj, "avg_ts", &avg, err)) != 0)
		return rc < 0 ? rc : pl_error_set(err, PL_EINVALID, "'avg_ts' is missing");
	rc = pl_json_get_number(obj, "stddev_ts", &sd, err);
	if (rc < 0)
		return rc;
	if (ng == 0) {
		pl_run_set_metric(run, PL_M_PREFILL_TPS, avg);
		if (rc == 0)
			pl_run_set_metric(run, PL_M_PREFILL_TPS_STD, sd);
	} else if (np == 0) {
		pl_run_set_metric(run, PL_M_TPS_MEAN, avg);
		pl_run_set_metric(run, PL_M_OUTPUT_THROUGHPUT, avg);
		if (rc == 0)
			pl_run_set_metric(run, PL_M_TPS_STD, sd);
	} else {
		pl_run_set_metric(run, PL_M_TOTAL_TOKEN_THROUGHPUT, avg);
	}
	return 0;
}

static int llama_bench_parse(struct pl_adapter_input *in, struct pl_run_list *out,
                             struct pl_error *err)
{
	return pl_adapter_records(&pl_adapter_llama_bench, in, llama_bench_convert, out, err);
}

const struct pl_adapter_impl pl_adapter_llama_bench = {
	.info = &llama_bench_info,
	.detect = llama_bench_detect,
	.parse = llama_bench_parse,
};
