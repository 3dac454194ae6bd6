/*
 * test_robust.c — issue 6, reliability and security: an import killed with
 * SIGKILL at random moments, concurrent importers and report renders on one
 * database, disk full / read-only database / unreadable input, big and odd
 * inputs, symlinks planted in a report directory, the workbook's sheet names
 * and formulas, and the regressions fuzzing found.
 *
 * The CLI (PL_BIN) is run in child processes; the database is inspected with
 * SQLite directly (PRAGMA integrity_check, run_flat). Sizes come from the
 * environment so that CI stays small and a long local run can be bigger:
 *   PL_ROBUST_FILES (2000)  descriptors in the crash test
 *   PL_ROBUST_KILLS (6)     SIGKILLs in the crash test (seed fixed)
 *   PL_ROBUST_JSONL_MB (16) size of the streamed JSONL
 *   PL_ROBUST_RSS_MB (24)   bound on the peak RSS growth from a 2 MB to that JSONL
 *   PL_ROBUST_ARRAY (50000) per-request array length of the big vLLM file
 * Privilege cases (read-only database, unreadable input) drop to uid 65534
 * in the child when run as root, because root ignores file modes; otherwise
 * the modes alone are used.
 */
#define _DEFAULT_SOURCE /* setgroups, wait4 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "adapters/adapters.h"
#include "core/error.h"
#include "import/import.h"
#include "core/model.h"
#include "core/normalize.h"
#include "core/validate.h"
#include "store/db.h"

#define TMP PL_TEST_TMP "/robust"
#define NOBODY 65534

/* ------------------------------------------------------------- helpers */

static long env_long(const char *name, long def)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return def;
	v = strtol(s, &end, 10);
	return (*end || v <= 0) ? def : v;
}

