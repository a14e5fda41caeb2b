#!/usr/bin/env python3
"""What a failure did to the forwarding tables, for failure_sweep.sh.

  lft_churn.py elements NET
      the failures to try on an ibsim net file: one tab-separated line per
      switch-to-switch cable, `cable NAME PORT PEER PEER_PORT`, then one per
      switch, `switch NAME`.
  lft_churn.py churn BEFORE_TOPO BEFORE_LFTS AFTER_LFTS [DEAD...]
      compares two table read-backs (dump_lfts or opensm-lfts.dump) entry by
      entry, keyed by (switch GUID, destination port GUID), on the switches and
      destinations present in both. DEAD names the failed elements by their
      node description: `NAME` (a switch taken out) or `NAME:PORT` (one end of
      a cut cable; give both ends). An entry is *forced* when its old route, traced
      through BEFORE_LFTS on BEFORE_TOPO (ibnetdiscover output), met a dead
      element; every other change is churn the failure did not require.
      Prints `ca=N sw=N ca_unforced=N sw_unforced=N forced=N lost=N` on one line:
      changed entries toward CA and switch LIDs, those of them whose old route
      avoided every dead element, how many old routes met one, and entries
      that have no counterpart (their switch or destination is gone).
"""
import re
import sys

NO_PATH = 0xFF
HEADER = re.compile(r"Unicast lids .* guid 0x([0-9a-fA-F]+)")
ENTRY = re.compile(r"0x([0-9a-fA-F]+)\s+(\d+)\s+[:#]\s+\(?(Channel Adapter|Switch) portguid 0x([0-9a-fA-F]+)")


def read_lfts(path):
    """{switch GUID: {destination port GUID: (LID, out port)}}, destinations {port GUID: is a switch}."""
    tables, kinds, current = {}, {}, None
    with open(path, errors="replace") as lines:
        for line in lines:
            header = HEADER.search(line)
            if header:
                current = tables.setdefault(int(header[1], 16), {})
                continue
            entry = ENTRY.match(line.strip())
            if entry and current is not None:
                guid = int(entry[4], 16)
                current[guid] = (int(entry[1], 16), int(entry[2]))
                kinds[guid] = entry[3] == "Switch"
    return tables, kinds


def read_topology(path):
    """ibnetdiscover output: {switch GUID: {port: peer node GUID}} and {node description: node GUID}."""
    peers, guids, current = {}, {}, None
    node = re.compile(r'^(Switch|Ca|Hca)\s+\d+\s+"[SH]-([0-9a-fA-F]+)"\s+#\s+"([^"]*)"')
    link = re.compile(r'^\[(\d+)\](?:\(([0-9a-fA-F]+)\))?\s+"[SH]-([0-9a-fA-F]+)"\[(\d+)\]')
    with open(path, errors="replace") as lines:
        for line in lines:
            m = node.match(line)
            if m:
                current = int(m[2], 16) if m[1] == "Switch" else None
                guids[m[3]] = int(m[2], 16)
                if current is not None:
                    peers[current] = {}
                continue
            m = link.match(line)
            if m and current is not None:
                peers[current][int(m[1])] = int(m[3], 16)
    return peers, guids


def parse_dead(words, guids):
    switches, ports = set(), set()
    for word in words:
        name, _, port = word.rpartition(":")
        if name and port.isdigit():
            ports.add((guids[name], int(port)))
        else:
            switches.add(guids[word])
    return switches, ports


def meets_dead(peers, tables, start, dest, dead_switches, dead_ports):
    """Whether the route from switch `start` toward port GUID `dest` meets a dead element."""
    switch = start
    for _ in range(64):
        if switch in dead_switches:
            return True
        entry = tables.get(switch, {}).get(dest)
        if entry is None or entry[1] in (0, NO_PATH):
            return False
        if (switch, entry[1]) in dead_ports:
            return True
        switch = peers.get(switch, {}).get(entry[1])
        if switch is None or switch not in peers:
            return False
    return False


def churn(before_topo, before_path, after_path, *dead):
    peers, guids = read_topology(before_topo)
    before, kinds = read_lfts(before_path)
    after, _ = read_lfts(after_path)
    dead_switches, dead_ports = parse_dead(dead, guids)
    before_dests = {dest for table in before.values() for dest in table}
    after_dests = {dest for table in after.values() for dest in table}
    counts = dict(ca=0, sw=0, ca_unforced=0, sw_unforced=0, forced=0, lost=0)
    for switch, table in before.items():
        if switch not in after:
            counts["lost"] += len(table)
            continue
        for dest, (_, port) in table.items():
            if dest not in after_dests:
                counts["lost"] += 1
                continue
            forced = bool(dead_switches or dead_ports) and meets_dead(peers, before, switch, dest, dead_switches,
                                                                      dead_ports)
            counts["forced"] += forced
            new_port = after[switch].get(dest, (0, NO_PATH))[1]
            if new_port == port:
                continue
            kind = "sw" if kinds[dest] else "ca"
            counts[kind] += 1
            if not forced:
                counts[kind + "_unforced"] += 1
        # Entries the old tables lacked (no path before) and the new ones have count as changes too.
        for dest in (after[switch].keys() - table.keys()) & before_dests:
            counts["sw" if kinds[dest] else "ca"] += 1
    print(" ".join(f"{k}={v}" for k, v in counts.items()))
    return 0


def elements(net):
    switches, ports, current = [], [], None
    node = re.compile(r'^(Switch|Ca|Hca)\s+\d+\s+"([^"]+)"')
    link = re.compile(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]')
    with open(net) as lines:
        for line in lines:
            m = node.match(line)
            if m:
                current = m[2] if m[1] == "Switch" else None
                if current:
                    switches.append(current)
                continue
            m = link.match(line)
            if m and current:
                ports.append((current, int(m[1]), m[2], int(m[3])))
    names = set(switches)
    for name, port, peer, peer_port in ports:
        if peer in names and (name, port) < (peer, peer_port):
            print("cable", name, port, peer, peer_port, sep="\t")
    for name in switches:
        print("switch", name, sep="\t")
    return 0


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    sys.exit({"churn": churn, "elements": elements}[command](*args))
