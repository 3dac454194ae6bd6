/*
 * mlperf.c — MLPerf Inference LoadGen mlperf_log_summary.txt.
 *
 * A text file of "Key : value" lines. One run per file. Latencies are in
 * nanoseconds (converted on the decimal digits). The Server and Offline
 * scenarios word their throughputs differently ("Completed samples per
 * second" / "Samples per second", "Completed tokens per second" / "Tokens
 * per second"); both are read. In Offline every sample is issued at t=0,
 * so its "latency" is the time since the start of the test, not a request
 * latency: Offline latencies are not stored. Server is open loop at
 * target_qps (Poisson arrivals): request_rate = target_qps; Offline issues
 * everything at once: request_rate = inf. The scenario is a condition, and
 * so are the TTFT and TPOT latency limits a Server run had to meet
 * (ttft_latency / tpot_latency, ns). MLPerf's Interactive category is
 * LoadGen's Server scenario with tighter limits (LoadGen knows SingleStream,
 * MultiStream, Server and Offline; the summary says "Scenario : Server"),
 * so it is told apart by the limits: Server and Interactive runs never pool
 * or compare. Offline prints the same settings but has no latency
 * constraint: there they are not limits and are not stored.
 * An INVALID result (LoadGen says the run did not meet its constraints) is
 * rejected, naming the constraints that failed: warnings are not stored, so
 * a caveat could not follow the run into comparisons. Modes other than
 * PerformanceOnly hold no performance result and are rejected.
 * System description: the summary names no hardware; the importer reads
 * a sidecar NAME.conditions.json next to NAME.txt, which may hold
 * canonical condition keys or an MLPerf systems/NAME.json description
 * (sidecar.c). Nothing is parsed from directory names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "adapters/adapter_impl.h"
#include "adapters/adapters.h"

static const char *const mlperf_mapping[] = {
	"Scenario Server: Completed samples per second -> request_throughput; Completed tokens per second -> output_throughput",
	"Scenario Offline: Samples per second -> request_throughput; Tokens per second -> output_throughput",
	"Scenario -> scenario (Server, Offline); SingleStream, MultiStream -> rejected",
	"Server: target_qps -> request_rate (open loop); Offline -> request_rate inf",
	"Server: ttft_latency (ns) -> ttft_limit, tpot_latency (ns) -> tpot_limit (ns / 1e9 = s): "
	"MLPerf Interactive is Server with tighter limits; Offline: not stored (printed, but no "
	"latency constraint applies)",
	"Server: Min/Max/Mean latency (ns), 50.00/90.00/95.00/99.00/99.90 percentile latency -> e2el_min/max/mean/p50/p90/p95/p99/p99_9 (ns / 1e9 = s)",
	"Server: ... First Token latency (ns) -> ttft_*; ... Time to (or per) Output Token (ns) -> tpot_*; 97.00 percentiles ignored",
	"Offline latencies -> not stored (time since the test started, every sample issued at t=0)",
	"Result is: INVALID -> rejected naming the unsatisfied constraints; Mode other than PerformanceOnly -> rejected",
	"(constant) -> benchmark_tool = mlperf-loadgen; no request counts: error_rate missing",
	"sidecar NAME.conditions.json next to NAME.txt: canonical keys, or an MLPerf system "
	"description: accelerators_per_node x accelerator_model_name -> hardware (on N > 1 nodes: "
	"\"<total>x <name> (N nodes x <per node>)\"), "
	"accelerators_per_node x number_of_nodes -> accelerator_count (framework, software stack: free text, not parsed)",
	NULL,
};

static const struct pl_field mlperf_fields[] = {
	{"Scenario", PL_FATE_CONDITION, "scenario (Server and Offline are read, others rejected)"},
	{"ttft_latency (ns)", PL_FATE_DERIVED,
	 "ttft_limit (s, ns / 1e9) in the Server scenario; Offline prints the setting too, but no "
	 "latency limit applies there, so it is not stored"},
	{"tpot_latency (ns)", PL_FATE_DERIVED,
	 "tpot_limit (s, ns / 1e9) in the Server scenario; not stored for Offline (no limit applies)"},
	{"SUT name", PL_FATE_IGNORED, "the harness's name for the system, not a description of it"},
	{"Scheduled samples per second", PL_FATE_IGNORED, "the arrival rate LoadGen scheduled; target_qps is stored"},
	{"{TTFT,TPOT} Early Stopping Result", PL_FATE_IGNORED, "a verdict in words, covered by Result is"},
	{"{min_duration (ms),max_duration (ms),min_query_count,max_query_count,max_async_queries,"
	 "samples_per_query,performance_sample_count,print_timestamps}",
	 PL_FATE_IGNORED, "LoadGen run settings, checked by the VALID verdict"},
	{"{qsl_rng_seed,sample_index_rng_seed,schedule_rng_seed,accuracy_log_rng_seed}", PL_FATE_IGNORED,
	 "random seeds"},
	{"{accuracy_log_probability,accuracy_log_sampling_target,performance_issue_same,"
	 "performance_issue_same_index,performance_issue_unique}",
	 PL_FATE_IGNORED, "accuracy logging and audit switches"},
	{"Mode", PL_FATE_DERIVED, "only PerformanceOnly is imported"},
	{"Result is", PL_FATE_DERIVED, "only VALID is imported"},
	{"{Completed samples per second,Samples per second}", PL_FATE_METRIC, "request_throughput (req/s)"},
	{"{Completed tokens per second,Tokens per second}", PL_FATE_METRIC, "output_throughput (tok/s)"},
	{"target_qps", PL_FATE_CONDITION, "request_rate (Server; Offline -> inf)"},
	{"{Min,Max,Mean} latency (ns)", PL_FATE_METRIC, "e2el_min / max / mean (s, ns / 1e9; not Offline)"},
	{"{50.00,90.00,95.00,99.00,99.90} percentile latency (ns)", PL_FATE_METRIC, "e2el_<pNN> (s; not Offline)"},
	{"{Min,Max,Mean} First Token latency (ns)", PL_FATE_METRIC, "ttft_min / max / mean (s)"},
	{"{50.00,90.00,95.00,99.00,99.90} percentile first token latency (ns)", PL_FATE_METRIC, "ttft_<pNN> (s)"},
	{"{Min,Max,Mean} Time {to,per} Output Token (ns)", PL_FATE_METRIC,
	 "tpot_min / max / mean (s); \"per\" is the later LoadGen's spelling"},
	{"{50.00,90.00,95.00,99.00,99.90} percentile time {to,per} output token (ns)", PL_FATE_METRIC,
	 "tpot_<pNN> (s)"},
	{"97.00 percentile *", PL_FATE_IGNORED, "a percentile without a canonical slot"},
	{"* satisfied", PL_FATE_DERIVED, "a NO is named when the result is INVALID"},
	{NULL, 0, NULL},
};

static const struct pl_format_version mlperf_inventory[] = {
	{.version = "", .note = "LoadGen mlperf_log_summary.txt (v4.1), Server and Offline; lines \"key : value\"",
	 .fields = mlperf_fields},
	{.version = NULL},
};

static const struct pl_adapter_info mlperf_info = {
	.name = "mlperf",
	.versions = "MLPerf Inference LoadGen mlperf_log_summary.txt (v4.1; Server and Offline)",
	.description = "MLPerf Inference mlperf_log_summary.txt (nanoseconds; VALID results only)",
	.mapping = mlperf_mapping,
	.inventory = mlperf_inventory,
};

static int mlperf_detect(struct pl_adapter_input *in)
{
	static const char needle[] = "MLPerf Results Summary";
	const size_t m = sizeof(needle) - 1;
	const char *p = in->buf, *e = in->buf + (in->len < 256 ? in->len : 256);

	/* memchr to each 'M' rather than a memcmp at every offset: every file
	 * that is not a text format comes here */
	while ((size_t)(e - p) >= m && (p = memchr(p, 'M', (size_t)(e - p) - m + 1)) != NULL) {
		if (memcmp(p, needle, m) == 0)
			return 1;
		p++;
	}
	return 0;
}

