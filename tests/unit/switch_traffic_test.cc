// Switches' own traffic: PMA queries (perfquery, ibqueryerrors, telemetry)
// go from a CA to a switch LID and their answers from the switch back, so
// every scheme must give every switch a route to every LID (CA and switch)
// and every CA a route to every switch LID, at every LMC, not only the
// entries CA-to-CA paths use, and those routes must close no credit loop
// with the CAs' on any VL. Checked on every ibsim-topos fabric, the Rhino
// vendor fabric and three direct networks by following the LFTs, and with
// the auditor.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "audit/audit.h"
#include "audit/path_trace.h"
#include "core/end_nodes.h"
#include "core/fabric_file.h"
#include "core/topo_file.h"
#include "detect/levels.h"
#include "engine/route_fabric.h"
#include "gen/generate.h"
#include "routing_checks.h"
#include "schemes/scheme_registry.h"

namespace ftclos {
namespace {

const std::filesystem::path kSourceRoot = FTCLOS_SOURCE_ROOT;

constexpr int kShownFailures = 5;

// What a packet for `lid` does from switch `x` on: "" when the owner gets it.
std::string follow_from_switch(const Fabric& fabric, const LidMap& lids, const Lfts& lfts, int x, int lid) {
  const int owner = lids.owner[lid];
  std::vector<bool> seen(fabric.size(), false);
  for (int at = x;;) {
    if (at == owner) return "";
    if (seen[at]) return fmt::format("loop at {}", fabric.node(at).name);
    seen[at] = true;
    const uint8_t port = lfts.at(at, lid);
    if (port == kNoPath || port == 0 || port > fabric.node(at).num_ports)
      return fmt::format("no route at {}", fabric.node(at).name);
    const PortRef peer = fabric.peer({at, port});
    if (!peer.valid()) return fmt::format("dead port {} at {}", port, fabric.node(at).name);
    if (peer.node == owner) return "";
    if (!fabric.node(peer.node).is_switch()) return fmt::format("delivered to {}", fabric.node(peer.node).name);
    at = peer.node;
  }
}

// The failures of switch-to-LID and CA-to-switch-LID routes, the first few described.
struct Misses {
  long count = 0;
  std::vector<std::string> shown;
  void add(std::string what) {
    if (++count <= kShownFailures) shown.push_back(std::move(what));
  }
};

Misses switch_traffic_misses(const Fabric& fabric, const LidMap& lids, const Lfts& lfts) {
  Misses misses;
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch()) continue;
    for (int lid = 1; lid <= lids.max_lid; ++lid)
      if (lids.owner[lid] >= 0 && lids.owner[lid] != x)
        if (std::string why = follow_from_switch(fabric, lids, lfts, x, lid); !why.empty())
          misses.add(fmt::format("{} -> LID {} ({}): {}", fabric.node(x).name, lid,
                                 fabric.node(lids.owner[lid]).name, why));
  }
  for (int s = 0; s < fabric.size(); ++s) {
    if (fabric.node(s).is_switch() || lids.base[s] == 0) continue;
    for (int x = 0; x < fabric.size(); ++x) {
      if (!fabric.node(x).is_switch() || lids.base[x] == 0) continue;
      const Trace path = trace(fabric, lids, lfts, s, lids.base[x]);
      if (path.outcome != Trace::Outcome::kDelivered)
        misses.add(fmt::format("{} -> switch {}: not delivered", fabric.node(s).name, fabric.node(x).name));
    }
  }
  return misses;
}

struct NamedFabric {
  std::string name;
  Fabric fabric;
};

std::vector<NamedFabric> fabrics_to_check() {
  std::vector<NamedFabric> out;
  std::set<std::filesystem::path> files;
  for (const auto& file : std::filesystem::directory_iterator(kSourceRoot / "ibsim-topos"))
    if (file.path().extension() == ".net") files.insert(file.path());
  for (const std::filesystem::path& file : files) {
    Result<Fabric> fabric = read_end_nodes(file.string());
    EXPECT_TRUE(fabric.ok()) << fabric.status().message();
    if (fabric.ok()) out.push_back({file.stem().string(), std::move(*fabric)});
  }
  const std::filesystem::path ibutils = kSourceRoot / "ibsim-topos/ibutils";
  Result<Fabric> rhino = read_topo_file((ibutils / "RhinoBased512Nodes.topo").string(), {(ibutils / "ibnl").string()});
  EXPECT_TRUE(rhino.ok()) << rhino.status().message();
  if (rhino.ok()) out.push_back({"RhinoBased512Nodes", split_end_nodes(*rhino)});
  // Fabrics no folded Clos: layered, the up*/down* floor and (where leaves share ancestors) updown route them.
  for (auto [name, fabric] : {std::pair{"torus-4x4", generate_torus(4, 4, 2)},
                              std::pair{"hypercube-4", generate_hypercube(4, 2)},
                              std::pair{"dragonfly-5x3", generate_dragonfly(5, 3, 2)}}) {
    EXPECT_TRUE(fabric.ok()) << name << ": " << fabric.status().message();
    if (fabric.ok()) out.push_back({name, std::move(*fabric)});
  }
  Result<Fabric> ftree = generate_ftree(8, 3);
  EXPECT_TRUE(ftree.ok()) << ftree.status().message();
  if (ftree.ok()) out.push_back({"ft-8-3-spine-cables", with_level_cables(std::move(*ftree), 6, 2)});
  return out;
}

