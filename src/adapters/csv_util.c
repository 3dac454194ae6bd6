/*
 * csv_util.c — CSV tables with line numbers (see csv_util.h).
 */
#include "adapters/csv_util.h"

#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/buf.h"

static int row_push(struct pl_csv_row *r, struct pl_buf *b)
{
	char *cell = strdup(b->data);

	if (!cell || PL_ALLOC_GROW(r->cells, r->ncells + 1, r->cells_cap)) {
		free(cell);
		return -1;
	}
	r->cells[r->ncells++] = cell;
	pl_buf_reset(b);
	return 0;
}

static void row_release(struct pl_csv_row *r)
{
	for (size_t i = 0; i < r->ncells; i++)
		free(r->cells[i]);
	free(r->cells);
	memset(r, 0, sizeof(*r));
}

static int table_push(struct pl_csv *csv, struct pl_csv_row *r, int new_table)
{
	struct pl_csv_table *t;

	if (new_table || csv->ntables == 0) {
		if (PL_ALLOC_GROW(csv->tables, csv->ntables + 1, csv->tables_cap))
			return -1;
		memset(&csv->tables[csv->ntables++], 0, sizeof(*csv->tables));
	}
	t = &csv->tables[csv->ntables - 1];
	if (PL_ALLOC_GROW(t->rows, t->nrows + 1, t->rows_cap))
		return -1;
	t->rows[t->nrows++] = *r;
	memset(r, 0, sizeof(*r));
	return 0;
}

int pl_csv_parse(const char *path, const char *buf, size_t len, struct pl_csv *csv,
                 struct pl_error *err)
{
	struct pl_buf b;
	struct pl_csv_row row = {0};
	long line = 1, col = 1, row_line = 1, qline = 0, qcol = 0;
	int in_q = 0, blank_seen = 1, any = 0;
	size_t i = 0;

	memset(csv, 0, sizeof(*csv));
	pl_buf_init(&b);
	if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	for (; i <= len; i++) {
		char ch = i < len ? buf[i] : '\n';
		int eof = i == len;
		if (ch == '\0') {
			pl_error_at(err, path, line, col);
			pl_error_set(err, PL_ESYNTAX, "invalid CSV: unexpected NUL byte");
			goto fail;
		}
		if (in_q) {
			if (eof) {
				pl_error_at(err, path, qline, qcol);
				pl_error_set(err, PL_ESYNTAX, "invalid CSV: a quoted cell is not closed");
				goto fail;
			}
			if (ch == '"') {
				if (i + 1 < len && buf[i + 1] == '"') {
					if (pl_buf_addc(&b, '"'))
						goto oom;
					i++;
					col++;
				} else {
					in_q = 0;
				}
			} else if (pl_buf_addc(&b, ch)) {
				goto oom;
			}
			if (ch == '\n') {
				line++;
				col = 1;
			} else {
				col++;
			}
			continue;
		}
		if (ch == '\r' && i + 1 < len && buf[i + 1] == '\n') {
			col++;
			continue;
		}
		if (ch == '\n' || (ch == '\r')) {
			if (eof && row.ncells == 0 && b.len == 0 && !any)
				break;
			if (row.ncells == 0 && b.len == 0 && !any) {
				blank_seen = 1; /* a blank line ends a table */
			} else {
				if (row_push(&row, &b))
					goto oom;
				row.line = row_line;
				if (table_push(csv, &row, blank_seen))
					goto oom;
				blank_seen = 0;
			}
			any = 0;
			line++;
			col = 1;
			row_line = line;
			if (eof)
				break;
			continue;
		}
		any = 1;
		if (ch == '"' && b.len == 0) {
			in_q = 1;
			qline = line;
			qcol = col;
		} else if (ch == ',') {
			if (row_push(&row, &b))
				goto oom;
		} else if (pl_buf_addc(&b, ch)) {
			goto oom;
		}
		col++;
	}
	pl_buf_release(&b);
	if (csv->ntables == 0) { /* empty or blank lines only: callers read tables[0] */
		pl_error_at(err, path, 0, 0);
		return pl_error_set(err, PL_EINVALID, "the file holds no runs (an empty CSV)");
	}
	return 0;
oom:
	pl_error_set(err, PL_ENOMEM, "out of memory");
fail:
	pl_buf_release(&b);
	row_release(&row);
	pl_csv_release(csv);
	return err ? err->code : PL_ENOMEM;
}

void pl_csv_release(struct pl_csv *csv)
{
	if (!csv)
		return;
	for (size_t t = 0; t < csv->ntables; t++) {
		for (size_t r = 0; r < csv->tables[t].nrows; r++)
			row_release(&csv->tables[t].rows[r]);
		free(csv->tables[t].rows);
	}
	free(csv->tables);
	memset(csv, 0, sizeof(*csv));
}

int pl_csv_col(const struct pl_csv_table *t, const char *name)
{
	size_t n = strlen(name);

	if (!t || t->nrows == 0)
		return -1;
	for (size_t c = 0; c < t->rows[0].ncells; c++) {
		const char *h = t->rows[0].cells[c];
		size_t hl = strlen(h);
		while (hl > 0 && h[hl - 1] == ' ')
			hl--;
		if (hl == n && memcmp(h, name, n) == 0)
			return (int)c;
	}
	return -1;
}

const char *pl_csv_cell(const struct pl_csv_row *r, int c)
{
	if (!r || c < 0 || (size_t)c >= r->ncells)
		return "";
	return r->cells[c];
}

void pl_csv_first_line(const char *buf, size_t len, char *out, size_t n)
{
	size_t i = 0, k = 0;

	if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	for (; i < len && i < 4096 && buf[i] != '\n' && buf[i] != '\r' && k + 1 < n; i++)
		out[k++] = buf[i];
	if (n)
		out[k] = '\0';
}
