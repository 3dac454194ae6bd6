#!/bin/sh
# The Debian package of the release build, as a user gets it: builds it
# with `cpack -G DEB` in build-release/, installs it with apt-get (which
# pulls its dependencies), and runs `perfledger --version` and a quick demo
# with the installed /usr/bin/perfledger from an empty directory: import
# samples/, a comparison, a refusal, and the procurement review rendered
# from the installed definition, then verified. Run by .ci/run after the
# test command (root, Debian 12).
#   --extract DIR: unpack the package into DIR (dpkg-deb -x) and run its
#   binary from there instead of installing it (no root needed).
set -eu
cd "$(dirname "$0")/.."
src=$(pwd)
extract=""
if [ "${1:-}" = --extract ]; then
	extract=$2
fi
[ -x build-release/perfledger ] || {
	cmake --preset release >/dev/null
	cmake --build --preset release --parallel 2 >/dev/null
}
(cd build-release && rm -f perfledger_*.deb && cpack -G DEB >/dev/null)
deb=$(ls "$src"/build-release/perfledger_*_*.deb)
echo "== package: $(basename "$deb")"
dpkg-deb -f "$deb" Depends Recommends
# the runtime libraries the binary links (the streaming JSON parser included)
for lib in libcjson1 libyajl2 libyaml-0-2 libsqlite3-0; do
	dpkg-deb -f "$deb" Depends | grep -q "$lib" || { echo "Depends lacks $lib" >&2; exit 1; }
done
if [ -n "$extract" ]; then
	rm -rf "$extract" && mkdir -p "$extract"
	dpkg-deb -x "$deb" "$extract"
	PL=$(cd "$extract" && pwd)/usr/bin/perfledger
else
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$deb" >/dev/null
	PL=/usr/bin/perfledger
fi
$PL --version
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R samples "$tmp/samples"
cd "$tmp"
export PERFLEDGER_DB="$tmp/demo.db"
$PL import samples 2>/dev/null
$PL compare --axis hardware --where model=llama-3.1-8b-instruct --where dataset=random-1024-256 \
	--where engine_version=0.8.5 --where concurrency=16 --metric ttft_p50,output_throughput >/dev/null
rc=0
$PL compare --axis hardware --where model=qwen2.5-7b-instruct 2>/dev/null || rc=$?
[ "$rc" -eq 3 ] || { echo "expected the refusal (exit 3), got $rc" >&2; exit 1; }
$PL report --spec procurement-review --out review
$PL verify review
[ -s review/report.html ] || { echo "review/report.html is missing" >&2; exit 1; }
echo "== the package works: $PL"
