// Multicast trees consistent with the unicast order (paths/mcast_tree.h):
// on every fabric of issue #13 the tree of a group spans its members, its
// tables carry each packet to every other member exactly once
// (audit/mcast_check.h), every tree cable leads down the order, and the
// auditor finds no credit loop in the unicast and multicast dependencies
// together. A tree built against the order (rooted at its bottom) does
// close loops: the combined check can fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "audit/audit.h"
#include "audit/mcast_check.h"
#include "gen/generate.h"
#include "paths/mcast_tree.h"
#include "schemes/schemes.h"
#include "routing_checks.h"

namespace ftclos {
namespace {

Fabric degraded(Fabric fabric, int fail_links) {
  EXPECT_TRUE(degrade(fabric, {fail_links, -1, 3}).ok());
  return fabric;
}

const FabricCase kFabrics[] = {
    {"ring8", [] { return generated(generate_ring(8, 2)); }},
    {"torus4x4", [] { return generated(generate_torus(4, 4, 2)); }},
    {"hypercube4", [] { return generated(generate_hypercube(4, 2)); }},
    {"dragonfly5x3", [] { return generated(generate_dragonfly(5, 3, 2)); }},
    {"ft8_2_leaf_cables", [] { return with_level_cables(generated(generate_ftree(8, 2)), 3, 1); }},
    {"ft8_3_spine_cables", [] { return with_level_cables(generated(generate_ftree(8, 3)), 6, 2); }},
    {"ft8_2", [] { return generated(generate_ftree(8, 2)); }},
    {"ft8_3", [] { return generated(generate_ftree(8, 3)); }},
    {"ft8_3_degraded", [] { return degraded(generated(generate_ftree(8, 3)), 12); }},
    {"kary4_3", [] { return generated(generate_kary(4, 3)); }},
};

std::vector<int> cas_of(const Fabric& fabric) {
  std::vector<int> cas;
  for (int x = 0; x < fabric.size(); ++x)
    if (!fabric.node(x).is_switch()) cas.push_back(x);
  return cas;
}

// Every `stride`-th CA from `first`, on its port 1.
std::vector<PortRef> members(const Fabric& fabric, int first, int stride) {
  std::vector<PortRef> out;
  const std::vector<int> cas = cas_of(fabric);
  for (size_t i = first; i < cas.size(); i += stride) out.push_back({cas[i], 1});
  return out;
}

// The order the tables of `scheme` keep (auto: of the scheme it chose).
SwitchOrder order_of(const Routed& routed, std::string_view scheme = "auto") {
  return unicast_order(routed.fabric, routed.detection, scheme == "auto" ? routed.routing.chosen : scheme);
}

// Up*/down* on a ring of six with one host each.
Routed star_ring() { return route_fabric(*make_updown_star_scheme(), generated(generate_ring(6, 1)), 0); }

// Every switch cable of the fabric in the tables but one of the root's:
// the ring as a path through its bottom switch, whose two ports the path
// joins, a down-to-up turn the order forbids.
McastForwarding ring_path(const Routed& routed) {
  const Fabric& fabric = routed.fabric;
  const int root = routed.detection.star.roots.front();
  PortRef cut;  // the root's first switch cable
  for (int p = 1; p <= fabric.node(root).num_ports && !cut.valid(); ++p)
    if (const PortRef peer = fabric.peer({root, p}); peer.valid() && fabric.node(peer.node).is_switch()) cut = {root, p};
  McastForwarding path{0xC000, 0, std::vector<std::vector<uint8_t>>(fabric.size())};
  for (int x = 0; x < fabric.size(); ++x)
    for (int p = 1; p <= fabric.node(x).num_ports; ++p) {
      const PortRef port{x, p};
      if (fabric.node(x).is_switch() && fabric.peer(port).valid() && port != cut && fabric.peer(port) != cut)
        path.ports[x].push_back(static_cast<uint8_t>(p));
    }
  return path;
}

Correctness audit(const Routed& routed, const std::vector<McastForwarding>& groups) {
  AuditInput input{routed.fabric, routed.detection.levels, routed.lids, routed.routing.lfts, {}, routed.routing.dest_sl, {}};
  input.mcast = &groups;
  return check_correctness(input);
}

// The reference: a switch of the tree has at most one port to a switch
// earlier in the order (its parent), and none to a switch outside it.
std::string first_order_violation(const Fabric& fabric, const SwitchOrder& order, const McastForwarding& tree) {
  for (int x = 0; x < fabric.size(); ++x) {
    int up_ports = 0;
    for (const uint8_t p : tree.ports[x]) {
      const PortRef peer = p == 0 ? PortRef{} : fabric.peer({x, p});
      if (!peer.valid() || !fabric.node(peer.node).is_switch()) continue;
      if (tree.ports[peer.node].empty()) return fabric.node(x).name + " leads out of the tree";
      if (order.position[peer.node] < order.position[x]) ++up_ports;
    }
    if (up_ports > 1) return fabric.node(x).name + " has " + std::to_string(up_ports) + " up ports";
  }
  return "";
}

class McastTreeOn : public ::testing::TestWithParam<FabricCase> {};

TEST_P(McastTreeOn, SpansTheMembersAndKeepsUnicastAndMulticastFreeOfCreditLoops) {
  const Routed routed = route_fabric(*make_auto_scheme(), GetParam().make(), 0);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  const SwitchOrder order = order_of(routed);
  const std::vector<std::vector<PortRef>> groups = {members(routed.fabric, 0, 1), members(routed.fabric, 1, 3),
                                                    members(routed.fabric, 2, 7)};
  std::vector<McastForwarding> tables;
  long member_count = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    const Result<McastTree> tree = build_mcast_tree(routed.fabric, order, groups[g], 0xC000 + static_cast<int>(g));
    ASSERT_TRUE(tree.ok()) << tree.status().message();
    EXPECT_TRUE(tree->ordered);
    EXPECT_EQ(first_order_violation(routed.fabric, order, tree->forwarding), "");
    tables.push_back(tree->forwarding);
    member_count += static_cast<long>(groups[g].size());
  }
  const McastCheck check = check_multicast(routed.fabric, tables);
  EXPECT_EQ(check.members, member_count);
  EXPECT_EQ(check.unreached, 0) << ::testing::PrintToString(check.examples);
  EXPECT_EQ(check.looping, 0) << ::testing::PrintToString(check.examples);
  const Correctness c = audit(routed, tables);
  EXPECT_EQ(c.unreachable + c.loops, 0);
  EXPECT_EQ(c.credit_loops, 0) << ::testing::PrintToString(c.examples);
}

INSTANTIATE_TEST_SUITE_P(Fabrics, McastTreeOn, ::testing::ValuesIn(kFabrics),
                         [](const auto& info) { return info.param.name; });

// Trees from every switch as root (one MLID each), down the order
// unicast_order gives `scheme`, beside its unicast routes on each fabric:
// no credit loop.
void expect_trees_from_any_root_close_no_credit_loop(const Scheme& scheme, std::vector<Fabric> fabrics) {
  for (Fabric& fabric : fabrics) {
    const Routed routed = route_fabric(scheme, std::move(fabric), 0);
    ASSERT_TRUE(routed.status.ok()) << routed.status.message();
    const SwitchOrder order = order_of(routed, scheme.name());
    std::vector<McastForwarding> tables;
    for (int mlid = 0xC000; mlid < 0xC000 + routed.fabric.count(NodeType::kSwitch); ++mlid) {
      const Result<McastTree> tree = build_mcast_tree(routed.fabric, order, members(routed.fabric, 0, 1), mlid);
      ASSERT_TRUE(tree.ok()) << tree.status().message();
      tables.push_back(tree->forwarding);
    }
    const Correctness c = audit(routed, tables);
    EXPECT_EQ(c.unreachable + c.loops, 0);
    EXPECT_EQ(c.credit_loops, 0) << scheme.name() << ": " << ::testing::PrintToString(c.examples);
  }
}

// layered's shortest paths keep no switch order; its layer 0 starts from
// up*/down*'s turns, so a tree down that order, from whichever root the
// MLID picks, closes no credit loop with the unicast on SL 0.
TEST(McastTree, LayeredUnicastClosesNoCreditLoopWithTreesFromAnyRoot) {
  expect_trees_from_any_root_close_no_credit_loop(
      *make_layered_scheme(),
      {generated(generate_torus(4, 4, 2)), generated(generate_hypercube(4, 2)), generated(generate_dragonfly(5, 3, 2))});
}

// The torus scheme's dimension-order routes keep no switch order either:
// its unicast stays off VL 0, the trees' VL (on SL 0 they close credit
// loops with the trees).
TEST(McastTree, TorusUnicastClosesNoCreditLoopWithTreesFromAnyRoot) {
  expect_trees_from_any_root_close_no_credit_loop(
      *make_torus_scheme(),
      {generated(generate_torus(4, 4, 2)), generated(generate_ring(8, 2)), generated(generate_torus(6, 5, 1))});
}

// A tree that ignores the order, turning from down to up at the ring's
// bottom switch, closes a credit loop with the unicast routes; ours, on the
// same routing, does not.
TEST(McastTreeAgainstTheOrder, ClosesACreditLoopWithUnicast) {
  const Routed routed = star_ring();
  ASSERT_TRUE(routed.status.ok());
  const McastForwarding path = ring_path(routed);
  EXPECT_EQ(check_multicast(routed.fabric, {path}).unreached, 0);
  EXPECT_EQ(audit(routed, {}).credit_loops, 0);
  EXPECT_GE(audit(routed, {path}).credit_loops, 1);
  const Result<McastTree> ours =
      build_mcast_tree(routed.fabric, order_of(routed, "updown-star"), members(routed.fabric, 0, 1), 0xC000);
  ASSERT_TRUE(ours.ok());
  EXPECT_EQ(audit(routed, {ours->forwarding}).credit_loops, 0);
}

TEST(McastTree, OneLeafGroupStaysOnItsLeaf) {
  const Routed routed = route_fabric(*make_auto_scheme(), generated(generate_ftree(8, 3)), 0);
  const std::vector<PortRef> group = members(routed.fabric, 0, 1);
  const Result<McastTree> tree =
      build_mcast_tree(routed.fabric, order_of(routed), {group[0], group[1], group[2]}, 0xC001);
  ASSERT_TRUE(tree.ok());
  EXPECT_EQ(tree->depth, 0);
  EXPECT_EQ(tree->root, routed.fabric.peer(group[0]).node);
}

TEST(McastTree, GroupsSpreadOverTheTopSwitches) {
  const Routed routed = route_fabric(*make_auto_scheme(), generated(generate_ftree(8, 2)), 0);
  const std::vector<PortRef> everyone = members(routed.fabric, 0, 1);
  std::vector<int> roots;
  for (int mlid = 0xC000; mlid < 0xC004; ++mlid) roots.push_back(build_mcast_tree(routed.fabric, order_of(routed), everyone, mlid)->root);
  std::ranges::sort(roots);
  EXPECT_EQ(std::unique(roots.begin(), roots.end()), roots.end()) << "four groups, four of the four spines";
}

TEST(McastTree, FailsWithoutACommonTopAndTheFallbackIgnoresTheOrder) {
  // MiKANT: the two halves share no top switch, so no switch reaches both going down.
  const Routed routed = route_fabric(*make_auto_scheme(), generated(generate_mikant(4, 3)), 0);
  ASSERT_TRUE(routed.status.ok());
  const std::vector<PortRef> everyone = members(routed.fabric, 0, 1);
  const SwitchOrder order = order_from_levels(routed.fabric, routed.detection.levels);
  const Result<McastTree> tree = build_mcast_tree(routed.fabric, order, everyone, 0xC000);
  ASSERT_FALSE(tree.ok());
  EXPECT_NE(tree.status().message().find("going down"), std::string::npos) << tree.status().message();
  const Result<McastTree> fallback = build_shortest_path_tree(routed.fabric, everyone, 0xC000);
  ASSERT_TRUE(fallback.ok());
  EXPECT_FALSE(fallback->ordered);
  EXPECT_EQ(check_multicast(routed.fabric, {fallback->forwarding}).unreached, 0);
}

TEST(McastTree, AMemberWithoutASwitchIsAnError) {
  Fabric fabric;
  const int ca = *fabric.add_node(NodeType::kCa, "H", 1);
  EXPECT_FALSE(build_mcast_tree(fabric, {}, {{ca, 1}}, 0xC000).ok());
}

TEST(McastCheck, ACycleInTheTablesLoopsAndAMissingBranchIsUnreached) {
  const Routed routed = star_ring();
  const std::vector<PortRef> everyone = members(routed.fabric, 0, 1);
  McastForwarding ring{0xC000, 0, std::vector<std::vector<uint8_t>>(routed.fabric.size())};
  for (int x = 0; x < routed.fabric.size(); ++x)
    for (int p = 1; p <= routed.fabric.node(x).num_ports; ++p)
      if (routed.fabric.node(x).is_switch() && routed.fabric.node(x).ports[p].peer.valid())
        ring.ports[x].push_back(static_cast<uint8_t>(p));
  const McastCheck cycle = check_multicast(routed.fabric, {ring});
  EXPECT_EQ(cycle.looping, 6);
  EXPECT_EQ(cycle.unreached, 0);

  const Result<McastTree> built = build_mcast_tree(routed.fabric, order_of(routed, "updown-star"), everyone, 0xC000);
  ASSERT_TRUE(built.ok()) << built.status().message();
  McastForwarding tree = built->forwarding;
  const int leaf = routed.fabric.peer(everyone[0]).node;
  std::erase(tree.ports[leaf], static_cast<uint8_t>(routed.fabric.peer(everyone[0]).port));
  const McastCheck cut = check_multicast(routed.fabric, {tree});
  EXPECT_EQ(cut.members, 5);
  EXPECT_EQ(cut.unreached, 0) << "a member whose port left the table is no member";
}

}  // namespace
}  // namespace ftclos
