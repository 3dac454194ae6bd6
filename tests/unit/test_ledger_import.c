/*
 * test_ledger_import.c — issue 13 items 1, 4 and 5 on the import side of
 * the ledger: record identity (pl_run_record_id), record-level atomicity
 * of multi-record files (good records kept, each bad one reported, a fixed
 * file storing only what is missing, --strict all or nothing), import
 * --dry-run (nothing written), and failed runs (pl_run_failed: stored,
 * never pooled by compare, a FAILED point in history, a failed candidate
 * failing check).
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
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/adapters.h"
#include "core/check.h"
#include "core/compare.h"
#include "core/condkey.h"
#include "core/error.h"
#include "core/hash.h"
#include "core/history.h"
#include "core/model.h"
#include "util/buf.h"
#include "import/import.h"
#include "render/regress.h"
#include "store/db.h"
#include "caveat_text.h"

#define TMP PL_TEST_TMP "/ledger_import"

/* What the import callback saw, in order. */
struct seen {
	size_t n;
	enum pl_import_status status[16];
	size_t runs[16];
	char message[16][512];
};

static void on_file(void *ctx, const char *path, enum pl_import_status status, size_t runs,
                    size_t reference_only, const char *warnings, const struct pl_error *err)
{
	struct seen *s = ctx;

	(void)path;
	(void)reference_only;
	(void)warnings;
	assert_true(s->n < 16);
	s->status[s->n] = status;
	s->runs[s->n] = runs;
	snprintf(s->message[s->n], sizeof(s->message[0]), "%s", err ? err->message : "");
	s->n++;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	assert_int_equal(fclose(f), 0);
}

/* A fresh database at TMP/name.db (path returned in path). */
static struct pl_store *fresh_store(const char *name, char *path, size_t n)
{
	struct pl_store *st = NULL;
	struct pl_error err;
	char side[1100];

