/*
 * render_impl.h — private helpers shared by the renderers (src/render/ only).
 *
 * Text sanitising and display width for terminal tables, C-locale number
 * formatting for human tables, the row label of a comparison, UTF-8
 * repair. Defined in escape.c (escaping) and format.c (numbers, labels)
 * unless a comment says otherwise. Paths, mkdir -p and atomic writes (so
 * that a failed render never leaves a half-written file) are util's
 * (util/fsutil.h, included here); whole files are read with util/file.h
 * at most PL_RENDER_READ_MAX bytes.
 */
#ifndef PL_RENDER_IMPL_H
#define PL_RENDER_IMPL_H

#include <stddef.h>
#include <stdio.h>

#include "util/fsutil.h"

/* The largest file the renderers read back whole (an output file to hash
 * or compare for a manifest or `verify`): 1 GiB. */
#define PL_RENDER_READ_MAX ((size_t)1 << 30)

#include "core/compare.h"
#include "core/error.h"
#include "render/render.h"

/* Copy of s (NULL = "") with invalid UTF-8 bytes replaced by U+FFFD.
 * Caller frees with free(); NULL on out of memory. */
char *pl_utf8_repair(const char *s);

/* Copy of s (NULL = "") that is safe on a terminal: C0/C1 control
 * characters (ESC included), DEL, bidi overrides and invalid UTF-8 bytes
 * become '?'. Caller frees with free(); NULL on out of memory. */
char *pl_text_sanitize(const char *s);

/* Widest cell of a text table, in display columns: a longer one is cut
 * with an ellipsis so that one long name cannot pad every row. */
#define PL_TEXT_CELL_MAX 60

/* pl_text_sanitize() (the terminal rule of util/utf8.h,
 * pl_utf8_inert_step()) that also cuts the text to max_cols display
 * columns, the last one an ellipsis (U+2026), when it is wider; max_cols 0:
 * no cut. Caller frees with free(); NULL on out of memory. */
char *pl_text_sanitize_cut(const char *s, size_t max_cols);

/* Display width of a UTF-8 string in terminal columns: East Asian wide
 * characters count 2, combining marks 0, everything else 1. */
size_t pl_text_width(const char *s);

/* A number for human tables, C locale: 4 significant digits with trailing
 * zeros kept ("0.3200", "45.20", "1235", "12345"); "inf" for infinity. */
char *pl_fmt_sig4(char *buf, size_t n, double v);

/* A delta in percent, one decimal, always signed: "+12.3%", "-4.0%". */
char *pl_fmt_delta(char *buf, size_t n, double pct);

/* A relative change rel (0.1 = +10%) of a metric with direction dir as
 * history, check, the CI formats and the site print it: "+10.0% worse",
 * "-4.0% better", "+2.0%" (no direction, or no change). Writes at most n
 * bytes into buf (24 are enough) and returns buf. */
char *pl_fmt_change(char *buf, size_t n, double rel, enum pl_direction dir);

/* Writes s (NULL = "", text from an input file) inline in a line of text
 * or Markdown output: escaped as a Markdown cell, or cleaned for the
 * terminal as pl_text_sanitize() does. Returns 0, PL_EIO or PL_ENOMEM. */
int pl_render_write_input(FILE *out, const char *s, enum pl_table_format fmt);

/* Writes caveats as "caveat: ..." lines ("- caveat: ..." in Markdown),
 * each distinct one once (render/regress.c): a caveat equal to an earlier
 * one, or the same but for its first argument (the point or row it names),
 * is counted on that one's line, which names the first 3 other rows it
 * holds for ("(and likewise for A, B, C and 22 more)"; "(and 1 more like
 * it)" for exact repeats), worded in English and written through
 * pl_render_write_input(). O(n^2) in the caveats. Returns 0, PL_ENOMEM or
 * pl_render_write_input()'s code. */
struct pl_msgs;
int pl_render_put_caveats(FILE *out, const struct pl_msgs *caveats, enum pl_table_format fmt);

/* The spread of metric m over the runs of a comparison row, for human
 * tables: "min–max" (4 significant digits each, an en dash between), or ""
 * when fewer than two of the row's runs have the metric or min and max
 * print the same in 4 digits (no spread to show). Writes into buf (size n, truncated, NUL-terminated). Returns buf. */
