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

Routed osrm(Fabric fabric, int lmc) { return route_fabric(*make_osrm_scheme(), std::move(fabric), lmc); }


struct Lemma9Case {
  int ports, levels;
  int lmc;    // what the scheme needs: ceil(log2(source groups))
  int bound;  // X
};

class OsrmLemma9 : public ::testing::TestWithParam<Lemma9Case> {};

// Theorems 6 and 7 through Lemma 9: every channel carries traffic from at
// most X sources or to at most X destinations, X = sqrt(m/2) (rounded up
// where it is no integer) on FT(m,2) and m/2 on FT(m,3); the busiest channel
// reaches X.
TEST_P(OsrmLemma9, EveryChannelCarriesFewSourcesOrFewDestinations) {
  const Lemma9Case c = GetParam();
  const Routed routed = osrm(generated(generate_ftree(c.ports, c.levels)), c.lmc);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_EQ(routed.routing.lmc_needed, c.lmc);
  EXPECT_TRUE(notes_mention(routed.routing, "Lemma 9"));
  EXPECT_EQ(busiest_channel(channel_uses(routed)), c.bound);
  expect_routes_everything(routed);
}

INSTANTIATE_TEST_SUITE_P(Yuan, OsrmLemma9,
                         ::testing::Values(Lemma9Case{8, 2, 1, 2}, Lemma9Case{32, 2, 2, 4}, Lemma9Case{12, 2, 2, 3},
                                           Lemma9Case{8, 3, 2, 4}, Lemma9Case{16, 3, 3, 8}),
                         [](const auto& info) {
                           return "FT" + std::to_string(info.param.ports) + "_" + std::to_string(info.param.levels);
                         });

