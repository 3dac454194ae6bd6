/*
 * util/spawn.h — running an external program (gnuplot) the one way:
 * fork() and execv() of an argv vector (never a shell), stdin from
 * /dev/null, stdout and stderr captured into buffers or discarded, in a
 * directory of the caller's choice, killed (SIGKILL, with its process
 * group) and reaped when it outlives a timeout.
 */
#ifndef PL_UTIL_SPAWN_H
#define PL_UTIL_SPAWN_H

#include <stddef.h>

#include "util/buf.h"
#include "util/error.h"

/* What to run. */
struct pl_spawn_opts {
	const char *const *argv; /* argv[0] is looked up with pl_spawn_find(); NULL-ended */
	const char *dir;         /* the child's working directory; NULL: ours */
	struct pl_buf *out;      /* stdout appended here; NULL: /dev/null */
	struct pl_buf *errout;   /* stderr appended here (may be out: both, interleaved); NULL: /dev/null */
	size_t max_capture;      /* bytes kept per buffer (0: no limit); the rest is read and dropped */
	unsigned timeout_s;      /* seconds before the child is killed; 0: no timeout */
};

/* Seconds a child may run unless PERFLEDGER_CHILD_TIMEOUT says otherwise,
 * and the largest value that setting may have. */
#define PL_SPAWN_TIMEOUT_DEFAULT 120
#define PL_SPAWN_TIMEOUT_MAX 86400

/* The program name runs as: a copy of name when it holds a '/', else the
 * first regular, executable PATH_DIR/name over the absolute entries of
 * $PATH (empty and relative entries are skipped: they name directories
 * relative to wherever the child runs). Caller frees with free(); NULL
 * with errno ENOENT when there is none (ENOMEM when out of memory). */
char *pl_spawn_find(const char *name);

/* The child timeout in seconds: $PERFLEDGER_CHILD_TIMEOUT (whole seconds,
 * 1..PL_SPAWN_TIMEOUT_MAX), or PL_SPAWN_TIMEOUT_DEFAULT when unset or
 * empty. Returns 0, or PL_EUSAGE "PERFLEDGER_CHILD_TIMEOUT must be whole
 * seconds from 1 to 86400, not 'V'" (then *secs is the default). */
int pl_spawn_timeout_setting(unsigned *secs, struct pl_error *err);

/* How the child ended, for callers that word the failure themselves. */
enum pl_spawn_end {
	PL_SPAWN_EXITED = 0, /* exited; the status is returned */
	PL_SPAWN_NOT_FOUND,  /* argv[0] not found (in PATH, or execv: ENOENT or ENOTDIR) */
	PL_SPAWN_NO_DIR,     /* could not enter opts->dir */
	PL_SPAWN_EXEC,       /* execv failed otherwise (permission, format) */
	PL_SPAWN_SIGNALED,   /* killed by a signal (*detail: its number) */
	PL_SPAWN_TIMED_OUT,  /* killed after opts->timeout_s seconds */
	PL_SPAWN_FAILED      /* pipe, fork or wait failed in the parent */
};

/* Runs opts->argv and waits for it. Returns its exit status (0..255) when
 * it exited, else a negative code with err set and *end (may be NULL) and
 * *detail (may be NULL: errno or signal number) saying why:
 *   PL_ETOOL "cannot run 'P': No such file or directory" (not found),
 *   PL_ETOOL "cannot enter directory 'D': REASON",
 *   PL_ETOOL "cannot run 'P': REASON",
 *   PL_ETOOL "'P' was killed by signal N",
 *   PL_ETOOL "'P' timed out after S s",
 *   PL_ETOOL "cannot start 'P': REASON" (pipe, fork), "cannot wait for 'P': REASON".
 * Captured output may be cut at max_capture bytes; a buffer that could not
 * grow has its oom flag set (the child still runs to its end). */
int pl_spawn_run(const struct pl_spawn_opts *opts, enum pl_spawn_end *end, int *detail,
                 struct pl_error *err);

#endif
