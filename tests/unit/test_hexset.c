/* test_hexset.c — the ordered string set of core/hexset.h: order of first
 * sight, duplicates kept once, growth past the first index, the length
 * limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/error.h"
#include "core/hexset.h"

static void empty_set_holds_nothing(void **state)
{
	struct pl_hexset s = {0};
	(void)state;
	assert_int_equal(pl_hexset_has(&s, ""), 0);
	assert_int_equal(pl_hexset_has(&s, "ab"), 0);
	pl_hexset_release(&s);
	assert_null(s.v);
	assert_int_equal(s.n, 0);
}

static void duplicates_kept_once_in_first_order(void **state)
{
	struct pl_hexset s = {0};
	(void)state;
	assert_int_equal(pl_hexset_add(&s, "cc"), 0);
	assert_int_equal(pl_hexset_add(&s, "aa"), 0);
	assert_int_equal(pl_hexset_add(&s, "cc"), 0);
	assert_int_equal(pl_hexset_add(&s, "bb"), 0);
	assert_int_equal(pl_hexset_add(&s, "aa"), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.v[0], "cc");
	assert_string_equal(s.v[1], "aa");
	assert_string_equal(s.v[2], "bb");
	assert_int_equal(pl_hexset_has(&s, "bb"), 1);
	assert_int_equal(pl_hexset_has(&s, "b"), 0);
	pl_hexset_release(&s);
}

/* 1,000 members: the index (256 slots at first) grows twice at half full;
 * every member is still found, in order, and each added once. */
static void grows_past_the_first_index(void **state)
{
	struct pl_hexset s = {0};
	char h[65];
	(void)state;
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 1000; i++) {
			snprintf(h, sizeof(h), "%064x", i * 7919);
			assert_int_equal(pl_hexset_add(&s, h), 0);
		}
	assert_int_equal(s.n, 1000);
	assert_int_equal(s.nslot, 2048);
	for (int i = 0; i < 1000; i++) {
		snprintf(h, sizeof(h), "%064x", i * 7919);
		assert_string_equal(s.v[i], h);
		assert_int_equal(pl_hexset_has(&s, h), 1);
	}
	snprintf(h, sizeof(h), "%064x", 1);
	assert_int_equal(pl_hexset_has(&s, h), 0);
	pl_hexset_release(&s);
}

/* 64 characters (a sha256 in hex) is the longest member; 65 is refused. */
static void longest_member_is_64(void **state)
{
	struct pl_hexset s = {0};
	char h[66];
	(void)state;
	memset(h, 'f', 64);
	h[64] = '\0';
	assert_int_equal(pl_hexset_add(&s, h), 0);
	assert_int_equal(pl_hexset_has(&s, h), 1);
	h[64] = 'f';
	h[65] = '\0';
	assert_int_equal(pl_hexset_add(&s, h), PL_EINVALID);
	assert_int_equal(s.n, 1);
	pl_hexset_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_set_holds_nothing),
		cmocka_unit_test(duplicates_kept_once_in_first_order),
		cmocka_unit_test(grows_past_the_first_index),
		cmocka_unit_test(longest_member_is_64),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
