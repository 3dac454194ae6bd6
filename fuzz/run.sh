#!/bin/sh
# Builds the libFuzzer harnesses (clang, -fsanitize=fuzzer,address,undefined)
# and runs each for a bounded time: pl_adapters_parse with every adapter
# forced and with detection (plus JSONL reading), the validator on what they
# produce, pl_adapters_parse_conditions, and what verify reads from a
# hostile bundle tree (fuzz_verify: FIFOs, symlinks to /dev/zero, ...), and
# merge of a mutated ledger file into a small ledger (fuzz_merge).
#   sh fuzz/run.sh [SECONDS_PER_HARNESS]      (default 60)
# Seeds: samples/, tests/e2e/inputs/ (copied to build-fuzz/corpus-*; the
# repository is never written). A crash stops the script with its input in
# build-fuzz/; turn it into a regression test.
set -eu
cd "$(dirname "$0")/.."
secs=${1:-60}
# the fewest inputs a harness must execute: 50 a second is far below any
# harness's rate here (thousands a second), far above one that aborted
min_rate=50
out=build-fuzz
san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
CC=clang cmake -S . -B "$out/lib" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF \
	"-DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link $san" >/dev/null
cmake --build "$out/lib" --target pl_import pl_render pl_store pl_adapters pl_core pl_util --parallel 2 >/dev/null
# the layer libraries, upper layers first (static libraries link in order)
layers="$out/lib/libpl_import.a $out/lib/libpl_render.a $out/lib/libpl_store.a $out/lib/libpl_adapters.a $out/lib/libpl_core.a $out/lib/libpl_util.a"
libs="$(pkg-config --libs libcjson xlsxwriter libcrypto gsl sqlite3 yajl) $(pkg-config --libs yaml-0.1 2>/dev/null || true) -lm -lpthread"
for h in parse conditions verify merge; do
	clang -g -O1 -fsanitize=fuzzer $san -D_POSIX_C_SOURCE=200809L -Isrc \
		"fuzz/fuzz_$h.c" $layers $libs -o "$out/fuzz_$h"
done
seed="$out/corpus-seed"
rm -rf "$seed"
mkdir -p "$seed"
find samples tests/e2e/inputs -type f -size -1M | while read -r f; do
	cp "$f" "$seed/$(echo "$f" | tr '/' '_')"
done
ran=0
max_len=65536 # bytes of an input; a ledger file needs more (fuzz_merge)
run() { # name, harness, env...
	name=$1 h=$2
	ran=$((ran + 1))
	shift 2
	mkdir -p "$out/corpus-$name" "$out/crash-$name"
	echo "== fuzz $name (${secs}s)"
	log="$out/log-$name.txt"
	status=0
	env "$@" "$out/fuzz_$h" -max_total_time="$secs" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$out/crash-$name/" -print_final_stats=1 \
		"$out/corpus-$name" "$seed" >"$log" 2>&1 || status=$?
	grep -E "^(stat::number_of_executed_units|stat::peak_rss|==|SUMMARY|artifact)" "$log" || true
	# one directory per harness: "aiperf" must not see aiperf-csv's inputs
	if [ -n "$(ls -A "$out/crash-$name")" ]; then
		echo "fuzz: $name: crash input saved in $out/crash-$name/" >&2
		exit 1
	fi
	# a harness that exits non-zero, or stops before it has run a real
	# number of inputs (it aborted at start-up), is a failure too
	if [ "$status" -ne 0 ]; then
		echo "fuzz: $name: the harness exited with status $status (log: $log)" >&2
		exit 1
	fi
	units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	min_units=$((secs * min_rate))
	if [ -z "$units" ] || [ "$units" -lt "$min_units" ]; then
		echo "fuzz: $name: only ${units:-no} inputs executed (at least $min_units expected; log: $log)" >&2
		exit 1
	fi
}
run auto parse PL_FUZZ_FORMAT=auto
run jsonl parse PL_FUZZ_FORMAT=auto PL_FUZZ_PATH=fuzz.jsonl
for f in $(PL_FUZZ_LIST=1 "$out/fuzz_parse"); do
	run "$f" parse PL_FUZZ_FORMAT="$f"
done
run conditions conditions
run verify verify
# merge of a hostile ledger file: the seed ledger is written by the harness
mkdir -p "$out/corpus-merge"
max_len=1048576
# each input is a ledger file copied, opened and merged: about 10 a second
min_rate=3
run merge merge PL_FUZZ_SEED_DIR="$out/corpus-merge"
# the plain closing line CI reads: every harness ran its time without a crash
echo "fuzz: $ran passed, 0 failed"
