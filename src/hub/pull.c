/*
 * pull.c — `perfledger pull`: the hub's lines pushed since the last pull,
 * imported into temporary ledgers as `import` reads an export, and merged
 * into the local ledger by pl_store_merge(), so that every row is checked
 * as a merge checks another ledger and a conflicting run is skipped alone.
 *
 * The watermark is a PostgreSQL snapshot (pg_current_snapshot()), taken in
 * the REPEATABLE READ transaction that reads the lines: the next pull reads
 * exactly the lines whose pushing transaction that snapshot did not see
 * (xid at or above its xmin, and not visible in it). A transaction that
 * took its id early and committed late is in the snapshot's in-progress
 * list, so it is read next time: nothing committed out of order is missed,
 * and no push waits for another. It is kept per hub (pl_hub_name) in the
 * ledger's hub_marks table (migration 016), never with a password; an
 * older perfledger's "<ledger>.hub-marks" file is moved into it.
 */
#include "hub/hub_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import/import.h"
#include "util/alloc.h"

/* Rows per FETCH. */
#define FETCH_ROWS "2000"

/* The lines whose transaction the snapshot $1 did not see ($1 NULL: all). */
#define NEW_LINES                                                                    \
	"($1::text IS NULL OR (l.xid >= pg_snapshot_xmin($1::text::pg_snapshot) AND "   \
	"NOT pg_visible_in_snapshot(l.xid, $1::text::pg_snapshot)))"

/* ------------------------------------------------------------- watermark */

/* The marks file an older perfledger wrote beside db_path (caller frees),
 * or NULL. */
static char *marks_path(const char *db_path)
{
	size_t n = strlen(db_path) + 16;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s.hub-marks", db_path);
	return p;
}

/* Moves the rows of an older perfledger's marks file at path (one line
 * "NAME<TAB>SNAPSHOT" per hub) into the ledger's hub_marks, keeping a row
 * the table has already, then deletes the file. No file: nothing to do. */
static int move_legacy_marks(struct pl_store *st, const char *path, struct pl_error *err)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;

	if (!f)
		return 0;
	if ((rc = pl_store_begin(st, err))) {
		fclose(f);
		return rc;
	}
	while (!rc && (len = getline(&line, &cap, f)) > 0) {
		char *tab;

		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!(tab = strrchr(line, '\t')) || tab == line || !tab[1])
			continue; /* not a mark line */
		*tab = '\0';
		rc = pl_store_set_hub_mark(st, line, tab + 1, 0, err);
	}
	free(line);
	fclose(f);
	if (rc) {
		struct pl_error e2;
		pl_error_init(&e2);
		pl_store_rollback(st, &e2);
		return rc;
	}
	if ((rc = pl_store_commit(st, err)))
		return rc;
	if (unlink(path) != 0)
		return pl_error_set(err, PL_EIO, "cannot remove '%s' (its watermarks are in the ledger now)",
		                    path);
	return 0;
}

/* ------------------------------------------------------- temporary files */

struct version {
	char jsonl[4096];  /* the lines of this version */
	char db[4096];     /* the temporary ledger */
	FILE *f;           /* jsonl, open while lines are read */
};

static void remove_db(const char *db)
{
	char p[4200];

	unlink(db);
	snprintf(p, sizeof(p), "%s-wal", db);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", db);
	unlink(p);
	snprintf(p, sizeof(p), "%s-journal", db);
	unlink(p);
}

struct import_note {
	struct pl_pull_stats *ps;
};

static void on_file(void *vctx, const char *path, enum pl_import_status status, size_t runs,
                    size_t reference_only, const char *warnings, const struct pl_error *e)
{
	struct import_note *n = vctx;

	(void)path;
	(void)runs;
	(void)reference_only;
	(void)warnings;
	if (status != PL_IMPORT_REJECTED && status != PL_IMPORT_RECORD_REJECTED)
		return;
	n->ps->rejected++;
	if (!n->ps->rejected_first[0] && e)
		pl_error_format(e, n->ps->rejected_first, sizeof(n->ps->rejected_first));
}

/* ------------------------------------------------------------- the pull */

struct ids {
	long long *v;
	size_t n, cap;
};

