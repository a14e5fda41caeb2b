// ibdm .topo fabrics built from IBNL system files: naming, sub-systems and
// board modifiers, link rates, every error with its file and line, and the
// vendored ibutils fabrics in ibsim-topos/ibutils/.
#include "core/topo_file.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "core/fabric_file.h"
#include "core/ibnl.h"
#include "core/netfile.h"

namespace ftclos {
namespace {

const std::filesystem::path kSourceRoot = FTCLOS_SOURCE_ROOT;

// A 2-port HCA under two names, and a 4-port switch: single-node systems.
constexpr std::string_view kCougar = "TOPSYSTEM Cougar,MT23108\n\nNODE CA 2 MT23108 U1\n   1 -> P1\n   2 -> P2\n";
constexpr std::string_view kSwitch = "TOPSYSTEM Sw4\nNODE SW 4 MT43132 U1\n 1 -> P1\n 2 -> P2\n 3 -> P3\n 4 -> P4\n";

// A chassis: two leaf boards (a 12x variant with a 2-chip board) and a spine
// board; ports exposed through boards (L1/P1) and by the spine chip itself.
constexpr std::string_view kChassis =
    "SYSTEM LEAF,LEAF:4x\n"
    "NODE SW 4 MT43132 U1\n"
    "   1 -> P1\n"
    "   2 -> P2\n"
    "   3 -> P3\n"
    "SYSTEM LEAF:12x\n"
    "NODE SW 4 MT43132 U1\n"
    "   1 -12x-> P1\n"
    "   2 -> U2 1\n"
    "NODE SW 4 MT43132 U2\n"
    "   1 -> U1 2\n"
    "   2 -> P2\n"
    "SYSTEM SPINE\n"
    "NODE SW 4 MT43132 U1\n"
    "   1 -> P1\n"
    "   2 -> P2\n"
    "   3 -> P3\n"
    "TOPSYSTEM Chassis,CH\n"
    "leaf1/U1=isChaBma\n"
    "SUBSYSTEM LEAF leaf1\n"
    "   P1 -4x-5G-> spine P1\n"
    "   P2 -> L1/P1\n"
    "   P3 -> L1/P2\n"
    "SUBSYSTEM LEAF leaf2\n"
    "   P1 -8x-10G-> spine P2\n"
    "   P2 -> L2/P1\n"
    "SUBSYSTEM SPINE spine\n"
    "   P1 -4x-5G-> leaf1 P1\n"
    "   P3 -> S/P1\n";

class TopoFile : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(testing::TempDir()) / fmt::format("topo_file_test_{}", getpid());
    std::filesystem::create_directories(dir_);
    Write("Cougar.ibnl", kCougar);
    Write("Sw4.ibnl", kSwitch);
    Write("Chassis.ibnl", kChassis);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, std::string_view text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  Result<Fabric> Parse(std::string_view topo) { return parse_topo_file(topo, "t.topo", {dir_.string()}); }
  std::string ErrorOf(std::string_view topo) {
    Result<Fabric> fabric = Parse(topo);
    return fabric.ok() ? "no error" : fabric.status().message();
  }
  std::string Dir() const { return dir_.string(); }

  std::filesystem::path dir_;
};

/// `name[port]` of what is cabled to `name`[port], or "none".
std::string PeerOf(const Fabric& fabric, std::string_view name, int port) {
  std::optional<int> index = fabric.find(name);
  if (!index) return "no node " + std::string(name);
  const PortRef peer = fabric.peer({*index, port});
  return peer.valid() ? fmt::format("{}[{}]", fabric.node(peer.node).name, peer.port) : "none";
}

std::string RateOf(const Fabric& fabric, std::string_view name, int port) {
  std::optional<int> index = fabric.find(name);
  return index ? format_link_rate(fabric.port({*index, port}).rate) : "no node";
}

TEST_F(TopoFile, SingleNodeSystemsAreNamedAfterTheSystem) {
  Result<Fabric> fabric = Parse(
      "# two hosts on a switch\n"
      "Sw4 S-1\n"
      "   P1 -> MT23108 H-1 P1\n"
      "   P2 -> Cougar H-2 P2\n"
      "\n"
      "MT23108 H-1\n"
      "   P1 -> Sw4 S-1 P1\n");
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  ASSERT_EQ(fabric->size(), 3);
  // First mention order: S-1, then H-1 (a cable's peer), then H-2.
  EXPECT_EQ(fabric->node(0).name, "S-1");
  EXPECT_TRUE(fabric->node(0).is_switch());
  EXPECT_EQ(fabric->node(0).num_ports, 4);
  EXPECT_EQ(fabric->node(1).name, "H-1");
  EXPECT_EQ(fabric->node(1).type, NodeType::kCa);
  EXPECT_EQ(fabric->node(2).name, "H-2");
  EXPECT_EQ(PeerOf(*fabric, "S-1", 1), "H-1[1]");
  EXPECT_EQ(PeerOf(*fabric, "S-1", 2), "H-2[2]");
  EXPECT_EQ(PeerOf(*fabric, "H-2", 1), "none");
  // GUIDs come from the names, as for a GUID-less net file.
  Result<Fabric> same = parse_netfile("Switch 4 \"S-1\"\n\nHca 2 \"H-1\"\n\nHca 2 \"H-2\"\n", "n.net");
  ASSERT_TRUE(same.ok()) << same.status().message();
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(fabric->node(i).guid, same->node(i).guid) << fabric->node(i).name;
    EXPECT_EQ(fabric->node(i).guid >> 56, 0x02u);
  }
  EXPECT_EQ(fabric->node(0).ports[0].guid, fabric->node(0).guid);
}

