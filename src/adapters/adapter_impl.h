/*
 * adapter_impl.h — the one contract between the registry and each input
 * adapter (private to src/adapters/).
 *
 * An adapter gets a struct pl_adapter_input: the file's bytes, its path,
 * and the file's JSON records, parsed lazily (at most once, and only when
 * an adapter asks: a CSV or text file that a byte detector recognises is
 * never handed to the JSON parser). The same input goes to detect() and
 * to parse(). parse() appends one run per record to out, with adapter,
 * source, record and format_version set; JSON record formats do that
 * through pl_adapter_records(), which also walks every record's keys
 * against the adapter's field inventory (inventory.c). An adapter never
 * opens a file: sidecars are the importer's business (src/import/parse_file.c).
 */
#ifndef PL_ADAPTER_IMPL_H
#define PL_ADAPTER_IMPL_H

#include <cjson/cJSON.h>

#include "adapters/adapters.h"
#include "adapters/json_util.h"
#include "core/error.h"
#include "core/model.h"

/* One input file, as every adapter sees it. Made by the registry; the
 * parsed document is released by it. */
struct pl_adapter_input {
	const char *path;       /* name in messages and each run's source ("-" for stdin) */
	const char *buf;        /* the file's bytes (not NUL-terminated) */
	size_t len;             /* bytes in buf */
	struct pl_json_doc doc; /* the JSON records, once parsed (see below) */
	int doc_state;          /* 0 not parsed yet, 1 parsed, else the PL_E* code of the failure */
	struct pl_error doc_err; /* the parse error when doc_state < 0 */
};

/*
 * The input's JSON records (pl_json_parse_records), parsed on the first
 * call and remembered: later calls return the same document, or the same
 * error again. Returns 0 and *doc (owned by in), or the parse error
 * (PL_ESYNTAX, PL_EINVALID, PL_ENOMEM) copied into err (may be NULL).
 */
int pl_adapter_input_doc(struct pl_adapter_input *in, const struct pl_json_doc **doc,
                         struct pl_error *err);

/* For detectors: the first record when the input parses as JSON and it is
 * an object, else NULL. */
const cJSON *pl_adapter_input_first(struct pl_adapter_input *in);

/* How an adapter is detected. */
#define PL_ADAPTER_BYTES 0x1u /* detect() reads the bytes only: it is tried before
                                 the input is parsed as JSON (text, CSV, YAML) */

struct pl_adapter_impl {
	const struct pl_adapter_info *info; /* public description and field inventory */
	const char *format_version;         /* stored on each run by pl_adapter_records, or NULL */
	unsigned flags;                     /* PL_ADAPTER_* */
	/* 1 if the input looks like this format. */
	int (*detect)(struct pl_adapter_input *in);
	/* Appends the file's runs to out (nothing on error: the registry
	 * removes what was appended). Returns 0 or a PL_E* code with err set. */
	int (*parse)(struct pl_adapter_input *in, struct pl_run_list *out, struct pl_error *err);
};

/*
 * The parse() of a JSON record format: parses the input's records, and for
 * each one pushes a run (adapter = impl's name, source, record = index,
 * format_version = impl's), calls convert on it, then walks the record's
 * keys against the inventory of the run's format version
 * (pl_inventory_walk). Errors get the record's position ("record N: "
 * inside an array). Returns 0 or the first error.
 */
int pl_adapter_records(const struct pl_adapter_impl *impl, struct pl_adapter_input *in,
                       int (*convert)(const cJSON *obj, struct pl_run *run, struct pl_error *err),
                       struct pl_run_list *out, struct pl_error *err);

/*
 * A bad record of a multi-record file (a JSON array or JSONL, a sweep CSV's
 * row, a report's benchmark): err (the record's error) is located at path
 * when it is not located yet, copied into run->reject, and cleared, so that
 * the adapter goes on with the next record (pl_adapters_parse_records keeps
 * the rejected run for the importer to report; pl_adapters_parse rejects the
 * file with it). Returns 0, or PL_ENOMEM (err set).
 */
int pl_adapter_reject_record(struct pl_run *run, const char *path, struct pl_error *err);

