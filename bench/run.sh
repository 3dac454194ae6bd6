#!/bin/sh
# The import benchmark in one command: builds the release binary if needed,
# then runs bench/bench.py (see its --help). Example, the issue's figures:
#   sh bench/run.sh --big-mb 1024 --compare-runs 1000000
set -eu
cd "$(dirname "$0")/.."
if [ ! -x build-release/perfledger ]; then
	cmake --preset release >/dev/null
	cmake --build --preset release --parallel 2 >/dev/null
fi
exec /usr/bin/python3 bench/bench.py "$@"
