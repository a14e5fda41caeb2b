# Shared by the e2e scripts: start a private ibsim and run diags against it.
# Every simulator gets its own IBSIM_SOCKNAME, so tests run in parallel and
# never talk to someone else's; processes are stopped by PID only.

UMAD2SIM=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
IBSIM_PIDS=()

# enter_workdir: a new directory as $work, entered (diags killed hard leave
# sys-<pid> folders in their working directory) and removed at exit with the
# simulators (FTCLOS_E2E_KEEP=1 keeps it to look at).
enter_workdir() {
  work=$(mktemp -d)
  cd "$work" || return 1
  trap 'cleanup_ibsims; [ -n "${FTCLOS_E2E_KEEP:-}" ] || rm -rf "$work"' EXIT
}

# stop_ibsim PID: ibsim may ignore SIGTERM. Only while PID is still an
# ibsim: once one has exited and been reaped its PID can be handed to any
# new process (pid_max wraps at 32768 here), and a later kill -9 at exit
# killed another test's opensm (failure_sweep.sh, 2026-11-25).
stop_ibsim() {
  [ "$(ps -o comm= -p "$1" 2>/dev/null)" != ibsim ] || kill -9 "$1" 2>/dev/null || true
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
# fails, showing its log, when it dies or takes over IBSIM_READY_SECONDS
# (default 10; a 10,000-host fabric takes minutes).
wait_ibsim_ready() {
  local pid=$1 log=$2 fabric=$3
  for _ in $(seq 1 $((${IBSIM_READY_SECONDS:-10} * 10))); do
    grep -aq "simulator ready" "$log" && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "ibsim did not start on $fabric:" >&2
  cat "$log" >&2
  return 1
}

# ibsim_limits NET: ibsim's table sizes for a net file, as its arguments on
# one line (its defaults, 256 switches and 2,048 nodes, are below
# RhinoBased10K's).
ibsim_limits() {
  awk '/^(Switch|Ca|Hca)[ \t]/ { n++; p += $2 + 1; if ($1 == "Switch") s++ }
    END { print "-N", n + 16, "-S", s + 16, "-P", p + 64 }' "$1"
}

# import_topo TOPO NET: ibsim-topos/TOPO (an ibutils .topo, xz-compressed
# when it ends in .xz) as a net file, with ibutils' IBNL library; $root is
# the source tree (set by the sourcing script). Says why when it fails.
import_topo() {
  local topo=$root/ibsim-topos/$1 net=$2
  if [[ $topo == *.xz ]]; then
    xz -dc "$topo" >"${net%.net}.topo"
    topo=${net%.net}.topo
  fi
  "$FTCLOS" import-topo "$topo" --ibnl-dir "$root/ibsim-topos/ibutils/ibnl" -o "$net" 2>"$net.err" ||
    { echo "import-topo $1 failed: $(tail -2 "$net.err")" >&2; return 1; }
}

# sim_run SOCKNAME NODE CMD...: a diag (or opensm) attached to ibsim node NODE.
sim_run() {
  local sock=$1 node=$2
  shift 2
  IBSIM_SOCKNAME=$sock SIM_HOST=$node LD_PRELOAD=$UMAD2SIM "$@"
}

# named_fabrics "NAME..." ENTRY...: the entries ("name|...") whose name is
# one of NAMES, in their order, one a line (the e2e scripts' default lists).
named_fabrics() {
  local names=" $1 " entry
  shift
  for entry in "$@"; do
    [[ $names != *" ${entry%%|*} "* ]] || printf '%s\n' "$entry"
  done
}

# select_cases ENTRY...: the entries ("name|...") FTCLOS_E2E_CASES names, one
# a line, in their order; all of them when it is unset. A word names the
# entry equal to it or beginning with it and '|' ("ft-8-3" names
# "ft-8-3|auto", not "ft-8-3-fail4|auto"). A word that names none fails: a
# typo must not leave a script with nothing to check.
select_cases() {
  local -a words
  local word entry
  [ -n "${FTCLOS_E2E_CASES:-}" ] || { printf '%s\n' "$@"; return 0; }
  read -r -a words <<<"$FTCLOS_E2E_CASES"
  for word in "${words[@]}"; do
    for entry in "$@"; do [[ $entry == "$word" || $entry == "$word|"* ]] && continue 2; done
    echo "FTCLOS_E2E_CASES: no case '$word' here" >&2
    return 1
  done
  for entry in "$@"; do
    for word in "${words[@]}"; do
      if [[ $entry == "$word" || $entry == "$word|"* ]]; then
        printf '%s\n' "$entry"
        break
      fi
    done
  done
}

# meson_option BUILD NAME: the value of meson option NAME in build directory BUILD.
meson_option() {
  meson introspect --buildoptions "$1" |
    python3 -c "import json,sys; print({o['name']: o['value'] for o in json.load(sys.stdin)}[sys.argv[1]])" "$2"
}

# first_ca FABRIC: the name of the first CA record in a net file whose port 1
# is cabled (umad2sim shows the diags a CA's port 1 only).
first_ca() {
  awk '/^(Ca|Hca)[ \t]/ { match($0, /"[^"]*"/); ca = substr($0, RSTART + 1, RLENGTH - 2); next }
       /^$/ { ca = "" }
       ca != "" && /^\[1\]/ { print ca; exit }' "$1"
}

# detect_summary JSON [loose]: the parts of `detect --json` that do not
# depend on how nodes are named; loose: nor on their order (families, levels,
# counts and how many deviations of each kind only).
detect_summary() {
  python3 -c '
import collections, json, sys
d = json.load(open(sys.argv[1]))
def end(e):
  return e and [e["guid"], e["port"] or 0]
summary = {
  "families": d["families"], "levels": d["levels"], "hosts": d["host_count"],
  "switches": d["switch_count"], "degraded": d["degraded"], "updown": d["updown_routable"],
  "io_hosts": sorted([n["guid"], n["level"]] for n in d["io_hosts"]),
  "deviations": sorted([x["kind"], end(x["at"]), end(x["peer"])] for x in d["deviations"]),
  "coords": sorted([n["guid"], n["coords"]] for n in d["switches"] + d["hosts"]),
}
if len(sys.argv) > 2:
  summary["deviations"] = collections.Counter(x["kind"] for x in d["deviations"])
  del summary["coords"], summary["io_hosts"]
print(json.dumps(summary, sort_keys=True, indent=1))' "$@"
}

# readback_detect NET PREFIX [loose]: loads NET in a private ibsim, reads it
# back with ibnetdiscover (PREFIX.disc) and runs `ftclos detect` on both:
# PREFIX.file.json, PREFIX.disc.json and their detect_summary in
# PREFIX.file.sum and PREFIX.disc.sum. Needs FTCLOS.
readback_detect() {
  local net=$1 prefix=$2
  shift 2
  start_ibsim "ftclos-readback-$$-$(basename "$prefix")" "$net" "$prefix.ibsim.log" -N 4096 -S 1024 -P 32768
  timeout 120 bash -c "$(declare -f sim_run); UMAD2SIM=$UMAD2SIM sim_run ftclos-readback-$$-$(basename "$prefix") \
    '$(first_ca "$net")' ibnetdiscover" >"$prefix.disc" 2>"$prefix.disc.err"
  stop_ibsim "${IBSIM_PIDS[-1]}"
  "$FTCLOS" detect "$net" --json - >"$prefix.file.json" || true
  "$FTCLOS" detect "$prefix.disc" --json - >"$prefix.disc.json" || true
  detect_summary "$prefix.file.json" "$@" >"$prefix.file.sum"
  detect_summary "$prefix.disc.json" "$@" >"$prefix.disc.sum"
}
