#!/bin/sh
# Fails when an #include under src/ crosses the module map (docs/layout.md)
# the wrong way, printing each offending file:line. The arrows:
#   cli -> hub (the team hub) -> import, render
#   cli -> flow (the pipelines the commands call) -> render
#   cli -> import;  import, render -> adapters, store -> core -> util
# (a layer may include its own headers and those of the layers below it;
# import and render do not include each other, nor flow and import, nor
# adapters and store).
# A layer's private headers (*_impl.h, and the adapters' json_util.h and
# yaml_util.h, which expose cJSON and libyaml types) stay inside it.
# Each third-party header belongs to one place:
#   <cjson/...>, <yaml.h>: src/adapters/    <sqlite3.h>: src/store/
#   <xlsxwriter.h>: src/render/xlsx.c
#   <zlib.h>: src/render/xlsx_epoch.c, src/store/source.c (the kept source bytes)
#             and src/store/requests.c (a run's requests)
#   <libdeflate.h>: src/store/source.c (writing the kept source bytes)
#   <gsl/...>: src/core/                    <openssl/...>: src/core/hash.c
#   <libpq-fe.h>: src/hub/
# CMake links each library PRIVATE to its layer, which catches a call
# across the arrows at link time; this catches the #include itself, in
# headers too. Run by scripts/test.sh after scripts/check_banned.sh.
#   sh scripts/check_layers.sh [SRC_DIR]      (default src)
set -eu
cd "$(dirname "$0")/.."
src=${1:-src}
hits=$(find "$src" -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort |
	xargs grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' /dev/null |
	awk -v src="$src" '
BEGIN {
	# what each layer may include besides itself
	may["cli"] = " hub flow import render adapters store core util "
	may["hub"] = " import render adapters store core util "
	may["flow"] = " render adapters store core util "
	may["import"] = " adapters store core util "
	may["render"] = " adapters store core util "
	may["adapters"] = " core util "
	may["store"] = " core util "
	may["core"] = " util "
	may["util"] = " "
	private["adapters/json_util.h"] = 1
	private["adapters/yaml_util.h"] = 1
	private["hub/hub_impl.h"] = 1
}
function bad(msg) { printf "%s:%s: %s\n", file, line, msg }
{
	# FILE:LINE:TEXT (paths under src/ hold no colon)
	i = index($0, ":"); file = substr($0, 1, i - 1); rest = substr($0, i + 1)
	i = index(rest, ":"); line = substr(rest, 1, i - 1); text = substr(rest, i + 1)
	rel = substr(file, length(src) + 2)          # core/model.c
	layer = rel; sub(/\/.*/, "", layer)
	if (!(layer in may)) { bad("src/" layer "/ is not a layer of the module map"); next }
	if (match(text, /<[^>]*>/)) {
		h = substr(text, RSTART + 1, RLENGTH - 2)
		if (h ~ /^cjson\// || h == "yaml.h") place = "src/adapters/"
		else if (h == "sqlite3.h") place = "src/store/"
		else if (h == "xlsxwriter.h") place = "src/render/xlsx.c"
		else if (h == "libdeflate.h") place = "src/store/source.c"
		else if (h == "zlib.h") place = (rel == "store/source.c" || rel == "store/requests.c") ? "src/" rel : "src/render/xlsx_epoch.c"
		else if (h ~ /^gsl\//) place = "src/core/"
		else if (h ~ /^openssl\//) place = "src/core/hash.c"
		else if (h == "libpq-fe.h") place = "src/hub/"
		else next
		if (index("src/" rel, place) != 1)
			bad("<" h "> belongs to " place " only")
		next
	}
	if (!match(text, /"[^"]*"/)) next
	h = substr(text, RSTART + 1, RLENGTH - 2)
	if (h ~ /(^|\/)\.\.(\/|$)/) { bad("\"" h "\": a relative path; include headers as \"layer/name.h\""); next }
	if (index(h, "/") == 0) next                 # a header next to the file
	to = h; sub(/\/.*/, "", to)
	if (to != layer && index(may[layer], " " to " ") == 0) {
		lower = may[layer]; gsub(/^ | $/, "", lower); gsub(/ /, ", ", lower)
		bad(layer " includes \"" h "\" (" layer "/ may include " (lower == "" ? "only itself" : "itself and " lower) ")")
		next
	}
	if (to != layer && (h ~ /_impl\.h$/ || (h in private)))
		bad("\"" h "\" is private to src/" to "/")
}')
if [ -n "$hits" ]; then
	echo "includes across the module map (docs/layout.md; see scripts/check_layers.sh):" >&2
	echo "$hits" >&2
	exit 1
fi
echo "layers: every #include under $src/ follows the module map"
