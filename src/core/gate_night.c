/*
 * gate_night.c — every series of a selection gated in one call (see
 * gate_night.h): split the runs by condition key, name the series by what
 * tells them apart, find families and changes of condition, pick each
 * check's baseline, then let pl_gate_decide() judge the night.
 */
#include "core/gate_night.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/condkey.h"
#include "core/normalize.h"
#include "core/series_label.h"
#include "util/alloc.h"

int pl_gate_is_load(int id)
{
	return id == PL_C_CONCURRENCY || id == PL_C_REQUEST_RATE || id == PL_C_INPUT_TOKENS ||
	       id == PL_C_MAX_OUTPUT_TOKENS || id == PL_C_NUM_PROMPTS || id == PL_C_BURSTINESS;
}

/* A key condition (part of the series' identity). */
static int is_key(int id)
{
	return (pl_cond_info[id].flags & PL_CF_KEY) != 0;
}

static int value_same(const struct pl_value *a, const struct pl_value *b)
{
	if (a->set != b->set)
		return 0;
	return !a->set || pl_value_equal(a, b);
}

/* 1 if a and b agree on every key condition, load conditions included when
 * with_load, and on their extra conditions. */
static int same_but_load(const struct pl_run *a, const struct pl_run *b, int with_load)
{
	for (int c = 0; c < PL_COND_COUNT; c++)
		if (is_key(c) && (with_load || !pl_gate_is_load(c)) && !value_same(&a->cond[c], &b->cond[c]))
			return 0;
	return pl_run_extras_equal(a, b);
}

/* 1 if a and b agree on every load condition. */
static int same_load(const struct pl_run *a, const struct pl_run *b)
{
	for (int c = 0; c < PL_COND_COUNT; c++)
		if (is_key(c) && pl_gate_is_load(c) && !value_same(&a->cond[c], &b->cond[c]))
			return 0;
	return 1;
}

/* Appends s to the growing text *buf (len *len, cap *cap); 0 or PL_ENOMEM. */
static int cat(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);

	if (*len + n + 1 > *cap) {
		size_t want = (*len + n + 1) * 2;
		char *p = realloc(*buf, want);
		if (!p)
			return PL_ENOMEM;
		*buf = p;
		*cap = want;
	}
	memcpy(*buf + *len, s, n + 1);
	*len += n;
	return 0;
}

static const char *text_of(const struct pl_value *v)
{
	return v->set && v->text ? v->text : "-";
}

struct keyed {
	char *key;      /* condition key text; owned */
	size_t i;       /* index into runs */
};

static int cmp_keyed(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);
	if (c)
		return c;
	return (a->i > b->i) - (a->i < b->i);
}

/* One series while building: a view of its runs. */
struct slice {
	struct pl_run_list view; /* v points into the shallow copies; not owned */
	const struct pl_run *rep; /* its first run (by id) */
	long long first_id;
	const char *first_time;  /* earliest run_started_at text, or NULL */
	const char *last_time;   /* latest, or NULL */
};

static int cmp_slice(const void *pa, const void *pb)
{
	const struct slice *a = pa, *b = pb;
	return (a->first_id > b->first_id) - (a->first_id < b->first_id);
}

/* The label of point p ("" when it has no value). */
static const char *point_label(const struct pl_history_point *p)
{
	return p->value.text ? p->value.text : "";
}

static int dup_or_null(char **dst, const char *s)
{
	if (!s) {
		*dst = NULL;
		return 0;
	}
	return (*dst = strdup(s)) ? 0 : PL_ENOMEM;
}

/* Medians of h's points that have one into y (their point indexes into at);
 * returns their count. */
static size_t medians_of(const struct pl_history *h, double *y, size_t *at)
{
	size_t k = 0;

	for (size_t i = 0; i < h->npoints; i++)
		if (h->points[i].n > 0) {
			y[k] = h->points[i].s.median;
			at[k++] = i;
		}
	return k;
}

