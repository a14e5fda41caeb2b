// Degrading a generated fabric the way real ones are: cables fail, and leaves
// are not fully populated.
#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/aggregation_node.h"
#include "gen/generate.h"
#include "gen/generator_support.h"

namespace ftclos {
namespace {

// A SHARP Aggregation Node is part of its switch, no host of it.
bool is_host(const Fabric& fabric, PortRef peer) {
  return peer.valid() && !fabric.node(peer.node).is_switch() && !is_aggregation_node(fabric.node(peer.node));
}

// Every node except the hosts beyond the first `hosts_per_leaf` (by port) of
// some switch.
std::vector<int> nodes_kept(const Fabric& fabric, int hosts_per_leaf) {
  std::vector<bool> dropped(fabric.size(), false);
  for (int s = 0; s < fabric.size(); ++s) {
    const Node& node = fabric.node(s);
    if (!node.is_switch()) continue;
    int hosts = 0;
    for (int p = 1; p <= node.num_ports; ++p) {
      const PortRef peer = node.ports[p].peer;
      if (is_host(fabric, peer) && ++hosts > hosts_per_leaf) dropped[peer.node] = true;
    }
  }
  std::vector<int> kept;
  for (int i = 0; i < fabric.size(); ++i)
    if (!dropped[i]) kept.push_back(i);
  return kept;
}

// The most hosts any switch carries.
int most_hosts_on_a_switch(const Fabric& fabric) {
  int most = 0;
  for (int s = 0; s < fabric.size(); ++s) {
    const Node& node = fabric.node(s);
    if (!node.is_switch()) continue;
    int hosts = 0;
    for (int p = 1; p <= node.num_ports; ++p)
      hosts += is_host(fabric, node.ports[p].peer);
    most = std::max(most, hosts);
  }
  return most;
}

// Switch-to-switch cables, each once, in node and port order.
std::vector<RemovedCable> switch_cables(const Fabric& fabric) {
  std::vector<RemovedCable> cables;
  for (int s = 0; s < fabric.size(); ++s) {
    const Node& node = fabric.node(s);
    if (!node.is_switch()) continue;
    for (int p = 1; p <= node.num_ports; ++p) {
      const PortRef here{s, p}, peer = node.ports[p].peer;
      if (peer.valid() && fabric.node(peer.node).is_switch() && here < peer) cables.push_back({here, peer});
    }
  }
  return cables;
}

}  // namespace

Result<std::vector<RemovedCable>> degrade(Fabric& fabric, const Degradation& degradation) {
  const int links = fabric.switch_links();
  if (degradation.fail_links < 0 || degradation.fail_links > links)
    return Status::Error(fmt::format("cannot fail {} switch-to-switch cables: the fabric has {}",
                                     degradation.fail_links, links));
  // Asking for more hosts than a leaf has would silently keep them all.
  if (const int most = most_hosts_on_a_switch(fabric); degradation.hosts_per_leaf > most)
    return Status::Error(fmt::format("cannot keep {} hosts per leaf: the leaves of this fabric carry at most {}",
                                     degradation.hosts_per_leaf, most));
  if (degradation.hosts_per_leaf >= 0) fabric = renumber(fabric, nodes_kept(fabric, degradation.hosts_per_leaf));

  // A partial Fisher-Yates: the first fail_links entries become a random sample.
  std::vector<RemovedCable> cables = switch_cables(fabric);
  std::mt19937_64 rng(degradation.seed);
  for (int i = 0; i < degradation.fail_links; ++i)
    std::swap(cables[i], cables[i + draw_below(rng, cables.size() - i)]);
  cables.resize(degradation.fail_links);
  std::sort(cables.begin(), cables.end(), [](const RemovedCable& x, const RemovedCable& y) { return x.a < y.a; });
  for (const RemovedCable& cable : cables) fabric.disconnect(cable.a);
  return cables;
}

}  // namespace ftclos
