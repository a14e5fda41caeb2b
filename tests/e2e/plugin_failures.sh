#!/usr/bin/env bash
# What the osmftclos plugin does when things go wrong, against stock OpenSM
# and ibsim:
#   link-failure    opensm runs as a daemon with the plugin on FT(8,3); after
#                   the first sweep one level-2/level-3 cable is cut on ibsim's
#                   console (Unlink), SIGHUP makes OpenSM sweep again, the
#                   plugin routes the degraded fabric, and the tables read back
#                   from the switches reach every CA; only entries whose old
#                   route crossed the dead cable may change; the log has
#                   both sides of the trade-off (trade_off_audit=on), the
#                   repair's count being the entries that changed;
#   deferred-polish on the 64-host RFC, one cable cut: the repair sweep
#                   polishes within repair_polish_work, the plugin polishes
#                   the rest in the background and asks OpenSM for a heavy
#                   sweep, which installs it ("deferred polish: ...
#                   installed"); the tables OpenSM then dumps are byte for
#                   byte `ftclos route`'s of the cut fabric (ibnetdiscover)
#                   on OpenSM's LIDs, and reach every CA;
#   bad-version     a build of the plugin claiming another OpenSM version is
#                   refused by OpenSM, which routes with min-hop;
#   bad-option      scheme=bogus: the error is logged with the reason and
#                   OpenSM's next engine (routing_engine ftclos,updn) routes;
#   bad-hint        io_guid_file names a file that does not exist: ERR 13
#                   with the system's reason, updn routes;
#   root-is-a-ca    root_guid_file names a CA's port GUID: ERR 13 naming the
#                   GUID and file:line (once ignored silently), updn routes;
#   fifo-hint       cn_guid_file names a FIFO nobody writes: refused at once
#                   (ERR 13, not a regular file), updn routes; the old read
#                   blocked OpenSM's sweep for good;
#   pathbits-symlink  pathbits_file=paths with a symlink planted at paths.tmp
#                   (opensm runs as root): the link's target is untouched,
#                   paths is a regular file, the link stays;
#   unroutable      scheme=mikant on FT(8,2): logged, updn routes;
#   unreachable     scheme=updown on MiKANT(3,3), where leaves share no
#                   ancestor: the plugin refuses tables that leave CAs apart;
#   lmc-shortfall   scheme=nonblocking at LMC 0 with lmc_shortfall=refuse;
#   path-sl         (not a failure, but needs the daemon too) the SA answers
#                   PathRecords on MiKANT with the SL the plugin's path_sl gives.
# In every fallback the tables read back must still reach every CA.
# FTCLOS_E2E_CASES="link-failure bad-version ..." runs those cases only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/plugin_lib.sh
source "$here/plugin_lib.sh"
root=${FTCLOS_SOURCE_ROOT:-$here/../..}
work=$(mktemp -d)  # kept for a look when FTCLOS_E2E_KEEP is set
cd "$work"  # diags killed hard leave sys-<pid> folders in their working directory
OSM_PID=
stop_opensm() {
  if [ -n "$OSM_PID" ]; then
    kill -TERM "$OSM_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$OSM_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$OSM_PID" 2>/dev/null || true
    wait "$OSM_PID" 2>/dev/null || true
    OSM_PID=
  fi
}
trap 'stop_opensm; cleanup_ibsims; [ -n "${FTCLOS_E2E_KEEP:-}" ] || rm -rf "$work"; rm -f "$PLUGIN_CHECK"' EXIT

# start_opensm_daemon DIR SOCK HOST: opensm without -o for at most 120 s;
# OSM_PID is `timeout`, which passes SIGTERM on to opensm; SIGHUP goes to
# opensm itself (`timeout` passes on only the first SIGHUP it gets).
start_opensm_daemon() {
  (cd "$1" && export IBSIM_SOCKNAME=$2 SIM_HOST=$3 LD_PRELOAD=$UMAD2SIM \
    LD_LIBRARY_PATH=$OSM_LIBRARY_PATH OSM_CACHE_DIR=$1 OSM_TMP_DIR=$1 &&
    exec timeout 120 "$OPENSM" -F "$1/opensm.conf" -f "$1/osm.log") >"$1/opensm.out" 2>&1 &
  OSM_PID=$!
}

