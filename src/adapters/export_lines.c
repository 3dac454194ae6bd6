/*
 * export_lines.c — perfledger's own records read back: the lines of
 * `perfledger export` (a descriptor with "provenance", "extras",
 * "accepted_steps", "revisions" and "retractions") and the entries of `perfledger list --format json`
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
#include "adapters/requests_impl.h"
#include "core/carried.h"

static const char *const ledger_mapping[] = {
	"export: <condition name> -> that condition; metric.<name> -> that metric (canonical unit)",
	"export: extras.<FORMAT.key> -> that extra condition (text)",
	"export and list --format json: measurements.<FORMAT.path> -> that unplaced measurement "
	"(a number, or any other JSON value as its text)",
	"export: requests -> the run's requests (base64 of the blob of docs/requests.md), stored as is",
	"export: provenance.{source_path,sha256,record,adapter,format_version,imported_at,"
	"record_id} -> the run's provenance, kept as given",
	"export: commit, branch, build_id, ci_run_url -> the run's build identity",
	"export: accepted_steps[].{metric,reason,accepted_at,accepted_by,revoked_at,revoked_by} -> "
	"accepted steps of the run, revoked ones too",
	"export: revisions[].{revision,field,old_value,new_value,changed_at,reason,author} -> "
	"the run's revision records",
	"export: retractions[].{retracted_at,reason,author,restored_at,restore_reason,restored_by} "
	"-> the run's retractions",
	"list --format json: conditions.<name>, metrics.<name>, extras.<FORMAT.key>, "
	"source, sha256, record, adapter, format_version, imported_at, "
	"build.{commit,branch,build_id,ci_run_url} -> the same",
	"list --format json: id, reference_only, failed, checklist_missing -> derived again, not read",
	NULL,
};

static const struct pl_field ledger_fields[] = {
	{"<condition name>", PL_FATE_CONDITION, "that condition (export lines)"},
	{"conditions.<condition name>", PL_FATE_CONDITION, "that condition (list entries)"},
	{"{metric,metrics}.<metric name>", PL_FATE_METRIC, "that metric, canonical unit"},
	{"extras.<FORMAT.key>", PL_FATE_CONDITION, "that extra condition"},
	{"measurements.<FORMAT.path>", PL_FATE_METRIC, "that unplaced measurement, as stored"},
	{"requests", PL_FATE_DERIVED, "the run's requests: base64 of the stored blob, stored as is"},
	{"provenance.*, source, sha256, record, adapter, format_version, imported_at",
	 PL_FATE_DERIVED, "the run's provenance, kept as given"},
	{"{commit,branch,build_id,ci_run_url}, build.*", PL_FATE_DERIVED,
	 "build identity of the run"},
	{"accepted_steps[]", PL_FATE_DERIVED, "accepted steps of the run, revoked ones too"},
	{"revisions[]", PL_FATE_DERIVED, "revision records of the run (amend)"},
	{"retractions[]", PL_FATE_DERIVED, "retractions of the run (retract, restore)"},
	{"id, reference_only, failed, checklist_missing, perfledger_version", PL_FATE_IGNORED,
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
	if (cJSON_IsNumber(got))
		return pl_error_set(err, PL_EINVALID, "'%s' must be %s, got %.17g", key, want,
		                    got->valuedouble);
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

/* 1 when s is exactly len lowercase hex digits. */
static int is_hex(const char *s, size_t len)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
			return 0;
	return n == len;
}

static int is_sha256(const char *s)
{
	return is_hex(s, 64);
}

/* The provenance members of obj (the "provenance" object of an export
 * line, or a list entry itself; path_key names the path member). */
static int read_provenance(const cJSON *obj, const char *path_key, struct pl_run *run,
                           struct pl_error *err)
{
	const char *path, *sha, *adapter, *fv, *at, *rid = NULL;
	const cJSON *rec = pl_json_get(obj, "record");
	int rc;