static int collect_id(void *vctx, const struct pl_run *run, struct pl_error *err)
{
	struct ids *ids = vctx;

	if (PL_ALLOC_GROW(ids->v, ids->n + 1, ids->cap))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	ids->v[ids->n++] = run->id;
	return 0;
}

/* --where: deletes from the temporary ledger t the runs (with their trail)
 * the filters do not select, so that only the selection is merged. */
static int keep_selected(struct pl_store *t, const struct pl_filter *filters, size_t nfilters,
                         struct pl_error *err)
{
	struct ids all = {NULL, 0, 0}, sel = {NULL, 0, 0};
	struct pl_purge_counts pc;
	size_t j = 0;
	int rc;

	memset(&pc, 0, sizeof(pc));
	pl_store_set_retracted_mode(t, PL_RETRACTED_ALL);
	rc = pl_store_each_run(t, NULL, 0, collect_id, &all, err);
	if (!rc)
		rc = pl_store_each_run(t, filters, nfilters, collect_id, &sel, err);
	if (!rc)
		rc = pl_store_begin(t, err);
	for (size_t i = 0; i < all.n && !rc; i++) {
		int changed = 0;

		while (j < sel.n && sel.v[j] < all.v[i])
			j++;
		if (j < sel.n && sel.v[j] == all.v[i])
			continue; /* selected: both lists ascend by id */
		rc = pl_store_retract(t, all.v[i], 0, "not selected by pull --where", "perfledger",
		                      &changed, err);
		if (!rc)
			rc = pl_store_purge(t, all.v[i], &pc, err);
	}
	if (!rc)
		rc = pl_store_commit(t, err);
	else {
		struct pl_error e2;
		pl_error_init(&e2);
		pl_store_rollback(t, &e2);
	}
	free(all.v);
	free(sel.v);
	return rc;
}

static void add_merge(struct pl_merge_stats *sum, const struct pl_merge_stats *ms)
{
	sum->runs += ms->runs;
	sum->conditions += ms->conditions;
	sum->steps += ms->steps;
	sum->revisions += ms->revisions;
	sum->retractions += ms->retractions;
	sum->source_chunks += ms->source_chunks;
	if (ms->skipped && !sum->skipped_first[0])
		snprintf(sum->skipped_first, sizeof(sum->skipped_first), "%s", ms->skipped_first);
	sum->skipped += ms->skipped;
}

/* Runs SQL, a DECLARE ... CURSOR with one parameter (the watermark PREV),
 * in the open transaction. Returns 0, or the hub's error worded as WHAT
 * failing. */
static int declare_cursor(struct pl_hub *h, const char *sql, const char *prev, const char *what,
                          struct pl_error *err)
{
	const char *params[1] = {prev};
	PGresult *r = PQexecParams(h->conn, sql, 1, NULL, params, NULL, NULL, 0);
	int rc = 0;

	if (!r || PQresultStatus(r) != PGRES_COMMAND_OK)
		rc = pl_hub_fail(h, err, what);
	PQclear(r);
	return rc;
}

/* Reads the source bytes of the files the new lines were read from into
 * the temporary ledger t0 (open, holding no run), in one transaction of
 * t0, inside the hub's open REPEATABLE READ transaction. */
static int read_sources(struct pl_hub *h, const char *prev, struct pl_store *t0,
                        struct pl_error *err)
{
	PGresult *r;
	int rc;

	rc = declare_cursor(h,
	                    "DECLARE pl_src NO SCROLL CURSOR FOR SELECT s.sha256, s.seq::text, "
	                    "s.size::text, s.z FROM perfledger.sources s WHERE s.sha256 IN (SELECT "
	                    "l.sha256 FROM perfledger.lines l WHERE " NEW_LINES
	                    ") ORDER BY s.sha256, s.seq",
	                    prev, "reading source bytes", err);
	if (rc || (rc = pl_store_begin(t0, err)))
		return rc;
	for (;;) {
		int nt;

		/* binary results: z arrives as its bytes, the text columns as text */
		r = PQexecParams(h->conn, "FETCH 64 FROM pl_src", 0, NULL, NULL, NULL, NULL, 1);
		if (!r || PQresultStatus(r) != PGRES_TUPLES_OK) {
			rc = pl_hub_fail(h, err, "reading source bytes");
			PQclear(r);
			break;
		}
		nt = PQntuples(r);
		for (int t = 0; t < nt && !rc; t++) {
			struct pl_source_chunk c;
			char sha[65];

			snprintf(sha, sizeof(sha), "%.*s", PQgetlength(r, t, 0), PQgetvalue(r, t, 0));
			c.z = (unsigned char *)PQgetvalue(r, t, 3);
			c.zlen = (size_t)PQgetlength(r, t, 3);
			c.size = (size_t)strtoull(PQgetvalue(r, t, 2), NULL, 10);
			rc = pl_store_put_source_chunk(t0, sha, strtoll(PQgetvalue(r, t, 1), NULL, 10), &c,
			                               err);
		}
		PQclear(r);
		if (rc || nt == 0)
			break;
	}
	if (rc) {
		struct pl_error e2;
		pl_error_init(&e2);
		pl_store_rollback(t0, &e2);
		return rc;
	}
	if ((rc = pl_store_commit(t0, err)))
		return rc;
	return pl_hub_exec(h, "CLOSE pl_src", "reading source bytes", err);
}

