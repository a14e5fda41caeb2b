#include "traffic/adaptive_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "detect/detect.h"
#include "gen/generate.h"
#include "traffic/pattern_load.h"

namespace ftclos {
namespace {

// ftree(2+3, 5): n = 2 hosts per leaf, m = 3 < n^2 = 4 top switches, r = 5 leaves.
struct Clos235 {
  Fabric fabric = *generate_clos2(2, 3, 5);
  Detection detection = detect(fabric);
  ClosShape shape = *clos_shape(fabric, detection);

  int host(int leaf, int local) const {
    for (int x = 0; x < fabric.size(); ++x)
      if (shape.leaf[x] == leaf && shape.local[x] == local) return x;
    return -1;
  }
};

// The largest channel load of the permutation under the top-select routing.
double max_load(const Clos235& c, const AdaptivePlan& plan) {
  const LidMap lids = *assign_lids(c.fabric, 2);  // ceil(log2 3)
  const Lfts lfts = *top_select_lfts(c.fabric, c.shape, lids);
  const std::vector<int> hosts = pattern_hosts(c.fabric);
  std::vector<int> number(c.fabric.size(), -1);
  for (size_t i = 0; i < hosts.size(); ++i) number[hosts[i]] = static_cast<int>(i);
  TrafficMatrix tm{static_cast<int>(hosts.size()), {}};
  OffsetChoice offsets{OffsetChoice::Mode::kPathBits, 0, std::vector<int>(c.fabric.size(), 0)};
  for (const PlannedPair& pair : plan.pairs) {
    tm.flows.push_back({number[pair.source], number[pair.destination], 1});
    offsets.path_bits[pair.source] = std::max(pair.top, 0);
  }
  LoadPlan load_plan({c.fabric, lids, lfts, offsets});
  const ChannelLoads loads = channel_loads(load_plan, tm, hosts);
  EXPECT_EQ(loads.undelivered, 0);
  return *std::ranges::max_element(loads.load);
}

TEST(AdaptivePlan, ShapeOfFtree2Plus3By5) {
  const Clos235 c;
  EXPECT_EQ(c.shape.n, 2);
  EXPECT_EQ(c.shape.m, 3);
  EXPECT_EQ(c.shape.r, 5);
}

TEST(AdaptivePlan, SameLocalNumbersTakeThePartitionOfLeafDigits) {
  // Leaves 0 and 1 each send both hosts to local host 0 of two leaves: equal
  // first digits, so partition 1 would hold one pair each; the second
  // partition, key (s_0 - p) mod n, holds both, on the same two top switches.
  const Clos235 c;
  const std::vector<std::pair<int, int>> permutation = {{c.host(0, 0), c.host(1, 0)},
                                                         {c.host(0, 1), c.host(2, 0)},
                                                         {c.host(1, 0), c.host(3, 0)},
                                                         {c.host(1, 1), c.host(4, 0)}};
  Result<AdaptivePlan> plan = plan_nonblocking_adaptive(c.shape, permutation);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  for (const PlannedPair& pair : plan->pairs) EXPECT_EQ(pair.partition, 2);
  EXPECT_EQ(plan->tops_used, 2);  // fewer than n^2 = 4
  EXPECT_EQ(max_load(c, *plan), 1);
}

TEST(AdaptivePlan, SaysWhenThePlanNeedsMoreTopsThanTheFabricHas) {
  // As above, plus leaf 2 in partition 1: 2 + 2 slots = n^2 = 4 > m = 3.
  const Clos235 c;
  const std::vector<std::pair<int, int>> permutation = {
      {c.host(0, 0), c.host(1, 0)}, {c.host(0, 1), c.host(2, 0)}, {c.host(1, 0), c.host(3, 0)},
      {c.host(1, 1), c.host(4, 0)}, {c.host(2, 0), c.host(0, 0)}, {c.host(2, 1), c.host(3, 1)}};
  Result<AdaptivePlan> plan = plan_nonblocking_adaptive(c.shape, permutation);
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("needs 4 top switches, the fabric has 3"), std::string::npos);
}

TEST(AdaptivePlan, ShiftUsesOnlyPartitionOne) {
  const Clos235 c;
  std::vector<std::pair<int, int>> permutation;
  for (int v = 0; v < 5; ++v)
    for (int k = 0; k < 2; ++k) permutation.push_back({c.host(v, k), c.host((v + 1) % 5, k)});
  Result<AdaptivePlan> plan = plan_nonblocking_adaptive(c.shape, permutation);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->tops_used, 2);
  EXPECT_EQ(plan->partitions_used, 1);
  for (const PlannedPair& pair : plan->pairs) EXPECT_EQ(pair.partition, 1);
  EXPECT_EQ(max_load(c, *plan), 1);
}

TEST(AdaptivePlan, RejectsWhatIsNoPermutation) {
  const Clos235 c;
  EXPECT_FALSE(plan_nonblocking_adaptive(c.shape, {{c.host(0, 0), c.host(1, 0)}, {c.host(0, 1), c.host(1, 0)}}).ok());
  EXPECT_FALSE(plan_nonblocking_adaptive(c.shape, {{c.host(0, 0), c.host(0, 0)}}).ok());
}

TEST(AdaptivePlan, ParsesNamesAndReportsLines) {
  const Clos235 c;
  const std::string a = c.fabric.node(c.host(0, 0)).name, b = c.fabric.node(c.host(1, 1)).name;
  Result<std::vector<std::pair<int, int>>> pairs =
      parse_permutation(c.fabric, "# comment\n" + a + " \"" + b + "\"\n\n", "perm.txt");
  ASSERT_TRUE(pairs.ok()) << pairs.status().message();
  EXPECT_EQ(*pairs, (std::vector<std::pair<int, int>>{{c.host(0, 0), c.host(1, 1)}}));
  EXPECT_NE(parse_permutation(c.fabric, a + " " + b + "\nnope x\n", "perm.txt").status().message().find("perm.txt:2"),
            std::string::npos);
}

}  // namespace
}  // namespace ftclos
