/*
 * test_import.c — the import pipeline against a real SQLite store: hashing,
 * duplicates, sidecars and --set, strict batches, directory walks, and the
 * vllm_serving corpus read in place.
 *
 * Input files are written under PL_TEST_TMP/import/; corpus files are read
 * where they are and never copied.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/adapters.h"
#include "core/error.h"
#include "core/hash.h"
#include "import/import.h"
#include "core/model.h"
#include "store/db.h"

#include "shared_fixture.h"

#define TMP PL_TEST_TMP "/import"

/* What the callback saw. */
struct seen {
	size_t n;
	char path[16][1024];
	enum pl_import_status status[16];
	size_t runs[16];
	size_t refonly[16];
	char message[16][512];
	char warnings[16][512];
};

static void on_file(void *ctx, const char *path, enum pl_import_status status, size_t runs,
                    size_t reference_only, const char *warnings, const struct pl_error *err)
{
	struct seen *s = ctx;

	assert_true(s->n < 16);
	snprintf(s->path[s->n], sizeof(s->path[0]), "%s", path);
	s->status[s->n] = status;
	s->runs[s->n] = runs;
	s->refonly[s->n] = reference_only;
	snprintf(s->warnings[s->n], sizeof(s->warnings[0]), "%s", warnings ? warnings : "");
	if (status == PL_IMPORT_REJECTED) {
		assert_non_null(err);
		snprintf(s->message[s->n], sizeof(s->message[0]), "%s", err->message);
	} else {
		assert_null(err);
		s->message[s->n][0] = '\0';
	}
	s->n++;
}

static void mkdirs(const char *path)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	mkdir(buf, 0755);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	assert_int_equal(fclose(f), 0);
}

/* A fresh database at TMP/name.db. */
static struct pl_store *fresh_store(const char *name)
{
	char path[1024];
	struct pl_store *st = NULL;
	struct pl_error err;

	mkdirs(TMP);
	snprintf(path, sizeof(path), "%s/%s.db", TMP, name);
	unlink(path);
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "-wal");
	unlink(path);
	path[strlen(path) - 4] = '\0';
	pl_error_init(&err);
	assert_int_equal(pl_store_open(path, &st, &err), 0);
	return st;
}

static long long count_runs(struct pl_store *st)
{
	long long n = -1;
	struct pl_error err;

	assert_int_equal(pl_store_count_runs(st, &n, &err), 0);
	return n;
}

static const char good_desc[] =
	"{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\", \"hardware\": \"1x A100\",\n"
	" \"metric\": {\"ttft_p50\": 0.3}}\n";

static void test_sha256(void **state)
{
	char hex[65];

	(void)state;
	assert_int_equal(pl_sha256_hex("abc", 3, hex), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(pl_sha256_hex("", 0, hex), 0);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void test_duplicates_stored_once(void **state)
{
	struct pl_store *st = fresh_store("dup");
	struct pl_import_stats stats;
	struct pl_error err;
	struct seen s = {0};
	const char *paths[] = {TMP "/dup/a.json", TMP "/dup/b.json"};
	struct pl_run_list l = {0};
	char hex[65];

	(void)state;
	mkdirs(TMP "/dup");
	write_file(paths[0], good_desc);
	write_file(paths[1], good_desc);
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 2, NULL, on_file, &s, &stats, &err), 0);
	assert_int_equal(stats.files, 2);
	assert_int_equal(stats.stored, 1);
	assert_int_equal(stats.duplicates, 1);
	assert_int_equal(stats.rejected, 0);
	assert_int_equal(stats.runs, 1);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.status[0], PL_IMPORT_STORED);
	assert_int_equal(s.runs[0], 1);
	assert_int_equal(s.refonly[0], 1);
	assert_int_equal(s.status[1], PL_IMPORT_DUPLICATE);
	assert_int_equal(count_runs(st), 1);
	/* the stored run carries the file's hash and source */
	assert_int_equal(pl_store_query(st, NULL, 0, &l, &err), 0);
	assert_int_equal(l.n, 1);
	pl_sha256_hex(good_desc, strlen(good_desc), hex);
	assert_string_equal(l.v[0].sha256, hex);
	assert_string_equal(l.v[0].source, paths[0]);
	assert_string_equal(l.v[0].cond[PL_C_PRECISION].text, "bfloat16");
	pl_run_list_release(&l);
	/* again: a duplicate, nothing new */
	s.n = 0;
	assert_int_equal(pl_import_paths(st, paths, 1, NULL, on_file, &s, &stats, &err), 0);
	assert_int_equal(stats.duplicates, 1);
	assert_int_equal(count_runs(st), 1);
	pl_store_close(st);
}

