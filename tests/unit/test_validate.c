/*
 * test_validate.c — every rule of validate.h, with the exact message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/model.h"
#include "core/validate.h"
#include "core/ranges.h"
#include "core/carried.h"

/* A run with the required conditions and one metric: valid. */
static void good_run(struct pl_run *r)
{
	pl_run_init(r);
	assert_int_equal(pl_run_set_cond(r, PL_C_MODEL, "m", NULL), 0);
	assert_int_equal(pl_run_set_cond(r, PL_C_PRECISION, "bfloat16", NULL), 0);
	assert_int_equal(pl_run_set_cond(r, PL_C_ENGINE, "vllm", NULL), 0);
	assert_int_equal(pl_run_set_cond(r, PL_C_HARDWARE, "1x A100", NULL), 0);
	pl_run_set_metric(r, PL_M_TTFT_P50, 0.3);
}

static void expect_invalid(struct pl_run *r, const char *message, const char *field)
{
	struct pl_error err;

	pl_error_init(&err);
	assert_int_equal(pl_validate_run(r, &err), PL_EINVALID);
	assert_int_equal(err.code, PL_EINVALID);
	assert_string_equal(err.message, message);
	assert_string_equal(err.field, field);
	assert_string_equal(err.file, "");
	pl_run_release(r);
}

static void test_valid_and_checklist(void **state)
{
	struct pl_run r;
	struct pl_error err;

	(void)state;
	good_run(&r);
	r.checklist_missing = 0;
	pl_error_init(&err);
	assert_int_equal(pl_validate_run(&r, &err), 0);
	/* recomputed: only TTFT of the checklist is present */
	assert_int_equal(r.checklist_missing, (1u << PL_CHK_COUNT) - 1 - PL_CHK_TTFT);
	pl_run_release(&r);
}

static void test_required(void **state)
{
	static const char *const req[] = {"model", "precision", "engine", "hardware"};
	(void)state;
	for (size_t i = 0; i < 4; i++) {
		struct pl_run r;
		char msg[256];
		good_run(&r);
		pl_run_set_cond(&r, pl_cond_lookup(req[i]), NULL, NULL);
		snprintf(msg, sizeof(msg),
		         "missing required condition '%s' (give it in the file, a sidecar "
		         "NAME.conditions.json or --set %s=...)",
		         req[i], req[i]);
		expect_invalid(&r, msg, req[i]);
	}
}

static void test_no_metric(void **state)
{
	struct pl_run r;

	(void)state;
	good_run(&r);
	r.has_metric[PL_M_TTFT_P50] = 0;
	expect_invalid(&r, "the run has no metric (give at least one under \"metric\")", "metric");
}

static void test_negative_and_nonfinite(void **state)
{
	struct pl_run r;

	(void)state;
	good_run(&r);
	pl_run_set_metric(&r, PL_M_TPOT_MEAN, -0.01);
	expect_invalid(&r, "metric 'tpot_mean' must not be negative, got -0.01", "tpot_mean");
	good_run(&r);
	pl_run_set_metric(&r, PL_M_OUTPUT_THROUGHPUT, -5);
	expect_invalid(&r, "metric 'output_throughput' must not be negative, got -5", "output_throughput");
	good_run(&r);
	pl_run_set_metric(&r, PL_M_OUTPUT_THROUGHPUT, INFINITY);
	expect_invalid(&r, "metric 'output_throughput' must be a finite number, got inf",
	               "output_throughput");
	good_run(&r);
	pl_run_set_metric(&r, PL_M_ITL_P99, NAN);
	expect_invalid(&r, "metric 'itl_p99' must be a finite number, got nan", "itl_p99");
}

static void test_error_rate(void **state)
{
	struct pl_run r;
	struct pl_error err;

	(void)state;
	good_run(&r);
	pl_run_set_metric(&r, PL_M_ERROR_RATE, 1.5);
	expect_invalid(&r, "metric 'error_rate' must be a fraction from 0 to 1, got 1.5", "error_rate");
	/* every request failed: a failed run, valid (stored and flagged) */
	good_run(&r);
	pl_run_set_metric(&r, PL_M_ERROR_RATE, 1);
	assert_int_equal(pl_validate_run(&r, &err), 0);
	assert_int_equal(pl_run_failed(&r), 1);
	pl_run_release(&r);
	good_run(&r);
	pl_run_set_metric(&r, PL_M_ERROR_RATE, 0.999);
	assert_int_equal(pl_validate_run(&r, &err), 0);
	assert_int_equal(pl_run_failed(&r), 0);
	pl_run_release(&r);
}

