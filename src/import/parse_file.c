/*
 * parse_file.c — the import's parser side for one input file: reads it whole or
 * streams it (a large *.jsonl), parses it with the adapters, finds and reads
 * its sidecar, has prepare.c ready its runs, and pushes the result to the
 * writer (pipeline.c). Files are opened once through util's reader
 * (util/file.h): only regular files are read (a FIFO or a device such as
 * /dev/zero never ends), files read whole at most PL_IMPORT_WHOLE_MAX
 * bytes and sidecars at most SIDECAR_MAX; standard input ("-") is read
 * whole, or, beyond STDIN_MEM_MAX, spooled to an unlinked temporary
 * file and streamed as JSONL when it has JSONL's shape or is over
 * PL_IMPORT_WHOLE_MAX. This file words util's refusals the
 * importer's way.
 *
 * Large *.jsonl files (over PL_IMPORT_STREAM_MIN bytes) are streamed: one
 * pass hashes the file, a second reads it line by line and hands runs over
 * in chunks, so memory stays constant whatever the file size; the file's
 * savepoint keeps it atomic. Their records are numbered and errors located
 * exactly as for a file read whole.
 *
 * Other files of the adapters' stream minimum (4 MiB) or more are read in
 * 1 MiB pieces (produce_pieces): each piece hashed, compressed as a chunk
 * of the kept bytes and fed to the streaming parser of a vLLM / SGLang
 * detailed result's "itls", so the file is never held whole; a file that
 * parser cannot read is read again whole and parsed as before.
 */
#include "import/import.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/adapters.h"
#include "core/hash.h"
#include "core/model.h"
#include "import/import_impl.h"
#include "util/alloc.h"
#include "util/file.h"
#include "util/fsutil.h"

_Static_assert(PL_IMPORT_WHOLE_MAX <= PL_SOURCE_CHUNK_MAX, "a file read whole is one stored chunk");

#define CHUNK_RUNS 64    /* runs per chunk of a streamed file */
#define SIDECAR_MAX (1u << 20) /* bytes of a NAME.conditions.json */

int pl_import_has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Opens the input file f (not "-") through util's checks (O_NONBLOCK so
 * that a FIFO cannot hang open(), fstat() on the descriptor, regular files
 * only), in the importer's words. Returns the descriptor (caller closes)
 * with *sb set, or a negative PL_E* code with err set and located at the
 * path. */
static int open_input(const struct src *f, struct stat *sb, struct pl_error *err)
{
	struct pl_file_why why;
	int fd = pl_file_open(f->dfd, f->name, f->path, SIZE_MAX, sb, &why, err);

	if (fd < 0) {
		if (why.reason == PL_FILE_NOT_REGULAR)
			pl_error_set(err, PL_EIO,
			             "cannot read '%s': not a regular file (a FIFO, device or "
			             "socket); import a file, a directory, or - for standard input",
			             f->path);
		pl_error_at(err, f->path, 0, 0);
	}
	return fd;
}

/* Reads the open input fd (size: what fstat() gave, 0 for stdin) whole,
 * up to PL_IMPORT_WHOLE_MAX bytes. Returns 0, or PL_EIO / PL_ENOMEM /
 * PL_EINVALID (too large) with err set and located at path. */
static int read_whole(int fd, const char *path, size_t size, char **out, size_t *len,
                      struct pl_error *err)
{
	struct pl_file_why why;
	int rc;

	pl_error_at(err, path, 0, 0);
	if (size > PL_IMPORT_WHOLE_MAX)
		why.reason = PL_FILE_TOO_BIG, rc = PL_EINVALID;
	else
		rc = pl_file_read_fd(fd, path, size, PL_IMPORT_WHOLE_MAX, out, len, &why, err);
	if (rc && why.reason == PL_FILE_TOO_BIG)
		return pl_error_set(err, PL_EINVALID, "'%s': larger than 256 MiB; split it or use JSONL",
		                    path);
	return rc;
}

