/*
 * write.c — storing runs: the conditions row of a run's key found (through
 * the connection's memo of rows in use, then the index) or created with its
 * extra conditions, then the runs row; pl_store_insert_run() in a
 * transaction or savepoint of its own, pl_store_insert_run_bulk() inside the
 * importer's. Parameters that stay NULL run after run are bound once.
 */
#include "store/requests.h"
#include "store/store_impl.h"
#include "util/clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void pl_store_memo_clear(struct pl_store *st)
{
	if (!st->memo)
		return;
	for (int i = 0; i < COND_MEMO_SLOTS; i++) {
		free(st->memo->key[i]);
		st->memo->key[i] = NULL;
	}
}

static long long memo_get(struct pl_store *st, const struct pl_cond_key *k)
{
	unsigned h = (unsigned)(k->hash % COND_MEMO_SLOTS);

	if (st->memo && st->memo->key[h] && st->memo->len[h] == k->len &&
	    memcmp(st->memo->key[h], k->text, k->len) == 0)
		return st->memo->id[h];
	return 0;
}

static void memo_put(struct pl_store *st, const struct pl_cond_key *k, long long id)
{
	unsigned h = (unsigned)(k->hash % COND_MEMO_SLOTS);
	char *copy;

	if (!st->memo || !(copy = malloc(k->len + 1)))
		return; /* the memo is only a shortcut */
	memcpy(copy, k->text, k->len + 1);
	free(st->memo->key[h]);
	st->memo->key[h] = copy;
	st->memo->len[h] = k->len;
	st->memo->id[h] = id;
}

/* Binds NULL to parameter idx unless *is_null says it holds NULL already.
 * A statement keeps its bindings across sqlite3_reset() (run_insert and
 * cond_insert are never given sqlite3_clear_bindings()), and most of their
 * parameters are NULL run after run (a descriptor has 7 of 73 metrics):
 * binding those again was a tenth of the writer thread's instructions. */
static void bind_null_once(sqlite3_stmt *s, int idx, unsigned char *is_null)
{
	if (!*is_null)
		sqlite3_bind_null(s, idx);
	*is_null = 1;
}

/* Binds condition id's value of run to parameter idx (NULL when missing).
 * is_null is the parameter's bind_null_once() flag, or NULL (always bind). */
static void bind_cond(sqlite3_stmt *s, int idx, const struct pl_run *run, int id,
                      unsigned char *is_null)
{
	if (!pl_cond_key_has(run, id)) {
		if (is_null)
			bind_null_once(s, idx, is_null);
		else
			sqlite3_bind_null(s, idx);
		return;
	}
	if (is_null)
		*is_null = 0;
	if (pl_cond_info[id].type == PL_CT_BOOL)
		sqlite3_bind_int(s, idx, run->cond[id].num != 0);
	else if (is_numeric(pl_cond_info[id].type))
		sqlite3_bind_double(s, idx, run->cond[id].num);
	else
		sqlite3_bind_text(s, idx, run->cond[id].text, -1, SQLITE_STATIC);
}

/* Binds everything of the runs row except condition_id; run_null is the
 * store's bind_null_once() flags of the metrics' parameters. */
