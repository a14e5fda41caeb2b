// Up/down LFTs balanced by destination, after OpenSM's ftree
// (osm_ucast_ftree.c: "route downgoing by going up", then "upgoing by going
// down") generalized to any folded Clos the rule of paths/updown_reach.h
// covers: intact, degraded and random.
//
// Per CA LID, with target switch T:
//  1. The main path climbs from T to the top, at each step through the
//     parent whose down port toward the path carries the fewest
//     destinations so far (then whose up ports in carry the fewest). So the
//     down paths of a leaf's destinations spread over its parents and,
//     above, over all top switches.
//  2. Every switch below the main path that turns at the same level follows
//     it: going down from the path, each child whose shortest up/down path
//     turns where its parent's does routes up to such a parent: the one
//     most of its siblings chose, then whose own cable up carries the fewest
//     destinations, over its least-loaded cable. Traffic to one destination
//     thus converges on one down path, as D-mod-k's does on an intact tree,
//     and crosses few switches.
//  3. Where the main path does not reach every switch with CAs, T's other
//     ancestors spread the same way (ftree's secondary paths), level by
//     level from T up: of the 16 least used, the one that reaches the most
//     switches with CAs still without a route, then whose busiest cable in
//     from a child leading to them carries the fewest destinations. What is
//     still left routes up to the least-loaded parent that turns as low as
//     it can, and T's other ancestors down to the least-loaded child above
//     T. Loads count, per port, the destinations whose CA traffic crosses
//     it: an entry spreading set that no CA's traffic takes counts nothing
//     (detours count where they are routed). The entries of switches that
//     neither spreading nor CA traffic reaches take the first allowed port.
// Switch LIDs come after every CA LID and carry management traffic only:
// each switch takes the next port the rule allows toward the switch, its
// scan starting at the switch's place in the order, without loads.
// Every entry is one the rule allows on a shortest up/down path (up, then
// down: deadlock-free). Where no up/down path exists, switch LIDs and
// attached hosts take a shortest detour (paths/detour_layers.h gives those
// SLs); compute hosts get kNoPath. Cost per target switch O(cables); per
// LID a copy of one row of switches, the cables of the switches it crosses,
// and, where ancestors spread, two levels of cables below 16 of them; flat
// arrays reused across LIDs.
#pragma once

#include "route/routing.h"
#include "paths/updown_reach.h"

namespace ftclos {

/// Fills every switch's LFT (resized to every LID) for every LID.
void balance_by_destination(const RoutingInput& input, const UpDownReach& reach, Lfts& lfts);

}  // namespace ftclos
