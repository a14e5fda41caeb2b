#!/usr/bin/env bash
# Changes safe in flight, in ibsim (issue #43): OpenSM with the osmftclos
# plugin and `steps=wait`, so that each step of a change waits for a heavy
# sweep this script starts (SIGHUP). A switch cable is cut; after each step
# ("step K of N" in the log, then SUBNET UP) what the switches hold is read
# back (dump_lfts) with the SLs the plugin answers (ftclos-sl.dump, checked
# against PathRecords),
# and every consecutive pair, from the tables before the cut to the last
# step, is checked with `ftclos audit --transition`: every mix of the two
# loop-free and deadlock-free. Then a SIGHUP installs the deferred polish
# (which waits too), the cable comes back and the polish again, each
# change's steps checked the same way. Fabrics: FT(8,3) (two cables: a
# leaf's and a top switch's) and the 64-host random folded Clos (a cable of
# its turn leaf, where switches' own routes and SLs change).
# A control: the tables before the cut against the last step, skipping the
# steps between, must be unsafe for some change that took more than one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/plugin_lib.sh
source "$here/plugin_lib.sh"
# shellcheck source=tests/e2e/sm_daemon.sh
source "$here/sm_daemon.sh"
root=${FTCLOS_SOURCE_ROOT:-$here/../..}

work=$(mktemp -d)  # kept for a look when FTCLOS_E2E_KEEP is set
cd "$work"
trap 'stop_opensm; cleanup_ibsims; [ -n "${FTCLOS_E2E_KEEP:-}" ] || rm -rf "$work"' EXIT

# read_state PREFIX: the topology, the LFTs the switches hold, and the SLs
# the plugin answers (its ftclos-sl.dump, an `ftclos audit --sl` file),
# checked against the SA's PathRecords from three CAs to every LID: while
# a step leaves an entry on a dead port the SA finds no path from behind
# it, so some LIDs go unasked (counted in UNASKED).
UNASKED=0
read_state() {
  sim_run "$SOCK" "$HOST" timeout 120 ibnetdiscover >"$1.topo" 2>/dev/null || return 1
  sim_run "$SOCK" "$HOST" timeout 120 dump_lfts >"$1.lfts" 2>/dev/null || return 1
  cp "$DIR/ftclos-sl.dump" "$1.sl"
  local -a cas lids
  mapfile -t cas < <(ca_lids "$1.topo")
  mapfile -t lids < <({ ca_lids "$1.topo"; switch_ports "$1.topo" | cut -d' ' -f1; } | sort -un)
  local source dlid unasked
  for source in "${cas[0]}" "${cas[$((${#cas[@]} / 2))]}" "${cas[-1]}"; do
    for dlid in "${lids[@]}"; do [ "$dlid" = "$source" ] || echo "$source $dlid"; done
  done | sim_run "$SOCK" "$HOST" timeout 300 "$FTCLOS_PLUGIN_DIR/path_sls" --keep-going >"$1.answers" || return 1
  unasked=$(python3 - "$1.answers" "$1.sl" "${lids[@]}" <<'PY'
import re, sys
answers, dump, lids = sys.argv[1], sys.argv[2], [int(lid) for lid in sys.argv[3:]]
dumped = {}
for line in open(dump):
    m = re.match(r"dlid (0x[0-9a-f]+|\d+)(?:-(0x[0-9a-f]+|\d+))? (\d+)$", line.strip())
    if m:
        first = int(m[1], 0)
        for lid in range(first, int(m[2], 0) + 1 if m[2] else first + 1):
            dumped[lid] = int(m[3])
answered = {}
for line in open(answers):
    kind, _, dlid, sl = line.split()
    if kind == "pair":
        answered[int(dlid)] = int(sl)
wrong = [(lid, sl, dumped.get(lid, 0)) for lid, sl in answered.items() if sl != dumped.get(lid, 0)]
if wrong:
    sys.exit(f"the SA answers other SLs than {dump} says (LID, SA, dump): {wrong[:5]}")
print(sum(lid not in answered for lid in lids))
PY
  ) || return 1
  UNASKED=$((UNASKED + unasked))
}

# safe_pair TOPO OLD NEW: the transition audit of two read-back states on TOPO.
safe_pair() {
  "$FTCLOS" audit "$1" "$2.lfts" "$3.lfts" --transition --sl "$2.sl" --new-sl "$3.sl" >"$3.transition" 2>&1
}

