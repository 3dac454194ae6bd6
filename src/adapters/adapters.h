/*
 * adapters.h — input formats in, canonical runs out.
 *
 * Each adapter (one file per format under src/adapters/) reads one tool's
 * output and produces struct pl_run values with metrics converted to
 * canonical units. This header is the whole public face of the adapters
 * layer: the only layer that includes cJSON. Nothing JSON-shaped leaves it.
 *
 * Formats read: pl_adapters_list() (the descriptor of schema/descriptor.md,
 * and one adapter per tool format). Each adapter lists, per format version,
 * every key of its source and that key's fate (struct pl_field); a key no
 * inventory knows is never dropped: the rule of pl_inventory_classify()
 * keeps it as an unplaced measurement or as the extra condition
 * "FORMAT.key", and one warning line per run says which (schema/formats.md is generated from these
 * tables by `perfledger formats --markdown`). Sidecar files are read by the
 * importer, never by an adapter; their bodies are parsed here
 * (pl_adapters_parse_conditions).
 */
#ifndef PL_ADAPTERS_H
#define PL_ADAPTERS_H

#include <stddef.h>

#include "core/error.h"
#include "core/model.h"

/* What becomes of one key of a source file (its fate in the inventory). */
enum pl_fate {
	PL_FATE_CONDITION, /* stored as a condition: to = canonical name first; when the
	                      adapter leaves that condition unset, the key is kept as a
	                      quiet extra (never dropped) */
	PL_FATE_METRIC,    /* stored as a metric: to = canonical name (unit) */
	PL_FATE_DERIVED,   /* used to compute something: to = what */
	PL_FATE_IGNORED,   /* not stored: to = the one-line reason */
	PL_FATE_EXTRA,     /* a condition no canonical field holds yet: kept, without a
	                      warning, as the extra condition "<format>.<key>"; to = what it is */
	PL_FATE_RECORDS,   /* a list whose elements are the runs: to = how */
};

/* One entry of a field inventory. key is the key, or a pattern for a
 * family of keys: a path of members joined by '.', "[]" after an array
 * whose elements are objects, '*' for any run of characters, and {a,b,c}
 * for alternatives. A key that an entry matches
 * is accounted for with its whole subtree. For CSV and text formats the
 * keys are the columns, row names or line keys. */
struct pl_field {
	const char *key;   /* key or pattern; NULL ends a table */
	enum pl_fate fate; /* what becomes of it */
	const char *to;    /* canonical name(s) and unit, what is derived, or why ignored */
};

/* Where a key sits in a file (a section its inventory names): the second
 * step of the rule for keys an inventory does not know (after the
 * inventory itself, before the key's shape; schema/formats.md). */
enum pl_place {
	PL_PLACE_NONE,   /* the section does not say (the key's shape decides) */
	PL_PLACE_CONFIG, /* configuration: an unknown key here is an extra condition */
	PL_PLACE_RESULT, /* results: an unknown key here is an unplaced measurement */
};

/* One section of a format: key is a pattern (as in struct pl_field) of a
 * member whose whole subtree has that place, e.g. "input_config" or
 * "benchmarks[].config"; a pattern may also name a family of keys at one
 * level ("spec_decode_*"). */
struct pl_section {
	const char *key;    /* pattern; NULL ends a table */
	enum pl_place place; /* what an unknown key under it is */
};

/* What the rule makes of a key no inventory entry matches. */
enum pl_key_class {
	PL_KEY_CONDITION, /* an extra condition "<format>.<path>" (the safe side) */
	PL_KEY_MEASURE,   /* an unplaced measurement: stored, shown, never a condition */
};

/* The fields of one format version an adapter reads. */
struct pl_format_version {
	const char *version;            /* as stored in format_version, or a label; NULL ends */
	const char *note;               /* which files these are, one line */
	const struct pl_field *fields;  /* NULL-terminated table */
	const struct pl_field *common;  /* a second table shared by several versions, or NULL */
	int closed;                     /* 1: the adapter itself rejects unknown keys (no walk) */
	const struct pl_section *sections; /* the file's sections and their places,
	                                   NULL-terminated, or NULL (shape alone) */
};

/* Static description of an adapter, for `perfledger formats` and docs. */
struct pl_adapter_info {
	const char *name;            /* "descriptor", "vllm-serving" */
	const char *versions;        /* format versions read, human text */
	const char *description;     /* one line */
	const char *const *mapping;  /* NULL-terminated "input key -> canonical (unit)" lines */
	const struct pl_format_version *inventory; /* per version, ended by {NULL} */
};

