/* test_history.c — check verdicts (regression, no change over many seeds,
 * too few, improvement, refusal, acceptance), history points and steps, and
 * the accepted-steps store, on synthetic series from a fixed seed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "core/check.h"
#include "core/history.h"
#include "core/normalize.h"
#include "store/db.h"

/* A small deterministic generator: 64-bit LCG (Knuth's MMIX constants) and
 * Box-Muller, so the series do not depend on the C library's rand(). */
static unsigned long long rng_state;

static double uniform01(void)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2.0 * log(uniform01())) * cos(6.283185307179586 * uniform01());
}

static void add_run(struct pl_run_list *l, long long id, const char *version, const char *conc,
                    const char *when, double ttft, double thr)
{
	struct pl_run *r = pl_run_list_push(l);
	assert_non_null(r);
	r->id = id;
	pl_run_set_cond(r, PL_C_MODEL, "m", NULL);
	pl_run_set_cond(r, PL_C_PRECISION, "bf16", NULL);
	pl_run_set_cond(r, PL_C_ENGINE, "vllm", NULL);
	pl_run_set_cond(r, PL_C_ENGINE_VERSION, version, NULL);
	pl_run_set_cond(r, PL_C_HARDWARE, "1x H100", NULL);
	pl_run_set_cond(r, PL_C_CONCURRENCY, conc, NULL);
	if (when)
		pl_run_set_cond(r, PL_C_RUN_STARTED_AT, when, NULL);
	assert_int_equal(pl_normalize_run(r, NULL), 0);
	pl_run_set_metric(r, PL_M_TTFT_P50, ttft);
	if (thr > 0)
		pl_run_set_metric(r, PL_M_OUTPUT_THROUGHPUT, thr);
}

/* n runs of version with TTFT level * (1 + noise N(0,1)), ids from *id. */
static void add_side(struct pl_run_list *l, long long *id, const char *version, size_t n,
                     double ttft, double thr, double noise)
{
	for (size_t i = 0; i < n; i++, (*id)++)
		add_run(l, *id, version, "16", NULL, ttft * (1 + noise * gauss()),
		        thr * (1 + noise * gauss()));
}

static void opts_init(struct pl_check_opts *o, const char *base, const char *cand)
{
	memset(o, 0, sizeof(*o));
	o->axis = PL_C_ENGINE_VERSION;
	o->baseline = base;
	o->candidate = cand;
	o->threshold = PL_CHECK_THRESHOLD_DEFAULT;
	o->alpha = PL_CHECK_ALPHA;
}

static void regression_detected(void **state)
{
	struct pl_run_list runs = {0};
	struct pl_check_opts o;
	struct pl_check chk;
	long long id = 1;
	(void)state;
	rng_state = 42;
	add_side(&runs, &id, "0.9.0", 12, 0.100, 3000, 0.01);
	add_side(&runs, &id, "0.9.1", 12, 0.110, 3000, 0.01);
	opts_init(&o, "0.9.0", "0.9.1");
	assert_int_equal(pl_check_build(&runs, &o, NULL, &chk, NULL), 0);
	assert_int_equal(chk.n_base, 12);
	assert_int_equal(chk.n_cand, 12);
	assert_int_equal(chk.nm, 2); /* ttft_p50, output_throughput: both sides have them */
	assert_int_equal(chk.m[0].metric, PL_M_TTFT_P50);
	assert_int_equal(chk.m[0].verdict, PL_V_REGRESSION);
	assert_true(chk.m[0].change.rel_change > 0.07 && chk.m[0].change.rel_change < 0.13);
	/* 1% noise and a 10% shift separate the samples completely: the exact
	 * two-sided p is 2 / C(24, 12) = 2 / 2704156 (Mann & Whitney 1947). */
	assert_true(fabs(chk.m[0].change.p_value - 2.0 / 2704156.0) < 1e-15);
	/* n = 12 at 95%: j = 3 since P(B <= 2) = 79/4096 for B ~ Bin(12, 1/2),
	 * coverage 1 - 2 * 79/4096 = 0.96142578125 (j = 4: 0.854 < 0.95). */
	assert_true(fabs(chk.m[0].base.ci_level - 0.96142578125) < 1e-12);
	assert_int_not_equal(chk.m[1].verdict, PL_V_REGRESSION);
	assert_int_equal(chk.nregressions, 1);
	pl_check_release(&chk);
	pl_run_list_release(&runs);
}

/* No change with 3% noise, 400 seeds, threshold 0 (so only the test
 * decides): a one-sided "worse" false alarm needs p < alpha in the bad
 * direction, about alpha / 2 = 2.5% of the time. */
