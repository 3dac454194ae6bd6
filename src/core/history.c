/*
 * history.c — builds the history of one metric: comparator check, points,
 * step detection over the point medians, marking accepted steps. See
 * history.h.
 */
#include "core/history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/normalize.h"
#include "core/ranges.h"

/* Confidence level of the per-point interval of the median. */
#define HISTORY_CI_LEVEL 0.95
/* The latest point's test: check's defaults (check.h). */
#define PL_HISTORY_ALPHA 0.05
#define PL_HISTORY_THRESHOLD 0.05
/* Most trailing regressions left out of the latest point's window. */
#define PL_HISTORY_TRAILING_MAX 3

int pl_history_by_valid(int cond)
{
	return cond == PL_C_RUN_STARTED_AT || cond == PL_C_ENGINE_VERSION ||
	       cond == PL_C_DRIVER_VERSION;
}

static const char *const group_names[PL_G_COUNT] = {"run",    "day",            "build",
                                                    "commit", "engine_version", "driver_version"};

const char *pl_group_name(int g)
{
	return g >= 0 && g < PL_G_COUNT ? group_names[g] : NULL;
}

int pl_group_lookup(const char *name)
{
	for (int g = 0; name && g < PL_G_COUNT; g++)
		if (strcmp(name, group_names[g]) == 0)
			return g;
	return -1;
}

int pl_group_axis(int g)
{
	return g == PL_G_ENGINE_VERSION ? PL_C_ENGINE_VERSION
	       : g == PL_G_DRIVER_VERSION ? PL_C_DRIVER_VERSION
	                                  : PL_C_RUN_STARTED_AT;
}

int pl_group_is_time(int g)
{
	return g == PL_G_RUN || g == PL_G_DAY || g == PL_G_BUILD || g == PL_G_COMMIT;
}

int pl_group_of_by(int cond)
{
	return cond == PL_C_RUN_STARTED_AT    ? PL_G_RUN
	       : cond == PL_C_ENGINE_VERSION ? PL_G_ENGINE_VERSION
	       : cond == PL_C_DRIVER_VERSION ? PL_G_DRIVER_VERSION
	                                     : -1;
}

const char *pl_verdict_name(enum pl_verdict v)
{
	switch (v) {
	case PL_V_REGRESSION:
		return "regression";
	case PL_V_ACCEPTED:
		return "accepted";
	case PL_V_IMPROVEMENT:
		return "improvement";
	case PL_V_WITHIN:
		return "within threshold";
	case PL_V_CHANGED:
		return "changed";
	case PL_V_NO_CHANGE:
		return "no change";
	case PL_V_TOO_FEW:
		return "too few samples";
	}
	return "?";
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms", days_from_civil). */
static long long days_from_civil(long long y, unsigned m, unsigned d)
{
	long long era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long long)doe - 719468;
}

/* Seconds since the epoch of a stored time text ("YYYY-MM-DDTHH:MM[:SS...]";
 * the store keeps UTC with 'Z', a zone-less time is read as UTC); NAN when
 * text is not of that shape. */
static double time_of(const char *t)
{
	int v[6] = {0};
	static const int at[6] = {0, 5, 8, 11, 14, 17};
	static const int len[6] = {4, 2, 2, 2, 2, 2};

	if (!t || strlen(t) < 16)
		return NAN;
	for (int k = 0; k < 6; k++) {
		if (k == 5 && t[16] != ':')
			break;
		for (int i = 0; i < len[k]; i++) {
			char c = t[at[k] + i];
			if (c < '0' || c > '9')
				return NAN;
			v[k] = v[k] * 10 + (c - '0');
		}
	}
	if (v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31)
		return NAN;
	return (double)days_from_civil(v[0], (unsigned)v[1], (unsigned)v[2]) * 86400.0 +
	       v[3] * 3600.0 + v[4] * 60.0 + v[5];
}

/* One usable run, with what ordering and grouping need. */
struct item {
	size_t i;            /* index in the run list */
	const char *key;     /* group label: the build id, commit or day text ("YYYY-MM-DD"
	                        borrowed from run_started_at: compared on 10 bytes); NULL
	                        for run and version groups */
	double t;            /* time_of(run_started_at) */
	double first_t;      /* earliest t of its group (time groups), for ordering */
	long long first_id;  /* lowest id among the runs of that earliest time */
};

