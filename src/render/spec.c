/*
 * spec.c — reading report definitions (spec.h).
 *
 * Uses the adapters layer's checked JSON reader (adapters/jsonread.h:
 * line/column in syntax errors, duplicate keys rejected; no type of the
 * JSON library reaches this layer). Every member is checked for its type
 * and unknown members are refused, naming the member. A bundle's manifest
 * is read back in bundle_manifest.c.
 */
#include "render/spec.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/jsonread.h"
#include "util/file.h"
#include "core/model.h"
#include "core/slo_range.h"
#include "util/suggest.h"

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
static int str_array(const char *path, const struct pl_jsonval *item, const char *key,
                     char ***out, size_t *n, struct pl_error *err)
{
	struct pl_jsonread_iter it;
	const struct pl_jsonval *e;
	const char *str;
	size_t count;

	if (pl_jsonread_type(item) != PL_JT_ARRAY)
		return bad(err, path, key, "must be an array of strings");
	pl_jsonread_length(item, &count, NULL);
	*out = calloc(count ? count : 1, sizeof(char *));
	if (!*out)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	pl_jsonread_iter(item, &it, NULL);
	while (pl_jsonread_next(&it, NULL, &e)) {
		if (pl_jsonread_string(e, &str, NULL) != 0)
			return bad_index(err, path, key, *n, "is not a string (an array of strings)");
		if (dup_str(&(*out)[(*n)], str, err))
			return PL_ENOMEM;
		(*n)++;
	}
	return 0;
}

static int parse_title(const char *path, const struct pl_jsonval *item, struct pl_report_spec *s,
                       struct pl_error *err)
{
	struct pl_jsonread_iter it;
	const struct pl_jsonval *e;
	const char *k, *str;

	if (pl_jsonread_string(item, &str, NULL) == 0)
		return dup_str(&s->title_en, str, err);
	if (pl_jsonread_type(item) != PL_JT_OBJECT)
		return bad(err, path, "title", "must be a string or an object {\"en\": ..., \"zh-CN\": ...}");
	pl_jsonread_iter(item, &it, NULL);
	while (pl_jsonread_next(&it, &k, &e)) {
		char **dst;
		if (strcmp(k, "en") == 0)
			dst = &s->title_en;
		else if (strcmp(k, "zh-CN") == 0)
			dst = &s->title_zh;
		else
			return bad_entry(err, path, "title", k,
			                 "is not a language of the report ('en' or 'zh-CN')");
		if (pl_jsonread_string(e, &str, NULL) != 0)
			return bad_entry(err, path, "title", k, "must be a string");
		if (dup_str(dst, str, err))
			return PL_ENOMEM;
	}
	return 0;
}

/* The metric an "slo" key names: "ttft_p95" or "ttft_p95_s" (seconds)
 * or "ttft_p95_ms" (milliseconds: *scale = 0.001). PL_M_NONE if none. */
static int slo_key(const char *k, double *scale)
{
	char name[64];
	size_t n = strlen(k);
	int m = pl_metric_lookup(k);

	*scale = 1;
	if (m != PL_M_NONE || n >= sizeof(name))
		return m;
	if (n > 3 && strcmp(k + n - 3, "_ms") == 0) {
		memcpy(name, k, n - 3);
		name[n - 3] = '\0';
		*scale = 0.001;
		return pl_metric_lookup(name);
	}
	if (n > 2 && strcmp(k + n - 2, "_s") == 0) {
		memcpy(name, k, n - 2);
		name[n - 2] = '\0';
		return pl_metric_lookup(name);
	}
	return PL_M_NONE;
}

/* The lower-is-better latency metric (with or without _ms) closest to an
 * unknown "slo" key, copied into out (size outn); NULL if none is close. */
static const char *slo_suggest(const char *k, char *out, size_t outn)
{
	char ms[PL_METRIC_COUNT][48];
	const char *cands[2 * PL_METRIC_COUNT], *best;
	size_t n = 0;

	for (int m = 0; m < PL_METRIC_COUNT; m++) {
		if (pl_metric_info[m].direction != PL_LOWER_IS_BETTER ||
		    pl_metric_info[m].unit != PL_U_SECONDS)
			continue;
		cands[n++] = pl_metric_info[m].name;
		snprintf(ms[m], sizeof(ms[m]), "%s_ms", pl_metric_info[m].name);
		cands[n++] = ms[m];
	}
	best = pl_suggest(k, cands, n);
	if (!best)
		return NULL;
	snprintf(out, outn, "%s", best);
	return out;
}

