#!/usr/bin/env bash
# All tests: unit tests (GoogleTest) and end-to-end tests against real ibsim
# and infiniband-diags, beside them the unit tests of the parsers, the sweep
# and the channel-dependency layers and the plugin's C API test again under
# ASan+UBSan (clang), then the fuzz targets for 30 s each;
# build/test-phases.log says when each phase ended and what it cost (wall,
# CPU). README's "Tests" has the figures of a cold run and the long cases.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
start=$(date +%s)
# timed NAME CMD...: runs CMD and appends to $phases what it took: wall
# time, CPU time (user + system of CMD and every process it waited for) and
# when it ended, counted from the start.
TIMEFORMAT='%R %U %S'
timed() {
  local name=$1 took rc=0 wall user sys
  shift
  took=$(mktemp)
  { time "$@" 2>&3 3>&-; } 3>&2 2>"$took" || rc=$?
  read -r wall user sys <"$took"
  rm -f "$took"
  printf 'phase: %s: %.0f s wall, %.0f s user + %.0f s system; done after %d s\n' \
    "$name" "$wall" "$user" "$sys" $(($(date +%s) - start)) >>"$phases"
  return "$rc"
}
# build/ comes with the build: its phases are logged here first.
phases=$(mktemp)
timed "Debian packages" scripts/setup.sh --packages-only >/dev/null
timed "build (ninja -C build)" scripts/setup.sh >/dev/null
mv "$phases" build/test-phases.log
phases=build/test-phases.log

status=0

# The sanitized side at low priority, beside the e2e scripts (which mostly
# wait on ibsim and OpenSM): one clang build (ASan+UBSan, libFuzzer hooks) of
# the library up to the engine layer, of unit_tests_sanitize (the unit tests
# of the parsers, the sweep, generate_direct and the channel-dependency
# layers: meson.build lists them and says why; the others run once, in the
# gcc build) and of the fuzz targets; then unit_tests_sanitize in $shards
# shards, 2 at a time, and the plugin's C API test (plugin/engine_api_test),
# under ASan+UBSan; then the parsers of untrusted files under libFuzzer, 30 s
# each. Run in the gcc build only (~20x slower here): SweepBothWays' matrix
# (the sweep on every ibsim fabric; its cut-cable case runs here) and the
# layered scheme's suites (LayeredOnIrregular, LayeredAuto, LayeredVls,
# LayeredWorstCase, LayeredOrder: 57% of this binary's time) beside the
# channel-dependency layers' own (AcyclicLayer, CdgLayers; PreviousTables'
# rfc cases take them through a sweep), the suites that caught 7d2ec3d's bug.
# FTCLOS_SANITIZE_ALL=1 (the long case, opt-in: about 23 CPU-minutes more
# cold) runs every unit test here instead, as before issue #45, but the
# matrix suites (every scheme on every fabric of a list, ~20x slower here).
if [ -n "${FTCLOS_SANITIZE_ALL:-}" ]; then
  sanitized_tests=unit_tests
  sanitized_skip='-MultiLid.OffsetZeroAndPathBitsNoWorseThanTheBestLmcZeroOnEveryFabric:SwitchTraffic.EverySchemeRoutesSwitchesToEveryLidAndCasToEverySwitch:SweepBothWays.EveryIbsimFabricRoutesAlikeFromTheSubnetStructAndTheFile:IbsimTopos/AutoPicks.*:Generated/AttachedHosts.*:Generated/UpDownVaried.*'
  shards=6
else
  sanitized_tests=unit_tests_sanitize
  sanitized_skip='-SweepBothWays.EveryIbsimFabricRoutesAlikeFromTheSubnetStructAndTheFile:*LayeredOnIrregular.*:LayeredAuto.*:LayeredVls.*:LayeredWorstCase.*:LayeredOrder.*'
  shards=4
