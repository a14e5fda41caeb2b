// A change of tables published in safe steps (issue #43). OpenSM writes the
// changed LFT blocks switch by switch, so while a change is written every
// entry is the old or the new one (audit/transition.h). Per LID, a switch
// takes its new entry only once every changed switch on its new path
// onward has taken its own, one step earlier: a packet that takes a new
// entry then follows new entries to its destination, and one that takes
// old entries only meets an old path or, where that joins a new one, the
// new path on, so no mix of two consecutive steps loops (the old and the
// new tables being loop-free). Step k holds the new entries of the
// switches whose changed successors on the new path took theirs by step
// k - 1; the last step is the new tables. A single cut on a fat tree takes
// two: the top switch that lost its cable toward a pod turns down into
// another pod's level-2 switch once that one stops pointing up to it.
// A LID whose SL changes keeps one SL while its entries change: a rising
// one (to a higher SL, where its new routes' turns fit) is answered on the
// new SL one step before its entries change, a falling one on the old SL
// until its entries are all new; so no VL ever carries the union of its
// old and new routes but the one it is answered on then. Each consecutive
// pair is checked whole (loops and credit loops, with each side's SLs)
// before it is handed out.
#pragma once

#include <string>
#include <vector>

#include "audit/transition.h"
#include "core/fabric.h"
#include "route/lid_map.h"
#include "route/routing.h"

namespace ftclos {

/// One set of tables to publish and the SLs the SA answers with it (per LID).
struct TableStep {
  Lfts lfts;
  std::vector<uint8_t> dest_sl;
};

struct SafeSteps {
  std::vector<TableStep> steps;         // to publish in order; the last is the new tables and SLs
  std::vector<TransitionCheck> checks;  // old -> steps[0], steps[0] -> steps[1], ...

  bool safe() const;
  /// The first pair of steps that is not safe, for people ("" when every
  /// pair is): which, its looping LIDs and credit-loop VLs, an example.
  std::string unsafe_pair() const;
};

/// The steps from `before` to `after` on `fabric`'s `lids` (one step where
/// the change is safe at once); `after`'s SL exceptions go with every step.
SafeSteps plan_safe_steps(const Fabric& fabric, const LidMap& lids, const TablesSide& before, const TablesSide& after);

}  // namespace ftclos
