/*
 * query.c — reading runs back whole: --where filters turned into SQL terms
 * and bound, rows read into struct pl_run (each conditions row's values and
 * extra conditions read once through a small cache), pl_store_query(),
 * pl_store_query_source(), and the two lookups an import asks first
 * (pl_store_has_sha256(), pl_store_count_runs()).
 */
#include "store/store_impl.h"
#include "util/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int pl_store_has_sha256(struct pl_store *st, const char *sha256, int *found, struct pl_error *err)
{
	int rc;

	*found = 0;
	sqlite3_bind_text(st->has_sha, 1, sha256, -1, SQLITE_STATIC);
	rc = sqlite3_step(st->has_sha);
	if (rc == SQLITE_ROW)
		*found = 1;
	rc = (rc == SQLITE_ROW || rc == SQLITE_DONE) ? 0 : pl_store_fail(st, err, "looking up a sha256");
	sqlite3_reset(st->has_sha);
	sqlite3_clear_bindings(st->has_sha);
	return rc;
}

int pl_store_has_record(struct pl_store *st, const char *record_id, const char *sha256,
                        int *found, struct pl_error *err)
{
	int rc;

	unsigned char id[16];

	*found = 0;
	pl_store_record_bytes(record_id, id);
	sqlite3_bind_blob(st->record_select, 1, id, sizeof(id), SQLITE_TRANSIENT);
	sqlite3_bind_text(st->record_select, 2, sha256, -1, SQLITE_STATIC);
	rc = sqlite3_step(st->record_select);
	if (rc == SQLITE_ROW)
		*found = 1;
	rc = (rc == SQLITE_ROW || rc == SQLITE_DONE) ? 0 : pl_store_fail(st, err, "looking up a record");
	sqlite3_reset(st->record_select);
	sqlite3_clear_bindings(st->record_select);
	return rc;
}

/* The run of runs[0..n) with this record, or NULL: runs of a file come in
 * record order from 0, so runs[record] is tried first. */
static const struct pl_run *run_of_record(const struct pl_run *runs, size_t n, long long record,
                                          size_t *at)
{
	if (record >= 0 && (unsigned long long)record < n && runs[record].record == record) {
		*at = (size_t)record;
		return &runs[record];
	}
	for (size_t k = 0; k < n; k++)
		if (runs[k].record == record) {
			*at = k;
			return &runs[k];
		}
	return NULL;
}

int pl_store_source_same_keys(struct pl_store *st, const char *sha256, const struct pl_run *runs,
                              const struct pl_cond_key *keys, size_t n, int *same,
                              struct pl_error *err)
{
	int rc = 0, step = SQLITE_DONE;

