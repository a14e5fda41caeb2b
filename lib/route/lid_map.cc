// assign_lids (lid_map.h): LIDs from the input when it has them all,
// otherwise the ones OpenSM would hand out on a fresh subnet.
#include "route/lid_map.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <tuple>

namespace ftclos {
namespace {

constexpr int kMaxAnalysisLid = (1 << 24) - 1;  // any fabric we can hold in memory

// The LID record of a node: a switch's port 0, a CA's port 1.
const Port* lid_port(const Node& node) {
  if (node.is_switch()) return &node.ports[0];
  return node.num_ports >= 1 ? &node.ports[1] : nullptr;
}

// Switches own one LID (no enhanced port 0), CAs 2^lmc.
int lid_count(const Node& node, int lmc) { return node.is_switch() ? 1 : 1 << lmc; }

// Records `node` as the owner of `count` LIDs from `base`; fails on a LID
// another node owns already or past `last_allowed`.
Status claim(LidMap& map, const Fabric& fabric, int node, int base, int count, int last_allowed) {
  const int last = base + count - 1;
  if (last > last_allowed)
    return Status::Error(fmt::format("LIDs of \"{}\" would end at {:#x}, past the {} range end {:#x}",
                                     fabric.node(node).name, last,
                                     last_allowed == kMaxUnicastLid ? "unicast" : "analysis", last_allowed));
  if (static_cast<int>(map.owner.size()) <= last) map.owner.resize(last + 1, -1);
  for (int lid = base; lid <= last; ++lid) {
    if (map.owner[lid] >= 0)
      return Status::Error(fmt::format("LID {} belongs to both \"{}\" and \"{}\"", lid,
                                       fabric.node(map.owner[lid]).name, fabric.node(node).name));
    map.owner[lid] = node;
  }
  map.base[node] = base;
  map.max_lid = std::max(map.max_lid, last);
  return Status::Ok();
}

Result<LidMap> keep_input_lids(const Fabric& fabric, LidMap map) {
  for (int i = 0; i < fabric.size(); ++i) {
    const Node& node = fabric.node(i);
    const Port& port = *lid_port(node);
    if (!node.is_switch()) {
      if (port.lmc != map.lmc)
        return Status::Error(fmt::format("\"{}\" has LMC {} in the input but LMC {} was asked for", node.name,
                                         port.lmc, map.lmc));
      if (port.lid % map.lids_per_ca() != 0)
        return Status::Error(
            fmt::format("LID {} of \"{}\" is not aligned to 2^LMC = {}", port.lid, node.name, map.lids_per_ca()));
    }
    if (Status status = claim(map, fabric, i, port.lid, lid_count(node, map.lmc), kMaxUnicastLid); !status.ok())
      return status;
  }
  return map;
}

// The lowest base from `from` on, aligned to `count`, whose `count` LIDs are free.
int lowest_free_range(const std::vector<int>& owner, int from, int count) {
  for (int base = (from + count - 1) / count * count;; base += count) {
    const int end = std::min(base + count, static_cast<int>(owner.size()));
    if (std::all_of(owner.begin() + std::min(base, end), owner.begin() + end, [](int o) { return o < 0; }))
      return base;
  }
}

// What OpenSM does on a fresh subnet, made deterministic: nodes by GUID,
// each taking the lowest free LID range, CA ranges aligned to 2^lmc, so
// switches fill the holes alignment leaves.
Result<LidMap> assign_fresh_lids(const Fabric& fabric, LidMap map, int last_allowed) {
  std::vector<int> order(fabric.size());
  std::iota(order.begin(), order.end(), 0);
  std::ranges::sort(order, [&](int a, int b) {
    const Node &x = fabric.node(a), &y = fabric.node(b);
    return std::tie(x.guid, x.name) < std::tie(y.guid, y.name);
  });
  // LIDs are never freed, so the search for each range size resumes where it last ended.
  int next_switch_lid = 1, next_ca_lid = 1;
  for (int i : order) {
    const Node& node = fabric.node(i);
    if (!lid_port(node)) continue;  // a CA without ports has nothing to address
    const int count = lid_count(node, map.lmc);
    int& next = node.is_switch() ? next_switch_lid : next_ca_lid;
    const int base = lowest_free_range(map.owner, next, count);
    if (Status status = claim(map, fabric, i, base, count, last_allowed); !status.ok()) return status;
    next = base + count;
  }
  return map;
}

}  // namespace

bool carries_every_lid(const Fabric& fabric) {
  return std::ranges::all_of(fabric.nodes(), [](const Node& node) {
    const Port* port = lid_port(node);
    return port && port->lid != 0;
  });
}

int input_lmc(const Fabric& fabric) {
  if (!carries_every_lid(fabric)) return 0;
  int lmc = -1;
  for (const Node& node : fabric.nodes()) {
    if (node.is_switch()) continue;
    const int own = lid_port(node)->lmc;
    if (lmc >= 0 && own != lmc) return 0;
    lmc = own;
  }
  return std::max(lmc, 0);
}

Result<LidMap> assign_lids(const Fabric& fabric, int lmc, LidSpace space) {
  if (lmc < 0 || lmc > 7) return Status::Error(fmt::format("LMC {} is outside 0..7", lmc));
  LidMap map;
  map.lmc = lmc;
  map.base.assign(fabric.size(), 0);
  map.owner.assign(1, -1);  // LID 0 is never assigned
  const bool subnet_lids = carries_every_lid(fabric) && input_lmc(fabric) == lmc;
  return subnet_lids ? keep_input_lids(fabric, std::move(map))
                     : assign_fresh_lids(fabric, std::move(map),
                                         space == LidSpace::kUnicast ? kMaxUnicastLid : kMaxAnalysisLid);
}

}  // namespace ftclos