/* A device or FIFO named explicitly never ends: rejected, not read. */
static void test_non_regular_file(void **state)
{
	struct pl_store *st = fresh_store("nonreg");
	struct pl_import_stats stats;
	struct pl_error err;
	struct seen s = {0};
	const char *paths[] = {"/dev/zero"};

	(void)state;
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 1, NULL, on_file, &s, &stats, &err), PL_EIO);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.status[0], PL_IMPORT_REJECTED);
	assert_string_equal(s.message[0],
	                    "cannot read '/dev/zero': not a regular file (a FIFO, device or socket); "
	                    "import a file, a directory, or - for standard input");
	assert_int_equal(count_runs(st), 0);
	pl_store_close(st);
}

/* A sidecar that is a FIFO (open() would wait for a writer, read() for
 * ever) or a device is refused, named, without reading it; the file and
 * the directory walk both go through the same check. */
static void test_non_regular_sidecar(void **state)
{
	struct pl_store *st = fresh_store("nonregside");
	struct pl_import_stats stats;
	struct pl_error err;
	struct seen s = {0};
	const char *paths[] = {TMP "/nonregside/a.json", TMP "/nonregside/b.json"};

	(void)state;
	mkdirs(TMP "/nonregside");
	write_file(paths[0], good_desc);
	write_file(paths[1], good_desc);
	remove(TMP "/nonregside/a.conditions.json");
	remove(TMP "/nonregside/b.conditions.json");
	assert_int_equal(mkfifo(TMP "/nonregside/a.conditions.json", 0600), 0);
	assert_int_equal(symlink("/dev/zero", TMP "/nonregside/b.conditions.json"), 0);
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 2, NULL, on_file, &s, &stats, &err), PL_EIO);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.status[0], PL_IMPORT_REJECTED);
	assert_string_equal(s.message[0],
	                    "cannot read sidecar '" TMP "/nonregside/a.conditions.json': not a regular "
	                    "file (a directory, FIFO, device or socket)");
	assert_int_equal(s.status[1], PL_IMPORT_REJECTED);
	assert_string_equal(s.message[1],
	                    "cannot read sidecar '" TMP "/nonregside/b.conditions.json': not a regular "
	                    "file (a directory, FIFO, device or socket)");
	assert_int_equal(count_runs(st), 0);
	pl_store_close(st);
}

/* Copies corpus file rel to dst; skips the test (saying so) without the corpus. */
static int copy_corpus(const char *rel, const char *dst)
{
	char src[1024], buf[65536];
	FILE *in, *out;
	size_t n;

	snprintf(src, sizeof(src), "%s/%s", PL_CORPUS_DIR, rel);
	need_shared(src);
	if (!(in = fopen(src, "rb")))
		fail_msg("cannot open %s", src);
	out = fopen(dst, "wb");
	assert_non_null(out);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	assert_int_equal(fclose(out), 0);
	return 0;
}

/* The importer reads the sidecar of every input extension, not only
 * .json: NAME.conditions.json beside an MLPerf NAME.txt gives the
 * conditions the summary lacks (the adapter opens no file). */
static void test_txt_sidecar(void **state)
{
	struct pl_store *st = (need_shared(PL_CORPUS_DIR "/mlperf/v41_nvidia_h200x8_llama2-70b_server_summary.txt"), fresh_store("txtside"));
	struct pl_import_stats stats;
	struct pl_run_list got = {0};
	struct pl_error err;
	struct seen s = {0};
	const char *paths[] = {TMP "/txtside/server.txt"};
	char *buf, sha[65];
	size_t len = 0;
	FILE *f;

	(void)state;
	mkdirs(TMP "/txtside");
	if (copy_corpus("mlperf/v41_nvidia_h200x8_llama2-70b_server_summary.txt", paths[0])) {
		pl_store_close(st);
		skip();
	}
	write_file(TMP "/txtside/server.conditions.json",
	           "{\"model\": \"llama2-70b\", \"precision\": \"fp8\", \"engine\": \"trt-llm\","
	           " \"hardware\": \"8x H200\"}");
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 1, NULL, on_file, &s, &stats, &err), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.status[0], PL_IMPORT_STORED);
	assert_int_equal(s.runs[0], 1);
	/* the stored run carries the sidecar's values */
	f = fopen(paths[0], "rb");
	assert_non_null(f);
	buf = malloc(1 << 20);
	assert_non_null(buf);
	len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	assert_int_equal(pl_sha256_hex(buf, len, sha), 0);
	free(buf);
	assert_int_equal(pl_store_query_source(st, sha, &got, &err), 0);
	assert_int_equal(got.n, 1);
	assert_string_equal(got.v[0].cond[PL_C_HARDWARE].text, "8x H200");
	assert_string_equal(got.v[0].cond[PL_C_ENGINE].text, "trt-llm");
	assert_string_equal(got.v[0].cond[PL_C_REQUEST_RATE].text, "101"); /* target_qps, from the file */
	pl_run_list_release(&got);
	pl_store_close(st);
}

