/*
 * escape.c — strings from input files are data, in every output format.
 *
 * The three public escapers of render.h (JSON string literals, Markdown
 * table cells, CSV fields) and the private helpers of render_impl.h that
 * every renderer shares: UTF-8 decoding and repair, terminal sanitising and
 * display width, C-locale number formatting for human tables, the row label
 * of a comparison, and writing a file through a temporary name.
 */
#include "render/render.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/render_impl.h"

#define UTF8_REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD */

/* ------------------------------------------------------------------ UTF-8 */

/* A growable byte buffer for the string transforms below. */
struct sbuf {
	char *p;    /* NUL-terminated contents; heap */
	size_t len; /* bytes used, without the NUL */
	size_t cap; /* bytes allocated */
	int oom;    /* sticky: an allocation failed */
};

static void sbuf_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *p;
		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static char *sbuf_finish(struct sbuf *b)
{
	if (!b->oom && !b->p)
		sbuf_add(b, "", 0);
	if (b->oom) {
		free(b->p);
		return NULL;
	}
	return b->p;
}

char *pl_utf8_repair(const char *s)
{
	struct sbuf b = {0};
	size_t n;

	if (!s)
		s = "";
	n = strlen(s);
	while (n > 0) {
		unsigned long cp;
		size_t k = pl_utf8_decode(s, n, &cp);
		if (k == 0) {
			sbuf_add(&b, UTF8_REPLACEMENT, 3);
			k = 1;
		} else {
			sbuf_add(&b, s, k);
		}
		s += k;
		n -= k;
	}
	return sbuf_finish(&b);
}

char *pl_text_sanitize(const char *s)
{
	struct sbuf b = {0};
	size_t n;

	if (!s)
		s = "";
	n = strlen(s);
	while (n > 0) {
		unsigned long cp;
		size_t k = pl_utf8_decode(s, n, &cp);
		if (k == 0 || pl_cp_is_control(cp)) {
			sbuf_add(&b, "?", 1);
			if (k == 0)
				k = 1;
		} else {
			sbuf_add(&b, s, k);
		}
		s += k;
		n -= k;
	}
	return sbuf_finish(&b);
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
	size_t n = s ? strlen(s) : 0;

	fputc('"', out);
	while (n > 0) {
		unsigned long cp;
		size_t k = pl_utf8_decode(s, n, &cp);
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
		} else if (cp < 0x20 || cp == 0x7F || cp == 0x2028 || cp == 0x2029) {
			fprintf(out, "\\u%04lx", cp);
		} else {
			fwrite(s, 1, k, out);
		}
		s += k;
		n -= k;
	}
	fputc('"', out);
	return stream_status(out);
}

