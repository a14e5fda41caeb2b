// "layered": balanced shortest paths (paths/sssp_routes.h) split into VL
// layers by destination (paths/cdg_layers.h), DF-SSSP's two steps, on any
// connected fabric. Where up*/down* detours or crowds its roots (rings,
// tori, hypercubes, dragonflies) the paths stay shortest; the price is VLs:
// as few layers as first fit finds, within those the ports offer
// (RoutingInput::data_vls). A destination whose shortest-path trees fit no
// layer takes an up*/down* tree on SL 0 instead, so layered routes every
// connected fabric. auto routes it as the floor's challenger and keeps it
// only where its worst case is lower.
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <optional>
#include <vector>

#include "paths/cdg_layers.h"
#include "paths/contention_polish.h"
#include "schemes/schemes.h"
#include "paths/sssp_routes.h"
#include "paths/updown_reach.h"
#include "paths/updown_star.h"

namespace ftclos {
namespace {

struct Layers {
  int used = 1;                // layers the CA LIDs use
  int ca_lids = 0;
  int fewest_turns = 0;        // CA LIDs on the trees with the fewest down-up turns
  int up_down = 0;             // CA LIDs on up*/down* trees
  int switch_lids_up_down = 0; // switch LIDs whose shortest-path trees fit no layer the CA LIDs use: up*/down*'s
  int switch_lids_on_sl0 = 0;  // switch LIDs whose up*/down* trees fit no layer either
};

// Every turn up*/down* allows: from a channel x->y to a channel y->z unless
// the first leads down and the second up. Acyclic, and it holds every
// dependency of a multicast tree hung down up*/down*'s order
// (paths/mcast_tree.h) and of every up*/down* tree. Layer 0 starts with
// them, so the unicast on SL 0, whose VL multicast shares, closes no credit
// loop with any such tree, and an up*/down* tree always fits SL 0.
std::vector<Dependency> updown_turns(const Fabric& fabric, const StarRoots& star, const Channels& channels) {
  std::vector<Dependency> turns;
  for (int y = 0; y < fabric.size(); ++y) {
    const Node& node = fabric.node(y);
    if (!node.is_switch()) continue;
    for (int in = 1; in <= node.num_ports; ++in) {
      const PortRef from = node.ports[in].peer;
      if (!from.valid() || !fabric.node(from.node).is_switch()) continue;
      const int first = channels.of(from.node, from.port);
      const bool first_leads_up = star.up(fabric, from.node, y);
      for (int out = 1; out <= node.num_ports; ++out) {
        const int second = channels.of(y, out);
        if (first < 0 || second < 0) continue;
        if (!first_leads_up && star.up(fabric, y, node.ports[out].peer.node)) continue;
        turns.emplace_back(first, second);
      }
    }
  }
  return turns;
}

// The contention polish's moves on layered tables: an entry may take any
// port one hop closer to its destination's switch (the paths stay
// shortest, so loop-free), and the destination keeps its SL while that
// layer stays acyclic with its new tree (layer 0 with every up*/down*
// turn, as route_in_layers opens it), else takes the lowest SL the ports
// offer where it does: a choice that closes a cycle in one layer spreads
// to another VL (the dragonfly 5x3: worst case 9 -> 8).
class LayeredRules : public PolishRules {
 public:
  LayeredRules(const RoutingInput& input, const Channels& channels)
      : fabric_(input.fabric), data_vls_(input.data_vls), channels_(channels),
        turns_(updown_turns(input.fabric, input.detection.star, channels)), hops_(input.fabric.size()) {
    for (int x = 0; x < fabric_.size(); ++x)
      if (fabric_.node(x).is_switch()) switches_.push_back(x);
  }

  const std::vector<int>& switches() const override { return switches_; }
  void at_switch(int x) override { at_ = x; }
  bool movable(const Exit& /*exit*/, uint8_t /*sl*/) const override { return true; }

  std::vector<uint8_t> ports(const Exit& exit) const override {
    const std::vector<int>& hops = hops_from(exit.target);
    const Node& node = fabric_.node(at_);
    std::vector<uint8_t> closer;
    for (int port = 1; port <= node.num_ports; ++port) {
      const PortRef peer = node.ports[port].peer;
      if (peer.valid() && fabric_.node(peer.node).is_switch() && hops[at_] >= 0 &&
          hops[peer.node] == hops[at_] - 1)
        closer.push_back(static_cast<uint8_t>(port));
    }
    return closer;
  }

