/*
 * core/names.h — "did you mean" for the vocabulary's names: the condition
 * or metric closest to a mistyped one (util/suggest.h's rule), worded as
 * the suffix every "unknown ..." message appends.
 */
#ifndef PL_CORE_NAMES_H
#define PL_CORE_NAMES_H

#include <stddef.h>

/* The canonical condition name closest to name (a typo of it), or NULL.
 * Static storage (pl_cond_info's names). */
const char *pl_cond_suggest(const char *name);

/* The canonical metric name closest to name, or NULL. Static storage. */
const char *pl_metric_suggest(const char *name);

/* Writes "; did you mean 'X'?" into out (size n) when near is not NULL,
 * else "". Returns out. */
char *pl_did_you_mean(char *out, size_t n, const char *near);

#endif
