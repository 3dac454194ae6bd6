/*
 * columns.c — pl_store_query_columns(): the runs a comparison selects, read
 * into columns (ids, checklist bits, wanted metrics) rather than whole runs,
 * with each conditions row they use read once. A large span of run ids is
 * read by two threads on two connections while a third prefetches the
 * conditions rows; the condition texts share one pool per result.
 */
#include "store/store_impl.h"

#include "core/hash.h"
#include "util/alloc.h"
#include "util/sort.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------- runs in columns (compare) */

/* Grows *p (have elements of size bytes allocated) to exactly cap elements
 * (cap at least 8 and 1.5 times have, as every caller's doubling is), with
 * pl_alloc_grow(). have is a copy: the parallel arrays a caller grows
 * together share its one capacity. Returns 0 or PL_ENOMEM. */
static int grow_array(void *p, size_t size, size_t have, size_t cap)
{
	return pl_alloc_grow((void **)p, &have, cap, size);
}

/* Appends the filters on `conditions` (on_conditions 1: its columns and
 * the extra conditions, with `conditions` in scope) or on `runs` (0) as
 * pl_store_append_term() terms, the first after lead, the others after " AND ".
 * Returns how many it appended. */
static size_t append_terms(sqlite3_str *s, const struct pl_filter *filters, size_t nfilters,
                           int on_conditions, const char *lead)
{
	size_t n = 0;

	for (size_t i = 0; i < nfilters; i++) {
		if (pl_store_filter_on_conditions(&filters[i]) != on_conditions)
			continue;
		sqlite3_str_appendall(s, n++ ? " AND " : lead);
		pl_store_append_term(s, &filters[i], "");
	}
	return n;
}

/* Binds the values of the terms append_terms() wrote, from parameter *idx
 * on (advanced). Returns 0 or PL_EUSAGE (a value not of its type). */
static int bind_terms(sqlite3_stmt *q, int *idx, const struct pl_filter *filters, size_t nfilters,
                      int on_conditions, struct pl_error *err)
{
	int rc, used;

	for (size_t i = 0; i < nfilters; i++) {
		if (pl_store_filter_on_conditions(&filters[i]) != on_conditions)
			continue;
		if ((rc = pl_store_bind_filter(q, *idx, &filters[i], &used, err)))
			return rc;
		*idx += used;
	}
	return 0;
}

/* SELECT id, condition_id, checklist_missing, run_started_at, <wanted
 * metrics> FROM runs WHERE id BETWEEN ?1 AND ?2, and the filters: per-run
 * fields on runs, the others through the conditions rows they select, then
 * term (the retraction term, or NULL). No
 * ORDER BY, so that SQLite may read a small selection through
 * runs_condition_id; the caller sorts. Prepared on db: the store's own
 * connection or a second one of the same file. */
static int prepare_columns(sqlite3 *db, const struct pl_filter *filters, size_t nfilters,
                           const char *term, const unsigned char *want, sqlite3_stmt **out,
                           struct pl_error *err)
{
	sqlite3_str *s = sqlite3_str_new(db);
	int idx = 3, rc;

	sqlite3_str_appendall(s, "SELECT id, condition_id, checklist_missing, run_started_at");
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		if (want[m])
			pl_store_append_ident(s, ", ", pl_metric_info[m].name);
	sqlite3_str_appendall(s, " FROM runs WHERE id BETWEEN ?1 AND ?2");
	append_terms(s, filters, nfilters, 0, " AND ");
	if (append_terms(s, filters, nfilters, 1,
	                 " AND condition_id IN (SELECT id FROM conditions WHERE "))
		sqlite3_str_appendall(s, ")");
	if (term) { /* retractions (pl_store_retraction_term): our own text */
		sqlite3_str_appendall(s, " AND ");
		sqlite3_str_appendall(s, term);
	}
	if ((rc = pl_store_prepare_str(db, s, out)) == SQLITE_NOMEM)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc != SQLITE_OK)
		return pl_error_set(err, PL_EDB, "database error: %s (while preparing the query)",
		                    sqlite3_errmsg(db));
	/* per-run filters first, as written */
	if ((rc = bind_terms(*out, &idx, filters, nfilters, 0, err)) ||
	    (rc = bind_terms(*out, &idx, filters, nfilters, 1, err))) {
		sqlite3_finalize(*out);
		*out = NULL;
	}
	return rc;
}

/* A run's id and position, for ordering runs by id. */
struct id_pos {
	long long id; /* runs.id */
	size_t pos;   /* position as read */
};

