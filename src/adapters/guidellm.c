/*
 * guidellm.c — GuideLLM benchmark reports: 0.2.x JSON and YAML, 0.4, 0.5 and
 * version-2 (0.8) JSON.
 *
 * A report holds a list "benchmarks"; each benchmark is one run (record =
 * its index). Statistics are given per request status (successful, errored,
 * incomplete, total); the stored ones are those of the successful requests.
 * Units are by key and explicit: request_latency is in seconds,
 * time_to_first_token_ms / time_per_output_token_ms / inter_token_latency_ms
 * in milliseconds. Percentile keys p001..p999 map p50, p90, p95, p99 and
 * p999 to canonical names; p001, p01, p05, p10, p25, p75 are ignored; the
 * 0.2 reports have no p50 and give "median" instead.
 * Warm-up: 0.2 records warmup_number (requests: stored) or warmup_duration
 * (seconds: not a request count, so warmup_requests stays missing, with a
 * warning); both null means no warm-up (0). 0.5 records warmup as
 * {percent, value, mode}: a percent or a duration is not a request count
 * (missing, with a warning); both null means none (0).
 * Layouts, told apart by their structure, never by guessing:
 *   0.2 / 0.3  no metadata; each benchmark has args or request_totals;
 *   0.4        no metadata; top-level args, each benchmark a config (strategy,
 *              warmup, backend) and metrics.request_totals, as 0.5 has;
 *   0.5 - 0.7  metadata.version 1 (metadata.guidellm_version), the 0.4 layout;
 *   0.8        metadata.version 2: no top-level args, a top-level config.spec
 *              (backend, profile, data) instead; benchmarks as in 0.5.
 * A report in none of these layouts (another metadata.version, or no
 * metadata and neither 0.2 nor 0.4 benchmarks) is refused naming what it
 * has, and so is a load strategy not listed in the mapping (a replay
 * without its trace, say): a load that is not read would be lost.
 * The file is parsed whole (JSON by json_util, YAML by yaml_util) through
 * the registry's text hooks, because one file holds several runs.
 * The adapter is detected from the bytes (the YAML form is no JSON); the
 * JSON form is the input's parsed document, the YAML form is parsed by
 * yaml_util. Every benchmark's keys and the report's own keys are walked
 * against the inventory of its layout.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"
#include "adapters/yaml_util.h"
#include "util/buf.h"

static const char *const guidellm_mapping[] = {
	"benchmarks[i] -> one run, record = i; metadata.version 1 (0.5-0.7), 2 (0.8) -> format_version; "
	"no metadata: \"0.2\" (benchmarks with args or request_totals) or \"0.4\" (top-level args, "
	"benchmarks with config and metrics.request_totals); other versions and layouts -> rejected",
	"metadata.guidellm_version (0.5 on) -> benchmark_tool_version; (constant) -> benchmark_tool = guidellm",
	"0.2: worker.backend_model -> model; 0.4 on: config.backend.model (else args.model; v2: "
	"config.spec.backend.model) -> model",
	"0.2: request_loader.data \"prompt_tokens=N,output_tokens=M\" -> input_tokens, max_output_tokens",
	"0.4, 0.5: args.data (one entry) -> dataset; a synthetic \"prompt_tokens=N,output_tokens=M\" "
	"also -> input_tokens, max_output_tokens",
	"v2: config.spec.data (each entry: kind and its non-null settings as text, \"; \" between "
	"entries) -> dataset; synthetic_text prompt_tokens / output_tokens -> input_tokens / "
	"max_output_tokens when fixed (stdev, min, max null)",
	"v2: a single synthetic_text entry's turns -> turns_per_conversation (absent -> 1: single-turn; "
	"turns 1 is left out of the dataset text); its other conversation settings (delay, tool_call_turns, "
	"branches, first_*) stay in the dataset text",
	"v2 replay: strategy replay -> trace = config.spec.data path; time_scale (data entry, or "
	"profile) -> trace_time_scale; replay without a trace path -> rejected",
	"v2: config.spec.profile.max_concurrency (non-null, open loop) -> extra guidellm.max_concurrency; "
	"strategy rampup_duration > 0 -> extra guidellm.rampup_duration (s)",
	"other strategy types -> rejected naming the type",
	"strategy synchronous -> concurrency 1; concurrent -> concurrency = streams (or max_concurrency)",
	"strategy constant / poisson -> request_rate = rate; throughput -> request_rate inf "
	"(concurrency = max_concurrency when given)",
	"0.2 args.warmup_number -> warmup_requests; warmup_duration (s) -> missing + warning; both null -> 0",
	"0.5 config.warmup.value / percent -> missing + warning (a duration or fraction, not requests); "
	"both null -> 0",
	"request_totals (0.2) / metrics.request_totals (0.5): successful -> requests_completed "
	"(0 -> a failed run), errored -> requests_failed; incomplete (cut off at the end) not counted",
	"error_rate = errored / (successful + errored)",
	"metrics.<m>.successful: mean -> _mean, median (or p50) -> _p50, std_dev -> _std, min, max, "
	"percentiles p90, p95, p99, p999 -> _p90, _p95, _p99, _p99_9; p001..p75 ignored",
	"time_to_first_token_ms -> ttft (ms / 1000); time_per_output_token_ms -> tpot (ms); "
	"inter_token_latency_ms -> itl (ms); request_latency -> e2el (s)",
	"output_tokens_per_second.successful.mean -> output_throughput; tokens_per_second.successful.mean "
	"-> total_token_throughput; requests_per_second.successful.mean -> request_throughput",
	"prompt_token_count / output_token_count .successful.mean -> input_tokens_mean / output_tokens_mean",
	"request_concurrency.successful.mean -> concurrency_mean (measured); duration -> duration (s); "
	"start_time -> run_started_at",
	"text/words/characters, image, video, audio blocks (0.5) -> not stored (not tokens/s)",
	NULL,
};

static const struct pl_field guidellm_common[] = {
	{"benchmarks", PL_FATE_RECORDS, "one run per element (record = index); its keys are benchmarks[].<key>"},
	{"benchmarks[].duration", PL_FATE_METRIC, "duration (s)"},
	{"benchmarks[].start_time", PL_FATE_CONDITION, "run_started_at (Unix seconds, UTC)"},
	{"benchmarks[].metrics.{time_to_first_token_ms,time_per_output_token_ms,inter_token_latency_ms}",
	 PL_FATE_METRIC, "ttft / tpot / itl _<stat> of the successful requests (s, ms / 1000)"},
	{"benchmarks[].metrics.request_latency", PL_FATE_METRIC, "e2el_<stat> of the successful requests (s)"},
	{"benchmarks[].metrics.output_tokens_per_second", PL_FATE_METRIC, "output_throughput (successful.mean, tok/s)"},
	{"benchmarks[].metrics.tokens_per_second", PL_FATE_METRIC, "total_token_throughput (successful.mean, tok/s)"},
	{"benchmarks[].metrics.requests_per_second", PL_FATE_METRIC, "request_throughput (successful.mean, req/s)"},
	{"benchmarks[].metrics.prompt_token_count", PL_FATE_METRIC, "input_tokens_mean (successful.mean)"},
	{"benchmarks[].metrics.output_token_count", PL_FATE_METRIC, "output_tokens_mean (successful.mean)"},
	{"benchmarks[].metrics.request_concurrency", PL_FATE_METRIC, "concurrency_mean (successful.mean, measured)"},
	{"benchmarks[].requests", PL_FATE_IGNORED, "per-request records; only the summary statistics are stored"},
	{"benchmarks[].metrics.{request_streaming_iterations_count,total_token_count,prompt_tokens_per_second,"
	 "output_tokens_per_iteration,iter_tokens_per_iteration,time_to_first_output_token_ms,"
	 "time_to_last_round_trip_ms,avg_round_trip_time_ms}",
	 PL_FATE_IGNORED, "no canonical metric"},
	{"benchmarks[].type_", PL_FATE_IGNORED, "the record type (generative_benchmark)"},
	{"benchmarks[].{id_,run_id}", PL_FATE_IGNORED, "identifiers of the benchmark"},
	{"benchmarks[].end_time", PL_FATE_IGNORED, "start_time and duration are stored"},
	{"benchmarks[].{warmup_duration,cooldown_duration}", PL_FATE_IGNORED,
	 "seconds spent outside the measured window"},
	{"benchmarks[].{run_stats,scheduler_state,scheduler_metrics}", PL_FATE_IGNORED,
	 "the scheduler's bookkeeping (queue delays, request counts made); the measured requests are request_totals"},
	{"metadata.{python_version,platform}", PL_FATE_IGNORED, "the client's environment, not the server's"},
	{NULL, 0, NULL},
};

static const struct pl_field guidellm_02[] = {
	{"benchmarks[].worker.backend_model", PL_FATE_CONDITION, "model"},
	{"benchmarks[].args.strategy", PL_FATE_CONDITION,
	 "synchronous -> concurrency 1; concurrent -> concurrency = streams; constant / poisson -> "
	 "request_rate = rate; throughput -> request_rate inf (concurrency = max_concurrency)"},
	{"benchmarks[].extras", PL_FATE_EXTRA, "metadata the user attached to the benchmark (kept as given)"},
	{"benchmarks[].args.warmup_number", PL_FATE_CONDITION, "warmup_requests (both warm-up keys null -> 0)"},
	{"benchmarks[].args.warmup_duration", PL_FATE_DERIVED, "a warning: a duration is not a request count"},
	{"benchmarks[].request_loader.data", PL_FATE_CONDITION,
	 "\"prompt_tokens=N,output_tokens=M\" -> input_tokens, max_output_tokens"},
	{"benchmarks[].request_totals", PL_FATE_METRIC,
	 "successful -> requests_completed (0 -> a failed run), errored -> requests_failed, -> error_rate; "
	 "incomplete not counted"},
	{"benchmarks[].args.{max_duration,max_number}", PL_FATE_IGNORED,
	 "limits of the run; what ran is measured (duration, request_totals)"},
	{"benchmarks[].args.{cooldown_duration,cooldown_number}", PL_FATE_IGNORED,
	 "requests after the measured window"},
	{"benchmarks[].args.profile", PL_FATE_IGNORED, "the sweep that made the benchmarks; each one's strategy is read"},
	{"benchmarks[].args.strategy_index", PL_FATE_IGNORED, "the benchmark's position in the sweep"},
	{"benchmarks[].request_loader.{type_,processor,processor_args,data_args}", PL_FATE_IGNORED,
	 "loader and tokenizer settings; the lengths come from request_loader.data"},
	{"benchmarks[].request_samples", PL_FATE_IGNORED, "how many per-request records the report keeps"},
	{"benchmarks[].worker.{type_,backend_type}", PL_FATE_IGNORED, "the kind of client worker (openai_http)"},
	{"benchmarks[].worker.backend_target", PL_FATE_IGNORED, "the server's URL"},
	{"benchmarks[].worker.backend_info.max_output_tokens", PL_FATE_EXTRA,
	 "a client-side cap on output tokens (null = none)"},
	{"benchmarks[].worker.backend_info", PL_FATE_IGNORED,
	 "client connection settings (paths, timeout, HTTP/2, credentials)"},
	{NULL, 0, NULL},
};

static const struct pl_field guidellm_05[] = {
	{"metadata.version", PL_FATE_DERIVED, "format_version"},
	{"metadata.guidellm_version", PL_FATE_CONDITION, "benchmark_tool_version"},
	{"args.model", PL_FATE_CONDITION, "model (when config.backend.model is missing)"},
	{"args.data", PL_FATE_CONDITION, "dataset (when it holds one entry)"},
	{"benchmarks[].config.backend.model", PL_FATE_CONDITION, "model"},
	{"benchmarks[].config.strategy", PL_FATE_CONDITION,
	 "synchronous -> concurrency 1; concurrent -> concurrency = streams; constant / poisson -> "
	 "request_rate = rate; throughput -> request_rate inf (concurrency = max_concurrency)"},
	{"benchmarks[].config.warmup", PL_FATE_CONDITION,
	 "warmup_requests 0 when percent and value are null; else missing with a warning"},
	{"benchmarks[].metrics.request_totals", PL_FATE_METRIC,
	 "successful -> requests_completed (0 -> a failed run), errored -> requests_failed, -> error_rate; "
	 "incomplete not counted"},
	{"benchmarks[].metrics.{text,image,video,audio}", PL_FATE_IGNORED,
	 "words / characters / media per second: not tokens/s"},
	{"benchmarks[].config.{id_,run_id,run_index}", PL_FATE_IGNORED, "identifiers of the benchmark"},
	{"benchmarks[].config.constraints", PL_FATE_IGNORED,
	 "the stopping rule (max requests, seconds, errors); what ran is measured"},
	{"benchmarks[].config.{sample_requests,sample_size}", PL_FATE_IGNORED,
	 "how many per-request records the report keeps"},
	{"benchmarks[].config.cooldown", PL_FATE_IGNORED, "requests after the measured window"},
	{"benchmarks[].config.prefer_response_metrics", PL_FATE_EXTRA,
	 "whether token counts come from the server's usage or the client's tokenizer"},
	{"benchmarks[].config.profile", PL_FATE_IGNORED, "the sweep that made the benchmarks; each one's strategy is read"},
	{"benchmarks[].config.requests", PL_FATE_IGNORED,
	 "the request loader (workers, sampler, preprocessors); the dataset is args.data"},
	{"benchmarks[].config.environment", PL_FATE_IGNORED, "the client's process layout"},
	{"benchmarks[].config.backend.{request_format,stream,max_tokens,extras,multiturn_reasoning}",
	 PL_FATE_EXTRA, "the endpoint (chat or completions) and request options of the client"},
	{"benchmarks[].config.backend.{kind,target,api_key,timeout,timeout_connect,http2,follow_redirects,"
	 "verify,validate_backend,openai_paths,api_routes,server_history,tool_call_missing_behavior}",
	 PL_FATE_IGNORED, "client connection settings (URL, paths, timeouts, credentials)"},
	{"args", PL_FATE_IGNORED,
	 "the command line; each benchmark's settings are read from its config (model and data excepted)"},
	{"config.spec.data", PL_FATE_CONDITION,
	 "dataset (v2: each entry's kind and settings as text); synthetic prompt_tokens / output_tokens "
	 "-> input_tokens / max_output_tokens; synthetic turns -> turns_per_conversation; a replay's "
	 "path -> trace, its time_scale -> trace_time_scale"},
	{"config.spec.backend.model", PL_FATE_CONDITION, "model (v2, when a benchmark's config has none)"},
	{"config.spec.profile.time_scale", PL_FATE_CONDITION, "trace_time_scale (v2 replay)"},
	{"config.spec.profile.{max_concurrency,rampup_duration}", PL_FATE_EXTRA,
	 "open-loop limits of the load (v2): extras guidellm.max_concurrency / guidellm.rampup_duration"},
	{"config", PL_FATE_IGNORED, "the run specification; each benchmark repeats it in its own config"},
	{NULL, 0, NULL},
};

/* Where unknown keys sit: a benchmark's config and the report's args are
 * configuration, its metrics results. */
