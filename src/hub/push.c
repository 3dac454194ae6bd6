/*
 * push.c — `perfledger push`: a ledger's runs to the hub as their export
 * lines, PL_HUB_BATCH runs per transaction.
 *
 * Each batch, in one READ COMMITTED transaction: (1) claims every record
 * identity (sha256, record) in perfledger.records, ON CONFLICT DO NOTHING,
 * so that a concurrent push of the same identity waits for the first to
 * commit; (2) reads the condition keys the hub holds for them; a run none
 * of whose keys (current, as imported) is among them is skipped and named,
 * unless it only lacks values the hub's copy holds (as merge decides: the
 * same run, counted present);
 * (3) stores the others' keys and lines (ON CONFLICT DO NOTHING: a line
 * there already is counted present), and (4) the source bytes the hub
 * lacks. PostgreSQL's unique indexes do the work of many writers: there is
 * no lock of ours. Every value is a bound parameter; the SQL text is built
 * only of our own placeholders.
 */
#include "hub/hub_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/carried.h"
#include "core/condkey.h"
#include "core/hash.h"
#include "render/render.h"
#include "util/alloc.h"
#include "util/buf.h"

/* One run of a batch. */
struct item {
	long long id;          /* local run id, for messages */
	char sha256[65];       /* source bytes */
	char record[24];       /* record index, as text */
	char *line;            /* export line without its newline; owned */
	char line_sha[65];     /* sha256 of line */
	char key_sha[2][65];   /* current key, key as imported ("" when the same) */
	char *key_text;        /* the key as imported (what the claim stores); owned */
	int skip;              /* refused: conflicting conditions */
};

struct push_ctx {
	struct pl_hub *h;
	struct pl_store *st;
	struct pl_carried all; /* every accepted step, revision, retraction, by run id */
	size_t next[3];        /* per list, the first entry not yet used */
	struct item *items;    /* the open batch */
	size_t n, cap;         /* entries, allocated */
	char **sent_sources;   /* sha256s whose bytes this push saw on the hub or sent */
	size_t nsent, sent_cap;
	struct pl_push_stats *ps;
	char *mem;             /* the memstream buffer */
	size_t memlen;
	FILE *ms;              /* memstream the lines are rendered into */
	int more;              /* conflicts counted after the first */
};

#define SLICE(list, k, id, view)                                                      \
	do {                                                                              \
		while (c->next[k] < (list).n && (list).v[c->next[k]].run_id < (id))           \
			c->next[k]++;                                                             \
		(view).v = (list).v + c->next[k];                                             \
		(view).n = 0;                                                                 \
		while (c->next[k] < (list).n && (list).v[c->next[k]].run_id == (id)) {        \
			c->next[k]++;                                                             \
			(view).n++;                                                               \
		}                                                                             \
	} while (0)

static void items_release(struct push_ctx *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->items[i].line);
		free(c->items[i].key_text);
	}
	c->n = 0;
}

/* sha256 hex of key_text, NUL, run_started_at: a condition identity as
 * merge compares them. */
static int key_identity(const struct pl_run *run, char **text, char hex[65])
{
	struct pl_cond_key key;
	const char *started = run->cond[PL_C_RUN_STARTED_AT].set
	                          ? run->cond[PL_C_RUN_STARTED_AT].text : "";
	struct pl_sha256 *s;
	int rc;

	memset(&key, 0, sizeof(key));
	if (pl_cond_key_make(run, &key))
		return PL_ENOMEM;
	s = pl_sha256_new();
	rc = !s || pl_sha256_update(s, key.text, key.len + 1) ||
	     pl_sha256_update(s, started, strlen(started)) || pl_sha256_final(s, hex);
	pl_sha256_free(s);
	if (!rc && text) {
		size_t n = key.len + strlen(started) + 24;
		*text = malloc(n);
		if (*text)
			snprintf(*text, n, "%s%srun_started_at=%s", key.text,
			         key.len && key.text[key.len - 1] != '\n' ? "\n" : "", started);
		rc = !*text;
	}
	pl_cond_key_release(&key);
	return rc ? PL_ENOMEM : 0;
}

