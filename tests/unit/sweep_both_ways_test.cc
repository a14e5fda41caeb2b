// The plugin and `ftclos route` run one sweep (engine/sweep.h) on two inputs:
// OpenSM's subnet as the plain C struct the plugin fills, turned into a
// Fabric by engine/subnet_fabric.h, and a topology file with LIDs, as the CLI
// reads it. Both must give the same tables, SLs and path bits on every
// ibsim-topos fabric: node order and names differ between the two, what is
// routed must not.
#include "engine/sweep.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/end_nodes.h"
#include "core/fabric_file.h"
#include "engine/subnet_fabric.h"
#include "tables/path_bits.h"
#include "tables/tables_by_guid.h"

namespace ftclos {
namespace {

const std::filesystem::path kSourceRoot = FTCLOS_SOURCE_ROOT;

std::vector<std::filesystem::path> ibsim_fabrics() {
  std::vector<std::filesystem::path> files;
  for (const auto& file : std::filesystem::directory_iterator(kSourceRoot / "ibsim-topos"))
    if (file.path().extension() == ".net") files.push_back(file.path());
  std::ranges::sort(files);
  return files;
}

// The subnet as the plugin's C side fills it from OpenSM (plugin/ftclos_osm.c):
// every node, every cable once, every port that owns LIDs.
struct Subnet {
  std::vector<ftclos_node> nodes;
  std::vector<ftclos_link> links;
  std::vector<ftclos_lid> lids;
  int lmc = 0;

  Subnet(const Fabric& fabric, const LidMap& lid_map) : lmc(lid_map.lmc) {
    for (int x = 0; x < fabric.size(); ++x) {
      const Node& node = fabric.node(x);
      nodes.push_back({node.is_switch() ? FTCLOS_SWITCH : FTCLOS_CA, node.guid, node.num_ports,
                       node.display_name().c_str()});
      for (int p = 1; p <= node.num_ports; ++p) {
        const PortRef peer = node.ports[p].peer;
        if (peer.valid() && PortRef{x, p} < peer) links.push_back({x, p, peer.node, peer.port});
      }
      const int port = node.is_switch() ? 0 : 1;
      lids.push_back({x, port, port_guid(node, port), static_cast<uint16_t>(lid_map.base[x]),
                      static_cast<uint8_t>(node.is_switch() ? 0 : lmc)});
    }
  }

  ftclos_subnet view() const {
    return {nodes.data(), nodes.size(), links.data(), links.size(), lids.data(), lids.size(), lmc, 0};
  }
};

// What a sweep publishes, by GUID: every switch's LFT, the SL of every LID,
// the path-bits lines (one per CA port GUID) in order.
struct Published {
  std::map<uint64_t, std::vector<uint8_t>> lfts;
  std::vector<uint8_t> dest_sl;
  std::vector<std::string> path_bits;

