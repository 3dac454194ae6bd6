/*
 * test_procure.c — procurement arithmetic against numbers computed by hand:
 * cost per million output tokens, the SLO throughput (measured,
 * interpolated, none, skipped points) and, end to end, the three-accelerator
 * sweep in samples/procurement-sweep imported into a fresh database.
 *
 * The sweep, SLO ttft_p95 <= 0.5 s and tpot_p95 <= 0.05 s:
 *   2x H100 ($8.0/h): c=16 ttft 0.30 meets, c=64 ttft 0.90 fails.
 *       t = (0.5-0.30)/(0.90-0.30) = 1/3 (tpot 0.040 meets at 64)
 *       c* = 16 + 48/3 = 32, X* = 720 + (1800-720)/3 = 1080 tok/s,
 *       per accelerator 540, cost = 8/(1080*3600)*1e6 = 2.0576131687 $/Mtok
 *   2x A100 ($4.0/h): ttft t = (0.5-0.45)/(1.25-0.45) = 0.0625,
 *       tpot t = (0.05-0.04)/(0.07-0.04) = 1/3; t = 0.0625
 *       c* = 16 + 48*0.0625 = 19, X* = 440 + 560*0.0625 = 475 tok/s,
 *       per accelerator 237.5, cost = 4/(475*3600)*1e6 = 2.3391812865
 *   1x MI300X ($4.5/h): t = (0.5-0.40)/(0.80-0.40) = 0.25
 *       c* = 28, X* = 500 + 700*0.25 = 675, per accelerator 675,
 *       cost = 4.5/(675*3600)*1e6 = 1.8518518519
 *
 * samples/procurement-api: a cloud API (deployment cloud-api) at the same
 * workload (2048 input, 512 output tokens), $0.6 per 1M input and $0.8 per
 * 1M output tokens, beside the sweep above:
 *   cost per 1M output tokens = 0.8 + 0.6 * 2048/512 = 0.8 + 2.4 = 3.2
 *       at every concurrency (it does not depend on throughput)
 *   SLO: c=4 ttft_p95 0.40 meets, c=16 0.55 fails (tpot_p95 0.017 meets):
 *       t = (0.5-0.40)/(0.55-0.40) = 2/3, c* = 4 + 12*2/3 = 12,
 *       X* = 210 + (800-210)*2/3 = 603.333..., no accelerator count, so
 *       no per-accelerator figures; cost at the SLO 3.2
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "adapters/adapters.h"
#include "core/compare.h"
#include "import/import.h"
#include "core/procure.h"
#include "store/db.h"

#define EPS 1e-9

static void test_cost_formula(void **state)
{
	(void)state;
	/* 1.8 / (1217.4 * 3600) * 1e6 = 0.4107113521... */
	assert_true(fabs(pl_procure_cost_per_mtok(1.8, 1217.4) - 0.4107113521) < 1e-9);
	assert_true(fabs(pl_procure_cost_per_mtok(3.6, 1000) - 1.0) < EPS);
	assert_true(isnan(pl_procure_cost_per_mtok(3.6, 0)));
	assert_true(isnan(pl_procure_cost_per_mtok(-1, 100)));
	assert_true(isnan(pl_procure_cost_per_mtok(NAN, 100)));
	assert_true(fabs(pl_procure_cost_per_mtok(0, 100)) < EPS);
}

static struct pl_slo two_limits(void)
{
	struct pl_slo slo = {{PL_M_TTFT_P95, PL_M_TPOT_P95}, {0.5, 0.05}, 2};
	return slo;
}

static struct pl_sweep_point pt(double c, double x, double ttft, double tpot)
{
	struct pl_sweep_point p;

	memset(&p, 0, sizeof(p));
	p.concurrency = c;
	p.throughput = x;
	p.latency[0] = ttft;
	p.latency[1] = tpot;
	p.has[0] = p.has[1] = 1;
	return p;
}

static void test_slo_interpolated(void **state)
{
	struct pl_slo slo = two_limits();
	/* given out of order on purpose */
	struct pl_sweep_point v[4] = {pt(64, 1000, 1.25, 0.07), pt(1, 40, 0.2, 0.025),
	                              pt(16, 440, 0.45, 0.04), pt(4, 140, 0.28, 0.03)};
	struct pl_slo_result res;

	(void)state;
	assert_int_equal(pl_procure_slo_throughput(v, 4, &slo, &res, NULL), 0);
	assert_int_equal(res.status, PL_SLO_INTERPOLATED);
	assert_true(fabs(res.throughput - 475) < EPS);
	assert_true(fabs(res.concurrency - 19) < EPS);
	assert_true(fabs(res.lo_concurrency - 16) < EPS);
	assert_true(fabs(res.hi_concurrency - 64) < EPS);
	assert_int_equal(res.skipped, 0);
}

