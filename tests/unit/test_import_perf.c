/*
 * test_import_perf.c — the shortcuts that keep an import near its floor
 * (issue 17) and a no-op re-import near the first one (issue 13, item 9)
 * must not change what is decided: pl_store_source_same_keys() says "same"
 * only when the stored runs have the keys and start times of the runs read
 * now, and a stored run whose spelling the shortcut does not recognise
 * still goes through the full comparison (a duplicate, not a refusal).
 * The speed itself is measured by bench/run.sh, not here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/adapters.h"
#include "core/condkey.h"
#include "core/model.h"
#include "import/import.h"
#include "store/db.h"

/* A fresh database path under PL_TEST_TMP (old files removed). */
static const char *db_path(char *buf, size_t n, const char *name)
{
	char f[1300]; /* buf (at most 1200 bytes here) and "-wal" */

	mkdir(PL_TEST_TMP, 0777);
	snprintf(buf, n, "%s/import-perf-%s.db", PL_TEST_TMP, name);
	remove(buf);
	snprintf(f, sizeof(f), "%s-wal", buf);
	remove(f);
	snprintf(f, sizeof(f), "%s-shm", buf);
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

static void set_cond(struct pl_run *run, int id, const char *v)
{
	struct pl_error err;

	pl_error_init(&err);
	if (pl_run_set_cond(run, id, v, &err) != 0)
		fail_msg("pl_run_set_cond(%s): %s", pl_cond_info[id].name, err.message);
}

/* Record `record` of the file whose sha256 is made from seed. */
static void make_run(struct pl_run *run, int seed, long record)
{
	pl_run_init(run);
	set_cond(run, PL_C_MODEL, "gemma-4-31b");
	set_cond(run, PL_C_PRECISION, "bfloat16");
	set_cond(run, PL_C_ENGINE, "vllm");
	set_cond(run, PL_C_HARDWARE, "2x NVIDIA A100 80G");
	set_cond(run, PL_C_CONCURRENCY, "8");
	pl_run_set_metric(run, PL_M_TTFT_P50, 0.32);
	snprintf(run->sha256, sizeof(run->sha256), "%064x", seed);
	run->record = record;
	assert_int_equal(pl_strset(&run->source, "f.jsonl"), 0);
	assert_int_equal(pl_strset(&run->adapter, "descriptor"), 0);
}

/* pl_store_source_same_keys() of runs[0..n) against what seed's file stored. */
static int same_keys(struct pl_store *st, int seed, struct pl_run *runs, size_t n)
{
	struct pl_cond_key keys[4];
	struct pl_error err;
	char sha[65];
	int same = -1;

	assert_true(n <= 4);
	snprintf(sha, sizeof(sha), "%064x", seed);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(pl_cond_key_make(&runs[i], &keys[i]), 0);
	pl_error_init(&err);
	if (pl_store_source_same_keys(st, sha, runs, keys, n, &same, &err) != 0)
		fail_msg("pl_store_source_same_keys: %s", err.message);
	for (size_t i = 0; i < n; i++)
		pl_cond_key_release(&keys[i]);
	return same;
}

static void test_same_keys(void **state)
{
	char path[1024];
	struct pl_store *st;
	struct pl_run runs[3];
	struct pl_error err;
	int inserted;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "same-keys"));
	make_run(&runs[0], 7, 0);
	make_run(&runs[1], 7, 1);
	set_cond(&runs[1], PL_C_RUN_STARTED_AT, "2026-01-02T03:04:05Z");
	set_cond(&runs[1], PL_C_DATASET, "sharegpt");
	for (int i = 0; i < 2; i++) {
		pl_error_init(&err);
		assert_int_equal(pl_store_insert_run(st, &runs[i], &inserted, &err), 0);
		assert_int_equal(inserted, 1);
	}
	/* as stored */
	assert_int_equal(same_keys(st, 7, runs, 2), 1);
	/* the order of the runs read now does not matter */
	make_run(&runs[2], 7, 1);
	set_cond(&runs[2], PL_C_RUN_STARTED_AT, "2026-01-02T03:04:05Z");
	set_cond(&runs[2], PL_C_DATASET, "sharegpt");
	assert_int_equal(same_keys(st, 7, &runs[1], 2), 1);
	pl_run_release(&runs[2]);
	/* only the records given now are compared: a record the file no longer
	 * gives, or one never stored, does not count */
	assert_int_equal(same_keys(st, 7, runs, 1), 1);
	make_run(&runs[2], 7, 5);
	set_cond(&runs[2], PL_C_MODEL, "other");
	assert_int_equal(same_keys(st, 7, runs, 3), 1);
	pl_run_release(&runs[2]);
	/* bytes never stored: nothing differs */
	assert_int_equal(same_keys(st, 8, runs, 2), 1);
	/* a condition of the key */
	set_cond(&runs[1], PL_C_CONCURRENCY, "16");
	assert_int_equal(same_keys(st, 7, runs, 2), 0);
	set_cond(&runs[1], PL_C_CONCURRENCY, "8");
	/* a condition gone missing */
	set_cond(&runs[1], PL_C_DATASET, NULL);
	assert_int_equal(same_keys(st, 7, runs, 2), 0);
	set_cond(&runs[1], PL_C_DATASET, "sharegpt");
	assert_int_equal(same_keys(st, 7, runs, 2), 1);
	/* run_started_at lives in runs, not in the key: compared by itself */
	set_cond(&runs[1], PL_C_RUN_STARTED_AT, "2026-01-02T03:04:06Z");
	assert_int_equal(same_keys(st, 7, runs, 2), 0);
	set_cond(&runs[1], PL_C_RUN_STARTED_AT, NULL);
	assert_int_equal(same_keys(st, 7, runs, 2), 0);
	set_cond(&runs[0], PL_C_RUN_STARTED_AT, "2026-01-02T03:04:05Z");
	set_cond(&runs[1], PL_C_RUN_STARTED_AT, "2026-01-02T03:04:05Z");
	assert_int_equal(same_keys(st, 7, runs, 2), 0);
	/* an extra condition is part of the key */
	pl_run_release(&runs[0]);
	make_run(&runs[0], 7, 0);
	pl_error_init(&err);
	assert_int_equal(pl_run_set_extra(&runs[0], "descriptor.x_pool", "p1", &err), 0);
	assert_int_equal(same_keys(st, 7, runs, 1), 0);
	for (int i = 0; i < 2; i++)
		pl_run_release(&runs[i]);
	pl_store_close(st);
}

