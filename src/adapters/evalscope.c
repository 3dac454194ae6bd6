/*
 * evalscope.c — ModelScope evalscope perf (`evalscope perf`): the
 * benchmark_summary.json and benchmark_percentile.json it writes beside
 * its request database.
 *
 * No real file was at hand: the layouts were read from the tool's source
 * (github.com/modelscope/evalscope, evalscope/perf/utils/benchmark_util.py
 * (Metrics, BenchmarkMetrics.create_message) and db_util.py
 * (PercentileMetrics, get_percentile_results, calculate_percentiles,
 * transpose_results) at tag v1.0.0, cceafe6a; the keys and their
 * computation are the same from v0.17.1 to v1.4.0).
 *
 * The summary is one object keyed by display names with their unit in
 * the key ("Average latency (s)"): seconds and tok/s, each value rounded
 * to 4 decimals; an average is -1 when no request succeeded. The
 * percentile file is a list of rows, one per percentile, keyed by
 * "Percentiles" ("10%" ... "99%") and metric columns ("TTFT (s)", ...);
 * a percentile is the sorted sample at index int(n * p / 100), not
 * interpolated. Its "TPOT (s)" is not stored: the file records no version,
 * and up to 0.17.0 the same key was chunk time / output tokens (per chunk,
 * not per token). The two files are two imports, two runs: the percentile
 * file records no concurrency and no request counts (sidecar or --set).
 * Neither records the model, the engine or the arrival rate
 * (benchmark_args.json has them; it is not read: a sidecar or --set
 * supplies them).
 *
 * Later layouts are refused by name: evalscope 1.4.1 added "Request rate
 * (req/s)" and "Input token throughput (tok/s)" to the summary, 1.5
 * renamed every key ("Avg Latency (s)", "Concurrency"), and 1.7 writes
 * TTFT, TPOT and ITL in ms.
 */
#include <stdio.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"

#define NAME "evalscope"
#define V_SUMMARY "1.0-summary"
#define V_PERCENTILE "1.0-percentile"

static const char *const es_mapping[] = {
	"(constant) -> benchmark_tool = evalscope-perf; model, engine, hardware and the arrival rate "
	"from --set or a sidecar",
	"summary: \"Number of concurrency\" -> concurrency",
	"summary: \"Time taken for tests (s)\" -> duration (s)",
	"summary: \"Succeed requests\", \"Failed requests\" -> requests_completed, requests_failed, "
	"error_rate",
	"summary: \"Output token throughput (tok/s)\" -> output_throughput; \"Total token throughput "
	"(tok/s)\" -> total_token_throughput (input + output tokens); \"Request throughput (req/s)\" "
	"-> request_throughput",
	"summary: \"Average latency (s)\", \"Average time to first token (s)\", \"Average time per "
	"output token (s)\", \"Average inter-token latency (s)\" -> e2el_mean, ttft_mean, tpot_mean, "
	"itl_mean (s)",
	"summary: \"Average input tokens per request\", \"Average output tokens per request\" -> "
	"input_tokens_mean, output_tokens_mean",
	"percentile: rows \"50%\", \"90%\", \"95%\", \"99%\" of \"Latency (s)\", \"TTFT (s)\", "
	"\"ITL (s)\" -> e2el / ttft / itl _p50, _p90, _p95, _p99 (s); \"TPOT (s)\" not stored "
	"(per chunk before 0.17.1, and the file records no version)",
	"later layouts (evalscope 1.4.1 and later) -> rejected, naming them",
	NULL,
};

