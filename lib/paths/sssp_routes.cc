#include "paths/sssp_routes.h"

#include <fmt/format.h>

#include <cstdint>
#include <algorithm>
#include <climits>
#include <vector>

#include "paths/updown_reach.h"

namespace ftclos {
namespace {

constexpr int kFar = INT_MAX / 2;

struct Cable {
  int port;
  int peer;  // switch index
  bool up;   // in the up*/down* order
};

// The switches a tree toward one target spans and, per switch, the cables
// it may take: each leads to a switch placed before it in `order`.
struct TreeCables {
  std::vector<int> order;        // switch indices, the target first
  std::vector<int> cables;       // cable indices, grouped by switch
  std::vector<int> first, last;  // by switch index: where its cables start and end in `cables`
};

class SsspRouter {
 public:
  explicit SsspRouter(const RoutingInput& input) : in_(input), index_(input.fabric.size(), -1) {
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
    // Top of the up*/down* order first: every upward neighbour before the switches below it.
    top_first_.resize(switches_.size());
    for (size_t i = 0; i < switches_.size(); ++i) top_first_[i] = static_cast<int>(i);
    std::ranges::sort(top_first_, [&](int a, int b) { return in_.detection.star.up(fabric, switches_[b], switches_[a]); });
    load_.assign(first_cable_.back(), 0);
    lids_over_.assign(first_cable_.back(), 0);
    for (TreeCables* tree : {&shortest_, &legal_})
      tree->first.resize(switches_.size()), tree->last.resize(switches_.size());
    hops_.resize(switches_.size());
    down_.resize(switches_.size());
    legal_hops_.resize(switches_.size());
    cost_.resize(switches_.size());
    next_.resize(switches_.size());
    turns_.resize(switches_.size());
    through_.resize(switches_.size());
  }

  Routing route(const TreeFits& fits) {
    Routing routing;
    routing.path_bits.assign(in_.fabric.size(), 0);
    routing.lfts.port.resize(in_.fabric.size());
    for (int x : switches_) routing.lfts.port[x].assign(in_.lids.max_lid + 1, kNoPath);
    // Targets in the order of their lowest LID, each target's LIDs in LID
    // order, as the load builds up: the same tables whatever order the
    // nodes come in (OpenSM's GUID order, a file's), one search per target
    // and round. Offset 0 of every target first, balanced as at LMC 0
    // (every host that does not know its path bits sends there), then the
    // further offsets on top, a target's together so they spread.
    const std::vector<Exit> exits = exits_by_lid(in_.fabric, in_.lids);
    std::vector<std::vector<std::vector<int>>> lids_at(2, std::vector<std::vector<int>>(switches_.size()));
    std::vector<int> targets;
    for (size_t lid = 1; lid < exits.size(); ++lid) {
      if (exits[lid].target < 0) continue;
      const int t = index_[exits[lid].target];
      std::vector<std::vector<int>>& round = lids_at[in_.lids.offset_of(static_cast<int>(lid)) > 0];
      if (std::ranges::all_of(lids_at, [t](const auto& r) { return r[t].empty(); })) targets.push_back(t);
      round[t].push_back(static_cast<int>(lid));
    }
    for (const std::vector<std::vector<int>>& round : lids_at)
      for (int t : targets) {
        if (round[t].empty()) continue;
        breadth_first_from(t);
        legal_ready_ = false;
        for (int lid : round[t]) route_lid(lid, exits[lid], routing.lfts, fits);
      }
    if (unoffered_ > 0)
      routing.notes.push_back(fmt::format("the last {} CA LIDs, after {} in a row whose shortest-path trees were "
                                          "declined, took up*/down* trees without being offered any",
                                          unoffered_, kDeclinedInARow));
    return routing;
  }

 private:
  // The trees offered in PathChoice's order; the first kept adds its load.
  // After kDeclinedInARow CA LIDs whose shortest trees were all declined,
  // the rest take up*/down* trees unoffered.
  void route_lid(int lid, const Exit& exit, Lfts& lfts, const TreeFits& fits) {
    const bool ca = exit.port != 0;
    if (!ca || declined_in_a_row_ < kDeclinedInARow) {
      write_tree(shortest_, lid, exit, lfts, PathChoice::kLeastLoaded);
      if (!ca) return;  // switch LIDs: management traffic, no load, placed by the caller
      if (fits(lid, PathChoice::kLeastLoaded, lfts)) return kept(shortest_.order);
      write_tree(shortest_, lid, exit, lfts, PathChoice::kFewestTurnsFirst);
      if (fits(lid, PathChoice::kFewestTurnsFirst, lfts)) return kept(shortest_.order);
      ++declined_in_a_row_;
      for (int x : shortest_.order) lfts.port[switches_[x]][lid] = kNoPath;
    } else {
      ++unoffered_;
    }
    if (!legal_ready_) legal_paths_to(shortest_.order.front()), legal_ready_ = true;
    write_tree(legal_, lid, exit, lfts, PathChoice::kUpDown);
    fits(lid, PathChoice::kUpDown, lfts);
    add_load(legal_.order);
  }

  void kept(const std::vector<int>& order) {
    declined_in_a_row_ = 0;
    add_load(order);
  }

  // hops_ toward switch t, and the shortest tree's cables: one hop nearer
  // (once per target: its LIDs choose among them).
  void breadth_first_from(int t) {
    std::ranges::fill(hops_, -1);
    std::vector<int>& order = shortest_.order;
    order.assign(1, t);
    hops_[t] = 0;
    for (size_t i = 0; i < order.size(); ++i)
      for (const Cable& c : cables_[order[i]])
        if (hops_[c.peer] < 0) hops_[c.peer] = hops_[order[i]] + 1, order.push_back(c.peer);
    collect(shortest_, [&](int x, const Cable& c) { return hops_[c.peer] == hops_[x] - 1; });
  }

