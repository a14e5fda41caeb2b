// opensm.mcfdbs as OpenSM's osm_dump.c writes it, read against a topology.
#include <gtest/gtest.h>

#include <string>

#include "audit/mcfdbs_parse.h"
#include "core/fabric.h"

namespace ftclos {
namespace {

// Two switches cabled port 1 to port 1, each with a CA on port 2.
Fabric two_switches() {
  Fabric fabric;
  const int a = *fabric.add_node(NodeType::kSwitch, "A", 4, 0x10);
  const int b = *fabric.add_node(NodeType::kSwitch, "B", 4, 0x20);
  const int h = *fabric.add_node(NodeType::kCa, "H", 1, 0x30);
  const int k = *fabric.add_node(NodeType::kCa, "K", 1, 0x40);
  EXPECT_TRUE(fabric.connect({a, 1}, {b, 1}).ok());
  EXPECT_TRUE(fabric.connect({a, 2}, {h, 1}).ok());
  EXPECT_TRUE(fabric.connect({b, 2}, {k, 1}).ok());
  return fabric;
}

Result<std::vector<McastForwarding>> parse(const std::string& text, uint8_t sl = 0) {
  static const Fabric fabric = two_switches();
  return parse_mcfdbs(fabric, TextFile{"opensm.mcfdbs", text}, sl);
}

// Byte for byte what dump_mcast_routes prints (" 0x%03X " per port).
const char kDump[] =
    "\nSwitch 0x0000000000000010\nLID    : Out Port(s)\n0xC000 : 0x001  0x002 \n0xC001 : 0x000 \n"
    "\nSwitch 0x0000000000000020\nLID    : Out Port(s)\n0xC000 : 0x001  0x002 \n";

TEST(McfdbsParse, ReadsEveryGroupBySwitch) {
  const Result<std::vector<McastForwarding>> groups = parse(kDump, 3);
  ASSERT_TRUE(groups.ok()) << groups.status().message();
  ASSERT_EQ(groups->size(), 2u);
  const McastForwarding& first = (*groups)[0];
  EXPECT_EQ(first.mlid, 0xC000);
  EXPECT_EQ(first.sl, 3);
  EXPECT_EQ(first.ports[0], (std::vector<uint8_t>{1, 2}));
  EXPECT_EQ(first.ports[1], (std::vector<uint8_t>{1, 2}));
  EXPECT_TRUE(first.ports[2].empty());
  EXPECT_EQ((*groups)[1].mlid, 0xC001);
  EXPECT_EQ((*groups)[1].ports[0], (std::vector<uint8_t>{0}));
}

TEST(McfdbsParse, AnEmptyFileHasNoGroups) {
  const Result<std::vector<McastForwarding>> groups = parse("");
  ASSERT_TRUE(groups.ok());
  EXPECT_TRUE(groups->empty());
}

void expect_error(const std::string& text, const std::string& expected) {
  const Result<std::vector<McastForwarding>> groups = parse(text);
  ASSERT_FALSE(groups.ok()) << text;
  EXPECT_NE(groups.status().message().find(expected), std::string::npos) << groups.status().message();
}

TEST(McfdbsParse, BadInputNamesFileAndLine) {
  expect_error("0xC000 : 0x001\n", "opensm.mcfdbs:1: an MLID entry before any");
  expect_error("Switch 0x0000000000000099\n", "opensm.mcfdbs:1: switch 0x0000000000000099 is not in the topology");
  expect_error("Switch 0x0000000000000030\n", "is not in the topology");  // a CA's GUID
  expect_error("Switch 0x10\n0xC000 : 0x005\n", "opensm.mcfdbs:2: port 5 is above A's 4 ports");
  expect_error("Switch 0x10\n0x0005 : 0x001\n", "opensm.mcfdbs:2: MLID 0x5 is outside");
  expect_error("Switch 0x10\n0xC000 : 0x001\n0xC000 : 0x002\n", "opensm.mcfdbs:3: MLID 0xC000 given twice for A");
  expect_error("Switch 0x10\n0xC000 : port1\n", "expected a port number, not \"port1\"");
  expect_error("Switch 0x10\n0xC000 :\n", "has no ports");
  expect_error("Switch 0x10\nsomething\n", "opensm.mcfdbs:2: expected");
  expect_error("Switch zz\n", "expected \"Switch 0xGUID\"");
}

}  // namespace
}  // namespace ftclos