/* A FIFO named NAME.conditions.json beside an MLPerf summary NAME.txt is
 * refused as not a regular file, without opening it for reading (which
 * would wait for a writer for ever: the alarm fails the test instead). */
static void test_txt_fifo_sidecar(void **state)
{
	struct pl_store *st = (need_shared(PL_CORPUS_DIR "/mlperf/v41_nvidia_h200x8_llama2-70b_server_summary.txt"), fresh_store("txtfifo"));
	struct pl_import_stats stats;
	struct pl_error err;
	struct seen s = {0};
	const char *paths[] = {TMP "/txtfifo/server.txt"};

	(void)state;
	mkdirs(TMP "/txtfifo");
	if (copy_corpus("mlperf/v41_nvidia_h200x8_llama2-70b_server_summary.txt", paths[0])) {
		pl_store_close(st);
		skip();
	}
	remove(TMP "/txtfifo/server.conditions.json");
	assert_int_equal(mkfifo(TMP "/txtfifo/server.conditions.json", 0600), 0);
	alarm(30);
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 1, NULL, on_file, &s, &stats, &err), PL_EIO);
	alarm(0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.status[0], PL_IMPORT_REJECTED);
	assert_string_equal(s.message[0],
	                    "cannot read sidecar '" TMP "/txtfifo/server.conditions.json': not a "
	                    "regular file (a directory, FIFO, device or socket)");
	assert_int_equal(count_runs(st), 0);
	remove(TMP "/txtfifo/server.conditions.json");
	pl_store_close(st);
}

/* An INT condition beyond 2^53 would be rounded silently: rejected. */
static void test_int_beyond_2_53(void **state)
{
	struct pl_store *st = fresh_store("big");
	struct pl_import_stats stats;
	struct pl_error err;
	struct seen s = {0};
	const char *paths[] = {TMP "/big/big.json"};

	(void)state;
	mkdirs(TMP "/big");
	write_file(paths[0], "{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\","
	                     " \"hardware\": \"h\", \"input_tokens\": 9007199254740993,"
	                     " \"metric\": {\"ttft_p50\": 0.3}}");
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 1, NULL, on_file, &s, &stats, &err), PL_EINVALID);
	assert_string_equal(s.message[0], "'input_tokens' is 2^53 (9007199254740992) or more; "
	                                  "integers that large cannot be kept exact");
	assert_int_equal(count_runs(st), 0);
	/* 2^53 - 1 is exact and kept */
	write_file(paths[0], "{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\","
	                     " \"hardware\": \"h\", \"input_tokens\": 9007199254740991,"
	                     " \"metric\": {\"ttft_p50\": 0.3}}");
	assert_int_equal(pl_import_paths(st, paths, 1, NULL, NULL, NULL, &stats, &err), 0);
	assert_int_equal(count_runs(st), 1);
	pl_store_close(st);
}

/* The adapters' and validator's notes reach the callback of a stored file,
 * and the counts are of what was inserted. */
