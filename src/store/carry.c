/*
 * carry.c — the trail a ledger record carries, laid onto the run it names
 * when that run is stored already (an export line imported again, into
 * this ledger or another). The record's history is evidence, not
 * authority: it changes nothing when it equals the stored trail or is a
 * prefix of it (an older export re-imported after a local amend, retract
 * or accept); entries that extend the stored trail (a retraction, its
 * restore, an acceptance or its revocation made after the run was copied
 * here) are added, each checked as the command that makes it checks (the
 * record passed pl_carried_check() in validation already); any other
 * difference refuses the record, naming what differs, and nothing of it
 * is stored.
 */
#include "store/store_impl.h"
#include "core/carried.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The refusal: "the run of sha256 ..., record N is stored (run ID) with
 * another trail: <what>; nothing was stored". */
static int differs(struct pl_error *err, const struct pl_run *run, long long id, const char *what)
{
	return pl_error_set(err, PL_EINVALID,
	                    "the run of sha256 %.12s..., record %ld is stored (run %lld) with another "
	                    "trail: %s; nothing was stored",
	                    run->sha256, run->record, id, what);
}

/* The stored accepted steps of run id (every one, revoked ones too). */
static int stored_steps(struct pl_store *st, long long id, struct pl_accepted_list *out,
                        struct pl_error *err)
{
	struct pl_accepted_list all = {0};
	int rc = pl_store_accepted_steps_all(st, &all, err);

	for (size_t i = 0; !rc && i < all.n; i++) {
		const struct pl_accepted_step *a = &all.v[i];
		if (a->run_id != id)
			continue;
		if (pl_accepted_list_push(out, id, a->metric, a->reason, a->accepted_at, a->accepted_by) ||
		    (a->revoked_at && pl_accepted_list_revoke_last(out, a->revoked_at, a->revoked_by)))
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	pl_accepted_list_release(&all);
	return rc;
}

/* Revisions: the carried ones numbered up to the last one here must be
 * the stored ones or a prefix of them (revision by revision, field by
 * field, every value equal); those numbered beyond it (the other ledger
 * amended or reimported the run later) are applied by
 * pl_store_carry_extend(), *ext_from the first of them (got->n: none),
 * when the file holds every stored revision too. */
static int revisions_fit(const struct pl_revision_list *have, const struct pl_revision_list *got,
                         const struct pl_run *run, long long id, size_t *ext_from,
                         struct pl_error *err)
{
	char what[1024];
	int max = 1; /* the last revision here */

