/*
 * test_gate_rule.c — one rule for a series' latest night: `history
 * --fail-on-step` (pl_history_build_grouped + pl_history_gate) and `check
 * --baseline window:20 --candidate latest` (pl_gate_night_build) red on
 * exactly the same nights, on a seeded series with a regression that stays
 * open, is reverted, and (second series) is accepted; and the old history
 * rule, the input that disagreed, kept as the bug's record.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/accepted.h"
#include "core/gate_night.h"
#include "core/history.h"

#define NIGHTS 34
#define REPS 3

static uint64_t rng;

static double unit01(void)
{
	uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	double u = unit01(), v = unit01();
	return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* Night n's factor on ttft: +10% on nights 20-25 (commit bad), then
 * reverted; tpot never moves. */
static double factor(int n)
{
	return n >= 20 && n <= 25 ? 1.10 : 1.0;
}

/* The runs of nights 0..last (3 a night, 2% CV, ids 1 + 3n + r). */
static void make_runs(struct pl_run_list *l, int last, uint64_t seed)
{
	double s = sqrt(log(1.0 + 0.02 * 0.02));

	rng = seed;
	pl_run_list_init(l);
	for (int n = 0; n < NIGHTS; n++)
		for (int r = 0; r < REPS; r++) {
			double a = s * normal(), b = s * normal();
			char when[32];
			struct pl_run *run;
			if (n > last)
				continue;
			run = pl_run_list_push(l);
			assert_non_null(run);
			run->id = 1 + 3 * n + r;
			pl_run_set_cond(run, PL_C_MODEL, "m", NULL);
			pl_run_set_cond(run, PL_C_ENGINE, "vllm", NULL);
			pl_run_set_cond(run, PL_C_HARDWARE, "1x H100", NULL);
			pl_run_set_cond(run, PL_C_CONCURRENCY, "8", NULL);
			snprintf(when, sizeof(when), "2026-%02d-%02dT02:%02d:00Z", 10 + n / 31, 1 + n % 31, r);
			pl_run_set_cond(run, PL_C_RUN_STARTED_AT, when, NULL);
			pl_run_set_metric(run, PL_M_TTFT_P50, 0.060 * factor(n) * exp(a));
			pl_run_set_metric(run, PL_M_TPOT_P50, 0.010 * exp(b));
		}
}

static const int metrics[2] = {PL_M_TTFT_P50, PL_M_TPOT_P50};

/* check's verdict of the night: 1 red. */
static int check_red(const struct pl_run_list *runs, const struct pl_accepted_list *acc)
{
	struct pl_gate_night_opts o;
	struct pl_gate_night night;
	struct pl_error err;
	int red;

	memset(&o, 0, sizeof(o));
	memset(&err, 0, sizeof(err));
	o.group = PL_G_DAY;
	o.window = 20;
	o.metrics[0] = metrics[0];
	o.metrics[1] = metrics[1];
	o.nmetrics = 2;
	pl_gate_opts_init(&o.gate);
	assert_int_equal(pl_gate_night_build(runs, &o, acc, &night, &err), 0);
	red = night.nred > 0 || night.nfailed_series > 0;
	pl_gate_night_release(&night);
	return red;
}

/* history --fail-on-step's verdict: 1 fails; with gate 0 the old rule. */
static int history_fails(const struct pl_run_list *runs, const struct pl_accepted_list *acc,
                         int gate)
{
	struct pl_history h[2];
	struct pl_error err;
	size_t failing = 0;

	memset(&err, 0, sizeof(err));
	for (int k = 0; k < 2; k++)
		assert_int_equal(pl_history_build_grouped(runs, PL_G_DAY, metrics[k], NULL, acc, &h[k], &err),
		                 0);
	if (gate)
		assert_int_equal(pl_history_gate(h, 2, runs, PL_G_DAY, NULL, acc, &err), 0);
	for (int k = 0; k < 2; k++) {
		if (gate)
			assert_int_equal(h[k].gate, 1);
		failing += h[k].nfailing;
		pl_history_release(&h[k]);
	}
	return failing > 0;
}

