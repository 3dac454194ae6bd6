/* test_compare.c — refusal field by field, travelling fields, rows of
 * medians, deltas, caveats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/compare.h"
#include "core/normalize.h"

static struct pl_run *add(struct pl_run_list *l, long long id, const char *hw, const char *drv,
                          const char *prec, const char *conc, double ttft, double thr)
{
	struct pl_run *r = pl_run_list_push(l);
	assert_non_null(r);
	r->id = id;
	pl_run_set_cond(r, PL_C_MODEL, "gemma-4-31b", NULL);
	pl_run_set_cond(r, PL_C_ENGINE, "vllm", NULL);
	pl_run_set_cond(r, PL_C_ENGINE_VERSION, "0.6.3", NULL);
	pl_run_set_cond(r, PL_C_HARDWARE, hw, NULL);
	pl_run_set_cond(r, PL_C_DRIVER_VERSION, drv, NULL);
	pl_run_set_cond(r, PL_C_PRECISION, prec, NULL);
	pl_run_set_cond(r, PL_C_CONCURRENCY, conc, NULL);
	assert_int_equal(pl_normalize_run(r, NULL), 0);
	pl_run_set_metric(r, PL_M_TTFT_P50, ttft);
	pl_run_set_metric(r, PL_M_OUTPUT_THROUGHPUT, thr);
	pl_run_update_checklist(r);
	return r;
}

static void axis_parsing(void **state)
{
	struct pl_compare_opts o;
	struct pl_error e;
	(void)state;
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware,engine", &e), 0);
	assert_int_equal(o.naxis, 2);
	assert_int_equal(o.axis[0], PL_C_HARDWARE);
	assert_int_equal(o.axis[1], PL_C_ENGINE);
	assert_int_equal(pl_compare_parse_axis(&o, "hardwares", &e), PL_EUSAGE);
	assert_string_equal(e.message,
	                    "unknown condition 'hardwares' in --axis (see 'perfledger list --help')");
	assert_int_equal(pl_compare_parse_axis(&o, "model,model", &e), PL_EUSAGE);
	assert_int_equal(pl_compare_parse_axis(&o, "", &e), PL_EUSAGE);
}

static void rows_medians_and_deltas(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	char label[128];
	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	/* H100 first by id, but rows sort by axis value: "1x..." < "2x..." */
	add(&l, 1, "2x NVIDIA A100 80G", "550.54", "bf16", "8", 0.40, 100);
	add(&l, 2, "1x NVIDIA H100 80G", "550.90", "bfloat16", "8", 0.20, 300);
	add(&l, 3, "2x NVIDIA A100 80G", "550.54", "bfloat16", "8", 0.30, 140);
	add(&l, 4, "2x NVIDIA A100 80G", "550.54", "BF16", "8", 0.35, 120);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.nrows, 2);
	assert_int_equal(c.nruns, 4);
	assert_string_equal(pl_compare_row_label(&c, 0, label, sizeof(label)), "1x NVIDIA H100 80G");
	assert_string_equal(pl_compare_row_label(&c, 1, label, sizeof(label)), "2x NVIDIA A100 80G");
	assert_int_equal(c.rows[1].n, 3);
	assert_int_equal(c.rows[1].run_ids[0], 1);
	assert_int_equal(c.rows[1].run_ids[2], 4);
	assert_true(c.rows[1].metric[PL_M_TTFT_P50] == 0.35);
	assert_true(c.rows[1].metric[PL_M_OUTPUT_THROUGHPUT] == 120);
	assert_int_equal(c.rows[1].n_metric[PL_M_TTFT_P50], 3);
	/* the spread of the A100 row: ttft 0.40, 0.30, 0.35; throughput 100, 140, 120 */
	assert_true(c.rows[1].min[PL_M_TTFT_P50] == 0.30);
	assert_true(c.rows[1].max[PL_M_TTFT_P50] == 0.40);
	assert_true(c.rows[1].min[PL_M_OUTPUT_THROUGHPUT] == 100);
	assert_true(c.rows[1].max[PL_M_OUTPUT_THROUGHPUT] == 140);
	assert_true(c.rows[0].min[PL_M_TTFT_P50] == 0.20); /* one run: min = max = it */
	assert_true(c.rows[0].max[PL_M_TTFT_P50] == 0.20);
	assert_int_equal(c.nshared_extra, 0);
	assert_int_equal(c.rows[0].has_delta[PL_M_TTFT_P50], 1);
	assert_true(c.rows[0].delta_pct[PL_M_TTFT_P50] == 0);
	assert_true(fabs(c.rows[1].delta_pct[PL_M_TTFT_P50] - 75.0) < 1e-9);
	assert_true(fabs(c.rows[1].delta_pct[PL_M_OUTPUT_THROUGHPUT] - (-60.0)) < 1e-9);
	/* driver travels with hardware: it varies and is on the row */
	assert_int_equal(c.varies[PL_C_DRIVER_VERSION], 1);
	assert_string_equal(c.rows[0].axis[PL_C_DRIVER_VERSION].text, "550.90");
	/* bf16 / BF16 / bfloat16 are one precision: shared */
	assert_string_equal(c.shared[PL_C_PRECISION].text, "bfloat16");
	assert_false(c.shared[PL_C_HARDWARE].set);
	/* every run lacks checklist items -> a caveat per row */
	assert_int_equal(c.ncaveats, 2);
	assert_string_equal(c.caveats[0],
	                    "1x NVIDIA H100 80G: 1 of 1 run is reference-only (missing: weights "
	                    "source, engine launch parameters, driver and CUDA versions, "
	                    "input/output lengths, warm-up, TPOT, p95 latency)");
	size_t nd;
	pl_compare_default_metrics(&nd);
	assert_int_equal(c.nmetrics, nd);
	pl_comparison_release(&c);
	pl_comparison_release(NULL);
	pl_run_list_release(&l);
}