static int id_pos_cmp(const void *a, const void *b)
{
	const struct id_pos *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Reorders every column of out (and cond_id) so that ids ascend. */
static int columns_sort_by_id(struct pl_run_columns *out, long long *cond_id,
                              const unsigned char *want)
{
	size_t n = out->n;
	struct id_pos *order;
	double *tmp;
	int sorted = 1;

	for (size_t i = 1; i < n && sorted; i++)
		sorted = out->id[i - 1] < out->id[i];
	if (sorted)
		return 0;
	order = malloc(n * sizeof(*order));
	tmp = malloc(n * sizeof(*tmp)); /* 8 bytes, as long long and size_t */
	if (!order || !tmp) {
		free(order);
		free(tmp);
		return PL_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		order[i].id = out->id[i];
		order[i].pos = i;
	}
	qsort(order, n, sizeof(*order), id_pos_cmp);
	for (size_t i = 0; i < n; i++)
		out->id[i] = order[i].id;
	{
		long long *t = (long long *)tmp;
		for (size_t i = 0; i < n; i++)
			t[i] = cond_id[order[i].pos];
		memcpy(cond_id, t, n * sizeof(*cond_id));
	}
	{
		unsigned *t = (unsigned *)tmp;
		for (size_t i = 0; i < n; i++)
			t[i] = out->checklist_missing[order[i].pos];
		memcpy(out->checklist_missing, t, n * sizeof(*t));
	}
	for (int m = 0; m < PL_METRIC_COUNT; m++) {
		if (!want[m])
			continue;
		for (size_t i = 0; i < n; i++)
			tmp[i] = out->metric[m][order[i].pos];
		memcpy(out->metric[m], tmp, n * sizeof(*tmp));
	}
	free(order);
	free(tmp);
	return 0;
}

/* Distinct condition texts of a columns query, each stored once: a hundred
 * thousand condition sets share a few dozen model, engine and hardware
 * names, and the comparison then tells equal texts by their pointer. */
struct text_pool {
	char **slot;    /* open-addressing table of the texts below, NULL = empty */
	size_t nslots;  /* power of two */
	char **list;    /* every text, owned, in order of first use */
	size_t n, cap;  /* texts in list, allocated */
};

/* The pooled copy of text[0..len), or NULL when out of memory. */
static char *pool_text(struct text_pool *p, const char *text, size_t len)
{
	size_t h;

	if (2 * (p->n + 1) > p->nslots) { /* grow: rehash every text */
		size_t nslots = p->nslots ? 2 * p->nslots : 1024;
		char **slot = calloc(nslots, sizeof(*slot));

		if (!slot)
			return NULL;
		for (size_t i = 0; i < p->n; i++) {
			h = (size_t)pl_hash64(p->list[i], strlen(p->list[i])) & (nslots - 1);
			while (slot[h])
				h = (h + 1) & (nslots - 1);
			slot[h] = p->list[i];
		}
		free(p->slot);
		p->slot = slot;
		p->nslots = nslots;
	}
	h = (size_t)pl_hash64(text, len) & (p->nslots - 1);
	for (; p->slot[h]; h = (h + 1) & (p->nslots - 1))
		if (strncmp(p->slot[h], text, len) == 0 && p->slot[h][len] == '\0')
			return p->slot[h];
	if (PL_ALLOC_GROW(p->list, p->n + 1, p->cap))
		return NULL;
	if (!(p->slot[h] = malloc(len + 1)))
		return NULL;
	memcpy(p->slot[h], text, len);
	p->slot[h][len] = '\0';
	p->list[p->n++] = p->slot[h];
	return p->slot[h];
}

/* Reads the `conditions` columns of the current row, from column col on,
 * into set with pooled texts: what read_conditions() stores, without a copy
 * per set. Returns 0 or PL_ENOMEM. */
static int read_conditions_pooled(sqlite3_stmt *s, int col, struct pl_run *set,
                                  struct text_pool *pool, struct pl_error *err)
{
	for (int i = 0; i < PL_COND_COUNT; i++) {
		struct pl_value *v = &set->cond[i];
		sqlite3_value *val;
		int c;

		if (!in_conditions(i))
			continue;
		c = col++;
		val = sqlite3_column_value(s, c);
		if (sqlite3_value_type(val) == SQLITE_NULL)
			continue;
		if (is_numeric(pl_cond_info[i].type)) {
			char buf[40];
			double num = sqlite3_value_double(val);

			/* as pl_run_set_cond_num() */
			if (pl_cond_info[i].type == PL_CT_BOOL) {
				num = num != 0;
				snprintf(buf, sizeof(buf), "%s", num != 0 ? "true" : "false");
			} else {
				pl_fmt_num(buf, sizeof(buf), num);
			}
			v->num = num;
			v->text = pool_text(pool, buf, strlen(buf));
		} else {
			const char *t = (const char *)sqlite3_column_text(s, c);
			v->num = 0;
			v->text = t ? pool_text(pool, t, (size_t)sqlite3_column_bytes(s, c)) : NULL;
		}
		if (!v->text)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		v->set = 1;
	}
	return 0;
}

/* Every conditions row a wide columns query may use (all that match the
 * conditions filters), read on a thread of its own while the runs are
 * scanned: a hundred thousand rows take a fifth of a second. Conditions
 * rows are never changed once committed, and this connection's snapshot is
 * no older than the store's, so every row the runs refer to is here. */
struct cond_prefetch {
	sqlite3 *db;            /* its connection (open_reader) */
	sqlite3_stmt *stmt;     /* SELECT id, <conditions> ... ORDER BY id */
	struct pl_run *sets;    /* rows read; only cond[] set, texts pooled */
	long long *ids;         /* their ids, ascending */
	size_t n, cap;          /* rows read, allocated */
	struct text_pool pool;  /* their texts */
	long long gen;          /* ledger_generation its connection read */
	int rc;                 /* 0 or the PL_E* code of err */
	struct pl_error err;    /* what failed */
};

/* Reads the conditions rows ids[0..nids) (ascending, distinct) into sets:
 * one lookup each for a few, one ordered scan for many. Returns 0, PL_EDB
 * (a row is missing), PL_ENOMEM. */
static int read_condition_sets(struct pl_store *st, const long long *ids, size_t nids,
                               struct pl_run *sets, struct text_pool *pool, struct pl_error *err)
{
	sqlite3_str *s = sqlite3_str_new(st->db);
	sqlite3_stmt *q = NULL;
	int few = nids <= 4096, rc = 0, step = SQLITE_DONE;
	size_t k = 0;

	sqlite3_str_appendall(s, "SELECT id");
	pl_store_append_condition_columns(s, "");
	sqlite3_str_appendall(s, few ? " FROM conditions WHERE id = ?1"
	                             : " FROM conditions WHERE id BETWEEN ?1 AND ?2 ORDER BY id");
	if ((rc = pl_store_prepare_str(st->db, s, &q)) == SQLITE_NOMEM)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc != SQLITE_OK)
		return pl_store_fail(st, err, "preparing the query");
	rc = 0;
	if (few) {
		for (k = 0; k < nids && !rc; k++) {
			sqlite3_bind_int64(q, 1, ids[k]);
			if ((step = sqlite3_step(q)) != SQLITE_ROW)
				break;
			rc = read_conditions_pooled(q, 1, &sets[k], pool, err);
			sqlite3_reset(q);
		}
	} else {
		sqlite3_bind_int64(q, 1, ids[0]);
		sqlite3_bind_int64(q, 2, ids[nids - 1]);
		while (k < nids && !rc && (step = sqlite3_step(q)) == SQLITE_ROW) {
			long long id = sqlite3_column_int64(q, 0);

			if (id < ids[k])
				continue; /* a conditions row no selected run uses */
			if (id > ids[k])
				break;
			rc = read_conditions_pooled(q, 1, &sets[k++], pool, err);
		}
		if (step == SQLITE_ROW)
			step = SQLITE_DONE;
	}
	if (!rc && step != SQLITE_ROW && step != SQLITE_DONE)
		rc = pl_store_fail(st, err, "reading conditions");
	else if (!rc && k < nids)
		rc = pl_error_set(err, PL_EDB,
		                  "database error: conditions row %lld of a stored run is missing "
		                  "(run 'PRAGMA foreign_key_check' in the sqlite3 shell)",
		                  ids[k]);
	sqlite3_finalize(q);
	return rc;
}