	mkdir(PL_TEST_TMP, 0755);
	mkdir(TMP, 0755);
	snprintf(path, n, "%s/%s.db", TMP, name);
	unlink(path);
	snprintf(side, sizeof(side), "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", path);
	unlink(side);
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

/* A descriptor record: concurrency c, TTFT p50 ttft (s). */
#define REC(c, ttft)                                                                          \
	"{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\", \"hardware\": \"1x A100\"," \
	" \"concurrency\": " #c ", \"metric\": {\"ttft_p50\": " #ttft "}}"

/* Three records; record 1 has a negative TTFT. */
static const char sweep_bad[] = "[" REC(1, 0.3) ",\n" REC(2, -0.4) ",\n" REC(4, 0.5) "]\n";
/* The same, record 1 fixed. */
static const char sweep_fixed[] = "[" REC(1, 0.3) ",\n" REC(2, 0.4) ",\n" REC(4, 0.5) "]\n";

static void good_run(struct pl_run *r, const char *source, long record)
{
	pl_run_init(r);
	assert_int_equal(pl_run_set_cond(r, PL_C_MODEL, "m", NULL), 0);
	assert_int_equal(pl_run_set_cond(r, PL_C_PRECISION, "bfloat16", NULL), 0);
	assert_int_equal(pl_run_set_cond(r, PL_C_ENGINE, "vllm", NULL), 0);
	assert_int_equal(pl_run_set_cond(r, PL_C_HARDWARE, "1x A100", NULL), 0);
	assert_int_equal(pl_strset(&r->adapter, "descriptor"), 0);
	assert_int_equal(pl_strset(&r->source, source), 0);
	r->record = record;
	pl_run_set_metric(r, PL_M_TTFT_P50, 0.3);
}

static void record_id_of(const struct pl_run *r, char hex[33])
{
	struct pl_cond_key key;

	assert_int_equal(pl_cond_key_make(r, &key), 0);
	assert_int_equal(pl_run_record_id(r, &key, hex), 0);
	pl_cond_key_release(&key);
}

/* The record identity is the content, not the provenance. */
static void test_record_id(void **state)
{
	struct pl_run a, b;
	char ha[33], hb[33];

	(void)state;
	good_run(&a, "a.json", 0);
	good_run(&b, "elsewhere/b.jsonl", 7);
	memcpy(b.sha256, "ff", 3);
	record_id_of(&a, ha);
	record_id_of(&b, hb);
	/* pinned, computed apart from the code (Python: hashlib.sha256 over the
	 * documented bytes "descriptor\0" "\0" key_text "\0" "\0" "ttft_p50\0"
	 * + struct.pack('<d', 0.3), first 32 hex digits): a change of the
	 * serialization would change every stored identity */
	assert_string_equal(ha, "23ab6ddf7b26082b9c382251816bc8b9");
	assert_string_equal(ha, hb);
	/* a metric, a condition, the start time, the adapter: each is content */
	pl_run_set_metric(&b, PL_M_TTFT_P50, 0.30000000000000004);
	record_id_of(&b, hb);
	assert_string_not_equal(ha, hb);
	pl_run_set_metric(&b, PL_M_TTFT_P50, 0.3);
	assert_int_equal(pl_run_set_cond(&b, PL_C_CONCURRENCY, "8", NULL), 0);
	record_id_of(&b, hb);
	assert_string_not_equal(ha, hb);
	assert_int_equal(pl_run_set_cond(&b, PL_C_CONCURRENCY, NULL, NULL), 0);
	assert_int_equal(pl_run_set_cond(&b, PL_C_RUN_STARTED_AT, "2026-11-01T02:00:00Z", NULL), 0);
	record_id_of(&b, hb);
	assert_string_not_equal(ha, hb);
	assert_int_equal(pl_run_set_cond(&b, PL_C_RUN_STARTED_AT, NULL, NULL), 0);
	assert_int_equal(pl_strset(&b.adapter, "vllm-serving"), 0);
	record_id_of(&b, hb);
	assert_string_not_equal(ha, hb);
	pl_run_release(&a);
	pl_run_release(&b);
}

/* The identity's bytes are gathered in a 2048-byte buffer on the stack and
 * on the heap beyond it: at exactly 2048 bytes and at 2049 the identity is
 * the sha256 of the documented bytes all the same (built here apart). */
static void test_record_id_long(void **state)
{
	(void)state;
	for (int over = 0; over <= 1; over++) {
		struct pl_run r;
		struct pl_cond_key key;
		struct pl_buf want = PL_BUF_INIT;
		char got[33], full[65], *model;
		size_t base, L;
		double v = 0.3;
		unsigned char le[8];
		uint64_t bits;

		good_run(&r, "a.json", 0);
		assert_int_equal(pl_cond_key_make(&r, &key), 0);
		base = key.len - 1; /* without the model's one letter */
		pl_cond_key_release(&key);
		/* bytes: "descriptor\0" "\0" key "\0" "\0" "ttft_p50\0" + 8 */
		L = 2048 - (12 + 11 + 8) - base + (size_t)over;
		model = malloc(L + 1);
		assert_non_null(model);
		memset(model, 'x', L);
		model[L] = '\0';
		assert_int_equal(pl_run_set_cond(&r, PL_C_MODEL, model, NULL), 0);
		assert_int_equal(pl_cond_key_make(&r, &key), 0);
		assert_int_equal(pl_run_record_id(&r, &key, got), 0);
		pl_buf_add(&want, "descriptor\0\0", 12);
		pl_buf_add(&want, key.text, key.len);
		pl_buf_add(&want, "\0\0ttft_p50\0", 11);
		memcpy(&bits, &v, sizeof(bits));
		for (int k = 0; k < 8; k++)
			le[k] = (unsigned char)(bits >> (8 * k));
		pl_buf_add(&want, le, 8);
		assert_int_equal(want.len, 2048 + (size_t)over);
		assert_int_equal(pl_sha256_hex(want.data, want.len, full), 0);
		full[32] = '\0';
		assert_string_equal(got, full);
		pl_buf_release(&want);
		pl_cond_key_release(&key);
		free(model);
		pl_run_release(&r);
	}
}

static void test_run_failed(void **state)
{
	struct pl_run r;

	(void)state;
	good_run(&r, "x", 0);
	assert_int_equal(pl_run_failed(&r), 0); /* counts unknown: not failed */
	pl_run_set_metric(&r, PL_M_REQUESTS_COMPLETED, 1);
	pl_run_set_metric(&r, PL_M_ERROR_RATE, 0.75);
	assert_int_equal(pl_run_failed(&r), 0);
	pl_run_set_metric(&r, PL_M_ERROR_RATE, 1);
	assert_int_equal(pl_run_failed(&r), 1);
	pl_run_set_metric(&r, PL_M_ERROR_RATE, 0);
	pl_run_set_metric(&r, PL_M_REQUESTS_COMPLETED, 0);
	assert_int_equal(pl_run_failed(&r), 1);
	pl_run_release(&r);
}

/* The bad record is rejected alone; fixed, the file stores only it. */
static void test_good_records_kept(void **state)
{
	char db[1024];
	struct pl_store *st = fresh_store("records", db, sizeof(db));
	const char *paths[] = {TMP "/sweep.json"};
	struct pl_import_stats stats;
	struct pl_error err;
	struct seen s = {0};

	(void)state;
	write_file(paths[0], sweep_bad);
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 1, NULL, on_file, &s, &stats, &err), PL_EINVALID);
	assert_int_equal(stats.files, 1);
	assert_int_equal(stats.stored, 1);
	assert_int_equal(stats.rejected, 0);
	assert_int_equal(stats.records_rejected, 1);
	assert_int_equal(stats.partial, 1);
	assert_int_equal(stats.runs, 2);
	assert_int_equal(count_runs(st), 2);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.status[0], PL_IMPORT_RECORD_REJECTED);
	assert_string_equal(s.message[0], "record 1: metric 'ttft_p50' must not be negative, got -0.4");
	assert_int_equal(s.status[1], PL_IMPORT_STORED);
	assert_int_equal(s.runs[1], 2);

	/* the same path, fixed: new bytes; the two stored records are known */
	write_file(paths[0], sweep_fixed);
	memset(&s, 0, sizeof(s));
	assert_int_equal(pl_import_paths(st, paths, 1, NULL, on_file, &s, &stats, &err), 0);
	assert_int_equal(stats.stored, 1);
	assert_int_equal(stats.runs, 1);
	assert_int_equal(stats.records_present, 2);
	assert_int_equal(stats.records_rejected, 0);
	assert_int_equal(count_runs(st), 3);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.status[0], PL_IMPORT_STORED);
	assert_int_equal(s.runs[0], 1);

	/* and once more: the bytes are stored */
	assert_int_equal(pl_import_paths(st, paths, 1, NULL, on_file, &s, &stats, &err), 0);
	assert_int_equal(stats.duplicates, 1);
	assert_int_equal(count_runs(st), 3);
	{
		struct pl_run_list l = {0};
		assert_int_equal(pl_store_query(st, NULL, 0, &l, &err), 0);
		assert_int_equal(l.n, 3);
		assert_true(l.v[2].cond[PL_C_CONCURRENCY].num == 2);
		assert_true(l.v[2].metric[PL_M_TTFT_P50] == 0.4);
		assert_int_equal(l.v[2].record, 1);
		pl_run_list_release(&l);
	}
	pl_store_close(st);
}