static void refusal_lists_every_field(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	add(&l, 1, "2x NVIDIA A100 80G", "550.54", "bfloat16", "8", 0.4, 100);
	add(&l, 2, "1x NVIDIA H100 80G", "550.90", "fp8", "16", 0.2, 300);
	struct pl_run *r = add(&l, 3, "1x NVIDIA H100 80G", "550.90", "fp8", "16", 0.2, 300);
	pl_run_set_cond(r, PL_C_DATASET, "sharegpt", NULL);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
	assert_int_equal(c.nmismatches, 3);
	assert_int_equal(c.mismatches[0].cond, PL_C_PRECISION);
	assert_string_equal(c.mismatches[0].values[0], "bfloat16");
	assert_string_equal(c.mismatches[0].values[1], "fp8");
	assert_int_equal(c.mismatches[1].cond, PL_C_CONCURRENCY);
	assert_string_equal(c.mismatches[1].values[0], "8");
	assert_string_equal(c.mismatches[1].values[1], "16");
	/* missing is not equal to known, and is listed as such */
	assert_int_equal(c.mismatches[2].cond, PL_C_DATASET);
	assert_string_equal(c.mismatches[2].values[0], "sharegpt");
	assert_string_equal(c.mismatches[2].values[1], "(missing)");
	assert_string_equal(e.message,
	                    "comparison refused: 3 conditions differ off the axis 'hardware': "
	                    "precision: bfloat16 vs fp8; concurrency: 8 vs 16; dataset: sharegpt "
	                    "vs (missing)");
	pl_comparison_release(&c);

	/* allowing the fields turns the refusal into caveats */
	o.allow_mismatch[PL_C_PRECISION] = 1;
	o.allow_mismatch[PL_C_CONCURRENCY] = 1;
	o.allow_mismatch[PL_C_DATASET] = 1;
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_string_equal(c.caveats[0],
	                    "conditions differ in precision: bfloat16 vs fp8 (allowed by "
	                    "--allow-mismatch)");
	pl_comparison_release(&c);

	/* engine_version does not travel with hardware: refused */
	memset(&o, 0, sizeof(o));
	pl_run_list_release(&l);
	add(&l, 1, "2x NVIDIA A100 80G", "550.54", "bfloat16", "8", 0.4, 100);
	r = add(&l, 2, "1x NVIDIA H100 80G", "550.90", "bfloat16", "8", 0.2, 300);
	pl_run_set_cond(r, PL_C_ENGINE_VERSION, "0.10.1", NULL);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
	assert_int_equal(c.nmismatches, 1);
	assert_int_equal(c.mismatches[0].cond, PL_C_ENGINE_VERSION);
	assert_string_equal(c.mismatches[0].values[0], "0.6.3");
	assert_string_equal(c.mismatches[0].values[1], "0.10.1");
	pl_comparison_release(&c);
	pl_run_list_release(&l);
}

/* Extra conditions ("FORMAT.key"): those every run shares with one value
 * are listed in shared_extra (name order); one that differs, or that some
 * runs lack, is refused by name, or a caveat when allowed. */
