/*
 * descriptor.c — the perfledger benchmark descriptor (format version 1).
 *
 * A descriptor is one JSON object per run: top-level keys are the canonical
 * condition names of model.h, and "metric" (alias "metrics") holds the
 * metrics by the key grammar of schema/descriptor.md:
 *   <family>_<stat>[_ms|_s]   family: ttft, tpot, itl, e2el (no suffix or _s
 *                             = seconds, _ms = milliseconds), tokens_per_second
 *                             (no suffix); stat: mean, std, min, max, p50,
 *                             median (= p50), p90, p95, p99, p99_9 (= p99.9)
 *   duration[_ms|_s] and the plain metrics listed in plain_metrics[].
 * Unknown top-level keys and unknown metrics are rejected, never dropped:
 * a misspelled condition must not vanish silently. Keys starting with "x_"
 * or "_" are extension / comment keys and are ignored.
 */
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"
#include "core/hash.h"

static const char *const descriptor_mapping[] = {
	"<condition name> -> that condition (strings; numbers for counts/rates; \"inf\" allowed)",
	"metric.<canonical metric name> -> that metric (its canonical unit)",
	"metric.<family>_<stat> -> <family>_<stat> (s; no suffix = seconds)",
	"metric.<family>_<stat>_s -> <family>_<stat> (s)",
	"metric.<family>_<stat>_ms -> <family>_<stat> (s, value / 1000)",
	"metric.<family>_median[_ms|_s] -> <family>_p50",
	"metric.<family>_p99.9[_ms|_s] -> <family>_p99_9",
	"metric.tokens_per_second_<stat> -> tokens_per_second_<stat> (tok/s; no suffix)",
	"metric.duration[_ms|_s] -> duration (s)",
	"metric.goodput_slo_{ttft,tpot,e2el}[_ms|_s] -> same (s): the SLO goodput was counted against",
	"metric.spec_acceptance_rate, spec_acceptance_rate_pos1..8, correct_rate -> same (fraction 0..1); spec_acceptance_length -> same",
	"metric.output_throughput, total_token_throughput -> same (tok/s)",
	"metric.request_throughput, goodput -> same (req/s)",
	"metric.error_rate -> error_rate (fraction 0..1)",
	"metric.requests_completed, requests_failed, total_input_tokens, total_output_tokens -> same (count)",
	"metric.gpu_memory_bytes -> gpu_memory_bytes (bytes); metric.power_watts -> power_watts (W)",
	"metrics -> alias of metric; x_*, _* -> ignored (extension / comment keys)",
	NULL,
};

static const struct pl_field descriptor_fields[] = {
	{"<condition name>", PL_FATE_CONDITION, "that condition (every name of schema/descriptor.md)"},
	{"{metric,metrics}.<family>_<stat>[_ms|_s]", PL_FATE_METRIC,
	 "<family>_<stat> (s; _ms / 1000; median = p50, p99.9 = p99_9)"},
	{"{metric,metrics}.tokens_per_second_<stat>", PL_FATE_METRIC, "tokens_per_second_<stat> (tok/s)"},
	{"{metric,metrics}.<plain metric>", PL_FATE_METRIC,
	 "the metric of that name (duration[_ms|_s], throughputs, goodput, error_rate, counts, gpu_memory_bytes, power_watts)"},
	{"descriptor_version", PL_FATE_DERIVED, "checked: only \"1\" is read"},
	{"{commit,branch,build_id,ci_run_url}", PL_FATE_CONDITION,
	 "build identity of the run (provenance, not in the condition key)"},
	{"{x_*,_*}", PL_FATE_IGNORED, "extension and comment keys, by schema/descriptor.md"},
	{NULL, 0, NULL},
};

static const struct pl_format_version descriptor_inventory[] = {
	{.version = "1", .note = "the perfledger descriptor of schema/descriptor.md", .fields = descriptor_fields,
	 .closed = 1},
	{.version = NULL},
};

