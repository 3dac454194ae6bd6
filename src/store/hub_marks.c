/*
 * store/hub_marks.c — the watermark of each team hub this ledger pulls
 * from (table hub_marks, migration 016; db.h).
 */
#include "store/store_impl.h"

#include <stdlib.h>
#include <string.h>

int pl_store_hub_mark(struct pl_store *st, const char *hub, char **snapshot, struct pl_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc = 0, step;

	*snapshot = NULL;
	if (sqlite3_prepare_v2(st->db, "SELECT snapshot FROM hub_marks WHERE hub = ?1", -1, &s,
	                       NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "reading a hub's watermark");
	sqlite3_bind_text(s, 1, hub, -1, SQLITE_STATIC);
	step = sqlite3_step(s);
	if (step == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);
		if (!(*snapshot = strdup(t ? t : "")))
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
	} else if (step != SQLITE_DONE) {
		rc = pl_store_fail(st, err, "reading a hub's watermark");
	}
	sqlite3_finalize(s);
	return rc;
}

int pl_store_set_hub_mark(struct pl_store *st, const char *hub, const char *snapshot, int replace,
                          struct pl_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	if (sqlite3_prepare_v2(st->db,
	                       replace ? "INSERT INTO hub_marks (hub, snapshot) VALUES (?1, ?2) ON "
	                                 "CONFLICT (hub) DO UPDATE SET snapshot = excluded.snapshot"
	                               : "INSERT INTO hub_marks (hub, snapshot) VALUES (?1, ?2) ON "
	                                 "CONFLICT (hub) DO NOTHING",
	                       -1, &s, NULL) != SQLITE_OK)
		return pl_store_fail(st, err, "storing a hub's watermark");
	sqlite3_bind_text(s, 1, hub, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, snapshot, -1, SQLITE_STATIC);
	rc = sqlite3_step(s) == SQLITE_DONE ? 0 : pl_store_fail(st, err, "storing a hub's watermark");
	sqlite3_finalize(s);
	return rc;
}