	*same = 1;
	if (!st->source_keys &&
	    sqlite3_prepare_v2(st->db,
	                       "SELECT runs.record, runs.run_started_at, conditions.key_text, "
	                       "(SELECT count(*) FROM condition_extras e "
	                       "WHERE e.condition_id = conditions.id) "
	                       "FROM runs JOIN conditions ON conditions.id = runs.condition_id "
	                       "WHERE runs.source_sha256 = ?1",
	                       -1, &st->source_keys, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "preparing the lookup of a source");
	sqlite3_bind_text(st->source_keys, 1, sha256, -1, SQLITE_STATIC);
	while (*same && (step = sqlite3_step(st->source_keys)) == SQLITE_ROW) {
		size_t k;
		const struct pl_run *run =
			run_of_record(runs, n, sqlite3_column_int64(st->source_keys, 0), &k);
		const char *started = (const char *)sqlite3_column_text(st->source_keys, 1);
		const void *key = sqlite3_column_blob(st->source_keys, 2);
		size_t len = (size_t)sqlite3_column_bytes(st->source_keys, 2);
		int has_started;

		if (!run || run->reject)
			continue; /* a record the file does not give now (or rejects): not compared */
		has_started = pl_cond_key_has(run, PL_C_RUN_STARTED_AT);
		/* the extras are in key_text too; their count is checked as well,
		 * so that extra rows the key does not name are not overlooked */
		if (len != keys[k].len || (len && memcmp(key, keys[k].text, len) != 0) ||
		    sqlite3_column_int64(st->source_keys, 3) != (sqlite3_int64)run->nextra ||
		    !started != !has_started ||
		    (started && strcmp(started, run->cond[PL_C_RUN_STARTED_AT].text) != 0))
			*same = 0;
	}
	if (*same && step != SQLITE_DONE)
		rc = pl_store_fail(st, err, "reading the runs of a source");
	sqlite3_reset(st->source_keys);
	sqlite3_clear_bindings(st->source_keys);
	return rc;
}

int pl_store_count_runs(struct pl_store *st, long long *count, struct pl_error *err)
{
	int rc = sqlite3_step(st->count);

	*count = 0;
	if (rc == SQLITE_ROW) {
		*count = sqlite3_column_int64(st->count, 0);
		rc = 0;
	} else {
		rc = pl_store_fail(st, err, "counting runs");
	}
	sqlite3_reset(st->count);
	return rc;
}

/* 1 if filter f selects on the conditions row (a condition of `conditions`
 * or an extra condition), 0 if on the run (run_started_at). */
int pl_store_filter_on_conditions(const struct pl_filter *f)
{
	return f->cond == PL_C_NONE || in_conditions(f->cond);
}

/* Checks that every filter names a condition or an extra condition.
 * Returns 0 or PL_EUSAGE. */
int pl_store_check_filters(const struct pl_filter *filters, size_t nfilters, struct pl_error *err)
{
	for (size_t i = 0; i < nfilters; i++) {
		const struct pl_filter *f = &filters[i];

		if (f->cond == PL_C_NONE && f->extra && strchr(f->extra, '.') && f->extra[0] != '.')
			continue;
		if (f->cond < 0 || f->cond >= PL_COND_COUNT)
			return pl_error_set(err, PL_EUSAGE, "unknown condition id %d in filter", f->cond);
	}
	return 0;
}

/* Appends the SQL term of filter f to s: "<prefix>name = ?" or
 * "<prefix>name IS NULL" (prefix: the table, e.g. "conditions.", or ""),
 * and for an extra condition an EXISTS (or NOT EXISTS, for "missing") on
 * condition_extras of the conditions row in scope. Only our identifiers
 * go into the text; the values are parameters (pl_store_bind_filter()). */
void pl_store_append_term(sqlite3_str *s, const struct pl_filter *f, const char *prefix)
{
	if (f->cond == PL_C_NONE) {
		sqlite3_str_appendall(s, f->value ? "EXISTS" : "NOT EXISTS");
		sqlite3_str_appendall(s, " (SELECT 1 FROM condition_extras AS e WHERE "
		                         "e.condition_id = conditions.id AND e.name = ?");
		sqlite3_str_appendall(s, f->value ? " AND e.value = ?)" : ")");
		return;
	}
	pl_store_append_ident(s, prefix, pl_cond_info[f->cond].name);
	sqlite3_str_appendall(s, f->value ? " = ?" : " IS NULL");
}

/* Binds a filter value to parameter idx according to the condition's type;
 * an extra condition's name and value (as text) to idx and idx + 1.
 * *used gets the number of parameters bound (0, 1 or 2).
 * Returns 0 or PL_EUSAGE for a value that cannot be of that type. */
int pl_store_bind_filter(sqlite3_stmt *s, int idx, const struct pl_filter *f, int *used,
                         struct pl_error *err)
{
	const struct pl_cond_info *ci;
	double d;

	*used = 0;
	if (f->cond == PL_C_NONE) {
		sqlite3_bind_text(s, idx, f->extra, -1, SQLITE_STATIC);
		*used = 1;
		if (f->value) {
			sqlite3_bind_text(s, idx + 1, f->value, -1, SQLITE_STATIC);
			*used = 2;
		}
		return 0;
	}
	if (!f->value)
		return 0;
	ci = &pl_cond_info[f->cond];
	*used = 1;
	switch (ci->type) {
	case PL_CT_BOOL:
		if (strcasecmp(f->value, "true") == 0 || strcmp(f->value, "1") == 0) {
			sqlite3_bind_int(s, idx, 1);
			return 0;
		}
		if (strcasecmp(f->value, "false") == 0 || strcmp(f->value, "0") == 0) {
			sqlite3_bind_int(s, idx, 0);
			return 0;
		}
		pl_error_field(err, ci->name);
		return pl_error_set(err, PL_EUSAGE, "'%s' must be true or false, got '%s'", ci->name,
		                    f->value);
	case PL_CT_INT:
	case PL_CT_REAL:
		if (pl_parse_num(f->value, 1, &d) != 0) {
			pl_error_field(err, ci->name);
			return pl_error_set(err, PL_EUSAGE, "'%s' must be a number or inf, got '%s'",
			                    ci->name, f->value);
		}
		sqlite3_bind_double(s, idx, d);
		return 0;
	case PL_CT_TEXT:
	case PL_CT_VERSION:
	case PL_CT_TIME:
		break;
	}
	sqlite3_bind_text(s, idx, f->value, -1, SQLITE_STATIC);
	return 0;
}

/* Runs share conditions rows, and turning a stored number back into its
 * canonical text costs more than the rest of a row, so a query keeps the
 * values of recently seen conditions rows: a direct-mapped cache on the
 * conditions id (ids are dense, so a database with up to COND_CACHE_SLOTS
 * condition sets never misses after the first row of each). */
#define COND_CACHE_SLOTS 256

struct cond_slot {
	long long id;       /* conditions.id held, 0 if empty */
	struct pl_run vals; /* only cond[] (the `conditions` columns) is used */
};

static void cond_cache_free(struct cond_slot *cache)
{
	if (!cache)
		return;
	for (int i = 0; i < COND_CACHE_SLOTS; i++)
		pl_run_release(&cache[i].vals);
	free(cache);
}

/* Reads the `conditions` columns of the current row, from column col on,
 * into run. */
static int read_conditions(sqlite3_stmt *s, int col, struct pl_run *run, struct pl_error *err)
{
	int rc = 0;

	for (int i = 0; i < PL_COND_COUNT && !rc; i++) {
		int c;

		if (!in_conditions(i))
			continue;
		c = col++;
		if (sqlite3_column_type(s, c) == SQLITE_NULL)
			continue;
		if (is_numeric(pl_cond_info[i].type))
			rc = pl_run_set_cond_num(run, i, sqlite3_column_double(s, c), err);
		else
			rc = pl_run_set_cond(run, i, (const char *)sqlite3_column_text(s, c), err);
	}
	return rc;
}

/* Sets run's `conditions` values from the cache, filling the slot on a miss. */
static int cached_conditions(sqlite3_stmt *s, struct cond_slot *cache, struct pl_run *run,
                             struct pl_error *err)
{
	long long id = sqlite3_column_int64(s, QC_CONDITION_ID);
	struct cond_slot *slot = &cache[(unsigned long long)id % COND_CACHE_SLOTS];
	int rc;

