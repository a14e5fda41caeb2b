#!/usr/bin/env bash
# Installs what ftclos needs on Debian bookworm and builds it into build/.
# Idempotent: a second run only rebuilds what changed.
# Usage: scripts/setup.sh [--packages-only]
set -euo pipefail
cd "$(dirname "$0")/.."

# ccache: meson compiles through it when installed, so a second run (or a
# fresh clone on the same machine) recompiles only what changed.
packages=(
  g++ meson ninja-build pkg-config python3 ccache
  libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev libgmock-dev libbenchmark-dev
  opensm libopensm-dev libibumad-dev libibnetdisc-dev libibmad-dev ibsim-utils infiniband-diags chromium
  clang libclang-rt-14-dev
  python3-jsonschema bash-completion debhelper  # json_schemas.sh; install_layout.sh; debian_packages.sh
  python3-prometheus-client  # plugin_metrics.sh: a strict parser of the text format
  autoconf automake libtool libtool-bin flex bison rpm  # OpenSM 3.3.24 from source (opensm_3324.sh); rpm_packages.sh
)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# --packages-only: the packages, not the build (scripts/test.sh times each).
[ "${1:-}" != --packages-only ] || exit 0
[ -d build ] || meson setup build >/dev/null
ninja -C build
