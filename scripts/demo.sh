#!/usr/bin/env bash
# The main job on the default fabric: recognize FT(8,3) as ibsim serves it.
# Builds, starts a private ibsim on ibsim-topos/ft-8-3.net, discovers the
# fabric with ibnetdiscover through the simulator, and runs `ftclos detect`
# on what was discovered.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh" >/dev/null
source "$root/tests/e2e/lib.sh"
fabric=${1:-$root/ibsim-topos/ft-8-3.net}
work=$(mktemp -d)
trap 'cleanup_ibsims; rm -rf "$work"' EXIT

sock=ftclos-demo-$$
start_ibsim "$sock" "$fabric" "$work/ibsim.log" -N 4096 -S 1024 -P 32768
echo "== ibsim serves $(basename "$fabric"); ibnetdiscover reads it back"
sim_run "$sock" "$(first_ca "$fabric")" timeout 120 ibnetdiscover >"$work/discovered.net" 2>/dev/null
echo "== ftclos detect (on the discovered fabric)"
"$root/build/ftclos" detect "$work/discovered.net"
