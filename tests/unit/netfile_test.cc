#include "core/netfile.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "core/end_nodes.h"
#include "core/fabric_file.h"

namespace ftclos {
namespace {

// The error without the quoted line a line's own mistake ends with (`, got
// "..."`, which Netfile.SyntaxErrorsQuoteTheLineCut checks): what was expected.
std::string ErrorOf(std::string_view text) {
  Result<Fabric> fabric = parse_netfile(text, "t.net");
  if (fabric.ok()) return "no error";
  const std::string& message = fabric.status().message();
  return message.substr(0, message.rfind(", got \""));
}

const Node& NodeNamed(const Fabric& fabric, std::string_view name) {
  std::optional<int> index = fabric.find(name);
  EXPECT_TRUE(index.has_value()) << "no node " << name;
  return fabric.node(index.value_or(0));
}

/// `name[port]` of what is cabled to `name`[port], or "none".
std::string PeerOf(const Fabric& fabric, std::string_view name, int port) {
  std::optional<int> index = fabric.find(name);
  if (!index) return "no node " + std::string(name);
  PortRef peer = fabric.peer({*index, port});
  return peer.valid() ? fmt::format("{}[{}]", fabric.node(peer.node).name, peer.port) : "none";
}

// Nodes are compared by name: the writer puts switches before CAs.
void ExpectSameFabric(const Fabric& expected, const Fabric& actual) {
  ASSERT_EQ(expected.size(), actual.size());
  for (const Node& want : expected.nodes()) {
    SCOPED_TRACE(want.name);
    const Node& got = NodeNamed(actual, want.name);
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.type, want.type);
    EXPECT_EQ(got.description, want.description);
    EXPECT_EQ(got.guid, want.guid);
    ASSERT_EQ(got.num_ports, want.num_ports);
    for (int p = 0; p <= want.num_ports; ++p) {
      SCOPED_TRACE(p);
      EXPECT_EQ(PeerOf(actual, want.name, p), PeerOf(expected, want.name, p));
      EXPECT_EQ(got.ports[p].guid, want.ports[p].guid);
      EXPECT_EQ(got.ports[p].lid, want.ports[p].lid);
      EXPECT_EQ(got.ports[p].lmc, want.ports[p].lmc);
    }
  }
}

// From ibsim's net-examples/net, with a link width option added.
constexpr std::string_view kIbsimExample = R"(# Net configuration file example
#
# The first port in the file is used as the SM port.
#

Switch	8 "Switch1"
[1]	"Hca1"[1]
[2]	"Hca2"[2]
[3]	"Switch2"[3]	w=12
[4]	"Switch2"[4]

Switch 8 "Switch2"
[3]	"Switch1"[3]	w=12
[4]	"Switch1"[4]

Hca	2 "Hca1"
[1]	"Switch1"[1]

Hca	2 "Hca2"
[2]	"Switch1"[2]
)";

TEST(Netfile, ReadsIbsimExample) {
  Result<Fabric> fabric = parse_netfile(kIbsimExample, "net");
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  EXPECT_EQ(fabric->count(NodeType::kSwitch), 2);
  EXPECT_EQ(fabric->count(NodeType::kCa), 2);
  EXPECT_EQ(fabric->switch_links(), 2);
  EXPECT_EQ(NodeNamed(*fabric, "Switch2").num_ports, 8);
  EXPECT_EQ(NodeNamed(*fabric, "Hca1").num_ports, 2);
  EXPECT_EQ(NodeNamed(*fabric, "Hca1").type, NodeType::kCa);
  EXPECT_EQ(PeerOf(*fabric, "Switch1", 1), "Hca1[1]");
  EXPECT_EQ(PeerOf(*fabric, "Switch1", 2), "Hca2[2]");
  EXPECT_EQ(PeerOf(*fabric, "Switch2", 4), "Switch1[4]");
  EXPECT_EQ(PeerOf(*fabric, "Hca1", 2), "none");
  EXPECT_EQ(PeerOf(*fabric, "Switch1", 5), "none");
  EXPECT_EQ(NodeNamed(*fabric, "Switch1").description, "");
}

