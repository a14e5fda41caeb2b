#!/usr/bin/env bash
# SLs end to end: stock OpenSM with the osmftclos plugin (qos TRUE) routes
# fabrics whose scheme sends on several SLs (MiKANT's two layers, storage
# hosts on spines, the torus scheme's dateline SLs on a 6x5 torus, where
# auto must choose it, and the layered scheme's VL layers on a hypercube),
# and what the subnet then holds has
# no credit loop on any VL:
#   1. ibsim loads the fabric; the OpenSM daemon sweeps once with the plugin,
#      QoS on and qos_sl2vl all 0 (every SL on VL 0 unless the plugin says
#      otherwise); no ftclos ERR line (ERR 14: SL2VL not programmed) may
#      appear;
#   2. read back: LFTs by dump_lfts, SL2VL of every switch port pair by
#      sl2vl_read (the SMPs of `smpquery sl2vl LID PORT`, every port in one
#      process; its rows of three ports must equal smpquery's own), and
#      PathRecord SLs by path_sls (one SA Get a pair, in one process; two
#      of them must equal `saquery -p`'s) from one CA to every CA and every
#      switch (each destination's SL) and for a sample of other pairs;
#   3. every PathRecord SL equals the SL `ftclos route --sl` gives the pair;
#   4. every read-back SL2VL row maps SL k to VL k for the SLs the routing
#      uses and the other SLs to VL 0 (qos_sl2vl's): the plugin's tables;
#   5. `ftclos audit` of the read-back LFTs with the read-back SLs (as an SL
#      file) and SL2VL tables: 0 unreachable, 0 loops, 0 credit loops (with
#      and without the switches' own routes: PMA queries), and the
#      same VLs in use (two or more) as the offline audit of `ftclos route`'s
#      tables and SL file with VL = SL;
#   6. the same audit with every SL2VL entry 0 (what a subnet without the
#      plugin's tables would run: one VL): MiKANT with detours then has
#      credit loops, so step 5 holds because of the tables, not by accident.
# With FTCLOS_E2E_RHINO10K=1 (not in CI: ~11 minutes) ibutils'
# RhinoBased10K runs too. A fabric of more than LARGE CAs is read back in
# samples: SAMPLE switch ports' SL2VL by sl2vl_read must equal OpenSM's
# opensm-sl2vl.dump,
# which then stands for every row, and PAIRS PathRecord SLs must equal
# `ftclos route --sl`'s, whose file the audit then reads.
# FTCLOS_E2E_CASES="mikant-3-3 ..." runs those cases only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/plugin_lib.sh
source "$here/plugin_lib.sh"
# shellcheck source=tests/e2e/sm_daemon.sh
source "$here/sm_daemon.sh"
root=${FTCLOS_SOURCE_ROOT:-$here/../..}
SL2VL_READ=$FTCLOS_PLUGIN_DIR/sl2vl_read
PATH_SLS=$FTCLOS_PLUGIN_DIR/path_sls
if [ ! -x "$SL2VL_READ" ] || [ ! -x "$PATH_SLS" ]; then echo "skipped: no sl2vl_read or path_sls in $FTCLOS_PLUGIN_DIR"; exit 77; fi
work=$(mktemp -d)
cd "$work"
trap 'stop_opensm; cleanup_ibsims; [ -n "${FTCLOS_E2E_KEEP:-}" ] || rm -rf "$work"; rm -f "$PLUGIN_CHECK"' EXIT

# fabric (ibsim-topos/<fabric>.net, or made below) | scheme | zero SL2VL must loop (yes/no) | auto's choice
cases=(
  "mikant-3-3|mikant|no|"
  "mikant-3-3-nostraight|mikant|yes|"
  "mikant-3-3-nostraight|auto|yes|mikant"
  "ft-8-3-io2-level2|auto|no|"
  "clos2-4-4-8-io2|updown|no|"
  "torus-6x5|auto|yes|torus"
  "hypercube-4|layered|yes|"
)
"$FTCLOS" gen torus --x 6 --y 5 --hosts 1 -o "$work/torus-6x5.net" 2>/dev/null
"$FTCLOS" gen hypercube --dimensions 4 --hosts 2 -o "$work/hypercube-4.net" 2>/dev/null
# MiKANT(3,3) without the straight side cables <G0,1,D> - <G1,1,D> of the top
# block with D_0 = 0 (G*-L1-*.0): detours cross the groups twice, so on one
# SL its routes have credit loops (Algorithm 1 on the intact fabric has none).
awk '/^Switch/ { match($0, /"[^"]*"/); at = substr($0, RSTART + 1, RLENGTH - 2) }
     /^\[/ && match($0, /"[^"]*"/) { peer = substr($0, RSTART + 1, RLENGTH - 2)
       if (at ~ /^G[01]-L1-[0-9]+\.0$/ && peer ~ /^G[01]-L1-/ && substr(at, 3) == substr(peer, 3)) next }
     { print }' "$root/ibsim-topos/mikant-3-3.net" >"$work/mikant-3-3-nostraight.net"
