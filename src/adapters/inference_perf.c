/*
 * inference_perf.c — kubernetes-sigs inference-perf request-lifecycle
 * reports (stage_N_lifecycle_metrics.json).
 *
 * One object per stage of a load sweep: load_summary (requests sent, the
 * requested and achieved arrival rates, the time spent sending, the
 * scheduler's lag), successes (latency distributions in seconds with keys
 * mean, min, p0.1 ... p99.9, median, max; prompt and output lengths;
 * throughput) and failures. The tool version is not recorded.
 *
 * The requested rate is the condition request_rate; the completions per
 * second (throughput.requests_per_sec) are the metric request_throughput.
 * A stage whose achieved rate is more than 10% below the requested one
 * gets a warning here, and compare refuses it by the workload rule
 * (request_throughput vs request_rate, src/core/compare.c).
 *
 * Two other files of the same tool are refused by name: the sweep summary
 * (summary_lifecycle_metrics.json: averaged over every stage, so no one
 * run and no peak) and the Prometheus report (stage_N_prometheus_metrics.
 * json: server-side metrics in another schema, which disagree with the
 * client's counts and are never mixed into the client's run).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"

static const char *const ip_mapping[] = {
	"load_summary.requested_rate -> request_rate (req/s, the condition)",
	"successes.throughput.requests_per_sec -> request_throughput (completed req/s)",
	"load_summary.achieved_rate: more than 10% below requested_rate -> a warning (not stored)",
	"successes.latency.{time_to_first_token,time_per_output_token,inter_token_latency,"
	"request_latency}.<stat> -> ttft / tpot / itl / e2el_<stat> (s)",
	"<stat>: mean, min, max, p90, p95, p99; median -> p50; p99.9 -> p99_9; p0.1 ... p75 ignored",
	"successes.throughput.output_tokens_per_sec -> output_throughput; total_tokens_per_sec -> "
	"total_token_throughput (tok/s); input_tokens_per_sec not stored (input tokens only)",
	"successes.prompt_len.mean -> input_tokens_mean; successes.output_len.mean -> output_tokens_mean",
	"successes.count -> requests_completed (0 -> a failed run); failures.count -> requests_failed",
	"failures.count / (successes.count + failures.count) -> error_rate",
	"(constant) -> benchmark_tool = inference-perf; model, engine, hardware and lengths from --set "
	"or a sidecar",
	"summary_lifecycle_metrics.json (whole sweep) and stage_N_prometheus_metrics.json "
	"(server side) -> rejected, naming them",
	NULL,
};

static const struct pl_field ip_fields[] = {
	{"load_summary.requested_rate", PL_FATE_CONDITION, "request_rate (req/s)"},
	{"load_summary.achieved_rate", PL_FATE_DERIVED,
	 "a warning when more than 10% below requested_rate (the arrival rate the load generator "
	 "reached; completions per second are request_throughput)"},
	{"load_summary.count", PL_FATE_IGNORED, "requests sent; successes.count and failures.count are stored"},
	{"load_summary.send_duration", PL_FATE_IGNORED,
	 "time spent sending (count / achieved_rate); the stage's rates are stored"},
	{"load_summary.schedule_delay", PL_FATE_IGNORED,
	 "the load generator's lag behind its schedule; no canonical metric (its saturation shows as "
	 "achieved_rate below requested_rate)"},
	{"successes.count", PL_FATE_METRIC, "requests_completed (count; 0 -> a failed run)"},
	{"successes.latency.{time_to_first_token,time_per_output_token,inter_token_latency,request_latency}."
	 "{mean,min,max,median,p90,p95,p99,p99.9}",
	 PL_FATE_METRIC, "ttft / tpot / itl / e2el _<stat> (s); median = p50, p99.9 = p99_9"},
	{"successes.latency.*.{p0.1,p1,p5,p10,p25,p75}", PL_FATE_IGNORED,
	 "a percentile without a canonical slot"},
	{"successes.latency.normalized_time_per_output_token", PL_FATE_IGNORED,
	 "request latency / output tokens, TTFT included: not TPOT; no canonical metric"},
	{"successes.throughput.output_tokens_per_sec", PL_FATE_METRIC, "output_throughput (tok/s)"},
	{"successes.throughput.total_tokens_per_sec", PL_FATE_METRIC, "total_token_throughput (tok/s)"},
	{"successes.throughput.input_tokens_per_sec", PL_FATE_IGNORED,
	 "input tokens per second: no canonical metric (never output throughput)"},
	{"successes.throughput.requests_per_sec", PL_FATE_METRIC, "request_throughput (completed req/s)"},
	{"successes.prompt_len.mean", PL_FATE_METRIC, "input_tokens_mean (tokens)"},
	{"successes.output_len.mean", PL_FATE_METRIC, "output_tokens_mean (tokens)"},
	{"successes.{prompt_len,output_len}.{min,max,median,p*}", PL_FATE_IGNORED,
	 "spread of the request lengths; the workload is kept as their mean"},
	{"failures.count", PL_FATE_METRIC, "requests_failed (count); / (successes + failures) -> error_rate"},
	{"failures.{request_latency,prompt_len}", PL_FATE_IGNORED,
	 "latency and lengths of failed requests; no canonical metric"},
	{NULL, 0, NULL},
};

static const struct pl_format_version ip_inventory[] = {
	{.version = "lifecycle", .note = "stage_N_lifecycle_metrics.json (one stage of a sweep; the "
	                                 "tool version is not recorded)",
	 .fields = ip_fields},
	{.version = NULL},
};

static const struct pl_adapter_info ip_info = {
	.name = "inference-perf",
	.versions = "request-lifecycle stage reports (stage_N_lifecycle_metrics.json, tool version "
	            "not recorded)",
	.description = "kubernetes-sigs inference-perf stage lifecycle report (the sweep summary and the "
	               "Prometheus report are refused)",
	.mapping = ip_mapping,
	.inventory = ip_inventory,
};

static int ip_detect(struct pl_adapter_input *in)
{
	const cJSON *obj = pl_adapter_input_first(in);

	return obj && cJSON_IsObject(pl_json_get(obj, "load_summary")) &&
	       cJSON_IsObject(pl_json_get(obj, "successes")) && pl_json_get(obj, "failures");
}

/* The distribution obj (seconds) -> metric family fam. */
static int family(const cJSON *obj, const char *key, const char *fam, struct pl_run *run,
                  struct pl_error *err)
{
	static const char *const st_in[] = {"mean", "min", "max", "median", "p90", "p95", "p99",
	                                    "p99.9", NULL};
	static const char *const st_out[] = {"mean", "min", "max", "p50", "p90", "p95", "p99", "p99_9"};
	const cJSON *d = pl_json_get(obj, key);