# write_conf DIR ROUTING_ENGINE PLUGIN OPTIONS [LMC]
write_conf() {
  cat >"$1/opensm.conf" <<EOF
event_plugin_name $3
event_plugin_options $4
routing_engine $2
lmc ${5:-0}
log_flags 0x03
force_log_flush TRUE
dump_files_dir $1
EOF
}

# wait_for DIR PATTERN COUNT SECONDS: until osm.log has COUNT lines matching PATTERN.
wait_for() {
  local deadline=$((SECONDS + $4)) n
  while [ "$SECONDS" -lt "$deadline" ]; do
    n=$(grep -c -- "$2" "$1/osm.log" 2>/dev/null || true)
    [ "${n:-0}" -ge "$3" ] && return 0
    kill -0 "$OSM_PID" 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}

expect_log() {  # expect_log DIR PATTERN WHAT
  grep -q -- "$2" "$1/osm.log" || { echo "the log lacks $3 (\"$2\")"; return 1; }
}

link_failure() {
  local dir=$1 net=$root/ibsim-topos/ft-8-3.net sock=ftclos-plugin-fail-$$-link
  local host cut_node=L2-0.0 cut_port=5
  host=$(first_ca "$net")
  start_console_ibsim "$sock" "$net" "$dir/ibsim.log" || return 1
  # The whole polish in the repair sweep: no deferred polish sweep after it
  # to change more than the cut forces (deferred-polish checks that one).
  write_conf "$dir" ftclos osmftclos "scheme=dmodk trade_off_audit=on repair_polish_work=50000000"
  start_opensm_daemon "$dir" "$sock" "$host"
  wait_for "$dir" "SUBNET UP" 1 60 || { echo "no first sweep: $(tail -3 "$dir/osm.log")"; return 1; }
  expect_log "$dir" "ftclos tables configured on all switches" "the first ftclos sweep" || return 1
  sim_dump "$dir/before.dump" || return 1
  plugin_check reach "$dir/before.dump" >"$dir/reach-before" || { cat "$dir/reach-before"; return 1; }

  local configured up
  configured=$(grep -c "ftclos tables configured" "$dir/osm.log")
  up=$(grep -c "SUBNET UP" "$dir/osm.log")
  sim_console "Unlink \"$cut_node\"[$cut_port]"
  sleep 0.5
  kill -HUP "$(pgrep -P "$OSM_PID" -x "$(basename "$OPENSM")")"
  wait_for "$dir" "ftclos tables configured" $((configured + 1)) 60 ||
    { echo "no second ftclos sweep after the Unlink: $(grep -E 'tables configured|ERR' "$dir/osm.log" | tail -3)"; return 1; }
  wait_for "$dir" "SUBNET UP" $((up + 1)) 30 || { echo "the subnet did not come up again"; return 1; }
  sim_dump "$dir/after.dump" || return 1
  stop_opensm
  plugin_check reach "$dir/after.dump" || return 1
  plugin_check changes "$dir/before.dump" "$dir/after.dump" "$cut_node" "$cut_port" || return 1
  check_trade_off "$dir" || return 1
  grep -E "ftclos: .* CA routes" "$dir/osm.log" | sed "s/^[^>]*-> /log: /" | tail -2
}

