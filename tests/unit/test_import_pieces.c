/*
 * test_import_pieces.c — a large JSON result imported in pieces
 * (import/parse_file.c, produce_pieces): each 1 MiB piece hashed,
 * compressed as a chunk of the kept bytes and fed to the streaming parser
 * of "itls", the file never held whole. What it stores must be what the
 * whole-file tree path stores, byte for byte: the requests blob, the run,
 * the source bytes read back; a file the streaming parser cannot read falls
 * back to the whole path with the same runs. `requests` reads the columns
 * without the blob (store/requests.h) and gets the same values; and a merge
 * never mixes the chunks of one file kept in two layouts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/adapters.h"
#include "core/error.h"
#include "core/hash.h"
#include "core/model.h"
#include "core/requests.h"
#include "import/import.h"
#include "store/db.h"
#include "store/requests.h"

#define TMP PL_TEST_TMP "/import_pieces"
#define NREQ 2000 /* requests of the generated file: about 2.6 MB, 3 pieces */

static void fresh(const char *path)
{
	char side[1100];

	mkdir(PL_TEST_TMP, 0755);
	mkdir(TMP, 0755);
	unlink(path);
	snprintf(side, sizeof(side), "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", path);
	unlink(side);
}

/* A vLLM --save-detailed result of NREQ requests (the last one failed),
 * each with 60 gaps of 17 significant digits; gaps 1 adds the "itls". */
static void write_vllm(const char *path, int gaps)
{
	FILE *f;

	mkdir(PL_TEST_TMP, 0755);
	mkdir(TMP, 0755);
	f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "{\"date\": \"20250101-000000\", \"backend\": \"vllm\", \"model_id\": \"test/model\", "
	           "\"tokenizer_id\": \"test/model\", \"num_prompts\": %d, \"request_rate\": \"inf\", "
	           "\"duration\": 100.0, \"completed\": %d, \"failed\": 1, \"input_lens\": [",
	        NREQ, NREQ - 1);
	for (int i = 0; i < NREQ; i++)
		fprintf(f, "%s%d", i ? ", " : "", 100 + i % 7);
	fputs("], \"output_lens\": [", f);
	for (int i = 0; i < NREQ; i++)
		fprintf(f, "%s%d", i ? ", " : "", i == NREQ - 1 ? 0 : 61);
	fputs("], \"ttfts\": [", f);
	for (int i = 0; i < NREQ; i++)
		fprintf(f, "%s%.17g", i ? ", " : "", i == NREQ - 1 ? 0.0 : 0.1 + i * 1.37e-4);
	if (gaps) {
		fputs("], \"itls\": [", f);
		for (int i = 0; i < NREQ; i++) {
			fputs(i ? ", [" : "[", f);
			for (int k = 0; i < NREQ - 1 && k < 60; k++)
				fprintf(f, "%s%.17g", k ? ", " : "", 0.01 + ((i * 60 + k) % 997) * 1.0001e-5);
			fputs("]", f);
		}
	}
	fputs("], \"generated_texts\": [", f);
	for (int i = 0; i < NREQ; i++)
		fprintf(f, "%s\"text %d\"", i ? ", " : "", i);
	fputs("], \"errors\": [", f);
	for (int i = 0; i < NREQ; i++)
		fprintf(f, "%s\"%s\"", i ? ", " : "", i == NREQ - 1 ? "timeout" : "");
	fputs("], \"mean_ttft_ms\": 240.0, \"median_ttft_ms\": 230.0, \"p99_ttft_ms\": 370.0}\n", f);
	assert_int_equal(fclose(f), 0);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Imports file into a fresh ledger db, with the stream minimum at min. */
static struct pl_store *import(const char *db, const char *file, size_t min)
{
	const struct pl_kv set[] = {{"engine", "vllm"}, {"hardware", "1x H100"},
	                            {"precision", "bf16"}};
	struct pl_import_opts opts = {0};
	struct pl_import_stats stats;
	const char *paths[] = {file};
	struct pl_store *st = NULL;
	struct pl_error err;

	fresh(db);
	pl_error_init(&err);
	assert_int_equal(pl_store_open(db, &st, &err), 0);
	opts.set = set;
	opts.nset = 3;
	pl_adapters_set_stream_min(min);
	if (pl_import_paths(st, paths, 1, &opts, NULL, NULL, &stats, &err))
		fail_msg("%s: %s", file, err.message);
	pl_adapters_set_stream_min((size_t)4 << 20);
	assert_int_equal(stats.runs, 1);
	return st;
}

/* The kept bytes of file in st: the file's own, in chunks chunks. */
static void kept(struct pl_store *st, const char *file, long long chunks)
{
	struct pl_error err;
	char sha[65], *back;
	size_t len, blen;
	long long size, n;
	char *buf = slurp(file, &len);

	pl_error_init(&err);
	assert_int_equal(pl_sha256_hex(buf, len, sha), 0);
	assert_int_equal(pl_store_source_size(st, sha, &size, &n, &err), 0);
	assert_int_equal(n, chunks);
	assert_int_equal(size, (long long)len);
	assert_int_equal(pl_store_read_source(st, sha, &back, &blen, &err), 0);
	assert_int_equal(blen, len);
	assert_memory_equal(back, buf, len);
	free(back);
	free(buf);
}

