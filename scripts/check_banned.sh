#!/bin/sh
# Fails when the C sources call a function the house style bans (STYLE.md:
# no sprintf, strcpy, strcat, strtok, atoi, gets): each has a bounded or
# checked replacement (snprintf, memcpy with a known length, strtol with
# end and range checks). Also fails on realloc outside src/util/: arrays
# and byte buffers grow with the one growth helper, PL_ALLOC_GROW of
# util/alloc.h (after git's ALLOC_GROW; issue 30), and only util/ (alloc.c
# itself, buf.c, file.c) calls realloc. Run by scripts/test.sh before it
# builds anything.
set -eu
cd "$(dirname "$0")/.."
hits=$(grep -rnE '\b(sprintf|vsprintf|strcpy|strcat|strtok|atoi|atol|atoll|gets)[[:space:]]*\(' \
	--include='*.c' --include='*.h' src tests fuzz || true)
if [ -n "$hits" ]; then
	echo "banned functions (see ../shared/STYLE.md; use snprintf, memcpy, strtol):" >&2
	echo "$hits" >&2
	exit 1
fi
hits=$(grep -rnE '\brealloc[[:space:]]*\(' --include='*.c' --include='*.h' src |
	grep -v '^src/util/' || true)
if [ -n "$hits" ]; then
	echo "realloc outside src/util/ (grow the array with PL_ALLOC_GROW, util/alloc.h):" >&2
	echo "$hits" >&2
	exit 1
fi
echo "banned functions: none in src/, tests/, fuzz/; realloc: only in src/util/"
