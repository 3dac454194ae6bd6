/*
 * csv_exports.c — CSV exports of benchmark tools, and CSV files that are
 * recognised but refused.
 *
 * Read (one adapter each, text hooks of the registry):
 *   aiperf-csv         AIPerf profile_export_aiperf.csv (and GenAI-Perf's
 *                      profile_export_genai_perf.csv): a statistics table
 *                      "Metric,avg,min,max,...", a "Metric,Value" table and a
 *                      GPU table, CRLF, blank cells for "not available"; the
 *                      unit is in each metric name ("Request Latency (ms)").
 *   genai-perf-analyze GenAI-Perf `analyze` export: a table of one row per
 *                      run configuration (p99 latencies, averages of
 *                      throughput) and a GPU table (ignored: p99 power and
 *                      memory are neither a mean nor a peak).
 *   inferencemax-summary-csv  InferenceMAX agentic_aggregated/summary.csv:
 *                      one row per run, latencies in MILLISECONDS.
 * Refused with a reason (pl_csv_refusal): MLPerf submission summary.csv
 * (its Units column says Queries/s for LLM tokens/s figures) and the
 * Argonne LLM-Inference-Bench result CSVs (no units at all).
 * Values are rounded by the tools (AIPerf CSV: two decimals); they are
 * stored as written. Every run is one row; record = 0-based data row.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/csv_util.h"
#include "adapters/json_util.h"

/* ---------------------------------------------------------------- helpers */

/* Number in a cell: 0 and *v, 1 when the cell is empty, PL_EINVALID. */
static int cell_num(const char *s, const char *what, long line, double *v, struct pl_error *err)
{
	*v = 0;
	if (!s[0])
		return 1;
	if (pl_parse_num(s, 0, v)) {
		pl_error_field(err, what);
		pl_error_at(err, NULL, line, 0);
		return pl_error_set(err, PL_EINVALID, "'%s' must be a number, got \"%.40s\"", what, s);
	}
	return 0;
}

/* Splits "Request Latency (ms)" into name "Request Latency" and unit "ms"
 * (unit "" when there is none). */
static void split_unit(const char *cell, char *name, size_t nn, char *unit, size_t un)
{
	size_t len = strlen(cell);
	const char *open = NULL;

	while (len > 0 && cell[len - 1] == ' ')
		len--;
	if (len > 0 && cell[len - 1] == ')')
		for (size_t i = len - 1; i > 0; i--)
			if (cell[i] == '(' && cell[i - 1] == ' ') {
				open = cell + i;
				break;
			}
	if (!open) {
		snprintf(name, nn, "%.*s", (int)len, cell);
		unit[0] = '\0';
		return;
	}
	snprintf(name, nn, "%.*s", (int)(open - 1 - cell), cell);
	snprintf(unit, un, "%.*s", (int)(cell + len - 1 - open - 1), open + 1);
}

static int new_run(struct pl_run_list *out, const char *adapter, const char *path, long record,
                   const char *tool, struct pl_run **run, struct pl_error *err)
{
	struct pl_run *r = pl_run_list_push(out);

	if (!r || pl_strset(&r->adapter, adapter) || pl_strset(&r->source, path))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	r->record = record;
	*run = r;
	return pl_run_set_cond(r, PL_C_BENCHMARK_TOOL, tool, err);
}