/* The distinct values of cond_id[0..n) ascending into ids (*nids of them),
 * and for each run the index of its value in ids into set. Dense ids (the
 * rule: conditions ids count up from 1) go through a table indexed by id,
 * others through a sort and a binary search. Returns 0 or PL_ENOMEM. */
int pl_store_map_condition_ids(const long long *cond_id, size_t n, long long *ids, size_t *nids,
                               size_t *set)
{
	long long lo = cond_id[0], hi = cond_id[0];
	size_t *slot;

	for (size_t i = 1; i < n; i++) {
		if (cond_id[i] < lo)
			lo = cond_id[i];
		if (cond_id[i] > hi)
			hi = cond_id[i];
	}
	*nids = 0;
	/* the span in unsigned arithmetic: ids may sit at both ends of 64 bits */
	if ((unsigned long long)hi - (unsigned long long)lo < 4 * (unsigned long long)n + 4096) {
		size_t range = (size_t)((unsigned long long)hi - (unsigned long long)lo) + 1;

		if (!(slot = calloc(range, sizeof(*slot))))
			return PL_ENOMEM;
		for (size_t i = 0; i < n; i++)
			slot[cond_id[i] - lo] = 1;
		for (size_t k = 0; k < range; k++)
			if (slot[k]) {
				ids[*nids] = lo + (long long)k;
				slot[k] = (*nids)++;
			}
		for (size_t i = 0; i < n; i++)
			set[i] = slot[cond_id[i] - lo];
		free(slot);
		return 0;
	}
	memcpy(ids, cond_id, n * sizeof(*ids));
	qsort(ids, n, sizeof(*ids), pl_cmp_ll);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || ids[i] != ids[*nids - 1])
			ids[(*nids)++] = ids[i];
	for (size_t i = 0; i < n; i++) {
		size_t a = 0, b = *nids;

		while (b - a > 1) {
			size_t mid = a + (b - a) / 2;
			if (ids[mid] <= cond_id[i])
				a = mid;
			else
				b = mid;
		}
		set[i] = a;
	}
	return 0;
}

