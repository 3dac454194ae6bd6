/*
 * compare.c — builds a comparison, or refuses one, from selected runs.
 *
 * The rules are in compare.h. The order of work: check that every key
 * condition off the axis has one value across the runs (else refuse, listing
 * every field), then group runs by their axis values, take medians and
 * deltas against the first row, and collect caveats.
 */
#include "core/names.h"
#include "core/compare.h"
#include "core/compare_impl.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/normalize.h"
#include "core/stats.h"
#include "util/alloc.h"
#include "util/sort.h"

static const int default_metrics[] = {
	PL_M_TTFT_P50, PL_M_TTFT_P95,          PL_M_TPOT_P50,         PL_M_TPOT_P95,
	PL_M_ITL_P50,  PL_M_E2EL_P50,          PL_M_OUTPUT_THROUGHPUT, PL_M_TPS_P50,
	PL_M_REQUEST_THROUGHPUT, PL_M_ERROR_RATE,
};

const int *pl_compare_default_metrics(size_t *count)
{
	*count = sizeof(default_metrics) / sizeof(default_metrics[0]);
	return default_metrics;
}

int pl_compare_parse_axis(struct pl_compare_opts *opts, const char *list, struct pl_error *err)
{
	return pl_compare_parse_axis_named(opts, list, "--axis", err);
}

int pl_compare_parse_axis_named(struct pl_compare_opts *opts, const char *list, const char *what,
                                struct pl_error *err)
{
	const char *p = list;
	int option = strcmp(what, "--axis") == 0;

	opts->naxis = 0;
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char name[128];
		int id;

		if (len == 0 || len >= sizeof(name))
			return pl_error_set(err, PL_EUSAGE,
			                    option ? "bad %s '%s': expected FIELD[,FIELD...]"
			                           : "%s '%s' is bad: expected FIELD[,FIELD...]",
			                    what, list);
		memcpy(name, p, len);
		name[len] = '\0';
		id = pl_cond_lookup(name);
		if (id == PL_C_NONE) {
			char dym[96];
			return pl_error_set(err, PL_EUSAGE,
			                    "unknown condition '%s' in %s%s (see 'perfledger list --help')",
			                    name, what,
			                    pl_did_you_mean(dym, sizeof(dym), pl_cond_suggest(name)));
		}
		for (size_t i = 0; i < opts->naxis; i++)
			if (opts->axis[i] == id)
				return pl_error_set(err, PL_EUSAGE, "'%s' named twice in %s", name, what);
		opts->axis[opts->naxis++] = id;
		p += len;
		if (*p == ',')
			p++;
	}
	if (opts->naxis == 0)
		return pl_error_set(err, PL_EUSAGE, "%s needs at least one field", what);
	return 0;
}

static int value_copy(struct pl_value *dst, const struct pl_value *src)
{
	dst->set = src->set;
	dst->num = src->num;
	dst->text = NULL;
	return pl_strset(&dst->text, src->text);
}

/* The value of condition id in run i's set. */
static const struct pl_value *run_cond(const struct pl_run_columns *runs, size_t i, int id)
{
	return &runs->sets[runs->set[i]].cond[id];
}

double pl_compare_run_metric(const struct pl_run_columns *runs, size_t i, int m)
{
	return runs->metric[m] ? runs->metric[m][i] : NAN;
}

/* Sets in row order: by their axis fields in the order named (the fields
 * travelling with them have one value per row, check_travellers()). */
struct row_ctx {
	const struct pl_run_columns *runs;
	const struct pl_comparison *cmp;
};

static int row_cmp(const void *vctx, size_t a, size_t b)
{
	const struct row_ctx *ctx = vctx;
	const struct pl_run *x = &ctx->runs->sets[a], *y = &ctx->runs->sets[b];

	for (size_t k = 0; k < ctx->cmp->naxis; k++) {
		int id = ctx->cmp->axis[k];
		int c = pl_value_cmp(id, &x->cond[id], &y->cond[id]);
		if (c)
			return c;
	}
	return 0;
}