/* Sorting context: merge sort takes it explicitly (qsort cannot). */
struct order {
	const struct pl_run_list *runs;
	int group;
};

/* Order of runs inside and across points: group value (versions), or the
 * group's earliest run (time groups), then run_started_at, then id. */
static int item_cmp(const struct item *a, const struct item *b, const struct order *o)
{
	const struct pl_run *ra = &o->runs->v[a->i], *rb = &o->runs->v[b->i];
	int c = 0;

	if (!pl_group_is_time(o->group)) {
		int axis = pl_group_axis(o->group);
		c = pl_value_cmp(axis, &ra->cond[axis], &rb->cond[axis]);
	} else if (o->group != PL_G_RUN) {
		/* points by their earliest run; a run without a time sorts last */
		if (a->first_t != b->first_t && !(isnan(a->first_t) && isnan(b->first_t)))
			c = isnan(a->first_t) ? 1 : isnan(b->first_t) ? -1 : a->first_t < b->first_t ? -1 : 1;
		if (c == 0)
			c = a->first_id < b->first_id ? -1 : a->first_id > b->first_id;
	}
	if (c == 0)
		c = pl_value_cmp(PL_C_RUN_STARTED_AT, &ra->cond[PL_C_RUN_STARTED_AT],
		                 &rb->cond[PL_C_RUN_STARTED_AT]);
	if (c == 0)
		c = ra->id < rb->id ? -1 : ra->id > rb->id;
	return c;
}

/* Stable merge sort of v[0..n) with tmp of n: O(n log n) whatever the input. */
static void merge_sort(struct item *v, struct item *tmp, size_t n, const struct order *o)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	merge_sort(v, tmp, h, o);
	merge_sort(v + h, tmp, n - h, o);
	while (i < h && j < n)
		tmp[k++] = item_cmp(&v[j], &v[i], o) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

/* Label comparison for grouping (days compare their 10-byte date). */
static int key_cmp(const char *a, const char *b, int group)
{
	return group == PL_G_DAY ? strncmp(a, b, 10) : strcmp(a, b);
}

static int cmp_str_items(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);
	return c ? c : a->t < b->t ? -1 : a->t > b->t ? 1 : a->i < b->i ? -1 : a->i > b->i;
}

/* For build and commit: every item gets its group's earliest time and id.
 * Sorts a copy by label (O(n log n)) and spreads each label's minimum. */
static int spread_group_first(struct item *v, size_t n, const struct pl_run_list *runs,
                              struct pl_error *err)
{
	struct item *c = malloc(n * sizeof(*c));

	if (!c)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t k = 0; k < n; k++) {
		c[k] = v[k];
		c[k].i = k; /* position in v; the run index stays in v */
		c[k].t = isnan(v[k].t) ? INFINITY : v[k].t;
	}
	qsort(c, n, sizeof(*c), cmp_str_items);
	for (size_t a = 0; a < n;) {
		size_t b = a + 1;
		double first = c[a].t;
		long long id = runs->v[v[c[a].i].i].id;
		while (b < n && strcmp(c[a].key, c[b].key) == 0) {
			long long idb = runs->v[v[c[b].i].i].id;
			if (c[b].t == first && idb < id)
				id = idb;
			b++;
		}
		for (size_t k = a; k < b; k++) {
			v[c[k].i].first_t = isinf(first) ? NAN : first;
			v[c[k].i].first_id = id;
		}
		a = b;
	}
	free(c);
	return 0;
}