static void test_warnings_and_counts(void **state)
{
	struct pl_store *st = fresh_store("warn");
	struct pl_import_stats stats;
	struct pl_error err;
	struct seen s = {0};
	const char *paths[] = {TMP "/warn/a.json", TMP "/warn/a-again.json"};

	(void)state;
	mkdirs(TMP "/warn");
	write_file(paths[0], "{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\","
	                     " \"hardware\": \"h\", \"metric\": {\"ttft_p50\": 0.3, \"ttft_p95\": 0}}");
	write_file(paths[1], "{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\","
	                     " \"hardware\": \"h\", \"metric\": {\"ttft_p50\": 0.3, \"ttft_p95\": 0}}");
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 2, NULL, on_file, &s, &stats, &err), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.status[0], PL_IMPORT_STORED);
	assert_non_null(strstr(s.warnings[0], "of exactly 0 stored as missing"));
	assert_int_equal(s.status[1], PL_IMPORT_DUPLICATE);
	assert_string_equal(s.warnings[1], "");
	assert_int_equal(stats.stored, 1);
	assert_int_equal(stats.runs, 1);
	assert_int_equal(stats.duplicates, 1);
	pl_store_close(st);
}

static void test_missing_required(void **state)
{
	struct pl_store *st = fresh_store("req");
	struct pl_import_stats stats;
	struct pl_error err;
	struct seen s = {0};
	const char *paths[] = {TMP "/req/noprec.json"};

	(void)state;
	mkdirs(TMP "/req");
	write_file(paths[0], "{\"model\": \"m\", \"engine\": \"vllm\", \"hardware\": \"h\","
	                     " \"metric\": {\"ttft_p50\": 0.3}}");
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 1, NULL, on_file, &s, &stats, &err), PL_EINVALID);
	assert_string_equal(err.message,
	                    "missing required condition 'precision' (give it in the file, a sidecar "
	                    "NAME.conditions.json or --set precision=...)");
	assert_string_equal(err.field, "precision");
	assert_string_equal(err.file, paths[0]);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.status[0], PL_IMPORT_REJECTED);
	assert_string_equal(s.message[0], err.message);
	assert_int_equal(stats.rejected, 1);
	assert_int_equal(count_runs(st), 0);
	pl_store_close(st);
}

static void test_sidecar_and_set(void **state)
{
	struct pl_store *st = fresh_store("side");
	struct pl_import_opts opts = {0};
	struct pl_import_stats stats;
	struct pl_error err;
	struct pl_run_list l = {0};
	const char *paths[] = {TMP "/side/run.jsonl"};
	const struct pl_kv set[] = {{"engine", "vLLM"}, {"warmup_requests", "3"}};

	(void)state;
	mkdirs(TMP "/side");
	write_file(paths[0], "{\"model\": \"m\", \"engine\": \"sglang\", \"precision\": \"fp8\","
	                     " \"metric\": {\"ttft_p50\": 0.3}}\n"
	                     "{\"model\": \"m\", \"engine\": \"sglang\", \"metric\": {\"ttft_p50\": 0.4}}\n");
	write_file(TMP "/side/run.conditions.json",
	           "{\"precision\": \"bf16\", \"hardware\": \"2x H100\", \"engine\": \"trtllm\"}");
	opts.set = set;
	opts.nset = 2;
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 1, &opts, NULL, NULL, &stats, &err), 0);
	assert_int_equal(stats.runs, 2);
	assert_int_equal(pl_store_query(st, NULL, 0, &l, &err), 0);
	assert_int_equal(l.n, 2);
	for (size_t i = 0; i < 2; i++) {
		assert_string_equal(l.v[i].cond[PL_C_PRECISION].text, "bfloat16"); /* sidecar wins */
		assert_string_equal(l.v[i].cond[PL_C_ENGINE].text, "vllm");        /* --set wins */
		assert_string_equal(l.v[i].cond[PL_C_HARDWARE].text, "2x H100");
		assert_true(l.v[i].cond[PL_C_ACCELERATOR_COUNT].num == 2);
		assert_true(l.v[i].cond[PL_C_WARMUP_REQUESTS].num == 3);
		assert_int_equal(l.v[i].record, (long)i);
	}
	pl_run_list_release(&l);
	pl_store_close(st);
}

/* A JSONL file over PL_IMPORT_STREAM_MIN is streamed from the one
 * descriptor the import opened: both passes (the sha256 and the records)
 * read it from its start, and its sidecar applies to every record. */
