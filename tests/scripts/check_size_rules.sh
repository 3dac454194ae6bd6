#!/bin/sh
# The size rules of scripts/check_size.sh at their exact boundaries, on
# sources written here: a function body of 120 lines passes and one of 121
# fails unless the comment above it says why ("Over 120 lines"); a file of
# 1,200 lines passes and one of 1,201 fails.
#   sh tests/scripts/check_size_rules.sh SOURCE_DIR
set -u
root=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0
# fn NAME BODY_LINES [COMMENT]: a function whose body ('{' to '}') has BODY_LINES lines
fn() {
	[ -n "${3:-}" ] && printf '/* %s */\n' "$3"
	printf 'static int %s(void)\n{\n' "$1"
	i=2
	while [ "$i" -lt "$2" ]; do echo "	(void)0;"; i=$((i + 1)); done
	printf '}\n\n'
}
expect() { # expect RC CASE: runs the check on $t/src
	sh "$root/scripts/check_size.sh" "$t/src" >"$t/out" 2>&1
	rc=$?
	if [ "$rc" -ne "$1" ]; then
		echo "FAIL: $2: exit $rc, expected $1"; cat "$t/out"; fails=$((fails + 1))
	else
		echo "ok: $2"
	fi
}
mkdir -p "$t/src/core"
fn f120 120 > "$t/src/core/a.c"; expect 0 "a 120-line function"
fn f121 121 > "$t/src/core/a.c"; expect 1 "a 121-line function"
grep -q "f121() has 121 lines" "$t/out" || { echo "FAIL: the message names f121 and 121 lines"; fails=$((fails + 1)); }
fn f121 121 "Over 120 lines: one table, read top to bottom." > "$t/src/core/a.c"; expect 0 "a 121-line function saying why"
fn f121 121 "long on purpose" > "$t/src/core/a.c"; expect 1 "a 121-line function whose comment says no 'Over 120 lines'"
{ fn g 100; i=102; while [ "$i" -lt 1200 ]; do echo "/* filler */"; i=$((i + 1)); done; } > "$t/src/core/a.c"
n=$(wc -l < "$t/src/core/a.c"); [ "$n" -eq 1200 ] || { echo "FAIL: the fixture has $n lines, not 1200"; fails=$((fails + 1)); }
expect 0 "a file of 1,200 lines"
echo "/* one more */" >> "$t/src/core/a.c"; expect 1 "a file of 1,201 lines"
[ "$fails" -eq 0 ] || exit 1