/* "($1,$2::bigint,...),(...)" for nrows rows of ncols placeholders starting
 * at $first, column j cast to casts[j] ("" for none). Our text only. */
static int values_sql(struct pl_buf *b, size_t nrows, size_t ncols, const char *const *casts)
{
	int p = 1;

	for (size_t r = 0; r < nrows; r++) {
		if (pl_buf_adds(b, r ? ",(" : "("))
			return PL_ENOMEM;
		for (size_t j = 0; j < ncols; j++) {
			char ph[40];
			int len = snprintf(ph, sizeof(ph), "%s$%d%s", j ? "," : "", p++, casts[j]);
			if (pl_buf_add(b, ph, (size_t)len))
				return PL_ENOMEM;
		}
		if (pl_buf_addc(b, ')'))
			return PL_ENOMEM;
	}
	return 0;
}

/* Runs head || VALUES rows || tail with params (nrows*ncols, text). *res
 * gets the result (caller PQclear()s) when res is not NULL. */
static int exec_rows(struct pl_hub *h, const char *head, size_t nrows, size_t ncols,
                     const char *const *casts, const char *tail, const char *const *params,
                     PGresult **res, const char *what, struct pl_error *err)
{
	struct pl_buf b;
	PGresult *r;
	ExecStatusType s;
	int rc = 0;

	pl_buf_init(&b);
	if (pl_buf_adds(&b, head) || values_sql(&b, nrows, ncols, casts) ||
	    pl_buf_adds(&b, tail)) {
		pl_buf_release(&b);
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	r = PQexecParams(h->conn, b.data, (int)(nrows * ncols), NULL, params, NULL, NULL, 0);
	pl_buf_release(&b);
	s = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		rc = pl_hub_fail(h, err, what);
		PQclear(r);
		return rc;
	}
	if (res)
		*res = r;
	else
		PQclear(r);
	return 0;
}

/* Names one refused run in ps->skipped_first: the first with its fields
 * and both values, the next ones by id. */
static void name_skip(struct push_ctx *c, const struct item *it, const char *hub_key)
{
	struct pl_push_stats *ps = c->ps;
	size_t used = strlen(ps->skipped_first);

	if (ps->skipped == 1) {
		char here[700], there[700];
		size_t k = 0;

		/* the key lines, one "name=value" a line, shown as "; "-separated */
		snprintf(here, sizeof(here), "%s", it->key_text ? it->key_text : "");
		snprintf(there, sizeof(there), "%s", hub_key ? hub_key : "");
		for (k = 0; here[k]; k++)
			if (here[k] == '\n')
				here[k] = ';';
		for (k = 0; there[k]; k++)
			if (there[k] == '\n')
				there[k] = ';';
		snprintf(ps->skipped_first, sizeof(ps->skipped_first),
		         "run %lld (sha256 %.12s, record %s): conditions '%s' here, '%s' on the hub",
		         it->id, it->sha256, it->record, here, there);
	} else if (ps->skipped <= 11) {
		snprintf(ps->skipped_first + used, sizeof(ps->skipped_first) - used, "%s %lld",
		         ps->skipped == 2 ? "; also runs" : ",", it->id);
	} else {
		c->more = 1;
	}
}

