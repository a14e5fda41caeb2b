#!/usr/bin/env bash
# The plugin on the OpenSM that clusters run (issue #46): RHEL 8/9 and its
# rebuilds, SLES 15 and Fedora ship upstream OpenSM 3.3.24, Debian bookworm
# and Ubuntu 22.04/24.04 3.3.23. OpenSM loads only a plugin whose
# osm_version is its own, and 3.3.24's structs differ (osm_subn_opt_t gained
# max_rate_enum), so the plugin is built against the OpenSM that loads it
# (meson -Dopensm_prefix):
#   1. OpenSM 3.3.24 is built once from upstream's vendored tarball
#      ($FTCLOS_VENDOR_DIR/opensm-3.3.24.tar.xz; by default shared/vendor
#      beside the source tree, as CI clones it) and kept under
#      $FTCLOS_BUILD_ROOT/opensm-3.3.24/ (vendored_opensm.sh);
#   2. a second meson build directory of ftclos beside the main one
#      (FTCLOS_BUILD_ROOT-osm3324, -Dopensm_prefix=that install) builds the
#      plugin and the e2e helpers against it;
#   3. 3.3.24 on ibsim loads that plugin, which logs "built for OpenSM
#      3.3.24", and routes FT(8,3); Debian's 3.3.23 refuses the same file
#      (version mismatch), so the two builds cannot stand in for each other;
#   4. FT(8,3) at LMC 2 (scheme auto): 3.3.24's opensm-lfts.dump and the
#      tables dump_lfts reads back from the switches are byte for byte those
#      of 3.3.23 with its own plugin (FTCLOS_PLUGIN_DIR);
#   5. the plugin scripts run a subset of their cases with 3.3.24
#      (FTCLOS_OPENSM, FTCLOS_OPENSM_LIBDIR, FTCLOS_PLUGIN_DIR of step 2):
#      routes and read-back, a link failure, a refused version, SL2VL with
#      QoS, path bits, multicast, and failure_sweep.sh on FT(8,3) (one cable,
#      one switch, one flap). Each routing case passes only when the running
#      OpenSM loaded the plugin, i.e. only with 3.3.24.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/plugin_lib.sh
source "$here/plugin_lib.sh"
plugin_work_dir
# shellcheck source=tests/e2e/vendored_opensm.sh
source "$here/vendored_opensm.sh"
VERSION=${FTCLOS_VERSION:?set FTCLOS_VERSION to the project version}

fail() { echo "FAIL $*"; exit 1; }

# 1. and 2.
vendored_opensm
osm3324=$OSM3324_PREFIX/sbin/opensm
osm3324_libs=$OSM3324_PREFIX/lib
start=$SECONDS
build_against_opensm "$work/build.log" plugin/libosmftclos.so plugin/libosmftclos_badversion.so plugin/mcast_join \
  plugin/path_sls plugin/sl2vl_read
plugin3324=$OSM3324_BUILD/plugin
echo "plugin and helpers built against OpenSM 3.3.24 in $OSM3324_BUILD ($((SECONDS - start)) s)"

# run_sm NAME OPENSM LIBDIR PLUGIN_DIR LMC: one opensm -o sweep of FT(8,3)
# with the plugin (scheme auto) in $work/NAME, then dump_lfts's read-back.
net=$root/ibsim-topos/ft-8-3.net
host=$(first_ca "$net")
run_sm() {
  local dir=$work/$1 sock=ftclos-osm3324-$$-$1
  mkdir -p "$dir"
  start_ibsim "$sock" "$net" "$dir/ibsim.log"
  cat >"$dir/opensm.conf" <<EOF
event_plugin_name osmftclos
event_plugin_options scheme=auto
routing_engine ftclos
lmc $5
log_flags 0x43
force_log_flush TRUE
dump_files_dir $dir
EOF
  OPENSM=$2 OSM_LIBRARY_PATH=$4${3:+:$3} run_opensm "$dir" "$sock" "$host" timeout 120 -o >"$dir/opensm.out" 2>&1 ||
    fail "$1: opensm -o: $(tail -3 "$dir/opensm.out")"
  sim_run "$sock" "$host" timeout 120 dump_lfts >"$dir/lfts.txt" 2>"$dir/dump_lfts.err" ||
    fail "$1: dump_lfts: $(tail -2 "$dir/dump_lfts.err")"
  stop_ibsim "${IBSIM_PIDS[-1]}"
}

