#include "audit/audit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>

#include "audit/path_trace.h"
#include "core/aggregation_node.h"
#include "core/workers.h"
#include "gen/generate.h"
#include "schemes/schemes.h"
#include "routing_checks.h"
#include "traffic/pattern_load.h"

namespace ftclos {
namespace {

// ---- Hand-built fabrics with hand-written LFTs ----

// Switches and one-port hosts, LIDs assigned, every LFT entry kNoPath until routed.
struct Hand {
  Fabric fabric;
  LidMap lids;
  Lfts lfts;
  Levels levels;
  std::vector<uint8_t> dest_sl;
  std::vector<uint8_t> sl2vl;

  int sw(const std::string& name, int ports) { return *fabric.add_node(NodeType::kSwitch, name, ports, next_guid++); }
  int host(const std::string& name) { return *fabric.add_node(NodeType::kCa, name, 1, next_guid++); }
  void cable(int a, int pa, int b, int pb) { ASSERT_TRUE(fabric.connect({a, pa}, {b, pb}).ok()); }
  // Call once the cabling is done.
  void finish() {
    lids = *assign_lids(fabric, 0);
    levels = compute_levels(fabric);
    lfts.port.assign(fabric.size(), {});
    for (int i = 0; i < fabric.size(); ++i)
      if (fabric.node(i).is_switch()) lfts.port[i].assign(lids.max_lid + 1, kNoPath);
  }
  void route(int at, int destination, uint8_t port) { lfts.port[at][lids.base[destination]] = port; }
  AuditInput input() const { return {fabric, levels, lids, lfts, {}, dest_sl, sl2vl}; }

