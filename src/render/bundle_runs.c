/*
 * bundle_runs.c — the runs of a bundle named by their content, not by the
 * ledger's row numbers: the selection put in one order (source sha256,
 * then record) and numbered 1..n in it, so that a ledger holding the same
 * runs however they got there (import in another order, export -> import,
 * merge) renders the same bytes; a source shown without the author's
 * machine paths; the runs as they stood at a time (--as-of: later amends
 * undone, later imports and retractions left out); the bundle id (a hash
 * over the inputs of a render) and the errata since an earlier bundle
 * (what the runs' trails say changed since its as-of time).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/carried.h"
#include "core/hash.h"
#include "render/bundle.h"
#include "render/render.h"
#include "util/alloc.h"

/* ------------------------------------------------------------- identity */

void pl_bundle_run_identity(const struct pl_run *run, char *buf, size_t n)
{
	snprintf(buf, n, "%s record %ld", run->sha256, run->record);
}

void pl_bundle_run_short(const char *sha256, long record, char *buf, size_t n)
{
	snprintf(buf, n, "sha256 %.12s record %ld", sha256, record);
}

int pl_bundle_id_compute(const char *def, size_t ndef, const char *lang, long long epoch,
                         const char *version, const struct pl_bundle_ident *runs, size_t nruns,
                         char out[PL_BUNDLE_ID_SIZE])
{
	struct pl_sha256 *h = pl_sha256_new();
	char hex[65], line[256];
	int rc = h ? 0 : PL_ENOMEM;

	if (!rc && pl_sha256_hex(def, ndef, hex))
		rc = PL_ENOMEM;
	if (!rc) {
		int len = snprintf(line, sizeof(line),
		                   "perfledger bundle 1\ndefinition %s\nlang %s\nepoch %lld\nversion %s\n",
		                   hex, lang ? lang : "", epoch, version ? version : "");
		rc = pl_sha256_update(h, line, (size_t)len) ? PL_ENOMEM : 0;
	}
	for (size_t i = 0; !rc && i < nruns; i++) {
		int len = snprintf(line, sizeof(line), "run %s %ld %s %d %s\n", runs[i].sha256,
		                   runs[i].record, runs[i].record_id[0] ? runs[i].record_id : "-",
		                   runs[i].revision, runs[i].line);
		rc = pl_sha256_update(h, line, (size_t)len) ? PL_ENOMEM : 0;
	}
	if (!rc && pl_sha256_final(h, hex))
		rc = PL_ENOMEM;
	pl_sha256_free(h);
	if (!rc)
		snprintf(out, PL_BUNDLE_ID_SIZE, "plb1-%.32s", hex);
	return rc;
}

static int ident_cmp(const void *a, const void *b)
{
	const struct pl_bundle_ident *x = a, *y = b;
	int c = strcmp(x->sha256, y->sha256);

	return c ? c : (x->record > y->record) - (x->record < y->record);
}

void pl_bundle_ident_sort(struct pl_bundle_ident *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), ident_cmp);
}

/* ------------------------------------------------------- canonical order */

static int run_cmp(const void *a, const void *b)
{
	const struct pl_run *x = a, *y = b;
	int c = strcmp(x->sha256, y->sha256);

	return c ? c : (x->record > y->record) - (x->record < y->record);
}

/* The directory part of path (up to and without its last '/'); length. */
static size_t dir_len(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? (size_t)(s - path) : 0;
}

/* The shown form of every absolute source of runs: relative to the
 * deepest directory that holds them all, prefixed by that directory's
 * name ("/home/a/bench/h100/r1.json" -> "bench/h100/r1.json" when
 * /home/a/bench holds them all). Relative sources are shown as given. */
int pl_bundle_runs_relative(struct pl_run_list *runs)
{
	const char *first = NULL;
	size_t common = 0;

	for (size_t i = 0; i < runs->n; i++) {
		const char *s = runs->v[i].source;
		size_t k = 0, d;
		if (!s || s[0] != '/')
			continue;
		if (!first) {
			first = s;
			common = dir_len(s);
			continue;
		}
		d = dir_len(s);
		while (k < common && k < d && first[k] == s[k])
			k++;
		/* back to a whole directory name */
		if (!(k == common && (d == common || s[common] == '/')))
			while (k > 0 && first[k] != '/')
				k--;
		common = k;
	}
	if (!first)
		return 0;
	{
		/* keep the name of the common directory itself */
		size_t start = common;
		while (start > 0 && first[start - 1] != '/')
			start--;
		if (start > 0)
			start--; /* the '/' before it */
		for (size_t i = 0; i < runs->n; i++) {
			char *s = runs->v[i].source, *t;
			if (!s || s[0] != '/')
				continue;
			t = strdup(s + start + (s[start] == '/'));
			if (!t)
				return PL_ENOMEM;
			free(s);
			runs->v[i].source = t;
		}
	}
	return 0;
}

