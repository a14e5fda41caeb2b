#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "audit/path_trace.h"
#include "audit/worst_case.h"
#include "core/workers.h"
#include "gen/generate.h"
#include "schemes/schemes.h"
#include "paths/updown_reach.h"
#include "routing_checks.h"

namespace ftclos {
namespace {

Fabric ft8_2() { return generated(generate_ftree(8, 2)); }
Fabric ft8_3() { return generated(generate_ftree(8, 3)); }
Fabric kary4_3() { return generated(generate_kary(4, 3)); }
Fabric clos2() { return generated(generate_clos2(3, 9, 10)); }
Fabric pgft_parallel() { return generated(generate_pgft({{4, 4}, {1, 2}, {1, 2}})); }
Fabric pgft3_parallel() { return generated(generate_pgft({{2, 2, 2}, {1, 2, 1}, {1, 1, 2}})); }

const FabricCase kFull[] = {
    {"ft8_2", ft8_2},
    {"ft8_3", ft8_3},
    {"kary4_3", kary4_3},
    {"clos2_3_9_10", clos2},
    {"pgft_parallel", pgft_parallel},
    {"pgft3_parallel", pgft3_parallel},
    {"ft8_3_shuffled", [] { return shuffle(ft8_3(), 3, true); }},
};

std::string case_name(const ::testing::TestParamInfo<std::tuple<FabricCase, int>>& info) {
  return std::get<0>(info.param).name + "_" + std::to_string(std::get<1>(info.param));
}

class DmodkFull : public ::testing::TestWithParam<std::tuple<FabricCase, int>> {};

TEST_P(DmodkFull, DeliversEveryPairMinimallyUpDown) {
  const auto& [fabric, lmc] = GetParam();
  const Routed routed = route_fabric(*make_dmodk_scheme(), fabric.make(), lmc);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  expect_all_pairs_delivered(routed, {.up_down = true, .minimal = true});
  expect_lfts_filled(routed);
  expect_switch_lids_reachable(routed);
  EXPECT_EQ(routed.routing.rerouted, 0) << "repair changed a full tree";
}

INSTANTIATE_TEST_SUITE_P(Schemes, DmodkFull, ::testing::Combine(::testing::ValuesIn(kFull), ::testing::Values(0, 2)),
                         case_name);

// Which destination hosts (base LIDs) every down channel carries, and which
// down channels each destination uses per level, over all source CAs. A down
// channel is a switch egress port cabled to a lower switch.
struct DownChannels {
  std::map<PortRef, std::set<int>> destinations;
  std::map<std::pair<int, int>, std::set<PortRef>> by_destination_level;  // (destination, level of the upper switch)
  int channels_in_fabric = 0;
};

DownChannels down_channels(const Routed& routed) {
  const Fabric& fabric = routed.fabric;
  const Levels& levels = routed.detection.levels;
  DownChannels out;
  for (int x = 0; x < fabric.size(); ++x)
    for (int p = 1; p <= fabric.node(x).num_ports && fabric.node(x).is_switch(); ++p) {
      const PortRef peer = fabric.peer({x, p});
      out.channels_in_fabric +=
          peer.valid() && fabric.node(peer.node).is_switch() && levels.of[peer.node] < levels.of[x];
    }
  for (int d = 0; d < fabric.size(); ++d) {
    if (fabric.node(d).is_switch()) continue;
    for (int s = 0; s < fabric.size(); ++s) {
      if (fabric.node(s).is_switch() || s == d) continue;
      for (const PortRef hop : trace(fabric, routed.lids, routed.routing.lfts, s, routed.lids.base[d]).hops) {
        const PortRef peer = fabric.peer(hop);
        if (!peer.valid() || !fabric.node(hop.node).is_switch() || !fabric.node(peer.node).is_switch() ||
            levels.of[peer.node] > levels.of[hop.node])
          continue;
        out.destinations[hop].insert(d);
        out.by_destination_level[{d, levels.of[hop.node]}].insert(hop);
      }
    }
  }
  return out;
}

class DmodkDownChannels : public ::testing::TestWithParam<std::tuple<FabricCase, bool>> {};

// Theorem 2.1 of drb-ttc, as it holds on these trees: the down path of a
// destination does not depend on the source (one channel per level), so
// channels at one level carry disjoint destination sets, and each channel
// carries one destination. Where every switch has as many up ports as hosts
// below it (FT, k-ary, these PGFTs) every down channel is used, exactly once.
TEST_P(DmodkDownChannels, OneDestinationPerChannel) {
  const auto& [maker, every_channel_used] = GetParam();
  const Routed routed = route_fabric(*make_dmodk_scheme(), maker.make(), 0);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  const DownChannels channels = down_channels(routed);
  ASSERT_FALSE(channels.destinations.empty());
  for (const auto& [key, used] : channels.by_destination_level)
    EXPECT_EQ(used.size(), 1u) << routed.fabric.node(key.first).name << " level " << key.second;
  for (const auto& [channel, destinations] : channels.destinations)
    EXPECT_EQ(destinations.size(), 1u) << routed.fabric.node(channel.node).name << "[" << channel.port << "]";
  if (every_channel_used) {
    EXPECT_EQ(static_cast<int>(channels.destinations.size()), channels.channels_in_fabric);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Schemes, DmodkDownChannels,
    ::testing::Values(std::make_tuple(FabricCase{"ft8_2", ft8_2}, true),
                      std::make_tuple(FabricCase{"ft8_3", ft8_3}, true),
                      std::make_tuple(FabricCase{"kary4_3", kary4_3}, true),
                      std::make_tuple(FabricCase{"pgft_parallel", pgft_parallel}, true),
                      std::make_tuple(FabricCase{"pgft3_parallel", pgft3_parallel}, true),
                      std::make_tuple(FabricCase{"ft8_3_shuffled", [] { return shuffle(ft8_3(), 5, true); }}, true),
                      std::make_tuple(FabricCase{"clos2_3_9_10", clos2}, false)),
    [](const auto& info) { return std::get<0>(info.param).name; });

// With LMC 2 on FT(8,2) (4 spines), the 4 LIDs of a destination on another
// leaf leave the source leaf by 4 different up ports, so through 4 spines.
TEST(Dmodk, OffsetsTakeDifferentUpPorts) {
  const Routed routed = route_fabric(*make_dmodk_scheme(), ft8_2(), 2);
  ASSERT_TRUE(routed.status.ok());
  const Fabric& fabric = routed.fabric;
  for (int s = 0; s < fabric.size(); ++s) {
    if (fabric.node(s).is_switch()) continue;
    for (int d = 0; d < fabric.size(); ++d) {
      if (fabric.node(d).is_switch() || leaf_of(fabric, d) == leaf_of(fabric, s)) continue;
      std::set<int> spines;
      for (int o = 0; o < 4; ++o) {
        const Trace path = trace(fabric, routed.lids, routed.routing.lfts, s, routed.lids.base[d] + o);
        ASSERT_EQ(path.hops.size(), 4u);
        spines.insert(fabric.peer(path.hops[1]).node);
      }
      EXPECT_EQ(spines.size(), 4u) << fabric.node(s).name << " -> " << fabric.node(d).name;
    }
  }
}

TEST(Dmodk, NeedsPgftLabels) {
  const Routed routed = route_fabric(*make_dmodk_scheme(), generated(generate_rfc(8, 16, 3, 1)), 0);
  EXPECT_FALSE(routed.status.ok());
}

class DmodkDegraded : public ::testing::TestWithParam<std::tuple<FabricCase, int>> {};

TEST_P(DmodkDegraded, RepairedAroundMissingCables) {
  const auto& [maker, fail_links] = GetParam();
  Fabric fabric = maker.make();
  ASSERT_TRUE(degrade(fabric, {fail_links, -1, 7}).ok());
  const Routed routed = route_fabric(*make_dmodk_scheme(), std::move(fabric), 1);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  ASSERT_TRUE(routed.detection.updown_routable);
  expect_all_pairs_delivered(routed, {.up_down = true});
  expect_lfts_filled(routed);
  expect_switch_lids_reachable(routed);
  EXPECT_GT(routed.routing.rerouted, 0);
  RecordProperty("rerouted", routed.routing.rerouted);
}

INSTANTIATE_TEST_SUITE_P(Schemes, DmodkDegraded,
                         ::testing::Combine(::testing::Values(FabricCase{"ft8_3", ft8_3},
                                                              FabricCase{"kary4_3", kary4_3}),
                                            ::testing::Values(3, 4, 5, 6)),
                         case_name);

// Whether the up/down rule lets switch `x` send traffic for CA `owner` out of
// `port`, judged by the test's own reachability reference.
bool rule_allows(const Fabric& fabric, const Levels& levels, int x, int owner, int port) {
  if (port < 1 || port > fabric.node(x).num_ports) return false;
  const int leaf = leaf_of(fabric, owner);
  if (x == leaf) return fabric.peer({x, port}).node == owner;
  const PortRef peer = fabric.peer({x, port});
  if (!peer.valid()) return false;
  const std::vector<bool> down = down_sources(fabric, levels, leaf);
  if (down[x]) return levels.of[peer.node] < levels.of[x] && down[peer.node];
  return levels.of[peer.node] > levels.of[x] && updown_sources(fabric, levels, leaf)[peer.node];
}

// Tables made for the full tree, then cables fail: repair moves exactly the
// entries the rule no longer allows, and the result delivers again.
TEST(Dmodk, RepairMovesOnlyInvalidEntries) {
  Routed full = route_fabric(*make_dmodk_scheme(), ft8_3(), 0);
  ASSERT_TRUE(full.status.ok());
  expect_repair_moves_only_switch_routes(full);

  for (int fail_links : {3, 4, 5, 6}) {
    Routed routed = full;
    ASSERT_TRUE(degrade(routed.fabric, {fail_links, -1, 7}).ok());
    routed.detection = detect(routed.fabric);
    const int moved = repair_dead_ports(routed.input(), routed.routing);
    const auto changed = changed_entries(full.routing.lfts, routed.routing.lfts);
    EXPECT_GT(moved, 0);
    EXPECT_EQ(moved, static_cast<int>(changed.size()));
    EXPECT_EQ(routed.routing.rerouted, moved);
    RecordProperty("moved_" + std::to_string(fail_links), moved);
    for (const auto& [x, lid] : changed) {
      const int owner = routed.lids.owner[lid];
      if (routed.fabric.node(owner).is_switch()) continue;  // switch LIDs may also take shortest-path detours
      EXPECT_FALSE(rule_allows(routed.fabric, routed.detection.levels, x, owner, full.routing.lfts.at(x, lid)))
          << routed.fabric.node(x).name << " LID " << lid << " port " << int{full.routing.lfts.at(x, lid)};
    }
    expect_all_pairs_delivered(routed, {.up_down = true});
    expect_lfts_filled(routed);
  }
}

// Switches' tables are filled on threads (core/workers.h): any count gives
// the same tables, notes and repairs, intact and degraded, one LID or four.
TEST(Dmodk, EveryThreadCountGivesTheSameTables) {
  Fabric degraded = ft8_3();
  ASSERT_TRUE(degrade(degraded, {5, -1, 7}).ok());
  ASSERT_GT(route_fabric(*make_dmodk_scheme(), degraded, 0).routing.rerouted, 0);  // repairs run too
  const std::vector<Fabric> fabrics{ft8_3(), degraded};
  for (size_t f = 0; f < fabrics.size(); ++f)
    for (const int lmc : {0, 2}) {
      SCOPED_TRACE(::testing::Message() << (f == 0 ? "intact" : "degraded") << ", LMC " << lmc);
      const Fabric& fabric = fabrics[f];
      // Unpolished: the threads fill the scheme's tables; the polish after them runs on one.
      set_max_workers(1);
      const Routed one = route_fabric(*make_dmodk_scheme(), fabric, lmc, /*polish=*/false);
      ASSERT_TRUE(one.status.ok());
      for (int workers = 2; workers <= 7; ++workers) {
        set_max_workers(workers);
        const Routed many = route_fabric(*make_dmodk_scheme(), fabric, lmc, /*polish=*/false);
        EXPECT_EQ(many.routing.lfts.port, one.routing.lfts.port) << workers << " threads";
        EXPECT_EQ(many.routing.notes, one.routing.notes) << workers << " threads";
        EXPECT_EQ(many.routing.rerouted, one.routing.rerouted) << workers << " threads";
      }
    }
  set_max_workers(0);
}

// A degraded rail-optimized pod (960 HCAs, 236 ANs, 8 missing cables; too
// large for the contention polish to settle): auto weighs D-mod-k against
// updown and keeps the lower. Since updown's loads count compute traffic
// only, its balance spreads the destinations over the cores as D-mod-k's
// labels do, and then some (16 vs 18; before, 60 vs 20).
TEST(DmodkAuto, OnADegradedPodItChallengesUpdownAndTheLowerIsKept) {
  Result<Superpod> pod = generate_superpod(
      {.units = 10, .servers = 12, .rails = 8, .levels = 3, .spines = 6, .group_units = 5, .radix = 24});
  ASSERT_TRUE(pod.ok()) << pod.status().message();
  ASSERT_TRUE(degrade(pod->fabric, {.fail_links = 8}).ok());
  const Routed updown = route_fabric(*make_updown_scheme(), pod->fabric, 0);
  const Routed dmodk = route_fabric(*make_dmodk_scheme(), pod->fabric, 0);
  ASSERT_TRUE(updown.status.ok() && dmodk.status.ok());
  ASSERT_TRUE(updown.detection.degraded());
  const WorstCaseMeasure measure = exact_worst_case_measure();
  RoutingInput input = updown.input();
  input.worst_case = &measure;
  Result<Routing> chosen = make_auto_scheme()->route(input);
  ASSERT_TRUE(chosen.ok()) << chosen.status().message();
  const std::string notes = ::testing::PrintToString(chosen->notes);
  EXPECT_NE(notes.find("auto passed over dmodk: worst-case contention"), std::string::npos) << notes;
  const double updown_worst = measure(input, updown.routing), dmodk_worst = measure(input, dmodk.routing);
  EXPECT_EQ(measure(input, *chosen), std::min(updown_worst, dmodk_worst));
  EXPECT_LE(updown_worst, dmodk_worst);
}

}  // namespace
}  // namespace ftclos
