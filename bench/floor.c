/*
 * floor.c — the floors an import is measured against (issue 17), as one
 * small program that bench/bench.py runs in the same run as perfledger:
 *
 *   pl_bench_floor read DIR...
 *       opens, reads whole and closes every regular file under each DIR
 *       (recursively, one thread): what reading the inputs costs at least.
 *   pl_bench_floor insert SRC.db DST.db
 *       loads every row of SRC.db (a database perfledger wrote) into memory,
 *       then creates DST.db with SRC's schema and inserts the same rows the
 *       way perfledger does, and nothing else: the same pragmas (WAL,
 *       synchronous NORMAL, 8 MiB page cache, checkpoints every 10000
 *       pages, foreign keys on), BEGIN IMMEDIATE and a commit every 4096
 *       runs, a conditions row (and its extra conditions) inserted before
 *       the first run that uses it, the kept source bytes (source_chunks
 *       rows, compressed as perfledger stored them: each file's chunk after
 *       its run), and the four selection indexes built
 *       once at the end (perfledger defers them in an empty database,
 *       migration 006). No parsing, no hashing, no validation, no lookups:
 *       what storing these rows in this schema costs at least.
 *
 * Each prints one line: the seconds it took (wall clock, CLOCK_MONOTONIC),
 * loading excluded. Exit status 0, or 2 with a message on stderr. A bench
 * tool: it includes sqlite3.h itself and is no part of the perfledger
 * layers (scripts/check_layers.sh reads src/ only).
 */
#include <dirent.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define COMMIT_RUNS 4096 /* as PL_IMPORT_COMMIT_RUNS */

/* The indexes perfledger builds at the end of an import into an empty
 * database (SELECTION_INDEXES in src/store/db.c). */
static const char *const deferred[] = {"conditions_key", "conditions_engine_version",
                                       "conditions_hardware", "runs_condition_id"};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "pl_bench_floor: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	exit(2);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory", NULL);
	return p;
}

/* ---------------------------------------------------------------- read */

static char *rbuf;
static size_t rcap;
static long long nread_files, nread_bytes;

static void read_dir(int dfd)
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;

	if (!d)
		die("cannot open a directory", NULL);
	while ((e = readdir(d)) != NULL) {
		struct stat sb;
		int fd;

		if (e->d_name[0] == '.')
			continue;
		fd = openat(dirfd(d), e->d_name, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &sb) != 0)
			die("cannot open", e->d_name);
		if (S_ISDIR(sb.st_mode)) {
			read_dir(fd); /* closes fd */
			continue;
		}
		if ((size_t)sb.st_size + 1 > rcap) {
			free(rbuf);
			rcap = (size_t)sb.st_size + 1;
			rbuf = xmalloc(rcap);
		}
		for (size_t got = 0;;) {
			ssize_t r = read(fd, rbuf + got, rcap - got);
			if (r < 0)
				die("cannot read", e->d_name);
			if (r == 0)
				break;
			got += (size_t)r;
			nread_bytes += r;
		}
		close(fd);
		nread_files++;
	}
	closedir(d);
}

static int cmd_read(int argc, char **argv)
{
	double t0 = now();

	for (int i = 0; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			die("cannot open directory", argv[i]);
		read_dir(fd);
	}
	printf("%.4f\n", now() - t0);
	fprintf(stderr, "read %lld files, %lld bytes\n", nread_files, nread_bytes);
	free(rbuf);
	return 0;
}

/* -------------------------------------------------------------- insert */

/* One non-NULL value of a prebuilt row. */
struct cell {
	int col;         /* parameter index, 1-based */
	int type;        /* SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB */
	int len;         /* bytes of a text or blob */
	union {
		long long i;
		double d;
		char *s; /* owned by the arena */
	} v;
};

/* The rows of one table, as parameter values, in rowid order. */
struct rows {
	char *insert_sql;   /* INSERT INTO t (cols) VALUES (?1, ...) */
	int ncols;          /* parameters */
	size_t n, cap;      /* rows */
	size_t *first;      /* per row: its first cell in cells; first[n] = end */
	long long *key;     /* per row: the value of key_col (a rowid or a foreign key) */
	struct cell *cells; /* all rows' cells */
	size_t ncells, capcells;
};

