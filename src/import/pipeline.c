/*
 * pipeline.c — the import pipeline: paths in, validated runs stored. The
 * parser side lives in walk.c (directories), parse_file.c (one input file,
 * whole or streamed) and prepare.c (one file's runs: sidecar, --set,
 * normalize, validate); differs.c decides a file stored already; this file
 * holds the queue, the writer, batches and transactions, progress and the
 * entry points.
 *
 * Two threads:
 * - The parser thread walks the paths, reads each file, hashes it, parses
 *   it (adapters), overlays the sidecar NAME.conditions.json (the one place
 *   sidecars are read, for every input extension) and then --set,
 *   normalizes and validates.
 * - It hands finished files to the calling thread through a bounded queue:
 *   QUEUE_RUNS runs, filled PUBLISH_ITEMS files at a time so the threads do
 *   not wake each other for every file. Memory does not grow with the
 *   number of files. The bound is in runs, not items, so the queue holds
 *   as many small files as runs of a streamed file, and either thread runs
 *   on while the other pauses (a commit, a checkpoint, a slow file).
 * - The writer hands the items it is done with back through the same lock
 *   and the parser frees them, so blocks go back to the malloc arena of the
 *   thread that allocated them and the two threads do not contend for it.
 *
 * The calling thread is the one writer:
 * - It skips files whose sha256 is stored, and stores each file's runs in
 *   the open batch transaction. A file is atomic: its runs are all
 *   validated before, and a store failure rolls the batch back.
 * - It commits every opts->commit_runs runs (PL_IMPORT_COMMIT_RUNS by
 *   default) rather than once per file. A crash loses at most the open
 *   batch; re-running the import stores exactly what is missing.
 * - Callbacks run on it, in input order. A file's outcome is held back
 *   until its batch is committed, so "stored" is never said of a run that
 *   a later failure could undo. If a commit fails (disk full), the files of
 *   that batch are reported as not stored.
 *
 * Into a database that holds no runs yet, the import drops the indexes
 * only selections use and builds them once at the end
 * (pl_store_defer_indexes, migration 006): one sort each instead of a
 * b-tree insert per run, about a fifth of the import's time. They are
 * built at the end of every import, after a failure too, which also
 * repairs after an import that was killed.
 *
 * A rejected file is reported through the callback and the batch goes on.
 * With strict, the whole batch runs inside one outer transaction: every
 * file is still checked, so the user sees every bad one, but once any file
 * is rejected nothing is stored. Files that were fine are then reported as
 * rejected with "not stored: another file of the strict batch was
 * rejected" (stats.rejected counts only the files that were bad).
 */
#include "core/names.h"
#include "util/alloc.h"
#include "util/suggest.h"
#include "import/import.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "adapters/adapters.h"
#include "core/hash.h"
#include "core/model.h"
#include "core/normalize.h"
#include "import/import_impl.h"

#define QUEUE_RUNS 1024  /* runs in flight between the threads (an item counts at least 1):
                            16 stream chunks, or 1024 one-run files */
#define PUBLISH_ITEMS 8  /* whole files the parser gathers before it queues them */
#define HELD_MAX 8192    /* outcomes held back before a batch is committed anyway */

/* A callback held back until its batch is decided. */
struct outcome {
	char *path;                   /* owned */
	enum pl_import_status status; /* as reported */
	size_t runs;                  /* runs of the file */
	size_t reference_only;        /* of which reference-only */
	char *warnings;               /* notes about the runs, or NULL; owned */
	struct pl_error *err;         /* set when rejected; owned */
};

static double seconds_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

void pl_import_item_free(struct item *it)
{
	if (!it)
		return;
	free(it->path);
	free(it->err);
	free(it->warnings);
	if (it->keys)
		for (size_t i = 0; i < it->runs.n; i++)
			pl_cond_key_release(&it->keys[i]);
	free(it->keys);
	pl_run_list_release(&it->runs);
	pl_source_chunk_release(&it->src);
	for (size_t i = 0; i < it->nsrcs; i++)
		pl_source_chunk_release(&it->srcs[i]);
	free(it->srcs);
	free(it);
}

/* A new item; path is copied (may be NULL). NULL when out of memory. */
struct item *pl_import_item_new(enum item_kind kind, const char *path)
{
	struct item *it = calloc(1, sizeof(*it));

	if (!it)
		return NULL;
	it->kind = kind;
	if (path && !(it->path = strdup(path))) {
		free(it);
		return NULL;
	}
	return it;
}

/* Records err as the item's rejection (copies it). Returns rc. */
int pl_import_item_fail(struct item *it, int rc, const struct pl_error *err)
{
	it->rc = rc;
	if (!it->err)
		it->err = malloc(sizeof(*it->err));
	if (it->err)
		*it->err = *err;
	return rc;
}

/* ------------------------------------------------------------ outcomes */

static void deliver(struct batch *b, struct outcome *o)
{
	if (b->cb)
		b->cb(b->ctx, o->path, o->status, o->runs, o->reference_only,
		      o->status == PL_IMPORT_STORED ? o->warnings : NULL,
		      o->status >= PL_IMPORT_REJECTED ? o->err : NULL);
	free(o->path);
	free(o->warnings);
	free(o->err);
}