/* Reads the new lines into v[] (one file per version) and the source bytes
 * of their files into a temporary ledger of their own at src_db, *t0
 * (opened here when a line was read; it holds no run, so no --where purge
 * of a version's runs can delete a selected run's bytes), inside the open
 * REPEATABLE READ transaction. */
static int read_lines(struct pl_hub *h, const char *db_path, const char *src_db, const char *prev,
                      struct version **v, int *nv, struct pl_store **t0, struct pl_pull_stats *ps,
                      struct pl_error *err)
{
	PGresult *r;
	int rc = 0;
	size_t cap = 0;

	rc = declare_cursor(h,
	                    "DECLARE pl_lines NO SCROLL CURSOR FOR SELECT l.line, row_number() OVER "
	                    "(PARTITION BY l.sha256, l.record ORDER BY l.id) FROM perfledger.lines l "
	                    "WHERE " NEW_LINES " ORDER BY l.id",
	                    prev, "reading runs", err);
	if (rc)
		return rc;
	for (;;) {
		int nt;

		r = PQexec(h->conn, "FETCH " FETCH_ROWS " FROM pl_lines");
		if (!r || PQresultStatus(r) != PGRES_TUPLES_OK) {
			rc = pl_hub_fail(h, err, "reading runs");
			PQclear(r);
			return rc;
		}
		nt = PQntuples(r);
		for (int t = 0; t < nt; t++) {
			long k = strtol(PQgetvalue(r, t, 1), NULL, 10) - 1;

			if (k < 0 || k > 100000) {
				PQclear(r);
				return pl_error_set(err, PL_EIO, "hub '%s': a run with %ld versions", h->name,
				                    k + 1);
			}
			while (*nv <= k) {
				struct version *x;
				if (PL_ALLOC_GROW(*v, (size_t)*nv + 1, cap)) {
					PQclear(r);
					return pl_error_set(err, PL_ENOMEM, "out of memory");
				}
				x = &(*v)[*nv];
				memset(x, 0, sizeof(*x));
				snprintf(x->jsonl, sizeof(x->jsonl), "%s.pull-%ld-%d.jsonl", db_path,
				         (long)getpid(), *nv);
				snprintf(x->db, sizeof(x->db), "%s.pull-%ld-%d.tmp", db_path, (long)getpid(),
				         *nv);
				(*nv)++;
				remove_db(x->db);
				if (!(x->f = fopen(x->jsonl, "w"))) {
					PQclear(r);
					return pl_error_set(err, PL_EIO, "cannot create '%s'", x->jsonl);
				}
			}
			fputs(PQgetvalue(r, t, 0), (*v)[k].f);
			fputc('\n', (*v)[k].f);
			ps->lines++;
		}
		PQclear(r);
		if (nt == 0)
			break;
	}
	if ((rc = pl_hub_exec(h, "CLOSE pl_lines", "reading runs", err)))
		return rc;
	for (int i = 0; i < *nv; i++) {
		if (fclose((*v)[i].f) != 0) {
			(*v)[i].f = NULL;
			return pl_error_set(err, PL_EIO, "cannot write '%s' (disk full?)", (*v)[i].jsonl);
		}
		(*v)[i].f = NULL;
	}
	if (!*nv)
		return 0;
	/* the source bytes of the files those lines were read from */
	if ((rc = pl_store_open(src_db, t0, err)))
		return rc;
	return read_sources(h, prev, *t0, err);
}