static void test_streamed_jsonl_one_open(void **state)
{
	struct pl_store *st = fresh_store("stream");
	struct pl_import_opts opts = {0};
	struct pl_import_stats stats;
	struct pl_error err;
	struct pl_run_list l = {0};
	const char *paths[] = {TMP "/stream/big.jsonl"};
	const char *line = "{\"model\": \"m\", \"engine\": \"sglang\", \"precision\": \"fp8\","
	                   " \"metric\": {\"ttft_p50\": 0.3}}\n";
	size_t n = PL_IMPORT_STREAM_MIN / strlen(line) + 2, len = n * strlen(line);
	char *all = malloc(len + 1), hex[65];
	FILE *f;

	(void)state;
	assert_non_null(all);
	for (size_t i = 0; i < n; i++)
		memcpy(all + i * strlen(line), line, strlen(line));
	all[len] = '\0';
	mkdirs(TMP "/stream");
	f = fopen(paths[0], "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(all, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	write_file(TMP "/stream/big.conditions.json", "{\"hardware\": \"2x H100\"}");
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 1, &opts, NULL, NULL, &stats, &err), 0);
	assert_int_equal(stats.runs, n);
	assert_int_equal(pl_store_query(st, NULL, 0, &l, &err), 0);
	assert_int_equal(l.n, n);
	assert_int_equal(pl_sha256_hex(all, len, hex), 0);
	assert_string_equal(l.v[0].sha256, hex);
	assert_string_equal(l.v[n - 1].sha256, hex);
	assert_string_equal(l.v[n - 1].cond[PL_C_HARDWARE].text, "2x H100");
	assert_int_equal(l.v[n - 1].record, (long)(n - 1));
	pl_run_list_release(&l);
	free(all);
	pl_store_close(st);
}

/* JSONL on standard input larger than the whole-file cap is streamed like
 * a file, in bounded memory, not refused with "split it or use JSONL"
 * (issue 12). Most of its bytes are blank lines, which JSONL skips. */
static void test_stdin_jsonl_beyond_cap(void **state)
{
	struct pl_store *st = fresh_store("stdin-big");
	struct pl_import_opts opts = {0};
	struct pl_import_stats stats;
	struct pl_error err;
	struct rusage ru;
	const char *paths[] = {"-"};
	const char *line = "{\"model\": \"m\", \"engine\": \"sglang\", \"precision\": \"fp8\","
	                   " \"hardware\": \"1x H100\", \"metric\": {\"ttft_p50\": 0.3}}\n";
	size_t blank = (size_t)1 << 20, written = 0;
	char *spaces = malloc(blank);
	int fd, saved;
	FILE *f;

	(void)state;
	assert_non_null(spaces);
	memset(spaces, ' ', blank - 1);
	spaces[blank - 1] = '\n';
	mkdirs(TMP "/stdin");
	f = fopen(TMP "/stdin/big.jsonl", "wb");
	assert_non_null(f);
	fputs(line, f);
	while (written <= PL_IMPORT_WHOLE_MAX) {
		assert_int_equal(fwrite(spaces, 1, blank, f), blank);
		written += blank;
	}
	fputs(line, f);
	assert_int_equal(fclose(f), 0);
	free(spaces);
	fd = open(TMP "/stdin/big.jsonl", O_RDONLY);
	assert_true(fd >= 0);
	saved = dup(STDIN_FILENO);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 1, &opts, NULL, NULL, &stats, &err), 0);
	dup2(saved, STDIN_FILENO);
	close(saved);
	unlink(TMP "/stdin/big.jsonl");
	assert_int_equal(stats.runs, 2);
	assert_int_equal(stats.rejected, 0);
	assert_int_equal(getrusage(RUSAGE_SELF, &ru), 0);
/* ASan's quarantine keeps freed memory, TSan's shadow memory adds to it */
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
	assert_true(ru.ru_maxrss < 128 * 1024); /* KiB: far below the 256 MiB input */
#endif
	pl_store_close(st);
}

