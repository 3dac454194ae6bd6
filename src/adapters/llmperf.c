/*
 * llmperf.c — Anyscale/Ray llmperf token_benchmark_ray.py *_summary.json.
 *
 * One flat object per run: the requested workload (mean_input_tokens,
 * mean_output_tokens, num_concurrent_requests) and results_<metric>_<stat>
 * keys in seconds (_s) or tokens/s, with percentiles as _quantiles_pNN.
 * Some min/max values are strings ("550"); they are read as numbers.
 * llmperf's "inter_token_latency" is per request: (end-to-end latency) /
 * (output tokens), TTFT included, so it is stored as the TPOT family (one
 * value per request) and the benchmark_tool in the condition key keeps it
 * apart from vLLM's TPOT. The *_individual_responses.json arrays are
 * per-request records, not runs: the import reads them as the requests of
 * the summary beside them (requests_records.c); alone, the registry names
 * them and refuses them.
 * "framework" (leaderboard files) is the API provider, not an engine, and is
 * not stored; the engine, hardware and precision come from --set or a sidecar.
 *
 * llmnop (a Rust rewrite) writes the same shape under its own version
 * ("2026-01-20") with reasoning-token fields (results_number_reasoning_
 * tokens_*, results_ttfo_s_*). Its results_mean_output_throughput_token_per_s
 * counts output and reasoning tokens, while its results_number_output_
 * tokens_* count the visible output only. It is identified by those markers
 * and stored as benchmark_tool = llmnop with output_includes_reasoning =
 * true, never as llmperf. Any other version is refused naming it.
 */
#include <stdio.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"

static const char *const llmperf_mapping[] = {
	"version -> format_version: \"2023-08-31\" (llmperf); \"2026-01-20\" with "
	"results_number_reasoning_tokens_* or results_ttfo_s_* (llmnop); other versions -> rejected",
	"model -> model",
	"mean_input_tokens -> input_tokens; mean_output_tokens -> max_output_tokens (requested)",
	"num_concurrent_requests -> concurrency",
	"timestamp (Unix seconds) -> run_started_at (UTC)",
	"(constant) -> benchmark_tool = llmperf; llmnop: benchmark_tool = llmnop, "
	"output_includes_reasoning = true",
	"llmnop: results_mean_output_throughput_token_per_s counts output + reasoning tokens; "
	"results_number_output_tokens_*, results_request_output_throughput_token_per_s_* and "
	"results_inter_token_latency_s_* count the visible output only",
	"llmnop: results_number_reasoning_tokens_*, results_ttfo_s_* (time to first visible output "
	"token), results_number_total_tokens_* -> not stored (no canonical metric)",
	"results_ttft_s_<stat> -> ttft_<stat> (s)",
	"results_inter_token_latency_s_<stat> -> tpot_<stat> (s; llmperf: e2e latency / output tokens per request)",
	"results_end_to_end_latency_s_<stat> -> e2el_<stat> (s)",
	"results_request_output_throughput_token_per_s_<stat> -> tokens_per_second_<stat> (tok/s)",
	"<stat>: mean, min, max, stddev -> std, quantiles_p50/p90/p95/p99 -> p50/p90/p95/p99; p25, p75 ignored",
	"results_number_input_tokens_mean -> input_tokens_mean; results_number_output_tokens_mean -> output_tokens_mean",
	"results_num_completed_requests -> requests_completed (0 -> a failed run); results_number_errors -> requests_failed",
	"results_number_errors / (completed + errors) -> error_rate",
	"results_mean_output_throughput_token_per_s -> output_throughput (tok/s)",
	"results_num_completed_requests_per_min / 60 -> request_throughput (req/s)",
	"framework, api, model_size, name, results_error_code_frequency -> not stored",
	"NAME_individual_responses.json (or NAME_individual.json) beside NAME_summary.json -> the run's "
	"requests: ttft_s, end_to_end_latency_s, number_input_tokens, number_output_tokens, "
	"error_code / error_msg (docs/requests.md)",
	NULL,
};