/* --strict: one bad record and nothing of the batch is stored. */
static void test_strict_records(void **state)
{
	char db[1024];
	struct pl_store *st = fresh_store("strict", db, sizeof(db));
	const char *paths[] = {TMP "/strict_ok.json", TMP "/strict_bad.json"};
	struct pl_import_opts opts = {0};
	struct pl_import_stats stats;
	struct pl_error err;
	struct seen s = {0};

	(void)state;
	write_file(paths[0], REC(64, 0.9) "\n");
	write_file(paths[1], sweep_bad);
	opts.strict = 1;
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 2, &opts, on_file, &s, &stats, &err), PL_EINVALID);
	assert_int_equal(stats.records_rejected, 1);
	assert_int_equal(stats.runs, 0);
	assert_int_equal(stats.stored, 0);
	assert_int_equal(count_runs(st), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.status[0], PL_IMPORT_REJECTED);
	assert_string_equal(s.message[0], "not stored: a record of the strict batch was rejected");
	assert_int_equal(s.status[1], PL_IMPORT_RECORD_REJECTED);
	assert_int_equal(s.status[2], PL_IMPORT_REJECTED);
	pl_store_close(st);
}

/* Every record bad: the file is rejected with its first reason, once. */
static void test_all_records_bad(void **state)
{
	char db[1024];
	struct pl_store *st = fresh_store("allbad", db, sizeof(db));
	const char *paths[] = {TMP "/allbad.json"};
	struct pl_import_stats stats;
	struct pl_error err;
	struct seen s = {0};

	(void)state;
	write_file(paths[0], "[" REC(1, -1) ",\n" REC(2, -2) "]\n");
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 1, NULL, on_file, &s, &stats, &err), PL_EINVALID);
	assert_int_equal(stats.rejected, 1);
	assert_int_equal(stats.records_rejected, 0);
	assert_int_equal(count_runs(st), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.status[0], PL_IMPORT_REJECTED);
	assert_string_equal(s.message[0], "record 0: metric 'ttft_p50' must not be negative, got -1");
	pl_store_close(st);
}