static void run_argv(const char *const *argv)
{
	int st;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static void rm_rf(const char *path)
{
	const char *argv[] = {"rm", "-rf", path, NULL};
	run_argv(argv);
}

static void mkdir_p(const char *path)
{
	const char *argv[] = {"mkdir", "-p", path, NULL};
	run_argv(argv);
}

static void write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The descriptor of file i: every value follows from i, and the metrics are
 * binary fractions so they read back exactly. */
static int descriptor(char *buf, size_t n, long i)
{
	double ttft = 0.25 + (double)i / 1024.0;
	return snprintf(buf, n,
	                "{\"model\": \"model-%ld\", \"model_source\": \"huggingface\", "
	                "\"precision\": \"%s\", \"engine\": \"vllm\", \"engine_version\": \"0.6.%ld\", "
	                "\"engine_args\": \"--tp 1\", \"hardware\": \"1x NVIDIA H100 80G\", "
	                "\"driver_version\": \"550.90\", \"cuda_version\": \"12.4\", "
	                "\"input_tokens\": 512, \"max_output_tokens\": 256, \"concurrency\": %ld, "
	                "\"warmup_requests\": 3, \"metric\": {\"ttft_p50\": %.17g, \"ttft_p95\": %.17g, "
	                "\"tpot_p50\": %.17g, \"output_throughput\": %ld, \"error_rate\": 0}}",
	                i % 7, (i % 2) ? "fp8" : "bf16", i % 3, 1L << (i % 6), ttft, 2 * ttft,
	                0.0078125 + (double)i / 1048576.0, 1000 + i);
}

/* Writes files first..first+n-1 as dir/NN/run-IIIIII.json. */
static void gen_tree(const char *dir, long first, long n)
{
	char path[1024], buf[2048];

	for (long i = first; i < first + n; i++) {
		snprintf(path, sizeof(path), "%s/%02ld", dir, i % 16);
		if (i - first < 16)
			mkdir_p(path);
		snprintf(path, sizeof(path), "%s/%02ld/run-%06ld.json", dir, i % 16, i);
		write_file(path, buf, (size_t)descriptor(buf, sizeof(buf), i));
	}
}

/* How a child runs the CLI. */
struct spawn {
	uid_t uid;          /* drop to this uid/gid first when nonzero and root */
	rlim_t fsize;       /* RLIMIT_FSIZE when nonzero (SIGXFSZ ignored) */
	const char *out;    /* stdout file, or NULL for /dev/null */
	const char *err;    /* stderr file, or NULL for /dev/null */
};

static pid_t spawn_cli(const char *const *args, const struct spawn *o)
{
	const char *argv[32];
	size_t n = 0;
	pid_t pid;

	argv[n++] = PL_BIN;
	for (; *args; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd;
		/* keep the sanitizers' own memory small and stable: the RSS bound
		 * is about perfledger's memory */
		setenv("ASAN_OPTIONS", "detect_leaks=1:quarantine_size_mb=1:malloc_context_size=2", 1);
		setenv("LC_ALL", "C.UTF-8", 1);
		fd = open(o && o->out ? o->out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
		dup2(fd, 1);
		close(fd);
		fd = open(o && o->err ? o->err : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
		dup2(fd, 2);
		close(fd);
		if (o && o->fsize) {
			struct rlimit rl = {o->fsize, o->fsize};
			signal(SIGXFSZ, SIG_IGN);
			if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
				_exit(126);
		}
		if (o && o->uid && geteuid() == 0) {
			if (setgroups(0, NULL) != 0 || setgid(o->uid) != 0 || setuid(o->uid) != 0)
				_exit(125);
		}
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* Waits for pid; returns its exit code, or 1000 + signal. ru may be NULL. */
static int wait_cli(pid_t pid, struct rusage *ru)
{
	int st;
	struct rusage r;

	while (wait4(pid, &st, 0, &r) < 0)
		assert_int_equal(errno, EINTR);
	if (ru)
		*ru = r;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1000 + WTERMSIG(st);
}

/* Runs the CLI; stdout and stderr land in TMP/cli.out and TMP/cli.err. */
static int run_cli(const char *const *args, const struct spawn *o)
{
	struct spawn s = {0, 0, TMP "/cli.out", TMP "/cli.err"};
	if (o) {
		s.uid = o->uid;
		s.fsize = o->fsize;
	}
	return wait_cli(spawn_cli(args, &s), NULL);
}

static char *cli_err(void)
{
	char *s = read_file(TMP "/cli.err", NULL);
	assert_non_null(s);
	return s;
}

/* One integer from a query on db (opened and closed here). */
static long long q_int(const char *db, const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	long long v = -1;

	assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
	sqlite3_busy_timeout(h, 10000);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

static void assert_integrity(const char *db)
{
	sqlite3 *h;
	sqlite3_stmt *st;

	assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
	sqlite3_busy_timeout(h, 10000);
	assert_int_equal(sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
	sqlite3_finalize(st);
	sqlite3_close(h);
}

static long long count_runs(const char *db)
{
	return q_int(db, "SELECT count(*) FROM runs");
}

/*
 * Every stored generated run (source path ".../run-IIIIII.json") holds
 * exactly what descriptor(i) wrote, each file is stored at most once, and
 * no run lacks its condition row. Returns the number of such runs.
 */
static long long assert_runs_complete(const char *db)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	long long n = 0;
	static unsigned char seen[1 << 20];

	memset(seen, 0, sizeof(seen));
	assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
	sqlite3_busy_timeout(h, 10000);
	assert_int_equal(q_int(db, "SELECT count(*) FROM runs WHERE condition_id NOT IN "
	                           "(SELECT id FROM conditions)"), 0);
	assert_int_equal(sqlite3_prepare_v2(h,
	                                    "SELECT r.source_path, f.model, f.precision, "
	                                    "f.engine_version, f.concurrency, f.hardware, f.ttft_p50, "
	                                    "f.ttft_p95, f.tpot_p50, f.output_throughput, "
	                                    "f.error_rate, r.record "
	                                    "FROM run_flat f JOIN runs r ON r.id = f.id "
	                                    "WHERE r.source_path LIKE '%run-%.json'",
	                                    -1, &st, NULL),
	                 SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *src = (const char *)sqlite3_column_text(st, 0);
		const char *p = strstr(src, "run-");
		char model[32];
		long i;
		double ttft;

		assert_non_null(p);
		i = strtol(p + 4, NULL, 10);
		assert_true(i >= 0 && i < (long)sizeof(seen));
		assert_int_equal(seen[i], 0); /* no file stored twice */
		seen[i] = 1;
		snprintf(model, sizeof(model), "model-%ld", i % 7);
		ttft = 0.25 + (double)i / 1024.0;
		assert_string_equal((const char *)sqlite3_column_text(st, 1), model);
		assert_string_equal((const char *)sqlite3_column_text(st, 2),
		                    (i % 2) ? "fp8" : "bfloat16");
		assert_int_equal(sqlite3_column_int64(st, 4), 1L << (i % 6));
		assert_string_equal((const char *)sqlite3_column_text(st, 5), "1x NVIDIA H100 80G");
		assert_true(sqlite3_column_double(st, 6) == ttft);
		assert_true(sqlite3_column_double(st, 7) == 2 * ttft);
		assert_true(sqlite3_column_double(st, 8) == 0.0078125 + (double)i / 1048576.0);
		assert_true(sqlite3_column_double(st, 9) == (double)(1000 + i));
		assert_int_equal(sqlite3_column_type(st, 10), SQLITE_FLOAT);
		assert_true(sqlite3_column_double(st, 10) == 0);
		assert_int_equal(sqlite3_column_int64(st, 11), 0);
		n++;
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
	return n;
}

/* ------------------------------------------------------- crash safety */

/* In a forked child: the library import with small batches, so that a
 * kill lands between commits as well as inside one. */
static void import_child(const char *db, const char *dir)
{
	struct pl_store *st = NULL;
	struct pl_import_opts o;
	struct pl_error err;
	const char *paths[] = {dir};

	memset(&o, 0, sizeof(o));
	o.commit_runs = 37;
	pl_error_init(&err);
	if (pl_store_open(db, &st, &err) != 0)
		_exit(2);
	if (pl_import_paths(st, paths, 1, &o, NULL, NULL, NULL, &err) != 0)
		_exit(3);
	pl_store_close(st);
	_exit(0);
}

static void test_crash_safety(void **state)
{
	const char *in = TMP "/crash/in", *db = TMP "/crash/crash.db";
	long nfiles = env_long("PL_ROBUST_FILES", 2000), kills = env_long("PL_ROBUST_KILLS", 6);
	double t0, full;
	unsigned seed = 20261129;
	(void)state;

	rm_rf(TMP "/crash");
	gen_tree(in, 0, nfiles);
	/* how long an uninterrupted import takes, to spread the kills over it */
	t0 = now();
	{
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0)
			import_child(TMP "/crash/timing.db", in);
		assert_int_equal(wait_cli(pid, NULL), 0);
	}
	full = now() - t0;
	assert_int_equal(count_runs(TMP "/crash/timing.db"), nfiles);

	for (long k = 0; k < kills; k++) {
		/* a fresh database each time; the library with small batches and
		 * the CLI in turn, killed at a random moment of the import */
		double at = full * (double)(rand_r(&seed) % 1000) / 1000.0;
		long long stored = 0;
		pid_t pid;
		remove(db);
		remove(TMP "/crash/crash.db-wal");
		remove(TMP "/crash/crash.db-shm");
		if (k % 2 == 0) {
			pid = fork();
			assert_true(pid >= 0);
			if (pid == 0)
				import_child(db, in);
		} else {
			const char *args[] = {"--db", db, "import", in, NULL};
			pid = spawn_cli(args, NULL);
		}
		usleep((useconds_t)(at * 1e6));
		kill(pid, SIGKILL);
		wait_cli(pid, NULL);
		/* killed before the database was created, or before its schema
		 * was (the migration is one transaction): nothing stored */
		if (access(db, F_OK) == 0 &&
		    q_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'runs'") == 1) {
			assert_integrity(db);
			stored = count_runs(db);
			assert_int_equal(assert_runs_complete(db), stored);
		} else if (access(db, F_OK) == 0) {
			assert_integrity(db);
		}
		print_message("crash: kill %ld at %.3f s of %.3f: %lld of %ld stored\n", k, at, full,
		              stored, nfiles);
		/* the same import again stores exactly the missing files */
		{
			const char *args[] = {"--db", db, "import", in, NULL};
			char want[128], *out;
			assert_int_equal(run_cli(args, NULL), 0);
			out = read_file(TMP "/cli.out", NULL);
			if (nfiles - stored == 1)
				snprintf(want, sizeof(want),
				         "imported 1 run from 1 file (%lld duplicates, 0 rejected)\n", stored);
			else
				snprintf(want, sizeof(want),
				         "imported %lld runs from %lld files (%lld duplicates, 0 rejected)\n",
				         nfiles - stored, nfiles - stored, stored);
			assert_string_equal(out, want);
			free(out);
		}
		assert_integrity(db);
		assert_int_equal(count_runs(db), nfiles);
		assert_int_equal(assert_runs_complete(db), nfiles);
		/* the selection indexes a killed bulk import had dropped are back */
		assert_int_equal(q_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND "
		                           "name IN ('conditions_key', 'conditions_engine_version', "
		                           "'conditions_hardware', 'runs_condition_id')"),
		                 4);
		assert_int_equal(q_int(db, "SELECT count(*) FROM deferred_indexes"), 0);
	}
}

/* -------------------------------------------------------- concurrency */

#define REPORT_WHERE "model=llama-3.1-8b-instruct"

/* Importers started together on a database that does not exist yet: each
 * must wait for the one that creates the schema, never take the fresh file
 * for another program's (a check that read the version before another's
 * migration and the tables after it did, in 16 of 100 rounds of 6). */
static void test_concurrent_fresh_db(void **state)
{
	const char *db = TMP "/fresh/f.db";
	const char *args[] = {"--db", db, "import",
	                      PL_SAMPLES_DIR "/seed/gemma-4-31b_2xa100_vllm063.json", NULL};
	long rounds = env_long("PL_ROBUST_FRESH_ROUNDS", 30);
	(void)state;

	for (long r = 0; r < rounds; r++) {
		char outp[6][256], errp[6][256];
		pid_t pids[6];
		rm_rf(TMP "/fresh");
		mkdir_p(TMP "/fresh");
		for (int k = 0; k < 6; k++) {
			struct spawn s = {0, 0, outp[k], errp[k]};
			snprintf(outp[k], sizeof(outp[k]), TMP "/fresh/%d.out", k);
			snprintf(errp[k], sizeof(errp[k]), TMP "/fresh/%d.err", k);
			pids[k] = spawn_cli(args, &s);
		}
		for (int k = 0; k < 6; k++) {
			int rc = wait_cli(pids[k], NULL);
			if (rc != 0) {
				char *e = read_file(errp[k], NULL);
				fail_msg("round %ld, importer %d: exit %d: %s", r, k, rc, e);
			}
		}
		assert_int_equal(count_runs(db), 1);
	}
}

static void test_concurrency(void **state)
{
	const char *db = TMP "/conc/conc.db";
	char dirs[8][256], outp[10][256], errp[10][256], rep[2][256];
	pid_t pids[10];
	long per = env_long("PL_ROBUST_FILES", 2000) / 16;
	long long base;
	(void)state;

	rm_rf(TMP "/conc");
	mkdir_p(TMP "/conc");
	{
		const char *args[] = {"--db", db, "import", PL_SAMPLES_DIR "/procurement", NULL};
		assert_int_equal(run_cli(args, NULL), 0);
	}
	base = count_runs(db);
	for (int k = 0; k < 8; k++) {
		snprintf(dirs[k], sizeof(dirs[k]), TMP "/conc/g%d", k);
		gen_tree(dirs[k], 100000 + k * per, per);
	}
	/* importer k takes its own set and its neighbour's: every set is
	 * imported twice, by two processes at once */
	for (int k = 0; k < 10; k++) {
		struct spawn s = {0, 0, outp[k], errp[k]};
		snprintf(outp[k], sizeof(outp[k]), TMP "/conc/%d.out", k);
		snprintf(errp[k], sizeof(errp[k]), TMP "/conc/%d.err", k);
		if (k < 8) {
			const char *args[] = {"--db", db, "import", dirs[k], dirs[(k + 1) % 8], NULL};
			pids[k] = spawn_cli(args, &s);
		} else {
			snprintf(rep[k - 8], sizeof(rep[k - 8]), TMP "/conc/report%d", k - 8);
			const char *args[] = {"--db",    db,      "report",     "--out", rep[k - 8],
			                      "--axis",  "hardware", "--where", REPORT_WHERE, NULL};
			pids[k] = spawn_cli(args, &s);
		}
	}
	for (int k = 0; k < 10; k++) {
		int rc = wait_cli(pids[k], NULL);
		if (rc != 0) {
			char *e = read_file(errp[k], NULL);
			print_message("process %d: exit %d: %s\n", k, rc, e ? e : "");
			free(e);
		}
		assert_int_equal(rc, 0);
	}
	assert_integrity(db);
	assert_int_equal(count_runs(db), base + 8 * per);
	assert_int_equal(assert_runs_complete(db), 8 * per);
	for (int r = 0; r < 2; r++) {
		char p[1024];
		size_t len = 0;
		char *md;
		snprintf(p, sizeof(p), "%s/report.md", rep[r]);
		md = read_file(p, &len);
		assert_non_null(md);
		assert_true(len > 100);
		free(md);
		snprintf(p, sizeof(p), "%s/comparison.xlsx", rep[r]);
		assert_int_equal(access(p, R_OK), 0);
	}
}

/* The counts the importers print add up to the files stored: a file two
 * processes import at once is "imported" by one and a duplicate for the
 * other. */
static void test_concurrency_counts(void **state)
{
	long per = env_long("PL_ROBUST_FILES", 2000) / 16, total = 0;
	(void)state;

	/* Regression: when two importers took the same file at once, both
	 * counted it as imported (seen: 1004 runs printed for 1000 stored);
	 * the duplicate check now runs under the write lock. */
	for (int k = 0; k < 8; k++) {
		char p[256], *out;
		long runs = 0, files = 0, dup = 0, rej = 0;
		snprintf(p, sizeof(p), TMP "/conc/%d.out", k);
		out = read_file(p, NULL);
		assert_non_null(out);
		assert_int_equal(sscanf(out, "imported %ld %*s from %ld %*s (%ld %*s %ld", &runs, &files,
		                        &dup, &rej),
		                 4);
		assert_int_equal(files + dup, 2 * per);
		assert_int_equal(rej, 0);
		total += runs;
		free(out);
	}
	assert_int_equal(total, 8 * per);
}

/* -------------------------------------------------------------- faults */

/* A database with the procurement samples, its run count returned. */
static long long fault_db(const char *dir, const char *db)
{
	const char *args[] = {"--db", db, "import", PL_SAMPLES_DIR "/procurement", NULL};
	rm_rf(dir);
	mkdir_p(dir);
	assert_int_equal(run_cli(args, NULL), 0);
	return count_runs(db);
}

static void assert_err_has(const char *what)
{
	char *e = cli_err();
	if (!strstr(e, what))
		fail_msg("stderr lacks '%s':\n%s", what, e);
	free(e);
}

static void test_disk_full(void **state)
{
	const char *dir = TMP "/full", *db = TMP "/full/full.db";
	long long n0 = fault_db(dir, db);
	struct stat sb;
	(void)state;

	gen_tree(TMP "/full/in", 200000, 300);
	assert_int_equal(stat(db, &sb), 0);
	{
		/* room for the -shm file and a few WAL pages, not for the batch */
		struct spawn s = {0, (rlim_t)sb.st_size + 4096, NULL, NULL};
		const char *args[] = {"--db", db, "import", TMP "/full/in", NULL};
		assert_int_equal(run_cli(args, &s), 2);
		assert_err_has("database '" TMP "/full/full.db'");
		assert_err_has("disk I/O error");
		assert_err_has("import: stopped: 0 runs from 0 files stored before the error, the "
		               "files after it not read; run the same import again");
		/* the files of the rolled-back batch share one reason: three are
		 * named, the rest counted, and the reason is not repeated after */
		assert_err_has("more files not stored for the same reason");
		{
			char *e = cli_err(), *p = e;
			int n = 0;
			while ((p = strstr(p, "disk I/O error")) != NULL) {
				n++;
				p++;
			}
			if (n != 3)
				fail_msg("the disk error is printed %d times, not 3:\n%s", n, e);
			free(e);
		}
	}
	assert_integrity(db);
	assert_int_equal(count_runs(db), n0);
}

static void test_readonly_db(void **state)
{
	const char *dir = TMP "/ro", *db = TMP "/ro/ro.db";
	long long n0 = fault_db(dir, db);
	struct spawn s = {NOBODY, 0, NULL, NULL};
	const char *args[] = {"--db", db, "import", TMP "/ro/in", NULL};
	(void)state;

	gen_tree(TMP "/ro/in", 300000, 20);
	/* root ignores modes: as root, the child drops to nobody, who may read
	 * the database (0644) but not write it; the directory is writable, so
	 * SQLite can make the -shm file WAL needs even to read */
	if (geteuid() != 0)
		assert_int_equal(chmod(db, 0444), 0);
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(run_cli(args, &s), 2);
	assert_err_has("database '" TMP "/ro/ro.db'");
	assert_err_has("readonly database");
	{
		/* said once: for the file it stopped on, not again as the import's error */
		char *e = cli_err(), *first = strstr(e, "readonly database");
		if (first && strstr(first + 1, "readonly database"))
			fail_msg("the error is printed twice:\n%s", e);
		free(e);
	}
	assert_integrity(db);
	assert_int_equal(count_runs(db), n0);
	/* in a directory this user cannot write, not even a read works: say why */
	assert_int_equal(chmod(dir, 0755), 0);
	{
		const char *list[] = {"--db", db, "list", NULL};
		if (geteuid() != 0)
			assert_int_equal(chmod(dir, 0555), 0);
		assert_int_equal(run_cli(list, &s), 2);
		assert_err_has("cannot use database '" TMP "/ro/ro.db': it is in WAL mode, and SQLite "
		               "must create '" TMP "/ro/ro.db-shm' beside it even to read it");
		chmod(dir, 0755);
	}
	/* A killed bulk import left an index to build, and the database is
	 * read-only: an import of stored files still succeeds, and warns that
	 * the index waits for the next import (which builds it). */
	{
		sqlite3 *h;
		const char *again[] = {"--db", db, "import", PL_SAMPLES_DIR "/procurement/a100_c16_run1.json",
		                       NULL};
		char *out;
		assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
		assert_int_equal(sqlite3_exec(h,
		                              "INSERT INTO deferred_indexes (name, sql) SELECT name, sql "
		                              "FROM sqlite_master WHERE name = 'conditions_hardware';"
		                              "DROP INDEX conditions_hardware;",
		                              NULL, NULL, NULL),
		                 SQLITE_OK);
		sqlite3_close(h);
		assert_int_equal(chmod(dir, 0777), 0);
		assert_int_equal(run_cli(again, &s), 0);
		out = read_file(TMP "/cli.out", NULL);
		assert_string_equal(out, "imported 0 runs from 0 files (1 duplicate, 0 rejected)\n");
		free(out);
		assert_err_has("warning: database error: attempt to write a readonly database (while "
		               "building the selection indexes");
		assert_err_has("until the next import builds the selection indexes");
		chmod(dir, 0755);
		assert_int_equal(run_cli(again, NULL), 0); /* as root: built */
		assert_int_equal(q_int(db, "SELECT count(*) FROM sqlite_master WHERE name = "
		                           "'conditions_hardware'"),
		                 1);
		assert_int_equal(q_int(db, "SELECT count(*) FROM deferred_indexes"), 0);
	}
	chmod(db, 0644);
}

static void test_unreadable_input(void **state)
{
	const char *dir = TMP "/unread", *db = TMP "/unread/u.db";
	char buf[2048];
	long long n0 = fault_db(dir, db);
	struct spawn s = {NOBODY, 0, NULL, NULL};
	const char *args[] = {"--db", db, "import", TMP "/unread/secret.json", NULL};
	(void)state;

	/* the database writable by anyone, the input by no one */
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(chmod(db, 0666), 0);
	write_file(TMP "/unread/secret.json", buf, (size_t)descriptor(buf, sizeof(buf), 400000));
	assert_int_equal(chmod(TMP "/unread/secret.json", 0), 0);
	assert_int_equal(run_cli(args, &s), 2);
	assert_err_has("cannot open '" TMP "/unread/secret.json': Permission denied");
	assert_integrity(db);
	assert_int_equal(count_runs(db), n0);
}

/* ------------------------------------------------------ big and odd inputs */

/* Writes a JSONL of at least mb MiB (descriptors first, first+1, ...);
 * returns the number of lines. */
static long gen_jsonl(const char *path, long first, long mb)
{
	FILE *f = fopen(path, "wb");
	char buf[2048];
	long n = 0, bytes = 0;

	assert_non_null(f);
	while (bytes < mb * 1024 * 1024) {
		int len = descriptor(buf, sizeof(buf), first + n);
		buf[len++] = '\n';
		assert_int_equal(fwrite(buf, 1, (size_t)len, f), (size_t)len);
		bytes += len;
		n++;
	}
	assert_int_equal(fclose(f), 0);
	return n;
}

/* Imports path into a fresh db in a child; returns its peak RSS in KiB. */
static long import_rss(const char *db, const char *path, long lines)
{
	const char *args[] = {"--db", db, "import", path, NULL};
	struct spawn s = {0, 0, TMP "/cli.out", TMP "/cli.err"};
	struct rusage ru;
	char want[160], *out;

	assert_int_equal(wait_cli(spawn_cli(args, &s), &ru), 0);
	out = read_file(TMP "/cli.out", NULL);
	snprintf(want, sizeof(want), "imported %ld runs from 1 file (0 duplicates, 0 rejected)\n",
	         lines);
	assert_string_equal(out, want);
	free(out);
	assert_int_equal(count_runs(db), lines);
	return ru.ru_maxrss;
}

static void test_big_jsonl(void **state)
{
	long mb = env_long("PL_ROBUST_JSONL_MB", 16), bound = env_long("PL_ROBUST_RSS_MB", 24);
	long small, big, nsmall, nbig;
	(void)state;

	rm_rf(TMP "/big");
	mkdir_p(TMP "/big");
	nsmall = gen_jsonl(TMP "/big/small.jsonl", 0, 2);
	nbig = gen_jsonl(TMP "/big/big.jsonl", 0, mb);
	small = import_rss(TMP "/big/small.db", TMP "/big/small.jsonl", nsmall);
	big = import_rss(TMP "/big/big.db", TMP "/big/big.jsonl", nbig);
	print_message("jsonl: 2 MiB (%ld lines) peak RSS %ld KiB, %ld MiB (%ld lines) %ld KiB\n",
	              nsmall, small, mb, nbig, big);
	/* constant memory: the growth is bounded, not proportional to the file */
	assert_true(big - small < bound * 1024);
	remove(TMP "/big/big.jsonl");
}

static void test_big_vllm_arrays(void **state)
{
	long n = env_long("PL_ROBUST_ARRAY", 50000);
	size_t cap = (size_t)n * 64 + 4096, len = 0;
	char *buf = malloc(cap);
	struct pl_run_list l = {0};
	struct pl_error err;
	static const char *const arrays[] = {"input_lens", "output_lens", "ttfts", "itls",
	                                     "generated_texts", "errors"};
	(void)state;

	assert_non_null(buf);
	len += (size_t)snprintf(buf + len, cap - len,
	                        "{\"date\": \"20261105-101500\", \"backend\": \"openai\", "
	                        "\"model_id\": \"meta-llama/Llama-3.1-8B-Instruct\", "
	                        "\"num_prompts\": %ld, \"request_rate\": \"inf\", "
	                        "\"max_concurrency\": 16, \"duration\": 42.5, \"completed\": %ld, "
	                        "\"total_input_tokens\": %ld, \"total_output_tokens\": %ld, "
	                        "\"request_throughput\": 4.5, \"output_throughput\": 1200.5, "
	                        "\"mean_ttft_ms\": 125, \"median_ttft_ms\": 112.5, "
	                        "\"p99_ttft_ms\": 225, \"mean_tpot_ms\": 13, \"median_tpot_ms\": 12.75",
	                        n, n, n * 1024, n * 256);
	for (size_t a = 0; a < sizeof(arrays) / sizeof(arrays[0]); a++) {
		len += (size_t)snprintf(buf + len, cap - len, ", \"%s\": [", arrays[a]);
		for (long i = 0; i < n; i++) {
			const char *sep = i ? "," : "";
			if (a == 0)
				len += (size_t)snprintf(buf + len, cap - len, "%s1024", sep);
			else if (a == 1)
				len += (size_t)snprintf(buf + len, cap - len, "%s256", sep);
			else if (a == 2)
				len += (size_t)snprintf(buf + len, cap - len, "%s0.1125", sep);
			else if (a == 3)
				len += (size_t)snprintf(buf + len, cap - len, "%s[0.0125,0.013]", sep);
			else if (a == 4)
				len += (size_t)snprintf(buf + len, cap - len, "%s\"tok tok\"", sep);
			else
				len += (size_t)snprintf(buf + len, cap - len, "%s\"\"", sep);
		}
		len += (size_t)snprintf(buf + len, cap - len, "]");
	}
	len += (size_t)snprintf(buf + len, cap - len, "}");
	assert_true(len < cap - 1);
	pl_error_init(&err);
	if (pl_adapters_parse("big.json", buf, len, NULL, &l, &err) != 0)
		fail_msg("big vLLM file (%zu bytes) rejected: %s", len, err.message);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].adapter, "vllm-serving");
	assert_true(l.v[0].has_metric[pl_metric_lookup("ttft_p50")]);
	assert_true(fabs(l.v[0].metric[pl_metric_lookup("ttft_p50")] - 0.1125) < 1e-15);
	assert_true(fabs(l.v[0].metric[pl_metric_lookup("output_throughput")] - 1200.5) < 1e-12);
	print_message("vllm: %ld-element arrays, %zu bytes parsed\n", n, len);
	pl_run_list_release(&l);
	free(buf);
}

/* The start of a descriptor with every required condition; the test adds
 * the rest ("metric" last). */
#define DESC_HEAD                                                                           \
	"{\"model_source\": \"hf\", \"precision\": \"bf16\", \"engine\": \"vllm\", "            \
	"\"engine_version\": \"0.6.3\", \"hardware\": \"1x H100\", \"max_output_tokens\": 256, " \
	"\"concurrency\": 8, \"warmup_requests\": 3, "

struct odd {
	const char *name;    /* what is odd */
	const char *text;    /* the file (may hold NUL: len) */
	size_t len;          /* 0: strlen(text) */
	int rc;              /* expected return */
	const char *message; /* expected error message (rc != 0) */
	int at;              /* the byte the error points at (line 1), -1 if none */
};

static void test_odd_inputs(void **state)
{
	static const char nul[] = DESC_HEAD "\"model\": \"m\0x\", \"input_tokens\": 512, "
	                                    "\"metric\": {\"ttft_p50\": 0.1}}";
	const struct odd cases[] = {
		{"NUL byte in a string", nul, sizeof(nul) - 1, PL_ESYNTAX,
		 "invalid JSON: unexpected NUL byte", 0},
		{"\\u0000 escape", DESC_HEAD "\"model\": \"m\\u0000x\", \"input_tokens\": 512, "
		                             "\"metric\": {\"ttft_p50\": 0.1}}",
		 0, PL_EINVALID, "'model' contains \\u0000 (a NUL character); a text value would be cut there",
		 -1},
		{"invalid UTF-8 byte", DESC_HEAD "\"model\": \"m\xff\", \"input_tokens\": 512, "
		                                 "\"metric\": {\"ttft_p50\": 0.1}}",
		 0, PL_ESYNTAX, "invalid JSON: byte 0xFF is not UTF-8", 0xFF},
		{"overlong UTF-8", DESC_HEAD "\"model\": \"\xc0\xafm\", \"input_tokens\": 512, "
		                             "\"metric\": {\"ttft_p50\": 0.1}}",
		 0, PL_ESYNTAX, "invalid JSON: byte 0xC0 is not UTF-8", 0xC0},
		{"UTF-16 surrogate in UTF-8", DESC_HEAD "\"model\": \"\xed\xa0\x80\", \"input_tokens\": 512, "
		                                        "\"metric\": {\"ttft_p50\": 0.1}}",
		 0, PL_ESYNTAX, "invalid JSON: byte 0xED is not UTF-8", 0xED},
		{"UTF-8 cut short at the end", DESC_HEAD "\"model\": \"m\", \"input_tokens\": 512, "
		                                         "\"metric\": {\"ttft_p50\": 0.1}}\xe4\xb8",
		 0, PL_ESYNTAX, "invalid JSON: byte 0xE4 is not UTF-8", 0xE4},
		{"number beyond double range", DESC_HEAD "\"model\": \"m\", \"input_tokens\": 512, "
		                                         "\"metric\": {\"ttft_p50\": 1e400}}",
		 0, PL_EINVALID, "'ttft_p50' is a number too large to hold (beyond 1.8e308)", -1},
		{"negative number beyond double range",
		 DESC_HEAD "\"model\": \"m\", \"input_tokens\": 512, \"metric\": {\"ttft_p50\": -1e400}}", 0,
		 PL_EINVALID, "'ttft_p50' is a number too large to hold (beyond 1.8e308)", -1},
		/* a condition too: it was stored as the text "inf" */
		{"condition beyond double range",
		 DESC_HEAD "\"model\": \"m\", \"input_tokens\": 1e400, \"metric\": {\"ttft_p50\": 0.1}}", 0,
		 PL_EINVALID, "'input_tokens' is a number too large to hold (beyond 1.8e308)", -1},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct odd *c = &cases[i];
		struct pl_run_list l = {0};
		struct pl_error err;
		size_t len = c->len ? c->len : strlen(c->text);
		int rc;

		pl_error_init(&err);
		rc = pl_adapters_parse("odd.json", c->text, len, "descriptor", &l, &err);
		for (size_t r = 0; rc == 0 && r < l.n; r++) { /* as the import does */
			rc = pl_normalize_run(&l.v[r], &err);
			if (rc == 0)
				rc = pl_validate_run(&l.v[r], &err);
		}
		print_message("%s: %d %s (%ld:%ld)\n", c->name, rc, err.message, err.line, err.column);
		assert_int_equal(rc, c->rc);
		if (c->message)
			assert_string_equal(err.message, c->message);
		if (c->at >= 0) {
			const char *p = memchr(c->text, c->at, len);
			assert_non_null(p);
			assert_int_equal(err.line, 1);
			assert_int_equal(err.column, p - c->text + 1);
		}
		pl_run_list_release(&l);
	}
}

/* Deep nesting past the reader's limit, a megabyte-long name (kept whole)
 * and well-formed multi-byte UTF-8 (kept byte for byte). */
static void test_deep_and_long(void **state)
{
	size_t depth = 100000, n = 1 << 20, len = 0;
	char *buf = malloc(2 * depth + n + 512);
	struct pl_run_list l = {0};
	struct pl_error err;
	int model = pl_cond_lookup("model");
	(void)state;

	assert_non_null(buf);
	memset(buf, '[', depth);
	memset(buf + depth, ']', depth);
	pl_error_init(&err);
	assert_int_equal(pl_adapters_parse("deep.json", buf, 2 * depth, NULL, &l, &err), PL_ESYNTAX);
	assert_string_equal(err.message, "invalid JSON: nesting deeper than 1000 levels");
	assert_int_equal(err.line, 1);
	assert_int_equal(err.column, 1001);
	pl_run_list_release(&l);

	len = (size_t)snprintf(buf, 512, DESC_HEAD "\"input_tokens\": 512, \"model\": \"");
	memset(buf + len, 'a', n);
	len += n;
	len += (size_t)snprintf(buf + len, 512, "\", \"metric\": {\"ttft_p50\": 0.1}}");
	pl_error_init(&err);
	assert_int_equal(pl_adapters_parse("long.json", buf, len, NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(strlen(l.v[0].cond[model].text), n);
	pl_run_list_release(&l);

	len = (size_t)snprintf(buf, 512,
	                       DESC_HEAD "\"input_tokens\": 512, \"model\": \"\xe5\x8d\x8e\xe4\xb8\xba "
	                                 "\xf0\x9f\x98\x80\", \"metric\": {\"ttft_p50\": 0.1}}");
	pl_error_init(&err);
	assert_int_equal(pl_adapters_parse("utf8.json", buf, len, NULL, &l, &err), 0);
	assert_string_equal(l.v[0].cond[model].text, "\xe5\x8d\x8e\xe4\xb8\xba \xf0\x9f\x98\x80");
	pl_run_list_release(&l);
	free(buf);
}

/* Integers beyond 2^53 are kept exact or refused, never rounded. */
static void test_int_beyond_2_53(void **state)
{
	static const char text[] = DESC_HEAD "\"model\": \"m\", \"input_tokens\": 9007199254740993, "
	                                     "\"metric\": {\"ttft_p50\": 0.1}}";
	struct pl_run_list l = {0};
	struct pl_error err;
	int rc;
	(void)state;

	/* Regression: 9007199254740993 was stored as 9007199254740992 (a
	 * double); it must be kept exact or refused (it is refused). */
	pl_error_init(&err);
	rc = pl_adapters_parse("int.json", text, sizeof(text) - 1, NULL, &l, &err);
	assert_int_equal(rc, PL_EINVALID);
	assert_string_equal(err.message, "'input_tokens' is 2^53 (9007199254740992) or more; "
	                                 "integers that large cannot be kept exact");
	pl_run_list_release(&l);
}

/* --------------------------------------------------- fuzz regressions */

/* fuzz/run.sh: --format aiperf-csv on an empty input read csv.tables[0] of
 * a CSV without tables (src/adapters/csv_exports.c). Every CSV format. */
static void test_fuzz_empty_csv(void **state)
{
	static const char *const formats[] = {"aiperf-csv", "genai-perf-analyze",
	                                      "inferencemax-summary-csv"};
	static const char *const inputs[] = {"", "\n\n", "\xEF\xBB\xBF"};
	(void)state;

	for (size_t f = 0; f < 3; f++) {
		for (size_t i = 0; i < 3; i++) {
			struct pl_run_list l = {0};
			struct pl_error err;
			pl_error_init(&err);
			/* no runs and no error, as a CSV of a header alone (finding 15) */
			assert_int_equal(pl_adapters_parse("empty.csv", inputs[i], strlen(inputs[i]),
			                                   formats[f], &l, &err),
			                 0);
			assert_int_equal(l.n, 0);
			pl_run_list_release(&l);
		}
	}
}

/* ------------------------------------------------ output paths, workbook */

/* Hostile hardware names on a copy of the procurement-review selection. */
static const char *const hostile_hw[] = {
	"=HYPERLINK(\\\"http://x/\\\",\\\"y\\\")",
	"+1+cmd|' /C calc'!A0",
	"-2+3",
	"@SUM(A1:A9)",
	"\\\"; system(\\\"touch " TMP "/pwned\\\"); \\\"",
	"<script>alert(1)</script> `id` $(touch " TMP "/pwned2) | x",
	"\\u001b[31mred\\u001b[0m \\u202eevil",
};

static void write_hostile(const char *path)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	for (size_t i = 0; i < sizeof(hostile_hw) / sizeof(hostile_hw[0]); i++)
		fprintf(f,
		        "{\"model\": \"llama-3.1-70b-instruct\", \"model_source\": \"huggingface\", "
		        "\"precision\": \"bf16\", \"engine\": \"vLLM\", \"engine_version\": \"0.8.5\", "
		        "\"input_tokens\": 2048, \"max_output_tokens\": 512, \"warmup_requests\": 10, "
		        "\"dataset\": \"random-2048-512\", \"deployment\": \"local\", "
		        "\"benchmark_tool\": \"vllm-bench-serve\", \"benchmark_tool_version\": \"0.8.5\", "
		        "\"repetitions\": 1, \"hardware\": \"%zux %s\", \"driver_version\": \"550.54.15\", "
		        "\"cuda_version\": \"12.4\", \"engine_args\": \"--tensor-parallel-size 2\", "
		        "\"concurrency\": 4, \"price_per_hour\": 4.0, "
		        "\"run_started_at\": \"2026-09-12T09:00:00Z\", \"metric\": {\"ttft_p50\": 0.168, "
		        "\"ttft_p95\": 0.28, \"tpot_p50\": 0.024, \"tpot_p95\": 0.03, "
		        "\"output_throughput\": 140, \"request_throughput\": 0.273438, \"error_rate\": 0}}\n",
		        i + 1, hostile_hw[i]);
	assert_int_equal(fclose(f), 0);
}

/* A database for the output tests: the samples and the hostile names. */
static void output_db(const char *db)
{
	const char *args[] = {"--db", db, "import", PL_SAMPLES_DIR "/procurement",
	                      PL_SAMPLES_DIR "/procurement-sweep", TMP "/out/hostile.jsonl", NULL};
	rm_rf(TMP "/out");
	mkdir_p(TMP "/out");
	write_hostile(TMP "/out/hostile.jsonl");
	assert_int_equal(run_cli(args, NULL), 0);
}

/* Plants dir/name -> a victim file outside dir that holds "victim\n". */
static void plant(const char *dir, const char *name, int k)
{
	char link[512], victim[512];
	snprintf(link, sizeof(link), "%s/%s", dir, name);
	snprintf(victim, sizeof(victim), TMP "/out/victim-%d", k);
	write_file(victim, "victim\n", 7);
	assert_int_equal(symlink(victim, link), 0);
}

static void assert_victims_intact(int n)
{
	for (int k = 0; k < n; k++) {
		char victim[512], *s;
		struct stat sb;
		snprintf(victim, sizeof(victim), TMP "/out/victim-%d", k);
		assert_int_equal(lstat(victim, &sb), 0);
		assert_true(S_ISREG(sb.st_mode));
		s = read_file(victim, NULL);
		if (strcmp(s, "victim\n") != 0)
			fail_msg("%s was written through a symlink", victim);
		free(s);
	}
}

/* After a render, each planted output name is a regular file, and each
 * planted temporary name is gone. */
static void assert_no_links(const char *dir, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char p[512];
		struct stat sb;
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		if (strstr(names[i], ".tmp")) {
			if (lstat(p, &sb) == 0)
				fail_msg("%s is left over", p);
		} else if (lstat(p, &sb) != 0 || !S_ISREG(sb.st_mode)) {
			fail_msg("%s is not a regular file", p);
		}
	}
}

/* The CLI exits 2 with stderr starting with want. */
static void assert_refused(const char *const *args, const char *want)
{
	int rc = run_cli(args, NULL);
	char *e = cli_err();

	if (rc != 2 || strncmp(e, want, strlen(want)) != 0)
		fail_msg("exit %d, stderr: %s\nwanted exit 2 and: %s", rc, e, want);
	free(e);
}

/* Each planted name is still the symlink it was. */
static void assert_links_kept(const char *dir, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char p[512];
		struct stat sb;
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		if (lstat(p, &sb) != 0 || !S_ISLNK(sb.st_mode))
			fail_msg("%s was touched", p);
	}
}

static void test_symlinks_in_out_dir(void **state)
{
	const char *db = TMP "/out/out.db";
	static const char *const report_names[] = {
		"report.md",   "report.md.tmp",   "comparison.csv",  "comparison.json.tmp",
		"ttft.gp",     "ttft.gp.tmp",     "ttft.dat.tmp",    "ttft.svg",
		"ttft.png",    "throughput.png",  "comparison.xlsx", "comparison.xlsx.tmp"};
	static const char *const bundle_names[] = {
		"report.md",         "report.html",     "report.html.tmp", "manifest.json",
		"manifest.json.tmp", "definition.json", "sweep.svg",       "sweep.svg.tmp",
		"pareto.svg",        "comparison.xlsx", "comparison.xlsx.tmp"};
	static const char *const history_names[] = {"history.png", "history.svg", "history.gp.tmp",
	                                            "history.dat"};
	int k = 0;
	(void)state;

	output_db(db);
	mkdir_p(TMP "/out/rep");
	for (size_t i = 0; i < sizeof(report_names) / sizeof(report_names[0]); i++)
		plant(TMP "/out/rep", report_names[i], k++);
	{
		/* a directory that is not a bundle is refused, not written into
		 * (issue 12), and its links are left as they are */
		const char *args[] = {"--db", db, "report", "--out", TMP "/out/rep", "--axis", "hardware",
		                      "--where", REPORT_WHERE, NULL};
		assert_refused(args, "perfledger: refusing to replace '" TMP "/out/rep': 'comparison.csv' "
		                     "is not part of a perfledger bundle (there is no manifest.json)");
		assert_victims_intact(k);
		assert_links_kept(TMP "/out/rep", report_names,
		                  sizeof(report_names) / sizeof(report_names[0]));
		rm_rf(TMP "/out/rep");
		assert_int_equal(run_cli(args, NULL), 0);
	}
	assert_int_equal(access(TMP "/out/rep/ttft.png", R_OK), 0);

	mkdir_p(TMP "/out/bundle");
	for (size_t i = 0; i < sizeof(bundle_names) / sizeof(bundle_names[0]); i++)
		plant(TMP "/out/bundle", bundle_names[i], k++);
	{
		const char *args[] = {"--db",  db, "report", "--spec", PL_SOURCE_DIR "/reports/procurement-review.json",
		                      "--out", TMP "/out/bundle", NULL};
		int rc;
		assert_refused(args, "perfledger: refusing to replace '" TMP "/out/bundle': "
		                     "'manifest.json' is not a perfledger bundle manifest");
		assert_victims_intact(k);
		assert_links_kept(TMP "/out/bundle", bundle_names,
		                  sizeof(bundle_names) / sizeof(bundle_names[0]));
		rm_rf(TMP "/out/bundle");
		rc = run_cli(args, NULL);
		if (rc != 0) {
			char *e = cli_err();
			fail_msg("bundle: exit %d: %s", rc, e);
		}
	}

	mkdir_p(TMP "/out/hist");
	for (size_t i = 0; i < sizeof(history_names) / sizeof(history_names[0]); i++)
		plant(TMP "/out/hist", history_names[i], k++);
	{
		const char *args[] = {"--db",    db,  "history", "--metric", "ttft_p50", "--where",
		                      REPORT_WHERE, "--where", "hardware=1x NVIDIA H100 80G", "--out",
		                      TMP "/out/hist", NULL};
		int rc = run_cli(args, NULL);
		if (rc != 0) {
			char *e = cli_err();
			fail_msg("history: exit %d: %s", rc, e);
		}
	}
	assert_victims_intact(k);
	assert_no_links(TMP "/out/hist", history_names, sizeof(history_names) / sizeof(history_names[0]));
	/* nothing the gnuplot scripts could have run */
	assert_int_equal(access(TMP "/pwned", F_OK), -1);
	assert_int_equal(access(TMP "/pwned2", F_OK), -1);
}

/* unzip -p xlsx member... > out */
static void unzip_to(const char *xlsx, const char *member, const char *out)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		execlp("unzip", "unzip", "-p", xlsx, member, (char *)NULL);
		_exit(127);
	}
	assert_int_equal(wait_cli(pid, NULL), 0);
}