# 3. Loaded by 3.3.24 and only by it.
run_sm osm3324 "$osm3324" "$osm3324_libs" "$plugin3324" 2
first=$(grep -m1 -o "ftclos [0-9][^ ]* (built for [^)]*)" "$work/osm3324/osm.log" || true)
[ "$first" = "ftclos $VERSION (built for OpenSM 3.3.24)" ] || fail "3.3.24's log: '$first', want 'ftclos $VERSION (built for OpenSM 3.3.24)'"
grep -q "ftclos tables configured on all switches" "$work/osm3324/osm.log" ||
  fail "3.3.24 with the plugin: $(grep -E 'ftclos|routing engine|version' "$work/osm3324/osm.log" | head -3)"
grep -q "SUBNET UP" "$work/osm3324/osm.log" || fail "3.3.24 with the plugin: no SUBNET UP"
run_sm refused opensm "" "$plugin3324" 2
if ! grep -q "OpenSM version mismatch" "$work/refused/osm.log" || grep -q "ftclos tables configured" "$work/refused/osm.log"; then
  fail "Debian's $(opensm --version 2>/dev/null | grep -o 'OpenSM [0-9.]*' | head -1) did not refuse the plugin built for 3.3.24"
fi
echo "OpenSM 3.3.24 loaded the plugin ('$first') and routed FT(8,3) at LMC 2, SUBNET UP; Debian's opensm refused it (version mismatch)"

# 4. The same tables from 3.3.23 with its own plugin.
run_sm osm3323 opensm "" "$FTCLOS_PLUGIN_DIR" 2
grep -q "ftclos tables configured on all switches" "$work/osm3323/osm.log" ||
  fail "3.3.23 with its plugin: $(grep -E 'ftclos|routing engine|version' "$work/osm3323/osm.log" | head -3)"
for file in opensm-lfts.dump lfts.txt; do
  [ -s "$work/osm3324/$file" ] || fail "3.3.24 wrote no $file"
  cmp -s "$work/osm3323/$file" "$work/osm3324/$file" ||
    fail "FT(8,3) LMC 2: $file of 3.3.24 differs from 3.3.23's: $(diff "$work/osm3323/$file" "$work/osm3324/$file" | head -4)"
done
echo "FT(8,3) LMC 2: opensm-lfts.dump ($(wc -l <"$work/osm3324/opensm-lfts.dump") lines) and the dump_lfts read-back" \
  "($(grep -c '^0x' "$work/osm3324/lfts.txt") entries) byte-identical between 3.3.24 and 3.3.23"

# 5. The plugin scripts' cases with 3.3.24: script | FTCLOS_E2E_CASES | arguments.
subset=(
  "plugin_routes.sh|ft-8-3|auto|0 ft-8-2|osrm|2|"
  "plugin_failures.sh|link-failure bad-version|"
  "plugin_sl2vl.sh|mikant-3-3|"
  "plugin_pathbits.sh|ft-8-2|"
  "plugin_mcast.sh|ft-8-3|"
  "failure_sweep.sh||--sample 1,1 --flaps 1 ft-8-3"
)
failed=0
for entry in "${subset[@]}"; do
  script=${entry%%|*}
  cases=${entry#*|}
  cases=${cases%|*}
  read -r -a args <<<"${entry##*|}"
  start=$SECONDS
  if FTCLOS_E2E_CASES=$cases FTCLOS_OPENSM=$osm3324 FTCLOS_OPENSM_LIBDIR=$osm3324_libs FTCLOS_PLUGIN_DIR=$plugin3324 \
    "$here/$script" "${args[@]}" >"$work/$script.out" 2>&1; then
    echo "ok   $script with 3.3.24 ($((SECONDS - start)) s):"
  else
    echo "FAIL $script with 3.3.24:"
    failed=$((failed + 1))
  fi
  sed 's/^/     /' "$work/$script.out"
done
[ "$failed" -eq 0 ]