void pl_compare_free_strings(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* Groups of equal values of one field: value order; values that order
 * equal but are written differently (versions "1.0" and "1.00") in the
 * order the runs first bring them, as a stable sort of the runs would. */
struct value_ctx {
	const struct pl_run *sets; /* the condition sets */
	const size_t *rep;         /* per group: a set holding its value */
	const size_t *first;       /* per group: the first run (position) with it,
	                              or NULL: ties stay in group order */
	int id;                    /* the field */
};

static int value_order(const void *vctx, size_t a, size_t b)
{
	const struct value_ctx *ctx = vctx;
	int c = pl_value_cmp(ctx->id, &ctx->sets[ctx->rep[a]].cond[ctx->id],
	                     &ctx->sets[ctx->rep[b]].cond[ctx->id]);

	if (c || !ctx->first)
		return c;
	return ctx->first[a] < ctx->first[b] ? -1 : ctx->first[a] > ctx->first[b];
}

/* Collects the distinct values of field id over the runs, in value order,
 * as text ("(missing)" for missing). */
static int distinct_values(const struct pl_run_columns *runs, int id, char ***out, size_t *nout)
{
	struct set_groups g;
	size_t *order = NULL, *tmp = NULL, *first = NULL;
	char **vals = NULL;
	size_t n = 0;
	int rc = PL_ENOMEM;

	*out = NULL;
	*nout = 0;
	if (pl_compare_group_sets(runs, &id, 1, &g))
		return PL_ENOMEM;
	if (!(order = malloc(g.n * sizeof(*order))) || !(tmp = malloc(g.n * sizeof(*tmp))) ||
	    !(first = malloc(g.n * sizeof(*first))) || !(vals = calloc(g.n, sizeof(*vals))))
		goto out;
	for (size_t k = 0; k < g.n; k++)
		order[k] = k;
	{
		struct value_ctx ctx = {runs->sets, g.rep, NULL, id};
		int ties = 0;

		pl_compare_sort_indices(order, tmp, g.n, value_order, &ctx);
		for (size_t k = 1; k < g.n && !ties; k++)
			ties = value_order(&ctx, order[k - 1], order[k]) == 0;
		if (ties) { /* rare: order the tied values by their first run */
			for (size_t k = 0; k < g.n; k++)
				first[k] = SIZE_MAX;
			for (size_t i = 0; i < runs->n; i++) {
				size_t k = g.group[runs->set[i]];
				if (first[k] == SIZE_MAX)
					first[k] = i;
			}
			ctx.first = first;
			pl_compare_sort_indices(order, tmp, g.n, value_order, &ctx);
		}
	}
	for (n = 0; n < g.n; n++) {
		const struct pl_value *v = &runs->sets[g.rep[order[n]]].cond[id];
		if (!(vals[n] = strdup(v->set ? v->text : "(missing)")))
			goto out;
	}
	*out = vals;
	*nout = n;
	vals = NULL;
	rc = 0;
out:
	pl_compare_free_strings(vals, n);
	free(order);
	free(tmp);
	free(first);
	pl_compare_groups_release(&g);
	return rc;
}

void pl_compare_append(char *buf, size_t n, const char *s)
{
	size_t len = strlen(buf);
	if (len + 1 < n)
		snprintf(buf + len, n - len, "%s", s);
}

/* The workload that ran against the one requested (the MLPerf rule): a
 * run whose measured mean input (output) tokens per request differ from
 * input_tokens (max_output_tokens) by more than 10% did not run the workload
 * its conditions name; nor did an open-loop run whose request_throughput
 * is more than 10% below its request_rate (the server or the load
 * generator could not keep up: a finite rate only; above the rate is no
 * shortfall). Such a run refuses the comparison, naming the field with the
 * requested and measured values, unless the field is allowed to differ
 * (then a caveat). Returns 0 or PL_ENOMEM. */
static int check_workload(const struct pl_run_columns *runs, const struct pl_compare_opts *opts,
                          struct pl_comparison *cmp)
{
	static const int conds[3] = {PL_C_INPUT_TOKENS, PL_C_MAX_OUTPUT_TOKENS, PL_C_REQUEST_RATE};
	static const int means[3] = {PL_M_INPUT_TOKENS_MEAN, PL_M_OUTPUT_TOKENS_MEAN,
	                             PL_M_REQUEST_THROUGHPUT};
	static const enum pl_msg_code what[3] = {PL_MSG_W_MEASURED_MEAN, PL_MSG_W_MEASURED_MEAN,
	                                         PL_MSG_W_REQS_ACHIEVED};

	for (int k = 0; k < 3; k++) {
		if (!runs->metric[means[k]])
			continue;
		for (size_t i = 0; i < runs->n; i++) {
			const struct pl_value *c = run_cond(runs, i, conds[k]);
			double want, got = runs->metric[means[k]][i];
			char b[40];
			struct pl_mismatch *m;

			if (!c->set || isnan(got))
				continue;
			want = c->num;
			if (!(want > 0) || isinf(want) || fabs(got - want) <= 0.1 * want ||
			    (conds[k] == PL_C_REQUEST_RATE && got > want))
				continue;
			if (opts->allow_mismatch[conds[k]]) {
				struct pl_msg cav;
				pl_msg_init(&cav, PL_MSG_CAV_WORKLOAD_ALLOWED);
				pl_msg_int(&cav, runs->id[i]);
				pl_msg_field(&cav, pl_cond_info[conds[k]].name);
				pl_msg_text(&cav, c->text);
				pl_msg_num(&cav, pl_round_sig(got, 6));
				pl_msg_code_arg(&cav, what[k]);
				if (pl_msgs_push(&cmp->caveats, &cav))
					return PL_ENOMEM;
				continue;
			}
			if (PL_ALLOC_GROW(cmp->mismatches, cmp->nmismatches + 1, cmp->cap_mismatches))
				return PL_ENOMEM;
			m = &cmp->mismatches[cmp->nmismatches++];
			memset(m, 0, sizeof(*m));
			m->cond = conds[k];
			m->measured = (int)what[k];
			m->nvalues = 2;
			if (!(m->values = calloc(2, sizeof(char *))) ||
			    !(m->runs = calloc(2, sizeof(*m->runs))) ||
			    !(m->nruns = calloc(2, sizeof(*m->nruns))) ||
			    !(m->runs[1] = malloc(sizeof(**m->runs))))
				return PL_ENOMEM;
			m->runs[1][0] = runs->id[i];
			m->nruns[1] = 1;
			m->values[0] = strdup(c->text);
			m->values[1] = strdup(pl_fmt_num(b, sizeof(b), pl_round_sig(got, 6)));
			if (!m->values[0] || !m->values[1])
				return PL_ENOMEM;
		}
	}
	return 0;
}


int pl_compare_push_mismatch(struct pl_comparison *cmp, int cond, char **values, size_t nvalues)
{
	struct pl_mismatch *m;

	if (PL_ALLOC_GROW(cmp->mismatches, cmp->nmismatches + 1, cmp->cap_mismatches)) {
		pl_compare_free_strings(values, nvalues);
		return PL_ENOMEM;
	}
	m = &cmp->mismatches[cmp->nmismatches++];
	memset(m, 0, sizeof(*m));
	m->cond = cond;
	m->values = values;
	m->nvalues = nvalues;
	return 0;
}

/* Fills m->runs: for each of m's first PL_MISMATCH_RUN_VALUES values, the
 * runs (ids ascending) whose value of the field (condition id, or the
 * extra condition named extra when id is PL_C_NONE) is that text
 * ("(missing)": none), among the runs whose condition set has a nonzero
 * mask entry (mask NULL: every run). Returns 0 or PL_ENOMEM. */
static int attach_runs(const struct pl_run_columns *runs, struct pl_mismatch *m, int id,
                       const char *extra, const unsigned char *mask)
{
	size_t nv = m->nvalues < PL_MISMATCH_RUN_VALUES ? m->nvalues : PL_MISMATCH_RUN_VALUES;
	size_t *setidx = malloc((runs->nsets ? runs->nsets : 1) * sizeof(*setidx));

	if (!setidx || !(m->runs = calloc(m->nvalues, sizeof(*m->runs))) ||
	    !(m->nruns = calloc(m->nvalues, sizeof(*m->nruns)))) {
		free(setidx);
		return PL_ENOMEM;
	}
	for (size_t s = 0; s < runs->nsets; s++) {
		const char *t = NULL;

		setidx[s] = SIZE_MAX;
		if (mask && !mask[s])
			continue;
		if (id != PL_C_NONE)
			t = runs->sets[s].cond[id].set ? runs->sets[s].cond[id].text : NULL;
		else
			t = pl_run_extra(&runs->sets[s], extra);
		for (size_t k = 0; k < nv && setidx[s] == SIZE_MAX; k++)
			if (strcmp(t ? t : "(missing)", m->values[k]) == 0)
				setidx[s] = k;
	}
	for (size_t i = 0; i < runs->n; i++)
		if (setidx[runs->set[i]] != SIZE_MAX)
			m->nruns[setidx[runs->set[i]]]++;
	for (size_t k = 0; k < nv; k++) {
		if (m->nruns[k] && !(m->runs[k] = malloc(m->nruns[k] * sizeof(**m->runs)))) {
			free(setidx);
			return PL_ENOMEM;
		}
		m->nruns[k] = 0;
	}
	for (size_t i = 0; i < runs->n; i++) {
		size_t k = setidx[runs->set[i]];
		if (k != SIZE_MAX)
			m->runs[k][m->nruns[k]++] = runs->id[i];
	}
	for (size_t k = 0; k < nv; k++) {
		int sorted = 1;
		for (size_t j = 1; j < m->nruns[k] && sorted; j++)
			sorted = m->runs[k][j - 1] <= m->runs[k][j];
		if (!sorted)
			qsort(m->runs[k], m->nruns[k], sizeof(**m->runs), pl_cmp_ll);
	}
	free(setidx);
	return 0;
}

/* Open loop (request_rate known, concurrency missing) against closed loop
 * (concurrency known): the "(missing)" concurrency of a refusal says why. */
static int explain_loops(const struct pl_run_columns *runs, struct pl_comparison *cmp)
{
	int open = 0, closed = 0;

	for (size_t i = 0; i < runs->nsets; i++) {
		const struct pl_run *r = &runs->sets[i];
		if (!r->cond[PL_C_CONCURRENCY].set && r->cond[PL_C_REQUEST_RATE].set)
			open = 1;
		else if (r->cond[PL_C_CONCURRENCY].set)
			closed = 1;
	}
	if (!open || !closed)
		return 0;
	for (size_t i = 0; i < cmp->nmismatches; i++) {
		struct pl_mismatch *m = &cmp->mismatches[i];
		if (m->cond != PL_C_CONCURRENCY)
			continue;
		for (size_t k = 0; k < m->nvalues; k++)
			if (strcmp(m->values[k], "(missing)") == 0)
				m->open_loop = k + 1;
	}
	return 0;
}

/* Orders texts of condition id (-1: plain text): missing (NULL) last,
 * numbers numerically, versions and times as pl_value_cmp() orders them,
 * equal orders by bytes, so that equal texts end up next to each other. */
struct text_ctx {
	const char **values;
	int id;
};

static int text_order(const void *vctx, size_t x, size_t y)
{
	const struct text_ctx *ctx = vctx;
	const char *a = ctx->values[x], *b = ctx->values[y];
	int c = 0;

	if (!a || !b)
		return (a == NULL) - (b == NULL);
	if (ctx->id >= 0) {
		struct pl_value va = {1, 0, (char *)a}, vb = {1, 0, (char *)b};
		enum pl_ctype t = pl_cond_info[ctx->id].type;
		if (t != PL_CT_TEXT && t != PL_CT_VERSION && t != PL_CT_TIME) {
			pl_parse_num(a, 1, &va.num);
			pl_parse_num(b, 1, &vb.num);
		}
		c = pl_value_cmp(ctx->id, &va, &vb);
	}
	return c ? c : strcmp(a, b);
}

/* Distinct texts of values[0..n) (NULL = missing, shown "(missing)"), in
 * text_order(); *out is owned by the caller. A sort, not a scan per value:
 * a million runs can bring a hundred thousand differing values. */
static int distinct_texts(const char **values, size_t n, int id, char ***out, size_t *nout)
{
	struct text_ctx ctx = {values, id};
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx)), *tmp = malloc((n ? n : 1) * sizeof(*tmp));
	char **vals = calloc(n ? n : 1, sizeof(*vals));
	size_t nv = 0;
	int rc = PL_ENOMEM;

	*out = NULL;
	*nout = 0;
	if (!idx || !tmp || !vals)
		goto out;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	pl_compare_sort_indices(idx, tmp, n, text_order, &ctx);
	for (size_t i = 0; i < n; i++) {
		const char *t = values[idx[i]], *prev = i ? values[idx[i - 1]] : NULL;
		if (i && (t == prev || (t && prev && strcmp(t, prev) == 0)))
			continue;
		if (!(vals[nv] = strdup(t ? t : "(missing)")))
			goto out;
		nv++;
	}
	*out = vals;
	*nout = nv;
	vals = NULL;
	rc = 0;
