/*
 * flow/compare_flow.h — the select -> compare pipeline that compare,
 * report --axis and every other command showing a comparison call: one
 * store query chosen by what the comparison needs, then the comparison.
 */
#ifndef PL_FLOW_COMPARE_FLOW_H
#define PL_FLOW_COMPARE_FLOW_H

#include <stddef.h>

#include "core/compare.h"
#include "core/model.h"
#include "flow/selection.h"
#include "store/db.h"
#include "util/error.h"

/* Queries the runs of sel in st and builds the comparison into cmp
 * (zeroed first). With runs NULL only what the comparison reads is loaded,
 * each conditions row once (compare over a million runs in well under a
 * second), unless an axis is a per-run condition; with a list every run is
 * loaded in full into it, for renderers that need the runs too.
 * With sel->opts.has_slo (compare --slo) each run's stored requests are
 * read and graded at sel->opts.slo over its duration, and the rows get
 * their request-SLO columns (core/compare.h: pl_compare_grade_slo).
 * Returns 0 (cmp, and runs when given, filled; the caller releases both,
 * also on failure), or:
 *   PL_EMISMATCH  refused: cmp's mismatches name the fields (none when the
 *                 refusal is over a metric: err says which);
 *   PL_EEMPTY     no run to compare: err's message says why when runs
 *                 matched (every one failed) and is empty when none did;
 *                 then hint (size nhint, always terminated) names the
 *                 first --where whose value no run holds and the closest
 *                 stored values ("; no run has model=X (closest stored
 *                 values: 'a', 'b', 'c')"), or is "";
 *   another PL_E* code from the store or the comparison, with err. */
int pl_flow_compare(struct pl_store *st, const struct pl_selection *sel, struct pl_run_list *runs,
                    struct pl_comparison *cmp, char *hint, size_t nhint, struct pl_error *err);

#endif
