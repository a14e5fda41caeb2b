#!/usr/bin/env bash
# Multicast end to end (issue #13): stock OpenSM with the osmftclos plugin
# builds the multicast trees (mcast_build_stree) of groups that simulated
# hosts join, and what the subnet then holds is deadlock-free, unicast and
# multicast together:
#   1. ibsim loads the fabric; OpenSM sweeps once with the plugin;
#   2. hosts join one of two groups (mcast_join: an SA MCMemberRecord Set
#      from each host, as IPoIB would); OpenSM builds the trees and dumps
#      opensm.mcfdbs;
#   3. read back: the fabric by ibnetdiscover, the LFTs by dump_lfts, and
#      every switch's MFT by dump_mfts (`ibroute -M` by directed route); the
#      MFT entries read back equal opensm.mcfdbs, switch by switch;
#   4. `ftclos audit` of the read-back LFTs with --mcfdbs: every member
#      reaches every other member of its group, 0 unreachable, 0 credit loops
#      (unicast and multicast together), exit 0;
#   5. controls: the same LFTs with opensm.mcfdbs hand-edited to close
#      cycles (the first group flooded over every switch cable) are reported
#      looping (exit 1); and stock OpenSM's own tree for the same
#      joins (no plugin; its trees' ports do not depend on LIDs) audited with
#      the plugin's LFTs: its credit loops are printed for comparison.
# With FTCLOS_E2E_RHINO10K=1 (not in CI: ~12 minutes) ibutils'
# RhinoBased10K runs too, with one CA in 100 joining.
# FTCLOS_E2E_CASES="ft-8-3 ..." runs those fabrics only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/plugin_lib.sh
source "$here/plugin_lib.sh"
root=${FTCLOS_SOURCE_ROOT:-$here/../..}
JOIN=$FTCLOS_PLUGIN_DIR/mcast_join
[ -x "$JOIN" ] || { echo "skipped: no mcast_join in $FTCLOS_PLUGIN_DIR"; exit 77; }
work=$(mktemp -d)
cd "$work"
OSM_PID=
stop_osm() {
  if [ -n "$OSM_PID" ]; then
    kill "$OSM_PID" 2>/dev/null || true
    wait "$OSM_PID" 2>/dev/null || true
  fi
  OSM_PID=
}
trap 'stop_osm; cleanup_ibsims; [ -n "${FTCLOS_E2E_KEEP:-}" ] || rm -rf "$work"; rm -f "$PLUGIN_CHECK"' EXIT

"$FTCLOS" gen ring --switches 8 --hosts 2 -o "$work/ring-8.net"
"$FTCLOS" gen torus --x 4 --y 4 --hosts 2 -o "$work/torus-4x4.net"
"$FTCLOS" gen ftree --ports 8 --levels 3 --level-cables 4 --level-cables-level 2 -o "$work/ft-8-3-level-cables.net"
"$FTCLOS" gen hypercube --dimensions 4 --hosts 2 -o "$work/hypercube-4.net"
"$FTCLOS" gen dragonfly --groups 5 --switches 3 --hosts 2 -o "$work/dragonfly-5x3.net"
# fabric (ibsim-topos/<fabric>.net, or made above) | scheme
cases=(
  "ft-8-3|auto"
  "ft-8-3-fail4|auto"
  "ft-8-3-level-cables|auto"
  "ring-8|auto"
  "torus-4x4|auto"
  "hypercube-4|auto"
  "dragonfly-5x3|auto"
)
if [ -n "${FTCLOS_E2E_RHINO10K:-}" ]; then
  import_topo ibutils/RhinoBased10K.topo.xz "$work/rhino-10k.net"
  cases+=("rhino-10k|auto")
  export IBSIM_READY_SECONDS=900
fi
selected=$(select_cases "${cases[@]}")
mapfile -t cases <<<"$selected"

# cas NET: the names of the CAs of a net file whose port 1 is cabled.
cas() {
  awk '/^(Ca|Hca)[ \t]/ { match($0, /"[^"]*"/); ca = substr($0, RSTART + 1, RLENGTH - 2); next }
       /^$/ { ca = "" }
       ca != "" && /^\[1\]/ { print ca; ca = "" }' "$1"
}