static const struct pl_field summary_fields[] = {
	{"Time taken for tests (s)", PL_FATE_METRIC, "duration (s)"},
	{"Number of concurrency", PL_FATE_CONDITION, "concurrency"},
	{"Total requests", PL_FATE_IGNORED, "Succeed requests + Failed requests"},
	{"Succeed requests", PL_FATE_METRIC, "requests_completed (count; 0 -> a failed run)"},
	{"Failed requests", PL_FATE_METRIC, "requests_failed (count); -> error_rate"},
	{"Output token throughput (tok/s)", PL_FATE_METRIC, "output_throughput (tok/s)"},
	{"Total token throughput (tok/s)", PL_FATE_METRIC,
	 "total_token_throughput (input + output tok/s; never output throughput)"},
	{"Request throughput (req/s)", PL_FATE_METRIC, "request_throughput (succeeded req/s)"},
	{"Average latency (s)", PL_FATE_METRIC, "e2el_mean (s)"},
	{"Average time to first token (s)", PL_FATE_METRIC, "ttft_mean (s)"},
	{"Average time per output token (s)", PL_FATE_METRIC, "tpot_mean (s)"},
	{"Average inter-token latency (s)", PL_FATE_METRIC, "itl_mean (s)"},
	{"Average input tokens per request", PL_FATE_METRIC, "input_tokens_mean (tokens)"},
	{"Average output tokens per request", PL_FATE_METRIC, "output_tokens_mean (tokens)"},
	{NULL, 0, NULL},
};

static const struct pl_field percentile_fields[] = {
	{"Percentiles", PL_FATE_DERIVED,
	 "the row's percentile: \"50%\", \"90%\", \"95%\", \"99%\" -> _p50, _p90, _p95, _p99; "
	 "\"10%\", \"25%\", \"66%\", \"75%\", \"80%\", \"98%\" have no canonical slot"},
	{"Latency (s)", PL_FATE_METRIC, "e2el_p50 ... e2el_p99 (s)"},
	{"TTFT (s)", PL_FATE_METRIC, "ttft_p50 ... ttft_p99 (s)"},
	{"TPOT (s)", PL_FATE_IGNORED,
	 "ambiguous: the file records no version, and evalscope 0.17.0 and earlier wrote the same key "
	 "per chunk (chunk time / output tokens), not per token"},
	{"ITL (s)", PL_FATE_METRIC, "itl_p50 ... itl_p99 (s)"},
	{"{Input tokens,Output tokens}", PL_FATE_IGNORED,
	 "percentiles of the request lengths; the workload is kept as the summary's means"},
	{"{Output (tok/s),Total (tok/s)}", PL_FATE_IGNORED,
	 "one request's tokens / its latency: no canonical metric (never the run's throughput)"},
	{NULL, 0, NULL},
};

static const struct pl_format_version es_inventory[] = {
	{.version = V_SUMMARY,
	 .note = "benchmark_summary.json of evalscope 0.17.1 to 1.4.0 (read from source only: "
	         "modelscope/evalscope tag v1.0.0 cceafe6a; no real file)",
	 .fields = summary_fields},
	{.version = V_PERCENTILE,
	 .note = "benchmark_percentile.json of evalscope 0.17.1 to 1.4.0 (read from source only: "
	         "modelscope/evalscope tag v1.0.0 cceafe6a; no real file)",
	 .fields = percentile_fields},
	{.version = NULL},
};

static const struct pl_adapter_info es_info = {
	.name = NAME,
	.versions = "evalscope perf 0.17.1 to 1.4.0 benchmark_summary.json and "
	            "benchmark_percentile.json, read from the tool's source only (modelscope/evalscope "
	            "v1.0.0 cceafe6a); 1.4.1 and later refused",
	.description = "evalscope perf benchmark_summary.json / benchmark_percentile.json",
	.mapping = es_mapping,
	.inventory = es_inventory,
};

/* The summary of 0.17.1 to 1.4.0, or of a later layout (to refuse). */
static int is_summary(const cJSON *obj)
{
	return cJSON_IsObject(obj) && ((pl_json_get(obj, "Number of concurrency") &&
	                                pl_json_get(obj, "Average latency (s)")) ||
	                               (pl_json_get(obj, "Concurrency") &&
	                                pl_json_get(obj, "Avg Latency (s)")));
}

/* A row of the percentile file. */
static int is_percentile_row(const cJSON *obj)
{
	return cJSON_IsObject(obj) && cJSON_IsString(pl_json_get(obj, "Percentiles")) &&
	       pl_json_get(obj, "Latency (s)");
}

