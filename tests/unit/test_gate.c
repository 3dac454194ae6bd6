/*
 * test_gate.c — the nightly gate's decision over one night's checks
 * (core/gate.h): Holm's adjusted p-values, the t score of one check against
 * a closed form, a family that fails where none of its members would
 * alone, the minimum effect at its boundary, the outlier rule, and a
 * seeded simulated nightly workload's exact verdicts.
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

#include "core/ci_env.h"
#include "core/gate.h"
#include "core/model.h"
#include "core/stats.h"
#include "render/regress.h"

static void test_holm(void **state)
{
	const double p[4] = {0.01, 0.04, 0.03, 0.005};
	double adj[4];
	struct pl_error err;

	(void)state;
	assert_int_equal(pl_gate_holm(p, 4, adj, &err), 0);
	/* sorted 0.005 x4 = 0.02, 0.01 x3 = 0.03, 0.03 x2 = 0.06, 0.04 x1 -> 0.06 */
	assert_true(fabs(adj[0] - 0.03) < 1e-15);
	assert_true(fabs(adj[1] - 0.06) < 1e-15);
	assert_true(fabs(adj[2] - 0.06) < 1e-15);
	assert_true(fabs(adj[3] - 0.02) < 1e-15);
	assert_int_equal(pl_gate_holm(NULL, 0, NULL, &err), 0);
	assert_int_equal(pl_gate_holm(NULL, 1, adj, &err), PL_EUSAGE);
}

/* A window of 5 whose logs are scale * {-2, -1, 0, 1, 2}: mean 0, s =
 * scale * sqrt(2.5); with k = 5 the t score of latest e^y is y / (s sqrt(1.2)). */
static void window5(double *w, double scale)
{
	for (int i = 0; i < 5; i++)
		w[i] = exp(scale * (double)(i - 2));
}

/* Q_t(t, 4) in closed form: F(t) = 1/2 + (3/8) x (1 - x^2 / 12), x = t / sqrt(1 + t^2 / 4). */
static double q_t4(double t)
{
	double x = t / sqrt(1.0 + t * t / 4.0);
	return 0.5 - 0.375 * x * (1.0 - x * x / 12.0);
}

static void check_at(struct pl_gate_check *c, const double *w, double t, int metric, size_t family)
{
	double s = 0.02 * sqrt(2.5) * sqrt(1.2);
	int dir = pl_metric_info[metric].direction;

	memset(c, 0, sizeof(*c));
	c->window = w;
	c->nwindow = 5;
	c->latest = exp((dir == PL_LOWER_IS_BETTER ? 1.0 : -1.0) * t * s);
	c->direction = dir;
	c->metric = metric;
	c->family = family;
}

static void test_one_check_score(void **state)
{
	double w[5];
	struct pl_gate_check c;
	struct pl_gate_verdict v;
	struct pl_gate_opts o;
	struct pl_error err;

	(void)state;
	window5(w, 0.02);
	pl_gate_opts_init(&o);
	check_at(&c, w, 2.5, PL_M_TPOT_P50, 0);
	assert_int_equal(pl_gate_decide(&c, 1, &o, &v, &err), 0);
	assert_int_equal(v.decidable, 1);
	assert_int_equal(v.nused, 5);
	assert_true(fabs(v.p - q_t4(2.5)) < 1e-12);
	assert_true(fabs(v.p - 0.0333825) < 1e-6);
	assert_true(fabs(v.rel_change - (exp(2.5 * 0.02 * sqrt(3.0)) - 1.0)) < 1e-12);
	assert_true(fabs(v.p_adjusted - v.p) < 1e-15); /* one test */
	assert_int_equal(v.red, 1);                     /* 9.05% worse, p 0.033 */
	assert_int_equal(v.by, PL_GATE_BY_SELF);
	/* higher is better: the same score the other way */
	check_at(&c, w, 2.5, PL_M_OUTPUT_THROUGHPUT, 0);
	assert_int_equal(pl_gate_decide(&c, 1, &o, &v, &err), 0);
	assert_true(fabs(v.p - q_t4(2.5)) < 1e-12);
	assert_int_equal(v.red, 1);
	/* an improvement is not red; it is better */
	check_at(&c, w, -4.0, PL_M_TPOT_P50, 0);
	assert_int_equal(pl_gate_decide(&c, 1, &o, &v, &err), 0);
	assert_int_equal(v.red, 0);
	assert_int_equal(v.better, 1);
	/* too few window points, no direction, a value <= 0: undecidable */
	check_at(&c, w, 9.0, PL_M_TPOT_P50, 0);
	c.nwindow = 2;
	assert_int_equal(pl_gate_decide(&c, 1, &o, &v, &err), 0);
	assert_int_equal(v.decidable, 0);
	assert_int_equal(v.red, 0);
	check_at(&c, w, 9.0, PL_M_TPOT_P50, 0);
	c.direction = PL_NO_DIRECTION;
	assert_int_equal(pl_gate_decide(&c, 1, &o, &v, &err), 0);
	assert_int_equal(v.decidable, 0);
	check_at(&c, w, 9.0, PL_M_TPOT_P50, 0);
	c.latest = 0;
	assert_int_equal(pl_gate_decide(&c, 1, &o, &v, &err), 0);
	assert_int_equal(v.decidable, 0);
	/* bad options */
	o.alpha = 1;
	assert_int_equal(pl_gate_decide(&c, 1, &o, &v, &err), PL_EUSAGE);
}

