/*
 * merge.c — `perfledger merge`: the runs of another ledger file brought
 * into this one, with their conditions, extra conditions, accepted steps,
 * revisions, retractions and source bytes, in one transaction (a merge killed half way leaves
 * nothing of it).
 *
 * Runs are unique on (source sha256, record) in every ledger, so a run is
 * the same run in two ledgers when those agree: it is then stored once,
 * and merging a ledger twice stores nothing the second time. The other
 * ledger is checked first (merge_check.c): one that fails merges nothing.
 * The same bytes stored with other conditions (one ledger amended them,
 * or imported them with another --set) are a conflict: such a run is
 * skipped together with its own trail (named, with the fields and both
 * values of the first and the ids of the next, in pl_merge_stats), and
 * everything else is merged. Not a conflict: the other ledger's run is this
 * ledger's run at a revision of its trail (this ledger amended it after a
 * merge), or lacks values this ledger holds (an older perfledger did not
 * derive them); the run here stays as it is. Source bytes are keyed
 * by sha256 and stored once.
 *
 * The other ledger is attached read-only (SQLite URI mode=ro) and never
 * changed. One at an older schema version is first copied (VACUUM INTO a
 * temporary file next to this ledger), the copy migrated and merged, and
 * removed; copies left by merges killed before removing theirs (their PID
 * no longer runs) are removed by the next merge into this ledger. Everything is set-based SQL over the two files (a join on the
 * runs' unique index), so memory stays at SQLite's page cache whatever the
 * ledgers' size; temporary b-trees go to files during a merge.
 */
#include "store/store_impl.h"
#include "core/carried.h"
#include "util/alloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------ the other ledger's file */

/* Reads the schema version of the ledger at path, refusing what is not a
 * perfledger ledger or is newer than this program. */
static int other_version(sqlite3 *mine, const char *path, int *version, struct pl_error *err)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	struct stat sb;
	int ours = 0, rc = 0;

	if (stat(path, &sb) != 0)
		return pl_error_set(err, PL_EIO, "cannot open ledger '%s': %s", path, strerror(errno));
	if (!S_ISREG(sb.st_mode) || sb.st_size == 0)
		return pl_error_set(err, PL_EIO, "no perfledger database at '%s'", path);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		rc = pl_error_set(err, PL_EIO, "cannot open ledger '%s': %s", path,
		                  db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return rc;
	}
	sqlite3_busy_timeout(db, 30000);
	if (sqlite3_prepare_v2(db,
	                       "SELECT (SELECT user_version FROM pragma_user_version), "
	                       "(SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
	                       "('runs', 'conditions'))",
	                       -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_ROW) {
		rc = pl_error_set(err, PL_ESCHEMA, "'%s' is not a perfledger database (%s)", path,
		                  sqlite3_errmsg(db));
	} else {
		*version = sqlite3_column_int(s, 0);
		ours = sqlite3_column_int(s, 1) == 2;
		if (*version <= 0 || !ours)
			rc = pl_error_set(err, PL_ESCHEMA, "'%s' is not a perfledger database", path);
		else if (*version > pl_store_schema_version())
			rc = pl_error_set(err, PL_ESCHEMA,
			                  "ledger '%s' has schema version %d; this perfledger knows up to %d",
			                  path, *version, pl_store_schema_version());
	}
	sqlite3_finalize(s);
	/* before it is copied, migrated or read: no view, trigger or virtual table */
	if (!rc)
		rc = pl_merge_check_objects(db, mine, path, err);
	sqlite3_close(db);
	return rc;
}

/* A migrated copy of the older ledger at path: VACUUM INTO a new file next
 * to the target ledger (same file system, space for it checked by SQLite),
 * then opened through pl_store_open() so the migrations run on the copy.
 * *copy gets its path (caller unlinks and frees). */
static int migrated_copy(struct pl_store *st, const char *path, char **copy, struct pl_error *err)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	struct pl_store *c = NULL;
	char *name;
	int rc = 0;

	*copy = NULL;
	name = sqlite3_mprintf("%s.merge-%ld.tmp", st->path, (long)getpid());
	if (!name)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	unlink(name);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "VACUUM INTO ?1", -1, &s, NULL) != SQLITE_OK) {
		rc = pl_error_set(err, PL_EIO, "cannot copy ledger '%s': %s", path,
		                  db ? sqlite3_errmsg(db) : "out of memory");
	} else {
		sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
		if (sqlite3_step(s) != SQLITE_DONE)
			rc = pl_error_set(err, PL_EIO, "cannot copy ledger '%s' to '%s': %s", path, name,
			                  sqlite3_errmsg(db));
	}
	sqlite3_finalize(s);
	sqlite3_close(db);
	if (!rc && (rc = pl_store_open(name, &c, err)) == 0)
		pl_store_close(c);
	else if (rc != PL_EIO) {
		/* say whose copy it was */
		char why[sizeof(err->message)];
		if (err) {
			snprintf(why, sizeof(why), "%s", err->message);
			pl_error_set(err, rc, "cannot migrate a copy of ledger '%s' (schema version is "
			                      "older): %s", path, why);
		}
	}
	if (rc) {
		unlink(name);
		sqlite3_free(name);
		return rc;
	}
	*copy = strdup(name);
	sqlite3_free(name);
	if (!*copy)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	return 0;
}

/* Removes what a merge killed while it held a migrated copy left beside
 * this ledger: "<ledger>.merge-PID.tmp" (and its -wal, -shm, -journal)
 * whose PID is no running process. A copy of a merge still running
 * (kill(PID, 0) finds it, or is not allowed to signal it) is left alone.
 * Best effort: what cannot be read or removed stays. */
