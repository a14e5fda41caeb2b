// Recognition and routing of fabrics as real clusters have them: storage
// hosts on the spines, HCAs on port 2, dual rail, swapped cables and lost
// switches, made by gen's `vary` so the truth is known exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "audit/audit.h"
#include "core/end_nodes.h"
#include "core/netfile.h"
#include "core/files.h"
#include "core/topo_file.h"
#include "detect/detect.h"
#include "detect/host_hints.h"
#include "detect/xgft.h"
#include "gen/generate.h"
#include "tables/path_bits.h"
#include "engine/route_fabric.h"

namespace ftclos {
namespace {

struct Case {
  std::string name;
  Result<Fabric> (*make)();
  Family family;
};

const Case kTrees[] = {
    {"ft_8_3", [] { return generate_ftree(8, 3); }, Family::kFtree},
    {"kary_4_3", [] { return generate_kary(4, 3); }, Family::kKary},
    {"clos2_4_8_12", [] { return generate_clos2(4, 8, 12); }, Family::kClos2},
    {"pgft_oversubscribed_p6", [] { return generate_pgft({{24, 4}, {1, 2}, {1, 6}}); }, Family::kPgft},
    {"pgft_3_levels_p2", [] { return generate_pgft({{4, 4, 4}, {1, 2, 2}, {1, 2, 1}}); }, Family::kPgft},
};

// Lost switches show in the cabling graph from three levels on: in a
// two-level Clos a lost leaf or spine leaves a smaller Clos of the same
// family (only port counts could tell, and real clusters leave ports free
// on purpose). Swapped cables show everywhere: in two levels a swap doubles
// a cable that is there and leaves its pair without.
const Case kDeepTrees[] = {kTrees[0], kTrees[1], kTrees[4]};
// Trees with room for 4 swapped pairs on distinct switches.
const Case kSwapTrees[] = {kTrees[0], kTrees[1], kTrees[2], kTrees[4]};

// The fabric after `vary`, written and read back as a file would be, then
// shuffled (node and port order), as the CLI sees it.
struct Varied {
  Fabric fabric;
  VariationLog log;
};
Varied varied(const Case& c, const Variations& variations, uint64_t shuffle_seed = 0, bool shuffle_ports = true) {
  Result<Fabric> made = c.make();
  EXPECT_TRUE(made.ok()) << made.status().message();
  Varied out{made.ok() ? *made : Fabric(), {}};
  Result<VariationLog> log = vary(out.fabric, variations);
  EXPECT_TRUE(log.ok()) << log.status().message();
  if (log.ok()) out.log = *log;
  Result<Fabric> reread = parse_netfile(write_netfile(out.fabric), c.name);
  EXPECT_TRUE(reread.ok()) << reread.status().message();
  out.fabric = split_end_nodes(reread.ok() ? *reread : Fabric());
  if (shuffle_seed) out.fabric = shuffle(out.fabric, shuffle_seed, shuffle_ports);
  return out;
}

std::vector<int> params_of(const Detection& detection) {
  std::vector<int> values;
  if (detection.families.empty()) return values;
  for (const FamilyParam& p : detection.families.front().params) values.insert(values.end(), p.values.begin(), p.values.end());
  return values;
}

std::multiset<std::string> kinds(const Detection& detection) {
  std::multiset<std::string> out;
  for (const Deviation& d : detection.deviations()) out.insert(kind_name(d.kind));
  return out;
}

class RealTrees : public ::testing::TestWithParam<Case> {};
class DeepTrees : public ::testing::TestWithParam<Case> {};
class SwapTrees : public ::testing::TestWithParam<Case> {};

TEST_P(RealTrees, StorageHostsOnTheTopAreAttachedNotDegraded) {
  const Case& c = GetParam();
  const Detection intact = detect(varied(c, {}).fabric);
  for (uint64_t shuffle_seed : {0, 1, 2}) {
    const Varied v = varied(c, {.io_hosts = 2}, shuffle_seed);
    const Detection detection = detect(v.fabric);
    ASSERT_FALSE(detection.families.empty()) << detection.unknown_reason;
    EXPECT_EQ(detection.families.front().family, c.family);
    EXPECT_EQ(params_of(detection), params_of(intact));
    EXPECT_FALSE(detection.degraded()) << describe(v.fabric, detection.deviations().front());
    std::vector<std::string> io;
    for (int x : detection.levels.io_hosts) {
      io.push_back(v.fabric.node(x).name);
      EXPECT_EQ(attached_level(v.fabric, detection.levels, x), detection.levels.height);
    }
    std::ranges::sort(io);
    std::vector<std::string> expected = v.log.io_hosts;
    std::ranges::sort(expected);
    EXPECT_EQ(io, expected);
  }
}

// Every swapped pair is two miswired cables, named with the ports their
// upper ends belong on (each other's), and nothing else.
TEST_P(SwapTrees, SwappedCablesAreNamedExactly) {
  const Case& c = GetParam();
  for (int pairs : {1, 2, 4}) {
    for (uint64_t seed : {1, 2, 3}) {
      const Varied v = varied(c, {.swapped_pairs = pairs, .seed = seed}, seed, /*shuffle_ports=*/false);
      const Detection detection = detect(v.fabric);
      ASSERT_FALSE(detection.families.empty()) << detection.unknown_reason;
      EXPECT_EQ(detection.families.front().family, c.family) << pairs << " pairs, seed " << seed;
      std::set<std::tuple<std::string, int, std::string, int>> reported, expected;
      for (const NamedCable& cable : v.log.swapped) expected.insert({cable.a, cable.a_port, cable.b, cable.b_port});
      for (const Deviation& d : detection.deviations()) {
        ASSERT_EQ(d.kind, Deviation::Kind::kMiswiredCable) << describe(v.fabric, d);
        const Node& a = v.fabric.node(d.at.node);
        const Node& b = v.fabric.node(d.peer.node);
        reported.insert({a.name, d.at.port, b.name, d.peer.port});
        // Moving the upper end to where it belongs lands on the port of the
        // other miswired cable of the pair.
        ASSERT_TRUE(d.belongs.valid() && d.belongs.port > 0) << describe(v.fabric, d);
        const PortRef there = v.fabric.peer(d.belongs);
        ASSERT_TRUE(there.valid());
        const bool also_miswired = std::ranges::any_of(detection.deviations(), [&](const Deviation& e) { return e.at == there; });
        EXPECT_TRUE(also_miswired) << describe(v.fabric, d);
      }
      EXPECT_EQ(reported, expected) << pairs << " pairs, seed " << seed;
    }
  }
}

TEST_P(RealTrees, SlowLinksAreNamedExactly) {
  const Case& c = GetParam();
  for (int slow : {1, 3}) {
    const Varied v = varied(c, {.rate = {4, LinkSpeed::kEdr}, .slow_links = slow, .seed = 7}, 7, /*shuffle_ports=*/false);
    const Detection detection = detect(v.fabric);
    ASSERT_FALSE(detection.families.empty()) << detection.unknown_reason;
    EXPECT_EQ(detection.families.front().family, c.family);
    std::set<std::tuple<std::string, int, std::string, int>> reported, expected;
    for (const NamedCable& cable : v.log.slow) expected.insert({cable.a, cable.a_port, cable.b, cable.b_port});
    for (const Deviation& d : detection.deviations()) {
      ASSERT_EQ(d.kind, Deviation::Kind::kSlowLink) << describe(v.fabric, d);
      EXPECT_NE(d.detail.find("4xDDR where"), std::string::npos) << d.detail;
      reported.insert({v.fabric.node(d.at.node).name, d.at.port, v.fabric.node(d.peer.node).name, d.peer.port});
    }
    EXPECT_EQ(reported, expected) << slow << " slow links";
  }
}

TEST(RealFabrics, FasterLinksAndUnknownRatesAreNotSlow) {
  Result<Fabric> made = generate_ftree(8, 2);
  ASSERT_TRUE(made.ok());
  Fabric fabric = split_end_nodes(*made);
  auto set_rate = [&](PortRef end, LinkRate rate) { fabric.port(end).rate = fabric.port(fabric.peer(end)).rate = rate; };
  // A third of the cables unrated, the rest EDR but for one HDR: nothing is slow.
  int cable = 0;
  for (int x = 0; x < fabric.size(); ++x)
    for (int p = 1; p <= fabric.node(x).num_ports; ++p)
      if (PortRef end{x, p}; fabric.peer(end).valid() && end < fabric.peer(end) && cable++ % 3)
        set_rate(end, {4, LinkSpeed::kEdr});
  set_rate({*fabric.find("L1-1"), 6}, {4, LinkSpeed::kHdr});
  EXPECT_TRUE(detect(fabric).deviations().empty()) << describe(fabric, detect(fabric).deviations().front());
  // A 1x cable among 4x ones is: narrower.
  const PortRef leaf_uplink{*fabric.find("L1-0"), 5};
  ASSERT_TRUE(fabric.peer(leaf_uplink).valid());
  set_rate(leaf_uplink, {1, LinkSpeed::kEdr});
  const Detection slowed = detect(fabric);
  const std::vector<Deviation>& deviations = slowed.deviations();
  ASSERT_EQ(deviations.size(), 1u);
  EXPECT_EQ(deviations[0].kind, Deviation::Kind::kSlowLink);
  EXPECT_EQ(deviations[0].at, leaf_uplink);
}

TEST_P(DeepTrees, LostSwitchesAreOneDeviationEach) {
  const Case& c = GetParam();
  const int height = detect(varied(c, {}).fabric).levels.height;
  for (int level = 1; level <= height; ++level) {
    for (int lost : {1, 2}) {
      const Varied v = varied(c, {.lost_switches = lost, .lost_level = level, .seed = 7}, 3);
      const Detection detection = detect(v.fabric);
      ASSERT_FALSE(detection.families.empty()) << detection.unknown_reason;
      EXPECT_EQ(detection.families.front().family, c.family) << "level " << level << ", " << lost << " lost";
      const std::vector<std::string> expected(lost, "missing-switch");
      EXPECT_EQ(kinds(detection), std::multiset<std::string>(expected.begin(), expected.end()))
          << "level " << level << ", " << lost << " lost";
    }
  }
}

// Port-2 HCAs and dual-rail hosts: every cabled port is an end node, routed
// (0 unreachable), and listed in the path-bits file.
TEST_P(RealTrees, EveryCabledHcaPortIsRouted) {
  const Case& c = GetParam();
  for (Variations variations : {Variations{.hca_port = 2}, Variations{.dual_rail = true}}) {
    const Varied v = varied(c, variations, 1);
    int cabled_ports = 0;
    Result<Fabric> whole = c.make();
    ASSERT_TRUE(whole.ok());
    ASSERT_TRUE(vary(*whole, variations).ok());
    for (const Node& node : whole->nodes())
      if (!node.is_switch())
        for (int p = 1; p <= node.num_ports; ++p) cabled_ports += node.ports[p].peer.valid();
    EXPECT_EQ(v.fabric.count(NodeType::kCa), cabled_ports);
    Result<RoutedFabric> routed = route_fabric(v.fabric, "auto", 0);
    ASSERT_TRUE(routed.ok()) << routed.status().message();
    const Correctness correctness =
        check_correctness({v.fabric, routed->detection.levels, routed->lids, routed->routing.lfts, {}, {}, {}});
    EXPECT_EQ(correctness.pairs, static_cast<long>(cabled_ports) * (cabled_ports - 1));
    EXPECT_EQ(correctness.unreachable + correctness.loops, 0);
    const std::string bits = write_path_bits(v.fabric, routed->routing);
    for (const Node& node : v.fabric.nodes()) {
      if (node.is_switch()) continue;
      EXPECT_NE(bits.find(format_guid(node.ports[1].guid)), std::string::npos) << node.name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Generated, RealTrees, ::testing::ValuesIn(kTrees),
                         [](const auto& info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(Generated, DeepTrees, ::testing::ValuesIn(kDeepTrees),
                         [](const auto& info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(Generated, SwapTrees, ::testing::ValuesIn(kSwapTrees),
                         [](const auto& info) { return info.param.name; });

TEST(RealFabrics, OversubscribedParallelCablesAreNotDegraded) {
  for (int p = 2; p <= 6; ++p) {
    const Fabric fabric = *generate_pgft({{12, 4}, {1, 3}, {1, p}});
    const Detection detection = detect(shuffle(fabric, p, true));
    ASSERT_FALSE(detection.families.empty()) << detection.unknown_reason;
    EXPECT_EQ(detection.families.front().family, Family::kPgft) << "p = " << p;
    EXPECT_FALSE(detection.degraded()) << "p = " << p;
  }
}

// Unplugs `hosts` hosts of `leaf` and, per parent in `parents` (by port
// order), `cables_each` of its uplinks to that parent.
void unplug(Fabric& fabric, int leaf, int hosts, int parents, int cables_each) {
  std::map<int, int> taken;  // parent -> cables unplugged
  for (int p = 1; p <= fabric.node(leaf).num_ports; ++p) {
    const PortRef peer = fabric.peer({leaf, p});
    if (!peer.valid()) continue;
    if (!fabric.node(peer.node).is_switch()) {
      if (hosts-- > 0) fabric.disconnect({leaf, p});
    } else if ((taken.contains(peer.node) || static_cast<int>(taken.size()) < parents) &&
               taken[peer.node] < cables_each) {
      ++taken[peer.node];
      fabric.disconnect({leaf, p});
    }
  }
}

// A leaf with a host fewer may have a parallel uplink fewer (the full
// leaves' one uplink per host): reduced, not degraded. A lost uplink on a
// full leaf, or a parent lost altogether, still is.
TEST(RealFabrics, ReducedLeavesAreNotDegradedLostUplinksAre) {
  const Fabric full = *generate_pgft({{8, 6}, {1, 4}, {1, 2}});
  std::vector<int> leaves;
  for (int i = 0; i < full.size(); ++i)
    if (full.node(i).is_switch() && hosts_on(full, i) > 0) leaves.push_back(i);
  ASSERT_EQ(leaves.size(), 6u);
  // As every command sees it: the unplugged hosts are no end nodes.
  auto kinds = [](const Fabric& fabric) {
    std::map<std::string, int> count;
    const Detection detection = detect(split_end_nodes(fabric));
    EXPECT_FALSE(detection.families.empty()) << detection.unknown_reason;
    if (detection.families.empty()) return count;
    EXPECT_EQ(detection.families.front().family, Family::kPgft);
    for (const Deviation& d : detection.deviations()) ++count[kind_name(d.kind)];
    return count;
  };
  Fabric reduced = full;
  unplug(reduced, leaves[0], 1, 1, 1);
  unplug(reduced, leaves[3], 2, 2, 1);
  EXPECT_EQ(kinds(reduced), (std::map<std::string, int>{}));

  Fabric lost_uplink = full;
  unplug(lost_uplink, leaves[1], 0, 1, 1);
  EXPECT_EQ(kinds(lost_uplink), (std::map<std::string, int>{{"missing-cable", 1}}));

  Fabric lost_parent = full;
  unplug(lost_parent, leaves[2], 1, 1, 2);
  EXPECT_EQ(kinds(lost_parent), (std::map<std::string, int>{{"missing-cable", 2}, {"missing-host", 1}}));

  Fabric too_few_uplinks = full;
  unplug(too_few_uplinks, leaves[4], 1, 2, 1);
  EXPECT_EQ(kinds(too_few_uplinks), (std::map<std::string, int>{{"missing-cable", 2}, {"missing-host", 1}}));
}

// Two copies of a fabric side by side: no table can join them, so routing
// refuses and names both parts; detection says why it finds no family.
TEST(RealFabrics, PhysicallyDisconnectedFabricIsNamedNotRouted) {
  Fabric twice = *generate_ftree(4, 2);
  const Fabric copy = twice;
  const int offset = twice.size();
  for (const Node& node : copy.nodes())
    ASSERT_TRUE(twice.add_node(node.type, "copy-" + node.name, node.num_ports, node.guid + (1ull << 40)).ok());
  for (int i = 0; i < copy.size(); ++i)
    for (int p = 1; p <= copy.node(i).num_ports; ++p) {
      const PortRef peer = copy.node(i).ports[p].peer;
      if (!peer.valid()) continue;
      ASSERT_TRUE(twice.connect({offset + i, p}, {offset + peer.node, peer.port}).ok());
    }
  const Detection detection = detect(twice);
  EXPECT_TRUE(detection.families.empty());
  EXPECT_NE(detection.unknown_reason.find("physically disconnected, 2 parts"), std::string::npos)
      << detection.unknown_reason;
  bool bad_input = true;
  Result<RoutedFabric> routed = route_fabric(twice, "auto", 0, {}, &bad_input);
  ASSERT_FALSE(routed.ok());
  EXPECT_FALSE(bad_input);
  EXPECT_EQ(routed.status().message(),
            "the fabric is physically disconnected, 2 parts: 6 switches and 8 hosts (\"L1-0\", ...); 6 switches and 8 "
            "hosts (\"copy-L1-0\", ...)");
}

// The ibutils fabrics are regular by construction: each gets its family, or
// the generic folded Clos where it has another shape (RhinoReindeer1100:
// edge switches cabled to two leaf boards of each of three chassis), with
// the same coordinates in any node order, and no deviation but
// PartialGazelle's: its CFG drops one spine board, three chips. IS3-128's
// leaves of 11 hosts carry 11 uplinks beside leaves of 12 and 12: reduced
// leaves, not missing cables and hosts.
TEST(VendorFabrics, RegularByConstructionMeansNoInventedDeviation) {
  const std::filesystem::path dir = std::filesystem::path(FTCLOS_SOURCE_ROOT) / "ibsim-topos/ibutils";
  const std::map<std::string, std::pair<Family, int>> expected = {
      {"FullGnu", {Family::kPgft, 0}},          {"SingleGazelle", {Family::kPgft, 0}},
      {"PartialGazelle", {Family::kPgft, 3}},   {"IS3-128", {Family::kPgft, 0}},
      {"RhinoBased512Nodes", {Family::kFoldedClos, 0}}, {"RhinoReindeer1100", {Family::kFoldedClos, 0}},
  };
  for (const auto& [name, want] : expected) {
    Result<Fabric> fabric = read_topo_file((dir / (name + ".topo")).string(), {(dir / "ibnl").string()});
    ASSERT_TRUE(fabric.ok()) << fabric.status().message();
    std::map<uint64_t, std::string> first_coords;
    for (uint64_t seed : {0, 1, 2}) {
      const Fabric input = seed ? shuffle(*fabric, seed, /*ports=*/false) : *fabric;
      const Detection detection = detect(input);
      ASSERT_FALSE(detection.families.empty()) << name << ": " << detection.unknown_reason;
      EXPECT_EQ(detection.families.front().family, want.first) << name << " seed " << seed;
      int missing_switches = 0;
      for (const Deviation& d : detection.deviations()) {
        EXPECT_EQ(d.kind, Deviation::Kind::kMissingSwitch) << name << ": " << describe(input, d);
        missing_switches += d.kind == Deviation::Kind::kMissingSwitch;
      }
      EXPECT_EQ(missing_switches, want.second) << name << " seed " << seed;
      const std::vector<std::string>& coords = detection.families.front().coords;
      for (int i = 0; i < input.size(); ++i) {
        auto [it, added] = first_coords.emplace(input.node(i).guid, coords[i]);
        EXPECT_EQ(it->second, coords[i]) << name << " seed " << seed << ": " << input.node(i).name;
      }
    }
  }
}

}  // namespace
}  // namespace ftclos

namespace ftclos {
namespace {

// Storage hosts outnumbering the compute hosts on the spines fool the
// guess; io_guid_file, as OpenSM's ftree reads it, settles it.
TEST(RealFabrics, IoGuidFileOverridesTheGuess) {
  Fabric fabric = *generate_clos2(4, 4, 2);
  const VariationLog log = *vary(fabric, {.io_hosts = 8});
  const std::string path = ::testing::TempDir() + "/io_guids";
  std::string text = "# storage\n\n";
  for (const std::string& name : log.io_hosts) text += format_guid(fabric.node(*fabric.find(name)).ports[1].guid) + "\n";
  ASSERT_TRUE(write_file(path, text).ok());
  Result<ReadHints> hints = read_host_hints({.io_guid_file = path}, fabric);
  ASSERT_TRUE(hints.ok()) << hints.status().message();
  EXPECT_TRUE(hints->warnings.empty());
  const Detection detection = detect(fabric, hints->hints);
  ASSERT_FALSE(detection.families.empty()) << detection.unknown_reason;
  EXPECT_EQ(detection.families.front().family, Family::kClos2);
  EXPECT_FALSE(detection.degraded());
  EXPECT_EQ(detection.levels.io_hosts.size(), log.io_hosts.size());
  EXPECT_NE(detect(fabric).levels.io_hosts.size(), log.io_hosts.size());  // the guess alone is wrong here
}

TEST(RealFabrics, GuidFileErrorsNameFileAndLine) {
  const std::string path = ::testing::TempDir() + "/bad_guids";
  ASSERT_TRUE(write_file(path, "0x10\nnot-a-guid\n").ok());
  Result<ReadHints> hints = read_host_hints({.cn_guid_file = path}, *generate_clos2(4, 4, 2));
  ASSERT_FALSE(hints.ok());
  EXPECT_NE(hints.status().message().find(path + ":2: expected one GUID"), std::string::npos) << hints.status().message();
}

}  // namespace
}  // namespace ftclos
