/*
 * report.h — a report directory: Markdown, charts and workbook together.
 *
 * Writes into dir (created if missing; files inside are overwritten):
 *   report.md        — title, selection, shared conditions, the comparison
 *                      table, caveats, reference-only runs, the chart images,
 *                      the runs with their source and sha256
 *   comparison.csv / comparison.json — the table, machine-readable
 *   NAME.gp/.dat/.svg/.png — the charts (plot.h)
 *   comparison.xlsx  — the workbook (xlsx.h)
 */
#ifndef PL_REPORT_H
#define PL_REPORT_H

#include "core/compare.h"
#include "core/error.h"
#include "core/model.h"

/* Describes the selection for the report header. */
struct pl_report_info {
	const char *title;           /* report title, or NULL for a default */
	const char *const *filters;  /* "--where" texts as given, for the header */
	size_t nfilters;
	const char *tool_version;    /* perfledger version string */
};

/* Renders the report of cmp (built from runs) into dir; epoch (seconds,
 * SOURCE_DATE_EPOCH or now, 0 included) is the workbook's time stamp.
 * Returns 0; PL_EIO;
 * PL_ETOOL when only gnuplot failed (everything else is written; err says
 * how to install gnuplot); PL_ENOMEM. */
int pl_report_write(const char *dir, const struct pl_comparison *cmp, const struct pl_run_list *runs,
                    const struct pl_report_info *info, long long epoch, struct pl_error *err);

#endif
