// Up*/down* (Autonet; Schroeder et al. 1991) routing for any connected
// fabric: the floor every fabric gets when no family with levels fits.
//
// Switches are ranked by BFS hops from the roots (detect/star_roots.h) and
// every switch cable leads up toward the lower (rank, GUID). A legal route
// climbs, then descends, never up after down: as the order is total, no
// cycle of channel dependencies can close, so the tables are deadlock-free
// on one VL. Toward a target switch T, a switch that reaches T going only
// down does so (a packet that has started down must find its switch's entry
// down too); any other switch climbs to a neighbour on a shortest legal path.
// Among the ports a rule allows on its shortest legal paths, each switch
// takes the one that carries the fewest CA destinations so far (ties: the
// lowest port), as OpenSM's updn and minhop balance.
//
// Complete on a connected fabric with the roots star_roots chooses: every
// switch with a CA has a legal path to every switch. Where a switch without
// CAs has none (between two roots of a top level), its entry for that
// switch's LID takes a shortest path over switch cables instead: management
// traffic only, counted in the notes. Cost per target switch O(cables).
#pragma once

#include <vector>

#include "core/status.h"
#include "route/routing.h"

namespace ftclos {

/// Fills every switch's LFT for every LID; fails when the detection holds no
/// up*/down* roots (a physically disconnected fabric). Routed once per
/// input's memo (RoutingMemo): later calls return the same tables.
Result<Routing> route_updown_star(const RoutingInput& input);

/// The same for the LIDs `routed` marks (by LID) only: the others keep
/// kNoPath and weigh nothing in the balance.
Result<Routing> route_updown_star(const RoutingInput& input, const std::vector<bool>& routed);

}  // namespace ftclos