static void remove_dead_copies(const char *ledger)
{
	const char *slash = strrchr(ledger, '/');
	const char *base = slash ? slash + 1 : ledger;
	size_t blen = strlen(base);
	char *dir = slash ? strndup(ledger, (size_t)(slash - ledger) + (slash == ledger)) : strdup(".");
	DIR *d;
	struct dirent *e;

	if (!dir || !(d = opendir(dir))) {
		free(dir);
		return;
	}
	while ((e = readdir(d))) {
		const char *p = e->d_name, *t;
		char *end;
		long pid;

		if (strncmp(p, base, blen) != 0 || strncmp(p + blen, ".merge-", 7) != 0)
			continue;
		t = p + blen + 7;
		if (*t < '0' || *t > '9')
			continue;
		errno = 0;
		pid = strtol(t, &end, 10);
		if (errno || pid <= 0 || strncmp(end, ".tmp", 4) != 0 ||
		    (end[4] && strcmp(end + 4, "-wal") && strcmp(end + 4, "-shm") &&
		     strcmp(end + 4, "-journal")))
			continue;
		if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		unlinkat(dirfd(d), p, 0);
	}
	closedir(d);
	free(dir);
}

/* -------------------------------------------------------------- conflicts */

/* Appends to buf what differs between two key_text values ("FIELD 'a'
 * here, 'b' in 'OTHER'", with where = "in 'OTHER'"), field by field: the
 * lines of one that the other lacks, matched by name. */
static void key_diff(const char *here, const char *there, const char *where, char *buf, size_t n)
{
	const char *p;
	int count = 0;

	/* every name=value line of here that there does not hold */
	for (int pass = 0; pass < 2; pass++) {
		const char *a = pass ? there : here, *b = pass ? here : there;

		for (p = a; *p;) {
			const char *eol = strchr(p, '\n'), *eq, *q;
			size_t len = eol ? (size_t)(eol - p) : strlen(p), nlen;
			int found = 0, named = 0;
			const char *bval = NULL;
			size_t blen = 0;

			eq = memchr(p, '=', len);
			nlen = eq ? (size_t)(eq - p) : len;
			for (q = b; *q;) {
				const char *e2 = strchr(q, '\n');
				size_t l2 = e2 ? (size_t)(e2 - q) : strlen(q);
				if (l2 == len && memcmp(p, q, len) == 0)
					found = 1;
				if (l2 > nlen && memcmp(p, q, nlen) == 0 && q[nlen] == '=') {
					named = 1;
					bval = q + nlen + 1;
					blen = l2 - nlen - 1;
				}
				q = e2 ? e2 + 1 : q + l2;
			}
			if (!found && !(pass && named)) { /* a pair both hold is said once */
				size_t used = strlen(buf);
				const char *aval = eq ? eq + 1 : "";
				size_t alen = eq ? len - nlen - 1 : 0;

				if (pass == 0)
					snprintf(buf + used, n - used, "%s%.*s '%.*s' here, %s%.*s%s %s",
					         count ? "; " : "", (int)nlen, p, (int)alen, aval, named ? "'" : "",
					         named ? (int)blen : (int)strlen("(missing)"),
					         named ? bval : "(missing)", named ? "'" : "", where);
				else
					snprintf(buf + used, n - used, "%s%.*s (missing) here, '%.*s' %s",
					         count ? "; " : "", (int)nlen, p, (int)alen, aval, where);
				count++;
			}
			p = eol ? eol + 1 : p + len;
		}
	}
}

/* The lines of a key_text ("name=value", escaped as condkey.c escapes
 * them), one version of a run's conditions. */
struct kv {
	char **line; /* owned lines */
	size_t n, cap;
};

static void kv_release(struct kv *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->line[i]);
	free(k->line);
	memset(k, 0, sizeof(*k));
}

static int kv_append(struct kv *k, char *line)
{
	if (!line)
		return PL_ENOMEM;
	if (PL_ALLOC_GROW(k->line, k->n + 1, k->cap)) {
		free(line);
		return PL_ENOMEM;
	}
	k->line[k->n++] = line;
	return 0;
}

static int kv_put(struct kv *k, const char *field, const char *value);

/* Splits text into lines; started (may be NULL) is added as the line
 * "run_started_at=..." (a per-run condition, outside key_text). */
static int kv_parse(struct kv *k, const char *text, const char *started)
{
	for (const char *p = text; p && *p;) {
		size_t len = strcspn(p, "\n");
		char *l = malloc(len + 1);
		if (l) {
			memcpy(l, p, len);
			l[len] = '\0';
		}
		if (kv_append(k, l))
			return PL_ENOMEM;
		p += len + (p[len] == '\n');
	}
	return started ? kv_put(k, "run_started_at", started) : 0;
}

/* Length of the name of an escaped line: up to its first unescaped '='. */
static size_t name_len(const char *line)
{
	size_t i = 0;

	for (; line[i] && line[i] != '='; i++)
		if (line[i] == '\\' && line[i + 1])
			i++;
	return i;
}

