/*
 * bundle_verify.c — compares a bundle with a fresh re-render, file by
 * file and byte for byte, for `perfledger verify` (which re-renders the
 * bundle's definition with its language and epoch into a temporary
 * directory and calls pl_bundle_compare).
 */
#include <stdlib.h>
#include <string.h>

#include "render/bundle.h"
#include "render/bundle_impl.h"
#include "render/render_impl.h"
#include "render/spec.h"
#include "util/file.h"

static int same_file(const char *a, const char *b, int *same, struct pl_error *err)
{
	char *x, *y;
	size_t nx, ny;
	int rc = pl_file_read(a, PL_RENDER_READ_MAX, &x, &nx, err);

	if (rc)
		return rc;
	rc = pl_file_read(b, PL_RENDER_READ_MAX, &y, &ny, err);
	if (rc) {
		free(x);
		return rc;
	}
	*same = nx == ny && memcmp(x, y, nx) == 0;
	free(x);
	free(y);
	return 0;
}

int pl_bundle_compare(const char *bundle_dir, const char *fresh_dir, pl_bundle_diff_cb cb,
                      void *ctx, size_t *ndiff, struct pl_error *err)
{
	char **a = NULL, **f = NULL;
	size_t na = 0, nf = 0, i = 0, j = 0;
	int rc;

	*ndiff = 0;
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