	for (size_t k = 0; k < have->n; k++)
		max = have->v[k].revision > max ? have->v[k].revision : max;
	*ext_from = got->n;
	for (size_t i = 0; i < got->n; i++) {
		const struct pl_revision *g = &got->v[i], *h = NULL;

		if (g->revision > max) { /* beyond the trail here: pl_store_carry_extend() */
			if (*ext_from == got->n)
				*ext_from = i;
			continue;
		}

		for (size_t k = 0; k < have->n && !h; k++)
			if (have->v[k].revision == g->revision && strcmp(have->v[k].field, g->field) == 0)
				h = &have->v[k];
		if (h && same(h->old_value, g->old_value) && same(h->new_value, g->new_value) &&
		    same(h->changed_at, g->changed_at) && same(h->reason, g->reason) &&
		    same(h->author, g->author))
			continue;
		if (!h)
			snprintf(what, sizeof(what),
			         "revision %d of field '%.80s' ('%.60s' -> '%.60s' by %.60s) is not in "
			         "this ledger's trail of the run",
			         g->revision, g->field, g->old_value ? g->old_value : "(missing)",
			         g->new_value ? g->new_value : "(missing)", g->author);
		else
			snprintf(what, sizeof(what),
			         "revision %d of field '%.80s' is '%.60s' -> '%.60s' by %.60s at %.30s here, "
			         "'%.60s' -> '%.60s' by %.60s at %.30s in the file",
			         g->revision, g->field, h->old_value ? h->old_value : "(missing)",
			         h->new_value ? h->new_value : "(missing)", h->author, h->changed_at,
			         g->old_value ? g->old_value : "(missing)",
			         g->new_value ? g->new_value : "(missing)", g->author, g->changed_at);
		return differs(err, run, id, what);
	}
	/* a carried revision number must hold every field the stored one has */
	for (size_t k = 0; k < have->n; k++) {
		int in_got = 0, any_of_number = 0;
		for (size_t i = 0; i < got->n; i++) {
			any_of_number |= got->v[i].revision == have->v[k].revision;
			in_got |= got->v[i].revision == have->v[k].revision &&
			          strcmp(got->v[i].field, have->v[k].field) == 0;
		}
		if ((any_of_number || *ext_from < got->n) && !in_got) {
			/* a file that goes beyond the trail here holds all of it */
			snprintf(what, sizeof(what), "revision %d lacks field '%.80s' in the file",
			         have->v[k].revision, have->v[k].field);
			return differs(err, run, id, what);
		}
	}
	return 0;
}

/* Retractions, in order: each carried one equal to the stored one (its
 * restore may be missing in the file: an older copy), or beyond the
 * stored ones (added); a restore the file adds to the last stored
 * retraction is added. *add_from gets the first carried retraction to
 * add, *restore_last 1 when the last stored one is to be restored from
 * the file's. */
static int retractions_fit(const struct pl_retraction_list *have,
                           const struct pl_retraction_list *got, const struct pl_run *run,
                           long long id, size_t *add_from, int *restore_last,
                           struct pl_error *err)
{
	char what[1024];
	size_t n = have->n < got->n ? have->n : got->n;

	*add_from = got->n;
	*restore_last = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pl_retraction *h = &have->v[i], *g = &got->v[i];

		if (!same(h->retracted_at, g->retracted_at) || !same(h->reason, g->reason) ||
		    !same(h->author, g->author)) {
			snprintf(what, sizeof(what),
			         "retraction %zu is at %.30s by %.60s ('%.80s') here, at %.30s by %.60s "
			         "('%.80s') in the file",
			         i + 1, h->retracted_at, h->author, h->reason, g->retracted_at, g->author,
			         g->reason);
			return differs(err, run, id, what);
		}
		if (!g->restored_at)
			continue; /* here restored or not: the file is as old or older */
		if (!h->restored_at) {
			if (i + 1 < have->n) /* cannot happen: only the last is open */
				continue;
			*restore_last = 1;
			continue;
		}
		if (!same(h->restored_at, g->restored_at) || !same(h->restore_reason, g->restore_reason) ||
		    !same(h->restored_by, g->restored_by)) {
			snprintf(what, sizeof(what),
			         "retraction %zu was restored at %.30s by %.60s here, at %.30s by %.60s in "
			         "the file",
			         i + 1, h->restored_at, h->restored_by, g->restored_at, g->restored_by);
			return differs(err, run, id, what);
		}
	}
	if (got->n > have->n) {
		const struct pl_retraction *last = have->n ? &have->v[have->n - 1] : NULL;
		int open_here = last && !last->restored_at && !*restore_last;

		if (open_here) { /* retract refuses a retracted run */
			snprintf(what, sizeof(what),
			         "the file adds retraction %zu while the run is retracted here", have->n + 1);
			return differs(err, run, id, what);
		}
		if (last && strcmp(got->v[have->n].retracted_at,
		                   *restore_last ? got->v[have->n - 1].restored_at : last->restored_at) < 0) {
			snprintf(what, sizeof(what),
			         "the file's retraction %zu (%.30s) is earlier than this ledger's trail",
			         have->n + 1, got->v[have->n].retracted_at);
			return differs(err, run, id, what);
		}
		*add_from = have->n;
	}
	return 0;
}

/* Accepted steps, by metric: equal, or the file's is the stored one not
 * yet revoked (older), or one the ledger lacks (added), or the stored one
 * revoked in the file (the revocation added). *add and *revoke flag, per
 * carried entry, what is to be written. */
