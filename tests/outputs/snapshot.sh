#!/usr/bin/env bash
# Writes every user-visible output of `ftclos` on the ibsim-topos fabrics into
# OUTDIR, one file per (fabric, command): detection text and JSON, dumps and
# path bits of every scheme, audit text/JSON/HTML, pattern tables. Timing
# figures are blanked so two builds can be compared byte for byte
# (tests/outputs/compare.sh). Usage: snapshot.sh FTCLOS OUTDIR
set -uo pipefail
ftclos=$1 out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out/topos"
cp "$root"/ibsim-topos/*.net "$out/topos/"
ftclos=$(realpath "$ftclos")
cd "$out"  # every path the outputs mention is relative, the same for any checkout

# Blank what changes from run to run: elapsed times.
untimed() { sed -E 's/[0-9]+\.[0-9]+ (ms|s)\b/T \1/g'; }
# run NAME CMD...: stdout, stderr and exit code of one command.
run() {
  local name=$1; shift
  "$@" >"$name.out" 2>"$name.err"
  echo $? >"$name.rc"
  untimed <"$name.err" >"$name.err.tmp" && mv "$name.err.tmp" "$name.err"
  untimed <"$name.out" >"$name.out.tmp" && mv "$name.out.tmp" "$name.out"
}

schemes=(auto:0 auto:2 dmodk:0 updown:0 osrm:2 mlid:2 nonblocking:2 multipath:2 mikant:0)
for net in topos/*.net; do
  f=$(basename "$net" .net)
  run "$f.detect" "$ftclos" detect "$net"
  run "$f.detect-json" "$ftclos" detect "$net" --json -
  for s in "${schemes[@]}"; do
    scheme=${s%:*} lmc=${s#*:}
    tag="$f.$scheme-lmc$lmc"
    run "$tag.route" "$ftclos" route "$net" --scheme "$scheme" --lmc "$lmc" -o "$tag.dump" --pathbits "$tag.pathbits"
    run "$tag.pathbits" "$ftclos" pathbits "$net" --scheme "$scheme" --lmc "$lmc"
    [ -s "$tag.dump" ] || continue
    args=("$net" "$tag.dump" --pathbits "$tag.pathbits")
    run "$tag.audit" "$ftclos" audit "${args[@]}" --json "$tag.audit.json" --pattern ring --instances 4
  done
  run "$f.audit-scheme" "$ftclos" audit "$net" --scheme dmodk --html "$f.audit.html"
  run "$f.audit-compare" "$ftclos" audit "$net" --schemes dmodk,updown --pattern shift:1 --instances 2
  run "$f.patterns" "$ftclos" patterns "$net" --schemes dmodk,updown --pattern ring --pattern hypercube --instances 4
done
