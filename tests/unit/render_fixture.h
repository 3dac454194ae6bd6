/*
 * render_fixture.h — a comparison and its runs built by hand, for the
 * renderer tests (test_render, test_plot, test_xlsx, test_report).
 *
 * Three rows on the hardware axis: "2x NVIDIA A100 80G" (the baseline,
 * three runs: ttft_p50 0.30–0.35, ttft_p95 0.40–0.45, output_throughput
 * 1200–1250.5; tpot_p50 and error_rate the same in all three),
 * "1x NVIDIA H100 80G" (one reference-only run) and a hostile label. The
 * values point at static storage: nothing here is freed except the run list
 * (fixture_runs_release) and temporary files/directories.
 */
#ifndef PL_RENDER_FIXTURE_H
#define PL_RENDER_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "core/compare.h"
#include "core/model.h"

#define HOSTILE "evil\"`system('rm')`\n|<script>=1+1"

#if defined(__GNUC__)
#define FIXTURE_UNUSED __attribute__((unused))
#else
#define FIXTURE_UNUSED
#endif

FIXTURE_UNUSED static void fx_set(struct pl_value *v, const char *text, double num)
{
	v->set = 1;
	v->text = (char *)text;
	v->num = num;
}

FIXTURE_UNUSED static void fx_metric(struct pl_compare_row *row, int m, double v)
{
	row->metric[m] = v;
	row->min[m] = v;
	row->max[m] = v;
	row->n_metric[m] = (unsigned char)row->n;
}

/* The smallest and largest of the row's values of metric m. */
FIXTURE_UNUSED static void fx_spread(struct pl_compare_row *row, int m, double lo, double hi)
{
	row->min[m] = lo;
	row->max[m] = hi;
}

FIXTURE_UNUSED static void fx_delta(struct pl_compare_row *row, int m, double v)
{
	row->delta_pct[m] = v;
	row->has_delta[m] = 1;
}

