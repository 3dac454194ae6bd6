/*
 * genai_bench.c — sgl-project genai-bench per-run result files
 * (<scenario>_<task>_..._num_concurrency_N_time_Ts.json).
 *
 * One object per run: aggregated_metrics (the scenario, the concurrency,
 * run-level throughputs, request and error counts, and per-request
 * distributions under stats.<metric>.{min,max,mean,stddev,sum,p25..p99}),
 * individual_request_metrics (one record per request, failed ones with an
 * error_code and null metrics) and _time_unit ("s" is read).
 *
 * Quirks of real files:
 * - A run with --disable-streaming has no TTFT: every request carries the
 *   same 0.001 s placeholder, and the per-request input throughput (input
 *   tokens / TTFT) reads 8,000,999 tok/s. A TTFT equal on every completed
 *   request (two or more) is that placeholder: TTFT is stored as missing,
 *   with a warning, and so are TPOT ((e2e - TTFT) / (output - 1), prefill
 *   included) and the per-request decode speed (1 / TPOT) computed from it.
 *   No per-request input throughput is ever stored; the run-level input
 *   rate has no canonical metric either.
 * - error_rate can read 0 while the run had HTTP 500 responses: the error
 *   rate is computed from the request records (else the error counts), and
 *   a disagreeing figure of the file is named in a warning.
 * - experiment_metadata.json describes a whole experiment folder (lists of
 *   scenarios and concurrencies): pairing it with one run would go by the
 *   folder, which never supplies a condition, so it is refused naming what
 *   it holds, to be given with --set.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"

static const char *const gb_mapping[] = {
	"aggregated_metrics.scenario \"D(in,out)\" -> input_tokens, max_output_tokens (other "
	"scenarios kept as the extra genai-bench.aggregated_metrics.scenario)",
	"aggregated_metrics.num_concurrency -> concurrency",
	"aggregated_metrics.stats.{ttft,tpot,e2e_latency}.<stat> -> ttft / tpot / e2el_<stat> (s)",
	"aggregated_metrics.stats.output_inference_speed.<stat> -> tokens_per_second_<stat> (tok/s)",
	"<stat>: mean, min, max, p50, p90, p95, p99; stddev -> std; p25, p75, sum ignored",
	"TTFT equal on every completed request (non-streaming placeholder) -> ttft, tpot, "
	"tokens_per_second missing, with a warning",
	"aggregated_metrics.mean_output_throughput_tokens_per_s -> output_throughput; "
	"mean_total_tokens_throughput_tokens_per_s -> total_token_throughput (tok/s)",
	"aggregated_metrics.requests_per_second -> request_throughput (req/s); run_duration -> duration (s)",
	"aggregated_metrics.stats.num_{input,output}_tokens.{mean,sum} -> {input,output}_tokens_mean, "
	"total_{input,output}_tokens",
	"individual_request_metrics[] with an error_code -> requests_failed, the others -> "
	"requests_completed (without records: num_error_requests, num_completed_requests)",
	"failed / (completed + failed) -> error_rate (the file's error_rate, when it disagrees, is "
	"named in a warning)",
	"(constant) -> benchmark_tool = genai-bench",
	"experiment_metadata.json -> rejected, naming its conditions (give them with --set)",
	NULL,
};

static const struct pl_field gb_fields[] = {
	{"_time_unit", PL_FATE_DERIVED, "the unit of the latencies: \"s\" is read, anything else rejected"},
	{"aggregated_metrics.scenario", PL_FATE_CONDITION,
	 "input_tokens, max_output_tokens from \"D(in,out)\" (deterministic lengths)"},
	{"aggregated_metrics.num_concurrency", PL_FATE_CONDITION, "concurrency"},
	{"aggregated_metrics.batch_size", PL_FATE_EXTRA, "requests per batch (embedding and rerank tasks)"},
	{"aggregated_metrics.iteration_type", PL_FATE_IGNORED,
	 "which of num_concurrency / batch_size the experiment iterated; both are stored"},
	{"aggregated_metrics.run_duration", PL_FATE_METRIC, "duration (s)"},
	{"aggregated_metrics.mean_output_throughput_tokens_per_s", PL_FATE_METRIC, "output_throughput (tok/s)"},
	{"aggregated_metrics.mean_total_tokens_throughput_tokens_per_s", PL_FATE_METRIC,
	 "total_token_throughput (tok/s)"},
	{"aggregated_metrics.mean_input_throughput_tokens_per_s", PL_FATE_IGNORED,
	 "input tokens per second: no canonical metric (never output throughput)"},
	{"aggregated_metrics.mean_total_chars_per_hour", PL_FATE_IGNORED,
	 "characters, not tokens"},
	{"aggregated_metrics.requests_per_second", PL_FATE_METRIC, "request_throughput (completed req/s)"},
	{"aggregated_metrics.error_codes_frequency", PL_FATE_DERIVED,
	 "checked against the failed requests; named in the error-rate warning"},
	{"aggregated_metrics.error_rate", PL_FATE_DERIVED,
	 "recomputed from the request records; a disagreement is warned about"},
	{"aggregated_metrics.num_error_requests", PL_FATE_METRIC,
	 "requests_failed when the file has no request records (else checked against them)"},
	{"aggregated_metrics.num_completed_requests", PL_FATE_METRIC,
	 "requests_completed when the file has no request records (else checked against them)"},
	{"aggregated_metrics.num_requests", PL_FATE_DERIVED, "checked: completed + failed"},
	{"aggregated_metrics.{total_arrivals,arrival_requests_per_second}", PL_FATE_IGNORED,
	 "requests that arrived (and their rate); completed and failed are stored"},
	{"aggregated_metrics.stats.{ttft,tpot,e2e_latency,output_inference_speed}."
	 "{min,max,mean,stddev,p50,p90,p95,p99}",
	 PL_FATE_METRIC,
	 "ttft / tpot / e2el (s) / tokens_per_second (tok/s) _<stat>; stddev = std; ttft, tpot and "
	 "tokens_per_second missing when TTFT is a placeholder"},
	{"aggregated_metrics.stats.*.{p25,p75,sum}", PL_FATE_IGNORED,
	 "a percentile without a canonical slot, or a sum of per-request values"},
	{"aggregated_metrics.stats.num_input_tokens.mean", PL_FATE_METRIC, "input_tokens_mean (tokens)"},
	{"aggregated_metrics.stats.num_output_tokens.mean", PL_FATE_METRIC, "output_tokens_mean (tokens)"},
	{"aggregated_metrics.stats.num_input_tokens.sum", PL_FATE_METRIC, "total_input_tokens (tokens)"},
	{"aggregated_metrics.stats.num_output_tokens.sum", PL_FATE_METRIC, "total_output_tokens (tokens)"},
	{"aggregated_metrics.stats.{num_input_tokens,num_output_tokens}.*", PL_FATE_IGNORED,
	 "spread of the request lengths; the workload is kept as their mean"},
	{"aggregated_metrics.stats.total_tokens", PL_FATE_IGNORED,
	 "input + output tokens per request; both are stored"},
	{"aggregated_metrics.stats.output_latency", PL_FATE_IGNORED,
	 "e2e latency minus TTFT; no canonical metric"},
	{"aggregated_metrics.stats.output_throughput", PL_FATE_IGNORED,
	 "per-request output tokens per second: the same quantity as output_inference_speed"},
	{"aggregated_metrics.stats.input_throughput", PL_FATE_IGNORED,
	 "per-request input tokens / TTFT; reads 8M tok/s in a non-streaming run (TTFT placeholder)"},
	{"aggregated_metrics.stats.{network_connect_time,network_dns_time,network_tls_time}",
	 PL_FATE_IGNORED, "client connection set-up times; no canonical metric"},
	{"individual_request_metrics", PL_FATE_DERIVED,
	 "requests_completed, requests_failed (records with an error_code); the per-request values "
	 "are summarised in aggregated_metrics.stats"},
	{NULL, 0, NULL},
};

static const struct pl_format_version gb_inventory[] = {
	{.version = "per-run", .note = "per-run result JSON with aggregated_metrics, "
	                               "individual_request_metrics and _time_unit (benchmark_version "
	                               "0.0.2, recorded only in experiment_metadata.json)",
	 .fields = gb_fields},
	{.version = NULL},
};

static const struct pl_adapter_info gb_info = {
	.name = "genai-bench",
	.versions = "per-run result JSON of benchmark_version 0.0.2 (_time_unit \"s\")",
	.description = "sgl-project genai-bench per-run result (experiment_metadata.json is refused)",
	.mapping = gb_mapping,
	.inventory = gb_inventory,
};

static int is_metadata(const cJSON *obj)
{
	return pl_json_get(obj, "benchmark_version") && pl_json_get(obj, "traffic_scenario") &&
	       pl_json_get(obj, "iteration_type");
}

static int gb_detect(struct pl_adapter_input *in)
{
	const cJSON *obj = pl_adapter_input_first(in);
	const cJSON *agg = pl_json_get(obj, "aggregated_metrics");

	if (!obj)
		return 0;
	return is_metadata(obj) || (cJSON_IsObject(agg) && pl_json_get(agg, "scenario") &&
	                            pl_json_get(agg, "stats"));
}

/* Appends "key=value" for the metadata's known keys to buf, or the key to
 * miss when the value is null or the string "None". */
