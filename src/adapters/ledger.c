/*
 * ledger.c — perfledger's own records read back: the lines of
 * `perfledger export` (a descriptor with "provenance", "extras" and
 * "accepted_steps") and the entries of `perfledger list --format json`
 * ("conditions", "metrics", "extras" and the provenance at the top level).
 *
 * A ledger record names the file its run was read from (path, sha256,
 * record, adapter, format version) and when it was stored; the run keeps
 * them (pl_run.provenance_given), so that importing an export recreates
 * the same runs, and importing it twice, or into the ledger it came from,
 * stores nothing new (runs are unique on sha256 and record). Conditions
 * and metrics take the names and units of the descriptor (canonical
 * names, canonical units: what export and list print). Derived fields
 * (`id`, `reference_only`, `checklist_missing`) are not read: the importer
 * computes them again. Anything else is refused by name, never dropped.
 */
#include <stdlib.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"

static const char *const ledger_mapping[] = {
	"export: <condition name> -> that condition; metric.<name> -> that metric (canonical unit)",
	"export: extras.<FORMAT.key> -> that extra condition (text)",
	"export: provenance.{source_path,sha256,record,adapter,format_version,imported_at} -> the "
	"run's provenance, kept as given",
	"export: accepted_steps[].{metric,reason,accepted_at} -> accepted steps of the run",
	"list --format json: conditions.<name>, metrics.<name>, extras.<FORMAT.key>, "
	"source, sha256, record, adapter, format_version, imported_at -> the same",
	"list --format json: id, reference_only, checklist_missing -> derived again, not read",
	NULL,
};

static const struct pl_field ledger_fields[] = {
	{"<condition name>", PL_FATE_CONDITION, "that condition (export lines)"},
	{"conditions.<condition name>", PL_FATE_CONDITION, "that condition (list entries)"},
	{"{metric,metrics}.<metric name>", PL_FATE_METRIC, "that metric, canonical unit"},
	{"extras.<FORMAT.key>", PL_FATE_CONDITION, "that extra condition"},
	{"provenance.*, source, sha256, record, adapter, format_version, imported_at",
	 PL_FATE_DERIVED, "the run's provenance, kept as given"},
	{"accepted_steps[]", PL_FATE_DERIVED, "accepted steps of the run"},
	{"id, reference_only, checklist_missing, perfledger_version", PL_FATE_IGNORED,
	 "derived again on import"},
	{NULL, 0, NULL},
};

static const struct pl_format_version ledger_inventory[] = {
	{.version = "1", .note = "perfledger export lines and list --format json entries",
	 .fields = ledger_fields, .closed = 1},
	{.version = NULL},
};

static const struct pl_adapter_info ledger_info = {
	.name = "ledger",
	.versions = "1",
	.description = "perfledger's own records: `export` JSONL and `list --format json`, "
	               "provenance kept",
	.mapping = ledger_mapping,
	.inventory = ledger_inventory,
};

/* 1 for an export line, 0 for a list entry. */
static int is_export(const cJSON *obj)
{
	return cJSON_IsObject(pl_json_get(obj, "provenance"));
}

static int ledger_detect(struct pl_adapter_input *in)
{
	const cJSON *obj = pl_adapter_input_first(in);

	if (!obj)
		return 0;
	return is_export(obj) ||
	       (cJSON_IsObject(pl_json_get(obj, "conditions")) &&
	        cJSON_IsObject(pl_json_get(obj, "metrics")) && cJSON_IsString(pl_json_get(obj, "sha256")));
}

static int bad_type(const char *key, const char *want, const cJSON *got, struct pl_error *err)
{
	pl_error_field(err, key);
	return pl_error_set(err, PL_EINVALID, "'%s' must be %s, got %s", key, want,
	                    got ? pl_json_type_name(got) : "nothing");
}

/* A string member (NULL allowed when optional and missing or null). */
static int get_text(const cJSON *obj, const char *key, int optional, const char **out,
                    struct pl_error *err)
{
	const cJSON *v = pl_json_get(obj, key);

	*out = NULL;
	if ((!v || cJSON_IsNull(v)) && optional)
		return 0;
	if (!cJSON_IsString(v) || !v->valuestring)
		return bad_type(key, "a string", v, err);
	*out = v->valuestring;
	return 0;
}

static int is_sha256(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
			return 0;
	return n == 64;
}

/* The provenance members of obj (the "provenance" object of an export
 * line, or a list entry itself; path_key names the path member). */
static int read_provenance(const cJSON *obj, const char *path_key, struct pl_run *run,
                           struct pl_error *err)
{
	const char *path, *sha, *adapter, *fv, *at;
	const cJSON *rec = pl_json_get(obj, "record");
	int rc;

