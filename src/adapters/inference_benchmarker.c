/*
 * inference_benchmarker.c — Hugging Face inference-benchmarker results
 * (the JSON report its writer saves: one object with the benchmark's
 * config, a results list, start and end time and the client's system).
 *
 * No real file was at hand: the layout was read from the tool's source
 * (github.com/huggingface/inference-benchmarker, src/writers.rs,
 * src/results.rs, src/benchmark.rs, src/executors.rs at tag v1.1.0,
 * 5290f9b, and at dfef39d, 2026-04-24, the same layout; tags v0.2.0 and
 * v1.0.0 write the same results but no config.model_name / run_id).
 *
 * Each element of results is one run (record = its index), except the
 * warm-up (id "warmup"), which is not stored. Latencies are in ms
 * (time_to_first_token_ms.{p50..p99,avg}); the writer's
 * inter_token_latency is, per request, the decode time over the generated
 * tokens minus one (src/requests.rs), which is TPOT, and is stored as
 * such. request_rate in a result is successful requests / duration: the
 * achieved rate, stored as request_throughput; the arrival-rate condition
 * is the executor's config.rate. total_tokens counts generated tokens of
 * successful requests only (output throughput is token_throughput_secs).
 * The 0.1 layout (flat keys such as time_to_first_token_ms_avg) is
 * refused by name.
 */
#include <stdio.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"

#define NAME "inference-benchmarker"
#define VERSION "0.2"

static const char *const ib_mapping[] = {
	"results[i] -> one run (record = i); the warm-up result (id \"warmup\") is not stored",
	"(constant) -> benchmark_tool = inference-benchmarker; config.model_name -> model",
	"results[].config.max_vus -> concurrency (the cap on requests in flight, both executors)",
	"results[].config.rate -> request_rate (req/s; ConstantArrivalRate only)",
	"config.prompt_options.num_tokens -> input_tokens; config.decode_options.num_tokens -> "
	"max_output_tokens",
	"results[].{time_to_first_token,inter_token_latency,e2e_latency}_ms.{avg,p50,p90,p95,p99} -> "
	"ttft / tpot / e2el _{mean,p50,p90,p95,p99} (ms -> s)",
	"results[].duration_ms -> duration (ms -> s); token_throughput_secs -> output_throughput (tok/s)",
	"results[].request_rate -> request_throughput (successful req/s: achieved, not the condition)",
	"results[].successful_requests, failed_requests -> requests_completed, requests_failed, error_rate",
	"results[].total_tokens -> total_output_tokens; total_tokens_sent -> total_input_tokens; "
	"each / successful_requests -> output_tokens_mean, input_tokens_mean",
	"meta.* -> extra conditions inference-benchmarker.meta.<key>",
	"engine, precision, hardware: not recorded (sidecar or --set)",
	NULL,
};

