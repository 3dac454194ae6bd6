/*
 * file.c — reading a whole regular file safely (see util/file.h): one
 * open with O_NONBLOCK, fstat() on that descriptor, a size cap checked
 * before and during the read.
 */
#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void set_why(struct pl_file_why *why, enum pl_file_reason r, int e)
{
	if (why) {
		why->reason = r;
		why->errnum = e;
	}
}

const char *pl_file_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISLNK(mode))
		return "a symbolic link";
	return "an unknown kind of file";
}

static int too_big(const char *path, size_t max, struct pl_file_why *why, struct pl_error *err)
{
	set_why(why, PL_FILE_TOO_BIG, 0);
	return pl_error_set(err, PL_EINVALID, "cannot read '%s': larger than the cap of %zu bytes",
	                    path, max);
}

int pl_file_open(int dfd, const char *name, const char *path, size_t max, struct stat *sbp,
                 struct pl_file_why *why, struct pl_error *err)
{
	struct stat sb;
	int fd, e;

	set_why(why, PL_FILE_OK, 0);
	fd = dfd >= 0 ? openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
	              : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		e = errno;
		set_why(why, PL_FILE_OPEN, e);
			return pl_error_set(err, PL_EIO, "cannot open '%s': %s", path, strerror(e));
	}
	if (fstat(fd, &sb) != 0) {
		e = errno;
		close(fd);
		set_why(why, PL_FILE_READ, e);
			return pl_error_set(err, PL_EIO, "cannot read '%s': %s", path, strerror(e));
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
			if (S_ISDIR(sb.st_mode)) {
			set_why(why, PL_FILE_DIR, 0);
			return pl_error_set(err, PL_EIO, "cannot read '%s': Is a directory", path);
		}
		set_why(why, PL_FILE_NOT_REGULAR, 0);
		return pl_error_set(err, PL_EIO, "cannot read '%s': not a regular file (%s)", path,
		                    pl_file_kind(sb.st_mode));
	}
	if (sb.st_size < 0 || (unsigned long long)sb.st_size > max) {
		close(fd);
		return too_big(path, max, why, err);
	}
	if (sbp)
		*sbp = sb;
	return fd;
}

int pl_file_read_fd(int fd, const char *path, size_t size_hint, size_t max, char **out,
                    size_t *len, struct pl_file_why *why, struct pl_error *err)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;

	*out = NULL;
	*len = 0;
	set_why(why, PL_FILE_OK, 0);
	if (size_hint > max)
		size_hint = 0;
	for (;;) {
		ssize_t got;
		if (n == cap) {
			/* one byte more than the hint, to see the end (or growth);
			 * never more than max + 1, to see that the cap is passed */
			size_t ncap = cap ? cap * 2 : (size_hint ? size_hint + 1 : 65536);
			char *nb;
			if (ncap > max + 1 || ncap < cap)
				ncap = max + 1;
			if (!(nb = realloc(buf, ncap + 1))) {
				free(buf);
				set_why(why, PL_FILE_NOMEM, 0);
				return pl_error_set(err, PL_ENOMEM, "out of memory");
			}
			buf = nb;
			cap = ncap;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0) {
			int e = errno;
			if (e == EINTR)
				continue;
			free(buf);
			set_why(why, PL_FILE_READ, e);
					return pl_error_set(err, PL_EIO, "cannot read '%s': %s", path, strerror(e));
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > max) {
			free(buf);
			return too_big(path, max, why, err);
		}
		/* A regular file of the size fstat() gave that fell short of the
		 * one byte more asked for is at its end: no read() to see 0 (a
		 * file that grew fills that byte and is read on) */
		if (size_hint && n == size_hint && n < cap)
			break;
	}
	if (!buf && !(buf = malloc(1))) {
		set_why(why, PL_FILE_NOMEM, 0);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int pl_file_read_at(int dfd, const char *name, const char *path, size_t max, char **out,
                    size_t *len, struct pl_file_why *why, struct pl_error *err)
{
	struct stat sb;
	int fd, rc;

	*out = NULL;
	*len = 0;
	memset(&sb, 0, sizeof(sb)); /* gcc -O2 cannot see that a valid fd means sb is set */
	fd = pl_file_open(dfd, name, path, max, &sb, why, err);
	if (fd < 0)
		return fd;
	rc = pl_file_read_fd(fd, path, (size_t)sb.st_size, max, out, len, why, err);
	close(fd);
	return rc;
}

int pl_file_read(const char *path, size_t max, char **out, size_t *len, struct pl_error *err)
{
	return pl_file_read_at(-1, path, path, max, out, len, NULL, err);
}