	if ((rc = get_text(obj, path_key, 0, &path, err)) || (rc = get_text(obj, "sha256", 0, &sha, err)) ||
	    (rc = get_text(obj, "adapter", 0, &adapter, err)) ||
	    (rc = get_text(obj, "format_version", 1, &fv, err)) ||
	    (rc = get_text(obj, "imported_at", 0, &at, err)))
		return rc;
	if (!is_sha256(sha)) {
		pl_error_field(err, "sha256");
		return pl_error_set(err, PL_EINVALID,
		                    "'sha256' must be 64 lowercase hex digits, got \"%.80s\"", sha);
	}
	if (!cJSON_IsNumber(rec) || rec->valuedouble < 0 || rec->valuedouble > 1e15 ||
	    rec->valuedouble != (double)(long)rec->valuedouble)
		return bad_type("record", "a whole number >= 0", rec, err);
	if (pl_strset(&run->source, path) || pl_strset(&run->adapter, adapter) ||
	    pl_strset(&run->format_version, fv) || pl_strset(&run->imported_at, at))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	memcpy(run->sha256, sha, sizeof(run->sha256));
	run->record = (long)rec->valuedouble;
	run->provenance_given = 1;
	return 0;
}

static int read_extras(const cJSON *extras, struct pl_run *run, struct pl_error *err)
{
	const cJSON *e;

	if (!extras || cJSON_IsNull(extras))
		return 0;
	if (!cJSON_IsObject(extras))
		return bad_type("extras", "an object", extras, err);
	cJSON_ArrayForEach(e, extras)
	{
		int rc;

		if (!cJSON_IsString(e) || !e->valuestring)
			return bad_type(e->string, "a string (extra conditions are text)", e, err);
		if ((rc = pl_run_set_extra(run, e->string, e->valuestring, err))) {
			pl_error_field(err, e->string);
			return rc;
		}
	}
	return 0;
}

static int read_accepted(const cJSON *steps, struct pl_run *run, struct pl_error *err)
{
	const cJSON *s;

	if (!steps || cJSON_IsNull(steps))
		return 0;
	if (!cJSON_IsArray(steps))
		return bad_type("accepted_steps", "an array", steps, err);
	cJSON_ArrayForEach(s, steps)
	{
		const char *metric, *reason, *at;
		int id, rc;

		if (!cJSON_IsObject(s))
			return bad_type("accepted_steps", "an array of objects", s, err);
		if ((rc = get_text(s, "metric", 0, &metric, err)) ||
		    (rc = get_text(s, "reason", 0, &reason, err)) ||
		    (rc = get_text(s, "accepted_at", 0, &at, err)))
			return rc;
		if ((id = pl_metric_lookup(metric)) < 0) {
			pl_error_field(err, "metric");
			return pl_error_set(err, PL_EINVALID, "accepted step of unknown metric '%.80s'",
			                    metric);
		}
		if (!run->accepted && !(run->accepted = calloc(1, sizeof(*run->accepted))))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		if (pl_accepted_list_push(run->accepted, 0, id, reason, at))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	return 0;
}

static int ledger_convert(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	static const char *const export_keys[] = {"metric", "extras", "provenance", "accepted_steps",
	                                          "descriptor_version", NULL};
	static const char *const list_keys[] = {"id", "source", "sha256", "record", "adapter",
	                                        "format_version", "imported_at", "reference_only",
	                                        "checklist_missing", "conditions", "metrics",
	                                        "extras", NULL};
	const cJSON *metric;
	int rc;

	if (is_export(obj)) {
		const cJSON *v = pl_json_get(obj, "descriptor_version");

		if (v && !(cJSON_IsString(v) && strcmp(v->valuestring, "1") == 0)) {
			pl_error_field(err, "descriptor_version");
			return pl_error_set(err, PL_EINVALID,
			                    "unsupported descriptor_version (this program reads version \"1\")");
		}
		if ((rc = pl_adapter_conditions_from(obj, export_keys, run, err)) ||
		    (rc = read_provenance(pl_json_get(obj, "provenance"), "source_path", run, err)) ||
		    (rc = read_accepted(pl_json_get(obj, "accepted_steps"), run, err)))
			return rc;
		metric = pl_json_get(obj, "metric");
	} else {
		const cJSON *it;

		cJSON_ArrayForEach(it, obj)
		{
			int known = 0;
			for (size_t i = 0; list_keys[i]; i++)
				known |= strcmp(it->string, list_keys[i]) == 0;
			if (!known) {
				pl_error_field(err, it->string);
				return pl_error_set(err, PL_EINVALID, "unknown field '%s' in a perfledger list entry",
				                    it->string);
			}
		}
		if ((rc = pl_adapter_conditions_from(pl_json_get(obj, "conditions"), NULL, run, err)) ||
		    (rc = read_provenance(obj, "source", run, err)))
			return rc;
		metric = pl_json_get(obj, "metrics");
	}
	if ((rc = read_extras(pl_json_get(obj, "extras"), run, err)))
		return rc;
	if (!metric || cJSON_IsNull(metric))
		return 0; /* validation says "no metric" */
	if (!cJSON_IsObject(metric))
		return bad_type(metric->string, "an object", metric, err);
	return pl_descriptor_metrics(metric, run, err);
}

static int ledger_parse(struct pl_adapter_input *in, struct pl_run_list *out, struct pl_error *err)
{
	return pl_adapter_records(&pl_adapter_ledger, in, ledger_convert, out, err);
}

const struct pl_adapter_impl pl_adapter_ledger = {
	.info = &ledger_info,
	.format_version = "1",
	.detect = ledger_detect,
	.parse = ledger_parse,
};