  int layer(const Lfts& lfts, const std::vector<uint8_t>& dest_sl, int lid, long& work) const override {
    const int own = dest_sl[lid];
    if (fits(lfts, dest_sl, lid, own, work)) return own;
    for (int sl = 0; sl < data_vls_; ++sl)
      if (sl != own && fits(lfts, dest_sl, lid, sl, work)) return sl;
    return -1;
  }

 private:
  // Whether SL `sl`'s layer, its LIDs' routes with `lid`'s among them, is acyclic.
  bool fits(const Lfts& lfts, const std::vector<uint8_t>& dest_sl, int lid, int sl, long& work) const {
    std::vector<int> lids{lid};
    for (size_t other = 1; other < dest_sl.size(); ++other)
      if (dest_sl[other] == sl && static_cast<int>(other) != lid) lids.push_back(static_cast<int>(other));
    const std::vector<Dependency> deps = dependencies_toward(lfts, channels_, lids);
    work += static_cast<long>(deps.size());
    AcyclicLayer layer(channels_);  // in up*/down*'s order: layer 0's turns cost no search
    if (sl != 0) return layer.try_add(deps);
    work += static_cast<long>(turns_.size());
    return layer.try_add(turns_) && layer.try_add(deps);
  }

  // Switch hops to `target` over switch cables from every node (-1: none), computed once per target.
  const std::vector<int>& hops_from(int target) const {
    std::vector<int>& hops = hops_[target];
    if (!hops.empty()) return hops;
    hops.assign(fabric_.size(), -1);
    std::deque<int> queue{target};
    hops[target] = 0;
    while (!queue.empty()) {
      const int x = queue.front();
      queue.pop_front();
      for (const Port& port : fabric_.node(x).ports)
        if (port.peer.valid() && fabric_.node(port.peer.node).is_switch() && hops[port.peer.node] < 0) {
          hops[port.peer.node] = hops[x] + 1;
          queue.push_back(port.peer.node);
        }
    }
    return hops;
  }

  const Fabric& fabric_;
  const int data_vls_;
  const Channels& channels_;
  const std::vector<Dependency> turns_;
  std::vector<int> switches_;
  int at_ = -1;
  mutable std::vector<std::vector<int>> hops_;  // per target switch, filled on first use
};

// SLs above 0 that no LID keeps after the polish moved some, closed up
// (each layer's graph is its own: renumbering them keeps each acyclic).
void close_up_sls(std::vector<uint8_t>& sl) {
  constexpr int kSls = 16;  // SL 0..15
  std::vector<int> used(kSls, 0);
  for (uint8_t s : sl) used[s] = 1;
  std::vector<uint8_t> renumbered(kSls, 0);
  for (int s = 1, next = 1; s < kSls; ++s)
    if (used[s]) renumbered[s] = static_cast<uint8_t>(next++);
  for (uint8_t& s : sl) s = renumbered[s];
}

// Routes every LID and gives each CA LID (SL k on VL k) the lowest layer
// whose channel dependency graph stays acyclic with its tree added, trees
// offered as paths/sssp_routes.h orders them: the last, up*/down*'s, adds
// only turns layer 0 holds from the start. Switch LIDs carry management
// traffic only (SMPs run on VL 15, outside flow control; PMA queries on
// data VLs): they take the lowest layer they fit among those the CA LIDs
// use, else the floor's up*/down* tree there (its turns are layer 0's unless
// it falls back to shortest paths between hostless switches), else SL 0, and
// open none of their own.
Routing route_in_layers(const RoutingInput& input, Layers& layers) {
  const Fabric& fabric = input.fabric;
  // Layer 0's million turns on RhinoBased10K cost no search in up*/down*'s
  // order (Channels::places; 28 s of search without it, measured under load).
  const Channels channels(fabric, input.detection.star);
  CdgLayers cdg(channels);
  cdg.place(updown_turns(fabric, input.detection.star, channels), 0, 0);
  std::vector<uint8_t> sl(input.lids.max_lid + 1, 0);
  int declined_in_a_row = 0;  // LIDs that fit no layer since one did, as the router counts them
  const TreeFits fits = [&](int lid, PathChoice tree, const Lfts& lfts) {
    int layer = 0;
    if (tree != PathChoice::kUpDown) {
      layer = cdg.place(dependencies_toward(lfts, channels, lid), 0, input.data_vls - 1);
      if (layer < 0) return false;
    }
    sl[lid] = static_cast<uint8_t>(layer);
    layers.used = std::max(layers.used, layer + 1);
    ++layers.ca_lids;
    layers.fewest_turns += tree == PathChoice::kFewestTurnsFirst;
    layers.up_down += tree == PathChoice::kUpDown;
    declined_in_a_row = tree == PathChoice::kUpDown ? declined_in_a_row + 1 : 0;
    return true;
  };
  Routing routing = route_balanced_shortest_paths(input, fits);
  const std::vector<Exit> exits = exits_by_lid(fabric, input.lids);
  std::optional<Result<Routing>> floor;  // up*/down*'s tables, routed the first time a switch LID needs them
  const auto place_switch_lid = [&](int lid) {
    return cdg.place(dependencies_toward(routing.lfts, channels, lid), 0, layers.used - 1);
  };
  // Full layers (paths/sssp_routes.h, kDeclinedInARow) stay full: the run goes on.
  for (size_t lid = 1; lid < exits.size(); ++lid) {
    if (exits[lid].target < 0 || exits[lid].port != 0) continue;
    int layer = declined_in_a_row >= kDeclinedInARow ? -1 : place_switch_lid(static_cast<int>(lid));
    declined_in_a_row = layer < 0 ? declined_in_a_row + 1 : 0;
    if (layer < 0) {
      // The floor's tree toward the switch: its legal turns are layer 0's from the start.
      if (!floor) floor = route_updown_star(input);
      if (floor->ok()) {
        for (int x = 0; x < fabric.size(); ++x)
          if (fabric.node(x).is_switch()) routing.lfts.port[x][lid] = (*floor)->lfts.port[x][lid];
        layer = place_switch_lid(static_cast<int>(lid));
        layers.switch_lids_up_down += layer >= 0;
      }
    }
    layers.switch_lids_on_sl0 += layer < 0;
    sl[lid] = static_cast<uint8_t>(std::max(layer, 0));
  }
  routing.dest_sl = std::move(sl);
  LayeredRules rules(input, channels);
  if (std::string note = polish_note(polish_contention(input, rules, routing)); !note.empty()) {
    routing.notes.push_back(std::move(note));
    close_up_sls(routing.dest_sl);
    layers.used = 1;
    for (size_t lid = 1; lid < exits.size(); ++lid)
      if (exits[lid].target >= 0 && exits[lid].port != 0)
        layers.used = std::max(layers.used, routing.dest_sl[lid] + 1);
  }
  return routing;
}

class LayeredScheme : public Scheme {
 public:
  std::string_view name() const override { return "layered"; }

