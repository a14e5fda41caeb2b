#!/usr/bin/env bash
# Time to recover from a failure in stock OpenSM on ibsim, per routing engine
# (opt-in: not part of the test run; README.md, "Tests"). Per fabric and
# engine: one OpenSM daemon on a console ibsim, settled; then one
# switch-to-switch cable is cut (console `Unlink "A"[p]`), and once that is
# settled one switch is taken out (`Unlink "A"`). For each failure:
#   configured  ms from the cut (the console write) to the first "<engine>
#               tables configured on all switches" after it, by OpenSM's log
#               clock (ftclos: its change's first step safe in flight);
#               `last_step` to the tables of its last step ("-": one step);
#               `first` the same from the first log line after the cut
#   blocks      64-LID LFT blocks that differ between the tables read back
#               before and after (dump_lfts): what OpenSM had to send, net
#   stale_ms    the last read-back (dump_lfts in a loop from the cut) whose
#               tables still left CA pairs undelivered on the degraded fabric
#               (`ftclos audit`), in ms from the cut to that read-back's end;
#               `clean_ms` the end of the first read-back after it that was
#               clean; -1 when none was stale / clean
#   worst       worst-case contention of the settled tables (ftclos audit)
#   sweeps      heavy sweeps that configured tables until settled (ftclos:
#               the repair, then the deferred polish's sweep)
# and for ftclos the plugin's own "N entries in B LFT blocks changed" per sweep.
#
#   recovery.sh [--engines "ftclos updn ftree dfsssp"] [--ftclos-options OPTS]
#               [--repeat N] [--results DIR] [NET...]
#
# --repeat N runs every (fabric, engine) N times, engines interleaved, so
# that a loaded machine's noise (tens of ms) shows; take the medians.
#
# Without NET: FT(8,3) and the 64-host 3-level RFC (radix 8, 16 leaves,
# seed 1), both from `ftclos gen`. Needs FTCLOS and FTCLOS_PLUGIN_DIR as the
# e2e tests do (meson test sets them; by hand: FTCLOS=build/ftclos
# FTCLOS_PLUGIN_DIR=build/plugin). Prints one tab-separated line per
# (fabric, engine, failure); takes a few minutes.
set -euo pipefail
# shellcheck source=tests/bench/sm_bench_lib.sh
source "$(dirname "$0")/sm_bench_lib.sh"

engines="ftclos updn ftree dfsssp"
ftclos_options="scheme=auto"
results=
repeat=1
nets=()
while [ $# -gt 0 ]; do
  case $1 in
    --engines) engines=$2; shift ;;
    --ftclos-options) ftclos_options=$2; shift ;;
    --results) results=$2; shift ;;
    --repeat) repeat=$2; shift ;;
    -*) echo "usage: $0 [--engines LIST] [--ftclos-options OPTS] [--repeat N] [--results DIR] [NET...]" >&2; exit 2 ;;
    *) nets+=("$1") ;;
  esac
  shift
done

work=$(mktemp -d)
cd "$work"  # diags killed hard leave sys-<pid> folders in their working directory
trap 'stop_opensm; cleanup_ibsims; [ -n "${FTCLOS_E2E_KEEP:-}" ] || rm -rf "$work"; rm -f "$PLUGIN_CHECK"' EXIT
if [ ${#nets[@]} -eq 0 ]; then
  "$FTCLOS" gen ftree --ports 8 --levels 3 -o ft-8-3.net
  "$FTCLOS" gen rfc --radix 8 --leaves 16 --levels 3 --seed 1 -o rfc-8-16-3.net
  nets=("$work/ft-8-3.net" "$work/rfc-8-16-3.net")
fi

now_ms() { date +%s%3N; }

# opensm_conf DIR ENGINE: the daemon's configuration, no periodic sweeps.
opensm_conf() {
  local engine_lines="routing_engine $2"
  [ "$2" != ftclos ] || engine_lines="event_plugin_name osmftclos
event_plugin_options $ftclos_options
routing_engine ftclos"
  cat >"$1/opensm.conf" <<CONF
$engine_lines
lmc 0
sweep_interval 0
qos TRUE
log_flags 0x03
force_log_flush TRUE
dump_files_dir $1
CONF
}

start_engine() {
  local dir=$1
  (cd "$dir" && export IBSIM_SOCKNAME=$SOCK SIM_HOST=$HOST LD_PRELOAD=$UMAD2SIM \
    LD_LIBRARY_PATH=$FTCLOS_PLUGIN_DIR OSM_CACHE_DIR=$dir OSM_TMP_DIR=$dir &&
    exec timeout 3600 opensm -F "$dir/opensm.conf" -f "$dir/osm.log") >"$dir/opensm.out" 2>&1 &
  OSM_PID=$!
}

lfts_now() { sim_run "$SOCK" "$HOST" timeout 60 dump_lfts >"$1" 2>/dev/null; }
topo_now() { sim_run "$SOCK" "$HOST" timeout 60 ibnetdiscover >"$1" 2>/dev/null; }

# undelivered TOPO LFTS: CA pairs the tables leave undelivered (unreachable + loops); -1 when the audit failed.
undelivered() {
  "$FTCLOS" audit "$1" "$2" --json "$2.json" >/dev/null 2>&1 || true
  python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); print(c["unreachable"] + c["loops"])' "$2.json" \
    2>/dev/null || echo -1
}

worst_of() {
  "$FTCLOS" audit "$1" "$2" --json "$2.w.json" >/dev/null 2>&1 || true
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["worst_case_contention"])' "$2.w.json" \
    2>/dev/null || echo -
}

