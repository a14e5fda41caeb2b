#!/usr/bin/env bash
# The path bits reach the hosts, and what they buy is what the switches
# hold. Stock OpenSM with the osmftclos plugin (pathbits_file) routes small
# fabrics of ibsim-topos/: three at an LMC where auto takes a source-class
# scheme whose offset 0 is D-mod-k's and whose classes are on the other
# offsets (the demo fabric FT(8,3) at LMC 3: OSRM3's 4 source groups;
# FT(8,2) at LMC 2: OSRM2's 2 groups; ftree(2+4, 6) at LMC 2: nonblocking,
# a leaf's 2 hosts), and the 4-ary 3-tree with scheme=mlid at LMC 2, whose
# bits there measure worse than offset 0 (8 against 4), so every host gets
# bits 0 (schemes/path_bits_fallback.h). For each:
#   1. the job-prolog lookup of plugin/README.md ("Giving each host its path
#      bits") finds every CA port of the read-back fabric in the plugin's
#      file, with the bits `ftclos pathbits` gives that fabric offline (none
#      0 where the classes keep their offsets, all 0 after the fall-back),
#      and on simulated hosts the GUID their own `ibstat -p` prints finds it
#      too (the bits `ftclos pathbits --port GUID --env` prints);
#   2. a port the file lacks falls back to UCX_IB_LID_PATH_BITS=0, offset 0;
#   3. `ftclos audit` of the tables read back with dump_lfts, with that file,
#      gives the worst case of hosts on offset 0 and on their path bits that
#      the plugin's sweep line reports (path bits below offset 0, or equal
#      after the fall-back), and all three figures (offset 0, path bits, all
#      offsets) are those of the tables and path bits `ftclos route`
#      computes offline on OpenSM's LIDs.
# FTCLOS_E2E_CASES="ft-8-2 ..." runs those fabrics only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/plugin_lib.sh
source "$here/plugin_lib.sh"
plugin_work_dir

fail() { echo "FAIL: $*"; exit 1; }

# The prolog's lookup, as plugin/README.md shows it: GUID FILE -> the line it exports.
prolog_line() {
  local bits
  bits=$(awk -v g="$1" 'tolower($1) == tolower(g) { print $2 }' "$2")
  echo "UCX_IB_LID_PATH_BITS=${bits:-0}"
}

# The audit's three figures: "offset0 path_bits all_offsets" from its text.
consumer_figures() {
  sed -n 's/^worst case by consumer: offset 0 \([0-9.]*\), path bits \([0-9.]*\), all offsets \([0-9.]*\).*/\1 \2 \3/p' "$1"
}

# fabric (ibsim-topos/<fabric>.net) | LMC | scheme | auto's choice | path bits:
# "classes" (every host on its class's offset, none 0) or "offset0" (all 0)
cases=("ft-8-3|3|auto|osrm|classes" "ft-8-2|2|auto|osrm|classes" "clos2-2-4-6|2|auto|nonblocking|classes"
  "kary-4-3|2|mlid||offset0")
selected=$(select_cases "${cases[@]}")
mapfile -t cases <<<"$selected"

