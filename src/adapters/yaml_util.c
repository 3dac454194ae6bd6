/*
 * yaml_util.c — libyaml document -> cJSON tree (see yaml_util.h).
 */
#include "adapters/yaml_util.h"

#include <math.h>
#include <string.h>
#include <yaml.h>

#include "core/model.h"

#define MAX_DEPTH 1000
/* Aliases may expand a document to ALIAS_RATIO times its own nodes plus
 * ALIAS_SLACK: a real report repeats an anchor a few times, while an alias
 * bomb (each level ten aliases of the one before) grows tenfold per line.
 * Refused at ~100k nodes for a small bomb (~13 MB) instead of millions
 * (~500 MB); a document without aliases is never limited. */
#define ALIAS_RATIO 16
#define ALIAS_SLACK 100000L
/* Likewise the text: an alias of a long scalar copies all of it, so the
 * scalar bytes converted may reach ALIAS_RATIO times the file plus
 * ALIAS_TEXT_SLACK, then the document is refused. */
#define ALIAS_TEXT_SLACK (1024L * 1024)

struct conv {
	yaml_document_t *doc;
	const char *path;
	long nodes;      /* nodes converted so far, aliases expanded */
	long doc_nodes;  /* nodes the document holds */
	long max_nodes;  /* refusal threshold */
	size_t text;     /* scalar bytes converted so far, aliases expanded */
	size_t doc_text; /* bytes of the file */
	size_t max_text; /* refusal threshold */
	struct pl_error *err;
};

static int at(struct conv *c, const yaml_node_t *n, int code, const char *msg)
{
	pl_error_at(c->err, c->path, (long)n->start_mark.line + 1, (long)n->start_mark.column + 1);
	pl_error_set(c->err, code, "%s", msg);
	return code;
}

