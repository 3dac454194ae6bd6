/*
 * test_util.c — the util layer: the growable buffer, the safe file reader
 * (a FIFO, a directory, /dev/zero through a symlink, over the cap, empty,
 * missing), mkdir -p and the atomic writer, SOURCE_DATE_EPOCH, and the
 * process spawner (exit status, not found, a timeout, captured output).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/buf.h"
#include "util/clock.h"
#include "util/file.h"
#include "util/fsutil.h"
#include "util/sort.h"
#include "util/spawn.h"
#include "util/utf8.h"

#define TMP PL_TEST_TMP "/util"

static int setup(void **state)
{
	struct pl_error err;
	(void)state;
	pl_error_init(&err);
	return pl_fs_mkdirs(TMP, &err);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* ------------------------------------------------------------------ buf */

static void buf_grows_and_stays_terminated(void **state)
{
	struct pl_buf b;
	char *s;
	size_t n;
	(void)state;

	pl_buf_init(&b);
	assert_string_equal(b.data, "");
	assert_int_equal(b.len, 0);
	assert_int_equal(pl_buf_adds(&b, "abc"), 0);
	assert_int_equal(pl_buf_addc(&b, '-'), 0);
	assert_int_equal(pl_buf_addf(&b, "%d:%s", 42, "x"), 0);
	assert_string_equal(b.data, "abc-42:x");
	assert_int_equal(b.len, 8);
	for (int i = 0; i < 1000; i++)
		pl_buf_addf(&b, "%04d", i);
	assert_int_equal(b.len, 8 + 4000);
	assert_memory_equal(b.data + b.len - 8, "09980999", 8);
	assert_int_equal(b.data[b.len], '\0');
	pl_buf_truncate(&b, 3);
	assert_string_equal(b.data, "abc");
	assert_int_equal(pl_buf_add(&b, "\0z", 2), 0);
	assert_int_equal(b.len, 5);
	assert_memory_equal(b.data, "abc\0z", 6);
	pl_buf_reset(&b);
	assert_string_equal(b.data, "");
	pl_buf_adds(&b, "kept");
	s = pl_buf_detach(&b, &n);
	assert_string_equal(s, "kept");
	assert_int_equal(n, 4);
	assert_string_equal(b.data, "");
	assert_int_equal(b.cap, 0);
	free(s);
	s = pl_buf_detach(&b, &n); /* empty: a fresh "" */
	assert_string_equal(s, "");
	assert_int_equal(n, 0);
	free(s);
	pl_buf_release(&b);
	pl_buf_release(NULL);
}

static void buf_oom_is_sticky(void **state)
{
	struct pl_buf b;
	(void)state;

	pl_buf_init(&b);
	pl_buf_adds(&b, "ab");
	assert_int_equal(pl_buf_grow(&b, SIZE_MAX - 1), PL_ENOMEM);
	assert_int_equal(b.oom, 1);
	assert_string_equal(b.data, "ab"); /* unchanged */
	assert_int_equal(pl_buf_adds(&b, "c"), PL_ENOMEM); /* still reported */
	assert_null(pl_buf_detach(&b, NULL));
	assert_int_equal(b.oom, 0);
	pl_buf_release(&b);
}

/* ----------------------------------------------------------------- file */

static void file_reads_regular_and_empty(void **state)
{
	struct pl_error err;
	char *buf;
	size_t len;
	(void)state;

	pl_error_init(&err);
	write_text(TMP "/a.txt", "hello\n");
	assert_int_equal(pl_file_read(TMP "/a.txt", 100, &buf, &len, &err), 0);
	assert_int_equal(len, 6);
	assert_string_equal(buf, "hello\n");
	free(buf);
	assert_int_equal(pl_file_read(TMP "/a.txt", 6, &buf, &len, &err), 0); /* at the cap */
	free(buf);
	write_text(TMP "/empty.txt", "");
	assert_int_equal(pl_file_read(TMP "/empty.txt", 100, &buf, &len, &err), 0);
	assert_int_equal(len, 0);
	assert_non_null(buf);
	assert_string_equal(buf, "");
	free(buf);
}

