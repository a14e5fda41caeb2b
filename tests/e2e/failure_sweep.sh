#!/usr/bin/env bash
# Every single failure, in ibsim, under one OpenSM daemon with the osmftclos
# plugin per fabric (FT(8,3), clos2 3+9 r=10, MiKANT(3,3), RFC radix 8):
# cut each switch-to-switch cable in turn (console `Unlink "A"[p]`), take
# out each switch in turn (`Unlink "A"`: ibsim has no node down; this
# removes every cable of the switch), wait for the heavy sweep that the
# switches' traps cause (or a SIGHUP, when OpenSM ignores them as noisy),
# then read back what the switches hold (ibnetdiscover: the degraded
# topology, so CAs cut off entirely are not in it; dump_lfts: the LFTs) and
# audit it: every CA pair still cabled together must be reachable, with
# 0 loops and 0 credit loops. Entries that changed against the state before
# are counted, and split into the ones whose old route met the failed
# element (forced) and the rest (churn the failure did not require). Then
# the element is restored (`ReLink`) and the same is checked again.
# Also a burst of 5 simultaneous failures and one cable flapping 10 times.
#
#   failure_sweep.sh [--full] [--sample CABLES,SWITCHES] [--flaps N]
#                    [--keep-tables on|off] [--results DIR] [FABRIC...]
#
# Without --full (CI): 2 cables and 2 switches per fabric, evenly spaced
# through its list, and 2 flaps, a few minutes in all; --full: every cable,
# every switch and 10 flaps (tens of minutes).
# --keep-tables is the plugin's keep_tables option (plugin/README.md).
# --results DIR keeps every step's record (steps.tsv per fabric) there.
# The switch that OpenSM's own CA hangs on is never taken out (the SM would
# see only itself); it is said so in the summary.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/plugin_lib.sh
source "$here/plugin_lib.sh"
# shellcheck source=tests/e2e/sm_daemon.sh
source "$here/sm_daemon.sh"
root=${FTCLOS_SOURCE_ROOT:-$here/../..}
churn_tool=$here/lft_churn.py

cable_sample=2
switch_sample=2
flaps=2
keep_tables=
results=
fabrics=()
while [ $# -gt 0 ]; do
  case $1 in
    --full) cable_sample=0; switch_sample=0; flaps=10 ;;
    --sample) IFS=, read -r cable_sample switch_sample <<<"$2"; shift ;;
    --flaps) flaps=$2; shift ;;
    --keep-tables) keep_tables=$2; shift ;;
    --results) results=$2; shift ;;
    -*) echo "usage: $0 [--full] [--sample CABLES,SWITCHES] [--flaps N] [--keep-tables on|off] [--results DIR] [FABRIC...]" >&2; exit 2 ;;
    *) fabrics+=("$1") ;;
  esac
  shift
