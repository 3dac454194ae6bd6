/*
 * xlsx.c — the comparison as an .xlsx workbook, through libxlsxwriter.
 *
 * The only file that includes xlsxwriter.h; no workbook handle leaves it.
 * Sheets: Comparison, Runs, Conditions and (when there are any) Caveats.
 * The Comparison sheet has per row its axis values, n, the median of each
 * metric and its delta, then (when some row pools two or more runs) each
 * metric's min and max over the row's runs; Conditions lists the shared
 * fields, the extra conditions ("FORMAT.key") every run shares, and the
 * fields that vary with the axis.
 * Numbers are numeric cells with units in the headers and a number format
 * per unit; every string from an input file is a text cell written with
 * worksheet_write_string (repaired to valid UTF-8 and cut to Excel's 32767
 * character limit), never a formula. Sheet names are fixed. The workbook is
 * written to "<path>.tmp" and renamed, and its creation time is the epoch
 * the caller passes (the CLI's SOURCE_DATE_EPOCH, or now) so that renders
 * are reproducible; this file never reads the environment.
 */
#include "render/xlsx.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <xlsxwriter.h>

#include "core/procure.h"
#include "render/i18n.h"
#include "render/render_impl.h"
#include "render/spec.h"
#include "render/words.h"
#include "util/buf.h"
#include "util/file.h"

#define MAX_COLS 256           /* more than any sheet here has */
#define XLSX_STR_MAX 32767     /* Excel's limit on a cell's text */

/* A sheet being written: the handle and the widest text per column. */
struct sheet {
	lxw_worksheet *ws;               /* libxlsxwriter's sheet */
	unsigned short width[MAX_COLS];  /* widest cell text per column */
	lxw_col_t ncols;                 /* columns used */
	unsigned short headw[2][MAX_COLS]; /* header text width: row 0, and the row hrow */
	lxw_row_t hrow;                  /* a second header row (0: none) */
	lxw_format *text;                /* a text cell's default: indented (formats.text) */
	int several_tables;              /* 1: the sheet holds more than one table, so
	                                    its first row is not printed atop every
	                                    page (it heads the first table only: atop
	                                    the points table it named a load "cost") */
};

/* Number formats and the header style. */
struct formats {
	lxw_format *header;  /* bold */
	lxw_format *seconds; /* 0.0000 */
	lxw_format *rate;    /* 0.00 (tok/s, req/s) */
	lxw_format *whole;   /* 0 (counts, bytes) */
	lxw_format *watts;   /* 0.0 */
	lxw_format *delta;   /* +0.0;-0.0;0.0 (percent points) */
	lxw_format *link;    /* hyperlink: blue, underlined, indented as text */
	lxw_format *text;    /* text: indented one level, so that printed it never
	                      * touches the number or clipped text left of it
	                      * ("1" and "2x NVIDIA" printed "12x NVIDIA") */
	int zh;              /* 1: the words of the sheets in Chinese (names stay as they are) */
};

/* A word of the sheets (a W_XLSX_* code of the word tables) in the
 * workbook's language. */
#define TR(f, code) pl_word(PL_MSG_##code, (f)->zh ? PL_LANG_ZH : PL_LANG_EN)

static void note_width(struct sheet *sh, lxw_col_t col, size_t w)
{
	if (col >= MAX_COLS)
		return;
	if (w > 36) /* longer text (paths, sha256) runs on or is cut at the cell's edge */
		w = 36;
	if (w > sh->width[col])
		sh->width[col] = (unsigned short)w;
	if (col + 1 > sh->ncols)
		sh->ncols = (lxw_col_t)(col + 1);
}

/* A text cell in fmt, or (fmt NULL) in the sheet's indented text format.
 * Input text is repaired to valid UTF-8; text over Excel's
 * limit is cut at a character boundary and ends in an ellipsis (U+2026) so
 * that a reader knows the cell is not the whole value. Returns 0 or
 * PL_ENOMEM. */
static int put_str(struct sheet *sh, lxw_row_t row, lxw_col_t col, const char *s, lxw_format *fmt)
{
	char *t = pl_utf8_repair(s);
	size_t len;

	if (!t)
		return PL_ENOMEM;
	len = strlen(t);
	if (len > XLSX_STR_MAX) {
		len = XLSX_STR_MAX - 3; /* room for the ellipsis, 3 bytes in UTF-8 */
		while (len > 0 && ((unsigned char)t[len] & 0xC0) == 0x80)
			len--;
		memcpy(t + len, "\xE2\x80\xA6", 4);
	}
	if (!fmt)
		fmt = sh->text;
	worksheet_write_string(sh->ws, row, col, t, fmt);
	/* the indent (three spaces) takes about one column */
	note_width(sh, col, pl_text_width(t) + (fmt && fmt == sh->text));
	free(t);
	return 0;
}

/* A header cell (fmt wraps its text): the column is made as wide as the
 * header's longest word, up to 20, not as the whole header. Returns 0 or
 * PL_ENOMEM. */
static int put_head(struct sheet *sh, lxw_row_t row, lxw_col_t col, const char *s, lxw_format *fmt)
{
	size_t longest = 0, w = 0;
	int rc;

	if (col < MAX_COLS && col < sh->ncols) { /* put_str notes the whole width: undo it */
		unsigned short keep = sh->width[col];
		rc = put_str(sh, row, col, s, fmt);
		sh->width[col] = keep;
	} else {
		rc = put_str(sh, row, col, s, fmt);
		if (col < MAX_COLS)
			sh->width[col] = 0;
	}
	for (const char *p = s; ; p++) { /* words split at spaces and '_' */
		if (!*p || *p == ' ' || *p == '_') {
			longest = w > longest ? w : longest;
			w = 0;
			if (!*p)
				break;
			continue;
		}
		if (((unsigned char)*p & 0xC0) == 0x80)
			continue; /* counted with its lead byte */
		w += (unsigned char)*p >= 0xE0 ? 2 : 1; /* CJK (3-byte UTF-8 and up): two columns */
	}
	note_width(sh, col, longest > 20 ? 20 : longest);
	if (col < MAX_COLS) {
		size_t whole = pl_text_width(s);
		if (row != 0)
			sh->hrow = row;
		sh->headw[row != 0][col] = (unsigned short)(whole > 400 ? 400 : whole);
	}
	return rc;
}

static void put_num(struct sheet *sh, lxw_row_t row, lxw_col_t col, double v, lxw_format *fmt)
{
	char buf[40];

	if (isnan(v))
		return;
	if (isinf(v)) {
		worksheet_write_string(sh->ws, row, col, v > 0 ? "inf" : "-inf", sh->text);
		note_width(sh, col, 4);
		return;
	}
	worksheet_write_number(sh->ws, row, col, v, fmt);
	note_width(sh, col, strlen(pl_fmt_num(buf, sizeof(buf), v)));
}

static lxw_format *unit_format(const struct formats *f, enum pl_unit u)
{
	switch (u) {
	case PL_U_SECONDS:
	case PL_U_FRACTION:
		return f->seconds;
	case PL_U_TOKENS_PER_S:
	case PL_U_REQUESTS_PER_S:
		return f->rate;
	case PL_U_COUNT:
	case PL_U_BYTES:
		return f->whole;
	case PL_U_WATTS:
		return f->watts;
	}
	return NULL;
}

