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
#include "render/spec.h"
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
