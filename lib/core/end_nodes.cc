#include "core/end_nodes.h"

#include <fmt/format.h>

#include <vector>


namespace ftclos {
namespace {

std::vector<int> cabled_ports(const Node& node) {
  std::vector<int> ports;
  for (int p = 1; p <= node.num_ports; ++p)
    if (node.ports[p].peer.valid()) ports.push_back(p);
  return ports;
}

}  // namespace

bool has_split_end_nodes(const Fabric& fabric) {
  for (const Node& node : fabric.nodes())
    if (!node.is_switch() && (node.num_ports != 1 || !node.ports[1].peer.valid())) return false;
  return true;
}

Fabric split_end_nodes(const Fabric& fabric, std::vector<int>* new_index) {
  if (new_index) new_index->assign(fabric.size(), -1);
  if (has_split_end_nodes(fabric)) {
    if (new_index)
      for (int i = 0; i < fabric.size(); ++i) (*new_index)[i] = i;
    return fabric;
  }
  Fabric out;
  // Where each original port went: new_ref[node][port].
  std::vector<std::vector<PortRef>> new_ref(fabric.size());
  for (int i = 0; i < fabric.size(); ++i) {
    const Node& node = fabric.node(i);
    new_ref[i].assign(node.num_ports + 1, PortRef{});
    if (node.is_switch()) {
      const int index = *out.add_node(NodeType::kSwitch, node.name, node.num_ports, node.guid);
      Node& copy = out.node(index);
      copy.description = node.description;
      for (int p = 0; p <= node.num_ports; ++p) {
        copy.ports[p] = node.ports[p];
        copy.ports[p].peer = {};
        new_ref[i][p] = {index, p};
      }
      if (new_index) (*new_index)[i] = index;
      continue;
    }
    const std::vector<int> ports = cabled_ports(node);
    for (int p : ports) {
      const bool alone = ports.size() == 1;
      // "<name>-p<port>" may be another node's name in the input; that node
      // keeps it.
      std::string name = alone ? node.name : fmt::format("{}-p{}", node.name, p);
      while (!alone && fabric.find(name)) name += "'";
      const int index = *out.add_node(NodeType::kCa, name, 1, alone ? node.guid : node.guid + p);
      Node& end = out.node(index);
      if (!alone && !node.description.empty()) end.description = fmt::format("{} port {}", node.description, p);
      else if (alone) end.description = node.description;
      end.ports[1] = node.ports[p];
      end.ports[1].peer = {};
      new_ref[i][p] = {index, 1};
      if (new_index && (*new_index)[i] < 0) (*new_index)[i] = index;
    }
  }
  for (int i = 0; i < fabric.size(); ++i) {
    const Node& node = fabric.node(i);
    for (int p = 1; p <= node.num_ports; ++p) {
      const PortRef peer = node.ports[p].peer;
      if (!peer.valid()) continue;
      const PortRef a = new_ref[i][p];
      const PortRef b = new_ref[peer.node][peer.port];
      out.port(a).peer = b;
      out.port(b).peer = a;
    }
  }
  return out;
}

}  // namespace ftclos
