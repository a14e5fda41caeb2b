#include "paths/updown_balance.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <tuple>

#include "core/aggregation_node.h"

namespace ftclos {
namespace {

constexpr int kMaxPort = 254;  // LFT entries are bytes and 255 is kNoPath

// How many of T's least used other ancestors step 2 weighs against each
// other by what their spreading would reach. Measured on a 10,080-host RFC
// (radix 36, seed 1) before step 1 weighed the up ports in: 16 gave worst
// case 112, 8 gave 116, 32 117, all of them (fewest top switches per
// destination, uneven loads) 144, none (the least used first) 169.
constexpr size_t kCandidates = 16;

// Bytes of rows routed before they go into the LFTs: each switch's table
// then takes a run of entries while it sits in cache, and the rows stay in
// the second-level cache while the flush reads them once per block of
// switches (updown on FT(36,3), one core, alternating runs: 2 MB 177-196
// ms, 256 KB 165-173 ms, 64 KB 164-167 ms).
constexpr size_t kFlushBytes = size_t{256} << 10;
constexpr size_t kFlushSwitches = 64;

// A cable between two routed switches, seen from one end (indices into
// UpDownReach::switches()).
struct Edge {
  int peer;
  uint8_t port;       // at this end
  uint8_t peer_port;  // at the peer
};

// One LID to route: its owner's exit port at the target switch, and
// whether the rule lets it detour (paths/updown_reach.h may_detour).
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
  // Routes CA LIDs `dests`, all with the exit target of switch index t.
  void route_target(int t, std::span<const Dest> dests);
  // Routes the LIDs of switch t itself (management traffic only).
  void route_switch_lids(int t, std::span<const Dest> dests);
  // Writes the rows routed so far into the LFTs.
  void flush();
  // A node's switch index here, -1 when it is no switch a CA reaches.
  int index_of(int node) const { return mine_[node]; }

 private:
  int load(int i, uint8_t port) const { return load_[port_base_[i] + port]; }
  // Destinations the up ports into switch `p` carry, summed: what the
  // switches that will follow `p` already send up to it.
  int load_into(int p) const { return into_[p]; }
  // One more destination out of `port` of switch `i`; returns the switch
  // index it leads to (-1: a CA).
  int add_load(int i, uint8_t port) {
    const int slot = port_base_[i] + port;
    ++load_[slot];
    const int peer = peer_of_[slot];
    if (peer >= 0 && level_[peer] == level_[i] + 1) ++into_[peer];
    return peer;
  }
  const Edge* least_loaded(int i, std::span<const Edge> edges) const;
  bool allows(int i, const Edge& edge) const;
  std::span<const Edge> allowed(int i);
  uint8_t first_allowed(int i) const;
  uint8_t allowed_from(int i, size_t start, bool may_detour) const;
  void set_turns(int t);
  uint8_t* new_row(int lid);
  void start_target(int t, bool may_detour);
  void climb_main_path(int t, uint8_t* entries);
  bool spread_from(int a, uint8_t* entries);
  void spread(uint8_t* entries);
  int gain(int a) const;
  void set_open(int i, uint8_t open);
  void forget_weighing_above(int i);
  void weigh(int a);
  int new_load(int a) const;
  void need(int i);
  void route_needed(uint8_t* entries);
  void count_carried(int t, const uint8_t* entries);

  const UpDownReach& reach_;
  // The switches a CA reaches by level, then GUID: an order of their own,
  // so the tables do not depend on the order a file lists nodes in.
  std::vector<int> sw_;
  std::vector<int> mine_;        // by node: index into sw_, or -1
  std::vector<int> reach_index_; // by switch index: UpDownReach's index
  std::vector<int> level_;  // by switch index
  int top_ = 0;
  Adjacency up_, down_, any_;
  std::vector<uint8_t> has_ca_;
  // Has a compute CA: an AN alone (on every switch of a pod) sends only
  // SHARP's traffic, which no contention figure counts; its loads would
  // even the cores' per-group down ports and leave their totals to ties
  // (a 3,784-HCA pod: destinations per core 16..94, worst case 96).
  std::vector<uint8_t> has_compute_;
  std::vector<int> port_base_;  // by switch index: offset of its port 0 in load_
  std::vector<int> load_;       // destinations per port: entries on paths and spread, and least-loaded ones
  std::vector<int> into_;       // by switch index: load_into
  std::vector<int> through_;    // by switch index: main and spreading paths through it
  // The entries of the last LIDs routed, by LID, then switch index: routing
  // one LID writes one contiguous row, and kFlushBytes of rows go into the
  // LFTs switch by switch (entry by entry, or one target's few LIDs at a
  // time, nearly every entry would take a cache miss: a switch LID is a
  // target of its own).
  std::vector<uint8_t> rows_;
  std::vector<int> row_lids_;
  std::vector<uint8_t*> tables_;  // by switch index: its LFT
  std::vector<std::pair<int, int>> by_lid_;  // flush: (LID, row) by LID