static char *copy_bytes(const void *p, int len)
{
	char *s = xmalloc((size_t)len + 1);

	memcpy(s, p, (size_t)len);
	s[len] = 0;
	return s;
}

/* Loads every row of table (its stored, not generated, columns) ordered by
 * order_by; key_col names the column whose value goes to r->key. */
static void load(sqlite3 *db, const char *table, const char *order_by, const char *key_col,
                 struct rows *r)
{
	sqlite3_str *cols = sqlite3_str_new(db), *params = sqlite3_str_new(db);
	sqlite3_stmt *s;
	char *sql, *colsql;
	int key_at = -1;

	memset(r, 0, sizeof(*r));
	sql = sqlite3_mprintf("PRAGMA table_xinfo(\"%w\")", table);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		die("reading the columns of", table);
	sqlite3_free(sql);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 1);
		if (sqlite3_column_int(s, 6) != 0)
			continue; /* generated: not inserted */
		if (strcmp(name, key_col) == 0)
			key_at = r->ncols;
		sqlite3_str_appendf(cols, "%s\"%w\"", r->ncols ? ", " : "", name);
		sqlite3_str_appendf(params, "%s?%d", r->ncols ? ", " : "", r->ncols + 1);
		r->ncols++;
	}
	sqlite3_finalize(s);
	if (key_at < 0)
		die("no key column in", table);
	colsql = sqlite3_str_finish(cols);
	sql = sqlite3_str_finish(params);
	r->insert_sql = sqlite3_mprintf("INSERT INTO \"%w\" (%s) VALUES (%s)", table, colsql, sql);
	sqlite3_free(sql);
	sql = sqlite3_mprintf("SELECT %s FROM \"%w\" ORDER BY %s", colsql, table, order_by);
	sqlite3_free(colsql);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		die("reading", table);
	sqlite3_free(sql);
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (r->n + 1 >= r->cap) {
			r->cap = r->cap ? r->cap * 2 : 1024;
			r->first = realloc(r->first, (r->cap + 1) * sizeof(*r->first));
			r->key = realloc(r->key, r->cap * sizeof(*r->key));
			if (!r->first || !r->key)
				die("out of memory", NULL);
		}
		r->first[r->n] = r->ncells;
		r->key[r->n] = sqlite3_column_int64(s, key_at);
		for (int c = 0; c < r->ncols; c++) {
			struct cell *x;
			int t = sqlite3_column_type(s, c);
			if (t == SQLITE_NULL)
				continue;
			if (r->ncells == r->capcells) {
				r->capcells = r->capcells ? r->capcells * 2 : 4096;
				if (!(r->cells = realloc(r->cells, r->capcells * sizeof(*r->cells))))
					die("out of memory", NULL);
			}
			x = &r->cells[r->ncells++];
			x->col = c + 1;
			x->type = t;
			if (t == SQLITE_INTEGER) {
				x->v.i = sqlite3_column_int64(s, c);
			} else if (t == SQLITE_FLOAT) {
				x->v.d = sqlite3_column_double(s, c);
			} else {
				const void *p = t == SQLITE_TEXT ? (const void *)sqlite3_column_text(s, c)
				                                 : sqlite3_column_blob(s, c);
				x->len = sqlite3_column_bytes(s, c);
				x->v.s = copy_bytes(p, x->len);
			}
		}
		r->n++;
	}
	if (r->first)
		r->first[r->n] = r->ncells;
	sqlite3_finalize(s);
}

static void free_rows(struct rows *r)
{
	for (size_t i = 0; i < r->ncells; i++)
		if (r->cells[i].type == SQLITE_TEXT || r->cells[i].type == SQLITE_BLOB)
			free(r->cells[i].v.s);
	free(r->cells);
	free(r->first);
	free(r->key);
	sqlite3_free(r->insert_sql);
}

static void exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		die(sql, msg);
}

