/*
 * trail.c — revisions and retractions in the store (issue 13, migration
 * 009): reading the trail (pl_store_revisions, pl_store_retractions), the
 * revision and retracted flag of runs read back, the retraction term the
 * queries add, and the writes of amend, retract, restore and purge, each
 * inside the caller's transaction and each bumping ledger_generation.
 * Statements are prepared per call: these commands are rare and touch few
 * rows, and they share nothing with the cached import/query statements.
 */
#include "store/store_impl.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

/* Fills err from the connection (PL_ENOMEM or PL_EDB naming the database). */
static int ledger_fail(struct pl_store *st, struct pl_error *err, const char *doing)
{
	return pl_store_fail(st, err, doing);
}

/* Prepares sql on st into *s. Returns 0 or the error. */
static int prep(struct pl_store *st, const char *sql, sqlite3_stmt **s, const char *doing,
                struct pl_error *err)
{
	if (sqlite3_prepare_v2(st->db, sql, -1, s, NULL) != SQLITE_OK) {
		*s = NULL;
		return ledger_fail(st, err, doing);
	}
	return 0;
}

/* Text of column c, or NULL. */
static const char *col_text(sqlite3_stmt *s, int c)
{
	return sqlite3_column_type(s, c) == SQLITE_NULL ? NULL : (const char *)sqlite3_column_text(s, c);
}

void pl_store_set_retracted_mode(struct pl_store *st, int mode)
{
	st->retracted_mode = mode == PL_RETRACTED_ONLY || mode == PL_RETRACTED_ALL ? mode
	                                                                           : PL_RETRACTED_HIDE;
}

#define OPEN_RETRACTION \
	"(SELECT 1 FROM retractions AS rt WHERE rt.run_id = runs.id AND rt.restored_at IS NULL)"

int pl_store_retraction_term(struct pl_store *st, const char **term, struct pl_error *err)
{
	int any = 0, rc;

	*term = NULL;
	if (st->retracted_mode == PL_RETRACTED_ALL)
		return 0;
	if (st->retracted_mode == PL_RETRACTED_ONLY) {
		*term = "EXISTS " OPEN_RETRACTION;
		return 0;
	}
	/* hidden: no term at all while nothing is retracted (the common case,
	 * and the prepared statement of an unfiltered query stays usable) */
	if ((rc = pl_store_query_int(st,
	                             "SELECT EXISTS (SELECT 1 FROM retractions WHERE restored_at IS NULL)",
	                             "reading retractions", &any, err)))
		return rc;
	if (any)
		*term = "NOT EXISTS " OPEN_RETRACTION;
	return 0;
}

/* A sorted array of (run id, value) read from a two-column query. */
struct id_val {
	long long id;
	long long val;
};

static int id_val_cmp(const void *a, const void *b)
{
	const struct id_val *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Reads sql (rows: run id, value; ordered by run id) into *v / *n. */
static int read_id_vals(struct pl_store *st, const char *sql, struct id_val **v, size_t *n,
                        struct pl_error *err)
{
	sqlite3_stmt *s;
	size_t cap = 0;
	int rc, step;

	*v = NULL;
	*n = 0;
	if ((rc = prep(st, sql, &s, "reading the ledger trail", err)))
		return rc;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		if (PL_ALLOC_GROW(*v, *n + 1, cap)) {
			sqlite3_finalize(s);
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		}
		(*v)[*n].id = sqlite3_column_int64(s, 0);
		(*v)[(*n)++].val = sqlite3_column_int64(s, 1);
	}
	rc = step == SQLITE_DONE ? 0 : ledger_fail(st, err, "reading the ledger trail");
	sqlite3_finalize(s);
	return rc;
}

static const struct id_val *find_id(const struct id_val *v, size_t n, long long id)
{
	struct id_val key = {id, 0};

	return n ? bsearch(&key, v, n, sizeof(*v), id_val_cmp) : NULL;
}

/* pl_store_annotate_runs() for a few runs: two indexed lookups each
 * (revisions' primary key, retractions_open), not a scan of the tables. */
static int annotate_few(struct pl_store *st, struct pl_run_list *list, size_t from,
                        struct pl_error *err)
{
	sqlite3_stmt *s;
	int rc;