/* A condition value: numbers numeric, booleans boolean, text as text. */
static int put_cond(struct sheet *sh, lxw_row_t row, lxw_col_t col, int id,
                    const struct pl_value *v)
{
	if (!v->set)
		return 0;
	switch (pl_cond_info[id].type) {
	case PL_CT_INT:
	case PL_CT_REAL:
		if (isnan(v->num) && v->text) /* a row's mixed values, "4; 8": text */
			return put_str(sh, row, col, v->text, NULL);
		put_num(sh, row, col, v->num, NULL);
		return 0;
	case PL_CT_BOOL:
		if (isnan(v->num) && v->text)
			return put_str(sh, row, col, v->text, NULL);
		worksheet_write_boolean(sh->ws, row, col, v->num != 0, NULL);
		note_width(sh, col, 5);
		return 0;
	default:
		return put_str(sh, row, col, v->text, NULL);
	}
}

/* Column widths from the widest texts, and a sheet that reads and prints
 * as a table: header row and first column frozen, an autofilter over the
 * header and rows 1..last (none when last is 0), and printed on A4
 * landscape at a scale that keeps 11 pt text at 8 pt or more: fitted
 * to the page width when that needs no more shrinking (PRINT_COLS
 * characters of column width at 100%), else at PRINT_MIN_SCALE, split
 * across pages with the first column and the header row repeated on
 * every page (a sheet fitted to one page printed 1.95 pt text). */
#define PRINT_COLS 140.0    /* column-width characters across A4 landscape at 100% */
#define PRINT_MIN_SCALE 73 /* percent: 11 pt * 0.73 = 8.03 pt */
static void finish_sheet(struct sheet *sh, lxw_row_t last)
{
	double total = 0;
	for (lxw_col_t c = 0; c < sh->ncols; c++) {
		double w = sh->width[c] + 2;
		worksheet_set_column(sh->ws, c, c, w < 8 ? 8 : w, NULL);
		total += w < 8 ? 8 : w;
	}
	/* a header row tall enough for its wrapped lines (LibreOffice does
	 * not grow a row for wrapped text that no one edited) */
	for (int h = 0; h < 2; h++) {
		size_t lines = 1;
		for (lxw_col_t c = 0; c < sh->ncols; c++) {
			double w = sh->width[c] + 2 < 8 ? 8 : sh->width[c] + 2;
			size_t need = (size_t)ceil(sh->headw[h][c] / w);
			lines = need > lines ? need : lines;
		}
		if (h == 0 || sh->hrow > 0)
			worksheet_set_row(sh->ws, h ? sh->hrow : 0, 15.0 * (double)(lines > 4 ? 4 : lines), NULL);
	}
	worksheet_freeze_panes(sh->ws, 1, 1);
	if (last > 0 && sh->ncols > 0)
		worksheet_autofilter(sh->ws, 0, 0, last, (lxw_col_t)(sh->ncols - 1));
	worksheet_set_landscape(sh->ws);
	worksheet_set_paper(sh->ws, 9); /* A4 */
	if (total * PRINT_MIN_SCALE / 100.0 <= PRINT_COLS) {
		worksheet_fit_to_pages(sh->ws, 1, 0);
	} else {
		worksheet_set_print_scale(sh->ws, PRINT_MIN_SCALE);
		worksheet_repeat_columns(sh->ws, 0, 0);
	}
	if (!sh->several_tables)
		worksheet_repeat_rows(sh->ws, 0, 0);
}

static void metric_header(char *buf, size_t n, int m)
{
	snprintf(buf, n, "%s (%s)", pl_metric_info[m].name, pl_unit_label(pl_metric_info[m].unit));
}

static int metric_in_rows(const struct pl_comparison *cmp, int m)
{
	for (size_t r = 0; r < cmp->nrows; r++)
		if (cmp->rows[r].n_metric[m])
			return 1;
	return 0;
}

/* Axis fields, then travelling fields that differ between rows. */
static size_t row_fields(const struct pl_comparison *cmp, int *ids)
{
	size_t n = 0;

	for (size_t i = 0; i < cmp->naxis; i++)
		if (cmp->axis[i] >= 0 && cmp->axis[i] < PL_COND_COUNT)
			ids[n++] = cmp->axis[i];
	for (int id = 0; id < PL_COND_COUNT; id++) {
		if (!cmp->varies[id] || pl_render_is_axis(cmp, id) || cmp->shared[id].set)
			continue;
		for (size_t r = 0; r < cmp->nrows; r++) {
			if (cmp->rows[r].axis[id].set) {
				ids[n++] = id;
				break;
			}
		}
	}
	return n;
}

/* 1 when the Comparison sheet starts with a column of row labels (the axis
 * values joined, "2x NVIDIA H100 80G / 16"): with two or more axis fields,
 * so that the first column names the row and the chart's categories say
 * hardware and concurrency, not the hardware repeated. */
static int has_label_col(const struct pl_comparison *cmp)
{
	return cmp->naxis > 1;
}