/* What one item needs until the night is decided. */
struct pending {
	double *window; /* owned */
	size_t nwindow;
};

static void item_release(struct pl_gate_item *it)
{
	free(it->base_first);
	free(it->base_last);
	free(it->open_since);
}

/* The index in y of point index p (the first median at or after it). */
static size_t y_index(const size_t *at, size_t ny, size_t p)
{
	size_t k = 0;
	while (k < ny && at[k] < p)
		k++;
	return k;
}

/* The baseline window y[from..to) of item it into pd, with the labels of
 * its first and last points (at: the point index of each y). Returns 0 or
 * PL_ENOMEM (nothing to release beyond what item_release() frees). */
static int take_window(struct pending *pd, struct pl_gate_item *it, const double *y,
                       const size_t *at, const struct pl_history *h, size_t from, size_t to)
{
	if (!(pd->window = malloc((to - from) * sizeof(double))))
		return PL_ENOMEM;
	memcpy(pd->window, y + from, (to - from) * sizeof(double));
	pd->nwindow = to - from;
	it->nbase = to - from;
	if (dup_or_null(&it->base_first, point_label(&h->points[at[from]])) ||
	    dup_or_null(&it->base_last, point_label(&h->points[at[to - 1]])))
		return PL_ENOMEM;
	return 0;
}

/* The baseline of item it across a change of condition (series se has too
 * few points of its own): the predecessor's last points into pd's window;
 * marks se started when the predecessor has too few for one. */
static int across_window(const struct slice *sl, struct pl_gate_series *se, int m,
                         const struct pl_gate_night_opts *o, const struct pl_accepted_list *accepted,
                         struct pl_gate_item *it, struct pending *pd, struct pl_error *err)
{
	struct pl_history hp;
	double *yp = NULL;
	size_t *atp = NULL, nyp, from;
	int dir = pl_metric_info[m].direction, rc;

	memset(&hp, 0, sizeof(hp));
	rc = pl_history_build_grouped(&sl[se->predecessor].view, o->group, m, &o->allow, accepted,
	                              &hp, err);
	if (rc == PL_EEMPTY || rc == PL_EMISMATCH) {
		rc = 0;
		goto started;
	}
	if (rc)
		goto done;
	yp = malloc((hp.npoints + 1) * sizeof(double));
	atp = malloc((hp.npoints + 1) * sizeof(size_t));
	if (!yp || !atp)
		goto oom;
	nyp = medians_of(&hp, yp, atp);
	{
		size_t last = nyp, floor_ = 0, open = (size_t)-1, to;
		if (nyp == 0)
			goto started;
		/* the predecessor's level: its own baseline for a point after its last */
		yp[nyp] = yp[nyp - 1];
		floor_ = y_index(atp, nyp, pl_history_window_floor(&hp, hp.npoints));
		for (size_t k = 0; k < hp.nsteps; k++)
			if (hp.steps[k].fails && !hp.steps[k].accepted && open == (size_t)-1 &&
			    y_index(atp, nyp, hp.steps[k].index) > floor_)
				open = y_index(atp, nyp, hp.steps[k].index);
		pl_gate_baseline(yp, last, floor_, open, o->window, dir, &o->gate, &from, &to);
		if (to - from < PL_GATE_MIN_WINDOW)
			goto started;
		it->across = 1;
		if (take_window(pd, it, yp, atp, &hp, from, to))
			goto oom;
	}
	goto done;
started:
	se->started = 1;
	goto done;
oom:
	rc = pl_error_set(err, PL_ENOMEM, "out of memory");
done:
	free(yp);
	free(atp);
	pl_history_release(&hp);
	return rc;
}

/* Adds to night the caveats of l it does not hold yet (pl_msg_equal).
 * Returns 0 or PL_ENOMEM. */
