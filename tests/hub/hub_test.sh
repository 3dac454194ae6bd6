#!/bin/sh
# hub_test.sh BIN SRCDIR WORK — push and pull against a real PostgreSQL 15
# (tests/hub/pg_server.sh: initdb into WORK, Unix socket only, as nobody
# when root), stopped at the end whatever happens. Exit 77 (ctest: skipped)
# with the reason when PostgreSQL cannot run here.
#   - 8 ledgers push at once; a pull into a fresh ledger equals a merge of
#     the 8 (their exports as sets of lines);
#   - pushing again stores nothing; an incremental pull after 27 new runs
#     reads exactly those 27;
#   - an accept and an amend pushed from a laptop are in the site's next
#     pull; a conflicting push and a conflicting pull are skipped and named;
#   - a password in a URI is never printed; a newer hub schema is refused;
#   - a ledger at an earlier revision of a run's trail pushes it, and the
#     pull equals the merge (12).
set -u
BIN=$1; SRC=$2; WORK=$3
. "$SRC/tests/hub/pg_server.sh"
why=$(pg_unavailable)
if [ -n "$why" ]; then
	echo "SKIP: PostgreSQL cannot run here: $why"
	exit 77
fi
rm -rf "$WORK"; mkdir -p "$WORK"
fails=0
cleanup() { pg_stop; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
PG_FSYNC=off PGPORT_WANT=$((50000 + $$ % 10000)) pg_start "$WORK/pg" || { echo "FAIL: cannot start PostgreSQL"; exit 1; }
PY=/usr/bin/python3
export SOURCE_DATE_EPOCH=1790000000 PERFLEDGER_LANG=en

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
check_eq() { # what expected actual
	if [ "$2" = "$3" ]; then echo "ok: $1"; else fail "$1: expected [$2], got [$3]"; fi
}
psql -q -c 'CREATE DATABASE hub' || { echo "FAIL: createdb"; exit 1; }
HUB="dbname=hub"
cd "$WORK"

# eight runner ledgers: 40 runs each of their own, and two procurement files
# every one of them holds (the same bytes in many ledgers: stored once)
for i in 0 1 2 3 4 5 6 7; do
	$PY "$SRC/tests/hub/gen_runs.py" 40 $((i + 1)) "r$i.jsonl"
	"$BIN" --db "r$i.db" import "r$i.jsonl" "$SRC/samples/procurement/a100_c16_run1.json" \
		"$SRC/samples/procurement/h100_c16_run1.json" >/dev/null 2>&1 || fail "import r$i"
done
"$BIN" --db r2.db retract --run 3 --reason "bad node" --by alice >/dev/null || fail "retract"

# 1. eight pushes at once
for i in 0 1 2 3 4 5 6 7; do
	("$BIN" --db "r$i.db" push --summary json "$HUB" >"push$i.out" 2>"push$i.err"; echo $? >"push$i.rc") &
done
wait
stored=0
for i in 0 1 2 3 4 5 6 7; do
	check_eq "push $i exit" 0 "$(cat push$i.rc)"
	s=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["stored"])' "push$i.out" 2>/dev/null || echo x)
	stored=$((stored + ${s:-0}))
done
check_eq "versions stored by the 8 pushes (8x40 + 2 shared)" 322 "$stored"
check_eq "hub lines" 322 "$(psql -d hub -Atc 'SELECT count(*) FROM perfledger.lines')"
check_eq "hub record identities" 322 "$(psql -d hub -Atc 'SELECT count(*) FROM perfledger.records')"

