/*
 * error.c — filling, describing and formatting struct pl_error.
 */
#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const strerrors[] = {
	"ok",                                   /* PL_OK */
	"out of memory",                        /* PL_ENOMEM */
	"input/output error",                   /* PL_EIO */
	"usage error",                          /* PL_EUSAGE */
	"syntax error",                         /* PL_ESYNTAX */
	"invalid input",                        /* PL_EINVALID */
	"unknown input format",                 /* PL_EFORMAT */
	"database error",                       /* PL_EDB */
	"unsupported database schema",          /* PL_ESCHEMA */
	"conditions do not match",              /* PL_EMISMATCH */
	"no runs selected",                     /* PL_EEMPTY */
	"external tool failed",                 /* PL_ETOOL */
	"already stored",                       /* PL_EDUPLICATE */
};

void pl_error_init(struct pl_error *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

int pl_error_set(struct pl_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return code;
}

void pl_error_at(struct pl_error *err, const char *file, long line, long column)
{
	if (!err)
		return;
	if (file)
		snprintf(err->file, sizeof(err->file), "%s", file);
	err->line = line;
	err->column = column;
}

void pl_error_field(struct pl_error *err, const char *field)
{
	if (!err)
		return;
	snprintf(err->field, sizeof(err->field), "%s", field ? field : "");
}

const char *pl_strerror(int code)
{
	if (code > 0 || code < PL_ERRCODE_MIN)
		return "unknown error";
	return strerrors[-code];
}

int pl_error_format(const struct pl_error *err, char *buf, size_t n)
{
	char loc[1100] = "";
	char fld[160] = "";
	const char *msg;

	if (err->file[0]) {
		if (err->line > 0 && err->column > 0)
			snprintf(loc, sizeof(loc), "%s:%ld:%ld: ", err->file, err->line, err->column);
		else if (err->line > 0)
			snprintf(loc, sizeof(loc), "%s:%ld: ", err->file, err->line);
		else
			snprintf(loc, sizeof(loc), "%s: ", err->file);
	}
	if (err->field[0] && !strstr(err->message, err->field))
		snprintf(fld, sizeof(fld), "field '%s': ", err->field);
	msg = err->message[0] ? err->message : pl_strerror(err->code);
	return snprintf(buf, n, "%s%s%s", loc, fld, msg);
}

void pl_error_prefix_record(struct pl_error *err, long record)
{
	char pre[32];
	size_t n, len;

	if (!err)
		return;
	n = (size_t)snprintf(pre, sizeof(pre), "record %ld: ", record);
	len = strlen(err->message);
	if (len + n >= sizeof(err->message))
		len = sizeof(err->message) - n - 1;
	memmove(err->message + n, err->message, len);
	memcpy(err->message, pre, n);
	err->message[n + len] = '\0';
}
