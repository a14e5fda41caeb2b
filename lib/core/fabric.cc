#include "core/fabric.h"

#include <tuple>

#include <fmt/format.h>

namespace ftclos {

Result<int> Fabric::add_node(NodeType type, std::string name, int num_ports, uint64_t guid) {
  if (num_ports < 1 || num_ports > 254)
    return Status::Error(fmt::format("node \"{}\": port count {} is outside 1..254", name, num_ports));
  if (by_name_.count(name)) return Status::Error(fmt::format("node \"{}\" is defined twice", name));
  const int index = size();
  by_name_.emplace(name, index);
  Node node;
  node.type = type;
  node.name = std::move(name);
  node.guid = guid;
  node.num_ports = num_ports;
  node.ports.resize(num_ports + 1);
  nodes_.push_back(std::move(node));
  return index;
}

Status Fabric::connect(PortRef a, PortRef b) {
  for (PortRef ref : {a, b}) {
    if (ref.node < 0 || ref.node >= size())
      return Status::Error(fmt::format("no node with index {}", ref.node));
    if (ref.port < 1 || ref.port > nodes_[ref.node].num_ports)
      return Status::Error(fmt::format("\"{}\" has ports 1..{}, not port {}", nodes_[ref.node].name,
                                       nodes_[ref.node].num_ports, ref.port));
  }
  if (a == b) return Status::Error(fmt::format("port {} of \"{}\" cabled to itself", a.port, nodes_[a.node].name));
  for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
    PortRef current = port(from).peer;
    if (current.valid() && current != to) {
      return Status::Error(fmt::format("port {} of \"{}\" is cabled to \"{}\"[{}] and to \"{}\"[{}]", from.port,
                                       nodes_[from.node].name, nodes_[current.node].name, current.port,
                                       nodes_[to.node].name, to.port));
    }
  }
  port(a).peer = b;
  port(b).peer = a;
  return Status::Ok();
}

void Fabric::disconnect(PortRef a) {
  PortRef b = port(a).peer;
  if (!b.valid()) return;
  port(a).peer = {};
  port(b).peer = {};
  port(a).rate = port(b).rate = {};
}

std::optional<int> Fabric::find(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

std::optional<int> Fabric::find_guid(uint64_t node_guid) const {
  for (int i = 0; i < size(); ++i)
    if (nodes_[i].guid == node_guid) return i;
  return std::nullopt;
}

int Fabric::count(NodeType type) const {
  int n = 0;
  for (const Node& node : nodes_) n += node.type == type;
  return n;
}

int Fabric::cable_count() const {
  int ends = 0;
  for (const Node& node : nodes_)
    for (int p = 1; p <= node.num_ports; ++p) ends += node.ports[p].peer.valid();
  return ends / 2;
}

int Fabric::switch_links() const {
  int links = 0;
  for (int i = 0; i < size(); ++i) {
    if (!nodes_[i].is_switch()) continue;
    for (int p = 1; p <= nodes_[i].num_ports; ++p) {
      PortRef peer = nodes_[i].ports[p].peer;
      if (peer.valid() && nodes_[peer.node].is_switch() && PortRef{i, p} < peer) ++links;
    }
  }
  return links;
}

bool precedes_by_guid(const Fabric& fabric, int a, int b) {
  const Node& x = fabric.node(a);
  const Node& y = fabric.node(b);
  return std::tie(x.guid, x.name) < std::tie(y.guid, y.name);
}

Fabric induced_subfabric(const Fabric& fabric, const std::vector<bool>& keep, std::vector<int>* new_index) {
  Fabric sub;
  std::vector<int> index(fabric.size(), -1);
  for (int i = 0; i < fabric.size(); ++i) {
    if (!keep[i]) continue;
    const Node& node = fabric.node(i);
    index[i] = *sub.add_node(node.type, node.name, node.num_ports, node.guid);
    Node& copy = sub.node(index[i]);
    copy.description = node.description;
    for (int p = 0; p <= node.num_ports; ++p) {
      copy.ports[p] = node.ports[p];
      copy.ports[p].peer = {};  // cabled below, in the new numbering
    }
  }
  for (int i = 0; i < fabric.size(); ++i) {
    if (index[i] < 0) continue;
    for (int p = 1; p <= fabric.node(i).num_ports; ++p) {
      const PortRef peer = fabric.node(i).ports[p].peer;
      if (peer.valid() && index[peer.node] >= 0) sub.node(index[i]).ports[p].peer = {index[peer.node], peer.port};
    }
  }
  if (new_index) *new_index = std::move(index);
  return sub;
}

uint64_t port_guid(const Node& node, int port) {
  if (const uint64_t guid = node.ports[port].guid; guid != 0) return guid;
  return node.is_switch() ? node.guid : node.guid + port;
}

std::string format_guid(uint64_t guid) { return fmt::format("0x{:016x}", guid); }

std::vector<int> first_channels(const Fabric& fabric) {
  std::vector<int> out(fabric.size() + 1, 0);
  for (int x = 0; x < fabric.size(); ++x) out[x + 1] = out[x] + fabric.node(x).num_ports + 1;
  return out;
}

}  // namespace ftclos