static int sheet_comparison(struct sheet *sh, const struct pl_comparison *cmp,
                            const struct formats *f)
{
	int ids[PL_COND_COUNT], metrics[PL_METRIC_COUNT];
	size_t nids = row_fields(cmp, ids), nm = 0;
	lxw_col_t col = 0;
	char buf[128];
	int rc = 0, spread = 0;

	for (size_t i = 0; i < cmp->nmetrics; i++)
		if (cmp->metrics[i] >= 0 && cmp->metrics[i] < PL_METRIC_COUNT &&
		    metric_in_rows(cmp, cmp->metrics[i]))
			metrics[nm++] = cmp->metrics[i];
	/* min and max columns after the deltas (the columns before them keep
	 * their places, which the bundle's chart refers to), only when some row
	 * pools two or more runs of a metric */
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t i = 0; i < nm; i++)
			spread |= cmp->rows[r].n_metric[metrics[i]] > 1;
	if (has_label_col(cmp)) { /* "hardware / concurrency": the row's axis values, one cell */
		struct pl_buf h = PL_BUF_INIT;
		for (size_t i = 0; i < cmp->naxis; i++)
			if (cmp->axis[i] >= 0 && cmp->axis[i] < PL_COND_COUNT) {
				if (h.len)
					pl_buf_adds(&h, " / ");
				pl_buf_adds(&h, pl_cond_info[cmp->axis[i]].name);
			}
		rc |= h.oom ? PL_ENOMEM : put_head(sh, 0, col++, h.data ? h.data : "", f->header);
		pl_buf_release(&h);
	}
	for (size_t i = 0; i < nids; i++)
		rc |= put_head(sh, 0, col++, pl_cond_info[ids[i]].name, f->header);
	rc |= put_head(sh, 0, col++, "n", f->header);
	rc |= put_head(sh, 0, col++, TR(f, W_XLSX_REFERENCE_ONLY_RUNS), f->header);
	for (size_t i = 0; i < nm; i++) {
		metric_header(buf, sizeof(buf), metrics[i]);
		rc |= put_head(sh, 0, col++, buf, f->header);
	}
	for (size_t i = 0; i < nm; i++) {
		snprintf(buf, sizeof(buf), "%s delta (%%)", pl_metric_info[metrics[i]].name);
		rc |= put_head(sh, 0, col++, buf, f->header);
	}
	for (size_t i = 0; spread && i < nm; i++) {
		const char *unit = pl_unit_label(pl_metric_info[metrics[i]].unit);
		snprintf(buf, sizeof(buf), "%s min (%s)", pl_metric_info[metrics[i]].name, unit);
		rc |= put_head(sh, 0, col++, buf, f->header);
		snprintf(buf, sizeof(buf), "%s max (%s)", pl_metric_info[metrics[i]].name, unit);
		rc |= put_head(sh, 0, col++, buf, f->header);
	}
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct pl_compare_row *row = &cmp->rows[r];
		lxw_row_t xr = (lxw_row_t)(r + 1);
		col = 0;
		if (has_label_col(cmp)) {
			char label[1024];
			rc |= put_str(sh, xr, col++, pl_render_row_label(cmp, r, label, sizeof(label)), NULL);
		}
		for (size_t i = 0; i < nids; i++, col++)
			rc |= put_cond(sh, xr, col, ids[i], &row->axis[ids[i]]);
		put_num(sh, xr, col++, (double)row->n, NULL);
		put_num(sh, xr, col++, (double)row->reference_only, NULL);
		for (size_t i = 0; i < nm; i++, col++)
			if (row->n_metric[metrics[i]])
				put_num(sh, xr, col, row->metric[metrics[i]],
				        unit_format(f, pl_metric_info[metrics[i]].unit));
		for (size_t i = 0; i < nm; i++, col++)
			if (row->has_delta[metrics[i]] && isfinite(row->delta_pct[metrics[i]]))
				put_num(sh, xr, col, row->delta_pct[metrics[i]], f->delta);
		for (size_t i = 0; spread && i < nm; i++, col += 2) {
			int m = metrics[i];
			lxw_format *uf = unit_format(f, pl_metric_info[m].unit);
			if (!row->n_metric[m])
				continue;
			put_num(sh, xr, col, row->min[m], uf); /* = the median for one run */
			put_num(sh, xr, col + 1, row->max[m], uf);
		}
	}
	finish_sheet(sh, (lxw_row_t)cmp->nrows);
	return rc ? PL_ENOMEM : 0;
}

/* The file: URL of an absolute path, every byte outside A-Z a-z 0-9 - . _ ~
 * and '/' percent-encoded: a space, quote, '#', '%', ':' or a non-ASCII
 * byte can neither end the path nor start a fragment, and nothing of the
 * path reaches the sheet as anything but data. NULL (then the path is
 * written as plain text) for a relative path or "-" (stdin): they name no
 * place a reader's machine shares; also NULL on out of memory. Caller frees. */
static char *file_url(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n, k = 0;
	char *u;

	if (!path || path[0] != '/')
		return NULL;
	n = strlen(path);
	u = malloc(7 + 3 * n + 1);
	if (!u)
		return NULL;
	memcpy(u, "file://", 7);
	k = 7;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    *p == '-' || *p == '.' || *p == '_' || *p == '~' || *p == '/') {
			u[k++] = (char)*p;
		} else {
			u[k++] = '%';
			u[k++] = hex[*p >> 4];
			u[k++] = hex[*p & 15];
		}
	}
	u[k] = '\0';
	return u;
}

/* The source path of a run: a hyperlink to the file (file_url()) showing
 * the path as text, else the path as plain text. Never a formula: a
 * hyperlink cell's text is a string cell. Returns 0 or PL_ENOMEM. */
static int put_source(struct sheet *sh, lxw_row_t row, lxw_col_t col, const char *path,
                      const struct formats *f)
{
	char *url = file_url(path), *text;
	lxw_error e;

	if (!url)
		return put_str(sh, row, col, path, NULL);
	text = pl_utf8_repair(path);
	if (!text || strlen(text) > XLSX_STR_MAX) {
		free(url);
		free(text);
		return put_str(sh, row, col, path, NULL);
	}
	e = worksheet_write_url_opt(sh->ws, row, col, url, f->link, text, NULL);
	free(url);
	if (e != LXW_NO_ERROR) { /* too long for a link, too many links: plain text */
		free(text);
		return put_str(sh, row, col, path, NULL);
	}
	note_width(sh, col, pl_text_width(text) + 1); /* + the indent */
	free(text);
	return 0;
}

static int run_in_comparison(const struct pl_comparison *cmp, long long id)
{
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t i = 0; i < cmp->rows[r].n && cmp->rows[r].run_ids; i++)
			if (cmp->rows[r].run_ids[i] == id)
				return 1;
	return 0;
}

static int sheet_runs(struct sheet *sh, const struct pl_comparison *cmp,
                      const struct pl_run_list *runs, const struct formats *f)
{
	unsigned char has[PL_METRIC_COUNT] = {0}, has_cond[PL_COND_COUNT] = {0};
	lxw_col_t col = 0;
	lxw_row_t xr = 0;
	char buf[128];
	int rc = 0;

	for (size_t i = 0; runs && i < runs->n; i++)
		if (run_in_comparison(cmp, runs->v[i].id)) {
			for (int m = 0; m < PL_METRIC_COUNT; m++)
				has[m] |= runs->v[i].has_metric[m];
			for (int id = 0; id < PL_COND_COUNT; id++)
				has_cond[id] |= runs->v[i].cond[id].set;
		}
	{
		static const enum pl_msg_code fixed[] = {
			PL_MSG_W_XLSX_RUNS_ID,     PL_MSG_W_XLSX_RUNS_SOURCE_FILE,        PL_MSG_W_XLSX_RUNS_SHA256,
			PL_MSG_W_XLSX_RUNS_RECORD, PL_MSG_W_XLSX_RUNS_ADAPTER,            PL_MSG_W_XLSX_RUNS_REFERENCE_ONLY_COL,
			PL_MSG_W_XLSX_RUNS_CHECKLIST_MISSING};
		for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
			rc |= put_head(sh, 0, col++, pl_word(fixed[i], f->zh ? PL_LANG_ZH : PL_LANG_EN), f->header);
	}
	for (int id = 0; id < PL_COND_COUNT; id++)
		if ((pl_cond_info[id].flags & PL_CF_KEY) && has_cond[id])
			rc |= put_head(sh, 0, col++, pl_cond_info[id].name, f->header);
	for (int m = 0; m < PL_METRIC_COUNT; m++) {
		if (!has[m])
			continue;
		metric_header(buf, sizeof(buf), m);
		rc |= put_head(sh, 0, col++, buf, f->header);
	}
	for (size_t i = 0; runs && i < runs->n; i++) {
		const struct pl_run *run = &runs->v[i];
		char missing[512] = "";
		size_t len = 0;

		if (!run_in_comparison(cmp, run->id))
			continue;
		xr++;
		col = 0;
		put_num(sh, xr, col++, (double)run->id, NULL);
		if (run->source)
			rc |= put_source(sh, xr, col, run->source, f);
		col++;
		if (run->sha256[0])
			rc |= put_str(sh, xr, col, run->sha256, NULL);
		col++;
		put_num(sh, xr, col++, (double)run->record, NULL);
		if (run->adapter)
			rc |= put_str(sh, xr, col, run->adapter, NULL);
		col++;
		worksheet_write_boolean(sh->ws, xr, col++, run->checklist_missing != 0, NULL);
		for (int k = 0; k < PL_CHK_COUNT; k++) {
			if (!(run->checklist_missing & (1u << k)) || len >= sizeof(missing))
				continue;
			len += (size_t)snprintf(missing + len, sizeof(missing) - len, "%s%s",
			                        len ? TR(f, W_XLSX_LIST_SEP) : "",
			                        pl_i18n_checklist_item(k, f->zh ? "zh-CN" : "en"));
		}
		if (missing[0])
			rc |= put_str(sh, xr, col, missing, NULL);
		col++;
		for (int id = 0; id < PL_COND_COUNT; id++)
			if ((pl_cond_info[id].flags & PL_CF_KEY) && has_cond[id])
				rc |= put_cond(sh, xr, col++, id, &run->cond[id]);
		for (int m = 0; m < PL_METRIC_COUNT; m++) {
			if (!has[m])
				continue;
			if (run->has_metric[m])
				put_num(sh, xr, col, run->metric[m], unit_format(f, pl_metric_info[m].unit));
			col++;
		}
	}
	finish_sheet(sh, xr);
	return rc ? PL_ENOMEM : 0;
}

