/*
 * carry_extend.c — the revisions a ledger record carries beyond the
 * stored trail of its run (the other ledger amended, or reimported, the
 * run after this ledger got its copy): applied as the commands that made
 * them apply them, one revision at a time, each checked first.
 *
 * For each added revision (its number the next one here): every old
 * value is the run's value here now; the condition, build identity and
 * extra changes are applied through pl_ledger_amend_run() (normalized and
 * validated as `amend --set` is: a required field cannot be removed, a
 * value must be of its type) and must come out as exactly the file's
 * changes; metric changes (reimport's, or the per-accelerator
 * throughputs amend re-derives) are plausible values written in
 * canonical text; then pl_store_amend() and pl_store_revise_metrics()
 * store the revision with the file's time, reason and author. Anything
 * else refuses the record (PL_EINVALID naming the revision and field),
 * and the caller undoes what was written.
 */
#include "store/store_impl.h"
#include "core/carried.h"
#include "core/amend.h"
#include "core/ranges.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The refusal of revision r of run (stored here as run id); other is
 * the other ledger of a merge (run->id its run there), NULL for a file. */
static int refuse(struct pl_error *err, const struct pl_run *run, long long id, const char *other,
                  const struct pl_revision *r, const char *why)
{
	if (other)
		return pl_error_set(err, PL_EINVALID,
		                    "run %lld here and run %lld of '%s' were read from the same bytes "
		                    "(sha256 %.12s..., record %ld), and its revision %d of field '%.80s' "
		                    "there cannot be applied as amend would apply it: %s",
		                    id, run->id, other, run->sha256, run->record, r->revision, r->field,
		                    why);
	return pl_error_set(err, PL_EINVALID,
	                    "the run of sha256 %.12s..., record %ld is stored (run %lld); the file's "
	                    "revision %d of field '%.80s' cannot be applied: %s; nothing was stored",
	                    run->sha256, run->record, id, r->revision, r->field, why);
}