	if ((rc = get_text(obj, path_key, 0, &path, err)) || (rc = get_text(obj, "sha256", 0, &sha, err)) ||
	    (rc = get_text(obj, "adapter", 0, &adapter, err)) ||
	    (rc = get_text(obj, "format_version", 1, &fv, err)) ||
	    (rc = get_text(obj, "imported_at", 0, &at, err)))
		return rc;
	if (strcmp(path_key, "source_path") == 0 && (rc = get_text(obj, "record_id", 1, &rid, err)))
		return rc;
	if (rid && !is_hex(rid, 32)) {
		pl_error_field(err, "record_id");
		return pl_error_set(err, PL_EINVALID,
		                    "'record_id' must be 32 lowercase hex digits, got \"%.80s\"", rid);
	}
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
	if (rid) /* the identity as first imported: the importer keeps it */
		memcpy(run->record_id, rid, sizeof(run->record_id));
	run->record = (long)rec->valuedouble;
	run->provenance_given = strcmp(path_key, "source_path") == 0 ? 2 : 1;
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

/* The "measurements" object of an export line or list entry: each member
 * an unplaced measurement, a number as that number, any other value as
 * its JSON text (as `export` wrote it). */
static int read_measures(const cJSON *ms, struct pl_run *run, struct pl_error *err)
{
	const cJSON *e;

	if (!ms || cJSON_IsNull(ms))
		return 0;
	if (!cJSON_IsObject(ms))
		return bad_type("measurements", "an object", ms, err);
	cJSON_ArrayForEach(e, ms)
	{
		char *json = NULL;
		int rc;

		if (cJSON_IsNull(e))
			continue; /* missing */
		if (!cJSON_IsNumber(e) && !(json = cJSON_PrintUnformatted(e)))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		rc = pl_run_set_measure(run, e->string, json ? 0 : e->valuedouble, json, err);
		cJSON_free(json);
		if (rc) {
			pl_error_field(err, e->string);
			return rc;
		}
	}
	return 0;
}

/* The "build" object of a list entry: {commit, branch, build_id,
 * ci_run_url}, each a string, checked as a descriptor's. */
static int read_build(const cJSON *build, struct pl_run *run, struct pl_error *err)
{
	const cJSON *e;

	if (!build || cJSON_IsNull(build))
		return 0;
	if (!cJSON_IsObject(build))
		return bad_type("build", "an object", build, err);
	cJSON_ArrayForEach(e, build)
	{
		int f = pl_build_lookup(e->string), rc;

		if (f < 0) {
			pl_error_field(err, e->string);
			return pl_error_set(err, PL_EINVALID,
			                    "unknown build field '%.80s' (expected commit, branch, build_id "
			                    "or ci_run_url)", e->string);
		}
		if (!cJSON_IsString(e) || !e->valuestring)
			return bad_type(e->string, "a string", e, err);
		if ((rc = pl_run_set_build(run, f, e->valuestring, err))) {
			pl_error_field(err, e->string);
			return rc;
		}
	}
	return 0;
}

/* run's carried record, made on first use. */
static struct pl_carried *carried(struct pl_run *run)
{
	if (!run->carried)
		run->carried = pl_carried_new();
	return run->carried;
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
		const char *metric, *reason, *at, *by, *rat, *rby;
		int id, rc;