TEST(Netfile, NetWithoutGuidLinesGetsGuidsFromNames) {
  Result<Fabric> fabric = parse_netfile(kIbsimExample, "net");
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  Result<Fabric> again = parse_netfile(kIbsimExample, "net");
  ASSERT_TRUE(again.ok());
  std::set<uint64_t> guids;
  for (int i = 0; i < fabric->size(); ++i) {
    const Node& node = fabric->node(i);
    EXPECT_NE(node.guid, 0u) << node.name;
    EXPECT_EQ(node.guid & 0xff, 0u) << node.name;  // room for CA port numbers
    EXPECT_EQ(node.guid, again->node(i).guid) << node.name;
    guids.insert(node.guid);
  }
  EXPECT_EQ(guids.size(), 4u);
  EXPECT_EQ(NodeNamed(*fabric, "Switch1").ports[0].guid, NodeNamed(*fabric, "Switch1").guid);
  // The GUID follows the name, not the node's place in the file.
  Result<Fabric> renamed = parse_netfile(std::regex_replace(std::string(kIbsimExample), std::regex("Hca1"), "HcaX"), "net");
  ASSERT_TRUE(renamed.ok());
  EXPECT_EQ(NodeNamed(*renamed, "Switch1").guid, NodeNamed(*fabric, "Switch1").guid);
  EXPECT_NE(NodeNamed(*renamed, "HcaX").guid, NodeNamed(*fabric, "Hca1").guid);
}

TEST(Netfile, DuplicateGuidsAreAnError) {
  const Result<Fabric> fabric = parse_netfile(R"(switchguid=0x10
Switch 2 "a"
[1] "b"[1]

switchguid=0x10
Switch 2 "b"
[1] "a"[1]
)", "dup.net");
  ASSERT_FALSE(fabric.ok());
  EXPECT_EQ(fabric.status().message(),
            "dup.net:6: node GUID 0x0000000000000010 of \"b\" is also the node GUID of \"a\" at dup.net:2; expected "
            "every GUID to name one node");
}

// ibnetdiscover's output for the example above, as ibsim serves it.
constexpr std::string_view kIbnetdiscoverOutput = R"(#
# Topology file: generated on Sun Nov 22 00:36:16 2026
#
# Initiated from node 0000000000100000 port 0000000000100001

vendid=0x0
devid=0x0
sysimgguid=0x200001
switchguid=0x200001(200001)
Switch	8 "S-0000000000200001"		# "Switch2" base port 0 lid 0 lmc 0
[3]	"S-0000000000200000"[3]		# "Switch1" lid 0 4xSDR
[4]	"S-0000000000200000"[4]		# "Switch1" lid 0 4xSDR

vendid=0x0
devid=0x0
sysimgguid=0x200000
switchguid=0x200000(200000)
Switch	8 "S-0000000000200000"		# "Switch1" base port 0 lid 0 lmc 0
[1]	"H-0000000000100000"[1](100001) 		# "Hca1" lid 0 4xSDR
[2]	"H-0000000000100003"[2](100005) 		# "Hca2" lid 0 4xSDR
[3]	"S-0000000000200001"[3]		# "Switch2" lid 0 4xSDR
[4]	"S-0000000000200001"[4]		# "Switch2" lid 0 4xSDR

vendid=0x0
devid=0x0
sysimgguid=0x100003
caguid=0x100003
Ca	2 "H-0000000000100003"		# "Hca2"
[2](100005) 	"S-0000000000200000"[2]		# lid 0 lmc 0 "Switch1" lid 0 4xSDR

vendid=0x0
devid=0x0
sysimgguid=0x100000
caguid=0x100000
Ca	2 "H-0000000000100000"		# "Hca1"
[1](100001) 	"S-0000000000200000"[1]		# lid 0 lmc 0 "Switch1" lid 0 4xSDR
)";

TEST(Netfile, ReadsIbnetdiscoverOutput) {
  Result<Fabric> fabric = parse_netfile(kIbnetdiscoverOutput, "ibnetdiscover.out");
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  EXPECT_EQ(fabric->size(), 4);
  EXPECT_EQ(fabric->switch_links(), 2);
  const Node& switch2 = NodeNamed(*fabric, "S-0000000000200001");
  EXPECT_EQ(switch2.description, "Switch2");
  EXPECT_EQ(switch2.guid, 0x200001u);
  EXPECT_EQ(switch2.ports[0].guid, 0x200001u);
  const Node& hca2 = NodeNamed(*fabric, "H-0000000000100003");
  EXPECT_EQ(hca2.type, NodeType::kCa);
  EXPECT_EQ(hca2.description, "Hca2");
  EXPECT_EQ(hca2.guid, 0x100003u);
  EXPECT_EQ(hca2.ports[2].guid, 0x100005u);
  EXPECT_EQ(hca2.ports[1].guid, 0u);
  EXPECT_EQ(NodeNamed(*fabric, "H-0000000000100000").ports[1].guid, 0x100001u);
  EXPECT_EQ(PeerOf(*fabric, "H-0000000000100003", 2), "S-0000000000200000[2]");
  EXPECT_EQ(PeerOf(*fabric, "S-0000000000200001", 3), "S-0000000000200000[3]");
}

