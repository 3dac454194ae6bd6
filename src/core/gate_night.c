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

/* 1 if condition id is a version of the serving stack that a team
 * upgrades in place: a series whose runs differ from an earlier one only in
 * these continues it across the change. */
static int is_upgrade(int id)
{
	return id == PL_C_ENGINE_VERSION || id == PL_C_DRIVER_VERSION || id == PL_C_CUDA_VERSION ||
	       id == PL_C_BENCHMARK_TOOL_VERSION;
}

/* 1 if a and b agree on every key condition but the upgrades (is_upgrade),
 * load included, and on their extra conditions: b can continue a across a
 * change (another model, hardware, precision or engine is another series,
 * never judged against a's level). */
static int same_but_upgrade(const struct pl_run *a, const struct pl_run *b)
{
	for (int c = 0; c < PL_COND_COUNT; c++)
		if (is_key(c) && !is_upgrade(c) && !value_same(&a->cond[c], &b->cond[c]))
			return 0;
	return pl_run_extras_equal(a, b);
}

/* Appends s to the growing text *buf (len *len, cap *cap); 0 or PL_ENOMEM. */
static int cat(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);

	if (PL_ALLOC_GROW(*buf, *len + n + 1, *cap))
		return PL_ENOMEM;
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

/* One series of a selection held in memory: a view of its runs. */
struct slice {
	struct pl_run_list view; /* v points into the shallow copies; not owned */
};

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

/* What the night keeps of one metric of one series until it is decided. */
struct part {
	int have;               /* the metric has values in the series: a check */
	int decides;            /* its latest point has a median: a candidate */
	size_t c;               /* the candidate's index among the medians */
	int own_started;        /* judged on its own, it has too few points */
	struct pl_gate_item it; /* the check judged on its own (labels owned) */
	struct pending own;     /* its baseline judged on its own */
	int pred_ok;            /* 1: pred holds a window */
	struct pending pred;    /* as a predecessor across a change: the window a
	                           point after its last is judged against */
	char *pred_first;       /* labels of that window's first and last points; owned */
	char *pred_last;
};

/* One series while building (gate_night.h's builder). */
struct pl_gate_gseries {
	struct pl_run *owned_rep;  /* the first run, when taken from the caller; owned */
	const struct pl_run *rep;  /* its first run (by id): owned_rep or the caller's */
	long long first_id;
	char *first_time;          /* earliest run_started_at text, or NULL; owned */
	char *last_time;           /* latest, or NULL; owned */
	char *latest;              /* its latest point's label; owned */
	size_t npoints;            /* points of its first metric with a median */
	long long *failed_ids;     /* failed runs of its latest point; owned */
	size_t nfailed;
	struct pl_msgs caveats;    /* distinct caveats of its histories */
	struct part *parts;        /* one per metric of the builder; owned */
};

