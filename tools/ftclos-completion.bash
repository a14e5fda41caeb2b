# bash completion for ftclos. Subcommands and options are read from the
# installed binary's --help, scheme names from `ftclos schemes`, so this file
# never lists what the program no longer has.
# shellcheck shell=bash

# _ftclos_words HELP_TEXT SECTION: the first word of each entry under a
# CLI11 help heading ("Subcommands:", "Options:"); options split at commas.
_ftclos_words() {
  awk -v section="$2" '
    /^[A-Z][A-Za-z]*:$/ { inside = ($0 == section); next }
    inside && /^  [^ ]/ { n = split($1, names, ","); for (i = 1; i <= n; i++) print names[i] }' <<<"$1"
}

_ftclos() {
  local cur prev words cword
  _init_completion || return
  local cmd=${words[0]} i path=()
  # The subcommand path so far: "audit", or "gen ftree".
  for ((i = 1; i < cword; i++)); do
    case ${words[i]} in
      -*) ;;
      *) if _ftclos_words "$("$cmd" "${path[@]}" --help 2>/dev/null)" "Subcommands:" | grep -qx -- "${words[i]}"; then
           path+=("${words[i]}")
         fi ;;
    esac
  done
  case $prev in
    --scheme)
      mapfile -t COMPREPLY < <(compgen -W "$("$cmd" schemes 2>/dev/null | awk '{print $1}')" -- "$cur")
      return ;;
    --schemes)  # comma-separated: complete the last name
      local head=${cur%,*} tail=${cur##*,} names
      names=$("$cmd" schemes 2>/dev/null | awk '{print $1}')
      [ "$head" = "$cur" ] && head="" || head="$head,"
      mapfile -t COMPREPLY < <(compgen -P "$head" -W "$names" -- "$tail")
      return ;;
    --lmc | --vls | --seed | --offset | --fail-links) return ;;
    -o | --output | --json | --html | --guid2lid | --pathbits | --previous | --previous-sl | --sl | --new-sl | --stages | --compare | --*-guid-file | --roots | --ibnl-dir | --permutation)
      _filedir
      return ;;
  esac
  local help
  help=$("$cmd" "${path[@]}" --help 2>/dev/null)
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_ftclos_words "$help" "Options:")" -- "$cur")
  else
    mapfile -t COMPREPLY < <(compgen -W "$(_ftclos_words "$help" "Subcommands:")" -- "$cur")
    # Past the subcommand the positionals are files (TOPO, LFT dumps).
    [ ${#path[@]} -gt 0 ] && _filedir
  fi
}
complete -F _ftclos ftclos
