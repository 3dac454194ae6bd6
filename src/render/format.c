/*
 * format.c — numbers and labels for human tables, in the C locale.
 *
 * Four significant digits (pl_fmt_sig4), the spread of a metric over a
 * row's runs, signed deltas in percent, JSON numbers and keys, the axis
 * test, the "shared:" line of a comparison and the label of a comparison
 * row. Every renderer formats numbers through here so that the same value
 * prints the same in every table, whatever the process locale is. Text
 * from input files is escaped by escape.c.
 */
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/render_impl.h"

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

char *pl_fmt_change(char *buf, size_t n, double rel, enum pl_direction dir)
{
	char d[24];
	const char *word = "";

	pl_fmt_delta(d, sizeof(d), 100.0 * rel);
	if (rel != 0 && dir != PL_NO_DIRECTION)
		word = ((rel > 0) == (dir == PL_LOWER_IS_BETTER)) ? " worse" : " better";
	snprintf(buf, n, "%s%s", d, word);
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

/* ----------------------------------------------------- comparison labels */

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