/* Inserts row i of r with stmt; *prev is the previous row's index or -1:
 * only the parameters that held a value then and hold NULL now are
 * rebound to NULL (as perfledger binds a NULL once). */
static void insert_row(sqlite3 *db, sqlite3_stmt *stmt, const struct rows *r, size_t i,
                       long *prev)
{
	if (*prev >= 0)
		for (size_t k = r->first[*prev]; k < r->first[*prev + 1]; k++)
			sqlite3_bind_null(stmt, r->cells[k].col);
	for (size_t k = r->first[i]; k < r->first[i + 1]; k++) {
		const struct cell *x = &r->cells[k];
		if (x->type == SQLITE_INTEGER)
			sqlite3_bind_int64(stmt, x->col, x->v.i);
		else if (x->type == SQLITE_FLOAT)
			sqlite3_bind_double(stmt, x->col, x->v.d);
		else if (x->type == SQLITE_TEXT)
			sqlite3_bind_text(stmt, x->col, x->v.s, x->len, SQLITE_STATIC);
		else
			sqlite3_bind_blob(stmt, x->col, x->v.s, x->len, SQLITE_STATIC);
	}
	if (sqlite3_step(stmt) != SQLITE_DONE)
		die("inserting", sqlite3_errmsg(db));
	sqlite3_reset(stmt);
	*prev = (long)i;
}

static int is_deferred(const char *name)
{
	for (size_t i = 0; i < sizeof(deferred) / sizeof(deferred[0]); i++)
		if (strcmp(name, deferred[i]) == 0)
			return 1;
	return 0;
}