	if ((rc = prep(st,
	               "SELECT coalesce((SELECT max(revision) FROM revisions WHERE run_id = ?1), 1),"
	               " EXISTS (SELECT 1 FROM retractions WHERE run_id = ?1 AND restored_at IS NULL)",
	               &s, "reading the ledger trail", err)))
		return rc;
	for (size_t i = from; i < list->n && !rc; i++) {
		sqlite3_bind_int64(s, 1, list->v[i].id);
		if (sqlite3_step(s) == SQLITE_ROW) {
			list->v[i].revision = sqlite3_column_int(s, 0);
			list->v[i].retracted = sqlite3_column_int(s, 1);
		} else {
			rc = ledger_fail(st, err, "reading the ledger trail");
		}
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return rc;
}

int pl_store_read_measures(struct pl_store *st, struct pl_run_list *list, size_t from,
                           struct pl_error *err)
{
	sqlite3_stmt *s;
	int any = 0, rc;

	if (from >= list->n)
		return 0;
	if ((rc = pl_store_query_int(st, "SELECT EXISTS (SELECT 1 FROM run_measurements)",
	                             "reading unplaced measurements", &any, err)) ||
	    !any)
		return rc;
	if ((rc = prep(st, "SELECT name, value, json FROM run_measurements WHERE run_id = ?1 "
	                   "ORDER BY name",
	               &s, "reading unplaced measurements", err)))
		return rc;
	for (size_t i = from; i < list->n && !rc; i++) {
		int step;
		sqlite3_bind_int64(s, 1, list->v[i].id);
		while ((step = sqlite3_step(s)) == SQLITE_ROW && !rc) {
			const char *name = (const char *)sqlite3_column_text(s, 0);
			const char *json = (const char *)sqlite3_column_text(s, 2);
			if (!name || pl_run_set_measure(&list->v[i], name, sqlite3_column_double(s, 1), json,
			                                NULL))
				rc = pl_error_set(err, PL_EDB,
				                  "database error: run %lld has an unreadable measurement",
				                  list->v[i].id);
		}
		if (!rc && step != SQLITE_DONE)
			rc = ledger_fail(st, err, "reading unplaced measurements");
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return rc;
}

int pl_store_write_measures(struct pl_store *st, long long run_id, const struct pl_run *run,
                            struct pl_error *err)
{
	sqlite3_stmt *s;
	int rc;

	if (run->nmeasure == 0)
		return 0;
	if ((rc = prep(st, "INSERT INTO run_measurements (run_id, name, value, json) "
	                   "VALUES (?1, ?2, ?3, ?4) ON CONFLICT (run_id, name) DO UPDATE SET "
	                   "value = excluded.value, json = excluded.json",
	               &s, "storing unplaced measurements", err)))
		return rc;
	for (size_t i = 0; i < run->nmeasure && !rc; i++) {
		const struct pl_measure *m = &run->measure[i];
		sqlite3_bind_int64(s, 1, run_id);
		sqlite3_bind_text(s, 2, m->name, -1, SQLITE_STATIC);
		if (m->json) {
			sqlite3_bind_null(s, 3);
			sqlite3_bind_text(s, 4, m->json, -1, SQLITE_STATIC);
		} else {
			sqlite3_bind_double(s, 3, m->num);
			sqlite3_bind_null(s, 4);
		}
		if (sqlite3_step(s) != SQLITE_DONE)
			rc = ledger_fail(st, err, "storing unplaced measurements");
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return rc;
}

int pl_store_place_measure(struct pl_store *st, long long run_id, const char *name, int revision,
                           long long when, const char *reason, const char *author,
                           struct pl_error *err)
{
	sqlite3_stmt *s;
	char at[32], num[40];
	char *was = NULL;
	int rc, found = 0;