// Real cluster flavour: enhanced port 0, LIDs and LMCs, HDR, and a port
// GUID and rate that only the switch side gives.
constexpr std::string_view kClusterOutput = R"(switchguid=0x2c90300a1b2c0(2c90300a1b2c0)
Switch	36 "S-0002c90300a1b2c0"		# "MF0;leaf01:MSB7700/U1" enhanced port 0 lid 12 lmc 0
[1]	"H-0002c90300fe0010"[1](2c90300fe0011) 		# "node001 HCA-1" lid 6 4xHDR
[2]	"H-0002c90300fe0020"[1](2c90300fe0021) 		# "node002 HCA-1" lid 7 4xHDR
[36]	"S-0002c90300a1b2d0"[1]		# "MF0;spine01:MSB7700/U1" lid 13 4xHDR

switchguid=0x2c90300a1b2d0(2c90300a1b2d0)
Switch	36 "S-0002c90300a1b2d0"		# "MF0;spine01:MSB7700/U1" base port 0 lid 13 lmc 1
[1]	"S-0002c90300a1b2c0"[36]		# "MF0;leaf01:MSB7700/U1" lid 12 4xHDR

caguid=0x2c90300fe0010
Ca	1 "H-0002c90300fe0010"		# "node001 HCA-1"
[1](2c90300fe0011) 	"S-0002c90300a1b2c0"[1]		# lid 6 lmc 2 "MF0;leaf01:MSB7700/U1" lid 12 4xHDR

caguid=0x2c90300fe0020
Ca	1 "H-0002c90300fe0020"		# "node002 HCA-1"
[1]	"S-0002c90300a1b2c0"[2]
)";

TEST(Netfile, ReadsLidsAndPortGuidsOfClusterOutput) {
  Result<Fabric> fabric = parse_netfile(kClusterOutput, "cluster.net");
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  const Node& leaf = NodeNamed(*fabric, "S-0002c90300a1b2c0");
  EXPECT_EQ(leaf.description, "MF0;leaf01:MSB7700/U1");
  EXPECT_EQ(leaf.guid, 0x2c90300a1b2c0u);
  EXPECT_EQ(leaf.ports[0].lid, 12);
  EXPECT_EQ(leaf.ports[0].lmc, 0);
  EXPECT_EQ(leaf.ports[1].lid, 0);  // "lid 6" on a switch port line is the peer's
  const Node& spine = NodeNamed(*fabric, "S-0002c90300a1b2d0");
  EXPECT_EQ(spine.ports[0].lid, 13);
  EXPECT_EQ(spine.ports[0].lmc, 1);
  const Node& node001 = NodeNamed(*fabric, "H-0002c90300fe0010");
  EXPECT_EQ(node001.description, "node001 HCA-1");
  EXPECT_EQ(node001.ports[1].lid, 6);
  EXPECT_EQ(node001.ports[1].lmc, 2);
  EXPECT_EQ(node001.ports[1].guid, 0x2c90300fe0011u);
  const Node& node002 = NodeNamed(*fabric, "H-0002c90300fe0020");
  EXPECT_EQ(node002.guid, 0x2c90300fe0020u);
  EXPECT_EQ(node002.ports[1].guid, 0x2c90300fe0021u);
  EXPECT_EQ(node002.ports[1].lid, 0);
  EXPECT_EQ(PeerOf(*fabric, "H-0002c90300fe0020", 1), "S-0002c90300a1b2c0[2]");
  EXPECT_EQ(PeerOf(*fabric, "S-0002c90300a1b2c0", 36), "S-0002c90300a1b2d0[1]");
}

TEST(Netfile, ReadsLinkRatesOnBothEnds) {
  Result<Fabric> fabric = parse_netfile(kClusterOutput, "cluster.net");
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  const LinkRate hdr{4, LinkSpeed::kHdr};
  EXPECT_EQ(NodeNamed(*fabric, "S-0002c90300a1b2c0").ports[36].rate, hdr);
  EXPECT_EQ(NodeNamed(*fabric, "S-0002c90300a1b2d0").ports[1].rate, hdr);
  EXPECT_EQ(NodeNamed(*fabric, "H-0002c90300fe0010").ports[1].rate, hdr);
  // Listed by the switch only, the rate still reaches the CA's end.
  EXPECT_EQ(NodeNamed(*fabric, "H-0002c90300fe0020").ports[1].rate, hdr);
}

