/*
 * vllm_serving.c — vLLM benchmark_serving.py / `vllm bench serve` results.
 *
 * One result object per run (a `vllm bench sweep` summary.json is an array
 * of them; the registry hands us one element at a time). Latencies come as
 * <stat>_<family>_ms and are converted to seconds; percentiles without a
 * canonical slot (p25, p75, ...) and the keys listed in schema/formats.md as
 * "not stored" are ignored. The file does not say which engine served the
 * requests: "backend" is the client API and goes to api_backend, and the
 * engine stays missing unless a sidecar or --set gives it.
 *
 * The endpoint: newer files write "endpoint_type" next to "backend" (both
 * name the client: openai = /v1/completions, openai-chat =
 * /v1/chat/completions, whose E2EL and TPOT are accounted differently).
 * When they agree, or only one is given, that value is api_backend; when
 * they disagree, backend stays api_backend and endpoint_type is kept as the
 * extra condition vllm-serving.endpoint_type, so the disagreement is never
 * lost and two such runs never pool with runs that agree.
 *
 * The arrival process: "burstiness" (gamma shape; 1 = Poisson) is a
 * condition. A run with --ramp-up-strategy writes "request_rate": "inf"
 * (the CLI requires it) plus ramp_up_strategy / ramp_up_start_rps /
 * ramp_up_end_rps: the rate is the ramp, so such a run is stored with its
 * ramp conditions and no request_rate (an "inf" there would read as all
 * requests at once); a finite request_rate next to a ramp is kept as given.
 *
 * The realized workload (input_tokens_mean, output_tokens_mean) is derived
 * from total_input_tokens / total_output_tokens and completed by
 * pl_validate_run(), for every adapter.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"
#include "adapters/requests_impl.h"

static const char *const vllm_mapping[] = {
	"model_id -> model (as is)",
	"backend -> api_backend (the client API, not the engine)",
	"date (YYYYMMDD-HHMMSS, local time) -> run_started_at YYYY-MM-DDTHH:MM:SS (no zone)",
	"num_prompts -> num_prompts",
	"request_rate (number, \"inf\" or Infinity) -> request_rate (req/s)",
	"max_concurrency -> concurrency (null -> missing)",
	"burstiness -> burstiness (1 = Poisson arrivals)",
	"ramp_up_strategy -> ramp_up_strategy; ramp_up_start_rps, ramp_up_end_rps -> same (req/s)",
	"request_rate \"inf\" with a ramp_up_strategy -> request_rate missing (the rate is the ramp)",
	"max_num_seqs (sweep server parameter) -> max_num_seqs",
	"endpoint_type -> api_backend when backend is absent or equal; else kept as extra vllm-serving.endpoint_type",
	"(constant) -> benchmark_tool = vllm-bench-serve",
	"mean_<f>_ms -> <f>_mean (s, / 1000) for f in ttft, tpot, itl, e2el",
	"median_<f>_ms -> <f>_p50 (s, / 1000)",
	"std_<f>_ms -> <f>_std (s, / 1000)",
	"p50/p90/p95/p99_<f>_ms -> <f>_p50/p90/p95/p99 (s, / 1000)",
	"p99.9_<f>_ms -> <f>_p99_9 (s, / 1000); other percentiles ignored",
	"output_throughput -> output_throughput (tok/s)",
	"total_token_throughput -> total_token_throughput (tok/s)",
	"request_throughput -> request_throughput (req/s)",
	"request_goodput, \"request_goodput:\" -> goodput (req/s; null -> missing)",
	"completed -> requests_completed; failed -> requests_failed (count)",
	"failed / (completed + failed), else (num_prompts - completed) / num_prompts -> error_rate",
	"duration -> duration (s)",
	"total_input_tokens, total_output_tokens -> same (count)",
	"total_input_tokens / completed -> input_tokens_mean; total_output_tokens / completed -> output_tokens_mean (derived on validation)",
	"spec_decode_acceptance_rate (%) -> spec_acceptance_rate (fraction, / 100); spec_decode_acceptance_length -> spec_acceptance_length",
	"spec_decode_* present -> speculative_method = unknown unless engine_args, a sidecar or --set name the method",
	"structured_output_ratio -> structured_output_ratio (0..1); correct_rate(%) -> correct_rate (fraction, / 100)",
	NULL,
};

static const struct pl_field vllm_fields[] = {
	{"model_id", PL_FATE_CONDITION, "model (as is; may be a local snapshot path)"},
	{"backend", PL_FATE_CONDITION, "api_backend (the client API and endpoint, not the engine)"},
	{"date", PL_FATE_CONDITION, "run_started_at (YYYYMMDD-HHMMSS local time, no zone)"},
	{"num_prompts", PL_FATE_CONDITION, "num_prompts"},
	{"request_rate", PL_FATE_DERIVED,
	 "request_rate (req/s; inf = all at once), unless a ramp_up_strategy is given: then the "
	 "rate is the ramp (ramp_up_*) and vLLM's \"inf\" is not stored"},
	{"max_concurrency", PL_FATE_CONDITION, "concurrency (null -> missing)"},
	{"burstiness", PL_FATE_CONDITION, "burstiness (gamma shape; 1 = Poisson arrivals)"},
	{"ramp_up_strategy", PL_FATE_CONDITION, "ramp_up_strategy"},
	{"ramp_up_start_rps", PL_FATE_CONDITION, "ramp_up_start_rps (req/s)"},
	{"ramp_up_end_rps", PL_FATE_CONDITION, "ramp_up_end_rps (req/s)"},
	{"{mean,median,std,min,max,p50,p90,p95,p99,p99.9}_{ttft,tpot,itl,e2el}_ms", PL_FATE_METRIC,
	 "<f>_<stat> (s, ms / 1000; median = p50, p99.9 = p99_9; p50 only without median)"},
	{"p{0,1,2,3,4,5,6,7,8,9}*_{ttft,tpot,itl,e2el}_ms", PL_FATE_IGNORED,
	 "a percentile without a canonical slot (p25, p75, ...)"},
	{"output_throughput", PL_FATE_METRIC, "output_throughput (tok/s)"},
	{"total_token_throughput", PL_FATE_METRIC, "total_token_throughput (tok/s)"},
	{"request_throughput", PL_FATE_METRIC, "request_throughput (req/s)"},
	{"{request_goodput,request_goodput:}", PL_FATE_METRIC, "goodput (req/s; null -> missing; the stray colon of 2025 files too)"},
	{"completed", PL_FATE_METRIC, "requests_completed (count); with failed or num_prompts -> error_rate"},
	{"failed", PL_FATE_METRIC, "requests_failed (count); failed / (completed + failed) -> error_rate"},
	{"duration", PL_FATE_METRIC, "duration (s)"},
	{"total_input_tokens", PL_FATE_METRIC, "total_input_tokens (count); / completed -> input_tokens_mean"},
	{"total_output_tokens", PL_FATE_METRIC, "total_output_tokens (count); / completed -> output_tokens_mean"},
	{"rps_change_events", PL_FATE_IGNORED, "the ramp's timeline; the ramp is stored as ramp_up_*"},
	{"{tokenizer_id,best_of}", PL_FATE_EXTRA,
	 "the client's tokenizer (it counts the tokens) and completions per prompt: settings with no "
	 "canonical field"},
	{"label", PL_FATE_IGNORED, "a free-text name the user gave the result file: provenance"},
	{"endpoint_type", PL_FATE_DERIVED,
	 "api_backend when backend is absent; kept as the extra vllm-serving.endpoint_type when it "
	 "differs from backend"},
	{"rtfx", PL_FATE_IGNORED, "audio real-time factor, not a text-generation measure"},
	{"{max_output_tokens_per_s,max_concurrent_requests}", PL_FATE_IGNORED,
	 "measured peaks, not settings; no canonical metric"},
	{"run_number", PL_FATE_IGNORED, "sweep run index; the record index identifies the run"},
	{"max_num_seqs", PL_FATE_CONDITION, "max_num_seqs (the sweep's engine limit on sequences per batch)"},
	{"spec_decode_acceptance_rate", PL_FATE_METRIC,
	 "spec_acceptance_rate (fraction, percent / 100); with any spec_decode_* key -> "
	 "speculative_method = unknown unless the launch flags name it"},
	{"spec_decode_acceptance_length", PL_FATE_METRIC, "spec_acceptance_length (tokens per step)"},
	{"spec_decode_per_position_acceptance_rates", PL_FATE_METRIC,
	 "spec_acceptance_rate_pos1 .. pos8 (each a fraction 0..1, the list in position order); a "
	 "list of more than 8 positions, or one holding anything but numbers, is also kept whole as "
	 "the unplaced measurement vllm-serving.spec_decode_per_position_acceptance_rates"},
	{"structured_output_ratio", PL_FATE_CONDITION,
	 "structured_output_ratio (benchmark_serving_structured_output.py; share of requests, 0..1)"},
	{"correct_rate(%)", PL_FATE_METRIC, "correct_rate (fraction, percent / 100)"},
	{"{input_lens,output_lens,ttfts,itls,errors}", PL_FATE_DERIVED,
	 "the run's requests (--save-detailed): kept per request, in the run_requests table "
	 "(docs/requests.md)"},
	{"generated_texts", PL_FATE_IGNORED, "the generated text of each request: not a measure"},
	{NULL, 0, NULL},
};

/* Where unknown keys sit: vLLM writes a result of speculative decoding as
 * spec_decode_* (acceptance rate and length, drafts, per-position rates). */
