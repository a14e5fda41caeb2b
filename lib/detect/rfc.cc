#include "detect/rfc.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "detect/xgft.h"

namespace ftclos {
namespace {

struct Degree {
  int up = 0;
  int down = 0;
};

Degree degree(const Fabric& fabric, const Levels& levels, int x) {
  Degree d;
  for (const Port& port : fabric.node(x).ports) {
    if (!port.peer.valid() || !fabric.node(port.peer.node).is_switch()) continue;
    (levels.of[port.peer.node] > levels.of[x] ? d.up : d.down)++;
  }
  return d;
}

}  // namespace

std::optional<RfcFit> fit_rfc(const Fabric& fabric, const Levels& levels) {
  const int top = levels.height;
  if (top < 2) return std::nullopt;
  std::vector<std::vector<int>> at(top + 1);
  int half = 0;  // R/2: the largest host, up or non-top down count seen
  int root_down = 0;
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch()) continue;
    at[levels.of[x]].push_back(x);
    const Degree d = degree(fabric, levels, x);
    if (levels.of[x] == top) {
      root_down = std::max(root_down, d.down);
    } else {
      half = std::max({half, d.up, levels.of[x] == 1 ? hosts_on(fabric, x) : d.down});
    }
  }
  const int leaves = static_cast<int>(at[1].size());
  if (root_down > 2 * half || leaves % 2 || static_cast<int>(at[top].size()) != leaves / 2) return std::nullopt;
  for (int l = 2; l < top; ++l)
    if (static_cast<int>(at[l].size()) != leaves) return std::nullopt;

  RfcFit fit{2 * half, leaves, top, {}};
  // Port deficits at each boundary between level l and l+1.
  for (int l = 1; l < top; ++l) {
    const int upper_want = l + 1 == top ? 2 * half : half;
    std::vector<std::pair<int, int>> lower, upper;  // (switch, cables missing)
    for (int x : at[l])
      if (int gap = half - degree(fabric, levels, x).up; gap > 0) lower.push_back({x, gap});
    for (int x : at[l + 1])
      if (int gap = upper_want - degree(fabric, levels, x).down; gap > 0) upper.push_back({x, gap});
    auto free_port = [&](int x, int gap) {
      if (gap != 1) return 0;
      int found = 0;
      for (int p = 1; p <= fabric.node(x).num_ports; ++p)
        if (!fabric.node(x).ports[p].peer.valid()) found = found ? -1 : p;
      return std::max(found, 0);
    };
    if (lower.size() == 1 && upper.size() == 1 && lower[0].second == upper[0].second) {
      for (int k = 0; k < lower[0].second; ++k)
        fit.deviations.push_back({Deviation::Kind::kMissingCable, {lower[0].first, free_port(lower[0].first, lower[0].second)},
                                  {upper[0].first, free_port(upper[0].first, upper[0].second)},
                                  fmt::format("level {} - level {}", l, l + 1)});
      continue;
    }
    for (auto [x, gap] : lower)
      for (int k = 0; k < gap; ++k)
        fit.deviations.push_back({Deviation::Kind::kMissingCable, {x, free_port(x, gap)}, {},
                                  fmt::format("an up cable to level {}; peer cannot be told", l + 1)});
    for (auto [x, gap] : upper)
      for (int k = 0; k < gap; ++k)
        fit.deviations.push_back({Deviation::Kind::kMissingCable, {x, free_port(x, gap)}, {},
                                  fmt::format("a down cable to level {}; peer cannot be told", l)});
  }
  return fit;
}

}  // namespace ftclos