/* Delivers every held callback, in order. */
static void flush_held(struct batch *b)
{
	for (size_t i = 0; i < b->nheld; i++)
		deliver(b, &b->held[i]);
	b->nheld = 0;
}

/* The held files of a batch that was rolled back are not stored: say so. */
static void unstore_held(struct batch *b, const struct pl_error *why)
{
	for (size_t i = 0; i < b->nheld; i++) {
		struct outcome *o = &b->held[i];
		if (o->status != PL_IMPORT_STORED)
			continue;
		o->status = PL_IMPORT_REJECTED;
		b->stats.stored--;
		b->stats.runs -= o->runs;
		b->stats.rejected++;
		free(o->err);
		o->err = malloc(sizeof(*o->err));
		if (o->err) {
			*o->err = *why;
			if (why->code != PL_EINVALID) {
				pl_error_at(o->err, o->path, 0, 0);
				pl_error_field(o->err, NULL);
			}
		}
	}
}

/* Counts a file's outcome and reports it now, or holds it back while its
 * batch (or the strict batch) is open. */
static void report_w(struct batch *b, const char *path, enum pl_import_status status, size_t runs,
                     size_t refonly, const char *warnings, const struct pl_error *err);

static void report(struct batch *b, const char *path, enum pl_import_status status, size_t runs,
                   size_t refonly, const struct pl_error *err)
{
	report_w(b, path, status, runs, refonly, NULL, err);
}

/* report() with the warnings of a stored file. */
static void report_w(struct batch *b, const char *path, enum pl_import_status status, size_t runs,
                     size_t refonly, const char *warnings, const struct pl_error *err)
{
	struct outcome o;

	if (status != PL_IMPORT_RECORD_REJECTED)
		b->stats.files++;
	if (status == PL_IMPORT_RECORD_REJECTED) {
		/* one bad record: the batch has a rejection (--strict rolls it back) */
		b->stats.records_rejected++;
		if (!b->rejected && err)
			b->first_reject = *err;
		b->rejected = 1;
	} else if (status == PL_IMPORT_STORED) {
		b->stats.stored++;
		b->stats.runs += runs;
	} else if (status == PL_IMPORT_DUPLICATE) {
		b->stats.duplicates++;
	} else {
		b->stats.rejected++;
		if (!b->rejected && err)
			b->first_reject = *err;
		b->rejected = 1;
		if (err && err->code == PL_EIO) {
			if (!b->io_failed)
				b->first_io = *err;
			b->io_failed = 1;
		}
	}
	memset(&o, 0, sizeof(o));
	o.status = status;
	o.runs = runs;
	o.reference_only = refonly;
	o.path = strdup(path);
	if (status == PL_IMPORT_STORED && warnings)
		o.warnings = strdup(warnings); /* best effort: a note is lost only without memory */
	if (status >= PL_IMPORT_REJECTED && err && (o.err = malloc(sizeof(*o.err))) != NULL)
		*o.err = *err;
	if (o.path && (b->opts->strict || b->in_tx)) {
		if (PL_ALLOC_GROW(b->held, b->nheld + 1, b->capheld) == 0) {
			b->held[b->nheld++] = o;
			return;
		}
	}
	/* nothing open, or cannot hold it back: report it as it is */
	if (b->cb)
		b->cb(b->ctx, path, status, runs, refonly, o.warnings,
		      status >= PL_IMPORT_REJECTED ? err : NULL);
	free(o.path);
	free(o.warnings);
	free(o.err);
}

void pl_import_set_fatal(struct batch *b, const struct pl_error *err)
{
	if (b->fatal)
		return;
	b->fatal = err->code ? err->code : PL_EDB;
	b->fatal_err = *err;
	pthread_mutex_lock(&b->mu);
	b->stop = 1;
	pthread_cond_broadcast(&b->not_full);
	pthread_mutex_unlock(&b->mu);
}

/* Non-strict: commits the open batch and releases its callbacks. A failed
 * commit (disk full) makes every file of the batch "not stored". */
static void commit_batch(struct batch *b)
{
	struct pl_error err;

	if (b->opts->strict)
		return;
	pl_error_init(&err);
	if (b->in_tx) {
		b->in_tx = 0;
		b->tx_runs = 0;
		if (b->fatal) {
			pl_store_rollback(b->st, &err);
			unstore_held(b, &b->fatal_err);
		} else if (pl_store_commit(b->st, &err) != 0) {
			pl_import_set_fatal(b, &err);
			unstore_held(b, &err);
		}
	}
	flush_held(b);
}

/* Opens the batch transaction if none is open. */
static int ensure_tx(struct batch *b, struct pl_error *err)
{
	int rc;

	if (b->opts->strict || b->in_tx || b->opts->dry_run)
		return 0;
	if ((rc = pl_store_begin(b->st, err)) != 0)
		return rc;
	b->in_tx = 1;
	b->tx_runs = 0;
	return 0;
}

