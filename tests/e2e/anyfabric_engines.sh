#!/usr/bin/env bash
# Fabrics that are no folded Clos (issues #13, #35). By default (CI) one of
# each family: a 3x3x3 torus (torus-2QoS seeded in x, y and z; auto takes
# layered), a fat tree with cables inside a level (auto takes updown;
# updown-layers refuses it) and a dragonfly-like group fabric (no torus:
# torus-2QoS not run). `--all` adds a ring (torus-2QoS builds no 1D ring
# and falls back to minhop), a 4x4 torus and a hypercube (auto takes torus,
# torus-2QoS ties), the fabrics of README's table; FTCLOS_E2E_RHINO10K=1
# (minutes) adds ibutils' RhinoBased10K to either. Offline, the
# up*/down* floor, the layered and updown-layers schemes and (on tori) the
# torus scheme are routed and audited with their SLs (worst case, VLs;
# printed), and `route --scheme auto` must exit 0 and take the lowest worst
# case of them. In ibsim, stock OpenSM (qos TRUE, 8 data VLs) routes
# each fabric with the osmftclos plugin (scheme auto) and with stock updn,
# minhop, dfsssp, nue (nue_max_num_vls 8), lash and, on the tori, torus-2QoS
# (its torus-2QoS.conf seeded from ibnetdiscover's GUIDs). Every engine is
# audited the same way: the LFTs read back with dump_lfts, the SL of every
# ordered CA pair as OpenSM's SA answers it in a PathRecord (path_sls: one
# SA Get each, in one process) and the SL2VL tables OpenSM programmed
# (opensm-sl2vl.dump; plugin_sl2vl.sh checks it against smpquery), fed to
# `ftclos audit --sl --sl2vl`. The plugin's tables must show 0 unreachable
# pairs, 0 loops and 0 credit loops; the table prints every engine's worst
# case, VLs and credit loops, and the script fails where a stock engine that
# routed deadlock-free (0 unreachable, 0 loops, 0 credit loops) has a lower
# worst case than ftclos on as many VLs or fewer; equal worst cases are
# printed as ties. Other arguments replace the fabric list ("name|gen
# arguments|torus-2QoS seeds" each, as below).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/plugin_lib.sh
source "$here/plugin_lib.sh"
root=${FTCLOS_SOURCE_ROOT:-$here/../..}
work=$(mktemp -d)
cd "$work"  # diags killed hard leave sys-<pid> folders in their working directory
trap 'cleanup_ibsims; [ -n "${FTCLOS_E2E_KEEP:-}" ] || rm -rf "$work"; rm -f "$PLUGIN_CHECK"' EXIT

