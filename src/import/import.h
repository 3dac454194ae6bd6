/*
 * import.h — the import pipeline: paths in, validated runs stored.
 *
 * For each path (file, directory walked recursively in sorted order, or "-"
 * for stdin): read the bytes, hash them, skip them if that sha256 is already
 * stored, parse with the adapters, overlay the sidecar NAME.conditions.json
 * (next to NAME.json or NAME.jsonl) and then the --set values, normalize,
 * validate, store. Each file is atomic: all its runs are stored or none.
 * With strict, the whole batch is one transaction and any rejection stores
 * nothing. Files named *.conditions.json are sidecars and are not imported
 * on their own when met in a directory walk. Directory walks take *.json,
 * *.jsonl, *.yaml, *.yml, *.csv and *.txt files only (not hidden ones); a
 * file named explicitly is always read.
 *
 * The layer: walk.c (which files a directory import reads), parse_file.c (one
 * input file, read whole or streamed, and its sidecar), prepare.c (one
 * file's runs: sidecar, --set, engine_args, normalize, validate, warnings),
 * pipeline.c (threads, queue, batches, transactions, progress); they share
 * import_impl.h. It may include core, adapters and store; core includes
 * none of it.
 */
#ifndef PL_IMPORT_H
#define PL_IMPORT_H

#include <stddef.h>

#include "core/error.h"
#include "store/db.h"

/* One --set FIELD=VALUE. */
struct pl_kv {
	const char *key;   /* canonical condition name, or a build field (commit, branch,
	                      build_id, ci_run_url) */
	const char *value; /* value text */
};

struct pl_import_stats;

/* Options of an import. */
struct pl_import_opts {
	const struct pl_kv *set; /* conditions applied to every run (override the file) */
	size_t nset;             /* entries in set */
	int strict;              /* 1: all or nothing for the batch */
	const char *format;      /* adapter to force, or NULL to detect */
	size_t commit_runs;      /* runs per transaction (0: PL_IMPORT_COMMIT_RUNS); a crash
	                            loses at most the open batch, never part of a file */
	void (*progress)(void *ctx, const struct pl_import_stats *so_far, double seconds);
	                         /* called from the calling thread about 4 times a second
	                            during a long import, and once at the end; may be NULL */
	void *progress_ctx;      /* for progress */
	int dry_run;             /* 1: nothing is written (no transaction, no index
	                            work); every file is read, checked and reported as
	                            it would be, and each run that would be stored is
	                            handed to preview (st may be read-only) */
	void (*preview)(void *ctx, const struct pl_run *run);
	                         /* dry_run: called on the calling thread, in input
	                            order, for each run that would be stored (run->id
	                            0; the run is borrowed for the call); may be NULL */
	void *preview_ctx;       /* for preview */
};

/* Default number of runs stored per transaction. */
#define PL_IMPORT_COMMIT_RUNS 4096

/* *.jsonl files larger than this are streamed line by line in constant
 * memory (two passes: sha256, then parse and store inside a savepoint, so
 * the file stays atomic); smaller ones are read whole. */
#define PL_IMPORT_STREAM_MIN (1024 * 1024)

/* A file that is not streamed (anything but a large regular *.jsonl file,
 * including standard input) is read whole into memory, up to this size;
 * a larger one is rejected ("larger than 256 MiB; split it or use JSONL"). */
#define PL_IMPORT_WHOLE_MAX ((size_t)256 * 1024 * 1024)

/* Outcome of one input file, reported through the callback. */
enum pl_import_status {
	PL_IMPORT_STORED,    /* runs stored */
	PL_IMPORT_DUPLICATE, /* same bytes already stored; nothing done */
	PL_IMPORT_REJECTED,  /* error; nothing of this file stored */
	PL_IMPORT_RECORD_REJECTED /* one bad record of a multi-record file (err names
	                             it: "record N: ..." or the line); reported before
	                             the file's own outcome, which counts its other
	                             records */
};

/* Called once per input file, in order. err is NULL unless rejected. runs is
 * the number of runs stored from the file (for a rejected one: the runs it
 * held), reference_only how many of them are reference-only. warnings is
 * NULL or the adapters' and validator's notes about the stored runs, one per
 * line ("\n"-separated, e.g. "1 latency statistic of exactly 0 stored as
 * missing ..."). The library never prints: the CLI prints from here. */