static void progress_tick(struct batch *b, int force)
{
	if (!b->opts->progress)
		return;
	if (!force && seconds_since(&b->last_tick) < 0.25)
		return;
	clock_gettime(CLOCK_MONOTONIC, &b->last_tick);
	b->opts->progress(b->opts->progress_ctx, &b->stats, seconds_since(&b->t0));
}

/* Inserts the item's runs into the open transaction; *stored counts the
 * runs that were new, b->refonly_stored those of them that are
 * reference-only. Returns 0 or the store's error (fatal: the caller
 * then rolls back the file's savepoint or the whole batch). */
static int insert_runs(struct batch *b, struct item *it, size_t *stored, struct pl_error *err)
{
	for (size_t i = 0; i < it->runs.n; i++) {
		int inserted = 0, rc;
		if (it->runs.v[i].reject)
			continue; /* reported by report_records() */
		rc = pl_store_insert_run_bulk(b->st, &it->runs.v[i], it->keys ? &it->keys[i] : NULL,
		                              &inserted, err);
		if (rc)
			return rc;
		*stored += (size_t)inserted;
		b->refonly_stored += inserted && it->runs.v[i].checklist_missing;
	}
	return 0;
}

/* Dry run: hands each run of runs[0..n) that would be stored (not a
 * rejected record, its record_id stored neither in the database from other
 * bytes nor by an earlier file of this batch) to the preview callback,
 * counting them in *stored and their reference-only ones in
 * b->refonly_stored; then remembers the file's sha256 and record_ids.
 * Returns 0, PL_EDB or PL_ENOMEM (err set). */
static int preview_runs(struct batch *b, const struct pl_run *runs, size_t n, const char *sha,
                        size_t *stored, struct pl_error *err)
{
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct pl_run *r = &runs[i];
		int found = 0;
		if (r->reject)
			continue;
		if (r->record_id[0] && !(found = pl_hexset_has(&b->seen_records, r->record_id)) &&
		    (rc = pl_store_has_record(b->st, r->record_id, sha, &found, err)))
			break;
		if (found)
			continue;
		(*stored)++;
		b->refonly_stored += r->checklist_missing != 0;
		if (b->opts->preview)
			b->opts->preview(b->opts->preview_ctx, r);
	}
	for (size_t i = 0; i < n && rc == 0; i++)
		if (!runs[i].reject && runs[i].record_id[0] &&
		    pl_hexset_add(&b->seen_records, runs[i].record_id))
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc == 0 && pl_hexset_add(&b->seen_files, sha))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	return rc;
}

/* Stores the chunks of a file read in pieces (it->srcs), numbered from 0,
 * freeing each once stored. Returns 0 or PL_EDB. */
static int put_chunks(struct batch *b, struct item *it, struct pl_error *err)
{
	int rc = 0;

	for (size_t i = 0; i < it->nsrcs && rc == 0; i++) {
		rc = pl_store_put_source_chunk(b->st, it->sha, (long long)i, &it->srcs[i], err);
		pl_source_chunk_release(&it->srcs[i]);
	}
	return rc;
}

/* Stores every run of one whole file in the open batch. No savepoint is
 * needed for the file to be atomic: its runs were all parsed and validated
 * before, so the only failures left are the database's, and those are fatal
 * to the batch, whose transaction is then rolled back (with the files
 * already in it reported as not stored). */
static int store_file(struct batch *b, struct item *it, size_t *stored, struct pl_error *err)
{
	int rc = ensure_tx(b, err);

	/* the chunks of a file read in pieces first, each freed once stored,
	 * so that they are not held beside the requests insert_runs() encodes */
	if (rc == 0)
		rc = put_chunks(b, it, err);
	if (rc == 0)
		rc = insert_runs(b, it, stored, err);
	if (rc == 0 && it->src.z)
		rc = pl_store_put_source_chunk(b->st, it->sha, 0, &it->src, err);
	return rc;
}

/* The bytes of a file whose runs are stored already: kept too when they
 * are not (a ledger written before migration 010 gets them by importing
 * the files again). Returns 0 or, after a fatal store error, -1. */
static int backfill_source(struct batch *b, struct item *it)
{
	struct pl_error err;
	int kept = 0;

	if ((!it->src.z && !it->nsrcs) || (b->opts->strict && b->rejected) || b->opts->dry_run)
		return 0; /* a dry run writes nothing */
	pl_error_init(&err);
	/* a read first: re-importing stored files writes nothing (and works on
	 * a database this user may only read) */
	if (pl_store_has_source(b->st, it->sha, &kept, &err) == 0 && kept)
		return 0;
	if (err.code || put_chunks(b, it, &err) ||
	    (it->src.z && pl_store_put_source_chunk(b->st, it->sha, 0, &it->src, &err))) {
		pl_error_at(&err, it->path, 0, 0);
		pl_import_set_fatal(b, &err);
		report(b, it->path, PL_IMPORT_REJECTED, it->runs.n, 0, &err);
		return -1;
	}
	return 0;
}