static const struct pl_adapter_info descriptor_info = {
	.name = "descriptor",
	.versions = "1",
	.description = "perfledger benchmark descriptor (schema/descriptor.md): one object, an array, or JSONL",
	.mapping = descriptor_mapping,
	.inventory = descriptor_inventory,
};

static const char *const time_families[] = {"ttft", "tpot", "itl", "e2el", NULL};

/* Statistic spellings, longest first where one is a prefix of another. */
static const struct {
	const char *spelling;
	const char *canonical;
} stats[] = {
	{"p99_9", "p99_9"}, {"p99.9", "p99_9"}, {"median", "p50"}, {"mean", "mean"},
	{"std", "std"},     {"min", "min"},     {"max", "max"},    {"p50", "p50"},
	{"p90", "p90"},     {"p95", "p95"},     {"p99", "p99"},
};

static const char *const plain_metrics[] = {
	"goodput_slo_ttft", "goodput_slo_tpot", "goodput_slo_e2el", /* before "goodput" */
	"output_throughput", "total_token_throughput", "request_throughput", "goodput",
	"error_rate", "requests_completed", "requests_failed", "total_input_tokens",
	"total_output_tokens", "gpu_memory_bytes", "power_watts", "duration", NULL,
};

static int unit_error(const char *key, const char *suffix, int is_time, struct pl_error *err)
{
	pl_error_field(err, key);
	if (is_time)
		return pl_error_set(err, PL_EINVALID,
		                    "unknown unit '%s' in metric '%s' (use no suffix or _s for seconds, "
		                    "_ms for milliseconds)",
		                    suffix + 1, key);
	return pl_error_set(err, PL_EINVALID,
	                    "unknown unit '%s' in metric '%s' (this metric takes no unit suffix)",
	                    suffix + 1, key);
}

/* Unit suffix after a metric name: "" or (time only) "_s" / "_ms". */
static int parse_suffix(const char *key, const char *after, int is_time, int *exp10,
                        struct pl_error *err)
{
	if (*after == '\0') {
		*exp10 = 0;
		return 0;
	}
	if (is_time && strcmp(after, "_s") == 0) {
		*exp10 = 0;
		return 0;
	}
	if (is_time && strcmp(after, "_ms") == 0) {
		*exp10 = -3;
		return 0;
	}
	return unit_error(key, after, is_time, err);
}

/* Maps a descriptor metric key to a metric id and the power of ten that
 * converts its unit to the canonical one (-3 for _ms).
 * Returns 0, or PL_EINVALID for an unknown metric or unit. */
static int parse_metric_key(const char *key, int *id, int *exp10, struct pl_error *err)
{
	char name[96];
	size_t n;

	/* every canonical name, in its canonical unit: what `list --format json`
	 * and `export` print (output_throughput_per_accelerator, ...) reads back */
	if ((*id = pl_metric_lookup(key)) >= 0) {
		*exp10 = 0;
		return 0;
	}

	for (int f = 0; f < 5; f++) {
		const char *fam = f < 4 ? time_families[f] : "tokens_per_second";
		size_t fl = strlen(fam);
		if (strncmp(key, fam, fl) != 0 || key[fl] != '_')
			continue;
		for (size_t s = 0; s < sizeof(stats) / sizeof(stats[0]); s++) {
			const char *rest = key + fl + 1;
			size_t sl = strlen(stats[s].spelling);
			const char *after = rest + sl;
			if (strncmp(rest, stats[s].spelling, sl) != 0 || (*after && *after != '_'))
				continue;
			if (parse_suffix(key, after, f < 4, exp10, err))
				return PL_EINVALID;
			/* "<family>_<canonical stat>": both parts are short constants
			 * (at most 17 + 1 + 5 bytes); no printf on the hot path */
			n = strlen(stats[s].canonical);
			memcpy(name, fam, fl);
			name[fl] = '_';
			memcpy(name + fl + 1, stats[s].canonical, n + 1);
			*id = pl_metric_lookup(name);
			return 0;
		}
	}
	for (int i = 0; plain_metrics[i]; i++) {
		n = strlen(plain_metrics[i]);
		if (strncmp(key, plain_metrics[i], n) != 0 || (key[n] && key[n] != '_'))
			continue;
		if (parse_suffix(key, key + n,
		                 pl_metric_info[pl_metric_lookup(plain_metrics[i])].unit == PL_U_SECONDS,
		                 exp10, err))
			return PL_EINVALID;
		*id = pl_metric_lookup(plain_metrics[i]);
		return 0;
	}
	pl_error_field(err, key);
	return pl_error_set(err, PL_EINVALID,
	                    "unknown metric '%s' (see schema/descriptor.md for metric names)", key);
}

