/*
 * slo_range.c — plausible SLO limits per latency family, from the table
 * schema/slo_ranges.def (see slo_range.h).
 */
#include "core/slo_range.h"

#include <string.h>

#include "core/model.h"

struct range {
	const char *family; /* "ttft" */
	double lo, hi;      /* seconds */
};

static const struct range ranges[] = {
#define PL_SLO_RANGE(fam, lo, hi) {fam, lo, hi},
#include "slo_ranges.def"
#undef PL_SLO_RANGE
};

int pl_slo_range(int m, double *lo, double *hi)
{
	const char *name;

	if (m < 0 || m >= PL_METRIC_COUNT)
		return 0;
	name = pl_metric_info[m].name;
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		size_t n = strlen(ranges[i].family);
		if (strncmp(name, ranges[i].family, n) == 0 && name[n] == '_') {
			*lo = ranges[i].lo;
			*hi = ranges[i].hi;
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
