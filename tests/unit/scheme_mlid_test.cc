#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "audit/path_trace.h"
#include "detect/levels.h"
#include "gen/generate.h"
#include "schemes/schemes.h"
#include "routing_checks.h"

namespace ftclos {
namespace {

Routed mlid(Fabric fabric, int lmc) { return route_fabric(*make_mlid_scheme(), std::move(fabric), lmc); }


struct TableICase {
  int ports, levels;
  int lmc;      // log2((m/2)^(n-1))
  int table_i;  // Yuan et al.'s Table I: m/2 on FT(m,2), m-1 on FT(m,3)
};

class MlidTableI : public ::testing::TestWithParam<TableICase> {};

// (m/2)^(n-1) LIDs per CA; the sources under one switch leave by distinct up
// links (every up channel carries one source), and the busiest down channel
// gives Table I's oblivious ratio.
TEST_P(MlidTableI, MatchesTableI) {
  const TableICase c = GetParam();
  const Routed routed = mlid(generated(generate_ftree(c.ports, c.levels)), c.lmc);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_EQ(routed.routing.lmc_needed, c.lmc);
  expect_routes_everything(routed);
  const std::vector<ChannelUse> uses = channel_uses(routed);
  for (const ChannelUse& use : uses)
    if (use.up) {
      EXPECT_EQ(use.sources, 1);
    }
  EXPECT_EQ(busiest_channel(uses), c.table_i);
}

INSTANTIATE_TEST_SUITE_P(LinChungHuang, MlidTableI,
                         ::testing::Values(TableICase{8, 2, 2, 4}, TableICase{8, 3, 4, 7}, TableICase{4, 3, 2, 3}),
                         [](const auto& info) {
                           return "FT" + std::to_string(info.param.ports) + "_" + std::to_string(info.param.levels);
                         });

// p(s) is the source's position in its top-level sub-tree: (p1, p2) of host
// (p0,p1,p2) as p2 + (m/2) p1.
TEST(Mlid, PathBitsAreTheSourcePosition) {
  const Routed routed = mlid(generated(generate_ftree(8, 3)), 4);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  const std::vector<std::vector<int>>& label = routed.detection.xgft->digits;
  for (int s = 0; s < routed.fabric.size(); ++s)
    if (!routed.fabric.node(s).is_switch()) {
      EXPECT_EQ(routed.routing.path_bits[s], label[s][0] + 4 * label[s][1]);
    }
}

// Fewer LIDs: noted; the lowest level keeps the source digit, the level
// above chooses by destination, and every pair is still routed.
TEST(Mlid, SmallLmcFallsBackWithANote) {
  const Routed routed = mlid(generated(generate_ftree(8, 3)), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_EQ(routed.routing.lmc_needed, 4);
  EXPECT_TRUE(notes_mention(routed.routing, "need LMC 4, have 2"));
  expect_routes_everything(routed);
  const std::vector<std::vector<int>>& label = routed.detection.xgft->digits;
  for (int s = 0; s < routed.fabric.size(); ++s)
    if (!routed.fabric.node(s).is_switch()) {
      EXPECT_EQ(routed.routing.path_bits[s], label[s][0]);
    }
}

class MlidDegraded : public ::testing::TestWithParam<std::tuple<FabricCase, uint64_t>> {};

// Three failed cables: entries on them are moved, every pair still goes a
// shortest up/down way.
TEST_P(MlidDegraded, StillRoutesEveryPairUpDown) {
  const auto& [fabric_case, seed] = GetParam();
  Fabric fabric = fabric_case.make();
  ASSERT_TRUE(degrade(fabric, {3, -1, seed}).ok());
  const Routed routed = mlid(std::move(fabric), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_GT(routed.routing.rerouted, 0);
  expect_routes_everything(routed);
}

const FabricCase kDegradable[] = {
    {"ft8_2", [] { return generated(generate_ftree(8, 2)); }},
    {"ft8_3", [] { return generated(generate_ftree(8, 3)); }},
    {"pgft3",
     [] {
       return generated(generate_pgft({{3, 2, 4}, {1, 2, 3}, {1, 1, 1}}));
     }},
};

INSTANTIATE_TEST_SUITE_P(LinChungHuang, MlidDegraded,
                         ::testing::Combine(::testing::ValuesIn(kDegradable), ::testing::Values(1u, 2u, 3u)),
                         [](const auto& info) {
                           return std::get<0>(info.param).name + "_" + std::to_string(std::get<1>(info.param));
                         });

// Any single-cable PGFT: digits of min(m_l, w_{l+1}) values.
TEST(Mlid, RoutesPgft) {
  const Routed routed = mlid(generated(generate_pgft({{3, 2, 4}, {1, 2, 3}, {1, 1, 1}})), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_EQ(routed.routing.lmc_needed, 2);  // min(3,2) * min(2,3) = 4 classes
  expect_routes_everything(routed);
}

// ---- 2-level PGFTs: parallel cables, oversubscribed leaves ----

struct PgftCase {
  std::string name;
  PgftParams params;
};

const PgftCase kTwoLevelPgfts[] = {
    {"edr_24x4_2spines_6cables", {{24, 4}, {1, 2}, {1, 6}}},  // issue #12's cluster, 2:1
    {"pgft_6x8_2spines_3cables", {{6, 8}, {1, 2}, {1, 3}}},
    {"pgft_8x6_2spines_2cables", {{8, 6}, {1, 2}, {1, 2}}},
    {"pgft_9x10_3spines_1cable", {{9, 10}, {1, 3}, {1, 1}}},
    {"pgft_4x5_3spines_2cables", {{4, 5}, {1, 3}, {1, 2}}},
};

// scheme_mlid.cc's two-level bound, derived again: r = min(n, w2 p2, 2^lmc)
// source digits, q = floor(w2 p2 / r) destination digits; an up channel
// carries <= ceil(n/r) sources or ceil(n/q) destinations, a down
// channel <= ceil(n/q) destinations or ceil(n/r) sources.
int mlid_derived_bound(const PgftParams& p, int lmc) {
  const int n = p.m[0], leaves = p.m[1], slots = p.w[1] * p.p[1];
  const int r = std::min({n, slots, 1 << lmc}), q = slots / r;
  const int sources = (n + r - 1) / r, destinations = (n + q - 1) / q;
  return std::max(std::min(sources, (leaves - 1) * destinations), std::min(destinations, (leaves - 1) * sources));
}

class MlidPgft : public ::testing::TestWithParam<std::tuple<PgftCase, int>> {};

TEST_P(MlidPgft, KeepsTheDerivedBound) {
  const auto& [pgft, lmc] = GetParam();
  const Routed routed = mlid(generated(generate_pgft(pgft.params)), lmc);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  expect_derived_bound(routed, mlid_derived_bound(pgft.params, lmc));
}

INSTANTIATE_TEST_SUITE_P(Pgft, MlidPgft,
                         ::testing::Combine(::testing::ValuesIn(kTwoLevelPgfts), ::testing::Values(0, 1, 2, 4)),
                         [](const auto& info) {
                           return std::get<0>(info.param).name + "_lmc" + std::to_string(std::get<1>(info.param));
                         });

// The LMC a PGFT needs counts parallel cables as up slots: min(m_l, w_{l+1}
// p_{l+1}) values per level, min(3, 2*2) x min(4, 3*1) = 9 classes on
// PGFT(3; 3,4,2; 1,2,3; 1,2,1): LMC 4.
TEST(Mlid, ThreeLevelPgftWithParallelCables) {
  const Routed routed = mlid(generated(generate_pgft({{3, 4, 2}, {1, 2, 3}, {1, 2, 1}})), 4);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_EQ(routed.routing.lmc_needed, 4);
  expect_routes_everything(routed);
}

// Three failed cables of a PGFT with parallel cables: entries on them move,
// every pair still goes a shortest up/down way.
TEST(Mlid, DegradedPgftWithParallelCablesStillRoutesEveryPair) {
  expect_degraded_pgft_routes_every_pair(*make_mlid_scheme(), {{24, 4}, {1, 2}, {1, 6}}, 2);
}

}  // namespace
}  // namespace ftclos
