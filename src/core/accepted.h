/*
 * accepted.h — steps a user has accepted as expected (`perfledger accept`,
 * table accepted_steps): the record and a list of them. Its own header so
 * that the store, which reads and writes them, need not include history.h,
 * and history, which marks the steps it finds, need not include the store.
 */
#ifndef PL_ACCEPTED_H
#define PL_ACCEPTED_H

#include <stddef.h>

/* A step marked as expected by `perfledger accept` (table accepted_steps). */
struct pl_accepted_step {
	long long run_id;  /* the first run after the step */
	int metric;        /* enum pl_metric_id */
	char *reason;      /* why it is expected, as given; owned */
	char *accepted_at; /* ISO 8601 UTC; owned */
	char *accepted_by; /* who accepted it (accept --by, else $USER); "" for
	                      acceptances stored before it was recorded; owned */
	char *revoked_at;  /* ISO 8601 UTC of its revocation (accept --revoke), NULL
	                      while active; owned */
	char *revoked_by;  /* who revoked it, NULL while active; owned */
};

/* A growable list of accepted steps. Initialise with {0}. */
struct pl_accepted_list {
	struct pl_accepted_step *v; /* entries; owned */
	size_t n;                   /* in use */
	size_t cap;                 /* allocated */
};

/* Appends a copy of (run_id, metric, reason, accepted_at, accepted_by; NULL
 * texts are stored as ""). Returns 0 or PL_ENOMEM (the list is unchanged then). */
int pl_accepted_list_push(struct pl_accepted_list *list, long long run_id, int metric,
                          const char *reason, const char *accepted_at,
                          const char *accepted_by);

/* Marks the last entry of list as revoked at revoked_at by revoked_by
 * (copies; NULL texts are stored as ""). Returns 0; PL_ENOMEM (the entry is
 * unchanged then); PL_EUSAGE when the list is empty. */
int pl_accepted_list_revoke_last(struct pl_accepted_list *list, const char *revoked_at,
                                 const char *revoked_by);

/* Frees every entry and the array; the list is empty afterwards. NULL ok. */
void pl_accepted_list_release(struct pl_accepted_list *list);

/* The first active (not revoked) accepted step of metric whose run is one of
 * ids[0..n), or NULL.
 * list may be NULL. The pointer is valid while the list is. */
const struct pl_accepted_step *pl_accepted_find(const struct pl_accepted_list *list, int metric,
                                                const long long *ids, size_t n);

#endif
