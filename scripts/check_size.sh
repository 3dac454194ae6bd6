#!/bin/sh
# The size rules of docs/layout.md: no .c file under src/ is over 1,200
# lines, except the files listed below, each with the line count it may
# not grow past (a ratchet: lower a cap when a file shrinks, remove the
# line once the file is split under 1,200); and no function body is over
# 120 lines unless the comment above it says why, starting "Over 120
# lines", or it is listed below with its cap (the same ratchet). A body is
# what lies between a '{' and a '}' in column 0 (the house style puts a
# function's braces there and nothing else's). Run by scripts/test.sh
# after scripts/check_layers.sh. Prints each offender and exits 1.
#   sh scripts/check_size.sh [SRC_DIR]      (default src)
set -eu
cd "$(dirname "$0")/.."
src=${1:-src}
limit=1200
# file cap — a file over the limit, to be split, with its count (none today)
caps="
"
# file:function cap — over 120 lines today, to be split
fcaps="
"
flimit=120
bad=0
for f in $(find "$src" -name '*.c' | sort); do
	n=$(wc -l < "$f")
	cap=$(printf '%s\n' "$caps" | awk -v f="$f" '$1 == f {print $2}')
	[ -n "$cap" ] || cap=$limit
	if [ "$n" -gt "$cap" ]; then
		echo "size: $f has $n lines, over its cap of $cap (docs/layout.md: at most $limit)" >&2
		bad=1
	fi
done
# each function over flimit without an "Over 120 lines" comment: FILE NAME LINES
long=$(awk -v max="$flimit" '
FNR == 1 { n = 0; start = 0 }
{ line[++n] = $0 }
/^\{/ { start = FNR }
/^\}/ && start {
	len = FNR - start + 1
	if (len > max) {
		i = start - 1 # the signature: up to a blank line or the end of a comment
		name = ""
		while (i > 0 && line[i] !~ /^[[:space:]]*$/ && line[i] !~ /\*\/[[:space:]]*$/) {
			if (match(line[i], /[A-Za-z_][A-Za-z_0-9]*\(/))
				name = substr(line[i], RSTART, RLENGTH - 1)
			i--
		}
		why = 0 # the comments right above it (one block or several)
		while (i > 0 && line[i] ~ /\*\/[[:space:]]*$/) {
			for (; i > 0; i--) {
				if (line[i] ~ /Over 120 lines/)
					why = 1
				if (line[i] ~ /^\/\*/)
					break
			}
			i--
		}
		if (!why)
			print FILENAME, name, len
	}
	start = 0
}' $(find "$src" -name '*.c' | sort))
printf '%s\n' "$long" | while read -r f name n; do
	[ -n "$f" ] || continue
	cap=$(printf '%s\n' "$fcaps" | awk -v k="$f:$name" '$1 == k {print $2}')
	if [ -z "$cap" ] || [ "$n" -gt "$cap" ]; then
		echo "size: $f: $name() has $n lines, over ${cap:-$flimit} (docs/layout.md: at most $flimit, or a comment above it saying why, starting 'Over 120 lines')" >&2
		echo x
	fi
done > "${TMPDIR:-/tmp}/check_size.$$"
[ -s "${TMPDIR:-/tmp}/check_size.$$" ] && bad=1
rm -f "${TMPDIR:-/tmp}/check_size.$$"
[ "$bad" -eq 0 ] || exit 1
over=$(printf '%s\n' "$caps" | awk 'NF == 2' | wc -l)
fover=$(printf '%s\n' "$fcaps" | awk 'NF == 2' | wc -l)
why=$(grep -r "Over $flimit lines" "$src" --include='*.c' | wc -l | tr -d ' ')
if [ "$over" -eq 0 ]; then
	echo "size: every .c file under $src is at most $limit lines;"
else
	echo "size: every .c file under $src is at most $limit lines but the $over capped in scripts/check_size.sh;"
fi
if [ "$fover" -eq 0 ]; then
	echo "size: every function is at most $flimit lines but those saying why ($why)"
else
	echo "size: every function is at most $flimit lines but those saying why ($why) and the $fover capped there"
fi
