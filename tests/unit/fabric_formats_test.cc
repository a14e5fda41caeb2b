// The operators' fabric files (core/fabric_file.h): format detection, the
// capture repairs and their warnings, and the errors of damaged files. That
// each format reads to the plain ibnetdiscover fabric is checked on the real
// tools' output in tests/e2e/operator_formats.sh.
#include "core/fabric_file.h"

#include <gtest/gtest.h>

#include <string>

#include "core/words.h"

namespace ftclos {
namespace {

// Two switches, a CA on each, as `ibnetdiscover` prints them (tabs kept).
constexpr std::string_view kPlain =
    "#\n# Topology file: generated on Fri Nov 27 02:16:46 2026\n#\n"
    "vendid=0x0\ndevid=0x0\nsysimgguid=0x2\nswitchguid=0x2(2)\n"
    "Switch\t2 \"S-0000000000000002\"\t\t# \"sw2\" base port 0 lid 2 lmc 0\n"
    "[1]\t\"H-0000000000000010\"[1](11) \t\t# \"h10\" lid 1 4xEDR\n"
    "[2]\t\"S-0000000000000003\"[2]\t\t# \"sw3\" lid 3 4xEDR\n"
    "\nvendid=0x0\ndevid=0x0\nsysimgguid=0x3\nswitchguid=0x3(3)\n"
    "Switch\t2 \"S-0000000000000003\"\t\t# \"sw3\" base port 0 lid 3 lmc 0\n"
    "[1]\t\"H-0000000000000020\"[1](21) \t\t# \"h20\" lid 4 4xEDR\n"
    "[2]\t\"S-0000000000000002\"[2]\t\t# \"sw2\" lid 2 4xEDR\n"
    "\nvendid=0x0\ndevid=0x0\nsysimgguid=0x10\ncaguid=0x10\n"
    "Ca\t1 \"H-0000000000000010\"\t\t# \"h10\"\n"
    "[1](11) \t\"S-0000000000000002\"[1]\t\t# lid 1 lmc 0 \"sw2\" lid 2 4xEDR\n"
    "\nvendid=0x0\ndevid=0x0\nsysimgguid=0x20\ncaguid=0x20\n"
    "Ca\t1 \"H-0000000000000020\"\t\t# \"h20\"\n"
    "[1](21) \t\"S-0000000000000003\"[1]\t\t# lid 4 lmc 0 \"sw3\" lid 3 4xEDR\n";

std::string ErrorOf(std::string_view text) {
  Result<FabricFile> file = parse_fabric_text(text, "f.txt");
  return file.ok() ? "no error" : file.status().message();
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

TEST(FabricFile, ReadsPlainIbnetdiscoverWithoutWarnings) {
  Result<FabricFile> file = parse_fabric_text(kPlain, "f.txt");
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(file->format, "ibnetdiscover");
  EXPECT_EQ(file->fabric.size(), 4);
  EXPECT_TRUE(file->warnings.empty()) << Joined(file->warnings);
}

TEST(FabricFile, GroupingHeadingsAndExternalPortNumbersAreSkipped) {
  std::string grouped(kPlain);
  grouped.insert(grouped.find("vendid"), "\nChassis 1 (guid 0x2)\nNon-Chassis Nodes\n\n");
  grouped.replace(grouped.find("[2]\t\"S-0000000000000003\"[2]"), 25, "[2][ext 7]\t\"S-0000000000000003\"[2][ext 9]");
  Result<FabricFile> file = parse_fabric_text(grouped, "f.txt");
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(file->fabric.switch_links(), 1);
}

TEST(FabricFile, TerminalCaptureIsRepairedWithAWarningPerRepair) {
  std::string capture = "Script started on 2026-11-27\nibwarn: [4121] mad_rpc: _do_madrpc failed\nuser@host:~$ ibnetdiscover\n";
  for (char c : kPlain)
    if (c == '\n') capture += "\r\n";
    else if (c != '\t') capture += c;
  capture += "[user@host ~]$ exit\r\n";
  Result<FabricFile> file = parse_fabric_text(capture, "f.txt");
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(file->fabric.size(), 4);
  EXPECT_EQ(file->fabric.switch_links(), 1);
  const std::string warnings = Joined(file->warnings);
  EXPECT_NE(warnings.find("end in CR LF"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("f.txt:2: skipped \"ibwarn: [4121]"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("f.txt:3: skipped \"user@host:~$ ibnetdiscover\""), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("skipped \"[user@host ~]$ exit\": not ibnetdiscover output (a prompt after it)"),
            std::string::npos)
      << warnings;
  EXPECT_NE(warnings.find("4 Switch/Ca/Hca headers have no blank before their port count"), std::string::npos)
      << warnings;
}

TEST(FabricFile, IndentedNetFileLinesAreNotSkipped) {
  std::string indented;
  for_each_line(kPlain, [&](std::string_view line, int) {
    indented += (line.starts_with('[') ? "\t" : "") + std::string(line) + "\n";  // ports indented, as ibsim's nets
    return Status::Ok();
  });
  Result<FabricFile> file = parse_fabric_text(indented, "f.txt");
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(file->fabric.switch_links(), 1);
  EXPECT_TRUE(file->warnings.empty()) << Joined(file->warnings);
}

TEST(FabricFile, AnUnknownLineInsideTheOutputIsNotSkipped) {
  std::string text(kPlain);
  text.insert(text.find("[2]\t\"S-0000000000000003\""), "ibwarn: [4121] mad_rpc failed\n");
  EXPECT_EQ(ErrorOf(text).rfind("f.txt:10: unknown keyword \"ibwarn:\"", 0), 0u) << ErrorOf(text);
}

TEST(FabricFile, PortsReportLineCutShortNamesLineTextAndLayout) {
  const std::string text =
      "SW     2  1 0x0000000000000002 4x EDR - CA     1  1 0x0000000000000011 ( 'sw2' - 'h10' )\n"
      "SW     2  2 0x0000000000000002 4x EDR - SW\n"
      "CA     1  1 0x0000000000000011 4x EDR - SW     2  1 0x0000000000000002 ( 'h10' - 'sw2' )\n";
  const std::string error = ErrorOf(text);
  EXPECT_EQ(error.rfind("f.txt:2: expected \"SW|CA LID PORT 0xGUID", 0), 0u) << error;
  EXPECT_NE(error.find("(ibnetdiscover -p), got \"SW     2  2 0x0000000000000002 4x EDR - SW\""), std::string::npos)
      << error;
}

TEST(FabricFile, PortsReportPortCabledTwiceIsAnError) {
  const std::string text =
      "SW     2  1 0x0000000000000002 4x EDR - CA     1  1 0x0000000000000011 ( 'sw2' - 'h10' )\n"
      "SW     2  1 0x0000000000000002 4x EDR - CA     4  1 0x0000000000000021 ( 'sw2' - 'h20' )\n";
  EXPECT_EQ(ErrorOf(text).rfind("f.txt:2: port 1 of \"sw2\" is cabled to port 1 of 0x0000000000000021 here but to "
                                "port 1 of 0x0000000000000011 at f.txt:1",
                                0),
            0u)
      << ErrorOf(text);
}

TEST(FabricFile, IblinkinfoReadsPeersByLidAndRates) {
  const std::string text =
      "CA: h10:\n"
      "      0x0000000000000011      1    1[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>       2    1[  ] "
      "\"sw2\" ( )\n"
      "Switch: 0x0000000000000002 sw2:\n"
      "           2    1[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>       1    1[  ] \"h10\" ( )\n"
      "           2    2[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )\n";
  Result<FabricFile> file = parse_fabric_text(text, "f.txt");
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(file->format, "iblinkinfo");
  const Fabric& fabric = file->fabric;
  ASSERT_EQ(fabric.size(), 2);
  EXPECT_EQ(fabric.node(0).name, "S-0000000000000002");
  EXPECT_EQ(fabric.node(0).num_ports, 2);  // the down port counts
  EXPECT_EQ(fabric.node(0).ports[0].lid, 2);
  EXPECT_EQ(format_link_rate(fabric.node(0).ports[1].rate), "4xEDR");
  EXPECT_EQ(fabric.node(1).ports[1].guid, 0x11u);
}

TEST(FabricFile, IblinkinfoWithoutLidsSaysPeersAreNamedByLid) {
  const std::string text =
      "Switch: 0x0000000000000002 sw2:\n"
      "           0    1[  ] ==( 4X           2.5 Gbps Active/  LinkUp)==>       0    1[  ] \"h10\" ( )\n";
  EXPECT_NE(ErrorOf(text).find("f.txt:2: no node has LID 0 port 1"), std::string::npos) << ErrorOf(text);
}

TEST(FabricFile, SubnetListLineWithoutLidNamesTheLayout) {
  const std::string text =
      "{ CA Ports:01 SystemGUID:0000000000000010 NodeGUID:0000000000000010 PortGUID:0000000000000011 VenID:000000 "
      "DevID:0000 Rev:000000A1 {h10} PN:01 } { SW Ports:02 SystemGUID:0000000000000002 NodeGUID:0000000000000002 "
      "PortGUID:0000000000000002 VenID:00000000 DevID:0000 Rev:000000A1 {sw2} LID:0002 PN:01 } PHY=4x LOG=ACT "
      "SPD=2.5\n";
  const std::string error = ErrorOf(text);
  EXPECT_EQ(error.rfind("f.txt:1: expected \"{ SW|CA Ports:NN", 0), 0u) << error;
  EXPECT_NE(error.find("(opensm-subnet.lst), got \"{ CA Ports:01"), std::string::npos) << error;
}

TEST(FabricFile, OffendingTextIsCut) {
  const std::string line = "SW     2  1 0x0000000000000002 4x EDR - SW " + std::string(5000, 'x');
  const std::string error = ErrorOf(line + "\n");
  EXPECT_LT(error.size(), 800u) << error.substr(0, 900);
}

TEST(FabricFile, NoLineOfAnyFormatIsReadAsANetFile) {
  EXPECT_EQ(ErrorOf("hello\nworld\n").rfind("f.txt:1: unknown keyword \"hello\"; expected a Switch, Ca or Hca", 0), 0u)
      << ErrorOf("hello\n");
}

}  // namespace
}  // namespace ftclos
