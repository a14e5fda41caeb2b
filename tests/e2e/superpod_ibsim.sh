#!/usr/bin/env bash
# `ftclos gen superpod` fabrics load in a real ibsim: ibnetdiscover reads
# back every switch, every compute HCA and every SHARP Aggregation Node with
# its node description, and detect on the read-back gives the same answer as
# on the file (families, levels, ANs, deviations, by GUID). Detect reads the
# pod truthfully: its level count, the HCAs as hosts and the ANs apart, the
# management leaves apart, every removed cable named as missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
FTCLOS=${FTCLOS:?set FTCLOS to the ftclos binary}
work=$(mktemp -d)
trap 'cleanup_ibsims; rm -rf "$work"' EXIT

# name | levels | gen superpod arguments
cases=(
  "pod2|2|--units 4 --servers 8 --rails 4 --spines 4 --radix 36 --partial-units 1 --mgmt-leaves 2 --fail-links 6 --lose-switches 1 --lost-level 1 --seed 2"
  "pod3|3|--units 6 --servers 8 --rails 4 --levels 3 --spines 4 --group-units 2 --radix 16 --partial-units 2 --mgmt-leaves 2 --fail-links 4 --seed 3"
)
failures=0
for entry in "${cases[@]}"; do
  IFS='|' read -r name levels args <<<"$entry"
  net=$work/$name.net
  # shellcheck disable=SC2086
  "$FTCLOS" gen superpod $args -o "$net" 2>"$work/$name.gen"
  readback_detect "$net" "$work/$name"
  switches=$(grep -c '^Switch' "$net")
  ans=$(grep -c '^Ca.*"Mellanox Technologies Aggregation Node"' "$work/$name.disc" || true)
  hcas=$(grep -c '^Ca.*mlx5_' "$work/$name.disc" || true)
  want_hcas=$(grep -c '^Hca.*mlx5_' "$net")  # a lost leaf took its HCAs along
  if [ "$ans" != "$switches" ] || [ "$hcas" != "$want_hcas" ]; then
    echo "FAIL $name: ibnetdiscover read back $ans ANs for $switches switches, $hcas HCAs for $want_hcas"
    failures=$((failures + 1))
  elif ! truth=$(python3 - "$work/$name.file.json" "$levels" "$switches" "$want_hcas" "$work/$name.gen" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
levels, switches, hcas = map(int, sys.argv[2:5])
gen = open(sys.argv[5]).read()
lost = set(re.findall(r'lost switch: "([^"]*)"', gen))
# A lost switch's cables are implied by its loss.
removed = {tuple(sorted(m)) for m in re.findall(r'removed: "([^"]*)"\[\d+\] - "([^"]*)"', gen) if not lost & set(m)}
named = {tuple(sorted((x["at"]["name"], x["peer"]["name"]))) for x in d["deviations"] if x["kind"] == "missing-cable"}
wrong = []
if d["levels"] != levels: wrong.append(f"{d['levels']} levels")
if len(d["aggregation_nodes"]) != switches: wrong.append(f"{len(d['aggregation_nodes'])} ANs")
compute = d["host_count"] - len(d["io_hosts"])
if compute != hcas: wrong.append(f"{compute} compute hosts")
if named != removed: wrong.append(f"missing cables named {sorted(named)}, removed {sorted(removed)}")
print("; ".join(wrong) or f"{d['families'][0]['name']} {d['families'][0]['params']}, {len(d['management_leaves'])} management leaves")
sys.exit(1 if wrong else 0)
PY
  ); then
    echo "FAIL $name: detect misreads the pod: $truth"
    failures=$((failures + 1))
  elif ! diff -u "$work/$name.file.sum" "$work/$name.disc.sum" >"$work/$name.diff"; then
    echo "FAIL $name: detect differs between the file and ibnetdiscover output:"
    head -40 "$work/$name.diff"
    failures=$((failures + 1))
  else
    echo "ok   $name: ibsim loaded $switches switches, $ans ANs, $hcas HCAs; detect: $truth, the same on read-back"
  fi
done
echo "$(( ${#cases[@]} - failures )) passed, $failures failed"
[ "$failures" -eq 0 ]
