#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) into build-sanitize/
# (scripts/sanitized-build.sh, which builds the sanitized unit tests too),
# seeds each from the ibsim-topos fabrics, from ftclos's own dumps and
# path-bits files of them and from plugin option strings, runs each for
# SECONDS (default 60), and reports executions and crashes, also in
# build-sanitize/fuzz-summary.txt. Exit 1 when a target crashed; the crashing
# input is kept in build-sanitize/crashes/<target>/. Targets run side by
# side, one per CPU.
# Usage: tests/fuzz/run.sh [SECONDS | --build-only]
set -euo pipefail
seconds=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=build-sanitize
scripts/sanitized-build.sh
targets=(netfile lft path_bits engine_options mcfdbs sl2vl)
[ "$seconds" != --build-only ] || exit 0

# Seeds: real inputs of each kind, made by the regular build's ftclos.
[ -x build/ftclos ] || ninja -C build ftclos >/dev/null
corpus=$build/corpus
rm -rf "$corpus" && mkdir -p "$corpus"/{netfile,lft,path_bits,engine_options,mcfdbs,sl2vl} $build/crashes
cp ibsim-topos/*.net "$corpus/netfile/"
build/ftclos gen ftree --ports 4 --levels 2 -o $build/ft-4-2.net 2>/dev/null
for lmc in 0 1 2; do
  dump="$corpus/lft/mlid-lmc$lmc.dump"
  build/ftclos route $build/ft-4-2.net --scheme mlid --lmc $lmc -o "$dump" --pathbits $build/bits 2>/dev/null
  # The same tables with their guid2lid file after a NUL byte (lft_fuzz.cc's input).
  { cat "$dump"; printf '\0'; python3 -c '
import re, sys
runs = {}
for lid, guid in re.findall(r"^(0x[0-9a-f]+) \d+ # .*portguid (0x[0-9a-f]+)", open(sys.argv[1]).read(), re.M):
    low, high = runs.get(guid, (int(lid, 16), 0))
    runs[guid] = (min(low, int(lid, 16)), max(high, int(lid, 16)))
for guid, (low, high) in runs.items(): print(f"{guid} {low:#x} {high:#x}")' "$dump"
  } >"$corpus/lft/mlid-lmc$lmc-guid2lid"
  { printf "\\x$(printf %02x $lmc)"; cat $build/bits; } >"$corpus/path_bits/lmc$lmc"
done

printf 'scheme=auto pathbits_file=ftclos-pathbits' >"$corpus/engine_options/default"
# A group over FT(4,2)'s first leaf and spine, as OpenSM dumps it.
printf '\nSwitch 0xf7c1000000000001\nLID    : Out Port(s)\n0xC001 : 0x001  0x002  0x003 \n\nSwitch 0xf7c1000000000005\nLID    : Out Port(s)\n0xC001 : 0x001 \n' \
  >"$corpus/mcfdbs/leaf-and-spine"
printf 'scheme=osrm,lmc_shortfall=refuse\tunreachable=allow' >"$corpus/engine_options/all"
# Both SL2VL formats, on LIDs 1-3 of FT(4,2) (switches and CAs: the fuzzer finds the rest).
for lid in 1 2 3; do
  printf '# SL2VL table: Lid %d\n#                 SL: | 0| 1| 2| 3| 4| 5| 6| 7| 8| 9|10|11|12|13|14|15|\nports: in  0, out  1: | 0| 1| 2| 3| 4| 5| 6| 7| 0| 1| 2| 3| 4| 5| 6| 7|\nports: in  2, out  1: | 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0|15|\n' \
    "$lid" >"$corpus/sl2vl/smpquery-$lid"
  printf 'Switch 0xf7c1000000000001, base LID %d, "L1-0"\n#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n0   1   : 0  1  2  3  4  5  6  7  0  1  2  3  4  5  6  7 \n2   1   : 0  1  2  3  4  5  6  7  0  1  2  3  4  5  6  7 \n' \
    "$lid" >"$corpus/sl2vl/dump-$lid"
done

# fuzz TARGET: runs one target for $seconds; its summary line goes to
# $build/TARGET.result, the crash's first lines after it.
fuzz() {
  local target=$1 log=$build/$1.log result runs
  mkdir -p "$build/crashes/$target"
  if "$build/${target}_fuzz" "$corpus/$target" -dict="tests/fuzz/$target.dict" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
      -artifact_prefix="$build/crashes/$target/" -print_final_stats=1 >"$log" 2>&1; then
    result=ok
  else
    result=CRASH
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  echo "fuzz $target: ${runs:-0} executions in ${seconds} s, $result" >"$build/$target.result"
  [ $result = ok ] || grep -m5 -E "ERROR|SUMMARY|runtime error|Test unit written" "$log" >>"$build/$target.result" || true
}

# As many targets at once as there are CPUs: each fuzzes on one.
cpus=$(nproc)
running=0
rm -f "$build"/*.result
for target in "${targets[@]}"; do
  if ((running >= cpus)); then
    wait -n || true  # a target that died early leaves no result: said below
    running=$((running - 1))
  fi
  fuzz "$target" &
  running=$((running + 1))
done
wait

status=0
: >$build/fuzz-summary.txt
for target in "${targets[@]}"; do
  if [ ! -s "$build/$target.result" ]; then
    echo "fuzz $target: no result (see $build/$target.log)"
    status=1
    continue
  fi
  head -1 "$build/$target.result" | tee -a $build/fuzz-summary.txt
  tail -n +2 "$build/$target.result"
  grep -q ", ok$" "$build/$target.result" || status=1
done
exit $status
