/*
 * import.c — the import pipeline: paths in, validated runs stored.
 *
 * Two threads. The parser thread walks the paths, reads each file, hashes
 * it, parses it (adapters), overlays the sidecar NAME.conditions.json (the
 * one place sidecars are read, for every input extension) and
 * then --set, normalizes and validates; it hands finished files to the
 * calling thread through a bounded queue (QUEUE_RUNS runs, filled
 * PUBLISH_ITEMS files at a time so the threads do not wake each other for
 * every file), so memory does not grow with the number of files; the
 * queue is bounded in runs, not items, so that it holds as many small
 * files as it holds runs of a streamed file, and either thread can run on
 * while the other pauses (a commit, a checkpoint, a slow file); the writer hands the
 * items it is done with back through the same lock, and the parser frees
 * them (blocks go back to the malloc arena of the thread that allocated
 * them, so the two threads do not contend for its lock). The calling thread is
 * the one writer: it skips files whose sha256 is stored, stores each file's
 * runs in the open batch transaction (a file is atomic: its runs are all
 * validated before, and a store failure rolls the batch back), and commits
 * every opts->commit_runs runs
 * (PL_IMPORT_COMMIT_RUNS by default) rather than once per file; a crash
 * loses at most the open batch, and re-running the import stores exactly
 * what is missing. Callbacks run on the calling thread, in input order; a
 * file's outcome is held back until its batch is committed, so "stored"
 * is never said of a run that a later failure could undo. If a commit
 * fails (disk full), the files of that batch are reported as not stored.
 *
 * Large *.jsonl files (over PL_IMPORT_STREAM_MIN bytes) are streamed: one
 * pass hashes the file, a second reads it line by line and hands runs over
 * in chunks, so memory stays constant whatever the file size; the file's
 * savepoint keeps it atomic. Their records are numbered and errors located
 * exactly as for a file read whole.
 *
 * An import into a database that holds no runs yet drops the indexes only
 * selections use and builds them once at the end (pl_store_defer_indexes,
 * migration 006): one sort each instead of a b-tree insert per run, about
 * a fifth of the import's time. They are built at the end of every import,
 * after a failure too, which also repairs after an import that was killed.
 *
 * A rejected file is reported through the callback and the batch goes on.
 * With strict, the whole batch runs inside one outer transaction; every
 * file is still checked so the user sees every bad one, but once any file
 * is rejected nothing is stored: files that were fine are then reported as
 * rejected with the message "not stored: another file of the strict batch
 * was rejected" (stats.rejected counts only the files that were bad
 * themselves).
 *
 * Directory walks: entries in byte order of their names, recursively;
 * *.json, *.jsonl, *.yaml, *.yml, *.csv and *.txt files only (names are
 * case-sensitive), *.conditions.json skipped (sidecars),
 * hidden entries (".name") skipped, symbolic links to directories not
 * followed (no loops); a file named explicitly is always read. A walk
 * keeps the directory open and opens its files relative to it (no path
 * walk per file), takes file types from readdir's d_type where the file
 * system gives them (no stat per entry), and opens a sidecar only when the
 * listing holds one (no failed open per file).
 */
/* d_type and DT_* of readdir(): a directory walk then needs no stat per entry */
#define _DEFAULT_SOURCE
#include "core/import.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "adapters/adapters.h"
#include "core/condkey.h"
#include "core/engine_args.h"
#include "core/hash.h"
#include "core/model.h"
#include "core/normalize.h"
#include "core/validate.h"

#define QUEUE_RUNS 1024  /* runs in flight between the threads (an item counts at least 1):
                            16 stream chunks, or 1024 one-run files */
#define PUBLISH_ITEMS 8  /* whole files the parser gathers before it queues them */
#define CHUNK_RUNS 64    /* runs per chunk of a streamed file */
#define HELD_MAX 8192    /* outcomes held back before a batch is committed anyway */
#define WARNINGS_MAX 16384 /* bytes of warnings kept per file */
#define SIDECAR_MAX (1u << 20) /* bytes of a NAME.conditions.json */

/* Where the parser finds a file: its path (for messages, the sidecar and
 * the stored source_path) and, inside a directory walk, the open directory
 * and the entry's name, so that open() does not walk the path again. */
struct src {
	const char *path; /* as given or joined by the walk */
	int dfd;          /* directory of name, or -1: open path */
	const char *name; /* entry name in dfd (dfd >= 0) */
	int side;         /* NAME.conditions.json: -1 unknown (look), 0 absent, 1 present */
};

/* What the parser thread hands to the writer. */
enum item_kind {
	IT_FILE,  /* a whole file: runs, or the reason it was rejected */
	IT_BEGIN, /* a streamed file starts: path, sha */
	IT_RUNS,  /* a chunk of the streamed file's runs */
	IT_END,   /* the streamed file ended: rc, err, totals */
	IT_FATAL  /* the parser cannot go on (out of memory): err */
};

struct item {
	struct item *next;       /* queue link */
	enum item_kind kind;     /* what this is */
	char *path;              /* IT_FILE, IT_BEGIN, IT_END; owned */
	int rc;                  /* 0, or why the file is rejected */
	struct pl_error *err;    /* set when rc != 0; owned */
	int have_sha;            /* sha is valid (the bytes were read) */
	char sha[65];            /* sha256 of the file */
	struct pl_run_list runs; /* IT_FILE, IT_RUNS */
	struct pl_cond_key *keys; /* runs.n condition keys, made by the parser; owned */
	size_t nruns;            /* IT_END: runs of the whole streamed file */
	size_t refonly;          /* reference-only runs (IT_FILE, IT_END) */
	char *warnings;          /* the runs' warnings, "\n"-separated, or NULL; owned */
};

/* A callback held back until its batch is decided. */
struct outcome {
	char *path;                   /* owned */
	enum pl_import_status status; /* as reported */
	size_t runs;                  /* runs of the file */
	size_t reference_only;        /* of which reference-only */
	char *warnings;               /* notes about the runs, or NULL; owned */
	struct pl_error *err;         /* set when rejected; owned */
};

/* State of one pl_import_paths call. */
struct batch {
	struct pl_store *st;               /* the database (writer thread only) */
	const struct pl_import_opts *opts; /* options */
	pl_import_cb cb;                   /* may be NULL */
	void *ctx;                         /* for cb */
	size_t commit_runs;                /* runs per transaction */
	const char *const *paths;          /* the inputs */
	size_t npaths;                     /* entries in paths */

