/*
 * bundle.h — a report bundle: one report definition rendered into a
 * directory, byte for byte the same for the same database, definition,
 * language and SOURCE_DATE_EPOCH.
 *
 * Files (flat, no subdirectories):
 *   report.md, report.html  the templates report.LANG.md / .html filled in;
 *                           the HTML is self-contained (inline CSS, SVG and
 *                           a few lines of script to sort tables)
 *   comparison.csv, .json   the comparison table, machine-readable
 *   NAME.gp/.dat/.svg/.png  gnuplot bar charts ("bars" in the definition)
 *   sweep.svg, pareto.svg   throughput vs concurrency; interactivity vs
 *                           throughput per accelerator with the Pareto front
 *   comparison.xlsx         the workbook, with native charts
 *   definition.json         the report definition, byte for byte
 *   manifest.json           inputs (source, sha256), the runs used with their
 *                           revision (id, revision), outputs (path, sha256),
 *                           the database content hash, lang, the epoch,
 *                           and "gnuplot": the `gnuplot --version` line when
 *                           gnuplot drew charts (its SVG carries the version,
 *                           so another gnuplot gives other bytes; verify
 *                           names both versions when they differ)
 * The database content hash is the sha256 of the selected runs rendered as
 * `perfledger list --format json` renders them.
 */
#ifndef PL_BUNDLE_H
#define PL_BUNDLE_H

#include <stddef.h>

#include "core/compare.h"
#include "core/error.h"
#include "core/model.h"
#include "core/procure.h"
#include "render/spec.h"

/* What a bundle is rendered from besides the data. */
struct pl_bundle_erratum;
struct pl_bundle_opts {
	const struct pl_report_spec *spec; /* the definition */
	const char *lang;                  /* "en" or "zh-CN" */
	long long epoch;                   /* SOURCE_DATE_EPOCH: the one timestamp */
	const char *tool_version;          /* perfledger version */
	const struct pl_bundle_erratum *errata; /* what changed since spec->since_at
	                                      (pl_bundle_errata), NULL without "since" */
	size_t nerrata;                    /* entries in errata */
	const char *as_of;                 /* the bundle's as-of time (manifest "as_of"):
	                                      the definition's "as_of", else the latest
	                                      of the epoch and the selection's trail
	                                      (pl_bundle_latest); NULL: the epoch */
};

/* The latest time (ISO 8601 UTC) in the trails of runs (their import,
 * amends, retractions and restores) into buf (size n, at least 21), or
 * "" when runs is empty. */
void pl_bundle_latest(const struct pl_run_list *runs, char *buf, size_t n);

/* ------------------------------------------- runs named by their content */

/* The size of a bundle id with its NUL: "plb1-" and 32 hex digits. */
#define PL_BUNDLE_ID_SIZE 38

/* A run as a bundle names it: the sha256 of its source bytes, its record
 * in that file, its record identity (32 hex digits, "" when the ledger
 * made none) and its revision (1 = as imported). */
struct pl_bundle_ident {
	char sha256[65];    /* lowercase hex */
	long record;        /* 0-based record of the file */
	char record_id[33]; /* pl_run_record_id, or "" */
	int revision;       /* >= 1 */
	char line[65];      /* sha256 of its runs.jsonl line (the export line with
	                       its trail, without the newline): its content */
};

/* "SHA256 record N" of run into buf (size n). */
void pl_bundle_run_identity(const struct pl_run *run, char *buf, size_t n);

/* "sha256 0123456789ab record N" (the first 12 hex digits) into buf. */
void pl_bundle_run_short(const char *sha256, long record, char *buf, size_t n);

/* Sorts v (n entries) by sha256, then record: the order in which a
 * bundle lists and numbers its runs. */
void pl_bundle_ident_sort(struct pl_bundle_ident *v, size_t n);

/* The bundle id: "plb1-" and the first 32 hex digits of the sha256 of
 * "perfledger bundle 1", the sha256 of the definition's bytes (def,
 * ndef), lang, epoch, version, then one line "run SHA256 RECORD
 * RECORD_ID|- REVISION" per run of runs (nruns, sorted by
 * pl_bundle_ident_sort), each line ending in "\n". A hash over the inputs
 * of a render, so it can be printed inside the files it names. Returns 0
 * or PL_ENOMEM. */
int pl_bundle_id_compute(const char *def, size_t ndef, const char *lang, long long epoch,
                         const char *version, const struct pl_bundle_ident *runs, size_t nruns,
                         char out[PL_BUNDLE_ID_SIZE]);