out:
	pl_compare_free_strings(vals, nv);
	free(idx);
	free(tmp);
	return rc;
}

/* Adds a refused difference, with the runs holding each value (among the
 * runs whose set has a nonzero mask entry; NULL: all), or, when allowed,
 * its caveat. The field is condition cond or, when cond is PL_C_NONE, the
 * extra condition extra; within (may be NULL) the row it differs in; vals
 * are taken over. */
static int refuse_or_caveat(const struct pl_run_columns *runs, struct pl_comparison *cmp, int cond,
                            const char *extra, const char *within, const unsigned char *mask,
                            int allowed, char **vals, size_t nvals)
{
	const char *name = cond >= 0 ? pl_cond_info[cond].name : extra;
	struct pl_mismatch *m;

	if (allowed) {
		struct pl_msg cav;
		pl_msg_init(&cav, within ? PL_MSG_CAV_DIFFER_WITHIN_ALLOWED : PL_MSG_CAV_DIFFER_ALLOWED);
		pl_msg_field(&cav, name);
		if (within)
			pl_msg_text(&cav, within);
		pl_msg_list(&cav, (const char *const *)vals, nvals);
		pl_compare_free_strings(vals, nvals);
		return pl_msgs_push(&cmp->caveats, &cav);
	}
	if (pl_compare_push_mismatch(cmp, cond, vals, nvals))
		return PL_ENOMEM;
	m = &cmp->mismatches[cmp->nmismatches - 1];
	if ((extra && !(m->extra = strdup(extra))) || (within && !(m->within = strdup(within))))
		return PL_ENOMEM;
	return attach_runs(runs, m, cond, extra, mask);
}