/* text escaped as condkey.c's kb_escaped() does (eq: '=' too), heap. */
static char *escaped(const char *text, int eq)
{
	size_t n = 0;
	char *out, *o;

	for (const char *p = text; *p; p++)
		n += (*p == '\\' || *p == '\n' || (eq && *p == '=')) ? 2 : 1;
	if (!(o = out = malloc(n + 1)))
		return NULL;
	for (const char *p = text; *p; p++) {
		if (*p == '\\' || *p == '\n' || (eq && *p == '=')) {
			*o++ = '\\';
			*o++ = *p == '\n' ? 'n' : *p;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return out;
}

/* Sets field (plain text) to value (plain text; NULL removes it). */
static int kv_put(struct kv *k, const char *field, const char *value)
{
	char *name = escaped(field, 1), *val = value ? escaped(value, 0) : NULL, *line = NULL;
	size_t nlen;
	int rc = 0;

	if (!name || (value && !val)) {
		rc = PL_ENOMEM;
		goto out;
	}
	nlen = strlen(name);
	for (size_t i = 0; i < k->n; i++)
		if (name_len(k->line[i]) == nlen && memcmp(k->line[i], name, nlen) == 0) {
			free(k->line[i]);
			k->line[i] = k->line[--k->n];
			break;
		}
	if (val) {
		size_t vlen = strlen(val);
		if ((line = malloc(nlen + vlen + 2))) {
			memcpy(line, name, nlen);
			line[nlen] = '=';
			memcpy(line + nlen + 1, val, vlen + 1);
		}
		rc = kv_append(k, line);
	}
out:
	free(name);
	free(val);
	return rc;
}

/* 1 when every line of o is a line of v: o holds each value v holds or
 * lacks it (a field a newer perfledger derives that an older one did not). */
static int kv_covers(const struct kv *v, const struct kv *o)
{
	for (size_t i = 0; i < o->n; i++) {
		size_t j = 0;
		while (j < v->n && strcmp(v->line[j], o->line[i]) != 0)
			j++;
		if (j == v->n)
			return 0;
	}
	return 1;
}

/* *same = 1 when the other ledger's run (conditions key_text there,
 * run_started_at tthere) is this ledger's run mid at some revision of its
 * trail, today's included (it was merged or imported before an amend
 * here), where it may lack values this ledger holds (a ledger of an older
 * perfledger that did not derive them): the same run, already here. */
static int same_at_some_revision(struct pl_store *st, long long mid, const char *here,
                                 const char *there, const char *thire, const char *tthere,
                                 int *same, struct pl_error *err)
{
	struct kv v = {0}, o = {0};
	sqlite3_stmt *s = NULL;
	int rc = 0, step, last = -1;

	*same = 0;
	if (kv_parse(&v, here, thire) || kv_parse(&o, there, tthere)) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	if ((*same = kv_covers(&v, &o)))
		goto out;
	if (sqlite3_prepare_v2(st->db,
	                       "SELECT revision, field, old_value FROM main.revisions WHERE run_id = ?1 "
	                       "ORDER BY revision DESC",
	                       -1, &s, NULL) != SQLITE_OK) {
		rc = pl_store_fail(st, err, "comparing the ledgers");
		goto out;
	}
	sqlite3_bind_int64(s, 1, mid);
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		int revision = sqlite3_column_int(s, 0);
		const char *old = (const char *)sqlite3_column_text(s, 2);

		/* the run as it was before the last revision undone */
		if (last >= 0 && revision != last && (*same = kv_covers(&v, &o)))
			goto out;
		last = revision;
		if (kv_put(&v, (const char *)sqlite3_column_text(s, 1), old)) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			goto out;
		}
	}
	if (step != SQLITE_DONE)
		rc = pl_store_fail(st, err, "comparing the ledgers");
	else if (last >= 0)
		*same = kv_covers(&v, &o);
out:
	sqlite3_finalize(s);
	kv_release(&v);
	kv_release(&o);
	return rc;
}

/* *ext = 1 when the other ledger amended its copy after this ledger's
 * run was that copy: this ledger's revisions of run mid are the first of
 * the other's revisions of its run oid, every one equal, the other has
 * later ones, and the other's run with those later revisions undone has
 * this ledger's run's conditions (key_text here, run_started_at thire).
 * The run is then merged as the revision it is (pl_merge_apply_amended()
 * in merge_amended.c). */
static int other_extends(struct pl_store *st, long long mid, long long oid, const char *here,
                         const char *thire, const char *there, const char *tthere, int *ext,
                         struct pl_error *err)
{
	static const char sql[] =
		"SELECT revision, field, old_value, new_value, changed_at, reason, author, "
		"(SELECT count(*) FROM main.revisions x WHERE x.run_id = ?1 AND x.revision = v.revision "
		"AND x.field = v.field AND x.old_value IS v.old_value AND x.new_value IS v.new_value AND "
		"x.changed_at = v.changed_at AND x.reason = v.reason AND x.author = v.author) "
		"FROM o.revisions v WHERE v.run_id = ?2 ORDER BY revision DESC, field";
	struct kv v = {0}, o = {0};
	sqlite3_stmt *s = NULL;
	long long ours = 0, matched = 0;
	int rc = 0, step, later = 0;

	*ext = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM main.revisions WHERE run_id = ?1", -1, &s,
	                       NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "comparing the ledgers");
	sqlite3_bind_int64(s, 1, mid);
	if (sqlite3_step(s) == SQLITE_ROW)
		ours = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	s = NULL;
	if (kv_parse(&v, here, thire) || kv_parse(&o, there, tthere)) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK) {
		rc = pl_store_fail(st, err, "comparing the ledgers");
		goto out;
	}
	sqlite3_bind_int64(s, 1, mid);
	sqlite3_bind_int64(s, 2, oid);
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		if (sqlite3_column_int64(s, 7) > 0) { /* one of ours: the trail below is shared */
			matched++;
			continue;
		}
		if (matched > 0) /* one of theirs below one of ours: not a prefix */
			goto out;
		later = 1;
		if (kv_put(&o, (const char *)sqlite3_column_text(s, 1),
		           (const char *)sqlite3_column_text(s, 2))) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			goto out;
		}
	}
	if (step != SQLITE_DONE)
		rc = pl_store_fail(st, err, "comparing the ledgers");
	else if (later && matched == ours)
		*ext = kv_covers(&v, &o) && kv_covers(&o, &v);
out:
	sqlite3_finalize(s);
	kv_release(&v);
	kv_release(&o);
	return rc;
}

