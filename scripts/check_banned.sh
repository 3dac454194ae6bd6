#!/bin/sh
# Fails when the C sources call a function the house style bans (STYLE.md:
# no sprintf, strcpy, strcat, strtok, atoi, gets): each has a bounded or
# checked replacement (snprintf, memcpy with a known length, strtol with
# end and range checks). Run by scripts/test.sh before it builds anything.
set -eu
cd "$(dirname "$0")/.."
hits=$(grep -rnE '\b(sprintf|vsprintf|strcpy|strcat|strtok|atoi|atol|atoll|gets)[[:space:]]*\(' \
	--include='*.c' --include='*.h' src tests fuzz || true)
if [ -n "$hits" ]; then
	echo "banned functions (see ../shared/STYLE.md; use snprintf, memcpy, strtol):" >&2
	echo "$hits" >&2
	exit 1
fi
echo "banned functions: none in src/, tests/, fuzz/"