/* Length of the stem of an input file name whose sidecar is
 * STEM.conditions.json: the name without its extension, for every
 * extension the import reads (.json, .jsonl, .yaml, .yml, .csv, .txt);
 * 0 for other names (no sidecar). */
size_t pl_import_sidecar_stem(const char *name)
{
	static const char *const exts[] = {".jsonl", ".json", ".yaml", ".yml", ".csv", ".txt"};
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
		if (pl_import_has_suffix(name, exts[i]) && n > strlen(exts[i]))
			return n - strlen(exts[i]);
	return 0;
}

/* The sidecar of path, read whole: *buf (caller frees) and *side (its
 * name; caller frees), or both NULL when there is none. known is 0 when
 * the directory walk listed no sidecar for the file (nothing is opened
 * then), else 1 or -1 (unknown: try to open it). Returns 0 or PL_EIO /
 * PL_ENOMEM. */
int pl_import_load_sidecar(const char *path, int known, char **side_out, char **buf_out,
                           size_t *len, struct pl_error *err)
{
	struct pl_file_why why;
	size_t stem;
	char *side;
	int rc;

	*side_out = NULL;
	*buf_out = NULL;
	*len = 0;
	if (known == 0 || strcmp(path, "-") == 0 || (stem = pl_import_sidecar_stem(path)) == 0)
		return 0;
	side = malloc(stem + sizeof(".conditions.json"));
	if (!side)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	memcpy(side, path, stem);
	memcpy(side + stem, ".conditions.json", sizeof(".conditions.json"));
	/* util's reader: O_NONBLOCK so that a FIFO cannot hang open(), and
	 * only a regular file is read (a FIFO or /dev/zero never ends) */
	rc = pl_file_read_at(-1, side, side, SIDECAR_MAX, buf_out, len, &why, err);
	if (rc) {
		if (why.reason == PL_FILE_OPEN && why.errnum == ENOENT) {
			free(side);
			return 0; /* no sidecar */
		}
		pl_error_at(err, side, 0, 0);
		switch (why.reason) {
		case PL_FILE_OPEN:
			rc = pl_error_set(err, PL_EIO, "cannot open sidecar '%s': %s", side,
			                  strerror(why.errnum));
			break;
		case PL_FILE_DIR:
		case PL_FILE_NOT_REGULAR:
			rc = pl_error_set(err, PL_EIO,
			                  "cannot read sidecar '%s': not a regular file (a directory, FIFO, "
			                  "device or socket)",
			                  side);
			break;
		case PL_FILE_TOO_BIG:
			rc = pl_error_set(err, PL_EINVALID,
			                  "sidecar '%s' is larger than 1 MiB (it holds conditions only)", side);
			break;
		case PL_FILE_READ:
			rc = pl_error_set(err, PL_EIO, "cannot read sidecar '%s': %s", side,
			                  strerror(why.errnum));
			break;
		default:
			break; /* out of memory: util's message */
		}
		free(side);
		return rc;
	}
	*side_out = side;
	return 0;
}

/* Parser side: the condition keys of the item's runs, so that the writer
 * does not build them, and each run's record identity (pl_run_record_id);
 * nothing for a rejected record. Returns 0 or PL_ENOMEM (err set). */
static int make_keys(struct item *it, struct pl_error *err)
{
	if (it->runs.n == 0)
		return 0;
	if (!(it->keys = calloc(it->runs.n, sizeof(*it->keys))))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t i = 0; i < it->runs.n; i++) {
		struct pl_run *r = &it->runs.v[i];
		if (r->reject)
			continue;
		/* an export line's record identity is kept as given (none included) */
		if (pl_cond_key_make(r, &it->keys[i]) ||
		    (r->provenance_given != 2 && pl_run_record_id(r, &it->keys[i], r->record_id)))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	return 0;
}

/* A file read whole from fd (size: what fstat() gave, 0 for stdin; fd < 0:
 * it could not be opened, and open_err says why): one IT_FILE item. */