struct outcomes {
	int stored, duplicate, rejected;
	char last_error[1024];
	long last_line; /* the line of last_error */
};

static void on_file(void *ctx, const char *path, enum pl_import_status status, size_t runs,
                    size_t reference_only, const char *warnings, const struct pl_error *err)
{
	struct outcomes *o = ctx;

	(void)path;
	(void)runs;
	(void)reference_only;
	(void)warnings;
	if (status == PL_IMPORT_STORED)
		o->stored++;
	else if (status == PL_IMPORT_DUPLICATE)
		o->duplicate++;
	else
		o->rejected++;
	if (err) {
		snprintf(o->last_error, sizeof(o->last_error), "%s", err->message);
		o->last_line = err->line;
	}
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static struct outcomes import_ok(struct pl_store *st, const char *dir,
                                 const struct pl_import_opts *opts, int want_rc)
{
	const char *paths[1] = {dir};
	struct outcomes o;
	struct pl_error err;

	memset(&o, 0, sizeof(o));
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 1, opts, on_file, &o, NULL, &err), want_rc);
	return o;
}

/* A directory of 40 files re-imported: every file a duplicate; one whose
 * sidecar changed is refused naming the field, as without the shortcut. */
static void test_reimport_many(void **state)
{
	char path[1024], dir[1100], file[1200];
	struct pl_store *st;
	struct outcomes o;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "reimport-many"));
	snprintf(dir, sizeof(dir), "%s/import-perf-many", PL_TEST_TMP);
	mkdir(dir, 0777);
	for (int i = 0; i < 40; i++) {
		char text[512];
		snprintf(file, sizeof(file), "%s/r%02d.json", dir, i);
		snprintf(text, sizeof(text),
		         "{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\", "
		         "\"hardware\": \"1x A100\", \"concurrency\": %d, "
		         "\"run_started_at\": \"2026-03-%02dT10:00:00Z\", "
		         "\"metric\": {\"ttft_p50\": 0.%03d}}\n",
		         1 + i % 4, 1 + i % 28, 100 + i);
		write_file(file, text);
	}
	snprintf(file, sizeof(file), "%s/r07.conditions.json", dir);
	write_file(file, "{\"dataset\": \"sharegpt\"}\n");
	o = import_ok(st, dir, NULL, 0);
	assert_int_equal(o.stored, 40);
	o = import_ok(st, dir, NULL, 0);
	assert_int_equal(o.stored, 0);
	assert_int_equal(o.duplicate, 40);
	assert_int_equal(o.rejected, 0);
	write_file(file, "{\"dataset\": \"lmsys\"}\n");
	o = import_ok(st, dir, NULL, PL_EINVALID);
	assert_int_equal(o.duplicate, 39);
	assert_int_equal(o.rejected, 1);
	assert_string_equal(o.last_error,
	                    "these bytes are stored already (run 8) with other conditions: dataset "
	                    "stored 'sharegpt', now 'lmsys'; a stored run is never rewritten");
	pl_store_close(st);
}

