/*
 * db.h — SQLite storage of canonical runs.
 *
 * The only module that includes sqlite3.h (its files share
 * store_impl.h, which nothing outside src/store/ includes). The schema lives in
 * schema/migrations/NNN_*.sql (embedded at build time); PRAGMA user_version
 * holds the number of the last migration applied, and opening a database
 * applies the missing ones in order, each in its own transaction. Databases
 * use WAL mode and a busy timeout so that several importers can write one
 * file at once. Runs are unique on (source sha256, record), so the same
 * bytes imported twice are stored once.
 *
 * Tables (see schema/README.md): `conditions` (one row per distinct full set
 * of condition values), `condition_extras` (a set's extra conditions,
 * "FORMAT.key" = text, part of the set), `runs` (provenance + metrics, wide:
 * one column per canonical metric) and the flat view `run_flat` for the
 * sqlite3 shell.
 */
#ifndef PL_DB_H
#define PL_DB_H

#include <stddef.h>

#include "core/accepted.h"
#include "core/condkey.h"
#include "core/error.h"
#include "core/ledger.h"
#include "core/model.h"

struct pl_store; /* opaque */

/* Opens (creating if needed) the database at path and migrates it to the
 * current schema. *out receives the handle; close it with pl_store_close().
 * Errors: PL_EIO (cannot open/create: message names the path), PL_ESCHEMA
 * (user_version newer than this program knows), PL_EDB. */
int pl_store_open(const char *path, struct pl_store **out, struct pl_error *err);

/* Opens the existing database at path read-only (SQLITE_OPEN_READONLY), for
 * the commands that only read: nothing in or beside the file is created or
 * changed (no schema, no migration, no journal mode; in a WAL database
 * SQLite itself keeps the -wal and -shm files readers need, and sees every
 * committed write). The writing functions fail on the handle with PL_EDB.
 * Errors, each naming the path: PL_EIO when the file is missing, empty or
 * not a regular file ("no perfledger database at 'x' (import creates
 * one)"), cannot be opened, or is a WAL database whose -shm file cannot be
 * made; PL_ESCHEMA when it is another program's, newer than this program,
 * or older (the message names `perfledger --db PATH migrate`); PL_EDB. */
int pl_store_open_readonly(const char *path, struct pl_store **out, struct pl_error *err);

/* The schema version the database had when st was opened (before any
 * migration pl_store_open() applied). */
int pl_store_opened_version(const struct pl_store *st);

/* Closes the database. NULL is a no-op. */
void pl_store_close(struct pl_store *st);

/* Current schema version (the number of migrations this program knows). */
int pl_store_schema_version(void);

/* Transactions (BEGIN IMMEDIATE / COMMIT / ROLLBACK). Nested calls are
 * counted: only the outermost begin/commit touch the database; a rollback
 * at any depth rolls back everything and later commits of the same nest
 * return PL_EDB. Return 0 or PL_EDB. */
int pl_store_begin(struct pl_store *st, struct pl_error *err);
int pl_store_commit(struct pl_store *st, struct pl_error *err);
int pl_store_rollback(struct pl_store *st, struct pl_error *err);

/* A file-level savepoint inside an open transaction, so that many files
 * share one transaction and each stays atomic: pl_store_file_begin() opens
 * it; pl_store_file_end() keeps (keep=1) or undoes (keep=0) everything
 * stored since, and closes it. They do not nest. Return 0 or PL_EDB. */
int pl_store_file_begin(struct pl_store *st, struct pl_error *err);
int pl_store_file_end(struct pl_store *st, int keep, struct pl_error *err);

/* A bulk import into a database that holds no runs: drops the indexes only
 * selections read (conditions_key, conditions_engine_version,
 * conditions_hardware, runs_condition_id) and records their CREATE
 * statements in deferred_indexes, in one transaction; *deferred is 1 then,
 * 0 when the database already holds runs or a transaction is open (nothing
 * changes). Returns 0 or PL_EDB (PL_ENOMEM).
 * Source of the trade: schema/migrations/006_deferred_indexes.sql. */
int pl_store_defer_indexes(struct pl_store *st, int *deferred, struct pl_error *err);

/* Builds every index recorded in deferred_indexes that does not exist (one
 * sort each) and empties the table, in one transaction: the end of an
 * import, and the repair after one that was killed. Cheap (one read) when
 * nothing is recorded; nothing inside an open transaction. Returns 0 or
 * PL_EDB / PL_ENOMEM; on error nothing changes (the statements stay
 * recorded). */