/* Condition text reaches JSON, HTML, spreadsheets and terminals: CSV and
 * text inputs (not checked as they are read, as JSON is) and --set values
 * must be UTF-8 too. */
static void test_text_utf8(void **state)
{
	struct pl_run r;
	struct pl_error err;

	(void)state;
	good_run(&r);
	assert_int_equal(pl_run_set_cond(&r, PL_C_HARDWARE, "8x H100 \xe2\x80\x94 SXM", NULL), 0);
	pl_error_init(&err);
	assert_int_equal(pl_validate_run(&r, &err), 0); /* an em dash is fine */
	pl_run_release(&r);
	good_run(&r);
	assert_int_equal(pl_run_set_cond(&r, PL_C_MODEL, "bad\xff\xfe", NULL), 0);
	expect_invalid(&r, "'model' is not UTF-8 (byte 0xFF at offset 3)", "model");
	good_run(&r);
	assert_int_equal(pl_run_set_cond(&r, PL_C_HARDWARE, "x\xe2\x80", NULL), 0); /* cut short */
	expect_invalid(&r, "'hardware' is not UTF-8 (byte 0xE2 at offset 1)", "hardware");
}

static void test_counts_whole(void **state)
{
	struct pl_run r;

	(void)state;
	good_run(&r);
	pl_run_set_metric(&r, PL_M_REQUESTS_COMPLETED, 7.5);
	expect_invalid(&r, "metric 'requests_completed' must be a whole number, got 7.5",
	               "requests_completed");
	good_run(&r);
	pl_run_set_metric(&r, PL_M_GPU_MEMORY_BYTES, 1.25);
	expect_invalid(&r, "metric 'gpu_memory_bytes' must be a whole number, got 1.25",
	               "gpu_memory_bytes");
}

static void test_percentile_order(void **state)
{
	struct pl_run r;
	struct pl_error err;

	(void)state;
	good_run(&r);
	pl_run_set_metric(&r, PL_M_TTFT_P95, 0.2);
	expect_invalid(&r, "percentiles out of order: 'ttft_p95' = 0.2 is less than 'ttft_p50' = 0.3",
	               "ttft_p95");
	good_run(&r);
	pl_run_set_metric(&r, PL_M_E2EL_P99, 2);
	pl_run_set_metric(&r, PL_M_E2EL_P999, 1.9);
	expect_invalid(&r, "percentiles out of order: 'e2el_p99_9' = 1.9 is less than 'e2el_p99' = 2",
	               "e2el_p99_9");
	good_run(&r);
	pl_run_set_metric(&r, PL_M_TTFT_MIN, 0.4);
	expect_invalid(&r, "percentiles out of order: 'ttft_p50' = 0.3 is less than 'ttft_min' = 0.4",
	               "ttft_p50");
	good_run(&r);
	pl_run_set_metric(&r, PL_M_TTFT_MAX, 0.25);
	expect_invalid(&r, "percentiles out of order: 'ttft_max' = 0.25 is less than 'ttft_p50' = 0.3",
	               "ttft_max");
	/* tokens_per_second is a distribution too, even though higher is better */
	good_run(&r);
	pl_run_set_metric(&r, PL_M_TPS_P50, 45);
	pl_run_set_metric(&r, PL_M_TPS_P90, 40);
	expect_invalid(&r,
	               "percentiles out of order: 'tokens_per_second_p90' = 40 is less than "
	               "'tokens_per_second_p50' = 45",
	               "tokens_per_second_p90");
	/* mean and std take no part in the order; equal values are in order */
	good_run(&r);
	pl_run_set_metric(&r, PL_M_TTFT_MEAN, 9);
	pl_run_set_metric(&r, PL_M_TTFT_STD, 0);
	pl_run_set_metric(&r, PL_M_TTFT_P90, 0.3);
	pl_run_set_metric(&r, PL_M_TTFT_P99, 0.5);
	pl_run_set_metric(&r, PL_M_TTFT_MAX, 0.5);
	pl_error_init(&err);
	assert_int_equal(pl_validate_run(&r, &err), 0);
	pl_run_release(&r);
}