	if (slot->id != id) {
		pl_run_release(&slot->vals);
		slot->id = 0;
		if ((rc = read_conditions(s, QC_COND0, &slot->vals, err)))
			return rc;
		slot->id = id;
	}
	for (int i = 0; i < PL_COND_COUNT; i++) {
		const struct pl_value *v = &slot->vals.cond[i];

		if (!in_conditions(i) || !v->set)
			continue;
		if (pl_strset(&run->cond[i].text, v->text))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		run->cond[i].set = 1;
		run->cond[i].num = v->num;
	}
	return 0;
}

/* A stored value this program cannot read (the file was edited outside
 * perfledger, or written by another version): PL_EDB naming the database,
 * the run, the field and the value (cut to 100 bytes), so that the user can
 * find the row. what says what the value should be. */
static int unreadable(const char *path, long long id, const char *field, const char *value,
                      const char *what, struct pl_error *err)
{
	pl_error_field(err, NULL);
	return pl_error_set(err, PL_EDB,
	                    "database '%s': run %lld has %s '%.100s%s', which this perfledger cannot "
	                    "read (%s)",
	                    path, id, field, value, strlen(value) > 100 ? "..." : "", what);
}

/* Fills run from the current row of a select_sql statement of the
 * database at path. */
static int read_row(const char *path, sqlite3_stmt *s, struct cond_slot *cache,
                    struct pl_run *run, struct pl_error *err)
{
	const char *t;
	int col = QC_COND0 + PL_COND_COUNT - 1; /* the first metric */
	int rc;

