/*
 * export.c — one line of `perfledger export`: a stored run as a
 * descriptor (schema/descriptor.md) that also carries what the ledger
 * knows about it, so that `import` of the lines recreates the same runs
 * (adapters/export_lines.c reads them). Keys in a fixed order, numbers in their
 * shortest round-trip form, so the same ledger exports the same bytes:
 *
 *   {"descriptor_version": "1", <every known condition, canonical name and
 *    unit, in PL_CONDITIONS order>, "extras": {...} (when the run has extra
 *    conditions), "metric": {<every known metric, canonical name and unit>},
 *    "measurements": {<"FORMAT.path": number or JSON value>} (when the run
 *    has unplaced measurements), "requests": base64 of the run's stored
 *    requests blob (store/requests.h; when the run has requests and the
 *    caller loaded them into run->requests),
 *    "provenance": {"source_path", "sha256", "record", "adapter",
 *    "format_version" (when known), "imported_at", "record_id" (the record
 *    identity as first imported, when stored: an amended run keeps it)},
 *    "commit", "branch", "build_id", "ci_run_url" (the run's build identity,
 *    each when known, as a descriptor gives them),
 *    "accepted_steps": [{"metric", "reason", "accepted_at", "accepted_by",
 *    and when revoked "revoked_at", "revoked_by"}...],
 *    "revisions": [{"revision", "field", "old_value", "new_value",
 *    "changed_at", "reason", "author"}...], "retractions": [{"retracted_at",
 *    "reason", "author", and when restored "restored_at", "restore_reason",
 *    "restored_by"}...] (each list when not empty)}
 *
 * The conditions are the run's current ones (after its amends); the
 * revisions say how they came to be.
 *
 * Condition values are written as list --format json writes them: numbers
 * as JSON numbers ("inf" for infinity), booleans as true/false, the rest
 * as strings.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/carried.h"
#include "core/requests.h"
#include "util/base64.h"
#include "render/render.h"
#include "render/render_impl.h"

static void cond_value(FILE *out, int id, const struct pl_value *v)
{
	switch (pl_cond_info[id].type) {
	case PL_CT_INT:
	case PL_CT_REAL:
		pl_json_write_num(out, v->num);
		break;
	case PL_CT_BOOL:
		fputs(v->num != 0 ? "true" : "false", out);
		break;
	default:
		pl_json_write_string(out, v->text);
		break;
	}
}

/* `"key": "value"` with value NULL written as null. */
static void text_member(FILE *out, int *first, const char *key, const char *v)
{
	pl_json_write_key(out, first, key);
	if (v)
		pl_json_write_string(out, v);
	else
		fputs("null", out);
}

void pl_json_write_measures(FILE *out, int *first, const struct pl_run *run)
{
	int inner = 1;

	if (!run->nmeasure)
		return;
	pl_json_write_key(out, first, "measurements");
	fputc('{', out);
	for (size_t i = 0; i < run->nmeasure; i++) {
		pl_json_write_key(out, &inner, run->measure[i].name);
		if (run->measure[i].json)
			fputs(run->measure[i].json, out);
		else
			pl_json_write_num(out, run->measure[i].num);
	}
	fputc('}', out);
}

/* The run's conditions, each under its canonical name in PL_CONDITIONS
 * order, then its extra conditions as "extras" (when it has any). */
static void cond_members(FILE *out, int *first, const struct pl_run *run)
{
	int inner = 1;

	for (int id = 0; id < PL_COND_COUNT; id++) {
		if (!run->cond[id].set)
			continue;
		pl_json_write_key(out, first, pl_cond_info[id].name);
		cond_value(out, id, &run->cond[id]);
	}
	if (!run->nextra)
		return;
	pl_json_write_key(out, first, "extras");
	fputc('{', out);
	for (size_t i = 0; i < run->nextra; i++) {
		pl_json_write_key(out, &inner, run->extra[i].name);
		pl_json_write_string(out, run->extra[i].value);
	}
	fputc('}', out);
}

/* "metric": every metric the run has a value for, in PL_METRICS order. */
static void metric_member(FILE *out, int *first, const struct pl_run *run)
{
	int inner = 1;

	pl_json_write_key(out, first, "metric");
	fputc('{', out);
	for (int m = 0; m < PL_METRIC_COUNT; m++) {
		if (!run->has_metric[m] || isnan(run->metric[m]))
			continue;
		pl_json_write_key(out, &inner, pl_metric_info[m].name);
		pl_json_write_num(out, run->metric[m]);
	}
	fputc('}', out);
}

