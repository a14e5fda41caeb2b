# Shared by the e2e scripts: start a private ibsim and run diags against it.
# Every simulator gets its own IBSIM_SOCKNAME, so tests run in parallel and
# never talk to someone else's; processes are stopped by PID only.

UMAD2SIM=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
IBSIM_PIDS=()

# stop_ibsim PID: ibsim may ignore SIGTERM.
stop_ibsim() {
  kill -9 "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

cleanup_ibsims() {
  for pid in "${IBSIM_PIDS[@]}"; do stop_ibsim "$pid"; done
}

# start_ibsim SOCKNAME FABRIC LOG [ibsim limits...]: returns once it is ready.
start_ibsim() {
  local sock=$1 fabric=$2 log=$3
  shift 3
  : >"$log"
  IBSIM_SOCKNAME=$sock ibsim -s -n "$@" "$fabric" >"$log" 2>&1 &
  IBSIM_PIDS+=($!)
  wait_ibsim_ready "${IBSIM_PIDS[-1]}" "$log" "$fabric"
}

# wait_ibsim_ready PID LOG FABRIC: returns once that ibsim says it is ready;
# fails, showing its log, when it dies or takes over 10 s.
wait_ibsim_ready() {
  local pid=$1 log=$2 fabric=$3
  for _ in $(seq 1 100); do
    grep -aq "simulator ready" "$log" && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "ibsim did not start on $fabric:" >&2
  cat "$log" >&2
  return 1
}

# sim_run SOCKNAME NODE CMD...: a diag (or opensm) attached to ibsim node NODE.
sim_run() {
  local sock=$1 node=$2
  shift 2
  IBSIM_SOCKNAME=$sock SIM_HOST=$node LD_PRELOAD=$UMAD2SIM "$@"
}

# first_ca FABRIC: the name of the first CA record in a net file whose port 1
# is cabled (umad2sim shows the diags a CA's port 1 only).
first_ca() {
  awk '/^(Ca|Hca)[ \t]/ { match($0, /"[^"]*"/); ca = substr($0, RSTART + 1, RLENGTH - 2); next }
       /^$/ { ca = "" }
       ca != "" && /^\[1\]/ { print ca; exit }' "$1"
}
