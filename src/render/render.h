/*
 * render.h — tables: terminal text, Markdown, CSV and JSON, for a comparison
 * and for a list of runs.
 *
 * Renderers write to a FILE* the caller owns and return 0, or PL_EIO when the
 * stream reports an error (ferror) — a full disk is an error, not a cut
 * table. Numbers are printed in the C locale. Strings from input files are
 * data: escaped for Markdown (| \ ` * _ < > [ ] and newlines), quoted for CSV
 * (RFC 4180; a cell starting with = + - @ TAB CR is prefixed with ' so a
 * spreadsheet never runs it as a formula; control characters other than
 * newline and tab, C1 codes and bidi overrides become '?' so a CSV shown in a terminal cannot drive it), and JSON-escaped.
 *
 * JSON shapes (the scripting contract; names are canonical, units canonical):
 *   runs:       [{"id", "source", "sha256", "record", "adapter", "format_version",
 *                 "imported_at", "reference_only", "checklist_missing": [...],
 *                 "conditions": {...}, "extras": {"FORMAT.key": "text", ...},
 *                 "metrics": {...}}]   ("extras" only for a run that has some)
 *   comparison: {"axis": [...], "shared_conditions": {...},
 *                "rows": [{"axis": {...}, "n": N, "run_ids": [...],
 *                          "reference_only": K, "metrics": {...},
 *                          "min": {...}, "max": {...},
 *                          "delta_pct": {...}}], "caveats": [...]}
 *   "metrics" holds each metric's median over the row's runs, "min" and
 *   "max" its smallest and largest value (the spread; equal to the median
 *   when one run has it). "shared_conditions" also holds the extra
 *   conditions every run shares, by their "FORMAT.key" names, as strings.
 * Missing values are left out of objects; infinity is the string "inf";
 * INT/REAL/BOOL conditions are JSON numbers/booleans, others strings.
 */
#ifndef PL_RENDER_H
#define PL_RENDER_H

#include <stdio.h>

#include "core/compare.h"
#include "core/error.h"
#include "core/amend.h"
#include "core/model.h"

enum pl_table_format { PL_FMT_TEXT, PL_FMT_MARKDOWN, PL_FMT_CSV, PL_FMT_JSON };

/* Parses "text" | "markdown" | "csv" | "json" into *out. Returns 0 or
 * PL_EUSAGE. */
int pl_table_format_parse(const char *s, enum pl_table_format *out, struct pl_error *err);

/* Writes the comparison cmp as a table in format fmt to out: a header with
 * the axis and the shared conditions (extras included), one line per row
 * with n, each metric (unit in the column header; text and Markdown add the
 * spread "(min–max)" where two or more of the row's runs have it) and its
 * delta vs the first row, then the caveats. Reference-only rows are marked. Returns 0 or PL_EIO. */
int pl_render_comparison(FILE *out, const struct pl_comparison *cmp, enum pl_table_format fmt,
                         struct pl_error *err);

/* Writes the Markdown table of every condition field, in model order:
 * | name | value | flags | travels with | meaning |, the value form a
 * descriptor gives it, its flags (required, key = compared, checklist;
 * "per run" when not compared) and the axis fields it travels with.
 * docs/compare.md and schema/descriptor.md hold this exact text (a unit test
 * checks it), so the documented table is the model's. Returns 0 or PL_EIO. */
int pl_render_condition_table(FILE *out, struct pl_error *err);

/* Writes runs as a table in format fmt: text/markdown/csv show id, the key
 * conditions, the headline metrics, a reference-only mark, the source and,
 * when any listed run has extra conditions, an `extras` column
 * ("name=value; name=value", "-" / empty for a run without); json shows
 * everything (shape above). Returns 0 or PL_EIO. */
int pl_render_runs(FILE *out, const struct pl_run_list *runs, enum pl_table_format fmt,
                   struct pl_error *err);

struct pl_carried; /* core/carried.h */

/* Writes one line of `perfledger export` for run, with c (may be NULL) its
 * accepted steps, revisions and retractions (their run_id is not read):
 * the run as a descriptor with its extras, provenance and those (shape in
 * src/render/export.c and docs/ledger.md "Export, merge and reimport"), ending in
 * "\n". Returns 0 or PL_EIO (a write failed; the caller names the file). */
int pl_render_export_run(FILE *out, const struct pl_run *run, const struct pl_carried *c);

/* Writes s as a JSON string literal (with quotes) to out. Invalid UTF-8
 * bytes are replaced by U+FFFD. Returns 0 or PL_EIO. */
int pl_json_write_string(FILE *out, const char *s);

/* Writes s escaped for a Markdown table cell: | \ ` * _ < > [ ] # & get a
 * backslash (CommonMark escapes any ASCII punctuation), line breaks and
 * tabs become spaces, and whatever else the terminal rule of util/utf8.h
 * (pl_utf8_inert_step()) makes inert becomes '?': other controls, bidi
 * controls, invalid UTF-8.
 * Returns 0 or PL_EIO. */
int pl_markdown_write_cell(FILE *out, const char *s);

/* Writes s as one CSV field (RFC 4180 quoting, formula prefixes neutralised).
 * Returns 0 or PL_EIO. */
int pl_csv_write_field(FILE *out, const char *s);

/* `perfledger show ID`: run whole (conditions, extras, metrics with units,
 * provenance, its revision and whether it is retracted) and its trail, the
 * events in time order: imported (revision 1), each amend with the fields
 * it changed (old -> new), each retraction and restore; revs and rets may
 * hold other runs' records too (ordered by run id) and be NULL. fmt text
 * (stored strings made inert) or json (the `list --format json` object
 * plus "revision", "retracted" and "trail": [{"event": "imported" |
 * "amended" | "retracted" | "restored", "at", "revision", "by", "reason",
 * "changes": [{"field", "old", "new"}]}], a missing value null). Returns
 * 0, PL_EUSAGE (another format), PL_EIO or PL_ENOMEM. */
int pl_render_run_show(FILE *out, const struct pl_run *run, const struct pl_revision_list *revs,
                       const struct pl_retraction_list *rets, enum pl_table_format fmt,
                       struct pl_error *err);

/* `list --history`: text: the runs table (pl_render_runs) and then the trail
 * of every listed run that has more than its import; json: an array of the
 * objects pl_render_run_show() writes. Returns as pl_render_run_show(). */
int pl_render_runs_history(FILE *out, const struct pl_run_list *runs,
                           const struct pl_revision_list *revs,
                           const struct pl_retraction_list *rets, enum pl_table_format fmt,
                           struct pl_error *err);

#endif
