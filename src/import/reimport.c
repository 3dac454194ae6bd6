/*
 * reimport.c — `perfledger reimport`: stored runs re-derived from their
 * kept source bytes (migration 010) with today's adapters.
 *
 * For each source file that holds a selected run (in the order of its first
 * run), the bytes are read back and checked against their sha256, parsed
 * by the adapter that read them first, given the stored run's conditions
 * where the bytes lack them (those of a sidecar, --set or amend), and
 * readied as an import readies them (pl_import_prepare: normalized,
 * validated).
 * Each stored run is then compared with the run of the same record:
 *
 *  - a condition or extra condition the file gives now and the stored run
 *    lacks is added (an adapter that learnt a field);
 *  - a condition the stored run has is kept, even where the file says
 *    otherwise: it may come from a sidecar, --set or amend, which the
 *    bytes do not hold, and a reimport never undoes a person's correction;
 *  - a metric the file gives now that is missing or has another value is
 *    set to the new value; a stored metric the file no longer gives stays;
 *  - an extra condition the file now gives as an unplaced measurement (the
 *    rule of schema/formats.md classifies it so) leaves the condition key
 *    and is kept as that measurement, a revision of its own with the
 *    reason "<reason>: classified as a measurement" (the old value stays in
 *    the trail: nothing is lost); a measurement the file gives that the
 *    stored run lacks is stored.
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

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/adapters.h"
#include "core/hash.h"
#include "core/hexset.h"
#include "core/amend.h"
#include "import/import_impl.h"
#include "store/requests.h"
#include "util/alloc.h"

static int collect(void *ctx, const struct pl_run *run, struct pl_error *err)
{
	if (run->sha256[0] && pl_hexset_add(ctx, run->sha256))
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

	if (PL_ALLOC_GROW(l->v, l->n + 1, l->cap))
		return PL_ENOMEM;
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

/* 1 when the extra condition name of stored run s is, in the file's run
 * now, no condition any more: the file gives it as an unplaced
 * measurement, or it is "<adapter>.<key>" of the run's own adapter and
 * that adapter's inventory now maps key (to a metric such as
 * spec_acceptance_rate, or to a named condition) — an older perfledger
 * kept it as an extra condition. An extra the file still gives, or one
 * from a sidecar, --set or amend (no such key in the inventory), stays. */
static int now_measured(const struct pl_run *s, const struct pl_run *now, const char *name)
{
	size_t n;

	if (pl_run_extra(now, name))
		return 0;
	if (pl_run_measure(now, name))
		return 1;
	if (!s->adapter || !now->adapter || strcmp(s->adapter, now->adapter) != 0)
		return 0;
	n = strlen(s->adapter);
	return strncmp(name, s->adapter, n) == 0 && name[n] == '.' &&
	       pl_inventory_maps(now->adapter, now->format_version, name + n + 1);
}

/* 1 when the unplaced measurement name of stored run s is, in the file's
 * run now, no measurement any more because the run's own adapter now
 * places its key as metrics (vLLM's per-position acceptance rates, which
 * an older perfledger kept whole as a measurement). */
static int now_placed(const struct pl_run *s, const struct pl_run *now, const char *name)
{
	size_t n;

	if (pl_run_measure(now, name) || !s->adapter || !now->adapter ||
	    strcmp(s->adapter, now->adapter) != 0)
		return 0;
	n = strlen(s->adapter);
	return strncmp(name, s->adapter, n) == 0 && name[n] == '.' &&
	       pl_inventory_maps(now->adapter, now->format_version, name + n + 1);
}

/* The next revision of stored run id: 1 + its latest. */
static int next_revision(struct pl_store *st, long long id, int *revision, struct pl_error *err)
{
	struct pl_run cur;
	int found = 0, rc;

	pl_run_init(&cur);
	rc = pl_store_get_run(st, id, &cur, &found, err);
	*revision = (found && cur.revision > 0 ? cur.revision : 1) + 1;
	pl_run_release(&cur);
	return rc;
}

