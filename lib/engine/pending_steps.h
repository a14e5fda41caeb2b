// The steps of a change still to publish (engine/safe_steps.h), one per
// sweep: the plugin publishes the first with the sweep that routed the
// change, asks OpenSM for another sweep, and publishes the next one then,
// as long as the subnet is the one the change was planned on. Any other
// subnet drops them: the next change starts from what the switches hold.
#pragma once

#include <deque>
#include <optional>

#include "core/fabric.h"
#include "engine/safe_steps.h"
#include "route/lid_map.h"
#include "route/routing.h"

namespace ftclos {

class PendingSteps {
 public:
  /// Keeps every step of `steps` after the first, for `fabric` on `lids`:
  /// moved, not copied (each a whole set of tables, 88 MB on FT(48,3)).
  void keep(const Fabric& fabric, const LidMap& lids, SafeSteps&& steps);
  /// The next step where `fabric` and `lids` are the change's (then the
  /// steps left after it and the change's count say which it is); nullopt,
  /// and none kept any more, otherwise.
  std::optional<TableStep> next_for(const Fabric& fabric, const LidMap& lids);
  int left() const { return static_cast<int>(steps_.size()); }
  int total() const { return total_; }

 private:
  Fabric fabric_;
  LidMap lids_;
  std::deque<TableStep> steps_;
  int total_ = 0;
};

}  // namespace ftclos