static void file_refuses_missing_dir_fifo_and_big(void **state)
{
	struct pl_error err;
	struct pl_file_why why;
	char *buf = (char *)"x";
	size_t len = 7;
	(void)state;

	pl_error_init(&err);
	assert_int_equal(pl_file_read_at(-1, NULL, TMP "/nope", 100, &buf, &len, &why, &err), PL_EIO);
	assert_null(buf);
	assert_int_equal(len, 0);
	assert_int_equal(why.reason, PL_FILE_OPEN);
	assert_int_equal(why.errnum, 2);
	assert_string_equal(err.message, "cannot open '" TMP "/nope': No such file or directory");
	assert_string_equal(err.file, ""); /* not located: the caller does that */

	assert_int_equal(pl_file_read_at(-1, NULL, TMP, 100, &buf, &len, &why, &err), PL_EIO);
	assert_int_equal(why.reason, PL_FILE_DIR);
	assert_string_equal(err.message, "cannot read '" TMP "': Is a directory");

	remove(TMP "/fifo");
	assert_int_equal(mkfifo(TMP "/fifo", 0600), 0);
	assert_int_equal(pl_file_read_at(-1, NULL, TMP "/fifo", 100, &buf, &len, &why, &err), PL_EIO);
	assert_int_equal(why.reason, PL_FILE_NOT_REGULAR);
	assert_string_equal(err.message, "cannot read '" TMP "/fifo': not a regular file (a FIFO)");

	remove(TMP "/zero");
	assert_int_equal(symlink("/dev/zero", TMP "/zero"), 0);
	assert_int_equal(pl_file_read(TMP "/zero", 100, &buf, &len, &err), PL_EIO);
	assert_string_equal(err.message,
	                    "cannot read '" TMP "/zero': not a regular file (a character device)");

	write_text(TMP "/big.txt", "0123456789a");
	assert_int_equal(pl_file_read_at(-1, NULL, TMP "/big.txt", 10, &buf, &len, &why, &err),
	                 PL_EINVALID);
	assert_int_equal(why.reason, PL_FILE_TOO_BIG);
	assert_string_equal(err.message,
	                    "cannot read '" TMP "/big.txt': larger than the cap of 10 bytes");
}

/* The read loop keeps the cap too: a descriptor that never ends. */
static void file_read_fd_stops_at_cap(void **state)
{
	struct pl_error err;
	char *buf;
	size_t len;
	FILE *z = fopen("/dev/zero", "rb");
	(void)state;

	assert_non_null(z);
	pl_error_init(&err);
	assert_int_equal(pl_file_read_fd(fileno(z), "/dev/zero", 0, 100000, &buf, &len, NULL, &err),
	                 PL_EINVALID);
	assert_null(buf);
	assert_string_equal(err.message, "cannot read '/dev/zero': larger than the cap of 100000 bytes");
	fclose(z);
}

/* --------------------------------------------------------------- fsutil */

static int write_hello(FILE *fp, void *ctx, struct pl_error *err)
{
	(void)err;
	fputs(ctx, fp);
	return 0;
}

static int write_fails(FILE *fp, void *ctx, struct pl_error *err)
{
	(void)fp;
	(void)ctx;
	return pl_error_set(err, PL_EINVALID, "no");
}