/* Run ids of further conflicts named in the message; the rest counted. */
#define CONFLICTS_NAMED 10

/* PL_EINVALID naming the first run stored in both ledgers with other
 * conditions (or another run_started_at), with the ids of the next ones
 * and how many there are in all; 0 when there is none. A run of the other
 * ledger that is this ledger's run at a revision of its trail, or that
 * only lacks values this ledger has, is no conflict
 * (same_at_some_revision()). */
static int find_conflict(struct pl_store *st, const char *other, struct pl_merge_stats *ms,
                         struct pl_error *err)
{
	static const char skip_sql[] = "INSERT OR IGNORE INTO temp.pl_skip VALUES (?1, ?2)";
	sqlite3_stmt *k = NULL, *u = NULL;
	static const char sql[] =
		"SELECT mr.id, r.id, mr.source_sha256, mr.record, mc.key_text, oc.key_text, "
		"mr.run_started_at, r.run_started_at "
		"FROM o.runs r JOIN o.conditions oc ON oc.id = r.condition_id "
		"JOIN main.runs mr ON mr.source_sha256 = r.source_sha256 AND mr.record = r.record "
		"JOIN main.conditions mc ON mc.id = mr.condition_id "
		"WHERE mc.key_text != oc.key_text OR mr.run_started_at IS NOT r.run_started_at "
		"ORDER BY mr.id";
	sqlite3_stmt *s = NULL;
	char diff[400] = "", where[300], first[1200] = "", more[200] = "";
	long long count = 0;
	int rc = 0, step;

	snprintf(where, sizeof(where), "in '%s'", other);
	if ((rc = pl_store_exec_sql(st, "CREATE TEMP TABLE pl_skip (sha256 TEXT, record INTEGER, "
	                                "PRIMARY KEY (sha256, record)); CREATE TEMP TABLE pl_upgrade "
	                                "(mid INTEGER PRIMARY KEY, oid INTEGER NOT NULL)",
	                            "comparing the ledgers", err)))
		return rc;
	if (sqlite3_prepare_v2(st->db, skip_sql, -1, &k, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db, "INSERT OR IGNORE INTO temp.pl_upgrade VALUES (?1, ?2)", -1, &u,
	                       NULL) != SQLITE_OK) {
		sqlite3_finalize(k);
		return pl_store_fail(st, err, "comparing the ledgers");
	}
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK) {
		sqlite3_finalize(k);
		sqlite3_finalize(u);
		return pl_store_fail(st, err, "comparing the ledgers");
	}
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		long long mid = sqlite3_column_int64(s, 0);
		const char *a = (const char *)sqlite3_column_text(s, 4);
		const char *b = (const char *)sqlite3_column_text(s, 5);
		const char *ta = (const char *)sqlite3_column_text(s, 6);
		const char *tb = (const char *)sqlite3_column_text(s, 7);
		int same = 0;

		if ((rc = same_at_some_revision(st, mid, a ? a : "", b ? b : "", ta, tb, &same, err)))
			break;
		if (same)
			continue;
		if ((rc = other_extends(st, mid, sqlite3_column_int64(s, 1), a ? a : "", ta, b ? b : "",
		                        tb, &same, err)))
			break;
		if (same) { /* amended there after it was this run: merged as its revisions */
			sqlite3_bind_int64(u, 1, mid);
			sqlite3_bind_int64(u, 2, sqlite3_column_int64(s, 1));
			if (sqlite3_step(u) != SQLITE_DONE) {
				rc = pl_store_fail(st, err, "comparing the ledgers");
				break;
			}
			sqlite3_reset(u);
			continue;
		}
		/* skipped, with its own trail; everything else is merged */
		sqlite3_bind_text(k, 1, (const char *)sqlite3_column_text(s, 2), -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(k, 2, sqlite3_column_int64(s, 3));
		if (sqlite3_step(k) != SQLITE_DONE) {
			rc = pl_store_fail(st, err, "comparing the ledgers");
			break;
		}
		sqlite3_reset(k);
		if (count++ > 0) {
			size_t used = strlen(more);
			if (count <= CONFLICTS_NAMED + 1)
				snprintf(more + used, sizeof(more) - used, "%s%lld", count > 2 ? ", " : "", mid);
			continue;
		}
		key_diff(a ? a : "", b ? b : "", where, diff, sizeof(diff));
		if ((ta || tb) && (!ta || !tb || strcmp(ta, tb) != 0)) {
			size_t used = strlen(diff);
			snprintf(diff + used, sizeof(diff) - used, "%srun_started_at '%s' here, '%s' in '%s'",
			         diff[0] ? "; " : "", ta ? ta : "(missing)", tb ? tb : "(missing)", other);
		}
		snprintf(first, sizeof(first),
		         "run %lld here and run %lld of '%s' were read from the same bytes "
		         "(sha256 %.12s..., record %lld) but have other conditions: %s",
		         mid, (long long)sqlite3_column_int64(s, 1), other,
		         (const char *)sqlite3_column_text(s, 2), (long long)sqlite3_column_int64(s, 3),
		         diff);
	}
	if (!rc && step != SQLITE_DONE)
		rc = pl_store_fail(st, err, "comparing the ledgers");
	sqlite3_finalize(s);
	sqlite3_finalize(k);
	sqlite3_finalize(u);
	if (rc || count == 0)
		return rc;
	ms->skipped = count;
	if (count == 1)
		snprintf(ms->skipped_first, sizeof(ms->skipped_first), "%s", first);
	else
		snprintf(ms->skipped_first, sizeof(ms->skipped_first), "%s; so do %lld more runs here "
		         "(%s%s)", first, count - 1, more, count - 1 > CONFLICTS_NAMED ? ", ..." : "");
	return 0;
}

/* ------------------------------------------------------------- the merge */

