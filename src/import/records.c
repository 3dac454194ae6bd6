/*
 * records.c — the import's parser side for per-request records kept in a
 * file of their own beside a summary (AIPerf profile_export.jsonl beside
 * profile_export_aiperf.json, llmperf *_individual_responses.json beside
 * *_summary.json; adapters.h names the pairs): the summary's run takes the
 * requests of the records file found beside it, read whole through util's
 * reader (a regular file only). A records file is not a run of its own:
 * the directory walk leaves it to its summary (walk.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/adapters.h"
#include "import/import_impl.h"
#include "util/file.h"

/* dir of path (up to and with its last '/') + name, or NULL (out of memory). */
static char *beside(const char *path, const char *name)
{
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path) + 1 : 0, nl = strlen(name);
	char *p = malloc(dl + nl + 1);

	if (p) {
		memcpy(p, path, dl);
		memcpy(p + dl, name, nl + 1);
	}
	return p;
}

/* Reads the records file rpath, when there is one, into run. Returns 0
 * (also when there is none: *found 0), or its rejection. */
static int try_records(const char *rpath, struct pl_run *run, int *found, struct pl_error *err)
{
	struct pl_file_why why;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	*found = 0;
	rc = pl_file_read_at(-1, rpath, rpath, PL_IMPORT_WHOLE_MAX, &buf, &len, &why, err);
	if (rc) {
		if (why.reason == PL_FILE_OPEN && why.errnum == ENOENT) {
			pl_error_init(err);
			return 0;
		}
		pl_error_at(err, rpath, 0, 0);
		if (why.reason == PL_FILE_OPEN || why.reason == PL_FILE_READ)
			rc = pl_error_set(err, PL_EIO, "cannot read the per-request records '%s': %s", rpath,
			                  strerror(why.errnum));
		else if (why.reason == PL_FILE_TOO_BIG)
			rc = pl_error_set(err, PL_EINVALID, "the per-request records '%s' are larger than 256 MiB",
			                  rpath);
		else if (why.reason == PL_FILE_DIR || why.reason == PL_FILE_NOT_REGULAR)
			rc = pl_error_set(err, PL_EIO,
			                  "cannot read the per-request records '%s': not a regular file", rpath);
		return rc;
	}
	*found = 1;
	rc = pl_adapters_parse_requests(rpath, buf, len, run, err);
	free(buf);
	return rc;
}

int pl_import_attach_records(const char *path, struct pl_run_list *runs, struct pl_error *err)
{
	const char *base = strrchr(path, '/');
	struct pl_run *run;
	int rc = 0, found = 0;

	/* a summary holds one run; standard input has no directory */
	if (runs->n != 1 || strcmp(path, "-") == 0)
		return 0;
	run = &runs->v[0];
	if (run->reject || run->requests || !run->adapter)
		return 0;
	base = base ? base + 1 : path;
	for (size_t k = 0; rc == 0 && !found; k++) {
		char *name = NULL, *rpath;
		int got = pl_adapters_records_name(run->adapter, base, k, &name);

		if (got == 0)
			break;
		if (got < 0 || !(rpath = beside(path, name))) {
			free(name);
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		}
		rc = try_records(rpath, run, &found, err);
		free(rpath);
		free(name);
	}
	return rc;
}
