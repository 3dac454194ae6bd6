#!/bin/sh
# valgrind (memcheck) over the unit tests and a few CLI commands, on a
# Debug build without the sanitizers (they cannot run under valgrind).
# Any error or leak fails the run (exit 9). Opt-in: slow, not in ctest.
#   sh scripts/valgrind.sh            (build dir: build-valgrind)
set -eu
cd "$(dirname "$0")/.."
out=build-valgrind
cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=Debug -DPL_SANITIZE=OFF -DPL_WERROR=ON >/dev/null
cmake --build "$out" --parallel 2 >/dev/null
vg="valgrind --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite,indirect -q"
# test_robust forks and runs the CLI itself: smaller sizes, same checks
export PL_ROBUST_FILES=400 PL_ROBUST_KILLS=2 PL_ROBUST_JSONL_MB=4 PL_ROBUST_ARRAY=20000
for t in "$out"/tests/test_*; do
	echo "== valgrind $(basename "$t")"
	$vg "$t" >"$out/valgrind-$(basename "$t").log" 2>&1 || {
		cat "$out/valgrind-$(basename "$t").log"
		echo "valgrind: $(basename "$t") failed" >&2
		exit 9
	}
done
db="$out/valgrind.db"
rm -f "$db" "$db-wal" "$db-shm"
pl="$vg $out/perfledger --db $db"
echo "== valgrind perfledger (import, list, compare, report, check, history)"
$pl import samples/procurement samples/procurement-sweep samples/regression >/dev/null
$pl list --format json >/dev/null
$pl compare --axis hardware --where model=llama-3.1-8b-instruct --format csv >/dev/null
$pl report --out "$out/vg-report" --axis hardware --where model=llama-3.1-8b-instruct >/dev/null
$pl report --spec reports/procurement-review.json --out "$out/vg-bundle" >/dev/null
$pl verify "$out/vg-bundle" >/dev/null
rc=0
$pl check --axis engine_version --baseline 0.9.0 --candidate 0.9.1 \
	--where model=mistral-7b-instruct-v0.3 --where concurrency=32 >/dev/null || rc=$?
[ "$rc" -eq 1 ] || { echo "valgrind: check exited $rc, expected 1" >&2; exit 9; }
$pl history --metric ttft_p50 --where model=mistral-7b-instruct-v0.3 --where concurrency=8 \
	--out "$out/vg-history" >/dev/null
echo "valgrind: clean"
