/*
 * registry.c — the list of input adapters, format detection, and the one
 * entry point that turns a file's bytes into canonical runs.
 *
 * Every adapter gets the same struct pl_adapter_input (adapter_impl.h).
 * Detection: the adapters that recognise their bytes (text, CSV, YAML)
 * first; then CSV files refused by name; then the input is parsed as JSON
 * (once: the document is kept on the input for the adapter's parse()),
 * files that hold no run are named, and the JSON detectors run in order.
 * The adapter's runs go to a private list that is appended to the
 * caller's list only when the whole file converted, so a file is atomic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/requests_impl.h"
#include "adapters/adapters.h"
#include "adapters/json_util.h"

/* Detection order: the tool formats have narrow detectors and come before
 * the descriptor, whose detector (a "metric(s)" object, or model + engine)
 * is broad. */
static const struct pl_adapter_impl *const impls[] = {
	&pl_adapter_vllm_serving,
	&pl_adapter_sglang,
	&pl_adapter_llmperf,
	&pl_adapter_aiperf,
	&pl_adapter_llama_bench,
	&pl_adapter_inferencemax,
	&pl_adapter_guidellm,
	&pl_adapter_mlperf,
	&pl_adapter_aiperf_csv,
	&pl_adapter_genai_perf_analyze,
	&pl_adapter_inferencemax_csv,
	&pl_adapter_trtllm_bench,
	&pl_adapter_vllm_offline,
	&pl_adapter_genai_bench,
	&pl_adapter_inference_perf,
	&pl_adapter_inference_benchmarker,
	&pl_adapter_evalscope,
	&pl_adapter_ledger, /* before the descriptor: a list entry has a "metrics" object */
	&pl_adapter_descriptor,
};
#define NIMPLS (sizeof(impls) / sizeof(impls[0]))

/* Listing order (`perfledger formats`, "known: ..." in messages): our own
 * descriptor first, then the tools in detection order. */
static const struct pl_adapter_impl *listed(size_t i)
{
	if (i == 0)
		return &pl_adapter_descriptor;
	return impls[i - 1];
}

const struct pl_adapter_info *pl_adapters_list(size_t *count)
{
	static struct pl_adapter_info infos[NIMPLS];

	for (size_t i = 0; i < NIMPLS; i++)
		infos[i] = *listed(i)->info;
	if (count)
		*count = NIMPLS;
	return infos;
}

static int has_ext(const char *path, const char *ext)
{
	size_t n = strlen(path), m = strlen(ext);
	return n >= m && strcmp(path + n - m, ext) == 0;
}

/* "descriptor, vllm-serving, ..." in list order. */
static const char *known_formats(void)
{
	static char buf[512];

	if (!buf[0])
		for (size_t i = 0; i < NIMPLS; i++) {
			size_t len = strlen(buf);
			snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? ", " : "", listed(i)->info->name);
		}
	return buf;
}

/* A recognisable format that no adapter reads yet: a hint for the message. */
static const char *unsupported_hint(const cJSON *obj)
{
	if (pl_json_get(obj, "Mean TTFT (ms)") || pl_json_get(obj, "Test name"))
		return "a vLLM nightly-benchmarks table (rows with display keys like \"Mean TTFT (ms)\")";
	return NULL;
}

/* Keys that only other tools write: a file the broad descriptor detector
 * took but that holds one of these at the top level is another tool's
 * output in a shape no adapter reads, and is reported as an unknown
 * format naming what it looks like, not as a descriptor with an unknown
 * field. */
static const struct {
	const char *key;
	const char *tool;
} foreign_keys[] = {
	{"hw", "InferenceMAX output"},
	{"conc", "InferenceMAX output"},
	{"framework", "InferenceMAX or llmperf-leaderboard output"},
	{"tput_per_gpu", "InferenceMAX output"},
	{"backend", "vLLM / SGLang benchmark output"},
	{"completed", "vLLM / SGLang benchmark output"},
	{"max_concurrency", "vLLM / SGLang benchmark output"},
	{"request_throughput", "vLLM / SGLang benchmark output"},
	{"num_completed_requests", "llmperf output"},
	{"input_config", "AIPerf / GenAI-Perf output"},
	{"aiperf_version", "AIPerf output"},
	{"n_prompt", "llama-bench output"},
	{"build_commit", "llama-bench output"},
	{"benchmarks", "GuideLLM output"},
	{"system_type", "an MLPerf system description"},
};