static int steps_fit(const struct pl_accepted_list *have, const struct pl_accepted_list *got,
                     const struct pl_run *run, long long id, unsigned char *add,
                     unsigned char *revoke, struct pl_error *err)
{
	char what[1024];

	for (size_t i = 0; i < got->n; i++) {
		const struct pl_accepted_step *g = &got->v[i], *h = NULL;
		const char *m = pl_metric_info[g->metric].name;

		add[i] = revoke[i] = 0;
		for (size_t k = 0; k < have->n && !h; k++)
			if (have->v[k].metric == g->metric)
				h = &have->v[k];
		if (!h) {
			add[i] = 1;
			continue;
		}
		if (!same(h->reason, g->reason) || !same(h->accepted_at, g->accepted_at) ||
		    !same(h->accepted_by, g->accepted_by)) {
			snprintf(what, sizeof(what),
			         "the accepted step of '%s' is by %.60s at %.30s ('%.80s') here, by %.60s at "
			         "%.30s ('%.80s') in the file",
			         m, *h->accepted_by ? h->accepted_by : "(unknown)", h->accepted_at, h->reason,
			         *g->accepted_by ? g->accepted_by : "(unknown)", g->accepted_at, g->reason);
			return differs(err, run, id, what);
		}
		if (!g->revoked_at)
			continue;
		if (!h->revoked_at) {
			revoke[i] = 1;
			continue;
		}
		if (!same(h->revoked_at, g->revoked_at) || !same(h->revoked_by, g->revoked_by)) {
			snprintf(what, sizeof(what),
			         "the accepted step of '%s' was revoked at %.30s by %.60s here, at %.30s by "
			         "%.60s in the file",
			         m, h->revoked_at, h->revoked_by, g->revoked_at, g->revoked_by);
			return differs(err, run, id, what);
		}
	}
	return 0;
}

static int run_sql(struct pl_store *st, sqlite3_stmt *s, const char *doing, long long *added,
                   struct pl_error *err)
{
	int rc = 0;

	if (sqlite3_step(s) != SQLITE_DONE)
		rc = pl_store_fail(st, err, doing);
	else
		*added += sqlite3_changes(st->db);
	sqlite3_finalize(s);
	return rc;
}

static void bind_opt(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

/* The id of the stored run read from sha256's record, or 0. */
static int run_by_source(struct pl_store *st, const char *sha, long record, long long *id,
                         struct pl_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc = 0, step;

	*id = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT id FROM runs WHERE source_sha256 = ?1 AND record = ?2",
	                       -1, &s, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "looking up a run");
	sqlite3_bind_text(s, 1, sha, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, record);
	step = sqlite3_step(s);
	if (step == SQLITE_ROW)
		*id = sqlite3_column_int64(s, 0);
	else if (step != SQLITE_DONE)
		rc = pl_store_fail(st, err, "looking up a run");
	sqlite3_finalize(s);
	return rc;
}

int pl_store_insert_carried(struct pl_store *st, const struct pl_run *run, long long run_id,
                            struct pl_error *err)
{
	static const char steps_sql[] =
		"INSERT INTO accepted_steps (run_id, metric, reason, accepted_at, accepted_by, revoked_at, "
		"revoked_by) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (run_id, metric) DO NOTHING";
	static const char rev_sql[] =
		"INSERT INTO revisions (run_id, revision, field, old_value, new_value, changed_at, reason, "
		"author) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT DO NOTHING";
	static const char ret_sql[] =
		"INSERT INTO retractions (run_id, retracted_at, reason, author, restored_at, "
		"restore_reason, restored_by) SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE NOT EXISTS (SELECT 1 "
		"FROM retractions WHERE run_id = ?1 AND retracted_at = ?2 AND reason = ?3 AND author = ?4) "
		"ON CONFLICT DO NOTHING";
	const struct pl_carried *c = run->carried;
	sqlite3_stmt *s = NULL;
	long long id = run_id, audit = 0;
	int rc;