static void meta_field(const cJSON *obj, const char *key, char *buf, size_t n, char *miss, size_t mn)
{
	const cJSON *it = pl_json_get(obj, key);
	size_t len = strlen(buf);

	if (!it || cJSON_IsNull(it) || (cJSON_IsString(it) && strcmp(it->valuestring, "None") == 0) ||
	    (cJSON_IsString(it) && !it->valuestring[0])) {
		size_t ml = strlen(miss);
		snprintf(miss + ml, mn - ml, "%s%s", ml ? ", " : "", key);
		return;
	}
	if (cJSON_IsString(it))
		snprintf(buf + len, n - len, "%s%s '%.60s'", len ? ", " : "", key, it->valuestring);
	else if (cJSON_IsNumber(it)) {
		char b[40];
		snprintf(buf + len, n - len, "%s%s %s", len ? ", " : "", key,
		         pl_fmt_num(b, sizeof(b), it->valuedouble));
	} else if (cJSON_IsArray(it)) {
		int k = 0;
		snprintf(buf + len, n - len, "%s%s [", len ? ", " : "", key);
		for (const cJSON *e = it->child; e; e = e->next, k++) {
			char b[40];
			len = strlen(buf);
			if (cJSON_IsString(e))
				snprintf(buf + len, n - len, "%s%.30s", k ? ", " : "", e->valuestring);
			else if (cJSON_IsNumber(e))
				snprintf(buf + len, n - len, "%s%s", k ? ", " : "",
				         pl_fmt_num(b, sizeof(b), e->valuedouble));
		}
		len = strlen(buf);
		snprintf(buf + len, n - len, "]");
	}
}