/* A start time stored with an offset (as perfledger did before it wrote
 * UTC) differs from the key's text but not in value: the full comparison
 * decides, and the file is a duplicate. */
static void test_reimport_legacy_time(void **state)
{
	char path[1024], dir[1100], file[1200];
	struct pl_store *st;
	struct outcomes o;
	sqlite3 *db;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "legacy-time"));
	snprintf(dir, sizeof(dir), "%s/import-perf-legacy", PL_TEST_TMP);
	mkdir(dir, 0777);
	snprintf(file, sizeof(file), "%s/t.json", dir);
	write_file(file, "{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\", "
	                 "\"hardware\": \"1x A100\", \"run_started_at\": \"2026-03-01T08:00:00Z\", "
	                 "\"metric\": {\"ttft_p50\": 0.25}}\n");
	o = import_ok(st, dir, NULL, 0);
	assert_int_equal(o.stored, 1);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
	                              "UPDATE runs SET run_started_at = '2026-03-01T10:00:00+02:00'",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	o = import_ok(st, dir, NULL, 0);
	assert_int_equal(o.duplicate, 1);
	assert_int_equal(o.rejected, 0);
	/* another time is still refused, naming both values */
	write_file(file, "{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\", "
	                 "\"hardware\": \"1x A100\", \"run_started_at\": \"2026-03-01T08:00:00Z\", "
	                 "\"metric\": {\"ttft_p50\": 0.25}}\n");
	{
		static const struct pl_kv set[] = {{"run_started_at", "2026-03-01T09:00:00Z"}};
		struct pl_import_opts opts;
		memset(&opts, 0, sizeof(opts));
		opts.set = set;
		opts.nset = 1;
		o = import_ok(st, dir, &opts, PL_EINVALID);
	}
	assert_int_equal(o.rejected, 1);
	assert_string_equal(o.last_error,
	                    "these bytes are stored already (run 1) with other conditions: "
	                    "run_started_at stored '2026-03-01T10:00:00+02:00', now "
	                    "'2026-03-01T09:00:00Z'; a stored run is never rewritten");
	pl_store_close(st);
}

/* The lines of the records of a file read whole (a JSONL under
 * PL_IMPORT_STREAM_MIN, a sequence of JSON values) are counted in one pass:
 * they were counted from the start of the file for every record, which
 * took 10 s for 10,000 lines on standard input (0.4 s now; bench/run.sh
 * times it). The line an error names must stay exact: blank lines, lines
 * of white space, a value spread over lines. */