char *pl_fmt_spread(char *buf, size_t n, const struct pl_compare_row *row, int m);

/* Label of comparison row `row`: its axis values joined with " / ",
 * "(missing)" for a missing value. Raw input text (not sanitised).
 * Writes into buf (size n, truncated, NUL-terminated). Returns buf. */
char *pl_render_row_label(const struct pl_comparison *cmp, size_t row, char *buf, size_t n);

/* 1 if condition id is one of cmp's axis fields. */
int pl_render_is_axis(const struct pl_comparison *cmp, int id);

/* Writes "shared: " and every condition all of cmp's runs share as
 * "name=value, ...", then the extra conditions they share
 * ("vllm-serving.label=x"), or "(none)"; values escaped for fmt by
 * pl_render_write_input(); no line end. Left out: the axis fields, and with
 * skip_travellers also the fields travelling with them. Returns 0 or a
 * PL_E* code of pl_render_write_input(). */
int pl_render_write_shared(FILE *out, const struct pl_comparison *cmp, enum pl_table_format fmt,
                           int skip_travellers);

/* Writes s escaped for HTML/XML text and attribute values (& < > " '),
 * invalid UTF-8 as U+FFFD, control and bidi characters as '?'. Returns 0
 * or PL_EIO. */
int pl_html_write_text(FILE *out, const char *s);

/* A JSON number in the C locale (shortest round-trip form); infinity as the
 * string "inf" / "-inf"; NaN as null. */
void pl_json_write_num(FILE *out, double v);

/* Writes `"name": ` preceded by ", " unless *first (which it then clears). */
void pl_json_write_key(FILE *out, int *first, const char *name);

/* Writes `"measurements": {"FORMAT.path": value, ...}` (the run's
 * unplaced measurements by name, a number in its shortest round-trip form,
 * anything else as its stored JSON text) preceded by ", " unless *first;
 * nothing when the run has none. export.c. */
void pl_json_write_measures(FILE *out, int *first, const struct pl_run *run);

/* Writes the members of run's `list --format json` object (id, source,
 * sha256, ..., conditions, extras, metrics; no braces), the first preceded
 * by ", " unless *first (which it then clears). */
void pl_render_json_run_fields(FILE *out, const struct pl_run *run, int *first);

/* ------------------------------------------------------------ the grid
 * Cells row by row (row 0 is the header); see grid.c. */
struct pl_cell {
	char *s;             /* cell text; heap */
	unsigned char input; /* 1 if the text came from an input file */
	unsigned char right; /* 1 to right-align (numbers) in text tables */
};

struct pl_grid {
	struct pl_cell *c; /* cells, row-major */
	size_t n;          /* cells in use */
	size_t cap;        /* cells allocated */
	size_t ncols;      /* cells per row; set by the caller before writing */
	int oom;           /* sticky: an allocation failed */
};

/* Appends a copy of s (NULL = "") as the next cell. An allocation failure
 * sets g->oom, which pl_grid_write reports. */
void pl_grid_put(struct pl_grid *g, const char *s, int input, int right);

/* Frees the cells; the grid is empty afterwards. */
void pl_grid_release(struct pl_grid *g);

/* Writes the grid as fmt (text, Markdown or CSV; not JSON). Returns 0 or
 * PL_ENOMEM; stream errors are left to the caller's ferror check. */
int pl_grid_write(FILE *out, const struct pl_grid *g, enum pl_table_format fmt);

/* Runs gnuplot ($PERFLEDGER_GNUPLOT or `gnuplot`, from an argv vector, in
 * dir) on NAME.gp, which must write NAME.svg and NAME.png; old ones are
 * removed first. Returns 0; PL_ETOOL when gnuplot is missing (the message
 * says how to install it), fails or writes nothing; PL_ENOMEM. Defined in
 * plot.c. */
int pl_plot_run_script(const char *dir, const char *name, struct pl_error *err);

/* Sets the creation and modification dates of the finished workbook at
 * path to 1970-01-01T00:00:00Z, which libxlsxwriter takes for "unset"
 * (xlsx_epoch.c: docProps/core.xml rewritten, the zip's offsets
 * recomputed). Returns 0, PL_EIO (path named: unreadable, not a plain zip,
 * or not written) or PL_ENOMEM. */
int pl_xlsx_pin_epoch_zero(const char *path, struct pl_error *err);

#endif
