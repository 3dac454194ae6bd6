/*
 * bundle_flow.c — the report pipeline of a definition: arguments and
 * definition checked first (pl_flow_bundle_load), then the ledger read,
 * the runs wound to the definition's time, compared, graded and written
 * as a bundle (pl_flow_bundle_render).
 */
#include "flow/bundle_flow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/carried.h"
#include "core/procure.h"
#include "render/bundle.h"
#include "util/clock.h"

/* Gives every run of runs (ordered by id) its trail: copies of its
 * revisions and retractions from the ledger's lists (ordered by run id). */
static int attach_trails(struct pl_run_list *runs, const struct pl_revision_list *revs,
                         const struct pl_retraction_list *rets)
{
	size_t a = 0, b = 0;

	for (size_t i = 0; i < runs->n; i++) {
		struct pl_run *r = &runs->v[i];
		while (a < revs->n && revs->v[a].run_id < r->id)
			a++;
		while (b < rets->n && rets->v[b].run_id < r->id)
			b++;
		if ((a < revs->n && revs->v[a].run_id == r->id) ||
		    (b < rets->n && rets->v[b].run_id == r->id)) {
			pl_carried_free(r->carried);
			if (!(r->carried = pl_carried_new()))
				return PL_ENOMEM;
		}
		for (; a < revs->n && revs->v[a].run_id == r->id; a++)
			if (pl_revision_list_push(&r->carried->revisions, &revs->v[a]))
				return PL_ENOMEM;
		for (; b < rets->n && rets->v[b].run_id == r->id; b++)
			if (pl_retraction_list_push(&r->carried->retractions, &rets->v[b]))
				return PL_ENOMEM;
		if (r->carried) { /* "this run": an export line names no ledger id */
			for (size_t k = 0; k < r->carried->revisions.n; k++)
				r->carried->revisions.v[k].run_id = 0;
			for (size_t k = 0; k < r->carried->retractions.n; k++)
				r->carried->retractions.v[k].run_id = 0;
		}
	}
	return 0;
}

/* --since DIR (a bundle: its manifest's bundle_id and as_of) or ID@TIME
 * into id and at. Returns 0 or PL_EUSAGE (PL_ENOMEM) with err. */
static int resolve_since(const char *since, char *id, size_t nid, char *at, size_t nat,
                         struct pl_error *err)
{
	const char *sep = strchr(since, '@');
	struct stat sb;

	if (stat(since, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		size_t n = strlen(since) + 32;
		char *m = malloc(n);
		int ok;
		if (!m)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		snprintf(m, n, "%s/manifest.json", since);
		ok = pl_manifest_string(m, "bundle_id", id, nid) && pl_spec_bundle_id_ok(id) &&
		     pl_manifest_string(m, "as_of", at, nat) && pl_spec_time_ok(at);
		free(m);
		if (!ok)
			return pl_error_set(err, PL_EUSAGE,
			                    "--since '%s': not a bundle with a bundle id and an as-of time in "
			                    "its manifest.json",
			                    since);
		return 0;
	}
	if (sep && (size_t)(sep - since) == PL_SPEC_BUNDLE_ID_LEN && strlen(sep + 1) < nat) {
		snprintf(id, nid, "%.*s", (int)(sep - since), since);
		snprintf(at, nat, "%s", sep + 1);
		if (pl_spec_bundle_id_ok(id) && pl_spec_time_ok(at))
			return 0;
	}
	return pl_error_set(err, PL_EUSAGE,
	                    "--since needs a bundle directory or ID@TIME (plb1-... and a UTC time "
	                    "YYYY-MM-DDTHH:MM:SSZ); got '%s'",
	                    since);
}

int pl_flow_bundle_load(struct pl_flow_bundle *job, const char *spec_path, const char *lang,
                        long long epoch, const char *as_of, const char *since,
                        struct pl_error *err)
{
	char since_id[PL_SPEC_BUNDLE_ID_LEN + 8], since_at[32];
	int rc;