  uint64_t next_guid = 1;
};

const LinkLoad* link_of(const Contention& c, PortRef channel) {
  const auto it = std::ranges::find(c.links, channel, &LinkLoad::channel);
  return it == c.links.end() ? nullptr : &*it;
}

bool mentions(const std::vector<std::string>& texts, const std::string& part) {
  return std::ranges::any_of(texts, [&](const std::string& t) { return t.find(part) != std::string::npos; });
}

// Leaves L0 (a), L1 (b), L2 (x, y) under spines S0, S1; ports: leaves 1.. hosts, then S0, S1; spines by leaf.
struct Crossed : Hand {
  int l0, l1, l2, s0, s1, a, b, x, y;
  Crossed() {
    l0 = sw("L0", 3), l1 = sw("L1", 3), l2 = sw("L2", 4), s0 = sw("S0", 3), s1 = sw("S1", 3);
    a = host("a"), b = host("b"), x = host("x"), y = host("y");
    cable(a, 1, l0, 1), cable(b, 1, l1, 1), cable(x, 1, l2, 1), cable(y, 1, l2, 2);
    cable(l0, 2, s0, 1), cable(l0, 3, s1, 1), cable(l1, 2, s0, 2), cable(l1, 3, s1, 2);
    cable(l2, 3, s0, 3), cable(l2, 4, s1, 3);
    finish();
  }
  // x and y from L0 and L1 over the given spines (S0 = 2, S1 = 3 at the leaves).
  void route_xy(uint8_t l0_x, uint8_t l0_y, uint8_t l1_x, uint8_t l1_y) {
    route(l0, x, l0_x), route(l0, y, l0_y), route(l1, x, l1_x), route(l1, y, l1_y);
    for (int spine : {s0, s1}) route(spine, x, 3), route(spine, y, 3);
    route(l2, x, 1), route(l2, y, 2);
  }
};

TEST(AuditContention, TwoPairsOfDistinctEndsCollide) {
  Crossed t;
  t.route_xy(2, 3, 3, 2);  // a->x and b->y share S0->L2; a->y and b->x share S1->L2
  const Contention c = worst_case_contention(t.input());
  EXPECT_EQ(c.worst_case, 2);
  EXPECT_TRUE(c.exact);
  EXPECT_EQ(c.worst_link, (PortRef{t.s0, 3}));
  const std::vector<std::pair<int, int>> expected = {{t.a, t.x}, {t.b, t.y}};
  EXPECT_EQ(c.witness, expected);
  const LinkLoad* down = link_of(c, {t.s0, 3});
  ASSERT_NE(down, nullptr);
  EXPECT_EQ(down->pairs, 2);
  EXPECT_EQ(down->sources, 2);
  EXPECT_EQ(down->destinations, 2);
  EXPECT_EQ(down->level, 2);
  const LinkLoad* up = link_of(c, {t.l0, 2});
  ASSERT_NE(up, nullptr);
  EXPECT_EQ(up->matching, 1);  // a alone
  EXPECT_EQ(c.links.size(), 6u);  // 4 up, 2 down
}

// A SHARP Aggregation Node needs routes, not bandwidth figures: contention
// is the compute hosts' (b, an AN here, sends nothing that counts and
// receives nothing that counts).
TEST(AuditContention, AnAggregationNodeIsNoSenderOrReceiver) {
  Crossed t;
  t.fabric.node(t.b).description = std::string(kAggregationNodeDescription);
  t.route_xy(2, 3, 3, 2);  // a->x and b->y would share S0->L2
  const Contention c = worst_case_contention(t.input());
  EXPECT_EQ(c.worst_case, 1);
  const LinkLoad* down = link_of(c, {t.s0, 3});
  ASSERT_NE(down, nullptr);
  EXPECT_EQ(down->pairs, 1);
  for (const auto& [source, destination] : c.witness) EXPECT_NE(source, t.b);
}

TEST(AuditContention, MatchingIsNotMinOfSourcesAndDestinations) {
  // S0 -> L2 carries a->x, b->x, c->x, c->y, c->z: 3 sources, 3 destinations,
  // but every pair has x or c in it, so at most 2 collide.
  Hand t;
  const int l0 = t.sw("L0", 3), l1 = t.sw("L1", 3), l2 = t.sw("L2", 3), l3 = t.sw("L3", 5);
  const int s0 = t.sw("S0", 4), s1 = t.sw("S1", 4);
  const int a = t.host("a"), b = t.host("b"), c = t.host("c"), x = t.host("x"), y = t.host("y"), z = t.host("z");
  t.cable(a, 1, l0, 1), t.cable(b, 1, l1, 1), t.cable(c, 1, l2, 1);
  t.cable(x, 1, l3, 1), t.cable(y, 1, l3, 2), t.cable(z, 1, l3, 3);
  for (int i = 0; i < 3; ++i) t.cable(std::array{l0, l1, l2}[i], 2, s0, i + 1), t.cable(std::array{l0, l1, l2}[i], 3, s1, i + 1);
  t.cable(l3, 4, s0, 4), t.cable(l3, 5, s1, 4);
  t.finish();
  for (int leaf : {l0, l1, l2}) t.route(leaf, x, 2);
  for (int d : {y, z}) t.route(l0, d, 3), t.route(l1, d, 3), t.route(l2, d, 2);
  for (int d : {x, y, z}) t.route(s0, d, 4), t.route(s1, d, 4), t.route(l3, d, d == x ? 1 : d == y ? 2 : 3);
  const Contention contention = worst_case_contention(t.input());
  const LinkLoad* link = link_of(contention, {s0, 4});
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->pairs, 5);
  EXPECT_EQ(link->sources, 3);
  EXPECT_EQ(link->destinations, 3);
  EXPECT_EQ(link->matching, 2);
  EXPECT_EQ(contention.worst_case, 2);
}

// ---- Correctness ----

// h0 -[1] L0 [2]- [1] S [2] -[2] L1 [1]- h1, routed both ways; S port 3 has no cable.
struct TwoLeaves : Hand {
  int l0, l1, s, h0, h1;
  TwoLeaves() {
    l0 = sw("L0", 2), l1 = sw("L1", 2), s = sw("S", 3), h0 = host("h0"), h1 = host("h1");
    cable(h0, 1, l0, 1), cable(h1, 1, l1, 1), cable(l0, 2, s, 1), cable(l1, 2, s, 2);
    finish();
    route(l0, h0, 1), route(s, h0, 1), route(l1, h0, 2);
    route(l1, h1, 1), route(s, h1, 2), route(l0, h1, 2);
  }
};

TEST(AuditCorrectness, CleanRoutesPass) {
  TwoLeaves t;
  const Correctness c = check_correctness(t.input());
  EXPECT_EQ(c.pairs, 2);
  EXPECT_EQ(c.unreachable + c.loops + c.updown_violations + c.non_minimal + c.credit_loops, 0);
  // The hand-made tables route the CAs' LIDs only: the switches' own traffic is counted apart.
  EXPECT_GT(c.switch_unreachable, 0);
  EXPECT_TRUE(std::ranges::all_of(c.examples, [](const std::string& e) { return e.find("switch traffic") != std::string::npos; }))
      << ::testing::PrintToString(c.examples);
}

// h0 - L0, h1 - L1, each leaf cabled to spines S0 (port 2) and S1 (port 3).
// The CAs' routes go up, then down; the switches' own routes to switch LIDs
// turn down then up (S0 -> L0 -> S1, S1 -> L1 -> S0, L0 -> S1 -> L1, L1 ->
// S0 -> L0) and close a credit loop that only they make.
TEST(AuditCorrectness, SwitchRoutesThatTurnCloseACreditLoopCountedApart) {
  Hand t;
  const int l0 = t.sw("L0", 3), l1 = t.sw("L1", 3), s0 = t.sw("S0", 2), s1 = t.sw("S1", 2);
  const int h0 = t.host("h0"), h1 = t.host("h1");
  t.cable(h0, 1, l0, 1), t.cable(h1, 1, l1, 1);
  t.cable(l0, 2, s0, 1), t.cable(l0, 3, s1, 1), t.cable(l1, 2, s0, 2), t.cable(l1, 3, s1, 2);
  t.finish();
  t.route(l0, h0, 1), t.route(l0, h1, 2), t.route(s0, h1, 2), t.route(s0, h0, 1);
  t.route(l1, h1, 1), t.route(l1, h0, 3), t.route(s1, h0, 1), t.route(s1, h1, 2);
  Correctness c = check_correctness(t.input());
  EXPECT_EQ(c.credit_loops, 0);
  EXPECT_EQ(c.switch_credit_loops, 0);
  t.route(s0, s1, 1), t.route(l0, s1, 3);  // S0 -> L0 -> S1
  t.route(s1, s0, 2), t.route(l1, s0, 2);  // S1 -> L1 -> S0
  t.route(l0, l1, 3), t.route(s1, l1, 2);  // L0 -> S1 -> L1
  t.route(l1, l0, 2), t.route(s0, l0, 1);  // L1 -> S0 -> L0
  c = check_correctness(t.input());
  EXPECT_EQ(c.unreachable + c.loops + c.credit_loops, 0);
  EXPECT_EQ(c.switch_credit_loops, 1);
  EXPECT_TRUE(std::ranges::any_of(c.examples, [](const std::string& e) {
    return e.find("with switches' own routes, credit loop on VL 0") != std::string::npos;
  })) << ::testing::PrintToString(c.examples);
  t.route(s0, s1, 2), t.route(l1, s1, 3);  // S0 -> L1 -> S1 instead: the cycle opens
  c = check_correctness(t.input());
  EXPECT_EQ(c.switch_credit_loops, 0) << ::testing::PrintToString(c.examples);
}

// Switches' own traffic: 3 switches to 2 CA LIDs and 2 other switch LIDs
// each, 2 CAs to 3 switch LIDs; an empty entry at L0 for L1's LID strands
// L0's packets to L1 and h0's queries to it, apart from the CA pairs.
TEST(AuditCorrectness, SwitchPairsCountApartAndAnEmptyEntryStrandsOne) {
  TwoLeaves t;
  t.route(t.l0, t.s, 2), t.route(t.l0, t.l1, 2), t.route(t.s, t.l0, 1), t.route(t.s, t.l1, 2);
  t.route(t.l1, t.s, 2), t.route(t.l1, t.l0, 2);
  Correctness c = check_correctness(t.input());
  EXPECT_EQ(c.pairs, 2);
  EXPECT_EQ(c.switch_pairs, 3 * 2 + 3 * 2 + 2 * 3);
  EXPECT_EQ(c.switch_unreachable, 0);
  EXPECT_TRUE(c.examples.empty()) << ::testing::PrintToString(c.examples);
  t.lfts.port[t.l0][t.lids.base[t.l1]] = kNoPath;  // L0 cannot answer L1, nor h0 query L1
  c = check_correctness(t.input());
  EXPECT_EQ(c.unreachable, 0);
  EXPECT_EQ(c.switch_unreachable, 2);
  EXPECT_TRUE(mentions(c.examples, "L0 → L1 (LID")) << ::testing::PrintToString(c.examples);
}

TEST(AuditCorrectness, FindsAForwardingLoop) {
  TwoLeaves t;
  t.route(t.s, t.h1, 1);  // back down to L0, which sends it up again
  const Correctness c = check_correctness(t.input());
  EXPECT_EQ(c.loops, 1);
  EXPECT_EQ(c.unreachable, 0);
  EXPECT_TRUE(mentions(c.examples, "h0 → h1")) << ::testing::PrintToString(c.examples);
  EXPECT_TRUE(mentions(c.examples, "loop at")) << ::testing::PrintToString(c.examples);
  EXPECT_EQ(c.credit_loops, 1);  // L0->S and S->L0 wait on each other
}

TEST(AuditCorrectness, FindsABlackHoleAndADeadPort) {
  TwoLeaves t;
  t.route(t.s, t.h1, kNoPath);
  Correctness c = check_correctness(t.input());
  EXPECT_EQ(c.unreachable, 1);
  EXPECT_TRUE(mentions(c.examples, "no route at S (LFT entry 0xff)")) << ::testing::PrintToString(c.examples);

  TwoLeaves u;  // S's port 3 has no cable
  u.route(u.s, u.h0, 3), u.route(u.s, u.h1, 3);
  c = check_correctness(u.input());
  EXPECT_EQ(c.unreachable, 2);  // both ways
  EXPECT_TRUE(mentions(c.examples, "dead port at S port 3")) << ::testing::PrintToString(c.examples);
}

// A CA the tables give no LID (a dump that lacks it) is unreachable from
// everyone, and can reach no one: every pair it is in counts.
TEST(AuditCorrectness, ACaWithoutLidIsUnreachableBothWays) {
  TwoLeaves t;
  t.lids.base[t.h1] = 0;
  const Correctness c = check_correctness(t.input());
  EXPECT_EQ(c.pairs, 2);
  EXPECT_EQ(c.unreachable, 2);
  EXPECT_TRUE(mentions(c.examples, "h1 has no LID in the tables")) << ::testing::PrintToString(c.examples);
}

// An empty dump: no CA has a LID, so no pair is delivered (not "0 pairs, sound").
TEST(AuditCorrectness, NoLidsAtAllStrandEveryPair) {
  TwoLeaves t;
  t.lids.base[t.h0] = t.lids.base[t.h1] = 0;
  const Correctness c = check_correctness(t.input());
  EXPECT_EQ(c.pairs, 2);
  EXPECT_EQ(c.unreachable, 2);
}

// TwoLeaves with L1's uplink gone: h1 hangs on a switch no cable joins to
// the rest, so no table can reach it; that is not a routing failure (a dead
// port where a cable path exists is: FindsABlackHoleAndADeadPort).
struct LeafCutOff : Hand {
  int l0, l1, s, h0, h1;
  LeafCutOff() {
    l0 = sw("L0", 2), l1 = sw("L1", 2), s = sw("S", 2), h0 = host("h0"), h1 = host("h1");
    cable(h0, 1, l0, 1), cable(h1, 1, l1, 1), cable(l0, 2, s, 1);
    finish();
    route(l0, h0, 1), route(s, h0, 1), route(l1, h0, 2);
    route(l1, h1, 1), route(s, h1, 2), route(l0, h1, 2);
  }
};

TEST(AuditCorrectness, PairsNoCableJoinsAreDisconnectedNotUnreachable) {
  LeafCutOff t;
  const Correctness c = check_correctness(t.input());
  EXPECT_EQ(c.disconnected, 2);
  EXPECT_EQ(c.pairs, 0);
  EXPECT_EQ(c.unreachable, 0);
}

TEST(AuditCorrectness, ACaWithoutLidCutOffIsDisconnected) {
  LeafCutOff t;
  t.lids.base[t.h1] = 0;
  const Correctness c = check_correctness(t.input());
  EXPECT_EQ(c.disconnected, 2);
  EXPECT_EQ(c.unreachable, 0);
}

// Four switches in a ring, R_i port 2 -> R_{i+1} port 3, host h_i on port 1;
// every destination routed clockwise.
struct Ring : Hand {
  std::array<int, 4> r{}, h{};
  Ring() {
    for (int i = 0; i < 4; ++i) r[i] = sw("R" + std::to_string(i), 3);
    for (int i = 0; i < 4; ++i) h[i] = host("h" + std::to_string(i));
    for (int i = 0; i < 4; ++i) cable(h[i], 1, r[i], 1), cable(r[i], 2, r[(i + 1) % 4], 3);
    finish();
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) route(r[i], h[j], i == j ? 1 : 2);
  }
};