done
[ ${#fabrics[@]} -gt 0 ] || fabrics=(ft-8-3 clos2-3-9-10 mikant-3-3 rfc-8-16-3-seed1)

work=$(mktemp -d)  # kept for a look when FTCLOS_E2E_KEEP is set
cd "$work"  # diags killed hard leave sys-<pid> folders in their working directory
trap 'stop_opensm; cleanup_ibsims; [ -n "${FTCLOS_E2E_KEEP:-}" ] || rm -rf "$work"; rm -f "$PLUGIN_CHECK"' EXIT

# read_back PREFIX: the degraded topology and the LFTs as the switches have them.
read_back() {
  sim_run "$SOCK" "$HOST" timeout 120 ibnetdiscover >"$1.topo" 2>/dev/null &&
    sim_run "$SOCK" "$HOST" timeout 120 dump_lfts >"$1.lfts" 2>/dev/null
}

# audited PREFIX: audits PREFIX.topo with PREFIX.lfts (OpenSM's own
# opensm-lfts.dump stands in for a read-back the dump_lfts LinearFDBTop bug
# truncated: a table top that is a multiple of 64 loses its last block);
# prints "pairs unreachable loops credit_loops tables worst-case-contention".
audited() {
  local tables=$1.lfts
  "$FTCLOS" audit "$1.topo" "$tables" --json "$1.audit.json" >"$1.audit.err" 2>&1 || true
  if grep -q "skipped" "$1.audit.err"; then
    cp "$DIR/opensm-lfts.dump" "$1.osm-lfts"
    tables=$1.osm-lfts
    "$FTCLOS" audit "$1.topo" "$tables" --json "$1.audit.json" >"$1.audit.err" 2>&1 || true
  fi
  python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
print(c["pairs"], c["unreachable"], c["loops"], c["credit_loops"], sys.argv[2], c["worst_case_contention"])' \
    "$1.audit.json" "$(basename "$tables")" || echo "0 audit-failed - - - -"
}

STEP=0
# step DIR KIND ELEMENT PHASE CONSOLE_CMD DEAD...: applies CONSOLE_CMD,
# sweeps, reads back, audits, counts the churn against the state before, LAST
# (DEAD: the failed elements, for lft_churn.py); appends a record to
# DIR/steps.tsv and sets LAST to this state's prefix. Fails when the audit
# finds anything wrong.
step() {
  local dir=$1 kind=$2 element=$3 phase=$4 command=$5 before=$LAST engine audit churn prefix
  shift 5
  STEP=$((STEP + 1))
  prefix=$dir/state-$STEP
  sweep_after "$dir" "$command" || return 1
  installed "$dir" "$SWEEP_FROM" || return 1
  read_back "$prefix" || { echo "read-back failed after $command"; return 1; }
  engine=$(engine_since "$dir" "$SWEEP_FROM")
  audit=$(audited "$prefix")
  churn=$(python3 "$churn_tool" churn "$before.topo" "$before.lfts" "$prefix.lfts" "$@")
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$element" "$phase" "${engine:-none}" "$audit" "$churn" >>"$dir/steps.tsv"
  LAST=$prefix
  read -r pairs unreachable loops credit _ <<<"$audit"
  if [ "$pairs" = 0 ] || [ "$unreachable" != 0 ] || [ "$loops" != 0 ] || [ "$credit" != 0 ]; then
    echo "FAIL $kind $element $phase ($command): audit pairs=$pairs unreachable=$unreachable loops=$loops" \
      "credit_loops=$credit ($(head -c 600 "$prefix.audit.err"))"
    return 1
  fi
}

# installed DIR FROM: settles until the last change published after byte
# FROM has all its steps out. The plugin asks OpenSM for a sweep per step;
# under load one can start after settle's quiet window, and a read-back then
# audits a step between (its held-back or drained entries: seen once, a cold
# run read 11,420 undelivered pairs after a cut on FT(8,3)).
installed() {
  local dir=$1 from=$2 last k n
  for ((;;)); do
    last=$(tail -c +"$from" "$dir/osm.log" | grep -aoE "step [0-9]+ of [0-9]+ of the (last )?change published" | tail -1)
    [ -n "$last" ] || return 0
    read -r _ k _ n _ <<<"$last"
    [ "$k" -lt "$n" ] || return 0
    settle "$dir" $(($(stat -c %s "$dir/osm.log") + 1)) || return 1
  done
}

# negative_control DIR STALE CURRENT: the tables from before a cut, audited
# on the topology after it, must fail the audit, or the audit would not see
# a cut that the routing ignored.
negative_control() {
  local probe=$1/control
  cp "$3.topo" "$probe.topo"
  cp "$2.lfts" "$probe.lfts"
  cp "$1/opensm-lfts.dump" "$1/opensm-lfts.dump.kept"
  read -r _ unreachable loops _ <<<"$(audited "$probe")"
  mv "$1/opensm-lfts.dump.kept" "$1/opensm-lfts.dump"
  if [ "$unreachable" = 0 ] && [ "$loops" = 0 ]; then
    echo "negative control: the stale tables pass the audit of the cut fabric"
    return 1
  fi
  echo "negative control: the tables from before the cut, on the cut fabric: $unreachable unreachable, $loops loops"
}

# sampled COUNT WANTED [FIRST]: indices FIRST.. of WANTED elements of COUNT,
# evenly spaced (all of them when WANTED is 0).
sampled() {
  local count=$1 wanted=$2 first=${3:-0} stride=1
  [ "$wanted" -gt 0 ] && [ "$count" -gt "$wanted" ] && stride=$((count / wanted))
  local i
  for ((i = 0; i < count; i += stride)); do
    [ "$wanted" -gt 0 ] && [ $((i / stride)) -ge "$wanted" ] && break
    echo $((first + i))
  done
}

# sweep_fabric NAME: the whole campaign on one fabric; prints its summary.
sweep_fabric() {
  local name=$1 net=$root/ibsim-topos/$1.net dir=$work/$1 base leaf
  mkdir -p "$dir"
  DIR=$dir
  SOCK=ftclos-failsweep-$$-$name
  HOST=$(first_ca "$net")
  : >"$dir/steps.tsv"
  NUDGES=0
  start_console_ibsim "$SOCK" "$net" "$dir/ibsim.log" || return 1
  # MiKANT's own routing: auto takes layered there, whose SLs the LFT-only audit below cannot see.
  local scheme=auto
  [ "$name" != mikant-3-3 ] || scheme=mikant
  start_sm "$dir" "$SOCK" "$HOST" "scheme=$scheme${keep_tables:+ keep_tables=$keep_tables}"
  settle "$dir" 1 || return 1
  base=$dir/base
  LAST=$base
  read_back "$base" || return 1
  read -r pairs unreachable loops credit _ contention <<<"$(audited "$base")"
  [ "$unreachable$loops$credit" = 000 ] || { echo "the intact fabric fails the audit"; return 1; }
  echo "$name: intact, $pairs CA pairs, engine $(engine_since "$dir" 1), worst-case contention $contention"
  leaf=$(leaf_of "$net" "$HOST")

  local -a cables switches all
  python3 "$churn_tool" elements "$net" >"$dir/elements"
  mapfile -t cables < <(awk -F'\t' '$1 == "cable"' "$dir/elements")
  mapfile -t switches < <(awk -F'\t' -v l="$leaf" '$1 == "switch" && $2 != l' "$dir/elements")
  all=("${cables[@]}" "${switches[@]}")
  local failed=0 entry a p b q intact controlled=
  for entry in $(sampled ${#cables[@]} "$cable_sample") $(sampled ${#switches[@]} "$switch_sample" ${#cables[@]}); do
    IFS=$'\t' read -r kind a p b q <<<"${all[$entry]}"
    intact=$LAST
    if [ "$kind" = cable ]; then
      step "$dir" cable "$a[$p]-$b[$q]" cut "Unlink \"$a\"[$p]" "$a:$p" "$b:$q" || failed=$((failed + 1))
      [ -n "$controlled" ] || { controlled=1; negative_control "$dir" "$intact" "$LAST" || failed=$((failed + 1)); }
      step "$dir" cable "$a[$p]-$b[$q]" restore "ReLink \"$a\"[$p]" || failed=$((failed + 1))
    else
      step "$dir" switch "$a" cut "Unlink \"$a\"" "$a" || failed=$((failed + 1))
      step "$dir" switch "$a" restore "ReLink \"$a\"" || failed=$((failed + 1))
    fi
  done

  # A burst: 5 elements (cables and switches, a fixed draw) fail at once, then all come back.
  local -a burst dead
  mapfile -t burst < <(printf '%s\n' "${all[@]}" | shuf -n 5 --random-source=<(yes "$name"))
  local cut_cmds="" back_cmds="" label=""
  dead=()
  for entry in "${burst[@]}"; do
    IFS=$'\t' read -r kind a p b q <<<"$entry"
    if [ "$kind" = cable ]; then
      cut_cmds+="Unlink \"$a\"[$p]"$'\n'; back_cmds+="ReLink \"$a\"[$p]"$'\n'; dead+=("$a:$p" "$b:$q"); label+="$a[$p] "
    else
      cut_cmds+="Unlink \"$a\""$'\n'; back_cmds+="ReLink \"$a\""$'\n'; dead+=("$a"); label+="$a "
    fi
  done
  step "$dir" burst "${label% }" cut "${cut_cmds%$'\n'}" "${dead[@]}" || failed=$((failed + 1))
  step "$dir" burst "${label% }" restore "${back_cmds%$'\n'}" || failed=$((failed + 1))

  # One cable flaps: down, up, down, ... each state swept and audited.
  IFS=$'\t' read -r kind a p b q <<<"${cables[0]}"
  for cycle in $(seq 1 "$flaps"); do
    step "$dir" flap "$a[$p]-$b[$q]" "down-$cycle" "Unlink \"$a\"[$p]" "$a:$p" "$b:$q" || failed=$((failed + 1))
    step "$dir" flap "$a[$p]-$b[$q]" "up-$cycle" "ReLink \"$a\"[$p]" || failed=$((failed + 1))
  done
  stop_opensm
  stop_console_ibsim
  grep -c "ftclos ERR" "$dir/osm.log" >"$dir/errors" || true
  summarize "$name" "$dir/steps.tsv" "$leaf" "$(cat "$dir/errors")" "$NUDGES"
  [ -z "$results" ] || { mkdir -p "$results"; cp "$dir/steps.tsv" "$results/$name.steps.tsv"; }
  [ "$failed" -eq 0 ]
}

# summarize NAME STEPS SKIPPED_LEAF ERRORS NUDGES: counts and the worst churn of one fabric.
summarize() {
  python3 - "$@" <<'PY'
import sys
name, path, leaf, errors, nudges = sys.argv[1:6]
rows = []
for line in open(path):
    kind, element, phase, engine, audit, churn = line.rstrip("\n").split("\t")
    pairs, unreachable, loops, credit, tables, contention = audit.split()
    c = dict(kv.split("=") for kv in churn.split())
    rows.append(dict(kind=kind, element=element, phase=phase, engine=engine, tables=tables,
                     sound=unreachable == loops == credit == "0" and pairs != "0", contention=contention,
                     changed=int(c["ca"]) + int(c["sw"]), unforced=int(c["ca_unforced"]) + int(c["sw_unforced"]),
                     ca=int(c["ca"]), ca_unforced=int(c["ca_unforced"])))
states = len(rows)
sound = sum(r["sound"] for r in rows)
fallbacks = [r for r in rows if r["engine"] != "ftclos"]
osm_dumps = sum(r["tables"] != "-" and not r["tables"].endswith(".lfts") for r in rows)
def worst(kind, phase, key):
    pick = [r for r in rows if r["kind"] == kind and r["phase"].startswith(phase)]
    if not pick:
        return "-"
    top = max(pick, key=lambda r: r[key])
    return f'{top[key]} ({top["element"]})'
print(f"{name}: {states} states swept and audited, {sound} sound; "
      f"{sum(r['kind'] == 'cable' and r['phase'] == 'cut' for r in rows)} cables cut, "
      f"{sum(r['kind'] == 'switch' and r['phase'] == 'cut' for r in rows)} switches out "
      f"(not {leaf}, OpenSM's own leaf); {len(fallbacks)} sweeps not routed by ftclos"
      + (f" ({', '.join(sorted({r['kind'] + ' ' + r['element'] + ' ' + r['phase'] + ': ' + r['engine'] for r in fallbacks})[:3])})" if fallbacks else "")
      + f"; {errors} ftclos ERR lines; {osm_dumps} read-backs from opensm-lfts.dump; "
      f"{nudges} states needed a SIGHUP (their traps ignored as noisy)")
for kind in ("cable", "switch", "burst"):
    cuts = [r for r in rows if r["kind"] == kind and r["phase"] == "cut"]
    if not cuts:
        continue
    print(f"  {kind} cut: changed entries mean {sum(r['changed'] for r in cuts) / len(cuts):.1f}, worst {worst(kind, 'cut', 'changed')}; "
          f"not forced by the failure: worst {worst(kind, 'cut', 'unforced')} (CA-LID {worst(kind, 'cut', 'ca_unforced')}); "
          f"restore: worst {worst(kind, 'restore', 'changed')}")
intact = [r for r in rows if r["phase"] in ("restore",) or r["phase"].startswith("up")]
if intact:
    print(f"  worst-case contention of the intact fabric after each restore: first {intact[0]['contention']}, "
          f"largest {max(intact, key=lambda r: float(r['contention']) if r['contention'] != '-' else 0)['contention']}, "
          f"last {intact[-1]['contention']}")
downs = [r for r in rows if r["kind"] == "flap" and r["phase"].startswith("down")]
ups = [r for r in rows if r["kind"] == "flap" and r["phase"].startswith("up")]
if downs:
    print(f"  flap: {len(downs)} cycles; going down changed worst {max(r['changed'] for r in downs)} entries "
          f"({max(r['unforced'] for r in downs)} not forced), coming up worst {max(r['changed'] for r in ups or [dict(changed=0)])}")
PY
}

passed=0
failed=0
for name in "${fabrics[@]}"; do
  start=$SECONDS
  if sweep_fabric "$name" >"$work/$name.result" 2>&1; then
    passed=$((passed + 1))
    echo "ok   $name ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1))
    echo "FAIL $name ($((SECONDS - start)) s)"
  fi
  sed 's/^/     /' "$work/$name.result"
  stop_opensm
  stop_console_ibsim
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