/*
 * The field inventory walk (inventory.c). Every member of obj (path
 * prefix + key; nested objects by dotted path, elements of arrays of
 * objects as "key[].member") is looked up in the fields of version ver of
 * info's inventory. A key that no entry matches and that the rule
 * (pl_inventory_classify) makes a measurement is kept as the unplaced
 * measurement "<format>.<path>" (a number, or its JSON text); JSON null is
 * missing. Any other such key is kept on run as the
 * extra condition "<format>.<path>" (its value as text: the string, or the
 * JSON text of anything else; inside arrays of objects every element's
 * value as "[i]=JSON", "; " between them, so positions and types stay
 * apart; at most PL_EXTRA_VALUE_MAX bytes, a longer value cut and ended by
 * "... #" and 16 hex digits of its sha256, so distinct values stay
 * distinct), with a marker line for pl_inventory_summarize(). A matched key covers its whole
 * subtree. version NULL or unknown: the first version of the inventory.
 * Returns 0, PL_ENOMEM or PL_EINVALID (a value that is not UTF-8, or more
 * than PL_EXTRAS_MAX unknown keys: the file is not in this format).
 */
#define PL_EXTRA_VALUE_MAX 256
#define PL_EXTRAS_MAX 1024
int pl_inventory_walk(const struct pl_adapter_info *info, const char *version, const cJSON *obj,
                      const char *prefix, struct pl_run *run, struct pl_error *err);

/* Replaces the marker lines the walk and the check leave in run->warnings
 * (one per key the inventory of format does not know) by one summary line
 * naming how many keys became extra conditions and how many unplaced
 * measurements, and which (at most 8 of each by name). Called by the
 * registry on every run an adapter made. Returns 0 or PL_ENOMEM. */
int pl_inventory_summarize(const char *format, struct pl_run *run);

/* The same for one key of a text or CSV format (a line key, a column, a
 * row name) whose value is text. */
int pl_inventory_check(const struct pl_adapter_info *info, const char *version, const char *key,
                       const char *value, struct pl_run *run, struct pl_error *err);

extern const struct pl_adapter_impl pl_adapter_descriptor;
extern const struct pl_adapter_impl pl_adapter_ledger;
extern const struct pl_adapter_impl pl_adapter_vllm_serving;
extern const struct pl_adapter_impl pl_adapter_sglang;
extern const struct pl_adapter_impl pl_adapter_llmperf;
extern const struct pl_adapter_impl pl_adapter_aiperf;
extern const struct pl_adapter_impl pl_adapter_guidellm;
extern const struct pl_adapter_impl pl_adapter_llama_bench;
extern const struct pl_adapter_impl pl_adapter_inferencemax;
extern const struct pl_adapter_impl pl_adapter_mlperf;
extern const struct pl_adapter_impl pl_adapter_aiperf_csv;
extern const struct pl_adapter_impl pl_adapter_genai_perf_analyze;
extern const struct pl_adapter_impl pl_adapter_inferencemax_csv;
extern const struct pl_adapter_impl pl_adapter_trtllm_bench;
extern const struct pl_adapter_impl pl_adapter_vllm_offline;
extern const struct pl_adapter_impl pl_adapter_genai_bench;
extern const struct pl_adapter_impl pl_adapter_inference_perf;
extern const struct pl_adapter_impl pl_adapter_inference_benchmarker;
extern const struct pl_adapter_impl pl_adapter_evalscope;

/* AIPerf's time units (aiperf.c; also its CSV export and its per-request
 * records): sets *exp10 to the power of ten from unit ("ns", "us", "ms",
 * "sec", "s") to seconds and returns 0, or returns 1 for any other unit
 * (*exp10 untouched). */
int pl_aiperf_time_exp(const char *unit, int *exp10);

/* CSV files that are recognised and refused (csv_exports.c): the message,
 * or NULL. */
const char *pl_csv_refusal(const char *buf, size_t len);

/* Fills run's conditions from the members of obj, whose keys must be
 * canonical condition names; keys starting with "x_" or "_" are ignored
 * (extension and comment keys). Members named in skip (NULL-terminated, may
 * be NULL) are left for the caller. Unknown keys are PL_EINVALID
 * "unknown field 'k'". Used by the descriptor and by sidecar files. */
int pl_adapter_conditions_from(const cJSON *obj, const char *const *skip, struct pl_run *run,
                               struct pl_error *err);

/* The metrics object of a descriptor (descriptor.c): every key by the
 * grammar of schema/descriptor.md (canonical names in canonical units,
 * _ms / _s suffixes, median, p99.9) into run's metrics. Returns 0 or
 * PL_EINVALID naming the key (unknown metric or unit, not a number, two
 * keys for one metric). */
int pl_descriptor_metrics(const cJSON *metrics, struct pl_run *run, struct pl_error *err);

#endif