/* Runs one statement of the merge; *changes (may be NULL) gets the rows
 * it wrote. */
static int merge_step(struct pl_store *st, const char *sql, const char *doing, long long *changes,
                      struct pl_error *err)
{
	int rc = pl_store_exec_sql(st, sql, doing, err);

	if (!rc && changes)
		*changes = sqlite3_changes64(st->db);
	return rc;
}

/* Builds the statement that copies the other ledger's runs (every
 * provenance column, its record identity and build identity, every metric;
 * the conditions id mapped). */
static char *runs_sql(struct pl_store *st)
{
	sqlite3_str *s = sqlite3_str_new(st->db);

	sqlite3_str_appendall(s, "INSERT INTO main.runs (condition_id, " PROVENANCE_COLS);
	for (int f = 0; f < PL_BUILD_COUNT; f++)
		pl_store_append_ident(s, ", ", pl_store_build_cols[f]);
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		pl_store_append_ident(s, ", ", pl_metric_info[m].name);
	sqlite3_str_appendall(s, ") SELECT m.mid, r.source_path, r.source_sha256, r.record, r.adapter, "
	                         "r.format_version, r.imported_at, r.run_started_at, r.checklist_missing, "
	                         "r.record_id");
	for (int f = 0; f < PL_BUILD_COUNT; f++)
		pl_store_append_ident(s, ", r.", pl_store_build_cols[f]);
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		pl_store_append_ident(s, ", r.", pl_metric_info[m].name);
	/* a record stored here already from other bytes is not stored again, as
	 * import does not (it would be pooled twice) */
	sqlite3_str_appendall(s, " FROM o.runs r JOIN temp.pl_cmap m ON m.oid = r.condition_id "
	                         "WHERE r.record_id IS NULL OR NOT EXISTS (SELECT 1 FROM main.runs x "
	                         "WHERE x.record_id = r.record_id) "
	                         "ORDER BY r.id ON CONFLICT (source_sha256, record) DO NOTHING");
	return sqlite3_str_finish(s);
}

/* Builds the statement that copies the conditions rows this ledger lacks,
 * of the runs it lacks (a run here already keeps its own conditions). */
static char *conditions_sql(struct pl_store *st)
{
	sqlite3_str *s = sqlite3_str_new(st->db);

	sqlite3_str_appendall(s, "INSERT INTO main.conditions (key_hash, key_text");
	pl_store_append_condition_columns(s, "");
	sqlite3_str_appendall(s, ") SELECT oc.key_hash, oc.key_text");
	pl_store_append_condition_columns(s, "oc.");
	sqlite3_str_appendall(s, " FROM o.conditions oc WHERE EXISTS (SELECT 1 FROM o.runs r WHERE "
	                         "r.condition_id = oc.id AND (r.id IN (SELECT oid FROM temp.pl_upgrade) OR NOT EXISTS "
	                         "(SELECT 1 FROM main.runs mr WHERE mr.source_sha256 = r.source_sha256 "
	                         "AND mr.record = r.record))) "
	                         "AND NOT EXISTS (SELECT 1 FROM "
	                         "main.conditions mc WHERE mc.key_hash = oc.key_hash AND mc.key_text "
	                         "= oc.key_text) ORDER BY oc.id");
	return sqlite3_str_finish(s);
}

/* The merge proper, inside the transaction, with the other ledger
 * attached as "o" (file: its file or migrated copy; other: its name). */
static int merge_attached(struct pl_store *st, const char *file, const char *other,
                          struct pl_merge_stats *ms, struct pl_error *err)
{
	long long upgraded = 0; /* revisions of runs amended there (merge_amended.c) */
	char *sql;
	int rc;

