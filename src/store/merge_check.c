/*
 * merge_check.c — the other ledger of a merge is hostile input until it
 * passes these checks, made before anything of it is written here:
 *
 * 1. pl_merge_check_objects(), on the file as given, before it is copied
 *    or migrated: every object is a table, an index or a view this ledger
 *    defines too (by name; merge never reads a view); any other view, a
 *    trigger or a virtual table is refused by name (an endless recursive view once
 *    hung merge while this ledger's WAL grew by gigabytes a minute).
 * 2. pl_merge_check_source(), on the attached ledger (migrated when it was
 *    older): each table merge reads has exactly this ledger's columns, with
 *    their types, NOT NULL and primary key; then every row, one table scan
 *    each, holds values of the column's type (text as UTF-8 and at most
 *    PL_MERGE_TEXT_MAX bytes, BLOBs only in source_chunks.bytes and no
 *    larger than a chunk may be), and is a row import or the commands
 *    would write: metrics finite and in their plausible range
 *    (schema/ranges.tsv), build identity as import --set checks it
 *    (ci_run_url an http(s) URL), sha256 as 64 lowercase hex digits, trail times as perfledger writes them, reasons
 *    and authors not empty, revision numbers from 2, fields and metrics
 *    that exist, chunk sizes within PL_SOURCE_CHUNK_MAX and compression
 *    'zlib'.
 * A source that fails merges nothing: PL_EINVALID naming the first bad
 * object, or the first bad row by table, rowid and column.
 */
#include "store/store_impl.h"
#include "core/carried.h"
#include "core/ranges.h"
#include "util/utf8.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The tables merge reads, in the order they are checked. */
static const char *const merged_tables[] = {"conditions",   "condition_extras", "runs",
                                            "accepted_steps", "revisions",      "retractions",
                                            "source_chunks", NULL};

/* 1 when mine (this ledger) holds a view of that name: a view perfledger
 * itself defines (run_flat, whose SQL an older schema words otherwise),
 * which merge never reads (it reads tables only, checked to be tables). */
