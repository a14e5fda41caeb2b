#include "audit/path_trace.h"

#include <gtest/gtest.h>

namespace ftclos {
namespace {

// Two leaves under one spine, one host each:
//   h0 -[1] L0 [2]- [1] S [2] -[2] L1 [1]- h1
struct TwoLeaves {
  Fabric fabric;
  int h0 = 0, h1 = 0, l0 = 0, l1 = 0, s = 0;
  LidMap lids;
  Lfts lfts;
  int dlid = 0;  // h1's LID

  TwoLeaves() {
    l0 = *fabric.add_node(NodeType::kSwitch, "L0", 2, 0x1);
    l1 = *fabric.add_node(NodeType::kSwitch, "L1", 2, 0x2);
    s = *fabric.add_node(NodeType::kSwitch, "S", 2, 0x3);
    h0 = *fabric.add_node(NodeType::kCa, "h0", 1, 0x10);
    h1 = *fabric.add_node(NodeType::kCa, "h1", 1, 0x20);
    EXPECT_TRUE(fabric.connect({h0, 1}, {l0, 1}).ok());
    EXPECT_TRUE(fabric.connect({h1, 1}, {l1, 1}).ok());
    EXPECT_TRUE(fabric.connect({l0, 2}, {s, 1}).ok());
    EXPECT_TRUE(fabric.connect({l1, 2}, {s, 2}).ok());
    lids = *assign_lids(fabric, 0);
    dlid = lids.base[h1];
    lfts.port.assign(fabric.size(), {});
    for (int sw : {l0, l1, s}) lfts.port[sw].assign(lids.max_lid + 1, kNoPath);
    // The up/down route to h1.
    route(l0, 2);
    route(s, 2);
    route(l1, 1);
  }
  void route(int sw, uint8_t port) { lfts.port[sw][dlid] = port; }
  Trace run() const { return trace(fabric, lids, lfts, h0, dlid); }
};

TEST(PathTrace, Delivered) {
  TwoLeaves t;
  const Trace path = t.run();
  EXPECT_EQ(path.outcome, Trace::Outcome::kDelivered);
  const std::vector<PortRef> hops = {{t.h0, 1}, {t.l0, 2}, {t.s, 2}, {t.l1, 1}};
  EXPECT_EQ(path.hops, hops);
  EXPECT_TRUE(is_up_down(t.fabric, compute_levels(t.fabric), path));
}

TEST(PathTrace, NoRoute) {
  TwoLeaves t;
  t.route(t.s, kNoPath);
  const Trace path = t.run();
  EXPECT_EQ(path.outcome, Trace::Outcome::kNoRoute);
  EXPECT_EQ(path.hops.back(), (PortRef{t.l0, 2}));
}

TEST(PathTrace, DeadPort) {
  TwoLeaves t;
  t.fabric.disconnect({t.s, 2});
  const Trace path = t.run();
  EXPECT_EQ(path.outcome, Trace::Outcome::kDeadPort);
  EXPECT_EQ(path.hops.back(), (PortRef{t.s, 2}));
}

TEST(PathTrace, LoopBetweenTwoSwitches) {
  TwoLeaves t;
  t.route(t.s, 1);  // back down to L0, which sends it up again
  EXPECT_EQ(t.run().outcome, Trace::Outcome::kLoop);
}

TEST(PathTrace, DownThenUpIsNotUpDown) {
  TwoLeaves t;
  t.route(t.l1, 2);  // L1 bounces the packet back up to S
  const Trace path = t.run();
  EXPECT_EQ(path.outcome, Trace::Outcome::kLoop);
  EXPECT_FALSE(is_up_down(t.fabric, compute_levels(t.fabric), path));
}

}  // namespace
}  // namespace ftclos