static int parse_slo(const char *path, const struct pl_jsonval *item, struct pl_slo *slo,
                     struct pl_error *err)
{
	struct pl_jsonread_iter it;
	const struct pl_jsonval *e;
	const char *k;

	if (pl_jsonread_type(item) != PL_JT_OBJECT)
		return bad(err, path, "slo", "must be an object of metric: upper limit");
	pl_jsonread_iter(item, &it, NULL);
	while (pl_jsonread_next(&it, &k, &e)) {
		double v, scale = 1;
		const char *unit = "s";
		int m = slo_key(k, &scale);
		const char *guess;
		if (m == PL_M_NONE) {
			char why[200], nb[64];
			const char *near = slo_suggest(k, nb, sizeof(nb));
			if (near)
				snprintf(why, sizeof(why),
				         "is not a metric; did you mean '%s'? ('perfledger compare --help' "
				         "lists them)",
				         near);
			else
				snprintf(why, sizeof(why),
				         "is not a metric ('perfledger compare --help' lists them; a limit "
				         "in milliseconds takes the suffix _ms)");
			return bad_entry(err, path, "slo", k, why);
		}
		if (pl_metric_info[m].direction != PL_LOWER_IS_BETTER)
			return bad_entry(err, path, "slo", k,
			                 "is not a lower-is-better metric (an SLO is an upper limit)");
		if (scale != 1)
			unit = "ms";
		if (pl_jsonread_number(e, &v, NULL) != 0 || !(v > 0) || !isfinite(v))
			return bad_entry(err, path, "slo", k,
			                 scale != 1 ? "must be a positive number (milliseconds)"
			                            : "must be a positive number (seconds)");
		v *= scale;
		for (size_t i = 0; i < slo->n; i++)
			if (slo->metric[i] == m)
				return bad_entry(err, path, "slo", k,
				                 "limits a metric another entry limits already (ms and s "
				                 "keys name the same metric)");
		if ((guess = pl_slo_probable_unit(m, v)) != NULL) {
			char why[300], lim[64];
			double lo, hi;
			pl_slo_range(m, &lo, &hi);
			snprintf(lim, sizeof(lim), "%g %s", v / scale, unit);
			snprintf(why, sizeof(why),
			         "limit %s is outside the plausible range of %s (%g s to %g s); it "
			         "probably means %s: write '%s%s': %g",
			         lim, pl_metric_info[m].name, lo, hi,
			         strcmp(guess, "ms") == 0 ? "milliseconds" : "seconds",
			         pl_metric_info[m].name, strcmp(guess, "ms") == 0 ? "_ms" : "",
			         v / scale);
			return bad_entry(err, path, "slo", k, why);
		}
		{
			double lo, hi;
			if (pl_slo_range(m, &lo, &hi) && (v < lo || v > hi)) {
				char why[200];
				snprintf(why, sizeof(why),
				         "limit %g s is outside the plausible range of %s (%g s to %g s)", v,
				         pl_metric_info[m].name, lo, hi);
				return bad_entry(err, path, "slo", k, why);
			}
		}
		if (slo->n >= PL_SLO_MAX)
			return bad(err, path, "slo", "has too many limits");
		slo->metric[slo->n] = m;
		slo->limit[slo->n] = v;
		slo->n++;
	}
	return 0;
}

/* The per-token prices of one API (hw): both, nothing else. */
static int parse_token_prices(const char *path, const char *hw, const struct pl_jsonval *e,
                              struct pl_price *pr, struct pl_error *err)
{
	struct pl_jsonread_iter it;
	const struct pl_jsonval *p;
	const char *k;
	int nin = 0, nout = 0;

