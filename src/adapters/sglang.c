/*
 * sglang.c — SGLang `python -m sglang.bench_serving --output-file` results.
 *
 * The tool appends one JSON object per run to a JSONL file (the registry
 * hands us one line at a time, record = line index). Python's json module
 * writes an unbounded request rate as the bare token Infinity, which
 * json_util reads as "inf". Latencies are <stat>_<family>_ms with
 * e2e_latency where vLLM says e2el. The file has no model, engine or
 * hardware field: "backend" is the client API (api_backend), and the rest
 * comes from --set or a sidecar. "concurrency", where newer versions write
 * it, is the measured mean of requests in flight (a metric), not the
 * configured max_concurrency (the condition).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"
#include "adapters/requests_impl.h"

static const char *const sglang_mapping[] = {
	"backend -> api_backend (the client API, not the engine)",
	"dataset_name -> dataset",
	"request_rate (number or Infinity) -> request_rate (req/s)",
	"max_concurrency -> concurrency; null or 0 with request_rate Infinity -> concurrency inf (unbounded)",
	"random_input_len, random_output_len (dataset random) -> input_tokens, max_output_tokens",
	"sharegpt_output_len (dataset sharegpt, when not null) -> max_output_tokens",
	"(constant) -> benchmark_tool = sglang-bench-serving",
	"mean/median/std/p90/p95/p99/min/max_<f>_ms -> <f>_mean/p50/std/p90/p95/p99/min/max (s, / 1000) for f in ttft, tpot, itl",
	"<stat>_e2e_latency_ms -> e2el_<stat> (s, / 1000)",
	"completed -> requests_completed (0 -> a failed run); no failure count in the file",
	"total_input_tokens, total_output_tokens -> same (count); *_retokenized ignored",
	"total_input_tokens / completed -> input_tokens_mean; total_output_tokens / completed -> output_tokens_mean",
	"output_throughput -> output_throughput (tok/s); total_throughput -> total_token_throughput (tok/s)",
	"request_throughput -> request_throughput (req/s); input_throughput ignored (prompt tokens only)",
	"concurrency (measured) -> concurrency_mean",
	"duration -> duration (s)",
	"accept_length (a number) -> spec_acceptance_length, and speculative_method = unknown unless engine_args, a sidecar or --set name it; null -> nothing",
	NULL,
};

static const struct pl_field sglang_fields[] = {
	{"backend", PL_FATE_CONDITION, "api_backend (the client API, not the engine)"},
	{"dataset_name", PL_FATE_CONDITION, "dataset"},
	{"request_rate", PL_FATE_CONDITION, "request_rate (req/s; Infinity = all at once)"},
	{"max_concurrency", PL_FATE_CONDITION, "concurrency (null or 0 with request_rate inf -> inf)"},
	{"random_input_len", PL_FATE_CONDITION, "input_tokens (dataset random)"},
	{"random_output_len", PL_FATE_CONDITION, "max_output_tokens (dataset random)"},
	{"sharegpt_output_len", PL_FATE_CONDITION, "max_output_tokens (dataset sharegpt, when not null)"},
	{"random_range_ratio", PL_FATE_DERIVED, "a warning when < 1 (the lengths are maxima)"},
	{"{mean,median,std,p90,p95,p99,min,max}_{ttft,tpot,itl,e2e_latency}_ms", PL_FATE_METRIC,
	 "<f>_<stat> (s, ms / 1000; e2e_latency = e2el, median = p50)"},
	{"p*_{ttft,tpot,itl,e2e_latency}_ms", PL_FATE_IGNORED, "a percentile without a canonical slot"},
	{"completed", PL_FATE_METRIC, "requests_completed (count; 0 -> a failed run)"},
	{"total_input_tokens", PL_FATE_METRIC, "total_input_tokens (count); / completed -> input_tokens_mean"},
	{"total_output_tokens", PL_FATE_METRIC, "total_output_tokens (count); / completed -> output_tokens_mean"},
	{"total_{input,output}_tokens_retokenized", PL_FATE_IGNORED, "the same totals re-counted by the client tokenizer"},
	{"output_throughput", PL_FATE_METRIC, "output_throughput (tok/s)"},
	{"total_throughput", PL_FATE_METRIC, "total_token_throughput (tok/s)"},
	{"request_throughput", PL_FATE_METRIC, "request_throughput (req/s)"},
	{"input_throughput", PL_FATE_IGNORED, "prompt tokens per second only; not a canonical metric"},
	{"concurrency", PL_FATE_METRIC, "concurrency_mean (measured requests in flight)"},
	{"duration", PL_FATE_METRIC, "duration (s)"},
	{"accept_length", PL_FATE_METRIC,
	 "spec_acceptance_length (the server's mean accepted length); a number -> speculative_method "
	 "= unknown unless the launch flags name it; null -> no speculative decoding shown"},
	{"{input_lens,output_lens,ttfts,itls,errors}", PL_FATE_DERIVED,
	 "the run's requests (--save-detailed): kept per request, in the run_requests table "
	 "(docs/requests.md)"},
	{"generated_texts", PL_FATE_IGNORED, "the generated text of each request: not a measure"},
	{NULL, 0, NULL},
};

static const struct pl_format_version sglang_inventory[] = {
	{.version = "", .note = "sglang.bench_serving --output-file lines; the files carry no version",
	 .fields = sglang_fields},
	{.version = NULL},
};

static const struct pl_adapter_info sglang_info = {
	.name = "sglang-bench-serving",
	.versions = "sglang.bench_serving --output-file JSONL (2024-12 and later)",
	.description = "SGLang bench_serving result lines (JSONL, one run per line)",
	.mapping = sglang_mapping,
	.inventory = sglang_inventory,
};

static int has_key_suffix(const cJSON *obj, const char *suffix)
{
	const cJSON *it;
	size_t sl = strlen(suffix);

	cJSON_ArrayForEach(it, obj)
	{
		size_t n = it->string ? strlen(it->string) : 0;
		if (n > sl && strcmp(it->string + n - sl, suffix) == 0)
			return 1;
	}
	return 0;
}

static int sglang_detect(struct pl_adapter_input *in)
{
	const cJSON *obj = pl_adapter_input_first(in);

	return obj && pl_json_get(obj, "backend") && has_key_suffix(obj, "_e2e_latency_ms") &&
	       !pl_json_get(obj, "date");
}

static int latencies(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	static const char *const fam_in[] = {"ttft", "tpot", "itl", "e2e_latency", NULL};
	static const char *const fam_out[] = {"ttft", "tpot", "itl", "e2el"};
	static const char *const st_in[] = {"mean", "median", "std", "p90", "p95", "p99", "min", "max", NULL};
	static const char *const st_out[] = {"mean", "p50", "std", "p90", "p95", "p99", "min", "max"};

	for (int f = 0; fam_in[f]; f++)
		for (int s = 0; st_in[s]; s++) {
			char key[64], name[64];
			int rc;
			snprintf(key, sizeof(key), "%s_%s_ms", st_in[s], fam_in[f]);
			snprintf(name, sizeof(name), "%s_%s", fam_out[f], st_out[s]);
			rc = pl_json_metric(obj, key, pl_metric_lookup(name), -3, run, err);
			if (rc)
				return rc;
		}
	return 0;
}

static int sglang_convert(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const char *dataset = NULL;
	double completed = 0, ratio = 1;
	const cJSON *mc;
	int rc;

	if ((rc = pl_json_cond(obj, "backend", PL_C_API_BACKEND, run, err)) ||
	    (rc = pl_json_cond(obj, "dataset_name", PL_C_DATASET, run, err)) ||
	    (rc = pl_json_cond(obj, "request_rate", PL_C_REQUEST_RATE, run, err)) ||
	    (rc = pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, "sglang-bench-serving", err)))
		return rc;
	mc = pl_json_get(obj, "max_concurrency");
	if (mc && cJSON_IsNumber(mc) && mc->valuedouble == 0)
		mc = NULL; /* 0 = no limit */
	if (mc && !cJSON_IsNull(mc)) {
		if ((rc = pl_json_set_cond(run, PL_C_CONCURRENCY, mc, "max_concurrency", err)))
			return rc;
	} else if (run->cond[PL_C_REQUEST_RATE].set && isinf(run->cond[PL_C_REQUEST_RATE].num)) {
		if ((rc = pl_run_set_cond_num(run, PL_C_CONCURRENCY, INFINITY, err)))
			return rc;
	}
	rc = pl_json_get_string(obj, "dataset_name", &dataset, err);
	if (rc < 0)
		return rc;
	if (dataset && strcmp(dataset, "random") == 0) {
		if ((rc = pl_json_cond(obj, "random_input_len", PL_C_INPUT_TOKENS, run, err)) ||
		    (rc = pl_json_cond(obj, "random_output_len", PL_C_MAX_OUTPUT_TOKENS, run, err)))
			return rc;
		rc = pl_json_get_number(obj, "random_range_ratio", &ratio, err);
		if (rc < 0)
			return rc;
		if (rc == 0 && ratio < 1) {
			char b[40];
			pl_run_warn(run,
			            "random_range_ratio %s: request lengths were drawn up to the requested ones; "
			            "input_tokens and max_output_tokens are maxima",
			            pl_fmt_num(b, sizeof(b), ratio));
		}
	} else if (dataset && strcmp(dataset, "sharegpt") == 0) {
		if ((rc = pl_json_cond(obj, "sharegpt_output_len", PL_C_MAX_OUTPUT_TOKENS, run, err)))
			return rc;
	}
	rc = pl_json_get_count(obj, "completed", &completed, err);
	if (rc < 0)
		return rc;
	if (rc == 0 && (rc = pl_adapter_requests(run, completed, -1, "completed", err)))
		return rc;
	if ((rc = pl_json_metric(obj, "total_input_tokens", PL_M_TOTAL_INPUT_TOKENS, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "total_output_tokens", PL_M_TOTAL_OUTPUT_TOKENS, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "output_throughput", PL_M_OUTPUT_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "total_throughput", PL_M_TOTAL_TOKEN_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "request_throughput", PL_M_REQUEST_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "concurrency", PL_M_CONCURRENCY_MEAN, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "duration", PL_M_DURATION, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "accept_length", PL_M_SPEC_ACCEPTANCE_LENGTH, 0, run, err)))
		return rc;
	/* an acceptance length shows speculative decoding; the file never
	 * names the method (the launch flags may) */
	if (run->has_metric[PL_M_SPEC_ACCEPTANCE_LENGTH] && !run->cond[PL_C_SPECULATIVE_METHOD].set &&
	    (rc = pl_run_set_cond(run, PL_C_SPECULATIVE_METHOD, PL_SPEC_UNKNOWN, err)))
		return rc;
	if ((rc = pl_requests_from_vllm(obj, run, err)))
		return rc;
	return latencies(obj, run, err);
}

static int sglang_parse(struct pl_adapter_input *in, struct pl_run_list *out, struct pl_error *err)
{
	return pl_adapter_records(&pl_adapter_sglang, in, sglang_convert, out, err);
}

const struct pl_adapter_impl pl_adapter_sglang = {
	.info = &sglang_info,
	.detect = sglang_detect,
	.parse = sglang_parse,
};