TEST_F(TopoFile, SubSystemsAreExpandedAndNamedByBoardPath) {
  Result<Fabric> fabric = Parse(
      "CH SW1\n"
      "   L1/P1 -> MT23108 H-1 P1\n"
      "   L2/P1 -> MT23108 H-2 P1\n"
      "   S/P1 -> MT23108 H-3 P1\n");
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  EXPECT_EQ(fabric->count(NodeType::kSwitch), 3);
  EXPECT_EQ(PeerOf(*fabric, "SW1/leaf1/U1", 1), "SW1/spine/U1[1]");  // leaf1 P1 -> spine P1
  EXPECT_EQ(PeerOf(*fabric, "SW1/leaf2/U1", 1), "SW1/spine/U1[2]");
  EXPECT_EQ(PeerOf(*fabric, "SW1/leaf1/U1", 2), "H-1[1]");  // L1/P1 is leaf1's P2, U1 port 2
  EXPECT_EQ(PeerOf(*fabric, "SW1/leaf1/U1", 3), "none");    // L1/P2: exposed, not cabled
  EXPECT_EQ(PeerOf(*fabric, "SW1/spine/U1", 3), "H-3[1]");
}

TEST_F(TopoFile, BoardModifiersDropOrVaryBoards) {
  Result<Fabric> fabric = Parse(
      "CH SW1 CFG: leaf1=R, leaf2=12x\n"
      "   L2/P1 -> MT23108 H-2 P1\n");
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  EXPECT_FALSE(fabric->find("SW1/leaf1/U1"));
  EXPECT_EQ(PeerOf(*fabric, "SW1/spine/U1", 1), "none");             // its link to leaf1 is gone
  EXPECT_EQ(PeerOf(*fabric, "SW1/leaf2/U1", 1), "SW1/spine/U1[2]");  // the 12x board's P1
  EXPECT_EQ(PeerOf(*fabric, "SW1/leaf2/U1", 2), "SW1/leaf2/U2[1]");
  EXPECT_EQ(PeerOf(*fabric, "SW1/leaf2/U2", 2), "H-2[1]");

  // The 12x board exposes no P3: the port the default board gives L1/P2 is gone.
  EXPECT_EQ(ErrorOf("CH SW1 CFG: leaf2=12x\n   L2/P1 -> MT23108 H-2 P1\n\nCH SW2 CFG: leaf1=12x\n"
                    "   L1/P2 -> MT23108 H-1 P1\n"),
            fmt::format("t.topo:5: SW2 (CH, {}/Chassis.ibnl) has no port L1/P2", Dir()));
}