/* Replaces every absolute source of runs by its path relative to the
 * deepest directory holding all of them, prefixed by that directory's name
 * ("/home/a/bench/h100/r1.json" -> "bench/h100/r1.json"); relative sources
 * stay as they are. Returns 0 or PL_ENOMEM. */
int pl_bundle_runs_relative(struct pl_run_list *runs);

/* Puts runs in a bundle's order and numbers them: every absolute source
 * is replaced by its path relative to the deepest directory holding all
 * of them, prefixed by that directory's name (no path of the author's
 * machine reaches a bundle); the runs are sorted by source sha256 then
 * record; run i gets id i + 1 (the bundle's run number, the same in any
 * ledger that holds these runs). Returns 0 or PL_ENOMEM. */
int pl_bundle_runs_canonical(struct pl_run_list *runs, struct pl_error *err);

/* The runs as they stood at time at (ISO 8601 UTC, "YYYY-MM-DDTHH:MM:SSZ"),
 * from their trails (run->carried): a run imported after at is removed;
 * retracted is set to whether the run was retracted at at; the revisions made after at are undone (their old
 * values put back, the newest first) and dropped from the trail, as are
 * retractions after at and restores after at; revision and the checklist
 * are set again. Returns 0, PL_ENOMEM or PL_EINVALID (a stored old value
 * that no longer parses; err says which). */
int pl_bundle_runs_as_of(struct pl_run_list *runs, const char *at, struct pl_error *err);

/* What an erratum says of a run. */
enum pl_erratum_kind {
	PL_ERRATUM_ADDED = 0,     /* imported after the earlier bundle */
	PL_ERRATUM_AMENDED = 1,   /* one field of an amend (rev) */
	PL_ERRATUM_RETRACTED = 2, /* retracted (ret) */
	PL_ERRATUM_RESTORED = 3   /* restored (ret) */
};

/* One entry of the errata: borrowed pointers into the runs it was made
 * from. */
struct pl_bundle_erratum {
	int kind;                         /* enum pl_erratum_kind */
	const struct pl_run *run;         /* the run */
	const char *at;                   /* when, ISO 8601 UTC */
	const struct pl_revision *rev;    /* PL_ERRATUM_AMENDED */
	const struct pl_retraction *ret;  /* PL_ERRATUM_RETRACTED / _RESTORED */
	long seq;                         /* order inside the run's trail */
};

/* The errata of runs (the selection, retracted runs included, each with
 * its trail in run->carried) between since (exclusive) and until
 * (inclusive; NULL: no end): each run imported then (added), each field
 * amended, each retraction and restore, ordered by time, then sha256,
 * record, kind and trail order. *out (caller frees with free()) points
 * into runs. Returns 0 or PL_ENOMEM. */
int pl_bundle_errata(const struct pl_run_list *runs, const char *since, const char *until,
                     struct pl_bundle_erratum **out, size_t *nout, struct pl_error *err);

/* 1 if lang is a language templates exist for ("en", "zh-CN"). */
int pl_bundle_lang_ok(const char *lang);

/* Renders the bundle into dir, atomically: into a temporary directory
 * beside dir that is then swapped in, under a lock file beside dir
 * (".DIR.perfledger-lock"). An existing dir is replaced only when it is
 * empty or an earlier perfledger bundle with every file listed in its
 * manifest at its sha256; else PL_EIO naming the first other file, with
 * nothing touched. Returns 0; PL_EIO;
 * PL_ENOMEM; PL_EINVALID for a template error; PL_ETOOL when only gnuplot
 * failed (everything else, the manifest included, is written).
 * With opts->spec->builtin (pl_spec_default: `report --axis`) it writes
 * the default report instead: comparison.csv/.json, the gnuplot charts,
 * the plain workbook (pl_xlsx_write), report.md from report.axis.md and
 * manifest.json; proc may be NULL. */
int pl_bundle_write(const char *dir, const struct pl_comparison *cmp,
                    const struct pl_run_list *runs, const struct pl_procurement *proc,
                    const struct pl_bundle_opts *opts, struct pl_error *err);

/* pl_bundle_write straight into dir, an empty directory the caller made
 * and owns (verify's re-render): no lock, no swap. */
int pl_bundle_write_fresh(const char *dir, const struct pl_comparison *cmp,
                          const struct pl_run_list *runs, const struct pl_procurement *proc,
                          const struct pl_bundle_opts *opts, struct pl_error *err);