  Status applies(const Detection& detection) const override {
    if (detection.star.roots.empty()) return Status::Error("layered: the fabric is not connected");
    return Status::Ok();
  }

 protected:
  Result<Routing> route_tables(const RoutingInput& input) const override {
    if (Status status = applies(input.detection); !status.ok()) return status;
    Layers layers;
    Routing routing = route_in_layers(input, layers);
    describe(layers, input.data_vls, routing);
    return routing;
  }

 private:
  static void describe(const Layers& layers, int data_vls, Routing& routing) {
    const int used = layers.used;
    routing.notes.push_back(fmt::format("shortest paths balanced by load (DF-SSSP) on {} VL{} of {}: SL per "
                                        "destination LID, SL k on VL k{}",
                                        used, used == 1 ? "" : "s", data_vls, used > 1 ? " (enable qos)" : ""));
    if (layers.fewest_turns > 0)
      routing.notes.push_back(fmt::format("{} of {} CA LIDs take the shortest paths with the fewest down-up turns: "
                                          "the balanced ones fit no layer",
                                          layers.fewest_turns, layers.ca_lids));
    if (layers.up_down > 0)
      routing.notes.push_back(fmt::format("{} of {} CA LIDs take up*/down* trees on SL 0: no shortest-path tree fit "
                                          "the {} VL{}",
                                          layers.up_down, layers.ca_lids, data_vls, data_vls == 1 ? "" : "s"));
    routing.summary = fmt::format("on {} VL{} of {}, {} of {} CA LIDs on up*/down* trees", used,
                                  used == 1 ? "" : "s", data_vls, layers.up_down, layers.ca_lids);
    if (layers.switch_lids_up_down > 0)
      routing.notes.push_back(fmt::format("{} switch LIDs (management traffic only) take up*/down* trees: their "
                                          "shortest-path trees fit no layer the CA LIDs use",
                                          layers.switch_lids_up_down));
    if (layers.switch_lids_on_sl0 > 0)
      routing.notes.push_back(fmt::format("{} switch LIDs (management traffic only) fit no layer the CA LIDs use, "
                                          "on up*/down* trees neither: SL 0", layers.switch_lids_on_sl0));
    if (used == 1) routing.dest_sl.clear();
  }
};

}  // namespace

std::unique_ptr<Scheme> make_layered_scheme() { return std::make_unique<LayeredScheme>(); }

}  // namespace ftclos
