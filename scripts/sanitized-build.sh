#!/usr/bin/env bash
# The sanitized build, build-sanitize/: clang with ASan + UBSan and
# libFuzzer's coverage hooks. One compile of the library serves both the unit
# tests (scripts/test.sh runs them here) and the fuzz targets
# (tests/fuzz/run.sh). clang, not gcc: per file, gcc -O2 with ASan + UBSan
# took 4-6x the CPU of a plain gcc compile, clang 1.1-1.4x (2026-11-26).
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
if ! ninja -C $build unit_tests fuzz_targets >$build/build.log 2>&1; then
  echo "sanitized build failed (clang, $build/build.log):"
  grep -E "error|FAILED" $build/build.log | head -20
  exit 1
fi