static void test_slo_measured_and_none(void **state)
{
	struct pl_slo slo = two_limits();
	struct pl_sweep_point all_meet[2] = {pt(1, 50, 0.1, 0.01), pt(8, 300, 0.2, 0.02)};
	struct pl_sweep_point none[2] = {pt(1, 50, 0.6, 0.01), pt(8, 300, 0.9, 0.02)};
	/* the limit is met exactly at the failing side's neighbour: t = 0 */
	struct pl_sweep_point edge[2] = {pt(1, 50, 0.5, 0.01), pt(8, 300, 0.9, 0.02)};
	struct pl_sweep_point gap[3] = {pt(1, 50, 0.1, 0.01), pt(4, 150, 0.2, 0.02),
	                                pt(8, 300, 0.3, 0.02)};
	struct pl_slo_result res;

	(void)state;
	assert_int_equal(pl_procure_slo_throughput(all_meet, 2, &slo, &res, NULL), 0);
	assert_int_equal(res.status, PL_SLO_MEASURED);
	assert_true(fabs(res.throughput - 300) < EPS);
	assert_true(fabs(res.concurrency - 8) < EPS);

	assert_int_equal(pl_procure_slo_throughput(none, 2, &slo, &res, NULL), 0);
	assert_int_equal(res.status, PL_SLO_NONE_MEETS);
	assert_true(isnan(res.throughput));

	assert_int_equal(pl_procure_slo_throughput(edge, 2, &slo, &res, NULL), 0);
	assert_int_equal(res.status, PL_SLO_MEASURED);
	assert_true(fabs(res.throughput - 50) < EPS);

	/* a point without a limited metric is skipped, not judged */
	gap[2].has[1] = 0;
	assert_int_equal(pl_procure_slo_throughput(gap, 3, &slo, &res, NULL), 0);
	assert_int_equal(res.status, PL_SLO_MEASURED);
	assert_true(fabs(res.throughput - 150) < EPS);
	assert_int_equal(res.skipped, 1);

	slo.n = 0;
	assert_int_equal(pl_procure_slo_throughput(gap, 3, &slo, &res, NULL), PL_EUSAGE);
}

/* ------------------------------------------------- the bundled sweep sample */

static const struct pl_procure_group *group(const struct pl_procurement *p, const char *label)
{
	for (size_t i = 0; i < p->ngroups; i++)
		if (strcmp(p->groups[i].label, label) == 0)
			return &p->groups[i];
	fail_msg("no group '%s'", label);
	return NULL;
}

