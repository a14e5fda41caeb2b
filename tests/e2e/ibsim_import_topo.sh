#!/usr/bin/env bash
# The ibdm fabrics vendored from ibutils (ibsim-topos/ibutils/) import, load
# in a real ibsim, and detect on what ibnetdiscover reads back from the
# simulator gives the same answer as detect on the imported file (families,
# parameters, deviations, by GUID), as ibsim_detect.sh checks for gen's
# fabrics. Every vendored file is small enough for ibsim (at most 216
# switches and 1,100 hosts; the whole run takes seconds); ibutils'
# RhinoBased10K.topo was not vendored (see the README there).

set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
FTCLOS=${FTCLOS:?set FTCLOS to the ftclos binary}
root=${FTCLOS_SOURCE_ROOT:-$here/../..}
topos=$root/ibsim-topos/ibutils
work=$(mktemp -d)
trap 'cleanup_ibsims; rm -rf "$work"' EXIT

failures=0
total=0

# Bad input: exit status 2 and the file and line.
printf 'Zebra Z-1\n' >"$work/unknown.topo"
total=$((total + 1))
status=0
"$FTCLOS" import-topo "$work/unknown.topo" --ibnl-dir "$topos/ibnl" >/dev/null 2>"$work/unknown.err" || status=$?
if [ "$status" -eq 2 ] && grep -q "^ftclos import-topo: $work/unknown.topo:1: unknown system type Zebra" "$work/unknown.err"; then
  echo "ok   unknown system type: exit 2, $(cat "$work/unknown.err")"
else
  echo "FAIL unknown system type: exit $status, $(cat "$work/unknown.err")"
  failures=$((failures + 1))
fi

for topo in "$topos"/*.topo; do
  name=$(basename "$topo" .topo)
  net=$work/$name.net
  total=$((total + 1))
  # The default IBNL directory, ibnl/ beside the .topo, holds the systems.
  if ! "$FTCLOS" import-topo "$topo" -o "$net" 2>"$work/$name.import.err"; then
    echo "FAIL $name: import-topo: $(cat "$work/$name.import.err")"
    failures=$((failures + 1))
    continue
  fi
  readback_detect "$net" "$work/$name"
  family=$(python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["families"][0]; print(f["name"], f["params"])' "$work/$name.file.json")
  if diff -u "$work/$name.file.sum" "$work/$name.disc.sum" >"$work/$name.diff"; then
    echo "ok   $name: $(cat "$work/$name.import.err"); ibnetdiscover read-back detects the same: $family"
  else
    echo "FAIL $name: detect differs between the imported file and ibnetdiscover output:"
    head -40 "$work/$name.diff"
    failures=$((failures + 1))
  fi
done
echo "$((total - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