/* Moves the prefetched rows of ids[0..nids) (ascending) to the front of
 * sets, the rows read ahead (their ids ascending in have[0..nhave)), in
 * that order. Returns 0 or PL_EDB (a row is missing). */
static int take_prefetched(struct pl_run *sets, const long long *have, size_t nhave,
                           const long long *ids, size_t nids, struct pl_error *err)
{
	size_t p = 0;

	for (size_t k = 0; k < nids; k++, p++) {
		while (p < nhave && have[p] < ids[k])
			p++; /* a conditions row no selected run uses */
		if (p == nhave || have[p] != ids[k])
			return pl_error_set(err, PL_EDB,
			                    "database error: conditions row %lld of a stored run is missing "
			                    "(run 'PRAGMA foreign_key_check' in the sqlite3 shell)",
			                    ids[k]);
		if (p != k)
			sets[k] = sets[p]; /* texts are pooled: a shallow move */
	}
	return 0;
}

/* Fills out->sets: each conditions row the runs use once, with pooled
 * texts (out->texts), taken from pf when it read them all, else read now;
 * and run_started_at (started_at, or NULL) put into every set when all
 * runs share it. pf's rows and pool pass to out. */
static int columns_sets(struct pl_store *st, struct pl_run_columns *out, const long long *cond_id,
                        const char *started_at, struct cond_prefetch *pf, struct pl_error *err)
{
	struct text_pool pool = {NULL, 0, NULL, 0, 0};
	size_t nids = 0;
	long long *ids = malloc(out->n * sizeof(*ids));
	char *started = NULL;
	int rc = 0, any = 0;

	if (pf) {
		pool = pf->pool;
		out->owned_sets = pf->sets;
		memset(&pf->pool, 0, sizeof(pf->pool));
		pf->sets = NULL;
	}
	if (!ids || pl_store_map_condition_ids(cond_id, out->n, ids, &nids, out->set) ||
	    (!pf && !(out->owned_sets = calloc(nids, sizeof(*out->owned_sets)))) ||
	    (started_at && !(started = pool_text(&pool, started_at, strlen(started_at))))) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	/* calloc's zeroes are pl_run_init()'s: the untouched pages of a
	 * hundred thousand sets stay unmapped */
	out->sets = out->owned_sets;
	out->nsets = nids;
	rc = pf ? take_prefetched(out->owned_sets, pf->ids, pf->n, ids, nids, err)
	        : read_condition_sets(st, ids, nids, out->owned_sets, &pool, err);
	if (rc && pf)
		out->nsets = 0; /* sets past pf->n were never filled: not for release */
	/* the extras after the sets are in place (on this connection, in the
	 * same snapshot): each set owns its own, see pl_run_columns_release() */
	if (!rc && !(rc = pl_store_have_extras(st, &any, err)) && any)
		rc = pl_store_read_extras(st, ids, nids, out->owned_sets, err);
	for (size_t k = 0; k < nids && !rc && started; k++) {
		out->owned_sets[k].cond[PL_C_RUN_STARTED_AT].set = 1;
		out->owned_sets[k].cond[PL_C_RUN_STARTED_AT].text = started;
	}
out:
	/* the sets point into the pool: it goes with them, even on error */
	out->texts = pool.list;
	out->ntexts = pool.n;
	free(pool.slot);
	free(ids);
	return rc;
}

