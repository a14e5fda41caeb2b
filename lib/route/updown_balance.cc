#include "route/updown_balance.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <tuple>

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
  // Copies the entries into the LFTs.
  void write_lfts();

 private:
  int load(int i, uint8_t port) const { return load_[port_base_[i] + port]; }
  uint8_t& entry(int i, int lid) { return by_lid_[static_cast<size_t>(lid) * sw_.size() + i]; }
  // The edge of `edges` whose port at switch i carries the least load.
  const Edge* least_loaded(int i, std::span<const Edge> edges) const;
  void take(int i, int lid, const Edge& edge, bool counted);
  bool allows(int i, const Edge& edge) const;
  std::span<const Edge> allowed(int i);
  const Edge* any_allowed(int i, int rotation, bool several);
  void start_target(int t);
  void climb_main_path(int t, int lid);
  bool spread_from(int a, int lid);
  void route_the_rest(int t, int lid, const Dest& dest, int rotation, bool several);

  const Fabric& fabric_;
  const UpDownReach& reach_;
  Lfts& lfts_;
  const std::vector<int>& sw_;
  std::vector<int> level_;        // by switch index
  std::vector<int> level_begin_;  // switch indices of level L: [level_begin_[L], level_begin_[L+1])
  int top_ = 0;
  Adjacency up_, down_, any_;
  std::vector<int> port_base_;  // by switch index: offset of its port 0 in load_
  // The entries by LID, then switch index: routing one LID writes one
  // contiguous row (rows per switch would take a cache miss per entry).
  std::vector<uint8_t> by_lid_;
  std::vector<int> load_;       // destinations per port, counted where they carry CA traffic
  std::vector<uint8_t> has_ca_;
  std::vector<int> through_;  // by switch index: main paths through it
  // Per target: turning level of every switch (-1: none), detour hops
  // (empty: no detours), and the edges the rule allows toward it, by switch
  // in the slots of any_ (worked out when first asked for, stamped).
  std::vector<int> turn_;
  std::span<const int> hops_;
  int target_stamp_ = 0;
  std::vector<int> allowed_at_, allowed_count_;
  std::vector<Edge> allowed_;
  // Per LID, stamped so nothing is cleared between LIDs.
  int stamp_ = 0;
  std::vector<int> on_path_;  // == stamp_: the main path or a switch following it
  std::vector<int> needed_;   // == stamp_: carries traffic from a CA below
  std::vector<uint8_t> choice_;
  std::vector<int> main_;                // the main path, from T up
  std::vector<int> frontier_, next_;     // spread_from, one level at a time
  std::vector<int> ancestors_, by_use_;           // T's ancestors, lowest level first
  int uncovered_at_start_ = 0;           // switches with CAs that route up toward T
  int uncovered_ = 0;                    // of those, how many have no route yet
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
  by_lid_.assign(static_cast<size_t>(input.lids.max_lid + 1) * n, kNoPath);
  allowed_.resize(any_.edges.size());
  allowed_at_.assign(n, 0);
  allowed_count_.assign(n, 0);
  turn_.resize(n);
  on_path_.assign(n, 0);
  needed_.assign(n, 0);
  through_.assign(n, 0);
  choice_.assign(n, 0);
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
bool Balancer::allows(int i, const Edge& edge) const {
  const int j = edge.peer;
  if (turn_[i] == level_[i]) return level_[j] == level_[i] - 1 && turn_[j] == level_[j];
  if (turn_[i] >= 0) return level_[j] == level_[i] + 1 && turn_[j] == turn_[i];
  return !hops_.empty() && hops_[i] > 0 && hops_[j] == hops_[i] - 1;
}

// The allowed edges of switch i toward the current target, worked out once
// per target into i's slot of allowed_.
std::span<const Edge> Balancer::allowed(int i) {
  Edge* slot = allowed_.data() + any_.begin[i];
  if (allowed_at_[i] != target_stamp_) {
    allowed_at_[i] = target_stamp_;
    int count = 0;
    for (const Edge& edge : any_.of(i))
      if (allows(i, edge)) slot[count++] = edge;
    allowed_count_[i] = count;
  }
  return {slot, static_cast<size_t>(allowed_count_[i])};
}

// An allowed edge for an entry that carries no CA traffic: rotating over
// them where the target has several LIDs, else the first (cheaper than
// working them all out for a switch LID).
const Edge* Balancer::any_allowed(int i, int rotation, bool several) {
  if (several || allowed_at_[i] == target_stamp_) {
    const std::span<const Edge> edges = allowed(i);
    return edges.empty() ? nullptr : &edges[rotation % edges.size()];
  }
  for (const Edge& edge : any_.of(i))
    if (allows(i, edge)) return &edge;
  return nullptr;
}

void Balancer::start_target(int t) {
  const int n = static_cast<int>(sw_.size());
  ++target_stamp_;
  hops_ = reach_.detour_hops_of(sw_[t]);
  ancestors_.clear();
  uncovered_at_start_ = 0;
  for (int i = 0; i < n; ++i) {
    turn_[i] = reach_.turn_level(sw_[i], sw_[t]);
    if (i != t && turn_[i] == level_[i]) ancestors_.push_back(i);
    if (turn_[i] >= 0 && turn_[i] != level_[i]) uncovered_at_start_ += has_ca_[i];
  }
}

