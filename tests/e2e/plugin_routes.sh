#!/usr/bin/env bash
# Stock OpenSM with the osmftclos plugin routes every fabric of ibsim-topos/
# (intact and degraded) with each scheme that applies, at the LMC the scheme
# needs, and what the simulated switches end up with is exactly what
# `ftclos route` computes offline for the same fabric and LIDs:
#   1. ibsim loads the fabric; opensm -o runs one sweep with the plugin
#      (routing_engine ftclos, event_plugin_options scheme=S, lmc L);
#   2. the log must say "ftclos tables configured on all switches";
#   3. ibnetdiscover reads the fabric back (it carries OpenSM's LIDs) and
#      `ftclos route` routes that file with --scheme S --lmc L;
#   4. ibsim's console `Dump` gives every switch's LFT as programmed; entries
#      are compared by (switch GUID, destination port GUID, LID offset), so
#      the check does not rest on both sides numbering LIDs alike;
#   5. every CA reaches every other CA on each of its LIDs through the
#      read-back tables, every switch every LID and every CA every switch
#      LID (PMA queries and answers), and the plugin's path-bits file equals
#      `ftclos route --pathbits`.
# FTCLOS_E2E_CASES="fabric|scheme|lmc ..." runs those cases only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/plugin_lib.sh
source "$here/plugin_lib.sh"
root=${FTCLOS_SOURCE_ROOT:-$here/../..}
work=$(mktemp -d)  # kept for a look when FTCLOS_E2E_KEEP is set
cd "$work"  # diags killed hard leave sys-<pid> folders in their working directory
trap 'cleanup_ibsims; [ -n "${FTCLOS_E2E_KEEP:-}" ] || rm -rf "$work"; rm -f "$PLUGIN_CHECK"' EXIT

# fabric (ibsim-topos/<fabric>.net) | scheme | LMC (what the scheme needs there with
# pathbits_users=some, or a lower one: the plugin routes it alike)
cases=(
  "ft-8-2|auto|0" "ft-8-2|auto|2" "ft-8-2|dmodk|0" "ft-8-2|updown|0" "ft-8-2|osrm|2"
  "ft-8-2|nonblocking|2" "ft-8-2|mlid|2" "ft-8-2|multipath|2"
  "ft-8-3|auto|0" "ft-8-3|dmodk|0" "ft-8-3|updown|0" "ft-8-3|osrm|3" "ft-8-3|mlid|4"
  "ft-8-3-fail4|auto|0" "ft-8-3-fail4|dmodk|0" "ft-8-3-fail4|updown|0" "ft-8-3-fail4|osrm|3"
  "ft-8-2-hosts2|auto|0" "ft-8-2-hosts2|dmodk|0" "ft-8-2-hosts2|updown|0" "ft-8-2-hosts2|nonblocking|1"
  "clos2-2-4-6|auto|0" "clos2-2-4-6|dmodk|0" "clos2-2-4-6|updown|0" "clos2-2-4-6|nonblocking|1"
  "clos2-2-4-6|osrm|2" "clos2-2-4-6|mlid|1" "clos2-2-4-6|multipath|2"
  "clos2-3-9-10|auto|0" "clos2-3-9-10|auto|2" "clos2-3-9-10|dmodk|0" "clos2-3-9-10|updown|0"
  "clos2-3-9-10|nonblocking|2" "clos2-3-9-10|osrm|2"
  "kary-4-3|auto|0" "kary-4-3|dmodk|0" "kary-4-3|updown|0" "kary-4-3|multipath|4"
  "mikant-3-3|auto|0" "mikant-3-3|mikant|0"
  "mikant-4-3|auto|0" "mikant-4-3|mikant|0"
  "rfc-8-16-3-seed1|auto|0" "rfc-8-16-3-seed1|updown|0" "rfc-8-16-3-seed1|multipath|3"
  "clos2-4-4-8-io2|auto|0" "clos2-4-4-8-io2|dmodk|0" "clos2-4-4-8-io2|updown|0" "clos2-4-4-8-io2|multipath|2"
  "ft-8-3-io2-level2|auto|0" "ft-8-3-io2-level2|updown|0"
)

