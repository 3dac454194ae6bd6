/*
 * bundle_manifest.c — a bundle's manifest.json and its directory.
 *
 * The manifest names the tool version, the definition, the language, the
 * epoch, the gnuplot that drew the charts, the database content hash (the
 * sha256 of the selected runs as `list --format json` renders them), every
 * input (source, sha256) and every output file (path, sha256); bundle_dir.c
 * reads it back to decide whether a directory may be replaced. Reading a manifest back
 * (lang, epoch, gnuplot: pl_manifest_read, pl_manifest_gnuplot, declared
 * in spec.h) goes through the adapters layer's checked JSON reader.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "adapters/jsonread.h"
#include "core/hash.h"
#include "render/bundle_impl.h"
#include "render/render.h"
#include "render/render_impl.h"
#include "render/spec.h"
#include "util/clock.h"
#include "util/alloc.h"
#include "util/file.h"

#define MANIFEST_MAX (((size_t)1 << 24) - 1) /* bytes of an old manifest.json read back */

static int hash_file(const char *path, char hex[65], struct pl_error *err)
{
	char *buf;
	size_t len;
	int rc = pl_file_read(path, PL_RENDER_READ_MAX, &buf, &len, err);

	if (rc)
		return rc;
	rc = pl_sha256_hex(buf, len, hex);
	free(buf);
	return rc ? pl_error_set(err, PL_ENOMEM, "sha256 failed") : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the regular files of dir. */
int pl_bundle_list_dir(const char *dir, char ***names, size_t *n, struct pl_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return pl_error_set(err, PL_EIO, "cannot open directory '%s': %s", dir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		char *path;
		struct stat st;
		int reg;
		if (e->d_name[0] == '.')
			continue;
		path = pl_fs_path(dir, e->d_name);
		reg = path && lstat(path, &st) == 0 && S_ISREG(st.st_mode);
		free(path);
		if (!reg)
			continue;
		if (PL_ALLOC_GROW(*names, *n + 1, cap))
			break;
		if (!((*names)[*n] = strdup(e->d_name)))
			break;
		(*n)++;
	}
	closedir(d);
	if (e != NULL) {
		for (size_t i = 0; i < *n; i++)
			free((*names)[i]);
		free(*names);
		*names = NULL;
		*n = 0;
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (*n)
		qsort(*names, *n, sizeof(char *), cmp_str);
	return 0;
}

void pl_bundle_free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int pl_bundle_write_manifest(FILE *fp, void *v, struct pl_error *err)
{
	struct manifest_job *mj = v;
	struct bundle *b = mj->b;
	const struct pl_report_spec *s = b->o->spec;
	char **names = NULL;
	size_t n = 0;
	char hex[65];
	int rc, first = 1;

	rc = pl_bundle_list_dir(mj->dir, &names, &n, err);
	if (rc)
		return rc;
	fputs("{\n  \"perfledger\": ", fp);
	pl_json_write_string(fp, b->o->tool_version ? b->o->tool_version : "");
	fputs(",\n  \"definition\": ", fp);
	pl_json_write_string(fp, s->name);
	fputs(",\n  \"lang\": ", fp);
	pl_json_write_string(fp, b->w->lang);
	if (b->gnuplot[0]) {
		/* gnuplot's SVG carries its version; another one may draw other bytes */
		fputs(",\n  \"gnuplot\": ", fp);
		pl_json_write_string(fp, b->gnuplot);
	}
	fprintf(fp, ",\n  \"source_date_epoch\": %lld", b->o->epoch);
	if (b->bundle_id[0]) {
		fputs(",\n  \"bundle_id\": ", fp);
		pl_json_write_string(fp, b->bundle_id);
		fputs(",\n  \"as_of\": ", fp);
		pl_json_write_string(fp, b->as_of);
		fputs(",\n  \"runs_file\": \"runs.jsonl\"", fp);
	}
	fputs(",\n  \"database_hash\": ", fp);
	pl_json_write_string(fp, b->db_hash);
	fputs(",\n  \"selection\": [", fp);
	for (size_t i = 0; i < s->nwhere; i++) {
		fputs(i ? ", " : "", fp);
		pl_json_write_string(fp, s->where[i]);
	}
	fputs("],\n  \"axis\": ", fp);
	pl_json_write_string(fp, s->axis);
	fputs(",\n  \"inputs\": [", fp);
	for (size_t i = 0; b->runs && i < b->runs->n; i++) {
		const struct pl_run *run = &b->runs->v[i];
		int seen = 0;
		if (!pl_bundle_run_in_cmp(b->cmp, run->id))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = pl_bundle_run_in_cmp(b->cmp, b->runs->v[j].id) &&
			       strcmp(b->runs->v[j].sha256, run->sha256) == 0;
		if (seen)
			continue;
		fputs(first ? "\n    {\"source\": " : ",\n    {\"source\": ", fp);
		first = 0;
		pl_json_write_string(fp, run->source ? run->source : "");
		fputs(", \"sha256\": ", fp);
		pl_json_write_string(fp, run->sha256);
		fputc('}', fp);
	}
	/* every run used by its content identity and revision, in the
	 * bundle's order (its run numbers): verify finds them in any ledger */
	fputs("\n  ],\n  \"runs\": [", fp);
	first = 1;
	for (size_t i = 0; b->runs && i < b->runs->n; i++) {
		const struct pl_run *run = &b->runs->v[i];
		if (!pl_bundle_run_in_cmp(b->cmp, run->id))
			continue;
		fputs(first ? "\n    {\"sha256\": " : ",\n    {\"sha256\": ", fp);
		pl_json_write_string(fp, run->sha256);
		fprintf(fp, ", \"record\": %ld, \"record_id\": ", run->record);
		pl_json_write_string(fp, run->record_id);
		fprintf(fp, ", \"revision\": %d}", run->revision > 0 ? run->revision : 1);
		first = 0;
	}
	fputs("\n  ],\n  \"outputs\": [", fp);
	first = 1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *path;
		size_t len = strlen(names[i]);
		/* the manifest itself, and its own temporary file being written */
		if (strcmp(names[i], "manifest.json") == 0 ||
		    (len > 4 && strcmp(names[i] + len - 4, ".tmp") == 0))
			continue;
		path = pl_fs_path(mj->dir, names[i]);
		if (!path) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		rc = hash_file(path, hex, err);
		free(path);
		if (rc)
			break;
		fputs(first ? "\n    {\"path\": " : ",\n    {\"path\": ", fp);
		first = 0;
		pl_json_write_string(fp, names[i]);
		fprintf(fp, ", \"sha256\": \"%s\"}", hex);
	}
	fputs("\n  ]\n}\n", fp);
	pl_bundle_free_names(names, n);
	if (rc)
		return rc;
	return ferror(fp) ? PL_EIO : 0;
}

/* The canonical content of a run: its export line (render/export.c)
 * without what says where and when this ledger got it (source path,
 * import time) and without its trail; revision first. */
static int content_line(FILE *f, const struct pl_run *run)
{
	struct pl_run r = *run; /* shallow: only the fields set here differ */

	r.source = NULL;
	r.imported_at = NULL;
	r.carried = NULL;
	fprintf(f, "%d ", run->revision > 0 ? run->revision : 1);
	return pl_render_export_run(f, &r, NULL);
}

/* sha256 over the canonical content of the comparison's runs, in the
 * bundle's order (sha256, record): the same for the same runs at the same
 * revisions whatever their ids and however they were imported. */
int pl_bundle_db_hash(struct bundle *b, struct pl_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = 0;

	if (!f)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t i = 0; b->runs && i < b->runs->n && rc == 0; i++)
		if (pl_bundle_run_in_cmp(b->cmp, b->runs->v[i].id))
			rc = content_line(f, &b->runs->v[i]);
	if (fclose(f) != 0 || rc)
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc == 0 && pl_sha256_hex(buf ? buf : "", len, b->db_hash) != 0)
		rc = pl_error_set(err, PL_ENOMEM, "sha256 failed");
	free(buf);
	return rc;
}