static int ours(sqlite3 *mine, const char *type, const char *name)
{
	sqlite3_stmt *s = NULL;
	int found = 0;

	if (!mine || !type || !name || strcmp(type, "view") != 0 ||
	    sqlite3_prepare_v2(mine, "SELECT 1 FROM main.sqlite_master WHERE type = ?1 AND name = ?2",
	                       -1, &s, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(s, 1, type, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, name, -1, SQLITE_STATIC);
	found = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	return found;
}

int pl_merge_check_objects(sqlite3 *db, sqlite3 *mine, const char *path, struct pl_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc = 0, step;

	if (sqlite3_prepare_v2(db,
	                       "SELECT type, name, sql FROM sqlite_master WHERE type NOT IN ('table', "
	                       "'index') OR (type = 'table' AND (sql IS NULL OR upper(substr(ltrim(sql), "
	                       "1, 14)) = 'CREATE VIRTUAL')) ORDER BY type, name",
	                       -1, &s, NULL) != SQLITE_OK)
		return pl_error_set(err, PL_ESCHEMA, "'%s' is not a perfledger database (%s)", path,
		                    sqlite3_errmsg(db));
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(s, 0);
		const char *name = (const char *)sqlite3_column_text(s, 1);

		if (ours(mine, type, name))
			continue;
		rc = pl_error_set(err, PL_EINVALID,
		                  "'%s' is refused: it holds %s '%.100s', which a ledger does not (a "
		                  "ledger holds its tables, indexes and views only); nothing was merged",
		                  path, type && strcmp(type, "table") == 0 ? "the virtual table"
		                        : type && strcmp(type, "view") == 0 ? "the view"
		                        : type && strcmp(type, "trigger") == 0 ? "the trigger"
		                                                               : "the object",
		                  name ? name : "");
		break;
	}
	if (!rc && step != SQLITE_DONE)
		rc = pl_error_set(err, PL_ESCHEMA, "'%s' is not a perfledger database (%s)", path,
		                  sqlite3_errmsg(db));
	sqlite3_finalize(s);
	return rc;
}

/* ------------------------------------------------- SQL functions of ours */

/* pl_ok_utf8(x): 1 unless x is text that is not UTF-8. */
static void fn_utf8(sqlite3_context *c, int n, sqlite3_value **v)
{
	(void)n;
	if (sqlite3_value_type(v[0]) != SQLITE_TEXT) {
		sqlite3_result_int(c, 1);
		return;
	}
	{
		const char *t = (const char *)sqlite3_value_text(v[0]);
		size_t len = (size_t)sqlite3_value_bytes(v[0]);
		sqlite3_result_int(c, t && pl_utf8_valid_prefix(t, len) == len && strlen(t) == len);
	}
}

/* pl_ok_time(x): 1 when x is a time as perfledger writes one. */
static void fn_time(sqlite3_context *c, int n, sqlite3_value **v)
{
	(void)n;
	sqlite3_result_int(c, sqlite3_value_type(v[0]) == SQLITE_TEXT &&
	                          pl_carried_time_valid((const char *)sqlite3_value_text(v[0])));
}

/* pl_ok_metric(id, x): 1 when x is NULL or a plausible value of metric id. */
static void fn_metric(sqlite3_context *c, int n, sqlite3_value **v)
{
	int id = sqlite3_value_int(v[0]), t = sqlite3_value_type(v[1]);
	double x = sqlite3_value_double(v[1]);

	(void)n;
	sqlite3_result_int(c, t == SQLITE_NULL ||
	                          ((t == SQLITE_FLOAT || t == SQLITE_INTEGER) && x >= 0 &&
	                           pl_range_holds(id, x)));
}

/* pl_ok_field(x): 1 when x names a field a revision may change. */
static void fn_field(sqlite3_context *c, int n, sqlite3_value **v)
{
	const char *f = (const char *)sqlite3_value_text(v[0]);

	(void)n;
	sqlite3_result_int(c, f && (pl_cond_lookup(f) != PL_C_NONE || pl_build_lookup(f) >= 0 ||
	                            pl_metric_lookup(f) >= 0 || (f[0] != '.' && strchr(f, '.'))));
}

/* pl_ok_metric_name(x): 1 when x is a metric's name. */
static void fn_metric_name(sqlite3_context *c, int n, sqlite3_value **v)
{
	const char *f = (const char *)sqlite3_value_text(v[0]);

	(void)n;
	sqlite3_result_int(c, f && pl_metric_lookup(f) >= 0);
}

/* pl_ok_build(f, x): 1 when x is NULL or a value build identity field f
 * takes as import --set and amend check it (1 to 200 bytes of UTF-8
 * without control characters; ci_run_url an http(s) URL, which the site
 * writes into a link: "javascript:..." must not arrive by merge). */
static void fn_build(sqlite3_context *c, int n, sqlite3_value **v)
{
	struct pl_run scratch;
	int ok;

	(void)n;
	if (sqlite3_value_type(v[1]) == SQLITE_NULL) {
		sqlite3_result_int(c, 1);
		return;
	}
	pl_run_init(&scratch);
	ok = sqlite3_value_type(v[1]) == SQLITE_TEXT &&
	     pl_run_set_build(&scratch, sqlite3_value_int(v[0]),
	                      (const char *)sqlite3_value_text(v[1]), NULL) == 0;
	pl_run_release(&scratch);
	sqlite3_result_int(c, ok);
}

static int add_functions(sqlite3 *db)
{
	static const struct {
		const char *name;
		int nargs;
		void (*fn)(sqlite3_context *, int, sqlite3_value **);
	} fns[] = {{"pl_ok_utf8", 1, fn_utf8},   {"pl_ok_time", 1, fn_time},
	           {"pl_ok_metric", 2, fn_metric}, {"pl_ok_field", 1, fn_field},
	           {"pl_ok_metric_name", 1, fn_metric_name}, {"pl_ok_build", 2, fn_build}};

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		if (sqlite3_create_function_v2(db, fns[i].name, fns[i].nargs,
		                               SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY,
		                               NULL, fns[i].fn, NULL, NULL, NULL) != SQLITE_OK)
			return PL_ENOMEM;
	return 0;
}

/* ---------------------------------------------------------------- tables */

/* One column as PRAGMA table_info gives it. */
struct col {
	char name[64];
	char type[32];
	int notnull, pk;
};

/* The columns of schema.table (at most max), sorted by name; *n 0 when
 * the table does not exist. */
static int columns(struct pl_store *st, const char *schema, const char *table, struct col *c,
                   size_t max, size_t *n, struct pl_error *err)
{
	sqlite3_stmt *s = NULL;
	int step;

	*n = 0;
	if (sqlite3_prepare_v2(st->db,
	                       "SELECT name, upper(type), \"notnull\", pk FROM pragma_table_info(?1, ?2) "
	                       "ORDER BY name",
	                       -1, &s, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "checking the other ledger");
	sqlite3_bind_text(s, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, schema, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		if (*n == max) {
			(*n)++; /* more columns than any ledger table: refused */
			break;
		}
		snprintf(c[*n].name, sizeof(c[*n].name), "%s", (const char *)sqlite3_column_text(s, 0));
		snprintf(c[*n].type, sizeof(c[*n].type), "%s",
		         sqlite3_column_text(s, 1) ? (const char *)sqlite3_column_text(s, 1) : "");
		c[*n].notnull = sqlite3_column_int(s, 2);
		c[*n].pk = sqlite3_column_int(s, 3);
		(*n)++;
	}
	sqlite3_finalize(s);
	if (step != SQLITE_DONE && step != SQLITE_ROW)
		return pl_store_fail(st, err, "checking the other ledger");
	return 0;
}

#define MAX_COLS (PL_METRIC_COUNT + PL_COND_COUNT + 64)

/* The checks of one row's values beyond their types, by table: a SQL
 * condition true for a bad row, and the column it names. */
struct rule {
	const char *table, *column, *bad;
};

static const struct rule rules[] = {
	/* a condition an older ledger lacks is unknown, as import would not
	 * store it today but comparisons handle (never equal to a value) */
	{"conditions", "key_text", "key_text IS NULL"},
	{"runs", "source_sha256",
	 "length(source_sha256) != 64 OR source_sha256 GLOB '*[^0-9a-f]*'"},
	{"runs", "record", "record < 0"},
	{"accepted_steps", "metric", "NOT pl_ok_metric_name(metric)"},
	{"accepted_steps", "reason", "reason = ''"},
	{"accepted_steps", "accepted_at", "NOT pl_ok_time(accepted_at)"},
	{"accepted_steps", "revoked_at",
	 "revoked_at IS NOT NULL AND (NOT pl_ok_time(revoked_at) OR coalesce(revoked_by, '') = '' "
	 "OR revoked_at < accepted_at)"},
	{"revisions", "revision", "revision < 2"},
	{"revisions", "field", "NOT pl_ok_field(field)"},
	{"revisions", "changed_at", "NOT pl_ok_time(changed_at)"},
	{"revisions", "reason", "reason = ''"},
	{"revisions", "author", "author = ''"},
	{"retractions", "retracted_at", "NOT pl_ok_time(retracted_at)"},
	{"retractions", "reason", "reason = ''"},
	{"retractions", "author", "author = ''"},
	{"retractions", "restored_at",
	 "restored_at IS NOT NULL AND (NOT pl_ok_time(restored_at) OR coalesce(restore_reason, '') = "
	 "'' OR coalesce(restored_by, '') = '' OR restored_at < retracted_at)"},
	{"source_chunks", "sha256", "length(sha256) != 64 OR sha256 GLOB '*[^0-9a-f]*'"},
	{"source_chunks", "seq", "seq < 0"},
	{"source_chunks", "compression", "compression != 'zlib'"},
	{NULL, NULL, NULL},
};

/* Appends "WHEN <bad> THEN '<column>'" for one check of column c. */
static void when(sqlite3_str *q, const char *bad, const char *column)
{
	sqlite3_str_appendf(q, " WHEN %s THEN %Q", bad, column);
}

/* The statement that finds the first bad row of o.table: its rowid and
 * the name of its first bad column. */
static char *row_sql(const char *table, const struct col *c, size_t n)
{
	sqlite3_str *q = sqlite3_str_new(NULL);
	char bad[512];

	/* the row named by its primary key (a WITHOUT ROWID table has no
	 * rowid), else by rowid */
	{
		int npk = 0;
		sqlite3_str_appendall(q, "SELECT ");
		for (int k = 1; k <= 8; k++)
			for (size_t i = 0; i < n; i++)
				if (c[i].pk == k)
					sqlite3_str_appendf(q, "%s\"%w\"", npk++ ? " || ', ' || " : "", c[i].name);
		sqlite3_str_appendall(q, npk ? ", CASE" : "rowid, CASE");
	}
	for (size_t i = 0; i < n; i++) {
		const char *nul = c[i].notnull || c[i].pk ? "" : ", 'null'";
		char id[80];

		sqlite3_snprintf(sizeof(id), id, "\"%w\"", c[i].name);
		if (strstr(c[i].type, "INT"))
			snprintf(bad, sizeof(bad), "typeof(%s) NOT IN ('integer'%s)", id, nul);
		else if (strstr(c[i].type, "REAL"))
			snprintf(bad, sizeof(bad), "typeof(%s) NOT IN ('real', 'integer'%s)", id, nul);
		else if (strstr(c[i].type, "BLOB"))
			snprintf(bad, sizeof(bad), "typeof(%s) NOT IN ('blob'%s) OR length(%s) > %zu", id,
			         nul, id, PL_SOURCE_CHUNK_MAX);
		else
			snprintf(bad, sizeof(bad),
			         "typeof(%s) NOT IN ('text'%s) OR length(CAST(%s AS BLOB)) > %d OR NOT "
			         "pl_ok_utf8(%s)",
			         id, nul, id, PL_MERGE_TEXT_MAX, id);
		when(q, bad, c[i].name);
		if (strcmp(table, "runs") == 0) {
			int m = pl_metric_lookup(c[i].name);
			if (m >= 0) {
				snprintf(bad, sizeof(bad), "NOT pl_ok_metric(%d, %s)", m, id);
				when(q, bad, c[i].name);
			}
		}
		if (strcmp(table, "runs") == 0)
			for (int f = 0; f < PL_BUILD_COUNT; f++)
				if (strcmp(c[i].name, pl_store_build_cols[f]) == 0) {
					snprintf(bad, sizeof(bad), "NOT pl_ok_build(%d, %s)", f, id);
					when(q, bad, c[i].name);
				}
		if (strcmp(table, "source_chunks") == 0 && strcmp(c[i].name, "size") == 0) {
			snprintf(bad, sizeof(bad), "size < 0 OR size > %zu", PL_SOURCE_CHUNK_MAX);
			when(q, bad, c[i].name);
		}
	}
	for (size_t r = 0; rules[r].table; r++)
		if (strcmp(rules[r].table, table) == 0)
			when(q, rules[r].bad, rules[r].column);
	sqlite3_str_appendf(q, " END AS bad FROM o.\"%w\" WHERE bad IS NOT NULL LIMIT 1", table);
	return sqlite3_str_finish(q);
}

int pl_merge_check_source(struct pl_store *st, const char *path, struct pl_error *err)
{
	static struct col mine[MAX_COLS], theirs[MAX_COLS];
	int rc = 0;

	if (add_functions(st->db))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t t = 0; merged_tables[t] && !rc; t++) {
		const char *table = merged_tables[t];
		size_t nm = 0, no = 0;
		sqlite3_stmt *s = NULL;
		char *sql;
		int step;

		if ((rc = columns(st, "main", table, mine, MAX_COLS, &nm, err)) ||
		    (rc = columns(st, "o", table, theirs, MAX_COLS, &no, err)))
			break;
		{ /* a table, not a view of that name */
			int is_table = 0;
			if (sqlite3_prepare_v2(st->db, "SELECT type = 'table' FROM o.sqlite_master WHERE "
			                               "name = ?1", -1, &s, NULL) != SQLITE_OK)
				return pl_store_fail(st, err, "checking the other ledger");
			sqlite3_bind_text(s, 1, table, -1, SQLITE_STATIC);
			is_table = sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int(s, 0);
			sqlite3_finalize(s);
			s = NULL;
			if (!is_table)
				no = 0;
		}
		if (no == 0) {
			rc = pl_error_set(err, PL_EINVALID,
			                  "'%s' is refused: it has no table '%s'; nothing was merged", path,
			                  table);
			break;
		}
		for (size_t i = 0; i < nm || i < no; i++) {
			const struct col *a = i < nm ? &mine[i] : NULL, *b = i < no ? &theirs[i] : NULL;
			if (a && b && strcmp(a->name, b->name) == 0 && strcmp(a->type, b->type) == 0 &&
			    a->notnull == b->notnull && a->pk == b->pk)
				continue;
			rc = pl_error_set(err, PL_EINVALID,
			                  "'%s' is refused: its table '%s' does not have the columns of a "
			                  "ledger (column '%s' %s here, '%s' %s there); nothing was merged",
			                  path, table, a ? a->name : "(none)", a ? a->type : "",
			                  b ? b->name : "(none)", b ? b->type : "");
			break;
		}
		if (rc)
			break;
		if (!(sql = row_sql(table, mine, nm)))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK) {
			rc = pl_store_fail(st, err, "checking the other ledger");
			sqlite3_free(sql);
			break;
		}
		sqlite3_free(sql);
		step = sqlite3_step(s);
		if (step == SQLITE_ROW)
			rc = pl_error_set(err, PL_EINVALID,
			                  "'%s' is refused: the row %.100s of its table '%s' has a bad '%s' "
			                  "(of a type, size or value no ledger holds); nothing was merged",
			                  path, (const char *)sqlite3_column_text(s, 0), table,
			                  (const char *)sqlite3_column_text(s, 1));
		else if (step == SQLITE_TOOBIG)
			rc = pl_error_set(err, PL_EINVALID,
			                  "'%s' is refused: its table '%s' holds a value larger than any "
			                  "ledger holds; nothing was merged",
			                  path, table);
		else if (step != SQLITE_DONE)
			rc = pl_error_set(err, PL_EINVALID,
			                  "'%s' is refused: its table '%s' cannot be read (%s); nothing was "
			                  "merged",
			                  path, table, sqlite3_errmsg(st->db));
		sqlite3_finalize(s);
	}
	return rc;
}
