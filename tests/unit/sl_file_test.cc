#include "audit/sl_file.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include <string>

#include "audit/sl2vl_file.h"
#include "gen/generate.h"
#include "mikant_cuts.h"
#include "schemes/schemes.h"
#include "routing_checks.h"

namespace ftclos {
namespace {

std::string written(const LidMap& lids, const std::vector<uint8_t>& dest_sl,
                    const std::vector<SlException>& exceptions = {}) {
  std::string text;
  EXPECT_TRUE(write_sl_file(lids, dest_sl, exceptions, [&](std::string_view chunk) {
    text += chunk;
    return true;
  }));
  return text;
}

std::vector<int> cas_of(const Routed& r) {
  std::vector<int> out;
  for (int i = 0; i < r.fabric.size(); ++i)
    if (!r.fabric.node(i).is_switch()) out.push_back(i);
  return out;
}

int first_switch(const Fabric& fabric) {
  for (int i = 0; i < fabric.size(); ++i)
    if (fabric.node(i).is_switch()) return i;
  return -1;
}

Routed mikant_3_3() { return route_fabric(*make_scheme("mikant").value(), generated(generate_mikant(3, 3)), 0); }

// MiKANT(3,3) with detours (mikant_cuts.h): one SL is not enough there.
Routed mikant_3_3_detours() {
  Fabric fabric = generated(generate_mikant(3, 3));
  cut_straight_cables(fabric);
  return route_fabric(*make_scheme("mikant").value(), std::move(fabric), 0);
}

AuditInput input_with(const Routed& r, const PathSls& sls) {
  return {r.fabric, r.detection.levels, r.lids, r.routing.lfts, {}, sls.dest_sl, {}, sls.exceptions};
}

Result<PathSls> parsed(const Routed& r, const std::string& text) {
  return parse_sl_file(r.fabric, r.lids, TextFile{"sls", text});
}

TEST(SlFile, MikantsTwoLayersRoundTripAsRanges) {
  const Routed r = mikant_3_3();
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::string text = written(r.lids, r.routing.dest_sl);
  const Result<PathSls> back = parsed(r, text);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->dest_sl, r.routing.dest_sl);
  EXPECT_TRUE(back->exceptions.empty());
  // One line per run of SL-1 LIDs, not per LID.
  long lines = std::ranges::count(text, '\n');
  long sl1 = std::ranges::count(r.routing.dest_sl, 1);
  EXPECT_GT(sl1, 0);
  EXPECT_LT(lines, sl1 + 2);
}

TEST(SlFile, OneSlIsTheHeaderOnly) {
  const Routed r = route_fabric(*make_scheme("dmodk").value(), generated(generate_clos2(4, 2, 4)), 0);
  const std::string text = written(r.lids, {});
  EXPECT_EQ(std::ranges::count(text, '\n'), 2);
  const Result<PathSls> back = parsed(r, text);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(std::ranges::count(back->dest_sl, 0), static_cast<long>(back->dest_sl.size()));
}

TEST(SlFile, PairsRoundTripAndDropTheirLidsDefault) {
  const Routed r = mikant_3_3();
  const std::vector<int> cas = cas_of(r);
  const int lid = r.lids.base[cas[5]];
  const std::vector<SlException> pairs = {{lid, cas[0], 3}, {lid, cas[1], 2}};
  const Result<PathSls> back = parsed(r, written(r.lids, r.routing.dest_sl, pairs) +
                                              fmt::format("pair {} {} {}\n", r.lids.base[cas[2]], lid,
                                                          r.routing.dest_sl[lid]));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->exceptions, pairs);
}

TEST(SlFile, MikantsSlsHaveNoCreditLoopAndOneSlHas) {
  const Routed r = mikant_3_3_detours();
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const Result<PathSls> right = parsed(r, written(r.lids, r.routing.dest_sl));
  ASSERT_TRUE(right.ok());
  const Correctness c = check_correctness(input_with(r, *right));
  EXPECT_EQ(c.unreachable + c.loops + c.credit_loops, 0);
  EXPECT_EQ(c.vls_used, 0b11);
  // Every destination of the second group on SL 0 instead: its detours join
  // the first group's routes and close a cycle.
  const Result<PathSls> one = parsed(r, "ftclos-sl 1\n");
  ASSERT_TRUE(one.ok());
  EXPECT_GT(check_correctness(input_with(r, *one)).credit_loops, 0);
}