static const struct pl_section vllm_sections[] = {
	{"spec_decode_*", PL_PLACE_RESULT},
	{NULL, 0},
};

static const struct pl_format_version vllm_inventory[] = {
	{.version = "", .note = "benchmark_serving.py --save-result and vllm bench serve / sweep (to 0.25.1); the files carry no version",
	 .fields = vllm_fields, .sections = vllm_sections},
	{.version = NULL},
};

static const struct pl_adapter_info vllm_info = {
	.name = "vllm-serving",
	.versions = "benchmark_serving.py --save-result (2024-2025), vllm bench serve / sweep (to 0.25)",
	.description = "vLLM serving benchmark result JSON (benchmark_serving.py, vllm bench serve/sweep)",
	.mapping = vllm_mapping,
	.inventory = vllm_inventory,
};

static const char *const families[] = {"ttft", "tpot", "itl", "e2el", NULL};

static int has_ttft_ms_key(const cJSON *obj)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, obj)
	{
		size_t n = it->string ? strlen(it->string) : 0;
		if (n > 8 && strcmp(it->string + n - 8, "_ttft_ms") == 0)
			return 1;
	}
	return 0;
}

static int vllm_detect(struct pl_adapter_input *in)
{
	const cJSON *obj = pl_adapter_input_first(in);

	return obj && pl_json_get(obj, "date") &&
	       (pl_json_get(obj, "num_prompts") || pl_json_get(obj, "backend")) &&
	       has_ttft_ms_key(obj);
}

