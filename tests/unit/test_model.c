/* test_model.c — the condition/metric tables, values, numbers, checklist. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "core/model.h"

static void tables_are_consistent(void **state)
{
	(void)state;
	assert_int_equal(pl_cond_lookup("model"), PL_C_MODEL);
	assert_int_equal(pl_cond_lookup("driver_version"), PL_C_DRIVER_VERSION);
	assert_int_equal(pl_cond_lookup("Model"), PL_C_NONE);
	assert_int_equal(pl_metric_lookup("ttft_p99_9"), PL_M_TTFT_P999);
	assert_int_equal(pl_metric_lookup("tokens_per_second_p50"), PL_M_TPS_P50);
	assert_int_equal(pl_metric_lookup("ttft_p50_ms"), PL_M_NONE);
	/* names are unique and travels_with points at a real field */
	for (int i = 0; i < PL_COND_COUNT; i++) {
		assert_int_equal(pl_cond_lookup(pl_cond_info[i].name), i);
		int tw = pl_cond_info[i].travels_with, tw2 = pl_cond_info[i].travels_with2;
		assert_true(tw == PL_C_NONE || (tw >= 0 && tw < PL_COND_COUNT));
		assert_true(tw2 == PL_C_NONE || (tw2 >= 0 && tw2 < PL_COND_COUNT));
		/* every condition is compared but the per-run time */
		assert_int_equal((pl_cond_info[i].flags & PL_CF_KEY) != 0, i != PL_C_RUN_STARTED_AT);
	}
	assert_int_equal(pl_cond_info[PL_C_TENSOR_PARALLEL_SIZE].travels_with, PL_C_HARDWARE);
	assert_int_equal(pl_cond_info[PL_C_ENGINE_ARGS].travels_with, PL_C_ENGINE);
	assert_int_equal(pl_cond_info[PL_C_ENGINE_ARGS].travels_with2, PL_C_HARDWARE);
	assert_int_equal(pl_cond_info[PL_C_KV_OFFLOAD].travels_with, PL_C_NONE);
	for (int i = 0; i < PL_METRIC_COUNT; i++)
		assert_int_equal(pl_metric_lookup(pl_metric_info[i].name), i);
	assert_int_equal(pl_cond_info[PL_C_DRIVER_VERSION].travels_with, PL_C_HARDWARE);
	assert_int_equal(pl_cond_info[PL_C_ENGINE_VERSION].travels_with, PL_C_ENGINE);
	assert_int_equal(pl_metric_info[PL_M_TTFT_P95].unit, PL_U_SECONDS);
	assert_int_equal(pl_metric_info[PL_M_TTFT_P95].direction, PL_LOWER_IS_BETTER);
	assert_int_equal(pl_metric_info[PL_M_OUTPUT_THROUGHPUT].direction, PL_HIGHER_IS_BETTER);
	assert_string_equal(pl_unit_label(PL_U_TOKENS_PER_S), "tok/s");
}

static void numbers_format_shortest_in_c_locale(void **state)
{
	char b[40];
	(void)state;
	assert_string_equal(pl_fmt_num(b, sizeof(b), 0.32), "0.32");
	assert_string_equal(pl_fmt_num(b, sizeof(b), 45.2), "45.2");
	assert_string_equal(pl_fmt_num(b, sizeof(b), 8), "8");
	assert_string_equal(pl_fmt_num(b, sizeof(b), 0.05568139649994919), "0.05568139649994919");
	assert_string_equal(pl_fmt_num(b, sizeof(b), INFINITY), "inf");
	assert_string_equal(pl_fmt_num(b, sizeof(b), 1e-7), "1e-07");
	/* whole numbers, written digit by digit as "%.0f" would */
	assert_string_equal(pl_fmt_num(b, sizeof(b), 0), "0");
	assert_string_equal(pl_fmt_num(b, sizeof(b), -0.0), "0");
	assert_string_equal(pl_fmt_num(b, sizeof(b), -12), "-12");
	assert_string_equal(pl_fmt_num(b, sizeof(b), 999999999999999.0), "999999999999999");
	assert_string_equal(pl_fmt_num(b, sizeof(b), 1e15), "1e+15");
	assert_string_equal(pl_fmt_num(b, 3, 12345), "12"); /* cut as snprintf cuts */
	assert_string_equal(pl_fmt_num(b, 1, 7), "");
	if (setlocale(LC_NUMERIC, "de_DE.UTF-8")) {
		assert_string_equal(pl_fmt_num(b, sizeof(b), 0.5), "0.5");
		double d;
		assert_int_equal(pl_parse_num("0.25", 0, &d), 0);
		assert_true(d == 0.25);
		setlocale(LC_NUMERIC, "C");
	}
}