int pl_store_build_deferred_indexes(struct pl_store *st, struct pl_error *err);

/* Sets *found to 1 if any run with this source sha256 is stored, else 0.
 * Returns 0 or PL_EDB. */
int pl_store_has_sha256(struct pl_store *st, const char *sha256, int *found, struct pl_error *err);

/* Sets *found to 1 if a run with this record_id (pl_run_record_id, 32 hex
 * digits) is
 * stored from bytes other than sha256, else 0: the record would not be
 * stored again (the rule of pl_store_insert_run_bulk). Works on a
 * read-only handle. Returns 0 or PL_EDB. */
int pl_store_has_record(struct pl_store *st, const char *record_id, const char *sha256,
                        int *found, struct pl_error *err);

/* Inserts run (conditions row shared or created, with run's extra
 * conditions in condition_extras, then the runs row).
 * run->imported_at is set by the store if NULL (current UTC time, or
 * $SOURCE_DATE_EPOCH when set). On success run->id is set and *inserted is
 * 1; if (sha256, record) is already stored, nothing is written, *inserted is
 * 0 and 0 is returned. Returns 0 or PL_EDB/PL_ENOMEM, or PL_EUSAGE if
 * SOURCE_DATE_EPOCH is not a whole number of seconds. */
int pl_store_insert_run(struct pl_store *st, struct pl_run *run, int *inserted, struct pl_error *err);

/* The importer's insert: like pl_store_insert_run(), but only inside an open
 * transaction (PL_EDB otherwise) and without a savepoint of its own, so
 * after an error the caller must undo (roll back the transaction or its own
 * file savepoint). key is run's pl_cond_key_make() key, or NULL to make it
 * here. run->imported_at is not touched (the stamp is the current second, or
 * $SOURCE_DATE_EPOCH, when it is NULL). Returns as pl_store_insert_run(). */
int pl_store_insert_run_bulk(struct pl_store *st, const struct pl_run *run,
                             const struct pl_cond_key *key, int *inserted, struct pl_error *err);

/* One --where FIELD=VALUE filter: condition id and the value (normalized by
 * the caller with pl_normalize_value; compared as text for TEXT/VERSION/TIME,
 * numerically for INT/REAL/BOOL; "inf" matches infinity). A NULL value
 * selects runs where the field is missing. An extra condition ("FORMAT.key",
 * struct pl_extra) is selected with cond PL_C_NONE and extra its name: value
 * then matches the stored text exactly (no normalization), and NULL selects
 * the runs whose condition set has no such extra. */
struct pl_filter {
	int cond;          /* enum pl_cond_id, or PL_C_NONE with extra set */
	const char *value; /* normalized value text, or NULL for "missing" */
	const char *extra; /* extra condition name when cond is PL_C_NONE, else NULL */
};

/* Appends to out every stored run matching all filters (retracted runs
 * only as pl_store_set_retracted_mode() says: by default none), ordered by
 * id, with all conditions, extra conditions, metrics, provenance, revision
 * and retracted flag filled (each
 * conditions row's extras are read once, not per run). Returns 0, PL_EUSAGE (a
 * filter value that is not of the field's type), PL_EDB or PL_ENOMEM (out
 * then holds what was read before). */
int pl_store_query(struct pl_store *st, const struct pl_filter *filters, size_t nfilters,
                   struct pl_run_list *out, struct pl_error *err);

/* The runs matching all filters in columns, for comparisons over many runs
 * (see struct pl_run_columns): out (initialised here) gets their ids
 * ascending, their checklist bits, the metrics with want[m] set
 * (out->metric[m] is NULL for the others) and each conditions row they use
 * once, with its extra conditions (owned by the set), read from one snapshot. run_started_at, the condition stored per
 * run, is put into every set when all the runs share it and left out
 * otherwise, so it cannot serve as an axis here (use pl_store_query()).
 * In a WAL database, a span of 200,000 run ids or more is read by two
 * threads, the upper half on a second read-only connection to the same file,
 * while a third reads the conditions rows; imports only add runs (with
 * higher ids), and when an amend, retraction, restore or purge changed
 * stored runs between the snapshots (ledger_generation differs) the runs
 * are read again on the store's connection alone. Retracted runs are left
 * out unless pl_store_set_retracted_mode() says otherwise.
 * Memory: 8 bytes per run and wanted metric, plus 28 per run.
 * Returns 0 (out->n 0 when nothing matches), PL_EUSAGE (a filter value not
 * of its field's type), PL_EDB or PL_ENOMEM; out is empty on error. */
