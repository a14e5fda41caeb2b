// The sweep's INFO line (engine/sweep.h) at LMC > 0: the per-consumer worst
// cases are two exact audits, measured only on fabrics of up to 1,024 CAs
// (they took seconds of every sweep on FT(36,3)).
#include <gtest/gtest.h>

#include <string>

#include "engine/sweep.h"
#include "gen/generate.h"

namespace ftclos {
namespace {

std::string info_line(const Fabric& fabric, int lmc) {
  const LidMap lids = *assign_lids(fabric, lmc);
  SweepOptions options;
  options.scheme = "dmodk";
  std::string info;
  const SweepOutcome outcome = run_sweep({fabric, lids, {}}, options, [&info](SweepLevel level, const std::string& line) {
    if (level == SweepLevel::kInfo) info = line;
  });
  EXPECT_TRUE(outcome.ok()) << outcome.message;
  return info;
}

TEST(SweepLine, MeasuresTheConsumersWorstCasesUpTo1024Cas) {
  const std::string line = info_line(*generate_ftree(8, 3), 1);  // 128 CAs
  EXPECT_NE(line.find("worst case offset 0 "), std::string::npos) << line;
}

TEST(SweepLine, SaysTheConsumersWorstCasesWereNotMeasuredAbove1024Cas) {
  const std::string line = info_line(*generate_ftree(48, 2), 1);  // 1,152 CAs
  EXPECT_EQ(line.find("worst case offset 0 "), std::string::npos) << line;
  EXPECT_NE(line.find("worst case by consumer not measured above 1024 CAs"), std::string::npos) << line;
}

}  // namespace
}  // namespace ftclos
