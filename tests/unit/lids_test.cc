#include <gtest/gtest.h>

#include "route/routing.h"

namespace ftclos {
namespace {

// A switch with two hosts; the hosts' GUIDs sort before and after the switch's.
Fabric two_hosts() {
  Fabric fabric;
  int sw = *fabric.add_node(NodeType::kSwitch, "sw", 4, 0x20);
  int late = *fabric.add_node(NodeType::kCa, "late", 1, 0x30);
  int early = *fabric.add_node(NodeType::kCa, "early", 1, 0x10);
  EXPECT_TRUE(fabric.connect({sw, 1}, {late, 1}).ok());
  EXPECT_TRUE(fabric.connect({sw, 2}, {early, 1}).ok());
  return fabric;
}

TEST(AssignLids, GuidOrderWithLmcAlignment) {
  const Fabric fabric = two_hosts();
  Result<LidMap> lids = assign_lids(fabric, 2);
  ASSERT_TRUE(lids.ok()) << lids.status().message();
  const int sw = *fabric.find("sw"), early = *fabric.find("early"), late = *fabric.find("late");
  // early (GUID 0x10) takes the first aligned range 4..7, the switch fills
  // the hole at LID 1, late takes 8..11.
  EXPECT_EQ(lids->base[early], 4);
  EXPECT_EQ(lids->base[sw], 1);
  EXPECT_EQ(lids->base[late], 8);
  EXPECT_EQ(lids->lmc, 2);
  EXPECT_EQ(lids->max_lid, 11);
  const std::vector<int> owner = {-1, sw, -1, -1, early, early, early, early, late, late, late, late};
  EXPECT_EQ(lids->owner, owner);
}

TEST(AssignLids, GuidOrderWithoutLmc) {
  const Fabric fabric = two_hosts();
  Result<LidMap> lids = assign_lids(fabric, 0);
  ASSERT_TRUE(lids.ok()) << lids.status().message();
  EXPECT_EQ(lids->base[*fabric.find("early")], 1);
  EXPECT_EQ(lids->base[*fabric.find("sw")], 2);
  EXPECT_EQ(lids->base[*fabric.find("late")], 3);
  EXPECT_EQ(lids->max_lid, 3);
  EXPECT_EQ(lids->owner.size(), 4u);
}

TEST(AssignLids, NameBreaksGuidTies) {
  Fabric fabric;
  int b = *fabric.add_node(NodeType::kSwitch, "b", 2);
  int a = *fabric.add_node(NodeType::kSwitch, "a", 2);
  Result<LidMap> lids = assign_lids(fabric, 0);
  ASSERT_TRUE(lids.ok());
  EXPECT_EQ(lids->base[a], 1);
  EXPECT_EQ(lids->base[b], 2);
}

// The LIDs an ibnetdiscover run records, with the CAs at LMC 2.
Fabric with_input_lids() {
  Fabric fabric = two_hosts();
  fabric.node(*fabric.find("sw")).ports[0].lid = 7;
  for (auto [name, lid] : {std::pair{"early", 12}, {"late", 16}}) {
    Port& port = fabric.node(*fabric.find(name)).ports[1];
    port.lid = static_cast<uint16_t>(lid);
    port.lmc = 2;
  }
  return fabric;
}

TEST(AssignLids, KeepsLidsFromInput) {
  const Fabric fabric = with_input_lids();
  Result<LidMap> lids = assign_lids(fabric, 2);
  ASSERT_TRUE(lids.ok()) << lids.status().message();
  const int sw = *fabric.find("sw"), early = *fabric.find("early"), late = *fabric.find("late");
  EXPECT_EQ(lids->base[sw], 7);
  EXPECT_EQ(lids->base[early], 12);
  EXPECT_EQ(lids->base[late], 16);
  EXPECT_EQ(lids->max_lid, 19);
  EXPECT_EQ(lids->owner[7], sw);
  EXPECT_EQ(lids->owner[8], -1);
  EXPECT_EQ(lids->owner[15], early);
  EXPECT_EQ(lids->owner[19], late);
}

// Another LMC than the subnet's renumbers it: the input's LIDs give way to
// a fresh assignment at the LMC asked for, the same as without them.
TEST(AssignLids, AnotherLmcThanTheInputsAssignsAfresh) {
  const Fabric fabric = with_input_lids();
  EXPECT_EQ(input_lmc(fabric), 2);
  Result<LidMap> lids = assign_lids(fabric, 1);
  ASSERT_TRUE(lids.ok()) << lids.status().message();
  Result<LidMap> fresh = assign_lids(two_hosts(), 1);
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ(lids->lmc, 1);
  EXPECT_EQ(lids->base, fresh->base);
  EXPECT_EQ(lids->owner, fresh->owner);
}

TEST(AssignLids, InputsWithMixedLmcAreRefused) {
  Fabric fabric = with_input_lids();
  fabric.node(*fabric.find("late")).ports[1].lmc = 0;
  EXPECT_EQ(input_lmc(fabric), 0);
  Result<LidMap> lids = assign_lids(fabric, 0);
  ASSERT_FALSE(lids.ok());
  EXPECT_NE(lids.status().message().find("LMC 2"), std::string::npos) << lids.status().message();
}

TEST(AssignLids, InputCollisionFails) {
  Fabric fabric = with_input_lids();
  fabric.node(*fabric.find("sw")).ports[0].lid = 14;  // inside early's 12..15
  Result<LidMap> lids = assign_lids(fabric, 2);
  ASSERT_FALSE(lids.ok());
  EXPECT_NE(lids.status().message().find("LID 14"), std::string::npos) << lids.status().message();
}

TEST(AssignLids, PartialInputLidsAreReassigned) {
  Fabric fabric = with_input_lids();
  fabric.node(*fabric.find("late")).ports[1].lid = 0;
  Result<LidMap> lids = assign_lids(fabric, 2);
  ASSERT_TRUE(lids.ok());
  EXPECT_EQ(lids->base[*fabric.find("early")], 4);
}

TEST(AssignLids, FailsPastUnicastRange) {
  Fabric fabric;
  // CA k (from 1) of 128 LIDs starts at 128k: 383 end at 0xBFFF, 384 pass it.
  for (int i = 0; i < 384; ++i) ASSERT_TRUE(fabric.add_node(NodeType::kCa, "h" + std::to_string(i), 1, i + 1).ok());
  EXPECT_FALSE(assign_lids(fabric, 7).ok());
  fabric = Fabric();
  for (int i = 0; i < 383; ++i) ASSERT_TRUE(fabric.add_node(NodeType::kCa, "h" + std::to_string(i), 1, i + 1).ok());
  Result<LidMap> lids = assign_lids(fabric, 7);
  ASSERT_TRUE(lids.ok()) << lids.status().message();
  EXPECT_EQ(lids->max_lid, 0xBFFF);
}

TEST(AssignLids, AnalysisSpaceGoesPastUnicastRange) {
  Fabric fabric;
  for (int i = 0; i < 384; ++i) ASSERT_TRUE(fabric.add_node(NodeType::kCa, "h" + std::to_string(i), 1, i + 1).ok());
  Result<LidMap> lids = assign_lids(fabric, 7, LidSpace::kAnalysis);
  ASSERT_TRUE(lids.ok()) << lids.status().message();
  EXPECT_EQ(lids->max_lid, 384 * 128 + 127);
  EXPECT_EQ(lids->owner[lids->max_lid], 383);
}

TEST(AssignLids, RejectsLmcOutOfRange) { EXPECT_FALSE(assign_lids(two_hosts(), 8).ok()); }

}  // namespace
}  // namespace ftclos