# 2. a pull into a fresh ledger holds what a merge of the 8 holds
"$BIN" --db site.db pull "$HUB" >pull1.out 2>pull1.err
check_eq "first pull exit" 0 "$?"
check_eq "first pull" "pulled from '$WORK/pg/sock:$PGPORT/hub' (everything: no earlier pull): 322 new versions read; 322 runs, 0 accepted steps, 0 revisions, 1 retraction, 10 source chunks stored" "$(cat pull1.out)"
"$BIN" --db merged.db merge r0.db r1.db r2.db r3.db r4.db r5.db r6.db r7.db >/dev/null || fail "merge"
"$BIN" --db site.db export | LC_ALL=C sort >site.export
"$BIN" --db merged.db export | LC_ALL=C sort >merged.export
if cmp -s site.export merged.export; then echo "ok: pulled export = merged export (322 lines)"; else fail "pulled export differs from the merge's"; diff site.export merged.export | head -5; fi
check_eq "export lines" 322 "$(wc -l <site.export | tr -d ' ')"
check_eq "watermark row" "$WORK/pg/sock:$PGPORT/hub" "$(sqlite3 site.db 'SELECT hub FROM hub_marks')"
[ -e site.db.hub-marks ] && fail "a marks file beside the ledger" || echo "ok: no marks file beside the ledger"

# 3. pushing again stores nothing; a pull then reads nothing
"$BIN" --db r4.db push "$HUB" >push-again.out
check_eq "second push" "pushed to '$WORK/pg/sock:$PGPORT/hub': 42 runs read, 0 stored, 42 on the hub already, 0 source chunks stored" "$(cat push-again.out)"
"$BIN" --db site.db pull "$HUB" >pull2.out
check_eq "empty pull" "pulled from '$WORK/pg/sock:$PGPORT/hub': 0 new versions read; 0 runs, 0 accepted steps, 0 revisions, 0 retractions, 0 source chunks stored" "$(cat pull2.out)"

# 4. one night: 27 new runs on runner 5, pushed; the incremental pull reads them only
$PY "$SRC/tests/hub/gen_runs.py" 27 99 night.jsonl
"$BIN" --db r5.db import night.jsonl >/dev/null 2>&1 || fail "import night"
"$BIN" --db r5.db push "$HUB" >push-night.out
check_eq "night push" "pushed to '$WORK/pg/sock:$PGPORT/hub': 69 runs read, 27 stored, 42 on the hub already, 1 source chunk stored" "$(cat push-night.out)"
"$BIN" --db site.db pull "$HUB" >pull3.out
check_eq "incremental pull" "pulled from '$WORK/pg/sock:$PGPORT/hub': 27 new versions read; 27 runs, 0 accepted steps, 0 revisions, 0 retractions, 1 source chunk stored" "$(cat pull3.out)"

# 5. a laptop pulls, accepts a step and amends a run, pushes; the site sees both
"$BIN" --db laptop.db pull "$HUB" >/dev/null || fail "laptop pull"
# (local ids depend on the order the pushes arrived in: take two of r7's
# runs by their start time, so that no run of r0 is touched and the conflict
# of step 6 stays exactly r0's 40 runs whatever order the pushes took)
A_RUN=$("$BIN" --db laptop.db list --where run_started_at=2026-09-07T00:00:08Z | awk 'NR == 3 {print $1}')
M_RUN=$("$BIN" --db laptop.db list --where run_started_at=2026-09-09T00:00:08Z | awk 'NR == 3 {print $1}')
[ -n "$A_RUN" ] && [ -n "$M_RUN" ] || fail "r7's runs by start time"
"$BIN" --db laptop.db accept --run "$A_RUN" --metric ttft_p50 --reason "new scheduler" --by bob --force >/dev/null || fail "accept"
"$BIN" --db laptop.db amend --run "$M_RUN" --set dataset=sharegpt --reason "dataset was not recorded" --by bob >/dev/null || fail "amend"
"$BIN" --db laptop.db push "$HUB" >push-laptop.out
check_eq "laptop push" "pushed to '$WORK/pg/sock:$PGPORT/hub': 349 runs read, 2 stored, 347 on the hub already, 0 source chunks stored" "$(cat push-laptop.out)"
"$BIN" --db site.db pull "$HUB" >pull4.out
check_eq "pull of the accept and amend" "pulled from '$WORK/pg/sock:$PGPORT/hub': 2 new versions read; 0 runs, 1 accepted step, 1 revision, 0 retractions, 0 source chunks stored" "$(cat pull4.out)"
"$BIN" --db site.db export | LC_ALL=C sort >site2.export
"$BIN" --db laptop.db export | LC_ALL=C sort >laptop.export
if cmp -s site2.export laptop.export; then echo "ok: site export = laptop export after accept/amend"; else fail "site and laptop differ after the pull"; diff site2.export laptop.export | head -4; fi
# a fresh ledger pulling the whole hub gets both versions, in order
"$BIN" --db fresh.db pull "$HUB" >pull5.out
"$BIN" --db fresh.db export | LC_ALL=C sort >fresh.export
if cmp -s fresh.export laptop.export; then echo "ok: a fresh pull of every version = laptop"; else fail "fresh pull differs from laptop"; diff fresh.export laptop.export | head -4; fi

