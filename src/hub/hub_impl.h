/*
 * hub_impl.h — what the hub's files share: the connection struct and the
 * helpers that turn a libpq failure into a struct pl_error. Private to
 * src/hub/ (it exposes libpq's types).
 */
#ifndef PL_HUB_IMPL_H
#define PL_HUB_IMPL_H

#include <libpq-fe.h>
#include <stddef.h>

#include "hub/hub.h"

struct pl_hub {
	PGconn *conn;   /* the connection */
	char *conninfo; /* as given, kept only to redact its password from messages; owned */
	char name[512]; /* "HOST:PORT/DATABASE" (pl_hub_name) */
};

/* Replaces in buf (n bytes, NUL-terminated) every occurrence of the
 * password conninfo gives (URI user information or password=) and of
 * $PGPASSWORD by "***". */
void pl_hub_redact(const char *conninfo, char *buf, size_t n);

/* PL_EIO "hub 'NAME': WHAT: <server message, password redacted>". */
int pl_hub_fail(struct pl_hub *h, struct pl_error *err, const char *what);

/* Runs sql (no parameters: our own text only); PL_EIO via pl_hub_fail()
 * when it does not succeed. */
int pl_hub_exec(struct pl_hub *h, const char *sql, const char *what, struct pl_error *err);

#endif
