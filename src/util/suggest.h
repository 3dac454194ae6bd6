/*
 * util/suggest.h — "did you mean": the closest of a few candidate names
 * to a mistyped one, by edit distance (Levenshtein with two neighbouring
 * characters swapped counting as one edit, ASCII case ignored).
 * Every "unknown field/metric/format/command/option/SLO key" message asks
 * here, so they all suggest alike.
 */
#ifndef PL_UTIL_SUGGEST_H
#define PL_UTIL_SUGGEST_H

#include <stddef.h>

/* Edit distance of a and b (insertions, deletions, substitutions and
 * swaps of two neighbours, one each; ASCII case ignored). (size_t)-1 when
 * out of memory or a string is longer than 4096 bytes. */
size_t pl_edit_distance(const char *a, const char *b);

/* The candidate (of cands[0..n), NULL entries skipped) closest to word,
 * when it is close enough to be a typo: within 2 edits, or within a third
 * of word's length, and fewer edits than word has characters; of equally
 * close ones the first holding word's letters in another order, else the
 * first. NULL when none is. Returns a pointer into
 * cands. */
const char *pl_suggest(const char *word, const char *const *cands, size_t n);

#endif