static const struct pl_section guidellm_sections[] = {
	{"benchmarks[].config", PL_PLACE_CONFIG},
	{"{args,config}", PL_PLACE_CONFIG},
	{"benchmarks[].metrics", PL_PLACE_RESULT},
	{NULL, 0},
};

static const struct pl_format_version guidellm_inventory[] = {
	{.version = "0.2", .note = "GuideLLM 0.2.x / 0.3 reports (no metadata block), JSON or YAML",
	 .fields = guidellm_02, .common = guidellm_common,
	 .sections = guidellm_sections},
	{.version = "0.4", .note = "GuideLLM 0.4 benchmarks.json (no metadata block; top-level args)",
	 .fields = guidellm_05, .common = guidellm_common,
	 .sections = guidellm_sections},
	{.version = "1", .note = "GuideLLM 0.5-0.7 benchmarks.json (metadata.version 1)", .fields = guidellm_05,
	 .common = guidellm_common,
	 .sections = guidellm_sections},
	{.version = "2", .note = "GuideLLM 0.8 report (metadata.version 2; config.spec)",
	 .fields = guidellm_05, .common = guidellm_common,
	 .sections = guidellm_sections},
	{.version = NULL},
};

static const struct pl_adapter_info guidellm_info = {
	.name = "guidellm",
	.versions = "GuideLLM 0.2.x/0.3 report JSON and YAML; 0.4 benchmarks.json (no metadata); 0.5-0.7 "
	            "(metadata.version 1); 0.8 (metadata.version 2, config.spec)",
	.description = "GuideLLM benchmark report (one run per benchmark; JSON or YAML)",
	.mapping = guidellm_mapping,
	.inventory = guidellm_inventory,
};

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcmp(s + n - m, suf) == 0;
}