  Published(const Fabric& fabric, const Routing& routing) : dest_sl(routing.dest_sl) {
    for (int x = 0; x < fabric.size(); ++x)
      if (fabric.node(x).is_switch()) lfts[fabric.node(x).guid] = routing.lfts.port[x];
    std::istringstream lines(write_path_bits(fabric, routing));
    for (std::string line; std::getline(lines, line);) path_bits.push_back(line);
    std::ranges::sort(path_bits);
  }
};

// "" when equal, else the first switch GUID and LID whose entries differ and the count.
std::string first_difference(const std::map<uint64_t, std::vector<uint8_t>>& a,
                             const std::map<uint64_t, std::vector<uint8_t>>& b) {
  if (a.size() != b.size()) return fmt::format("{} switches against {}", a.size(), b.size());
  std::string first;
  long differ = 0;
  for (const auto& [guid, table] : a) {
    const std::vector<uint8_t>& other = b.at(guid);
    for (size_t lid = 0; lid < std::max(table.size(), other.size()); ++lid) {
      const int x = lid < table.size() ? table[lid] : -1, y = lid < other.size() ? other[lid] : -1;
      if (x == y) continue;
      if (differ++ == 0) first = fmt::format("switch {} LID {}: port {} against {}", format_guid(guid), lid, x, y);
    }
  }
  return differ == 0 ? "" : fmt::format("{} entries differ, first {}", differ, first);
}

void expect_same_both_ways(const std::filesystem::path& file, const SweepOptions& options, int lmc) {
  SCOPED_TRACE(file.filename().string() + " " + options.scheme + " LMC " + std::to_string(lmc));
  Result<Fabric> fabric = read_end_nodes(file.string());
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  Result<LidMap> lids = assign_lids(*fabric, lmc);
  ASSERT_TRUE(lids.ok()) << lids.status().message();
  const SweepOutcome cli = run_sweep({*fabric, *lids, {}}, options);

  const Subnet subnet(*fabric, *lids);
  Result<SubnetFabric> read = fabric_from_subnet(subnet.view());
  ASSERT_TRUE(read.ok()) << read.status().message();
  const SweepOutcome plugin = run_sweep({read->fabric, read->lids, {}}, options);

  ASSERT_EQ(cli.ok(), plugin.ok()) << cli.message << " | " << plugin.message;
  if (!cli.ok()) {
    EXPECT_EQ(cli.message, plugin.message);
    return;
  }
  const Published by_cli(*fabric, cli.sweep.routing), by_plugin(read->fabric, plugin.sweep.routing);
  EXPECT_EQ(first_difference(by_cli.lfts, by_plugin.lfts), "");
  EXPECT_EQ(by_cli.dest_sl, by_plugin.dest_sl);
  EXPECT_EQ(by_cli.path_bits, by_plugin.path_bits);
  EXPECT_EQ(cli.sweep.routing.chosen, plugin.sweep.routing.chosen);
  EXPECT_EQ(cli.sweep.routing.notes, plugin.sweep.routing.notes);
  EXPECT_EQ(cli.sweep.check.unreachable + cli.sweep.check.loops, plugin.sweep.check.unreachable + plugin.sweep.check.loops);
}

TEST(SweepBothWays, EveryIbsimFabricRoutesAlikeFromTheSubnetStructAndTheFile) {
  const std::vector<std::filesystem::path> files = ibsim_fabrics();
  ASSERT_GE(files.size(), 10u);
  for (const auto& file : files) {
    SweepOptions options;  // the plugin's defaults: auto, every VL, unreachable refused
    options.allow_unreachable = true;
    expect_same_both_ways(file, options, 0);
    expect_same_both_ways(file, options, 2);
  }
}

// A repair sweep (last tables given, polish within repair_polish_work), as
// `ftclos route --previous` runs it on files and the plugin on the subnet
// with the last tables by GUID (engine/last_sweep.h): the same tables, and
// the same entries and blocks counted.
TEST(SweepBothWays, ARepairAfterACutCableRoutesAlikeFromTheSubnetStructAndTheFile) {
  for (const char* name : {"rfc-8-16-3-seed1.net", "ft-8-3.net"}) {
    SCOPED_TRACE(name);
    Result<Fabric> fabric = read_end_nodes((kSourceRoot / "ibsim-topos" / name).string());
    ASSERT_TRUE(fabric.ok()) << fabric.status().message();
    const LidMap lids = *assign_lids(*fabric, 0);
    SweepOptions options;
    const SweepOutcome before = run_sweep({*fabric, lids, {}}, options);
    ASSERT_TRUE(before.ok()) << before.message;
    Fabric cut = *fabric;
    int spine = cut.size() - 1;  // the last switch whose port 1 goes to a switch
    while (spine >= 0 && !(cut.node(spine).is_switch() && cut.peer({spine, 1}).valid() &&
                           cut.node(cut.peer({spine, 1}).node).is_switch()))
      --spine;
    ASSERT_GE(spine, 0);
    cut.disconnect({spine, 1});
    const SweepOutcome cli = run_sweep({cut, lids, {}, &before.sweep.routing.lfts}, options);

    const Subnet subnet(cut, lids);
    Result<SubnetFabric> read = fabric_from_subnet(subnet.view());
    ASSERT_TRUE(read.ok()) << read.status().message();
    const Lfts previous = TablesByGuid(*fabric, lids, before.sweep.routing.lfts).on(read->fabric, read->lids);
    const SweepOutcome plugin = run_sweep({read->fabric, read->lids, {}, &previous}, options);

    ASSERT_TRUE(cli.ok() && plugin.ok()) << cli.message << " | " << plugin.message;
    EXPECT_EQ(first_difference(Published(cut, cli.sweep.routing).lfts, Published(read->fabric, plugin.sweep.routing).lfts), "");
    EXPECT_GT(cli.sweep.changed, 0);
    EXPECT_EQ(cli.sweep.changed, plugin.sweep.changed);
    EXPECT_EQ(cli.sweep.changed_blocks, plugin.sweep.changed_blocks);
  }
}

}  // namespace
}  // namespace ftclos
