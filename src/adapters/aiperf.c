/*
 * aiperf.c — NVIDIA AIPerf profile_export_aiperf.json and GenAI-Perf
 * profile_export_genai_perf.json (its predecessor; same shape).
 *
 * Each metric is an object {unit, avg, p1..p99, min, max, std, count, sum};
 * the unit is read from the object and converted explicitly (ns, us, ms, s;
 * tokens/sec, requests/sec); an unknown unit on a metric we store is refused.
 * AIPerf's inter_token_latency is per request ((latency - TTFT) / (output
 * tokens - 1)) and goes to the TPOT family; inter_chunk_latency, the gap
 * between streamed chunks, is ITL. The configuration (input_config) gives
 * the model, concurrency or request rate, warm-up and requested lengths. A
 * cancelled run whose requests all failed has only error_request_count and
 * is rejected as "no request completed".
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"

static const char *const aiperf_mapping[] = {
	"aiperf_version -> benchmark_tool_version; schema_version -> format_version",
	"(aiperf_version, input_config.loadgen or an aiperf cli_command) -> benchmark_tool = aiperf, else genai-perf",
	"input_config.endpoint.model_names[0] -> model; endpoint.streaming -> streaming",
	"input_config.loadgen.concurrency -> concurrency; loadgen.request_rate -> request_rate",
	"input_config.loadgen.warmup_request_count -> warmup_requests",
	"input_config.input.prompt.input_tokens.mean -> input_tokens; prompt.output_tokens.mean -> max_output_tokens",
	"input_config.input.public_dataset -> dataset",
	"start_time -> run_started_at (seconds precision, zone as written: none)",
	"<metric>.unit: ns, us, ms, sec/s -> seconds; other units on a stored metric -> refused",
	"time_to_first_token -> ttft_<stat>; inter_token_latency -> tpot_<stat> (per request)",
	"inter_chunk_latency -> itl_<stat>; request_latency -> e2el_<stat>",
	"output_token_throughput_per_user -> tokens_per_second_<stat> (tokens/sec/user)",
	"<stat>: avg -> mean, p50, p90, p95, p99, min, max, std; p1..p25, p75 ignored",
	"request_count.avg -> requests_completed (absent or 0 -> a failed run); error_request_count.avg -> requests_failed",
	"error_rate = failed / (completed + failed); no error count and an empty error_summary -> 0 failed",
	"request_throughput.avg -> request_throughput; output_token_throughput.avg -> output_throughput",
	"total_token_throughput.avg -> total_token_throughput; goodput.avg -> goodput",
	"input_sequence_length.avg -> input_tokens_mean; output_sequence_length.avg -> output_tokens_mean",
	"total_isl, total_osl -> total_input_tokens, total_output_tokens; benchmark_duration -> duration (s)",
	"effective_concurrency.avg -> concurrency_mean (measured)",
	"reasoning_token_count.avg (or total_reasoning_tokens) > 0 -> output_includes_reasoning = true (AIPerf's output lengths and throughputs count reasoning tokens); 0 -> false",
	"input_config.input.conversation.num -> conversation_count; conversation.turn.mean -> turns_per_conversation",
	"input_config.input.custom_dataset_type -> dataset_type (single_turn, multi_turn, mooncake_trace, ...)",
	"profile_export.jsonl beside profile_export_aiperf.json (or NAME_records.jsonl beside NAME.json) "
	"-> the run's requests: time_to_first_token, request_latency, inter_chunk_latency (gaps), "
	"input/output_sequence_length, error (docs/requests.md)",
	"input_config.input.goodput {time_to_first_token, inter_token_latency, request_latency} (ms) -> goodput_slo_ttft, goodput_slo_tpot, goodput_slo_e2el (s); an SLO on any other metric -> none stored (goodput then compares as without its SLO)",
	NULL,
};

static const struct pl_field aiperf_fields[] = {
	{"aiperf_version", PL_FATE_CONDITION, "benchmark_tool_version"},
	{"schema_version", PL_FATE_DERIVED, "format_version"},
	{"input_config.endpoint.model_names", PL_FATE_CONDITION, "model (the first name)"},
	{"input_config.endpoint.streaming", PL_FATE_CONDITION, "streaming"},
	{"input_config.loadgen.concurrency", PL_FATE_CONDITION, "concurrency"},
	{"input_config.loadgen.request_rate", PL_FATE_CONDITION, "request_rate (req/s)"},
	{"input_config.loadgen.warmup_request_count", PL_FATE_CONDITION, "warmup_requests"},
	{"input_config.input.prompt.input_tokens.mean", PL_FATE_CONDITION, "input_tokens"},
	{"input_config.input.prompt.output_tokens.mean", PL_FATE_CONDITION, "max_output_tokens"},
	{"input_config.input.public_dataset", PL_FATE_CONDITION, "dataset"},
	{"input_config.cli_command", PL_FATE_DERIVED, "benchmark_tool (aiperf or genai-perf)"},
	{"start_time", PL_FATE_CONDITION, "run_started_at (seconds precision)"},
	{"time_to_first_token", PL_FATE_METRIC, "ttft_<stat> (unit read from the object: ns, us, ms, sec)"},
	{"inter_token_latency", PL_FATE_METRIC, "tpot_<stat> (per request; unit from the object)"},
	{"inter_chunk_latency", PL_FATE_METRIC, "itl_<stat> (unit from the object)"},
	{"request_latency", PL_FATE_METRIC, "e2el_<stat> (unit from the object)"},
	{"output_token_throughput_per_user", PL_FATE_METRIC, "tokens_per_second_<stat> (tokens/sec/user)"},
	{"request_count", PL_FATE_METRIC, "requests_completed (avg; absent or 0 -> a failed run)"},
	{"error_request_count", PL_FATE_METRIC, "requests_failed (avg); -> error_rate"},
	{"context_overflow_count", PL_FATE_IGNORED,
	 "requests refused for a prompt longer than the context; counted in error_request_count"},
	{"error_summary", PL_FATE_DERIVED, "an empty list and no error count -> 0 failed"},
	{"request_throughput", PL_FATE_METRIC, "request_throughput (requests/sec)"},
	{"output_token_throughput", PL_FATE_METRIC, "output_throughput (tokens/sec)"},
	{"total_token_throughput", PL_FATE_METRIC, "total_token_throughput (tokens/sec)"},
	{"goodput", PL_FATE_METRIC, "goodput (requests/sec)"},
	{"input_sequence_length", PL_FATE_METRIC, "input_tokens_mean (avg)"},
	{"output_sequence_length", PL_FATE_METRIC, "output_tokens_mean (avg)"},
	{"total_isl", PL_FATE_METRIC, "total_input_tokens"},
	{"total_osl", PL_FATE_METRIC, "total_output_tokens"},
	{"benchmark_duration", PL_FATE_METRIC, "duration (s)"},
	{"effective_concurrency", PL_FATE_METRIC, "concurrency_mean (measured)"},
	{"input_config.endpoint.{type,use_server_token_count}", PL_FATE_EXTRA,
	 "the endpoint type (chat or completions) and where token counts come from"},
	{"input_config.endpoint.{url,urls,custom_endpoint}", PL_FATE_IGNORED, "the server's address and path"},
	{"input_config.input.prompt.{input_tokens,output_tokens}.stddev", PL_FATE_EXTRA,
	 "the requested spread of request lengths"},
	{"input_config.input.extra_inputs_parsed", PL_FATE_EXTRA,
	 "extra request inputs (ignore_eos, ...), which change output lengths"},
	{"input_config.input.extra", PL_FATE_IGNORED, "the raw text of extra_inputs_parsed"},
	{"input_config.input.{random_seed,dataset_sampling_strategy,detected_loader}", PL_FATE_IGNORED,
	 "the seed, order and loader of the prompt set"},
	{"input_config.input.conversation.{num_dataset_entries,turn.stddev,turn.delay*}", PL_FATE_EXTRA,
	 "how many dataset entries, the spread of turns and the delay between turns"},
	{"input_config.loadgen.{arrival_pattern,request_count,trace_idle_gap_cap_seconds,"
	 "trajectory_start_min_ratio,trajectory_start_max_ratio}",
	 PL_FATE_EXTRA, "the arrival process and request count asked for (no canonical field yet)"},
	{"input_config.loadgen.{benchmark_duration,failed_request_threshold}", PL_FATE_IGNORED,
	 "limits of the run; what ran is measured"},
	{"input_config.scenario", PL_FATE_EXTRA, "the scenario the harness ran"},
	{"input_config.{benchmark_id,gpu_telemetry,output,tokenizer}", PL_FATE_IGNORED,
	 "run id, telemetry, output and tokenizer settings of the client"},
	{"metadata.scenario", PL_FATE_EXTRA, "the scenario the harness ran"},
	{"metadata.submission_valid", PL_FATE_IGNORED, "a flag of the submitting harness"},
	{"{benchmark_id,end_time,min_request_timestamp,max_response_timestamp,was_cancelled}", PL_FATE_IGNORED,
	 "identifiers and time stamps; start_time and benchmark_duration are stored"},
	{"telemetry_data", PL_FATE_IGNORED, "GPU telemetry series per endpoint; no per-run mean power is derived yet"},
	{"branch_stats", PL_FATE_IGNORED, "agentic branch bookkeeping of the client"},
	{"{active,effective}_*", PL_FATE_IGNORED,
	 "AIPerf's active / effective throughputs, concurrencies and latencies: no canonical metric"},
	{"{e2e_output_token_throughput,prefill_throughput,prefill_throughput_per_user,tokens_in_flight,"
	 "input_token_throughput}",
	 PL_FATE_IGNORED, "no canonical metric (prompt-side or per-phase rates)"},
	{"{credit_drop_latency,credit_to_start_latency}", PL_FATE_IGNORED, "the client's scheduling overhead"},
	{"http_req_*", PL_FATE_IGNORED, "the client's HTTP timing breakdown"},
	{"{time_to_first_output_token,time_to_second_token}", PL_FATE_IGNORED, "no canonical metric"},
	{"{reasoning_token_count,total_reasoning_tokens}", PL_FATE_DERIVED,
	 "output_includes_reasoning (> 0 -> true, 0 -> false): output_sequence_length and the "
	 "output throughputs count reasoning tokens"},
	{"{output_token_count,total_output_tokens,usage_*,total_usage_*}",
	 PL_FATE_IGNORED, "other counts of tokens (server usage); the means and totals stored "
	 "are the sequence lengths"},
	{"input_config.input.conversation.num", PL_FATE_CONDITION, "conversation_count"},
	{"input_config.input.conversation.turn.mean", PL_FATE_CONDITION, "turns_per_conversation"},
	{"input_config.input.custom_dataset_type", PL_FATE_CONDITION, "dataset_type"},
	{"input_config.input.goodput.{time_to_first_token,inter_token_latency,request_latency}",
	 PL_FATE_METRIC, "goodput_slo_ttft, goodput_slo_tpot, goodput_slo_e2el (s, ms / 1000): the SLO of goodput"},
	{"{error_isl,total_error_isl,good_request_count}", PL_FATE_IGNORED,
	 "lengths of failed requests and the count behind goodput"},
	{"{requested_osl,osl_mismatch_count,osl_mismatch_diff_pct}", PL_FATE_IGNORED,
	 "the requested output length (input_config gives it) and how often it was missed"},
	{"theoretical_prefix_cache_hit", PL_FATE_IGNORED, "a property of the prompt set"},
	{NULL, 0, NULL},
};

/* Where unknown keys sit: input_config is the command's configuration. */
static const struct pl_section aiperf_sections[] = {
	{"input_config", PL_PLACE_CONFIG},
	{NULL, 0},
};

