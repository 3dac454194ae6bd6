/*
 * gate_sim.c — the nightly gate's false-alarm and detection rates, measured
 * on simulated nights with the library's own decision code (core/gate.h,
 * core/stats.h): nothing here decides, it only makes data and counts.
 *
 *   pl_gate_sim [--nights N] [--trials N] [--seed S] [--threshold F]
 *               [--cv F --reps N --method window|holm|pooled]
 * (the last three: that one line only; ctest gate_sim_figures runs the
 * headline line and compares it with docs/regression.md)
 *
 * The workload (docs/regression.md, "Measured rates"): 3 runners x
 * concurrency 1/8/32 = 9 series, 3 metrics each (tpot_p50, lower is
 * better; output_throughput, higher; ttft_p50, lower) = 27 checks a night.
 * A night of a series is R repetitions (runs); each run's noise is
 * lognormal with coefficient of variation CV: tpot = base * e^a,
 * throughput = base * e^(-a + b) (the run that decodes slowly also
 * produces fewer tokens a second: correlated), ttft = base * e^c, with a, c
 * ~ N(0, s^2), b ~ N(0, (s/2)^2), s^2 = ln(1 + CV^2). A point is the median
 * of its R runs per metric (as history and check make it). The window is
 * the 20 points before the candidate.
 *
 * Each trial draws 22 nights afresh from its own seed (seed + trial):
 *   null trials (--nights): no change; night 21 is judged against nights
 *     1-20; a night is red when any of the 27 checks is red. The rate is
 *     the whole gate's false-alarm rate per night.
 *   shift trials (--trials, for +8% and +15%): from night 21 on, one runner's
 *     tpot is (1 + shift) times and its throughput 1 / (1 + shift) times
 *     the old level at all three concurrencies (one commit on one runner;
 *     ttft unchanged). Night 21 is judged against nights 1-20; night 22
 *     against the baseline pl_gate_baseline() picks: nights 1-20 (the level
 *     before the open regression) when night 21 was on its own worse than
 *     nights 1-20, else nights 2-21 (the window method always slides). A concurrency is caught when one of its checks is red;
 *     "first night" counts trials with all three caught on night 21,
 *     "within 2 nights" trials with all three caught on night 21 or 22.
 * Methods, each on the same seeded nights:
 *   window   today's per-check rule: pl_stats_compare_window at alpha 0.05
 *            (robust window, two-sided) and the threshold, each check alone;
 *            the window slides on night 22 whatever night 21 said
 *   holm     pl_gate_decide without pooling (Holm over the 27 checks at
 *            alpha 0.05): the floor of per-series tests
 *   pooled   pl_gate_decide with families (the 3 concurrencies of a runner
 *            per metric), Holm over 27 + 9 tests at alpha 0.05
 * Output: one line per noise x repetitions x method, in percent. The
 * figures are deterministic for a seed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gate.h"
#include "core/model.h"
#include "core/stats.h"

#define RUNNERS 3
#define CONCS 3
#define METRICS 3
#define SERIES (RUNNERS * CONCS)
#define CHECKS (SERIES * METRICS)
#define WINDOW 20
#define NIGHTS (WINDOW + 2)
#define REPS_MAX 5

static const int metric_id[METRICS] = {PL_M_TPOT_P50, PL_M_OUTPUT_THROUGHPUT, PL_M_TTFT_P50};
static const int metric_dir[METRICS] = {PL_LOWER_IS_BETTER, PL_HIGHER_IS_BETTER,
                                        PL_LOWER_IS_BETTER};
static const double metric_base[METRICS] = {0.0095, 3200.0, 0.060};

/* splitmix64: a small seeded generator, the same numbers on every machine */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static double rng_unit(void) /* (0, 1) */
{
	return ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
}

