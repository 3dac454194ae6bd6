/*
 * jsonread.c — the checked JSON reader of jsonread.h over cJSON.
 *
 * Parsing is pl_json_parse_value() (json_util.c), the input readers'
 * parser, so positions, duplicate keys and bare tokens follow the same
 * rules. A struct pl_jsonval pointer is a cJSON node in disguise: it is
 * never dereferenced as anything else, and no cJSON type crosses the header.
 */
#include "adapters/jsonread.h"

#include <stdlib.h>

#include "adapters/json_util.h"

struct pl_jsonread {
	cJSON *root; /* the parsed value; owned */
};

static const cJSON *node(const struct pl_jsonval *v)
{
	return (const cJSON *)(const void *)v;
}

static const struct pl_jsonval *handle(const cJSON *n)
{
	return (const struct pl_jsonval *)(const void *)n;
}

int pl_jsonread_parse(const char *path, const char *buf, size_t len, struct pl_jsonread **out,
                      struct pl_error *err)
{
	struct pl_jsonread *doc;
	int rc;

	*out = NULL;
	if (!(doc = calloc(1, sizeof(*doc))))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = pl_json_parse_value(path, buf, len, &doc->root, err);
	if (rc) {
		free(doc);
		return rc;
	}
	*out = doc;
	return 0;
}

void pl_jsonread_free(struct pl_jsonread *doc)
{
	if (!doc)
		return;
	cJSON_Delete(doc->root);
	free(doc);
}

const struct pl_jsonval *pl_jsonread_root(const struct pl_jsonread *doc)
{
	return doc ? handle(doc->root) : NULL;
}

enum pl_jsontype pl_jsonread_type(const struct pl_jsonval *v)
{
	const cJSON *n = node(v);

	if (!n)
		return PL_JT_ABSENT;
	if (cJSON_IsBool(n))
		return PL_JT_BOOL;
	if (cJSON_IsNumber(n))
		return PL_JT_NUMBER;
	if (cJSON_IsString(n) && n->valuestring)
		return PL_JT_STRING;
	if (cJSON_IsArray(n))
		return PL_JT_ARRAY;
	if (cJSON_IsObject(n))
		return PL_JT_OBJECT;
	return PL_JT_NULL; /* cJSON_NULL; cJSON_Raw and cJSON_Invalid never come from a parse */
}

const char *pl_jsonread_type_name(const struct pl_jsonval *v)
{
	return pl_json_type_name(node(v));
}

/* The getters' common checks: 1 when v is absent or null, PL_EINVALID when
 * it is not of type want (named by what), 0 when it is. */
static int want_type(const struct pl_jsonval *v, enum pl_jsontype want, const char *what,
                     struct pl_error *err)
{
	enum pl_jsontype t = pl_jsonread_type(v);

	if (t == want)
		return 0;
	if (t == PL_JT_ABSENT || t == PL_JT_NULL)
		return 1;
	return pl_error_set(err, PL_EINVALID, "%s was expected, got %s", what,
	                    pl_jsonread_type_name(v));
}

int pl_jsonread_member(const struct pl_jsonval *obj, const char *key,
                       const struct pl_jsonval **out, struct pl_error *err)
{
	*out = NULL;
	if (pl_jsonread_type(obj) != PL_JT_OBJECT)
		return pl_error_set(err, PL_EINVALID, "an object was expected, got %s",
		                    pl_jsonread_type_name(obj));
	*out = handle(pl_json_get(node(obj), key));
	return *out ? 0 : 1;
}

int pl_jsonread_length(const struct pl_jsonval *v, size_t *n, struct pl_error *err)
{
	struct pl_jsonread_iter it;
	int rc = pl_jsonread_iter(v, &it, err);

	*n = 0;
	while (rc == 0 && pl_jsonread_next(&it, NULL, NULL))
		(*n)++;
	return rc;
}

int pl_jsonread_element(const struct pl_jsonval *arr, size_t i, const struct pl_jsonval **out,
                        struct pl_error *err)
{
	struct pl_jsonread_iter it;
	const struct pl_jsonval *e;

	*out = NULL;
	if (pl_jsonread_type(arr) != PL_JT_ARRAY)
		return pl_error_set(err, PL_EINVALID, "an array was expected, got %s",
		                    pl_jsonread_type_name(arr));
	pl_jsonread_iter(arr, &it, err);
	while (pl_jsonread_next(&it, NULL, &e))
		if (i-- == 0) {
			*out = e;
			return 0;
		}
	return 1;
}

int pl_jsonread_string(const struct pl_jsonval *v, const char **out, struct pl_error *err)
{
	int rc = want_type(v, PL_JT_STRING, "a string", err);

	if (rc == 0)
		*out = node(v)->valuestring;
	return rc;
}

int pl_jsonread_number(const struct pl_jsonval *v, double *out, struct pl_error *err)
{
	int rc = want_type(v, PL_JT_NUMBER, "a number", err);

	if (rc == 0)
		*out = node(v)->valuedouble;
	return rc;
}

int pl_jsonread_bool(const struct pl_jsonval *v, int *out, struct pl_error *err)
{
	int rc = want_type(v, PL_JT_BOOL, "true or false", err);

	if (rc == 0)
		*out = cJSON_IsTrue(node(v)) ? 1 : 0;
	return rc;
}

int pl_jsonread_iter(const struct pl_jsonval *v, struct pl_jsonread_iter *it,
                     struct pl_error *err)
{
	enum pl_jsontype t = pl_jsonread_type(v);

	it->next = NULL;
	if (t != PL_JT_ARRAY && t != PL_JT_OBJECT)
		return pl_error_set(err, PL_EINVALID, "an array or an object was expected, got %s",
		                    pl_jsonread_type_name(v));
	it->next = node(v)->child;
	return 0;
}

int pl_jsonread_next(struct pl_jsonread_iter *it, const char **key,
                     const struct pl_jsonval **val)
{
	const cJSON *n = it->next;

	if (!n)
		return 0;
	it->next = n->next;
	if (key)
		*key = n->string; /* NULL for an array element */
	if (val)
		*val = handle(n);
	return 1;
}
