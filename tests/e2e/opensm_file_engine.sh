#!/usr/bin/env bash
# A dump from `ftclos route` loads into stock OpenSM through its `file`
# routing engine, and the LFTs ibsim's switches end up with are the dump's:
# for every switch, every destination port GUID leaves by the dump's port.
# Destinations are matched by port GUID because OpenSM hands out its own LIDs
# and the file engine moves each entry to the LID of its port GUID.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
FTCLOS=${FTCLOS:?set FTCLOS to the ftclos binary}
work=$(mktemp -d)
cd "$work"  # diags killed hard leave sys-<pid> folders in their working directory
trap 'cleanup_ibsims; rm -rf "$work"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# FT(4,2): 8 hosts, 6 switches, 14 LIDs, well clear of the infiniband-diags
# bug that hides the top LID when LinearFDBTop is a multiple of 64.
net=$work/fabric.net
"$FTCLOS" gen ftree --ports 4 --levels 2 -o "$net" 2>/dev/null
"$FTCLOS" route "$net" --scheme dmodk -o "$work/lfts.dump" || fail "ftclos route --scheme dmodk failed"

sock=ftclos-e2e-$$
host=$(first_ca "$net")
start_ibsim "$sock" "$net" "$work/ibsim.log"

osm=$work/osm
mkdir -p "$osm"
cat >"$osm/opensm.conf" <<EOF
routing_engine file
lfts_file $work/lfts.dump
log_flags 0x43
force_log_flush TRUE
dump_files_dir $osm
EOF
(cd "$osm" && OSM_CACHE_DIR=$osm OSM_TMP_DIR=$osm \
  sim_run "$sock" "$host" timeout 60 opensm -F "$osm/opensm.conf" -f "$osm/osm.log" -o >"$osm/stdout" 2>&1) ||
  fail "opensm exited with $?; log: $(tail -5 "$osm/osm.log" 2>/dev/null)"
# osm_ucast_mgr_process() names the engine that configured the switches;
# were the file unreadable or broken, min-hop would have taken over.
grep -q "file tables configured on all switches" "$osm/osm.log" ||
  fail "the file engine did not configure the switches: $(grep -E 'tables configured|ERR|PARSE' "$osm/osm.log")"

# "portguid port" for every routed LID of one LFT listing: our dump
# (`0x0001 001 # Channel Adapter portguid 0x...: 'H'`) and ibroute
# (`0x0001 001 : (Channel Adapter portguid 0x...: 'H')`) both fit.
routes_by_guid() {
  awk '/^0x/ { for (i = 3; i < NF; i++) if ($i == "portguid") { g = $(i + 1); sub(/:$/, "", g); print g, $2 } }' | sort
}

# Switch LIDs as OpenSM assigned them, read back from the fabric:
# `Switch : 0x... ports 4 "L1-0" base port 0 lid 2 lmc 0`.
sim_run "$sock" "$host" timeout 30 ibswitches >"$work/ibswitches" || fail "ibswitches failed"
switches=0
while read -r guid; do
  lid=$(awk -v g="$guid" '$3 "" == g { print $(NF - 2) }' "$work/ibswitches")  # as strings: awk reads 0x... as numbers
  [ -n "$lid" ] || fail "switch $guid is not in ibswitches output"
  sim_run "$sock" "$host" timeout 30 ibroute "$lid" >"$work/ibroute.$guid" || fail "ibroute $lid failed"
  awk -v g="$guid" '/^Unicast lids/ { take = index($0, "guid " g " ") > 0; next } take' "$work/lfts.dump" |
    routes_by_guid >"$work/expected.$guid"
  routes_by_guid <"$work/ibroute.$guid" >"$work/actual.$guid"
  [ -s "$work/expected.$guid" ] || fail "no entries for switch $guid in the dump"
  diff -u "$work/expected.$guid" "$work/actual.$guid" >&2 ||
    fail "switch $guid (LID $lid): programmed LFT differs from the dump (- dump, + ibroute)"
  switches=$((switches + 1))
done < <(awk '/^Unicast lids/ { for (i = 1; i < NF; i++) if ($i == "guid") print $(i + 1) }' "$work/lfts.dump")

[ "$switches" -eq 6 ] || fail "expected 6 switches in the dump, compared $switches"
echo "ok: OpenSM's file engine loaded the dmodk dump; all $switches switches match it entry by entry"
