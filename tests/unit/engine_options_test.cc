// The plugin's options (engine/engine_options.h), as event_plugin_options
// carries them.
#include "engine/engine_options.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/workers.h"

namespace ftclos {
namespace {

TEST(EngineOptions, WordsBySpacesCommasAndTabs) {
  Result<EngineOptions> options =
      parse_engine_options("scheme=osrm,pathbits_file=bits\tlmc_shortfall=refuse  unreachable=allow");
  ASSERT_TRUE(options.ok()) << options.status().message();
  EXPECT_EQ(options->scheme, "osrm");
  EXPECT_EQ(options->path_bits_file, "bits");
  EXPECT_TRUE(options->refuse_low_lmc);
  EXPECT_TRUE(options->allow_unreachable);
  Result<EngineOptions> defaults = parse_engine_options("");
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->scheme, "auto");
  EXPECT_TRUE(defaults->path_bits_file.empty());
}

TEST(EngineOptions, HintFilesAsOpenSmFtreeNamesThem) {
  Result<EngineOptions> options =
      parse_engine_options("cn_guid_file=/etc/cn io_guid_file=/etc/io root_guid_file=/etc/roots");
  ASSERT_TRUE(options.ok()) << options.status().message();
  EXPECT_EQ(options->hint_files.cn_guid_file, "/etc/cn");
  EXPECT_EQ(options->hint_files.io_guid_file, "/etc/io");
  EXPECT_EQ(options->hint_files.root_guid_file, "/etc/roots");
}

TEST(EngineOptions, PolishIsOnUnlessTurnedOff) {
  EXPECT_TRUE(parse_engine_options("")->polish);
  EXPECT_FALSE(parse_engine_options("polish=off")->polish);
  Result<EngineOptions> bad = parse_engine_options("polish=1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "polish=1: expected on or off");
}

// pathbits_users=all: every job exports its path bits, so the source-class
// schemes need no offset set apart for hosts that take the SA's first record.
TEST(EngineOptions, RepairPolishWorkIsSmallUnlessGivenUpToTheFullBudget) {
  EXPECT_EQ(parse_engine_options("")->repair_polish_work, kRepairPolishWork);
  EXPECT_LT(kRepairPolishWork, kFullPolishWork / 10);
  EXPECT_EQ(parse_engine_options("repair_polish_work=0")->repair_polish_work, 0);
  EXPECT_EQ(parse_engine_options("repair_polish_work=50000000")->repair_polish_work, kFullPolishWork);
  for (const char* bad : {"repair_polish_work=-1", "repair_polish_work=50000001", "repair_polish_work=1e6"}) {
    const Result<EngineOptions> options = parse_engine_options(bad);
    ASSERT_FALSE(options.ok()) << bad;
    EXPECT_NE(options.status().message().find("expected a work budget"), std::string::npos) << bad;
  }
}

TEST(EngineOptions, PathBitsUsersAreSomeUnlessAllAreSaid) {
  EXPECT_EQ(parse_engine_options("")->path_bits_users, PathBitsUsers::kSome);
  EXPECT_EQ(parse_engine_options("pathbits_users=all")->path_bits_users, PathBitsUsers::kAll);
  Result<EngineOptions> bad = parse_engine_options("pathbits_users=every");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "pathbits_users=every: expected some or all");
}

TEST(EngineOptions, KeepTablesIsOnUnlessTurnedOff) {
  EXPECT_TRUE(parse_engine_options("")->keep_tables);
  EXPECT_TRUE(parse_engine_options("keep_tables=on")->keep_tables);
  EXPECT_FALSE(parse_engine_options("keep_tables=off")->keep_tables);
  Result<EngineOptions> bad = parse_engine_options("keep_tables=yes");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "keep_tables=yes: expected on or off");
}

TEST(EngineOptions, TradeOffAuditIsOffUnlessTurnedOn) {
  EXPECT_FALSE(parse_engine_options("")->steps_wait);
  EXPECT_TRUE(parse_engine_options("steps=wait")->steps_wait);
  EXPECT_FALSE(parse_engine_options("steps=auto")->steps_wait);
  EXPECT_EQ(parse_engine_options("steps=on").status().message(), "steps=on: expected auto or wait");
  EXPECT_FALSE(parse_engine_options("")->trade_off_audit);
  EXPECT_TRUE(parse_engine_options("trade_off_audit=on")->trade_off_audit);
  EXPECT_FALSE(parse_engine_options("trade_off_audit=off")->trade_off_audit);
  Result<EngineOptions> bad = parse_engine_options("trade_off_audit=1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "trade_off_audit=1: expected on or off");
}

TEST(EngineOptions, JobsTakesAThreadCountElseTheAvailableCpusCapped) {
  const Result<EngineOptions> three = parse_engine_options("jobs=3");
  ASSERT_TRUE(three.ok()) << three.status().message();
  EXPECT_EQ(sweep_threads(*three), 3);
  EXPECT_EQ(sweep_threads(*parse_engine_options("")), std::min(available_cpus(), kDefaultJobsCap));
  for (const char* bad : {"jobs=0", "jobs=-2", "jobs=2x", "jobs=1025", "jobs=many"}) {
    const Result<EngineOptions> options = parse_engine_options(bad);
    ASSERT_FALSE(options.ok()) << bad;
    EXPECT_EQ(options.status().message(), std::string(bad) + ": expected a thread count from 1 to 1024");
  }
}

TEST(EngineOptions, SchemeTwiceIsAnError) {
  Result<EngineOptions> options = parse_engine_options("scheme=dmodk scheme=updown");
  ASSERT_FALSE(options.ok());
  EXPECT_EQ(options.status().message(), "scheme is given twice (\"scheme=dmodk\", then \"scheme=updown\"); give it once");
}

TEST(EngineOptions, UnknownSchemeNamesTheClosest) {
  Result<EngineOptions> options = parse_engine_options("scheme=updwn");
  ASSERT_FALSE(options.ok());
  EXPECT_NE(options.status().message().find("did you mean \"updown\"?"), std::string::npos)
      << options.status().message();
}

}  // namespace
}  // namespace ftclos