static int sheet_conditions(struct sheet *sh, const struct pl_comparison *cmp,
                            const struct formats *f)
{
	lxw_row_t xr = 0;
	int rc = 0;

	rc |= put_head(sh, 0, 0, TR(f, W_XLSX_FIELD), f->header);
	rc |= put_head(sh, 0, 1, TR(f, W_XLSX_VALUE), f->header);
	rc |= put_head(sh, 0, 2, TR(f, W_XLSX_STATUS), f->header);
	for (int id = 0; id < PL_COND_COUNT; id++) {
		int in_rows = 0;
		for (size_t r = 0; r < cmp->nrows; r++)
			in_rows |= cmp->rows[r].axis[id].set;
		if (pl_render_is_axis(cmp, id) ||
		    (cmp->varies[id] && !cmp->shared[id].set && in_rows)) {
			/* The values of the rows, joined, as one text cell. */
			struct pl_buf joined = PL_BUF_INIT;
			for (size_t r = 0; r < cmp->nrows; r++) {
				const struct pl_value *v = &cmp->rows[r].axis[id];
				if (r)
					pl_buf_adds(&joined, "; ");
				pl_buf_adds(&joined, v->set && v->text ? v->text : "(missing)");
			}
			if (joined.oom) {
				pl_buf_release(&joined);
				return PL_ENOMEM;
			}
			xr++;
			rc |= put_str(sh, xr, 0, pl_cond_info[id].name, NULL);
			if (cmp->nrows)
				rc |= put_str(sh, xr, 1, joined.data, NULL);
			rc |= put_str(sh, xr, 2, TR(f, W_XLSX_VARIES_WITH_AXIS), NULL);
			pl_buf_release(&joined);
		} else if (cmp->shared[id].set) {
			xr++;
			rc |= put_str(sh, xr, 0, pl_cond_info[id].name, NULL);
			rc |= put_cond(sh, xr, 1, id, &cmp->shared[id]);
			rc |= put_str(sh, xr, 2, TR(f, W_XLSX_SHARED), NULL);
		}
	}
	for (size_t i = 0; i < cmp->nshared_extra; i++) { /* "vllm-serving.label": input text */
		xr++;
		rc |= put_str(sh, xr, 0, cmp->shared_extra[i].name, NULL);
		rc |= put_str(sh, xr, 1, cmp->shared_extra[i].value, NULL);
		rc |= put_str(sh, xr, 2, TR(f, W_XLSX_SHARED_EXTRA), NULL);
	}
	finish_sheet(sh, xr);
	return rc ? PL_ENOMEM : 0;
}

static int sheet_caveats(struct sheet *sh, const struct pl_comparison *cmp, const struct formats *f)
{
	int rc = put_head(sh, 0, 0, TR(f, W_XLSX_CAVEAT), f->header);

	for (size_t i = 0; i < cmp->caveats.n; i++) {
		char *t = pl_i18n_msg(&cmp->caveats.v[i], f->zh ? "zh-CN" : "en");
		rc |= t ? put_str(sh, (lxw_row_t)(i + 1), 0, t, NULL) : PL_ENOMEM;
		free(t);
	}
	finish_sheet(sh, (lxw_row_t)cmp->caveats.n);
	return rc ? PL_ENOMEM : 0;
}

static lxw_format *add_format(lxw_workbook *wb, const char *num, int bold)
{
	lxw_format *f = workbook_add_format(wb);

	if (f && num)
		format_set_num_format(f, num);
	if (f && bold) { /* the header: wrapped, so a long header does not widen its column */
		format_set_bold(f);
		format_set_text_wrap(f);
		format_set_align(f, LXW_ALIGN_VERTICAL_TOP);
	}
	return f;
}

/* Bundle extras (charts, Procurement, Checklist); NULL for the plain workbook. */
struct extras {
	const struct pl_procurement *proc; /* may be NULL */
	unsigned sheets;                   /* PL_SHEET_* */
	int zh;                            /* Chinese chart titles */
	lxw_worksheet *proc_ws;            /* the Procurement sheet, added first; or NULL */
	const struct pl_xlsx_verdict *verdict; /* may be NULL */
};

/* 1 if the workbook has a Procurement sheet. */
static int wants_procurement(const struct extras *x)
{
	return x && x->proc && x->proc->ngroups > 0 && (x->sheets & PL_SHEET_PROCUREMENT);
}

static int add_extras(lxw_workbook *wb, struct sheet *cmp_sheet, const struct pl_comparison *cmp,
                      const struct pl_run_list *runs, const struct formats *f,
                      const struct extras *x);

