#!/usr/bin/env bash
# Offline tables are the subnet's: on three fabrics, stock OpenSM with the
# osmftclos plugin routes ibsim and writes opensm-lfts.dump and its guid2lid
# cache; `ftclos route FABRIC --guid2lid guid2lid` must print that dump byte
# for byte, from the net file and from ibnetdiscover's read-back (which lists
# switches in discovery order, so the dump's GUID order is exercised; at
# least one case must have them out of GUID order). Negative control: the
# net file routed without --guid2lid (ftclos's own LIDs) must differ, or the
# comparison proves nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/plugin_lib.sh
source "$here/plugin_lib.sh"
root=${FTCLOS_SOURCE_ROOT:-$here/../..}
work=$(mktemp -d)
cd "$work"  # diags killed hard leave sys-<pid> folders in their working directory
trap 'cleanup_ibsims; [ -n "${FTCLOS_E2E_KEEP:-}" ] || rm -rf "$work"; rm -f "$PLUGIN_CHECK"' EXIT

# fabric (ibsim-topos/<fabric>.net) | scheme | LMC [| polish=off]: a 3-level
# tree with path bits, storage hosts with detour SLs, a random folded Clos.
# The RFC runs without the contention polish: polished there, its tables
# depend on the order the nodes are listed in (ibnetdiscover's read-back
# gives OpenSM's, the net file others with the same worst case; NEWS).
cases=("ft-8-3|auto|2" "clos2-4-4-8-io2|auto|0" "rfc-8-16-3-seed1|updown|0|polish=off")

# run_case FABRIC SCHEME LMC DIR
run_case() {
  local fabric=$1 scheme=$2 lmc=$3 dir=$4 polish=${5:-}
  # --sl: the plugin's tables may rely on SLs (detour SLs for storage hosts),
  # which route without --sl may not (it then wants them deadlock-free on VL 0).
  local route_args=(--scheme "$scheme" --sl "$dir/ftclos.sl")
  [ "$polish" != polish=off ] || route_args+=(--no-polish)
  local net=$root/ibsim-topos/$fabric.net sock=ftclos-guid2lid-$$-$(basename "$dir")
  start_ibsim "$sock" "$net" "$dir/ibsim.log" || return 1
  # log_flags 0x40 (ROUTING) makes OpenSM write opensm-lfts.dump into dump_files_dir.
  cat >"$dir/opensm.conf" <<EOF2
event_plugin_name osmftclos
event_plugin_options scheme=$scheme pathbits_file=ftclos-pathbits $polish
routing_engine ftclos
lmc $lmc
log_flags 0x43
dump_files_dir $dir
EOF2
  local host
  host=$(first_ca "$net")
  run_opensm "$dir" "$sock" "$host" timeout 120 -o >"$dir/opensm.out" 2>&1 ||
    { echo "opensm failed: $(tail -3 "$dir/opensm.out")"; return 1; }
  sim_run "$sock" "$host" timeout 60 ibnetdiscover >"$dir/disc.net" 2>"$dir/disc.err" ||
    { echo "ibnetdiscover failed: $(tail -2 "$dir/disc.err")"; return 1; }
  stop_ibsim "${IBSIM_PIDS[-1]}"
  grep -q "ftclos tables configured on all switches" "$dir/osm.log" ||
    { echo "the plugin did not route: $(grep -E 'ftclos ERR|tables configured' "$dir/osm.log" | head -3)"; return 1; }
  [ -s "$dir/opensm-lfts.dump" ] && [ -s "$dir/guid2lid" ] || { echo "OpenSM wrote no dump or guid2lid"; return 1; }
  local topo
  for topo in "$net" "$dir/disc.net"; do
    "$FTCLOS" route "$topo" "${route_args[@]}" --guid2lid "$dir/guid2lid" -o "$dir/ftclos.dump" 2>"$dir/route.err" ||
      { echo "ftclos route $(basename "$topo") --guid2lid failed: $(cat "$dir/route.err")"; return 1; }
    if ! cmp -s "$dir/opensm-lfts.dump" "$dir/ftclos.dump"; then
      echo "ftclos route $(basename "$topo") --guid2lid differs from OpenSM's opensm-lfts.dump:"
      diff "$dir/opensm-lfts.dump" "$dir/ftclos.dump" | head -6
      return 1
    fi
  done
  grep -o 'switchguid=0x[0-9a-f]*' "$dir/disc.net" | sort -c 2>/dev/null || echo "(ibnetdiscover: switches out of GUID order)"
  "$FTCLOS" pathbits "$net" --scheme "$scheme" --guid2lid "$dir/guid2lid" 2>/dev/null | sort >"$dir/pathbits" || return 1
  sort "$dir/ftclos-pathbits" | cmp -s - "$dir/pathbits" ||
    { echo "ftclos pathbits --guid2lid differs from the plugin's path-bits file"; return 1; }

  "$FTCLOS" route "$net" "${route_args[@]}" --lmc "$lmc" -o "$dir/own-lids.dump" 2>"$dir/own.err" || return 1
  grep -q "LIDs are ftclos's own" "$dir/own.err" || { echo "no note that the LIDs are ftclos's own"; return 1; }
  if cmp -s "$dir/opensm-lfts.dump" "$dir/own-lids.dump"; then
    echo "negative control: ftclos's own LIDs give OpenSM's dump too, so the comparison shows nothing"
    return 1
  fi
  echo "net file and ibnetdiscover output: $(grep -c '^Unicast' "$dir/ftclos.dump") switches," \
    "$(wc -l <"$dir/ftclos.dump") lines byte-identical" \
    "($(wc -c <"$dir/ftclos.dump") bytes); without --guid2lid $(diff "$dir/opensm-lfts.dump" "$dir/own-lids.dump" | grep -c '^[<>]') lines differ"
}

