#!/usr/bin/env bash
# All tests: unit tests (GoogleTest) and end-to-end tests against real ibsim
# and infiniband-diags, then the unit tests again under ASan+UBSan (clang),
# then the fuzz targets for 30 s each. README's "Tests" says what each phase
# costs, cold and warm.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh >/dev/null

status=0
# The sanitized build (unit tests and fuzz targets, one clang compile) runs
# at low priority while the e2e scripts run: those mostly wait on ibsim and
# OpenSM, and this build is most of a cold run's CPU time.
nice -n 15 scripts/sanitized-build.sh >build/sanitized-build.log 2>&1 &
background_build=$!
meson test -C build --print-errorlogs --num-processes 2 || status=1
wait "$background_build" || { tail -30 build/sanitized-build.log; status=1; }
# Two shards at once: the sanitized suite is ~10x slower, and CI has 2 cores.
sanitized_shard() {
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$1 UBSAN_OPTIONS=halt_on_error=1 \
    build-sanitize/unit_tests --gtest_brief=1 >"build-sanitize/unit.$1.log" 2>&1
}
sanitized_shard 0 &
shard0=$!
sanitized_shard 1 &
shard1=$!
sanitized=0
wait "$shard0" || sanitized=1
wait "$shard1" || sanitized=1
cat build-sanitize/unit.0.log build-sanitize/unit.1.log >build-sanitize/unit.log
[ "$sanitized" -eq 0 ] || { tail -50 build-sanitize/unit.log; status=1; }

# The parsers of untrusted files under libFuzzer, 30 s each.
tests/fuzz/run.sh 30 || status=1

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
failed += len(re.findall(r"^\[  FAILED  \] \S+\.\S+ \(", san, re.M)) + (2 - len(shards))
# No summary: the fuzz targets did not build (their build log says why).
fuzz = open(sys.argv[3]).read() if os.path.exists(sys.argv[3]) else ""
passed += len(re.findall(r"^fuzz \S+: .* ok$", fuzz, re.M))
failed += len(re.findall(r"^fuzz \S+: .* CRASH$", fuzz, re.M)) + (0 if fuzz.strip() else 1)
if not fuzz.strip():
    print("fuzz: no results (build-sanitize/fuzz-summary.txt missing or empty): the fuzz targets did not build or run (see above)")
print(f"tests: {passed} passed, {failed} failed")
PY
exit $status