/* The sha256 of run's runs.jsonl line without its newline. */
static int line_hash(const struct pl_run *run, char hex[65])
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return PL_ENOMEM;
	rc = pl_render_export_run(f, run, run->carried);
	if (fclose(f) != 0 || rc || !buf) {
		free(buf);
		return PL_ENOMEM;
	}
	rc = pl_sha256_hex(buf, len && buf[len - 1] == '\n' ? len - 1 : len, hex) ? PL_ENOMEM : 0;
	free(buf);
	return rc;
}

int pl_bundle_compute_id(struct bundle *b, struct pl_error *err)
{
	const struct pl_report_spec *s = b->o->spec;
	struct pl_bundle_ident *v = calloc(b->runs && b->runs->n ? b->runs->n : 1, sizeof(*v));
	size_t n = 0;
	int rc;

	if (!v)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t i = 0; b->runs && i < b->runs->n; i++) {
		const struct pl_run *run = &b->runs->v[i];
		if (!pl_bundle_run_in_cmp(b->cmp, run->id))
			continue;
		snprintf(v[n].sha256, sizeof(v[n].sha256), "%s", run->sha256);
		v[n].record = run->record;
		snprintf(v[n].record_id, sizeof(v[n].record_id), "%s", run->record_id);
		v[n].revision = run->revision > 0 ? run->revision : 1;
		if ((rc = line_hash(run, v[n].line)) != 0) {
			free(v);
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		}
		n++;
	}
	pl_bundle_ident_sort(v, n);
	rc = pl_bundle_id_compute(s->bytes ? s->bytes : "", s->bytes ? s->nbytes : 0, b->w->lang,
	                          b->o->epoch, b->o->tool_version, v, n, b->bundle_id);
	free(v);
	if (rc)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (s->as_of) {
		snprintf(b->as_of, sizeof(b->as_of), "%s", s->as_of);
	} else {
		time_t t = (time_t)b->o->epoch;
		struct tm tm;
		gmtime_r(&t, &tm);
		strftime(b->as_of, sizeof(b->as_of), "%Y-%m-%dT%H:%M:%SZ", &tm);
		if (b->o->as_of && strcmp(b->o->as_of, b->as_of) > 0) /* a later trail */
			snprintf(b->as_of, sizeof(b->as_of), "%s", b->o->as_of);
	}
	return 0;
}