static int is_yaml(const char *path)
{
	return path && (has_suffix(path, ".yaml") || has_suffix(path, ".yml"));
}

/* A report names its benchmarks' type in the first few KiB. */
static int guidellm_detect(struct pl_adapter_input *in)
{
	const char *path = in->path, *buf = in->buf;
	size_t len = in->len;
	size_t n = len < 16384 ? len : 16384;
	const char *needle = is_yaml(path) ? "type_: generative_benchmark"
	                                   : "\"generative_benchmark\"";
	size_t m = strlen(needle);
	const char *p = buf, *e = buf + n;

	/* memchr to each candidate first byte: every file of a directory walk
	 * that is not a text format comes here, and a byte loop over it was 3%
	 * of the parser thread */
	while ((size_t)(e - p) >= m && (p = memchr(p, needle[0], (size_t)(e - p) - m + 1)) != NULL) {
		if (memcmp(p, needle, m) == 0)
			return 1;
		p++;
	}
	return 0;
}

/* One status block of a distribution, e.g. metrics.request_latency.successful. */
static int dist(const cJSON *metrics, const char *key, const char *fam, int exp10,
                struct pl_run *run, struct pl_error *err)
{
	static const char *const st_in[] = {"mean", "std_dev", "min", "max", NULL};
	static const char *const st_out[] = {"mean", "std", "min", "max"};
	static const char *const pc_in[] = {"p90", "p95", "p99", "p999", NULL};
	static const char *const pc_out[] = {"p90", "p95", "p99", "p99_9"};
	const cJSON *s = pl_json_get(pl_json_get(metrics, key), "successful");
	const cJSON *pc = pl_json_get(s, "percentiles");
	char name[64];
	int rc;

