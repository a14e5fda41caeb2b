# Shared by plugin_routes.sh and plugin_failures.sh (sourced; not a test of
# its own): a private ibsim whose console listens on a FIFO (for `Dump` and
# `Unlink`), OpenSM with the osmftclos plugin attached to it, and a checker
# that reads ibsim's `Dump` (every switch's LFT, every port's LID, every
# cable) to compare tables by port GUID and trace CA-to-CA routes; and the
# read-back of SLs and SL2VL tables plugin_sl2vl.sh and anyfabric_engines.sh
# audit with.
# Every test has its own IBSIM_SOCKNAME and work folder; processes are
# stopped by PID only.
# shellcheck shell=bash

# shellcheck source=tests/e2e/lib.sh disable=SC2154  # $here: set by the sourcing script
source "$here/lib.sh"
FTCLOS=${FTCLOS:?set FTCLOS to the ftclos binary}
FTCLOS_PLUGIN_DIR=${FTCLOS_PLUGIN_DIR:?set FTCLOS_PLUGIN_DIR to the folder of libosmftclos.so}
# Without OpenSM headers (libopensm-dev, libibumad-dev) meson builds no plugin: skip (77).
[ -f "$FTCLOS_PLUGIN_DIR/libosmftclos.so" ] || { echo "skipped: no libosmftclos.so in $FTCLOS_PLUGIN_DIR (OpenSM headers missing at setup?)"; exit 77; }
# The OpenSM these scripts run: the system's unless FTCLOS_OPENSM names
# another opensm binary and FTCLOS_OPENSM_LIBDIR its libraries (opensm_3324.sh:
# upstream 3.3.24 built from the vendored source, with a plugin built against
# it in FTCLOS_PLUGIN_DIR). OpenSM dlopens lib<event_plugin_name>.so by bare
# name: the loader finds it on LD_LIBRARY_PATH, FTCLOS_PLUGIN_DIR first.
OPENSM=${FTCLOS_OPENSM:-opensm}
OSM_LIBRARY_PATH=$FTCLOS_PLUGIN_DIR${FTCLOS_OPENSM_LIBDIR:+:$FTCLOS_OPENSM_LIBDIR}

SIM_PID=
SIM_FD=
SIM_LOG=

# start_console_ibsim SOCK FABRIC LOG [ibsim limits...]: ibsim reading its
# console from a FIFO that this shell keeps open on $SIM_FD (at end of input
# ibsim would spin). Sets SIM_PID and SIM_LOG; returns once it is ready.
start_console_ibsim() {
  local sock=$1 fabric=$2 log=$3
  shift 3
  rm -f "$log.fifo"
  mkfifo "$log.fifo"
  IBSIM_SOCKNAME=$sock ibsim -s "$@" "$fabric" <"$log.fifo" >>"$log" 2>&1 &
  SIM_PID=$!
  IBSIM_PIDS+=("$SIM_PID")
  SIM_LOG=$log
  exec {SIM_FD}>"$log.fifo"
  wait_ibsim_ready "$SIM_PID" "$log" "$fabric"
}

# stop_console_ibsim: the simulator started last, by its PID.
stop_console_ibsim() {
  [ -n "$SIM_PID" ] && stop_ibsim "$SIM_PID"
  [ -n "$SIM_FD" ] && exec {SIM_FD}>&-
  SIM_PID=
  SIM_FD=
}

# sim_console CMD: one console command (Dump, Unlink "node"[port], ...).
sim_console() {
  echo "$1" >&"$SIM_FD"
}

# sim_dump OUT: ibsim's `Dump` of the whole fabric, as it is now, into OUT.
sim_dump() {
  local out=$1 start
  start=$(($(stat -c %s "$SIM_LOG") + 1))
  sim_console "Dump"
  for _ in $(seq 1 600); do
    if tail -c +"$start" "$SIM_LOG" | grep -aq "dumped [0-9]* nodes"; then
      tail -c +"$start" "$SIM_LOG" | tr -d '\0' >"$out"
      return 0
    fi
    sleep 0.1
  done
  echo "ibsim did not answer Dump" >&2
  return 1
}