/* The source bytes of the batch the hub lacks, chunk by chunk. */
static int push_sources(struct push_ctx *c, struct pl_error *err)
{
	const char **params = NULL;
	char **want = NULL;
	size_t nwant = 0;
	PGresult *r = NULL;
	int rc = 0;
	static const char *const cast1[] = {""};

	want = calloc(c->n ? c->n : 1, sizeof(*want));
	params = calloc(c->n ? c->n : 1, sizeof(*params));
	if (!want || !params) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < c->n; i++) {
		int seen = 0, found = 0;

		if (c->items[i].skip)
			continue;
		for (size_t k = 0; k < c->nsent && !seen; k++)
			seen = strcmp(c->sent_sources[k], c->items[i].sha256) == 0;
		for (size_t k = 0; k < nwant && !seen; k++)
			seen = strcmp(want[k], c->items[i].sha256) == 0;
		if (seen)
			continue;
		if ((rc = pl_store_has_source(c->st, c->items[i].sha256, &found, err)))
			goto out;
		if (found)
			want[nwant++] = c->items[i].sha256;
	}
	if (!nwant)
		goto out;
	for (size_t k = 0; k < nwant; k++)
		params[k] = want[k];
	if ((rc = exec_rows(c->h,
	                    "SELECT DISTINCT sha256 FROM perfledger.sources WHERE seq = 0 AND sha256 IN "
	                    "(SELECT column1 FROM (VALUES ",
	                    nwant, 1, cast1, ") v)", params, &r, "reading the hub's source bytes",
	                    err)))
		goto out;
	for (size_t k = 0; k < nwant; k++) {
		int there = 0;
		long long size = 0, chunks = 0;

		for (int t = 0; t < PQntuples(r) && !there; t++)
			there = strcmp(PQgetvalue(r, t, 0), want[k]) == 0;
		if (PL_ALLOC_GROW(c->sent_sources, c->nsent + 1, c->sent_cap) ||
		    !(c->sent_sources[c->nsent] = strdup(want[k]))) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			goto out;
		}
		c->nsent++;
		if (there)
			continue;
		if ((rc = pl_store_source_size(c->st, want[k], &size, &chunks, err)))
			goto out;
		for (long long seq = 0; seq < chunks; seq++) {
			char *bytes = NULL, seqt[24], sizet[24];
			size_t len = 0;
			struct pl_source_chunk z;
			const char *pv[4];
			int lens[4] = {0, 0, 0, 0}, fmts[4] = {0, 0, 0, 1};
			PGresult *ir;

			memset(&z, 0, sizeof(z));
			if ((rc = pl_store_read_source_chunk(c->st, want[k], seq, &bytes, &len, err)))
				goto out;
			rc = pl_source_compress(bytes, len, &z, err);
			free(bytes);
			if (rc)
				goto out;
			snprintf(seqt, sizeof(seqt), "%lld", seq);
			snprintf(sizet, sizeof(sizet), "%zu", z.size);
			pv[0] = want[k];
			pv[1] = seqt;
			pv[2] = sizet;
			pv[3] = (const char *)z.z;
			lens[3] = (int)z.zlen;
			ir = PQexecParams(c->h->conn,
			                  "INSERT INTO perfledger.sources (sha256, seq, size, z) VALUES "
			                  "($1, $2::bigint, $3::bigint, $4::bytea) ON CONFLICT DO NOTHING",
			                  4, NULL, pv, lens, fmts, 0);
			pl_source_chunk_release(&z);
			if (!ir || PQresultStatus(ir) != PGRES_COMMAND_OK) {
				rc = pl_hub_fail(c->h, err, "storing source bytes");
				PQclear(ir);
				goto out;
			}
			c->ps->source_chunks += strcmp(PQcmdTuples(ir), "1") == 0;
			PQclear(ir);
		}
	}
out:
	PQclear(r);
	free(want);
	free(params);
	return rc;
}

/* Batch order: by sha256, then record, so that concurrent pushes of the
 * same identities take their row locks in one order (no deadlock). */
static int item_cmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	int c = strcmp(x->sha256, y->sha256);
	long long rx = strtoll(x->record, NULL, 10), ry = strtoll(y->record, NULL, 10);

	if (c)
		return c;
	return (rx > ry) - (rx < ry);
}

/* (0) of a batch: drops the versions the hub holds already, counted
 * present; nothing is written for them (their keys and source bytes were
 * committed with them). params holds room for 3 per item. */
