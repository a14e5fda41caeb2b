#include "tables/lft_dump.h"

#include <gtest/gtest.h>

#include <bit>

#include "detect/detect.h"
#include "gen/generate.h"
#include "tables/path_bits.h"
#include "schemes/schemes.h"

namespace ftclos {
namespace {

// One switch, two hosts: "a" has a description and no port GUID (ibsim's
// node GUID + 1 applies), "b" carries its port GUID.
struct Tiny {
  Fabric fabric;
  int sw = 0, a = 0, b = 0;
  Tiny() {
    sw = *fabric.add_node(NodeType::kSwitch, "sw", 3, 0x1);
    a = *fabric.add_node(NodeType::kCa, "a", 1, 0x100);
    b = *fabric.add_node(NodeType::kCa, "b", 1, 0x200);
    fabric.node(a).description = "host a HCA-1";
    fabric.node(b).ports[1].guid = 0xabc;
    EXPECT_TRUE(fabric.connect({sw, 1}, {a, 1}).ok());
    EXPECT_TRUE(fabric.connect({sw, 2}, {b, 1}).ok());
  }
};

TEST(LftDump, OpenSmFormat) {
  Tiny t;
  LidMap lids;
  lids.base = {1, 2, 3};
  lids.owner = {-1, t.sw, t.a, t.b, -1};  // LID 4 belongs to no one
  lids.max_lid = 4;
  Lfts lfts;
  lfts.port = {{kNoPath, 0, 1, 2, 3}, {}, {}};
  EXPECT_EQ(write_lft_dump(t.fabric, lids, lfts),
            "Unicast lids [0-4] of switch Lid 1 guid 0x0000000000000001 ('sw'):\n"
            "0x0001 000 # Switch portguid 0x0000000000000001: 'sw'\n"
            "0x0002 001 # Channel Adapter portguid 0x0000000000000101: 'host a HCA-1'\n"
            "0x0003 002 # Channel Adapter portguid 0x0000000000000abc: 'b'\n"
            "0x0004 003 # unknown node and type\n"
            "4 lids dumped\n");
}

// OpenSM dumps its switches in its switch table's order, GUIDs in network
// byte order compared as host integers: on RhinoBased512Nodes the content
// matched but the order did not, as the writer sorted by GUID.
TEST(LftDump, SwitchesInOpenSmTableOrder) {
  if constexpr (std::endian::native != std::endian::little) GTEST_SKIP() << "the order below is a little-endian host's";
  Fabric fabric;
  const int low_first = *fabric.add_node(NodeType::kSwitch, "a", 1, 0x0100000000000002);
  const int high_first = *fabric.add_node(NodeType::kSwitch, "b", 1, 0x0200000000000001);
  ASSERT_TRUE(fabric.connect({low_first, 1}, {high_first, 1}).ok());
  LidMap lids;
  lids.base = {1, 2};
  lids.owner = {-1, low_first, high_first};
  lids.max_lid = 2;
  Lfts lfts;
  lfts.port = {{kNoPath, 0, 1}, {kNoPath, 1, 0}};
  const std::string dump = write_lft_dump(fabric, lids, lfts);
  EXPECT_LT(dump.find("guid 0x0200000000000001"), dump.find("guid 0x0100000000000002")) << dump;
}

TEST(LftDump, LeavesOutUnroutedLids) {
  Tiny t;
  LidMap lids;
  lids.base = {1, 2, 3};
  lids.owner = {-1, t.sw, t.a, t.b};
  lids.max_lid = 3;
  Lfts lfts;
  lfts.port = {{kNoPath, 0, kNoPath, 2}, {}, {}};
  EXPECT_EQ(write_lft_dump(t.fabric, lids, lfts),
            "Unicast lids [0-3] of switch Lid 1 guid 0x0000000000000001 ('sw'):\n"
            "0x0001 000 # Switch portguid 0x0000000000000001: 'sw'\n"
            "0x0003 002 # Channel Adapter portguid 0x0000000000000abc: 'b'\n"
            "3 lids dumped\n");
}

// Large dumps go out in chunks of whole switch blocks, which add up to the
// whole text; a sink that refuses stops the writer.
TEST(LftDump, ChunksAddUpToTheTextAndARefusalStops) {
  const Fabric fabric = *generate_ftree(12, 3);  // ~6 MB of dump: several chunks
  const LidMap lids = *assign_lids(fabric, 0);
  const Routing routing = *make_dmodk_scheme()->route({fabric, detect(fabric), lids});
  std::string joined;
  int chunks = 0;
  EXPECT_TRUE(write_lft_dump(fabric, lids, routing.lfts, [&](std::string_view chunk) {
    EXPECT_TRUE(chunk.ends_with("lids dumped\n"));
    joined += chunk;
    ++chunks;
    return true;
  }));
  EXPECT_GT(chunks, 1);
  EXPECT_EQ(joined, write_lft_dump(fabric, lids, routing.lfts));
  int offered = 0;
  EXPECT_FALSE(write_lft_dump(fabric, lids, routing.lfts, [&](std::string_view) { return ++offered > 1; }));
  EXPECT_EQ(offered, 1);
}

TEST(PathBits, OneLinePerCaPort) {
  Tiny t;
  Routing routing;
  routing.path_bits = {0, 3, 1};
  EXPECT_EQ(write_path_bits(t.fabric, routing), "0x0000000000000101 3\n0x0000000000000abc 1\n");
}

// route --pathbits streams the lines; a sink that refuses stops the writer with false.
TEST(PathBits, ARefusedChunkFailsTheWrite) {
  Tiny t;
  Routing routing;
  routing.path_bits = {0, 3, 1};
  int offered = 0;
  EXPECT_FALSE(write_path_bits(t.fabric, routing, [&](std::string_view) { return ++offered > 1; }));
  EXPECT_EQ(offered, 1);
}

// A job prolog asks by the GUID `ibstat -p` prints (any case, "0x"
// optional) or by node name; a switch's GUID is no CA's.
TEST(PathBits, FindCaByPortGuidOrName) {
  Tiny t;
  EXPECT_EQ(*find_ca(t.fabric, "0x0000000000000101"), t.a);
  EXPECT_EQ(*find_ca(t.fabric, "101"), t.a);
  EXPECT_EQ(*find_ca(t.fabric, "0xABC"), t.b);
  EXPECT_EQ(*find_ca(t.fabric, "b"), t.b);
  const uint64_t switch_port = port_guid(t.fabric.node(t.sw), 0);
  EXPECT_FALSE(find_ca(t.fabric, format_guid(switch_port)).ok());
  Result<int> none = find_ca(t.fabric, "0x0123");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(), "no CA has the port GUID or name \"0x0123\"");
}

}  // namespace
}  // namespace ftclos