static int keep_caveats(struct pl_msgs *night, const struct pl_msgs *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct pl_msg c;
		int have = 0;

		for (size_t j = 0; j < night->n && !have; j++)
			have = pl_msg_equal(&night->v[j], &l->v[i]);
		if (have)
			continue;
		if (pl_msg_copy(&c, &l->v[i]))
			return PL_ENOMEM;
		if (pl_msgs_push(night, &c)) /* c released */
			return PL_ENOMEM;
	}
	return 0;
}

/* Fills item (and its pending window) for series s, metric m. */
static int gate_item(const struct slice *sl, size_t s, int m, const struct pl_gate_night_opts *o,
                     const struct pl_accepted_list *accepted, struct pl_gate_night *out,
                     struct pl_gate_item *it, struct pending *pd, int *have, struct pl_error *err)
{
	struct pl_gate_series *se = &out->series[s];
	struct pl_history h;
	double *y = NULL;
	size_t *at = NULL, ny, c;
	int dir = pl_metric_info[m].direction, rc;

	*have = 0;
	rc = pl_history_build_grouped(&sl[s].view, o->group, m, &o->allow, accepted, &h, err);
	if (rc == PL_EEMPTY || rc == PL_EMISMATCH) { /* no value of m here: not a check */
		pl_history_release(&h);
		return 0;
	}
	if (rc)
		goto done;
	if (keep_caveats(&out->caveats, &h.cmp.caveats)) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto done;
	}
	y = malloc((h.npoints + 1) * sizeof(double));
	at = malloc((h.npoints + 1) * sizeof(size_t));
	if (!y || !at) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto done;
	}
	ny = medians_of(&h, y, at);
	memset(it, 0, sizeof(*it));
	it->series = s;
	it->metric = m;
	it->verdict = PL_V_TOO_FEW;
	if (!se->latest && h.npoints) { /* the first metric names the series' night */
		const struct pl_history_point *lp = &h.points[h.npoints - 1];
		if (dup_or_null(&se->latest, point_label(lp)))
			goto oom;
		se->npoints = ny;
		if (lp->nfailed) {
			if (!(se->failed_ids = malloc(lp->nfailed * sizeof(long long))))
				goto oom;
			memcpy(se->failed_ids, lp->failed_ids, lp->nfailed * sizeof(long long));
			se->nfailed = lp->nfailed;
		}
	}
	*have = 1;
	/* every run of the series failed, or of its latest point (a failed
	 * night fails the series, series.nfailed, and judges no metric) */
	if (ny == 0 || h.points[h.npoints - 1].n == 0)
		goto done;
	c = ny - 1;
	it->latest = y[c];
	{
		const struct pl_history_point *cp = &h.points[at[c]];
		it->accepted = pl_accepted_find(accepted, m, cp->run_ids, cp->n);
	}
	if (c < PL_GATE_OWN_MIN && se->predecessor != (size_t)-1) {
		rc = across_window(sl, se, m, o, accepted, it, pd, err);
		goto done;
	}
	if (c < PL_GATE_MIN_WINDOW)
		goto started;
	{
		size_t floor_ = y_index(at, ny, pl_history_window_floor(&h, at[c])), open = (size_t)-1;
		size_t from, to;
		/* an accepted point is the new normal even before a step is seen there */
		for (size_t k = floor_ + 1; k < c; k++) {
			const struct pl_history_point *pp = &h.points[at[k]];
			if (pl_accepted_find(accepted, m, pp->run_ids, pp->n))
				floor_ = k;
		}
		for (size_t k = 0; k < h.nsteps; k++) {
			size_t yi = y_index(at, ny, h.steps[k].index);
			if (h.steps[k].fails && !h.steps[k].accepted && open == (size_t)-1 && yi > floor_ &&
			    yi <= c)
				open = yi;
		}
		pl_gate_baseline(y, c, floor_, open, o->window, dir, &o->gate, &from, &to);
		if (to - from < PL_GATE_MIN_WINDOW) /* too few since an accepted step */
			goto done;
		if (take_window(pd, it, y, at, &h, from, to) ||
		    (to < c && dup_or_null(&it->open_since, point_label(&h.points[at[to]]))))
			goto oom;
	}
	goto done;