static int drop_present(struct push_ctx *c, const char **params, struct pl_error *err)
{
	static const char *const claim_cast[] = {"", "::bigint", ""};
	PGresult *r = NULL;
	int rc;

	for (size_t i = 0; i < c->n; i++) {
		params[3 * i] = c->items[i].sha256;
		params[3 * i + 1] = c->items[i].record;
		params[3 * i + 2] = c->items[i].line_sha;
	}
	if ((rc = exec_rows(c->h,
	                    "SELECT l.sha256, l.record::text, l.line_sha256 FROM perfledger.lines l "
	                    "JOIN (VALUES ",
	                    c->n, 3, claim_cast,
	                    ") v (sha256, record, line_sha256) ON l.sha256 = v.sha256 AND l.record = "
	                    "v.record AND l.line_sha256 = v.line_sha256",
	                    params, &r, "reading the hub's runs", err)))
		return rc;
	if (PQntuples(r) > 0) {
		size_t k = 0;
		for (size_t i = 0; i < c->n; i++) {
			int there = 0;
			for (int t = 0; t < PQntuples(r) && !there; t++)
				there = strcmp(PQgetvalue(r, t, 2), c->items[i].line_sha) == 0 &&
				        strcmp(PQgetvalue(r, t, 0), c->items[i].sha256) == 0 &&
				        strcmp(PQgetvalue(r, t, 1), c->items[i].record) == 0;
			if (there) {
				c->ps->present++;
				free(c->items[i].line);
				free(c->items[i].key_text);
				continue;
			}
			c->items[k++] = c->items[i];
		}
		c->n = k;
	}
	PQclear(r);
	return 0;
}

/* 1 when every line of mine ("name=value" lines) is a line of hub's: the
 * run here only lacks values the hub's copy holds (an older perfledger
 * did not derive them), which merge takes for the same run. */
static int lines_cover(const char *hub, const char *mine)
{
	size_t hn = strlen(hub);

	while (*mine) {
		const char *end = strchr(mine, '\n');
		size_t len = end ? (size_t)(end - mine) : strlen(mine);
		int found = 0;

		for (const char *p = hub; !found && p < hub + hn;) {
			const char *pe = strchr(p, '\n');
			size_t plen = pe ? (size_t)(pe - p) : strlen(p);

			found = plen == len && memcmp(p, mine, len) == 0;
			p += plen + (pe != NULL);
		}
		if (!found && len)
			return 0;
		mine += len + (end != NULL);
	}
	return 1;
}

/* (2) of a batch, in its transaction: the keys the hub holds for each
 * item, and the first key for messages; an item the hub holds under other
 * keys only is marked skip and counted: present where its key only lacks
 * lines of the hub's first key (lines_cover), else a conflict, named.
 * params: room for 2 per item. */
static int mark_conflicts(struct push_ctx *c, const char **params, struct pl_error *err)
{
	static const char *const id_cast[] = {"", "::bigint"};
	PGresult *r = NULL, *kr = NULL;
	int rc;

	for (size_t i = 0; i < c->n; i++) {
		params[2 * i] = c->items[i].sha256;
		params[2 * i + 1] = c->items[i].record;
	}
	if ((rc = exec_rows(c->h,
	                    "SELECT k.sha256, k.record::text, k.key_sha256 FROM perfledger.record_keys k "
	                    "JOIN (VALUES ",
	                    c->n, 2, id_cast,
	                    ") v (sha256, record) ON k.sha256 = v.sha256 AND k.record = v.record",
	                    params, &kr, "reading the hub's conditions", err)))
		return rc;
	if ((rc = exec_rows(c->h,
	                    "SELECT r.sha256, r.record::text, r.key FROM perfledger.records r JOIN "
	                    "(VALUES ",
	                    c->n, 2, id_cast,
	                    ") v (sha256, record) ON r.sha256 = v.sha256 AND r.record = v.record",
	                    params, &r, "reading the hub's conditions", err))) {
		PQclear(kr);
		return rc;
	}
	for (size_t i = 0; i < c->n; i++) {
		struct item *it = &c->items[i];
		int any = 0, match = 0;

		for (int t = 0; t < PQntuples(kr); t++) {
			if (strcmp(PQgetvalue(kr, t, 0), it->sha256) != 0 ||
			    strcmp(PQgetvalue(kr, t, 1), it->record) != 0)
				continue;
			any = 1;
			match |= strcmp(PQgetvalue(kr, t, 2), it->key_sha[0]) == 0 ||
			         (it->key_sha[1][0] && strcmp(PQgetvalue(kr, t, 2), it->key_sha[1]) == 0);
		}
		if (any && !match) {
			const char *hub_key = NULL;
			for (int t = 0; t < PQntuples(r) && !hub_key; t++)
				if (strcmp(PQgetvalue(r, t, 0), it->sha256) == 0 &&
				    strcmp(PQgetvalue(r, t, 1), it->record) == 0)
					hub_key = PQgetvalue(r, t, 2);
			it->skip = 1;
			if (hub_key && it->key_text && lines_cover(hub_key, it->key_text)) {
				c->ps->present++; /* as merge decides: the same run, there already */
				continue;
			}
			c->ps->skipped++;
			name_skip(c, it, hub_key);
		}
	}
	PQclear(r);
	PQclear(kr);
	return 0;
}