# check_trade_off DIR: the sweep after the cut logged repair and rebalance
# with each side's worst case, and the repair (installed) changed exactly the
# entries that sweep's summary counts, no more than the rebalance would.
check_trade_off() {
  local line changed
  line=$(grep -o "trade-off: .*" "$1/osm.log" | tail -1)
  local pattern='repair \(keep_tables=on\) changes ([0-9]+) entries, worst-case contention ([0-9.]+); '
  pattern+='rebalance \(keep_tables=off\) changes ([0-9]+), worst-case contention ([0-9.]+)'
  [[ $line =~ $pattern ]] || { echo "no trade-off line with both figures after the cut (\"$line\")"; return 1; }
  # The summary of the sweep that logged it (OpenSM may sweep again after).
  changed=$(awk '/trade-off: / { after = 1 } after && match($0, /[0-9]+ entries in [0-9]+ LFT blocks changed since the last sweep/) {
    n = substr($0, RSTART); sub(/ .*/, "", n); print n; after = 0 }' "$1/osm.log" | tail -1)
  if [ "${BASH_REMATCH[1]}" != "$changed" ] || (( BASH_REMATCH[1] > BASH_REMATCH[3] )); then
    echo "trade-off: repair ${BASH_REMATCH[1]} entries, rebalance ${BASH_REMATCH[3]}, summary says $changed changed"
    return 1
  fi
  echo "$line;"
}

deferred_polish() {
  local dir=$1 net=$root/ibsim-topos/rfc-8-16-3-seed1.net sock=ftclos-plugin-fail-$$-polish host
  host=$(first_ca "$net")
  start_console_ibsim "$sock" "$net" "$dir/ibsim.log" || return 1
  write_conf "$dir" ftclos osmftclos "scheme=auto"
  sed -i 's/^log_flags 0x03$/log_flags 0x43/' "$dir/opensm.conf"  # 0x40: opensm-lfts.dump at every heavy sweep
  start_opensm_daemon "$dir" "$sock" "$host"
  wait_for "$dir" "SUBNET UP" 1 60 || { echo "no first sweep: $(tail -3 "$dir/osm.log")"; return 1; }
  sim_console 'Unlink "L1-1"[5]'
  sleep 0.5
  kill -HUP "$(pgrep -P "$OSM_PID" -x "$(basename "$OPENSM")")"
  wait_for "$dir" "deferred polish: .*; installed" 1 60 ||
    { echo "no deferred polish installed: $(grep -E 'ftclos: .*(polish|changed)|ERR' "$dir/osm.log" | tail -3)"; return 1; }
  # Up after the installation's last step: a change in N steps publishes
  # step 1 with the polish and the others in the sweeps it asks for, each
  # followed by SUBNET UP (dumped after step 1 of 3, drained entries read as
  # "no path": seen once under load).
  local deadline=$((SECONDS + 30))
  until awk '/deferred polish: .*; installed/ { after = 1; steps = 1; done = 1; up = 0 }
             after && match($0, /step 1 of [0-9]+ of the change published/) {
               split(substr($0, RSTART, RLENGTH), w, " "); steps = w[4]; done = 1; up = 0 }
             after && match($0, /step [0-9]+ of [0-9]+ of the last change published/) {
               split(substr($0, RSTART, RLENGTH), w, " "); done = w[2]; up = 0 }
             after && done == steps && /SUBNET UP/ { up = 1 }
             END { exit !up }' "$dir/osm.log"; do
    [ "$SECONDS" -lt "$deadline" ] || { echo "the subnet did not come up after the deferred polish"; return 1; }
    sleep 0.2
  done
  sim_run "$sock" "$host" timeout 60 ibnetdiscover >"$dir/disc.net" 2>"$dir/disc.err" ||
    { echo "ibnetdiscover failed: $(tail -2 "$dir/disc.err")"; return 1; }
  sim_dump "$dir/after.dump" || return 1
  plugin_check reach "$dir/after.dump" || return 1
  "$FTCLOS" route "$dir/disc.net" --sl "$dir/ftclos.sl" --guid2lid "$dir/guid2lid" -o "$dir/ftclos.dump" \
    2>"$dir/route.err" || { echo "ftclos route of the cut fabric failed: $(cat "$dir/route.err")"; return 1; }
  cmp -s "$dir/opensm-lfts.dump" "$dir/ftclos.dump" ||
    { echo "the installed tables differ from ftclos route's:"; diff "$dir/opensm-lfts.dump" "$dir/ftclos.dump" | head -6; return 1; }
  grep -oE "[0-9]+ entries in [0-9]+ LFT blocks changed since the last sweep \([^)]*\)|deferred polish: .*; installed" \
    "$dir/osm.log" | tail -3
}

