/*
 * test_store.c — unit tests of src/store/db.c: migrations, the schema kept in
 * sync with PL_CONDITIONS / PL_METRICS, round trips of every value type,
 * de-duplication, filters, transactions, error messages and concurrent
 * writers. The test opens the database files with sqlite3 itself to look at
 * what the store wrote.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adapters/adapters.h"
#include "core/compare.h"
#include "core/model.h"
#include "core/hash.h"
#include "import/import.h"
#include "render/render.h"
#include "store/db.h"
#include "refusal_text.h"

/* The embedded migrations (generated from schema/migrations). */
extern const char *const pl_schema_migrations[];

/* A fresh database path under PL_TEST_TMP (old files removed). */
static const char *db_path(char *buf, size_t n, const char *name)
{
	char f[1200];

	mkdir(PL_TEST_TMP, 0777);
	snprintf(buf, n, "%s/store-%s.db", PL_TEST_TMP, name);
	remove(buf);
	snprintf(f, sizeof(f), "%s-wal", buf);
	remove(f);
	snprintf(f, sizeof(f), "%s-shm", buf);
	remove(f);
	snprintf(f, sizeof(f), "%s-journal", buf);
	remove(f);
	return buf;
}

static struct pl_store *open_ok(const char *path)
{
	struct pl_store *st = NULL;
	struct pl_error err;

	pl_error_init(&err);
	if (pl_store_open(path, &st, &err) != 0)
		fail_msg("pl_store_open: %s", err.message);
	return st;
}

/* Opens path with sqlite3 directly. */
static sqlite3 *raw_open(const char *path)
{
	sqlite3 *db = NULL;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	return db;
}

/* First column of the first row of sql as an integer. */
static long long raw_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s = NULL;
	long long v;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

static void set_cond(struct pl_run *run, int id, const char *v)
{
	struct pl_error err;

	pl_error_init(&err);
	if (pl_run_set_cond(run, id, v, &err) != 0)
		fail_msg("pl_run_set_cond(%s): %s", pl_cond_info[id].name, err.message);
}

/* A typical run: sha256 made from seed, record as given. */
static void make_run(struct pl_run *run, int seed, long record)
{
	pl_run_init(run);
	set_cond(run, PL_C_MODEL, "gemma-4-31b");
	set_cond(run, PL_C_PRECISION, "bfloat16");
	set_cond(run, PL_C_ENGINE, "vllm");
	set_cond(run, PL_C_ENGINE_VERSION, "0.6.3");
	set_cond(run, PL_C_HARDWARE, "2x NVIDIA A100 80G");
	set_cond(run, PL_C_CONCURRENCY, "8");
	pl_run_set_metric(run, PL_M_TTFT_P50, 0.32);
	pl_run_set_metric(run, PL_M_TPS_P50, 45.2);
	snprintf(run->sha256, sizeof(run->sha256), "%064x", seed);
	run->record = record;
	assert_int_equal(pl_strset(&run->source, "samples/run.json"), 0);
	assert_int_equal(pl_strset(&run->adapter, "descriptor"), 0);
}

static void insert_ok(struct pl_store *st, struct pl_run *run, int want_inserted)
{
	struct pl_error err;
	int inserted = -1;

	pl_error_init(&err);
	if (pl_store_insert_run(st, run, &inserted, &err) != 0)
		fail_msg("pl_store_insert_run: %s", err.message);
	assert_int_equal(inserted, want_inserted);
}

static long long count_runs(struct pl_store *st)
{
	struct pl_error err;
	long long n = -1;

	pl_error_init(&err);
	assert_int_equal(pl_store_count_runs(st, &n, &err), 0);
	return n;
}

static void query_ok(struct pl_store *st, const struct pl_filter *f, size_t nf,
                     struct pl_run_list *out)
{
	struct pl_error err;

	pl_error_init(&err);
	pl_run_list_init(out);
	if (pl_store_query(st, f, nf, out, &err) != 0)
		fail_msg("pl_store_query: %s", err.message);
}

/* ------------------------------------------------------------------ tests */

static void test_fresh_db_version(void **state)
{
	char path[1024];
	struct pl_store *st;
	sqlite3 *db;

	(void)state;
	assert_true(pl_store_schema_version() >= 1);
	st = open_ok(db_path(path, sizeof(path), "fresh"));
	pl_store_close(st);
	st = open_ok(path); /* reopening an up-to-date database changes nothing */
	pl_store_close(st);
	pl_store_close(NULL);

	db = raw_open(path);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), pl_store_schema_version());
	{
		sqlite3_stmt *s = NULL;

		assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &s, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_step(s), SQLITE_ROW);
		assert_string_equal((const char *)sqlite3_column_text(s, 0), "wal");
		sqlite3_finalize(s);
	}
	sqlite3_close(db);
}

/* Columns of table from PRAGMA table_info: calls fn(name, type, ctx). */
static void each_column(sqlite3 *db, const char *table,
                        void (*fn)(const char *name, const char *type, void *ctx), void *ctx)
{
	char *sql = sqlite3_mprintf("PRAGMA table_info(\"%w\")", table);
	sqlite3_stmt *s = NULL;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW)
		fn((const char *)sqlite3_column_text(s, 1), (const char *)sqlite3_column_text(s, 2), ctx);
	sqlite3_finalize(s);
	sqlite3_free(sql);
}

struct seen {
	int cond[PL_COND_COUNT];
	int metric[PL_METRIC_COUNT];
};

static const char *sql_type_of(enum pl_ctype t)
{
	switch (t) {
	case PL_CT_INT:
	case PL_CT_REAL:
		return "REAL";
	case PL_CT_BOOL:
		return "INTEGER";
	default:
		return "TEXT";
	}
}

static void conditions_col(const char *name, const char *type, void *ctx)
{
	struct seen *seen = ctx;
	int id;

	if (strcmp(name, "id") == 0 || strcmp(name, "key_text") == 0 ||
	    strcmp(name, "key_hash") == 0)
		return;
	id = pl_cond_lookup(name);
	if (id == PL_C_NONE || id == PL_C_RUN_STARTED_AT)
		fail_msg("conditions.%s is not a condition of PL_CONDITIONS", name);
	assert_string_equal(type, sql_type_of(pl_cond_info[id].type));
	seen->cond[id]++;
}

static void runs_col(const char *name, const char *type, void *ctx)
{
	static const char *const provenance[] = {
		"id", "condition_id", "source_path", "source_sha256", "record", "adapter",
		"format_version", "imported_at", "checklist_missing", "reference_only",
		"record_id", "failed",
		"build_commit", "build_branch", "build_id", "ci_run_url", /* build identity (011) */
	};
	struct seen *seen = ctx;
	int id;

	for (size_t i = 0; i < sizeof(provenance) / sizeof(provenance[0]); i++)
		if (strcmp(name, provenance[i]) == 0)
			return;
	if (strcmp(name, "run_started_at") == 0) {
		assert_string_equal(type, "TEXT");
		seen->cond[PL_C_RUN_STARTED_AT]++;
		return;
	}
	id = pl_metric_lookup(name);
	if (id == PL_M_NONE)
		fail_msg("runs.%s is neither provenance nor a metric of PL_METRICS", name);
	assert_string_equal(type, "REAL");
	seen->metric[id]++;
}

/* hub_marks (migration 016): none until set; replace 1 overwrites, replace
 * 0 (an older marks file moved in) keeps the row already there. */
static void test_hub_marks(void **state)
{
	char path[1024];
	struct pl_store *st;
	struct pl_error err;
	char *snap = (char *)"x";

	(void)state;
	pl_error_init(&err);
	st = open_ok(db_path(path, sizeof(path), "hub_marks"));
	assert_int_equal(pl_store_hub_mark(st, "db:5432/hub", &snap, &err), 0);
	assert_null(snap);
	assert_int_equal(pl_store_set_hub_mark(st, "db:5432/hub", "10:12:11", 1, &err), 0);
	assert_int_equal(pl_store_set_hub_mark(st, "db:5432/hub", "1:1:", 0, &err), 0);
	assert_int_equal(pl_store_hub_mark(st, "db:5432/hub", &snap, &err), 0);
	assert_string_equal(snap, "10:12:11");
	free(snap);
	assert_int_equal(pl_store_set_hub_mark(st, "db:5432/hub", "20:20:", 1, &err), 0);
	assert_int_equal(pl_store_hub_mark(st, "db:5432/hub", &snap, &err), 0);
	assert_string_equal(snap, "20:20:");
	free(snap);
	assert_int_equal(pl_store_hub_mark(st, "db:5432/hub --where model=m", &snap, &err), 0);
	assert_null(snap); /* a selection is a mark of its own */
	pl_store_close(st);
}

static void test_schema_in_sync(void **state)
{
	char path[1024];
	struct seen seen;
	sqlite3 *db;

	(void)state;
	pl_store_close(open_ok(db_path(path, sizeof(path), "sync")));
	memset(&seen, 0, sizeof(seen));
	db = raw_open(path);
	each_column(db, "conditions", conditions_col, &seen);
	each_column(db, "runs", runs_col, &seen);
	for (int i = 0; i < PL_COND_COUNT; i++)
		if (seen.cond[i] != 1)
			fail_msg("condition %s has %d columns in the schema", pl_cond_info[i].name,
			         seen.cond[i]);
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		if (seen.metric[m] != 1)
			fail_msg("metric %s has %d columns in the schema", pl_metric_info[m].name,
			         seen.metric[m]);
	/* the named indexes exist */
	assert_int_equal(raw_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND "
	                             "name IN ('conditions_key', 'runs_condition_id')"),
	                 2);
	sqlite3_close(db);
}