static void test_strict_stores_nothing(void **state)
{
	struct pl_store *st = fresh_store("strict");
	struct pl_import_opts opts = {0};
	struct pl_import_stats stats;
	struct pl_error err;
	struct seen s = {0};
	const char *paths[] = {TMP "/strict"};

	(void)state;
	mkdirs(TMP "/strict");
	write_file(TMP "/strict/a_good.json", good_desc);
	write_file(TMP "/strict/b_bad.json",
	           "{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\", \"hardware\": \"h\","
	           " \"metric\": {\"error_rate\": 1.5}}");
	write_file(TMP "/strict/c_good.json",
	           "{\"model\": \"n\", \"precision\": \"bf16\", \"engine\": \"vllm\", \"hardware\": \"h\","
	           " \"metric\": {\"ttft_p50\": 0.2}}");
	opts.strict = 1;
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 1, &opts, on_file, &s, &stats, &err), PL_EINVALID);
	assert_string_equal(err.message, "metric 'error_rate' must be a fraction from 0 to 1, got 1.5");
	assert_int_equal(count_runs(st), 0);
	assert_int_equal(stats.files, 3);
	assert_int_equal(stats.rejected, 1);
	assert_int_equal(stats.stored, 0);
	assert_int_equal(stats.runs, 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.path[0], TMP "/strict/a_good.json");
	assert_int_equal(s.status[0], PL_IMPORT_REJECTED);
	assert_string_equal(s.message[0], "not stored: another file of the strict batch was rejected");
	assert_int_equal(s.status[1], PL_IMPORT_REJECTED);
	assert_string_equal(s.message[1], err.message);
	assert_int_equal(s.status[2], PL_IMPORT_REJECTED);
	/* without strict the good files are stored */
	opts.strict = 0;
	s.n = 0;
	assert_int_equal(pl_import_paths(st, paths, 1, &opts, on_file, &s, &stats, &err), PL_EINVALID);
	assert_int_equal(count_runs(st), 2);
	assert_int_equal(stats.stored, 2);
	assert_int_equal(s.status[0], PL_IMPORT_STORED);
	assert_int_equal(s.status[2], PL_IMPORT_STORED);
	/* strict with all good files commits */
	pl_store_close(st);
	st = fresh_store("strict");
	unlink(TMP "/strict/b_bad.json");
	opts.strict = 1;
	assert_int_equal(pl_import_paths(st, paths, 1, &opts, NULL, NULL, &stats, &err), 0);
	assert_int_equal(count_runs(st), 2);
	pl_store_close(st);
}

static void test_missing_path_and_walk(void **state)
{
	struct pl_store *st = fresh_store("walk");
	struct pl_import_stats stats;
	struct pl_error err;
	struct seen s = {0};
	const char *paths[] = {TMP "/nope.json", TMP "/walk"};

	(void)state;
	mkdirs(TMP "/walk/sub");
	write_file(TMP "/walk/b.json", good_desc);
	write_file(TMP "/walk/a.jsonl", "{\"model\": \"x\", \"precision\": \"bf16\", \"engine\": \"e\","
	                                " \"hardware\": \"h\", \"metric\": {\"ttft_p50\": 1}}\n");
	write_file(TMP "/walk/a.conditions.json", "{\"hardware\": \"1x L4\"}");
	write_file(TMP "/walk/notes.txt", "not json");
	write_file(TMP "/walk/.hidden.json", "{");
	write_file(TMP "/walk/sub/c.json", "{\"model\": \"c\", \"engine\": \"e\", \"metric\": {\"ttft_p50\": 1},"
	                                   " \"precision\": \"fp8\", \"hardware\": \"h\"}");
	unlink(TMP "/walk/loop");
	assert_int_equal(symlink(".", TMP "/walk/loop"), 0);
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 2, NULL, on_file, &s, &stats, &err), PL_EIO);
	assert_string_equal(err.message,
	                    "cannot open '" TMP "/nope.json': No such file or directory");
	assert_string_equal(err.file, TMP "/nope.json");
	assert_int_equal(s.n, 5);
	assert_int_equal(s.status[0], PL_IMPORT_REJECTED);
	assert_string_equal(s.message[0], err.message);
	assert_string_equal(s.path[1], TMP "/walk/a.jsonl");
	assert_string_equal(s.path[2], TMP "/walk/b.json");
	/* .txt is walked (MLPerf summaries); this one is named with its reason */
	assert_string_equal(s.path[3], TMP "/walk/notes.txt");
	assert_int_equal(s.status[3], PL_IMPORT_REJECTED);
	assert_string_equal(s.path[4], TMP "/walk/sub/c.json");
	assert_int_equal(s.status[1], PL_IMPORT_STORED);
	assert_int_equal(s.status[2], PL_IMPORT_STORED);
	assert_int_equal(s.status[4], PL_IMPORT_STORED);
	assert_int_equal(stats.files, 5);
	assert_int_equal(stats.rejected, 2);
	assert_int_equal(stats.stored, 3);
	assert_int_equal(count_runs(st), 3);
	pl_store_close(st);
}