	if (!name || !reason || !*reason || !author || !*author || revision < 2)
		return pl_error_set(err, PL_EUSAGE, "a revision needs a number >= 2, a reason and an author");
	if ((rc = pl_store_time_iso(when, at, sizeof(at), err)) ||
	    (rc = prep(st, "SELECT value, json FROM run_measurements WHERE run_id = ?1 AND name = ?2",
	               &s, "reading unplaced measurements", err)))
		return rc;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_text(s, 2, name, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW) {
		const char *json = (const char *)sqlite3_column_text(s, 1);
		found = 1;
		was = strdup(json ? json : pl_fmt_num(num, sizeof(num), sqlite3_column_double(s, 0)));
		if (!was)
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	sqlite3_finalize(s);
	if (rc || !found)
		return rc;
	if (!(rc = prep(st, "DELETE FROM run_measurements WHERE run_id = ?1 AND name = ?2", &s,
	                "placing an unplaced measurement", err))) {
		sqlite3_bind_int64(s, 1, run_id);
		sqlite3_bind_text(s, 2, name, -1, SQLITE_STATIC);
		if (sqlite3_step(s) != SQLITE_DONE)
			rc = ledger_fail(st, err, "placing an unplaced measurement");
		sqlite3_finalize(s);
	}
	if (!rc && !(rc = prep(st, "INSERT INTO revisions (run_id, revision, field, old_value, "
	                           "new_value, changed_at, reason, author) "
	                           "VALUES (?1, ?2, ?3, ?4, NULL, ?5, ?6, ?7)",
	                       &s, "recording a revision", err))) {
		sqlite3_bind_int64(s, 1, run_id);
		sqlite3_bind_int(s, 2, revision);
		sqlite3_bind_text(s, 3, name, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, was, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 5, at, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 6, reason, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 7, author, -1, SQLITE_STATIC);
		if (sqlite3_step(s) != SQLITE_DONE)
			rc = ledger_fail(st, err, "recording a revision");
		sqlite3_finalize(s);
	}
	free(was);
	return rc;
}

int pl_store_annotate_runs(struct pl_store *st, struct pl_run_list *list, size_t from,
                           struct pl_error *err)
{
	struct id_val *rev = NULL, *ret = NULL;
	size_t nrev = 0, nret = 0;
	int rc;

	if (from >= list->n)
		return 0;
	if ((rc = pl_store_read_measures(st, list, from, err)))
		return rc;
	if (list->n - from <= 64)
		return annotate_few(st, list, from, err);
	if ((rc = read_id_vals(st, "SELECT run_id, max(revision) FROM revisions GROUP BY run_id "
	                           "ORDER BY run_id", &rev, &nrev, err)) ||
	    (rc = read_id_vals(st, "SELECT run_id, 1 FROM retractions WHERE restored_at IS NULL "
	                           "ORDER BY run_id", &ret, &nret, err)))
		goto out;
	for (size_t i = from; i < list->n; i++) {
		const struct id_val *r = find_id(rev, nrev, list->v[i].id);

		list->v[i].revision = r ? (int)r->val : 1;
		list->v[i].retracted = find_id(ret, nret, list->v[i].id) != NULL;
	}
out:
	free(rev);
	free(ret);
	return rc;
}

int pl_store_generation(struct pl_store *st, long long *generation, struct pl_error *err)
{
	sqlite3_stmt *s;
	int rc;

	*generation = 0;
	if ((rc = prep(st, "SELECT generation FROM ledger_generation WHERE id = 1", &s,
	               "reading the ledger generation", err)))
		return rc;
	if (sqlite3_step(s) == SQLITE_ROW)
		*generation = sqlite3_column_int64(s, 0);
	else
		rc = ledger_fail(st, err, "reading the ledger generation");
	sqlite3_finalize(s);
	return rc;
}

/* Order of a revision field: the condition table's, then extras by name. */
static int field_rank(const char *field)
{
	int id = pl_cond_lookup(field);

	return id == PL_C_NONE ? PL_COND_COUNT : id;
}

static int revision_cmp(const void *a, const void *b)
{
	const struct pl_revision *x = a, *y = b;
	int rx, ry;

	if (x->run_id != y->run_id)
		return x->run_id < y->run_id ? -1 : 1;
	if (x->revision != y->revision)
		return x->revision < y->revision ? -1 : 1;
	rx = field_rank(x->field);
	ry = field_rank(y->field);
	return rx != ry ? (rx < ry ? -1 : 1) : strcmp(x->field, y->field);
}

int pl_store_revisions(struct pl_store *st, long long run_id, struct pl_revision_list *out,
                       struct pl_error *err)
{
	size_t from = out->n;
	sqlite3_stmt *s;
	int rc, step;