/* The first entry of foreign_keys (in table order) that obj holds, or NULL.
 * One walk over obj's members instead of a pl_json_get() per entry: every
 * descriptor comes here, and the 15 lookups were 2% of the parser thread. */
static const char *foreign_tool(const cJSON *obj, const char **key)
{
	size_t best = sizeof(foreign_keys) / sizeof(foreign_keys[0]);

	if (!cJSON_IsObject(obj))
		return NULL;
	for (const cJSON *it = obj->child; it && it->string; it = it->next)
		for (size_t i = 0; i < best; i++)
			if (it->string[0] == foreign_keys[i].key[0] &&
			    strcmp(it->string, foreign_keys[i].key) == 0) {
				best = i;
				break;
			}
	if (best == sizeof(foreign_keys) / sizeof(foreign_keys[0]))
		return NULL;
	*key = foreign_keys[best].key;
	return foreign_keys[best].tool;
}

/* A recognisable file that holds no run (per-request records, system
 * descriptions, counters): the whole message, or NULL. */
static const char *not_a_run(const cJSON *obj)
{
	const cJSON *first = obj ? obj->child : NULL;

	if (pl_json_get(obj, "ttft_s") && pl_json_get(obj, "error_code"))
		return "llmperf per-request responses (*_individual_responses.json) are not a run; "
		       "they are imported with the run of the *_summary.json beside them";
	if (pl_json_get(pl_json_get(obj, "metadata"), "x_request_id"))
		return "AIPerf per-request records (profile_export.jsonl) are not a run; "
		       "they are imported with the run of the profile_export_aiperf.json beside them";
	if (cJSON_IsObject(pl_json_get(obj, "Results")))
		return "a GenAI-Perf analyze checkpoint (checkpoint.json) is internal state, not a run; "
		       "import the profile exports of its runs";
	if (pl_json_get(obj, "accelerator_model_name") && pl_json_get(obj, "system_type"))
		return "an MLPerf system description (systems/*.json) holds conditions, not results; "
		       "give it as the sidecar NAME.conditions.json of NAME.txt (mlperf_log_summary.txt) "
		       "or with --set";
	if (pl_json_get(obj, "weight_data_types") || pl_json_get(obj, "input_data_types"))
		return "an MLPerf measurements description (measurements/*.json) holds conditions, "
		       "not results";
	if (cJSON_IsObject(first) && pl_json_get(first, "n_success") && pl_json_get(first, "total"))
		return "InferenceMAX run_stats.json (success counters per hardware) is not a run";
	return NULL;
}

static void locate(struct pl_error *err, const char *path, const struct pl_json_doc *doc,
                   const struct pl_json_record *rec)
{
	if (!err)
		return;
	if (err->line == 0 && rec && rec->line > 0)
		pl_error_at(err, path, rec->line, 0);
	else
		pl_error_at(err, path, err->line, err->column);
	if (rec && doc->container == PL_JSON_ARRAY)
		pl_error_prefix_record(err, rec->index);
}

int pl_adapter_input_doc(struct pl_adapter_input *in, const struct pl_json_doc **doc,
                         struct pl_error *err)
{
	if (in->doc_state == 0) {
		pl_error_init(&in->doc_err);
		in->doc_state = pl_json_parse_records(in->path, in->buf, in->len, &in->doc, &in->doc_err)
		                    ? -1
		                    : 1;
	}
	if (in->doc_state < 0) {
		if (err)
			*err = in->doc_err;
		return in->doc_err.code ? in->doc_err.code : PL_ESYNTAX;
	}
	*doc = &in->doc;
	return 0;
}