static void produce_buffer(struct batch *b, const struct src *f, char *buf, size_t len, int rc,
                           struct pl_error *errp);

static void produce_whole(struct batch *b, const struct src *f, int fd, size_t size,
                          const struct pl_error *open_err)
{
	struct pl_error err;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	pl_error_init(&err);
	if (fd < 0) {
		err = *open_err;
		rc = err.code;
	} else {
		rc = read_whole(fd, f->path, size, &buf, &len, &err);
	}
	produce_buffer(b, f, buf, len, rc, &err);
}

/* The runs of the bytes buf[0..len) of path into it->runs: rc, err set. */
static int parse_bytes(struct batch *b, const char *path, const char *buf, size_t len,
                       struct item *it, struct pl_error *err)
{
	int rc = pl_adapters_parse_records(path, buf, len, b->opts->format, &it->runs, err);

	/* a JSONL file with a bad line (cut short): its good lines are kept */
	if (rc == PL_ESYNTAX && pl_import_has_suffix(path, ".jsonl") && it->runs.n == 0) {
		pl_error_init(err);
		rc = pl_import_parse_lines(path, buf, len, b->opts->format, &it->runs, err);
	}
	return rc;
}

/* The end of a file's item once its runs are parsed (rc 0) or it failed
 * (rc, err): the summary's per-request records, the sidecar, prepare.c,
 * the condition keys; then it goes to the writer. */
static void finish_item(struct batch *b, const struct src *f, struct item *it, int rc,
                        struct pl_error *errp)
{
	const char *path = f->path;
	struct pl_error err = *errp;
	char *side = NULL, *sbuf = NULL;
	size_t slen = 0;

	/* a summary's per-request records, from the file beside it */
	if (rc == 0)
		rc = pl_import_attach_records(path, &it->runs, &err);
	if (rc == 0)
		rc = pl_import_load_sidecar(path, f->side, &side, &sbuf, &slen, &err);
	if (rc == 0)
		rc = pl_import_prepare(b->opts, path, it->sha, side, sbuf, slen, &it->runs, 0, 0,
		                       &it->refonly, &it->warnings, &err);
	free(side);
	free(sbuf);
	if (rc == 0)
		rc = make_keys(it, &err);
	if (rc) {
		if (!err.file[0])
			pl_error_at(&err, path, err.line, err.column);
		pl_import_item_fail(it, rc, &err);
	}
	pl_import_push(b, it);
}

/* The rest of produce_whole() for the bytes buf[0..len) of f (taken over
 * and freed), or for the failure rc (err) to read them. */
static void produce_buffer(struct batch *b, const struct src *f, char *buf, size_t len, int rc,
                           struct pl_error *errp)
{
	const char *path = f->path;
	struct item *it = pl_import_item_new(IT_FILE, path);
	struct pl_error err = *errp;

	if (!it) {
		free(buf);
		pl_import_push_oom(b);
		return;
	}
	if (rc == 0) {
		rc = pl_sha256_hex(buf, len, it->sha);
		if (rc)
			pl_error_set(&err, PL_ENOMEM, "out of memory");
		else
			it->have_sha = 1;
	}
	if (rc == 0)
		rc = parse_bytes(b, path, buf, len, it, &err);
	/* the bytes are kept with the runs (compressed here, on the parser
	 * thread); not those of a ledger export, whose runs name their own */
	if (rc == 0 && !(it->runs.n > 0 && it->runs.v[0].provenance_given))
		rc = pl_source_compress(buf, len, &it->src, &err);
	free(buf);
	finish_item(b, f, it, rc, &err);
}

/* A stream on the streamed file's descriptor (both passes: a dup, so
 * that fclose() leaves fd open), from its start. NULL with err set
 * (PL_EIO, located at path) when that fails. */
