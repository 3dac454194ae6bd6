/*
 * clock.c — SOURCE_DATE_EPOCH, parsed with one rule (see util/clock.h).
 */
#include "util/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

int pl_clock_parse_epoch(const char *value, long long *t, struct pl_error *err)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(value, &end, 10);
	if (value[0] < '0' || value[0] > '9' || *end || errno == ERANGE || v < 0 ||
	    v > PL_CLOCK_EPOCH_MAX || (long long)(time_t)v != v)
		return pl_error_set(err, PL_EUSAGE,
		                    "SOURCE_DATE_EPOCH must be a whole number of seconds from 0 to "
		                    "253402300799, got '%s'",
		                    value);
	*t = v;
	return 0;
}

int pl_clock_from_env(long long *t, int *fixed, struct pl_error *err)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");

	if (fixed)
		*fixed = 0;
	*t = (long long)time(NULL);
	if (!sde || !*sde)
		return 0;
	if (pl_clock_parse_epoch(sde, t, err))
		return PL_EUSAGE;
	if (fixed)
		*fixed = 1;
	return 0;
}