static int is_one_of(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

static int scalar(struct conv *c, const yaml_node_t *n, const char *key, cJSON **out)
{
	static const char *const nulls[] = {"", "~", "null", "Null", "NULL", NULL};
	static const char *const trues[] = {"true", "True", "TRUE", NULL};
	static const char *const falses[] = {"false", "False", "FALSE", NULL};
	static const char *const infs[] = {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", NULL};
	const char *s = (const char *)n->data.scalar.value;
	double v;

	if (strlen(s) != n->data.scalar.length)
		return at(c, n, PL_EINVALID, "a YAML string contains a NUL character");
	if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) {
		*out = cJSON_CreateString(s);
	} else if (is_one_of(s, nulls)) {
		*out = cJSON_CreateNull();
	} else if (is_one_of(s, trues) || is_one_of(s, falses)) {
		*out = cJSON_CreateBool(is_one_of(s, trues));
	} else if (is_one_of(s, infs)) {
		*out = cJSON_CreateString("inf");
	} else if (strcmp(s, ".nan") == 0 || strcmp(s, ".NaN") == 0 || strcmp(s, ".NAN") == 0 ||
	           (s[0] == '-' && (strcmp(s + 1, ".inf") == 0 || strcmp(s + 1, ".Inf") == 0 ||
	                            strcmp(s + 1, ".INF") == 0))) {
		char m[200];
		pl_error_field(c->err, key);
		if (key && key[0])
			snprintf(m, sizeof(m), "'%.100s' is NaN or -infinity; give a number, or null if unknown",
			         key);
		else
			snprintf(m, sizeof(m), "NaN or -infinity is not allowed");
		return at(c, n, PL_EINVALID, m);
	} else if (strspn(s, "0123456789+-.eE") == strlen(s) && strpbrk(s, "0123456789") &&
	           pl_parse_num(s, 0, &v) == 0) {
		*out = cJSON_CreateNumber(v);
	} else {
		*out = cJSON_CreateString(s);
	}
	if (!*out)
		return pl_error_set(c->err, PL_ENOMEM, "out of memory");
	return 0;
}

static int convert(struct conv *c, yaml_node_t *n, int depth, const char *key, cJSON **out)
{
	*out = NULL;
	if (!n)
		return pl_error_set(c->err, PL_ESYNTAX, "invalid YAML: a node is missing");
	if (depth > MAX_DEPTH)
		return at(c, n, PL_ESYNTAX, "invalid YAML: nesting deeper than 1000 levels");
	if (++c->nodes > c->max_nodes) {
		char m[200];
		snprintf(m, sizeof(m),
		         "the YAML document's aliases expand its %ld nodes to more than %ld (%d times "
		         "as many, plus %ld)",
		         c->doc_nodes, c->max_nodes, ALIAS_RATIO, ALIAS_SLACK);
		return at(c, n, PL_EINVALID, m);
	}
	if (n->type == YAML_SCALAR_NODE) {
		c->text += n->data.scalar.length;
		if (c->text > c->max_text) {
			char m[200];
			snprintf(m, sizeof(m),
			         "the YAML document's aliases expand its text of %zu bytes to more than "
			         "%zu (%d times as much, plus 1 MiB)",
			         c->doc_text, c->max_text, ALIAS_RATIO);
			return at(c, n, PL_EINVALID, m);
		}
		return scalar(c, n, key, out);
	}
	if (n->type == YAML_SEQUENCE_NODE) {
		cJSON *arr = cJSON_CreateArray();
		if (!arr)
			return pl_error_set(c->err, PL_ENOMEM, "out of memory");
		for (yaml_node_item_t *it = n->data.sequence.items.start;
		     it < n->data.sequence.items.top; it++) {
			cJSON *v;
			int rc = convert(c, yaml_document_get_node(c->doc, *it), depth + 1, key, &v);
			if (rc) {
				cJSON_Delete(arr);
				return rc;
			}
			cJSON_AddItemToArray(arr, v);
		}
		*out = arr;
		return 0;
	}
	if (n->type == YAML_MAPPING_NODE) {
		cJSON *obj = cJSON_CreateObject();
		if (!obj)
			return pl_error_set(c->err, PL_ENOMEM, "out of memory");
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
		     p++) {
			yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
			const char *ks;
			cJSON *v;
			int rc;
			if (!k || k->type != YAML_SCALAR_NODE) {
				cJSON_Delete(obj);
				return at(c, k ? k : n, PL_EINVALID, "a YAML mapping key must be a scalar");
			}
			ks = (const char *)k->data.scalar.value;
			if (strlen(ks) != k->data.scalar.length) {
				cJSON_Delete(obj);
				return at(c, k, PL_EINVALID, "an object key contains a NUL character");
			}
			if (cJSON_GetObjectItemCaseSensitive(obj, ks)) {
				cJSON_Delete(obj);
				char m[200];
				pl_error_field(c->err, ks);
				snprintf(m, sizeof(m), "duplicate key '%.100s' (YAML readers disagree on which one wins)",
				         ks);
				return at(c, k, PL_EINVALID, m);
			}
			rc = convert(c, yaml_document_get_node(c->doc, p->value), depth + 1, ks, &v);
			if (rc) {
				cJSON_Delete(obj);
				return rc;
			}
			cJSON_AddItemToObject(obj, ks, v);
		}
		*out = obj;
		return 0;
	}
	return at(c, n, PL_ESYNTAX, "invalid YAML: an empty node");
}

int pl_yaml_parse(const char *path, const char *buf, size_t len, cJSON **out,
                  struct pl_error *err)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	struct conv c = {&doc, path, 0, 0, 0, 0, len, 0, err};
	yaml_node_t *root;
	int rc;

	*out = NULL;
	if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
		buf += 3;
		len -= 3;
	}
	if (memchr(buf, '\0', len)) {
		pl_error_at(err, path, 0, 0);
		return pl_error_set(err, PL_ESYNTAX, "invalid YAML: unexpected NUL byte");
	}
	if (!yaml_parser_initialize(&parser))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	if (!yaml_parser_load(&parser, &doc)) {
		pl_error_at(err, path, (long)parser.problem_mark.line + 1,
		            (long)parser.problem_mark.column + 1);
		rc = pl_error_set(err, PL_ESYNTAX, "invalid YAML: %s",
		                  parser.problem ? parser.problem : "cannot parse");
		yaml_parser_delete(&parser);
		return rc;
	}
	root = yaml_document_get_root_node(&doc);
	c.doc_nodes = (long)(doc.nodes.top - doc.nodes.start);
	c.max_nodes = ALIAS_RATIO * c.doc_nodes + ALIAS_SLACK;
	c.max_text = ALIAS_RATIO * len + ALIAS_TEXT_SLACK;
	if (!root) {
		pl_error_at(err, path, 0, 0);
		rc = pl_error_set(err, PL_ESYNTAX, "invalid YAML: the file holds no document");
	} else {
		rc = convert(&c, root, 0, NULL, out);
		if (rc && err && !err->file[0])
			pl_error_at(err, path, err->line, err->column);
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return rc;
}
