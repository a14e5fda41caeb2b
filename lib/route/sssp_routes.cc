#include "route/sssp_routes.h"

#include <cstdint>
#include <algorithm>
#include <vector>

#include "route/updown_reach.h"

namespace ftclos {
namespace {

struct Cable {
  int port;
  int peer;  // switch index
  bool up;   // in the up*/down* order
};

class SsspRouter {
 public:
  SsspRouter(const RoutingInput& input, PathChoice choice)
      : in_(input), count_turns_(choice == PathChoice::kFewestTurnsFirst), index_(input.fabric.size(), -1) {
    const Fabric& fabric = in_.fabric;
    for (int x = 0; x < fabric.size(); ++x)
      if (fabric.node(x).is_switch()) index_[x] = static_cast<int>(switches_.size()), switches_.push_back(x);
    cables_.resize(switches_.size());
    first_cable_.assign(switches_.size() + 1, 0);
    hosts_.assign(switches_.size(), 0);
    for (size_t i = 0; i < switches_.size(); ++i) {
      const Node& node = fabric.node(switches_[i]);
      for (int p = 1; p <= node.num_ports; ++p) {
        const PortRef peer = node.ports[p].peer;
        if (peer.valid() && index_[peer.node] >= 0)
          cables_[i].push_back({p, index_[peer.node], in_.detection.star.up(fabric, switches_[i], peer.node)});
      }
      first_cable_[i + 1] = first_cable_[i] + static_cast<int>(cables_[i].size());
    }
    for (int n = 0; n < fabric.size(); ++n)
      if (const Exit exit = exit_of(fabric, n); !fabric.node(n).is_switch() && exit.target >= 0) ++hosts_[index_[exit.target]];
    load_.assign(first_cable_.back(), 0);
    hops_.resize(switches_.size());
    first_nearer_.resize(switches_.size());
    last_nearer_.resize(switches_.size());
    cost_.resize(switches_.size());
    next_.resize(switches_.size());
    turns_.resize(switches_.size());
    through_.resize(switches_.size());
  }

  Routing route() {
    Routing routing;
    routing.path_bits.assign(in_.fabric.size(), 0);
    routing.lfts.port.resize(in_.fabric.size());
    for (int x : switches_) routing.lfts.port[x].assign(in_.lids.max_lid + 1, kNoPath);
    // Targets in the order of their lowest LID, each target's LIDs in LID
    // order, as the load builds up: the same tables whatever order the
    // nodes come in (OpenSM's GUID order, a file's), one search per target.
    const std::vector<Exit> exits = exits_by_lid(in_.fabric, in_.lids);
    std::vector<std::vector<int>> lids_at(switches_.size());
    std::vector<int> targets;
    for (size_t lid = 1; lid < exits.size(); ++lid) {
      if (exits[lid].target < 0) continue;
      const int t = index_[exits[lid].target];
      if (lids_at[t].empty()) targets.push_back(t);
      lids_at[t].push_back(static_cast<int>(lid));
    }
    for (int t : targets) {
      breadth_first_from(t);
      for (int lid : lids_at[t]) route_lid(lid, exits[lid], routing.lfts);
    }
    return routing;
  }

 private:
  // hops_ toward switch t, order_: the switches it reaches, nearest first,
  // and each one's cables one hop nearer (once per target: its LIDs choose among them).
  void breadth_first_from(int t) {
    std::ranges::fill(hops_, -1);
    order_.assign(1, t);
    hops_[t] = 0;
    for (size_t i = 0; i < order_.size(); ++i)
      for (const Cable& c : cables_[order_[i]])
        if (hops_[c.peer] < 0) hops_[c.peer] = hops_[order_[i]] + 1, order_.push_back(c.peer);
    nearer_.clear();
    for (int x : order_) {
      first_nearer_[x] = static_cast<int>(nearer_.size());
      for (int c = 0; c < static_cast<int>(cables_[x].size()); ++c)
        if (hops_[cables_[x][c].peer] == hops_[x] - 1) nearer_.push_back(c);
      last_nearer_[x] = static_cast<int>(nearer_.size());
    }
  }

  // Each switch's path is the one its next hop already has, one hop longer:
  // its down-up turns and its routes are those plus the hop's own.
  void route_lid(int lid, const Exit& exit, Lfts& lfts) {
    const int t = order_.front();
    cost_[t] = 0;
    turns_[t] = 0;
    lfts.port[switches_[t]][lid] = static_cast<uint8_t>(exit.port);
    for (size_t i = 1; i < order_.size(); ++i) {
      const int x = order_[i];
      int best = -1;
      for (int i = first_nearer_[x]; i < last_nearer_[x]; ++i) {
        const int c = nearer_[i];
        const Cable& cable = cables_[x][c];
        const int y = cable.peer;
        const bool turns_up = y != t && !cable.up && cables_[y][next_[y]].up;
        const int turns = count_turns_ ? turns_[y] + turns_up : 0;
        const int64_t cost = cost_[y] + load_[first_cable_[x] + c];
        if (best < 0 || turns < turns_[x] || (turns == turns_[x] && cost < cost_[x]))
          best = c, cost_[x] = cost, turns_[x] = turns;
      }
      next_[x] = best;
      lfts.port[switches_[x]][lid] = static_cast<uint8_t>(cables_[x][best].port);
    }
    if (exit.port != 0) add_load();
  }

  // Every channel of the tree carries the sources below it in the tree.
  void add_load() {
    for (int x : order_) through_[x] = hosts_[x];
    for (size_t i = order_.size() - 1; i >= 1; --i) {
      const int x = order_[i];
      load_[first_cable_[x] + next_[x]] += through_[x];
      through_[cables_[x][next_[x]].peer] += through_[x];
    }
  }

  const RoutingInput& in_;
  const bool count_turns_;
  std::vector<int> switches_;
  std::vector<int> index_;                  // per node: position in switches_, or -1
  std::vector<std::vector<Cable>> cables_;  // by switch index, ascending ports
  std::vector<int> first_cable_;            // by switch index (one more): where its cables start in load_
  std::vector<int> hosts_;                  // by switch index: CAs cabled to it
  std::vector<int64_t> load_;               // by cable: CA sources routed over it so far
  std::vector<int> hops_, order_, next_, turns_;  // turns_: down-up turns on the switch's path
  std::vector<int> nearer_;                       // cable indices one hop nearer the target, by switch:
  std::vector<int> first_nearer_, last_nearer_;   // where each switch's start and end in nearer_
  std::vector<int64_t> cost_, through_;
};

}  // namespace

Routing route_balanced_shortest_paths(const RoutingInput& input, PathChoice choice) {
  return SsspRouter(input, choice).route();
}

}  // namespace ftclos