	job->spec_path = spec_path;
	job->lang = lang;
	job->stage = PL_FLOW_AT_ARGS;
	if (!pl_bundle_lang_ok(lang))
		return pl_error_set(err, PL_EUSAGE, "unknown --lang '%s' (en or zh-CN)", lang);
	if (as_of && !pl_spec_time_ok(as_of))
		return pl_error_set(err, PL_EUSAGE,
		                    "--as-of needs a UTC time YYYY-MM-DDTHH:MM:SSZ; got '%s'", as_of);
	if (since &&
	    (rc = resolve_since(since, since_id, sizeof(since_id), since_at, sizeof(since_at), err)))
		return rc;
	if (epoch < 0 && (rc = pl_clock_from_env(&epoch, NULL, err)))
		return rc;
	job->epoch = epoch;
	job->stage = PL_FLOW_AT_INPUT;
	if ((rc = pl_spec_load(spec_path, &job->spec, err)) ||
	    (rc = pl_spec_add_inputs(&job->spec, as_of, since ? since_id : NULL,
	                             since ? since_at : NULL, err)))
		return rc;
	job->stage = PL_FLOW_AT_ARGS;
	if ((rc = pl_compare_parse_axis_named(&job->sel.opts, job->spec.axis,
	                                      "the definition's 'axis' entry", err))) {
		char m[sizeof(err->message)];
		snprintf(m, sizeof(m), "%s", err->message);
		return pl_error_set(err, rc, "%s: %s", spec_path, m);
	}
	job->sel.have_axis = 1;
	job->sel.spec = spec_path;
	for (size_t i = 0; i < job->spec.nwhere; i++)
		if ((rc = pl_selection_add_where(&job->sel, job->spec.where[i], err)))
			return rc;
	for (size_t i = 0; i < job->spec.nmetrics; i++)
		if ((rc = pl_selection_add_metric(&job->sel, "report", job->spec.metrics[i], err)))
			return rc;
	for (size_t i = 0; i < job->spec.nallow; i++)
		if ((rc = pl_selection_add_allow(&job->sel, job->spec.allow[i], err)))
			return rc;
	return 0;
}

/* A refusal names the ledger's run ids, not the bundle's numbers 1..n
 * (which name nothing: a refused report writes no bundle): each number k
 * of cmp's mismatches becomes ledger_id[k - 1], kept ascending. */
static void refusal_ledger_ids(struct pl_comparison *cmp, const long long *ledger_id, size_t n)
{
	for (size_t i = 0; i < cmp->nmismatches; i++) {
		const struct pl_mismatch *m = &cmp->mismatches[i];

		for (size_t k = 0; m->nruns && k < m->nvalues; k++) {
			long long *ids = m->runs[k];
			size_t nids = m->nruns[k];

			for (size_t j = 0; ids && j < nids; j++)
				if (ids[j] >= 1 && (size_t)ids[j] <= n)
					ids[j] = ledger_id[ids[j] - 1];
			for (size_t j = 1; ids && j < nids; j++) /* insertion sort: few, nearly sorted */
				for (size_t q = j; q > 0 && ids[q - 1] > ids[q]; q--) {
					long long t = ids[q];
					ids[q] = ids[q - 1];
					ids[q - 1] = t;
				}
		}
	}
	for (size_t i = 0; i < cmp->nsubsets; i++) {
		long long f = cmp->subsets[i].first_run;
		if (f >= 1 && (size_t)f <= n)
			cmp->subsets[i].first_run = ledger_id[f - 1];
	}
}

/* A run's ledger id by its record identity. */
struct ledger_pair {
	char record_id[sizeof(((struct pl_run *)0)->record_id)]; /* copied: canonical order moves runs */
	long long id;
};

static int pair_cmp(const void *a, const void *b)
{
	return strcmp(((const struct ledger_pair *)a)->record_id,
	              ((const struct ledger_pair *)b)->record_id);
}

/* The ledger ids of runs (before pl_bundle_runs_canonical() renumbers
 * them) by record identity, sorted, into *out (caller frees). Returns 0 or
 * PL_ENOMEM. */
static int keep_ledger_ids(const struct pl_run_list *runs, struct ledger_pair **out)
{
	struct ledger_pair *p = malloc((runs->n ? runs->n : 1) * sizeof(*p));

	if (!(*out = p))
		return PL_ENOMEM;
	for (size_t i = 0; i < runs->n; i++) {
		memcpy(p[i].record_id, runs->v[i].record_id, sizeof(p[i].record_id));
		p[i].id = runs->v[i].id;
	}
	qsort(p, runs->n, sizeof(*p), pair_cmp);
	return 0;
}

/* The ledger id of run r from pairs (n entries), or its bundle number
 * where its record identity is not there. */
static long long ledger_id_of(const struct pl_run *r, const struct ledger_pair *pairs, size_t n)
{
	struct ledger_pair key;
	const struct ledger_pair *f;

	memcpy(key.record_id, r->record_id, sizeof(key.record_id));
	f = r->record_id[0] ? bsearch(&key, pairs, n, sizeof(key), pair_cmp) : NULL;

	return f ? f->id : r->id;
}

int pl_flow_bundle_render(struct pl_flow_bundle *job, struct pl_store *st, const char *out_dir,
                          int fresh, const char *wind_to, struct pl_error *err)
{
	struct pl_run_list all, runs;
	struct pl_procurement proc;
	struct pl_bundle_opts opts;
	struct pl_compare_opts copts;
	long long *ledger_id = NULL; /* the ledger's id of bundle run k + 1 */
	struct ledger_pair *pairs = NULL;
	struct pl_revision_list revs = {0};
	struct pl_retraction_list rets = {0};
	struct pl_bundle_erratum *errata = NULL;
	size_t nerrata = 0;
	const struct pl_report_spec *spec = &job->spec;
	char latest[32];
	const char *at;
	int rc;

	memset(&proc, 0, sizeof(proc));
	memset(&opts, 0, sizeof(opts));
	pl_run_list_init(&all);
	pl_run_list_init(&runs);
	job->stage = PL_FLOW_AT_LEDGER;
	/* the selection with every run's trail, retracted runs too: the runs
	 * may be taken at a time they were not retracted yet, the errata name
	 * retractions, and the bundle's as-of time is its trail's latest */
	pl_store_set_retracted_mode(st, PL_RETRACTED_ALL);
	if ((rc = pl_store_query(st, job->sel.filters, job->sel.nfilters, &all, err)) ||
	    (rc = pl_store_revisions(st, 0, &revs, err)) ||
	    (rc = pl_store_retractions(st, 0, &rets, err)))
		goto out;
	job->stage = PL_FLOW_AT_INPUT;
	at = spec->as_of ? spec->as_of : wind_to;
	if ((rc = attach_trails(&all, &revs, &rets)) ||
	    (at && (rc = pl_bundle_runs_as_of(&all, at, err))) ||
	    (rc = keep_ledger_ids(&all, &pairs)) ||
	    (rc = pl_bundle_runs_canonical(&all, err)) ||
	    (spec->since_bundle &&
	     (rc = pl_bundle_errata(&all, spec->since_at, at, &errata, &nerrata, err)))) {
		if (!err->message[0])
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	if (!(ledger_id = malloc((all.n ? all.n : 1) * sizeof(*ledger_id)))) {
		job->stage = PL_FLOW_AT_ARGS;
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < all.n; i++) {
		struct pl_run *r;
		if (all.v[i].retracted)
			continue;
		if (!(r = pl_run_list_push(&runs)) || pl_run_copy(r, &all.v[i])) {
			job->stage = PL_FLOW_AT_ARGS;
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			goto out;
		}
		ledger_id[runs.n - 1] = ledger_id_of(r, pairs, all.n);
		r->id = (long long)runs.n; /* the bundle's run numbers, 1..n */
	}
	job->stage = PL_FLOW_AT_COMPARE;
	copts = job->sel.opts;
	copts.subsets_min_rows = 1; /* a refusal names what would compare */
	rc = pl_compare_build(&runs, &copts, &job->cmp, err);
	job->cmp.subsets_in_definition = 1; /* named as "where" entries */
	if (rc == PL_EMISMATCH)
		refusal_ledger_ids(&job->cmp, ledger_id, runs.n);
	if (rc)
		goto out;
	job->stage = PL_FLOW_AT_INPUT;
	if ((rc = pl_procure_build(&job->cmp, &runs, &spec->slo, spec->prices, spec->nprices, &proc,
	                           err))) {
		if (err->code == PL_EINVALID) /* a 'prices' entry: the definition's error */
			pl_error_at(err, job->spec_path, 0, 0);
		goto out;
	}
	opts.spec = spec;
	opts.lang = job->lang;
	opts.epoch = job->epoch;
	opts.tool_version = PL_VERSION;
	opts.errata = errata;
	opts.nerrata = nerrata;
	pl_bundle_latest(&all, latest, sizeof(latest)); /* the as-of time of the bundle */
	opts.as_of = latest;
	rc = fresh ? pl_bundle_write_fresh(out_dir, &job->cmp, &runs, &proc, &opts, err)
	           : pl_bundle_write(out_dir, &job->cmp, &runs, &proc, &opts, err);
out:
	pl_procurement_release(&proc);
	free(ledger_id);
	free(pairs);
	free(errata);
	pl_run_list_release(&runs);
	pl_run_list_release(&all);
	pl_revision_list_release(&revs);
	pl_retraction_list_release(&rets);
	return rc;
}

void pl_flow_bundle_release(struct pl_flow_bundle *job)
{
	pl_comparison_release(&job->cmp);
	pl_selection_release(&job->sel);
	pl_spec_release(&job->spec);
}
