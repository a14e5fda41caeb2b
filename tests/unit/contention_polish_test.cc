// The contention polish (paths/contention_polish.h) on the fabrics of issue
// #12: the balanced up/down tables before and after, judged by the auditor
// (exact worst case, every pair delivered, no loop, no credit loop on the
// routing's own SLs). No figure is written down here: each test compares
// what the auditor measures on the two tables.
#include "paths/contention_polish.h"

#include <gtest/gtest.h>

#include <string>

#include "audit/audit.h"
#include "gen/generate.h"
#include "paths/detour_layers.h"
#include "paths/updown_balance.h"

namespace ftclos {
namespace {

struct Case {
  std::string name;
  Variations variations;
  bool clos2 = false;  // clos2(4+4, r=8) instead of FT(8,3)
  bool pod = false;    // a 2-level SuperPOD-style pod with SHARP ANs (contention: compute hosts only)
};

const Case kCases[] = {
    {"ft_8_3_swap2", {.swapped_pairs = 2, .seed = 1}},
    {"ft_8_3_lose2", {.lost_switches = 2, .seed = 1}},
    {"ft_8_3_io2_level2", {.io_hosts = 2, .io_level = 2}},
    {"clos2_4_4_8_io2", {.io_hosts = 2}, true},
    {"pod2_with_ans", {}, false, true},
};

// A fabric, its LIDs at LMC 0, and the balanced up/down tables unpolished.
struct Tables {
  Fabric fabric;
  Detection detection;
  LidMap lids;
  Routing routing;

  RoutingInput input() const { return {fabric, detection, lids}; }
};

Tables routed_unpolished(const Case& c) {
  Tables s;
  if (c.pod) {
    Result<Superpod> pod = generate_superpod({.units = 4, .servers = 8, .rails = 4, .spines = 4, .radix = 36});
    EXPECT_TRUE(pod.ok());
    s.fabric = std::move(pod->fabric);
  } else {
    Result<Fabric> fabric = c.clos2 ? generate_clos2(4, 4, 8) : generate_ftree(8, 3);
    EXPECT_TRUE(fabric.ok());
    s.fabric = std::move(*fabric);
  }
  EXPECT_TRUE(vary(s.fabric, c.variations).ok());
  s.detection = detect(s.fabric);
  s.lids = *assign_lids(s.fabric, 0);
  const UpDownReach reach(s.fabric, s.detection.levels);
  balance_by_destination(s.input(), reach, s.routing.lfts);
  layer_detours(s.input(), reach, s.routing);
  return s;
}

AuditInput audit_input(const Tables& s, const Routing& routing) {
  return {s.fabric, s.detection.levels, s.lids, routing.lfts, {}, routing.dest_sl, {}};
}

// A tenth of the default budget keeps the suite quick; still enough to lower swap2.
constexpr PolishLimits kQuick{.max_work = 5'000'000};

PolishOutcome polish(const Tables& s, Routing& routing, const PolishLimits& limits = kQuick) {
  const UpDownReach reach(s.fabric, s.detection.levels);
  return polish_contention(s.input(), reach, routing, limits);
}

class Polish : public ::testing::TestWithParam<Case> {};

TEST_P(Polish, NeverRaisesTheWorstCaseAndAgreesWithTheAuditor) {
  const Tables s = routed_unpolished(GetParam());
  Routing polished = s.routing;
  const PolishOutcome outcome = polish(s, polished);
  ASSERT_TRUE(outcome.ran);
  const double before = worst_case_contention(audit_input(s, s.routing)).worst_case;
  const double after = worst_case_contention(audit_input(s, polished)).worst_case;
  EXPECT_EQ(outcome.before, before);
  EXPECT_EQ(outcome.after, after);
  EXPECT_LE(after, before);
  EXPECT_EQ(polished.dest_sl, s.routing.dest_sl);
}

TEST_P(Polish, KeepsEveryPairDeliveredWithoutLoopsOrCreditLoops) {
  const Tables s = routed_unpolished(GetParam());
  Routing polished = s.routing;
  polish(s, polished);
  const Correctness c = check_correctness(audit_input(s, polished));
  EXPECT_GT(c.pairs, 0);
  EXPECT_EQ(c.unreachable, 0);
  EXPECT_EQ(c.loops, 0);
  EXPECT_EQ(c.credit_loops, 0);
  EXPECT_EQ(c.updown_violations, check_correctness(audit_input(s, s.routing)).updown_violations);
}

TEST_P(Polish, GivesTheSameTablesForTheSameSeed) {
  const Tables s = routed_unpolished(GetParam());
  Routing once = s.routing, twice = s.routing;
  polish(s, once);
  polish(s, twice);
  EXPECT_EQ(once.lfts.port, twice.lfts.port);
}

INSTANTIATE_TEST_SUITE_P(Issue12, Polish, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return info.param.name; });

TEST(PolishFigures, LowersTheWorstCaseOfTwoSwappedCablePairs) {
  const Tables s = routed_unpolished(kCases[0]);
  Routing polished = s.routing;
  polish(s, polished);
  EXPECT_LT(worst_case_contention(audit_input(s, polished)).worst_case,
            worst_case_contention(audit_input(s, s.routing)).worst_case);
}

TEST(PolishLimits, LeavesTablesAloneOnFabricsPastTheLimit) {
  const Tables s = routed_unpolished(kCases[0]);
  Routing polished = s.routing;
  const PolishOutcome outcome = polish(s, polished, {.max_cas = 64, .max_work = kQuick.max_work});
  EXPECT_FALSE(outcome.ran);
  EXPECT_EQ(polished.lfts.port, s.routing.lfts.port);
  EXPECT_EQ(polish_note(outcome), "");
}

TEST(PolishLimits, LeavesTablesAloneWhenTurnedOff) {
  const Tables s = routed_unpolished(kCases[0]);
  Routing polished = s.routing;
  RoutingInput off = s.input();
  off.polish = false;
  const PolishOutcome outcome = polish_contention(off, UpDownReach(s.fabric, s.detection.levels), polished, kQuick);
  EXPECT_FALSE(outcome.ran);
  EXPECT_EQ(polished.lfts.port, s.routing.lfts.port);
}

TEST(PolishLimits, StopsWhenTheBudgetIsSpent) {
  const Tables s = routed_unpolished(kCases[0]);
  Routing polished = s.routing;
  const PolishOutcome outcome = polish(s, polished, {.max_work = 1});
  EXPECT_TRUE(outcome.budget_spent);
  EXPECT_EQ(outcome.moves, 0);
  EXPECT_EQ(polished.lfts.port, s.routing.lfts.port);
}

}  // namespace
}  // namespace ftclos
