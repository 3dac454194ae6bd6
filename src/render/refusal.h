/*
 * render/refusal.h — a refused comparison worded: the mismatches of a
 * struct pl_comparison (core/compare.h, data: field, values, the runs
 * holding each value) through the word tables of render/words.h, as lines
 * for the command line and the CI formats, and as JSON.
 */
#ifndef PL_RENDER_REFUSAL_H
#define PL_RENDER_REFUSAL_H

#include <stdio.h>

#include "core/compare.h"
#include "core/msg.h"
#include "render/words.h"
#include "util/error.h"

/* The name a mismatch is listed under: its condition's, its extra
 * condition's ("FORMAT.key"), or "error_rate" for the errors rule. Static
 * storage or m's own. */
const char *pl_refusal_field_name(const struct pl_mismatch *m);

/* Builds into *out (initialised here) the message of one differing field:
 * "FIELD[ (within ROW)]: 'a' (run 1) vs 'b' (runs 2, 3)", at most
 * max_values values (0: all) then "and K more"; each value cut to
 * max_chars characters with control characters shown as '?' (0: as they
 * are). Returns 0 or PL_ENOMEM (out released). */
int pl_refusal_field_msg(struct pl_msg *out, const struct pl_mismatch *m, size_t max_values,
                         size_t max_chars);

/* pl_refusal_field_msg() worded in lang, as a new string (free()); NULL
 * on out of memory. */
char *pl_refusal_field_line(const struct pl_mismatch *m, size_t max_values, size_t max_chars,
                            enum pl_lang lang);

/* The command-line options that select subset s from the refused
 * selection: "--where FIELD=VALUE" for each of its filters, joined by
 * spaces; an option holding anything but letters, digits and ._:/,+=@%-
 * is put in single quotes for a POSIX shell ("'" written as '\''), so the
 * line can be pasted as it is. A new string (free()); NULL on out of
 * memory. */
char *pl_refusal_subset_options(const struct pl_subset *s);

/* The entries to add to a report definition's "where" list that select
 * subset s: each "FIELD=VALUE" filter as a JSON string (which a YAML
 * definition reads the same), joined by ", ". A new string (free()); NULL
 * on out of memory. */
char *pl_refusal_subset_entries(const struct pl_subset *s);

/* Builds into *out (initialised here) the message of one comparable subset:
 * REFUSAL_SUBSET with its options (pl_refusal_subset_options(), or with
 * definition 1 the definition's entries, pl_refusal_subset_entries()), cut
 * to max_chars characters with control characters shown as '?' (0: as
 * they are), and its number of runs. Returns 0 or PL_ENOMEM (out
 * released). */
int pl_refusal_subset_msg(struct pl_msg *out, const struct pl_subset *s, int definition,
                          size_t max_chars);

/* The heading of the comparable subsets of a refused cmp (which were
 * sought): REFUSAL_SUBSETS, or REFUSAL_NO_SUBSET when none compares, or
 * their report-definition forms (cmp->subsets_in_definition). */
enum pl_msg_code pl_refusal_subsets_head(const struct pl_comparison *cmp);

/* The comparable subsets of a refused cmp worded in lang as one string:
 * the heading ("adding these --where options selects a subset that
 * compares (the largest first):", or the definition's wording, or "no
 * subset ... compares" when they were sought and none compares), then
 * each subset (pl_refusal_subset_msg(), options cut to max_chars, 0: as
 * they are), each preceded by sep. "" when no subset was sought. For the
 * CI formats, which carry the refusal as one message. A new string
 * (free()); NULL on out of memory. */
char *pl_refusal_subsets_text(const struct pl_comparison *cmp, const char *sep, size_t max_chars,
                              enum pl_lang lang);

/* Writes the refusal of cmp as a JSON object (--format json):
 * {"refused": true, "axis": [...], "message": "...", "mismatches": [{"field",
 * "within", "values": [{"value", "runs", "more_runs"}], "more_values"}],
 * "more_mismatches", "subsets": [{"runs", "first_run", "where": ["FIELD=VALUE"]}]}
 * (the comparable subsets, core/compare.h; [] when none compares or none
 * was looked for); at most 20 fields, 20 values per field and 10 run ids
 * per value, the rest counted. Returns 0 or PL_EIO (err set). */
int pl_render_refusal_json(FILE *out, const struct pl_comparison *cmp, struct pl_error *err);

#endif
