/*
 * lines.c — a *.jsonl file read whole whose text does not parse as a whole
 * (its last line cut short by an interrupted write, a line of junk) is read
 * again line by line, as a streamed file is (parse_file.c): the good lines are
 * kept and each bad one is rejected as a record naming its line, so that a
 * small file and a large one behave alike and a benchmark killed mid-write
 * loses only the line it was writing.
 */
#include <stdlib.h>
#include <string.h>

#include "adapters/adapters.h"
#include "import/import_impl.h"

static int blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

int pl_import_parse_lines(const char *path, const char *buf, size_t len, const char *format,
                          struct pl_run_list *out, struct pl_error *err)
{
	char *fmt = NULL;
	long lineno = 0, record = 0;
	size_t off = 0;
	int rc = 0;

	if (format && !(fmt = strdup(format)))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	while (off < len && rc == 0) {
		const char *line = buf + off, *nl = memchr(line, '\n', len - off);
		size_t n = nl ? (size_t)(nl - line) + 1 : len - off, from = out->n;
		struct pl_error e;

		off += n;
		lineno++;
		if (blank(line, n))
			continue;
		pl_error_init(&e);
		rc = pl_adapters_parse_records(path, line, n, fmt, out, &e);
		if (rc) {
			struct pl_run *bad;

			/* the line's own position, in the file */
			pl_error_at(&e, path, e.line > 0 ? e.line + lineno - 1 : lineno, e.column);
			if (rc == PL_ENOMEM || rc == PL_EFORMAT || rc == PL_EUSAGE) {
				*err = e;
				break;
			}
			if (!(bad = pl_run_list_push(out)) || pl_run_reject(bad, &e)) {
				rc = pl_error_set(err, PL_ENOMEM, "out of memory");
				break;
			}
			rc = 0;
		}
		for (size_t i = from; i < out->n; i++)
			out->v[i].record = record;
		record++;
		/* the adapter that read the first record reads the rest */
		if (!fmt && out->n > from && !out->v[from].reject &&
		    (out->v[from].provenance_given || out->v[from].adapter) &&
		    !(fmt = strdup(out->v[from].provenance_given ? "ledger" : out->v[from].adapter)))
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	free(fmt);
	return rc;
}
