/*
 * differs.c — a file whose bytes are stored already, read again: the same
 * runs (a duplicate) or other conditions (from --set or a sidecar, refused:
 * a stored run is never rewritten). See import_impl.h,
 * pl_import_stored_differs().
 */
#include "import/import_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/normalize.h"
#include "store/db.h"

/* Appends "FIELD stored 'A', now 'B'" for every condition in which now
 * differs from stored; returns how many did. */
static int diff_conditions(const struct pl_run *stored, const struct pl_run *now, char *buf,
                           size_t n)
{
	int count = 0;

	for (int id = 0; id < PL_COND_COUNT; id++) {
		const struct pl_value *a = &stored->cond[id], *v = &now->cond[id];
		size_t len = strlen(buf);

		if (pl_value_equal(a, v))
			continue;
		if (a->set && v->set && pl_cond_info[id].type == PL_CT_TIME) {
			/* stored before times with an offset were written in UTC */
			char *t = pl_normalize_value(id, a->text);
			int same = t && strcmp(t, v->text) == 0;
			free(t);
			if (same)
				continue;
		}
		snprintf(buf + len, n - len, "%s%s stored '%s', now '%s'", count ? "; " : "",
		         pl_cond_info[id].name, a->set ? a->text : "(missing)",
		         v->set ? v->text : "(missing)");
		count++;
	}
	/* the extra conditions (both sorted by name): conditions like the others */
	for (size_t i = 0, k = 0; i < stored->nextra || k < now->nextra;) {
		const struct pl_extra *a = i < stored->nextra ? &stored->extra[i] : NULL;
		const struct pl_extra *v = k < now->nextra ? &now->extra[k] : NULL;
		int c = !a ? 1 : !v ? -1 : strcmp(a->name, v->name);
		size_t len = strlen(buf);

		if (c <= 0)
			i++;
		if (c >= 0)
			k++;
		if (c < 0)
			v = NULL; /* stored only */
		else if (c > 0)
			a = NULL; /* now only */
		if (a && v && strcmp(a->value, v->value) == 0)
			continue;
		snprintf(buf + len, n - len, "%s%s stored '%s', now '%s'", count ? "; " : "",
		         a ? a->name : v->name, a ? a->value : "(missing)", v ? v->value : "(missing)");
		count++;
	}
	return count;
}

/* diff_conditions() of a stored run s against now, where an amended run
 * (migration 009) also matches with the conditions it was imported with:
 * the file read again gives those, and that is a duplicate, not a
 * conflict. Returns how many fields differ (0 when either matches), or -1
 * when the original could not be read (err set). */
static int differs_from_stored(struct batch *b, const struct pl_run *s, const struct pl_run *now,
                               char *buf, size_t n, struct pl_error *err)
{
	struct pl_run orig;
	char scratch[700] = "";
	int count = diff_conditions(s, now, buf, n);

	if (count == 0) /* the common case; else look for revisions (rare) */
		return count;
	pl_run_init(&orig);
	if (pl_store_run_as_imported(b->st, s, &orig, err)) {
		pl_run_release(&orig);
		return -1;
	}
	if (diff_conditions(&orig, now, scratch, sizeof(scratch)) == 0) {
		buf[0] = '\0';
		count = 0;
	}
	pl_run_release(&orig);
	return count;
}

int pl_import_stored_differs(struct batch *b, const char *path, const char *sha,
                             const struct pl_run_list *runs, const struct pl_cond_key *keys,
                             struct pl_error *err)
{
	struct pl_run_list stored;
	struct pl_run now;
	char diff[700] = "";
	long long id = 0;
	int rc = 0;

	if (runs && keys) {
		/* the usual case, a file stored with the conditions it gets now:
		 * decided from the keys (pl_store_source_same_keys) */
		int same = 0;
		if (pl_store_source_same_keys(b->st, sha, runs->v, keys, runs->n, &same, err)) {
			pl_import_set_fatal(b, err);
			return -1;
		}
		if (same)
			return 0;
	}
	pl_run_list_init(&stored);
	pl_run_init(&now);
	if (pl_store_query_source(b->st, sha, &stored, err)) {
		pl_import_set_fatal(b, err);
		pl_run_list_release(&stored);
		return -1;
	}
	for (size_t i = 0; i < stored.n && !diff[0] && rc == 0; i++) {
		const struct pl_run *s = &stored.v[i];
		if (runs) {
			for (size_t k = 0; k < runs->n && rc == 0; k++) {
				int d = !runs->v[k].reject && runs->v[k].record == s->record
				            ? differs_from_stored(b, s, &runs->v[k], diff, sizeof(diff), err)
				            : 0;
				if (d < 0)
					rc = -2;
				else if (d)
					id = s->id;
			}
			continue;
		}
		/* streamed: the --set values, normalized, against each stored run */
		pl_run_release(&now);
		if (pl_run_copy(&now, s)) {
			rc = -1;
			break;
		}
		for (size_t k = 0; k < b->opts->nset; k++)
			if (pl_cond_lookup(b->opts->set[k].key) >= 0) /* build identity is no condition */
				pl_run_set_cond(&now, pl_cond_lookup(b->opts->set[k].key),
				                b->opts->set[k].value, NULL);
		pl_normalize_run(&now, NULL);
		switch (differs_from_stored(b, s, &now, diff, sizeof(diff), err)) {
		case -1:
			rc = -2;
			break;
		case 0:
			break;
		default:
			id = s->id;
		}
	}
	pl_run_release(&now);
	pl_run_list_release(&stored);
	if (rc == -2) {
		pl_import_set_fatal(b, err);
		return -1;
	}
	if (rc < 0) {
		pl_error_set(err, PL_ENOMEM, "out of memory");
		pl_import_set_fatal(b, err);
		return -1;
	}
	if (!diff[0])
		return 0;
	pl_error_set(err, PL_EINVALID,
	             "these bytes are stored already (run %lld) with other conditions: %s; a "
	             "stored run is never rewritten",
	             id, diff);
	pl_error_at(err, path, 0, 0);
	return 1;
}