static void test_check_set(void **state)
{
	struct pl_error err;
	const struct pl_kv bad_key[] = {{"gpu", "a100"}};
	const struct pl_kv bad_val[] = {{"concurrency", "many"}};
	const struct pl_kv good[] = {{"concurrency", "inf"}, {"engine_version", "0.10"}};

	(void)state;
	pl_error_init(&err);
	assert_int_equal(pl_import_check_set(good, 2, &err), 0);
	assert_int_equal(pl_import_check_set(bad_key, 1, &err), PL_EUSAGE);
	assert_string_equal(err.message,
	                    "unknown condition 'gpu' in --set (see schema/descriptor.md for the names)");
	pl_error_init(&err);
	assert_int_equal(pl_import_check_set(bad_val, 1, &err), PL_EUSAGE);
	assert_string_equal(err.message, "--set concurrency=many: 'concurrency' must be a non-negative "
	                                 "whole number or inf, got 'many'");
	{
		const struct pl_kv bad_utf8[] = {{"model", "bad\xff\xfe"}};
		pl_error_init(&err);
		assert_int_equal(pl_import_check_set(bad_utf8, 1, &err), PL_EUSAGE);
		assert_string_equal(err.message,
		                    "--set model: the value is not UTF-8 (byte 0xFF at offset 3)");
	}
}

/* The vllm_serving corpus read in place, with the conditions it lacks. */
static void test_corpus_in_place(void **state)
{
	struct pl_store *st = (need_shared(PL_CORPUS_DIR "/vllm_serving"), fresh_store("corpus"));
	struct pl_import_opts opts = {0};
	struct pl_import_stats stats;
	struct pl_error err;
	struct seen s = {0};
	struct pl_run_list l = {0};
	const char *paths[] = {PL_CORPUS_DIR "/vllm_serving"};
	const struct pl_kv set[] = {{"precision", "bf16"}, {"engine", "vllm"}, {"hardware", "8x GPU"}};

	(void)state;
	need_shared(paths[0]);
	opts.set = set;
	opts.nset = 3;
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 1, &opts, on_file, &s, &stats, &err), PL_EINVALID);
	assert_int_equal(stats.files, 9);
	assert_int_equal(stats.stored, 8);
	assert_int_equal(stats.rejected, 1);
	/* the sweep's summary repeats er0080_vllm0251_sweep_run0.json's run (other
	 * bytes, the same record): stored once, never pooled twice */
	assert_int_equal(stats.records_present, 1);
	assert_int_equal(stats.runs, 8);
	assert_int_equal(count_runs(st), 8);
	/* every request failed: stored as a failed run (issue 13) */
	assert_non_null(strstr(s.path[1], "er0080_vllm0251_all_requests_failed.json"));
	assert_int_equal(s.status[1], PL_IMPORT_STORED);
	assert_non_null(strstr(s.path[7], "llmk8s_dsv25_nightly_table.json"));
	assert_int_equal(s.status[7], PL_IMPORT_REJECTED);
	/* the hash of the stored bytes is the one SOURCES.md lists */
	assert_int_equal(pl_store_query(st, NULL, 0, &l, &err), 0);
	assert_non_null(strstr(l.v[2].source, "er0080_vllm0251_bench_serve_opt125m.json"));
	assert_string_equal(l.v[2].sha256,
	                    "9d87191eb579bee942668e8604d62d96195cca66ef7c55df6695cd299f83dedb");
	assert_true(fabs(l.v[2].metric[PL_M_TTFT_P50] - 0.05568139649994919) <= 0.05568139649994919 * 1e-12);
	pl_run_list_release(&l);
	pl_store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_duplicates_stored_once),
		cmocka_unit_test(test_missing_required),
		cmocka_unit_test(test_sidecar_and_set),
		cmocka_unit_test(test_streamed_jsonl_one_open),
		cmocka_unit_test(test_stdin_jsonl_beyond_cap),
		cmocka_unit_test(test_strict_stores_nothing),
		cmocka_unit_test(test_missing_path_and_walk),
		cmocka_unit_test(test_check_set),
		cmocka_unit_test(test_non_regular_file),
		cmocka_unit_test(test_non_regular_sidecar),
		cmocka_unit_test(test_txt_sidecar),
		cmocka_unit_test(test_txt_fifo_sidecar),
		cmocka_unit_test(test_int_beyond_2_53),
		cmocka_unit_test(test_warnings_and_counts),
		cmocka_unit_test(test_corpus_in_place),
	};
	mkdirs(TMP);
	pl_adapters_init(); /* cJSON's allocator hooks, as main() does */
	return shared_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