const cJSON *pl_adapter_input_first(struct pl_adapter_input *in)
{
	const struct pl_json_doc *doc;

	if (pl_adapter_input_doc(in, &doc, NULL) || doc->nrecords == 0 ||
	    !cJSON_IsObject(doc->records[0].obj))
		return NULL;
	return doc->records[0].obj;
}

int pl_adapter_reject_record(struct pl_run *run, const char *path, struct pl_error *err)
{
	if (!err->file[0])
		pl_error_at(err, path, err->line, err->column);
	if (pl_run_reject(run, err))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	pl_error_init(err);
	return 0;
}

int pl_adapter_records(const struct pl_adapter_impl *impl, struct pl_adapter_input *in,
                       int (*convert)(const cJSON *obj, struct pl_run *run, struct pl_error *err),
                       struct pl_run_list *out, struct pl_error *err)
{
	const struct pl_json_doc *doc;
	int rc = pl_adapter_input_doc(in, &doc, err);

	if (rc)
		return rc;
	if (doc->nrecords == 0) {
		pl_error_at(err, in->path, 0, 0);
		return pl_error_set(err, PL_EINVALID, "the file holds no runs (an empty array)");
	}
	for (size_t i = 0; i < doc->nrecords && rc == 0; i++) {
		const struct pl_json_record *rec = &doc->records[i];
		struct pl_run *run = pl_run_list_push(out);

		if (!run || pl_strset(&run->adapter, impl->info->name) ||
		    pl_strset(&run->source, in->path) ||
		    pl_strset(&run->format_version, impl->format_version))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		run->record = rec->index;
		if (!cJSON_IsObject(rec->obj))
			rc = pl_error_set(err, PL_EINVALID, "a %s record must be a JSON object, got %s",
			                  impl->info->name, pl_json_type_name(rec->obj));
		else if (pl_json_forget_failed(), (rc = convert(rec->obj, run, err)) == 0)
			rc = pl_inventory_walk(impl->info, run->format_version, rec->obj, "", run, err);
		else
			pl_json_name_failed(rec->obj, err);
		if (rc)
			locate(err, in->path, doc, rec);
		/* one bad record of several: that record is rejected, the file's
		 * others are kept (the importer reports it; --strict rejects the
		 * batch) */
		if (rc && rc != PL_ENOMEM && doc->nrecords > 1 && err)
			rc = pl_adapter_reject_record(run, in->path, err);
	}
	return rc;
}

/* The adapter named format, or NULL. */
static const struct pl_adapter_impl *by_name(const char *format)
{
	for (size_t i = 0; i < NIMPLS; i++)
		if (strcmp(impls[i]->info->name, format) == 0)
			return impls[i];
	return NULL;
}

/* Detection (see the top of the file): 0 and *impl, or the refusal. */
static int detect(struct pl_adapter_input *in, const struct pl_adapter_impl **impl,
                  struct pl_error *err)
{
	const char *path = in->path, *buf = in->buf;
	size_t len = in->len;
	const struct pl_json_doc *doc;
	const cJSON *first;
	const char *why;
	int rc;