	if (!d || cJSON_IsNull(d))
		return 0;
	if (!cJSON_IsObject(d)) {
		pl_error_field(err, key);
		return pl_error_set(err, PL_EINVALID, "'successes.latency.%s' must be an object, got %s",
		                    key, pl_json_type_name(d));
	}
	for (int s = 0; st_in[s]; s++) {
		char name[64];
		snprintf(name, sizeof(name), "%s_%s", fam, st_out[s]);
		int rc = pl_json_metric(d, st_in[s], pl_metric_lookup(name), 0, run, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* The refusals: a sweep summary or a Prometheus report, else NULL. */
static const char *refusal(const cJSON *obj)
{
	const cJSON *load = pl_json_get(obj, "load_summary");
	const cJSON *succ = pl_json_get(obj, "successes");

	if (!pl_json_get(succ, "latency") &&
	    (pl_json_get(succ, "rate") || pl_json_get(succ, "queue_len") ||
	     pl_json_get(succ, "kv_cache_usage_percentage")))
		return "an inference-perf Prometheus report (stage_N_prometheus_metrics.json: server-side "
		       "metrics in another schema, which disagree with the client's counts) is not read "
		       "and never mixed into the client's run; import stage_N_lifecycle_metrics.json";
	if (!pl_json_get(load, "requested_rate") && !pl_json_get(load, "achieved_rate") &&
	    !pl_json_get(load, "send_duration"))
		return "an inference-perf sweep summary (summary_lifecycle_metrics.json: load_summary has "
		       "no requested_rate, achieved_rate or send_duration) averages every stage of a sweep: "
		       "it is not one run, nor a peak; import each stage_N_lifecycle_metrics.json";
	return NULL;
}

static int ip_convert(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const cJSON *load = pl_json_get(obj, "load_summary");
	const cJSON *succ = pl_json_get(obj, "successes");
	const cJSON *fail = pl_json_get(obj, "failures");
	const cJSON *lat = pl_json_get(succ, "latency");
	const cJSON *tp = pl_json_get(succ, "throughput");
	const char *why = refusal(obj);
	double completed = 0, failed = -1, want, got;
	int rc, rc2;

	if (why)
		return pl_error_set(err, PL_EFORMAT, "%s", why);
	if ((rc = pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, "inference-perf", err)) ||
	    (rc = pl_json_cond(load, "requested_rate", PL_C_REQUEST_RATE, run, err)))
		return rc;
	rc = pl_json_get_count(succ, "count", &completed, err);
	if (rc < 0)
		return rc;
	if (cJSON_IsObject(fail) && (rc2 = pl_json_get_count(fail, "count", &failed, err)) < 0)
		return rc2;
	if ((rc = pl_adapter_requests(run, completed, failed, "successes.count", err)))
		return rc;
	rc = pl_json_get_number(load, "requested_rate", &want, err);
	rc2 = rc < 0 ? rc : pl_json_get_number(load, "achieved_rate", &got, err);
	if (rc < 0 || rc2 < 0)
		return rc < 0 ? rc : rc2;
	if (rc == 0 && rc2 == 0 && want > 0 && got < 0.9 * want)
		pl_run_warn(run,
		            "inference-perf: the achieved rate %.6g req/s is %.1f%% below the requested "
		            "request_rate %.6g req/s: the load generator fell behind (compare refuses it "
		            "unless --allow-mismatch request_rate)",
		            got, 100.0 * (want - got) / want, want);
	if (cJSON_IsObject(lat) &&
	    ((rc = family(lat, "time_to_first_token", "ttft", run, err)) ||
	     (rc = family(lat, "time_per_output_token", "tpot", run, err)) ||
	     (rc = family(lat, "inter_token_latency", "itl", run, err)) ||
	     (rc = family(lat, "request_latency", "e2el", run, err))))
		return rc;
	if (cJSON_IsObject(tp) &&
	    ((rc = pl_json_metric(tp, "output_tokens_per_sec", PL_M_OUTPUT_THROUGHPUT, 0, run, err)) ||
	     (rc = pl_json_metric(tp, "total_tokens_per_sec", PL_M_TOTAL_TOKEN_THROUGHPUT, 0, run, err)) ||
	     (rc = pl_json_metric(tp, "requests_per_sec", PL_M_REQUEST_THROUGHPUT, 0, run, err))))
		return rc;
	if ((rc = pl_json_metric(pl_json_get(succ, "prompt_len"), "mean", PL_M_INPUT_TOKENS_MEAN, 0, run,
	                         err)) ||
	    (rc = pl_json_metric(pl_json_get(succ, "output_len"), "mean", PL_M_OUTPUT_TOKENS_MEAN, 0, run,
	                         err)))
		return rc;
	return 0;
}

static int ip_parse(struct pl_adapter_input *in, struct pl_run_list *out, struct pl_error *err)
{
	return pl_adapter_records(&pl_adapter_inference_perf, in, ip_convert, out, err);
}

const struct pl_adapter_impl pl_adapter_inference_perf = {
	.info = &ip_info,
	.format_version = "lifecycle",
	.detect = ip_detect,
	.parse = ip_parse,
};
