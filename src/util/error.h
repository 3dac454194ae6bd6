/*
 * util/error.h — perfledger's one error currency (core/error.h is its public name).
 *
 * Every fallible library function returns 0 or a negative PL_E* code and, on
 * failure, fills a caller-provided struct pl_error with the code, a lowercase
 * message, and where known the input file, 1-based line and column, and the
 * field that was wrong. The library never prints: the CLI formats the error
 * with pl_error_format() and maps the code to an exit status.
 */
#ifndef PL_UTIL_ERROR_H
#define PL_UTIL_ERROR_H

#include <stddef.h>

/* Error codes. Every value has a string in pl_strerror(); a unit test keeps
 * the two in sync. */
enum pl_errcode {
	PL_OK = 0,         /**< success */
	PL_ENOMEM = -1,    /**< out of memory */
	PL_EIO = -2,       /**< a file, directory or stream could not be read or written */
	PL_EUSAGE = -3,    /**< bad argument from the caller (unknown field, malformed option) */
	PL_ESYNTAX = -4,   /**< input is not well-formed (JSON syntax, bad line) */
	PL_EINVALID = -5,  /**< input is well-formed but breaks a rule of the canonical run */
	PL_EFORMAT = -6,   /**< no input adapter recognises the file */
	PL_EDB = -7,       /**< the SQLite database failed */
	PL_ESCHEMA = -8,   /**< the database schema is newer than this program or damaged */
	PL_EMISMATCH = -9, /**< comparison refused: conditions of the selected runs differ */
	PL_EEMPTY = -10,   /**< the selection matched no runs */
	PL_ETOOL = -11,    /**< an external program (gnuplot) is missing or failed */
	PL_EDUPLICATE = -12 /**< the same input was already stored (informational) */
};

/* The lowest (most negative) code; used by the strerror sync test. */
#define PL_ERRCODE_MIN PL_EDUPLICATE

/* A filled-in error. Strings are NUL-terminated and truncated to fit. */
struct pl_error {
	int code;           /* one of enum pl_errcode; PL_OK when unset */
	char message[512];  /* lowercase, says what failed first; no trailing newline */
	char file[1024];    /* input path the error is about, or "" */
	long line;          /* 1-based line in file, 0 if unknown */
	long column;        /* 1-based column (bytes) in line, 0 if unknown */
	char field[128];    /* condition/metric/JSON field name, or "" */
};

/* Resets err to "no error". err may be NULL (then nothing happens). */
void pl_error_init(struct pl_error *err);

/* Sets err's code and printf-style message and returns code, so callers can
 * write `return pl_error_set(err, PL_EIO, "cannot open '%s'", p);`. Location
 * and field are left as they were. err may be NULL (then only returns code). */
int pl_error_set(struct pl_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* Records where the error is: file path (may be NULL to keep the current
 * one), 1-based line and column (0 = unknown). err may be NULL. */
void pl_error_at(struct pl_error *err, const char *file, long line, long column);

/* Records the field the error is about (NULL or "" clears it). err may be NULL. */
void pl_error_field(struct pl_error *err, const char *field);

/* Prepends "record N: " to err's message (cut at the end to fit), for a
 * message about one record of a file of several. NULL err is a no-op. */
void pl_error_prefix_record(struct pl_error *err, long record);

/* The fixed English description of a code ("out of memory", ...); never NULL.
 * Unknown codes give "unknown error". */
const char *pl_strerror(int code);

/* Formats err as one line in jq/compiler style into buf (size n, always
 * NUL-terminated when n > 0):
 *   "FILE:LINE:COL: field 'F': MESSAGE"  (parts that are unknown are left out)
 * Returns the length that the full line would have (like snprintf). */
int pl_error_format(const struct pl_error *err, char *buf, size_t n);

#endif
