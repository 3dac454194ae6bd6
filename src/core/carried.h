/*
 * carried.h — what a perfledger ledger record carries besides the run
 * itself: its accepted steps, revisions and retractions, as read from an
 * `export` line (adapters/ledger.c) on their way to the store, which
 * attaches them to the run it stores (or finds stored) under the same
 * sha256 and record. Every run_id in them is 0: "this run".
 */
#ifndef PL_CARRIED_H
#define PL_CARRIED_H

#include "core/accepted.h"
#include "core/ledger.h"

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

#endif
