#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "audit/path_trace.h"
#include "gen/generate.h"
#include "schemes/schemes.h"
#include "routing_checks.h"

namespace ftclos {
namespace {

Routed nonblocking(Fabric fabric, int lmc) { return route_fabric(*make_nonblocking_scheme(), std::move(fabric), lmc); }

// Yuan's 3-level network for n = 2: every top switch of ftree(2+4, 12)
// realized by ftree(2+4, 6), i.e. XGFT(3; 2,2,6; 1,4,4).
Fabric recursive_clos3() { return generated(generate_pgft({{2, 2, 6}, {1, 4, 4}, {1, 1, 1}})); }


class NonblockingClos2 : public ::testing::TestWithParam<std::tuple<int, int>> {};

// Theorem 3 on ftree(n+n^2, n^2+1): every channel carries one source or one
// destination, which is Lemma 1's nonblocking condition.
TEST_P(NonblockingClos2, EveryChannelCarriesOneSourceOrOneDestination) {
  const auto [n, lmc] = GetParam();
  const Routed routed = nonblocking(generated(generate_clos2(n, n * n, n * n + 1)), lmc);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_EQ(routed.routing.lmc_needed, lmc);
  EXPECT_TRUE(notes_mention(routed.routing, "Lemma 1"));
  expect_routes_everything(routed);
  EXPECT_EQ(busiest_channel(channel_uses(routed)), 1);
}

INSTANTIATE_TEST_SUITE_P(Yuan, NonblockingClos2,
                         ::testing::Values(std::tuple{2, 1}, std::tuple{3, 2}, std::tuple{4, 2}),
                         [](const auto& info) { return "n" + std::to_string(std::get<0>(info.param)); });

// (v,i) -> (w,j) on different leaves crosses top switch (i,j) = spine i*n+j,
// and p(s) is the source's index i on its leaf.
TEST(Nonblocking, RoutesThroughTopSwitchIJ) {
  const int n = 3;
  const Routed routed = nonblocking(generated(generate_clos2(n, n * n, 10)), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  const Fabric& fabric = routed.fabric;
  const std::vector<std::vector<int>>& label = routed.detection.xgft->digits;
  for (int s = 0; s < fabric.size(); ++s) {
    if (fabric.node(s).is_switch()) continue;
    EXPECT_EQ(routed.routing.path_bits[s], label[s][0]) << fabric.node(s).name;
    for (int d = 0; d < fabric.size(); ++d) {
      if (fabric.node(d).is_switch() || label[s][1] == label[d][1]) continue;
      const Trace path =
          trace(fabric, routed.lids, routed.routing.lfts, s, routed.lids.base[d] + routed.routing.path_bits[s]);
      ASSERT_EQ(path.hops.size(), 4u);
      const int top = fabric.peer(path.hops[1]).node;
      EXPECT_EQ(label[top][1], label[s][0] * n + label[d][0]) << fabric.node(s).name << " -> " << fabric.node(d).name;
    }
  }
}

// With m < n^2 top switches and r >= 2n+1 leaves, Theorem 2 rules out any
// nonblocking single-path routing: the scheme says so and some channel does
// carry several sources and several destinations, yet every pair is routed.
TEST(Nonblocking, TooFewTopSwitchesNotesTheorem2) {
  const Routed routed = nonblocking(generated(generate_clos2(3, 6, 10)), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_TRUE(notes_mention(routed.routing, "Theorem 2"));
  EXPECT_FALSE(notes_mention(routed.routing, "Lemma 1"));
  expect_routes_everything(routed);
  EXPECT_GT(busiest_channel(channel_uses(routed)), 1);
}

// The recursive 3-level network: the rule at the leaves and at level 2 is
// Theorem 3 of the outer and of the inner Clos, so Lemma 1 holds again; p(s)
// holds the source's digits at both levels.
TEST(Nonblocking, RecursiveThreeLevelClosIsNonblocking) {
  const Routed routed = nonblocking(recursive_clos3(), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_EQ(routed.routing.lmc_needed, 2);
  EXPECT_FALSE(notes_mention(routed.routing, "Theorem 2"));
  expect_routes_everything(routed);
  EXPECT_EQ(busiest_channel(channel_uses(routed)), 1);
}

// FT(8,3) has w = m_l at every level, far below m_l^2: routed, but noted.
TEST(Nonblocking, FatTreeIsRoutedWithTheorem2Noted) {
  const Routed routed = nonblocking(generated(generate_ftree(8, 3)), 4);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_EQ(routed.routing.lmc_needed, 4);
  EXPECT_TRUE(notes_mention(routed.routing, "Theorem 2"));
  expect_routes_everything(routed);
}

// Fewer LIDs than source classes: said in the notes, sources folded, every
// pair still routed.
TEST(Nonblocking, SmallLmcFallsBackWithANote) {
  for (int lmc : {0, 1}) {
    const Routed routed = nonblocking(generated(generate_clos2(3, 9, 10)), lmc);
    ASSERT_TRUE(routed.status.ok()) << routed.status.message();
    EXPECT_EQ(routed.routing.lmc_needed, 2);
    EXPECT_TRUE(notes_mention(routed.routing, "need LMC 2, have " + std::to_string(lmc)));
    EXPECT_FALSE(notes_mention(routed.routing, "Lemma 1"));
    expect_routes_everything(routed);
    for (int s = 0; s < routed.fabric.size(); ++s) EXPECT_LT(routed.routing.path_bits[s], 1 << lmc);
  }
}

class NonblockingDegraded : public ::testing::TestWithParam<std::tuple<FabricCase, uint64_t>> {};

// Three failed cables: entries on them are moved, every pair still goes a
// shortest up/down way.
TEST_P(NonblockingDegraded, StillRoutesEveryPairUpDown) {
  const auto& [fabric_case, seed] = GetParam();
  Fabric fabric = fabric_case.make();
  ASSERT_TRUE(degrade(fabric, {3, -1, seed}).ok());
  const Routed routed = nonblocking(std::move(fabric), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_GT(routed.routing.rerouted, 0);
  expect_routes_everything(routed);
}

const FabricCase kDegradable[] = {
    {"clos2_3_9_10", [] { return generated(generate_clos2(3, 9, 10)); }},
    {"recursive_clos3", recursive_clos3},
};

INSTANTIATE_TEST_SUITE_P(Yuan, NonblockingDegraded,
                         ::testing::Combine(::testing::ValuesIn(kDegradable), ::testing::Values(1u, 2u, 3u)),
                         [](const auto& info) {
                           return std::get<0>(info.param).name + "_" + std::to_string(std::get<1>(info.param));
                         });

TEST(Nonblocking, RefusesFabricsWithoutTreeLabels) {
  const Routed routed = nonblocking(generated(generate_mikant(2, 2)), 0);
  EXPECT_FALSE(routed.status.ok());
}

// ---- 2-level PGFTs: parallel cables as extra top switches ----

struct PgftCase {
  std::string name;
  PgftParams params;
};

class NonblockingPgft : public ::testing::TestWithParam<PgftCase> {};

// With w2 p2 >= n^2 up slots per leaf, slot (i*n + j) mod (w2 p2) is a top
// switch of its own (an up and a down channel nobody else uses), so Theorem
// 3 holds as on ftree(n+n^2, r): the auditor finds worst case 1 for every
// permutation, at LMC ceil(log2 n).
TEST_P(NonblockingPgft, ParallelCablesKeepTheorem3) {
  const PgftParams& p = GetParam().params;
  const int n = p.m[0];
  ASSERT_GE(p.w[1] * p.p[1], n * n);
  int lmc = 0;
  while ((1 << lmc) < n) ++lmc;
  const Routed routed = nonblocking(generated(generate_pgft(p)), lmc);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_EQ(routed.routing.lmc_needed, lmc);
  EXPECT_TRUE(notes_mention(routed.routing, "Lemma 1"));
  expect_routes_everything(routed);
  EXPECT_EQ(busiest_channel(channel_uses(routed)), 1);
  EXPECT_EQ(exact_worst_case(routed), 1);
}

INSTANTIATE_TEST_SUITE_P(Pgft, NonblockingPgft,
                         ::testing::Values(PgftCase{"n3_3spines_3cables", {{3, 10}, {1, 3}, {1, 3}}},
                                           PgftCase{"n2_2spines_2cables", {{2, 8}, {1, 2}, {1, 2}}},
                                           PgftCase{"n2_1spine_4cables", {{2, 5}, {1, 1}, {1, 4}}},
                                           PgftCase{"n3_2spines_5cables", {{3, 6}, {1, 2}, {1, 5}}}),
                         [](const auto& info) { return info.param.name; });

// Oversubscribed leaves (4 leaves of 24 hosts, 12 up slots): routed, every
// pair delivered, and the oversubscription named instead of a guarantee.
TEST(Nonblocking, OversubscribedPgftIsRoutedWithTheReasonNoted) {
  const Routed routed = nonblocking(generated(generate_pgft({{24, 4}, {1, 2}, {1, 6}})), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_TRUE(notes_mention(routed.routing, "level 1 has 12 up slots for 24 hosts below each switch: oversubscribed"));
  EXPECT_FALSE(notes_mention(routed.routing, "Lemma 1"));
  expect_routes_everything(routed);
}

// Three levels: parallel cables into the top are top switches as on two
// levels, so the recursive network with 2 x 2 cables per level-2 switch
// instead of 4 tops is still nonblocking. Parallel cables into level 2
// merge two leaf slots into one level-2 switch, whose up channels then
// carry two sources of a leaf: no guarantee, and the note says why.
TEST(Nonblocking, ThreeLevelsKeepTheorem3OnlyWithParallelCablesIntoTheTop) {
  const Routed top = nonblocking(generated(generate_pgft({{2, 2, 6}, {1, 4, 2}, {1, 1, 2}})), 2);
  ASSERT_TRUE(top.status.ok()) << top.status.message();
  EXPECT_TRUE(notes_mention(top.routing, "Lemma 1"));
  expect_routes_everything(top);
  EXPECT_EQ(exact_worst_case(top), 1);
  const Routed middle = nonblocking(generated(generate_pgft({{2, 2, 6}, {1, 2, 4}, {1, 2, 1}})), 2);
  ASSERT_TRUE(middle.status.ok()) << middle.status.message();
  EXPECT_FALSE(notes_mention(middle.routing, "Lemma 1"));
  EXPECT_TRUE(notes_mention(middle.routing, "parallel cables into level 2"));
  expect_routes_everything(middle);
}

// Three failed cables of a PGFT with parallel cables: entries on them move,
// every pair still goes a shortest up/down way.
TEST(Nonblocking, DegradedPgftWithParallelCablesStillRoutesEveryPair) {
  expect_degraded_pgft_routes_every_pair(*make_nonblocking_scheme(), {{24, 4}, {1, 2}, {1, 6}}, 2);
}

}  // namespace
}  // namespace ftclos