	if (!cJSON_IsObject(s))
		return 0;
	for (int i = 0; st_in[i]; i++) {
		snprintf(name, sizeof(name), "%s_%s", fam, st_out[i]);
		if ((rc = pl_json_metric(s, st_in[i], pl_metric_lookup(name), exp10, run, err)))
			return rc;
	}
	snprintf(name, sizeof(name), "%s_p50", fam);
	if (pl_json_get(pc, "p50"))
		rc = pl_json_metric(pc, "p50", pl_metric_lookup(name), exp10, run, err);
	else
		rc = pl_json_metric(s, "median", pl_metric_lookup(name), exp10, run, err);
	if (rc)
		return rc;
	for (int i = 0; pc_in[i]; i++) {
		snprintf(name, sizeof(name), "%s_%s", fam, pc_out[i]);
		if ((rc = pl_json_metric(pc, pc_in[i], pl_metric_lookup(name), exp10, run, err)))
			return rc;
	}
	return 0;
}

/* The mean of the successful requests' distribution of key -> id. */
static int mean_of(const cJSON *metrics, const char *key, int id, struct pl_run *run,
                   struct pl_error *err)
{
	return pl_json_metric(pl_json_get(pl_json_get(metrics, key), "successful"), "mean", id, 0, run,
	                      err);
}

/* "prompt_tokens=256,output_tokens=128" -> input_tokens, max_output_tokens. */
static int synthetic_lengths(const char *data, struct pl_run *run, struct pl_error *err)
{
	static const struct {
		const char *k;
		int id;
	} keys[] = {{"prompt_tokens=", PL_C_INPUT_TOKENS}, {"output_tokens=", PL_C_MAX_OUTPUT_TOKENS}};

	for (size_t k = 0; k < 2; k++) {
		const char *p = strstr(data, keys[k].k);
		char num[32];
		size_t n;
		int rc;
		if (!p || (p != data && p[-1] != ','))
			continue;
		p += strlen(keys[k].k);
		n = strspn(p, "0123456789");
		if (n == 0 || n >= sizeof(num) || (p[n] != ',' && p[n] != '\0'))
			continue;
		snprintf(num, sizeof(num), "%.*s", (int)n, p);
		if ((rc = pl_run_set_cond(run, keys[k].id, num, err)))
			return rc;
	}
	return 0;
}

