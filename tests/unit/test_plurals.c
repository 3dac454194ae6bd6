/*
 * test_plurals.c — every count word of the gate's, history's and the
 * site's lines agrees with its number in English: "1 check", "2 checks",
 * "a window of 1 point", "1 of 1 point", "the 1 point before it" (the
 * message templates of render/words_en.c), exact for n = 1 and n = 2.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/msg.h"
#include "render/words.h"

static char *head(long long n)
{
	struct pl_msg m;
	char *t;

	pl_msg_init(&m, PL_MSG_GATE_HEAD);
	pl_msg_int(&m, n);
	pl_msg_int(&m, n);
	pl_msg_int(&m, n);
	pl_msg_num(&m, 0.05);
	pl_msg_num(&m, 5);
	t = pl_words_msg(&m, PL_LANG_EN);
	pl_msg_release(&m);
	return t;
}

static void test_gate_head(void **state)
{
	char *t;

	(void)state;
	t = head(1);
	assert_string_equal(t, "gate: 1 series, 1 check, window of 1 point, family-wise alpha 0.05, "
	                       "threshold 5%");
	free(t);
	t = head(2);
	assert_string_equal(t, "gate: 2 series, 2 checks, window of 2 points, family-wise alpha "
	                       "0.05, threshold 5%");
	free(t);
}

static char *result(long long n)
{
	struct pl_msg m;
	char *t;

	pl_msg_init(&m, PL_MSG_GATE_RESULT);
	for (int i = 0; i < 5; i++)
		pl_msg_int(&m, n);
	t = pl_words_msg(&m, PL_LANG_EN);
	pl_msg_release(&m);
	return t;
}

static void test_gate_counts(void **state)
{
	struct pl_msg m;
	char *t;

	(void)state;
	t = result(1);
	assert_string_equal(t, "1 regression, 1 improvement, 1 accepted, 1 series with failed runs, "
	                       "1 started");
	free(t);
	t = result(2);
	assert_string_equal(t, "2 regressions, 2 improvements, 2 accepted, 2 series with failed runs, "
	                       "2 started");
	free(t);
	for (long long n = 1; n <= 2; n++) {
		pl_msg_init(&m, PL_MSG_GATE_QUIET);
		pl_msg_int(&m, n);
		t = pl_words_msg(&m, PL_LANG_EN);
		pl_msg_release(&m);
		assert_string_equal(t, n == 1 ? "1 check without a change" : "2 checks without a change");
		free(t);
		pl_msg_init(&m, PL_MSG_GATE_WHY_BASELINE);
		pl_msg_int(&m, n);
		pl_msg_text(&m, "a");
		pl_msg_text(&m, "b");
		t = pl_words_msg(&m, PL_LANG_EN);
		pl_msg_release(&m);
		assert_string_equal(t, n == 1 ? "baseline: 1 point, a to b" : "baseline: 2 points, a to b");
		free(t);
		pl_msg_init(&m, PL_MSG_VERDICT_SKIPPED);
		pl_msg_int(&m, n);
		pl_msg_int(&m, n);
		pl_msg_text(&m, "TTFT");
		t = pl_words_msg(&m, PL_LANG_EN);
		pl_msg_release(&m);
		assert_string_equal(t, n == 1 ? "1 of 1 point not evaluable (not used): they lack TTFT"
		                              : "2 of 2 points not evaluable (not used): they lack TTFT");
		free(t);
	}
}

static void test_history_latest(void **state)
{
	(void)state;
	for (long long n = 1; n <= 2; n++) {
		struct pl_msg m;
		char *t;

		pl_msg_init(&m, PL_MSG_HISTORY_GATE_LATEST);
		pl_msg_int(&m, 7);
		pl_msg_text(&m, "0.1 s");
		pl_msg_text(&m, "0.09 s");
		pl_msg_int(&m, n);
		pl_msg_text(&m, "+11% worse");
		pl_msg_text(&m, "0.001");
		pl_msg_int(&m, n);
		pl_msg_text(&m, "regression");
		t = pl_words_msg(&m, PL_LANG_EN);
		pl_msg_release(&m);
		assert_string_equal(t, n == 1 ? "latest point 7: 0.1 s against the level 0.09 s of the 1 "
		                                "point before it (the gate's test, family-wise over 1 "
		                                "check): +11% worse, p = 0.001: regression"
		                              : "latest point 7: 0.1 s against the level 0.09 s of the 2 "
		                                "points before it (the gate's test, family-wise over 2 "
		                                "checks): +11% worse, p = 0.001: regression");
		free(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gate_head),
		cmocka_unit_test(test_gate_counts),
		cmocka_unit_test(test_history_latest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