	for (size_t i = 0; i < NIMPLS; i++)
		if ((impls[i]->flags & PL_ADAPTER_BYTES) && impls[i]->detect(in)) {
			*impl = impls[i];
			return 0;
		}
	why = pl_csv_refusal(buf, len);
	if (why) {
		pl_error_at(err, path, 0, 0);
		return pl_error_set(err, PL_EFORMAT, "%s", why);
	}
	if (has_ext(path, ".csv") || has_ext(path, ".txt") || has_ext(path, ".yaml") ||
	    has_ext(path, ".yml")) {
		char head[72];
		size_t k = 0;
		for (size_t i = 0; i < len && k + 1 < sizeof(head) && buf[i] != '\n' && buf[i] != '\r';
		     i++)
			head[k++] = (unsigned char)buf[i] < 0x20 || buf[i] == 0x7f ? '?' : buf[i];
		head[k] = '\0';
		pl_error_at(err, path, 0, 0);
		return pl_error_set(err, PL_EFORMAT,
		                    "unknown format: no adapter reads this %s file (it starts "
		                    "\"%s\"; known: %s)",
		                    strrchr(path, '.'), head, known_formats());
	}
	if ((rc = pl_adapter_input_doc(in, &doc, err)))
		return rc;
	if (doc->nrecords == 0) {
		pl_error_at(err, path, 0, 0);
		return pl_error_set(err, PL_EINVALID, "the file holds no runs (an empty array)");
	}
	first = doc->records[0].obj;
	if (cJSON_IsObject(first) && (why = not_a_run(first)) != NULL) {
		pl_error_at(err, path, 0, 0);
		return pl_error_set(err, PL_EFORMAT, "%s", why);
	}
	for (size_t i = 0; i < NIMPLS; i++)
		if (!(impls[i]->flags & PL_ADAPTER_BYTES) && cJSON_IsObject(first) &&
		    impls[i]->detect(in)) {
			*impl = impls[i];
			break;
		}
	if (!*impl) {
		const char *hint = cJSON_IsObject(first) ? unsupported_hint(first) : NULL;
		pl_error_at(err, path, 0, 0);
		if (hint)
			return pl_error_set(err, PL_EFORMAT,
			                    "this looks like %s, which no adapter reads yet (known: %s)", hint,
			                    known_formats());
		return pl_error_set(err, PL_EFORMAT,
		                    "no input format recognises this file (known: %s; force one with --format)",
		                    known_formats());
	}
	if (*impl == &pl_adapter_descriptor) {
		const char *key = NULL, *tool = foreign_tool(first, &key);
		if (tool) {
			pl_error_at(err, path, 0, 0);
			return pl_error_set(err, PL_EFORMAT,
			                    "unknown format: this looks like %s (it has the key '%s') "
			                    "in a shape no adapter reads (known: %s; force one with --format)",
			                    tool, key, known_formats());
		}
	}
	return 0;
}

/* 1 if run has a latency (TTFT, TPOT, ITL, E2EL) or a throughput metric,
 * or is a failed run (pl_run_failed: there is nothing to measure). */
static int measured(const struct pl_run *run)
{
	static const int throughput[] = {PL_M_OUTPUT_THROUGHPUT, PL_M_TOTAL_TOKEN_THROUGHPUT,
	                                 PL_M_REQUEST_THROUGHPUT, PL_M_OUTPUT_THROUGHPUT_PER_ACCELERATOR,
	                                 PL_M_TOTAL_TOKEN_THROUGHPUT_PER_ACCELERATOR, PL_M_PREFILL_TPS};

	if (pl_run_failed(run))
		return 1;
	for (int m = 0; m <= PL_M_TPS_P999; m++) /* the distributions: latencies, decode speed */
		if (run->has_metric[m])
			return 1;
	for (size_t i = 0; i < sizeof(throughput) / sizeof(throughput[0]); i++)
		if (run->has_metric[throughput[i]])
			return 1;
	return 0;
}

/* Refuses run (PL_EINVALID): the format read no latency or throughput
 * from it, naming the layout and the result keys it saw (its metrics and
 * its unplaced measurements, at most 12). Of a multi-record file only the
 * record is rejected. Returns 0 (the record is rejected) or the error. */
static int refuse_unmeasured(const struct pl_adapter_impl *impl, const char *path,
                             struct pl_run *run, int several, struct pl_error *err)
{
	char seen[600];
	size_t n = 0, shown = 0, total = 0;
	struct pl_error e;

