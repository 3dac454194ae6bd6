/*
 * store_impl.h — what the files of src/store/ share and nothing else may
 * see: struct pl_store, the layout of its select statement, the conditions
 * memo, and the helpers for errors, statements and time that db.c defines
 * for write.c, query.c, columns.c and steps.c. Not installed; only src/store/
 * includes it (and so sqlite3.h).
 *
 * Column lists of the hot statements are generated once per store from the
 * PL_CONDITIONS / PL_METRICS tables (identifiers we own) and the statements
 * are prepared once and cached in struct pl_store; every value that comes
 * from input is a bind parameter. Conditions are shared: a run's full set of
 * condition values, its extra conditions (condition_extras) included, is
 * serialized to key_text (core/condkey.h), and runs with the same key_text
 * point at the same conditions row.
 */
#ifndef PL_STORE_IMPL_H
#define PL_STORE_IMPL_H

#include <sqlite3.h>
#include <stddef.h>

#include "core/condkey.h"
#include "core/error.h"
#include "core/model.h"
#include "store/db.h"

/* A direct-mapped memo of conditions rows this connection has stored or
 * found, slotted by the key's 64-bit hash and confirmed by comparing the
 * key: an import of many runs with few distinct condition sets then skips
 * the index lookup per run. Rows are never deleted except by a rollback,
 * so the memo is emptied on every rollback and error and only filled once
 * a run that uses the row is in. */
#define COND_MEMO_SLOTS 4096

struct cond_memo {
	char *key[COND_MEMO_SLOTS];    /* key_text, owned (malloc), or NULL */
	size_t len[COND_MEMO_SLOTS];   /* its length */
	long long id[COND_MEMO_SLOTS]; /* its conditions.id */
};

struct pl_store {
	sqlite3 *db;               /* the connection */
	char *path;                /* database path as given, for messages; owned */
	int readonly;              /* opened by pl_store_open_readonly() */
	int opened_version;        /* user_version found when opened */
	int depth;                 /* nesting depth of pl_store_begin() */
	int failed;                /* the current nest was rolled back */
	char *select_sql;          /* "SELECT <all columns> FROM runs JOIN conditions ..." */
	sqlite3_stmt *cond_insert; /* INSERT conditions (key_hash, key_text, ...) */
	sqlite3_stmt *cond_select; /* SELECT id FROM conditions WHERE key_hash = ? AND key_text = ? */
	sqlite3_stmt *cond_delete; /* DELETE FROM conditions WHERE id = ? */
	sqlite3_stmt *record_select; /* a run of this record_id from other bytes? */
	sqlite3_stmt *extra_insert; /* INSERT condition_extras (condition_id, name, value) */
	sqlite3_stmt *extra_delete; /* DELETE FROM condition_extras WHERE condition_id = ? */
	sqlite3_stmt *run_insert;  /* INSERT runs ... ON CONFLICT(sha256, record) DO NOTHING */
	sqlite3_stmt *has_sha;     /* SELECT 1 FROM runs WHERE source_sha256 = ? */
	sqlite3_stmt *source_keys; /* record, run_started_at, key_text and extras count of
	                              a sha256's runs; prepared on first use
	                              (pl_store_source_same_keys) */
	sqlite3_stmt *count;       /* SELECT count(*) FROM runs */
	sqlite3_stmt *query_all;   /* select_sql without filters */
	sqlite3_stmt *tx_begin;    /* BEGIN IMMEDIATE */
	sqlite3_stmt *tx_commit;   /* COMMIT */
	sqlite3_stmt *tx_rollback; /* ROLLBACK */
	sqlite3_stmt *sp_begin;    /* SAVEPOINT pl_insert */
	sqlite3_stmt *sp_release;  /* RELEASE pl_insert */
	sqlite3_stmt *sp_rollback; /* ROLLBACK TO pl_insert */
	sqlite3_stmt *fsp_begin;   /* SAVEPOINT pl_file */
	sqlite3_stmt *fsp_release; /* RELEASE pl_file */
	sqlite3_stmt *fsp_rollback; /* ROLLBACK TO pl_file */
	sqlite3_stmt *src_put;     /* INSERT source_chunks (source.c), prepared on first use */
	struct cond_memo *memo;    /* key -> conditions.id of rows in use; owned */
	long long stamp_time;      /* the second stamp_text was made for, or -1 */
	char stamp_text[32];       /* imported_at of that second (ISO 8601 UTC) */
	unsigned char run_null[PL_METRIC_COUNT]; /* 1: run_insert's parameter of the metric
	                                            holds NULL already (see bind_null_once) */
	unsigned char cond_null[PL_COND_COUNT];  /* 1: cond_insert's parameter of the
	                                            condition holds NULL already */
	int retracted_mode;        /* enum pl_retracted_mode of the queries */
	long long trail_added;     /* trail rows a ledger record added to stored runs
	                              (pl_store_carry_onto_stored) since opened */
};

