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
#include <optional>
#include <vector>

#include "paths/cdg_layers.h"
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