/* Canonical statistic for a vLLM statistic prefix, or NULL if it has no slot. */
static const char *stat_slot(const char *s, size_t n)
{
	static const struct {
		const char *vllm;
		const char *canonical;
	} map[] = {
		{"mean", "mean"}, {"median", "p50"}, {"std", "std"}, {"min", "min"},
		{"max", "max"},   {"p50", "p50"},    {"p90", "p90"}, {"p95", "p95"},
		{"p99", "p99"},   {"p99.9", "p99_9"},
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strlen(map[i].vllm) == n && strncmp(s, map[i].vllm, n) == 0)
			return map[i].canonical;
	return NULL;
}

/* Maps "<stat>_<family>_ms" keys; other keys are left alone. */
static int convert_latencies(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const cJSON *it;
	int have_median[4] = {0};

	for (int f = 0; families[f]; f++) {
		char key[32];
		snprintf(key, sizeof(key), "median_%s_ms", families[f]);
		const cJSON *m = pl_json_get(obj, key);
		have_median[f] = m && !cJSON_IsNull(m);
	}
	cJSON_ArrayForEach(it, obj)
	{
		const char *k = it->string;
		size_t n = strlen(k);
		for (int f = 0; families[f]; f++) {
			char tail[16], name[48];
			size_t tl;
			const char *slot;
			double v;
			int id, rc;

			tl = (size_t)snprintf(tail, sizeof(tail), "_%s_ms", families[f]);
			if (n <= tl || strcmp(k + n - tl, tail) != 0)
				continue;
			slot = stat_slot(k, n - tl);
			if (!slot)
				break; /* a percentile without a canonical slot: ignored */
			if (strncmp(k, "p50", 3) == 0 && have_median[f])
				break; /* median_ wins; the two are the same statistic */
			rc = pl_json_get_number(obj, k, &v, err);
			if (rc < 0)
				return rc;
			if (rc == 0) {
				snprintf(name, sizeof(name), "%s_%s", families[f], slot);
				id = pl_metric_lookup(name);
				if ((rc = pl_adapter_metric(run, id, v, -3, k, 0, err)))
					return rc;
			}
			break;
		}
	}
	return 0;
}

