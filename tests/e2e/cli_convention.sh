#!/usr/bin/env bash
# One CLI convention: usage errors exit 2 with CLI11's message, --version
# prints meson's version, --json - puts exactly one JSON document on stdout
# (the same as --json FILE), progress lines reach a terminal only and -q
# silences them.
set -uo pipefail
FTCLOS=${FTCLOS:?set FTCLOS to the ftclos binary}
VERSION=${FTCLOS_VERSION:?set FTCLOS_VERSION to the project version}
net=${FTCLOS_SOURCE_ROOT:?}/ibsim-topos/ft-8-2.net
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

[ "$("$FTCLOS" --version)" = "ftclos $VERSION" ] || fail "--version: $("$FTCLOS" --version)"

# usage_error NAME ARGS...: exit 2 and a message on stderr, nothing on stdout.
usage_error() {
  local name=$1
  shift
  "$FTCLOS" "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc, expected 2"
  [ -s "$work/err" ] || fail "$name: no message"
  [ ! -s "$work/out" ] || fail "$name: wrote to stdout"
}
usage_error "missing topology" route
usage_error "--lmc 9" route "$net" --lmc 9
usage_error "unknown scheme" route "$net" --scheme dmodc
grep -q 'did you mean "dmodk"' "$work/err" || fail "unknown scheme: no suggestion: $(cat "$work/err")"
usage_error "negative seed" gen ftree --ports 8 --levels 2 --seed -1
usage_error "unknown option" detect "$net" --colour
usage_error "unknown subcommand" detcet "$net"
usage_error "patterns --scheme (now --schemes)" patterns "$net" --scheme dmodk --pattern ring

for command in detect audit; do
  "$FTCLOS" $command "$net" --json - >"$work/$command-stdout.json" 2>/dev/null
  python3 -m json.tool "$work/$command-stdout.json" >/dev/null || fail "$command --json -: stdout is not one JSON document"
  "$FTCLOS" $command "$net" --json "$work/$command-file.json" >"$work/$command-summary.txt" 2>/dev/null
  cmp -s "$work/$command-stdout.json" "$work/$command-file.json" || fail "$command: --json - and --json FILE differ"
  [ -s "$work/$command-summary.txt" ] || fail "$command --json FILE: no summary on stdout"
done

# route never strands a pair silently: updown on a MiKANT (leaves without a
# common ancestor) exits 1 and writes nothing, unless --allow-unreachable.
mikant=${FTCLOS_SOURCE_ROOT}/ibsim-topos/mikant-3-3.net
"$FTCLOS" route "$mikant" --scheme updown -o "$work/stranded.dump" 2>"$work/err"
rc=$?
[ $rc -eq 1 ] || fail "route with unreachable pairs: exit $rc, expected 1"
grep -q "CA routes undelivered" "$work/err" || fail "route with unreachable pairs: no count: $(cat "$work/err")"
[ ! -e "$work/stranded.dump" ] || fail "route with unreachable pairs: wrote the dump"
"$FTCLOS" route "$mikant" --scheme updown --allow-unreachable -o "$work/stranded.dump" 2>/dev/null ||
  fail "route --allow-unreachable: exit $?"
[ -s "$work/stranded.dump" ] || fail "route --allow-unreachable: no dump"

# A node name that is not UTF-8 (a net file is bytes) still gives one JSON document.
printf 'Switch\t2 "sw\xff"\n[1]\t"h"[1]\n\nHca\t1 "h"\n[1]\t"sw\xff"[1]\n' >"$work/latin1.net"
"$FTCLOS" detect "$work/latin1.net" --json - >"$work/latin1.json" 2>"$work/err"
rc=$?
[ $rc -le 1 ] || fail "detect --json on a non-UTF-8 name: exit $rc: $(cat "$work/err")"
python3 -m json.tool "$work/latin1.json" >/dev/null || fail "detect --json on a non-UTF-8 name: not JSON"

# Progress: on a terminal (script gives the command one), not in a file, not with -q.
script -qec "'$FTCLOS' audit '$net' --scheme dmodk" /dev/null >"$work/tty.txt" 2>&1
grep -q "ftclos audit: correctness done" "$work/tty.txt" || fail "no progress lines on a terminal"
script -qec "'$FTCLOS' -q audit '$net' --scheme dmodk" /dev/null >"$work/tty-q.txt" 2>&1
! grep -q "ftclos audit: correctness done" "$work/tty-q.txt" || fail "-q: progress lines on a terminal"
"$FTCLOS" audit "$net" --scheme dmodk >/dev/null 2>"$work/err"
[ ! -s "$work/err" ] || fail "progress lines went to a file: $(head -1 "$work/err")"
# route too (a 25 s RhinoBased10K route printed nothing on a terminal).
script -qec "'$FTCLOS' route '$net' -o '$work/tty.dump'" /dev/null >"$work/tty-route.txt" 2>&1
grep -q "ftclos route: read .* nodes; recognizing, routing" "$work/tty-route.txt" || fail "route: no progress lines on a terminal"
"$FTCLOS" route "$net" -o "$work/file.dump" 2>"$work/route.err" >/dev/null
! grep -q "recognizing, routing" "$work/route.err" || fail "route: progress lines went to a file"