  // The up*/down* tree's cables toward switch t, as the floor
  // (paths/updown_star.h) takes them: a switch that reaches t going only
  // down goes down one hop nearer; any other climbs to a neighbour one hop
  // nearer on a shortest legal path. down_: hops going only down;
  // legal_hops_: hops on a shortest legal path.
  void legal_paths_to(int t) {
    std::ranges::fill(down_, kFar);
    std::vector<int> queue{t};
    down_[t] = 0;
    for (size_t i = 0; i < queue.size(); ++i)
      for (const Cable& c : cables_[queue[i]])  // c leads up from queue[i]: its peer reaches t going down
        if (c.up && down_[c.peer] == kFar) down_[c.peer] = down_[queue[i]] + 1, queue.push_back(c.peer);
    for (int x : top_first_) {
      legal_hops_[x] = down_[x];
      if (legal_hops_[x] < kFar) continue;
      for (const Cable& c : cables_[x])
        if (c.up) legal_hops_[x] = std::min(legal_hops_[x], legal_hops_[c.peer] + 1);
    }
    std::vector<int>& order = legal_.order;
    order.clear();
    for (int x : top_first_)
      if (legal_hops_[x] < kFar) order.push_back(x);
    std::ranges::stable_sort(order, {}, [&](int x) { return legal_hops_[x]; });
    collect(legal_, [&](int x, const Cable& c) {
      return down_[x] < kFar ? !c.up && down_[c.peer] == down_[x] - 1 : c.up && legal_hops_[c.peer] == legal_hops_[x] - 1;
    });
  }

  template <typename Allowed>
  void collect(TreeCables& tree, Allowed allowed) {
    tree.cables.clear();
    for (int x : tree.order) {
      tree.first[x] = static_cast<int>(tree.cables.size());
      for (int c = 0; c < static_cast<int>(cables_[x].size()); ++c)
        if (allowed(x, cables_[x][c])) tree.cables.push_back(c);
      tree.last[x] = static_cast<int>(tree.cables.size());
    }
  }

  // Each switch's path is the one its next hop already has, one hop longer:
  // its down-up turns and its routes are those plus the hop's own. The
  // up*/down* tree weighs as the floor does instead: each switch's cable
  // that carries the fewest CA LIDs so far (RhinoBased10K 723, the path's
  // routes 728).
  void write_tree(const TreeCables& tree, int lid, const Exit& exit, Lfts& lfts, PathChoice choice) {
    const bool count_turns = choice == PathChoice::kFewestTurnsFirst;
    const int t = tree.order.front();
    cost_[t] = 0;
    turns_[t] = 0;
    lfts.port[switches_[t]][lid] = static_cast<uint8_t>(exit.port);
    for (size_t i = 1; i < tree.order.size(); ++i) {
      const int x = tree.order[i];
      int best = -1;
      for (int j = tree.first[x]; j < tree.last[x]; ++j) {
        const int c = tree.cables[j];
        const Cable& cable = cables_[x][c];
        const int y = cable.peer;
        const bool turns_up = y != t && !cable.up && cables_[y][next_[y]].up;
        const int turns = count_turns ? turns_[y] + turns_up : 0;
        const int at = first_cable_[x] + c;
        const int64_t cost = choice == PathChoice::kUpDown ? lids_over_[at] : cost_[y] + load_[at];
        if (best < 0 || turns < turns_[x] || (turns == turns_[x] && cost < cost_[x]))
          best = c, cost_[x] = cost, turns_[x] = turns;
      }
      next_[x] = best;
      lfts.port[switches_[x]][lid] = static_cast<uint8_t>(cables_[x][best].port);
    }
  }

  // Every channel of the tree carries the sources below it in the tree, and one more CA LID.
  void add_load(const std::vector<int>& order) {
    for (int x : order) through_[x] = hosts_[x];
    for (size_t i = order.size() - 1; i >= 1; --i) {
      const int x = order[i];
      load_[first_cable_[x] + next_[x]] += through_[x];
      ++lids_over_[first_cable_[x] + next_[x]];
      through_[cables_[x][next_[x]].peer] += through_[x];
    }
  }

  const RoutingInput& in_;
  std::vector<int> switches_;
  std::vector<int> index_;                  // per node: position in switches_, or -1
  std::vector<std::vector<Cable>> cables_;  // by switch index, ascending ports
  std::vector<int> first_cable_;            // by switch index (one more): where its cables start in load_
  std::vector<int> hosts_;                  // by switch index: CAs cabled to it
  std::vector<int> top_first_;              // switch indices, top of the up*/down* order first
  std::vector<int64_t> load_;               // by cable: CA sources routed over it so far
  std::vector<int64_t> lids_over_;          // by cable: CA LIDs routed over it so far
  TreeCables shortest_, legal_;             // toward the current target
  bool legal_ready_ = false;                // legal_ is the current target's
  int declined_in_a_row_ = 0;               // CA LIDs whose shortest trees were all declined, since one was kept
  int unoffered_ = 0;                       // CA LIDs routed up*/down* without an offer
  std::vector<int> hops_, down_, legal_hops_;   // toward the current target
  std::vector<int> next_, turns_;               // turns_: down-up turns on the switch's path
  std::vector<int64_t> cost_, through_;
};

}  // namespace

Routing route_balanced_shortest_paths(const RoutingInput& input, const TreeFits& fits) {
  return SsspRouter(input).route(fits);
}

}  // namespace ftclos