static const struct pl_field llmperf_fields[] = {
	{"version", PL_FATE_DERIVED, "format_version"},
	{"model", PL_FATE_CONDITION, "model"},
	{"mean_input_tokens", PL_FATE_CONDITION, "input_tokens (requested)"},
	{"mean_output_tokens", PL_FATE_CONDITION, "max_output_tokens (requested)"},
	{"num_concurrent_requests", PL_FATE_CONDITION, "concurrency"},
	{"timestamp", PL_FATE_CONDITION, "run_started_at (Unix seconds, UTC)"},
	{"results_{ttft_s,inter_token_latency_s,end_to_end_latency_s,request_output_throughput_token_per_s}_"
	 "{mean,min,max,stddev,quantiles_p50,quantiles_p90,quantiles_p95,quantiles_p99}",
	 PL_FATE_METRIC,
	 "ttft / tpot (llmperf's per-request e2e latency / output tokens) / e2el (s) / "
	 "tokens_per_second (tok/s) _<stat>; stddev = std"},
	{"results_*_quantiles_{p25,p75}", PL_FATE_IGNORED, "a percentile without a canonical slot"},
	{"results_number_input_tokens_mean", PL_FATE_METRIC, "input_tokens_mean (tokens)"},
	{"results_number_output_tokens_mean", PL_FATE_METRIC, "output_tokens_mean (tokens)"},
	{"results_number_{input,output}_tokens_{min,max,stddev,quantiles_*}", PL_FATE_IGNORED,
	 "spread of the request lengths; the workload is kept as their mean"},
	{"results_num_completed_requests", PL_FATE_METRIC, "requests_completed (count; missing -> rejected, 0 -> a failed run)"},
	{"results_number_errors", PL_FATE_METRIC, "requests_failed (count); / (completed + errors) -> error_rate"},
	{"results_error_rate", PL_FATE_IGNORED, "recomputed as errors / (completed + errors)"},
	{"results_mean_output_throughput_token_per_s", PL_FATE_METRIC, "output_throughput (tok/s)"},
	{"results_num_completed_requests_per_min", PL_FATE_METRIC, "request_throughput (req/s, / 60)"},
	{"results_error_code_frequency", PL_FATE_IGNORED, "error codes as text; the count is results_number_errors"},
	{"{framework,api,model_size,name}", PL_FATE_IGNORED,
	 "leaderboard labels: the API provider and display names, not the engine"},
	{"{stddev_input_tokens,stddev_output_tokens}", PL_FATE_IGNORED,
	 "the requested spread of request lengths (--stddev-*-tokens); the measured means are stored "
	 "and checked by the 10% workload rule"},
	{"results_num_requests_started", PL_FATE_IGNORED, "requests started; completed and errors are stored"},
	{NULL, 0, NULL},
};

/* llmnop writes llmperf-shaped summaries with a version of its own and
 * reasoning-token fields. */
static const struct pl_field llmnop_fields[] = {
	{"results_number_reasoning_tokens_*", PL_FATE_DERIVED,
	 "output_includes_reasoning = true (output throughput counts reasoning tokens); the "
	 "per-request reasoning counts have no canonical metric"},
	{"results_number_total_tokens_*", PL_FATE_IGNORED, "input + output tokens per request; both are stored"},
	{"results_ttfo_s_*", PL_FATE_IGNORED, "time to first output (non-reasoning) token; no canonical metric"},
	{"tokenizer", PL_FATE_IGNORED, "the client's tokenizer"},
	{NULL, 0, NULL},
};

static const struct pl_format_version llmperf_inventory[] = {
	{.version = "2023-08-31", .note = "token_benchmark_ray.py *_summary.json", .fields = llmperf_fields},
	{.version = "2026-01-20", .note = "llmnop summaries in llmperf's shape: benchmark_tool = llmnop",
	 .fields = llmnop_fields, .common = llmperf_fields},
	{.version = NULL},
};

static const struct pl_adapter_info llmperf_info = {
	.name = "llmperf",
	.versions = "token_benchmark_ray.py summary version 2023-08-31; llmnop summary version 2026-01-20",
	.description = "llmperf *_summary.json (the *_individual_responses.json beside it: its requests)",
	.mapping = llmperf_mapping,
	.inventory = llmperf_inventory,
};

static int llmperf_detect(struct pl_adapter_input *in)
{
	const cJSON *obj = pl_adapter_input_first(in);

	return obj && pl_json_get(obj, "num_concurrent_requests") &&
	       (pl_json_get(obj, "results_ttft_s_mean") ||
	        pl_json_get(obj, "results_num_completed_requests"));
}

/* A number, or a string holding one (llmperf's min/max). */
static int num_or_string(const cJSON *obj, const char *key, double *out, struct pl_error *err)
{
	const cJSON *it = pl_json_get(obj, key);

	if (it && cJSON_IsString(it) && it->valuestring) {
		if (pl_parse_num(it->valuestring, 0, out) != 0) {
			pl_error_field(err, key);
			return pl_error_set(err, PL_EINVALID, "'%s' must be a number, got the string \"%.40s\"",
			                    key, it->valuestring);
		}
		return 0;
	}
	return pl_json_get_number(obj, key, out, err);
}