/* A JSONL file over PL_IMPORT_STREAM_MIN (streamed): n records, record
 * `bad` with a negative TTFT when bad >= 0. */
static void write_big(const char *path, int n, int bad)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	for (int i = 0; i < n; i++)
		fprintf(f,
		        "{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"vllm\", "
		        "\"hardware\": \"1x A100\", \"concurrency\": %d, \"dataset\": "
		        "\"padding-padding-padding-padding\", \"metric\": {\"ttft_p50\": %s}}\n",
		        i + 1, i == bad ? "-1" : "0.25");
	assert_int_equal(fclose(f), 0);
}

/* A streamed JSONL file keeps its good records too, and fixed stores only
 * the missing one. */
static void test_streamed_records(void **state)
{
	char db[1024];
	struct pl_store *st = fresh_store("stream", db, sizeof(db));
	const char *paths[] = {TMP "/big.jsonl"};
	struct pl_import_stats stats;
	struct pl_error err;
	struct seen s = {0};
	struct stat sb;

	(void)state;
	write_big(paths[0], 9000, 4321);
	assert_int_equal(stat(paths[0], &sb), 0);
	assert_true(sb.st_size > PL_IMPORT_STREAM_MIN);
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, paths, 1, NULL, on_file, &s, &stats, &err), PL_EINVALID);
	assert_int_equal(stats.runs, 8999);
	assert_int_equal(stats.records_rejected, 1);
	assert_int_equal(stats.partial, 1);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.status[0], PL_IMPORT_RECORD_REJECTED);
	assert_string_equal(s.message[0], "record 4321: metric 'ttft_p50' must not be negative, got -1");
	assert_int_equal(s.status[1], PL_IMPORT_STORED);
	assert_int_equal(count_runs(st), 8999);
	write_big(paths[0], 9000, -1);
	assert_int_equal(pl_import_paths(st, paths, 1, NULL, NULL, NULL, &stats, &err), 0);
	assert_int_equal(stats.runs, 1);
	assert_int_equal(stats.records_present, 8999);
	assert_int_equal(count_runs(st), 9000);
	pl_store_close(st);
}

struct preview {
	size_t n;
	double ttft[8];
};

static void on_preview(void *ctx, const struct pl_run *run)
{
	struct preview *p = ctx;

	assert_true(p->n < 8);
	assert_int_equal(run->id, 0);
	p->ttft[p->n++] = run->metric[PL_M_TTFT_P50];
}

/* --dry-run: the runs that would be stored, and nothing written. */
static void test_dry_run(void **state)
{
	char db[1024];
	struct pl_store *st = fresh_store("dry", db, sizeof(db));
	const char *bad[] = {TMP "/dry.json"};
	const char *both[] = {TMP "/dry.json", TMP "/dry_fixed.json", TMP "/dry_fixed.json"};
	struct pl_import_opts opts = {0};
	struct pl_import_stats stats;
	struct pl_error err;
	struct preview p = {0};
	struct stat before, after;

	(void)state;
	write_file(bad[0], sweep_bad);
	write_file(both[1], sweep_fixed);
	pl_error_init(&err);
	assert_int_equal(pl_import_paths(st, bad, 1, NULL, NULL, NULL, &stats, &err), PL_EINVALID);
	assert_int_equal(count_runs(st), 2);
	pl_store_close(st);
	assert_int_equal(stat(db, &before), 0);

	/* read-only: a dry run needs no write access */
	assert_int_equal(pl_store_open_readonly(db, &st, &err), 0);
	opts.dry_run = 1;
	opts.preview = on_preview;
	opts.preview_ctx = &p;
	assert_int_equal(pl_import_paths(st, both, 3, &opts, NULL, NULL, &stats, &err),
	                 PL_EINVALID);
	/* dry.json: stored already (its bad record reported again); dry_fixed.json:
	 * only record 1 is new; named twice, the second time a duplicate */
	assert_int_equal(p.n, 1);
	assert_true(p.ttft[0] == 0.4);
	assert_int_equal(stats.runs, 1);
	assert_int_equal(stats.stored, 1);
	assert_int_equal(stats.duplicates, 2);
	assert_int_equal(stats.records_present, 2);
	assert_int_equal(stats.records_rejected, 1);
	assert_int_equal(count_runs(st), 2);
	pl_store_close(st);
	assert_int_equal(stat(db, &after), 0);
	assert_int_equal(before.st_size, after.st_size);
	assert_int_equal(before.st_mtime, after.st_mtime);
}