static void test_round_trip(void **state)
{
	char path[1024];
	struct pl_store *st;
	struct pl_run run, *got;
	struct pl_run_list list;

	(void)state;
	setenv("SOURCE_DATE_EPOCH", "1795977270", 1);
	st = open_ok(db_path(path, sizeof(path), "roundtrip"));
	make_run(&run, 1, 3);
	set_cond(&run, PL_C_ENGINE_VERSION, "0.10");
	set_cond(&run, PL_C_CUDA_VERSION, "12.40");
	set_cond(&run, PL_C_INPUT_TOKENS, "512");
	set_cond(&run, PL_C_REQUEST_RATE, "inf");
	set_cond(&run, PL_C_CONCURRENCY, "inf");
	set_cond(&run, PL_C_TEMPERATURE, "0.7");
	set_cond(&run, PL_C_STREAMING, "true");
	set_cond(&run, PL_C_WARMUP_REQUESTS, "0");
	set_cond(&run, PL_C_RUN_STARTED_AT, "2026-01-02T03:04:05Z");
	pl_run_set_metric(&run, PL_M_TTFT_P999, 1.0 / 3.0);
	pl_run_set_metric(&run, PL_M_ERROR_RATE, 0);
	pl_run_set_metric(&run, PL_M_GPU_MEMORY_BYTES, 85899345920.0);
	assert_int_equal(pl_strset(&run.format_version, "1"), 0);
	pl_run_update_checklist(&run);
	insert_ok(st, &run, 1);
	assert_true(run.id > 0);
	assert_non_null(run.imported_at);
	assert_string_equal(run.imported_at, "2026-11-29T18:34:30Z");
	unsetenv("SOURCE_DATE_EPOCH");

	query_ok(st, NULL, 0, &list);
	assert_int_equal(list.n, 1);
	got = &list.v[0];
	assert_int_equal(got->id, run.id);
	for (int i = 0; i < PL_COND_COUNT; i++) {
		assert_int_equal(got->cond[i].set, run.cond[i].set);
		if (!run.cond[i].set) {
			assert_null(got->cond[i].text);
			continue;
		}
		assert_string_equal(got->cond[i].text, run.cond[i].text);
		if (got->cond[i].num != run.cond[i].num)
			fail_msg("%s: %g != %g", pl_cond_info[i].name, got->cond[i].num, run.cond[i].num);
	}
	assert_string_equal(got->cond[PL_C_ENGINE_VERSION].text, "0.10");
	assert_string_equal(got->cond[PL_C_CUDA_VERSION].text, "12.40");
	assert_true(got->cond[PL_C_INPUT_TOKENS].num == 512);
	assert_true(isinf(got->cond[PL_C_CONCURRENCY].num));
	assert_string_equal(got->cond[PL_C_REQUEST_RATE].text, "inf");
	assert_string_equal(got->cond[PL_C_STREAMING].text, "true");
	assert_true(got->cond[PL_C_STREAMING].num == 1);
	assert_string_equal(got->cond[PL_C_WARMUP_REQUESTS].text, "0");
	assert_string_equal(got->cond[PL_C_RUN_STARTED_AT].text, "2026-01-02T03:04:05Z");
	for (int m = 0; m < PL_METRIC_COUNT; m++) {
		assert_int_equal(got->has_metric[m], run.has_metric[m]);
		if (run.has_metric[m] && memcmp(&got->metric[m], &run.metric[m], sizeof(double)) != 0)
			fail_msg("%s: %.17g != %.17g", pl_metric_info[m].name, got->metric[m],
			         run.metric[m]);
	}
	assert_string_equal(got->source, run.source);
	assert_string_equal(got->sha256, run.sha256);
	assert_int_equal(got->record, 3);
	assert_string_equal(got->adapter, "descriptor");
	assert_string_equal(got->format_version, "1");
	assert_string_equal(got->imported_at, "2026-11-29T18:34:30Z");
	assert_int_equal(got->checklist_missing, run.checklist_missing);
	assert_true(got->checklist_missing != 0);
	pl_run_list_release(&list);
	pl_run_release(&run);

	/* bool false and a given imported_at are kept */
	make_run(&run, 2, 0);
	set_cond(&run, PL_C_STREAMING, "false");
	assert_int_equal(pl_strset(&run.imported_at, "2020-01-01T00:00:00Z"), 0);
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	query_ok(st, NULL, 0, &list);
	assert_int_equal(list.n, 2);
	assert_string_equal(list.v[1].cond[PL_C_STREAMING].text, "false");
	assert_true(list.v[1].cond[PL_C_STREAMING].num == 0);
	assert_string_equal(list.v[1].imported_at, "2020-01-01T00:00:00Z");
	assert_null(list.v[1].format_version);
	pl_run_list_release(&list);
	pl_store_close(st);
}

static void test_bad_source_date_epoch(void **state)
{
	char path[1024];
	struct pl_store *st;
	struct pl_run run;
	struct pl_error err;
	int inserted = -1;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "sde"));
	setenv("SOURCE_DATE_EPOCH", "yesterday", 1);
	make_run(&run, 1, 0);
	pl_error_init(&err);
	assert_int_equal(pl_store_insert_run(st, &run, &inserted, &err), PL_EUSAGE);
	assert_string_equal(err.message,
	                    "SOURCE_DATE_EPOCH must be a whole number of seconds from 0 to "
	                    "253402300799, got 'yesterday'");
	assert_int_equal(inserted, 0);
	unsetenv("SOURCE_DATE_EPOCH");
	assert_int_equal(count_runs(st), 0);
	pl_run_release(&run);
	pl_store_close(st);
}

static void test_duplicate_stored_once(void **state)
{
	char path[1024];
	struct pl_store *st;
	struct pl_run run;
	struct pl_error err;
	int found = -1;
	sqlite3 *db;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "dup"));
	make_run(&run, 7, 0);
	pl_error_init(&err);
	assert_int_equal(pl_store_has_sha256(st, run.sha256, &found, &err), 0);
	assert_int_equal(found, 0);
	insert_ok(st, &run, 1);
	assert_int_equal(pl_store_has_sha256(st, run.sha256, &found, &err), 0);
	assert_int_equal(found, 1);
	pl_run_release(&run);

	/* same bytes again, even with other conditions: nothing is written */
	make_run(&run, 7, 0);
	set_cond(&run, PL_C_MODEL, "another-model");
	insert_ok(st, &run, 0);
	assert_int_equal(run.id, 0);
	assert_null(run.imported_at);
	pl_run_release(&run);
	assert_int_equal(count_runs(st), 1);

	/* another record of the same file is another run */
	make_run(&run, 7, 1);
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	assert_int_equal(count_runs(st), 2);
	pl_store_close(st);

	db = raw_open(path);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM conditions"), 1);
	sqlite3_close(db);
}

/* A database written by a perfledger of schema version 3 (conditions with a
 * UNIQUE key_text) is upgraded to version 4: every run and conditions row
 * survives with its id, key_hash is filled, and a new import of the same
 * conditions finds the old row instead of adding one. */
static void test_migrate_v3_to_v4(void **state)
{
	char path[1024], *sql;
	struct pl_store *st;
	struct pl_run run;
	struct pl_cond_key key;
	sqlite3 *db;
	sqlite3_stmt *s = NULL;

	(void)state;
	db_path(path, sizeof(path), "v3");
	db = raw_open(path);
	for (int i = 0; i < 3; i++)
		assert_int_equal(sqlite3_exec(db, pl_schema_migrations[i], NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 3", NULL, NULL, NULL), SQLITE_OK);
	make_run(&run, 1, 0);
	assert_int_equal(pl_cond_key_make(&run, &key), 0);
	assert_int_equal(sqlite3_prepare_v2(db,
	                     "INSERT INTO conditions (id, key_text, model, concurrency) "
	                     "VALUES (7, ?1, 'm', 8)", -1, &s, NULL), SQLITE_OK);
	sqlite3_bind_text(s, 1, key.text, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(s), SQLITE_DONE);
	sqlite3_finalize(s);
	sql = sqlite3_mprintf("INSERT INTO conditions (id, key_text) VALUES (9, 'model=other\n');"
	                      "INSERT INTO runs (id, condition_id, source_path, source_sha256, adapter,"
	                      " imported_at, ttft_p50) VALUES (3, 7, 'a.json', printf('%%064x', 1),"
	                      " 'descriptor', '2026-01-01T00:00:00Z', 0.25),"
	                      " (4, 9, 'b.json', printf('%%064x', 2), 'descriptor',"
	                      " '2026-01-01T00:00:00Z', 0.5)");
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_free(sql);
	sqlite3_close(db);

	st = open_ok(path); /* migrates */
	pl_store_close(st);
	db = raw_open(path);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), pl_store_schema_version());
	assert_int_equal(raw_int(db, "SELECT count(*) FROM runs"), 2);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM conditions"), 2);
	assert_int_equal(raw_int(db, "SELECT condition_id FROM runs WHERE id = 3"), 7);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM run_flat WHERE model = 'm'"), 1);
	assert_int_equal(raw_int(db, "SELECT key_hash FROM conditions WHERE id = 7"),
	                 (long long)key.hash);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM pragma_foreign_key_list('runs')"), 1);
	assert_int_equal(raw_int(db, "PRAGMA foreign_keys"), 0); /* raw connection default */
	/* a second row with the same hash but another key: two keys, two rows */
	sql = sqlite3_mprintf("INSERT INTO conditions (id, key_hash, key_text) VALUES (11, %lld,"
	                      " 'model=collision\n')", (long long)key.hash);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_free(sql);
	sqlite3_close(db);

	st = open_ok(path);
	pl_run_release(&run);
	make_run(&run, 5, 0); /* the conditions of run 1, new bytes */
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	pl_store_close(st);
	db = raw_open(path);
	assert_int_equal(raw_int(db, "SELECT condition_id FROM runs WHERE source_sha256 = "
	                             "printf('%064x', 5)"), 7);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM conditions"), 3);
	sqlite3_close(db);
	pl_cond_key_release(&key);
	pl_run_release(&run);
}

static void test_shared_conditions(void **state)
{
	char path[1024];
	struct pl_store *st;
	struct pl_run run;
	sqlite3 *db;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "shared"));
	make_run(&run, 1, 0);
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	make_run(&run, 2, 0);
	pl_run_set_metric(&run, PL_M_TTFT_P50, 0.5); /* metrics differ, conditions not */
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	make_run(&run, 3, 0);
	set_cond(&run, PL_C_CONCURRENCY, "8.0"); /* the same number */
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	make_run(&run, 4, 0);
	set_cond(&run, PL_C_CONCURRENCY, "16");
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	make_run(&run, 5, 0);
	set_cond(&run, PL_C_DATASET, NULL); /* missing differs from any value */
	set_cond(&run, PL_C_DATASET, "");
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	pl_store_close(st);

	db = raw_open(path);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM runs"), 5);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM conditions"), 3);
	assert_int_equal(raw_int(db, "SELECT count(DISTINCT condition_id) FROM runs "
	                             "WHERE source_sha256 IN (printf('%064x', 1), printf('%064x', 2), "
	                             "printf('%064x', 3))"),
	                 1);
	sqlite3_close(db);
}

/* Number of runs matching filters. */
static size_t count_matching(struct pl_store *st, const struct pl_filter *f, size_t nf)
{
	struct pl_run_list list;
	size_t n;

	query_ok(st, f, nf, &list);
	n = list.n;
	pl_run_list_release(&list);
	return n;
}

