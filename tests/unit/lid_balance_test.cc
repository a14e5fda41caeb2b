// check_lft_balance's view (audit/lid_balance.h): CA LIDs per switch port.
#include "audit/lid_balance.h"

#include <gtest/gtest.h>

#include "engine/route_fabric.h"
#include "gen/generate.h"

namespace ftclos {
namespace {

TEST(LidBalance, DmodkOnFt82SpreadsEveryPortEvenly) {
  const Fabric fabric = *generate_ftree(8, 2);
  Result<RoutedFabric> routed = route_fabric(fabric, "dmodk", *assign_lids(fabric, 0), {});
  ASSERT_TRUE(routed.ok()) << routed.status().message();
  const LidBalance balance = lid_balance(fabric, routed->detection.levels, routed->lids, routed->routing.lfts);
  EXPECT_EQ(balance.switches, 12);  // 8 leaves (4 up ports), 4 spines (8 down ports)
  EXPECT_EQ(balance.unbalanced, 0);
}

TEST(LidBalance, OneSwitchSendingEveryLidThroughOnePortIsUnbalanced) {
  const Fabric fabric = *generate_ftree(8, 2);
  Result<RoutedFabric> routed = route_fabric(fabric, "dmodk", *assign_lids(fabric, 0), {});
  ASSERT_TRUE(routed.ok()) << routed.status().message();
  Lfts lfts = routed->routing.lfts;
  int leaf = -1, up = 0;  // the first switch with a switch cable, and that port
  for (int x = 0; x < fabric.size() && leaf < 0; ++x)
    for (int p = 1; p <= fabric.node(x).num_ports && leaf < 0; ++p) {
      const PortRef peer = fabric.peer({x, p});
      if (fabric.node(x).is_switch() && peer.valid() && fabric.node(peer.node).is_switch()) leaf = x, up = p;
    }
  ASSERT_GE(leaf, 0);
  long moved = 0;
  for (int lid = 1; lid <= routed->lids.max_lid; ++lid) {
    uint8_t& port = lfts.port[leaf][lid];
    const PortRef peer = fabric.peer({leaf, port});
    if (peer.valid() && fabric.node(peer.node).is_switch() && port != up) port = static_cast<uint8_t>(up), ++moved;
  }
  ASSERT_GT(moved, 0);
  const LidBalance balance = lid_balance(fabric, routed->detection.levels, routed->lids, lfts);
  EXPECT_EQ(balance.unbalanced, 1);
  EXPECT_EQ(balance.widest, leaf);
  EXPECT_EQ(balance.fewest, 0);
  EXPECT_GT(balance.most, 1);
}

}  // namespace
}  // namespace ftclos