	if ((rc = prep(st,
	               "SELECT run_id, revision, field, old_value, new_value, changed_at, reason, author"
	               " FROM revisions WHERE ?1 = 0 OR run_id = ?1 ORDER BY run_id, revision, field",
	               &s, "reading revisions", err)))
		return rc;
	sqlite3_bind_int64(s, 1, run_id);
	while (!rc && (step = sqlite3_step(s)) == SQLITE_ROW) {
		struct pl_revision r = {
			.run_id = sqlite3_column_int64(s, 0),
			.revision = sqlite3_column_int(s, 1),
			.field = (char *)col_text(s, 2),
			.old_value = (char *)col_text(s, 3),
			.new_value = (char *)col_text(s, 4),
			.changed_at = (char *)col_text(s, 5),
			.reason = (char *)col_text(s, 6),
			.author = (char *)col_text(s, 7),
		};
		if (pl_revision_list_push(out, &r))
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (!rc && step != SQLITE_DONE)
		rc = ledger_fail(st, err, "reading revisions");
	sqlite3_finalize(s);
	if (!rc && out->n > from) /* the fields of a revision in the condition table's order */
		qsort(out->v + from, out->n - from, sizeof(*out->v), revision_cmp);
	return rc;
}

int pl_store_retractions(struct pl_store *st, long long run_id, struct pl_retraction_list *out,
                         struct pl_error *err)
{
	sqlite3_stmt *s;
	int rc, step;

	if ((rc = prep(st,
	               "SELECT run_id, retracted_at, reason, author, restored_at, restore_reason,"
	               " restored_by FROM retractions WHERE ?1 = 0 OR run_id = ?1 ORDER BY run_id, id",
	               &s, "reading retractions", err)))
		return rc;
	sqlite3_bind_int64(s, 1, run_id);
	while (!rc && (step = sqlite3_step(s)) == SQLITE_ROW) {
		struct pl_retraction r = {
			.run_id = sqlite3_column_int64(s, 0),
			.retracted_at = (char *)col_text(s, 1),
			.reason = (char *)col_text(s, 2),
			.author = (char *)col_text(s, 3),
			.restored_at = (char *)col_text(s, 4),
			.restore_reason = (char *)col_text(s, 5),
			.restored_by = (char *)col_text(s, 6),
		};
		if (pl_retraction_list_push(out, &r))
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (!rc && step != SQLITE_DONE)
		rc = ledger_fail(st, err, "reading retractions");
	sqlite3_finalize(s);
	return rc;
}

int pl_store_run_as_imported(struct pl_store *st, const struct pl_run *run, struct pl_run *out,
                             struct pl_error *err)
{
	struct pl_revision_list revs = {0};
	int rc;

