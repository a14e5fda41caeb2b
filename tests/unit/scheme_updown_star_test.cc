// The up*/down* floor (paths/updown_star.h) on fabrics no family with levels
// fits, and on textbook ones: the auditor finds every pair delivered, no
// forwarding loop and no credit loop; every route climbs, then descends in
// the (rank, GUID) order.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "audit/audit.h"
#include "core/end_nodes.h"
#include "detect/detect.h"
#include "detect/star_roots.h"
#include "gen/generate.h"
#include "schemes/schemes.h"
#include "paths/updown_reach.h"
#include "routing_checks.h"

namespace ftclos {
namespace {

// The fabrics of issue #13 that are no folded Clos, and textbook ones.
const FabricCase kIrregular[] = {
    {"ring8", [] { return generated(generate_ring(8, 2)); }},
    {"ring5", [] { return generated(generate_ring(5, 1)); }},
    {"torus4x4", [] { return generated(generate_torus(4, 4, 2)); }},
    {"torus3x5", [] { return generated(generate_torus(3, 5, 1)); }},
    {"hypercube4", [] { return generated(generate_hypercube(4, 2)); }},
    {"dragonfly5x3", [] { return generated(generate_dragonfly(5, 3, 2)); }},
    {"ft8_2_leaf_cables", [] { return with_level_cables(generated(generate_ftree(8, 2)), 3, 1); }},
    {"ft8_3_spine_cables", [] { return with_level_cables(generated(generate_ftree(8, 3)), 6, 2); }},
    {"ft8_3_top_cables", [] { return with_level_cables(generated(generate_ftree(8, 3)), 4, 3); }},
};
const FabricCase kTextbook[] = {
    {"ft8_2", [] { return generated(generate_ftree(8, 2)); }},
    {"ft8_3", [] { return generated(generate_ftree(8, 3)); }},
    {"kary4_3", [] { return generated(generate_kary(4, 3)); }},
    {"mikant4_3", [] { return generated(generate_mikant(4, 3)); }},
    {"rfc8_16_3", [] { return generated(generate_rfc(8, 16, 3, 1)); }},
};

Correctness audit(const Routed& routed) {
  return check_correctness({routed.fabric, routed.detection.levels, routed.lids, routed.routing.lfts, {}, {}, {}});
}

// Every CA-to-CA route, walked through the LFTs, climbs then descends in
// the order of detection.star; returns the first that does not, or "".
std::string first_illegal_route(const Routed& routed) {
  const Fabric& fabric = routed.fabric;
  const StarRoots& star = routed.detection.star;
  for (int s = 0; s < fabric.size(); ++s) {
    const Exit from = exit_of(fabric, s);
    if (fabric.node(s).is_switch() || from.target < 0) continue;
    for (int d = 0; d < fabric.size(); ++d) {
      if (d == s || fabric.node(d).is_switch() || routed.lids.base[d] == 0) continue;
      const int lid = routed.lids.base[d];
      bool descending = false;
      int at = from.target;
      for (int hops = 0; hops <= fabric.size(); ++hops) {
        const int port = routed.routing.lfts.at(at, lid);
        if (port == kNoPath) return fabric.node(s).name + " → " + fabric.node(d).name + ": no path";
        const int next = fabric.node(at).ports[port].peer.node;
        if (next < 0 || !fabric.node(next).is_switch()) break;
        const bool up = star.up(fabric, at, next);
        if (up && descending) return fabric.node(s).name + " → " + fabric.node(d).name + ": up after down";
        descending = descending || !up;
        at = next;
      }
    }
  }
  return "";
}

void expect_audit_clean(const Routed& routed) {
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  const int cas = routed.fabric.count(NodeType::kCa);
  const Correctness c = audit(routed);
  EXPECT_EQ(c.pairs, long{cas} * (cas - 1));
  EXPECT_EQ(c.unreachable, 0) << ::testing::PrintToString(c.examples);
  EXPECT_EQ(c.loops, 0) << ::testing::PrintToString(c.examples);
  EXPECT_EQ(c.credit_loops, 0) << ::testing::PrintToString(c.examples);
}

void expect_floor_holds(const Routed& routed) {
  expect_audit_clean(routed);
  EXPECT_EQ(first_illegal_route(routed), "");
  expect_switch_lids_reachable(routed);
}

class FloorOnIrregular : public ::testing::TestWithParam<FabricCase> {};

TEST_P(FloorOnIrregular, RoutesEveryPairWithoutCreditLoops) {
  const Routed routed = route_fabric(*make_updown_star_scheme(), GetParam().make(), 0);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  ASSERT_NE(routed.detection.find(Family::kAnyFabric), nullptr) << "recognized as a family with levels";
  EXPECT_FALSE(routed.detection.not_clos_reason.empty());
  EXPECT_TRUE(notes_mention(routed.routing, "up*/down* from"));
  expect_floor_holds(routed);
}

// auto takes updown where every pair of leaves shares an ancestor (a tree
// with cables inside a level: they go unused), the floor elsewhere.
TEST_P(FloorOnIrregular, AutoRoutesEveryPairWithoutCreditLoops) {
  const Routed routed = route_fabric(*make_auto_scheme(), GetParam().make(), 0);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_EQ(routed.routing.chosen, routed.detection.updown_routable ? "updown" : "updown-star")
      << ::testing::PrintToString(routed.routing.notes);
  expect_audit_clean(routed);
}

INSTANTIATE_TEST_SUITE_P(Fabrics, FloorOnIrregular, ::testing::ValuesIn(kIrregular),
                         [](const auto& info) { return info.param.name; });

class FloorOnTextbook : public ::testing::TestWithParam<FabricCase> {};

TEST_P(FloorOnTextbook, RoutesEveryPairWithoutCreditLoops) {
  expect_floor_holds(route_fabric(*make_updown_star_scheme(), GetParam().make(), 0));
}

INSTANTIATE_TEST_SUITE_P(Fabrics, FloorOnTextbook, ::testing::ValuesIn(kTextbook),
                         [](const auto& info) { return info.param.name; });

// Shortest paths over a ring, each switch sending every destination out of
// its lowest shortest port: the routing minhop makes.
Lfts shortest_paths(const Routed& routed) {
  const Fabric& fabric = routed.fabric;
  Lfts lfts;
  lfts.port.resize(fabric.size());
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch()) lfts.port[x].assign(routed.lids.max_lid + 1, kNoPath);
  for (int lid = 1; lid <= routed.lids.max_lid; ++lid) {
    if (routed.lids.owner[lid] < 0) continue;
    const Exit exit = exit_of(fabric, routed.lids.owner[lid]);
    std::vector<int> hops(fabric.size(), -1);
    std::deque<int> queue{exit.target};
    hops[exit.target] = 0;
    while (!queue.empty()) {
      const int x = queue.front();
      queue.pop_front();
      for (const Port& port : fabric.node(x).ports)
        if (port.peer.valid() && fabric.node(port.peer.node).is_switch() && hops[port.peer.node] < 0)
          hops[port.peer.node] = hops[x] + 1, queue.push_back(port.peer.node);
    }
    for (int x = 0; x < fabric.size(); ++x) {
      if (!fabric.node(x).is_switch()) continue;
      if (x == exit.target) {
        lfts.port[x][lid] = static_cast<uint8_t>(exit.port);
        continue;
      }
      for (int p = 1; p <= fabric.node(x).num_ports; ++p) {
        const PortRef peer = fabric.node(x).ports[p].peer;
        if (peer.valid() && fabric.node(peer.node).is_switch() && hops[peer.node] == hops[x] - 1) {
          lfts.port[x][lid] = static_cast<uint8_t>(p);
          break;
        }
      }
    }
  }
  return lfts;
}

// On a ring, shortest paths chase each other around in both directions: a
// credit loop the auditor finds. Up*/down* breaks it where the order turns.
TEST(FloorOnRing, ShortestPathsCloseACreditLoopTheFloorDoesNot) {
  Routed routed = route_fabric(*make_updown_star_scheme(), generated(generate_ring(6, 1)), 0);
  expect_floor_holds(routed);
  const Lfts floor = routed.routing.lfts;
  routed.routing.lfts = shortest_paths(routed);
  const Correctness minhop = audit(routed);
  EXPECT_EQ(minhop.unreachable + minhop.loops, 0);
  EXPECT_GE(minhop.credit_loops, 1);
  routed.routing.lfts = floor;
  EXPECT_EQ(audit(routed).credit_loops, 0);
}

TEST(FloorRoots, ATorusTakesOneRootOfLeastEccentricityLowestGuid) {
  const Routed routed = route_fabric(*make_updown_star_scheme(), generated(generate_torus(3, 3, 1)), 0);
  ASSERT_TRUE(routed.status.ok());
  ASSERT_EQ(routed.detection.star.roots.size(), 1u);
  EXPECT_EQ(routed.fabric.node(routed.detection.star.roots.front()).name, "S-0");  // all equal: lowest GUID
  EXPECT_NE(routed.detection.star.why.find("least eccentricity"), std::string::npos);
}

TEST(FloorRoots, TheTopLevelOfATreeWithCablesInsideALevel) {
  const Routed routed = route_fabric(*make_updown_star_scheme(),
                                     with_level_cables(generated(generate_ftree(8, 3)), 4, 1), 0);
  ASSERT_TRUE(routed.status.ok());
  EXPECT_NE(routed.detection.star.why.find("top level"), std::string::npos) << routed.detection.star.why;
  for (int root : routed.detection.star.roots) EXPECT_EQ(routed.fabric.node(root).name.substr(0, 3), "L3-");
}

// A chassis of chassis in miniature (RhinoBased10K's shape): two lower
// chassis of two leaf chips with hosts and a spine chip, two upper chassis
// of two leaf chips and two spine chips; each lower leaf chip goes up to one
// upper chassis only. The whole top level leaves p1 and q2 apart (they climb
// to different upper chassis), the spines of one upper chassis do not.
TEST(FloorRoots, TheTopSwitchesOfOneChassisWhereTheWholeTopLevelFails) {
  Fabric fabric;
  std::map<std::string, int> at;
  uint64_t guid = 0x100;
  auto node = [&](NodeType type, const std::string& name) { at[name] = *fabric.add_node(type, name, 8, guid++); };
  std::map<int, int> next_port;
  auto cable = [&](const std::string& a, const std::string& b) {
    const int x = at.at(a), y = at.at(b);
    ASSERT_TRUE(fabric.connect({x, ++next_port[x]}, {y, ++next_port[y]}).ok());
  };
  for (const char* name : {"cs1", "cs2", "ds1", "ds2", "c1", "c2", "d1", "d2", "ps", "qs", "p1", "p2", "q1", "q2"})
    node(NodeType::kSwitch, name);
  for (const char* chassis : {"c", "d"})
    for (const char* leaf : {"1", "2"})
      for (const char* spine : {"s1", "s2"}) cable(std::string(chassis) + leaf, std::string(chassis) + spine);
  for (const char* leaf : {"p1", "p2"}) cable(leaf, "ps");
  for (const char* leaf : {"q1", "q2"}) cable(leaf, "qs");
  cable("p1", "c1"), cable("p2", "d1"), cable("q1", "c2"), cable("q2", "d2");
  for (const char* leaf : {"p1", "p2", "q1", "q2"})
    for (int h = 0; h < 2; ++h) {
      const std::string host = std::string("h") + leaf + "." + std::to_string(h);
      node(NodeType::kCa, host);
      cable(leaf, host);
    }
  Routed routed = route_fabric(*make_auto_scheme(), fabric, 0);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  ASSERT_NE(routed.detection.find(Family::kAnyFabric), nullptr);
  EXPECT_EQ(routed.routing.chosen, "updown-star");
  const StarRoots& star = routed.detection.star;
  EXPECT_NE(star.why.find("share a child with \"cs1\""), std::string::npos) << star.why;
  EXPECT_NE(star.why.find("not the top level"), std::string::npos) << star.why;
  ASSERT_EQ(star.roots.size(), 2u);
  EXPECT_EQ(routed.fabric.node(star.roots[0]).name, "cs1");
  EXPECT_EQ(routed.fabric.node(star.roots[1]).name, "cs2");
  expect_floor_holds(routed);
}

TEST(FloorRoots, TheRootGuidFileWins) {
  const Fabric ring = split_end_nodes(generated(generate_ring(9, 1)));
  HostHints hints;
  const int s4 = *ring.find("S-4");
  hints.roots.insert(ring.node(s4).guid);
  const Detection detection = detect(ring, hints);
  ASSERT_EQ(detection.star.roots, std::vector<int>{s4});
  EXPECT_NE(detection.star.why.find("root GUID file"), std::string::npos);
  EXPECT_EQ(detection.star.rank[*ring.find("S-0")], 4);
}

}  // namespace
}  // namespace ftclos
