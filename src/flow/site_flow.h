/*
 * flow/site_flow.h — the store -> site pipeline `perfledger site` calls:
 * the accepted steps read, the latest night of every selected series
 * decided together (flow/gate_flow.h), then the site written one
 * condition key at a time from the store (pl_store_each_set), so that
 * memory holds one series whatever the ledger's size (render/site.h).
 */
#ifndef PL_FLOW_SITE_FLOW_H
#define PL_FLOW_SITE_FLOW_H

#include "flow/selection.h"
#include "render/site.h"
#include "store/db.h"
#include "util/error.h"

/*
 * Writes the site of the runs of sel in st into dir (render/site.h).
 * opts is the caller's (metrics, epoch, tool_version, selection, group);
 * its accepted and night are set here to what this call reads and decides,
 * and are cleared again before it returns (so *opts borrows nothing after).
 * Returns 0, or a PL_E* code with err set; *writing then says where it
 * failed: 1 writing the site (PL_EEMPTY: nothing to show; PL_EUSAGE: dir
 * is not the site's to replace; err's message says why), 0 reading the
 * store or deciding the night (the store's or the gate's own error).
 */
int pl_flow_site(struct pl_store *st, const struct pl_selection *sel, struct pl_site_opts *opts,
                 const char *dir, int *writing, struct pl_error *err);

#endif
