/*
 * import_impl.h — what the files of the import layer share, and nothing
 * outside src/import/ (and its unit tests) includes: the items the parser
 * thread hands to the writer, the state of one pl_import_paths call, and the
 * functions by which walk.c, parse_file.c, prepare.c and pipeline.c call each
 * other. The parser side (walk.c, parse_file.c, prepare.c) runs on the parser
 * thread and reaches the writer only through pl_import_push() and its
 * companions of pipeline.c; prepare.c needs no thread and no store.
 */
#ifndef PL_IMPORT_IMPL_H
#define PL_IMPORT_IMPL_H

#include <pthread.h>
#include <stddef.h>
#include <time.h>

#include "core/error.h"
#include "core/model.h"
#include "import/import.h"
#include "core/condkey.h" /* struct pl_cond_key, pl_cond_key_make */
#include "core/hexset.h"
#include "store/db.h"

struct outcome;

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
	IT_SRC,   /* a chunk of the streamed file's bytes, compressed: src, src_seq */
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
	struct pl_source_chunk src; /* IT_FILE: the file's bytes compressed (src.z NULL when
	                               not read or rejected); IT_SRC: one chunk; owned */
	long long src_seq;       /* IT_SRC: the chunk's number */
	struct pl_source_chunk *srcs; /* IT_FILE read in pieces (instead of src): its
	                                 PL_SOURCE_CHUNK chunks in order; owned */
	size_t nsrcs, srcs_cap;  /* chunks in srcs, allocated */
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
	int stream_bad;                /* a record of the streamed file was rejected */
	char stream_sha[65];           /* sha256 of the streamed file */
	char *stream_path;             /* its path (chunks carry none); owned */
	size_t refonly_stored;         /* reference-only runs of the current file stored */
	struct pl_hexset seen_files;   /* dry run: sha256s this batch would have stored */
	struct pl_hexset seen_records; /* dry run: record_ids this batch would have stored */
	int rejected;                  /* a file was rejected */
	int io_failed;                 /* a path could not be read */
	int fatal;                     /* PL_EDB / PL_ENOMEM: stop the batch */
	struct pl_error first_io;      /* first read failure */
	struct pl_error first_reject;  /* first rejection */
	struct pl_error fatal_err;     /* the fatal error */
	struct timespec t0, last_tick; /* start, last progress call */
};

/* ------------------------------------------------- pipeline.c: the queue */

/* Frees an item and all it owns; NULL is a no-op. */
void pl_import_item_free(struct item *it);

/* A new item; path is copied (may be NULL). NULL when out of memory. */
struct item *pl_import_item_new(enum item_kind kind, const char *path);

/* Records err as the item's rejection (copies it). Returns rc. */
int pl_import_item_fail(struct item *it, int rc, const struct pl_error *err);

/* Parser side: hands it to the writer (or, unthreaded, consumes it at
 * once); it is no longer the caller's. Returns 0, or -1 when the writer
 * asked to stop (it is freed). */
int pl_import_push(struct batch *b, struct item *it);

/* Parser side: 1 when the writer asked the parser to stop, else 0. */
int pl_import_stopped(struct batch *b);

/* Parser side: 1 if the streamed file is to be skipped (a duplicate) or
 * the writer stopped. */
int pl_import_stream_skipped(struct batch *b);

/* Parser side: pushes an out-of-memory fatal item (best effort). */
void pl_import_push_oom(struct batch *b);

/* Writer side: the import's first fatal error (a store failure, out of
 * memory) is err (copied; later ones are dropped), and the parser is told
 * to stop. */
void pl_import_set_fatal(struct batch *b, const struct pl_error *err);

/* ---------------------------------- differs.c: stored bytes read again */

/* Writer side. The bytes of a file (path, sha256 sha) are stored already.
 * When the conditions it gets now (from --set or a sidecar) differ from
 * the stored runs', calling it a duplicate would silently keep the old
 * values: say what differs instead, since a stored run is never
 * rewritten. runs are the file's runs as read now, or NULL for a streamed
 * file (whose runs are not read on a duplicate): then the --set values are
 * compared with every stored run. keys are the condition keys of runs (or
 * NULL): when the stored runs have the same keys nothing differs, and no
 * stored run is read back. An amended run also matches with the
 * conditions it was imported with. Returns 0 when nothing differs, 1 with
 * err set (PL_EINVALID, at path: "these bytes are stored already (run N)
 * with other conditions: FIELD stored 'A', now 'B'; ...") when something
 * does, -1 after a fatal store error (pl_import_set_fatal() called). */
