/*
 * merge_amended.c — runs both ledgers of a merge hold (the same bytes and
 * record) that the other ledger amended, or reimported, after this ledger
 * got its copy: the other's revisions beyond this ledger's trail are
 * taken as the commands that made them would apply them here.
 *
 * Which runs: those merge.c's find_conflict() found with other conditions
 * that the other's later revisions explain, and those with the same
 * conditions whose copy there holds a revision this ledger lacks (an
 * amend of build identity — commit, branch, build_id, ci_run_url — or of
 * an extra condition, a reimport's metric values: changes the conditions
 * key does not show), pl_merge_find_amended().
 *
 * How: one run at a time, read from the other ledger's file (its values
 * and its trail), inside a savepoint of the merge's transaction. This
 * ledger's revisions must be the first of the other's, entry for entry;
 * the rest go through pl_store_carry_extend(): every old value the run's
 * value here, conditions, build identity and extras applied by amend's
 * pl_ledger_amend_run() (a ci_run_url must be an http(s) URL, a value of
 * its type), metric values plausible (schema/ranges.tsv) in the text
 * perfledger writes, each revision with its time, reason and author. A
 * run that fails is undone alone and skipped with its own trail, named
 * (the one merge rule); every other run is merged.
 */
#include "store/store_impl.h"
#include "core/amend.h"
#include "util/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pl_merge_find_amended(struct pl_store *st, struct pl_error *err)
{
	sqlite3_str *q = sqlite3_str_new(st->db);
	char *sql;
	int rc;

	/* a value differs (the copy there equal to this one is the same run,
	 * whatever its trail says: this ledger keeps its own) and a revision
	 * there is not here */
	sqlite3_str_appendall(q, "INSERT OR IGNORE INTO temp.pl_upgrade SELECT mr.id, r.id FROM "
	                         "o.runs r JOIN o.conditions oc ON oc.id = r.condition_id JOIN main.runs "
	                         "mr ON mr.source_sha256 = r.source_sha256 AND mr.record = r.record JOIN "
	                         "main.conditions mc ON mc.id = mr.condition_id WHERE mc.key_text = "
	                         "oc.key_text AND mr.run_started_at IS r.run_started_at AND (false");
	for (int f = 0; f < PL_BUILD_COUNT; f++) {
		pl_store_append_ident(q, " OR mr.", pl_store_build_cols[f]);
		pl_store_append_ident(q, " IS NOT r.", pl_store_build_cols[f]);
	}
	for (int m = 0; m < PL_METRIC_COUNT; m++) {
		pl_store_append_ident(q, " OR mr.", pl_metric_info[m].name);
		pl_store_append_ident(q, " IS NOT r.", pl_metric_info[m].name);
	}
	sqlite3_str_appendall(q, ") AND EXISTS (SELECT 1 FROM o.revisions v WHERE v.run_id = r.id AND "
	                         "NOT EXISTS (SELECT 1 FROM main.revisions x WHERE x.run_id = mr.id AND "
	                         "x.revision = v.revision AND x.field = v.field AND x.old_value IS "
	                         "v.old_value AND x.new_value IS v.new_value AND x.changed_at = "
	                         "v.changed_at AND x.reason = v.reason AND x.author = v.author)) "
	                         "ORDER BY mr.id");
	if (!(sql = sqlite3_str_finish(q)))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = pl_store_exec_sql(st, sql, "comparing the ledgers", err);
	sqlite3_free(sql);
	return rc;
}

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static int same_revision(const struct pl_revision *a, const struct pl_revision *b)
{
	return a->revision == b->revision && strcmp(a->field, b->field) == 0 &&
	       same(a->old_value, b->old_value) && same(a->new_value, b->new_value) &&
	       same(a->changed_at, b->changed_at) && same(a->reason, b->reason) &&
	       same(a->author, b->author);
}

static const char *shown_value(const char *v)
{
	return v ? v : "(missing)";
}

/* *from = the first of theirs beyond this ledger's trail (ours) when ours
 * is the first part of theirs, entry for entry; else why (not empty) says
 * where they part. */
static void trail_continues(const struct pl_revision_list *ours,
                            const struct pl_revision_list *theirs, const char *other, size_t *from,
                            char *why, size_t n)
{
	int max = 1;

	why[0] = '\0';
	for (size_t k = 0; k < ours->n; k++)
		max = ours->v[k].revision > max ? ours->v[k].revision : max;
	*from = theirs->n;
	for (size_t i = 0; i < theirs->n; i++) {
		const struct pl_revision *t = &theirs->v[i], *h = NULL;

		if (t->revision > max) {
			if (*from == theirs->n)
				*from = i;
			continue;
		}
		for (size_t k = 0; k < ours->n && !h; k++)
			if (ours->v[k].revision == t->revision && strcmp(ours->v[k].field, t->field) == 0)
				h = &ours->v[k];
		if (h && same_revision(h, t))
			continue;
		if (h)
			snprintf(why, n,
			         "both ledgers amended it apart: revision %d of field '%.80s' is '%.60s' -> "
			         "'%.60s' by %.60s at %.30s here, '%.60s' -> '%.60s' by %.60s at %.30s in "
			         "'%s'",
			         t->revision, t->field, shown_value(h->old_value), shown_value(h->new_value),
			         h->author, h->changed_at, shown_value(t->old_value),
			         shown_value(t->new_value), t->author, t->changed_at, other);
		else
			snprintf(why, n,
			         "both ledgers amended it apart: revision %d of field '%.80s' ('%.60s' -> "
			         "'%.60s' by %.60s) in '%s' is not in this ledger's trail",
			         t->revision, t->field, shown_value(t->old_value), shown_value(t->new_value),
			         t->author, other);
		return;
	}
	for (size_t k = 0; k < ours->n; k++) {
		size_t i = 0;
		while (i < theirs->n && !same_revision(&ours->v[k], &theirs->v[i]))
			i++;
		if (i == theirs->n) {
			snprintf(why, n,
			         "both ledgers amended it apart: revision %d of field '%.80s' here ('%.60s' "
			         "-> '%.60s' by %.60s) is not in the trail in '%s'",
			         ours->v[k].revision, ours->v[k].field, shown_value(ours->v[k].old_value),
			         shown_value(ours->v[k].new_value), ours->v[k].author, other);
			return;
		}
	}
}