	seen[0] = '\0';
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		if (run->has_metric[m]) {
			if (shown < 12 && n + strlen(pl_metric_info[m].name) + 3 < sizeof(seen)) {
				n += (size_t)snprintf(seen + n, sizeof(seen) - n, "%s%s", shown ? ", " : "",
				                      pl_metric_info[m].name);
				shown++;
			}
			total++;
		}
	for (size_t i = 0; i < run->nmeasure; i++) {
		const char *k = strchr(run->measure[i].name, '.') + 1;
		if (shown < 12 && n + strlen(k) + 3 < sizeof(seen)) {
			n += (size_t)snprintf(seen + n, sizeof(seen) - n, "%s%s", shown ? ", " : "", k);
			shown++;
		}
		total++;
	}
	if (total > shown && n + 24 < sizeof(seen))
		snprintf(seen + n, sizeof(seen) - n, " and %zu more", total - shown);
	pl_error_init(&e);
	pl_error_at(&e, path, 0, 0);
	pl_error_set(&e, PL_EINVALID,
	             "no TTFT/TPOT/ITL/E2EL/throughput found in this %s%s%s file; result keys "
	             "seen: %s",
	             impl->info->name, run->format_version ? " " : "",
	             run->format_version ? run->format_version : "", total ? seen : "none");
	if (several) {
		pl_error_prefix_record(&e, run->record);
		if (pl_run_reject(run, &e))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		return 0;
	}
	if (err)
		*err = e;
	return PL_EINVALID;
}

/* pl_adapters_parse() and pl_adapters_parse_records(): keep is 1 to keep
 * the rejected records of a multi-record file (run->reject set), 0 to
 * reject the file on the first of them. */
static int parse_file(const char *path, const char *buf, size_t len, const char *format,
                      int keep, struct pl_run_list *out, struct pl_error *err);

int pl_adapters_parse(const char *path, const char *buf, size_t len, const char *format,
                      struct pl_run_list *out, struct pl_error *err)
{
	return parse_file(path, buf, len, format, 0, out, err);
}

int pl_adapters_parse_records(const char *path, const char *buf, size_t len, const char *format,
                              struct pl_run_list *out, struct pl_error *err)
{
	return parse_file(path, buf, len, format, 1, out, err);
}

/* 1 when buf holds no record: nothing but a UTF-8 byte order mark and
 * white space, or an empty JSON array ("[]", white space around and in
 * it) — what `export` of an empty ledger writes, a CSV of a header alone
 * aside, the other forms of "no runs". */
static int holds_nothing(const char *buf, size_t len)
{
	size_t i = 0;

	if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
		i++;
	if (i < len && buf[i] == '[') {
		for (i++; i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' ||
		                      buf[i] == '\n');
		     i++)
			;
		if (i >= len || buf[i] != ']')
			return 0;
		for (i++; i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' ||
		                      buf[i] == '\n');
		     i++)
			;
	}
	return i >= len;
}

/* The runs of a large detailed vLLM / SGLang result whose "itls" was read
 * by the streaming parser (requests_stream.c) into cap (released here):
 * the adapter parses the rest of the document and the gaps join its one
 * run's requests. Returns 0 with the runs in tmp and impl set, or 1 when
 * this path does not fit (nothing kept: parse the bytes as a tree). */
static int parse_captured(const char *path, struct pl_gap_capture *cap,
                          const struct pl_adapter_impl **impl, struct pl_run_list *tmp)
{
	struct pl_adapter_input in = {.path = path};
	struct pl_error e;
	int rc = 1;

	pl_error_init(&e);
	in.buf = cap->rest;
	in.len = cap->nrest;
	if ((*impl || detect(&in, impl, &e) == 0) &&
	    (*impl == &pl_adapter_vllm_serving || *impl == &pl_adapter_sglang) &&
	    (*impl)->parse(&in, tmp, &e) == 0 && tmp->n == 1 && !tmp->v[0].reject &&
	    pl_gap_capture_attach(cap, tmp->v[0].requests, &e) == 0)
		rc = 0;
	pl_json_doc_release(&in.doc);
	pl_gap_capture_release(cap);
	if (rc) {
		pl_run_list_release(tmp);
		memset(tmp, 0, sizeof(*tmp));
	}
	return rc;
}

