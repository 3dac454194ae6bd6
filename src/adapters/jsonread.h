/*
 * jsonread.h — a small checked JSON reader for the layers above adapters.
 *
 * The render layer reads a few JSON files of its own (report definitions,
 * a bundle's manifest.json). They get the input readers' error quality —
 * line and column in syntax errors, duplicate keys refused, bare NaN and
 * -Infinity refused (json_util.h has the rules) — through this reader,
 * which exposes no cJSON type: a document and its values are opaque
 * handles, read with typed getters.
 *
 * Getters return 0 (the value is there and of the type asked for), 1 (it
 * is absent: a NULL handle, JSON null, a missing member, an index past the
 * end) or PL_EINVALID (it is of another type). They fill err (which may be
 * NULL) with a generic message on PL_EINVALID; a caller that knows what the
 * value means words its own message instead. Every value and string
 * belongs to its document and lives until pl_jsonread_free().
 */
#ifndef PL_JSONREAD_H
#define PL_JSONREAD_H

#include <stddef.h>

#include "core/error.h"

/* A parsed document (opaque). Free with pl_jsonread_free(). */
struct pl_jsonread;

/* One value inside a document (opaque; never freed on its own). */
struct pl_jsonval;

/* The type of a value. */
enum pl_jsontype {
	PL_JT_ABSENT, /* a NULL handle */
	PL_JT_NULL,   /* null */
	PL_JT_BOOL,   /* true or false */
	PL_JT_NUMBER, /* a number (as a double; 1e999 reads as infinity) */
	PL_JT_STRING, /* a string (UTF-8, no NUL inside) */
	PL_JT_ARRAY,  /* an array */
	PL_JT_OBJECT, /* an object (keys unique, in file order) */
};

/* Iteration over an array's elements or an object's members, in order.
 * Initialise with pl_jsonread_iter(); the fields are private. */
struct pl_jsonread_iter {
	const void *next; /* the next element (a cJSON node), or NULL at the end */
};

/*
 * Parses buf[0..len) (need not be NUL-terminated; a UTF-8 BOM is skipped)
 * as one JSON value plus white space. path names the input in errors.
 * Returns 0 and *out (caller frees with pl_jsonread_free()), or
 * PL_ESYNTAX / PL_EINVALID (duplicate key, NaN, -Infinity, \u0000) /
 * PL_ENOMEM with err located in path (line and column where known);
 * *out is then NULL.
 */
int pl_jsonread_parse(const char *path, const char *buf, size_t len, struct pl_jsonread **out,
                      struct pl_error *err);

/* Frees doc and every value and string it holds. NULL is a no-op. */
void pl_jsonread_free(struct pl_jsonread *doc);

/* The top-level value of doc (never NULL for a parsed doc). */
const struct pl_jsonval *pl_jsonread_root(const struct pl_jsonread *doc);

/* The type of v; PL_JT_ABSENT for NULL. */
enum pl_jsontype pl_jsonread_type(const struct pl_jsonval *v);

/* A short name for the type of v: "a string", "a number", "null", ... */
const char *pl_jsonread_type_name(const struct pl_jsonval *v);

/* The member called key of obj (case-sensitive) into *out: 0 found, 1 not
 * there (*out = NULL), PL_EINVALID when obj is not an object. */
int pl_jsonread_member(const struct pl_jsonval *obj, const char *key,
                       const struct pl_jsonval **out, struct pl_error *err);

/* The number of elements of an array (or members of an object) into *n:
 * 0, or PL_EINVALID when v is neither (*n = 0). */
int pl_jsonread_length(const struct pl_jsonval *v, size_t *n, struct pl_error *err);

/* Element i (from 0) of array arr into *out: 0, 1 past the end (*out =
 * NULL), PL_EINVALID when arr is not an array. Walks from the start: use
 * pl_jsonread_iter() to visit every element. */
int pl_jsonread_element(const struct pl_jsonval *arr, size_t i, const struct pl_jsonval **out,
                        struct pl_error *err);

/* Typed values of v. *out is set only when 0 is returned; a string points
 * into the document. */
int pl_jsonread_string(const struct pl_jsonval *v, const char **out, struct pl_error *err);
int pl_jsonread_number(const struct pl_jsonval *v, double *out, struct pl_error *err);
int pl_jsonread_bool(const struct pl_jsonval *v, int *out, struct pl_error *err);

/* Starts an iteration over the elements of an array or the members of an
 * object: 0, or PL_EINVALID when v is neither (it then yields nothing). */
int pl_jsonread_iter(const struct pl_jsonval *v, struct pl_jsonread_iter *it,
                     struct pl_error *err);

/* The next element or member: returns 1 with *val (and *key, the member's
 * name, or NULL for an array element; key may be NULL) set, or 0 at the
 * end. Typical use:
 *     while (pl_jsonread_next(&it, &key, &val)) ...  */
int pl_jsonread_next(struct pl_jsonread_iter *it, const char **key,
                     const struct pl_jsonval **val);

#endif