int pl_bundle_write_runs(FILE *fp, void *v, struct pl_error *err)
{
	struct bundle *b = v;

	(void)err;
	for (size_t i = 0; b->runs && i < b->runs->n; i++) {
		const struct pl_run *run = &b->runs->v[i];
		if (pl_bundle_run_in_cmp(b->cmp, run->id) && pl_render_export_run(fp, run, run->carried))
			return PL_EIO;
	}
	return ferror(fp) ? PL_EIO : 0;
}

int pl_bundle_write_citation(FILE *fp, void *v, struct pl_error *err)
{
	struct bundle *b = v;
	const struct pl_report_spec *s = b->o->spec;
	const char *title = strcmp(b->w->lang, "zh-CN") == 0 && s->title_zh ? s->title_zh
	                    : s->title_en                                   ? s->title_en
	                                                                    : s->name;
	const char *ver = b->o->tool_version ? b->o->tool_version : "";
	char date[16];
	time_t t = (time_t)b->o->epoch;
	struct tm tm;

	(void)err;
	gmtime_r(&t, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d", &tm);
	fputs("# The citation of a perfledger report bundle (Citation File Format 1.2.0).\n"
	      "# Cite the bundle id; a reader checks it with\n"
	      "#   perfledger verify --offline DIR --id ID\n"
	      "cff-version: 1.2.0\n"
	      "message: \"Cite this report by its bundle id.\"\n"
	      "type: dataset\n"
	      "title: ", fp);
	pl_json_write_string(fp, title);
	fputs("\nauthors:\n  - name: ", fp);
	pl_json_write_string(fp, s->name);
	fprintf(fp, "\ndate-released: \"%s\"\nversion: \"%s\"\n", date, b->bundle_id);
	fprintf(fp, "identifiers:\n  - type: other\n    value: \"%s\"\n"
	            "    description: \"perfledger bundle id\"\n", b->bundle_id);
	fputs("references:\n  - type: software\n    title: \"perfledger\"\n    version: ", fp);
	pl_json_write_string(fp, ver);
	fputs("\n    authors:\n      - name: \"perfledger\"\n", fp);
	return ferror(fp) ? PL_EIO : 0;
}

/* ------------------------------------------------ reading a manifest back */

int pl_manifest_read(const char *path, char *lang, size_t n, long long *epoch,
                     struct pl_error *err)
{
	char *buf;
	size_t len;
	struct pl_jsonread *doc = NULL;
	const struct pl_jsonval *root, *l, *t;
	const char *ls;
	double secs;
	int rc = pl_file_read(path, MANIFEST_MAX, &buf, &len, err);

	if (rc)
		return rc;
	rc = pl_jsonread_parse(path, buf, len, &doc, err);
	free(buf);
	if (rc)
		return rc;
	root = pl_jsonread_root(doc);
	if (pl_jsonread_member(root, "lang", &l, NULL) != 0 ||
	    pl_jsonread_string(l, &ls, NULL) != 0 ||
	    pl_jsonread_member(root, "source_date_epoch", &t, NULL) != 0 ||
	    pl_jsonread_number(t, &secs, NULL) != 0 || secs < 0) {
		pl_jsonread_free(doc);
		pl_error_set(err, PL_EINVALID, "not a perfledger bundle manifest (no lang or source_date_epoch)");
		pl_error_at(err, path, 0, 0);
		return PL_EINVALID;
	}
	/* the rule of SOURCE_DATE_EPOCH (util/clock.h): whole seconds up to
	 * PL_CLOCK_EPOCH_MAX; checked on the double, before the conversion */
	if (secs > (double)PL_CLOCK_EPOCH_MAX || secs != floor(secs)) {
		pl_jsonread_free(doc);
		pl_error_set(err, PL_EINVALID, "'source_date_epoch' must be a whole number of seconds "
		                               "from 0 to 253402300799");
		pl_error_at(err, path, 0, 0);
		pl_error_field(err, "source_date_epoch");
		return PL_EINVALID;
	}
	snprintf(lang, n, "%s", ls);
	*epoch = (long long)secs;
	pl_jsonread_free(doc);
	return 0;
}

/* A whole number in [lo, hi] from a JSON number. */
static int whole(const struct pl_jsonval *v, double lo, double hi, double *out)
{
	return pl_jsonread_number(v, out, NULL) == 0 && *out >= lo && *out <= hi &&
	       *out == floor(*out);
}

static int hex_ok(const char *s, size_t len)
{
	if (strlen(s) != len)
		return 0;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return 0;
	return 1;
}

int pl_manifest_runs(const char *path, struct pl_manifest_run **runs, size_t *n, int *found,
                     struct pl_error *err)
{
	char *buf;
	size_t len, cap = 0;
	struct pl_jsonread *doc = NULL;
	struct pl_jsonread_iter it;
	const struct pl_jsonval *arr, *el;
	int rc = pl_file_read(path, MANIFEST_MAX, &buf, &len, err);

	*runs = NULL;
	*n = 0;
	*found = 0;
	if (rc)
		return rc;
	rc = pl_jsonread_parse(path, buf, len, &doc, err);
	free(buf);
	if (rc)
		return rc;
	if (pl_jsonread_member(pl_jsonread_root(doc), "runs", &arr, NULL) != 0) {
		pl_jsonread_free(doc); /* a bundle written before migration 009 */
		return 0;
	}
	if (pl_jsonread_iter(arr, &it, NULL) != 0)
		goto bad;
	while (pl_jsonread_next(&it, NULL, &el)) {
		const struct pl_jsonval *id, *rev, *sha, *rec, *rid;
		double vid = 0, vrev, vrec = 0;
		const char *ssha = "", *srid = "";
		struct pl_manifest_run *m;

		if (pl_jsonread_member(el, "revision", &rev, NULL) != 0 ||
		    !whole(rev, 1, 2147483647.0, &vrev))
			goto bad;
		if (pl_jsonread_member(el, "sha256", &sha, NULL) == 0) {
			/* a run named by its content */
			if (pl_jsonread_string(sha, &ssha, NULL) != 0 || !hex_ok(ssha, 64) ||
			    pl_jsonread_member(el, "record", &rec, NULL) != 0 ||
			    !whole(rec, 0, 2147483647.0, &vrec) ||
			    pl_jsonread_member(el, "record_id", &rid, NULL) != 0 ||
			    pl_jsonread_string(rid, &srid, NULL) != 0 ||
			    (*srid && !hex_ok(srid, 32)))
				goto bad;
		} else if (pl_jsonread_member(el, "id", &id, NULL) != 0 ||
		           !whole(id, 1, 9007199254740992.0, &vid)) {
			goto bad; /* neither: not a run entry */
		}
		if (PL_ALLOC_GROW(*runs, *n + 1, cap)) {
			pl_jsonread_free(doc);
			free(*runs);
			*runs = NULL;
			*n = 0;
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		}
		m = &(*runs)[(*n)++];
		memset(m, 0, sizeof(*m));
		m->id = (long long)vid;
		m->revision = (int)vrev;
		snprintf(m->sha256, sizeof(m->sha256), "%s", ssha);
		m->record = (long)vrec;
		snprintf(m->record_id, sizeof(m->record_id), "%s", srid);
	}
	pl_jsonread_free(doc);
	*found = 1;
	return 0;
bad:
	pl_jsonread_free(doc);
	free(*runs);
	*runs = NULL;
	*n = 0;
	pl_error_set(err, PL_EINVALID,
	             "'runs' must be an array of {\"sha256\": HEX, \"record\": N, \"record_id\": "
	             "HEX, \"revision\": N} (or {\"id\": RUN, \"revision\": N}), whole numbers");
	pl_error_at(err, path, 0, 0);
	pl_error_field(err, "runs");
	return PL_EINVALID;
}

/* The string member KEY of the manifest at PATH into buf (size n > 0).
 * CUT 0: a value of n bytes or more counts as not found; 1: it is cut to
 * fit. Returns 1 if found, else 0 (buf empty). */
static int manifest_member(const char *path, const char *key, int cut, char *buf, size_t n)
{
	char *text;
	size_t len;
	struct pl_jsonread *doc = NULL;
	const struct pl_jsonval *g;
	const char *gs;
	struct pl_error err;
	int found = 0;

	if (n)
		buf[0] = '\0';
	pl_error_init(&err);
	if (pl_file_read(path, MANIFEST_MAX, &text, &len, &err))
		return 0;
	if (pl_jsonread_parse(path, text, len, &doc, &err) == 0 &&
	    pl_jsonread_member(pl_jsonread_root(doc), key, &g, NULL) == 0 &&
	    pl_jsonread_string(g, &gs, NULL) == 0 && (cut || strlen(gs) < n)) {
		snprintf(buf, n, "%s", gs);
		found = 1;
	}
	free(text);
	pl_jsonread_free(doc);
	return found;
}

int pl_manifest_string(const char *path, const char *key, char *buf, size_t n)
{
	return manifest_member(path, key, 0, buf, n);
}

int pl_manifest_gnuplot(const char *path, char *buf, size_t n)
{
	return manifest_member(path, "gnuplot", 1, buf, n);
}