static const struct pl_format_version aiperf_inventory[] = {
	{.version = "1.1", .note = "AIPerf 0.8 profile_export_aiperf.json (schema_version 1.1)", .fields = aiperf_fields,
	 .sections = aiperf_sections},
	{.version = "", .note = "older AIPerf and GenAI-Perf profile_export_genai_perf.json (no schema_version)",
	 .fields = aiperf_fields,
	 .sections = aiperf_sections},
	{.version = NULL},
};

static const struct pl_adapter_info aiperf_info = {
	.name = "aiperf",
	.versions = "AIPerf profile_export_aiperf.json (schema 1.1 / aiperf 0.8, and older without "
	            "schema_version); GenAI-Perf profile_export_genai_perf.json",
	.description = "AIPerf / GenAI-Perf profile export JSON ({unit, avg, p50, ...} per metric)",
	.mapping = aiperf_mapping,
	.inventory = aiperf_inventory,
};

static int is_metric_obj(const cJSON *it)
{
	return cJSON_IsObject(it) && cJSON_IsString(pl_json_get(it, "unit"));
}

static int aiperf_detect(struct pl_adapter_input *in)
{
	const cJSON *obj = pl_adapter_input_first(in);

	return obj && (cJSON_IsObject(pl_json_get(obj, "input_config")) ||
	        pl_json_get(obj, "aiperf_version")) &&
	       (is_metric_obj(pl_json_get(obj, "request_count")) ||
	        is_metric_obj(pl_json_get(obj, "error_request_count")) ||
	        is_metric_obj(pl_json_get(obj, "time_to_first_token")));
}

