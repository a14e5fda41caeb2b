#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "audit/path_trace.h"
#include "gen/generate.h"
#include "schemes/schemes.h"
#include "paths/updown_reach.h"
#include "routing_checks.h"

namespace ftclos {
namespace {

Fabric ft8_2() { return generated(generate_ftree(8, 2)); }
Fabric ft8_3() { return generated(generate_ftree(8, 3)); }
Fabric kary4_3() { return generated(generate_kary(4, 3)); }
Fabric rfc() { return generated(generate_rfc(8, 16, 3, 1)); }

struct MultipathCase {
  FabricCase fabric;
  int lmc_needed;  // ceil(log2(top switches))
};

const MultipathCase kFull[] = {
    {{"ft8_2", ft8_2}, 2},
    {{"ft8_3", ft8_3}, 4},
    {{"kary4_3", kary4_3}, 4},
    {{"clos2_3_9_10", [] { return generated(generate_clos2(3, 9, 10)); }}, 4},
    {{"pgft_parallel",
      [] {
        return generated(generate_pgft({{4, 4}, {1, 2}, {1, 2}}));
      }},
     1},
    {{"rfc8_16_3", rfc}, 3},
};

class MultipathFull : public ::testing::TestWithParam<std::tuple<MultipathCase, int>> {};

TEST_P(MultipathFull, DeliversEveryPairMinimallyUpDown) {
  const auto& [c, lmc] = GetParam();
  const Routed routed = route_fabric(*make_multipath_scheme(), c.fabric.make(), lmc);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  expect_all_pairs_delivered(routed, {.up_down = true, .minimal = true});
  expect_lfts_filled(routed);
  expect_switch_lids_reachable(routed);
  EXPECT_EQ(routed.routing.lmc_needed, c.lmc_needed);
  // Beside the notes of switches' own traffic (schemes/switch_traffic.h, and
  // on a random Clos the SLs of its turns), where roots miss a leaf.
  const long notes = std::ranges::count_if(routed.routing.notes, [](const std::string& note) {
    return note.find("so that every switch reaches every LID") == std::string::npos &&
           note.find("some switch's own route turns") == std::string::npos;
  });
  EXPECT_EQ(notes == 0, lmc >= c.lmc_needed);
  expect_repair_moves_only_switch_routes(routed);
}

INSTANTIATE_TEST_SUITE_P(Schemes, MultipathFull,
                         ::testing::Combine(::testing::ValuesIn(kFull), ::testing::Values(0, 2, 4)),
                         [](const auto& info) {
                           return std::get<0>(info.param).fabric.name + "_" + std::to_string(std::get<1>(info.param));
                         });

// The switch where a path turns down: its highest.
int turning_switch(const Levels& levels, const Trace& path) {
  int top = path.hops.front().node;
  for (const PortRef hop : path.hops)
    if (levels.of[hop.node] > levels.of[top]) top = hop.node;
  return top;
}

// OMRMN on FT(m,n): a pair whose lowest common ancestors are at level L has
// X = (m/2)^(L-1) shortest paths (Property 3), one per turning switch. The
// 2^lmc offsets use min(2^lmc, X) of them, each as often as any other (±1).
void expect_offsets_spread(const Routed& routed, int half_radix) {
  const Fabric& fabric = routed.fabric;
  const Levels& levels = routed.detection.levels;
  const int offsets = routed.lids.lids_per_ca();
  std::map<std::pair<int, int>, int> paths_between;  // by leaf pair
  for (int s = 0; s < fabric.size(); ++s) {
    if (fabric.node(s).is_switch()) continue;
    for (int d = 0; d < fabric.size(); ++d) {
      if (fabric.node(d).is_switch() || d == s) continue;
      auto [known, added] = paths_between.try_emplace({leaf_of(fabric, s), leaf_of(fabric, d)}, 1);
      if (added) {
        const int level = common_ancestor_level(fabric, levels, known->first.first, known->first.second);
        for (int i = 1; i < level; ++i) known->second *= half_radix;
      }
      const int paths = known->second;
      std::map<int, int> uses;  // per turning switch
      for (int o = 0; o < offsets; ++o) {
        const Trace path = trace(fabric, routed.lids, routed.routing.lfts, s, routed.lids.base[d] + o);
        ASSERT_EQ(path.outcome, Trace::Outcome::kDelivered);
        ++uses[turning_switch(levels, path)];
      }
      const auto [least, most] = std::minmax_element(uses.begin(), uses.end(),
                                                     [](const auto& a, const auto& b) { return a.second < b.second; });
      EXPECT_EQ(static_cast<int>(uses.size()), std::min(offsets, paths))
          << fabric.node(s).name << " -> " << fabric.node(d).name;
      EXPECT_LE(most->second - least->second, 1) << fabric.node(s).name << " -> " << fabric.node(d).name;
    }
  }
}

// FT(8,2) has 4 spines: with LMC 2 the 4 LIDs of a destination on another
// leaf reach it through 4 distinct spines, from every source.
TEST(Multipath, FourOffsetsUseFourSpines) {
  const Routed routed = route_fabric(*make_multipath_scheme(), ft8_2(), 2);
  ASSERT_TRUE(routed.status.ok());
  expect_offsets_spread(routed, 4);
}

class MultipathSpread : public ::testing::TestWithParam<int> {};

TEST_P(MultipathSpread, OffsetsSpreadEvenlyOverShortestPaths) {
  const Routed routed = route_fabric(*make_multipath_scheme(), ft8_3(), GetParam());
  ASSERT_TRUE(routed.status.ok());
  expect_offsets_spread(routed, 4);
}

INSTANTIATE_TEST_SUITE_P(Schemes, MultipathSpread, ::testing::Values(0, 1, 2, 3, 4));

class MultipathDegraded : public ::testing::TestWithParam<std::tuple<FabricCase, int>> {};

TEST_P(MultipathDegraded, DeliversWhereUpDownPathsRemain) {
  const auto& [maker, fail_links] = GetParam();
  Fabric fabric = maker.make();
  ASSERT_TRUE(degrade(fabric, {fail_links, -1, 5}).ok());
  const Routed routed = route_fabric(*make_multipath_scheme(), std::move(fabric), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  expect_all_pairs_delivered(routed, {.up_down = true, .minimal = true});
  expect_lfts_filled(routed);
  expect_switch_lids_reachable(routed);
}

INSTANTIATE_TEST_SUITE_P(
    Schemes, MultipathDegraded,
    ::testing::Combine(::testing::Values(FabricCase{"ft8_3", ft8_3}, FabricCase{"kary4_3", kary4_3},
                                         FabricCase{"rfc8_16_3", rfc}),
                       ::testing::Values(3, 4, 5, 6)),
    [](const auto& info) { return std::get<0>(info.param).name + "_" + std::to_string(std::get<1>(info.param)); });

}  // namespace
}  // namespace ftclos