static const struct pl_field ib_fields[] = {
	{"config.model_name", PL_FATE_CONDITION, "model"},
	{"config.prompt_options.num_tokens", PL_FATE_CONDITION, "input_tokens (requested mean)"},
	{"config.decode_options.num_tokens", PL_FATE_CONDITION, "max_output_tokens (requested)"},
	{"config.{prompt_options,decode_options}.{min_tokens,max_tokens,variance}", PL_FATE_IGNORED,
	 "spread allowed around num_tokens; the realized lengths are stored as means"},
	{"config.{prompt_options,decode_options}", PL_FATE_IGNORED,
	 "null: no length asked (the dataset's own)"},
	{"config.max_vus", PL_FATE_IGNORED, "the sweep's cap; each result's own config.max_vus is stored"},
	{"config.duration_secs", PL_FATE_IGNORED,
	 "the requested time per step; each result's measured duration_ms is stored"},
	{"config.warmup_duration_secs", PL_FATE_IGNORED, "the warm-up phase, not stored"},
	{"config.benchmark_kind", PL_FATE_IGNORED,
	 "the sweep plan (Throughput, Sweep, Rate); each result's executor and rate are stored"},
	{"config.{rates,num_rates}", PL_FATE_IGNORED,
	 "the sweep's rate list; each result's config.rate is stored"},
	{"config.tokenizer", PL_FATE_IGNORED,
	 "the tokenizer the client counts tokens with; not a condition of the server"},
	{"config.profile", PL_FATE_IGNORED,
	 "a named preset; its settings are the other config keys"},
	{"config.meta", PL_FATE_EXTRA, "user metadata (--extra-meta), kept as text"},
	{"config.run_id", PL_FATE_IGNORED, "an identifier, not a condition"},
	{"results", PL_FATE_RECORDS, "each element but the warm-up is one run (record = index)"},
	{"results[].id", PL_FATE_IGNORED,
	 "a label (warmup, throughput, constant@R req/s); the warm-up is skipped, the rate is stored "
	 "from config.rate"},
	{"results[].executor_type", PL_FATE_DERIVED,
	 "ConstantVUs (closed loop) or ConstantArrivalRate (config.rate -> request_rate)"},
	{"results[].config.max_vus", PL_FATE_CONDITION, "concurrency"},
	{"results[].config.rate", PL_FATE_CONDITION, "request_rate (req/s)"},
	{"results[].config.duration_secs", PL_FATE_IGNORED,
	 "the requested duration; the measured duration_ms is stored"},
	{"results[].total_requests", PL_FATE_IGNORED, "successful_requests + failed_requests"},
	{"results[].successful_requests", PL_FATE_METRIC, "requests_completed (count)"},
	{"results[].failed_requests", PL_FATE_METRIC, "requests_failed (count); -> error_rate"},
	{"results[].total_tokens", PL_FATE_METRIC,
	 "total_output_tokens (successful requests); / successful_requests -> output_tokens_mean"},
	{"results[].total_tokens_sent", PL_FATE_METRIC,
	 "total_input_tokens (successful requests); / successful_requests -> input_tokens_mean"},
	{"results[].token_throughput_secs", PL_FATE_METRIC,
	 "output_throughput (generated tok/s over the run)"},
	{"results[].duration_ms", PL_FATE_METRIC, "duration (ms -> s)"},
	{"results[].request_rate", PL_FATE_METRIC,
	 "request_throughput (successful req/s: achieved, never the condition)"},
	{"results[].{time_to_first_token_ms,inter_token_latency_ms,e2e_latency_ms}.{avg,p50,p90,p95,p99}",
	 PL_FATE_METRIC,
	 "ttft / tpot / e2el _{mean,p50,p90,p95,p99} (ms -> s); the inter-token latency is per request "
	 "decode time / (tokens - 1): TPOT"},
	{"results[].*_ms.{p60,p70,p80}", PL_FATE_IGNORED, "a percentile without a canonical slot"},
	{"start_time", PL_FATE_CONDITION, "run_started_at (RFC 3339; the report's start, every step ran after it)"},
	{"end_time", PL_FATE_IGNORED, "start_time and each result's duration are stored"},
	{"system", PL_FATE_IGNORED,
	 "the client machine (cpu, memory, os, hostname), not the server under test"},
	{NULL, 0, NULL},
};

static const struct pl_format_version ib_inventory[] = {
	{.version = VERSION,
	 .note = "results JSON of inference-benchmarker 0.2 to 1.1 (read from source only: "
	         "huggingface/inference-benchmarker tag v1.1.0 5290f9b and dfef39d; no real file)",
	 .fields = ib_fields},
	{.version = NULL},
};

static const struct pl_adapter_info ib_info = {
	.name = NAME,
	.versions = "0.2 to 1.1 results JSON, read from the tool's source only "
	            "(huggingface/inference-benchmarker v1.1.0 5290f9b, dfef39d); 0.1 refused",
	.description = "Hugging Face inference-benchmarker results JSON (one run per result)",
	.mapping = ib_mapping,
	.inventory = ib_inventory,
};