static void test_filters(void **state)
{
	char path[1024];
	struct pl_store *st;
	struct pl_run run;
	struct pl_error err;
	struct pl_run_list list;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "filters"));
	make_run(&run, 1, 0); /* vllm 0.6.3, concurrency 8 */
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	make_run(&run, 2, 0);
	set_cond(&run, PL_C_ENGINE_VERSION, "0.10.1");
	set_cond(&run, PL_C_DATASET, "sharegpt");
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	make_run(&run, 3, 0);
	set_cond(&run, PL_C_CONCURRENCY, "inf");
	set_cond(&run, PL_C_STREAMING, "true");
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	make_run(&run, 4, 0);
	set_cond(&run, PL_C_ENGINE, "sglang");
	set_cond(&run, PL_C_RUN_STARTED_AT, "2026-01-02T03:04:05Z");
	insert_ok(st, &run, 1);
	pl_run_release(&run);

	{
		struct pl_filter f[] = {{PL_C_ENGINE, "vllm", NULL}};
		assert_int_equal(count_matching(st, f, 1), 3);
	}
	{
		struct pl_filter f[] = {{PL_C_CONCURRENCY, "8", NULL}};
		assert_int_equal(count_matching(st, f, 1), 3);
	}
	{
		struct pl_filter f[] = {{PL_C_CONCURRENCY, "8.0", NULL}};
		assert_int_equal(count_matching(st, f, 1), 3);
	}
	{
		struct pl_filter f[] = {{PL_C_CONCURRENCY, "inf", NULL}};
		query_ok(st, f, 1, &list);
		assert_int_equal(list.n, 1);
		assert_string_equal(list.v[0].sha256 + 56, "00000003");
		pl_run_list_release(&list);
	}
	{
		struct pl_filter f[] = {{PL_C_ENGINE_VERSION, "0.10.1", NULL}};
		assert_int_equal(count_matching(st, f, 1), 1);
	}
	{
		struct pl_filter f[] = {{PL_C_ENGINE_VERSION, "0.10.10", NULL}}; /* text, not a number */
		assert_int_equal(count_matching(st, f, 1), 0);
	}
	{
		struct pl_filter f[] = {{PL_C_DATASET, NULL, NULL}};
		assert_int_equal(count_matching(st, f, 1), 3);
	}
	{
		struct pl_filter f[] = {{PL_C_STREAMING, "true", NULL}};
		assert_int_equal(count_matching(st, f, 1), 1);
	}
	{
		struct pl_filter f[] = {{PL_C_STREAMING, "1", NULL}, {PL_C_ENGINE, "vllm", NULL}};
		assert_int_equal(count_matching(st, f, 2), 1);
	}
	{
		struct pl_filter f[] = {{PL_C_RUN_STARTED_AT, "2026-01-02T03:04:05Z", NULL}};
		assert_int_equal(count_matching(st, f, 1), 1);
	}
	{
		struct pl_filter f[] = {{PL_C_RUN_STARTED_AT, NULL, NULL}};
		assert_int_equal(count_matching(st, f, 1), 3);
	}
	{
		/* ANDed, in id order */
		struct pl_filter f[] = {{PL_C_ENGINE, "vllm", NULL}, {PL_C_CONCURRENCY, "8", NULL}};
		query_ok(st, f, 2, &list);
		assert_int_equal(list.n, 2);
		assert_true(list.v[0].id < list.v[1].id);
		assert_string_equal(list.v[0].cond[PL_C_ENGINE_VERSION].text, "0.6.3");
		assert_string_equal(list.v[1].cond[PL_C_ENGINE_VERSION].text, "0.10.1");
		pl_run_list_release(&list);
	}
	{
		struct pl_filter f[] = {{PL_C_ENGINE, "vllm", NULL}, {PL_C_DATASET, "nope", NULL}};
		assert_int_equal(count_matching(st, f, 2), 0);
	}
	{
		struct pl_filter f[] = {{PL_C_CONCURRENCY, "eight", NULL}};
		pl_run_list_init(&list);
		pl_error_init(&err);
		assert_int_equal(pl_store_query(st, f, 1, &list, &err), PL_EUSAGE);
		assert_string_equal(err.message, "'concurrency' must be a number or inf, got 'eight'");
		assert_int_equal(list.n, 0);
	}
	{
		struct pl_filter f[] = {{PL_C_STREAMING, "maybe", NULL}};
		pl_error_init(&err);
		assert_int_equal(pl_store_query(st, f, 1, &list, &err), PL_EUSAGE);
		assert_string_equal(err.message, "'streaming' must be true or false, got 'maybe'");
	}
	pl_store_close(st);
}

static void test_transactions(void **state)
{
	char path[1024];
	struct pl_store *st;
	struct pl_run run;
	struct pl_error err;
	int inserted = -1;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "tx"));
	pl_error_init(&err);

	/* a plain rollback leaves nothing */
	assert_int_equal(pl_store_begin(st, &err), 0);
	for (int i = 0; i < 5; i++) {
		make_run(&run, 100 + i, 0);
		insert_ok(st, &run, 1);
		pl_run_release(&run);
	}
	assert_int_equal(count_runs(st), 5);
	assert_int_equal(pl_store_rollback(st, &err), 0);
	assert_int_equal(count_runs(st), 0);

	/* nested commit: only the outermost one writes */
	assert_int_equal(pl_store_begin(st, &err), 0);
	assert_int_equal(pl_store_begin(st, &err), 0);
	make_run(&run, 1, 0);
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	assert_int_equal(pl_store_commit(st, &err), 0);
	assert_int_equal(pl_store_commit(st, &err), 0);
	assert_int_equal(count_runs(st), 1);

	/* an inner rollback rolls back everything; later commits fail */
	assert_int_equal(pl_store_begin(st, &err), 0);
	make_run(&run, 2, 0);
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	assert_int_equal(pl_store_begin(st, &err), 0);
	make_run(&run, 3, 0);
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	assert_int_equal(pl_store_rollback(st, &err), 0);
	make_run(&run, 4, 0);
	assert_int_equal(pl_store_insert_run(st, &run, &inserted, &err), PL_EDB);
	assert_int_equal(inserted, 0);
	pl_run_release(&run);
	pl_error_init(&err);
	assert_int_equal(pl_store_commit(st, &err), PL_EDB);
	assert_int_equal(err.code, PL_EDB);
	assert_int_equal(count_runs(st), 1);

	/* the nest is over: a new transaction works */
	assert_int_equal(pl_store_begin(st, &err), 0);
	make_run(&run, 5, 0);
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	assert_int_equal(pl_store_commit(st, &err), 0);
	assert_int_equal(count_runs(st), 2);

	/* unbalanced calls */
	pl_error_init(&err);
	assert_int_equal(pl_store_commit(st, &err), PL_EDB);
	assert_int_equal(pl_store_rollback(st, &err), PL_EDB);

	/* a failing insert inside a transaction leaves the rest intact */
	assert_int_equal(pl_store_begin(st, &err), 0);
	make_run(&run, 6, 0);
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	make_run(&run, 7, 0);
	assert_int_equal(pl_strset(&run.adapter, NULL), 0); /* NOT NULL */
	pl_error_init(&err);
	assert_int_equal(pl_store_insert_run(st, &run, &inserted, &err), PL_EDB);
	assert_string_equal(err.message, "database error: NOT NULL constraint failed: runs.adapter "
	                                 "(while storing run)");
	pl_run_release(&run);
	assert_int_equal(pl_store_commit(st, &err), 0);
	assert_int_equal(count_runs(st), 3);
	pl_store_close(st);

	/* an open transaction is rolled back on close */
	st = open_ok(path);
	assert_int_equal(pl_store_begin(st, &err), 0);
	make_run(&run, 8, 0);
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	pl_store_close(st);
	st = open_ok(path);
	assert_int_equal(count_runs(st), 3);
	pl_store_close(st);
}

static void test_schema_too_new(void **state)
{
	char path[1024], want[2048];
	struct pl_store *st = (struct pl_store *)1;
	struct pl_error err;
	sqlite3 *db;

	(void)state;
	db = raw_open(db_path(path, sizeof(path), "toonew"));
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 999", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	pl_error_init(&err);
	assert_int_equal(pl_store_open(path, &st, &err), PL_ESCHEMA);
	assert_null(st);
	snprintf(want, sizeof(want),
	         "database '%s' has schema version 999; this perfledger knows up to %d", path,
	         pl_store_schema_version());
	assert_string_equal(err.message, want);
}

static void test_not_perfledger_db(void **state)
{
	char path[1024], want[2048];
	struct pl_store *st = NULL;
	struct pl_error err;
	sqlite3 *db;

	(void)state;
	db = raw_open(db_path(path, sizeof(path), "foreign"));
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE t (x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	pl_error_init(&err);
	assert_int_equal(pl_store_open(path, &st, &err), PL_ESCHEMA);
	assert_null(st);
	snprintf(want, sizeof(want),
	         "database '%s' is not a perfledger database (it has tables but no schema version)",
	         path);
	assert_string_equal(err.message, want);
	/* refused before anything changed in it: still in its own journal mode */
	db = raw_open(path);
	{
		sqlite3_stmt *q;
		assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &q, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_step(q), SQLITE_ROW);
		assert_string_equal((const char *)sqlite3_column_text(q, 0), "delete");
		sqlite3_finalize(q);
	}
	sqlite3_close(db);
}

/* Another program's database with a schema version of its own, or one
 * newer than this program: refused, and nothing in it changed (no WAL, no
 * migration applied, the version as it was). */
static void test_foreign_versioned_untouched(void **state)
{
	static const int versions[] = {2, 100};
	(void)state;
	for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		char path[1024], sql[64], want[2048];
		struct pl_store *st = NULL;
		struct pl_error err;
		sqlite3 *db = raw_open(db_path(path, sizeof(path), "foreignv"));
		snprintf(sql, sizeof(sql), "CREATE TABLE t (x); PRAGMA user_version = %d", versions[i]);
		assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(db);
		pl_error_init(&err);
		assert_int_equal(pl_store_open(path, &st, &err), PL_ESCHEMA);
		assert_null(st);
		if (versions[i] == 2)
			snprintf(want, sizeof(want),
			         "database '%s' is not a perfledger database (schema version 2, but no "
			         "runs and conditions tables)",
			         path);
		else
			snprintf(want, sizeof(want),
			         "database '%s' has schema version 100; this perfledger knows up to %d", path,
			         pl_store_schema_version());
		assert_string_equal(err.message, want);
		db = raw_open(path);
		assert_int_equal(raw_int(db, "PRAGMA user_version"), versions[i]);
		assert_int_equal(raw_int(db, "SELECT count(*) FROM sqlite_master"), 1);
		{
			sqlite3_stmt *q;
			assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &q, NULL),
			                 SQLITE_OK);
			assert_int_equal(sqlite3_step(q), SQLITE_ROW);
			assert_string_equal((const char *)sqlite3_column_text(q, 0), "delete");
			sqlite3_finalize(q);
		}
		sqlite3_close(db);
	}
}

