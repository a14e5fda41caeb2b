// Attached hosts (storage on spines) that some switch reaches only by a
// detour, a path that turns from down to up (paths/updown_reach.h), would
// close credit loops with the up/down traffic on one VL. Their LIDs go on
// SLs of their own, DF-SSSP's layering by destination: each to the lowest
// SL >= 1 whose channel dependency graph stays acyclic with its routes
// added. SL 0 keeps everything else, up/down and so acyclic. With OpenSM's
// default qos_sl2vl, SL k runs on VL k.
#pragma once

#include <string_view>

#include "route/routing.h"
#include "paths/updown_reach.h"

namespace ftclos {

/// The highest SL a detour layer may take (VL 7: ports commonly offer 8 data VLs).
inline constexpr int kMaxDetourSl = 7;

/// Sets routing.dest_sl for the LIDs of attached hosts that some switch
/// reaches only by a detour, from the tables in `routing`, and notes what it
/// did. Returns the highest SL used (0: none needed).
int layer_detours(const RoutingInput& input, const UpDownReach& reach, Routing& routing);

/// Puts `lids`, to which some switch's own route turns from down to up
/// (paths/switch_routes_legal.h), each on the lowest SL >= `lowest_sl`
/// whose channel dependency graph stays acyclic with its routes, beside
/// the layers routing.dest_sl holds (SL 0: every other LID), and notes the
/// LIDs that leave SL 0. Returns how many did.
int layer_turning_lids(const RoutingInput& input, const std::vector<int>& lids, int lowest_sl, Routing& routing);

/// Where the routes to some SL's LIDs (every switch's entry, so switches'
/// own traffic too) close a cycle, fills each SL's layer again, CA LIDs
/// first, then switch LIDs, each in LID order, and moves each LID that does
/// not fit its SL to the lowest SL up to `highest_sl` where it does (the
/// others stay, noted), `which` saying what they are. Returns how many moved.
int settle_credit_loops(const RoutingInput& input, int highest_sl, std::string_view which, Routing& routing);

/// Moves `lids` to their up*/down* trees (paths/updown_star.h) on SL `sl`,
/// which becomes Routing::star_sl, where the routes of every LID then on
/// `sl` stay acyclic (a subset of one up*/down* routing's LIDs is). Returns
/// false, the tables unchanged, where up*/down* cannot route the fabric or
/// the layer would close a cycle.
bool take_updown_star_trees(const RoutingInput& input, const std::vector<int>& lids, int sl, Routing& routing);

/// Whether the channel dependency graph of the routes to `lids` (one SL's
/// LIDs) is acyclic in `lfts`: what a change to a layered LID's entries
/// must keep (paths/contention_polish.h). `star` orders the search (Channels).
bool layer_acyclic(const Fabric& fabric, const StarRoots& star, const Lfts& lfts, const std::vector<int>& lids);

}  // namespace ftclos
