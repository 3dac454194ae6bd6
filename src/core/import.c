/*
 * import.c — the import pipeline: paths in, validated runs stored.
 *
 * For each input file: read all bytes, hash them, skip the file if the hash
 * is stored, parse (adapters), overlay the sidecar NAME.conditions.json and
 * then --set, normalize, validate, and store all the file's runs in one
 * transaction. A rejected file is reported through the callback and the
 * batch goes on. With strict, the whole batch runs inside one outer
 * transaction; every file is still checked so the user sees every bad one,
 * but once any file is rejected nothing is stored: the callbacks are held
 * back to the end and files that were fine are then reported as rejected
 * with the message "not stored: another file of the strict batch was
 * rejected" (stats.rejected counts only the files that were bad themselves).
 *
 * Directory walks: entries in byte order of their names, recursively;
 * *.json and *.jsonl files only, *.conditions.json skipped (sidecars),
 * hidden entries (".name") skipped, symbolic links to directories not
 * followed (no loops); a file named explicitly is always read.
 */
#include "core/import.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "adapters/adapters.h"
#include "core/hash.h"
#include "core/model.h"
#include "core/normalize.h"
#include "core/validate.h"

/* A callback held back until a strict batch is decided. */
struct outcome {
	char *path;                   /* owned */
	enum pl_import_status status; /* as reported */
	size_t runs;                  /* runs of the file */
	size_t reference_only;        /* of which reference-only */
	struct pl_error err;          /* set when rejected */
};

/* State of one pl_import_paths call. */
struct batch {
	struct pl_store *st;                /* the database */
	const struct pl_import_opts *opts;  /* options */
	pl_import_cb cb;                    /* may be NULL */
	void *ctx;                          /* for cb */
	struct pl_import_stats stats;       /* totals */
	struct outcome *held;               /* strict: callbacks held back; owned */
	size_t nheld, capheld;              /* entries in held, allocated */
	int rejected;                       /* a file was rejected */
	int io_failed;                      /* a path could not be read */
	int fatal;                          /* PL_EDB / PL_ENOMEM: stop the batch */
	struct pl_error first_io;           /* first read failure */
	struct pl_error first_reject;       /* first rejection */
	struct pl_error fatal_err;          /* the fatal error */
};

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Reports a file's outcome now, or holds it back in strict mode. */
static void report(struct batch *b, const char *path, enum pl_import_status status, size_t runs,
                   size_t refonly, const struct pl_error *err)
{
	b->stats.files++;
	if (status == PL_IMPORT_STORED) {
		b->stats.stored++;
		b->stats.runs += runs;
	} else if (status == PL_IMPORT_DUPLICATE) {
		b->stats.duplicates++;
	} else {
		b->stats.rejected++;
		if (!b->rejected && err)
			b->first_reject = *err;
		b->rejected = 1;
		if (err && err->code == PL_EIO) {
			if (!b->io_failed)
				b->first_io = *err;
			b->io_failed = 1;
		}
	}
	if (b->opts->strict) {
		struct outcome *o;
		if (b->nheld == b->capheld) {
			size_t cap = b->capheld ? b->capheld * 2 : 16;
			o = realloc(b->held, cap * sizeof(*o));
			if (!o)
				goto now; /* cannot hold it back: report it as it is */
			b->held = o;
			b->capheld = cap;
		}
		o = &b->held[b->nheld];
		memset(o, 0, sizeof(*o));
		o->path = strdup(path);
		if (!o->path)
			goto now;
		o->status = status;
		o->runs = runs;
		o->reference_only = refonly;
		if (err)
			o->err = *err;
		b->nheld++;
		return;
	}
now:
	if (b->cb)
		b->cb(b->ctx, path, status, runs, refonly, status == PL_IMPORT_REJECTED ? err : NULL);
}