TEST(Netfile, KeepsTheSlowerOfTwoReportedRates) {
  Result<Fabric> fabric = parse_netfile("Switch 2 \"S-1\"\n[1] \"S-2\"[1]\t# \"b\" lid 2 4xEDR\n\n"
                                        "Switch 2 \"S-2\"\n[1] \"S-1\"[1]\t# \"a\" lid 1 4xDDR\n",
                                        "t.net");
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  EXPECT_EQ(NodeNamed(*fabric, "S-1").ports[1].rate, (LinkRate{4, LinkSpeed::kDdr}));
  EXPECT_EQ(NodeNamed(*fabric, "S-2").ports[1].rate, (LinkRate{4, LinkSpeed::kDdr}));
}

TEST(Netfile, WritesRatesAsIbnetdiscoverAndIbsimDo) {
  Result<Fabric> fabric = parse_netfile(kClusterOutput, "cluster.net");
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  const std::string written = write_netfile(*fabric);
  EXPECT_NE(written.find("\"S-0002c90300a1b2d0\"[1]\t\t# \"MF0;spine01:MSB7700/U1\" lid 13 4xHDR\n"),
            std::string::npos)
      << written;
  EXPECT_NE(written.find("# lid 6 lmc 2 \"MF0;leaf01:MSB7700/U1\" lid 12 4xHDR\n"), std::string::npos) << written;
  Result<Fabric> reread = parse_netfile(written, "written.net");
  ASSERT_TRUE(reread.ok()) << reread.status().message();
  for (int x = 0; x < fabric->size(); ++x)
    for (int p = 1; p <= fabric->node(x).num_ports; ++p)
      EXPECT_EQ(reread->port({*reread->find(fabric->node(x).name), p}).rate, fabric->port({x, p}).rate);
  EXPECT_EQ(NodeNamed(*reread, "H-0002c90300fe0010").ports[1].lid, 6);
}

TEST(Netfile, TakesCaLidsFromPortLinesOnly) {
  Result<Fabric> fabric = parse_netfile("Ca 1 \"H-1\"\t\t# \"host\" lid 9 lmc 1\n[1] \"H-2\"[1]\t\t# lid 4 lmc 0\n\n"
                                        "Ca 1 \"H-2\"\n[1] \"H-1\"[1]\n",
                                        "t.net");
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  EXPECT_EQ(NodeNamed(*fabric, "H-1").ports[0].lid, 0);
  EXPECT_EQ(NodeNamed(*fabric, "H-1").ports[0].lmc, 0);
  EXPECT_EQ(NodeNamed(*fabric, "H-1").ports[1].lid, 4);
}

TEST(Netfile, AcceptsUncabledPortsAndIdleSwitches) {
  Result<Fabric> fabric = parse_netfile(R"(Switch 4 "S"
[1] "A"[1]
[2] "B"[1]

Hca 1 "A"
[1] "S"[1]

Hca 1 "B"
[1] "S"[2]

Switch 8 "idle")",
                                        "t.net");
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  EXPECT_EQ(PeerOf(*fabric, "A", 1), "S[1]");
  EXPECT_EQ(PeerOf(*fabric, "S", 2), "B[1]");
  EXPECT_EQ(PeerOf(*fabric, "S", 3), "none");
  EXPECT_EQ(NodeNamed(*fabric, "idle").num_ports, 8);
}

Fabric MakeSmallFabric() {
  Fabric fabric;
  const int leaf = *fabric.add_node(NodeType::kSwitch, "leaf", 4, 0x10);
  const int spine = *fabric.add_node(NodeType::kSwitch, "spine", 4, 0x40);
  const int idle = *fabric.add_node(NodeType::kSwitch, "idle", 2, 0x30);
  const int ca = *fabric.add_node(NodeType::kCa, "ca", 2, 0x20);
  fabric.node(leaf).description = "leaf 1";
  fabric.node(leaf).ports[0].guid = 0x10;
  fabric.node(leaf).ports[0].lid = 1;
  fabric.node(spine).ports[0].guid = 0x40;
  fabric.node(spine).ports[0].lid = 2;  // a LID but no description
  fabric.node(spine).ports[0].lmc = 1;
  fabric.node(idle).ports[0].guid = 0x30;
  fabric.node(ca).description = "node 1 HCA-1";
  fabric.node(ca).ports[1].guid = 0x21;
  fabric.node(ca).ports[1].lid = 5;
  fabric.node(ca).ports[1].lmc = 2;
  fabric.node(ca).ports[2].guid = 0x22;
  EXPECT_TRUE(fabric.connect({leaf, 3}, {spine, 1}).ok());
  EXPECT_TRUE(fabric.connect({leaf, 4}, {spine, 2}).ok());
  EXPECT_TRUE(fabric.connect({leaf, 1}, {ca, 1}).ok());
  EXPECT_TRUE(fabric.connect({leaf, 2}, {ca, 2}).ok());
  return fabric;
}

