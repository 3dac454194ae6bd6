/*
 * ranges.c — lookups in the table of plausible ranges (see ranges.h).
 */
#include "core/ranges.h"

#include <math.h>
#include <string.h>

const char *pl_range_unit_name(enum pl_unit unit)
{
	switch (unit) {
	case PL_U_SECONDS: return "seconds";
	case PL_U_TOKENS_PER_S: return "tokens/s";
	case PL_U_REQUESTS_PER_S: return "requests/s";
	case PL_U_FRACTION: return "fraction";
	case PL_U_COUNT: return "count";
	case PL_U_BYTES: return "bytes";
	case PL_U_WATTS: return "watts";
	}
	return "?";
}

const struct pl_range_row *pl_range_of_metric(int metric)
{
	const struct pl_range_row *best = NULL;
	size_t best_len = 0;
	const char *name, *unit;
	int exact = 0;

	if (metric < 0 || metric >= PL_METRIC_COUNT)
		return NULL;
	name = pl_metric_info[metric].name;
	unit = pl_range_unit_name(pl_metric_info[metric].unit);
	for (unsigned i = 0; i < pl_range_row_count && !exact; i++) {
		const struct pl_range_row *r = &pl_range_rows[i];
		size_t flen = strlen(r->family);

		if (strcmp(r->unit, unit) != 0)
			continue;
		if (strcmp(r->family, name) == 0) {
			best = r;
			exact = 1;
		} else if (strcmp(r->family, "*") == 0) {
			if (!best)
				best = r;
		} else if (strncmp(name, r->family, flen) == 0 && name[flen] == '_' && flen >= best_len) {
			best = r;
			best_len = flen;
		}
	}
	return best;
}

int pl_range_holds(int metric, double value)
{
	const struct pl_range_row *r = pl_range_of_metric(metric);

	if (!isfinite(value))
		return 0;
	return !r || (value >= r->lo && value <= r->hi);
}