		if (!cJSON_IsObject(s))
			return bad_type("accepted_steps", "an array of objects", s, err);
		if ((rc = get_text(s, "metric", 0, &metric, err)) ||
		    (rc = get_text(s, "reason", 0, &reason, err)) ||
		    (rc = get_text(s, "accepted_at", 0, &at, err)) ||
		    (rc = get_text(s, "accepted_by", 1, &by, err)) ||
		    (rc = get_text(s, "revoked_at", 1, &rat, err)) ||
		    (rc = get_text(s, "revoked_by", 1, &rby, err)))
			return rc;
		if (by && !*by) { /* absent: an acceptance stored before authors were recorded */
			pl_error_field(err, "accepted_by");
			return pl_error_set(err, PL_EINVALID, "accepted step of '%.80s': accepted_by must "
			                                      "not be empty (accept refuses that)", metric);
		}
		if (!rat != !rby) {
			pl_error_field(err, "revoked_at");
			return pl_error_set(err, PL_EINVALID,
			                    "a revoked acceptance needs revoked_at and revoked_by together");
		}
		if ((id = pl_metric_lookup(metric)) < 0) {
			pl_error_field(err, "metric");
			return pl_error_set(err, PL_EINVALID, "accepted step of unknown metric '%.80s'",
			                    metric);
		}
		if (!carried(run) ||
		    pl_accepted_list_push(&run->carried->accepted, 0, id, reason, at, by) ||
		    (rat && pl_accepted_list_revoke_last(&run->carried->accepted, rat, rby)))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	return 0;
}

static int read_revisions(const cJSON *list, struct pl_run *run, struct pl_error *err)
{
	const cJSON *s;

	if (!list || cJSON_IsNull(list))
		return 0;
	if (!cJSON_IsArray(list))
		return bad_type("revisions", "an array", list, err);
	cJSON_ArrayForEach(s, list)
	{
		struct pl_revision r = {0};
		const cJSON *n = pl_json_get(s, "revision");
		const char *field, *oldv, *newv, *at, *reason, *author;
		int rc;

		if (!cJSON_IsObject(s))
			return bad_type("revisions", "an array of objects", s, err);
		if (!cJSON_IsNumber(n) || n->valuedouble < 2 || n->valuedouble > 1e9 ||
		    n->valuedouble != (double)(int)n->valuedouble)
			return bad_type("revision", "a whole number >= 2", n, err);
		if ((rc = get_text(s, "field", 0, &field, err)) ||
		    (rc = get_text(s, "old_value", 1, &oldv, err)) ||
		    (rc = get_text(s, "new_value", 1, &newv, err)) ||
		    (rc = get_text(s, "changed_at", 0, &at, err)) ||
		    (rc = get_text(s, "reason", 0, &reason, err)) ||
		    (rc = get_text(s, "author", 0, &author, err)))
			return rc;
		r.revision = (int)n->valuedouble;
		r.field = (char *)field;
		r.old_value = (char *)oldv;
		r.new_value = (char *)newv;
		r.changed_at = (char *)at;
		r.reason = (char *)reason;
		r.author = (char *)author;
		if (!carried(run) || pl_revision_list_push(&run->carried->revisions, &r))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	return 0;
}

static int read_retractions(const cJSON *list, struct pl_run *run, struct pl_error *err)
{
	const cJSON *s;

	if (!list || cJSON_IsNull(list))
		return 0;
	if (!cJSON_IsArray(list))
		return bad_type("retractions", "an array", list, err);
	cJSON_ArrayForEach(s, list)
	{
		struct pl_retraction r = {0};
		const char *at, *reason, *author, *rat, *rreason, *rby;
		int rc;

		if (!cJSON_IsObject(s))
			return bad_type("retractions", "an array of objects", s, err);
		if ((rc = get_text(s, "retracted_at", 0, &at, err)) ||
		    (rc = get_text(s, "reason", 0, &reason, err)) ||
		    (rc = get_text(s, "author", 0, &author, err)) ||
		    (rc = get_text(s, "restored_at", 1, &rat, err)) ||
		    (rc = get_text(s, "restore_reason", 1, &rreason, err)) ||
		    (rc = get_text(s, "restored_by", 1, &rby, err)))
			return rc;
		if (!rat != !rreason || !rat != !rby) {
			pl_error_field(err, "restored_at");
			return pl_error_set(err, PL_EINVALID, "a restored retraction needs restored_at, "
			                                      "restore_reason and restored_by together");
		}
		r.retracted_at = (char *)at;
		r.reason = (char *)reason;
		r.author = (char *)author;
		r.restored_at = (char *)rat;
		r.restore_reason = (char *)rreason;
		r.restored_by = (char *)rby;
		if (!carried(run) || pl_retraction_list_push(&run->carried->retractions, &r))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	return 0;
}

static int ledger_convert(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	static const char *const export_keys[] = {"metric", "extras", "measurements", "requests",
	                                          "provenance",
	                                          "accepted_steps",
	                                          "revisions", "retractions", "descriptor_version",
	                                          NULL};
	static const char *const list_keys[] = {"id", "source", "sha256", "record", "adapter",
	                                        "format_version", "imported_at", "reference_only",
	                                        "checklist_missing", "conditions", "metrics",
	                                        "extras", "measurements", "build", "failed", NULL};
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
		    (rc = read_accepted(pl_json_get(obj, "accepted_steps"), run, err)) ||
		    (rc = read_revisions(pl_json_get(obj, "revisions"), run, err)) ||
		    (rc = read_retractions(pl_json_get(obj, "retractions"), run, err)) ||
		    (rc = pl_requests_from_export(obj, run, err)))
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
		    (rc = read_provenance(obj, "source", run, err)) ||
		    (rc = read_build(pl_json_get(obj, "build"), run, err)))
			return rc;
		metric = pl_json_get(obj, "metrics");
	}
	if ((rc = read_extras(pl_json_get(obj, "extras"), run, err)) ||
	    (rc = read_measures(pl_json_get(obj, "measurements"), run, err)))
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