/* parse_file() once the runs are in tmp (impl: the adapter that made
 * them): summaries, the refusal of a run without measurements, keep or
 * reject, and the move to out. */
static int finish_parse(const struct pl_adapter_impl *impl, const char *path, int keep,
                        struct pl_run_list *tmp, struct pl_run_list *out, struct pl_error *err);

int pl_adapters_parse_stream(const char *path, struct pl_gap_stream *s, const char *format,
                             struct pl_run_list *out, struct pl_error *err)
{
	const struct pl_adapter_impl *impl = NULL;
	struct pl_run_list tmp = {0};
	struct pl_gap_capture cap;

	if (!path)
		path = "-";
	if (format && !(impl = by_name(format)))
		return 1; /* the whole-bytes path words it */
	if (!pl_gap_stream_finish(s, &cap) || parse_captured(path, &cap, &impl, &tmp))
		return 1;
	return finish_parse(impl, path, 1, &tmp, out, err);
}

static int parse_file(const char *path, const char *buf, size_t len, const char *format,
                      int keep, struct pl_run_list *out, struct pl_error *err)
{
	struct pl_adapter_input in = {.path = path ? path : "-", .buf = buf, .len = len};
	struct pl_run_list tmp = {0};
	const struct pl_adapter_impl *impl = NULL;
	struct pl_gap_capture cap;
	int rc;

	if (format && !(impl = by_name(format)))
		return pl_error_set(err, PL_EUSAGE, "unknown format '%s' (known: %s)", format,
		                    known_formats());
	if (holds_nothing(buf, len))
		return 0; /* no runs, like a CSV of a header alone */
	if (pl_gap_capture_read(buf, len, &cap) && parse_captured(in.path, &cap, &impl, &tmp) == 0) {
		rc = 0;
	} else {
		impl = format ? by_name(format) : NULL;
		rc = impl ? 0 : detect(&in, &impl, err);
		if (rc == 0) {
			rc = impl->parse(&in, &tmp, err);
			if (rc && err && !err->file[0])
				pl_error_at(err, in.path, err->line, err->column);
		}
	}
	pl_json_doc_release(&in.doc);
	if (rc) {
		pl_run_list_release(&tmp);
		return rc;
	}
	return finish_parse(impl, in.path, keep, &tmp, out, err);
}

static int finish_parse(const struct pl_adapter_impl *impl, const char *path, int keep,
                        struct pl_run_list *tmp_, struct pl_run_list *out, struct pl_error *err)
{
	struct pl_run_list tmp = *tmp_;
	int rc = 0;

	memset(tmp_, 0, sizeof(*tmp_));
	for (size_t i = 0; rc == 0 && i < tmp.n; i++) {
		struct pl_run *r = &tmp.v[i];
		if (pl_inventory_summarize(impl->info->name, r))
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		else if (r->reject)
			continue;
		else if (impl != &pl_adapter_ledger && impl != &pl_adapter_descriptor && !measured(r))
			rc = refuse_unmeasured(impl, path, r, tmp.n > 1, err);
	}
	for (size_t i = 0; rc == 0 && !keep && i < tmp.n; i++)
		if (tmp.v[i].reject) {
			if (err)
				*err = *tmp.v[i].reject;
			rc = tmp.v[i].reject->code ? tmp.v[i].reject->code : PL_EINVALID;
		}
	if (rc) {
		pl_run_list_release(&tmp);
		return rc;
	}
	for (size_t i = 0; i < tmp.n; i++) {
		struct pl_run *dst = pl_run_list_push(out);
		if (!dst) {
			for (size_t j = i; j < tmp.n; j++)
				pl_run_release(&tmp.v[j]);
			/* undo the runs already moved: the file is atomic */
			for (size_t j = 0; j < i; j++)
				pl_run_release(&out->v[--out->n]);
			tmp.n = 0;
			pl_run_list_release(&tmp);
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		}
		*dst = tmp.v[i]; /* move: tmp's copy is dropped without release */
	}
	free(tmp.v);
	return 0;
}
