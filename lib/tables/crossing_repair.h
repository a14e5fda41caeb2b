// Repair that follows the change, not the fabric (issue #44). After cables
// or switches are lost (none gained, the same LIDs), a LID's column of the
// last tables can only be broken where some switch's entry for it leads
// into a lost cable: every other column's paths, every switch's included,
// run over cables that are all still there, and with the levels the same
// they are the up/down paths they were (removing cables lengthens no path
// that avoids them, so a shortest up/down path stays shortest). So only
// those LIDs are routed again, each from its own column: the entries the
// up/down rule still allows stay (as keep_previous keeps them), the others
// take an allowed port toward a switch that delivers, and switches' own
// routes to those LIDs are made legal against the last tables
// (paths/switch_routes_legal.h). The rest of the tables is the last
// tables, untouched. On FT(48,3) one cut touches about 1,700 of 30,000
// LIDs, where the scheme's full route, the merge and the completion of
// every switch's routes read all 88 million entries, several times.
//
// It applies where the merge would keep every other column as it is: a
// labelled fat tree (the turn leaf argument holds, so no LID changes SL),
// LMC 0 (no path bits to keep), no attached hosts or ANs (their detours
// are layered over the whole tables), every LID on SL 0, and the turn leaf
// of switches' own routes staying where it is. The caller checks the
// result like any tables and routes in full where it fails.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"
#include "route/routing.h"

namespace ftclos {

struct CrossingRepair {
  Routing routing;        // the last tables with `lids` routed again
  std::vector<int> lids;  // the LIDs a lost cable touched, ascending
  std::vector<std::vector<int>> changed_switches;  // per LID of `lids`: the switches whose entry changed, ascending
  long changed = 0;       // entries that differ from the last tables (on LIDs with an owner)
  long changed_blocks = 0;  // (switch, 64-LID block) pairs holding them
  // Of `lids`, those some switch's route to does not reach (its owner CA
  // through its exit port, or its owner switch): every other column's
  // routes are the last tables', over cables all still there.
  long undelivered_lids = 0;
};

/// The last tables `previous` (indexed like input.fabric, on input.lids),
/// published with `previous_sl` (per LID; empty: SL 0), repaired where the
/// cables they cross are gone; an error saying why where the repair does
/// not apply (see above). Every table is scanned for entries that lead
/// nowhere, or, with `lost_at`, only those of the switches that lost a
/// cable: where `previous` passed the check on these nodes and LIDs
/// (engine/sweep_memory.h), each of its entries is a switch's route that
/// delivered, so only an entry into a cable lost since leads nowhere now.
Result<CrossingRepair> repair_crossing_lids(const RoutingInput& input, const Lfts& previous,
                                            const std::vector<uint8_t>& previous_sl,
                                            const std::vector<int>* lost_at = nullptr);

}  // namespace ftclos
