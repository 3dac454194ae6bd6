/*
 * grid.c — the cell grid behind every table perfledger prints: cells are
 * added row by row, then written as aligned text, a Markdown pipe table or
 * RFC 4180 CSV. A cell knows whether its text came from an input file; only
 * those are escaped (Markdown), quoted against formulas (CSV) or cleaned of
 * control characters and cut to PL_TEXT_CELL_MAX columns (text): our own names, units and numbers are written
 * as they are. Used by table.c (compare, list) and regress.c (check,
 * history).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/render_impl.h"
#include "util/alloc.h"

void pl_grid_put(struct pl_grid *g, const char *s, int input, int right)
{
	char *copy;

	if (g->oom)
		return;
	if (PL_ALLOC_GROW(g->c, g->n + 1, g->cap)) {
		g->oom = 1;
		return;
	}
	copy = strdup(s ? s : "");
	if (!copy) {
		g->oom = 1;
		return;
	}
	g->c[g->n].s = copy;
	g->c[g->n].input = (unsigned char)(input != 0);
	g->c[g->n].right = (unsigned char)(right != 0);
	g->n++;
}

void pl_grid_release(struct pl_grid *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->c[i].s);
	free(g->c);
	memset(g, 0, sizeof(*g));
}

static void put_spaces(FILE *out, size_t n)
{
	while (n-- > 0)
		fputc(' ', out);
}

/* Aligned columns, two spaces apart, a dashed line under the header; a
 * row's trailing empty cells are left out. */
static int grid_write_text(FILE *out, const struct pl_grid *g)
{
	size_t nrows = g->ncols ? g->n / g->ncols : 0;
	size_t *width = calloc(g->ncols ? g->ncols : 1, sizeof(*width));
	char **disp = calloc(g->n ? g->n : 1, sizeof(*disp));
	int rc = 0;

	if (!width || !disp) {
		rc = PL_ENOMEM;
		goto done;
	}
	for (size_t i = 0; i < g->n; i++) {
		size_t w;
		disp[i] = g->c[i].input ? pl_text_sanitize_cut(g->c[i].s, PL_TEXT_CELL_MAX)
		                         : strdup(g->c[i].s);
		if (!disp[i]) {
			rc = PL_ENOMEM;
			goto done;
		}
		w = pl_text_width(disp[i]);
		if (w > width[i % g->ncols])
			width[i % g->ncols] = w;
	}
	for (size_t r = 0; r < nrows; r++) {
		size_t last = g->ncols; /* empty cells ending a row print nothing */
		while (last > 1 && !disp[r * g->ncols + last - 1][0])
			last--;
		for (size_t j = 0; j < last; j++) {
			const struct pl_cell *c = &g->c[r * g->ncols + j];
			const char *s = disp[r * g->ncols + j];
			size_t pad = width[j] - pl_text_width(s);
			if (j > 0)
				fputs("  ", out);
			if (c->right)
				put_spaces(out, pad);
			fputs(s, out);
			if (!c->right && j + 1 < last)
				put_spaces(out, pad);
		}
		fputc('\n', out);
		if (r == 0) {
			for (size_t j = 0; j < g->ncols; j++) {
				if (j > 0)
					fputs("  ", out);
				for (size_t k = 0; k < width[j]; k++)
					fputc('-', out);
			}
			fputc('\n', out);
		}
	}
done:
	if (disp)
		for (size_t i = 0; i < g->n; i++)
			free(disp[i]);
	free(disp);
	free(width);
	return rc;
}

static void grid_write_markdown(FILE *out, const struct pl_grid *g)
{
	size_t nrows = g->ncols ? g->n / g->ncols : 0;

	for (size_t r = 0; r < nrows; r++) {
		fputc('|', out);
		for (size_t j = 0; j < g->ncols; j++) {
			const struct pl_cell *c = &g->c[r * g->ncols + j];
			fputc(' ', out);
			if (c->input)
				pl_markdown_write_cell(out, c->s);
			else
				fputs(c->s, out);
			fputs(" |", out);
		}
		fputc('\n', out);
		if (r == 0) {
			fputc('|', out);
			for (size_t j = 0; j < g->ncols; j++)
				fputs(g->c[j].right ? "---:|" : "---|", out);
			fputc('\n', out);
		}
	}
}

/* RFC 4180: comma-separated, CRLF line ends. Our own cells (names, units,
 * numbers, negative deltas) are written as they are: only input text can
 * start a formula. */
static void grid_write_csv(FILE *out, const struct pl_grid *g)
{
	size_t nrows = g->ncols ? g->n / g->ncols : 0;

	for (size_t r = 0; r < nrows; r++) {
		for (size_t j = 0; j < g->ncols; j++) {
			const struct pl_cell *c = &g->c[r * g->ncols + j];
			if (j > 0)
				fputc(',', out);
			if (c->input)
				pl_csv_write_field(out, c->s);
			else
				fputs(c->s, out);
		}
		fputs("\r\n", out);
	}
}

int pl_grid_write(FILE *out, const struct pl_grid *g, enum pl_table_format fmt)
{
	if (g->oom)
		return PL_ENOMEM;
	if (fmt == PL_FMT_TEXT)
		return grid_write_text(out, g);
	if (fmt == PL_FMT_MARKDOWN)
		grid_write_markdown(out, g);
	else
		grid_write_csv(out, g);
	return 0;
}
