/*
 * spec.c — reading report definitions and bundle manifests (spec.h).
 *
 * Uses the adapters layer's checked JSON parser (pl_json_parse_value:
 * line/column in errors, duplicate keys rejected). Every member is checked
 * for its type and unknown members are refused, naming the member.
 */
#include "render/spec.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/json_util.h"
#include "core/model.h"

int pl_read_file(const char *path, char **buf, size_t *len, struct pl_error *err)
{
	FILE *fp = fopen(path, "rb");
	char *b = NULL;
	size_t n = 0, cap = 0;

	*buf = NULL;
	*len = 0;
	if (!fp)
		return pl_error_set(err, PL_EIO, "cannot open '%s': %s", path, strerror(errno));
	for (;;) {
		size_t k;
		if (cap - n < 4096) {
			char *p = realloc(b, cap + 65536);
			if (!p) {
				free(b);
				fclose(fp);
				return pl_error_set(err, PL_ENOMEM, "out of memory");
			}
			b = p;
			cap += 65536;
		}
		k = fread(b + n, 1, cap - n - 1, fp);
		n += k;
		if (k == 0)
			break;
	}
	if (ferror(fp)) {
		free(b);
		fclose(fp);
		return pl_error_set(err, PL_EIO, "cannot read '%s'", path);
	}
	fclose(fp);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

static int bad(struct pl_error *err, const char *path, const char *key, const char *what)
{
	pl_error_set(err, PL_EINVALID, "'%.100s' %s", key, what); /* key may come from the file */
	pl_error_at(err, path, 0, 0);
	pl_error_field(err, key);
	return PL_EINVALID;
}

/* As bad(), naming the entry of key that is wrong: "'slo' entry
 * 'output_throughput' is not ..." (entry cut at 100 bytes). */
static int bad_entry(struct pl_error *err, const char *path, const char *key, const char *entry,
                     const char *what)
{
	pl_error_set(err, PL_EINVALID, "'%s' entry '%.100s' %s", key, entry, what);
	pl_error_at(err, path, 0, 0);
	pl_error_field(err, key);
	return PL_EINVALID;
}

/* As bad(), naming the entry at index i of an array. */
static int bad_index(struct pl_error *err, const char *path, const char *key, size_t i,
                     const char *what)
{
	pl_error_set(err, PL_EINVALID, "'%s' entry %zu (counting from 0) %s", key, i, what);
	pl_error_at(err, path, 0, 0);
	pl_error_field(err, key);
	return PL_EINVALID;
}

static int dup_str(char **out, const char *s, struct pl_error *err)
{
	*out = strdup(s);
	return *out ? 0 : pl_error_set(err, PL_ENOMEM, "out of memory");
}

/* A JSON array of strings into a heap array. */
static int str_array(const char *path, const cJSON *item, const char *key, char ***out, size_t *n,
                     struct pl_error *err)
{
	size_t count = 0;
	const cJSON *e;

	if (!cJSON_IsArray(item))
		return bad(err, path, key, "must be an array of strings");
	cJSON_ArrayForEach(e, item) count++;
	*out = calloc(count ? count : 1, sizeof(char *));
	if (!*out)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	cJSON_ArrayForEach(e, item)
	{
		if (!cJSON_IsString(e))
			return bad_index(err, path, key, *n, "is not a string (an array of strings)");
		if (dup_str(&(*out)[(*n)], e->valuestring, err))
			return PL_ENOMEM;
		(*n)++;
	}
	return 0;
}

static int parse_title(const char *path, const cJSON *item, struct pl_report_spec *s,
                       struct pl_error *err)
{
	const cJSON *e;

	if (cJSON_IsString(item))
		return dup_str(&s->title_en, item->valuestring, err);
	if (!cJSON_IsObject(item))
		return bad(err, path, "title", "must be a string or an object {\"en\": ..., \"zh-CN\": ...}");
	cJSON_ArrayForEach(e, item)
	{
		char **dst;
		if (strcmp(e->string, "en") == 0)
			dst = &s->title_en;
		else if (strcmp(e->string, "zh-CN") == 0)
			dst = &s->title_zh;
		else
			return bad_entry(err, path, "title", e->string,
			                 "is not a language of the report ('en' or 'zh-CN')");
		if (!cJSON_IsString(e))
			return bad_entry(err, path, "title", e->string, "must be a string");
		if (dup_str(dst, e->valuestring, err))
			return PL_ENOMEM;
	}
	return 0;
}

static int parse_slo(const char *path, const cJSON *item, struct pl_slo *slo, struct pl_error *err)
{
	const cJSON *e;

	if (!cJSON_IsObject(item))
		return bad(err, path, "slo", "must be an object of metric: upper limit");
	cJSON_ArrayForEach(e, item)
	{
		int m = pl_metric_lookup(e->string);
		if (m == PL_M_NONE)
			return bad_entry(err, path, "slo", e->string,
			                 "is not a metric ('perfledger compare --help' lists them)");
		if (pl_metric_info[m].direction != PL_LOWER_IS_BETTER)
			return bad_entry(err, path, "slo", e->string,
			                 "is not a lower-is-better metric (an SLO is an upper limit)");
		if (!cJSON_IsNumber(e) || !(e->valuedouble > 0))
			return bad_entry(err, path, "slo", e->string,
			                 "must be a positive number (seconds)");
		if (slo->n >= PL_SLO_MAX)
			return bad(err, path, "slo", "has too many limits");
		slo->metric[slo->n] = m;
		slo->limit[slo->n] = e->valuedouble;
		slo->n++;
	}
	return 0;
}

static int parse_prices(const char *path, const cJSON *item, struct pl_report_spec *s,
                        struct pl_error *err)
{
	const cJSON *e;
	size_t n = 0;

	if (!cJSON_IsObject(item))
		return bad(err, path, "prices", "must be an object of hardware: price per hour");
	cJSON_ArrayForEach(e, item) n++;
	s->prices = calloc(n ? n : 1, sizeof(*s->prices));
	if (!s->prices)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	cJSON_ArrayForEach(e, item)
	{
		struct pl_price pr;
		char *hw;
		memset(&pr, 0, sizeof(pr));
		if (cJSON_IsObject(e)) {
			/* an API billed per token: both prices, nothing else */
			const cJSON *k;
			int nin = 0, nout = 0;
			cJSON_ArrayForEach(k, e)
			{
				double v = cJSON_IsNumber(k) ? k->valuedouble : -1;
				if (strcmp(k->string, "per_million_input_tokens") == 0)
					pr.per_m_input = v, nin++;
				else if (strcmp(k->string, "per_million_output_tokens") == 0)
					pr.per_m_output = v, nout++;
				else
					return bad_entry(err, path, "prices", e->string,
					                 "takes only 'per_million_input_tokens' and "
					                 "'per_million_output_tokens' (per-token prices)");
				if (!(v >= 0) || !isfinite(v))
					return bad_entry(err, path, "prices", e->string,
					                 "prices must be non-negative numbers");
			}
			if (nin != 1 || nout != 1)
				return bad_entry(err, path, "prices", e->string,
				                 "needs both 'per_million_input_tokens' and "
				                 "'per_million_output_tokens' (per-token prices)");
			pr.per_token = 1;
		} else if (!cJSON_IsNumber(e) || !(e->valuedouble >= 0) || !isfinite(e->valuedouble)) {
			return bad_entry(err, path, "prices", e->string,
			                 "must be a non-negative number (price per hour) or an object of "
			                 "per-token prices");
		} else {
			pr.price_per_hour = e->valuedouble;
		}
		if (dup_str(&hw, e->string, err))
			return PL_ENOMEM;
		pr.hardware = hw;
		s->prices[s->nprices++] = pr;
	}
	return 0;
}

static int parse_flags(const char *path, const cJSON *item, const char *key,
                       const char *const *names, const unsigned *bits, size_t nnames,
                       unsigned *out, struct pl_error *err)
{
	const cJSON *e;

	if (!cJSON_IsArray(item))
		return bad(err, path, key, "must be an array of strings");
	size_t at = 0;

	cJSON_ArrayForEach(e, item)
	{
		size_t i;
		char what[200] = "is unknown (known:";

		if (!cJSON_IsString(e))
			return bad_index(err, path, key, at, "is not a string (an array of strings)");
		for (i = 0; i < nnames; i++)
			if (strcmp(e->valuestring, names[i]) == 0)
				break;
		if (i == nnames) {
			for (i = 0; i < nnames; i++) {
				size_t len = strlen(what);
				snprintf(what + len, sizeof(what) - len, " %s%s", names[i],
				         i + 1 < nnames ? "," : ")");
			}
			return bad_entry(err, path, key, e->valuestring, what);
		}
		*out |= bits[i];
		at++;
	}
	return 0;
}

static int safe_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'))
			return 0;
	return 1;
}

