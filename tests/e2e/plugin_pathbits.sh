#!/usr/bin/env bash
# The path bits reach the hosts. Stock OpenSM with the osmftclos plugin
# (scheme=auto, lmc 3, pathbits_file) routes ibsim-topos/ft-8-3.net (auto
# takes OSRM3: offset 0 D-mod-k's, the 4 source groups on offsets 1-4), then:
#   1. the job-prolog lookup of plugin/README.md ("Giving each host its path
#      bits") finds every CA port of the read-back fabric in the plugin's
#      file, with the bits `ftclos pathbits` gives that fabric offline, and
#      on simulated hosts the GUID their own `ibstat -p` prints finds it too
#      (the bits `ftclos pathbits --port GUID --env` prints);
#   2. a port the file lacks falls back to UCX_IB_LID_PATH_BITS=0, offset 0;
#   3. `ftclos audit` of the tables read back with dump_lfts, with that file,
#      gives the worst case of hosts on offset 0 and on their path bits that
#      the plugin's sweep line reports, path bits below offset 0.
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

net=$root/ibsim-topos/ft-8-3.net
sock=ftclos-plugin-pathbits-$$
host=$(first_ca "$net")
start_console_ibsim "$sock" "$net" "$work/ibsim.log"
cat >"$work/opensm.conf" <<EOF
event_plugin_name osmftclos
event_plugin_options scheme=auto pathbits_file=ftclos-pathbits
routing_engine ftclos
lmc 3
log_flags 0x03
force_log_flush TRUE
dump_files_dir $work
EOF
run_opensm "$work" "$sock" "$host" timeout 120 -o >"$work/opensm.out" 2>&1 ||
  fail "opensm: $(tail -3 "$work/opensm.out")"
grep -q "ftclos tables configured on all switches" "$work/osm.log" ||
  fail "the ftclos engine did not configure the switches: $(grep -E 'ftclos ERR' "$work/osm.log" | head -3)"
sim_run "$sock" "$host" timeout 60 ibnetdiscover >"$work/disc.net" 2>"$work/disc.err" ||
  fail "ibnetdiscover: $(tail -2 "$work/disc.err")"
sim_run "$sock" "$host" timeout 300 dump_lfts >"$work/dump_lfts.txt" 2>"$work/dump_lfts.err" ||
  fail "dump_lfts: $(tail -2 "$work/dump_lfts.err")"
# Three hosts read their own port GUID, as a prolog does.
mapfile -t hosts < <(awk '/^(Ca|Hca)[ \t]/ { match($0, /"[^"]*"/); print substr($0, RSTART + 1, RLENGTH - 2) }' "$net" |
  sed -n '50p;128p')
hosts=("$host" "${hosts[@]}")
declare -A own_guid
for name in "${hosts[@]}"; do
  own_guid[$name]=$(sim_run "$sock" "$name" timeout 30 ibstat -p 2>/dev/null | head -n 1)
  [ -n "${own_guid[$name]}" ] || fail "ibstat -p printed no port GUID on $name"
done
stop_console_ibsim

file=$work/ftclos-pathbits
[ -s "$file" ] || fail "the plugin wrote no path-bits file"

# 1. Every CA port of the read-back fabric: the prolog's line is ftclos's offline one.
"$FTCLOS" pathbits "$work/disc.net" >"$work/offline.pathbits" 2>"$work/pathbits.err" ||
  fail "ftclos pathbits: $(cat "$work/pathbits.err")"
cas=0
while read -r guid bits; do
  [ "$(prolog_line "$guid" "$file")" = "UCX_IB_LID_PATH_BITS=$bits" ] ||
    fail "port $guid: the prolog exports $(prolog_line "$guid" "$file"), ftclos pathbits gives $bits"
  cas=$((cas + 1))
done <"$work/offline.pathbits"
[ "$cas" -eq 128 ] || fail "$cas CA ports read back, 128 expected"
nonzero=$(awk '$2 != 0' "$file" | wc -l)
[ "$nonzero" -eq 128 ] || fail "$nonzero of 128 hosts have path bits other than 0 (offset 0 is D-mod-k's, no group's)"
for name in "${hosts[@]}"; do
  offline=$("$FTCLOS" pathbits "$work/disc.net" --port "${own_guid[$name]}" --env 2>/dev/null)
  [ "$(prolog_line "${own_guid[$name]}" "$file")" = "$offline" ] ||
    fail "$name (ibstat -p ${own_guid[$name]}): the prolog exports $(prolog_line "${own_guid[$name]}" "$file"), ftclos pathbits --port --env $offline"
done

# 2. A port the file lacks: offset 0.
[ "$(prolog_line 0x0123456789abcdef "$file")" = "UCX_IB_LID_PATH_BITS=0" ] || fail "an unknown port does not fall back to 0"

# 3. The audit's figures from the read-back tables and the file are the plugin's.
sweep=$(grep -o 'worst case offset 0 [0-9.]*, path bits [0-9.]*' "$work/osm.log" | tail -1)
[ -n "$sweep" ] || fail "the sweep line carries no worst case by consumer: $(grep 'ftclos: ' "$work/osm.log" | tail -1)"
"$FTCLOS" audit "$work/disc.net" "$work/dump_lfts.txt" --pathbits "$file" >"$work/audit.txt" 2>"$work/audit.err" ||
  fail "ftclos audit: $(tail -3 "$work/audit.err") $(grep -E '^(unreachable|loops|credit)' "$work/audit.txt")"
read -r offset0 path_bits < <(sed -n 's/^worst case by consumer: offset 0 \([0-9.]*\), path bits \([0-9.]*\),.*/\1 \2/p' "$work/audit.txt")
[ "$sweep" = "worst case offset 0 $offset0, path bits $path_bits" ] ||
  fail "the audit of the read-back tables gives offset 0 $offset0, path bits $path_bits; the plugin logged \"$sweep\""
awk -v o="$offset0" -v p="$path_bits" 'BEGIN { exit !(p < o) }' ||
  fail "path bits ($path_bits) no better than offset 0 ($offset0)"
echo "ok: $cas CA ports, the prolog's line = ftclos pathbits; ibstat -p on ${hosts[*]}; unknown port -> 0; audit = plugin: offset 0 $offset0, path bits $path_bits"
