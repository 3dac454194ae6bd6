/*
 * guidellm.c — GuideLLM benchmark reports: 0.2.x JSON and YAML, 0.5 JSON.
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
 * The file is parsed whole (JSON by json_util, YAML by yaml_util) through
 * the registry's text hooks, because one file holds several runs.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"
#include "adapters/yaml_util.h"

static const char *const guidellm_mapping[] = {
	"benchmarks[i] -> one run, record = i; metadata.version (0.5) -> format_version, else \"0.2\"",
	"metadata.guidellm_version (0.5) -> benchmark_tool_version; (constant) -> benchmark_tool = guidellm",
	"0.2: worker.backend_model -> model; 0.5: config.backend.model (else args.model) -> model",
	"0.2: request_loader.data \"prompt_tokens=N,output_tokens=M\" -> input_tokens, max_output_tokens",
	"0.5: args.data (one entry) -> dataset",
	"strategy synchronous -> concurrency 1; concurrent -> concurrency = streams (or max_concurrency)",
	"strategy constant / poisson -> request_rate = rate; throughput -> request_rate inf "
	"(concurrency = max_concurrency when given)",
	"0.2 args.warmup_number -> warmup_requests; warmup_duration (s) -> missing + warning; both null -> 0",
	"0.5 config.warmup.value / percent -> missing + warning (a duration or fraction, not requests); "
	"both null -> 0",
	"request_totals (0.2) / metrics.request_totals (0.5): successful -> requests_completed "
	"(0 -> rejected), errored -> requests_failed; incomplete (cut off at the end) not counted",
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

static const struct pl_adapter_info guidellm_info = {
	"guidellm",
	"GuideLLM 0.2.x/0.3 report JSON and YAML; 0.5.0 benchmarks.json (metadata.version 1)",
	"GuideLLM benchmark report (one run per benchmark; JSON or YAML)",
	guidellm_mapping,
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
static int guidellm_detect(const char *path, const char *buf, size_t len)
{
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
	return 0;
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

static int convert_benchmark(const cJSON *root, const cJSON *b, int v05, struct pl_run *run,
                             struct pl_error *err)
{
	const cJSON *metrics = pl_json_get(b, "metrics");
	const cJSON *totals = v05 ? pl_json_get(metrics, "request_totals") : pl_json_get(b, "request_totals");
	const cJSON *cfg = pl_json_get(b, "config"), *args = pl_json_get(b, "args");
	double ok = 0, bad = -1, start = 0;
	int rc;

	if ((rc = pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, "guidellm", err)) ||
	    (rc = pl_json_cond(pl_json_get(root, "metadata"), "guidellm_version",
	                       PL_C_BENCHMARK_TOOL_VERSION, run, err)))
		return rc;
	if (v05) {
		const cJSON *rargs = pl_json_get(root, "args"), *data = pl_json_get(rargs, "data");
		if ((rc = pl_json_cond(pl_json_get(cfg, "backend"), "model", PL_C_MODEL, run, err)) ||
		    (!run->cond[PL_C_MODEL].set &&
		     (rc = pl_json_cond(rargs, "model", PL_C_MODEL, run, err))) ||
		    (rc = strategy(pl_json_get(cfg, "strategy"), run, err)) ||
		    (rc = warmup_05(pl_json_get(cfg, "warmup"), run, err)))
			return rc;
		if (cJSON_IsArray(data) && cJSON_GetArraySize(data) == 1 &&
		    (rc = pl_json_set_cond(run, PL_C_DATASET, cJSON_GetArrayItem(data, 0), "data", err)))
			return rc;
	} else {
		const char *data = NULL;
		if ((rc = pl_json_cond(pl_json_get(b, "worker"), "backend_model", PL_C_MODEL, run, err)) ||
		    (rc = strategy(pl_json_get(args, "strategy"), run, err)) ||
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

static int guidellm_parse(const char *path, const char *buf, size_t len, struct pl_run_list *out,
                          struct pl_error *err)
{
	cJSON *root = NULL;
	const cJSON *benches, *meta, *b;
	const char *fv;
	char fvbuf[32];
	int rc, v05, i = 0;

	rc = is_yaml(path) ? pl_yaml_parse(path, buf, len, &root, err)
	                   : pl_json_parse_value(path, buf, len, &root, err);
	if (rc)
		return rc;
	benches = pl_json_get(root, "benchmarks");
	meta = pl_json_get(root, "metadata");
	v05 = cJSON_IsObject(meta);
	fv = "0.2";
	if (v05 && cJSON_IsNumber(pl_json_get(meta, "version"))) {
		snprintf(fvbuf, sizeof(fvbuf), "%.0f", pl_json_get(meta, "version")->valuedouble);
		fv = fvbuf;
	}
	if (!cJSON_IsArray(benches) || cJSON_GetArraySize(benches) == 0) {
		cJSON_Delete(root);
		pl_error_field(err, "benchmarks");
		return pl_error_set(err, PL_EINVALID, "a GuideLLM report needs a non-empty 'benchmarks' list");
	}
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
		else
			rc = convert_benchmark(root, b, v05, run, err);
		if (rc) {
			char m[sizeof(err->message)];
			snprintf(m, sizeof(m), "%s", err ? err->message : "");
			pl_error_set(err, rc, "benchmark %d: %s", i, m);
			break;
		}
		i++;
	}
	cJSON_Delete(root);
	return rc;
}

const struct pl_adapter_impl pl_adapter_guidellm = {
	&guidellm_info, NULL, NULL, NULL, guidellm_detect, guidellm_parse,
};
