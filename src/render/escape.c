/*
 * escape.c — strings from input files are data, in every output format.
 *
 * The three public escapers of render.h (JSON string literals, Markdown
 * table cells, CSV fields) and the private ones of render_impl.h: UTF-8
 * repair, terminal sanitising and display width, and text from an input
 * file inline in a line of text or Markdown. Only escaping lives here:
 * number formatting and comparison labels are in format.c, file writing in
 * util/fsutil.c. HTML/XML text (pl_html_write_text) is escaped here too, for
 * template.c and svg.c.
 */
#include "render/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render_impl.h"
#include "util/buf.h"

#define UTF8_REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD */

/* ------------------------------------------------------------------ UTF-8 */

char *pl_utf8_repair(const char *s)
{
	struct pl_buf b = PL_BUF_INIT;
	size_t n;

	if (!s)
		s = "";
	n = strlen(s);
	while (n > 0) {
		unsigned long cp;
		size_t k = pl_utf8_decode(s, n, &cp);
		if (k == 0) {
			pl_buf_add(&b, UTF8_REPLACEMENT, 3);
			k = 1;
		} else {
			pl_buf_add(&b, s, k);
		}
		s += k;
		n -= k;
	}
	return pl_buf_detach(&b, NULL);
}

char *pl_text_sanitize(const char *s)
{
	return pl_text_sanitize_cut(s, 0);
}

/* ellipsis: U+2026, one column */
#define ELLIPSIS "\xE2\x80\xA6"

static int cp_width(unsigned long cp);

char *pl_text_sanitize_cut(const char *s, size_t max_cols)
{
	struct pl_buf b = PL_BUF_INIT;
	size_t n, w = 0;

	if (!s)
		s = "";
	n = strlen(s);
	if (max_cols > 0 && pl_text_width(s) <= max_cols)
		max_cols = 0; /* fits: nothing to cut */
	while (n > 0) {
		unsigned long cp;
		int inert;
		size_t k = pl_utf8_inert_step(s, n, &cp, &inert);
		size_t cw = inert ? 1 : (size_t)cp_width(cp);

		if (max_cols > 0 && w + cw > max_cols - 1) {
			pl_buf_add(&b, ELLIPSIS, 3);
			break;
		}
		w += cw;
		if (inert)
			pl_buf_add(&b, "?", 1);
		else
			pl_buf_add(&b, s, k);
		s += k;
		n -= k;
	}
	return pl_buf_detach(&b, NULL);
}