started:
	se->started = 1;
	goto done;
oom:
	rc = pl_error_set(err, PL_ENOMEM, "out of memory");
done:
	free(y);
	free(at);
	pl_history_release(&h);
	return rc;
}

/* The label source of run r (its conditions and extras). */
static struct pl_label_src label_src(const struct pl_run *r)
{
	struct pl_label_src src = {r->cond, NULL, r->extra, r->nextra};
	return src;
}

/* Labels (core/series_label.h: the identity, then what tells the series
 * from its siblings — the series of the same identity — and the conditions
 * opts names), families and predecessors of the series sl[0..n). */
static int name_series(const struct slice *sl, size_t n, const struct pl_gate_night_opts *opts,
                       struct pl_gate_night *out)
{
	struct pl_label_src *src = n ? malloc(n * sizeof(*src)) : NULL;
	char **labels = n ? malloc(n * sizeof(*labels)) : NULL;
	struct pl_label_siblings named;
	int rc = 0;

	if (n && (!src || !labels)) {
		free(src);
		free(labels);
		return PL_ENOMEM;
	}
	memcpy(named.differs, opts->named, sizeof(named.differs));
	named.extras = opts->named_extras;
	for (size_t s = 0; s < n; s++)
		src[s] = label_src(sl[s].rep);
	rc = pl_series_labels(src, n, &named, "all runs", labels);
	free(src);
	if (rc) {
		free(labels);
		return rc;
	}
	for (size_t s = 0; s < n; s++) {
		struct pl_gate_series *se = &out->series[s];
		const struct pl_run *r = sl[s].rep;

		se->first_run = sl[s].first_id;
		se->predecessor = (size_t)-1;
		se->label = labels[s];
		se->family = s;
		for (size_t f = 0; f < s; f++)
			if (same_but_load(sl[f].rep, r, 0)) {
				se->family = out->series[f].family;
				break;
			}
	}
	free(labels);
	/* predecessors: same load, other conditions differ, ended before it began;
	 * the one that ended last */
	for (size_t s = 0; s < n; s++) {
		size_t best = (size_t)-1;
		if (!sl[s].first_time)
			continue;
		for (size_t p = 0; p < n; p++) {
			if (p == s || !sl[p].last_time || !same_load(sl[p].rep, sl[s].rep) ||
			    same_but_load(sl[p].rep, sl[s].rep, 1))
				continue;
			if (strcmp(sl[p].last_time, sl[s].first_time) >= 0)
				continue;
			if (best == (size_t)-1 || strcmp(sl[p].last_time, sl[best].last_time) > 0)
				best = p;
		}
		if (best != (size_t)-1) {
			struct pl_gate_series *se = &out->series[s];
			char *buf = NULL;
			size_t len = 0, cap = 0;
			int first = 1;
			se->predecessor = best;
			out->series[best].superseded = 1;
			if (cat(&buf, &len, &cap, ""))
				return PL_ENOMEM;
			for (int c = 0; c < PL_COND_COUNT; c++) {
				if (!is_key(c) || value_same(&sl[best].rep->cond[c], &sl[s].rep->cond[c]))
					continue;
				if ((!first && cat(&buf, &len, &cap, ", ")) ||
				    cat(&buf, &len, &cap, pl_cond_info[c].name) || cat(&buf, &len, &cap, " ") ||
				    cat(&buf, &len, &cap, text_of(&sl[best].rep->cond[c])) ||
				    cat(&buf, &len, &cap, " -> ") ||
				    cat(&buf, &len, &cap, text_of(&sl[s].rep->cond[c]))) {
					free(buf);
					return PL_ENOMEM;
				}
				first = 0;
			}
			se->change = buf;
		}
	}
	return 0;
}

