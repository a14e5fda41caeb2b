#!/usr/bin/env bash
# What a hostile or careless folder does to ftclos's files (issue 28): a
# symlink or directory planted where the old writer put OUT.tmp, two writers
# to one output, outputs that name an input or each other, a full disk
# (/dev/full) for one output of several or for standard output, endless or
# blocking inputs (/dev/zero, a FIFO, a sparse 2 GB file, a 3 MB line) and
# fabric sizes that overflowed. Every case is bounded by `timeout`: exit 124
# is the old hang.
set -uo pipefail
FTCLOS=${FTCLOS:?set FTCLOS to the ftclos binary}
root=${FTCLOS_SOURCE_ROOT:?}
net=$root/ibsim-topos/ft-8-2.net
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# expect CODE NAME ARGS...: ftclos ARGS exits CODE within 20 s; stderr in $work/err.
expect() {
  local code=$1 name=$2
  shift 2
  timeout 20 "$FTCLOS" "$@" >"$work/out" 2>"$work/err" </dev/null
  local rc=$?
  [ $rc -eq "$code" ] || fail "$name: exit $rc, expected $code: $(head -c 300 "$work/err")"
}
# says NAME TEXT: the last command's stderr holds TEXT.
says() { grep -qF -- "$2" "$work/err" || fail "$1: stderr lacks \"$2\": $(head -c 300 "$work/err")"; }

"$FTCLOS" route "$net" --scheme dmodk -o ref.dump --pathbits ref.bits --sl ref.sl 2>/dev/null || fail "reference route"
"$FTCLOS" route "$net" --scheme updown -o ref-updown.dump 2>/dev/null || fail "reference updown route"

# --- A symlink planted at OUT.tmp: every writer leaves the victim alone and OUT a regular file.
planted() {  # planted NAME OUT ARGS...
  local name=$1 out=$2
  shift 2
  rm -f "$out" "$out.tmp"
  echo precious >victim
  ln -s "$work/victim" "$out.tmp"
  timeout 60 "$FTCLOS" "$@" >/dev/null 2>"$work/err" </dev/null
  local rc=$?
  [ $rc -le 1 ] || fail "$name with a planted $out.tmp: exit $rc: $(head -c 300 "$work/err")"
  [ "$(cat victim)" = precious ] || fail "$name: the planted $out.tmp symlink redirected the write"
  [ -f "$out" ] && [ ! -L "$out" ] || fail "$name: $out is not a regular file"
  [ -L "$out.tmp" ] || fail "$name: the planted $out.tmp was replaced"
}
planted "route -o" o.dump route "$net" --scheme dmodk -o o.dump
planted "route --pathbits" o.bits route "$net" --scheme dmodk -o /dev/null --pathbits o.bits
planted "route --sl" o.sl route "$net" --scheme dmodk -o /dev/null --sl o.sl
planted "detect --json" o.json detect "$net" --json o.json
planted "audit --json" o.json audit "$net" ref.dump --json o.json
planted "audit --html" o.html audit "$net" ref.dump --html o.html
planted "gen -o" o.net gen ftree --ports 4 --levels 2 -o o.net
topo_dir=$root/ibsim-topos/ibutils
topo=$topo_dir/SingleGazelle.topo
if [ -f "$topo" ]; then
  planted "import-topo -o" o.net import-topo "$topo" -o o.net
fi
cmp -s o.dump ref.dump || fail "route -o with a planted symlink: the dump differs from the reference"

# A directory at OUT.tmp is left as it is (the old writer deleted it).
mkdir -p d.dump.tmp/inside
expect 0 "route -o beside a d.dump.tmp directory" route "$net" --scheme dmodk -o d.dump
[ -d d.dump.tmp/inside ] || fail "route -o removed the directory d.dump.tmp"
cmp -s d.dump ref.dump || fail "route -o beside a directory: wrong dump"

# Two writers to one -o: the file is one whole output, not a mix.
for round in 1 2 3; do
  "$FTCLOS" route "$net" --scheme dmodk -o race.dump 2>/dev/null &
  first=$!
  "$FTCLOS" route "$net" --scheme updown -o race.dump 2>/dev/null
  wait "$first"
  cmp -s race.dump ref.dump || cmp -s race.dump ref-updown.dump || fail "two concurrent routes (round $round): neither output"