/* (3) of a batch, in its transaction: the keys and lines of the items not
 * skipped; a line the hub has already is counted present. params: room for
 * 8 per item (two keys of 3, or a line of 4). */
static int store_rows(struct push_ctx *c, const char **params, struct pl_error *err)
{
	static const char *const key_cast[] = {"", "::bigint", ""};
	static const char *const line_cast[] = {"", "::bigint", "", ""};
	size_t np = 0, nok = 0;
	int rc;

	for (size_t i = 0; i < c->n; i++) {
		struct item *it = &c->items[i];
		for (int k = 0; k < 2 && !it->skip; k++) {
			if (!it->key_sha[k][0])
				continue;
			params[np++] = it->sha256;
			params[np++] = it->record;
			params[np++] = it->key_sha[k];
		}
	}
	if (np && (rc = exec_rows(c->h,
	                          "INSERT INTO perfledger.record_keys (sha256, record, key_sha256) VALUES ",
	                          np / 3, 3, key_cast, " ON CONFLICT DO NOTHING", params, NULL,
	                          "storing conditions", err)))
		return rc;
	np = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct item *it = &c->items[i];
		if (it->skip)
			continue;
		params[np++] = it->sha256;
		params[np++] = it->record;
		params[np++] = it->line_sha;
		params[np++] = it->line;
		nok++;
	}
	if (nok) {
		PGresult *lr = NULL;
		if ((rc = exec_rows(c->h,
		                    "INSERT INTO perfledger.lines (sha256, record, line_sha256, line) VALUES ",
		                    nok, 4, line_cast, " ON CONFLICT DO NOTHING", params, &lr,
		                    "storing runs", err)))
			return rc;
		c->ps->stored += strtoll(PQcmdTuples(lr), NULL, 10);
		c->ps->present += (long long)nok - strtoll(PQcmdTuples(lr), NULL, 10);
		PQclear(lr);
	}
	return 0;
}

/* The open batch, in one transaction. */
static int flush(struct push_ctx *c, struct pl_error *err)
{
	static const char *const claim_cast[] = {"", "::bigint", ""};
	const char **params = NULL;
	int rc = 0;

	if (!c->n)
		return 0;
	qsort(c->items, c->n, sizeof(*c->items), item_cmp);
	params = calloc(c->n * 4 * 2, sizeof(*params));
	if (!params)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if ((rc = drop_present(c, params, err)) || !c->n)
		goto out;
	if ((rc = pl_hub_exec(c->h, "BEGIN", "starting a push transaction", err)))
		goto out;
	/* (1) claim the identities */
	for (size_t i = 0; i < c->n; i++) {
		params[3 * i] = c->items[i].sha256;
		params[3 * i + 1] = c->items[i].record;
		params[3 * i + 2] = c->items[i].key_text;
	}
	if ((rc = exec_rows(c->h, "INSERT INTO perfledger.records (sha256, record, key) VALUES ", c->n,
	                    3, claim_cast, " ON CONFLICT DO NOTHING", params, NULL,
	                    "claiming record identities", err)))
		goto fail;
	/* (2) refuse conflicting conditions, (3) keys and lines of the others,
	 * (4) source bytes */
	if ((rc = mark_conflicts(c, params, err)) || (rc = store_rows(c, params, err)) ||
	    (rc = push_sources(c, err)))
		goto fail;
	if ((rc = pl_hub_exec(c->h, "COMMIT", "committing a push transaction", err)))
		goto out;
	c->ps->transactions++;
	goto out;
fail:
	PQclear(PQexec(c->h->conn, "ROLLBACK"));
out:
	free(params);
	items_release(c);
	return rc;
}

