/*
 * test_ledger_amend.c — issue 13 items 2 and 3: amend, retract, restore and
 * purge. The amend step of core/amend.h (checks, changes listed exactly,
 * validation), the store's writes and reads of revisions and retractions
 * (exact rows, the conditions row shared after an amend, retracted runs
 * hidden from both query paths, purge counts, accept refused, the ledger
 * generation), and the CLI amend killed with SIGKILL at random moments:
 * integrity_check ok, all runs amended or none, and the command run again
 * finishes the job.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/amend.h"
#include "core/model.h"
#include "store/db.h"

/* A fresh database path under PL_TEST_TMP (old files removed). */
static const char *db_path(char *buf, size_t n, const char *name)
{
	static const char *const sfx[] = {"", "-wal", "-shm", "-journal"};
	char f[1200];

	mkdir(PL_TEST_TMP, 0777);
	snprintf(buf, n, "%s/ledger-%s.db", PL_TEST_TMP, name);
	for (size_t i = 0; i < 4; i++) {
		snprintf(f, sizeof(f), "%s%s", buf, sfx[i]);
		remove(f);
	}
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
	assert_int_equal(pl_run_set_cond(run, id, v, &err), 0);
}

/* A valid run: seed makes its sha256, hw its hardware. */
static void make_run(struct pl_run *run, int seed, const char *hw)
{
	pl_run_init(run);
	set_cond(run, PL_C_MODEL, "/models/gemma-snapshot");
	set_cond(run, PL_C_PRECISION, "bfloat16");
	set_cond(run, PL_C_ENGINE, "vllm");
	set_cond(run, PL_C_ENGINE_VERSION, "0.6.3");
	set_cond(run, PL_C_HARDWARE, hw);
	set_cond(run, PL_C_ACCELERATOR_COUNT, "2");
	set_cond(run, PL_C_CONCURRENCY, "8");
	pl_run_set_metric(run, PL_M_TTFT_P50, 0.32);
	pl_run_set_metric(run, PL_M_TPS_P50, 45.2);
	snprintf(run->sha256, sizeof(run->sha256), "%064x", seed);
	assert_int_equal(pl_strset(&run->source, "samples/run.json"), 0);
	assert_int_equal(pl_strset(&run->adapter, "descriptor"), 0);
	pl_run_update_checklist(run);
}

static long long insert(struct pl_store *st, int seed, const char *hw)
{
	struct pl_run run;
	struct pl_error err;
	int inserted = 0;
	long long id;

	make_run(&run, seed, hw);
	pl_error_init(&err);
	if (pl_store_insert_run(st, &run, &inserted, &err))
		fail_msg("insert: %s", err.message);
	assert_int_equal(inserted, 1);
	id = run.id;
	pl_run_release(&run);
	return id;
}