/*
 * Installs the layer's process-wide state: cJSON's allocator hooks (the
 * per-file arena of the JSON reader, json_util.c). Call it once at the
 * start of a program, before any other function of this layer and before
 * threads start; later calls do nothing (pthread_once, so concurrent calls
 * are safe too). No inputs, no outputs, cannot fail. Nothing is installed
 * at load time: main(), the unit tests and the fuzz harnesses call it (the
 * JSON parsers call it again as a safety net; the YAML reader does not).
 */
void pl_adapters_init(void);

/* Name of a fate: "condition", "metric", "derived", "ignored", "extra",
 * "records". */
const char *pl_fate_name(enum pl_fate fate);

/* Name of a place: "configuration", "result", "-". */
const char *pl_place_name(enum pl_place place);

/*
 * The rule for a key that no entry of the inventory of version (NULL: the
 * first) of info matches (schema/formats.md, "Keys an inventory does not
 * know"): first its place (the first section of the version whose pattern
 * matches path or a prefix of it ending before a '.' or "[]."): a
 * configuration section makes it a condition, a result section a
 * measurement; then its shape: a number whose name has a result word
 * (rate, ratio, acceptance, accept, accuracy, correct, latency, throughput,
 * time, duration; count, tokens or length only beside a statistic word
 * such as total, mean, p99 or per) or a unit suffix (_ms, _s,
 * _us, _ns, "(ns)", "(ms)", "(s)", "(%)") and no setting word (max, min,
 * limit, target, budget, slo, seed, timeout, warmup; request_rate and
 * counts of gpus, nodes, workers, turns, conversations, prompts ...; a unit
 * suffix outweighs max and min), or an array of numbers, is a measurement;
 * anything else is a condition. kind: 'n' a number, 'a' an array of
 * numbers only, 's' anything else. *place gets the place found (may be
 * NULL). Returns an enum pl_key_class.
 */
int pl_inventory_classify(const struct pl_adapter_info *info, const char *version,
                          const char *path, int kind, enum pl_place *place);

/* 1 when the inventory of version (NULL: the first) of the adapter named
 * format has an entry for path whose fate is not "extra" (the key is
 * mapped to a condition or metric, derived or ignored), else 0 (also for
 * an unknown format). reimport uses it to take an extra condition an
 * older perfledger kept out of the condition key once the key is mapped. */
int pl_inventory_maps(const char *format, const char *version, const char *path);

/* The adapters, in detection order; *count receives their number. */
const struct pl_adapter_info *pl_adapters_list(size_t *count);

/*
 * Parses one input file's bytes into canonical runs appended to out.
 *   path    — name used in messages and stored as each run's source ("-" for stdin)
 *   buf,len — the file's bytes (need not be NUL-terminated); a UTF-8 BOM is skipped
 *   format  — adapter name to force, or NULL to detect from content
 * Each produced run has adapter, format_version, source and record set (record
 * = 0-based index of the object inside an array/JSONL file, else 0); sha256
 * is left for the caller. Metrics are in canonical units; conditions are NOT
 * yet normalized or validated (the import pipeline does that after applying
 * --set and sidecar values). A key of the file that the format's inventory
 * does not list is kept as an unplaced measurement or an extra condition
 * (pl_inventory_classify), summed up in one line of run->warnings. A
 * record from which the format read no latency and no throughput (and
 * that is not a failed run, pl_run_failed) is PL_EINVALID naming the
 * format and the result keys seen (the descriptor and ledger formats
 * excepted: a person or perfledger wrote their metrics). No other file (no
 * sidecar) is opened.
 * Errors: PL_ESYNTAX (err->line/column set, computed from the byte offset),
 * PL_EFORMAT (no adapter recognises it), PL_EINVALID (a field has the wrong
 * JSON type, a version given as a number, an unknown unit suffix or metric,
 * NaN, a duplicate key; err->field and where possible line/column set),
 * PL_ENOMEM. On error nothing is appended to out (the file is atomic).
 * A file that holds no record — empty, only white space (after a UTF-8
 * byte order mark), or an empty JSON array "[]" — appends nothing and
 * returns 0, as a CSV of a header alone does: the export of an empty
 * ledger imports as 0 runs.
 */
int pl_adapters_parse(const char *path, const char *buf, size_t len, const char *format,
                      struct pl_run_list *out, struct pl_error *err);

/*
 * pl_adapters_parse(), except for a bad record of a file with several
 * (a JSON array, JSONL, a sweep CSV, a multi-benchmark report): that run is
 * appended with run->reject set (its error, located at the record or line,
 * "record N: " inside an array) and its other fields unspecified, and the
 * file's other records are kept. Errors of the file as a whole (syntax, no
 * adapter, out of memory) are returned as by pl_adapters_parse().
 */
