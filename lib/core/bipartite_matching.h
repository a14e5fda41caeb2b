// Maximum (weighted) bipartite b-matching, the figure of worst-case
// contention (Towles and Dally): left nodes are groups of interchangeable
// sources, right nodes groups of interchangeable destinations, each with a
// capacity (its members); an edge is a pair routed over one channel, its
// weight how many of the pair's LID offsets cross it. The audit
// (audit/audit_contention.cc) and the routers' contention polish
// (paths/contention_polish.h) share it, so both measure the same thing.
#pragma once

#include <cstddef>
#include <vector>

namespace ftclos {

/// Min-cost flow beyond this many arcs is too slow to promise.
inline constexpr size_t kMaxWeightedArcs = 200'000;

struct Bipartite {
  std::vector<long> left_cap;   // per left node: its members (sources)
  std::vector<long> right_cap;  // per right node: its members (destinations)
  struct Edge {
    int left = 0, right = 0;
    int weight = 1;  // offsets of the pair crossing the channel
  };
  std::vector<Edge> edges;
};

struct Matching {
  long value = 0;          // sum of flow x weight
  bool exact = true;       // false: value is an upper bound, flow empty
  std::vector<long> flow;  // per edge
};

/// The maximum matching of `g`: a max flow when unweighted (every weight 1),
/// a maximum-weight b-matching otherwise; greedy (heaviest first) where it
/// provably meets the optimum. Weighted graphs past kMaxWeightedArcs get the
/// upper bound min(sum over each side of capacity x heaviest edge), exact = false.
Matching max_matching(const Bipartite& g, bool weighted);

}  // namespace ftclos