static int metadata_refusal(const cJSON *obj, struct pl_error *err)
{
	static const char *const keys[] = {"model", "api_backend", "task", "traffic_scenario",
	                                   "num_concurrency", "benchmark_version", "server_engine",
	                                   "server_version", "server_gpu_type", "server_gpu_count",
	                                   "dataset_path", NULL};
	char held[480] = "", miss[200] = "";

	for (int i = 0; keys[i]; i++)
		meta_field(obj, keys[i], held, sizeof(held), miss, sizeof(miss));
	return pl_error_set(err, PL_EFORMAT,
	                    "a genai-bench experiment_metadata.json is not a run; its conditions can "
	                    "be given with --set (it describes a whole experiment folder, and a folder "
	                    "never pairs it with a run: it holds %s; missing: %s)",
	                    held[0] ? held : "nothing", miss[0] ? miss : "nothing");
}

/* "D(in,out)" -> 1 and the two lengths; else 0. */
static int deterministic(const char *s, double *in, double *out)
{
	char *end;
	long a, b;

	if (strncmp(s, "D(", 2) != 0)
		return 0;
	errno = 0;
	a = strtol(s + 2, &end, 10);
	if (errno || end == s + 2 || *end != ',' || a <= 0)
		return 0;
	s = end + 1;
	b = strtol(s, &end, 10);
	if (errno || end == s || strcmp(end, ")") != 0 || b <= 0)
		return 0;
	*in = (double)a;
	*out = (double)b;
	return 1;
}

/* stats.<key>.<stat> -> metric family fam. */
static int family(const cJSON *stats, const char *key, const char *fam, struct pl_run *run,
                  struct pl_error *err)
{
	static const char *const st_in[] = {"mean", "min", "max", "stddev", "p50", "p90", "p95", "p99", NULL};
	static const char *const st_out[] = {"mean", "min", "max", "std", "p50", "p90", "p95", "p99"};
	const cJSON *d = pl_json_get(stats, key);

	for (int s = 0; d && st_in[s]; s++) {
		char name[64];
		int rc;
		snprintf(name, sizeof(name), "%s_%s", fam, st_out[s]);
		if ((rc = pl_json_metric(d, st_in[s], pl_metric_lookup(name), 0, run, err)))
			return rc;
	}
	return 0;
}

/* Completed and failed requests, from the records when there are some,
 * else from the counts; warnings for every figure of the file that
 * disagrees. */
