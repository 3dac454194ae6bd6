#!/bin/sh
# The whole test suite: installs what is missing, then builds and runs every
# test twice — a normal build with warnings as errors, and a build under
# AddressSanitizer + UndefinedBehaviorSanitizer.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
for preset in dev asan; do
	echo "== $preset"
	cmake --preset "$preset" >/dev/null
	cmake --build --preset "$preset" --parallel 2 >/dev/null
	ASAN_OPTIONS=detect_leaks=1 ctest --preset "$preset" --parallel 2
done