/* First column of the first row of sql on the file at path. */
static long long raw_int(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	long long v = -1;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

/* Text of the first column of the first row (static buffer). */
static const char *raw_text(const char *path, const char *sql)
{
	static char buf[512];
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;

	buf[0] = '\0';
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		snprintf(buf, sizeof(buf), "%s", (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	sqlite3_close(db);
	return buf;
}

/* ----------------------------------------------------------- the amend step */

static void test_check_sets(void **state)
{
	struct pl_error err;
	const struct pl_amend_set metric[] = {{"ttft_p50", "1"}};
	const struct pl_amend_set unknown[] = {{"modle", "x"}};
	const struct pl_amend_set twice[] = {{"model", "a"}, {"model", "b"}};
	const struct pl_amend_set badnum[] = {{"concurrency", "eight"}};
	const struct pl_amend_set ok[] = {{"model", "a"}, {"quantization", ""}, {"vllm-serving.x", "1"}};

	(void)state;
	pl_error_init(&err);
	assert_int_equal(pl_ledger_check_sets(metric, 1, &err), PL_EUSAGE);
	assert_string_equal(err.message, "'ttft_p50' is a metric: amend corrects conditions only "
	                                 "(a measurement is never rewritten)");
	assert_string_equal(err.field, "ttft_p50");
	pl_error_init(&err);
	assert_int_equal(pl_ledger_check_sets(unknown, 1, &err), PL_EUSAGE);
	assert_string_equal(err.message, "unknown condition 'modle' in --set (the names are in "
	                                 "schema/descriptor.md; an extra condition is FORMAT.key; "
	                                 "build identity: commit, branch, build_id, ci_run_url)");
	pl_error_init(&err);
	assert_int_equal(pl_ledger_check_sets(twice, 2, &err), PL_EUSAGE);
	assert_string_equal(err.message, "--set model is given twice");
	pl_error_init(&err);
	assert_int_equal(pl_ledger_check_sets(badnum, 1, &err), PL_EUSAGE);
	assert_string_equal(err.message, "--set concurrency=eight: 'concurrency' must be a "
	                                 "non-negative whole number or inf, got 'eight'");
	pl_error_init(&err);
	assert_int_equal(pl_ledger_check_sets(ok, 3, &err), 0);
	assert_int_equal(pl_ledger_check_sets(ok, 0, &err), PL_EUSAGE);
	assert_string_equal(err.message, "amend needs at least one --set FIELD=VALUE");
}

static void test_amend_run_changes(void **state)
{
	struct pl_run run;
	struct pl_amend_result res;
	struct pl_error err;
	const struct pl_amend_set sets[] = {{"model", "gemma-4-31b"},
	                                    {"precision", "BF16"},     /* normalizes to the same */
	                                    {"quantization", "awq"},
	                                    {"vllm-serving.best_of", "2"}};
	const struct pl_amend_set again[] = {{"model", "/models/gemma-snapshot"}};
	const struct pl_amend_set drop[] = {{"model", ""}};
	const struct pl_amend_set count[] = {{"accelerator_count", "4"}};

	(void)state;
	make_run(&run, 1, "2x NVIDIA A100 80G");
	run.id = 7;
	pl_error_init(&err);
	assert_int_equal(pl_ledger_amend_run(&run, sets, 4, &res, &err), 0);
	assert_int_equal(res.nchanges, 3);
	assert_string_equal(res.changes[0].field, "model");
	assert_string_equal(res.changes[0].old_value, "/models/gemma-snapshot");
	assert_string_equal(res.changes[0].new_value, "gemma-4-31b");
	assert_string_equal(res.changes[1].field, "quantization");
	assert_null(res.changes[1].old_value);
	assert_string_equal(res.changes[1].new_value, "awq");
	assert_string_equal(res.changes[2].field, "vllm-serving.best_of");
	assert_null(res.changes[2].old_value);
	assert_string_equal(res.changes[2].new_value, "2");
	assert_string_equal(res.run.cond[PL_C_PRECISION].text, "bfloat16");
	/* the metrics are the stored ones, never touched */
	assert_true(res.run.has_metric[PL_M_TTFT_P50] && res.run.metric[PL_M_TTFT_P50] == 0.32);
	assert_int_equal(res.run.id, 7);
	pl_ledger_amend_release(&res);

	/* values it has already: nothing to change */
	assert_int_equal(pl_ledger_amend_run(&run, again, 1, &res, &err), 0);
	assert_int_equal(res.nchanges, 0);
	pl_ledger_amend_release(&res);

	/* a required condition cannot be removed; a count must agree with the hardware */
	assert_int_equal(pl_ledger_amend_run(&run, drop, 1, &res, &err), PL_EINVALID);
	assert_string_equal(err.field, "model");
	pl_error_init(&err);
	assert_int_equal(pl_ledger_amend_run(&run, count, 1, &res, &err), PL_EINVALID);
	assert_string_equal(err.message,
	                    "accelerator_count 4 disagrees with hardware '2x NVIDIA A100 80G' (2)");
	pl_run_release(&run);
}

/* ------------------------------------------------------------------ store */

/* Amends run id with sets in a transaction of its own. */
static int amend(struct pl_store *st, long long id, const struct pl_amend_set *sets, size_t n,
                 const char *reason, int *revision, long long *shared, long long *first)
{
	struct pl_run run;
	struct pl_amend_result res;
	struct pl_error err;
	int found = 0, rc;

	pl_run_init(&run);
	pl_error_init(&err);
	assert_int_equal(pl_store_get_run(st, id, &run, &found, &err), 0);
	assert_int_equal(found, 1);
	assert_int_equal(pl_ledger_amend_run(&run, sets, n, &res, &err), 0);
	pl_run_release(&run);
	res.run.id = id;
	assert_int_equal(pl_store_begin(st, &err), 0);
	rc = pl_store_amend(st, &res.run, res.changes, res.nchanges, 1767225600, reason, "alice",
	                    revision, shared, first, &err);
	if (rc)
		pl_store_rollback(st, NULL);
	else
		assert_int_equal(pl_store_commit(st, &err), 0);
	pl_ledger_amend_release(&res);
	return rc;
}

static void test_store_amend(void **state)
{
	char path[1024];
	struct pl_store *st;
	struct pl_revision_list revs = {0};
	struct pl_run_list list;
	struct pl_run run;
	struct pl_error err;
	const struct pl_amend_set fix[] = {{"model", "gemma-4-31b"}};
	const struct pl_amend_set dsv[] = {{"dataset", "sharegpt"}, {"model", "gemma-4-31b"}};
	struct pl_filter f = {PL_C_MODEL, "gemma-4-31b", NULL};
	long long a, b, c, shared = -1, first = -1, gen = -1;
	int revision = 0, found = 0;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "amend"));
	a = insert(st, 1, "2x NVIDIA A100 80G");
	b = insert(st, 2, "2x NVIDIA A100 80G");
	c = insert(st, 3, "2x NVIDIA A100 80G");
	assert_int_equal(raw_int(path, "SELECT count(*) FROM conditions"), 1);

	assert_int_equal(amend(st, a, fix, 1, "the snapshot path is gemma-4-31b", &revision, &shared,
	                       &first), 0);
	assert_int_equal(revision, 2);
	assert_int_equal(shared, 0); /* a new conditions row, nobody else's */
	/* the second run amended the same way joins the first one's row */
	assert_int_equal(amend(st, b, fix, 1, "same", &revision, &shared, &first), 0);
	assert_int_equal(revision, 2);
	assert_int_equal(shared, 1);
	assert_int_equal(first, a);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM conditions"), 2); /* the old row stays */
	assert_int_equal(raw_int(path, "SELECT count(DISTINCT condition_id) FROM runs"), 2);
	/* a second amend of a: revision 3, only the field that changed */
	assert_int_equal(amend(st, a, dsv, 2, "the dataset was sharegpt", &revision, &shared, &first),
	                 0);
	assert_int_equal(revision, 3);

	pl_error_init(&err);
	assert_int_equal(pl_store_revisions(st, a, &revs, &err), 0);
	assert_int_equal(revs.n, 2);
	assert_int_equal(revs.v[0].run_id, a);
	assert_int_equal(revs.v[0].revision, 2);
	assert_string_equal(revs.v[0].field, "model");
	assert_string_equal(revs.v[0].old_value, "/models/gemma-snapshot");
	assert_string_equal(revs.v[0].new_value, "gemma-4-31b");
	assert_string_equal(revs.v[0].changed_at, "2026-01-01T00:00:00Z");
	assert_string_equal(revs.v[0].reason, "the snapshot path is gemma-4-31b");
	assert_string_equal(revs.v[0].author, "alice");
	assert_int_equal(revs.v[1].revision, 3);
	assert_string_equal(revs.v[1].field, "dataset");
	assert_null(revs.v[1].old_value);
	assert_string_equal(revs.v[1].new_value, "sharegpt");
	pl_revision_list_release(&revs);
	assert_int_equal(pl_store_revisions(st, 0, &revs, &err), 0);
	assert_int_equal(revs.n, 3);
	pl_revision_list_release(&revs);

	/* reads see the current revision */
	pl_run_init(&run);
	assert_int_equal(pl_store_get_run(st, a, &run, &found, &err), 0);
	assert_int_equal(run.revision, 3);
	assert_string_equal(run.cond[PL_C_DATASET].text, "sharegpt");
	pl_run_release(&run);
	pl_run_list_init(&list);
	assert_int_equal(pl_store_query(st, &f, 1, &list, &err), 0);
	assert_int_equal(list.n, 2);
	assert_int_equal(list.v[0].id, a);
	assert_int_equal(list.v[0].revision, 3);
	assert_int_equal(list.v[1].id, b);
	assert_int_equal(list.v[1].revision, 2);
	pl_run_list_release(&list);
	assert_int_equal(pl_store_query(st, NULL, 0, &list, &err), 0);
	assert_int_equal(list.n, 3);
	assert_int_equal(list.v[2].id, c);
	assert_int_equal(list.v[2].revision, 1);
	pl_run_list_release(&list);
	assert_int_equal(pl_store_generation(st, &gen, &err), 0);
	assert_int_equal(gen, 3);

	/* outside a transaction, or with no such run, nothing is written */
	pl_run_init(&run);
	assert_int_equal(pl_store_get_run(st, c, &run, &found, &err), 0);
	assert_int_equal(pl_store_amend(st, &run, NULL, 0, 0, "r", "a", &revision, &shared, &first,
	                                &err), PL_EDB);
	run.id = 999;
	assert_int_equal(pl_store_begin(st, &err), 0);
	{
		struct pl_amend_change ch = {"model", "x", "y"};
		assert_int_equal(pl_store_amend(st, &run, &ch, 1, 0, "r", "a", &revision, &shared,
		                                &first, &err), PL_EEMPTY);
		assert_string_equal(err.message, "no run with id 999");
	}
	pl_store_rollback(st, NULL);
	pl_run_release(&run);
	pl_store_close(st);
	assert_string_equal(raw_text(path, "PRAGMA integrity_check"), "ok");
	assert_int_equal(raw_int(path, "SELECT count(*) FROM revisions"), 3);
}

/* The ids of the columns query (every metric wanted). */
/* Finding 16: build identity (commit, branch, build_id, ci_run_url) is
 * correctable as import --set sets it: checked, stored on the run, each
 * change in the trail; before, "unknown condition 'commit'". */
static void test_amend_build_identity(void **state)
{
	char path[1024];
	struct pl_store *st;
	struct pl_revision_list revs = {0};
	struct pl_run run;
	struct pl_error err;
	const struct pl_amend_set build[] = {{"commit", "deadbeef"},
	                                     {"ci_run_url", "https://ci.example/run/7"}};
	const struct pl_amend_set drop[] = {{"commit", ""}, {"branch", "main"}};
	const struct pl_amend_set badurl[] = {{"ci_run_url", "ftp://x"}};
	long long a, shared = -1, first = -1;
	int revision = 0, found = 0;

	(void)state;
	pl_error_init(&err);
	assert_int_equal(pl_ledger_check_sets(build, 2, &err), 0);
	assert_int_equal(pl_ledger_check_sets(badurl, 1, &err), PL_EUSAGE);
	assert_string_equal(err.message, "--set ci_run_url=ftp://x: ci_run_url: expected an http:// "
	                                 "or https:// URL, got 'ftp://x'");
	st = open_ok(db_path(path, sizeof(path), "amend_build"));
	a = insert(st, 1, "2x NVIDIA A100 80G");
	assert_int_equal(amend(st, a, build, 2, "the CI gave the wrong sha", &revision, &shared,
	                       &first), 0);
	assert_int_equal(revision, 2);
	assert_string_equal(raw_text(path, "SELECT build_commit || ' ' || ci_run_url FROM runs"),
	                    "deadbeef https://ci.example/run/7");
	assert_int_equal(amend(st, a, drop, 2, "no commit", &revision, &shared, &first), 0);
	assert_int_equal(revision, 3);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM runs WHERE build_commit IS NULL AND "
	                               "build_branch = 'main'"),
	                 1);
	/* the conditions did not change: the run keeps its conditions row */
	assert_int_equal(raw_int(path, "SELECT count(*) FROM conditions"), 1);
	assert_int_equal(pl_store_revisions(st, a, &revs, &err), 0);
	assert_int_equal(revs.n, 4);
	assert_int_equal(revs.v[0].revision, 2);
	assert_string_equal(revs.v[0].field, "ci_run_url");
	assert_null(revs.v[0].old_value);
	assert_string_equal(revs.v[0].new_value, "https://ci.example/run/7");
	assert_string_equal(revs.v[1].field, "commit");
	assert_string_equal(revs.v[1].new_value, "deadbeef");
	assert_int_equal(revs.v[2].revision, 3);
	assert_string_equal(revs.v[2].field, "branch");
	assert_string_equal(revs.v[2].new_value, "main");
	assert_string_equal(revs.v[3].field, "commit");
	assert_string_equal(revs.v[3].old_value, "deadbeef");
	assert_null(revs.v[3].new_value);
	pl_revision_list_release(&revs);
	pl_run_init(&run);
	assert_int_equal(pl_store_get_run(st, a, &run, &found, &err), 0);
	assert_null(run.build[PL_B_COMMIT]);
	assert_string_equal(run.build[PL_B_BRANCH], "main");
	assert_string_equal(run.build[PL_B_CI_RUN_URL], "https://ci.example/run/7");
	pl_run_release(&run);
	pl_store_close(st);
}