done
ls ./*.tmp.* 2>/dev/null | grep -q . && fail "temporaries left behind: $(ls ./*.tmp.*)"

# --- Outputs that collide with an input or each other: exit 2, nothing touched.
cp "$net" topo.net
cp ref.dump lft.dump
expect 2 "route X -o X" route topo.net -o topo.net
says "route X -o X" "-o topo.net is the input TOPO"
cmp -s topo.net "$net" || fail "route X -o X changed the topology"
expect 2 "route -o F --sl F" route topo.net -o same.out --sl same.out
says "route -o F --sl F" "-o and --sl both name same.out"
expect 2 "route -o F --pathbits F" route topo.net -o same.out --pathbits ./same.out
[ ! -e same.out ] || fail "route with colliding outputs wrote same.out"
expect 2 "detect X --json X" detect topo.net --json topo.net
cmp -s topo.net "$net" || fail "detect X --json X changed the topology"
expect 2 "audit T L --json L" audit topo.net lft.dump --json lft.dump
cmp -s lft.dump ref.dump || fail "audit T L --json L changed the tables"
ln -s lft.dump link.dump
expect 2 "audit T L --html (a link to L)" audit topo.net lft.dump --html link.dump
expect 0 "route --previous D -o D (repair in place)" route topo.net --previous lft.dump -o lft.dump
expect 2 "route --previous D --pathbits D" route topo.net --previous lft.dump --pathbits lft.dump

# --- A full disk for one output: no output replaced (the old route replaced D, then failed).
cp ref.dump keep.dump
expect 2 "route -o D --pathbits /dev/full" route "$net" --scheme updown -o keep.dump --pathbits /dev/full
says "route -o D --pathbits /dev/full" "cannot write /dev/full: No space left on device"
cmp -s keep.dump ref.dump || fail "route -o D --pathbits /dev/full replaced D"
expect 2 "gen -o /dev/full" gen ftree --ports 8 --levels 2 -o /dev/full
# ... and for standard output: these exited 0 having written nothing.
for args in "pathbits $net" "detect $net" "schemes" "audit $net ref.dump" "patterns $net --pattern shift:1" \
  "experiment mikant-table1" "route $net"; do
  # shellcheck disable=SC2086
  timeout 60 "$FTCLOS" $args >/dev/full 2>"$work/err"
  rc=$?
  [ $rc -eq 2 ] || fail "$args >/dev/full: exit $rc, expected 2"
  says "$args >/dev/full" "cannot write standard output"
done

# --- Inputs that never end or block: refused at once.
mkfifo fifo
printf 'include /dev/zero\n' >include-zero.net
truncate -s 2G sparse.net
truncate -s 2G sparse.dump
{ cat ref.dump; head -c 3000000 /dev/zero | tr '\0' x; echo; } >long-line.dump
expect 2 "detect /dev/zero" detect /dev/zero
says "detect /dev/zero" "not a regular file (a character device)"
expect 2 "detect FIFO" detect fifo
says "detect FIFO" "not a regular file (a FIFO)"
expect 2 "include /dev/zero" detect include-zero.net
expect 2 "sparse 2 GB topology" detect sparse.net
says "sparse 2 GB topology" "more than 256 MiB"
expect 2 "audit LFT /dev/zero" audit "$net" /dev/zero
expect 2 "audit LFT FIFO" audit "$net" fifo
expect 2 "audit sparse 2 GB LFT" audit "$net" sparse.dump
says "audit sparse 2 GB LFT" "a line of more than 64 KiB"
expect 2 "audit 3 MB line" audit "$net" long-line.dump
[ "$(wc -c <"$work/err")" -lt 1000 ] || fail "audit 3 MB line: $(wc -c <"$work/err") bytes of error"
expect 2 "hint file /dev/zero" detect "$net" --cn-guid-file /dev/zero
expect 2 "hint file FIFO" route "$net" --root-guid-file fifo
expect 2 "path bits /dev/zero" audit "$net" ref.dump --pathbits /dev/zero
expect 2 "guid2lid FIFO" route "$net" --guid2lid fifo
: >empty.dump
expect 2 "audit of an empty LFT file" audit "$net" empty.dump
says "audit of an empty LFT file" "no switch's table"
: >empty.net
expect 2 "detect of an empty topology" detect empty.net
says "detect of an empty topology" "no cabled Switch, Ca or Hca record"

# --- Sizes that overflowed int or ran for minutes: refused before anything is built.
expect 2 "gen torus 65536x65536" gen torus --x 65536 --y 65536 --hosts 1
expect 2 "gen torus 46341x46341" gen torus --x 46341 --y 46341 --hosts 1
expect 2 "gen dragonfly 2^31-1 groups" gen dragonfly --groups 2147483647 --switches 1 --hosts 1
expect 2 "gen ring 10^8 switches" gen ring --switches 100000000 --hosts 1
says "gen ring 10^8 switches" "refusing to generate"

# --- Messages: a number out of range, an unknown subcommand.
expect 2 "--jobs 0" --jobs 0 schemes
says "--jobs 0" "0 is not in 1..4096"
expect 2 "unknown subcommand" detcet "$net"
says "unknown subcommand" 'ftclos: unknown subcommand "detcet"; did you mean "detect"? Subcommands: gen, detect,'
expect 2 "unknown gen family" gen torsu --x 3
says "unknown gen family" 'ftclos gen: unknown subcommand "torsu"; did you mean "torus"?'

echo "$failures failures"
[ "$failures" -eq 0 ]