	run->id = sqlite3_column_int64(s, QC_ID);
	t = (const char *)sqlite3_column_text(s, QC_SHA256);
	if (t)
		snprintf(run->sha256, sizeof(run->sha256), "%s", t);
	run->record = (long)sqlite3_column_int64(s, QC_RECORD);
	run->checklist_missing = (unsigned)sqlite3_column_int64(s, QC_CHECKLIST);
	if (pl_strset(&run->source, (const char *)sqlite3_column_text(s, QC_SOURCE)) ||
	    pl_strset(&run->adapter, (const char *)sqlite3_column_text(s, QC_ADAPTER)) ||
	    pl_strset(&run->format_version, (const char *)sqlite3_column_text(s, QC_FORMAT_VERSION)) ||
	    pl_strset(&run->imported_at, (const char *)sqlite3_column_text(s, QC_IMPORTED_AT)))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if ((rc = cache ? cached_conditions(s, cache, run, err)
	                 : read_conditions(s, QC_COND0, run, err)))
		return rc;
	if (sqlite3_column_type(s, QC_RUN_STARTED_AT) != SQLITE_NULL) {
		const char *started = (const char *)sqlite3_column_text(s, QC_RUN_STARTED_AT);

		if (!started)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		rc = pl_run_set_cond(run, PL_C_RUN_STARTED_AT, started, err);
		if (rc == PL_EINVALID)
			return unreadable(path, run->id, "run_started_at", started,
			                  "not an ISO 8601 time like 2026-01-31T12:00:00Z", err);
		if (rc)
			return rc;
	}
	/* a number, or missing: text that is no number (a column's REAL
	 * affinity stores a number given as text as a number; "NaN" or "abc"
	 * stays text, and SQLite reads it as 0) is no value perfledger wrote */
	for (int m = 0; m < PL_METRIC_COUNT; m++, col++)
		if (sqlite3_column_type(s, col) == SQLITE_FLOAT ||
		    sqlite3_column_type(s, col) == SQLITE_INTEGER)
			pl_run_set_metric(run, m, sqlite3_column_double(s, col));
	for (int f = 0; f < PL_BUILD_COUNT; f++, col++)
		if (sqlite3_column_type(s, col) != SQLITE_NULL &&
		    pl_strset(&run->build[f], (const char *)sqlite3_column_text(s, col)))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
	run->record_id[0] = '\0'; /* record identity (migration 008): 16 bytes, or NULL */
	if (sqlite3_column_type(s, col) == SQLITE_BLOB && sqlite3_column_bytes(s, col) == 16) {
		static const char hexd[] = "0123456789abcdef";
		const unsigned char *b = sqlite3_column_blob(s, col);

		if (!b)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		for (int i = 0; i < 16; i++) {
			run->record_id[2 * i] = hexd[b[i] >> 4];
			run->record_id[2 * i + 1] = hexd[b[i] & 15];
		}
		run->record_id[32] = '\0';
	}
	return 0;
}

/* Prepares select_sql with a WHERE clause for filters and the retraction
 * term (pl_store_retraction_term(), or NULL) and binds them. *out must be
 * finalized by the caller. */
static int prepare_filtered_by(struct pl_store *st, const struct pl_filter *filters,
                               size_t nfilters, const char *term, const char *order,
                               sqlite3_stmt **out, struct pl_error *err)
{
	sqlite3_str *s;
	int rc, idx = 1;

	*out = NULL;
	if ((rc = pl_store_check_filters(filters, nfilters, err)))
		return rc;
	s = sqlite3_str_new(st->db);
	sqlite3_str_appendall(s, st->select_sql);
	for (size_t i = 0; i < nfilters; i++) {
		sqlite3_str_appendall(s, i == 0 ? " WHERE " : " AND ");
		pl_store_append_term(s, &filters[i],
		                     pl_store_filter_on_conditions(&filters[i]) ? "conditions." : "runs.");
	}
	if (term) { /* retractions: our own text */
		sqlite3_str_appendall(s, nfilters == 0 ? " WHERE " : " AND ");
		sqlite3_str_appendall(s, term);
	}
	sqlite3_str_appendall(s, order);
	if ((rc = pl_store_prepare_str(st->db, s, out)) == SQLITE_NOMEM)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc != SQLITE_OK)
		return pl_store_fail(st, err, "preparing the query");
	for (size_t i = 0; i < nfilters; i++) {
		int used;

		if ((rc = pl_store_bind_filter(*out, idx, &filters[i], &used, err))) {
			sqlite3_finalize(*out);
			*out = NULL;
			return rc;
		}
		idx += used;
	}
	return 0;
}

static int prepare_filtered(struct pl_store *st, const struct pl_filter *filters, size_t nfilters,
                            const char *term, sqlite3_stmt **out, struct pl_error *err)
{
	return prepare_filtered_by(st, filters, nfilters, term, " ORDER BY runs.id", out, err);
}

/* ------------------------------------------------------ extra conditions */

/* *any gets 1 if any conditions row has extra conditions. Returns 0 or
 * PL_EDB. */
int pl_store_have_extras(struct pl_store *st, int *any, struct pl_error *err)
{
	*any = 0;
	return pl_store_query_int(st, "SELECT EXISTS (SELECT 1 FROM condition_extras)",
	                          "reading extra conditions", any, err);
}

/* Adds the extra condition of the current row of q (columns 0 condition_id,
 * 1 name, 2 value) to set. Returns 0, PL_ENOMEM, or PL_EDB for a stored
 * name or value that a run cannot hold (edited outside perfledger). */
static int add_stored_extra(sqlite3_stmt *q, struct pl_run *set, struct pl_error *err)
{
	const char *name = (const char *)sqlite3_column_text(q, 1);
	const char *value = (const char *)sqlite3_column_text(q, 2);
	struct pl_error e;
	int rc;

	pl_error_init(&e);
	if (!value)
		value = "";
	if (!name || (rc = pl_run_set_extra(set, name, value, &e)) == PL_EINVALID)
		return pl_error_set(err, PL_EDB,
		                    "database error: conditions row %lld has an extra condition '%s' "
		                    "that is not FORMAT.key and UTF-8 text",
		                    (long long)sqlite3_column_int64(q, 0), name ? name : "(null)");
	if (rc)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	return 0;
}

