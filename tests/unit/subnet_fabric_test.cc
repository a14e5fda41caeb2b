// The subnet the plugin hands over (engine/subnet.h) as a Fabric: switches
// keep their ports, every cabled CA port is an end node of its own (dual
// rail included), LIDs are the subnet's own, bad input is named.
#include "engine/subnet_fabric.h"

#include <gtest/gtest.h>

#include <vector>

#include "detect/detect.h"
#include "route/routing.h"

namespace ftclos {
namespace {

// Two leaf switches under one spine; CA 3 on leaf 0, CA 4 on both leaves
// (dual rail), CA 5 on leaf 1 by its port 2 only (port 1 dark).
struct Subnet {
  std::vector<ftclos_node> nodes{{FTCLOS_SWITCH, 0x10, 4, "leaf 0"}, {FTCLOS_SWITCH, 0x11, 4, "leaf 1"},
                                 {FTCLOS_SWITCH, 0x20, 2, "spine"},  {FTCLOS_CA, 0x300, 1, "a HCA-1"},
                                 {FTCLOS_CA, 0x400, 2, "b HCA-1"},   {FTCLOS_CA, 0x500, 2, "c HCA-1"}};
  std::vector<ftclos_link> links{{0, 3, 2, 1}, {1, 3, 2, 2}, {0, 1, 3, 1}, {0, 2, 4, 1}, {1, 1, 4, 2}, {1, 2, 5, 2}};
  std::vector<ftclos_lid> lids{{0, 0, 0x10, 1, 0},  {1, 0, 0x11, 2, 0},  {2, 0, 0x20, 3, 0},  {3, 1, 0x301, 4, 1},
                               {4, 1, 0x401, 6, 1}, {4, 2, 0x402, 8, 1}, {5, 2, 0x502, 10, 1}, {5, 1, 0x501, 12, 1}};
  int lmc = 1;

  ftclos_subnet view() const {
    return {nodes.data(), nodes.size(), links.data(), links.size(), lids.data(), lids.size(), lmc, 0};
  }
};

int named(const Fabric& fabric, const char* name) {
  const std::optional<int> node = fabric.find(name);
  EXPECT_TRUE(node.has_value()) << name;
  return node.value_or(-1);
}

TEST(SubnetFabric, EveryCabledCaPortIsAnEndNode) {
  const Subnet subnet;
  Result<SubnetFabric> read = fabric_from_subnet(subnet.view());
  ASSERT_TRUE(read.ok()) << read.status().message();
  const Fabric& fabric = read->fabric;
  EXPECT_EQ(fabric.count(NodeType::kSwitch), 3);
  EXPECT_EQ(fabric.count(NodeType::kCa), 4);  // a, b twice, c once
  const int a = named(fabric, "H-0000000000000300");
  const int b1 = named(fabric, "H-0000000000000400-p1"), b2 = named(fabric, "H-0000000000000400-p2");
  const int c = named(fabric, "H-0000000000000500");
  EXPECT_EQ(fabric.node(a).guid, 0x300u);
  EXPECT_EQ(fabric.node(b1).guid, 0x401u);
  EXPECT_EQ(fabric.node(b2).description, "b HCA-1 port 2");
  EXPECT_EQ(fabric.node(c).guid, 0x500u);  // one cabled port: the node keeps its GUID
  EXPECT_EQ(fabric.peer({c, 1}), (PortRef{read->switch_of[1], 2}));
  EXPECT_EQ(fabric.peer({b2, 1}), (PortRef{read->switch_of[1], 1}));
  EXPECT_EQ(read->switch_of[3], -1);
  EXPECT_EQ(read->unrouted_ports, 1);  // c's dark port 1 has a LID but no cable
}

TEST(SubnetFabric, LidsAreTheSubnets) {
  const Subnet subnet;
  Result<SubnetFabric> read = fabric_from_subnet(subnet.view());
  ASSERT_TRUE(read.ok()) << read.status().message();
  const LidMap& lids = read->lids;
  const Fabric& fabric = read->fabric;
  EXPECT_EQ(lids.lmc, 1);
  EXPECT_EQ(lids.max_lid, 11);
  EXPECT_EQ(lids.base[read->switch_of[2]], 3);
  EXPECT_EQ(lids.owner[4], named(fabric, "H-0000000000000300"));
  EXPECT_EQ(lids.owner[5], named(fabric, "H-0000000000000300"));
  EXPECT_EQ(lids.owner[8], named(fabric, "H-0000000000000400-p2"));
  EXPECT_EQ(lids.owner[10], named(fabric, "H-0000000000000500"));
  EXPECT_EQ(fabric.node(named(fabric, "H-0000000000000500")).ports[1].guid, 0x502u);
  // The dual-rail ports route like any two hosts: every one reaches every other.
  const Detection detection = detect(fabric);
  Result<std::unique_ptr<Scheme>> updown = make_scheme("updown");
  ASSERT_TRUE(updown.ok());
  Result<Routing> routing = (*updown)->route({fabric, detection, lids});
  ASSERT_TRUE(routing.ok()) << routing.status().message();
  const int leaf1 = read->switch_of[1];
  EXPECT_EQ(routing->lfts.at(leaf1, 8), 1);  // b's port 2 hangs on leaf 1 port 1
  EXPECT_EQ(routing->lfts.at(leaf1, 6), 3);  // b's port 1 is on leaf 0: up to the spine
}

TEST(SubnetFabric, BadInputIsNamed) {
  auto error = [](const Subnet& subnet) {
    Result<SubnetFabric> read = fabric_from_subnet(subnet.view());
    EXPECT_FALSE(read.ok());
    return read.ok() ? std::string() : read.status().message();
  };
  Subnet bad_node;
  bad_node.links.push_back({0, 4, 9, 1});
  EXPECT_EQ(error(bad_node), "node index 9 out of range (the subnet has 6 nodes)");
  Subnet bad_port;
  bad_port.links.push_back({2, 3, 0, 4});
  EXPECT_EQ(error(bad_port), "port 3 of node 0x20 out of range");
  Subnet bad_lmc;
  bad_lmc.lids[3].lmc = 0;
  EXPECT_EQ(error(bad_lmc), "port 0x301 has LMC 0, the subnet LMC is 1");
  Subnet twice;
  twice.lids[4].base_lid = 4;
  EXPECT_EQ(error(twice), "LID 4 belongs to both \"a HCA-1\" and \"b HCA-1 port 1\"");
  Subnet lid_node;
  lid_node.lids.push_back({-1, 0, 0x1, 20, 0});
  EXPECT_EQ(error(lid_node), "node index -1 out of range (the subnet has 6 nodes)");
}

}  // namespace
}  // namespace ftclos
