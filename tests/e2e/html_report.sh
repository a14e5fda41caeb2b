#!/usr/bin/env bash
# `ftclos audit --html` on FT(16,3) routed by dmodk, rendered by headless
# Chromium with networking off: the page stays small, loads offline (its DOM
# has the heatmap SVG with every channel's cell and the worst-link section)
# and its screenshot is not blank. Fails, not skips, without chromium:
# scripts/setup.sh installs it. Keeps the page and the screenshot for people
# to look at and prints their paths.
set -euo pipefail
FTCLOS=${FTCLOS:?set FTCLOS to the ftclos binary}
work=$(mktemp -d)
out=$(mktemp -d -t ftclos-html-report.XXXXXX)
trap 'rm -rf "$work"' EXIT

if ! command -v chromium >/dev/null; then
  echo "FAIL chromium is not installed (scripts/setup.sh installs it)"
  exit 1
fi

"$FTCLOS" gen ftree --ports 16 --levels 3 -o "$work/fabric.net" 2>/dev/null
"$FTCLOS" route "$work/fabric.net" --scheme dmodk -o "$work/lfts.dump" 2>/dev/null
"$FTCLOS" audit "$work/fabric.net" "$work/lfts.dump" --html "$out/report.html" --json "$work/audit.json" \
  >/dev/null 2>"$work/audit.err" || { cat "$work/audit.err"; echo "FAIL ftclos audit"; exit 1; }

# What auto decided is a note, not a warning: `audit --scheme auto` printed
# "warning: auto: auto chose dmodk", amber in the page (issue #31).
"$FTCLOS" gen ftree --ports 8 --levels 2 -o "$work/small.net" 2>/dev/null
"$FTCLOS" audit "$work/small.net" --scheme auto --html "$work/small.html" >"$work/small.txt" 2>&1 || true
if ! grep -q '^note: auto: auto chose' "$work/small.txt" || grep -q '^warning: auto' "$work/small.txt" ||
  grep -q '<h3>Warnings</h3>' "$work/small.html" || ! grep -q 'auto: auto chose' "$work/small.html"; then
  echo "FAIL auto's choice is not rendered as a note: $(head -4 "$work/small.txt")"
  exit 1
fi

# chromium PROFILE ARGS...: a fresh profile each run, nothing fetched, at most two minutes.
chromium_run() {
  local profile=$1
  shift
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$profile" \
    --window-size=1400,2400 "$@" 2>>"$work/chromium.log"
}

page="file://$out/report.html"
png="$out/report.png"
chromium_run "$work/profile-dom" --dump-dom "$page" >"$work/dom.html"
chromium_run "$work/profile-shot" --screenshot="$png" "$page" >/dev/null

failures=0
fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}

size=$(stat -c %s "$out/report.html")
(( size < 5 * 1024 * 1024 )) || fail "report.html is $size bytes, over 5 MB"
grep -q '<svg class="heatmap"' "$work/dom.html" || fail "the rendered DOM has no heatmap <svg>"
grep -q '<section id="worst-link"' "$work/dom.html" || fail "the rendered DOM has no worst-link section"
! grep -Eq 'https?://' "$out/report.html" || fail "report.html refers to the network"
cells_page=$(grep -o '<rect class="c ' "$out/report.html" | wc -l)
cells_dom=$(grep -o '<rect class="c ' "$work/dom.html" | wc -l)
channels=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["links"]))' "$work/audit.json")
# dmodk loads every channel of a full fat-tree, so the audit lists them all.
[ "$cells_page" -eq "$channels" ] || fail "report.html has $cells_page heatmap cells for $channels channels"
[ "$cells_dom" -eq "$cells_page" ] || fail "the rendered DOM has $cells_dom of the $cells_page heatmap cells"
if [ -f "$png" ]; then
  png_size=$(stat -c %s "$png")
  (( png_size > 20 * 1024 )) || fail "screenshot is $png_size bytes, a blank page"
else
  fail "no screenshot"; cat "$work/chromium.log"
fi

echo "report: $out/report.html ($size bytes, $cells_page heatmap cells)"
echo "screenshot: $png"
if [ "$failures" -gt 0 ]; then
  echo "$failures failures"
  exit 1
fi
echo "html report: ok"