// OSRM2 (Fig. 9 as rebuilt from the prose): host (s0,s1) reaches (d0,d1) on
// another leaf through top switch (s1/N_s)*Z_d + d1/N_d, and p(s) = s1/N_s.
// FT(12,2): m/2 = 6, Z_s = 3 groups of N_s = 2, Z_d = 2 groups of N_d = 3.
TEST(Osrm, Osrm2PicksTopSwitchBySourceAndDestinationGroup) {
  const Routed routed = osrm(generated(generate_ftree(12, 2)), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_TRUE(notes_mention(routed.routing, "3 source groups of 2, 2 destination groups of 3"));
  const Fabric& fabric = routed.fabric;
  const std::vector<std::vector<int>>& label = routed.detection.xgft->digits;
  for (int s = 0; s < fabric.size(); ++s) {
    if (fabric.node(s).is_switch()) continue;
    EXPECT_EQ(routed.routing.path_bits[s], label[s][0] / 2);
    for (int d = 0; d < fabric.size(); ++d) {
      if (fabric.node(d).is_switch() || label[s][1] == label[d][1]) continue;
      const Trace path =
          trace(fabric, routed.lids, routed.routing.lfts, s, routed.lids.base[d] + routed.routing.path_bits[s]);
      ASSERT_EQ(path.hops.size(), 4u);
      EXPECT_EQ(label[fabric.peer(path.hops[1]).node][1], label[s][0] / 2 * 2 + label[d][0] / 3);
    }
  }
}

// OSRM3 (Fig. 10): between sub-trees (s0,s1,s2) -> (d0,d1,d2) crosses
// ((s0,s2),1), top ((s2,d2),0) and ((d0,s2),1); p(s) = s2.
TEST(Osrm, Osrm3CrossesTopSwitchS2D2) {
  const Routed routed = osrm(generated(generate_ftree(8, 3)), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  const Fabric& fabric = routed.fabric;
  const std::vector<std::string>& coords = routed.detection.find(Family::kFtree)->coords;
  const std::vector<std::vector<int>>& label = routed.detection.xgft->digits;
  for (int s = 0; s < fabric.size(); ++s) {
    if (fabric.node(s).is_switch()) continue;
    const int s0 = label[s][2], s2 = label[s][0];
    EXPECT_EQ(routed.routing.path_bits[s], s2);
    for (int d = 0; d < fabric.size(); ++d) {
      const int d0 = label[d][2], d2 = label[d][0];
      if (fabric.node(d).is_switch() || s0 == d0) continue;
      const Trace path =
          trace(fabric, routed.lids, routed.routing.lfts, s, routed.lids.base[d] + routed.routing.path_bits[s]);
      ASSERT_EQ(path.hops.size(), 6u);
      auto at = [&](int hop) { return coords[fabric.peer(path.hops[hop]).node]; };
      EXPECT_EQ(at(1), "((" + std::to_string(s0) + "," + std::to_string(s2) + "),1)");
      EXPECT_EQ(at(2), "((" + std::to_string(s2) + "," + std::to_string(d2) + "),0)");
      EXPECT_EQ(at(3), "((" + std::to_string(d0) + "," + std::to_string(s2) + "),1)");
    }
  }
}

// Any 2-level Clos: ftree(3+6,10) gets 3 source groups of 1 and 2
// destination groups of 2 on its 6 top switches.
TEST(Osrm, Osrm2RoutesAnyTwoLevelClos) {
  const Routed routed = osrm(generated(generate_clos2(3, 6, 10)), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_TRUE(notes_mention(routed.routing, "3 source groups of 1, 2 destination groups of 2"));
  expect_routes_everything(routed);
  EXPECT_EQ(busiest_channel(channel_uses(routed)), 2);
}

// Fewer LIDs than source groups: noted, every pair still routed. OSRM2
// regroups (one source group, destinations alone: 16 sources per up channel
// on FT(32,2)); OSRM3 routes by destination (m-1 = 7 on FT(8,3)).
TEST(Osrm, SmallLmcFallsBackWithANote) {
  const Routed two = osrm(generated(generate_ftree(32, 2)), 0);
  ASSERT_TRUE(two.status.ok()) << two.status.message();
  EXPECT_TRUE(notes_mention(two.routing, "OSRM2 wants 4 source groups (LMC 2), LMC 0 allows 1"));
  EXPECT_EQ(busiest_channel(channel_uses(two)), 16);
  for (int lmc : {0, 1}) {
    const Routed three = osrm(generated(generate_ftree(8, 3)), lmc);
    ASSERT_TRUE(three.status.ok()) << three.status.message();
    EXPECT_TRUE(notes_mention(three.routing, "routed by destination only"));
    expect_routes_everything(three);
    EXPECT_EQ(busiest_channel(channel_uses(three)), 7);
  }
}

// Ports come from cables and labels, not from a port pattern: a shuffled
// FT(8,3) keeps the guarantee.
TEST(Osrm, ShuffledPortsKeepTheGuarantee) {
  const Routed routed = osrm(shuffle(generated(generate_ftree(8, 3)), 7, true), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  expect_routes_everything(routed);
  EXPECT_EQ(busiest_channel(channel_uses(routed)), 4);
}

class OsrmDegraded : public ::testing::TestWithParam<std::tuple<FabricCase, uint64_t>> {};

// Three failed cables: entries on them are moved, every pair still goes a
// shortest up/down way.
TEST_P(OsrmDegraded, StillRoutesEveryPairUpDown) {
  const auto& [fabric_case, seed] = GetParam();
  Fabric fabric = fabric_case.make();
  ASSERT_TRUE(degrade(fabric, {3, -1, seed}).ok());
  const Routed routed = osrm(std::move(fabric), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_GT(routed.routing.rerouted, 0);
  expect_routes_everything(routed);
}

const FabricCase kDegradable[] = {
    {"ft8_2", [] { return generated(generate_ftree(8, 2)); }},
    {"ft12_2", [] { return generated(generate_ftree(12, 2)); }},
    {"ft8_3", [] { return generated(generate_ftree(8, 3)); }},
};

INSTANTIATE_TEST_SUITE_P(Yuan, OsrmDegraded,
                         ::testing::Combine(::testing::ValuesIn(kDegradable), ::testing::Values(1u, 2u, 3u)),
                         [](const auto& info) {
                           return std::get<0>(info.param).name + "_" + std::to_string(std::get<1>(info.param));
                         });

// ---- OSRM2 on 2-level PGFTs: parallel cables, oversubscribed leaves ----

struct PgftCase {
  std::string name;
  PgftParams params;
};

// 4 leaves of 24 hosts, 2 spines, 6 cables per leaf-spine pair: 36-port EDR
// switches at 2:1 (the cluster of issue #12).
const PgftParams kEdrLike{{24, 4}, {1, 2}, {1, 6}};

const PgftCase kTwoLevelPgfts[] = {
    {"edr_24x4_2spines_6cables", kEdrLike},
    {"pgft_6x8_2spines_3cables", {{6, 8}, {1, 2}, {1, 3}}},   // nonblocking leaves, parallel cables
    {"pgft_8x6_2spines_2cables", {{8, 6}, {1, 2}, {1, 2}}},   // 2:1
    {"pgft_9x10_3spines_1cable", {{9, 10}, {1, 3}, {1, 1}}},  // 3:1, single cables
    {"pgft_4x5_3spines_2cables", {{4, 5}, {1, 3}, {1, 2}}},   // more slots than hosts
};

// The bound of scheme_osrm.cc's header, derived again here: with T = w2 p2
// top slots, R leaves of n hosts and Z_s <= 2^lmc source groups, the best
// split Z_s x floor(T/Z_s) bounds every channel by Lemma 9.
int osrm2_derived_bound(const PgftParams& p, int lmc) {
  const int n = p.m[0], leaves = p.m[1], slots = p.w[1] * p.p[1];
  int best = n;
  for (int zs = 1; zs <= std::min({n, slots, 1 << lmc}); ++zs) {
    const int zd = std::min(n, slots / zs), ns = (n + zs - 1) / zs, nd = (n + zd - 1) / zd;
    best = std::min(best, std::max(std::min(ns, (leaves - 1) * nd), std::min(nd, (leaves - 1) * ns)));
  }
  return best;
}

class OsrmPgft : public ::testing::TestWithParam<std::tuple<PgftCase, int>> {};

// Parallel cables are extra top switches and leaves with fewer up slots than
// hosts are routed too; every pair arrives, and the auditor's exact worst
// case stays within the derived bound.
TEST_P(OsrmPgft, KeepsTheDerivedBound) {
  const auto& [pgft, lmc] = GetParam();
  const Routed routed = osrm(generated(generate_pgft(pgft.params)), lmc);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  expect_derived_bound(routed, osrm2_derived_bound(pgft.params, lmc));
}

INSTANTIATE_TEST_SUITE_P(Pgft, OsrmPgft,
                         ::testing::Combine(::testing::ValuesIn(kTwoLevelPgfts), ::testing::Values(0, 1, 2, 3)),
                         [](const auto& info) {
                           return std::get<0>(info.param).name + "_lmc" + std::to_string(std::get<1>(info.param));
                         });

// On the EDR-like fabric no routing by LFTs beats 6 at LMC 2: 4 path-bit
// values leave >= 6 hosts of a leaf on one value, and their 72 off-leaf
// destinations take 12 up channels, >= 6 of them one channel: 6 x 6 pairs
// there. OSRM reaches that floor (with destination groups only, LMC 0); the
// other schemes stay at or above it.
TEST(Osrm, EdrLikeReachesTheFloorOfLmc2) {
  const int n = 24, hosts = 96, slots = 12, lids = 4;
  const int least = std::min((n + lids - 1) / lids, (hosts - n + slots - 1) / slots);
  const Routed routed = osrm(generated(generate_pgft(kEdrLike)), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_EQ(routed.routing.lmc_needed, 0);
  EXPECT_TRUE(notes_mention(routed.routing, "1 source groups of 24, 12 destination groups of 2"));
  EXPECT_EQ(exact_worst_case(routed), least);
  for (auto make : {make_dmodk_scheme, make_mlid_scheme, make_nonblocking_scheme}) {
    const Routed other = route_fabric(*make(), generated(generate_pgft(kEdrLike)), 2);
    ASSERT_TRUE(other.status.ok()) << other.status.message();
    EXPECT_GE(exact_worst_case(other), least) << make()->name();
  }
}

// More leaves give dmodk more off-leaf destinations per up slot: on 8
// leaves of 24 hosts with 4 spines and 3 cables each, dmodk's up channels
// carry (192-24)/12 = 14 destinations from 24 sources, and OSRM2's 4 x 3
// groups at LMC 2 stay within max(min(6, 7*8), min(8, 7*6)) = 8.
TEST(Osrm, Lmc2BeatsDmodkOnEightOversubscribedLeaves) {
  const PgftParams eight{{24, 8}, {1, 4}, {1, 3}};
  const Routed routed = osrm(generated(generate_pgft(eight)), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  const Routed dmodk = route_fabric(*make_dmodk_scheme(), generated(generate_pgft(eight)), 0);
  ASSERT_TRUE(dmodk.status.ok()) << dmodk.status.message();
  EXPECT_EQ(exact_worst_case(dmodk), 14);
  EXPECT_LE(exact_worst_case(routed), osrm2_derived_bound(eight, 2));
  EXPECT_LT(exact_worst_case(routed), exact_worst_case(dmodk));
}

// Three failed cables of a PGFT with parallel cables: entries on them move,
// every pair still goes a shortest up/down way.
TEST(Osrm, DegradedPgftWithParallelCablesStillRoutesEveryPair) {
  expect_degraded_pgft_routes_every_pair(*make_osrm_scheme(), kEdrLike, 2);
}

// OSRM2 and OSRM3 cover two levels and FT(m,3); a 4-level tree or a 3-level
// k-ary tree is refused with the reason.
TEST(Osrm, RefusesOtherTrees) {
  for (Fabric fabric : {generated(generate_ftree(4, 4)), generated(generate_kary(2, 3))}) {
    const Routed routed = osrm(std::move(fabric), 2);
    EXPECT_FALSE(routed.status.ok());
    EXPECT_NE(routed.status.message().find("OSRM3 FT(m,3)"), std::string::npos) << routed.status.message();
  }
}

}  // namespace
}  // namespace ftclos