# MiKANT routing puts each destination on the SL of its group (SL 0/1): the
# SA answers PathRecords with the plugin's path_sl. Generated MiKANT hosts are
# named H<group>-... (lib/gen/generate_mikant.cc).
path_sl() {
  local dir=$1 net=$root/ibsim-topos/mikant-3-3.net sock=ftclos-plugin-fail-$$-sl host
  host=$(first_ca "$net")
  start_console_ibsim "$sock" "$net" "$dir/ibsim.log" || return 1
  write_conf "$dir" ftclos osmftclos "scheme=mikant"
  start_opensm_daemon "$dir" "$sock" "$host"
  wait_for "$dir" "SUBNET UP" 1 60 || { echo "no first sweep: $(tail -3 "$dir/osm.log")"; return 1; }
  expect_log "$dir" "ftclos tables configured on all switches" "the ftclos sweep" || return 1
  sim_dump "$dir/sim.dump" || return 1
  plugin_check cas "$dir/sim.dump" >"$dir/cas" || return 1
  local slid name lid lmc sl queried=0 wrong=0 sls=""
  slid=$(awk -v h="$host" '$1 == h { print $2 }' "$dir/cas")
  while read -r name lid lmc; do
    [ "$name" = "$host" ] && continue
    sl=$(sim_run "$sock" "$host" timeout 30 saquery -p --slid "$slid" --dlid "$lid" 2>&1 |
      awk -F. '/^[ \t]*sl\./ { print $NF + 0; exit }')
    queried=$((queried + 1))
    [[ "$name" =~ ^H([01])- ]] || { echo "unexpected host name $name"; return 1; }
    if [ "${sl:-none}" != "${BASH_REMATCH[1]}" ]; then
      wrong=$((wrong + 1))
      echo "PathRecord $host -> $name (LID $lid): SL ${sl:-none}, expected ${BASH_REMATCH[1]}"
    fi
    sls="$sls $sl"
  done <"$dir/cas"
  stop_opensm
  [ "$wrong" -eq 0 ] || return 1
  echo "$queried PathRecords from $host carry the destination group's SL ($(tr ' ' '\n' <<<"$sls" | sort -u | grep . | tr '\n' ' ')used)"
}

# fallback NAME FABRIC ROUTING_ENGINE PLUGIN OPTIONS LMC ENGINE_USED PATTERN...: one
# opensm -o sweep; the log must name ENGINE_USED and match every PATTERN.
fallback() {
  local dir=$1 fabric=$2 engines=$3 plugin=$4 options=$5 lmc=$6 used=$7
  shift 7
  local net=$root/ibsim-topos/$fabric.net sock host
  sock=ftclos-plugin-fail-$$-$(basename "$dir")
  host=$(first_ca "$net")
  start_console_ibsim "$sock" "$net" "$dir/ibsim.log" || return 1
  write_conf "$dir" "$engines" "$plugin" "$options" "$lmc"
  run_opensm "$dir" "$sock" "$host" timeout 120 -o >"$dir/opensm.out" 2>&1 ||
    { echo "opensm failed: $(tail -3 "$dir/opensm.out")"; return 1; }
  expect_log "$dir" "$used tables configured on all switches" "the fallback engine's success" || return 1
  if grep -q "ftclos tables configured" "$dir/osm.log"; then
    echo "ftclos configured the switches although it should have refused"
    return 1
  fi
  for pattern in "$@"; do expect_log "$dir" "$pattern" "the reason" || return 1; done
  sim_dump "$dir/sim.dump" || return 1
  plugin_check reach "$dir/sim.dump" || return 1
  grep -E "ftclos ERR|version mismatch|cannot find or setup" "$dir/osm.log" | sed 's/^[^>]*-> /log: /' | awk '!seen[$0]++' | head -2
}

# H-0.0's port GUID: a root file that names a CA.
echo 0xf7c1100000000101 >"$work/root-ca.guids"
fifo_hint() {
  mkfifo "$1/cn-guids"
  fallback "$1" ft-8-2 ftclos,updn osmftclos "cn_guid_file=$1/cn-guids" 0 updn \
    "ERR.13:.cannot.use.a.hint.file:.*cn-guids:.not.a.regular.file"
}