int pl_spec_load(const char *path, struct pl_report_spec *s, struct pl_error *err)
{
	static const char *const chart_names[] = {"bars", "sweep", "pareto"};
	static const unsigned chart_bits[] = {PL_CHART_BARS, PL_CHART_SWEEP, PL_CHART_PARETO};
	static const char *const sheet_names[] = {"procurement", "checklist"};
	static const unsigned sheet_bits[] = {PL_SHEET_PROCUREMENT, PL_SHEET_CHECKLIST};
	cJSON *root = NULL;
	const cJSON *e;
	int rc;

	memset(s, 0, sizeof(*s));
	s->charts = PL_CHART_BARS;
	rc = pl_read_file(path, &s->bytes, &s->nbytes, err);
	if (rc)
		return rc;
	rc = pl_json_parse_value(path, s->bytes, s->nbytes, &root, err);
	if (rc)
		return rc;
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		pl_error_set(err, PL_EINVALID, "a report definition must be a JSON object");
		pl_error_at(err, path, 0, 0);
		return PL_EINVALID;
	}
	cJSON_ArrayForEach(e, root)
	{
		const char *k = e->string;
		if (strcmp(k, "name") == 0) {
			if (!cJSON_IsString(e) || !safe_name(e->valuestring))
				rc = bad(err, path, k, "must be a name of a-z, 0-9, '-' and '_'");
			else
				rc = dup_str(&s->name, e->valuestring, err);
		} else if (strcmp(k, "title") == 0) {
			rc = parse_title(path, e, s, err);
		} else if (strcmp(k, "where") == 0) {
			rc = str_array(path, e, k, &s->where, &s->nwhere, err);
		} else if (strcmp(k, "axis") == 0) {
			if (!cJSON_IsString(e))
				rc = bad(err, path, k, "must be a string such as \"hardware\"");
			else
				rc = dup_str(&s->axis, e->valuestring, err);
		} else if (strcmp(k, "metrics") == 0) {
			rc = str_array(path, e, k, &s->metrics, &s->nmetrics, err);
		} else if (strcmp(k, "allow_mismatch") == 0) {
			rc = str_array(path, e, k, &s->allow, &s->nallow, err);
		} else if (strcmp(k, "slo") == 0) {
			rc = parse_slo(path, e, &s->slo, err);
		} else if (strcmp(k, "prices") == 0) {
			rc = parse_prices(path, e, s, err);
		} else if (strcmp(k, "charts") == 0) {
			s->charts = 0;
			rc = parse_flags(path, e, k, chart_names, chart_bits, 3, &s->charts, err);
		} else if (strcmp(k, "sheets") == 0) {
			rc = parse_flags(path, e, k, sheet_names, sheet_bits, 2, &s->sheets, err);
		} else if (strcmp(k, "description") == 0) {
			rc = cJSON_IsString(e) ? 0 : bad(err, path, k, "must be a string");
		} else {
			rc = bad(err, path, k, "is not a report definition member");
		}
		if (rc)
			break;
	}
	cJSON_Delete(root);
	if (rc == 0 && !s->name)
		rc = bad(err, path, "name", "is required");
	if (rc == 0 && !s->axis)
		rc = bad(err, path, "axis", "is required");
	return rc;
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* Copies n strings into a new heap array. */
static int copy_strs(char ***out, size_t *nout, const char *const *v, size_t n,
                     struct pl_error *err)
{
	*out = NULL;
	*nout = 0;
	if (n == 0)
		return 0;
	if (!(*out = calloc(n, sizeof(char *))))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (; *nout < n; (*nout)++)
		if (dup_str(&(*out)[*nout], v[*nout], err))
			return PL_ENOMEM;
	return 0;
}

