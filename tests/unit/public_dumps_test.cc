// Public ibnetdiscover dumps of real clusters (ibsim-topos/public/README
// section of ibsim-topos/README.md: source and license of each).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "audit/audit.h"
#include "core/aggregation_node.h"
#include "core/fabric_file.h"
#include "detect/deviation.h"
#include "detect/detect.h"
#include "engine/route_fabric.h"
#include "selene_twin.h"

namespace ftclos {
namespace {

const std::filesystem::path kPublic = std::filesystem::path(FTCLOS_SOURCE_ROOT) / "ibsim-topos/public";

// `routed`'s tables audited with their SLs; every CA pair and every switch
// route delivered, no loop, no credit loop (switches' own routes too).
AuditInput audit_input(const Fabric& fabric, const RoutedFabric& routed) {
  return {fabric, routed.detection.levels, routed.lids, routed.routing.lfts, {}, routed.routing.dest_sl, {}};
}
Correctness expect_sound(const AuditInput& input) {
  const Correctness c = check_correctness(input);
  EXPECT_EQ(c.unreachable, 0);
  EXPECT_EQ(c.loops, 0);
  EXPECT_EQ(c.credit_loops, 0);
  EXPECT_EQ(c.switch_unreachable, 0);
  EXPECT_EQ(c.switch_credit_loops, 0) << ::testing::PrintToString(c.examples);
  return c;
}

// NVIDIA topograph's test dump: an NDR DGX H100 pod of 31 rail leaves and
// 9 spines (QM9701), 542 HCAs, a SHARP AN on every switch, 26 missing
// cables. Every leaf carries at most 19 compute HCAs: no destination-based
// tables beat 19 there (a leaf's CAs share its entry per destination). The
// polish stops at that floor instead of spending its whole budget (15.6 s
// of `route`, 16.8 s of the plugin's sweep in ibsim, for 19 -> 19); the
// spines' ANs still reach every host (180 one-hop detours; the greedy in
// node order left 3, the reverse order none).
TEST(PublicDumps, NdrH100PodRoutesOnTheTreeAtItsFloorWithoutSpendingThePolishBudget) {
  Result<Fabric> fabric = read_end_nodes((kPublic / "ndr-h100-topograph.ibnetdiscover").string());
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  Result<RoutedFabric> routed = route_fabric(*fabric, "updown", 0);
  ASSERT_TRUE(routed.ok()) << routed.status().message();
  EXPECT_EQ(routed->detection.levels.height, 2);
  EXPECT_EQ(routed->detection.levels.aggregation_nodes.size(), 40u);
  const AuditInput input = audit_input(*fabric, *routed);
  // The ANs' down-up detours on SL 0 closed one with switches' own routes: 10 LIDs move to SL 1.
  const Correctness c = expect_sound(input);
  EXPECT_EQ(c.vls_used, 0b11u);
  EXPECT_EQ(worst_case_contention(input).worst_case, 19);
  EXPECT_FALSE(routed->routing.polish_cut_short) << ::testing::PrintToString(routed->routing.notes);
}

// NVIDIA Selene's compute fabric, a DGX A100 SuperPOD (Mellanox/ufm_sdk_3.0
// topo/selene.compute.txt, captured 2021-02-23): 200 rail leaves, 320
// spines in 32 groups of 10 (two cables from each leaf to each spine of its
// group), 140 cores; beside them management leaves (login, slurm, UFM,
// cache) on single spines, and two management pods of one leaf and one
// spine each under 14 cores; 29 missing cables; a SHARP AN in every switch.
// Read as built: 3 levels, the management switches apart, every missing
// cable named by both ends; routed on 2 VLs at or below stock dfsssp's 59
// (README, Public dumps).
TEST(PublicDumps, SeleneSuperpodReadAsBuiltAndRoutedOnTwoVls) {
  Result<Fabric> fabric = read_end_nodes((kPublic / "selene-compute.ibnetdiscover").string());
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  const Detection detection = detect(*fabric);
  EXPECT_EQ(detection.levels.height, 3);
  const size_t hcas = fabric->count(NodeType::kCa) - detection.levels.aggregation_nodes.size();
  EXPECT_EQ(hcas, 3675u);
  EXPECT_EQ(detection.management_leaves.size(), 4u);
  EXPECT_EQ(detection.management_spines.size(), 2u);
  ASSERT_NE(detection.find(Family::kPgft), nullptr);
  int missing_cables = 0;
  for (const Deviation& d : detection.deviations()) {
    if (d.kind != Deviation::Kind::kMissingCable) continue;
    ++missing_cables;
    EXPECT_TRUE(d.at.valid() && d.at.port > 0 && d.peer.valid() && d.peer.port > 0) << describe(*fabric, d);
  }
  EXPECT_EQ(missing_cables, 29);

  // The generated twin the other unit tests use reads the same.
  const Fabric twin = selene_twin();
  expect_same_shape(pod_shape(twin, detect(twin)), pod_shape(*fabric, detection));

  Result<RoutedFabric> routed = route_fabric(*fabric, "auto", 0);
  ASSERT_TRUE(routed.ok()) << routed.status().message();
  const AuditInput input = audit_input(*fabric, *routed);
  const Correctness c = expect_sound(input);
  EXPECT_LE(c.vls_used, 0b11u);
  EXPECT_LE(worst_case_contention(input).worst_case, 59);
}

}  // namespace
}  // namespace ftclos
