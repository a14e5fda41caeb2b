#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>

#include "detect/levels.h"
#include "gen/generate.h"
#include "route/schemes.h"
#include "route/updown_reach.h"
#include "routing_checks.h"

namespace ftclos {
namespace {

Fabric ft8_3() { return generated(generate_ftree(8, 3)); }
Fabric rfc() { return generated(generate_rfc(8, 16, 3, 1)); }

const FabricCase kFull[] = {
    {"ft8_2", [] { return generated(generate_ftree(8, 2)); }},
    {"ft8_3", ft8_3},
    {"kary4_3", [] { return generated(generate_kary(4, 3)); }},
    {"clos2_3_9_10", [] { return generated(generate_clos2(3, 9, 10)); }},
    {"pgft_parallel",
     [] {
       return generated(generate_pgft({{4, 4}, {1, 2}, {1, 2}}));
     }},
    {"pgft3_parallel",
     [] {
       return generated(generate_pgft({{2, 2, 2}, {1, 2, 1}, {1, 1, 2}}));
     }},
    {"rfc8_16_3", rfc},
};

std::string case_name(const ::testing::TestParamInfo<std::tuple<FabricCase, int>>& info) {
  return std::get<0>(info.param).name + "_" + std::to_string(std::get<1>(info.param));
}

class UpDownFull : public ::testing::TestWithParam<std::tuple<FabricCase, int>> {};

// Full trees and the random Clos: every pair delivered on a shortest up/down path.
TEST_P(UpDownFull, DeliversEveryPairMinimallyUpDown) {
  const auto& [fabric, lmc] = GetParam();
  const Routed routed = route_fabric(*make_updown_scheme(), fabric.make(), lmc);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  ASSERT_TRUE(routed.detection.updown_routable);
  expect_all_pairs_delivered(routed, {.up_down = true, .minimal = true});
  expect_lfts_filled(routed);
  expect_switch_lids_reachable(routed);
  EXPECT_EQ(routed.routing.lmc_needed, 0);
}

INSTANTIATE_TEST_SUITE_P(Schemes, UpDownFull, ::testing::Combine(::testing::ValuesIn(kFull), ::testing::Values(0, 2)),
                         case_name);

// Every leaf spreads the CA LIDs of other leaves over its up ports evenly
// (LID order, least loaded first): the loads differ by at most one.
TEST(UpDown, LeafUpPortsCarryEvenLoads) {
  const Routed routed = route_fabric(*make_updown_scheme(), ft8_3(), 1);
  ASSERT_TRUE(routed.status.ok());
  const Fabric& fabric = routed.fabric;
  for (int leaf = 0; leaf < fabric.size(); ++leaf) {
    if (!fabric.node(leaf).is_switch() || routed.detection.levels.of[leaf] != 1) continue;
    std::vector<int> load(fabric.node(leaf).num_ports + 1, 0);
    for (int lid = 1; lid <= routed.lids.max_lid; ++lid) {
      const int owner = routed.lids.owner[lid];
      if (owner < 0 || fabric.node(owner).is_switch() || leaf_of(fabric, owner) == leaf) continue;
      ++load[routed.routing.lfts.at(leaf, lid)];
    }
    std::vector<int> up;
    for (int p = 1; p <= fabric.node(leaf).num_ports; ++p)
      if (direction(fabric, routed.detection.levels, {leaf, p}) == Direction::kUp) up.push_back(load[p]);
    ASSERT_EQ(up.size(), 4u);
    EXPECT_LE(*std::max_element(up.begin(), up.end()) - *std::min_element(up.begin(), up.end()), 1)
        << fabric.node(leaf).name;
  }
}

// Port numbers and node order come from the cables, not a generator's pattern.
TEST(UpDown, ShuffledPortsAndNodes) {
  const Routed routed = route_fabric(*make_updown_scheme(), shuffle(ft8_3(), 7, true), 0);
  ASSERT_TRUE(routed.status.ok());
  expect_all_pairs_delivered(routed, {.up_down = true, .minimal = true});
  expect_lfts_filled(routed);
}

TEST(UpDown, RepairFindsNothingToChange) {
  Routed routed = route_fabric(*make_updown_scheme(), rfc(), 1);
  ASSERT_TRUE(routed.status.ok());
  EXPECT_EQ(repair_dead_ports(routed.input(), routed.routing), 0);
  EXPECT_EQ(routed.routing.rerouted, 0);
}

class UpDownDegraded : public ::testing::TestWithParam<std::tuple<FabricCase, int>> {};

TEST_P(UpDownDegraded, DeliversWhereUpDownPathsRemain) {
  const auto& [maker, fail_links] = GetParam();
  Fabric fabric = maker.make();
  ASSERT_TRUE(degrade(fabric, {fail_links, -1, 11}).ok());
  const Routed routed = route_fabric(*make_updown_scheme(), std::move(fabric), 1);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  expect_all_pairs_delivered(routed, {.up_down = true, .minimal = true});
  expect_lfts_filled(routed);
  expect_switch_lids_reachable(routed);
}

INSTANTIATE_TEST_SUITE_P(Schemes, UpDownDegraded,
                         ::testing::Combine(::testing::Values(FabricCase{"ft8_3", ft8_3}, FabricCase{"rfc8_16_3", rfc}),
                                            ::testing::Values(3, 4, 5, 6)),
                         case_name);

}  // namespace
}  // namespace ftclos