static int families(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	static const char *const fam_in[] = {"ttft_s", "inter_token_latency_s", "end_to_end_latency_s",
	                                     "request_output_throughput_token_per_s", NULL};
	static const char *const fam_out[] = {"ttft", "tpot", "e2el", "tokens_per_second"};
	static const char *const st_in[] = {"mean", "min", "max", "stddev", "quantiles_p50",
	                                    "quantiles_p90", "quantiles_p95", "quantiles_p99", NULL};
	static const char *const st_out[] = {"mean", "min", "max", "std", "p50", "p90", "p95", "p99"};

	for (int f = 0; fam_in[f]; f++)
		for (int s = 0; st_in[s]; s++) {
			char key[96], name[64];
			double v;
			int rc;
			snprintf(key, sizeof(key), "results_%s_%s", fam_in[f], st_in[s]);
			snprintf(name, sizeof(name), "%s_%s", fam_out[f], st_out[s]);
			rc = num_or_string(obj, key, &v, err);
			if (rc < 0)
				return rc;
			if (rc == 0 && (rc = pl_adapter_metric(run, pl_metric_lookup(name), v, 0, key, 0, err)))
				return rc;
		}
	return 0;
}

/* Which tool wrote the summary, from its version (NULL: none) and its
 * own markers: benchmark_tool (and output_includes_reasoning for llmnop),
 * or PL_EFORMAT naming a version no reader here knows. */
static int tool(const cJSON *obj, const char *version, struct pl_run *run, struct pl_error *err)
{
	int llmnop = pl_json_get(obj, "results_number_reasoning_tokens_mean") ||
	             pl_json_get(obj, "results_ttfo_s_mean");
	int rc;

	if (!llmnop && (!version || strcmp(version, "2023-08-31") == 0))
		return pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, "llmperf", err);
	if (llmnop && version && strcmp(version, "2026-01-20") == 0) {
		if ((rc = pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, "llmnop", err)))
			return rc;
		return pl_run_set_cond(run, PL_C_OUTPUT_INCLUDES_REASONING, "true", err);
	}
	pl_error_field(err, "version");
	if (llmnop)
		return pl_error_set(err, PL_EFORMAT,
		                    "an llmnop summary (reasoning-token fields) of version '%.40s' is not "
		                    "read (2026-01-20 is)",
		                    version ? version : "(none)");
	return pl_error_set(err, PL_EFORMAT,
	                    "an llmperf-shaped summary of version '%.40s' is not read (llmperf "
	                    "2023-08-31 and llmnop 2026-01-20 are)",
	                    version);
}

static int llmperf_convert(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const char *version = NULL;
	double completed = 0, errors = -1, ts, per_min;
	int rc;

	rc = pl_json_get_string(obj, "version", &version, err);
	if (rc < 0 || (rc == 0 && pl_strset(&run->format_version, version)))
		return rc < 0 ? rc : pl_error_set(err, PL_ENOMEM, "out of memory");
	if ((rc = tool(obj, rc == 0 ? version : NULL, run, err)) ||
	    (rc = pl_json_cond(obj, "model", PL_C_MODEL, run, err)) ||
	    (rc = pl_json_cond(obj, "mean_input_tokens", PL_C_INPUT_TOKENS, run, err)) ||
	    (rc = pl_json_cond(obj, "mean_output_tokens", PL_C_MAX_OUTPUT_TOKENS, run, err)) ||
	    (rc = pl_json_cond(obj, "num_concurrent_requests", PL_C_CONCURRENCY, run, err)))
		return rc;
	rc = pl_json_get_number(obj, "timestamp", &ts, err);
	if (rc < 0 || (rc == 0 && (rc = pl_adapter_epoch(run, ts, err))))
		return rc;
	rc = pl_json_get_count(obj, "results_num_completed_requests", &completed, err);
	if (rc < 0)
		return rc;
	if (rc == 1) {
		pl_error_field(err, "results_num_completed_requests");
		return pl_error_set(err, PL_EINVALID,
		                    "no request completed (results_num_completed_requests missing)");
	}
	rc = pl_json_get_count(obj, "results_number_errors", &errors, err);
	if (rc < 0)
		return rc;
	if ((rc = pl_adapter_requests(run, completed, errors, "results_num_completed_requests", err)))
		return rc;
	rc = pl_json_get_number(obj, "results_num_completed_requests_per_min", &per_min, err);
	if (rc < 0)
		return rc;
	if (rc == 0)
		pl_run_set_metric(run, PL_M_REQUEST_THROUGHPUT, per_min / 60.0);
	if ((rc = pl_json_metric(obj, "results_mean_output_throughput_token_per_s",
	                         PL_M_OUTPUT_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "results_number_input_tokens_mean", PL_M_INPUT_TOKENS_MEAN, 0,
	                         run, err)) ||
	    (rc = pl_json_metric(obj, "results_number_output_tokens_mean", PL_M_OUTPUT_TOKENS_MEAN, 0,
	                         run, err)))
		return rc;
	return families(obj, run, err);
}

static int llmperf_parse(struct pl_adapter_input *in, struct pl_run_list *out, struct pl_error *err)
{
	return pl_adapter_records(&pl_adapter_llmperf, in, llmperf_convert, out, err);
}

const struct pl_adapter_impl pl_adapter_llmperf = {
	.info = &llmperf_info,
	.format_version = "2023-08-31",
	.detect = llmperf_detect,
	.parse = llmperf_parse,
};