/* Three concurrencies of one runner at t = 2.5 each, and three of another
 * at 0: alone each p = 0.0334 x 8 tests is far from 0.05; their family's
 * Z = 3 * Phi^-1(1 - 0.0334) / sqrt(3) = 3.175, p 0.00075, x 8 = 0.006. */
static void test_family(void **state)
{
	double w[5];
	struct pl_gate_check c[6];
	struct pl_gate_verdict v[6];
	struct pl_gate_opts o;
	struct pl_error err;

	(void)state;
	window5(w, 0.02);
	pl_gate_opts_init(&o);
	for (int i = 0; i < 6; i++)
		check_at(&c[i], w, i < 3 ? 2.5 : 0.0, PL_M_TPOT_P50, (size_t)(i / 3));
	assert_int_equal(pl_gate_decide(c, 6, &o, v, &err), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(v[i].red, 1);
		assert_int_equal(v[i].by, PL_GATE_BY_FAMILY);
		assert_int_equal(v[i].family_n, 3);
		assert_true(fabs(v[i].family_z - sqrt(3.0) * 1.8333) < 1e-3);
		assert_true(fabs(v[i].p_adjusted - 7 * q_t4(2.5)) < 1e-12); /* ties after the family: 7p */
		assert_true(v[i].family_p_adjusted < 0.05);
	}
	for (int i = 3; i < 6; i++) {
		assert_int_equal(v[i].red, 0);
		assert_true(fabs(v[i].p - 0.5) < 1e-12);
	}
	/* without pooling none is red: the floor of per-series tests */
	o.pool = 0;
	assert_int_equal(pl_gate_decide(c, 6, &o, v, &err), 0);
	for (int i = 0; i < 6; i++)
		assert_int_equal(v[i].red, 0);
	/* a member that did not move the worse way at member_alpha is not blamed */
	o.pool = 1;
	check_at(&c[2], w, 1.0, PL_M_TPOT_P50, 0);
	check_at(&c[0], w, 4.0, PL_M_TPOT_P50, 0);
	assert_int_equal(pl_gate_decide(c, 6, &o, v, &err), 0);
	assert_int_equal(v[1].by, PL_GATE_BY_FAMILY);
	assert_int_equal(v[2].red, 0); /* p = Q_t(1, 4) = 0.187 */
	/* different metrics do not pool */
	for (int i = 0; i < 3; i++)
		check_at(&c[i], w, 2.5, i == 1 ? PL_M_TTFT_P50 : PL_M_TPOT_P50, 0);
	assert_int_equal(pl_gate_decide(c, 6, &o, v, &err), 0);
	assert_int_equal(v[1].family_n, 1);
	assert_int_equal(v[0].family_n, 2);
}

/* The minimum effect at its boundary: a latest point exactly 9.05% worse
 * is red with threshold 0.0905 - 1e-9 and not with 0.0905 + 1e-9. */