	pl_jsonread_iter(e, &it, NULL);
	while (pl_jsonread_next(&it, &k, &p)) {
		double v;
		if (pl_jsonread_number(p, &v, NULL) != 0)
			v = -1;
		if (strcmp(k, "per_million_input_tokens") == 0)
			pr->per_m_input = v, nin++;
		else if (strcmp(k, "per_million_output_tokens") == 0)
			pr->per_m_output = v, nout++;
		else
			return bad_entry(err, path, "prices", hw,
			                 "takes only 'per_million_input_tokens' and "
			                 "'per_million_output_tokens' (per-token prices)");
		if (!(v >= 0) || !isfinite(v))
			return bad_entry(err, path, "prices", hw, "prices must be non-negative numbers");
	}
	if (nin != 1 || nout != 1)
		return bad_entry(err, path, "prices", hw,
		                 "needs both 'per_million_input_tokens' and "
		                 "'per_million_output_tokens' (per-token prices)");
	pr->per_token = 1;
	return 0;
}

static int parse_prices(const char *path, const struct pl_jsonval *item, struct pl_report_spec *s,
                        struct pl_error *err)
{
	struct pl_jsonread_iter it;
	const struct pl_jsonval *e;
	const char *k;
	size_t n;

	if (pl_jsonread_type(item) != PL_JT_OBJECT)
		return bad(err, path, "prices", "must be an object of hardware: price per hour");
	pl_jsonread_length(item, &n, NULL);
	s->prices = calloc(n ? n : 1, sizeof(*s->prices));
	if (!s->prices)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	pl_jsonread_iter(item, &it, NULL);
	while (pl_jsonread_next(&it, &k, &e)) {
		struct pl_price pr;
		char *hw;
		double v;
		int rc;
		memset(&pr, 0, sizeof(pr));
		if (pl_jsonread_type(e) == PL_JT_OBJECT) {
			/* an API billed per token */
			if ((rc = parse_token_prices(path, k, e, &pr, err)) != 0)
				return rc;
		} else if (pl_jsonread_number(e, &v, NULL) != 0 || !(v >= 0) || !isfinite(v)) {
			return bad_entry(err, path, "prices", k,
			                 "must be a non-negative number (price per hour) or an object of "
			                 "per-token prices");
		} else {
			pr.price_per_hour = v;
		}
		if (dup_str(&hw, k, err))
			return PL_ENOMEM;
		pr.hardware = hw;
		s->prices[s->nprices++] = pr;
	}
	return 0;
}

static int parse_flags(const char *path, const struct pl_jsonval *item, const char *key,
                       const char *const *names, const unsigned *bits, size_t nnames,
                       unsigned *out, struct pl_error *err)
{
	struct pl_jsonread_iter it;
	const struct pl_jsonval *e;
	size_t at = 0;

	if (pl_jsonread_type(item) != PL_JT_ARRAY)
		return bad(err, path, key, "must be an array of strings");
	pl_jsonread_iter(item, &it, NULL);
	while (pl_jsonread_next(&it, NULL, &e)) {
		size_t i;
		const char *str;
		char what[200] = "is unknown (known:";

		if (pl_jsonread_string(e, &str, NULL) != 0)
			return bad_index(err, path, key, at, "is not a string (an array of strings)");
		for (i = 0; i < nnames; i++)
			if (strcmp(str, names[i]) == 0)
				break;
		if (i == nnames) {
			for (i = 0; i < nnames; i++) {
				size_t len = strlen(what);
				snprintf(what + len, sizeof(what) - len, " %s%s", names[i],
				         i + 1 < nnames ? "," : ")");
			}
			return bad_entry(err, path, key, str, what);
		}
		*out |= bits[i];
		at++;
	}
	return 0;
}

int pl_spec_time_ok(const char *t)
{
	static const char form[] = "dddd-dd-ddTdd:dd:ddZ";

	if (!t || strlen(t) != sizeof(form) - 1)
		return 0;
	for (size_t i = 0; form[i]; i++)
		if (form[i] == 'd' ? !(t[i] >= '0' && t[i] <= '9') : t[i] != form[i])
			return 0;
	return 1;
}

