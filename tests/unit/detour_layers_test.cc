// Attached hosts (storage on spines and mid-level switches): every scheme
// routes every CA pair, and the detour layers (paths/detour_layers.h) keep
// every SL free of credit loops, as the auditor judges the tables.
#include "paths/detour_layers.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>

#include "audit/audit.h"
#include "audit/audit_walk.h"
#include "core/aggregation_node.h"
#include "gen/generate.h"
#include "engine/route_fabric.h"

namespace ftclos {
namespace {

struct Case {
  std::string name;
  Result<Fabric> (*make)();
  int io_level;  // 0: the top
};

const Case kCases[] = {
    {"clos2_4_4_8_spines", [] { return generate_clos2(4, 4, 8); }, 0},
    {"ft_8_3_tops", [] { return generate_ftree(8, 3); }, 0},
    {"ft_8_3_level2", [] { return generate_ftree(8, 3); }, 2},
    {"kary_4_3_level2", [] { return generate_kary(4, 3); }, 2},
    {"pgft_3_levels_p2_tops", [] { return generate_pgft({{4, 4, 4}, {1, 2, 2}, {1, 2, 1}}); }, 0},
};

Fabric with_storage(const Case& c) {
  Result<Fabric> fabric = c.make();
  EXPECT_TRUE(fabric.ok()) << fabric.status().message();
  EXPECT_TRUE(vary(*fabric, {.io_hosts = 2, .io_level = c.io_level}).ok());
  return *fabric;
}

Correctness audit(const Fabric& fabric, const RoutedFabric& routed, bool with_sls) {
  OffsetChoice every_offset;
  every_offset.mode = OffsetChoice::Mode::kAllOffsets;
  return check_correctness({fabric, routed.detection.levels, routed.lids, routed.routing.lfts, every_offset,
                            with_sls ? routed.routing.dest_sl : std::vector<uint8_t>{}, {}});
}

class AttachedHosts : public ::testing::TestWithParam<Case> {};

TEST_P(AttachedHosts, EverySchemeDeliversWithoutCreditLoops) {
  const Fabric fabric = with_storage(GetParam());
  const Detection detection = detect(fabric);
  for (const char* scheme : {"auto", "dmodk", "updown", "osrm", "multipath"}) {
    if (!(*make_scheme(scheme))->applies(detection).ok()) continue;  // osrm: 2-level Clos and FT(m,3) only
    Result<RoutedFabric> routed = route_fabric(fabric, scheme, 2);
    ASSERT_TRUE(routed.ok()) << scheme << ": " << routed.status().message();
    EXPECT_FALSE(routed->detection.levels.io_hosts.empty()) << scheme;
    const Correctness c = audit(fabric, *routed, true);
    const long cas = fabric.count(NodeType::kCa);
    EXPECT_EQ(c.pairs, cas * (cas - 1) * 4) << scheme;
    EXPECT_EQ(c.unreachable, 0) << scheme;
    EXPECT_EQ(c.loops, 0) << scheme;
    EXPECT_EQ(c.credit_loops, 0) << scheme;
    const auto& sls = routed->routing.dest_sl;
    ASSERT_FALSE(sls.empty()) << scheme << ": some storage host needs a down-up turn here";
    EXPECT_LE(*std::max_element(sls.begin(), sls.end()), kMaxDetourSl) << scheme;
  }
}

INSTANTIATE_TEST_SUITE_P(Generated, AttachedHosts, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return info.param.name; });

// The layers are what keeps the turns safe: on one VL the same tables loop.
TEST(AttachedHosts, OnOneVlTheDetoursCloseCreditLoops) {
  const Fabric fabric = with_storage(kCases[2]);
  Result<RoutedFabric> routed = route_fabric(fabric, "updown", 0);
  ASSERT_TRUE(routed.ok()) << routed.status().message();
  EXPECT_GT(audit(fabric, *routed, false).credit_loops, 0);
  EXPECT_EQ(audit(fabric, *routed, true).credit_loops, 0);
}

// 6 SUs of 8 servers x 4 rails, 3 levels, a SHARP AN on every switch.
Fabric pod3(int fail_links) {
  Result<Superpod> pod =
      generate_superpod({.units = 6, .servers = 8, .rails = 4, .levels = 3, .spines = 4, .group_units = 2, .radix = 16});
  EXPECT_TRUE(pod.ok()) << pod.status().message();
  EXPECT_TRUE(degrade(pod->fabric, {.fail_links = fail_links, .seed = 2}).ok());
  return std::move(pod->fabric);
}

// A 3-level pod with a SHARP AN on every switch: the ANs of spines and
// cores are attached hosts whose tree detours need SL 1-4 together; on
// up*/down* routes they share SL 1, and compute hosts keep SL 0. Missing
// cables cut spines and cores off from some leaves below them: the ANs on
// those switches have no up/down route to those leaves' hosts, and their
// entries turn down-up once (paths/source_detours.h), on SL 0 without a
// credit loop; before, the tables left those pairs unreachable.
TEST(AttachedHosts, PodAggregationNodesTakeOneSlBesideTheTreeAndReachEveryHost) {
  for (const int fail_links : {0, 6}) {
    const Fabric fabric = pod3(fail_links);
    for (const char* scheme : {"dmodk", "updown"}) {
      const std::string what = fmt::format("{} with {} missing cables", scheme, fail_links);
      Result<RoutedFabric> routed = route_fabric(fabric, scheme, 0);
      ASSERT_TRUE(routed.ok()) << what << ": " << routed.status().message();
      const Correctness c = audit(fabric, *routed, true);
      EXPECT_EQ(c.unreachable, 0) << what;
      EXPECT_EQ(c.loops, 0) << what;
      EXPECT_EQ(c.credit_loops, 0) << what;
      EXPECT_EQ(c.vls_used, 0b11) << what;
      const std::vector<uint8_t>& sls = routed->routing.dest_sl;
      ASSERT_FALSE(sls.empty()) << what;
      for (int ca = 0; ca < fabric.size(); ++ca) {
        if (fabric.node(ca).is_switch()) continue;
        const bool above_leaves =
            is_aggregation_node(fabric.node(ca)) && routed->detection.levels.of[entry_switch(fabric, ca)] > 1;
        EXPECT_EQ(sls[routed->lids.base[ca]], above_leaves ? 1 : 0) << what << ": " << fabric.node(ca).name;
      }
    }
  }
}

// The 3,784-HCA pod (`gen superpod --units 25 --servers 20 --rails 8
// --levels 3 --spines 10 --group-units 5 --partial-units 10 --mgmt-leaves 4
// --fail-links 30 --seed 5`): 704 ANs, 100 cores. Where cores lost a cable
// each, the AN detours of one core turned at a spine whose next hop is
// another such core, and those of that core back: SL 0 refused the turns
// that closed the loop, and 11 AN-to-host entries stayed without a route
// (34 when the ANs' traffic still weighed on updown's loads). Turns that
// land on a core without detours of its own come first now. Switches' own
// routes to 456 switch LIDs fit no SL up to 1 beside those turns, and one
// credit loop stayed on VL 0: those LIDs take up*/down* trees now.
Fabric pod3784_with_30_missing_cables() {
  Result<Superpod> pod = generate_superpod({.units = 25, .servers = 20, .rails = 8, .levels = 3, .spines = 10,
                                            .group_units = 5, .partial_units = 10, .mgmt_leaves = 4, .seed = 5});
  EXPECT_TRUE(pod.ok()) << pod.status().message();
  if (!pod.ok()) return Fabric{};
  EXPECT_EQ(pod->compute_hcas, 3784);
  EXPECT_TRUE(degrade(pod->fabric, {.fail_links = 30, .seed = 5}).ok());
  return std::move(pod->fabric);
}

TEST(AttachedHosts, Pod3784HcasWith30MissingCablesDeliversEveryAnOnTwoVls) {
  const Fabric fabric = pod3784_with_30_missing_cables();
  Result<RoutedFabric> routed = route_fabric(fabric, "updown", 0);
  ASSERT_TRUE(routed.ok()) << routed.status().message();
  const Correctness c = audit(fabric, *routed, true);
  EXPECT_EQ(c.unreachable, 0);
  EXPECT_EQ(c.loops, 0);
  EXPECT_EQ(c.credit_loops, 0);
  EXPECT_EQ(c.switch_unreachable, 0);
  EXPECT_EQ(c.switch_credit_loops, 0) << ::testing::PrintToString(c.examples);
  EXPECT_EQ(c.vls_used, 0b11);
}

// The same pod under D-mod-k: 2 AN-to-host entries of core007 found no
// neighbour below to turn at without a credit loop on SL 0 and stayed
// kNoPath, and dmodk returned those tables as routed. It routes every pair
// or says it cannot.
TEST(AttachedHosts, Pod3784HcasWith30MissingCablesDmodkRoutesEveryPairOrSaysItCannot) {
  const Fabric fabric = pod3784_with_30_missing_cables();
  Result<RoutedFabric> routed = route_fabric(fabric, "dmodk", 0);
  if (!routed.ok()) {
    EXPECT_NE(routed.status().message().find("find no neighbour below to turn at"), std::string::npos)
        << routed.status().message();
    return;
  }
  const Correctness c = audit(fabric, *routed, true);
  EXPECT_EQ(c.unreachable, 0);
  EXPECT_EQ(c.loops, 0);
}

// Compute hosts never take a detour: a leaf pair without a common ancestor
// stays unrouted (the plugin and `route` refuse such tables).
TEST(AttachedHosts, ComputeHostsGetNoLayers) {
  const Fabric fabric = *generate_ftree(8, 3);
  Result<RoutedFabric> routed = route_fabric(fabric, "updown", 0);
  ASSERT_TRUE(routed.ok());
  EXPECT_TRUE(routed->routing.dest_sl.empty());
}

}  // namespace
}  // namespace ftclos