/* The one run of a and of b: the same identity and figures. */
static void same_run(struct pl_store *a, struct pl_store *b)
{
	struct pl_run_list la = {0}, lb = {0};
	struct pl_error err;

	pl_error_init(&err);
	assert_int_equal(pl_store_query(a, NULL, 0, &la, &err), 0);
	assert_int_equal(pl_store_query(b, NULL, 0, &lb, &err), 0);
	assert_int_equal(la.n, 1);
	assert_int_equal(lb.n, 1);
	assert_string_equal(la.v[0].record_id, lb.v[0].record_id);
	assert_memory_equal(la.v[0].metric, lb.v[0].metric, sizeof(la.v[0].metric));
	pl_run_list_release(&la);
	pl_run_list_release(&lb);
}

static void pieces_equal_whole(void **state)
{
	struct pl_requests *ra, *rb, *cols;
	struct pl_store *a, *b;
	struct pl_error err;
	size_t streamed;

	(void)state;
	write_vllm(TMP "/big.json", 1);
	streamed = pl_adapters_streamed();
	a = import(TMP "/pieces.db", TMP "/big.json", 1);          /* in pieces */
	assert_int_equal(pl_adapters_streamed(), streamed + 1);
	b = import(TMP "/whole.db", TMP "/big.json", SIZE_MAX);    /* whole, as a tree */
	assert_int_equal(pl_adapters_streamed(), streamed + 1);
	kept(a, TMP "/big.json", 3);
	kept(b, TMP "/big.json", 1);
	same_run(a, b);
	pl_error_init(&err);
	assert_int_equal(pl_store_read_requests(a, 1, &ra, &err), 0);
	assert_int_equal(pl_store_read_requests(b, 1, &rb, &err), 0);
	assert_int_equal(ra->n, NREQ);
	assert_int_equal(ra->ngaps, (size_t)(NREQ - 1) * 60);
	assert_int_equal(ra->nblob, rb->nblob);
	assert_memory_equal(ra->blob, rb->blob, ra->nblob);
	/* the columns alone, read in pieces: the same values, no blob */
	assert_int_equal(pl_store_read_request_columns(a, 1, &cols, &err), 0);
	assert_null(cols->blob);
	assert_int_equal(cols->n, ra->n);
	assert_int_equal(cols->nerrors, 1);
	assert_string_equal(cols->errors[0], "timeout");
	assert_memory_equal(cols->error, ra->error, ra->n * sizeof(uint32_t));
	assert_memory_equal(cols->ttft, ra->ttft, ra->n * sizeof(double));
	assert_memory_equal(cols->gap_off, ra->gap_off, (ra->n + 1) * sizeof(size_t));
	assert_memory_equal(cols->gaps, ra->gaps, ra->ngaps * sizeof(double));
	assert_memory_equal(cols->output_tokens, ra->output_tokens, ra->n * sizeof(int64_t));
	pl_requests_free(cols);
	/* none for a run without requests */
	assert_int_equal(pl_store_read_request_columns(a, 2, &cols, &err), 0);
	assert_null(cols);
	pl_requests_free(ra);
	pl_requests_free(rb);
	pl_store_close(a);
	pl_store_close(b);
}

/* A large object the streaming parser does not read (no "itls"): read
 * again whole, the same run as the whole path's, its bytes in pieces. */
static void pieces_fall_back(void **state)
{
	struct pl_store *a, *b;

	(void)state;
	write_vllm(TMP "/noitls.json", 0);
	a = import(TMP "/fallback.db", TMP "/noitls.json", 1);
	b = import(TMP "/fallback-whole.db", TMP "/noitls.json", SIZE_MAX);
	kept(a, TMP "/noitls.json", 1); /* under 1 MiB: one piece */
	kept(b, TMP "/noitls.json", 1);
	same_run(a, b);
	pl_store_close(a);
	pl_store_close(b);
}

/* One file kept in two layouts (whole by an older perfledger, in pieces
 * now): a merge either way keeps the layout already there, whole. */
static void merge_keeps_one_layout(void **state)
{
	struct pl_merge_stats ms;
	struct pl_store *a, *b;
	struct pl_error err;

	(void)state;
	write_vllm(TMP "/big.json", 1);
	a = import(TMP "/m-pieces.db", TMP "/big.json", 1);
	b = import(TMP "/m-whole.db", TMP "/big.json", SIZE_MAX);
	pl_error_init(&err);
	memset(&ms, 0, sizeof(ms));
	if (pl_store_merge(a, TMP "/m-whole.db", &ms, &err))
		fail_msg("%s", err.message);
	assert_int_equal(ms.source_chunks, 0);
	kept(a, TMP "/big.json", 3);
	memset(&ms, 0, sizeof(ms));
	if (pl_store_merge(b, TMP "/m-pieces.db", &ms, &err))
		fail_msg("%s", err.message);
	assert_int_equal(ms.source_chunks, 0);
	kept(b, TMP "/big.json", 1);
	pl_store_close(a);
	pl_store_close(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pieces_equal_whole),
		cmocka_unit_test(pieces_fall_back),
		cmocka_unit_test(merge_keeps_one_layout),
	};
	pl_adapters_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
