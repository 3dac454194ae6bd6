/*
 * bundle_dir.c — where a bundle is written: never over anything that is not
 * an earlier perfledger bundle, and never half.
 *
 * pl_bundle_publish() renders into a sibling temporary directory of DIR
 * (".BASE.perfledger-tmp-XXXXXX" in DIR's parent, from mkdtemp) and swaps
 * it in with one renameat2(RENAME_EXCHANGE) (where the kernel or file
 * system lacks it: the old DIR renamed aside into a second temporary name,
 * the new one renamed into place), then removes the old bundle. A render
 * killed at any moment leaves the old DIR whole; what it leaves behind
 * carries the temporary name and is removed by the next render into DIR.
 * Renders into one DIR are serialised by flock() on ".BASE.perfledger-lock"
 * beside it (the lock file stays: removing it would let two processes hold
 * locks on two different files).
 *
 * An existing DIR is replaced only when it is empty or perfledger's: its
 * manifest.json is a perfledger manifest (a "perfledger" version and an
 * "outputs" list) and every entry of DIR is a regular file listed there
 * with the sha256 it has now. Anything else is refused, naming the first
 * offending file in name order, before anything is touched.
 */
#define _GNU_SOURCE /* renameat2, RENAME_EXCHANGE */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/jsonread.h"
#include "core/hash.h"
#include "render/bundle_impl.h"
#include "render/render_impl.h"
#include "util/alloc.h"
#include "util/file.h"
#include "util/fsutil.h"

#define MANIFEST_MAX (((size_t)1 << 24) - 1) /* as bundle_manifest.c reads it */
#define TMP_TAG ".perfledger-tmp-"
#define LOCK_TAG ".perfledger-lock"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every name in dir but "." and "..", sorted. *n = 0 and 0 returned when
 * dir does not exist (*missing = 1). */
static int list_all(const char *dir, char ***names, size_t *n, int *missing,
                    struct pl_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;
	int oom = 0;

	*names = NULL;
	*n = 0;
	*missing = 0;
	if (!d) {
		if (errno == ENOENT) {
			*missing = 1;
			return 0;
		}
		return pl_error_set(err, PL_EIO, "cannot open directory '%s': %s", dir, strerror(errno));
	}
	while (!oom && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (PL_ALLOC_GROW(*names, *n + 1, cap)) {
			oom = 1;
			break;
		}
		if (!((*names)[*n] = strdup(e->d_name)))
			oom = 1;
		else
			(*n)++;
	}
	closedir(d);
	if (oom) {
		pl_bundle_free_names(*names, *n);
		*names = NULL;
		*n = 0;
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (*n)
		qsort(*names, *n, sizeof(char *), cmp_str);
	return 0;
}

/* A manifest's outputs as (path, sha256) pairs sorted by path, so that each
 * file of a directory is looked up in log n (a site has tens of thousands:
 * a scan per file was quadratic). The strings point into the parsed
 * manifest. */
struct listed {
	const char *path;
	const char *sha;
	size_t order; /* position in the manifest: equal paths keep it */
};

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct listed *)a)->path, ((const struct listed *)b)->path);
}

static int cmp_listed(const void *a, const void *b)
{
	const struct listed *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* Fills *out (caller frees) with the entries of outputs that have a string
 * path and sha256. Returns 0 or PL_ENOMEM. */
static int listed_read(const struct pl_jsonval *outputs, struct listed **out, size_t *n)
{
	struct pl_jsonread_iter it;
	const struct pl_jsonval *o, *p, *h;
	const char *ps, *hs;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (pl_jsonread_iter(outputs, &it, NULL) != 0)
		return 0;
	while (pl_jsonread_next(&it, NULL, &o)) {
		if (pl_jsonread_member(o, "path", &p, NULL) != 0 ||
		    pl_jsonread_string(p, &ps, NULL) != 0 ||
		    pl_jsonread_member(o, "sha256", &h, NULL) != 0 ||
		    pl_jsonread_string(h, &hs, NULL) != 0)
			continue;
		if (PL_ALLOC_GROW(*out, *n + 1, cap))
			return PL_ENOMEM;
		(*out)[*n] = (struct listed){ps, hs, *n};
		(*n)++;
	}
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_listed);
	return 0;
}

/* The sha256 the manifest lists for name (its first entry of that path, as
 * a scan would find it), or NULL. */
static const char *listed_hash(const struct listed *v, size_t n, const char *name)
{
	struct listed key = {name, NULL, 0};
	const struct listed *hit = n ? bsearch(&key, v, n, sizeof(*v), cmp_path) : NULL;

	while (hit && hit > v && strcmp(hit[-1].path, name) == 0)
		hit--;
	return hit ? hit->sha : NULL;
}

static int refuse(const char *dir, const char *name, const char *why, struct pl_error *err)
{
	return pl_error_set(err, PL_EIO,
	                    "refusing to replace '%s': '%s' %s; a bundle is written only into a "
	                    "new or empty directory or over an earlier perfledger bundle",
	                    dir, name, why);
}