# start_osm DIR SOCK HOST PLUGIN(yes/no) SCHEME: OpenSM until SUBNET UP.
start_osm() {
  local dir=$1 sock=$2 host=$3 plugin=$4 scheme=$5
  {
    if [ "$plugin" = yes ]; then
      echo "event_plugin_name osmftclos"
      echo "event_plugin_options scheme=$scheme"
      echo "routing_engine ftclos"
    fi
    echo "qos TRUE"
    echo "lmc 0"
    echo "sweep_interval 0"
    echo "log_flags 0x43"  # ERROR, INFO and ROUTING: the dumps
    echo "force_log_flush TRUE"
    echo "dump_files_dir $dir"
  } >"$dir/opensm.conf"
  (cd "$dir" && export IBSIM_SOCKNAME=$sock SIM_HOST=$host LD_PRELOAD=$UMAD2SIM \
    LD_LIBRARY_PATH=$OSM_LIBRARY_PATH OSM_CACHE_DIR=$dir OSM_TMP_DIR=$dir &&
    exec timeout 3600 "$OPENSM" -F "$dir/opensm.conf" -f "$dir/osm.log") >"$dir/opensm.out" 2>&1 &
  OSM_PID=$!
  # A sweep of RhinoBased10K takes minutes; OpenSM's exit ends the wait earlier.
  for _ in $(seq 1 9000); do
    grep -aq "SUBNET UP" "$dir/osm.log" 2>/dev/null && return 0
    kill -0 "$OSM_PID" 2>/dev/null || break
    sleep 0.2
  done
  echo "OpenSM did not bring the subnet up: $(tail -3 "$dir/osm.log" 2>/dev/null)"
  return 1
}

# join_groups DIR SOCK NET: of the CAs (one in `stride`, so that a large
# fabric has about 100 candidates), every second joins group 1, every fifth
# group 2 (so some join both); waits until opensm.mcfdbs holds both MLIDs
# (OpenSM keeps 0xC000 for IPoIB's broadcast group, which nobody joins here).
join_groups() {
  local dir=$1 sock=$2 net=$3 i=0 j ca stride
  : >"$dir/joins"
  stride=$(( $(cas "$net" | wc -l) / 100 + 1 ))
  while read -r ca; do
    j=$((i / stride))
    if ((i % stride == 0 && j % 2 == 0)); then sim_run "$sock" "$ca" timeout 60 "$JOIN" 1 >>"$dir/joins" 2>&1 || return 1; fi
    if ((i % stride == 0 && j % 5 == 1)); then sim_run "$sock" "$ca" timeout 60 "$JOIN" 2 >>"$dir/joins" 2>&1 || return 1; fi
    i=$((i + 1))
  done < <(cas "$net")
  local mlids
  mlids=$(grep -o "MLID 0x[0-9A-F]*" "$dir/joins" | sort -u | cut -d' ' -f2)
  [ "$(echo "$mlids" | wc -l)" = 2 ] || { echo "the joins gave MLIDs $mlids"; return 1; }
  for _ in $(seq 1 3000); do
    if grep -q "^$(echo "$mlids" | head -1) " "$dir/opensm.mcfdbs" 2>/dev/null &&
      grep -q "^$(echo "$mlids" | tail -1) " "$dir/opensm.mcfdbs"; then
      return 0
    fi
    sleep 0.2
  done
  echo "opensm.mcfdbs never held both groups: $(tail -3 "$dir/joins")"
  return 1
}

# mfts_of_ibroute FILE: `ibroute -M` / dump_mfts output (one block per
# switch) as "SWITCH-GUID MLID PORT..." lines, sorted. Its rows mark a port
# with an x under the port's number in the "Ports:" header, which shows the
# last digit of each (0 1 ... 9 0 1 ...; the tens are on the line above).
mfts_of_ibroute() {
  python3 - "$@" <<'PY'
import re, sys
out = []
for text in re.split(r"(?m)^(?=Multicast mlids)", open(sys.argv[1]).read()):
    guid = re.search(r"guid (0x[0-9a-f]+)", text)
    header = re.search(r"^( *Ports:)(.*)$", text, re.M)
    if not guid or not header:
        continue
    column = {len(header[1]) + m.start(): port for port, m in enumerate(re.finditer(r"\d", header[2]))}
    for line in text.splitlines():
        m = re.match(r"0x[0-9a-fA-F]+", line)
        if not m or int(m[0], 16) < 0xC000:
            continue
        ports = sorted(column[i] for i, c in enumerate(line) if c == "x" and i >= m.end())
        out.append(f"{int(guid[1], 16):#018x} {int(m[0], 16):#06x} " + " ".join(map(str, ports)))
print("\n".join(sorted(out)))
PY
}