static void bind_run(sqlite3_stmt *s, const struct pl_run *run, const char *imported_at,
                     unsigned char *run_null)
{
	int idx = 2;

	sqlite3_bind_text(s, idx++, run->source, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, idx++, run->sha256, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, idx++, run->record);
	sqlite3_bind_text(s, idx++, run->adapter, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, idx++, run->format_version, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, idx++, imported_at, -1, SQLITE_STATIC);
	bind_cond(s, idx++, run, PL_C_RUN_STARTED_AT, NULL);
	sqlite3_bind_int64(s, idx++, run->checklist_missing);
	if (run->record_id[0]) {
		unsigned char id[16];
		pl_store_record_bytes(run->record_id, id);
		sqlite3_bind_blob(s, idx++, id, sizeof(id), SQLITE_TRANSIENT);
	} else {
		sqlite3_bind_null(s, idx++);
	}
	for (int m = 0; m < PL_METRIC_COUNT; m++, idx++) {
		if (run->has_metric[m] && !isnan(run->metric[m])) {
			sqlite3_bind_double(s, idx, run->metric[m]);
			run_null[m] = 0;
		} else {
			bind_null_once(s, idx, &run_null[m]);
		}
	}
	for (int f = 0; f < PL_BUILD_COUNT; f++, idx++) {
		if (run->build[f])
			sqlite3_bind_text(s, idx, run->build[f], -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(s, idx);
	}
}

/* imported_at for a run stored now: the current second (formatted once per
 * second), or $SOURCE_DATE_EPOCH, into *out (points into st). Returns 0 or
 * PL_EUSAGE (a bad SOURCE_DATE_EPOCH). */
static int stamp_now(struct pl_store *st, const char **out, struct pl_error *err)
{
	long long t;
	int fixed, rc;

	*out = st->stamp_text;
	if ((rc = pl_clock_from_env(&t, &fixed, err))) {
		st->stamp_time = -1;
		return rc;
	}
	if (!fixed && st->stamp_time == t)
		return 0;
	st->stamp_time = -1;
	if ((rc = pl_store_time_iso(t, st->stamp_text, sizeof(st->stamp_text), err)))
		return rc;
	if (!fixed)
		st->stamp_time = t;
	return 0;
}

/* Finds or creates the conditions row of key. *created is 1 if this call
 * inserted it. No savepoint: on error the caller undoes. cond_select,
 * cond_insert and run_insert get every parameter bound before each step
 * (or left holding the NULL it holds, bind_null_once), so their bindings
 * are not cleared after it (that cost as much as a b-tree lookup per run). */
int pl_store_find_or_add_conditions(struct pl_store *st, const struct pl_run *run,
                                    const struct pl_cond_key *key, long long *cond_id,
                                    int *created, struct pl_error *err)
{
	int step, rc = 0, idx;

	*created = 0;
	if ((*cond_id = memo_get(st, key)) != 0)
		return 0;
	sqlite3_bind_int64(st->cond_select, 1, (sqlite3_int64)key->hash);
	sqlite3_bind_text(st->cond_select, 2, key->text, (int)key->len, SQLITE_STATIC);
	step = sqlite3_step(st->cond_select);
	if (step == SQLITE_ROW)
		*cond_id = sqlite3_column_int64(st->cond_select, 0);
	else if (step != SQLITE_DONE)
		rc = pl_store_fail(st, err, "looking up conditions");
	sqlite3_reset(st->cond_select);
	if (rc || *cond_id)
		return rc;
	sqlite3_bind_int64(st->cond_insert, 1, (sqlite3_int64)key->hash);
	sqlite3_bind_text(st->cond_insert, 2, key->text, (int)key->len, SQLITE_STATIC);
	idx = 3;
	for (int i = 0; i < PL_COND_COUNT; i++)
		if (in_conditions(i))
			bind_cond(st->cond_insert, idx++, run, i, &st->cond_null[i]);
	step = sqlite3_step(st->cond_insert);
	if (step != SQLITE_DONE) {
		rc = pl_store_fail(st, err, "storing conditions");
	} else {
		*cond_id = sqlite3_last_insert_rowid(st->db);
		*created = 1;
	}
	sqlite3_reset(st->cond_insert);
	/* the extras belong to the row: stored with it, in the same transaction */
	for (size_t i = 0; i < run->nextra && !rc; i++) {
		sqlite3_bind_int64(st->extra_insert, 1, *cond_id);
		sqlite3_bind_text(st->extra_insert, 2, run->extra[i].name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st->extra_insert, 3, run->extra[i].value, -1, SQLITE_STATIC);
		rc = pl_store_run_stmt(st, st->extra_insert, "storing extra conditions", err);
	}
	return rc;
}

/* Stores run (conditions row found or created, then the runs row) in the
 * open transaction, without a savepoint. *run_id is 0 when (sha256, record)
 * was already stored; a conditions row made for it is then deleted again. */
static int insert_core(struct pl_store *st, const struct pl_run *run, const struct pl_cond_key *key,
                       const char *imported_at, long long *run_id, struct pl_error *err)
{
	long long cond_id = 0;
	int created = 0, step, rc;

	*run_id = 0;
	if (run->record_id[0]) {
		/* the same record stored from other bytes: not stored again */
		unsigned char id[16];
		pl_store_record_bytes(run->record_id, id);
		sqlite3_bind_blob(st->record_select, 1, id, sizeof(id), SQLITE_TRANSIENT);
		sqlite3_bind_text(st->record_select, 2, run->sha256, -1, SQLITE_STATIC);
		step = sqlite3_step(st->record_select);
		sqlite3_reset(st->record_select);
		if (step == SQLITE_ROW)
			return 0;
		if (step != SQLITE_DONE)
			return pl_store_fail(st, err, "looking up a record");
	}
	if ((rc = pl_store_find_or_add_conditions(st, run, key, &cond_id, &created, err)))
		return rc;
	sqlite3_bind_int64(st->run_insert, 1, cond_id);
	bind_run(st->run_insert, run, imported_at, st->run_null);
	step = sqlite3_step(st->run_insert);
	if (step != SQLITE_DONE)
		rc = pl_store_fail(st, err, "storing run");
	else if (sqlite3_changes(st->db) == 1)
		*run_id = sqlite3_last_insert_rowid(st->db);
	sqlite3_reset(st->run_insert);
	if (rc)
		return rc;
	if (*run_id == 0) {
		/* Already stored: drop the conditions row this insert made (its
		 * extras first: they refer to it). */
		if (created) {
			sqlite3_bind_int64(st->extra_delete, 1, cond_id);
			rc = pl_store_run_stmt(st, st->extra_delete, "storing conditions", err);
			sqlite3_bind_int64(st->cond_delete, 1, cond_id);
			if (!rc)
				rc = pl_store_run_stmt(st, st->cond_delete, "storing conditions", err);
			sqlite3_clear_bindings(st->cond_delete);
		}
		return rc;
	}
	memo_put(st, key, cond_id);
	if ((rc = pl_store_write_measures(st, *run_id, run, err)))
		return rc;
	return pl_store_write_requests(st, *run_id, run->requests, err);
}

int pl_store_insert_run(struct pl_store *st, struct pl_run *run, int *inserted, struct pl_error *err)
{
	struct pl_cond_key key;
	const char *imported_at = run->imported_at;
	char *stamp = NULL;
	int outer, rc;
	long long run_id = 0;

	*inserted = 0;
	if (pl_store_nest_dead(st))
		return pl_error_set(err, PL_EDB,
		                    "database error: the transaction was rolled back (while storing run)");
	if (!imported_at) {
		if ((rc = stamp_now(st, &imported_at, err)))
			return rc;
		if (!(stamp = strdup(imported_at)))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (pl_cond_key_make(run, &key)) {
		free(stamp);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}

	/* Outside a transaction take the write lock at once (concurrent importers
	 * wait on the busy timeout instead of failing on a stale snapshot);
	 * inside one, a savepoint undoes a half-done insert. */
	outer = sqlite3_get_autocommit(st->db);
	if ((rc = pl_store_run_stmt(st, outer ? st->tx_begin : st->sp_begin, "starting to store run",
	                            err)))
		goto out;
	rc = insert_core(st, run, &key, imported_at, &run_id, err);
	if (!rc)
		rc = pl_store_run_stmt(st, outer ? st->tx_commit : st->sp_release, "committing run", err);
	if (rc) {
		/* err already holds the first failure; undo quietly. */
		if (outer) {
			if (!sqlite3_get_autocommit(st->db))
				pl_store_run_stmt(st, st->tx_rollback, "rolling back", NULL);
		} else if (!sqlite3_get_autocommit(st->db)) {
			pl_store_run_stmt(st, st->sp_rollback, "rolling back", NULL);
			pl_store_run_stmt(st, st->sp_release, "rolling back", NULL);
		} else {
			st->failed = 1; /* SQLite rolled back the caller's transaction */
		}
		goto out;
	}
	if (run_id) {
		run->id = run_id;
		if (stamp) {
			free(run->imported_at);
			run->imported_at = stamp;
			stamp = NULL;
		}
		*inserted = 1;
	}
out:
	pl_cond_key_release(&key);
	free(stamp);
	return rc;
}

int pl_store_insert_run_bulk(struct pl_store *st, const struct pl_run *run,
                             const struct pl_cond_key *key, int *inserted, struct pl_error *err)
{
	struct pl_cond_key own;
	const char *imported_at = run->imported_at;
	long long run_id = 0;
	int rc;

	*inserted = 0;
	if (pl_store_nest_dead(st) || st->depth == 0 || sqlite3_get_autocommit(st->db))
		return pl_error_set(err, PL_EDB,
		                    "database error: no open transaction (while storing run)");
	if (!imported_at && (rc = stamp_now(st, &imported_at, err)))
		return rc;
	if (!key) {
		if (pl_cond_key_make(run, &own))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		key = &own;
	}
	rc = insert_core(st, run, key, imported_at, &run_id, err);
	if (!rc && !run_id && run->provenance_given) /* an export's run stored already */
		rc = pl_store_check_same_run(st, run, key, err);
	if (key == &own)
		pl_cond_key_release(&own);
	if (!rc && run_id)
		*inserted = 1;
	if (!rc && run->carried && run_id)
		rc = pl_store_insert_carried(st, run, run_id, err);
	else if (!rc && run->carried && run->provenance_given) { /* stored already */
		long long added = 0;
		rc = pl_store_carry_onto_stored(st, run, &added, err);
		st->trail_added += added;
	}
	return rc;
}