TEST(AuditCorrectness, FindsACreditLoopOnOneVl) {
  Ring t;
  const Correctness c = check_correctness(t.input());
  EXPECT_EQ(c.unreachable + c.loops, 0);
  EXPECT_EQ(c.credit_loops, 1);
  EXPECT_TRUE(mentions(c.examples, "credit loop on VL 0")) << ::testing::PrintToString(c.examples);
  EXPECT_EQ(c.non_minimal, 4);  // three hops clockwise where one back would do
  // A ring of four is a 2x2 Clos whose spines R1 and R3 carry attached hosts:
  // the 4 three-hop routes and the 2 two-hop routes from R1 and R3 go down,
  // then up.
  EXPECT_EQ(c.updown_violations, 6);
}

// The plugin's check leaves path lengths out; everything else counts alike.
TEST(AuditCorrectness, NonMinimalCountsOnlyWhenAsked) {
  Ring t;
  AuditInput input = t.input();
  input.count_non_minimal = false;
  const Correctness c = check_correctness(input);
  EXPECT_EQ(c.non_minimal, 0);
  EXPECT_FALSE(mentions(c.examples, "the shortest path has")) << ::testing::PrintToString(c.examples);
  EXPECT_EQ(c.credit_loops, 1);
  EXPECT_EQ(c.updown_violations, 6);
}

