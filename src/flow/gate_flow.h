/*
 * flow/gate_flow.h — the store -> night pipeline: the latest night of every
 * series of a selection decided together (core/gate_night.h), as `check
 * --baseline window:N --candidate latest` without --where decides it. The
 * site and `history` take their verdicts from it, so that check, history
 * and the site agree on every series (families pooled, Holm over the
 * whole night).
 */
#ifndef PL_FLOW_GATE_FLOW_H
#define PL_FLOW_GATE_FLOW_H

#include <stddef.h>

#include "core/accepted.h"
#include "core/gate_night.h"
#include "store/db.h"
#include "util/error.h"

/*
 * Queries the runs of filters[0..nfilters) (none: every stored run) in st
 * and gates them with opts (the caller fills it: group, window, metrics,
 * allow; opts->gate from pl_gate_opts_init() for check's defaults) and
 * accepted (may be NULL; borrowed) into *night (zeroed first).
 * The store is read one series (conditions row) at a time
 * (pl_store_each_set, pl_gate_night_add), so memory holds one series' runs
 * and what the night keeps of each series, whatever the ledger's size.
 * *have receives 1 when the night was decided, 0 when there is none and
 * *night holds nothing: no selected run has a metric to gate. Returns 0,
 * or PL_EDB, PL_ENOMEM, PL_EUSAGE with err set (*have 0, *night released). The caller releases *night with
 * pl_gate_night_release() either way (a no-op when *have is 0).
 */
int pl_flow_gate_night(struct pl_store *st, const struct pl_filter *filters, size_t nfilters,
                       const struct pl_gate_night_opts *opts,
                       const struct pl_accepted_list *accepted, struct pl_gate_night *night,
                       int *have, struct pl_error *err);

#endif