/* The selection indexes' statements, in name order, as sqlite_master has them. */
static char *index_sql(sqlite3 *db)
{
	sqlite3_stmt *q = NULL;
	char *all = calloc(1, 4096);

	assert_non_null(all);
	assert_int_equal(sqlite3_prepare_v2(db,
	                                    "SELECT group_concat(sql, ';') FROM (SELECT sql FROM "
	                                    "sqlite_master WHERE type = 'index' AND name IN "
	                                    "('conditions_key', 'conditions_engine_version', "
	                                    "'conditions_hardware', 'runs_condition_id') ORDER BY name)",
	                                    -1, &q, NULL),
	                 SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	if (sqlite3_column_text(q, 0))
		snprintf(all, 4096, "%s", (const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	return all;
}

/* A database without runs gets its selection indexes dropped and recorded
 * (one transaction), and built back identical; one with runs keeps them. */
static void test_deferred_indexes(void **state)
{
	char path[1024];
	struct pl_store *st = open_ok(db_path(path, sizeof(path), "defer"));
	struct pl_error err;
	struct pl_run run;
	sqlite3 *db = raw_open(path);
	char *before = index_sql(db), *now;
	int deferred = -1;

	(void)state;
	assert_non_null(strstr(before, "CREATE INDEX conditions_key ON conditions"));
	pl_error_init(&err);
	assert_int_equal(pl_store_defer_indexes(st, &deferred, &err), 0);
	assert_int_equal(deferred, 1);
	now = index_sql(db);
	assert_string_equal(now, "");
	free(now);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM deferred_indexes"), 4);
	make_run(&run, 1, 0);
	insert_ok(st, &run, 1); /* stored without them */
	pl_run_release(&run);
	assert_int_equal(pl_store_build_deferred_indexes(st, &err), 0);
	now = index_sql(db);
	assert_string_equal(now, before);
	free(now);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM deferred_indexes"), 0);
	{
		sqlite3_stmt *q = NULL;
		assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &q, NULL),
		                 SQLITE_OK);
		assert_int_equal(sqlite3_step(q), SQLITE_ROW);
		assert_string_equal((const char *)sqlite3_column_text(q, 0), "ok");
		sqlite3_finalize(q);
	}
	/* now it holds a run: nothing is deferred */
	assert_int_equal(pl_store_defer_indexes(st, &deferred, &err), 0);
	assert_int_equal(deferred, 0);
	now = index_sql(db);
	assert_string_equal(now, before);
	free(now);
	/* nothing recorded: building is a no-op */
	assert_int_equal(pl_store_build_deferred_indexes(st, &err), 0);
	free(before);
	sqlite3_close(db);
	pl_store_close(st);
}

/* ------------------------------------------------ read-only opening (issue 12) */

/* The bytes and mtime of a file, to show that it was not touched. */
struct snapshot {
	char *bytes;      /* the whole file (malloc) */
	long size;        /* its length */
	struct stat sb;   /* stat() of it */
};

static void snap(const char *path, struct snapshot *out)
{
	FILE *f = fopen(path, "rb");

	assert_non_null(f);
	assert_int_equal(stat(path, &out->sb), 0);
	out->size = (long)out->sb.st_size;
	out->bytes = malloc((size_t)out->size + 1);
	assert_non_null(out->bytes);
	assert_int_equal(fread(out->bytes, 1, (size_t)out->size, f), (size_t)out->size);
	fclose(f);
}

/* Fails unless path has the same bytes and mtime as in before, and no
 * -journal, -wal or -shm file is beside it. Frees before. */
static void assert_untouched(const char *path, struct snapshot *before)
{
	struct snapshot now;
	static const char *const sfx[] = {"-journal", "-wal", "-shm"};

	snap(path, &now);
	assert_int_equal(now.size, before->size);
	assert_memory_equal(now.bytes, before->bytes, (size_t)now.size);
	assert_int_equal(now.sb.st_mtim.tv_sec, before->sb.st_mtim.tv_sec);
	assert_int_equal(now.sb.st_mtim.tv_nsec, before->sb.st_mtim.tv_nsec);
	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		char side[1200];
		snprintf(side, sizeof(side), "%s%s", path, sfx[i]);
		if (access(side, F_OK) == 0)
			fail_msg("'%s' was created", side);
	}
	free(now.bytes);
	free(before->bytes);
}

/* pl_store_open_readonly() must fail with code and exactly message want. */
static void assert_ro_refused(const char *path, int code, const char *want)
{
	struct pl_store *st = (struct pl_store *)1;
	struct pl_error err;

	pl_error_init(&err);
	assert_int_equal(pl_store_open_readonly(path, &st, &err), code);
	assert_null(st);
	assert_string_equal(err.message, want);
}

/* "no perfledger database at 'PATH' (import creates one)" into buf. */
static const char *no_db_msg(char *buf, size_t n, const char *path)
{
	snprintf(buf, n, "no perfledger database at '%s' (import creates one)", path);
	return buf;
}

/* The refusal of an older schema version, into buf. */
static const char *older_msg(char *buf, size_t n, const char *path, int version)
{
	snprintf(buf, n,
	         "database '%s' has schema version %d; this perfledger reads %d: run 'perfledger "
	         "--db %s migrate' to migrate it (commands that only read never change the file)",
	         path, version, pl_store_schema_version(), path);
	return buf;
}

/* A missing file, a 0-byte file and /dev/null: no perfledger database; the
 * 0-byte file stays 0 bytes, with nothing created beside it (a read-write
 * open wrote the whole schema into it). */
static void test_readonly_missing_or_empty(void **state)
{
	char path[1024], msg[4096];
	struct snapshot before;
	FILE *f;
	int devnull_journal = access("/dev/null-journal", F_OK) == 0;

	(void)state;
	db_path(path, sizeof(path), "ro-missing");
	assert_ro_refused(path, PL_EIO, no_db_msg(msg, sizeof(msg), path));
	assert_int_not_equal(access(path, F_OK), 0); /* not created */
	assert_ro_refused(PL_TEST_TMP "/no-such-dir/x.db", PL_EIO,
	                  no_db_msg(msg, sizeof(msg), PL_TEST_TMP "/no-such-dir/x.db"));

	db_path(path, sizeof(path), "ro-empty");
	f = fopen(path, "wb");
	assert_non_null(f);
	fclose(f);
	snap(path, &before);
	assert_ro_refused(path, PL_EIO, no_db_msg(msg, sizeof(msg), path));
	assert_untouched(path, &before);

	assert_ro_refused("/dev/null", PL_EIO,
	                  "no perfledger database at '/dev/null' (it is not a regular file)");
	if (!devnull_journal)
		assert_int_not_equal(access("/dev/null-journal", F_OK), 0);
}

/* Another program's file (tables, no schema version; or a version and runs
 * and conditions tables of its own, which a read-write open switched to
 * WAL and began to migrate), a newer schema and an older one: each refused
 * with its message, the file byte for byte and in mtime as it was. */
static void test_readonly_refusals_untouched(void **state)
{
	char path[1024], msg[4096];
	struct snapshot before;
	sqlite3 *db;

	(void)state;
	db = raw_open(db_path(path, sizeof(path), "ro-foreign"));
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE runs (x); INSERT INTO runs VALUES (1)", NULL,
	                              NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	snap(path, &before);
	snprintf(msg, sizeof(msg),
	         "database '%s' is not a perfledger database (it has tables but no schema version)",
	         path);
	assert_ro_refused(path, PL_ESCHEMA, msg);
	assert_untouched(path, &before);

	/* the attack's file: version 1 and tables named like ours */
	db = raw_open(db_path(path, sizeof(path), "ro-foreign1"));
	assert_int_equal(sqlite3_exec(db,
	                              "CREATE TABLE runs (x); CREATE TABLE conditions (y); "
	                              "PRAGMA user_version = 1",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	snap(path, &before);
	assert_ro_refused(path, PL_ESCHEMA, older_msg(msg, sizeof(msg), path, 1));
	assert_untouched(path, &before);

	db = raw_open(db_path(path, sizeof(path), "ro-toonew"));
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 999", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE t (x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	snap(path, &before);
	snprintf(msg, sizeof(msg), "database '%s' has schema version 999; this perfledger knows up to %d",
	         path, pl_store_schema_version());
	assert_ro_refused(path, PL_ESCHEMA, msg);
	assert_untouched(path, &before);
}

/* A real database of schema version 3: refused read-only and left as it
 * was; the writer's open migrates it (and says from which version); then
 * it reads. */
static void test_readonly_older_schema(void **state)
{
	char path[1024], msg[4096];
	struct snapshot before;
	struct pl_store *st;
	sqlite3 *db;

	(void)state;
	db = raw_open(db_path(path, sizeof(path), "ro-v3"));
	for (int i = 0; i < 3; i++)
		assert_int_equal(sqlite3_exec(db, pl_schema_migrations[i], NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 3", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	snap(path, &before);
	assert_ro_refused(path, PL_ESCHEMA, older_msg(msg, sizeof(msg), path, 3));
	assert_untouched(path, &before);
	st = open_ok(path);
	assert_int_equal(pl_store_opened_version(st), 3);
	pl_store_close(st);
	st = open_ok(path);
	assert_int_equal(pl_store_opened_version(st), pl_store_schema_version());
	pl_store_close(st);
	{
		struct pl_error err;
		pl_error_init(&err);
		st = NULL;
		assert_int_equal(pl_store_open_readonly(path, &st, &err), 0);
		assert_int_equal(count_runs(st), 0);
		pl_store_close(st);
	}
}

/* Read-only, a WAL database sees what a writer has committed and not yet
 * checkpointed (the writer is still open), and nothing can be written
 * through the handle. */
static void test_readonly_sees_wal(void **state)
{
	char path[1024];
	struct pl_store *w, *r = NULL;
	struct pl_error err;
	struct pl_run run;
	int inserted = -1;

	(void)state;
	w = open_ok(db_path(path, sizeof(path), "ro-wal"));
	make_run(&run, 1, 0);
	insert_ok(w, &run, 1);
	pl_error_init(&err);
	assert_int_equal(pl_store_open_readonly(path, &r, &err), 0);
	assert_int_equal(count_runs(r), 1);
	pl_run_release(&run);
	make_run(&run, 2, 0); /* a second source */
	insert_ok(w, &run, 1);
	assert_int_equal(count_runs(r), 2); /* a later commit too */
	assert_int_equal(pl_store_insert_run(r, &run, &inserted, &err), PL_EDB);
	assert_non_null(strstr(err.message, "readonly database"));
	pl_run_release(&run);
	pl_store_close(r);
	pl_store_close(w);
}

/* The attack's file opened to write (import, migrate): a schema version
 * and tables named like ours, but a migration fails on it. Refused naming
 * the database and the migration, and left as it was: not switched to WAL
 * (once done before the migrations), the failed migration rolled back. */
static void test_failed_migration_untouched(void **state)
{
	char path[1024], want[4096];
	struct snapshot before;
	struct pl_store *st = (struct pl_store *)1;
	struct pl_error err;
	sqlite3 *db;

	(void)state;
	db = raw_open(db_path(path, sizeof(path), "foreign-migrate"));
	assert_int_equal(sqlite3_exec(db,
	                              "CREATE TABLE runs (x); CREATE TABLE conditions (y); "
	                              "PRAGMA user_version = 1",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	snap(path, &before);
	pl_error_init(&err);
	assert_int_equal(pl_store_open(path, &st, &err), PL_ESCHEMA);
	assert_null(st);
	snprintf(want, sizeof(want),
	         "database '%s': schema migration 2 failed (no such view: run_flat), so it is "
	         "probably not a perfledger database; the migration was undone",
	         path);
	assert_string_equal(err.message, want);
	assert_untouched(path, &before);
}

/* A run_started_at this version cannot read (the file edited outside
 * perfledger): the query fails naming the database, the run and the value
 * (before, only the value, so list, history and report said nothing of
 * where it was). */
static void test_unreadable_started_at(void **state)
{
	char path[1024], want[4096];
	struct pl_store *st;
	struct pl_run run;
	struct pl_run_list list;
	struct pl_error err;
	sqlite3 *db;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "started"));
	for (int i = 1; i <= 3; i++) {
		make_run(&run, i, 0);
		set_cond(&run, PL_C_RUN_STARTED_AT, "2026-01-31T12:00:00Z");
		insert_ok(st, &run, 1);
		pl_run_release(&run);
	}
	db = raw_open(path);
	assert_int_equal(sqlite3_exec(db, "UPDATE runs SET run_started_at = 'yesterday' WHERE id = 2",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	pl_error_init(&err);
	pl_run_list_init(&list);
	assert_int_equal(pl_store_query(st, NULL, 0, &list, &err), PL_EDB);
	snprintf(want, sizeof(want),
	         "database '%s': run 2 has run_started_at 'yesterday', which this perfledger cannot "
	         "read (not an ISO 8601 time like 2026-01-31T12:00:00Z)",
	         path);
	assert_string_equal(err.message, want);
	assert_string_equal(err.field, "");
	pl_run_list_release(&list);
	pl_store_close(st);
}

static void test_open_missing_dir(void **state)
{
	const char *path = PL_TEST_TMP "/no-such-dir/sub/x.db";
	struct pl_store *st = NULL;
	struct pl_error err;

	(void)state;
	pl_error_init(&err);
	assert_int_equal(pl_store_open(path, &st, &err), PL_EIO);
	assert_null(st);
	assert_string_equal(err.message, "cannot open database '" PL_TEST_TMP
	                                 "/no-such-dir/sub/x.db': unable to open database file");
}

static void test_run_flat_view(void **state)
{
	char path[1024];
	struct pl_store *st;
	struct pl_run run;
	sqlite3 *db;
	sqlite3_stmt *s = NULL;
	int rows = 0;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "flat"));
	for (int i = 0; i < 3; i++) {
		make_run(&run, i + 1, 0);
		pl_run_set_metric(&run, PL_M_TTFT_P50, 0.25 * (i + 1));
		insert_ok(st, &run, 1);
		pl_run_release(&run);
	}
	pl_store_close(st);

	db = raw_open(path);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM run_flat"), 3);
	assert_int_equal(sqlite3_prepare_v2(db,
	                                    "SELECT id, model, ttft_p50, concurrency, "
	                                    "reference_only, source_sha256 FROM run_flat ORDER BY id",
	                                    -1, &s, NULL),
	                 SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		rows++;
		assert_string_equal((const char *)sqlite3_column_text(s, 1), "gemma-4-31b");
		assert_true(sqlite3_column_double(s, 2) == 0.25 * rows);
		assert_true(sqlite3_column_double(s, 3) == 8);
		assert_int_equal(sqlite3_column_int(s, 4), 0); /* checklist_missing left 0 */
	}
	sqlite3_finalize(s);
	assert_int_equal(rows, 3);
	sqlite3_close(db);
}

/* More condition sets than the query's conditions cache has slots, read in
 * an order that makes slots collide: every run still gets its own values. */
static void test_many_condition_sets(void **state)
{
	enum { SETS = 600 };
	char path[1024], buf[32];
	struct pl_store *st;
	struct pl_run run;
	struct pl_run_list list;
	struct pl_error err;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "many"));
	pl_error_init(&err);
	assert_int_equal(pl_store_begin(st, &err), 0);
	for (int i = 0; i < 2 * SETS; i++) {
		int set = i % 2 ? SETS - 1 - i / 2 : i / 2; /* 0, 599, 1, 598, ... */

		make_run(&run, i + 1, 0);
		snprintf(buf, sizeof(buf), "%d", set);
		set_cond(&run, PL_C_INPUT_TOKENS, buf);
		if (set % 3 == 0)
			set_cond(&run, PL_C_DATASET, buf);
		insert_ok(st, &run, 1);
		pl_run_release(&run);
	}
	assert_int_equal(pl_store_commit(st, &err), 0);
	query_ok(st, NULL, 0, &list);
	assert_int_equal(list.n, 2 * SETS);
	for (size_t i = 0; i < list.n; i++) {
		int set = i % 2 ? SETS - 1 - (int)i / 2 : (int)i / 2;

		assert_true(list.v[i].cond[PL_C_INPUT_TOKENS].num == set);
		snprintf(buf, sizeof(buf), "%d", set);
		assert_string_equal(list.v[i].cond[PL_C_INPUT_TOKENS].text, buf);
		if (set % 3 == 0)
			assert_string_equal(list.v[i].cond[PL_C_DATASET].text, buf);
		else
			assert_false(list.v[i].cond[PL_C_DATASET].set);
		assert_string_equal(list.v[i].cond[PL_C_MODEL].text, "gemma-4-31b");
	}
	pl_run_list_release(&list);
	pl_store_close(st);
}

static void test_hostile_strings(void **state)
{
	static const char *const hostile[] = {
		"'; DROP TABLE runs; --",
		"it's \"quoted\"; and;semi;colons",
		"back\\slash\nnew line\ttab",
		"model=x\nprecision=y",
		"\xc3\xa9t\xc3\xa9 \xe2\x80\x94 unicode",
		"%s %n %w %q",
	};
	size_t nh = sizeof(hostile) / sizeof(hostile[0]);
	char path[1024];
	struct pl_store *st;
	struct pl_run run;
	struct pl_run_list list;
	sqlite3 *db;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "hostile"));
	for (size_t i = 0; i < nh; i++) {
		make_run(&run, (int)i + 1, 0);
		set_cond(&run, PL_C_MODEL, hostile[i]);
		set_cond(&run, PL_C_ENGINE_ARGS, hostile[i]);
		assert_int_equal(pl_strset(&run.source, hostile[i]), 0);
		assert_int_equal(pl_strset(&run.adapter, hostile[i]), 0);
		assert_int_equal(pl_strset(&run.format_version, hostile[i]), 0);
		insert_ok(st, &run, 1);
		pl_run_release(&run);
	}
	/* "model=x\nprecision=y" must not collide with model=x, precision=y */
	make_run(&run, 99, 0);
	set_cond(&run, PL_C_MODEL, "x");
	set_cond(&run, PL_C_PRECISION, "y");
	insert_ok(st, &run, 1);
	pl_run_release(&run);

	query_ok(st, NULL, 0, &list);
	assert_int_equal(list.n, nh + 1);
	for (size_t i = 0; i < nh; i++) {
		assert_string_equal(list.v[i].cond[PL_C_MODEL].text, hostile[i]);
		assert_string_equal(list.v[i].cond[PL_C_ENGINE_ARGS].text, hostile[i]);
		assert_string_equal(list.v[i].source, hostile[i]);
		assert_string_equal(list.v[i].adapter, hostile[i]);
		assert_string_equal(list.v[i].format_version, hostile[i]);
	}
	pl_run_list_release(&list);
	for (size_t i = 0; i < nh; i++) {
		struct pl_filter f[] = {{PL_C_MODEL, hostile[i], NULL}};

		query_ok(st, f, 1, &list);
		assert_int_equal(list.n, 1);
		assert_string_equal(list.v[0].cond[PL_C_MODEL].text, hostile[i]);
		pl_run_list_release(&list);
	}
	pl_store_close(st);

	db = raw_open(path);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM conditions"), nh + 1);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM runs"), nh + 1);
	sqlite3_close(db);
}

