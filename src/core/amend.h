/*
 * amend.h — the audit trail of stored runs (issue 13): revisions (a
 * correction of a run's conditions by `perfledger amend`, one record per
 * changed field) and retractions (`retract` / `restore`), as the store
 * reads them from the tables revisions and retractions (migration 009,
 * schema/README.md), and the amend step itself: --set values applied to a
 * copy of a stored run, normalized and validated like an import's, and the
 * fields that changed. Pure: no store, no printing.
 */
#ifndef PL_CORE_AMEND_H
#define PL_CORE_AMEND_H

#include <stddef.h>

#include "core/error.h"
#include "core/model.h"

/* One changed field of a revision (table revisions). A run as imported is
 * revision 1; each amend that changes it makes the next revision, with
 * one record per field it changed. */
struct pl_revision {
	long long run_id; /* the run */
	int revision;     /* the revision this change made: 2, 3, ... */
	char *field;      /* condition name, or "FORMAT.key" of an extra; owned */
	char *old_value;  /* canonical text before, NULL = missing; owned */
	char *new_value;  /* canonical text after, NULL = missing; owned */
	char *changed_at; /* ISO 8601 UTC; owned */
	char *reason;     /* as the user gave it; owned */
	char *author;     /* --by, else $USER; owned */
};

/* A growable list of revisions. Initialise with {0}. */
struct pl_revision_list {
	struct pl_revision *v; /* entries; owned */
	size_t n;              /* in use */
	size_t cap;            /* allocated */
};

/* Appends a copy of r (its strings copied; NULL stays NULL for the values,
 * "" for the others). Returns 0 or PL_ENOMEM (the list is unchanged). */
int pl_revision_list_push(struct pl_revision_list *list, const struct pl_revision *r);

/* Frees every entry and the array; the list is empty afterwards. NULL ok. */
void pl_revision_list_release(struct pl_revision_list *list);

/* Frees the strings of one revision (not r itself), as the list's release
 * does for each entry: for a caller dropping entries from a list. */
void pl_revision_free(struct pl_revision *r);

/* One retraction of a run (table retractions): open (restored_at NULL)
 * while the run is retracted; `restore` fills the restored_* fields. */
struct pl_retraction {
	long long run_id;     /* the run */
	char *retracted_at;   /* ISO 8601 UTC; owned */
	char *reason;         /* why, as given; owned */
	char *author;         /* --by, else $USER; owned */
	char *restored_at;    /* ISO 8601 UTC, NULL while retracted; owned */
	char *restore_reason; /* NULL while retracted; owned */
	char *restored_by;    /* NULL while retracted; owned */
};

/* A growable list of retractions. Initialise with {0}. */
struct pl_retraction_list {
	struct pl_retraction *v; /* entries; owned */
	size_t n;                /* in use */
	size_t cap;              /* allocated */
};

/* Appends a copy of r. Returns 0 or PL_ENOMEM (the list is unchanged). */
int pl_retraction_list_push(struct pl_retraction_list *list, const struct pl_retraction *r);

/* Frees every entry and the array; the list is empty afterwards. NULL ok. */
void pl_retraction_list_release(struct pl_retraction_list *list);

/* Frees the strings of one retraction (not r itself), as the list's
 * release does for each entry. */
void pl_retraction_free(struct pl_retraction *r);

/* One --set FIELD=VALUE of `amend`: field is a condition name or an extra
 * condition "FORMAT.key"; value NULL (or "") removes it (missing). */
struct pl_amend_set {
	const char *field; /* as given; borrowed */
	const char *value; /* as given, NULL or "" = remove; borrowed */
};

/* A field an amend changes, values as canonical text (NULL = missing). */
struct pl_amend_change {
	char *field;     /* condition name or "FORMAT.key"; owned */
	char *old_value; /* owned, NULL = missing */
	char *new_value; /* owned, NULL = missing */
};

/* A per-accelerator throughput (output_throughput_per_accelerator,
 * total_token_throughput_per_accelerator) when an amend changes
 * accelerator_count (directly, or through hardware). */
struct pl_amend_metric {
	int metric;       /* enum pl_metric_id */
	double old_value; /* as stored, tokens/s; NaN = missing */
	double new_value; /* throughput / new count (NaN = removed: no count now);
	                     old_value when kept */
	int kept;         /* 1: the file gave it (it differs from throughput / old
	                     count), so it is kept as stored and not changed */
};

/* The outcome of pl_ledger_amend_run(). */
struct pl_amend_result {
	struct pl_run run;               /* the run with its new conditions (and
	                                    re-derived per-accelerator metrics) */
	struct pl_amend_change *changes; /* in the order of the condition table, then
	                                    build identity, then extras by name; owned */
	size_t nchanges;                 /* 0: the values are already so */
	size_t changes_cap;              /* allocated entries of changes
	                                    (PL_ALLOC_GROW) */
	struct pl_amend_metric metrics[2]; /* per-accelerator metrics re-derived
	                                    (kept 0) or kept as the file gave them
	                                    (kept 1), in metric order */
	size_t nmetrics;                 /* entries in metrics */
};

/* Checks the --set list before anything is read: each field a condition
 * (exact canonical name; extras contain a '.') or a build identity field
 * (commit, branch, build_id, ci_run_url: checked as import --set checks
 * them), a value of its type, UTF-8, and no field given twice. Metrics are refused: "'ttft_p50' is a metric:
 * amend corrects conditions only (a measurement is never rewritten)".
 * Returns 0 or PL_EUSAGE with err->field the field. */
int pl_ledger_check_sets(const struct pl_amend_set *sets, size_t nsets, struct pl_error *err);

/* Applies sets to a copy of run (a stored run, read back whole) into
 * out->run, then what an import does after --set: the launch flags of
 * engine_args (pl_engine_args_apply), normalization and validation (so a
 * required field cannot be removed and a value must be of its type), and
 * the checklist bits; then lists in out->changes every condition, build
 * identity field and extra whose canonical text differs from run's (a
 * build field given empty is removed). Metrics are measurements and stay
 * as stored, except the per-accelerator throughputs an import derives from
 * accelerator_count (core/validate.c): when the count changes, a stored
 * value equal to throughput / old count (derived) becomes throughput / new
 * count (missing when the count is removed; derived when there was none),
 * and one that differs (the file gave it) is kept; out->metrics lists both. Returns 0 (out filled; release
 * with pl_ledger_amend_release), PL_ENOMEM, or PL_EINVALID / PL_EUSAGE with
 * err naming the field and the value. */
int pl_ledger_amend_run(const struct pl_run *run, const struct pl_amend_set *sets, size_t nsets,
                        struct pl_amend_result *out, struct pl_error *err);

/* Frees what out owns. NULL ok. */
void pl_ledger_amend_release(struct pl_amend_result *out);

#endif
