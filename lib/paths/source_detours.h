// SHARP Aggregation Nodes sit on every switch of a pod, spines and cores
// included (and storage may sit on spines). A switch above the leaves that
// missing cables cut off from some leaf below it has no up/down route to
// that leaf's hosts (paths/updown_reach.h: compute hosts get no fallback),
// yet the CAs on it send to them. Its entry for them takes one hop down to
// a neighbour that has an up/down route, the path's only turn from down to
// up. Compute traffic never passes that switch on its way to those hosts
// (it is outside their up/down reach), so only its own CAs' traffic turns.
// The entries stay only where SL 0's channel dependency graph (the compute
// hosts' LIDs) stays acyclic with each; the others stay kNoPath.
#pragma once

#include "paths/updown_reach.h"
#include "route/routing.h"

namespace ftclos {

/// Fills the kNoPath entries of switches with CAs for compute hosts' LIDs
/// on SL 0 as above, and notes what it did. Returns the entries filled.
int route_source_detours(const RoutingInput& input, const UpDownReach& reach, Routing& routing);

}  // namespace ftclos