/* One range of runs read by pl_store_query_columns(), on one thread. */
struct scan_part {
	sqlite3 *db;                /* the connection it reads with */
	sqlite3_stmt *stmt;         /* prepare_columns() with its range bound */
	const unsigned char *want;  /* metrics to read */
	struct pl_run_columns cols; /* id, checklist_missing, metric[] and n filled */
	long long *cond_id;         /* conditions id per run */
	size_t cap;                 /* allocated runs */
	char *started_at;           /* the first run's run_started_at, or NULL */
	int started_same;           /* every run so far has the first one's */
	long long gen;              /* ledger_generation its connection read */
	int rc;                     /* 0 or the PL_E* code of err */
	struct pl_error err;        /* what failed */
};

/* Makes room for more runs in part. Returns 0 or PL_ENOMEM. */
static int part_reserve(struct scan_part *part)
{
	size_t ncap = part->cap ? part->cap * 2 : 1024;
	struct pl_run_columns *c = &part->cols;

	if (grow_array(&c->id, sizeof(*c->id), part->cap, ncap) ||
	    grow_array(&c->checklist_missing, sizeof(*c->checklist_missing), part->cap, ncap) ||
	    grow_array(&part->cond_id, sizeof(*part->cond_id), part->cap, ncap))
		return PL_ENOMEM;
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		if (part->want[m] && grow_array(&c->metric[m], sizeof(double), part->cap, ncap))
			return PL_ENOMEM;
	part->cap = ncap;
	return 0;
}

/* Steps part->stmt to the end, appending each run. Sets part->rc. */
static void *scan_part_run(void *arg)
{
	struct scan_part *part = arg;
	struct pl_run_columns *c = &part->cols;
	int step;

	while ((step = sqlite3_step(part->stmt)) == SQLITE_ROW) {
		size_t i = c->n;
		const char *t = (const char *)sqlite3_column_text(part->stmt, 3);
		int col = 4;

		if (i == part->cap && part_reserve(part)) {
			part->rc = pl_error_set(&part->err, PL_ENOMEM, "out of memory");
			return NULL;
		}
		c->id[i] = sqlite3_column_int64(part->stmt, 0);
		part->cond_id[i] = sqlite3_column_int64(part->stmt, 1);
		c->checklist_missing[i] = (unsigned)sqlite3_column_int64(part->stmt, 2);
		if (i == 0) {
			if (t && !(part->started_at = strdup(t))) {
				part->rc = pl_error_set(&part->err, PL_ENOMEM, "out of memory");
				return NULL;
			}
		} else if (part->started_same) {
			part->started_same = t ? part->started_at && strcmp(t, part->started_at) == 0
			                       : !part->started_at;
		}
		for (int m = 0; m < PL_METRIC_COUNT; m++) {
			/* an unprotected value is a protected one without SQLite's
			 * mutex (SQLITE_OPEN_NOMUTEX), and one call cheaper */
			sqlite3_value *v;

			if (!part->want[m])
				continue;
			v = sqlite3_column_value(part->stmt, col++);
			c->metric[m][i] = sqlite3_value_type(v) == SQLITE_NULL ? NAN : sqlite3_value_double(v);
		}
		c->n++;
	}
	if (step != SQLITE_DONE)
		part->rc = pl_error_set(&part->err, PL_EDB, "database error: %s (while reading runs)",
		                        sqlite3_errmsg(part->db));
	return NULL;
}

/* Frees what part holds (not its connection) and empties it. */
static void part_release(struct scan_part *part)
{
	sqlite3_finalize(part->stmt);
	part->stmt = NULL;
	pl_run_columns_release(&part->cols);
	free(part->cond_id);
	part->cond_id = NULL;
	free(part->started_at);
	part->started_at = NULL;
	part->cap = 0;
}

