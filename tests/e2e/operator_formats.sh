#!/usr/bin/env bash
# The fabric files operators have, produced by the real tools on ibsim, read
# to the same fabric and tables as plain `ibnetdiscover` + opensm-lfts.dump
# (issue #31). Per fabric: stock OpenSM routes a private ibsim once and
# leaves opensm-lfts.dump, opensm.fdbs and opensm-subnet.lst; ibnetdiscover
# (plain, -g, -p, --cache) and iblinkinfo read the subnet. Then:
# - `ftclos route` of every topology format writes the dump of the plain
#   reading byte for byte (names, GUIDs, LIDs, cables, descriptions), and
#   `ftclos audit FORMAT opensm-lfts.dump` the same report;
# - a terminal capture of ibnetdiscover (CRLF, tabs lost, a banner, an
#   ibnetdiscover warning and shell prompts around it) reads the same, with
#   a warning per repair;
# - `ftclos audit plain opensm.fdbs` reports what `audit plain
#   opensm-lfts.dump` does;
# - a damaged file of each format fails with exit 2, file:line and what was
#   expected.
# Negative control: the plain reading of another fabric routes differently.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
FTCLOS=${FTCLOS:?set FTCLOS to the ftclos binary}
root=${FTCLOS_SOURCE_ROOT:-$here/../..}
enter_workdir

fabrics=(ft-8-2 ft-8-3-fail4 clos2-4-4-8-io2)
failures=0
fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}

# capture FABRIC DIR: the subnet's files, as the real tools write them.
capture() {
  local fabric=$1 dir=$2 net=$root/ibsim-topos/$1.net sock=ftclos-formats-$$-$1
  start_ibsim "$sock" "$net" "$dir/ibsim.log" || return 1
  local host
  host=$(first_ca "$net")
  printf 'log_flags 0x43\ndump_files_dir %s\n' "$dir" >"$dir/opensm.conf"
  (cd "$dir" && OSM_CACHE_DIR=$dir OSM_TMP_DIR=$dir sim_run "$sock" "$host" timeout 120 \
    opensm -F "$dir/opensm.conf" -f "$dir/osm.log" -o >"$dir/opensm.out" 2>&1) ||
    { echo "opensm failed: $(tail -3 "$dir/opensm.out")"; return 1; }
  sim_run "$sock" "$host" timeout 60 ibnetdiscover >"$dir/plain.disc" 2>>"$dir/diags.err"
  sim_run "$sock" "$host" timeout 60 ibnetdiscover -g >"$dir/grouping.disc" 2>>"$dir/diags.err"
  sim_run "$sock" "$host" timeout 60 ibnetdiscover -p >"$dir/ports.txt" 2>>"$dir/diags.err"
  sim_run "$sock" "$host" timeout 60 ibnetdiscover --cache "$dir/cache.ibnd" >/dev/null 2>>"$dir/diags.err"
  sim_run "$sock" "$host" timeout 60 iblinkinfo >"$dir/iblinkinfo.txt" 2>>"$dir/diags.err"
  stop_ibsim "${IBSIM_PIDS[-1]}"
  # A terminal capture of the plain run: CRLF line ends, every tab lost, a
  # script(1) banner, an ibnetdiscover warning and prompts around it.
  {
    echo 'Script started on 2026-11-27 02:10:00+00:00 [TERM="xterm-256color"]'
    echo "ibwarn: [4121] mad_rpc: _do_madrpc failed; dport (DR path slid 0; dlid 0; 0,1,3)"
    echo 'admin@login1:~$ sudo ibnetdiscover'
    tr -d '\t' <"$dir/plain.disc"
    echo 'admin@login1:~$ exit'
  } | sed 's/$/\r/' >"$dir/capture.txt"
}

# route_dump TOPO OUT: ftclos route's dump of TOPO (the topology's LIDs).
route_dump() {
  "$FTCLOS" -q route "$1" -o "$2" 2>"$2.err" || { echo "route $(basename "$1") failed: $(tail -2 "$2.err")"; return 1; }
}

# audit_report TOPO TABLES OUT [unordered]: the audit's JSON (exit 0 or 1: it
# ran) without the files' names and the example cycles, which are the first
# found in the order the file lists nodes (their count stays). unordered: for
# a file that lists nodes in another order than ibnetdiscover (OpenSM's
# opensm-subnet.lst), lists sorted and the worst link and witness pairs, the
# first of equals in that order, left out.
audit_report() {
  local rc=0
  "$FTCLOS" -q audit "$1" "$2" --json "$3.json" >"$3.txt" 2>&1 || rc=$?
  [ "$rc" -le 1 ] || { echo "audit $(basename "$1") $(basename "$2") failed: $(tail -2 "$3.txt")"; return 1; }
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for key in "tables", "topology", "examples":
  d.pop(key)
if len(sys.argv) > 2:
  for key in "worst_link", "witness":
    d.pop(key)
  for key, value in d.items():
    if isinstance(value, list):
      d[key] = sorted(value, key=lambda item: json.dumps(item, sort_keys=True))
print(json.dumps(d, sort_keys=True, indent=1))' "$3.json" ${4:+"$4"} >"$3"
}

# damaged FILE LINE EXPECTED: FILE fails with exit 2 naming FILE:LINE and EXPECTED.
damaged() {
  local rc=0
  "$FTCLOS" -q detect "$1" >"$1.out" 2>&1 || rc=$?
  if [ "$rc" != 2 ] || ! grep -qF "$(basename "$1"):$2:" "$1.out" || ! grep -qF "$3" "$1.out"; then
    fail "damaged $(basename "$1"): exit $rc, expected 2 with \"$(basename "$1"):$2:\" and \"$3\": $(head -c 300 "$1.out")"
  fi
}