void ExpectRoundTrip(const Fabric& original) {
  const std::string text = write_netfile(original);
  Result<Fabric> reread = parse_netfile(text, "written.net");
  ASSERT_TRUE(reread.ok()) << reread.status().message() << "\n" << text;
  ExpectSameFabric(original, *reread);
  EXPECT_EQ(write_netfile(*reread), text);
}

TEST(Netfile, RoundTripsThroughWriter) {
  {
    SCOPED_TRACE("built by hand");
    ExpectRoundTrip(MakeSmallFabric());
  }
  Result<Fabric> cluster = parse_netfile(kClusterOutput, "cluster.net");
  ASSERT_TRUE(cluster.ok()) << cluster.status().message();
  SCOPED_TRACE("cluster output");
  ExpectRoundTrip(*cluster);
}

TEST(Netfile, WritesSwitchesFirstInIbsimSyntax) {
  Fabric fabric;
  const int ca = *fabric.add_node(NodeType::kCa, "H-1", 2, 0x20);
  const int sw = *fabric.add_node(NodeType::kSwitch, "S-1", 8, 0x10);
  fabric.node(sw).description = "leaf";
  fabric.node(sw).ports[0].lid = 1;
  fabric.node(ca).ports[1].guid = 0x21;
  fabric.node(ca).ports[1].lid = 4;
  fabric.node(ca).ports[1].lmc = 1;
  ASSERT_TRUE(fabric.connect({sw, 3}, {ca, 1}).ok());
  EXPECT_EQ(write_netfile(fabric),
            "# Fabric written by ftclos in the ibnetdiscover / ibsim net-file format.\n"
            "\n"
            "switchguid=0x0000000000000010\n"
            "Switch\t8 \"S-1\"\t\t# \"leaf\" lid 1 lmc 0\n"
            "[3]\t\"H-1\"[1]\n"
            "\n"
            "caguid=0x0000000000000020\n"
            "Hca\t2 \"H-1\"\n"
            "[1](21)\t\"S-1\"[3]\t\t# lid 4 lmc 1\n");
}

TEST(Netfile, SyntaxErrorsQuoteTheLineCut) {
  Result<Fabric> fabric = parse_netfile("Switch 8 \"S-1\"\n[1]\t\"S-2\n", "t.net");
  ASSERT_FALSE(fabric.ok());
  EXPECT_EQ(fabric.status().message(), "t.net:2: expected \"peer\"[port] after [1], got \"[1]\t\"S-2\"");
  const std::string hostile = "Switch 8 \"S-1\" " + std::string(100000, 'x') + "\n";
  fabric = parse_netfile(hostile, "t.net");
  ASSERT_FALSE(fabric.ok());
  EXPECT_LT(fabric.status().message().size(), 500u);
}

TEST(Netfile, RejectsTruncatedLine) {
  constexpr std::string_view kComplete = "Switch\t8 \"S-1\"\n[1]\t\"S-2\"[1]\n\nSwitch\t8 \"S-2\"\n[1]\t\"S-1\"[1]\n";
  EXPECT_EQ(ErrorOf(kComplete), "no error");
  EXPECT_EQ(ErrorOf(fmt::format("{}[3]\t\"S-000", kComplete)), "t.net:6: expected \"peer\"[port] after [3]");
  EXPECT_EQ(ErrorOf(fmt::format("{}[3]\t\"S-1\"[", kComplete)), "t.net:6: expected \"peer\"[port] after [3]");
  EXPECT_EQ(ErrorOf(fmt::format("{}[3", kComplete)), "t.net:6: expected [port] at the start of a port line");
  EXPECT_EQ(ErrorOf(fmt::format("{}\nSwitch\t8 \"S-00", kComplete)), "t.net:7: expected \"name\" after Switch 8");
  EXPECT_EQ(ErrorOf(fmt::format("{}\nswitchguid=0x200001", kComplete)),
            "t.net:7: expected a Switch header after switchguid=");
}

TEST(Netfile, RejectsDanglingPort) {
  EXPECT_EQ(ErrorOf("Switch 8 \"S-1\"\n[1] \"S-2\"[1]\n[2] \"H-9\"[1]\n\nSwitch 8 \"S-2\"\n[1] \"S-1\"[1]\n"),
            "t.net:3: dangling port: \"S-1\"[2] lists \"H-9\"[1], but no node \"H-9\" is defined; expected a "
            "Switch, Ca or Hca record for it");
}