int pl_bundle_runs_canonical(struct pl_run_list *runs, struct pl_error *err)
{
	if (pl_bundle_runs_relative(runs))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (runs->n > 1)
		qsort(runs->v, runs->n, sizeof(runs->v[0]), run_cmp);
	for (size_t i = 0; i < runs->n; i++)
		runs->v[i].id = (long long)i + 1;
	return 0;
}

/* ---------------------------------------------------------------- as of */

/* Puts the value a revision record names back (old_value): a condition,
 * an extra ("FORMAT.key"), a build field or a metric. */
static int undo_change(struct pl_run *run, const struct pl_revision *r, struct pl_error *err)
{
	int id = pl_cond_lookup(r->field);

	if (id != PL_C_NONE)
		return pl_run_set_cond(run, id, r->old_value, err);
	if ((id = pl_build_lookup(r->field)) >= 0) {
		free(run->build[id]);
		run->build[id] = NULL;
		return r->old_value ? pl_run_set_build(run, id, r->old_value, err) : 0;
	}
	if ((id = pl_metric_lookup(r->field)) != PL_M_NONE) {
		char *end;
		double v = r->old_value ? strtod(r->old_value, &end) : 0;
		if (!r->old_value) {
			run->has_metric[id] = 0;
			run->metric[id] = 0;
		} else {
			pl_run_set_metric(run, id, v);
		}
		return 0;
	}
	if (strchr(r->field, '.'))
		return pl_run_set_extra(run, r->field, r->old_value, err);
	return 0;
}

/* 1 if run was retracted at time at (a retraction at or before it not
 * restored by then). */
static int retracted_at(const struct pl_run *run, const char *at)
{
	const struct pl_retraction_list *l;

	if (!run->carried)
		return 0;
	l = &run->carried->retractions;
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].retracted_at, at) <= 0 &&
		    (!l->v[i].restored_at || strcmp(l->v[i].restored_at, at) > 0))
			return 1;
	return 0;
}

/* Winds run back to time at: its revisions made after it undone (the
 * newest first) and dropped from its trail, restores and retractions
 * after it dropped. */
static int wind_back(struct pl_run *run, const char *at, struct pl_error *err)
{
	struct pl_revision_list *rv;
	struct pl_retraction_list *rt;
	int rc = 0, top = 1;
	size_t keep = 0;

	if (!run->carried)
		return 0;
	rv = &run->carried->revisions;
	for (size_t i = rv->n; i-- > 0 && rc == 0;)
		if (strcmp(rv->v[i].changed_at, at) > 0)
			rc = undo_change(run, &rv->v[i], err);
	if (rc)
		return rc;
	for (size_t i = 0; i < rv->n; i++) {
		if (strcmp(rv->v[i].changed_at, at) > 0) {
			pl_revision_free(&rv->v[i]);
			continue;
		}
		if (rv->v[i].revision > top)
			top = rv->v[i].revision;
		rv->v[keep++] = rv->v[i];
	}
	rv->n = keep;
	run->revision = top;
	rt = &run->carried->retractions;
	keep = 0;
	for (size_t i = 0; i < rt->n; i++) {
		struct pl_retraction *r = &rt->v[i];
		if (strcmp(r->retracted_at, at) > 0) {
			pl_retraction_free(r);
			continue;
		}
		if (r->restored_at && strcmp(r->restored_at, at) > 0) {
			free(r->restored_at);
			free(r->restore_reason);
			free(r->restored_by);
			r->restored_at = r->restore_reason = r->restored_by = NULL;
		}
		rt->v[keep++] = *r;
	}
	rt->n = keep;
	pl_run_update_checklist(run);
	return 0;
}

