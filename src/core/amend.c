/*
 * amend.c — revision and retraction lists, and the amend step: --set
 * values checked, applied to a copy of a stored run, normalized and
 * validated as an import would, and the changed fields listed. See amend.h.
 */
#include "core/amend.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine_args.h"
#include "core/normalize.h"
#include "core/validate.h"
#include "util/alloc.h"

/* strdup of s, or of def when s is NULL (def NULL: NULL stays NULL).
 * Returns 0, or -1 when out of memory. */
static int dup_or(char **dst, const char *s, const char *def)
{
	const char *v = s ? s : def;

	*dst = NULL;
	if (!v)
		return 0;
	return (*dst = strdup(v)) ? 0 : -1;
}

void pl_revision_free(struct pl_revision *r)
{
	free(r->field);
	free(r->old_value);
	free(r->new_value);
	free(r->changed_at);
	free(r->reason);
	free(r->author);
}

int pl_revision_list_push(struct pl_revision_list *list, const struct pl_revision *r)
{
	struct pl_revision e;

	if (PL_ALLOC_GROW(list->v, list->n + 1, list->cap))
		return PL_ENOMEM;
	memset(&e, 0, sizeof(e));
	e.run_id = r->run_id;
	e.revision = r->revision;
	if (dup_or(&e.field, r->field, "") || dup_or(&e.old_value, r->old_value, NULL) ||
	    dup_or(&e.new_value, r->new_value, NULL) || dup_or(&e.changed_at, r->changed_at, "") ||
	    dup_or(&e.reason, r->reason, "") || dup_or(&e.author, r->author, "")) {
		pl_revision_free(&e);
		return PL_ENOMEM;
	}
	list->v[list->n++] = e;
	return 0;
}

void pl_revision_list_release(struct pl_revision_list *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->n; i++)
		pl_revision_free(&list->v[i]);
	free(list->v);
	memset(list, 0, sizeof(*list));
}

void pl_retraction_free(struct pl_retraction *r)
{
	free(r->retracted_at);
	free(r->reason);
	free(r->author);
	free(r->restored_at);
	free(r->restore_reason);
	free(r->restored_by);
}

int pl_retraction_list_push(struct pl_retraction_list *list, const struct pl_retraction *r)
{
	struct pl_retraction e;

	if (PL_ALLOC_GROW(list->v, list->n + 1, list->cap))
		return PL_ENOMEM;
	memset(&e, 0, sizeof(e));
	e.run_id = r->run_id;
	if (dup_or(&e.retracted_at, r->retracted_at, "") || dup_or(&e.reason, r->reason, "") ||
	    dup_or(&e.author, r->author, "") || dup_or(&e.restored_at, r->restored_at, NULL) ||
	    dup_or(&e.restore_reason, r->restore_reason, NULL) ||
	    dup_or(&e.restored_by, r->restored_by, NULL)) {
		pl_retraction_free(&e);
		return PL_ENOMEM;
	}
	list->v[list->n++] = e;
	return 0;
}

void pl_retraction_list_release(struct pl_retraction_list *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->n; i++)
		pl_retraction_free(&list->v[i]);
	free(list->v);
	memset(list, 0, sizeof(*list));
}

/* 1 if field names an extra condition: "FORMAT.key", a '.' inside, and no
 * condition of that name. */
static int is_extra(const char *field)
{
	const char *dot = strchr(field, '.');

	return dot && dot != field && dot[1] && pl_cond_lookup(field) == PL_C_NONE;
}

