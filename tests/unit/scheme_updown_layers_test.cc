// The updown-layers scheme (schemes/scheme_updown_layers.cc): up*/down* in
// one order per VL. The auditor, reading the routing's SLs (SL k on VL k),
// finds every pair delivered, no loop and no credit loop on any VL, with
// the switches' own routes too; where one root set crowds the floor, the
// spread orders lower the worst case; on one VL it is the floor.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "detect/star_roots.h"
#include "paths/updown_star.h"
#include "schemes/schemes.h"
#include "routing_checks.h"

namespace ftclos {
namespace {

const FabricCase kFabrics[] = {
    {"ring8", [] { return generated(generate_ring(8, 2)); }},
    {"torus4x4", [] { return generated(generate_torus(4, 4, 2)); }},
    {"torus3x3x3", [] { return generated(generate_torus(3, 3, 2, 3)); }},
    {"hypercube4", [] { return generated(generate_hypercube(4, 2)); }},
    {"dragonfly5x3", [] { return generated(generate_dragonfly(5, 3, 2)); }},
};

class UpDownLayersOnAnyFabric : public ::testing::TestWithParam<FabricCase> {};

TEST_P(UpDownLayersOnAnyFabric, DeliversEveryPairWithoutCreditLoopsOnAnyVl) {
  const Routed routed = route_fabric(*make_updown_layers_scheme(), GetParam().make(), 0);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  const Correctness c = audit_on_sls(routed, routed.routing.dest_sl);
  const int cas = routed.fabric.count(NodeType::kCa);
  EXPECT_EQ(c.pairs, long{cas} * (cas - 1));
  EXPECT_EQ(c.unreachable + c.loops + c.credit_loops, 0) << ::testing::PrintToString(c.examples);
  EXPECT_EQ(c.switch_credit_loops, 0) << ::testing::PrintToString(c.examples);
  const std::vector<uint8_t>& sls = routed.routing.dest_sl;
  EXPECT_LT(sls.empty() ? 0 : *std::ranges::max_element(sls), kDefaultDataVls);
  expect_switch_lids_reachable(routed);
}

// On one VL there is one order, the floor's: the very same tables.
TEST_P(UpDownLayersOnAnyFabric, OnOneVlTheFloorsTables) {
  Routed floor = route_fabric(*make_updown_star_scheme(), GetParam().make(), 0);
  ASSERT_TRUE(floor.status.ok());
  RoutingInput input = floor.input();
  input.data_vls = 1;
  Result<Routing> one = make_updown_layers_scheme()->route(input);
  ASSERT_TRUE(one.ok()) << one.status().message();
  EXPECT_TRUE(one->dest_sl.empty());
  EXPECT_EQ(one->lfts.port, floor.routing.lfts.port);
}

INSTANTIATE_TEST_SUITE_P(Fabrics, UpDownLayersOnAnyFabric, ::testing::ValuesIn(kFabrics),
                         [](const auto& info) { return info.param.name; });

// The floor crowds the cables near its root; the 4x4 torus's, the
// hypercube's and the dragonfly's destinations spread over 8 orders do better.
TEST(UpDownLayersWorstCase, BelowTheFloorWhereOneRootCrowds) {
  for (const FabricCase& fabric : {kFabrics[1], kFabrics[3], kFabrics[4]}) {
    const Routed floor = route_fabric(*make_updown_star_scheme(), fabric.make(), 0);
    const Routed spread = route_fabric(*make_updown_layers_scheme(), fabric.make(), 0);
    ASSERT_TRUE(floor.status.ok() && spread.status.ok());
    EXPECT_LT(exact_worst_case(spread), exact_worst_case(floor)) << fabric.name;
  }
}

// A folded Clos, cables inside a level or storage on level 2 included, is
// the folded-Clos schemes' (updown: one VL), as auto leaves it.
TEST(UpDownLayersApplies, NotWhereEveryPairOfLeavesSharesAnAncestor) {
  Fabric io2 = generated(generate_ftree(8, 3));
  ASSERT_TRUE(vary(io2, {.io_hosts = 2, .io_level = 2}).ok());
  for (const Fabric& fabric : {with_level_cables(generated(generate_ftree(8, 3)), 6, 2), io2}) {
    const Routed routed = route_fabric(*make_updown_layers_scheme(), fabric, 0);
    ASSERT_FALSE(routed.status.ok());
    EXPECT_NE(routed.status.message().find("shares an ancestor"), std::string::npos) << routed.status.message();
  }
}

// up*/down* for some LIDs only (each order's second pass): the others keep
// kNoPath, the marked ones are delivered.
TEST(UpDownStarForSomeLids, TheOthersKeepNoPath) {
  const Routed floor = route_fabric(*make_updown_star_scheme(), kFabrics[4].make(), 0);
  ASSERT_TRUE(floor.status.ok());
  std::vector<bool> routed(floor.lids.max_lid + 1, false);
  for (int lid = 1; lid <= floor.lids.max_lid; lid += 2) routed[lid] = true;
  Result<Routing> some = route_updown_star(floor.input(), routed);
  ASSERT_TRUE(some.ok()) << some.status().message();
  for (int x = 0; x < floor.fabric.size(); ++x) {
    if (!floor.fabric.node(x).is_switch()) continue;
    for (int lid = 1; lid <= floor.lids.max_lid; ++lid)
      EXPECT_EQ(some->lfts.port[x][lid] == kNoPath, !routed[lid]) << floor.fabric.node(x).name << " LID " << lid;
  }
}

// Each further order's roots lie as far from those before as any switch of
// their level: on the 4x4 torus the second root is 4 hops from the first.
TEST(SpreadStarRoots, EachFurtherRootFarthestFromThoseBefore) {
  const Fabric fabric = generated(generate_torus(4, 4, 2));
  const Detection detection = detect(fabric);
  const std::vector<StarRoots> orders = spread_star_roots(fabric, detection.levels, detection.star, 4);
  ASSERT_EQ(orders.size(), 4u);
  EXPECT_EQ(orders[0].roots, detection.star.roots);
  ASSERT_EQ(orders[1].roots.size(), 1u);
  EXPECT_EQ(orders[0].rank[orders[1].roots[0]], 4) << "a 4x4 torus's diameter";
  for (size_t a = 0; a < orders.size(); ++a)
    for (size_t b = a + 1; b < orders.size(); ++b) EXPECT_NE(orders[a].roots, orders[b].roots);
}

}  // namespace
}  // namespace ftclos
