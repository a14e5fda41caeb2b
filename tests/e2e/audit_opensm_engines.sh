#!/usr/bin/env bash
# Stock OpenSM's engines and ours, audited from what they programmed into
# ibsim: for each fabric run opensm once per routing engine (ftree, updn,
# minhop, dfsssp, and ftclos: the osmftclos plugin with scheme=auto) against a
# private ibsim, read the LFTs back with dump_lfts, and run `ftclos audit` on
# them and on OpenSM's own opensm-lfts.dump; then audit our schemes offline
# with `ftclos audit --scheme`. Fails on any unreachable pair or loop, on an
# audit that does not run, when the read-back and OpenSM's dump disagree,
# when the plugin's dump differs from `ftclos route` on OpenSM's LIDs,
# when the plugin did not configure the switches itself or its tables have a
# credit loop, and when our updown's or the plugin's worst-case contention is
# above the best stock engine's on the same file (issue #12). Prints one
# table line per (fabric, engine) with the worst-case contention.
# The default fabrics (CI), one of each kind, which between them run every
# check: FT(8,3) (the textbook fat tree, every stock engine routing it for
# real), a 64-LID clos2 (the infiniband-diags LinearFDBTop bug: only
# OpenSM's dump audited; all three of our schemes; gap 0: ours no worse),
# FT(8,3) with 2 lost switches and with 1 swapped cable pair (ours strictly
# below the best stock engine, updn and ftree there), a small random folded
# Clos, clos2 with storage hosts on the spines (a net file; every stock
# engine a credit loop), a 3-level SuperPOD-style pod (ftree and updn fall
# back to minhop; the plugin's SLs). `--all`: every fabric of README's table
# ("Against stock OpenSM"), the default ones and FT(8,2), clos2
# ftree(3+9,10), FT(8,3) with 1 and 3 lost switches and 2-4 swapped cable
# pairs, then the rest of issue #12's acceptance that ibsim runs in minutes:
# PGFT with storage hosts, dual rail, HCAs on port 2, a 2-level pod, RFCs of
# 2 more sizes, and the ibutils vendor fabrics (imported .topo files);
# `--large` the 10,080-host RFC (an hour: stock engines and dump_lfts on
# ibsim); `--public` the real dumps of ibsim-topos/public. Other arguments
# replace the fabric list ("name|spec[|schemes[|gap]]"
# each, as below); FTCLOS_ENGINES="ftree ftclos" limits the engines run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
FTCLOS=${FTCLOS:?set FTCLOS to the ftclos binary}
root=${FTCLOS_SOURCE_ROOT:-$here/../..}
work=$(mktemp -d)
trap 'cleanup_ibsims; rm -rf "$work"' EXIT