static int starts_with(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* --------------------------------------------------------------- refusals */

const char *pl_csv_refusal(const char *buf, size_t len)
{
	char first[1024];

	pl_csv_first_line(buf, len, first, sizeof(first));
	if (starts_with(first, "Organization,Availability,Division,SystemType,SystemName")) {
		const char *nl = memchr(buf, '\n', len);
		size_t rest = nl ? len - (size_t)(nl + 1 - buf) : 0;
		int data = 0;
		for (size_t i = 0; nl && i < rest; i++)
			if (nl[1 + i] != '\r' && nl[1 + i] != '\n' && nl[1 + i] != ' ')
				data = 1;
		if (!data)
			return "an MLPerf submission summary.csv that holds only its header row: no results "
			       "to import";
		return "an MLPerf submission summary.csv is not imported: its Units column cannot be "
		       "trusted (LLM rows give tokens/s figures labelled Queries/s or Samples/s, e.g. "
		       "llama2-70b Server 29715.3 'Queries/s'); import each run's "
		       "mlperf_log_summary.txt instead";
	}
	if (starts_with(first, ":::MLLOG "))
		return "an MLPerf mlperf_log_detail.txt (:::MLLOG event lines) is not read; import the "
		       "mlperf_log_summary.txt of the same run";
	if (starts_with(first, "Hardware,Num of Hardware,Framework,Model,"))
		return "an LLM-Inference-Bench (Argonne) result CSV is not imported: it states no units "
		       "(Latency, Throughput, TTFT Latency, end_latency, avg_power) and no definition "
		       "of Throughput (tokens or requests per second), and perfledger never guesses "
		       "a unit";
	return NULL;
}

/* -------------------------------------------------------------- aiperf-csv */

static const char *const aiperf_csv_mapping[] = {
	"statistics table \"Metric,avg,min,max,...\": the unit is the metric name's (...) suffix",
	"Time to First Token (ms|sec|ns|us) -> ttft_<stat>; Inter Token Latency -> tpot_<stat> (per request)",
	"Inter Chunk Latency -> itl_<stat>; Request Latency -> e2el_<stat>",
	"Output Token Throughput Per User (tokens/sec/user) -> tokens_per_second_<stat>",
	"<stat>: avg -> mean, min, max, p50, p90, p95, p99, std; p1, p5, p10, p25, p75, sum ignored",
	"Input Sequence Length (tokens) avg -> input_tokens_mean; Output Sequence Length avg -> output_tokens_mean",
	"Effective Concurrency avg -> concurrency_mean (measured)",
	"\"Metric,Value\" table: Request Count -> requests_completed (absent or 0 -> a failed run); "
	"Error Request Count -> requests_failed; error_rate = failed / (completed + failed), "
	"missing when the file has no error count",
	"Request Throughput (requests/sec) -> request_throughput; Output Token Throughput (tokens/sec) -> output_throughput",
	"Total Token Throughput (tokens/sec) -> total_token_throughput; Benchmark Duration (sec) -> duration",
	"Input Token Throughput -> not stored (prompt tokens only); GPU table -> not stored",
	"Minimum Request Timestamp (ns) -> run_started_at",
	"header with a p1 column (AIPerf 0.8) -> benchmark_tool = aiperf, else genai-perf; no model "
	"or load settings in the CSV: give them with --set",
	"other units on a stored metric -> refused",
	NULL,
};

static const struct pl_field aiperf_csv_fields[] = {
	{"Metric", PL_FATE_RECORDS, "the header of a table: statistics (avg, min, max, ...) or Metric,Value"},
	{"Time to First Token (*)", PL_FATE_METRIC, "ttft_<stat> (unit from the name)"},
	{"Inter Token Latency (*)", PL_FATE_METRIC, "tpot_<stat> (per request; unit from the name)"},
	{"Inter Chunk Latency (*)", PL_FATE_METRIC, "itl_<stat>"},
	{"Request Latency (*)", PL_FATE_METRIC, "e2el_<stat>"},
	{"Output Token Throughput Per User (tokens/sec/user)", PL_FATE_METRIC, "tokens_per_second_<stat>"},
	{"Input Sequence Length (tokens)", PL_FATE_METRIC, "input_tokens_mean (avg)"},
	{"Output Sequence Length (tokens)", PL_FATE_METRIC, "output_tokens_mean (avg)"},
	{"Effective Concurrency", PL_FATE_METRIC, "concurrency_mean (avg, measured)"},
	{"Request Count", PL_FATE_METRIC, "requests_completed (absent or 0 -> a failed run)"},
	{"Error Request Count", PL_FATE_METRIC, "requests_failed; -> error_rate"},
	{"Context Overflow Count", PL_FATE_IGNORED,
	 "requests refused for a prompt longer than the context; counted in Error Request Count"},
	{"Request Throughput (requests/sec)", PL_FATE_METRIC, "request_throughput"},
	{"Output Token Throughput (tokens/sec)", PL_FATE_METRIC, "output_throughput"},
	{"Total Token Throughput (tokens/sec)", PL_FATE_METRIC, "total_token_throughput"},
	{"Benchmark Duration (sec)", PL_FATE_METRIC, "duration (s)"},
	{"Minimum Request Timestamp (ns)", PL_FATE_CONDITION, "run_started_at (UTC, to the second)"},
	{"Input Token Throughput (tokens/sec)", PL_FATE_IGNORED, "prompt tokens only; not a canonical metric"},
	{"Endpoint", PL_FATE_IGNORED, "the GPU telemetry table (its header, and its rows named by endpoint): not read"},
	{"{Active,Effective} *", PL_FATE_IGNORED,
	 "AIPerf's active / effective throughputs, concurrencies and latencies: no canonical metric"},
	{"{E2E Output Token Throughput,Prefill Throughput Per User,Tokens In Flight} (*)", PL_FATE_IGNORED,
	 "no canonical metric (per-phase rates)"},
	{"{Credit Drop Latency,Credit-to-Start Latency} (ms)", PL_FATE_IGNORED, "the client's scheduling overhead"},
	{"HTTP *", PL_FATE_IGNORED, "the client's HTTP timing breakdown"},
	{"{Time to First Output Token,Time to Second Token} (*)", PL_FATE_IGNORED, "no canonical metric"},
	{"{Output Token Count,Total Output Tokens,Usage * Tokens,Total Usage * Tokens,"
	 "Total Input Sequence Length,Total Output Sequence Length} (tokens)",
	 PL_FATE_IGNORED, "other counts of tokens; the means stored are the sequence lengths"},
	{"{Requested OSL (tokens),OSL Mismatch Count,OSL Mismatch Diff % (%)}", PL_FATE_IGNORED,
	 "the requested output length and how often it was missed"},
	{"Theoretical Prefix Cache Hit (%)", PL_FATE_IGNORED, "a property of the prompt set"},
	{"Maximum Response Timestamp (ns)", PL_FATE_IGNORED, "the last response; the run start is stored"},
	{NULL, 0, NULL},
};

static const struct pl_format_version aiperf_csv_inventory[] = {
	{.version = "", .note = "AIPerf 0.8 / GenAI-Perf profile export CSV; keys are the Metric cells of each table",
	 .fields = aiperf_csv_fields},
	{.version = NULL},
};

static const struct pl_adapter_info aiperf_csv_info = {
	.name = "aiperf-csv",
	.versions = "AIPerf 0.8 profile_export_aiperf.csv; GenAI-Perf profile_export_genai_perf.csv",
	.description = "AIPerf / GenAI-Perf profile export CSV (several tables, CRLF)",
	.mapping = aiperf_csv_mapping,
	.inventory = aiperf_csv_inventory,
};

/* Checks every row name (column 0) of every table against the inventory;
 * an unknown row is kept with its cells after the name as the value. The
 * GPU telemetry table ("Endpoint,GPU_Index,...") is not read: only its
 * header is checked (its rows are named by the endpoint, not a metric). */
static int aiperf_csv_walk(const struct pl_csv *csv, struct pl_run *run, struct pl_error *err)
{
	for (size_t t = 0; t < csv->ntables; t++)
		for (size_t r = 0; r < csv->tables[t].nrows; r++) {
			const struct pl_csv_row *row = &csv->tables[t].rows[r];
			if (r > 0 && strcmp(pl_csv_cell(&csv->tables[t].rows[0], 0), "Endpoint") == 0)
				break;
			char value[PL_EXTRA_VALUE_MAX + 1];
			size_t used = 0;
			int rc;
			value[0] = '\0';
			for (size_t c = 1; c < row->ncells && used + 1 < sizeof(value); c++)
				used += (size_t)snprintf(value + used, sizeof(value) - used, "%s%s",
				                         c > 1 ? "," : "", row->cells[c]);
			if (used >= sizeof(value))
				used = sizeof(value) - 1;
			if (row->ncells == 0 || !row->cells[0][0])
				continue;
			if ((rc = pl_inventory_check(&aiperf_csv_info, NULL, row->cells[0], value, run, err)))
				return rc;
		}
	return 0;
}

static int aiperf_csv_detect(struct pl_adapter_input *in)
{
	char first[256];
	pl_csv_first_line(in->buf, in->len, first, sizeof(first));
	return starts_with(first, "Metric,avg,min,max");
}

static const struct {
	const char *name;
	const char *fam; /* family, or NULL for a single value (avg) */
	int single;      /* metric id when fam is NULL */
	int is_time;
} aiperf_rows[] = {
	{"Time to First Token", "ttft", 0, 1},
	{"Inter Token Latency", "tpot", 0, 1},
	{"Inter Chunk Latency", "itl", 0, 1},
	{"Request Latency", "e2el", 0, 1},
	{"Output Token Throughput Per User", "tokens_per_second", 0, 0},
	{"Input Sequence Length", NULL, PL_M_INPUT_TOKENS_MEAN, 0},
	{"Output Sequence Length", NULL, PL_M_OUTPUT_TOKENS_MEAN, 0},
	{"Effective Concurrency", NULL, PL_M_CONCURRENCY_MEAN, 0},
};

static int aiperf_stats(const struct pl_csv_table *t, struct pl_run *run, struct pl_error *err)
{
	static const char *const st_in[] = {"avg", "min", "max", "p50", "p90", "p95", "p99", "std", NULL};
	static const char *const st_out[] = {"mean", "min", "max", "p50", "p90", "p95", "p99", "std"};

	for (size_t r = 1; r < t->nrows; r++) {
		const struct pl_csv_row *row = &t->rows[r];
		char name[128], unit[64];
		int exp10 = 0;
		size_t k;

		split_unit(pl_csv_cell(row, 0), name, sizeof(name), unit, sizeof(unit));
		for (k = 0; k < sizeof(aiperf_rows) / sizeof(aiperf_rows[0]); k++)
			if (strcmp(name, aiperf_rows[k].name) == 0)
				break;
		if (k == sizeof(aiperf_rows) / sizeof(aiperf_rows[0]))
			continue;
		if (aiperf_rows[k].is_time ? pl_aiperf_time_exp(unit, &exp10) != 0
		    : aiperf_rows[k].fam ? strcmp(unit, "tokens/sec/user") != 0
		    : aiperf_rows[k].single == PL_M_CONCURRENCY_MEAN ? unit[0] != '\0'
		    : strcmp(unit, "tokens") != 0) {
			pl_error_field(err, pl_csv_cell(row, 0));
			pl_error_at(err, NULL, row->line, 0);
			return pl_error_set(err, PL_EINVALID, "unknown unit '%s' in '%s'", unit,
			                    pl_csv_cell(row, 0));
		}
		for (int s = 0; st_in[s]; s++) {
			int c = pl_csv_col(t, st_in[s]), rc, id;
			double v;
			char mname[64];
			if (c < 0)
				continue;
			if (!aiperf_rows[k].fam) {
				if (s != 0)
					continue;
				id = aiperf_rows[k].single;
			} else {
				snprintf(mname, sizeof(mname), "%s_%s", aiperf_rows[k].fam, st_out[s]);
				id = pl_metric_lookup(mname);
			}
			rc = cell_num(pl_csv_cell(row, c), pl_csv_cell(row, 0), row->line, &v, err);
			if (rc < 0)
				return rc;
			if (rc == 0) {
				char key[192];
				snprintf(key, sizeof(key), "%s, %s", pl_csv_cell(row, 0), st_in[s]);
				if ((rc = pl_adapter_metric(run, id, v, exp10, key, row->line, err)))
					return rc;
			}
		}
	}
	return 0;
}

static int aiperf_values(const struct pl_csv_table *t, struct pl_run *run, double *completed,
                         double *failed, struct pl_error *err)
{
	static const struct {
		const char *key;
		int id; /* -1: requests, -2: failed, -3: start timestamp */
	} map[] = {
		{"Request Count", -1},
		{"Error Request Count", -2},
		{"Minimum Request Timestamp (ns)", -3},
		{"Request Throughput (requests/sec)", PL_M_REQUEST_THROUGHPUT},
		{"Output Token Throughput (tokens/sec)", PL_M_OUTPUT_THROUGHPUT},
		{"Total Token Throughput (tokens/sec)", PL_M_TOTAL_TOKEN_THROUGHPUT},
		{"Benchmark Duration (sec)", PL_M_DURATION},
	};

	for (size_t r = 1; r < t->nrows; r++) {
		const struct pl_csv_row *row = &t->rows[r];
		for (size_t k = 0; k < sizeof(map) / sizeof(map[0]); k++) {
			double v;
			int rc;
			if (strcmp(pl_csv_cell(row, 0), map[k].key) != 0)
				continue;
			rc = cell_num(pl_csv_cell(row, 1), map[k].key, row->line, &v, err);
			if (rc < 0)
				return rc;
			if (rc)
				continue;
			if (map[k].id == -3) /* ns beyond 2^53: converted on its digits */
				rc = pl_adapter_epoch_ns_text(run, pl_csv_cell(row, 1), err);
			else if (map[k].id == -1)
				*completed = v;
			else if (map[k].id == -2)
				*failed = v;
			else
				rc = pl_adapter_metric(run, map[k].id, v, 0, map[k].key, row->line, err);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int aiperf_csv_parse(struct pl_adapter_input *in, struct pl_run_list *out,
                            struct pl_error *err)
{
	const char *path = in->path, *buf = in->buf;
	size_t len = in->len;
	struct pl_csv csv;
	struct pl_run *run = NULL;
	double completed = 0, failed = -1;
	int rc, stats_seen = 0;

	if ((rc = pl_csv_parse(path, buf, len, &csv, err)))
		return rc;
	rc = new_run(out, "aiperf-csv", path, 0,
	             pl_csv_col(&csv.tables[0], "p1") >= 0 ? "aiperf" : "genai-perf", &run, err);
	for (size_t t = 0; t < csv.ntables && rc == 0; t++) {
		const struct pl_csv_table *tb = &csv.tables[t];
		const char *h0 = tb->nrows ? pl_csv_cell(&tb->rows[0], 0) : "";
		const char *h1 = tb->nrows ? pl_csv_cell(&tb->rows[0], 1) : "";
		if (strcmp(h0, "Metric") == 0 && strcmp(h1, "Value") == 0)
			rc = aiperf_values(tb, run, &completed, &failed, err);
		else if (strcmp(h0, "Metric") == 0 && strcmp(h1, "avg") == 0 && !stats_seen++)
			rc = aiperf_stats(tb, run, err);
	}
	if (rc == 0)
		rc = pl_adapter_requests(run, completed, failed, "Request Count", err);
	if (rc == 0)
		rc = aiperf_csv_walk(&csv, run, err);
	pl_csv_release(&csv);
	return rc;
}

const struct pl_adapter_impl pl_adapter_aiperf_csv = {
	.info = &aiperf_csv_info,
	.flags = PL_ADAPTER_BYTES,
	.detect = aiperf_csv_detect,
	.parse = aiperf_csv_parse,
};

/* ------------------------------------------------------ genai-perf-analyze */

static const char *const gpa_mapping[] = {
	"first table, one run per row (record = row index); Config Name not parsed",
	"Concurrency -> concurrency; ISL -> input_tokens; Num Prompts -> num_prompts",
	"p99 Time To First Token (ms) -> ttft_p99; p99 Inter Token Latency (ms) -> tpot_p99 (per request)",
	"p99 Request Latency (ms) -> e2el_p99 (ms / 1000 = s)",
	"Avg. Output Token Throughput (tokens/sec) -> output_throughput; Request Throughput (requests/sec) -> request_throughput",
	"p99 Output Sequence Length -> not stored (a p99, not the mean)",
	"GPU table (p99 power, energy, utilisation, memory) -> not stored: neither a mean nor a peak",
	"(constant) -> benchmark_tool = genai-perf; no request counts: error_rate missing",
	NULL,
};

static const struct pl_field gpa_fields[] = {
	{"Config Name", PL_FATE_IGNORED, "the analyze run's label; its settings are the other columns"},
	{"Concurrency", PL_FATE_CONDITION, "concurrency"},
	{"ISL", PL_FATE_CONDITION, "input_tokens"},
	{"Num Prompts", PL_FATE_CONDITION, "num_prompts"},
	{"p99 Time To First Token (ms)", PL_FATE_METRIC, "ttft_p99 (s, ms / 1000)"},
	{"p99 Inter Token Latency (ms)", PL_FATE_METRIC, "tpot_p99 (per request; s)"},
	{"p99 Request Latency (ms)", PL_FATE_METRIC, "e2el_p99 (s)"},
	{"Avg. Output Token Throughput (tokens/sec)", PL_FATE_METRIC, "output_throughput"},
	{"Request Throughput (requests/sec)", PL_FATE_METRIC, "request_throughput"},
	{"p99 Output Sequence Length (tokens)", PL_FATE_IGNORED, "a p99 of the lengths, not their mean"},
	{NULL, 0, NULL},
};

static const struct pl_format_version gpa_inventory[] = {
	{.version = "", .note = "analyze_export_genai_perf.csv; keys are the columns of the first table (the GPU table is not read)",
	 .fields = gpa_fields},
	{.version = NULL},
};

static const struct pl_adapter_info gpa_info = {
	.name = "genai-perf-analyze",
	.versions = "GenAI-Perf analyze_export_genai_perf.csv (late 2024)",
	.description = "GenAI-Perf `analyze` sweep export CSV (one row per run configuration)",
	.mapping = gpa_mapping,
	.inventory = gpa_inventory,
};

/* Checks the columns of the header row of t against info's inventory; an
 * unknown column is kept on run with the cell of row. */
static int walk_columns(const struct pl_adapter_info *info, const struct pl_csv_table *t,
                        const struct pl_csv_row *row, struct pl_run *run, struct pl_error *err)
{
	const struct pl_csv_row *head = &t->rows[0];

	for (size_t c = 0; c < head->ncells; c++) {
		int rc;
		if (!head->cells[c][0])
			continue;
		rc = pl_inventory_check(info, NULL, head->cells[c], pl_csv_cell(row, (int)c), run, err);
		if (rc)
			return rc;
	}
	return 0;
}

static int gpa_detect(struct pl_adapter_input *in)
{
	char first[512];
	pl_csv_first_line(in->buf, in->len, first, sizeof(first));
	return starts_with(first, "Config Name,Concurrency,");
}

static int gpa_parse(struct pl_adapter_input *in, struct pl_run_list *out, struct pl_error *err)
{
	const char *path = in->path, *buf = in->buf;
	size_t len = in->len;
	static const struct {
		const char *col;
		int cond;   /* condition id, or -1 */
		int metric; /* metric id when cond is -1 */
		int exp10;
	} map[] = {
		{"Concurrency", PL_C_CONCURRENCY, 0, 0},
		{"ISL", PL_C_INPUT_TOKENS, 0, 0},
		{"Num Prompts", PL_C_NUM_PROMPTS, 0, 0},
		{"p99 Time To First Token (ms)", -1, PL_M_TTFT_P99, -3},
		{"p99 Inter Token Latency (ms)", -1, PL_M_TPOT_P99, -3},
		{"p99 Request Latency (ms)", -1, PL_M_E2EL_P99, -3},
		{"Avg. Output Token Throughput (tokens/sec)", -1, PL_M_OUTPUT_THROUGHPUT, 0},
		{"Request Throughput (requests/sec)", -1, PL_M_REQUEST_THROUGHPUT, 0},
	};
	struct pl_csv csv;
	const struct pl_csv_table *t;
	int rc;

	if ((rc = pl_csv_parse(path, buf, len, &csv, err)))
		return rc;
	t = &csv.tables[0];
	if (t->nrows < 2) {
		pl_csv_release(&csv);
		return pl_error_set(err, PL_EINVALID, "the file holds no runs (a header and no rows)");
	}
	for (size_t r = 1; r < t->nrows && rc == 0; r++) {
		const struct pl_csv_row *row = &t->rows[r];
		struct pl_run *run = NULL;
		if ((rc = new_run(out, "genai-perf-analyze", path, (long)r - 1, "genai-perf", &run, err)))
			break;
		for (size_t k = 0; k < sizeof(map) / sizeof(map[0]) && rc == 0; k++) {
			int c = pl_csv_col(t, map[k].col);
			double v;
			if (c < 0)
				continue;
			rc = cell_num(pl_csv_cell(row, c), map[k].col, row->line, &v, err);
			if (rc == 1) {
				rc = 0;
				continue;
			}
			if (rc)
				break;
			if (map[k].cond >= 0)
				rc = pl_run_set_cond(run, map[k].cond, pl_csv_cell(row, c), err);
			else
				rc = pl_adapter_metric(run, map[k].metric, v, map[k].exp10, map[k].col, row->line,
				                       err);
		}
		if (rc == 0)
			rc = walk_columns(&gpa_info, t, row, run, err);
		if (rc && err && err->line == 0)
			pl_error_at(err, NULL, row->line, 0);
		if (rc && rc != PL_ENOMEM && err && t->nrows > 2)
			rc = pl_adapter_reject_record(run, path, err);
	}
	pl_csv_release(&csv);
	return rc;
}

const struct pl_adapter_impl pl_adapter_genai_perf_analyze = {
	.info = &gpa_info,
	.flags = PL_ADAPTER_BYTES,
	.detect = gpa_detect,
	.parse = gpa_parse,
};

/* ------------------------------------------------ inferencemax-summary-csv */

static const char *const ixs_mapping[] = {
	"one run per row (record = row index)",
	"tp -> tensor_parallel_size; conc -> concurrency; offload -> kv_offload (none, lmcache, ...)",
	"exp_name segment tpN-epM-dpaX_disagg-Y_spec-Z: epM -> expert_parallel_size; spec-Z -> "
	"speculative_method; dpaX -> extra inferencemax-summary-csv.dp_attention; disagg-Y -> extra "
	"inferencemax-summary-csv.disagg; tpN must equal tp (else rejected); other parts (model, "
	"precision, engine, hardware, run index) not read: supply them with --set",
	"num_requests -> requests_completed; num_requests 0 -> a failed run (stored, flagged, never "
	"pooled); a row whose status is not SUCCESS measured nothing: not stored, with a warning "
	"naming its row (no row left -> the file is rejected); any other bad row is rejected alone, "
	"the others stored",
	"throughput_rps -> request_throughput; output_throughput_tps -> output_throughput; total_throughput_tps -> total_token_throughput",
	"input_throughput_tps -> not stored (prompt tokens only)",
	"mean/p50/p90/p99_ttft_ms -> ttft_mean/p50/p90/p99 (MILLISECONDS, / 1000 = s)",
	"mean/p50/p90/p99_tpot_ms -> tpot_*; mean/p50/p90/p99_latency_ms -> e2el_*",
	"(constant) -> benchmark_tool = inferencemax; no failure count: error_rate missing",
	NULL,
};

static const struct pl_field ixs_fields[] = {
	{"exp_name", PL_FATE_IGNORED, "the experiment's label; its settings are the other columns (not parsed from the name)"},
	{"tp", PL_FATE_CONDITION, "tensor_parallel_size"},
	{"conc", PL_FATE_CONDITION, "concurrency"},
	{"offload", PL_FATE_CONDITION, "kv_offload (none, lmcache, ...)"},
	{"status", PL_FATE_DERIVED, "a row that is not SUCCESS is rejected"},
	{"num_requests", PL_FATE_METRIC, "requests_completed (0 -> a failed run)"},
	{"throughput_rps", PL_FATE_METRIC, "request_throughput"},
	{"output_throughput_tps", PL_FATE_METRIC, "output_throughput"},
	{"total_throughput_tps", PL_FATE_METRIC, "total_token_throughput"},
	{"input_throughput_tps", PL_FATE_IGNORED, "prompt tokens only; not a canonical metric"},
	{"{mean,p50,p90,p99}_{ttft,tpot}_ms", PL_FATE_METRIC, "ttft / tpot _<stat> (s, ms / 1000)"},
	{"{mean,p50,p90,p99}_latency_ms", PL_FATE_METRIC, "e2el_<stat> (s, ms / 1000)"},
	{NULL, 0, NULL},
};

static const struct pl_format_version ixs_inventory[] = {
	{.version = "", .note = "agentic_aggregated/summary.csv (2026); keys are the columns", .fields = ixs_fields},
	{.version = NULL},
};

static const struct pl_adapter_info ixs_info = {
	.name = "inferencemax-summary-csv",
	.versions = "InferenceMAX agentic_aggregated/summary.csv (2026)",
	.description = "InferenceMAX agentic summary CSV (milliseconds)",
	.mapping = ixs_mapping,
	.inventory = ixs_inventory,
};


/* The value after prefix in the first '_'-separated segment of name that
 * starts with prefix and contains has (NULL: anything), e.g. "none" for
 * "spec-" in "..._spec-none_conc12_...", copied to out; 0, or 1 when there
 * is none (or it does not fit). */
static int ixs_segment(const char *name, const char *prefix, const char *has, char *out,
                       size_t n)
{
	size_t pl = strlen(prefix);

	for (const char *p = name; p; p = strchr(p, '_')) {
		size_t len;
		if (*p == '_')
			p++;
		len = strcspn(p, "_");
		if (len > pl && strncmp(p, prefix, pl) == 0 && len - pl < n) {
			snprintf(out, n, "%.*s", (int)(len - pl), p + pl);
			if (!has || strstr(out, has))
				return 0;
		}
	}
	return 1;
}

/* Conditions that only exp_name records, from its segments
 * "tp4-ep1-dpafalse", "disagg-false" and "spec-none": expert parallel size,
 * speculative method, and the extras dp_attention and disagg. The tp of
 * the name must equal the tp column. A name without these segments
 * records none of them. */
static int ixs_exp_name(const char *name, const char *tp, struct pl_run *run, long line,
                        struct pl_error *err)
{
	char par[64], v[64];
	int rc = 0;

	if (ixs_segment(name, "tp", "-ep", par, sizeof(par)) == 0) {
		size_t n = strspn(par, "0123456789");
		const char *ep = strstr(par, "-ep"), *dpa = strstr(par, "-dpa");
		if (n == 0 || strncmp(par + n, "-ep", 3) != 0 || strlen(tp) != n ||
		    strncmp(par, tp, n) != 0) {
			pl_error_field(err, "exp_name");
			pl_error_at(err, NULL, line, 0);
			return pl_error_set(err, PL_EINVALID,
			                    "exp_name segment 'tp%.40s' does not match tp '%.40s'", par, tp);
		}
		snprintf(v, sizeof(v), "%.*s", (int)strspn(ep + 3, "0123456789"), ep + 3);
		if (*v && (rc = pl_run_set_cond(run, PL_C_EXPERT_PARALLEL_SIZE, v, err)))
			return rc;
		if (dpa) {
			snprintf(v, sizeof(v), "%.*s", (int)strcspn(dpa + 4, "-"), dpa + 4);
			if (*v && (rc = pl_run_set_extra(run, "inferencemax-summary-csv.dp_attention", v, err)))
				return rc;
		}
	}
	if (ixs_segment(name, "disagg-", NULL, v, sizeof(v)) == 0 &&
	    (rc = pl_run_set_extra(run, "inferencemax-summary-csv.disagg", v, err)))
		return rc;
	if (ixs_segment(name, "spec-", NULL, v, sizeof(v)) == 0 &&
	    (rc = pl_run_set_cond(run, PL_C_SPECULATIVE_METHOD, v, err)))
		return rc;
	return 0;
}

/* Appends "row r (line l): reason" to why (of size n), after "; " unless
 * it is the first (skipped == 0); " ..." once when it no longer fits. */
static void ixs_skip(char *why, size_t n, size_t skipped, size_t r, long line,
                     const char *reason)
{
	size_t l = strlen(why);
	char item[600];
	int k = snprintf(item, sizeof(item), "%srow %zu (line %ld): %s", skipped ? "; " : "", r, line,
	                 reason);

	if (k > 0 && l + (size_t)k < n - 4)
		memcpy(why + l, item, (size_t)k + 1);
	else if (l + 4 < n && (l < 4 || strcmp(why + l - 4, " ...") != 0))
		memcpy(why + l, " ...", 5);
}

static int ixs_detect(struct pl_adapter_input *in)
{
	char first[512];
	pl_csv_first_line(in->buf, in->len, first, sizeof(first));
	return starts_with(first, "exp_name,tp,conc,");
}

static int ixs_parse(struct pl_adapter_input *in, struct pl_run_list *out, struct pl_error *err)
{
	const char *path = in->path, *buf = in->buf;
	size_t len = in->len;
	static const char *const fam_in[] = {"ttft", "tpot", "latency"};
	static const char *const fam_out[] = {"ttft", "tpot", "e2el"};
	static const char *const st_in[] = {"mean", "p50", "p90", "p99"};
	static const struct {
		const char *col;
		int id;
	} single[] = {
		{"throughput_rps", PL_M_REQUEST_THROUGHPUT},
		{"output_throughput_tps", PL_M_OUTPUT_THROUGHPUT},
		{"total_throughput_tps", PL_M_TOTAL_TOKEN_THROUGHPUT},
	};
	struct pl_csv csv;
	const struct pl_csv_table *t;
	size_t first = out->n, skipped = 0;
	char why[sizeof(err->message)] = "";
	int rc;

	if ((rc = pl_csv_parse(path, buf, len, &csv, err)))
		return rc;
	t = &csv.tables[0];
	for (size_t r = 1; r < t->nrows && rc == 0; r++) {
		const struct pl_csv_row *row = &t->rows[r];
		const char *status = pl_csv_cell(row, pl_csv_col(t, "status"));
		struct pl_run *run = NULL;
		const char *offload;
		char m[sizeof(err->message)];
		double n = 0;

		if ((rc = new_run(out, "inferencemax-summary-csv", path, (long)r - 1, "inferencemax", &run,
		                  err)))
			break;
		/* a row whose status is not SUCCESS measured nothing: not stored,
		 * named in a warning; the file is rejected only when no row is
		 * left. A row where no request completed is a failed run (stored,
		 * flagged: pl_adapter_requests) */
		if (strcmp(status, "SUCCESS") != 0) {
			snprintf(m, sizeof(m), "status '%.40s' is not SUCCESS", status);
		} else {
			if ((rc = cell_num(pl_csv_cell(row, pl_csv_col(t, "num_requests")), "num_requests",
			                   row->line, &n, err)) < 0)
				break;
			rc = pl_adapter_requests(run, rc == 1 ? 0 : n, -1, "num_requests", err);
			if (rc)
				snprintf(m, sizeof(m), "%s", err->message);
		}
		if (strcmp(status, "SUCCESS") != 0 || rc) {
			ixs_skip(why, sizeof(why), skipped++, r, row->line, m);
			pl_run_release(&out->v[--out->n]);
			rc = 0;
			continue;
		}
		offload = pl_csv_cell(row, pl_csv_col(t, "offload"));
		/* an error here is the row's: rejected below */
		rc = pl_run_set_cond(run, PL_C_TENSOR_PARALLEL_SIZE, pl_csv_cell(row, pl_csv_col(t, "tp")),
		                     err);
		if (rc == 0)
			rc = pl_run_set_cond(run, PL_C_CONCURRENCY, pl_csv_cell(row, pl_csv_col(t, "conc")),
			                     err);
		if (rc == 0 && *offload)
			rc = pl_run_set_cond(run, PL_C_KV_OFFLOAD, offload, err);
		if (rc == 0)
			rc = ixs_exp_name(pl_csv_cell(row, pl_csv_col(t, "exp_name")),
			                  pl_csv_cell(row, pl_csv_col(t, "tp")), run, row->line, err);
		for (size_t k = 0; k < 3 && rc == 0; k++) {
			double v;
			int c = pl_csv_col(t, single[k].col);
			rc = c < 0 ? 1 : cell_num(pl_csv_cell(row, c), single[k].col, row->line, &v, err);
			if (rc == 0)
				rc = pl_adapter_metric(run, single[k].id, v, 0, single[k].col, row->line, err);
			if (rc == 1)
				rc = 0;
		}
		for (size_t f = 0; f < 3 && rc == 0; f++)
			for (size_t s = 0; s < 4 && rc == 0; s++) {
				char col[64], name[64];
				double v;
				int c;
				snprintf(col, sizeof(col), "%s_%s_ms", st_in[s], fam_in[f]);
				snprintf(name, sizeof(name), "%s_%s", fam_out[f], st_in[s]);
				c = pl_csv_col(t, col);
				rc = c < 0 ? 1 : cell_num(pl_csv_cell(row, c), col, row->line, &v, err);
				if (rc == 0)
					rc = pl_adapter_metric(run, pl_metric_lookup(name), v, -3, col, row->line, err);
				if (rc == 1)
					rc = 0;
			}
		if (rc == 0)
			rc = walk_columns(&ixs_info, t, row, run, err);
		/* one bad row of the sweep: that row is rejected, the others kept */
		if (rc && err && err->line == 0)
			pl_error_at(err, NULL, row->line, 0);
		if (rc && rc != PL_ENOMEM && t->nrows > 2)
			rc = pl_adapter_reject_record(run, path, err);
	}
	pl_csv_release(&csv);
	if (rc == 0 && skipped && out->n == first) {
		pl_error_field(err, "num_requests");
		return pl_error_set(err, PL_EINVALID, "%s", why);
	}
	if (rc == 0 && skipped)
		pl_run_warn(&out->v[first], "%zu failed run%s not stored: %s", skipped,
		            skipped == 1 ? "" : "s", why);
	return rc;
}

const struct pl_adapter_impl pl_adapter_inferencemax_csv = {
	.info = &ixs_info,
	.flags = PL_ADAPTER_BYTES,
	.detect = ixs_detect,
	.parse = ixs_parse,
};
