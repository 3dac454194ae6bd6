/*
 * test_bundle_dir.c — issue 12: a bundle directory is never half written.
 * The CLI (PL_BIN) is run in child processes:
 *   - report --spec killed with SIGKILL at seeded random moments, the
 *     rounds alternating language and epoch so that a mix of two renders
 *     would not verify: afterwards the directory always holds one complete
 *     bundle (verify exits 0), and the next render removes the leftovers;
 *   - four renders into one directory at once all succeed (a lock
 *     serialises them) and leave one bundle that verifies;
 *   - verify stopped by SIGINT, SIGTERM or SIGHUP in the middle of its
 *     re-render removes its temporary directory and dies by that signal.
 * Sizes come from the environment: PL_BUNDLE_KILLS (20) rounds of kills.
 */
#define _DEFAULT_SOURCE /* wait4, setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

#define TMP PL_TEST_TMP "/bundle-dir"
#define DB TMP "/b.db"
#define SPEC PL_SOURCE_DIR "/reports/regression-watch.json"

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

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Environment of one CLI child (NULL fields: inherited). */
struct child_env {
	const char *epoch;   /* SOURCE_DATE_EPOCH */
	const char *tmpdir;  /* TMPDIR */
	const char *gnuplot; /* PERFLEDGER_GNUPLOT */
	const char *err;     /* stderr file, or NULL for /dev/null */
};

