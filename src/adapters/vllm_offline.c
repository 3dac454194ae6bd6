/*
 * vllm_offline.c — vLLM's offline benchmarks: benchmark_throughput.py /
 * `vllm bench throughput` and benchmark_latency.py / `vllm bench latency`,
 * their --output-json files.
 *
 * Two layouts, told apart by their keys and stored as format_version
 * "throughput" or "latency". Neither records the model, the engine (the
 * throughput script's --backend may be vllm, hf or mii), the batch size or
 * the input and output lengths: they come from a sidecar or --set, never
 * from the file's name or folder.
 *
 * Throughput: tokens_per_second is total_num_tokens / elapsed_time, and
 * total_num_tokens counts prompt plus output tokens: it is stored as
 * total_token_throughput only (never output throughput).
 * Latency: seconds already; percentiles is keyed by strings ("10", "25",
 * "50", "75", "90", "99"): "50", "90", "99" go to e2el_p50/p90/p99, the
 * others have no canonical slot. Each latency is one iteration (one batch
 * of requests generated to the output length); e2el_min/max and
 * repetitions are derived from the latencies list.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"

#define NAME "vllm-offline"

static const char *const offline_mapping[] = {
	"throughput: (constant) -> benchmark_tool = vllm-bench-throughput",
	"throughput: elapsed_time -> duration (s); num_requests -> num_prompts",
	"throughput: requests_per_second -> request_throughput (req/s)",
	"throughput: tokens_per_second -> total_token_throughput (prompt + output tok/s; never output throughput)",
	"latency: (constant) -> benchmark_tool = vllm-bench-latency",
	"latency: avg_latency -> e2el_mean (s)",
	"latency: percentiles \"50\", \"90\", \"99\" -> e2el_p50, e2el_p90, e2el_p99 (s); \"10\", \"25\", \"75\" ignored",
	"latency: latencies (one per iteration, s) -> e2el_min, e2el_max; their count -> repetitions",
	"model, engine, batch size, input and output lengths: not recorded (sidecar or --set)",
	NULL,
};

static const struct pl_field throughput_fields[] = {
	{"elapsed_time", PL_FATE_METRIC, "duration (s)"},
	{"num_requests", PL_FATE_CONDITION, "num_prompts"},
	{"total_num_tokens", PL_FATE_IGNORED,
	 "prompt plus output tokens together: no canonical count (its rate is tokens_per_second)"},
	{"requests_per_second", PL_FATE_METRIC, "request_throughput (req/s)"},
	{"tokens_per_second", PL_FATE_METRIC,
	 "total_token_throughput (tok/s; counts prompt tokens: never output throughput)"},
	{NULL, 0, NULL},
};

static const struct pl_field latency_fields[] = {
	{"avg_latency", PL_FATE_METRIC, "e2el_mean (s)"},
	{"latencies", PL_FATE_DERIVED,
	 "per-iteration latencies (s): their minimum and maximum -> e2el_min, e2el_max; their "
	 "count -> repetitions"},
	{"percentiles.{50,90,99}", PL_FATE_METRIC, "e2el_p50, e2el_p90, e2el_p99 (s)"},
	{"percentiles.*", PL_FATE_IGNORED, "a percentile without a canonical slot (10, 25, 75)"},
	{NULL, 0, NULL},
};

static const struct pl_format_version offline_inventory[] = {
	{.version = "throughput",
	 .note = "benchmark_throughput.py / vllm bench throughput --output-json (2025); no vLLM "
	         "version recorded",
	 .fields = throughput_fields},
	{.version = "latency",
	 .note = "benchmark_latency.py / vllm bench latency --output-json (2025); no vLLM version "
	         "recorded",
	 .fields = latency_fields},
	{.version = NULL},
};

static const struct pl_adapter_info offline_info = {
	.name = NAME,
	.versions = "throughput and latency --output-json of benchmark_throughput.py / "
	            "benchmark_latency.py and vllm bench throughput / latency (2025)",
	.description = "vLLM offline benchmark JSON (vllm bench throughput / latency --output-json)",
	.mapping = offline_mapping,
	.inventory = offline_inventory,
};

static int is_throughput(const cJSON *obj)
{
	return cJSON_IsNumber(pl_json_get(obj, "elapsed_time")) &&
	       cJSON_IsNumber(pl_json_get(obj, "requests_per_second")) &&
	       cJSON_IsNumber(pl_json_get(obj, "tokens_per_second"));
}

static int is_latency(const cJSON *obj)
{
	return cJSON_IsNumber(pl_json_get(obj, "avg_latency")) &&
	       cJSON_IsObject(pl_json_get(obj, "percentiles"));
}

static int offline_detect(struct pl_adapter_input *in)
{
	const cJSON *obj = pl_adapter_input_first(in);

	return obj && (is_throughput(obj) || is_latency(obj));
}

static int convert_throughput(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	int rc;

	if ((rc = pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, "vllm-bench-throughput", err)) ||
	    (rc = pl_json_cond(obj, "num_requests", PL_C_NUM_PROMPTS, run, err)) ||
	    (rc = pl_json_metric(obj, "elapsed_time", PL_M_DURATION, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "requests_per_second", PL_M_REQUEST_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "tokens_per_second", PL_M_TOTAL_TOKEN_THROUGHPUT, 0, run, err)))
		return rc;
	return 0;
}

/* latencies: e2el_min, e2el_max and repetitions. */
static int convert_latencies(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const cJSON *list = pl_json_get(obj, "latencies"), *it;
	double lo = INFINITY, hi = -INFINITY;
	int n = 0;

	if (!list || cJSON_IsNull(list))
		return 0;
	if (!cJSON_IsArray(list)) {
		pl_error_field(err, "latencies");
		return pl_error_set(err, PL_EINVALID, "'latencies' must be an array, got %s",
		                    pl_json_type_name(list));
	}
	cJSON_ArrayForEach(it, list)
	{
		if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble) || it->valuedouble < 0) {
			pl_error_field(err, "latencies");
			return pl_error_set(err, PL_EINVALID,
			                    "'latencies' must hold non-negative numbers (s), got %s at %d",
			                    pl_json_type_name(it), n);
		}
		lo = fmin(lo, it->valuedouble);
		hi = fmax(hi, it->valuedouble);
		n++;
	}
	if (n == 0)
		return 0;
	pl_run_set_metric(run, PL_M_E2EL_MIN, lo);
	pl_run_set_metric(run, PL_M_E2EL_MAX, hi);
	return pl_run_set_cond_num(run, PL_C_REPETITIONS, n, err);
}

