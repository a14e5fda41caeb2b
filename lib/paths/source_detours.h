// SHARP Aggregation Nodes sit on every switch of a pod, spines and cores
// included (and storage may sit on spines). A switch above the leaves that
// missing cables cut off from some leaf below it has no up/down route to
// that leaf's hosts (paths/updown_reach.h: compute hosts get no fallback),
// yet the CAs on it send to them. Its entry for them takes one hop down to
// a neighbour that has an up/down route, the path's only turn from down to
// up. Compute traffic never passes that switch on its way to those hosts
// (it is outside their up/down reach), so only its own CAs' traffic turns.
// The entries stay only where SL 0's channel dependency graph (the compute
// hosts' LIDs) stays acyclic with each; the others stay kNoPath, and their
// CAs cannot reach those hosts (the caller says so).
#pragma once

#include <string>

#include "paths/updown_reach.h"
#include "route/routing.h"

namespace ftclos {

/// What route_source_detours did: the holes it found, those it filled, and
/// the first it left (switch, LID; -1 where it filled all).
struct SourceDetours {
  int holes = 0, filled = 0;
  int left_switch = -1, left_lid = -1;
  /// "N of M entries ... e.g. AN-switch → host (LID ...)", for an error.
  std::string unfilled(const Fabric& fabric, const LidMap& lids) const;
};

/// Fills the kNoPath entries of switches with CAs for compute hosts' LIDs
/// on SL 0 as above, and notes what it did.
SourceDetours route_source_detours(const RoutingInput& input, const UpDownReach& reach, Routing& routing);

}  // namespace ftclos