static int cmd_insert(const char *src, const char *dst)
{
	sqlite3 *in, *out;
	sqlite3_stmt *s, *ins_cond, *ins_extra, *ins_run, *ins_src = NULL;
	struct rows cond, extra, runs, chunks;
	int have_src = 0;
	sqlite3_str *schema, *indexes;
	char *schema_sql, *index_sql;
	unsigned char *done;
	long long maxcond = 0;
	long pc = -1, pe = -1, pr = -1, ps = -1;
	size_t e = 0, tx = 0;
	int version;
	double t0;

	if (sqlite3_open_v2(src, &in, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		die("cannot open", src);
	load(in, "conditions", "id", "id", &cond);
	load(in, "condition_extras", "condition_id, name", "condition_id", &extra);
	load(in, "runs", "id", "condition_id", &runs);
	/* the kept source bytes (migration 010): rows an import stores too */
	if (sqlite3_prepare_v2(in, "SELECT 1 FROM sqlite_master WHERE name = 'source_chunks'", -1, &s,
	                       NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW)
		have_src = 1;
	sqlite3_finalize(s);
	memset(&chunks, 0, sizeof(chunks));
	if (have_src)
		load(in, "source_chunks", "rowid", "seq", &chunks);
	/* the schema as SRC has it, the deferred indexes apart */
	schema = sqlite3_str_new(in);
	indexes = sqlite3_str_new(in);
	if (sqlite3_prepare_v2(in, "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL "
	                           "AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
	                       -1, &s, NULL) != SQLITE_OK)
		die("reading the schema of", src);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 1);
		sqlite3_str_appendf(is_deferred(name) ? indexes : schema, "%s;\n",
		                    (const char *)sqlite3_column_text(s, 2));
	}
	sqlite3_finalize(s);
	if (sqlite3_prepare_v2(in, "PRAGMA user_version", -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_ROW)
		die("reading the schema version of", src);
	version = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(in);
	schema_sql = sqlite3_str_finish(schema);
	index_sql = sqlite3_str_finish(indexes);

	for (size_t i = 0; i < cond.n; i++)
		if (cond.key[i] > maxcond)
			maxcond = cond.key[i];
	done = calloc((size_t)maxcond + 1, 1);
	if (!done)
		die("out of memory", NULL);
	{
		static const char *const suffix[] = {"", "-wal", "-shm"};
		for (int i = 0; i < 3; i++) {
			char *p = sqlite3_mprintf("%s%s", dst, suffix[i]);
			unlink(p);
			sqlite3_free(p);
		}
	}
	if (sqlite3_open_v2(dst, &out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
	                    NULL) != SQLITE_OK) /* as perfledger opens it */
		die("cannot create", dst);
	{
		char *v = sqlite3_mprintf("BEGIN; %s PRAGMA user_version = %d; COMMIT;", schema_sql,
		                          version);
		exec(out, v);
		sqlite3_free(v);
	}

	/* timed from here: the import's own work on an empty database */
	t0 = now();
	exec(out, "PRAGMA journal_mode = WAL");
	exec(out, "PRAGMA foreign_keys = ON; PRAGMA cache_size = -8192; "
	          "PRAGMA temp_store = MEMORY; PRAGMA synchronous = NORMAL");
	sqlite3_wal_autocheckpoint(out, 10000);
	if (sqlite3_prepare_v2(out, cond.insert_sql, -1, &ins_cond, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(out, extra.insert_sql, -1, &ins_extra, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(out, runs.insert_sql, -1, &ins_run, NULL) != SQLITE_OK ||
	    (have_src && sqlite3_prepare_v2(out, chunks.insert_sql, -1, &ins_src, NULL) != SQLITE_OK))
		die("preparing the inserts", sqlite3_errmsg(out));
	exec(out, "BEGIN IMMEDIATE");
	for (size_t i = 0, c = 0; i < runs.n; i++) {
		long long cid = runs.key[i];
		if (cid >= 0 && cid <= maxcond && !done[cid]) {
			/* conditions rows come in id order, as first used */
			while (c < cond.n && cond.key[c] != cid)
				c++;
			if (c == cond.n)
				for (c = 0; c < cond.n && cond.key[c] != cid; c++)
					;
			if (c == cond.n)
				die("a run refers to a missing conditions row", NULL);
			insert_row(out, ins_cond, &cond, c, &pc);
			while (e < extra.n && extra.key[e] < cid)
				e++;
			for (size_t k = e; k < extra.n && extra.key[k] == cid; k++)
				insert_row(out, ins_extra, &extra, k, &pe);
			done[cid] = 1;
		}
		insert_row(out, ins_run, &runs, i, &pr);
		/* a file's chunk follows its runs; one-run files: one chunk per run */
		if (have_src && i < chunks.n)
			insert_row(out, ins_src, &chunks, i, &ps);
		if (++tx == COMMIT_RUNS) {
			exec(out, "COMMIT; BEGIN IMMEDIATE");
			tx = 0;
		}
	}
	for (size_t i = runs.n; have_src && i < chunks.n; i++) {
		insert_row(out, ins_src, &chunks, i, &ps); /* chunks beyond one per run */
		if (++tx == COMMIT_RUNS) {
			exec(out, "COMMIT; BEGIN IMMEDIATE");
			tx = 0;
		}
	}
	exec(out, "COMMIT");
	sqlite3_finalize(ins_src);
	sqlite3_finalize(ins_cond);
	sqlite3_finalize(ins_extra);
	sqlite3_finalize(ins_run);
	exec(out, "PRAGMA temp_store = FILE");
	{
		char *v = sqlite3_mprintf("BEGIN IMMEDIATE; %s COMMIT;", index_sql);
		exec(out, v);
		sqlite3_free(v);
	}
	exec(out, "PRAGMA temp_store = MEMORY");
	if (sqlite3_close(out) != SQLITE_OK)
		die("closing", dst);
	printf("%.4f\n", now() - t0);
	fprintf(stderr, "inserted %zu conditions rows, %zu extras, %zu runs, %zu source chunks\n",
	        cond.n, extra.n, runs.n, chunks.n);
	sqlite3_free(schema_sql);
	sqlite3_free(index_sql);
	free(done);
	free_rows(&cond);
	free_rows(&extra);
	free_rows(&runs);
	free_rows(&chunks);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "read") == 0)
		return cmd_read(argc - 2, argv + 2);
	if (argc == 4 && strcmp(argv[1], "insert") == 0)
		return cmd_insert(argv[2], argv[3]);
	fprintf(stderr, "usage: pl_bench_floor read DIR... | insert SRC.db DST.db\n");
	return 2;
}