# mfts_of_dump FILE: opensm.mcfdbs as the same lines.
mfts_of_dump() {
  python3 - "$1" <<'PY'
import sys
out, guid = [], None
for line in open(sys.argv[1]):
    words = line.split()
    if words[:1] == ["Switch"]:
        guid = int(words[1], 16)
    elif words and words[0].startswith("0x") and len(words) > 2 and words[1] == ":":
        out.append(f"{guid:#018x} {int(words[0], 16):#06x} " + " ".join(str(int(p, 16)) for p in words[2:]))
print("\n".join(sorted(out)))
PY
}

# run_case NET SCHEME DIR
run_case() {
  local net=$1 scheme=$2 dir=$3 sock host out stock limits
  sock=ftclos-mcast-$$-$(basename "$dir")
  host=$(first_ca "$net")
  read -r -a limits < <(ibsim_limits "$net")
  start_ibsim "$sock" "$net" "$dir/ibsim.log" "${limits[@]}" || return 1
  start_osm "$dir" "$sock" "$host" yes "$scheme" || return 1
  grep -q "ftclos tables configured on all switches" "$dir/osm.log" ||
    { echo "the ftclos engine did not route: $(grep -E 'ftclos ERR' "$dir/osm.log" | head -2)"; return 1; }
  join_groups "$dir" "$sock" "$net" || return 1
  sleep 1  # the last join's tree: OpenSM rewrites the dump per change
  if grep -q "ftclos ERR" "$dir/osm.log"; then
    echo "ftclos errors: $(grep "ftclos ERR" "$dir/osm.log" | head -2)"
    return 1
  fi
  sim_run "$sock" "$host" timeout 900 ibnetdiscover >"$dir/disc.net" 2>"$dir/disc.err" ||
    { echo "ibnetdiscover failed: $(tail -2 "$dir/disc.err")"; return 1; }
  sim_run "$sock" "$host" timeout 900 dump_lfts >"$dir/lfts.txt" 2>"$dir/dump_lfts.err" ||
    { echo "dump_lfts failed: $(tail -2 "$dir/dump_lfts.err")"; return 1; }
  # Every switch's MFT read back (by directed route: a switch LID may have no
  # unicast path from the host on a degraded fabric) equals OpenSM's dump.
  sim_run "$sock" "$host" timeout 900 dump_mfts >"$dir/mfts.txt" 2>"$dir/dump_mfts.err" ||
    { echo "dump_mfts failed: $(tail -2 "$dir/dump_mfts.err")"; return 1; }
  mfts_of_ibroute "$dir/mfts.txt" >"$dir/mft.read"
  mfts_of_dump "$dir/opensm.mcfdbs" >"$dir/mft.dump"
  if ! diff -q "$dir/mft.read" "$dir/mft.dump" >/dev/null || [ ! -s "$dir/mft.read" ]; then
    echo "MFTs read back differ from opensm.mcfdbs: $(diff "$dir/mft.read" "$dir/mft.dump" | head -4)"
    return 1
  fi

  # The unicast SLs the plugin answers in PathRecords (layered puts
  # destinations on VL layers; SL k runs on VL k): route --sl on OpenSM's LIDs.
  "$FTCLOS" route "$net" --scheme "$scheme" --guid2lid "$dir/guid2lid" --sl "$dir/path.sl" -o /dev/null \
    >"$dir/route-sl.out" 2>&1 || { echo "route --sl failed: $(tail -2 "$dir/route-sl.out")"; return 1; }
  local sls=(--guid2lid "$dir/guid2lid" --sl "$dir/path.sl")
  "$FTCLOS" audit "$dir/disc.net" "$dir/lfts.txt" "${sls[@]}" --mcfdbs "$dir/opensm.mcfdbs" >"$dir/audit.txt" 2>&1 ||
    { echo "audit failed: $(grep -E "credit|multicast|unreach|e\.g\." "$dir/audit.txt" | head -5)"; return 1; }
  if ! grep -q "^credit loops: 0$" "$dir/audit.txt" || ! grep -q "^unreachable: 0$" "$dir/audit.txt" ||
    ! grep -qE "^multicast: 2 groups, [0-9]+ members, [0-9]+ member pairs, 0 unreached, 0 looping" "$dir/audit.txt"; then
    echo "audit: $(grep -E "credit|multicast|unreach" "$dir/audit.txt")"
    return 1
  fi

  # Control 1: the first group flooded over every switch cable (cycles: the
  # fabric has some) is found looping.
  python3 - "$dir/disc.net" "$dir/opensm.mcfdbs" >"$dir/cycle.mcfdbs" <<'PY'
import re, sys
cabled, cur = {}, None  # switch GUID -> ports cabled to switches
for line in open(sys.argv[1]):
    m = re.match(r'Switch\s+\d+\s+"S-([0-9a-f]+)"', line)
    if m:
        cur = cabled.setdefault(int(m[1], 16), set())
        continue
    m = re.match(r'\[(\d+)\]\s+"S-', line)
    if cur is not None and m:
        cur.add(int(m[1]))
tables, cur = {}, None  # switch GUID -> MLID -> ports
for line in open(sys.argv[2]):
    words = line.split()
    if words[:1] == ["Switch"]:
        cur = tables.setdefault(int(words[1], 16), {})
    elif words and words[0].startswith("0x") and len(words) > 2:
        cur[int(words[0], 16)] = {int(p, 16) for p in words[2:]}
first = min(m for t in tables.values() for m in t)
for guid, ports in cabled.items():
    tables.setdefault(guid, {}).setdefault(first, set()).update(ports)
for guid in sorted(tables):
    print(f"\nSwitch 0x{guid:016x}\nLID    : Out Port(s)")
    for mlid in sorted(tables[guid]):
        print(f"0x{mlid:04X} :" + "".join(f" 0x{p:03X} " for p in sorted(tables[guid][mlid])))
PY
  if "$FTCLOS" audit "$dir/disc.net" "$dir/lfts.txt" "${sls[@]}" --mcfdbs "$dir/cycle.mcfdbs" >"$dir/cycle.txt" 2>&1; then
    echo "the audit passed MFTs with a cycle"
    return 1
  fi
  grep -qE "^multicast: .* [1-9][0-9]* looping" "$dir/cycle.txt" ||
    { echo "a cycle added to the MFTs was not found: $(grep multicast "$dir/cycle.txt")"; return 1; }

  # Control 2: stock OpenSM's own trees for the same joins, with the plugin's LFTs.
  stop_osm
  stop_ibsim "${IBSIM_PIDS[-1]}"
  stock=$dir/stock
  mkdir -p "$stock"
  start_ibsim "$sock-stock" "$net" "$stock/ibsim.log" "${limits[@]}" || return 1
  start_osm "$stock" "$sock-stock" "$host" no "$scheme" || return 1
  join_groups "$stock" "$sock-stock" "$net" || return 1
  sleep 1
  "$FTCLOS" audit "$dir/disc.net" "$dir/lfts.txt" "${sls[@]}" --mcfdbs "$stock/opensm.mcfdbs" >"$stock/audit.txt" 2>&1 || true
  stop_osm
  stop_ibsim "${IBSIM_PIDS[-1]}"
  out="$(grep -oE "scheme [a-z]+ chose [a-z-]+" "$dir/osm.log" | tail -1); "
  out+="$(grep -E "^multicast:" "$dir/audit.txt" | cut -d'(' -f1); credit loops: ours 0, OpenSM's tree"
  out+=" $(sed -n 's/^credit loops: //p' "$stock/audit.txt") ($(grep -E "^multicast:" "$stock/audit.txt" | grep -oE "[0-9]+ unreached"))"
  echo "$out"
}

status=0
for entry in "${cases[@]}"; do
  IFS='|' read -r name scheme <<<"$entry"
  net=$root/ibsim-topos/$name.net
  [ -f "$net" ] || net=$work/$name.net
  dir=$work/$name
  mkdir -p "$dir"
  if result=$(run_case "$net" "$scheme" "$dir" 2>&1); then
    echo "ok   $name $scheme: $result"
  else
    echo "FAIL $name $scheme: $result"
    status=1
  fi
  stop_osm
  cleanup_ibsims
done
exit $status
