#include "tables/tables_by_guid.h"

#include <utility>

namespace ftclos {
namespace {

// The GUID of the port that carries a node's LIDs: a switch's port 0, a CA's port 1.
uint64_t lid_port_guid(const Fabric& fabric, int node) {
  const Node& n = fabric.node(node);
  const size_t port = n.is_switch() ? 0 : 1;
  const uint64_t guid = port < n.ports.size() ? n.ports[port].guid : 0;
  return guid != 0 ? guid : n.guid;
}

// Calls visit(switch GUID, port) for every switch port with a cable.
template <class Visit>
void for_each_cabled_switch_port(const Fabric& fabric, Visit visit) {
  for (int x = 0; x < fabric.size(); ++x) {
    const Node& n = fabric.node(x);
    if (!n.is_switch()) continue;
    for (int p = 1; p <= n.num_ports; ++p)
      if (fabric.peer({x, p}).valid()) visit(n.guid, p);
  }
}

}  // namespace

TablesByGuid::TablesByGuid(const Fabric& fabric, const LidMap& lids, Lfts lfts) : lmc_(lids.lmc) {
  for (int x = 0; x < fabric.size(); ++x) {
    if (x < static_cast<int>(lids.base.size()) && lids.base[x] != 0) base_[lid_port_guid(fabric, x)] = lids.base[x];
    if (fabric.node(x).is_switch() && x < static_cast<int>(lfts.port.size()) && !lfts.port[x].empty())
      switches_[fabric.node(x).guid] = std::move(lfts.port[x]);
  }
  for_each_cabled_switch_port(fabric, [&](uint64_t guid, int port) { cabled_.insert({guid, port}); });
}

bool TablesByGuid::repaired_in(const Fabric& fabric) const {
  bool gained = false;
  for_each_cabled_switch_port(fabric, [&](uint64_t guid, int port) { gained |= !cabled_.contains({guid, port}); });
  return gained;
}

// Per current LID, the kept LID of the same owner and offset (0: none).
std::vector<int> TablesByGuid::kept_lids(const Fabric& fabric, const LidMap& lids) const {
  std::vector<int> kept_lid(lids.owner.size(), 0);
  if (lids.lmc != lmc_) return kept_lid;
  for (int lid = 1; lid < static_cast<int>(lids.owner.size()); ++lid) {
    const int owner = lids.owner[lid];
    if (owner < 0) continue;
    const auto base = base_.find(lid_port_guid(fabric, owner));
    if (base != base_.end()) kept_lid[lid] = base->second + (lid - lids.base[owner]);
  }
  return kept_lid;
}

Lfts TablesByGuid::take_on(const Fabric& fabric, const LidMap& lids) {
  const std::vector<int> kept_lid = kept_lids(fabric, lids);
  for (int lid = 1; lid < static_cast<int>(kept_lid.size()); ++lid)
    if (kept_lid[lid] != 0 && kept_lid[lid] != lid) {
      Lfts out = copied_on(fabric, lids, kept_lid);
      switches_.clear();
      return out;
    }
  // Every LID kept is itself: each table is on() already but where no LID
  // is kept (those read kNoPath) and beyond the LIDs now.
  Lfts out;
  out.port.resize(fabric.size());
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch()) continue;
    const auto kept = switches_.find(fabric.node(x).guid);
    if (kept == switches_.end()) continue;
    std::vector<uint8_t>& table = out.port[x];
    table = std::move(kept->second);
    table.resize(lids.max_lid + 1, kNoPath);
    table[0] = kNoPath;
    for (int lid = 1; lid <= lids.max_lid; ++lid)
      if (lid >= static_cast<int>(kept_lid.size()) || kept_lid[lid] == 0) table[lid] = kNoPath;
  }
  switches_.clear();
  return out;
}

Lfts TablesByGuid::on(const Fabric& fabric, const LidMap& lids) const {
  return copied_on(fabric, lids, kept_lids(fabric, lids));
}

Lfts TablesByGuid::copied_on(const Fabric& fabric, const LidMap& lids, const std::vector<int>& kept_lid) const {
  Lfts out;
  out.port.resize(fabric.size());
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch()) continue;
    const auto kept = switches_.find(fabric.node(x).guid);
    if (kept == switches_.end()) continue;
    std::vector<uint8_t>& table = out.port[x];
    table.assign(lids.max_lid + 1, kNoPath);
    for (int lid = 1; lid < static_cast<int>(kept_lid.size()) && lid <= lids.max_lid; ++lid) {
      const int old = kept_lid[lid];
      if (old > 0 && old < static_cast<int>(kept->second.size())) table[lid] = kept->second[old];
    }
  }
  return out;
}

}  // namespace ftclos