static int cmp_gseries(const void *pa, const void *pb)
{
	const struct pl_gate_gseries *a = pa, *b = pb;
	return (a->first_id > b->first_id) - (a->first_id < b->first_id);
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

/* The window a point after the last of h is judged against — the series'
 * level, as a series that continues it across a change of condition with
 * too few points of its own is judged — into pt->pred and its labels
 * (pt->pred_ok 0 when it has too few points for one). y[0..ny) are h's
 * medians (y has room for one more), at their point indexes. Returns 0 or
 * PL_ENOMEM. */
static int pred_window(const struct pl_gate_night_opts *o, int dir, const struct pl_history *h,
                       double *y, const size_t *at, size_t ny, struct part *pt)
{
	size_t floor_, open = (size_t)-1, from, to;
	struct pl_gate_item labels;

	if (ny == 0)
		return 0;
	y[ny] = y[ny - 1];
	floor_ = y_index(at, ny, pl_history_window_floor(h, h->npoints));
	for (size_t k = 0; k < h->nsteps; k++)
		if (h->steps[k].fails && !h->steps[k].accepted && open == (size_t)-1 &&
		    y_index(at, ny, h->steps[k].index) > floor_)
			open = y_index(at, ny, h->steps[k].index);
	pl_gate_baseline(y, ny, floor_, open, o->window, dir, &o->gate, &from, &to);
	if (to - from < PL_GATE_MIN_WINDOW)
		return 0;
	memset(&labels, 0, sizeof(labels));
	if (take_window(&pt->pred, &labels, y, at, h, from, to)) {
		item_release(&labels);
		return PL_ENOMEM;
	}
	pt->pred_first = labels.base_first;
	pt->pred_last = labels.base_last;
	pt->pred_ok = 1;
	return 0;
}

/* The check of metric m judged on its own into pt (candidate: the last of
 * y[0..ny), the medians of h at their point indexes at). Returns 0 or
 * PL_ENOMEM. */
static int own_check(const struct pl_gate_night_builder *b, int m, const struct pl_history *h,
                     const double *y, const size_t *at, size_t ny, struct part *pt)
{
	size_t c = ny - 1, floor_, open = (size_t)-1, from, to;
	const struct pl_history_point *cp = &h->points[at[c]];

	pt->decides = 1;
	pt->c = c;
	pt->it.latest = y[c];
	pt->it.accepted = pl_accepted_find(b->accepted, m, cp->run_ids, cp->n);
	if (c < PL_GATE_MIN_WINDOW) {
		pt->own_started = 1;
		return 0;
	}
	floor_ = y_index(at, ny, pl_history_window_floor(h, at[c]));
	/* an accepted point is the new normal even before a step is seen there */
	for (size_t k = floor_ + 1; k < c; k++) {
		const struct pl_history_point *pp = &h->points[at[k]];
		if (pl_accepted_find(b->accepted, m, pp->run_ids, pp->n))
			floor_ = k;
	}
	for (size_t k = 0; k < h->nsteps; k++) {
		size_t yi = y_index(at, ny, h->steps[k].index);
		if (h->steps[k].fails && !h->steps[k].accepted && open == (size_t)-1 && yi > floor_ &&
		    yi <= c)
			open = yi;
	}
	pl_gate_baseline(y, c, floor_, open, b->opts->window, pl_metric_info[m].direction,
	                 &b->opts->gate, &from, &to);
	if (to - from < PL_GATE_MIN_WINDOW) /* too few since an accepted step */
		return 0;
	if (take_window(&pt->own, &pt->it, y, at, h, from, to) ||
	    (to < c && dup_or_null(&pt->it.open_since, point_label(&h->points[at[to]]))))
		return PL_ENOMEM;
	return 0;
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


/* Metric k of b for series g of runs: its history, what it contributes to
 * the series' latest point and caveats, the check judged on its own and
 * the window it offers a successor. Returns 0, PL_ENOMEM or the history's
 * error (err set). */
static int series_part(const struct pl_gate_night_builder *b, struct pl_gate_gseries *g,
                       size_t k, const struct pl_run_list *runs, struct pl_error *err)
{
	const struct pl_gate_night_opts *o = b->opts;
	struct part *pt = &g->parts[k];
	int m = b->metrics[k], rc;
	struct pl_history h;
	double *y = NULL;
	size_t *at = NULL, ny;

	rc = pl_history_build_grouped(runs, o->group, m, &o->allow, b->accepted, &h, err);
	if (rc == PL_EEMPTY || rc == PL_EMISMATCH) { /* no value of m here: not a check */
		pl_history_release(&h);
		return 0;
	}
	if (rc)
		goto done;
	y = malloc((h.npoints + 1) * sizeof(double));
	at = malloc((h.npoints + 1) * sizeof(size_t));
	if (!y || !at || keep_caveats(&g->caveats, &h.cmp.caveats))
		goto oom;
	ny = medians_of(&h, y, at);
	pt->have = 1;
	pt->it.metric = m;
	pt->it.verdict = PL_V_TOO_FEW;
	if (!g->latest && h.npoints) { /* the first metric names the series' night */
		const struct pl_history_point *lp = &h.points[h.npoints - 1];
		if (dup_or_null(&g->latest, point_label(lp)))
			goto oom;
		g->npoints = ny;
		if (lp->nfailed) {
			if (!(g->failed_ids = malloc(lp->nfailed * sizeof(long long))))
				goto oom;
			memcpy(g->failed_ids, lp->failed_ids, lp->nfailed * sizeof(long long));
			g->nfailed = lp->nfailed;
		}
	}
	if (pred_window(o, pl_metric_info[m].direction, &h, y, at, ny, pt))
		goto oom;
	/* every run of the series failed, or of its latest point (a failed
	 * night fails the series, series.nfailed, and judges no metric) */
	if (ny == 0 || h.points[h.npoints - 1].n == 0)
		goto done;
	if (own_check(b, m, &h, y, at, ny, pt))
		goto oom;
	goto done;
oom:
	rc = pl_error_set(err, PL_ENOMEM, "out of memory");
done:
	free(y);
	free(at);
	pl_history_release(&h);
	return rc;
}

static void gseries_release(struct pl_gate_gseries *g, size_t nparts)
{
	if (g->owned_rep)
		pl_run_release(g->owned_rep);
	free(g->owned_rep);
	free(g->first_time);
	free(g->last_time);
	free(g->latest);
	free(g->failed_ids);
	pl_msgs_release(&g->caveats);
	for (size_t k = 0; g->parts && k < nparts; k++) {
		struct part *pt = &g->parts[k];
		item_release(&pt->it);
		free(pt->own.window);
		free(pt->pred.window);
		free(pt->pred_first);
		free(pt->pred_last);
	}
	free(g->parts);
}

int pl_gate_night_begin(struct pl_gate_night_builder *b, const struct pl_gate_night_opts *opts,
                        const struct pl_accepted_list *accepted, struct pl_error *err)
{
	const int *metrics;
	size_t n;

	memset(b, 0, sizeof(*b));
	if (!opts || opts->window < 1 || opts->group < 0 || opts->group >= PL_G_COUNT)
		return pl_error_set(err, PL_EUSAGE, "gate: needs a group and window:N with N >= 1");
	b->opts = opts;
	b->accepted = accepted;
	if (opts->nmetrics) {
		metrics = opts->metrics;
		n = opts->nmetrics;
	} else {
		metrics = pl_compare_default_metrics(&n);
	}
	for (size_t k = 0; k < n; k++) {
		int dup = 0;
		for (size_t j = 0; j < b->nmetrics; j++)
			dup |= b->metrics[j] == metrics[k];
		if (!dup && b->nmetrics < PL_METRIC_COUNT)
			b->metrics[b->nmetrics++] = metrics[k];
	}
	return 0;
}

int pl_gate_night_add(struct pl_gate_night_builder *b, struct pl_run_list *runs, int take,
                      struct pl_error *err)
{
	struct pl_gate_gseries *g;
	const char *first = NULL, *last = NULL;
	size_t rep = 0;
	int rc;

	if (!runs->n)
		return 0;
	if (PL_ALLOC_GROW(b->series, b->nseries + 1, b->cap))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	g = &b->series[b->nseries++]; /* counted now: released whatever happens */
	memset(g, 0, sizeof(*g));
	if (!(g->parts = calloc(b->nmetrics + 1, sizeof(*g->parts))))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t i = 0; i < runs->n; i++) {
		const struct pl_value *v = &runs->v[i].cond[PL_C_RUN_STARTED_AT];
		const char *t = v->set ? v->text : NULL;
		if (runs->v[i].id < runs->v[rep].id)
			rep = i;
		if (t && (!first || strcmp(t, first) < 0))
			first = t;
		if (t && (!last || strcmp(t, last) > 0))
			last = t;
	}
	g->first_id = runs->v[rep].id;
	if (dup_or_null(&g->first_time, first) || dup_or_null(&g->last_time, last))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t k = 0; k < b->nmetrics; k++)
		if ((rc = series_part(b, g, k, runs, err)))
			return rc;
	if (!take) {
		g->rep = &runs->v[rep];
		return 0;
	}
	if (!(g->owned_rep = malloc(sizeof(*g->owned_rep))))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	/* taken: its conditions and extras alone (what labels, families and
	 * predecessors read); the caller's list releases the rest */
	pl_run_init(g->owned_rep);
	memcpy(g->owned_rep->cond, runs->v[rep].cond, sizeof(g->owned_rep->cond));
	memset(runs->v[rep].cond, 0, sizeof(runs->v[rep].cond));
	g->owned_rep->extra = runs->v[rep].extra;
	g->owned_rep->nextra = runs->v[rep].nextra;
	g->owned_rep->extra_cap = runs->v[rep].extra_cap;
	runs->v[rep].extra = NULL;
	runs->v[rep].nextra = 0;
	runs->v[rep].extra_cap = 0;
	g->owned_rep->id = runs->v[rep].id;
	g->rep = g->owned_rep;
	return 0;
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
static int name_series(const struct pl_gate_gseries *sl, size_t n,
                       const struct pl_gate_night_opts *opts, struct pl_gate_night *out)
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
	/* predecessors: the same but for an upgrade of the stack (same load,
	 * model, hardware, ...), ended before it began; the one that ended last */
	for (size_t s = 0; s < n; s++) {
		size_t best = (size_t)-1;
		if (!sl[s].first_time)
			continue;
		for (size_t p = 0; p < n; p++) {
			if (p == s || !sl[p].last_time || !same_but_upgrade(sl[p].rep, sl[s].rep) ||
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
 * order into shallow, and one slice per key into sl (their count in *nsl). */
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
		/* shallow copies: the views only read them and never free them */
		memcpy(&shallow[i], &runs->v[kx[i].i], sizeof(shallow[i]));
		if (i == 0 || strcmp(kx[i].key, kx[i - 1].key) != 0)
			sl[(*nsl)++].view.v = &shallow[i];
		sl[*nsl - 1].view.n++;
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

/* The check of part pt of series s (index s of out, g in the builder) as
 * item it with its window pd: judged on its own, or across the change
 * from its predecessor when it has too few points of its own. */
static int take_check(const struct pl_gate_night_builder *b, struct pl_gate_night *out, size_t s,
                      size_t k, struct pl_gate_item *it, struct pending *pd)
{
	struct pl_gate_series *se = &out->series[s];
	struct part *pt = &b->series[s].parts[k];
	const struct part *pp;

	*it = pt->it; /* moved: the item owns the labels now */
	memset(&pt->it, 0, sizeof(pt->it));
	*pd = pt->own;
	memset(&pt->own, 0, sizeof(pt->own));
	it->series = s;
	if (!pt->decides || pt->c >= PL_GATE_OWN_MIN || se->predecessor == (size_t)-1) {
		se->started |= pt->own_started;
		return 0;
	}
	item_release(it);
	it->base_first = it->base_last = it->open_since = NULL;
	it->nbase = 0;
	free(pd->window);
	memset(pd, 0, sizeof(*pd));
	pp = &b->series[se->predecessor].parts[k];
	if (!pp->have || !pp->pred_ok) {
		se->started = 1;
		return 0;
	}
	if (!(pd->window = malloc(pp->pred.nwindow * sizeof(double))))
		return PL_ENOMEM;
	memcpy(pd->window, pp->pred.window, pp->pred.nwindow * sizeof(double));
	pd->nwindow = it->nbase = pp->pred.nwindow;
	it->across = 1;
	if (dup_or_null(&it->base_first, pp->pred_first) || dup_or_null(&it->base_last, pp->pred_last))
		return PL_ENOMEM;
	return 0;
}

/* The series of b into out (labels, families, predecessors; the latest
 * point of each that is gated) and their checks into out->items with
 * their windows into *pd (*npd of them). Returns 0 or PL_ENOMEM. */
static int take_series(struct pl_gate_night_builder *b, struct pl_gate_night *out,
                       struct pending **pd, size_t *npd)
{
	size_t cap_items = 0, cap_pd = 0;

	qsort(b->series, b->nseries, sizeof(*b->series), cmp_gseries);
	if (!(out->series = calloc(b->nseries, sizeof(*out->series))))
		return PL_ENOMEM;
	out->nseries = b->nseries;
	if (name_series(b->series, b->nseries, b->opts, out))
		return PL_ENOMEM;
	for (size_t s = 0; s < b->nseries; s++) {
		struct pl_gate_series *se = &out->series[s];
		struct pl_gate_gseries *g = &b->series[s];

		if (se->superseded) /* not gated: it has no night of its own */
			continue;
		se->latest = g->latest;
		se->npoints = g->npoints;
		se->failed_ids = g->failed_ids;
		se->nfailed = g->nfailed;
		g->latest = NULL;
		g->failed_ids = NULL;
		if (keep_caveats(&out->caveats, &g->caveats))
			return PL_ENOMEM;
		for (size_t k = 0; k < b->nmetrics; k++) {
			if (!g->parts[k].have)
				continue;
			if (PL_ALLOC_GROW(out->items, out->nitems + 1, cap_items) ||
			    PL_ALLOC_GROW(*pd, out->nitems + 1, cap_pd))
				return PL_ENOMEM;
			*npd = ++out->nitems; /* counted now: released whatever happens */
			if (take_check(b, out, s, k, &out->items[out->nitems - 1], &(*pd)[out->nitems - 1]))
				return PL_ENOMEM;
		}
	}
	return 0;
}

int pl_gate_night_finish(struct pl_gate_night_builder *b, struct pl_gate_night *out,
                         struct pl_error *err)
{
	struct pending *pd = NULL;
	struct pl_gate_check *checks = NULL;
	struct pl_gate_verdict *verd = NULL;
	size_t npd = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->window = b->opts->window;
	out->group = b->opts->group;
	out->gate = b->opts->gate;
	if (b->nseries == 0)
		return pl_error_set(err, PL_EEMPTY, "no run in the selection");
	if (take_series(b, out, &pd, &npd))
		goto oom;
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
	if ((rc = pl_gate_decide(checks, out->nitems, &b->opts->gate, verd, err)))
		goto done;
	for (size_t s = 0; s < out->nseries; s++) {
		out->nfailed_series += out->series[s].nfailed > 0 && !out->series[s].superseded;
		out->nstarted += out->series[s].started;
	}
	set_verdicts(out, verd);
	goto done;
oom:
	rc = pl_error_set(err, PL_ENOMEM, "out of memory");
done:
	for (size_t i = 0; i < npd; i++)
		free(pd[i].window);
	free(pd);
	free(checks);
	free(verd);
	return rc;
}

void pl_gate_night_builder_release(struct pl_gate_night_builder *b)
{
	if (!b)
		return;
	for (size_t s = 0; s < b->nseries; s++)
		gseries_release(&b->series[s], b->nmetrics + 1);
	free(b->series);
	memset(b, 0, sizeof(*b));
}

int pl_gate_night_build(const struct pl_run_list *runs, const struct pl_gate_night_opts *opts,
                        const struct pl_accepted_list *accepted, struct pl_gate_night *out,
                        struct pl_error *err)
{
	struct pl_gate_night_builder b;
	struct keyed *kx = NULL;
	struct pl_run *shallow = NULL;
	struct slice *sl = NULL;
	size_t nsl = 0, nkx = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = pl_gate_night_begin(&b, opts, accepted, err)))
		goto done;
	if (runs->n) {
		kx = calloc(runs->n, sizeof(*kx));
		shallow = malloc(runs->n * sizeof(*shallow));
		sl = calloc(runs->n, sizeof(*sl));
		if (!kx || !shallow || !sl || split_series(runs, kx, &nkx, shallow, sl, &nsl)) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			goto done;
		}
	}
	for (size_t i = 0; i < nsl && !rc; i++)
		rc = pl_gate_night_add(&b, &sl[i].view, 0, err);
	if (!rc)
		rc = pl_gate_night_finish(&b, out, err);
done:
	pl_gate_night_builder_release(&b);
	for (size_t i = 0; i < nkx; i++)
		free(kx[i].key);
	free(kx);
	free(shallow);
	free(sl);
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
