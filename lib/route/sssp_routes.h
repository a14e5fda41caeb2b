// Balanced shortest paths on any connected fabric, DF-SSSP's routing step
// (Domke, Hoefler and Nagel, IPDPS 2011; OpenSM's osm_ucast_dfsssp.c): per
// destination LID, every switch takes a shortest path (fewest switch hops)
// and, among those, the one whose channels carry the fewest routes so far
// (the sum along the path: OpenSM weighs each channel hops * P^2 + its
// routes, which orders paths the same way). After each CA LID, every channel
// of its tree counts the CA sources routed over it, so later destinations
// spread. Not deadlock-free on its own (a ring's shortest paths chase each
// other around): route/cdg_layers.h splits the destinations into VL layers.
// Where that needs more VLs than the ports offer, the paths can first avoid
// down-up turns in the up*/down* order (detect/star_roots.h): routes that
// never turn so close no cycle among them, so fewer destinations need a
// layer of their own, at some cost in balance. Cost per LID O(switch cables).
#pragma once

#include "route/routing.h"

namespace ftclos {

/// How a switch chooses among its shortest paths.
enum class PathChoice {
  kLeastLoaded,      // the fewest routes along the path
  kFewestTurnsFirst, // the fewest down-up turns (up*/down* order), then the fewest routes
};

/// Fills every switch's LFT for every LID (switch LIDs included, as trees of
/// their own; only CA LIDs add load). A switch no cable path joins to the
/// destination keeps kNoPath.
Routing route_balanced_shortest_paths(const RoutingInput& input, PathChoice choice);

}  // namespace ftclos
