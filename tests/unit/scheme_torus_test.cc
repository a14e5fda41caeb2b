// The torus scheme (schemes/scheme_torus.cc): dimension-order routing on
// tori and meshes with an SL per destination. The auditor, reading the
// routing's SLs (SL k on VL k), finds every pair delivered on a shortest
// path, no loop and no credit loop on any VL, on rings, 2D and 3D tori and
// a mesh of several sizes; the same tables on one VL close credit loops
// (the SLs are what keeps them free); on the 4x4 torus with 2 hosts per
// switch the worst case is torus-2QoS's 4, below layered's, and auto takes it.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "audit/audit.h"
#include "audit/worst_case.h"
#include "schemes/schemes.h"
#include "routing_checks.h"

namespace ftclos {
namespace {

// The VLs the auditor finds the unicast routes on (SL k on VL k).
int vls_used(const Correctness& c) { return std::popcount(c.vls_used); }

double worst_case(const Routed& routed) {
  return routing_worst_case(routed.fabric, routed.detection.levels, routed.lids, routed.routing);
}

struct TorusCase {
  std::string name;
  Fabric (*make)();
  int vls;  // 2 ^ (rings of 5 or more), from VL 1
};

const TorusCase kTori[] = {
    {"ring5", [] { return generated(generate_ring(5, 2)); }, 2},
    {"ring8", [] { return generated(generate_ring(8, 2)); }, 2},
    {"ring10", [] { return generated(generate_ring(10, 1)); }, 2},
    {"torus3x3", [] { return generated(generate_torus(3, 3, 2)); }, 1},
    {"torus4x4", [] { return generated(generate_torus(4, 4, 2)); }, 1},
    {"torus3x5", [] { return generated(generate_torus(3, 5, 1)); }, 2},
    {"torus6x4", [] { return generated(generate_torus(6, 4, 1)); }, 2},
    {"torus7x6", [] { return generated(generate_torus(7, 6, 1)); }, 4},
    {"torus3x3x3", [] { return generated(generate_torus(3, 3, 1, 3)); }, 1},
    {"torus4x4x4", [] { return generated(generate_torus(4, 4, 1, 4)); }, 1},
    {"torus3x4x5", [] { return generated(generate_torus(3, 4, 1, 5)); }, 2},
    {"torus6x5x4", [] { return generated(generate_torus(6, 5, 1, 4)); }, 4},
    {"torus5x5x4", [] { return generated(generate_torus(5, 5, 1, 4)); }, 4},
    {"hypercube5", [] { return generated(generate_hypercube(5, 1)); }, 1},
};

class TorusScheme : public ::testing::TestWithParam<TorusCase> {};

TEST_P(TorusScheme, DeliversEveryPairOnShortestPathsWithoutCreditLoopsOnItsSls) {
  const Routed routed = route_fabric(*make_torus_scheme(), GetParam().make(), 0);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  const Correctness c = expect_shortest_and_deadlock_free_on_its_sls(routed);
  EXPECT_EQ(vls_used(c), GetParam().vls);
  EXPECT_FALSE(c.vls_used & 1) << "VL 0 is left to multicast";
  expect_switch_lids_reachable(routed);
}

// The SLs are what keeps the rings free: on one VL the same tables close
// credit loops wherever a ring of 5 or more has its dateline.
TEST_P(TorusScheme, OnOneVlTheSameTablesCloseCreditLoops) {
  const Routed routed = route_fabric(*make_torus_scheme(), GetParam().make(), 0);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  if (GetParam().vls == 1) GTEST_SKIP() << "rings of 3 and 4: no dependency chain round a ring";
  EXPECT_GT(audit_on_sls(routed, {}).credit_loops, 0);
}

INSTANTIATE_TEST_SUITE_P(Fabrics, TorusScheme, ::testing::ValuesIn(kTori),
                         [](const auto& info) { return info.param.name; });

// Issue #35: torus-2QoS meets 4 on the 4x4 torus with 2 hosts per switch,
// layered 8: the torus scheme meets 4 too, on one VL, and auto, weighing
// all three, takes it.
TEST(TorusWorstCase, FourOnTheFourByFourTorusAndAutoTakesIt) {
  const Routed torus = route_fabric(*make_torus_scheme(), generated(generate_torus(4, 4, 2)), 0);
  const Routed layered = route_fabric(*make_layered_scheme(), generated(generate_torus(4, 4, 2)), 0);
  ASSERT_TRUE(torus.status.ok() && layered.status.ok());
  EXPECT_LE(worst_case(torus), 4);
  EXPECT_EQ(vls_used(audit_on_sls(torus, torus.routing.dest_sl)), 1);
  EXPECT_LT(worst_case(torus), worst_case(layered));
  const WorstCaseMeasure measure = exact_worst_case_measure();
  RoutingInput input = torus.input();
  input.worst_case = &measure;
  Result<Routing> chosen = make_auto_scheme()->route(input);
  ASSERT_TRUE(chosen.ok()) << chosen.status().message();
  EXPECT_EQ(chosen->chosen, "torus") << ::testing::PrintToString(chosen->notes);
}

// A lost cable leaves dimension order no way round: the scheme refuses and
// says why; auto routes the fabric with another scheme.
TEST(TorusRefuses, ATorusWithALostCable) {
  const Fabric fabric = without_cable(generated(generate_torus(4, 4, 2)), "S-5", "S-6");
  const Routed routed = route_fabric(*make_torus_scheme(), fabric, 0);
  EXPECT_FALSE(routed.status.ok());
  EXPECT_NE(routed.status.message().find("1 cable out of place"), std::string::npos) << routed.status.message();
  const Routed fallback = route_fabric(*make_auto_scheme(), fabric, 0);
  ASSERT_TRUE(fallback.status.ok()) << fallback.status.message();
  EXPECT_NE(fallback.routing.chosen, "torus");
}

TEST(TorusRefuses, FewerVlsThanItsDatelinesNeed) {
  Routed routed = route_fabric(*make_torus_scheme(), generated(generate_torus(6, 5, 1)), 0);
  ASSERT_TRUE(routed.status.ok());
  RoutingInput input = routed.input();
  input.data_vls = 4;
  Result<Routing> fewer = make_torus_scheme()->route(input);
  ASSERT_FALSE(fewer.ok());
  EXPECT_NE(fewer.status().message().find("needs 5 VLs"), std::string::npos) << fewer.status().message();
}

TEST(TorusRefuses, AFabricThatIsNoTorus) {
  const Routed routed = route_fabric(*make_torus_scheme(), generated(generate_dragonfly(5, 3, 2)), 0);
  EXPECT_FALSE(routed.status.ok());
}

}  // namespace
}  // namespace ftclos
