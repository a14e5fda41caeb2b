#!/usr/bin/env bash
# Byte-for-byte comparison of every output of two revisions of ftclos on the
# ibsim-topos fabrics (tests/outputs/snapshot.sh, each revision with its own
# copy, so a changed command-line spelling is compared on what it prints).
# Usage: tests/outputs/compare.sh BASE_REV [HEAD_BUILD_DIR] (BASE_REV 0cee7ce or
# later: the first with this snapshot script)
# Builds BASE_REV in a worktree under build-compare/ (ccache makes the second
# time quick); exit 0 when every file is identical, 1 with a diff otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
base=$1 head_build=${2:-$root/build}
work=$root/build-compare
rm -rf "$work/base-src" "$work/base-out" "$work/head-out"
mkdir -p "$work"
git -C "$root" worktree prune
git -C "$root" worktree add --detach -f "$work/base-src" "$base" >/dev/null
trap 'git -C "$root" worktree remove --force "$work/base-src" >/dev/null 2>&1 || true' EXIT
meson setup "$work/base-build" "$work/base-src" -Dtests=false --wipe >/dev/null 2>&1 ||
  meson setup "$work/base-build" "$work/base-src" -Dtests=false >/dev/null
ninja -C "$work/base-build" ftclos >/dev/null
ninja -C "$head_build" ftclos >/dev/null
"$work/base-src/tests/outputs/snapshot.sh" "$work/base-build/ftclos" "$work/base-out"
"$root/tests/outputs/snapshot.sh" "$head_build/ftclos" "$work/head-out"
if diff -r "$work/base-out" "$work/head-out" >"$work/diff.txt"; then
  echo "outputs identical: $(ls "$work/head-out" | wc -l) files, $base vs working tree"
else
  head -60 "$work/diff.txt"
  echo "outputs differ: $(grep -c '^diff\|^Only' "$work/diff.txt") files (full diff in $work/diff.txt)"
  exit 1
fi