/* ------------------------------------------------------------- concurrency */

#define CHILDREN 4
#define OWN_RUNS 200
#define SHARED_RUNS 50
#define TX_SIZE 25

/* One writer process: its own runs interleaved with the runs every writer
 * shares, in transactions of TX_SIZE. Returns the exit status. */
static int child_writer(const char *path, int child)
{
	struct pl_store *st = NULL;
	struct pl_error err;
	struct pl_run run;
	int total = OWN_RUNS + SHARED_RUNS;
	int inserted;

	pl_error_init(&err);
	if (pl_store_open(path, &st, &err) != 0) {
		fprintf(stderr, "child %d: %s\n", child, err.message);
		return 1;
	}
	for (int i = 0; i < total; i++) {
		int shared = i % 5 == 0; /* 50 of 250 */
		int seed = shared ? 1000000 + i : (child + 1) * 10000 + i;

		if (i % TX_SIZE == 0 && pl_store_begin(st, &err) != 0)
			goto fail;
		pl_run_init(&run);
		make_run(&run, seed, i % 3);
		if (!shared) {
			char buf[32];

			snprintf(buf, sizeof(buf), "%d", child + 1);
			set_cond(&run, PL_C_ACCELERATOR_COUNT, buf);
		}
		if (pl_store_insert_run(st, &run, &inserted, &err) != 0) {
			pl_run_release(&run);
			goto fail;
		}
		pl_run_release(&run);
		if (i % TX_SIZE == TX_SIZE - 1 && pl_store_commit(st, &err) != 0)
			goto fail;
	}
	pl_store_close(st);
	return 0;
fail:
	fprintf(stderr, "child %d: %s\n", child, err.message);
	pl_store_close(st);
	return 1;
}

/* The plan SQLite picks for sql names an index (issue 6: the hot lookups
 * of import and of --where selections must not scan the tables). */
/* ------------------------------------------- runs in columns (compare) */

/* A comparison rendered as text and JSON after its refusal message, or the
 * error: what a user of `compare` sees. Caller frees. */
static char *render_cmp(int rc, const struct pl_comparison *cmp, const struct pl_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct pl_error rerr;

	assert_non_null(f);
	pl_error_init(&rerr);
	fprintf(f, "rc %d nruns %zu nrows %zu\n%s\n", rc, cmp->nruns, cmp->nrows,
	        rc == PL_EMISMATCH ? refusal_en(err, cmp) : rc ? err->message : "");
	for (size_t i = 0; i < cmp->nmismatches; i++)
		for (size_t k = 0; k < cmp->mismatches[i].nvalues; k++)
			fprintf(f, "mismatch %d: %s\n", cmp->mismatches[i].cond,
			        cmp->mismatches[i].values[k]);
	if (rc == 0) {
		assert_int_equal(pl_render_comparison(f, cmp, PL_FMT_TEXT, &rerr), 0);
		assert_int_equal(pl_render_comparison(f, cmp, PL_FMT_JSON, &rerr), 0);
	}
	fclose(f);
	return buf;
}

/* The comparison of the runs matching f[0..nf) along axis, once from every
 * run loaded in full and once from the columns: the two must agree to the
 * byte. Returns the rendering for further checks (caller frees). */
static char *same_both_ways(struct pl_store *st, const struct pl_filter *f, size_t nf,
                            const char *axis, const char *allow)
{
	struct pl_compare_opts opts;
	struct pl_run_list list;
	struct pl_run_columns cols;
	struct pl_comparison a, b;
	struct pl_error ea, eb;
	unsigned char want[PL_METRIC_COUNT];
	char *ra, *rb;
	int rca, rcb;

	memset(&opts, 0, sizeof(opts));
	memset(want, 1, sizeof(want));
	pl_error_init(&ea);
	pl_error_init(&eb);
	assert_int_equal(pl_compare_parse_axis(&opts, axis, &ea), 0);
	if (allow && strcmp(allow, "error_rate") == 0)
		opts.allow_errors = 1;
	else if (allow)
		opts.allow_mismatch[pl_cond_lookup(allow)] = 1;
	query_ok(st, f, nf, &list);
	rca = pl_compare_build(&list, &opts, &a, &ea);
	if (pl_store_query_columns(st, f, nf, want, &cols, &eb) != 0)
		fail_msg("pl_store_query_columns: %s", eb.message);
	assert_int_equal(cols.n, list.n);
	rcb = pl_compare_build_columns(&cols, &opts, &b, &eb);
	ra = render_cmp(rca, &a, &ea);
	rb = render_cmp(rcb, &b, &eb);
	assert_string_equal(ra, rb);
	free(rb);
	pl_comparison_release(&a);
	pl_comparison_release(&b);
	pl_run_columns_release(&cols);
	pl_run_list_release(&list);
	return ra;
}

