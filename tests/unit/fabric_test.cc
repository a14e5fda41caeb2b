#include "core/fabric.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace ftclos