static void test_sample_sweep(void **state)
{
	const char *db = PL_TEST_TMP "/procure.db";
	const char *paths[] = {PL_SAMPLES_DIR "/procurement-sweep"};
	struct pl_import_opts iopts = {0};
	struct pl_store *st = NULL;
	struct pl_run_list runs;
	struct pl_compare_opts copts;
	struct pl_comparison cmp;
	struct pl_procurement p;
	struct pl_slo slo = two_limits();
	struct pl_error err;
	const struct pl_procure_group *g;

	(void)state;
	mkdir(PL_TEST_TMP, 0777);
	unlink(db);
	pl_error_init(&err);
	pl_run_list_init(&runs);
	assert_int_equal(pl_store_open(db, &st, &err), 0);
	assert_int_equal(pl_import_paths(st, paths, 1, &iopts, NULL, NULL, NULL, &err), 0);
	assert_int_equal(pl_store_query(st, NULL, 0, &runs, &err), 0);
	assert_int_equal(runs.n, 12);
	memset(&copts, 0, sizeof(copts));
	assert_int_equal(pl_compare_parse_axis(&copts, "hardware,concurrency", &err), 0);
	assert_int_equal(pl_compare_build(&runs, &copts, &cmp, &err), 0);
	assert_int_equal(cmp.nrows, 12);
	assert_int_equal(pl_procure_build(&cmp, &runs, &slo, NULL, 0, &p, &err), 0);
	assert_int_equal(p.sweep, 1);
	assert_int_equal(p.ngroups, 3);

	g = group(&p, "2x NVIDIA H100 80G");
	assert_int_equal(g->npoints, 4);
	assert_int_equal(g->slo.status, PL_SLO_INTERPOLATED);
	assert_true(fabs(g->slo.throughput - 1080) < 1e-6);
	assert_true(fabs(g->slo.concurrency - 32) < 1e-6);
	assert_true(fabs(g->slo_throughput_per_acc - 540) < 1e-6);
	assert_true(fabs(g->slo_cost_per_mtok - 2.0576131687) < 1e-9);
	assert_true(fabs(g->price_per_hour - 8.0) < EPS);
	assert_int_equal(g->price_source, 1);
	assert_true(fabs(g->price_per_acc_hour - 4.0) < EPS);
	assert_true(fabs(g->peak_throughput - 1800) < EPS);
	assert_int_equal(g->points[3].meets_slo, 0);
	assert_int_equal(g->points[2].meets_slo, 1);
	/* peak cost: 8 / (1800*3600) * 1e6 = 1.2345679012 */
	assert_true(fabs(g->points[3].cost_per_mtok - 1.2345679012) < 1e-9);

	g = group(&p, "2x NVIDIA A100 80G");
	assert_int_equal(g->slo.status, PL_SLO_INTERPOLATED);
	assert_true(fabs(g->slo.throughput - 475) < 1e-6);
	assert_true(fabs(g->slo.concurrency - 19) < 1e-6);
	assert_true(fabs(g->slo_throughput_per_acc - 237.5) < 1e-6);
	assert_true(fabs(g->slo_cost_per_mtok - 2.3391812865) < 1e-9);

	g = group(&p, "1x AMD MI300X 192G");
	assert_int_equal(g->slo.status, PL_SLO_INTERPOLATED);
	assert_true(fabs(g->slo.throughput - 675) < 1e-6);
	assert_true(fabs(g->slo.concurrency - 28) < 1e-6);
	assert_true(fabs(g->slo_throughput_per_acc - 675) < 1e-6);
	assert_true(fabs(g->slo_cost_per_mtok - 1.8518518519) < 1e-9);
	/* MI300X at c=64: 1200 tok/s per accelerator at 1/(0.036) tok/s per
	 * request dominates nothing above it -> on the front */
	assert_int_equal(g->points[3].pareto, 1);
	/* A100 at c=1 (20 tok/s/acc, 1/0.02 = 50 interactivity) is dominated
	 * by MI300X at c=1 (45, 1/0.0168 = 59.5) */
	assert_int_equal(group(&p, "2x NVIDIA A100 80G")->points[0].pareto, 0);

	pl_procurement_release(&p);
	pl_procurement_release(NULL);
	pl_comparison_release(&cmp);
	pl_run_list_release(&runs);
	pl_store_close(st);
}

static void test_price_table(void **state)
{
	/* Two rows of one hardware without prices in the runs: the table wins. */
	struct pl_comparison cmp;
	struct pl_compare_row rows[1];
	struct pl_run_list runs;
	struct pl_price table[1] = {{"1x NVIDIA L40S", 2.0, 0, 0, 0}};
	struct pl_procurement p;
	struct pl_run *r;

	(void)state;
	memset(&cmp, 0, sizeof(cmp));
	memset(rows, 0, sizeof(rows));
	pl_run_list_init(&runs);
	r = pl_run_list_push(&runs);
	r->id = 7;
	cmp.axis[0] = PL_C_HARDWARE;
	cmp.naxis = 1;
	cmp.rows = rows;
	cmp.nrows = 1;
	rows[0].axis[PL_C_HARDWARE].set = 1;
	rows[0].axis[PL_C_HARDWARE].text = (char *)"1x NVIDIA L40S";
	rows[0].axis[PL_C_ACCELERATOR_COUNT].set = 1;
	rows[0].axis[PL_C_ACCELERATOR_COUNT].num = 1;
	rows[0].n = 1;
	rows[0].run_ids = &r->id;
	rows[0].metric[PL_M_OUTPUT_THROUGHPUT] = 1000;
	rows[0].n_metric[PL_M_OUTPUT_THROUGHPUT] = 1;
	assert_int_equal(pl_procure_build(&cmp, &runs, NULL, table, 1, &p, NULL), 0);
	assert_int_equal(p.ngroups, 1);
	assert_int_equal(p.groups[0].price_source, 2);
	/* 2 / (1000*3600) * 1e6 = 0.5555... */
	assert_true(fabs(p.groups[0].points[0].cost_per_mtok - 0.55555555556) < 1e-9);
	assert_int_equal(p.groups[0].points[0].meets_slo, -1);
	pl_procurement_release(&p);
	pl_run_list_release(&runs);
}

