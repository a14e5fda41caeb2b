// A change of tables published in safe steps (issue #43). OpenSM writes the
// changed LFT blocks switch by switch, so while a change is written every
// entry is the old or the new one (audit/transition.h). The plan is the
// first of these whose every consecutive pair (the old tables, step 1,
// ..., the new tables) passes that check, loops and credit loops with each
// side's SLs: every changed entry at step 1, a switch whose new entry
// closes a loop with the step before held back a step more (a single cut
// on a fat tree: the top switch that lost its cable toward a pod turns
// down into another pod's level-2 switch once that one stops pointing up
// to it); per LID, each switch one step after the next changed switch on
// its new path; that, and after every changed switch whose old path leads
// to it (every packet then follows an old or a new path whole); and last
// the drained steps, safe whatever the sides. A LID whose SL changes keeps
// one SL while its entries change: a rising one (to a higher SL, where
// its new routes' turns fit) is answered on the new SL one step before its
// entries change, a falling one on the old SL until its entries are all
// new. README.md, "Changes safe in flight", has the measurements.
#pragma once

#include <string>
#include <vector>

#include "audit/transition.h"
#include "core/fabric.h"
#include "route/lid_map.h"
#include "route/routing.h"

namespace ftclos {

/// One set of tables to publish, as the entries where it differs from the
/// change's new tables (a step holds a few thousand entries old or drained
/// of FT(48,3)'s 88 million; whole copies were the failure sweep's peak
/// memory), and the SLs the SA answers with it (per LID).
struct TableStep {
  EntryOverrides differs;
  std::vector<uint8_t> dest_sl;
};

/// The tables of `step` of a change to `after`: a copy with its entries written.
Lfts step_tables(const Lfts& after, const TableStep& step);
/// Writes `step`'s entries into `tables` (the change's new tables, indexed alike).
void apply_step(const TableStep& step, Lfts& tables);

struct SafeSteps {
  std::vector<TableStep> steps;         // to publish in order; the last is the new tables (no entry differs) and SLs
  std::vector<TransitionCheck> checks;  // old -> steps[0], steps[0] -> steps[1], ...

  bool safe() const;
  /// The first pair of steps that is not safe, for people ("" when every
  /// pair is): which, its looping LIDs and credit-loop VLs, an example.
  std::string unsafe_pair() const;
};

/// The steps from `before` to `after` on `fabric`'s `lids` (one step where
/// the change is safe at once); `after`'s SL exceptions go with every step.
/// Both sides are whole table sets (their `overrides` are not read).
SafeSteps plan_safe_steps(const Fabric& fabric, const LidMap& lids, const TablesSide& before, const TablesSide& after);
/// The same over a base already made for `before` and the change to `after`
/// (a failure sweep makes it from the counts the last sweep kept).
SafeSteps plan_safe_steps(const TransitionBase& base, const TablesSide& before, const TablesSide& after);

}  // namespace ftclos