int pl_aiperf_time_exp(const char *unit, int *exp10)
{
	static const struct {
		const char *u;
		int e;
	} t[] = {{"ns", -9}, {"us", -6}, {"ms", -3}, {"sec", 0}, {"s", 0}};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(unit, t[i].u) == 0) {
			*exp10 = t[i].e;
			return 0;
		}
	return 1;
}


/* The metric object at key and its unit: 0 with *m and *unit set; 1 when
 * the key is absent or null (nothing to store); PL_EINVALID when it is not
 * an object with a "unit". */
static int metric_obj(const cJSON *obj, const char *key, const cJSON **m, const char **unit,
                      struct pl_error *err)
{
	*unit = "";
	*m = pl_json_get(obj, key);
	if (!*m || cJSON_IsNull(*m))
		return 1;
	if (!is_metric_obj(*m)) {
		pl_error_field(err, key);
		return pl_error_set(err, PL_EINVALID, "'%s' must be an object with a \"unit\", got %s", key,
		                    pl_json_type_name(*m));
	}
	*unit = pl_json_get(*m, "unit")->valuestring;
	return 0;
}

/* One metric object: its stats into family fam (time: unit converted). */
static int family(const cJSON *obj, const char *key, const char *fam, int is_time,
                  struct pl_run *run, struct pl_error *err)
{
	static const char *const st_in[] = {"avg", "p50", "p90", "p95", "p99", "min", "max", "std", NULL};
	static const char *const st_out[] = {"mean", "p50", "p90", "p95", "p99", "min", "max", "std"};
	const cJSON *m;
	const char *unit = NULL;
	int exp10 = 0, rc0;

