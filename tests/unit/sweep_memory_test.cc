// A failure sweep with the last sweep's memory (engine/sweep_memory.h)
// against the same sweep without it, on every single cut cable of FT(8,3),
// every 23rd of FT(16,3) and every 5th of a random folded Clos: the same
// tables, the same verdicts as the full check (undelivered routes, credit
// loops, switches' own routes), the same steps safe in flight, and the
// memory left behind equal to the dependency counts of the new tables
// counted afresh.
#include "engine/sweep_memory.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/workers.h"
#include "engine/sweep.h"
#include "gen/generate.h"
#include "routing_checks.h"

namespace ftclos {
namespace {

struct Case {
  std::string name;
  Result<Fabric> (*make)();
  int every;             // cables cut: every n-th
  bool repairs_lids;     // the sweep repairs only the crossing LIDs (else routes in full)
};

class SweepMemoryTest : public ::testing::TestWithParam<Case> {};

// No polish: the repair of the crossing LIDs applies below 1,024 CAs only then.
SweepOptions options() {
  SweepOptions out;
  out.polish = false;
  return out;
}

void expect_same_steps(const SafeSteps& with, const SafeSteps& without, const std::string& where) {
  ASSERT_EQ(with.steps.size(), without.steps.size()) << where;
  for (size_t k = 0; k < with.steps.size(); ++k) {
    EXPECT_EQ(with.steps[k].differs, without.steps[k].differs) << where << ", step " << k + 1;
    EXPECT_EQ(with.steps[k].dest_sl, without.steps[k].dest_sl) << where << ", step " << k + 1;
    EXPECT_EQ(with.checks[k].safe(), without.checks[k].safe()) << where << ", step " << k + 1;
  }
}

TEST_P(SweepMemoryTest, AFailureSweepWithMemoryDecidesAsOneWithout) {
  const Fabric fabric = *GetParam().make();
  const LidMap lids = *assign_lids(fabric, 0);
  const HostHints hints;
  SweepMemory memory;
  SweepInput first{fabric, lids, hints};
  first.memory = &memory;
  const SweepOutcome before = run_sweep(first, options());
  ASSERT_TRUE(before.ok()) << before.message;
  ASSERT_TRUE(memory.fits(fabric, lids));
  // The first sweep leaves the counting to the next (each cut's below counts its copy).
  ASSERT_TRUE(memory.uncounted);
  SweepMemory counted = memory;
  counted.count(lids, before.sweep.routing.lfts, 1);
  EXPECT_EQ(*counted.counts, DependencyCounts(fabric, lids, before.sweep.routing.lfts, before.sweep.routing.dest_sl));
  const std::vector<PortRef> cables = switch_cables(fabric);
  long cuts = 0, repaired = 0, stepped = 0;
  for (size_t i = 0; i < cables.size(); i += GetParam().every) {
    const PortRef end = cables[i];
    ++cuts;
    const std::string where = fabric.node(end.node).name + " port " + std::to_string(end.port);
    Fabric damaged = fabric;
    damaged.disconnect(end);
    SweepMemory kept = memory;
    SweepInput input{damaged, lids, hints, &before.sweep.routing.lfts};
    input.previous_sl = &before.sweep.routing.dest_sl;
    const SweepOutcome without = run_sweep(input, options());
    input.memory = &kept;
    const SweepOutcome with = run_sweep(input, options());
    ASSERT_TRUE(with.ok() && without.ok()) << where << ": " << with.message << without.message;
    const Routing& routing = with.sweep.routing;
    EXPECT_EQ(routing.lfts.port, without.sweep.routing.lfts.port) << where;
    EXPECT_EQ(routing.dest_sl, without.sweep.routing.dest_sl) << where;
    expect_same_verdicts(with.sweep.check, without.sweep.check, where);
    expect_same_steps(with.sweep.steps, without.sweep.steps, where);
    repaired += with.sweep.repaired_lids >= 0;
    // A repair is checked in its LIDs alone; every change's steps come from the counts.
    EXPECT_EQ(with.sweep.checked_repaired_only, with.sweep.repaired_lids >= 0) << where;
    EXPECT_FALSE(without.sweep.checked_repaired_only || without.sweep.steps_from_memory) << where;
    EXPECT_TRUE(with.sweep.steps_from_memory || with.sweep.changed == 0) << where;
    stepped += with.sweep.steps.steps.size() > 1;
    ASSERT_TRUE(kept.fits(damaged, lids)) << where;
    if (kept.uncounted) kept.count(lids, routing.lfts, 1);
    EXPECT_EQ(*kept.counts, DependencyCounts(damaged, lids, routing.lfts, routing.dest_sl)) << where;
  }
  std::printf("%ld cuts: %ld repaired in their crossing LIDs, %ld in more than one step\n", cuts, repaired, stepped);
  if (GetParam().repairs_lids) {
    EXPECT_GT(repaired, 0);
  }
  EXPECT_GT(stepped, 0);
}

// Where the sweep may use one thread (jobs=1), the next sweep counts the
// kept tables itself, before its recognition, and decides as with two.
TEST(SweepMemory, OneThreadCountsBeforeRecognition) {
  const Fabric fabric = *generate_ftree(8, 3);
  const LidMap lids = *assign_lids(fabric, 0);
  const HostHints hints;
  struct OneWorker {  // for this test alone, whichever way it ends
    OneWorker() { set_max_workers(1); }
    ~OneWorker() { set_max_workers(0); }
  } one_worker;
  SweepMemory memory;
  SweepInput first{fabric, lids, hints};
  first.memory = &memory;
  const SweepOutcome before = run_sweep(first, options());
  ASSERT_TRUE(before.ok()) << before.message;
  Fabric damaged = fabric;
  damaged.disconnect(switch_cables(fabric).front());
  SweepInput input{damaged, lids, hints, &before.sweep.routing.lfts};
  input.previous_sl = &before.sweep.routing.dest_sl;
  input.memory = &memory;
  const SweepOutcome with = run_sweep(input, options());
  ASSERT_TRUE(with.ok()) << with.message;
  EXPECT_TRUE(with.sweep.steps_from_memory);
  ASSERT_FALSE(memory.uncounted);
  EXPECT_EQ(*memory.counts, DependencyCounts(damaged, lids, with.sweep.routing.lfts, with.sweep.routing.dest_sl));
}

// Counts kept for other cables are no memory: two cables swapped (each
// channel's dependencies are its peer's entries), or a cable gained.
TEST(SweepMemory, FitsOnlyTheSameNodesWithCablesLost) {
  const Fabric fabric = *generate_ftree(8, 3);
  const LidMap lids = *assign_lids(fabric, 0);
  const HostHints hints;
  SweepMemory memory;
  SweepInput first{fabric, lids, hints};
  first.memory = &memory;
  ASSERT_TRUE(run_sweep(first, options()).ok());
  const std::vector<PortRef> ups = switch_cables(fabric);
  ASSERT_GE(ups.size(), 2u);
  const PortRef a = ups.front(), b = ups.back(), a_peer = fabric.peer(a), b_peer = fabric.peer(b);
  Fabric lost = fabric;
  lost.disconnect(a);
  EXPECT_TRUE(memory.fits(lost, lids));
  Fabric swapped = lost;
  swapped.disconnect(b);
  ASSERT_TRUE(swapped.connect(a, b_peer).ok());
  ASSERT_TRUE(swapped.connect(b, a_peer).ok());
  EXPECT_FALSE(memory.fits(swapped, lids));
  Fabric regained = lost;
  ASSERT_TRUE(regained.connect(a, a_peer).ok());
  EXPECT_TRUE(memory.fits(regained, lids));  // the very cable back: its channel leads where it did
  LidMap other = lids;
  other.owner[1] = -1;
  EXPECT_FALSE(memory.fits(fabric, other));
}

INSTANTIATE_TEST_SUITE_P(Fabrics, SweepMemoryTest,
                         ::testing::Values(Case{"ft_8_3", [] { return generate_ftree(8, 3); }, 1, true},
                                           Case{"ft_16_3", [] { return generate_ftree(16, 3); }, 23, true},
                                           Case{"rfc", [] { return generate_rfc(8, 16, 3, 1); }, 5, false}),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace ftclos
