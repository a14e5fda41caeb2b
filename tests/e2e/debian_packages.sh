#!/usr/bin/env bash
# The Debian packages as a cluster gets them: dpkg-buildpackage in a clean
# clone of the committed tree (its debian/, its changelog version) makes
# `ftclos` and `opensm-ftclos`; the plugin sits in /usr/lib/<triplet>/ (the
# loader's default path) and depends on exactly the opensm it was built
# against; unpacked into a throwaway root (dpkg -x), stock opensm on ibsim
# loads it with that root's /usr/lib/<triplet> standing in for the system's
# (LD_LIBRARY_PATH), configured by the packaged example, and configures every
# switch; the offline command that example suggests, run as written there,
# prints OpenSM's own opensm-lfts.dump; the plugin's man page
# opensm-ftclos(8) is in the plugin package and renders without roff
# warnings. Control: without that path OpenSM must not find the plugin (else
# it came from elsewhere).
#
# By default (the short case) the packages hold what FTCLOS_BUILD_ROOT has
# already compiled: `meson install --no-rebuild` into a stage, moved from
# meson's prefix to /usr, which debian/rules (FTCLOS_PREBUILT_ROOT) copies
# into debian/tmp in place of configure, build and test; dh_install with
# debian/*.install, dh_missing, dh_strip, dh_shlibdeps, dh_gencontrol and the
# rest run as for a real build: 20 CPU-seconds for the whole script instead
# of a second compile of the project (10 CPU-minutes and more cold).
# `--from-source` (the long case, opt-in): dpkg-buildpackage compiles the
# clean clone itself, as a Debian build daemon would, which adds debian/rules'
# own meson configure and build (-Dtests=false, dpkg-buildflags).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/lib.sh
source "$here/lib.sh"
VERSION=${FTCLOS_VERSION:?set FTCLOS_VERSION to the project version}
source_root=${FTCLOS_SOURCE_ROOT:?}
from_source=0
case ${1:-} in
  --from-source) from_source=1 ;;
  "") ;;
  *) echo "usage: $0 [--from-source]"; exit 2 ;;
esac
# One fixed place under the build directory, so that ccache recognizes the
# compiler lines of the previous --from-source run (the path is part of them).
work=${FTCLOS_BUILD_ROOT:?}/debian-package
rm -rf "$work"
mkdir -p "$work"
cd "$work"
trap 'cleanup_ibsims' EXIT

git clone --quiet "$source_root" src
changelog_version=$(cd src && dpkg-parsechangelog -S Version)
[ "$changelog_version" = "$VERSION" ] ||
  { echo "FAIL debian/changelog says $changelog_version, meson.build $VERSION"; exit 1; }

triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
if [ "$from_source" = 1 ]; then
  # debhelper points HOME elsewhere: give ccache its cache by name. Without
  # parallel=N debhelper builds with one job; -O0 (noopt) takes 40% off a cold
  # build's CPU time and changes nothing the test checks; no dbgsym packages.
  how="compiled by dpkg-buildpackage from a clean clone"
  build_env=(CCACHE_DIR="$(ccache -k cache_dir 2>/dev/null || echo "$HOME/.cache/ccache")"
    DEB_BUILD_OPTIONS="parallel=$(nproc) noopt noautodbgsym")
