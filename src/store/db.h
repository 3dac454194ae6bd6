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
#include "core/amend.h"
#include "core/model.h"

struct pl_store; /* opaque */

/* Opens (creating if needed) the database at path and migrates it to the
 * current schema. *out receives the handle; close it with pl_store_close().
 * Errors: PL_EIO (cannot open/create: message names the path; a path that
 * exists, symlinks followed, and is not a regular file is refused before
 * SQLite opens it: "no perfledger database at 'x' (it is a character
 * device, not a regular file)", nothing created beside it), PL_ESCHEMA
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

/* The trail rows (retractions, restores, acceptances, revocations) that
 * ledger records imported through st added to runs stored already, since
 * st was opened. */
long long pl_store_trail_added(const struct pl_store *st);

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

/* Called by pl_store_each_set() with the runs of one conditions row; it may
 * take runs' contents (the list is released after). Returns 0 to go on, or
 * a PL_E* code (err set) that stops the walk. */
typedef int (*pl_store_set_fn)(void *ctx, struct pl_run_list *runs, struct pl_error *err);

/* Walks the runs matching all filters one conditions row (one condition
 * key, a series) at a time, in conditions id order: fn gets each row's runs
 * ordered by id, filled as by pl_store_query(), so that only one series is
 * in memory at once (`perfledger site` over a million runs). Reads from one
 * statement, so every call sees the same snapshot. Returns 0, PL_EUSAGE (a
 * filter value not of its field's type), PL_EDB, PL_ENOMEM or fn's code. */
int pl_store_each_set(struct pl_store *st, const struct pl_filter *filters, size_t nfilters,
                      pl_store_set_fn fn, void *ctx, struct pl_error *err);

/* Appends to out every stored run with the same condition key (conditions
 * row) as run run_id, that run included, ordered by id, filled as by
 * pl_store_query (retracted runs left out): the series a nightly step or
 * regression of that run belongs to. Returns 0, PL_EEMPTY (no run with that
 * id, or it is retracted), PL_EDB or PL_ENOMEM. */
int pl_store_query_key_of(struct pl_store *st, long long run_id, struct pl_run_list *out,
                          struct pl_error *err);

/* Calls fn(ctx, run, err) for every stored run matching all filters, in id
 * order, filled as by pl_store_query() (extras included), one at a time:
 * memory stays constant whatever the number of runs (the run is the
 * store's; fn copies what it keeps). A nonzero return of fn stops the
 * walk and is returned. Returns 0, PL_EUSAGE (a filter value not of its
 * field's type), PL_EDB, PL_ENOMEM, or fn's code. */
int pl_store_each_run(struct pl_store *st, const struct pl_filter *filters, size_t nfilters,
                      int (*fn)(void *ctx, const struct pl_run *run, struct pl_error *err),
                      void *ctx, struct pl_error *err);

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
 * for the reason given, by whom (`by`, non-empty: accept --by, else $USER)
 * (table accepted_steps; accepted_at is the current UTC time, or
 * $SOURCE_DATE_EPOCH when set). An acceptance of the same (run, metric) is
 * replaced, a revoked one made active again; *replaced (may be NULL) is then
 * 1, else 0.
 * Returns 0; PL_EEMPTY if no run has that id or the run is retracted
 * (migration 009); PL_EUSAGE for an unknown metric, an empty reason or
 * author or a bad SOURCE_DATE_EPOCH; PL_EDB; PL_ENOMEM. */
int pl_store_accept_step(struct pl_store *st, long long run_id, int metric, const char *reason,
                         const char *by, int *replaced, struct pl_error *err);

/* Revokes the active acceptance of (run_id, metric): the row stays, with
 * revoked_at (current UTC time or $SOURCE_DATE_EPOCH) and revoked_by = by,
 * and is no longer returned by pl_store_accepted_steps().
 * Returns 0; PL_EEMPTY if there is no active acceptance of that run and
 * metric; PL_EUSAGE (metric, author, SOURCE_DATE_EPOCH); PL_EDB; PL_ENOMEM. */
int pl_store_revoke_step(struct pl_store *st, long long run_id, int metric, const char *by,
                         struct pl_error *err);

/* Appends to out the active (not revoked) accepted steps of metric (every
 * metric when metric is PL_M_NONE), ordered by run id then metric name. Rows
 * naming a metric this program does not know are skipped. Returns 0, PL_EDB
 * or PL_ENOMEM. */
int pl_store_accepted_steps(struct pl_store *st, int metric, struct pl_accepted_list *out,
                            struct pl_error *err);

/* As pl_store_accepted_steps() for every metric, revoked acceptances
 * included (their revoked_at and revoked_by set), ordered by run id then
 * metric name: what `export` writes. Returns 0, PL_EDB or PL_ENOMEM. */
