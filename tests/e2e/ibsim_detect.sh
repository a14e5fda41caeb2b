#!/usr/bin/env bash
# Every family written by `ftclos gen` loads in a real ibsim, and detect on
# what ibnetdiscover reads back from the simulator gives the same answer as
# detect on the file itself (families, parameters, deviations, by GUID).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
FTCLOS=${FTCLOS:?set FTCLOS to the ftclos binary}
root=${FTCLOS_SOURCE_ROOT:-$here/../..}
work=$(mktemp -d)
trap 'cleanup_ibsims; rm -rf "$work"' EXIT

# name | gen arguments (empty: the file in ibsim-topos/)
cases=(
  "clos2-big|clos2 --n 32 --m 32 --r 40"
  "ft-16-3|ftree --ports 16 --levels 3"
  "kary-10-3|kary --k 10 --levels 3"
  "pgft-3|pgft --h 3 --m 4,4,6 --w 1,2,3 --p 1,1,2"
  "mikant-8-3|mikant --k 8 --levels 3"
  "rfc-24-96-3|rfc --radix 24 --leaves 96 --levels 3 --seed 3"
  "ft-8-3-fail|ftree --ports 8 --levels 3 --fail-links 5 --seed 11"
  "mikant-3-3-fail|mikant --k 3 --levels 3 --fail-links 2 --seed 5"
  "clos2-storage|clos2 --n 4 --m 4 --r 8 --io-hosts 2"
  "ft-8-3-storage|ftree --ports 8 --levels 3 --io-hosts 1"
  "pgft-storage|pgft --h 2 --m 24,4 --w 1,2 --p 1,6 --io-hosts 3"
  "ft-8-2-port2|ftree --ports 8 --levels 2 --hca-port 2 --io-hosts 1"
  "kary-4-3-dual-rail|kary --k 4 --levels 3 --dual-rail"
  "ft-8-3-swapped|ftree --ports 8 --levels 3 --swap-pairs 2 --seed 4"
  "clos2-swapped|clos2 --n 4 --m 8 --r 12 --swap-pairs 4 --seed 4"
  "ft-8-3-lost|ftree --ports 8 --levels 3 --lose-switches 2 --lost-level 2 --seed 4"
  "ft-8-3-slow|ftree --ports 8 --levels 3 --rate 4xEDR --slow-links 2 --seed 2"
)
for f in "$root"/ibsim-topos/*.net; do cases+=("$(basename "$f" .net)|"); done

failures=0
for entry in "${cases[@]}"; do
  name=${entry%%|*}
  args=${entry#*|}
  net=$work/$name.net
  if [ -n "$args" ]; then
    # shellcheck disable=SC2086
    "$FTCLOS" gen $args -o "$net" 2>/dev/null
  else
    cp "$root/ibsim-topos/$name.net" "$net"
  fi
  readback_detect "$net" "$work/$name"
  family=$(python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["families"][0]; print(f["name"], f["params"])' "$work/$name.file.json")
  if diff -u "$work/$name.file.sum" "$work/$name.disc.sum" >"$work/$name.diff"; then
    echo "ok   $name: ibsim loaded it; ibnetdiscover read-back detects the same: $family"
  else
    echo "FAIL $name: detect differs between the file and ibnetdiscover output:"
    head -40 "$work/$name.diff"
    failures=$((failures + 1))
  fi
done
total=${#cases[@]}
echo "$((total - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