static void extras_shared_refused_allowed(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	struct pl_run *r;
	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	add(&l, 1, "2x NVIDIA A100 80G", "550.54", "bfloat16", "8", 0.4, 100);
	add(&l, 2, "1x NVIDIA H100 80G", "550.90", "bfloat16", "8", 0.2, 300);
	add(&l, 3, "1x NVIDIA H100 80G", "550.90", "bfloat16", "8", 0.3, 200);
	r = l.v; /* stable now that every run is pushed */
	for (int i = 0; i < 3; i++) {
		assert_int_equal(pl_run_set_extra(&r[i], "vllm-serving.label", "nightly", &e), 0);
		assert_int_equal(pl_run_set_extra(&r[i], "descriptor.x_pool", "a", &e), 0);
	}
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.nshared_extra, 2);
	assert_string_equal(c.shared_extra[0].name, "descriptor.x_pool");
	assert_string_equal(c.shared_extra[0].value, "a");
	assert_string_equal(c.shared_extra[1].name, "vllm-serving.label");
	assert_string_equal(c.shared_extra[1].value, "nightly");
	assert_int_equal(c.nmismatches, 0);
	/* the H100 row pools runs 2 and 3: 0.2 and 0.3 */
	assert_true(c.rows[0].min[PL_M_TTFT_P50] == 0.2);
	assert_true(c.rows[0].max[PL_M_TTFT_P50] == 0.3);
	pl_comparison_release(&c);

	/* run 3 in another pool, run 2 without one: refused, naming the extra */
	assert_int_equal(pl_run_set_extra(&r[2], "descriptor.x_pool", "b", &e), 0);
	assert_int_equal(pl_run_set_extra(&r[1], "descriptor.x_pool", NULL, &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
	assert_int_equal(c.nmismatches, 1);
	assert_int_equal(c.mismatches[0].cond, PL_C_NONE);
	assert_string_equal(c.mismatches[0].extra, "descriptor.x_pool");
	assert_null(c.mismatches[0].within);
	assert_int_equal(c.mismatches[0].nvalues, 3);
	assert_string_equal(c.mismatches[0].values[0], "a");
	assert_string_equal(c.mismatches[0].values[1], "b");
	assert_string_equal(c.mismatches[0].values[2], "(missing)");
	assert_string_equal(e.message, "comparison refused: 1 condition differ off the axis "
	                               "'hardware': descriptor.x_pool: a vs b vs (missing)");
	assert_int_equal(c.nshared_extra, 1); /* the label is still shared */
	pl_comparison_release(&c);

	/* allowed by name: a caveat, and the extra is not shared */
	o.allow_extra[0] = "descriptor.x_pool";
	o.nallow_extra = 1;
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.ncaveats, 3); /* + one reference-only caveat per row (2) */
	assert_string_equal(c.caveats[0], "conditions differ in descriptor.x_pool: a vs b vs "
	                                  "(missing) (allowed by --allow-mismatch)");
	assert_int_equal(c.nshared_extra, 1);
	assert_string_equal(c.shared_extra[0].name, "vllm-serving.label");
	pl_comparison_release(&c);
	pl_run_list_release(&l);
}

static void engine_axis_orders_versions_naturally(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	const char *versions[] = {"0.10.1", "0.6.3", "0.8.5"};
	for (int i = 0; i < 3; i++) {
		struct pl_run *r = add(&l, i + 1, "1x NVIDIA H100 80G", "550.90", "bf16", "8", 0.1 * (i + 1), 100);
		pl_run_set_cond(r, PL_C_ENGINE_VERSION, versions[i], NULL);
	}
	assert_int_equal(pl_compare_parse_axis(&o, "engine_version", &e), 0);
	o.metrics[0] = PL_M_TTFT_P50;
	o.nmetrics = 1;
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.nrows, 3);
	assert_string_equal(c.rows[0].axis[PL_C_ENGINE_VERSION].text, "0.6.3");
	assert_string_equal(c.rows[1].axis[PL_C_ENGINE_VERSION].text, "0.8.5");
	assert_string_equal(c.rows[2].axis[PL_C_ENGINE_VERSION].text, "0.10.1");
	assert_int_equal(c.nmetrics, 1);
	pl_comparison_release(&c);
	pl_run_list_release(&l);

	/* empty selection */
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EEMPTY);
	pl_comparison_release(&c);
}

/* With two axis fields, deltas are against the first hardware at the same
 * concurrency: equal load, not the first row's lowest concurrency. */