int pl_hub_pull(struct pl_hub *h, struct pl_store *st, const char *db_path,
                const struct pl_filter *filters, size_t nfilters, const char *selection,
                struct pl_pull_stats *ps, struct pl_error *err)
{
	char mark_name[1200];
	struct version *v = NULL;
	struct pl_store *t0 = NULL;
	char *mpath = NULL, *prev = NULL, *snap = NULL;
	char src_db[4200] = ""; /* the temporary ledger of the source bytes ("": none) */
	int nv = 0, rc, in_txn = 0;

	memset(ps, 0, sizeof(*ps));
	if ((rc = pl_hub_migrate(h, 0, NULL, err)))
		return rc;
	if (!(mpath = marks_path(db_path)))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	snprintf(mark_name, sizeof(mark_name), "%s%s%s", pl_hub_name(h),
	         selection && *selection ? " --where " : "", selection ? selection : "");
	for (char *p = mark_name; *p; p++) /* one line, one tab */
		if (*p == '\t' || *p == '\n' || *p == '\r')
			*p = ' ';
	if ((rc = move_legacy_marks(st, mpath, err)) ||
	    (rc = pl_store_hub_mark(st, mark_name, &prev, err)))
		goto out;
	ps->full = prev == NULL;
	if ((rc = pl_hub_exec(h, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
	                      "starting the pull", err)))
		goto out;
	in_txn = 1;
	{
		PGresult *r = PQexec(h->conn, "SELECT pg_current_snapshot()::text");
		if (!r || PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
			rc = pl_hub_fail(h, err, "taking a snapshot");
			PQclear(r);
			goto out;
		}
		snap = strdup(PQgetvalue(r, 0, 0));
		PQclear(r);
		if (!snap) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			goto out;
		}
	}
	snprintf(src_db, sizeof(src_db), "%s.pull-%ld-src.tmp", db_path, (long)getpid());
	if ((rc = read_lines(h, db_path, src_db, prev, &v, &nv, &t0, ps, err)))
		goto out;
	in_txn = 0;
	if ((rc = pl_hub_exec(h, "COMMIT", "finishing the pull", err)))
		goto out;
	ps->versions = nv;
	for (int i = 0; i < nv; i++) {
		const char *paths[1] = {v[i].jsonl};
		struct pl_import_opts opts;
		struct pl_import_stats is;
		struct import_note note = {ps};
		struct pl_merge_stats ms;
		struct pl_store *t = NULL;

		if ((rc = pl_store_open(v[i].db, &t, err)))
			goto out;
		memset(&opts, 0, sizeof(opts));
		rc = pl_import_paths(t, paths, 1, &opts, on_file, &note, &is, err);
		if (rc == PL_EINVALID) { /* the lines refused are counted; the rest merge */
			pl_error_init(err);
			rc = 0;
		}
		if (!rc && nfilters)
			rc = keep_selected(t, filters, nfilters, err);
		pl_store_close(t);
		if (rc)
			goto out;
		unlink(v[i].jsonl);
		if ((rc = pl_store_merge(st, v[i].db, &ms, err)))
			goto out;
		add_merge(&ps->merged, &ms);
		remove_db(v[i].db);
	}
	if (t0) {
		/* last: merge copies a file's bytes only where this ledger now
		 * holds a run from that file, so --where leaves the others out */
		struct pl_merge_stats ms;

		pl_store_close(t0);
		t0 = NULL;
		if ((rc = pl_store_merge(st, src_db, &ms, err)))
			goto out;
		add_merge(&ps->merged, &ms);
	}
	if (ps->merged.skipped || ps->rejected) {
		ps->watermark_kept = 1;
	} else {
		rc = pl_store_set_hub_mark(st, mark_name, snap, 1, err);
	}
out:
	if (in_txn)
		PQclear(PQexec(h->conn, "ROLLBACK"));
	pl_store_close(t0);
	if (src_db[0])
		remove_db(src_db); /* made or not, merged or not */
	for (int i = 0; i < nv; i++) {
		if (v[i].f)
			fclose(v[i].f);
		unlink(v[i].jsonl);
		remove_db(v[i].db);
	}
	free(v);
	free(mpath);
	free(prev);
	free(snap);
	return rc;
}
