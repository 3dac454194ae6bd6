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
struct pl_bundle_opts {
	const struct pl_report_spec *spec; /* the definition */
	const char *lang;                  /* "en" or "zh-CN" */
	long long epoch;                   /* SOURCE_DATE_EPOCH: the one timestamp */
	const char *tool_version;          /* perfledger version */
};

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

/* Reads "lang" and "source_date_epoch" from a bundle's manifest.json
 * (a regular file of at most 16 MiB).
 * lang (size n) receives the language. Returns 0, PL_EIO, PL_ESYNTAX or
 * PL_EINVALID. */
int pl_manifest_read(const char *path, char *lang, size_t n, long long *epoch,
                     struct pl_error *err);

/* A run a bundle used, and its revision then (manifest.json "runs"). */
struct pl_manifest_run {
	long long id; /* run id */
	int revision; /* its revision when the bundle was rendered (1 = as imported) */
};

/* Reads "runs" from a bundle's manifest.json into *runs (caller frees with
 * free()) and *n, in manifest order; *found is 0 (and *n 0) when the
 * manifest has none (written before revisions existed). Returns 0,
 * PL_EIO, PL_ESYNTAX, PL_EINVALID (an entry that is not {"id": RUN,
 * "revision": N} with whole numbers >= 1) or PL_ENOMEM. */
int pl_manifest_runs(const char *path, struct pl_manifest_run **runs, size_t *n, int *found,
                     struct pl_error *err);

/* Reads "gnuplot" (the `gnuplot --version` line a bundle with gnuplot
 * charts records) from a manifest into buf (size n). Returns 1 if found,
 * 0 if not (or the file is unreadable; buf is then empty). */
int pl_manifest_gnuplot(const char *path, char *buf, size_t n);

#endif
