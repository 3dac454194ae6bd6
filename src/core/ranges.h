/*
 * ranges.h — the plausible range of every metric, per canonical unit and
 * metric family, from the one table schema/ranges.tsv (embedded at build
 * time by cmake/embed_ranges.cmake). Import refuses a value outside it
 * (core/validate.c); an SLO limit can be checked against the same range.
 * A range is what a measurement can be, not what is good: a TTFT of 1e308 s
 * is refused, a slow one is not.
 */
#ifndef PL_RANGES_H
#define PL_RANGES_H

#include "core/model.h"

/* One row of schema/ranges.tsv, as generated. */
struct pl_range_row {
	const char *unit;   /* "seconds", "tokens/s", "requests/s", "fraction",
	                       "count", "bytes" or "watts"; or PL_RANGE_SLO_UNIT:
	                       an SLO limit's range (core/slo_range.h), never a
	                       metric's */
	const char *family; /* a metric name, a family prefix ("ttft") or "*" */
	double lo, hi;      /* the plausible range, inclusive, in the unit */
	const char *why;    /* what the bound stands for (one line) */
};

/* The unit column of the rows bounding SLO limits (seconds). */
#define PL_RANGE_SLO_UNIT "slo-seconds"

/* The generated table and its length (generated/ranges.c). */
extern const struct pl_range_row pl_range_rows[];
extern const unsigned pl_range_row_count;

/* The plausible range of metric (enum pl_metric_id): the row of its unit
 * whose family is its exact name, else the longest family that is a
 * prefix of its name followed by '_', else the unit's "*" row. Returns
 * that row (static storage), or NULL when metric is out of range or the
 * table has no row for its unit (unit_ranges checks every metric has one). */
const struct pl_range_row *pl_range_of_metric(int metric);

/* The name of unit in the table ("seconds", ...); never NULL. */
const char *pl_range_unit_name(enum pl_unit unit);

/* 1 when value is finite and inside the plausible range of metric (a
 * metric without a row: only finite); 0 otherwise. */
int pl_range_holds(int metric, double value);

#endif
