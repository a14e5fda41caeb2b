#include "detect/common_ancestor.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ftclos {
bool every_leaf_pair_has_common_ancestor(const Fabric& fabric) {
  return every_leaf_pair_has_common_ancestor(fabric, compute_levels(fabric));
}

bool every_leaf_pair_has_common_ancestor(const Fabric& fabric, const Levels& levels) {
  const std::vector<int>& level = levels.of;
  std::vector<int> switches;  // those a CA reaches, top level first
  for (int i = 0; i < fabric.size(); ++i)
    if (fabric.node(i).is_switch() && level[i] > 0) switches.push_back(i);
  std::stable_sort(switches.begin(), switches.end(), [&](int a, int b) { return level[a] > level[b]; });
  std::vector<int> rank(fabric.size(), -1);
  for (size_t r = 0; r < switches.size(); ++r) rank[switches[r]] = static_cast<int>(r);

  // ancestors[rank]: bitset over ranks of the switches reachable upward, itself included.
  // Parents come first, so each switch unions finished sets.
  const size_t words = (switches.size() + 63) / 64;
  std::vector<std::vector<uint64_t>> ancestors(switches.size(), std::vector<uint64_t>(words, 0));
  for (size_t r = 0; r < switches.size(); ++r) {
    ancestors[r][r / 64] |= uint64_t{1} << (r % 64);
    for (const Port& port : fabric.node(switches[r]).ports) {
      if (!port.peer.valid() || level[port.peer.node] != level[switches[r]] + 1) continue;
      const std::vector<uint64_t>& above = ancestors[rank[port.peer.node]];
      for (size_t w = 0; w < words; ++w) ancestors[r][w] |= above[w];
    }
  }
  std::vector<int> leaves;  // as ranks
  for (size_t r = 0; r < switches.size(); ++r)
    if (level[switches[r]] == 1 && !levels.is_management(switches[r])) leaves.push_back(static_cast<int>(r));
  for (size_t a = 0; a < leaves.size(); ++a)
    for (size_t b = a + 1; b < leaves.size(); ++b) {
      const std::vector<uint64_t>& x = ancestors[leaves[a]];
      const std::vector<uint64_t>& y = ancestors[leaves[b]];
      bool shared = false;
      for (size_t w = 0; w < words && !shared; ++w) shared = (x[w] & y[w]) != 0;
      if (!shared) return false;
    }
  return true;
}

}  // namespace ftclos