int pl_store_accepted_steps_all(struct pl_store *st, struct pl_accepted_list *out,
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
 * created with its extras; the old row is kept), its run_started_at,
 * build identity and checklist bits are updated, and each of changes[0..nchanges) becomes one
 * revisions row. *revision gets the revision made; *shared gets how many
 * other stored runs already had exactly the new conditions (the amend put
 * it in their pool), *shared_first the smallest id among them (0 if none).
 * Returns 0; PL_EEMPTY (no such run); PL_EUSAGE (nchanges 0, no reason or
 * author, a time that cannot be written); PL_EDB; PL_ENOMEM. */
/* Stores (inserts or replaces by name) the unplaced measurements of run
 * as those of stored run run_id, in the open transaction (the import does it for a new run; reimport
 * for a measurement it moves out of the conditions or newly read). Returns 0 or
 * PL_EDB. */
int pl_store_write_measures(struct pl_store *st, long long run_id, const struct pl_run *run,
                            struct pl_error *err);

/* reimport: the unplaced measurement name of stored run run_id, which
 * today's adapter places as metrics, leaves the run's measurements; one
 * revisions row of the given revision (>= 2) records it (field = name, the
 * old value its stored text: the number in its shortest form or the JSON
 * text; new value NULL) with reason and author at time when. Inside the
 * caller's transaction. Returns 0; PL_EUSAGE (revision < 2, no reason or
 * author); PL_EDB. A name the run does not hold is no change (0). */
int pl_store_place_measure(struct pl_store *st, long long run_id, const char *name, int revision,
                           long long when, const char *reason, const char *author,
                           struct pl_error *err);

int pl_store_amend(struct pl_store *st, const struct pl_run *amended,
                   const struct pl_amend_change *changes, size_t nchanges, long long when,
                   const char *reason, const char *author, int *revision, long long *shared,
                   long long *shared_first, struct pl_error *err);

/* The ids of the other runs that share run_id's conditions row (they pool
 * with it in comparisons), ascending, into *ids (caller frees with
 * free()) and *n. Returns 0, PL_EDB or PL_ENOMEM. */
int pl_store_pool_mates(struct pl_store *st, long long run_id, long long **ids, size_t *n,
                        struct pl_error *err);

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

/* ------------------------------------------- hub watermarks (issue 29, 016) */

/* The watermark of hub (its name HOST:PORT/DB, then " --where ..." for a
 * selection: never a user or password) as a new string in *snapshot
 * (free(); NULL when this ledger never completed a pull from it): the
 * PostgreSQL snapshot text the last complete pull read under. Returns 0,
 * PL_EDB or PL_ENOMEM. */
int pl_store_hub_mark(struct pl_store *st, const char *hub, char **snapshot, struct pl_error *err);

/* Stores snapshot as hub's watermark: replacing the one stored (replace
 * 1), or only where hub has none (replace 0: moving an older perfledger's
 * LEDGER.hub-marks file in). Inside the caller's transaction when one is
 * open. Returns 0 or PL_EDB. */
int pl_store_set_hub_mark(struct pl_store *st, const char *hub, const char *snapshot, int replace,
                          struct pl_error *err);

/* ------------------------------------------ source bytes (issue 13, 010) */

/* A streamed file's bytes are kept in chunks of this many bytes, and so
 * are those of a JSON file of the adapters' stream minimum (4 MiB) or more,
 * read in pieces (a file read whole is one chunk, up to
 * PL_SOURCE_CHUNK_MAX). */
#define PL_SOURCE_CHUNK ((size_t)1 << 20)
/* The largest chunk perfledger writes, 256 MiB: a file the import reads
 * whole (at most PL_IMPORT_WHOLE_MAX bytes, import.h) is one chunk. A
 * stored chunk that claims more is damaged, never inflated. */
#define PL_SOURCE_CHUNK_MAX ((size_t)256 * 1024 * 1024)

/* One compressed chunk of a source file (caller-owned; pl_source_chunk_release). */
struct pl_source_chunk {
	unsigned char *z; /* zlib stream (RFC 1950); malloc'd */
	size_t zlen;      /* bytes in z */
	size_t size;      /* bytes of the file it holds, uncompressed */
};

/* Compresses in[0..n) (n at most 2 GiB) into a zlib stream (RFC 1950, as
 * zlib -6 would, written by libdeflate level 6 with a compressor kept per
 * thread) in *out, which the caller releases with pl_source_chunk_release().
 * Needs no store and is thread-safe (the import compresses on its parser
 * thread). Returns 0,
 * PL_ENOMEM, or PL_EUSAGE for n too large. */
int pl_source_compress(const void *in, size_t n, struct pl_source_chunk *out,
                       struct pl_error *err);

/* Frees c's bytes and zeroes it; NULL is a no-op. */
void pl_source_chunk_release(struct pl_source_chunk *c);

/* Stores chunk seq (0-based) of the file whose bytes hash to sha256 (64
 * lowercase hex digits) in source_chunks; a chunk stored already is kept
 * as it is (same sha256, same bytes: stored once). Inside the caller's
 * transaction when one is open. Returns 0 or PL_EDB / PL_ENOMEM. */