/* A run of the list: engine_version v, TTFT ttft, failed or not. */
static void add_run(struct pl_run_list *l, long long id, const char *v, const char *at,
                    double ttft, int failed)
{
	struct pl_run *r = pl_run_list_push(l);
	char src[32];

	assert_non_null(r);
	snprintf(src, sizeof(src), "r%lld.json", id);
	good_run(r, src, 0);
	r->id = id;
	assert_int_equal(pl_run_set_cond(r, PL_C_ENGINE_VERSION, v, NULL), 0);
	assert_int_equal(pl_run_set_cond(r, PL_C_RUN_STARTED_AT, at, NULL), 0);
	if (failed) {
		r->has_metric[PL_M_TTFT_P50] = 0;
		pl_run_set_metric(r, PL_M_REQUESTS_COMPLETED, 0);
		pl_run_set_metric(r, PL_M_ERROR_RATE, 1);
	} else {
		pl_run_set_metric(r, PL_M_TTFT_P50, ttft);
		pl_run_set_metric(r, PL_M_REQUESTS_COMPLETED, 100);
		pl_run_set_metric(r, PL_M_ERROR_RATE, 0);
	}
}

/* compare leaves failed runs out, with a caveat naming them. */
static void test_compare_leaves_failed_out(void **state)
{
	struct pl_run_list l = {0};
	struct pl_compare_opts o;
	struct pl_comparison cmp;
	struct pl_error err;

	(void)state;
	add_run(&l, 1, "0.9.2", "2026-11-01T02:00:00Z", 0.30, 0);
	add_run(&l, 2, "0.9.2", "2026-11-02T02:00:00Z", 0.50, 0);
	add_run(&l, 3, "0.9.2", "2026-11-03T02:00:00Z", 0, 1);
	add_run(&l, 4, "0.9.3", "2026-11-04T02:00:00Z", 0.20, 0);
	memset(&o, 0, sizeof(o));
	o.axis[0] = PL_C_ENGINE_VERSION;
	o.naxis = 1;
	o.metrics[0] = PL_M_TTFT_P50;
	o.nmetrics = 1;
	pl_error_init(&err);
	assert_int_equal(pl_compare_build(&l, &o, &cmp, &err), 0);
	assert_int_equal(cmp.nfailed, 1);
	assert_int_equal(cmp.nrows, 2);
	assert_int_equal(cmp.rows[0].n, 2); /* 0.30 and 0.50, not the failed run */
	assert_true(fabs(cmp.rows[0].metric[PL_M_TTFT_P50] - 0.40) < 1e-12);
	assert_int_equal(cmp.caveats.n, 1);
	assert_string_equal(cav_en(&cmp, 0),
	                    "failed runs left out (no request completed; never pooled): run 3");
	pl_comparison_release(&cmp);
	/* every run failed: nothing to compare */
	pl_run_list_release(&l);
	add_run(&l, 7, "0.9.2", "2026-11-01T02:00:00Z", 0, 1);
	assert_int_equal(pl_compare_build(&l, &o, &cmp, &err), PL_EEMPTY);
	assert_string_equal(err.message, "every selected run failed (no request completed): run 7; "
	                                 "failed runs are never compared ('perfledger list' shows them)");
	pl_comparison_release(&cmp);
	pl_run_list_release(&l);
}