	if (pl_carried_empty(c))
		return 0;
	if (!id && (rc = run_by_source(st, run->sha256, run->record, &id, err)))
		return rc;
	if (!id)
		return 0; /* not stored (cannot happen after an insert) */
	if (sqlite3_prepare_v2(st->db, steps_sql, -1, &s, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "storing accepted steps");
	for (size_t i = 0; i < c->accepted.n; i++) {
		const struct pl_accepted_step *a = &c->accepted.v[i];

		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_text(s, 2, pl_metric_info[a->metric].name, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 3, a->reason, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, a->accepted_at, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 5, a->accepted_by ? a->accepted_by : "", -1, SQLITE_STATIC);
		bind_opt(s, 6, a->revoked_at);
		bind_opt(s, 7, a->revoked_by);
		if (sqlite3_step(s) != SQLITE_DONE) {
			rc = pl_store_fail(st, err, "storing accepted steps");
			sqlite3_finalize(s);
			return rc;
		}
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	if (sqlite3_prepare_v2(st->db, rev_sql, -1, &s, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "storing revisions");
	for (size_t i = 0; i < c->revisions.n; i++) {
		const struct pl_revision *r = &c->revisions.v[i];

		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int(s, 2, r->revision);
		sqlite3_bind_text(s, 3, r->field, -1, SQLITE_STATIC);
		bind_opt(s, 4, r->old_value);
		bind_opt(s, 5, r->new_value);
		sqlite3_bind_text(s, 6, r->changed_at, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 7, r->reason, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 8, r->author, -1, SQLITE_STATIC);
		if (sqlite3_step(s) != SQLITE_DONE) {
			rc = pl_store_fail(st, err, "storing revisions");
			sqlite3_finalize(s);
			return rc;
		}
		audit += sqlite3_changes64(st->db);
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	if (sqlite3_prepare_v2(st->db, ret_sql, -1, &s, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "storing retractions");
	for (size_t i = 0; i < c->retractions.n; i++) {
		const struct pl_retraction *r = &c->retractions.v[i];

		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_text(s, 2, r->retracted_at, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 3, r->reason, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, r->author, -1, SQLITE_STATIC);
		bind_opt(s, 5, r->restored_at);
		bind_opt(s, 6, r->restore_reason);
		bind_opt(s, 7, r->restored_by);
		if (sqlite3_step(s) != SQLITE_DONE) {
			rc = pl_store_fail(st, err, "storing retractions");
			sqlite3_finalize(s);
			return rc;
		}
		audit += sqlite3_changes64(st->db);
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	if (audit)
		return pl_store_exec_sql(st, "UPDATE ledger_generation SET generation = generation + 1",
		                         "storing retractions", err);
	return 0;
}

int pl_store_carry_onto_stored(struct pl_store *st, const struct pl_run *run, long long *added,
                               struct pl_error *err)
{
	long long id = 0;
	const struct pl_carried *c = run->carried;
	struct pl_revision_list revs = {0};
	struct pl_retraction_list rets = {0};
	struct pl_accepted_list steps = {0};
	unsigned char *add = NULL, *revoke = NULL;
	size_t add_from = 0, ext_from = 0;
	int restore_last = 0, rc;
	sqlite3_stmt *s = NULL;

	*added = 0;
	if (pl_carried_empty(c))
		return 0;
	if (sqlite3_prepare_v2(st->db, "SELECT id FROM runs WHERE source_sha256 = ?1 AND record = ?2",
	                       -1, &s, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "looking up a run");
	sqlite3_bind_text(s, 1, run->sha256, 64, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, run->record);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(s, 0);
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : pl_store_fail(st, err, "looking up a run");
	sqlite3_finalize(s);
	s = NULL;
	if (rc || !id)
		return rc; /* not stored: its record is stored from other bytes */
	if ((rc = pl_store_revisions(st, id, &revs, err)) ||
	    (rc = pl_store_retractions(st, id, &rets, err)) || (rc = stored_steps(st, id, &steps, err)))
		goto out;
	if (c->accepted.n && (!(add = calloc(c->accepted.n, 1)) || !(revoke = calloc(c->accepted.n, 1)))) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = revisions_fit(&revs, &c->revisions, run, id, &ext_from, err)) ||
	    (rc = retractions_fit(&rets, &c->retractions, run, id, &add_from, &restore_last, err)) ||
	    (rc = steps_fit(&steps, &c->accepted, run, id, add, revoke, err)))
		goto out;
	/* the revisions beyond the trail here first: the file's retractions
	 * and acceptances that follow them are of the amended run */
	if (ext_from < c->revisions.n &&
	    (rc = pl_store_carry_extend(st, run, id, &c->revisions, ext_from, NULL, added, err)))
		goto out;
	if (restore_last) {
		const struct pl_retraction *g = &c->retractions.v[rets.n - 1];
		if (sqlite3_prepare_v2(st->db, "UPDATE retractions SET restored_at = ?2, restore_reason = "
		                               "?3, restored_by = ?4 WHERE run_id = ?1 AND restored_at IS NULL",
		                       -1, &s, NULL) != SQLITE_OK) {
			rc = pl_store_fail(st, err, "restoring a run");
			goto out;
		}
		sqlite3_bind_int64(s, 1, id);
		bind_opt(s, 2, g->restored_at);
		bind_opt(s, 3, g->restore_reason);
		bind_opt(s, 4, g->restored_by);
		if ((rc = run_sql(st, s, "restoring a run", added, err)))
			goto out;
	}
	for (size_t i = add_from; i < c->retractions.n; i++) {
		const struct pl_retraction *g = &c->retractions.v[i];
		if (sqlite3_prepare_v2(st->db, "INSERT INTO retractions (run_id, retracted_at, reason, "
		                               "author, restored_at, restore_reason, restored_by) VALUES "
		                               "(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
		                       -1, &s, NULL) != SQLITE_OK) {
			rc = pl_store_fail(st, err, "retracting a run");
			goto out;
		}
		sqlite3_bind_int64(s, 1, id);
		bind_opt(s, 2, g->retracted_at);
		bind_opt(s, 3, g->reason);
		bind_opt(s, 4, g->author);
		bind_opt(s, 5, g->restored_at);
		bind_opt(s, 6, g->restore_reason);
		bind_opt(s, 7, g->restored_by);
		if ((rc = run_sql(st, s, "retracting a run", added, err)))
			goto out;
	}
	for (size_t i = 0; i < c->accepted.n; i++) {
		const struct pl_accepted_step *g = &c->accepted.v[i];
		if (!add[i] && !revoke[i])
			continue;
		if (sqlite3_prepare_v2(st->db, add[i]
		                           ? "INSERT INTO accepted_steps (run_id, metric, reason, accepted_at, "
		                             "accepted_by, revoked_at, revoked_by) VALUES (?1, ?2, ?3, ?4, ?5, "
		                             "?6, ?7)"
		                           : "UPDATE accepted_steps SET revoked_at = ?6, revoked_by = ?7 "
		                             "WHERE run_id = ?1 AND metric = ?2 AND revoked_at IS NULL",
		                       -1, &s, NULL) != SQLITE_OK) {
			rc = pl_store_fail(st, err, "storing accepted steps");
			goto out;
		}
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_text(s, 2, pl_metric_info[g->metric].name, -1, SQLITE_STATIC);
		bind_opt(s, 3, g->reason);
		bind_opt(s, 4, g->accepted_at);
		bind_opt(s, 5, g->accepted_by);
		bind_opt(s, 6, g->revoked_at);
		bind_opt(s, 7, g->revoked_by);
		if ((rc = run_sql(st, s, "storing accepted steps", added, err)))
			goto out;
	}
	if (*added)
		rc = pl_store_exec_sql(st, "UPDATE ledger_generation SET generation = generation + 1",
		                       "storing a trail", err);
out:
	free(add);
	free(revoke);
	pl_revision_list_release(&revs);
	pl_retraction_list_release(&rets);
	pl_accepted_list_release(&steps);
	return rc;
}

long long pl_store_trail_added(const struct pl_store *st)
{
	return st->trail_added;
}