	pl_run_release(out);
	if (pl_run_copy(out, run))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if ((rc = pl_store_revisions(st, run->id, &revs, err)))
		return rc;
	for (size_t i = revs.n; i-- > 0 && rc == 0;) {
		const struct pl_revision *r = &revs.v[i];
		int id = pl_cond_lookup(r->field), bf = pl_build_lookup(r->field);
		struct pl_error e;

		pl_error_init(&e);
		if (id == PL_C_NONE && pl_metric_lookup(r->field) >= 0)
			continue; /* a metric amend or reimport re-derived: not a condition */
		if (id == PL_C_NONE && bf >= 0) { /* build identity, undone as it was */
			if (!r->old_value) {
				free(out->build[bf]);
				out->build[bf] = NULL;
				continue;
			}
			rc = pl_run_set_build(out, bf, r->old_value, &e);
		} else {
			rc = id == PL_C_NONE ? pl_run_set_extra(out, r->field, r->old_value, &e)
			                     : pl_run_set_cond(out, id, r->old_value, &e);
		}
		if (rc == PL_ENOMEM)
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		else if (rc)
			rc = pl_error_set(err, PL_EDB,
			                  "database '%s': revision %d of run %lld has %s '%.100s', which "
			                  "this perfledger cannot read (%s)",
			                  st->path, r->revision, r->run_id, r->field,
			                  r->old_value ? r->old_value : "", e.message);
	}
	pl_revision_list_release(&revs);
	out->revision = 1;
	return rc;
}

/* ------------------------------------------------------------- writing */

/* The checks every write makes: an open transaction, a reason and an
 * author; *when_text gets when as ISO 8601. */
static int write_checks(struct pl_store *st, long long when, const char *reason,
                        const char *author, char when_text[32], const char *what,
                        struct pl_error *err)
{
	if (pl_store_nest_dead(st) || st->depth == 0 || sqlite3_get_autocommit(st->db))
		return pl_error_set(err, PL_EDB, "database error: no open transaction (while %s)", what);
	if (!reason || !*reason)
		return pl_error_set(err, PL_EUSAGE, "%s needs a reason", what);
	if (!author || !*author)
		return pl_error_set(err, PL_EUSAGE, "%s needs an author", what);
	return pl_store_time_iso(when, when_text, 32, err);
}

/* Runs one statement of ours with run_id as ?1; *changes gets the rows it
 * changed (may be NULL). */
static int exec_run(struct pl_store *st, const char *sql, long long run_id, long long *changes,
                    const char *doing, struct pl_error *err)
{
	sqlite3_stmt *s;
	int rc;

	if ((rc = prep(st, sql, &s, doing, err)))
		return rc;
	sqlite3_bind_int64(s, 1, run_id);
	if (sqlite3_step(s) != SQLITE_DONE)
		rc = ledger_fail(st, err, doing);
	else if (changes)
		*changes += sqlite3_changes(st->db);
	sqlite3_finalize(s);
	return rc;
}

static int bump_generation(struct pl_store *st, struct pl_error *err)
{
	return exec_run(st, "UPDATE ledger_generation SET generation = generation + 1 WHERE id = ?1",
	                1, NULL, "counting a change of the ledger", err);
}

/* *exists and *retracted of run_id; *revision its current revision. */
static int run_state(struct pl_store *st, long long run_id, int *exists, int *retracted,
                     int *revision, long long *cond_id, struct pl_error *err)
{
	sqlite3_stmt *s;
	int rc;

	*exists = *retracted = 0;
	*revision = 1;
	*cond_id = 0;
	if ((rc = prep(st,
	               "SELECT condition_id,"
	               " EXISTS (SELECT 1 FROM retractions WHERE run_id = ?1 AND restored_at IS NULL),"
	               " coalesce((SELECT max(revision) FROM revisions WHERE run_id = ?1), 1)"
	               " FROM runs WHERE id = ?1",
	               &s, "looking up a run", err)))
		return rc;
	sqlite3_bind_int64(s, 1, run_id);
	switch (sqlite3_step(s)) {
	case SQLITE_ROW:
		*exists = 1;
		*cond_id = sqlite3_column_int64(s, 0);
		*retracted = sqlite3_column_int(s, 1);
		*revision = sqlite3_column_int(s, 2);
		break;
	case SQLITE_DONE:
		break;
	default:
		rc = ledger_fail(st, err, "looking up a run");
	}
	sqlite3_finalize(s);
	return rc;
}

static int no_run(long long run_id, struct pl_error *err)
{
	return pl_error_set(err, PL_EEMPTY, "no run with id %lld", run_id);
}

/* Writes the build identity of amended (commit, branch, build_id,
 * ci_run_url: an amend may correct them) to its runs row. */
static int amend_build(struct pl_store *st, const struct pl_run *amended, struct pl_error *err)
{
	sqlite3_str *q = sqlite3_str_new(st->db);
	sqlite3_stmt *s = NULL;
	int rc = 0;

	sqlite3_str_appendall(q, "UPDATE runs SET ");
	for (int f = 0; f < PL_BUILD_COUNT; f++) {
		pl_store_append_ident(q, f ? ", " : "", pl_store_build_cols[f]);
		sqlite3_str_appendf(q, " = ?%d", f + 1);
	}
	sqlite3_str_appendf(q, " WHERE id = ?%d", PL_BUILD_COUNT + 1);
	if (pl_store_prepare_str(st->db, q, &s) != SQLITE_OK)
		return ledger_fail(st, err, "amending a run");
	for (int f = 0; f < PL_BUILD_COUNT; f++)
		if (amended->build[f])
			sqlite3_bind_text(s, f + 1, amended->build[f], -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, PL_BUILD_COUNT + 1, amended->id);
	if (sqlite3_step(s) != SQLITE_DONE)
		rc = ledger_fail(st, err, "amending a run");
	sqlite3_finalize(s);
	return rc;
}

int pl_store_amend(struct pl_store *st, const struct pl_run *amended,
                   const struct pl_amend_change *changes, size_t nchanges, long long when,
                   const char *reason, const char *author, int *revision, long long *shared,
                   long long *shared_first, struct pl_error *err)
{
	struct pl_cond_key key = {0};
	sqlite3_stmt *s = NULL;
	char at[32];
	long long old_cond, cond_id = 0;
	int rc, exists, retracted, current, created = 0;

	*revision = 0;
	*shared = *shared_first = 0;
	if ((rc = write_checks(st, when, reason, author, at, "an amend", err)))
		return rc;
	if (nchanges == 0)
		return pl_error_set(err, PL_EUSAGE, "an amend needs a change");
	if ((rc = run_state(st, amended->id, &exists, &retracted, &current, &old_cond, err)))
		return rc;
	if (!exists)
		return no_run(amended->id, err);
	if (pl_cond_key_make(amended, &key))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if ((rc = pl_store_find_or_add_conditions(st, amended, &key, &cond_id, &created, err)))
		goto out;
	if (!created && cond_id != old_cond) {
		/* the new conditions are another stored run's: say so */
		if ((rc = prep(st, "SELECT count(*), coalesce(min(id), 0) FROM runs"
		                   " WHERE condition_id = ?1 AND id != ?2",
		               &s, "looking up runs of the same conditions", err)))
			goto out;
		sqlite3_bind_int64(s, 1, cond_id);
		sqlite3_bind_int64(s, 2, amended->id);
		if (sqlite3_step(s) == SQLITE_ROW) {
			*shared = sqlite3_column_int64(s, 0);
			*shared_first = sqlite3_column_int64(s, 1);
		} else {
			rc = ledger_fail(st, err, "looking up runs of the same conditions");
		}
		sqlite3_finalize(s);
		s = NULL;
		if (rc)
			goto out;
	}
	if ((rc = prep(st, "UPDATE runs SET condition_id = ?1, run_started_at = ?2,"
	                   " checklist_missing = ?3 WHERE id = ?4",
	               &s, "amending a run", err)))
		goto out;
	sqlite3_bind_int64(s, 1, cond_id);
	if (amended->cond[PL_C_RUN_STARTED_AT].set)
		sqlite3_bind_text(s, 2, amended->cond[PL_C_RUN_STARTED_AT].text, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, 2);
	sqlite3_bind_int64(s, 3, amended->checklist_missing);
	sqlite3_bind_int64(s, 4, amended->id);
	if (sqlite3_step(s) != SQLITE_DONE)
		rc = ledger_fail(st, err, "amending a run");
	sqlite3_finalize(s);
	s = NULL;
	if (rc || (rc = amend_build(st, amended, err)))
		goto out;
	if ((rc = prep(st, "INSERT INTO revisions (run_id, revision, field, old_value, new_value,"
	                   " changed_at, reason, author) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	               &s, "recording a revision", err)))
		goto out;
	for (size_t i = 0; i < nchanges && !rc; i++) {
		sqlite3_bind_int64(s, 1, amended->id);
		sqlite3_bind_int(s, 2, current + 1);
		sqlite3_bind_text(s, 3, changes[i].field, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, changes[i].old_value, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 5, changes[i].new_value, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 6, at, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 7, reason, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 8, author, -1, SQLITE_STATIC);
		if (sqlite3_step(s) != SQLITE_DONE)
			rc = ledger_fail(st, err, "recording a revision");
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	s = NULL;
	if (!rc)
		rc = bump_generation(st, err);
	if (!rc)
		*revision = current + 1;
out:
	pl_cond_key_release(&key);
	return rc;
}

int pl_store_pool_mates(struct pl_store *st, long long run_id, long long **ids, size_t *n,
                        struct pl_error *err)
{
	sqlite3_stmt *s = NULL;
	size_t cap = 0;
	int rc, step;

	*ids = NULL;
	*n = 0;
	if ((rc = prep(st, "SELECT id FROM runs WHERE id != ?1 AND condition_id ="
	                   " (SELECT condition_id FROM runs WHERE id = ?1) ORDER BY id",
	               &s, "looking up runs of the same conditions", err)))
		return rc;
	sqlite3_bind_int64(s, 1, run_id);
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		if (PL_ALLOC_GROW(*ids, *n + 1, cap)) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		(*ids)[(*n)++] = sqlite3_column_int64(s, 0);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = ledger_fail(st, err, "looking up runs of the same conditions");
	sqlite3_finalize(s);
	if (rc) {
		free(*ids);
		*ids = NULL;
		*n = 0;
	}
	return rc;
}

int pl_store_retract(struct pl_store *st, long long run_id, long long when, const char *reason,
                     const char *author, int *changed, struct pl_error *err)
{
	sqlite3_stmt *s;
	char at[32];
	long long cond;
	int rc, exists, retracted, rev;

	*changed = 0;
	if ((rc = write_checks(st, when, reason, author, at, "a retraction", err)) ||
	    (rc = run_state(st, run_id, &exists, &retracted, &rev, &cond, err)))
		return rc;
	if (!exists)
		return no_run(run_id, err);
	if (retracted)
		return 0;
	if ((rc = prep(st, "INSERT INTO retractions (run_id, retracted_at, reason, author)"
	                   " VALUES (?1, ?2, ?3, ?4)",
	               &s, "retracting a run", err)))
		return rc;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_text(s, 2, at, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, reason, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, author, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE)
		rc = ledger_fail(st, err, "retracting a run");
	sqlite3_finalize(s);
	if (!rc && !(rc = bump_generation(st, err)))
		*changed = 1;
	return rc;
}

int pl_store_restore(struct pl_store *st, long long run_id, long long when, const char *reason,
                     const char *author, int *changed, struct pl_error *err)
{
	sqlite3_stmt *s;
	char at[32];
	long long cond;
	int rc, exists, retracted, rev;

	*changed = 0;
	if ((rc = write_checks(st, when, reason, author, at, "a restore", err)) ||
	    (rc = run_state(st, run_id, &exists, &retracted, &rev, &cond, err)))
		return rc;
	if (!exists)
		return no_run(run_id, err);
	if (!retracted)
		return 0;
	if ((rc = prep(st, "UPDATE retractions SET restored_at = ?2, restore_reason = ?3,"
	                   " restored_by = ?4 WHERE run_id = ?1 AND restored_at IS NULL",
	               &s, "restoring a run", err)))
		return rc;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_text(s, 2, at, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, reason, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, author, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE)
		rc = ledger_fail(st, err, "restoring a run");
	sqlite3_finalize(s);
	if (!rc && !(rc = bump_generation(st, err)))
		*changed = 1;
	return rc;
}

int pl_store_purge(struct pl_store *st, long long run_id, struct pl_purge_counts *counts,
                   struct pl_error *err)
{
	long long cond, gone = 0;
	int rc, exists, retracted, rev;

	if (pl_store_nest_dead(st) || st->depth == 0 || sqlite3_get_autocommit(st->db))
		return pl_error_set(err, PL_EDB, "database error: no open transaction (while purging)");
	if ((rc = run_state(st, run_id, &exists, &retracted, &rev, &cond, err)))
		return rc;
	if (!exists)
		return no_run(run_id, err);
	if (!retracted)
		return pl_error_set(err, PL_EUSAGE,
		                    "run %lld is not retracted: only a retracted run is purged "
		                    "(perfledger retract --run %lld --reason TEXT first)", run_id, run_id);
	if ((rc = exec_run(st, "DELETE FROM run_measurements WHERE run_id = ?1", run_id, NULL,
	                   "purging a run", err)) ||
	    (rc = exec_run(st, "DELETE FROM run_requests WHERE run_id = ?1", run_id, NULL,
	                   "purging a run", err)) ||
	    (rc = exec_run(st, "DELETE FROM revisions WHERE run_id = ?1", run_id,
	                   &counts->revisions, "purging a run", err)) ||
	    (rc = exec_run(st, "DELETE FROM retractions WHERE run_id = ?1", run_id,
	                   &counts->retractions, "purging a run", err)) ||
	    (rc = exec_run(st, "DELETE FROM accepted_steps WHERE run_id = ?1", run_id,
	                   &counts->accepted, "purging a run", err)) ||
	    /* the file's kept bytes go with its last run (else merge spreads them) */
	    (rc = exec_run(st, "DELETE FROM source_chunks WHERE sha256 = (SELECT source_sha256 FROM "
	                       "runs WHERE id = ?1) AND NOT EXISTS (SELECT 1 FROM runs r WHERE "
	                       "r.source_sha256 = source_chunks.sha256 AND r.id != ?1)",
	                   run_id, NULL, "purging a run", err)) ||
	    (rc = exec_run(st, "DELETE FROM runs WHERE id = ?1", run_id, &gone, "purging a run", err)))
		return rc;
	if (gone != 1)
		return no_run(run_id, err);
	return bump_generation(st, err);
}