# --where: only the selection is merged, under a watermark of its own
"$BIN" --db sel.db pull --where "hardware=1x NVIDIA H100 80G" --where concurrency=8 "$HUB" >pull-sel.out || fail "pull --where"
"$BIN" --db sel.db export | LC_ALL=C sort >sel.export
"$BIN" --db laptop.db export --where "hardware=1x NVIDIA H100 80G" --where concurrency=8 | LC_ALL=C sort >laptop-sel.export
if cmp -s sel.export laptop-sel.export && [ -s sel.export ]; then echo "ok: pull --where = export --where ($(wc -l <sel.export | tr -d ' ') runs)"; else fail "pull --where differs"; diff sel.export laptop-sel.export | head -4; fi
check_eq "selection watermark" "$WORK/pg/sock:$PGPORT/hub --where hardware=1x NVIDIA H100 80G concurrency=8" "$(sqlite3 sel.db "SELECT hub FROM hub_marks WHERE hub LIKE '%--where%'")"
files_of_runs() { sqlite3 "$1" "SELECT count(DISTINCT source_sha256) FROM runs WHERE source_sha256 IN (SELECT sha256 FROM source_chunks)"; }
files_kept() { sqlite3 "$1" "SELECT count(DISTINCT sha256) FROM source_chunks"; }
check_eq "pull --where keeps the bytes of the selected runs' files alone" "$(files_of_runs sel.db)" "$(files_kept sel.db)"

# 6. a conflict: the same bytes imported with other conditions
"$BIN" --db other.db import --set warmup_requests=0 "r0.jsonl" >/dev/null 2>&1 || fail "import other"
"$BIN" --db other.db push "$HUB" >push-conflict.out 2>push-conflict.err
check_eq "conflicting push exit" 4 "$?"
check_eq "conflicting push" "pushed to '$WORK/pg/sock:$PGPORT/hub': 40 runs read, 0 stored, 0 on the hub already, 0 source chunks stored; 40 runs skipped" "$(cat push-conflict.out)"
grep -q "^perfledger: push: skipped: run 1 (sha256 .*warmup_requests=0.*on the hub; also runs 2, 3" push-conflict.err &&
	echo "ok: the conflict is named with both values" || { fail "conflict message"; cat push-conflict.err; }
"$BIN" --db other.db pull "$HUB" >pull-conflict.out 2>pull-conflict.err
check_eq "conflicting pull exit" 4 "$?"
grep -q "40 runs skipped" pull-conflict.out && echo "ok: conflicting pull skips the 40" || { fail "pull conflict"; cat pull-conflict.out; }
check_eq "other.db holds the rest" 349 "$("$BIN" --db other.db export | wc -l | tr -d ' ')"
check_eq "watermark kept after a skip" 0 "$(sqlite3 other.db 'SELECT count(*) FROM hub_marks')"

