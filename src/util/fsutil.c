/*
 * fsutil.c — mkdir -p and atomic writes (see util/fsutil.h); the render
 * layer writes every output file through these.
 */
#include "util/fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int pl_fs_mkdirs(const char *dir, struct pl_error *err)
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

char *pl_fs_path(const char *dir, const char *name)
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

char *pl_fs_tmp_name(const char *path)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 5);

	if (tmp) {
		memcpy(tmp, path, n);
		memcpy(tmp + n, ".tmp", 5);
	}
	return tmp;
}

FILE *pl_fs_create_fresh(const char *tmp, struct pl_error *err)
{
	FILE *fp;
	int fd;

	/* A symlink planted at the temporary name must not be followed: remove
	 * whatever is there and create the file afresh (O_EXCL, O_NOFOLLOW).
	 * A rename of tmp then replaces a link at the final path instead of
	 * writing through it. */
	remove(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!fp) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		pl_error_set(err, PL_EIO, "cannot write '%s': %s", tmp, strerror(e));
	}
	return fp;
}

/* Writes fn's output straight into path, an existing FIFO, character
 * device or socket: opened O_WRONLY without O_CREAT or O_TRUNC, nothing
 * renamed over it (rename() would replace /dev/null with a regular file). */
static int write_into(const char *path, int (*fn)(FILE *fp, void *ctx, struct pl_error *err),
                      void *ctx, struct pl_error *err)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY), rc;
	FILE *fp = fd >= 0 ? fdopen(fd, "wb") : NULL;

	if (!fp) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return pl_error_set(err, PL_EIO, "cannot write '%s': %s", path, strerror(e));
	}
	errno = 0;
	rc = fn(fp, ctx, err);
	if (rc == PL_EIO)
		pl_error_set(err, PL_EIO, "cannot write '%s': %s", path,
		             errno ? strerror(errno) : "write error");
	if (rc == 0 && (fflush(fp) != 0 || ferror(fp)))
		rc = pl_error_set(err, PL_EIO, "cannot write '%s': %s", path, strerror(errno));
	if (fclose(fp) != 0 && rc == 0)
		rc = pl_error_set(err, PL_EIO, "cannot write '%s': %s", path, strerror(errno));
	return rc;
}

int pl_fs_write_atomic(const char *path, int (*fn)(FILE *fp, void *ctx, struct pl_error *err),
                       void *ctx, struct pl_error *err)
{
	char *tmp;
	FILE *fp;
	struct stat sb;
	int rc;

	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) { /* symlinks followed */
		if (S_ISDIR(sb.st_mode))
			return pl_error_set(err, PL_EIO, "cannot write '%s': it is a directory", path);
		return write_into(path, fn, ctx, err);
	}
	if (!(tmp = pl_fs_tmp_name(path)))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (!(fp = pl_fs_create_fresh(tmp, err))) {
		free(tmp);
		return PL_EIO;
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
