// Shapes of the direct networks (gen/generate_direct.cc) and of cables
// inside a level (vary's level_cables).
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "core/fabric_parts.h"
#include "gen/generate.h"

namespace ftclos {
namespace {

// Switch neighbours by switch name, each cable once per end.
std::map<std::string, std::multiset<std::string>> switch_graph(const Fabric& fabric) {
  std::map<std::string, std::multiset<std::string>> graph;
  for (const Node& node : fabric.nodes()) {
    if (!node.is_switch()) continue;
    graph[node.name];
    for (const Port& port : node.ports)
      if (port.peer.valid() && fabric.node(port.peer.node).is_switch())
        graph[node.name].insert(fabric.node(port.peer.node).name);
  }
  return graph;
}

int index_of(const std::string& name) { return std::stoi(name.substr(name.find('-') + 1)); }

void expect_hosts_everywhere(const Fabric& fabric, int hosts) {
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch()) continue;
    int cas = 0;
    for (const Port& port : fabric.node(x).ports) cas += port.peer.valid() && !fabric.node(port.peer.node).is_switch();
    EXPECT_EQ(cas, hosts) << fabric.node(x).name;
  }
  EXPECT_EQ(fabric_parts(fabric).size(), 1u);
}

TEST(GenerateDirect, RingNeighboursAreTheNextAndThePrevious) {
  const Result<Fabric> ring = generate_ring(7, 2);
  ASSERT_TRUE(ring.ok()) << ring.status().message();
  EXPECT_EQ(ring->count(NodeType::kSwitch), 7);
  EXPECT_EQ(ring->count(NodeType::kCa), 14);
  EXPECT_EQ(ring->switch_links(), 7);
  for (const auto& [name, peers] : switch_graph(*ring)) {
    const int i = index_of(name);
    EXPECT_EQ(peers, (std::multiset<std::string>{"S-" + std::to_string((i + 1) % 7), "S-" + std::to_string((i + 6) % 7)}))
        << name;
  }
  expect_hosts_everywhere(*ring, 2);
  EXPECT_FALSE(generate_ring(2, 1).ok());
}

TEST(GenerateDirect, TorusHasFourNeighboursWrappingAround) {
  const Result<Fabric> torus = generate_torus(4, 3, 1);
  ASSERT_TRUE(torus.ok()) << torus.status().message();
  EXPECT_EQ(torus->count(NodeType::kSwitch), 12);
  EXPECT_EQ(torus->switch_links(), 24);
  for (const auto& [name, peers] : switch_graph(*torus)) {
    const int i = index_of(name) % 4, j = index_of(name) / 4;
    auto at = [](int a, int b) { return "S-" + std::to_string(((b + 3) % 3) * 4 + (a + 4) % 4); };
    EXPECT_EQ(peers, (std::multiset<std::string>{at(i + 1, j), at(i - 1, j), at(i, j + 1), at(i, j - 1)})) << name;
  }
  expect_hosts_everywhere(*torus, 1);
  EXPECT_FALSE(generate_torus(2, 5, 1).ok());
}

TEST(GenerateDirect, ThreeDTorusHasSixNeighboursWrappingAround) {
  const Result<Fabric> torus = generate_torus(4, 3, 1, 5);
  ASSERT_TRUE(torus.ok()) << torus.status().message();
  EXPECT_EQ(torus->count(NodeType::kSwitch), 60);
  EXPECT_EQ(torus->switch_links(), 180);
  for (const auto& [name, peers] : switch_graph(*torus)) {
    const int i = index_of(name) % 4, j = index_of(name) / 4 % 3, k = index_of(name) / 12;
    auto at = [](int a, int b, int c) {
      return "S-" + std::to_string(((c + 5) % 5) * 12 + ((b + 3) % 3) * 4 + (a + 4) % 4);
    };
    EXPECT_EQ(peers, (std::multiset<std::string>{at(i + 1, j, k), at(i - 1, j, k), at(i, j + 1, k), at(i, j - 1, k),
                                                 at(i, j, k + 1), at(i, j, k - 1)}))
        << name;
  }
  expect_hosts_everywhere(*torus, 1);
  EXPECT_FALSE(generate_torus(4, 4, 1, 2).ok()) << "a dimension of 2 is no ring";
}

