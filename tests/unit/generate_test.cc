#include "gen/generate.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/aggregation_node.h"
#include "core/netfile.h"
#include "detect/common_ancestor.h"

namespace ftclos {
namespace {

struct Counts {
  int hosts, switches, switch_cables, cables;
  bool operator==(const Counts&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Counts& c) {
  return out << c.hosts << " hosts, " << c.switches << " switches, " << c.switch_cables << " switch cables, "
             << c.cables << " cables";
}

int cable_count(const Fabric& fabric) {
  int ends = 0;
  for (const Node& node : fabric.nodes())
    for (int p = 1; p <= node.num_ports; ++p) ends += node.ports[p].peer.valid();
  return ends / 2;
}

Counts counts(const Fabric& fabric) {
  return {fabric.count(NodeType::kCa), fabric.count(NodeType::kSwitch), fabric.switch_links(), cable_count(fabric)};
}

// Every port of every node is cabled: the generators size nodes to fit.
bool all_ports_used(const Fabric& fabric) {
  for (const Node& node : fabric.nodes())
    for (int p = 1; p <= node.num_ports; ++p)
      if (!node.ports[p].peer.valid()) return false;
  return true;
}

// Cables as (name, port, name, port) with the smaller end first; without
// ports the port numbers are 0.
using NamedCable = std::tuple<std::string, int, std::string, int>;
std::set<NamedCable> named_cables(const Fabric& fabric, bool with_ports) {
  std::set<NamedCable> cables;
  for (int i = 0; i < fabric.size(); ++i)
    for (int p = 1; p <= fabric.node(i).num_ports; ++p) {
      const PortRef peer = fabric.node(i).ports[p].peer;
      if (!peer.valid()) continue;
      NamedCable a{fabric.node(i).name, with_ports ? p : 0, fabric.node(peer.node).name, with_ports ? peer.port : 0};
      NamedCable b{std::get<2>(a), std::get<3>(a), std::get<0>(a), std::get<1>(a)};
      cables.insert(std::min(a, b));
    }
  return cables;
}

Fabric must(Result<Fabric> fabric) {
  EXPECT_TRUE(fabric.ok()) << fabric.status().message();
  return fabric.ok() ? std::move(*fabric) : Fabric();
}

TEST(GeneratePgft, FatTreeCounts) {
  // FT(M, n): M (M/2)^(n-1) hosts, (2n-1)(M/2)^(n-1) switches, n-1 switch cables per host.
  for (auto [ports, levels, hosts, switches] :
       {std::tuple{4, 2, 8, 6}, std::tuple{8, 2, 32, 12}, std::tuple{8, 3, 128, 80}, std::tuple{4, 3, 16, 20}}) {
    const Fabric fabric = must(generate_ftree(ports, levels));
    EXPECT_EQ(counts(fabric), (Counts{hosts, switches, (levels - 1) * hosts, levels * hosts}))
        << "FT(" << ports << "," << levels << ")";
    EXPECT_TRUE(all_ports_used(fabric));
    for (const Node& node : fabric.nodes()) EXPECT_EQ(node.num_ports, node.is_switch() ? ports : 1) << node.name;
  }
}

TEST(GeneratePgft, Clos2Counts) {
  // ftree(n+m, r): r n hosts, r + m switches, r m switch cables.
  for (auto [n, m, r] : {std::tuple{2, 4, 6}, std::tuple{3, 9, 10}, std::tuple{1, 1, 1}}) {
    const Fabric fabric = must(generate_clos2(n, m, r));
    EXPECT_EQ(counts(fabric), (Counts{r * n, r + m, r * m, r * n + r * m}));
    EXPECT_TRUE(all_ports_used(fabric));
    EXPECT_EQ(fabric.node(*fabric.find("L1-0")).num_ports, n + m);
    EXPECT_EQ(fabric.node(*fabric.find("L2-0")).num_ports, r);
  }
}

TEST(GeneratePgft, KaryCounts) {
  // k-ary n-tree: k^n hosts, n k^(n-1) switches, (n-1) k^n switch cables.
  for (auto [k, n, hosts] : {std::tuple{2, 3, 8}, std::tuple{4, 3, 64}, std::tuple{3, 2, 9}}) {
    const Fabric fabric = must(generate_kary(k, n));
    EXPECT_EQ(counts(fabric), (Counts{hosts, n * hosts / k, (n - 1) * hosts, n * hosts}));
    EXPECT_TRUE(all_ports_used(fabric));
  }
}

TEST(GeneratePgft, ParallelCablesAndMultiHomedHosts) {
  // PGFT(2; 4,4; 1,2; 1,2): 16 hosts, 4 leaves with 4 + 2*2 ports, 2 tops with 4*2 ports.
  const Fabric parallel = must(generate_pgft({.m = {4, 4}, .w = {1, 2}, .p = {1, 2}}));
  EXPECT_EQ(counts(parallel), (Counts{16, 6, 16, 32}));
  EXPECT_TRUE(all_ports_used(parallel));
  EXPECT_EQ(parallel.node(*parallel.find("L1-0")).num_ports, 8);
  EXPECT_EQ(parallel.node(*parallel.find("L2-0")).num_ports, 8);
  // Parallel cables of one child-parent pair sit on adjacent ports.
  const int leaf = *parallel.find("L1-3");
  EXPECT_EQ(parallel.peer({leaf, 5}).node, parallel.peer({leaf, 6}).node);
  // PGFT(1; 4; 2; 1): 4 hosts with 2 ports, one to each of 2 switches.
  const Fabric dual = must(generate_pgft({.m = {4}, .w = {2}, .p = {1}}));
  EXPECT_EQ(counts(dual), (Counts{4, 2, 0, 8}));
  EXPECT_EQ(dual.node(*dual.find("H-0")).num_ports, 2);
}

// Full XGFT digits (position 1 first) of a generated node, from its name: the
// name lists positions h..1 and leaves out those whose range is one value.
std::vector<int> name_digits(const std::string& name, const std::vector<int>& radix) {
  std::vector<int> listed;
  std::istringstream in(name.substr(name.find('-') + 1));
  for (std::string part; std::getline(in, part, '.');) listed.push_back(std::stoi(part));
  std::vector<int> digits(radix.size(), 0);
  size_t next = 0;
  for (size_t i = radix.size(); i-- > 0;)
    if (radix[i] > 1) digits[i] = listed.at(next++);
  EXPECT_EQ(next, listed.size()) << name;
  return digits;
}

TEST(GeneratePgft, Ft83FollowsTheXgftAdjacencyRule) {
  const std::vector<int> m{4, 4, 8}, w{1, 4, 4};  // FT(8,3)
  auto radix = [&](int level) {
    std::vector<int> r;
    for (int i = 1; i <= 3; ++i) r.push_back(i <= level ? w[i - 1] : m[i - 1]);
    return r;
  };
  auto level_of = [](const Node& node) { return node.is_switch() ? node.name[1] - '0' : 0; };
  const Fabric fabric = must(generate_ftree(8, 3));
  std::vector<int> cables_above(3, 0);
  for (const Node& upper : fabric.nodes()) {
    const int l = level_of(upper) - 1;  // the level below this node
    if (l < 0) continue;
    const std::vector<int> up = name_digits(upper.name, radix(l + 1));
    const int down_ports = l == 0 ? 0 : m[l - 1];
    for (int p = 1; p <= m[l]; ++p) {
      const PortRef peer = upper.ports[p].peer;
      ASSERT_TRUE(peer.valid()) << upper.name << "[" << p << "]";
      const Node& lower = fabric.node(peer.node);
      ASSERT_EQ(level_of(lower), l) << upper.name << " - " << lower.name;
      const std::vector<int> low = name_digits(lower.name, radix(l));
      for (int i = 0; i < 3; ++i)
        if (i != l) {
          EXPECT_EQ(low[i], up[i]) << upper.name << " - " << lower.name << " differ at position " << i + 1;
        }
      // Down port by child digit a_{l+1}, up port by parent digit b_{l+1}.
      EXPECT_EQ(p, 1 + low[l]) << upper.name << " - " << lower.name;
      EXPECT_EQ(peer.port, 1 + down_ports + up[l]) << upper.name << " - " << lower.name;
      ++cables_above[l];
    }
  }
  // Every level-l node has w_{l+1} distinct parents: the rule's pairs, all cabled.
  EXPECT_EQ(cables_above, (std::vector<int>{128 * 1, 32 * 4, 32 * 4}));
}

TEST(GenerateMikant, TheoremCounts) {
  // Theorems 3-5: radix 2k, (2n-2) k^(n-1) switches, 2 k^n hosts, (2n-1) k^n links.
  for (auto [k, n, kn] : {std::tuple{2, 2, 4}, std::tuple{3, 3, 27}, std::tuple{4, 3, 64}, std::tuple{3, 4, 81}}) {
    const Fabric fabric = must(generate_mikant(k, n));
    EXPECT_EQ(fabric.count(NodeType::kCa), 2 * kn);
    EXPECT_EQ(fabric.count(NodeType::kSwitch), (2 * n - 2) * kn / k);
    EXPECT_EQ(cable_count(fabric), (2 * n - 1) * kn) << "MiKANT(" << k << "," << n << ")";
    EXPECT_TRUE(all_ports_used(fabric));
    for (const Node& node : fabric.nodes())
      if (node.is_switch()) {
        EXPECT_EQ(node.num_ports, 2 * k);
      }
  }
}

TEST(GenerateMikant, PaperExampleNeighbors) {
  // §II: in MiKANT(3, 4), <0,2,0,0,0> connects across to <1,2,*,0,0> and down
  // to <0,1,0,*,0>; port k+1+i reaches the neighbor whose varying digit is i.
  const Fabric fabric = must(generate_mikant(3, 4));
  const int w = *fabric.find("G0-L2-0.0.0");
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(fabric.node(fabric.peer({w, 4 + i}).node).name, "G1-L2-" + std::to_string(i) + ".0.0");
    EXPECT_EQ(fabric.node(fabric.peer({w, 1 + i}).node).name, "G0-L1-0." + std::to_string(i) + ".0");
  }
  const int host = *fabric.find("H1-2.0.1.2");
  EXPECT_EQ(fabric.peer({host, 1}), (PortRef{*fabric.find("G1-L0-0.1.2"), 3}));
}

TEST(GenerateRfc, CountsAndDegreeRegularity) {
  for (auto [radix, leaves, levels] : {std::tuple{8, 16, 3}, std::tuple{4, 4, 2}, std::tuple{6, 12, 4}}) {
    const Fabric fabric = must(generate_rfc(radix, leaves, levels, 5));
    const int switches = leaves * (levels - 1) + leaves / 2;
    EXPECT_EQ(counts(fabric), (Counts{leaves * radix / 2, switches, (levels - 1) * leaves * radix / 2,
                                      levels * leaves * radix / 2}));
    EXPECT_TRUE(all_ports_used(fabric));
    for (const Node& node : fabric.nodes()) {
      if (!node.is_switch()) continue;
      EXPECT_EQ(node.num_ports, radix);
      std::set<int> neighbors;
      int hosts = 0;
      for (int p = 1; p <= node.num_ports; ++p) {
        const int peer = node.ports[p].peer.node;
        if (fabric.node(peer).is_switch()) {
          EXPECT_TRUE(neighbors.insert(peer).second) << node.name << ": double cable";
        }
        hosts += !fabric.node(peer).is_switch();
      }
      EXPECT_EQ(hosts, node.name.starts_with("L1-") ? radix / 2 : 0) << node.name;
    }
  }
}

TEST(GenerateRfc, SameSeedSameFile) {
  const std::string once = write_netfile(must(generate_rfc(8, 16, 3, 42)));
  EXPECT_EQ(once, write_netfile(must(generate_rfc(8, 16, 3, 42))));
  EXPECT_NE(once, write_netfile(must(generate_rfc(8, 16, 3, 43))));
}

TEST(GenerateRfc, DefaultFileHasCommonAncestors) {
  EXPECT_TRUE(every_leaf_pair_has_common_ancestor(must(generate_rfc(8, 16, 3, 1))));
}

TEST(Generate, NetFilesReadBack) {
  for (Result<Fabric> generated : {generate_ftree(8, 3), generate_clos2(2, 4, 6), generate_kary(4, 3),
                                   generate_mikant(3, 3), generate_rfc(8, 16, 3, 1),
                                   generate_pgft({.m = {4, 4}, .w = {2, 2}, .p = {1, 2}})}) {
    const std::string text = write_netfile(must(std::move(generated)));
    const Result<Fabric> parsed = parse_netfile(text, "generated");
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    EXPECT_EQ(write_netfile(*parsed), text);
  }
}

TEST(Generate, RejectsBadParameters) {
  EXPECT_FALSE(generate_ftree(7, 2).ok());
  EXPECT_FALSE(generate_ftree(8, 0).ok());
  EXPECT_FALSE(generate_ftree(64, 4).ok());  // 2M hosts
  EXPECT_FALSE(generate_kary(0, 3).ok());
  EXPECT_FALSE(generate_clos2(2, 0, 3).ok());
  EXPECT_FALSE(generate_pgft({.m = {4, 4}, .w = {1}, .p = {1, 1}}).ok());
  EXPECT_FALSE(generate_pgft({.m = {4, 0}, .w = {1, 2}, .p = {1, 1}}).ok());
  EXPECT_FALSE(generate_pgft({.m = {200, 4}, .w = {1, 100}, .p = {1, 1}}).ok());  // 300-port leaves
  EXPECT_FALSE(generate_mikant(3, 1).ok());
  EXPECT_FALSE(generate_rfc(7, 16, 3, 1).ok());
  EXPECT_FALSE(generate_rfc(8, 15, 3, 1).ok());
  EXPECT_FALSE(generate_rfc(8, 6, 3, 1).ok());  // a root needs 8 distinct children
  const Result<Fabric> odd = generate_ftree(7, 2);
  EXPECT_NE(odd.status().message().find("even"), std::string::npos) << odd.status().message();
}

// Leaves A, B, C with a host each; X above A and B, Y above B and C.
Fabric two_roots(bool with_top) {
  Fabric fabric;
  auto add = [&](const std::string& name, int ports) { return *fabric.add_node(NodeType::kSwitch, name, ports); };
  const int a = add("A", 2), b = add("B", 3), c = add("C", 2), x = add("X", 3), y = add("Y", 3);
  for (int leaf : {a, b, c}) {
    const int host = *fabric.add_node(NodeType::kCa, "host of " + fabric.node(leaf).name, 1);
    EXPECT_TRUE(fabric.connect({host, 1}, {leaf, 1}).ok());
  }
  EXPECT_TRUE(fabric.connect({a, 2}, {x, 1}).ok());
  EXPECT_TRUE(fabric.connect({b, 2}, {x, 2}).ok());
  EXPECT_TRUE(fabric.connect({b, 3}, {y, 1}).ok());
  EXPECT_TRUE(fabric.connect({c, 2}, {y, 2}).ok());
  if (with_top) {
    const int z = add("Z", 2);
    EXPECT_TRUE(fabric.connect({x, 3}, {z, 1}).ok());
    EXPECT_TRUE(fabric.connect({y, 3}, {z, 2}).ok());
  }
  return fabric;
}

TEST(CommonAncestor, HandBuiltFabrics) {
  EXPECT_FALSE(every_leaf_pair_has_common_ancestor(two_roots(false)));  // A and C share nothing
  EXPECT_TRUE(every_leaf_pair_has_common_ancestor(two_roots(true)));    // Z is above all
  EXPECT_TRUE(every_leaf_pair_has_common_ancestor(must(generate_ftree(4, 3))));
}

TEST(Degrade, RemovesExactlyKSwitchCables) {
  Fabric fabric = must(generate_ftree(8, 3));
  const Fabric before = fabric;
  const Result<std::vector<RemovedCable>> removed = degrade(fabric, {.fail_links = 4, .seed = 7});
  ASSERT_TRUE(removed.ok()) << removed.status().message();
  ASSERT_EQ(removed->size(), 4u);
  EXPECT_EQ(fabric.switch_links(), before.switch_links() - 4);
  EXPECT_EQ(fabric.count(NodeType::kCa), 128);
  std::set<std::pair<PortRef, PortRef>> distinct;
  for (const RemovedCable& cable : *removed) {
    distinct.insert({cable.a, cable.b});
    EXPECT_TRUE(fabric.node(cable.a.node).is_switch() && fabric.node(cable.b.node).is_switch());
    EXPECT_FALSE(fabric.peer(cable.a).valid());
    EXPECT_FALSE(fabric.peer(cable.b).valid());
    EXPECT_EQ(before.peer(cable.a), cable.b);
  }
  EXPECT_EQ(distinct.size(), 4u);
  // The same seed fails the same cables.
  Fabric again = before;
  ASSERT_TRUE(degrade(again, {.fail_links = 4, .seed = 7}).ok());
  EXPECT_EQ(write_netfile(again), write_netfile(fabric));
}

TEST(Degrade, KeepsFirstHostsOfEveryLeaf) {
  Fabric fabric = must(generate_ftree(8, 2));
  const Result<std::vector<RemovedCable>> removed = degrade(fabric, {.fail_links = 1, .hosts_per_leaf = 2, .seed = 3});
  ASSERT_TRUE(removed.ok()) << removed.status().message();
  EXPECT_EQ(fabric.count(NodeType::kCa), 16);
  EXPECT_EQ(fabric.count(NodeType::kSwitch), 12);
  EXPECT_EQ(fabric.switch_links(), 31);
  ASSERT_EQ(removed->size(), 1u);
  EXPECT_TRUE(fabric.node(removed->front().a.node).is_switch());  // valid in the rebuilt fabric
  for (const Node& node : fabric.nodes()) {
    if (!node.name.starts_with("L1-")) continue;
    for (int p = 1; p <= 4; ++p) {
      const PortRef peer = node.ports[p].peer;
      EXPECT_EQ(peer.valid(), p <= 2) << node.name << "[" << p << "]";
    }
  }
  // Kept hosts keep their GUIDs; the others are gone.
  const Fabric full = must(generate_ftree(8, 2));
  ASSERT_TRUE(fabric.find("H-0.1").has_value());
  EXPECT_EQ(fabric.node(*fabric.find("H-0.1")).guid, full.node(*full.find("H-0.1")).guid);
  EXPECT_FALSE(fabric.find("H-0.2").has_value());
}

TEST(Degrade, HostsPerLeaf5OnFt82IsAnError) {
  Fabric fabric = must(generate_ftree(8, 2));  // 4 hosts per leaf
  const Result<std::vector<RemovedCable>> removed = degrade(fabric, {.hosts_per_leaf = 5});
  ASSERT_FALSE(removed.ok());
  EXPECT_EQ(removed.status().message(), "cannot keep 5 hosts per leaf: the leaves of this fabric carry at most 4");
  EXPECT_EQ(fabric.count(NodeType::kCa), 32);
  EXPECT_TRUE(degrade(fabric, {.hosts_per_leaf = 4}).ok());
  EXPECT_EQ(fabric.count(NodeType::kCa), 32);
}

// A pod's SHARP ANs (one per switch, on its last port) are no hosts: every
// switch keeps its AN, and a leaf's count stops at its compute HCAs.
TEST(Degrade, HostsPerLeafOnAPodKeepsEveryAggregationNode) {
  Result<Superpod> pod = generate_superpod({.units = 2, .servers = 4, .rails = 2, .spines = 2, .radix = 8});
  ASSERT_TRUE(pod.ok()) << pod.status().message();
  Fabric fabric = pod->fabric;
  const int switches = fabric.count(NodeType::kSwitch);
  EXPECT_EQ(degrade(fabric, {.hosts_per_leaf = 5}).status().message(),
            "cannot keep 5 hosts per leaf: the leaves of this fabric carry at most 4");
  ASSERT_TRUE(degrade(fabric, {.hosts_per_leaf = 1}).ok());
  int ans = 0, hcas = 0;
  for (const Node& node : fabric.nodes()) {
    if (node.is_switch()) continue;
    (is_aggregation_node(node) ? ans : hcas)++;
  }
  EXPECT_EQ(ans, switches);
  EXPECT_EQ(hcas, 4);  // one per rail leaf of 2 SUs x 2 rails
}

TEST(Degrade, RefusesMoreFailuresThanCables) {
  Fabric fabric = must(generate_clos2(2, 2, 2));  // 4 switch cables
  EXPECT_FALSE(degrade(fabric, {.fail_links = 5}).ok());
  EXPECT_EQ(fabric.switch_links(), 4);
  EXPECT_TRUE(degrade(fabric, {.fail_links = 4}).ok());
  EXPECT_EQ(fabric.switch_links(), 0);
}

TEST(Shuffle, KeepsTheCableGraph) {
  const Fabric fabric = must(generate_ftree(8, 3));
  const Fabric nodes_only = shuffle(fabric, 9, false);
  EXPECT_EQ(named_cables(nodes_only, true), named_cables(fabric, true));
  EXPECT_NE(nodes_only.node(0).name, fabric.node(0).name);
  const Fabric both = shuffle(fabric, 9, true);
  EXPECT_EQ(named_cables(both, false), named_cables(fabric, false));
  EXPECT_NE(named_cables(both, true), named_cables(fabric, true));
  for (const Node& node : fabric.nodes()) {
    const Node& moved = both.node(*both.find(node.name));
    EXPECT_EQ(moved.guid, node.guid);
    EXPECT_EQ(moved.num_ports, node.num_ports);
    if (!node.is_switch()) {
      EXPECT_EQ(moved.ports[1].guid, node.ports[1].guid);
    }
  }
}

}  // namespace
}  // namespace ftclos