static int requests(const cJSON *obj, const cJSON *agg, struct pl_run *run, struct pl_error *err)
{
	const cJSON *recs = pl_json_get(obj, "individual_request_metrics");
	const cJSON *freq = pl_json_get(agg, "error_codes_frequency");
	double completed = -1, failed = -1, ncomp = -1, nerr = -1, nreq = -1, frate, fsum = 0;
	char codes[160] = "", b1[40], b2[40];
	int rc, has_rate;

	if ((rc = pl_json_get_count(agg, "num_completed_requests", &ncomp, err)) < 0 ||
	    (rc = pl_json_get_count(agg, "num_error_requests", &nerr, err)) < 0 ||
	    (rc = pl_json_get_count(agg, "num_requests", &nreq, err)) < 0 ||
	    (has_rate = pl_json_get_number(agg, "error_rate", &frate, err)) < 0)
		return rc < 0 ? rc : has_rate;
	if (cJSON_IsArray(recs)) {
		completed = failed = 0;
		for (const cJSON *r = recs->child; r; r = r->next) {
			const cJSON *code = pl_json_get(r, "error_code");
			if (code && !cJSON_IsNull(code))
				failed++;
			else
				completed++;
		}
		if (ncomp >= 0 && ncomp != completed)
			pl_run_warn(run, "genai-bench: num_completed_requests %s disagrees with the %s "
			                 "request records without an error: the records are stored",
			            pl_fmt_num(b1, sizeof(b1), ncomp), pl_fmt_num(b2, sizeof(b2), completed));
		if (nerr >= 0 && nerr != failed)
			pl_run_warn(run, "genai-bench: num_error_requests %s disagrees with the %s request "
			                 "records with an error_code: the records are stored",
			            pl_fmt_num(b1, sizeof(b1), nerr), pl_fmt_num(b2, sizeof(b2), failed));
	} else {
		completed = ncomp;
		failed = nerr;
	}
	if (completed < 0) {
		pl_error_field(err, "aggregated_metrics.num_completed_requests");
		return pl_error_set(err, PL_EINVALID,
		                    "no request completed (no request records and no num_completed_requests)");
	}
	if ((rc = pl_adapter_requests(run, completed, failed, "aggregated_metrics.num_completed_requests",
	                              err)))
		return rc;
	if (cJSON_IsObject(freq))
		for (const cJSON *c = freq->child; c; c = c->next) {
			size_t len = strlen(codes);
			if (cJSON_IsNumber(c)) {
				fsum += c->valuedouble;
				snprintf(codes + len, sizeof(codes) - len, "%sHTTP %.20s: %s", len ? ", " : "",
				         c->string, pl_fmt_num(b1, sizeof(b1), c->valuedouble));
			}
		}
	if (failed >= 0 && cJSON_IsObject(freq) && fsum != failed)
		pl_run_warn(run, "genai-bench: error_codes_frequency counts %s errors, the run has %s "
		                 "failed requests",
		            pl_fmt_num(b1, sizeof(b1), fsum), pl_fmt_num(b2, sizeof(b2), failed));
	if (nreq >= 0 && failed >= 0 && nreq != completed + failed)
		pl_run_warn(run, "genai-bench: num_requests %s is not completed + failed = %s",
		            pl_fmt_num(b1, sizeof(b1), nreq), pl_fmt_num(b2, sizeof(b2), completed + failed));
	if (failed >= 0 && has_rate == 0 && fabs(frate - failed / (completed + failed)) > 1e-9) {
		char b3[40], b4[40];
		pl_run_warn(run, "genai-bench: the file's error_rate %s disagrees with its request "
		                 "records: %s of %s requests failed%s%s%s; error_rate stored as %s",
		            pl_fmt_num(b1, sizeof(b1), frate), pl_fmt_num(b2, sizeof(b2), failed),
		            pl_fmt_num(b3, sizeof(b3), completed + failed), codes[0] ? " (" : "", codes,
		            codes[0] ? ")" : "",
		            pl_fmt_num(b4, sizeof(b4), pl_round_sig(failed / (completed + failed), 6)));
	}
	return 0;
}