	/* the queue between the threads */
	pthread_mutex_t mu;       /* guards the fields below */
	pthread_cond_t not_empty; /* an item arrived, or the parser is done */
	pthread_cond_t not_full;  /* an item left, or stop */
	struct item *head, *tail; /* FIFO */
	size_t nqueued;           /* weight of the items queued (item_weight) */
	struct item *pend_head, *pend_tail; /* parser only: gathered, not queued yet */
	size_t npend;                       /* parser only: items in pend */
	size_t pend_weight;                 /* parser only: their item_weight()s */
	struct item *got;         /* writer only: items taken off the queue, in order */
	struct item *spent;       /* writer only: consumed items, to go back to the parser */
	struct item *ret;         /* consumed items handed back; the parser frees them */
	int threaded;             /* 0: the parser runs inline and pushes consume directly */
	int parser_done;          /* the parser thread has finished */
	int stop;                 /* writer to parser: stop (fatal error) */
	int skip_stream;          /* writer to parser: the streamed file is a duplicate */

	/* writer state */
	struct pl_import_stats stats;  /* totals */
	struct outcome *held;          /* callbacks held back; owned */
	size_t nheld, capheld;         /* entries in held, allocated */
	int in_tx;                     /* a batch transaction is open (non-strict) */
	size_t tx_runs;                /* runs stored in the open batch */
	int stream_state;              /* 0 none, 1 storing, 2 duplicate, 3 check only, 4 failed,
	                                  5 stored already with other conditions */
	struct pl_error *stream_err;   /* why, in state 5; owned */
	size_t stream_stored;          /* runs of the streamed file stored so far */
	int rejected;                  /* a file was rejected */
	int io_failed;                 /* a path could not be read */
	int fatal;                     /* PL_EDB / PL_ENOMEM: stop the batch */
	struct pl_error first_io;      /* first read failure */
	struct pl_error first_reject;  /* first rejection */
	struct pl_error fatal_err;     /* the fatal error */
	struct timespec t0, last_tick; /* start, last progress call */
};

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static double seconds_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static void item_free(struct item *it)
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
	free(it);
}

/* A new item; path is copied (may be NULL). NULL when out of memory. */
static struct item *item_new(enum item_kind kind, const char *path)
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
static int item_fail(struct item *it, int rc, const struct pl_error *err)
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
		      o->status == PL_IMPORT_REJECTED ? o->err : NULL);
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

	b->stats.files++;
	if (status == PL_IMPORT_STORED) {
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
	if (status == PL_IMPORT_REJECTED && err && (o.err = malloc(sizeof(*o.err))) != NULL)
		*o.err = *err;
	if (o.path && (b->opts->strict || b->in_tx)) {
		if (b->nheld == b->capheld) {
			size_t cap = b->capheld ? b->capheld * 2 : 64;
			struct outcome *nh = realloc(b->held, cap * sizeof(*nh));
			if (nh) {
				b->held = nh;
				b->capheld = cap;
			}
		}
		if (b->nheld < b->capheld) {
			b->held[b->nheld++] = o;
			return;
		}
	}
	/* nothing open, or cannot hold it back: report it as it is */
	if (b->cb)
		b->cb(b->ctx, path, status, runs, refonly, o.warnings,
		      status == PL_IMPORT_REJECTED ? err : NULL);
	free(o.path);
	free(o.warnings);
	free(o.err);
}

static void set_fatal(struct batch *b, const struct pl_error *err)
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
			set_fatal(b, &err);
			unstore_held(b, &err);
		}
	}
	flush_held(b);
}