TEST(SlFile, TheSecondGroupsOwnTrafficOnTheWrongSlMakesACreditLoop) {
  const Routed r = mikant_3_3_detours();
  // Pairs within the second group (whose detours cross the groups twice)
  // back on SL 0 by `pair` lines; its LIDs keep SL 1 for everyone else.
  std::vector<int> second;
  for (int ca : cas_of(r))
    if (r.routing.dest_sl[r.lids.base[ca]] == 1) second.push_back(ca);
  ASSERT_FALSE(second.empty());
  std::vector<SlException> pairs;
  for (int d : second)
    for (int s : second)
      if (s != d) pairs.push_back({r.lids.base[d], s, 0});
  const Result<PathSls> wrong = parsed(r, written(r.lids, r.routing.dest_sl, pairs));
  ASSERT_TRUE(wrong.ok()) << wrong.status().message();
  EXPECT_EQ(wrong->exceptions.size(), pairs.size());
  EXPECT_GT(check_correctness(input_with(r, *wrong)).credit_loops, 0);
  // The first group's traffic to them on SL 0 crosses once: no loop.
  std::vector<SlException> others;
  for (int d : second)
    for (int s : cas_of(r))
      if (r.routing.dest_sl[r.lids.base[s]] == 0) others.push_back({r.lids.base[d], s, 0});
  std::ranges::sort(others);
  const Result<PathSls> harmless = parsed(r, written(r.lids, r.routing.dest_sl, others));
  ASSERT_TRUE(harmless.ok());
  EXPECT_EQ(check_correctness(input_with(r, *harmless)).credit_loops, 0);
  // A LID given both SLs is an error, not a choice.
  const Result<PathSls> twice =
      parsed(r, written(r.lids, r.routing.dest_sl) + fmt::format("dlid {} 0\n", r.lids.base[second.front()]));
  EXPECT_FALSE(twice.ok());
}

TEST(SlFile, BadLinesNameFileAndLine) {
  const Routed r = mikant_3_3();
  const int ca = cas_of(r)[0];
  int sw = 0;
  for (int i = r.fabric.size() - 1; i >= 0; --i)
    if (r.fabric.node(i).is_switch()) sw = r.lids.base[i];
  auto error = [&](const std::string& text) {
    const Result<PathSls> read = parsed(r, text);
    return read.ok() ? std::string("accepted") : read.status().message();
  };
  EXPECT_EQ(error("dlid 1 1\n"), "sls:1: expected \"ftclos-sl 1\" (an ftclos SL file)");
  EXPECT_EQ(error(""), "sls: empty; expected \"ftclos-sl 1\" first");
  EXPECT_EQ(error("ftclos-sl 1\ndlid 1 16\n"), "sls:2: expected \"dlid LID[-LID] SL\" with SL 0..15");
  EXPECT_EQ(error("# c\nftclos-sl 1\n\ndlid 0x3-0x1 1\n"), "sls:4: LID range 0x3-0x1 runs backwards");
  EXPECT_EQ(error(fmt::format("ftclos-sl 1\ndlid {} 1\n", r.lids.max_lid + 1)),
            fmt::format("sls:2: LID {:#x} is above the tables' highest LID {:#x}", r.lids.max_lid + 1, r.lids.max_lid));
  EXPECT_EQ(error(fmt::format("ftclos-sl 1\npair {} 1 1\n", sw)), fmt::format("sls:2: source LID {:#x} is no CA's", sw));
  EXPECT_EQ(error(fmt::format("ftclos-sl 1\npair {0} 1 1\npair {0} 1 2\n", r.lids.base[ca])),
            "sls:3: the pair's source CA was given SL 1 to LID 0x1 at line 2");
  EXPECT_EQ(error("ftclos-sl 1\nsl 1 1\n"), "sls:2: expected \"dlid\" or \"pair\", got \"sl\"");
  EXPECT_EQ(error("ftclos-sl 1\ndlid x 1\n"), "sls:2: expected a LID, got \"x\"");
}