static void parse_num_is_strict(void **state)
{
	double d;
	(void)state;
	assert_int_equal(pl_parse_num("12.5", 0, &d), 0);
	assert_true(d == 12.5);
	assert_int_equal(pl_parse_num("inf", 1, &d), 0);
	assert_true(isinf(d));
	assert_int_equal(pl_parse_num("inf", 0, &d), PL_EINVALID);
	assert_int_equal(pl_parse_num("nan", 1, &d), PL_EINVALID);
	assert_int_equal(pl_parse_num("0x10", 0, &d), PL_EINVALID);
	assert_int_equal(pl_parse_num("12abc", 0, &d), PL_EINVALID);
	assert_int_equal(pl_parse_num("", 0, &d), PL_EINVALID);
	assert_int_equal(pl_parse_num("1e999", 0, &d), PL_EINVALID);
}

static void unit_scaling_is_decimal(void **state)
{
	char b[40];
	(void)state;
	/* plain division leaves a binary artefact that the decimal shift avoids */
	assert_true(109.68 / 1000.0 != 0.10968);
	assert_true(pl_scale_pow10(109.68, -3) == 0.10968);
	assert_string_equal(pl_fmt_num(b, sizeof(b), pl_scale_pow10(109.68, -3)), "0.10968");
	assert_true(pl_scale_pow10(55.68139649994919, -3) == 0.05568139649994919);
	assert_true(pl_scale_pow10(1.5e-5, -3) == 1.5e-8);
	assert_true(pl_scale_pow10(2, 9) == 2e9);
	assert_true(pl_scale_pow10(0, -3) == 0);
	assert_true(isinf(pl_scale_pow10(INFINITY, -3)));
}

static void conditions_set_typed(void **state)
{
	struct pl_run r;
	struct pl_error e;
	(void)state;
	pl_run_init(&r);
	pl_error_init(&e);
	assert_int_equal(pl_run_set_cond(&r, PL_C_CONCURRENCY, "8", &e), 0);
	assert_string_equal(r.cond[PL_C_CONCURRENCY].text, "8");
	assert_true(r.cond[PL_C_CONCURRENCY].num == 8);
	assert_int_equal(pl_run_set_cond(&r, PL_C_CONCURRENCY, "8.0", &e), 0);
	assert_string_equal(r.cond[PL_C_CONCURRENCY].text, "8");
	assert_int_equal(pl_run_set_cond(&r, PL_C_REQUEST_RATE, "inf", &e), 0);
	assert_string_equal(r.cond[PL_C_REQUEST_RATE].text, "inf");
	assert_int_equal(pl_run_set_cond(&r, PL_C_CONCURRENCY, "2.5", &e), PL_EINVALID);
	assert_string_equal(e.field, "concurrency");
	assert_string_equal(e.message,
	                    "'concurrency' must be a non-negative whole number or inf, got '2.5'");
	assert_int_equal(pl_run_set_cond(&r, PL_C_STREAMING, "TRUE", &e), 0);
	assert_string_equal(r.cond[PL_C_STREAMING].text, "true");
	assert_int_equal(pl_run_set_cond(&r, PL_C_STREAMING, "yes", &e), PL_EINVALID);
	assert_int_equal(pl_run_set_cond(&r, PL_C_ENGINE_VERSION, "0.10", &e), 0);
	assert_string_equal(r.cond[PL_C_ENGINE_VERSION].text, "0.10");
	assert_int_equal(pl_run_set_cond(&r, PL_C_ENGINE_VERSION, NULL, &e), 0);
	assert_false(r.cond[PL_C_ENGINE_VERSION].set);

	assert_int_equal(pl_run_set_cond(&r, PL_C_RUN_STARTED_AT, "2026-09-10T10:00:00Z", &e), 0);
	assert_int_equal(pl_run_set_cond(&r, PL_C_RUN_STARTED_AT, "2026-08-16T16:08:53", &e), 0);
	assert_int_equal(pl_run_set_cond(&r, PL_C_RUN_STARTED_AT, "2026-08-16T16:08:53.25+02:00", &e), 0);
	assert_int_equal(pl_run_set_cond(&r, PL_C_RUN_STARTED_AT, "2026-08-16", &e), 0);
	assert_int_equal(pl_run_set_cond(&r, PL_C_RUN_STARTED_AT, "yesterday", &e), PL_EINVALID);
	assert_string_equal(e.message, "'run_started_at' must be an ISO 8601 time like "
	                               "2026-01-31T12:00:00Z, got 'yesterday'");
	assert_int_equal(pl_run_set_cond(&r, PL_C_RUN_STARTED_AT, "2026-13-01", &e), PL_EINVALID);
	assert_int_equal(pl_run_set_cond(&r, PL_C_RUN_STARTED_AT, "2026-01-01T25:00", &e), PL_EINVALID);
	assert_int_equal(pl_run_set_cond(&r, PL_C_RUN_STARTED_AT, "2026-01-01T10:00:00Zjunk", &e), PL_EINVALID);

	struct pl_run copy;
	assert_int_equal(pl_run_copy(&copy, &r), 0);
	assert_string_equal(copy.cond[PL_C_REQUEST_RATE].text, "inf");
	pl_run_release(&copy);
	pl_run_release(&r);
	pl_run_release(NULL);
}