static void deltas_at_equal_tail(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	add(&l, 1, "2x NVIDIA A100 80G", "550", "bfloat16", "1", 0.10, 100);
	add(&l, 2, "2x NVIDIA A100 80G", "550", "bfloat16", "16", 0.20, 1000);
	add(&l, 3, "1x NVIDIA H100 80G", "550", "bfloat16", "1", 0.05, 150);
	add(&l, 4, "1x NVIDIA H100 80G", "550", "bfloat16", "16", 0.10, 2000);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware,concurrency", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.nrows, 4);
	/* rows: H100@1, H100@16, A100@1, A100@16 (hardware text order) */
	assert_string_equal(c.rows[0].axis[PL_C_HARDWARE].text, "1x NVIDIA H100 80G");
	assert_int_equal(c.rows[0].base, 0);
	assert_int_equal(c.rows[1].base, 1); /* first at concurrency 16 */
	assert_int_equal(c.rows[2].base, 0);
	assert_int_equal(c.rows[3].base, 1);
	assert_true(fabs(c.rows[2].delta_pct[PL_M_OUTPUT_THROUGHPUT] - (100.0 / 150 - 1) * 100) < 1e-9);
	assert_true(fabs(c.rows[3].delta_pct[PL_M_OUTPUT_THROUGHPUT] - (1000.0 / 2000 - 1) * 100) < 1e-9);
	/* rows that are their own baseline have no delta, not a 0% change */
	assert_false(c.rows[0].has_delta[PL_M_OUTPUT_THROUGHPUT]);
	assert_false(c.rows[1].has_delta[PL_M_OUTPUT_THROUGHPUT]);
	assert_true(c.rows[3].has_delta[PL_M_OUTPUT_THROUGHPUT]);
	pl_comparison_release(&c);
	/* one axis field: every row against the first */
	assert_int_equal(pl_compare_parse_axis(&o, "concurrency", &e), 0);
	o.allow_mismatch[PL_C_HARDWARE] = o.allow_mismatch[PL_C_ACCELERATOR_COUNT] = 1;
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.nrows, 2);
	assert_int_equal(c.rows[1].base, 0);
	pl_comparison_release(&c);
	pl_run_list_release(&l);
}

/* Versions that order equal but are written differently are listed in the
 * order the runs bring them, not by their text. */
static void equal_versions_in_run_order(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	pl_run_set_cond(add(&l, 1, "1x NVIDIA H100 80G", "550", "bfloat16", "8", 0.1, 100),
	                PL_C_ENGINE_VERSION, "1.00", NULL);
	pl_run_set_cond(add(&l, 2, "2x NVIDIA A100 80G", "550", "bfloat16", "8", 0.1, 100),
	                PL_C_ENGINE_VERSION, "1.0", NULL);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
	assert_int_equal(c.nmismatches, 1);
	assert_int_equal(c.mismatches[0].cond, PL_C_ENGINE_VERSION);
	assert_string_equal(c.mismatches[0].values[0], "1.00");
	assert_string_equal(c.mismatches[0].values[1], "1.0");
	pl_comparison_release(&c);
	pl_run_list_release(&l);
}

static void median_even_and_odd(void **state)
{
	double a[] = {3, 1, 2};
	double b[] = {4, 1, 3, 2};
	(void)state;
	assert_true(pl_median(a, 3) == 2);
	assert_true(pl_median(b, 4) == 2.5);
	double c[] = {0.09, 0.08};
	assert_true((0.08 + 0.09) / 2 != 0.085);
	assert_true(pl_median(c, 2) == 0.085);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The selection in pl_median against a sort, on sizes 1..300 of random
 * values, few distinct values (many ties), sorted and reversed input. */
static void median_is_the_sorted_middle(void **state)
{
	static double v[300], sorted[300];
	unsigned seed = 12345;
	(void)state;
	for (int shape = 0; shape < 4; shape++)
		for (size_t n = 1; n <= 300; n++) {
			for (size_t i = 0; i < n; i++) {
				seed = seed * 1103515245u + 12345u;
				v[i] = shape == 0 ? (double)(seed >> 8) / 1e3 /* random */
				     : shape == 1 ? (double)((seed >> 16) % 3) /* ties */
				     : shape == 2 ? (double)i                   /* sorted */
				                  : (double)(n - i);            /* reversed */
			}
			memcpy(sorted, v, n * sizeof(double));
			qsort(sorted, n, sizeof(double), cmp_double);
			double want = n % 2 ? sorted[n / 2]
			                    : pl_round_sig((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0, 15);
			double got = pl_median(v, n);
			if (got != want)
				fail_msg("shape %d n %zu: median %.17g, sorted middle %.17g", shape, n, got, want);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(axis_parsing),
		cmocka_unit_test(rows_medians_and_deltas),
		cmocka_unit_test(refusal_lists_every_field),
		cmocka_unit_test(extras_shared_refused_allowed),
		cmocka_unit_test(engine_axis_orders_versions_naturally),
		cmocka_unit_test(deltas_at_equal_tail),
		cmocka_unit_test(equal_versions_in_run_order),
		cmocka_unit_test(median_even_and_odd),
		cmocka_unit_test(median_is_the_sorted_middle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
