/* test_error.c — pl_strerror table in sync with the enum; formatting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "core/error.h"

static void strerror_covers_every_code(void **state)
{
	(void)state;
	/* every code from PL_OK down to PL_ERRCODE_MIN has its own string */
	for (int c = PL_OK; c >= PL_ERRCODE_MIN; c--) {
		assert_string_not_equal(pl_strerror(c), "unknown error");
		for (int d = c - 1; d >= PL_ERRCODE_MIN; d--)
			assert_string_not_equal(pl_strerror(c), pl_strerror(d));
	}
	assert_string_equal(pl_strerror(PL_ERRCODE_MIN - 1), "unknown error");
	assert_string_equal(pl_strerror(1), "unknown error");
	assert_string_equal(pl_strerror(PL_EMISMATCH), "conditions do not match");
}

static void format_with_position_and_field(void **state)
{
	struct pl_error e;
	char buf[256];
	(void)state;
	pl_error_init(&e);
	assert_int_equal(pl_error_set(&e, PL_ESYNTAX, "invalid JSON: expected '%s'", ","), PL_ESYNTAX);
	pl_error_at(&e, "x.json", 3, 14);
	pl_error_format(&e, buf, sizeof(buf));
	assert_string_equal(buf, "x.json:3:14: invalid JSON: expected ','");

	pl_error_init(&e);
	pl_error_set(&e, PL_EINVALID, "must be a string");
	pl_error_field(&e, "engine_version");
	pl_error_at(&e, "a.json", 0, 0);
	pl_error_format(&e, buf, sizeof(buf));
	assert_string_equal(buf, "a.json: field 'engine_version': must be a string");

	/* a message that already names the field is not prefixed twice */
	pl_error_set(&e, PL_EINVALID, "'engine_version' must be a string");
	pl_error_format(&e, buf, sizeof(buf));
	assert_string_equal(buf, "a.json: 'engine_version' must be a string");

	pl_error_init(&e);
	pl_error_set(&e, PL_EIO, "cannot open 'q'");
	pl_error_format(&e, buf, sizeof(buf));
	assert_string_equal(buf, "cannot open 'q'");
	/* NULL error pointers are accepted */
	assert_int_equal(pl_error_set(NULL, PL_EIO, "x"), PL_EIO);
	pl_error_at(NULL, "f", 1, 1);
	pl_error_field(NULL, "f");
}

static void format_truncates_safely(void **state)
{
	struct pl_error e;
	char buf[8];
	(void)state;
	pl_error_init(&e);
	pl_error_set(&e, PL_EIO, "a long message");
	assert_int_equal(pl_error_format(&e, buf, sizeof(buf)), 14);
	assert_string_equal(buf, "a long ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strerror_covers_every_code),
		cmocka_unit_test(format_with_position_and_field),
		cmocka_unit_test(format_truncates_safely),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
