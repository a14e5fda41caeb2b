// Balanced shortest paths on any connected fabric, DF-SSSP's routing step
// (Domke, Hoefler and Nagel, IPDPS 2011; OpenSM's osm_ucast_dfsssp.c): per
// destination LID, every switch takes a shortest path (fewest switch hops)
// and, among those, the one whose channels carry the fewest routes so far
// (the sum along the path: OpenSM weighs each channel hops * P^2 + its
// routes, which orders paths the same way). After each CA LID, every channel
// of its tree counts the CA sources routed over it, so later destinations
// spread. Not deadlock-free on its own (a ring's shortest paths chase each
// other around): paths/cdg_layers.h splits the destinations into VL layers,
// asked tree by tree as they are routed (TreeFits).
// A CA LID whose tree fits no layer is offered the tree of paths with the
// fewest down-up turns in the up*/down* order (detect/star_roots.h), which
// close fewer cycles, and last an up*/down* tree: legal paths only (climb,
// then descend), the shortest of those, each switch taking the cable that
// carries the fewest CA LIDs of every tree so far, as the floor
// (paths/updown_star.h) balances. Every
// turn of that tree is one up*/down* allows, so it fits any layer that holds
// them all. Cost per LID O(switch cables).
#pragma once

#include <functional>

#include "route/routing.h"

namespace ftclos {

/// The trees a CA LID is offered, in this order.
enum class PathChoice {
  kLeastLoaded,       // shortest paths, the fewest routes along the path
  kFewestTurnsFirst,  // shortest paths, the fewest down-up turns, then the fewest routes
  kUpDown,            // up*/down*'s legal paths, the shortest of those, then the cable with the fewest CA LIDs
};

/// Declined offers cost a search in every layer; a run of this many CA LIDs
/// whose shortest trees were all declined says the layers are full, and the
/// rest take up*/down* trees unoffered (RhinoBased10K, 8 VLs: the run comes
/// after 650 of 10,000 CA LIDs; going on would keep 20 more of 9,350 offered).
inline constexpr int kDeclinedInARow = 64;

/// Whether to keep the tree toward CA LID `lid` now in `lfts`: the caller
/// places it (a VL layer) or declines. A declined tree is replaced by the
/// next PathChoice; the up*/down* tree is kept whatever the answer.
using TreeFits = std::function<bool(int lid, PathChoice tree, const Lfts& lfts)>;

/// Fills every switch's LFT for every LID (switch LIDs included, as
/// least-loaded shortest-path trees of their own, not offered to `fits`;
/// only CA LIDs add load). A switch no cable path (for an up*/down* tree:
/// no legal path) joins to the destination keeps kNoPath.
Routing route_balanced_shortest_paths(const RoutingInput& input, const TreeFits& fits);

}  // namespace ftclos
