#!/usr/bin/env bash
# All tests: unit tests (GoogleTest) and end-to-end tests against real ibsim
# and infiniband-diags, then the unit tests again under ASan+UBSan (clang),
# then the fuzz targets for 30 s each; build/test-phases.log says when each
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
# wait on ibsim and OpenSM): one clang build of the unit tests and fuzz
# targets (most of a cold run's CPU time), the unit tests under ASan+UBSan
# in 6 shards, 2 at a time (one each per core, balanced better than 2 big
# ones), then the parsers of untrusted files under libFuzzer, 30 s each.
# The matrix suites (every scheme on every fabric of a list: about 70 of
# the gcc run's 100 s) run in the gcc build only: this build runs them
# ~20x slower (AutoPicks on ft-8-3-fail4: 35.8 s against 1.7 s) through
# the code paths the per-scheme tests already take here.
sanitized_skip='-MultiLid.OffsetZeroAndPathBitsNoWorseThanTheBestLmcZeroOnEveryFabric:SwitchTraffic.EverySchemeRoutesSwitchesToEveryLidAndCasToEverySwitch:SweepBothWays.EveryIbsimFabricRoutesAlikeFromTheSubnetStructAndTheFile:IbsimTopos/AutoPicks.*:Generated/AttachedHosts.*:Generated/UpDownVaried.*'
sanitized_side() {
  scripts/sanitized-build.sh || return 1
  phase "sanitized build"
  local shard failed=0
  rm -f build-sanitize/unit.*.log
  seq 0 5 | xargs -P 2 -I{} sh -c 'GTEST_TOTAL_SHARDS=6 GTEST_SHARD_INDEX=$1 UBSAN_OPTIONS=halt_on_error=1 \
    build-sanitize/unit_tests --gtest_brief=1 --gtest_filter="$2" >build-sanitize/unit.$1.log 2>&1' _ {} \
    "$sanitized_skip" || failed=1
  for shard in 0 1 2 3 4 5; do cat "build-sanitize/unit.$shard.log"; done >build-sanitize/unit.log
  [ "$failed" -eq 0 ] || { echo "sanitized unit tests failed:"; tail -50 build-sanitize/unit.log; }
  phase "sanitized unit tests"
  tests/fuzz/run.sh 30 || failed=1
  phase "fuzz targets"
  return "$failed"
}
nice -n 15 bash -c "$(declare -f phase sanitized_side); start=$start; sanitized_skip='$sanitized_skip'; sanitized_side" \
  >build/sanitized-side.log 2>&1 &
sanitized_pid=$!
meson test -C build --print-errorlogs --num-processes 2 || status=1
phase "meson tests (unit, e2e, package)"
wait "$sanitized_pid" || { tail -40 build/sanitized-side.log; status=1; }
cat build/sanitized-side.log
cat build/test-phases.log

# One closing line for people and CI: gtest cases, e2e scripts, fuzz targets.
python3 - "$root/build/meson-logs/testlog.json" "$root/build-sanitize/unit.log" "$root/build-sanitize/fuzz-summary.txt" <<'PY'
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
san = open(sys.argv[2]).read()
shards = re.findall(r"\[  PASSED  \] (\d+) test", san)
passed += sum(int(n) for n in shards)
failed += len(re.findall(r"^\[  FAILED  \] \S+\.\S+ \(", san, re.M)) + (6 - len(shards))
# No summary: the fuzz targets did not build (their build log says why).
fuzz = open(sys.argv[3]).read() if os.path.exists(sys.argv[3]) else ""
passed += len(re.findall(r"^fuzz \S+: .* ok$", fuzz, re.M))
failed += len(re.findall(r"^fuzz \S+: .* CRASH$", fuzz, re.M)) + (0 if fuzz.strip() else 1)
if not fuzz.strip():
    print("fuzz: no results (build-sanitize/fuzz-summary.txt missing or empty): the fuzz targets did not build or run (see above)")
print(f"tests: {passed} passed, {failed} failed")
PY
exit $status