/* Looks the sha256 up. Returns 1 if stored, 0 if not, -1 on a fatal error. */
static int is_duplicate(struct batch *b, const char *sha)
{
	struct pl_error err;
	int found = 0;

	pl_error_init(&err);
	if (pl_store_has_sha256(b->st, sha, &found, &err) != 0) {
		pl_import_set_fatal(b, &err);
		return -1;
	}
	return found || pl_hexset_has(&b->seen_files, sha);
}

/* Reports each rejected record of the item (its own message, "record N:"
 * or the line) as a record of path; returns how many runs are left to
 * store. */
static size_t report_records(struct batch *b, const char *path, struct item *it)
{
	size_t good = 0, bad = 0;

	for (size_t i = 0; i < it->runs.n; i++) {
		if (!it->runs.v[i].reject) {
			good++;
			continue;
		}
		bad++;
		report(b, path, PL_IMPORT_RECORD_REJECTED, 1, 0, it->runs.v[i].reject);
	}
	return good;
}

/* Runs of the item that are not rejected records. */
static size_t count_good(const struct item *it)
{
	size_t good = 0;

	for (size_t i = 0; i < it->runs.n; i++)
		good += !it->runs.v[i].reject;
	return good;
}

/* A streamed file none of whose records could be stored: each was
 * reported; the file is counted as rejected without a message of its own. */
static void count_file_rejected(struct batch *b)
{
	b->stats.files++;
	b->stats.rejected++;
}

static int is_fatal_code(int rc)
{
	return rc == PL_EDB || rc == PL_ENOMEM || rc == PL_ESCHEMA;
}

/* After a file: commit when the batch is full. */
static void after_file(struct batch *b)
{
	if (b->in_tx && (b->tx_runs >= b->commit_runs || b->nheld >= HELD_MAX))
		commit_batch(b);
	progress_tick(b, 0);
}

static void consume_file(struct batch *b, struct item *it)
{
	struct pl_error err;
	size_t stored = 0, good = it->runs.n;
	int dup, rc;

	if (it->have_sha) {
		/* Look the bytes up under the write lock, so that what we then store
		 * cannot have been stored by another process in between. */
		pl_error_init(&err);
		if (ensure_tx(b, &err)) {
			pl_error_at(&err, it->path, 0, 0);
			pl_import_set_fatal(b, &err);
			report(b, it->path, PL_IMPORT_REJECTED, it->runs.n, 0, &err);
			return;
		}
		if ((dup = is_duplicate(b, it->sha)) < 0) {
			report(b, it->path, PL_IMPORT_REJECTED, it->runs.n, 0, &b->fatal_err);
			return;
		}
		/* the bad records of the file, stored or not: still missing */
		if (it->rc == 0 && count_good(it) == 0 && it->runs.n > 0) {
			/* no record is good: the file is rejected, with its first
			 * record's reason (the others' are most often the same) */
			report(b, it->path, PL_IMPORT_REJECTED, it->runs.n, 0, it->runs.v[0].reject);
			after_file(b);
			return;
		}
		if (it->rc == 0) {
			good = report_records(b, it->path, it);
			if (good < it->runs.n)
				b->stats.partial++;
		}
		if (dup && it->rc == 0 && it->runs.n > 0) {
			int d = pl_import_stored_differs(b, it->path, it->sha, &it->runs, it->keys, &err);
			if (d != 0) {
				report(b, it->path, PL_IMPORT_REJECTED, it->runs.n, 0,
				       d < 0 ? &b->fatal_err : &err);
				after_file(b);
				return;
			}
		}
		if (dup) {
			if (it->rc == 0 && backfill_source(b, it))
				return;
			report(b, it->path, PL_IMPORT_DUPLICATE, 0, 0, NULL);
			after_file(b);
			return;
		}
	}
	if (it->rc) {
		if (is_fatal_code(it->rc))
			pl_import_set_fatal(b, it->err);
		report(b, it->path, PL_IMPORT_REJECTED, it->runs.n, 0, it->err);
		after_file(b);
		return;
	}
	if (b->opts->dry_run) {
		/* nothing written: what would be stored is shown */
		pl_error_init(&err);
		b->refonly_stored = 0;
		if ((rc = preview_runs(b, it->runs.v, it->runs.n, it->sha, &stored, &err))) {
			pl_error_at(&err, it->path, 0, 0);
			pl_import_set_fatal(b, &err);
			report(b, it->path, PL_IMPORT_REJECTED, it->runs.n, 0, &err);
			return;
		}
		b->stats.records_present += good - stored;
	} else if (b->opts->strict && b->rejected) {
		/* strict and already failed: check only, the batch will be rolled back */
		stored = good;
	} else {
		pl_error_init(&err);
		b->refonly_stored = 0;
		rc = store_file(b, it, &stored, &err);
		if (rc) {
			if (!err.file[0])
				pl_error_at(&err, it->path, err.line, err.column);
			pl_import_set_fatal(b, &err);
			report(b, it->path, PL_IMPORT_REJECTED, it->runs.n, 0, &err);
			return;
		}
		b->tx_runs += stored;
		/* records stored already from other bytes (a fixed file again) */
		b->stats.records_present += good - stored;
	}
	/* count what was inserted: nothing new means the bytes were stored already */
	if (stored == 0 && good > 0)
		report(b, it->path, PL_IMPORT_DUPLICATE, 0, 0, NULL);
	else
		report_w(b, it->path, PL_IMPORT_STORED, stored,
		         b->opts->strict && b->rejected && !b->opts->dry_run ? it->refonly
		                                                            : b->refonly_stored,
		         it->warnings, NULL);
	after_file(b);
}