/* Appends b's runs to a's (b is released). Returns 0 or PL_ENOMEM. */
static int part_append(struct scan_part *a, struct scan_part *b)
{
	size_t n = a->cols.n + b->cols.n;

	if (b->cols.n == 0) {
		part_release(b);
		return 0;
	}
	if (n > a->cap) {
		struct scan_part grown = *a;

		grown.cap = n / 2 + 1; /* part_reserve doubles it */
		if (part_reserve(&grown))
			return PL_ENOMEM;
		*a = grown;
	}
	memcpy(a->cols.id + a->cols.n, b->cols.id, b->cols.n * sizeof(*b->cols.id));
	memcpy(a->cond_id + a->cols.n, b->cond_id, b->cols.n * sizeof(*b->cond_id));
	memcpy(a->cols.checklist_missing + a->cols.n, b->cols.checklist_missing,
	       b->cols.n * sizeof(*b->cols.checklist_missing));
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		if (a->want[m])
			memcpy(a->cols.metric[m] + a->cols.n, b->cols.metric[m],
			       b->cols.n * sizeof(double));
	if (a->cols.n == 0) {
		a->started_at = b->started_at;
		b->started_at = NULL;
		a->started_same = b->started_same;
	} else if (a->started_same) {
		a->started_same = b->started_same &&
		                  (a->started_at && b->started_at
		                       ? strcmp(a->started_at, b->started_at) == 0
		                       : a->started_at == b->started_at);
	}
	a->cols.n = n;
	part_release(b);
	return 0;
}

/* The id of the first or last run (sql: SELECT min/max(id) FROM runs), 0
 * when there is none. Returns 0 or PL_EDB. */
static int run_id_bound(struct pl_store *st, const char *sql, long long *out, struct pl_error *err)
{
	sqlite3_stmt *s;
	int rc = 0;

	*out = 0;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "reading runs");
	if (sqlite3_step(s) == SQLITE_ROW)
		*out = sqlite3_column_int64(s, 0);
	else
		rc = pl_store_fail(st, err, "reading runs");
	sqlite3_finalize(s);
	return rc;
}

/* Runs in a span of ids this long or more are read by two threads. */
#define SPLIT_SPAN 200000

/* 1 if st's database is in WAL mode. Only then may more connections read
 * beside the store's open read transaction: in rollback-journal mode a
 * writer waiting for it to end (PENDING) would hold the other readers off
 * for the whole busy timeout. */
