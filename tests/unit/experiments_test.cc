#include "research/experiments.h"

#include <gtest/gtest.h>

namespace ftclos {
namespace {

class MikantTable1 : public testing::TestWithParam<std::pair<int, int>> {};

TEST_P(MikantTable1, GeneratedFabricMatchesTheFormulasExactly) {
  const auto [k, n] = GetParam();
  Result<TopologyCounts> counts = measure_mikant(k, n);
  ASSERT_TRUE(counts.ok()) << counts.status().message();
  std::string why;
  EXPECT_TRUE(matches_mikant_formulas(*counts, k, n, &why)) << why;
}

INSTANTIATE_TEST_SUITE_P(LiChu, MikantTable1, testing::Values(std::pair{3, 3}, std::pair{3, 4}, std::pair{4, 5}));

TEST(MikantTable1, ACountOffByOneIsReported) {
  TopologyCounts counts = *measure_mikant(3, 3);
  ++counts.links;
  std::string why;
  EXPECT_FALSE(matches_mikant_formulas(counts, 3, 3, &why));
  EXPECT_NE(why.find("links"), std::string::npos);
}

TEST(Experiments, UnknownNameListsTheKnownOnes) {
  Result<ExperimentReport> report = run_experiment("table9", {});
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().message().find("mikant-table1"), std::string::npos);
}

TEST(Experiments, TablesAlignTheirColumns) {
  const ExperimentTable table{"T", {"a", "bbb"}, {{"xx", "y"}}, {"n"}};
  EXPECT_EQ(format_table(table), "T\na   bbb\nxx  y\n  * n\n");
}

}  // namespace
}  // namespace ftclos
