// The scheme table: every entry makes the scheme it names, README's table is
// the one it prints, and auto picks on each ibsim-topos fabric what the
// schemes' guarantees rank first within the LMC.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "core/netfile.h"
#include "route/route_fabric.h"
#include "route/scheme_registry.h"

namespace ftclos {
namespace {

std::string source_file(const std::string& path) {
  std::ifstream in(std::string(FTCLOS_SOURCE_ROOT) + "/" + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
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
  }
  EXPECT_EQ(scheme_names().size(), scheme_table().size());
  EXPECT_EQ(find_scheme("dmodkk"), nullptr);
  Result<std::unique_ptr<Scheme>> typo = make_scheme("dmodkk");
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.status().message().find("did you mean \"dmodk\"?"), std::string::npos) << typo.status().message();
}

TEST(SchemeTable, ReadmeShowsTheTable) {
  const std::string readme = source_file("README.md");
  ASSERT_FALSE(readme.empty());
  EXPECT_NE(readme.find(scheme_table_markdown()), std::string::npos)
      << "README.md's scheme table differs from `ftclos schemes --markdown`:\n" << scheme_table_markdown();
}

// What auto should pick: `best` from the LMC it needs on, `fallback` below it.
struct AutoCase {
  const char* fabric;
  const char* best;
  int best_lmc;
  const char* fallback;
};

class AutoPicks : public ::testing::TestWithParam<AutoCase> {};

TEST_P(AutoPicks, TheBestSchemeTheLmcAllows) {
  const AutoCase& c = GetParam();
  Result<Fabric> fabric = read_netfile(std::string(FTCLOS_SOURCE_ROOT) + "/ibsim-topos/" + c.fabric + ".net");
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  for (int lmc = 0; lmc <= 3; ++lmc) {
    Result<RoutedFabric> routed = route_fabric(*fabric, "auto", lmc);
    ASSERT_TRUE(routed.ok()) << routed.status().message();
    const std::string expected = lmc >= c.best_lmc ? c.best : c.fallback;
    ASSERT_FALSE(routed->routing.notes.empty());
    EXPECT_EQ(routed->routing.notes.front().substr(0, routed->routing.notes.front().find(':')), "auto chose " + expected)
        << c.fabric << " at LMC " << lmc;
  }
}

// nonblocking where m >= n^2, OSRM on FT(m,2) and FT(m,3) (also degraded),
// D-mod-k on the other trees, one scheme each for MiKANT and random Clos.
INSTANTIATE_TEST_SUITE_P(IbsimTopos, AutoPicks,
                         ::testing::Values(AutoCase{"clos2-2-4-6", "nonblocking", 1, "dmodk"},
                                           AutoCase{"clos2-3-9-10", "nonblocking", 2, "dmodk"},
                                           AutoCase{"ft-8-2-hosts2", "nonblocking", 1, "dmodk"},
                                           AutoCase{"ft-8-2", "osrm", 1, "dmodk"},
                                           AutoCase{"ft-8-3", "osrm", 2, "dmodk"},
                                           AutoCase{"ft-8-3-fail4", "osrm", 2, "dmodk"},
                                           AutoCase{"kary-4-3", "dmodk", 0, "dmodk"},
                                           AutoCase{"mikant-3-3", "mikant", 0, "mikant"},
                                           AutoCase{"mikant-4-3", "mikant", 0, "mikant"},
                                           AutoCase{"rfc-8-16-3-seed1", "updown", 0, "updown"}),
                         [](const auto& info) {
                           std::string name = info.param.fabric;
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

}  // namespace
}  // namespace ftclos