static void test_columns_match_full_query(void **state)
{
	static const char *const hw[3] = {"2x NVIDIA A100 80G", "1x NVIDIA H100 80G",
	                                  "1x AMD MI300X 192G"};
	char path[1024], *out;
	struct pl_store *st;
	struct pl_run run;
	struct pl_filter f[2] = {{PL_C_NONE, NULL, NULL}, {PL_C_NONE, NULL, NULL}};
	sqlite3 *db;
	int seed = 0;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "columns"));
	for (int h = 0; h < 3; h++)
		for (int c = 0; c < 2; c++)
			for (int rep = 0; rep < 3; rep++) {
				make_run(&run, ++seed, 0);
				set_cond(&run, PL_C_HARDWARE, hw[h]);
				set_cond(&run, PL_C_CONCURRENCY, c ? "16" : "8");
				set_cond(&run, PL_C_RUN_STARTED_AT, "2026-11-01T10:00:00Z");
				pl_run_set_metric(&run, PL_M_TTFT_P50, 0.1 * (h + 1) + 0.01 * rep);
				if (rep != 1) /* a metric some runs lack */
					pl_run_set_metric(&run, PL_M_OUTPUT_THROUGHPUT, 100.0 * (h + 1) + rep);
				pl_run_set_metric(&run, PL_M_ERROR_RATE, h == 2 && rep == 2 ? 0.25 : 0);
				insert_ok(st, &run, 1);
				pl_run_release(&run);
			}
	/* no filter: concurrency and error rates differ (refused), then allowed */
	free(same_both_ways(st, NULL, 0, "hardware", NULL));
	free(same_both_ways(st, NULL, 0, "hardware", "concurrency"));
	free(same_both_ways(st, NULL, 0, "hardware,concurrency", NULL));
	/* a conditions filter, and the per-run time every run shares */
	f[0].cond = PL_C_CONCURRENCY;
	f[0].value = "8";
	out = same_both_ways(st, f, 1, "hardware", "error_rate");
	assert_non_null(strstr(out, "run_started_at"));
	free(out);
	f[1].cond = PL_C_RUN_STARTED_AT;
	f[1].value = "2026-11-01T10:00:00Z";
	free(same_both_ways(st, f, 2, "hardware", "error_rate"));
	f[1].value = "2026-11-02T10:00:00Z"; /* nothing */
	free(same_both_ways(st, f, 2, "hardware", NULL));
	/* times that differ are not shared */
	db = raw_open(path);
	assert_int_equal(sqlite3_exec(db, "UPDATE runs SET run_started_at = '2026-11-03T10:00:00Z' "
	                                  "WHERE id % 4 = 0", NULL, NULL, NULL),
	                 SQLITE_OK);
	out = same_both_ways(st, f, 1, "hardware", "error_rate");
	assert_null(strstr(out, "run_started_at"));
	free(out);
	/* ids spread wide: two threads read the runs, the results are the same */
	assert_int_equal(sqlite3_exec(db, "UPDATE runs SET id = id + 900000 WHERE id > 7", NULL,
	                              NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	out = same_both_ways(st, NULL, 0, "hardware", "concurrency");
	if (!strstr(out, "error_rate: '0' (runs 1, 2, 3, 4, 5, 6, 7, 900008, 900009, 900010 and 6 "
	                 "more) vs '0.25' (runs 900015, 900018)"))
		fail_msg("%s", out);
	free(out);
	out = same_both_ways(st, f, 1, "hardware", "error_rate");
	if (!strstr(out, "\"run_ids\": [7, 900008, 900009]")) /* read by both threads */
		fail_msg("%s", out);
	free(out);
	/* ids at both ends of the 64-bit range: their span overflows a signed
	 * subtraction (UBSan caught it in the split and in the id map) */
	db = raw_open(path);
	assert_int_equal(sqlite3_exec(db, "UPDATE runs SET id = 9223372036854775000 WHERE id = 900018;"
	                                  "UPDATE runs SET id = -9223372036854775000 WHERE id = 1;"
	                                  "UPDATE runs SET condition_id = 9223372036854775001 WHERE "
	                                  "condition_id = (SELECT max(id) FROM conditions);"
	                                  "UPDATE conditions SET id = 9223372036854775001 WHERE id = "
	                                  "(SELECT max(id) FROM conditions);"
	                                  "UPDATE runs SET condition_id = -9223372036854775001 WHERE "
	                                  "condition_id = (SELECT min(id) FROM conditions);"
	                                  "UPDATE conditions SET id = -9223372036854775001 WHERE id = "
	                                  "(SELECT min(id) FROM conditions);",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	free(same_both_ways(st, NULL, 0, "hardware", "concurrency"));
	/* a per-run filter: conditions rows read ahead that no selected run uses */
	f[1].value = "2026-11-03T10:00:00Z";
	out = same_both_ways(st, f, 2, "hardware", "error_rate");
	if (!strstr(out, "rc 0 nruns 1 nrows 1") || !strstr(out, "900008"))
		fail_msg("%s", out);
	free(out);
	pl_store_close(st);
}

static void expect_index(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s = NULL;
	char plan[1024] = "";

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		size_t len = strlen(plan);
		snprintf(plan + len, sizeof(plan) - len, "%s / ", (const char *)sqlite3_column_text(s, 3));
	}
	sqlite3_finalize(s);
	if (!strstr(plan, "USING INDEX") && !strstr(plan, "USING COVERING INDEX") &&
	    !strstr(plan, "USING INTEGER PRIMARY KEY"))
		fail_msg("no index for '%s': %s", sql, plan);
	if (strstr(plan, "SCAN runs") || strstr(plan, "SCAN conditions"))
		fail_msg("table scan for '%s': %s", sql, plan);
}

static void test_query_plans_use_indexes(void **state)
{
	char path[1024];
	sqlite3 *db;

	(void)state;
	pl_store_close(open_ok(db_path(path, sizeof(path), "plans")));
	db = raw_open(path);
	expect_index(db, "EXPLAIN QUERY PLAN SELECT 1 FROM runs WHERE source_sha256 = 'x' LIMIT 1");
	expect_index(db, "EXPLAIN QUERY PLAN SELECT id FROM conditions WHERE key_hash = 1 AND "
	                 "key_text = 'x'");
	expect_index(db, "EXPLAIN QUERY PLAN SELECT runs.id FROM conditions JOIN runs ON "
	                 "runs.condition_id = conditions.id WHERE conditions.model = 'a' AND "
	                 "conditions.precision = 'b'");
	expect_index(db, "EXPLAIN QUERY PLAN SELECT runs.id FROM conditions JOIN runs ON "
	                 "runs.condition_id = conditions.id WHERE conditions.hardware = 'h'");
	expect_index(db, "EXPLAIN QUERY PLAN SELECT runs.id FROM conditions JOIN runs ON "
	                 "runs.condition_id = conditions.id WHERE conditions.engine_version = 'v'");
	/* compare's column query (pl_store_query_columns): a selection of a few
	 * condition sets reads their runs through runs_condition_id, not every
	 * run in the id range */
	{
		const char *sql = "EXPLAIN QUERY PLAN SELECT id, condition_id, checklist_missing, "
		                  "run_started_at, ttft_p50 FROM runs WHERE id BETWEEN 1 AND 1000000 "
		                  "AND condition_id IN (SELECT id FROM conditions WHERE "
		                  "\"model\" = 'a' AND \"precision\" = 'b')";
		char plan[1024] = "";
		sqlite3_stmt *s = NULL;

		expect_index(db, sql);
		assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
		while (sqlite3_step(s) == SQLITE_ROW) {
			size_t len = strlen(plan);
			snprintf(plan + len, sizeof(plan) - len, "%s / ",
			         (const char *)sqlite3_column_text(s, 3));
		}
		sqlite3_finalize(s);
		if (!strstr(plan, "runs_condition_id"))
			fail_msg("runs of a selection not read by runs_condition_id: %s", plan);
	}
	sqlite3_close(db);
}

static void test_concurrent_writers(void **state)
{
	char path[1024];
	pid_t pids[CHILDREN];
	struct pl_store *st;
	sqlite3 *db;
	sqlite3_stmt *s = NULL;

	(void)state;
	db_path(path, sizeof(path), "concurrent");
	fflush(NULL);
	for (int c = 0; c < CHILDREN; c++) {
		pids[c] = fork();
		assert_true(pids[c] >= 0);
		if (pids[c] == 0)
			_exit(child_writer(path, c));
	}
	for (int c = 0; c < CHILDREN; c++) {
		int status = 0;

		assert_int_equal(waitpid(pids[c], &status, 0), pids[c]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	st = open_ok(path);
	assert_int_equal(count_runs(st), CHILDREN * OWN_RUNS + SHARED_RUNS);
	pl_store_close(st);

	db = raw_open(path);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(s, 0), "ok");
	sqlite3_finalize(s);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), pl_store_schema_version());
	/* one conditions row per accelerator_count value plus the shared one */
	assert_int_equal(raw_int(db, "SELECT count(*) FROM conditions"), CHILDREN + 1);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM runs r LEFT JOIN conditions c "
	                             "ON c.id = r.condition_id WHERE c.id IS NULL"),
	                 0);
	sqlite3_close(db);
}

/* ------------------------------------------------------ extra conditions */

static void set_extra(struct pl_run *run, const char *name, const char *value)
{
	struct pl_error err;

	pl_error_init(&err);
	if (pl_run_set_extra(run, name, value, &err) != 0)
		fail_msg("pl_run_set_extra(%s): %s", name, err.message);
}

/* First column of the first row of sql as text (copied into buf). */
static const char *raw_text(sqlite3 *db, const char *sql, char *buf, size_t n)
{
	sqlite3_stmt *s = NULL;
	const char *t;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	t = (const char *)sqlite3_column_text(s, 0);
	snprintf(buf, n, "%s", t ? t : "(null)");
	sqlite3_finalize(s);
	return buf;
}

/* run's extras as "name=value;" pairs, for exact comparisons. */
static const char *extras_text(const struct pl_run *run, char *buf, size_t n)
{
	buf[0] = '\0';
	for (size_t i = 0; i < run->nextra; i++) {
		size_t len = strlen(buf);
		snprintf(buf + len, n - len, "%s=%s;", run->extra[i].name, run->extra[i].value);
	}
	return buf;
}

/* The key_text make_run()'s conditions had before extras were stored. */
#define MAKE_RUN_KEY \
	"model=gemma-4-31b\nprecision=bfloat16\nengine=vllm\nengine_version=0.6.3\n" \
	"hardware=2x NVIDIA A100 80G\nconcurrency=8\n"

/* Extras are part of the condition key: written after the canonical
 * lines, names escaped so that '=' cannot move the split; a set without
 * extras keeps its old key_text. */
static void test_extras_key(void **state)
{
	struct pl_run a, b;
	struct pl_cond_key ka, kb;

	(void)state;
	make_run(&a, 1, 0);
	assert_int_equal(pl_cond_key_make(&a, &ka), 0);
	assert_string_equal(ka.text, MAKE_RUN_KEY);
	pl_cond_key_release(&ka);
	/* added in any order, written by name */
	set_extra(&a, "vllm-serving.label", "a\\b\nc");
	set_extra(&a, "descriptor.x_node_pool", "pool=1");
	assert_int_equal(pl_cond_key_make(&a, &ka), 0);
	assert_string_equal(ka.text, MAKE_RUN_KEY "descriptor.x_node_pool=pool=1\n"
	                                          "vllm-serving.label=a\\\\b\\nc\n");
	assert_int_equal(ka.hash, pl_hash64(ka.text, ka.len));
	pl_cond_key_release(&ka);
	pl_run_release(&a);
	/* name "x.k=v" value "1" and name "x.k" value "v=1" are two keys */
	make_run(&a, 1, 0);
	make_run(&b, 1, 0);
	set_extra(&a, "x.k=v", "1");
	set_extra(&b, "x.k", "v=1");
	assert_int_equal(pl_cond_key_make(&a, &ka), 0);
	assert_int_equal(pl_cond_key_make(&b, &kb), 0);
	assert_string_equal(ka.text, MAKE_RUN_KEY "x.k\\=v=1\n");
	assert_string_equal(kb.text, MAKE_RUN_KEY "x.k=v=1\n");
	pl_cond_key_release(&ka);
	pl_cond_key_release(&kb);
	pl_run_release(&a);
	pl_run_release(&b);
}