int pl_ledger_check_sets(const struct pl_amend_set *sets, size_t nsets, struct pl_error *err)
{
	if (nsets == 0)
		return pl_error_set(err, PL_EUSAGE, "amend needs at least one --set FIELD=VALUE");
	for (size_t i = 0; i < nsets; i++) {
		const char *f = sets[i].field ? sets[i].field : "";
		const char *v = sets[i].value;
		int id = pl_cond_lookup(f);

		pl_error_field(err, f);
		if (pl_metric_lookup(f) != PL_M_NONE)
			return pl_error_set(err, PL_EUSAGE,
			                    "'%s' is a metric: amend corrects conditions only (a "
			                    "measurement is never rewritten)", f);
		if (id == PL_C_NONE && !is_extra(f) && pl_build_lookup(f) < 0)
			return pl_error_set(err, PL_EUSAGE,
			                    "unknown condition '%s' in --set (the names are in "
			                    "schema/descriptor.md; an extra condition is FORMAT.key; "
			                    "build identity: commit, branch, build_id, ci_run_url)", f);
		for (size_t k = 0; k < i; k++)
			if (strcmp(sets[k].field, f) == 0)
				return pl_error_set(err, PL_EUSAGE, "--set %s is given twice", f);
		if (v && *v) {
			size_t n = strlen(v), bad = pl_utf8_valid_prefix(v, n);
			if (bad < n)
				return pl_error_set(err, PL_EUSAGE,
				                    "--set %s: the value is not UTF-8 (byte 0x%02X at offset %zu)",
				                    f, (unsigned)(unsigned char)v[bad], bad);
		}
		if ((id != PL_C_NONE || pl_build_lookup(f) >= 0) && v && *v) {
			struct pl_run scratch;
			struct pl_error e;
			int rc;

			pl_run_init(&scratch);
			pl_error_init(&e);
			rc = id != PL_C_NONE ? pl_run_set_cond(&scratch, id, v, &e)
			                     : pl_run_set_build(&scratch, pl_build_lookup(f), v, &e);
			pl_run_release(&scratch);
			if (rc == PL_ENOMEM)
				return pl_error_set(err, PL_ENOMEM, "out of memory");
			if (rc)
				return pl_error_set(err, PL_EUSAGE, "--set %s=%s: %s", f, v, e.message);
		}
	}
	pl_error_field(err, NULL);
	return 0;
}

/* Appends a change (copies of the texts) to out. Returns 0 or PL_ENOMEM. */
static int add_change(struct pl_amend_result *out, const char *field, const char *was,
                      const char *now)
{
	struct pl_amend_change *c;

	if (PL_ALLOC_GROW(out->changes, out->nchanges + 1, out->changes_cap))
		return PL_ENOMEM;
	c = &out->changes[out->nchanges];
	memset(c, 0, sizeof(*c));
	if (dup_or(&c->field, field, "") || dup_or(&c->old_value, was, NULL) ||
	    dup_or(&c->new_value, now, NULL)) {
		free(c->field);
		free(c->old_value);
		free(c->new_value);
		return PL_ENOMEM;
	}
	out->nchanges++;
	return 0;
}

/* 1 if two optional texts differ. */
static int differ(const char *a, const char *b)
{
	if (!a || !b)
		return a != b;
	return strcmp(a, b) != 0;
}

/* Lists the conditions, build identity fields and extras whose text
 * differs between a and b. */
static int list_changes(const struct pl_run *a, const struct pl_run *b,
                        struct pl_amend_result *out)
{
	size_t i = 0, j = 0;

	for (int c = 0; c < PL_COND_COUNT; c++) {
		const char *was = a->cond[c].set ? a->cond[c].text : NULL;
		const char *now = b->cond[c].set ? b->cond[c].text : NULL;

		if (differ(was, now) && add_change(out, pl_cond_info[c].name, was, now))
			return PL_ENOMEM;
	}
	for (int f = 0; f < PL_BUILD_COUNT; f++)
		if (differ(a->build[f], b->build[f]) &&
		    add_change(out, pl_build_name(f), a->build[f], b->build[f]))
			return PL_ENOMEM;
	/* both extra arrays are sorted by name: merge them */
	while (i < a->nextra || j < b->nextra) {
		int cmp = i == a->nextra ? 1 : j == b->nextra ? -1
		                                               : strcmp(a->extra[i].name, b->extra[j].name);
		int rc = 0;

		if (cmp < 0) {
			rc = add_change(out, a->extra[i].name, a->extra[i].value, NULL);
			i++;
		} else if (cmp > 0) {
			rc = add_change(out, b->extra[j].name, NULL, b->extra[j].value);
			j++;
		} else {
			if (differ(a->extra[i].value, b->extra[j].value))
				rc = add_change(out, a->extra[i].name, a->extra[i].value, b->extra[j].value);
			i++;
			j++;
		}
		if (rc)
			return PL_ENOMEM;
	}
	return 0;
}

/* The accelerator count derive_per_accelerator() (validate.c) divides by,
 * or NaN when it derives nothing. */