int pl_spec_default(struct pl_report_spec *out, const char *axis, const char *const *where,
                    size_t nwhere, const char *const *metrics, size_t nmetrics,
                    const char *const *allow, size_t nallow, const char *title,
                    struct pl_error *err)
{
	int rc;

	memset(out, 0, sizeof(*out));
	out->builtin = 1;
	out->charts = PL_CHART_BARS;
	rc = dup_str(&out->name, "axis", err);
	if (rc == 0)
		rc = dup_str(&out->axis, axis ? axis : "", err);
	if (rc == 0 && title && *title)
		rc = dup_str(&out->title_en, title, err);
	if (rc == 0)
		rc = copy_strs(&out->where, &out->nwhere, where, nwhere, err);
	if (rc == 0)
		rc = copy_strs(&out->metrics, &out->nmetrics, metrics, nmetrics, err);
	if (rc == 0)
		rc = copy_strs(&out->allow, &out->nallow, allow, nallow, err);
	return rc;
}

void pl_spec_release(struct pl_report_spec *s)
{
	if (!s)
		return;
	free(s->name);
	free(s->title_en);
	free(s->title_zh);
	free_strs(s->where, s->nwhere);
	free(s->axis);
	free_strs(s->metrics, s->nmetrics);
	free_strs(s->allow, s->nallow);
	for (size_t i = 0; s->prices && i < s->nprices; i++)
		free((char *)s->prices[i].hardware);
	free(s->prices);
	free(s->bytes);
	memset(s, 0, sizeof(*s));
}