if [ -n "${FTCLOS_E2E_RHINO10K:-}" ]; then
  import_topo ibutils/RhinoBased10K.topo.xz "$work/rhino-10k.net"
  cases+=("rhino-10k|auto|yes|layered")
  export IBSIM_READY_SECONDS=900
fi
selected=$(select_cases "${cases[@]}")
mapfile -t cases <<<"$selected"
PAIRS=40  # sampled (source, destination) pairs besides the first CA's
LARGE=1000
SAMPLE=100

# path_sl SOCK HOST SLID DLID: the SL of OpenSM's PathRecord by `saquery -p`
# (the cross-check of path_sls), decimal.
path_sl() {
  local sl
  sl=$(sim_run "$1" "$2" timeout 20 saquery -p --slid "$3" --dlid "$4" 2>/dev/null |
    sed -n 's/^[[:space:]]*sl\.*\(0x[0-9a-fA-F]*\)$/\1/p' | head -1)
  [ -n "$sl" ] || return 1
  echo $((sl))
}

# wait_up DIR: OpenSM's first sweep ended (SUBNET UP); RhinoBased10K's takes minutes.
wait_up() {
  for _ in $(seq 1 9000); do
    grep -aq "SUBNET UP" "$1/osm.log" 2>/dev/null && return 0
    kill -0 "$OSM_PID" 2>/dev/null || break
    sleep 0.2
  done
  echo "OpenSM did not bring the subnet up: $(tail -3 "$1/osm.log" 2>/dev/null)"
  return 1
}