/* parse_metric_key() of the same few keys runs for every record of a file
 * and every file of an import, so the keys it accepted are remembered: a
 * small direct-mapped table per thread (no lock), slotted by a hash of the
 * key and confirmed by comparing it. Only successes are kept, so every
 * error is still built by parse_metric_key() itself. */
#define KEY_MEMO_SLOTS 64
#define KEY_MEMO_LEN 40 /* longer keys are not remembered */

struct key_memo {
	char key[KEY_MEMO_LEN]; /* "" when the slot is empty */
	int id, exp10;
};

static _Thread_local struct key_memo key_memo[KEY_MEMO_SLOTS];

static int metric_key(const char *key, int *id, int *exp10, struct pl_error *err)
{
	size_t n = strnlen(key, KEY_MEMO_LEN);
	struct key_memo *m;
	int rc;

	if (n == 0 || n >= KEY_MEMO_LEN) /* "" would match an empty slot */
		return parse_metric_key(key, id, exp10, err);
	m = &key_memo[pl_hash64(key, n) % KEY_MEMO_SLOTS];
	if (memcmp(m->key, key, n + 1) == 0) {
		*id = m->id;
		*exp10 = m->exp10;
		return 0;
	}
	rc = parse_metric_key(key, id, exp10, err);
	if (rc == 0) {
		memcpy(m->key, key, n + 1);
		m->id = *id;
		m->exp10 = *exp10;
	}
	return rc;
}

int pl_descriptor_metrics(const cJSON *metrics, struct pl_run *run, struct pl_error *err)
{
	const char *given[PL_METRIC_COUNT] = {0};
	const cJSON *m;

	cJSON_ArrayForEach(m, metrics)
	{
		int id = PL_M_NONE;
		int exp10 = 0, rc;
		const char *key = m->string;

		if (metric_key(key, &id, &exp10, err))
			return PL_EINVALID;
		if (id < 0) { /* cannot happen: the grammar only builds known names */
			pl_error_field(err, key);
			return pl_error_set(err, PL_EINVALID, "unknown metric '%s'", key);
		}
		if (cJSON_IsNull(m))
			continue;
		if (!cJSON_IsNumber(m)) {
			pl_error_field(err, key);
			if (cJSON_IsString(m) && m->valuestring && strcmp(m->valuestring, "inf") == 0)
				return pl_error_set(err, PL_EINVALID,
				                    "metric '%s' must be a finite number, got Infinity", key);
			if (cJSON_IsString(m))
				return pl_error_set(err, PL_EINVALID,
				                    "metric '%s' must be a JSON number, got the string \"%.60s\"",
				                    key, m->valuestring);
			return pl_error_set(err, PL_EINVALID, "metric '%s' must be a JSON number, got %s", key,
			                    pl_json_type_name(m));
		}
		if (given[id]) {
			pl_error_field(err, key);
			return pl_error_set(err, PL_EINVALID, "metrics '%s' and '%s' both give '%s'",
			                    given[id], key, pl_metric_info[id].name);
		}
		given[id] = key;
		if ((rc = pl_adapter_metric(run, id, m->valuedouble, exp10, key, 0, err)))
			return rc;
	}
	return 0;
}