/* The unplaced measurements of stored run s that the file's run now
 * places as metrics leave the run, and the metrics the run lacks that
 * now gives (metric[0..*n), had, newv) are set, together one revision with
 * the reason "<reason>: placed as metrics" (or, when that sets no metric,
 * as for trtllm-bench's decoding_stats.mode, now a condition that the
 * amend after this sets: "<reason>: mapped by its format's inventory
 * now"); those metrics are taken out of
 * the list (*n shrinks) so that the later revision holds only the rest.
 * metric[*n .. *n + *nplaced_metrics) are then the placed ones (for the
 * report). *placed_rev gets the revision made, 0 if none. */
static int place_measures(struct pl_store *st, const struct pl_reimport_opts *o,
                          const struct pl_run *s, const struct pl_run *now, int *metric,
                          unsigned char *had, double *oldv, double *newv, size_t *n,
                          size_t *nplaced_metrics, int *placed_rev, struct pl_error *err)
{
	int pm[PL_METRIC_COUNT];
	double pv[PL_METRIC_COUNT];
	size_t np = 0, keep = 0, nplaced = 0, nmissing = 0;
	char why[300];
	int rc = 0;

	*placed_rev = 0;
	*nplaced_metrics = 0;
	for (size_t i = 0; i < s->nmeasure; i++)
		nplaced += now_placed(s, now, s->measure[i].name);
	if (!nplaced)
		return 0;
	for (size_t i = 0; i < *n; i++)
		nmissing += !had[i];
	/* no metric to set: the key is now a condition (set by the amend after
	 * this) or otherwise mapped, never silently dropped */
	snprintf(why, sizeof(why), "%.260s: %s", o->reason ? o->reason : "reimport",
	         nmissing ? "placed as metrics" : "mapped by its format's inventory now");
	if ((rc = next_revision(st, s->id, placed_rev, err)))
		return rc;
	for (size_t i = 0; i < s->nmeasure && !rc; i++)
		if (now_placed(s, now, s->measure[i].name))
			rc = pl_store_place_measure(st, s->id, s->measure[i].name, *placed_rev, o->when, why,
			                            o->author, err);
	for (size_t i = 0; i < *n; i++) {
		if (!had[i]) {
			pm[np] = metric[i];
			pv[np++] = newv[i];
			continue;
		}
		metric[keep] = metric[i];
		had[keep] = had[i];
		oldv[keep] = oldv[i];
		newv[keep++] = newv[i];
	}
	if (!rc && np)
		rc = pl_store_revise_metrics(st, s->id, *placed_rev, pm, pv, np, o->when, why, o->author,
		                             err);
	/* the placed metrics back at the end of the list, for the report */
	for (size_t i = 0; i < np; i++) {
		metric[keep + i] = pm[i];
		had[keep + i] = 0;
		oldv[keep + i] = NAN;
		newv[keep + i] = pv[i];
	}
	*n = keep;
	*nplaced_metrics = np;
	return rc;
}

/* Keeps the report of stored run s's revision: the condition changes of
 * parts[0] (extras moved out) and parts[1] (the amend), each measurement
 * the inventory now places (placed_rev > 0: it left the run) and the
 * metric changes (metric..newv, n entries). Returns 0 or PL_ENOMEM. */
static int report_run(struct pending_list *reports, const struct pl_run *s, const struct pl_run *now,
                      int revision, int placed_rev, const struct pl_amend_result *const parts[2],
                      const int *metric, const double *oldv, const unsigned char *had,
                      const double *newv, size_t n)
{
	struct pl_amend_change *all = NULL;
	char (*nums)[32] = NULL; /* the texts of placed numbers */
	size_t nall = parts[0]->nchanges + parts[1]->nchanges, k = 0;
	int rc;

	for (size_t i = 0; placed_rev && i < s->nmeasure; i++)
		nall += now_placed(s, now, s->measure[i].name);
	if (nall && (!(all = calloc(nall, sizeof(*all))) ||
	             !(nums = calloc(s->nmeasure ? s->nmeasure : 1, sizeof(*nums))))) {
		free(all);
		return PL_ENOMEM;
	}
	for (size_t p = 0; p < 2; p++)
		for (size_t i = 0; i < parts[p]->nchanges; i++)
			all[k++] = parts[p]->changes[i];
	for (size_t i = 0; placed_rev && i < s->nmeasure; i++) {
		const struct pl_measure *m = &s->measure[i];

		if (!now_placed(s, now, m->name))
			continue;
		all[k].field = m->name; /* borrowed: keep_report copies */
		all[k++].old_value = m->is_num ? pl_fmt_num(nums[i], sizeof(nums[i]), m->num) : m->json;
	}
	rc = keep_report(reports, s->id, revision, all, nall, metric, oldv, had, newv, n);
	free(all);
	free(nums);
	return rc;
}