# run_case FABRIC SCHEME ZERO_LOOPS CHOICE DIR
run_case() {
  local fabric=$1 scheme=$2 zero_loops=$3 choice=$4 dir=$5 vls
  local net=$root/ibsim-topos/$fabric.net sock host src lids sw_lid p i s d sl limits large=0 sl_file
  [ -f "$net" ] || net=$work/$fabric.net
  sock=ftclos-sl2vl-$$-$(basename "$dir")
  host=$(first_ca "$net")
  (($(grep -Ec '^(Ca|Hca)' "$net") <= LARGE)) || large=1
  read -r -a limits < <(ibsim_limits "$net")
  start_ibsim "$sock" "$net" "$dir/ibsim.log" "${limits[@]}" || return 1
  # ROUTING (0x40) on a large fabric: OpenSM then writes opensm-sl2vl.dump.
  local log_flags=0x03
  ((large == 0)) || log_flags=0x43
  cat >"$dir/opensm.conf" <<EOF
event_plugin_name osmftclos
event_plugin_options scheme=$scheme
routing_engine ftclos
qos TRUE
qos_sl2vl 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
lmc 0
sweep_interval 0
log_flags $log_flags
force_log_flush TRUE
dump_files_dir $dir
EOF
  (cd "$dir" && export IBSIM_SOCKNAME=$sock SIM_HOST=$host LD_PRELOAD=$UMAD2SIM \
    LD_LIBRARY_PATH=$OSM_LIBRARY_PATH OSM_CACHE_DIR=$dir OSM_TMP_DIR=$dir &&
    exec timeout 3600 "$OPENSM" -F "$dir/opensm.conf" -f "$dir/osm.log") >"$dir/opensm.out" 2>&1 &
  OSM_PID=$!
  wait_up "$dir" || return 1
  if ! grep -q "ftclos tables configured on all switches" "$dir/osm.log"; then
    echo "the ftclos engine did not configure the switches: $(grep -E 'tables configured|ftclos ERR' "$dir/osm.log" | head -3)"
    return 1
  fi
  if grep -q "ftclos ERR" "$dir/osm.log"; then
    echo "ftclos errors: $(grep "ftclos ERR" "$dir/osm.log" | head -2)"
    return 1
  fi
  if [ -n "$choice" ] && ! grep -q "scheme auto chose $choice[ ;]" "$dir/osm.log"; then
    echo "auto did not choose $choice: $(grep -o 'scheme auto chose [^;]*' "$dir/osm.log" | tail -1)"
    return 1
  fi

  sim_run "$sock" "$host" timeout 900 ibnetdiscover >"$dir/disc.net" 2>"$dir/disc.err" ||
    { echo "ibnetdiscover failed: $(tail -2 "$dir/disc.err")"; return 1; }
  sim_run "$sock" "$host" timeout 900 dump_lfts >"$dir/lfts.txt" 2>"$dir/dump_lfts.err" ||
    { echo "dump_lfts failed: $(tail -2 "$dir/dump_lfts.err")"; return 1; }
  # Cabled switch ports only: OpenSM programs no SL2VL on a port whose link is down.
  switch_ports "$dir/disc.net" >"$dir/ports.all"
  if ((large)); then
    awk -v n="$SAMPLE" 'BEGIN { srand(7) } { line[NR] = $0 }
      END { for (i = 0; i < n && NR > 0; ++i) print line[int(rand() * NR) + 1] }' "$dir/ports.all" | sort -u >"$dir/ports"
  else
    cp "$dir/ports.all" "$dir/ports"
  fi
  sim_run "$sock" "$host" timeout 900 "$SL2VL_READ" <"$dir/ports" >"$dir/sl2vl.txt" 2>"$dir/sl2vl_read.err" ||
    { echo "sl2vl_read failed: $(tail -1 "$dir/sl2vl_read.err")"; return 1; }
  # The cross-check: smpquery's own rows of the first, a middle and the last port equal sl2vl_read's.
  local n_ports
  n_ports=$(wc -l <"$dir/ports")
  for i in 1 $(((n_ports + 1) / 2)) "$n_ports"; do
    read -r sw_lid p < <(sed -n "${i}p" "$dir/ports")
    sim_run "$sock" "$host" timeout 20 smpquery sl2vl "$sw_lid" "$p" >"$dir/smpquery-$i.txt" 2>>"$dir/smpquery.err" ||
      { echo "smpquery sl2vl $sw_lid $p failed: $(tail -1 "$dir/smpquery.err")"; return 1; }
    if ! grep -q '^ports:' "$dir/smpquery-$i.txt" ||
      ! diff <(grep '^ports:' "$dir/smpquery-$i.txt") \
        <(awk -v lid="$sw_lid" -v out="$p:" '/^# SL2VL table: Lid / { at = $5 } /^ports:/ && at == lid && $5 == out' \
          "$dir/sl2vl.txt") >"$dir/smpquery-$i.diff"; then
      echo "SL2VL of LID $sw_lid out $p: smpquery and sl2vl_read differ: $(head -4 "$dir/smpquery-$i.diff" | tr '\n' ' ')"
      return 1
    fi
  done
  if ((large)); then
    # The sample read back must equal OpenSM's dump, row by row; the dump then stands for every row.
    mv "$dir/sl2vl.txt" "$dir/sl2vl-sample.txt"
    sl2vl_of_dump "$dir/opensm-sl2vl.dump" "$dir/ports.all" >"$dir/sl2vl.txt"
    python3 - "$dir/sl2vl-sample.txt" "$dir/sl2vl.txt" <<'PY' || return 1
import re, sys
def rows(path):
    out, lid = {}, None
    for line in open(path):
        m = re.match(r"# SL2VL table: Lid (\d+)", line)
        if m:
            lid = int(m[1])
        m = re.match(r"ports: in +(\d+), out +(\d+): (.*)$", line.strip())
        if m and lid is not None:
            out[(lid, int(m[1]), int(m[2]))] = [int(v) for v in m[3].strip("|").split("|")]
    return out
sample, dump = rows(sys.argv[1]), rows(sys.argv[2])
bad = [k for k in sample if dump.get(k) != sample[k]]
for k in bad[:3]:
    print(f"SL2VL of LID {k[0]} in {k[1]} out {k[2]}: read back {sample[k]}, opensm-sl2vl.dump {dump.get(k)}")
sys.exit(1 if bad or not sample else 0)
PY
  fi

  # The fabric file, on OpenSM's LIDs: detect takes ibnetdiscover's output of
  # the 4x4 torus for a 5-level tree with attached hosts, the file (and the
  # plugin, OpenSM's subnet) for any-fabric.
  "$FTCLOS" route "$net" --guid2lid "$dir/guid2lid" --scheme "$scheme" -o "$dir/expected.dump" \
    --sl "$dir/expected.sl" 2>"$dir/route.err" || { echo "ftclos route failed: $(cat "$dir/route.err")"; return 1; }
  mapfile -t lids < <(ca_lids "$dir/disc.net")
  src=${lids[0]}
  # PathRecord SLs: the first CA to every CA gives each destination's SL
  # (on a large fabric ftclos route's file does, checked below); every switch
  # LID's (PMA queries; schemes may put switch LIDs on SLs of their own); the
  # first CA's own, from the second (layered puts any LID on any SL); then
  # sampled pairs. "KIND SLID DLID" lines: a dlid line of the SL file, a
  # pair line, or only queried.
  {
    ((large)) || for d in "${lids[@]:1}"; do echo "dlid $src $d"; done
    ((large)) || for d in $(switch_ports "$dir/disc.net" | awk '{ print $1 }' | sort -un); do echo "dlid $src $d"; done
    if ((large)); then echo "queried ${lids[1]} $src"; else echo "dlid ${lids[1]} $src"; fi
    RANDOM=7
    for i in $(seq 1 "$PAIRS"); do
      s=${lids[RANDOM % ${#lids[@]}]}
      d=${lids[RANDOM % ${#lids[@]}]}
      [ "$s" != "$d" ] || continue
      echo "pair $s $d"
    done
  } >"$dir/pairs"
  cut -d' ' -f2- "$dir/pairs" | sim_run "$sock" "$host" timeout 600 "$PATH_SLS" >"$dir/path_sls.out" 2>"$dir/path_sls.err" ||
    { echo "path_sls failed: $(tail -1 "$dir/path_sls.err")"; return 1; }
  # One answer a pair, in order: "pair SLID DLID SL".
  if ! paste -d' ' "$dir/pairs" "$dir/path_sls.out" |
    awk -v queried="$dir/queried" 'NF != 7 || $4 != "pair" || $2 != $5 || $3 != $6 {
           print "path_sls answered \"" $4 " " $5 " " $6 " " $7 "\" for " $2 " -> " $3 >"/dev/stderr"; bad = 1; exit }
         { print $2, $3, $7 >queried
           if ($1 == "dlid") print "dlid", $3, $7; else if ($1 == "pair") print "pair", $2, $3, $7 }
         END { exit bad }' >"$dir/readback.sl.rows"; then
    return 1
  fi
  { echo "ftclos-sl 1"; cat "$dir/readback.sl.rows"; } >"$dir/readback.sl"
  # The cross-check: `saquery -p` (infiniband-diags) gives path_sls's SL for
  # the first pair, the ${#lids[@]}th (the first switch LID on a small
  # fabric) and the last.
  local sa_sl
  for i in 1 "${#lids[@]}" "$(wc -l <"$dir/queried")"; do
    read -r s d sl < <(sed -n "${i}p" "$dir/queried")
    sa_sl=$(path_sl "$sock" "$host" "$s" "$d") || { echo "saquery -p $s -> $d gave no SL"; return 1; }
    [ "$sa_sl" = "$sl" ] || { echo "PathRecord $s -> $d: saquery -p SL $sa_sl, path_sls SL $sl"; return 1; }
  done
  stop_opensm
  stop_ibsim "${IBSIM_PIDS[-1]}"

  # Every queried SL is the one ftclos route gives the pair (its file has dlid lines only).
  if ! python3 - "$dir/expected.sl" "$dir/queried" <<'PY'; then
import sys
want = {}
for line in open(sys.argv[1]):
    f = line.split('#')[0].split()
    if len(f) == 3 and f[0] == 'dlid':
        lo, _, hi = f[1].partition('-')
        for lid in range(int(lo, 0), int(hi or lo, 0) + 1):
            want[lid] = int(f[2])
bad = [l.split() for l in open(sys.argv[2]) if want.get(int(l.split()[1]), 0) != int(l.split()[2])]
for s, d, sl in bad[:3]:
    print(f"PathRecord {s} -> {d}: SL {sl}, ftclos route --sl: {want.get(int(d), 0)}")
sys.exit(1 if bad else 0)
PY
    return 1
  fi

  local rc=0
  sl_file=$dir/readback.sl
  ((large == 0)) || sl_file=$dir/expected.sl
  "$FTCLOS" audit "$dir/disc.net" "$dir/lfts.txt" --guid2lid "$dir/guid2lid" --sl "$sl_file" \
    --sl2vl "$dir/sl2vl.txt" >"$dir/audit.txt" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ] || ! grep -qx "unreachable: 0" "$dir/audit.txt" || ! grep -qx "loops: 0" "$dir/audit.txt" ||
    ! grep -qx "credit loops: 0" "$dir/audit.txt" || ! grep -qx "credit loops with switches' own routes: 0" "$dir/audit.txt"; then
    echo "audit of the read-back tables (exit $rc):"
    grep -E "^(unreachable|loops|credit loops|VLs used|  e\.g\.)" "$dir/audit.txt" | head -8
    return 1
  fi
  "$FTCLOS" audit "$dir/disc.net" "$dir/expected.dump" --sl "$dir/expected.sl" >"$dir/audit-offline.txt" 2>&1 ||
    { echo "offline audit of ftclos route's tables failed: $(grep -E '^(unreachable|credit loops)' "$dir/audit-offline.txt")"; return 1; }
  vls=$(grep "^VLs used: " "$dir/audit-offline.txt")
  case $vls in
    "VLs used: "*,*) ;;
    *) echo "the scheme sends on one VL only here ($vls): nothing to check"; return 1 ;;
  esac
  # The rows: SL k -> VL k below the routing's SL count (the highest SL of any
  # LID, switch LIDs included: PMA traffic), VL 0 (qos_sl2vl's) above.
  local sls
  sls=$(($(awk '$1 == "dlid" { print $3 }' "$dir/expected.sl" | sort -n | tail -1) + 1))
  if ! awk -F'|' -v sls="$sls" '/^ports:/ { for (sl = 0; sl < 16; ++sl) if ($(sl + 2) + 0 != (sl < sls ? sl : 0)) {
         print "SL2VL row not the plugin'"'"'s (" sls " SLs): " $0; bad = 1; exit } }
       END { exit bad }' "$dir/sl2vl.txt"; then
    return 1
  fi
  if [ "$(grep "^VLs used: " "$dir/audit.txt")" != "$vls" ]; then
    echo "read back: $(grep "^VLs used" "$dir/audit.txt"); offline: $vls"
    return 1
  fi
  # The control: the same tables with every SL on VL 0.
  sed 's/| *[0-9]*/| 0/g; s/| 0$/|/' "$dir/sl2vl.txt" >"$dir/sl2vl-zero.txt"
  rc=0
  "$FTCLOS" audit "$dir/disc.net" "$dir/lfts.txt" --guid2lid "$dir/guid2lid" --sl "$sl_file" \
    --sl2vl "$dir/sl2vl-zero.txt" >"$dir/audit-zero.txt" 2>&1 || rc=$?
  local zero
  zero=$(sed -n 's/^credit loops: //p' "$dir/audit-zero.txt")
  [ -n "$zero" ] || { echo "audit with zero SL2VL failed: $(tail -2 "$dir/audit-zero.txt")"; return 1; }
  if [ "$zero_loops" = yes ] && { [ "$zero" -eq 0 ] || [ "$rc" -ne 1 ]; }; then
    echo "with every SL on VL 0 the audit should find credit loops: $zero (exit $rc)"
    return 1
  fi
  echo "$(wc -l <"$dir/queried") PathRecord SLs = ftclos route --sl; $(grep -c '^ports:' "$dir/sl2vl.txt") SL2VL rows;" \
    "$(grep -E '^(pairs|credit loops|VLs used)' "$dir/audit.txt" | tr '\n' ';' | sed 's/;$//; s/;/; /g');" \
    "all SL2VL entries 0: $zero credit loops"
}

passed=0
failed=0
i=0
for entry in "${cases[@]}"; do
  IFS='|' read -r fabric scheme zero_loops choice <<<"$entry"
  i=$((i + 1))
  dir=$work/case$i
  mkdir -p "$dir"
  start=$SECONDS
  if run_case "$fabric" "$scheme" "$zero_loops" "$choice" "$dir" >"$dir/result" 2>&1; then
    passed=$((passed + 1))
    echo "ok   $fabric --scheme $scheme ($((SECONDS - start)) s): $(tr '\n' ' ' <"$dir/result" | sed 's/ *$//')"
  else
    failed=$((failed + 1))
    echo "FAIL $fabric --scheme $scheme: $(cat "$dir/result")"
  fi
  stop_opensm
  cleanup_ibsims
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