/* The number of n digits at s (pl_carried_time_valid() checked them). */
static long long num(const char *s, int n)
{
	long long v = 0;

	for (int i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

/* Seconds since 1970 of a time as pl_carried_time_valid() accepts
 * (days from the civil date: H. Hinnant's days_from_civil). */
static long long epoch_of(const char *t)
{
	long long y = num(t, 4), m = num(t + 5, 2), d = num(t + 8, 2), era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (era * 146097 + doe - 719468) * 86400 + num(t + 11, 2) * 3600 + num(t + 14, 2) * 60 +
	       num(t + 17, 2);
}

/* 1 when text (NULL: missing) is the value of field in cur now. */
static int is_now(const struct pl_run *cur, const char *field, const char *text)
{
	int c = pl_cond_lookup(field), b = pl_build_lookup(field), m = pl_metric_lookup(field);

	if (c != PL_C_NONE)
		return same(cur->cond[c].set ? cur->cond[c].text : NULL, text);
	if (b >= 0)
		return same(cur->build[b], text);
	if (m >= 0) {
		char *end;
		double v;
		if (!text)
			return !cur->has_metric[m];
		v = strtod(text, &end);
		return cur->has_metric[m] && end != text && !*end && v == cur->metric[m];
	}
	return same(pl_run_extra(cur, field), text);
}

/* The metric value text stands for (NaN: removed), in *v; 0 when it is
 * not a plausible value of metric m in the text perfledger writes. */
static int metric_value(int m, const char *text, double *v)
{
	char buf[40], *end;

	if (!text) {
		*v = NAN;
		return 1;
	}
	*v = strtod(text, &end);
	return end != text && !*end && pl_range_holds(m, *v) && *v >= 0 &&
	       strcmp(pl_fmt_num(buf, sizeof(buf), *v), text) == 0;
}

/* Applies the entries r[0..n) (one revision) to stored run id. */
static int apply_revision(struct pl_store *st, const struct pl_run *run, long long id,
                          const char *other, const struct pl_revision *r, size_t n,
                          struct pl_error *err)
{
	struct pl_run cur;
	struct pl_amend_result res;
	struct pl_amend_set *sets = NULL;
	int *mid = NULL, found = 0, rc, revision = 0, have_res = 0;
	double *mval = NULL;
	size_t nsets = 0, nm = 0;
	long long shared = 0, first = 0, when = epoch_of(r[0].changed_at);
	struct pl_error why;

	memset(&res, 0, sizeof(res));
	pl_run_init(&cur);
	pl_error_init(&why);
	if ((rc = pl_store_get_run(st, id, &cur, &found, err)))
		goto out;
	if (!found) {
		rc = pl_error_set(err, PL_EDB, "database error: run %lld vanished", id);
		goto out;
	}
	if (!(sets = calloc(n, sizeof(*sets))) || !(mid = calloc(n, sizeof(*mid))) ||
	    !(mval = calloc(n, sizeof(*mval)))) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		int m = pl_metric_lookup(r[i].field);

		if (!is_now(&cur, r[i].field, r[i].old_value)) {
			rc = refuse(err, run, id, other, &r[i], "its old value is not the run's value here");
			goto out;
		}
		if (m >= 0) {
			if (!metric_value(m, r[i].new_value, &mval[nm])) {
				rc = refuse(err, run, id, other, &r[i], "its new value is no plausible value of the "
				                                  "metric in the text perfledger writes");
				goto out;
			}
			mid[nm++] = m;
		} else {
			sets[nsets].field = r[i].field;
			sets[nsets++].value = r[i].new_value ? r[i].new_value : "";
		}
	}
	if (nsets) {
		if ((rc = pl_ledger_check_sets(sets, nsets, &why)) ||
		    (rc = pl_ledger_amend_run(&cur, sets, nsets, &res, &why))) {
			if (rc == PL_ENOMEM)
				rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			else
				rc = refuse(err, run, id, other, &r[0], why.message);
			goto out;
		}
		have_res = 1;
		/* amend's changes are exactly the file's; the metrics it
		 * re-derives are the file's metric changes of this revision */
		if (res.nchanges != nsets)
			rc = refuse(err, run, id, other, &r[0], "amend would record other changes");
		for (size_t k = 0; !rc && k < res.nchanges; k++) {
			const struct pl_amend_change *ch = &res.changes[k];
			size_t i = 0;
			while (i < n && strcmp(r[i].field, ch->field) != 0)
				i++;
			if (i == n || !same(r[i].old_value, ch->old_value) ||
			    !same(r[i].new_value, ch->new_value))
				rc = refuse(err, run, id, other, i < n ? &r[i] : &r[0],
				            "amend would record it with other values");
		}
		for (size_t k = 0; !rc && k < res.nmetrics; k++) {
			size_t i = 0;
			if (res.metrics[k].kept)
				continue;
			while (i < nm && mid[i] != res.metrics[k].metric)
				i++;
			if (i == nm || !((isnan(mval[i]) && isnan(res.metrics[k].new_value)) ||
			                 mval[i] == res.metrics[k].new_value))
				rc = refuse(err, run, id, other, &r[0],
				            "amend re-derives a per-accelerator throughput the file does not "
				            "change so");
		}
		if (rc)
			goto out;
		res.run.id = id;
		if ((rc = pl_store_amend(st, &res.run, res.changes, res.nchanges, when, r[0].reason,
		                         r[0].author, &revision, &shared, &first, err)))
			goto out;
		if (revision != r[0].revision) {
			rc = refuse(err, run, id, other, &r[0], "it is not the next revision here");
			goto out;
		}
	}
	if (nm)
		rc = pl_store_revise_metrics(st, id, r[0].revision, mid, mval, nm, when, r[0].reason,
		                             r[0].author, err);
out:
	if (have_res)
		pl_ledger_amend_release(&res);
	free(sets);
	free(mid);
	free(mval);
	pl_run_release(&cur);
	return rc;
}

int pl_store_carry_extend(struct pl_store *st, const struct pl_run *run, long long id,
                          const struct pl_revision_list *got, size_t from, const char *other,
                          long long *added, struct pl_error *err)
{
	struct pl_cond_key key = {0};
	int rc = 0;

	for (size_t i = from; i < got->n && !rc;) {
		size_t k = i;
		while (k < got->n && got->v[k].revision == got->v[i].revision)
			k++;
		rc = apply_revision(st, run, id, other, &got->v[i], k - i, err);
		if (!rc)
			*added += (long long)(k - i);
		i = k;
	}
	/* the run here is now the file's run: its conditions and start time */
	if (!rc && pl_cond_key_make(run, &key))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	if (!rc)
		rc = pl_store_check_same_run_strict(st, run, &key, err);
	pl_cond_key_release(&key);
	return rc;
}