TEST(Netfile, RejectsPortOutsideNodeRange) {
  EXPECT_EQ(ErrorOf("Switch 36 \"S-1\"\n[40] \"S-2\"[1]\n\nSwitch 8 \"S-2\"\n"),
            "t.net:2: port 40 is above the port count 36 of \"S-1\"");
  EXPECT_EQ(ErrorOf("Switch 36 \"S-1\"\n[1] \"S-2\"[9]\n\nSwitch 8 \"S-2\"\n"),
            "t.net:2: port 9 is above the port count 8 of \"S-2\"");
  EXPECT_EQ(ErrorOf("Switch 36 \"S-1\"\n# the management port\n[0] \"S-2\"[1]\n\nSwitch 8 \"S-2\"\n"),
            "t.net:3: port 0 of \"S-1\" cannot be cabled; expected a port 1..36");
}

TEST(Netfile, RejectsTwoPeersForOnePort) {
  constexpr std::string_view kNodes = "\nSwitch 8 \"B\"\n[1] \"A\"[1]\n\nSwitch 8 \"C\"\n";
  EXPECT_EQ(ErrorOf(fmt::format("Switch 8 \"A\"\n[1] \"B\"[1]\n[1] \"B\"[1]\n{}", kNodes)), "no error");
  EXPECT_EQ(ErrorOf(fmt::format("Switch 8 \"A\"\n[1] \"B\"[1]\n[1] \"C\"[1]\n{}", kNodes)),
            "t.net:3: port 1 of \"A\" has two peers: \"C\"[1] here and \"B\"[1] at t.net:2");
}

TEST(Netfile, RejectsInconsistentEnds) {
  EXPECT_EQ(ErrorOf("Switch 8 \"A\"\n[1] \"B\"[2]\n\nSwitch 8 \"B\"\n[2] \"C\"[1]\n\nSwitch 8 \"C\"\n[1] \"B\"[2]\n"),
            "t.net:2: \"A\"[1] lists \"B\"[2], but t.net:5 lists \"C\"[1] at \"B\"[2]; expected \"A\"[1]");
  // The far end lists the cable, but at another of its ports.
  EXPECT_EQ(ErrorOf("Switch 8 \"A\"\n[1] \"B\"[2]\n\nSwitch 8 \"B\"\n[3] \"A\"[1]\n"),
            "t.net:5: \"B\"[3] lists \"A\"[1], but t.net:2 lists \"B\"[2] at \"A\"[1]; expected \"B\"[3]");
  // Two one-sided listings claim the same far port: the first is refused already.
  EXPECT_EQ(ErrorOf("Switch 8 \"A\"\n[1] \"C\"[1]\n\nSwitch 8 \"B\"\n[1] \"C\"[1]\n\nHca 1 \"C\"\n"),
            "t.net:2: \"A\"[1] lists \"C\"[1], but the record of \"C\" at t.net:7 does not list its port 1; "
            "expected [1] \"A\"[1] there (a cable is listed at both ends)");
  EXPECT_EQ(ErrorOf("Switch 8 \"S\"\n[1] \"H\"[1](11)\n\nHca 1 \"H\"\n[1](12) \"S\"[1]\n"),
            "t.net:2: port GUID 11 of \"H\"[1] differs from 12 at t.net:5");
}

// Switch S lists A on its port 2; A's record lists T on its port 2 and
// nothing on port 1. ibsim refuses the file; the old reader cabled S[2] to
// A[1], a port A's own record says is empty, and routed over it.
TEST(Netfile, CableListedAtOneEndOnlyIsAnError) {
  EXPECT_EQ(ErrorOf("Switch 8 \"S\"\n[1] \"T\"[1]\n[2] \"A\"[1]\n\nSwitch 8 \"T\"\n[1] \"S\"[1]\n[2] \"A\"[2]\n\n"
                    "Hca 2 \"A\"\n[2] \"T\"[2]\n"),
            "t.net:3: \"S\"[2] lists \"A\"[1], but the record of \"A\" at t.net:9 does not list its port 1; "
            "expected [1] \"S\"[2] there (a cable is listed at both ends)");
}

