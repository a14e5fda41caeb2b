#!/usr/bin/env bash
# Issue #32's largest subnet end to end: FT(PORTS,LEVELS) (default FT(48,3),
# 27,648 hosts) in one OpenSM daemon on a console ibsim, first with the
# osmftclos plugin, then with stock updn, one after the other (never two
# big OpenSMs at once). Per engine: the first sweep, then one cable cut
# (console `Unlink "A"[p]`, a switch-to-switch cable away from OpenSM's own
# leaf) and its sweep. Prints per engine and sweep:
#   from_first_line_ms  OpenSM's log clock from the first line of the
#                       sweep to "<engine> tables configured on all switches"
#   plugin              ftclos's own summary ("... ms (R recognition, T
#                       routing, C checking; N threads)")
#   vmhwm_kb            opensm's peak resident memory after the sweep
#                       (VmHWM in /proc/PID/status)
# Not in CI: ibsim and OpenSM take minutes to bring up a fabric this size.
#
#   FTCLOS=build/ftclos FTCLOS_PLUGIN_DIR=build/plugin tests/bench/largest_subnet.sh \
#       [--ftclos-options OPTS] [--engines "ftclos updn"] [--subnet-up-seconds N] [--qos] [PORTS LEVELS]
#
# --qos runs OpenSM with qos TRUE (SL2VL tables programmed on every switch
# port pair; the plugin's update_sl2vl called for each); off by default.
#
# The cut waits for the first sweep's SUBNET UP, at most N s (default 1200).
set -euo pipefail
# shellcheck source=tests/bench/sm_bench_lib.sh
source "$(dirname "$0")/sm_bench_lib.sh"

ftclos_options="scheme=auto"
engines="ftclos updn"
subnet_up_seconds=1200
qos=FALSE
args=()
while [ $# -gt 0 ]; do
  case $1 in
    --ftclos-options) ftclos_options=$2; shift ;;
    --engines) engines=$2; shift ;;
    --subnet-up-seconds) subnet_up_seconds=$2; shift ;;
    --qos) qos=TRUE ;;
    -*) echo "usage: $0 [--ftclos-options OPTS] [--engines LIST] [--subnet-up-seconds N] [--qos] [PORTS LEVELS]" >&2; exit 2 ;;
    *) args+=("$1") ;;
  esac
  shift
done
ports=${args[0]:-48}
levels=${args[1]:-3}

work=$(mktemp -d)
cd "$work"
trap 'stop_opensm; cleanup_ibsims; [ -n "${FTCLOS_E2E_KEEP:-}" ] || rm -rf "$work"; rm -f "$PLUGIN_CHECK"' EXIT
net=$work/ft-$ports-$levels.net
"$FTCLOS" gen ftree --ports "$ports" --levels "$levels" -o "$net" >/dev/null 2>&1
host=$(first_ca "$net")
leaf=$(leaf_of "$net" "$host")
# ibsim's tables sized to the fabric, with room for every LID in the LFTs.
switches=$(grep -c '^Switch' "$net")
cas=$(grep -Ec '^(Hca|Ca)' "$net")
limits=(-N $((switches + cas + 64)) -S $((switches + 64)) -P $((switches * (ports + 1) + 2 * cas + 64)) -L 49152)
mapfile -t cables < <(python3 "$e2e/lft_churn.py" elements "$net" | awk -F'\t' -v l="$leaf" '$1 == "cable" && $2 != l && $4 != l')
IFS=$'\t' read -r _ cable_node cable_port _ _ <<<"${cables[$((${#cables[@]} / 2))]}"

# log_ms DIR FROM PATTERN: OpenSM's log clock (ms of the day) of the first line after byte FROM matching PATTERN.
log_ms() {
  { tail -c +"$2" "$1/osm.log" | grep -aE -m1 "$3" || true; } |
    awk '{split($3, t, ":"); printf "%d\n", (t[1] * 3600 + t[2] * 60 + t[3]) * 1000 + $4 / 1000}'
}

# report DIR ENGINE SWEEP FROM: one line for the sweep whose log starts at byte FROM.
report() {
  local dir=$1 first configured plugin hwm
  first=$(log_ms "$dir" "$4" .)
  configured=$(log_ms "$dir" "$4" "tables configured on all switches")
  plugin=$({ tail -c +"$4" "$dir/osm.log" | grep -aoE "ftclos: [^;]*;.* ms \(.*\)" || true; } | tail -1 |
    grep -oE "[0-9.]+ ms \(.*\)" || true)
  hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$(opensm_pid)/status")
  printf '%s\t%s\t%s\t%s\t%s\n' "$2" "$3" "$([ -n "$configured" ] && echo $((configured - first)) || echo -)" \
    "${plugin:--}" "$hwm"
}

printf 'engine\tsweep\tfrom_first_line_ms\tplugin\tvmhwm_kb\n'
for engine in $engines; do
  dir=$work/$engine
  mkdir -p "$dir"
  sock=ftclos-largest-$$-$engine
  IBSIM_READY_SECONDS=600 start_console_ibsim "$sock" "$net" "$dir/ibsim.log" "${limits[@]}"
  # QoS off unless asked: at LMC 0 a fat tree's routes all go on SL 0.
  SM_QOS=$qos start_sm "$dir" "$sock" "$host" "$([ "$engine" = ftclos ] && echo "$ftclos_options" || echo none)"
  # The first sweep discovers 30,000 nodes through ibsim and sends every
  # switch its whole LFT: minutes, not settle's 120 s. Reported once the
  # tables are configured; the cut only once the subnet is up.
  for _ in $(seq 1 1200); do grep -aq "tables configured on all switches" "$dir/osm.log" 2>/dev/null && break; sleep 1; done
  report "$dir" "$engine" first 1
  for _ in $(seq 1 "$subnet_up_seconds"); do grep -aq "SUBNET UP" "$dir/osm.log" 2>/dev/null && break; sleep 1; done
  if ! grep -aq "SUBNET UP" "$dir/osm.log" || ! settle "$dir" 1 >/dev/null; then
    echo "$engine: subnet not up ${subnet_up_seconds} s after the first sweep's tables: no cut" >&2
    stop_opensm
    stop_console_ibsim
    continue
  fi
  from=$(($(stat -c %s "$dir/osm.log") + 1))
  sim_console "Unlink \"$cable_node\"[$cable_port]"
  # OpenSM's heavy sweep of FT(48,3) outlasts settle's 120 s: wait for its tables.
  for _ in $(seq 1 "$subnet_up_seconds"); do
    tail -c +"$from" "$dir/osm.log" | grep -aq "tables configured on all switches" && break
    sleep 1
  done
  settle "$dir" "$from" >/dev/null || echo "$engine: not settled after the cut" >&2
  report "$dir" "$engine" "cut ${cable_node}[$cable_port]" "$from"
  stop_opensm
  stop_console_ibsim
  # OpenSM's table dumps (log_flags' routing bit) take ~10 GB per engine on
  # FT(48,3); read by nothing here, they go before the next engine runs.
  rm -f "$dir"/opensm-lfts.dump "$dir"/opensm.fdbs "$dir"/opensm-lid-matrix.dump "$dir"/opensm-sl2vl.dump
done