static void false_alarm_rate(void **state)
{
	int alarms = 0, trials = 400;
	(void)state;
	for (int s = 0; s < trials; s++) {
		struct pl_run_list runs = {0};
		struct pl_check_opts o;
		struct pl_check chk;
		long long id = 1;
		rng_state = 1000 + (unsigned long long)s;
		add_side(&runs, &id, "1", 10, 0.100, 0, 0.03);
		add_side(&runs, &id, "2", 10, 0.100, 0, 0.03);
		opts_init(&o, "1", "2");
		o.threshold = 0;
		o.metrics[0] = PL_M_TTFT_P50;
		o.nmetrics = 1;
		assert_int_equal(pl_check_build(&runs, &o, NULL, &chk, NULL), 0);
		alarms += chk.nregressions > 0;
		pl_check_release(&chk);
		pl_run_list_release(&runs);
	}
	assert_true(alarms >= 3 && alarms <= 20); /* 0.75% .. 5% */
}

static void too_few_and_improvement(void **state)
{
	struct pl_run_list runs = {0};
	struct pl_check_opts o;
	struct pl_check chk;
	long long id = 1;
	(void)state;
	rng_state = 7;
	add_side(&runs, &id, "a", 2, 0.100, 3000, 0.01);
	add_side(&runs, &id, "b", 2, 0.150, 3000, 0.01);
	add_side(&runs, &id, "c", 8, 0.100, 3000, 0.01);
	add_side(&runs, &id, "d", 8, 0.080, 3000, 0.01);
	opts_init(&o, "a", "b");
	assert_int_equal(pl_check_build(&runs, &o, NULL, &chk, NULL), 0);
	assert_int_equal(chk.ndecidable, 0);
	assert_int_equal(chk.m[0].verdict, PL_V_TOO_FEW);
	assert_true(fabs(chk.m[0].min_p - 1.0 / 3.0) < 1e-12);
	pl_check_release(&chk);

	opts_init(&o, "c", "d");
	assert_int_equal(pl_check_build(&runs, &o, NULL, &chk, NULL), 0);
	assert_int_equal(chk.m[0].verdict, PL_V_IMPROVEMENT);
	assert_int_equal(chk.nimprovements, 1);
	assert_int_equal(chk.nregressions, 0);
	pl_check_release(&chk);

	opts_init(&o, "c", "zz");
	assert_int_equal(pl_check_build(&runs, &o, NULL, &chk, NULL), PL_EEMPTY);
	pl_check_release(&chk);
	pl_run_list_release(&runs);
}

static void refused_and_accepted(void **state)
{
	struct pl_run_list runs = {0};
	struct pl_accepted_list acc = {0};
	struct pl_check_opts o;
	struct pl_check chk;
	long long id = 1;
	(void)state;
	rng_state = 9;
	add_side(&runs, &id, "1", 6, 0.100, 3000, 0.01);
	add_side(&runs, &id, "2", 6, 0.120, 3000, 0.01);
	add_run(&runs, id++, "2", "32", NULL, 0.12, 3000); /* other concurrency */
	opts_init(&o, "1", "2");
	assert_int_equal(pl_check_build(&runs, &o, NULL, &chk, NULL), PL_EMISMATCH);
	assert_int_equal(chk.cmp.nmismatches, 1);
	assert_int_equal(chk.cmp.mismatches[0].cond, PL_C_CONCURRENCY);
	pl_check_release(&chk);

	runs.n--; /* drop it again */
	pl_run_release(&runs.v[runs.n]);
	assert_int_equal(pl_accepted_list_push(&acc, 9, PL_M_TTFT_P50, "expected", "t", "ci"), 0);
	assert_int_equal(pl_check_build(&runs, &o, &acc, &chk, NULL), 0);
	assert_int_equal(chk.m[0].verdict, PL_V_ACCEPTED);
	assert_int_equal(chk.nregressions, 0);
	assert_int_equal(chk.naccepted, 1);
	pl_check_release(&chk);
	pl_accepted_list_release(&acc);
	pl_run_list_release(&runs);
}