static void consume_begin(struct batch *b, struct item *it)
{
	struct pl_error err;
	int dup;

	b->stream_stored = 0;
	b->stream_bad = 0;
	b->refonly_stored = 0;
	memcpy(b->stream_sha, it->sha, sizeof(b->stream_sha));
	free(b->stream_path);
	b->stream_path = strdup(it->path); /* NULL only without memory: then "-" */
	pl_error_init(&err);
	if (ensure_tx(b, &err)) { /* the lookup below is then under the write lock */
		pl_error_at(&err, it->path, 0, 0);
		pl_import_set_fatal(b, &err);
		b->stream_state = 4;
		return;
	}
	dup = is_duplicate(b, it->sha);
	if (dup < 0) {
		b->stream_state = 4;
		return;
	}
	if (dup && b->opts->nset > 0) {
		int d = pl_import_stored_differs(b, it->path, it->sha, NULL, NULL, &err);
		if (d < 0) {
			b->stream_state = 4;
			return;
		}
		if (d > 0) {
			b->stream_state = 5;
			if (!(b->stream_err = malloc(sizeof(*b->stream_err)))) {
				pl_import_set_fatal(b, &err);
				b->stream_state = 4;
				return;
			}
			*b->stream_err = err;
			pthread_mutex_lock(&b->mu);
			b->skip_stream = 1;
			pthread_mutex_unlock(&b->mu);
			return;
		}
	}
	if (dup) {
		b->stream_state = 2;
		pthread_mutex_lock(&b->mu);
		b->skip_stream = 1;
		pthread_mutex_unlock(&b->mu);
		return;
	}
	if ((b->opts->strict && b->rejected) || b->opts->dry_run) {
		b->stream_state = 3; /* checked (and in a dry run shown), not stored */
		return;
	}
	if (pl_store_file_begin(b->st, &err)) {
		pl_error_at(&err, it->path, 0, 0);
		pl_import_set_fatal(b, &err);
		b->stream_state = 4;
		return;
	}
	memcpy(b->stream_sha, it->sha, sizeof(b->stream_sha));
	b->stream_state = 1;
}

static void consume_runs(struct batch *b, struct item *it)
{
	struct pl_error err;

	if ((b->stream_state != 1 && b->stream_state != 3) || b->fatal)
		return;
	if (report_records(b, b->stream_path ? b->stream_path : "-", it) < it->runs.n)
		b->stream_bad = 1;
	if (b->stream_state == 3 && b->opts->dry_run) {
		size_t n = 0;
		pl_error_init(&err);
		if (preview_runs(b, it->runs.v, it->runs.n, b->stream_sha, &n, &err)) {
			pl_import_set_fatal(b, &err);
			b->stream_state = 4;
			return;
		}
		b->stream_stored += n;
		return;
	}
	if (b->stream_state != 1)
		return;
	pl_error_init(&err);
	if (insert_runs(b, it, &b->stream_stored, &err)) {
		struct pl_error ignore;
		pl_error_init(&ignore);
		pl_store_file_end(b->st, 0, &ignore);
		pl_import_set_fatal(b, &err);
		b->stream_state = 4;
		return;
	}
	progress_tick(b, 0);
}

/* A chunk of the streamed file's bytes: stored inside its savepoint. */
static void consume_src(struct batch *b, struct item *it)
{
	struct pl_error err;

	if (b->stream_state != 1 || b->fatal)
		return;
	pl_error_init(&err);
	if (pl_store_put_source_chunk(b->st, b->stream_sha, it->src_seq, &it->src, &err)) {
		struct pl_error ignore;
		pl_error_init(&ignore);
		pl_store_file_end(b->st, 0, &ignore);
		pl_import_set_fatal(b, &err);
		b->stream_state = 4;
	}
}

