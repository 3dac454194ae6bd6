/*
 * carried.h — what a perfledger ledger record carries besides the run
 * itself: its accepted steps, revisions and retractions, as read from an
 * `export` line (adapters/export_lines.c) on their way to the store, which
 * attaches them to the run it stores (or finds stored) under the same
 * sha256 and record. Every run_id in them is 0: "this run".
 */
#ifndef PL_CARRIED_H
#define PL_CARRIED_H

#include "core/accepted.h"
#include "core/error.h"
#include "core/amend.h"
#include "core/model.h"

struct pl_carried {
	struct pl_accepted_list accepted;       /* accepted steps of the run */
	struct pl_revision_list revisions;      /* its revision records (revision >= 2) */
	struct pl_retraction_list retractions;  /* its retractions, open and restored */
};

/* A new, empty record (caller frees with pl_carried_free()), or NULL when
 * out of memory. */
struct pl_carried *pl_carried_new(void);

/* Frees c and everything it holds; NULL is a no-op. */
void pl_carried_free(struct pl_carried *c);

/* A deep copy of src into *dst (NULL when src is NULL). Returns 0 or
 * PL_ENOMEM (*dst NULL then). */
int pl_carried_copy(struct pl_carried **dst, const struct pl_carried *src);

/* 1 when c holds nothing (or is NULL). */
int pl_carried_empty(const struct pl_carried *c);

/* 1 when s is a time as perfledger writes one: "YYYY-MM-DDTHH:MM:SSZ", a
 * real date (leap years counted) and time of day (second 60 refused). */
int pl_carried_time_valid(const char *s);

/* Checks what run->carried holds as amend, retract, restore and accept
 * check what they write, so that a ledger record cannot carry a trail the
 * commands would refuse (run is the record's run, normalized: its current
 * values):
 * - times as pl_carried_time_valid(); reasons and authors not empty (an
 *   acceptance without "accepted_by" is one stored before authors were
 *   recorded: "" is kept, an empty one given is refused);
 * - accepted steps: a known metric at most once; a revocation not before
 *   its acceptance, with its author;
 * - revisions: numbers from 2 up without a gap, in order, one time, reason
 *   and author per revision, times not going back; each field a condition,
 *   build identity field, metric or extra ("FORMAT.key") at most once per
 *   revision; old and new values differ, a condition's value is one of
 *   its type; each old value is the previous revision's new value of that
 *   field, and the last new value of each field is run's value now;
 * - retractions: in time order, each restored (restored_at not before
 *   retracted_at, with reason and author) before the next; only the last
 *   may be open.
 * Returns 0, PL_ENOMEM, or PL_EINVALID with err naming the entry ("revision
 * 2 of field 'hardware': ...") and err->field the member. */
int pl_carried_check(const struct pl_run *run, struct pl_error *err);

#endif