int pl_manifest_read(const char *path, char *lang, size_t n, long long *epoch,
                     struct pl_error *err)
{
	char *buf;
	size_t len;
	cJSON *root = NULL;
	const cJSON *l, *t;
	int rc = pl_read_file(path, &buf, &len, err);

	if (rc)
		return rc;
	rc = pl_json_parse_value(path, buf, len, &root, err);
	free(buf);
	if (rc)
		return rc;
	l = cJSON_GetObjectItemCaseSensitive(root, "lang");
	t = cJSON_GetObjectItemCaseSensitive(root, "source_date_epoch");
	if (!cJSON_IsString(l) || !cJSON_IsNumber(t) || t->valuedouble < 0) {
		cJSON_Delete(root);
		pl_error_set(err, PL_EINVALID, "not a perfledger bundle manifest (no lang or source_date_epoch)");
		pl_error_at(err, path, 0, 0);
		return PL_EINVALID;
	}
	/* the rule of SOURCE_DATE_EPOCH (pl_cli_source_date_epoch): whole
	 * seconds up to 9999-12-31T23:59:59Z; checked before the conversion */
	if (t->valuedouble > 253402300799.0 || t->valuedouble != floor(t->valuedouble)) {
		cJSON_Delete(root);
		pl_error_set(err, PL_EINVALID, "'source_date_epoch' must be a whole number of seconds "
		                               "from 0 to 253402300799");
		pl_error_at(err, path, 0, 0);
		pl_error_field(err, "source_date_epoch");
		return PL_EINVALID;
	}
	snprintf(lang, n, "%s", l->valuestring);
	*epoch = (long long)t->valuedouble;
	cJSON_Delete(root);
	return 0;
}

int pl_manifest_gnuplot(const char *path, char *buf, size_t n)
{
	char *text;
	size_t len;
	cJSON *root = NULL;
	const cJSON *g;
	struct pl_error err;
	int found = 0;

	if (n)
		buf[0] = '\0';
	pl_error_init(&err);
	if (pl_read_file(path, &text, &len, &err))
		return 0;
	if (pl_json_parse_value(path, text, len, &root, &err) == 0) {
		g = cJSON_GetObjectItemCaseSensitive(root, "gnuplot");
		if (cJSON_IsString(g)) {
			snprintf(buf, n, "%s", g->valuestring);
			found = 1;
		}
	}
	free(text);
	cJSON_Delete(root);
	return found;
}
