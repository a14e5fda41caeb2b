// A failure sweep splits work over threads (switches' own routes made legal
// per block of LIDs, the transition base per block of LIDs; core/workers.h):
// its tables, SLs and steps must not depend on how many run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/workers.h"
#include "engine/sweep.h"
#include "gen/generate.h"

namespace ftclos {
namespace {

struct Failure {
  Routing routing;
  std::vector<TableStep> steps;
};

// FT(16,3) routed whole, then again with `cut` gone and the first tables as
// the last ones, on `workers` threads.
Failure sweep_after(const PortRef& cut, int workers) {
  set_max_workers(workers);
  const Fabric fabric = *generate_ftree(16, 3);
  const LidMap lids = *assign_lids(fabric, 0);
  const HostHints hints;
  SweepOptions options;
  options.scheme = "auto";
  const SweepOutcome first = run_sweep({fabric, lids, hints}, options);
  EXPECT_TRUE(first.ok()) << first.message;
  Fabric damaged = fabric;
  damaged.disconnect(cut);
  const SweepOutcome failure = run_sweep({damaged, lids, hints, &first.sweep.routing.lfts}, options);
  set_max_workers(0);
  EXPECT_TRUE(failure.ok()) << failure.message;
  return {failure.sweep.routing, failure.sweep.steps.steps};
}

void expect_same(const Failure& one, const Failure& other, const std::string& what) {
  EXPECT_EQ(one.routing.lfts.port, other.routing.lfts.port) << what;
  EXPECT_EQ(one.routing.dest_sl, other.routing.dest_sl) << what;
  ASSERT_EQ(one.steps.size(), other.steps.size()) << what;
  for (size_t k = 0; k < one.steps.size(); ++k) {
    EXPECT_EQ(one.steps[k].differs, other.steps[k].differs) << what << ", step " << k + 1;
    EXPECT_EQ(one.steps[k].dest_sl, other.steps[k].dest_sl) << what << ", step " << k + 1;
  }
}

TEST(SweepWorkers, AFailureSweepGivesTheSameTablesAndStepsOnOneTwoAndThreeThreads) {
  const Fabric fabric = *generate_ftree(16, 3);
  // A leaf's first cable up (the turn leaf's, where switches' own routes
  // move to another leaf) and a middle switch's first cable up.
  std::vector<PortRef> cuts;
  for (const int level : {1, 2}) {
    for (int x = 0; x < fabric.size() && static_cast<int>(cuts.size()) < level; ++x) {
      const Node& node = fabric.node(x);
      if (!node.is_switch()) continue;
      for (int p = 1; p <= node.num_ports; ++p) {
        const PortRef peer = node.ports[p].peer;
        const bool up = peer.valid() && fabric.node(peer.node).is_switch() &&
                        fabric.node(peer.node).name > node.name;  // FT names: L1- < L2- < L3-
        if (up && node.name.starts_with("L" + std::to_string(level))) {
          cuts.push_back({x, p});
          break;
        }
      }
    }
  }
  ASSERT_EQ(cuts.size(), 2u);
  for (const PortRef& cut : cuts) {
    const std::string what = fabric.node(cut.node).name + " port " + std::to_string(cut.port);
    const Failure one = sweep_after(cut, 1);
    EXPECT_GT(one.steps.size(), 0u) << what;  // the cut changed entries
    expect_same(one, sweep_after(cut, 2), what + ", 2 threads");
    expect_same(one, sweep_after(cut, 3), what + ", 3 threads");
  }
}

}  // namespace
}  // namespace ftclos
