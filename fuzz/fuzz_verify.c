/*
 * fuzz_verify.c — libFuzzer harness for what `perfledger verify` and the
 * bundle writer read from a bundle directory, over hostile trees. The input
 * bytes describe a small tree, created afresh in a temporary directory for
 * each input; then the library steps of verify run on it as cmd_verify runs
 * them (everything but the database re-render): the manifest
 * (pl_manifest_read, pl_manifest_gnuplot), the definition (pl_spec_load)
 * and the file-by-file comparison (pl_bundle_compare) with a fixed
 * reference bundle, and the check that decides whether a render may
 * replace the directory (pl_bundle_dir_check). None may hang (a FIFO),
 * grow without bound (/dev/zero behind a symlink) or crash.
 *
 * Input: records until the bytes run out, each
 *   kind   1 byte: % 4 = 0 regular file, 1 FIFO, 2 symlink, 3 directory
 *   name   1 byte: < 0x80 picks a bundle file name (manifest.json,
 *          definition.json, report.md, ...); else (b & 15) + 1 bytes
 *          follow, '/' and NUL becoming '_', "." and ".." becoming "_"
 *   length 2 bytes little-endian, at most 4096, then that many bytes: the
 *          contents of a regular file, or (first byte) which target a
 *          symlink points at (/dev/zero, /dev/null, /dev/urandom, a FIFO
 *          of the tree, itself, "..", a missing path, /etc/passwd)
 * Built and run by fuzz/run.sh.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/bundle.h"
#include "render/spec.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[64], tree[128], fresh[128];

static const char *const known[] = {
	"manifest.json", "definition.json", "report.md",   "report.html", "comparison.csv",
	"comparison.json", "comparison.xlsx", "sweep.svg", "pareto.svg",  "ttft.gp",
	"manifest.json.tmp", ".hidden",
};

static const char *const targets[] = {
	"/dev/zero", "/dev/null", "/dev/urandom", "fifo", "self", "..", "/nonexistent/x", "/etc/passwd",
};

/* Creates path afresh (whatever a record made there before is removed:
 * opening an earlier record's FIFO for writing would block). */
static void write_file(const char *path, const void *p, size_t n)
{
	int fd;

	if (unlink(path) != 0)
		rmdir(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	if (n && write(fd, p, n) < 0)
		(void)0;
	close(fd);
}

/* Empties dir: files, and the empty directories the records make. */
static void empty_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)) != NULL) {
		char p[512];
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (unlink(p) != 0)
			rmdir(p); /* a directory a record made (always empty) */
	}
	if (d)
		closedir(d);
}

/* At exit: the temporary tree, the reference and their directory. */
static void cleanup(void)
{
	empty_dir(tree);
	empty_dir(fresh);
	rmdir(tree);
	rmdir(fresh);
	rmdir(root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char manifest[] =
		"{\n  \"perfledger\": \"0.1.0\",\n  \"definition\": \"x\",\n  \"lang\": \"en\",\n"
		"  \"gnuplot\": \"gnuplot 5.4\",\n  \"source_date_epoch\": 1700000000,\n"
		"  \"outputs\": [\n    {\"path\": \"report.md\", \"sha256\": \"00\"}\n  ]\n}\n";
	const char *tmp = getenv("TMPDIR");

	(void)argc;
	(void)argv;
	snprintf(root, sizeof(root), "%s/pl-fuzz-verify-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		abort();
	snprintf(tree, sizeof(tree), "%s/tree", root);
	snprintf(fresh, sizeof(fresh), "%s/fresh", root);
	if (mkdir(tree, 0700) != 0 || mkdir(fresh, 0700) != 0)
		abort();
	atexit(cleanup);
	/* the reference a bundle is compared with */
	{
		char p[256];
		snprintf(p, sizeof(p), "%s/manifest.json", fresh);
		write_file(p, manifest, sizeof(manifest) - 1);
		snprintf(p, sizeof(p), "%s/report.md", fresh);
		write_file(p, "# report\n", 9);
		snprintf(p, sizeof(p), "%s/definition.json", fresh);
		write_file(p, "{}", 2);
	}
	return 0;
}

static void on_diff(void *ctx, const char *name, const char *what)
{
	(void)name;
	(void)what;
	(*(size_t *)ctx)++;
}

/* Builds the tree the input describes. */
static void build(const uint8_t *d, size_t n)
{
	size_t i = 0;

	for (int records = 0; i + 2 <= n && records < 16; records++) {
		char name[32], path[256];
		unsigned kind = d[i++] % 4, nb = d[i++];
		size_t len;
		const uint8_t *body;
		if (nb < 0x80) {
			snprintf(name, sizeof(name), "%s", known[nb % (sizeof(known) / sizeof(known[0]))]);
		} else {
			size_t k = (nb & 15u) + 1, j;
			for (j = 0; j < k && i < n; j++, i++)
				name[j] = d[i] == '/' || d[i] == 0 ? '_' : (char)d[i];
			name[j] = '\0';
			if (j == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
				snprintf(name, sizeof(name), "_");
		}
		len = i + 2 <= n ? (size_t)(d[i] | d[i + 1] << 8) % 4097 : 0;
		i = i + 2 <= n ? i + 2 : n;
		if (len > n - i)
			len = n - i;
		body = d + i;
		i += len;
		snprintf(path, sizeof(path), "%s/%s", tree, name);
		if (kind != 0 && unlink(path) != 0)
			rmdir(path); /* a name given twice: the last record wins */
		switch (kind) {
		case 0:
			write_file(path, body, len);
			break;
		case 1:
			mkfifo(path, 0600);
			break;
		case 2: {
			const char *t = targets[(len ? body[0] : 0) % (sizeof(targets) / sizeof(targets[0]))];
			char tp[256];
			if (strcmp(t, "fifo") == 0) {
				snprintf(tp, sizeof(tp), "%s/.fifo", tree);
				mkfifo(tp, 0600);
				t = tp;
			} else if (strcmp(t, "self") == 0) {
				t = path;
			}
			if (symlink(t, path) != 0)
				(void)0;
			break;
		}
		default:
			mkdir(path, 0700);
			break;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char lang[16], gp[128], mpath[256], dpath[256];
	long long epoch;
	size_t ndiff = 0, calls = 0;
	struct pl_error err;
	struct pl_report_spec spec;

	empty_dir(tree);
	build(data, size);
	snprintf(mpath, sizeof(mpath), "%s/manifest.json", tree);
	snprintf(dpath, sizeof(dpath), "%s/definition.json", tree);
	pl_error_init(&err);
	(void)pl_manifest_read(mpath, lang, sizeof(lang), &epoch, &err);
	(void)pl_manifest_gnuplot(mpath, gp, sizeof(gp));
	pl_error_init(&err);
	memset(&spec, 0, sizeof(spec));
	(void)pl_spec_load(dpath, &spec, &err);
	pl_spec_release(&spec);
	pl_error_init(&err);
	(void)pl_bundle_compare(tree, fresh, on_diff, &calls, &ndiff, &err);
	pl_error_init(&err);
	(void)pl_bundle_dir_check(tree, &err);
	return 0;
}