static int convert_latency(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	static const struct {
		const char *key;
		int id;
	} pct[] = {{"50", PL_M_E2EL_P50}, {"90", PL_M_E2EL_P90}, {"99", PL_M_E2EL_P99}};
	const cJSON *p = pl_json_get(obj, "percentiles");
	int rc;

	if ((rc = pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, "vllm-bench-latency", err)) ||
	    (rc = pl_json_metric(obj, "avg_latency", PL_M_E2EL_MEAN, 0, run, err)))
		return rc;
	for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		if ((rc = pl_json_metric(p, pct[i].key, pct[i].id, 0, run, err)))
			return rc;
	return convert_latencies(obj, run, err);
}

static int offline_convert(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	int thr = is_throughput(obj), lat = is_latency(obj);

	if (thr && lat)
		return pl_error_set(err, PL_EINVALID,
		                    "a vLLM offline result holds either the throughput keys "
		                    "(elapsed_time, requests_per_second, tokens_per_second) or the "
		                    "latency keys (avg_latency, percentiles), not both");
	if (!thr && !lat)
		return pl_error_set(err, PL_EINVALID,
		                    "not a vLLM offline result: neither the throughput keys "
		                    "(elapsed_time, requests_per_second, tokens_per_second) nor the "
		                    "latency keys (avg_latency, percentiles)");
	if (pl_strset(&run->format_version, thr ? "throughput" : "latency"))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	return thr ? convert_throughput(obj, run, err) : convert_latency(obj, run, err);
}

static int offline_parse(struct pl_adapter_input *in, struct pl_run_list *out,
                         struct pl_error *err)
{
	return pl_adapter_records(&pl_adapter_vllm_offline, in, offline_convert, out, err);
}

const struct pl_adapter_impl pl_adapter_vllm_offline = {
	.info = &offline_info,
	.detect = offline_detect,
	.parse = offline_parse,
};
