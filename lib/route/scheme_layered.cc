// "layered": balanced shortest paths (route/sssp_routes.h) split into VL
// layers by destination (route/cdg_layers.h), DF-SSSP's two steps, on any
// connected fabric. Where up*/down* detours or crowds its roots (rings,
// tori, hypercubes, dragonflies) the paths stay shortest; the price is VLs:
// as few layers as first fit finds, refused when the ports offer fewer
// (RoutingInput::data_vls). auto routes it as the floor's challenger and
// keeps it only where its worst case is lower.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "route/cdg_layers.h"
#include "route/schemes.h"
#include "route/sssp_routes.h"
#include "route/updown_reach.h"

namespace ftclos {
namespace {

struct Layers {
  bool fit = true;             // the CA LIDs fit the layers allowed
  int used = 1;                // layers the CA LIDs use
  int switch_lids_on_sl0 = 0;  // switch LIDs that fit no layer the CA LIDs use
};

// Every turn up*/down* allows: from a channel x->y to a channel y->z unless
// the first leads down and the second up. Acyclic, and it holds every
// dependency of a multicast tree hung down up*/down*'s order
// (route/mcast_tree.h). Layer 0 starts with them, so the unicast on SL 0,
// whose VL multicast shares, closes no credit loop with any such tree.
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

// The SL of every CA LID (SL k on VL k), the lowest layer whose channel
// dependency graph stays acyclic. Switch LIDs carry management traffic only
// (SMPs run on VL 15, outside flow control): they take the lowest layer
// they fit among those, else SL 0, and open none of their own. Layer 0
// holds up*/down*'s turns first (multicast runs on SL 0).
Layers layer_destinations(const RoutingInput& input, Routing& routing, int allowed) {
  const Fabric& fabric = input.fabric;
  const std::vector<Exit> exits = exits_by_lid(fabric, input.lids);
  const Channels channels(fabric);
  CdgLayers cdg(channels.count());
  cdg.place(updown_turns(fabric, input.detection.star, channels), 0, 0);
  Layers layers;
  routing.dest_sl.assign(exits.size(), 0);
  for (const bool cas : {true, false}) {
    const int last = cas ? allowed - 1 : layers.used - 1;
    for (size_t lid = 1; lid < exits.size(); ++lid) {
      if (exits[lid].target < 0 || (exits[lid].port != 0) != cas) continue;
      const int layer = cdg.place(dependencies_toward(fabric, routing.lfts, channels, static_cast<int>(lid)), 0, last);
      if (layer < 0 && cas) return {.fit = false};
      layers.switch_lids_on_sl0 += layer < 0;
      routing.dest_sl[lid] = static_cast<uint8_t>(layer < 0 ? 0 : layer);
    }
    if (cas) layers.used = std::max(1, cdg.count());
  }
  return layers;
}

class LayeredScheme : public Scheme {
 public:
  std::string_view name() const override { return "layered"; }

  Status applies(const Detection& detection) const override {
    if (detection.star.roots.empty()) return Status::Error("layered: the fabric is not connected");
    return Status::Ok();
  }

  // The balanced paths first; where their layers exceed the VLs, paths that
  // avoid down-up turns first (fewer cycles to break, less balance).
  Result<Routing> route(const RoutingInput& input) const override {
    if (Status status = applies(input.detection); !status.ok()) return status;
    for (const PathChoice choice : {PathChoice::kLeastLoaded, PathChoice::kFewestTurnsFirst}) {
      Routing routing = route_balanced_shortest_paths(input, choice);
      const Layers layers = layer_destinations(input, routing, input.data_vls);
      if (!layers.fit) continue;
      describe(layers, choice, input.data_vls, routing);
      return routing;
    }
    return Status::Error(fmt::format("its shortest paths need more than the {} VL{} the ports offer, even those "
                                     "that avoid down-up turns first",
                                     input.data_vls, input.data_vls == 1 ? "" : "s"));
  }

 private:
  static void describe(const Layers& layers, PathChoice choice, int data_vls, Routing& routing) {
    const int used = layers.used;
    routing.notes.push_back(fmt::format(
        "shortest paths {} (DF-SSSP) on {} VL{} of {}: SL per destination LID, SL k on VL k{}",
        choice == PathChoice::kLeastLoaded ? "balanced by load"
                                           : "with the fewest down-up turns, then balanced by load (the balanced "
                                             "ones needed more VLs)",
        used, used == 1 ? "" : "s", data_vls, used > 1 ? " (enable qos)" : ""));
    if (layers.switch_lids_on_sl0 > 0)
      routing.notes.push_back(fmt::format("{} switch LIDs (management traffic only) fit no layer the CA LIDs use: "
                                          "SL 0", layers.switch_lids_on_sl0));
    if (used == 1) routing.dest_sl.clear();
  }
};

}  // namespace

std::unique_ptr<Scheme> make_layered_scheme() { return std::make_unique<LayeredScheme>(); }

}  // namespace ftclos