static void test_threshold_boundary(void **state)
{
	double w[5], change = exp(2.5 * 0.02 * sqrt(3.0)) - 1.0;
	struct pl_gate_check c;
	struct pl_gate_verdict v;
	struct pl_gate_opts o;
	struct pl_error err;

	(void)state;
	window5(w, 0.02);
	pl_gate_opts_init(&o);
	check_at(&c, w, 2.5, PL_M_TPOT_P50, 0);
	o.threshold = change - 1e-9;
	assert_int_equal(pl_gate_decide(&c, 1, &o, &v, &err), 0);
	assert_int_equal(v.red, 1);
	o.threshold = change + 1e-9;
	assert_int_equal(pl_gate_decide(&c, 1, &o, &v, &err), 0);
	assert_int_equal(v.red, 0);
	/* alpha at the check's p exactly: rejected (p <= alpha) */
	o.threshold = 0.05;
	o.alpha = v.p;
	assert_int_equal(pl_gate_decide(&c, 1, &o, &v, &err), 0);
	assert_int_equal(v.red, 1);
	o.alpha = v.p * (1 - 1e-9);
	assert_int_equal(pl_gate_decide(&c, 1, &o, &v, &err), 0);
	assert_int_equal(v.red, 0);
}

/* A spike night in the window (+40%) is left out; without the rule it
 * would widen s sevenfold and hide a +10% point. */
static void test_outlier(void **state)
{
	double w[20];
	struct pl_gate_check c;
	struct pl_gate_verdict v;
	struct pl_gate_opts o;
	struct pl_error err;

	(void)state;
	for (int i = 0; i < 20; i++)
		w[i] = 1.0 + 0.01 * (double)((i * 7) % 5 - 2);
	w[13] = 1.4;
	memset(&c, 0, sizeof(c));
	c.window = w;
	c.nwindow = 20;
	c.latest = 1.10;
	c.direction = PL_LOWER_IS_BETTER;
	c.metric = PL_M_TPOT_P50;
	pl_gate_opts_init(&o);
	assert_int_equal(pl_gate_decide(&c, 1, &o, &v, &err), 0);
	assert_int_equal(v.nused, 19);
	assert_int_equal(v.red, 1);
	w[13] = 1.02; /* an ordinary night: all 20 kept */
	assert_int_equal(pl_gate_decide(&c, 1, &o, &v, &err), 0);
	assert_int_equal(v.nused, 20);
}


/* The baseline a point is judged against (pl_gate_baseline). */
static void test_baseline(void **state)
{
	double y[24];
	size_t from, to;
	struct pl_gate_opts o;

	(void)state;
	pl_gate_opts_init(&o);
	for (int i = 0; i < 24; i++)
		y[i] = 1.0 + 0.01 * (double)((i * 7) % 5 - 2);
	/* a quiet series: the N points before c */
	pl_gate_baseline(y, 20, 0, (size_t)-1, 20, PL_LOWER_IS_BETTER, &o, &from, &to);
	assert_int_equal(from, 0);
	assert_int_equal(to, 20);
	pl_gate_baseline(y, 20, 0, (size_t)-1, 5, PL_LOWER_IS_BETTER, &o, &from, &to);
	assert_int_equal(from, 15);
	assert_int_equal(to, 20);
	/* not past the accepted step's first point */
	pl_gate_baseline(y, 20, 10, (size_t)-1, 20, PL_LOWER_IS_BETTER, &o, &from, &to);
	assert_int_equal(from, 10);
	assert_int_equal(to, 20);
	/* an open step at 18: the level before it */
	pl_gate_baseline(y, 21, 0, 18, 20, PL_LOWER_IS_BETTER, &o, &from, &to);
	assert_int_equal(from, 0);
	assert_int_equal(to, 18);
	/* an open step at or before the floor is no longer open */
	pl_gate_baseline(y, 21, 18, 18, 20, PL_LOWER_IS_BETTER, &o, &from, &to);
	assert_int_equal(from, 18);
	assert_int_equal(to, 21);
	/* the first bad night (20) before step detection can see it: the second
	 * bad night is judged against the 20 points before the first */
	y[20] = 1.2;
	y[21] = 1.2;
	pl_gate_baseline(y, 21, 0, (size_t)-1, 20, PL_LOWER_IS_BETTER, &o, &from, &to);
	assert_int_equal(from, 0);
	assert_int_equal(to, 20);
	/* three bad nights: still the level before the first */
	y[22] = 1.2;
	pl_gate_baseline(y, 22, 0, (size_t)-1, 20, PL_LOWER_IS_BETTER, &o, &from, &to);
	assert_int_equal(from, 0);
	assert_int_equal(to, 20);
	/* higher is better: 1.2 is an improvement, the window slides */
	pl_gate_baseline(y, 22, 0, (size_t)-1, 20, PL_HIGHER_IS_BETTER, &o, &from, &to);
	assert_int_equal(from, 2);
	assert_int_equal(to, 22);
	/* a bad night worse by less than the threshold does not hold the window */
	y[20] = y[21] = y[22] = 1.04;
	pl_gate_baseline(y, 22, 0, (size_t)-1, 20, PL_LOWER_IS_BETTER, &o, &from, &to);
	assert_int_equal(to, 22);
	o.threshold = 0.03;
	pl_gate_baseline(y, 22, 0, (size_t)-1, 20, PL_LOWER_IS_BETTER, &o, &from, &to);
	assert_int_equal(to, 20);
}

