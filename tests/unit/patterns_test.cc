#include "traffic/patterns.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>

#include "detect/detect.h"
#include "gen/generate.h"
#include "traffic/pattern_load.h"

namespace ftclos {
namespace {

std::set<std::pair<int, int>> pairs_of(const std::string& text, int hosts, uint64_t seed = 1) {
  Result<PatternSpec> spec = parse_pattern(text);
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  Result<TrafficMatrix> tm = make_pattern(*spec, hosts, seed);
  EXPECT_TRUE(tm.ok()) << tm.status().message();
  std::set<std::pair<int, int>> out;
  for (const Flow& flow : tm->flows) {
    EXPECT_EQ(flow.amount, 1);
    EXPECT_TRUE(out.emplace(flow.src, flow.dst).second) << "duplicate " << flow.src << "->" << flow.dst;
  }
  return out;
}

TEST(Patterns, ShiftIsExact) {
  EXPECT_EQ(pairs_of("shift:3", 5), (std::set<std::pair<int, int>>{{0, 3}, {1, 4}, {2, 0}, {3, 1}, {4, 2}}));
}

TEST(Patterns, BitReversalIsExactAndDropsPalindromes) {
  // 8 hosts, 3 bits: 1=001 <-> 4=100, 3=011 <-> 6=110; 0, 2, 5, 7 map to themselves.
  EXPECT_EQ(pairs_of("bit-reversal", 8), (std::set<std::pair<int, int>>{{1, 4}, {4, 1}, {3, 6}, {6, 3}}));
}

TEST(Patterns, TransposeIsExact) {
  const auto pairs = pairs_of("transpose", 9);  // 3x3: (r,c) -> (c,r), the diagonal 0, 4, 8 stays
  EXPECT_EQ(pairs, (std::set<std::pair<int, int>>{{1, 3}, {3, 1}, {2, 6}, {6, 2}, {5, 7}, {7, 5}}));
}

TEST(Patterns, RegularPatternsHaveTheirDegrees) {
  EXPECT_EQ(pairs_of("ring", 16).size(), 32u);         // 16 edges, both ways
  EXPECT_EQ(pairs_of("mesh2d", 16).size(), 48u);       // 4x4: 24 edges
  EXPECT_EQ(pairs_of("mesh3d", 8).size(), 24u);        // 2x2x2: 12 edges
  EXPECT_EQ(pairs_of("torus2d", 16).size(), 64u);      // 4x4 with wrap: 32 edges
  EXPECT_EQ(pairs_of("torus3d", 8).size(), 24u);       // sides of 2 have no wrap link
  EXPECT_EQ(pairs_of("hypercube", 16).size(), 64u);    // 16 nodes x 4 neighbours
  EXPECT_EQ(pairs_of("binary-tree", 16).size(), 30u);  // 15 edges
  EXPECT_EQ(pairs_of("all-to-all", 6).size(), 30u);
  EXPECT_EQ(pairs_of("clustered:4", 16).size(), 48u);  // 4 groups x 12
  EXPECT_EQ(pairs_of("hot-spot:2,3", 16).size(), 12u);
  EXPECT_EQ(pairs_of("bisection", 16).size(), 16u);
  std::set<int> sources, destinations;
  for (const auto& [s, d] : pairs_of("permutation", 16)) {
    EXPECT_TRUE(sources.insert(s).second);
    EXPECT_TRUE(destinations.insert(d).second);
  }
}

TEST(Patterns, RandomPlacementDependsOnTheSeedOnly) {
  EXPECT_EQ(pairs_of("ring", 64, 7), pairs_of("ring", 64, 7));
  EXPECT_NE(pairs_of("ring", 64, 7), pairs_of("ring", 64, 8));
  EXPECT_TRUE(is_random_pattern(*parse_pattern("uniform:0.5")));
  EXPECT_FALSE(is_random_pattern(*parse_pattern("shift:1")));
}

TEST(Patterns, MeshSidesAreMostEven) {
  EXPECT_EQ(mesh_sides(512, 2), (std::vector<int>{16, 32}));
  EXPECT_EQ(mesh_sides(512, 3), (std::vector<int>{8, 8, 8}));
  EXPECT_EQ(mesh_sides(1024, 3), (std::vector<int>{8, 8, 16}));
  EXPECT_EQ(mesh_sides(128, 3), (std::vector<int>{4, 4, 8}));
}

TEST(Patterns, ParseErrorsSayWhat) {
  EXPECT_NE(parse_pattern("rng").status().message().find("unknown pattern \"rng\""), std::string::npos);
  EXPECT_NE(parse_pattern("shift").status().message().find("shift:k"), std::string::npos);
  EXPECT_NE(parse_pattern("uniform:1.5").status().message().find("0..1"), std::string::npos);
  EXPECT_NE(parse_pattern("clustered:x").status().message().find("not a number"), std::string::npos);
  EXPECT_FALSE(parse_pattern("hot-spot:4").ok());
  EXPECT_FALSE(make_pattern(*parse_pattern("transpose"), 8, 1).ok());
  EXPECT_FALSE(make_pattern(*parse_pattern("clustered:3"), 8, 1).ok());
}

// pattern_fits says, without building an instance, what make_pattern then
// does: the same verdict and the same message.
TEST(Patterns, FitIsCheckedWithoutBuilding) {
  struct Case {
    const char* text;
    int hosts;
    bool fits;
  };
  for (const Case& c : {Case{"transpose", 8, false}, Case{"clustered:3", 8, false}, Case{"bit-reversal", 12, false},
                        Case{"hypercube", 12, false}, Case{"hot-spot:4,4", 12, false}, Case{"ring", 1, false},
                        Case{"transpose", 16, true}, Case{"clustered:4", 8, true}, Case{"bit-reversal", 16, true},
                        Case{"hot-spot:3,4", 12, true}}) {
    const PatternSpec spec = *parse_pattern(c.text);
    const Status fits = pattern_fits(spec, c.hosts);
    const Result<TrafficMatrix> made = make_pattern(spec, c.hosts, 1);
    EXPECT_EQ(fits.ok(), c.fits) << c.text << " on " << c.hosts;
    EXPECT_EQ(made.ok(), c.fits) << c.text << " on " << c.hosts;
    if (!c.fits) {
      EXPECT_EQ(fits.message(), made.status().message());
    }
  }
}

// Two leaves of two hosts under one spine, LFTs written by hand: a0->b0 and
// a1->b1 share the up channel of leaf A.
struct TwoLeaves {
  Fabric fabric;
  LidMap lids;
  Lfts lfts;
  int spine = 0, leaf_a = 0, leaf_b = 0;
  std::vector<int> hosts;  // a0, a1, b0, b1
};

TwoLeaves two_leaves() {
  TwoLeaves t;
  t.spine = *t.fabric.add_node(NodeType::kSwitch, "spine", 2, 1);
  t.leaf_a = *t.fabric.add_node(NodeType::kSwitch, "A", 3, 2);
  t.leaf_b = *t.fabric.add_node(NodeType::kSwitch, "B", 3, 3);
  for (const char* name : {"a0", "a1", "b0", "b1"})
    t.hosts.push_back(*t.fabric.add_node(NodeType::kCa, name, 1, 0x100 + t.hosts.size()));
  EXPECT_TRUE(t.fabric.connect({t.leaf_a, 3}, {t.spine, 1}).ok());
  EXPECT_TRUE(t.fabric.connect({t.leaf_b, 3}, {t.spine, 2}).ok());
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(t.fabric.connect({t.hosts[i], 1}, {i < 2 ? t.leaf_a : t.leaf_b, 1 + i % 2}).ok());
  t.lids = *assign_lids(t.fabric, 0);
  t.lfts.port.resize(t.fabric.size());
  for (int sw : {t.spine, t.leaf_a, t.leaf_b}) t.lfts.port[sw].assign(t.lids.max_lid + 1, kNoPath);
  for (int i = 0; i < 4; ++i) {
    const int lid = t.lids.base[t.hosts[i]];
    const bool on_a = i < 2;
    t.lfts.port[t.spine][lid] = on_a ? 1 : 2;
    t.lfts.port[t.leaf_a][lid] = on_a ? 1 + i % 2 : 3;
    t.lfts.port[t.leaf_b][lid] = on_a ? 3 : 1 + i % 2;
  }
  return t;
}

TEST(PatternLoad, MloadOnAHandBuiltCase) {
  const TwoLeaves t = two_leaves();
  const TrafficMatrix tm{4, {{0, 2, 1}, {1, 3, 1}}};
  LoadPlan plan({t.fabric, t.lids, t.lfts, {}});
  const ChannelLoads loads = channel_loads(plan, tm, t.hosts);
  EXPECT_EQ(loads.undelivered, 0);
  EXPECT_EQ(loads.load[loads.channel_index({t.leaf_a, 3})], 2);  // A -> spine
  EXPECT_EQ(loads.load[loads.channel_index({t.spine, 2})], 2);   // spine -> B
  EXPECT_EQ(loads.load[loads.channel_index({t.hosts[0], 1})], 1);

  const Detection detection = detect(t.fabric);
  const PatternLoad load = pattern_load(plan, detection.levels, OptuBasis::kLowerBound, tm, t.hosts);
  EXPECT_EQ(load.mload, 2);
  // Baseload is 1, but both units must leave leaf A over its single up link.
  EXPECT_EQ(load.optu, 2);
  EXPECT_EQ(load.ratio, 1);
  EXPECT_DOUBLE_EQ(load.flow_bandwidth, 0.5);
  const PatternLoad base = pattern_load(plan, detection.levels, OptuBasis::kBaseload, tm, t.hosts);
  EXPECT_EQ(base.optu, 1);
  EXPECT_EQ(base.ratio, 2);
}

TEST(PatternLoad, LoopsAndBlackHolesAreUndelivered) {
  TwoLeaves t = two_leaves();
  t.lfts.port[t.spine][t.lids.base[t.hosts[2]]] = 1;  // b0's LID bounces between spine and leaf A
  t.lfts.port[t.leaf_b][t.lids.base[t.hosts[3]]] = kNoPath;
  const TrafficMatrix tm{4, {{0, 2, 1}, {1, 2, 1}, {0, 3, 1}, {1, 0, 1}}};
  LoadPlan plan({t.fabric, t.lids, t.lfts, {}});
  const ChannelLoads loads = channel_loads(plan, tm, t.hosts);
  EXPECT_EQ(loads.undelivered, 3);
  EXPECT_EQ(loads.load[loads.channel_index({t.leaf_a, 1})], 1);  // a1 -> a0 still arrives
  EXPECT_EQ(loads.load[loads.channel_index({t.leaf_a, 3})], 0);  // lost flows add no load past their CA link
}

TEST(PatternLoad, BaseloadIsTheBusiestSenderOrReceiver) {
  const TwoLeaves t = two_leaves();
  const TrafficMatrix tm{4, {{0, 2, 1}, {1, 2, 1}, {3, 2, 0.5}, {0, 3, 1}}};  // host 2 receives 2.5
  const Detection detection = detect(t.fabric);
  LoadPlan plan({t.fabric, t.lids, t.lfts, {}});
  EXPECT_EQ(pattern_load(plan, detection.levels, OptuBasis::kBaseload, tm, t.hosts).optu, 2.5);
}

TEST(PatternLoad, DmodkAllToAllOnAFatTreeIsOptimal) {
  const Fabric fabric = *generate_ftree(4, 2);
  const Detection detection = detect(fabric);
  ASSERT_EQ(optu_basis(detection), OptuBasis::kBaseload);
  Result<SchemeTables> tables = route_scheme(fabric, detection, "dmodk", -1);
  ASSERT_TRUE(tables.ok()) << tables.status().message();
  LoadPlan plan({fabric, tables->lids, tables->routing.lfts, tables->offsets});
  Result<PatternStats> stats =
      evaluate_pattern(plan, detection.levels, OptuBasis::kBaseload, *parse_pattern("all-to-all"), {});
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->ratio.count, 1);
  EXPECT_EQ(stats->optu.mean, 7);
  EXPECT_EQ(stats->mload.mean, 7);
  EXPECT_EQ(stats->undelivered, 0);
}

TEST(PatternLoad, RandomPatternsAverageThirtyTwoInstances) {
  const Fabric fabric = *generate_ftree(4, 2);
  const Detection detection = detect(fabric);
  Result<SchemeTables> tables = route_scheme(fabric, detection, "dmodk", -1);
  ASSERT_TRUE(tables.ok());
  LoadPlan plan({fabric, tables->lids, tables->routing.lfts, tables->offsets});
  Result<PatternStats> a = evaluate_pattern(plan, detection.levels, OptuBasis::kBaseload, *parse_pattern("ring"), {});
  Result<PatternStats> b = evaluate_pattern(plan, detection.levels, OptuBasis::kBaseload, *parse_pattern("ring"), {});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->ratio.count, 32);
  EXPECT_EQ(a->ratio.mean, b->ratio.mean);
  EXPECT_EQ(a->optu.mean, 2);  // every ring node sends and receives two units
  EXPECT_GE(a->ratio.min, 1);
}

}  // namespace
}  // namespace ftclos
