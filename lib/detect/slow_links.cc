#include "detect/slow_links.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

namespace ftclos {
namespace {

struct RateCount {
  LinkRate rate;
  int cables = 0;
};

}  // namespace

std::vector<Deviation> slow_links(const Fabric& fabric, const Levels& levels) {
  auto level = [&](int node) { return fabric.node(node).is_switch() ? levels.of[node] : 0; };
  // Each cable once, from its lower end, grouped by the two levels it joins.
  std::map<std::pair<int, int>, std::vector<PortRef>> groups;
  for (int x = 0; x < fabric.size(); ++x) {
    const Node& node = fabric.node(x);
    for (int p = 1; p <= node.num_ports; ++p) {
      const PortRef peer = node.ports[p].peer;
      if (!peer.valid() || !node.ports[p].rate.known()) continue;
      const std::pair<int, int> joins{level(x), level(peer.node)};
      if (joins > std::pair(joins.second, joins.first) || (joins.first == joins.second && PortRef{x, p} > peer))
        continue;
      groups[joins].push_back({x, p});
    }
  }
  std::vector<Deviation> out;
  for (const auto& [joins, cables] : groups) {
    std::vector<RateCount> counts;
    for (PortRef cable : cables) {
      const LinkRate rate = fabric.port(cable).rate;
      auto same = std::find_if(counts.begin(), counts.end(), [&](const RateCount& c) { return c.rate == rate; });
      if (same == counts.end()) counts.push_back({rate, 1});
      else ++same->cables;
    }
    // The usual rate: the most common one, the faster on a tie.
    const RateCount usual = *std::max_element(counts.begin(), counts.end(), [](const RateCount& a, const RateCount& b) {
      return std::pair(a.cables, a.rate.gbps()) < std::pair(b.cables, b.rate.gbps());
    });
    for (PortRef cable : cables) {
      const LinkRate rate = fabric.port(cable).rate;
      if (rate.gbps() >= usual.rate.gbps()) continue;
      out.push_back({Deviation::Kind::kSlowLink, cable, fabric.peer(cable),
                     fmt::format("{} where {} of its {} siblings run {}", format_link_rate(rate), usual.cables,
                                 cables.size() - 1, format_link_rate(usual.rate))});
    }
  }
  return out;
}

}  // namespace ftclos