/* schema/ranges.tsv: every metric has a row of its unit, lo <= hi; a value
 * at the bound is kept, one past it (a TTFT of 1e308 s) is refused with
 * field and value named. */
static void test_plausible_ranges(void **state)
{
	struct pl_run r;
	struct pl_error err;

	(void)state;
	for (int m = 0; m < PL_METRIC_COUNT; m++) {
		const struct pl_range_row *row = pl_range_of_metric(m);
		assert_non_null(row);
		assert_true(row->lo <= row->hi);
		assert_string_equal(row->unit, pl_range_unit_name(pl_metric_info[m].unit));
	}
	assert_string_equal(pl_range_of_metric(PL_M_TTFT_P99)->family, "ttft");
	assert_string_equal(pl_range_of_metric(PL_M_DURATION)->family, "duration");
	assert_string_equal(pl_range_of_metric(PL_M_TPS_P50)->family, "*");
	assert_null(pl_range_of_metric(PL_METRIC_COUNT));
	assert_int_equal(pl_range_holds(PL_M_TTFT_P50, 86400), 1);
	assert_int_equal(pl_range_holds(PL_M_TTFT_P50, 86400.001), 0);
	assert_int_equal(pl_range_holds(PL_M_ERROR_RATE, 1), 1);
	assert_int_equal(pl_range_holds(PL_M_OUTPUT_THROUGHPUT, INFINITY), 0);

	good_run(&r);
	pl_run_set_metric(&r, PL_M_TTFT_P50, 86400);
	pl_error_init(&err);
	assert_int_equal(pl_validate_run(&r, &err), 0);
	pl_run_release(&r);
	good_run(&r);
	pl_run_set_metric(&r, PL_M_TTFT_P50, 1.7976931348623157e308);
	expect_invalid(&r,
	               "metric 'ttft_p50' = 1.7976931348623157e+308 is outside the plausible range "
	               "of ttft for seconds, 0 to 86400 (a first token a day later is no "
	               "measurement; schema/ranges.tsv)",
	               "ttft_p50");
	good_run(&r);
	pl_run_set_metric(&r, PL_M_OUTPUT_THROUGHPUT, 2e9);
	expect_invalid(&r,
	               "metric 'output_throughput' = 2000000000 is outside the plausible range of "
	               "every metric for tokens/s, 0 to 1000000000 (a billion tokens per second; "
	               "schema/ranges.tsv)",
	               "output_throughput");
}

/* Times a carried trail may hold: as perfledger writes them, real dates
 * and times of day only, at the exact boundaries. */
static void test_trail_times(void **state)
{
	(void)state;
	assert_int_equal(pl_carried_time_valid("2026-09-21T14:13:20Z"), 1);
	assert_int_equal(pl_carried_time_valid("2024-02-29T23:59:59Z"), 1);
	assert_int_equal(pl_carried_time_valid("2000-02-29T00:00:00Z"), 1);
	assert_int_equal(pl_carried_time_valid("1900-02-29T00:00:00Z"), 0);
	assert_int_equal(pl_carried_time_valid("2023-02-29T00:00:00Z"), 0);
	assert_int_equal(pl_carried_time_valid("2026-04-31T00:00:00Z"), 0);
	assert_int_equal(pl_carried_time_valid("2026-12-31T24:00:00Z"), 0);
	assert_int_equal(pl_carried_time_valid("2026-12-31T23:60:00Z"), 0);
	assert_int_equal(pl_carried_time_valid("2026-12-31T23:59:60Z"), 0);
	assert_int_equal(pl_carried_time_valid("9999-99-99T99:99:99Z"), 0);
	assert_int_equal(pl_carried_time_valid("not a time"), 0);
	assert_int_equal(pl_carried_time_valid("2026-09-21T14:13:20"), 0);
	assert_int_equal(pl_carried_time_valid("2026-09-21T14:13:20+00:00"), 0);
	assert_int_equal(pl_carried_time_valid(""), 0);
	assert_int_equal(pl_carried_time_valid(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_and_checklist),
		cmocka_unit_test(test_required),
		cmocka_unit_test(test_no_metric),
		cmocka_unit_test(test_negative_and_nonfinite),
		cmocka_unit_test(test_error_rate),
		cmocka_unit_test(test_text_utf8),
		cmocka_unit_test(test_counts_whole),
		cmocka_unit_test(test_percentile_order),
		cmocka_unit_test(test_plausible_ranges),
		cmocka_unit_test(test_trail_times),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
