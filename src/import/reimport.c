/*
 * reimport.c — `perfledger reimport`: stored runs re-derived from their
 * kept source bytes (migration 010) with today's adapters.
 *
 * For each source file that holds a selected run (in the order of its first
 * run), the bytes are read back and checked against their sha256, parsed
 * by the adapter that read them first, and readied as an import readies
 * them (pl_import_prepare: normalized, validated; no sidecar, no --set).
 * Each stored run is then compared with the run of the same record:
 *
 *  - a condition or extra condition the file gives now and the stored run
 *    lacks is added (an adapter that learnt a field);
 *  - a condition the stored run has is kept, even where the file says
 *    otherwise: it may come from a sidecar, --set or amend, which the
 *    bytes do not hold, and a reimport never undoes a person's correction;
 *  - a metric the file gives now that is missing or has another value is
 *    set to the new value; a stored metric the file no longer gives stays.
 *
 * What changes becomes a new revision of the run (conditions through
 * pl_store_amend, metrics through pl_store_revise_metrics, one revision
 * for both), with the reason the caller gives ("reimport with perfledger
 * X.Y"). Each file is one transaction: a reimport killed half way leaves
 * every file whole, and running it again finds the files done unchanged.
 * Runs whose bytes were imported before migration 010, or that came from
 * a ledger export or merge of such runs, have no bytes: they are counted
 * and left as they are.
 */
#include "import/import.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/adapters.h"
#include "core/ledger.h"
#include "import/import_impl.h"

/* ------------------------------------------- the set of source files */

/* Distinct sha256 values in order of first sight: an array and an
 * open-addressing index into it. */
struct sha_set {
	char (*v)[65];  /* the values, in order */
	size_t n, cap;  /* in use, allocated */
	size_t *slot;   /* index + 1 into v, 0 empty; nslot a power of two */
	size_t nslot;
};

static unsigned long long sha_hash(const char *sha)
{
	unsigned long long h = 0;

	for (int i = 0; i < 16; i++)
		h = h * 16 + (unsigned long long)(sha[i] <= '9' ? sha[i] - '0' : sha[i] - 'a' + 10);
	return h;
}

static int sha_grow(struct sha_set *s)
{
	size_t nslot = s->nslot ? s->nslot * 2 : 1024;
	size_t *slot = calloc(nslot, sizeof(*slot));

	if (!slot)
		return PL_ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		size_t k = (size_t)sha_hash(s->v[i]) & (nslot - 1);
		while (slot[k])
			k = (k + 1) & (nslot - 1);
		slot[k] = i + 1;
	}
	free(s->slot);
	s->slot = slot;
	s->nslot = nslot;
	return 0;
}