	if ((rc = find_conflict(st, other, ms, err)) || (rc = pl_merge_find_amended(st, err)))
		return rc;
	if (!(sql = conditions_sql(st)))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = merge_step(st, sql, "merging conditions", &ms->conditions, err);
	sqlite3_free(sql);
	if (rc)
		return rc;
	if ((rc = merge_step(st,
	                     "CREATE TEMP TABLE pl_cmap (oid INTEGER PRIMARY KEY, mid INTEGER NOT NULL);"
	                     "INSERT INTO temp.pl_cmap SELECT oc.id, mc.id FROM o.conditions oc JOIN "
	                     "main.conditions mc ON mc.key_hash = oc.key_hash AND mc.key_text = "
	                     "oc.key_text",
	                     "merging conditions", NULL, err)) ||
	    (rc = merge_step(st,
	                     "INSERT INTO main.condition_extras (condition_id, name, value) SELECT "
	                     "m.mid, e.name, e.value FROM o.condition_extras e JOIN temp.pl_cmap m ON "
	                     "m.oid = e.condition_id WHERE true ON CONFLICT DO NOTHING",
	                     "merging extra conditions", NULL, err)))
		return rc;
	/* the runs this merge stores are those above the largest id now: only
	 * they take the other ledger's revisions (a run here keeps its own
	 * trail: the other's revisions of it may describe changes, to build
	 * identity or metrics, that its values here do not have) */
	if ((rc = merge_step(st,
	                     "CREATE TEMP TABLE pl_before AS SELECT coalesce(max(id), 0) AS id FROM "
	                     "main.runs",
	                     "merging runs", NULL, err)))
		return rc;
	if (!(sql = runs_sql(st)))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = merge_step(st, sql, "merging runs", &ms->runs, err);
	sqlite3_free(sql);
	if (rc || (rc = pl_merge_apply_amended(st, file, other, ms, &upgraded, err)))
		return rc;
	if ((rc = merge_step(st,
	                     "INSERT INTO main.accepted_steps (run_id, metric, reason, accepted_at, "
	                     "accepted_by, revoked_at, revoked_by) "
	                     "SELECT mr.id, a.metric, a.reason, a.accepted_at, a.accepted_by, "
	                     "a.revoked_at, a.revoked_by FROM o.accepted_steps a "
	                     "JOIN o.runs r ON r.id = a.run_id JOIN main.runs mr ON mr.source_sha256 = "
	                     "r.source_sha256 AND mr.record = r.record WHERE NOT EXISTS (SELECT 1 FROM "
	                     "temp.pl_skip k WHERE k.sha256 = r.source_sha256 AND k.record = r.record) "
	                     "ORDER BY a.id "
	                     "ON CONFLICT (run_id, metric) DO NOTHING",
	                     "merging accepted steps", &ms->steps, err)) ||
	    (rc = merge_step(st,
	                     "INSERT INTO main.revisions (run_id, revision, field, old_value, "
	                     "new_value, changed_at, reason, author) SELECT mr.id, v.revision, v.field, "
	                     "v.old_value, v.new_value, v.changed_at, v.reason, v.author FROM "
	                     "o.revisions v JOIN o.runs r ON r.id = v.run_id JOIN main.runs mr ON "
	                     "mr.source_sha256 = r.source_sha256 AND mr.record = r.record WHERE mr.id > "
	                     "(SELECT id FROM temp.pl_before) "
	                     "ORDER BY v.run_id, v.revision, v.field ON CONFLICT DO NOTHING",
	                     "merging revisions", &ms->revisions, err)) ||
	    (rc = merge_step(st,
	                     "INSERT INTO main.run_measurements (run_id, name, value, json) SELECT "
	                     "mr.id, m.name, m.value, m.json FROM o.run_measurements m JOIN o.runs r "
	                     "ON r.id = m.run_id JOIN main.runs mr ON mr.source_sha256 = "
	                     "r.source_sha256 AND mr.record = r.record WHERE mr.id > "
	                     "(SELECT id FROM temp.pl_before) ORDER BY m.run_id, m.name "
	                     "ON CONFLICT DO NOTHING",
	                     "merging unplaced measurements", NULL, err)) ||
	    (rc = merge_step(st,
	                     "INSERT INTO main.run_requests (run_id, requests, failed, gaps, blob) "
	                     "SELECT mr.id, q.requests, q.failed, q.gaps, q.blob FROM o.run_requests q "
	                     "JOIN o.runs r ON r.id = q.run_id JOIN main.runs mr ON mr.source_sha256 = "
	                     "r.source_sha256 AND mr.record = r.record WHERE mr.id > (SELECT id FROM "
	                     "temp.pl_before) ORDER BY q.run_id ON CONFLICT DO NOTHING",
	                     "merging requests", NULL, err)) ||
	    (rc = merge_step(st,
	                     "INSERT INTO main.retractions (run_id, retracted_at, reason, author, "
	                     "restored_at, restore_reason, restored_by) SELECT mr.id, t.retracted_at, "
	                     "t.reason, t.author, t.restored_at, t.restore_reason, t.restored_by FROM "
	                     "o.retractions t JOIN o.runs r ON r.id = t.run_id JOIN main.runs mr ON "
	                     "mr.source_sha256 = r.source_sha256 AND mr.record = r.record WHERE NOT "
	                     "EXISTS (SELECT 1 FROM temp.pl_skip k WHERE k.sha256 = r.source_sha256 "
	                     "AND k.record = r.record) AND NOT "
	                     "EXISTS (SELECT 1 FROM main.retractions x WHERE x.run_id = mr.id AND "
	                     "x.retracted_at = t.retracted_at AND x.reason = t.reason AND x.author = "
	                     "t.author) ORDER BY t.id ON CONFLICT DO NOTHING",
	                     "merging retractions", &ms->retractions, err)) ||
	    /* a file's chunks come whole or not at all: a file kept in another
	     * layout here (read whole as one chunk by an older perfledger, in
	     * 1 MiB pieces now; their first chunks differ in size) keeps its own,
	     * never a mix of the two */
	    (rc = merge_step(st,
	                     "INSERT INTO main.source_chunks (sha256, seq, size, compression, bytes) "
	                     "SELECT c.sha256, c.seq, c.size, c.compression, c.bytes FROM "
	                     "o.source_chunks c WHERE EXISTS (SELECT 1 FROM main.runs x WHERE "
	                     "x.source_sha256 = c.sha256) AND NOT EXISTS (SELECT 1 FROM "
	                     "main.source_chunks m JOIN o.source_chunks c0 ON c0.sha256 = m.sha256 "
	                     "AND c0.seq = 0 WHERE m.sha256 = c.sha256 AND m.seq = 0 AND "
	                     "m.size != c0.size) ON CONFLICT (sha256, seq) DO NOTHING",
	                     "merging source bytes", &ms->source_chunks, err)))
		return rc;
	ms->revisions += upgraded;
	if (ms->revisions + ms->retractions > 0 &&
	    (rc = merge_step(st, "UPDATE main.ledger_generation SET generation = generation + 1",
	                     "merging retractions", NULL, err)))
		return rc;
	return merge_step(st, "DROP TABLE temp.pl_cmap; DROP TABLE temp.pl_before; DROP TABLE "
	                      "temp.pl_skip; DROP TABLE temp.pl_upgrade",
	                  "merging conditions", NULL, err);
}

char *pl_store_file_uri(const char *path, const char *query)
{
	sqlite3_str *u = sqlite3_str_new(NULL);

	/* "file://" and an empty authority before an absolute path: the path
	 * itself may then begin with "//" ("file://x/..." would name a host) */
	sqlite3_str_appendall(u, path[0] == '/' ? "file://" : "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#' || *p <= 0x20 || *p >= 0x7f)
			sqlite3_str_appendf(u, "%%%02X", *p);
		else
			sqlite3_str_appendchar(u, 1, (char)*p);
	}
	if (query && *query) {
		sqlite3_str_appendchar(u, 1, '?');
		sqlite3_str_appendall(u, query);
	}
	return sqlite3_str_finish(u);
}