static pid_t spawn_cli(const char *const *args, const struct child_env *e)
{
	const char *argv[32];
	size_t n = 0;
	pid_t pid;

	argv[n++] = PL_BIN;
	argv[n++] = "--db";
	argv[n++] = DB;
	for (; *args; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		close(fd);
		fd = open(e && e->err ? e->err : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
		dup2(fd, 2);
		close(fd);
		setenv("LC_ALL", "C.UTF-8", 1);
		setenv("SOURCE_DATE_EPOCH", e && e->epoch ? e->epoch : "1700000000", 1);
		if (e && e->tmpdir)
			setenv("TMPDIR", e->tmpdir, 1);
		if (e && e->gnuplot)
			setenv("PERFLEDGER_GNUPLOT", e->gnuplot, 1);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* Exit code, or 1000 + the signal that ended pid. */
static int wait_cli(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		assert_int_equal(errno, EINTR);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1000 + WTERMSIG(st);
}

static int run_cli(const char *const *args, const struct child_env *e)
{
	return wait_cli(spawn_cli(args, e));
}

static void sh(const char *cmd)
{
	assert_int_equal(system(cmd), 0);
}

/* Entries of dir whose names start with prefix. */
static int count_prefixed(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	closedir(d);
	return n;
}

static void assert_verifies(const char *dir)
{
	const char *args[] = {"verify", dir, NULL};
	struct child_env e = {NULL, NULL, NULL, TMP "/verify.err"};
	int rc = run_cli(args, &e);

	if (rc != 0) {
		char cmd[512];
		snprintf(cmd, sizeof(cmd), "ls -la %s >&2; cat " TMP "/verify.err >&2", dir);
		(void)system(cmd);
		fail_msg("verify '%s' exited %d", dir, rc);
	}
}

static int setup(void **state)
{
	const char *args[] = {"import", PL_SAMPLES_DIR "/engine-upgrade",
	                      PL_SAMPLES_DIR "/procurement-sweep", NULL};
	(void)state;
	sh("rm -rf " TMP " && mkdir -p " TMP);
	return run_cli(args, NULL) == 0 ? 0 : -1;
}

/* One round's render: the language and epoch alternate, so that a
 * directory mixing two renders fails verify. */
static pid_t spawn_render(const char *dir, long k, const char *err)
{
	const char *args[] = {"report", "--spec", SPEC, "--out", dir, "--lang",
	                      k % 2 ? "zh-CN" : "en", NULL};
	struct child_env e = {k % 2 ? "1700000000" : "1800000000", NULL, NULL, err};

	return spawn_cli(args, &e);
}

static void test_kill_during_render(void **state)
{
	const char *dir = TMP "/kill/out";
	long rounds = env_long("PL_BUNDLE_KILLS", 20);
	unsigned seed = 20261130;
	double t0, full;
	(void)state;

	sh("mkdir -p " TMP "/kill");
	t0 = now();
	assert_int_equal(wait_cli(spawn_render(dir, 0, NULL)), 0);
	full = now() - t0;
	assert_verifies(dir);
	for (long k = 1; k <= rounds; k++) {
		double at = full * (double)(rand_r(&seed) % 1000) / 1000.0;
		pid_t pid = spawn_render(dir, k, NULL);
		usleep((useconds_t)(at * 1e6));
		kill(pid, SIGKILL);
		wait_cli(pid);
		print_message("kill %ld at %.3f s of %.3f\n", k, at, full);
		/* the old bundle or the new one, whole: never a mix, never empty */
		assert_verifies(dir);
	}
	/* the next render removes what the killed ones left beside it */
	assert_int_equal(wait_cli(spawn_render(dir, 0, TMP "/kill/last.err")), 0);
	assert_verifies(dir);
	assert_int_equal(count_prefixed(TMP "/kill", ".out.perfledger-tmp-"), 0);
}

static void test_concurrent_renders(void **state)
{
	const char *dirs[] = {TMP "/conc/new", TMP "/conc/old"};
	(void)state;

	sh("mkdir -p " TMP "/conc");
	/* into a new directory, and over an existing bundle */
	assert_int_equal(wait_cli(spawn_render(dirs[1], 1, NULL)), 0);
	for (size_t d = 0; d < 2; d++) {
		pid_t pids[4];
		char errs[4][256];
		for (long k = 0; k < 4; k++) {
			snprintf(errs[k], sizeof(errs[k]), TMP "/conc/%zu-%ld.err", d, k);
			pids[k] = spawn_render(dirs[d], k, errs[k]);
		}
		for (long k = 0; k < 4; k++) {
			int rc = wait_cli(pids[k]);
			if (rc != 0) {
				char cmd[512];
				snprintf(cmd, sizeof(cmd), "cat %s >&2", errs[k]);
				(void)system(cmd);
				fail_msg("render %ld into %s exited %d", k, dirs[d], rc);
			}
		}
		assert_verifies(dirs[d]);
	}
	assert_int_equal(count_prefixed(TMP "/conc", ".new.perfledger-tmp-"), 0);
	assert_int_equal(count_prefixed(TMP "/conc", ".old.perfledger-tmp-"), 0);
}

static void test_verify_signal_cleanup(void **state)
{
	const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	const char *dir = TMP "/sig/b", *tmpdir = TMP "/sig/tmp", *slow = TMP "/sig/slow-gnuplot";
	FILE *f;
	(void)state;

	sh("mkdir -p " TMP "/sig/tmp");
	/* a gnuplot that takes a second: the signal lands inside the re-render */
	f = fopen(slow, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\nsleep 1\nexec gnuplot \"$@\"\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(slow, 0755), 0);
	assert_int_equal(wait_cli(spawn_render(dir, 0, NULL)), 0);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		const char *args[] = {"verify", dir, NULL};
		struct child_env e = {NULL, tmpdir, slow, NULL};
		pid_t pid = spawn_cli(args, &e);
		double t0 = now();
		/* wait until its temporary directory exists */
		while (count_prefixed(tmpdir, "perfledger-verify-") == 0 && now() - t0 < 10)
			usleep(10000);
		assert_int_equal(count_prefixed(tmpdir, "perfledger-verify-"), 1);
		usleep(200000);
		kill(pid, sigs[i]);
		assert_int_equal(wait_cli(pid), 1000 + sigs[i]);
		assert_int_equal(count_prefixed(tmpdir, "perfledger-verify-"), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kill_during_render),
		cmocka_unit_test(test_concurrent_renders),
		cmocka_unit_test(test_verify_signal_cleanup),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
