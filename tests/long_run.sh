#!/usr/bin/env bash
# Long run: one OpenSM daemon with the osmftclos plugin built under ASan,
# through N heavy sweeps (default 200) with random failures and repairs in
# ibsim: each sweep first cuts a random switch-to-switch cable or takes out
# a random switch (at most 5 down at a time) or restores one that is down,
# then SIGHUP. Every 25 sweeps the tables are read back and audited, and
# opensm's resident memory is sampled. Passes when opensm is alive after
# all sweeps, every heavy sweep was routed by ftclos, ASan reported no
# error, LeakSanitizer found no leak with a
# frame in the plugin when opensm exited, every audited state is sound, and
# the memory after the warm-up grew by less than 10%.
#
#   tests/long_run.sh [--sweeps N] [--seed S] [FABRIC]     (default ft-8-3)
#
# Builds the plugin in build-asan/ (meson -Db_sanitize=address) and
# LD_PRELOADs libasan into the stock /usr/sbin/opensm. Not in CI (about
# 3 s per sweep); run by hand.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
here=$root/tests/e2e
sweeps=200
seed=1
fabric=ft-8-3
while [ $# -gt 0 ]; do
  case $1 in
    --sweeps) sweeps=$2; shift ;;
    --seed) seed=$2; shift ;;
    -*) echo "usage: $0 [--sweeps N] [--seed S] [FABRIC]" >&2; exit 2 ;;
    *) fabric=$1 ;;
  esac
  shift
done

asan_build=$root/build-asan
[ -d "$asan_build" ] || meson setup "$asan_build" "$root" -Db_sanitize=address -Dbuildtype=debugoptimized >/dev/null
ninja -C "$asan_build" plugin/libosmftclos.so >/dev/null
libasan=$(gcc -print-file-name=libasan.so)
# The auditor is the normal build's: only opensm runs under ASan.
export FTCLOS=${FTCLOS:-$root/build/ftclos} FTCLOS_PLUGIN_DIR=$asan_build/plugin
# shellcheck source=tests/e2e/plugin_lib.sh
source "$here/plugin_lib.sh"
# shellcheck source=tests/e2e/sm_daemon.sh
source "$here/sm_daemon.sh"

work=$(mktemp -d)
cd "$work"
trap 'stop_opensm; cleanup_ibsims; [ -n "${FTCLOS_E2E_KEEP:-}" ] || rm -rf "$work"; rm -f "$PLUGIN_CHECK"' EXIT
net=$root/ibsim-topos/$fabric.net
SOCK=ftclos-longrun-$$
HOST=$(first_ca "$net")
leaf=$(leaf_of "$net" "$HOST")
mapfile -t elements < <(python3 "$here/lft_churn.py" elements "$net" | awk -F'\t' -v l="$leaf" '$2 != l')
start_console_ibsim "$SOCK" "$net" "$work/ibsim.log"
# detect_leaks at exit; a small quarantine so resident memory reflects live
# data. Two reports that are not the plugin's stop opensm at its first MADs,
# so errors that libc interceptors find in calls from these two libraries
# are suppressed (every other error, and any in the plugin, still counts):
# ibsim's umad2sim (ibsim-utils 0.10) reads a 320-byte MAD out of a 288-byte
# buffer; and libibumad's write() of a MAD, through umad2sim, is answered
# and the MAD freed by OpenSM's receiver thread before the interceptor checks
# the buffer after the call (heap-use-after-free in umad_send).
printf '%s\n' "interceptor_via_lib:libumad2sim.so" "interceptor_via_lib:libibumad.so.3" >"$work/asan.supp"
export ASAN_OPTIONS="detect_leaks=1:log_path=$work/asan:quarantine_size_mb=16:malloc_context_size=30:suppressions=$work/asan.supp"
start_sm "$work" "$SOCK" "$HOST" "scheme=auto" "$libasan"
settle "$work" 1

