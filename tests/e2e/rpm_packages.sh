#!/usr/bin/env bash
# The RPM packages as a RHEL, SLES or Fedora cluster gets them, made here
# with Debian's rpm: `rpmbuild -bb ftclos.spec` on the release tarball of a
# clean clone of the committed tree (git archive, what `rpmbuild -ta` reads),
# the plugin built against upstream OpenSM 3.3.24 (vendored_opensm.sh;
# --define "opensm_prefix DIR"), --nodeps (the build dependencies are RPM
# names). Checked: the spec's Version is meson's; `ftclos` holds the
# command, its man page, bash completion and the JSON Schemas;
# `opensm-ftclos` holds libosmftclos.so in rpm's %{_libdir}, opensm-ftclos.8
# and the annotated conf, and requires exactly `opensm = 3.3.24`; unpacked
# (rpm2archive), the packaged ftclos prints its version and OpenSM 3.3.24 on
# ibsim loads the packaged plugin, which logs "built for OpenSM 3.3.24" and
# configures every switch.
#
# By default (the short case) the packages hold what the build against 3.3.24
# beside FTCLOS_BUILD_ROOT compiled (opensm_3324.sh's, prefix /usr):
# `meson install --no-rebuild` into a stage that the spec copies
# (--define "ftclos_prebuilt DIR") in place of its meson build.
# `--from-source` (the long case, opt-in): rpmbuild compiles the tarball
# itself with the spec's meson build (-Dtests=false, rpm's %{optflags}).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/plugin_lib.sh
source "$here/plugin_lib.sh"
plugin_work_dir
# shellcheck source=tests/e2e/vendored_opensm.sh
source "$here/vendored_opensm.sh"
VERSION=${FTCLOS_VERSION:?set FTCLOS_VERSION to the project version}
from_source=0
case ${1:-} in
  --from-source) from_source=1 ;;
  "") ;;
  *) echo "usage: $0 [--from-source]"; exit 2 ;;
esac
command -v rpmbuild >/dev/null || { echo "skipped: no rpmbuild (Debian package rpm)"; exit 77; }
failures=0
fail() { echo "FAIL $*"; exit 1; }
check() { echo "FAIL $*"; failures=$((failures + 1)); }

vendored_opensm
libdir=$(rpm --eval '%{_libdir}')
# One fixed _topdir under the build directory, so that ccache recognizes the
# compiler lines of the previous --from-source run (the path is part of them).
top=${FTCLOS_BUILD_ROOT%/}/rpm-package
rm -rf "$top"
mkdir -p "$top/SOURCES"
git clone --quiet "$root" "$work/src"
spec_version=$(rpmspec -q --srpm --qf '%{VERSION}' "$work/src/ftclos.spec")
[ "$spec_version" = "$VERSION" ] || fail "ftclos.spec says Version $spec_version, meson.build $VERSION"
git -C "$work/src" archive --prefix="ftclos-$VERSION/" -o "$top/SOURCES/ftclos-$VERSION.tar.gz" HEAD

defines=(--define "_topdir $top" --define "opensm_prefix $OSM3324_PREFIX")
if [ "$from_source" = 1 ]; then
  how="compiled by rpmbuild from the release tarball"
  export CCACHE_DIR=${CCACHE_DIR:-$(ccache -k cache_dir 2>/dev/null || echo "$HOME/.cache/ccache")}
else
  build_against_opensm "$work/build.log" ftclos doc/ftclos.1 plugin/libosmftclos.so plugin/opensm-ftclos.8
  meson install -C "$OSM3324_BUILD" --no-rebuild --destdir "$work/stage" >"$work/install.log" 2>&1 ||
    fail "meson install: $(tail -5 "$work/install.log")"
  defines+=(--define "ftclos_prebuilt $work/stage")
  how="packaged from $OSM3324_BUILD as compiled there (ftclos_prebuilt), ftclos.spec from a clean clone"
fi
start=$SECONDS
rpmbuild -bb --nodeps "${defines[@]}" "$work/src/ftclos.spec" >"$work/rpmbuild.log" 2>&1 ||
  fail "rpmbuild -bb: $(tail -20 "$work/rpmbuild.log")"