/* "20250304-014141" -> "2025-03-04T01:41:41". */
static int convert_date(const char *date, struct pl_run *run, struct pl_error *err)
{
	char iso[24];

	if (strlen(date) != 15 || date[8] != '-' || strspn(date, "0123456789") != 8 ||
	    strspn(date + 9, "0123456789") != 6) {
		pl_error_field(err, "date");
		return pl_error_set(err, PL_EINVALID,
		                    "'date' must look like 20250304-014141 (YYYYMMDD-HHMMSS), got \"%.40s\"",
		                    date);
	}
	snprintf(iso, sizeof(iso), "%.4s-%.2s-%.2sT%.2s:%.2s:%.2s", date, date + 4, date + 6,
	         date + 9, date + 11, date + 13);
	return pl_run_set_cond(run, PL_C_RUN_STARTED_AT, iso, err);
}

/* backend and endpoint_type -> api_backend, or the extra
 * vllm-serving.endpoint_type when the two disagree (see the top of the file). */
static int convert_endpoint(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const char *backend = NULL, *endpoint = NULL;
	int rc;

	rc = pl_json_get_string(obj, "backend", &backend, err);
	if (rc < 0)
		return rc;
	rc = pl_json_get_string(obj, "endpoint_type", &endpoint, err);
	if (rc < 0)
		return rc;
	if (backend && !*backend)
		backend = NULL;
	if (endpoint && !*endpoint)
		endpoint = NULL;
	if (backend && (rc = pl_run_set_cond(run, PL_C_API_BACKEND, backend, err)))
		return rc;
	if (!endpoint)
		return 0;
	if (!backend)
		return pl_run_set_cond(run, PL_C_API_BACKEND, endpoint, err);
	if (strcmp(backend, endpoint) == 0)
		return 0;
	return pl_run_set_extra(run, "vllm-serving.endpoint_type", endpoint, err);
}

/* burstiness and the ramp-up (see the top of the file), and the engine's
 * max_num_seqs a `vllm bench sweep` records; request_rate is set. */
static int convert_arrivals(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	int rc;

	if ((rc = pl_json_cond(obj, "burstiness", PL_C_BURSTINESS, run, err)) ||
	    (rc = pl_json_cond(obj, "ramp_up_strategy", PL_C_RAMP_UP_STRATEGY, run, err)) ||
	    (rc = pl_json_cond(obj, "ramp_up_start_rps", PL_C_RAMP_UP_START_RPS, run, err)) ||
	    (rc = pl_json_cond(obj, "ramp_up_end_rps", PL_C_RAMP_UP_END_RPS, run, err)) ||
	    (rc = pl_json_cond(obj, "max_num_seqs", PL_C_MAX_NUM_SEQS, run, err)))
		return rc;
	if (run->cond[PL_C_RAMP_UP_STRATEGY].set && run->cond[PL_C_REQUEST_RATE].set &&
	    isinf(run->cond[PL_C_REQUEST_RATE].num))
		return pl_run_set_cond(run, PL_C_REQUEST_RATE, NULL, err);
	return 0;
}

/* spec_decode_per_position_acceptance_rates (fractions, in position
 * order) as the metrics spec_acceptance_rate_pos1 ..; a null element is a
 * position not recorded. A list longer than PL_SPEC_POSITIONS or with an
 * element that is neither a number nor null is also kept whole as the
 * unplaced measurement (nothing lost); a value that is not a list is
 * refused. */
static int convert_positions(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	static const char key[] = "spec_decode_per_position_acceptance_rates";
	const cJSON *list = pl_json_get(obj, key), *it;
	int k = 0, whole = 0;

	if (!list || cJSON_IsNull(list))
		return 0;
	if (!cJSON_IsArray(list))
		return pl_error_set(err, PL_EINVALID, "'%s' must be a list of numbers", key);
	cJSON_ArrayForEach(it, list)
	{
		if (k >= PL_SPEC_POSITIONS || !(cJSON_IsNumber(it) || cJSON_IsNull(it)))
			whole = 1;
		else if (cJSON_IsNumber(it))
			pl_run_set_metric(run, PL_M_SPEC_ACCEPTANCE_RATE_POS1 + k, it->valuedouble);
		k++;
	}
	if (whole) {
		char *text = cJSON_PrintUnformatted(list);
		int rc = text ? pl_run_set_measure(run, "vllm-serving.spec_decode_per_position_acceptance_rates",
		                                   0, text, err)
		              : pl_error_set(err, PL_ENOMEM, "out of memory");
		cJSON_free(text);
		return rc;
	}
	return 0;
}

/* Speculative decoding: the acceptance metrics (vLLM writes the rate in
 * percent), and speculative_method "unknown" when the file shows
 * speculative decoding (any spec_decode_* value) without the method,
 * which the launch flags (engine_args) or --set may name. */