static int strategy(const cJSON *st, struct pl_run *run, struct pl_error *err)
{
	const char *type = NULL;
	int rc = pl_json_get_string(st, "type_", &type, err);

	if (rc)
		return rc < 0 ? rc : 0;
	if (strcmp(type, "synchronous") == 0)
		return pl_run_set_cond(run, PL_C_CONCURRENCY, "1", err);
	if (strcmp(type, "concurrent") == 0) {
		if (pl_json_get(st, "streams"))
			return pl_json_cond(st, "streams", PL_C_CONCURRENCY, run, err);
		return pl_json_cond(st, "max_concurrency", PL_C_CONCURRENCY, run, err);
	}
	if (strcmp(type, "constant") == 0 || strcmp(type, "poisson") == 0)
		return pl_json_cond(st, "rate", PL_C_REQUEST_RATE, run, err);
	if (strcmp(type, "throughput") == 0) {
		if ((rc = pl_run_set_cond(run, PL_C_REQUEST_RATE, "inf", err)))
			return rc;
		return pl_json_cond(st, "max_concurrency", PL_C_CONCURRENCY, run, err);
	}
	if (strcmp(type, "replay") == 0)
		return 0; /* the trace is read with the data (v2), else refused there */
	pl_error_field(err, "type_");
	return pl_error_set(err, PL_EINVALID,
	                    "GuideLLM load strategy '%.60s' is not read (synchronous, concurrent, "
	                    "constant, poisson, throughput and, in version 2 reports, replay are)",
	                    type);
}

static int warmup_02(const cJSON *args, struct pl_run *run, struct pl_error *err)
{
	const cJSON *num = pl_json_get(args, "warmup_number");
	const cJSON *dur = pl_json_get(args, "warmup_duration");

	if (num && !cJSON_IsNull(num))
		return pl_json_cond(args, "warmup_number", PL_C_WARMUP_REQUESTS, run, err);
	if (dur && !cJSON_IsNull(dur)) {
		char b[40];
		pl_run_warn(run,
		            "warm-up given as a duration (warmup_duration %s s), not a request count: "
		            "warmup_requests left missing",
		            cJSON_IsNumber(dur) ? pl_fmt_num(b, sizeof(b), dur->valuedouble) : "?");
		return 0;
	}
	if (args && num && dur)
		return pl_run_set_cond(run, PL_C_WARMUP_REQUESTS, "0", err);
	return 0;
}

static int warmup_05(const cJSON *w, struct pl_run *run, struct pl_error *err)
{
	const cJSON *pct = pl_json_get(w, "percent"), *val = pl_json_get(w, "value");
	char b[40];

	if (!cJSON_IsObject(w))
		return 0;
	if ((!pct || cJSON_IsNull(pct)) && (!val || cJSON_IsNull(val)))
		return pl_run_set_cond(run, PL_C_WARMUP_REQUESTS, "0", err);
	if (pct && cJSON_IsNumber(pct))
		pl_run_warn(run,
		            "warm-up given as a fraction of the run (warmup.percent %s), not a request "
		            "count: warmup_requests left missing",
		            pl_fmt_num(b, sizeof(b), pct->valuedouble));
	else
		pl_run_warn(run, "warm-up given as a value whose unit depends on warmup.mode, not a "
		                 "request count: warmup_requests left missing");
	return 0;
}

/* The layouts this adapter reads (see the top of the file). */
enum layout {
	L_02, /* 0.2 / 0.3: per-benchmark args and request_totals */
	L_04, /* 0.4: top-level args, no metadata */
	L_05, /* metadata.version 1 (0.5 - 0.7) */
	L_V2, /* metadata.version 2 (0.8): config.spec */
};

/* A replay strategy outside a version-2 report: its trace is not read. */
static int no_replay(const cJSON *st, struct pl_error *err)
{
	const cJSON *t = pl_json_get(st, "type_");

	if (!cJSON_IsString(t) || strcmp(t->valuestring, "replay") != 0)
		return 0;
	pl_error_field(err, "type_");
	return pl_error_set(err, PL_EINVALID,
	                    "GuideLLM load strategy 'replay' is read from version 2 reports only: "
	                    "its trace would be lost");
}

/* Appends t to x (a growing text; all of it is kept, so two data specs
 * that differ only late in their text never read as one). Returns 0 or
 * PL_ENOMEM. */
static int append(struct pl_buf *x, const char *t, struct pl_error *err)
{
	return pl_buf_adds(x, t) ? pl_error_set(err, PL_ENOMEM, "out of memory") : 0;
}

/* One data entry of a v2 spec appended to x as text: its kind, then each
 * setting that is not null, {} or [] as " key=value" in file order
 * (objects and arrays as compact JSON). Returns 0 or PL_ENOMEM. */
static int data_text(const cJSON *d, struct pl_buf *x, struct pl_error *err)
{
	const cJSON *kind = pl_json_get(d, "kind"), *e;
	int rc = append(x, cJSON_IsString(kind) ? kind->valuestring : "?", err);

	for (e = d->child; e && rc == 0; e = e->next) {
		char num[40], *js = NULL;
		const char *v = NULL;
		if (!e->string || strcmp(e->string, "kind") == 0 || cJSON_IsNull(e) ||
		    ((cJSON_IsObject(e) || cJSON_IsArray(e)) && !e->child))
			continue;
		/* turns 1 is the default (single-turn), written by the versions
		 * that have the setting and meant by those that do not: the text
		 * of one single-turn spec stays one text across versions */
		if (strcmp(e->string, "turns") == 0 && cJSON_IsNumber(e) && e->valuedouble == 1)
			continue;
		if (cJSON_IsString(e))
			v = e->valuestring;
		else if (cJSON_IsNumber(e))
			v = pl_fmt_num(num, sizeof(num), e->valuedouble);
		else if (cJSON_IsBool(e))
			v = cJSON_IsTrue(e) ? "true" : "false";
		else if (!(v = js = cJSON_PrintUnformatted(e)))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		if ((rc = append(x, " ", err)) == 0 && (rc = append(x, e->string, err)) == 0 &&
		    (rc = append(x, "=", err)) == 0)
			rc = append(x, v, err);
		cJSON_free(js);
	}
	return rc;
}