/* A field that travels with an axis field (parallelism with hardware, ...)
 * may differ between rows but not inside one: runs with one hardware value
 * at tensor parallel 4 and 8 would pool into one median. Each such field
 * is checked per row (runs grouped by the axis fields); the first row where
 * it has more than one value is named. Returns 0 or PL_ENOMEM. */
static int check_travellers(const struct pl_run_columns *runs, const struct pl_compare_opts *opts,
                            struct pl_comparison *cmp)
{
	struct set_groups g;
	int axis_is[PL_COND_COUNT] = {0};
	int rc = 0;

	for (size_t k = 0; k < cmp->naxis; k++)
		axis_is[cmp->axis[k]] = 1;
	if (pl_compare_group_sets(runs, cmp->axis, cmp->naxis, &g))
		return PL_ENOMEM;
	for (int id = 0; id < PL_COND_COUNT && !rc; id++) {
		size_t bad = SIZE_MAX;

		if (!cmp->varies[id] || axis_is[id])
			continue;
		for (size_t i = 0; i < runs->nsets && bad == SIZE_MAX; i++)
			if (!pl_compare_same_value(runs, &runs->sets[i].cond[id],
			                &runs->sets[g.rep[g.group[i]]].cond[id]))
				bad = g.group[i];
		if (bad == SIZE_MAX)
			continue;
		{
			const char **vals = malloc(runs->nsets * sizeof(*vals));
			unsigned char *mask = calloc(runs->nsets ? runs->nsets : 1, 1);
			char within[400] = "", **dv;
			size_t nv = 0, ndv;
			const struct pl_run *rep = &runs->sets[g.rep[bad]];

			if (!vals || !mask) {
				free(vals);
				free(mask);
				rc = PL_ENOMEM;
				break;
			}
			for (size_t i = 0; i < runs->nsets; i++)
				if (g.group[i] == bad) {
					vals[nv++] = runs->sets[i].cond[id].set ? runs->sets[i].cond[id].text : NULL;
					mask[i] = 1;
				}
			for (size_t k = 0; k < cmp->naxis; k++) {
				const struct pl_value *v = &rep->cond[cmp->axis[k]];
				pl_compare_append(within, sizeof(within), k ? ", " : "");
				pl_compare_append(within, sizeof(within), pl_cond_info[cmp->axis[k]].name);
				pl_compare_append(within, sizeof(within), " ");
				pl_compare_append(within, sizeof(within), v->set ? v->text : "(missing)");
			}
			rc = distinct_texts(vals, nv, id, &dv, &ndv);
			free(vals);
			if (!rc)
				rc = refuse_or_caveat(runs, cmp, id, NULL, within, mask, opts->allow_mismatch[id],
				                      dv, ndv);
			free(mask);
		}
	}
	pl_compare_groups_release(&g);
	return rc;
}

static int extra_allowed(const struct pl_compare_opts *opts, const char *name)
{
	for (size_t i = 0; i < opts->nallow_extra; i++)
		if (strcmp(opts->allow_extra[i], name) == 0)
			return 1;
	return 0;
}

/* Appends copies of name and value to cmp->shared_extra. Returns 0 or
 * PL_ENOMEM. */
static int add_shared_extra(struct pl_comparison *cmp, const char *name, const char *value)
{
	struct pl_extra *e;

	if (PL_ALLOC_GROW(cmp->shared_extra, cmp->nshared_extra + 1, cmp->shared_extra_cap))
		return PL_ENOMEM;
	e = &cmp->shared_extra[cmp->nshared_extra];
	e->name = strdup(name);
	e->value = strdup(value);
	if (!e->name || !e->value) {
		free(e->name);
		free(e->value);
		return PL_ENOMEM;
	}
	cmp->nshared_extra++;
	return 0;
}

