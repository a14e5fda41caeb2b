// max_matching (bipartite_matching.h): greedy where it meets the bound,
// else Dinic (unweighted) or successive shortest paths (weighted).
#include "core/bipartite_matching.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>

namespace ftclos {
namespace {

// Residual network for Dinic (max flow) and successive shortest paths (max profit).
class FlowNetwork {
 public:
  explicit FlowNetwork(int nodes) : out_(nodes) {}

  int add(int from, int to, long cap, long cost) {
    out_[from].push_back(static_cast<int>(arcs_.size()));
    arcs_.push_back({to, cap, cost});
    out_[to].push_back(static_cast<int>(arcs_.size()));
    arcs_.push_back({from, 0, -cost});
    return static_cast<int>(arcs_.size()) - 2;
  }
  long flow(int arc) const { return arcs_[arc ^ 1].cap; }
  size_t arcs() const { return arcs_.size(); }

  void max_flow(int s, int t) {
    while (layer(s, t)) {
      next_.assign(out_.size(), 0);
      while (push(s, t, std::numeric_limits<long>::max()) > 0) {
      }
    }
  }

  /// Augments along cheapest paths while they have negative cost; false when `budget` relaxations ran out.
  bool min_cost_flow(int s, int t, long budget) {
    const long kInf = std::numeric_limits<long>::max();
    std::vector<long> dist;
    std::vector<int> via;
    std::vector<bool> queued;
    for (;;) {
      dist.assign(out_.size(), kInf);
      via.assign(out_.size(), -1);
      queued.assign(out_.size(), false);
      std::vector<int> queue{s};
      dist[s] = 0;
      for (size_t head = 0; head < queue.size(); ++head) {  // SPFA: the residual costs may be negative
        const int v = queue[head];
        queued[v] = false;
        for (int a : out_[v]) {
          if (--budget < 0) return false;
          const Arc& arc = arcs_[a];
          if (arc.cap > 0 && dist[v] + arc.cost < dist[arc.to]) {
            dist[arc.to] = dist[v] + arc.cost;
            via[arc.to] = a;
            if (!queued[arc.to]) {
              queued[arc.to] = true;
              queue.push_back(arc.to);
            }
          }
        }
      }
      if (dist[t] >= 0) return true;  // no path, or none that adds weight
      long amount = kInf;
      for (int v = t; v != s; v = arcs_[via[v] ^ 1].to) amount = std::min(amount, arcs_[via[v]].cap);
      for (int v = t; v != s; v = arcs_[via[v] ^ 1].to) {
        arcs_[via[v]].cap -= amount;
        arcs_[via[v] ^ 1].cap += amount;
      }
    }
  }

 private:
  struct Arc {
    int to;
    long cap;
    long cost;
  };

  bool layer(int s, int t) {
    level_.assign(out_.size(), -1);
    std::vector<int> queue{s};
    level_[s] = 0;
    for (size_t head = 0; head < queue.size(); ++head)
      for (int a : out_[queue[head]])
        if (arcs_[a].cap > 0 && level_[arcs_[a].to] < 0) {
          level_[arcs_[a].to] = level_[queue[head]] + 1;
          queue.push_back(arcs_[a].to);
        }
    return level_[t] >= 0;
  }

  long push(int v, int t, long limit) {
    if (v == t) return limit;
    for (size_t& i = next_[v]; i < out_[v].size(); ++i) {
      Arc& arc = arcs_[out_[v][i]];
      if (arc.cap <= 0 || level_[arc.to] != level_[v] + 1) continue;
      if (const long pushed = push(arc.to, t, std::min(limit, arc.cap)); pushed > 0) {
        arc.cap -= pushed;
        arcs_[out_[v][i] ^ 1].cap += pushed;
        return pushed;
      }
    }
    return 0;
  }

  std::vector<Arc> arcs_;
  std::vector<std::vector<int>> out_;
  std::vector<int> level_;
  std::vector<size_t> next_;
};

// Heaviest edges first, each as much as both ends have left.
Matching greedy(const Bipartite& g) {
  std::vector<int> order(g.edges.size());
  std::iota(order.begin(), order.end(), 0);
  if (std::ranges::any_of(g.edges, [](const Bipartite::Edge& e) { return e.weight != 1; }))
    std::ranges::stable_sort(order, std::greater{}, [&](int e) { return g.edges[e].weight; });
  std::vector<long> left = g.left_cap, right = g.right_cap;
  Matching out;
  out.flow.assign(g.edges.size(), 0);
  for (int e : order) {
    const Bipartite::Edge& edge = g.edges[e];
    const long amount = std::min(left[edge.left], right[edge.right]);
    out.flow[e] = amount;
    left[edge.left] -= amount;
    right[edge.right] -= amount;
    out.value += amount * edge.weight;
  }
  return out;
}

// min over the two sides of: sum of capacity x heaviest edge. Every matched pair uses one unit on each side.
long upper_bound(const Bipartite& g) {
  std::vector<int> left_max(g.left_cap.size(), 0), right_max(g.right_cap.size(), 0);
  for (const Bipartite::Edge& edge : g.edges) {
    left_max[edge.left] = std::max(left_max[edge.left], edge.weight);
    right_max[edge.right] = std::max(right_max[edge.right], edge.weight);
  }
  long left = 0, right = 0;
  for (size_t i = 0; i < left_max.size(); ++i) left += g.left_cap[i] * left_max[i];
  for (size_t j = 0; j < right_max.size(); ++j) right += g.right_cap[j] * right_max[j];
  return std::min(left, right);
}

}  // namespace

Matching max_matching(const Bipartite& g, bool weighted) {
  Matching best = greedy(g);
  const long bound = upper_bound(g);
  // Greedy is optimal when it meets the bound, and (heaviest first) when one side has a single node.
  if (best.value == bound || (weighted && (g.left_cap.size() == 1 || g.right_cap.size() == 1))) return best;
  const int left = static_cast<int>(g.left_cap.size()), right = static_cast<int>(g.right_cap.size());
  const int s = left + right, t = s + 1;
  FlowNetwork net(t + 1);
  for (int i = 0; i < left; ++i) net.add(s, i, g.left_cap[i], 0);
  for (int j = 0; j < right; ++j) net.add(left + j, t, g.right_cap[j], 0);
  std::vector<int> arcs;
  for (const Bipartite::Edge& edge : g.edges)
    arcs.push_back(net.add(edge.left, left + edge.right, std::numeric_limits<long>::max() / 4, -edge.weight));
  if (!weighted) {
    net.max_flow(s, t);
  } else if (net.arcs() > kMaxWeightedArcs || !net.min_cost_flow(s, t, 200 * static_cast<long>(kMaxWeightedArcs))) {
    return {bound, false, {}};
  }
  best = Matching{};
  for (size_t e = 0; e < g.edges.size(); ++e) {
    best.flow.push_back(net.flow(arcs[e]));
    best.value += best.flow.back() * g.edges[e].weight;
  }
  return best;
}

}  // namespace ftclos