TEST_F(TopoFile, ReadsLinkRates) {
  EXPECT_EQ(parse_link_arrow("->"), (LinkRate{4, LinkSpeed::kSdr}));
  EXPECT_EQ(parse_link_arrow("-12x->"), (LinkRate{12, LinkSpeed::kSdr}));
  EXPECT_EQ(parse_link_arrow("-8X-5G->"), (LinkRate{8, LinkSpeed::kDdr}));
  EXPECT_EQ(parse_link_arrow("-1x-2.5G->"), (LinkRate{1, LinkSpeed::kSdr}));
  EXPECT_EQ(parse_link_arrow("-10G->"), (LinkRate{4, LinkSpeed::kQdr}));
  for (std::string_view bad : {"-3x->", "-4x-", "-5G-4x->", "-4x--5G->", "-->", "->>", "-4x-5G-10G->", "-5g->"})
    EXPECT_FALSE(parse_link_arrow(bad)) << bad;

  Result<Fabric> fabric = Parse(
      "CH SW1\n"
      "   L1/P1 -12X-> MT23108 H-1 P1\n"
      "   L1/P2 -5G-> MT23108 H-2 P1\n"
      "   L2/P1 -> MT23108 H-3 P1\n"
      "\n"
      "MT23108 H-1\n"
      "   P1 -4x-> CH SW1 L1/P1\n");
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  EXPECT_EQ(RateOf(*fabric, "H-1", 1), "4xSDR");  // declared twice: the slower rate
  EXPECT_EQ(RateOf(*fabric, "SW1/leaf1/U1", 2), "4xSDR");
  EXPECT_EQ(RateOf(*fabric, "H-2", 1), "4xDDR");
  EXPECT_EQ(RateOf(*fabric, "SW1/leaf1/U1", 3), "4xDDR");
  EXPECT_EQ(RateOf(*fabric, "H-3", 1), "4xSDR");
  // Links inside a system run at their IBNL lines' rate: leaf1-spine at 4x 5G, leaf2-spine at 8x 10G.
  EXPECT_EQ(RateOf(*fabric, "SW1/spine/U1", 1), "4xDDR");
  EXPECT_EQ(RateOf(*fabric, "SW1/spine/U1", 2), "8xQDR");
}

TEST_F(TopoFile, FindsTypesByTopsystemNameInAnyDirectory) {
  const std::filesystem::path other = dir_ / "other";
  std::filesystem::create_directories(other);
  std::ofstream(other / "anything.ibnl") << "TOPSYSTEM Other,OT\nNODE SW 2 X U1\n 1 -> P1\n";
  Result<Fabric> fabric =
      parse_topo_file("OT O-1\n  P1 -> Sw4 S-1 P1\n", "t.topo", {Dir() + "/none", Dir(), other.string()});
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  EXPECT_EQ(PeerOf(*fabric, "O-1", 1), "S-1[1]");
}

TEST_F(TopoFile, ReportsTopoErrorsWithFileAndLine) {
  EXPECT_EQ(
      ErrorOf("# c\nRhino R-1\n"),
      fmt::format("t.topo:2: unknown system type Rhino: no .ibnl file in {} has a TOPSYSTEM line naming it", Dir()));
  EXPECT_EQ(ErrorOf("Sw4 S-1\n   P9 -> MT23108 H-1 P1\n"),
            fmt::format("t.topo:2: S-1 (Sw4, {}/Sw4.ibnl) has no port P9", Dir()));
  EXPECT_EQ(ErrorOf("Sw4 S-1\n   P1 -> MT23108 H-1 P1\n   P2 -> MT23108 H-1 P1\n"),
            "t.topo:3: cable S-1 P2 -> H-1 P1: port 1 of \"H-1\" is already cabled to \"S-1\"[1] at t.topo:2");
  EXPECT_EQ(ErrorOf("Sw4 S-1\n   P1 -> MT23108 H-1 P1\n\nSw4 S-2\n   P1 -> Cougar S-1 P1\n"),
            "t.topo:5: system S-1 is a Cougar here but a Sw4 at line 1");
  EXPECT_EQ(ErrorOf("CH SW1 CFG: leaf1=R\n   L1/P1 -> MT23108 H-1 P1\n"),
            "t.topo:2: port L1/P1 of SW1 is on board leaf1, which its CFG removes (line 1)");
  EXPECT_EQ(ErrorOf("CH SW1 CFG: leaf3=R\n"),
            "t.topo:1: CFG leaf3=R: Chassis has no board leaf3; expected one of: leaf1, leaf2, spine");
  EXPECT_EQ(ErrorOf("CH SW1 CFG: leaf1=2x\n"),
            fmt::format("t.topo:1: CFG leaf1=2x: {}/Chassis.ibnl has no SYSTEM LEAF:2x; expected R, X, Removed or a "
                        "variant of LEAF",
                        Dir()));
  EXPECT_EQ(ErrorOf("CH SW1 CFG: leaf1\n"), "t.topo:1: expected board=modifier in CFG, got \"leaf1\"");
  EXPECT_EQ(ErrorOf("CH SW1\n\nCH SW1 CFG: leaf1=R\n"),
            "t.topo:3: system SW1 is declared again with another type or CFG (first at line 1)");
  EXPECT_EQ(ErrorOf("\n   P1 -> MT23108 H-1 P1\n"),
            "t.topo:2: cable line outside a system block; expected a system line TYPE NAME before it");
  EXPECT_EQ(ErrorOf("Sw4 S-1\n   P1 -3x-> MT23108 H-1 P1\n"),
            "t.topo:2: expected an arrow ->, -4x->, -4x-5G-> or -5G-> after P1, got \"-3x->\"");
  EXPECT_EQ(ErrorOf("Sw4 S-1\n   P1 -> MT23108 H-1\n"), "t.topo:2: expected P1 -> TYPE NAME PORT");
  EXPECT_EQ(ErrorOf("Sw4 S-1 extra\n"),
            "t.topo:1: expected a system line TYPE NAME [CFG: board=modifier,...] or a cable line "
            "PORT -> TYPE NAME PORT");
  EXPECT_EQ(ErrorOf("Sw4 S/1\n"),
            "t.topo:1: \"S/1\": system types and names have no '/' (it separates a system's boards in node names)");
}