TEST(AuditCorrectness, SplittingDestinationsOverTwoVlsBreaksTheCreditLoop) {
  Ring t;
  t.dest_sl.assign(t.lids.max_lid + 1, 0);
  t.dest_sl[t.lids.base[t.h[2]]] = t.dest_sl[t.lids.base[t.h[3]]] = 1;
  EXPECT_EQ(check_correctness(t.input()).credit_loops, 0);
  t.sl2vl.assign(16, 0);  // both SLs on VL 0 again
  EXPECT_EQ(check_correctness(t.input()).credit_loops, 1);
  t.sl2vl[1] = 3;
  const Correctness split = check_correctness(t.input());
  EXPECT_EQ(split.credit_loops, 0);
  EXPECT_EQ(split.sls_used, 0b11);
  EXPECT_EQ(split.vls_used, 0b1001);
}

TEST(AuditCorrectness, OneSourcesOwnSlClosesTheLoopAgain) {
  // With h2, h3 on SL 1 no SL-0 route takes R0 port 2 then R1 port 2; h0's
  // packets to h2 do when that pair alone stays on SL 0.
  Ring t;
  t.dest_sl.assign(t.lids.max_lid + 1, 0);
  t.dest_sl[t.lids.base[t.h[2]]] = t.dest_sl[t.lids.base[t.h[3]]] = 1;
  AuditInput input = t.input();
  input.sl_exceptions = {{t.lids.base[t.h[2]], t.h[1], 0}};  // h1 -> h2 is one hop on SL 0: no new dependency
  EXPECT_EQ(check_correctness(input).credit_loops, 0);
  input.sl_exceptions = {{t.lids.base[t.h[2]], t.h[0], 0}};
  const Correctness c = check_correctness(input);
  EXPECT_EQ(c.credit_loops, 1);
  EXPECT_TRUE(mentions(c.examples, "credit loop on VL 0")) << ::testing::PrintToString(c.examples);
}

TEST(AuditCorrectness, PerPortSl2VlTablesDecideTheVl) {
  Ring t;
  t.dest_sl.assign(t.lids.max_lid + 1, 0);
  t.dest_sl[t.lids.base[t.h[2]]] = t.dest_sl[t.lids.base[t.h[3]]] = 1;
  Sl2VlTables tables;
  Sl2VlTables::Row identity{};
  for (int sl = 0; sl < 16; ++sl) identity[sl] = static_cast<uint8_t>(sl);
  Sl2VlTables::Row folded = identity;
  folded[1] = 0;
  for (int r : t.r)
    for (int in = 1; in <= 3; ++in)
      for (int out = 1; out <= 3; ++out) tables.set(r, in, out, identity);
  AuditInput input = t.input();
  input.sl2vl_ports = &tables;
  EXPECT_EQ(check_correctness(input).credit_loops, 0);
  // SL 1 onto VL 0 on every port pair: one VL again.
  for (int r : t.r)
    for (int in = 1; in <= 3; ++in)
      for (int out = 1; out <= 3; ++out) tables.set(r, in, out, folded);
  const Correctness c = check_correctness(input);
  EXPECT_EQ(c.credit_loops, 1);
  EXPECT_EQ(c.vls_used, 0b1);
  // Only R0's ring port for packets from its host: h0's SL-1 packets hold VL 0
  // on R0 port 2, then VL 1; no SL-0 route waits on them there in a cycle.
  for (int r : t.r)
    for (int in = 1; in <= 3; ++in)
      for (int out = 1; out <= 3; ++out) tables.set(r, in, out, identity);
  tables.set(t.r[0], 1, 2, folded);
  EXPECT_EQ(check_correctness(input).credit_loops, 0);
}