# plugin_work_dir: $root (the source tree) and a fresh work folder $work,
# made the working directory (diags killed hard leave sys-<pid> folders in
# theirs); on exit the simulators stop and $work goes, unless
# FTCLOS_E2E_KEEP is set (kept for a look).
plugin_work_dir() {
  root=${FTCLOS_SOURCE_ROOT:-$here/../..}
  work=$(mktemp -d)
  cd "$work"
  trap 'cleanup_ibsims; [ -n "${FTCLOS_E2E_KEEP:-}" ] || rm -rf "$work"; rm -f "$PLUGIN_CHECK"' EXIT
}

# run_opensm DIR SOCK HOST [timeout SECONDS] [opensm args...]: $OPENSM with
# DIR/opensm.conf and the plugin's folder on LD_LIBRARY_PATH, logging to
# DIR/osm.log.
run_opensm() {
  local dir=$1 sock=$2 host=$3 limit=()
  shift 3
  [ "${1:-}" != timeout ] || { limit=(timeout "$2"); shift 2; }
  (cd "$dir" && OSM_CACHE_DIR=$dir OSM_TMP_DIR=$dir LD_LIBRARY_PATH=$OSM_LIBRARY_PATH \
    sim_run "$sock" "$host" "${limit[@]}" "$OPENSM" -F "$dir/opensm.conf" -f "$dir/osm.log" "$@")
}

# The checker. Subcommands (exit 0 when the check holds; one summary line):
#   compare EXPECTED_DUMP SIM_DUMP LMC   tables equal by (switch GUID, port GUID, LID offset)
#   reach SIM_DUMP                       every CA reaches every other on each of its LIDs
#   changes OLD_DUMP NEW_DUMP NODE PORT  which entries changed after cable NODE[PORT] died
#   cas SIM_DUMP                         "name base-LID LMC" of every cabled CA port
PLUGIN_CHECK=$(mktemp)
cat >"$PLUGIN_CHECK" <<'PY'
import re
import sys

NO_PATH = 0xFF


def parse_sim(path):
    """ibsim's Dump: nodes by name with type, port GUIDs, peers, LIDs, LFT."""
    nodes, cur = {}, None
    for raw in open(path, errors="replace"):
        line = raw.replace("\0", "").strip()
        while line.startswith("sim>"):
            line = line[4:].strip()
        m = re.match(r'(Switch|Ca|Hca)\s+(\d+)\s+"([^"]*)"\s+nodeguid\s+([0-9a-fA-F]+)', line)
        if m:
            cur = {"switch": m[1] == "Switch", "name": m[3], "guid": int(m[4], 16),
                   "peers": {}, "lft": {}, "lids": {}, "pguid": {}}
            nodes[m[3]] = cur
            continue
        if cur is None:
            continue
        if line.startswith("#") and "Forwarding table" in line:
            for lid, port in re.findall(r"\[(\d+)\]([0-9A-Fa-f]+)", line.split(":", 1)[1]):
                cur["lft"][int(lid)] = int(port, 16)
            continue
        m = re.match(r'([0-9a-fA-F]+)\s+\[(\d+)\]\s*(?:"([^"]*)"\[(\d+)\])?(.*)$', line)
        if m:
            port = int(m[2])
            cur["pguid"][port] = int(m[1], 16)
            if m[3] is not None and not (cur["switch"] and port == 0):
                cur["peers"][port] = (m[3], int(m[4]))
            lid = re.search(r"\blid (\d+) lmc (\d+)", m[5])
            if lid:
                cur["lids"][port] = (int(lid[1]), int(lid[2]))
    return nodes


def lid_owners(nodes):
    """LID -> (port GUID, offset, node name, port)."""
    owners = {}
    for node in nodes.values():
        for port, (base, lmc) in node["lids"].items():
            count = 1 if node["switch"] else 1 << lmc
            for off in range(count):
                owners[base + off] = (node["pguid"][port], off, node["name"], port)
    return owners