static int es_detect(struct pl_adapter_input *in)
{
	const struct pl_json_doc *doc;

	if (pl_adapter_input_doc(in, &doc, NULL) || doc->nrecords == 0)
		return 0;
	if (doc->container == PL_JSON_SINGLE)
		return is_summary(doc->records[0].obj);
	return doc->container == PL_JSON_ARRAY && is_percentile_row(doc->records[0].obj);
}

static int set_run(struct pl_run *run, const char *path, long record, const char *fv,
                   struct pl_error *err)
{
	if (!run || pl_strset(&run->adapter, NAME) || pl_strset(&run->source, path) ||
	    pl_strset(&run->format_version, fv))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	run->record = record;
	return pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, "evalscope-perf", err);
}

static int convert_summary(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	static const struct {
		const char *key;
		int id;
	} m[] = {
		{"Time taken for tests (s)", PL_M_DURATION},
		{"Output token throughput (tok/s)", PL_M_OUTPUT_THROUGHPUT},
		{"Total token throughput (tok/s)", PL_M_TOTAL_TOKEN_THROUGHPUT},
		{"Request throughput (req/s)", PL_M_REQUEST_THROUGHPUT},
		{"Average latency (s)", PL_M_E2EL_MEAN},
		{"Average time to first token (s)", PL_M_TTFT_MEAN},
		{"Average time per output token (s)", PL_M_TPOT_MEAN},
		{"Average inter-token latency (s)", PL_M_ITL_MEAN},
		{"Average input tokens per request", PL_M_INPUT_TOKENS_MEAN},
		{"Average output tokens per request", PL_M_OUTPUT_TOKENS_MEAN},
	};
	double completed = 0, failed = -1, itl = 0;
	int rc, nonstream;

	if (pl_json_get(obj, "Avg Latency (s)"))
		return pl_error_set(err, PL_EFORMAT,
		                    "an evalscope perf summary of evalscope 1.5 or later (keys such as "
		                    "'Avg Latency (s)', 'Concurrency') is not read; this adapter reads the "
		                    "layout of evalscope 0.17.1 to 1.4.0");
	if (pl_json_get(obj, "Average package latency (s)") ||
	    pl_json_get(obj, "Average package per request"))
		return pl_error_set(err, PL_EFORMAT,
		                    "an evalscope perf summary of evalscope 0.17.0 or earlier ('Average "
		                    "package latency (s)': its time per output token is per chunk) is not "
		                    "read; this adapter reads the layout of evalscope 0.17.1 to 1.4.0");
	if (pl_json_get(obj, "Request rate (req/s)") ||
	    pl_json_get(obj, "Input token throughput (tok/s)"))
		return pl_error_set(err, PL_EFORMAT,
		                    "an evalscope perf summary of evalscope 1.4.1 or later (it has 'Request "
		                    "rate (req/s)' or 'Input token throughput (tok/s)') is not read; this "
		                    "adapter reads the layout of evalscope 0.17.1 to 1.4.0");
	if ((rc = pl_json_cond(obj, "Number of concurrency", PL_C_CONCURRENCY, run, err)))
		return rc;
	if ((rc = pl_json_get_count(obj, "Succeed requests", &completed, err)) < 0 ||
	    (rc = pl_json_get_count(obj, "Failed requests", &failed, err)) < 0)
		return rc;
	/* A run where nothing succeeded has its averages at -1: refused here. */
	if ((rc = pl_adapter_requests(run, completed, failed, "Succeed requests", err)))
		return rc;
	if ((rc = pl_json_get_number(obj, "Average inter-token latency (s)", &itl, err)) < 0)
		return rc;
	nonstream = rc == 0 && itl == 0;
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		if (nonstream && (m[i].id == PL_M_TTFT_MEAN || m[i].id == PL_M_TPOT_MEAN ||
		                  m[i].id == PL_M_ITL_MEAN))
			continue;
		if ((rc = pl_json_metric(obj, m[i].key, m[i].id, 0, run, err)))
			return rc;
	}
	if (nonstream)
		pl_run_warn(run, "evalscope: 'Average inter-token latency (s)' is 0: no response came in "
		                 "more than one chunk (a non-streamed run), where evalscope writes the whole "
		                 "latency as the time to first token and 0 as the time per output token; "
		                 "ttft_mean, tpot_mean and itl_mean are not stored");
	return 0;
}