TEST(AuditCorrectness, FindsAnUpDownViolation) {
  // L0 (h0), L1 (h1), L2 (h2) under S0, S1; h1 reached from L0 over S0, down to L2, up to S1.
  Hand t;
  const int l0 = t.sw("L0", 3), l1 = t.sw("L1", 3), l2 = t.sw("L2", 3), s0 = t.sw("S0", 3), s1 = t.sw("S1", 3);
  const int h0 = t.host("h0"), h1 = t.host("h1"), h2 = t.host("h2");
  const std::array leaves{l0, l1, l2};
  for (int i = 0; i < 3; ++i)
    t.cable(std::array{h0, h1, h2}[i], 1, leaves[i], 1), t.cable(leaves[i], 2, s0, i + 1),
        t.cable(leaves[i], 3, s1, i + 1);
  t.finish();
  t.route(l0, h1, 2), t.route(s0, h1, 3), t.route(l2, h1, 3), t.route(s1, h1, 2), t.route(l1, h1, 1);
  const Correctness c = check_correctness(t.input());
  EXPECT_EQ(c.updown_violations, 1);  // from h0; h2 goes up to S1 and down, fine
  EXPECT_EQ(c.non_minimal, 1);        // h0's five links where four do
  EXPECT_TRUE(mentions(c.examples, "goes up again at L2 port 3")) << ::testing::PrintToString(c.examples);
  EXPECT_EQ(c.unreachable, 4);  // nothing routes to h0 or h2
}

AuditInput input_of(const Routed& routed, OffsetChoice::Mode mode) {
  OffsetChoice choice;
  choice.mode = mode;
  if (mode == OffsetChoice::Mode::kPathBits) choice.path_bits = routed.routing.path_bits;
  return {routed.fabric, routed.detection.levels, routed.lids, routed.routing.lfts, choice, routed.routing.dest_sl, {}};
}

// ---- Against a brute-force reference on scrambled tables ----

// Traces every route (path_trace.h), collects each channel's pairs with their
// weights (offsets crossing), and matches them with the Hungarian method.
struct Reference {
  Correctness counts;
  std::map<PortRef, std::map<std::pair<int, int>, int>> on_channel;  // channel -> (s, d) -> offsets
};

int shortest_links(const Fabric& fabric, int from, int to) {
  std::vector<int> dist(fabric.size(), -1);
  std::vector<int> queue{from};
  dist[from] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const int x = queue[head];
    if (x != from && !fabric.node(x).is_switch()) continue;  // CAs do not forward
    for (const Port& port : fabric.node(x).ports)
      if (port.peer.valid() && dist[port.peer.node] < 0) {
        dist[port.peer.node] = dist[x] + 1;
        queue.push_back(port.peer.node);
      }
  }
  return dist[to];
}

Reference brute_force(const AuditInput& in) {
  Reference out;
  std::vector<int> cas;
  for (int i = 0; i < in.fabric.size(); ++i)
    if (!in.fabric.node(i).is_switch() && in.lids.base[i] != 0) cas.push_back(i);
  for (int s : cas)
    for (int d : cas) {
      if (s == d) continue;
      // Correctness takes every offset; contention only the chosen ones.
      auto chosen = [&](int o) {
        switch (in.offsets.mode) {
          case OffsetChoice::Mode::kAllOffsets: return true;
          case OffsetChoice::Mode::kFixed: return o == in.offsets.offset;
          case OffsetChoice::Mode::kPathBits: return o == in.offsets.path_bits[s];
        }
        return false;
      };
      for (int o = 0; o < in.lids.lids_per_ca(); ++o) {
        ++out.counts.pairs;
        const Trace path = trace(in.fabric, in.lids, in.lfts, s, in.lids.base[d] + o);
        if (path.outcome == Trace::Outcome::kLoop) {
          ++out.counts.loops;
          continue;
        }
        if (path.outcome != Trace::Outcome::kDelivered) {
          ++out.counts.unreachable;
          continue;
        }
        out.counts.updown_violations += !is_up_down(in.fabric, in.levels, path);
        out.counts.non_minimal += static_cast<int>(path.hops.size()) > shortest_links(in.fabric, s, d);
        if (!chosen(o)) continue;
        for (const PortRef hop : path.hops)
          if (in.fabric.node(hop.node).is_switch() && in.fabric.node(in.fabric.peer(hop).node).is_switch())
            ++out.on_channel[hop][{s, d}];
      }
    }
  return out;
}

