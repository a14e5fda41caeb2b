#include "route/subnet_fabric.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>

namespace ftclos {
namespace {

std::string hex_guid(uint64_t guid) { return fmt::format("{:016x}", guid); }

Result<const ftclos_node*> node_at(const ftclos_subnet& subnet, int index) {
  if (index < 0 || static_cast<size_t>(index) >= subnet.num_nodes)
    return Status::Error(fmt::format("node index {} out of range (the subnet has {} nodes)", index, subnet.num_nodes));
  return &subnet.nodes[index];
}

// The cabled ports of every CA: (node, port) -> true, and how many per node.
Status find_cabled_ca_ports(const ftclos_subnet& subnet, std::map<std::pair<int, int>, bool>& cabled,
                            std::vector<int>& cabled_count) {
  cabled_count.assign(subnet.num_nodes, 0);
  for (size_t i = 0; i < subnet.num_links; ++i) {
    const ftclos_link& link = subnet.links[i];
    for (auto [n, p] : {std::pair{link.a, link.a_port}, std::pair{link.b, link.b_port}}) {
      Result<const ftclos_node*> node = node_at(subnet, n);
      if (!node.ok()) return node.status();
      if (p < 1 || p > (*node)->num_ports)
        return Status::Error(fmt::format("port {} of node {:#x} out of range", p, (*node)->guid));
      if ((*node)->type != FTCLOS_SWITCH && !cabled[{n, p}]) {
        cabled[{n, p}] = true;
        ++cabled_count[n];
      }
    }
  }
  return Status::Ok();
}

// The nodes, named as `ftclos route` names nodes read from ibnetdiscover
// output; returns (subnet node, CA port) -> fabric CA node, port 1.
Result<std::map<std::pair<int, int>, PortRef>> add_nodes(const ftclos_subnet& subnet, SubnetFabric& out) {
  std::map<std::pair<int, int>, bool> cabled;
  std::vector<int> cabled_count;
  if (Status status = find_cabled_ca_ports(subnet, cabled, cabled_count); !status.ok()) return status;
  std::map<std::pair<int, int>, PortRef> ca_port;
  out.switch_of.assign(subnet.num_nodes, -1);
  for (size_t i = 0; i < subnet.num_nodes; ++i) {
    const ftclos_node& node = subnet.nodes[i];
    const std::string description = node.description ? node.description : "";
    if (node.type == FTCLOS_SWITCH) {
      Result<int> index = out.fabric.add_node(NodeType::kSwitch, "S-" + hex_guid(node.guid), node.num_ports, node.guid);
      if (!index.ok()) return index.status();
      out.fabric.node(*index).description = description;
      out.switch_of[i] = *index;
      continue;
    }
    for (int p = 1; p <= node.num_ports; ++p) {
      if (!cabled.count({static_cast<int>(i), p})) continue;
      const bool alone = cabled_count[i] == 1;
      const std::string name = alone ? "H-" + hex_guid(node.guid) : fmt::format("H-{}-p{}", hex_guid(node.guid), p);
      Result<int> index = out.fabric.add_node(NodeType::kCa, name, 1, alone ? node.guid : node.guid + p);
      if (!index.ok()) return index.status();
      out.fabric.node(*index).description = alone ? description : fmt::format("{} port {}", description, p);
      ca_port[{static_cast<int>(i), p}] = {*index, 1};
    }
  }
  return ca_port;
}

// LIDs exactly as the subnet manager assigned them.
Status add_lids(const ftclos_subnet& subnet, const std::map<std::pair<int, int>, PortRef>& ca_port,
                SubnetFabric& out) {
  LidMap& lids = out.lids;
  lids.lmc = subnet.lmc;
  lids.base.assign(out.fabric.size(), 0);
  lids.owner.assign(1, -1);
  for (size_t i = 0; i < subnet.num_lids; ++i) {
    const ftclos_lid& record = subnet.lids[i];
    if (Result<const ftclos_node*> node = node_at(subnet, record.node); !node.ok()) return node.status();
    if (record.base_lid == 0) continue;
    PortRef at;
    if (out.switch_of[record.node] >= 0) {
      if (record.port != 0) continue;  // switch LIDs live on port 0
      at = {out.switch_of[record.node], 0};
    } else if (auto it = ca_port.find({record.node, record.port}); it != ca_port.end()) {
      at = it->second;
      if (record.lmc != subnet.lmc)
        return Status::Error(
            fmt::format("port {:#x} has LMC {}, the subnet LMC is {}", record.guid, record.lmc, subnet.lmc));
    } else {
      ++out.unrouted_ports;  // the SM's own port before its link is up, or a port OpenSM keeps a LID for
      continue;
    }
    Port& port = out.fabric.port(at);
    port.guid = record.guid;
    port.lid = record.base_lid;
    port.lmc = record.lmc;
    const int last = record.base_lid + (1 << record.lmc) - 1;
    if (static_cast<int>(lids.owner.size()) <= last) lids.owner.resize(last + 1, -1);
    for (int lid = record.base_lid; lid <= last; ++lid) {
      if (lids.owner[lid] >= 0)
        return Status::Error(fmt::format("LID {} belongs to both \"{}\" and \"{}\"", lid,
                                         out.fabric.node(lids.owner[lid]).display_name(),
                                         out.fabric.node(at.node).display_name()));
      lids.owner[lid] = at.node;
    }
    lids.base[at.node] = record.base_lid;
    lids.max_lid = std::max(lids.max_lid, last);
  }
  return Status::Ok();
}

}  // namespace

Result<SubnetFabric> fabric_from_subnet(const ftclos_subnet& subnet) {
  SubnetFabric out;
  Result<std::map<std::pair<int, int>, PortRef>> ca_port = add_nodes(subnet, out);
  if (!ca_port.ok()) return ca_port.status();
  auto ref = [&](int n, int p) -> PortRef {
    if (out.switch_of[n] >= 0) return {out.switch_of[n], p};
    return ca_port->at({n, p});
  };
  for (size_t i = 0; i < subnet.num_links; ++i) {
    const ftclos_link& link = subnet.links[i];
    if (Status status = out.fabric.connect(ref(link.a, link.a_port), ref(link.b, link.b_port)); !status.ok())
      return status;
  }
  if (Status status = add_lids(subnet, *ca_port, out); !status.ok()) return status;
  return out;
}

}  // namespace ftclos
