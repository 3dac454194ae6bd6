/*
 * files.c — the files renderers write: a path in a directory, mkdir -p,
 * and writing a file through "<path>.tmp" and a rename, so that a failed
 * render never leaves a half-written file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/render_impl.h"

int pl_render_mkdirs(const char *dir, struct pl_error *err)
{
	size_t n = strlen(dir);
	char *p = malloc(n + 1);
	struct stat st;

	if (!p)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	memcpy(p, dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			int e = errno;
			free(p);
			return pl_error_set(err, PL_EIO, "cannot create directory '%s': %s", dir,
			                    strerror(e));
		}
		if (i < n)
			p[i] = '/';
	}
	free(p);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return pl_error_set(err, PL_EIO, "cannot create directory '%s': %s", dir,
		                    stat(dir, &st) != 0 ? strerror(errno) : "not a directory");
	return 0;
}

char *pl_render_path(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = malloc(a + b + 2);

	if (!p)
		return NULL;
	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b + 1);
	return p;
}

int pl_render_write_file(const char *path, int (*fn)(FILE *fp, void *ctx, struct pl_error *err),
                         void *ctx, struct pl_error *err)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 5);
	FILE *fp;
	int rc, fd;

	if (!tmp)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".tmp", 5);
	/* A symlink planted at the temporary name must not be followed: remove
	 * whatever is there and create the file afresh (O_EXCL, O_NOFOLLOW).
	 * The rename below then replaces a link at path instead of writing
	 * through it. */
	remove(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
	fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!fp) {
		if (fd >= 0)
			close(fd);
		rc = pl_error_set(err, PL_EIO, "cannot write '%s': %s", tmp, strerror(errno));
		free(tmp);
		return rc;
	}
	errno = 0;
	rc = fn(fp, ctx, err);
	if (rc == PL_EIO) /* a failed write left its reason (ENOSPC, EIO) in errno */
		pl_error_set(err, PL_EIO, "cannot write '%s': %s", tmp,
		             errno ? strerror(errno) : "write error");
	if (rc == 0 && (fflush(fp) != 0 || ferror(fp)))
		rc = pl_error_set(err, PL_EIO, "cannot write '%s': %s", tmp, strerror(errno));
	if (fclose(fp) != 0 && rc == 0)
		rc = pl_error_set(err, PL_EIO, "cannot write '%s': %s", tmp, strerror(errno));
	if (rc == 0 && rename(tmp, path) != 0)
		rc = pl_error_set(err, PL_EIO, "cannot rename '%s' to '%s': %s", tmp, path,
		                  strerror(errno));
	if (rc != 0)
		remove(tmp);
	free(tmp);
	return rc;
}