static int es_parse_summary(struct pl_adapter_input *in, const cJSON *obj,
                            struct pl_run_list *out, struct pl_error *err)
{
	struct pl_run *run = pl_run_list_push(out);
	int rc = set_run(run, in->path, 0, V_SUMMARY, err);

	if (rc == 0)
		rc = convert_summary(obj, run, err);
	if (rc == 0)
		rc = pl_inventory_walk(&es_info, V_SUMMARY, obj, "", run, err);
	return rc;
}

/* One row of the percentile file -> the _pNN metrics of its percentile. */
static int convert_row(const cJSON *row, int ri, struct pl_run *run, unsigned *seen,
                       struct pl_error *err)
{
	static const char *const pct_in[] = {"50%", "90%", "95%", "99%"};
	static const char *const pct_out[] = {"p50", "p90", "p95", "p99"};
	static const struct {
		const char *key;
		const char *fam;
	} cols[] = {{"Latency (s)", "e2el"}, {"TTFT (s)", "ttft"}, {"ITL (s)", "itl"}};
	const char *pct = NULL;
	int rc, p;

	if (!cJSON_IsObject(row))
		return pl_error_set(err, PL_EINVALID, "row %d: must be an object, got %s", ri,
		                    pl_json_type_name(row));
	if ((rc = pl_json_get_string(row, "Percentiles", &pct, err)) < 0)
		return rc;
	if (rc == 1) {
		pl_error_field(err, "Percentiles");
		return pl_error_set(err, PL_EINVALID, "row %d: no 'Percentiles'", ri);
	}
	for (p = 0; p < 4 && strcmp(pct, pct_in[p]) != 0; p++)
		;
	if (p == 4)
		return 0;
	if (*seen & (1u << p)) {
		pl_error_field(err, "Percentiles");
		return pl_error_set(err, PL_EINVALID, "row %d: a second '%s' row", ri, pct);
	}
	*seen |= 1u << p;
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
		char name[32];
		snprintf(name, sizeof(name), "%s_%s", cols[c].fam, pct_out[p]);
		if ((rc = pl_json_metric(row, cols[c].key, pl_metric_lookup(name), 0, run, err)))
			return rc;
	}
	return 0;
}

static int es_parse_percentiles(struct pl_adapter_input *in, const struct pl_json_doc *doc,
                                struct pl_run_list *out, struct pl_error *err)
{
	struct pl_run *run = pl_run_list_push(out);
	unsigned seen = 0;
	int rc = set_run(run, in->path, 0, V_PERCENTILE, err);

	for (size_t i = 0; rc == 0 && i < doc->nrecords; i++) {
		const cJSON *row = doc->records[i].obj;
		if (pl_json_get(row, "TTFT (ms)") || pl_json_get(row, "Input (tok/s)"))
			return pl_error_set(err, PL_EFORMAT,
			                    "an evalscope perf percentile file of a later layout ('Input "
			                    "(tok/s)' from evalscope 1.4.2, 'TTFT (ms)' from 1.7) is not read; "
			                    "this adapter reads the layout of evalscope 0.17.1 to 1.4.0");
		rc = convert_row(row, (int)i, run, &seen, err);
		if (rc == 0)
			rc = pl_inventory_walk(&es_info, V_PERCENTILE, row, "", run, err);
	}
	if (rc == 0 && seen == 0)
		return pl_error_set(err, PL_EINVALID,
		                    "an evalscope perf percentile file with none of the rows 50%%, 90%%, "
		                    "95%%, 99%%");
	return rc;
}

static int es_parse(struct pl_adapter_input *in, struct pl_run_list *out, struct pl_error *err)
{
	const struct pl_json_doc *doc;
	int rc = pl_adapter_input_doc(in, &doc, err);

	if (rc)
		return rc;
	if (doc->container == PL_JSON_SINGLE)
		return es_parse_summary(in, doc->records[0].obj, out, err);
	return es_parse_percentiles(in, doc, out, err);
}

const struct pl_adapter_impl pl_adapter_evalscope = {
	.info = &es_info,
	.detect = es_detect,
	.parse = es_parse,
};
