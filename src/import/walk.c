/*
 * walk.c — which files a directory import reads: entries in byte order of
 * their names, recursively; *.json, *.jsonl, *.yaml, *.yml, *.csv and *.txt
 * files only (names are case-sensitive), *.conditions.json skipped
 * (sidecars), per-request records beside their summary skipped (read with
 * it, records.c), hidden entries (".name") skipped, symbolic links to
 * directories not followed (no loops); a file named explicitly is always
 * read (pipeline.c). A walk keeps the directory open and opens its files
 * relative to it (no path walk per file), takes file types from readdir's
 * d_type where the file system gives them (no stat per entry), and opens a
 * sidecar only when the listing holds one (no failed open per file).
 */
/* d_type and DT_* of readdir(): a directory walk then needs no stat per entry */
#define _DEFAULT_SOURCE
#include "import/import.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/adapters.h"
#include "import/import_impl.h"
#include "util/alloc.h"

/* A directory entry as listed: its name and readdir's d_type. */
struct entry {
	char *name;          /* owned */
	unsigned char type;  /* DT_REG, DT_DIR, DT_LNK, DT_UNKNOWN, ... */
};

static int cmp_entries(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static char *join_path(const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	int slash = dl > 0 && dir[dl - 1] == '/';
	char *p = malloc(dl + nl + 2);

	if (!p)
		return NULL;
	memcpy(p, dir, dl);
	if (!slash)
		p[dl++] = '/';
	memcpy(p + dl, name, nl + 1);
	return p;
}

/* Whether the listing v[0..n) (sorted) holds the sidecar of the file name:
 * 0 no, 1 yes, -1 unknown (the name is too long to check here). */
static int listed_sidecar(const struct entry *v, size_t n, const char *name)
{
	static const char tail[] = ".conditions.json";
	char want[512];
	struct entry key;
	size_t stem;

	if ((stem = pl_import_sidecar_stem(name)) == 0)
		return 0; /* load_sidecar looks for none */
	if (stem + sizeof(tail) > sizeof(want))
		return -1;
	memcpy(want, name, stem);
	memcpy(want + stem, tail, sizeof(tail));
	key.name = want;
	return bsearch(&key, v, n, sizeof(*v), cmp_entries) != NULL;
}

/* Whether the file name is the per-request records file of a summary that
 * the listing v[0..n) (sorted) holds: that summary's import reads it
 * (records.c), so the walk does not import it as a file of its own. */
static int listed_summary(const struct entry *v, size_t n, const char *name)
{
	struct entry key;
	int found = 0;

	for (size_t k = 0; !found; k++) {
		char *s = NULL;
		if (pl_adapters_summary_name(name, k, &s) <= 0)
			break; /* out of memory: the file is imported (and refused) alone */
		key.name = s;
		found = bsearch(&key, v, n, sizeof(*v), cmp_entries) != NULL;
		free(s);
	}
	return found;
}

/* Directories deeper than this are walked without keeping their stream
 * open, so that a deep tree cannot run out of file descriptors. */
#define WALK_OPEN_DEPTH 64

void pl_import_walk_dir(struct batch *b, const char *dir, int depth)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct entry *names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;

	if (!d) {
		int e = errno;
		struct item *it = pl_import_item_new(IT_FILE, dir);
		struct pl_error err;

		if (dfd >= 0)
			close(dfd);
		if (!it) {
			pl_import_push_oom(b);
			return;
		}
		pl_error_init(&err);
		pl_error_at(&err, dir, 0, 0);
		pl_error_set(&err, PL_EIO, "cannot open directory '%s': %s", dir, strerror(e));
		pl_import_item_fail(it, PL_EIO, &err);
		pl_import_push(b, it);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue; /* ".", ".." and hidden entries */
		if (PL_ALLOC_GROW(names, n + 1, cap))
			goto oom;
		names[n].name = strdup(de->d_name);
		names[n].type = de->d_type;
		if (!names[n].name)
			goto oom;
		n++;
	}
	if (depth >= WALK_OPEN_DEPTH) {
		closedir(d);
		d = NULL;
		dfd = -1;
	}
	qsort(names, n, sizeof(*names), cmp_entries);
	for (size_t i = 0; i < n && !pl_import_stopped(b); i++) {
		const char *name = names[i].name;
		char *full = join_path(dir, name);
		struct stat sb;
		int link = 0, dir_ = 0, reg = 0;

		if (!full)
			goto oom;
		/* d_type saves a stat per entry; DT_UNKNOWN (some file systems) and
		 * links are looked at as before */
		if (dfd >= 0 && names[i].type == DT_REG) {
			reg = 1;
		} else if (dfd >= 0 && names[i].type == DT_DIR) {
			dir_ = 1;
		} else if ((dfd >= 0 ? fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) : lstat(full, &sb)) ==
		           0) {
			link = S_ISLNK(sb.st_mode);
			if (link && (dfd >= 0 ? fstatat(dfd, name, &sb, 0) : stat(full, &sb)) != 0) {
				free(full);
				continue; /* dangling link */
			}
			dir_ = S_ISDIR(sb.st_mode);
			reg = S_ISREG(sb.st_mode);
		}
		if (dir_) {
			if (!link)
				pl_import_walk_dir(b, full, depth + 1);
		} else if (reg &&
		           (pl_import_has_suffix(name, ".json") || pl_import_has_suffix(name, ".jsonl") ||
		            pl_import_has_suffix(name, ".yaml") || pl_import_has_suffix(name, ".yml") ||
		            pl_import_has_suffix(name, ".csv") || pl_import_has_suffix(name, ".txt")) &&
		           !pl_import_has_suffix(name, ".conditions.json") &&
		           !listed_summary(names, n, name)) {
			struct src f = {full, dfd, name, dfd >= 0 ? listed_sidecar(names, n, name) : -1};
			pl_import_produce_file(b, &f);
		}
		free(full);
	}
	goto out;
oom:
	pl_import_push_oom(b);
out:
	if (d)
		closedir(d);
	for (size_t i = 0; i < n; i++)
		free(names[i].name);
	free(names);
}
