/*
 * test_verdict_bounds.c — the pieces a verdict that never overstates rests
 * on: which recorded percentile bounds a missing one, the plausible SLO
 * ranges of schema/ranges.tsv (its slo-seconds rows) and the unit an implausible limit
 * probably meant, and the "did you mean" of util/suggest.h. The verdict
 * itself is checked end to end by tests/e2e/cases/418-verdict-bounds.case.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/model.h"
#include "core/procure.h"
#include "core/ranges.h"
#include "core/slo_range.h"
#include "util/suggest.h"

static void test_bounding_metric(void **state)
{
	(void)state;
	/* p95 -> p99 -> p99_9 -> max -> none */
	assert_int_equal(pl_procure_bounding_metric(PL_M_TTFT_P95, PL_M_NONE), PL_M_TTFT_P99);
	assert_int_equal(pl_procure_bounding_metric(PL_M_TTFT_P95, PL_M_TTFT_P99), PL_M_TTFT_P999);
	assert_int_equal(pl_procure_bounding_metric(PL_M_TTFT_P95, PL_M_TTFT_P999), PL_M_TTFT_MAX);
	assert_int_equal(pl_procure_bounding_metric(PL_M_TTFT_P95, PL_M_TTFT_MAX), PL_M_NONE);
	/* p50 starts at p90; tpot's family is its own */
	assert_int_equal(pl_procure_bounding_metric(PL_M_TPOT_P50, PL_M_NONE), PL_M_TPOT_P90);
	assert_int_equal(pl_procure_bounding_metric(PL_M_E2EL_P99, PL_M_NONE), PL_M_E2EL_P999);
	assert_int_equal(pl_procure_bounding_metric(PL_M_ITL_P999, PL_M_NONE), PL_M_ITL_MAX);
	/* a mean, a maximum or a value has no higher percentile */
	assert_int_equal(pl_procure_bounding_metric(PL_M_TTFT_MEAN, PL_M_NONE), PL_M_NONE);
	assert_int_equal(pl_procure_bounding_metric(PL_M_TTFT_MAX, PL_M_NONE), PL_M_NONE);
	assert_int_equal(pl_procure_bounding_metric(PL_M_OUTPUT_THROUGHPUT, PL_M_NONE), PL_M_NONE);
	/* `after` from another family or below m: none */
	assert_int_equal(pl_procure_bounding_metric(PL_M_TTFT_P95, PL_M_TPOT_P99), PL_M_NONE);
	assert_int_equal(pl_procure_bounding_metric(PL_M_TTFT_P95, PL_M_TTFT_P50), PL_M_NONE);
	assert_int_equal(pl_procure_bounding_metric(-5, PL_M_NONE), PL_M_NONE);
}

static void test_slo_ranges(void **state)
{
	double lo = -1, hi = -1;

	(void)state;
	assert_int_equal(pl_slo_range(PL_M_TTFT_P95, &lo, &hi), 1);
	assert_true(lo == 0.001 && hi == 600);
	assert_int_equal(pl_slo_range(PL_M_TPOT_P50, &lo, &hi), 1);
	assert_true(lo == 0.0001 && hi == 5);
	assert_int_equal(pl_slo_range(PL_M_E2EL_P99, &lo, &hi), 1);
	assert_true(hi == 3600);
	assert_int_equal(pl_slo_range(PL_M_OUTPUT_THROUGHPUT, &lo, &hi), 0);
	/* one table: the SLO rows live in schema/ranges.tsv beside the
	 * measurements' rows, never bound a measurement, and each lies inside
	 * the plausible range of what its family measures */
	{
		unsigned nslo = 0;
		for (unsigned i = 0; i < pl_range_row_count; i++) {
			const struct pl_range_row *r = &pl_range_rows[i];
			int m;
			if (strcmp(r->unit, PL_RANGE_SLO_UNIT) != 0)
				continue;
			nslo++;
			{ /* the family's p50 stands for it */
				char name[32];
				snprintf(name, sizeof(name), "%s_p50", r->family);
				m = pl_metric_lookup(name);
			}
			assert_true(m >= 0);
			assert_true(pl_range_of_metric(m) != r);
			assert_true(r->lo >= pl_range_of_metric(m)->lo && r->hi <= pl_range_of_metric(m)->hi);
		}
		assert_int_equal(nslo, 4);
	}
	/* the boundaries are plausible; just past them is not */
	assert_null(pl_slo_probable_unit(PL_M_TPOT_P50, 5));
	assert_null(pl_slo_probable_unit(PL_M_TPOT_P50, 0.0001));
	assert_null(pl_slo_probable_unit(PL_M_TTFT_P95, 600));
	assert_string_equal(pl_slo_probable_unit(PL_M_TPOT_P50, 50), "ms");
	assert_string_equal(pl_slo_probable_unit(PL_M_TPOT_P50, 5.001), "ms");
	assert_string_equal(pl_slo_probable_unit(PL_M_TTFT_P95, 1000), "ms");
	assert_string_equal(pl_slo_probable_unit(PL_M_TTFT_P95, 0.0005), "s");
	/* no unit brings it into range: NULL (the caller still refuses) */
	assert_null(pl_slo_probable_unit(PL_M_TTFT_P95, 1e9));
	assert_null(pl_slo_probable_unit(PL_M_OUTPUT_THROUGHPUT, 1e9));
}

static void test_suggest(void **state)
{
	static const char *const metrics[] = {"ttft_p50", "ttft_p90", "ttft_p95", "tpot_p50"};
	static const char *const fields[] = {"model", "hardware", "engine", "concurrency"};

	(void)state;
	assert_int_equal(pl_edit_distance("modle", "model"), 1);       /* a swap is one edit */
	assert_int_equal(pl_edit_distance("hardwere", "hardware"), 1);
	assert_int_equal(pl_edit_distance("ttft_95", "ttft_p95"), 1);
	assert_int_equal(pl_edit_distance("ABC", "abc"), 0);
	assert_int_equal(pl_edit_distance("", "abc"), 3);
	/* p59: p50 and p95 are both one edit away; the one with its letters wins */
	assert_string_equal(pl_suggest("ttft_p59", metrics, 4), "ttft_p95");
	assert_string_equal(pl_suggest("ttft_95", metrics, 4), "ttft_p95");
	assert_string_equal(pl_suggest("modle", fields, 4), "model");
	assert_string_equal(pl_suggest("hardwere", fields, 4), "hardware");
	assert_string_equal(pl_suggest("concurency", fields, 4), "concurrency");
	/* too far to be a typo */
	assert_null(pl_suggest("throughput", fields, 4));
	assert_null(pl_suggest("xy", fields, 4));
	assert_null(pl_suggest("model", fields, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounding_metric),
		cmocka_unit_test(test_slo_ranges),
		cmocka_unit_test(test_suggest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
