/*
 * xlsx.h — the comparison as an .xlsx workbook (libxlsxwriter).
 *
 * The only module that includes xlsxwriter.h. Sheets: "Comparison" (one row
 * per axis value, metrics as numeric cells with units in the headers, deltas
 * in percent), "Runs" (every run in the comparison: id, source, sha256, key
 * conditions, metrics, reference-only), "Conditions" (shared conditions and
 * the fields that vary) and "Caveats" when there are any. Every string from
 * an input file is written as a text cell (worksheet_write_string), never a
 * formula. The workbook's creation time is the epoch passed in (the CLI
 * parses SOURCE_DATE_EPOCH once), so renders are reproducible; 0 is
 * 1970-01-01T00:00:00Z like any other epoch.
 */
#ifndef PL_XLSX_H
#define PL_XLSX_H

#include "core/compare.h"
#include "core/error.h"
#include "core/model.h"

/* Writes the workbook to path. runs must hold the runs of cmp (others are
 * ignored). epoch (seconds since 1970-01-01T00:00:00Z, 0 included) is the
 * creation and modification time in docProps/core.xml. Returns 0, PL_EIO
 * (cannot write path) or PL_ENOMEM. */
int pl_xlsx_write(const char *path, const struct pl_comparison *cmp, const struct pl_run_list *runs,
                  long long epoch, struct pl_error *err);

struct pl_procurement;

/* The verdict as the report's verdict table says it, for the workbook's
 * first sheet (the bundle fills it from the same code as the HTML). */
struct pl_xlsx_verdict {
	const char *currency;      /* the definition's "currency"; NULL or "": none named */
	const size_t *order;       /* proc->ngroups group indexes, best first (rank 1
	                              first); NULL: the groups' own order */
	const char *const *flags;  /* per rank: the flags joined by "; ", or NULL */
	const char *const *notes;  /* per rank: the notes joined by "; ", or NULL */
	const char *bundle_id;     /* the bundle id: a last "Check" sheet with it and
	                              how_to_check; NULL: no such sheet */
	const char *how_to_check;  /* the "how to check this report" paragraph, or NULL */
	const size_t *ranks;       /* per rank: the offer's rank within its kind of sweep
	                              (one verdict per kind), or NULL: 1, 2, ... */
};

/* The bundle's workbook: the sheets of pl_xlsx_write plus a native column
 * chart of output throughput on the Comparison sheet and, with proc and
 * PL_SHEET_PROCUREMENT (spec.h) in sheets, a "Procurement" sheet first:
 * the verdict table (rank, offer, cost per 1M output tokens at the SLO in
 * the verdict's currency, SLO throughput per accelerator, SLO throughput,
 * peak, n, flags, notes, then accelerators, prices and goodput), one row
 * per group in verdict order (verdict may be NULL: group order, no flags,
 * no currency named), and every sweep point under it, with a native
 * scatter chart of throughput vs the load (concurrency, or the request
 * rate of an open-loop sweep) per group and a column chart of the cost at
 * the SLO of the offers that have one (of the SLO throughput per
 * accelerator when none has); with PL_SHEET_CHECKLIST a "Checklist" sheet
 * (publication checklist items per run). lang ("en", "zh-CN") picks the
 * headers and chart titles; epoch as for pl_xlsx_write. Returns as
 * pl_xlsx_write. */
int pl_xlsx_write_bundle(const char *path, const struct pl_comparison *cmp,
                         const struct pl_run_list *runs, const struct pl_procurement *proc,
                         const struct pl_xlsx_verdict *verdict, unsigned sheets,
                         const char *lang, long long epoch, struct pl_error *err);

/* The workbook's sheets, in the order Comparison.. follow Procurement. */
enum pl_xlsx_sheet {
	PL_XLSX_SHEET_PROCUREMENT,
	PL_XLSX_SHEET_COMPARISON,
	PL_XLSX_SHEET_RUNS,
	PL_XLSX_SHEET_CONDITIONS,
	PL_XLSX_SHEET_CAVEATS,
	PL_XLSX_SHEET_CHECKLIST,
	PL_XLSX_SHEET_CHECK,
	PL_XLSX_SHEET_COUNT
};

/* The name of sheet in the workbook's language (zh = 1: Chinese, e.g.
 * "采购评审"; else English, "Procurement"): valid under Excel's rules (at
 * most 31 characters, none of [ ] : * ? / \\, checked by unit_xlsx).
 * Static storage; "Sheet" out of range. */
const char *pl_xlsx_sheet_name(enum pl_xlsx_sheet sheet, int zh);

#endif