int pl_bundle_dir_check(const char *dir, struct pl_error *err)
{
	char **names = NULL, *text = NULL, *mpath;
	size_t n = 0, len;
	int missing, rc;
	struct stat sb;
	struct pl_jsonread *doc = NULL;
	const struct pl_jsonval *root = NULL, *ver, *outputs = NULL;
	const char *vs;
	struct pl_error ignored;
	struct listed *listed = NULL;
	size_t nlisted = 0;

	if (lstat(dir, &sb) == 0 && !S_ISDIR(sb.st_mode))
		return pl_error_set(err, PL_EIO, "cannot write a bundle into '%s': it is %s, not a "
		                                 "directory", dir, pl_file_kind(sb.st_mode));
	rc = list_all(dir, &names, &n, &missing, err);
	if (rc || n == 0)
		return rc;
	pl_error_init(&ignored);
	mpath = pl_fs_path(dir, "manifest.json");
	if (!mpath) {
		pl_bundle_free_names(names, n);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (lstat(mpath, &sb) != 0) {
		rc = refuse(dir, names[0], "is not part of a perfledger bundle (there is no manifest.json)",
		            err);
	} else if (!S_ISREG(sb.st_mode) ||
	           pl_file_read(mpath, MANIFEST_MAX, &text, &len, &ignored) != 0 ||
	           pl_jsonread_parse(mpath, text, len, &doc, &ignored) != 0 ||
	           pl_jsonread_member(root = pl_jsonread_root(doc), "perfledger", &ver, NULL) != 0 ||
	           pl_jsonread_string(ver, &vs, NULL) != 0 ||
	           pl_jsonread_member(root, "outputs", &outputs, NULL) != 0 ||
	           pl_jsonread_type(outputs) != PL_JT_ARRAY) {
		rc = refuse(dir, "manifest.json", "is not a perfledger bundle manifest", err);
	}
	free(mpath);
	free(text);
	if (rc == 0 && listed_read(outputs, &listed, &nlisted))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t i = 0; rc == 0 && i < n; i++) {
		char *path, *buf, hex[65];
		const char *want;
		size_t blen;
		if (strcmp(names[i], "manifest.json") == 0)
			continue;
		if (!(path = pl_fs_path(dir, names[i]))) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		if (lstat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
			char why[96];
			snprintf(why, sizeof(why), "is %s, not a file of a bundle",
			         lstat(path, &sb) == 0 ? pl_file_kind(sb.st_mode) : "gone");
			rc = refuse(dir, names[i], why, err);
		} else if (!(want = listed_hash(listed, nlisted, names[i]))) {
			rc = refuse(dir, names[i], "is not listed in its manifest.json", err);
		} else if (pl_file_read(path, PL_RENDER_READ_MAX, &buf, &blen, &ignored) != 0) {
			rc = refuse(dir, names[i], "cannot be read to check its sha256", err);
		} else {
			if (pl_sha256_hex(buf, blen, hex) != 0)
				rc = pl_error_set(err, PL_ENOMEM, "sha256 failed");
			else if (strcmp(hex, want) != 0)
				rc = refuse(dir, names[i], "does not match the sha256 its manifest.json lists",
				            err);
			free(buf);
		}
		free(path);
	}
	free(listed);
	pl_jsonread_free(doc);
	pl_bundle_free_names(names, n);
	return rc;
}

/* Removes the entries of the flat directory dirfd/name (files only: a
 * bundle and its temporary directories hold no subdirectories), then it. */
