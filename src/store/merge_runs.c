/*
 * merge_runs.c — the other ledger of a merge, run by run, after its
 * tables and rows passed merge_check.c and before anything of it is
 * written here: each run is read back as `export` reads it (its
 * conditions, build identity, metrics and extras, with its accepted
 * steps, revisions and retractions) and must be a run import would store
 * with a trail the commands would write:
 * - every required condition present (pl_validate_required(), the check
 *   import makes): a run without model, precision, engine or hardware
 *   does not arrive by merge when import would have refused it;
 * - its trail as pl_carried_check() checks an export line's: revision
 *   numbers in order, each revision's old value the value before it, the
 *   last new value of each field the run's stored value; retractions,
 *   restorations and acceptances in order, with times, reasons and
 *   authors.
 * One run in memory at a time (with its own trail), so a merge's memory
 * does not grow with the other ledger.
 */
#include "store/store_impl.h"
#include "core/carried.h"
#include "core/validate.h"

#include <stdio.h>
#include <string.h>

struct runs_ctx {
	struct pl_store *o;   /* the other ledger, opened read-only */
	sqlite3_stmt *steps;  /* its accepted steps of run ?1 */
	const char *shown;    /* its name in messages */
};

/* The accepted steps of run id (revoked ones too) into out. */
static int run_steps(struct runs_ctx *c, long long id, struct pl_accepted_list *out,
                     struct pl_error *err)
{
	sqlite3_stmt *s = c->steps;
	int rc = 0, step;

	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, id);
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 0);
		const char *revoked = (const char *)sqlite3_column_text(s, 4);
		int m = name ? pl_metric_lookup(name) : PL_M_NONE;

		if (m == PL_M_NONE) /* merge_check.c refused it already */
			continue;
		if (pl_accepted_list_push(out, id, m, (const char *)sqlite3_column_text(s, 1),
		                          (const char *)sqlite3_column_text(s, 2),
		                          (const char *)sqlite3_column_text(s, 3)) ||
		    (revoked && pl_accepted_list_revoke_last(out, revoked,
		                                             (const char *)sqlite3_column_text(s, 5)))) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
	}
	if (!rc && step != SQLITE_DONE)
		rc = pl_store_fail(c->o, err, "reading the other ledger's accepted steps");
	sqlite3_reset(s);
	return rc;
}

static int check_run(void *vctx, const struct pl_run *run, struct pl_error *err)
{
	struct runs_ctx *c = vctx;
	struct pl_carried trail;
	struct pl_run view = *run; /* run with its trail attached: borrowed, never released */
	struct pl_error why;
	int rc;

	memset(&trail, 0, sizeof(trail));
	pl_error_init(&why);
	rc = pl_validate_required(run, &why);
	if (rc == 0) {
		if ((rc = pl_store_revisions(c->o, run->id, &trail.revisions, err)) ||
		    (rc = pl_store_retractions(c->o, run->id, &trail.retractions, err)) ||
		    (rc = run_steps(c, run->id, &trail.accepted, err)))
			goto out;
		view.carried = &trail;
		rc = pl_carried_check(&view, &why);
	}
	if (rc == PL_ENOMEM)
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	else if (rc)
		rc = pl_error_set(err, PL_EINVALID,
		                  "'%s' is refused: its run %lld (%.200s record %ld, sha256 %.12s...) %s "
		                  "%s; nothing was merged",
		                  c->shown, run->id, run->source ? run->source : "?",
		                  run->record, run->sha256,
		                  view.carried ? "has a trail the commands would not write:"
		                               : "is one import refuses:",
		                  why.message);
out:
	pl_accepted_list_release(&trail.accepted);
	pl_revision_list_release(&trail.revisions);
	pl_retraction_list_release(&trail.retractions);
	return rc;
}

int pl_merge_check_runs(const char *file, const char *shown, struct pl_error *err)
{
	struct runs_ctx c = {NULL, NULL, shown};
	struct pl_error oerr;
	int rc;

	pl_error_init(&oerr);
	if ((rc = pl_store_open_readonly(file, &c.o, &oerr)))
		return pl_error_set(err, rc == PL_ENOMEM ? PL_ENOMEM : PL_EINVALID,
		                    "'%s' is refused: it cannot be read as a ledger (%s); nothing was "
		                    "merged",
		                    shown, oerr.message);
	pl_store_set_retracted_mode(c.o, PL_RETRACTED_ALL);
	if (sqlite3_prepare_v2(c.o->db,
	                       "SELECT metric, reason, accepted_at, accepted_by, revoked_at, revoked_by "
	                       "FROM accepted_steps WHERE run_id = ?1 ORDER BY metric",
	                       -1, &c.steps, NULL) != SQLITE_OK)
		rc = pl_store_fail(c.o, err, "reading the other ledger's accepted steps");
	else if ((rc = pl_store_each_run(c.o, NULL, 0, check_run, &c, &oerr))) {
		if (rc == PL_EINVALID || rc == PL_ENOMEM)
			rc = pl_error_set(err, rc, "%s", oerr.message);
		else /* a stored value no ledger holds (read_row() names it) */
			rc = pl_error_set(err, PL_EINVALID, "'%s' is refused: %s; nothing was merged",
			                  shown, oerr.message);
	}
	sqlite3_finalize(c.steps);
	pl_store_close(c.o);
	return rc;
}
