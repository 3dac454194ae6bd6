/*
 * util/clock.h — the one reader of SOURCE_DATE_EPOCH
 * (https://reproducible-builds.org/specs/source-date-epoch/). The CLI
 * reads it once per command and passes the time down; the store stamps
 * imported_at and accepted_at with it.
 */
#ifndef PL_UTIL_CLOCK_H
#define PL_UTIL_CLOCK_H

#include "util/error.h"

/* The largest epoch accepted: 9999-12-31T23:59:59Z. */
#define PL_CLOCK_EPOCH_MAX 253402300799LL

/* Parses value as SOURCE_DATE_EPOCH: a whole number of seconds from 0 to
 * PL_CLOCK_EPOCH_MAX, decimal digits only (no sign, no spaces); 0 is
 * valid. Returns 0 with *t set, or PL_EUSAGE with err "SOURCE_DATE_EPOCH
 * must be a whole number of seconds from 0 to 253402300799, got 'VALUE'". */
int pl_clock_parse_epoch(const char *value, long long *t, struct pl_error *err);

/* The time to stamp, in seconds since 1970: $SOURCE_DATE_EPOCH when it is
 * set and not empty (*fixed = 1; parsed by pl_clock_parse_epoch), else the
 * current time (*fixed = 0). fixed may be NULL. Returns 0 or PL_EUSAGE
 * with err set (then *t is the current time). */
int pl_clock_from_env(long long *t, int *fixed, struct pl_error *err);

#endif
