/*
 * spec.h — report definitions (reports/NAME.json) and bundle manifests.
 *
 * A report definition is a JSON object:
 *   "name":    "procurement-review"                 (required; file-name safe)
 *   "title":   "text" or {"en": "...", "zh-CN": "..."}
 *   "where":   ["FIELD=VALUE", ...]                 selection, as --where
 *   "axis":    "hardware,concurrency"               (required) as --axis
 *   "metrics": ["ttft_p95", ...]                    as --metric (optional)
 *   "allow_mismatch": ["FIELD", ...]                as --allow-mismatch
 *   "slo":     {"ttft_p95": 0.5, "tpot_p95": 0.05}  upper limits, seconds
 *   "prices":  {"2x NVIDIA H100 80G": 8.0, ...}     price per instance-hour;
 *                                                   wins over a price stored
 *                                                   with the runs (the report
 *                                                   says so); a key matching no
 *                                                   row's hardware is an error;
 *              {"API name": {"per_million_input_tokens": 0.6,
 *                            "per_million_output_tokens": 0.8}}
 *                                                   token prices of a cloud API
 *                                                   (deployment = cloud-api)
 *   "currency": "USD"                               the prices' currency (required
 *                                                   with "prices"; printed with
 *                                                   every price and cost)
 *   "charts":  ["bars", "sweep", "pareto"]          which charts
 *   "sheets":  ["procurement", "checklist"]         extra workbook sheets
 *   "description": "text"                           for the reader of the file
 *   "as_of": "2026-09-21T14:13:20Z"                 the runs as they stood then
 *                                                   (report --as-of adds it)
 *   "since": {"bundle": "plb1-...", "as_of": TIME}  an earlier bundle: the
 *                                                   report opens with the errata
 *                                                   since its as-of time
 *                                                   (report --since adds it)
 * Unknown keys are rejected (a typo must not silently drop an SLO).
 * reports/README.md documents every key with its type, default and an
 * example.
 *
 * Report definitions (spec.c) and manifests (bundle_manifest.c) are read
 * with the adapters layer's checked JSON reader (adapters/jsonread.h:
 * positions, duplicate keys) so they get the same error quality as inputs;
 * no type of the JSON library reaches the render layer.
 */
#ifndef PL_SPEC_H
#define PL_SPEC_H

#include <stddef.h>

#include "core/error.h"
#include "core/procure.h"

#define PL_CHART_BARS 0x1u   /* bar charts per headline metric (gnuplot) */
#define PL_CHART_SWEEP 0x2u  /* throughput vs concurrency per axis value */
#define PL_CHART_PARETO 0x4u /* interactivity vs throughput/accelerator, Pareto front */

#define PL_SHEET_PROCUREMENT 0x1u
#define PL_SHEET_CHECKLIST 0x2u

/* The largest report definition read (util/file.h refuses a bigger file). */
#define PL_SPEC_MAX_BYTES (16u << 20)

/* A loaded report definition. Release with pl_spec_release(). */
struct pl_report_spec {
	char *name;             /* definition name */
	char *title_en;         /* English title, or NULL */
	char *title_zh;         /* Simplified Chinese title, or NULL */
	char **where;           /* "FIELD=VALUE" */
	size_t nwhere;
	char *axis;             /* "hardware,concurrency" */
	char **metrics;         /* metric names */
	size_t nmetrics;
	char **allow;           /* allow_mismatch fields */
	size_t nallow;
	struct pl_slo slo;      /* limits (n may be 0) */
	struct pl_price *prices; /* hardware strings owned */
	size_t nprices;
	char *currency;         /* "USD": the prices' currency; NULL without prices */
	unsigned charts;        /* PL_CHART_* */
	unsigned sheets;        /* PL_SHEET_* */
	char *bytes;            /* the file's bytes (copied into bundles); owned */
	size_t nbytes;
	char *as_of;            /* "as_of": UTC time the runs are taken at, or NULL */
	char *since_bundle;     /* "since"."bundle": the earlier bundle's id, or NULL */
	char *since_at;         /* "since"."as_of": its as-of time, or NULL */
	int builtin;            /* 1: report --axis's default definition
	                           (pl_spec_default): rendered from
	                           report.axis.md with the plain workbook and
	                           a manifest; no report.html or
	                           definition.json */
};

/* Reads and checks the definition at path. Returns 0, PL_EIO, PL_ESYNTAX
 * or PL_EINVALID (located in path), PL_ENOMEM. Release out in any case. */
int pl_spec_load(const char *path, struct pl_report_spec *out, struct pl_error *err);

/* Builds the built-in default definition of `report --axis` into out
 * (copies of every string; builtin = 1, charts = bars, name "axis"): the
 * command line's axis text, --where texts, --metric and --allow-mismatch
 * arguments, and title (NULL or "" for "Comparison by FIELD, ..."). It is
 * rendered by pl_bundle_write like a definition file. Returns 0 or
 * PL_ENOMEM. Release out in any case. */
int pl_spec_default(struct pl_report_spec *out, const char *axis, const char *const *where,
                    size_t nwhere, const char *const *metrics, size_t nmetrics,
                    const char *const *allow, size_t nallow, const char *title,
                    struct pl_error *err);

/* The length of a bundle id ("plb1-" and 32 lowercase hex digits). */
#define PL_SPEC_BUNDLE_ID_LEN 37

/* 1 if t is a UTC time of the form "YYYY-MM-DDTHH:MM:SSZ" (digits where
 * the form has them), else 0. */
int pl_spec_time_ok(const char *t);

/* 1 if id is a bundle id ("plb1-" and 32 lowercase hex digits), else 0. */
int pl_spec_bundle_id_ok(const char *id);

/* Adds "since" (since_bundle and since_at, both or neither) and "as_of"
 * (NULL: none) to s and to its bytes (the members appended before the
 * closing '}', so definition.json records them and verify re-renders
 * with them). Returns 0; PL_EUSAGE when the definition has the member
 * already; PL_EINVALID; PL_ENOMEM. */
int pl_spec_add_inputs(struct pl_report_spec *s, const char *as_of, const char *since_bundle,
                       const char *since_at, struct pl_error *err);

/* Frees everything spec owns. NULL is a no-op. */
void pl_spec_release(struct pl_report_spec *spec);

#endif
