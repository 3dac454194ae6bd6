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
#include <unistd.h>
#include <sys/stat.h>

#include "adapters/jsonread.h"
#include "core/hash.h"
#include "render/bundle_impl.h"
#include "render/render.h"
#include "render/render_impl.h"
#include "render/spec.h"
#include "util/clock.h"
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
		if (*n == cap) {
			char **p = realloc(*names, (cap = cap ? cap * 2 : 32) * sizeof(char *));
			if (!p)
				break;
			*names = p;
		}
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
	/* the revision of every run used, so that verify can name the runs
	 * amended, retracted or purged since (migration 009) */
	fputs("\n  ],\n  \"runs\": [", fp);
	first = 1;
	for (size_t i = 0; b->runs && i < b->runs->n; i++) {
		const struct pl_run *run = &b->runs->v[i];
		if (!pl_bundle_run_in_cmp(b->cmp, run->id))
			continue;
		fprintf(fp, "%s{\"id\": %lld, \"revision\": %d}", first ? "\n    " : ",\n    ", run->id,
		        run->revision);
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

/* sha256 of the selected runs as `list --format json` renders them. */
int pl_bundle_db_hash(struct bundle *b, struct pl_error *err)
{
	struct pl_run_list sel;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc = 0;

	pl_run_list_init(&sel);
	for (size_t i = 0; b->runs && i < b->runs->n && rc == 0; i++) {
		struct pl_run *r;
		if (!pl_bundle_run_in_cmp(b->cmp, b->runs->v[i].id))
			continue;
		r = pl_run_list_push(&sel);
		rc = r ? pl_run_copy(r, &b->runs->v[i]) : PL_ENOMEM;
	}
	f = rc == 0 ? open_memstream(&buf, &len) : NULL;
	if (!f) {
		pl_run_list_release(&sel);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	rc = pl_render_runs(f, &sel, PL_FMT_JSON, err);
	fclose(f);
	if (rc == 0 && pl_sha256_hex(buf, len, b->db_hash) != 0)
		rc = pl_error_set(err, PL_ENOMEM, "sha256 failed");
	free(buf);
	pl_run_list_release(&sel);
	return rc;
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
		const struct pl_jsonval *id, *rev;
		double vid, vrev;

		if (pl_jsonread_member(el, "id", &id, NULL) != 0 ||
		    pl_jsonread_member(el, "revision", &rev, NULL) != 0 ||
		    pl_jsonread_number(id, &vid, NULL) != 0 || pl_jsonread_number(rev, &vrev, NULL) != 0 ||
		    vid < 1 || vid > 9007199254740992.0 || vid != floor(vid) || vrev < 1 ||
		    vrev > 2147483647.0 || vrev != floor(vrev))
			goto bad;
		if (*n == cap) {
			struct pl_manifest_run *nv = realloc(*runs, (cap = cap ? 2 * cap : 64) * sizeof(*nv));
			if (!nv) {
				pl_jsonread_free(doc);
				free(*runs);
				*runs = NULL;
				*n = 0;
				return pl_error_set(err, PL_ENOMEM, "out of memory");
			}
			*runs = nv;
		}
		(*runs)[*n].id = (long long)vid;
		(*runs)[(*n)++].revision = (int)vrev;
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
	             "'runs' must be an array of {\"id\": RUN, \"revision\": N}, whole numbers >= 1");
	pl_error_at(err, path, 0, 0);
	pl_error_field(err, "runs");
	return PL_EINVALID;
}

int pl_manifest_gnuplot(const char *path, char *buf, size_t n)
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
	    pl_jsonread_member(pl_jsonread_root(doc), "gnuplot", &g, NULL) == 0 &&
	    pl_jsonread_string(g, &gs, NULL) == 0) {
		snprintf(buf, n, "%s", gs);
		found = 1;
	}
	free(text);
	pl_jsonread_free(doc);
	return found;
}