/* Fills one point from the items it[0..n) (one group value). */
static int build_point(const struct pl_run_list *runs, const struct item *it, size_t n,
                       int group, int metric, struct pl_history_point *p, struct pl_error *err)
{
	double *vals = malloc(n * sizeof(*vals));
	const struct pl_run *r0 = &runs->v[it[0].i];
	char day[11];
	size_t k = 0;
	int rc;

	p->run_ids = malloc(n * sizeof(*p->run_ids));
	p->failed_ids = malloc(n * sizeof(*p->failed_ids));
	if (!vals || !p->run_ids || !p->failed_ids) {
		free(vals);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	p->t = NAN;
	for (size_t i = 0; i < n; i++) {
		const struct pl_run *r = &runs->v[it[i].i];
		if (!isnan(it[i].t) && (isnan(p->t) || it[i].t < p->t))
			p->t = it[i].t;
		if (pl_run_failed(r)) { /* a failure mark, never a sample */
			p->failed_ids[p->nfailed++] = r->id;
			continue;
		}
		p->run_ids[k] = r->id;
		vals[k++] = r->metric[metric];
	}
	p->n = n = k;
	p->level = NAN;
	p->value.set = 1;
	switch (group) {
	case PL_G_DAY:
		snprintf(day, sizeof(day), "%.10s", it[0].key);
		rc = pl_strset(&p->value.text, day);
		if (!isnan(p->t))
			p->t = floor(p->t / 86400.0) * 86400.0; /* the day, drawn at its start */
		break;
	case PL_G_BUILD:
	case PL_G_COMMIT:
		rc = pl_strset(&p->value.text, it[0].key);
		break;
	default: {
		int axis = pl_group_axis(group);
		p->value.num = r0->cond[axis].num;
		rc = pl_strset(&p->value.text, r0->cond[axis].text);
		break;
	}
	}
	if (rc) {
		free(vals);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (n == 0) { /* every run at this value failed */
		free(vals);
		memset(&p->s, 0, sizeof(p->s));
		p->s.median = NAN;
		return 0;
	}
	rc = pl_stats_summarize(vals, n, HISTORY_CI_LEVEL, &p->s, err);
	free(vals);
	return rc;
}

/* Finds the steps over the point medians and fills levels and steps. */
static int detect(struct pl_history *h, const struct pl_accepted_list *accepted,
                  struct pl_error *err)
{
	size_t np = 0, *idx = NULL, nidx = 0;
	double *y = malloc((h->npoints ? h->npoints : 1) * sizeof(*y)), *levels = NULL;
	size_t *at = malloc((h->npoints ? h->npoints : 1) * sizeof(*at)); /* y[i]'s point */
	enum pl_direction dir = pl_metric_info[h->metric].direction;
	int rc;

	if (!y || !at) {
		free(y);
		free(at);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	/* the points with a median: failed-only points take no part */
	for (size_t i = 0; i < h->npoints; i++)
		if (h->points[i].n > 0) {
			at[np] = i;
			y[np++] = h->points[i].s.median;
		}
	if (np == 0) {
		free(y);
		free(at);
		return 0;
	}
	h->detected = np >= 2 * PL_STATS_STEP_MIN_SEGMENT;
	if ((rc = pl_stats_noise_sigma(y, np, &h->sigma, err)))
		goto done;
	if (h->detected && (rc = pl_stats_detect_steps(y, np, 0, &idx, &nidx, err)))
		goto done;
	levels = malloc((nidx + 1) * sizeof(*levels));
	h->steps = calloc(nidx ? nidx : 1, sizeof(*h->steps));
	if (!levels || !h->steps) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto done;
	}
	if ((rc = pl_stats_segment_levels(y, np, idx, nidx, levels, err)))
		goto done;
	for (size_t i = 0, seg = 0; i < np; i++) {
		if (seg < nidx && i == idx[seg])
			seg++;
		h->points[at[i]].level = levels[seg];
	}
	for (size_t k = 0; k < nidx; k++) {
		struct pl_history_step *s = &h->steps[k];
		const struct pl_history_point *p = &h->points[at[idx[k]]];
		double d = levels[k + 1] - levels[k];

		s->index = at[idx[k]];
		s->before = levels[k];
		s->after = levels[k + 1];
		s->rel_change = levels[k] != 0 ? d / fabs(levels[k]) : d > 0 ? INFINITY : -INFINITY;
		if (dir == PL_LOWER_IS_BETTER) {
			s->worse = d > 0;
			s->better = d < 0;
		} else if (dir == PL_HIGHER_IS_BETTER) {
			s->worse = d < 0;
			s->better = d > 0;
		}
		s->first_run = p->run_ids[0];
		s->accepted = pl_accepted_find(accepted, h->metric, p->run_ids, p->n);
		s->fails = !s->accepted && (s->worse || dir == PL_NO_DIRECTION) &&
		           fabs(s->rel_change) > PL_HISTORY_THRESHOLD;
		h->nfailing += s->fails;
	}
	h->nsteps = nidx;
	rc = 0;
done:
	free(y);
	free(at);
	free(idx);
	free(levels);
	return rc;
}

/* The group label of run for group g (see struct item), or NULL when the run
 * has none. */
static const char *label_of(const struct pl_run *r, int g)
{
	switch (g) {
	case PL_G_DAY:
		return r->cond[PL_C_RUN_STARTED_AT].set && r->cond[PL_C_RUN_STARTED_AT].text &&
		               strlen(r->cond[PL_C_RUN_STARTED_AT].text) >= 10
		           ? r->cond[PL_C_RUN_STARTED_AT].text
		           : NULL;
	case PL_G_BUILD:
		return r->build[PL_B_BUILD_ID];
	case PL_G_COMMIT:
		return r->build[PL_B_COMMIT];
	default:
		return NULL;
	}
}

/* 1 if items a and b fall in one point. */
static int same_point(const struct pl_run_list *runs, const struct item *a, const struct item *b,
                      int g)
{
	switch (g) {
	case PL_G_RUN: /* runs started at the same time pool, as --by run_started_at did */
		return pl_value_equal(&runs->v[a->i].cond[PL_C_RUN_STARTED_AT],
		                      &runs->v[b->i].cond[PL_C_RUN_STARTED_AT]);
	case PL_G_DAY:
	case PL_G_BUILD:
	case PL_G_COMMIT:
		return key_cmp(a->key, b->key, g) == 0;
	default: {
		int axis = pl_group_axis(g);
		return pl_value_equal(&runs->v[a->i].cond[axis], &runs->v[b->i].cond[axis]);
	}
	}
}

size_t pl_history_window_floor(const struct pl_history *h, size_t at)
{
	size_t from = 0;

	for (size_t k = 0; k < h->nsteps; k++)
		if (h->steps[k].accepted && h->steps[k].index < at && h->steps[k].index > from)
			from = h->steps[k].index;
	return from;
}

/* Point `at` against the (up to) PL_HISTORY_WINDOW_DEFAULT point medians
 * before index `end` (end <= at): *c gets the test; returns 0 or an error. *judged
 * is 0 when fewer than PL_STATS_PREDICTION_MIN points are there. */
static int judge_point(const struct pl_history *h, size_t at, size_t end, double *y,
                       struct pl_change *c, int *judged, struct pl_error *err)
{
	size_t w = 0, from = pl_history_window_floor(h, at);

	/* the medians before end, latest last; failed-only points have none */
	for (size_t i = end; i > from && w < PL_HISTORY_WINDOW_DEFAULT; i--)
		if (h->points[i - 1].n > 0)
			w++;
	*judged = w >= PL_STATS_PREDICTION_MIN && h->points[at].n > 0;
	if (!*judged)
		return 0;
	for (size_t i = end, k = w; i > from && k > 0; i--)
		if (h->points[i - 1].n > 0)
			y[--k] = h->points[i - 1].s.median;
	return pl_stats_compare_window(y, w, &h->points[at].s.median, 1,
	                                   pl_metric_info[h->metric].direction, PL_HISTORY_ALPHA,
	                                   PL_HISTORY_THRESHOLD, c, err);
}

/* The latest point against the window before it (history.h). The window
 * ends before the trailing run of points that are themselves regressions
 * against the points before them (at most PL_HISTORY_TRAILING_MAX): on the
 * second bad night the first must not be part of the "normal" level it is
 * judged against. */
static int judge_latest(struct pl_history *h, const struct pl_accepted_list *accepted,
                        struct pl_error *err)
{
	size_t np = h->npoints, end;
	double *y;
	const struct pl_history_point *last;
	int rc = 0, judged;

	h->latest_verdict = PL_V_TOO_FEW;
	if (np > 0 && h->points[np - 1].nfailed) {
		h->latest_failed = h->points[np - 1].nfailed; /* fails the gate (history.h) */
		h->nfailing++;
	}
	for (size_t i = 0; i < np; i++)
		h->nmedians += h->points[i].n > 0;
	while (np > 0 && h->points[np - 1].n == 0)
		np--; /* the latest point with a median: failed-only points are marks */
	h->latest_point = np ? np - 1 : 0;
	if (np < 2)
		return 0;
	if (!(y = malloc(PL_HISTORY_WINDOW_DEFAULT * sizeof(*y))))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	end = np - 1;
	for (size_t k = 0; k < PL_HISTORY_TRAILING_MAX && end > 0; k++) {
		struct pl_change c;
		const struct pl_accepted_step *acc;
		if (h->points[end - 1].n == 0) {
			end--;
			continue;
		}
		if ((rc = judge_point(h, end - 1, end - 1, y, &c, &judged, err)))
			goto done;
		if (!judged || pl_verdict_of(&c, pl_metric_info[h->metric].direction, NULL, h->metric,
		                             NULL, 0, &acc) != PL_V_REGRESSION)
			break;
		end--;
	}
	last = &h->points[np - 1];
	if ((rc = judge_point(h, np - 1, end, y, &h->latest, &judged, err)) || !judged)
		goto done;
	h->latest_verdict = pl_verdict_of(&h->latest, pl_metric_info[h->metric].direction, accepted,
	                                  h->metric, last->run_ids, last->n, &h->latest_accepted);
	if (h->latest_verdict == PL_V_REGRESSION)
		h->nfailing++;
done:
	free(y);
	return rc;
}

enum pl_verdict pl_verdict_of(const struct pl_change *c, enum pl_direction dir,
                              const struct pl_accepted_list *accepted, int metric,
                              const long long *ids, size_t n,
                              const struct pl_accepted_step **acc)
{
	*acc = NULL;
	if (!c->decidable)
		return PL_V_TOO_FEW;
	if (!c->significant)
		return PL_V_NO_CHANGE;
	if (c->worse) {
		*acc = pl_accepted_find(accepted, metric, ids, n);
		return *acc ? PL_V_ACCEPTED : PL_V_REGRESSION;
	}
	if (c->better)
		return PL_V_IMPROVEMENT;
	return dir == PL_NO_DIRECTION ? PL_V_CHANGED : PL_V_WITHIN;
}

int pl_history_build(const struct pl_run_list *runs, int by, int metric,
                     const struct pl_compare_opts *allow, const struct pl_accepted_list *accepted,
                     struct pl_history *out, struct pl_error *err)
{
	if (by < 0 || by >= PL_COND_COUNT || !pl_history_by_valid(by)) {
		memset(out, 0, sizeof(*out));
		out->by = by;
		out->metric = metric;
		return pl_error_set(err, PL_EUSAGE,
		                    "a history is ordered by run_started_at, engine_version or "
		                    "driver_version");
	}
	return pl_history_build_grouped(runs, pl_group_of_by(by), metric, allow, accepted, out, err);
}

/* The comparison options of a history along axis on metric, taking what
 * allow (may be NULL) lets mismatch, be extra or fail. */
static void history_compare_opts(int axis, int metric, const struct pl_compare_opts *allow,
                                 struct pl_compare_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->axis[0] = axis;
	opts->naxis = 1;
	opts->metrics[0] = metric;
	opts->nmetrics = 1;
	opts->failed_quiet = opts->implausible_quiet = 1; /* drawn, or left out below: no caveat */
	if (allow) {
		memcpy(opts->allow_mismatch, allow->allow_mismatch, sizeof(opts->allow_mismatch));
		memcpy(opts->allow_extra, allow->allow_extra, sizeof(opts->allow_extra));
		opts->nallow_extra = allow->nallow_extra;
		opts->allow_errors = allow->allow_errors;
		opts->subsets_min_rows = allow->subsets_min_rows;
	}
}

/* Pushes the caveat that out->skipped_implausible runs were left out,
 * naming the first of them (bad, which holds up to nbad ids). */
static int caveat_implausible(struct pl_history *out, const long long *bad, size_t nbad,
                              struct pl_error *err)
{
	struct pl_msg cav;
	size_t named = out->skipped_implausible < nbad ? out->skipped_implausible : nbad;

	pl_msg_init(&cav, PL_MSG_CAV_IMPLAUSIBLE_LEFT_OUT);
	pl_msg_field(&cav, pl_metric_info[out->metric].name);
	pl_msg_int(&cav, (long long)out->skipped_implausible);
	pl_msg_runs(&cav, bad, named);
	if (pl_msgs_push(&out->cmp.caveats, &cav))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	return 0;
}

int pl_history_build_grouped(const struct pl_run_list *runs, int group, int metric,
                             const struct pl_compare_opts *allow,
                             const struct pl_accepted_list *accepted, struct pl_history *out,
                             struct pl_error *err)
{
	struct pl_compare_opts opts;
	struct item *it = NULL, *tmp = NULL;
	struct order ord;
	long long bad[10]; /* the first runs whose value is implausible */
	size_t n = 0;
	int rc, axis;

	memset(out, 0, sizeof(*out));
	out->group = group;
	out->metric = metric;
	if (group < 0 || group >= PL_G_COUNT)
		return pl_error_set(err, PL_EUSAGE,
		                    "a history is grouped by run, day, build, commit, engine_version or "
		                    "driver_version");
	if (metric < 0 || metric >= PL_METRIC_COUNT)
		return pl_error_set(err, PL_EUSAGE, "unknown metric");
	axis = out->by = pl_group_axis(group);

	/* The comparator decides whether the runs are one condition key. */
	history_compare_opts(axis, metric, allow, &opts);
	if ((rc = pl_compare_build(runs, &opts, &out->cmp, err)))
		return rc;

	it = malloc((runs->n ? runs->n : 1) * sizeof(*it));
	tmp = malloc((runs->n ? runs->n : 1) * sizeof(*tmp));
	out->points = calloc(runs->n ? runs->n : 1, sizeof(*out->points));
	if (!it || !tmp || !out->points) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < runs->n; i++) {
		const struct pl_run *r = &runs->v[i];
		struct item *e = &it[n];
		int has = pl_group_is_time(group) ? r->cond[PL_C_RUN_STARTED_AT].set || group == PL_G_BUILD ||
		                                        group == PL_G_COMMIT
		                                  : r->cond[axis].set;

		e->i = i;
		e->key = label_of(r, group);
		e->t = time_of(r->cond[PL_C_RUN_STARTED_AT].set ? r->cond[PL_C_RUN_STARTED_AT].text : NULL);
		e->first_t = group == PL_G_DAY ? floor(e->t / 86400.0) * 86400.0 : e->t;
		e->first_id = 0;
		if (group != PL_G_RUN && pl_group_is_time(group) && !e->key)
			has = 0;
		if (group == PL_G_DAY && isnan(e->t))
			has = 0;
		if (!has)
			out->skipped_no_value++;
		else if (pl_run_failed(r)) {
			n++; /* a failure mark at its value */
			out->nfailed++;
		} else if (!r->has_metric[metric])
			out->skipped_no_metric++;
		else if (!pl_range_holds(metric, r->metric[metric])) {
			/* a ledger edited outside perfledger (import refuses such a
			 * value): it would stretch every range, level and step */
			if (out->skipped_implausible < sizeof(bad) / sizeof(bad[0]))
				bad[out->skipped_implausible] = r->id;
			out->skipped_implausible++;
		} else
			n++;
	}
	if (out->skipped_implausible &&
	    (rc = caveat_implausible(out, bad, sizeof(bad) / sizeof(bad[0]), err)))
		goto done;
	if (n == 0) {
		rc = pl_error_set(err, PL_EEMPTY, "no selected run has both %s and %s",
		                  group == PL_G_RUN || group == PL_G_DAY ? pl_cond_info[axis].name
		                  : group == PL_G_BUILD                   ? "build_id"
		                  : group == PL_G_COMMIT                  ? "commit"
		                                                          : pl_cond_info[axis].name,
		                  pl_metric_info[metric].name);
		goto done;
	}
	if ((group == PL_G_BUILD || group == PL_G_COMMIT) &&
	    (rc = spread_group_first(it, n, runs, err)))
		goto done;
	ord.runs = runs;
	ord.group = group;
	merge_sort(it, tmp, n, &ord);
	for (size_t start = 0; start < n;) {
		size_t end = start + 1;
		while (end < n && same_point(runs, &it[start], &it[end], group))
			end++;
		rc = build_point(runs, it + start, end - start, group, metric,
		                 &out->points[out->npoints], err);
		out->npoints++; /* counted even on failure so release frees it */
		if (rc)
			goto done;
		start = end;
	}
	out->nruns = n - out->nfailed;
	out->time_axis = pl_group_is_time(group);
	for (size_t i = 0; i < out->npoints; i++)
		if (isnan(out->points[i].t))
			out->time_axis = 0;
	if ((rc = detect(out, accepted, err)))
		goto done;
	rc = judge_latest(out, accepted, err);
done:
	free(it);
	free(tmp);
	return rc;
}

void pl_history_release(struct pl_history *h)
{
	if (!h)
		return;
	pl_comparison_release(&h->cmp);
	for (size_t i = 0; i < h->npoints; i++) {
		free(h->points[i].value.text);
		free(h->points[i].run_ids);
		free(h->points[i].failed_ids);
	}
	free(h->points);
	free(h->steps);
	memset(h, 0, sizeof(*h));
}
