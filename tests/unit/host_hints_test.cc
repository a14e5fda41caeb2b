// OpenSM ftree's hint files checked against the fabric they are for: a file
// that names none of its nodes, a root that is a CA, a CA in both the
// compute and the I/O file are errors naming the GUID and file:line; a GUID
// absent while others are present (a node down) is a warning.
#include "detect/host_hints.h"

#include <gtest/gtest.h>

#include <string>

#include "core/files.h"
#include "gen/generate.h"

namespace ftclos {
namespace {

class HostHintsTest : public ::testing::Test {
 protected:
  Fabric fabric = *generate_clos2(2, 2, 2);

  std::string file(const std::string& name, const std::string& text) {
    const std::string path = ::testing::TempDir() + "/" + name;
    EXPECT_TRUE(write_file(path, text).ok());
    return path;
  }
  std::string guid_of(const std::string& name) {
    const Node& node = fabric.node(*fabric.find(name));
    return format_guid(node.is_switch() ? node.guid : port_guid(node, 1));
  }
  std::string error_of(const HintFiles& files) {
    Result<ReadHints> hints = read_host_hints(files, fabric);
    return hints.ok() ? "no error" : hints.status().message();
  }
};

// Every host became "attached" and detect printed "level--1" on such a file.
TEST_F(HostHintsTest, CnGuidFileOfGuidsNotInTheFabricIsAnError) {
  const std::string cn = file("cn_unknown", "# another cluster's hosts\n0x1234\n0x5678\n");
  EXPECT_EQ(error_of({.cn_guid_file = cn}),
            cn + ":2: GUID 0x0000000000001234 names no node of the fabric, nor does any other GUID of the file; "
                 "expected the GUIDs of compute CAs of this fabric");
}

TEST_F(HostHintsTest, SomeGuidsNotInTheFabricAreAWarning) {
  const std::string cn = file("cn_one_down", guid_of("H-0.0") + "\n0x1234\n" + guid_of("H-1.0") + "\n");
  Result<ReadHints> hints = read_host_hints({.cn_guid_file = cn}, fabric);
  ASSERT_TRUE(hints.ok()) << hints.status().message();
  ASSERT_EQ(hints->warnings.size(), 1u);
  EXPECT_EQ(hints->warnings[0], cn + ":2: GUID 0x0000000000001234 names no node of the fabric (a node down?); 1 of "
                                     "the 3 GUIDs of the file name none");
  EXPECT_EQ(hints->hints.compute.size(), 3u);
}

TEST_F(HostHintsTest, RootGuidFileNamingACaIsAnError) {
  const std::string roots = file("roots_ca", guid_of("L2-0") + "\n" + guid_of("H-0.1") + "\n");
  EXPECT_EQ(error_of({.root_guid_file = roots}),
            roots + ":2: GUID " + guid_of("H-0.1") + " names CA \"H-0.1\"; expected the GUID of a switch (root "
                                                     "switches)");
}

TEST_F(HostHintsTest, CnGuidFileNamingASwitchIsAnError) {
  const std::string cn = file("cn_switch", guid_of("L1-0") + "\n");
  EXPECT_EQ(error_of({.cn_guid_file = cn}),
            cn + ":1: GUID " + guid_of("L1-0") + " names switch \"L1-0\"; expected the GUID of a CA (compute CAs)");
}

TEST_F(HostHintsTest, SameCaInIoAndCnFilesIsAnError) {
  const std::string cn = file("cn_both", guid_of("H-0.0") + "\n" + guid_of("H-1.1") + "\n");
  const std::string io = file("io_both", "# storage\n" + guid_of("H-1.1") + "\n");
  EXPECT_EQ(error_of({.cn_guid_file = cn, .io_guid_file = io}),
            io + ":2: GUID " + guid_of("H-1.1") + " names \"H-1.1\", which " + cn + ":2 (GUID " + guid_of("H-1.1") +
                ") names a compute CA; expected each CA in one of the two files");
}

// An empty io_guid_file is a cluster without storage: nothing to say.
TEST_F(HostHintsTest, EmptyFileIsNoHint) {
  const std::string io = file("io_empty", "# no storage yet\n");
  Result<ReadHints> hints = read_host_hints({.io_guid_file = io}, fabric);
  ASSERT_TRUE(hints.ok()) << hints.status().message();
  EXPECT_TRUE(hints->hints.empty());
  EXPECT_TRUE(hints->warnings.empty());
}

}  // namespace
}  // namespace ftclos