# OpenSM ftree's hint files, wherever the fabric is recognized: 8 storage
# hosts per spine outnumber the compute hosts there, so only the io hint
# gives the 2-level Clos its true shape; a bad line is exit 2 with file:line.
"$FTCLOS" gen clos2 --n 4 --m 4 --r 2 --io-hosts 8 -o "$work/io.net" 2>/dev/null
awk '/^caguid=/ {guid = $1} /^Hca.*"IO-/ {sub("caguid=", "", guid); print guid}' "$work/io.net" >"$work/io.guids"
printf '0x1\nzz\n' >"$work/bad.guids"
for command in detect audit; do  # audit exits 1 here: storage hosts are not routed yet
  "$FTCLOS" $command "$work/io.net" >"$work/out" 2>/dev/null
  grep -q "clos2 n=8 m=2 r=4" "$work/out" || fail "$command: the guess changed; pick a fabric it gets wrong"
  "$FTCLOS" $command "$work/io.net" --io-guid-file "$work/io.guids" >"$work/out" 2>/dev/null
  grep -q "clos2 n=4 m=4 r=2" "$work/out" || fail "$command --io-guid-file: not clos2 n=4 m=4 r=2"
done
for command in detect route pathbits audit patterns; do
  pattern=()
  [ $command != patterns ] || pattern=(--pattern ring)
  "$FTCLOS" $command "$work/io.net" --root-guid-file "$work/bad.guids" "${pattern[@]}" >/dev/null 2>"$work/err"
  rc=$?
  [ $rc -eq 2 ] && grep -q "bad.guids:2: expected one GUID" "$work/err" ||
    fail "$command --root-guid-file with a bad line: exit $rc, $(cat "$work/err")"
done

# Hint files checked against the fabric (each once named every host
# "attached", or was ignored): exit 2 naming the GUID and file:line.
hca=$(awk '/^caguid=/ {sub("caguid=", ""); print; exit}' "$work/io.net")
printf '# another cluster\n0x1234\n' >"$work/unknown.guids"
printf '%s\n' "$hca" >"$work/ca.guids"
for command in detect route audit; do
  usage_error "$command --cn-guid-file of unknown GUIDs" $command "$work/io.net" --cn-guid-file "$work/unknown.guids"
  grep -q "unknown.guids:2: GUID 0x0000000000001234 names no node of the fabric" "$work/err" ||
    fail "$command --cn-guid-file of unknown GUIDs: $(cat "$work/err")"
  usage_error "$command --root-guid-file naming a CA" $command "$work/io.net" --root-guid-file "$work/ca.guids"
  grep -q "ca.guids:1: GUID $hca names CA" "$work/err" || fail "$command root naming a CA: $(cat "$work/err")"
  usage_error "$command: one CA in --io-guid-file and --cn-guid-file" $command "$work/io.net" \
    --io-guid-file "$work/ca.guids" --cn-guid-file "$work/ca.guids"
  grep -q "ca.guids:1: GUID $hca names .*, which .*ca.guids:1 (GUID $hca) names a compute CA" "$work/err" ||
    fail "$command: one CA in both files: $(cat "$work/err")"
done

# A cable listed at one end only (ibsim refuses the file too) and a switch
# GUID that is also a CA's port GUID: exit 2 naming both lines.
printf 'Switch 4 "S"\n[1] "A"[1]\n[2] "B"[1]\n\nHca 1 "A"\n[1] "S"[1]\n\nHca 2 "B"\n[2] "S"[3]\n' >"$work/one-end.net"
usage_error "route of a cable listed at one end" route "$work/one-end.net"
grep -q 'one-end.net:3: "S"\[2\] lists "B"\[1\], but the record of "B" at .*one-end.net:8 does not list its port 1' \
  "$work/err" || fail "cable listed at one end: $(cat "$work/err")"
printf 'switchguid=0x20\nSwitch 4 "S"\n[1] "A"[1]\n\nHca 1 "A"\n[1](20) "S"[1]\n' >"$work/guid-twice.net"
usage_error "route of a switch GUID that is a CA port GUID" route "$work/guid-twice.net"
grep -q 'guid-twice.net:6: port GUID 0x0000000000000020 of "A" is also the node GUID of "S" at .*guid-twice.net:2' \
  "$work/err" || fail "switch GUID = CA port GUID: $(cat "$work/err")"

# audit of LMC 2 tables whose offsets 1-3 are gone (3 of 4 CA LIDs black
# holes): every LID counts, whichever offset the sources use (once
# "unreachable: 0", exit 0).
"$FTCLOS" route "$net" --lmc 2 -o "$work/lmc2.dump" 2>/dev/null
python3 -c 'import re, sys
for line in sys.stdin:  # CA LIDs are 4-aligned: offsets 1-3 go to port 0, the switch itself
    if "Channel Adapter" in line and int(line.split()[0], 16) % 4 != 0: line = re.sub(r"^(\S+) \S+", r"\1 000", line)
    sys.stdout.write(line)' <"$work/lmc2.dump" >"$work/lmc2-holes.dump"
