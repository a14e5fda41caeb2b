#include "report/compare.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace ftclos {
namespace {

using Labels = std::vector<std::string>;

TEST(FileLabels, FileNamesWhenTheyDiffer) {
  EXPECT_EQ(file_labels({"/tmp/run/a.dump", "b.dump"}), (Labels{"a.dump", "b.dump"}));
}

TEST(FileLabels, DirectoriesWhereTheNamesAreEqual) {
  EXPECT_EQ(file_labels({"/var/log/run1/opensm-lfts.dump", "/var/log/run2/opensm-lfts.dump", "ours.dump"}),
            (Labels{"run1/opensm-lfts.dump", "run2/opensm-lfts.dump", "ours.dump"}));
  EXPECT_EQ(file_labels({"a/c/x.dump", "b/c/x.dump"}), (Labels{"a/c/x.dump", "b/c/x.dump"}));
  EXPECT_EQ(file_labels({"opensm-lfts.dump", "old/opensm-lfts.dump"}),
            (Labels{"opensm-lfts.dump", "old/opensm-lfts.dump"}));
}

TEST(FileLabels, WholePathWhenComponentsCannotTellThemApart) {
  EXPECT_EQ(file_labels({"/x/a.dump", "x/a.dump"}), (Labels{"/x/a.dump", "x/a.dump"}));
}

TEST(FileLabels, SamePathSameLabel) {
  EXPECT_EQ(file_labels({"d/a.dump", "d/a.dump"}), (Labels{"a.dump", "a.dump"}));
}

TEST(DistinctLabels, NumbersRepeats) {
  EXPECT_EQ(distinct_labels({"dmodk", "a.dump", "dmodk", "dmodk"}),
            (Labels{"dmodk", "a.dump", "dmodk (2)", "dmodk (3)"}));
  EXPECT_EQ(distinct_labels({"LFTs", "osrm"}), (Labels{"LFTs", "osrm"}));
}

TEST(DistinctLabels, KeepsClearOfLabelsGivenLater) {
  EXPECT_EQ(distinct_labels({"x", "x", "x (2)"}), (Labels{"x", "x (3)", "x (2)"}));
}

PatternStats stats(const std::string& pattern, double ratio, double mload) {
  PatternStats s;
  s.pattern = pattern;
  s.ratio.mean = ratio;
  s.mload.mean = mload;
  s.optu.mean = mload / ratio;
  return s;
}

// Two sets: a sound one with a known oblivious ratio, and one with black holes and a bounded worst case.
std::vector<ComparedSet> two_sets() {
  ComparedSet a;
  a.label = "dmodk";
  a.origin = "scheme dmodk (LMC 0)";
  a.offsets = "path bits";
  a.correctness.pairs = 12;
  a.worst_case = 4;
  a.oblivious_ratio = 4;
  a.patterns = {stats("shift:1", 1, 2), stats("bit-reversal", 2.5, 5)};
  ComparedSet b;
  b.label = "opensm-lfts.dump";
  b.origin = "/tmp/opensm-lfts.dump";
  b.lmc = 1;
  b.offsets = "fixed offset 0";
  b.warnings = {"3 LIDs unknown"};
  b.correctness.pairs = 12;
  b.correctness.unreachable = 7;
  b.correctness.loops = 2;
  b.correctness.credit_loops = 1;
  b.worst_case = 1.5;
  b.exact = false;
  b.patterns = {stats("shift:1", 1.25, 2.5), stats("bit-reversal", 1, 2)};
  return {a, b};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(ComparisonTable, OneAlignedRowPerSet) {
  const std::vector<std::string> lines = lines_of(comparison_table(two_sets()));
  ASSERT_EQ(lines.size(), 4u) << "header, two sets, the legend";
  EXPECT_EQ(lines[0].rfind("set ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find("worst case"), std::string::npos);
  EXPECT_NE(lines[0].find("shift:1"), std::string::npos);
  EXPECT_NE(lines[0].find("bit-reversal"), std::string::npos);
  EXPECT_EQ(lines[1].rfind("dmodk ", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2].rfind("opensm-lfts.dump ", 0), 0u) << lines[2];
  EXPECT_EQ(lines[1].size(), lines[0].size());
  EXPECT_EQ(lines[2].size(), lines[0].size());
  EXPECT_NE(lines[1].find("1.000 / 2.00"), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find("2.500 / 5.00"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find(" 7  "), std::string::npos) << "unreachable: " << lines[2];
  EXPECT_NE(lines[2].find("1.5 (bound)"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find("1.250 / 2.50"), std::string::npos) << lines[2];
  // The pattern columns come in the order the patterns were given.
  EXPECT_LT(lines[2].find("1.250 / 2.50"), lines[2].find("1.000 / 2.00"));
}

TEST(ComparisonTable, NoPatternsNoLegend) {
  std::vector<ComparedSet> sets = two_sets();
  for (ComparedSet& set : sets) set.patterns.clear();
  const std::vector<std::string> lines = lines_of(comparison_table(sets));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].find('/'), std::string::npos);
  EXPECT_EQ(comparison_table({}), "");
}

TEST(ComparisonJson, OneEntryPerSetWithItsNumbers) {
  const nlohmann::json list = comparison_json(two_sets());
  ASSERT_TRUE(list.is_array());
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["label"], "dmodk");
  EXPECT_EQ(list[0]["tables"], "scheme dmodk (LMC 0)");
  EXPECT_EQ(list[0]["oblivious_ratio"], 4.0);
  EXPECT_EQ(list[0]["unreachable"], 0);
  EXPECT_EQ(list[0]["nonblocking"], false);
  EXPECT_EQ(list[1]["label"], "opensm-lfts.dump");
  EXPECT_EQ(list[1]["lmc"], 1);
  EXPECT_EQ(list[1]["offsets"], "fixed offset 0");
  EXPECT_EQ(list[1]["unreachable"], 7);
  EXPECT_EQ(list[1]["loops"], 2);
  EXPECT_EQ(list[1]["credit_loops"], 1);
  EXPECT_EQ(list[1]["worst_case_contention"], 1.5);
  EXPECT_EQ(list[1]["exact"], false);
  EXPECT_TRUE(list[1]["oblivious_ratio"].is_null());
  EXPECT_EQ(list[1]["warnings"], nlohmann::json({"3 LIDs unknown"}));
  ASSERT_EQ(list[1]["patterns"].size(), 2u);
  EXPECT_EQ(list[1]["patterns"][0]["pattern"], "shift:1");
  EXPECT_EQ(list[1]["patterns"][0]["ratio_mean"], 1.25);
  EXPECT_EQ(list[1]["patterns"][0]["mload"], 2.5);
  EXPECT_EQ(list[1]["patterns"], patterns_json(two_sets()[1].patterns));
}

}  // namespace
}  // namespace ftclos
