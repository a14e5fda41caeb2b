#!/usr/bin/env bash
# The sanitized build, build-sanitize/: clang with ASan + UBSan and
# libFuzzer's coverage hooks. One compile of the library (its layers up to
# engine, and the fabric files) serves the unit tests of the parsers, the
# sweep and the channel-dependency layers (unit_tests_sanitize: meson.build
# says which), the plugin's C API test (plugin/engine_api_test) and the fuzz
# targets (tests/fuzz/run.sh); scripts/test.sh runs the first two here.
# clang, not gcc: per file, gcc -O2 with ASan + UBSan took 4-6x the CPU of a
# plain gcc compile, clang 1.1-1.4x (2026-11-26).
# Usage: scripts/sanitized-build.sh   (the log of a failed build is printed)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-sanitize
# A build-sanitize/ of an older layout (gcc, no fuzz hooks) is set up anew.
if ! grep -qs 'clang++' $build/build.ninja ||
   ! grep -qs '"name": "fuzz", "value": true' $build/meson-info/intro-buildoptions.json; then
  rm -rf $build
  # Meson puts ccache in front only of compilers it finds itself, not of CC/CXX.
  ccache=$(command -v ccache || true)
  CC="${ccache:+ccache }clang" CXX="${ccache:+ccache }clang++" meson setup $build -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
    -Dbenchmarks=disabled >/dev/null
fi
targets=(unit_tests_sanitize fuzz_targets)
# FTCLOS_SANITIZE_ALL=1 (scripts/test.sh's long case): every unit test too.
[ -z "${FTCLOS_SANITIZE_ALL:-}" ] || targets+=(unit_tests)
# The plugin's C API test, where OpenSM's headers are (plugin/meson.build).
! grep -qs '^build plugin/engine_api_test:' $build/build.ninja || targets+=(plugin/engine_api_test)
if ! ninja -C $build "${targets[@]}" >$build/build.log 2>&1; then
  echo "sanitized build failed (clang, $build/build.log):"
  grep -E "error|FAILED" $build/build.log | head -20
  exit 1
fi
