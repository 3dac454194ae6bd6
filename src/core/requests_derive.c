/*
 * requests_derive.c — a run's latency statistics from its requests: where
 * a file carries the requests of a run, its TTFT, TPOT, ITL and E2EL
 * statistics are recomputed from them with the one definition of
 * core/requests.h, for every tool alike, and the tool's own summary is
 * kept beside them as unplaced measurements "tool_summary.<metric>". The
 * run is marked by the extra condition "perfledger.latencies" =
 * "requests", so a series never mixes recomputed and summary figures
 * (check, history and the gate split on it, compare refuses it unless
 * allowed by name). See requests.h for the contract.
 */
#include "core/requests.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"

/* One latency family: its metric name prefix and its statistics. */
struct family {
	const char *name;           /* "ttft", ... */
	const struct pl_rq_dist *d; /* recomputed */
	const char *reason;         /* the likely reason a tool's figure differs */
};

/* The statistics a family's metrics name, in pl_metric_info's order. */
static const char *const stat_names[] = {"mean", "std", "min", "max", "p50",
                                         "p90",  "p95", "p99", "p99_9"};

static double stat_of(const struct pl_rq_dist *d, size_t k)
{
	const double v[] = {d->mean, d->std, d->min, d->max, d->p50, d->p90, d->p95, d->p99, d->p999};
	return v[k];
}

/* 1 if the tool's figure t and the recomputed r differ by more than
 * PL_RQ_AGREE_PCT percent of the tool's (or r is nonzero where t is 0). */
static int disagree(double t, double r)
{
	if (t == 0)
		return r != 0;
	return fabs(r - t) > PL_RQ_AGREE_PCT / 100.0 * fabs(t);
}

/* Sets family f's metrics of run from its statistics, keeping each tool
 * figure it replaces as "tool_summary.<metric>", and appends to the
 * warning buffer w (size nw) each metric whose figures disagree. */
static int derive_family(struct pl_run *run, const struct family *f, char *w, size_t nw,
                         struct pl_error *err)
{
	for (size_t k = 0; k < sizeof(stat_names) / sizeof(stat_names[0]); k++) {
		char name[64], kept[96];
		double r = stat_of(f->d, k);
		int id;

		snprintf(name, sizeof(name), "%s_%s", f->name, stat_names[k]);
		if ((id = pl_metric_lookup(name)) < 0 || !isfinite(r))
			continue;
		if (run->has_metric[id]) {
			double t = run->metric[id];
			int rc;

			snprintf(kept, sizeof(kept), "tool_summary.%s", name);
			if ((rc = pl_run_set_measure(run, kept, t, NULL, err)))
				return rc;
			if (disagree(t, r)) {
				size_t used = strlen(w);
				snprintf(w + used, nw - used, "%s%s %.6g s (tool %.6g s, %+.1f%%)",
				         used ? ", " : "", name, r, t, t != 0 ? (r - t) / t * 100 : 0.0);
			}
		}
		pl_run_set_metric(run, id, r);
	}
	return 0;
}

int pl_requests_derive(struct pl_run *run, struct pl_error *err)
{
	struct pl_requests *rq = run->requests;
	struct pl_rq_stats st;
	int rc;

	if (!rq || rq->n == 0)
		return 0;
	if (rq->blob && rq->error) { /* encoded: the gaps need no copy */
		rc = pl_requests_stats_reorder(rq, &st);
		free(rq->gaps);
		rq->gaps = NULL;
		rq->gap_cap = 0;
	} else {
		rc = pl_requests_stats(rq, &st);
	}
	if (rc)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	const struct family fams[] = {
		{"ttft", &st.ttft, "a different percentile method, or a sample (n - 1) standard deviation"},
		{"tpot", &st.tpot,
		 "a different TPOT definition (the first token counted, or a mean of gaps)"},
		/* per-request mean gaps are not the pooled gaps ITL is: kept as the tool's */
		{"itl", (rq->columns & PL_RQ_GAPS) ? &st.itl : NULL,
		 "the first-token gap counted in ITL, or gaps averaged per request"},
		{"e2el", &st.e2el,
		 (rq->columns & PL_RQ_E2EL)
		     ? "a different percentile method, or a sample (n - 1) standard deviation"
		     : "E2EL taken as TTFT + the gaps (the file records no E2EL), or a different "
		       "percentile method"},
	};
	for (size_t i = 0; i < sizeof(fams) / sizeof(fams[0]); i++) {
		char w[1024] = "";

		if (!fams[i].d || fams[i].d->n == 0)
			continue;
		if ((rc = derive_family(run, &fams[i], w, sizeof(w), err)))
			return rc;
		if (w[0])
			pl_run_warn(run, "%s recomputed from the requests differs from the tool's summary "
			            "by more than %g%%: %s; likely %s%s",
			            fams[i].name, PL_RQ_AGREE_PCT, w, fams[i].reason,
			            st.failed ? ", or the failed requests counted" : "");
	}
	return pl_run_set_extra(run, PL_RQ_SOURCE_EXTRA, "requests", err);
}