# name | net file under ibsim-topos/, .topo file under ibsim-topos/ibutils/
# (imported), or `ftclos gen` arguments [| our schemes that apply, when not
# all of them do [| by how much our worst case may exceed the best stock
# engine's: a known gap, still open; -1: ours must be below it]]
all_fabrics=(
  "ft-8-2|ft-8-2.net"
  "ft-8-3|ft-8-3.net"
  "clos2-3-9-10|clos2-3-9-10.net"
  "clos2-4-4-12|clos2 --n 4 --m 4 --r 12"
  "ft-8-3-lose1|ftree --ports 8 --levels 3 --lose-switches 1 --seed 1||-1"
  "ft-8-3-lose2|ftree --ports 8 --levels 3 --lose-switches 2 --seed 1||-1"
  "ft-8-3-lose3|ftree --ports 8 --levels 3 --lose-switches 3 --seed 1||-1"
  "ft-8-3-swap1|ftree --ports 8 --levels 3 --swap-pairs 1 --seed 1||-1"
  "ft-8-3-swap2|ftree --ports 8 --levels 3 --swap-pairs 2 --seed 1||-1"
  "ft-8-3-swap3|ftree --ports 8 --levels 3 --swap-pairs 3 --seed 1||-1"
  "ft-8-3-swap4|ftree --ports 8 --levels 3 --swap-pairs 4 --seed 1||-1"
  "rfc-8-16-3|rfc --radix 8 --leaves 16 --levels 3 --seed 1|updown|-1"
  "clos2-io|clos2-4-4-8-io2.net|updown|-1"
  "pod3|superpod --units 6 --servers 8 --rails 4 --levels 3 --spines 4 --group-units 2 --radix 16 --partial-units 2 --mgmt-leaves 2 --fail-links 4 --seed 3|updown|-1"
)
# Where the table of README ("Against stock OpenSM") has us below the best
# stock engine (the contention polish, paths/contention_polish.h), -1 keeps
# us there. clos2-io: every stock engine 5 (with credit loops), ours 4, the
# figure tests/unit/contention_bounds_test.cc builds by hand. pod3: a
# 3-level SuperPOD-style pod with SHARP ANs, partial SUs, management leaves
# and 4 missing cables (issue #30), contention of compute hosts (ANs apart):
# ftree and updn fall back to minhop (20, a credit loop), dfsssp 16, ours
# 12 (updown, ANs on SL 1) without credit loops.
more_fabrics=(
  "pgft-io|ft-8-3-io2-level2.net|updown"
  "ft-8-3-dual|ftree --ports 8 --levels 3 --dual-rail"
  "ft-8-3-port2|ftree --ports 8 --levels 3 --hca-port 2"
  "pod2|superpod --units 4 --servers 8 --rails 4 --spines 4 --radix 36 --partial-units 1 --mgmt-leaves 2 --fail-links 6 --lose-switches 1 --lost-level 1 --seed 2|updown"
  "rfc-16-64-3|rfc --radix 16 --leaves 64 --levels 3 --seed 1|updown"
  "rfc-24-96-3|rfc --radix 24 --leaves 96 --levels 3 --seed 1|updown"
  "FullGnu|FullGnu.topo"
  "IS3-128|IS3-128.topo"
  "PartialGazelle|PartialGazelle.topo|dmodk,updown"
  "SingleGazelle|SingleGazelle.topo|dmodk,updown"
  "RhinoBased512|RhinoBased512Nodes.topo|updown"
  "RhinoReindeer|RhinoReindeer1100.topo|updown"
)
large_fabrics=(
  "rfc-36-560-3|rfc --radix 36 --leaves 560 --levels 3 --seed 1|updown"
)
# Real dumps (ibsim-topos/public): `--public`. NVIDIA Selene's compute
# fabric, a DGX A100 SuperPOD of 666 switches and 3,675 HCAs (issue #42).
public_fabrics=(
  "selene|public/selene-compute.ibnetdiscover|updown"
)
# The default (CI) run: one fabric of each kind in all_fabrics, which
# between them take every branch below (see the header).
mapfile -t fabrics < <(named_fabrics "ft-8-3 clos2-4-4-12 ft-8-3-lose2 ft-8-3-swap1 rfc-8-16-3 clos2-io pod3" \
  "${all_fabrics[@]}")
if [ "${1:-}" = --all ]; then
  fabrics=("${all_fabrics[@]}" "${more_fabrics[@]}")
elif [ "${1:-}" = --large ]; then
  fabrics=("${large_fabrics[@]}")
elif [ "${1:-}" = --public ]; then
  fabrics=("${public_fabrics[@]}")
