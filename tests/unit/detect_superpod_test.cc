// Recognition of SuperPOD-style pods (issue #30): SHARP Aggregation Nodes
// apart from the hosts, partial SUs' leaves kept at level 1, management
// leaves set aside from the tree's shape, every missing cable named.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

#include "core/aggregation_node.h"
#include "core/link_rate.h"
#include "detect/detect.h"
#include "detect/rails.h"
#include "detect/summary.h"
#include "gen/generate.h"
#include "selene_twin.h"

namespace ftclos {
namespace {

Superpod pod(const SuperpodParams& params) {
  Result<Superpod> generated = generate_superpod(params);
  EXPECT_TRUE(generated.ok()) << generated.status().message();
  return std::move(*generated);
}

// 6 SUs of 8 servers x 4 rails in 3 groups, 4 spines per group: PGFT(3; 8, 2, 12; 1, 4, 4; 1, 2, 1).
SuperpodParams three_level() {
  return {.units = 6, .servers = 8, .rails = 4, .levels = 3, .spines = 4, .group_units = 2, .radix = 16};
}

std::set<std::string> missing_cables(const Fabric& fabric, const Detection& detection) {
  std::set<std::string> named;
  for (const Deviation& d : detection.deviations())
    if (d.kind == Deviation::Kind::kMissingCable)
      named.insert(fabric.node(d.at.node).name + "-" + fabric.node(d.peer.node).name);
  return named;
}

TEST(DetectSuperpod, AggregationNodesOnEverySwitchAreNoHostsOfTheTree) {
  const Superpod p = pod(three_level());
  const Detection detection = detect(p.fabric);
  ASSERT_NE(detection.find(Family::kPgft), nullptr) << family_summary(detection);
  EXPECT_EQ(detection.xgft->shape.m, (std::vector<int>{8, 2, 12}));
  EXPECT_FALSE(detection.degraded()) << detection_summary(p.fabric, detection);
  EXPECT_EQ(detection.levels.height, 3);
  ASSERT_EQ(detection.levels.aggregation_nodes.size(), 88u);
  for (int an : detection.levels.aggregation_nodes) {
    EXPECT_TRUE(is_aggregation_node(p.fabric.node(an)));
    EXPECT_TRUE(detection.xgft->digits[an].empty()) << "an AN took a host label";
  }
  EXPECT_NE(detection_summary(p.fabric, detection).find("192 hosts and 88 SHARP aggregation nodes"), std::string::npos);
  EXPECT_EQ(named_rails(p.fabric, detection.levels), 4);
}

TEST(DetectSuperpod, PartialUnitsLeavesStayLeavesAndTheirMissingCablesAreNamed) {
  SuperpodParams params = three_level();
  params.partial_units = 2;
  params.partial_servers = 5;
  params.seed = 3;
  Superpod p = pod(params);
  Fabric& fabric = p.fabric;
  // One uplink off a full SU's leaf and one off each of 3 of the 4 leaves
  // of a partial SU: most of its leaves then have 7 uplinks, none is built so.
  ASSERT_LT(p.servers_per_unit[5], 8);
  fabric.disconnect({*fabric.find("su01-leaf-r2"), 8 + 1});
  fabric.disconnect({*fabric.find("su06-leaf-r1"), 8 + 1});
  fabric.disconnect({*fabric.find("su06-leaf-r2"), 8 + 2});
  fabric.disconnect({*fabric.find("su06-leaf-r3"), 8 + 3});
  const Detection detection = detect(fabric);
  ASSERT_NE(detection.find(Family::kPgft), nullptr) << family_summary(detection);
  EXPECT_EQ(detection.levels.height, 3);
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).name.starts_with("su")) {
      EXPECT_EQ(detection.levels.of[x], 1) << fabric.node(x).name;
    }
  EXPECT_EQ(missing_cables(fabric, detection),
            (std::set<std::string>{"su01-leaf-r2-sg1-r2-spine01", "su06-leaf-r1-sg3-r1-spine01",
                                   "su06-leaf-r2-sg3-r2-spine01", "su06-leaf-r3-sg3-r3-spine02"}));
}

