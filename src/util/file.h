/*
 * util/file.h — the one way perfledger reads a whole file: opened with
 * O_NONBLOCK | O_CLOEXEC (a FIFO cannot hang open()), checked with fstat()
 * on the open descriptor (no gap between the check and the read), regular
 * files only (a FIFO, device, socket or directory is refused, naming the
 * path and what it is), and a size cap that both the check and the read
 * loop enforce (a file that grows, /dev/zero behind a symlink).
 *
 * Errors leave err's location as it was (a caller that reports errors
 * at a file calls pl_error_at() itself) and read:
 *   "cannot open 'P': <strerror>"
 *   "cannot read 'P': Is a directory"
 *   "cannot read 'P': not a regular file (a FIFO)"  (or a character device,
 *       a block device, a socket)
 *   "cannot read 'P': larger than the cap of N bytes"
 *   "cannot read 'P': <strerror>"
 *   "out of memory"
 * Callers that word a refusal their own way (the importer, its sidecars)
 * look at struct pl_file_why instead of parsing the message.
 */
#ifndef PL_UTIL_FILE_H
#define PL_UTIL_FILE_H

#include <stddef.h>
#include <sys/stat.h>

#include "util/error.h"

/* Why a read failed. */
enum pl_file_reason {
	PL_FILE_OK = 0,      /* no failure */
	PL_FILE_OPEN,        /* open() failed; errnum says why (ENOENT: missing) */
	PL_FILE_DIR,         /* a directory */
	PL_FILE_NOT_REGULAR, /* a FIFO, device or socket */
	PL_FILE_TOO_BIG,     /* more than the cap */
	PL_FILE_READ,        /* fstat() or read() failed; errnum says why */
	PL_FILE_NOMEM        /* out of memory */
};

struct pl_file_why {
	enum pl_file_reason reason; /* PL_FILE_OK on success */
	int errnum;                 /* errno for PL_FILE_OPEN and PL_FILE_READ, else 0 */
};

/* What a file type is, in words for messages ("a FIFO", "a directory",
 * "a character device", "a block device", "a socket", "a symbolic link",
 * "a regular file", "an unknown kind of file"). */
const char *pl_file_kind(mode_t mode);

/* Opens path (or name relative to the directory descriptor dfd when
 * dfd >= 0; path is then only for messages) for reading, O_NONBLOCK and
 * O_CLOEXEC, and checks with fstat() that it is a regular file of at most
 * max bytes. *sb (may be NULL) gets the fstat() result. why (may be NULL)
 * gets the reason of a failure. Returns the descriptor (caller closes; the
 * O_NONBLOCK flag is harmless on a regular file), or a negative PL_EIO /
 * PL_EINVALID (over the cap) with err set. */
int pl_file_open(int dfd, const char *name, const char *path, size_t max, struct stat *sb,
                 struct pl_file_why *why, struct pl_error *err);

/* Reads all of fd, at most max bytes, into *out (caller frees; always
 * NUL-terminated, the NUL not counted in *len). size_hint is the size
 * fstat() gave (0: unknown), so a regular file is read in one allocation.
 * path is for messages. Returns 0, or PL_EIO / PL_EINVALID (more than max)
 * / PL_ENOMEM with err set and *out NULL. */
int pl_file_read_fd(int fd, const char *path, size_t size_hint, size_t max, char **out,
                    size_t *len, struct pl_file_why *why, struct pl_error *err);

/* pl_file_open() then pl_file_read_fd(): the whole regular file at path
 * (name relative to dfd when dfd >= 0), at most max bytes. Returns 0 or a
 * negative PL_E* code with err and why (may be NULL) set. */
int pl_file_read_at(int dfd, const char *name, const char *path, size_t max, char **out,
                    size_t *len, struct pl_file_why *why, struct pl_error *err);

/* pl_file_read_at() of path, with no directory descriptor and no why. */
int pl_file_read(const char *path, size_t max, char **out, size_t *len, struct pl_error *err);

#endif