static void test_record_lines(void **state)
{
	static const char good[] =
		"{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\", "
		"\"hardware\": \"1x A100\", \"metric\": {\"ttft_p50\": 0.25}}\n";
	static const char bad[] =
		"{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\", "
		"\"hardware\": \"1x A100\", \"metric\": {\"ttft_p50\": \"x\"}}\n";
	char path[1024], dir[1100], file[1200];
	struct pl_store *st;
	struct outcomes o;
	long line = 0;
	FILE *f;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "record-lines"));
	for (int kind = 0; kind < 2; kind++) {
		snprintf(dir, sizeof(dir), "%s/import-perf-lines-%d", PL_TEST_TMP, kind);
		mkdir(dir, 0777);
		snprintf(file, sizeof(file), "%s/runs.%s", dir, kind ? "json" : "jsonl");
		assert_non_null(f = fopen(file, "w"));
		line = 0;
		for (int i = 0; i < 1500; i++) {
			fputs(good, f);
			line++;
			if (i % 7 == 0) {
				fputs(i % 2 ? "\n" : "  \t \n", f);
				line++;
			}
		}
		if (kind) { /* a sequence of JSON values: one may span lines */
			fputs("{\"model\": \"m\",\n \"precision\": \"bf16\", \"engine\": \"vllm\",\n"
			      " \"hardware\": \"1x A100\", \"metric\": {\"ttft_p50\": 0.5}}\n", f);
			line += 3;
		}
		fputs(bad, f);
		line++;
		fputs(good, f);
		assert_int_equal(fclose(f), 0);
		o = import_ok(st, dir, NULL, PL_EINVALID);
		assert_int_equal(o.rejected, 1);
		assert_string_equal(o.last_error, "metric 'ttft_p50' must be a JSON number, got the "
		                                  "string \"x\"");
		assert_int_equal(o.last_line, line);
		assert_int_equal(line, kind ? 1719 : 1716);
	}
	pl_store_close(st);
}

/* A file with a rejected record (issue 13, item 4) is a duplicate when
 * imported again: its good records are compared, the rejected one, never
 * stored, is not; other conditions are still refused. */
static void test_reimport_partial(void **state)
{
	char path[1024], dir[1100], file[1200];
	static const struct pl_kv set[] = {{"dataset", "x"}};
	struct pl_import_opts opts;
	struct pl_store *st;
	struct outcomes o;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "reimport-partial"));
	snprintf(dir, sizeof(dir), "%s/import-perf-partial", PL_TEST_TMP);
	mkdir(dir, 0777);
	snprintf(file, sizeof(file), "%s/p.jsonl", dir);
	write_file(file,
	           "{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\", "
	           "\"hardware\": \"1x A100\", \"metric\": {\"ttft_p50\": 0.1}}\n"
	           "{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\", "
	           "\"hardware\": \"1x A100\", \"metric\": {\"ttft_p50\": \"x\"}}\n"
	           "{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\", "
	           "\"hardware\": \"1x A100\", \"concurrency\": 4, \"metric\": {\"ttft_p50\": 0.3}}\n");
	o = import_ok(st, dir, NULL, PL_EINVALID);
	assert_int_equal(o.stored, 1);
	assert_int_equal(o.rejected, 1);
	assert_int_equal(o.last_line, 2);
	o = import_ok(st, dir, NULL, PL_EINVALID);
	assert_int_equal(o.stored, 0);
	assert_int_equal(o.duplicate, 1);
	assert_int_equal(o.rejected, 1);
	assert_int_equal(o.last_line, 2);
	memset(&opts, 0, sizeof(opts));
	opts.set = set;
	opts.nset = 1;
	o = import_ok(st, dir, &opts, PL_EINVALID);
	assert_int_equal(o.duplicate, 0);
	assert_int_equal(o.rejected, 2);
	assert_string_equal(o.last_error,
	                    "these bytes are stored already (run 1) with other conditions: dataset "
	                    "stored '(missing)', now 'x'; a stored run is never rewritten");
	pl_store_close(st);
}