int pl_import_stored_differs(struct batch *b, const char *path, const char *sha,
                             const struct pl_run_list *runs, const struct pl_cond_key *keys,
                             struct pl_error *err);

/* ----------------------------------------- parse_file.c: one input file */

/* 1 when s ends with suffix (case-sensitive), else 0. */
int pl_import_has_suffix(const char *s, const char *suffix);

/* Length of the stem of an input file name whose sidecar is
 * STEM.conditions.json (the name without its .json, .jsonl, .yaml, .yml,
 * .csv or .txt); 0 for other names (no sidecar). */
size_t pl_import_sidecar_stem(const char *name);

/* The sidecar of path, read whole: *buf_out (caller frees) of *len bytes
 * and *side_out (its name; caller frees), or both NULL when there is none.
 * known is 0 when the directory walk listed no sidecar for the file
 * (nothing is opened then), else 1 or -1 (unknown: try to open it). Only a
 * regular file of at most 1 MiB is read. Returns 0 or PL_EIO / PL_EINVALID
 * (too large) / PL_ENOMEM, err set and located at the sidecar. */
int pl_import_load_sidecar(const char *path, int known, char **side_out, char **buf_out,
                           size_t *len, struct pl_error *err);

/* Parser side: reads, parses and prepares one input file and pushes it to
 * the writer: streamed when it is a large regular *.jsonl file, else read
 * whole. A failure is pushed as the file's rejection. */
void pl_import_produce_file(struct batch *b, const struct src *f);

/* ---------------------------- records.c: per-request records beside a summary */

/* Parser side: when runs holds the one run of a summary file path whose
 * tool writes its per-request records in a file of their own (AIPerf,
 * llmperf; pl_adapters_records_name), reads that file from beside path, if
 * present, into the run's requests. Returns 0 (also when there is none),
 * or the records' rejection (PL_EIO, PL_ESYNTAX, PL_EFORMAT, PL_EINVALID,
 * err located at the records file) or PL_ENOMEM. */
int pl_import_attach_records(const char *path, struct pl_run_list *runs, struct pl_error *err);

/* -------------------------------------------- walk.c: directory imports */

/* Parser side: every importable file under dir (depth 0 for a directory
 * named on the command line), in byte order of names, through
 * pl_import_produce_file(); a directory that cannot be opened is pushed as
 * a rejected file. */
void pl_import_walk_dir(struct batch *b, const char *dir, int depth);

/* ------------------------------------------- prepare.c: one file's runs */

/*
 * Prepares runs->v[from..n) of one file for storing, on the calling thread
 * with no store: overlays the sidecar (side, NULL for none: its name; sbuf,
 * slen: its bytes, as from pl_import_load_sidecar), then opts->set, reads
 * the launch flags of engine_args (pl_engine_args_apply), keeps named
 * extras (pl_normalize_named_extras), sets each run's sha256 to sha (64 hex
 * digits), normalizes and validates. many is 1 when the runs are records of
 * a multi-run file whose other records are not in runs (a streamed file);
 * messages about one run then get "record N: ", as they do when runs holds
 * several. A record of several (many, or runs holding more than one)
 * that fails is not the file's failure: its error goes to run->reject
 * (pl_run_reject) and the others go on; runs an adapter rejected are
 * skipped. *refonly is increased by the reference-only runs; the runs'
 * warnings are appended to *warnings ("\n"-separated, at most about 16 KiB
 * per file; caller frees; may start NULL). Returns 0, or the first run's
 * rejection (PL_EINVALID, PL_ESYNTAX, ..., or PL_ENOMEM) with err located
 * at path.
 */
int pl_import_prepare(const struct pl_import_opts *opts, const char *path, const char *sha,
                      const char *side, const char *sbuf, size_t slen, struct pl_run_list *runs,
                      size_t from, int many, size_t *refonly, char **warnings,
                      struct pl_error *err);

/*
 * Reads buf[0..len), the bytes of the *.jsonl file path that did not parse
 * as a whole, line by line (lines.c): each non-blank line is parsed alone
 * (with format, else the adapter that read the first good line) and its
 * runs appended to out, record N for the Nth non-blank line; a line that
 * fails is appended as one rejected run (pl_run_reject) whose error names
 * path and the line. Returns 0, or PL_ENOMEM / PL_EFORMAT / PL_EUSAGE (err
 * set) when the file cannot be read at all.
 */
int pl_import_parse_lines(const char *path, const char *buf, size_t len, const char *format,
                          struct pl_run_list *out, struct pl_error *err);

#endif