/* Reads the extra conditions of the conditions rows ids[0..nids)
 * (ascending, distinct) into sets[k], the set of ids[k], in name order: one
 * lookup per row for a few, one ordered scan of their span for many (as
 * read_condition_sets()); never one per run. The caller checks
 * pl_store_have_extras() first. Returns 0, PL_EDB or PL_ENOMEM. */
int pl_store_read_extras(struct pl_store *st, const long long *ids, size_t nids,
                         struct pl_run *sets, struct pl_error *err)
{
	sqlite3_stmt *q = NULL;
	int few = nids <= 4096, rc = 0, step = SQLITE_DONE;
	size_t k = 0;

	if (nids == 0)
		return 0;
	if (sqlite3_prepare_v2(st->db,
	                       few ? "SELECT condition_id, name, value FROM condition_extras "
	                             "WHERE condition_id = ?1 ORDER BY name"
	                           : "SELECT condition_id, name, value FROM condition_extras "
	                             "WHERE condition_id BETWEEN ?1 AND ?2 "
	                             "ORDER BY condition_id, name",
	                       -1, &q, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "reading extra conditions");
	if (few) {
		for (k = 0; k < nids && !rc && step == SQLITE_DONE; k++) {
			sqlite3_bind_int64(q, 1, ids[k]);
			while (!rc && (step = sqlite3_step(q)) == SQLITE_ROW)
				rc = add_stored_extra(q, &sets[k], err);
			if (step == SQLITE_DONE || rc)
				sqlite3_reset(q);
		}
	} else {
		sqlite3_bind_int64(q, 1, ids[0]);
		sqlite3_bind_int64(q, 2, ids[nids - 1]);
		while (!rc && (step = sqlite3_step(q)) == SQLITE_ROW) {
			long long id = sqlite3_column_int64(q, 0);

			while (k < nids && ids[k] < id)
				k++;
			if (k < nids && ids[k] == id) /* else a row no selected run uses */
				rc = add_stored_extra(q, &sets[k], err);
		}
	}
	if (!rc && step != SQLITE_DONE && step != SQLITE_ROW)
		rc = pl_store_fail(st, err, "reading extra conditions");
	sqlite3_finalize(q);
	return rc;
}

/* Gives the runs list->v[from..list->n) the extra conditions of their
 * conditions rows (cond_id[i] is that of list->v[from + i]): each row's
 * extras read once, then copied to each of its runs. Returns 0, PL_EDB or
 * PL_ENOMEM. */
static int attach_extras(struct pl_store *st, struct pl_run_list *list, size_t from,
                         const long long *cond_id, struct pl_error *err)
{
	size_t n = list->n - from, nids = 0;
	long long *ids = NULL;
	size_t *set = NULL;
	struct pl_run *sets = NULL;
	int any = 0, rc;

	if (n == 0 || (rc = pl_store_have_extras(st, &any, err)) || !any)
		return n == 0 ? 0 : rc;
	if (!(ids = malloc(n * sizeof(*ids))) || !(set = malloc(n * sizeof(*set))) ||
	    pl_store_map_condition_ids(cond_id, n, ids, &nids, set) ||
	    !(sets = calloc(nids, sizeof(*sets)))) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	rc = pl_store_read_extras(st, ids, nids, sets, err);
	for (size_t i = 0; i < n && !rc; i++) {
		const struct pl_run *src = &sets[set[i]];

		for (size_t e = 0; e < src->nextra && !rc; e++)
			if (pl_run_set_extra(&list->v[from + i], src->extra[e].name, src->extra[e].value,
			                     NULL))
				rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	}
out:
	for (size_t k = 0; sets && k < nids; k++)
		pl_run_release(&sets[k]);
	free(sets);
	free(set);
	free(ids);
	return rc;
}

/* Grows a long long array for a run list's conditions ids so that index i
 * fits. Returns 0 or PL_ENOMEM. */
static int ids_reserve(long long **v, size_t *cap, size_t i)
{
	return PL_ALLOC_GROW(*v, i + 1, *cap);
}

/* Steps s to its end, appending each row to out as a run (read_row() with
 * cache, which may be NULL) and its conditions id to *cond_id, indexed from
 * the run list's length at the call (the array is the caller's to free()).
 * doing names the read in an error. Returns 0, PL_EDB or PL_ENOMEM (out
 * then holds the runs read before). */
static int read_runs(struct pl_store *st, sqlite3_stmt *s, struct cond_slot *cache,
                     struct pl_run_list *out, long long **cond_id, const char *doing,
                     struct pl_error *err)
{
	size_t from = out->n, cap = 0;
	int rc = 0, step;

	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		struct pl_run *run;