/* Opens the batch transaction if none is open. */
static int ensure_tx(struct batch *b, struct pl_error *err)
{
	int rc;

	if (b->opts->strict || b->in_tx)
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
 * runs that were new. Returns 0 or the store's error (fatal: the caller
 * then rolls back the file's savepoint or the whole batch). */
static int insert_runs(struct batch *b, struct item *it, size_t *stored, struct pl_error *err)
{
	for (size_t i = 0; i < it->runs.n; i++) {
		int inserted = 0;
		int rc = pl_store_insert_run_bulk(b->st, &it->runs.v[i], it->keys ? &it->keys[i] : NULL,
		                                  &inserted, err);
		if (rc)
			return rc;
		*stored += (size_t)inserted;
	}
	return 0;
}

/* Stores every run of one whole file in the open batch. No savepoint is
 * needed for the file to be atomic: its runs were all parsed and validated
 * before, so the only failures left are the database's, and those are fatal
 * to the batch, whose transaction is then rolled back (with the files
 * already in it reported as not stored). */
static int store_file(struct batch *b, struct item *it, size_t *stored, struct pl_error *err)
{
	int rc = ensure_tx(b, err);

	if (rc == 0)
		rc = insert_runs(b, it, stored, err);
	return rc;
}

/* Looks the sha256 up. Returns 1 if stored, 0 if not, -1 on a fatal error. */
static int is_duplicate(struct batch *b, const char *sha)
{
	struct pl_error err;
	int found = 0;

	pl_error_init(&err);
	if (pl_store_has_sha256(b->st, sha, &found, &err) != 0) {
		set_fatal(b, &err);
		return -1;
	}
	return found;
}

/* Appends "FIELD stored 'A', now 'B'" for every condition in which now
 * differs from stored; returns how many did. */
static int diff_conditions(const struct pl_run *stored, const struct pl_run *now, char *buf,
                           size_t n)
{
	int count = 0;

	for (int id = 0; id < PL_COND_COUNT; id++) {
		const struct pl_value *a = &stored->cond[id], *v = &now->cond[id];
		size_t len = strlen(buf);

		if (pl_value_equal(a, v))
			continue;
		if (a->set && v->set && pl_cond_info[id].type == PL_CT_TIME) {
			/* stored before times with an offset were written in UTC */
			char *t = pl_normalize_value(id, a->text);
			int same = t && strcmp(t, v->text) == 0;
			free(t);
			if (same)
				continue;
		}
		snprintf(buf + len, n - len, "%s%s stored '%s', now '%s'", count ? "; " : "",
		         pl_cond_info[id].name, a->set ? a->text : "(missing)",
		         v->set ? v->text : "(missing)");
		count++;
	}
	/* the extra conditions (both sorted by name): conditions like the others */
	for (size_t i = 0, k = 0; i < stored->nextra || k < now->nextra;) {
		const struct pl_extra *a = i < stored->nextra ? &stored->extra[i] : NULL;
		const struct pl_extra *v = k < now->nextra ? &now->extra[k] : NULL;
		int c = !a ? 1 : !v ? -1 : strcmp(a->name, v->name);
		size_t len = strlen(buf);

		if (c <= 0)
			i++;
		if (c >= 0)
			k++;
		if (c < 0)
			v = NULL; /* stored only */
		else if (c > 0)
			a = NULL; /* now only */
		if (a && v && strcmp(a->value, v->value) == 0)
			continue;
		snprintf(buf + len, n - len, "%s%s stored '%s', now '%s'", count ? "; " : "",
		         a ? a->name : v->name, a ? a->value : "(missing)", v ? v->value : "(missing)");
		count++;
	}
	return count;
}

/* The bytes of a file are stored already. When the conditions it gets now
 * (from --set or a sidecar) differ from the stored runs', calling it a
 * duplicate would silently keep the old values: say what differs instead,
 * since a stored run is never rewritten. runs are the file's runs as read
 * now, or NULL for a streamed file (whose runs are not read on a
 * duplicate): then the --set values are compared with every stored run.
 * Returns 0 when nothing differs, 1 with err set (PL_EINVALID) when
 * something does, -1 after a fatal store error. */
static int stored_differs(struct batch *b, const char *path, const char *sha,
                          const struct pl_run_list *runs, struct pl_error *err)
{
	struct pl_run_list stored;
	struct pl_run now;
	char diff[700] = "";
	long long id = 0;
	int rc = 0;

	pl_run_list_init(&stored);
	pl_run_init(&now);
	if (pl_store_query_source(b->st, sha, &stored, err)) {
		set_fatal(b, err);
		pl_run_list_release(&stored);
		return -1;
	}
	for (size_t i = 0; i < stored.n && !diff[0]; i++) {
		const struct pl_run *s = &stored.v[i];
		if (runs) {
			for (size_t k = 0; k < runs->n; k++)
				if (runs->v[k].record == s->record && diff_conditions(s, &runs->v[k], diff,
				                                                       sizeof(diff)))
					id = s->id;
			continue;
		}
		/* streamed: the --set values, normalized, against each stored run */
		pl_run_release(&now);
		if (pl_run_copy(&now, s)) {
			rc = -1;
			break;
		}
		for (size_t k = 0; k < b->opts->nset; k++)
			pl_run_set_cond(&now, pl_cond_lookup(b->opts->set[k].key), b->opts->set[k].value,
			                NULL);
		pl_normalize_run(&now, NULL);
		if (diff_conditions(s, &now, diff, sizeof(diff)))
			id = s->id;
	}
	pl_run_release(&now);
	pl_run_list_release(&stored);
	if (rc < 0) {
		pl_error_set(err, PL_ENOMEM, "out of memory");
		set_fatal(b, err);
		return -1;
	}
	if (!diff[0])
		return 0;
	pl_error_set(err, PL_EINVALID,
	             "these bytes are stored already (run %lld) with other conditions: %s; a "
	             "stored run is never rewritten",
	             id, diff);
	pl_error_at(err, path, 0, 0);
	return 1;
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
	size_t stored = 0;
	int dup, rc;

	if (it->have_sha) {
		/* Look the bytes up under the write lock, so that what we then store
		 * cannot have been stored by another process in between. */
		pl_error_init(&err);
		if (ensure_tx(b, &err)) {
			pl_error_at(&err, it->path, 0, 0);
			set_fatal(b, &err);
			report(b, it->path, PL_IMPORT_REJECTED, it->runs.n, 0, &err);
			return;
		}
		if ((dup = is_duplicate(b, it->sha)) < 0) {
			report(b, it->path, PL_IMPORT_REJECTED, it->runs.n, 0, &b->fatal_err);
			return;
		}
		if (dup && it->rc == 0 && it->runs.n > 0) {
			int d = stored_differs(b, it->path, it->sha, &it->runs, &err);
			if (d != 0) {
				report(b, it->path, PL_IMPORT_REJECTED, it->runs.n, 0,
				       d < 0 ? &b->fatal_err : &err);
				after_file(b);
				return;
			}
		}
		if (dup) {
			report(b, it->path, PL_IMPORT_DUPLICATE, 0, 0, NULL);
			after_file(b);
			return;
		}
	}
	if (it->rc) {
		if (is_fatal_code(it->rc))
			set_fatal(b, it->err);
		report(b, it->path, PL_IMPORT_REJECTED, it->runs.n, 0, it->err);
		after_file(b);
		return;
	}
	/* strict and already failed: check only, the batch will be rolled back */
	if (b->opts->strict && b->rejected) {
		stored = it->runs.n;
	} else {
		pl_error_init(&err);
		rc = store_file(b, it, &stored, &err);
		if (rc) {
			if (!err.file[0])
				pl_error_at(&err, it->path, err.line, err.column);
			set_fatal(b, &err);
			report(b, it->path, PL_IMPORT_REJECTED, it->runs.n, 0, &err);
			return;
		}
		b->tx_runs += stored;
	}
	/* count what was inserted: nothing new means the bytes were stored already */
	if (stored == 0 && it->runs.n > 0)
		report(b, it->path, PL_IMPORT_DUPLICATE, 0, 0, NULL);
	else
		report_w(b, it->path, PL_IMPORT_STORED, stored, it->refonly, it->warnings, NULL);
	after_file(b);
}

static void consume_begin(struct batch *b, struct item *it)
{
	struct pl_error err;
	int dup;

	b->stream_stored = 0;
	pl_error_init(&err);
	if (ensure_tx(b, &err)) { /* the lookup below is then under the write lock */
		pl_error_at(&err, it->path, 0, 0);
		set_fatal(b, &err);
		b->stream_state = 4;
		return;
	}
	dup = is_duplicate(b, it->sha);
	if (dup < 0) {
		b->stream_state = 4;
		return;
	}
	if (dup && b->opts->nset > 0) {
		int d = stored_differs(b, it->path, it->sha, NULL, &err);
		if (d < 0) {
			b->stream_state = 4;
			return;
		}
		if (d > 0) {
			b->stream_state = 5;
			if (!(b->stream_err = malloc(sizeof(*b->stream_err)))) {
				set_fatal(b, &err);
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
	if (b->opts->strict && b->rejected) {
		b->stream_state = 3;
		return;
	}
	if (pl_store_file_begin(b->st, &err)) {
		pl_error_at(&err, it->path, 0, 0);
		set_fatal(b, &err);
		b->stream_state = 4;
		return;
	}
	b->stream_state = 1;
}

static void consume_runs(struct batch *b, struct item *it)
{
	struct pl_error err;

	if (b->stream_state != 1 || b->fatal)
		return;
	pl_error_init(&err);
	if (insert_runs(b, it, &b->stream_stored, &err)) {
		struct pl_error ignore;
		pl_error_init(&ignore);
		pl_store_file_end(b->st, 0, &ignore);
		set_fatal(b, &err);
		b->stream_state = 4;
		return;
	}
	progress_tick(b, 0);
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
			set_fatal(b, it->err);
		report(b, it->path, PL_IMPORT_REJECTED, it->nruns, 0, it->err);
		after_file(b);
		return;
	}
	if (state == 1 && pl_store_file_end(b->st, 1, &err)) {
		pl_error_at(&err, it->path, 0, 0);
		set_fatal(b, &err);
		report(b, it->path, PL_IMPORT_REJECTED, it->nruns, 0, &err);
		return;
	}
	if (state == 1) {
		b->tx_runs += b->stream_stored;
		if (b->stream_stored == 0 && it->nruns > 0) {
			report(b, it->path, PL_IMPORT_DUPLICATE, 0, 0, NULL);
			after_file(b);
			return;
		}
		report_w(b, it->path, PL_IMPORT_STORED, b->stream_stored, it->refonly, it->warnings,
		         NULL);
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
		case IT_END:
			if (b->fatal && b->stream_state == 0)
				break;
			consume_end(b, it);
			break;
		case IT_FATAL:
			set_fatal(b, it->err);
			break;
		}
	}
	if (b->threaded) {
		/* The parser thread allocated it: freed there, malloc's arena
		 * is not locked by both threads for every block (see pop()). */
		it->next = b->spent;
		b->spent = it;
	} else {
		item_free(it);
	}
}

static void free_items(struct item *it)
{
	while (it) {
		struct item *next = it->next;
		item_free(it);
		it = next;
	}
}

/* ------------------------------------------------------------ the queue */

/* What an item counts against QUEUE_RUNS: its runs, at least 1. */
static size_t item_weight(const struct item *it)
{
	return it->runs.n ? it->runs.n : 1;
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
static int push(struct batch *b, struct item *it)
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

static int stopped(struct batch *b)
{
	int stop;

	pthread_mutex_lock(&b->mu);
	stop = b->stop;
	pthread_mutex_unlock(&b->mu);
	return stop;
}

/* Parser side: 1 if the streamed file is to be skipped (a duplicate) or
 * the writer stopped. */
static int stream_skipped(struct batch *b)
{
	int skip;

	pthread_mutex_lock(&b->mu);
	skip = b->skip_stream || b->stop;
	pthread_mutex_unlock(&b->mu);
	return skip;
}

/* Parser side: pushes an out-of-memory fatal item (best effort). */
static void push_oom(struct batch *b)
{
	struct item *it = item_new(IT_FATAL, NULL);
	struct pl_error err;

	pl_error_init(&err);
	pl_error_set(&err, PL_ENOMEM, "out of memory");
	if (!it) {
		pthread_mutex_lock(&b->mu);
		b->stop = 1;
		pthread_mutex_unlock(&b->mu);
		return;
	}
	item_fail(it, PL_ENOMEM, &err);
	push(b, it);
}

/* ------------------------------------------------------- the parser side */

/* Reads all of fd, at most max bytes. Returns 0, an errno value, or EFBIG
 * when there is more. */
static int read_fd(int fd, size_t size_hint, size_t max, char **out, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;

	for (;;) {
		ssize_t got;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : (size_hint ? size_hint + 1 : 65536);
			char *nb;
			if (cap > max) {
				free(buf);
				return EFBIG;
			}
			if (ncap > max + 1)
				ncap = max + 1;
			if (!(nb = realloc(buf, ncap))) {
				free(buf);
				return ENOMEM;
			}
			buf = nb;
			cap = ncap;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0) {
			int e = errno;
			if (e == EINTR)
				continue;
			free(buf);
			return e ? e : EIO;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > max) {
			free(buf);
			return EFBIG;
		}
		/* A regular file of the size fstat() gave that fell short of the
		 * one byte more asked for is at its end: no read() to see 0 (a
		 * file that grew fills that byte and is read on) */
		if (size_hint && n == size_hint && n < cap)
			break;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* Reads the file f ("-": stdin) whole, up to PL_IMPORT_WHOLE_MAX
 * bytes. A path named explicitly must be a regular file: a FIFO or a
 * device (/dev/zero) never ends. Returns 0, or PL_EIO / PL_ENOMEM /
 * PL_EINVALID (too large) with err set ("cannot open 'x': ..."). */
static int read_file(const struct src *f, char **out, size_t *len, struct pl_error *err)
{
	const char *path = f->path;
	size_t hint = 0;
	int fd, e;

	pl_error_at(err, path, 0, 0);
	if (strcmp(path, "-") == 0) {
		fd = STDIN_FILENO;
	} else {
		struct stat sb;
		fd = f->dfd >= 0 ? openat(f->dfd, f->name, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
		                 : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			return pl_error_set(err, PL_EIO, "cannot open '%s': %s", path, strerror(errno));
		if (fstat(fd, &sb) != 0 || S_ISDIR(sb.st_mode)) {
			close(fd);
			return pl_error_set(err, PL_EIO, "cannot read '%s': Is a directory", path);
		}
		if (!S_ISREG(sb.st_mode)) {
			close(fd);
			return pl_error_set(err, PL_EIO,
			                    "cannot read '%s': not a regular file (a FIFO, device or "
			                    "socket); import a file, a directory, or - for standard input",
			                    path);
		}
		hint = (size_t)sb.st_size;
		if (hint > PL_IMPORT_WHOLE_MAX)
			hint = 0;
		/* O_NONBLOCK only kept open() from hanging; regular files ignore it */
	}
	e = read_fd(fd, hint, PL_IMPORT_WHOLE_MAX, out, len);
	if (fd != STDIN_FILENO)
		close(fd);
	if (e == ENOMEM)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (e == EFBIG)
		return pl_error_set(err, PL_EINVALID, "'%s': larger than 256 MiB; split it or use JSONL",
		                    path);
	if (e)
		return pl_error_set(err, PL_EIO, "cannot read '%s': %s", path, strerror(e));
	return 0;
}

/* Prefixes "record N: " to messages about one run of a multi-run file. */
static void prefix_record(struct pl_error *err, long record)
{
	char pre[32];
	size_t n, len;

	n = (size_t)snprintf(pre, sizeof(pre), "record %ld: ", record);
	len = strlen(err->message);
	if (len + n >= sizeof(err->message))
		len = sizeof(err->message) - n - 1;
	memmove(err->message + n, err->message, len);
	memcpy(err->message, pre, n);
	err->message[n + len] = '\0';
}

/* Length of the stem of an input file name whose sidecar is
 * STEM.conditions.json: the name without its extension, for every
 * extension the import reads (.json, .jsonl, .yaml, .yml, .csv, .txt);
 * 0 for other names (no sidecar). */
static size_t sidecar_stem(const char *name)
{
	static const char *const exts[] = {".jsonl", ".json", ".yaml", ".yml", ".csv", ".txt"};
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
		if (has_suffix(name, exts[i]) && n > strlen(exts[i]))
			return n - strlen(exts[i]);
	return 0;
}

/* The sidecar of path, read whole: *buf (caller frees) and *side (its
 * name; caller frees), or both NULL when there is none. known is 0 when
 * the directory walk listed no sidecar for the file (nothing is opened
 * then), else 1 or -1 (unknown: try to open it). Returns 0 or PL_EIO /
 * PL_ENOMEM. */
static int load_sidecar(const char *path, int known, char **side_out, char **buf_out, size_t *len,
                        struct pl_error *err)
{
	size_t stem;
	char *side;
	struct stat sb;
	int fd, rc;

	*side_out = NULL;
	*buf_out = NULL;
	*len = 0;
	if (known == 0 || strcmp(path, "-") == 0 || (stem = sidecar_stem(path)) == 0)
		return 0;
	side = malloc(stem + sizeof(".conditions.json"));
	if (!side)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	memcpy(side, path, stem);
	memcpy(side + stem, ".conditions.json", sizeof(".conditions.json"));
	/* as read_file(): O_NONBLOCK so that a FIFO cannot hang open(), and
	 * only a regular file is read (a FIFO or /dev/zero never ends) */
	fd = open(side, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		rc = 0;
		if (errno != ENOENT) {
			pl_error_at(err, side, 0, 0);
			rc = pl_error_set(err, PL_EIO, "cannot open sidecar '%s': %s", side, strerror(errno));
		}
		free(side);
		return rc;
	}
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		pl_error_at(err, side, 0, 0);
		rc = pl_error_set(err, PL_EIO,
		                  "cannot read sidecar '%s': not a regular file (a directory, FIFO, "
		                  "device or socket)",
		                  side);
		free(side);
		return rc;
	}
	rc = read_fd(fd, sb.st_size <= SIDECAR_MAX ? (size_t)sb.st_size : 0, SIDECAR_MAX, buf_out,
	             len);
	close(fd);
	if (rc) {
		pl_error_at(err, side, 0, 0);
		rc = rc == ENOMEM ? pl_error_set(err, PL_ENOMEM, "out of memory")
		     : rc == EFBIG
		         ? pl_error_set(err, PL_EINVALID,
		                        "sidecar '%s' is larger than 1 MiB (it holds conditions only)",
		                        side)
		         : pl_error_set(err, PL_EIO, "cannot read sidecar '%s': %s", side, strerror(rc));
		free(side);
		return rc;
	}
	*side_out = side;
	return 0;
}

/* Applies a loaded sidecar to runs->v[from..n). */
static int apply_sidecar(const char *side, const char *buf, size_t len, struct pl_run_list *runs,
                         size_t from, struct pl_error *err)
{
	int rc = 0;

	if (!side)
		return 0;
	for (size_t i = from; i < runs->n && rc == 0; i++)
		rc = pl_adapters_parse_conditions(side, buf, len, &runs->v[i], err);
	return rc;
}

/* Overlays --set, reads the launch flags of engine_args
 * (pl_engine_args_apply), hashes, normalizes and validates runs->v[from..n).
 * Messages about one run get "record N: " when the file holds several
 * (always for a streamed file). */
static int prepare_runs(const struct pl_import_opts *opts, const char *path, const char *sha,
                        struct pl_run_list *runs, size_t from, int many, size_t *refonly,
                        struct pl_error *err)
{
	for (size_t i = from; i < runs->n; i++) {
		struct pl_run *r = &runs->v[i];
		int rc = 0;

		for (size_t k = 0; k < opts->nset && rc == 0; k++) {
			int id = pl_cond_lookup(opts->set[k].key);
			char *was = NULL;
			/* --set wins over the file, but never silently: a value the
			 * file records and --set contradicts is named in a warning */
			if (r->cond[id].set && !(was = pl_normalize_value(id, r->cond[id].text))) {
				rc = pl_error_set(err, PL_ENOMEM, "out of memory");
				break;
			}
			rc = pl_run_set_cond(r, id, opts->set[k].value, err);
			if (rc == 0 && was) {
				char *now = pl_normalize_value(id, r->cond[id].text);
				if (now && strcmp(now, was) != 0)
					pl_run_warn(r, "--set %s=%s replaces '%s' from the file",
					            opts->set[k].key, opts->set[k].value, was);
				free(now);
			}
			free(was);
		}
		memcpy(r->sha256, sha, sizeof(r->sha256));
		/* the launch flags in engine_args, after the file, the sidecar and
		 * --set have given what they give: a disagreement is an error */
		if (rc == 0)
			rc = pl_engine_args_apply(r, err);
		if (rc == 0)
			rc = pl_normalize_named_extras(r, err);
		if (rc == 0)
			rc = pl_normalize_run(r, err);
		if (rc == 0)
			rc = pl_validate_run(r, err);
		if (rc) {
			pl_error_at(err, path, err->line, err->column);
			if ((many || runs->n > 1) && strncmp(err->message, "record ", 7) != 0)
				prefix_record(err, r->record);
			return rc;
		}
		if (r->checklist_missing)
			(*refonly)++;
	}
	return 0;
}

/* Parser side: the condition keys of the item's runs, so that the writer
 * does not build them. Returns 0 or PL_ENOMEM (err set). */
static int make_keys(struct item *it, struct pl_error *err)
{
	if (it->runs.n == 0)
		return 0;
	if (!(it->keys = calloc(it->runs.n, sizeof(*it->keys))))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t i = 0; i < it->runs.n; i++)
		if (pl_cond_key_make(&it->runs.v[i], &it->keys[i]))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
	return 0;
}

/* Appends the warnings of runs[from..n) to *acc ("\n"-separated; a run of a
 * multi-run file gets "record N: "). Returns 0 or PL_ENOMEM (err set). */
static int add_warnings(char **acc, const struct pl_run_list *runs, size_t from, int many,
                        struct pl_error *err)
{
	static const char more[] = "(further warnings of this file not shown)";

	for (size_t i = from; i < runs->n; i++) {
		const char *w = runs->v[i].warnings;

		while (w && *w) {
			size_t len = strcspn(w, "\n"), old = *acc ? strlen(*acc) : 0;

			if (old >= WARNINGS_MAX) { /* a streamed file stays in constant memory */
				if (old < sizeof(more) || strcmp(*acc + old - (sizeof(more) - 1), more) != 0) {
					w = more;
					len = sizeof(more) - 1;
				} else {
					return 0;
				}
			}
			char pre[32] = "";
			size_t plen = many ? (size_t)snprintf(pre, sizeof(pre), "record %ld: ",
			                                      runs->v[i].record) : 0;
			char *nw = realloc(*acc, old + 1 + plen + len + 1);

			if (!nw)
				return pl_error_set(err, PL_ENOMEM, "out of memory");
			if (old)
				nw[old++] = '\n';
			if (w == more)
				plen = 0;
			memcpy(nw + old, pre, plen);
			memcpy(nw + old + plen, w, len);
			nw[old + plen + len] = '\0';
			*acc = nw;
			if (w == more)
				return 0;
			w += len;
			if (*w == '\n')
				w++;
		}
	}
	return 0;
}

/* A file read whole: one IT_FILE item. */
static void produce_whole(struct batch *b, const struct src *f)
{
	const char *path = f->path;
	struct item *it = item_new(IT_FILE, path);
	struct pl_error err;
	char *buf = NULL, *side = NULL, *sbuf = NULL;
	size_t len = 0, slen = 0;
	int rc;

	if (!it) {
		push_oom(b);
		return;
	}
	pl_error_init(&err);
	rc = read_file(f, &buf, &len, &err);
	if (rc == 0) {
		rc = pl_sha256_hex(buf, len, it->sha);
		if (rc)
			pl_error_set(&err, PL_ENOMEM, "out of memory");
		else
			it->have_sha = 1;
	}
	if (rc == 0)
		rc = pl_adapters_parse(path, buf, len, b->opts->format, &it->runs, &err);
	free(buf);
	if (rc == 0)
		rc = load_sidecar(path, f->side, &side, &sbuf, &slen, &err);
	if (rc == 0)
		rc = apply_sidecar(side, sbuf, slen, &it->runs, 0, &err);
	free(side);
	free(sbuf);
	if (rc == 0)
		rc = prepare_runs(b->opts, path, it->sha, &it->runs, 0, 0, &it->refonly, &err);
	if (rc == 0)
		rc = make_keys(it, &err);
	if (rc == 0)
		rc = add_warnings(&it->warnings, &it->runs, 0, it->runs.n > 1, &err);
	if (rc) {
		if (!err.file[0])
			pl_error_at(&err, path, err.line, err.column);
		item_fail(it, rc, &err);
	}
	push(b, it);
}

/* Pass 1 of a streamed file: its sha256. Returns 0 or PL_EIO/PL_ENOMEM. */
static int hash_file(const char *path, char sha[65], struct pl_error *err)
{
	struct pl_sha256 *h = pl_sha256_new();
	char *buf = malloc(1 << 18);
	FILE *f = NULL;
	int rc = 0;

	if (!h || !buf) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	f = fopen(path, "rb");
	if (!f) {
		pl_error_at(err, path, 0, 0);
		rc = pl_error_set(err, PL_EIO, "cannot open '%s': %s", path, strerror(errno));
		goto out;
	}
	for (;;) {
		size_t got = fread(buf, 1, 1 << 18, f);
		if (got && pl_sha256_update(h, buf, got)) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			goto out;
		}
		if (got < (1 << 18))
			break;
	}
	if (ferror(f)) {
		pl_error_at(err, path, 0, 0);
		rc = pl_error_set(err, PL_EIO, "cannot read '%s': %s", path, strerror(errno ? errno : EIO));
		goto out;
	}
	if (pl_sha256_final(h, sha))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
out:
	if (f)
		fclose(f);
	free(buf);
	pl_sha256_free(h);
	return rc;
}

static int blank_line(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

/* Pass 2 of a streamed file: records line by line, CHUNK_RUNS runs per
 * IT_RUNS item. Returns 0, the rejection, or -1 when the writer stopped;
 * *nruns and *refonly get the totals. */
static int stream_records(struct batch *b, const char *path, const char *sha, size_t *nruns,
                          size_t *refonly, char **warnings, struct pl_error *err)
{
	struct item *chunk = NULL;
	char *line = NULL, *side = NULL, *sbuf = NULL, *format = NULL;
	size_t cap = 0, slen = 0;
	long lineno = 0, record = 0;
	ssize_t got;
	FILE *f;
	int rc;

	if ((rc = load_sidecar(path, -1, &side, &sbuf, &slen, err)))
		return rc;
	if (b->opts->format && !(format = strdup(b->opts->format))) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	f = fopen(path, "rb");
	if (!f) {
		pl_error_at(err, path, 0, 0);
		rc = pl_error_set(err, PL_EIO, "cannot open '%s': %s", path, strerror(errno));
		goto out;
	}
	errno = 0;
	while ((got = getline(&line, &cap, f)) >= 0) {
		size_t from;

		lineno++;
		if (blank_line(line, (size_t)got))
			continue;
		if ((record & 255) == 0 && stream_skipped(b)) {
			rc = -1;
			break;
		}
		if (!chunk && !(chunk = item_new(IT_RUNS, NULL))) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		from = chunk->runs.n;
		rc = pl_adapters_parse(path, line, (size_t)got, format, &chunk->runs, err);
		if (rc) {
			if (err->line > 0)
				err->line += lineno - 1;
			if (!err->file[0])
				pl_error_at(err, path, err->line, err->column);
			break;
		}
		for (size_t i = from; i < chunk->runs.n; i++)
			chunk->runs.v[i].record = record;
		record++;
		if (!format && chunk->runs.n > from &&
		    !(format = strdup(chunk->runs.v[from].adapter ? chunk->runs.v[from].adapter : ""))) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		rc = apply_sidecar(side, sbuf, slen, &chunk->runs, from, err);
		if (rc == 0)
			rc = prepare_runs(b->opts, path, sha, &chunk->runs, from, 1, refonly, err);
		if (rc == 0)
			rc = add_warnings(warnings, &chunk->runs, from, 1, err);
		if (rc)
			break;
		*nruns += chunk->runs.n - from;
		if (chunk->runs.n >= CHUNK_RUNS) {
			struct item *full = chunk;
			chunk = NULL;
			if ((rc = make_keys(full, err))) {
				item_free(full);
				break;
			}
			if (push(b, full)) {
				rc = -1;
				break;
			}
		}
	}
	if (rc == 0 && ferror(f)) {
		pl_error_at(err, path, 0, 0);
		rc = pl_error_set(err, PL_EIO, "cannot read '%s': %s", path, strerror(errno ? errno : EIO));
	}
	if (rc == 0 && record == 0) {
		pl_error_at(err, path, 0, 0);
		rc = pl_error_set(err, PL_ESYNTAX, "invalid JSON: the file holds no value");
	}
	fclose(f);
	if (rc == 0 && chunk) {
		struct item *last = chunk;
		chunk = NULL;
		if ((rc = make_keys(last, err)))
			item_free(last);
		else if (push(b, last))
			rc = -1;
	}
out:
	item_free(chunk);
	free(line);
	free(side);
	free(sbuf);
	free(format);
	return rc;
}

/* A large JSONL file: IT_BEGIN, IT_RUNS..., IT_END. */
static void produce_stream(struct batch *b, const char *path)
{
	struct item *it = item_new(IT_BEGIN, path);
	struct item *end = item_new(IT_END, path);
	struct pl_error err;
	int rc;

	if (!it || !end) {
		item_free(it);
		item_free(end);
		push_oom(b);
		return;
	}
	pl_error_init(&err);
	if ((rc = hash_file(path, it->sha, &err))) {
		/* not read: reported as a whole file that failed */
		item_free(end);
		it->kind = IT_FILE;
		item_fail(it, rc, &err);
		push(b, it);
		return;
	}
	memcpy(end->sha, it->sha, sizeof(end->sha));
	pthread_mutex_lock(&b->mu);
	b->skip_stream = 0;
	pthread_mutex_unlock(&b->mu);
	if (push(b, it)) {
		item_free(end);
		return;
	}
	rc = stream_records(b, path, end->sha, &end->nruns, &end->refonly, &end->warnings, &err);
	if (rc == -1 && stopped(b)) { /* the writer stopped */
		item_free(end);
		return;
	}
	if (rc && rc != -1) /* -1 alone: a duplicate, skipped */
		item_fail(end, rc, &err);
	push(b, end);
}

/* One input file: streamed when it is a large regular *.jsonl file. */
static void produce_file(struct batch *b, const struct src *f)
{
	const char *path = f->path;
	struct stat sb;

	if (strcmp(path, "-") != 0 && has_suffix(path, ".jsonl") &&
	    (f->dfd >= 0 ? fstatat(f->dfd, f->name, &sb, 0) : stat(path, &sb)) == 0 &&
	    S_ISREG(sb.st_mode) && sb.st_size > PL_IMPORT_STREAM_MIN)
		produce_stream(b, path);
	else
		produce_whole(b, f);
}

/* A directory entry as listed: its name and readdir's d_type. */
struct entry {
	char *name;          /* owned */
	unsigned char type;  /* DT_REG, DT_DIR, DT_LNK, DT_UNKNOWN, ... */
};

static int cmp_entries(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static char *join_path(const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	int slash = dl > 0 && dir[dl - 1] == '/';
	char *p = malloc(dl + nl + 2);

	if (!p)
		return NULL;
	memcpy(p, dir, dl);
	if (!slash)
		p[dl++] = '/';
	memcpy(p + dl, name, nl + 1);
	return p;
}

/* Whether the listing v[0..n) (sorted) holds the sidecar of the file name:
 * 0 no, 1 yes, -1 unknown (the name is too long to check here). */
static int listed_sidecar(const struct entry *v, size_t n, const char *name)
{
	static const char tail[] = ".conditions.json";
	char want[512];
	struct entry key;
	size_t stem;

	if ((stem = sidecar_stem(name)) == 0)
		return 0; /* load_sidecar looks for none */
	if (stem + sizeof(tail) > sizeof(want))
		return -1;
	memcpy(want, name, stem);
	memcpy(want + stem, tail, sizeof(tail));
	key.name = want;
	return bsearch(&key, v, n, sizeof(*v), cmp_entries) != NULL;
}

/* Directories deeper than this are walked without keeping their stream
 * open, so that a deep tree cannot run out of file descriptors. */
#define WALK_OPEN_DEPTH 64

static void walk_dir(struct batch *b, const char *dir, int depth)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct entry *names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;

	if (!d) {
		int e = errno;
		struct item *it = item_new(IT_FILE, dir);
		struct pl_error err;

		if (dfd >= 0)
			close(dfd);
		if (!it) {
			push_oom(b);
			return;
		}
		pl_error_init(&err);
		pl_error_at(&err, dir, 0, 0);
		pl_error_set(&err, PL_EIO, "cannot open directory '%s': %s", dir, strerror(e));
		item_fail(it, PL_EIO, &err);
		push(b, it);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue; /* ".", ".." and hidden entries */
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			struct entry *nn = realloc(names, ncap * sizeof(*nn));
			if (!nn)
				goto oom;
			names = nn;
			cap = ncap;
		}
		names[n].name = strdup(de->d_name);
		names[n].type = de->d_type;
		if (!names[n].name)
			goto oom;
		n++;
	}
	if (depth >= WALK_OPEN_DEPTH) {
		closedir(d);
		d = NULL;
		dfd = -1;
	}
	qsort(names, n, sizeof(*names), cmp_entries);
	for (size_t i = 0; i < n && !stopped(b); i++) {
		const char *name = names[i].name;
		char *full = join_path(dir, name);
		struct stat sb;
		int link = 0, dir_ = 0, reg = 0;

		if (!full)
			goto oom;
		/* d_type saves a stat per entry; DT_UNKNOWN (some file systems) and
		 * links are looked at as before */
		if (dfd >= 0 && names[i].type == DT_REG) {
			reg = 1;
		} else if (dfd >= 0 && names[i].type == DT_DIR) {
			dir_ = 1;
		} else if ((dfd >= 0 ? fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) : lstat(full, &sb)) ==
		           0) {
			link = S_ISLNK(sb.st_mode);
			if (link && (dfd >= 0 ? fstatat(dfd, name, &sb, 0) : stat(full, &sb)) != 0) {
				free(full);
				continue; /* dangling link */
			}
			dir_ = S_ISDIR(sb.st_mode);
			reg = S_ISREG(sb.st_mode);
		}
		if (dir_) {
			if (!link)
				walk_dir(b, full, depth + 1);
		} else if (reg &&
		           (has_suffix(name, ".json") || has_suffix(name, ".jsonl") ||
		            has_suffix(name, ".yaml") || has_suffix(name, ".yml") ||
		            has_suffix(name, ".csv") || has_suffix(name, ".txt")) &&
		           !has_suffix(name, ".conditions.json")) {
			struct src f = {full, dfd, name, dfd >= 0 ? listed_sidecar(names, n, name) : -1};
			produce_file(b, &f);
		}
		free(full);
	}
	goto out;
oom:
	push_oom(b);
out:
	if (d)
		closedir(d);
	for (size_t i = 0; i < n; i++)
		free(names[i].name);
	free(names);
}

/* The parser: every path in order, then done. */
static void *parser_main(void *arg)
{
	struct batch *b = arg;

	for (size_t i = 0; i < b->npaths && !stopped(b); i++) {
		struct stat sb;
		const char *path = b->paths[i];
		if (strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			walk_dir(b, path, 0);
		} else {
			struct src f = {path, -1, NULL, -1};
			produce_file(b, &f);
		}
	}
	publish(b); /* what is gathered; freed if the writer stopped */
	pthread_mutex_lock(&b->mu);
	b->parser_done = 1;
	pthread_cond_broadcast(&b->not_empty);
	pthread_mutex_unlock(&b->mu);
	return NULL;
}

int pl_import_check_set(const struct pl_kv *set, size_t nset, struct pl_error *err)
{
	for (size_t i = 0; i < nset; i++) {
		struct pl_run scratch;
		struct pl_error e;
		int id = pl_cond_lookup(set[i].key);
		int rc;

		if (id < 0) {
			pl_error_field(err, set[i].key);
			return pl_error_set(err, PL_EUSAGE,
			                    "unknown condition '%s' in --set (see schema/descriptor.md for the names)",
			                    set[i].key ? set[i].key : "");
		}
		if (!set[i].value || !set[i].value[0]) {
			pl_error_field(err, set[i].key);
			return pl_error_set(err, PL_EUSAGE, "--set %s= needs a value", set[i].key);
		}
		{
			size_t n = strlen(set[i].value), bad = pl_utf8_valid_prefix(set[i].value, n);
			if (bad < n) {
				pl_error_field(err, set[i].key);
				return pl_error_set(err, PL_EUSAGE,
				                    "--set %s: the value is not UTF-8 (byte 0x%02X at offset %zu)",
				                    set[i].key, (unsigned)(unsigned char)set[i].value[bad], bad);
			}
		}
		pl_run_init(&scratch);
		pl_error_init(&e);
		rc = pl_run_set_cond(&scratch, id, set[i].value, &e);
		pl_run_release(&scratch);
		if (rc == PL_ENOMEM)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		if (rc) {
			pl_error_field(err, set[i].key);
			return pl_error_set(err, PL_EUSAGE, "--set %s=%s: %s", set[i].key, set[i].value,
			                    e.message);
		}
	}
	return 0;
}

/* Strict batch decided: commit or roll back, then release the held callbacks. */
static void finish_strict(struct batch *b)
{
	struct pl_error err, why;

	pl_error_init(&err);
	pl_error_init(&why);
	if (b->rejected || b->fatal) {
		pl_store_rollback(b->st, &err);
		b->stats.stored = 0;
		b->stats.runs = 0;
	} else if (pl_store_commit(b->st, &err) != 0) {
		set_fatal(b, &err);
		b->stats.stored = 0;
		b->stats.runs = 0;
	}
	if (b->fatal)
		why = b->fatal_err;
	else
		pl_error_set(&why, PL_EINVALID, "not stored: another file of the strict batch was rejected");
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
	if (b.opts->format) {
		size_t n;
		const struct pl_adapter_info *a = pl_adapters_list(&n);
		size_t i;
		for (i = 0; i < n && strcmp(a[i].name, b.opts->format) != 0; i++)
			;
		if (i == n)
			return pl_error_set(err, PL_EUSAGE, "unknown format '%s' (see `perfledger formats`)",
			                    b.opts->format);
	}
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
		if (pl_store_defer_indexes(st, &deferred, &derr) == PL_ENOMEM)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (b.opts->strict && (rc = pl_store_begin(st, err)) != 0)
		return rc;
	pthread_mutex_init(&b.mu, NULL);
	pthread_cond_init(&b.not_empty, NULL);
	pthread_cond_init(&b.not_full, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b.t0);
	b.last_tick = b.t0;
	/* set before the thread starts: push() reads it there at once (it was
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
	{
		struct pl_error ierr;
		pl_error_init(&ierr);
		if (pl_store_build_deferred_indexes(st, &ierr) != 0)
			snprintf(b.stats.indexes_pending, sizeof(b.stats.indexes_pending), "%s",
			         ierr.message);
	}
	free(b.held);
	free(b.stream_err); /* set only if a streamed file was cut short */
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
