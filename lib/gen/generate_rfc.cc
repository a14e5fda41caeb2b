// Radix-regular random folded Clos RFC(R, N1, l) (Camarero et al., §4 and
// Appendix). Levels 1..l-1 hold N1 switches with R/2 down and R/2 up ports,
// level l holds N1/2 roots with R down ports, and every leaf (level 1) has R/2
// hosts. Each pair of consecutive levels is cabled by a random bipartite graph
// drawn as in the paper's Listing 2.
//
// Ports: down ports first, then up ports, each in increasing neighbor order.
// Names: switches `L<level>-<index>`, hosts `H-<leaf>.<slot>`.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "gen/generate.h"
#include "gen/generator_support.h"

namespace ftclos {
namespace {

// Listing 2 gives up on a draw that gets stuck and starts over; near the
// threshold a handful of restarts suffice, so this many means "impossible".
constexpr int kMaxDraws = 10'000;

// Listing 2: a random bipartite graph between n1 vertices of degree d1 and n2
// of degree d2 (n1 d1 = n2 d2), without multi-edges. Returns the sorted
// neighbors of every side-1 vertex, or nothing after kMaxDraws stuck draws.
std::optional<std::vector<std::vector<int>>> random_bipartite(int n1, int d1, int n2, int d2,
                                                              std::mt19937_64& rng) {
  for (int draw = 0; draw < kMaxDraws; ++draw) {
    // U1, U2: the free points; point x belongs to vertex x / d.
    std::vector<int> u1(n1 * d1), u2(n2 * d2);
    for (int i = 0; i < n1 * d1; ++i) u1[i] = i;
    for (int i = 0; i < n2 * d2; ++i) u2[i] = i;
    std::vector<std::set<int>> adj1(n1), adj2(n2);
    std::set<int> open1, open2;  // A1, A2: vertices that still have free points
    for (int i = 0; i < n1; ++i) open1.insert(i);
    for (int i = 0; i < n2; ++i) open2.insert(i);
    bool stuck = false;
    while (!u1.empty()) {
      // Listing 2 checks for a possible pair when |A1| < d1 and |A2| < d2. We
      // check when |A2| < d1 and |A1| < d2, which is the same for d1 = d2 (the
      // paper's case) and also right for the roots (d2 = 2 d1): otherwise an
      // open vertex has more open vertices opposite than neighbors, so a
      // pair exists and the loop below ends.
      if (static_cast<int>(open2.size()) < d1 && static_cast<int>(open1.size()) < d2) {
        stuck = std::none_of(open1.begin(), open1.end(), [&](int a) {
          return std::any_of(open2.begin(), open2.end(), [&](int b) { return !adj1[a].count(b); });
        });
        if (stuck) break;
      }
      int a, b;
      do {
        std::swap(u1[draw_below(rng, u1.size())], u1.back());
        std::swap(u2[draw_below(rng, u2.size())], u2.back());
        a = u1.back() / d1;
        b = u2.back() / d2;
      } while (adj1[a].count(b));
      u1.pop_back();
      u2.pop_back();
      adj1[a].insert(b);
      adj2[b].insert(a);
      if (static_cast<int>(adj1[a].size()) == d1) open1.erase(a);
      if (static_cast<int>(adj2[b].size()) == d2) open2.erase(b);
    }
    if (stuck) continue;
    std::vector<std::vector<int>> neighbors(n1);
    for (int a = 0; a < n1; ++a) neighbors[a].assign(adj1[a].begin(), adj1[a].end());
    return neighbors;
  }
  return std::nullopt;
}

}  // namespace

Result<Fabric> generate_rfc(int radix, int leaves, int levels, uint64_t seed) {
  if (radix < 2 || radix % 2 != 0 || radix > 254)
    return Status::Error(fmt::format("RFC: the radix must be even and in 2..254, got {}", radix));
  if (leaves < 2 || leaves % 2 != 0)
    return Status::Error(fmt::format("RFC: the leaf count N1 must be even and at least 2, got {}", leaves));
  if (levels < 2) return Status::Error(fmt::format("RFC: at least 2 levels are needed, got {}", levels));
  if (radix > leaves)
    return Status::Error(fmt::format("RFC: a root needs {} distinct children but a level has only {} switches",
                                     radix, leaves));
  const int half = radix / 2;
  const int64_t nodes = int64_t{leaves} * (levels - 1) + leaves / 2 + int64_t{leaves} * half;
  if (nodes > kMaxGeneratedNodes)
    return Status::Error(fmt::format("RFC: {} nodes is more than {}; refusing to generate", nodes, kMaxGeneratedNodes));

  // up[i][s]: the level-(i+2) parents of switch s of level i+1, drawn bottom-up.
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::vector<int>>> up;
  for (int level = 1; level < levels; ++level) {
    const bool roots = level + 1 == levels;
    auto graph = random_bipartite(leaves, half, roots ? leaves / 2 : leaves, roots ? radix : half, rng);
    if (!graph)
      return Status::Error(fmt::format("RFC: no random bipartite graph between levels {} and {} after {} draws",
                                       level, level + 1, kMaxDraws));
    up.push_back(std::move(*graph));
  }

  Fabric fabric;
  std::vector<int> first(levels + 1);  // fabric index of each level's switch 0
  for (int level = 1; level <= levels; ++level) {
    const int count = level == levels ? leaves / 2 : leaves;
    for (int s = 0; s < count; ++s) {
      Result<int> node = add_switch(fabric, fmt::format("L{}-{}", level, s), radix, fabric.size());
      if (!node.ok()) return node.status();
      if (s == 0) first[level] = *node;
    }
  }
  for (int leaf = 0; leaf < leaves; ++leaf)
    for (int slot = 0; slot < half; ++slot) {
      Result<int> host = add_host(fabric, fmt::format("H-{}.{}", leaf, slot), 1, leaf * half + slot);
      if (!host.ok()) return host.status();
      if (Status status = fabric.connect({*host, 1}, {first[1] + leaf, 1 + slot}); !status.ok()) return status;
    }
  // Sorted neighbor lists give each parent its children in increasing order.
  std::vector<int> next_down(fabric.size(), 1);
  for (int level = 1; level < levels; ++level)
    for (int s = 0; s < leaves; ++s)
      for (int i = 0; i < half; ++i) {
        const int parent = first[level + 1] + up[level - 1][s][i];
        const PortRef lower{first[level] + s, 1 + half + i};
        if (Status status = fabric.connect(lower, {parent, next_down[parent]++}); !status.ok()) return status;
      }
  return fabric;
}

}  // namespace ftclos
