// Repair first, polish later (engine/sweep.h, engine/deferred_polish.h) on
// the 64-host random folded Clos of issue 32, one cable cut: the repair
// sweep's polish stops at its small budget, the deferred polish reaches the
// worst case of a sweep from scratch with the full budget, and the next sweep
// installs it, with entries and LFT blocks counted against the published
// tables.
#include "engine/deferred_polish.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <regex>
#include <string>
#include <thread>

#include "audit/worst_case.h"
#include "gen/generate.h"
#include "tables/previous_tables.h"

namespace ftclos {
namespace {

// How long a test waits for the nice-19 polish job: a guard against a hang,
// not a time limit (a sanitized build on a loaded machine took over 4
// minutes for one job).
constexpr auto kHangGuard = std::chrono::minutes(20);

// The RFC routed from scratch, then one switch-to-switch cable of its first leaf cut.
struct CutRfc {
  Fabric fabric = *generate_rfc(8, 16, 3, 1);
  LidMap lids = *assign_lids(fabric, 0);
  HostHints hints;
  Routing before;
  Fabric cut = fabric;

  CutRfc() {
    SweepOptions unpolished;  // the tables before the cut need no polish here: the repair's does not depend on it
    unpolished.polish = false;
    const SweepOutcome first = run_sweep({fabric, lids, hints}, unpolished);
    before = first.sweep.routing;
    for (int p = 1; p <= fabric.node(0).num_ports; ++p)
      if (fabric.peer({0, p}).valid() && fabric.node(fabric.peer({0, p}).node).is_switch()) {
        cut.disconnect({0, p});
        break;
      }
  }
};

// The work the sweep's polish note reports ("... work N (...)"); -1 without one.
long polish_work(const Routing& routing) {
  static const std::regex kWork("contention polish: .* work ([0-9]+)");
  for (const std::string& note : routing.notes)
    if (std::smatch match; std::regex_search(note, match, kWork)) return std::stol(match[1]);
  return -1;
}

TEST(RepairSweep, PolishesOnlyWithinTheRepairBudgetWhenTablesAreInTheSwitches) {
  const CutRfc rfc;
  const SweepOutcome repair = run_sweep({rfc.cut, rfc.lids, rfc.hints, &rfc.before.lfts}, {});
  ASSERT_TRUE(repair.ok()) << repair.message;
  EXPECT_TRUE(repair.sweep.routing.polish_cut_short);
  EXPECT_TRUE(repair.sweep.polish_deferred);
  // From scratch the full budget: nothing left to defer. It runs far past
  // the repair's budget (to the floor of destination-based tables here,
  // where it stops: 22.7 M work).
  const SweepOutcome scratch = run_sweep({rfc.cut, rfc.lids, rfc.hints}, {});
  EXPECT_FALSE(scratch.sweep.polish_deferred);
  EXPECT_GT(polish_work(scratch.sweep.routing), 10 * kRepairPolishWork);
  EXPECT_GT(polish_work(repair.sweep.routing), 0);
  // One matching past the budget at most: far below the full budget.
  EXPECT_LT(polish_work(repair.sweep.routing), 2 * kRepairPolishWork);
  EXPECT_TRUE(repair.sweep.kept_entries);
}

TEST(RepairSweep, CountsTheChangedEntriesAndTheLftBlocksHoldingThem) {
  const CutRfc rfc;
  const SweepOutcome repair = run_sweep({rfc.cut, rfc.lids, rfc.hints, &rfc.before.lfts}, {});
  ASSERT_TRUE(repair.ok()) << repair.message;
  long entries = 0, blocks = 0;
  for (size_t x = 0; x < rfc.before.lfts.port.size(); ++x) {
    const std::vector<uint8_t>& was = rfc.before.lfts.port[x];
    const std::vector<uint8_t>& now = repair.sweep.routing.lfts.port[x];
    for (size_t block = 0; block * kLftBlockLids < was.size(); ++block) {
      long in_block = 0;
      for (size_t lid = std::max<size_t>(1, block * kLftBlockLids);
           lid < std::min(was.size(), (block + 1) * kLftBlockLids); ++lid)
        in_block += rfc.lids.owner[lid] >= 0 && was[lid] != now[lid];
      entries += in_block;
      blocks += in_block > 0;
    }
  }
  EXPECT_GT(entries, 0);
  EXPECT_EQ(repair.sweep.changed, entries);
  EXPECT_EQ(repair.sweep.changed_blocks, blocks);
  EXPECT_LT(blocks, entries);
}

TEST(DeferredPolish, ReachesTheFullPolishAndTheNextSweepInstallsIt) {
  const CutRfc rfc;
  const SweepOutcome repair = run_sweep({rfc.cut, rfc.lids, rfc.hints, &rfc.before.lfts}, {});
  ASSERT_TRUE(repair.ok()) << repair.message;
  DeferredPolish deferred;
  std::promise<void> done;
  EXPECT_TRUE(deferred.start(rfc.cut, rfc.lids, rfc.hints, repair.sweep.routing, {}, [&done] { done.set_value(); }));
  ASSERT_EQ(done.get_future().wait_for(kHangGuard), std::future_status::ready);
  EXPECT_FALSE(deferred.start(rfc.cut, rfc.lids, rfc.hints, repair.sweep.routing, {}, [] { ADD_FAILURE(); }))
      << "a second job for the fabric polished";
  const PolishedTables* polished = deferred.result_for(rfc.cut, rfc.lids);
  ASSERT_NE(polished, nullptr);
  EXPECT_EQ(deferred.result_for(rfc.fabric, rfc.lids), nullptr) << "a result for the fabric before the cut";

  // What `ftclos route` writes for the cut fabric from scratch.
  const SweepOutcome scratch = run_sweep({rfc.cut, rfc.lids, rfc.hints}, {});
  const Levels& levels = scratch.sweep.detection.levels;
  EXPECT_EQ(polished->worst, routing_worst_case(rfc.cut, levels, rfc.lids, scratch.sweep.routing));
  EXPECT_EQ(polished->routing.lfts.port, scratch.sweep.routing.lfts.port);
  EXPECT_EQ(polished->published_worst, routing_worst_case(rfc.cut, levels, rfc.lids, repair.sweep.routing));
  ASSERT_LT(polished->worst, polished->published_worst);

  SweepInput next{rfc.cut, rfc.lids, rfc.hints, &repair.sweep.routing.lfts};
  next.polished = polished;
  const SweepOutcome installed = run_sweep(next, {});
  ASSERT_TRUE(installed.ok()) << installed.message;
  EXPECT_TRUE(installed.sweep.polished);
  EXPECT_EQ(installed.sweep.routing.lfts.port, polished->routing.lfts.port);
  EXPECT_EQ(installed.sweep.changed, table_change(rfc.lids, repair.sweep.routing.lfts, polished->routing.lfts).entries);
}

TEST(DeferredPolish, TheNextSweepKeepsThePublishedTablesWhenThePolishIsNoLower) {
  const CutRfc rfc;
  const SweepOutcome repair = run_sweep({rfc.cut, rfc.lids, rfc.hints, &rfc.before.lfts}, {});
  ASSERT_TRUE(repair.ok()) << repair.message;
  SweepOptions unpolished;  // any sound tables other than the repair's will do
  unpolished.polish = false;
  const SweepOutcome scratch = run_sweep({rfc.cut, rfc.lids, rfc.hints}, unpolished);
  ASSERT_NE(scratch.sweep.routing.lfts.port, repair.sweep.routing.lfts.port);
  const PolishedTables same_worst{scratch.sweep.routing, scratch.sweep.check, 5, 5};
  SweepInput next{rfc.cut, rfc.lids, rfc.hints, &repair.sweep.routing.lfts};
  next.polished = &same_worst;
  const SweepOutcome kept = run_sweep(next, {});
  ASSERT_TRUE(kept.ok()) << kept.message;
  EXPECT_FALSE(kept.sweep.polished);
  EXPECT_EQ(kept.sweep.routing.lfts.port, repair.sweep.routing.lfts.port);
  EXPECT_EQ(kept.sweep.changed, 0);
}

TEST(DeferredPolish, AsksForNoSweepWhenThePolishIsNoLowerThanThePublishedTables) {
  const CutRfc rfc;
  const SweepOutcome polished = run_sweep({rfc.cut, rfc.lids, rfc.hints}, {});  // what the job computes
  ASSERT_TRUE(polished.ok()) << polished.message;
  DeferredPolish deferred;
  bool called = false;
  deferred.start(rfc.cut, rfc.lids, rfc.hints, polished.sweep.routing, {}, [&called] { called = true; });
  const auto deadline = std::chrono::steady_clock::now() + kHangGuard;
  while (!deferred.result_for(rfc.cut, rfc.lids) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const PolishedTables* result = deferred.result_for(rfc.cut, rfc.lids);
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(result->worst, result->published_worst);
  deferred.clear();  // joins the job: `done` would have run before its result showed
  EXPECT_FALSE(called);
}

TEST(DeferredPolish, ClearStopsARunningPolishAndLeavesNoResult) {
  const CutRfc rfc;
  DeferredPolish deferred;
  bool called = false;
  deferred.start(rfc.cut, rfc.lids, rfc.hints, rfc.before, {}, [&called] { called = true; });
  const auto start = std::chrono::steady_clock::now();
  deferred.clear();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(deferred.result_for(rfc.cut, rfc.lids), nullptr);
  EXPECT_FALSE(called);
}

TEST(SameSubnet, TellsACutCableAndMovedLids) {
  const CutRfc rfc;
  EXPECT_TRUE(same_subnet(rfc.fabric, rfc.lids, rfc.fabric, rfc.lids));
  EXPECT_FALSE(same_subnet(rfc.fabric, rfc.lids, rfc.cut, rfc.lids));
  LidMap moved = *assign_lids(rfc.fabric, 1);
  EXPECT_FALSE(same_subnet(rfc.fabric, rfc.lids, rfc.fabric, moved));
}

}  // namespace
}  // namespace ftclos