MULTI_STEP=0  # changes that took more than one step
CONTROLS=0    # of them: skipping their steps is unsafe
# change DIR NAME CONSOLE_CMD: applies CONSOLE_CMD (SIGHUP: a heavy sweep,
# which installs the deferred polish if it is ready), publishes and reads
# back every step of the change it causes, and checks each pair; LAST is
# the state before it and becomes its last step.
change() {
  local dir=$1 name=$2 command=$3 from steps k prefix before=$LAST start=$SECONDS
  from=$(($(stat -c %s "$dir/osm.log") + 1))
  if [ "$command" = SIGHUP ]; then hup_opensm; else sim_console "$command"; fi
  settle "$dir" "$from" || return 1
  steps=$(tail -c +"$from" "$dir/osm.log" | grep -aoE "step 1 of [0-9]+ of the change published" | tail -1 |
    awk '{ print $4 }')
  steps=${steps:-1}
  for ((k = 1; k <= steps; ++k)); do
    if [ "$k" -gt 1 ]; then
      from=$(($(stat -c %s "$dir/osm.log") + 1))
      hup_opensm
      settle "$dir" "$from" || return 1
      tail -c +"$from" "$dir/osm.log" | grep -aq "step $k of $steps of the last change published" ||
        { echo "FAIL $name: no \"step $k of $steps\" after SIGHUP"; return 1; }
    fi
    prefix=$dir/$name.$k
    read_state "$prefix" || { echo "FAIL $name: read-back of step $k failed"; return 1; }
    safe_pair "$prefix.topo" "$LAST" "$prefix" || {
      echo "FAIL $name: step $k of $steps is not safe in flight after the one before:"
      sed 's/^/  /' "$prefix.transition" | head -8
      return 1
    }
    LAST=$prefix
  done
  "$FTCLOS" audit "$LAST.topo" "$LAST.lfts" --sl "$LAST.sl" --json "$LAST.audit.json" >"$LAST.audit" 2>&1 || true
  local verdict
  verdict=$(python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); print(c["unreachable"], c["loops"], c["credit_loops"])' \
    "$LAST.audit.json" 2>/dev/null || echo "audit failed")
  [ "$verdict" = "0 0 0" ] || { echo "FAIL $name: the last step's audit: $verdict"; return 1; }
  local direct=safe
  if [ "$steps" -gt 1 ]; then
    MULTI_STEP=$((MULTI_STEP + 1))
    if ! "$FTCLOS" audit "$LAST.topo" "$before.lfts" "$LAST.lfts" --transition --sl "$before.sl" --new-sl "$LAST.sl" \
      >"$LAST.direct" 2>&1; then
      direct=unsafe
      CONTROLS=$((CONTROLS + 1))
    fi
  fi
  echo "  $name: $steps step(s), each pair safe in flight, the last sound (read back in $((SECONDS - start)) s;" \
    "at once, skipping the steps: $direct)"
}

# run_fabric NAME CABLE_INDEX...: the fabric under OpenSM; each cable (by
# its index among the switch cables) cut, then restored.
run_fabric() {
  local name=$1 net=$root/ibsim-topos/$1.net dir=$work/$1
  shift
  mkdir -p "$dir"
  SOCK=ftclos-steps-$$-$name
  HOST=$(first_ca "$net")
  NUDGES=0  # settle's count of SIGHUPs (sm_daemon.sh)
  export NUDGES
  DIR=$dir
  start_console_ibsim "$SOCK" "$net" "$dir/ibsim.log" || return 1
  start_sm "$dir" "$SOCK" "$HOST" "scheme=auto steps=wait"
  settle "$dir" 1 || return 1
  LAST=$dir/base
  read_state "$LAST" || { echo "FAIL $name: read-back of the intact fabric failed"; return 1; }
  local -a cables
  mapfile -t cables < <(python3 "$here/lft_churn.py" elements "$net" | awk -F'\t' '$1 == "cable"')
  local index a p
  for index in "$@"; do
    IFS=$'\t' read -r _ a p _ <<<"${cables[$index]}"
    change "$dir" "cut-$a-$p" "Unlink \"$a\"[$p]" || return 1
    change "$dir" "polish-cut-$a-$p" SIGHUP || return 1
    change "$dir" "restore-$a-$p" "ReLink \"$a\"[$p]" || return 1
    change "$dir" "polish-restore-$a-$p" SIGHUP || return 1
  done
  grep -a "ftclos ERR" "$dir/osm.log" && { echo "FAIL $name: ftclos ERR lines"; return 1; }
  stop_opensm
  stop_console_ibsim
}

failed=0
for fabric in "ft-8-3 0 200" "rfc-8-16-3-seed1 0"; do
  read -r name indices <<<"$fabric"
  echo "$name:"
  # shellcheck disable=SC2086
  run_fabric "$name" $indices || failed=$((failed + 1))
  stop_opensm
  stop_console_ibsim
done
echo "$MULTI_STEP changes took more than one step; skipping the steps was unsafe for $CONTROLS of them;" \
  "$UNASKED LIDs that the SA found no path to in a step (their SLs from ftclos-sl.dump alone)"
[ "$MULTI_STEP" -gt 0 ] || { echo "FAIL: no change took more than one step: the steps went untested"; failed=$((failed + 1)); }
[ "$CONTROLS" -gt 0 ] || { echo "FAIL: the audit found no change unsafe at once: it went untested"; failed=$((failed + 1)); }
[ "$failed" -eq 0 ]
