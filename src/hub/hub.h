/*
 * hub.h — a team ledger on PostgreSQL: `push` sends a SQLite ledger's runs
 * to a hub, `pull` brings the hub's runs into a SQLite ledger.
 *
 * The only module that includes libpq-fe.h. A hub holds every version of
 * every pushed run as its `export` line (render/render.h), so whatever
 * export carries travels; the kept source bytes travel beside them. A pull
 * writes the lines it has not seen into a temporary JSONL file, imports it
 * into a temporary ledger as `import` reads an export, and merges that
 * ledger into the local one with pl_store_merge(), so every incoming row
 * is checked as a merge checks another ledger. The hub's schema is
 * schema/hub/NNN_*.sql, embedded at build time, applied under a
 * PostgreSQL advisory lock. See docs/hub.md.
 */
#ifndef PL_HUB_H
#define PL_HUB_H

#include "core/error.h"
#include "store/db.h"

struct pl_hub; /* opaque: one connection */

/* Connects to the hub given by conninfo (a libpq connection string or URI;
 * empty: the PG* environment variables alone). Passwords come from it,
 * PGPASSWORD, PGPASSFILE or ~/.pgpass as libpq reads them; no message
 * repeats a password. *out receives the handle (pl_hub_close()).
 * Errors: PL_EUSAGE (a connection string libpq cannot read), PL_EIO (the
 * connection failed: the message names the hub, never its password). */
int pl_hub_connect(const char *conninfo, struct pl_hub **out, struct pl_error *err);

/* Closes the connection. NULL is a no-op. */
void pl_hub_close(struct pl_hub *h);

/* The hub's name, "HOST:PORT/DATABASE" as connected (HOST a socket
 * directory for a Unix socket): what messages and the pull watermark use.
 * Never holds a user or password. Owned by h. */
const char *pl_hub_name(const struct pl_hub *h);

/* The number of hub schema files this program knows. */
int pl_hub_schema_version(void);

/* Brings the hub's schema to this program's version, creating it when
 * absent (create 1) or refusing a database without one (create 0:
 * PL_EEMPTY, "no perfledger hub in ..."), under a session advisory lock
 * so that two first pushes cannot race. *version (may be NULL) gets the
 * hub's version before. Errors: PL_ESCHEMA (the hub's schema is newer than
 * this program), PL_EIO (the server failed), PL_EEMPTY. */
int pl_hub_migrate(struct pl_hub *h, int create, int *version, struct pl_error *err);

/* What pl_hub_push() did. */
struct pl_push_stats {
	long long runs;           /* runs of the ledger read (the selection) */
	long long stored;         /* of them, versions new on the hub (a new run, or one
	                             with trail the hub did not have) */
	long long present;        /* versions the hub held already (nothing sent) */
	long long source_chunks;  /* chunks of source bytes stored on the hub */
	long long skipped;        /* runs refused: the hub holds the same record identity
	                             with other conditions that none of this run's explain */
	char skipped_first[1600]; /* the first of them with both values, then the ids of
	                             the next ones ("" when none) */
	long long transactions;   /* transactions committed */
};

/* Sends the runs of st matching filters[0..nfilters) (every run, retracted
 * ones included, when nfilters is 0) to the hub, in transactions of at
 * most PL_HUB_BATCH runs, each whole or absent: a run already there with
 * the same line is skipped; a run whose record identity (sha256, record) is
 * there with other conditions, that neither its current nor its as-imported
 * conditions match, is skipped and named with both values; everything
 * else is stored. Every value is bound as a parameter. Migrates the hub
 * first (pl_hub_migrate(create 1)). *ps gets the counts. Returns 0 (also
 * when runs were skipped: ps->skipped), PL_EUSAGE (a filter value), PL_EIO
 * (the hub failed: the batches committed before stay), PL_ESCHEMA,
 * PL_EDB, PL_ENOMEM. */
int pl_hub_push(struct pl_hub *h, struct pl_store *st, const struct pl_filter *filters,
                size_t nfilters, struct pl_push_stats *ps, struct pl_error *err);

/* Runs per push transaction. */
#define PL_HUB_BATCH 500

/* What pl_hub_pull() did. */
struct pl_pull_stats {
	long long lines;          /* hub lines read (versions new since the watermark) */
	int full;                 /* 1: no watermark was stored: everything was read */
	int versions;             /* temporary ledgers merged (the most versions of one
	                             run among the lines read) */
	struct pl_merge_stats merged; /* summed over the temporary ledgers; merged.skipped
	                             and merged.skipped_first name conflicts */
	long long rejected;       /* lines the import refused (a hub row no ledger holds) */
	char rejected_first[600]; /* the first import error ("" when none) */
	int watermark_kept;       /* 1: something was skipped or refused, so the watermark
	                             was not moved (the next pull reads these lines again) */
};

/* Brings the hub's runs that were pushed since the last pull into st,
 * whose file is db_path: the watermark of this hub (pl_hub_name) is read
 * from, and written to, st's hub_marks table (pl_store_hub_mark; no
 * password), into which the file "<db_path>.hub-marks" an older
 * perfledger wrote is moved first (then deleted). With filters[0..nfilters) (--where)
 * only the runs they select are merged (the others are deleted from the
 * temporary ledgers first), and the watermark is kept under the name
 * "NAME --where SELECTION" (selection: the --where texts as given, space-
 * separated), apart from the unfiltered one. The lines are read in one REPEATABLE
 * READ snapshot, imported into temporary ledgers next to db_path (one per
 * version of a run, oldest first) and merged into st with
 * pl_store_merge(); the temporary files are removed. The watermark moves
 * to the snapshot only when nothing was skipped or refused. Returns 0 (also
 * when runs were skipped: see *ps), PL_EEMPTY (no hub schema), PL_ESCHEMA,
 * PL_EIO, PL_EDB, PL_ENOMEM, or pl_store_merge()'s refusal of a temporary
 * ledger (nothing of it merged). */
int pl_hub_pull(struct pl_hub *h, struct pl_store *st, const char *db_path,
                const struct pl_filter *filters, size_t nfilters, const char *selection,
                struct pl_pull_stats *ps, struct pl_error *err);

#endif