[ -z "${FTCLOS_E2E_CASES:-}" ] || read -r -a cases <<<"$FTCLOS_E2E_CASES"
# run_case FABRIC SCHEME LMC DIR: prints the findings; fails on the first broken check.
run_case() {
  local fabric=$1 scheme=$2 lmc=$3 dir=$4
  local net=$root/ibsim-topos/$fabric.net sock host
  sock=ftclos-plugin-routes-$$-$(basename "$dir")
  host=$(first_ca "$net")
  start_console_ibsim "$sock" "$net" "$dir/ibsim.log" || return 1
  cat >"$dir/opensm.conf" <<EOF
event_plugin_name osmftclos
event_plugin_options scheme=$scheme pathbits_file=ftclos-pathbits
routing_engine ftclos
lmc $lmc
log_flags 0x03
force_log_flush TRUE
dump_files_dir $dir
EOF
  # -o: one sweep, then opensm exits (meson's test timeout stops a hang).
  if ! run_opensm "$dir" "$sock" "$host" -o >"$dir/opensm.out" 2>&1; then
    echo "opensm failed: $(tail -3 "$dir/opensm.out")"
    return 1
  fi
  if ! grep -q "ftclos tables configured on all switches" "$dir/osm.log"; then
    echo "the ftclos engine did not configure the switches: $(grep -E 'tables configured|ftclos ERR' "$dir/osm.log" | head -3)"
    return 1
  fi
  sim_run "$sock" "$host" timeout 60 ibnetdiscover >"$dir/disc.net" 2>"$dir/disc.err" ||
    { echo "ibnetdiscover failed: $(tail -2 "$dir/disc.err")"; return 1; }
  sim_dump "$dir/sim.dump" || return 1
  stop_console_ibsim
  # --sl: the plugin's tables may rely on SLs (detour SLs for storage hosts).
  "$FTCLOS" route "$dir/disc.net" --scheme "$scheme" --lmc "$lmc" -o "$dir/expected.dump" \
    --pathbits "$dir/expected.pathbits" --sl "$dir/expected.sl" 2>"$dir/route.err" ||
    { echo "ftclos route failed: $(cat "$dir/route.err")"; return 1; }
  plugin_check compare "$dir/expected.dump" "$dir/sim.dump" "$lmc" || return 1
  plugin_check reach "$dir/sim.dump" switches || return 1
  if ! diff <(sort "$dir/expected.pathbits") <(sort "$dir/ftclos-pathbits") >"$dir/pathbits.diff"; then
    echo "path bits differ from ftclos route --pathbits:"
    head -5 "$dir/pathbits.diff"
    return 1
  fi
  echo "$(wc -l <"$dir/ftclos-pathbits") path-bits lines equal; $(grep -o 'ftclos: [a-z-]* .*; scheme [a-z]*\( chose [a-z]*\)\?' "$dir/osm.log" | head -1 | sed 's/^ftclos: \([a-z-]*\) .*; scheme /\1, /')"
}

passed=0
failed=0
i=0
for entry in "${cases[@]}"; do
  IFS='|' read -r fabric scheme lmc <<<"$entry"
  i=$((i + 1))
  dir=$work/case$i
  mkdir -p "$dir"
  start=$SECONDS
  # Not in a subshell: the simulator's PID must reach the cleanup.
  if run_case "$fabric" "$scheme" "$lmc" "$dir" >"$dir/result" 2>&1; then
    passed=$((passed + 1))
    echo "ok   $fabric --scheme $scheme --lmc $lmc ($((SECONDS - start)) s): $(tr '\n' ' ' <"$dir/result" | sed 's/ *$//')"
  else
    failed=$((failed + 1))
    echo "FAIL $fabric --scheme $scheme --lmc $lmc: $(cat "$dir/result")"
    grep -E "ftclos: |tables configured" "$dir/osm.log" 2>/dev/null | sed 's/^[^>]*-> /    log: /' | head -30
  fi
  stop_console_ibsim
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
