// Tori and meshes (detect/torus.h): the generators' rings and tori, 2D and
// 3D, are recognized with their shape and a coordinate per switch in which
// every cable joins grid neighbours; a torus without its wrap-around cables
// is a mesh; a lost cable is named by the coordinates it should join; a
// dragonfly is neither.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "detect/detect.h"
#include "detect/summary.h"
#include "gen/generate.h"
#include "routing_checks.h"

namespace ftclos {
namespace {

// Every switch has its own grid index, every host its switch's, and every
// switch cable joins two grid neighbours.
void expect_grid_coordinates(const Fabric& fabric, const TorusLabels& grid) {
  std::set<int> taken;
  for (int x = 0; x < fabric.size(); ++x) {
    const Node& node = fabric.node(x);
    ASSERT_GE(grid.index[x], 0) << node.name;
    if (!node.is_switch()) {
      EXPECT_EQ(grid.index[x], grid.index[node.ports[1].peer.node]) << node.name;
      continue;
    }
    EXPECT_TRUE(taken.insert(grid.index[x]).second) << node.name << " shares its coordinates";
    for (const Port& port : node.ports) {
      if (!port.peer.valid() || !fabric.node(port.peer.node).is_switch()) continue;
      bool neighbours = false;
      for (int dim = 0; dim < static_cast<int>(grid.dims.size()); ++dim)
        for (int by : {-1, 1}) neighbours |= grid.step(grid.index[x], dim, by) == grid.index[port.peer.node];
      EXPECT_TRUE(neighbours) << node.name << " - " << fabric.node(port.peer.node).name;
    }
  }
  EXPECT_EQ(static_cast<int>(taken.size()), grid.switches());
}

struct TorusCase {
  std::string name;
  Fabric (*make)();
  std::string summary;
};

class TorusDetection : public ::testing::TestWithParam<TorusCase> {};

TEST_P(TorusDetection, SaysTheShapeAndGivesEverySwitchItsCoordinates) {
  const Fabric fabric = GetParam().make();
  const Detection detection = detect(fabric);
  ASSERT_TRUE(detection.torus) << family_summary(detection);
  EXPECT_EQ(family_summary(detection), GetParam().summary);
  EXPECT_FALSE(detection.degraded());
  ASSERT_NE(detection.find(Family::kAnyFabric), nullptr) << "the up*/down* floor still routes it";
  expect_grid_coordinates(fabric, *detection.torus);
  const std::vector<std::string>& coords = detection.families.front().coords;
  EXPECT_EQ(coords[*fabric.find("S-0")].front(), '(');
}

Fabric mesh_5x4() {
  Fabric fabric = generated(generate_torus(5, 4, 1));
  // The generator's switch (i, j) is S-(j*5+i); its wrap cables join i=4 to 0 and j=3 to 0.
  for (int j = 0; j < 4; ++j) fabric = without_cable(fabric, fmt::format("S-{}", j * 5 + 4), fmt::format("S-{}", j * 5));
  for (int i = 0; i < 5; ++i) fabric = without_cable(fabric, fmt::format("S-{}", 15 + i), fmt::format("S-{}", i));
  return fabric;
}

INSTANTIATE_TEST_SUITE_P(
    Generated, TorusDetection,
    ::testing::Values(TorusCase{"ring8", [] { return generated(generate_ring(8, 2)); }, "torus 8"},
                      TorusCase{"torus4x4", [] { return generated(generate_torus(4, 4, 2)); }, "torus 4x4"},
                      TorusCase{"torus3x5", [] { return generated(generate_torus(3, 5, 1)); }, "torus 5x3"},
                      TorusCase{"torus6x4", [] { return generated(generate_torus(6, 4, 1)); }, "torus 6x4"},
                      TorusCase{"torus3x4x5", [] { return generated(generate_torus(3, 4, 1, 5)); }, "torus 5x4x3"},
                      TorusCase{"torus4x4x4", [] { return generated(generate_torus(4, 4, 1, 4)); }, "torus 4x4x4"},
                      // A dozen 3-ring shapes of 576 switches have its cable count.
                      TorusCase{"torus12x8x6", [] { return generated(generate_torus(12, 8, 0, 6)); }, "torus 12x8x6"},
                      TorusCase{"hypercube5", [] { return generated(generate_hypercube(5, 1)); }, "torus 4x4x2 ring=1,1,0"},
                      TorusCase{"mesh5x4", mesh_5x4, "mesh 5x4"}),
    [](const auto& info) { return info.param.name; });

// One cable of a 4x4 torus lost: still the torus, degraded, and the lost
// cable named by the two coordinates it should join.
TEST(TorusDetectionDegraded, NamesTheLostCableByItsCoordinates) {
  const Fabric fabric = without_cable(generated(generate_torus(4, 4, 2)), "S-5", "S-6");
  const int s5 = *fabric.find("S-5"), s6 = *fabric.find("S-6");
  const Detection detection = detect(fabric);
  ASSERT_TRUE(detection.torus) << family_summary(detection);
  EXPECT_EQ(family_summary(detection), "torus 4x4 (degraded)");
  ASSERT_EQ(detection.deviations().size(), 1u);
  const Deviation& lost = detection.deviations().front();
  EXPECT_EQ(lost.kind, Deviation::Kind::kMissingCable);
  EXPECT_EQ(std::set<int>({lost.at.node, lost.peer.node}), std::set<int>({s5, s6}));
  const std::vector<std::string>& coords = detection.families.front().coords;
  EXPECT_NE(lost.detail.find(coords[s5]), std::string::npos) << lost.detail;
  EXPECT_NE(lost.detail.find(coords[s6]), std::string::npos) << lost.detail;
}

// Two cables lost from a 5x4 torus fit a mesh in one dimension with two
// cables too many as well: the torus that lost them is taken.
TEST(TorusDetectionDegraded, LostCablesBeforeAMeshWithCablesTooMany) {
  const Fabric fabric = without_cable(without_cable(generated(generate_torus(5, 4, 1)), "S-5", "S-9"), "S-10", "S-14");
  const Detection detection = detect(fabric);
  ASSERT_TRUE(detection.torus) << family_summary(detection);
  EXPECT_EQ(family_summary(detection), "torus 5x4 (degraded)");
  ASSERT_EQ(detection.deviations().size(), 2u);
  for (const Deviation& d : detection.deviations()) EXPECT_EQ(d.kind, Deviation::Kind::kMissingCable) << d.detail;
}

TEST(TorusDetectionRefuses, ADragonflyIsNoTorus) {
  const Detection detection = detect(generated(generate_dragonfly(5, 3, 2)));
  EXPECT_FALSE(detection.torus) << family_summary(detection);
  EXPECT_EQ(detection.families.front().family, Family::kAnyFabric);
}

}  // namespace
}  // namespace ftclos