formats=(grouping.disc ports.txt cache.ibnd iblinkinfo.txt opensm-subnet.lst capture.txt)
compared=0
for fabric in "${fabrics[@]}"; do
  dir=$work/$fabric
  mkdir -p "$dir"
  capture "$fabric" "$dir" || { fail "$fabric: capture"; continue; }
  route_dump "$dir/plain.disc" "$dir/plain.dump" || { fail "$fabric: plain"; continue; }
  audit_report "$dir/plain.disc" "$dir/opensm-lfts.dump" "$dir/plain.audit" || { fail "$fabric: plain audit"; continue; }
  for format in "${formats[@]}"; do
    route_dump "$dir/$format" "$dir/$format.dump" || { fail "$fabric/$format"; continue; }
    cmp -s "$dir/plain.dump" "$dir/$format.dump" ||
      fail "$fabric/$format: route's dump differs from the plain reading's: $(diff "$dir/plain.dump" "$dir/$format.dump" | head -4)"
    unordered=
    if [ "$format" = opensm-subnet.lst ]; then
      unordered=unordered
      audit_report "$dir/plain.disc" "$dir/opensm-lfts.dump" "$dir/plain.audit.unordered" unordered
    fi
    audit_report "$dir/$format" "$dir/opensm-lfts.dump" "$dir/$format.audit" $unordered ||
      { fail "$fabric/$format audit"; continue; }
    cmp -s "$dir/plain.audit${unordered:+.unordered}" "$dir/$format.audit" ||
      fail "$fabric/$format: audit differs from the plain reading's: $(diff "$dir/plain.audit" "$dir/$format.audit" | head -4)"
    compared=$((compared + 1))
  done
  # Every repair of the capture is said.
  "$FTCLOS" -q detect "$dir/capture.txt" >/dev/null 2>"$dir/capture.err" || true
  for repair in "end in CR LF" ':1: skipped "Script started' ':2: skipped "ibwarn:' ':3: skipped "admin@login1' \
    'skipped "admin@login1:~$ exit"' "tabs lost"; do
    grep -qF "$repair" "$dir/capture.err" || fail "$fabric/capture.txt: no warning \"$repair\": $(head -3 "$dir/capture.err")"
  done
  audit_report "$dir/plain.disc" "$dir/opensm.fdbs" "$dir/fdbs.audit" || { fail "$fabric: fdbs audit"; continue; }
  cmp -s "$dir/plain.audit" "$dir/fdbs.audit" ||
    fail "$fabric: audit of opensm.fdbs differs from opensm-lfts.dump's: $(diff "$dir/plain.audit" "$dir/fdbs.audit" | head -4)"
  compared=$((compared + 1))
done

# Damaged files: one line of each format cut short.
dir=$work/${fabrics[0]}
nth_line() {  # nth_line N REGEX FILE: the number of the Nth line matching REGEX (one process: no SIGPIPE)
  awk -v n="$1" -v re="$2" '$0 ~ re && ++seen == n { print NR; exit }' "$3"
}
cut_line() {  # cut_line FILE LINE OUT: FILE with line LINE cut to its first 12 characters
  awk -v n="$2" 'NR == n { $0 = substr($0, 1, 12) } { print }' "$1" >"$3"
}
line=$(nth_line 1 '^\\[' "$dir/plain.disc")
cut_line "$dir/plain.disc" "$line" "$work/cut.disc"
damaged "$work/cut.disc" "$line" 'expected "peer"[port]'
line=$(nth_line 5 ' - ' "$dir/ports.txt")
cut_line "$dir/ports.txt" "$line" "$work/cut-ports.txt"
damaged "$work/cut-ports.txt" "$line" "(ibnetdiscover -p)"
line=$(nth_line 3 '==>' "$dir/iblinkinfo.txt")
cut_line "$dir/iblinkinfo.txt" "$line" "$work/cut-iblinkinfo.txt"
damaged "$work/cut-iblinkinfo.txt" "$line" "(iblinkinfo)"
cut_line "$dir/opensm-subnet.lst" 2 "$work/cut-subnet.lst"
damaged "$work/cut-subnet.lst" 2 "(opensm-subnet.lst)"
head -c 3000 "$dir/cache.ibnd" >"$work/cut.ibnd"
rc=0
"$FTCLOS" -q detect "$work/cut.ibnd" >"$work/cut.ibnd.out" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "cut.ibnd: libibnetdisc cannot load it" "$work/cut.ibnd.out" ||
  fail "a truncated cache: exit $rc, $(head -c 300 "$work/cut.ibnd.out")"
line=$(nth_line 5 '^0x' "$dir/opensm.fdbs")
cp "$dir/opensm.fdbs" "$work/cut.fdbs"
sed -i "${line}s/.*/0x0005 :/" "$work/cut.fdbs"
rc=0
"$FTCLOS" -q audit "$dir/plain.disc" "$work/cut.fdbs" >"$work/cut.fdbs.out" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -qF "cut.fdbs:$line: expected \"0xLLLL : PPP" "$work/cut.fdbs.out" ||
  fail "a damaged opensm.fdbs: exit $rc, $(head -c 300 "$work/cut.fdbs.out")"

# Negative control: another fabric's reading routes differently.
route_dump "$work/${fabrics[1]}/plain.disc" "$work/other.dump"
! cmp -s "$work/${fabrics[0]}/plain.dump" "$work/other.dump" || fail "negative control: two fabrics route alike"

echo "operator_formats: ${#fabrics[@]} fabrics, $compared readings equal to plain ibnetdiscover + opensm-lfts.dump, $failures failures"
[ "$failures" = 0 ]