// smpquery sl2vl as infiniband-diags 44 prints it against ibsim (OpenSM's qos defaults).
constexpr char kSmpquery[] = R"txt(# SL2VL table: Lid {0}
#                 SL: | 0| 1| 2| 3| 4| 5| 6| 7| 8| 9|10|11|12|13|14|15|
ports: in  0, out  4: | 0| 1| 2| 3| 4| 5| 6| 7| 0| 1| 2| 3| 4| 5| 6| 7|
ports: in  1, out  4: | 0| 1| 2| 3| 4| 5| 6| 7| 0| 1| 2| 3| 4| 5| 6| 7|
ports: in  5, out  4: | 0| 0| 2| 3| 4| 5| 6| 7| 0| 1| 2| 3| 4| 5| 6|15|
# SL2VL table: Lid {1}
#                 SL: | 0| 1| 2| 3| 4| 5| 6| 7| 8| 9|10|11|12|13|14|15|
ports: in  0, out  0: | 0| 1| 2| 3| 4| 5| 6| 7| 0| 1| 2| 3| 4| 5| 6| 7|
)txt";

TEST(Sl2VlFile, ReadsSmpqueryOutputPerPortPair) {
  const Routed r = mikant_3_3();
  const int sw = first_switch(r.fabric);
  const int ca = cas_of(r)[0];
  const std::string text = fmt::format(kSmpquery, r.lids.base[sw], r.lids.base[ca]);
  const Result<Sl2VlTables> tables = parse_sl2vl_file(r.fabric, r.lids, TextFile{"sl2vl", text});
  ASSERT_TRUE(tables.ok()) << tables.status().message();
  ASSERT_NE(tables->find(sw, 5, 4), nullptr);
  EXPECT_EQ((*tables->find(sw, 5, 4))[1], 0);
  EXPECT_EQ((*tables->find(sw, 5, 4))[15], 15);
  EXPECT_EQ((*tables->find(sw, 1, 4))[9], 1);
  EXPECT_EQ(tables->find(sw, 2, 4), nullptr);
  EXPECT_EQ(tables->find(ca, 0, 0), nullptr);  // CAs' tables are left out

  auto error = [&](const std::string& bad) {
    const Result<Sl2VlTables> read = parse_sl2vl_file(r.fabric, r.lids, TextFile{"sl2vl", bad});
    return read.ok() ? std::string("accepted") : read.status().message();
  };
  const std::string head = fmt::format("# SL2VL table: Lid {}\n", r.lids.base[sw]);
  EXPECT_EQ(error("ports: in  0, out  4: | 0|\n"), "sl2vl:1: a table row before any table's header");
  EXPECT_EQ(error("0 4 : 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7\n"), "sl2vl:1: a table row before any table's header");
  EXPECT_EQ(error(head + "ports: in  0, out  4: | 0| 1|\n"), "sl2vl:2: expected 16 VLs, each after a '|'");
  EXPECT_EQ(error(head + "ports: in  0, out  4: | 0|16| 2| 3| 4| 5| 6| 7| 0| 1| 2| 3| 4| 5| 6| 7|\n"),
            "sl2vl:2: SL 1: expected a VL 0..15");
  EXPECT_EQ(error(head + "ports: in  0, out 99: | 0| 1| 2| 3| 4| 5| 6| 7| 0| 1| 2| 3| 4| 5| 6| 7|\n"),
            fmt::format("sl2vl:2: \"{}\" has {} ports", r.fabric.node(sw).display_name(), r.fabric.node(sw).num_ports));
  EXPECT_EQ(error(fmt::format("# SL2VL table: Lid {}\n", r.lids.max_lid + 1)),
            fmt::format("sl2vl:1: LID {} is no node's in the tables", r.lids.max_lid + 1));
  EXPECT_EQ(error(head + "in 0\n"),
            "sl2vl:2: expected \"# SL2VL table: Lid LID\" or \"ports: in I, out O: | VL|...\" (smpquery), or "
            "\"Switch GUID, base LID LID, ...\" or \"IN OUT : VL...\" (opensm-sl2vl.dump)");
}