static int cp_width(unsigned long cp)
{
	if ((cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
	    (cp >= 0x1DC0 && cp <= 0x1DFF) || (cp >= 0x20D0 && cp <= 0x20FF) ||
	    (cp >= 0xFE20 && cp <= 0xFE2F) || (cp >= 0x200B && cp <= 0x200D))
		return 0;
	if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) ||
	    (cp >= 0x3041 && cp <= 0x33FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
	    (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
	    (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
	    (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
	    (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
	    (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD))
		return 2;
	return 1;
}

size_t pl_text_width(const char *s)
{
	size_t n = s ? strlen(s) : 0, w = 0;

	while (n > 0) {
		unsigned long cp;
		size_t k = pl_utf8_decode(s, n, &cp);
		if (k == 0) {
			w++;
			k = 1;
		} else {
			w += (size_t)cp_width(cp);
		}
		s += k;
		n -= k;
	}
	return w;
}

/* ------------------------------------------------------------ the escapers */

static int stream_status(FILE *out)
{
	return ferror(out) ? PL_EIO : 0;
}

int pl_json_write_string(FILE *out, const char *s)
{
	size_t n = s ? strlen(s) : 0, ascii = 0;
	const char *plain = s; /* start of characters written as they are, not yet written */

	/* the common case, printable ASCII without " or \, in one write (keys,
	 * dates, names: a site writes millions of them) */
	while (ascii < n && s[ascii] >= 0x20 && s[ascii] < 0x7F && s[ascii] != '"' &&
	       s[ascii] != '\\')
		ascii++;
	if (ascii == n) {
		fputc('"', out);
		fwrite(s ? s : "", 1, n, out);
		fputc('"', out);
		return stream_status(out);
	}
	fputc('"', out);
	while (n > 0) {
		unsigned long cp;
		size_t k;

		/* printable ASCII other than " and \ is most of every string: it
		 * is written in one fwrite per run (an fwrite per character was
		 * half of `export`) */
		if ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7F && *s != '"' && *s != '\\') {
			s++;
			n--;
			continue;
		}
		k = pl_utf8_decode(s, n, &cp);
		if (k > 0 && cp >= 0x80 && cp != 0x2028 && cp != 0x2029) {
			s += k; /* valid UTF-8 beyond ASCII: as it is too */
			n -= k;
			continue;
		}
		if (s > plain)
			fwrite(plain, 1, (size_t)(s - plain), out);
		if (k == 0) {
			fputs(UTF8_REPLACEMENT, out);
			k = 1;
		} else if (cp == '"' || cp == '\\') {
			fputc('\\', out);
			fputc((int)cp, out);
		} else if (cp == '\n') {
			fputs("\\n", out);
		} else if (cp == '\r') {
			fputs("\\r", out);
		} else if (cp == '\t') {
			fputs("\\t", out);
		} else if (cp == '\b') {
			fputs("\\b", out);
		} else if (cp == '\f') {
			fputs("\\f", out);
		} else {
			fprintf(out, "\\u%04lx", cp); /* other controls, DEL, U+2028, U+2029 */
		}
		s += k;
		n -= k;
		plain = s;
	}
	if (s > plain)
		fwrite(plain, 1, (size_t)(s - plain), out);
	fputc('"', out);
	return stream_status(out);
}

int pl_markdown_write_cell(FILE *out, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	while (n > 0) {
		unsigned long cp;
		int inert;
		size_t k = pl_utf8_inert_step(s, n, &cp, &inert);
		if (cp == '\n' || cp == '\r' || cp == '\t') {
			fputc(' ', out); /* a line break would end the table row */
		} else if (inert) {
			fputc('?', out); /* the terminal rule: other controls, bad bytes */
		} else if (cp < 0x80 && strchr("|\\`*_<>[]#&", (int)cp)) {
			/* & too: "&lt;" in a name must not render as "<" */
			fputc('\\', out);
			fputc((int)cp, out);
		} else {
			fwrite(s, 1, k, out);
		}
		s += k;
		n -= k;
	}
	return stream_status(out);
}

int pl_csv_write_field(FILE *out, const char *s)
{
	int prefix, quote;
	size_t n;

	if (!s)
		s = "";
	n = strlen(s);
	prefix = s[0] != '\0' && strchr("=+-@\t\r", s[0]) != NULL;
	quote = strpbrk(s, ",\"\r\n") != NULL;
	if (quote)
		fputc('"', out);
	if (prefix)
		fputc('\'', out);
	while (n > 0) {
		unsigned long cp;
		size_t k = pl_utf8_decode(s, n, &cp);
		if (k == 0) {
			fputs(UTF8_REPLACEMENT, out);
			k = 1;
		} else if (cp == '"') {
			fputs("\"\"", out);
		} else if (pl_cp_is_control(cp) && cp != '\n' && cp != '\t') {
			/* ESC, CR, C1, bidi overrides: inert when the CSV is shown in a
			 * terminal, as in text tables; newline and tab stay (quoted) data */
			fputc('?', out);
		} else {
			fwrite(s, 1, k, out);
		}
		s += k;
		n -= k;
	}
	if (quote)
		fputc('"', out);
	return stream_status(out);
}

int pl_render_write_input(FILE *out, const char *s, enum pl_table_format fmt)
{
	char *safe;

	if (fmt == PL_FMT_MARKDOWN)
		return pl_markdown_write_cell(out, s) == 0 ? 0 : PL_EIO;
	safe = pl_text_sanitize(s);
	if (!safe)
		return PL_ENOMEM;
	fputs(safe, out);
	free(safe);
	return 0;
}

int pl_html_write_text(FILE *out, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	while (n > 0) {
		unsigned long cp;
		size_t k = pl_utf8_decode(s, n, &cp);
		if (k == 0) {
			fputs("\xEF\xBF\xBD", out);
			k = 1;
		} else if (cp == '&') {
			fputs("&amp;", out);
		} else if (cp == '<') {
			fputs("&lt;", out);
		} else if (cp == '>') {
			fputs("&gt;", out);
		} else if (cp == '"') {
			fputs("&quot;", out);
		} else if (cp == '\'') {
			fputs("&#39;", out);
		} else if ((cp < 0x20 && cp != '\n' && cp != '\t') || cp == 0x7F ||
		           (cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
		           (cp >= 0x2066 && cp <= 0x2069)) {
			fputc('?', out);
		} else {
			fwrite(s, 1, k, out);
		}
		s += k;
		n -= k;
	}
	return ferror(out) ? PL_EIO : 0;
}
