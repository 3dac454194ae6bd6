#!/bin/sh
# The whole test suite: installs what is missing, then builds and runs every
# test three times — a debug build with warnings as errors, a build under
# AddressSanitizer + UndefinedBehaviorSanitizer, and the optimised release
# build (gcc -O2 warns about things -O0 does not). Before building, the
# sources are checked for banned functions (scripts/check_banned.sh) and
# for includes across the module map (scripts/check_layers.sh) and for
# files over the size rule (scripts/check_size.sh).
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh test
sh scripts/check_banned.sh
sh scripts/check_layers.sh
sh scripts/check_size.sh
for preset in dev asan release; do
	echo "== $preset"
	cmake --preset "$preset" >/dev/null
	cmake --build --preset "$preset" --parallel 2 >/dev/null
	ASAN_OPTIONS=detect_leaks=1 ctest --preset "$preset" --parallel 2
done