static int convert_spec(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const cJSON *it;
	int rc, shown = 0;

	if ((rc = pl_json_metric(obj, "spec_decode_acceptance_rate", PL_M_SPEC_ACCEPTANCE_RATE, -2, run,
	                         err)) ||
	    (rc = pl_json_metric(obj, "spec_decode_acceptance_length", PL_M_SPEC_ACCEPTANCE_LENGTH, 0,
	                         run, err)) ||
	    (rc = convert_positions(obj, run, err)))
		return rc;
	cJSON_ArrayForEach(it, obj)
	{
		if (it->string && strncmp(it->string, "spec_decode_", 12) == 0 && !cJSON_IsNull(it))
			shown = 1;
	}
	if (shown && !run->cond[PL_C_SPECULATIVE_METHOD].set)
		return pl_run_set_cond(run, PL_C_SPECULATIVE_METHOD, PL_SPEC_UNKNOWN, err);
	return 0;
}

static int vllm_convert(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const char *s;
	double completed = 0, failed = 0, prompts = 0;
	int has_completed, has_failed, has_prompts, rc;

	rc = pl_json_get_string(obj, "model_id", &s, err);
	if (rc < 0 || (rc == 0 && (rc = pl_run_set_cond(run, PL_C_MODEL, s, err))))
		return rc;
	if ((rc = convert_endpoint(obj, run, err)))
		return rc;
	rc = pl_json_get_string(obj, "date", &s, err);
	if (rc < 0 || (rc == 0 && (rc = convert_date(s, run, err))))
		return rc;
	rc = pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, "vllm-bench-serve", err);
	if (rc)
		return rc;
	if ((rc = pl_json_set_cond(run, PL_C_REQUEST_RATE, pl_json_get(obj, "request_rate"),
	                           "request_rate", err)) ||
	    (rc = pl_json_set_cond(run, PL_C_CONCURRENCY, pl_json_get(obj, "max_concurrency"),
	                           "max_concurrency", err)) ||
	    (rc = convert_arrivals(obj, run, err)))
		return rc;

	rc = pl_json_get_count(obj, "num_prompts", &prompts, err);
	if (rc < 0)
		return rc;
	has_prompts = rc == 0;
	if (has_prompts && (rc = pl_run_set_cond_num(run, PL_C_NUM_PROMPTS, prompts, err)))
		return rc;
	rc = pl_json_get_count(obj, "completed", &completed, err);
	if (rc < 0)
		return rc;
	has_completed = rc == 0;
	rc = pl_json_get_count(obj, "failed", &failed, err);
	if (rc < 0)
		return rc;
	has_failed = rc == 0;

	/* completed 0: a failed run (pl_run_failed), stored and flagged */
	if (has_completed)
		pl_run_set_metric(run, PL_M_REQUESTS_COMPLETED, completed);
	if (has_failed)
		pl_run_set_metric(run, PL_M_REQUESTS_FAILED, failed);
	if (has_failed && has_completed && completed + failed > 0)
		pl_run_set_metric(run, PL_M_ERROR_RATE, failed / (completed + failed));
	else if (!has_failed && has_completed && has_prompts && prompts > 0)
		pl_run_set_metric(run, PL_M_ERROR_RATE, (prompts - completed) / prompts);

	if ((rc = pl_json_metric(obj, "duration", PL_M_DURATION, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "total_input_tokens", PL_M_TOTAL_INPUT_TOKENS, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "total_output_tokens", PL_M_TOTAL_OUTPUT_TOKENS, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "request_throughput", PL_M_REQUEST_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "output_throughput", PL_M_OUTPUT_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "total_token_throughput", PL_M_TOTAL_TOKEN_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "request_goodput:", PL_M_GOODPUT, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "request_goodput", PL_M_GOODPUT, 0, run, err)) ||
	    (rc = pl_json_metric(obj, "correct_rate(%)", PL_M_CORRECT_RATE, -2, run, err)) ||
	    (rc = pl_json_cond(obj, "structured_output_ratio", PL_C_STRUCTURED_OUTPUT_RATIO, run, err)) ||
	    (rc = convert_spec(obj, run, err)) ||
	    (rc = pl_requests_from_vllm(obj, run, err)))
		return rc;
	return convert_latencies(obj, run, err);
}

static int vllm_parse(struct pl_adapter_input *in, struct pl_run_list *out, struct pl_error *err)
{
	return pl_adapter_records(&pl_adapter_vllm_serving, in, vllm_convert, out, err);
}

const struct pl_adapter_impl pl_adapter_vllm_serving = {
	.info = &vllm_info,
	.detect = vllm_detect,
	.parse = vllm_parse,
};