/* Splits runs into series by condition key: each run's key into kx (their
 * count in *nkx, for the caller to free), shallow copies of the runs in key
 * order into shallow, and one slice per key into sl (their count in *nsl),
 * not yet sorted. */
static int split_series(const struct pl_run_list *runs, struct keyed *kx, size_t *nkx,
                        struct pl_run *shallow, struct slice *sl, size_t *nsl)
{
	for (size_t i = 0; i < runs->n; i++, (*nkx)++) {
		struct pl_cond_key key;
		if (pl_cond_key_make(&runs->v[i], &key))
			return PL_ENOMEM;
		kx[i].key = key.text;
		kx[i].i = i;
	}
	qsort(kx, runs->n, sizeof(*kx), cmp_keyed);
	for (size_t i = 0; i < runs->n; i++) {
		const struct pl_run *r = &runs->v[kx[i].i];
		const char *t = r->cond[PL_C_RUN_STARTED_AT].set ? r->cond[PL_C_RUN_STARTED_AT].text : NULL;
		struct slice *cur;
		/* shallow copies: the views only read them and never free them */
		memcpy(&shallow[i], r, sizeof(*r));
		if (i == 0 || strcmp(kx[i].key, kx[i - 1].key) != 0) {
			cur = &sl[(*nsl)++];
			cur->view.v = &shallow[i];
			cur->rep = r;
			cur->first_id = r->id;
		}
		cur = &sl[*nsl - 1];
		cur->view.n++;
		if (r->id < cur->first_id) {
			cur->first_id = r->id;
			cur->rep = r;
		}
		if (t && (!cur->first_time || strcmp(t, cur->first_time) < 0))
			cur->first_time = t;
		if (t && (!cur->last_time || strcmp(t, cur->last_time) > 0))
			cur->last_time = t;
	}
	return 0;
}

/* Each item's verdict from the night's decision verd, and the night's counts. */
static void set_verdicts(struct pl_gate_night *out, const struct pl_gate_verdict *verd)
{
	for (size_t i = 0; i < out->nitems; i++) {
		struct pl_gate_item *it = &out->items[i];
		it->g = verd[i];
		if (!verd[i].decidable)
			it->verdict = PL_V_TOO_FEW;
		else if (verd[i].red && it->accepted)
			it->verdict = PL_V_ACCEPTED;
		else if (verd[i].red)
			it->verdict = PL_V_REGRESSION;
		else if (verd[i].better)
			it->verdict = PL_V_IMPROVEMENT;
		else
			it->verdict = PL_V_NO_CHANGE;
		if (it->verdict != PL_V_ACCEPTED)
			it->accepted = NULL;
		out->nred += it->verdict == PL_V_REGRESSION;
		out->naccepted += it->verdict == PL_V_ACCEPTED;
		out->nimprovements += it->verdict == PL_V_IMPROVEMENT;
		out->ndecidable += it->verdict != PL_V_TOO_FEW;
	}
}