TEST_F(TopoFile, ReportsIbnlErrorsWithFileAndLine) {
  const std::string bad = Write("Bad.ibnl", "TOPSYSTEM Bad\nNODE SW 8 MT43132 U1\n   9 -> P1\n");
  EXPECT_EQ(ErrorOf("\n\nBad B-1\n"),
            fmt::format("{}:3: port 9 is above the port count 8 of node U1 (the definition of Bad, t.topo:3)", bad));

  auto ibnl_error = [](std::string_view text) {
    Result<IbnlFile> file = parse_ibnl(text, "x.ibnl");
    return file.ok() ? "no error" : file.status().message();
  };
  EXPECT_EQ(ibnl_error("TOPSYSTEM T\nNODE SW 8 M U1\n 1 -> U2 9\nNODE SW 8 M U2\n"),
            "x.ibnl:3: expected a port 1..8 of node U2, got \"9\"");
  EXPECT_EQ(ibnl_error("TOPSYSTEM T\nNODE SW 8 M U1\n 1 -> U3 1\n"),
            "x.ibnl:3: no instance U3 in TOPSYSTEM T (line 1)");
  EXPECT_EQ(ibnl_error("TOPSYSTEM T\nNODE SW 8 M U1\n 1 -> P1\n 1 -> P2\n"),
            "x.ibnl:4: port 1 of U1 is listed twice (first at line 3)");
  EXPECT_EQ(ibnl_error("TOPSYSTEM T\nNODE SW 8 M U1\n 1 -> P1\n 2 -> P1\n"),
            "x.ibnl:4: system port P1 is defined twice (first at line 3)");
  EXPECT_EQ(ibnl_error("TOPSYSTEM T\nSUBSYSTEM LEAF leaf1\n"),
            "x.ibnl:2: no SYSTEM LEAF in this file; expected one for sub-system leaf1");
  EXPECT_EQ(ibnl_error("TOPSYSTEM T\nNODE XX 8 M U1\n"),
            "x.ibnl:2: expected a node type SW, CA or HCA after NODE, got \"XX\"");
  EXPECT_EQ(ibnl_error("TOPSYSTEM T\nNODE SW 0 M U1\n"),
            "x.ibnl:2: expected a port count 1..254 after NODE SW, got \"0\"");
  EXPECT_EQ(ibnl_error("TOPSYSTEM T\nNODE SW 8 M U1\n 1 => P1\n"),
            "x.ibnl:3: expected NODE, SUBSYSTEM or a link line PORT -> TARGET, got \"1\"");
  EXPECT_EQ(ibnl_error("SYSTEM S\nNODE SW 8 M U1\n"), "x.ibnl:2: expected a TOPSYSTEM section; the file has none");
  EXPECT_EQ(ibnl_error("TOPSYSTEM T\nTOPSYSTEM U\n"),
            "x.ibnl:2: a second TOPSYSTEM; expected one per file (the first is at line 1)");
  EXPECT_EQ(ibnl_error("NODE SW 8 M U1\n"), "x.ibnl:1: expected SYSTEM or TOPSYSTEM, got \"NODE\"");
}