static void consume_end(struct batch *b, struct item *it)
{
	struct pl_error err;
	int state = b->stream_state;

	b->stream_state = 0;
	if (state == 5) { /* stored already, with other conditions */
		report(b, it->path, PL_IMPORT_REJECTED, 0, 0, b->stream_err);
		free(b->stream_err);
		b->stream_err = NULL;
		after_file(b);
		return;
	}
	if (state == 2) {
		report(b, it->path, PL_IMPORT_DUPLICATE, 0, 0, NULL);
		after_file(b);
		return;
	}
	if (b->fatal || state == 4) {
		report(b, it->path, PL_IMPORT_REJECTED, it->nruns, 0, &b->fatal_err);
		return;
	}
	pl_error_init(&err);
	if (it->rc) {
		if (state == 1)
			pl_store_file_end(b->st, 0, &err);
		if (is_fatal_code(it->rc))
			pl_import_set_fatal(b, it->err);
		report(b, it->path, PL_IMPORT_REJECTED, it->nruns, 0, it->err);
		after_file(b);
		return;
	}
	if (state == 1 && pl_store_file_end(b->st, 1, &err)) {
		pl_error_at(&err, it->path, 0, 0);
		pl_import_set_fatal(b, &err);
		report(b, it->path, PL_IMPORT_REJECTED, it->nruns, 0, &err);
		return;
	}
	if (b->stream_bad)
		b->stats.partial++;
	/* every record was rejected, and reported (a streamed file of blank
	 * lines alone holds no record: 0 runs stored, as from an empty file) */
	if (it->nruns == 0 && (state != 1 || b->stream_bad)) {
		count_file_rejected(b);
		after_file(b);
		return;
	}
	if (state == 1) {
		b->tx_runs += b->stream_stored;
		b->stats.records_present += it->nruns - b->stream_stored;
		if (b->stream_stored == 0 && it->nruns > 0) {
			report(b, it->path, PL_IMPORT_DUPLICATE, 0, 0, NULL);
			after_file(b);
			return;
		}
		report_w(b, it->path, PL_IMPORT_STORED, b->stream_stored, b->refonly_stored,
		         it->warnings, NULL);
	} else if (b->opts->dry_run) {
		b->stats.records_present += it->nruns - b->stream_stored;
		if (b->stream_stored == 0) {
			report(b, it->path, PL_IMPORT_DUPLICATE, 0, 0, NULL);
			after_file(b);
			return;
		}
		report_w(b, it->path, PL_IMPORT_STORED, b->stream_stored, b->refonly_stored,
		         it->warnings, NULL);
	} else {
		report(b, it->path, PL_IMPORT_STORED, it->nruns, it->refonly, NULL);
	}
	after_file(b);
}

/* The writer: handles one item and frees it. After a fatal error items are
 * only drained. */
static void consume(struct batch *b, struct item *it)
{
	if (!b->fatal || it->kind == IT_END || it->kind == IT_FILE) {
		switch (it->kind) {
		case IT_FILE:
			if (b->fatal)
				break; /* not looked at: the batch stopped */
			consume_file(b, it);
			break;
		case IT_BEGIN:
			consume_begin(b, it);
			break;
		case IT_RUNS:
			consume_runs(b, it);
			break;
		case IT_SRC:
			consume_src(b, it);
			break;
		case IT_END:
			if (b->fatal && b->stream_state == 0)
				break;
			consume_end(b, it);
			break;
		case IT_FATAL:
			pl_import_set_fatal(b, it->err);
			break;
		}
	}
	if (b->threaded) {
		/* The parser thread allocated it: freed there, malloc's arena
		 * is not locked by both threads for every block (see pop()). */
		it->next = b->spent;
		b->spent = it;
	} else {
		pl_import_item_free(it);
	}
}

static void free_items(struct item *it)
{
	while (it) {
		struct item *next = it->next;
		pl_import_item_free(it);
		it = next;
	}
}

/* ------------------------------------------------------------ the queue */

/* What an item counts against QUEUE_RUNS: its runs, at least 1, and its
 * source bytes. */
static size_t item_weight(const struct item *it)
{
	/* compressed source bytes weigh a run per 16 KiB, so that the queue
	 * holds at most about 16 MiB of them */
	size_t z = it->src.zlen;

	for (size_t i = 0; i < it->nsrcs; i++)
		z += it->srcs[i].zlen;
	return (it->runs.n ? it->runs.n : 1) + z / 16384;
}

/* Parser side: queues the gathered items (waits while the queue is full).
 * Returns 0, or -1 when the writer asked to stop (they are freed). */
static int publish(struct batch *b)
{
	struct item *first = b->pend_head, *last = b->pend_tail, *ret;
	size_t n = b->npend, weight = b->pend_weight;

	if (!n)
		return 0;
	b->pend_head = b->pend_tail = NULL;
	b->npend = 0;
	b->pend_weight = 0;
	pthread_mutex_lock(&b->mu);
	while (b->nqueued >= QUEUE_RUNS && !b->stop)
		pthread_cond_wait(&b->not_full, &b->mu);
	ret = b->ret;
	b->ret = NULL;
	if (b->stop) {
		pthread_mutex_unlock(&b->mu);
		free_items(ret);
		free_items(first);
		return -1;
	}
	if (b->tail)
		b->tail->next = first;
	else
		b->head = first;
	b->tail = last;
	if (b->nqueued == 0) /* the writer waits only on an empty queue */
		pthread_cond_signal(&b->not_empty);
	b->nqueued += weight;
	pthread_mutex_unlock(&b->mu);
	free_items(ret); /* the items the writer is done with, outside the lock */
	return 0;
}