int pl_gate_night_build(const struct pl_run_list *runs, const struct pl_gate_night_opts *opts,
                        const struct pl_accepted_list *accepted, struct pl_gate_night *out,
                        struct pl_error *err)
{
	struct keyed *kx = NULL;
	struct pl_run *shallow = NULL;
	struct slice *sl = NULL;
	struct pending *pd = NULL;
	struct pl_gate_check *checks = NULL;
	struct pl_gate_verdict *verd = NULL;
	const int *metrics;
	size_t nmetrics, nsl = 0, nkx = 0, cap_items = 0, cap_pd = 0, npd = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!opts || opts->window < 1 || opts->group < 0 || opts->group >= PL_G_COUNT)
		return pl_error_set(err, PL_EUSAGE, "gate: needs a group and window:N with N >= 1");
	out->window = opts->window;
	out->group = opts->group;
	out->gate = opts->gate;
	if (runs->n == 0)
		return pl_error_set(err, PL_EEMPTY, "no run in the selection");
	kx = calloc(runs->n, sizeof(*kx));
	shallow = malloc(runs->n * sizeof(*shallow));
	sl = calloc(runs->n, sizeof(*sl));
	if (!kx || !shallow || !sl)
		goto oom;
	if (split_series(runs, kx, &nkx, shallow, sl, &nsl))
		goto oom;
	qsort(sl, nsl, sizeof(*sl), cmp_slice);
	if (!(out->series = calloc(nsl, sizeof(*out->series))))
		goto oom;
	out->nseries = nsl;
	if (name_series(sl, nsl, opts, out))
		goto oom;

	if (opts->nmetrics) {
		metrics = opts->metrics;
		nmetrics = opts->nmetrics;
	} else {
		metrics = pl_compare_default_metrics(&nmetrics);
	}
	for (size_t s = 0; s < nsl; s++) {
		if (out->series[s].superseded)
			continue;
		for (size_t k = 0; k < nmetrics; k++) {
			int have = 0, dup = 0;
			for (size_t j = 0; j < k; j++)
				dup |= metrics[j] == metrics[k];
			if (dup)
				continue;
			if (PL_ALLOC_GROW(out->items, out->nitems + 1, cap_items) ||
			    PL_ALLOC_GROW(pd, out->nitems + 1, cap_pd))
				goto oom;
			if (out->nitems < npd) /* a slot an item without values left */
				free(pd[out->nitems].window);
			memset(&pd[out->nitems], 0, sizeof(*pd));
			if (npd < out->nitems + 1)
				npd = out->nitems + 1;
			if ((rc = gate_item(sl, s, metrics[k], opts, accepted, out, &out->items[out->nitems],
			                    &pd[out->nitems], &have, err)))
				goto done;
			if (have)
				out->nitems++;
		}
	}
	if (out->nitems == 0) {
		rc = pl_error_set(err, PL_EEMPTY,
		                  "no headline metric has values in the series; name one with --metric");
		goto done;
	}
	checks = calloc(out->nitems, sizeof(*checks));
	verd = calloc(out->nitems, sizeof(*verd));
	if (!checks || !verd)
		goto oom;
	for (size_t i = 0; i < out->nitems; i++) {
		const struct pl_gate_item *it = &out->items[i];
		checks[i].window = pd[i].window;
		checks[i].nwindow = pd[i].nwindow;
		checks[i].latest = it->latest;
		checks[i].direction = pl_metric_info[it->metric].direction;
		checks[i].metric = it->metric;
		checks[i].family = out->series[it->series].family;
	}
	if ((rc = pl_gate_decide(checks, out->nitems, &opts->gate, verd, err)))
		goto done;
	for (size_t s = 0; s < nsl; s++) {
		out->nfailed_series += out->series[s].nfailed > 0 && !out->series[s].superseded;
		out->nstarted += out->series[s].started;
	}
	set_verdicts(out, verd);
	goto done;
oom:
	rc = pl_error_set(err, PL_ENOMEM, "out of memory");
done:
	for (size_t i = 0; i < nkx; i++)
		free(kx[i].key);
	free(kx);
	free(shallow);
	free(sl);
	for (size_t i = 0; i < npd; i++) /* only the slots initialised above */
		free(pd[i].window);
	free(pd);
	free(checks);
	free(verd);
	return rc;
}

void pl_gate_night_release(struct pl_gate_night *night)
{
	if (!night)
		return;
	for (size_t s = 0; s < night->nseries; s++) {
		free(night->series[s].label);
		free(night->series[s].latest);
		free(night->series[s].failed_ids);
		free(night->series[s].change);
	}
	free(night->series);
	for (size_t i = 0; i < night->nitems; i++)
		item_release(&night->items[i]);
	free(night->items);
	pl_msgs_release(&night->caveats);
	memset(night, 0, sizeof(*night));
}
