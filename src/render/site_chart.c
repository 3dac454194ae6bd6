/*
 * site_chart.c — the site's charts of a metric's history: a struct
 * pl_history mapped to the timeline svg.c draws (svg.h: points with their
 * interval, level, label and commit, the rolling window's prediction band,
 * steps named by commit, date ticks), for the index row's sparkline and
 * the chart on each metric's section of a series page. See site_impl.h.
 */
#include "render/site_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/history.h"
#include "render/render_impl.h"
#include "render/svg.h"

/* Date ticks along a time axis that spans this many days or more. */
#define DATE_TICKS 5

void pl_site_point_x(const struct pl_history *h, double *xs)
{
	double t0 = NAN, t1 = NAN;
	int ok = 1;

	for (size_t i = 0; i < h->npoints; i++) {
		xs[i] = h->points[i].t;
		if (!isfinite(xs[i]))
			ok = 0;
	}
	if (ok && h->npoints) {
		t0 = xs[0];
		t1 = xs[h->npoints - 1];
	}
	for (size_t i = 0; i < h->npoints; i++)
		xs[i] = ok && t1 > t0 ? (xs[i] - t0) / (t1 - t0)
		        : h->npoints > 1 ? (double)i / (double)(h->npoints - 1)
		                         : 0.5;
}

/* The commit of run id in runs (ordered by id), NULL when unknown. */
static const char *commit_of(const struct pl_run_list *runs, long long id)
{
	size_t lo = 0, hi = runs ? runs->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (runs->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (runs && lo < runs->n && runs->v[lo].id == id)
		return runs->v[lo].build[PL_B_COMMIT];
	return NULL;
}

/* The timeline of a history and the storage it points into. */
struct timeline {
	struct pl_svg_timeline t;
	struct pl_svg_tpoint *points; /* h->npoints; owned */
	struct pl_svg_step *steps;    /* h->nsteps; owned */
	char (*step_text)[96];        /* each step's label; owned */
	struct pl_svg_tick ticks[DATE_TICKS];
	char days[DATE_TICKS][32];    /* the ticks' labels */
};

static void timeline_release(struct timeline *tl)
{
	free(tl->points);
	free(tl->steps);
	free(tl->step_text);
}

/* The date ticks of h: DATE_TICKS evenly in time on a time axis that spans
 * DATE_TICKS - 1 days or more, the first and last day otherwise; none when
 * a time does not parse. */
static void timeline_ticks(struct timeline *tl, const struct pl_history *h)
{
	double t0, t1;
	int nt;

	if (!h->npoints)
		return;
	t0 = h->points[0].t;
	t1 = h->points[h->npoints - 1].t;
	if (!isfinite(t0) || !isfinite(t1))
		return;
	nt = h->time_axis && t1 - t0 >= 86400.0 * (DATE_TICKS - 1) ? DATE_TICKS : 2;
	for (int k = 0; k < nt; k++) {
		tl->ticks[k].x = (double)k / (nt - 1);
		tl->ticks[k].label = pl_site_fmt_day(tl->days[k], sizeof(tl->days[k]),
		                                     t0 + (t1 - t0) * k / (nt - 1));
	}
	tl->t.nticks = (size_t)nt;
}

/* The rolling window's prediction band around the latest point: the
 * interval the latest median was judged against (history's latest). */
static void timeline_band(struct timeline *tl, const struct pl_history *h, const double *xs)
{
	size_t from;

	if (h->latest_verdict == PL_V_TOO_FEW || !isfinite(h->latest.bound_low) ||
	    !isfinite(h->latest.bound_high) || h->latest_point >= h->npoints)
		return;
	from = h->latest_point > h->latest.n_old ? h->latest_point - h->latest.n_old : 0;
	tl->t.band.on = 1;
	tl->t.band.x0 = xs[from];
	tl->t.band.x1 = xs[h->latest_point];
	tl->t.band.lo = h->latest.bound_low;
	tl->t.band.hi = h->latest.bound_high;
}

/* The timeline of h (points at xs from pl_site_point_x) into tl: each
 * point's median, interval, level, label and (runs given, ordered by id)
 * commit; each step's place, change and commit; the ticks and the band.
 * tl points into h until timeline_release(). Returns 0 or PL_ENOMEM. */
static int timeline_of(struct timeline *tl, const struct pl_history *h, const double *xs,
                       const struct pl_run_list *runs)
{
	const struct pl_metric_info *mi = &pl_metric_info[h->metric];

	memset(tl, 0, sizeof(*tl));
	tl->points = calloc(h->npoints ? h->npoints : 1, sizeof(*tl->points));
	tl->steps = calloc(h->nsteps ? h->nsteps : 1, sizeof(*tl->steps));
	tl->step_text = calloc(h->nsteps ? h->nsteps : 1, sizeof(*tl->step_text));
	if (!tl->points || !tl->steps || !tl->step_text) {
		timeline_release(tl);
		return PL_ENOMEM;
	}
	for (size_t i = 0; i < h->npoints; i++) {
		const struct pl_history_point *p = &h->points[i];
		struct pl_svg_tpoint *q = &tl->points[i];
		q->x = xs[i];
		q->y = p->s.median;
		q->lo = p->s.ci_low;
		q->hi = p->s.ci_high;
		q->ci = p->s.ci_valid != 0;
		q->level = p->level;
		q->n = p->n;
		q->nfailed = p->nfailed;
		q->label = p->value.text;
		q->commit = runs && p->n > 0 ? commit_of(runs, p->run_ids[0]) : NULL;
	}
	for (size_t k = 0; k < h->nsteps; k++) {
		const struct pl_history_step *s = &h->steps[k];
		char ch[64];
		snprintf(tl->step_text[k], sizeof(tl->step_text[k]), "%s%s",
		         pl_fmt_change(ch, sizeof(ch), s->rel_change, mi->direction),
		         s->accepted ? " (accepted)" : "");
		tl->steps[k].x = (xs[s->index - 1] + xs[s->index]) / 2;
		tl->steps[k].label = tl->step_text[k];
		tl->steps[k].commit = commit_of(runs, s->first_run);
		tl->steps[k].kind = s->accepted ? PL_SVG_STEP_ACCEPTED
		                    : s->fails  ? PL_SVG_STEP_FAILING
		                                : PL_SVG_STEP_PLAIN;
	}
	tl->t.name = mi->name;
	tl->t.unit = pl_unit_label(mi->unit);
	tl->t.points = tl->points;
	tl->t.npoints = h->npoints;
	tl->t.steps = tl->steps;
	tl->t.nsteps = h->nsteps;
	tl->t.ticks = tl->ticks;
	timeline_ticks(tl, h);
	timeline_band(tl, h, xs);
	return 0;
}

int pl_site_sparkline(FILE *f, const struct pl_history *h, const double *xs)
{
	struct timeline tl;
	int rc;

	if ((rc = timeline_of(&tl, h, xs, NULL)))
		return rc;
	rc = pl_svg_sparkline(f, &tl.t);
	timeline_release(&tl);
	return rc;
}

int pl_site_chart(FILE *f, const struct pl_history *h, const double *xs,
                  const struct pl_run_list *runs)
{
	struct timeline tl;
	int rc;

	if ((rc = timeline_of(&tl, h, xs, runs)))
		return rc;
	rc = pl_svg_timeline(f, &tl.t);
	timeline_release(&tl);
	return rc;
}
