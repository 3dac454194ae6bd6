/*
 * test_hub.c — the hub's connection errors need no server: a connection
 * string libpq cannot read, and a refused connection, are reported with
 * the hub named and no password repeated (URI, keyword string,
 * PGPASSWORD). The round trip against a real server is tests/hub/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hub/hub.h"

#define PW "s3cretPW42"

static void refused(const char *conninfo, int code, const char *want)
{
	struct pl_hub *h = (struct pl_hub *)1;
	struct pl_error err;

	pl_error_init(&err);
	assert_int_equal(pl_hub_connect(conninfo, &h, &err), code);
	assert_null(h);
	assert_null(strstr(err.message, PW));
	if (want && !strstr(err.message, want))
		fail_msg("'%s' lacks '%s'", err.message, want);
}

static void test_uri_password_not_repeated(void **state)
{
	(void)state;
	refused("postgresql://hubadmin:" PW "@127.0.0.1:1/hub", PL_EIO,
	        "hub '127.0.0.1:1/hub': cannot connect: ");
	/* a port libpq refuses when connecting; a URI it cannot read at all */
	refused("postgresql://hubadmin:" PW "@127.0.0.1:notaport/hub", PL_EIO, "cannot connect: ");
	refused("postgresql://hubadmin:" PW "@[::1/hub", PL_EUSAGE,
	        "cannot read the hub's connection string: ");
}

static void test_keyword_password_not_repeated(void **state)
{
	(void)state;
	refused("host=127.0.0.1 port=1 password=" PW " dbname=hub", PL_EIO, "127.0.0.1:1/hub");
	refused("host=127.0.0.1 port=1 password='" PW "' dbname=hub", PL_EIO, "127.0.0.1:1/hub");
	refused("host=127.0.0.1 port=1 password=" PW " dbname='unclosed", PL_EUSAGE, NULL);
}

static void test_env_password_not_repeated(void **state)
{
	(void)state;
	setenv("PGPASSWORD", PW, 1);
	refused("host=127.0.0.1 port=1 dbname=" PW, PL_EIO, "127.0.0.1:1/***");
	unsetenv("PGPASSWORD");
}

static void test_schema_version(void **state)
{
	(void)state;
	assert_int_equal(pl_hub_schema_version(), 1);
	pl_hub_close(NULL); /* a no-op */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uri_password_not_repeated),
		cmocka_unit_test(test_keyword_password_not_repeated),
		cmocka_unit_test(test_env_password_not_repeated),
		cmocka_unit_test(test_schema_version),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