rss() { awk '/^VmRSS/ { print $2 }' "/proc/$(pgrep -P "$OSM_PID" -x opensm)/status"; }
audit_now() {
  sim_run "$SOCK" "$HOST" timeout 120 ibnetdiscover >"$work/now.topo" 2>/dev/null
  sim_run "$SOCK" "$HOST" timeout 120 dump_lfts >"$work/now.lfts" 2>/dev/null
  local tables=$work/now.lfts
  "$FTCLOS" audit "$work/now.topo" "$tables" >"$work/now.audit" 2>&1 || true
  if grep -q "skipped" "$work/now.audit"; then tables=$work/opensm-lfts.dump; fi
  "$FTCLOS" audit "$work/now.topo" "$tables" >"$work/now.audit" 2>&1
}

RANDOM=$seed
declare -a down=()
unsound=0
samples=""
for i in $(seq 1 "$sweeps"); do
  if [ ${#down[@]} -gt 0 ] && { [ ${#down[@]} -ge 5 ] || [ $((RANDOM % 2)) -eq 0 ]; }; then
    pick=$((RANDOM % ${#down[@]}))
    IFS=$'\t' read -r kind a p _ <<<"${down[$pick]}"
    if [ "$kind" = cable ]; then command="ReLink \"$a\"[$p]"; else command="ReLink \"$a\""; fi
    down=("${down[@]:0:$pick}" "${down[@]:$((pick + 1))}")
  else
    # A failure that touches no switch of one already down, so that it changes
    # the fabric (an Unlink of a cable already gone makes OpenSM sweep nothing).
    touched=" $(printf '%s\n' "${down[@]}" | cut -f2,4 | tr '\t\n' '  ') "
    while :; do
      entry=${elements[$((RANDOM % ${#elements[@]}))]}
      IFS=$'\t' read -r kind a p b _ <<<"$entry"
      [[ "$touched" == *" $a "* ]] || { [ "$kind" = cable ] && [[ "$touched" == *" $b "* ]]; } || break
    done
    if [ "$kind" = cable ]; then command="Unlink \"$a\"[$p]"; else command="Unlink \"$a\""; fi
    down+=("$entry")
  fi
  echo "$i $command" >>"$work/actions"
  sweep_after "$work" "$command" || { echo "FAIL sweep $i ($command)"; exit 1; }
  if [ $((i % 25)) -eq 0 ]; then
    samples="$samples $(rss)"
    if ! audit_now; then
      unsound=$((unsound + 1))
      echo "sweep $i: the tables fail the audit: $(grep -E 'unreachable|loops' "$work/now.audit" | tr '\n' ' ')"
    fi
  fi
done

heavy=$(grep -ac "SUBNET UP" "$work/osm.log" || true)
ours=$(grep -ac "ftclos tables configured" "$work/osm.log" || true)
errs=$(grep -ac "ftclos ERR" "$work/osm.log" || true)
stop_opensm
asan_errors=$(cat "$work"/asan.* 2>/dev/null | grep -c "ERROR: AddressSanitizer" || true)
# LeakSanitizer's records are blank-line separated; count those with a frame in the plugin.
read -r plugin_leaks all_leaks < <(cat "$work"/asan.* 2>/dev/null | python3 -c '
import re, sys
records = [r for r in re.split(r"\n\s*\n", sys.stdin.read()) if re.search(r"(Direct|Indirect) leak of", r)]
print(sum(bool(re.search(r"osmftclos|ftclos", r)) for r in records), len(records))')
read -r -a rss_kb <<<"$samples"
growth=$(python3 -c 'import sys; s=[int(x) for x in sys.argv[1:]]; print(f"{100 * (s[-1] - s[1]) / s[1]:.1f}" if len(s) > 2 else "0")' "${rss_kb[@]}")
echo "$fabric: $sweeps SIGHUP sweeps with random failures and repairs; $heavy heavy sweeps, $ours routed by ftclos;" \
  "$errs ftclos ERR lines; $NUDGES needed a second SIGHUP; $unsound of $((sweeps / 25)) audited states unsound;" \
  "ASan errors $asan_errors;" \
  "leak records with a plugin frame $plugin_leaks (of $all_leaks LeakSanitizer records at exit);" \
  "opensm RSS (kB) every 25 sweeps:${samples} (growth after the first sample ${growth}%)"
[ "$asan_errors" -eq 0 ] && [ "$plugin_leaks" -eq 0 ] && [ "$unsound" -eq 0 ] && [ "$ours" -eq "$heavy" ] &&
  python3 -c 'import sys; sys.exit(float(sys.argv[1]) >= 10)' "$growth"
