#include "research/drb_sim.h"

#include <gtest/gtest.h>

namespace ftclos {
namespace {

const DrbFabric& ft8_3() {
  static const DrbFabric fabric = *make_drb_fabric(8, 3);
  return fabric;
}

double mean_max_load(DrbPolicy policy, int k, int threshold = 0) {
  return simulate_max_load(ft8_3(), {policy, k, 40, threshold, 7}).mean;
}

TEST(Drb, FabricIsFt8_3) {
  EXPECT_EQ(ft8_3().hosts.size(), 128u);
  EXPECT_EQ(default_threshold(128), 2);  // floor(ln ln 128 / ln 2) = floor(2.28)
}

TEST(Drb, NoPolicyBeatsTheOptimum) {
  for (DrbPolicy policy : {DrbPolicy::kDmodk, DrbPolicy::kVlb, DrbPolicy::kMicro, DrbPolicy::kDrb}) {
    const Spread load = simulate_max_load(ft8_3(), {policy, 3, 10, 2, 1});
    EXPECT_GE(load.min, 3) << policy_name(policy);  // CA links carry exactly k
  }
}

TEST(Drb, RunsAreDeterministic) {
  EXPECT_EQ(mean_max_load(DrbPolicy::kMicro, 2), mean_max_load(DrbPolicy::kMicro, 2));
}

TEST(Drb, ThresholdTwoChoiceIsBestForHeavyK) {
  for (int k : {6, 8}) {
    const double drb = mean_max_load(DrbPolicy::kDrb, k, default_threshold(128));
    EXPECT_LT(drb, mean_max_load(DrbPolicy::kMicro, k)) << "k=" << k;
    EXPECT_LT(drb, mean_max_load(DrbPolicy::kVlb, k)) << "k=" << k;
    EXPECT_LT(drb, mean_max_load(DrbPolicy::kDmodk, k)) << "k=" << k;
  }
}

}  // namespace
}  // namespace ftclos
