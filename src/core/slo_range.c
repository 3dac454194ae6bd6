/*
 * slo_range.c — plausible SLO limits per latency family: the slo-seconds
 * rows of the one table of plausible ranges, schema/ranges.tsv (see
 * slo_range.h and ranges.h).
 */
#include "core/slo_range.h"

#include <string.h>

#include "core/model.h"
#include "core/ranges.h"

int pl_slo_range(int m, double *lo, double *hi)
{
	const char *name;

	if (m < 0 || m >= PL_METRIC_COUNT)
		return 0;
	name = pl_metric_info[m].name;
	for (unsigned i = 0; i < pl_range_row_count; i++) {
		const struct pl_range_row *r = &pl_range_rows[i];
		size_t n = strlen(r->family);
		if (strcmp(r->unit, PL_RANGE_SLO_UNIT) != 0)
			continue;
		if (strncmp(name, r->family, n) == 0 && name[n] == '_') {
			*lo = r->lo;
			*hi = r->hi;
			return 1;
		}
	}
	return 0;
}

const char *pl_slo_probable_unit(int m, double seconds)
{
	double lo, hi;

	if (!pl_slo_range(m, &lo, &hi) || (seconds >= lo && seconds <= hi))
		return NULL;
	if (seconds / 1000 >= lo && seconds / 1000 <= hi)
		return "ms";
	if (seconds * 1000 >= lo && seconds * 1000 <= hi)
		return "s";
	return NULL;
}