static void remove_flat(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (fd >= 0 && !d)
		close(fd);
	while (d && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlinkat(fd, e->d_name, 0);
	if (d)
		closedir(d);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

/* Removes the ".BASE.perfledger-tmp-*" directories an interrupted render
 * into parent/base left (called under the lock, so none is in use). */
static void remove_leftovers(const char *parent, const char *base)
{
	int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = pfd >= 0 ? fdopendir(dup(pfd)) : NULL;
	size_t bl = strlen(base), tl = strlen(TMP_TAG);
	struct dirent *e;

	while (d && (e = readdir(d)) != NULL) {
		const char *s = e->d_name;
		if (s[0] == '.' && strncmp(s + 1, base, bl) == 0 && strncmp(s + 1 + bl, TMP_TAG, tl) == 0 &&
		    strlen(s + 1 + bl + tl) == 6)
			remove_flat(pfd, s);
	}
	if (d)
		closedir(d);
	if (pfd >= 0)
		close(pfd);
}

/* Splits dir into a parent (heap) and its last component (heap). */
static int split_dir(const char *dir, char **parent, char **base, struct pl_error *err)
{
	size_t len = strlen(dir);
	const char *slash;

	*parent = *base = NULL;
	while (len > 1 && dir[len - 1] == '/')
		len--;
	slash = memrchr(dir, '/', len);
	if (!slash) {
		*parent = strdup(".");
		*base = strndup(dir, len);
	} else {
		*parent = slash == dir ? strdup("/") : strndup(dir, (size_t)(slash - dir));
		*base = strndup(slash + 1, len - (size_t)(slash + 1 - dir));
	}
	if (!*parent || !*base) {
		free(*parent);
		free(*base);
		*parent = *base = NULL;
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (!**base || strcmp(*base, ".") == 0 || strcmp(*base, "..") == 0) {
		free(*parent);
		free(*base);
		*parent = *base = NULL;
		return pl_error_set(err, PL_EIO, "cannot write a bundle into '%s': name a directory of "
		                                 "its own (e.g. '%s/report')", dir, dir);
	}
	return 0;
}

/* "parent/.base<tag>" (+ "XXXXXX" when x), heap. */
static char *sibling(const char *parent, const char *base, const char *tag, int x)
{
	size_t n = strlen(parent) + strlen(base) + strlen(tag) + 10;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s/.%s%s%s", parent, base, tag, x ? "XXXXXX" : "");
	return s;
}

/* Puts the rendered directory tmp in place of dir (which may be missing);
 * the old bundle then sits at tmp, or at *aside. */
static int swap_in(const char *tmp, const char *dir, const char *parent, const char *base,
                   char **aside, struct pl_error *err)
{
	struct stat sb;

	*aside = NULL;
	if (lstat(dir, &sb) != 0) {
		if (rename(tmp, dir) == 0)
			return 0;
		return pl_error_set(err, PL_EIO, "cannot rename '%s' to '%s': %s", tmp, dir,
		                    strerror(errno));
	}
#ifdef RENAME_EXCHANGE
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE) == 0)
		return 0;
	if (errno != ENOSYS && errno != EINVAL && errno != ENOTSUP)
		return pl_error_set(err, PL_EIO, "cannot swap '%s' into '%s': %s", tmp, dir,
		                    strerror(errno));
#endif
	/* no exchange here: the old one aside, the new one into place */
	*aside = sibling(parent, base, TMP_TAG, 1);
	if (!*aside || !mkdtemp(*aside)) {
		free(*aside);
		*aside = NULL;
		return pl_error_set(err, PL_EIO, "cannot create a temporary directory beside '%s'", dir);
	}
	if (rename(dir, *aside) != 0 || rename(tmp, dir) != 0) {
		int e = errno;
		rename(*aside, dir); /* the old one back, if it moved */
		return pl_error_set(err, PL_EIO, "cannot rename '%s' to '%s': %s", tmp, dir, strerror(e));
	}
	return 0;
}

int pl_bundle_publish(const char *dir, pl_bundle_render_fn fn, void *ctx, struct pl_error *err)
{
	char *parent = NULL, *base = NULL, *lock = NULL, *tmp = NULL, *aside = NULL;
	int lfd = -1, rc, pfd;
	struct stat sb;
	mode_t mode;

	rc = split_dir(dir, &parent, &base, err);
	if (rc == 0)
		rc = pl_fs_mkdirs(parent, err);
	if (rc == 0 && (!(lock = sibling(parent, base, LOCK_TAG, 0)) ||
	                !(tmp = sibling(parent, base, TMP_TAG, 1))))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc == 0) {
		lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
		if (lfd < 0 || flock(lfd, LOCK_EX) != 0)
			rc = pl_error_set(err, PL_EIO, "cannot lock '%s': %s", lock, strerror(errno));
	}
	if (rc == 0)
		rc = pl_bundle_dir_check(dir, err);
	if (rc == 0) {
		remove_leftovers(parent, base);
		if (!mkdtemp(tmp)) {
			rc = pl_error_set(err, PL_EIO, "cannot create '%s': %s", tmp, strerror(errno));
			free(tmp);
			tmp = NULL;
		}
	}
	if (rc == 0) {
		/* the mode a new directory gets, or the old one's */
		if (lstat(dir, &sb) == 0) {
			mode = sb.st_mode & 07777;
		} else {
			mode_t um = umask(022);
			umask(um);
			mode = 0777 & ~um;
		}
		chmod(tmp, mode);
		rc = fn(tmp, ctx, err);
		if (rc == 0 || rc == PL_ETOOL) {
			struct pl_error serr;
			int src;
			pl_error_init(&serr);
			src = swap_in(tmp, dir, parent, base, &aside, &serr);
			if (src) {
				rc = src;
				if (err)
					*err = serr;
			}
		}
		/* the old bundle (or a failed render) now under a temporary name */
		pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (pfd >= 0) {
			const char *gone = aside ? aside : tmp;
			remove_flat(pfd, strrchr(gone, '/') + 1);
			if (aside)
				remove_flat(pfd, strrchr(tmp, '/') + 1);
			close(pfd);
		}
	}
	if (lfd >= 0)
		close(lfd); /* releases the lock */
	free(parent);
	free(base);
	free(lock);
	free(tmp);
	free(aside);
	return rc;
}