int pl_store_put_source_chunk(struct pl_store *st, const char *sha256, long long seq,
                              const struct pl_source_chunk *c, struct pl_error *err);

/* *found gets 1 if the bytes with this sha256 are stored, else 0. Returns
 * 0 or PL_EDB. */
int pl_store_has_source(struct pl_store *st, const char *sha256, int *found, struct pl_error *err);

/* The stored bytes with this sha256, inflated and checked: *out (caller
 * frees; NUL-terminated after *len bytes). Returns 0; PL_EEMPTY when they
 * are not stored (a file imported before migration 010); PL_ESCHEMA when
 * they are damaged (a chunk missing or not inflating, or the bytes not
 * hashing to sha256); PL_EDB; PL_ENOMEM. */
int pl_store_read_source(struct pl_store *st, const char *sha256, char **out, size_t *len,
                         struct pl_error *err);

/* The size in bytes of the stored source with this sha256 (0 when not
 * stored) and its number of chunks. Returns 0 or PL_EDB. */
int pl_store_source_size(struct pl_store *st, const char *sha256, long long *size,
                         long long *chunks, struct pl_error *err);

/* Chunk seq of the stored source with this sha256, inflated: *out (caller
 * frees; NUL-terminated after *len bytes). The whole file's sha256 is not
 * checked here (the caller hashes the chunks in order). Returns 0;
 * PL_EEMPTY when there is no such chunk; PL_ESCHEMA when it is damaged;
 * PL_EDB; PL_ENOMEM. */
int pl_store_read_source_chunk(struct pl_store *st, const char *sha256, long long seq, char **out,
                               size_t *len, struct pl_error *err);

/* Appends to out the stored runs read from the bytes with this sha256
 * whose record is in [from, to], ordered by record, at most limit of them
 * (0: all), filled as by pl_store_query_source(). Returns 0, PL_EDB or
 * PL_ENOMEM. */
int pl_store_query_source_range(struct pl_store *st, const char *sha256, long from, long to,
                                long limit, struct pl_run_list *out, struct pl_error *err);

/* ---------------------------------------------------- merge (issue 13) */

/* What pl_store_merge() brought in. */
struct pl_merge_stats {
	long long runs;          /* runs stored (not stored before) */
	long long conditions;    /* new conditions rows */
	long long steps;         /* accepted steps stored */
	long long revisions;     /* revision records stored */
	long long retractions;   /* retraction records stored */
	long long source_chunks; /* chunks of source bytes stored */
	int migrated_from;       /* the other ledger's schema version when a copy of it was
	                            migrated, else 0 */
	long long skipped;       /* runs read from the same bytes as one here but with other
	                            conditions no revision explains: not merged, nor their
	                            trail */
	char skipped_first[1600]; /* the first of them with both values, and the ids of the
	                            next ones ("" when none skipped) */
};

/*
 * Brings the runs of the ledger file other into st, in one transaction:
 * their conditions rows and extra conditions (shared with equal ones
 * here), the runs themselves with their provenance (imported_at
 * included), their accepted steps, revisions and retractions (a record
 * stored already is kept as it is) and the source bytes. A run is the same
 * in both ledgers when sha256 and record agree; it is stored once, so
 * merging the same file twice stores nothing the second time. other is
 * opened read-only and never changed; when its schema is older, a copy
 * ("<st's path>.merge-PID.tmp") is migrated and merged, and removed.
 * *ms gets the counts. Returns 0; PL_EINVALID when a run of other was
 * read from the same bytes as one here but has other conditions (the
 * message names both runs, every field and both values; nothing is
 * merged); PL_EUSAGE when other is st's own file; PL_EIO (other missing or
 * unreadable, the copy failing); PL_ESCHEMA (not a perfledger ledger, or
 * newer than this program); PL_EDB; PL_ENOMEM. On error nothing is merged.
 */
int pl_store_merge(struct pl_store *st, const char *other, struct pl_merge_stats *ms,
                   struct pl_error *err);

/* reimport (issue 13): a stored run's metrics re-derived from its source
 * bytes by today's adapters. Sets metric[i] of run run_id to value[i] (in
 * canonical units; NaN stores NULL: the metric removed) for i < n,
 * recording each as a revisions row of the
 * given revision (>= 2; the caller picks the run's next one, or the one
 * pl_store_amend() just made for the same reimport) with field = the
 * metric's name, the old and new values in their shortest text (NULL =
 * missing); bumps ledger_generation. Inside the caller's transaction
 * (PL_EDB otherwise). Returns 0; PL_EEMPTY (no such run); PL_EUSAGE (no
 * reason or author, revision < 2); PL_EDB; PL_ENOMEM. */
int pl_store_revise_metrics(struct pl_store *st, long long run_id, int revision, const int *metric,
                            const double *value, size_t n, long long when, const char *reason,
                            const char *author, struct pl_error *err);

#endif