elif [ $# -gt 0 ]; then
  fabrics=("$@")
fi
stock_engines=(ftree updn minhop dfsssp)
# shellcheck disable=SC2206  # a list of words on purpose
engines=(${FTCLOS_ENGINES:-${stock_engines[*]} ftclos})
# Our schemes for comparison: name and LMC (enough for each one's guarantee here).
schemes=("dmodk 0" "updown 0" "osrm 3")

# diag SOCK NODE CMD...: a client attached to ibsim node NODE; clients retry
# forever without a simulator, hence the timeout.
diag() {
  local sock=$1 node=$2
  shift 2
  timeout 3600 env IBSIM_SOCKNAME="$sock" SIM_HOST="$node" LD_PRELOAD="$UMAD2SIM" "$@"
}

# field JSON KEY...: the values of KEYs in an audit JSON, space-separated.
field() {
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%g" % d[k] if isinstance(d[k], float) else json.dumps(d[k]) for k in sys.argv[2:]))' "$@"
}

# The last LID of every dump_fts block ([0x0-0x..]); true if one is a
# nonzero multiple of 64, the blocks whose last LID infiniband-diags skips.
hits_fdbtop_bug() {
  local top
  for top in $(sed -n 's/^Unicast lids \[0x[0-9a-f]*-0x\([0-9a-f]*\)\].*/\1/p' "$1"); do
    if (( 16#$top > 0 && 16#$top % 64 == 0 )); then return 0; fi
  done
  return 1
}

declare -A worst_of credit_of switch_credit_of routed_by
failures=0
fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}

# The figures of an audit JSON that the table and the read-back comparison
# use: read once per audit into $summary (one python each).
summary_keys="pairs unreachable loops credit_loops updown_violations non_minimal worst_case_contention nonblocking
  switch_unreachable switch_credit_loops"
# audit NAME NET JSON LOG ARGS...: runs ftclos audit; 0 and 1 (faults found)
# both mean it ran. Sets $summary (summary_keys' values).
audit() {
  local name=$1 net=$2 json=$3 log=$4
  shift 4
  local rc=0
  timeout 1800 "$FTCLOS" audit "$net" "$@" --json "$json" >"$log" 2>&1 || rc=$?
  if [ "$rc" -gt 1 ] || [ ! -s "$json" ]; then
    fail "$name: ftclos audit did not run (exit $rc):"
    tail -20 "$log"
    return 1
  fi
  # shellcheck disable=SC2086  # a list of keys
  summary=$(field "$json" $summary_keys) || true
  read -r _ unreachable loops _ <<<"$summary"
  if [ "$unreachable" != 0 ] || [ "$loops" != 0 ]; then
    fail "$name: $unreachable unreachable pairs, $loops loops"
    grep -A3 '^unreachable\|^loops' "$log" | head -10
  fi
  return 0
}

rows=()
row() {  # row FABRIC ENGINE USED SOURCE: the last audit's $summary
  read -r pairs unreachable loops credit _ _ worst nonblocking switch_unreachable switch_credit <<<"$summary"
  # Only tables that deliver every pair compete (ftree leaves storage hosts out).
  [ "$unreachable" != 0 ] || [ "$loops" != 0 ] || worst_of["$1/$2"]=$worst
  credit_of["$1/$2"]=$credit
  switch_credit_of["$1/$2"]=$switch_credit
  routed_by["$1/$2"]=$3
  rows+=("$(printf '%-13s %-16s %-8s %6s %5s %5s %6s %6s %-11s %6s %6s %s' "$1" "$2" "$3" "$pairs" "$unreachable" \
    "$loops" "$credit" "$worst" "$nonblocking" "$switch_unreachable" "$switch_credit" "$4")")
}

for entry in "${fabrics[@]}"; do
  IFS='|' read -r name spec only _ <<<"$entry"
  net=$work/$name.net
  if [[ $spec == *.net ]]; then
    cp "$root/ibsim-topos/$spec" "$net"
  elif [[ $spec == *.topo ]]; then
    "$FTCLOS" import-topo "$root/ibsim-topos/ibutils/$spec" -o "$net" 2>/dev/null
  elif [[ $spec == *.ibnetdiscover ]]; then
    # A real dump gives a CA's node GUID equal to its port GUID, ibsim the
    # port node GUID + port: lowered by one, the dump's GUIDs (ibsim-topos/README.md).
    python3 -c 'import re,sys; print(re.sub(r"(?m)^caguid=0x([0-9a-f]+)$", lambda m: "caguid=0x%016x" % (int(m[1], 16) - 1), sys.stdin.read()), end="")' \
      <"$root/ibsim-topos/$spec" >"$net"
  else
    # shellcheck disable=SC2086  # gen arguments split on purpose
    "$FTCLOS" gen $spec -o "$net" 2>/dev/null
  fi
  ca=$(first_ca "$net")
  # ibsim's default limits stop at 256 switches (a pod's ANs fill the node
  # table too); a 10 s start fits a few thousand nodes.
  read -ra limits < <(ibsim_limits "$net")
  if (( $(grep -c '^\(Switch\|Hca\|Ca\)' "$net") > 4000 )); then
    limits=(-N 16384 -S 4096 -P 100000)
    export IBSIM_READY_SECONDS=900
  fi

  for engine in "${engines[@]}"; do
    run=$work/$name-$engine
    mkdir -p "$run"
    # A fresh simulator per engine: OpenSM only sends the LFT blocks it
    # believes changed, so tables of an earlier run could linger.
    sock=ftclos-audit-$$-$name-$engine
    start_ibsim "$sock" "$net" "$run/ibsim.log" "${limits[@]}"
    cat >"$run/opensm.conf" <<EOF
routing_engine $engine
dump_files_dir $run
log_flags 0x43
force_log_flush TRUE
EOF
    plugin_path=
    if [ "$engine" = ftclos ]; then
      # qos: OpenSM calls the plugin's update_sl2vl only with QoS on.
      printf 'event_plugin_name osmftclos\nevent_plugin_options scheme=auto\nqos TRUE\n' >>"$run/opensm.conf"
      plugin_path=${FTCLOS_PLUGIN_DIR:?set FTCLOS_PLUGIN_DIR to the folder of libosmftclos.so}
    fi
    if ! OSM_CACHE_DIR=$run OSM_TMP_DIR=$run LD_LIBRARY_PATH=$plugin_path diag "$sock" "$ca" opensm \
      -F "$run/opensm.conf" -f "$run/osm.log" -o >"$run/opensm.out" 2>&1; then
      fail "$name/$engine: opensm did not finish"
      stop_ibsim "${IBSIM_PIDS[-1]}"
      continue
    fi
    # The engine that really routed: ftree falls back to minhop on fabrics it rejects.
    used=$(sed -n 's/.*osm_ucast_mgr_process: \([a-z_]*\) tables configured.*/\1/p' "$run/osm.log" | tail -1)
    diag "$sock" "$ca" dump_lfts >"$run/dump_lfts.txt" 2>"$run/dump_lfts.err" || true
    stop_ibsim "${IBSIM_PIDS[-1]}"
    if [ -z "$used" ] || ! grep -q '^Unicast lids' "$run/dump_lfts.txt"; then
      fail "$name/$engine: no routing or no read-back (opensm said: $(tail -2 "$run/osm.log" | tr '\n' ' '))"
      continue
    fi
    [ "$used" = "$engine" ] || used="$used!"

    # The plugin's SLs (storage hosts' detour layers): what it answers in
    # PathRecords, `route --sl` on OpenSM's LIDs (plugin_sl2vl.sh checks
    # the two agree), on VL = SL as it programs SL2VL. Stock engines' SLs
    # (dfsssp's layers) are not read: their credit loops count VL 0 only.
    sls=()
    if [ "$engine" = ftclos ]; then
      if ! "$FTCLOS" route "$net" --scheme auto --guid2lid "$run/guid2lid" --sl "$run/path.sl" \
        -o "$run/offline.dump" 2>"$run/route-sl.err"; then
        fail "$name/$engine: route --sl did not run: $(tail -2 "$run/route-sl.err")"
        continue
      fi
      # Offline equals the subnet: the same sweep on the file, in the file's
      # node order, on OpenSM's LIDs, writes OpenSM's dump byte for byte.
      if ! cmp -s "$run/offline.dump" "$run/opensm-lfts.dump"; then
        fail "$name/$engine: the plugin's tables differ from ftclos route on OpenSM's LIDs in $(diff "$run/offline.dump" "$run/opensm-lfts.dump" | grep -c '^>') entries"
      fi
      sls=(--sl "$run/path.sl")
      echo "$name: the plugin's sweep: $(grep -o '[0-9.]* ms ([0-9.]* recognition.*' "$run/osm.log" | tail -1)"
    fi
    audit "$name/$engine opensm-lfts.dump" "$net" "$run/dump.json" "$run/dump.audit" "$run/opensm-lfts.dump" \
      "${sls[@]}" || continue
    if hits_fdbtop_bug "$run/dump_lfts.txt"; then
      # dump_fts never shows the last LID here; OpenSM's dump has it.
      row "$name" "$engine" "$used" "opensm-lfts.dump (dump_lfts hits the LinearFDBTop bug)"
      continue
    fi
    read -ra dump_summary <<<"$summary"
    audit "$name/$engine dump_lfts" "$net" "$run/readback.json" "$run/readback.audit" "$run/dump_lfts.txt" \
      --guid2lid "$run/guid2lid" "${sls[@]}" || continue
    read -ra readback_summary <<<"$summary"
    # What OpenSM says it programmed must be what the switches hold: pairs
    # to worst_case_contention, the first 7 of summary_keys.
    if [ "${dump_summary[*]:0:7}" != "${readback_summary[*]:0:7}" ]; then
      fail "$name/$engine: dump_lfts read-back and opensm-lfts.dump audit differently:"
      echo "  dump: ${dump_summary[*]:0:7}  read-back: ${readback_summary[*]:0:7}"
    fi
    row "$name" "$engine" "$used" "dump_lfts read-back = opensm-lfts.dump"
  done

  for scheme in "${schemes[@]}"; do
    read -r scheme_name lmc <<<"$scheme"
    [ -z "$only" ] || [[ ",$only," == *",$scheme_name,"* ]] || continue
    json=$work/$name-$scheme_name.json
    if audit "$name/ftclos $scheme_name" "$net" "$json" "$work/$name-$scheme_name.audit" --scheme "$scheme_name" \
      --lmc "$lmc"; then
      row "$name" "ftclos:$scheme_name" "lmc$lmc" "ftclos audit --scheme (path bits)"
    fi
  done
done

echo
printf '%-13s %-16s %-8s %6s %5s %5s %6s %6s %-11s %6s %6s %s\n' fabric engine routed pairs unrch loops credit worst \
  nonblocking sw-unr sw-cl "tables audited"
printf '%s\n' "${rows[@]}"
echo "(routed: the engine OpenSM's log names; '!' marks a fallback; sw-unr: switches' own routes (PMA) not"
echo " delivered; sw-cl: credit loops once those routes join the CAs')"

# Our updown (offline) and the plugin (read back) against the best stock
# engine that routed the same file.
for entry in "${fabrics[@]}"; do
  IFS='|' read -r name _ _ gap <<<"$entry"
  best=
  for engine in "${stock_engines[@]}"; do
    w=${worst_of["$name/$engine"]:-}
    if [ -n "$w" ] && { [ -z "$best" ] || (( ${w%.*} < ${best%.*} )); }; then best=$w; fi
  done
  ours_names=(ftclos:updown)
  if [[ " ${engines[*]} " == *" ftclos "* ]]; then
    ours_names+=(ftclos)
    [ "${routed_by["$name/ftclos"]:-}" = ftclos ] ||
      fail "$name: the plugin did not configure the switches (OpenSM's log names '${routed_by["$name/ftclos"]:-none}')"
    [ "${credit_of["$name/ftclos"]:-1}" = 0 ] ||
      fail "$name: the plugin's tables have ${credit_of["$name/ftclos"]:-unknown} credit loops"
    [ "${switch_credit_of["$name/ftclos"]:-1}" = 0 ] ||
      fail "$name: the plugin's tables have ${switch_credit_of["$name/ftclos"]:-unknown} credit loops with switches' own routes"
  fi
  for ours_name in "${ours_names[@]}"; do
    ours=${worst_of["$name/$ours_name"]:-}
    if [ -z "$ours" ] || [ -z "$best" ]; then
      fail "$name: no worst case for $ours_name ($ours) or for any stock engine ($best)"
    elif (( ${gap:-0} < 0 && ${ours%.*} > ${best%.*} + gap )); then
      fail "$name: $ours_name's worst case $ours is not below the best stock engine's $best"
    elif (( ${ours%.*} > ${best%.*} + ${gap:-0} )); then
      fail "$name: $ours_name's worst case $ours is above the best stock engine's $best (known gap ${gap:-0})"
    else
      echo "$name: $ours_name worst case $ours, best stock engine $best"
    fi
  done
done
echo "$failures failures"
[ "$failures" -eq 0 ]
