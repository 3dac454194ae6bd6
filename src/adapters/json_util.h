/*
 * json_util.h — private helpers of the adapters layer around cJSON.
 *
 * cJSON is fast and small but lax in ways that matter to us: it reports a
 * syntax error as a byte offset only, keeps the first of duplicate keys,
 * cannot read the bare Infinity / NaN tokens that Python's json module
 * writes, and its typed getters are easy to misuse. This module parses an
 * input file into a list of records (one object, the elements of a top-level
 * array, or the values of a JSONL / concatenated-JSON file), with positions
 * in errors, duplicate-key detection and the bare-token rules below, and
 * offers typed getters whose errors name the field.
 *
 * Bare tokens (outside strings):
 *   Infinity   -> read as the string "inf" (the token is rewritten in a copy
 *                 of the buffer as `"inf"` plus three spaces, so byte offsets
 *                 and thus line/column of later errors are unchanged). It is
 *                 therefore accepted exactly where the text "inf" is: INT and
 *                 REAL conditions such as request_rate. Elsewhere the field's
 *                 type error applies.
 *   -Infinity, NaN -> rejected with PL_EINVALID at their line and column,
 *                 naming the object key they are the value of when there is
 *                 one. No canonical value may be negative infinity or NaN.
 *
 * Only src/adapters/ includes this header (it exposes cJSON types).
 */
#ifndef PL_JSON_UTIL_H
#define PL_JSON_UTIL_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/error.h"
#include "core/model.h"

/* One record of an input file. */
struct pl_json_record {
	const cJSON *obj; /* the record's value (owned by the doc) */
	long line;        /* 1-based line where the record starts, 0 if unknown */
	long index;       /* 0-based index of the record in the file */
};

/* A parsed input file. Initialise with {0}; release with pl_json_doc_release(). */
struct pl_json_doc {
	cJSON **roots;                  /* top-level values; owned */
	size_t nroots;                  /* values in roots */
	size_t roots_cap;               /* allocated roots (PL_ALLOC_GROW) */
	struct pl_json_record *records; /* records, in file order; owned */
	size_t nrecords;                /* records in use */
	size_t records_cap;             /* allocated records (PL_ALLOC_GROW) */
	int container;                  /* PL_JSON_SINGLE, _ARRAY or _SEQUENCE */
	struct pl_json_arena *arena;    /* memory of the parsed values; owned */
};

#define PL_JSON_SINGLE 0   /* one top-level value: that value is the record */
#define PL_JSON_ARRAY 1    /* one top-level array: its elements are the records */
#define PL_JSON_SEQUENCE 2 /* JSONL or several top-level values: each is a record */

/*
 * Parses buf[0..len) (a UTF-8 BOM is skipped) as one JSON value. The whole
 * buffer must be one value plus white space. Duplicate keys and bare tokens
 * are handled as described above. Returns 0 and *out (free with
 * cJSON_Delete), or PL_ESYNTAX / PL_EINVALID / PL_ENOMEM with err located in
 * path (line/column where known).
 */
int pl_json_parse_value(const char *path, const char *buf, size_t len, cJSON **out,
                        struct pl_error *err);

/*
 * Parses an input file into records. JSONL is read line by line (blank lines
 * skipped) when path ends in ".jsonl"; otherwise a file holding more than one
 * top-level value is read as a sequence of values. A single top-level array
 * gives its elements as records. Errors as for pl_json_parse_value; an empty
 * file is PL_ESYNTAX. doc is released on error.
 *
 * The parsed values live in an arena owned by doc (allocated in large
 * chunks, freed at once by pl_json_doc_release without walking the trees):
 * a record must not be used after the doc is released, and values must
 * not be moved out of it into a tree that outlives it. cJSON_Delete on a
 * value of the doc is allowed and frees nothing.
 */
int pl_json_parse_records(const char *path, const char *buf, size_t len,
                          struct pl_json_doc *doc, struct pl_error *err);

/* Frees everything doc owns; doc is empty afterwards. NULL is a no-op. */
void pl_json_doc_release(struct pl_json_doc *doc);

/* The member called key of obj (case-sensitive), or NULL. */
const cJSON *pl_json_get(const cJSON *obj, const char *key);

/* A short name for the JSON type of item: "a string", "a number", ... */
const char *pl_json_type_name(const cJSON *item);