	if ((rc0 = metric_obj(obj, key, &m, &unit, err)) != 0)
		return rc0 > 0 ? 0 : rc0;
	if (is_time ? pl_aiperf_time_exp(unit, &exp10) != 0 : strcmp(unit, "tokens/sec/user") != 0) {
		pl_error_field(err, key);
		return pl_error_set(err, PL_EINVALID, "unknown unit '%s' in '%s' (expected %s)", unit, key,
		                    is_time ? "ns, us, ms or sec" : "tokens/sec/user");
	}
	for (int s = 0; st_in[s]; s++) {
		char name[64];
		int rc;
		snprintf(name, sizeof(name), "%s_%s", fam, st_out[s]);
		rc = pl_json_metric(m, st_in[s], pl_metric_lookup(name), exp10, run, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* A single-value metric object's avg, in unit want (NULL: any count unit). */
static int single(const cJSON *obj, const char *key, const char *want, int id, int exp10,
                  struct pl_run *run, struct pl_error *err)
{
	const cJSON *m;
	const char *unit = NULL;
	int rc0;

	if ((rc0 = metric_obj(obj, key, &m, &unit, err)) != 0)
		return rc0 > 0 ? 0 : rc0;
	if (want && strcmp(unit, want) != 0) {
		pl_error_field(err, key);
		return pl_error_set(err, PL_EINVALID, "unknown unit '%s' in '%s' (expected %s)", unit, key,
		                    want);
	}
	return pl_json_metric(m, "avg", id, exp10, run, err);
}

static int config(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const cJSON *ic = pl_json_get(obj, "input_config");
	const cJSON *ep = pl_json_get(ic, "endpoint");
	const cJSON *lg = pl_json_get(ic, "loadgen");
	const cJSON *in = pl_json_get(ic, "input");
	const cJSON *prompt = pl_json_get(in, "prompt");
	const cJSON *names = pl_json_get(ep, "model_names");
	const char *start = NULL;
	int rc;

	if (cJSON_IsArray(names) && cJSON_IsString(cJSON_GetArrayItem(names, 0)) &&
	    (rc = pl_json_set_cond(run, PL_C_MODEL, cJSON_GetArrayItem(names, 0), "model_names", err)))
		return rc;
	if ((rc = pl_json_cond(ep, "streaming", PL_C_STREAMING, run, err)) ||
	    (rc = pl_json_cond(lg, "concurrency", PL_C_CONCURRENCY, run, err)) ||
	    (rc = pl_json_cond(lg, "request_rate", PL_C_REQUEST_RATE, run, err)) ||
	    (rc = pl_json_cond(lg, "warmup_request_count", PL_C_WARMUP_REQUESTS, run, err)) ||
	    (rc = pl_json_cond(in, "public_dataset", PL_C_DATASET, run, err)) ||
	    (rc = pl_json_cond(pl_json_get(prompt, "input_tokens"), "mean", PL_C_INPUT_TOKENS, run, err)) ||
	    (rc = pl_json_cond(pl_json_get(prompt, "output_tokens"), "mean", PL_C_MAX_OUTPUT_TOKENS, run,
	                       err)))
		return rc;
	rc = pl_json_get_string(obj, "start_time", &start, err);
	if (rc < 0)
		return rc;
	if (rc == 0 && strlen(start) >= 19 && start[10] == 'T') {
		char iso[20];
		snprintf(iso, sizeof(iso), "%.19s", start);
		if ((rc = pl_run_set_cond(run, PL_C_RUN_STARTED_AT, iso, err)))
			return rc;
	}
	return 0;
}

/* Multi-turn settings and goodput's SLO from input_config.input. */
static int workload(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const cJSON *in = pl_json_get(pl_json_get(obj, "input_config"), "input");
	const cJSON *conv = pl_json_get(in, "conversation"), *gp = pl_json_get(in, "goodput");
	int rc;

	if ((rc = pl_json_cond(conv, "num", PL_C_CONVERSATION_COUNT, run, err)) ||
	    (rc = pl_json_cond(pl_json_get(conv, "turn"), "mean", PL_C_TURNS_PER_CONVERSATION, run, err)) ||
	    (rc = pl_json_cond(in, "custom_dataset_type", PL_C_DATASET_TYPE, run, err)))
		return rc;
	if (cJSON_IsObject(gp)) { /* an SLO on a metric without a slot: the SLO is not stored whole */
		const cJSON *it;
		cJSON_ArrayForEach(it, gp)
		{
			if (strcmp(it->string, "time_to_first_token") != 0 &&
			    strcmp(it->string, "inter_token_latency") != 0 &&
			    strcmp(it->string, "request_latency") != 0)
				return 0;
		}
	}
	if ((rc = pl_json_metric(gp, "time_to_first_token", PL_M_GOODPUT_SLO_TTFT, -3, run, err)) ||
	    (rc = pl_json_metric(gp, "inter_token_latency", PL_M_GOODPUT_SLO_TPOT, -3, run, err)) ||
	    (rc = pl_json_metric(gp, "request_latency", PL_M_GOODPUT_SLO_E2EL, -3, run, err)))
		return rc;
	return 0;
}

/* output_includes_reasoning from AIPerf's reasoning token counts: its
 * output_sequence_length and output throughputs count reasoning tokens, so
 * a count above 0 means the run's output figures include them; a count of
 * 0 means they include none. No count leaves the condition missing. */
static int reasoning(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	static const char *const keys[] = {"reasoning_token_count", "total_reasoning_tokens"};

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const cJSON *m = pl_json_get(obj, keys[k]);
		double v = 0;
		int rc;

		if (!is_metric_obj(m))
			continue;
		if ((rc = pl_json_get_number(m, "avg", &v, err)) < 0)
			return rc;
		if (rc == 0)
			return pl_run_set_cond(run, PL_C_OUTPUT_INCLUDES_REASONING, v > 0 ? "true" : "false",
			                       err);
	}
	return 0;
}

static const char *tool_name(const cJSON *obj)
{
	const cJSON *ic = pl_json_get(obj, "input_config");
	const cJSON *cli = pl_json_get(ic, "cli_command");

	if (pl_json_get(obj, "aiperf_version") || pl_json_get(ic, "loadgen"))
		return "aiperf";
	if (cJSON_IsString(cli) && strncmp(cli->valuestring, "aiperf", 6) == 0)
		return "aiperf";
	return "genai-perf";
}

static int aiperf_convert(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const char *s = NULL;
	const cJSON *es = pl_json_get(obj, "error_summary");
	double completed = 0, failed = -1;
	int rc;

	rc = pl_json_get_string(obj, "schema_version", &s, err);
	if (rc < 0 || (rc == 0 && pl_strset(&run->format_version, s)))
		return rc < 0 ? rc : pl_error_set(err, PL_ENOMEM, "out of memory");
	if ((rc = pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, tool_name(obj), err)) ||
	    (rc = pl_json_cond(obj, "aiperf_version", PL_C_BENCHMARK_TOOL_VERSION, run, err)) ||
	    (rc = config(obj, run, err)) || (rc = workload(obj, run, err)) ||
	    (rc = reasoning(obj, run, err)))
		return rc;
	if ((rc = single(obj, "request_count", "requests", PL_M_REQUESTS_COMPLETED, 0, run, err)) ||
	    (rc = single(obj, "error_request_count", "requests", PL_M_REQUESTS_FAILED, 0, run, err)))
		return rc;
	if (run->has_metric[PL_M_REQUESTS_COMPLETED])
		completed = run->metric[PL_M_REQUESTS_COMPLETED];
	if (run->has_metric[PL_M_REQUESTS_FAILED])
		failed = run->metric[PL_M_REQUESTS_FAILED];
	else if (cJSON_IsArray(es) && cJSON_GetArraySize(es) == 0)
		failed = 0;
	if ((rc = pl_adapter_requests(run, completed, failed, "request_count", err)))
		return rc;
	if ((rc = family(obj, "time_to_first_token", "ttft", 1, run, err)) ||
	    (rc = family(obj, "inter_token_latency", "tpot", 1, run, err)) ||
	    (rc = family(obj, "inter_chunk_latency", "itl", 1, run, err)) ||
	    (rc = family(obj, "request_latency", "e2el", 1, run, err)) ||
	    (rc = family(obj, "output_token_throughput_per_user", "tokens_per_second", 0, run, err)) ||
	    (rc = single(obj, "request_throughput", "requests/sec", PL_M_REQUEST_THROUGHPUT, 0, run, err)) ||
	    (rc = single(obj, "output_token_throughput", "tokens/sec", PL_M_OUTPUT_THROUGHPUT, 0, run, err)) ||
	    (rc = single(obj, "total_token_throughput", "tokens/sec", PL_M_TOTAL_TOKEN_THROUGHPUT, 0, run, err)) ||
	    (rc = single(obj, "goodput", "requests/sec", PL_M_GOODPUT, 0, run, err)) ||
	    (rc = single(obj, "input_sequence_length", "tokens", PL_M_INPUT_TOKENS_MEAN, 0, run, err)) ||
	    (rc = single(obj, "output_sequence_length", "tokens", PL_M_OUTPUT_TOKENS_MEAN, 0, run, err)) ||
	    (rc = single(obj, "total_isl", "tokens", PL_M_TOTAL_INPUT_TOKENS, 0, run, err)) ||
	    (rc = single(obj, "total_osl", "tokens", PL_M_TOTAL_OUTPUT_TOKENS, 0, run, err)) ||
	    (rc = single(obj, "benchmark_duration", "sec", PL_M_DURATION, 0, run, err)) ||
	    (rc = single(obj, "effective_concurrency", "requests", PL_M_CONCURRENCY_MEAN, 0, run, err)))
		return rc;
	return 0;
}

static int aiperf_parse(struct pl_adapter_input *in, struct pl_run_list *out, struct pl_error *err)
{
	return pl_adapter_records(&pl_adapter_aiperf, in, aiperf_convert, out, err);
}

const struct pl_adapter_impl pl_adapter_aiperf = {
	.info = &aiperf_info,
	.detect = aiperf_detect,
	.parse = aiperf_parse,
};