/* Extra conditions ("FORMAT.key") are conditions too: each name any run
 * has must have one value (missing counts as a value) across the runs.
 * Those every run has with one value go to cmp->shared_extra, in name
 * order. Returns 0 or PL_ENOMEM. */
static int check_extras(const struct pl_run_columns *runs, const struct pl_compare_opts *opts,
                        struct pl_comparison *cmp)
{
	const char **names = NULL, **vals = NULL;
	size_t nnames = 0, cap = 0;
	int rc = 0;

	for (size_t i = 0; i < runs->nsets; i++)
		for (size_t k = 0; k < runs->sets[i].nextra; k++) {
			const char *nm = runs->sets[i].extra[k].name;
			size_t j;
			for (j = 0; j < nnames && strcmp(names[j], nm) != 0; j++)
				;
			if (j < nnames)
				continue;
			if (PL_ALLOC_GROW(names, nnames + 1, cap)) {
				free(names);
				return PL_ENOMEM;
			}
			names[nnames++] = nm;
		}
	/* names in order, so refusals list them the same way every time */
	for (size_t i = 1; i < nnames; i++)
		for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			const char *t = names[j - 1];
			names[j - 1] = names[j];
			names[j] = t;
		}
	if (nnames && !(vals = malloc(runs->nsets * sizeof(*vals))))
		rc = PL_ENOMEM;
	for (size_t j = 0; j < nnames && !rc; j++) {
		int differ = 0;
		char **dv;
		size_t ndv;

		for (size_t i = 0; i < runs->nsets; i++) {
			vals[i] = pl_run_extra(&runs->sets[i], names[j]);
			if (i && (vals[i] == NULL) != (vals[0] == NULL))
				differ = 1;
			else if (i && vals[i] && strcmp(vals[i], vals[0]) != 0)
				differ = 1;
		}
		if (!differ) {
			if (vals[0])
				rc = add_shared_extra(cmp, names[j], vals[0]);
			continue;
		}
		rc = distinct_texts(vals, runs->nsets, -1, &dv, &ndv);
		if (!rc)
			rc = refuse_or_caveat(runs, cmp, PL_C_NONE, names[j], NULL, NULL,
			                      extra_allowed(opts, names[j]), dv, ndv);
	}
	free(vals);
	free(names);
	return rc;
}

/* Checks the key conditions; fills shared[], mismatches and caveats. */
static int check_conditions(const struct pl_run_columns *runs, const struct pl_compare_opts *opts,
                            struct pl_comparison *cmp, struct pl_error *err)
{
	const struct pl_run *first = &runs->sets[runs->set[0]];

	for (int id = 0; id < PL_COND_COUNT; id++) {
		int all_equal = 1;
		for (size_t i = 0; i < runs->nsets && all_equal; i++)
			all_equal = pl_compare_same_value(runs, &first->cond[id], &runs->sets[i].cond[id]);
		if (all_equal) {
			if (value_copy(&cmp->shared[id], &first->cond[id]))
				return pl_error_set(err, PL_ENOMEM, "out of memory");
			continue;
		}
		if (cmp->varies[id] || !(pl_cond_info[id].flags & PL_CF_KEY))
			continue;

		char **vals;
		size_t nvals;
		if (distinct_values(runs, id, &vals, &nvals) ||
		    refuse_or_caveat(runs, cmp, id, NULL, NULL, NULL, opts->allow_mismatch[id], vals,
		                     nvals))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (check_travellers(runs, opts, cmp) || check_extras(runs, opts, cmp) ||
	    check_workload(runs, opts, cmp) || pl_compare_check_errors(runs, opts, cmp) || explain_loops(runs, cmp))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (cmp->nmismatches) {
		char axis[256] = "";
		for (size_t k = 0; k < cmp->naxis; k++) {
			pl_compare_append(axis, sizeof(axis), k ? "," : "");
			pl_compare_append(axis, sizeof(axis), pl_cond_info[cmp->axis[k]].name);
		}
		/* the fields are data (cmp->mismatches), worded by render */
		return pl_error_set(err, PL_EMISMATCH,
		                    "comparison refused: %zu condition%s off the axis '%s'",
		                    cmp->nmismatches, cmp->nmismatches > 1 ? "s differ" : " differs", axis);
	}
	return 0;
}

static void row_label(const struct pl_comparison *cmp, const struct pl_compare_row *row,
                      char *buf, size_t n)
{
	buf[0] = '\0';
	for (size_t k = 0; k < cmp->naxis; k++) {
		const struct pl_value *v = &row->axis[cmp->axis[k]];
		pl_compare_append(buf, n, k ? " / " : "");
		pl_compare_append(buf, n, v->set ? v->text : "(missing)");
	}
}

/* Fills row from the runs at positions pos[0..n) (in run order): the axis
 * values of its lowest run id, its run ids ascending, reference-only count
 * and caveat, and the median of every loaded metric. vals holds n doubles
 * of scratch. */
/* A travelling field that differs inside a row (allowed by
 * --allow-mismatch, with a caveat) has no one value: *v (holding the
 * first run's value) becomes the row's distinct values joined with "; "
 * ("4; 8", "(missing)" for missing) with num NaN, so that no output shows
 * one run's value for the whole row. Returns 0 or PL_ENOMEM. */
static int mixed_value(const struct pl_run_columns *runs, const size_t *pos, size_t n, int id,
                       struct pl_value *v)
{
	const char **vals;
	char **dv = NULL, *joined = NULL;
	size_t ndv = 0, len = 0, i;
	int rc;