# run_case FABRIC LMC SCHEME CHOICE BITS DIR: fails on the first broken check.
run_case() {
  local fabric=$1 lmc=$2 scheme=$3 choice=$4 expect_bits=$5 dir=$6
  local net=$root/ibsim-topos/$fabric.net sock host hosts name file cas expected
  sock=ftclos-plugin-pathbits-$$-$fabric
  host=$(first_ca "$net")
  start_console_ibsim "$sock" "$net" "$dir/ibsim.log"
  cat >"$dir/opensm.conf" <<EOF
event_plugin_name osmftclos
event_plugin_options scheme=$scheme pathbits_file=ftclos-pathbits
routing_engine ftclos
lmc $lmc
log_flags 0x03
force_log_flush TRUE
dump_files_dir $dir
EOF
  run_opensm "$dir" "$sock" "$host" timeout 120 -o >"$dir/opensm.out" 2>&1 ||
    fail "$fabric: opensm: $(tail -3 "$dir/opensm.out")"
  grep -q "ftclos tables configured on all switches" "$dir/osm.log" ||
    fail "$fabric: the ftclos engine did not configure the switches: $(grep -E 'ftclos ERR' "$dir/osm.log" | head -3)"
  [ -z "$choice" ] || grep -q "scheme auto chose $choice\b" "$dir/osm.log" ||
    fail "$fabric: auto did not choose $choice: $(grep -o 'scheme auto chose [a-z-]*' "$dir/osm.log" | tail -1)"
  sim_run "$sock" "$host" timeout 60 ibnetdiscover >"$dir/disc.net" 2>"$dir/disc.err" ||
    fail "$fabric: ibnetdiscover: $(tail -2 "$dir/disc.err")"
  sim_run "$sock" "$host" timeout 300 dump_lfts >"$dir/dump_lfts.txt" 2>"$dir/dump_lfts.err" ||
    fail "$fabric: dump_lfts: $(tail -2 "$dir/dump_lfts.err")"
  # Hosts read their own port GUID, as a prolog does: the first, the middle and the last.
  mapfile -t hosts < <(awk '/^(Ca|Hca)[ \t]/ { match($0, /"[^"]*"/); print substr($0, RSTART + 1, RLENGTH - 2) }' "$net")
  hosts=("${hosts[0]}" "${hosts[${#hosts[@]} / 2]}" "${hosts[-1]}")
  declare -A own_guid
  for name in "${hosts[@]}"; do
    own_guid[$name]=$(sim_run "$sock" "$name" timeout 30 ibstat -p 2>/dev/null | head -n 1)
    [ -n "${own_guid[$name]}" ] || fail "$fabric: ibstat -p printed no port GUID on $name"
  done
  stop_console_ibsim

  file=$dir/ftclos-pathbits
  [ -s "$file" ] || fail "$fabric: the plugin wrote no path-bits file"

  # 1. Every CA port of the read-back fabric: the prolog's line is ftclos's offline one.
  "$FTCLOS" pathbits "$dir/disc.net" --scheme "$scheme" >"$dir/offline.pathbits" 2>"$dir/pathbits.err" ||
    fail "$fabric: ftclos pathbits: $(cat "$dir/pathbits.err")"
  cas=0
  while read -r guid bits; do
    [ "$(prolog_line "$guid" "$file")" = "UCX_IB_LID_PATH_BITS=$bits" ] ||
      fail "$fabric: port $guid: the prolog exports $(prolog_line "$guid" "$file"), ftclos pathbits gives $bits"
    if [ "$expect_bits" = classes ]; then
      [ "$bits" -ne 0 ] || fail "$fabric: port $guid has path bits 0 (offset 0 is D-mod-k's, no class's)"
    else
      [ "$bits" -eq 0 ] || fail "$fabric: port $guid has path bits $bits, worse than offset 0 here"
    fi
    cas=$((cas + 1))
  done <"$dir/offline.pathbits"
  expected=$(grep -cE '^(Ca|Hca)[[:space:]]' "$net")
  [ "$cas" -eq "$expected" ] || fail "$fabric: $cas CA ports read back, $expected expected"
  for name in "${hosts[@]}"; do
    offline=$("$FTCLOS" pathbits "$dir/disc.net" --scheme "$scheme" --port "${own_guid[$name]}" --env 2>/dev/null)
    [ "$(prolog_line "${own_guid[$name]}" "$file")" = "$offline" ] ||
      fail "$fabric: $name (ibstat -p ${own_guid[$name]}): the prolog exports $(prolog_line "${own_guid[$name]}" "$file"), ftclos pathbits --port --env $offline"
  done

  # 2. A port the file lacks: offset 0.
  [ "$(prolog_line 0x0123456789abcdef "$file")" = "UCX_IB_LID_PATH_BITS=0" ] ||
    fail "$fabric: an unknown port does not fall back to 0"

  # 3. The audit's figures from the read-back tables and the file: the plugin's, and the offline route's.
  local sweep offset0 path_bits all_offsets
  sweep=$(grep -o 'worst case offset 0 [0-9.]*, path bits [0-9.]*' "$dir/osm.log" | tail -1)
  [ -n "$sweep" ] || fail "$fabric: the sweep line carries no worst case by consumer: $(grep 'ftclos: ' "$dir/osm.log" | tail -1)"
  "$FTCLOS" audit "$dir/disc.net" "$dir/dump_lfts.txt" --pathbits "$file" >"$dir/audit.txt" 2>"$dir/audit.err" ||
    fail "$fabric: ftclos audit: $(tail -3 "$dir/audit.err") $(grep -E '^(unreachable|loops|credit)' "$dir/audit.txt")"
  read -r offset0 path_bits all_offsets < <(consumer_figures "$dir/audit.txt")
  [ "$sweep" = "worst case offset 0 $offset0, path bits $path_bits" ] ||
    fail "$fabric: the audit of the read-back tables gives offset 0 $offset0, path bits $path_bits; the plugin logged \"$sweep\""
  if [ "$expect_bits" = classes ]; then
    awk -v o="$offset0" -v p="$path_bits" 'BEGIN { exit !(p < o) }' ||
      fail "$fabric: path bits ($path_bits) no better than offset 0 ($offset0)"
  else
    [ "$path_bits" = "$offset0" ] || fail "$fabric: path bits 0 everywhere, yet $path_bits against offset 0's $offset0"
  fi
  "$FTCLOS" route "$dir/disc.net" --scheme "$scheme" --guid2lid "$dir/guid2lid" -o "$dir/offline.lfts" --pathbits "$dir/route.pathbits" \
    2>"$dir/route.err" || fail "$fabric: ftclos route: $(tail -2 "$dir/route.err")"
  "$FTCLOS" audit "$dir/disc.net" "$dir/offline.lfts" --guid2lid "$dir/guid2lid" --pathbits "$dir/route.pathbits" \
    >"$dir/offline-audit.txt" 2>"$dir/offline-audit.err" ||
    fail "$fabric: ftclos audit of the offline tables: $(tail -3 "$dir/offline-audit.err")"
  [ "$(consumer_figures "$dir/offline-audit.txt")" = "$offset0 $path_bits $all_offsets" ] ||
    fail "$fabric: offset 0, path bits, all offsets read back: $offset0 $path_bits $all_offsets; offline: $(consumer_figures "$dir/offline-audit.txt")"
  echo "ok: $fabric LMC $lmc (scheme=$scheme${choice:+: $choice}, path bits $expect_bits): $cas CA ports, the prolog's line = ftclos pathbits; ibstat -p on ${hosts[*]};" \
    "unknown port -> 0; read back = plugin = offline: offset 0 $offset0, path bits $path_bits, all offsets $all_offsets"
}

for case in "${cases[@]}"; do
  IFS='|' read -r fabric lmc scheme choice expect_bits <<<"$case"
  mkdir -p "$work/$fabric"
  run_case "$fabric" "$lmc" "$scheme" "$choice" "$expect_bits" "$work/$fabric"
done
