#include "route/updown_balance.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <tuple>
#include <cstdlib>

namespace ftclos {
namespace {

constexpr int kMaxPort = 254;  // LFT entries are bytes and 255 is kNoPath

// A cable between two routed switches, seen from one end (indices into
// UpDownReach::switches()).
struct Edge {
  int peer;
  uint8_t port;       // at this end
  uint8_t peer_port;  // at the peer
};

// One LID to route: its owner's exit port at the target switch, and
// whether the rule lets it detour (route/updown_reach.h may_detour).
struct Dest {
  int lid;
  uint8_t port;
  bool may_detour;
};

// Cables of every switch as flat lists: CSR offsets into one edge array.
struct Adjacency {
  std::vector<int> begin{0};
  std::vector<Edge> edges;
  std::span<const Edge> of(int i) const { return {edges.data() + begin[i], edges.data() + begin[i + 1]}; }
};

class Balancer {
 public:
  Balancer(const RoutingInput& input, const UpDownReach& reach, Lfts& lfts);
  // Routes `dests`, all with the exit target of switch index t.
  void route_target(int t, std::span<const Dest> dests);

 private:
  int load(int i, uint8_t port) const { return load_[port_base_[i] + port]; }
  uint8_t& entry(int i, int lid) { return lfts_.port[sw_[i]][lid]; }
  // The edge of `edges` whose port at switch i carries the least load.
  const Edge* least_loaded(int i, std::span<const Edge> edges) const;
  void take(int i, int lid, const Edge& edge, bool counted);
  void fill_candidates(int t);
  void climb_main_path(int t, int lid);
  void follow_main_path(int lid);
  void route_the_rest(int t, int lid, bool detours, int rotation);