static int add_run(void *vctx, const struct pl_run *run, struct pl_error *err)
{
	struct push_ctx *c = vctx;
	struct pl_carried view;
	struct item *it;
	int rc;

	memset(&view, 0, sizeof(view));
	SLICE(c->all.accepted, 0, run->id, view.accepted);
	SLICE(c->all.revisions, 1, run->id, view.revisions);
	SLICE(c->all.retractions, 2, run->id, view.retractions);
	if (PL_ALLOC_GROW(c->items, c->n + 1, c->cap))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	it = &c->items[c->n];
	memset(it, 0, sizeof(*it));
	c->n++;
	it->id = run->id;
	snprintf(it->sha256, sizeof(it->sha256), "%s", run->sha256);
	snprintf(it->record, sizeof(it->record), "%ld", run->record);
	rewind(c->ms);
	if (pl_render_export_run(c->ms, run, &view) || fflush(c->ms))
		return pl_error_set(err, PL_ENOMEM, "cannot render run %lld", run->id);
	{
		long end = ftell(c->ms);
		size_t len = end > 0 ? (size_t)end : 0;
		while (len && (c->mem[len - 1] == '\n'))
			len--;
		it->line = malloc(len + 1);
		if (!it->line)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		memcpy(it->line, c->mem, len);
		it->line[len] = '\0';
		if (pl_sha256_hex(it->line, len, it->line_sha))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	if (run->revision > 1 || view.revisions.n) { /* amended: its key as imported too */
		struct pl_run orig;

		pl_run_init(&orig);
		rc = pl_store_run_as_imported(c->st, run, &orig, err);
		if (!rc && (key_identity(&orig, &it->key_text, it->key_sha[1]) ||
		            key_identity(run, NULL, it->key_sha[0])))
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		pl_run_release(&orig);
		if (rc)
			return rc;
		if (strcmp(it->key_sha[0], it->key_sha[1]) == 0)
			it->key_sha[1][0] = '\0';
	} else {
		if (key_identity(run, &it->key_text, it->key_sha[0]))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	c->ps->runs++;
	if (c->n >= PL_HUB_BATCH)
		return flush(c, err);
	return 0;
}

int pl_hub_push(struct pl_hub *h, struct pl_store *st, const struct pl_filter *filters,
                size_t nfilters, struct pl_push_stats *ps, struct pl_error *err)
{
	struct push_ctx c;
	int rc;

	memset(ps, 0, sizeof(*ps));
	memset(&c, 0, sizeof(c));
	c.h = h;
	c.st = st;
	c.ps = ps;
	if ((rc = pl_hub_migrate(h, 1, NULL, err)))
		return rc;
	c.ms = open_memstream(&c.mem, &c.memlen);
	if (!c.ms)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	pl_store_set_retracted_mode(st, PL_RETRACTED_ALL);
	rc = pl_store_accepted_steps_all(st, &c.all.accepted, err);
	if (!rc)
		rc = pl_store_revisions(st, 0, &c.all.revisions, err);
	if (!rc)
		rc = pl_store_retractions(st, 0, &c.all.retractions, err);
	if (!rc)
		rc = pl_store_each_run(st, filters, nfilters, add_run, &c, err);
	if (!rc)
		rc = flush(&c, err);
	if (c.more || ps->skipped > 11) {
		size_t used = strlen(ps->skipped_first);
		snprintf(ps->skipped_first + used, sizeof(ps->skipped_first) - used,
		         " and %lld more", ps->skipped - 11);
	}
	items_release(&c);
	free(c.items);
	for (size_t k = 0; k < c.nsent; k++)
		free(c.sent_sources[k]);
	free(c.sent_sources);
	fclose(c.ms);
	free(c.mem);
	pl_accepted_list_release(&c.all.accepted);
	pl_revision_list_release(&c.all.revisions);
	pl_retraction_list_release(&c.all.retractions);
	return rc;
}