pathbits_symlink() {
  local dir=$1 net=$root/ibsim-topos/ft-8-2.net sock=ftclos-plugin-fail-$$-bits host
  host=$(first_ca "$net")
  echo precious >"$dir/victim"
  ln -s "$dir/victim" "$dir/paths.tmp"
  start_console_ibsim "$sock" "$net" "$dir/ibsim.log" || return 1
  write_conf "$dir" ftclos osmftclos "scheme=dmodk pathbits_file=paths"
  run_opensm "$dir" "$sock" "$host" timeout 120 -o >"$dir/opensm.out" 2>&1 ||
    { echo "opensm failed: $(tail -3 "$dir/opensm.out")"; return 1; }
  expect_log "$dir" "ftclos tables configured on all switches" "the ftclos sweep" || return 1
  [ "$(cat "$dir/victim")" = precious ] || { echo "the planted paths.tmp symlink redirected the write"; return 1; }
  [ -f "$dir/paths" ] && [ ! -L "$dir/paths" ] && [ -s "$dir/paths" ] ||
    { echo "paths is not a regular file of path bits"; return 1; }
  [ -L "$dir/paths.tmp" ] || { echo "the planted paths.tmp was replaced"; return 1; }
  echo "path bits written beside a planted paths.tmp symlink ($(wc -l <"$dir/paths") lines), its target untouched"
}

cases=(
  "link-failure|link_failure"
  "deferred-polish|deferred_polish"
  "path-sl|path_sl"
  "bad-version|fallback ft-8-2 ftclos,minhop osmftclos_badversion scheme=dmodk 0 minhop OpenSM.version.mismatch cannot.find.or.setup.routing.engine..ftclos"
  "bad-option|fallback ft-8-2 ftclos,updn osmftclos scheme=bogus 0 updn bad.event_plugin_options unknown.scheme..bogus"
  "bad-hint|fallback ft-8-2 ftclos,updn osmftclos io_guid_file=/nonexistent/io-guids 0 updn ERR.13:.cannot.use.a.hint.file:.*/nonexistent/io-guids"
  "root-is-a-ca|fallback ft-8-2 ftclos,updn osmftclos root_guid_file=$work/root-ca.guids 0 updn ERR.13:.cannot.use.a.hint.file:.*root-ca.guids:1:.GUID.0xf7c1100000000101.names.CA"
  "fifo-hint|fifo_hint"
  "pathbits-symlink|pathbits_symlink"
  "unroutable|fallback ft-8-2 ftclos,updn osmftclos scheme=mikant 0 updn scheme.mikant.cannot.route.this.fabric falls.back"
  "unreachable|fallback mikant-3-3 ftclos osmftclos scheme=updown 0 minhop leaves.CAs.unreachable"
  "lmc-shortfall|fallback ft-8-2 ftclos,updn osmftclos scheme=nonblocking,lmc_shortfall=refuse 0 updn lmc_shortfall=refuse"
)
selected=$(select_cases "${cases[@]}")
mapfile -t cases <<<"$selected"

passed=0
failed=0
for entry in "${cases[@]}"; do
  name=${entry%%|*}
  read -r -a call <<<"${entry#*|}"
  dir=$work/$name
  mkdir -p "$dir"
  start=$SECONDS
  # Not in a subshell: the PIDs must reach the cleanup.
  if "${call[0]}" "$dir" "${call[@]:1}" >"$dir/result" 2>&1; then
    passed=$((passed + 1))
    echo "ok   $name ($((SECONDS - start)) s): $(tr '\n' ' ' <"$dir/result" | sed 's/ *$//')"
  else
    failed=$((failed + 1))
    echo "FAIL $name: $(cat "$dir/result")"
    grep -E "ftclos|tables configured|ERR" "$dir/osm.log" 2>/dev/null | sed 's/^[^>]*-> /    log: /' | head -20
  fi
  stop_opensm
  stop_console_ibsim
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