/*
 * Typed getters. Each returns 0 and fills *out when the member is present
 * and of the right type, 1 when the member is absent or null (*out
 * untouched), or PL_EINVALID with err->field = key and a message naming the
 * field and the type found.
 *   get_string: a JSON string; *out points into the document.
 *   get_number: a JSON number (finite).
 *   get_count:  a JSON number that is whole and non-negative.
 */
int pl_json_get_string(const cJSON *obj, const char *key, const char **out, struct pl_error *err);
/* A failed pl_json_get_string/number/count, pl_json_set_cond, pl_json_cond
 * or pl_json_metric of a value nested in a record names the key by its
 * leaf ("'mean' must be a number"); pl_json_name_failed() renames it by its
 * full path from root ("'request_metrics.latency.ttft.mean' must be ...",
 * array elements as "[i]"), in err's message and field, when err is set
 * and the failed value lies beneath root; otherwise err stays as it is.
 * pl_json_forget_failed() clears the remembered value (per thread) before
 * a record is converted. */
void pl_json_forget_failed(void);
void pl_json_name_failed(const cJSON *root, struct pl_error *err);

int pl_json_get_number(const cJSON *obj, const char *key, double *out, struct pl_error *err);
int pl_json_get_count(const cJSON *obj, const char *key, double *out, struct pl_error *err);

/*
 * Sets condition id of run from a JSON value: strings for every type (parsed
 * for numeric types, "inf" allowed for INT/REAL); numbers for INT/REAL, and
 * for TEXT only when whole and exactly representable (|v| <= 2^53); never
 * for VERSION or TIME ("a JSON number would lose digits: 0.10 reads as 0.1");
 * booleans for BOOL. null clears the condition. key names the field in
 * messages. Returns 0, PL_ENOMEM or PL_EINVALID (err->field = key).
 */
int pl_json_set_cond(struct pl_run *run, int id, const cJSON *item, const char *key,
                     struct pl_error *err);

/*
 * Adapter helpers (one line each in every adapter otherwise).
 *   pl_json_metric:   a JSON number at key -> metric id, scaled by 10^exp10
 *                     (-3 for ms, -9 for ns); absent or null -> nothing.
 *   pl_json_cond:     key -> condition id by pl_json_set_cond's rules; absent,
 *                     null or an empty string -> nothing (missing stays missing).
 * Both return 0 or a PL_E* code with err naming key.
 */
int pl_json_metric(const cJSON *obj, const char *key, int id, int exp10, struct pl_run *run,
                   struct pl_error *err);
int pl_json_cond(const cJSON *obj, const char *key, int id, struct pl_run *run,
                 struct pl_error *err);

/*
 * Sets metric id of run to written * 10^exp10 (the canonical unit), where
 * written is the value as the file writes it under key (a JSON key, a
 * column, a line's key). A value outside the metric's plausible range
 * (schema/ranges.tsv) is refused here, so that the message names what
 * the user can find in the file: the key and the value as written, then
 * the canonical metric and its value, and line (1-based; 0 = unknown, as
 * in a JSON file, where the record is named by the caller). Returns 0 or
 * PL_EINVALID (err's field: the canonical metric).
 */
int pl_adapter_metric(struct pl_run *run, int id, double written, int exp10, const char *key,
                      long line, struct pl_error *err);

/*
 * Request counts of a run: sets requests_completed, requests_failed (when
 * failed >= 0) and error_rate = failed / (completed + failed). A run where
 * no request completed (completed <= 0) is a failed run (pl_run_failed):
 * requests_completed 0, requests_failed when known and error_rate 1 when
 * any failed; it is stored and flagged, never pooled. field names the
 * source key (kept for messages). Returns 0.
 */
int pl_adapter_requests(struct pl_run *run, double completed, double failed, const char *field,
                        struct pl_error *err);

/* Unix time in seconds -> run_started_at ("2023-12-27T00:56:14Z").
 * Returns 0, PL_EINVALID (before 1970 or after 9999) or PL_ENOMEM. */
int pl_adapter_epoch(struct pl_run *run, double seconds, struct pl_error *err);

/* Unix time in nanoseconds, as the decimal text of a file
 * ("1780474576930921984") -> run_started_at, truncated to the second.
 * Plain decimals ("123", "123.00") are converted on their digits, so a
 * value beyond 2^53 (every current time in ns) keeps its second exactly;
 * other number text goes through a double. Returns 0, PL_EINVALID (not a
 * number, or out of range as for pl_adapter_epoch) or PL_ENOMEM. */
int pl_adapter_epoch_ns_text(struct pl_run *run, const char *ns, struct pl_error *err);

#endif