static size_t columns_ids(struct pl_store *st, long long *ids, size_t max)
{
	unsigned char want[PL_METRIC_COUNT];
	struct pl_run_columns cols;
	struct pl_error err;
	size_t n;

	memset(want, 1, sizeof(want));
	pl_error_init(&err);
	assert_int_equal(pl_store_query_columns(st, NULL, 0, want, &cols, &err), 0);
	n = cols.n;
	for (size_t i = 0; i < n && i < max; i++)
		ids[i] = cols.id[i];
	pl_run_columns_release(&cols);
	return n;
}

static void test_store_retract_restore_purge(void **state)
{
	char path[1024];
	struct pl_store *st;
	struct pl_retraction_list rets = {0};
	struct pl_run_list list;
	struct pl_purge_counts counts = {0, 0, 0};
	struct pl_error err;
	const struct pl_amend_set fix[] = {{"model", "gemma-4-31b"}};
	long long a, b, ids[8], shared, first, gen = 0;
	int changed = -1, revision;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "retract"));
	a = insert(st, 1, "2x NVIDIA A100 80G");
	b = insert(st, 2, "2x NVIDIA H100 80G");
	pl_error_init(&err);
	assert_int_equal(pl_store_accept_step(st, a, PL_M_TTFT_P50, "expected", "ci", NULL, &err), 0);
	assert_int_equal(amend(st, a, fix, 1, "label", &revision, &shared, &first), 0);

	assert_int_equal(pl_store_begin(st, &err), 0);
	assert_int_equal(pl_store_retract(st, a, 1767225600, "bad node", "bob", &changed, &err), 0);
	assert_int_equal(changed, 1);
	assert_int_equal(pl_store_retract(st, a, 1767225600, "again", "bob", &changed, &err), 0);
	assert_int_equal(changed, 0);
	assert_int_equal(pl_store_retract(st, 77, 1767225600, "x", "bob", &changed, &err), PL_EEMPTY);
	assert_int_equal(pl_store_retract(st, b, 1767225600, "", "bob", &changed, &err), PL_EUSAGE);
	assert_int_equal(pl_store_commit(st, &err), 0);

	/* hidden from both query paths; ONLY and ALL modes */
	pl_run_list_init(&list);
	assert_int_equal(pl_store_query(st, NULL, 0, &list, &err), 0);
	assert_int_equal(list.n, 1);
	assert_int_equal(list.v[0].id, b);
	pl_run_list_release(&list);
	assert_int_equal(columns_ids(st, ids, 8), 1);
	assert_int_equal(ids[0], b);
	pl_store_set_retracted_mode(st, PL_RETRACTED_ONLY);
	assert_int_equal(pl_store_query(st, NULL, 0, &list, &err), 0);
	assert_int_equal(list.n, 1);
	assert_int_equal(list.v[0].id, a);
	assert_int_equal(list.v[0].retracted, 1);
	assert_int_equal(list.v[0].revision, 2);
	pl_run_list_release(&list);
	assert_int_equal(columns_ids(st, ids, 8), 1);
	assert_int_equal(ids[0], a);
	pl_store_set_retracted_mode(st, PL_RETRACTED_ALL);
	assert_int_equal(columns_ids(st, ids, 8), 2);
	pl_store_set_retracted_mode(st, PL_RETRACTED_HIDE);

	/* a retracted run cannot be accepted */
	assert_int_equal(pl_store_accept_step(st, a, PL_M_TPOT_P50, "x", "ci", NULL, &err), PL_EEMPTY);
	assert_string_equal(err.message,
	                    "run 1 is retracted (perfledger restore --run 1 --reason TEXT puts it back)");

	/* restore, retract again: two rows, the first one closed */
	assert_int_equal(pl_store_begin(st, &err), 0);
	assert_int_equal(pl_store_restore(st, a, 1767225660, "node was fine", "carol", &changed, &err),
	                 0);
	assert_int_equal(changed, 1);
	assert_int_equal(pl_store_restore(st, b, 1767225660, "x", "carol", &changed, &err), 0);
	assert_int_equal(changed, 0);
	assert_int_equal(pl_store_retract(st, a, 1767225720, "really bad", "bob", &changed, &err), 0);
	assert_int_equal(pl_store_commit(st, &err), 0);
	assert_int_equal(pl_store_retractions(st, a, &rets, &err), 0);
	assert_int_equal(rets.n, 2);
	assert_string_equal(rets.v[0].retracted_at, "2026-01-01T00:00:00Z");
	assert_string_equal(rets.v[0].reason, "bad node");
	assert_string_equal(rets.v[0].author, "bob");
	assert_string_equal(rets.v[0].restored_at, "2026-01-01T00:01:00Z");
	assert_string_equal(rets.v[0].restore_reason, "node was fine");
	assert_string_equal(rets.v[0].restored_by, "carol");
	assert_string_equal(rets.v[1].retracted_at, "2026-01-01T00:02:00Z");
	assert_null(rets.v[1].restored_at);
	assert_null(rets.v[1].restore_reason);
	assert_null(rets.v[1].restored_by);
	pl_retraction_list_release(&rets);

	/* purge: only a retracted run, with its rows */
	assert_int_equal(pl_store_begin(st, &err), 0);
	assert_int_equal(pl_store_purge(st, b, &counts, &err), PL_EUSAGE);
	assert_string_equal(err.message, "run 2 is not retracted: only a retracted run is purged "
	                                 "(perfledger retract --run 2 --reason TEXT first)");
	assert_int_equal(pl_store_purge(st, a, &counts, &err), 0);
	assert_int_equal(counts.revisions, 1);
	assert_int_equal(counts.retractions, 2);
	assert_int_equal(counts.accepted, 1);
	assert_int_equal(pl_store_commit(st, &err), 0);
	assert_int_equal(pl_store_generation(st, &gen, &err), 0);
	assert_int_equal(gen, 5); /* amend, retract, restore, retract, purge */
	pl_store_close(st);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM runs"), 1);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM revisions"), 0);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM retractions"), 0);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM accepted_steps"), 0);
	assert_string_equal(raw_text(path, "PRAGMA integrity_check"), "ok");
	assert_int_equal(raw_int(path, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
}

/* The columns query reads a span of 200,000 run ids or more on several
 * connections. A change of the store's own open transaction (or one
 * committed between the snapshots) is seen by one connection and not the
 * others: the ledger generation differs, and the query reads again on one
 * connection, so a run retracted in the transaction is not returned. */
static void test_columns_torn_snapshot(void **state)
{
	char path[1024];
	struct pl_store *st;
	struct pl_error err;
	sqlite3 *db = NULL;
	long long ids[8];
	int changed = 0;

	(void)state;
	st = open_ok(db_path(path, sizeof(path), "torn"));
	insert(st, 1, "2x NVIDIA A100 80G");
	insert(st, 2, "2x NVIDIA A100 80G");
	pl_store_close(st);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "UPDATE runs SET id = 300000 WHERE id = 2", NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	st = open_ok(path);
	assert_int_equal(columns_ids(st, ids, 8), 2);
	assert_int_equal(ids[1], 300000);
	pl_error_init(&err);
	assert_int_equal(pl_store_begin(st, &err), 0);
	assert_int_equal(pl_store_retract(st, 300000, 1767225600, "torn", "t", &changed, &err), 0);
	assert_int_equal(columns_ids(st, ids, 8), 1); /* the upper half is read again here */
	assert_int_equal(ids[0], 1);
	assert_int_equal(pl_store_rollback(st, &err), 0);
	assert_int_equal(columns_ids(st, ids, 8), 2);
	pl_store_close(st);
}

/* ----------------------------------------------- the CLI killed mid-amend */

/* Runs the CLI with argv (NULL-ended) and SOURCE_DATE_EPOCH set; returns
 * the exit status, or -1 when it was killed after delay seconds (delay <
 * 0: never). */
static int run_cli(const char *const *argv, double delay)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		setenv("SOURCE_DATE_EPOCH", "1767225600", 1);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (delay >= 0) {
		struct timespec ts = {(time_t)delay, (long)((delay - (long)delay) * 1e9)};
		nanosleep(&ts, NULL);
		kill(pid, SIGKILL);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status))
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -2;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_amend_killed(void **state)
{
	char path[1024], jsonl[1200], q[256];
	const long nruns = 800;
	FILE *f;
	double full;
	unsigned seed = 20261130;

	(void)state;
	db_path(path, sizeof(path), "killed");
	snprintf(jsonl, sizeof(jsonl), "%s/ledger-killed.jsonl", PL_TEST_TMP);
	f = fopen(jsonl, "w");
	assert_non_null(f);
	for (long i = 0; i < nruns; i++)
		fprintf(f, "{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\", "
		           "\"hardware\": \"1x H100\", \"concurrency\": %ld, \"metric\": "
		           "{\"ttft_p50\": 0.1}}\n", i % 40 + 1);
	assert_int_equal(fclose(f), 0);
	{
		const char *argv[] = {PL_BIN, "--db", path, "import", jsonl, NULL};
		assert_int_equal(run_cli(argv, -1), 0);
	}
	{
		/* how long an uninterrupted amend takes, to spread the kills over it */
		const char *argv[] = {PL_BIN, "--db", path, "amend", "--where", "model=m", "--set",
		                      "dataset=d0", "--reason", "timing", "--by", "t", NULL};
		double t0 = now_s();
		assert_int_equal(run_cli(argv, -1), 0);
		full = now_s() - t0;
	}
	for (int k = 1; k <= 6; k++) {
		char value[32];
		const char *argv[] = {PL_BIN, "--db", path, "amend", "--where", "model=m", "--set",
		                      value, "--reason", "killed", "--by", "t", NULL};
		double at = full * (rand_r(&seed) % 1000) / 1000.0;
		long long n;
		int rc;

		snprintf(value, sizeof(value), "dataset=d%d", k);
		rc = run_cli(argv, at);
		print_message("amend killed at %.3f s of %.3f: exit %d\n", at, full, rc);
		assert_string_equal(raw_text(path, "PRAGMA integrity_check"), "ok");
		assert_int_equal(raw_int(path, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
		/* all or nothing: every run has the new value and its revision row, or none */
		snprintf(q, sizeof(q),
		         "SELECT count(*) FROM runs JOIN conditions ON conditions.id = condition_id"
		         " WHERE dataset = 'd%d'", k);
		n = raw_int(path, q);
		assert_true(n == 0 || n == nruns);
		snprintf(q, sizeof(q), "SELECT count(*) FROM revisions WHERE new_value = 'd%d'", k);
		assert_int_equal(raw_int(path, q), n);
		snprintf(q, sizeof(q), "SELECT count(*) FROM revisions WHERE revision = %d", k + 2);
		assert_int_equal(raw_int(path, q), n);
		/* run again: it finishes (or says every run has the value already) */
		assert_int_equal(run_cli(argv, -1), 0);
		snprintf(q, sizeof(q),
		         "SELECT count(*) FROM runs JOIN conditions ON conditions.id = condition_id"
		         " WHERE dataset = 'd%d'", k);
		assert_int_equal(raw_int(path, q), nruns);
		snprintf(q, sizeof(q), "SELECT count(*) FROM revisions WHERE revision = %d", k + 2);
		assert_int_equal(raw_int(path, q), nruns);
	}
	assert_int_equal(raw_int(path, "SELECT generation FROM ledger_generation"), 7 * nruns);
}

/* ------------------------------------- per-accelerator metrics re-derived */

/* An amend of accelerator_count re-derives a per-accelerator throughput
 * that was derived from the old count (throughput / old count), derives one
 * that was missing, removes a derived one with the count, and keeps one the
 * file gave (listed as kept); through the CLI the changes are part of the
 * amend's revision (one revision, a revisions row per metric) and the kept
 * value is said. Input of the bug: output_throughput_per_accelerator stayed
 * at 50 (100 / 2) after accelerator_count 2 -> 4. */
static void test_amend_per_accelerator(void **state)
{
	const struct pl_amend_set four[] = {{"hardware", "4x NVIDIA A100 80G"},
	                                    {"accelerator_count", "4"}};
	const struct pl_amend_set none[] = {{"hardware", "a100 box"}, {"accelerator_count", ""}};
	struct pl_run run;
	struct pl_amend_result res;
	struct pl_error err;
	char path[1024];
	struct pl_store *st;
	long long id1, id2;

	(void)state;
	pl_error_init(&err);
	make_run(&run, 1, "2x NVIDIA A100 80G");
	pl_run_set_metric(&run, PL_M_OUTPUT_THROUGHPUT, 100);
	pl_run_set_metric(&run, PL_M_OUTPUT_THROUGHPUT_PER_ACCELERATOR, 50);  /* derived */
	pl_run_set_metric(&run, PL_M_TOTAL_TOKEN_THROUGHPUT, 300);          /* none derived */
	assert_int_equal(pl_ledger_amend_run(&run, four, 2, &res, &err), 0);
	assert_int_equal(res.nchanges, 2);
	assert_int_equal(res.nmetrics, 2);
	assert_int_equal(res.metrics[0].metric, PL_M_OUTPUT_THROUGHPUT_PER_ACCELERATOR);
	assert_true(res.metrics[0].old_value == 50 && res.metrics[0].new_value == 25);
	assert_int_equal(res.metrics[0].kept, 0);
	assert_int_equal(res.metrics[1].metric, PL_M_TOTAL_TOKEN_THROUGHPUT_PER_ACCELERATOR);
	assert_true(isnan(res.metrics[1].old_value) && res.metrics[1].new_value == 75);
	assert_true(res.run.metric[PL_M_OUTPUT_THROUGHPUT_PER_ACCELERATOR] == 25);
	assert_true(res.run.has_metric[PL_M_TOTAL_TOKEN_THROUGHPUT_PER_ACCELERATOR] &&
	            res.run.metric[PL_M_TOTAL_TOKEN_THROUGHPUT_PER_ACCELERATOR] == 75);
	pl_ledger_amend_release(&res);

	/* the count removed: a derived value goes with it */
	assert_int_equal(pl_ledger_amend_run(&run, none, 2, &res, &err), 0);
	assert_int_equal(res.nmetrics, 1);
	assert_true(res.metrics[0].old_value == 50 && isnan(res.metrics[0].new_value));
	assert_int_equal(res.run.has_metric[PL_M_OUTPUT_THROUGHPUT_PER_ACCELERATOR], 0);
	pl_ledger_amend_release(&res);

	/* the file gave 60 (not 100 / 2): kept, said */
	pl_run_set_metric(&run, PL_M_OUTPUT_THROUGHPUT_PER_ACCELERATOR, 60);
	assert_int_equal(pl_ledger_amend_run(&run, four, 2, &res, &err), 0);
	assert_int_equal(res.nmetrics, 2);
	assert_int_equal(res.metrics[0].kept, 1);
	assert_true(res.metrics[0].old_value == 60 && res.metrics[0].new_value == 60);
	assert_true(res.run.metric[PL_M_OUTPUT_THROUGHPUT_PER_ACCELERATOR] == 60);
	assert_int_equal(res.metrics[1].kept, 0);
	pl_ledger_amend_release(&res);

	/* the count unchanged: nothing about metrics */
	{
		const struct pl_amend_set m[] = {{"model", "x"}};
		assert_int_equal(pl_ledger_amend_run(&run, m, 1, &res, &err), 0);
		assert_int_equal(res.nmetrics, 0);
		pl_ledger_amend_release(&res);
	}
	pl_run_release(&run);

	/* through the CLI: one revision with the metric rows, the kept value said */
	db_path(path, sizeof(path), "peracc");
	st = open_ok(path);
	{
		struct pl_run a, b;
		int ins = 0;
		make_run(&a, 11, "2x NVIDIA A100 80G");
		pl_run_set_metric(&a, PL_M_OUTPUT_THROUGHPUT, 100);
		pl_run_set_metric(&a, PL_M_OUTPUT_THROUGHPUT_PER_ACCELERATOR, 50);
		assert_int_equal(pl_store_insert_run(st, &a, &ins, &err), 0);
		id1 = a.id;
		make_run(&b, 12, "2x NVIDIA A100 80G");
		pl_run_set_metric(&b, PL_M_OUTPUT_THROUGHPUT, 100);
		pl_run_set_metric(&b, PL_M_OUTPUT_THROUGHPUT_PER_ACCELERATOR, 60);
		assert_int_equal(pl_store_insert_run(st, &b, &ins, &err), 0);
		id2 = b.id;
		pl_run_release(&a);
		pl_run_release(&b);
	}
	pl_store_close(st);
	{
		char out[1200], cmd[4096], got[2048];
		FILE *p;
		size_t n;
		snprintf(out, sizeof(out), "%s.out", path);
		snprintf(cmd, sizeof(cmd),
		         "SOURCE_DATE_EPOCH=1767225600 '%s' --db '%s' amend --run %lld --run %lld "
		         "--set 'hardware=4x NVIDIA A100 80G' --set accelerator_count=4 --reason four "
		         "--by alice > '%s' 2>&1",
		         PL_BIN, path, id1, id2, out);
		assert_int_equal(system(cmd), 0);
		p = fopen(out, "rb");
		assert_non_null(p);
		n = fread(got, 1, sizeof(got) - 1, p);
		fclose(p);
		got[n] = '\0';
		assert_string_equal(got,
		                    "run 1: revision 2: hardware '2x NVIDIA A100 80G' -> '4x NVIDIA A100 "
		                    "80G', accelerator_count '2' -> '4', output_throughput_per_accelerator "
		                    "'50' -> '25'\n"
		                    "run 2: revision 2: hardware '2x NVIDIA A100 80G' -> '4x NVIDIA A100 "
		                    "80G', accelerator_count '2' -> '4'\n"
		                    "run 2: output_throughput_per_accelerator kept at '60': the file gave "
		                    "it (it is not the throughput divided by the old accelerator_count)\n"
		                    /* runs 1 and 2 shared their conditions before: not "now pools" */
		                    "amended 2 runs\n");
	}
	assert_int_equal(raw_int(path, "SELECT count(*) FROM revisions WHERE run_id = 1"), 3);
	assert_string_equal(raw_text(path, "SELECT group_concat(revision || ':' || old_value || '>' || "
	                                   "new_value, ' ') FROM revisions WHERE run_id = 1 AND field "
	                                   "= 'output_throughput_per_accelerator'"),
	                    "2:50>25");
	assert_string_equal(raw_text(path, "SELECT output_throughput_per_accelerator FROM runs "
	                                   "WHERE id = 1"), "25.0");
	assert_string_equal(raw_text(path, "SELECT output_throughput_per_accelerator FROM runs "
	                                   "WHERE id = 2"), "60.0");
	assert_int_equal(raw_int(path, "SELECT count(*) FROM revisions WHERE run_id = 2"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_sets),
		cmocka_unit_test(test_amend_run_changes),
		cmocka_unit_test(test_store_amend),
		cmocka_unit_test(test_amend_build_identity),
		cmocka_unit_test(test_store_retract_restore_purge),
		cmocka_unit_test(test_columns_torn_snapshot),
		cmocka_unit_test(test_amend_killed),
		cmocka_unit_test(test_amend_per_accelerator),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
