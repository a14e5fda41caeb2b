#!/usr/bin/env bash
# Fabrics that are no folded Clos (issue #13): a ring, a 2D torus, a
# hypercube, a fat tree with cables inside a level, a dragonfly-like group
# fabric, and (with FTCLOS_E2E_RHINO10K=1, minutes) ibutils'
# RhinoBased10K. Offline, the up*/down* floor and the layered scheme are
# routed and audited with their SLs (worst case, VLs; printed), and `route
# --scheme auto` must exit 0 and take layered exactly where its worst case
# is the lower. In ibsim, stock OpenSM with the osmftclos plugin (scheme
# auto, qos TRUE) must configure every switch; the LFTs read back with
# dump_lfts, with the SLs the plugin answers in PathRecords (`route --sl` on
# OpenSM's LIDs; plugin_sl2vl.sh checks they agree and reads SL2VL back),
# must audit with 0 unreachable pairs, 0 loops and 0 credit loops on every
# VL. Stock updn, minhop and dfsssp run on the same file and are audited the
# same way; their results (which engine really routed, credit loops, worst
# case) are printed, not judged: they are what ftclos is compared with. Their
# audit sees LFTs only, so every route counts on VL 0: dfsssp's loops there
# are broken by the SLs it assigns, minhop's are not. Arguments, if any,
# replace the fabric list ("name|gen arguments").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/plugin_lib.sh
source "$here/plugin_lib.sh"
root=${FTCLOS_SOURCE_ROOT:-$here/../..}
work=$(mktemp -d)
cd "$work"  # diags killed hard leave sys-<pid> folders in their working directory
trap 'cleanup_ibsims; [ -n "${FTCLOS_E2E_KEEP:-}" ] || rm -rf "$work"; rm -f "$PLUGIN_CHECK"' EXIT

fabrics=(
  "ring-8|ring --switches 8 --hosts 2"
  "torus-4x4|torus --x 4 --y 4 --hosts 2"
  "hypercube-4|hypercube --dimensions 4 --hosts 2"
  "ft-8-3-cables|ftree --ports 8 --levels 3 --level-cables 4 --level-cables-level 2 --seed 1"
  "dragonfly-5x3|dragonfly --groups 5 --switches 3 --hosts 2"
)
[ -z "${FTCLOS_E2E_RHINO10K:-}" ] || fabrics+=("rhino-10k|topo:ibutils/RhinoBased10K.topo.xz")
[ $# -eq 0 ] || fabrics=("$@")
# FTCLOS_E2E_ENGINES="ftclos minhop" narrows the engines (a RhinoBased10K run takes minutes per engine).
read -r -a engines <<<"${FTCLOS_E2E_ENGINES:-ftclos updn minhop dfsssp}"

field() {
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%g" % d[k] if isinstance(d[k], float) else json.dumps(d[k]) for k in sys.argv[2:]))' "$@"
}

# offline NAME NET: the floor and layered routed and audited with their SLs,
# and auto's choice, which must be the lower worst case.
offline() {
  local name=$1 net=$2 scheme worst vls took chose lower
  declare -A worst_of
  for scheme in updown-star layered auto; do
    start=$SECONDS
    if ! timeout 1800 "$FTCLOS" route "$net" --scheme "$scheme" -o "$work/$name.$scheme.dump" \
      --sl "$work/$name.$scheme.sl" 2>"$work/$name.$scheme.err"; then
      fail "$name: ftclos route --scheme $scheme failed: $(tail -2 "$work/$name.$scheme.err")"
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
  [ -z "${worst_of[layered]:-}" ] || lower=$(python3 -c "print('%g' % min($lower, ${worst_of[layered]}))")
  # Where the floor is no choice of auto (a tree whose leaves share ancestors: updown), only no worse.
  if grep -q 'auto chose updown-star\|auto chose layered' "$work/$name.auto.err" &&
    [ "${worst_of[auto]}" != "$lower" ]; then
    fail "$name: auto's worst case ${worst_of[auto]}, the lower of floor and layered is $lower"
  fi
}

failures=0
fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}

