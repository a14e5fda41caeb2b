// The layered scheme (schemes/scheme_layered.cc): balanced shortest paths in VL
// layers on fabrics that are no folded Clos. The auditor, reading the
// routing's SLs (SL k on VL k), finds every pair delivered, no forwarding
// loop and no credit loop on any VL; the layers are what keeps them so; and
// where the floor's up*/down* detours cost contention, layered's worst case
// is lower and auto takes it.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "audit/audit.h"
#include "audit/worst_case.h"
#include "paths/cdg_layers.h"
#include "schemes/scheme_registry.h"
#include "schemes/schemes.h"
#include "paths/sssp_routes.h"
#include "routing_checks.h"

namespace ftclos {
namespace {

// The fabrics of issue #13 that are no folded Clos.
const FabricCase kFabrics[] = {
    {"ring8", [] { return generated(generate_ring(8, 2)); }},
    {"torus4x4", [] { return generated(generate_torus(4, 4, 2)); }},
    {"torus3x5", [] { return generated(generate_torus(3, 5, 1)); }},
    {"hypercube4", [] { return generated(generate_hypercube(4, 2)); }},
    {"dragonfly5x3", [] { return generated(generate_dragonfly(5, 3, 2)); }},
    {"ft8_3_spine_cables", [] { return with_level_cables(generated(generate_ftree(8, 3)), 6, 2); }},
    {"ft8_2_leaf_cables", [] { return with_level_cables(generated(generate_ftree(8, 2)), 3, 1); }},
};

int vls_used(const Routing& routing) {
  return routing.dest_sl.empty() ? 1 : 1 + *std::ranges::max_element(routing.dest_sl);
}

// The VLs the CA LIDs' SLs take (switch LIDs may take more: switches' own
// routes that would close a credit loop move to SLs of their own).
int ca_vls_used(const Routed& routed) {
  int used = 1;
  for (size_t lid = 1; lid < routed.routing.dest_sl.size(); ++lid) {
    const int owner = routed.lids.owner[lid];
    if (owner >= 0 && !routed.fabric.node(owner).is_switch()) used = std::max(used, routed.routing.dest_sl[lid] + 1);
  }
  return used;
}

// How many distinct VLs the CA LIDs' SLs take (the torus scheme's SL 1 alone: one).
int ca_vls_in_use(const Routed& routed) {
  std::set<int> sls;
  for (size_t lid = 1; lid < routed.lids.owner.size(); ++lid)
    if (const int owner = routed.lids.owner[lid]; owner >= 0 && !routed.fabric.node(owner).is_switch())
      sls.insert(routed.routing.dest_sl.empty() ? 0 : routed.routing.dest_sl[lid]);
  return static_cast<int>(sls.size());
}

double worst_case(const Routed& routed) {
  return routing_worst_case(routed.fabric, routed.detection.levels, routed.lids, routed.routing);
}

class LayeredOnIrregular : public ::testing::TestWithParam<FabricCase> {};

TEST_P(LayeredOnIrregular, DeliversEveryPairWithoutCreditLoopsOnAnyVl) {
  const Routed routed = route_fabric(*make_layered_scheme(), GetParam().make(), 0);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  const Correctness c = expect_shortest_and_deadlock_free_on_its_sls(routed);
  EXPECT_LE(vls_used(routed.routing), kDefaultDataVls);
  EXPECT_EQ(c.vls_used, (1u << ca_vls_used(routed)) - 1) << "the layers are 0 .. n-1, each used";
  EXPECT_TRUE(notes_mention(routed.routing, "VL")) << ::testing::PrintToString(routed.routing.notes);
  expect_switch_lids_reachable(routed);
}

// Shortest paths on a ring, a torus, a hypercube and a dragonfly chase each
// other around: on one VL the very same tables close credit loops.
TEST_P(LayeredOnIrregular, OnOneVlTheSameTablesCloseCreditLoopsWhereItLayers) {
  const Routed routed = route_fabric(*make_layered_scheme(), GetParam().make(), 0);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  if (ca_vls_used(routed) == 1) GTEST_SKIP() << "one layer suffices here";
  EXPECT_GT(audit_on_sls(routed, {}).credit_loops, 0);
}

// auto, given the worst-case measure, keeps layered exactly where its worst
// case is below the floor's (both measured here again), and torus where its
// is below both, or equal on fewer VLs, and says so.
TEST_P(LayeredOnIrregular, AutoKeepsTheLowerWorstCase) {
  Routed floor = route_fabric(*make_updown_star_scheme(), GetParam().make(), 0);
  const Routed layered = route_fabric(*make_layered_scheme(), GetParam().make(), 0);
  ASSERT_TRUE(floor.status.ok() && layered.status.ok());
  const WorstCaseMeasure measure = exact_worst_case_measure();
  RoutingInput input = floor.input();
  input.worst_case = &measure;
  Result<Routing> chosen = make_auto_scheme()->route(input);
  ASSERT_TRUE(chosen.ok()) << chosen.status().message();
  if (floor.detection.updown_routable) {
    EXPECT_EQ(chosen->chosen, "updown");
    return;
  }
  // The challengers in table order, each kept where it is below the best so
  // far, or equal to it on fewer VLs.
  std::string_view best = "updown-star";
  double best_worst = worst_case(floor);
  int best_vls = 1;
  const auto challenge = [&](const Routed& rival, std::string_view name) {
    const double rival_worst = worst_case(rival);
    if (rival_worst < best_worst || (rival_worst == best_worst && ca_vls_in_use(rival) < best_vls))
      best = name, best_worst = rival_worst, best_vls = ca_vls_in_use(rival);
  };
  challenge(layered, "layered");
  if (const Routed torus = route_fabric(*make_torus_scheme(), GetParam().make(), 0); torus.status.ok())
    challenge(torus, "torus");
  EXPECT_EQ(chosen->chosen, best) << ::testing::PrintToString(chosen->notes);
  EXPECT_TRUE(notes_mention(*chosen, "worst-case contention")) << ::testing::PrintToString(chosen->notes);
  floor.routing = *chosen;
  EXPECT_EQ(audit_on_sls(floor, chosen->dest_sl).credit_loops, 0);
}

INSTANTIATE_TEST_SUITE_P(Fabrics, LayeredOnIrregular, ::testing::ValuesIn(kFabrics),
                         [](const auto& info) { return info.param.name; });

// Where up*/down* detours around its root, shortest paths do better: on the
// torus and the hypercube the floor crowds the links near its root.
TEST(LayeredWorstCase, BelowTheFloorOnATorusAndAHypercube) {
  for (Fabric (*make)() : {kFabrics[1].make, kFabrics[3].make}) {
    const Routed floor = route_fabric(*make_updown_star_scheme(), make(), 0);
    const Routed layered = route_fabric(*make_layered_scheme(), make(), 0);
    ASSERT_TRUE(floor.status.ok() && layered.status.ok());
    EXPECT_LT(worst_case(layered), worst_case(floor));
  }
}

// Issue #35: stock nue routes the 5x3 dragonfly (2 hosts a switch) with
// worst case 8 on 8 VLs, balanced shortest paths alone meet 9 there. The
// polish moves entries to other shortest paths, a destination whose layer
// would close a credit loop to another SL: 8, within the ports' 8 VLs, on
// shortest paths, with no credit loop on any VL.
TEST(LayeredWorstCase, DragonflyOf5GroupsOf3MeetsNuesEightWithinEightVls) {
  const Routed layered = route_fabric(*make_layered_scheme(), generated(generate_dragonfly(5, 3, 2)), 0);
  ASSERT_TRUE(layered.status.ok()) << layered.status.message();
  EXPECT_LE(worst_case(layered), 8);
  EXPECT_LE(vls_used(layered.routing), kDefaultDataVls);
  EXPECT_EQ(expect_shortest_and_deadlock_free_on_its_sls(layered).switch_credit_loops, 0);
  EXPECT_TRUE(notes_mention(layered.routing, "contention polish")) << ::testing::PrintToString(layered.routing.notes);
}

// OpenSM hands nodes over in GUID order, a file in its own: with the same
// LIDs the tables and SLs are the same (plugin_sl2vl.sh compares them).
TEST(LayeredOrder, TheSameTablesAndSlsWhateverTheNodeOrder) {
  const Routed routed = route_fabric(*make_layered_scheme(), generated(generate_torus(4, 4, 2)), 0);
  ASSERT_TRUE(routed.status.ok());
  const Fabric shuffled = shuffle(routed.fabric, 5, false);
  LidMap lids = routed.lids;
  for (int n = 0; n < shuffled.size(); ++n) lids.base[n] = routed.lids.base[*routed.fabric.find(shuffled.node(n).name)];
  for (int lid = 1; lid <= lids.max_lid; ++lid)
    if (routed.lids.owner[lid] >= 0) lids.owner[lid] = *shuffled.find(routed.fabric.node(routed.lids.owner[lid]).name);
  const Detection detection = detect(shuffled);
  Result<Routing> again = make_layered_scheme()->route({shuffled, detection, lids});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->dest_sl, routed.routing.dest_sl);
  for (int n = 0; n < shuffled.size(); ++n) {
    if (!shuffled.node(n).is_switch()) continue;
    EXPECT_EQ(again->lfts.port[n], routed.routing.lfts.port[*routed.fabric.find(shuffled.node(n).name)])
        << shuffled.node(n).name;
  }
}

// Without the measure auto cannot weigh them: it keeps the floor and says why.
TEST(LayeredAuto, WithoutAWorstCaseMeasureTheFloorStays) {
  const Routed routed = route_fabric(*make_auto_scheme(), generated(generate_torus(4, 4, 2)), 0);
  ASSERT_TRUE(routed.status.ok());
  EXPECT_EQ(routed.routing.chosen, "updown-star");
  EXPECT_TRUE(notes_mention(routed.routing, "layered: no worst-case measure"));
}

// Fewer VLs than the balanced paths' layers: the paths with the fewest
// down-up turns first, on fewer layers (on a 4x4 torus one: every pair has a
// shortest path that never turns).
TEST(LayeredVls, FewerVlsTakeTheFewestTurnsFirst) {
  Routed routed = route_fabric(*make_layered_scheme(), generated(generate_torus(4, 4, 2)), 0);
  ASSERT_TRUE(routed.status.ok());
  ASSERT_GT(vls_used(routed.routing), 1);
  RoutingInput input = routed.input();
  input.data_vls = 1;
  Result<Routing> fewer = make_layered_scheme()->route(input);
  ASSERT_TRUE(fewer.ok()) << fewer.status().message();
  EXPECT_EQ(vls_used(*fewer), 1);
  EXPECT_TRUE(notes_mention(*fewer, "fewest down-up turns")) << ::testing::PrintToString(fewer->notes);
  routed.routing = *fewer;
  const Correctness c = audit_on_sls(routed, {});
  EXPECT_EQ(c.unreachable + c.loops + c.credit_loops + c.non_minimal, 0);
}

// How many CA LIDs the notes say took up*/down* trees (0 when none did).
int up_down_trees(const Routing& routing) {
  for (const std::string& note : routing.notes)
    if (note.find("CA LIDs take up*/down* trees") != std::string::npos) return std::stoi(note);
  return 0;
}

// A ring's shortest paths chase each other around whatever they turn: on one
// VL (refused before) the CA LIDs whose trees fit no layer take up*/down*
// trees on SL 0, and the auditor finds every pair delivered without a loop
// or a credit loop; auto weighs it and says how many fell back.
TEST(LayeredVls, TooFewVlsTakeUpDownTreesOnSl0) {
  Routed routed = route_fabric(*make_updown_star_scheme(), generated(generate_ring(8, 2)), 0);
  ASSERT_TRUE(routed.status.ok());
  RoutingInput input = routed.input();
  input.data_vls = 1;
  Result<Routing> layered = make_layered_scheme()->route(input);
  ASSERT_TRUE(layered.ok()) << layered.status().message();
  EXPECT_EQ(vls_used(*layered), 1);
  const int fell_back = up_down_trees(*layered);
  EXPECT_GT(fell_back, 0) << ::testing::PrintToString(layered->notes);
  EXPECT_LT(fell_back, 16) << "some shortest-path trees still fit SL 0";
  EXPECT_TRUE(notes_mention(*layered, fmt::format("{} of 16 CA LIDs take up*/down* trees on SL 0", fell_back)))
      << ::testing::PrintToString(layered->notes);
  const int cas = routed.fabric.count(NodeType::kCa);
  routed.routing = *layered;
  const Correctness c = audit_on_sls(routed, layered->dest_sl);
  EXPECT_EQ(c.pairs, long{cas} * (cas - 1));
  EXPECT_EQ(c.unreachable + c.loops + c.credit_loops, 0) << ::testing::PrintToString(c.examples);
  expect_switch_lids_reachable(routed);
  const WorstCaseMeasure measure = exact_worst_case_measure();
  input.worst_case = &measure;
  Result<Routing> chosen = make_auto_scheme()->route(input);
  ASSERT_TRUE(chosen.ok());
  EXPECT_EQ(chosen->chosen, "updown-star");
  EXPECT_TRUE(notes_mention(*chosen, fmt::format("{} of 16 CA LIDs on up*/down* trees", fell_back)))
      << ::testing::PrintToString(chosen->notes);
}

// Every fabric on 1 and 2 VLs: routed within them, whatever falls back,
// and deadlock-free with its SLs.
TEST_P(LayeredOnIrregular, OnOneOrTwoVlsStillDeliversEveryPairWithoutCreditLoops) {
  for (const int vls : {1, 2}) {
    Routed routed = route_fabric(*make_updown_star_scheme(), GetParam().make(), 0);
    ASSERT_TRUE(routed.status.ok());
    RoutingInput input = routed.input();
    input.data_vls = vls;
    Result<Routing> layered = make_layered_scheme()->route(input);
    ASSERT_TRUE(layered.ok()) << vls << " VLs: " << layered.status().message();
    EXPECT_LE(vls_used(*layered), vls);
    routed.routing = *layered;
    const Correctness c = audit_on_sls(routed, layered->dest_sl);
    EXPECT_EQ(c.unreachable + c.loops + c.credit_loops, 0) << vls << " VLs: " << ::testing::PrintToString(c.examples);
    expect_switch_lids_reachable(routed);
  }
}

// Once a run of CA LIDs fits no layer, the rest take up*/down* trees without
// the searches: 40 hosts a switch on a ring of 8, one VL.
TEST(LayeredVls, FullLayersStopTheSearch) {
  Routed routed = route_fabric(*make_layered_scheme(), generated(generate_ring(8, 40)), 0);
  ASSERT_TRUE(routed.status.ok());
  RoutingInput input = routed.input();
  input.data_vls = 1;
  Result<Routing> layered = make_layered_scheme()->route(input);
  ASSERT_TRUE(layered.ok());
  EXPECT_TRUE(notes_mention(*layered, fmt::format("after {} in a row", kDeclinedInARow)))
      << ::testing::PrintToString(layered->notes);
  routed.routing = *layered;
  const Correctness c = audit_on_sls(routed, layered->dest_sl);
  EXPECT_EQ(c.unreachable + c.loops + c.credit_loops, 0) << ::testing::PrintToString(c.examples);
}

// A fat-tree keeps its scheme: auto's choice there is no floor.
TEST(LayeredAuto, FatTreeKeepsItsScheme) {
  const WorstCaseMeasure measure = exact_worst_case_measure();
  Routed routed = route_fabric(*make_updown_star_scheme(), generated(generate_ftree(8, 3)), 0);
  RoutingInput input = routed.input();
  input.worst_case = &measure;
  Result<Routing> chosen = make_auto_scheme()->route(input);
  ASSERT_TRUE(chosen.ok());
  EXPECT_EQ(chosen->chosen, "dmodk");
}

// On MiKANT auto keeps the lower of Algorithm 1 and layered on the same VLs
// (issue #29: MiKANT(3,3) 6 and 5 on 2 VLs, MiKANT(4,3) 8 and 7): layered
// challenges mikant as it does the up*/down* floor.
TEST(LayeredAuto, MikantTakesTheLowerOfAlgorithmOneAndLayered) {
  const WorstCaseMeasure measure = exact_worst_case_measure();
  for (int k : {3, 4}) {
    Routed routed = route_fabric(*make_updown_star_scheme(), generated(generate_mikant(k, 3)), 0);
    RoutingInput input = routed.input();
    input.worst_case = &measure;
    Result<Routing> own = make_mikant_scheme()->route(input);
    Result<Routing> layered = make_layered_scheme()->route(input);
    Result<Routing> chosen = make_auto_scheme()->route(input);
    ASSERT_TRUE(own.ok() && layered.ok() && chosen.ok()) << "MiKANT(" << k << ", 3)";
    const double own_worst = measure(input, *own), layered_worst = measure(input, *layered);
    EXPECT_EQ(measure(input, *chosen), std::min(own_worst, layered_worst)) << "MiKANT(" << k << ", 3)";
    EXPECT_EQ(chosen->chosen, layered_worst < own_worst ? "layered" : "mikant") << "MiKANT(" << k << ", 3)";
  }
}

// A layer refuses exactly the dependencies that would close a cycle: random
// dependencies on a few channels, each judged against a plain search.
bool reaches(const std::vector<std::set<int>>& next, int from, int to) {
  std::vector<int> stack{from};
  std::vector<bool> seen(next.size());
  while (!stack.empty()) {
    const int at = stack.back();
    stack.pop_back();
    if (at == to) return true;
    for (int n : next[at])
      if (!seen[n]) seen[n] = true, stack.push_back(n);
  }
  return false;
}

// Offers `count` random dependencies to `layer`, which holds `next`'s
// already, each judged against the plain search; returns those refused.
int expect_refused_exactly_the_cycles(AcyclicLayer& layer, std::vector<std::set<int>>& next, std::mt19937& random,
                                      int count) {
  const int channels = static_cast<int>(next.size());
  int refused = 0;
  for (int i = 0; i < count; ++i) {
    const int a = static_cast<int>(random() % channels), b = static_cast<int>(random() % channels);
    const bool cycle = a == b || reaches(next, b, a);
    EXPECT_EQ(layer.try_add({{a, b}}), !cycle) << a << " -> " << b;
    if (!cycle) next[a].insert(b);
    refused += cycle;
  }
  return refused;
}

TEST(AcyclicLayer, RefusesExactlyTheDependenciesThatCloseACycle) {
  std::mt19937 random(7);
  for (int round = 0; round < 20; ++round) {
    const int channels = 12;
    AcyclicLayer layer(channels);
    std::vector<std::set<int>> next(channels);
    EXPECT_GT(expect_refused_exactly_the_cycles(layer, next, random, 60), 0);
  }
}

// Forty channels moved one by one just past the same one: each move
// halves the room there, until the keys are numbered again. The layer
// then still refuses exactly the dependencies that close a cycle.
TEST(AcyclicLayer, MovesIntoOneGapUntilItIsNumberedAgain) {
  const int channels = 50, tail = 48;
  AcyclicLayer layer(channels);
  std::vector<std::set<int>> next(channels);
  for (int moved = 0; moved < 40; ++moved) {
    ASSERT_TRUE(layer.try_add({{tail, moved}}));
    next[tail].insert(moved);
  }
  std::mt19937 random(11);
  expect_refused_exactly_the_cycles(layer, next, random, 400);
}

TEST(AcyclicLayer, ARefusedBatchLeavesNothingBehind) {
  AcyclicLayer layer(4);
  ASSERT_TRUE(layer.try_add({{0, 1}, {1, 2}}));
  EXPECT_FALSE(layer.try_add({{2, 3}, {3, 0}}));  // 2 -> 3 alone would fit
  EXPECT_TRUE(layer.try_add({{3, 0}}));           // so 2 -> 3 was taken back
  EXPECT_FALSE(layer.try_add({{2, 3}}));
}

TEST(CdgLayers, ADependencyThatClosesACycleGoesOneLayerUp) {
  CdgLayers layers(3);
  EXPECT_EQ(layers.place({{0, 1}, {1, 2}}, 0, 7), 0);
  EXPECT_EQ(layers.place({{2, 0}}, 0, 7), 1);
  EXPECT_EQ(layers.place({{1, 0}}, 0, 7), 1);
  EXPECT_EQ(layers.place({{0, 2}, {2, 1}}, 0, 1), -1);  // closes a cycle in both layers
  EXPECT_EQ(layers.count(), 2);
}

}  // namespace
}  // namespace ftclos