// Maximum-weight bipartite matching (weights >= 0) by the Hungarian method on the full matrix.
long hungarian_max(std::vector<std::vector<long>> w) {
  if (w.empty()) return 0;
  if (w.size() > w[0].size()) {  // rows must not outnumber columns
    std::vector<std::vector<long>> t(w[0].size(), std::vector<long>(w.size()));
    for (size_t i = 0; i < w.size(); ++i)
      for (size_t j = 0; j < w[0].size(); ++j) t[j][i] = w[i][j];
    w = std::move(t);
  }
  const int n = static_cast<int>(w.size()), m = static_cast<int>(w[0].size());
  const long kInf = std::numeric_limits<long>::max() / 4;
  std::vector<long> u(n + 1), v(m + 1);
  std::vector<int> p(m + 1), way(m + 1);
  for (int i = 1; i <= n; ++i) {
    p[0] = i;
    int j0 = 0;
    std::vector<long> minv(m + 1, kInf);
    std::vector<bool> used(m + 1, false);
    do {
      used[j0] = true;
      const int i0 = p[j0];
      long delta = kInf;
      int j1 = 0;
      for (int j = 1; j <= m; ++j)
        if (!used[j]) {
          const long cur = -w[i0 - 1][j - 1] - u[i0] - v[j];
          if (cur < minv[j]) minv[j] = cur, way[j] = j0;
          if (minv[j] < delta) delta = minv[j], j1 = j;
        }
      for (int j = 0; j <= m; ++j)
        if (used[j]) {
          u[p[j]] += delta, v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      j0 = j1;
    } while (p[j0] != 0);
    do {
      const int j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0 != 0);
  }
  long total = 0;
  for (int j = 1; j <= m; ++j)
    if (p[j] != 0) total += w[p[j] - 1][j - 1];
  return total;
}

void expect_same_as_brute_force(const AuditInput& in) {
  const Reference ref = brute_force(in);
  const Correctness c = check_correctness(in);
  EXPECT_EQ(c.pairs, ref.counts.pairs);
  EXPECT_EQ(c.unreachable, ref.counts.unreachable);
  EXPECT_EQ(c.loops, ref.counts.loops);
  EXPECT_EQ(c.updown_violations, ref.counts.updown_violations);
  EXPECT_EQ(c.non_minimal, ref.counts.non_minimal);

  const Contention contention = worst_case_contention(in);
  EXPECT_TRUE(contention.exact);
  const double scale = in.offsets.mode == OffsetChoice::Mode::kAllOffsets ? in.lids.lids_per_ca() : 1;
  ASSERT_EQ(contention.links.size(), ref.on_channel.size());
  double worst = 0;
  for (const LinkLoad& link : contention.links) {
    const auto it = ref.on_channel.find(link.channel);
    ASSERT_NE(it, ref.on_channel.end());
    std::map<int, int> sources, destinations;  // CA -> row / column
    for (const auto& [pair, weight] : it->second) {
      sources.try_emplace(pair.first, static_cast<int>(sources.size()));
      destinations.try_emplace(pair.second, static_cast<int>(destinations.size()));
    }
    std::vector<std::vector<long>> w(sources.size(), std::vector<long>(destinations.size(), 0));
    for (const auto& [pair, weight] : it->second) w[sources[pair.first]][destinations[pair.second]] = weight;
    const double matching = hungarian_max(w) / scale;
    EXPECT_EQ(link.pairs, static_cast<long>(it->second.size()));
    EXPECT_EQ(link.sources, static_cast<int>(sources.size()));
    EXPECT_EQ(link.destinations, static_cast<int>(destinations.size()));
    EXPECT_DOUBLE_EQ(link.matching, matching) << link.channel.node << ":" << link.channel.port;
    worst = std::max(worst, matching);
  }
  EXPECT_DOUBLE_EQ(contention.worst_case, worst);
  // The witness: pairs of the worst link, no source or destination twice, as heavy as the worst case.
  std::set<int> sources, destinations;
  double weight = 0;
  for (const auto& [s, d] : contention.witness) {
    EXPECT_TRUE(sources.insert(s).second && destinations.insert(d).second);
    const auto& pairs = ref.on_channel.at(contention.worst_link);
    const auto it = pairs.find({s, d});
    ASSERT_NE(it, pairs.end());
    weight += it->second / scale;
  }
  EXPECT_DOUBLE_EQ(weight, contention.worst_case);
}

// LMC 2 tables whose offsets 1-3 lead nowhere (every CA LID but the base one
// is a black hole at every switch), audited with every source on offset 0:
// 3 of every 4 routes are unreachable, whichever offsets contention uses.
// (The old audit walked offset 0 only: unreachable 0, tables "sound".)
TEST(AuditCorrectness, Lmc2TablesWithThreeOfFourLidsBlackHoledAreUnreachable) {
  Routed routed = route_fabric(*make_dmodk_scheme(), generated(generate_ftree(4, 3)), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  long cas = 0;
  for (int i = 0; i < routed.fabric.size(); ++i) {
    if (routed.fabric.node(i).is_switch()) continue;
    ++cas;
    for (int offset = 1; offset < 4; ++offset)
      for (std::vector<uint8_t>& table : routed.routing.lfts.port)
        if (!table.empty()) table[routed.lids.base[i] + offset] = kNoPath;
  }
  for (const OffsetChoice::Mode mode :
       {OffsetChoice::Mode::kFixed, OffsetChoice::Mode::kPathBits, OffsetChoice::Mode::kAllOffsets}) {
    SCOPED_TRACE(describe(OffsetChoice{mode, 0, {}}));
    const Correctness c = check_correctness(input_of(routed, mode));
    EXPECT_EQ(c.pairs, cas * (cas - 1) * 4);
    EXPECT_EQ(c.unreachable, cas * (cas - 1) * 3);
    EXPECT_EQ(c.loops, 0);
  }
}

// D-mod-k tables of FT(4,3) with a share of the entries replaced by random ports or kNoPath.
Routed scrambled(int lmc, uint64_t seed, int percent, int ports = 4) {
  Routed routed = route_fabric(*make_dmodk_scheme(), generated(generate_ftree(ports, 3)), lmc);
  EXPECT_TRUE(routed.status.ok()) << routed.status.message();
  std::mt19937_64 random(seed);
  for (int x = 0; x < routed.fabric.size(); ++x) {
    std::vector<uint8_t>& table = routed.routing.lfts.port[x];
    for (uint8_t& entry : table)
      if (static_cast<int>(random() % 100) < percent)
        entry = random() % 8 == 0 ? kNoPath : static_cast<uint8_t>(1 + random() % routed.fabric.node(x).num_ports);
  }
  return routed;
}

TEST(AuditReference, ScrambledTablesMatchBruteForce) {
  for (uint64_t seed = 1; seed <= 4; ++seed)
    for (int percent : {0, 5, 30}) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed << ", " << percent << "% scrambled");
      const Routed fixed = scrambled(0, seed, percent);
      expect_same_as_brute_force(input_of(fixed, OffsetChoice::Mode::kFixed));
      Routed multi = scrambled(2, seed, percent);
      std::mt19937_64 random(seed);
      for (int& bits : multi.routing.path_bits) bits = static_cast<int>(random() % 4);
      expect_same_as_brute_force(input_of(multi, OffsetChoice::Mode::kPathBits));
      expect_same_as_brute_force(input_of(multi, OffsetChoice::Mode::kAllOffsets));
    }
}