/* The red nights from night 3 on, "20 21 ...", into buf. */
static void red_nights(char *buf, size_t n, int (*judge)(const struct pl_run_list *,
                                                        const struct pl_accepted_list *, int),
                       const struct pl_accepted_list *acc, int arg)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int last = 3; last < NIGHTS; last++) {
		struct pl_run_list runs;
		make_runs(&runs, last, 20261202);
		if (judge(&runs, acc, arg))
			len += (size_t)snprintf(buf + len, n - len, "%s%d", len ? " " : "", last);
		pl_run_list_release(&runs);
	}
}

static int judge_check(const struct pl_run_list *runs, const struct pl_accepted_list *acc, int unused)
{
	(void)unused;
	return check_red(runs, acc);
}

static int judge_history(const struct pl_run_list *runs, const struct pl_accepted_list *acc, int gate)
{
	return history_fails(runs, acc, gate);
}

/* The regression is red from its first night until it is reverted, in
 * check and history alike; the old history rule stayed red after the revert
 * (its worse step never closed) while check was green. */
static void test_same_nights(void **state)
{
	char c[256], h[256], old[256];

	(void)state;
	red_nights(c, sizeof(c), judge_check, NULL, 0);
	red_nights(h, sizeof(h), judge_history, NULL, 1);
	red_nights(old, sizeof(old), judge_history, NULL, 0);
	assert_string_equal(c, "20 21 22 23 24 25");
	assert_string_equal(h, c);
	assert_string_equal(old, "20 21 22 23 24 25 26 27 28 29 30 31 32 33");
}

/* Accepted at night 20's first run (id 61): green every night in both (the
 * revert on night 26 is an improvement against the accepted level). */
static void test_accepted(void **state)
{
	struct pl_accepted_list acc = {0};
	char c[256], h[256];

	(void)state;
	assert_int_equal(pl_accepted_list_push(&acc, 61, PL_M_TTFT_P50, "expected", "2026-10-21T00:00:00Z",
	                                       "lead"),
	                 0);
	red_nights(c, sizeof(c), judge_check, &acc, 0);
	red_nights(h, sizeof(h), judge_history, &acc, 1);
	assert_string_equal(c, "");
	assert_string_equal(h, c);
	pl_accepted_list_release(&acc);
}

/* Series of the night fixture: runner A (1x H100) at concurrency 1, 8
 * and 32, runner B (1x A100) at 8 whose driver is upgraded on night 26;
 * series 5, another model on B's new driver from night 27 (the trial's
 * fault: it was judged across "model m -> m2"). */
#define SERIES_NIGHTS 30
#define UPGRADE_NIGHT 26

static void series_of(int k, const char **hw, const char **conc, const char **driver)
{
	static const char *const hws[] = {"1x H100", "1x H100", "1x H100", "1x A100", "1x A100",
	                                  "1x A100"};
	static const char *const concs[] = {"1", "8", "32", "8", "8", "8"};
	static const char *const drivers[] = {"550.54.15", "550.54.15", "550.54.15", "550.54.15",
	                                      "570.86.15", "570.86.15"};
	*hw = hws[k];
	*conc = concs[k];
	*driver = drivers[k];
}

/* The runs of series k (0..4) into l (ids by night, series and repetition,
 * so that the series' ids interleave as nightly imports make them): A at
 * concurrency 8 is 10% slower in TTFT from night 27 (open); the upgrade
 * makes B 3% faster. */
