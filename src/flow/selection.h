/*
 * flow/selection.h — what a command selects: the runs (--where filters) and
 * how they are compared (--axis, --metric, --allow-mismatch), parsed from
 * the command line or a report definition into one struct that the
 * pipelines (flow/compare_flow.h, flow/bundle_flow.h), check, history and
 * site all read.
 */
#ifndef PL_FLOW_SELECTION_H
#define PL_FLOW_SELECTION_H

#include <stddef.h>

#include "core/compare.h"
#include "core/model.h"
#include "store/db.h"
#include "util/error.h"

/* Selection shared by compare and report (and list, check, history, site,
 * export, amend, retract, purge and reimport for --where). Zero it before
 * use; pl_selection_release() frees what it owns. */
struct pl_selection {
	struct pl_filter filters[64]; /* --where, normalized */
	char *values[64];             /* owned normalized value texts */
	const char *where_text[64];   /* --where as given, for report headers */
	char where_extra[64][128];    /* the extra condition names ("FORMAT.key")
	                                 filters[i].extra points at */
	size_t nfilters;
	struct pl_compare_opts opts;  /* --axis, --metric, --allow-mismatch */
	char allow_extra[PL_ALLOW_EXTRA_MAX][128]; /* the extra condition names
	                                 opts.allow_extra points at */
	int have_axis;
	const char *spec;             /* the report definition the metrics and
	                                 allow_mismatch entries come from (named
	                                 in messages); NULL: command-line options */
};

/* Parses one FIELD=VALUE (--where, or a definition's 'where' entry) into
 * sel. FIELD is a condition (VALUE normalized) or an extra condition
 * "FORMAT.key" (a name with a '.' that is no condition; VALUE matched as
 * stored); FIELD= selects the runs where it is missing. arg is borrowed
 * (kept as where_text) and must outlive sel. Returns 0, or PL_EUSAGE with
 * err's message naming the option (or, with sel->spec set, the
 * definition's 'where' entry) and what was expected, or PL_ENOMEM. */
int pl_selection_add_where(struct pl_selection *sel, const char *arg, struct pl_error *err);

/* Parses NAME[,NAME...] (--metric, or a definition's 'metrics' entry) into
 * sel->opts; a name given twice is kept once. cmd is the command named in
 * the message's "see 'perfledger CMD --help'". Returns 0 or PL_EUSAGE with
 * err's message naming the unknown metric and the closest names. */
int pl_selection_add_metric(struct pl_selection *sel, const char *cmd, const char *arg,
                            struct pl_error *err);

/* Parses FIELD[,FIELD...] (--allow-mismatch, or a definition's
 * 'allow_mismatch' entry): a condition, an extra condition "FORMAT.key",
 * or error_rate (the errors rule). Returns 0 or PL_EUSAGE with err's
 * message naming the unknown condition and the closest names. */
int pl_selection_add_allow(struct pl_selection *sel, const char *arg, struct pl_error *err);

/* Writes the --where texts of sel as given, joined by SEP ("a=1 b=2" with
 * " "), into buf of n bytes (n > 0), cut to fit; "" without filters.
 * Returns buf. For the selection a report, site or pull names. */
char *pl_selection_where_join(const struct pl_selection *sel, const char *sep, char *buf, size_t n);

/* The conditions sel's --where filters fixed, for series labels
 * (core/series_label.h: what tells the selected series from its siblings):
 * named[c] = 1 for each filtered key condition c outside the identity,
 * *extras = 1 when a filter names an extra condition; the rest zeroed. */
void pl_selection_named(const struct pl_selection *sel, unsigned char named[PL_COND_COUNT],
                        int *extras);

/* Frees the owned values; sel can be filled again after it. */
void pl_selection_release(struct pl_selection *sel);

#endif