static FILE *open_stream(int fd, const char *path, struct pl_error *err)
{
	int d = lseek(fd, 0, SEEK_SET) == 0 ? dup(fd) : -1;
	FILE *f = d >= 0 ? fdopen(d, "rb") : NULL;

	if (!f) {
		int e = errno;
		if (d >= 0)
			close(d);
		pl_error_at(err, path, 0, 0);
		pl_error_set(err, PL_EIO, "cannot read '%s': %s", path, strerror(e));
	}
	return f;
}

/* Pass 1 of a streamed file: its sha256. Returns 0 or PL_EIO/PL_ENOMEM. */
static int hash_file(int fd, const char *path, char sha[65], struct pl_error *err)
{
	struct pl_sha256 *h = pl_sha256_new();
	char *buf = malloc(1 << 18);
	FILE *f = NULL;
	int rc = 0;

	if (!h || !buf) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	if (!(f = open_stream(fd, path, err))) {
		rc = PL_EIO;
		goto out;
	}
	for (;;) {
		size_t got = fread(buf, 1, 1 << 18, f);
		if (got && pl_sha256_update(h, buf, got)) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			goto out;
		}
		if (got < (1 << 18))
			break;
	}
	if (ferror(f)) {
		pl_error_at(err, path, 0, 0);
		rc = pl_error_set(err, PL_EIO, "cannot read '%s': %s", path, strerror(errno ? errno : EIO));
		goto out;
	}
	if (pl_sha256_final(h, sha))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
out:
	if (f)
		fclose(f);
	free(buf);
	pl_sha256_free(h);
	return rc;
}

/* The bytes of a streamed file on their way to the store: gathered line
 * by line and handed over as IT_SRC items of PL_SOURCE_CHUNK bytes each
 * (the last one shorter), compressed here. */
struct raw {
	char *buf;     /* bytes not handed over yet */
	size_t len;    /* in buf */
	size_t cap;    /* allocated */
	long long seq; /* number of the next chunk */
	int off;       /* 1: not kept (a ledger export: its runs name their own sources) */
};

/* Hands over buf[0..n) as the next chunk. Returns 0, -1 when the writer
 * stopped, or PL_ENOMEM (err set). */
static int push_chunk(struct batch *b, struct raw *r, size_t n, struct pl_error *err)
{
	struct item *it = pl_import_item_new(IT_SRC, NULL);
	int rc;

	if (!it)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if ((rc = pl_source_compress(r->buf, n, &it->src, err))) {
		pl_import_item_free(it);
		return rc;
	}
	it->src_seq = r->seq++;
	memmove(r->buf, r->buf + n, r->len - n);
	r->len -= n;
	return pl_import_push(b, it) ? -1 : 0;
}

/* Adds line[0..n) to r, handing over every full chunk. Returns as
 * push_chunk(). */
static int raw_add(struct batch *b, struct raw *r, const char *line, size_t n,
                   struct pl_error *err)
{
	while (n > 0 && !r->off) {
		size_t take = PL_SOURCE_CHUNK - r->len < n ? PL_SOURCE_CHUNK - r->len : n;
		int rc;

		if (!r->buf && !(r->buf = malloc(r->cap = PL_SOURCE_CHUNK)))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		memcpy(r->buf + r->len, line, take);
		r->len += take;
		line += take;
		n -= take;
		if (r->len == PL_SOURCE_CHUNK && (rc = push_chunk(b, r, r->len, err)))
			return rc;
	}
	return 0;
}