echo "rpmbuild -bb: $((SECONDS - start)) s, $how"

arch=$(rpm --eval '%{_arch}')
tool_rpm=$(find "$top/RPMS/$arch" -name "ftclos-$VERSION-*.rpm")
plugin_rpm=$(find "$top/RPMS/$arch" -name "opensm-ftclos-$VERSION-*.rpm")
for rpm_file in "$tool_rpm" "$plugin_rpm"; do
  [ -f "$rpm_file" ] || fail "rpmbuild made $(find "$top/RPMS" -name '*.rpm' | tr '\n' ' ')"
done

tool_files=$(rpm -qlp "$tool_rpm" 2>/dev/null)
plugin_files=$(rpm -qlp "$plugin_rpm" 2>/dev/null)
for path in /usr/bin/ftclos /usr/share/man/man1/ftclos.1 /usr/share/bash-completion/completions/ftclos \
  /usr/share/doc/ftclos/schemas/audit.schema.json /usr/share/doc/ftclos/schemas/detect.schema.json; do
  grep -qx "$path\(\.gz\)\?" <<<"$tool_files" || check "ftclos RPM holds no $path: $(tr '\n' ' ' <<<"$tool_files")"
done
for path in "$libdir/libosmftclos.so" /usr/share/man/man8/opensm-ftclos.8 /usr/share/doc/opensm-ftclos/opensm-ftclos.conf; do
  grep -qx "$path\(\.gz\)\?" <<<"$plugin_files" || check "opensm-ftclos RPM holds no $path: $(tr '\n' ' ' <<<"$plugin_files")"
done
requires=$(rpm -qRp "$plugin_rpm" 2>/dev/null)
grep -qx "opensm = 3\.3\.24" <<<"$requires" || check "opensm-ftclos requires $(tr '\n' ',' <<<"$requires") (want opensm = 3.3.24)"

# The packages unpacked, as rpm -i would lay them out.
unpacked=$work/root
mkdir -p "$unpacked"
for rpm_file in "$tool_rpm" "$plugin_rpm"; do
  rpm2archive - <"$rpm_file" | tar -xzf - -C "$unpacked" || fail "rpm2archive $rpm_file"
done
[ "$("$unpacked/usr/bin/ftclos" --version)" = "ftclos $VERSION" ] ||
  check "packaged ftclos --version: $("$unpacked/usr/bin/ftclos" --version)"
net=$root/ibsim-topos/ft-8-3.net
dir=$work/loaded
sock=ftclos-rpm-$$
mkdir -p "$dir"
start_ibsim "$sock" "$net" "$dir/ibsim.log"
{ cat "$unpacked/usr/share/doc/opensm-ftclos/opensm-ftclos.conf"
  echo "force_log_flush TRUE"
  echo "dump_files_dir $dir"; } >"$dir/opensm.conf"
OPENSM=$OSM3324_PREFIX/sbin/opensm OSM_LIBRARY_PATH=$unpacked$libdir:$OSM3324_PREFIX/lib \
  run_opensm "$dir" "$sock" "$(first_ca "$net")" timeout 120 -o >"$dir/opensm.out" 2>&1 || true
stop_ibsim "${IBSIM_PIDS[-1]}"
first=$(grep -m1 -o "ftclos [0-9][^ ]* (built for [^)]*)" "$dir/osm.log" || true)
[ "$first" = "ftclos $VERSION (built for OpenSM 3.3.24)" ] || check "the packaged plugin's first log line: '$first'"
grep -q "ftclos tables configured on all switches" "$dir/osm.log" ||
  check "OpenSM 3.3.24 with the packaged plugin: $(grep -E 'ftclos|routing engine|version' "$dir/osm.log" | head -3)"

[ "$failures" -eq 0 ] || exit 1
echo "$(basename "$tool_rpm") and $(basename "$plugin_rpm") (Requires: opensm = 3.3.24) $how;" \
  "$libdir/libosmftclos.so and opensm-ftclos.8 in the plugin's; unpacked, OpenSM 3.3.24 loaded it: '$first'," \
  "ftclos tables configured on all switches"