static double accel_count(const struct pl_run *run)
{
	const struct pl_value *ac = &run->cond[PL_C_ACCELERATOR_COUNT];

	return ac->set && ac->num >= 1 && !isinf(ac->num) ? ac->num : NAN;
}

/* r is old amended (metrics as stored): re-derive the per-accelerator
 * throughputs of a changed accelerator count into r and list them in out
 * (see pl_ledger_amend_run). */
static void per_accelerator(const struct pl_run *old, struct pl_run *r,
                            struct pl_amend_result *out)
{
	static const int pairs[2][2] = {
		{PL_M_OUTPUT_THROUGHPUT, PL_M_OUTPUT_THROUGHPUT_PER_ACCELERATOR},
		{PL_M_TOTAL_TOKEN_THROUGHPUT, PL_M_TOTAL_TOKEN_THROUGHPUT_PER_ACCELERATOR},
	};
	double oc = accel_count(old), nc = accel_count(r);

	if ((isnan(oc) && isnan(nc)) || oc == nc)
		return;
	for (int i = 0; i < 2; i++) {
		int tp = pairs[i][0], pa = pairs[i][1];
		int had = old->has_metric[pa] && !isnan(old->metric[pa]);
		double was = had ? old->metric[pa] : NAN, want;
		struct pl_amend_metric *m = &out->metrics[out->nmetrics];

		if (!old->has_metric[tp] || isnan(old->metric[tp]))
			continue; /* nothing to derive from: a given value stays */
		want = isnan(nc) ? NAN : old->metric[tp] / nc;
		if (had && (isnan(oc) || was != old->metric[tp] / oc)) {
			*m = (struct pl_amend_metric){pa, was, was, 1}; /* the file gave it */
			out->nmetrics++;
			continue;
		}
		if ((!had && isnan(want)) || (had && was == want))
			continue;
		r->metric[pa] = want;
		r->has_metric[pa] = !isnan(want);
		*m = (struct pl_amend_metric){pa, was, want, 0};
		out->nmetrics++;
	}
}

int pl_ledger_amend_run(const struct pl_run *run, const struct pl_amend_set *sets, size_t nsets,
                        struct pl_amend_result *out, struct pl_error *err)
{
	struct pl_run *r = &out->run;
	int rc;

	memset(out, 0, sizeof(*out));
	if (pl_run_copy(r, run))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t k = 0; k < nsets; k++) {
		const char *v = sets[k].value && *sets[k].value ? sets[k].value : NULL;
		int id = pl_cond_lookup(sets[k].field), f = pl_build_lookup(sets[k].field);

		if (id == PL_C_NONE && f >= 0) { /* build identity: checked as import --set does */
			rc = 0;
			if (v)
				rc = pl_run_set_build(r, f, v, err);
			else {
				free(r->build[f]);
				r->build[f] = NULL;
			}
		} else if (id == PL_C_NONE)
			rc = pl_run_set_extra(r, sets[k].field, v, err);
		else
			rc = pl_run_set_cond(r, id, v, err);
		if (rc) {
			pl_error_field(err, sets[k].field);
			goto fail;
		}
	}
	/* what an import does after --set; a metric never changes, so the
	 * values validation would derive are put back as stored */
	if ((rc = pl_engine_args_apply(r, err)) || (rc = pl_normalize_named_extras(r, err)) ||
	    (rc = pl_normalize_run(r, err)) || (rc = pl_validate_run(r, err)))
		goto fail;
	memcpy(r->metric, run->metric, sizeof(r->metric));
	memcpy(r->has_metric, run->has_metric, sizeof(r->has_metric));
	per_accelerator(run, r, out);
	pl_run_update_checklist(r);
	if (list_changes(run, r, out)) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto fail;
	}
	return 0;
fail:
	pl_ledger_amend_release(out);
	return rc;
}

void pl_ledger_amend_release(struct pl_amend_result *out)
{
	if (!out)
		return;
	pl_run_release(&out->run);
	for (size_t i = 0; i < out->nchanges; i++) {
		free(out->changes[i].field);
		free(out->changes[i].old_value);
		free(out->changes[i].new_value);
	}
	free(out->changes);
	memset(out, 0, sizeof(*out));
}