/* Reads all of f. Returns 0, or an errno value. */
static int read_stream(FILE *f, char **out, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;

	for (;;) {
		size_t got;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				return ENOMEM;
			}
			buf = nb;
			cap = ncap;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno ? errno : EIO;
		free(buf);
		return e;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* Reads the file at path ("-": stdin). Returns 0, or PL_EIO / PL_ENOMEM with
 * err set ("cannot open 'x': ..."). */
static int read_file(const char *path, char **out, size_t *len, struct pl_error *err)
{
	FILE *f;
	int e;

	if (strcmp(path, "-") == 0) {
		e = read_stream(stdin, out, len);
	} else {
		struct stat sb;
		f = fopen(path, "rb");
		if (!f) {
			pl_error_at(err, path, 0, 0);
			return pl_error_set(err, PL_EIO, "cannot open '%s': %s", path, strerror(errno));
		}
		if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
			fclose(f);
			pl_error_at(err, path, 0, 0);
			return pl_error_set(err, PL_EIO, "cannot read '%s': Is a directory", path);
		}
		e = read_stream(f, out, len);
		fclose(f);
	}
	pl_error_at(err, path, 0, 0);
	if (e == ENOMEM)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (e)
		return pl_error_set(err, PL_EIO, "cannot read '%s': %s", path, strerror(e));
	return 0;
}

/* Prefixes "record N: " to messages about one run of a multi-run file. */
static void prefix_record(struct pl_error *err, long record)
{
	char pre[32];
	size_t n, len;

	n = (size_t)snprintf(pre, sizeof(pre), "record %ld: ", record);
	len = strlen(err->message);
	if (len + n >= sizeof(err->message))
		len = sizeof(err->message) - n - 1;
	memmove(err->message + n, err->message, len);
	memcpy(err->message, pre, n);
	err->message[n + len] = '\0';
}

/* Applies the sidecar of path (if there is one) to every run. */
static int apply_sidecar(const char *path, struct pl_run_list *runs, struct pl_error *err)
{
	size_t stem, len;
	char *side, *buf = NULL;
	FILE *f;
	int rc = 0;

	if (has_suffix(path, ".jsonl"))
		stem = strlen(path) - 6;
	else if (has_suffix(path, ".json"))
		stem = strlen(path) - 5;
	else
		return 0;
	side = malloc(stem + sizeof(".conditions.json"));
	if (!side)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	memcpy(side, path, stem);
	memcpy(side + stem, ".conditions.json", sizeof(".conditions.json"));
	f = fopen(side, "rb");
	if (!f) {
		if (errno != ENOENT) {
			pl_error_at(err, side, 0, 0);
			rc = pl_error_set(err, PL_EIO, "cannot open sidecar '%s': %s", side, strerror(errno));
		}
		free(side);
		return rc;
	}
	rc = read_stream(f, &buf, &len);
	fclose(f);
	if (rc) {
		pl_error_at(err, side, 0, 0);
		rc = rc == ENOMEM ? pl_error_set(err, PL_ENOMEM, "out of memory")
		                  : pl_error_set(err, PL_EIO, "cannot read sidecar '%s': %s", side,
		                                 strerror(rc));
		free(side);
		return rc;
	}
	for (size_t i = 0; i < runs->n && rc == 0; i++)
		rc = pl_adapters_parse_conditions(side, buf, len, &runs->v[i], err);
	free(buf);
	free(side);
	return rc;
}

/* Overlays --set, hashes, normalizes and validates every run. */
static int prepare_runs(struct batch *b, const char *path, const char *sha,
                        struct pl_run_list *runs, size_t *refonly, struct pl_error *err)
{
	*refonly = 0;
	for (size_t i = 0; i < runs->n; i++) {
		struct pl_run *r = &runs->v[i];
		int rc = 0;

		for (size_t k = 0; k < b->opts->nset && rc == 0; k++)
			rc = pl_run_set_cond(r, pl_cond_lookup(b->opts->set[k].key), b->opts->set[k].value,
			                     err);
		memcpy(r->sha256, sha, sizeof(r->sha256));
		if (rc == 0)
			rc = pl_normalize_run(r, err);
		if (rc == 0)
			rc = pl_validate_run(r, err);
		if (rc) {
			pl_error_at(err, path, err->line, err->column);
			if (runs->n > 1 && strncmp(err->message, "record ", 7) != 0)
				prefix_record(err, r->record);
			return rc;
		}
		if (r->checklist_missing)
			(*refonly)++;
	}
	return 0;
}

static void set_fatal(struct batch *b, const struct pl_error *err)
{
	b->fatal = err->code ? err->code : PL_EDB;
	b->fatal_err = *err;
}

