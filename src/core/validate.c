/*
 * validate.c — the rules every canonical run must meet before it is stored.
 *
 * Runs arrive here converted (adapters) and normalized (normalize.c); this
 * module only decides. Each rule rejects with PL_EINVALID, names the field in
 * err->field and says what was expected, so the user can fix the input.
 * Rules that need the raw input (JSON types, duplicate keys, NaN tokens,
 * unit suffixes) live in the adapters.
 */
#include "core/validate.h"

#include <math.h>
#include <stdio.h>

/* Statistics that must not decrease, in order, within one family. */
static const enum pl_stat order[] = {PL_S_MIN, PL_S_P50, PL_S_P90, PL_S_P95,
                                     PL_S_P99, PL_S_P999, PL_S_MAX};
#define NORDER (sizeof(order) / sizeof(order[0]))

/* Metric ids of the families, by their first (mean) id; a family is the run
 * of PL_DIST_METRICS rows starting there. */
static const int family_first[] = {PL_M_TTFT_MEAN, PL_M_TPOT_MEAN, PL_M_ITL_MEAN, PL_M_E2EL_MEAN,
                                   PL_M_TPS_MEAN};
#define FAMILY_SIZE (PL_M_TPOT_MEAN - PL_M_TTFT_MEAN)

static int fail(struct pl_error *err, const char *field)
{
	pl_error_field(err, field);
	return PL_EINVALID;
}

static int check_required(const struct pl_run *run, struct pl_error *err)
{
	for (int i = 0; i < PL_COND_COUNT; i++) {
		const char *name = pl_cond_info[i].name;
		if (!(pl_cond_info[i].flags & PL_CF_REQUIRED) || run->cond[i].set)
			continue;
		pl_error_set(err, PL_EINVALID,
		             "missing required condition '%s' (give it in the file, a sidecar "
		             "NAME.conditions.json or --set %s=...)",
		             name, name);
		return fail(err, name);
	}
	return 0;
}

static int check_values(const struct pl_run *run, struct pl_error *err)
{
	int any = 0;
	char buf[40];

	for (int i = 0; i < PL_METRIC_COUNT; i++) {
		const struct pl_metric_info *mi = &pl_metric_info[i];
		double v = run->metric[i];

		if (!run->has_metric[i])
			continue;
		any = 1;
		pl_fmt_num(buf, sizeof(buf), v);
		if (!isfinite(v)) {
			pl_error_set(err, PL_EINVALID, "metric '%s' must be a finite number, got %s",
			             mi->name, buf);
			return fail(err, mi->name);
		}
		if (v < 0) {
			pl_error_set(err, PL_EINVALID, "metric '%s' must not be negative, got %s", mi->name,
			             buf);
			return fail(err, mi->name);
		}
		if (mi->unit == PL_U_FRACTION && v > 1) {
			pl_error_set(err, PL_EINVALID,
			             "metric '%s' must be a fraction from 0 to 1, got %s", mi->name, buf);
			return fail(err, mi->name);
		}
		if ((mi->unit == PL_U_COUNT || mi->unit == PL_U_BYTES) && v != floor(v)) {
			pl_error_set(err, PL_EINVALID, "metric '%s' must be a whole number, got %s",
			             mi->name, buf);
			return fail(err, mi->name);
		}
	}
	if (!any) {
		pl_error_set(err, PL_EINVALID, "the run has no metric (give at least one under \"metric\")");
		return fail(err, "metric");
	}
	return 0;
}

static int check_order(const struct pl_run *run, struct pl_error *err)
{
	for (size_t f = 0; f < sizeof(family_first) / sizeof(family_first[0]); f++) {
		int prev = PL_M_NONE;
		for (size_t o = 0; o < NORDER; o++) {
			int id = PL_M_NONE;
			for (int k = family_first[f]; k < family_first[f] + FAMILY_SIZE; k++)
				if (pl_metric_info[k].stat == order[o])
					id = k;
			if (id < 0 || !run->has_metric[id])
				continue;
			if (prev >= 0 && run->metric[id] < run->metric[prev]) {
				char a[40], b[40];
				pl_error_set(err, PL_EINVALID,
				             "percentiles out of order: '%s' = %s is less than '%s' = %s",
				             pl_metric_info[id].name, pl_fmt_num(a, sizeof(a), run->metric[id]),
				             pl_metric_info[prev].name,
				             pl_fmt_num(b, sizeof(b), run->metric[prev]));
				return fail(err, pl_metric_info[id].name);
			}
			prev = id;
		}
	}
	return 0;
}

int pl_validate_run(struct pl_run *run, struct pl_error *err)
{
	int rc;

	pl_run_update_checklist(run);
	rc = check_required(run, err);
	if (rc == 0)
		rc = check_values(run, err);
	if (rc == 0)
		rc = check_order(run, err);
	return rc;
}