/* Writes the measurements and requests that now (the file's run) carries
 * and stored run s lacks. */
static int write_lacking(struct pl_store *st, const struct pl_run *s, const struct pl_run *now,
                         struct pl_error *err)
{
	struct pl_run newm; /* measurements the stored run lacks */
	int rc = 0;

	pl_run_init(&newm);
	for (size_t i = 0; i < now->nmeasure && !rc; i++) {
		const struct pl_measure *m = &now->measure[i];
		if (!pl_run_measure(s, m->name) &&
		    pl_run_set_measure(&newm, m->name, m->num, m->json, NULL))
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (!rc && newm.nmeasure)
		rc = pl_store_write_measures(st, s->id, &newm, err);
	if (!rc && now->requests) {
		/* requests the file carries and the stored run lacks (stored
		 * before perfledger kept them): derived from the kept bytes */
		struct pl_request_counts have;
		if (!(rc = pl_store_request_counts(st, s->id, &have, err)) && !have.found)
			rc = pl_store_write_requests(st, s->id, now->requests, err);
	}
	pl_run_release(&newm);
	return rc;
}

/* Moves the extras of stored run s that now are measurements, as a
 * revision of their own: *moved gets the amend (its run is s moved when
 * moved->nchanges > 0) and *revision the revision made. Caller releases
 * *moved with pl_ledger_amend_release(). */
static int move_measured(struct pl_store *st, const struct pl_reimport_opts *o,
                         const struct pl_run *s, const struct pl_run *now,
                         struct pl_amend_result *moved, int *revision, struct pl_error *err)
{
	struct pl_amend_set *mv;
	char *why = NULL;
	size_t nmove = 0, k = 0, wl = strlen(o->reason ? o->reason : "") + 40;
	long long shared = 0, first = 0;
	int rc;