passed=0
failed=0
i=0
for entry in "${cases[@]}"; do
  IFS='|' read -r fabric scheme lmc polish <<<"$entry"
  i=$((i + 1))
  dir=$work/case$i
  mkdir -p "$dir"
  if run_case "$fabric" "$scheme" "$lmc" "$dir" "$polish" >"$dir/result" 2>&1; then
    passed=$((passed + 1))
    echo "ok   $fabric --scheme $scheme --lmc $lmc: $(tr '\n' ' ' <"$dir/result")"
  else
    failed=$((failed + 1))
    echo "FAIL $fabric --scheme $scheme --lmc $lmc: $(cat "$dir/result")"
  fi
done
# Bad guid2lid files: exit 2, naming the file and the line or the node.
bad_input() {
  local what=$1 file=$2 expect=$3 rc=0
  "$FTCLOS" route "$root/ibsim-topos/ft-8-3.net" --guid2lid "$file" -o "$work/bad.dump" 2>"$work/bad.err" || rc=$?
  if [ "$rc" -ne 2 ] || ! grep -qF -- "$expect" "$work/bad.err" || [ -e "$work/bad.dump" ]; then
    echo "FAIL $what: exit $rc, $(cat "$work/bad.err") (expected exit 2 and \"$expect\", no dump)"
    failed=$((failed + 1))
  fi
}
printf '0xf7c1100000000101 0x0004 0x0007\n0xf7c1000000000001 eight\n' >"$work/bad-line.g2l"
bad_input "a line that is not a guid2lid line" "$work/bad-line.g2l" "bad-line.g2l:2: expected \"0xGUID MIN_LID MAX_LID\""
head -1 "$work/bad-line.g2l" >"$work/partial.g2l"
bad_input "a guid2lid without the switches" "$work/partial.g2l" "partial.g2l: no LID for switch"

# Switch order: OpenSM walks its switch table by GUID in network byte order
# (on a little-endian host, by the byte-reversed GUID). On FT(8,2) with
# switch GUIDs 0xNN000000000000MM (MM = 0x100 - NN), which differ in their
# first byte as in their last, that is not ascending order: the switches of
# route's dump must come in the order of stock OpenSM's own dump.
order_dir=$work/order
mkdir -p "$order_dir"
python3 - "$root/ibsim-topos/ft-8-2.net" >"$order_dir/fabric.net" <<'PY'
import re, sys
def vary(m):
    n = int(m.group(1), 16)
    return "0x%02x000000000000%02x" % (n, 0x100 - n)
sys.stdout.write(re.sub(r"0xf7c10000000000([0-9a-f]{2})", vary, open(sys.argv[1]).read()))
PY
order_sock=ftclos-guid2lid-$$-order
start_ibsim "$order_sock" "$order_dir/fabric.net" "$order_dir/ibsim.log"
printf 'log_flags 0x43\ndump_files_dir %s\n' "$order_dir" >"$order_dir/opensm.conf"
(cd "$order_dir" && OSM_CACHE_DIR=$order_dir OSM_TMP_DIR=$order_dir sim_run "$order_sock" \
  "$(first_ca "$order_dir/fabric.net")" timeout 120 opensm -F "$order_dir/opensm.conf" -f "$order_dir/osm.log" -o \
  >"$order_dir/opensm.out" 2>&1) || true
stop_ibsim "${IBSIM_PIDS[-1]}"
"$FTCLOS" -q route "$order_dir/fabric.net" --guid2lid "$order_dir/guid2lid" -o "$order_dir/route.dump" 2>/dev/null || true
switch_order() { grep -o '^Unicast lids .* guid 0x[0-9a-f]*' "$1" | grep -o '0x[0-9a-f]*$'; }
if [ ! -s "$order_dir/opensm-lfts.dump" ] || [ "$(switch_order "$order_dir/opensm-lfts.dump")" != "$(switch_order "$order_dir/route.dump")" ]; then
  echo "FAIL route's dump lists switches in another order than OpenSM's: $(switch_order "$order_dir/route.dump" | head -3 | xargs) against $(switch_order "$order_dir/opensm-lfts.dump" | head -3 | xargs)"
  failed=$((failed + 1))
elif [ "$(switch_order "$order_dir/route.dump")" = "$(switch_order "$order_dir/route.dump" | sort)" ]; then
  echo "FAIL the varied GUIDs come in ascending order anyway: the order went unchecked"
  failed=$((failed + 1))
fi

unordered=$(cat "$work"/case*/result | grep -c "out of GUID order" || true)
[ "$unordered" -gt 0 ] || { echo "FAIL no ibnetdiscover output had switches out of GUID order: the dump's order went unchecked"; failed=$((failed + 1)); }
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
