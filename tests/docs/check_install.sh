#!/bin/sh
# cmake --install into a temporary prefix, then the prefix moved elsewhere
# (it must be relocatable) and run from an empty directory with a bare
# environment, no source tree reachable: the binary, its man pages and
# completions are there, and `report --spec procurement-review` renders the
# procurement review from the installed definition (ctest install_tree).
#
#   check_install.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -eu
build=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work/first" "$work/elsewhere" "$work/run"
cmake --install "$build" --prefix "$work/first/prefix" >/dev/null
mv "$work/first/prefix" "$work/elsewhere/moved"
rm -rf "$work/first"
prefix=$work/elsewhere/moved
fail() { echo "install_tree: $*" >&2; exit 1; }
for f in bin/perfledger share/man/man1/perfledger.1 share/man/man1/perfledger-compare.1 \
	share/man/man7/perfledger-formats.7 share/man/man5/perfledger-descriptor.5 \
	share/man/man5/perfledger-reports.5 share/bash-completion/completions/perfledger \
	share/zsh/vendor-completions/_perfledger share/perfledger/reports/procurement-review.json \
	share/perfledger/templates/report.en.html share/perfledger/schema/descriptor.md; do
	[ -s "$prefix/$f" ] || fail "$f is not installed"
done
# every command has its man page
for c in $("$prefix/bin/perfledger" --completion-helper commands | cut -f1); do
	[ "$c" = help ] || [ -s "$prefix/share/man/man1/perfledger-$c.1" ] || fail "no man page for $c"
done
# the inputs, copied out of the source tree; then nothing of it is used
cp -R "$src/samples" "$work/run/samples"
cd "$work/run"
pl() { env -i PATH=/usr/bin:/bin HOME="$work/run" PERFLEDGER_DB="$work/run/l.db" "$prefix/bin/perfledger" "$@"; }
pl --version
pl import samples >/dev/null 2>&1 || fail "import samples failed"
pl report --spec procurement-review --out review || fail "report --spec procurement-review failed"
pl verify review || fail "verify failed"
for f in report.html report.md comparison.xlsx manifest.json definition.json; do
	[ -s "review/$f" ] || fail "review/$f is missing"
done
grep -q '"name": "procurement-review"' review/definition.json || fail "definition.json is not the installed one"
if command -v man >/dev/null 2>&1; then
	MANPATH="$prefix/share/man" man -P cat perfledger-compare 2>/dev/null | grep -q -- '--allow-mismatch' ||
		fail "man perfledger-compare does not show --allow-mismatch"
fi
if command -v bash >/dev/null 2>&1; then
	got=$(bash -c '. "$1"; COMP_WORDS=(perfledger compare --metric ttft_p9); COMP_CWORD=3; _perfledger; echo "${COMPREPLY[*]}"' \
		sh "$prefix/share/bash-completion/completions/perfledger")
	[ "$got" = "ttft_p90 ttft_p95 ttft_p99 ttft_p99_9" ] || fail "bash completes 'compare --metric ttft_p9' as '$got'"
fi
echo "install_tree: installed, moved and run from $prefix"
