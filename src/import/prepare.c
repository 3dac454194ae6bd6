/*
 * prepare.c — the import's step for one file's runs, between parsing and
 * storing: the sidecar overlay, then --set (which wins, with a warning when it
 * contradicts the file), the launch flags of engine_args, the latencies
 * recomputed from the requests a file carries, named extras,
 * normalize and validate, and the warnings reported with the file; also the
 * check of the --set list itself. Single-threaded and free of the store, so
 * that it can be unit-tested on one file (tests/unit/test_prepare.c).
 */
#include "import/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/adapters.h"
#include "core/engine_args.h"
#include "core/model.h"
#include "core/normalize.h"
#include "core/requests.h"
#include "core/validate.h"
#include "import/import_impl.h"
#include "store/requests.h"
#include "util/alloc.h"

#define WARNINGS_MAX 16384 /* bytes of warnings kept per file */

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

		if (r->reject) /* rejected by its adapter: reported by the writer */
			continue;
		for (size_t k = 0; k < opts->nset && rc == 0; k++) {
			int id = pl_cond_lookup(opts->set[k].key), earlier = 0;
			char *was = NULL;
			if (id < 0) { /* build identity (checked by pl_import_check_set) */
				int f = pl_build_lookup(opts->set[k].key);
				if (r->build[f] && strcmp(r->build[f], opts->set[k].value) != 0)
					pl_run_warn(r, "--set %s=%s replaces '%s' from the file",
					            opts->set[k].key, opts->set[k].value, r->build[f]);
				rc = pl_run_set_build(r, f, opts->set[k].value, err);
				continue;
			}
			for (size_t j = 0; j < k; j++) /* the value may be an earlier --set's */
				if (pl_cond_lookup(opts->set[j].key) == id)
					earlier = 1;
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
					pl_run_warn(r, "--set %s=%s replaces '%s' from %s",
					            opts->set[k].key, opts->set[k].value, was,
					            earlier ? "an earlier --set" : "the file");
				free(now);
			}
			free(was);
		}
		if (!r->provenance_given) /* a ledger record names its own source */
			memcpy(r->sha256, sha, sizeof(r->sha256));
		/* the launch flags in engine_args, after the file, the sidecar and
		 * --set have given what they give: a disagreement is an error */
		if (rc == 0)
			rc = pl_engine_args_apply(r, err);
		/* latencies from the requests, where the file carries them (a
		 * ledger record carries its figures as derived already); the
		 * requests encoded first, so that the derivation needs no copy
		 * of their gaps (2.3 million: 18.6 MB) */
		if (rc == 0 && !r->provenance_given && r->requests && !r->requests->blob)
			rc = pl_store_requests_encode(r->requests, err);
		if (rc == 0 && !r->provenance_given)
			rc = pl_requests_derive(r, err);
		if (rc == 0)
			rc = pl_normalize_named_extras(r, err);
		if (rc == 0)
			rc = pl_normalize_run(r, err);
		if (rc == 0)
			rc = pl_validate_run(r, err);
		if (rc) {
			pl_error_at(err, path, err->line, err->column);
			if ((many || runs->n > 1) && strncmp(err->message, "record ", 7) != 0)
				pl_error_prefix_record(err, r->record);
			/* one bad record of several: rejected alone, the others kept */
			if (rc == PL_ENOMEM || !(many || runs->n > 1))
				return rc;
			if (pl_run_reject(r, err))
				return pl_error_set(err, PL_ENOMEM, "out of memory");
			pl_error_init(err);
			continue;
		}
		if (r->checklist_missing)
			(*refonly)++;
	}
	return 0;
}

/* Appends the warnings of runs[from..n) to *acc ("\n"-separated; a run of a
 * multi-run file gets "record N: "). Returns 0 or PL_ENOMEM (err set). */
static int add_warnings(char **acc, const struct pl_run_list *runs, size_t from, int many,
                        struct pl_error *err)
{
	static const char more[] = "(further warnings of this file not shown)";
	size_t cap = 0; /* bytes *acc is known to hold (0: not known, grow once) */

	for (size_t i = from; i < runs->n; i++) {
		const char *w = runs->v[i].reject ? NULL : runs->v[i].warnings;

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
			char *nw;

			if (PL_ALLOC_GROW(*acc, old + 1 + plen + len + 1, cap))
				return pl_error_set(err, PL_ENOMEM, "out of memory");
			nw = *acc;
			if (old)
				nw[old++] = '\n';
			if (w == more)
				plen = 0;
			memcpy(nw + old, pre, plen);
			memcpy(nw + old + plen, w, len);
			nw[old + plen + len] = '\0';
			if (w == more)
				return 0;
			w += len;
			if (*w == '\n')
				w++;
		}
	}
	return 0;
}

int pl_import_prepare(const struct pl_import_opts *opts, const char *path, const char *sha,
                      const char *side, const char *sbuf, size_t slen, struct pl_run_list *runs,
                      size_t from, int many, size_t *refonly, char **warnings,
                      struct pl_error *err)
{
	int rc = apply_sidecar(side, sbuf, slen, runs, from, err);

	if (rc == 0)
		rc = prepare_runs(opts, path, sha, runs, from, many, refonly, err);
	if (rc == 0)
		rc = add_warnings(warnings, runs, from, many || runs->n > 1, err);
	return rc;
}

int pl_import_check_set(const struct pl_kv *set, size_t nset, struct pl_error *err)
{
	for (size_t i = 0; i < nset; i++) {
		struct pl_run scratch;
		struct pl_error e;
		int id = pl_cond_lookup(set[i].key);
		int rc, f = pl_build_lookup(set[i].key);

		if (id < 0 && f >= 0 && set[i].value) {
			pl_run_init(&scratch);
			pl_error_init(&e);
			rc = pl_run_set_build(&scratch, f, set[i].value, &e);
			pl_run_release(&scratch);
			if (rc == PL_ENOMEM)
				return pl_error_set(err, PL_ENOMEM, "out of memory");
			if (rc) {
				pl_error_field(err, set[i].key);
				return pl_error_set(err, PL_EUSAGE, "--set %s: %s", set[i].key, e.message);
			}
			continue;
		}
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