rows=()
for entry in "${fabrics[@]}"; do
  IFS='|' read -r name spec <<<"$entry"
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

  for engine in "${engines[@]}"; do
    run=$work/$name-$engine
    mkdir -p "$run"
    sock=ftclos-anyfabric-$$-$name-$engine
    start_ibsim "$sock" "$net" "$run/ibsim.log" "${limits[@]}"
    {
      echo "routing_engine $engine"
      # qos: OpenSM calls the plugin's update_sl2vl (SL k on VL k) only with QoS on.
      [ "$engine" != ftclos ] || printf 'event_plugin_name osmftclos\nevent_plugin_options scheme=auto\nqos TRUE\n'
      printf 'dump_files_dir %s\nlog_flags 0x03\nforce_log_flush TRUE\n' "$run"
    } >"$run/opensm.conf"
    start=$SECONDS
    if ! run_opensm "$run" "$sock" "$ca" timeout 1800 -o >"$run/opensm.out" 2>&1; then
      fail "$name/$engine: opensm did not finish: $(tail -2 "$run/opensm.out")"
      stop_ibsim "${IBSIM_PIDS[-1]}"
      continue
    fi
    took=$((SECONDS - start))
    used=$(sed -n 's/.*osm_ucast_mgr_process: \([a-z_]*\) tables configured.*/\1/p' "$run/osm.log" | tail -1)
    [ "$engine" != ftclos ] || ! grep -q "ftclos tables configured on all switches" "$run/osm.log" || used=ftclos
    sim_run "$sock" "$ca" timeout 600 dump_lfts >"$run/dump_lfts.txt" 2>"$run/dump_lfts.err" || true
    stop_ibsim "${IBSIM_PIDS[-1]}"
    if [ "$engine" = ftclos ] && [ "$used" != ftclos ]; then
      fail "$name: the plugin did not configure all switches: $(grep -E 'tables configured|ftclos ERR' "$run/osm.log" | head -3)"
      continue
    fi
    if [ -z "$used" ] || ! grep -q '^Unicast lids' "$run/dump_lfts.txt"; then
      fail "$name/$engine: no routing or no read-back"
      continue
    fi
    [ "$used" = "$engine" ] || used="$used!"
    # The plugin's SLs, as it answers them in PathRecords: route --sl on OpenSM's LIDs.
    sls=()
    if [ "$engine" = ftclos ]; then
      grep -o 'scheme auto chose [a-z-]*\( on [0-9]* VLs\)\?' "$run/osm.log" | tail -1 | sed "s/^/$name plugin: /"
      if ! timeout 1800 "$FTCLOS" route "$net" --scheme auto --guid2lid "$run/guid2lid" --sl "$run/path.sl" \
        -o /dev/null 2>"$run/route-sl.err"; then
        fail "$name: route --sl on OpenSM's LIDs failed: $(tail -2 "$run/route-sl.err")"
        continue
      fi
      sls=(--sl "$run/path.sl")
    fi
    rc=0
    timeout 1800 "$FTCLOS" audit "$net" "$run/dump_lfts.txt" --guid2lid "$run/guid2lid" "${sls[@]}" \
      --json "$run/audit.json" >"$run/audit.log" 2>&1 || rc=$?
    if [ "$rc" -gt 1 ] || [ ! -s "$run/audit.json" ]; then
      fail "$name/$engine: ftclos audit did not run (exit $rc): $(tail -3 "$run/audit.log")"
      continue
    fi
    read -r pairs unreachable loops credit worst < <(field "$run/audit.json" pairs unreachable loops credit_loops \
      worst_case_contention)
    if [ "$engine" = ftclos ] && [ "$unreachable/$loops/$credit" != 0/0/0 ]; then
      fail "$name: the plugin's read-back tables: $unreachable unreachable, $loops loops, $credit credit loops"
      grep -A3 '^unreachable\|^loops\|^credit' "$run/audit.log" | head -8
    fi
    rows+=("$(printf '%-14s %-8s %-9s %8s %6s %6s %6s %6s %5s' "$name" "$engine" "$used" "$pairs" "$unreachable" \
      "$loops" "$credit" "$worst" "$took")")
  done
done

echo
printf '%-14s %-8s %-9s %8s %6s %6s %6s %6s %5s\n' fabric engine routed pairs unrch loops credit worst sweep_s
printf '%s\n' "${rows[@]}"
echo "(tables: dump_lfts read back from ibsim; routed: the engine OpenSM's log names, '!' a fallback;"
echo " ftclos's credit loops per VL with its PathRecord SLs; the stock engines' as if every route ran on VL 0:"
echo " dfsssp breaks its cycles with SLs the LFTs do not show)"
echo "$failures failures"
[ "$failures" -eq 0 ]