# The third field seeds torus-2QoS: "X Y Z" radices, then the switches one
# step from S-0 along +x, -x, +y, -y (and +z, -z in 3D; the generators'
# names; a ring of 4 needs both directions).
all_fabrics=(
  "ring-8|ring --switches 8 --hosts 2|8 1 1 S-1 S-7"
  "torus-4x4|torus --x 4 --y 4 --hosts 2|4 4 1 S-1 S-3 S-4 S-12"
  "torus-3x3x3|torus --x 3 --y 3 --z 3 --hosts 2|3 3 3 S-1 S-2 S-3 S-6 S-9 S-18"
  "hypercube-4|hypercube --dimensions 4 --hosts 2|4 4 1 S-1 S-2 S-4 S-8"
  "ft-8-3-cables|ftree --ports 8 --levels 3 --level-cables 4 --level-cables-level 2 --seed 1|"
  "dragonfly-5x3|dragonfly --groups 5 --switches 3 --hosts 2|"
)
# The default (CI) run: one fabric of each family, a torus, the fat tree
# with cables inside a level and the dragonfly (see the header).
mapfile -t fabrics < <(named_fabrics "torus-3x3x3 ft-8-3-cables dragonfly-5x3" "${all_fabrics[@]}")
[ "${1:-}" != --all ] || fabrics=("${all_fabrics[@]}")
[ -z "${FTCLOS_E2E_RHINO10K:-}" ] || fabrics+=("rhino-10k|topo:ibutils/RhinoBased10K.topo.xz")
[ $# -eq 0 ] || [ "$1" = --all ] || fabrics=("$@")
# FTCLOS_E2E_ENGINES="ftclos minhop" narrows the engines (a RhinoBased10K run takes minutes per engine).
read -r -a engines <<<"${FTCLOS_E2E_ENGINES:-ftclos updn minhop dfsssp nue lash torus-2QoS}"
[ -x "$FTCLOS_PLUGIN_DIR/path_sls" ] || { echo "skipped: no path_sls in $FTCLOS_PLUGIN_DIR"; exit 77; }

field() {
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%g" % d[k] if isinstance(d[k], float) else json.dumps(d[k]) for k in sys.argv[2:]))' "$@"
}

# offline NAME NET: the floor, layered, updown-layers and torus (where it
# routes) routed and audited with their SLs, and auto's choice, which must
# be the lowest worst case.
offline() {
  local name=$1 net=$2 scheme worst vls took chose lower
  declare -A worst_of
  for scheme in updown-star layered updown-layers torus auto; do
    start=$SECONDS
    if ! timeout 1800 "$FTCLOS" route "$net" --scheme "$scheme" -o "$work/$name.$scheme.dump" \
      --sl "$work/$name.$scheme.sl" 2>"$work/$name.$scheme.err"; then
      # torus routes tori and meshes only, updown-layers no folded Clos.
      [ "$scheme" = torus ] || [ "$scheme" = updown-layers ] || fail "$name: ftclos route --scheme $scheme failed: $(tail -2 "$work/$name.$scheme.err")"
      continue
    fi
    took=$((SECONDS - start))
    timeout 1800 "$FTCLOS" audit "$net" "$work/$name.$scheme.dump" --sl "$work/$name.$scheme.sl" \
      --json "$work/$name.$scheme.json" >"$work/$name.$scheme.audit" 2>&1 || true
    read -r unreachable loops credit worst < <(field "$work/$name.$scheme.json" unreachable loops credit_loops \
      worst_case_contention)
    [ "$unreachable/$loops/$credit" = 0/0/0 ] ||
      fail "$name: --scheme $scheme offline: $unreachable unreachable, $loops loops, $credit credit loops"
    vls=$(sed -n 's/^VLs used: //p' "$work/$name.$scheme.audit")
    worst_of[$scheme]=$worst
    chose=$(grep -o 'auto chose [a-z-]*' "$work/$name.$scheme.err" | head -1 || true)
    # layered never refuses: destinations whose trees fit no layer take up*/down* trees.
    fell_back=$(grep -o '[0-9]* of [0-9]* CA LIDs [a-z ]*up\*/down\* trees' "$work/$name.$scheme.err" | head -1 || true)
    echo "$name offline: $scheme worst case $worst, VLs used $vls, $took s${chose:+; $chose}${fell_back:+; $fell_back}"
  done
  [ -n "${worst_of[updown-star]:-}" ] && [ -n "${worst_of[auto]:-}" ] || return 0
  lower=${worst_of[updown-star]}
  for scheme in layered updown-layers torus; do
    [ -z "${worst_of[$scheme]:-}" ] || lower=$(python3 -c "print('%g' % min($lower, ${worst_of[$scheme]}))")
  done
  # Where the floor is no choice of auto (a tree whose leaves share ancestors: updown), only no worse.
  if grep -q 'auto chose \(updown-star\|layered\|updown-layers\|torus\):' "$work/$name.auto.err" &&
    [ "${worst_of[auto]}" != "$lower" ]; then
    fail "$name: auto's worst case ${worst_of[auto]}, the lowest of floor, layered, updown-layers and torus is $lower"
  fi
}

# torus_conf DISC SEEDS OUT: torus-2QoS.conf for SEEDS ("X Y Z +x -x +y -y
# [+z -z]" switch names one step from S-0) with the GUIDs of ibnetdiscover
# output DISC.
torus_conf() {
  local disc=$1 links=(xp_link xm_link yp_link ym_link zp_link zm_link) seed i
  read -r -a seed <<<"$2"
  guid() { sed -n "s/^Switch[^\"]*\"S-\([0-9a-f]*\)\".*# \"$1\" .*/0x\1/p" "$disc"; }
  {
    echo "torus ${seed[0]} ${seed[1]} ${seed[2]}"
    for ((i = 3; i < ${#seed[@]}; ++i)); do echo "${links[i - 3]} $(guid S-0) $(guid "${seed[i]}")"; done
  } >"$3"
}

# wait_up DIR PID: OpenSM's first sweep ended (SUBNET UP).
wait_up() {
  for _ in $(seq 1 9000); do
    grep -aq "SUBNET UP" "$1/osm.log" 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}

# vl_count "0,1,3 (SLs ...)[; with switches' own routes: 0,1,3,4 (SLs ...)]": how
# many VLs the audit's "VLs used" names, switches' own routes included.
vl_count() {
  local text=${1##*with switches\' own routes: }
  local list=${text%% *}
  tr ',' '\n' <<<"$list" | grep -c .
}

failures=0
fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}

rows=()
for entry in "${fabrics[@]}"; do
  IFS='|' read -r name spec seeds <<<"$entry"
  net=$work/$name.net
  if [[ $spec == topo:* ]]; then
    import_topo "${spec#topo:}" "$net"
  else
    # shellcheck disable=SC2086  # gen arguments split on purpose
    "$FTCLOS" gen $spec -o "$net" 2>/dev/null
  fi
  ca=$(first_ca "$net")
  read -r -a limits < <(ibsim_limits "$net")
  offline "$name" "$net"
  declare -A engine_worst=() engine_vls=() engine_sound=()

  for engine in "${engines[@]}"; do
    [ "$engine" != torus-2QoS ] || [ -n "$seeds" ] || continue
    run=$work/$name-$engine
    mkdir -p "$run"
    sock=ftclos-anyfabric-$$-$name-$engine
    start_ibsim "$sock" "$net" "$run/ibsim.log" "${limits[@]}"
    {
      echo "routing_engine $engine"
      [ "$engine" != ftclos ] || printf 'event_plugin_name osmftclos\nevent_plugin_options scheme=auto\n'
      [ "$engine" != nue ] || echo "nue_max_num_vls 8"
      if [ "$engine" = torus-2QoS ]; then
        sim_run "$sock" "$ca" timeout 600 ibnetdiscover >"$run/disc0.net" 2>/dev/null
        torus_conf "$run/disc0.net" "$seeds" "$run/torus-2QoS.conf"
        echo "torus_config $run/torus-2QoS.conf"
      fi
      # ROUTING (0x40): OpenSM writes opensm-sl2vl.dump.
      printf 'qos TRUE\nsweep_interval 0\ndump_files_dir %s\nlog_flags 0x43\nforce_log_flush TRUE\n' "$run"
    } >"$run/opensm.conf"
    start=$SECONDS
    (cd "$run" && export IBSIM_SOCKNAME=$sock SIM_HOST=$ca LD_PRELOAD=$UMAD2SIM \
      LD_LIBRARY_PATH=$FTCLOS_PLUGIN_DIR OSM_CACHE_DIR=$run OSM_TMP_DIR=$run &&
      exec timeout 3600 opensm -F "$run/opensm.conf" -f "$run/osm.log") >"$run/opensm.out" 2>&1 &
    osm=$!
    if ! wait_up "$run" "$osm"; then
      fail "$name/$engine: opensm did not bring the subnet up: $(tail -2 "$run/osm.log")"
      kill "$osm" 2>/dev/null || true
      wait "$osm" 2>/dev/null || true
      stop_ibsim "${IBSIM_PIDS[-1]}"
      continue
    fi
    took=$((SECONDS - start))
    used=$(sed -n 's/.*osm_ucast_mgr_process: \([a-zA-Z0-9_-]*\) tables configured.*/\1/p' "$run/osm.log" | tail -1)
    [ "$engine" != ftclos ] || ! grep -q "ftclos tables configured on all switches" "$run/osm.log" || used=ftclos
    sim_run "$sock" "$ca" timeout 600 dump_lfts >"$run/dump_lfts.txt" 2>"$run/dump_lfts.err" || true
    sim_run "$sock" "$ca" timeout 600 ibnetdiscover >"$run/disc.net" 2>"$run/disc.err" || true
    path_sls_file "$sock" "$ca" "$run/disc.net" "$run/path.sl" 2>"$run/path_sls.err" || true
    kill "$osm" 2>/dev/null || true
    wait "$osm" 2>/dev/null || true
    stop_ibsim "${IBSIM_PIDS[-1]}"
    if [ "$engine" = ftclos ] && [ "$used" != ftclos ]; then
      fail "$name: the plugin did not configure all switches: $(grep -E 'tables configured|ftclos ERR' "$run/osm.log" | head -3)"
      continue
    fi
    if [ -z "$used" ] || ! grep -q '^Unicast lids' "$run/dump_lfts.txt" || ! grep -q '^pair' "$run/path.sl"; then
      fail "$name/$engine: no routing, no LFTs or no PathRecord SLs read back: $(tail -1 "$run/path_sls.err")"
      continue
    fi
    [ "$used" = "$engine" ] || used="$used!"
    [ "$engine" != ftclos ] ||
      { grep -o 'scheme auto chose [a-z-]*\( on [0-9]* VLs\?\)\?' "$run/osm.log" || true; } | tail -1 | sed "s/^/$name plugin: /"
    switch_ports "$run/disc.net" >"$run/ports"
    sl2vl_of_dump "$run/opensm-sl2vl.dump" "$run/ports" >"$run/sl2vl.txt"
    rc=0
    timeout 1800 "$FTCLOS" audit "$net" "$run/dump_lfts.txt" --guid2lid "$run/guid2lid" --sl "$run/path.sl" \
      --sl2vl "$run/sl2vl.txt" --json "$run/audit.json" >"$run/audit.log" 2>&1 || rc=$?
    if [ "$rc" -gt 1 ] || [ ! -s "$run/audit.json" ]; then
      fail "$name/$engine: ftclos audit did not run (exit $rc): $(tail -3 "$run/audit.log")"
      continue
    fi
    read -r pairs unreachable loops credit worst < <(field "$run/audit.json" pairs unreachable loops credit_loops \
      worst_case_contention)
    vls=$(vl_count "$(sed -n 's/^VLs used: //p' "$run/audit.log")")
    if [ "$engine" = ftclos ] && [ "$unreachable/$loops/$credit" != 0/0/0 ]; then
      fail "$name: the plugin's read-back tables: $unreachable unreachable, $loops loops, $credit credit loops"
      grep -A3 '^unreachable\|^loops\|^credit' "$run/audit.log" | head -8
    fi
    engine_worst[$engine]=$worst engine_vls[$engine]=$vls
    [ "$unreachable/$loops/$credit" != 0/0/0 ] || engine_sound[$engine]=1
    rows+=("$(printf '%-14s %-10s %-11s %8s %6s %6s %6s %6s %4s %5s' "$name" "$engine" "$used" "$pairs" \
      "$unreachable" "$loops" "$credit" "$worst" "$vls" "$took")")
  done

  # The judgement: no deadlock-free stock engine below ftclos on as many VLs or fewer.
  [ -n "${engine_worst[ftclos]:-}" ] || continue
  for engine in "${!engine_worst[@]}"; do
    if [ "$engine" = ftclos ] || [ -z "${engine_sound[$engine]:-}" ]; then continue; fi
    verdict=$(python3 -c "e, f = ${engine_worst[$engine]}, ${engine_worst[ftclos]}; print('below' if e < f else 'tie' if e == f else 'above')")
    case $verdict in
      below)
        if [ "${engine_vls[$engine]}" -le "${engine_vls[ftclos]}" ]; then
          fail "$name: $engine ${engine_worst[$engine]} on ${engine_vls[$engine]} VLs, deadlock-free, beats ftclos's ${engine_worst[ftclos]} on ${engine_vls[ftclos]}"
        else
          echo "$name: $engine ${engine_worst[$engine]} below ftclos's ${engine_worst[ftclos]}, but on ${engine_vls[$engine]} VLs against ${engine_vls[ftclos]}"
        fi
        ;;
      tie) echo "$name: $engine ties ftclos at ${engine_worst[ftclos]} (${engine_vls[$engine]} VLs against ${engine_vls[ftclos]})" ;;
    esac
  done
done

echo
printf '%-14s %-10s %-11s %8s %6s %6s %6s %6s %4s %5s\n' fabric engine routed pairs unrch loops credit worst VLs sweep_s
printf '%s\n' "${rows[@]}"
echo "(tables: dump_lfts read back from ibsim; routed: the engine OpenSM's log names, '!' a fallback;"
echo " every engine audited per VL with its PathRecord SLs and the SL2VL tables OpenSM programmed)"
echo "$failures failures"
[ "$failures" -eq 0 ]
