/*
 * compare_errors.c — the errors rule of a comparison (compare.h): runs
 * with errors, without, and with an unknown error rate are never compared
 * silently. The runs' distinct error rates, each with its runs, become a
 * refusal's values or, with --allow-mismatch error_rate, a caveat.
 */
#include "core/compare_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/msg.h"
#include "core/normalize.h"

/* Error rates ascending, missing (NaN) last. */
static int rate_order(const void *ctx, size_t a, size_t b)
{
	const double *rate = ctx;
	int am = isnan(rate[a]), bm = isnan(rate[b]);

	if (am || bm)
		return am - bm;
	return rate[a] < rate[b] ? -1 : rate[a] > rate[b];
}

/* The distinct error rates of runs, ascending, missing (NaN) last. */
struct rate_groups {
	double *rate;    /* n rates */
	long long **ids; /* per rate: the ids of the runs with it, in run order; owned */
	size_t *nids;    /* entries of ids[k] */
	size_t n;        /* distinct rates */
};

static void rate_groups_release(struct rate_groups *r)
{
	for (size_t k = 0; r->ids && k < r->n; k++)
		free(r->ids[k]);
	free(r->ids);
	free(r->nids);
	free(r->rate);
	memset(r, 0, sizeof(*r));
}

/* The distinct error rates of runs (ascending, missing last), each with the
 * runs that have it. Rates are grouped by hashing (a million runs may bring
 * many distinct rates), then each group's runs listed in run order. Release
 * *out with rate_groups_release(). */
static int group_error_rates(const struct pl_run_columns *runs, struct rate_groups *out)
{
	size_t n = runs->n, nslots = 16, ngroups = 0;
	size_t *slot = NULL, *group = malloc(n * sizeof(*group)), *order = NULL, *tmp = NULL;
	size_t *start = NULL, *pos = NULL;
	double *rate = malloc(n * sizeof(*rate)); /* per group */
	int rc = PL_ENOMEM;

	memset(out, 0, sizeof(*out));
	while (nslots < 2 * n)
		nslots *= 2;
	if (!group || !rate || !(slot = calloc(nslots, sizeof(*slot))))
		goto oom;
	for (size_t i = 0; i < n; i++) {
		double r = pl_compare_run_metric(runs, i, PL_M_ERROR_RATE);
		unsigned long long bits;
		size_t h;

		if (r == 0)
			r = 0; /* -0 is 0 */
		if (isnan(r))
			r = NAN; /* one missing group */
		memcpy(&bits, &r, sizeof(bits));
		h = (size_t)((bits * 0x9e3779b97f4a7c15ULL) >> 20) & (nslots - 1);
		while (slot[h] && !(rate[slot[h] - 1] == r || (isnan(r) && isnan(rate[slot[h] - 1]))))
			h = (h + 1) & (nslots - 1);
		if (!slot[h]) {
			rate[ngroups] = r;
			slot[h] = ++ngroups;
		}
		group[i] = slot[h] - 1;
	}
	if (!(order = malloc(ngroups * sizeof(*order))) || !(tmp = malloc(ngroups * sizeof(*tmp))) ||
	    !(start = calloc(ngroups + 1, sizeof(*start))) || !(pos = malloc(n * sizeof(*pos))) ||
	    !(out->rate = malloc(ngroups * sizeof(*out->rate))) ||
	    !(out->ids = calloc(ngroups, sizeof(*out->ids))) ||
	    !(out->nids = calloc(ngroups, sizeof(*out->nids))))
		goto oom;
	out->n = ngroups;
	for (size_t k = 0; k < ngroups; k++)
		order[k] = k;
	pl_compare_sort_indices(order, tmp, ngroups, rate_order, rate);
	for (size_t i = 0; i < n; i++) /* counting sort of the runs by group, stable */
		start[group[i] + 1]++;
	for (size_t k = 0; k < ngroups; k++)
		start[k + 1] += start[k];
	memcpy(tmp, start, ngroups * sizeof(*tmp));
	for (size_t i = 0; i < n; i++)
		pos[tmp[group[i]]++] = i;
	for (size_t g = 0; g < ngroups; g++) {
		size_t k = order[g], cnt = start[k + 1] - start[k];

		out->rate[g] = rate[k];
		if (!(out->ids[g] = malloc(cnt * sizeof(**out->ids))))
			goto oom;
		for (size_t j = 0; j < cnt; j++)
			out->ids[g][j] = runs->id[pos[start[k] + j]];
		out->nids[g] = cnt;
	}
	rc = 0;
oom:
	if (rc)
		rate_groups_release(out);
	free(slot);
	free(group);
	free(rate);
	free(order);
	free(tmp);
	free(start);
	free(pos);
	return rc;
}

