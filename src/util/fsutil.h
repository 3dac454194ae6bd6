/*
 * util/fsutil.h — writing files so that a failure never leaves half of
 * one: mkdir -p, a temporary file created afresh (a symlink planted at its
 * name is removed, not followed), and an atomic write through
 * "<path>.tmp" and rename().
 */
#ifndef PL_UTIL_FSUTIL_H
#define PL_UTIL_FSUTIL_H

#include <stdio.h>

#include "util/error.h"

/* mkdir -p: creates dir and its missing parents (mode 0777 less umask).
 * Returns 0, PL_ENOMEM, or PL_EIO "cannot create directory 'DIR': REASON"
 * (also when dir exists but is not a directory). */
int pl_fs_mkdirs(const char *dir, struct pl_error *err);

/* "<dir>/<name>", newly allocated (caller frees); NULL when out of memory. */
char *pl_fs_path(const char *dir, const char *name);

/* "<path>.tmp", newly allocated (caller frees); NULL when out of memory. */
char *pl_fs_tmp_name(const char *path);

/* Creates tmp afresh for writing: whatever is at tmp (a planted symlink,
 * a stale file) is removed first, then tmp is created with O_EXCL and
 * O_NOFOLLOW, mode 0666 less umask. Returns the stream (caller fcloses),
 * or NULL with err set: PL_EIO "cannot write 'TMP': REASON". */
FILE *pl_fs_create_fresh(const char *tmp, struct pl_error *err);

/* Writes path atomically: fn writes the contents to a stream on
 * "<path>.tmp" (from pl_fs_create_fresh), which is flushed, closed and
 * renamed over path. fn returns 0 or a PL_E* code with err set; a bare
 * PL_EIO from fn is reworded "cannot write 'TMP': <errno text>". On any
 * failure the temporary file is removed and path is left as it was.
 * When path exists (symlinks followed) and is a FIFO, character device or
 * socket (/dev/stdout, /dev/null, a pipe), fn writes straight into it
 * (opened O_WRONLY, no O_CREAT, no O_TRUNC, no temporary file, no rename:
 * replacing it would swap a device for a regular file); a directory is
 * refused: PL_EIO "cannot write 'PATH': it is a directory".
 * Returns 0, or PL_ENOMEM / PL_EIO ("cannot write 'TMP': ...", "cannot
 * rename 'TMP' to 'PATH': ...", "cannot write 'PATH': ...") or fn's code,
 * with err set. */
int pl_fs_write_atomic(const char *path, int (*fn)(FILE *fp, void *ctx, struct pl_error *err),
                       void *ctx, struct pl_error *err);

#endif