int pl_markdown_write_cell(FILE *out, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	while (n > 0) {
		unsigned long cp;
		size_t k = pl_utf8_decode(s, n, &cp);
		if (k == 0) {
			fputs(UTF8_REPLACEMENT, out);
			k = 1;
		} else if (cp < 0x80 && cp != 0 && strchr("|\\`*_<>[]#&", (int)cp)) {
			/* & too: "&lt;" in a name must not render as "<" */
			fputc('\\', out);
			fputc((int)cp, out);
		} else if (cp == '\n' || cp == '\r' || cp == '\t') {
			fputc(' ', out);
		} else if (pl_cp_is_control(cp)) {
			fputc('?', out);
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

/* ------------------------------------------------------------------ numbers */

/* snprintf in the C locale whatever the process locale is. */
static void c_snprintf(char *buf, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

static void c_snprintf(char *buf, size_t n, const char *fmt, ...)
{
	static locale_t c_locale;
	locale_t old = (locale_t)0;
	va_list ap;

	if (!c_locale)
		c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (c_locale)
		old = uselocale(c_locale);
	va_start(ap, fmt);
	vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	if (c_locale)
		uselocale(old);
}

char *pl_fmt_sig4(char *buf, size_t n, double v)
{
	char tmp[64];
	const char *e;
	long exp10;
	int dec;

	if (n == 0)
		return buf;
	if (isnan(v)) {
		snprintf(buf, n, "nan");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, n, "%s", v > 0 ? "inf" : "-inf");
		return buf;
	}
	if (v == 0) {
		snprintf(buf, n, "0");
		return buf;
	}
	/* %.3e rounds to 4 significant digits and tells the decimal exponent. */
	c_snprintf(tmp, sizeof(tmp), "%.3e", v);
	e = strchr(tmp, 'e');
	exp10 = e ? strtol(e + 1, NULL, 10) : 0;
	if (exp10 < -6 || exp10 > 14) {
		snprintf(buf, n, "%s", tmp);
		return buf;
	}
	dec = exp10 >= 3 ? 0 : (int)(3 - exp10);
	c_snprintf(buf, n, "%.*f", dec, v);
	return buf;
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

char *pl_fmt_spread(char *buf, size_t n, const struct pl_compare_row *row, int m)
{
	char lo[64], hi[64]; /* pl_fmt_sig4 may write its 64-byte %e text */

	if (n == 0)
		return buf;
	buf[0] = '\0';
	if (m < 0 || m >= PL_METRIC_COUNT || row->n_metric[m] < 2)
		return buf;
	pl_fmt_sig4(lo, sizeof(lo), row->min[m]);
	pl_fmt_sig4(hi, sizeof(hi), row->max[m]);
	if (strcmp(lo, hi) == 0) /* the runs agree to the digits shown */
		return buf;
	/* U+2013 EN DASH: a hyphen would read as a minus sign */
	snprintf(buf, n, "%s\xe2\x80\x93%s", lo, hi);
	return buf;
}

char *pl_fmt_delta(char *buf, size_t n, double pct)
{
	if (n == 0)
		return buf;
	if (!isfinite(pct)) {
		snprintf(buf, n, "%s", isnan(pct) ? "n/a" : pct > 0 ? "+inf%" : "-inf%");
		return buf;
	}
	/* a change of a million percent or more is shown in three significant
	 * digits, not as a 100-digit number */
	if (fabs(pct) >= 1e6)
		c_snprintf(buf, n, "%+.3g%%", pct);
	else
		c_snprintf(buf, n, "%+.1f%%", pct);
	if (strcmp(buf, "-0.0%") == 0)
		snprintf(buf, n, "+0.0%%");
	return buf;
}

/* ------------------------------------------------------------ JSON values */

void pl_json_write_num(FILE *out, double v)
{
	char buf[40];

	if (isnan(v))
		fputs("null", out);
	else if (isinf(v))
		fputs(v > 0 ? "\"inf\"" : "\"-inf\"", out);
	else
		fputs(pl_fmt_num(buf, sizeof(buf), v), out);
}

void pl_json_write_key(FILE *out, int *first, const char *name)
{
	if (!*first)
		fputs(", ", out);
	*first = 0;
	pl_json_write_string(out, name);
	fputs(": ", out);
}

/* --------------------------------------------------------------- structure */

int pl_render_mkdirs(const char *dir, struct pl_error *err)
{
	size_t n = strlen(dir);
	char *p = malloc(n + 1);
	struct stat st;

	if (!p)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	memcpy(p, dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			int e = errno;
			free(p);
			return pl_error_set(err, PL_EIO, "cannot create directory '%s': %s", dir,
			                    strerror(e));
		}
		if (i < n)
			p[i] = '/';
	}
	free(p);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return pl_error_set(err, PL_EIO, "cannot create directory '%s': %s", dir,
		                    stat(dir, &st) != 0 ? strerror(errno) : "not a directory");
	return 0;
}


int pl_render_is_axis(const struct pl_comparison *cmp, int id)
{
	for (size_t i = 0; i < cmp->naxis; i++)
		if (cmp->axis[i] == id)
			return 1;
	return 0;
}

int pl_render_write_shared(FILE *out, const struct pl_comparison *cmp, enum pl_table_format fmt,
                           int skip_travellers)
{
	int first = 1, rc;

	fputs("shared: ", out);
	for (int id = 0; id < PL_COND_COUNT; id++) {
		const struct pl_value *v = &cmp->shared[id];
		if (!v->set || pl_render_is_axis(cmp, id) || (skip_travellers && cmp->varies[id]))
			continue;
		fprintf(out, "%s%s=", first ? "" : ", ", pl_cond_info[id].name);
		first = 0;
		if ((rc = pl_render_write_input(out, v->text, fmt)))
			return rc;
	}
	for (size_t i = 0; i < cmp->nshared_extra; i++) {
		fputs(first ? "" : ", ", out);
		first = 0;
		if ((rc = pl_render_write_input(out, cmp->shared_extra[i].name, fmt)))
			return rc;
		fputc('=', out);
		if ((rc = pl_render_write_input(out, cmp->shared_extra[i].value, fmt)))
			return rc;
	}
	if (first)
		fputs("(none)", out);
	return 0;
}

char *pl_render_row_label(const struct pl_comparison *cmp, size_t row, char *buf, size_t n)
{
	size_t len = 0;

	if (n == 0)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < cmp->naxis; i++) {
		int id = cmp->axis[i];
		const struct pl_value *v;
		const char *parts[2];

		if (id < 0 || id >= PL_COND_COUNT)
			continue;
		v = &cmp->rows[row].axis[id];
		parts[0] = len > 0 ? " / " : "";
		parts[1] = v->set && v->text ? v->text : "(missing)";
		for (int p = 0; p < 2; p++) {
			size_t k = strlen(parts[p]);
			if (len + k >= n)
				k = n - 1 - len;
			memcpy(buf + len, parts[p], k);
			len += k;
			buf[len] = '\0';
		}
	}
	return buf;
}

char *pl_render_path(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = malloc(a + b + 2);

	if (!p)
		return NULL;
	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b + 1);
	return p;
}

int pl_render_write_file(const char *path, int (*fn)(FILE *fp, void *ctx, struct pl_error *err),
                         void *ctx, struct pl_error *err)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 5);
	FILE *fp;
	int rc, fd;

	if (!tmp)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".tmp", 5);
	/* A symlink planted at the temporary name must not be followed: remove
	 * whatever is there and create the file afresh (O_EXCL, O_NOFOLLOW).
	 * The rename below then replaces a link at path instead of writing
	 * through it. */
	remove(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
	fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!fp) {
		if (fd >= 0)
			close(fd);
		rc = pl_error_set(err, PL_EIO, "cannot write '%s': %s", tmp, strerror(errno));
		free(tmp);
		return rc;
	}
	errno = 0;
	rc = fn(fp, ctx, err);
	if (rc == PL_EIO) /* a failed write left its reason (ENOSPC, EIO) in errno */
		pl_error_set(err, PL_EIO, "cannot write '%s': %s", tmp,
		             errno ? strerror(errno) : "write error");
	if (rc == 0 && (fflush(fp) != 0 || ferror(fp)))
		rc = pl_error_set(err, PL_EIO, "cannot write '%s': %s", tmp, strerror(errno));
	if (fclose(fp) != 0 && rc == 0)
		rc = pl_error_set(err, PL_EIO, "cannot write '%s': %s", tmp, strerror(errno));
	if (rc == 0 && rename(tmp, path) != 0)
		rc = pl_error_set(err, PL_EIO, "cannot rename '%s' to '%s': %s", tmp, path,
		                  strerror(errno));
	if (rc != 0)
		remove(tmp);
	free(tmp);
	return rc;
}
