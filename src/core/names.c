/*
 * names.c — the closest condition or metric name to a mistyped one (see
 * names.h).
 */
#include "core/names.h"

#include <stdio.h>

#include "core/model.h"
#include "util/suggest.h"

const char *pl_cond_suggest(const char *name)
{
	const char *cands[PL_COND_COUNT];

	for (int i = 0; i < PL_COND_COUNT; i++)
		cands[i] = pl_cond_info[i].name;
	return pl_suggest(name, cands, PL_COND_COUNT);
}

const char *pl_metric_suggest(const char *name)
{
	const char *cands[PL_METRIC_COUNT];

	for (int i = 0; i < PL_METRIC_COUNT; i++)
		cands[i] = pl_metric_info[i].name;
	return pl_suggest(name, cands, PL_METRIC_COUNT);
}

char *pl_did_you_mean(char *out, size_t n, const char *near)
{
	if (near)
		snprintf(out, n, "; did you mean '%s'?", near);
	else if (n)
		out[0] = '\0';
	return out;
}