// S's switch GUID is also H-1's port GUID: a dump would name two ports by
// one GUID, and ftclos's own audit refuses it. Both lines are named.
TEST(Netfile, SwitchGuidEqualToACaPortGuidIsAnError) {
  EXPECT_EQ(ErrorOf("switchguid=0x20\nSwitch 8 \"S\"\n[1] \"H-1\"[1]\n[2] \"H-2\"[1]\n\ncaguid=0x100\nHca 1 \"H-1\"\n"
                    "[1](20) \"S\"[1]\n\ncaguid=0x200\nHca 1 \"H-2\"\n[1](201) \"S\"[2]\n"),
            "t.net:8: port GUID 0x0000000000000020 of \"H-1\" is also the node GUID of \"S\" at t.net:2; expected "
            "every GUID to name one node");
  // Port GUIDs two CAs share; and a CA port GUID derived (node GUID + port) onto another CA's node GUID.
  EXPECT_EQ(ErrorOf("Switch 8 \"S\"\n[1] \"H-1\"[1]\n[2] \"H-2\"[1]\n\nHca 1 \"H-1\"\n[1](77) \"S\"[1]\n\n"
                    "Hca 1 \"H-2\"\n[1](77) \"S\"[2]\n"),
            "t.net:9: port GUID 0x0000000000000077 of \"H-2\" is also the port GUID of \"H-1\" at t.net:6; expected "
            "every GUID to name one node");
  EXPECT_EQ(ErrorOf("Switch 8 \"S\"\n[1] \"H-1\"[1]\n[2] \"H-2\"[1]\n\ncaguid=0x100\nHca 1 \"H-1\"\n[1] \"S\"[1]\n\n"
                    "caguid=0x101\nHca 1 \"H-2\"\n[1] \"S\"[2]\n"),
            "t.net:7: port GUID 0x0000000000000101 of \"H-1\" is also the node GUID of \"H-2\" at t.net:10; "
            "expected every GUID to name one node");
  // A CA whose node GUID is its port 1 GUID (as on many HCAs) is fine.
  EXPECT_EQ(ErrorOf("Switch 8 \"S\"\n[1] \"H-1\"[1]\n\ncaguid=0x100\nHca 1 \"H-1\"\n[1](100) \"S\"[1]\n"), "no error");
}

TEST(Netfile, RejectsBadHeader) {
  EXPECT_EQ(ErrorOf("# fabric\nSwitch \"S-1\"\n"), "t.net:2: expected a port count 1..254 after Switch");
  EXPECT_EQ(ErrorOf("Switch 0 \"S-1\"\n"), "t.net:1: expected a port count 1..254 after Switch");
  EXPECT_EQ(ErrorOf("Ca 300 \"H-1\"\n"), "t.net:1: expected a port count 1..254 after Ca");
  EXPECT_EQ(ErrorOf("Hca 2 H-1\n"), "t.net:1: expected \"name\" after Hca 2");
  EXPECT_EQ(ErrorOf("Switch 8 \"S-1\" 36\n"), "t.net:1: expected a # comment or the end of the line after \"S-1\"");
  EXPECT_EQ(ErrorOf("Switch 8 \"S-1\"\t\t# \"leaf\n"), "t.net:1: expected a closing quote after the node description");
  EXPECT_EQ(ErrorOf("Switch 8 \"S-1\"\n\nHca 1 \"S-1\"\n"), "t.net:3: node \"S-1\" is defined twice; first at t.net:1");
  EXPECT_EQ(ErrorOf("Switch 8 \"S-1\"\t\t# \"leaf\" base port 0 lid 70000 lmc 0\n"),
            "t.net:1: expected a LID 0..65535 after \"lid\"");
  EXPECT_EQ(ErrorOf("Rt 2 \"R-1\"\n"), "t.net:1: router records (Rt) are not supported; expected Switch, Ca or Hca");
}

TEST(Netfile, RejectsLinesOutsideRecordsAndUnknownKeywords) {
  EXPECT_EQ(ErrorOf("# fabric\n[1] \"S-1\"[1]\n"),
            "t.net:2: port line [1] is outside a node record; expected a Switch, Ca or Hca header before it");
  EXPECT_EQ(ErrorOf("Switch 8 \"S-1\"\n\n[1] \"S-1\"[2]\n"),
            "t.net:3: port line [1] is outside a node record; expected a Switch, Ca or Hca header before it");
  EXPECT_EQ(ErrorOf("Swich 8 \"S-1\"\n"),
            "t.net:1: unknown keyword \"Swich\"; expected a Switch, Ca or Hca header, a port line [p] \"peer\"[q], "
            "switchguid=, caguid=, include or a # comment");
  EXPECT_EQ(ErrorOf("caguid=100003\nCa 2 \"H-1\"\n"), "t.net:1: expected caguid=0x<hex GUID>");
  EXPECT_EQ(ErrorOf("Ca 2 \"H-1\"\n[1](10z) \"H-1\"[2]\n"), "t.net:2: expected (port GUID in hex) after [1]");
  EXPECT_EQ(ErrorOf("Ca 2 \"H-1\"\n[1] \"H-2\"[1]\t\t# lid 6 lmc 9\n\nCa 2 \"H-2\"\n"),
            "t.net:2: expected an LMC 0..7 after \"lmc\"");
}

