/*
 * bundle_verify.c — compares a bundle with a fresh re-render, file by
 * file and byte for byte, for `perfledger verify` (which re-renders the
 * bundle's definition with its language and epoch into a temporary
 * directory and calls pl_bundle_compare). Nothing in the bundle is
 * trusted: only regular files are read (a FIFO, device or symlink is
 * refused by name), sizes are compared before contents, and every read is
 * capped (util's pl_file_open / pl_file_read_fd).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/bundle.h"
#include "render/bundle_impl.h"
#include "render/render_impl.h"
#include "adapters/jsonread.h"
#include "core/hash.h"
#include "render/spec.h"
#include "util/alloc.h"
#include "util/file.h"

/* Opens dir/name as a regular file of at most PL_RENDER_READ_MAX bytes
 * (O_NONBLOCK, fstat on the descriptor: a FIFO or device is refused, never
 * waited on). Returns the descriptor or a negative PL_E* code. */
static int open_reg(const char *path, struct stat *sb, struct pl_error *err)
{
	return pl_file_open(-1, path, path, PL_RENDER_READ_MAX, sb, NULL, err);
}

/* Sizes first (files of other sizes differ without being read), then the
 * bytes, each read capped. */
static int same_file(const char *a, const char *b, int *same, struct pl_error *err)
{
	struct stat sa, sb;
	char *x = NULL, *y = NULL;
	size_t nx, ny;
	int fa, fb, rc;

	*same = 0;
	/* the sizes alone first: a 3 GB sparse file differs unopened */
	if (lstat(a, &sa) == 0 && lstat(b, &sb) == 0 && S_ISREG(sa.st_mode) && S_ISREG(sb.st_mode) &&
	    sa.st_size != sb.st_size)
		return 0;
	fa = open_reg(a, &sa, err);
	if (fa < 0)
		return fa;
	fb = open_reg(b, &sb, err);
	if (fb < 0) {
		close(fa);
		return fb;
	}
	if (sa.st_size != sb.st_size) {
		close(fa);
		close(fb);
		return 0;
	}
	rc = pl_file_read_fd(fa, a, (size_t)sa.st_size, PL_RENDER_READ_MAX, &x, &nx, NULL, err);
	if (rc == 0)
		rc = pl_file_read_fd(fb, b, (size_t)sb.st_size, PL_RENDER_READ_MAX, &y, &ny, NULL, err);
	close(fa);
	close(fb);
	if (rc == 0)
		*same = nx == ny && memcmp(x, y, nx) == 0;
	free(x);
	free(y);
	return rc;
}

/* Refuses the first entry of the bundle that is not a regular file (a
 * FIFO, a device, a symlink, a directory), naming it: verify reads nothing
 * it cannot bound. Names starting with '.' are not part of a bundle. */
static int only_regular(const char *dir, struct pl_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return pl_error_set(err, PL_EIO, "cannot open directory '%s': %s", dir, strerror(errno));
	while (rc == 0 && (e = readdir(d)) != NULL) {
		struct stat st;
		char *path;
		if (e->d_name[0] == '.')
			continue;
		if (!(path = pl_fs_path(dir, e->d_name)))
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		else if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
			rc = pl_error_set(err, PL_EIO, "cannot read '%s': not a regular file (%s)", path,
			                  pl_file_kind(st.st_mode));
		free(path);
	}
	closedir(d);
	return rc;
}

int pl_bundle_compare(const char *bundle_dir, const char *fresh_dir, pl_bundle_diff_cb cb,
                      void *ctx, size_t *ndiff, struct pl_error *err)
{
	char **a = NULL, **f = NULL;
	size_t na = 0, nf = 0, i = 0, j = 0;
	int rc;

	*ndiff = 0;
	rc = only_regular(bundle_dir, err);
	if (rc == 0)
		rc = pl_bundle_list_dir(bundle_dir, &a, &na, err);
	if (rc == 0)
		rc = pl_bundle_list_dir(fresh_dir, &f, &nf, err);
	while (rc == 0 && (i < na || j < nf)) {
		int c = i == na ? 1 : j == nf ? -1 : strcmp(a[i], f[j]);
		if (c < 0) {
			cb(ctx, a[i++], "unexpected");
			(*ndiff)++;
		} else if (c > 0) {
			cb(ctx, f[j++], "missing");
			(*ndiff)++;
		} else {
			char *pa = pl_fs_path(bundle_dir, a[i]), *pf = pl_fs_path(fresh_dir, f[j]);
			int same = 0;
			rc = pa && pf ? same_file(pa, pf, &same, err)
			              : pl_error_set(err, PL_ENOMEM, "out of memory");
			free(pa);
			free(pf);
			if (rc == 0 && !same) {
				cb(ctx, a[i], "differs");
				(*ndiff)++;
			}
			i++;
			j++;
		}
	}
	pl_bundle_free_names(a, na);
	pl_bundle_free_names(f, nf);
	return rc;
}