/* "provenance": where the run was imported from, by which adapter, when. */
static void provenance_member(FILE *out, int *first, const struct pl_run *run)
{
	int inner = 1;

	pl_json_write_key(out, first, "provenance");
	fputc('{', out);
	pl_json_write_key(out, &inner, "source_path");
	pl_json_write_string(out, run->source ? run->source : "");
	pl_json_write_key(out, &inner, "sha256");
	pl_json_write_string(out, run->sha256);
	pl_json_write_key(out, &inner, "record");
	fprintf(out, "%ld", run->record);
	pl_json_write_key(out, &inner, "adapter");
	pl_json_write_string(out, run->adapter ? run->adapter : "");
	if (run->format_version) {
		pl_json_write_key(out, &inner, "format_version");
		pl_json_write_string(out, run->format_version);
	}
	pl_json_write_key(out, &inner, "imported_at");
	pl_json_write_string(out, run->imported_at ? run->imported_at : "");
	if (run->record_id[0]) {
		pl_json_write_key(out, &inner, "record_id");
		pl_json_write_string(out, run->record_id);
	}
	fputc('}', out);
}

/* "accepted_steps": the steps accepted at the run (when there are any). */
static void accepted_member(FILE *out, int *first, const struct pl_carried *c)
{
	size_t nsteps = c ? c->accepted.n : 0;
	const struct pl_accepted_step *steps = c ? c->accepted.v : NULL;

	if (!nsteps)
		return;
	pl_json_write_key(out, first, "accepted_steps");
	fputc('[', out);
	for (size_t i = 0; i < nsteps; i++) {
		int inner = 1;
		fputs(i ? ", {" : "{", out);
		pl_json_write_key(out, &inner, "metric");
		pl_json_write_string(out, pl_metric_info[steps[i].metric].name);
		pl_json_write_key(out, &inner, "reason");
		pl_json_write_string(out, steps[i].reason);
		pl_json_write_key(out, &inner, "accepted_at");
		pl_json_write_string(out, steps[i].accepted_at);
		if (steps[i].accepted_by && *steps[i].accepted_by) /* "": stored before authors were */
			text_member(out, &inner, "accepted_by", steps[i].accepted_by);
		if (steps[i].revoked_at) {
			text_member(out, &inner, "revoked_at", steps[i].revoked_at);
			text_member(out, &inner, "revoked_by", steps[i].revoked_by);
		}
		fputc('}', out);
	}
	fputc(']', out);
}

/* "revisions": the amends of the run's conditions (when there are any). */
static void revisions_member(FILE *out, int *first, const struct pl_carried *c)
{
	if (!c || !c->revisions.n)
		return;
	pl_json_write_key(out, first, "revisions");
	fputc('[', out);
	for (size_t i = 0; i < c->revisions.n; i++) {
		const struct pl_revision *r = &c->revisions.v[i];
		int inner = 1;
		fputs(i ? ", {" : "{", out);
		pl_json_write_key(out, &inner, "revision");
		fprintf(out, "%d", r->revision);
		text_member(out, &inner, "field", r->field);
		text_member(out, &inner, "old_value", r->old_value);
		text_member(out, &inner, "new_value", r->new_value);
		text_member(out, &inner, "changed_at", r->changed_at);
		text_member(out, &inner, "reason", r->reason);
		text_member(out, &inner, "author", r->author);
		fputc('}', out);
	}
	fputc(']', out);
}

/* "retractions": the run's retractions and restores (when there are any). */
static void retractions_member(FILE *out, int *first, const struct pl_carried *c)
{
	if (!c || !c->retractions.n)
		return;
	pl_json_write_key(out, first, "retractions");
	fputc('[', out);
	for (size_t i = 0; i < c->retractions.n; i++) {
		const struct pl_retraction *r = &c->retractions.v[i];
		int inner = 1;
		fputs(i ? ", {" : "{", out);
		text_member(out, &inner, "retracted_at", r->retracted_at);
		text_member(out, &inner, "reason", r->reason);
		text_member(out, &inner, "author", r->author);
		if (r->restored_at) {
			text_member(out, &inner, "restored_at", r->restored_at);
			text_member(out, &inner, "restore_reason", r->restore_reason);
			text_member(out, &inner, "restored_by", r->restored_by);
		}
		fputc('}', out);
	}
	fputc(']', out);
}

int pl_render_export_run(FILE *out, const struct pl_run *run, const struct pl_carried *c)
{
	int first = 1;

	fputc('{', out);
	pl_json_write_key(out, &first, "descriptor_version");
	fputs("\"1\"", out);
	cond_members(out, &first, run);
	metric_member(out, &first, run);
	pl_json_write_measures(out, &first, run);
	if (run->requests && run->requests->blob) {
		char *b64 = pl_base64_encode(run->requests->blob, run->requests->nblob);
		if (!b64)
			return -1;
		pl_json_write_key(out, &first, "requests");
		pl_json_write_string(out, b64);
		free(b64);
	}
	provenance_member(out, &first, run);
	for (int f = 0; f < PL_BUILD_COUNT; f++) {
		if (!run->build[f])
			continue;
		pl_json_write_key(out, &first, pl_build_name(f));
		pl_json_write_string(out, run->build[f]);
	}
	accepted_member(out, &first, c);
	revisions_member(out, &first, c);
	retractions_member(out, &first, c);
	fputs("}\n", out);
	return ferror(out) ? PL_EIO : 0;
}
