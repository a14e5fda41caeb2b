#include "engine/subnet_fabric.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>

#include "core/end_nodes.h"

namespace ftclos {
namespace {

std::string hex_guid(uint64_t guid) { return fmt::format("{:016x}", guid); }

Result<const ftclos_node*> node_at(const ftclos_subnet& subnet, int index) {
  if (index < 0 || static_cast<size_t>(index) >= subnet.num_nodes)
    return Status::Error(fmt::format("node index {} out of range (the subnet has {} nodes)", index, subnet.num_nodes));
  return &subnet.nodes[index];
}

// The nodes with all their ports, named as `ftclos route` names nodes read
// from ibnetdiscover output.
Status add_nodes(const ftclos_subnet& subnet, Fabric& fabric) {
  for (size_t i = 0; i < subnet.num_nodes; ++i) {
    const ftclos_node& node = subnet.nodes[i];
    const bool is_switch = node.type == FTCLOS_SWITCH;
    Result<int> index = fabric.add_node(is_switch ? NodeType::kSwitch : NodeType::kCa,
                                        (is_switch ? "S-" : "H-") + hex_guid(node.guid), node.num_ports, node.guid);
    if (!index.ok()) return index.status();
    fabric.node(*index).description = node.description ? node.description : "";
  }
  return Status::Ok();
}

Status add_links(const ftclos_subnet& subnet, Fabric& fabric) {
  for (size_t i = 0; i < subnet.num_links; ++i) {
    const ftclos_link& link = subnet.links[i];
    for (auto [n, p] : {std::pair{link.a, link.a_port}, std::pair{link.b, link.b_port}}) {
      Result<const ftclos_node*> node = node_at(subnet, n);
      if (!node.ok()) return node.status();
      if (p < 1 || p > (*node)->num_ports)
        return Status::Error(fmt::format("port {} of node {:#x} out of range", p, (*node)->guid));
    }
    if (Status status = fabric.connect({link.a, link.a_port}, {link.b, link.b_port}); !status.ok()) return status;
  }
  return Status::Ok();
}

// The subnet manager's LIDs on the ports that carry them: a switch's port 0,
// a CA's port. Counts CA ports with a LID but no cable.
Status add_port_lids(const ftclos_subnet& subnet, Fabric& fabric, int& unrouted_ports) {
  for (size_t i = 0; i < subnet.num_lids; ++i) {
    const ftclos_lid& record = subnet.lids[i];
    Result<const ftclos_node*> node = node_at(subnet, record.node);
    if (!node.ok()) return node.status();
    if (record.base_lid == 0) continue;
    const bool is_switch = (*node)->type == FTCLOS_SWITCH;
    if (is_switch && record.port != 0) continue;  // switch LIDs live on port 0
    if (!is_switch && (record.port < 1 || record.port > (*node)->num_ports)) {
      ++unrouted_ports;
      continue;
    }
    if (!is_switch && record.lmc != subnet.lmc)
      return Status::Error(fmt::format("port {:#x} has LMC {}, the subnet LMC is {}", record.guid, record.lmc, subnet.lmc));
    Port& port = fabric.port({record.node, is_switch ? 0 : record.port});
    if (!is_switch && !port.peer.valid()) {
      ++unrouted_ports;  // the SM's own port before its link is up, or a port OpenSM keeps a LID for
      continue;
    }
    port.guid = record.guid;
    port.lid = record.base_lid;
    port.lmc = record.lmc;
  }
  return Status::Ok();
}

// The LID owners of the end-node fabric.
Status index_lids(const Fabric& fabric, int lmc, LidMap& lids) {
  lids.lmc = lmc;
  lids.base.assign(fabric.size(), 0);
  lids.owner.assign(1, -1);
  for (int i = 0; i < fabric.size(); ++i) {
    const Node& node = fabric.node(i);
    const Port& port = node.ports[node.is_switch() ? 0 : 1];
    if (port.lid == 0) continue;
    const int last = port.lid + (node.is_switch() ? 0 : (1 << lmc) - 1);
    if (static_cast<int>(lids.owner.size()) <= last) lids.owner.resize(last + 1, -1);
    for (int lid = port.lid; lid <= last; ++lid) {
      if (lids.owner[lid] >= 0)
        return Status::Error(fmt::format("LID {} belongs to both \"{}\" and \"{}\"", lid,
                                         fabric.node(lids.owner[lid]).display_name(), node.display_name()));
      lids.owner[lid] = i;
    }
    lids.base[i] = port.lid;
    lids.max_lid = std::max(lids.max_lid, last);
  }
  return Status::Ok();
}

}  // namespace

Result<SubnetFabric> fabric_from_subnet(const ftclos_subnet& subnet) {
  if (subnet.lmc < 0 || subnet.lmc > 7) return Status::Error(fmt::format("LMC {} is outside 0..7", subnet.lmc));
  Fabric whole;
  SubnetFabric out;
  if (Status status = add_nodes(subnet, whole); !status.ok()) return status;
  if (Status status = add_links(subnet, whole); !status.ok()) return status;
  if (Status status = add_port_lids(subnet, whole, out.unrouted_ports); !status.ok()) return status;
  std::vector<int> new_index;
  out.fabric = split_end_nodes(whole, &new_index);
  out.switch_of.assign(subnet.num_nodes, -1);
  for (size_t i = 0; i < subnet.num_nodes; ++i)
    if (subnet.nodes[i].type == FTCLOS_SWITCH) out.switch_of[i] = new_index[i];
  if (Status status = index_lids(out.fabric, subnet.lmc, out.lids); !status.ok()) return status;
  return out;
}

}  // namespace ftclos
