// Multi-LID never hurts (issue #29, the contract of route/routing.h): a
// host that does not know its path bits sends to base(d) + 0, the SA's
// first PathRecord. For auto and each multi-LID scheme of the seeds
// (nonblocking, OSRM, MLID) that routes the fabric, at LMC 2 and 3, the
// hosts on offset 0 and the hosts on their path bits meet no more
// worst-case contention than the best LMC-0 routing of the same fabric: the
// lowest figure of any scheme of the table at LMC 0 whose tables deliver
// every pair without credit loops on no more VLs.
// The fabrics: every ibsim-topos fabric (the ibutils ones included), a
// degraded FT(8,3) with 2 lost switches, a second 3-level RFC and a 2-level
// PGFT with 6 parallel cables per leaf-spine pair and one cut. Fabrics and
// schemes come from the directory and the scheme table, so a new one is
// checked unasked.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "audit/audit.h"
#include "audit/worst_case.h"
#include "core/end_nodes.h"
#include "core/fabric_file.h"
#include "core/netfile.h"
#include "core/topo_file.h"
#include "engine/route_fabric.h"
#include "gen/generate.h"
#include "routing_checks.h"
#include "schemes/scheme_registry.h"

namespace ftclos {
namespace {

const std::filesystem::path kSourceRoot = FTCLOS_SOURCE_ROOT;

struct NamedFabric {
  std::string name;
  Fabric fabric;
};

// Every fabric of ibsim-topos/ (*.net, ibutils/*.topo) as the commands read
// it, then the generated ones of the header comment.
std::vector<NamedFabric> checked_fabrics() {
  std::vector<NamedFabric> fabrics;
  for (const auto& file : std::filesystem::directory_iterator(kSourceRoot / "ibsim-topos"))
    if (file.path().extension() == ".net")
      fabrics.push_back({file.path().stem().string(), *read_end_nodes(file.path().string())});
  const std::filesystem::path ibutils = kSourceRoot / "ibsim-topos/ibutils";
  for (const auto& file : std::filesystem::directory_iterator(ibutils))
    if (file.path().extension() == ".topo") {
      Result<Fabric> fabric = read_topo_file(file.path().string(), {(ibutils / "ibnl").string()});
      EXPECT_TRUE(fabric.ok()) << file.path() << ": " << fabric.status().message();
      if (fabric.ok()) fabrics.push_back({file.path().stem().string(), split_end_nodes(*fabric)});
    }
  Fabric lost = *generate_ftree(8, 3);
  EXPECT_TRUE(vary(lost, {.lost_switches = 2, .seed = 1}).ok());
  fabrics.push_back({"FT(8,3) with 2 lost switches", std::move(lost)});
  fabrics.push_back({"RFC radix 8, 16 leaves, 3 levels, seed 2", *generate_rfc(8, 16, 3, 2)});
  Fabric parallel = *generate_pgft({{24, 4}, {1, 2}, {1, 6}});
  EXPECT_TRUE(degrade(parallel, {.fail_links = 1}).ok());
  fabrics.push_back({"PGFT(2; 24,4; 1,2; 1,6) with one cable cut", std::move(parallel)});
  return fabrics;
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

// Tables that deliver every pair without loops or credit loops: only those
// set the reference (updown on MiKANT strands most pairs, and its figure
// counts only the delivered ones).
bool sound(const Fabric& fabric, const RoutedFabric& routed) {
  const Correctness correctness = check_correctness({fabric, routed.detection.levels, routed.lids, routed.routing.lfts,
                                                     {}, routed.routing.dest_sl, {}});
  return correctness.unreachable == 0 && correctness.loops == 0 && correctness.credit_loops == 0;
}

// The VLs the tables' SLs take (VL = SL): a routing that needs more is no
// alternative on ports that offer fewer.
int vls(const Routing& routing) {
  return std::max<int>(1, std::set<uint8_t>(routing.dest_sl.begin(), routing.dest_sl.end()).size());
}

// The LMC-0 routings of the table's schemes whose tables are sound.
struct LmcZero {
  std::vector<std::pair<int, double>> sound;  // (VLs, worst case) per scheme with sound tables

  // The lowest worst case on at most `at_most` VLs; infinity where none.
  double best_on(int at_most) const {
    double best = std::numeric_limits<double>::infinity();
    for (const auto& [used, worst] : sound)
      if (used <= at_most) best = std::min(best, worst);
    return best;
  }
};

LmcZero lmc_zero(const Fabric& fabric, const Detection& detection, const std::string& name) {
  LmcZero out;
  for (const SchemeEntry& entry : scheme_table()) {
    if (!entry.make()->applies(detection).ok()) continue;
    Result<RoutedFabric> single = routed_at(fabric, entry.name, 0);
    EXPECT_TRUE(single.ok()) << entry.name << " on " << name << ": " << single.status().message();
    if (!single.ok() || !sound(fabric, *single)) continue;
    out.sound.emplace_back(vls(single->routing), on_offset_zero(fabric, *single));
  }
  return out;
}

TEST(MultiLid, OffsetZeroAndPathBitsNoWorseThanTheBestLmcZeroOnEveryFabric) {
  for (const NamedFabric& named : checked_fabrics()) {
    const Fabric& fabric = named.fabric;
    const Detection detection = detect(fabric);
    const LmcZero single = lmc_zero(fabric, detection, named.name);
    for (std::string_view scheme : {"auto", "nonblocking", "osrm", "mlid"}) {
      if (!find_scheme(scheme)->make()->applies(detection).ok()) continue;
      for (int lmc : {2, 3}) {
        Result<RoutedFabric> multi = routed_at(fabric, scheme, lmc);
        ASSERT_TRUE(multi.ok()) << scheme << " on " << named.name << ": " << multi.status().message();
        const int used = vls(multi->routing);
        const double best = single.best_on(used);
        ASSERT_LT(best, std::numeric_limits<double>::infinity())
            << named.name << ": no sound LMC-0 routing on " << used << " VLs";
        const std::string where =
            fmt::format("{} on {} at LMC {} (best LMC 0 on {} VLs: {:g})", scheme, named.name, lmc, used, best);
        EXPECT_LE(on_offset_zero(fabric, *multi), best) << where << ", offset 0";
        EXPECT_LE(on_path_bits(fabric, *multi), best) << where << ", path bits";
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

namespace ftclos {
namespace {

RoutedFabric routed_ibsim(const std::string& name, std::string_view scheme, int lmc) {
  Result<Fabric> fabric = read_end_nodes((kSourceRoot / "ibsim-topos" / (name + ".net")).string());
  EXPECT_TRUE(fabric.ok()) << fabric.status().message();
  Result<RoutedFabric> routed = routed_at(*fabric, scheme, lmc);
  EXPECT_TRUE(routed.ok()) << routed.status().message();
  return std::move(*routed);
}

// MLID's 4 LIDs on the 4-ary 3-tree (16 positions under the top, LMC 5 for
// its bound): its bits meet 8, offset 0 meets 4, so every host gets 0.
TEST(MultiLid, MlidOnKary43AtLmc2FallsBackToOffsetZero) {
  const Fabric fabric = *read_end_nodes((kSourceRoot / "ibsim-topos/kary-4-3.net").string());
  const RoutedFabric mlid = *routed_at(fabric, "mlid", 2);
  EXPECT_TRUE(std::ranges::all_of(mlid.routing.path_bits, [](int bits) { return bits == 0; }));
  EXPECT_TRUE(notes_mention(mlid.routing, "on the scheme's path bits the worst-case contention is 8, on offset 0 4"))
      << ::testing::PrintToString(mlid.routing.notes);
  EXPECT_EQ(on_path_bits(fabric, mlid), 4);
}

// OSRM3 with fewer LIDs than its groups routes by destination alone, by
// D-mod-k: on FT(8,3) with storage on level 2 as dmodk does (13), where its
// group rule with the destination's digits put 14.
TEST(MultiLid, OsrmOnFt83WithStorageBelowItsGroupsRoutesAsDmodk) {
  const Fabric fabric = *read_end_nodes((kSourceRoot / "ibsim-topos/ft-8-3-io2-level2.net").string());
  const RoutedFabric osrm = *routed_at(fabric, "osrm", 2);
  const RoutedFabric dmodk = *routed_at(fabric, "dmodk", 0);
  EXPECT_TRUE(notes_mention(osrm.routing, "routed by destination only"));
  EXPECT_EQ(on_offset_zero(fabric, osrm), on_offset_zero(fabric, dmodk));
}

// On FT(8,3) with 4 cables down OSRM3's bits meet 9 and fall back to 0
// (offset 0: 8); updown meets 8 too at LMC 0, and auto takes it: a scheme
// whose LIDs buy nothing gives way on a tie.
TEST(MultiLid, AutoGivesWayWhereItsChoicesBitsFellBackToOffsetZero) {
  const RoutedFabric routed = routed_ibsim("ft-8-3-fail4", "auto", 3);
  EXPECT_EQ(routed.routing.chosen, "updown");
  EXPECT_TRUE(notes_mention(routed.routing, "auto passed over osrm: worst-case contention 8 on path bits or offset 0 with "
                                       "path bits 0, updown's (LMC 0 alike) is 8"))
      << ::testing::PrintToString(routed.routing.notes);
}

}  // namespace
}  // namespace ftclos