static int blank_line(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

/* Pass 2 of a streamed file: records line by line, CHUNK_RUNS runs per
 * IT_RUNS item. Returns 0, the rejection, or -1 when the writer stopped;
 * *nruns and *refonly get the totals. */
static int stream_records(struct batch *b, int fd, const char *path, const char *sha, size_t *nruns,
                          size_t *refonly, char **warnings, struct pl_error *err)
{
	struct item *chunk = NULL;
	struct raw raw = {NULL, 0, 0, 0, 0};
	char *line = NULL, *side = NULL, *sbuf = NULL, *format = NULL;
	size_t cap = 0, slen = 0;
	long lineno = 0, record = 0;
	ssize_t got;
	FILE *f;
	int rc;

	if ((rc = pl_import_load_sidecar(path, -1, &side, &sbuf, &slen, err)))
		return rc;
	if (b->opts->format && !(format = strdup(b->opts->format))) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	if (!(f = open_stream(fd, path, err))) {
		rc = PL_EIO;
		goto out;
	}
	errno = 0;
	while ((got = getline(&line, &cap, f)) >= 0) {
		size_t from;

		lineno++;
		if ((rc = raw_add(b, &raw, line, (size_t)got, err)))
			break;
		if (blank_line(line, (size_t)got))
			continue;
		if ((record & 255) == 0 && pl_import_stream_skipped(b)) {
			rc = -1;
			break;
		}
		if (!chunk && !(chunk = pl_import_item_new(IT_RUNS, NULL))) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		from = chunk->runs.n;
		rc = pl_adapters_parse_records(path, line, (size_t)got, format, &chunk->runs, err);
		if (rc) {
			struct pl_run *bad;
			if (err->line > 0)
				err->line += lineno - 1;
			else
				err->line = lineno;
			if (!err->file[0])
				pl_error_at(err, path, err->line, err->column);
			if (rc == PL_ENOMEM || rc == PL_EFORMAT || rc == PL_EUSAGE)
				break;
			/* one bad line: that record is rejected, the others kept */
			if (!(bad = pl_run_list_push(&chunk->runs)) || pl_run_reject(bad, err)) {
				rc = pl_error_set(err, PL_ENOMEM, "out of memory");
				break;
			}
			pl_error_init(err);
			rc = 0;
		}
		for (size_t i = from; i < chunk->runs.n; i++)
			if (!chunk->runs.v[i].provenance_given) /* a ledger record keeps its own */
				chunk->runs.v[i].record = record;
			else
				raw.off = 1;
		record++;
		/* the adapter that read the first record reads the rest (a ledger
		 * record's adapter is its source's: the ledger adapter read it) */
		if (!format && chunk->runs.n > from &&
		    (chunk->runs.v[from].provenance_given || chunk->runs.v[from].adapter) &&
		    !(format = strdup(chunk->runs.v[from].provenance_given ? "ledger"
		                      : chunk->runs.v[from].adapter ? chunk->runs.v[from].adapter
		                                                    : ""))) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		rc = pl_import_prepare(b->opts, path, sha, side, sbuf, slen, &chunk->runs, from, 1,
		                       refonly, warnings, err);
		if (rc)
			break;
		for (size_t i = from; i < chunk->runs.n; i++)
			*nruns += !chunk->runs.v[i].reject;
		if (chunk->runs.n >= CHUNK_RUNS) {
			struct item *full = chunk;
			chunk = NULL;
			if ((rc = make_keys(full, err))) {
				pl_import_item_free(full);
				break;
			}
			if (pl_import_push(b, full)) {
				rc = -1;
				break;
			}
		}
	}
	if (rc == 0 && ferror(f)) {
		pl_error_at(err, path, 0, 0);
		rc = pl_error_set(err, PL_EIO, "cannot read '%s': %s", path, strerror(errno ? errno : EIO));
	}
	/* record == 0: blank lines alone hold no run, as an empty file (no
	 * error: pl_adapters_parse() says so for a file read whole) */
	fclose(f);
	if (rc == 0 && raw.len > 0 && !raw.off)
		rc = push_chunk(b, &raw, raw.len, err);
	if (rc == 0 && chunk) {
		struct item *last = chunk;
		chunk = NULL;
		if ((rc = make_keys(last, err)))
			pl_import_item_free(last);
		else if (pl_import_push(b, last))
			rc = -1;
	}
out:
	pl_import_item_free(chunk);
	free(raw.buf);
	free(line);
	free(side);
	free(sbuf);
	free(format);
	return rc;
}

/* A large JSONL file, open as fd: IT_BEGIN, IT_RUNS..., IT_END. */
static void produce_stream(struct batch *b, int fd, const char *path)
{
	struct item *it = pl_import_item_new(IT_BEGIN, path);
	struct item *end = pl_import_item_new(IT_END, path);
	struct pl_error err;
	int rc;

	if (!it || !end) {
		pl_import_item_free(it);
		pl_import_item_free(end);
		pl_import_push_oom(b);
		return;
	}
	pl_error_init(&err);
	if ((rc = hash_file(fd, path, it->sha, &err))) {
		/* not read: reported as a whole file that failed */
		pl_import_item_free(end);
		it->kind = IT_FILE;
		pl_import_item_fail(it, rc, &err);
		pl_import_push(b, it);
		return;
	}
	memcpy(end->sha, it->sha, sizeof(end->sha));
	pthread_mutex_lock(&b->mu);
	b->skip_stream = 0;
	pthread_mutex_unlock(&b->mu);
	if (pl_import_push(b, it)) {
		pl_import_item_free(end);
		return;
	}
	rc = stream_records(b, fd, path, end->sha, &end->nruns, &end->refonly, &end->warnings, &err);
	if (rc == -1 && pl_import_stopped(b)) { /* the writer stopped */
		pl_import_item_free(end);
		return;
	}
	if (rc && rc != -1) /* -1 alone: a duplicate, skipped */
		pl_import_item_fail(end, rc, &err);
	pl_import_push(b, end);
}

/* Bytes of standard input read into memory before it is spooled. */
#define STDIN_MEM_MAX PL_IMPORT_STREAM_MIN

/* Reads up to n bytes of fd into buf; returns the count (short only at
 * the end), or -1 with errno. */
static ssize_t read_full(int fd, char *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = read(fd, buf + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

/* 1 if the first n bytes of an input have the shape of JSONL: a first
 * line that starts with '{' and ends with '}' (blanks and a CR aside), and
 * a next non-blank line that starts with '{'. One JSON document never has
 * that shape: after a '}' that ends a line (a string cannot span lines),
 * the document goes on with ',', ']' or '}', never with '{'. A pretty
 * printed document's first line is "{" alone. */
static int jsonl_shape(const char *s, size_t n)
{
	const char *end = s + n, *nl, *last;

	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
		s++;
	if (s == end || *s != '{' || !(nl = memchr(s, '\n', (size_t)(end - s))))
		return 0;
	last = nl;
	while (last > s && (last[-1] == ' ' || last[-1] == '\t' || last[-1] == '\r'))
		last--;
	if (last - s < 2 || last[-1] != '}')
		return 0;
	for (s = nl + 1; s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'); s++)
		;
	return s < end && *s == '{';
}

/* Standard input ("-"): read into memory when it ends within
 * STDIN_MEM_MAX bytes, as a file read whole. Longer input is spooled to an
 * unlinked temporary file in $TMPDIR (memory stays bounded), then streamed
 * line by line like a large *.jsonl file when it has JSONL's shape
 * (jsonl_shape() on its first STDIN_MEM_MAX bytes) or is over
 * PL_IMPORT_WHOLE_MAX bytes (the only form so much input can be imported
 * in), and read whole from there otherwise: a file read whole holds all its
 * runs in memory at once, which a pipe of JSONL never needs. */
static void produce_stdin(struct batch *b, const struct src *f)
{
	const char *tmpdir = getenv("TMPDIR");
	char *buf = malloc(STDIN_MEM_MAX + 1), *tmpl = NULL;
	struct pl_error err;
	ssize_t got;
	size_t total;
	int fd = -1, e, jsonl;

	pl_error_init(&err);
	pl_error_at(&err, f->path, 0, 0);
	if (!buf) {
		pl_import_push_oom(b);
		return;
	}
	if ((got = read_full(STDIN_FILENO, buf, STDIN_MEM_MAX + 1)) < 0) {
		e = errno;
		free(buf);
		pl_error_set(&err, PL_EIO, "cannot read standard input: %s", strerror(e));
		produce_buffer(b, f, NULL, 0, PL_EIO, &err);
		return;
	}
	if ((size_t)got <= STDIN_MEM_MAX) {
		buf[got] = '\0';
		produce_buffer(b, f, buf, (size_t)got, 0, &err);
		return;
	}
	if (!tmpdir || tmpdir[0] != '/')
		tmpdir = "/tmp";
	if (!(tmpl = pl_fs_path(tmpdir, "perfledger-stdin-XXXXXX"))) {
		free(buf);
		pl_import_push_oom(b);
		return;
	}
	fd = mkstemp(tmpl);
	e = errno;
	if (fd >= 0)
		unlink(tmpl); /* gone when closed, whatever happens */
	total = (size_t)got;
	jsonl = jsonl_shape(buf, (size_t)got);
	while (fd >= 0 && got > 0) {
		size_t off = 0;
		while (off < (size_t)got) {
			ssize_t w = write(fd, buf + off, (size_t)got - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				e = errno;
				close(fd);
				fd = -1;
				break;
			}
			off += (size_t)w;
		}
		if (fd < 0)
			break;
		if ((got = read_full(STDIN_FILENO, buf, STDIN_MEM_MAX)) < 0) {
			e = errno;
			free(buf);
			free(tmpl);
			close(fd);
			pl_error_set(&err, PL_EIO, "cannot read standard input: %s", strerror(e));
			produce_buffer(b, f, NULL, 0, PL_EIO, &err);
			return;
		}
		total += (size_t)got;
	}
	free(buf);
	if (fd < 0) {
		pl_error_set(&err, PL_EIO,
		             "cannot spool standard input (over %d MiB) to '%s': %s", STDIN_MEM_MAX >> 20,
		             tmpl, strerror(e));
		free(tmpl);
		produce_buffer(b, f, NULL, 0, PL_EIO, &err);
		return;
	}
	free(tmpl);
	if (!jsonl && total <= PL_IMPORT_WHOLE_MAX && lseek(fd, 0, SEEK_SET) == 0)
		produce_whole(b, f, fd, total, NULL);
	else
		produce_stream(b, fd, f->path);
	close(fd);
}

/* One input file: streamed when it is a large regular *.jsonl file. The
 * file is opened once, through util's checks, and both the decision and
 * the reads use that descriptor (no gap between a stat() and an open()). */
/* The pieces of a file read in pieces: each hashed, kept as a chunk of
 * its source bytes and fed to the streaming parser. Returns 0 at the end
 * of the file, PL_ENOMEM (err set), or -1 when it cannot be read (errno;
 * read whole then, which words it). */
static int read_pieces(int fd, struct item *it, struct pl_gap_stream *gs, struct pl_error *err)
{
	struct pl_sha256 *h = pl_sha256_new();
	char *piece = malloc(PL_SOURCE_CHUNK);
	ssize_t got = 0;
	int rc = 0;

	if (!h || !piece)
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	while (rc == 0 && (got = read_full(fd, piece, PL_SOURCE_CHUNK)) > 0) {
		if (pl_sha256_update(h, piece, (size_t)got) ||
		    PL_ALLOC_GROW(it->srcs, it->nsrcs + 1, it->srcs_cap)) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			break;
		}
		if ((rc = pl_source_compress(piece, (size_t)got, &it->srcs[it->nsrcs], err)))
			break;
		it->nsrcs++;
		pl_gap_stream_feed(gs, piece, (size_t)got);
		if ((size_t)got < PL_SOURCE_CHUNK)
			break;
	}
	if (rc == 0 && got < 0)
		rc = -1;
	if (rc == 0 && pl_sha256_final(h, it->sha))
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc == 0)
		it->have_sha = 1;
	free(piece);
	pl_sha256_free(h);
	return rc;
}

/* Drops the chunks of a file read in pieces (a ledger export's runs name
 * their own sources; or the file is read whole again). */
static void drop_chunks(struct item *it)
{
	for (size_t i = 0; i < it->nsrcs; i++)
		pl_source_chunk_release(&it->srcs[i]);
	it->nsrcs = 0;
}

/*
 * A large JSON file (at least the adapters' stream minimum, 4 MiB; not
 * JSONL) read in PL_SOURCE_CHUNK pieces, never whole: each piece is
 * hashed, compressed as the next chunk of the file's kept bytes (as a
 * streamed JSONL's are) and fed to the streaming parser, so that a 52 MB
 * vLLM detailed result is not held beside its parsed gaps and its
 * compressed bytes. A file the streaming parser cannot read (another
 * format, an unexpected shape, a read error) is read again whole and
 * parsed as before, every message the same; its bytes must hash as they
 * did, and its chunks stay as made (one layout per file whichever way it
 * parsed). Returns 0 when it made the file's item, else -1 (nothing
 * done: the caller reads the file whole).
 */
static int produce_pieces(struct batch *b, const struct src *f, int fd, size_t size)
{
	struct item *it = pl_import_item_new(IT_FILE, f->path);
	struct pl_gap_stream *gs = pl_gap_stream_new();
	struct pl_error err;
	char *buf = NULL, sha[65];
	size_t len = 0;
	int rc;

	pl_error_init(&err);
	if (!it || !gs) {
		pl_gap_stream_free(gs);
		pl_import_item_free(it);
		pl_import_push_oom(b);
		return 0;
	}
	/* from the start again, for the whole read of a fallback */
	if ((rc = read_pieces(fd, it, gs, &err)) == -1 || lseek(fd, 0, SEEK_SET) != 0) {
		pl_gap_stream_free(gs);
		pl_import_item_free(it);
		return -1;
	}
	if (rc == 0)
		rc = pl_adapters_parse_stream(f->path, gs, b->opts->format, &it->runs, &err);
	pl_gap_stream_free(gs);
	if (rc == 1) { /* the streaming parser cannot read it: whole, as before */
		memcpy(sha, it->sha, sizeof(sha));
		rc = read_whole(fd, f->path, size, &buf, &len, &err);
		if (rc == 0 && (rc = pl_sha256_hex(buf, len, it->sha)) != 0)
			rc = pl_error_set(&err, PL_ENOMEM, "out of memory");
		if (rc == 0 && strcmp(sha, it->sha) != 0)
			rc = pl_error_set(&err, PL_EIO, "'%s' changed while it was read", f->path);
		if (rc == 0)
			rc = parse_bytes(b, f->path, buf, len, it, &err);
		free(buf);
	}
	if (rc || (it->runs.n > 0 && it->runs.v[0].provenance_given))
		drop_chunks(it);
	finish_item(b, f, it, rc, &err);
	return 0;
}

void pl_import_produce_file(struct batch *b, const struct src *f)
{
	const char *path = f->path;
	struct pl_error err;
	struct stat sb;
	int fd;

	if (strcmp(path, "-") == 0) {
		produce_stdin(b, f);
		return;
	}
	pl_error_init(&err);
	fd = open_input(f, &sb, &err);
	if (fd >= 0 && pl_import_has_suffix(path, ".jsonl") && sb.st_size > PL_IMPORT_STREAM_MIN)
		produce_stream(b, fd, path);
	else if (fd < 0 || (size_t)sb.st_size < pl_adapters_stream_min() ||
	         (size_t)sb.st_size > PL_IMPORT_WHOLE_MAX || produce_pieces(b, f, fd, (size_t)sb.st_size))
		produce_whole(b, f, fd, fd >= 0 ? (size_t)sb.st_size : 0, &err);
	if (fd >= 0)
		close(fd);
}