static double rng_normal(void) /* Box-Muller, one of the pair */
{
	double u = rng_unit(), v = rng_unit();
	return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* point[night][series][metric] */
static double point[NIGHTS][SERIES][METRICS];

static void make_nights(uint64_t seed, double cv, int reps, double shift)
{
	double s = sqrt(log(1.0 + cv * cv));

	rng_state = seed;
	for (int n = 0; n < NIGHTS; n++)
		for (int k = 0; k < SERIES; k++) {
			double f = (n >= WINDOW && k / CONCS == 0) ? 1.0 + shift : 1.0;
			double v[METRICS][REPS_MAX];
			for (int r = 0; r < reps; r++) {
				double a = s * rng_normal(), b = 0.5 * s * rng_normal(),
				       c = s * rng_normal();
				v[0][r] = metric_base[0] * f * exp(a);
				v[1][r] = metric_base[1] / f * exp(-a + b);
				v[2][r] = metric_base[2] * exp(c);
			}
			for (int m = 0; m < METRICS; m++)
				point[n][k][m] = pl_median(v[m], (size_t)reps);
		}
}

enum method { M_WINDOW, M_HOLM, M_POOLED, M_COUNT };
static const char *const method_name[M_COUNT] = {"window", "holm", "pooled"};

/* Judges night `night` of every check; check k's window is nights
 * from[k] .. to[k] - 1; red[k] out. */
static int judge_night(enum method meth, int night, const int *from, const int *to,
                       double threshold, int *red)
{
	static double win[CHECKS][WINDOW];
	struct pl_gate_check c[CHECKS];
	struct pl_gate_verdict v[CHECKS];
	struct pl_gate_opts o;
	struct pl_error err;

	memset(&err, 0, sizeof(err));
	for (int k = 0; k < SERIES; k++)
		for (int m = 0; m < METRICS; m++) {
			int i = k * METRICS + m;
			for (int w = from[i]; w < to[i]; w++)
				win[i][w - from[i]] = point[w][k][m];
			c[i].window = win[i];
			c[i].nwindow = (size_t)(to[i] - from[i]);
			c[i].latest = point[night][k][m];
			c[i].direction = metric_dir[m];
			c[i].metric = metric_id[m];
			c[i].family = (size_t)(k / CONCS);
		}
	if (meth == M_WINDOW) {
		for (int i = 0; i < CHECKS; i++) {
			struct pl_change ch;
			if (pl_stats_compare_window(c[i].window, c[i].nwindow, &c[i].latest, 1, metric_dir[i % 3],
			                            0.05, threshold, &ch, &err))
				return -1;
			red[i] = ch.worse;
		}
		return 0;
	}
	pl_gate_opts_init(&o);
	o.threshold = threshold;
	o.pool = meth == M_POOLED;
	if (pl_gate_decide(c, CHECKS, &o, v, &err)) {
		fprintf(stderr, "pl_gate_sim: %s\n", err.message);
		return -1;
	}
	for (int i = 0; i < CHECKS; i++)
		red[i] = v[i].red;
	return 0;
}

struct rates {
	long null_nights, null_red, null_checks_red;
	long trials8, first8, within8, trials15, first15, within15;
};

static int run_shift(enum method meth, uint64_t seed, double cv, int reps, double shift,
                     double threshold, int *first, int *within)
{
	int from[CHECKS], to[CHECKS], red1[CHECKS], red2[CHECKS], caught1 = 0, caught2 = 0;

	make_nights(seed, cv, reps, shift);
	for (int i = 0; i < CHECKS; i++) {
		from[i] = 0;
		to[i] = WINDOW;
	}
	if (judge_night(meth, WINDOW, from, to, threshold, red1))
		return -1;
	for (int i = 0; i < CHECKS; i++) { /* an open regression keeps its level */
		double y[NIGHTS];
		size_t f = 1, t = WINDOW + 1;
		struct pl_gate_opts o;
		for (int n = 0; n < NIGHTS; n++)
			y[n] = point[n][i / METRICS][i % METRICS];
		pl_gate_opts_init(&o);
		o.threshold = threshold;
		if (meth != M_WINDOW)
			pl_gate_baseline(y, WINDOW + 1, 0, (size_t)-1, WINDOW, metric_dir[i % METRICS], &o,
			                 &f, &t);
		from[i] = (int)f;
		to[i] = (int)t;
	}
	if (judge_night(meth, WINDOW + 1, from, to, threshold, red2))
		return -1;
	for (int k = 0; k < CONCS; k++) { /* runner 0's series are 0, 1, 2 */
		int r1 = 0, r2 = 0;
		for (int m = 0; m < METRICS; m++) {
			r1 |= red1[k * METRICS + m];
			r2 |= red1[k * METRICS + m] || red2[k * METRICS + m];
		}
		caught1 += r1;
		caught2 += r2;
	}
	*first = caught1 == CONCS;
	*within = caught2 == CONCS;
	return 0;
}

static int measure(enum method meth, uint64_t seed, double cv, int reps, long nights, long trials,
                   double threshold, struct rates *r)
{
	int from[CHECKS], to[CHECKS], red[CHECKS];

	memset(r, 0, sizeof(*r));
	for (int i = 0; i < CHECKS; i++) {
		from[i] = 0;
		to[i] = WINDOW;
	}
	for (long t = 0; t < nights; t++) {
		int any = 0;
		make_nights(seed + (uint64_t)t, cv, reps, 0.0);
		if (judge_night(meth, WINDOW, from, to, threshold, red))
			return -1;
		for (int i = 0; i < CHECKS; i++) {
			any |= red[i];
			r->null_checks_red += red[i];
		}
		r->null_nights++;
		r->null_red += any;
	}
	for (long t = 0; t < trials; t++) {
		int f, w;
		uint64_t s = seed + 1000003ull + (uint64_t)t;
		if (run_shift(meth, s, cv, reps, 0.08, threshold, &f, &w))
			return -1;
		r->trials8++;
		r->first8 += f;
		r->within8 += w;
		if (run_shift(meth, s + 7777777ull, cv, reps, 0.15, threshold, &f, &w))
			return -1;
		r->trials15++;
		r->first15 += f;
		r->within15 += w;
	}
	return 0;
}

static double pct(long a, long b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

int main(int argc, char **argv)
{
	long nights = 4000, trials = 2000;
	uint64_t seed = 20261201;
	double threshold = PL_GATE_THRESHOLD_DEFAULT;
	double cvs[] = {0.02, 0.04, 0.08};
	int repss[] = {1, 3, 5};
	size_t ncv = 3, nreps = 3;
	int only_method = -1;

	for (int i = 1; i < argc; i++) {
		char *end = NULL;
		if (i + 1 < argc && strcmp(argv[i], "--nights") == 0)
			nights = strtol(argv[++i], &end, 10);
		else if (i + 1 < argc && strcmp(argv[i], "--trials") == 0)
			trials = strtol(argv[++i], &end, 10);
		else if (i + 1 < argc && strcmp(argv[i], "--seed") == 0)
			seed = strtoull(argv[++i], &end, 10);
		else if (i + 1 < argc && strcmp(argv[i], "--threshold") == 0)
			threshold = strtod(argv[++i], &end);
		else if (i + 1 < argc && strcmp(argv[i], "--cv") == 0) {
			cvs[0] = strtod(argv[++i], &end);
			ncv = 1;
			if (!(cvs[0] > 0))
				end = NULL;
		} else if (i + 1 < argc && strcmp(argv[i], "--reps") == 0) {
			long r = strtol(argv[++i], &end, 10);
			repss[0] = (int)r;
			nreps = 1;
			if (r < 1 || r > REPS_MAX)
				end = NULL;
		} else if (i + 1 < argc && strcmp(argv[i], "--method") == 0) {
			++i;
			for (int m = 0; m < M_COUNT; m++)
				if (strcmp(argv[i], method_name[m]) == 0)
					only_method = m;
			end = only_method < 0 ? NULL : argv[i] + strlen(argv[i]);
		} else {
			fprintf(stderr, "usage: pl_gate_sim [--nights N] [--trials N] [--seed S] "
			                "[--threshold F] [--cv F] [--reps N] [--method M]\n");
			return 2;
		}
		if (!end || *end || nights < 1 || trials < 1 || !(threshold >= 0)) {
			fprintf(stderr, "pl_gate_sim: bad value '%s'\n", argv[i]);
			return 2;
		}
	}
	printf("gate simulation: 9 series x 3 metrics = 27 checks a night, window 20, "
	       "seed %llu, threshold %.3g\n",
	       (unsigned long long)seed, threshold);
	printf("%-5s %-4s %-7s %12s %12s %13s %13s %13s\n", "cv", "reps", "method", "red nights",
	       "checks red", "+8% night 1", "+8% 2 nights", "+15% night 1");
	for (size_t a = 0; a < ncv; a++)
		for (size_t b = 0; b < nreps; b++)
			for (int meth = 0; meth < M_COUNT; meth++) {
				struct rates r;
				if (only_method >= 0 && meth != only_method)
					continue;
				if (measure((enum method)meth, seed, cvs[a], repss[b], nights, trials,
				            threshold, &r)) {
					fprintf(stderr, "pl_gate_sim: a check could not be judged\n");
					return 1;
				}
				printf("%-5.2f %-4d %-7s %11.2f%% %11.3f%% %12.1f%% %12.1f%% %12.1f%%\n",
				       cvs[a], repss[b], method_name[meth], pct(r.null_red, r.null_nights),
				       pct(r.null_checks_red, r.null_nights * CHECKS),
				       pct(r.first8, r.trials8), pct(r.within8, r.trials8),
				       pct(r.first15, r.trials15));
			}
	printf("(%ld null nights and %ld trials per shift for each line)\n", nights, trials);
	return ferror(stdout) ? 1 : 0;
}
