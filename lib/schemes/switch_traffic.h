// Switches' own traffic. Schemes fill the LFT entries CA-to-CA paths use,
// but PMA queries (perfquery, ibqueryerrors, telemetry) go from a CA to a
// switch LID and their answers from the switch to the CA, and a switch that
// no CA path crosses toward a LID may be left without an entry for it: a
// top switch that lost its cable toward a leaf, the roots of a random Clos
// that reach some leaf by no down path, chassis spine chips. This step runs
// after every scheme (Scheme::route) and completes exactly those entries.
//
// Only entries of switches no CA's path to that LID crosses are written,
// and only where the switch does not deliver yet, so no CA-to-CA route
// changes. A switch first takes a port the up/down rule allows
// (paths/updown_reach.h) toward a switch that delivers; where none exists
// (no up/down path from there: the packet must turn from down to up), the
// first port of a shortest path over switch cables to a switch that
// delivers. Cost: one pass over the LFTs for kNoPath entries; per LID that
// has one, O(switches + cables).
#pragma once

#include "route/routing.h"

namespace ftclos {

/// Gives every switch a route to every LID it has none to where that
/// changes no CA's route; returns how many entries it wrote (and notes it).
/// With `previous` (the last sweep's tables on these LIDs), the entries
/// made legal take the previous port wherever it still delivers so
/// (paths/switch_routes_legal.h): the fewest entries change.
long complete_switch_traffic(const RoutingInput& input, Routing& routing, const Lfts* previous = nullptr);

}  // namespace ftclos