else
  # What the build directory holds, installed as meson would for the
  # package, then moved from its prefix (/usr/local by default) to /usr: the
  # directories under the prefix must be relative (libdir the multiarch one),
  # nothing may be installed outside it, and nothing installed may name it.
  build=${FTCLOS_BUILD_ROOT:?}
  meson install -C "$build" --no-rebuild --destdir "$work/stage" >"$work/install.log" 2>&1 ||
    { echo "FAIL meson install:"; tail -5 "$work/install.log"; exit 1; }
  option() { meson_option "$build" "$1"; }
  prefix=$(option prefix)
  [[ $prefix == /* && $prefix != / ]] || { echo "FAIL meson prefix '$prefix' is not an absolute directory"; exit 1; }
  for name in bindir datadir mandir; do
    dir=$(option "$name")
    [[ $dir != /* && $dir != *..* ]] || { echo "FAIL meson $name '$dir' is not relative to the prefix $prefix"; exit 1; }
  done
  libdir=$(option libdir)
  [ "$libdir" = "lib/$triplet" ] || { echo "FAIL meson libdir '$libdir', the package wants lib/$triplet"; exit 1; }
  outside=$(cd "$work/stage" && find . -mindepth 1 \( -type f -o -type l \) ! -path ".$prefix/*")
  [ -z "$outside" ] || { echo "FAIL installed outside the prefix $prefix: $outside"; exit 1; }
  naming=$(grep -rlF "$prefix/" "$work/stage" || true)
  [ -z "$naming" ] || { echo "FAIL installed files name the prefix $prefix: $naming"; exit 1; }
  mkdir -p "$work/prebuilt"
  mv "$work/stage$prefix" "$work/prebuilt/usr"
  how="packaged from $build as compiled there (FTCLOS_PREBUILT_ROOT), debian/ from a clean clone"
  build_env=(FTCLOS_PREBUILT_ROOT="$work/prebuilt" DEB_BUILD_OPTIONS="noautodbgsym")
fi
start=$SECONDS
(cd src && env "${build_env[@]}" dpkg-buildpackage -b -us -uc >"$work/build.log" 2>&1) ||
  { echo "FAIL dpkg-buildpackage:"; tail -20 "$work/build.log"; exit 1; }
echo "dpkg-buildpackage -b: $((SECONDS - start)) s, $how"

arch=$(dpkg-architecture -qDEB_HOST_ARCH)
tool_deb=$work/ftclos_${VERSION}_$arch.deb
plugin_deb=$work/opensm-ftclos_${VERSION}_$arch.deb
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
for deb in "$tool_deb" "$plugin_deb"; do [ -f "$deb" ] || { echo "FAIL no $deb: $(ls "$work")"; exit 1; }; done

plugin_files=$(dpkg-deb -c "$plugin_deb" | awk '{print $6}')
tool_files=$(dpkg-deb -c "$tool_deb" | awk '{print $6}')
grep -qx "\./usr/lib/$triplet/libosmftclos\.so" <<<"$plugin_files" ||
  fail "opensm-ftclos holds no usr/lib/$triplet/libosmftclos.so: $(tr '\n' ' ' <<<"$plugin_files")"
opensm_version=$(dpkg-query -W -f='${Version}' opensm)
depends=$(dpkg-deb -f "$plugin_deb" Depends)
grep -q "opensm (= $opensm_version)" <<<"$depends" || fail "opensm-ftclos Depends: $depends (want opensm (= $opensm_version))"
grep -qx "\./usr/share/man/man8/opensm-ftclos\.8\.gz" <<<"$plugin_files" ||
  fail "opensm-ftclos holds no usr/share/man/man8/opensm-ftclos.8.gz: $(tr '\n' ' ' <<<"$plugin_files")"
for path in usr/bin/ftclos usr/share/man/man1/ftclos.1.gz usr/share/bash-completion/completions/ftclos \
  usr/share/doc/ftclos/schemas/audit.schema.json usr/share/doc/ftclos/schemas/detect.schema.json; do
  grep -qx "\./$path" <<<"$tool_files" || fail "ftclos holds no $path"
done

root=$work/root
dpkg -x "$tool_deb" "$root"
dpkg -x "$plugin_deb" "$root"
[ "$("$root/usr/bin/ftclos" --version)" = "ftclos $VERSION" ] || fail "packaged ftclos --version: $("$root/usr/bin/ftclos" --version)"
page=$root/usr/share/man/man8/opensm-ftclos.8.gz
warnings=$(zcat "$page" | LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z 2>&1) || fail "groff failed on opensm-ftclos.8"
[ -z "$warnings" ] || fail "opensm-ftclos.8 has roff warnings: $(head -3 <<<"$warnings")"
zcat "$page" | grep -q 'ERR 16' || fail "opensm-ftclos.8 lacks the ERR table"

# opensm with the packaged example configuration; LIBPATH: the loader path, or none.
net=$source_root/ibsim-topos/ft-8-3.net
run_packaged_opensm() {
  local dir=$work/$1 libpath=$2 sock=ftclos-debian-$$-$1
  mkdir -p "$dir"
  start_ibsim "$sock" "$net" "$dir/ibsim.log"
  { cat "$root/usr/share/doc/opensm-ftclos/opensm-ftclos.conf"
    echo "force_log_flush TRUE"
    echo "log_flags 0x43"  # ROUTING: opensm-lfts.dump
    echo "dump_files_dir $dir"; } >"$dir/opensm.conf"
  (cd "$dir" && OSM_CACHE_DIR=$dir OSM_TMP_DIR=$dir LD_LIBRARY_PATH=$libpath \
    sim_run "$sock" "$(first_ca "$net")" timeout 120 opensm -F "$dir/opensm.conf" -f "$dir/osm.log" -o \
    >"$dir/opensm.out" 2>&1) || true
  stop_ibsim "${IBSIM_PIDS[-1]}"
}
run_packaged_opensm loaded "$root/usr/lib/$triplet"
grep -q "ftclos tables configured on all switches" "$work/loaded/osm.log" ||
  fail "opensm with the packaged plugin: $(grep -E 'ftclos|routing engine' "$work/loaded/osm.log" | head -3)"
first=$(grep -m1 "ftclos" "$work/loaded/osm.log" | grep -o "ftclos [0-9][^ ]* (built for [^)]*)" || true)
[ "$first" = "ftclos $VERSION (built for OpenSM $(timeout 5 opensm --version 2>/dev/null | grep -o '3\.[0-9.]*' | head -1))" ] ||
  fail "the plugin's first log line is not its version: '$first'"
# The example's offline check, as written there but for the paths.
suggested=$(sed -n 's/^#   \(ftclos route .*\)/\1/p' "$root/usr/share/doc/opensm-ftclos/opensm-ftclos.conf")
[ -n "$suggested" ] || fail "the packaged opensm-ftclos.conf suggests no ftclos route command"
command=${suggested/ftclos route/$root/usr/bin/ftclos route}
command=${command/FABRIC/$net}
command=${command/\/var\/cache\/opensm\/guid2lid/$work/loaded/guid2lid}
rc=0
(cd "$work/loaded" && eval "$command" >suggested.out 2>&1) || rc=$?
if [ "$rc" != 0 ] || ! cmp -s "$work/loaded/opensm-lfts.dump" "$work/loaded/ftclos.dump"; then
  fail "the packaged conf's '$suggested' (exit $rc: $(tail -1 "$work/loaded/suggested.out")) does not print OpenSM's opensm-lfts.dump"
fi
run_packaged_opensm control ""
if grep -q "ftclos tables configured" "$work/control/osm.log"; then
  fail "control: opensm found libosmftclos.so without the package root on its path, so the check above shows nothing"
fi

[ "$failures" -eq 0 ] || exit 1
echo "ftclos_${VERSION} and opensm-ftclos_${VERSION} (Depends: $depends) $how;" \
  "the unpacked plugin loaded from usr/lib/$triplet: '$first', ftclos tables configured on all switches;" \
  "without that path opensm did not find it"