/* Imports the file at path as standard input ("-") into st: stats out. */
static void import_as_stdin(struct pl_store *st, const char *path, struct pl_import_stats *stats)
{
	const char *paths[] = {"-"};
	struct pl_import_opts opts = {0};
	struct pl_error err;
	int fd = open(path, O_RDONLY), saved = dup(STDIN_FILENO);

	assert_true(fd >= 0 && saved >= 0);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	pl_error_init(&err);
	if (pl_import_paths(st, paths, 1, &opts, NULL, NULL, stats, &err) != 0)
		fail_msg("pl_import_paths: %s", err.message);
	dup2(saved, STDIN_FILENO);
	close(saved);
}

/* Kept chunks of the one source file in the database at db. */
static long chunks_kept(const char *db)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *q = NULL;
	long n = -1;

	assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, "SELECT count(*), count(DISTINCT sha256) FROM source_chunks",
	                                    -1, &q, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(q, 1), 1);
	n = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	sqlite3_close(h);
	return n;
}

/* JSONL piped on standard input beyond the 1 MiB read into memory is
 * streamed line by line, as a large *.jsonl file is (kept in 1 MiB chunks,
 * memory bounded), not read whole: 100,000 lines (51 MB) read whole took
 * 602 MB. Input with one object on its first line and nothing but blanks
 * after it is no JSONL and is still read whole (one chunk). */
static void test_stdin_jsonl_streamed(void **state)
{
	char db[1200], path[1200];
	struct pl_import_stats stats;
	struct pl_store *st;
	struct stat sb;
	const long lines = 20000;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/import-perf-stdin.jsonl", PL_TEST_TMP);
	assert_non_null(f = fopen(path, "wb"));
	for (long i = 0; i < lines; i++)
		fprintf(f, "{\"model\": \"m\", \"engine\": \"sglang\", \"precision\": \"fp8\", "
		           "\"hardware\": \"1x H100\", \"concurrency\": %ld, "
		           "\"metric\": {\"ttft_p50\": 0.3}}\n", i + 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(stat(path, &sb), 0);
	assert_true((size_t)sb.st_size > 2 * PL_SOURCE_CHUNK);
	st = open_ok(db_path(db, sizeof(db), "stdin-jsonl"));
	import_as_stdin(st, path, &stats);
	pl_store_close(st);
	assert_int_equal(stats.runs, lines);
	assert_int_equal(stats.rejected, 0);
	assert_int_equal(chunks_kept(db), ((size_t)sb.st_size + PL_SOURCE_CHUNK - 1) / PL_SOURCE_CHUNK);

	/* one object, then only blank lines: not JSONL's shape, read whole */
	assert_non_null(f = fopen(path, "wb"));
	fputs("{\"model\": \"m\", \"engine\": \"sglang\", \"precision\": \"fp8\", "
	      "\"hardware\": \"1x H100\", \"metric\": {\"ttft_p50\": 0.3}}\n", f);
	for (size_t i = 0; i <= PL_SOURCE_CHUNK; i += 64)
		fputs("                                                               \n", f);
	assert_int_equal(fclose(f), 0);
	st = open_ok(db_path(db, sizeof(db), "stdin-one"));
	import_as_stdin(st, path, &stats);
	pl_store_close(st);
	assert_int_equal(stats.runs, 1);
	assert_int_equal(chunks_kept(db), 1);
	remove(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_keys),
		cmocka_unit_test(test_reimport_many),
		cmocka_unit_test(test_reimport_legacy_time),
		cmocka_unit_test(test_record_lines),
		cmocka_unit_test(test_reimport_partial),
		cmocka_unit_test(test_stdin_jsonl_streamed),
	};

	pl_adapters_init(); /* cJSON's allocator hooks, as main() does */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