/* Columns of select_sql before the conditions: their positions. */
enum {
	QC_ID,
	QC_SOURCE,
	QC_SHA256,
	QC_RECORD,
	QC_ADAPTER,
	QC_FORMAT_VERSION,
	QC_IMPORTED_AT,
	QC_RUN_STARTED_AT,
	QC_CHECKLIST,
	QC_CONDITION_ID,
	QC_COND0 /* then every condition stored in `conditions`, then every metric */
};

/* Provenance columns of runs, in insert order (parameter ?2 onwards). */
#define PROVENANCE_COLS \
	"source_path, source_sha256, record, adapter, format_version, imported_at, " \
	"run_started_at, checklist_missing, record_id"
#define PROVENANCE_COUNT 9

/* The 16 bytes of a record_id (32 lowercase hex digits), as runs.record_id
 * stores them. */
static inline void pl_store_record_bytes(const char *hex, unsigned char out[16])
{
	for (int i = 0; i < 16; i++) {
		int hi = hex[2 * i], lo = hex[2 * i + 1];
		hi = hi <= '9' ? hi - '0' : hi - 'a' + 10;
		lo = lo <= '9' ? lo - '0' : lo - 'a' + 10;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
}

/* Columns of `runs` holding the build identity, by enum pl_build_field
 * (migration 011); in select_sql and the runs insert they follow the metrics. */
static const char *const pl_store_build_cols[PL_BUILD_COUNT] = {"build_commit", "build_branch",
                                                                "build_id", "ci_run_url"};

/* 1 if condition id is a column of `conditions` (run_started_at is per run). */
static inline int in_conditions(int id)
{
	return !pl_cond_per_run(id);
}

static inline int is_numeric(enum pl_ctype t)
{
	return t == PL_CT_INT || t == PL_CT_REAL || t == PL_CT_BOOL;
}

/* ------------------------------------------- helpers defined in db.c */

/* Fills err from the connection's last error (and empties the memo); doing
 * says what we were doing ("storing run"). Returns PL_EDB (PL_ENOMEM when
 * SQLite ran out of memory). */
int pl_store_fail(struct pl_store *st, struct pl_error *err, const char *doing);

/* Steps a statement that returns no rows we need, then resets it.
 * Returns 0 or the error from pl_store_fail(). */
int pl_store_run_stmt(struct pl_store *st, sqlite3_stmt *s, const char *doing,
                      struct pl_error *err);

/* Runs our own (embedded, constant) SQL. Returns 0 or PL_EDB. */
int pl_store_exec_sql(struct pl_store *st, const char *sql, const char *doing,
                      struct pl_error *err);

/* Runs one statement that returns one integer; *out gets it. Returns 0 or
 * the error from pl_store_fail(). */
int pl_store_query_int(struct pl_store *st, const char *sql, const char *doing, int *out,
                       struct pl_error *err);

/* 1 if the current nest of pl_store_begin() can no longer write. */
int pl_store_nest_dead(struct pl_store *st);

/* Appends prefix and `"name"` (an identifier we own) to s. */
void pl_store_append_ident(sqlite3_str *s, const char *prefix, const char *name);

/* Appends ", <prefix>"col"" for every column of `conditions`. */
void pl_store_append_condition_columns(sqlite3_str *s, const char *prefix);

/* Finishes s and prepares it on db into *out. Returns an SQLite result
 * code (SQLITE_NOMEM when the text could not be built). */
int pl_store_prepare_str(sqlite3 *db, sqlite3_str *s, sqlite3_stmt **out);

/* Writes t (seconds since the epoch) as ISO 8601 UTC
 * ("2024-01-02T03:04:05Z") into buf of n bytes (32 is enough).
 * Returns 0 or PL_EUSAGE (a time that cannot be written). */
int pl_store_time_iso(long long t, char *buf, size_t n, struct pl_error *err);

/* ----------------------------------------- helpers defined in write.c */

/* Empties the conditions memo (after a rollback or an error). */
void pl_store_memo_clear(struct pl_store *st);

/* Finds or creates the conditions row of key (run's conditions and extras)
 * in the open transaction: *cond_id gets its id, *created 1 if this call
 * inserted it. No savepoint: on error the caller undoes. */
int pl_store_find_or_add_conditions(struct pl_store *st, const struct pl_run *run,
                                    const struct pl_cond_key *key, long long *cond_id,
                                    int *created, struct pl_error *err);

/* ----------------------------------------- helpers defined in trail.c */

/* The SQL term (our own text, no parameters) that keeps the runs of
 * st->retracted_mode, on a query whose runs table is in scope as `runs`,
 * into *term; NULL when no term is needed (every run, or nothing is
 * retracted). Returns 0 or PL_EDB. */
int pl_store_retraction_term(struct pl_store *st, const char **term, struct pl_error *err);

/* Sets revision and retracted of list->v[from..n) from the tables
 * revisions and retractions: two indexed lookups per run for up to 64
 * runs, else one read of each table whatever the run count.
 * Returns 0, PL_EDB or PL_ENOMEM. */
int pl_store_annotate_runs(struct pl_store *st, struct pl_run_list *list, size_t from,
                           struct pl_error *err);

/* Gives the runs list->v[from..n) their unplaced measurements (table
 * run_measurements, migration 012; nothing read when the table is empty).
 * Called by pl_store_annotate_runs() and by the reads that do not
 * annotate. Returns 0, PL_EDB or PL_ENOMEM. */
int pl_store_read_measures(struct pl_store *st, struct pl_run_list *list, size_t from,
                           struct pl_error *err);

/* ----------------------------------------- helpers defined in query.c */

/* 1 if filter f selects on the conditions row (a condition of `conditions`
 * or an extra condition), 0 if on the run (run_started_at). */
int pl_store_filter_on_conditions(const struct pl_filter *f);

/* Checks that every filter names a condition or an extra condition.
 * Returns 0 or PL_EUSAGE. */
int pl_store_check_filters(const struct pl_filter *filters, size_t nfilters,
                           struct pl_error *err);

/* Appends the SQL term of filter f to s ("<prefix>name = ?", "IS NULL", or
 * an EXISTS on condition_extras); its values are parameters that
 * pl_store_bind_filter() binds. */
void pl_store_append_term(sqlite3_str *s, const struct pl_filter *f, const char *prefix);

/* Binds the values of f's term from parameter idx on; *used gets how many.
 * Returns 0 or PL_EUSAGE (a value not of its field's type). */
int pl_store_bind_filter(sqlite3_stmt *s, int idx, const struct pl_filter *f, int *used,
                         struct pl_error *err);

/* *any gets 1 if any conditions row has extra conditions. Returns 0 or
 * PL_EDB. */
int pl_store_have_extras(struct pl_store *st, int *any, struct pl_error *err);

/* Reads the extra conditions of the conditions rows ids[0..nids)
 * (ascending, distinct) into sets[k], the set of ids[k], in name order.
 * The caller checks pl_store_have_extras() first. Returns 0, PL_EDB or
 * PL_ENOMEM. */
int pl_store_read_extras(struct pl_store *st, const long long *ids, size_t nids,
                         struct pl_run *sets, struct pl_error *err);

/* --------------------------------------- helpers defined in columns.c */

/* The distinct values of cond_id[0..n) ascending into ids (*nids of them),
 * and for each run the index of its value in ids into set. Returns 0 or
 * PL_ENOMEM. */
int pl_store_map_condition_ids(const long long *cond_id, size_t n, long long *ids, size_t *nids,
                               size_t *set);

/* ----------------------------------------- helpers defined in merge.c */

/* Stores what run->carried holds (accepted steps, revisions, retractions
 * of a ledger record) for the run just inserted as run_id, or, when it
 * was stored already (run_id 0), for the stored run of the same sha256 and
 * record. Rows stored already are kept as they are (merging or importing
 * twice adds nothing); ledger_generation is bumped when a revision or
 * retraction was added. Inside the caller's transaction. Returns 0 or
 * PL_EDB. */
int pl_store_insert_carried(struct pl_store *st, const struct pl_run *run, long long run_id,
                            struct pl_error *err);

/* Lays run->carried (a ledger record's trail, checked by
 * pl_carried_check()) onto the stored run of the same sha256 and record
 * (carry.c): nothing when it equals the stored trail or is a prefix of it;
 * the retractions, restores, acceptances and revocations that extend it
 * added; any other difference PL_EINVALID naming it (nothing written).
 * *added gets the rows written (also counted in st->trail_added). Inside
 * the caller's transaction. Returns 0, PL_EINVALID, PL_EDB or PL_ENOMEM. */
int pl_store_carry_onto_stored(struct pl_store *st, const struct pl_run *run, long long *added,
                               struct pl_error *err);

/* The longest text value a merged ledger's row may hold (1 MiB): more
 * than any row import writes (a line's extras are capped far below). */
#define PL_MERGE_TEXT_MAX (1 << 20)

/* Refuses (PL_EINVALID, naming it) a ledger file holding a view that
 * mine (this ledger's connection) does not define by name, a trigger or a
 * virtual table (merge_check.c); db is that file opened read-only, path
 * its name for messages. PL_ESCHEMA when its schema cannot be read. */
int pl_merge_check_objects(sqlite3 *db, sqlite3 *mine, const char *path, struct pl_error *err);

/* Checks the ledger attached to st as "o" before a merge reads it: every
 * table merge reads with this ledger's columns, every row of the types,
 * sizes and values import and the commands write (merge_check.c). Returns
 * 0, PL_EINVALID naming the first bad table or row, PL_EDB, PL_ENOMEM. */
int pl_merge_check_source(struct pl_store *st, const char *path, struct pl_error *err);

/* Checks every run of the ledger file at file (the one merged: the other
 * ledger, or its migrated copy; shown is its name in messages), one at a
 * time, after pl_merge_check_source() passed (merge_runs.c): its required
 * conditions as import checks them, its trail as pl_carried_check()
 * checks an export line's. Returns 0, or PL_EINVALID naming the first bad
 * run (id, source path, record, sha256) and why; PL_ENOMEM. */
int pl_merge_check_runs(const char *file, const char *shown, struct pl_error *err);

/* The SQLite URI of the file at path (any bytes: '%', '?', '#', spaces,
 * control and non-ASCII bytes percent-escaped; an absolute path after an
 * empty authority, so "//x/y.db" stays a path), with "?query" appended
 * when query is not empty. Returns a string the caller frees with
 * sqlite3_free(), or NULL when out of memory. */
char *pl_store_file_uri(const char *path, const char *query);

/* A ledger record (run->provenance_given) whose sha256 and record are
 * stored already: PL_EINVALID naming every field that differs, with both
 * values, when the stored run has other conditions (key is run's
 * condition key) or another run_started_at; else 0. PL_EDB. */
int pl_store_check_same_run(struct pl_store *st, const struct pl_run *run,
                            const struct pl_cond_key *key, struct pl_error *err);

/* As pl_store_check_same_run(), except that pl_store_check_same_run()
 * lets a record through whose carried revisions go beyond the stored
 * trail (pl_store_carry_extend() applies them, then checks with this one
 * that the run here now has the record's conditions). */
int pl_store_check_same_run_strict(struct pl_store *st, const struct pl_run *run,
                                   const struct pl_cond_key *key, struct pl_error *err);

/* Applies the revisions got->v[from..] a ledger record carries beyond the
 * stored trail of run id (carry_extend.c): each revision's old values the
 * run's values here, applied as amend (conditions, build identity,
 * extras, through pl_ledger_amend_run()) and reimport (metrics) apply
 * them, with the file's time, reason and author; then the run here must
 * have run's conditions. other is the other ledger of a merge, in
 * messages (run->id is its run there), or NULL for an export line. *added
 * grows by the revision rows stored. Inside the caller's transaction (on
 * error it undoes). Returns 0, PL_EINVALID naming the revision and field,
 * PL_EDB or PL_ENOMEM. */
int pl_store_carry_extend(struct pl_store *st, const struct pl_run *run, long long id,
                          const struct pl_revision_list *got, size_t from, const char *other,
                          long long *added, struct pl_error *err);

/* Adds to temp.pl_upgrade (mid, oid) every run stored in this ledger and
 * in the one attached as "o" from the same bytes, with the same
 * conditions and run_started_at but another build identity or metric
 * value, whose copy there holds a revision this ledger's trail lacks (an
 * amend of build identity, or a reimport's metrics, made there after the
 * run was copied here): merge
 * then takes those revisions as pl_merge_apply_amended() says
 * (merge_amended.c). Returns 0 or PL_EDB. */
int pl_merge_find_amended(struct pl_store *st, struct pl_error *err);

/* Takes each run of temp.pl_upgrade from the other ledger (file: its
 * file or migrated copy, read one run at a time; shown: its name in
 * messages), inside the merge's transaction: when this ledger's trail of
 * the run is the first part of the other's, the other's later revisions
 * are applied by pl_store_carry_extend(), checked as amend and reimport
 * check them; a run whose trail there is not this one's continued, or
 * whose revisions are refused, is undone alone, put in temp.pl_skip (its
 * accepted steps and retractions are then not merged either) and counted
 * in ms (the first one named in ms->skipped_first, when no conflict was
 * named before). *revisions grows by the revision rows stored. Returns 0,
 * PL_EIO (the file cannot be read), PL_EDB or PL_ENOMEM. */
int pl_merge_apply_amended(struct pl_store *st, const char *file, const char *shown,
                           struct pl_merge_stats *ms, long long *revisions, struct pl_error *err);

#endif
