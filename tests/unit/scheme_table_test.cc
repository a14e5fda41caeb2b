// The scheme table: every entry makes the scheme it names, README's table is
// the one it prints, every scheme knows before routing whether it applies and
// the LMC it needs (what auto relies on), and auto picks on each ibsim-topos
// fabric what the schemes' guarantees rank first within the LMC.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <algorithm>
#include <set>
#include <sstream>
#include <string>

#include "core/netfile.h"
#include "gen/generate.h"
#include "audit/worst_case.h"
#include "engine/route_fabric.h"
#include "schemes/scheme_registry.h"

namespace ftclos {
namespace {

const std::filesystem::path kSourceRoot = FTCLOS_SOURCE_ROOT;

std::string source_file(const std::string& path) {
  std::ifstream in(kSourceRoot / path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The fabric names (file stems) of ibsim-topos/*.net.
std::set<std::string> ibsim_fabrics() {
  std::set<std::string> names;
  for (const auto& file : std::filesystem::directory_iterator(kSourceRoot / "ibsim-topos"))
    if (file.path().extension() == ".net") names.insert(file.path().stem().string());
  return names;
}

Fabric read_ibsim_fabric(const std::string& name) {
  Result<Fabric> fabric = read_netfile((kSourceRoot / "ibsim-topos" / (name + ".net")).string());
  EXPECT_TRUE(fabric.ok()) << name << ": " << fabric.status().message();
  return fabric.ok() ? std::move(*fabric) : Fabric{};
}

TEST(SchemeTable, EveryEntryMakesTheSchemeItNames) {
  std::set<std::string_view> names;
  for (const SchemeEntry& entry : scheme_table()) {
    EXPECT_TRUE(names.insert(entry.name).second) << entry.name << " twice";
    ASSERT_NE(entry.make, nullptr) << entry.name;
    EXPECT_EQ(entry.make()->name(), entry.name);
    EXPECT_EQ(find_scheme(entry.name), &entry);
    EXPECT_FALSE(entry.fabrics.empty() || entry.lmc.empty() || entry.path_bits.empty() || entry.guarantee.empty())
        << entry.name;
    EXPECT_EQ(entry.auto_skips != nullptr, !entry.auto_tries_where.empty()) << entry.name;
    if (entry.auto_skips) {
      EXPECT_GT(entry.auto_preference, 0) << entry.name;
    }
  }
  EXPECT_EQ(scheme_names().size(), scheme_table().size());
  EXPECT_EQ(find_scheme("dmodkk"), nullptr);
  Result<std::unique_ptr<Scheme>> typo = make_scheme("dmodkk");
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.status().message().find("did you mean \"dmodk\"?"), std::string::npos) << typo.status().message();
}

// README's table, from its header row to the first line that is no row, is
// `ftclos schemes --markdown` exactly: no row more, none less, none stale.
TEST(SchemeTable, ReadmeShowsTheTable) {
  const std::string readme = source_file("README.md");
  const std::string markdown = scheme_table_markdown();
  const size_t start = readme.find(markdown.substr(0, markdown.find('\n') + 1));
  ASSERT_NE(start, std::string::npos) << "README.md has no scheme table";
  size_t end = start;
  while (end < readme.size() && readme[end] == '|') end = readme.find('\n', end) + 1;
  EXPECT_EQ(readme.substr(start, end - start), markdown)
      << "README.md's scheme table is not `ftclos schemes --markdown`";
}

// auto skips a scheme by applies() and lmc_needed() without routing it, so
// both must say before routing what routing then finds: the same refusal,
// and the LMC the routing reports.
TEST(SchemeTable, SchemesKnowBeforeRoutingWhetherTheyApplyAndTheLmcTheyNeed) {
  for (const std::string& name : ibsim_fabrics()) {
    const Fabric fabric = read_ibsim_fabric(name);
    const Detection detection = detect(fabric);
    for (const SchemeEntry& entry : scheme_table()) {
      if (entry.name == "auto") continue;
      const std::unique_ptr<Scheme> scheme = entry.make();
      const Status applies = scheme->applies(detection);
      const int lmc = applies.ok() ? scheme->lmc_needed(detection, PathBitsUsers::kSome) : 0;
      // Unpolished: the polish changes no scheme's applicability or LMC, and costs seconds here.
      Result<RoutedFabric> routed =
          route_fabric(fabric, entry.name, *assign_lids(fabric, lmc), {}, nullptr, {.polish = false});
      ASSERT_EQ(routed.ok(), applies.ok()) << entry.name << " on " << name << ": " << applies.message();
      if (applies.ok())
        EXPECT_EQ(routed->routing.lmc_needed, lmc) << entry.name << " on " << name;
      else
        EXPECT_EQ(routed.status().message(), fmt::format("{}: {}", entry.name, applies.message()))
            << entry.name << " on " << name;
    }
  }
}

// What auto should pick: `best` from the LMC it needs on, `fallback` below it.
struct AutoCase {
  const char* fabric;
  const char* best;
  int best_lmc;
  const char* fallback;
};

// nonblocking where m >= n^2, OSRM on FT(m,2) and FT(m,3) (also degraded),
// D-mod-k on the other intact trees, updown on degraded ones, one scheme each
// for MiKANT and random Clos. The source-class schemes need one LID more
// than they have classes (offset 0 is D-mod-k's, route/label_routing.h):
// n = 2 hosts per leaf or 2 OSRM2 groups take LMC 2, OSRM3's 4 groups LMC 3.
constexpr AutoCase kAutoCases[] = {
    {"clos2-2-4-6", "nonblocking", 2, "dmodk"},  {"clos2-3-9-10", "nonblocking", 2, "dmodk"},
    {"ft-8-2-hosts2", "nonblocking", 2, "updown"}, {"ft-8-2", "osrm", 2, "dmodk"},
    {"ft-8-3", "osrm", 3, "dmodk"},               {"ft-8-3-fail4", "osrm", 3, "updown"},
    {"kary-4-3", "dmodk", 0, "dmodk"},            {"mikant-3-3", "mikant", 0, "mikant"},
    {"mikant-4-3", "mikant", 0, "mikant"},        {"rfc-8-16-3-seed1", "updown", 0, "updown"},
    {"clos2-4-4-8-io2", "osrm", 2, "dmodk"},      {"ft-8-3-io2-level2", "osrm", 3, "dmodk"},  // storage attached
};

TEST(SchemeTable, AutoPicksAreGivenForEveryIbsimFabric) {
  std::set<std::string> cases;
  for (const AutoCase& c : kAutoCases) cases.insert(c.fabric);
  EXPECT_EQ(cases, ibsim_fabrics());
}

class AutoPicks : public ::testing::TestWithParam<AutoCase> {};

TEST_P(AutoPicks, TheBestSchemeTheLmcAllows) {
  const AutoCase& c = GetParam();
  const Fabric fabric = read_ibsim_fabric(c.fabric);
  for (int lmc = 0; lmc <= 3; ++lmc) {
    Result<RoutedFabric> routed = route_fabric(fabric, "auto", lmc);
    ASSERT_TRUE(routed.ok()) << routed.status().message();
    const std::string expected = lmc >= c.best_lmc ? c.best : c.fallback;
    EXPECT_EQ(routed->routing.chosen, expected) << c.fabric << " at LMC " << lmc;
    ASSERT_FALSE(routed->routing.notes.empty());
    const std::string& first_note = routed->routing.notes.front();
    EXPECT_EQ(first_note.substr(0, first_note.find(':')), "auto chose " + expected) << c.fabric << " at LMC " << lmc;
  }
}

// Parallel cables count as top switches when auto weighs nonblocking: with
// 3 spines of 3 cables, 9 >= 3^2 slots per leaf of 3 hosts, it is
// nonblocking from LMC 2 (ceil(log2 3)), and auto takes it there.
TEST(SchemeTable, AutoPicksNonblockingWhereParallelCablesGiveNSquaredSlots) {
  Result<Fabric> fabric = generate_pgft({{3, 10}, {1, 3}, {1, 3}});
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  for (int lmc = 0; lmc <= 3; ++lmc) {
    Result<RoutedFabric> routed = route_fabric(*fabric, "auto", lmc);
    ASSERT_TRUE(routed.ok()) << routed.status().message();
    EXPECT_EQ(routed->routing.chosen, lmc >= 2 ? "nonblocking" : "dmodk") << "LMC " << lmc;
  }
}

// A check that fails the first `failing` tables it sees, as the auditor
// fails tables that strand pairs.
StrandCheck failing_first(int failing, int& calls) {
  return [failing, &calls](const RoutingInput&, const Routing&) {
    return calls++ < failing ? std::string("the tables leave 2 of 56 CA routes undelivered") : std::string();
  };
}

TEST(AutoStrands, PassesOverTablesThatStrandPairsForTheNextCandidate) {
  const Fabric fabric = read_ibsim_fabric("ft-8-3");
  int calls = 0;
  const StrandCheck check = failing_first(1, calls);
  Result<RoutedFabric> routed = route_fabric(fabric, "auto", *assign_lids(fabric, 3), {}, nullptr, {.strands = &check});
  ASSERT_TRUE(routed.ok()) << routed.status().message();
  EXPECT_EQ(routed->routing.chosen, "dmodk");  // osrm (first at LMC 3) failed the check
  EXPECT_TRUE(routed->routing.checked);
  EXPECT_EQ(calls, 2);
  const std::vector<std::string>& notes = routed->routing.notes;
  EXPECT_NE(std::ranges::find(notes, std::string("auto passed over osrm: the tables leave 2 of 56 CA routes undelivered")),
            notes.end());
}

TEST(AutoStrands, KeepsTheFirstAndSaysSoWhenEverySchemeStrandsPairs) {
  const Fabric fabric = read_ibsim_fabric("ft-8-3");
  int calls = 0;
  const StrandCheck check = failing_first(100, calls);
  Result<RoutedFabric> routed = route_fabric(fabric, "auto", *assign_lids(fabric, 3), {}, nullptr, {.strands = &check});
  ASSERT_TRUE(routed.ok()) << routed.status().message();
  EXPECT_EQ(routed->routing.chosen, "osrm");
  EXPECT_FALSE(routed->routing.checked);
  const std::vector<std::string>& notes = routed->routing.notes;
  ASSERT_GE(notes.size(), 2u);
  EXPECT_EQ(notes[1], "auto found no scheme whose tables deliver every pair; osrm: the tables leave 2 of 56 CA routes "
                      "undelivered");
  for (const std::string& note : notes) EXPECT_FALSE(note.starts_with("auto passed over osrm")) << note;
}

// A challenger whose worst case is no lower than the held tables' cannot
// replace them: it goes unchecked (a full check, seconds on FT(48,3)), and
// the held tables keep the check they passed. On FT(8,3) with one cable cut
// dmodk challenges updown and meets its worst case.
TEST(AutoStrands, ChecksNoChallengerWhoseWorstCaseIsNotLower) {
  Fabric fabric = *generate_ftree(8, 3);
  fabric.disconnect({*fabric.find("L1-0.0"), 5});
  int calls = 0;
  const StrandCheck check = failing_first(0, calls);
  const WorstCaseMeasure worst_case = exact_worst_case_measure();
  Result<RoutedFabric> routed = route_fabric(fabric, "auto", *assign_lids(fabric, 0), {}, nullptr,
                                             {.strands = &check, .worst_case = &worst_case, .polish = false});
  ASSERT_TRUE(routed.ok()) << routed.status().message();
  EXPECT_EQ(routed->routing.chosen, "updown");
  std::string notes;
  for (const std::string& note : routed->routing.notes) notes += note + "\n";
  EXPECT_NE(notes.find("auto passed over dmodk: worst-case contention"), std::string::npos) << notes;
  EXPECT_EQ(calls, 1);  // updown's tables only
  EXPECT_TRUE(routed->routing.checked);
}

INSTANTIATE_TEST_SUITE_P(IbsimTopos, AutoPicks, ::testing::ValuesIn(kAutoCases), [](const auto& info) {
  std::string name = info.param.fabric;
  for (char& ch : name)
    if (ch == '-') ch = '_';
  return name;
});

}  // namespace
}  // namespace ftclos