// A 3 MB keyword was echoed whole in the error.
TEST(Netfile, LongUnknownKeywordIsQuotedInPart) {
  const std::string error = ErrorOf(std::string(60000, 'k') + "\n");
  EXPECT_TRUE(error.starts_with("t.net:1: unknown keyword \"" + std::string(200, 'k') + "... (59800 more bytes)\""))
      << error.substr(0, 300);
  EXPECT_LT(error.size(), 500u);
}

class NetfileOnDisk : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(testing::TempDir()) / fmt::format("netfile_test_{}", getpid());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, std::string_view text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(NetfileOnDisk, ReadsIncludesRelativeToTheIncludingFile) {
  Write("cas.net", "Hca 1 \"H-1\"\n[1] \"S-1\"[1]\n");
  const std::string main = Write("main.net",
                                 "include \"cas.net\"\n"
                                 "do link \"S-1\" 2\n"
                                 "Switch 8 \"S-1\"\n[1] \"H-1\"[1]\n");
  Result<Fabric> fabric = read_netfile(main);
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  EXPECT_EQ(PeerOf(*fabric, "S-1", 1), "H-1[1]");

  // The include line ends the record the included file ended with.
  Write("tail.net", "Hca 2 \"H-2\"\n");
  const std::string stray = Write("stray.net", "include tail.net\n[2] \"H-2\"[1]\n");
  fabric = read_netfile(stray);
  ASSERT_FALSE(fabric.ok());
  EXPECT_EQ(fabric.status().message(), fmt::format("{}:2: port line [2] is outside a node record; expected a Switch, "
                                                   "Ca or Hca header before it, got \"[2] \"H-2\"[1]\"",
                                                   stray));
}

TEST_F(NetfileOnDisk, NamesTheIncludedFileInErrors) {
  const std::string bad = Write("bad.net", "# switches\nSwitch 8 S-1\n");
  const std::string main = Write("main.net", "# fabric\ninclude bad.net\n");
  Result<Fabric> fabric = read_netfile(main);
  ASSERT_FALSE(fabric.ok());
  EXPECT_EQ(fabric.status().message(),
            fmt::format("{}:2: expected \"name\" after Switch 8, got \"Switch 8 S-1\" (included from {}:2)", bad,
                        main));

  const std::string self = Write("self.net", "include \"self.net\"\n");
  fabric = read_netfile(self);
  ASSERT_FALSE(fabric.ok());
  EXPECT_TRUE(fabric.status().message().starts_with(
      fmt::format("{}:1: includes nest deeper than 8; expected no include cycle (included from {}:1)", self, self)))
      << fabric.status().message();
}

TEST_F(NetfileOnDisk, ReportsUnreadableFile) {
  const std::string missing = (dir_ / "missing.net").string();
  Result<Fabric> fabric = read_netfile(missing);
  ASSERT_FALSE(fabric.ok());
  EXPECT_EQ(fabric.status().message(), missing + ": cannot read: No such file or directory");
  const std::string main = Write("main.net", "include \"missing.net\"\n");
  fabric = read_netfile(main);
  ASSERT_FALSE(fabric.ok());
  EXPECT_EQ(fabric.status().message(), fmt::format("{}:1: cannot include: {}: cannot read: No such file or directory",
                                                   main, missing));
}

// `include /dev/zero` grew to GBs and aborted; a FIFO blocked for good.
TEST_F(NetfileOnDisk, IncludeOfADeviceOrFifoIsRefusedAtOnce) {
  const std::string zero = Write("zero.net", "include /dev/zero\n");
  Result<Fabric> fabric = read_netfile(zero);
  ASSERT_FALSE(fabric.ok());
  EXPECT_EQ(fabric.status().message(),
            zero + ":1: cannot include: /dev/zero: not a regular file (a character device); expected a file");
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  fabric = read_netfile(Write("fifo.net", "include fifo\n"));
  ASSERT_FALSE(fabric.ok());
  EXPECT_NE(fabric.status().message().find("not a regular file (a FIFO)"), std::string::npos);
}

// `detect` of an empty file said "up/down routable: yes" and exited 0.
TEST_F(NetfileOnDisk, FabricWithoutCabledNodesIsAnError) {
  for (const char* text : {"", "# nothing\n", "Hca 1 \"H-1\"\n"}) {
    const std::string path = Write("empty.net", text);
    Result<Fabric> fabric = read_end_nodes(path);
    ASSERT_FALSE(fabric.ok()) << text;
    EXPECT_EQ(fabric.status().message(), path + ": no cabled Switch, Ca or Hca record; expected a fabric");
  }
}

}  // namespace
}  // namespace ftclos
