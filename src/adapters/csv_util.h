/*
 * csv_util.h — private CSV reader of the adapters layer.
 *
 * Tool exports put several tables in one CSV file separated by blank lines
 * (AIPerf's profile_export_aiperf.csv, GenAI-Perf's analyze export), end
 * lines with CRLF and leave cells empty for "not available". This reader
 * splits a file into tables at blank lines, each a list of rows of cells
 * (RFC 4180 quoting: "a,b" and "" inside quotes), with the 1-based line of
 * every row kept for messages. A UTF-8 BOM is skipped; a NUL byte or an
 * unterminated quote is PL_ESYNTAX with line and column.
 */
#ifndef PL_CSV_UTIL_H
#define PL_CSV_UTIL_H

#include <stddef.h>

#include "core/error.h"

struct pl_csv_row {
	char **cells;  /* NUL-terminated cells, owned; surrounding spaces kept */
	size_t ncells; /* cells in the row */
	size_t cells_cap; /* allocated cells (PL_ALLOC_GROW); moves with cells */
	long line;     /* 1-based line where the row starts */
};

struct pl_csv_table {
	struct pl_csv_row *rows; /* rows[0] is the header when the table has one */
	size_t nrows;
	size_t rows_cap; /* allocated rows (PL_ALLOC_GROW) */
};

/* A parsed file. Initialise with {0}; release with pl_csv_release(). */
struct pl_csv {
	struct pl_csv_table *tables;
	size_t ntables;
	size_t tables_cap; /* allocated tables (PL_ALLOC_GROW) */
};

/* Parses buf[0..len) into tables. Returns 0, PL_ESYNTAX (err located in
 * path), PL_EINVALID when it holds no table at all (empty or blank lines
 * only) or PL_ENOMEM; csv is released on error. */
int pl_csv_parse(const char *path, const char *buf, size_t len, struct pl_csv *csv,
                 struct pl_error *err);

void pl_csv_release(struct pl_csv *csv);

/* Index of the header cell named name in table t (exact match after trailing
 * spaces are ignored), or -1. */
int pl_csv_col(const struct pl_csv_table *t, const char *name);

/* Cell c of row r, or "" when the row is shorter. */
const char *pl_csv_cell(const struct pl_csv_row *r, int c);

/* The first line of buf (up to 4 KiB, CR/LF stripped, BOM skipped) copied
 * into out; for detectors. */
void pl_csv_first_line(const char *buf, size_t len, char *out, size_t n);

#endif
