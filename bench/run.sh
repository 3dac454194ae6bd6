#!/bin/sh
# The import benchmark in one command: builds the release binary if needed,
# then runs bench/bench.py (see its --help). Example, the issues' figures:
#   sh bench/run.sh --big-mb 1024 --compare-runs 1000000
# The DuckDB anchor of issue 17 runs when node and DuckDB's Node package are
# there: npm install --prefix bench @duckdb/node-api (bench/node_modules is
# not committed), or --duckdb DIR / $DUCK for a package installed elsewhere.
set -eu
cd "$(dirname "$0")/.."
if [ ! -x build-release/perfledger ] || [ ! -x build-release/pl_bench_floor ]; then
	cmake --preset release >/dev/null
	cmake --build --preset release --parallel 2 >/dev/null
fi
exec /usr/bin/python3 bench/bench.py "$@"