// Every scheme that routes the fabric, at LMC 0 and at the LMC it needs
// (every LID of every range): no switch lacks a route to any LID, no CA to
// any switch LID, and the auditor finds every such pair delivered (and the
// CA routes still free of credit loops).
TEST(SwitchTraffic, EverySchemeRoutesSwitchesToEveryLidAndCasToEverySwitch) {
  for (const NamedFabric& named : fabrics_to_check()) {
    const Detection detection = detect(named.fabric);
    for (const SchemeEntry& entry : scheme_table()) {
      const std::unique_ptr<Scheme> scheme = entry.make();
      if (!scheme->applies(detection).ok()) continue;
      std::set<int> lmcs{0, scheme->lmc_needed(detection, PathBitsUsers::kSome)};
      for (int lmc : lmcs) {
        Result<LidMap> lids = assign_lids(named.fabric, lmc);
        if (!lids.ok()) continue;  // more LIDs than the unicast range holds
        Result<RoutedFabric> routed = route_fabric(named.fabric, entry.name, std::move(*lids), {});
        if (!routed.ok()) continue;  // the scheme cannot route this fabric
        const std::string what = fmt::format("{} on {} at LMC {}", entry.name, named.name, lmc);
        AuditInput input{named.fabric, routed->detection.levels, routed->lids, routed->routing.lfts, {}, {}, {}};
        input.offsets.mode = OffsetChoice::Mode::kAllOffsets;
        input.dest_sl = routed->routing.dest_sl;
        const Correctness correctness = check_correctness(input);
        // Where a scheme leaves CA pairs apart (updown on MiKANT: leaves with no common ancestor) their
        // switches' entries are the CAs' own: nothing to complete without changing CA routes.
        if (correctness.unreachable + correctness.loops > 0) continue;
        const Misses misses = switch_traffic_misses(named.fabric, routed->lids, routed->routing.lfts);
        EXPECT_EQ(misses.count, 0) << what << ": " << fmt::format("{}", fmt::join(misses.shown, "; "));
        EXPECT_GT(correctness.switch_pairs, 0) << what;
        EXPECT_EQ(correctness.switch_unreachable, 0) << what;
        EXPECT_EQ(correctness.credit_loops, 0) << what << ": " << fmt::format("{}", fmt::join(correctness.examples, "; "));
        // No scheme's switch routes close a credit loop with the CAs' routes: on a folded Clos they go
        // up, then down, or turn only at the turn leaf and above it (paths/switch_routes_legal.h);
        // MiKANT's that leave Algorithm 1's order and layered's that fit no layer move to SLs where
        // they fit (layered: on up*/down* trees). Unless the notes say some fit no SL (layered on
        // RhinoBased512Nodes: its CA layers take all 8 VLs).
        const auto notes_say = [&](std::string_view words) {
          return std::ranges::any_of(routed->routing.notes,
                                     [&](const std::string& note) { return note.find(words) != std::string::npos; });
        };
        if (!notes_say("on up*/down* trees neither") && !notes_say("fit no SL up to")) {
          EXPECT_EQ(correctness.switch_credit_loops, 0) << what << ": " << fmt::format("{}", fmt::join(correctness.examples, "; "));
        }
      }
    }
  }
}

// Switches' own routes go on the SL of the LID they go to: where some need
// SLs no CA pair uses (updown moves switch LIDs whose routes would close a
// credit loop), the audit names those SLs apart, so the VLs to enable are
// all of them.
TEST(SwitchTraffic, AuditNamesTheSlsOfSwitchesOwnRoutes) {
  Result<Fabric> ftree = generate_ftree(8, 3);
  ASSERT_TRUE(ftree.ok()) << ftree.status().message();
  const Fabric fabric = with_level_cables(std::move(*ftree), 6, 2);
  Result<RoutedFabric> routed = route_fabric(fabric, "updown", 0);
  ASSERT_TRUE(routed.ok()) << routed.status().message();
  AuditInput input{fabric, routed->detection.levels, routed->lids, routed->routing.lfts, {}, {}, {}};
  input.dest_sl = routed->routing.dest_sl;
  const Correctness correctness = check_correctness(input);
  uint16_t lid_sls = 0;
  for (int lid = 1; lid <= routed->lids.max_lid; ++lid)
    if (routed->lids.owner[lid] >= 0)
      lid_sls |= static_cast<uint16_t>(1u << (input.dest_sl.empty() ? 0 : input.dest_sl[lid]));
  EXPECT_EQ(correctness.switch_sls_used, lid_sls);
  EXPECT_NE(correctness.switch_sls_used & ~correctness.sls_used, 0) << "no switch LID beyond the CA pairs' SLs here";
  EXPECT_EQ(correctness.switch_vls_used, correctness.switch_sls_used);  // no SL2VL given: VL = SL
}

}  // namespace
}  // namespace ftclos