  const Fabric& fabric_;
  const UpDownReach& reach_;
  Lfts& lfts_;
  const std::vector<int>& sw_;
  std::vector<int> level_;        // by switch index
  std::vector<int> level_begin_;  // switch indices of level L: [level_begin_[L], level_begin_[L+1])
  int top_ = 0;
  int slack_ = getenv("UD_SLACK") ? atoi(getenv("UD_SLACK")) : 1000;
  Adjacency up_, down_, any_;
  std::vector<int> port_base_;  // by switch index: offset of its port 0 in load_
  std::vector<int> load_;       // destinations per port, counted where they carry CA traffic
  std::vector<uint8_t> has_ca_;
  std::vector<int> through_;  // by switch index: main paths through it
  // Per target: turning level of every switch (-1: none) and the ports the
  // rule allows toward it on shortest paths (detours where it has none).
  std::vector<int> turn_;
  Adjacency allowed_;
  // Per LID, stamped so nothing is cleared between LIDs.
  int stamp_ = 0;
  std::vector<int> on_path_;  // == stamp_: the main path or a switch following it
  std::vector<int> needed_;   // == stamp_: carries traffic from a CA below
  std::vector<uint8_t> choice_;
  std::vector<std::vector<int>> following_;  // by level: switches on or following the main path
};

Balancer::Balancer(const RoutingInput& input, const UpDownReach& reach, Lfts& lfts)
    : fabric_(input.fabric), reach_(reach), lfts_(lfts), sw_(reach.switches()) {
  const int n = static_cast<int>(sw_.size());
  const Levels& levels = input.detection.levels;
  for (int x : sw_) level_.push_back(levels.of[x]);
  top_ = n == 0 ? 0 : level_.back();
  level_begin_.assign(top_ + 2, n);
  for (int i = n - 1; i >= 0; --i) level_begin_[level_[i]] = i;
  for (int l = top_; l >= 1; --l) level_begin_[l] = std::min(level_begin_[l], level_begin_[l + 1]);
  port_base_.resize(n);
  has_ca_.assign(n, 0);
  int ports = 0;
  for (int i = 0; i < n; ++i) {
    const Node& node = fabric_.node(sw_[i]);
    port_base_[i] = ports;
    ports += node.num_ports + 1;
    for (int p = 1; p <= std::min(node.num_ports, kMaxPort); ++p) {
      const PortRef peer = node.ports[p].peer;
      if (!peer.valid()) continue;
      if (!fabric_.node(peer.node).is_switch()) has_ca_[i] = 1;
      const int j = reach_.index(peer.node);
      if (j < 0 || j == i || peer.port > kMaxPort) continue;
      const Edge edge{j, static_cast<uint8_t>(p), static_cast<uint8_t>(peer.port)};
      any_.edges.push_back(edge);
      if (level_[j] == level_[i] + 1) up_.edges.push_back(edge);
      if (level_[j] == level_[i] - 1) down_.edges.push_back(edge);
    }
    up_.begin.push_back(static_cast<int>(up_.edges.size()));
    down_.begin.push_back(static_cast<int>(down_.edges.size()));
    any_.begin.push_back(static_cast<int>(any_.edges.size()));
  }
  load_.assign(ports, 0);
  turn_.resize(n);
  on_path_.assign(n, 0);
  needed_.assign(n, 0);
  through_.assign(n, 0);
  choice_.assign(n, 0);
  following_.resize(top_ + 1);
}

const Edge* Balancer::least_loaded(int i, std::span<const Edge> edges) const {
  const Edge* best = nullptr;
  for (const Edge& edge : edges)
    if (best == nullptr || load(i, edge.port) < load(i, best->port)) best = &edge;
  return best;
}

void Balancer::take(int i, int lid, const Edge& edge, bool counted) {
  entry(i, lid) = edge.port;
  if (counted) ++load_[port_base_[i] + edge.port];
}

// The rule of updown_reach.h read per target: above it, down to a child
// above it; below, up to a parent turning at the same level; with no
// up/down path, one hop closer over any cable.
void Balancer::fill_candidates(int t) {
  const int n = static_cast<int>(sw_.size());
  for (int i = 0; i < n; ++i) turn_[i] = reach_.turn_level(sw_[i], sw_[t]);
  allowed_.begin.assign(1, 0);
  allowed_.edges.clear();
  for (int i = 0; i < n; ++i) {
    if (i == t) {
    } else if (turn_[i] == level_[i]) {
      for (const Edge& edge : down_.of(i))
        if (turn_[edge.peer] == level_[edge.peer]) allowed_.edges.push_back(edge);
    } else if (turn_[i] >= 0) {
      for (const Edge& edge : up_.of(i))
        if (turn_[edge.peer] == turn_[i]) allowed_.edges.push_back(edge);
    } else if (const int hops = reach_.detour_distance(sw_[t], sw_[i]); hops > 0) {
      for (const Edge& edge : any_.of(i))
        if (reach_.detour_distance(sw_[t], sw_[edge.peer]) == hops - 1) allowed_.edges.push_back(edge);
    }
    allowed_.begin.push_back(static_cast<int>(allowed_.edges.size()));
  }
}

// Step 1: from T to the top through the parent with the least-loaded down
// port toward the path (every parent of a switch above T is above T).
void Balancer::climb_main_path(int t, int lid) {
  for (auto& list : following_) list.clear();
  on_path_[t] = stamp_;
  following_[level_[t]].push_back(t);
  for (int cur = t; !up_.of(cur).empty();) {
    const Edge* best = nullptr;
    auto key = [&](const Edge& e) { return std::pair(load(e.peer, e.peer_port), through_[e.peer]); };
    for (const Edge& edge : up_.of(cur))
      if (best == nullptr || key(edge) < key(*best)) best = &edge;
    const int parent = best->peer;
    ++through_[parent];
    take(parent, lid, {cur, best->peer_port, best->port}, true);
    on_path_[parent] = stamp_;
    following_[level_[parent]].push_back(parent);
    cur = parent;
  }
}

// Step 2: top-down, children turning where a switch on the path turns route
// up to it; of several such parents, over the least-loaded port.
void Balancer::follow_main_path(int lid) {
  for (int l = top_; l >= 2; --l) {
    const size_t first_new = following_[l - 1].size();
    for (int parent : following_[l]) {
      for (const Edge& edge : down_.of(parent)) {
        const int child = edge.peer;
        if (turn_[child] != turn_[parent] || (on_path_[child] == stamp_ && choice_[child] == 0)) continue;
        if (on_path_[child] != stamp_) {
          on_path_[child] = stamp_;
          choice_[child] = edge.peer_port;
          following_[l - 1].push_back(child);
        } else if (load(child, edge.peer_port) < load(child, choice_[child])) {
          choice_[child] = edge.peer_port;
        }
      }
    }
    for (size_t k = first_new; k < following_[l - 1].size(); ++k) {
      const int child = following_[l - 1][k];
      const Edge* best = least_loaded(child, allowed_.of(child));
      if (load(child, best->port) + slack_ < load(child, choice_[child])) {
        choice_[child] = best->port;
        needed_[best->peer] = stamp_;
      }
      entry(child, lid) = choice_[child];
      ++load_[port_base_[child] + choice_[child]];
      choice_[child] = 0;  // settled: later parents leave it alone
    }
  }
}

// Step 3: the switches off the path. Below T's ancestors bottom-up (a
// switch learns it is needed from the children that chose it), then T's
// other ancestors top-down, then detours.
void Balancer::route_the_rest(int t, int lid, bool detours, int rotation) {
  auto route = [&](int i) {
    const std::span<const Edge> allowed = allowed_.of(i);
    if (allowed.empty()) return;
    const bool needed = needed_[i] == stamp_ || has_ca_[i] || turn_[i] < 0;  // detours always count
    const Edge& edge = needed ? *least_loaded(i, allowed) : allowed[rotation % allowed.size()];
    take(i, lid, edge, needed);
    if (needed) needed_[edge.peer] = stamp_;
  };
  for (int i = 0; i < static_cast<int>(sw_.size()); ++i)
    if (i != t && on_path_[i] != stamp_ && turn_[i] >= 0 && turn_[i] != level_[i]) route(i);
  for (int i = static_cast<int>(sw_.size()) - 1; i >= 0; --i)
    if (i != t && on_path_[i] != stamp_ && turn_[i] == level_[i]) route(i);
  if (!detours) return;
  for (int i = 0; i < static_cast<int>(sw_.size()); ++i)
    if (turn_[i] < 0) route(i);
}

void Balancer::route_target(int t, std::span<const Dest> dests) {
  fill_candidates(t);
  int rotation = 0;
  for (const Dest& dest : dests) {
    ++stamp_;
    entry(t, dest.lid) = dest.port;
    climb_main_path(t, dest.lid);
    follow_main_path(dest.lid);
    route_the_rest(t, dest.lid, dest.may_detour, rotation++);
  }
}

}  // namespace

void balance_by_destination(const RoutingInput& input, const UpDownReach& reach, Lfts& lfts) {
  const Fabric& fabric = input.fabric;
  lfts.port.assign(fabric.size(), {});
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch()) lfts.port[x].assign(input.lids.max_lid + 1, kNoPath);
  // CA LIDs first, by target and port (a leaf's hosts spread over its
  // parents in turn), then switch LIDs, which carry management traffic only.
  std::vector<std::tuple<bool, int, Dest>> order;
  for (int lid = 1; lid <= input.lids.max_lid; ++lid) {
    const int owner = input.lids.owner[lid];
    if (owner < 0) continue;
    const Exit exit = exit_of(fabric, owner);
    if (exit.target < 0 || reach.index(exit.target) < 0) continue;
    order.emplace_back(exit.port == 0, reach.index(exit.target),
                       Dest{lid, static_cast<uint8_t>(exit.port), reach.may_detour(exit)});
  }
  std::ranges::stable_sort(order, {}, [](const auto& o) {
    return std::tuple(std::get<0>(o), std::get<1>(o), std::get<2>(o).port);
  });
  Balancer balancer(input, reach, lfts);
  std::vector<Dest> group;
  for (size_t k = 0; k < order.size(); ++k) {
    group.push_back(std::get<2>(order[k]));
    if (k + 1 < order.size() && std::get<0>(order[k + 1]) == std::get<0>(order[k]) &&
        std::get<1>(order[k + 1]) == std::get<1>(order[k]))
      continue;
    balancer.route_target(std::get<1>(order[k]), group);
    group.clear();
  }
}

}  // namespace ftclos
