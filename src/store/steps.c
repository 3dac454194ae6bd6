/*
 * steps.c — accepted steps (issue 4): pl_store_accept_step() records that
 * a step is expected, pl_store_accepted_steps() reads them back into a
 * struct pl_accepted_list (core/accepted.h).
 */
#include "store/store_impl.h"
#include "util/clock.h"

/* These functions prepare their own statements per call (accepting a step is
 * rare) and share nothing with the cached import/query statements of db.c. */

/* Fills err from the connection for the accepted-step functions. */
static int accept_fail(struct pl_store *st, struct pl_error *err, const char *doing)
{
	if ((sqlite3_errcode(st->db) & 0xff) == SQLITE_NOMEM)
		return pl_error_set(err, PL_ENOMEM, "out of memory (while %s)", doing);
	return pl_error_set(err, PL_EDB, "database error: %s (while %s; database '%s')",
	                    sqlite3_errmsg(st->db), doing, st->path);
}

int pl_store_accept_step(struct pl_store *st, long long run_id, int metric, const char *reason,
                         const char *by, int *replaced, struct pl_error *err)
{
	static const char exists_sql[] =
		"SELECT (SELECT count(*) FROM runs WHERE id = ?1),"
		" (SELECT count(*) FROM accepted_steps WHERE run_id = ?1 AND metric = ?2),"
		" (SELECT count(*) FROM retractions WHERE run_id = ?1 AND restored_at IS NULL)";
	static const char upsert_sql[] =
		"INSERT INTO accepted_steps (run_id, metric, reason, accepted_at, accepted_by)"
		" VALUES (?1, ?2, ?3, ?4, ?5)"
		" ON CONFLICT (run_id, metric) DO UPDATE SET reason = excluded.reason,"
		" accepted_at = excluded.accepted_at, accepted_by = excluded.accepted_by,"
		" revoked_at = NULL, revoked_by = NULL";
	sqlite3_stmt *s = NULL;
	char when[32];
	long long now;
	int rc, fixed, run_found = 0, had = 0, retracted = 0;

	if (replaced)
		*replaced = 0;
	if (metric < 0 || metric >= PL_METRIC_COUNT)
		return pl_error_set(err, PL_EUSAGE, "unknown metric");
	if (!reason || !*reason)
		return pl_error_set(err, PL_EUSAGE, "an accepted step needs a reason");
	if (!by || !*by)
		return pl_error_set(err, PL_EUSAGE, "an accepted step needs an author");
	if ((rc = pl_clock_from_env(&now, &fixed, err)) ||
	    (rc = pl_store_time_iso(now, when, sizeof(when), err)))
		return rc;
	if ((rc = pl_store_begin(st, err)))
		return rc;
	if (sqlite3_prepare_v2(st->db, exists_sql, -1, &s, NULL) != SQLITE_OK) {
		rc = accept_fail(st, err, "looking up the run of an accepted step");
		goto fail;
	}
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_text(s, 2, pl_metric_info[metric].name, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_ROW) {
		rc = accept_fail(st, err, "looking up the run of an accepted step");
		goto fail;
	}
	run_found = sqlite3_column_int64(s, 0) > 0;
	had = sqlite3_column_int64(s, 1) > 0;
	retracted = sqlite3_column_int64(s, 2) > 0;
	sqlite3_finalize(s);
	s = NULL;
	if (!run_found) {
		rc = pl_error_set(err, PL_EEMPTY, "no run with id %lld", run_id);
		goto fail;
	}
	if (retracted) { /* it left every history and check: nothing to accept */
		rc = pl_error_set(err, PL_EEMPTY,
		                  "run %lld is retracted (perfledger restore --run %lld --reason TEXT "
		                  "puts it back)", run_id, run_id);
		goto fail;
	}
	if (sqlite3_prepare_v2(st->db, upsert_sql, -1, &s, NULL) != SQLITE_OK) {
		rc = accept_fail(st, err, "storing an accepted step");
		goto fail;
	}
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_text(s, 2, pl_metric_info[metric].name, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, reason, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, when, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 5, by, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE) {
		rc = accept_fail(st, err, "storing an accepted step");
		goto fail;
	}
	sqlite3_finalize(s);
	if ((rc = pl_store_commit(st, err)))
		return rc;
	if (replaced)
		*replaced = had;
	return 0;
fail:
	sqlite3_finalize(s);
	pl_store_rollback(st, NULL);
	return rc;
}