	for (i = 1; i < n && pl_compare_same_value(runs, run_cond(runs, pos[0], id), run_cond(runs, pos[i], id)); i++)
		;
	if (i == n)
		return 0;
	if (!(vals = malloc(n * sizeof(*vals))))
		return PL_ENOMEM;
	for (i = 0; i < n; i++) {
		const struct pl_value *c = run_cond(runs, pos[i], id);
		vals[i] = c->set ? c->text : NULL;
	}
	rc = distinct_texts(vals, n, id, &dv, &ndv);
	free(vals);
	for (i = 0; !rc && i < ndv; i++)
		len += strlen(dv[i]) + 2;
	if (!rc && !(joined = malloc(len + 1)))
		rc = PL_ENOMEM;
	if (!rc) {
		joined[0] = '\0';
		for (i = 0; i < ndv; i++) {
			pl_compare_append(joined, len + 1, i ? "; " : "");
			pl_compare_append(joined, len + 1, dv[i]);
		}
		free(v->text);
		v->text = joined;
		v->set = 1;
		v->num = NAN;
	}
	pl_compare_free_strings(dv, ndv);
	return rc;
}

static int build_row(const struct pl_run_columns *runs, const size_t *pos, size_t n,
                     double *vals, struct pl_comparison *cmp, struct pl_compare_row *row)
{
	unsigned missing = 0;
	size_t lowest = pos[0];
	int sorted = 1;

	memset(row, 0, sizeof(*row));
	if (!(row->run_ids = malloc(n * sizeof(*row->run_ids))))
		return PL_ENOMEM;
	row->n = n;
	for (size_t i = 0; i < n; i++) {
		row->run_ids[i] = runs->id[pos[i]];
		if (runs->id[pos[i]] < runs->id[lowest])
			lowest = pos[i];
		if (i > 0 && row->run_ids[i - 1] > row->run_ids[i])
			sorted = 0;
		if (runs->checklist_missing[pos[i]]) {
			row->reference_only++;
			missing |= runs->checklist_missing[pos[i]];
		}
	}
	if (!sorted)
		qsort(row->run_ids, n, sizeof(*row->run_ids), pl_cmp_ll);
	for (int id = 0; id < PL_COND_COUNT; id++)
		if (cmp->varies[id] && (value_copy(&row->axis[id], run_cond(runs, lowest, id)) ||
		                        mixed_value(runs, pos, n, id, &row->axis[id])))
			return PL_ENOMEM;
	for (int m = 0; m < PL_METRIC_COUNT; m++) {
		const double *col = runs->metric[m];
		size_t k = 0;

		if (!col)
			continue;
		for (size_t i = 0; i < n; i++)
			if (!isnan(col[pos[i]]))
				vals[k++] = col[pos[i]];
		if (k) {
			double lo = vals[0], hi = vals[0];
			for (size_t i = 1; i < k; i++) {
				lo = vals[i] < lo ? vals[i] : lo;
				hi = vals[i] > hi ? vals[i] : hi;
			}
			row->min[m] = lo;
			row->max[m] = hi;
			row->metric[m] = pl_median(vals, k);
			row->n_metric[m] = k > 255 ? 255 : (unsigned char)k;
		}
	}
	if (row->reference_only) {
		char label[512];
		struct pl_msg cav, items[PL_CHK_COUNT];
		size_t nitems = 0;

		for (int i = 0; i < PL_CHK_COUNT; i++)
			if (missing & (1u << i))
				pl_msg_init(&items[nitems++], (enum pl_msg_code)(PL_MSG_W_CHK_WEIGHTS_SOURCE + i));
		row_label(cmp, row, label, sizeof(label));
		pl_msg_init(&cav, PL_MSG_CAV_REFERENCE_ONLY);
		pl_msg_text(&cav, label);
		pl_msg_int(&cav, (long long)row->reference_only);
		pl_msg_int(&cav, (long long)n);
		pl_msg_msgs(&cav, items, nitems);
		pl_msg_int(&cav, (long long)cmp->nrows); /* this row's index: build_rows fills in order */
		if (pl_msgs_push(&cmp->caveats, &cav))
			return PL_ENOMEM;
	}
	return 0;
}

/* Groups the runs into rows: condition sets with equal varying fields are
 * grouped, the groups sorted by row_cmp (groups it finds equal, versions
 * "1.0" and "1.00", share a row) and each row's runs keep their order. */
static int build_rows(const struct pl_run_columns *runs, struct pl_comparison *cmp,
                      struct pl_error *err)
{
	size_t nsets = runs->nsets, n = runs->n;
	struct set_groups g = {NULL, NULL, 0};
	struct row_ctx ctx = {runs, cmp};
	int fields[PL_COND_COUNT];
	size_t nfields = 0, nrows = 0;
	size_t *tmp = NULL, *group_row = NULL, *start = NULL, *pos = NULL;
	double *vals = NULL;
	int rc = 0;