// --jobs: the audits of scrambled tables (loops, black holes, credit loops)
// give the same counts, examples and loads for 1 to 7 threads.
TEST(AuditReference, EveryThreadCountGivesTheSameResults) {
  Routed routed = scrambled(2, 7, 30);
  std::mt19937_64 random(7);
  for (int& bits : routed.routing.path_bits) bits = static_cast<int>(random() % 4);
  for (const OffsetChoice::Mode mode : {OffsetChoice::Mode::kPathBits, OffsetChoice::Mode::kAllOffsets}) {
    const AuditInput in = input_of(routed, mode);
    set_max_workers(1);
    const Correctness one = check_correctness(in);
    const Contention one_load = worst_case_contention(in);
    ASSERT_GT(one.unreachable + one.loops, 0);  // the scrambling must leave something to find
    for (int workers = 2; workers <= 7; ++workers) {
      SCOPED_TRACE(::testing::Message() << workers << " threads");
      set_max_workers(workers);
      const Correctness many = check_correctness(in);
      EXPECT_EQ(many.pairs, one.pairs);
      EXPECT_EQ(many.unreachable, one.unreachable);
      EXPECT_EQ(many.loops, one.loops);
      EXPECT_EQ(many.credit_loops, one.credit_loops);
      EXPECT_EQ(many.updown_violations, one.updown_violations);
      EXPECT_EQ(many.non_minimal, one.non_minimal);
      EXPECT_EQ(many.examples, one.examples);
      const Contention many_load = worst_case_contention(in);
      EXPECT_EQ(many_load.worst_case, one_load.worst_case);
      EXPECT_EQ(many_load.witness, one_load.witness);
      ASSERT_EQ(many_load.links.size(), one_load.links.size());
      for (size_t i = 0; i < one_load.links.size(); ++i) EXPECT_EQ(many_load.links[i].matching, one_load.links[i].matching);
    }
  }
  set_max_workers(0);
}

// Without the shortest-path count the check takes LIDs in order and turns
// the tables a tile of 64 LIDs at a time (LftColumns::kTiles) instead of
// all at once by leaf: the same verdicts on scrambled tables whose LIDs
// span several tiles, at LMC 0 and 2, for any thread count.
TEST(AuditReference, TilesInLidOrderGiveTheSameVerdicts) {
  for (uint64_t seed = 1; seed <= 4; ++seed)
    for (int lmc : {0, 2})
      for (int percent : {0, 5, 30}) {
        SCOPED_TRACE(::testing::Message() << "seed " << seed << ", LMC " << lmc << ", " << percent << "% scrambled");
        const Routed routed = scrambled(lmc, seed, percent, 8);
        ASSERT_GT(routed.lids.max_lid, 3 * 64);
        AuditInput whole = input_of(routed, OffsetChoice::Mode::kAllOffsets);
        whole.count_switch_credit_loops = true;
        AuditInput tiles = whole;
        tiles.count_non_minimal = false;
        const Correctness expected = check_correctness(whole);
        if (percent > 0) {
          EXPECT_GT(expected.unreachable + expected.loops, 0);
        }
        std::vector<std::string> one_worker_examples;
        for (int workers : {1, 3}) {
          set_max_workers(workers);
          const Correctness got = check_correctness(tiles);
          if (workers == 1) one_worker_examples = got.examples;
          EXPECT_EQ(got.examples, one_worker_examples);
          expect_same_verdicts(got, expected, std::to_string(workers) + " threads");
        }
        set_max_workers(0);
      }
}

TEST(AuditReference, MultipathWithTooFewOffsetsMatchesBruteForce) {
  // LMC 1 on FT(8,2): two of the four top switches per destination, so the weights differ from pair to pair.
  const Routed routed = route_fabric(*make_multipath_scheme(), generated(generate_ftree(8, 2)), 1);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  expect_same_as_brute_force(input_of(routed, OffsetChoice::Mode::kAllOffsets));
}

// ---- Real schemes (Yuan et al., Table I) ----

Routed route_at_needed_lmc(const Scheme& scheme, Result<Fabric> fabric) {
  const Fabric copy = generated(std::move(fabric));
  Routed routed = route_fabric(scheme, copy, 0);
  if (routed.status.ok() && routed.routing.lmc_needed > 0) routed = route_fabric(scheme, copy, routed.routing.lmc_needed);
  EXPECT_TRUE(routed.status.ok()) << routed.status.message();
  return routed;
}