static int is_extension_key(const char *k)
{
	return k[0] == '_' || strncmp(k, "x_", 2) == 0;
}

int pl_adapter_conditions_from(const cJSON *obj, const char *const *skip, struct pl_run *run,
                               struct pl_error *err)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, obj)
	{
		const char *k = it->string;
		int id, skipped = 0, mid, exp10;

		for (size_t i = 0; skip && skip[i]; i++)
			if (strcmp(k, skip[i]) == 0)
				skipped = 1;
		if (skipped || is_extension_key(k))
			continue;
		id = pl_cond_lookup(k);
		if (id >= 0) {
			int rc = pl_json_set_cond(run, id, it, k, err);
			if (rc)
				return rc;
			continue;
		}
		if ((id = pl_build_lookup(k)) >= 0) { /* build identity: provenance */
			int rc;
			pl_error_field(err, k);
			if (!cJSON_IsString(it) || !it->valuestring)
				return pl_error_set(err, PL_EINVALID, "%s: expected a string, got %s", k,
				                    pl_json_type_name(it));
			if ((rc = pl_run_set_build(run, id, it->valuestring, err)))
				return rc;
			continue;
		}
		pl_error_field(err, k);
		if (parse_metric_key(k, &mid, &exp10, NULL) == 0)
			return pl_error_set(err, PL_EINVALID,
			                    "unknown field '%s' (metrics go inside the \"metric\" object)", k);
		return pl_error_set(err, PL_EINVALID, "unknown field '%s'", k);
	}
	return 0;
}

static int descriptor_detect(struct pl_adapter_input *in)
{
	const cJSON *obj = pl_adapter_input_first(in);

	return obj && (cJSON_IsObject(pl_json_get(obj, "metric")) ||
	       cJSON_IsObject(pl_json_get(obj, "metrics")) ||
	       (pl_json_get(obj, "model") && pl_json_get(obj, "engine")));
}

static int descriptor_convert(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	static const char *const own_keys[] = {"metric", "metrics", "descriptor_version", NULL};
	const cJSON *metric = pl_json_get(obj, "metric");
	const cJSON *metrics = pl_json_get(obj, "metrics");
	const cJSON *version = pl_json_get(obj, "descriptor_version");
	int rc;

	if (version && !(cJSON_IsString(version) && strcmp(version->valuestring, "1") == 0) &&
	    !(cJSON_IsNumber(version) && version->valuedouble == 1)) {
		pl_error_field(err, "descriptor_version");
		return pl_error_set(err, PL_EINVALID,
		                    "unsupported descriptor_version (this program reads version \"1\")");
	}
	rc = pl_adapter_conditions_from(obj, own_keys, run, err);
	if (rc)
		return rc;
	if (metric && metrics) {
		pl_error_field(err, "metrics");
		return pl_error_set(err, PL_EINVALID,
		                    "both 'metric' and 'metrics' given (they are the same object; keep one)");
	}
	if (!metric)
		metric = metrics;
	if (!metric || cJSON_IsNull(metric))
		return 0; /* validation reports "no metric" with the rules */
	if (!cJSON_IsObject(metric)) {
		pl_error_field(err, metric->string);
		return pl_error_set(err, PL_EINVALID, "'%s' must be an object, got %s", metric->string,
		                    pl_json_type_name(metric));
	}
	return pl_descriptor_metrics(metric, run, err);
}

static int descriptor_parse(struct pl_adapter_input *in, struct pl_run_list *out,
                            struct pl_error *err)
{
	return pl_adapter_records(&pl_adapter_descriptor, in, descriptor_convert, out, err);
}

const struct pl_adapter_impl pl_adapter_descriptor = {
	.info = &descriptor_info,
	.format_version = "1",
	.detect = descriptor_detect,
	.parse = descriptor_parse,
};