  // Per target: turning level of every switch (-1: none), detour hops
  // (empty: no detours), the edges the rule allows, by switch in the slots
  // of any_ (worked out when first asked for, stamped), and the entries of
  // switches no CA traffic reaches: the first allowed port.
  std::vector<int> turn_;
  std::span<const int> hops_;
  int target_stamp_ = 0;
  std::vector<int> allowed_at_, allowed_count_;
  std::vector<Edge> allowed_;
  std::vector<uint8_t> unused_row_;
  std::vector<int> ancestors_;   // T's ancestors, lowest level first
  std::vector<int> ca_below_;    // switches with CAs that route up toward T
  std::vector<int> ca_above_;    // T's ancestors with CAs
  std::vector<int> detouring_;   // switches that reach T only by a detour

  // Per LID, stamped so nothing is cleared between LIDs.
  int stamp_ = 0;
  std::vector<int> on_path_;  // == stamp_: routed by spreading (or T)
  std::vector<int> needed_;   // == stamp_: carries CA traffic, routed least-loaded
  std::vector<int> counted_;  // == stamp_: its entry's load counted
  std::vector<uint8_t> open_;         // 1: in ca_below_, and no spreading reached it yet (spread's second part)
  // open_ of a switch plus that of its children over each cable down, kept
  // as open_ changes: gain and new_load, which weigh up to kCandidates
  // ancestors per spreading step, then read one sum per child (a pod's
  // ANs leave every spine open: 5 million weighings per sweep).
  std::vector<int> open_below_;
  // Step 2 weighs the same ancestors step after step while one spreading
  // changes few of their figures: each is kept (weighed_ == weigh_stamp_)
  // until a child's on_path_ or open_below_ changes (forget_weighing_above).
  bool weighing_ = false;
  int weigh_stamp_ = 0;
  std::vector<int> weighed_, gain_of_, new_load_of_;
  std::vector<int> users_;            // spread_from: children that chose it; -1 off the frontier
  std::vector<int> cables_in_;        // spread_from: cables from the frontier into it; 0 once settled
  std::vector<uint8_t> only_cable_;   // spread_from: its port of the first such cable
  std::vector<int> only_parent_;      // spread_from: the switch that cable leads to
  std::vector<int> peer_of_;          // by port as load_: the switch index it leads to, -1 none
  std::vector<int> main_;             // the main path, from T up
  std::vector<int> frontier_, next_;  // spread_from, one level at a time
  std::vector<int> by_use_;
  std::vector<std::vector<int>> needed_by_level_;
  int uncovered_ = 0;  // of ca_below_, how many have no route yet
};

Balancer::Balancer(const RoutingInput& input, const UpDownReach& reach, Lfts& lfts)
    : reach_(reach), sw_(reach.switches()) {
  const int n = static_cast<int>(sw_.size());
  const Fabric& fabric = input.fabric;
  const Levels& levels = input.detection.levels;
  std::ranges::sort(sw_, [&](int a, int b) {
    return levels.of[a] != levels.of[b] ? levels.of[a] < levels.of[b] : precedes_by_guid(fabric, a, b);
  });
  mine_.assign(fabric.size(), -1);
  for (int i = 0; i < n; ++i) mine_[sw_[i]] = i;
  for (int x : sw_) reach_index_.push_back(reach.index(x));
  for (int x : sw_) level_.push_back(levels.of[x]);
  top_ = n == 0 ? 0 : level_.back();
  port_base_.resize(n);
  has_ca_.assign(n, 0);
  has_compute_.assign(n, 0);
  int ports = 0;
  for (int i = 0; i < n; ++i) {
    const Node& node = fabric.node(sw_[i]);
    port_base_[i] = ports;
    ports += node.num_ports + 1;
    for (int p = 1; p <= std::min(node.num_ports, kMaxPort); ++p) {
      const PortRef peer = node.ports[p].peer;
      if (!peer.valid()) continue;
      if (!fabric.node(peer.node).is_switch()) {
        has_ca_[i] = 1;
        has_compute_[i] |= !is_aggregation_node(fabric.node(peer.node));
      }
      const int j = mine_[peer.node];
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
  through_.assign(n, 0);
  into_.assign(n, 0);
  turn_.resize(n);
  allowed_.resize(any_.edges.size());
  allowed_at_.assign(n, 0);
  allowed_count_.assign(n, 0);
  unused_row_.resize(n);
  on_path_.assign(n, 0);
  needed_.assign(n, 0);
  counted_.assign(n, 0);
  users_.assign(n, -1);
  open_.assign(n, 0);
  open_below_.assign(n, 0);
  weighed_.assign(n, 0);
  gain_of_.assign(n, 0);
  new_load_of_.assign(n, 0);
  cables_in_.assign(n, 0);
  only_cable_.assign(n, 0);
  only_parent_.assign(n, -1);
  peer_of_.assign(ports, -1);
  for (int i = 0; i < n; ++i)
    for (const Edge& edge : any_.of(i)) peer_of_[port_base_[i] + edge.port] = edge.peer;
  needed_by_level_.resize(top_ + 1);
  for (int x : sw_) tables_.push_back(lfts.port[x].data());
}

// Ties go to the first edge: the lowest port.
const Edge* Balancer::least_loaded(int i, std::span<const Edge> edges) const {
  const Edge* best = nullptr;
  for (const Edge& edge : edges)
    if (best == nullptr || load(i, edge.port) < load(i, best->port)) best = &edge;
  return best;
}

// The rule of updown_reach.h read per target: above it, down to a child
// above it; below, up to a parent turning at the same level; with no
// up/down path, one hop closer over any cable.
bool Balancer::allows(int i, const Edge& edge) const {
  const int j = edge.peer;
  if (turn_[i] == level_[i]) return level_[j] == level_[i] - 1 && turn_[j] == level_[j];
  if (turn_[i] >= 0) return level_[j] == level_[i] + 1 && turn_[j] == turn_[i];
  if (hops_.empty()) return false;
  const int here = hops_[reach_index_[i]];
  return here > 0 && hops_[reach_index_[j]] == here - 1;
}

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

// turn_ and hops_ toward target t; allowed() works its lists out anew.
void Balancer::set_turns(int t) {
  ++target_stamp_;
  hops_ = reach_.detour_hops_of(sw_[t]);
  const std::span<const uint8_t> turns = reach_.turn_levels_toward(sw_[t]);
  for (size_t i = 0; i < sw_.size(); ++i) turn_[i] = turns[reach_index_[i]] == 0xFF ? -1 : turns[reach_index_[i]];
}

void Balancer::start_target(int t, bool may_detour) {
  const int n = static_cast<int>(sw_.size());
  set_turns(t);
  ancestors_.clear();
  ca_below_.clear();
  ca_above_.clear();
  detouring_.clear();
  for (int i = 0; i < n; ++i) {
    unused_row_[i] = kNoPath;
    if (i == t) continue;
    if (turn_[i] == level_[i]) {
      ancestors_.push_back(i);
      if (has_ca_[i]) ca_above_.push_back(i);
    } else if (turn_[i] >= 0) {
      if (has_ca_[i]) ca_below_.push_back(i);
    } else if (may_detour) {
      detouring_.push_back(i);
    } else {
      continue;
    }
    unused_row_[i] = first_allowed(i);
  }
}

// allows() over the cables of one kind only: this runs for every switch and
// target (every switch LID is a target of its own).
uint8_t Balancer::first_allowed(int i) const {
  if (turn_[i] == level_[i]) {
    for (const Edge& edge : down_.of(i))
      if (turn_[edge.peer] == level_[i] - 1) return edge.port;
  } else if (turn_[i] >= 0) {
    for (const Edge& edge : up_.of(i))
      if (turn_[edge.peer] == turn_[i]) return edge.port;
  } else {
    for (const Edge& edge : any_.of(i))
      if (allows(i, edge)) return edge.port;
  }
  return kNoPath;
}

// The first port the rule allows at switch i, its cables of the one kind
// the rule can allow (as first_allowed) scanned from the `start`-th on, round.
uint8_t Balancer::allowed_from(int i, size_t start, bool may_detour) const {
  auto scan = [&](std::span<const Edge> edges, auto allowed) -> uint8_t {
    if (edges.empty()) return kNoPath;
    const uint32_t first = static_cast<uint32_t>(start % edges.size());
    for (uint32_t k = first; k < edges.size(); ++k)
      if (allowed(edges[k])) return edges[k].port;
    for (uint32_t k = 0; k < first; ++k)
      if (allowed(edges[k])) return edges[k].port;
    return kNoPath;
  };
  if (turn_[i] == level_[i]) return scan(down_.of(i), [&](const Edge& e) { return turn_[e.peer] == level_[i] - 1; });
  if (turn_[i] >= 0) return scan(up_.of(i), [&](const Edge& e) { return turn_[e.peer] == turn_[i]; });
  // A detour: one hop closer over any cable (allows(), its hops read once).
  if (!may_detour || hops_.empty()) return kNoPath;
  const int here = hops_[reach_index_[i]];
  if (here <= 0) return kNoPath;
  return scan(any_.of(i), [&](const Edge& e) { return hops_[reach_index_[e.peer]] == here - 1; });
}

// Step 1: from T to the top through the parent whose down port toward the
// path carries the fewest destinations, then whose up ports in carry the
// fewest (on a 10,080-host RFC the worst case sits on those: 112 -> 106 when added),
// then with the fewest paths through it (every parent of a switch above T
// is above T).
void Balancer::climb_main_path(int t, uint8_t* entries) {
  main_.assign(1, t);
  on_path_[t] = stamp_;
  for (int cur = t; !up_.of(cur).empty();) {
    const Edge* best = nullptr;
    auto key = [&](const Edge& e) {
      return std::tuple(load(e.peer, e.peer_port), load_into(e.peer), through_[e.peer]);
    };
    for (const Edge& edge : up_.of(cur))
      if (best == nullptr || key(edge) < key(*best)) best = &edge;
    const int parent = best->peer;
    ++through_[parent];
    entries[parent] = best->peer_port;
    on_path_[parent] = stamp_;
    main_.push_back(parent);
    cur = parent;
  }
}

// Going down from switch `a` (above T, routed), every child that turns where
// its parent does and has no route yet routes up to it, over the
// least-loaded cable of its parents there. Returns whether `a` took any.
bool Balancer::spread_from(int a, uint8_t* entries) {
  frontier_.assign(1, a);
  bool took = false;
  for (int l = level_[a]; l >= 2 && !frontier_.empty(); --l) {
    next_.clear();
    for (int parent : frontier_) {
      users_[parent] = 0;
      for (const Edge& edge : down_.of(parent)) {
        const int child = edge.peer;
        if (turn_[child] != turn_[parent]) continue;
        if (on_path_[child] != stamp_) {
          on_path_[child] = stamp_;
          if (weighing_) forget_weighing_above(child);
          cables_in_[child] = 1;
          only_cable_[child] = edge.peer_port;
          only_parent_[child] = parent;
          next_.push_back(child);
        } else if (cables_in_[child] > 0) {
          ++cables_in_[child];
        }
      }
    }
    // Each child to the parent most children chose so far (one destination
    // crossing few switches), then whose cable up carries the fewest
    // destinations (FT(8,3), a swapped pair: the leaf with a cable into
    // another pod put its extra destinations there, worst case 12 -> 11),
    // then over its least-loaded cable; with one cable from the frontier (a
    // tree), that one.
    for (int child : next_) {
      uint8_t port = only_cable_[child];
      int parent = only_parent_[child];
      if (cables_in_[child] > 1) {
        const Edge* best = nullptr;
        auto key = [&](const Edge& e) {
          return std::tuple(-users_[e.peer], load(e.peer, entries[e.peer]), load(child, e.port));
        };
        for (const Edge& edge : up_.of(child))
          if (users_[edge.peer] >= 0 && turn_[edge.peer] == turn_[child] &&
              (best == nullptr || key(edge) < key(*best)))
            best = &edge;
        port = best->port;
        parent = best->peer;
      }
      cables_in_[child] = 0;  // settled: later frontiers pass it by
      ++users_[parent];
      entries[child] = port;
      uncovered_ -= has_ca_[child];
      set_open(child, 0);
    }
    for (int parent : frontier_) users_[parent] = -1;
    took = took || !next_.empty();
    frontier_.swap(next_);
  }
  return took;
}

// Step 2, in ftree's order: the main path spreads first, from the top; then
// T's other ancestors, level by level from T up, the least used first, until
// every switch with CAs has a route.
void Balancer::spread(uint8_t* entries) {
  uncovered_ = static_cast<int>(ca_below_.size());
  for (auto it = main_.rbegin(); it != main_.rend(); ++it) spread_from(*it, entries);
  if (uncovered_ == 0) return;  // as on an intact tree: open_ is not needed
  for (int i : ca_below_) set_open(i, on_path_[i] != stamp_);
  ++weigh_stamp_;
  weighing_ = true;
  for (size_t k = 0; k < ancestors_.size() && uncovered_ > 0;) {
    size_t end = k;
    while (end < ancestors_.size() && level_[ancestors_[end]] == level_[ancestors_[k]]) ++end;
    by_use_.assign(ancestors_.begin() + k, ancestors_.begin() + end);
    std::ranges::stable_sort(by_use_, {}, [&](int a) { return through_[a]; });
    for (size_t u = 0; u < by_use_.size() && uncovered_ > 0; ++u) {
      // Of the next kCandidates least used, the one whose spreading reaches
      // the most switches with CAs that have no route yet: fewer top
      // switches per destination, with their loads still even.
      size_t best = u;
      int best_gain = -1, best_into = 0;
      for (size_t v = u; v < std::min(by_use_.size(), u + kCandidates); ++v) {
        const int candidate = by_use_[v];
        if (on_path_[candidate] != stamp_) weigh(candidate);
        const int g = on_path_[candidate] == stamp_ ? -1 : gain_of_[candidate];
        if (g < best_gain) continue;
        const int into = new_load_of_[candidate];
        if (g > best_gain || into < best_into) best_gain = g, best_into = into, best = v;
      }
      std::swap(by_use_[u], by_use_[best]);
      const int a = by_use_[u];
      if (on_path_[a] == stamp_ || !spread_from(a, entries)) continue;
      need(a);
      ++through_[a];
    }
    k = end;
  }
  weighing_ = false;
  for (int i : ca_below_) set_open(i, 0);
}

void Balancer::weigh(int a) {
  if (weighed_[a] == weigh_stamp_) return;
  weighed_[a] = weigh_stamp_;
  gain_of_[a] = gain(a);
  new_load_of_[a] = new_load(a);
}

// gain and new_load of a switch read its children's on_path_ and open_below_.
void Balancer::forget_weighing_above(int i) {
  for (const Edge& up : up_.of(i)) weighed_[up.peer] = 0;
}

void Balancer::set_open(int i, uint8_t open) {
  if (open_[i] == open) return;
  const int delta = open - open_[i];
  open_[i] = open;
  open_below_[i] += delta;
  for (const Edge& up : up_.of(i)) open_below_[up.peer] += delta;  // down_ holds the same cables
  if (!weighing_) return;
  forget_weighing_above(i);
  for (const Edge& up : up_.of(i)) forget_weighing_above(up.peer);
}

// Switches with CAs and no route yet that spreading from `a` would reach
// within two levels (an estimate: one reached twice counts twice, and one
// below that turns lower counts though spreading would pass it by; when
// higher ancestors spread, the lower ones have routed those).
int Balancer::gain(int a) const {
  int g = 0;
  for (const Edge& down : down_.of(a)) {
    const int c = down.peer;
    if (turn_[c] != turn_[a] || on_path_[c] == stamp_) continue;
    g += open_below_[c];
  }
  return g;
}

// The most loaded cable into `a` that spreading from `a` would add traffic
// to: from a child with CA switches below that have no route yet.
int Balancer::new_load(int a) const {
  int most = 0;
  for (const Edge& down : down_.of(a)) {
    const int c = down.peer;
    if (turn_[c] != turn_[a] || on_path_[c] == stamp_) continue;
    if (open_below_[c] > 0) most = std::max(most, load(c, down.peer_port));
  }
  return most;
}

void Balancer::need(int i) {
  if (needed_[i] == stamp_) return;
  needed_[i] = stamp_;
  needed_by_level_[level_[i]].push_back(i);
}

// Step 3: switches with CA traffic that spreading did not reach route to
// their least-loaded allowed port: below T's ancestors bottom-up (a switch
// learns it carries traffic from the children that chose it), then T's
// ancestors top-down; then detours, counted for attached hosts only.
void Balancer::route_needed(uint8_t* entries) {
  if (uncovered_ > 0)  // else spreading reached every one
    for (int i : ca_below_)
      if (on_path_[i] != stamp_) need(i);
  for (int i : ca_above_) need(i);
  auto route = [&](int i) {
    const std::span<const Edge> edges = allowed(i);
    if (edges.empty()) return;
    const Edge& edge = *least_loaded(i, edges);
    entries[i] = edge.port;
    if (on_path_[edge.peer] != stamp_) need(edge.peer);
  };
  for (int l = 1; l <= top_; ++l)
    for (size_t k = 0; k < needed_by_level_[l].size(); ++k)  // index: routing may add above
      if (const int i = needed_by_level_[l][k]; on_path_[i] != stamp_ && turn_[i] > level_[i]) route(i);
  for (int l = top_; l >= 1; --l)
    for (size_t k = 0; k < needed_by_level_[l].size(); ++k)
      if (const int i = needed_by_level_[l][k]; on_path_[i] != stamp_ && turn_[i] == level_[i]) route(i);
  // Detours are counted where they are routed, whether CA traffic takes
  // them or not: their loads then spread over the leaves' up ports (with
  // only the carried ones counted, a PGFT with storage hosts on its top
  // switches: worst case 6 -> 7).
  for (int i : detouring_) {
    route(i);
    if (entries[i] != kNoPath) add_load(i, entries[i]);
  }
}

// Loads count the destinations a port carries compute traffic for: from
// every switch with compute CAs along its entries to T, each port once
// (ANs' switches are routed, not counted). Entries that
// spreading set but no CA's traffic crosses carry nothing and count nothing
// (with them counted, FT(8,3) with a swapped cable pair: worst case 12).
void Balancer::count_carried(int t, const uint8_t* entries) {
  counted_[t] = stamp_;
  auto walk = [&](int i) {
    while (counted_[i] != stamp_ && entries[i] != kNoPath) {
      counted_[i] = stamp_;
      i = add_load(i, entries[i]);
      if (i < 0) return;
    }
  };
  for (int i : ca_below_)
    if (has_compute_[i]) walk(i);
  for (int i : ca_above_)
    if (has_compute_[i]) walk(i);
}

// A row for `lid` in rows_ (flushed first when full), its entries unset.
uint8_t* Balancer::new_row(int lid) {
  const size_t n = sw_.size();
  if ((row_lids_.size() + 1) * n > kFlushBytes) flush();
  row_lids_.push_back(lid);
  rows_.resize(row_lids_.size() * n);
  return &rows_[(row_lids_.size() - 1) * n];
}

void Balancer::route_target(int t, std::span<const Dest> dests) {
  start_target(t, dests.front().may_detour);
  for (const Dest& dest : dests) {
    ++stamp_;
    uint8_t* entries = new_row(dest.lid);
    std::memcpy(entries, unused_row_.data(), unused_row_.size());
    entries[t] = dest.port;
    for (auto& list : needed_by_level_) list.clear();
    climb_main_path(t, entries);
    spread(entries);
    route_needed(entries);
    count_carried(t, entries);
  }
}

// Switch LIDs are routed after every CA LID and carry management traffic
// only: no CA load to weigh, so every switch takes the next port the rule
// allows, its scan starting at the target's index, so that the targets
// spread over the cables (balanced as CA LIDs are, they took a quarter of
// updown's time on FT(36,3), 40 of 172 ms).
void Balancer::route_switch_lids(int t, std::span<const Dest> dests) {
  set_turns(t);
  for (size_t k = 0; k < dests.size(); ++k) {
    uint8_t* entries = new_row(dests[k].lid);
    for (size_t i = 0; i < sw_.size(); ++i)
      entries[i] = static_cast<int>(i) == t ? dests[k].port : allowed_from(static_cast<int>(i), t + k, dests[k].may_detour);
  }
}

// In blocks of kFlushSwitches switches, rows by ascending LID: each row
// gives a block one cache line, and each table line of the block is filled
// in one go.
void Balancer::flush() {
  const size_t n = sw_.size();
  by_lid_.resize(row_lids_.size());
  for (size_t k = 0; k < by_lid_.size(); ++k) by_lid_[k] = {row_lids_[k], static_cast<int>(k)};
  std::ranges::sort(by_lid_);
  uint8_t* const* tables = tables_.data();
  for (size_t i0 = 0; i0 < n; i0 += kFlushSwitches) {
    const size_t i1 = std::min(n, i0 + kFlushSwitches);
    for (const auto& [lid, k] : by_lid_) {
      const uint8_t* row = &rows_[static_cast<size_t>(k) * n];
      for (size_t i = i0; i < i1; ++i) tables[i][lid] = row[i];
    }
  }
  row_lids_.clear();
}

}  // namespace

void balance_by_destination(const RoutingInput& input, const UpDownReach& reach, Lfts& lfts) {
  const Fabric& fabric = input.fabric;
  lfts.port.assign(fabric.size(), {});
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch()) lfts.port[x].assign(input.lids.max_lid + 1, kNoPath);
  // Compute CA LIDs first, offset 0 on its own (balanced as at LMC 0: every
  // host that does not know its path bits sends there), then the further
  // offsets on top (a target's together, so they spread over distinct
  // paths), each by target and port (a leaf's hosts spread over its parents
  // in turn); then SHARP ANs' LIDs, whose traffic no contention figure
  // counts; then switch LIDs, which carry management traffic only.
  // May-detour is the same for every LID of one group (updown_reach.h).
  Balancer balancer(input, reach, lfts);
  enum Kind { kCompute, kAggregationNode, kSwitch };
  struct Ordered {
    Kind kind;
    bool further_offset;
    int target;
    Dest dest;
    auto group() const { return std::tuple(kind, further_offset, target); }
  };
  std::vector<Ordered> order;
  for (int lid = 1; lid <= input.lids.max_lid; ++lid) {
    const int owner = input.lids.owner[lid];
    if (owner < 0) continue;
    const Exit exit = exit_of(fabric, owner);
    if (exit.target < 0 || balancer.index_of(exit.target) < 0) continue;
    const Kind kind = exit.port == 0 ? kSwitch : is_aggregation_node(fabric.node(owner)) ? kAggregationNode : kCompute;
    order.push_back({kind, input.lids.offset_of(lid) > 0, balancer.index_of(exit.target),
                     Dest{lid, static_cast<uint8_t>(exit.port), reach.may_detour(exit)}});
  }
  std::ranges::stable_sort(order, {}, [](const Ordered& o) { return std::tuple_cat(o.group(), std::tuple(o.dest.port)); });
  std::vector<Dest> group;
  for (size_t k = 0; k < order.size(); ++k) {
    group.push_back(order[k].dest);
    if (k + 1 < order.size() && order[k + 1].group() == order[k].group()) continue;
    if (order[k].kind == kSwitch)
      balancer.route_switch_lids(order[k].target, group);
    else
      balancer.route_target(order[k].target, group);
    group.clear();
  }
  balancer.flush();
}

}  // namespace ftclos
