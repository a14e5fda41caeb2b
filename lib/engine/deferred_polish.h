// Repair first, polish later. A sweep with tables in the switches polishes
// only within SweepOptions::repair_polish_work, so the repair goes out in
// milliseconds. Where that polish stopped short, the same fabric is routed
// again from scratch with the full polish (the tables `ftclos route` writes
// for it), in a thread of its own at the lowest CPU priority while the
// repaired tables serve. When it is done it calls `done` (the plugin asks
// OpenSM for a heavy sweep), and that sweep installs the result where its
// worst case is lower than the published tables' (SweepInput::polished).
// One job per fabric: a sweep of the fabric a job polishes or polished does
// not start another.
#pragma once

#include <functional>
#include <memory>
#include <thread>

#include "core/fabric.h"
#include "detect/host_hints.h"
#include "engine/sweep.h"
#include "route/lid_map.h"
#include "route/routing.h"

namespace ftclos {

class DeferredPolish {
 public:
  DeferredPolish();
  DeferredPolish(const DeferredPolish&) = delete;
  DeferredPolish& operator=(const DeferredPolish&) = delete;
  ~DeferredPolish();

  /// Starts polishing `fabric` on `lids` (both copied) with `options`
  /// (previous tables none: the full budget) against `published`, the tables
  /// the sweep installed; stops a job for another fabric first. `done` runs
  /// on the job's thread once a result with a lower worst case than
  /// `published` is ready (not when the job is stopped, finds no sound
  /// tables or none better). Does nothing, and returns false, when the
  /// job for this fabric runs or ran.
  bool start(const Fabric& fabric, const LidMap& lids, const HostHints& hints, const Routing& published,
             const SweepOptions& options, std::function<void()> done);
  /// Stops a job for any other fabric than `fabric` on `lids` and waits for
  /// it; a job for this one runs on.
  void keep_only(const Fabric& fabric, const LidMap& lids);
  /// Stops any job and drops every result.
  void clear();
  /// The finished job's result when it polished exactly `fabric` on `lids`; nullptr otherwise.
  const PolishedTables* result_for(const Fabric& fabric, const LidMap& lids) const;

 private:
  struct Job;
  void stop();

  std::unique_ptr<Job> job_;
  std::thread thread_;
};

/// Whether two readings of a subnet are the same to route: nodes (type,
/// GUID, ports), cables and LIDs.
bool same_subnet(const Fabric& a, const LidMap& a_lids, const Fabric& b, const LidMap& b_lids);

}  // namespace ftclos