typedef void (*pl_import_cb)(void *ctx, const char *path, enum pl_import_status status,
                             size_t runs, size_t reference_only, const char *warnings,
                             const struct pl_error *err);

/* Totals of a batch. */
struct pl_import_stats {
	size_t files;      /* input files seen */
	size_t stored;     /* files stored */
	size_t duplicates; /* files skipped as already stored */
	size_t rejected;   /* files rejected */
	size_t runs;       /* runs stored */
	size_t records_rejected; /* bad records of multi-record files, each
	                            reported; the files' other records are kept */
	size_t partial;    /* files with some records rejected (counted in stored,
	                      duplicates or rejected as well) */
	size_t records_present; /* records not stored because a record with the
	                           same content (record_id) is stored already */
	/* The selection indexes could not be built at the end (disk full,
	 * read-only database): the runs are stored and every query works, only
	 * slower, and the next import builds them. Not an error of the import;
	 * "" when they were built (or nothing was to build). */
	char indexes_pending[512];
};

/* Validates the --set list: known condition names, values of the right type.
 * Returns 0 or PL_EUSAGE naming the entry. */
int pl_import_check_set(const struct pl_kv *set, size_t nset, struct pl_error *err);

/*
 * Imports paths[0..npaths) into st. stats (may be NULL) receives totals.
 * A file with several records stores its good records and reports each bad
 * one (PL_IMPORT_RECORD_REJECTED); with strict, a bad record rejects the
 * batch like a bad file. A record whose content (run->record_id) is stored
 * already from other bytes is not stored again, so a fixed file imported
 * again stores only what is missing.
 * Returns 0 when every file was stored or a duplicate; PL_EINVALID when one
 * or more files or records were rejected (the others are stored unless strict); PL_EIO
 * or PL_EDB for a failure that is not one file's fault (err set: a path that
 * does not exist, the database failing) — then the current file is not stored.
 */
int pl_import_paths(struct pl_store *st, const char *const *paths, size_t npaths,
                    const struct pl_import_opts *opts, pl_import_cb cb, void *ctx,
                    struct pl_import_stats *stats, struct pl_error *err);

/* ------------------------------------------------ reimport (issue 13) */

struct pl_amend_change; /* core/amend.h */

/* Options of pl_reimport(). */
struct pl_reimport_opts {
	const struct pl_filter *filters; /* --where: the files holding a matching run */
	size_t nfilters;                 /* entries in filters */
	long long when;                  /* time of the revisions, s since 1970 */
	const char *reason;              /* "reimport with perfledger X.Y" */
	const char *author;              /* --by, else $USER */
	/* A run changed: its id, the revision made, and each field (condition,
	 * extra condition or metric) with its old (NULL = missing) and new text.
	 * May be NULL. */
	void (*on_run)(void *ctx, const char *path, long long run_id, int revision,
	               const struct pl_amend_change *changes, size_t n);
	/* A file could not be re-derived (its bytes are damaged, no longer
	 * parse, or a value no longer validates): nothing of it changed. May be
	 * NULL. */
	void (*on_failure)(void *ctx, const char *path, const struct pl_error *why);
	void *ctx;                       /* for the callbacks */
};

/* Totals of pl_reimport(). */
struct pl_reimport_stats {
	size_t files;    /* files re-derived */
	size_t runs;     /* stored runs of the files re-derived (or tried) */
	size_t changed;  /* runs that got a new revision */
	size_t no_bytes; /* files whose bytes are not kept (imported before migration 010) */
	size_t failed;   /* files that could not be re-derived (on_failure) */
	size_t vanished; /* stored runs whose record the file no longer yields (kept) */
	size_t unreported; /* changed runs not passed to on_run (past 1000 in one file) */
};

/*
 * Re-derives the stored runs of every source file holding a run that the
 * filters select (retracted runs included) from the kept bytes, with
 * today's adapters: conditions the file gives now and the run lacks are
 * added, metrics the file gives now with another value (or missing) are
 * set; conditions a run has are never changed (they may come from a
 * sidecar, --set or amend). Each change is a new revision of the run with
 * o->reason and o->author. One transaction per file. *stats gets the
 * totals. Returns 0 (files that could not be re-derived are counted and
 * reported through on_failure), PL_EUSAGE (a filter), or PL_EDB / PL_ENOMEM
 * (files done before stay done; the command can be run again).
 */
int pl_reimport(struct pl_store *st, const struct pl_reimport_opts *o,
                struct pl_reimport_stats *stats, struct pl_error *err);

#endif
