// Internals shared by the generator sources (generate_*.cc, degrade.cc,
// shuffle.cc); not part of the API.
#pragma once

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/fabric.h"
#include "core/random.h"

namespace ftclos {

/// Generators refuse fabrics larger than this (all nodes, hosts included).
inline constexpr int64_t kMaxGeneratedNodes = 100'000;

// The GUID plan. ibsim makes a CA port GUID its node GUID + port number and
// gives every switch port the node GUID, so host node GUIDs are spaced 0x100
// apart (room for any port count) in a range of their own, away from switches.
inline uint64_t switch_guid(int switch_index) { return 0xf7c1000000000000ULL + switch_index + 1; }
inline uint64_t host_guid(int host_index) { return 0xf7c1100000000000ULL + 0x100ULL * (host_index + 1); }

/// Adds a generated node with its GUIDs: the node GUID from the plan, a switch's
/// port 0 sharing it, CA port p at node GUID + p. `index` counts switches or
/// hosts separately, in the order the generator adds them.
inline Result<int> add_switch(Fabric& fabric, std::string name, int num_ports, int index) {
  Result<int> node = fabric.add_node(NodeType::kSwitch, std::move(name), num_ports, switch_guid(index));
  if (node.ok()) fabric.node(*node).ports[0].guid = switch_guid(index);
  return node;
}
inline Result<int> add_host(Fabric& fabric, std::string name, int num_ports, int index) {
  Result<int> node = fabric.add_node(NodeType::kCa, std::move(name), num_ports, host_guid(index));
  if (node.ok())
    for (int p = 1; p <= num_ports; ++p) fabric.node(*node).ports[p].guid = host_guid(index) + p;
  return node;
}

/// A copy of `fabric` that holds the nodes `order` lists (old indices, in their
/// new order). Port p of old node i becomes port port_maps[i][p] (unchanged
/// when port_maps is empty); a port's GUID and LID move with it. Cables to
/// nodes left out are dropped. Defined in shuffle.cc.
Fabric renumber(const Fabric& fabric, const std::vector<int>& order,
                const std::vector<std::vector<int>>& port_maps = {});

}  // namespace ftclos