static void checklist_of_seed_descriptor(void **state)
{
	struct pl_run r;
	(void)state;
	pl_run_init(&r);
	pl_run_update_checklist(&r);
	assert_int_equal(r.checklist_missing, (1u << PL_CHK_COUNT) - 1);
	/* the DESIGN.md seed: lacks launch parameters, TPOT and any p95 */
	pl_run_set_cond(&r, PL_C_MODEL_SOURCE, "huggingface", NULL);
	pl_run_set_cond(&r, PL_C_ENGINE_VERSION, "0.6.3", NULL);
	pl_run_set_cond(&r, PL_C_DRIVER_VERSION, "550.54", NULL);
	pl_run_set_cond(&r, PL_C_CUDA_VERSION, "12.4", NULL);
	pl_run_set_cond(&r, PL_C_INPUT_TOKENS, "512", NULL);
	pl_run_set_cond(&r, PL_C_MAX_OUTPUT_TOKENS, "256", NULL);
	pl_run_set_cond(&r, PL_C_CONCURRENCY, "8", NULL);
	pl_run_set_cond(&r, PL_C_WARMUP_REQUESTS, "3", NULL);
	pl_run_set_metric(&r, PL_M_TTFT_P50, 0.32);
	pl_run_set_metric(&r, PL_M_TPS_P50, 45.2);
	pl_run_set_metric(&r, PL_M_ERROR_RATE, 0);
	pl_run_update_checklist(&r);
	assert_int_equal(r.checklist_missing, PL_CHK_ENGINE_ARGS | PL_CHK_TPOT | PL_CHK_P95);
	pl_run_set_cond(&r, PL_C_ENGINE_ARGS, "--tensor-parallel-size 2", NULL);
	pl_run_set_metric(&r, PL_M_TPOT_P50, 0.02);
	pl_run_set_metric(&r, PL_M_TTFT_P95, 0.5);
	pl_run_update_checklist(&r);
	assert_int_equal(r.checklist_missing, 0);
	assert_string_equal(pl_checklist_item(0), "weights source");
	pl_run_release(&r);
}

static void run_list_grows(void **state)
{
	struct pl_run_list l;
	(void)state;
	pl_run_list_init(&l);
	for (int i = 0; i < 100; i++) {
		struct pl_run *r = pl_run_list_push(&l);
		assert_non_null(r);
		assert_int_equal(pl_strset(&r->source, "x"), 0);
	}
	assert_int_equal(l.n, 100);
	pl_run_list_release(&l);
	assert_int_equal(l.n, 0);
	pl_run_list_release(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tables_are_consistent),
		cmocka_unit_test(numbers_format_shortest_in_c_locale),
		cmocka_unit_test(parse_num_is_strict),
		cmocka_unit_test(unit_scaling_is_decimal),
		cmocka_unit_test(conditions_set_typed),
		cmocka_unit_test(checklist_of_seed_descriptor),
		cmocka_unit_test(run_list_grows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