// Worst case of a scheme on a fabric, with every route checked clean first.
double worst_case(const Scheme& scheme, Result<Fabric> fabric, OffsetChoice::Mode mode) {
  const Routed routed = route_at_needed_lmc(scheme, std::move(fabric));
  if (!routed.status.ok()) return -1;
  const AuditInput input = input_of(routed, mode);
  const Correctness c = check_correctness(input);
  EXPECT_GT(c.pairs, 0);
  EXPECT_EQ(c.unreachable + c.loops + c.updown_violations + c.non_minimal + c.credit_loops, 0)
      << ::testing::PrintToString(c.examples);
  const Contention contention = worst_case_contention(input);
  EXPECT_TRUE(contention.exact);
  if (mode == OffsetChoice::Mode::kAllOffsets) {
    EXPECT_FALSE(contention.witness.empty());
  } else {
    EXPECT_EQ(static_cast<double>(contention.witness.size()), contention.worst_case);
  }
  return contention.worst_case;
}

TEST(AuditSchemes, Osrm2ReachesSqrtHalfM) {
  EXPECT_EQ(worst_case(*make_osrm_scheme(), generate_ftree(8, 2), OffsetChoice::Mode::kPathBits), 2);
  EXPECT_EQ(worst_case(*make_osrm_scheme(), generate_ftree(32, 2), OffsetChoice::Mode::kPathBits), 4);
}

TEST(AuditSchemes, Osrm3ReachesHalfM) {
  EXPECT_EQ(worst_case(*make_osrm_scheme(), generate_ftree(8, 3), OffsetChoice::Mode::kPathBits), 4);
  EXPECT_EQ(worst_case(*make_osrm_scheme(), generate_ftree(16, 3), OffsetChoice::Mode::kPathBits), 8);
}

TEST(AuditSchemes, MlidMatchesTableI) {
  // Table I: m/2 on FT(m,2), m-1 on FT(m,3).
  EXPECT_EQ(worst_case(*make_mlid_scheme(), generate_ftree(8, 2), OffsetChoice::Mode::kPathBits), 4);
  EXPECT_EQ(worst_case(*make_mlid_scheme(), generate_ftree(8, 3), OffsetChoice::Mode::kPathBits), 7);
}

TEST(AuditSchemes, MlidOnFt16_3NeedsMoreLidsThanInfiniBandHas) {
  // m-1 = 15 needs LMC 6 (65,536 CA LIDs); the unicast range stops it at LMC 5.
  const Fabric fabric = *generate_ftree(16, 3);
  const Detection detection = detect(fabric);
  auto worst_at = [&](LidSpace space) {
    // Table I's setting: every host on its path bits, no offset set apart.
    Result<SchemeTables> tables = route_scheme(fabric, detection, "mlid", -1, space, nullptr, PathBitsUsers::kAll);
    EXPECT_TRUE(tables.ok()) << tables.status().message();
    EXPECT_EQ(tables->lids.lmc, space == LidSpace::kAnalysis ? 6 : 5);
    return worst_case_contention(
               {fabric, detection.levels, tables->lids, tables->routing.lfts, tables->offsets, {}, {}})
        .worst_case;
  };
  EXPECT_EQ(worst_at(LidSpace::kAnalysis), 15);
  EXPECT_GT(worst_at(LidSpace::kUnicast), 15);
}

// Up/down ECMP balances only what can arrive at a switch, so on intact trees
// it is as good as D-mod-k (balancing every LID correlated the levels: 16 on
// FT(8,3), 64 on FT(16,3)).
TEST(AuditSchemes, UpDownAsGoodAsDmodkOnIntactTrees) {
  for (auto make : {+[] { return generate_ftree(8, 3); }, +[] { return generate_ftree(16, 3); },
                    +[] { return generate_kary(4, 4); }, +[] { return generate_pgft({{4, 4, 3}, {1, 4, 2}, {1, 1, 1}}); }}) {
    const double dmodk = worst_case(*make_dmodk_scheme(), make(), OffsetChoice::Mode::kPathBits);
    EXPECT_GT(dmodk, 1);
    EXPECT_LE(worst_case(*make_updown_scheme(), make(), OffsetChoice::Mode::kPathBits), dmodk);
  }
}

TEST(AuditSchemes, NonblockingIsOne) {
  for (int n : {2, 3, 4})
    EXPECT_EQ(worst_case(*make_nonblocking_scheme(), generate_clos2(n, n * n, n * n + 1), OffsetChoice::Mode::kPathBits),
              1)
        << "ftree(" << n << "+" << n * n << ", " << n * n + 1 << ")";
}

TEST(AuditSchemes, MultipathOverAllOffsetsIsOne) {
  EXPECT_EQ(worst_case(*make_multipath_scheme(), generate_ftree(8, 2), OffsetChoice::Mode::kAllOffsets), 1);
  EXPECT_EQ(worst_case(*make_multipath_scheme(), generate_ftree(8, 3), OffsetChoice::Mode::kAllOffsets), 1);
}

TEST(AuditSchemes, DmodkOnFt8_3) {
  // Every down channel carries one destination, but the level-2 up channels
  // carry all 16 hosts of a sub-tree to 7 destinations in the other sub-trees.
  EXPECT_EQ(worst_case(*make_dmodk_scheme(), generate_ftree(8, 3), OffsetChoice::Mode::kFixed), 7);
}

}  // namespace
}  // namespace ftclos