// OpenSM's opensm-sl2vl.dump (3.3.23, with the plugin's SL k -> VL k) of the
// same switch reads as the same tables as smpquery's output.
TEST(Sl2VlFile, ReadsOpenSmsDumpAsSmpqueryOutput) {
  const Routed r = mikant_3_3();
  const int sw = first_switch(r.fabric);
  const int ca = cas_of(r)[0];
  const std::string dump = fmt::format(
      "Switch 0xf7c1000000000001, base LID {0}, \"sw\"\n"
      "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n"
      "#--------------------------------------------------------\n"
      "0   4   : 0  1  2  3  4  5  6  7  0  1  2  3  4  5  6  7 \n"
      "1   4   : 0  1  2  3  4  5  6  7  0  1  2  3  4  5  6  7 \n"
      "5   4   : 0  0  2  3  4  5  6  7  0  1  2  3  4  5  6  15\n"
      "\nChannel Adapter 0xf7c1100000000101, base LID {1}, \"ca\"\n"
      "0   0   : 0  1  2  3  4  5  6  7  0  1  2  3  4  5  6  7 \n",
      r.lids.base[sw], r.lids.base[ca]);
  const Result<Sl2VlTables> from_dump = parse_sl2vl_file(r.fabric, r.lids, TextFile{"opensm-sl2vl.dump", dump});
  const Result<Sl2VlTables> from_smpquery =
      parse_sl2vl_file(r.fabric, r.lids, TextFile{"sl2vl", fmt::format(kSmpquery, r.lids.base[sw], r.lids.base[ca])});
  ASSERT_TRUE(from_dump.ok()) << from_dump.status().message();
  ASSERT_TRUE(from_smpquery.ok());
  for (int in = 0; in <= r.fabric.node(sw).num_ports; ++in) {
    const Sl2VlTables::Row* want = from_smpquery->find(sw, in, 4);
    const Sl2VlTables::Row* got = from_dump->find(sw, in, 4);
    ASSERT_EQ(want == nullptr, got == nullptr) << "in port " << in;
    if (want != nullptr) {
      EXPECT_EQ(*got, *want) << "in port " << in;
    }
  }
  EXPECT_EQ(from_dump->find(ca, 0, 0), nullptr);

  auto error = [&](const std::string& bad) {
    const Result<Sl2VlTables> read = parse_sl2vl_file(r.fabric, r.lids, TextFile{"d", bad});
    return read.ok() ? std::string("accepted") : read.status().message();
  };
  const std::string head = fmt::format("Switch 0x1, base LID {}, \"sw\"\n", r.lids.base[sw]);
  EXPECT_EQ(error(head + "0 4 : 0 1 2\n"), "d:2: expected 16 VLs");
  EXPECT_EQ(error(head + "0 4 : 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 16\n"), "d:2: SL 15: expected a VL 0..15");
  EXPECT_EQ(error(head + "0 4 : 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 8\n"), "d:2: expected 16 VLs, then the end of the line");
  EXPECT_EQ(error("Switch 0x1, base LID x, \"sw\"\n").substr(0, 13), "d:1: expected");
}

TEST(Sl2VlFile, AllZeroTablesPutMikantsLayersOnOneVl) {
  const Routed r = mikant_3_3_detours();
  std::string text;
  for (int x = 0; x < r.fabric.size(); ++x) {
    if (!r.fabric.node(x).is_switch()) continue;
    text += fmt::format("# SL2VL table: Lid {}\n", r.lids.base[x]);
    for (int out = 1; out <= r.fabric.node(x).num_ports; ++out)
      for (int in = 0; in <= r.fabric.node(x).num_ports; ++in)
        text += fmt::format("ports: in {:2}, out {:2}: | 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0|\n", in, out);
  }
  const Result<Sl2VlTables> zero = parse_sl2vl_file(r.fabric, r.lids, TextFile{"sl2vl", text});
  ASSERT_TRUE(zero.ok()) << zero.status().message();
  AuditInput input{r.fabric, r.detection.levels, r.lids, r.routing.lfts, {}, r.routing.dest_sl, {}};
  EXPECT_EQ(check_correctness(input).credit_loops, 0);
  input.sl2vl_ports = &*zero;
  const Correctness c = check_correctness(input);
  EXPECT_GT(c.credit_loops, 0);
  EXPECT_EQ(c.vls_used, 0b1);
  EXPECT_EQ(c.sls_used, 0b11);
}

}  // namespace
}  // namespace ftclos