/* ------------------------------------------ a seeded nightly workload */

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
	double u = unit01(), w = unit01();
	return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * w);
}

/* 9 series (3 runners x 3 concurrencies) x tpot, throughput: 21 nights
 * of medians of 3 runs at 4% CV; runner 0's tpot and throughput worse by
 * shift on night 21. Returns the red checks of night 21 as a bit mask. */
static unsigned night_mask(uint64_t seed, double shift, int pool)
{
	static double win[18][20];
	struct pl_gate_check c[18];
	struct pl_gate_verdict v[18];
	struct pl_gate_opts o;
	struct pl_error err;
	double latest[18], s = sqrt(log(1.0 + 0.04 * 0.04));
	unsigned mask = 0;

	rng = seed;
	for (int n = 0; n < 21; n++)
		for (int k = 0; k < 9; k++) {
			double f = (n == 20 && k < 3) ? 1.0 + shift : 1.0, t[3], q[3];
			for (int r = 0; r < 3; r++) {
				double a = s * normal(), b = 0.5 * s * normal();
				t[r] = 0.0095 * f * exp(a);
				q[r] = 3200.0 / f * exp(-a + b);
			}
			double mt = pl_median(t, 3), mq = pl_median(q, 3);
			if (n < 20) {
				win[2 * k][n] = mt;
				win[2 * k + 1][n] = mq;
			} else {
				latest[2 * k] = mt;
				latest[2 * k + 1] = mq;
			}
		}
	for (int i = 0; i < 18; i++) {
		c[i].window = win[i];
		c[i].nwindow = 20;
		c[i].latest = latest[i];
		c[i].metric = i % 2 ? PL_M_OUTPUT_THROUGHPUT : PL_M_TPOT_P50;
		c[i].direction = pl_metric_info[c[i].metric].direction;
		c[i].family = (size_t)(i / 6);
	}
	pl_gate_opts_init(&o);
	o.pool = pool;
	if (pl_gate_decide(c, 18, &o, v, &err))
		return ~0u;
	for (int i = 0; i < 18; i++)
		mask |= (unsigned)v[i].red << i;
	return mask;
}

static void test_seeded_nights(void **state)
{
	int red_nights = 0, caught = 0, caught_floor = 0;

	(void)state;
	/* 200 nights without a change: the nights with any red check */
	for (uint64_t t = 0; t < 200; t++)
		red_nights += night_mask(1000 + t, 0.0, 1) != 0;
	assert_int_equal(red_nights, 10);
	/* 100 nights with +8% on runner 0: all three concurrencies red */
	for (uint64_t t = 0; t < 100; t++) {
		unsigned m = night_mask(5000 + t, 0.08, 1), f = night_mask(5000 + t, 0.08, 0);
		int all = 1, allf = 1;
		for (int k = 0; k < 3; k++) {
			all &= ((m >> (2 * k)) & 3u) != 0;
			allf &= ((f >> (2 * k)) & 3u) != 0;
		}
		caught += all;
		caught_floor += allf;
	}
	assert_int_equal(caught, 70);
	assert_int_equal(caught_floor, 16);
	/* one seed's exact verdicts: runner 0's tpot and throughput at
	 * concurrency 1, 8 and 32 */
	assert_int_equal(night_mask(5000, 0.08, 1), 0x3fu);
}


/* ---------------------------------------------- import --from-ci-env */

static const char *env_table(void *ctx, const char *name)
{
	const char *const *env = ctx;
	size_t n = strlen(name);
	for (; *env; env++)
		if (strncmp(*env, name, n) == 0 && (*env)[n] == '=')
			return *env + n + 1;
	return NULL;
}