TEST(DetectSuperpod, ManagementLeavesAreSetAsideFromTheShape) {
  SuperpodParams params = three_level();
  params.mgmt_leaves = 2;
  const Superpod p = pod(params);
  const Detection detection = detect(p.fabric);
  ASSERT_NE(detection.find(Family::kPgft), nullptr) << family_summary(detection);
  EXPECT_EQ(detection.xgft->shape.m, (std::vector<int>{8, 2, 12}));
  EXPECT_FALSE(detection.degraded()) << detection_summary(p.fabric, detection);
  std::set<std::string> names;
  for (int x : detection.management_leaves) {
    names.insert(p.fabric.node(x).name);
    EXPECT_EQ(detection.levels.of[x], 1);
  }
  EXPECT_EQ(names, (std::set<std::string>{"mgmt-leaf1", "mgmt-leaf2"}));
  // Their hosts are attached hosts, routed by reach; the ANs stay apart.
  int attached = 0;
  for (int x : detection.levels.io_hosts) attached += !is_aggregation_node(p.fabric.node(x));
  EXPECT_EQ(attached, 8);
}

// Issue #30's NDR-like cluster: 2 levels of 64-port switches with ANs, a
// partial SU, management leaves, a lost rail leaf (its HCAs gone with it)
// and 26 missing cables, one of them a management leaf's. Where cables
// failed on most leaves, the usual leaf's uplink count is below the full
// one: management leaves are still thin against the best-cabled leaf.
TEST(DetectSuperpod, NdrLikePodWithALostLeafNamesAll26MissingCables) {
  Superpod p = pod({.units = 3, .servers = 32, .rails = 8, .spines = 16, .radix = 64, .partial_units = 1,
                    .mgmt_leaves = 2, .seed = 9});
  Fabric& fabric = p.fabric;
  Result<VariationLog> lost = vary(fabric, {.lost_switches = 1, .lost_level = 1, .seed = 9});
  ASSERT_TRUE(lost.ok()) << lost.status().message();
  ASSERT_EQ(lost->lost_switches.size(), 1u);
  ASSERT_TRUE(lost->lost_switches.front().starts_with("su")) << lost->lost_switches.front();
  std::set<std::string> removed;
  const PortRef mgmt_uplink{*fabric.find("mgmt-leaf1"), 4 + 5};  // after its 4 hosts, to the fifth spine
  const PortRef spine_end = fabric.peer(mgmt_uplink);
  ASSERT_TRUE(spine_end.valid());
  removed.insert(fabric.node(mgmt_uplink.node).name + "-" + fabric.node(fabric.peer(mgmt_uplink).node).name);
  fabric.disconnect(mgmt_uplink);
  Result<std::vector<RemovedCable>> failed = degrade(fabric, {.fail_links = 25, .seed = 9});
  ASSERT_TRUE(failed.ok()) << failed.status().message();
  for (const RemovedCable& cable : *failed) {
    const bool lower_first = fabric.node(cable.a.node).name.starts_with("su") || fabric.node(cable.a.node).name.starts_with("mgmt");
    const PortRef lower = lower_first ? cable.a : cable.b, upper = lower_first ? cable.b : cable.a;
    removed.insert(fabric.node(lower.node).name + "-" + fabric.node(upper.node).name);
  }
  ASSERT_EQ(removed.size(), 26u);
  const Detection detection = detect(fabric);
  ASSERT_NE(detection.find(Family::kPgft), nullptr) << family_summary(detection);
  EXPECT_EQ(detection.levels.height, 2);
  EXPECT_EQ(missing_cables(fabric, detection), removed) << detection_summary(fabric, detection);
  int hcas = 0, compute = 0;
  for (int x = 0; x < fabric.size(); ++x) {
    const Node& node = fabric.node(x);
    if (node.is_switch()) continue;
    hcas += node.name.starts_with("dgx");
    compute += !detection.levels.is_io_host(x);
  }
  EXPECT_EQ(compute, hcas);
  EXPECT_EQ(detection.management_leaves.size(), 2u);
  // A management leaf's missing cable is named at the ports its siblings
  // use: the other management leaf's toward that spine, the other spines'
  // toward that leaf (before: [?] at both ends).
  for (const Deviation& d : detection.deviations()) {
    if (d.kind != Deviation::Kind::kMissingCable) continue;
    EXPECT_NE(d.at.port, 0) << fabric.node(d.at.node).name;
    EXPECT_NE(d.peer.port, 0) << fabric.node(d.peer.node).name;
    if (d.at.node == mgmt_uplink.node && d.peer.node == spine_end.node) {
      EXPECT_EQ(d.at.port, mgmt_uplink.port);
      EXPECT_EQ(d.peer.port, spine_end.port);
    }
  }
}