static int in_wal_mode(struct pl_store *st)
{
	sqlite3_stmt *s;
	int wal = 0;

	if (sqlite3_prepare_v2(st->db, "PRAGMA journal_mode", -1, &s, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(s) == SQLITE_ROW)
		wal = sqlite3_stricmp((const char *)sqlite3_column_text(s, 0), "wal") == 0;
	sqlite3_finalize(s);
	return wal;
}

/* The ledger generation (migration 009) as db's read transaction sees it,
 * into *gen: reading it also fixes that transaction's snapshot. Returns 0
 * or -1. */
static int read_generation(sqlite3 *db, long long *gen)
{
	sqlite3_stmt *s;
	int rc = -1;

	if (sqlite3_prepare_v2(db, "SELECT generation FROM ledger_generation WHERE id = 1", -1, &s,
	                       NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(s) == SQLITE_ROW) {
		*gen = sqlite3_column_int64(s, 0);
		rc = 0;
	}
	sqlite3_finalize(s);
	return rc;
}

/* A second, read-only connection to st's file in a read transaction, for
 * a reading thread, into *db, and the ledger generation its snapshot
 * holds into *gen; 0 on success, -1 when there is none to be had (a
 * database in memory, a file that cannot be opened again). */
static int open_reader(struct pl_store *st, sqlite3 **db, long long *gen)
{
	const char *file = sqlite3_db_filename(st->db, "main");

	*db = NULL;
	if (!file || !*file ||
	    sqlite3_open_v2(file, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		goto fail;
	sqlite3_busy_timeout(*db, 30000);
	if (sqlite3_exec(*db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK && read_generation(*db, gen) == 0)
		return 0;
fail:
	sqlite3_close(*db);
	*db = NULL;
	return -1;
}

/* Ends a reader of open_reader(). NULL is a no-op. */
static void close_reader(sqlite3 *db)
{
	if (!db)
		return;
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(db);
}

/* Starts reading the runs of ids (mid, hi] on a second connection of the
 * same file, on a thread of its own, into *b; 0 on success. Reading the
 * runs in parallel halves the time of a million-run compare on two cores.
 * The second connection's snapshot may be newer than the store's. Imports
 * only add runs, with higher ids, so the ids up to hi read the same in
 * both; amend, retract, restore and purge change stored runs, and bump
 * ledger_generation when they do: the caller compares the generation each
 * connection read and reads again on one connection when they differ. Any
 * failure (a database in memory, no thread) returns nonzero and the caller
 * reads everything itself. */
static int start_second_half(struct pl_store *st, const struct pl_filter *filters, size_t nfilters,
                             const char *term, const unsigned char *want, long long mid,
                             long long hi, struct scan_part *b, pthread_t *thread)
{
	memset(b, 0, sizeof(*b));
	b->want = want;
	b->started_same = 1;
	pl_error_init(&b->err);
	if (open_reader(st, &b->db, &b->gen) ||
	    prepare_columns(b->db, filters, nfilters, term, want, &b->stmt, &b->err))
		goto fail;
	sqlite3_bind_int64(b->stmt, 1, mid + 1);
	sqlite3_bind_int64(b->stmt, 2, hi);
	if (pthread_create(thread, NULL, scan_part_run, b) == 0)
		return 0;
fail:
	sqlite3_finalize(b->stmt);
	b->stmt = NULL;
	close_reader(b->db);
	b->db = NULL;
	return -1;
}

static void *prefetch_run(void *arg)
{
	struct cond_prefetch *pf = arg;
	int step;

	while ((step = sqlite3_step(pf->stmt)) == SQLITE_ROW) {
		if (pf->n == pf->cap) {
			size_t cap = pf->cap ? 2 * pf->cap : 1024;

			if (grow_array(&pf->sets, sizeof(*pf->sets), pf->cap, cap) ||
			    grow_array(&pf->ids, sizeof(*pf->ids), pf->cap, cap)) {
				pf->rc = pl_error_set(&pf->err, PL_ENOMEM, "out of memory");
				return NULL;
			}
			pf->cap = cap;
		}
		pl_run_init(&pf->sets[pf->n]); /* row by row: spare room stays unmapped */
		pf->ids[pf->n] = sqlite3_column_int64(pf->stmt, 0);
		if ((pf->rc = read_conditions_pooled(pf->stmt, 1, &pf->sets[pf->n], &pf->pool,
		                                     &pf->err)))
			return NULL;
		pf->n++;
	}
	if (step != SQLITE_DONE)
		pf->rc = pl_error_set(&pf->err, PL_EDB, "database error: %s (while reading conditions)",
		                      sqlite3_errmsg(pf->db));
	return NULL;
}

/* Starts *pf on a thread; 0 on success, -1 when the caller must read the
 * conditions rows itself. */
static int start_prefetch(struct pl_store *st, const struct pl_filter *filters, size_t nfilters,
                          struct cond_prefetch *pf, pthread_t *thread)
{
	sqlite3_str *s;
	int idx = 1;

	memset(pf, 0, sizeof(*pf));
	pl_error_init(&pf->err);
	if (open_reader(st, &pf->db, &pf->gen))
		return -1;
	s = sqlite3_str_new(pf->db);
	sqlite3_str_appendall(s, "SELECT id");
	pl_store_append_condition_columns(s, "");
	sqlite3_str_appendall(s, " FROM conditions");
	append_terms(s, filters, nfilters, 1, " WHERE ");
	sqlite3_str_appendall(s, " ORDER BY id");
	if (pl_store_prepare_str(pf->db, s, &pf->stmt) != SQLITE_OK ||
	    bind_terms(pf->stmt, &idx, filters, nfilters, 1, &pf->err))
		goto fail;
	if (pthread_create(thread, NULL, prefetch_run, pf) == 0)
		return 0;
fail:
	sqlite3_finalize(pf->stmt);
	close_reader(pf->db);
	memset(pf, 0, sizeof(*pf));
	return -1;
}

/* Waits for *pf and frees its statement and connection (not what it read). */
static void finish_prefetch(struct cond_prefetch *pf, pthread_t thread)
{
	pthread_join(thread, NULL);
	sqlite3_finalize(pf->stmt);
	pf->stmt = NULL;
	close_reader(pf->db);
	pf->db = NULL;
}

/* pl_store_query_columns(), with the reading threads when threads is 1.
 * *torn is set to 1 (and nothing returned, rc 0) when a thread's connection
 * saw another ledger generation than the store's: stored runs changed in
 * between, and the caller reads again without threads. */
static int query_columns(struct pl_store *st, const struct pl_filter *filters, size_t nfilters,
                         const unsigned char want[PL_METRIC_COUNT], struct pl_run_columns *out,
                         int threads, int *torn, struct pl_error *err)
{
	struct scan_part a, b;
	struct cond_prefetch pf;
	pthread_t thread, pf_thread;
	long long lo, hi, mid, gen = 0;
	unsigned long long span;
	const char *term = NULL;
	int own_tx = 0, split = 0, prefetch = 0, rc;

	pl_run_columns_init(out);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.db = st->db;
	a.want = want;
	a.started_same = 1;
	pl_error_init(&a.err);
	if ((rc = pl_store_check_filters(filters, nfilters, err)))
		return rc;
	/* runs and their conditions rows from one snapshot */
	if (sqlite3_get_autocommit(st->db)) {
		if ((rc = pl_store_exec_sql(st, "BEGIN", "starting to read", err)))
			return rc;
		own_tx = 1;
	}
	if ((rc = run_id_bound(st, "SELECT min(id) FROM runs", &lo, err)) ||
	    (rc = run_id_bound(st, "SELECT max(id) FROM runs", &hi, err)) ||
	    (rc = pl_store_retraction_term(st, &term, err)) ||
	    (rc = prepare_columns(st->db, filters, nfilters, term, want, &a.stmt, err)))
		goto out;
	mid = hi;
	span = (unsigned long long)hi - (unsigned long long)lo; /* ids may span all 64 bits */
	if (threads && span >= SPLIT_SPAN && in_wal_mode(st) && read_generation(st->db, &gen) == 0) {
		/* the conditions rows on a thread, the upper half of the runs on
		 * another, the lower half here */
		prefetch = start_prefetch(st, filters, nfilters, &pf, &pf_thread) == 0;
		mid = lo + (long long)(span / 2);
		split = start_second_half(st, filters, nfilters, term, want, mid, hi, &b, &thread) == 0;
		if (!split)
			mid = hi;
	}
	sqlite3_bind_int64(a.stmt, 1, lo);
	sqlite3_bind_int64(a.stmt, 2, mid);
	scan_part_run(&a);
	if (split) {
		pthread_join(thread, NULL);
		sqlite3_finalize(b.stmt);
		b.stmt = NULL;
		close_reader(b.db);
		b.db = NULL;
		if (!a.rc && b.rc) {
			a.rc = b.rc;
			a.err = b.err;
		}
		if (!a.rc && part_append(&a, &b))
			a.rc = pl_error_set(&a.err, PL_ENOMEM, "out of memory");
	}
	if (prefetch) {
		finish_prefetch(&pf, pf_thread);
		if (!a.rc && pf.rc) {
			a.rc = pf.rc;
			a.err = pf.err;
		}
	}
	if ((split && b.gen != gen) || (prefetch && pf.gen != gen)) {
		*torn = 1; /* whatever the threads read, or failed to read */
		goto out;
	}
	if ((rc = a.rc)) {
		*err = a.err;
		goto out;
	}
	*out = a.cols;
	memset(&a.cols, 0, sizeof(a.cols));
	if (out->n == 0)
		goto out;
	if (!(out->set = malloc(out->n * sizeof(*out->set))) ||
	    columns_sort_by_id(out, a.cond_id, want)) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	rc = columns_sets(st, out, a.cond_id, a.started_same ? a.started_at : NULL,
	                  prefetch ? &pf : NULL, err);
out:
	part_release(&a);
	part_release(&b);
	if (prefetch) { /* what columns_sets() did not take */
		for (size_t i = 0; i < pf.pool.n; i++)
			free(pf.pool.list[i]);
		free(pf.pool.list);
		free(pf.pool.slot);
		free(pf.sets);
		free(pf.ids);
	}
	if (own_tx)
		pl_store_exec_sql(st, rc ? "ROLLBACK" : "COMMIT", "finishing the read", NULL);
	if (rc)
		pl_run_columns_release(out);
	return rc;
}

int pl_store_query_columns(struct pl_store *st, const struct pl_filter *filters, size_t nfilters,
                           const unsigned char want[PL_METRIC_COUNT], struct pl_run_columns *out,
                           struct pl_error *err)
{
	int torn = 0, rc = query_columns(st, filters, nfilters, want, out, 1, &torn, err);

	if (rc == 0 && torn)
		rc = query_columns(st, filters, nfilters, want, out, 0, &torn, err);
	return rc;
}