/* Fills cmp (static storage; do not release) with the three-row fixture. */
FIXTURE_UNUSED static void fixture_comparison(struct pl_comparison *cmp)
{
	static struct pl_compare_row rows[3];
	static long long ids0[] = {1, 2, 3}, ids1[] = {4}, ids2[] = {5};
	static char *cav_text[] = {
		(char *)"1x NVIDIA H100 80G: 1 of 1 runs is reference-only",
		(char *)"driver_version differs \x1b[31m(allowed)",
	};
	static struct pl_msg caveats[2];
	static const int metrics[] = {PL_M_TTFT_P50, PL_M_TTFT_P95, PL_M_TPOT_P50, PL_M_ITL_P50,
	                              PL_M_OUTPUT_THROUGHPUT, PL_M_ERROR_RATE};

	memset(cmp, 0, sizeof(*cmp));
	memset(rows, 0, sizeof(rows));
	cmp->axis[0] = PL_C_HARDWARE;
	cmp->naxis = 1;
	memcpy(cmp->metrics, metrics, sizeof(metrics));
	cmp->nmetrics = sizeof(metrics) / sizeof(metrics[0]);
	cmp->varies[PL_C_HARDWARE] = 1;
	cmp->varies[PL_C_ACCELERATOR_COUNT] = 1;
	cmp->varies[PL_C_DRIVER_VERSION] = 1;
	cmp->varies[PL_C_CUDA_VERSION] = 1;
	fx_set(&cmp->shared[PL_C_MODEL], "gemma-4-31b", 0);
	fx_set(&cmp->shared[PL_C_PRECISION], "bfloat16", 0);
	fx_set(&cmp->shared[PL_C_ENGINE], "vllm", 0);
	fx_set(&cmp->shared[PL_C_ENGINE_VERSION], "0.6.3", 0);
	fx_set(&cmp->shared[PL_C_DRIVER_VERSION], "550.54", 0);
	fx_set(&cmp->shared[PL_C_INPUT_TOKENS], "512", 512);
	fx_set(&cmp->shared[PL_C_MAX_OUTPUT_TOKENS], "256", 256);
	fx_set(&cmp->shared[PL_C_CONCURRENCY], "8", 8);
	fx_set(&cmp->shared[PL_C_REQUEST_RATE], "inf", INFINITY);
	fx_set(&cmp->shared[PL_C_STREAMING], "true", 1);

	fx_set(&rows[0].axis[PL_C_HARDWARE], "2x NVIDIA A100 80G", 0);
	fx_set(&rows[0].axis[PL_C_ACCELERATOR_COUNT], "2", 2);
	fx_set(&rows[0].axis[PL_C_DRIVER_VERSION], "550.54", 0);
	rows[0].n = 3;
	rows[0].run_ids = ids0;
	fx_metric(&rows[0], PL_M_TTFT_P50, 0.32);
	fx_metric(&rows[0], PL_M_TTFT_P95, 0.41);
	fx_metric(&rows[0], PL_M_TPOT_P50, 0.021);
	fx_metric(&rows[0], PL_M_OUTPUT_THROUGHPUT, 1234.5);
	fx_metric(&rows[0], PL_M_ERROR_RATE, 0);
	fx_spread(&rows[0], PL_M_TTFT_P50, 0.3, 0.35);
	fx_spread(&rows[0], PL_M_TTFT_P95, 0.4, 0.45);
	fx_spread(&rows[0], PL_M_OUTPUT_THROUGHPUT, 1200, 1250.5);
	/* tpot_p50 and error_rate: the three runs agree (no spread shown) */

	fx_set(&rows[1].axis[PL_C_HARDWARE], "1x NVIDIA H100 80G", 0);
	fx_set(&rows[1].axis[PL_C_ACCELERATOR_COUNT], "1", 1);
	fx_set(&rows[1].axis[PL_C_DRIVER_VERSION], "550.54", 0);
	rows[1].n = 1;
	rows[1].run_ids = ids1;
	rows[1].reference_only = 1;
	fx_metric(&rows[1], PL_M_TTFT_P50, 0.25);
	fx_metric(&rows[1], PL_M_TPOT_P50, 0.018);
	fx_metric(&rows[1], PL_M_OUTPUT_THROUGHPUT, 1500);
	fx_metric(&rows[1], PL_M_ERROR_RATE, 0.01);
	fx_delta(&rows[1], PL_M_TTFT_P50, 100 * (0.25 / 0.32 - 1));
	fx_delta(&rows[1], PL_M_TPOT_P50, 100 * (0.018 / 0.021 - 1));
	fx_delta(&rows[1], PL_M_OUTPUT_THROUGHPUT, 100 * (1500 / 1234.5 - 1));

	fx_set(&rows[2].axis[PL_C_HARDWARE], HOSTILE, 0);
	fx_set(&rows[2].axis[PL_C_DRIVER_VERSION], "550.54", 0);
	rows[2].n = 1;
	rows[2].run_ids = ids2;
	fx_metric(&rows[2], PL_M_TTFT_P50, 0.5);
	fx_metric(&rows[2], PL_M_TTFT_P95, 0.75);
	fx_delta(&rows[2], PL_M_TTFT_P50, 100 * (0.5 / 0.32 - 1));
	fx_delta(&rows[2], PL_M_TTFT_P95, 100 * (0.75 / 0.41 - 1));

	cmp->rows = rows;
	cmp->nrows = 3;
	for (int k = 0; k < 2; k++) { /* PL_MSG_TEXT "{1}" with a static text */
		caveats[k].code = PL_MSG_TEXT;
		caveats[k].nargs = 1;
		caveats[k].args[0].kind = PL_MA_TEXT;
		caveats[k].args[0].s = cav_text[k];
	}
	cmp->caveats.v = caveats;
	cmp->caveats.n = 2;
	cmp->nruns = 5;
}