static void fs_mkdirs_and_atomic_write(void **state)
{
	struct pl_error err;
	char *buf, *p;
	size_t len;
	struct stat st;
	(void)state;

	pl_error_init(&err);
	assert_int_equal(pl_fs_mkdirs(TMP "/d/e/f", &err), 0);
	assert_int_equal(pl_fs_mkdirs(TMP "/d/e/f", &err), 0); /* exists: fine */
	assert_int_equal(stat(TMP "/d/e/f", &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(pl_fs_mkdirs(TMP "/a.txt", &err), PL_EIO);
	assert_string_equal(err.message, "cannot create directory '" TMP "/a.txt': not a directory");

	p = pl_fs_path(TMP "/d", "out.txt");
	assert_string_equal(p, TMP "/d/out.txt");
	remove(TMP "/d/out.txt.tmp");
	assert_int_equal(symlink(TMP "/a.txt", TMP "/d/out.txt.tmp"), 0); /* planted */
	assert_int_equal(pl_fs_write_atomic(p, write_hello, "new\n", &err), 0);
	assert_int_equal(pl_file_read(p, 100, &buf, &len, &err), 0);
	assert_string_equal(buf, "new\n");
	free(buf);
	assert_int_equal(pl_file_read(TMP "/a.txt", 100, &buf, &len, &err), 0);
	assert_string_equal(buf, "hello\n"); /* the link was not followed */
	free(buf);
	assert_int_equal(lstat(TMP "/d/out.txt.tmp", &st), -1);

	assert_int_equal(pl_fs_write_atomic(p, write_fails, NULL, &err), PL_EINVALID);
	assert_string_equal(err.message, "no");
	assert_int_equal(pl_file_read(p, 100, &buf, &len, &err), 0);
	assert_string_equal(buf, "new\n"); /* untouched */
	free(buf);
	assert_int_equal(lstat(TMP "/d/out.txt.tmp", &st), -1);
	free(p);
}

/* ---------------------------------------------------------------- clock */

static void clock_one_rule(void **state)
{
	struct pl_error err;
	long long t = -1;
	int fixed = -1;
	(void)state;

	pl_error_init(&err);
	assert_int_equal(pl_clock_parse_epoch("0", &t, &err), 0);
	assert_int_equal(t, 0);
	assert_int_equal(pl_clock_parse_epoch("253402300799", &t, &err), 0);
	assert_int_equal(t, 253402300799LL);
	assert_int_equal(pl_clock_parse_epoch("253402300800", &t, &err), PL_EUSAGE);
	assert_string_equal(err.message, "SOURCE_DATE_EPOCH must be a whole number of seconds from 0 "
	                                 "to 253402300799, got '253402300800'");
	assert_int_equal(pl_clock_parse_epoch("-1", &t, &err), PL_EUSAGE);
	assert_int_equal(pl_clock_parse_epoch("+5", &t, &err), PL_EUSAGE);
	assert_int_equal(pl_clock_parse_epoch(" 5", &t, &err), PL_EUSAGE);
	assert_int_equal(pl_clock_parse_epoch("5s", &t, &err), PL_EUSAGE);
	assert_int_equal(pl_clock_parse_epoch("99999999999999999999", &t, &err), PL_EUSAGE);

	setenv("SOURCE_DATE_EPOCH", "0", 1);
	assert_int_equal(pl_clock_from_env(&t, &fixed, &err), 0);
	assert_int_equal(t, 0);
	assert_int_equal(fixed, 1);
	setenv("SOURCE_DATE_EPOCH", "", 1);
	assert_int_equal(pl_clock_from_env(&t, &fixed, &err), 0);
	assert_int_equal(fixed, 0);
	assert_true(t >= (long long)time(NULL) - 5);
	unsetenv("SOURCE_DATE_EPOCH");
	assert_int_equal(pl_clock_from_env(&t, NULL, &err), 0);
	assert_true(t >= (long long)time(NULL) - 5);
	setenv("SOURCE_DATE_EPOCH", "yesterday", 1);
	assert_int_equal(pl_clock_from_env(&t, &fixed, &err), PL_EUSAGE);
	assert_int_equal(fixed, 0);
	assert_string_equal(err.message, "SOURCE_DATE_EPOCH must be a whole number of seconds from 0 "
	                                 "to 253402300799, got 'yesterday'");
	unsetenv("SOURCE_DATE_EPOCH");
}

/* ----------------------------------------------------------------- utf8 */

static void utf8_rules(void **state)
{
	unsigned long cp = 0;
	(void)state;
	assert_int_equal(pl_utf8_valid_prefix("ab\xc3\xa9", 4), 4);
	assert_int_equal(pl_utf8_valid_prefix("ab\xc0\xaf", 4), 2); /* overlong */
	assert_int_equal(pl_utf8_valid_prefix("a\xed\xa0\x80", 4), 1); /* surrogate */
	assert_int_equal(pl_utf8_decode("\xe2\x82\xac", 3, &cp), 3);
	assert_int_equal(cp, 0x20AC);
	assert_int_equal(pl_utf8_decode("\xe2\x82", 2, &cp), 0);
	assert_true(pl_cp_is_control(0x202E));
	assert_true(pl_cp_is_control('\n'));
	assert_false(pl_cp_is_control('a'));
	{
		/* the one terminal rule: each class, and what passes */
		static const struct {
			const char *s;
			size_t len;
			int inert;
		} c[] = {
			{"\x1b", 1, 1},         {"\t", 1, 1},           {"\n", 1, 1},
			{"\x7f", 1, 1},         {"\xc2\x9b", 2, 1},     {"\x9b", 1, 1},
			{"\xe2\x80\xae", 3, 1}, {"\xe2\x81\xa6", 3, 1}, {"\xe2\x80\x8f", 3, 1},
			{"\xff", 1, 1},         {"\xc0\xaf", 1, 1},     {"a", 1, 0},
			{"\xe4\xb8\xad", 3, 0}, {"\xe2\x80\xa6", 3, 0},
		};
		for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			int inert = -1;
			assert_int_equal(pl_utf8_inert_step(c[i].s, strlen(c[i].s), &cp, &inert), c[i].len);
			assert_int_equal(inert, c[i].inert);
		}
	}
}

/* ---------------------------------------------------------------- spawn */

/* PATH search skips empty and relative entries; the timeout setting is
 * checked (issue 12). */
static void spawn_find_and_timeout(void **state)
{
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL, *p;
	unsigned secs = 0;
	struct pl_error err;
	(void)state;
	setenv("PATH", ".::bin:/nonexistent:/bin", 1);
	p = pl_spawn_find("sh");
	assert_non_null(p);
	assert_string_equal(p, "/bin/sh");
	free(p);
	setenv("PATH", ".::bin", 1);
	assert_null(pl_spawn_find("sh")); /* only relative entries: nothing */
	p = pl_spawn_find("./x"); /* a name with '/' is used as it is */
	assert_string_equal(p, "./x");
	free(p);
	if (old)
		setenv("PATH", old, 1);
	free(old);

	pl_error_init(&err);
	unsetenv("PERFLEDGER_CHILD_TIMEOUT");
	assert_int_equal(pl_spawn_timeout_setting(&secs, &err), 0);
	assert_int_equal(secs, 120);
	setenv("PERFLEDGER_CHILD_TIMEOUT", "7", 1);
	assert_int_equal(pl_spawn_timeout_setting(&secs, &err), 0);
	assert_int_equal(secs, 7);
	setenv("PERFLEDGER_CHILD_TIMEOUT", "0", 1);
	assert_int_equal(pl_spawn_timeout_setting(&secs, &err), PL_EUSAGE);
	assert_string_equal(err.message,
	                    "PERFLEDGER_CHILD_TIMEOUT must be whole seconds from 1 to 86400, not '0'");
	setenv("PERFLEDGER_CHILD_TIMEOUT", "5s", 1);
	assert_int_equal(pl_spawn_timeout_setting(&secs, &err), PL_EUSAGE);
	unsetenv("PERFLEDGER_CHILD_TIMEOUT");
}

static void spawn_exit_status(void **state)
{
	const char *t[] = {"/bin/true", NULL}, *f[] = {"/bin/false", NULL};
	struct pl_spawn_opts o = {0};
	struct pl_error err;
	enum pl_spawn_end end = PL_SPAWN_FAILED;
	(void)state;

	pl_error_init(&err);
	o.argv = t;
	o.timeout_s = 10;
	assert_int_equal(pl_spawn_run(&o, &end, NULL, &err), 0);
	assert_int_equal(end, PL_SPAWN_EXITED);
	o.argv = f;
	assert_int_equal(pl_spawn_run(&o, &end, NULL, &err), 1);
	assert_int_equal(end, PL_SPAWN_EXITED);
}

static void spawn_not_found_and_no_dir(void **state)
{
	const char *nf[] = {"perfledger-no-such-program", NULL}, *t[] = {"/bin/true", NULL};
	struct pl_spawn_opts o = {0};
	struct pl_error err;
	enum pl_spawn_end end;
	int detail = 0;
	(void)state;

	pl_error_init(&err);
	o.argv = nf;
	assert_int_equal(pl_spawn_run(&o, &end, &detail, &err), PL_ETOOL);
	assert_int_equal(end, PL_SPAWN_NOT_FOUND);
	assert_int_equal(detail, 2);
	assert_string_equal(err.message,
	                    "cannot run 'perfledger-no-such-program': No such file or directory");
	o.argv = t;
	o.dir = TMP "/no-such-dir";
	assert_int_equal(pl_spawn_run(&o, &end, NULL, &err), PL_ETOOL);
	assert_int_equal(end, PL_SPAWN_NO_DIR);
	assert_string_equal(err.message,
	                    "cannot enter directory '" TMP "/no-such-dir': No such file or directory");
}

static void spawn_timeout_kills(void **state)
{
	const char *s[] = {"/bin/sh", "-c", "sleep 5", NULL};
	struct pl_spawn_opts o = {0};
	struct pl_buf out;
	struct pl_error err;
	enum pl_spawn_end end;
	int detail = 0;
	time_t t0 = time(NULL);
	(void)state;

	pl_error_init(&err);
	pl_buf_init(&out);
	o.argv = s;
	o.out = &out; /* a pipe held by the grandchild must not keep us waiting */
	o.timeout_s = 1;
	assert_int_equal(pl_spawn_run(&o, &end, &detail, &err), PL_ETOOL);
	assert_int_equal(end, PL_SPAWN_TIMED_OUT);
	assert_int_equal(detail, 1);
	assert_string_equal(err.message, "'/bin/sh' timed out after 1 s");
	assert_true(time(NULL) - t0 <= 3);
	pl_buf_release(&out);
}

static void spawn_signal(void **state)
{
	const char *s[] = {"/bin/sh", "-c", "kill -9 $$", NULL};
	struct pl_spawn_opts o = {0};
	struct pl_error err;
	enum pl_spawn_end end;
	int detail = 0;
	(void)state;

	pl_error_init(&err);
	o.argv = s;
	assert_int_equal(pl_spawn_run(&o, &end, &detail, &err), PL_ETOOL);
	assert_int_equal(end, PL_SPAWN_SIGNALED);
	assert_int_equal(detail, 9);
	assert_string_equal(err.message, "'/bin/sh' was killed by signal 9");
}

static void spawn_captures_output(void **state)
{
	const char *s[] = {"/bin/sh", "-c", "echo out; echo err >&2; pwd; exit 3", NULL};
	const char *big[] = {"/bin/sh", "-c", "i=0; while [ $i -lt 2000 ]; do echo 0123456789; "
	                                      "i=$((i+1)); done",
	                     NULL};
	struct pl_spawn_opts o = {0};
	struct pl_buf out, errb;
	struct pl_error err;
	(void)state;

	pl_error_init(&err);
	pl_buf_init(&out);
	pl_buf_init(&errb);
	o.argv = s;
	o.dir = "/";
	o.out = &out;
	o.errout = &errb;
	o.timeout_s = 10;
	assert_int_equal(pl_spawn_run(&o, NULL, NULL, &err), 3);
	assert_string_equal(out.data, "out\n/\n");
	assert_string_equal(errb.data, "err\n");
	pl_buf_reset(&out);
	o.errout = &out; /* both into one */
	assert_int_equal(pl_spawn_run(&o, NULL, NULL, &err), 3);
	assert_string_equal(out.data, "out\nerr\n/\n");
	pl_buf_reset(&out);
	o.argv = big; /* 22000 bytes, 100 kept, the rest drained */
	o.errout = NULL;
	o.max_capture = 100;
	assert_int_equal(pl_spawn_run(&o, NULL, NULL, &err), 0);
	assert_int_equal(out.len, 100);
	assert_memory_equal(out.data, "0123456789\n0123456789\n", 22);
	pl_buf_release(&out);
	pl_buf_release(&errb);
}


/* pl_select_doubles: every wanted index holds what qsort puts there, on
 * random data with many duplicates, on sorted and reverse-sorted input,
 * on all-equal input, with indices at both ends, repeated and unsorted;
 * an index past the end is refused with v untouched. */
static void select_doubles_as_qsort(void **state)
{
	(void)state;
	uint64_t x = 2463534242ull;
	const size_t n = 20000;
	double *v = malloc(n * sizeof(*v)), *w = malloc(n * sizeof(*w));
	assert_non_null(v);
	assert_non_null(w);
	for (int shape = 0; shape < 4; shape++) {
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			v[i] = shape == 0 ? (double)(x % 997) * 0.001 - 0.3
			     : shape == 1 ? (double)i : shape == 2 ? (double)(n - i) : 1.5;
			w[i] = v[i];
		}
		qsort(w, n, sizeof(*w), pl_cmp_double);
		size_t ks[] = {19999, 0, 10000, 9999, 17998, 17999, 10000, 19979, 19980, 1, 500};
		size_t nk = sizeof(ks) / sizeof(ks[0]);
		size_t want[sizeof(ks) / sizeof(ks[0])];
		memcpy(want, ks, sizeof(ks));
		assert_int_equal(pl_select_doubles(v, n, ks, nk), 0);
		for (size_t j = 0; j < nk; j++)
			assert_true(v[want[j]] == w[want[j]]);
	}
	size_t bad[] = {3, n};
	v[0] = 7;
	v[1] = 2;
	assert_int_equal(pl_select_doubles(v, 2, bad, 2), -1);
	assert_true(v[0] == 7 && v[1] == 2);
	free(v);
	free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buf_grows_and_stays_terminated),
		cmocka_unit_test(select_doubles_as_qsort),
		cmocka_unit_test(buf_oom_is_sticky),
		cmocka_unit_test(file_reads_regular_and_empty),
		cmocka_unit_test(file_refuses_missing_dir_fifo_and_big),
		cmocka_unit_test(file_read_fd_stops_at_cap),
		cmocka_unit_test(fs_mkdirs_and_atomic_write),
		cmocka_unit_test(clock_one_rule),
		cmocka_unit_test(utf8_rules),
		cmocka_unit_test(spawn_find_and_timeout),
		cmocka_unit_test(spawn_exit_status),
		cmocka_unit_test(spawn_not_found_and_no_dir),
		cmocka_unit_test(spawn_timeout_kills),
		cmocka_unit_test(spawn_signal),
		cmocka_unit_test(spawn_captures_output),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
