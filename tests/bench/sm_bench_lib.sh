# Shared by recovery.sh and largest_subnet.sh (sourced; not a benchmark of
# its own): the e2e helpers for one OpenSM daemon on a console ibsim
# (tests/e2e/plugin_lib.sh, sm_daemon.sh); sets $e2e to their folder.
# shellcheck shell=bash
e2e=$(cd "$(dirname "${BASH_SOURCE[0]}")/../e2e" && pwd)
# shellcheck source=tests/e2e/plugin_lib.sh
here=$e2e source "$e2e/plugin_lib.sh"
# shellcheck source=tests/e2e/sm_daemon.sh
source "$e2e/sm_daemon.sh"