/* Adds run `id` on hardware hw with the given headline metrics (NAN = missing). */
FIXTURE_UNUSED static struct pl_run *fx_run(struct pl_run_list *list, long long id, const char *hw,
                             const char *source, double ttft50, double tput)
{
	struct pl_run *run = pl_run_list_push(list);
	char sha[65];

	if (!run)
		abort();
	run->id = id;
	pl_run_set_cond(run, PL_C_MODEL, "gemma-4-31b", NULL);
	pl_run_set_cond(run, PL_C_MODEL_SOURCE, "huggingface", NULL);
	pl_run_set_cond(run, PL_C_PRECISION, "bfloat16", NULL);
	pl_run_set_cond(run, PL_C_ENGINE, "vllm", NULL);
	pl_run_set_cond(run, PL_C_ENGINE_VERSION, "0.6.3", NULL);
	pl_run_set_cond(run, PL_C_ENGINE_ARGS, "--tp 2", NULL);
	pl_run_set_cond(run, PL_C_HARDWARE, hw, NULL);
	pl_run_set_cond(run, PL_C_DRIVER_VERSION, "550.54", NULL);
	pl_run_set_cond(run, PL_C_CUDA_VERSION, "12.4", NULL);
	pl_run_set_cond(run, PL_C_INPUT_TOKENS, "512", NULL);
	pl_run_set_cond(run, PL_C_MAX_OUTPUT_TOKENS, "256", NULL);
	pl_run_set_cond(run, PL_C_CONCURRENCY, "8", NULL);
	pl_run_set_cond(run, PL_C_WARMUP_REQUESTS, "3", NULL);
	if (!isnan(ttft50)) {
		pl_run_set_metric(run, PL_M_TTFT_P50, ttft50);
		pl_run_set_metric(run, PL_M_TTFT_P95, ttft50 * 1.25);
		pl_run_set_metric(run, PL_M_TPOT_P50, 0.02);
	}
	if (!isnan(tput))
		pl_run_set_metric(run, PL_M_OUTPUT_THROUGHPUT, tput);
	pl_strset(&run->source, source);
	pl_strset(&run->adapter, "descriptor");
	pl_strset(&run->imported_at, "2026-01-02T03:04:05Z");
	for (int i = 0; i < 64; i++)
		sha[i] = "0123456789abcdef"[(id + i) % 16];
	sha[64] = '\0';
	memcpy(run->sha256, sha, sizeof(sha));
	pl_run_update_checklist(run);
	return run;
}

/* The five runs of the fixture comparison (run 4 is reference-only). */
FIXTURE_UNUSED static void fixture_runs(struct pl_run_list *list)
{
	struct pl_run *r4;

	pl_run_list_init(list);
	fx_run(list, 1, "2x NVIDIA A100 80G", "a100-1.json", 0.31, 1200);
	fx_run(list, 2, "2x NVIDIA A100 80G", "a100-2.json", 0.32, 1234.5);
	fx_run(list, 3, "2x NVIDIA A100 80G", "a100-3.json", 0.33, 1250);
	r4 = fx_run(list, 4, "1x NVIDIA H100 80G", "h100.json", 0.25, 1500);
	pl_run_set_cond(r4, PL_C_MODEL_SOURCE, NULL, NULL);
	pl_run_set_cond(r4, PL_C_WARMUP_REQUESTS, NULL, NULL);
	pl_run_update_checklist(r4);
	fx_run(list, 5, HOSTILE, "=cmd|' /C calc'!A0.json", 0.5, NAN);
	fx_run(list, 99, "not in the comparison", "other.json", 1, 1);
}

/* Reads a whole file into a heap string (caller frees), or NULL. */
FIXTURE_UNUSED static char *fx_slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* Runs cmd through popen and returns its stdout (caller frees), or NULL. */
FIXTURE_UNUSED static char *fx_popen_read(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int c;

	if (!p)
		return NULL;
	while ((c = fgetc(p)) != EOF) {
		if (len + 2 > cap) {
			cap = cap ? cap * 2 : 4096;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		buf[len++] = (char)c;
	}
	pclose(p);
	if (!buf)
		buf = calloc(1, 1);
	else
		buf[len] = '\0';
	return buf;
}

/* A fresh empty directory PL_TEST_TMP/name (removed first if present). */
FIXTURE_UNUSED static void fx_fresh_dir(const char *dir)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, dir);
	if (system(cmd) != 0)
		abort();
}

/* Size of a file, or -1. */
FIXTURE_UNUSED static long fx_file_size(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return -1;
	return (long)st.st_size;
}

#endif
