// Switches' own routes on a folded Clos without a credit loop. Switch LIDs
// and the entries of switches no CA route to a LID crosses carry only
// management traffic (PMA queries and answers, traps), but on the data VLs:
// a route that turns from down to up there can close a credit loop with
// the CAs' routes. Yet some must turn: two top switches, or a root of a
// random Clos and a leaf it has no down path to, share no switch above both.
//
// So every such route goes up, then down (legal), or, where that is not
// possible, turns at one leaf only, the turn leaf, or a switch above it:
// down to it, up, then down. On a fat tree with labels (PGFT, FT, k-ary,
// clos2) that closes no cycle: a cycle must turn from down to up, so at
// the turn leaf's ancestors, and come down into them again by another
// parent; but a top switch reaches each pod through one switch per level,
// so what climbs out of the turn leaf through one parent comes back down
// only through that parent. On a random Clos it can close one
// (rfc-8-16-3: L1-0 up L2-1, L3-6, down L2-14, L1-0): layer_switch_turns
// then moves the LIDs of the turns that close it to SLs of their own. The
// auditor's switch credit-loop count (audit/audit.h) checks it on every
// fabric the tests route. The turn leaf is the leaf that the most top
// switches reach going down, so their routes to its own CAs need no turn.
// After a cut above it that leaves one top switch no way down to it, that
// switch's routes turn at one switch below it instead (the pivot; the
// argument is in switch_routes_legal.cc), so the turn leaf stays.
#pragma once

#include <vector>

#include "paths/lid_columns.h"
#include "route/routing.h"

namespace ftclos {

/// The LIDs a repair routes again, their columns gathered (the same LIDs in
/// both): of the tables being repaired, and of the previous ones; and the
/// LIDs among them whose switches' routes to complete (ascending).
struct RepairColumns {
  LidColumns& now;
  const LidColumns& previous;
  const std::vector<int>& lids;
};

struct LegalSwitchRoutes {
  long written = 0;   // entries written
  long turned = 0;    // of them: routes that turn at the turn leaf
  long illegal = 0;   // of them: no route up, then down, nor through the turn leaf (a shortest path)
  std::vector<int> illegal_lids;  // the LIDs of those: layer_turning_lids puts them on SLs of their own
  std::vector<int> turning_lids;  // the LIDs some switch's route turns to (illegal ones included)
  int turn_leaf = -1;
  int orphan = -1;  // the top switch cut off from the turn leaf whose routes turn at a pivot below it, or -1
  std::vector<int> left;  // LIDs whose CA routes are not up/down (their own SLs): not handled here
};

/// The leaf whose ancestors hold the most top switches, then the first in
/// GUID order (so that a failure elsewhere does not move it): where
/// switches' routes turn, when no previous tables are given. With them
/// (make_switch_routes_legal), the leaf they turn at stays as long as it
/// keeps as many top switches as any leaf, or all but one top switch with
/// only switches below it (its routes then turn at a pivot below it: a cut
/// above the turn leaf changes only the routes that crossed the cut);
/// otherwise the new one shares the most parents with it. -1 without leaves.
int switch_turn_leaf(const Fabric& fabric, const Levels& levels);

/// On a folded Clos (is_folded_clos), makes every switch's route to every
/// LID with SL 0 deliver up, then down, or through the turn leaf, changing
/// only entries no CA route to that LID crosses. With `previous` (the last
/// sweep's tables on this fabric), those entries take the previous port
/// wherever it still delivers so: the fewest entries change. With
/// `repair`, only its LIDs' routes, read from and written to its columns
/// too (`lfts` holding the same): the LIDs a failure touched, the turn leaf
/// staying (switch_turn_leaf_stays); there only the routes that no longer
/// deliver legally are rerouted, nearest the fault first, and any LID whose
/// CA routes turn is left (the caller routes in full).
LegalSwitchRoutes make_switch_routes_legal(const RoutingInput& input, Lfts& lfts, const std::vector<uint8_t>& dest_sl,
                                           const Lfts* previous = nullptr, const RepairColumns* repair = nullptr);

/// Whether switches' own routes turn at the leaf `previous`'s turn at (with
/// or without an orphan): then only the routes that crossed a lost cable
/// change, where a move of the turn leaf changes every switch's that turns.
bool switch_turn_leaf_stays(const RoutingInput& input, const Lfts& previous);

/// Puts the LIDs whose switch routes could close a credit loop on SLs of
/// their own (paths/detour_layers.h): on a fat tree with labels whose CA
/// routes all go up, then down, on SL 0, only those with illegal routes
/// (see above); elsewhere, of the LIDs some switch's route turns to, those
/// that would close a cycle on their SL.
void layer_switch_turns(const RoutingInput& input, const LegalSwitchRoutes& legal, Routing& routing);

}  // namespace ftclos
