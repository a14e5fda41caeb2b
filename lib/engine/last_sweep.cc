#include "engine/last_sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "tables/path_bits.h"

namespace ftclos {

std::optional<Lfts> LastSweep::take_tables_on(const Fabric& fabric, const LidMap& lids) {
  if (tables_.empty()) return std::nullopt;
  return tables_.take_on(fabric, lids);
}

void LastSweep::keep(const Fabric& fabric, const LidMap& lids, const Sweep& sweep, Lfts published,
                     std::string_view scheme) {
  tables_ = TablesByGuid(fabric, lids, std::move(published));
  fabric_ = fabric;
  order_ = unicast_order(fabric_, sweep.detection, sweep.routing.chosen.empty() ? scheme : sweep.routing.chosen);
  port_by_guid_ = index_port_guids(fabric_);
}

McastAnswer LastSweep::mcast_tree(uint16_t mlid, std::span<const uint64_t> member_guids) const {
  using Outcome = McastAnswer::Outcome;
  if (port_by_guid_.empty())
    return {Outcome::kUnknownMember, {}, fmt::format("MLID 0x{:04X}: no ftclos routing to build a tree on", mlid), {}};
  std::vector<PortRef> members;
  for (const uint64_t guid : member_guids) {
    const auto found = port_by_guid_.find(guid);
    if (found == port_by_guid_.end())
      return {Outcome::kUnknownMember, {},
              fmt::format("MLID 0x{:04X}: member port {} is not in the routed fabric", mlid, format_guid(guid)), {}};
    if (std::ranges::find(members, found->second) == members.end()) members.push_back(found->second);
  }
  McastAnswer answer;
  Result<McastTree> tree = build_mcast_tree(fabric_, order_, members, mlid);
  if (!tree.ok()) {
    const std::string why = tree.status().message();
    tree = build_shortest_path_tree(fabric_, members, mlid);
    if (!tree.ok()) return {Outcome::kNoTree, {}, tree.status().message(), {}};
    answer.outcome = Outcome::kFallback;
    answer.message =
        why + "; a shortest-path tree instead, which may close credit loops with unicast traffic on its VL";
  }
  int switches = 0;
  for (int x = 0; x < fabric_.size(); ++x) {
    switches += !tree->forwarding.ports[x].empty();
    for (const uint8_t port : tree->forwarding.ports[x]) answer.ports.push_back({fabric_.node(x).guid, port});
  }
  answer.detail = fmt::format("MLID 0x{:04X}: {} member ports, tree of {} switches rooted at {}, depth {}{}", mlid,
                              members.size(), switches, fabric_.node(tree->root).display_name(), tree->depth,
                              tree->ordered ? ", down the unicast order" : "");
  return answer;
}

}  // namespace ftclos
