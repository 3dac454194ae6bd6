/*
 * spawn.c — fork/exec with captured output and a timeout (see
 * util/spawn.h). The child reports a failed chdir() or execv() through a
 * close-on-exec pipe, so the parent tells "not found" from "exited 127".
 * It runs in its own process group so that a timeout kills what it
 * started too, and the pipes it held are closed.
 */
#include "util/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

static void cloexec(int fd)
{
	fcntl(fd, F_SETFD, FD_CLOEXEC);
}

/* Appends what fd has to b (kept up to max bytes; 0: no limit); closes fd
 * at its end. */
static void drain(int *fd, struct pl_buf *b, size_t max)
{
	char chunk[4096];
	ssize_t k = read(*fd, chunk, sizeof(chunk));

	if (k < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (k <= 0) {
		close_fd(fd);
		return;
	}
	if (max == 0 || b->len < max) {
		size_t keep = (size_t)k;
		if (max && keep > max - b->len)
			keep = max - b->len;
		pl_buf_add(b, chunk, keep);
	}
}

char *pl_spawn_find(const char *name)
{
	const char *path = getenv("PATH"), *p;
	size_t nlen;

	if (!name || !*name) {
		errno = ENOENT;
		return NULL;
	}
	if (strchr(name, '/')) {
		char *copy = strdup(name);
		if (!copy)
			errno = ENOMEM;
		return copy;
	}
	nlen = strlen(name);
	for (p = path ? path : ""; *p;) {
		size_t dlen = strcspn(p, ":");
		/* only absolute entries: an empty or relative one means a directory
		 * relative to where the child runs (the output directory) */
		if (dlen > 0 && p[0] == '/') {
			char *cand = malloc(dlen + 1 + nlen + 1);
			struct stat st;
			if (!cand) {
				errno = ENOMEM;
				return NULL;
			}
			memcpy(cand, p, dlen);
			cand[dlen] = '/';
			memcpy(cand + dlen + 1, name, nlen + 1);
			if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
				return cand;
			free(cand);
		}
		p += dlen;
		if (*p == ':')
			p++;
	}
	errno = ENOENT;
	return NULL;
}

int pl_spawn_timeout_setting(unsigned *secs, struct pl_error *err)
{
	const char *v = getenv("PERFLEDGER_CHILD_TIMEOUT");
	char *end = NULL;
	long n;

	*secs = PL_SPAWN_TIMEOUT_DEFAULT;
	if (!v || !*v)
		return 0;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno != 0 || end == v || *end != '\0' || n < 1 || n > PL_SPAWN_TIMEOUT_MAX || v[0] == '+' ||
	    v[0] == ' ')
		return pl_error_set(err, PL_EUSAGE,
		                    "PERFLEDGER_CHILD_TIMEOUT must be whole seconds from 1 to %d, not '%.40s'",
		                    PL_SPAWN_TIMEOUT_MAX, v);
	*secs = (unsigned)n;
	return 0;
}

/* The child: never returns. */
static void child(const struct pl_spawn_opts *o, const char *path, int rep, int out, int errout)
{
	int report[2] = {0, 0};
	int devnull;

	setpgid(0, 0);
	if (o->dir && chdir(o->dir) != 0) {
		report[0] = 1;
		report[1] = errno;
		(void)!write(rep, report, sizeof(report));
		_exit(127);
	}
	devnull = open("/dev/null", O_RDWR);
	if (devnull >= 0) {
		dup2(devnull, STDIN_FILENO);
		if (out < 0)
			dup2(devnull, STDOUT_FILENO);
		if (errout < 0)
			dup2(devnull, STDERR_FILENO);
	}
	if (out >= 0)
		dup2(out, STDOUT_FILENO);
	if (errout >= 0)
		dup2(errout, STDERR_FILENO);
	if (devnull > STDERR_FILENO)
		close(devnull);
	if (out > STDERR_FILENO)
		close(out);
	if (errout > STDERR_FILENO && errout != out)
		close(errout);
	execv(path, (char *const *)o->argv);
	report[0] = 2;
	report[1] = errno;
	(void)!write(rep, report, sizeof(report));
	_exit(127);
}

static int fail(enum pl_spawn_end *end, int *detail, enum pl_spawn_end why, int d)
{
	if (end)
		*end = why;
	if (detail)
		*detail = d;
	return PL_ETOOL;
}

/* One function of about 120 lines: the pipes, the pid and the deadline
 * are shared by the read loop, the wait and the kill. */
