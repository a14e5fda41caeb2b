# Shared by opensm_3324.sh and rpm_packages.sh (sourced; not a test of its
# own): upstream OpenSM 3.3.24, the version RHEL 8/9 and its rebuilds, SLES
# 15 and Fedora ship, built from the vendored tarball, and a meson build of
# ftclos against it. Needs lib.sh, $root (the source tree) and fail().
# shellcheck shell=bash

# vendored_opensm: sets OSM3324_PREFIX to OpenSM 3.3.24 installed under
# $FTCLOS_BUILD_ROOT/opensm-3.3.24/<the tarball's sha256>, building it the
# first time (~2 CPU-minutes) from $FTCLOS_VENDOR_DIR/opensm-3.3.24.tar.xz
# (by default shared/vendor beside the source tree, as CI clones it); exits
# 77 (skipped) without the tarball. Runs that race build it once (a lock;
# the others wait and use it).
vendored_opensm() {
  local tarball cache lock got
  tarball=${FTCLOS_VENDOR_DIR:-$root/../shared/vendor}/opensm-3.3.24.tar.xz
  [ -f "$tarball" ] || { echo "skipped: no $tarball (set FTCLOS_VENDOR_DIR to the folder that holds it)"; exit 77; }
  cache=${FTCLOS_BUILD_ROOT:?}/opensm-3.3.24
  OSM3324_PREFIX=$cache/$(sha256sum "$tarball" | cut -c1-16)
  if [ ! -x "$OSM3324_PREFIX/sbin/opensm" ]; then
    mkdir -p "$cache"
    exec {lock}>"$cache/build.lock"
    flock "$lock"
    [ -x "$OSM3324_PREFIX/sbin/opensm" ] || build_vendored_opensm "$tarball" "$cache"
    exec {lock}>&-
  fi
  got=$(LD_LIBRARY_PATH=$OSM3324_PREFIX/lib timeout 5 "$OSM3324_PREFIX/sbin/opensm" --version 2>&1 |
    grep -o 'OpenSM [0-9.]*' | head -1 || true)
  [ "$got" = "OpenSM 3.3.24" ] || fail "$OSM3324_PREFIX/sbin/opensm --version says '$got'"
}

# build_vendored_opensm TARBALL CACHE: configured with its final prefix
# (libtool bakes it into the rpath), staged by DESTDIR in a temporary
# directory and renamed into place, so a build that stops half way leaves
# no half-installed OpenSM behind.
build_vendored_opensm() {
  local tmp start=$SECONDS
  tmp=$(mktemp -d "$2/tmp.XXXXXX")
  if ! (tar -xJf "$1" -C "$tmp" && cd "$tmp/opensm-3.3.24" && ./autogen.sh &&
    ./configure --prefix="$OSM3324_PREFIX" && nice -n 10 make -j2 && make install DESTDIR="$tmp/stage") >"$tmp.log" 2>&1; then
    rm -rf "$tmp"
    fail "building OpenSM 3.3.24 (log: $tmp.log): $(tail -5 "$tmp.log")"
  fi
  mv -T "$tmp/stage$OSM3324_PREFIX" "$OSM3324_PREFIX" || fail "could not move the OpenSM 3.3.24 install into $OSM3324_PREFIX"
  rm -rf "$tmp" "$tmp.log"
  echo "OpenSM 3.3.24 built into $OSM3324_PREFIX ($((SECONDS - start)) s)"
}

# build_against_opensm LOG TARGET...: ftclos's meson build against that
# OpenSM, OSM3324_BUILD beside the main build, with the targets built; one
# build at a time (a lock in the main build). Set up the first time: -Dopensm_prefix,
# laid out as the RPM wants it (prefix /usr, rpm's %{_libdir}), -O0 without
# debug information (a cold compile of what the plugin links takes about
# half the CPU of -O2 -g1; the tests check what the headers change, not the
# optimizer). CCACHE_NOHASHDIR: another clone's build there hits ccache.
build_against_opensm() {
  local log=$1 lock
  shift
  OSM3324_BUILD=${FTCLOS_BUILD_ROOT%/}-osm3324
  exec {lock}>"${FTCLOS_BUILD_ROOT%/}/osm3324.lock"
  flock "$lock"
  if [ ! -f "$OSM3324_BUILD/build.ninja" ]; then
    meson setup "$OSM3324_BUILD" "$root" -Dopensm_prefix="$OSM3324_PREFIX" -Dbenchmarks=disabled \
      -Doptimization=0 -Ddebug=false --prefix=/usr --libdir="$(rpm --eval '%{_libdir}')" >"$log" 2>&1
  elif [ "$(meson_option "$OSM3324_BUILD" opensm_prefix)" != "$OSM3324_PREFIX" ]; then
    meson configure "$OSM3324_BUILD" -Dopensm_prefix="$OSM3324_PREFIX" >"$log" 2>&1
  fi || { exec {lock}>&-; fail "meson setup $OSM3324_BUILD -Dopensm_prefix=$OSM3324_PREFIX: $(tail -5 "$log")"; }
  CCACHE_NOHASHDIR=true nice -n 10 ninja -C "$OSM3324_BUILD" -j2 "$@" >>"$log" 2>&1 ||
    { exec {lock}>&-; fail "building $* against OpenSM 3.3.24: $(grep -m3 -E 'error|FAILED' "$log")"; }
  exec {lock}>&-
}