fi
sanitized_units() {
  local shard failed=0
  seq 0 $((shards - 1)) | xargs -P 2 -I{} sh -c 'GTEST_TOTAL_SHARDS=$3 GTEST_SHARD_INDEX=$1 UBSAN_OPTIONS=halt_on_error=1 \
    build-sanitize/$4 --gtest_brief=1 --gtest_filter="$2" >build-sanitize/unit.$1.log 2>&1' _ {} \
    "$sanitized_skip" "$shards" "$sanitized_tests" || failed=1
  for shard in $(seq 0 $((shards - 1))); do cat "build-sanitize/unit.$shard.log"; done >build-sanitize/unit.log
  [ "$failed" -eq 0 ] || { echo "sanitized unit tests failed:"; tail -50 build-sanitize/unit.log; }
  # No binary (no OpenSM headers): no result, counted as failed below.
  if [ -x build-sanitize/plugin/engine_api_test ]; then
    if UBSAN_OPTIONS=halt_on_error=1 build-sanitize/plugin/engine_api_test >build-sanitize/engine_api.log 2>&1; then
      echo "sanitized engine_api_test: ok" >>build-sanitize/engine_api.log
    else
      echo "sanitized engine_api_test: FAILED" >>build-sanitize/engine_api.log
      failed=1
    fi
    cat build-sanitize/engine_api.log
  fi
  return "$failed"
}
sanitized_side() {
  local failed=0
  # No results of an earlier run are counted when this one stops early.
  rm -f build-sanitize/unit.log build-sanitize/unit.*.log build-sanitize/engine_api.log build-sanitize/fuzz-summary.txt
  timed "sanitized build" scripts/sanitized-build.sh || return 1
  timed "sanitized unit tests" sanitized_units || failed=1
  timed "fuzz targets" tests/fuzz/run.sh 30 || failed=1
  return "$failed"
}
nice -n 15 bash -c "$(declare -f timed sanitized_units sanitized_side); TIMEFORMAT='$TIMEFORMAT'; start=$start; phases=$phases; \
  sanitized_tests=$sanitized_tests; sanitized_skip='$sanitized_skip'; shards=$shards; sanitized_side" >build/sanitized-side.log 2>&1 &
sanitized_pid=$!
timed "meson tests (unit, e2e, package)" meson test -C build --print-errorlogs --num-processes 2 || status=1
wait "$sanitized_pid" || { tail -40 build/sanitized-side.log; status=1; }
# The whole run: this shell's CPU and that of every process it waited for.
times >build/test-times.txt
python3 - build/test-times.txt $(($(date +%s) - start)) >>"$phases" <<'PY'
import re, sys
seconds = [int(m) * 60 + float(s) for m, s in re.findall(r"(\d+)m([\d.]+)s", open(sys.argv[1]).read())]
user, system = seconds[0] + seconds[2], seconds[1] + seconds[3]
print(f"whole run: {sys.argv[2]} s wall, {user:.0f} s user + {system:.0f} s system = {(user + system) / 60:.1f} CPU-minutes")
PY
cat build/sanitized-side.log
cat build/test-phases.log

# One closing line for people and CI, after one line per kind: gtest cases
# of the gcc build, the other meson tests (e2e scripts, lint, C API), gtest
# cases and the C API test under ASan+UBSan, fuzz targets.
python3 - "$root/build/meson-logs/testlog.json" "$root/build-sanitize/unit.log" "$root/build-sanitize/fuzz-summary.txt" \
  "$shards" "$root/build-sanitize/engine_api.log" <<'PY'
import collections, json, os, re, sys
counts = collections.defaultdict(lambda: [0, 0])  # kind: [passed, failed]
def count(kind, passed, failed):
    counts[kind][0] += passed
    counts[kind][1] += failed
def read(path):
    return open(path).read() if os.path.exists(path) else ""
for line in open(sys.argv[1]):
    t = json.loads(line)
    if t["name"].endswith("/ unit"):
        out = t.get("stdout", "")
        count("unit test cases (gcc)", len(re.findall(r"^\[       OK \]", out, re.M)),
              len(re.findall(r"^\[  FAILED  \] \S+\.\S+ \(", out, re.M)))
    else:
        ok = t["result"] == "OK"
        count("e2e scripts and other meson tests", ok, not ok)
san = read(sys.argv[2])
shards = re.findall(r"\[  PASSED  \] (\d+) test", san)
# A shard that crashed (ASan, UBSan's halt) prints no PASSED line: failed.
count("unit test cases (ASan+UBSan)", sum(int(n) for n in shards),
      len(re.findall(r"^\[  FAILED  \] \S+\.\S+ \(", san, re.M)) + (int(sys.argv[4]) - len(shards)))
# The plugin's C API test under ASan+UBSan: one case; no log is a failure.
api_ok = "sanitized engine_api_test: ok" in read(sys.argv[5])
count("plugin C API test (ASan+UBSan)", api_ok, not api_ok)
# No summary: the fuzz targets did not build (their build log says why).
fuzz = read(sys.argv[3])
count("fuzz targets", len(re.findall(r"^fuzz \S+: .* ok$", fuzz, re.M)),
      len(re.findall(r"^fuzz \S+: .* CRASH$", fuzz, re.M)) + (0 if fuzz.strip() else 1))
if not fuzz.strip():
    print("fuzz: no results (build-sanitize/fuzz-summary.txt missing or empty): the fuzz targets did not build or run (see above)")
for kind, (passed, failed) in counts.items():
    print(f"  {kind}: {passed} passed, {failed} failed")
print(f"tests: {sum(c[0] for c in counts.values())} passed, {sum(c[1] for c in counts.values())} failed")
PY
exit $status