static int spawn_path(const struct pl_spawn_opts *o, const char *path, enum pl_spawn_end *end,
                      int *detail, struct pl_error *err)
{
	const char *prog = o->argv[0];
	int rep[2] = {-1, -1}, po[2] = {-1, -1}, pe[2] = {-1, -1};
	int same = o->out && o->out == o->errout, status = 0, timed_out = 0, report[2] = {0, 0};
	long long deadline = o->timeout_s ? now_ms() + (long long)o->timeout_s * 1000 : 0;
	ssize_t k;
	pid_t pid;

	fail(end, detail, PL_SPAWN_EXITED, 0);
	if (pipe(rep) != 0 || (o->out && pipe(po) != 0) || (o->errout && !same && pipe(pe) != 0)) {
		int e = errno;
		close_fd(&rep[0]), close_fd(&rep[1]), close_fd(&po[0]), close_fd(&po[1]);
		pl_error_set(err, PL_ETOOL, "cannot start '%s': %s", prog, strerror(e));
		return fail(end, detail, PL_SPAWN_FAILED, e);
	}
	cloexec(rep[0]), cloexec(rep[1]);
	if (po[0] >= 0)
		cloexec(po[0]);
	if (pe[0] >= 0)
		cloexec(pe[0]);
	pid = fork();
	if (pid < 0) {
		int e = errno;
		close_fd(&rep[0]), close_fd(&rep[1]), close_fd(&po[0]), close_fd(&po[1]);
		close_fd(&pe[0]), close_fd(&pe[1]);
		pl_error_set(err, PL_ETOOL, "cannot start '%s': %s", prog, strerror(e));
		return fail(end, detail, PL_SPAWN_FAILED, e);
	}
	if (pid == 0)
		child(o, path, rep[1], po[1], same ? po[1] : pe[1]);
	setpgid(pid, pid); /* as the child does: whichever runs first */
	close_fd(&rep[1]), close_fd(&po[1]), close_fd(&pe[1]);

	while (po[0] >= 0 || pe[0] >= 0) {
		struct pollfd fds[2];
		int n = 0, wait_ms = -1;
		if (deadline) {
			long long left = deadline - now_ms();
			if (left <= 0) {
				timed_out = 1;
				break;
			}
			wait_ms = left > 100 ? 100 : (int)left;
		}
		if (po[0] >= 0)
			fds[n++] = (struct pollfd){.fd = po[0], .events = POLLIN};
		if (pe[0] >= 0)
			fds[n++] = (struct pollfd){.fd = pe[0], .events = POLLIN};
		if (poll(fds, (nfds_t)n, wait_ms) <= 0)
			continue; /* a timeout slice or EINTR */
		for (int i = 0; i < n; i++) {
			if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (fds[i].fd == po[0])
				drain(&po[0], o->out, o->max_capture);
			else
				drain(&pe[0], o->errout, o->max_capture);
		}
	}
	while (!timed_out) {
		pid_t w = waitpid(pid, &status, deadline ? WNOHANG : 0);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			int e = errno;
			close_fd(&po[0]), close_fd(&pe[0]), close_fd(&rep[0]);
			pl_error_set(err, PL_ETOOL, "cannot wait for '%s': %s", prog, strerror(e));
			return fail(end, detail, PL_SPAWN_FAILED, e);
		}
		if (w == 0) {
			struct timespec ts = {0, 10 * 1000000L};
			if (now_ms() >= deadline)
				timed_out = 1;
			else
				nanosleep(&ts, NULL);
		}
	}
	if (timed_out) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	close_fd(&po[0]), close_fd(&pe[0]);
	do {
		k = read(rep[0], report, sizeof(report));
	} while (k < 0 && errno == EINTR);
	close_fd(&rep[0]);
	if (timed_out) {
		pl_error_set(err, PL_ETOOL, "'%s' timed out after %u s", prog, o->timeout_s);
		return fail(end, detail, PL_SPAWN_TIMED_OUT, (int)o->timeout_s);
	}
	if (k == (ssize_t)sizeof(report)) {
		if (report[0] == 1) {
			pl_error_set(err, PL_ETOOL, "cannot enter directory '%s': %s", o->dir,
			             strerror(report[1]));
			return fail(end, detail, PL_SPAWN_NO_DIR, report[1]);
		}
		pl_error_set(err, PL_ETOOL, "cannot run '%s': %s", prog, strerror(report[1]));
		return fail(end, detail,
		            report[1] == ENOENT || report[1] == ENOTDIR ? PL_SPAWN_NOT_FOUND
		                                                        : PL_SPAWN_EXEC,
		            report[1]);
	}
	if (WIFSIGNALED(status)) {
		pl_error_set(err, PL_ETOOL, "'%s' was killed by signal %d", prog, WTERMSIG(status));
		return fail(end, detail, PL_SPAWN_SIGNALED, WTERMSIG(status));
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 0;
}

int pl_spawn_run(const struct pl_spawn_opts *o, enum pl_spawn_end *end, int *detail,
                 struct pl_error *err)
{
	/* the program is found here, before the child enters o->dir: a
	 * relative PATH entry never finds a program planted there */
	char *path = pl_spawn_find(o->argv[0]);
	int rc;

	if (!path) {
		int e = errno;
		pl_error_set(err, PL_ETOOL, "cannot run '%s': %s", o->argv[0], strerror(e));
		return fail(end, detail, e == ENOMEM ? PL_SPAWN_FAILED : PL_SPAWN_NOT_FOUND, e);
	}
	rc = spawn_path(o, path, end, detail, err);
	free(path);
	return rc;
}