		if (ids_reserve(cond_id, &cap, out->n - from) || !(run = pl_run_list_push(out))) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		(*cond_id)[out->n - 1 - from] = sqlite3_column_int64(s, QC_CONDITION_ID);
		if ((rc = read_row(st->path, s, cache, run, err))) {
			pl_run_release(run);
			out->n--;
			break;
		}
	}
	if (!rc && step != SQLITE_DONE)
		rc = pl_store_fail(st, err, doing);
	return rc;
}

int pl_store_query(struct pl_store *st, const struct pl_filter *filters, size_t nfilters,
                   struct pl_run_list *out, struct pl_error *err)
{
	sqlite3_stmt *s = st->query_all;
	struct cond_slot *cache;
	long long *cond_id = NULL; /* per run read, its conditions id */
	const char *term = NULL;
	size_t from = out->n;
	int rc = 0;

	if ((rc = pl_store_check_filters(filters, nfilters, err)) ||
	    (rc = pl_store_retraction_term(st, &term, err)))
		return rc;
	if ((nfilters > 0 || term) && (rc = prepare_filtered(st, filters, nfilters, term, &s, err)))
		return rc;
	cache = calloc(COND_CACHE_SLOTS, sizeof(*cache)); /* NULL: read every row in full */
	rc = read_runs(st, s, cache, out, &cond_id, "reading runs", err);
	if (!rc)
		rc = attach_extras(st, out, from, cond_id, err);
	if (!rc)
		rc = pl_store_annotate_runs(st, out, from, err);
	free(cond_id);
	cond_cache_free(cache);
	if (s == st->query_all)
		sqlite3_reset(s);
	else
		sqlite3_finalize(s);
	return rc;
}

int pl_store_query_source(struct pl_store *st, const char *sha256, struct pl_run_list *out,
                          struct pl_error *err)
{
	sqlite3_str *q = sqlite3_str_new(st->db);
	sqlite3_stmt *s = NULL;
	long long *cond_id = NULL; /* per run read, its conditions id */
	size_t from = out->n;
	int rc = 0, step;

	sqlite3_str_appendall(q, st->select_sql);
	sqlite3_str_appendall(q, " WHERE runs.source_sha256 = ?1 ORDER BY runs.record");
	if ((step = pl_store_prepare_str(st->db, q, &s)) == SQLITE_NOMEM)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (step != SQLITE_OK)
		return pl_store_fail(st, err, "preparing the lookup of a source");
	sqlite3_bind_text(s, 1, sha256, -1, SQLITE_STATIC);
	rc = read_runs(st, s, NULL, out, &cond_id, "reading the runs of a source", err);
	sqlite3_finalize(s);
	if (!rc)
		rc = attach_extras(st, out, from, cond_id, err);
	if (!rc)
		rc = pl_store_read_measures(st, out, from, err);
	free(cond_id);
	return rc;
}

/* Why run_id was not read: PL_EEMPTY saying it is retracted, or that there
 * is no such run; PL_EDB if the lookup fails. */