/* Parser side: hands it to the writer (or, unthreaded, consumes it at
 * once). Whole files are gathered PUBLISH_ITEMS at a time, so that the
 * threads wake each other once per batch rather than once per file; any
 * other item is queued at once with those gathered before it (a streamed
 * file's IT_BEGIN must reach the writer, which may tell the parser to skip
 * the file; chunks are large). Returns 0, or -1 when the writer asked to
 * stop (it is freed). */
int pl_import_push(struct batch *b, struct item *it)
{
	if (!b->threaded) {
		consume(b, it);
		return b->fatal ? -1 : 0;
	}
	it->next = NULL;
	if (b->pend_tail)
		b->pend_tail->next = it;
	else
		b->pend_head = it;
	b->pend_tail = it;
	b->npend++;
	b->pend_weight += item_weight(it);
	if (it->kind == IT_FILE && b->npend < PUBLISH_ITEMS)
		return 0;
	return publish(b);
}

/* Writer side: the next item, or NULL when the parser is done. Takes every
 * queued item at once. */
static struct item *pop(struct batch *b)
{
	struct item *it;

	if (!b->got) {
		pthread_mutex_lock(&b->mu);
		while (!b->head && !b->parser_done)
			pthread_cond_wait(&b->not_empty, &b->mu);
		b->got = b->head;
		b->head = b->tail = NULL;
		/* hand the consumed items back; the parser frees them when it next
		 * publishes (at most about two queues' worth are held) */
		if (b->spent) {
			struct item *last = b->spent;
			while (last->next)
				last = last->next;
			last->next = b->ret;
			b->ret = b->spent;
			b->spent = NULL;
		}
		if (b->nqueued >= QUEUE_RUNS) /* the parser may be waiting for room */
			pthread_cond_signal(&b->not_full);
		b->nqueued = 0;
		pthread_mutex_unlock(&b->mu);
	}
	it = b->got;
	if (it)
		b->got = it->next;
	return it;
}

int pl_import_stopped(struct batch *b)
{
	int stop;

	pthread_mutex_lock(&b->mu);
	stop = b->stop;
	pthread_mutex_unlock(&b->mu);
	return stop;
}

/* Parser side: 1 if the streamed file is to be skipped (a duplicate) or
 * the writer stopped. */
int pl_import_stream_skipped(struct batch *b)
{
	int skip;

	pthread_mutex_lock(&b->mu);
	skip = b->skip_stream || b->stop;
	pthread_mutex_unlock(&b->mu);
	return skip;
}

/* Parser side: pushes an out-of-memory fatal item (best effort). */
void pl_import_push_oom(struct batch *b)
{
	struct item *it = pl_import_item_new(IT_FATAL, NULL);
	struct pl_error err;

	pl_error_init(&err);
	pl_error_set(&err, PL_ENOMEM, "out of memory");
	if (!it) {
		pthread_mutex_lock(&b->mu);
		b->stop = 1;
		pthread_mutex_unlock(&b->mu);
		return;
	}
	pl_import_item_fail(it, PL_ENOMEM, &err);
	pl_import_push(b, it);
}

/* The parser: every path in order, then done. */
static void *parser_main(void *arg)
{
	struct batch *b = arg;

	for (size_t i = 0; i < b->npaths && !pl_import_stopped(b); i++) {
		struct stat sb;
		const char *path = b->paths[i];
		if (strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			pl_import_walk_dir(b, path, 0);
		} else {
			struct src f = {path, -1, NULL, -1};
			pl_import_produce_file(b, &f);
		}
	}
	publish(b); /* what is gathered; freed if the writer stopped */
	pthread_mutex_lock(&b->mu);
	b->parser_done = 1;
	pthread_cond_broadcast(&b->not_empty);
	pthread_mutex_unlock(&b->mu);
	return NULL;
}

/* Strict batch decided: commit or roll back, then release the held callbacks. */
static void finish_strict(struct batch *b)
{
	struct pl_error err, why;

	pl_error_init(&err);
	pl_error_init(&why);
	if (b->opts->dry_run) {
		if (b->rejected || b->fatal) {
			b->stats.stored = 0;
			b->stats.runs = 0;
		}
	} else if (b->rejected || b->fatal) {
		pl_store_rollback(b->st, &err);
		b->stats.stored = 0;
		b->stats.runs = 0;
	} else if (pl_store_commit(b->st, &err) != 0) {
		pl_import_set_fatal(b, &err);
		b->stats.stored = 0;
		b->stats.runs = 0;
	}
	if (b->fatal)
		why = b->fatal_err;
	else
		pl_error_set(&why, PL_EINVALID, "%s",
		             b->stats.records_rejected
		                 ? "not stored: a record of the strict batch was rejected"
		                 : "not stored: another file of the strict batch was rejected");
	for (size_t i = 0; i < b->nheld; i++) {
		struct outcome *o = &b->held[i];
		if (o->status == PL_IMPORT_STORED && (b->rejected || b->fatal)) {
			o->status = PL_IMPORT_REJECTED;
			free(o->err);
			if ((o->err = malloc(sizeof(*o->err))) != NULL) {
				*o->err = why;
				if (!b->fatal)
					pl_error_at(o->err, o->path, 0, 0);
			}
		}
		deliver(b, o);
	}
	b->nheld = 0;
}

