// The steps of a change still to publish (engine/safe_steps.h), one per
// sweep: the plugin publishes the first with the sweep that routed the
// change, asks OpenSM for another sweep, and publishes the next one then,
// as long as the subnet is the one the change was planned on. Any other
// subnet drops them: the next change starts from what the switches hold.
// Each step is kept as the entries it changes from the step before (a few
// thousand of 88 million on FT(48,3)), applied to the published tables.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "core/fabric.h"
#include "engine/safe_steps.h"

namespace ftclos {

class PendingSteps {
 public:
  /// Keeps every step of `steps` (a change to `after`) after the first, for `fabric` on `lids`.
  void keep(const Fabric& fabric, const LidMap& lids, const SafeSteps& steps, const Lfts& after);
  /// Turns `tables` and `dest_sl`, the step before as published, into the
  /// next step where `fabric` and `lids` are the change's (then the steps
  /// left after it and the change's count say which it is); false, and
  /// none kept any more, otherwise.
  bool apply_next(const Fabric& fabric, const LidMap& lids, Lfts& tables, std::vector<uint8_t>& dest_sl);
  int left() const { return static_cast<int>(steps_.size()); }
  int total() const { return total_; }

 private:
  struct Entry {
    int node;
    int lid;
    uint8_t port;
  };
  struct Step {
    std::vector<Entry> entries;  // those that differ from the step before
    std::vector<uint8_t> dest_sl;
  };

  Fabric fabric_;
  LidMap lids_;
  std::deque<Step> steps_;
  int total_ = 0;
};

}  // namespace ftclos