static int missing_run(struct pl_store *st, long long run_id, struct pl_error *err)
{
	sqlite3_stmt *e = NULL;
	int exists = 0;

	if (sqlite3_prepare_v2(st->db, "SELECT EXISTS (SELECT 1 FROM runs WHERE id = ?1)", -1, &e,
	                       NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "looking up a run");
	sqlite3_bind_int64(e, 1, run_id);
	if (sqlite3_step(e) == SQLITE_ROW)
		exists = sqlite3_column_int(e, 0);
	sqlite3_finalize(e);
	if (exists)
		return pl_error_set(err, PL_EEMPTY,
		                    "run %lld is retracted (perfledger restore --run %lld --reason TEXT "
		                    "puts it back)", run_id, run_id);
	return pl_error_set(err, PL_EEMPTY, "no run with id %lld", run_id);
}

int pl_store_query_key_of(struct pl_store *st, long long run_id, struct pl_run_list *out,
                          struct pl_error *err)
{
	sqlite3_str *q;
	sqlite3_stmt *s = NULL;
	long long *cond_id = NULL; /* per run read, its conditions id */
	const char *term = NULL;
	size_t from = out->n;
	int rc, step;

	if ((rc = pl_store_retraction_term(st, &term, err)))
		return rc;
	q = sqlite3_str_new(st->db);
	sqlite3_str_appendall(q, st->select_sql);
	sqlite3_str_appendall(q, " WHERE runs.condition_id = (SELECT condition_id FROM runs AS r"
	                         " WHERE r.id = ?1)");
	if (term) { /* retracted runs are left out, as by pl_store_query */
		sqlite3_str_appendall(q, " AND ");
		sqlite3_str_appendall(q, term);
	}
	sqlite3_str_appendall(q, " ORDER BY runs.id");
	if ((step = pl_store_prepare_str(st->db, q, &s)) == SQLITE_NOMEM)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (step != SQLITE_OK)
		return pl_store_fail(st, err, "preparing the lookup of a run's condition key");
	sqlite3_bind_int64(s, 1, run_id);
	rc = read_runs(st, s, NULL, out, &cond_id, "reading the runs of a condition key", err);
	sqlite3_finalize(s);
	if (!rc)
		rc = attach_extras(st, out, from, cond_id, err);
	if (!rc)
		rc = pl_store_annotate_runs(st, out, from, err);
	free(cond_id);
	if (rc)
		return rc;
	for (size_t i = from; i < out->n; i++)
		if (out->v[i].id == run_id)
			return 0;
	/* the run itself was not read: the others of its key are no series of it */
	while (out->n > from)
		pl_run_release(&out->v[--out->n]);
	return missing_run(st, run_id, err);
}

/* ------------------------------------------- every run, one at a time */

/* The extra conditions of recently seen conditions rows, for
 * pl_store_each_run(): direct-mapped on the conditions id, like the
 * conditions cache. */
struct extra_slot {
	long long id;       /* conditions.id held, 0 if empty */
	struct pl_run vals; /* only extra[] is used */
};

int pl_store_each_run(struct pl_store *st, const struct pl_filter *filters, size_t nfilters,
                      int (*fn)(void *ctx, const struct pl_run *run, struct pl_error *err),
                      void *ctx, struct pl_error *err)
{
	sqlite3_stmt *s = st->query_all;
	struct cond_slot *cache = NULL;
	struct extra_slot *extras = NULL;
	struct pl_run run;
	const char *term = NULL;
	int any = 0, measures = 0, rc, step;

	if ((rc = pl_store_check_filters(filters, nfilters, err)) ||
	    (rc = pl_store_retraction_term(st, &term, err)) ||
	    (rc = pl_store_have_extras(st, &any, err)) ||
	    (rc = pl_store_query_int(st, "SELECT EXISTS (SELECT 1 FROM run_measurements)",
	                             "reading unplaced measurements", &measures, err)))
		return rc;
	if ((nfilters > 0 || term) && (rc = prepare_filtered(st, filters, nfilters, term, &s, err)))
		return rc;
	if (!(cache = calloc(COND_CACHE_SLOTS, sizeof(*cache))) ||
	    (any && !(extras = calloc(COND_CACHE_SLOTS, sizeof(*extras))))) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	pl_run_init(&run);
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		long long cid = sqlite3_column_int64(s, QC_CONDITION_ID);

		pl_run_release(&run);
		if ((rc = read_row(st->path, s, cache, &run, err)))
			break;
		if (extras) {
			struct extra_slot *slot = &extras[(unsigned long long)cid % COND_CACHE_SLOTS];

			if (slot->id != cid) {
				pl_run_release(&slot->vals);
				slot->id = 0;
				if ((rc = pl_store_read_extras(st, &cid, 1, &slot->vals, err)))
					break;
				slot->id = cid;
			}
			for (size_t e = 0; e < slot->vals.nextra && !rc; e++)
				if (pl_run_set_extra(&run, slot->vals.extra[e].name, slot->vals.extra[e].value,
				                     NULL))
					rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			if (rc)
				break;
		}
		if (measures) { /* one indexed lookup per run, when any run has some */
			struct pl_run_list one = {&run, 1, 1};
			if ((rc = pl_store_read_measures(st, &one, 0, err)))
				break;
		}
		if ((rc = fn(ctx, &run, err)))
			break;
	}
	if (!rc && step != SQLITE_DONE)
		rc = pl_store_fail(st, err, "reading runs");
	pl_run_release(&run);
out:
	cond_cache_free(cache);
	for (size_t i = 0; extras && i < COND_CACHE_SLOTS; i++)
		pl_run_release(&extras[i].vals);
	free(extras);
	if (s == st->query_all)
		sqlite3_reset(s);
	else
		sqlite3_finalize(s);
	return rc;
}

int pl_store_get_run(struct pl_store *st, long long id, struct pl_run *run, int *found,
                     struct pl_error *err)
{
	struct pl_run_list one;
	sqlite3_str *q = sqlite3_str_new(st->db);
	sqlite3_stmt *s = NULL;
	long long *cond_id = NULL;
	int rc;