static void test_api_cost_formula(void **state)
{
	(void)state;
	/* 0.8 + 0.6 * 2048 / 512 = 3.2 */
	assert_true(fabs(pl_procure_api_cost_per_mtok(0.6, 0.8, 2048, 512) - 3.2) < EPS);
	/* 2.5 + 1.25 * 1000 / 250 = 2.5 + 5 = 7.5 */
	assert_true(fabs(pl_procure_api_cost_per_mtok(1.25, 2.5, 1000, 250) - 7.5) < EPS);
	/* no prompt: the output price alone */
	assert_true(fabs(pl_procure_api_cost_per_mtok(3, 0.5, 0, 128) - 0.5) < EPS);
	assert_true(isnan(pl_procure_api_cost_per_mtok(0.6, 0.8, 2048, 0)));
	assert_true(isnan(pl_procure_api_cost_per_mtok(0.6, 0.8, NAN, 512)));
	assert_true(isnan(pl_procure_api_cost_per_mtok(-0.6, 0.8, 2048, 512)));
	assert_true(isnan(pl_procure_api_cost_per_mtok(0.6, INFINITY, 2048, 512)));
}

static void test_sample_api(void **state)
{
	const char *db = PL_TEST_TMP "/procure-api.db";
	const char *paths[] = {PL_SAMPLES_DIR "/procurement-sweep", PL_SAMPLES_DIR "/procurement-api"};
	struct pl_import_opts iopts = {0};
	struct pl_store *st = NULL;
	struct pl_run_list runs;
	struct pl_compare_opts copts;
	struct pl_comparison cmp;
	struct pl_procurement p;
	struct pl_slo slo = two_limits();
	struct pl_error err;
	const struct pl_procure_group *g;

	(void)state;
	mkdir(PL_TEST_TMP, 0777);
	unlink(db);
	pl_error_init(&err);
	pl_run_list_init(&runs);
	assert_int_equal(pl_store_open(db, &st, &err), 0);
	assert_int_equal(pl_import_paths(st, paths, 2, &iopts, NULL, NULL, NULL, &err), 0);
	assert_int_equal(pl_store_query(st, NULL, 0, &runs, &err), 0);
	assert_int_equal(runs.n, 16);
	memset(&copts, 0, sizeof(copts));
	assert_int_equal(
		pl_compare_parse_axis(&copts, "hardware,deployment,engine,concurrency", &err), 0);
	assert_int_equal(pl_compare_build(&runs, &copts, &cmp, &err), 0);
	assert_int_equal(cmp.nrows, 16);
	assert_int_equal(pl_procure_build(&cmp, &runs, &slo, NULL, 0, &p, &err), 0);
	assert_int_equal(p.ngroups, 4);

	g = group(&p, "ExampleCloud serverless API / cloud-api / examplecloud");
	assert_int_equal(g->token_priced, 1);
	assert_int_equal(g->price_source, 1);
	assert_true(fabs(g->price_in_per_mtok - 0.6) < EPS);
	assert_true(fabs(g->price_out_per_mtok - 0.8) < EPS);
	assert_true(isnan(g->price_per_hour));
	assert_true(isnan(g->price_per_acc_hour));
	assert_true(isnan(g->accelerators));
	for (size_t i = 0; i < g->npoints; i++)
		assert_true(fabs(g->points[i].cost_per_mtok - 3.2) < EPS);
	assert_int_equal(g->slo.status, PL_SLO_INTERPOLATED);
	assert_true(fabs(g->slo.concurrency - 12) < 1e-9);
	assert_true(fabs(g->slo.throughput - 603.3333333333) < 1e-6);
	assert_true(isnan(g->slo_throughput_per_acc));
	assert_true(fabs(g->slo_cost_per_mtok - 3.2) < EPS);

	/* the hourly-priced accelerators beside it keep their figures */
	g = group(&p, "2x NVIDIA H100 80G / local / vllm");
	assert_int_equal(g->token_priced, 0);
	assert_true(fabs(g->slo_cost_per_mtok - 2.0576131687) < 1e-9);
	g = group(&p, "1x AMD MI300X 192G / local / vllm");
	assert_true(fabs(g->slo_cost_per_mtok - 1.8518518519) < 1e-9);

	pl_procurement_release(&p);
	pl_comparison_release(&cmp);
	pl_run_list_release(&runs);
	pl_store_close(st);
}