/* Stores every run of one file in one transaction. */
static int store_runs(struct batch *b, struct pl_run_list *runs, struct pl_error *err)
{
	int rc = pl_store_begin(b->st, err);

	for (size_t i = 0; i < runs->n && rc == 0; i++) {
		int inserted = 0;
		rc = pl_store_insert_run(b->st, &runs->v[i], &inserted, err);
	}
	if (rc) {
		struct pl_error ignore;
		pl_error_init(&ignore);
		pl_store_rollback(b->st, &ignore);
		return rc;
	}
	return pl_store_commit(b->st, err);
}

static void import_file(struct batch *b, const char *path)
{
	struct pl_run_list runs = {0};
	struct pl_error err;
	char *buf = NULL;
	char sha[65];
	size_t len = 0, refonly = 0;
	int found = 0, rc;

	pl_error_init(&err);
	rc = read_file(path, &buf, &len, &err);
	if (rc == 0)
		rc = pl_sha256_hex(buf, len, sha);
	if (rc == PL_ENOMEM && !err.code)
		pl_error_set(&err, PL_ENOMEM, "out of memory");
	if (rc == 0 && (rc = pl_store_has_sha256(b->st, sha, &found, &err)) == 0 && found) {
		report(b, path, PL_IMPORT_DUPLICATE, 0, 0, NULL);
		goto out;
	}
	if (rc == 0)
		rc = pl_adapters_parse(path, buf, len, b->opts->format, &runs, &err);
	if (rc == 0 && strcmp(path, "-") != 0)
		rc = apply_sidecar(path, &runs, &err);
	if (rc == 0)
		rc = prepare_runs(b, path, sha, &runs, &refonly, &err);
	/* strict and already failed: check only, the batch will be rolled back */
	if (rc == 0 && !(b->opts->strict && b->rejected))
		rc = store_runs(b, &runs, &err);
	if (rc == PL_EDB || rc == PL_ENOMEM || rc == PL_ESCHEMA)
		set_fatal(b, &err);
	if (rc) {
		if (!err.file[0])
			pl_error_at(&err, path, err.line, err.column);
		report(b, path, PL_IMPORT_REJECTED, runs.n, 0, &err);
	} else {
		report(b, path, PL_IMPORT_STORED, runs.n, refonly, NULL);
	}
out:
	pl_run_list_release(&runs);
	free(buf);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *join_path(const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	int slash = dl > 0 && dir[dl - 1] == '/';
	char *p = malloc(dl + nl + 2);

	if (!p)
		return NULL;
	memcpy(p, dir, dl);
	if (!slash)
		p[dl++] = '/';
	memcpy(p + dl, name, nl + 1);
	return p;
}

static void walk_dir(struct batch *b, const char *dir)
{
	DIR *d = opendir(dir);
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	struct pl_error err;

	if (!d) {
		pl_error_init(&err);
		pl_error_at(&err, dir, 0, 0);
		pl_error_set(&err, PL_EIO, "cannot open directory '%s': %s", dir, strerror(errno));
		report(b, dir, PL_IMPORT_REJECTED, 0, 0, &err);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue; /* ".", ".." and hidden entries */
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			char **nn = realloc(names, ncap * sizeof(*nn));
			if (!nn)
				goto oom;
			names = nn;
			cap = ncap;
		}
		names[n] = strdup(de->d_name);
		if (!names[n])
			goto oom;
		n++;
	}
	closedir(d);
	d = NULL;
	qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n && !b->fatal; i++) {
		char *full = join_path(dir, names[i]);
		struct stat sb;
		if (!full)
			goto oom;
		if (lstat(full, &sb) == 0) {
			int link = S_ISLNK(sb.st_mode);
			if (link && stat(full, &sb) != 0) {
				free(full);
				continue; /* dangling link */
			}
			if (S_ISDIR(sb.st_mode)) {
				if (!link)
					walk_dir(b, full);
			} else if (S_ISREG(sb.st_mode) &&
			           (has_suffix(full, ".json") || has_suffix(full, ".jsonl") ||
			            has_suffix(full, ".yaml") || has_suffix(full, ".yml") ||
			            has_suffix(full, ".csv") || has_suffix(full, ".txt")) &&
			           !has_suffix(full, ".conditions.json")) {
				import_file(b, full);
			}
		}
		free(full);
	}
	goto out;
oom:
	pl_error_init(&err);
	pl_error_set(&err, PL_ENOMEM, "out of memory");
	set_fatal(b, &err);