	for (size_t k = 0; k < cmp->naxis; k++)
		fields[nfields++] = cmp->axis[k];
	if (pl_compare_group_sets(runs, fields, nfields, &g))
		goto oom;
	if (!(tmp = malloc((nsets > n ? nsets : n) * sizeof(*tmp))) ||
	    !(group_row = malloc(g.n * sizeof(*group_row))) || !(pos = malloc(n * sizeof(*pos))) ||
	    !(vals = malloc(n * sizeof(*vals))))
		goto oom;
	pl_compare_sort_indices(g.rep, tmp, g.n, row_cmp, &ctx);
	for (size_t i = 0; i < g.n; i++) {
		if (i > 0 && row_cmp(&ctx, g.rep[i - 1], g.rep[i]) != 0)
			nrows++;
		group_row[g.group[g.rep[i]]] = nrows;
	}
	nrows++;
	/* counting sort of the runs by row, stable */
	if (!(start = calloc(nrows + 1, sizeof(*start))) ||
	    !(cmp->rows = calloc(nrows, sizeof(*cmp->rows))))
		goto oom;
	for (size_t i = 0; i < n; i++)
		start[group_row[g.group[runs->set[i]]] + 1]++;
	for (size_t r = 0; r < nrows; r++)
		start[r + 1] += start[r];
	memcpy(tmp, start, nrows * sizeof(*tmp));
	for (size_t i = 0; i < n; i++)
		pos[tmp[group_row[g.group[runs->set[i]]]]++] = i;
	for (size_t r = 0; r < nrows; r++) {
		if (start[r + 1] == start[r])
			continue; /* a set no run uses */
		rc = build_row(runs, pos + start[r], start[r + 1] - start[r], vals, cmp,
		               &cmp->rows[cmp->nrows]);
		cmp->nrows++; /* counted even on failure so release frees it */
		if (rc)
			goto oom;
	}
	goto out;
oom:
	rc = pl_error_set(err, PL_ENOMEM, "out of memory");
out:
	pl_compare_groups_release(&g);
	free(tmp);
	free(group_row);
	free(start);
	free(pos);
	free(vals);
	return rc;
}

/* The first row with row r's values in every axis field but the first:
 * r's baseline (0 for a single axis field). Rows are few; a linear search. */
static size_t same_tail_row(const struct pl_comparison *cmp, size_t r)
{
	for (size_t b = 0; b < r && cmp->naxis > 1; b++) {
		size_t k;

		for (k = 1; k < cmp->naxis; k++)
			if (!pl_value_equal(&cmp->rows[b].axis[cmp->axis[k]],
			                    &cmp->rows[r].axis[cmp->axis[k]]))
				break;
		if (k == cmp->naxis)
			return b;
	}
	return cmp->naxis > 1 ? r : 0;
}

/* 1 if run i failed (pl_run_failed's rule on the loaded columns). */
static int column_failed(const struct pl_run_columns *runs, size_t i)
{
	double done = pl_compare_run_metric(runs, i, PL_M_REQUESTS_COMPLETED);
	double rate = pl_compare_run_metric(runs, i, PL_M_ERROR_RATE);

	return done == 0 || rate >= 1;
}

/* The runs of in that did not fail, into out (sharing in's condition sets,
 * which out does not own); *nfailed gets how many were left out, and a
 * caveat naming them up to 20 goes to cmp. Returns 0 or PL_ENOMEM. */
static int drop_failed(const struct pl_run_columns *in, struct pl_run_columns *out,
                       size_t *nfailed, int quiet, struct pl_comparison *cmp)
{
	long long named_ids[20];
	size_t k = 0, named = 0;

	pl_run_columns_init(out);
	*nfailed = 0;
	for (size_t i = 0; i < in->n && !named; i++)
		named = column_failed(in, i);
	if (!named)
		return 0; /* the usual case: nothing copied */
	named = 0;
	out->sets = in->sets;
	out->nsets = in->nsets;
	out->id = malloc((in->n ? in->n : 1) * sizeof(*out->id));
	out->set = malloc((in->n ? in->n : 1) * sizeof(*out->set));
	out->checklist_missing = malloc((in->n ? in->n : 1) * sizeof(*out->checklist_missing));
	if (!out->id || !out->set || !out->checklist_missing)
		return PL_ENOMEM;
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		if (in->metric[m] && !(out->metric[m] = malloc((in->n ? in->n : 1) * sizeof(double))))
			return PL_ENOMEM;
	for (size_t i = 0; i < in->n; i++) {
		if (column_failed(in, i)) {
			if (named < 20)
				named_ids[named] = in->id[i];
			named++;
			(*nfailed)++;
			continue;
		}
		out->id[k] = in->id[i];
		out->set[k] = in->set[i];
		out->checklist_missing[k] = in->checklist_missing[i];
		for (int m = 0; m < PL_METRIC_COUNT; m++)
			if (in->metric[m])
				out->metric[m][k] = in->metric[m][i];
		k++;
	}
	out->n = k;
	if (*nfailed && !quiet) {
		struct pl_msg cav;
		pl_msg_init(&cav, named > 20 ? PL_MSG_CAV_FAILED_LEFT_OUT_MORE : PL_MSG_CAV_FAILED_LEFT_OUT);
		pl_msg_runs(&cav, named_ids, named > 20 ? 20 : named);
		if (named > 20)
			pl_msg_int(&cav, (long long)(named - 20));
		return pl_msgs_push(&cmp->caveats, &cav);
	}
	return 0;
}

static int build_columns(const struct pl_run_columns *runs, const struct pl_compare_opts *opts,
                         struct pl_comparison *out, struct pl_error *err);

int pl_compare_build_rows(const struct pl_run_columns *runs, const struct pl_compare_opts *opts,
                          struct pl_comparison *out, struct pl_error *err)
{
	struct pl_run_columns ok;
	size_t nfailed = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (drop_failed(runs, &ok, &nfailed, opts->failed_quiet, out)) {
		pl_run_columns_release(&ok);
		pl_comparison_release(out);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (nfailed && ok.n == 0) {
		char ids[200] = "";

		/* every run failed: name them (the first 20), as the caveat does */
		for (size_t i = 0; i < runs->n && i < 20; i++) {
			size_t len = strlen(ids);
			snprintf(ids + len, sizeof(ids) - len, "%s%lld", i ? ", " : "", runs->id[i]);
		}
		pl_run_columns_release(&ok);
		pl_comparison_release(out);
		return pl_error_set(err, PL_EEMPTY,
		                    "every selected run failed (no request completed): run%s %s%s; "
		                    "failed runs are never compared ('perfledger list' shows them)",
		                    nfailed > 1 ? "s" : "", ids,
		                    nfailed > 20 ? " and more" : "");
	}
	{
		/* build on the runs that did not fail, keeping the caveat */
		struct pl_msgs cav = out->caveats;
		memset(&out->caveats, 0, sizeof(out->caveats));
		rc = build_columns(nfailed ? &ok : runs, opts, out, err);
		for (size_t i = 0; i < cav.n; i++)
			if (pl_msgs_push(&out->caveats, &cav.v[i]) && rc == 0)
				rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		pl_msgs_release(&cav);
	}
	out->nfailed = nfailed;
	pl_run_columns_release(&ok);
	return rc;
}

static int build_columns(const struct pl_run_columns *runs, const struct pl_compare_opts *opts,
                         struct pl_comparison *out, struct pl_error *err)
{
	struct pl_comparison *cmp = out;
	int rc;