// Step 1: from T to the top through the parent whose down port toward the
// path carries the fewest destinations, then the fewest main paths through
// it (every parent of a switch above T is above T).
void Balancer::climb_main_path(int t, int lid) {
  main_.assign(1, t);
  on_path_[t] = stamp_;
  for (int cur = t; !up_.of(cur).empty();) {
    const Edge* best = nullptr;
    auto key = [&](const Edge& e) { return std::pair(load(e.peer, e.peer_port), through_[e.peer]); };
    for (const Edge& edge : up_.of(cur))
      if (best == nullptr || key(edge) < key(*best)) best = &edge;
    const int parent = best->peer;
    ++through_[parent];
    take(parent, lid, {cur, best->peer_port, best->port}, true);
    on_path_[parent] = stamp_;
    main_.push_back(parent);
    cur = parent;
  }
}

// Step 2: going down from switch `a` (above T, routed), every child that
// turns where its parent does and has no route yet routes up to it, over the
// least-loaded cable of its parents there. Returns whether `a` took any.
bool Balancer::spread_from(int a, int lid) {
  frontier_.assign(1, a);
  bool took = false;
  for (int l = level_[a]; l >= 2 && !frontier_.empty(); --l) {
    next_.clear();
    for (int parent : frontier_) {
      for (const Edge& edge : down_.of(parent)) {
        const int child = edge.peer;
        if (turn_[child] != turn_[parent] || (on_path_[child] == stamp_ && choice_[child] == 0)) continue;
        if (on_path_[child] != stamp_) {
          on_path_[child] = stamp_;
          choice_[child] = edge.peer_port;
          next_.push_back(child);
        } else if (load(child, edge.peer_port) < load(child, choice_[child])) {
          choice_[child] = edge.peer_port;
        }
      }
    }
    for (int child : next_) {
      take(child, lid, {0, choice_[child], 0}, true);
      choice_[child] = 0;  // settled: later parents leave it alone
      uncovered_ -= has_ca_[child];
    }
    took = took || !next_.empty();
    frontier_.swap(next_);
  }
  return took;
}

// Steps 2 and 3 as ftree orders them: the main path spreads first, from the
// top; then T's other ancestors, lowest level first, until every switch
// with CAs has a route; what is left routes to its least-loaded allowed
// port (below T's ancestors bottom-up: a switch learns it is needed from
// the children that chose it), then T's other ancestors, then detours.
void Balancer::route_the_rest(int t, int lid, const Dest& dest, int rotation, bool several) {
  const bool detours = dest.may_detour;
  const bool count_detours = dest.port != 0;  // attached hosts; switch LIDs carry management traffic only
  uncovered_ = uncovered_at_start_;
  for (auto it = main_.rbegin(); it != main_.rend(); ++it) spread_from(*it, lid);
  // T's other ancestors, level by level from T up, the least used first.
  for (size_t k = 0; k < ancestors_.size() && uncovered_ > 0;) {
    size_t end = k;
    while (end < ancestors_.size() && level_[ancestors_[end]] == level_[ancestors_[k]]) ++end;
    by_use_.assign(ancestors_.begin() + k, ancestors_.begin() + end);
    std::ranges::sort(by_use_, {}, [&](int a) { return through_[a]; });
    for (int a : by_use_) {
      if (uncovered_ == 0) break;
      if (on_path_[a] == stamp_ || !spread_from(a, lid)) continue;
      needed_[a] = stamp_;
      ++through_[a];
    }
    k = end;
  }
  auto route = [&](int i, bool needed) {
    if (needed) {
      const std::span<const Edge> edges = allowed(i);
      if (edges.empty()) return;
      const Edge& edge = *least_loaded(i, edges);
      take(i, lid, edge, true);
      needed_[edge.peer] = stamp_;
    } else if (const Edge* edge = any_allowed(i, rotation, several)) {
      take(i, lid, *edge, false);
    }
  };
  const int n = static_cast<int>(sw_.size());
  for (int i = 0; i < n; ++i)
    if (on_path_[i] != stamp_ && turn_[i] >= 0 && turn_[i] != level_[i]) route(i, needed_[i] == stamp_ || has_ca_[i]);
  for (int i = n - 1; i >= 0; --i)
    if (i != t && on_path_[i] != stamp_ && turn_[i] == level_[i]) route(i, needed_[i] == stamp_ || has_ca_[i]);
  if (!detours) return;
  for (int i = 0; i < n; ++i)
    if (turn_[i] < 0) route(i, count_detours);
}

void Balancer::write_lfts() {
  const size_t n = sw_.size();
  for (size_t lid = 0; lid < by_lid_.size() / std::max<size_t>(n, 1); ++lid)
    for (size_t i = 0; i < n; ++i) lfts_.port[sw_[i]][lid] = by_lid_[lid * n + i];
}

void Balancer::route_target(int t, std::span<const Dest> dests) {
  start_target(t);
  int rotation = 0;
  for (const Dest& dest : dests) {
    ++stamp_;
    entry(t, dest.lid) = dest.port;
    climb_main_path(t, dest.lid);
    route_the_rest(t, dest.lid, dest, rotation++, dests.size() > 1);
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
  balancer.write_lfts();
}

}  // namespace ftclos