// A site of 4 director chassis, every chip a switch: 16 edge switches of 8
// hosts, each cabled to a line chip of every director; a director is 4
// line chips under 2 fabric chips: PGFT(3; 8, 4, 4; 1, 4, 2; 1, 1, 1). Six
// edge switches carry no hosts (gateways, spares) and 5 cables are missing.
TEST(DetectSuperpod, DirectorSiteWithHostlessEdgesKeepsThemLeavesAndNamesEveryMissingCable) {
  Result<Fabric> full = generate_pgft({{8, 4, 4}, {1, 4, 2}, {1, 1, 1}});
  ASSERT_TRUE(full.ok()) << full.status().message();
  std::vector<bool> keep(full->size(), true);
  std::set<std::string> hostless;
  for (int x = 0; x < full->size() && hostless.size() < 6; ++x) {
    const Node& node = full->node(x);
    if (!node.is_switch() || !node.name.starts_with("L1-") || x % 3 != 0) continue;
    hostless.insert(node.name);
    for (const Port& port : node.ports)
      if (port.peer.valid() && !full->node(port.peer.node).is_switch()) keep[port.peer.node] = false;
  }
  ASSERT_EQ(hostless.size(), 6u);
  Fabric fabric = induced_subfabric(*full, keep);
  Result<std::vector<RemovedCable>> failed = degrade(fabric, {.fail_links = 5, .seed = 4});
  ASSERT_TRUE(failed.ok()) << failed.status().message();
  std::set<std::string> removed;
  for (const RemovedCable& cable : *failed) {
    const bool lower_first = fabric.node(cable.a.node).name < fabric.node(cable.b.node).name;
    removed.insert(fabric.node(lower_first ? cable.a.node : cable.b.node).name + "-" +
                   fabric.node(lower_first ? cable.b.node : cable.a.node).name);
  }
  const Detection detection = detect(fabric);
  EXPECT_EQ(detection.levels.height, 3) << detection_summary(fabric, detection);
  for (const std::string& name : hostless) EXPECT_EQ(detection.levels.of[*fabric.find(name)], 1) << name;
  EXPECT_EQ(missing_cables(fabric, detection), removed) << detection_summary(fabric, detection);
  EXPECT_NE(detection.find(Family::kPgft), nullptr) << family_summary(detection);
  // Every host-carrying edge has its 8 hosts; the hostless ones are so by
  // design and miss none (before: 8 missing hosts reported on each).
  for (const Deviation& d : detection.deviations())
    EXPECT_NE(d.kind, Deviation::Kind::kMissingHost) << fabric.node(d.at.node).name << ": " << d.detail;
}

