#!/bin/sh
# hub_bench.sh N [WORK] — figures of push and pull (docs/hub.md): N runs
# (tests/hub/gen_runs.py, one JSONL file) imported into a ledger, pushed to
# a throwaway PostgreSQL 15 (tests/hub/pg_server.sh, fsync on), pulled into
# a fresh ledger, then 27 new runs pushed and pulled incrementally. Each
# command under /usr/bin/time: wall seconds and peak RSS; the hub's disk
# (pg_database_size) after the push. Prints one line per figure and the
# load average at the start and the end.
set -eu
N=${1:-100000}
HERE=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$HERE/build-release/perfledger}
WORK=${2:-/tmp/pl-hub-bench-$N}
. "$HERE/tests/hub/pg_server.sh"
why=$(pg_unavailable); [ -z "$why" ] || { echo "cannot run PostgreSQL: $why"; exit 1; }
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
trap pg_stop EXIT
PGPORT_WANT=$((40000 + $$ % 10000)) pg_start "$WORK/pg"
psql -q -c 'CREATE DATABASE hub'
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
measure() { # label command...
	label=$1; shift
	/usr/bin/time -f "%e %M %U %S" -o t.out "$@" >cmd.out 2>cmd.err || { echo "$label failed:"; cat cmd.err; exit 1; }
	set -- $(cat t.out)
	echo "$label: $1 s wall ($3 s user + $4 s system in perfledger), peak RSS $(($2 / 1024)) MB"
}
/usr/bin/python3 "$HERE/tests/hub/gen_runs.py" "$N" 7 runs.jsonl
/usr/bin/python3 "$HERE/tests/hub/gen_runs.py" 27 8 night.jsonl
measure "import of $N runs (for reference)" "$BIN" --db a.db import runs.jsonl
measure "push of $N runs" "$BIN" --db a.db push "dbname=hub"
cat cmd.out
echo "hub disk after the push: $(psql -d hub -Atc "SELECT pg_size_pretty(pg_database_size('hub'))") (database), lines $(psql -d hub -Atc "SELECT pg_size_pretty(pg_total_relation_size('perfledger.lines'))"), sources $(psql -d hub -Atc "SELECT pg_size_pretty(pg_total_relation_size('perfledger.sources'))")"
measure "push again (nothing new) of $N runs" "$BIN" --db a.db push "dbname=hub"
measure "pull of $N runs into a fresh ledger" "$BIN" --db b.db pull "dbname=hub"
cat cmd.out
echo "ledger a.db $(du -m a.db | cut -f1) MB, pulled b.db $(du -m b.db | cut -f1) MB"
"$BIN" --db a.db import night.jsonl >/dev/null 2>&1
measure "push after a night of 27 runs" "$BIN" --db a.db push "dbname=hub"
cat cmd.out
measure "incremental pull of 27 runs" "$BIN" --db b.db pull "dbname=hub"
cat cmd.out
measure "empty pull" "$BIN" --db b.db pull "dbname=hub"
"$BIN" --db a.db export | LC_ALL=C sort >a.export
"$BIN" --db b.db export | LC_ALL=C sort >b.export
cmp -s a.export b.export && echo "check: pulled export = pushed export ($(wc -l <a.export) lines)" || { echo "check FAILED: exports differ"; exit 1; }
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
