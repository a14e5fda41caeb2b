#!/usr/bin/env bash
# All tests: unit tests (GoogleTest) and end-to-end tests against real ibsim
# and infiniband-diags, beside them the unit tests of the parsers, the sweep
# and the channel-dependency layers and the plugin's C API test again under
# ASan+UBSan (clang), then the fuzz targets for 30 s each; build/test-phases.log says when each
# phase ended. README's "Tests" says what each phase costs, cold and warm.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
start=$(date +%s)
scripts/setup.sh >/dev/null
phase() { echo "phase: $1 done after $(($(date +%s) - start)) s" >>build/test-phases.log; }
: >build/test-phases.log
phase "setup and build"

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
sanitized_skip='-SweepBothWays.EveryIbsimFabricRoutesAlikeFromTheSubnetStructAndTheFile:*LayeredOnIrregular.*:LayeredAuto.*:LayeredVls.*:LayeredWorstCase.*:LayeredOrder.*'
shards=4
sanitized_side() {
  # No results of an earlier run are counted when this one stops early.
  rm -f build-sanitize/unit.log build-sanitize/unit.*.log build-sanitize/engine_api.log build-sanitize/fuzz-summary.txt
  scripts/sanitized-build.sh || return 1
  phase "sanitized build"
  local shard failed=0
  seq 0 $((shards - 1)) | xargs -P 2 -I{} sh -c 'GTEST_TOTAL_SHARDS=$3 GTEST_SHARD_INDEX=$1 UBSAN_OPTIONS=halt_on_error=1 \
    build-sanitize/unit_tests_sanitize --gtest_brief=1 --gtest_filter="$2" >build-sanitize/unit.$1.log 2>&1' _ {} \
    "$sanitized_skip" "$shards" || failed=1
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
  phase "sanitized unit tests"
  tests/fuzz/run.sh 30 || failed=1
  phase "fuzz targets"
  return "$failed"
}
nice -n 15 bash -c "$(declare -f phase sanitized_side); start=$start; sanitized_skip='$sanitized_skip'; shards=$shards; sanitized_side" \
  >build/sanitized-side.log 2>&1 &
sanitized_pid=$!
meson test -C build --print-errorlogs --num-processes 2 || status=1
phase "meson tests (unit, e2e, package)"
wait "$sanitized_pid" || { tail -40 build/sanitized-side.log; status=1; }
cat build/sanitized-side.log
cat build/test-phases.log

# One closing line for people and CI: gtest cases, e2e scripts, fuzz targets.
python3 - "$root/build/meson-logs/testlog.json" "$root/build-sanitize/unit.log" "$root/build-sanitize/fuzz-summary.txt" \
  "$shards" "$root/build-sanitize/engine_api.log" <<'PY'
import json, os, re, sys
passed = failed = 0
for line in open(sys.argv[1]):
    t = json.loads(line)
    if t["name"].endswith("/ unit"):
        out = t.get("stdout", "")
        passed += sum(1 for _ in re.finditer(r"^\[       OK \]", out, re.M))
        failed += sum(1 for _ in re.finditer(r"^\[  FAILED  \] \S+\.\S+ \(", out, re.M))
    else:
        ok = t["result"] == "OK"
        passed += ok
        failed += not ok
san = open(sys.argv[2]).read() if os.path.exists(sys.argv[2]) else ""
shards = re.findall(r"\[  PASSED  \] (\d+) test", san)
passed += sum(int(n) for n in shards)
# A shard that crashed (ASan, UBSan's halt) prints no PASSED line: failed.
failed += len(re.findall(r"^\[  FAILED  \] \S+\.\S+ \(", san, re.M)) + (int(sys.argv[4]) - len(shards))
# The plugin's C API test under ASan+UBSan: one case; no log is a failure.
api = open(sys.argv[5]).read() if os.path.exists(sys.argv[5]) else ""
api_ok = "sanitized engine_api_test: ok" in api
passed += api_ok
failed += not api_ok
# No summary: the fuzz targets did not build (their build log says why).
fuzz = open(sys.argv[3]).read() if os.path.exists(sys.argv[3]) else ""
passed += len(re.findall(r"^fuzz \S+: .* ok$", fuzz, re.M))
failed += len(re.findall(r"^fuzz \S+: .* CRASH$", fuzz, re.M)) + (0 if fuzz.strip() else 1)
if not fuzz.strip():
    print("fuzz: no results (build-sanitize/fuzz-summary.txt missing or empty): the fuzz targets did not build or run (see above)")
print(f"tests: {passed} passed, {failed} failed")
PY
exit $status
