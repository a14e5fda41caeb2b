// Reordering a fabric's nodes and ports without changing what is cabled to
// what: the shape of a file that was not written by our generators.
#include <numeric>
#include <random>
#include <vector>

#include "gen/generate.h"
#include "gen/generator_support.h"

namespace ftclos {

Fabric renumber(const Fabric& fabric, const std::vector<int>& order, const std::vector<std::vector<int>>& port_maps) {
  auto new_port = [&](int node, int port) { return port_maps.empty() ? port : port_maps[node][port]; };
  Fabric copy;
  std::vector<int> new_index(fabric.size(), -1);
  for (int old : order) {
    const Node& node = fabric.node(old);
    // The names of a valid Fabric are unique and its port counts in range, so this cannot fail.
    new_index[old] = *copy.add_node(node.type, node.name, node.num_ports, node.guid);
    Node& added = copy.node(new_index[old]);
    added.description = node.description;
    for (int p = 0; p <= node.num_ports; ++p) {
      Port& port = added.ports[new_port(old, p)];
      port = node.ports[p];
      port.peer = {};  // cabled below, in the new numbering
    }
  }
  for (int old : order) {
    const Node& node = fabric.node(old);
    for (int p = 1; p <= node.num_ports; ++p) {
      const PortRef peer = node.ports[p].peer;
      if (!peer.valid() || new_index[peer.node] < 0) continue;
      // Both ends are distinct, in range and free in `copy`, so connect cannot fail.
      copy.connect({new_index[old], new_port(old, p)}, {new_index[peer.node], new_port(peer.node, peer.port)});
    }
  }
  return copy;
}

Fabric shuffle(const Fabric& fabric, uint64_t seed, bool ports) {
  std::mt19937_64 rng(seed);
  std::vector<int> order(fabric.size());
  std::iota(order.begin(), order.end(), 0);
  shuffle_in_place(order.begin(), order.end(), rng);
  std::vector<std::vector<int>> port_maps;
  if (ports) {
    for (const Node& node : fabric.nodes()) {
      // Port 0 (the switch itself) and host ports stay where they are.
      std::vector<int> map(node.num_ports + 1);
      std::iota(map.begin(), map.end(), 0);
      if (node.is_switch()) shuffle_in_place(map.begin() + 1, map.end(), rng);
      port_maps.push_back(std::move(map));
    }
  }
  return renumber(fabric, order, port_maps);
}

}  // namespace ftclos
