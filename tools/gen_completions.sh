#!/bin/sh
# Writes the bash and zsh completions of perfledger from its own tables, at
# build time: the commands (and their one-line summaries), each command's
# options (its option table, through the hidden --completion-helper), and
# the names an option's value takes: metric names for --metric, condition
# names for FIELD (FIELD= for --where and --set), input format names for
# import --format, files and directories for FILE, PATH and DIR.
#
#   gen_completions.sh PERFLEDGER_BINARY OUT_BASH OUT_ZSH
set -eu
bin=$1
out_bash=$2
out_zsh=$3
tab=$(printf '\t')
us=$(printf '\037') # tabs are white space to read: empty fields would collapse

words() { "$bin" --completion-helper "$1" | tr '\n' ' ' | sed 's/ $//'; }
commands=$("$bin" --completion-helper commands | cut -f1 | tr '\n' ' ' | sed 's/ $//')
metrics=$(words metrics)
conditions=$(words conditions)
formats=$(words formats)

# the kind of value an option takes: a name list, files, directories, or none
kind() { # CMD LONG ARGH
	case "$1 $2" in
	"import --format") echo formats; return ;;
	esac
	case "$2" in
	--metric) echo metrics; return ;;
	esac
	case "$3" in
	FIELD=VALUE*) echo fieldeq ;;
	FIELD*) echo fields ;;
	FILE* | PATH*) echo files ;;
	DIR*) echo dirs ;;
	"") echo flag ;;
	*) echo value ;;
	esac
}

# "CMD<TAB>LONG<TAB>KIND" for every option of every command
table=$(for c in $commands; do
	if [ "$c" = help ]; then continue; fi
	"$bin" "$c" --completion-helper | tr '\t' "$us" | while IFS="$us" read -r long short argh; do
		if [ -n "$long" ]; then printf '%s\t%s\t%s\n' "$c" "$long" "$(kind "$c" "$long" "$argh")"; fi
		if [ -n "$short" ]; then printf '%s\t%s\t%s\n' "$c" "$short" "$(kind "$c" "$short" "$argh")"; fi
	done
done)

{
	echo "# bash completion for perfledger, generated from its option tables by"
	echo "# tools/gen_completions.sh: do not edit."
	echo "_perfledger_commands='$commands'"
	echo "_perfledger_metrics='$metrics'"
	echo "_perfledger_conditions='$conditions'"
	echo "_perfledger_formats='$formats'"
	echo
	echo "_perfledger_options() {"
	echo "	case \"\$1\" in"
	for c in $commands; do
		if [ "$c" = help ]; then continue; fi
		opts=$(printf '%s\n' "$table" | awk -F "$tab" -v c="$c" '$1 == c { printf "%s%s", sep, $2; sep = " " }')
		echo "	$c) echo '$opts --help' ;;"
	done
	echo "	esac"
	echo "}"
	echo
	echo "_perfledger_kind() {"
	echo "	case \"\$1 \$2\" in"
	printf '%s\n' "$table" | awk -F "$tab" '$3 != "flag" { printf "\t\"%s %s\") echo %s ;;\n", $1, $2, $3 }'
	echo "	--db) echo files ;;"
	echo "	*) echo none ;;"
	echo "	esac"
	echo "}"
	cat <<'EOF'

_perfledger() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local cmd="" i kind list pre
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--db) ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		if [[ $prev == --db ]]; then
			COMPREPLY=($(compgen -f -- "$cur"))
		elif [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W '--db --help --version' -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$_perfledger_commands" -- "$cur"))
		fi
		return
	fi
	if [[ $cmd == help ]]; then
		COMPREPLY=($(compgen -W "$_perfledger_commands" -- "$cur"))
		return
	fi
	kind=$(_perfledger_kind "$cmd" "$prev")
	pre=""
	case $kind in
	metrics) list=$_perfledger_metrics ;;
	formats) list=$_perfledger_formats ;;
	fields | fieldeq) list=$_perfledger_conditions ;;
	files) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	dirs) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	value) return ;;
	*)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$(_perfledger_options "$cmd")" -- "$cur"))
		elif [[ $cmd == formats ]]; then
			COMPREPLY=($(compgen -W "$_perfledger_formats" -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi
		return ;;
	esac
	# a comma-separated list: complete its last element
	if [[ $cur == *,* ]]; then
		pre=${cur%,*},
		cur=${cur##*,}
	fi
	if [[ $kind == fieldeq ]]; then
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -P "$pre" -S = -W "$list" -- "$cur"))
	else
		COMPREPLY=($(compgen -P "$pre" -W "$list" -- "$cur"))
	fi
}
complete -F _perfledger perfledger
EOF
} >"$out_bash"

{
	echo "#compdef perfledger"
	echo "# zsh completion for perfledger, generated from its option tables by"
	echo "# tools/gen_completions.sh: do not edit."
	echo
	echo "_perfledger_kind() {"
	echo "	case \"\$1 \$2\" in"
	printf '%s\n' "$table" | awk -F "$tab" '$3 != "flag" { printf "\t\"%s %s\") REPLY=%s ;;\n", $1, $2, $3 }'
	echo "	*) REPLY=none ;;"
	echo "	esac"
	echo "}"
	echo
	echo "_perfledger_options() {"
	echo "	case \"\$1\" in"
	for c in $commands; do
		if [ "$c" = help ]; then continue; fi
		opts=$(printf '%s\n' "$table" | awk -F "$tab" -v c="$c" '$1 == c { printf "%s%s", sep, $2; sep = " " }')
		echo "	$c) reply=($opts --help) ;;"
	done
	echo "	esac"
	echo "}"
	echo
	echo "_perfledger() {"
	echo "	local -a commands metrics conditions formats reply"
	echo "	commands=("
	"$bin" --completion-helper commands | tr '\t' "$us" | while IFS="$us" read -r name summary; do
		printf "\t\t'%s:%s'\n" "$name" "$(printf '%s' "$summary" | sed "s/'/'\\\\''/g; s/:/\\\\:/g")"
	done
	echo "	)"
	echo "	metrics=($metrics)"
	echo "	conditions=($conditions)"
	echo "	formats=($formats)"
	cat <<'EOF'
	local cmd="" i REPLY cur=${words[CURRENT]} prev=${words[CURRENT-1]}
	for ((i = 2; i < CURRENT; i++)); do
		case ${words[i]} in
		--db) ((i++)) ;;
		-*) ;;
		*) cmd=${words[i]}; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		if [[ $prev == --db ]]; then
			_files
		elif [[ $cur == -* ]]; then
			compadd -- --db --help --version
		else
			_describe -t commands 'perfledger command' commands
		fi
		return
	fi
	if [[ $cmd == help ]]; then
		_describe -t commands 'perfledger command' commands
		return
	fi
	_perfledger_kind "$cmd" "$prev"
	case $REPLY in
	metrics) compset -P '*,'; compadd -a metrics ;;
	formats) compadd -a formats ;;
	fields) compset -P '*,'; compadd -a conditions ;;
	fieldeq) compadd -S = -a conditions ;;
	files) _files ;;
	dirs) _files -/ ;;
	value) ;;
	*)
		if [[ $cur == -* ]]; then
			_perfledger_options "$cmd"
			compadd -a reply
		elif [[ $cmd == formats ]]; then
			compadd -a formats
		else
			_files
		fi ;;
	esac
}

_perfledger "$@"
EOF
} >"$out_zsh"