/* Refuses a --format that names no adapter, suggesting the closest name. */
static int check_format(const char *format, struct pl_error *err)
{
	size_t n;
	const struct pl_adapter_info *a = pl_adapters_list(&n);
	size_t i;
	for (i = 0; i < n && strcmp(a[i].name, format) != 0; i++)
		;
	if (i == n) {
		const char *names[64];
		char dym[96];
		size_t nn = 0;
		for (i = 0; i < n && nn < 64; i++)
			names[nn++] = a[i].name;
		return pl_error_set(err, PL_EUSAGE, "unknown format '%s'%s (see `perfledger formats`)",
		                    format, pl_did_you_mean(dym, sizeof(dym), pl_suggest(format, names, nn)));
	}
	return 0;
}

int pl_import_paths(struct pl_store *st, const char *const *paths, size_t npaths,
                    const struct pl_import_opts *opts, pl_import_cb cb, void *ctx,
                    struct pl_import_stats *stats, struct pl_error *err)
{
	static const struct pl_import_opts no_opts = {0};
	struct batch b;
	pthread_t tid;
	char warm[65];
	int rc, deferred;

	memset(&b, 0, sizeof(b));
	if (stats)
		memset(stats, 0, sizeof(*stats)); /* also when refused before the start */
	b.st = st;
	b.opts = opts ? opts : &no_opts;
	b.cb = cb;
	b.ctx = ctx;
	b.paths = paths;
	b.npaths = npaths;
	b.commit_runs = b.opts->commit_runs ? b.opts->commit_runs : PL_IMPORT_COMMIT_RUNS;
	if (stats)
		memset(stats, 0, sizeof(*stats));
	rc = pl_import_check_set(b.opts->set, b.opts->nset, err);
	if (rc)
		return rc;
	if (b.opts->format && (rc = check_format(b.opts->format, err)))
		return rc;
	/* lazily initialised process-wide state, set up before a second thread
	 * can race for it: the C numeric locale and the sha256 digest */
	pl_fmt_num(warm, sizeof(warm), 0.5);
	pl_sha256_hex("", 0, warm);
	/* into a database without runs: the selection indexes are built once at
	 * the end instead of updated per run (store/db.h, migration 006) */
	{
		/* only an optimisation: if it cannot be done (a read-only or busy
		 * database), the import goes on and meets the cause itself */
		struct pl_error derr;
		pl_error_init(&derr);
		if (!b.opts->dry_run && pl_store_defer_indexes(st, &deferred, &derr) == PL_ENOMEM)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (b.opts->strict && !b.opts->dry_run && (rc = pl_store_begin(st, err)) != 0)
		return rc;
	pthread_mutex_init(&b.mu, NULL);
	pthread_cond_init(&b.not_empty, NULL);
	pthread_cond_init(&b.not_full, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b.t0);
	b.last_tick = b.t0;
	/* set before the thread starts: pl_import_push() reads it there at once (it was
	 * assigned after pthread_create, so a parser quick to its first file
	 * could see 0 and store from its own thread, racing the writer) */
	b.threaded = 1;
	if (pthread_create(&tid, NULL, parser_main, &b) != 0)
		b.threaded = 0;
	if (b.threaded) {
		struct item *it;
		while ((it = pop(&b)) != NULL)
			consume(&b, it);
		pthread_join(tid, NULL);
		free_items(b.spent);
		free_items(b.ret);
	} else {
		parser_main(&b); /* no second thread: parse and store in turn */
	}
	if (b.opts->strict)
		finish_strict(&b);
	else
		commit_batch(&b);
	/* also after a failure: the runs committed before it need the indexes
	 * (and a killed import's are built by the next one) */
	pl_hexset_release(&b.seen_files);
	pl_hexset_release(&b.seen_records);
	if (!b.opts->dry_run) {
		struct pl_error ierr;
		pl_error_init(&ierr);
		if (pl_store_build_deferred_indexes(st, &ierr) != 0)
			snprintf(b.stats.indexes_pending, sizeof(b.stats.indexes_pending), "%s",
			         ierr.message);
	}
	free(b.held);
	free(b.stream_err); /* set only if a streamed file was cut short */
	free(b.stream_path);
	pthread_cond_destroy(&b.not_full);
	pthread_cond_destroy(&b.not_empty);
	pthread_mutex_destroy(&b.mu);
	progress_tick(&b, 1);
	if (stats)
		*stats = b.stats;
	if (b.fatal) {
		if (err)
			*err = b.fatal_err;
		return b.fatal;
	}
	if (b.io_failed) {
		if (err)
			*err = b.first_io;
		return PL_EIO;
	}
	if (b.rejected) {
		if (err)
			*err = b.first_reject;
		return PL_EINVALID;
	}
	return 0;
}
