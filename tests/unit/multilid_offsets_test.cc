// Multi-LID never hurts (the contract of route/routing.h): a host that does
// not know its path bits sends to base(d) + 0, the SA's first PathRecord, so
// for every scheme of the table on every ibsim-topos fabric it routes, at
// LMC 2 and 3 and at the LMC its full guarantee needs, the hosts on offset 0
// meet no more worst-case contention than the scheme's own LMC-0 tables.
// The hosts on their path bits meet no more either with auto, and with a
// scheme that has its full guarantee on an intact fabric without attached
// hosts (elsewhere its bound does not hold, and auto weighs it against the
// single-path schemes). The fabrics and schemes come from the directory and
// the scheme table, so a new one is checked unasked.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "audit/audit.h"
#include "audit/worst_case.h"
#include "core/netfile.h"
#include "engine/route_fabric.h"
#include "schemes/scheme_registry.h"

namespace ftclos {
namespace {

const std::filesystem::path kSourceRoot = FTCLOS_SOURCE_ROOT;

// Above this LMC the check would audit LID ranges no cluster configures.
constexpr int kMaxCheckedLmc = 4;

std::set<std::filesystem::path> ibsim_net_files() {
  std::set<std::filesystem::path> files;
  for (const auto& file : std::filesystem::directory_iterator(kSourceRoot / "ibsim-topos"))
    if (file.path().extension() == ".net") files.insert(file.path());
  return files;
}

double worst_case(const Fabric& fabric, const RoutedFabric& routed, OffsetChoice offsets) {
  const AuditInput input{fabric, routed.detection.levels, routed.lids, routed.routing.lfts, std::move(offsets),
                         routed.routing.dest_sl, {}};
  return worst_case_contention(input).worst_case;
}

double on_offset_zero(const Fabric& fabric, const RoutedFabric& routed) {
  return worst_case(fabric, routed, {OffsetChoice::Mode::kFixed, 0, {}});
}

double on_path_bits(const Fabric& fabric, const RoutedFabric& routed) {
  return worst_case(fabric, routed, {OffsetChoice::Mode::kPathBits, 0, routed.routing.path_bits});
}

// Routed as `ftclos route` and the plugin route: auto weighs its choices by
// the exact worst case.
Result<RoutedFabric> routed_at(const Fabric& fabric, std::string_view scheme, int lmc,
                               PathBitsUsers users = PathBitsUsers::kSome) {
  Result<LidMap> lids = assign_lids(fabric, lmc);
  if (!lids.ok()) return lids.status();
  const WorstCaseMeasure measure = exact_worst_case_measure();
  return route_fabric(fabric, scheme, std::move(*lids), {}, nullptr,
                      {.worst_case = &measure, .path_bits_users = users});
}

TEST(MultiLid, OffsetZeroAndPathBitsNoWorseThanLmcZeroOnEveryIbsimFabric) {
  for (const std::filesystem::path& file : ibsim_net_files()) {
    Result<Fabric> fabric = read_netfile(file.string());
    ASSERT_TRUE(fabric.ok()) << file << ": " << fabric.status().message();
    const std::string name = file.stem().string();
    const Detection detection = detect(*fabric);
    for (const SchemeEntry& entry : scheme_table()) {
      const std::unique_ptr<Scheme> scheme = entry.make();
      if (!scheme->applies(detection).ok()) continue;
      Result<RoutedFabric> single = routed_at(*fabric, entry.name, 0);
      ASSERT_TRUE(single.ok()) << entry.name << " on " << name << ": " << single.status().message();
      const double reference = on_path_bits(*fabric, *single);
      const int needed = scheme->lmc_needed(detection, PathBitsUsers::kSome);
      std::set<int> lmcs{2, 3};
      if (needed > 0 && needed <= kMaxCheckedLmc) lmcs.insert(needed);
      for (int lmc : lmcs) {
        Result<RoutedFabric> multi = routed_at(*fabric, entry.name, lmc);
        ASSERT_TRUE(multi.ok()) << entry.name << " on " << name << ": " << multi.status().message();
        const std::string where = fmt::format("{} on {} at LMC {} (LMC 0: {:g})", entry.name, name, lmc, reference);
        EXPECT_LE(on_offset_zero(*fabric, *multi), reference) << where << ", offset 0";
        const bool guaranteed =
            lmc >= needed && !detection.degraded() && detection.levels.io_hosts.empty();
        if (entry.name == "auto" || guaranteed) {
          EXPECT_LE(on_path_bits(*fabric, *multi), reference) << where << ", path bits";
        }
      }
    }
  }
}

// OSRM3 keeps offset 0 for D-mod-k and its m/2 source groups on the other
// offsets: FT(8,3) needs LMC 3 (4 groups + 1), and then every host on its
// path bits meets Theorem 7's ratio m/2 = 4, every host on offset 0
// D-mod-k's figure; auto takes it there.
TEST(MultiLid, OsrmOnFt83KeepsOffsetZeroForDmodkAndTheRatioOnPathBits) {
  Result<Fabric> fabric = read_netfile((kSourceRoot / "ibsim-topos/ft-8-3.net").string());
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  Result<RoutedFabric> dmodk = routed_at(*fabric, "dmodk", 0);
  Result<RoutedFabric> osrm = routed_at(*fabric, "auto", 3);
  ASSERT_TRUE(dmodk.ok() && osrm.ok());
  EXPECT_EQ(osrm->routing.chosen, "osrm");
  EXPECT_EQ(osrm->routing.lmc_needed, 3);
  EXPECT_EQ(on_path_bits(*fabric, *osrm), 4);
  EXPECT_EQ(on_offset_zero(*fabric, *osrm), on_path_bits(*fabric, *dmodk));
  for (int node = 0; node < fabric->size(); ++node)
    if (!fabric->node(node).is_switch()) {
      EXPECT_GE(osrm->routing.path_bits[node], 1) << fabric->node(node).name << ": offset 0 is D-mod-k's";
    }
}

// Where every host exports its path bits (pathbits_users=all), no offset is
// set apart: OSRM3's 4 groups fit LMC 2 and reach the ratio there, and
// offset 0 is one group's, as bad as Lemma 9 lets a single group be.
TEST(MultiLid, EveryHostOnItsPathBitsFreesOffsetZeroForAGroup) {
  Result<Fabric> fabric = read_netfile((kSourceRoot / "ibsim-topos/ft-8-3.net").string());
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  Result<RoutedFabric> some = routed_at(*fabric, "auto", 2);
  Result<RoutedFabric> all = routed_at(*fabric, "auto", 2, PathBitsUsers::kAll);
  ASSERT_TRUE(some.ok() && all.ok());
  EXPECT_NE(some->routing.chosen, "osrm");  // it needs LMC 3 when hosts may send on offset 0
  EXPECT_EQ(all->routing.chosen, "osrm");
  EXPECT_EQ(all->routing.lmc_needed, 2);
  EXPECT_EQ(on_path_bits(*fabric, *all), 4);
  EXPECT_GT(on_offset_zero(*fabric, *all), on_offset_zero(*fabric, *some));
}

}  // namespace
}  // namespace ftclos
