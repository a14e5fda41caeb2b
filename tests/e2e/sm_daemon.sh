# Shared by failure_sweep.sh and long_run.sh (sourced; not a test of its
# own): one OpenSM daemon with the osmftclos plugin on a console ibsim
# (plugin_lib.sh), made to sweep by SIGHUP, and a wait for the sweep to end.
# OSM_PID is `timeout`, which passes SIGTERM on to opensm; SIGHUP goes to
# opensm itself (hup_opensm): `timeout` forwards the first SIGHUP to its
# process group and then ignores SIGHUP (coreutils send_sig), so every
# later one would be lost.
# shellcheck shell=bash

OSM_PID=

# opensm_pid: the opensm process under `timeout`.
opensm_pid() {
  pgrep -P "$OSM_PID" -x "$(basename "$OPENSM")"
}

hup_opensm() {
  kill -HUP "$(opensm_pid)"
}

stop_opensm() {
  if [ -n "$OSM_PID" ]; then
    kill -TERM "$OSM_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$OSM_PID" 2>/dev/null || break; sleep 0.1; done
    # OSM_PID is `timeout`: killed, it would leave a busy opensm running.
    pkill -KILL -P "$OSM_PID" 2>/dev/null || true
    kill -KILL "$OSM_PID" 2>/dev/null || true
    wait "$OSM_PID" 2>/dev/null || true
    OSM_PID=
  fi
}

# start_sm DIR SOCK HOST OPTIONS [PRELOAD]: the daemon with event_plugin_options
# OPTIONS and no periodic sweeps (only traps and SIGHUP sweep, so a quiet log
# means a settled fabric); PRELOAD goes before umad2sim in LD_PRELOAD.
# OPTIONS "none" runs stock OpenSM's updn without the plugin (a control).
# SM_QOS=FALSE turns OpenSM's QoS off (its SL2VL tables per switch port
# pair: millions of SMPs on FT(48,3)).
start_sm() {
  local dir=$1 sock=$2 host=$3 options=$4 preload=${5:-} engine_lines
  engine_lines="event_plugin_name osmftclos
event_plugin_options $options
routing_engine ftclos,updn"
  [ "$options" != none ] || engine_lines="routing_engine updn"
  cat >"$dir/opensm.conf" <<CONF
$engine_lines
lmc 0
sweep_interval 0
qos ${SM_QOS:-TRUE}
log_flags 0x43
force_log_flush TRUE
dump_files_dir $dir
CONF
  (cd "$dir" && export IBSIM_SOCKNAME=$sock SIM_HOST=$host LD_PRELOAD="${preload:+$preload }$UMAD2SIM" \
    LD_LIBRARY_PATH=$OSM_LIBRARY_PATH OSM_CACHE_DIR=$dir OSM_TMP_DIR=$dir &&
    exec timeout 7200 "$OPENSM" -F "$dir/opensm.conf" -f "$dir/osm.log") >"$dir/opensm.out" 2>&1 &
  OSM_PID=$!
}

# settle DIR FROM: waits until a heavy sweep ended (SUBNET UP) in the log
# after byte FROM and the log then stayed quiet for 0.75 s (the traps of one
# change may cause two sweeps back to back). The switches' traps make OpenSM
# sweep; with no heavy sweep after 10 s it sends SIGHUP (a forced heavy
# sweep), and again every 20 s, counted in NUDGES. OpenSM ignores a trap
# that one switch port sent more than 10 times within its aging window
# (osm_trap_rcv.c, "noisy" traps): OpenSM's own leaf switch and a flapping
# port get there, and then only the SIGHUP sweeps.
NUDGES=0
settle() {
  local log=$1/osm.log from=$2 deadline=$((SECONDS + 120)) nudge=$((SECONDS + 10)) size quiet=0
  while [ "$SECONDS" -lt "$deadline" ]; do
    kill -0 "$OSM_PID" 2>/dev/null || { echo "opensm died: $(tail -3 "$1/opensm.out")"; return 1; }
    if tail -c +"$from" "$log" 2>/dev/null | grep -aq "SUBNET UP"; then
      size=$(stat -c %s "$log")
      sleep 0.25
      if [ "$size" = "$(stat -c %s "$log")" ]; then
        quiet=$((quiet + 1))
        [ "$quiet" -ge 3 ] && return 0
      else
        quiet=0
      fi
    else
      if [ "$SECONDS" -ge "$nudge" ]; then
        hup_opensm
        NUDGES=$((NUDGES + 1))
        nudge=$((SECONDS + 20))
      fi
      sleep 0.2
    fi
  done
  echo "no heavy sweep within 120 s: $(tail -c +"$from" "$log" | tail -3)"
  # Where OpenSM's threads wait, for whoever looks into the stall.
  timeout 60 gdb -p "$(opensm_pid)" -batch -ex 'thread apply all bt' \
    >"$1/stall-$SECONDS.bt" 2>&1 || true
  return 1
}

# sweep_after DIR CONSOLE_CMD: the command on ibsim's console, then settle.
# No SIGHUP right away: a forced sweep that starts after the traps' sweep
# has gone quiet could be read back half done.
sweep_after() {
  local from
  from=$(($(stat -c %s "$1/osm.log") + 1))
  SWEEP_FROM=$from
  sim_console "$2"
  settle "$1" "$from"
}

# engine_since DIR FROM: which engine configured the tables in the last sweep after byte FROM.
engine_since() {
  tail -c +"$2" "$1/osm.log" | grep -aoE "[a-z]+ tables configured on all switches" | tail -1 | cut -d' ' -f1
}

# leaf_of NET CA: the switch on port 1 of CA (OpenSM's own leaf when CA runs it).
leaf_of() {
  awk -v h="$2" '/^(Ca|Hca)[ \t]/ { on = index($0, "\"" h "\"") > 0; next }
    on && /^\[1\]/ { match($0, /"[^"]*"/); print substr($0, RSTART + 1, RLENGTH - 2); exit }' "$1"
}
