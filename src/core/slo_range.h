/*
 * core/slo_range.h — the plausible range of an SLO limit for a latency
 * metric (the slo-seconds rows of schema/ranges.tsv), and the unit a limit
 * outside it probably meant. The report definition's reader refuses an
 * implausible limit with that unit in its message.
 */
#ifndef PL_CORE_SLO_RANGE_H
#define PL_CORE_SLO_RANGE_H

/* The plausible range [*lo, *hi] (seconds) of a limit on metric m (enum
 * pl_metric_id): its family's slo-seconds row of schema/ranges.tsv ("ttft_p95" is
 * of family "ttft"). Returns 1 and fills lo and hi, or 0 when the family
 * has no row (lo and hi untouched). */
int pl_slo_range(int m, double *lo, double *hi);

/* For a limit of `seconds` on metric m outside its range: the unit it
 * probably meant, "ms" when seconds / 1000 lies in the range (a limit in
 * milliseconds written as seconds), "s" when seconds * 1000 does (seconds
 * written under a _ms key), else NULL. NULL too when the limit is in
 * range or m has no range. Static storage. */
const char *pl_slo_probable_unit(int m, double seconds);

#endif
