#!/bin/sh
# Installs the Debian 12 packages perfledger needs, skipping those already
# installed. Run as root (or with sudo available).
#   sh scripts/deps.sh        to build and run perfledger (the demo)
#   sh scripts/deps.sh test   also the test tools (the test command): cmocka,
#                             Chromium, LibreOffice, clang's sanitizer and
#                             fuzzer runtimes, valgrind, CJK fonts, Python
#                             modules, PostgreSQL (the hub test), and a
#                             comma-decimal locale
set -eu
# build and run: compiler and cmake, the libraries' -dev packages, gnuplot
# for charts
PKGS="gcc make cmake pkg-config libsqlite3-dev libcjson-dev libxlsxwriter-dev zlib1g-dev
libyaml-dev libyajl-dev libssl-dev libgsl-dev libpq-dev libdeflate-dev gnuplot-nox"
if [ "${1:-}" = test ]; then
	PKGS="$PKGS libcmocka-dev sqlite3 unzip python3 python3-openpyxl python3-yaml locales
chromium libreoffice-calc-nogui fonts-noto-cjk libxml2-utils
clang libclang-rt-14-dev valgrind time man-db postgresql"
elif [ -n "${1:-}" ]; then
	echo "usage: sh scripts/deps.sh [test]" >&2
	exit 2
fi
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
if [ -n "$missing" ]; then
	echo "installing:$missing"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# A comma-decimal locale, so the tests can check that numbers keep their '.'.
if [ "${1:-}" = test ] && ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
	$SUDO sed -i 's/^# *de_DE.UTF-8 UTF-8/de_DE.UTF-8 UTF-8/' /etc/locale.gen
	$SUDO locale-gen >/dev/null 2>&1 || true
fi
