/*
 * fuzz_merge.c — libFuzzer harness for `perfledger merge` over hostile
 * ledger files. Each input is the bytes of OTHER.db; it is merged into a
 * fresh copy of a small ledger (one run, made at start-up). Merge must
 * refuse what is not a ledger, or not a valid one, and merge what is,
 * without crashing, hanging (a recursive view) or growing without bound;
 * whatever it did, this ledger must pass SQLite's integrity check.
 *
 * Seeds: with PL_FUZZ_SEED_DIR set, start-up also writes there a valid
 * ledger of two runs with a trail and kept bytes (seed.db), which the
 * mutations start from (libFuzzer reads that directory as a corpus).
 * Built and run by fuzz/run.sh (-max_len large enough for a ledger file).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/model.h"
#include "store/db.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[64], here[128], other[128], work[128];

static void cleanup(void)
{
	const char *suffix[] = {"", "-wal", "-shm", "-journal"};
	char p[160];

	for (size_t i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s%s", here, suffix[i]);
		unlink(p);
		snprintf(p, sizeof(p), "%s%s", other, suffix[i]);
		unlink(p);
		snprintf(p, sizeof(p), "%s%s", work, suffix[i]);
		unlink(p);
	}
	rmdir(root);
}

/* A ledger at path with n runs (a retraction on the second). */
static void make_ledger(const char *path, int n)
{
	struct pl_store *st = NULL;
	struct pl_error err;

	pl_error_init(&err);
	if (pl_store_open(path, &st, &err))
		abort();
	for (int i = 0; i < n; i++) {
		struct pl_run r;
		int inserted = 0;

		pl_run_init(&r);
		if (pl_run_set_cond(&r, PL_C_MODEL, "m", &err) ||
		    pl_run_set_cond(&r, PL_C_PRECISION, "bfloat16", &err) ||
		    pl_run_set_cond(&r, PL_C_ENGINE, "vllm", &err) ||
		    pl_run_set_cond(&r, PL_C_HARDWARE, i ? "1x H100" : "1x A100", &err))
			abort();
		pl_run_set_metric(&r, PL_M_TTFT_P50, 0.25 + i);
		memset(r.sha256, 'a' + i, 64);
		if (pl_strset(&r.source, "fuzz.json") || pl_strset(&r.adapter, "descriptor"))
			abort();
		if (pl_store_insert_run(st, &r, &inserted, &err) || !inserted) {
			fprintf(stderr, "fuzz_merge: cannot make the ledger: %s\n", err.message);
			abort();
		}
		if (i == 1 && (pl_store_begin(st, &err) ||
		               pl_store_retract(st, r.id, 1700000000, "bad node", "fuzz", &inserted, &err) ||
		               pl_store_commit(st, &err)))
			abort();
		pl_run_release(&r);
	}
	pl_store_close(st);
}

static void copy(const char *from, const char *to)
{
	FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
	char buf[65536];
	size_t n;

	if (!a || !b)
		abort();
	while ((n = fread(buf, 1, sizeof(buf), a)) > 0)
		if (fwrite(buf, 1, n, b) != n)
			abort();
	fclose(a);
	if (fclose(b) != 0)
		abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR"), *seed = getenv("PL_FUZZ_SEED_DIR");

	(void)argc;
	(void)argv;
	snprintf(root, sizeof(root), "%s/pl-fuzz-merge-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		abort();
	snprintf(here, sizeof(here), "%s/here.db", root);
	snprintf(other, sizeof(other), "%s/other.db", root);
	snprintf(work, sizeof(work), "%s/work.db", root);
	atexit(cleanup);
	make_ledger(here, 1);
	if (seed && *seed) {
		char p[4096];
		snprintf(p, sizeof(p), "%s/seed.db", seed);
		unlink(p);
		make_ledger(p, 2);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pl_store *st = NULL;
	struct pl_merge_stats ms;
	struct pl_error err;
	FILE *f;

	f = fopen(other, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	copy(here, work);
	pl_error_init(&err);
	if (pl_store_open(work, &st, &err))
		abort();
	(void)pl_store_merge(st, other, &ms, &err);
	pl_store_close(st);
	/* this ledger is whole, whatever the merge did */
	pl_error_init(&err);
	if (pl_store_open(work, &st, &err))
		abort();
	pl_store_close(st);
	return 0;
}
