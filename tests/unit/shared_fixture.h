/*
 * shared_fixture.h — tests that read ../shared (the corpus of real result
 * files, the field-fault cases) in place, on a clone that has none.
 *
 * A user's fresh clone has no ../shared beside it, and the README's test
 * command must pass there: a test whose file is absent is skipped, visibly
 * (cmocka's skip with a line naming the path), and the test program then
 * exits 77, which ctest reports as "Skipped" (SKIP_RETURN_CODE). Under CI
 * (CI=true), which always has ../shared, a skip is a failure instead: a
 * missing folder there is a broken setup, not a user's clone. Include after
 * <cmocka.h>.
 */
#ifndef PL_SHARED_FIXTURE_H
#define PL_SHARED_FIXTURE_H

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#if defined(__GNUC__)
#define SHARED_UNUSED __attribute__((unused))
#else
#define SHARED_UNUSED
#endif

static int shared_skips; /* tests skipped for want of ../shared */

/* 1 if path lies under the shared corpus or cases folder. */
SHARED_UNUSED static int shared_path(const char *path)
{
	static const char *const roots[] = {PL_CORPUS_DIR, PL_CASES_DIR};

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (strncmp(path, roots[i], strlen(roots[i])) == 0)
			return 1;
	return 0;
}

/* Skips the running test, saying so, when path (a file or folder under
 * ../shared) is absent. */
SHARED_UNUSED static void need_shared(const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0)
		return;
	shared_skips++;
	print_message("SKIPPED: %s is absent (a clone without ../shared beside it)\n", path);
	skip();
}

/* The program's exit status from cmocka's count of failed tests: the
 * failures; else 77 when a test was skipped for want of ../shared (1 under
 * CI=true); else 0. */
SHARED_UNUSED static int shared_exit(int failed)
{
	const char *ci = getenv("CI");

	if (failed || !shared_skips)
		return failed;
	if (ci && strcmp(ci, "true") == 0) {
		print_error("%d test(s) skipped because ../shared is absent, under CI=true: failing\n",
		            shared_skips);
		return 1;
	}
	return 77;
}

#endif