/* Runs 1 and 2: pool-1 (one set); 3: pool-2 (differs only in the extra);
 * 4: no extras; 5: stored through the bulk path with pool-1. */
static void store_extras_runs(struct pl_store *st)
{
	struct pl_run run;
	struct pl_error err;
	int inserted = -1;

	for (int i = 1; i <= 4; i++) {
		make_run(&run, i, 0);
		if (i <= 3) {
			set_extra(&run, "descriptor.x_node_pool", i == 3 ? "pool-2" : "pool-1");
			set_extra(&run, "vllm-serving.label", "nightly\x1b[31m");
		}
		pl_run_set_metric(&run, PL_M_TTFT_P50, 0.25 * i);
		insert_ok(st, &run, 1);
		pl_run_release(&run);
	}
	pl_error_init(&err);
	make_run(&run, 5, 0);
	set_extra(&run, "descriptor.x_node_pool", "pool-1");
	set_extra(&run, "vllm-serving.label", "nightly\x1b[31m");
	assert_int_equal(pl_store_begin(st, &err), 0);
	assert_int_equal(pl_store_insert_run_bulk(st, &run, NULL, &inserted, &err), 0);
	assert_int_equal(inserted, 1);
	assert_int_equal(pl_store_commit(st, &err), 0);
	pl_run_release(&run);
}

static void test_extras_round_trip(void **state)
{
	char path[1024], buf[512];
	struct pl_store *st;
	struct pl_run run;
	struct pl_run_list list;
	struct pl_run_columns cols;
	struct pl_error err;
	unsigned char want[PL_METRIC_COUNT];
	sqlite3 *db;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "extras"));
	store_extras_runs(st);
	/* the same bytes again with another extra: nothing stored, and the
	 * conditions row made for it goes again with its extras */
	make_run(&run, 1, 0);
	set_extra(&run, "descriptor.x_node_pool", "pool-9");
	insert_ok(st, &run, 0);
	pl_run_release(&run);

	db = raw_open(path);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM runs"), 5);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM conditions"), 3);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM condition_extras"), 4);
	assert_int_equal(raw_int(db, "SELECT count(DISTINCT condition_id) FROM runs "
	                             "WHERE id IN (1, 2, 5)"),
	                 1);
	assert_int_equal(raw_int(db, "SELECT count(DISTINCT condition_id) FROM runs"), 3);
	assert_string_equal(raw_text(db, "SELECT key_text FROM conditions WHERE id = "
	                                 "(SELECT condition_id FROM runs WHERE id = 4)",
	                             buf, sizeof(buf)),
	                    MAKE_RUN_KEY);
	assert_string_equal(raw_text(db, "SELECT extras FROM run_flat WHERE id = 3", buf,
	                             sizeof(buf)),
	                    "{\"descriptor.x_node_pool\":\"pool-2\","
	                    "\"vllm-serving.label\":\"nightly\\u001b[31m\"}");
	assert_string_equal(raw_text(db, "SELECT extras FROM run_flat WHERE id = 4", buf,
	                             sizeof(buf)),
	                    "(null)");
	sqlite3_close(db);

	/* every run in full */
	query_ok(st, NULL, 0, &list);
	assert_int_equal(list.n, 5);
	assert_string_equal(extras_text(&list.v[0], buf, sizeof(buf)),
	                    "descriptor.x_node_pool=pool-1;vllm-serving.label=nightly\x1b[31m;");
	assert_true(pl_run_extras_equal(&list.v[0], &list.v[1]));
	assert_true(pl_run_extras_equal(&list.v[0], &list.v[4]));
	assert_string_equal(pl_run_extra(&list.v[2], "descriptor.x_node_pool"), "pool-2");
	assert_int_equal(list.v[3].nextra, 0);
	{
		/* compare refuses runs 1 and 3 (only the extra differs), naming it */
		struct pl_compare_opts opts;
		struct pl_comparison cmp;
		struct pl_run_list two = {0};

		memset(&opts, 0, sizeof(opts));
		pl_error_init(&err);
		assert_int_equal(pl_compare_parse_axis(&opts, "hardware", &err), 0);
		assert_int_equal(pl_run_copy(pl_run_list_push(&two), &list.v[0]), 0);
		assert_int_equal(pl_run_copy(pl_run_list_push(&two), &list.v[2]), 0);
		assert_int_equal(pl_compare_build(&two, &opts, &cmp, &err), PL_EMISMATCH);
		assert_int_equal(cmp.nmismatches, 1);
		assert_int_equal(cmp.mismatches[0].cond, PL_C_NONE);
		assert_string_equal(cmp.mismatches[0].extra, "descriptor.x_node_pool");
		assert_int_equal(cmp.mismatches[0].nvalues, 2);
		assert_string_equal(cmp.mismatches[0].values[0], "pool-1");
		assert_string_equal(cmp.mismatches[0].values[1], "pool-2");
		pl_comparison_release(&cmp);
		/* runs without extras vs with: missing is a value */
		pl_run_release(&two.v[1]);
		assert_int_equal(pl_run_copy(&two.v[1], &list.v[3]), 0);
		assert_int_equal(pl_compare_build(&two, &opts, &cmp, &err), PL_EMISMATCH);
		assert_int_equal(cmp.nmismatches, 2);
		assert_string_equal(cmp.mismatches[0].extra, "descriptor.x_node_pool");
		assert_string_equal(cmp.mismatches[1].extra, "vllm-serving.label");
		pl_comparison_release(&cmp);
		pl_run_list_release(&two);
	}
	pl_run_list_release(&list);

	/* the runs of one source */
	pl_run_list_init(&list);
	pl_error_init(&err);
	{
		char sha[65];
		snprintf(sha, sizeof(sha), "%064x", 3);
		assert_int_equal(pl_store_query_source(st, sha, &list, &err), 0);
	}
	assert_int_equal(list.n, 1);
	assert_string_equal(extras_text(&list.v[0], buf, sizeof(buf)),
	                    "descriptor.x_node_pool=pool-2;vllm-serving.label=nightly\x1b[31m;");
	pl_run_list_release(&list);

	/* in columns: each set once, owning its extras */
	memset(want, 0, sizeof(want));
	want[PL_M_TTFT_P50] = 1;
	pl_error_init(&err);
	assert_int_equal(pl_store_query_columns(st, NULL, 0, want, &cols, &err), 0);
	assert_int_equal(cols.n, 5);
	assert_int_equal(cols.nsets, 3);
	assert_int_equal(cols.set[0], cols.set[1]);
	assert_int_equal(cols.set[0], cols.set[4]);
	assert_string_equal(extras_text(&cols.sets[cols.set[0]], buf, sizeof(buf)),
	                    "descriptor.x_node_pool=pool-1;vllm-serving.label=nightly\x1b[31m;");
	assert_string_equal(pl_run_extra(&cols.sets[cols.set[2]], "descriptor.x_node_pool"),
	                    "pool-2");
	assert_int_equal(cols.sets[cols.set[3]].nextra, 0);
	{
		struct pl_compare_opts opts;
		struct pl_comparison cmp;

		memset(&opts, 0, sizeof(opts));
		assert_int_equal(pl_compare_parse_axis(&opts, "hardware", &err), 0);
		assert_int_equal(pl_compare_build_columns(&cols, &opts, &cmp, &err), PL_EMISMATCH);
		assert_int_equal(cmp.nmismatches, 2);
		assert_string_equal(cmp.mismatches[0].extra, "descriptor.x_node_pool");
		assert_int_equal(cmp.mismatches[0].nvalues, 3);
		pl_comparison_release(&cmp);
		/* allowed by name: a caveat instead */
		opts.allow_extra[0] = "descriptor.x_node_pool";
		opts.allow_extra[1] = "vllm-serving.label";
		opts.nallow_extra = 2;
		assert_int_equal(pl_compare_build_columns(&cols, &opts, &cmp, &err), 0);
		pl_comparison_release(&cmp);
	}
	pl_run_columns_release(&cols);
	pl_store_close(st);
}

/* --where on an extra condition: its value, or its absence, in both query
 * paths, alone and with other filters. */
static void test_extras_filters(void **state)
{
	char path[1024];
	struct pl_store *st;
	struct pl_run_columns cols;
	struct pl_error err;
	unsigned char want[PL_METRIC_COUNT];
	struct {
		struct pl_filter f[2];
		size_t nf;
		size_t want_runs;
	} cases[] = {
		{{{PL_C_NONE, "pool-1", "descriptor.x_node_pool"}}, 1, 3},
		{{{PL_C_NONE, "pool-2", "descriptor.x_node_pool"}}, 1, 1},
		{{{PL_C_NONE, "pool-3", "descriptor.x_node_pool"}}, 1, 0},
		{{{PL_C_NONE, NULL, "descriptor.x_node_pool"}}, 1, 1},
		{{{PL_C_NONE, "nightly\x1b[31m", "vllm-serving.label"}}, 1, 4},
		{{{PL_C_NONE, "pool-1", "vllm-serving.label"}}, 1, 0},
		{{{PL_C_NONE, NULL, "other.key"}}, 1, 5},
		{{{PL_C_RUN_STARTED_AT, NULL, NULL}, {PL_C_NONE, "pool-2", "descriptor.x_node_pool"}},
		 2,
		 1},
		{{{PL_C_NONE, "pool-1", "descriptor.x_node_pool"}, {PL_C_CONCURRENCY, "8", NULL}}, 2, 3},
		{{{PL_C_NONE, NULL, "descriptor.x_node_pool"}, {PL_C_CONCURRENCY, "16", NULL}}, 2, 0},
	};

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "extras-where"));
	store_extras_runs(st);
	memset(want, 0, sizeof(want));
	want[PL_M_TTFT_P50] = 1;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = count_matching(st, cases[i].f, cases[i].nf);

		if (n != cases[i].want_runs)
			fail_msg("case %zu: pl_store_query gave %zu runs, want %zu", i, n,
			         cases[i].want_runs);
		pl_error_init(&err);
		assert_int_equal(pl_store_query_columns(st, cases[i].f, cases[i].nf, want, &cols, &err),
		                 0);
		if (cols.n != cases[i].want_runs)
			fail_msg("case %zu: pl_store_query_columns gave %zu runs, want %zu", i, cols.n,
			         cases[i].want_runs);
		pl_run_columns_release(&cols);
	}
	{
		/* the run without the extra is run 4 */
		struct pl_filter f[] = {{PL_C_NONE, NULL, "descriptor.x_node_pool"}};
		struct pl_run_list list;

		query_ok(st, f, 1, &list);
		assert_int_equal(list.n, 1);
		assert_int_equal(list.v[0].id, 4);
		pl_run_list_release(&list);
	}
	{
		/* a name without a '.' is no extra condition */
		struct pl_filter f[] = {{PL_C_NONE, "x", "nodot"}};
		struct pl_run_list list = {0};

		pl_error_init(&err);
		assert_int_equal(pl_store_query(st, f, 1, &list, &err), PL_EUSAGE);
		assert_int_equal(pl_store_query_columns(st, f, 1, want, &cols, &err), PL_EUSAGE);
		pl_run_list_release(&list);
	}
	pl_store_close(st);
}