/* One "key : value" line, trimmed. */
struct kvline {
	char key[128];
	char val[128];
	long line;
};

static void trim(char *s)
{
	size_t n = strlen(s), i = 0;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	while (s[i] == ' ' || s[i] == '\t' || s[i] == '*')
		i++;
	memmove(s, s + i, n - i + 1);
}

static const struct {
	const char *prefix; /* statistic wording, lower case */
	const char *stat;
} stats[] = {
	{"min ", "min"},        {"max ", "max"},        {"mean ", "mean"},
	{"50.00 percentile ", "p50"}, {"90.00 percentile ", "p90"}, {"95.00 percentile ", "p95"},
	{"99.00 percentile ", "p99"}, {"99.90 percentile ", "p99_9"},
};

/* "50.00 percentile first token latency (ns)" -> ttft_p50, else -1. */
static int latency_metric(const char *key)
{
	char low[128], name[64];
	const char *fam = NULL, *rest;
	size_t i;

	for (i = 0; key[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)(key[i] >= 'A' && key[i] <= 'Z' ? key[i] + 32 : key[i]);
	low[i] = '\0';
	for (size_t s = 0; s < sizeof(stats) / sizeof(stats[0]); s++) {
		if (strncmp(low, stats[s].prefix, strlen(stats[s].prefix)) != 0)
			continue;
		rest = low + strlen(stats[s].prefix);
		if (strcmp(rest, "latency (ns)") == 0)
			fam = "e2el";
		else if (strcmp(rest, "first token latency (ns)") == 0)
			fam = "ttft";
		else if (strcmp(rest, "time to output token (ns)") == 0 ||
		         strcmp(rest, "time per output token (ns)") == 0)
			fam = "tpot"; /* LoadGen renamed it (mlcommons/inference #2360): both spellings */
		if (!fam)
			return -1;
		snprintf(name, sizeof(name), "%s_%s", fam, stats[s].stat);
		return pl_metric_lookup(name);
	}
	return -1;
}

/* The "key : value" line at *off (then past it): 1 with kv filled, 0 at the
 * end; kv->key is "" for a line without a colon. */
static int next_line(const char *buf, size_t len, size_t *off, struct kvline *kv)
{
	const char *nl;
	size_t end;
	char text[300], *colon;

	if (*off >= len)
		return 0;
	nl = memchr(buf + *off, '\n', len - *off);
	end = nl ? (size_t)(nl - buf) : len;
	snprintf(text, sizeof(text), "%.*s", (int)(end - *off < 299 ? end - *off : 299), buf + *off);
	*off = end + 1;
	kv->line++;
	colon = strrchr(text, ':');
	if (!colon) {
		kv->key[0] = kv->val[0] = '\0';
		return 1;
	}
	*colon = '\0';
	snprintf(kv->key, sizeof(kv->key), "%.127s", text);
	snprintf(kv->val, sizeof(kv->val), "%.127s", colon + 1);
	trim(kv->key);
	trim(kv->val);
	return 1;
}

/* Every line key against the inventory, once the run is converted. */
static int walk_lines(const char *buf, size_t len, struct pl_run *run, struct pl_error *err)
{
	struct kvline kv = {.line = 0};
	size_t off = 0;
	int rc = 0;

	while (rc == 0 && next_line(buf, len, &off, &kv))
		if (kv.key[0])
			rc = pl_inventory_check(&mlperf_info, NULL, kv.key, kv.val, run, err);
	return rc;
}

/* A latency limit in ns (the text of its line) -> condition id in s;
 * no line -> nothing. */
static int limit(const char *ns, int id, const char *key, struct pl_run *run, struct pl_error *err)
{
	double v;

	if (!ns[0])
		return 0;
	if (pl_parse_num(ns, 0, &v) || !(v > 0)) {
		pl_error_field(err, key);
		return pl_error_set(err, PL_EINVALID, "'%s' must be a positive number of ns, got \"%s\"",
		                    key, ns);
	}
	return pl_run_set_cond_num(run, id, pl_scale_pow10(v, -9), err);
}

static int mlperf_parse(struct pl_adapter_input *in, struct pl_run_list *out,
                        struct pl_error *err)
{
	const char *path = in->path, *buf = in->buf;
	size_t len = in->len;
	char scenario[32] = "", mode[32] = "", result[32] = "", failed[300] = "";
	char ttft_limit[128] = "", tpot_limit[128] = "";
	struct pl_run *run = pl_run_list_push(out);
	struct kvline kv = {.line = 0};
	size_t off = 0;
	int rc = 0;

	if (!run || pl_strset(&run->adapter, "mlperf") || pl_strset(&run->source, path))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if ((rc = pl_run_set_cond(run, PL_C_BENCHMARK_TOOL, "mlperf-loadgen", err)))
		return rc;
	while (next_line(buf, len, &off, &kv)) {
		double v;
		int id;

		if (!kv.key[0])
			continue;
		if (strcmp(kv.key, "Scenario") == 0) {
			snprintf(scenario, sizeof(scenario), "%.31s", kv.val);
			continue;
		}
		if (strcmp(kv.key, "Mode") == 0) {
			snprintf(mode, sizeof(mode), "%.31s", kv.val);
			continue;
		}
		if (strcmp(kv.key, "Result is") == 0) {
			snprintf(result, sizeof(result), "%.31s", kv.val);
			continue;
		}
		if (strcmp(kv.val, "NO") == 0 || strcmp(kv.val, "No") == 0) {
			size_t l = strlen(failed);
			snprintf(failed + l, sizeof(failed) - l, "%s%s", l ? ", " : "", kv.key);
			continue;
		}
		if (pl_parse_num(kv.val, 0, &v) != 0)
			continue;
		id = -1;
		if (strcasecmp(kv.key, "Completed samples per second") == 0 ||
		    strcmp(kv.key, "Samples per second") == 0)
			id = PL_M_REQUEST_THROUGHPUT;
		else if (strcasecmp(kv.key, "Completed tokens per second") == 0 ||
		         strcmp(kv.key, "Tokens per second") == 0)
			id = PL_M_OUTPUT_THROUGHPUT;
		if (id >= 0) {
			if ((rc = pl_adapter_metric(run, id, v, 0, kv.key, kv.line, err)))
				break;
			continue;
		}
		if (strcmp(kv.key, "ttft_latency (ns)") == 0) {
			snprintf(ttft_limit, sizeof(ttft_limit), "%s", kv.val);
			continue;
		}
		if (strcmp(kv.key, "tpot_latency (ns)") == 0) {
			snprintf(tpot_limit, sizeof(tpot_limit), "%s", kv.val);
			continue;
		}
		if (strcmp(kv.key, "target_qps") == 0) {
			if ((rc = pl_run_set_cond(run, PL_C_REQUEST_RATE, kv.val, err)))
				break;
			continue;
		}
		id = latency_metric(kv.key);
		if (id >= 0 && (rc = pl_adapter_metric(run, id, v, -9, kv.key, kv.line, err)))
			break;
	}
	if (rc)
		return rc;
	if (strcmp(mode, "PerformanceOnly") != 0) {
		pl_error_field(err, "Mode");
		return pl_error_set(err, PL_EINVALID,
		                    "an MLPerf %s run holds no performance result (only PerformanceOnly "
		                    "summaries are imported)",
		                    mode[0] ? mode : "(no Mode line)");
	}
	if (strcmp(result, "VALID") != 0) {
		pl_error_field(err, "Result is");
		return pl_error_set(err, PL_EINVALID,
		                    "the MLPerf result is %s%s%s%s: LoadGen did not accept this run, so "
		                    "it is not imported",
		                    result[0] ? result : "(no 'Result is' line)",
		                    failed[0] ? " (not satisfied: " : "", failed[0] ? failed : "",
		                    failed[0] ? ")" : "");
	}
	if (strcmp(scenario, "Offline") == 0) {
		/* latencies of Offline are time since the start: drop them */
		for (int m = 0; m < PL_METRIC_COUNT; m++)
			if (pl_metric_info[m].unit == PL_U_SECONDS)
				run->has_metric[m] = 0, run->metric[m] = 0;
		if ((rc = pl_run_set_cond(run, PL_C_REQUEST_RATE, "inf", err)))
			return rc;
	} else if (strcmp(scenario, "Server") == 0) {
		if ((rc = limit(ttft_limit, PL_C_TTFT_LIMIT, "ttft_latency (ns)", run, err)) ||
		    (rc = limit(tpot_limit, PL_C_TPOT_LIMIT, "tpot_latency (ns)", run, err)))
			return rc;
	} else {
		pl_error_field(err, "Scenario");
		return pl_error_set(err, PL_EINVALID,
		                    "MLPerf scenario '%s' is not read (Server and Offline are)", scenario);
	}
	if ((rc = pl_run_set_cond(run, PL_C_SCENARIO, scenario, err)))
		return rc;
	if (!run->has_metric[PL_M_REQUEST_THROUGHPUT] && !run->has_metric[PL_M_OUTPUT_THROUGHPUT])
		return pl_error_set(err, PL_EINVALID, "the summary holds no throughput line");
	return walk_lines(buf, len, run, err);
}

const struct pl_adapter_impl pl_adapter_mlperf = {
	.info = &mlperf_info,
	.flags = PL_ADAPTER_BYTES,
	.detect = mlperf_detect,
	.parse = mlperf_parse,
};