# blocks BEFORE AFTER: (switch GUID, LID / 64) whose entries differ between two dump_lfts read-backs.
blocks() {
  python3 - "$1" "$2" <<'PY'
import re, sys
def read(path):
    tables, cur = {}, None
    for line in open(path, errors="replace"):
        m = re.search(r"Unicast lids .* guid 0x([0-9a-fA-F]+)", line)
        if m:
            cur = tables.setdefault(int(m[1], 16), {}); continue
        m = re.match(r"\s*0x([0-9a-fA-F]+)\s+(\d+)\s", line)
        if m and cur is not None:
            cur[int(m[1], 16)] = int(m[2])
    return tables
a, b = read(sys.argv[1]), read(sys.argv[2])
changed = set()
for guid in a.keys() & b.keys():
    for lid in a[guid].keys() | b[guid].keys():
        if a[guid].get(lid, 255) != b[guid].get(lid, 255):
            changed.add((guid, lid // 64))
print(len(changed))
PY
}

# log_ms DIR FROM PATTERN: the epoch ms of the first log line after byte FROM that matches PATTERN; -1 if none.
log_ms() {
  # grep -m1 may leave tail writing into a closed pipe: not a failure here.
  { tail -c +"$2" "$1/osm.log" | grep -aE -m1 "$3" || true; } | python3 -c '
import sys, time, datetime
line = sys.stdin.readline().split()
if len(line) < 4: print(-1); sys.exit()
year = datetime.date.today().year
t = time.mktime(time.strptime(f"{year} {line[0]} {line[1]} {line[2]}", "%Y %b %d %H:%M:%S"))
print(int(t * 1000 + int(line[3]) / 1000))'
}

# fail_and_measure DIR LABEL CONSOLE_CMD: applies the failure, reads back in
# a loop until the log has settled, and prints the record.
fail_and_measure() {
  local dir=$1 label=$2 command=$3 from t0 i=0 reads=() stale=-1 clean=-1 settled=0
  lfts_now "$dir/$label.before.lfts" || true
  from=$(($(stat -c %s "$dir/osm.log") + 1))
  t0=$(now_ms)
  sim_console "$command"
  # Read back while OpenSM works: each read-back's end time and file.
  while [ $((i += 1)) -le 40 ]; do
    lfts_now "$dir/$label.read-$i.lfts" || true
    reads+=("$(($(now_ms) - t0)) $dir/$label.read-$i.lfts")
    if tail -c +"$from" "$dir/osm.log" | grep -aq "SUBNET UP" && [ $(($(now_ms) - t0)) -gt 3000 ]; then
      settled=1
      break
    fi
  done
  [ "$settled" = 1 ] || settle "$dir" "$from" >/dev/null || true
  settle "$dir" "$from" >/dev/null || true
  topo_now "$dir/$label.after.topo" || true
  lfts_now "$dir/$label.after.lfts" || true
  for read in "${reads[@]}"; do
    read -r ms file <<<"$read"
    if [ "$(undelivered "$dir/$label.after.topo" "$file")" != 0 ]; then
      stale=$ms
      clean=-1
    elif [ "$clean" = -1 ]; then
      clean=$ms
    fi
  done
  local configured first engine_line sweeps churn last_step=-1 offset=
  configured=$(log_ms "$dir" "$from" "tables configured on all switches")
  # The failure's change in steps safe in flight (step 1 before the first
  # tables configured): the tables configured after its last step.
  local steps
  steps=$({ tail -c +"$from" "$dir/osm.log" | sed '/tables configured on all switches/q' |
    grep -aoE "step 1 of [0-9]+ of the change published" || true; } | awk '{ print $4 }')
  [ -z "$steps" ] || offset=$({ tail -c +"$from" "$dir/osm.log" |
    grep -abE -m1 "step $steps of $steps of the last change published" || true; } | cut -d: -f1)
  [ -z "$offset" ] || last_step=$(log_ms "$dir" $((from + offset)) "tables configured on all switches")
  first=$(log_ms "$dir" "$from" ".")
  engine_line=$({ tail -c +"$from" "$dir/osm.log" | grep -aoE -m1 "[a-z]+ tables configured on all switches" || true; } |
    cut -d' ' -f1)
  sweeps=$(tail -c +"$from" "$dir/osm.log" | grep -ac "tables configured on all switches" || true)
  churn=$(tail -c +"$from" "$dir/osm.log" | grep -aoE "[0-9]+ entries in [0-9]+ LFT blocks changed|deferred polish: [^;]*; [a-z ]*" |
    paste -sd'|' || true)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$FABRIC" "$ENGINE" "$label.$ROUND" "${engine_line:-none}" \
    "$([ "$configured" = -1 ] && echo - || echo $((configured - t0)))" \
    "$([ "$last_step" = -1 ] && echo - || echo $((last_step - t0)))" \
    "$([ "$configured" = -1 ] || [ "$first" = -1 ] && echo - || echo $((configured - first)))" \
    "$(blocks "$dir/$label.before.lfts" "$dir/$label.after.lfts")" "$stale" "$clean" \
    "$(worst_of "$dir/$label.after.topo" "$dir/$label.after.lfts")" "$sweeps" "${churn:--}"
}

printf 'fabric\tengine\tfailure\tconfigured_by\tconfigured_ms\tlast_step_ms\tfrom_first_line_ms\tblocks\tstale_ms\tclean_ms\tworst\tsweeps\tftclos_per_sweep\n'
for net in "${nets[@]}"; do
  FABRIC=$(basename "$net" .net)
  HOST=$(first_ca "$net")
  leaf=$(leaf_of "$net" "$HOST")
  # A cable and a switch in the middle of the lists, away from OpenSM's own leaf.
  mapfile -t cables < <(python3 "$e2e/lft_churn.py" elements "$net" | awk -F'\t' -v l="$leaf" '$1 == "cable" && $2 != l && $4 != l')
  mapfile -t switches < <(python3 "$e2e/lft_churn.py" elements "$net" | awk -F'\t' -v l="$leaf" '$1 == "switch" && $2 != l')
  IFS=$'\t' read -r _ cable_node cable_port _ _ <<<"${cables[$((${#cables[@]} / 2))]}"
  IFS=$'\t' read -r _ switch_node <<<"${switches[$((${#switches[@]} * 3 / 4))]}"
  for ROUND in $(seq 1 "$repeat"); do for ENGINE in $engines; do
    dir=$work/$FABRIC-$ENGINE-$ROUND
    mkdir -p "$dir"
    SOCK=ftclos-recovery-$$-$ENGINE-$FABRIC-$ROUND
    # shellcheck disable=SC2046  # ibsim_limits prints several arguments
    start_console_ibsim "$SOCK" "$net" "$dir/ibsim.log" $(ibsim_limits "$net")
    opensm_conf "$dir" "$ENGINE"
    start_engine "$dir"
    settle "$dir" 1 >/dev/null || { echo "$FABRIC $ENGINE: no first sweep" >&2; stop_opensm; stop_console_ibsim; continue; }
    fail_and_measure "$dir" cable "Unlink \"$cable_node\"[$cable_port]"
    fail_and_measure "$dir" switch "Unlink \"$switch_node\""
    stop_opensm
    stop_console_ibsim
    [ -z "$results" ] || { mkdir -p "$results"; cp -r "$dir" "$results/"; }
  done; done
done