/* A synthetic_text length (prompt_tokens / output_tokens) -> id when it
 * is fixed: its _stdev, _min and _max are null or absent. */
static int fixed_length(const cJSON *d, const char *key, int id, struct pl_run *run,
                        struct pl_error *err)
{
	static const char *const var[] = {"_stdev", "_min", "_max"};
	char k[64];

	for (int i = 0; i < 3; i++) {
		const cJSON *v;
		snprintf(k, sizeof(k), "%s%s", key, var[i]);
		v = pl_json_get(d, k);
		if (v && !cJSON_IsNull(v))
			return 0;
	}
	return pl_json_cond(d, key, id, run, err);
}

/* Version 2: the load and the data from the report's config.spec, with
 * the benchmark's strategy st. */
static int load_v2(const cJSON *spec, const cJSON *st, struct pl_run *run, struct pl_error *err)
{
	const cJSON *data = pl_json_get(spec, "data"), *prof = pl_json_get(spec, "profile"), *d;
	const cJSON *type = pl_json_get(st, "type_"), *mc = pl_json_get(prof, "max_concurrency");
	const cJSON *ramp = pl_json_get(st, "rampup_duration");
	int replay = cJSON_IsString(type) && strcmp(type->valuestring, "replay") == 0;
	struct pl_buf text;
	char num[40];
	int rc;

	pl_buf_init(&text);
	if (cJSON_IsNumber(mc) && strcmp(cJSON_IsString(type) ? type->valuestring : "", "throughput") &&
	    (rc = pl_run_set_extra(run, "guidellm.max_concurrency",
	                           pl_fmt_num(num, sizeof(num), mc->valuedouble), err)))
		return rc;
	if (cJSON_IsNumber(ramp) && ramp->valuedouble > 0 &&
	    (rc = pl_run_set_extra(run, "guidellm.rampup_duration",
	                           pl_fmt_num(num, sizeof(num), ramp->valuedouble), err)))
		return rc;
	if (replay) {
		const cJSON *d0 = cJSON_GetArrayItem(data, 0);
		const cJSON *ts = pl_json_get(d0, "time_scale");
		if (!cJSON_IsArray(data) || cJSON_GetArraySize(data) != 1 ||
		    !cJSON_IsString(pl_json_get(d0, "path"))) {
			pl_error_field(err, "config.spec.data");
			return pl_error_set(err, PL_EINVALID,
			                    "a GuideLLM replay needs one config.spec.data entry with the "
			                    "trace's 'path'");
		}
		if (!ts || cJSON_IsNull(ts))
			ts = pl_json_get(prof, "time_scale");
		if ((rc = pl_json_cond(d0, "path", PL_C_TRACE, run, err)) ||
		    (ts && !cJSON_IsNull(ts) &&
		     (rc = pl_json_set_cond(run, PL_C_TRACE_TIME_SCALE, ts, "time_scale", err))))
			return rc;
		return 0;
	}
	if (!cJSON_IsArray(data) || !data->child)
		return 0;
	rc = 0;
	for (d = data->child; d && rc == 0; d = d->next) {
		if (!cJSON_IsObject(d)) {
			pl_error_field(err, "config.spec.data");
			rc = pl_error_set(err, PL_EINVALID, "a config.spec.data entry must be an object, got %s",
			                  pl_json_type_name(d));
			break;
		}
		if (d != data->child)
			rc = append(&text, "; ", err);
		if (rc == 0)
			rc = data_text(d, &text, err);
	}
	if (rc == 0)
		rc = pl_run_set_cond(run, PL_C_DATASET, text.data, err);
	pl_buf_release(&text);
	if (rc)
		return rc;
	d = data->child;
	if (!d->next && cJSON_IsString(pl_json_get(d, "kind")) &&
	    strcmp(pl_json_get(d, "kind")->valuestring, "synthetic_text") == 0) {
		/* synthetic conversations: "turns" user turns each (default 1;
		 * versions before the setting had single-turn data only) */
		const cJSON *turns = pl_json_get(d, "turns");
		if ((rc = fixed_length(d, "prompt_tokens", PL_C_INPUT_TOKENS, run, err)) ||
		    (rc = fixed_length(d, "output_tokens", PL_C_MAX_OUTPUT_TOKENS, run, err)))
			return rc;
		if (turns && !cJSON_IsNull(turns))
			return pl_json_set_cond(run, PL_C_TURNS_PER_CONVERSATION, turns, "turns", err);
		return pl_run_set_cond(run, PL_C_TURNS_PER_CONVERSATION, "1", err);
	}
	return 0;
}

static int convert_benchmark(const cJSON *root, const cJSON *b, enum layout lay,
                             struct pl_run *run, struct pl_error *err)
{
	const cJSON *metrics = pl_json_get(b, "metrics");
	const cJSON *totals = lay != L_02 ? pl_json_get(metrics, "request_totals")
	                                  : pl_json_get(b, "request_totals");
	const cJSON *cfg = pl_json_get(b, "config"), *args = pl_json_get(b, "args");
	double ok = 0, bad = -1, start = 0;
	int rc;