// The fabrics vendored from ibutils (ibsim-topos/ibutils/README.md). Counts
// derived from the files by hand, not by this code:
struct Expected {
  int hosts, switches, cables;
};
const std::map<std::string, Expected> kVendored = {
    // Gnu: a main board of 4 chips and 2 one-chip leaf boards; 16 hosts, 8
    // links inside main, 8 between main and the leaves.
    {"FullGnu.topo", {16, 6, 16 + 8 + 8}},
    // 17 one-chip MTS2400; 384 cable lines: 128 to hosts, 128 between
    // switches listed from both ends.
    {"IS3-128.topo", {128, 17, 128 + 128}},
    // Gazelle: 8 leaf boards of 7 chips (12 links inside each) and 4 spine
    // boards of 3 chips, 12 links from each leaf board to the spines.
    {"SingleGazelle.topo", {96, 8 * 7 + 4 * 3, 96 + 8 * 12 + 8 * 12}},
    // CFG drops leaf1, leaf7, spine1: each leaf left loses its 3 links to spine1.
    {"PartialGazelle.topo", {71 + 1, 6 * 7 + 3 * 3, 72 + 6 * 12 + 6 * 9}},
    // MTS14400: 12 one-chip leaf boards and 2 spine boards of 3 chips, 144
    // links inside; 1536 cable lines: 512 to hosts, 512 between chassis
    // listed from both ends.
    {"RhinoBased512Nodes.topo", {512, 12 * 18, 512 + 512 + 12 * 144}},
    // 62 MTS2400 and 3 MTS14400; 1844 cable lines: 1100 to hosts, 372
    // between switches listed from both ends.
    {"RhinoReindeer1100.topo", {1100, 62 + 3 * 18, 1100 + 372 + 3 * 144}},
};

TEST(VendoredTopo, EveryFileImportsWithTheCountsOfItsSystems) {
  const std::filesystem::path dir = kSourceRoot / "ibsim-topos/ibutils";
  std::set<std::string> seen;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".topo") continue;
    const std::string name = entry.path().filename().string();
    seen.insert(name);
    ASSERT_TRUE(kVendored.contains(name)) << name << " has no expected counts here";
    Result<Fabric> fabric = read_topo_file(entry.path().string(), {(dir / "ibnl").string()});
    ASSERT_TRUE(fabric.ok()) << fabric.status().message();
    const Expected& expected = kVendored.at(name);
    EXPECT_EQ(fabric->count(NodeType::kCa), expected.hosts) << name;
    EXPECT_EQ(fabric->count(NodeType::kSwitch), expected.switches) << name;
    int ends = 0;
    std::set<uint64_t> guids;
    for (int i = 0; i < fabric->size(); ++i) {
      const Node& node = fabric->node(i);
      EXPECT_TRUE(guids.insert(node.guid).second) << name << ": GUID of " << node.name << " twice";
      for (int p = 1; p <= node.num_ports; ++p) {
        const PortRef peer = node.ports[p].peer;
        if (!peer.valid()) continue;
        ++ends;
        EXPECT_EQ(fabric->peer(peer), (PortRef{i, p})) << name << ": " << node.name << "[" << p << "]";
        EXPECT_EQ(fabric->port(peer).rate, node.ports[p].rate) << name << ": " << node.name << "[" << p << "]";
        EXPECT_TRUE(node.ports[p].rate.known()) << name << ": " << node.name << "[" << p << "]";
      }
    }
    EXPECT_EQ(ends, 2 * expected.cables) << name;
    // What import-topo writes reads back to the same fabric.
    Result<Fabric> reread = parse_netfile(write_netfile(*fabric), name);
    ASSERT_TRUE(reread.ok()) << reread.status().message();
    EXPECT_EQ(write_netfile(*reread), write_netfile(*fabric)) << name;
    // Every command reads the .topo itself (its IBNL files in ibnl/ beside it), as import-topo builds it.
    Result<FabricFile> read = read_fabric_file(entry.path().string());
    ASSERT_TRUE(read.ok()) << read.status().message();
    EXPECT_EQ(read->format, "ibdm .topo") << name;
    EXPECT_TRUE(read->warnings.empty()) << name << ": " << read->warnings.front();
    EXPECT_EQ(write_netfile(read->fabric), write_netfile(*fabric)) << name;
  }
  EXPECT_EQ(seen.size(), kVendored.size());
}

TEST(VendoredTopo, RatesOfTheCableLinesArrive) {
  const std::filesystem::path dir = kSourceRoot / "ibsim-topos/ibutils";
  Result<Fabric> fabric = read_topo_file((dir / "RhinoBased512Nodes.topo").string(), {(dir / "ibnl").string()});
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  EXPECT_EQ(RateOf(*fabric, "H-1", 1), "8xDDR");   // L1/P1 -8X-5G-> MT23108 H-1 P1
  EXPECT_EQ(RateOf(*fabric, "H-2", 1), "12xSDR");  // L2/P1 -12X-> MT23108 H-2 P1
  EXPECT_EQ(RateOf(*fabric, "H-3", 1), "4xSDR");
}

}  // namespace
}  // namespace ftclos
