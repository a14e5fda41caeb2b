#include "audit/lid_balance.h"

#include <fmt/format.h>

#include <algorithm>

namespace ftclos {

LidBalance lid_balance(const Fabric& fabric, const Levels& levels, const LidMap& lids, const Lfts& lfts) {
  LidBalance out;
  for (int x = 0; x < fabric.size(); ++x) {
    const Node& node = fabric.node(x);
    if (!node.is_switch() || x >= static_cast<int>(lfts.port.size())) continue;
    std::vector<int> count(node.num_ports + 1, -1);  // -1: the port leads to no switch
    std::vector<bool> up(node.num_ports + 1, false);
    int ups = 0, downs = 0;
    for (int p = 1; p <= node.num_ports; ++p) {
      const PortRef peer = fabric.peer({x, p});
      if (!peer.valid() || !fabric.node(peer.node).is_switch()) continue;
      count[p] = 0;
      up[p] = direction(fabric, levels, {x, p}) == Direction::kUp;
      ++(up[p] ? ups : downs);
    }
    if (ups < 2 && downs < 2) continue;
    const std::vector<uint8_t>& table = lfts.port[x];
    for (int lid = 1; lid <= lids.max_lid && lid < static_cast<int>(table.size()); ++lid) {
      const int owner = lids.owner[lid];
      if (owner < 0 || fabric.node(owner).is_switch()) continue;
      if (const uint8_t port = table[lid]; port >= 1 && port <= node.num_ports && count[port] >= 0) ++count[port];
    }
    ++out.switches;
    bool unbalanced = false;
    for (const bool direction_up : {true, false}) {
      int fewest = -1, most = 0;
      for (int p = 1; p <= node.num_ports; ++p)
        if (count[p] >= 0 && up[p] == direction_up)
          fewest = fewest < 0 ? count[p] : std::min(fewest, count[p]), most = std::max(most, count[p]);
      if (fewest < 0 || (direction_up ? ups : downs) < 2) continue;
      unbalanced = unbalanced || most - fewest > 1;
      // Ties to the lowest GUID: the same switch whatever order the file lists nodes in.
      const int spread = most - fewest, widest = out.most - out.fewest;
      if (out.widest < 0 || spread > widest || (spread == widest && node.guid < fabric.node(out.widest).guid)) {
        out.widest = x;
        out.fewest = fewest;
        out.most = most;
      }
    }
    out.unbalanced += unbalanced;
  }
  return out;
}

std::string lid_balance_line(const Fabric& fabric, const LidBalance& balance) {
  std::string line = fmt::format("{} of {} switches with ports (of one direction) whose CA-LID counts differ by more than 1 "
                                 "(check_lft_balance's test; not contention)",
                                 balance.unbalanced, balance.switches);
  if (balance.widest >= 0)
    line += fmt::format("; widest: {}, {} to {}", fabric.node(balance.widest).display_name(), balance.fewest,
                        balance.most);
  return line;
}

}  // namespace ftclos