	memset(cmp, 0, sizeof(*cmp));
	memcpy(cmp->axis, opts->axis, sizeof(cmp->axis));
	cmp->naxis = opts->naxis;
	if (opts->nmetrics) {
		memcpy(cmp->metrics, opts->metrics, opts->nmetrics * sizeof(int));
		cmp->nmetrics = opts->nmetrics;
	} else {
		size_t n;
		const int *d = pl_compare_default_metrics(&n);
		memcpy(cmp->metrics, d, n * sizeof(int));
		cmp->nmetrics = n;
	}
	for (size_t k = 0; k < opts->naxis; k++)
		cmp->varies[opts->axis[k]] = 1;
	for (int id = 0; id < PL_COND_COUNT; id++) {
		int tw = pl_cond_info[id].travels_with, tw2 = pl_cond_info[id].travels_with2;
		if ((tw != PL_C_NONE && cmp->varies[tw]) || (tw2 != PL_C_NONE && cmp->varies[tw2]))
			cmp->varies[id] = 1;
	}
	cmp->nruns = runs->n;
	if (runs->n == 0)
		return pl_error_set(err, PL_EEMPTY, "no runs match the selection");

	if ((rc = check_conditions(runs, opts, cmp, err)) || (rc = build_rows(runs, cmp, err)) ||
	    (rc = pl_compare_check_goodput_slo(runs, cmp, err)))
		return rc;

	for (size_t r = 0; r < cmp->nrows; r++) {
		struct pl_compare_row *row = &cmp->rows[r];
		const struct pl_compare_row *base;

		row->base = same_tail_row(cmp, r);
		base = &cmp->rows[row->base];
		if (cmp->naxis > 1 && row->base == r)
			continue; /* the first of its kind: nothing to compare it with */
		for (int m = 0; m < PL_METRIC_COUNT; m++) {
			if (pl_metric_info[m].stat == PL_S_LIMIT)
				continue; /* a limit, not a measure: never a change */
			if (row->n_metric[m] && base->n_metric[m] && base->metric[m] != 0) {
				row->delta_pct[m] = 100.0 * (row->metric[m] / base->metric[m] - 1.0);
				row->has_delta[m] = 1;
			}
		}
	}
	return 0;
}

int pl_compare_build(const struct pl_run_list *runs, const struct pl_compare_opts *opts,
                     struct pl_comparison *out, struct pl_error *err)
{
	struct pl_run_columns cols;
	int rc;

	memset(out, 0, sizeof(*out));
	if (pl_run_columns_borrow(&cols, runs))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = pl_compare_build_columns(&cols, opts, out, err);
	pl_run_columns_release(&cols);
	return rc;
}

void pl_comparison_release(struct pl_comparison *cmp)
{
	if (!cmp)
		return;
	for (int id = 0; id < PL_COND_COUNT; id++)
		free(cmp->shared[id].text);
	for (size_t r = 0; r < cmp->nrows; r++) {
		for (int id = 0; id < PL_COND_COUNT; id++)
			free(cmp->rows[r].axis[id].text);
		free(cmp->rows[r].run_ids);
	}
	free(cmp->rows);
	pl_msgs_release(&cmp->caveats);
	for (size_t i = 0; i < cmp->nmismatches; i++) {
		for (size_t k = 0; cmp->mismatches[i].runs && k < cmp->mismatches[i].nvalues; k++)
			free(cmp->mismatches[i].runs[k]);
		free(cmp->mismatches[i].runs);
		free(cmp->mismatches[i].nruns);
		pl_compare_free_strings(cmp->mismatches[i].values, cmp->mismatches[i].nvalues);
		free(cmp->mismatches[i].extra);
		free(cmp->mismatches[i].within);
	}
	free(cmp->mismatches);
	pl_subsets_release(cmp);
	for (size_t i = 0; i < cmp->nshared_extra; i++) {
		free(cmp->shared_extra[i].name);
		free(cmp->shared_extra[i].value);
	}
	free(cmp->shared_extra);
	memset(cmp, 0, sizeof(*cmp));
}

char *pl_compare_row_label(const struct pl_comparison *cmp, size_t row, char *buf, size_t n)
{
	if (n == 0)
		return buf;
	buf[0] = '\0';
	if (row < cmp->nrows)
		row_label(cmp, &cmp->rows[row], buf, n);
	return buf;
}
