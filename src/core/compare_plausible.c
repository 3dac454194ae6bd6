/*
 * compare_plausible.c — no delta from a value no measurement can be.
 *
 * Import refuses a metric value outside its plausible range
 * (schema/ranges.tsv), but a ledger written before that check, or edited
 * outside perfledger, may hold one (a TTFT of 1e308 s). A comparison shows
 * such a value where it is, marked (row->implausible), and computes no
 * delta from it: neither the row holding it (its median or its spread may
 * be that value) nor a row whose baseline it is gets a delta of that
 * metric. A caveat per shown metric names the runs holding one
 * (CAV_IMPLAUSIBLE_NO_DELTA), unless the caller leaves them out itself
 * (opts->implausible_quiet: history).
 */
#include "core/compare_impl.h"
#include "core/ranges.h"

#include <math.h>
#include <stdlib.h>

/* Runs named in one caveat (the count says how many there are). */
#define IMPLAUSIBLE_NAMED 10

/* 1 when id is a run of a row marked implausible for metric m. */
static int in_marked_row(const struct pl_comparison *cmp, int m, long long id)
{
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct pl_compare_row *row = &cmp->rows[r];
		size_t lo = 0, hi = row->n;

		if (!row->implausible[m] || !row->run_ids)
			continue;
		while (lo < hi) { /* run_ids ascend */
			size_t mid = lo + (hi - lo) / 2;
			if (row->run_ids[mid] == id)
				return 1;
			if (row->run_ids[mid] < id)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	return 0;
}

/* The caveat of metric m: the runs of marked rows whose value of m is
 * outside its range. Returns 0 or PL_ENOMEM. */
static int caveat(const struct pl_run_columns *runs, struct pl_comparison *cmp, int m)
{
	long long named[IMPLAUSIBLE_NAMED];
	long long count = 0;
	struct pl_msg cav;

	for (size_t i = 0; runs->metric[m] && i < runs->n; i++) {
		double v = runs->metric[m][i];

		if (isnan(v) || pl_range_holds(m, v) || !in_marked_row(cmp, m, runs->id[i]))
			continue;
		if (count < IMPLAUSIBLE_NAMED)
			named[count] = runs->id[i];
		count++;
	}
	if (count == 0)
		return 0;
	pl_msg_init(&cav, PL_MSG_CAV_IMPLAUSIBLE_NO_DELTA);
	pl_msg_field(&cav, pl_metric_info[m].name);
	pl_msg_int(&cav, count);
	pl_msg_runs(&cav, named, count < IMPLAUSIBLE_NAMED ? (size_t)count : IMPLAUSIBLE_NAMED);
	return pl_msgs_push(&cmp->caveats, &cav) ? PL_ENOMEM : 0;
}

/* Marks the cells and drops the deltas; one caveat per shown metric. */
static int mark(const struct pl_run_columns *runs, const struct pl_compare_opts *opts,
                struct pl_comparison *cmp)
{
	unsigned char any[PL_METRIC_COUNT] = {0};

	for (size_t r = 0; r < cmp->nrows; r++) {
		struct pl_compare_row *row = &cmp->rows[r];

		for (int m = 0; m < PL_METRIC_COUNT; m++)
			if (row->n_metric[m] &&
			    (!pl_range_holds(m, row->min[m]) || !pl_range_holds(m, row->max[m]) ||
			     !pl_range_holds(m, row->metric[m])))
				any[m] = row->implausible[m] = 1;
	}
	for (size_t r = 0; r < cmp->nrows; r++) {
		struct pl_compare_row *row = &cmp->rows[r];
		const struct pl_compare_row *base = row->base < cmp->nrows ? &cmp->rows[row->base] : row;

		for (int m = 0; m < PL_METRIC_COUNT; m++)
			if (row->implausible[m] || base->implausible[m]) {
				row->has_delta[m] = 0;
				row->delta_pct[m] = NAN;
			}
	}
	for (size_t i = 0; !opts->implausible_quiet && i < cmp->nmetrics; i++) {
		int m = cmp->metrics[i], rc;

		if (m >= 0 && m < PL_METRIC_COUNT && any[m] && (rc = caveat(runs, cmp, m)))
			return rc;
	}
	return 0;
}

int pl_compare_build_columns(const struct pl_run_columns *runs, const struct pl_compare_opts *opts,
                             struct pl_comparison *out, struct pl_error *err)
{
	int rc = pl_compare_build_rows(runs, opts, out, err);

	if (rc == 0 && mark(runs, opts, out))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc == PL_EMISMATCH && opts->subsets_min_rows && pl_compare_subsets(runs, opts, out))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory"); /* what would compare */
	return rc;
}