int pl_adapters_parse_records(const char *path, const char *buf, size_t len, const char *format,
                              struct pl_run_list *out, struct pl_error *err);

/*
 * Parses a conditions object — a sidecar file NAME.conditions.json, whose
 * keys are canonical condition names — into run->cond values (overwriting
 * the values it names). Values may be JSON strings, numbers (not for version
 * fields) or booleans. Errors as for pl_adapters_parse; unknown keys are
 * PL_EINVALID naming the key.
 */
int pl_adapters_parse_conditions(const char *path, const char *buf, size_t len,
                                 struct pl_run *run, struct pl_error *err);

/*
 * Per-request records that a tool writes in a file of their own beside its
 * summary (docs/requests.md): AIPerf profile_export.jsonl beside
 * profile_export_aiperf.json (or NAME_records.jsonl beside NAME.json),
 * llmperf NAME_individual_responses.json (or NAME_individual.json) beside
 * NAME_summary.json.
 *
 * pl_adapters_records_name: the k-th (0-based) name that the records file
 * of the summary file called name (a file name, no directory) read by
 * adapter may have. Returns 1 and *out (caller frees), 0 when there is no
 * k-th name (*out NULL), -1 on out of memory.
 *
 * pl_adapters_summary_name: the k-th name of the summary file that a
 * records file called name would belong to, for any adapter (the
 * directory walk leaves a records file to its summary's import). Returns
 * as pl_adapters_records_name.
 *
 * pl_adapters_parse_requests: the records file's bytes buf[0..len) (path
 * names it in messages) into run->requests, run being the summary's run as
 * its adapter ("aiperf" or "llmperf") parsed it (its source set). The
 * records must be the summary's: as many completed and failed requests
 * as its requests_completed and requests_failed, where it counts them.
 * Returns 0; PL_EUSAGE (another adapter); PL_ESYNTAX; PL_EFORMAT (a record
 * not of that tool's layout); PL_EINVALID (a bad request, named by its
 * 0-based index as in pl_requests_check, or counts that disagree with the
 * summary), err located at path; PL_ENOMEM. run is unchanged on error.
 */
int pl_adapters_records_name(const char *adapter, const char *name, size_t k, char **out);
int pl_adapters_summary_name(const char *name, size_t k, char **out);
int pl_adapters_parse_requests(const char *path, const char *buf, size_t len, struct pl_run *run,
                               struct pl_error *err);

/* The size (bytes) from which a JSON object's per-request "itls" array (a
 * vLLM or SGLang detailed result) is read by a streaming parser into its
 * column rather than into the JSON tree (4 MiB unless set; the results are
 * the same, only memory differs). For tests and the bench; not thread-safe:
 * set it before parsing starts. */
void pl_adapters_set_stream_min(size_t bytes);

/* The stream minimum (pl_adapters_set_stream_min; 4 MiB unless set). */
size_t pl_adapters_stream_min(void);

/*
 * A large JSON result read in pieces, never whole: the import feeds each
 * piece of a file of at least the stream minimum as it reads it (hashing
 * and compressing the same piece), then asks for its runs. The pieces go
 * through the streaming parser of "itls" (requests_stream.c) alone, so
 * only a vLLM / SGLang detailed result parses this way; for anything else
 * pl_adapters_parse_stream() returns 1 and the caller parses the bytes
 * whole with pl_adapters_parse_records(), which words every message.
 */
struct pl_gap_stream;

/* A new stream, or NULL on out of memory; free with pl_gap_stream_free(). */
struct pl_gap_stream *pl_gap_stream_new(void);

/* Feeds the next buf[0..len) of the file. Returns 0, or 1 once the bytes
 * cannot be read this way (later pieces are then ignored). */
int pl_gap_stream_feed(struct pl_gap_stream *s, const char *buf, size_t len);

/* The runs of the file fed whole to s, appended to out as
 * pl_adapters_parse_records() would append them from its bytes. Returns
 * 0, 1 (this path does not apply: nothing appended, err untouched; parse
 * the bytes whole), or PL_ENOMEM. */
int pl_adapters_parse_stream(const char *path, struct pl_gap_stream *s, const char *format,
                             struct pl_run_list *out, struct pl_error *err);

void pl_gap_stream_free(struct pl_gap_stream *s);

/* How many files this process has parsed with "itls" streamed (for tests). */
size_t pl_adapters_streamed(void);

#endif