/* The columns query of a wide span of ids (a second reader thread and the
 * conditions read ahead on a third): the sets still carry their extras. */
static void test_extras_columns_threads(void **state)
{
	char path[1024], buf[256];
	struct pl_store *st;
	struct pl_run_columns cols;
	struct pl_error err;
	unsigned char want[PL_METRIC_COUNT];
	sqlite3 *db;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "extras-threads"));
	store_extras_runs(st);
	db = raw_open(path);
	assert_int_equal(sqlite3_exec(db, "UPDATE runs SET id = id + 900000 WHERE id > 2", NULL,
	                              NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	memset(want, 0, sizeof(want));
	want[PL_M_TTFT_P50] = 1;
	pl_error_init(&err);
	assert_int_equal(pl_store_query_columns(st, NULL, 0, want, &cols, &err), 0);
	assert_int_equal(cols.n, 5);
	assert_int_equal(cols.id[4], 900005);
	assert_int_equal(cols.nsets, 3);
	assert_string_equal(extras_text(&cols.sets[cols.set[4]], buf, sizeof(buf)),
	                    "descriptor.x_node_pool=pool-1;vllm-serving.label=nightly\x1b[31m;");
	assert_string_equal(extras_text(&cols.sets[cols.set[2]], buf, sizeof(buf)),
	                    "descriptor.x_node_pool=pool-2;vllm-serving.label=nightly\x1b[31m;");
	assert_int_equal(cols.sets[cols.set[3]].nextra, 0);
	pl_run_columns_release(&cols);
	{
		/* a filter that leaves conditions rows read ahead unused */
		struct pl_filter f[] = {{PL_C_NONE, "pool-2", "descriptor.x_node_pool"}};

		assert_int_equal(pl_store_query_columns(st, f, 1, want, &cols, &err), 0);
		assert_int_equal(cols.n, 1);
		assert_int_equal(cols.id[0], 900003);
		assert_int_equal(cols.nsets, 1);
		assert_string_equal(pl_run_extra(&cols.sets[0], "descriptor.x_node_pool"), "pool-2");
		pl_run_columns_release(&cols);
	}
	/* runs whose conditions rows are gone (a database edited with foreign
	 * keys off), more sets than were read ahead: a clean error, not a crash
	 * on the sets never filled */
	db = raw_open(path);
	assert_int_equal(sqlite3_exec(db, "UPDATE runs SET condition_id = 998 WHERE id = 900004;"
	                                  "UPDATE runs SET condition_id = 999 WHERE id = 900005",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	pl_error_init(&err);
	assert_int_equal(pl_store_query_columns(st, NULL, 0, want, &cols, &err), PL_EDB);
	assert_string_equal(err.message, "database error: conditions row 998 of a stored run is "
	                                 "missing (run 'PRAGMA foreign_key_check' in the sqlite3 "
	                                 "shell)");
	assert_int_equal(cols.n, 0);
	pl_store_close(st);
}

/* pl_key_hash() for a raw connection that applies migration 004 itself. */
static void raw_key_hash(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const unsigned char *t = sqlite3_value_text(argv[0]);

	(void)argc;
	if (!t)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, (sqlite3_int64)pl_hash64(t, (size_t)sqlite3_value_bytes(argv[0])));
}

/* A database of schema version 6 (before condition_extras) is upgraded:
 * its runs read back without extras, its key_text stays valid (the same
 * conditions find the old row), and a set with an extra gets a new row. */
static void test_migrate_v6_to_v7(void **state)
{
	char path[1024], buf[256], *sql;
	struct pl_store *st;
	struct pl_run run;
	struct pl_cond_key key;
	struct pl_run_list list;
	sqlite3 *db;
	sqlite3_stmt *s = NULL;

	(void)state;
	db_path(path, sizeof(path), "v6");
	db = raw_open(path);
	assert_int_equal(sqlite3_create_function(db, "pl_key_hash", 1, SQLITE_UTF8, NULL,
	                                         raw_key_hash, NULL, NULL),
	                 SQLITE_OK);
	for (int i = 0; i < 6; i++)
		assert_int_equal(sqlite3_exec(db, pl_schema_migrations[i], NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 6", NULL, NULL, NULL), SQLITE_OK);
	make_run(&run, 1, 0);
	assert_int_equal(pl_cond_key_make(&run, &key), 0);
	assert_int_equal(sqlite3_prepare_v2(db,
	                                    "INSERT INTO conditions (id, key_hash, key_text, model, "
	                                    "precision, engine, engine_version, hardware, concurrency)"
	                                    " VALUES (5, ?1, ?2, 'gemma-4-31b', 'bfloat16', 'vllm', "
	                                    "'0.6.3', '2x NVIDIA A100 80G', 8)",
	                                    -1, &s, NULL),
	                 SQLITE_OK);
	sqlite3_bind_int64(s, 1, (sqlite3_int64)key.hash);
	sqlite3_bind_text(s, 2, key.text, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(s), SQLITE_DONE);
	sqlite3_finalize(s);
	sql = sqlite3_mprintf("INSERT INTO runs (id, condition_id, source_path, source_sha256, adapter,"
	                      " imported_at, ttft_p50) VALUES (3, 5, 'a.json', printf('%%064x', 1),"
	                      " 'descriptor', '2026-01-01T00:00:00Z', 0.25)");
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_free(sql);
	sqlite3_close(db);
	pl_cond_key_release(&key);
	pl_run_release(&run);

	st = open_ok(path); /* migrates */
	query_ok(st, NULL, 0, &list);
	assert_int_equal(list.n, 1);
	assert_int_equal(list.v[0].id, 3);
	assert_int_equal(list.v[0].nextra, 0);
	assert_string_equal(list.v[0].cond[PL_C_HARDWARE].text, "2x NVIDIA A100 80G");
	assert_false(list.v[0].cond[PL_C_PIPELINE_PARALLEL_SIZE].set);
	pl_run_list_release(&list);
	make_run(&run, 2, 0); /* the same conditions, new bytes: the old row */
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	make_run(&run, 3, 0); /* and an extra: a new row */
	set_extra(&run, "descriptor.x_node_pool", "pool-1");
	insert_ok(st, &run, 1);
	pl_run_release(&run);
	pl_store_close(st);

	db = raw_open(path);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), pl_store_schema_version());
	assert_int_equal(raw_int(db, "SELECT condition_id FROM runs WHERE source_sha256 = "
	                             "printf('%064x', 2)"),
	                 5);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM conditions"), 2);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM condition_extras"), 1);
	assert_string_equal(raw_text(db, "SELECT extras FROM run_flat WHERE source_sha256 = "
	                                 "printf('%064x', 3)",
	                             buf, sizeof(buf)),
	                    "{\"descriptor.x_node_pool\":\"pool-1\"}");
	assert_string_equal(raw_text(db, "SELECT key_text FROM conditions WHERE id = 5", buf,
	                             sizeof(buf)),
	                    MAKE_RUN_KEY);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	sqlite3_close(db);
}

/* Stored bytes imported again while their stored set has an extra the
 * file now lacks: refused, naming the extra with both values. */
static void on_reimport(void *ctx, const char *path, enum pl_import_status status, size_t runs,
                        size_t reference_only, const char *warnings, const struct pl_error *err)
{
	char *msg = ctx;
	int len;

	(void)path;
	(void)runs;
	(void)reference_only;
	(void)warnings;
	len = snprintf(msg, 1024, "%d ", (int)status);
	if (len > 0 && len < 1024 && err)
		strncat(msg, err->message, 1024 - (size_t)len - 1);
}

static void test_extras_reimport_refused(void **state)
{
	static const char desc[] =
		"{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\", \"hardware\": \"1x A100\",\n"
		" \"metric\": {\"ttft_p50\": 0.3}}\n";
	char path[1024], file[1100], msg[1024] = "", want[700];
	const char *paths[1] = {file};
	struct pl_store *st;
	struct pl_import_stats stats;
	struct pl_error err;
	FILE *f;
	sqlite3 *db;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "extras-reimport"));
	snprintf(file, sizeof(file), "%s/store-extras-reimport.json", PL_TEST_TMP);
	assert_non_null(f = fopen(file, "w"));
	fputs(desc, f);
	assert_int_equal(fclose(f), 0);
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 1, NULL, on_reimport, msg, &stats, &err), 0);
	assert_int_equal(stats.stored, 1);
	/* the stored set gets an extra (as a file that recorded one would) */
	db = raw_open(path);
	assert_int_equal(sqlite3_exec(db,
	                              "INSERT INTO condition_extras (condition_id, name, value) "
	                              "SELECT condition_id, 'descriptor.x_node_pool', 'pool-1' "
	                              "FROM runs WHERE id = 1",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	pl_error_init(&err);
	pl_import_paths(st, paths, 1, NULL, on_reimport, msg, &stats, &err);
	assert_int_equal(stats.rejected, 1);
	snprintf(want, sizeof(want),
	         "%d these bytes are stored already (run 1) with other conditions: "
	         "descriptor.x_node_pool stored 'pool-1', now '(missing)'; a stored run is never "
	         "rewritten",
	         (int)PL_IMPORT_REJECTED);
	assert_string_equal(msg, want);
	pl_store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fresh_db_version),
		cmocka_unit_test(test_schema_in_sync),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_bad_source_date_epoch),
		cmocka_unit_test(test_duplicate_stored_once),
		cmocka_unit_test(test_shared_conditions),
		cmocka_unit_test(test_migrate_v3_to_v4),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_transactions),
		cmocka_unit_test(test_schema_too_new),
		cmocka_unit_test(test_not_perfledger_db),
		cmocka_unit_test(test_deferred_indexes),
		cmocka_unit_test(test_foreign_versioned_untouched),
		cmocka_unit_test(test_open_missing_dir),
		cmocka_unit_test(test_readonly_missing_or_empty),
		cmocka_unit_test(test_readonly_refusals_untouched),
		cmocka_unit_test(test_readonly_older_schema),
		cmocka_unit_test(test_readonly_sees_wal),
		cmocka_unit_test(test_unreadable_started_at),
		cmocka_unit_test(test_failed_migration_untouched),
		cmocka_unit_test(test_run_flat_view),
		cmocka_unit_test(test_many_condition_sets),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_columns_match_full_query),
		cmocka_unit_test(test_query_plans_use_indexes),
		cmocka_unit_test(test_concurrent_writers),
		cmocka_unit_test(test_extras_key),
		cmocka_unit_test(test_extras_round_trip),
		cmocka_unit_test(test_extras_filters),
		cmocka_unit_test(test_extras_columns_threads),
		cmocka_unit_test(test_migrate_v6_to_v7),
		cmocka_unit_test(test_extras_reimport_refused),
		cmocka_unit_test(test_hub_marks),
	};

	pl_adapters_init(); /* cJSON's allocator hooks, as main() does */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