	if ((rc = pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, "guidellm", err)) ||
	    (rc = pl_json_cond(pl_json_get(root, "metadata"), "guidellm_version",
	                       PL_C_BENCHMARK_TOOL_VERSION, run, err)))
		return rc;
	if (lay == L_V2) {
		const cJSON *spec = pl_json_get(pl_json_get(root, "config"), "spec");
		if ((rc = pl_json_cond(pl_json_get(cfg, "backend"), "model", PL_C_MODEL, run, err)) ||
		    (!run->cond[PL_C_MODEL].set &&
		     (rc = pl_json_cond(pl_json_get(spec, "backend"), "model", PL_C_MODEL, run, err))) ||
		    (rc = strategy(pl_json_get(cfg, "strategy"), run, err)) ||
		    (rc = warmup_05(pl_json_get(cfg, "warmup"), run, err)) ||
		    (rc = load_v2(spec, pl_json_get(cfg, "strategy"), run, err)))
			return rc;
	} else if (lay != L_02) {
		const cJSON *rargs = pl_json_get(root, "args"), *data = pl_json_get(rargs, "data");
		const cJSON *d0 = cJSON_GetArrayItem(data, 0);
		if ((rc = pl_json_cond(pl_json_get(cfg, "backend"), "model", PL_C_MODEL, run, err)) ||
		    (!run->cond[PL_C_MODEL].set &&
		     (rc = pl_json_cond(rargs, "model", PL_C_MODEL, run, err))) ||
		    (rc = strategy(pl_json_get(cfg, "strategy"), run, err)) ||
		    (rc = no_replay(pl_json_get(cfg, "strategy"), err)) ||
		    (rc = warmup_05(pl_json_get(cfg, "warmup"), run, err)))
			return rc;
		if (cJSON_IsArray(data) && cJSON_GetArraySize(data) == 1 &&
		    (rc = pl_json_set_cond(run, PL_C_DATASET, d0, "data", err)))
			return rc;
		if (cJSON_IsArray(data) && cJSON_GetArraySize(data) == 1 && cJSON_IsString(d0) &&
		    strncmp(d0->valuestring, "prompt_tokens=", 14) == 0 &&
		    (rc = synthetic_lengths(d0->valuestring, run, err)))
			return rc;
	} else {
		const char *data = NULL;
		if ((rc = pl_json_cond(pl_json_get(b, "worker"), "backend_model", PL_C_MODEL, run, err)) ||
		    (rc = strategy(pl_json_get(args, "strategy"), run, err)) ||
		    (rc = no_replay(pl_json_get(args, "strategy"), err)) ||
		    (rc = warmup_02(args, run, err)))
			return rc;
		rc = pl_json_get_string(pl_json_get(b, "request_loader"), "data", &data, err);
		if (rc < 0 || (rc == 0 && (rc = synthetic_lengths(data, run, err))))
			return rc;
	}
	if ((rc = pl_json_get_count(totals, "successful", &ok, err)) < 0)
		return rc;
	rc = pl_json_get_count(totals, "errored", &bad, err);
	if (rc < 0)
		return rc;
	if (rc == 1)
		bad = -1;
	if ((rc = pl_adapter_requests(run, ok, bad, "request_totals.successful", err)))
		return rc;
	if ((rc = dist(metrics, "time_to_first_token_ms", "ttft", -3, run, err)) ||
	    (rc = dist(metrics, "time_per_output_token_ms", "tpot", -3, run, err)) ||
	    (rc = dist(metrics, "inter_token_latency_ms", "itl", -3, run, err)) ||
	    (rc = dist(metrics, "request_latency", "e2el", 0, run, err)) ||
	    (rc = mean_of(metrics, "output_tokens_per_second", PL_M_OUTPUT_THROUGHPUT, run, err)) ||
	    (rc = mean_of(metrics, "tokens_per_second", PL_M_TOTAL_TOKEN_THROUGHPUT, run, err)) ||
	    (rc = mean_of(metrics, "requests_per_second", PL_M_REQUEST_THROUGHPUT, run, err)) ||
	    (rc = mean_of(metrics, "prompt_token_count", PL_M_INPUT_TOKENS_MEAN, run, err)) ||
	    (rc = mean_of(metrics, "output_token_count", PL_M_OUTPUT_TOKENS_MEAN, run, err)) ||
	    (rc = mean_of(metrics, "request_concurrency", PL_M_CONCURRENCY_MEAN, run, err)) ||
	    (rc = pl_json_metric(b, "duration", PL_M_DURATION, 0, run, err)))
		return rc;
	rc = pl_json_get_number(b, "start_time", &start, err);
	if (rc < 0)
		return rc;
	if (rc == 0 && (rc = pl_adapter_epoch(run, floor(start), err)))
		return rc;
	return 0;
}

/* The layout of a report from its metadata and first benchmark b0, and
 * its format_version text (fv); PL_EFORMAT when it is none of them. */