/* history: a night where every request failed is a FAILED point. */
static void test_history_failed_point(void **state)
{
	struct pl_run_list l = {0};
	struct pl_history h;
	struct pl_error err;

	(void)state;
	add_run(&l, 1, "0.9.2", "2026-11-01T02:00:00Z", 0.30, 0);
	add_run(&l, 2, "0.9.2", "2026-11-02T02:00:00Z", 0.31, 0);
	add_run(&l, 3, "0.9.2", "2026-11-03T02:00:00Z", 0, 1);
	add_run(&l, 4, "0.9.2", "2026-11-04T02:00:00Z", 0.29, 0);
	pl_error_init(&err);
	assert_int_equal(pl_history_build(&l, PL_C_RUN_STARTED_AT, PL_M_TTFT_P50, NULL, NULL, &h, &err),
	                 0);
	assert_int_equal(h.npoints, 4);
	assert_int_equal(h.nruns, 3);
	assert_int_equal(h.nfailed, 1);
	assert_int_equal(h.points[2].n, 0);
	assert_int_equal(h.points[2].nfailed, 1);
	assert_int_equal(h.points[2].failed_ids[0], 3);
	assert_true(isnan(h.points[2].s.median));
	assert_true(isnan(h.points[2].level));
	assert_int_equal(h.points[3].n, 1);
	assert_true(h.points[3].s.median == 0.29);
	assert_int_equal(h.cmp.caveats.n, 0); /* drawn, not a caveat */
	pl_history_release(&h);
	pl_run_list_release(&l);
}

/* check: a failed candidate run fails the gate by itself. */
static void test_check_failed_candidate(void **state)
{
	struct pl_run_list l = {0};
	struct pl_check_opts o;
	struct pl_check chk;
	struct pl_error err;

	(void)state;
	add_run(&l, 1, "0.9.2", "2026-11-01T01:00:00Z", 0.30, 0);
	add_run(&l, 2, "0.9.2", "2026-11-01T02:00:00Z", 0.31, 0);
	add_run(&l, 3, "0.9.3", "2026-11-02T01:00:00Z", 0.30, 0);
	add_run(&l, 4, "0.9.3", "2026-11-02T02:00:00Z", 0, 1);
	memset(&o, 0, sizeof(o));
	o.axis = PL_C_ENGINE_VERSION;
	o.baseline = "0.9.2";
	o.candidate = "0.9.3";
	o.metrics[0] = PL_M_TTFT_P50;
	o.nmetrics = 1;
	o.threshold = 0.05;
	o.alpha = 0.05;
	pl_error_init(&err);
	assert_int_equal(pl_check_build(&l, &o, NULL, &chk, &err), 0);
	assert_int_equal(chk.n_base, 2);
	assert_int_equal(chk.n_cand, 1);
	assert_int_equal(chk.n_failed, 1);
	assert_int_equal(chk.failed_ids[0], 4);
	assert_int_equal(chk.nregressions, 0);
	assert_int_equal(pl_check_exit_status(&chk), 1);
	pl_check_release(&chk);

	/* every candidate run failed: the gate fails, nothing is tested */
	l.v[2].has_metric[PL_M_TTFT_P50] = 0;
	pl_run_set_metric(&l.v[2], PL_M_REQUESTS_COMPLETED, 0);
	assert_int_equal(pl_check_build(&l, &o, NULL, &chk, &err), 0);
	assert_int_equal(chk.n_cand, 0);
	assert_int_equal(chk.n_failed, 2);
	assert_int_equal(chk.nm, 0);
	assert_int_equal(pl_check_exit_status(&chk), 1);
	pl_check_release(&chk);

	/* every baseline run failed: nothing to compare with */
	o.baseline = "0.9.3";
	o.candidate = "0.9.2";
	assert_int_equal(pl_check_build(&l, &o, NULL, &chk, &err), PL_EEMPTY);
	assert_string_equal(err.message, "every baseline run with engine_version '0.9.3' failed (no "
	                                 "request completed): nothing to compare with");
	pl_check_release(&chk);
	pl_run_list_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_id),
		cmocka_unit_test(test_record_id_long),
		cmocka_unit_test(test_run_failed),
		cmocka_unit_test(test_good_records_kept),
		cmocka_unit_test(test_strict_records),
		cmocka_unit_test(test_all_records_bad),
		cmocka_unit_test(test_streamed_records),
		cmocka_unit_test(test_dry_run),
		cmocka_unit_test(test_compare_leaves_failed_out),
		cmocka_unit_test(test_history_failed_point),
		cmocka_unit_test(test_check_failed_candidate),
	};

	pl_adapters_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