int pl_bundle_runs_as_of(struct pl_run_list *runs, const char *at, struct pl_error *err)
{
	size_t keep = 0;
	int rc = 0;

	for (size_t i = 0; i < runs->n; i++) {
		struct pl_run *r = &runs->v[i];
		int drop = rc != 0 || (r->imported_at && strcmp(r->imported_at, at) > 0);
		if (!drop) {
			r->retracted = retracted_at(r, at);
			rc = wind_back(r, at, err);
		}
		if (drop || rc) {
			pl_run_release(r);
			continue;
		}
		if (keep != i)
			runs->v[keep] = *r; /* moved: the source slot is not released again */
		keep++;
	}
	runs->n = keep;
	return rc;
}

static void later(const char *t, char *buf, size_t n)
{
	if (t && strcmp(t, buf) > 0)
		snprintf(buf, n, "%s", t);
}

void pl_bundle_latest(const struct pl_run_list *runs, char *buf, size_t n)
{
	buf[0] = '\0';
	for (size_t i = 0; i < runs->n; i++) {
		const struct pl_run *r = &runs->v[i];
		later(r->imported_at, buf, n);
		if (!r->carried)
			continue;
		for (size_t k = 0; k < r->carried->revisions.n; k++)
			later(r->carried->revisions.v[k].changed_at, buf, n);
		for (size_t k = 0; k < r->carried->retractions.n; k++) {
			later(r->carried->retractions.v[k].retracted_at, buf, n);
			later(r->carried->retractions.v[k].restored_at, buf, n);
		}
	}
}

/* --------------------------------------------------------------- errata */

static int push_event(struct pl_bundle_erratum **v, size_t *n, size_t *cap,
                      const struct pl_bundle_erratum *e)
{
	if (PL_ALLOC_GROW(*v, *n + 1, *cap))
		return PL_ENOMEM;
	(*v)[(*n)++] = *e;
	return 0;
}

static int erratum_cmp(const void *a, const void *b)
{
	const struct pl_bundle_erratum *x = a, *y = b;
	int c = strcmp(x->at, y->at);

	if (c)
		return c;
	if ((c = strcmp(x->run->sha256, y->run->sha256)))
		return c;
	if (x->run->record != y->run->record)
		return x->run->record < y->run->record ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

int pl_bundle_errata(const struct pl_run_list *runs, const char *since, const char *until,
                     struct pl_bundle_erratum **out, size_t *nout, struct pl_error *err)
{
	size_t n = 0, cap = 0;
	struct pl_bundle_erratum *v = NULL;
	int rc = 0;

#define IN_SPAN(t) ((t) && strcmp((t), since) > 0 && (!until || strcmp((t), until) <= 0))
	for (size_t i = 0; i < runs->n && !rc; i++) {
		const struct pl_run *r = &runs->v[i];
		struct pl_bundle_erratum e;
		if (IN_SPAN(r->imported_at)) {
			memset(&e, 0, sizeof(e));
			e.kind = PL_ERRATUM_ADDED;
			e.run = r;
			e.at = r->imported_at;
			rc = push_event(&v, &n, &cap, &e);
			continue; /* its amends are part of what was added */
		}
		if (!r->carried)
			continue;
		for (size_t k = 0; k < r->carried->revisions.n && !rc; k++) {
			const struct pl_revision *rev = &r->carried->revisions.v[k];
			if (!IN_SPAN(rev->changed_at))
				continue;
			memset(&e, 0, sizeof(e));
			e.kind = PL_ERRATUM_AMENDED;
			e.run = r;
			e.at = rev->changed_at;
			e.rev = rev;
			e.seq = (long)k;
			rc = push_event(&v, &n, &cap, &e);
		}
		for (size_t k = 0; k < r->carried->retractions.n && !rc; k++) {
			const struct pl_retraction *ret = &r->carried->retractions.v[k];
			if (IN_SPAN(ret->retracted_at)) {
				memset(&e, 0, sizeof(e));
				e.kind = PL_ERRATUM_RETRACTED;
				e.run = r;
				e.at = ret->retracted_at;
				e.ret = ret;
				e.seq = (long)k;
				rc = push_event(&v, &n, &cap, &e);
			}
			if (!rc && IN_SPAN(ret->restored_at)) {
				memset(&e, 0, sizeof(e));
				e.kind = PL_ERRATUM_RESTORED;
				e.run = r;
				e.at = ret->restored_at;
				e.ret = ret;
				e.seq = (long)k;
				rc = push_event(&v, &n, &cap, &e);
			}
		}
	}
#undef IN_SPAN
	if (rc) {
		free(v);
		*out = NULL;
		*nout = 0;
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), erratum_cmp);
	*out = v;
	*nout = n;
	return 0;
}
