#!/bin/sh
# Fails when a tests/unit/test_*.c is missing from the PL_UNIT_TESTS list
# of tests/CMakeLists.txt (a unit test that would never be built or run):
# the list stays explicit (STYLE.md: no GLOB), and this keeps it whole.
#   sh tests/check_unit_list.sh [TESTS_DIR]     (default: this script's folder)
set -eu
dir=${1:-$(dirname "$0")}
list=$(sed -n 's/^set(PL_UNIT_TESTS \(.*\))$/ \1 /p' "$dir/CMakeLists.txt")
[ -n "$list" ] || { echo "no one-line PL_UNIT_TESTS list in $dir/CMakeLists.txt"; exit 1; }
bad=0
for f in "$dir"/unit/test_*.c; do
	t=$(basename "$f" .c)
	t=${t#test_}
	case "$list" in
	*" $t "*) ;;
	*) echo "$f: not in PL_UNIT_TESTS (tests/CMakeLists.txt)"; bad=1 ;;
	esac
done
[ "$bad" -eq 0 ] && echo "unit tests: every tests/unit/test_*.c is in PL_UNIT_TESTS"
exit "$bad"