int pl_store_revoke_step(struct pl_store *st, long long run_id, int metric, const char *by,
                         struct pl_error *err)
{
	static const char sql[] =
		"UPDATE accepted_steps SET revoked_at = ?3, revoked_by = ?4"
		" WHERE run_id = ?1 AND metric = ?2 AND revoked_at IS NULL";
	sqlite3_stmt *s = NULL;
	char when[32];
	long long now;
	int rc, fixed;

	if (metric < 0 || metric >= PL_METRIC_COUNT)
		return pl_error_set(err, PL_EUSAGE, "unknown metric");
	if (!by || !*by)
		return pl_error_set(err, PL_EUSAGE, "a revocation needs an author");
	if ((rc = pl_clock_from_env(&now, &fixed, err)) ||
	    (rc = pl_store_time_iso(now, when, sizeof(when), err)))
		return rc;
	if ((rc = pl_store_begin(st, err)))
		return rc;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK) {
		rc = accept_fail(st, err, "revoking an accepted step");
		goto fail;
	}
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_text(s, 2, pl_metric_info[metric].name, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, when, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, by, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE) {
		rc = accept_fail(st, err, "revoking an accepted step");
		goto fail;
	}
	if (sqlite3_changes(st->db) == 0) {
		rc = pl_error_set(err, PL_EEMPTY, "no accepted step of %s at run %lld to revoke",
		                  pl_metric_info[metric].name, run_id);
		goto fail;
	}
	sqlite3_finalize(s);
	return pl_store_commit(st, err);
fail:
	sqlite3_finalize(s);
	pl_store_rollback(st, NULL);
	return rc;
}

/* The rows of pl_store_accepted_steps() (revoked ones too when all). */
static int read_steps(struct pl_store *st, int metric, int all, struct pl_accepted_list *out,
                      struct pl_error *err)
{
	static const char sql[] =
		"SELECT run_id, metric, reason, accepted_at, accepted_by, revoked_at, revoked_by"
		" FROM accepted_steps WHERE (?1 IS NULL OR metric = ?1) AND (?2 OR revoked_at IS NULL)"
		" ORDER BY run_id, metric";
	sqlite3_stmt *s = NULL;
	int rc = 0, step;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return accept_fail(st, err, "reading accepted steps");
	if (metric >= 0 && metric < PL_METRIC_COUNT)
		sqlite3_bind_text(s, 1, pl_metric_info[metric].name, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 2, all);
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 1);
		const char *revoked = (const char *)sqlite3_column_text(s, 5);
		int m = name ? pl_metric_lookup(name) : PL_M_NONE;

		if (m == PL_M_NONE)
			continue;
		if (pl_accepted_list_push(out, sqlite3_column_int64(s, 0), m,
		                          (const char *)sqlite3_column_text(s, 2),
		                          (const char *)sqlite3_column_text(s, 3),
		                          (const char *)sqlite3_column_text(s, 4)) ||
		    (revoked && pl_accepted_list_revoke_last(out, revoked,
		                                             (const char *)sqlite3_column_text(s, 6)))) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
	}
	if (!rc && step != SQLITE_DONE)
		rc = accept_fail(st, err, "reading accepted steps");
	sqlite3_finalize(s);
	return rc;
}

int pl_store_accepted_steps(struct pl_store *st, int metric, struct pl_accepted_list *out,
                            struct pl_error *err)
{
	return read_steps(st, metric, 0, out, err);
}

int pl_store_accepted_steps_all(struct pl_store *st, struct pl_accepted_list *out,
                                struct pl_error *err)
{
	return read_steps(st, PL_M_NONE, 1, out, err);
}