static void series_runs(struct pl_run_list *l, int k)
{
	double s = sqrt(log(1.0 + 0.02 * 0.02));
	const char *hw, *conc, *driver;

	series_of(k, &hw, &conc, &driver);
	rng = 20261202u + (uint64_t)k;
	for (int n = 0; n < SERIES_NIGHTS; n++)
		for (int r = 0; r < REPS; r++) {
			double a = s * normal(), b = s * normal();
			double f = (k == 1 && n >= 27) ? 1.10 : k == 4 ? 0.97 : 1.0;
			char when[32];
			struct pl_run *run;
			if ((k == 3 && n >= UPGRADE_NIGHT) || (k == 4 && n < UPGRADE_NIGHT) ||
			    (k == 5 && n < UPGRADE_NIGHT + 1))
				continue;
			assert_non_null(run = pl_run_list_push(l));
			run->id = 1 + (n * 5 + k) * REPS + r;
			pl_run_set_cond(run, PL_C_MODEL, k == 5 ? "m2" : "m", NULL);
			pl_run_set_cond(run, PL_C_ENGINE, "vllm", NULL);
			pl_run_set_cond(run, PL_C_HARDWARE, hw, NULL);
			pl_run_set_cond(run, PL_C_DRIVER_VERSION, driver, NULL);
			pl_run_set_cond(run, PL_C_CONCURRENCY, conc, NULL);
			snprintf(when, sizeof(when), "2026-%02d-%02dT02:%02d:00Z", 10 + n / 31, 1 + n % 31,
			         k * REPS + r);
			pl_run_set_cond(run, PL_C_RUN_STARTED_AT, when, NULL);
			pl_run_set_metric(run, PL_M_TTFT_P50, 0.060 * f * exp(a));
			pl_run_set_metric(run, PL_M_TPOT_P50, 0.010 * f * exp(b));
		}
}

static void night_opts(struct pl_gate_night_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->group = PL_G_DAY;
	o->window = 20;
	o->metrics[0] = metrics[0];
	o->metrics[1] = metrics[1];
	o->nmetrics = 2;
	pl_gate_opts_init(&o->gate);
}