def parse_expected(path, lmc):
    """An opensm-lfts.dump from `ftclos route`: {switch GUID: {(port GUID, offset): port}}."""
    tables, cur = {}, None
    mask = (1 << lmc) - 1
    for line in open(path):
        m = re.match(r"Unicast lids .* guid 0x([0-9a-fA-F]+)", line)
        if m:
            cur = tables.setdefault(int(m[1], 16), {})
            continue
        m = re.match(r"0x([0-9a-fA-F]+)\s+(\d+)\s+#\s+(Channel Adapter|Switch)\s+portguid 0x([0-9a-fA-F]+)", line)
        if m and cur is not None:
            lid = int(m[1], 16)
            off = lid & mask if m[3] == "Channel Adapter" else 0
            cur[(int(m[4], 16), off)] = int(m[2])
    return tables


def actual_tables(nodes):
    owners = lid_owners(nodes)
    tables, strays = {}, []
    for node in nodes.values():
        if not node["switch"]:
            continue
        table = tables.setdefault(node["guid"], {})
        for lid, port in node["lft"].items():
            if port == NO_PATH or lid == 0:
                continue
            if lid not in owners:
                strays.append(f'{node["name"]} LID {lid} -> port {port} (no port owns LID {lid})')
                continue
            table[owners[lid][:2]] = port
    return tables, strays


def compare(expected_path, sim_path, lmc):
    nodes = parse_sim(sim_path)
    expected = parse_expected(expected_path, int(lmc))
    actual, strays = actual_tables(nodes)
    names = {n["guid"]: n["name"] for n in nodes.values()}
    bad = list(strays)
    entries = 0
    for sw in sorted(set(expected) | set(actual)):
        if sw not in expected or sw not in actual:
            bad.append(f"switch {sw:#x} only in {'ftclos route' if sw in expected else 'the simulator'}")
            continue
        for key in sorted(set(expected[sw]) | set(actual[sw])):
            want, got = expected[sw].get(key, NO_PATH), actual[sw].get(key, NO_PATH)
            entries += 1
            if want != got:
                bad.append(f"{names.get(sw, hex(sw))}: to port {key[0]:#x} offset {key[1]}: "
                           f"ftclos route says {want}, switch has {got}")
    if bad:
        print(f"{len(bad)} of {entries} entries differ; first ones:")
        for line in bad[:6]:
            print("   ", line)
        return 1
    print(f"{len(actual)} switches, {entries} entries equal to ftclos route by port GUID")
    return 0


def trace(nodes, start, dlid, dest, dead=None, limit=64):
    """Follows the LFTs from switch `start` toward `dlid`: 'ok', 'no path',
    'dead port', 'wrong node', 'loop', or 'crossed' when it uses cable `dead`."""
    cur = start
    for _ in range(limit):
        node = nodes[cur]
        port = node["lft"].get(dlid, NO_PATH)
        if port == NO_PATH:
            return "no path"
        if port == 0:
            return "ok" if dest == (cur, 0) else "wrong node"
        if dead and (cur, port) in dead:
            return "crossed"
        peer = node["peers"].get(port)
        if peer is None:
            return "dead port"
        if not nodes[peer[0]]["switch"]:
            return "ok" if peer == dest else "wrong node"
        cur = peer[0]
    return "loop"


def ca_ports(nodes):
    for node in nodes.values():
        if node["switch"]:
            continue
        for port, peer in node["peers"].items():
            if port in node["lids"]:
                yield node["name"], port, peer, node["lids"][port]