int pl_spec_bundle_id_ok(const char *id)
{
	if (!id || strlen(id) != PL_SPEC_BUNDLE_ID_LEN || strncmp(id, "plb1-", 5) != 0)
		return 0;
	for (const char *p = id + 5; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return 0;
	return 1;
}

/* "since": {"bundle": "plb1-...", "as_of": "YYYY-MM-DDTHH:MM:SSZ"}. */
static int parse_since(const char *path, const struct pl_jsonval *item, struct pl_report_spec *s,
                       struct pl_error *err)
{
	struct pl_jsonread_iter it;
	const struct pl_jsonval *e;
	const char *k, *str;
	int rc = 0;

	if (pl_jsonread_type(item) != PL_JT_OBJECT)
		return bad(err, path, "since", "must be an object {\"bundle\": ID, \"as_of\": TIME}");
	pl_jsonread_iter(item, &it, NULL);
	while (rc == 0 && pl_jsonread_next(&it, &k, &e)) {
		if (strcmp(k, "bundle") == 0 && pl_jsonread_string(e, &str, NULL) == 0 &&
		    pl_spec_bundle_id_ok(str))
			rc = dup_str(&s->since_bundle, str, err);
		else if (strcmp(k, "as_of") == 0 && pl_jsonread_string(e, &str, NULL) == 0 &&
		         pl_spec_time_ok(str))
			rc = dup_str(&s->since_at, str, err);
		else
			rc = bad(err, path, "since",
			         "must be {\"bundle\": \"plb1-\" and 32 hex digits, \"as_of\": "
			         "\"YYYY-MM-DDTHH:MM:SSZ\"}");
	}
	if (rc == 0 && (!s->since_bundle || !s->since_at))
		rc = bad(err, path, "since", "needs both \"bundle\" and \"as_of\"");
	return rc;
}

int pl_spec_add_inputs(struct pl_report_spec *s, const char *as_of, const char *since_bundle,
                       const char *since_at, struct pl_error *err)
{
	size_t end = s->nbytes, extra;
	char *add, *nb;

	if ((as_of && s->as_of) || (since_bundle && s->since_bundle))
		return pl_error_set(err, PL_EUSAGE, "the definition has its own '%s'; it cannot be "
		                                    "given on the command line too",
		                    as_of && s->as_of ? "as_of" : "since");
	if (!as_of && !since_bundle)
		return 0;
	while (end > 0 && s->bytes[end - 1] != '}')
		end--;
	if (end == 0)
		return pl_error_set(err, PL_EINVALID, "the definition does not end in '}'");
	end--; /* at the '}' */
	while (end > 0 && (s->bytes[end - 1] == ' ' || s->bytes[end - 1] == '\n' ||
	                   s->bytes[end - 1] == '\t' || s->bytes[end - 1] == '\r'))
		end--;
	extra = 160;
	if (!(add = malloc(extra)) || !(nb = malloc(end + 2 * extra + 8))) {
		free(add);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	memcpy(nb, s->bytes, end);
	s->nbytes = end;
	if (since_bundle) {
		int n = snprintf(add, extra, ",\n  \"since\": {\"bundle\": \"%s\", \"as_of\": \"%s\"}",
		                 since_bundle, since_at);
		memcpy(nb + s->nbytes, add, (size_t)n);
		s->nbytes += (size_t)n;
		if (dup_str(&s->since_bundle, since_bundle, err) || dup_str(&s->since_at, since_at, err))
			goto oom;
	}
	if (as_of) {
		int n = snprintf(add, extra, ",\n  \"as_of\": \"%s\"", as_of);
		memcpy(nb + s->nbytes, add, (size_t)n);
		s->nbytes += (size_t)n;
		if (dup_str(&s->as_of, as_of, err))
			goto oom;
	}
	memcpy(nb + s->nbytes, "\n}\n", 3);
	s->nbytes += 3;
	free(add);
	free(s->bytes);
	s->bytes = nb;
	return 0;
oom:
	free(add);
	free(nb);
	return PL_ENOMEM;
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

/* A currency code or symbol: 1 to 8 bytes of ASCII letters and digits,
 * '$', '.', and the signs below (it is printed in every table and sheet,
 * so no control, bidi or markup character gets in). */
static int currency_ok(const char *s)
{
	static const char *const signs[] = {"\u20ac", "\u00a3", "\u00a5", "\u20b9", "\u5143",
	                                    "\u20a9", "\u20bd", "\u20a3"};
	size_t n = strlen(s);

	if (n == 0 || n > 8)
		return 0;
	while (*s) {
		size_t k;
		if ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		    *s == '$' || *s == '.') {
			s++;
			continue;
		}
		for (k = 0; k < sizeof(signs) / sizeof(signs[0]); k++)
			if (strncmp(s, signs[k], strlen(signs[k])) == 0)
				break;
		if (k == sizeof(signs) / sizeof(signs[0]))
			return 0;
		s += strlen(signs[k]);
	}
	return 1;
}

int pl_spec_load(const char *path, struct pl_report_spec *s, struct pl_error *err)
{
	static const char *const chart_names[] = {"bars", "sweep", "pareto"};
	static const unsigned chart_bits[] = {PL_CHART_BARS, PL_CHART_SWEEP, PL_CHART_PARETO};
	static const char *const sheet_names[] = {"procurement", "checklist"};
	static const unsigned sheet_bits[] = {PL_SHEET_PROCUREMENT, PL_SHEET_CHECKLIST};
	struct pl_jsonread *doc = NULL;
	const struct pl_jsonval *root, *e;
	struct pl_jsonread_iter it;
	const char *k, *str;
	int rc;

	memset(s, 0, sizeof(*s));
	s->charts = PL_CHART_BARS;
	rc = pl_file_read(path, PL_SPEC_MAX_BYTES, &s->bytes, &s->nbytes, err);
	if (rc)
		return rc;
	rc = pl_jsonread_parse(path, s->bytes, s->nbytes, &doc, err);
	if (rc)
		return rc;
	root = pl_jsonread_root(doc);
	if (pl_jsonread_type(root) != PL_JT_OBJECT) {
		pl_jsonread_free(doc);
		pl_error_set(err, PL_EINVALID, "a report definition must be a JSON object");
		pl_error_at(err, path, 0, 0);
		return PL_EINVALID;
	}
	pl_jsonread_iter(root, &it, NULL);
	while (rc == 0 && pl_jsonread_next(&it, &k, &e)) {
		if (strcmp(k, "name") == 0) {
			if (pl_jsonread_string(e, &str, NULL) != 0 || !safe_name(str))
				rc = bad(err, path, k, "must be a name of a-z, 0-9, '-' and '_'");
			else
				rc = dup_str(&s->name, str, err);
		} else if (strcmp(k, "title") == 0) {
			rc = parse_title(path, e, s, err);
		} else if (strcmp(k, "where") == 0) {
			rc = str_array(path, e, k, &s->where, &s->nwhere, err);
		} else if (strcmp(k, "axis") == 0) {
			if (pl_jsonread_string(e, &str, NULL) != 0)
				rc = bad(err, path, k, "must be a string such as \"hardware\"");
			else
				rc = dup_str(&s->axis, str, err);
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
		} else if (strcmp(k, "currency") == 0) {
			if (pl_jsonread_string(e, &str, NULL) != 0 || !currency_ok(str))
				rc = bad(err, path, k,
				         "must be a currency code such as \"USD\" or a currency sign "
				         "(at most 8 bytes)");
			else
				rc = dup_str(&s->currency, str, err);
		} else if (strcmp(k, "description") == 0) {
			rc = pl_jsonread_string(e, &str, NULL) == 0 ? 0 : bad(err, path, k, "must be a string");
		} else if (strcmp(k, "as_of") == 0) {
			if (pl_jsonread_string(e, &str, NULL) != 0 || !pl_spec_time_ok(str))
				rc = bad(err, path, k, "must be a UTC time \"YYYY-MM-DDTHH:MM:SSZ\"");
			else
				rc = dup_str(&s->as_of, str, err);
		} else if (strcmp(k, "since") == 0) {
			rc = parse_since(path, e, s, err);
		} else {
			rc = bad(err, path, k, "is not a report definition member");
		}
	}
	pl_jsonread_free(doc);
	if (rc == 0 && !s->name)
		rc = bad(err, path, "name", "is required");
	if (rc == 0 && !s->axis)
		rc = bad(err, path, "axis", "is required");
	if (rc == 0 && s->nprices > 0 && !s->currency)
		rc = bad(err, path, "currency",
		         "is required with 'prices' (the prices' currency, e.g. \"USD\")");
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
	free(s->as_of);
	free(s->since_bundle);
	free(s->since_at);
	free(s->title_en);
	free(s->title_zh);
	free_strs(s->where, s->nwhere);
	free(s->axis);
	free(s->currency);
	free_strs(s->metrics, s->nmetrics);
	free_strs(s->allow, s->nallow);
	for (size_t i = 0; s->prices && i < s->nprices; i++)
		free((char *)s->prices[i].hardware);
	free(s->prices);
	free(s->bytes);
	memset(s, 0, sizeof(*s));
}