# 7. no password is ever printed
PW=s3cretPW42
"$BIN" --db r0.db push "postgresql://hubadmin:$PW@127.0.0.1:1/hub" >pw1.out 2>pw1.err
check_eq "unreachable hub exit" 2 "$?"
"$BIN" --db r0.db push "postgresql://hubadmin:$PW@[::1/hub" >pw2.out 2>pw2.err
"$BIN" --db r0.db push "host=127.0.0.1 port=1 password=$PW dbname=hub" >pw3.out 2>pw3.err
PGPASSWORD=$PW "$BIN" --db r0.db pull "host=127.0.0.1 port=1 dbname=hub" >pw4.out 2>pw4.err
"$BIN" --db r0.db push "postgresql://hubadmin:$PW@127.0.0.1:notaport/hub" >pw5.out 2>pw5.err
if cat pw*.out pw*.err | grep -q "$PW"; then fail "a password was printed"; cat pw*.err; else echo "ok: no password in 5 failed connections"; fi
head -1 pw1.err

# 8. a hub newer than this perfledger is refused; no hub: pull says so
psql -q -c 'CREATE DATABASE newer' && psql -q -d newer -c 'CREATE SCHEMA perfledger; CREATE TABLE perfledger.hub_schema (version integer NOT NULL); INSERT INTO perfledger.hub_schema VALUES (99)'
"$BIN" --db r0.db push "dbname=newer" >newer.out 2>newer.err
check_eq "newer hub exit" 2 "$?"
check_eq "newer hub" "perfledger: hub '$WORK/pg/sock:$PGPORT/newer' has schema version 99; this perfledger knows up to 1: use a newer perfledger with this hub" "$(cat newer.err)"
"$BIN" --db empty.db pull "dbname=postgres" >nohub.out 2>nohub.err
check_eq "no hub" "perfledger: no perfledger hub in '$WORK/pg/sock:$PGPORT/postgres' (perfledger push creates one)" "$(cat nohub.err)"

psql -q -c 'CREATE DATABASE hub9' || fail "createdb hub9"
# 9. pull --where: a run selected only by its amended (second) version
# keeps its file's bytes (the first version's purge from its temporary
# ledger must not take them); a hub of its own, as the counts above stand
"$BIN" --db amendsrc.db import "$SRC/samples/procurement/l40s_c16_run1.json" >/dev/null 2>&1 || fail "import amendsrc"
"$BIN" --db amendsrc.db push "dbname=hub9" >/dev/null || fail "push amendsrc 1"
"$BIN" --db amendsrc.db amend --run 1 --set driver_version=999.1 --reason "driver read wrong" --by t >/dev/null || fail "amend amendsrc"
"$BIN" --db amendsrc.db push "dbname=hub9" >/dev/null || fail "push amendsrc 2"
"$BIN" --db sel2.db pull --where driver_version=999.1 "dbname=hub9" >pull-sel2.out 2>pull-sel2.err || { fail "pull sel2"; cat pull-sel2.err; }
check_eq "run selected by its second version" 1 "$(sqlite3 sel2.db "SELECT count(*) FROM runs")"
check_eq "its file's bytes kept" 1 "$(files_kept sel2.db)"
check_eq "its file's bytes are its own" "$(files_of_runs sel2.db)" "$(files_kept sel2.db)"

# 11 (before 10's pulls of hub9, whose counts it would change). a run here
# that only lacks a value the hub's copy holds (an older perfledger did not
# derive it) is the same run, as merge decides: on the hub already, not a
# conflict; one that holds a value the hub's copy lacks still conflicts
cp amendsrc.db older.db
sqlite3 older.db "UPDATE conditions SET max_output_tokens = NULL, key_text = replace(key_text, 'max_output_tokens=256' || char(10), '')"
"$BIN" --db older.db push "dbname=hub9" >push-older.out 2>push-older.err
check_eq "push of a run lacking a value: exit" 0 "$?"
check_eq "push of a run lacking a value" "pushed to '$WORK/pg/sock:$PGPORT/hub9': 1 run read, 0 stored, 1 on the hub already, 0 source chunks stored" "$(cat push-older.out)"
sqlite3 older.db "UPDATE conditions SET key_text = key_text || 'dataset=zzz' || char(10), dataset = 'zzz'"
"$BIN" --db older.db push "dbname=hub9" >push-older2.out 2>push-older2.err
check_eq "push of a run holding a value the hub lacks: exit" 4 "$?"