static int ib_detect(struct pl_adapter_input *in)
{
	const cJSON *obj = pl_adapter_input_first(in);
	const cJSON *cfg = pl_json_get(obj, "config");

	return obj && cJSON_IsArray(pl_json_get(obj, "results")) && cJSON_IsObject(cfg) &&
	       pl_json_get(cfg, "benchmark_kind") && pl_json_get(cfg, "max_vus") &&
	       pl_json_get(cfg, "warmup_duration_secs");
}

/* The distribution results[].<key> (ms) -> metric family fam. */
static int family(const cJSON *res, const char *key, const char *fam, struct pl_run *run,
                  struct pl_error *err)
{
	static const char *const st_in[] = {"avg", "p50", "p90", "p95", "p99", NULL};
	static const char *const st_out[] = {"mean", "p50", "p90", "p95", "p99"};
	const cJSON *d = pl_json_get(res, key);

	if (!d || cJSON_IsNull(d))
		return 0;
	if (!cJSON_IsObject(d)) {
		pl_error_field(err, key);
		return pl_error_set(err, PL_EINVALID, "'%s' must be an object, got %s", key,
		                    pl_json_type_name(d));
	}
	for (int s = 0; st_in[s]; s++) {
		char name[64];
		snprintf(name, sizeof(name), "%s_%s", fam, st_out[s]);
		int rc = pl_json_metric(d, st_in[s], pl_metric_lookup(name), -3, run, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* A per-run total and its mean over the successful requests. */
static int total_and_mean(const cJSON *res, const char *key, int total_id, int mean_id,
                          double completed, struct pl_run *run, struct pl_error *err)
{
	double v;
	int rc = pl_json_get_count(res, key, &v, err);

	if (rc)
		return rc < 0 ? rc : 0;
	pl_run_set_metric(run, total_id, v);
	pl_run_set_metric(run, mean_id, v / completed);
	return 0;
}

static int convert_result(const cJSON *root, const cJSON *res, struct pl_run *run,
                          struct pl_error *err)
{
	const cJSON *cfg = pl_json_get(root, "config");
	const cJSON *rcfg = pl_json_get(res, "config");
	const char *exec = NULL;
	double completed = 0, failed = -1;
	int rc;

	if ((rc = pl_json_get_string(res, "executor_type", &exec, err)) < 0)
		return rc;
	if (rc == 1 || (strcmp(exec, "ConstantVUs") != 0 && strcmp(exec, "ConstantArrivalRate") != 0)) {
		pl_error_field(err, "executor_type");
		return pl_error_set(err, PL_EFORMAT,
		                    "inference-benchmarker: executor_type %s%s%s is not one this adapter "
		                    "reads (ConstantVUs, ConstantArrivalRate)",
		                    exec ? "'" : "", exec ? exec : "missing", exec ? "'" : "");
	}
	if ((rc = pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, NAME, err)) ||
	    (rc = pl_json_cond(cfg, "model_name", PL_C_MODEL, run, err)) ||
	    (rc = pl_json_cond(pl_json_get(cfg, "prompt_options"), "num_tokens", PL_C_INPUT_TOKENS, run,
	                       err)) ||
	    (rc = pl_json_cond(pl_json_get(cfg, "decode_options"), "num_tokens",
	                       PL_C_MAX_OUTPUT_TOKENS, run, err)) ||
	    (rc = pl_json_cond(root, "start_time", PL_C_RUN_STARTED_AT, run, err)) ||
	    (rc = pl_json_cond(rcfg, "max_vus", PL_C_CONCURRENCY, run, err)))
		return rc;
	if (strcmp(exec, "ConstantArrivalRate") == 0) {
		if (!cJSON_IsNumber(pl_json_get(rcfg, "rate"))) {
			pl_error_field(err, "config.rate");
			return pl_error_set(err, PL_EINVALID,
			                    "a ConstantArrivalRate result needs a number config.rate");
		}
		if ((rc = pl_json_cond(rcfg, "rate", PL_C_REQUEST_RATE, run, err)))
			return rc;
	}
	if ((rc = pl_json_get_count(res, "successful_requests", &completed, err)) < 0)
		return rc;
	if ((rc = pl_json_get_count(res, "failed_requests", &failed, err)) < 0)
		return rc;
	if ((rc = pl_adapter_requests(run, completed, failed, "successful_requests", err)))
		return rc;
	if ((rc = total_and_mean(res, "total_tokens", PL_M_TOTAL_OUTPUT_TOKENS, PL_M_OUTPUT_TOKENS_MEAN,
	                         completed, run, err)) ||
	    (rc = total_and_mean(res, "total_tokens_sent", PL_M_TOTAL_INPUT_TOKENS,
	                         PL_M_INPUT_TOKENS_MEAN, completed, run, err)) ||
	    (rc = pl_json_metric(res, "token_throughput_secs", PL_M_OUTPUT_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(res, "duration_ms", PL_M_DURATION, -3, run, err)) ||
	    (rc = pl_json_metric(res, "request_rate", PL_M_REQUEST_THROUGHPUT, 0, run, err)) ||
	    (rc = family(res, "time_to_first_token_ms", "ttft", run, err)) ||
	    (rc = family(res, "inter_token_latency_ms", "tpot", run, err)) ||
	    (rc = family(res, "e2e_latency_ms", "e2el", run, err)))
		return rc;
	return 0;
}

static int ib_parse(struct pl_adapter_input *in, struct pl_run_list *out, struct pl_error *err)
{
	const struct pl_json_doc *doc;
	const cJSON *root, *results, *res;
	int rc, i = -1, nruns = 0;

	if ((rc = pl_adapter_input_doc(in, &doc, err)))
		return rc;
	if (doc->nrecords != 1 || !cJSON_IsObject(doc->records[0].obj)) {
		/* forced with --format on "[]" or a JSONL file: records[0] may not exist */
		pl_error_at(err, in->path, 0, 0);
		return pl_error_set(err, PL_EINVALID, "an inference-benchmarker report must be one JSON "
		                                      "object");
	}
	root = doc->records[0].obj;
	results = pl_json_get(root, "results");
	cJSON_ArrayForEach(res, results)
	{
		if (pl_json_get(res, "time_to_first_token_ms_avg") ||
		    pl_json_get(res, "e2e_latency_ms_avg"))
			return pl_error_set(err, PL_EFORMAT,
			                    "an inference-benchmarker 0.1 report (flat keys such as "
			                    "time_to_first_token_ms_avg) is not read; this adapter reads the "
			                    "0.2 to 1.1 layout");
	}
	cJSON_ArrayForEach(res, results)
	{
		const char *id = NULL;
		struct pl_run *run;

		i++;
		if (!cJSON_IsObject(res)) {
			rc = pl_error_set(err, PL_EINVALID, "result %d: must be an object, got %s", i,
			                  pl_json_type_name(res));
			break;
		}
		if (pl_json_get_string(res, "id", &id, NULL) == 0 && strcmp(id, "warmup") == 0)
			continue;
		run = pl_run_list_push(out);
		if (!run || pl_strset(&run->adapter, NAME) || pl_strset(&run->source, in->path) ||
		    pl_strset(&run->format_version, VERSION)) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		run->record = i;
		nruns++;
		pl_json_forget_failed();
		if ((rc = convert_result(root, res, run, err)))
			pl_json_name_failed(root, err);
		if (rc == 0)
			rc = pl_inventory_walk(&ib_info, VERSION, root, "", run, err);
		if (rc == 0)
			rc = pl_inventory_walk(&ib_info, VERSION, res, "results[].", run, err);
		if (rc) {
			char m[sizeof(err->message)];
			snprintf(m, sizeof(m), "%s", err ? err->message : "");
			pl_error_set(err, rc, "result %d: %s", i, m);
			break;
		}
	}
	if (rc == 0 && nruns == 0)
		return pl_error_set(err, PL_EINVALID,
		                    "an inference-benchmarker report with no result but the warm-up");
	return rc;
}

const struct pl_adapter_impl pl_adapter_inference_benchmarker = {
	.info = &ib_info,
	.format_version = VERSION,
	.detect = ib_detect,
	.parse = ib_parse,
};