/* The variables a detected CI leaves out of the commit and the run link. */
static void test_ci_env_missing(void **state)
{
	static const char *const gh_bare[] = {"GITHUB_ACTIONS=true", NULL};
	static const char *const gh_part[] = {"GITHUB_ACTIONS=true", "GITHUB_SHA=abc",
	                                      "GITHUB_SERVER_URL=https://github.com",
	                                      "GITHUB_REPOSITORY=", "GITHUB_RUN_ID=7", NULL};
	static const char *const gh_full[] = {"GITHUB_ACTIONS=true", "GITHUB_SHA=abc",
	                                      "GITHUB_SERVER_URL=https://github.com",
	                                      "GITHUB_REPOSITORY=o/r", "GITHUB_RUN_ID=7", NULL};
	static const char *const gl[] = {"GITLAB_CI=true", "CI_COMMIT_SHA=ff", NULL};
	static const char *const jk[] = {"JENKINS_URL=x", NULL};
	const char *names[8];

	(void)state;
	assert_int_equal(pl_ci_env_missing(env_table, (void *)gh_bare, PL_CI_GITHUB, names, 8), 4);
	assert_string_equal(names[0], "GITHUB_SHA");
	assert_string_equal(names[3], "GITHUB_RUN_ID");
	assert_int_equal(pl_ci_env_missing(env_table, (void *)gh_part, PL_CI_GITHUB, names, 8), 1);
	assert_string_equal(names[0], "GITHUB_REPOSITORY"); /* empty counts as missing */
	assert_int_equal(pl_ci_env_missing(env_table, (void *)gh_full, PL_CI_GITHUB, names, 8), 0);
	assert_int_equal(pl_ci_env_missing(env_table, (void *)gl, PL_CI_GITLAB, names, 8), 1);
	assert_string_equal(names[0], "CI_PIPELINE_URL");
	assert_int_equal(pl_ci_env_missing(env_table, (void *)jk, PL_CI_JENKINS, names, 1), 2);
	assert_string_equal(names[0], "GIT_COMMIT");
	assert_int_equal(pl_ci_env_missing(env_table, (void *)jk, PL_CI_NONE, names, 8), 0);
}


/* ------------------------------------------ repeated caveats collapse */

/* check's text output: a caveat equal to an earlier one, or the same but
 * for its first argument (the point it names), is counted on that line,
 * which names the first 3 other points it holds for, then a count; exact
 * repeats name no other point. */
static void test_caveats_collapse(void **state)
{
	struct pl_check chk;
	struct pl_error err;
	struct pl_msg m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	static const char *const args[8][2] = {
		{"2026-10-01", "x"}, {"2026-10-02", "x"}, {"2026-10-03", "y"}, {"2026-10-04", "x"},
		{"2026-10-03", "y"}, {"2026-10-05", "x"}, {"2026-10-06", "x"}, {"2026-10-07", "x"}};

	(void)state;
	memset(&chk, 0, sizeof(chk));
	chk.threshold = 0.05;
	chk.alpha = 0.05;
	for (int i = 0; i < 8; i++) {
		pl_msg_init(&m, PL_MSG_GATE_SERIES);
		pl_msg_text(&m, args[i][0]);
		pl_msg_text(&m, args[i][1]);
		assert_int_equal(pl_msgs_push(&chk.cmp.caveats, &m), 0);
	}
	pl_msg_init(&m, PL_MSG_TEXT);
	pl_msg_text(&m, "one");
	assert_int_equal(pl_msgs_push(&chk.cmp.caveats, &m), 0);
	pl_msg_init(&m, PL_MSG_TEXT);
	pl_msg_text(&m, "one");
	assert_int_equal(pl_msgs_push(&chk.cmp.caveats, &m), 0);
	assert_non_null(f = open_memstream(&buf, &len));
	assert_int_equal(pl_render_check(f, &chk, PL_FMT_TEXT, &err), 0);
	fclose(f);
	assert_non_null(strstr(buf, "caveat: 2026-10-01 (latest x) (and likewise for 2026-10-02, "
	                            "2026-10-04, 2026-10-05 and 2 more)\n"
	                            "caveat: 2026-10-03 (latest y) (and 1 more like it)\n"
	                            "caveat: one (and 1 more like it)\n"));
	assert_null(strstr(buf, "2026-10-06"));
	free(buf);
	pl_msgs_release(&chk.cmp.caveats);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_holm),
		cmocka_unit_test(test_one_check_score),
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_threshold_boundary),
		cmocka_unit_test(test_outlier),
		cmocka_unit_test(test_baseline),
		cmocka_unit_test(test_seeded_nights),
		cmocka_unit_test(test_ci_env_missing),
		cmocka_unit_test(test_caveats_collapse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