	*found = 0;
	pl_run_list_init(&one);
	sqlite3_str_appendall(q, st->select_sql);
	sqlite3_str_appendall(q, " WHERE runs.id = ?1");
	if ((rc = pl_store_prepare_str(st->db, q, &s)) == SQLITE_NOMEM)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc != SQLITE_OK)
		return pl_store_fail(st, err, "preparing the lookup of a run");
	sqlite3_bind_int64(s, 1, id);
	rc = read_runs(st, s, NULL, &one, &cond_id, "reading a run", err);
	sqlite3_finalize(s);
	if (!rc)
		rc = attach_extras(st, &one, 0, cond_id, err);
	if (!rc)
		rc = pl_store_annotate_runs(st, &one, 0, err);
	free(cond_id);
	if (!rc && one.n == 1) {
		pl_run_release(run);
		*run = one.v[0];
		pl_run_init(&one.v[0]);
		*found = 1;
	}
	pl_run_list_release(&one);
	return rc;
}

/* Hands the runs of one conditions row (list, their conditions ids in
 * cond_id) to fn with their extras and ledger state attached, then empties
 * the list. */
static int flush_set(struct pl_store *st, struct pl_run_list *list, const long long *cond_id,
                     pl_store_set_fn fn, void *ctx, struct pl_error *err)
{
	int rc = 0;

	if (list->n)
		rc = attach_extras(st, list, 0, cond_id, err);
	if (!rc && list->n)
		rc = pl_store_annotate_runs(st, list, 0, err);
	if (!rc && list->n)
		rc = fn(ctx, list, err);
	pl_run_list_release(list);
	pl_run_list_init(list);
	return rc;
}

int pl_store_each_set(struct pl_store *st, const struct pl_filter *filters, size_t nfilters,
                      pl_store_set_fn fn, void *ctx, struct pl_error *err)
{
	sqlite3_stmt *s = NULL;
	struct cond_slot *cache;
	struct pl_run_list list;
	long long *cond_id = NULL, cur = 0;
	const char *term = NULL;
	size_t cap = 0;
	int rc, step;

	if ((rc = pl_store_check_filters(filters, nfilters, err)) ||
	    (rc = pl_store_retraction_term(st, &term, err)) ||
	    (rc = prepare_filtered_by(st, filters, nfilters, term,
	                              " ORDER BY runs.condition_id, runs.id", &s, err)))
		return rc;
	pl_run_list_init(&list);
	cache = calloc(COND_CACHE_SLOTS, sizeof(*cache)); /* NULL: read every row in full */
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(s, QC_CONDITION_ID);
		struct pl_run *run;

		if (id != cur && list.n && (rc = flush_set(st, &list, cond_id, fn, ctx, err)))
			break;
		cur = id;
		if (ids_reserve(&cond_id, &cap, list.n) || !(run = pl_run_list_push(&list))) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		cond_id[list.n - 1] = id;
		if ((rc = read_row(st->path, s, cache, run, err)))
			break;
	}
	if (!rc && step != SQLITE_DONE)
		rc = pl_store_fail(st, err, "reading runs");
	if (!rc)
		rc = flush_set(st, &list, cond_id, fn, ctx, err);
	pl_run_list_release(&list);
	free(cond_id);
	cond_cache_free(cache);
	sqlite3_finalize(s);
	return rc;
}

int pl_store_query_source_range(struct pl_store *st, const char *sha256, long from, long to,
                                long limit, struct pl_run_list *out, struct pl_error *err)
{
	sqlite3_str *q = sqlite3_str_new(st->db);
	sqlite3_stmt *s = NULL;
	long long *cond_id = NULL; /* per run read, its conditions id */
	size_t start = out->n;
	int rc = 0, step;

	sqlite3_str_appendall(q, st->select_sql);
	sqlite3_str_appendall(q, " WHERE runs.source_sha256 = ?1 AND runs.record BETWEEN ?2 AND ?3 "
	                         "ORDER BY runs.record LIMIT ?4");
	if ((step = pl_store_prepare_str(st->db, q, &s)) == SQLITE_NOMEM)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (step != SQLITE_OK)
		return pl_store_fail(st, err, "preparing the lookup of a source");
	sqlite3_bind_text(s, 1, sha256, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, from);
	sqlite3_bind_int64(s, 3, to);
	sqlite3_bind_int64(s, 4, limit > 0 ? limit : -1);
	rc = read_runs(st, s, NULL, out, &cond_id, "reading the runs of a source", err);
	sqlite3_finalize(s);
	if (!rc)
		rc = attach_extras(st, out, start, cond_id, err);
	if (!rc)
		rc = pl_store_read_measures(st, out, start, err);
	free(cond_id);
	return rc;
}