static void test_api_price_table(void **state)
{
	/* A cloud-api row without prices in its runs takes the table's token
	 * prices; a local row ignores a per-token entry; no SLO point -> no
	 * cost at the SLO. */
	struct pl_comparison cmp;
	struct pl_compare_row rows[2];
	struct pl_run_list runs;
	struct pl_price table[2] = {{"Some API", 0, 1, 1.0, 4.0}, {"1x NVIDIA L40S", 0, 1, 1.0, 4.0}};
	struct pl_slo slo = two_limits();
	struct pl_procurement p;
	struct pl_run *r;

	(void)state;
	memset(&cmp, 0, sizeof(cmp));
	memset(rows, 0, sizeof(rows));
	pl_run_list_init(&runs);
	r = pl_run_list_push(&runs);
	r->id = 7;
	r = pl_run_list_push(&runs);
	r->id = 8;
	cmp.axis[0] = PL_C_HARDWARE;
	cmp.axis[1] = PL_C_DEPLOYMENT;
	cmp.naxis = 2;
	cmp.rows = rows;
	cmp.nrows = 2;
	cmp.shared[PL_C_INPUT_TOKENS].set = 1;
	cmp.shared[PL_C_INPUT_TOKENS].num = 1000;
	cmp.shared[PL_C_MAX_OUTPUT_TOKENS].set = 1;
	cmp.shared[PL_C_MAX_OUTPUT_TOKENS].num = 250;
	rows[0].axis[PL_C_HARDWARE].set = 1;
	rows[0].axis[PL_C_HARDWARE].text = (char *)"Some API";
	rows[0].axis[PL_C_DEPLOYMENT].set = 1;
	rows[0].axis[PL_C_DEPLOYMENT].text = (char *)"cloud-api";
	rows[1].axis[PL_C_HARDWARE].set = 1;
	rows[1].axis[PL_C_HARDWARE].text = (char *)"1x NVIDIA L40S";
	rows[1].axis[PL_C_DEPLOYMENT].set = 1;
	rows[1].axis[PL_C_DEPLOYMENT].text = (char *)"local";
	for (int i = 0; i < 2; i++) {
		rows[i].n = 1;
		rows[i].run_ids = &runs.v[i].id;
		rows[i].metric[PL_M_OUTPUT_THROUGHPUT] = 1000;
		rows[i].n_metric[PL_M_OUTPUT_THROUGHPUT] = 1;
		rows[i].metric[PL_M_TTFT_P95] = 0.9; /* fails the SLO */
		rows[i].n_metric[PL_M_TTFT_P95] = 1;
		rows[i].metric[PL_M_TPOT_P95] = 0.01;
		rows[i].n_metric[PL_M_TPOT_P95] = 1;
	}
	assert_int_equal(pl_procure_build(&cmp, &runs, &slo, table, 2, &p, NULL), 0);
	assert_int_equal(p.ngroups, 2);
	assert_int_equal(p.groups[0].token_priced, 1);
	assert_int_equal(p.groups[0].price_source, 2);
	/* 4 + 1 * 1000/250 = 8 */
	assert_true(fabs(p.groups[0].points[0].cost_per_mtok - 8.0) < EPS);
	assert_int_equal(p.groups[0].slo.status, PL_SLO_NONE_MEETS);
	assert_true(isnan(p.groups[0].slo_cost_per_mtok));
	assert_int_equal(p.groups[1].token_priced, 0);
	assert_int_equal(p.groups[1].price_source, 0);
	assert_true(isnan(p.groups[1].points[0].cost_per_mtok));
	pl_procurement_release(&p);
	pl_run_list_release(&runs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cost_formula),
		cmocka_unit_test(test_slo_interpolated),
		cmocka_unit_test(test_slo_measured_and_none),
		cmocka_unit_test(test_sample_sweep),
		cmocka_unit_test(test_price_table),
		cmocka_unit_test(test_api_cost_formula),
		cmocka_unit_test(test_sample_api),
		cmocka_unit_test(test_api_price_table),
	};
	pl_adapters_init(); /* cJSON's allocator hooks, as main() does */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
