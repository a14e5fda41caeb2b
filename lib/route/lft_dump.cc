#include "route/lft_dump.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <vector>

#include "route/path_bits.h"

namespace ftclos {
namespace {

// The destination part of a line, after OpenSM's dump_ucast_lfts().
std::string describe_owner(const Fabric& fabric, const LidMap& lids, int lid) {
  const int owner = lids.owner[lid];
  if (owner < 0) return "unknown node and type";
  const Node& node = fabric.node(owner);
  return fmt::format("{} portguid {}: '{}'", node.is_switch() ? "Switch" : "Channel Adapter",
                     format_guid(port_guid(node, node.is_switch() ? 0 : 1)), node.display_name());
}

void write_switch(const Fabric& fabric, const LidMap& lids, int sw, const std::vector<uint8_t>& lft,
                  std::string& out) {
  const Node& node = fabric.node(sw);
  auto append = std::back_inserter(out);
  fmt::format_to(append, "Unicast lids [0-{}] of switch Lid {} guid {} ('{}'):\n", lids.max_lid, lids.base[sw],
                 format_guid(node.guid), node.display_name());
  for (int lid = 0; lid <= lids.max_lid && lid < static_cast<int>(lft.size()); ++lid) {
    if (lft[lid] > node.num_ports) continue;  // kNoPath
    fmt::format_to(append, "0x{:04x} {:03} # {}\n", lid, lft[lid], describe_owner(fabric, lids, lid));
  }
  fmt::format_to(append, "{} lids dumped\n", lids.max_lid);
}

}  // namespace

std::string write_lft_dump(const Fabric& fabric, const LidMap& lids, const Lfts& lfts) {
  std::vector<int> switches;
  for (int i = 0; i < fabric.size(); ++i)
    if (fabric.node(i).is_switch()) switches.push_back(i);
  std::ranges::stable_sort(switches, {}, [&](int i) { return fabric.node(i).guid; });
  std::string out;
  for (int sw : switches) write_switch(fabric, lids, sw, lfts.port[sw], out);
  return out;
}

}  // namespace ftclos