static void history_step_at_index(void **state)
{
	struct pl_run_list runs = {0};
	struct pl_accepted_list acc = {0};
	struct pl_history h;
	(void)state;
	rng_state = 2024;
	for (int i = 0; i < 30; i++) {
		char when[32];
		snprintf(when, sizeof(when), "2026-11-%02dT02:00:00Z", 30 - i); /* stored newest first */
		double level = (29 - i) >= 20 ? 0.112 : 0.100;
		add_run(&runs, 100 + i, "0.9.2", "8", when, level * (1 + 0.015 * gauss()), 0);
	}
	assert_int_equal(pl_history_build(&runs, PL_C_RUN_STARTED_AT, PL_M_TTFT_P50, NULL, NULL, &h,
	                                  NULL),
	                 0);
	assert_int_equal(h.npoints, 30);
	assert_string_equal(h.points[0].value.text, "2026-11-01T02:00:00Z");
	assert_true(h.detected);
	assert_int_equal(h.nsteps, 1);
	assert_int_equal(h.steps[0].index, 20);
	assert_true(h.steps[0].worse);
	assert_int_equal(h.steps[0].first_run, 109); /* the run of 2026-11-21 */
	assert_int_equal(h.nfailing, 1);
	pl_history_release(&h);

	assert_int_equal(pl_accepted_list_push(&acc, 109, PL_M_TTFT_P50, "kernel", "t", "ci"), 0);
	assert_int_equal(pl_history_build(&runs, PL_C_RUN_STARTED_AT, PL_M_TTFT_P50, NULL, &acc, &h,
	                                  NULL),
	                 0);
	assert_non_null(h.steps[0].accepted);
	assert_int_equal(h.nfailing, 0);
	pl_history_release(&h);

	assert_int_equal(pl_history_build(&runs, PL_C_HARDWARE, PL_M_TTFT_P50, NULL, NULL, &h, NULL),
	                 PL_EUSAGE);
	pl_history_release(&h);
	pl_accepted_list_release(&acc);
	pl_run_list_release(&runs);
}

static void store_accepted_steps(void **state)
{
	char path[512];
	struct pl_store *st = NULL;
	struct pl_run run;
	struct pl_accepted_list acc = {0};
	int inserted = 0, replaced = -1;
	(void)state;
	mkdir(PL_TEST_TMP, 0777);
	snprintf(path, sizeof(path), "%s/history_accept.db", PL_TEST_TMP);
	remove(path);
	assert_int_equal(pl_store_open(path, &st, NULL), 0);
	pl_run_init(&run);
	pl_run_set_cond(&run, PL_C_MODEL, "m", NULL);
	pl_run_set_cond(&run, PL_C_PRECISION, "bf16", NULL);
	pl_run_set_cond(&run, PL_C_ENGINE, "vllm", NULL);
	pl_run_set_cond(&run, PL_C_HARDWARE, "1x H100", NULL);
	pl_run_set_metric(&run, PL_M_TTFT_P50, 0.1);
	pl_strset(&run.source, "x.json");
	pl_strset(&run.adapter, "descriptor");
	memset(run.sha256, 'a', 64);
	if (pl_store_insert_run(st, &run, &inserted, NULL) != 0 || inserted != 1) {
		/* clean up first so the sanitizer reports the failure, not a leak */
		pl_run_release(&run);
		pl_store_close(st);
		fail_msg("cannot store the test run");
	}
	assert_int_equal(pl_store_accept_step(st, run.id, PL_M_TTFT_P50, "why", "ci", &replaced, NULL), 0);
	assert_int_equal(replaced, 0);
	/* accepted_at honours SOURCE_DATE_EPOCH, and a bad one is refused */
	setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
	assert_int_equal(pl_store_accept_step(st, run.id, PL_M_TTFT_P50, "why 2", "ci", &replaced, NULL), 0);
	assert_int_equal(replaced, 1);
	setenv("SOURCE_DATE_EPOCH", "soon", 1);
	assert_int_equal(pl_store_accept_step(st, run.id, PL_M_TTFT_P50, "x", "ci", NULL, NULL), PL_EUSAGE);
	unsetenv("SOURCE_DATE_EPOCH");
	assert_int_equal(pl_store_accept_step(st, run.id + 99, PL_M_TTFT_P50, "x", "ci", NULL, NULL),
	                 PL_EEMPTY);
	assert_int_equal(pl_store_accept_step(st, run.id, PL_M_TTFT_P50, "", "ci", NULL, NULL), PL_EUSAGE);
	assert_int_equal(pl_store_accepted_steps(st, PL_M_TTFT_P95, &acc, NULL), 0);
	assert_int_equal(acc.n, 0);
	assert_int_equal(pl_store_accepted_steps(st, PL_M_NONE, &acc, NULL), 0);
	assert_int_equal(acc.n, 1);
	assert_string_equal(acc.v[0].reason, "why 2");
	assert_string_equal(acc.v[0].accepted_at, "2023-11-14T22:13:20Z");
	assert_int_equal(acc.v[0].metric, PL_M_TTFT_P50);
	pl_accepted_list_release(&acc);
	pl_run_release(&run);
	pl_store_close(st);
	remove(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(regression_detected),
		cmocka_unit_test(false_alarm_rate),
		cmocka_unit_test(too_few_and_improvement),
		cmocka_unit_test(refused_and_accepted),
		cmocka_unit_test(history_step_at_index),
		cmocka_unit_test(store_accepted_steps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