	for (size_t i = 0; i < s->nextra; i++)
		if (now_measured(s, now, s->extra[i].name))
			nmove++;
	if (nmove == 0)
		return 0;
	if (!(mv = calloc(nmove, sizeof(*mv))) || !(why = malloc(wl))) {
		free(mv);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	snprintf(why, wl, "%s: classified as a measurement", o->reason ? o->reason : "reimport");
	for (size_t i = 0; i < s->nextra; i++)
		if (now_measured(s, now, s->extra[i].name)) {
			mv[k].field = s->extra[i].name;
			mv[k++].value = NULL;
		}
	rc = pl_ledger_amend_run(s, mv, k, moved, err);
	if (!rc && moved->nchanges > 0) {
		moved->run.id = s->id;
		rc = pl_store_amend(st, &moved->run, moved->changes, moved->nchanges, o->when, why,
		                    o->author, revision, &shared, &first, err);
	}
	free(mv);
	free(why);
	return rc;
}

/* Fills sets with the conditions and extras now (the file's run) has and
 * stored run s lacks; returns how many. */
static size_t lacking_sets(const struct pl_run *s, const struct pl_run *now,
                           struct pl_amend_set *sets)
{
	size_t nsets = 0;

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
	return nsets;
}

/* Re-derives stored run s from now (the file's run of the same record).
 * *changed is set to 1 when a revision was made. */
static int redo_run(struct pl_store *st, const struct pl_reimport_opts *o,
                    struct pending_list *reports, const struct pl_run *stored,
                    const struct pl_run *now, int *changed, struct pl_error *err)
{
	struct pl_amend_set *sets = NULL;
	struct pl_amend_result res, moved; /* the amend of the conditions; the move */
	struct pl_run cand; /* the stored run with its new metrics */
	const struct pl_run *s = stored;
	size_t nsets = 0, nmetric = 0, nplaced = 0;
	int placed_rev = 0; /* the revision placing measurements as metrics */
	int metric[PL_METRIC_COUNT];
	double newv[PL_METRIC_COUNT], oldv[PL_METRIC_COUNT];
	unsigned char had[PL_METRIC_COUNT];
	int revision = 0, rc = 0;

	memset(&res, 0, sizeof(res));
	memset(&moved, 0, sizeof(moved));
	pl_run_init(&cand);
	*changed = 0;
	if ((rc = write_lacking(st, s, now, err)))
		goto out;
	/* extras that the rule now classifies as measurements: moved first, as
	 * a revision of their own */
	if ((rc = move_measured(st, o, s, now, &moved, &revision, err)))
		goto out;
	if (moved.nchanges > 0)
		s = &moved.run; /* what follows starts from the moved run */
	if (!(sets = calloc((size_t)PL_COND_COUNT + now->nextra + 1, sizeof(*sets)))) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	nsets = lacking_sets(s, now, sets);
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		if (now->has_metric[m] && (!s->has_metric[m] || !same_number(s->metric[m], now->metric[m]))) {
			metric[nmetric] = m;
			had[nmetric] = s->has_metric[m];
			oldv[nmetric] = s->metric[m];
			newv[nmetric++] = now->metric[m];
		}
	if ((rc = place_measures(st, o, s, now, metric, had, oldv, newv, &nmetric, &nplaced, &placed_rev,
	                         err)))
		goto out;
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
		if (revision == 0 && (rc = next_revision(st, s->id, &revision, err)))
			goto out;
		if ((rc = pl_store_revise_metrics(st, s->id, revision, metric, newv, nmetric, o->when,
		                                  o->reason, o->author, err)))
			goto out;
	}
	if (revision == 0)
		revision = placed_rev;
	if (revision > 0) {
		const struct pl_amend_result *parts[2] = {&moved, &res};

		*changed = 1;
		if (o->on_run && reports &&
		    report_run(reports, s, now, revision, placed_rev, parts, metric, oldv, had, newv,
		               nmetric + nplaced))
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	}
out:
	pl_run_release(&cand);
	pl_ledger_amend_release(&res);
	pl_ledger_amend_release(&moved);
	free(sets);
	return rc;
}

/* ------------------------------------------------------------ one file */

/* Reports held for one file at most: a file whose every run changed says
 * the first ones by name and counts the rest (stats->unreported). */
#define REPORTS_MAX 1000

/* Records of a streamed file re-derived at a time. */
#define WINDOW_RUNS 1024

/* What one file's re-derivation has done so far. */
struct file_state {
	const struct pl_reimport_opts *o; /* options */
	struct pl_reimport_stats *stats;  /* totals */
	struct pl_store *st;              /* the ledger */
	const char *sha, *path;           /* the file */
	struct pl_import_opts io;         /* format = the stored adapter */
	struct pending_list reports;      /* changes to report after the commit */
	size_t changed, unreported;       /* runs changed; of them not in reports */
	size_t runs, vanished;            /* stored runs seen; of them without a record now */
};

static int by_record(const void *a, const void *b)
{
	const struct pl_run *x = *(const struct pl_run *const *)a, *y = *(const struct pl_run *const *)b;

	if (x->record != y->record)
		return x->record < y->record ? -1 : 1;
	return x < y ? -1 : x > y; /* the file's order among runs of one record */
}

/* Re-derives each stored run (in record order) from the first of now's
 * runs of the same record. Returns 0 or the first error (in ferr). */
static int redo_pairs(struct file_state *f, const struct pl_run_list *stored,
                      const struct pl_run_list *now, struct pl_error *ferr)
{
	const struct pl_run **v = NULL;
	size_t k = 0;
	int rc = 0;

	if (now->n && !(v = malloc(now->n * sizeof(*v))))
		return pl_error_set(ferr, PL_ENOMEM, "out of memory");
	for (size_t i = 0; i < now->n; i++)
		v[i] = &now->v[i];
	if (now->n)
		qsort(v, now->n, sizeof(*v), by_record);
	for (size_t i = 0; i < stored->n && !rc; i++) {
		const struct pl_run *s = &stored->v[i];
		int changed = 0, full;

		f->runs++;
		while (k < now->n && v[k]->record < s->record)
			k++;
		if (k >= now->n || v[k]->record != s->record) {
			f->vanished++; /* the file no longer yields this record: kept as it is */
			continue;
		}
		if (v[k]->reject) { /* the record no longer validates: the file fails whole */
			*ferr = *v[k]->reject;
			rc = ferr->code ? ferr->code : PL_EINVALID;
			break;
		}
		full = f->reports.n >= REPORTS_MAX;
		rc = redo_run(f->st, f->o, full ? NULL : &f->reports, s, v[k], &changed, ferr);
		f->changed += (size_t)changed;
		if (changed && full)
			f->unreported++;
	}
	free(v);
	return rc;
}

/* The index of the first run of stored (ordered by record) whose record
 * is record, or stored->n when none is. */
static size_t first_of_record(const struct pl_run_list *stored, long record)
{
	size_t lo = 0, hi = stored->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (stored->v[mid].record < record)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < stored->n && stored->v[lo].record == record ? lo : stored->n;
}

/* Gives each of now's runs the conditions its bytes lack from the stored
 * run of the same record (stored ordered by record): a condition that came
 * from a sidecar, --set or amend is a stored condition, and without it a
 * run of bytes that do not name, say, the engine would no longer validate.
 * Returns 0, or PL_ENOMEM / PL_EINVALID from pl_run_set_cond (err set). */
static int fill_from_stored(struct pl_run_list *now, const struct pl_run_list *stored,
                            struct pl_error *err)
{
	for (size_t i = 0; i < now->n; i++) {
		struct pl_run *r = &now->v[i];
		size_t lo = first_of_record(stored, r->record);

		if (lo >= stored->n)
			continue;
		for (int id = 0; id < PL_COND_COUNT; id++) {
			int rc;
			if (r->cond[id].set || !stored->v[lo].cond[id].set)
				continue;
			if ((rc = pl_run_set_cond(r, id, stored->v[lo].cond[id].text, err)))
				return rc;
		}
	}
	return 0;
}

/* Gives each of now's runs that its bytes give no requests (AIPerf's and
 * llmperf's come from a records file beside the summary, whose bytes are
 * not kept) the requests stored with the run of the same record, so that
 * its latencies are derived from them again (pl_requests_derive) and not
 * turned back into the tool's summary. Returns 0, or the store's error. */
static int fill_requests(struct pl_store *st, struct pl_run_list *now,
                         const struct pl_run_list *stored, struct pl_error *err)
{
	for (size_t i = 0; i < now->n; i++) {
		struct pl_run *r = &now->v[i];
		size_t j;
		int rc;

		if (r->requests || (j = first_of_record(stored, r->record)) >= stored->n)
			continue;
		if ((rc = pl_store_read_requests(st, stored->v[j].id, &r->requests, err)))
			return rc;
	}
	return 0;
}

/* The whole file at once (a file the import read whole). */
static int redo_whole(struct file_state *f, struct pl_error *ferr)
{
	struct pl_run_list stored, now;
	char *buf = NULL, *warnings = NULL;
	size_t len = 0, refonly = 0;
	int rc;

	pl_run_list_init(&stored);
	pl_run_list_init(&now);
	if (!(rc = pl_store_read_source(f->st, f->sha, &buf, &len, ferr)) &&
	    !(rc = pl_adapters_parse(f->path, buf, len, f->io.format, &now, ferr)) &&
	    !(rc = pl_store_query_source(f->st, f->sha, &stored, ferr)) &&
	    !(rc = fill_from_stored(&now, &stored, ferr)) &&
	    !(rc = fill_requests(f->st, &now, &stored, ferr)) &&
	    !(rc = pl_import_prepare(&f->io, f->path, f->sha, NULL, NULL, 0, &now, 0, 0, &refonly,
	                             &warnings, ferr)))
		rc = redo_pairs(f, &stored, &now, ferr);
	free(buf);
	free(warnings);
	pl_run_list_release(&stored);
	pl_run_list_release(&now);
	return rc;
}

/* A window of a streamed file: its runs now (records ascending) against
 * the stored runs of the same records. */
static int redo_window(struct file_state *f, struct pl_run_list *now, struct pl_error *ferr)
{
	struct pl_run_list stored;
	char *warnings = NULL;
	size_t refonly = 0;
	int rc;

	if (now->n == 0)
		return 0;
	pl_run_list_init(&stored);
	if (!(rc = pl_store_query_source_range(f->st, f->sha, now->v[0].record,
	                                       now->v[now->n - 1].record, 0, &stored, ferr)) &&
	    !(rc = fill_from_stored(now, &stored, ferr)) &&
	    !(rc = fill_requests(f->st, now, &stored, ferr)) &&
	    !(rc = pl_import_prepare(&f->io, f->path, f->sha, NULL, NULL, 0, now, 0, 1, &refonly,
	                             &warnings, ferr)))
		rc = redo_pairs(f, &stored, now, ferr);
	free(warnings);
	pl_run_list_release(&stored);
	pl_run_list_release(now);
	pl_run_list_init(now);
	return rc;
}

static int blank_line(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

/* One line of a streamed file (its lineno, 1-based), as the import reads
 * it: blank lines are skipped, every other line is the next record. */
static int stream_line(struct file_state *f, const char *line, size_t n, long lineno,
                       long *record, struct pl_run_list *now, struct pl_error *ferr)
{
	size_t from = now->n;
	int rc;

	if (blank_line(line, n))
		return 0;
	if ((rc = pl_adapters_parse(f->path, line, n, f->io.format, now, ferr))) {
		if (ferr->line > 0)
			ferr->line += lineno - 1;
		return rc;
	}
	for (size_t i = from; i < now->n; i++)
		now->v[i].record = *record;
	(*record)++;
	return now->n >= WINDOW_RUNS ? redo_window(f, now, ferr) : 0;
}

/* A file the import streamed (a large JSONL): chunk by chunk, line by
 * line, WINDOW_RUNS records at a time, so memory does not grow with the
 * file; its sha256 is checked at the end (the caller's transaction is
 * rolled back when it does not match). */
static int redo_stream(struct file_state *f, long long chunks, struct pl_error *ferr)
{
	struct pl_sha256 *h = pl_sha256_new();
	struct pl_run_list now, rest;
	char *carry = NULL, hex[65];
	size_t clen = 0, ccap = 0;
	long lineno = 0, record = 0;
	int rc = 0;

	pl_run_list_init(&now);
	pl_run_list_init(&rest);
	if (!h)
		return pl_error_set(ferr, PL_ENOMEM, "out of memory");
	for (long long seq = 0; seq < chunks && !rc; seq++) {
		char *buf = NULL;
		size_t len = 0, start = 0;

		if ((rc = pl_store_read_source_chunk(f->st, f->sha, seq, &buf, &len, ferr)))
			break;
		if (pl_sha256_update(h, buf, len)) {
			free(buf);
			rc = pl_error_set(ferr, PL_ENOMEM, "out of memory");
			break;
		}
		for (size_t i = 0; i < len && !rc; i++) {
			if (buf[i] != '\n')
				continue;
			lineno++;
			if (clen) { /* the line began in an earlier chunk */
				size_t add = i + 1 - start;
				if (PL_ALLOC_GROW(carry, clen + add, ccap)) {
					rc = pl_error_set(ferr, PL_ENOMEM, "out of memory");
					break;
				}
				memcpy(carry + clen, buf + start, add);
				clen += add;
				rc = stream_line(f, carry, clen, lineno, &record, &now, ferr);
				clen = 0;
			} else {
				rc = stream_line(f, buf + start, i + 1 - start, lineno, &record, &now, ferr);
			}
			start = i + 1;
		}
		if (!rc && start < len) { /* a line goes on in the next chunk */
			size_t add = len - start;
			if (PL_ALLOC_GROW(carry, clen + add, ccap))
				rc = pl_error_set(ferr, PL_ENOMEM, "out of memory");
			else {
				memcpy(carry + clen, buf + start, add);
				clen += add;
			}
		}
		free(buf);
	}
	if (!rc && clen) /* the last line, without a newline */
		rc = stream_line(f, carry, clen, ++lineno, &record, &now, ferr);
	if (!rc)
		rc = redo_window(f, &now, ferr);
	/* stored runs past the file's last record: kept as they are */
	if (!rc && !(rc = pl_store_query_source_range(f->st, f->sha, record, LONG_MAX, 0, &rest, ferr))) {
		f->runs += rest.n;
		f->vanished += rest.n;
	}
	if (!rc && pl_sha256_final(h, hex))
		rc = pl_error_set(ferr, PL_ENOMEM, "out of memory");
	if (!rc && strcmp(hex, f->sha) != 0)
		rc = pl_error_set(ferr, PL_ESCHEMA,
		                  "the stored source bytes of %s are damaged (they hash to %s)", f->sha,
		                  hex);
	pl_sha256_free(h);
	free(carry);
	pl_run_list_release(&now);
	pl_run_list_release(&rest);
	return rc;
}

/* Re-derives the runs of the source file sha. Returns 0 (the file was
 * done, or could not be: stats and the callback say which), or a fatal
 * PL_EDB / PL_ENOMEM. */
static int redo_file(struct pl_store *st, const struct pl_reimport_opts *o, const char *sha,
                     struct pl_reimport_stats *stats, struct pl_error *err)
{
	struct file_state f;
	struct pl_run_list first;
	struct pl_error ferr;
	long long size = 0, chunks = 0;
	char *path = NULL, *adapter = NULL;
	int rc, stream;

	memset(&f, 0, sizeof(f));
	f.o = o;
	f.stats = stats;
	f.st = st;
	f.sha = sha;
	pl_run_list_init(&first);
	pl_error_init(&ferr);
	/* the path and adapter of the file, from its first stored run */
	if ((rc = pl_store_query_source_range(st, sha, 0, LONG_MAX, 1, &first, err)) == 0 && first.n &&
	    (!(path = strdup(first.v[0].source ? first.v[0].source : "-")) ||
	     (first.v[0].adapter && !(adapter = strdup(first.v[0].adapter)))))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	pl_run_list_release(&first);
	if (rc || !path)
		goto out;
	f.path = path;
	f.io.format = adapter;
	if ((rc = pl_store_source_size(st, sha, &size, &chunks, err)))
		goto out;
	if (chunks == 0) {
		stats->no_bytes++;
		goto out;
	}
	/* as the import read it: a large JSONL (or standard input spooled) was
	 * streamed, everything else read whole */
	stream = size > PL_IMPORT_STREAM_MIN &&
	         (pl_import_has_suffix(path, ".jsonl") || strcmp(path, "-") == 0);
	if ((rc = pl_store_begin(st, err)))
		goto out;
	rc = stream ? redo_stream(&f, chunks, &ferr) : redo_whole(&f, &ferr);
	if (rc) {
		pl_store_rollback(st, NULL);
		if (rc == PL_EDB || rc == PL_ENOMEM) {
			*err = ferr;
			goto out;
		}
		/* this file's fault (its bytes are damaged, no longer parse, or a
		 * value no longer validates): nothing of it changed; the others
		 * go on */
		stats->failed++;
		if (!ferr.file[0])
			pl_error_at(&ferr, path, ferr.line, ferr.column);
		if (o->on_failure)
			o->on_failure(o->ctx, path, &ferr);
		rc = 0;
		goto out;
	}
	if ((rc = pl_store_commit(st, err)))
		goto out;
	stats->files++;
	stats->runs += f.runs;
	stats->vanished += f.vanished;
	stats->changed += f.changed;
	stats->unreported += f.unreported;
	for (size_t i = 0; o->on_run && i < f.reports.n; i++)
		o->on_run(o->ctx, path, f.reports.v[i].id, f.reports.v[i].revision,
		          f.reports.v[i].changes, f.reports.v[i].n);
out:
	pending_release(&f.reports);
	free(path);
	free(adapter);
	return rc;
}

int pl_reimport(struct pl_store *st, const struct pl_reimport_opts *o,
                struct pl_reimport_stats *stats, struct pl_error *err)
{
	struct pl_hexset set;
	int rc;

	memset(stats, 0, sizeof(*stats));
	memset(&set, 0, sizeof(set));
	pl_store_set_retracted_mode(st, PL_RETRACTED_ALL);
	rc = pl_store_each_run(st, o->filters, o->nfilters, collect, &set, err);
	for (size_t i = 0; i < set.n && !rc; i++)
		rc = redo_file(st, o, set.v[i], stats, err);
	pl_hexset_release(&set);
	return rc;
}
