#!/bin/sh
# The main job on the bundled samples: install the build and runtime packages
# that are missing (not the test tools: scripts/test.sh does), build,
# import samples/ into a fresh database, compare, show a refusal, and render
# a report directory (demo-out/procurement).
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
echo "== building build-release/ (a few minutes the first time)"
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DPL_WERROR=ON -DBUILD_TESTING=OFF >/dev/null
cmake --build build-release --parallel 2 >/dev/null
PL=./build-release/perfledger
export PERFLEDGER_DB=demo-out/perfledger.db
rm -rf demo-out && mkdir -p demo-out

echo "== import samples/"
$PL import samples

echo
echo "== procurement: one model on four accelerators (medians of 3 runs each)"
$PL compare --axis hardware --where model=llama-3.1-8b-instruct --where dataset=random-1024-256 \
	--where engine_version=0.8.5 --where concurrency=16 \
	--metric ttft_p50,ttft_p95,tpot_p50,output_throughput

echo
echo "== engine upgrade on one H100 (nightly series at concurrency 32)"
$PL compare --axis engine_version --where model=llama-3.1-8b-instruct \
	--where "hardware=1x NVIDIA H100 80G" --where dataset=random-1024-256 --where concurrency=32 \
	--metric ttft_p50,tpot_p50,output_throughput

echo
echo "== a mismatched pair is refused (exit 3)"
rc=0
$PL compare --axis hardware --where model=qwen2.5-7b-instruct || rc=$?
[ "$rc" -eq 3 ] || { echo "expected exit 3, got $rc" >&2; exit 1; }

echo
echo "== check: vLLM 0.9.0 -> 0.9.1 has a real 10% TTFT regression (exit 1)"
rc=0
$PL check --axis engine_version --baseline 0.9.0 --candidate 0.9.1 \
	--where model=mistral-7b-instruct-v0.3 --where concurrency=32 \
	--metric ttft_p50,ttft_p95,tpot_p50,output_throughput || rc=$?
[ "$rc" -eq 1 ] || { echo "expected exit 1, got $rc" >&2; exit 1; }

echo
echo "== check: vLLM 0.9.0 -> 0.9.2 is noisy but not slower (exit 0)"
$PL check --axis engine_version --baseline 0.9.0 --candidate 0.9.2 \
	--where model=mistral-7b-instruct-v0.3 --where concurrency=32 \
	--metric ttft_p50,ttft_p95,tpot_p50,output_throughput

echo
echo "== history: 30 nights, one step (chart in demo-out/history)"
rc=0
$PL history --metric ttft_p50 --where model=mistral-7b-instruct-v0.3 --where concurrency=8 \
	--out demo-out/history --fail-on-step || rc=$?
[ "$rc" -eq 1 ] || { echo "expected exit 1, got $rc" >&2; exit 1; }
ls demo-out/history

echo
echo "== report"
$PL report --out demo-out/procurement --axis hardware --where model=llama-3.1-8b-instruct \
	--where dataset=random-1024-256 --where engine_version=0.8.5 --where concurrency=16 \
	--title "llama-3.1-8b-instruct on four accelerators"
ls demo-out/procurement

echo
echo "== procurement review bundle (reports/procurement-review.json), then verify it"
$PL report --spec reports/procurement-review.json --out demo-out/procurement-review
$PL verify demo-out/procurement-review
ls demo-out/procurement-review