/* ------------------------------------------------------ offline: no ledger */

/* One "outputs" entry of a manifest. */
struct listed {
	char *path;      /* file name; owned */
	char sha256[65]; /* as listed */
};

static void free_listed(struct listed *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

/* The manifest's "outputs" into *out (*n), and its lang, epoch and tool
 * version. */
static int read_manifest(const char *path, struct listed **out, size_t *n, char *lang, size_t nlang,
                         long long *epoch, char *ver, size_t nver, struct pl_error *err)
{
	char *buf;
	size_t len, cap = 0;
	struct pl_jsonread *doc = NULL;
	struct pl_jsonread_iter it;
	const struct pl_jsonval *arr, *el, *p, *h;
	int rc;

	*out = NULL;
	*n = 0;
	if ((rc = pl_manifest_read(path, lang, nlang, epoch, err)))
		return rc;
	if (!pl_manifest_string(path, "perfledger", ver, nver))
		ver[0] = '\0';
	if ((rc = pl_file_read(path, PL_RENDER_READ_MAX, &buf, &len, err)))
		return rc;
	rc = pl_jsonread_parse(path, buf, len, &doc, err);
	free(buf);
	if (rc)
		return rc;
	if (pl_jsonread_member(pl_jsonread_root(doc), "outputs", &arr, NULL) != 0 ||
	    pl_jsonread_iter(arr, &it, NULL) != 0)
		goto bad;
	while (pl_jsonread_next(&it, NULL, &el)) {
		const char *ps, *hs;
		if (pl_jsonread_member(el, "path", &p, NULL) != 0 ||
		    pl_jsonread_string(p, &ps, NULL) != 0 || !*ps || strchr(ps, '/') ||
		    pl_jsonread_member(el, "sha256", &h, NULL) != 0 ||
		    pl_jsonread_string(h, &hs, NULL) != 0 || strlen(hs) != 64)
			goto bad;
		if (PL_ALLOC_GROW(*out, *n + 1, cap) || !((*out)[*n].path = strdup(ps))) {
			pl_jsonread_free(doc);
			free_listed(*out, *n);
			*out = NULL;
			*n = 0;
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		}
		snprintf((*out)[(*n)++].sha256, 65, "%s", hs);
	}
	pl_jsonread_free(doc);
	return 0;
bad:
	pl_jsonread_free(doc);
	free_listed(*out, *n);
	*out = NULL;
	*n = 0;
	pl_error_set(err, PL_EINVALID, "'outputs' must be an array of {\"path\": NAME, \"sha256\": HEX}");
	pl_error_at(err, path, 0, 0);
	pl_error_field(err, "outputs");
	return PL_EINVALID;
}

/* The content identities of the runs of runs.jsonl (export lines): sha256,
 * record and record_id of "provenance", the revision 1 + the highest of
 * "revisions". */
static int read_runs(const char *path, struct pl_bundle_ident **out, size_t *n,
                     struct pl_error *err)
{
	char *buf;
	size_t len, cap = 0, at = 0, line = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if ((rc = pl_file_read(path, PL_RENDER_READ_MAX, &buf, &len, err)))
		return rc;
	while (rc == 0 && at < len) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - buf) : len;
		struct pl_jsonread *doc = NULL;
		const struct pl_jsonval *prov, *v, *revs, *el;
		struct pl_jsonread_iter it;
		const char *sha = NULL, *rid = "";
		double rec = -1, rv;
		int top = 1;

		line++;
		if (end == at) {
			at = end + 1;
			continue;
		}
		rc = pl_jsonread_parse(path, buf + at, end - at, &doc, err);
		if (rc)
			break;
		if (pl_jsonread_member(pl_jsonread_root(doc), "provenance", &prov, NULL) == 0 &&
		    pl_jsonread_member(prov, "sha256", &v, NULL) == 0 &&
		    pl_jsonread_string(v, &sha, NULL) == 0 && strlen(sha) == 64 &&
		    pl_jsonread_member(prov, "record", &v, NULL) == 0 &&
		    pl_jsonread_number(v, &rec, NULL) == 0 && rec >= 0 && rec <= 2147483647.0) {
			if (pl_jsonread_member(prov, "record_id", &v, NULL) == 0 &&
			    (pl_jsonread_string(v, &rid, NULL) != 0 || strlen(rid) != 32))
				sha = NULL;
		} else {
			sha = NULL;
		}
		if (sha && pl_jsonread_member(pl_jsonread_root(doc), "revisions", &revs, NULL) == 0 &&
		    pl_jsonread_iter(revs, &it, NULL) == 0)
			while (pl_jsonread_next(&it, NULL, &el))
				if (pl_jsonread_member(el, "revision", &v, NULL) == 0 &&
				    pl_jsonread_number(v, &rv, NULL) == 0 && rv > top && rv < 2147483647.0)
					top = (int)rv;
		if (!sha) {
			pl_jsonread_free(doc);
			rc = pl_error_set(err, PL_EINVALID, "not a perfledger export line (no provenance "
			                                    "sha256 and record)");
			pl_error_at(err, path, (int)line, 1);
			break;
		}
		if (PL_ALLOC_GROW(*out, *n + 1, cap)) {
			pl_jsonread_free(doc);
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		memset(&(*out)[*n], 0, sizeof(**out));
		snprintf((*out)[*n].sha256, 65, "%s", sha);
		(*out)[*n].record = (long)rec;
		snprintf((*out)[*n].record_id, 33, "%s", rid);
		(*out)[*n].revision = top;
		if (pl_sha256_hex(buf + at, end - at, (*out)[*n].line)) {
			pl_jsonread_free(doc);
			rc = pl_error_set(err, PL_ENOMEM, "sha256 failed");
			break;
		}
		(*n)++;
		pl_jsonread_free(doc);
		at = end + 1;
	}
	free(buf);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

int pl_bundle_offline(const char *dir, pl_bundle_diff_cb cb, void *ctx, size_t *ndiff,
                      char id[PL_BUNDLE_ID_SIZE], char listed_id[PL_BUNDLE_ID_SIZE],
                      struct pl_error *err)
{
	struct listed *out = NULL;
	struct pl_bundle_ident *runs = NULL;
	size_t nout = 0, nruns = 0, nnames = 0;
	char **names = NULL, *mpath = NULL, *dpath = NULL, *rpath = NULL, *def = NULL;
	char lang[16], ver[64], hex[65];
	long long epoch;
	size_t ndef = 0;
	int rc;

	*ndiff = 0;
	id[0] = listed_id[0] = '\0';
	mpath = pl_fs_path(dir, "manifest.json");
	dpath = pl_fs_path(dir, "definition.json");
	rpath = pl_fs_path(dir, "runs.jsonl");
	if (!mpath || !dpath || !rpath) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	rc = only_regular(dir, err);
	if (rc == 0)
		rc = read_manifest(mpath, &out, &nout, lang, sizeof(lang), &epoch, ver, sizeof(ver), err);
	if (rc == 0)
		rc = pl_bundle_list_dir(dir, &names, &nnames, err);
	/* every listed file at its sha256, then the files nobody listed */
	for (size_t i = 0; rc == 0 && i < nout; i++) {
		char *p = pl_fs_path(dir, out[i].path);
		char *buf = NULL;
		size_t len;
		struct stat sb;
		if (!p) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		if (lstat(p, &sb) != 0) {
			cb(ctx, out[i].path, "missing");
			(*ndiff)++;
		} else if ((rc = pl_file_read(p, PL_RENDER_READ_MAX, &buf, &len, err)) == 0) {
			if (pl_sha256_hex(buf, len, hex))
				rc = pl_error_set(err, PL_ENOMEM, "sha256 failed");
			else if (strcmp(hex, out[i].sha256) != 0) {
				cb(ctx, out[i].path, "differs");
				(*ndiff)++;
			}
		}
		free(buf);
		free(p);
	}
	for (size_t i = 0; rc == 0 && i < nnames; i++) {
		size_t k = 0;
		if (strcmp(names[i], "manifest.json") == 0)
			continue;
		while (k < nout && strcmp(out[k].path, names[i]) != 0)
			k++;
		if (k == nout) {
			cb(ctx, names[i], "unexpected");
			(*ndiff)++;
		}
	}
	/* the id, from what the bundle ships */
	if (rc == 0) {
		struct stat sb;
		pl_manifest_string(mpath, "bundle_id", listed_id, PL_BUNDLE_ID_SIZE);
		if (lstat(dpath, &sb) == 0 && lstat(rpath, &sb) == 0 &&
		    (rc = pl_file_read(dpath, PL_RENDER_READ_MAX, &def, &ndef, err)) == 0 &&
		    (rc = read_runs(rpath, &runs, &nruns, err)) == 0) {
			pl_bundle_ident_sort(runs, nruns);
			if (pl_bundle_id_compute(def, ndef, lang, epoch, ver, runs, nruns, id))
				rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		}
	}
out:
	free_listed(out, nout);
	pl_bundle_free_names(names, nnames);
	free(runs);
	free(def);
	free(mpath);
	free(dpath);
	free(rpath);
	return rc;
}
