// The repair of the LIDs a failure touched (tables/crossing_repair.h): on
// every single cut cable of FT(8,3) (every 23rd of FT(16,3)'s), where it
// applies its tables pass the auditor's full check, switches' own routes
// and their credit loops included, and differ from the last tables only in
// the LIDs it names, each of which some entry sent into the cut cable, in
// no more entries than the full route merged with the last tables changes
// (the merge it replaces; on FT(8,3) 29,314 against 31,441 over all cuts).
#include "tables/crossing_repair.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "audit/audit.h"
#include "detect/detect.h"
#include "engine/route_fabric.h"
#include "gen/generate.h"
#include "routing_checks.h"
#include "schemes/switch_traffic.h"
#include "tables/previous_tables.h"

namespace ftclos {
namespace {

constexpr RouteHooks kUnpolished{.polish = false};

// Whether some switch's entry for `lid` leads out of either end of the cable.
bool sent_into(const Fabric& fabric, const Lfts& lfts, int lid, PortRef end, PortRef other) {
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch()) continue;
    const PortRef out{x, lfts.port[x][lid]};
    if (out == end || out == other) return true;
  }
  return false;
}

// The tables a failure sweep made before the repair: the scheme's full
// route merged with the last tables, switches' own routes completed against them.
Lfts merged_after_failure(const Fabric& damaged, const RoutedFabric& before) {
  Result<RoutedFabric> after =
      route_fabric(damaged, "auto", before.lids, {}, nullptr, RouteHooks{.polish = false, .switch_traffic = false});
  EXPECT_TRUE(after.ok()) << after.status().message();
  if (!after.ok()) return {};
  const RoutingInput input{damaged, after->detection, after->lids};
  keep_previous(input, before.routing.lfts, after->routing);
  complete_switch_traffic(input, after->routing, &before.routing.lfts);
  return std::move(after->routing.lfts);
}

struct Case {
  std::string name;
  Result<Fabric> (*make)();
  int every;  // cables cut: every n-th
};

class CrossingRepairTest : public ::testing::TestWithParam<Case> {};

TEST_P(CrossingRepairTest, EveryCutIsRepairedSoundlyInTheLidsThatCrossedIt) {
  const Fabric fabric = *GetParam().make();
  Result<RoutedFabric> before = route_fabric(fabric, "auto", *assign_lids(fabric, 0), {}, nullptr, kUnpolished);
  ASSERT_TRUE(before.ok()) << before.status().message();
  const Lfts& previous = before->routing.lfts;
  const LidMap& lids = before->lids;
  const std::vector<PortRef> cables = switch_cables(fabric);
  long cuts = 0, repaired = 0, repair_total = 0, merge_total = 0;
  for (size_t i = 0; i < cables.size(); i += GetParam().every) {
    const PortRef end = cables[i], other = fabric.peer(end);
    ++cuts;
    Fabric damaged = fabric;
    damaged.disconnect(end);
    const Detection detection = detect(damaged);
    const Result<CrossingRepair> repair = repair_crossing_lids({damaged, detection, lids}, previous, {});
    const std::string where = fabric.node(end.node).name + " port " + std::to_string(end.port);
    if (!repair.ok()) {
      // It steps aside only where switches' own routes must turn elsewhere.
      EXPECT_EQ(repair.status().message(), "the turn leaf of switches' own routes moves") << where;
      continue;
    }
    ++repaired;
    AuditInput input{damaged, detection.levels, lids, repair->routing.lfts, {}, repair->routing.dest_sl, {}};
    input.count_switch_credit_loops = true;
    const Correctness check = check_correctness(input);
    EXPECT_EQ(check.unreachable + check.loops, 0) << where;
    EXPECT_EQ(check.switch_unreachable, 0) << where;
    EXPECT_EQ(check.credit_loops, 0) << where;
    EXPECT_EQ(check.switch_credit_loops, 0) << where;
    std::vector<bool> listed(lids.max_lid + 1, false);
    for (int lid : repair->lids) {
      listed[lid] = true;
      EXPECT_TRUE(sent_into(fabric, previous, lid, end, other)) << where << ": LID " << lid;
    }
    const Lfts merged = merged_after_failure(damaged, *before);
    ASSERT_FALSE(merged.port.empty());
    long changed = 0, merge_changed = 0;
    for (int s = 0; s < fabric.size(); ++s) {
      if (!fabric.node(s).is_switch()) continue;
      for (int lid = 1; lid <= lids.max_lid; ++lid) {
        const bool repaired = repair->routing.lfts.port[s][lid] != previous.port[s][lid];
        merge_changed += merged.port[s][lid] != previous.port[s][lid];
        if (!repaired) continue;
        ++changed;
        EXPECT_TRUE(listed[lid]) << where << ": LID " << lid << " changed at " << fabric.node(s).name;
      }
    }
    EXPECT_EQ(changed, repair->changed) << where;
    EXPECT_GT(changed, 0) << where;
    // No more churn than the full route and merge it replaces.
    EXPECT_LE(changed, merge_changed) << where;
    repair_total += changed;
    merge_total += merge_changed;
  }
  // Most cuts leave the turn leaf where it is.
  EXPECT_GT(repaired * 2, static_cast<long>(cables.size()) / GetParam().every);
  std::printf("%ld of %ld cuts repaired: %ld entries changed, where the merge changes %ld\n", repaired, cuts,
              repair_total, merge_total);
}

INSTANTIATE_TEST_SUITE_P(Fabrics, CrossingRepairTest,
                         ::testing::Values(Case{"ft_8_3", [] { return generate_ftree(8, 3); }, 1},
                                           Case{"ft_16_3", [] { return generate_ftree(16, 3); }, 23}),
                         [](const auto& info) { return info.param.name; });

TEST(CrossingRepair, StepsAsideOnARandomClos) {
  const Fabric fabric = *generate_rfc(8, 16, 3, 1);
  Result<RoutedFabric> before = route_fabric(fabric, "auto", *assign_lids(fabric, 0), {}, nullptr, kUnpolished);
  ASSERT_TRUE(before.ok()) << before.status().message();
  const Detection detection = detect(fabric);
  const Result<CrossingRepair> repair =
      repair_crossing_lids({fabric, detection, before->lids}, before->routing.lfts, {});
  ASSERT_FALSE(repair.ok());
  EXPECT_EQ(repair.status().message(), "not a fat tree with labels");
}

}  // namespace
}  // namespace ftclos