static void same_text(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

/* The night built series by series (as site and history build it from the
 * store, one condition key at a time, the runs taken) equals the night
 * built from the whole selection in memory (as check builds it), in every
 * series and check, whatever order the series come in; and it is the
 * night the fixture makes: B judged across its driver upgrade, A at c=8
 * red. */
static void test_series_by_series(void **state)
{
	struct pl_gate_night_opts o;
	struct pl_gate_night a, b;
	struct pl_gate_night_builder bl;
	struct pl_run_list all, one;
	struct pl_error err;

	(void)state;
	memset(&err, 0, sizeof(err));
	night_opts(&o);
	pl_run_list_init(&all);
	for (int k = 0; k < 5; k++)
		series_runs(&all, k);
	assert_int_equal(pl_gate_night_build(&all, &o, NULL, &a, &err), 0);
	assert_int_equal(pl_gate_night_begin(&bl, &o, NULL, &err), 0);
	for (int k = 4; k >= 0; k--) {
		pl_run_list_init(&one);
		series_runs(&one, k);
		assert_int_equal(pl_gate_night_add(&bl, &one, 1, &err), 0);
		pl_run_list_release(&one);
	}
	assert_int_equal(pl_gate_night_finish(&bl, &b, &err), 0);
	pl_gate_night_builder_release(&bl);

	assert_int_equal(a.nseries, 5);
	assert_int_equal(b.nseries, a.nseries);
	for (size_t s = 0; s < a.nseries; s++) {
		const struct pl_gate_series *x = &a.series[s], *y = &b.series[s];
		same_text(x->label, y->label);
		same_text(x->latest, y->latest);
		same_text(x->change, y->change);
		assert_int_equal(x->family, y->family);
		assert_int_equal(x->first_run, y->first_run);
		assert_int_equal(x->npoints, y->npoints);
		assert_int_equal(x->nfailed, y->nfailed);
		assert_int_equal(x->started, y->started);
		assert_int_equal(x->superseded, y->superseded);
		assert_int_equal(x->predecessor, y->predecessor);
	}
	assert_int_equal(b.nitems, a.nitems);
	for (size_t i = 0; i < a.nitems; i++) {
		const struct pl_gate_item *x = &a.items[i], *y = &b.items[i];
		assert_int_equal(x->series, y->series);
		assert_int_equal(x->metric, y->metric);
		assert_int_equal(x->verdict, y->verdict);
		assert_int_equal(x->nbase, y->nbase);
		assert_int_equal(x->across, y->across);
		assert_true(x->latest == y->latest);
		assert_true(x->g.p_adjusted == y->g.p_adjusted);
		assert_true(x->g.family_p_adjusted == y->g.family_p_adjusted);
		same_text(x->base_first, y->base_first);
		same_text(x->base_last, y->base_last);
		same_text(x->open_since, y->open_since);
	}
	assert_int_equal(b.nred, a.nred);
	assert_int_equal(b.nstarted, a.nstarted);
	assert_int_equal(b.caveats.n, a.caveats.n);

	/* the fixture's night */
	assert_string_equal(a.series[1].label, "m / 1x H100 / vllm / c=8");
	assert_int_equal(a.series[1].family, 0);
	assert_int_equal(a.series[3].superseded, 1);
	assert_null(a.series[3].latest);
	assert_string_equal(a.series[4].label, "m / 1x A100 / vllm / c=8 / driver_version=570.86.15");
	assert_string_equal(a.series[4].change, "driver_version 550.54.15 -> 570.86.15");
	assert_int_equal(a.series[4].predecessor, 3);
	assert_int_equal(a.series[4].npoints, 4);
	assert_int_equal(a.nitems, 8);
	for (size_t i = 0; i < a.nitems; i++) {
		static const size_t series_at[8] = {0, 0, 1, 1, 2, 2, 4, 4};
		const struct pl_gate_item *it = &a.items[i];
		size_t s = it->series;
		assert_int_equal(s, series_at[i]);
		assert_int_equal(it->verdict, s == 1 ? PL_V_REGRESSION : PL_V_NO_CHANGE);
		assert_int_equal(it->nbase, 20);
		assert_int_equal(it->across, s == 4);
		/* A at c=8: judged against the 20 nights before the open one */
		same_text(it->base_first, s == 4 ? "2026-10-07" : s == 1 ? "2026-10-08" : "2026-10-10");
		same_text(it->base_last, s == 4 ? "2026-10-26" : s == 1 ? "2026-10-27" : "2026-10-29");
		same_text(it->open_since, s == 1 ? "2026-10-28" : NULL);
	}
	assert_int_equal(a.nred, 2);
	assert_int_equal(a.nstarted, 0);
	pl_gate_night_release(&a);
	pl_gate_night_release(&b);
	pl_run_list_release(&all);
}

/* Another model (or hardware, precision, engine) is never a change of
 * condition to judge across: series 5, model m2 on B's upgraded stack with
 * 3 nights, does not continue B's old series (model m); it is started,
 * while B's own upgrade (series 4) still continues it. Before the fix it
 * took series 3 as its predecessor, across "model m -> m2". */
static void test_no_predecessor_across_model(void **state)
{
	struct pl_gate_night_opts o;
	struct pl_gate_night a;
	struct pl_run_list runs;
	struct pl_error err;

	(void)state;
	memset(&err, 0, sizeof(err));
	night_opts(&o);
	pl_run_list_init(&runs);
	series_runs(&runs, 3);
	series_runs(&runs, 4);
	series_runs(&runs, 5);
	assert_int_equal(pl_gate_night_build(&runs, &o, NULL, &a, &err), 0);
	assert_int_equal(a.nseries, 3);
	assert_string_equal(a.series[2].label, "m2 / 1x A100 / vllm / c=8");
	assert_int_equal(a.series[2].predecessor, (size_t)-1);
	assert_null(a.series[2].change);
	assert_int_equal(a.series[2].started, 1);
	assert_int_equal(a.series[1].predecessor, 0);
	assert_string_equal(a.series[1].change, "driver_version 550.54.15 -> 570.86.15");
	assert_int_equal(a.nstarted, 1);
	for (size_t i = 0; i < a.nitems; i++)
		assert_int_equal(a.items[i].across, a.items[i].series == 1);
	pl_gate_night_release(&a);
	pl_run_list_release(&runs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_nights),
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_series_by_series),
		cmocka_unit_test(test_no_predecessor_across_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