def reach(sim_path, what="cas"):
    """Every CA to every LID of every other CA; with what=switches also every
    switch to every LID and every CA to every switch LID."""
    nodes = parse_sim(sim_path)
    cas = list(ca_ports(nodes))
    pairs = traces = 0
    failed = {}
    examples = []
    for s_name, s_port, s_peer, _ in cas:
        for d_name, d_port, _, (base, lmc) in cas:
            if (s_name, s_port) == (d_name, d_port):
                continue
            pairs += 1
            for off in range(1 << lmc):
                traces += 1
                result = trace(nodes, s_peer[0], base + off, (d_name, d_port))
                if result != "ok":
                    failed[result] = failed.get(result, 0) + 1
                    if len(examples) < 5:
                        examples.append(f"{s_name} -> {d_name} LID {base + off}: {result}")
    if not cas or failed:
        print(f"{sum(failed.values())} of {traces} CA routes fail {failed}:", "; ".join(examples) or "no CAs")
        return 1
    if what != "switches":
        print(f"{pairs} CA pairs reachable on all {traces} LIDs")
        return 0
    # Switches' own traffic (PMA queries and answers): every switch to every
    # LID of another node, every CA to every switch LID.
    switches = [n for n in nodes.values() if n["switch"] and 0 in n["lids"]]
    targets = [(base + off, (d_name, d_port)) for d_name, d_port, _, (base, lmc) in cas for off in range(1 << lmc)]
    targets += [(n["lids"][0][0], (n["name"], 0)) for n in switches]
    switch_traces = 0
    for sw in switches:
        for lid, dest in targets:
            if dest == (sw["name"], 0):
                continue
            switch_traces += 1
            result = trace(nodes, sw["name"], lid, dest)
            if result != "ok":
                failed[result] = failed.get(result, 0) + 1
                if len(examples) < 5:
                    examples.append(f'switch {sw["name"]} -> LID {lid}: {result}')
    for s_name, _, s_peer, _ in cas:
        for sw in switches:
            switch_traces += 1
            result = trace(nodes, s_peer[0], sw["lids"][0][0], (sw["name"], 0))
            if result != "ok":
                failed[result] = failed.get(result, 0) + 1
                if len(examples) < 5:
                    examples.append(f'{s_name} -> switch {sw["name"]}: {result}')
    if failed:
        print(f"{sum(failed.values())} of {switch_traces} switch routes (PMA) fail {failed}:", "; ".join(examples))
        return 1
    print(f"{pairs} CA pairs reachable on all {traces} LIDs; {switch_traces} switch routes (PMA) delivered")
    return 0


def switch_levels(nodes):
    """Hops from the nearest CA over switch cables: leaves 1."""
    level, frontier = {}, []
    for name, node in nodes.items():
        if node["switch"] and any(not nodes[p[0]]["switch"] for p in node["peers"].values() if p[0] in nodes):
            level[name] = 1
            frontier.append(name)
    while frontier:
        nxt = []
        for name in frontier:
            for peer, _ in nodes[name]["peers"].values():
                if peer in nodes and nodes[peer]["switch"] and peer not in level:
                    level[peer] = level[name] + 1
                    nxt.append(peer)
        frontier = nxt
    return level


def turns(nodes, level, start, dlid, limit=64):
    """Whether the route from switch `start` to `dlid` goes down, then up."""
    cur, descended = start, False
    for _ in range(limit):
        port = nodes[cur]["lft"].get(dlid, NO_PATH)
        peer = nodes[cur]["peers"].get(port) if port not in (NO_PATH, 0) else None
        if peer is None or not nodes[peer[0]]["switch"]:
            return False
        up = level.get(peer[0], 0) > level.get(cur, 0)
        if descended and up:
            return True
        descended = descended or not up
        cur = peer[0]
    return False