static int write_workbook(const char *path, const struct pl_comparison *cmp,
                          const struct pl_run_list *runs, struct extras *x,
                          long long epoch, struct pl_error *err)
{
	lxw_doc_properties props;
	struct formats f;
	struct sheet *sheets = NULL;
	lxw_workbook *wb = NULL;
	lxw_error lerr;
	size_t nsheets = cmp->caveats.n ? 4 : 3;
	char *tmp = pl_fs_tmp_name(path);
	FILE *probe;
	int rc = 0;

	if (!tmp)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	/* Check the place first: libxlsxwriter would print its own error.
	 * A symlink planted at the temporary name is removed, not followed
	 * (libxlsxwriter then opens the regular file created here). */
	if (!(probe = pl_fs_create_fresh(tmp, err))) {
		free(tmp);
		return PL_EIO;
	}
	fclose(probe);
	sheets = calloc(nsheets, sizeof(*sheets));
	wb = sheets ? workbook_new(tmp) : NULL;
	if (!wb) {
		remove(tmp);
		free(sheets);
		free(tmp);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	memset(&props, 0, sizeof(props));
	props.title = (char *)"perfledger comparison";
	props.created = (time_t)epoch; /* 0: libxlsxwriter says now; pinned below */
	workbook_set_properties(wb, &props);

	f.header = add_format(wb, NULL, 1);
	f.seconds = add_format(wb, "0.0000", 0);
	f.rate = add_format(wb, "0.00", 0);
	f.whole = add_format(wb, "0", 0);
	f.watts = add_format(wb, "0.0", 0);
	f.delta = add_format(wb, "+0.0;-0.0;0.0", 0);
	f.text = workbook_add_format(wb);
	if (f.text)
		format_set_indent(f.text, 1);
	f.link = workbook_add_format(wb); /* a hyperlink as libxlsxwriter's (blue, underlined), indented */
	if (f.link) {
		format_set_font_color(f.link, LXW_COLOR_BLUE);
		format_set_underline(f.link, LXW_UNDERLINE_SINGLE);
		format_set_indent(f.link, 1);
	}
	f.zh = x && x->zh;
	/* the decision first: the Procurement sheet opens the workbook */
	if (wants_procurement(x) && !(x->proc_ws = workbook_add_worksheet(wb, pl_xlsx_sheet_name(PL_XLSX_SHEET_PROCUREMENT, f.zh))))
		rc = PL_ENOMEM;
	for (size_t i = 0; i < nsheets; i++) {
		sheets[i].ws = workbook_add_worksheet(wb, pl_xlsx_sheet_name(PL_XLSX_SHEET_COMPARISON + (int)i, f.zh));
		sheets[i].text = f.text;
		if (!sheets[i].ws)
			rc = PL_ENOMEM;
	}
	if (!f.header || !f.seconds || !f.rate || !f.whole || !f.watts || !f.delta || !f.text ||
	    !f.link)
		rc = PL_ENOMEM;
	if (rc == 0)
		rc = sheet_comparison(&sheets[0], cmp, &f);
	if (rc == 0)
		rc = sheet_runs(&sheets[1], cmp, runs, &f);
	if (rc == 0)
		rc = sheet_conditions(&sheets[2], cmp, &f);
	if (rc == 0 && nsheets == 4)
		rc = sheet_caveats(&sheets[3], cmp, &f);
	if (rc == 0 && x)
		rc = add_extras(wb, &sheets[0], cmp, runs, &f, x);

	lerr = workbook_close(wb); /* frees wb, writes the file */
	if (rc != 0)
		pl_error_set(err, rc, "out of memory");
	else if (lerr != LXW_NO_ERROR)
		rc = pl_error_set(err, PL_EIO, "cannot write '%s': %s", tmp, lxw_strerror(lerr));
	else if (epoch == 0 && (rc = pl_xlsx_pin_epoch_zero(tmp, err)) != 0)
		; /* err is set */
	else if (rename(tmp, path) != 0)
		rc = pl_error_set(err, PL_EIO, "cannot rename '%s' to '%s': %s", tmp, path,
		                  strerror(errno));
	if (rc != 0)
		remove(tmp);
	free(sheets);
	free(tmp);
	return rc;
}

int pl_xlsx_write(const char *path, const struct pl_comparison *cmp, const struct pl_run_list *runs,
                  long long epoch, struct pl_error *err)
{
	return write_workbook(path, cmp, runs, NULL, epoch, err);
}

int pl_xlsx_write_bundle(const char *path, const struct pl_comparison *cmp,
                         const struct pl_run_list *runs, const struct pl_procurement *proc,
                         const struct pl_xlsx_verdict *verdict, unsigned sheets,
                         const char *lang, long long epoch, struct pl_error *err)
{
	struct extras x = {proc, sheets, lang && strcmp(lang, "zh-CN") == 0, NULL, verdict};

	return write_workbook(path, cmp, runs, &x, epoch, err);
}

/* ---------------------------------------------------------- bundle extras */

/* Column of metric m on the Comparison sheet, or -1 (mirrors sheet_comparison). */
static int comparison_col(const struct pl_comparison *cmp, int m)
{
	int ids[PL_COND_COUNT];
	int col = (int)row_fields(cmp, ids) + 2 + has_label_col(cmp);

	for (size_t i = 0; i < cmp->nmetrics; i++) {
		int mi = cmp->metrics[i];
		if (mi < 0 || mi >= PL_METRIC_COUNT || !metric_in_rows(cmp, mi))
			continue;
		if (mi == m)
			return col;
		col++;
	}
	return -1;
}

static void put_nan_dash(struct sheet *sh, lxw_row_t r, lxw_col_t c, double v, lxw_format *fmt)
{
	if (isnan(v)) /* fmt's alignment also holds for the text "-" */
		worksheet_write_string(sh->ws, r, c, "-", fmt);
	else
		put_num(sh, r, c, v, fmt);
}

/* A format aligned to the top of its cell: num (or NULL) its number
 * format, wrap 1 to wrap text. NULL on out of memory. */
static lxw_format *top_format(lxw_workbook *wb, const char *num, int wrap)
{
	lxw_format *f = workbook_add_format(wb);

	if (f && num) { /* right, as a number is: the dash "-" of a missing figure too */
		format_set_num_format(f, num);
		format_set_align(f, LXW_ALIGN_RIGHT);
	}
	if (f && wrap)
		format_set_text_wrap(f);
	if (f)
		format_set_align(f, LXW_ALIGN_VERTICAL_TOP);
	if (f && !num) /* padding: a text never touches the number printed left of it */
		format_set_indent(f, 1);
	return f;
}

/* "words (CUR)" or "words (currency not named)", with ", derived" before
 * the closing parenthesis when derived. */
static void with_currency(char *buf, size_t n, const struct formats *f, const char *words,
                          const char *cur, int derived)
{
	const char *c = cur && *cur ? cur : TR(f, W_XLSX_CURRENCY_NOT_NAMED);

	if (f->zh)
		snprintf(buf, n, "%s（%s%s）", words, c, derived ? "，推导值" : "");
	else
		snprintf(buf, n, "%s (%s%s)", words, c, derived ? ", derived" : "");
}

/* The verdict's columns (before the extra ones): rank, offer, cost, SLO
 * tok/s per accelerator, SLO tok/s, peak, n, flags, notes. */
enum { V_RANK, V_OFFER, V_COST, V_SLO_ACC, V_SLO, V_PEAK, V_N, V_FLAGS, V_NOTES, V_ACC,
       V_PRICE, V_PRICE_ACC, V_GOODPUT, V_API_IN, V_API_OUT, V_COLS };

/* The Procurement sheet's formats, each cell aligned to the top of it
 * (the verdict's rows are as tall as their wrapped notes). */
struct proc_formats {
	lxw_format *text, *whole;       /* wrapped text; a whole number */
	lxw_format *sec, *rate;         /* 4 decimals (costs); 2 decimals (rates) */
	lxw_format *at_most, *at_least; /* a bound: "≤ 0.4167", "≥ 2000"; NULL if none */
};

/* Adds the formats of p's sheet to wb; 1, or 0 on out of memory. */
static int proc_formats_add(lxw_workbook *wb, const struct pl_procurement *p,
                            struct proc_formats *t)
{
	int any_bound = 0;

	t->text = top_format(wb, NULL, 1);
	t->whole = top_format(wb, "0", 0);
	t->sec = top_format(wb, "0.0000", 0);
	t->rate = top_format(wb, "0.00", 0);
	/* bounds said as bounds, in the number itself: "≤ 0.4167" (a cost
	 * from a lower-bound throughput), "≥ 2000" (that throughput); made
	 * only when some offer is bounded, so other workbooks keep their styles */
	t->at_most = t->at_least = NULL;
	for (size_t g = 0; g < p->ngroups; g++)
		any_bound |= p->groups[g].lower_bound;
	if (any_bound) {
		t->at_most = top_format(wb, "\"≤ \"0.0000", 0);
		t->at_least = top_format(wb, "\"≥ \"0.00", 0);
	}
	return t->text && t->whole && t->sec && t->rate && (!any_bound || (t->at_most && t->at_least));
}

/* The verdict's rows, one per offer in v's order: rank[g] gets group g's
 * rank and *ncost how many offers with a cost come first. Nonzero if a
 * string could not be written. */
static int verdict_rows(struct sheet *sh, const struct pl_procurement *p,
                        const struct pl_xlsx_verdict *v, const struct proc_formats *t,
                        size_t *rank, size_t *ncost)
{
	lxw_row_t r;
	int rc = 0;

	for (size_t k = 0; k < p->ngroups; k++) {
		size_t g = v && v->order ? v->order[k] : k;
		const struct pl_procure_group *gr = &p->groups[g];
		const char *fl = v && v->flags && v->flags[k] ? v->flags[k] : "";
		const char *nt = v && v->notes && v->notes[k] ? v->notes[k] : "";
		size_t lines, ol;
		r = (lxw_row_t)(k + 1);
		rank[g] = v && v->ranks ? v->ranks[k] : k + 1; /* within its kind of sweep */
		put_num(sh, r, V_RANK, (double)rank[g], t->whole);
		rc |= put_str(sh, r, V_OFFER, gr->label, t->text);
		put_nan_dash(sh, r, V_COST, gr->slo_cost_per_mtok, gr->cost_upper_bound ? t->at_most : t->sec);
		put_nan_dash(sh, r, V_SLO_ACC, gr->slo_throughput_per_acc, gr->lower_bound ? t->at_least : t->rate);
		put_nan_dash(sh, r, V_SLO, gr->slo.throughput, gr->lower_bound ? t->at_least : t->rate);
		put_nan_dash(sh, r, V_PEAK, gr->peak_throughput, t->rate);
		put_num(sh, r, V_N, (double)gr->nruns, t->whole);
		rc |= put_str(sh, r, V_FLAGS, fl, t->text);
		rc |= put_str(sh, r, V_NOTES, nt, t->text);
		/* the notes and the offer wrap in their columns (at most 36
		 * wide): a row tall enough for them */
		lines = (pl_text_width(nt) + 33) / 34;
		ol = (pl_text_width(gr->label) + 33) / 34;
		lines = ol > lines ? ol : lines;
		if (lines > 1)
			worksheet_set_row(sh->ws, r, 15.0 * (double)(lines > 8 ? 8 : lines), NULL);
		put_nan_dash(sh, r, V_ACC, gr->accelerators, t->whole);
		put_nan_dash(sh, r, V_PRICE, gr->price_per_hour, t->rate);
		put_nan_dash(sh, r, V_PRICE_ACC, gr->price_per_acc_hour, t->rate);
		put_nan_dash(sh, r, V_GOODPUT, gr->goodput, t->rate);
		if (gr->token_priced) {
			put_nan_dash(sh, r, V_API_IN, gr->price_in_per_mtok, t->rate);
			put_nan_dash(sh, r, V_API_OUT, gr->price_out_per_mtok, t->rate);
		}
		if (*ncost == k && !isnan(gr->slo_cost_per_mtok))
			(*ncost)++; /* the offers with a cost come first in the verdict */
	}
	return rc;
}

/* Group gr's points, one row each after row *pr (left on the last),
 * the offer's rank first. Nonzero if a string could not be written. */
static int group_points(struct sheet *sh, const struct pl_procure_group *gr, size_t rank,
                        const struct formats *f, const struct proc_formats *t, lxw_row_t *pr)
{
	lxw_row_t r = *pr;
	int rc = 0;

	for (size_t i = 0; i < gr->npoints; i++) {
		const struct pl_procure_point *pt = &gr->points[i];
		r++;
		/* the offer's rank in the verdict, then its label, as above */
		put_num(sh, r, 0, (double)rank, t->whole);
		rc |= put_str(sh, r, 1, gr->label, t->text);
		if (pl_text_width(gr->label) > 34)
			worksheet_set_row(sh->ws, r, 15.0 * (double)((pl_text_width(gr->label) + 33) / 34), NULL);
		put_nan_dash(sh, r, 2, pt->concurrency, t->whole);
		put_nan_dash(sh, r, 3, pt->throughput, t->rate);
		put_nan_dash(sh, r, 4, pt->throughput_per_acc, t->rate);
		put_nan_dash(sh, r, 5, pt->interactivity, t->rate);
		put_nan_dash(sh, r, 6, pt->cost_per_mtok, t->sec);
		rc |= put_str(sh, r, 7,
		              pt->meets_slo == 1   ? TR(f, W_XLSX_YES)
		              : pt->meets_slo == 0 ? TR(f, W_XLSX_NO)
		                                   : "-",
		              t->text);
		rc |= put_str(sh, r, 8, pt->pareto ? TR(f, W_XLSX_YES) : "", t->text);
	}
	*pr = r;
	return rc;
}

/* The Procurement sheet's answer as horizontal bars into bar, at row at:
 * the cost at the SLO of the first n offers (with cost 1: those that have
 * one, lowest first; title cost_title), else the SLO throughput per
 * accelerator of every offer. Returns the rows it takes, and a gap. */
static lxw_row_t cost_chart(struct sheet *sh, lxw_chart *bar, lxw_row_t n, int cost,
                            const char *cost_title, lxw_row_t at, int zh)
{
	const char *name = pl_xlsx_sheet_name(PL_XLSX_SHEET_PROCUREMENT, zh);
	lxw_chart_series *se = chart_add_series(bar, NULL, NULL);
	lxw_col_t col = cost ? V_COST : V_SLO_ACC;
	lxw_chart_options o = {.y_offset = 8};
	double bh = 100.0 + 56.0 * (double)n;

	if (se) {
		chart_series_set_categories(se, name, 1, V_OFFER, n, V_OFFER);
		chart_series_set_values(se, name, 1, col, n, col);
		chart_series_set_name_range(se, name, 0, col);
	}
	chart_title_set_name(bar, cost ? cost_title : zh ? "满足 SLO 的单卡吞吐量（tok/s，推导值）"
	                                                 : "SLO throughput per accelerator (tok/s, derived)");
	chart_legend_set_position(bar, LXW_CHART_LEGEND_NONE);
	/* the first offer at the top, as in the table, every name shown */
	chart_axis_set_reverse(bar->y_axis);
	chart_axis_set_crossing_max(bar->y_axis);
	chart_axis_set_interval_unit(bar->y_axis, 1);
	/* 100 + 56 px an offer high (an offer's name may wrap to three lines
	 * at the left), at least 288 px, and 1.6 times as wide (at most 720
	 * px), as the Comparison sheet's chart (libxlsxwriter's: 480 x 288);
	 * 8 px down: its frame's top edge off the page break's line */
	bh = bh < 288.0 ? 288.0 : bh;
	o.y_scale = bh / 288.0;
	o.x_scale = (1.6 * bh <= 720.0 ? 1.6 * bh : 720.0) / 480.0;
	worksheet_insert_chart_opt(sh->ws, at, 0, bar, &o);
	return (lxw_row_t)ceil((8.0 + bh) / 20.0) + 1; /* rows of 20 px, and a gap */
}

static int sheet_procurement(lxw_workbook *wb, struct sheet *sh, const struct pl_procurement *p,
                             const struct pl_xlsx_verdict *v, const struct formats *f, int zh)
{
	static const char *const head[V_COLS] = {
		"rank", "offer", NULL, "SLO tok/s per accelerator (derived)", "SLO tok/s (derived)",
		"peak tok/s", "n", "flags", "notes", "accelerators", NULL, NULL, "goodput (req/s)",
		NULL, NULL};
	static const char *const head_zh[V_COLS] = {
		"排名", "方案", NULL, "SLO 单卡 tok/s（推导值）", "SLO tok/s（推导值）", "峰值 tok/s", "n",
		"标记", "说明", "加速器数量", NULL, NULL, "goodput（req/s）", NULL, NULL};
	static const char *const phead[] = {"rank", "offer", NULL, "output throughput (tok/s)",
	                                    "per accelerator (tok/s)", "interactivity (tok/s per request)",
	                                    NULL, "meets SLO", "Pareto front"};
	static const char *const phead_zh[] = {"排名", "方案", NULL, "输出吞吐量（tok/s）",
	                                       "单卡（tok/s）", "交互性（每请求 tok/s）",
	                                       NULL, "满足 SLO", "帕累托前沿"};
	struct proc_formats t;
	size_t *rank = NULL;
	const char *cur = v ? v->currency : NULL;
	int rate = p->load == PL_C_REQUEST_RATE;
	char h[V_COLS][160], ph_load[64], ph_cost[160];
	lxw_row_t pr;
	lxw_chart *sc, *bar;
	lxw_chart_options sc_size = {.x_scale = 1.5, .y_scale = 1.4};
	lxw_row_t below = 0; /* rows the bar chart takes */
	size_t ncost = 0;
	int rc = 0;

	sh->several_tables = 1; /* the verdict, then the points */

	if (!proc_formats_add(wb, p, &t) ||
	    !(rank = calloc(p->ngroups ? p->ngroups : 1, sizeof(size_t)))) {
		free(rank);
		return PL_ENOMEM;
	}

	with_currency(h[V_COST], sizeof(h[V_COST]), f,
	              TR(f, W_XLSX_COST_PER_1M_OUTPUT_TOKENS_AT_SLO), cur, 1);
	with_currency(h[V_PRICE], sizeof(h[V_PRICE]), f, TR(f, W_XLSX_PRICE_PER_HOUR), cur, 0);
	with_currency(h[V_PRICE_ACC], sizeof(h[V_PRICE_ACC]), f,
	              TR(f, W_XLSX_PRICE_PER_ACCELERATOR_HOUR), cur, 0);
	with_currency(h[V_API_IN], sizeof(h[V_API_IN]), f,
	              TR(f, W_XLSX_API_PRICE_PER_1M_INPUT_TOKENS), cur, 0);
	with_currency(h[V_API_OUT], sizeof(h[V_API_OUT]), f,
	              TR(f, W_XLSX_API_PRICE_PER_1M_OUTPUT_TOKENS), cur, 0);
	with_currency(ph_cost, sizeof(ph_cost), f,
	              TR(f, W_XLSX_COST_PER_1M_OUTPUT_TOKENS), cur, 1);
	snprintf(ph_load, sizeof(ph_load), "%s%s%s", rate ? TR(f, W_XLSX_REQUEST_RATE_REQ_S) : TR(f, W_XLSX_CONCURRENCY),
	         p->mixed ? " / " : "", p->mixed ? TR(f, W_XLSX_REQUEST_RATE_REQ_S) : "");
	for (size_t i = 0; i < V_COLS; i++)
		rc |= put_head(sh, 0, (lxw_col_t)i, (zh ? head_zh : head)[i] ? (zh ? head_zh : head)[i] : h[i],
		               f->header);
	rc |= verdict_rows(sh, p, v, &t, rank, &ncost);
	pr = (lxw_row_t)(p->ngroups + 3);
	/* the formulas run on over the empty cells to their right; they do
	 * not widen column A (which would push the table off the page) */
	worksheet_write_string(sh->ws, pr - 1, 0, TR(f, W_XLSX_COST_FORMULA), NULL);
	for (size_t i = 0; i < sizeof(phead) / sizeof(phead[0]); i++)
		rc |= put_head(sh, pr, (lxw_col_t)i,
		               i == 2 ? ph_load : i == 6 ? ph_cost : zh ? phead_zh[i] : phead[i], f->header);
	/* horizontal bars: the offers' long names read across at the left
	 * (as columns, LibreOffice turned them and left the bars a strip) */
	bar = workbook_add_chart(wb, LXW_CHART_BAR);
	sc = p->sweep ? workbook_add_chart(wb, LXW_CHART_SCATTER_STRAIGHT_WITH_MARKERS) : NULL;
	for (size_t g = 0; g < p->ngroups; g++) {
		const struct pl_procure_group *gr = &p->groups[g];
		lxw_row_t first = pr + 1;
		rc |= group_points(sh, gr, rank[g], f, &t, &pr);
		if (sc && gr->npoints > 0) {
			lxw_chart_series *se = chart_add_series(sc, NULL, NULL);
			if (se) {
				chart_series_set_categories(se, pl_xlsx_sheet_name(PL_XLSX_SHEET_PROCUREMENT, zh), first, 2, pr, 2);
				chart_series_set_values(se, pl_xlsx_sheet_name(PL_XLSX_SHEET_PROCUREMENT, zh), first, 3, pr, 3);
				chart_series_set_name_range(se, pl_xlsx_sheet_name(PL_XLSX_SHEET_PROCUREMENT, zh), first, 1);
			}
		}
	}
	if ((bar && p->ngroups > 0) || sc) {
		/* the charts start a page (a page's foot cut the scatter
		 * chart's legend off onto the next) */
		lxw_row_t brk[2] = {pr + 2, 0};
		worksheet_set_h_pagebreaks(sh->ws, brk);
	}
	if (bar && p->ngroups > 0)
		below = cost_chart(sh, bar, (lxw_row_t)(ncost ? ncost : p->ngroups), ncost > 0,
		                   h[V_COST], pr + 2, zh);
	if (sc) {
		chart_title_set_name(sc, rate ? TR(f, W_XLSX_OUTPUT_THROUGHPUT_VS_REQUEST_RATE)
		                              : TR(f, W_XLSX_OUTPUT_THROUGHPUT_VS_CONCURRENCY));
		chart_axis_set_name(sc->x_axis, ph_load);
		chart_axis_set_name(sc->y_axis, zh ? "输出吞吐量（tok/s）" : "output throughput (tok/s)");
		chart_axis_set_log_base(sc->x_axis, 2);
		chart_legend_set_position(sc, LXW_CHART_LEGEND_BOTTOM);
		/* below the bar chart, not beside it (where it ran over the
		 * page's right edge), and 720 x 403 px: at the default 480 x 288
		 * the legend's long offer names left the plot a strip */
		worksheet_insert_chart_opt(sh->ws, pr + 2 + below, 0, sc, &sc_size);
	}
	finish_sheet(sh, (lxw_row_t)p->ngroups);
	free(rank);
	return rc ? PL_ENOMEM : 0;
}

static int sheet_checklist(struct sheet *sh, const struct pl_comparison *cmp,
                           const struct pl_run_list *runs, const struct formats *f)
{
	lxw_row_t r = 0;
	int rc = 0;

	rc |= put_head(sh, 0, 0, TR(f, W_XLSX_RUN_ID), f->header);
	rc |= put_head(sh, 0, 1, TR(f, W_XLSX_SOURCE), f->header);
	rc |= put_head(sh, 0, 2, TR(f, W_XLSX_REFERENCE_ONLY), f->header);
	for (int k = 0; k < PL_CHK_COUNT; k++)
		rc |= put_head(sh, 0, (lxw_col_t)(3 + k), pl_i18n_checklist_item(k, f->zh ? "zh-CN" : "en"),
		               f->header);
	for (size_t i = 0; runs && i < runs->n; i++) {
		const struct pl_run *run = &runs->v[i];
		if (!run_in_comparison(cmp, run->id))
			continue;
		r++;
		put_num(sh, r, 0, (double)run->id, NULL);
		rc |= put_str(sh, r, 1, run->source ? run->source : "-", NULL);
		worksheet_write_boolean(sh->ws, r, 2, run->checklist_missing != 0, NULL);
		for (int k = 0; k < PL_CHK_COUNT; k++)
			rc |= put_str(sh, r, (lxw_col_t)(3 + k),
			              run->checklist_missing & (1u << k) ? TR(f, W_XLSX_MISSING)
			                                                 : TR(f, W_XLSX_PRESENT),
			              NULL);
	}
	finish_sheet(sh, r);
	return rc ? PL_ENOMEM : 0;
}

/* The Comparison sheet's chart of column col (the output throughput),
 * below the table on a page of its own: horizontal bars, one per row in
 * the table's order top down, each labelled with the row's label,
 * wrapped to two lines where long. As columns, 16 row labels turned 45
 * degrees took the chart's height and left the plot a strip. Here each
 * row takes 36 px of height (two lines of 10 pt printed at 73%: with
 * less, LibreOffice left out every other label), 100 px for the title
 * and the axis, 288 px at least; the width is 1.6 times the height up to
 * 720 px (16 rows: 720 x 676), and 720 px past that: a chart read down
 * its rows may be taller than wide, and wider it would run past the
 * page's columns. 0 or PL_ENOMEM. */
static int comparison_chart(lxw_workbook *wb, struct sheet *sh, const struct pl_comparison *cmp,
                            lxw_col_t col, int zh)
{
	const char *name = pl_xlsx_sheet_name(PL_XLSX_SHEET_COMPARISON, zh);
	lxw_chart *ch = workbook_add_chart(wb, LXW_CHART_BAR);
	lxw_chart_series *se = ch ? chart_add_series(ch, NULL, NULL) : NULL;
	lxw_chart_options o = {.y_offset = 8};
	double h = 100.0 + 36.0 * (double)cmp->nrows, w;
	lxw_row_t brk[2] = {(lxw_row_t)cmp->nrows + 2, 0};

	if (!ch || !se)
		return PL_ENOMEM;
	h = h < 288.0 ? 288.0 : h;
	w = 1.6 * h <= 720.0 ? 1.6 * h : 720.0;
	o.x_scale = w / 480.0; /* libxlsxwriter's chart: 480 x 288 px */
	o.y_scale = h / 288.0;
	chart_series_set_categories(se, name, 1, 0, (lxw_row_t)cmp->nrows, 0);
	chart_series_set_values(se, name, 1, col, (lxw_row_t)cmp->nrows, col);
	chart_series_set_name_range(se, name, 0, col);
	chart_title_set_name(ch, zh ? "输出吞吐量（tok/s）" : "Output throughput (tok/s)");
	chart_legend_set_position(ch, LXW_CHART_LEGEND_NONE);
	/* the first row at the top, as in the table; the value axis below */
	chart_axis_set_reverse(ch->y_axis);
	chart_axis_set_crossing_max(ch->y_axis);
	chart_axis_set_interval_unit(ch->y_axis, 1); /* every label */
	worksheet_set_h_pagebreaks(sh->ws, brk);
	worksheet_insert_chart_opt(sh->ws, (lxw_row_t)cmp->nrows + 2, 0, ch, &o);
	return 0;
}

static int add_extras(lxw_workbook *wb, struct sheet *cmp_sheet, const struct pl_comparison *cmp,
                      const struct pl_run_list *runs, const struct formats *f,
                      const struct extras *x)
{
	int col = comparison_col(cmp, PL_M_OUTPUT_THROUGHPUT);
	int rc = 0;

	if (col >= 0 && cmp->nrows > 0 && comparison_chart(wb, cmp_sheet, cmp, (lxw_col_t)col, x->zh) != 0)
		return PL_ENOMEM;
	if (wants_procurement(x)) {
		struct sheet *sh = calloc(1, sizeof(*sh));
		if (!sh)
			return PL_ENOMEM;
		sh->ws = x->proc_ws;
		sh->text = f->text;
		rc = sh->ws ? sheet_procurement(wb, sh, x->proc, x->verdict, f, x->zh) : PL_ENOMEM;
		free(sh);
	}
	if (rc == 0 && (x->sheets & PL_SHEET_CHECKLIST)) {
		struct sheet *sh = calloc(1, sizeof(*sh));
		if (!sh)
			return PL_ENOMEM;
		sh->ws = workbook_add_worksheet(wb, pl_xlsx_sheet_name(PL_XLSX_SHEET_CHECKLIST, f->zh));
		sh->text = f->text;
		rc = sh->ws ? sheet_checklist(sh, cmp, runs, f) : PL_ENOMEM;
		free(sh);
	}
	if (rc == 0 && x->verdict && x->verdict->bundle_id) {
		/* the bundle id and how a reader checks the report: the last sheet */
		struct sheet *sh = calloc(1, sizeof(*sh));
		if (!sh)
			return PL_ENOMEM;
		sh->ws = workbook_add_worksheet(wb, pl_xlsx_sheet_name(PL_XLSX_SHEET_CHECK, f->zh));
		sh->text = f->text;
		if (!sh->ws) {
			rc = PL_ENOMEM;
		} else {
			rc |= put_head(sh, 0, 0, TR(f, W_XLSX_BUNDLE_ID), f->header);
			rc |= put_str(sh, 0, 1, x->verdict->bundle_id, NULL);
			rc |= put_head(sh, 1, 0, TR(f, W_XLSX_HOW_TO_CHECK), f->header);
			if (x->verdict->how_to_check)
				worksheet_write_string(sh->ws, 1, 1, x->verdict->how_to_check, NULL);
			finish_sheet(sh, 1);
		}
		free(sh);
	}
	return rc;
}
