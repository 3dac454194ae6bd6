#!/bin/sh
# Installs the Debian 12 packages perfledger needs to build, run and test,
# skipping those already installed. Run as root (or with sudo available).
set -eu
PKGS="gcc make cmake pkg-config libsqlite3-dev libcjson-dev libxlsxwriter-dev zlib1g-dev libyaml-dev
libcmocka-dev libssl-dev libgsl-dev gnuplot-nox sqlite3 unzip python3 python3-openpyxl locales
chromium libreoffice-calc-nogui fonts-noto-cjk libxml2-utils python3-yaml
clang libclang-rt-14-dev valgrind time"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "installing:$missing"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# A comma-decimal locale, so the tests can check that numbers keep their '.'.
if ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO sed -i 's/^# *de_DE.UTF-8 UTF-8/de_DE.UTF-8 UTF-8/' /etc/locale.gen
	$SUDO locale-gen >/dev/null 2>&1 || true
fi