TEST(DetectSuperpod, HostlessLeavesHangingOffTheSpinesAreLeavesNotTheTop) {
  // Two levels: hostless leaves would be a third level above the spines;
  // three levels: they would sit beside the cores.
  SuperpodParams two = {.units = 4, .servers = 8, .rails = 4, .spines = 4, .radix = 36, .mgmt_leaves = 2, .mgmt_hosts = 0};
  SuperpodParams three = three_level();
  three.mgmt_leaves = 2;
  three.mgmt_hosts = 0;
  for (const auto& [params, height] : {std::pair{two, 2}, std::pair{three, 3}}) {
    const Superpod p = pod(params);
    const Detection detection = detect(p.fabric);
    EXPECT_EQ(detection.levels.height, height);
    ASSERT_NE(detection.find(Family::kPgft), nullptr) << family_summary(detection);
    EXPECT_FALSE(detection.degraded()) << detection_summary(p.fabric, detection);
    for (const char* name : {"mgmt-leaf1", "mgmt-leaf2"}) EXPECT_EQ(detection.levels.of[*p.fabric.find(name)], 1) << name;
    EXPECT_EQ(detection.management_leaves.size(), 2u);
  }
}

// Sets the rate of the cable at `port`, both ends.
void set_rate(Fabric& fabric, PortRef port, const char* rate) {
  fabric.port(port).rate = *parse_link_rate(rate);
  fabric.port(fabric.peer(port)).rate = *parse_link_rate(rate);
}

TEST(DetectSuperpod, StorageThatAllRunsSlowerIsByDesignAndOneSlowHcaIsADeviation) {
  Superpod p = pod(three_level());
  Fabric& fabric = p.fabric;
  for (int x = 0; x < fabric.size(); ++x)
    for (int port = 1; port <= fabric.node(x).num_ports; ++port)
      if (fabric.node(x).ports[port].peer.valid()) fabric.node(x).ports[port].rate = *parse_link_rate("4xHDR");
  // Two storage nodes at EDR on free ports of two spines, and one DGX HCA that trained at EDR.
  for (const auto& [name, spine] : {std::pair{"stor01 HCA-1", "sg1-r1-spine01"}, std::pair{"stor02 HCA-1", "sg1-r2-spine01"}}) {
    const int host = *fabric.add_node(NodeType::kCa, name, 1, 0x5700 + fabric.size() * 0x100);
    ASSERT_TRUE(fabric.connect({host, 1}, {*fabric.find(spine), 12}).ok());
    set_rate(fabric, {host, 1}, "4xEDR");
  }
  const int slow_hca = *fabric.find("dgx0003 mlx5_1");
  set_rate(fabric, {slow_hca, 1}, "4xEDR");
  const Detection detection = detect(fabric);
  ASSERT_EQ(detection.slow_by_design.size(), 2u) << detection_summary(fabric, detection);
  for (const Deviation& d : detection.slow_by_design) EXPECT_EQ(fabric.node(d.at.node).name.substr(0, 4), "stor");
  ASSERT_EQ(detection.deviations().size(), 1u) << detection_summary(fabric, detection);
  EXPECT_EQ(detection.deviations().front().kind, Deviation::Kind::kSlowLink);
  EXPECT_EQ(detection.deviations().front().at.node, slow_hca);
}

// Selene's twin (selene_twin.h) as the real file reads: 3 levels,
// PGFT(3; 20, 7, 32; 1, 10, 14; 1, 2, 1), 4 management leaves and 2
// management spines apart, ANs on every level, every cut cable named by
// both ends (public_dumps_test.cc compares the shape with the file's).
TEST(DetectSuperpod, SeleneTwinReadsAsBuilt) {
  const Fabric fabric = selene_twin();
  const Detection detection = detect(fabric);
  const PodShape shape = pod_shape(fabric, detection);
  EXPECT_EQ(shape.levels, 3);
  const std::vector<std::pair<std::string, std::vector<int>>> pgft{
      {"h", {3}}, {"m", {20, 7, 32}}, {"w", {1, 10, 14}}, {"p", {1, 2, 1}}};
  EXPECT_EQ(shape.pgft, pgft);
  EXPECT_EQ(shape.management_leaves, 4u);
  EXPECT_EQ(shape.management_spines, 2u);
  EXPECT_EQ(shape.aggregation_nodes_by_level, (std::map<int, int>{{1, 204}, {2, 322}, {3, 140}}));
  EXPECT_GE(missing_cables(fabric, detection).size(), 25u);
}

}  // namespace
}  // namespace ftclos