# 10. an older perfledger's marks file beside the ledger is moved into the
# ledger: the pull after it is incremental, and the file is gone
"$BIN" --db legacy.db pull "dbname=hub9" >/dev/null 2>&1 || fail "legacy pull 1"
printf '%s\t%s\n' "$(sqlite3 legacy.db 'SELECT hub FROM hub_marks')" "$(sqlite3 legacy.db 'SELECT snapshot FROM hub_marks')" >legacy.db.hub-marks
printf 'other-host:5432/x\t100:100:\n' >>legacy.db.hub-marks
sqlite3 legacy.db 'DELETE FROM hub_marks'
"$BIN" --db legacy.db pull "dbname=hub9" >pull-legacy.out 2>&1 || fail "legacy pull 2"
check_eq "legacy marks: incremental" "pulled from '$WORK/pg/sock:$PGPORT/hub9': 0 new versions read; 0 runs, 0 accepted steps, 0 revisions, 0 retractions, 0 source chunks stored" "$(cat pull-legacy.out)"
check_eq "legacy marks: both rows moved" 2 "$(sqlite3 legacy.db 'SELECT count(*) FROM hub_marks')"
[ -e legacy.db.hub-marks ] && fail "the legacy marks file stayed" || echo "ok: the legacy marks file is gone"

# 12. merge's rule for a run at an earlier revision of its trail: a ledger
# copied after the first of two amends pushes its run (at revision 2) to
# a hub holding revision 3, and the other way round; either way a pull
# equals the merge of the two ledgers (revision 3 with its whole trail)
psql -q -c 'CREATE DATABASE hub12a' && psql -q -c 'CREATE DATABASE hub12b' || fail "createdb hub12"
"$BIN" --db rev3.db import "$SRC/samples/procurement/l40s_c16_run1.json" >/dev/null 2>&1 || fail "import rev3"
"$BIN" --db rev3.db amend --run 1 --set driver_version=111.1 --reason first --by t >/dev/null || fail "amend 1"
cp rev3.db rev2.db
"$BIN" --db rev3.db amend --run 1 --set driver_version=222.2 --reason second --by t >/dev/null || fail "amend 2"
cp rev3.db merged12.db
"$BIN" --db merged12.db merge rev2.db >/dev/null || fail "merge rev2"
"$BIN" --db merged12.db export | LC_ALL=C sort >merged12.export
for order in "rev3 rev2 hub12a" "rev2 rev3 hub12b"; do
	set -- $order
	"$BIN" --db "$1.db" push "dbname=$3" >/dev/null 2>&1 || fail "push $1 to $3"
	"$BIN" --db "$2.db" push "dbname=$3" >push12.out 2>&1
	check_eq "push of $2 after $1: exit" 0 "$?"
	"$BIN" --db "pull-$3.db" pull "dbname=$3" >/dev/null 2>&1 || fail "pull $3"
	"$BIN" --db "pull-$3.db" export | LC_ALL=C sort >"pull-$3.export"
	if cmp -s "pull-$3.export" merged12.export; then echo "ok: pull of $3 = merge of rev3 and rev2"; else fail "pull of $3 differs from the merge"; fi
done
check_eq "the pulled run's revision" 3 "$(sqlite3 pull-hub12b.db 'SELECT max(revision) FROM revisions')"

[ "$fails" -eq 0 ] && echo "hub: all checks passed" || echo "hub: $fails checks failed"
[ "$fails" -eq 0 ]