/* 1 when a and b are the same file. */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int pl_store_merge(struct pl_store *st, const char *other, struct pl_merge_stats *ms,
                   struct pl_error *err)
{
	sqlite3_stmt *s = NULL;
	char *copy = NULL, *uri = NULL;
	int version = 0, rc, attached = 0, old_limit = -1;

	memset(ms, 0, sizeof(*ms));
	if (st->readonly || st->depth > 0)
		return pl_error_set(err, PL_EDB, "database error: merge needs a writable store outside a "
		                                 "transaction");
	if (same_file(st->path, other))
		return pl_error_set(err, PL_EUSAGE, "'%s' is this ledger itself", other);
	if ((rc = other_version(st->db, other, &version, err)))
		return rc;
	remove_dead_copies(st->path);
	if (version < pl_store_schema_version()) {
		if ((rc = migrated_copy(st, other, &copy, err)))
			return rc;
		ms->migrated_from = version;
	}
	/* a URI, so that the file is opened read-only */
	if (!(uri = pl_store_file_uri(copy ? copy : other, "mode=ro"))) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	if (sqlite3_prepare_v2(st->db, "ATTACH DATABASE ?1 AS o", -1, &s, NULL) != SQLITE_OK) {
		rc = pl_store_fail(st, err, "attaching the other ledger");
		goto out;
	}
	sqlite3_bind_text(s, 1, uri, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE) {
		rc = pl_error_set(err, PL_EIO, "cannot open ledger '%s': %s", other,
		                  sqlite3_errmsg(st->db));
		goto out;
	}
	attached = 1;
	/* no value read from it larger than a chunk may be (SQLITE_TOOBIG) */
	old_limit = sqlite3_limit(st->db, SQLITE_LIMIT_LENGTH, (int)PL_SOURCE_CHUNK_MAX + 1024);
	if ((rc = pl_merge_check_source(st, other, err)) ||
	    (rc = pl_merge_check_runs(copy ? copy : other, other, err)))
		goto out;
	if ((rc = pl_store_exec_sql(st, "PRAGMA temp_store = FILE", "merging", err)) ||
	    (rc = pl_store_begin(st, err)))
		goto out;
	rc = merge_attached(st, copy ? copy : other, other, ms, err);
	if (rc)
		pl_store_rollback(st, NULL);
	else
		rc = pl_store_commit(st, err);
out:
	sqlite3_finalize(s);
	if (old_limit >= 0)
		sqlite3_limit(st->db, SQLITE_LIMIT_LENGTH, old_limit);
	if (attached)
		pl_store_exec_sql(st, "DETACH DATABASE o", "detaching the other ledger", NULL);
	pl_store_exec_sql(st, "PRAGMA temp_store = MEMORY", "merging", NULL);
	pl_store_memo_clear(st);
	sqlite3_free(uri);
	if (copy) {
		char side[4096];
		unlink(copy);
		snprintf(side, sizeof(side), "%s-wal", copy);
		unlink(side);
		snprintf(side, sizeof(side), "%s-shm", copy);
		unlink(side);
		free(copy);
	}
	return rc;
}

/* Binds text or NULL. */
static void bind_opt(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, i);
}

/* ---------------------------------------------- reimport: metric changes */

