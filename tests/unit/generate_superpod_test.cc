// Shapes of the SuperPOD-style generator (gen/generate_superpod.cc): rails,
// spine groups, cores, partial SUs, management leaves and ANs.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "core/aggregation_node.h"
#include "core/fabric_parts.h"
#include "gen/generate.h"

namespace ftclos {
namespace {

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

// Switches by name prefix ("su", "sg", "spine", "core", "mgmt-leaf").
int switches_named(const Fabric& fabric, const std::string& prefix) {
  int count = 0;
  for (const Node& node : fabric.nodes()) count += node.is_switch() && starts_with(node.name, prefix);
  return count;
}

// The switch names a node is cabled to.
std::set<std::string> switch_neighbours(const Fabric& fabric, int x) {
  std::set<std::string> names;
  for (const Port& port : fabric.node(x).ports)
    if (port.peer.valid() && fabric.node(port.peer.node).is_switch()) names.insert(fabric.node(port.peer.node).name);
  return names;
}

TEST(GenerateSuperpod, ThreeLevelPodHasRailLeavesSpineGroupsAndCoreGroups) {
  // 4 SUs in 2 groups, 8 servers x 4 rails, 4 spines per group: 16 leaves,
  // 2 groups x 4 rails x 4 spines = 32 spines, 2 x 8 = 16 cores.
  Result<Superpod> pod = generate_superpod(
      {.units = 4, .servers = 8, .rails = 4, .levels = 3, .spines = 4, .group_units = 2, .radix = 16});
  ASSERT_TRUE(pod.ok()) << pod.status().message();
  const Fabric& fabric = pod->fabric;
  EXPECT_EQ(switches_named(fabric, "su"), 16);
  EXPECT_EQ(switches_named(fabric, "sg"), 32);
  EXPECT_EQ(switches_named(fabric, "core"), 16);
  EXPECT_EQ(pod->compute_hcas, 4 * 8 * 4);
  EXPECT_EQ(pod->aggregation_nodes, 64);
  EXPECT_EQ(fabric.count(NodeType::kCa), 128 + 64);
  EXPECT_EQ(fabric_parts(fabric).size(), 1u);
  // A rail leaf reaches only the spines of its own rail and group, with 2 cables each.
  const int leaf = *fabric.find("su03-leaf-r2");
  EXPECT_EQ(switch_neighbours(fabric, leaf),
            (std::set<std::string>{"sg2-r2-spine01", "sg2-r2-spine02", "sg2-r2-spine03", "sg2-r2-spine04"}));
  // HCA r of a server is on the rail-(r+1) leaf of its SU.
  EXPECT_EQ(fabric.node(fabric.peer({*fabric.find("dgx0017 mlx5_1"), 1}).node).name, "su03-leaf-r2");
  // A core joins spine s of every (group, rail): 2 groups x 4 rails.
  EXPECT_EQ(switch_neighbours(fabric, *fabric.find("core001")).size(), 8u);
}

TEST(GenerateSuperpod, EverySwitchCarriesItsAggregationNodeOnThePortAboveItsRadix) {
  Result<Superpod> pod = generate_superpod({.units = 2, .servers = 4, .rails = 2, .spines = 2, .radix = 10});
  ASSERT_TRUE(pod.ok()) << pod.status().message();
  const Fabric& fabric = pod->fabric;
  for (const Node& node : fabric.nodes()) {
    if (!node.is_switch()) continue;
    ASSERT_EQ(node.num_ports, 11) << node.name;
    const PortRef an = node.ports[11].peer;
    ASSERT_TRUE(an.valid()) << node.name;
    EXPECT_TRUE(is_aggregation_node(fabric.node(an.node))) << node.name;
    EXPECT_EQ(fabric.node(an.node).name, "an-" + node.name);
  }
  Result<Superpod> bare =
      generate_superpod({.units = 2, .servers = 4, .rails = 2, .spines = 2, .radix = 10, .aggregation_nodes = false});
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(bare->fabric.count(NodeType::kCa), bare->compute_hcas);
}

TEST(GenerateSuperpod, PartialUnitsCarryFewerServersOnEveryRail) {
  Result<Superpod> pod = generate_superpod({.units = 6, .servers = 20, .rails = 8, .levels = 3, .spines = 10, .group_units = 2,
                                            .partial_units = 3,
                                            .partial_servers = 14, .seed = 7});
  ASSERT_TRUE(pod.ok()) << pod.status().message();
  int hcas = 0;
  for (int u = 0; u < 6; ++u) {
    const int servers = pod->servers_per_unit[u];
    if (u < 3) EXPECT_EQ(servers, 20);
    else EXPECT_TRUE(servers >= 14 && servers < 20) << "SU " << u + 1 << ": " << servers;
    hcas += servers * 8;
  }
  EXPECT_EQ(pod->compute_hcas, hcas);
  // Every leaf of a partial SU holds that SU's count of HCAs, and all its uplinks.
  const Fabric& fabric = pod->fabric;
  const Node& leaf = fabric.node(*fabric.find("su06-leaf-r8"));
  int hosts = 0, uplinks = 0;
  for (const Port& port : leaf.ports) {
    if (!port.peer.valid()) continue;
    const Node& peer = fabric.node(port.peer.node);
    if (peer.is_switch()) ++uplinks;
    else hosts += !is_aggregation_node(peer);
  }
  EXPECT_EQ(hosts, pod->servers_per_unit[5]);
  EXPECT_EQ(uplinks, 20);
}

TEST(GenerateSuperpod, ManagementLeavesHangOffOneSpineGroupEach) {
  Result<Superpod> pod = generate_superpod(
      {.units = 2, .servers = 8, .rails = 2, .levels = 3, .spines = 4, .group_units = 1, .radix = 24, .mgmt_leaves = 3,
       .mgmt_hosts = 2});
  ASSERT_TRUE(pod.ok()) << pod.status().message();
  const Fabric& fabric = pod->fabric;
  EXPECT_EQ(switch_neighbours(fabric, *fabric.find("mgmt-leaf2")),
            (std::set<std::string>{"sg1-r2-spine01", "sg1-r2-spine02", "sg1-r2-spine03", "sg1-r2-spine04"}));
  EXPECT_TRUE(fabric.find("mgmt3-2 HCA-1").has_value());
  EXPECT_EQ(fabric_parts(fabric).size(), 1u);
}

TEST(GenerateSuperpod, LostLevelOneTakesALeafThoughEverySwitchCarriesAnAggregationNode) {
  Result<Superpod> pod = generate_superpod({.units = 2, .servers = 4, .rails = 2, .spines = 2, .radix = 10});
  ASSERT_TRUE(pod.ok()) << pod.status().message();
  Fabric fabric = std::move(pod->fabric);
  Result<VariationLog> log = vary(fabric, {.lost_switches = 1, .lost_level = 1, .seed = 4});
  ASSERT_TRUE(log.ok()) << log.status().message();
  ASSERT_EQ(log->lost_switches.size(), 1u);
  EXPECT_TRUE(starts_with(log->lost_switches.front(), "su")) << log->lost_switches.front();
  EXPECT_FALSE(fabric.find("an-" + log->lost_switches.front()).has_value()) << "its AN goes with it";
}

TEST(GenerateSuperpod, RefusesSpinesThatDoNotDivideTheUplinksAndSwitchesBeyondTheRadix) {
  Result<Superpod> uneven = generate_superpod({.units = 2, .servers = 20, .spines = 8});
  ASSERT_FALSE(uneven.ok());
  EXPECT_NE(uneven.status().message().find("8 spines do not divide a leaf's 20 uplinks"), std::string::npos);
  // Two levels: 8 SUs x 8 rails x 2 cables = 128 spine downlinks on 40 ports.
  Result<Superpod> wide = generate_superpod({.units = 8, .servers = 20, .spines = 10});
  ASSERT_FALSE(wide.ok());
  EXPECT_NE(wide.status().message().find("a spine needs 128 ports; the radix is 40"), std::string::npos);
}

// A last spine group not built out (Selene's fourth: 4 SUs of 7): its
// spines have the ports of a full group, the cores one port per group.
TEST(GenerateSuperpod, TheLastGroupMayHoldFewerUnits) {
  Result<Superpod> pod = generate_superpod({.units = 4, .levels = 3, .group_units = 3, .aggregation_nodes = false});
  ASSERT_TRUE(pod.ok()) << pod.status().message();
  const Fabric& fabric = pod->fabric;
  // 4 SUs x 8 rail leaves, 2 groups x 8 rails x 10 spines, 10 x 6 cores.
  EXPECT_EQ(fabric.count(NodeType::kSwitch), 32 + 160 + 60);
  const int last_group_spine = *fabric.find("sg2-r1-spine01");
  int leaves_below = 0;
  for (const Port& port : fabric.node(last_group_spine).ports)
    leaves_below += port.peer.valid() && fabric.node(port.peer.node).name.starts_with("su04-");
  EXPECT_EQ(leaves_below, 2);  // su04's rail-1 leaf, over 2 cables
}

}  // namespace
}  // namespace ftclos