static int layout(const cJSON *root, const cJSON *meta, const cJSON *b0, enum layout *lay,
                  char *fv, size_t n, struct pl_error *err)
{
	const cJSON *ver = pl_json_get(meta, "version");

	if (cJSON_IsObject(meta)) {
		const cJSON *gv = pl_json_get(meta, "guidellm_version");
		const char *tv = cJSON_IsString(gv) ? gv->valuestring : NULL;
		if (cJSON_IsNumber(ver) && (ver->valuedouble == 1 || ver->valuedouble == 2)) {
			*lay = ver->valuedouble == 1 ? L_05 : L_V2;
			snprintf(fv, n, "%.0f", ver->valuedouble);
			if (*lay == L_V2 && !cJSON_IsObject(pl_json_get(pl_json_get(root, "config"), "spec"))) {
				pl_error_field(err, "config");
				return pl_error_set(err, PL_EFORMAT,
				                    "a GuideLLM version 2 report needs a top-level 'config' "
				                    "with its 'spec'");
			}
			return 0;
		}
		pl_error_field(err, "metadata.version");
		if (cJSON_IsNumber(ver))
			return pl_error_set(err, PL_EFORMAT,
			                    "GuideLLM report layout version %g (guidellm %.40s) is not read "
			                    "(versions 1 and 2 are, and 0.2 / 0.4 reports without metadata)",
			                    ver->valuedouble, tv ? tv : "unknown");
		return pl_error_set(err, PL_EFORMAT,
		                    "a GuideLLM report whose metadata has no numeric 'version' is not read");
	}
	if (cJSON_IsObject(pl_json_get(b0, "args")) || pl_json_get(b0, "request_totals")) {
		*lay = L_02;
		snprintf(fv, n, "0.2");
		return 0;
	}
	if (cJSON_IsObject(pl_json_get(root, "args")) && cJSON_IsObject(pl_json_get(b0, "config")) &&
	    cJSON_IsObject(pl_json_get(pl_json_get(b0, "metrics"), "request_totals"))) {
		*lay = L_04;
		snprintf(fv, n, "0.4");
		return 0;
	}
	pl_error_field(err, "benchmarks");
	return pl_error_set(err, PL_EFORMAT,
	                    "a GuideLLM report without a metadata block whose benchmarks are in "
	                    "neither the 0.2 layout (args or request_totals) nor the 0.4 one (top-level "
	                    "args; config, metrics.request_totals) is not read");
}

/* The report's root: the YAML document (*owned, caller deletes) or the
 * input's one JSON value. */
static int report_root(struct pl_adapter_input *in, const cJSON **root, cJSON **owned,
                       struct pl_error *err)
{
	const struct pl_json_doc *doc;
	int rc;

	*owned = NULL;
	if (is_yaml(in->path)) {
		rc = pl_yaml_parse(in->path, in->buf, in->len, owned, err);
		*root = *owned;
		return rc;
	}
	if ((rc = pl_adapter_input_doc(in, &doc, err)))
		return rc;
	if (doc->container != PL_JSON_SINGLE || doc->nrecords != 1) {
		pl_error_at(err, in->path, 0, 0);
		return pl_error_set(err, PL_ESYNTAX, "a GuideLLM report must be one JSON object");
	}
	*root = doc->records[0].obj;
	return 0;
}

static int guidellm_parse(struct pl_adapter_input *in, struct pl_run_list *out,
                          struct pl_error *err)
{
	const char *path = in->path;
	cJSON *owned = NULL;
	const cJSON *root = NULL;
	const cJSON *benches, *meta, *b;
	const char *fv;
	char fvbuf[32];
	enum layout lay;
	int rc, i = 0;

	rc = report_root(in, &root, &owned, err);
	if (rc)
		return rc;
	benches = pl_json_get(root, "benchmarks");
	meta = pl_json_get(root, "metadata");
	if (!cJSON_IsArray(benches) || cJSON_GetArraySize(benches) == 0) {
		cJSON_Delete(owned);
		pl_error_field(err, "benchmarks");
		return pl_error_set(err, PL_EINVALID, "a GuideLLM report needs a non-empty 'benchmarks' list");
	}
	if ((rc = layout(root, meta, cJSON_GetArrayItem(benches, 0), &lay, fvbuf, sizeof(fvbuf), err))) {
		cJSON_Delete(owned);
		return rc;
	}
	fv = fvbuf;
	cJSON_ArrayForEach(b, benches)
	{
		struct pl_run *run = pl_run_list_push(out);
		if (!run || pl_strset(&run->adapter, "guidellm") || pl_strset(&run->source, path) ||
		    pl_strset(&run->format_version, fv)) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		run->record = i;
		if (!cJSON_IsObject(b))
			rc = pl_error_set(err, PL_EINVALID, "a benchmark must be an object, got %s",
			                  pl_json_type_name(b));
		else if (pl_json_forget_failed(), (rc = convert_benchmark(root, b, lay, run, err)))
			pl_json_name_failed(root, err);
		if (rc == 0)
			rc = pl_inventory_walk(&guidellm_info, fv, root, "", run, err);
		if (rc == 0)
			rc = pl_inventory_walk(&guidellm_info, fv, b, "benchmarks[].", run, err);
		if (rc) {
			char m[sizeof(err->message)];
			snprintf(m, sizeof(m), "%s", err ? err->message : "");
			pl_error_set(err, rc, "benchmark %d: %s", i, m);
			/* one bad benchmark of several: the others are kept */
			if (rc == PL_ENOMEM || !err || cJSON_GetArraySize(benches) < 2 ||
			    (rc = pl_adapter_reject_record(run, path, err)) != 0)
				break;
		}
		i++;
	}
	cJSON_Delete(owned);
	return rc;
}

const struct pl_adapter_impl pl_adapter_guidellm = {
	.info = &guidellm_info,
	.flags = PL_ADAPTER_BYTES,
	.detect = guidellm_detect,
	.parse = guidellm_parse,
};