def changes(old_path, new_path, node_name, port):
    old, new = parse_sim(old_path), parse_sim(new_path)
    port = int(port)
    peer = old[node_name]["peers"].get(port)
    if peer is None:
        print(f"{node_name}[{port}] has no cable in the first dump")
        return 1
    dead = {(node_name, port), peer}
    owners = lid_owners(old)
    level = switch_levels(old)
    counts = {"ca": [0, 0], "switch": [0, 0]}  # [changed, changed though the old route avoided the cable]
    turned = 0  # switch-LID entries changed without crossing it whose old route turned
    crossing = unchanged_crossing = 0
    examples = {"ca": [], "switch": []}
    for name, node in old.items():
        if not node["switch"]:
            continue
        for lid, (guid, off, owner, owner_port) in owners.items():
            before = node["lft"].get(lid, NO_PATH)
            after = new[name]["lft"].get(lid, NO_PATH)
            kind = "switch" if old[owner]["switch"] else "ca"
            crossed = trace(old, name, lid, (owner, owner_port), dead) == "crossed"
            crossing += crossed
            if before == after:
                unchanged_crossing += crossed and kind == "ca"
                continue
            counts[kind][0] += 1
            if not crossed:
                counts[kind][1] += 1
                turned += kind == "switch" and turns(old, level, name, lid)
                if len(examples[kind]) < 3:
                    examples[kind].append(f"{name} LID {lid} ({owner}): {before} -> {after}")
    print(f"cable {node_name}[{port}] - {peer[0]}[{peer[1]}]: {crossing} entries' old routes crossed it; "
          f"changed {counts['ca'][0]} CA-LID entries ({counts['ca'][1]} of them did not cross it) and "
          f"{counts['switch'][0]} switch-LID entries ({counts['switch'][1]} did not cross it, {turned} of them "
          f"turned); "
          f"{unchanged_crossing} CA-LID entries crossing it unchanged")
    if examples["ca"]:
        print("   CA-LID entries changed without crossing it:", "; ".join(examples["ca"]))
    if examples["switch"]:
        print("   switch-LID entries changed without crossing it:", "; ".join(examples["switch"]))
    # Entries that cross the cable may stay when the next switch detours
    # (reach checks those); entries that never met it must not move, but for
    # switches' own routes that turned: they turn at one leaf, which moves
    # when the cut takes a top switch from above it (lib/paths/switch_routes_legal.h).
    untouched = counts["ca"][1] == 0 and counts["switch"][1] == turned
    return 0 if untouched and counts["ca"][0] > 0 else 1


def cas(sim_path):
    for name, _, _, (base, lmc) in ca_ports(parse_sim(sim_path)):
        print(name, base, lmc)
    return 0


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    sys.exit({"compare": compare, "reach": reach, "changes": changes, "cas": cas}[command](*args))
PY

plugin_check() {
  python3 "$PLUGIN_CHECK" "$@"
}

# Read-back helpers shared by plugin_sl2vl.sh and anyfabric_engines.sh.

# sl2vl_of_dump FILE PORTS: OpenSM's opensm-sl2vl.dump as `smpquery sl2vl`
# prints tables (what `ftclos audit --sl2vl` reads): the rows of the out
# ports PORTS lists ("LID PORT", switch_ports), as smpquery gives them.
sl2vl_of_dump() {
  awk 'FNR == NR { cabled[$1 " " $2] = 1; next }
       /^Switch / { lid = $5; sub(/,$/, "", lid); printf "# SL2VL table: Lid %d\n", lid; sw = 1; next }
       /^Channel Adapter / { sw = 0; next }
       sw && $3 == ":" && cabled[lid " " $2] {
         printf "ports: in %2d, out %2d: |", $1, $2; for (i = 4; i <= 19; ++i) printf "%2d|", $i; print "" }' "$2" "$1"
}

# ca_lids NET: the base LID of every CA in ibnetdiscover output, one a line.
ca_lids() {
  awk '/^(Ca|Hca)[ \t]/ { ca = 1; next } /^$/ { ca = 0 }
       ca && /^\[1\]/ && match($0, /# lid [0-9]+/) { print substr($0, RSTART + 6, RLENGTH - 6) }' "$1"
}

# switch_ports NET: "LID PORT" of every cabled switch port in ibnetdiscover output.
switch_ports() {
  awk '/^Switch/ { lid = ""; if (match($0, / lid [0-9]+ /)) lid = substr($0, RSTART + 5, RLENGTH - 6); next }
       /^$/ { lid = "" }
       lid != "" && match($0, /^\[[0-9]+\]/) { print lid, substr($0, 2, RLENGTH - 2) }' "$1"
}

# path_sls_file SOCK HOST NET OUT: OpenSM's PathRecord SL of every ordered
# pair of CAs in ibnetdiscover output NET, one SA Get each from HOST
# (path_sls, built beside the plugin), as an `ftclos audit --sl` file.
path_sls_file() {
  local lids
  mapfile -t lids < <(ca_lids "$3")
  {
    echo "ftclos-sl 1"
    for s in "${lids[@]}"; do for d in "${lids[@]}"; do [ "$s" = "$d" ] || echo "$s $d"; done; done |
      sim_run "$1" "$2" timeout 600 "$FTCLOS_PLUGIN_DIR/path_sls"
  } >"$4"
}