out:
	if (d)
		closedir(d);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int pl_import_check_set(const struct pl_kv *set, size_t nset, struct pl_error *err)
{
	for (size_t i = 0; i < nset; i++) {
		struct pl_run scratch;
		struct pl_error e;
		int id = pl_cond_lookup(set[i].key);
		int rc;

		if (id < 0) {
			pl_error_field(err, set[i].key);
			return pl_error_set(err, PL_EUSAGE,
			                    "unknown condition '%s' in --set (see schema/descriptor.md for the names)",
			                    set[i].key ? set[i].key : "");
		}
		if (!set[i].value || !set[i].value[0]) {
			pl_error_field(err, set[i].key);
			return pl_error_set(err, PL_EUSAGE, "--set %s= needs a value", set[i].key);
		}
		pl_run_init(&scratch);
		pl_error_init(&e);
		rc = pl_run_set_cond(&scratch, id, set[i].value, &e);
		pl_run_release(&scratch);
		if (rc == PL_ENOMEM)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		if (rc) {
			pl_error_field(err, set[i].key);
			return pl_error_set(err, PL_EUSAGE, "--set %s=%s: %s", set[i].key, set[i].value,
			                    e.message);
		}
	}
	return 0;
}

/* Strict batch decided: commit or roll back, then release the held callbacks. */
static void finish_strict(struct batch *b)
{
	struct pl_error err;

	pl_error_init(&err);
	if (b->rejected || b->fatal) {
		pl_store_rollback(b->st, &err);
		b->stats.stored = 0;
		b->stats.runs = 0;
	} else if (pl_store_commit(b->st, &err) != 0) {
		set_fatal(b, &err);
		b->stats.stored = 0;
		b->stats.runs = 0;
	}
	for (size_t i = 0; i < b->nheld; i++) {
		struct outcome *o = &b->held[i];
		if (o->status == PL_IMPORT_STORED && (b->rejected || b->fatal)) {
			o->status = PL_IMPORT_REJECTED;
			pl_error_init(&o->err);
			pl_error_at(&o->err, o->path, 0, 0);
			if (b->fatal)
				o->err = b->fatal_err;
			else
				pl_error_set(&o->err, PL_EINVALID,
				             "not stored: another file of the strict batch was rejected");
		}
		if (b->cb)
			b->cb(b->ctx, o->path, o->status, o->runs, o->reference_only,
			      o->status == PL_IMPORT_REJECTED ? &o->err : NULL);
		free(o->path);
	}
	free(b->held);
	b->held = NULL;
	b->nheld = 0;
}

int pl_import_paths(struct pl_store *st, const char *const *paths, size_t npaths,
                    const struct pl_import_opts *opts, pl_import_cb cb, void *ctx,
                    struct pl_import_stats *stats, struct pl_error *err)
{
	static const struct pl_import_opts no_opts = {0};
	struct batch b;
	int rc;

	memset(&b, 0, sizeof(b));
	b.st = st;
	b.opts = opts ? opts : &no_opts;
	b.cb = cb;
	b.ctx = ctx;
	if (stats)
		memset(stats, 0, sizeof(*stats));
	rc = pl_import_check_set(b.opts->set, b.opts->nset, err);
	if (rc)
		return rc;
	if (b.opts->format) {
		size_t n;
		const struct pl_adapter_info *a = pl_adapters_list(&n);
		size_t i;
		for (i = 0; i < n && strcmp(a[i].name, b.opts->format) != 0; i++)
			;
		if (i == n)
			return pl_error_set(err, PL_EUSAGE, "unknown format '%s' (see `perfledger formats`)",
			                    b.opts->format);
	}
	if (b.opts->strict && (rc = pl_store_begin(st, err)) != 0)
		return rc;
	for (size_t i = 0; i < npaths && !b.fatal; i++) {
		struct stat sb;
		if (strcmp(paths[i], "-") != 0 && stat(paths[i], &sb) == 0 && S_ISDIR(sb.st_mode))
			walk_dir(&b, paths[i]);
		else
			import_file(&b, paths[i]);
	}
	if (b.opts->strict)
		finish_strict(&b);
	if (stats)
		*stats = b.stats;
	if (b.fatal) {
		if (err)
			*err = b.fatal_err;
		return b.fatal;
	}
	if (b.io_failed) {
		if (err)
			*err = b.first_io;
		return PL_EIO;
	}
	if (b.rejected) {
		if (err)
			*err = b.first_reject;
		return PL_EINVALID;
	}
	return 0;
}
