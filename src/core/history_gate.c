/*
 * history_gate.c — a history's latest night judged by the nightly gate's
 * rule (see pl_history_gate in history.h).
 */
#include "core/history.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/gate_night.h"

/* The item of night's series s (any series: (size_t)-1) for metric, or NULL. */
static const struct pl_gate_item *item_of(const struct pl_gate_night *night, size_t s, int metric)
{
	for (size_t i = 0; i < night->nitems; i++)
		if (night->items[i].metric == metric && (s == (size_t)-1 || night->items[i].series == s))
			return &night->items[i];
	return NULL;
}

/* Point index of h whose label is label, or h->npoints. */
static size_t point_named(const struct pl_history *h, const char *label)
{
	for (size_t i = 0; i < h->npoints; i++)
		if (h->points[i].value.text && strcmp(h->points[i].value.text, label) == 0)
			return i;
	return h->npoints;
}

/* Carries item's decision into h (history_gate.h). */
static void apply(struct pl_history *h, const struct pl_gate_item *it, size_t nchecks)
{
	int red = it && it->verdict == PL_V_REGRESSION;

	h->gate = 1;
	h->gate_checks = nchecks;
	h->latest_verdict = it ? it->verdict : PL_V_TOO_FEW;
	h->latest_accepted = it ? it->accepted : NULL;
	memset(&h->latest, 0, sizeof(h->latest));
	h->latest.bound_low = h->latest.bound_high = NAN;
	if (it && it->g.decidable) {
		h->latest.decidable = 1;
		h->latest.method = PL_TEST_WINDOW;
		h->latest.new_median = it->latest;
		h->latest.old_center = it->latest / (1.0 + it->g.rel_change);
		h->latest.old_median = h->latest.old_center;
		h->latest.n_old = it->nbase;
		h->latest.n_new = 1;
		h->latest.rel_change = it->g.rel_change;
		h->latest.p_value = it->verdict == PL_V_IMPROVEMENT ? it->g.p_better_adjusted
		                    : it->g.by == PL_GATE_BY_FAMILY ? it->g.family_p_adjusted
		                                                    : it->g.p_adjusted;
		h->latest.bound_low = it->g.band_low;
		h->latest.bound_high = it->g.band_high;
		h->latest.worse = it->verdict == PL_V_REGRESSION || it->verdict == PL_V_ACCEPTED;
		h->latest.better = it->verdict == PL_V_IMPROVEMENT;
		h->latest.significant = h->latest.worse || h->latest.better;
	}
	h->gate_family_n = 0;
	h->gate_family_z = 0;
	h->gate_superseded = 0;
	if (it && it->g.by == PL_GATE_BY_FAMILY) {
		h->gate_family_n = it->g.family_n;
		h->gate_family_z = it->g.family_z;
	}
	h->gate_open = 0;
	if (it && it->open_since) {
		size_t at = point_named(h, it->open_since);
		if (at < h->npoints) {
			h->gate_open = 1;
			h->gate_open_at = at;
		}
	}
	h->nfailing = 0;
	for (size_t k = 0; k < h->nsteps; k++) {
		h->steps[k].fails = h->steps[k].fails && red;
		h->nfailing += h->steps[k].fails;
	}
	h->nfailing += (size_t)red + (h->latest_failed ? 1 : 0);
}

size_t pl_history_night_opts(const struct pl_history *hs, size_t nh, int group,
                             const struct pl_compare_opts *allow, struct pl_gate_night_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->group = group;
	o->window = PL_HISTORY_WINDOW_DEFAULT;
	for (size_t k = 0; k < nh && o->nmetrics < PL_METRIC_COUNT; k++)
		if (hs[k].npoints)
			o->metrics[o->nmetrics++] = hs[k].metric;
	if (allow)
		o->allow = *allow;
	pl_gate_opts_init(&o->gate);
	return o->nmetrics;
}

int pl_history_gate(struct pl_history *hs, size_t nh, const struct pl_run_list *runs, int group,
                    const struct pl_compare_opts *allow, const struct pl_accepted_list *accepted,
                    struct pl_error *err)
{
	struct pl_gate_night_opts o;
	struct pl_gate_night night;
	int rc;

	if (!pl_group_is_time(group) || pl_history_night_opts(hs, nh, group, allow, &o) == 0)
		return 0;
	rc = pl_gate_night_build(runs, &o, accepted, &night, err);
	if (rc == PL_EEMPTY) { /* no metric has a value: nothing is decidable */
		for (size_t k = 0; k < nh; k++)
			if (hs[k].npoints)
				apply(&hs[k], NULL, 0);
		pl_gate_night_release(&night);
		return 0;
	}
	if (rc) {
		pl_gate_night_release(&night);
		return rc;
	}
	if (night.nseries == 1)
		for (size_t k = 0; k < nh; k++)
			if (hs[k].npoints)
				apply(&hs[k], item_of(&night, (size_t)-1, hs[k].metric), night.nitems);
	pl_gate_night_release(&night);
	return 0;
}

int pl_history_gate_night(struct pl_history *hs, size_t nh, const struct pl_gate_night *night,
                          long long first_run)
{
	size_t s = 0;

	while (s < night->nseries && night->series[s].first_run != first_run)
		s++;
	if (s == night->nseries)
		return 0;
	for (size_t k = 0; k < nh; k++)
		if (hs[k].npoints) {
			apply(&hs[k], item_of(night, s, hs[k].metric), night->nitems);
			hs[k].gate_superseded = night->series[s].superseded;
			hs[k].gate_change[0] = '\0';
			for (size_t t = 0; hs[k].gate_superseded && t < night->nseries; t++)
				if (night->series[t].predecessor == s && night->series[t].change)
					snprintf(hs[k].gate_change, sizeof(hs[k].gate_change), "%s",
					         night->series[t].change);
		}
	return 1;
}