/* The errors rule: a run with errors (error_rate > 0) is never compared
 * with one without (error_rate 0), and a run whose error rate is unknown
 * (missing) is neither: missing is not 0. Unless opts->allow_errors, mixed
 * runs refuse the comparison with each error rate and its runs; when
 * allowed, the same list becomes a caveat. Returns 0 or PL_ENOMEM. */
int pl_compare_check_errors(const struct pl_run_columns *runs, const struct pl_compare_opts *opts,
                            struct pl_comparison *cmp)
{
	int seen[3] = {0, 0, 0}; /* unknown, none, some */
	struct rate_groups g;
	char **vals;
	int rc;

	for (size_t i = 0; i < runs->n; i++) {
		double rate = pl_compare_run_metric(runs, i, PL_M_ERROR_RATE);
		seen[isnan(rate) ? 0 : rate > 0 ? 2 : 1] = 1;
	}
	if (seen[0] + seen[1] + seen[2] < 2)
		return 0;
	if ((rc = group_error_rates(runs, &g)))
		return rc;
	if (opts->allow_errors) {
		struct pl_msg cav, *sub = calloc(g.n, sizeof(*sub));

		if (!sub) {
			rate_groups_release(&g);
			return PL_ENOMEM;
		}
		for (size_t k = 0; k < g.n; k++) {
			pl_msg_init(&sub[k], isnan(g.rate[k]) ? PL_MSG_ERR_RATE_MISSING_RUNS
			                                       : PL_MSG_ERR_RATE_RUNS);
			if (!isnan(g.rate[k]))
				pl_msg_num(&sub[k], g.rate[k]);
			pl_msg_runs(&sub[k], g.ids[k], g.nids[k]);
		}
		pl_msg_init(&cav, PL_MSG_CAV_ERRORS_ALLOWED);
		pl_msg_msgs(&cav, sub, g.n);
		for (size_t k = 0; k < g.n; k++)
			pl_msg_release(&sub[k]);
		free(sub);
		rate_groups_release(&g);
		return pl_msgs_push(&cmp->caveats, &cav);
	}
	if (!(vals = calloc(g.n, sizeof(*vals)))) {
		rate_groups_release(&g);
		return PL_ENOMEM;
	}
	for (size_t k = 0; k < g.n; k++) {
		char num[40];
		if (!(vals[k] = strdup(isnan(g.rate[k]) ? "(missing)"
		                                        : pl_fmt_num(num, sizeof(num), g.rate[k])))) {
			pl_compare_free_strings(vals, g.n);
			rate_groups_release(&g);
			return PL_ENOMEM;
		}
	}
	if (pl_compare_push_mismatch(cmp, PL_C_NONE, vals, g.n)) {
		rate_groups_release(&g);
		return PL_ENOMEM;
	}
	{
		struct pl_mismatch *m = &cmp->mismatches[cmp->nmismatches - 1];
		if (!(m->runs = calloc(g.n, sizeof(*m->runs))) ||
		    !(m->nruns = calloc(g.n, sizeof(*m->nruns)))) {
			rate_groups_release(&g);
			return PL_ENOMEM;
		}
		for (size_t k = 0; k < g.n && k < PL_MISMATCH_RUN_VALUES; k++) {
			m->runs[k] = g.ids[k]; /* taken over */
			m->nruns[k] = g.nids[k];
			g.ids[k] = NULL;
		}
	}
	rate_groups_release(&g);
	return 0;
}
