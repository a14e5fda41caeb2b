#!/usr/bin/env bash
# Long run: one OpenSM daemon with the osmftclos plugin built under ASan,
# through N heavy sweeps (default 200) with random failures and repairs in
# ibsim: each sweep first cuts a random switch-to-switch cable or takes out
# a random switch (at most 5 down at a time) or restores one that is down,
# then waits for the sweep. Every 25 sweeps everything down is restored
# (one more sweep), the tables are read back and audited, and opensm's live heap
# (ASan's count of bytes allocated and not freed, read with gdb) and
# resident memory are sampled: always on the same intact fabric, so live
# data should be the same each time. Passes when opensm is alive after all
# sweeps, every heavy sweep was routed by ftclos, ASan reported no error,
# LeakSanitizer found no leak with a frame in the plugin when opensm exited,
# every audited state is sound, and the live heap after the warm-up (the
# first sample) grew by less than 64 kB per 100 sweeps.
#
#   tests/long_run.sh [--sweeps N] [--seed S] [--control] [FABRIC]   (default ft-8-3)
#
# --control: the same run with stock OpenSM's updn and no plugin, to tell
# OpenSM's own growth from the plugin's.
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
options=scheme=auto
engine=ftclos
while [ $# -gt 0 ]; do
  case $1 in
    --sweeps) sweeps=$2; shift ;;
    --seed) seed=$2; shift ;;
    --control) options=none; engine=updn ;;
    -*) echo "usage: $0 [--sweeps N] [--seed S] [--control] [FABRIC]" >&2; exit 2 ;;
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
start_sm "$work" "$SOCK" "$HOST" "$options" "$libasan"
settle "$work" 1

rss() { awk '/^VmRSS/ { print $2 }' "/proc/$(opensm_pid)/status"; }
# Live heap bytes: ASan's allocator counts what is allocated and not yet
# freed (quarantined blocks excluded), unlike RSS, which allocator caches
# and the quarantine inflate.
live_heap() {
  timeout 120 gdb -p "$(opensm_pid)" -batch \
    -ex 'print (unsigned long)__sanitizer_get_current_allocated_bytes()' 2>/dev/null | awk '/^\$1 = / { print $3 }'
}
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
heap_samples=""
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
    if [ ${#down[@]} -gt 0 ]; then
      restore=""
      for entry in "${down[@]}"; do
        IFS=$'\t' read -r kind a p _ <<<"$entry"
        if [ "$kind" = cable ]; then restore+="ReLink \"$a\"[$p]"$'\n'; else restore+="ReLink \"$a\""$'\n'; fi
      done
      down=()
      echo "$i restore all" >>"$work/actions"
      sweep_after "$work" "${restore%$'\n'}" || { echo "FAIL restoring all after sweep $i"; exit 1; }
    fi
    heap_samples="$heap_samples $(live_heap)"
    samples="$samples $(rss)"
    if ! audit_now; then
      unsound=$((unsound + 1))
      echo "sweep $i: the tables fail the audit: $(grep -E 'unreachable|loops' "$work/now.audit" | tr '\n' ' ')"
    fi
  fi
done

heavy=$(grep -ac "SUBNET UP" "$work/osm.log" || true)
ours=$(grep -ac "$engine tables configured" "$work/osm.log" || true)
errs=$(grep -ac "ftclos ERR" "$work/osm.log" || true)
stop_opensm
asan_errors=$(cat "$work"/asan.* 2>/dev/null | grep -c "ERROR: AddressSanitizer" || true)
# LeakSanitizer's records are blank-line separated; count those with a frame in the plugin.
read -r plugin_leaks all_leaks < <(cat "$work"/asan.* 2>/dev/null | python3 -c '
import re, sys
records = [r for r in re.split(r"\n\s*\n", sys.stdin.read()) if re.search(r"(Direct|Indirect) leak of", r)]
print(sum(bool(re.search(r"osmftclos|ftclos", r)) for r in records), len(records))')
read -r -a heap <<<"$heap_samples"
[ ${#heap[@]} -eq $((sweeps / 25)) ] || { echo "FAIL: live heap sampled ${#heap[@]} times of $((sweeps / 25)) (gdb attach?)"; exit 1; }
# Growth per 100 sweeps after the first sample, from a least-squares slope (noise of single samples averages out).
growth=$(python3 -c '
import sys
s = [int(x) for x in sys.argv[1:]]
x = [25 * (i + 1) for i in range(len(s))][1:]; y = s[1:]
if len(y) < 2: print(0); sys.exit()
mx, my = sum(x) / len(x), sum(y) / len(y)
print(round(100 * sum((a - mx) * (b - my) for a, b in zip(x, y)) / sum((a - mx) ** 2 for a in x)))' "${heap[@]}")
echo "$fabric: $sweeps sweeps with random failures and repairs; $heavy heavy sweeps, $ours routed by $engine;" \
  "$errs ftclos ERR lines; $NUDGES needed a SIGHUP (traps ignored as noisy); $unsound of $((sweeps / 25)) audited states unsound;" \
  "ASan errors $asan_errors;" \
  "leak records with a plugin frame $plugin_leaks (of $all_leaks LeakSanitizer records at exit);" \
  "every 25 sweeps on the intact fabric: opensm live heap (bytes)${heap_samples}, RSS (kB)${samples};" \
  "live heap growth after the first sample: $growth bytes per 100 sweeps"
[ "$asan_errors" -eq 0 ] && [ "$plugin_leaks" -eq 0 ] && [ "$unsound" -eq 0 ] && [ "$ours" -eq "$heavy" ] &&
  [ "$growth" -lt 65536 ]