static int gb_convert(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const cJSON *agg = pl_json_get(obj, "aggregated_metrics");
	const cJSON *stats = pl_json_get(agg, "stats");
	const cJSON *ttft = pl_json_get(stats, "ttft");
	const char *unit = NULL, *scen = NULL;
	double in, out, tmin, tmax;
	int rc, placeholder = 0;

	if (is_metadata(obj))
		return metadata_refusal(obj, err);
	rc = pl_json_get_string(obj, "_time_unit", &unit, err);
	if (rc < 0)
		return rc;
	if (rc == 1 || strcmp(unit, "s") != 0) {
		pl_error_field(err, "_time_unit");
		return pl_error_set(err, PL_EFORMAT,
		                    "a genai-bench run with _time_unit %s%.20s%s is not read (only \"s\" is: "
		                    "rerun with --metrics-time-unit s)",
		                    rc == 1 ? "" : "\"", rc == 1 ? "missing" : unit, rc == 1 ? "" : "\"");
	}
	if (!cJSON_IsObject(stats)) {
		pl_error_field(err, "aggregated_metrics.stats");
		return pl_error_set(err, PL_EINVALID, "'aggregated_metrics.stats' must be an object, got %s",
		                    pl_json_type_name(stats));
	}
	if ((rc = pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, "genai-bench", err)) ||
	    (rc = pl_json_cond(agg, "num_concurrency", PL_C_CONCURRENCY, run, err)))
		return rc;
	rc = pl_json_get_string(agg, "scenario", &scen, err);
	if (rc < 0)
		return rc;
	if (rc == 0 && deterministic(scen, &in, &out) &&
	    ((rc = pl_run_set_cond_num(run, PL_C_INPUT_TOKENS, in, err)) ||
	     (rc = pl_run_set_cond_num(run, PL_C_MAX_OUTPUT_TOKENS, out, err))))
		return rc;
	if ((rc = requests(obj, agg, run, err)))
		return rc;
	if ((rc = pl_json_metric(agg, "run_duration", PL_M_DURATION, 0, run, err)) ||
	    (rc = pl_json_metric(agg, "mean_output_throughput_tokens_per_s", PL_M_OUTPUT_THROUGHPUT, 0,
	                         run, err)) ||
	    (rc = pl_json_metric(agg, "mean_total_tokens_throughput_tokens_per_s",
	                         PL_M_TOTAL_TOKEN_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(agg, "requests_per_second", PL_M_REQUEST_THROUGHPUT, 0, run, err)) ||
	    (rc = pl_json_metric(pl_json_get(stats, "num_input_tokens"), "mean", PL_M_INPUT_TOKENS_MEAN,
	                         0, run, err)) ||
	    (rc = pl_json_metric(pl_json_get(stats, "num_output_tokens"), "mean",
	                         PL_M_OUTPUT_TOKENS_MEAN, 0, run, err)) ||
	    (rc = pl_json_metric(pl_json_get(stats, "num_input_tokens"), "sum", PL_M_TOTAL_INPUT_TOKENS,
	                         0, run, err)) ||
	    (rc = pl_json_metric(pl_json_get(stats, "num_output_tokens"), "sum",
	                         PL_M_TOTAL_OUTPUT_TOKENS, 0, run, err)) ||
	    (rc = family(stats, "e2e_latency", "e2el", run, err)))
		return rc;
	if (pl_json_get_number(ttft, "min", &tmin, NULL) == 0 &&
	    pl_json_get_number(ttft, "max", &tmax, NULL) == 0 && tmin == tmax &&
	    run->metric[PL_M_REQUESTS_COMPLETED] >= 2) {
		char b1[40], b2[40];
		placeholder = 1;
		pl_run_warn(run, "genai-bench: TTFT is the same %s s on all %s completed requests: the "
		                 "placeholder of a non-streaming run, not a measurement; ttft, and tpot and "
		                 "tokens_per_second computed from it, are stored as missing",
		            pl_fmt_num(b1, sizeof(b1), pl_round_sig(tmin, 6)),
		            pl_fmt_num(b2, sizeof(b2), run->metric[PL_M_REQUESTS_COMPLETED]));
	}
	if (!placeholder &&
	    ((rc = family(stats, "ttft", "ttft", run, err)) ||
	     (rc = family(stats, "tpot", "tpot", run, err)) ||
	     (rc = family(stats, "output_inference_speed", "tokens_per_second", run, err))))
		return rc;
	return 0;
}

static int gb_parse(struct pl_adapter_input *in, struct pl_run_list *out, struct pl_error *err)
{
	return pl_adapter_records(&pl_adapter_genai_bench, in, gb_convert, out, err);
}

const struct pl_adapter_impl pl_adapter_genai_bench = {
	.info = &gb_info,
	.format_version = "per-run",
	.detect = gb_detect,
	.parse = gb_parse,
};