"$FTCLOS" audit "$net" "$work/lmc2-holes.dump" >"$work/out" 2>/dev/null
rc=$?
cas=$(grep -c '^Hca' "$net")
[ $rc -eq 1 ] && grep -q "^pairs: $((cas * (cas - 1) * 4)) (CA pairs x 4 LIDs each" "$work/out" &&
  grep -q "^unreachable: $((cas * (cas - 1) * 3))$" "$work/out" ||
  fail "audit of LMC 2 tables with 3 of 4 LIDs black holes: exit $rc, $(grep -E '^(pairs|unreachable)' "$work/out")"

# A path-bits file that names no CA is no path bits; --instances must be positive.
printf '# nothing\n' >"$work/empty.bits"
usage_error "audit --pathbits of an empty file" audit "$net" "$work/lmc2.dump" --pathbits "$work/empty.bits"
usage_error "audit --instances 0" audit "$net" --pattern random --instances 0
usage_error "audit --instances -1" audit "$net" --pattern random --instances -1

# Without --sl the dump is all OpenSM's file engine loads, every packet on
# VL 0: layered on a torus (deadlock-free on its SLs only) is refused, auto
# routes tables with no credit loop on VL 0 (the dump audited without --sl).
"$FTCLOS" gen torus --x 4 --y 4 --hosts 2 -o "$work/torus.net" 2>/dev/null
usage_error "route layered on a torus without --sl" route "$work/torus.net" --scheme layered -o "$work/torus.dump"
grep -q "needs its SLs for deadlock freedom" "$work/err" || fail "layered without --sl: $(cat "$work/err")"
[ ! -e "$work/torus.dump" ] || fail "layered without --sl: wrote the dump"
"$FTCLOS" route "$work/torus.net" --scheme layered --sl "$work/torus.sl" -o "$work/torus.dump" 2>/dev/null ||
  fail "route layered on a torus with --sl: exit $?"
"$FTCLOS" gen ring --switches 8 --hosts 2 -o "$work/ring.net" 2>/dev/null
for topo in "$work/torus.net" "$work/ring.net"; do
  "$FTCLOS" route "$topo" -o "$work/auto.dump" 2>/dev/null || fail "route auto without --sl on $topo: exit $?"
  "$FTCLOS" audit "$topo" "$work/auto.dump" >"$work/out" 2>/dev/null
  grep -q "^credit loops: 0$" "$work/out" || fail "route auto without --sl on $topo: $(grep '^credit' "$work/out")"
done

# --previous: the earlier tables' LIDs, so --lmc does not go with it.
"$FTCLOS" route "$net" -o "$work/old.dump" 2>/dev/null
"$FTCLOS" route "$net" --previous "$work/old.dump" -o "$work/kept.dump" 2>"$work/err" &&
  grep -q "entries changed from .*old.dump: 0" "$work/err" || fail "route --previous on the same fabric: $(cat "$work/err")"
usage_error "--previous with --lmc" route "$net" --previous "$work/old.dump" --lmc 1
usage_error "--rebalance without --previous" route "$net" --rebalance

# After one cut cable, --previous reports both sides of the trade-off, repair
# (kept entries) and rebalance (the scheme's own tables), and writes the one
# asked for; each reported worst case is what the auditor finds in its dump.
"$FTCLOS" gen ftree --ports 8 --levels 3 -o "$work/ft.net" 2>/dev/null
"$FTCLOS" gen ftree --ports 8 --levels 3 --fail-links 1 --seed 3 -o "$work/cut.net" 2>/dev/null
"$FTCLOS" route "$work/ft.net" --scheme updown -o "$work/ft.dump" 2>/dev/null
for side in repair rebalance; do
  flag=()
  [ $side = repair ] || flag=(--rebalance)
  "$FTCLOS" route "$work/cut.net" --scheme updown --previous "$work/ft.dump" "${flag[@]}" -o "$work/$side.dump" \
    2>"$work/$side.err" || fail "route --previous ${flag[*]}: $(cat "$work/$side.err")"
  read -r changed reported < <(sed -n "s/^$side .*: \([0-9]*\) entries changed.*contention \([0-9.]*\) (written)$/\1 \2/p" \
    "$work/$side.err")
  audited=$("$FTCLOS" audit "$work/cut.net" "$work/$side.dump" 2>/dev/null | sed -n 's/^worst-case contention: //p')
  [ -n "$reported" ] && [ "$reported" = "$audited" ] ||
    fail "route --previous, $side: reported worst case '$reported', audited '$audited': $(cat "$work/$side.err")"
  eval "${side}_changed=\$changed"
done
[ "${repair_changed:-0}" -gt 0 ] && [ "$repair_changed" -lt "${rebalance_changed:-0}" ] ||
  fail "route --previous: repair changed ${repair_changed:-?} entries, rebalance ${rebalance_changed:-?}"

if [ $failures -eq 0 ]; then echo "cli convention: all checks passed"; else exit 1; fi
