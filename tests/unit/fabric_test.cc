#include "core/fabric.h"
#include "core/fabric_parts.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace ftclos {
namespace {

TEST(Fabric, ConnectIsSymmetric) {
  Fabric fabric;
  int sw = *fabric.add_node(NodeType::kSwitch, "sw", 4);
  int ca = *fabric.add_node(NodeType::kCa, "ca", 1);
  ASSERT_TRUE(fabric.connect({sw, 2}, {ca, 1}).ok());
  EXPECT_EQ(fabric.peer({sw, 2}), (PortRef{ca, 1}));
  EXPECT_EQ(fabric.peer({ca, 1}), (PortRef{sw, 2}));
  fabric.disconnect({ca, 1});
  EXPECT_FALSE(fabric.peer({sw, 2}).valid());
}

TEST(Fabric, RejectsSecondPeerAndBadPort) {
  Fabric fabric;
  int a = *fabric.add_node(NodeType::kSwitch, "a", 2);
  int b = *fabric.add_node(NodeType::kSwitch, "b", 2);
  int c = *fabric.add_node(NodeType::kSwitch, "c", 2);
  ASSERT_TRUE(fabric.connect({a, 1}, {b, 1}).ok());
  EXPECT_TRUE(fabric.connect({a, 1}, {b, 1}).ok());
  EXPECT_FALSE(fabric.connect({a, 1}, {c, 1}).ok());
  EXPECT_FALSE(fabric.connect({a, 3}, {c, 1}).ok());
  EXPECT_FALSE(fabric.add_node(NodeType::kCa, "a", 1).ok());
  EXPECT_EQ(fabric.switch_links(), 1);
}

// Two islands and an uncabled CA: two parts, the larger first, the CA in
// none; the description names a switch of each.
TEST(FabricParts, SplitFabricIsNamedByPart) {
  Fabric fabric;
  const int a = *fabric.add_node(NodeType::kSwitch, "a", 4);
  const int b = *fabric.add_node(NodeType::kSwitch, "b", 4);
  const int lonely = *fabric.add_node(NodeType::kCa, "lonely", 1);
  const int c = *fabric.add_node(NodeType::kSwitch, "c", 4);
  const int ca1 = *fabric.add_node(NodeType::kCa, "ca1", 1);
  const int ca2 = *fabric.add_node(NodeType::kCa, "ca2", 1);
  const int ca3 = *fabric.add_node(NodeType::kCa, "ca3", 1);
  ASSERT_TRUE(fabric.connect({a, 1}, {b, 1}).ok());
  ASSERT_TRUE(fabric.connect({a, 2}, {ca1, 1}).ok());
  ASSERT_TRUE(fabric.connect({c, 1}, {ca2, 1}).ok());
  ASSERT_TRUE(fabric.connect({b, 2}, {ca3, 1}).ok());
  const auto parts = fabric_parts(fabric);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0], (std::vector<int>{a, b, ca1, ca3}));
  EXPECT_EQ(parts[1], (std::vector<int>{c, ca2}));
  EXPECT_EQ(describe_parts(fabric, parts), "2 parts: 2 switches and 2 hosts (\"a\", ...); 1 switch and 1 host (\"c\", ...)");
  for (const auto& part : parts) EXPECT_FALSE(std::ranges::binary_search(part, lonely));
  ASSERT_TRUE(fabric.connect({c, 2}, {b, 3}).ok());
  EXPECT_EQ(fabric_parts(fabric).size(), 1u);
}

}  // namespace
}  // namespace ftclos