/* Sheet names obey Excel's rules (at most 31 characters, none of
 * []:*?/\, no leading or trailing apostrophe, unique ignoring case), and no
 * cell of any sheet is a formula, whatever the names in the database. */
static void test_workbook_rules(void **state)
{
	const char *const books[] = {TMP "/out/rep/comparison.xlsx", TMP "/out/bundle/comparison.xlsx"};
	(void)state;

	for (size_t b = 0; b < 2; b++) {
		char *wb, *sheets, names[16][64];
		size_t n = 0;
		const char *p;
		unzip_to(books[b], "xl/workbook.xml", TMP "/out/workbook.xml");
		unzip_to(books[b], "xl/worksheets/*.xml", TMP "/out/sheets.xml");
		wb = read_file(TMP "/out/workbook.xml", NULL);
		sheets = read_file(TMP "/out/sheets.xml", NULL);
		assert_non_null(wb);
		assert_non_null(sheets);
		for (p = strstr(wb, "<sheet name=\""); p; p = strstr(p, "<sheet name=\"")) {
			const char *q;
			size_t len;
			p += strlen("<sheet name=\"");
			q = strchr(p, '"');
			assert_non_null(q);
			len = (size_t)(q - p);
			assert_true(len >= 1 && len <= 31);
			assert_true(n < 16);
			memcpy(names[n], p, len);
			names[n][len] = '\0';
			assert_null(strpbrk(names[n], "[]:*?/\\"));
			assert_true(names[n][0] != '\'' && names[n][len - 1] != '\'');
			for (size_t j = 0; j < n; j++)
				assert_true(strcasecmp(names[j], names[n]) != 0);
			n++;
		}
		assert_true(n >= 3);
		assert_non_null(strstr(sheets, "<worksheet"));
		assert_null(strstr(sheets, "<f>"));
		assert_null(strstr(sheets, "<f "));
		free(wb);
		free(sheets);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fuzz_empty_csv),
		cmocka_unit_test(test_odd_inputs),
		cmocka_unit_test(test_deep_and_long),
		cmocka_unit_test(test_int_beyond_2_53),
		cmocka_unit_test(test_big_vllm_arrays),
		cmocka_unit_test(test_big_jsonl),
		cmocka_unit_test(test_disk_full),
		cmocka_unit_test(test_readonly_db),
		cmocka_unit_test(test_unreadable_input),
		cmocka_unit_test(test_symlinks_in_out_dir),
		cmocka_unit_test(test_workbook_rules),
		cmocka_unit_test(test_concurrent_fresh_db),
		cmocka_unit_test(test_concurrency),
		cmocka_unit_test(test_concurrency_counts),
		cmocka_unit_test(test_crash_safety),
	};
	mkdir_p(TMP);
	pl_adapters_init(); /* cJSON's allocator hooks, as main() does */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