/* Puts run (the other's) into temp.pl_skip and counts it in ms, naming
 * it when it is the first skipped. */
static int skip_run(struct pl_store *st, const struct pl_run *run, long long mid, const char *why,
                    struct pl_merge_stats *ms, struct pl_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc = 0;

	if (sqlite3_prepare_v2(st->db, "INSERT OR IGNORE INTO temp.pl_skip VALUES (?1, ?2)", -1, &s,
	                       NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "comparing the ledgers");
	sqlite3_bind_text(s, 1, run->sha256, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, run->record);
	if (sqlite3_step(s) != SQLITE_DONE)
		rc = pl_store_fail(st, err, "comparing the ledgers");
	sqlite3_finalize(s);
	if (rc)
		return rc;
	if (ms->skipped++ == 0) {
		snprintf(ms->skipped_first, sizeof(ms->skipped_first), "%s", why);
	} else {
		size_t used = strlen(ms->skipped_first);
		snprintf(ms->skipped_first + used, sizeof(ms->skipped_first) - used,
		         "; so is run %lld here (its revisions there are not taken)", mid);
	}
	return 0;
}

/* One run: mid here, oid there. */
static int take_one(struct pl_store *st, struct pl_store *o, long long mid, long long oid,
                    const char *shown, struct pl_merge_stats *ms, long long *revisions,
                    struct pl_error *err)
{
	struct pl_run run;
	struct pl_revision_list ours = {0}, theirs = {0};
	struct pl_error why;
	char parted[1200];
	size_t from = 0;
	long long added = 0;
	int found = 0, rc;

	pl_run_init(&run);
	pl_error_init(&why);
	if ((rc = pl_store_get_run(o, oid, &run, &found, err)) ||
	    (rc = pl_store_revisions(o, oid, &theirs, err)) ||
	    (rc = pl_store_revisions(st, mid, &ours, err)))
		goto out;
	if (!found) {
		rc = pl_error_set(err, PL_EDB, "database error: run %lld of '%s' vanished", oid, shown);
		goto out;
	}
	trail_continues(&ours, &theirs, shown, &from, parted, sizeof(parted));
	if (parted[0]) {
		char msg[1600];
		snprintf(msg, sizeof(msg),
		         "run %lld here and run %lld of '%s' were read from the same bytes (sha256 "
		         "%.12s..., record %ld), and %s",
		         mid, oid, shown, run.sha256, run.record, parted);
		rc = skip_run(st, &run, mid, msg, ms, err);
		goto out;
	}
	if (from == theirs.n) /* nothing beyond this ledger's trail */
		goto out;
	if ((rc = pl_store_file_begin(st, err)))
		goto out;
	rc = pl_store_carry_extend(st, &run, mid, &theirs, from, shown, &added, &why);
	if (rc == 0) {
		if ((rc = pl_store_file_end(st, 1, err)) == 0)
			*revisions += added;
	} else if (rc == PL_EINVALID) { /* this run alone is not merged */
		if ((rc = pl_store_file_end(st, 0, err)) == 0)
			rc = skip_run(st, &run, mid, why.message, ms, err);
	} else {
		pl_store_file_end(st, 0, NULL);
		pl_error_set(err, rc, "%s", why.message);
	}
out:
	pl_revision_list_release(&ours);
	pl_revision_list_release(&theirs);
	pl_run_release(&run);
	return rc;
}

int pl_merge_apply_amended(struct pl_store *st, const char *file, const char *shown,
                           struct pl_merge_stats *ms, long long *revisions, struct pl_error *err)
{
	struct pl_store *o = NULL;
	sqlite3_stmt *s = NULL;
	long long *pair = NULL; /* mid, oid, mid, oid, ... */
	size_t n = 0, cap = 0;
	struct pl_error oerr;
	int rc = 0, step;

	if (sqlite3_prepare_v2(st->db, "SELECT mid, oid FROM temp.pl_upgrade ORDER BY mid", -1, &s,
	                       NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "merging amended runs");
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		if (PL_ALLOC_GROW(pair, n + 2, cap)) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		pair[n++] = sqlite3_column_int64(s, 0);
		pair[n++] = sqlite3_column_int64(s, 1);
	}
	if (!rc && step != SQLITE_DONE)
		rc = pl_store_fail(st, err, "merging amended runs");
	sqlite3_finalize(s);
	if (rc || n == 0)
		goto out;
	pl_error_init(&oerr);
	if ((rc = pl_store_open_readonly(file, &o, &oerr))) {
		rc = pl_error_set(err, rc == PL_ENOMEM ? PL_ENOMEM : PL_EIO, "cannot read ledger '%s': %s",
		                  shown, oerr.message);
		goto out;
	}
	pl_store_set_retracted_mode(o, PL_RETRACTED_ALL);
	for (size_t i = 0; i < n && !rc; i += 2)
		rc = take_one(st, o, pair[i], pair[i + 1], shown, ms, revisions, err);
out:
	pl_store_close(o);
	free(pair);
	return rc;
}
