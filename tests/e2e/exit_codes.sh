#!/usr/bin/env bash
# README's table of exit codes per subcommand, checked both ways: every cell
# that names a case has one here that exits with that code, every "—" has
# none, and every subcommand of `ftclos --help` has a row.
set -uo pipefail
FTCLOS=${FTCLOS:?set FTCLOS to the ftclos binary}
root=${FTCLOS_SOURCE_ROOT:?}
topos=$root/ibsim-topos
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

"$FTCLOS" gen ring --switches 5 --hosts 1 -o ring.net 2>/dev/null || fail "gen ring"
"$FTCLOS" gen clos2 --n 2 --m 1 --r 2 -o narrow.net 2>/dev/null || fail "gen clos2"
"$FTCLOS" route "$topos/ft-8-2.net" -o ft.dump 2>/dev/null || fail "route ft-8-2"
: >empty.dump
# Two switches with a host each and no cable between: no family fits.
printf 'Switch\t2 "s1"\n[1]\t"h1"[1]\n\nSwitch\t2 "s2"\n[1]\t"h2"[1]\n\nHca\t1 "h1"\n[1]\t"s1"[1]\n\nHca\t1 "h2"\n[1]\t"s2"[1]\n' \
  >apart.net
# ft.dump with LID 9 dropped at every switch: trace finds the packet dropped.
sed 's/^0x0009 [0-9]*/0x0009 255/' ft.dump >dropped.dump
printf '"H-0.0" "H-1.0"\n"H-1.0" "H-0.0"\n' >swap.perm
printf '"H-0.0" "H-1.0"\n"H-0.1" "H-1.1"\n' >crowded.perm

# The plugin's sweep report (engine/sweep_report_json.h) of a sweep that
# failed before it read the fabric, and of one that succeeded.
sweep_json() {
  printf '{"schema_version": 1, "ftclos_version": "0.1.0", "sweeps_total": 1, "sweep_failures_total": %d,
  "deferred_polish_installed_total": 0, "previous": null, "sweep": {"timestamp": 0, "ok": %s, "error": %d,
  "message": "", "step_only": false, "scheme": "auto", "chosen": "", "lmc": null, "lmc_needed": null,
  "recognition": null, "check": null, "change": null, "polish_deferred": false, "polish_installed": false,
  "seconds": {"recognition": 0, "routing": 0, "checking": 0}}}\n' "$@"
}
mkdir -p report-ok report-failed
sweep_json 0 true 0 >report-ok/ftclos-sweep.json
sweep_json 1 false 13 >report-failed/ftclos-sweep.json

# "SUBCOMMAND CODE" -> its arguments (word-split); one case per README cell.
declare -A cases=(
  ["gen 0"]="gen ftree --ports 4 --levels 2 -o gen.net"
  ["gen 2"]="gen torus --x 65536 --y 65536 --hosts 1"
  ["detect 0"]="detect $topos/ft-8-2.net"
  ["detect 1"]="detect apart.net"
  ["detect 2"]="detect empty.dump"
  ["schemes 0"]="schemes"
  ["schemes 2"]="schemes --colour"
  ["route 0"]="route $topos/ft-8-2.net -o route.dump"
  ["route 1"]="route ring.net --scheme dmodk -o route.dump"
  ["route 2"]="route $topos/ft-8-2.net -o clash.out --sl clash.out"
  ["pathbits 0"]="pathbits $topos/ft-8-2.net"
  ["pathbits 1"]="pathbits ring.net --scheme dmodk"
  ["pathbits 2"]="pathbits nosuch.net"
  ["audit 0"]="audit $topos/ft-8-2.net ft.dump"
  ["audit 1"]="audit ring.net --scheme dmodk"
  ["audit 2"]="audit $topos/ft-8-2.net empty.dump"
  ["trace 0"]="trace $topos/ft-8-2.net ft.dump H-7.3 9"
  ["trace 1"]="trace $topos/ft-8-2.net dropped.dump H-7.3 9"
  ["trace 2"]="trace $topos/ft-8-2.net ft.dump H-7.3 nosuch"
  ["patterns 0"]="patterns $topos/ft-8-2.net --pattern shift:1"
  ["patterns 1"]="patterns ring.net --schemes dmodk --pattern shift:1"
  ["patterns 2"]="patterns $topos/ft-8-2.net --pattern nosuch"
  ["simulate 0"]="simulate drb --ports 4 --levels 2 --k 1 --runs 1"
  ["simulate 2"]="simulate drb --ports 3 --levels 2"
  ["plan 0"]="plan narrow.net --permutation swap.perm"
  ["plan 1"]="plan narrow.net --permutation crowded.perm"
  ["plan 2"]="plan narrow.net --permutation nosuch.perm"
  ["experiment 0"]="experiment mikant-table1"
  ["experiment 2"]="experiment nosuch"
  ["import-topo 0"]="import-topo $topos/ibutils/SingleGazelle.topo -o gazelle.net"
  ["import-topo 2"]="import-topo nosuch.topo"
  ["report 0"]="report report-ok"
  ["report 1"]="report report-failed"
  ["report 2"]="report nosuch"
)
# Cells no input reaches on purpose, with the reason.
declare -A unreachable=(
  ["experiment 1"]="its checks compare with the papers' numbers, which every seed meets"
)

table=$(awk '/^\| subcommand \| 0 \| 1 \| 2 \|$/ { on = 1; next } on && /^\|---/ { next } on && /^\| `/ { print; next } on { exit }' \
  "$root/README.md")
[ -n "$table" ] || fail "README.md has no exit-code table"
rows=()
while IFS='|' read -r _ name zero one two _; do
  name=$(tr -d ' `' <<<"$name")
  rows+=("$name")
  code=0
  for cell in "$zero" "$one" "$two"; do
    cell=$(sed 's/^ *//; s/ *$//' <<<"$cell")
    key="$name $code"
    if [ "$cell" = "—" ]; then
      [ -z "${cases[$key]:-}" ] || fail "$key: README says never, but a case exits $code"
    elif [ -n "${unreachable[$key]:-}" ]; then
      echo "skip $key: ${unreachable[$key]}"
    elif [ -z "${cases[$key]:-}" ]; then
      fail "$key: README says \"$cell\", but no case here"
    else
      # shellcheck disable=SC2086
      timeout 120 "$FTCLOS" ${cases[$key]} >/dev/null 2>"$work/err"
      rc=$?
      [ $rc -eq $code ] || fail "$key (${cases[$key]}): exit $rc: $(head -c 300 "$work/err")"
    fi
    code=$((code + 1))
  done
done <<<"$table"
for key in "${!cases[@]}"; do
  [[ " ${rows[*]} " == *" ${key% *} "* ]] || fail "case $key: no README row"
done
for name in $("$FTCLOS" --help | awk '/^SUBCOMMANDS:|^Subcommands:/ { on = 1; next } on && NF { print $1 }'); do
  [[ " ${rows[*]} " == *" $name "* ]] || fail "subcommand $name: no README row"
done
echo "${#rows[@]} subcommands, $failures failures"
[ "$failures" -eq 0 ]