/* 0 when dir is missing, empty or an earlier perfledger bundle (its
 * manifest.json is perfledger's and lists every entry of dir, each a
 * regular file with that sha256); else PL_EIO "refusing to replace 'DIR':
 * 'NAME' ..." naming the first offending entry, or "cannot write a bundle
 * into 'DIR': it is ..., not a directory". Reads only regular files, each
 * capped. pl_bundle_write checks this under its lock. */
int pl_bundle_dir_check(const char *dir, struct pl_error *err);

/* Called by pl_bundle_compare for each difference: name is a file name,
 * what is "differs", "missing" (in the bundle) or "unexpected" (in the
 * bundle, not re-rendered). */
typedef void (*pl_bundle_diff_cb)(void *ctx, const char *name, const char *what);

/* Compares the regular files of bundle_dir with those of fresh_dir byte by
 * byte. *ndiff receives the number of differences. Returns 0 or PL_EIO. */
int pl_bundle_compare(const char *bundle_dir, const char *fresh_dir, pl_bundle_diff_cb cb,
                      void *ctx, size_t *ndiff, struct pl_error *err);

/* Checks the bundle in dir with no ledger: every file its manifest.json
 * lists ("outputs") against its sha256 (cb: "differs" or "missing") and
 * every other regular file but manifest.json ("unexpected"); *ndiff
 * counts them. Then recomputes the bundle id (pl_bundle_id_compute) from
 * definition.json, the manifest's lang, source_date_epoch and perfledger
 * version, and the runs of runs.jsonl (each line's provenance sha256,
 * record, record_id and its highest revision) into id ("" when the
 * bundle ships no definition.json or runs.jsonl), and copies the
 * manifest's "bundle_id" into listed_id ("" when none). Returns 0,
 * PL_EIO (a file that is not a regular file, unreadable),
 * PL_ESYNTAX/PL_EINVALID (manifest or runs.jsonl malformed, located) or
 * PL_ENOMEM. */
int pl_bundle_offline(const char *dir, pl_bundle_diff_cb cb, void *ctx, size_t *ndiff,
                      char id[PL_BUNDLE_ID_SIZE], char listed_id[PL_BUNDLE_ID_SIZE],
                      struct pl_error *err);

/* Reads "lang" and "source_date_epoch" from a bundle's manifest.json
 * (a regular file of at most 16 MiB).
 * lang (size n) receives the language. Returns 0, PL_EIO, PL_ESYNTAX or
 * PL_EINVALID. */
int pl_manifest_read(const char *path, char *lang, size_t n, long long *epoch,
                     struct pl_error *err);

/* A run a bundle used, and its revision then (manifest.json "runs"). */
struct pl_manifest_run {
	long long id;        /* run id in the ledger it was rendered from: only in
	                        manifests written before runs were named by
	                        content (sha256 then ""), else 0 */
	char sha256[65];     /* its source sha256, or "" (an old manifest) */
	long record;         /* its record in that file */
	char record_id[33];  /* its record identity, or "" */
	int revision;        /* its revision when the bundle was rendered (1 = as imported) */
};

/* Reads "runs" from a bundle's manifest.json into *runs (caller frees with
 * free()) and *n, in manifest order; *found is 0 (and *n 0) when the
 * manifest has none (written before revisions existed). An entry is
 * {"sha256": HEX, "record": N, "record_id": HEX or "", "revision": N} or,
 * in a manifest written before runs were named by content, {"id": RUN,
 * "revision": N}. Returns 0, PL_EIO, PL_ESYNTAX, PL_EINVALID (another
 * entry) or PL_ENOMEM. */
int pl_manifest_runs(const char *path, struct pl_manifest_run **runs, size_t *n, int *found,
                     struct pl_error *err);

/* Reads the string member key of a manifest (e.g. "bundle_id", "as_of",
 * "perfledger") into buf (size n). Returns 1 if found (and shorter than
 * n), else 0 (buf empty). */
int pl_manifest_string(const char *path, const char *key, char *buf, size_t n);

/* Reads "gnuplot" (the `gnuplot --version` line a bundle with gnuplot
 * charts records) from a manifest into buf (size n). Returns 1 if found,
 * 0 if not (or the file is unreadable; buf is then empty). */
int pl_manifest_gnuplot(const char *path, char *buf, size_t n);

#endif
