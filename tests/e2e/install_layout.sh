#!/usr/bin/env bash
# `meson install --destdir D` lays out what a cluster needs: ftclos in
# bindir, libosmftclos.so in a libdir the dynamic loader searches (OpenSM
# dlopens it by bare name), the man page (every subcommand in it, no roff
# warnings), the annotated opensm.conf fragment, bash completion (which
# completes subcommands, options and scheme names from the installed binary),
# and where the plugin is built its man page opensm-ftclos(8) (every option
# and ERR number of plugin/README.md, no roff warnings).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/lib.sh
source "$here/lib.sh"
FTCLOS=${FTCLOS:?set FTCLOS to the ftclos binary}
VERSION=${FTCLOS_VERSION:?set FTCLOS_VERSION to the project version}
build=${FTCLOS_BUILD_ROOT:?set FTCLOS_BUILD_ROOT to the meson build directory}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# The tests have built everything: install without running ninja beside them.
meson install -C "$build" --no-rebuild --destdir "$work/root" >"$work/install.log" 2>&1 ||
  { echo "meson install failed:"; tail -5 "$work/install.log"; exit 1; }
option() { meson_option "$build" "$1"; }
prefix=$(option prefix)
libdir=$(option libdir)
bindir=$(option bindir)
mandir=$(option mandir)
datadir=$(option datadir)
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
root=$work/root
expect=(
  "$prefix/$bindir/ftclos"
  "$libdir/libosmftclos.so"
  "$prefix/$mandir/man1/ftclos.1"
  "$prefix/$datadir/doc/ftclos/opensm-ftclos.conf"
  "$prefix/$datadir/bash-completion/completions/ftclos"
  "$prefix/$datadir/doc/ftclos/schemas/audit.schema.json"
  "$prefix/$datadir/doc/ftclos/schemas/detect.schema.json"
  "$prefix/$datadir/doc/ftclos/schemas/sweep.schema.json"
)
for path in "${expect[@]}"; do [ -f "$root$path" ] || fail "not installed: $path"; done
echo "installed under $prefix: $(cd "$root" && find . -type f | sort | tr '\n' ' ')"

# The loader's directories: what ld.so.conf lists (Debian's includes
# /etc/ld.so.conf.d/*.conf; ldconfig -v skips the ones that do not exist
# yet) and the trusted ones ldconfig adds.
loader_dirs=$({ grep -hx '/[^ ]*' /etc/ld.so.conf /etc/ld.so.conf.d/*.conf || true; } && ldconfig -v -N 2>/dev/null | grep -o '^/[^:]*')
grep -qx "$libdir" <<<"$loader_dirs" ||
  fail "$libdir is not a directory the dynamic loader searches (ld.so.conf, ldconfig -v): OpenSM would not find libosmftclos.so"
readelf --dyn-syms -W "$root$libdir/libosmftclos.so" | grep -qw osm_event_plugin ||
  fail "libosmftclos.so does not export osm_event_plugin"

[ "$("$root$prefix/$bindir/ftclos" --version)" = "ftclos $VERSION" ] || fail "installed ftclos --version"

page=$root$prefix/$mandir/man1/ftclos.1
warnings=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1) || fail "groff failed on ftclos.1"
[ -z "$warnings" ] || fail "ftclos.1 has roff warnings: $(head -3 <<<"$warnings")"
grep -q "^\.TH FTCLOS 1 .*ftclos $VERSION" "$page" || fail "ftclos.1 does not carry version $VERSION"
for sub in $("$FTCLOS" --help | awk '/^Subcommands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
  grep -q "^\.SS ftclos $sub\$" "$page" || fail "ftclos.1 has no section for '$sub'"
done

if [ -f "$build/plugin/libosmftclos.so" ]; then
  page=$root$prefix/$mandir/man8/opensm-ftclos.8
  if [ -f "$page" ]; then
    warnings=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1) || fail "groff failed on opensm-ftclos.8"
    [ -z "$warnings" ] || fail "opensm-ftclos.8 has roff warnings: $(head -3 <<<"$warnings")"
    rendered=$(LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$page" 2>/dev/null)
    readme=${FTCLOS_SOURCE_ROOT:?}/plugin/README.md
    for option in $(sed -n 's/^| `\([a-z_]*\)`.*/\1/p' "$readme"); do
      grep -q "^ *$option" <<<"$rendered" || fail "opensm-ftclos.8 lacks the option $option"
    done
    for err in $(sed -n 's/^| \([0-9][0-9]\) |.*/\1/p' "$readme"); do
      grep -q "ERR $err" <<<"$rendered" || fail "opensm-ftclos.8 lacks ERR $err"
    done
  else
    fail "not installed: $prefix/$mandir/man8/opensm-ftclos.8"
  fi
fi

# complete LINE: what bash completion offers at the end of LINE.
complete_line() {
  PATH=$root$prefix/$bindir:$PATH bash -c '
    source /usr/share/bash-completion/bash_completion
    source "$1"
    read -ra COMP_WORDS <<<"$2"
    [[ $2 == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) COMP_LINE=$2 COMP_POINT=${#2}
    _ftclos ftclos "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"
    printf "%s\n" "${COMPREPLY[@]}"' _ "$root$prefix/$datadir/bash-completion/completions/ftclos" "$1"
}
[ "$(complete_line "ftclos rou")" = route ] || fail "completion of 'ftclos rou': $(complete_line "ftclos rou")"
complete_line "ftclos route x.net --gu" | grep -qx -- --guid2lid || fail "completion of 'route --gu': $(complete_line "ftclos route x.net --gu")"
[ "$(complete_line "ftclos audit x.net --scheme dm")" = dmodk ] || fail "completion of '--scheme dm'"
[ "$(complete_line "ftclos patterns x.net --schemes dmodk,os")" = dmodk,osrm ] ||
  fail "completion of '--schemes dmodk,os': $(complete_line "ftclos patterns x.net --schemes dmodk,os")"
[ "$(complete_line "ftclos gen ftree --po")" = --ports ] || fail "completion of 'gen ftree --po': $(complete_line "ftclos gen ftree --po")"

[ "$failures" -eq 0 ] && echo "layout, loader path, man page and completion as expected"
exit $((failures > 0))