int pl_store_query_columns(struct pl_store *st, const struct pl_filter *filters, size_t nfilters,
                           const unsigned char want[PL_METRIC_COUNT], struct pl_run_columns *out,
                           struct pl_error *err);

/* Appends to out the stored runs read from the bytes with this sha256,
 * ordered by record, filled as by pl_store_query except revision and
 * retracted (0: an import's duplicate check reads this once per stored
 * file and must stay cheap), retracted or not. Returns 0, PL_EDB or
 * PL_ENOMEM. */
int pl_store_query_source(struct pl_store *st, const char *sha256, struct pl_run_list *out,
                          struct pl_error *err);

/* Whether the runs stored from the bytes with this sha256 have the
 * conditions that runs[0..n) (the same bytes as read now; keys[k] is the
 * condition key of runs[k], pl_cond_key_make) give them: *same is 1 when
 * every stored run whose record is that of one of the runs (a rejected
 * one, run->reject set, is not compared; its key may be empty) has the same
 * key_text, as many extra conditions and the same run_started_at text,
 * else 0. It reads four columns per stored run through one statement
 * prepared once per store, so a re-import of stored files costs an index
 * lookup per file, not a statement prepared and every column read per
 * file (issue 13, item 9). Retracted and amended runs are compared like
 * any other: an amended run's key is its current one, so a file that
 * gives the values it was imported with gets *same 0.
 * *same 0 is not a verdict: a run stored by an older perfledger may spell
 * a value otherwise (a time with an offset), so the caller then compares
 * the values themselves (pl_store_query_source()). Returns 0, PL_EDB or
 * PL_ENOMEM. */
int pl_store_source_same_keys(struct pl_store *st, const char *sha256, const struct pl_run *runs,
                              const struct pl_cond_key *keys, size_t n, int *same,
                              struct pl_error *err);

/* Number of stored runs. Returns 0 or PL_EDB. */
int pl_store_count_runs(struct pl_store *st, long long *count, struct pl_error *err);

/* ------------------------------------------------ accepted steps (issue 4) */

/* Records that the step of metric whose first run is run_id is expected,
 * for the reason given (table accepted_steps; accepted_at is the current UTC
 * time, or $SOURCE_DATE_EPOCH when set). An acceptance of the same (run,
 * metric) is replaced; *replaced (may be NULL) is then 1, else 0.
 * Returns 0; PL_EEMPTY if no run has that id or the run is retracted
 * (migration 009); PL_EUSAGE for an unknown
 * metric, an empty reason or a bad SOURCE_DATE_EPOCH; PL_EDB; PL_ENOMEM. */
int pl_store_accept_step(struct pl_store *st, long long run_id, int metric, const char *reason,
                         int *replaced, struct pl_error *err);

/* Appends to out the accepted steps of metric (every metric when metric is
 * PL_M_NONE), ordered by run id then metric name. Rows naming a metric this
 * program does not know are skipped. Returns 0, PL_EDB or PL_ENOMEM. */
int pl_store_accepted_steps(struct pl_store *st, int metric, struct pl_accepted_list *out,
                            struct pl_error *err);

/* ------------------------------------- revisions and retractions (issue 13) */

/* Which runs pl_store_query() and pl_store_query_columns() return. */
enum pl_retracted_mode {
	PL_RETRACTED_HIDE = 0, /* the default: runs that are not retracted (every
	                          comparison, check, history and report) */
	PL_RETRACTED_ONLY = 1, /* only retracted runs (list --retracted, restore, purge) */
	PL_RETRACTED_ALL = 2   /* every stored run */
};

/* Sets which runs the queries of st return from now on (enum
 * pl_retracted_mode); a new store hides retracted runs. */
void pl_store_set_retracted_mode(struct pl_store *st, int mode);

/* Reads the stored run id whole into run (initialised by the caller; its
 * conditions, extras, metrics, provenance, revision and retracted flag),
 * retracted or not. *found is 0 (run untouched) when no run has that id.
 * Returns 0, PL_EDB or PL_ENOMEM. */