int pl_store_revise_metrics(struct pl_store *st, long long run_id, int revision, const int *metric,
                            const double *value, size_t n, long long when, const char *reason,
                            const char *author, struct pl_error *err)
{
	sqlite3_stmt *old = NULL, *rev = NULL, *upd = NULL;
	char at[32];
	int rc = 0;

	if (pl_store_nest_dead(st) || st->depth == 0 || sqlite3_get_autocommit(st->db))
		return pl_error_set(err, PL_EDB, "database error: no open transaction (while revising metrics)");
	if (!reason || !*reason || !author || !*author || revision < 2)
		return pl_error_set(err, PL_EUSAGE, "a revision needs a number >= 2, a reason and an author");
	if ((rc = pl_store_time_iso(when, at, sizeof(at), err)))
		return rc;
	if (sqlite3_prepare_v2(st->db,
	                       "INSERT INTO revisions (run_id, revision, field, old_value, new_value, "
	                       "changed_at, reason, author) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	                       -1, &rev, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "recording a revision");
	for (size_t i = 0; i < n && !rc; i++) {
		sqlite3_str *q = sqlite3_str_new(st->db);
		char was[40] = "", now[40] = "";
		int had = 0;

		pl_store_append_ident(q, "SELECT ", pl_metric_info[metric[i]].name);
		sqlite3_str_appendall(q, " FROM runs WHERE id = ?1");
		if (pl_store_prepare_str(st->db, q, &old) != SQLITE_OK) {
			rc = pl_store_fail(st, err, "revising metrics");
			break;
		}
		sqlite3_bind_int64(old, 1, run_id);
		if (sqlite3_step(old) != SQLITE_ROW) {
			rc = pl_error_set(err, PL_EEMPTY, "no run with id %lld", run_id);
		} else if (sqlite3_column_type(old, 0) != SQLITE_NULL) {
			pl_fmt_num(was, sizeof(was), sqlite3_column_double(old, 0));
			had = 1;
		}
		sqlite3_finalize(old);
		old = NULL;
		if (rc)
			break;
		if (!isnan(value[i]))
			pl_fmt_num(now, sizeof(now), value[i]);
		q = sqlite3_str_new(st->db);
		pl_store_append_ident(q, "UPDATE runs SET ", pl_metric_info[metric[i]].name);
		sqlite3_str_appendall(q, " = ?1 WHERE id = ?2");
		if (pl_store_prepare_str(st->db, q, &upd) != SQLITE_OK) {
			rc = pl_store_fail(st, err, "revising metrics");
			break;
		}
		if (isnan(value[i]))
			sqlite3_bind_null(upd, 1); /* removed */
		else
			sqlite3_bind_double(upd, 1, value[i]);
		sqlite3_bind_int64(upd, 2, run_id);
		if (sqlite3_step(upd) != SQLITE_DONE)
			rc = pl_store_fail(st, err, "revising metrics");
		sqlite3_finalize(upd);
		upd = NULL;
		if (rc)
			break;
		sqlite3_bind_int64(rev, 1, run_id);
		sqlite3_bind_int(rev, 2, revision);
		sqlite3_bind_text(rev, 3, pl_metric_info[metric[i]].name, -1, SQLITE_STATIC);
		bind_opt(rev, 4, had ? was : NULL);
		if (isnan(value[i]))
			sqlite3_bind_null(rev, 5);
		else
			sqlite3_bind_text(rev, 5, now, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(rev, 6, at, -1, SQLITE_STATIC);
		sqlite3_bind_text(rev, 7, reason, -1, SQLITE_STATIC);
		sqlite3_bind_text(rev, 8, author, -1, SQLITE_STATIC);
		if (sqlite3_step(rev) != SQLITE_DONE)
			rc = pl_store_fail(st, err, "recording a revision");
		sqlite3_reset(rev);
	}
	sqlite3_finalize(rev);
	if (!rc && n > 0)
		rc = pl_store_exec_sql(st, "UPDATE ledger_generation SET generation = generation + 1",
		                       "revising metrics", err);
	return rc;
}

/* --------------------------- a ledger record of a run stored already */

/* 1 when run carries a revision numbered beyond the stored trail of
 * stored run id (*beyond; pl_store_carry_extend() then decides). */
static int carries_more(struct pl_store *st, const struct pl_run *run, long long id, int *beyond,
                        struct pl_error *err)
{
	sqlite3_stmt *s = NULL;
	int max = 1;

	*beyond = 0;
	if (!run->carried || run->carried->revisions.n == 0)
		return 0;
	if (sqlite3_prepare_v2(st->db, "SELECT coalesce(max(revision), 1) FROM revisions WHERE "
	                               "run_id = ?1", -1, &s, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "looking up a stored run");
	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) == SQLITE_ROW)
		max = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	*beyond = run->carried->revisions.v[run->carried->revisions.n - 1].revision > max;
	return 0;
}

static int same_run(struct pl_store *st, const struct pl_run *run, const struct pl_cond_key *key,
                    int strict, struct pl_error *err);

int pl_store_check_same_run(struct pl_store *st, const struct pl_run *run,
                            const struct pl_cond_key *key, struct pl_error *err)
{
	return same_run(st, run, key, 0, err);
}

int pl_store_check_same_run_strict(struct pl_store *st, const struct pl_run *run,
                                   const struct pl_cond_key *key, struct pl_error *err)
{
	return same_run(st, run, key, 1, err);
}

static int same_run(struct pl_store *st, const struct pl_run *run, const struct pl_cond_key *key,
                    int strict, struct pl_error *err)
{
	static const char sql[] =
		"SELECT r.id, c.key_text, r.run_started_at FROM runs r JOIN conditions c ON "
		"c.id = r.condition_id WHERE r.source_sha256 = ?1 AND r.record = ?2";
	const char *started = run->cond[PL_C_RUN_STARTED_AT].set ? run->cond[PL_C_RUN_STARTED_AT].text
	                                                         : NULL;
	sqlite3_stmt *s = NULL;
	char diff[400] = "";
	int rc = 0;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "looking up a stored run");
	sqlite3_bind_text(s, 1, run->sha256, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, run->record);
	if (sqlite3_step(s) == SQLITE_ROW) {
		const char *here = (const char *)sqlite3_column_text(s, 1);
		const char *t = (const char *)sqlite3_column_text(s, 2);
		int beyond = 0;

		if (!here || strcmp(here, key->text) != 0)
			key_diff(here ? here : "", key->text, "in the file", diff, sizeof(diff));
		if ((t || started) && (!t || !started || strcmp(t, started) != 0)) {
			size_t used = strlen(diff);
			snprintf(diff + used, sizeof(diff) - used, "%srun_started_at '%s' here, '%s' in "
			         "the file", diff[0] ? "; " : "", t ? t : "(missing)",
			         started ? started : "(missing)");
		}
		if (diff[0] && !strict &&
		    (rc = carries_more(st, run, sqlite3_column_int64(s, 0), &beyond, err)) == 0 && beyond)
			diff[0] = '\0'; /* the file amended it further: pl_store_carry_extend() */
		if (!rc && diff[0] && !strict && !beyond) {
			/* an older export of the run, amended here since: its
			 * conditions are those of a revision of the trail here
			 * (pl_store_carry_onto_stored() checks its trail is a prefix) */
			int older = 0;
			if ((rc = same_at_some_revision(st, sqlite3_column_int64(s, 0), here ? here : "",
			                                key->text, t, started, &older, err)) == 0 &&
			    older)
				diff[0] = '\0';
		}
		if (!rc && diff[0])
			rc = pl_error_set(err, PL_EINVALID,
			                  "the run of sha256 %.12s..., record %ld is stored (run %lld) with "
			                  "other conditions: %s; make them agree with 'perfledger amend' "
			                  "first; nothing was stored",
			                  run->sha256, run->record, (long long)sqlite3_column_int64(s, 0), diff);
	}
	sqlite3_finalize(s);
	return rc;
}