TEST(GenerateDirect, HypercubeNeighboursDifferInOneBit) {
  const Result<Fabric> cube = generate_hypercube(4, 2);
  ASSERT_TRUE(cube.ok()) << cube.status().message();
  EXPECT_EQ(cube->count(NodeType::kSwitch), 16);
  EXPECT_EQ(cube->switch_links(), 32);
  for (const auto& [name, peers] : switch_graph(*cube)) {
    EXPECT_EQ(peers.size(), 4u) << name;
    for (const std::string& peer : peers) EXPECT_EQ(__builtin_popcount(index_of(name) ^ index_of(peer)), 1) << name;
  }
  expect_hosts_everywhere(*cube, 2);
  EXPECT_FALSE(generate_hypercube(0, 1).ok());
}

TEST(GenerateDirect, DragonflyGroupsAreCliquesJoinedOncePerPair) {
  const int groups = 5, per_group = 3;
  const Result<Fabric> fly = generate_dragonfly(groups, per_group, 2);
  ASSERT_TRUE(fly.ok()) << fly.status().message();
  EXPECT_EQ(fly->count(NodeType::kSwitch), groups * per_group);
  EXPECT_EQ(fly->switch_links(), groups * per_group * (per_group - 1) / 2 + groups * (groups - 1) / 2);
  std::map<std::pair<int, int>, int> between;  // (group, group) -> cables, each counted from both ends
  std::map<std::string, int> global;
  for (const auto& [name, peers] : switch_graph(*fly))
    for (const std::string& peer : peers) {
      const int g = std::stoi(name.substr(1)), h = std::stoi(peer.substr(1));
      ++between[{g, h}];
      if (g != h) ++global[name];
    }
  for (int g = 0; g < groups; ++g)
    for (int h = 0; h < groups; ++h) EXPECT_EQ((between[{g, h}]), g == h ? per_group * (per_group - 1) : 1);
  // 4 other groups over 3 switches: no switch carries more than 2 of them.
  for (const auto& [name, count] : global) EXPECT_LE(count, 2) << name;
  expect_hosts_everywhere(*fly, 2);
}

// Sizes past the node limit are refused before anything is built: on the
// old code the torus overflowed int (65536 x 65536 wrote past a vector,
// 46341 x 46341 aborted), the dragonfly aborted and the ring ran for minutes.
TEST(GenerateDirect, SizesPastTheLimitAreRefusedAtOnce) {
  const auto start = std::chrono::steady_clock::now();
  for (const Result<Fabric>& huge :
       {generate_torus(65536, 65536, 1), generate_torus(46341, 46341, 1), generate_dragonfly(2147483647, 1, 1),
        generate_dragonfly(2, 2147483647, 0), generate_ring(100000000, 1), generate_ring(3, 2147483647)}) {
    ASSERT_FALSE(huge.ok());
    EXPECT_NE(huge.status().message().find("refusing to generate"), std::string::npos) << huge.status().message();
  }
  // 100,000 single-switch groups pass the node limit but need 99,999 ports each.
  const Result<Fabric> wide = generate_dragonfly(100000, 1, 0);
  ASSERT_FALSE(wide.ok());
  EXPECT_NE(wide.status().message().find("99999 ports"), std::string::npos) << wide.status().message();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST(GenerateDirect, LevelCablesJoinSwitchesOfOneLevelOnNewPorts) {
  Result<Fabric> tree = generate_ftree(8, 3);
  ASSERT_TRUE(tree.ok());
  const int links = tree->switch_links();
  Variations variations;
  variations.level_cables = 5;
  variations.level_cables_level = 2;
  const Result<VariationLog> log = vary(*tree, variations);
  ASSERT_TRUE(log.ok()) << log.status().message();
  EXPECT_EQ(tree->switch_links(), links + 5);
  ASSERT_EQ(log->level_cables.size(), 5u);
  for (const NamedCable& cable : log->level_cables) {
    EXPECT_NE(cable.a, cable.b);
    EXPECT_EQ(cable.a.substr(0, 3), "L2-") << cable.a;  // FT(8,3) names switches L<level>-...
    EXPECT_EQ(cable.b.substr(0, 3), "L2-") << cable.b;
    EXPECT_GT(cable.a_port, 8);
    EXPECT_GT(cable.b_port, 8);
  }
  variations.level_cables_level = 4;
  EXPECT_FALSE(vary(*tree, variations).ok());
}

}  // namespace
}  // namespace ftclos