int pl_store_get_run(struct pl_store *st, long long id, struct pl_run *run, int *found,
                     struct pl_error *err);

/* Appends to out the revision records of run_id (of every run when run_id
 * is 0), ordered by run, revision, then field (in the order of the
 * condition table, extras last by name, as amend lists its changes).
 * Returns 0, PL_EDB or PL_ENOMEM. */
int pl_store_revisions(struct pl_store *st, long long run_id, struct pl_revision_list *out,
                       struct pl_error *err);

/* Appends to out the retractions of run_id (of every run when 0), open and
 * restored, ordered by run then time of retraction. Returns 0, PL_EDB or
 * PL_ENOMEM. */
int pl_store_retractions(struct pl_store *st, long long run_id, struct pl_retraction_list *out,
                         struct pl_error *err);

/* Copies run (a stored run read back, run->id its id) into out
 * (initialised by the caller) with the conditions it was imported with:
 * its revisions undone, newest first (each field back to its old value).
 * Returns 0, PL_EDB, PL_ENOMEM, or PL_EDB for a stored old value the
 * field cannot take (the file was edited outside perfledger). */
int pl_store_run_as_imported(struct pl_store *st, const struct pl_run *run, struct pl_run *out,
                             struct pl_error *err);

/* The ledger generation: how many amends, retractions, restores and purges
 * changed stored runs so far (table ledger_generation). Returns 0 or PL_EDB. */
int pl_store_generation(struct pl_store *st, long long *generation, struct pl_error *err);

/* The writes below run inside a transaction the caller opened with
 * pl_store_begin() (PL_EDB otherwise), so that a command over many runs is
 * applied whole or not at all; each bumps ledger_generation. when is the
 * time to record, in seconds since 1970 (pl_clock_from_env()); reason and
 * author are stored as given (neither may be empty: PL_EUSAGE). */

/* Stores amended (a run read by pl_store_get_run() and changed by
 * pl_ledger_amend_run(); amended->id names it) as the next revision of its
 * run: the run points at the conditions row of its new key (found, or
 * created with its extras; the old row is kept), its run_started_at and
 * checklist bits are updated, and each of changes[0..nchanges) becomes one
 * revisions row. *revision gets the revision made; *shared gets how many
 * other stored runs already had exactly the new conditions (the amend put
 * it in their pool), *shared_first the smallest id among them (0 if none).
 * Returns 0; PL_EEMPTY (no such run); PL_EUSAGE (nchanges 0, no reason or
 * author, a time that cannot be written); PL_EDB; PL_ENOMEM. */
int pl_store_amend(struct pl_store *st, const struct pl_run *amended,
                   const struct pl_amend_change *changes, size_t nchanges, long long when,
                   const char *reason, const char *author, int *revision, long long *shared,
                   long long *shared_first, struct pl_error *err);

/* Retracts run_id: a new open row in retractions. *changed is 0 (nothing
 * written) when it is retracted already. Returns 0, PL_EEMPTY (no such
 * run), PL_EUSAGE, PL_EDB or PL_ENOMEM. */
int pl_store_retract(struct pl_store *st, long long run_id, long long when, const char *reason,
                     const char *author, int *changed, struct pl_error *err);

/* Restores run_id: fills restored_at, restore_reason and restored_by of its
 * open retraction. *changed is 0 (nothing written) when it is not
 * retracted. Returns as pl_store_retract(). */
int pl_store_restore(struct pl_store *st, long long run_id, long long when, const char *reason,
                     const char *author, int *changed, struct pl_error *err);

/* What pl_store_purge() deleted. */
struct pl_purge_counts {
	long long revisions;   /* revisions rows */
	long long retractions; /* retractions rows */
	long long accepted;    /* accepted_steps rows */
};

/* Deletes the retracted run run_id and its rows in revisions, retractions
 * and accepted_steps; *counts (added to) says how many of each. The
 * conditions row it used stays (other runs, or a concurrent import's
 * memo of rows, may use it; it holds no measurement). Returns 0;
 * PL_EEMPTY (no such run); PL_EUSAGE ("run N is not retracted": only a
 * retracted run is purged); PL_EDB; PL_ENOMEM. */
int pl_store_purge(struct pl_store *st, long long run_id, struct pl_purge_counts *counts,
                   struct pl_error *err);

#endif
