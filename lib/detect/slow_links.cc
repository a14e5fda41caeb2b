#include "detect/slow_links.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>
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

namespace {

std::string_view kind_of(const Node& node) {
  const std::string& name = node.display_name();
  return std::string_view(name).substr(0, name.find_first_of("0123456789"));
}

}  // namespace

std::vector<Deviation> take_slow_by_design(const Fabric& fabric, std::vector<Deviation>& slow) {
  struct Kind {
    int cables = 0;                   // CA cables of a known rate
    std::vector<size_t> slow;         // indices into `slow`
    std::optional<LinkRate> rate;     // the slow ones' rate, while they share one
    bool mixed = false;
  };
  std::map<std::string_view, Kind> kinds;
  for (const Node& node : fabric.nodes())
    if (!node.is_switch() && node.num_ports >= 1 && node.ports[1].peer.valid() && node.ports[1].rate.known())
      ++kinds[kind_of(node)].cables;
  for (size_t i = 0; i < slow.size(); ++i) {
    const Node& node = fabric.node(slow[i].at.node);
    if (node.is_switch()) continue;
    Kind& kind = kinds[kind_of(node)];
    const LinkRate rate = fabric.port(slow[i].at).rate;
    kind.mixed |= kind.rate && !(*kind.rate == rate);
    kind.rate = rate;
    kind.slow.push_back(i);
  }
  std::vector<bool> by_design(slow.size(), false);
  for (const auto& [name, kind] : kinds)
    if (kind.cables >= 2 && !kind.mixed && static_cast<int>(kind.slow.size()) == kind.cables)
      for (size_t i : kind.slow) by_design[i] = true;
  std::vector<Deviation> taken, kept;
  for (size_t i = 0; i < slow.size(); ++i) (by_design[i] ? taken : kept).push_back(std::move(slow[i]));
  slow = std::move(kept);
  return taken;
}

}  // namespace ftclos
