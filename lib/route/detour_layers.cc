#include "route/detour_layers.h"

#include <fmt/format.h>

#include <unordered_set>
#include <utility>
#include <vector>

namespace ftclos {
namespace {

// Channels are switch egress ports that lead to a switch, numbered densely.
class Channels {
 public:
  explicit Channels(const Fabric& fabric) : fabric_(fabric), first_(fabric.size() + 1, 0) {
    for (int x = 0; x < fabric.size(); ++x)
      first_[x + 1] = first_[x] + (fabric.node(x).is_switch() ? fabric.node(x).num_ports + 1 : 0);
  }
  int count() const { return first_.back(); }
  /// The channel out of `port` of switch `x`, or -1 when it does not lead to a switch.
  int of(int x, int port) const {
    const Node& node = fabric_.node(x);
    if (!node.is_switch() || port < 1 || port > node.num_ports) return -1;
    const PortRef peer = node.ports[port].peer;
    if (!peer.valid() || !fabric_.node(peer.node).is_switch()) return -1;
    return first_[x] + port;
  }

 private:
  const Fabric& fabric_;
  std::vector<int> first_;
};

using Edge = std::pair<int, int>;

// The dependencies of every route to `lid`: channel x->y, then y's channel
// for the same LID. Every switch's entry counts, used or not (conservative).
std::vector<Edge> dependencies(const Fabric& fabric, const Lfts& lfts, const Channels& channels, int lid) {
  std::vector<Edge> edges;
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch() || lid >= static_cast<int>(lfts.port[x].size())) continue;
    const int out = lfts.port[x][lid];
    const int first = channels.of(x, out);
    if (first < 0) continue;
    const int y = fabric.node(x).ports[out].peer.node;
    if (lid >= static_cast<int>(lfts.port[y].size())) continue;
    const int second = channels.of(y, lfts.port[y][lid]);
    if (second >= 0) edges.emplace_back(first, second);
  }
  return edges;
}

// One SL's channel dependency graph, kept acyclic.
class Layer {
 public:
  explicit Layer(int channels) : next_(channels) {}

  /// Adds `edges` unless they close a cycle; returns whether it did.
  bool try_add(const std::vector<Edge>& edges) {
    std::vector<Edge> added;
    for (const Edge& e : edges)
      if (known_.insert(key(e)).second) {
        next_[e.first].push_back(e.second);
        added.push_back(e);
      }
    if (!closes_cycle(added)) return true;
    for (auto it = added.rbegin(); it != added.rend(); ++it) {  // each was pushed last on its list
      next_[it->first].pop_back();
      known_.erase(key(*it));
    }
    return false;
  }

 private:
  static uint64_t key(const Edge& e) { return (uint64_t{static_cast<uint32_t>(e.first)} << 32) | static_cast<uint32_t>(e.second); }

  // The graph was acyclic before `added`, so a cycle runs through one of
  // them: search what their heads reach (iterative DFS, three colours).
  bool closes_cycle(const std::vector<Edge>& added) {
    enum : uint8_t { kWhite, kGrey, kBlack };
    colour_.assign(next_.size(), kWhite);
    std::vector<std::pair<int, size_t>> stack;
    for (const Edge& e : added) {
      if (colour_[e.second] != kWhite) continue;
      stack.emplace_back(e.second, 0);
      colour_[e.second] = kGrey;
      while (!stack.empty()) {
        auto& [node, i] = stack.back();
        if (i == next_[node].size()) {
          colour_[node] = kBlack;
          stack.pop_back();
          continue;
        }
        const int to = next_[node][i++];
        if (colour_[to] == kGrey) return true;
        if (colour_[to] == kWhite) {
          colour_[to] = kGrey;
          stack.emplace_back(to, 0);
        }
      }
    }
    return false;
  }

  std::vector<std::vector<int>> next_;
  std::unordered_set<uint64_t> known_;
  std::vector<uint8_t> colour_;
};

}  // namespace

bool layer_acyclic(const Fabric& fabric, const Lfts& lfts, const std::vector<int>& lids) {
  const Channels channels(fabric);
  Layer layer(channels.count());
  std::vector<Edge> edges;
  for (int lid : lids) {
    const std::vector<Edge> more = dependencies(fabric, lfts, channels, lid);
    edges.insert(edges.end(), more.begin(), more.end());
  }
  return layer.try_add(edges);
}

int layer_detours(const RoutingInput& input, const UpDownReach& reach, Routing& routing) {
  const Fabric& fabric = input.fabric;
  const std::vector<Exit> exits = exits_by_lid(fabric, input.lids);
  const Channels channels(fabric);
  std::vector<Layer> layers;
  int layered = 0, unplaced = 0;
  for (size_t lid = 1; lid < exits.size(); ++lid) {
    const Exit& exit = exits[lid];
    // Switch LIDs carry management traffic only; attached hosts' detours get layers.
    if (exit.target < 0 || exit.port == 0 || !reach.may_detour(exit) || !reach.has_detours(exit.target)) continue;
    const std::vector<Edge> edges = dependencies(fabric, routing.lfts, channels, static_cast<int>(lid));
    int sl = 1;
    for (; sl <= kMaxDetourSl; ++sl) {
      if (static_cast<int>(layers.size()) < sl) layers.emplace_back(channels.count());
      if (layers[sl - 1].try_add(edges)) break;
    }
    if (sl > kMaxDetourSl) {
      sl = kMaxDetourSl;  // the auditor reports the credit loop it closes
      ++unplaced;
    }
    if (routing.dest_sl.empty()) routing.dest_sl.assign(exits.size(), 0);
    routing.dest_sl[lid] = static_cast<uint8_t>(sl);
    ++layered;
  }
  if (layered == 0) return 0;
  const int highest = static_cast<int>(layers.size());
  routing.notes.push_back(fmt::format(
      "{} LIDs of attached hosts are reached through a down-up turn from some switches: on SL 1{} "
      "(VL = SL with OpenSM's default qos_sl2vl; enable qos)",
      layered, highest > 1 ? fmt::format("-{}", highest) : ""));
  if (unplaced > 0)
    routing.notes.push_back(fmt::format("{} of them fit no SL up to {} without a credit loop", unplaced, kMaxDetourSl));
  return highest;
}

}  // namespace ftclos
