#!/bin/sh
# pg_server.sh — a throwaway PostgreSQL 15 for the hub tests and figures.
# Sourced: pg_start DIR starts a server whose data directory and Unix
# socket are under DIR (no TCP listener at all), as the user nobody when
# run as root (PostgreSQL refuses to run as root); it sets PGHOST (the
# socket directory), PGPORT, PGUSER, PGDATABASE=postgres. pg_stop stops it
# (fast shutdown) and is safe to call twice. pg_unavailable prints why
# PostgreSQL cannot run here, or nothing.
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}

pg_unavailable() {
	[ -x "$PG_BIN/initdb" ] || { echo "no PostgreSQL 15 server ($PG_BIN/initdb missing: apt-get install postgresql)"; return; }
	command -v psql >/dev/null 2>&1 || { echo "no psql (apt-get install postgresql-client)"; return; }
	if [ "$(id -u)" -eq 0 ]; then
		command -v runuser >/dev/null 2>&1 || { echo "running as root without runuser to drop to nobody"; return; }
		id nobody >/dev/null 2>&1 || { echo "running as root and no user nobody to run PostgreSQL as"; return; }
	fi
}

pg_as() { # runs a command as the server's user
	if [ "$(id -u)" -eq 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi
}

pg_start() {
	PG_DIR=$1
	mkdir -p "$PG_DIR/data" "$PG_DIR/sock"
	chmod 755 "$PG_DIR"
	if [ "$(id -u)" -eq 0 ]; then chown nobody "$PG_DIR/data" "$PG_DIR/sock"; fi
	chmod 700 "$PG_DIR/data"
	pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -U hubadmin --auth=trust -E UTF8 --locale=C.UTF-8 \
		>"$PG_DIR/initdb.log" 2>&1 || { cat "$PG_DIR/initdb.log" >&2; return 1; }
	PGPORT=${PGPORT_WANT:-54329}
	pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/data/server.log" -w -t 60 \
		-o "-c listen_addresses='' -c unix_socket_directories='$PG_DIR/sock' -p $PGPORT -c fsync=${PG_FSYNC:-on} -c max_connections=40" \
		start >/dev/null || { cat "$PG_DIR/data/server.log" >&2; return 1; }
	PG_STARTED=1
	PGHOST="$PG_DIR/sock"; PGUSER=hubadmin; PGDATABASE=postgres
	export PGHOST PGPORT PGUSER PGDATABASE
}

pg_stop() {
	if [ "${PG_STARTED:-0}" = 1 ]; then
		pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
		PG_STARTED=0
	fi
}