static int sha_add(struct sha_set *s, const char *sha)
{
	size_t k;

	if ((s->n + 1) * 2 > s->nslot && sha_grow(s))
		return PL_ENOMEM;
	k = (size_t)sha_hash(sha) & (s->nslot - 1);
	while (s->slot[k]) {
		if (memcmp(s->v[s->slot[k] - 1], sha, 65) == 0)
			return 0;
		k = (k + 1) & (s->nslot - 1);
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		char(*v)[65] = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return PL_ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	memcpy(s->v[s->n], sha, 65);
	s->slot[k] = ++s->n;
	return 0;
}

static int collect(void *ctx, const struct pl_run *run, struct pl_error *err)
{
	if (run->sha256[0] && sha_add(ctx, run->sha256))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	return 0;
}

/* --------------------------------------------------------- one stored run */

/* 1 when two stored metric values are the same (NaN equals NaN). */
static int same_number(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* A change made in the open transaction, reported once it is committed. */
struct pending {
	long long id;                     /* the run */
	int revision;                     /* the revision made */
	struct pl_amend_change *changes;  /* owned: fields and texts */
	size_t n;                         /* entries */
};

struct pending_list {
	struct pending *v; /* entries; owned */
	size_t n, cap;     /* in use, allocated */
};

static void pending_release(struct pending_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		for (size_t k = 0; k < l->v[i].n; k++) {
			free(l->v[i].changes[k].field);
			free(l->v[i].changes[k].old_value);
			free(l->v[i].changes[k].new_value);
		}
		free(l->v[i].changes);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Keeps the report of one changed run: its condition changes cond[0..ncond)
 * and its metric changes. Returns 0 or PL_ENOMEM. */
static int keep_report(struct pending_list *l, long long id, int revision,
                       const struct pl_amend_change *cond, size_t ncond, const int *metric,
                       const double *oldv, const unsigned char *had, const double *newv,
                       size_t nmetric)
{
	struct pending *p;
	char num[40];

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct pending *v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return PL_ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	p = &l->v[l->n];
	memset(p, 0, sizeof(*p));
	if (!(p->changes = calloc(ncond + nmetric + 1, sizeof(*p->changes))))
		return PL_ENOMEM;
	l->n++;
	p->id = id;
	p->revision = revision;
	for (size_t i = 0; i < ncond; i++, p->n++)
		if (!(p->changes[i].field = strdup(cond[i].field)) ||
		    (cond[i].old_value && !(p->changes[i].old_value = strdup(cond[i].old_value))) ||
		    (cond[i].new_value && !(p->changes[i].new_value = strdup(cond[i].new_value))))
			return PL_ENOMEM;
	for (size_t i = 0; i < nmetric; i++, p->n++) {
		struct pl_amend_change *c = &p->changes[ncond + i];
		if (!(c->field = strdup(pl_metric_info[metric[i]].name)) ||
		    (had[i] && !(c->old_value = dup_or_null(pl_fmt_num(num, sizeof(num), oldv[i])))) ||
		    !(c->new_value = dup_or_null(pl_fmt_num(num, sizeof(num), newv[i]))))
			return PL_ENOMEM;
	}
	return 0;
}

/* Re-derives stored run s from now (the file's run of the same record).
 * *changed is set to 1 when a revision was made. */
static int redo_run(struct pl_store *st, const struct pl_reimport_opts *o,
                    struct pending_list *reports, const struct pl_run *stored,
                    const struct pl_run *now, int *changed, struct pl_error *err)
{
	struct pl_amend_set *sets = NULL;
	struct pl_amend_result res;
	struct pl_run cand; /* the stored run with its new metrics */
	const struct pl_run *s = stored;
	size_t nsets = 0, nmetric = 0;
	int metric[PL_METRIC_COUNT];
	double newv[PL_METRIC_COUNT], oldv[PL_METRIC_COUNT];
	unsigned char had[PL_METRIC_COUNT];
	int revision = 0, rc = 0;

	memset(&res, 0, sizeof(res));
	pl_run_init(&cand);
	*changed = 0;
	if (!(sets = calloc((size_t)PL_COND_COUNT + now->nextra + 1, sizeof(*sets))))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (int id = 0; id < PL_COND_COUNT; id++)
		if (!s->cond[id].set && now->cond[id].set) {
			sets[nsets].field = pl_cond_info[id].name;
			sets[nsets++].value = now->cond[id].text;
		}
	for (size_t i = 0; i < now->nextra; i++)
		if (!pl_run_extra(s, now->extra[i].name)) {
			sets[nsets].field = now->extra[i].name;
			sets[nsets++].value = now->extra[i].value;
		}
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		if (now->has_metric[m] && (!s->has_metric[m] || !same_number(s->metric[m], now->metric[m]))) {
			metric[nmetric] = m;
			had[nmetric] = s->has_metric[m];
			oldv[nmetric] = s->metric[m];
			newv[nmetric++] = now->metric[m];
		}
	if (nsets > 0) {
		long long shared = 0, first = 0;

		/* the conditions are validated with the new metrics (an old value
		 * may be what the adapter got wrong) */
		if (pl_run_copy(&cand, s)) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			goto out;
		}
		for (size_t i = 0; i < nmetric; i++)
			pl_run_set_metric(&cand, metric[i], newv[i]);
		if ((rc = pl_ledger_amend_run(&cand, sets, nsets, &res, err)))
			goto out;
		if (res.nchanges > 0) {
			res.run.id = s->id;
			if ((rc = pl_store_amend(st, &res.run, res.changes, res.nchanges, o->when, o->reason,
			                         o->author, &revision, &shared, &first, err)))
				goto out;
		}
	}
	if (nmetric > 0) {
		if (revision == 0) {
			struct pl_run cur;
			int found = 0;

			pl_run_init(&cur);
			rc = pl_store_get_run(st, s->id, &cur, &found, err);
			revision = (found && cur.revision > 0 ? cur.revision : 1) + 1;
			pl_run_release(&cur);
			if (rc)
				goto out;
		}
		if ((rc = pl_store_revise_metrics(st, s->id, revision, metric, newv, nmetric, o->when,
		                                  o->reason, o->author, err)))
			goto out;
	}
	if (revision > 0) {
		*changed = 1;
		if (o->on_run && keep_report(reports, s->id, revision, res.changes, res.nchanges, metric,
		                             oldv, had, newv, nmetric))
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	}
out:
	pl_run_release(&cand);
	pl_ledger_amend_release(&res);
	free(sets);
	return rc;
}

/* ------------------------------------------------------------ one file */

/* Re-derives the runs of the source file sha. Returns 0 (the file was
 * done, or could not be: stats and the callback say which), or a fatal
 * PL_EDB / PL_ENOMEM. */
static int redo_file(struct pl_store *st, const struct pl_reimport_opts *o, const char *sha,
                     struct pl_reimport_stats *stats, struct pl_error *err)
{
	struct pl_import_opts io;
	struct pending_list reports = {0};
	struct pl_run_list stored, now;
	struct pl_error ferr;
	char *buf = NULL, *warnings = NULL;
	const char *path;
	size_t len = 0, refonly = 0, nchanged = 0;
	int rc;

	memset(&io, 0, sizeof(io));
	pl_run_list_init(&stored);
	pl_run_list_init(&now);
	pl_error_init(&ferr);
	if ((rc = pl_store_query_source(st, sha, &stored, err)) || stored.n == 0)
		goto out;
	path = stored.v[0].source ? stored.v[0].source : "-";
	stats->runs += stored.n;
	rc = pl_store_read_source(st, sha, &buf, &len, &ferr);
	if (rc == PL_EEMPTY) {
		stats->no_bytes++;
		rc = 0;
		goto out;
	}
	if (rc) {
		if (rc == PL_EDB || rc == PL_ENOMEM) {
			*err = ferr;
			goto out;
		}
		goto failed; /* damaged bytes */
	}
	io.format = stored.v[0].adapter;
	if ((rc = pl_adapters_parse(path, buf, len, io.format, &now, &ferr)) ||
	    (rc = pl_import_prepare(&io, path, sha, NULL, NULL, 0, &now, 0, 0, &refonly, &warnings,
	                            &ferr)))
		goto failed;
	if ((rc = pl_store_begin(st, err)))
		goto out;
	for (size_t i = 0; i < stored.n && !rc; i++) {
		const struct pl_run *s = &stored.v[i], *r = NULL;
		int changed = 0;

		for (size_t k = 0; k < now.n && !r; k++)
			if (now.v[k].record == s->record)
				r = &now.v[k];
		if (!r) { /* the file no longer yields this record: kept as it is */
			stats->vanished++;
			continue;
		}
		rc = redo_run(st, o, &reports, s, r, &changed, &ferr);
		nchanged += (size_t)changed;
	}
	if (rc) {
		pl_store_rollback(st, NULL);
		if (rc == PL_EDB || rc == PL_ENOMEM) {
			*err = ferr;
			goto out;
		}
		goto failed;
	}
	if ((rc = pl_store_commit(st, err)))
		goto out;
	stats->files++;
	stats->changed += nchanged;
	for (size_t i = 0; i < reports.n; i++)
		o->on_run(o->ctx, path, reports.v[i].id, reports.v[i].revision, reports.v[i].changes,
		          reports.v[i].n);
	goto out;
failed:
	/* this file's fault (its bytes no longer parse, or a value no longer
	 * validates): nothing of it changed; the others go on */
	stats->failed++;
	if (!ferr.file[0])
		pl_error_at(&ferr, path, ferr.line, ferr.column);
	if (o->on_failure)
		o->on_failure(o->ctx, path, &ferr);
	rc = 0;
out:
	pending_release(&reports);
	free(buf);
	free(warnings);
	pl_run_list_release(&stored);
	pl_run_list_release(&now);
	return rc;
}

int pl_reimport(struct pl_store *st, const struct pl_reimport_opts *o,
                struct pl_reimport_stats *stats, struct pl_error *err)
{
	struct sha_set set;
	int rc;

	memset(stats, 0, sizeof(*stats));
	memset(&set, 0, sizeof(set));
	pl_store_set_retracted_mode(st, PL_RETRACTED_ALL);
	rc = pl_store_each_run(st, o->filters, o->nfilters, collect, &set, err);
	for (size_t i = 0; i < set.n && !rc; i++)
		rc = redo_file(st, o, set.v[i], stats, err);
	free(set.v);
	free(set.slot);
	return rc;
}
