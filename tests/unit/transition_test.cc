// The audit of a change in flight (audit/transition.h): every mix of old and
// new entries loop-free and deadlock-free.
#include <gtest/gtest.h>

#include <vector>

#include "audit/transition.h"
#include "gen/generate.h"
#include "route/lid_map.h"

namespace ftclos {
namespace {

// A ring of 4 switches, one host each, and its LIDs.
struct Ring {
  Fabric fabric = *generate_ring(4, 1);
  LidMap lids = *assign_lids(fabric, 0);
  std::vector<int> sw;  // switch i of the ring, by name S0..S3 order of the generator

  Ring() {
    for (int x = 0; x < fabric.size(); ++x)
      if (fabric.node(x).is_switch()) sw.push_back(x);
  }
  // The port of switch `a` toward switch `b`, or the host port of `a` where a == b.
  uint8_t port(int a, int b) const {
    for (int p = 1; p <= fabric.node(sw[a]).num_ports; ++p) {
      const PortRef peer = fabric.peer({sw[a], p});
      if (!peer.valid()) continue;
      if (a == b ? !fabric.node(peer.node).is_switch() : peer.node == sw[b]) return static_cast<uint8_t>(p);
    }
    return kNoPath;
  }
  int host_lid(int i) const {
    return lids.base[fabric.peer({sw[i], port(i, i)}).node];
  }
  // Tables where switch i reaches switch j and its host through next(i, j).
  template <class Next>
  Lfts tables(Next next) const {
    Lfts lfts;
    lfts.port.assign(fabric.size(), {});
    for (int i = 0; i < 4; ++i) {
      lfts.port[sw[i]].assign(lids.max_lid + 1, kNoPath);
      // A switch's LID the way its host goes (its own: port 0, the switch itself).
      for (int j = 0; j < 4; ++j) {
        lfts.port[sw[i]][host_lid(j)] = port(i, next(i, j));
        lfts.port[sw[i]][lids.base[sw[j]]] = i == j ? 0 : port(i, next(i, j));
      }
    }
    return lfts;
  }
};

const std::vector<uint8_t> kNoSls;
const std::vector<SlException> kNoExceptions;

// The opposite host of each switch reached clockwise from some switches and
// counterclockwise from the others: old and new tables each acyclic.
int opposite_way(int i, int j, bool old) {
  if (i == j) return i;
  if ((j - i + 4) % 4 != 2) return j;  // a neighbour: straight there
  const bool clockwise = old ? i < 2 : i >= 2;
  return clockwise ? (i + 1) % 4 : (i + 3) % 4;
}

TEST(Transition, SameTablesAreSafe) {
  const Ring ring;
  const Lfts tables = ring.tables([](int i, int j) { return opposite_way(i, j, true); });
  const TransitionCheck check =
      check_transition(ring.fabric, ring.lids, {tables, kNoSls, kNoExceptions}, {tables, kNoSls, kNoExceptions});
  EXPECT_TRUE(check.safe()) << ::testing::PrintToString(check.examples);
  EXPECT_EQ(check.changed_entries, 0);
  EXPECT_EQ(check.lids, 8);
}

// Old: S0 and S1 reach their opposite host clockwise, S2 and S3
// counterclockwise; new: the other way round. Each side alone is acyclic;
// together the four two-hop routes chain round the ring: a credit loop on
// VL 0, though no LID's packets can loop.
TEST(Transition, DependenciesOfBothSidesThatCloseACycleAreACreditLoop) {
  const Ring ring;
  const Lfts old_tables = ring.tables([](int i, int j) { return opposite_way(i, j, true); });
  const Lfts new_tables = ring.tables([](int i, int j) { return opposite_way(i, j, false); });
  for (const Lfts* alone : {&old_tables, &new_tables}) {
    const TransitionCheck itself =
        check_transition(ring.fabric, ring.lids, {*alone, kNoSls, kNoExceptions}, {*alone, kNoSls, kNoExceptions});
    EXPECT_TRUE(itself.safe()) << ::testing::PrintToString(itself.examples);
  }
  const TransitionCheck check = check_transition(ring.fabric, ring.lids, {old_tables, kNoSls, kNoExceptions},
                                                 {new_tables, kNoSls, kNoExceptions});
  EXPECT_EQ(check.looping_lids, 0);
  EXPECT_EQ(check.credit_loop_vls, 0b1);
  EXPECT_EQ(check.changed_entries, 8);  // 4 switches' entries, for a host and its switch
  ASSERT_FALSE(check.examples.empty());
  EXPECT_NE(check.examples.back().find("VL 0"), std::string::npos) << check.examples.back();
  // The new side on SL 1: packets sent on either SL still meet both sides' entries.
  const std::vector<uint8_t> sl1(ring.lids.max_lid + 1, 1);
  EXPECT_EQ(check_transition(ring.fabric, ring.lids, {old_tables, kNoSls, kNoExceptions},
                             {new_tables, sl1, kNoExceptions})
                .credit_loop_vls,
            0b11);
}

// A switch whose new entry points back at a switch still on its old one:
// S1 reached S3's host through S2 (old), S2 now through S1 (new).
TEST(Transition, OldAndNewNextHopsInACycleAreALoop) {
  const Ring ring;
  auto old_way = [](int i, int j) { return i == j ? i : (i + 1) % 4; };  // clockwise all the way
  auto new_way = [&](int i, int j) { return i == 2 && j == 3 ? 1 : old_way(i, j); };
  const Lfts old_tables = ring.tables(old_way);
  const Lfts new_tables = ring.tables(new_way);
  const TransitionCheck check = check_transition(ring.fabric, ring.lids, {old_tables, kNoSls, kNoExceptions},
                                                 {new_tables, kNoSls, kNoExceptions});
  EXPECT_EQ(check.looping_lids, 2);     // S3 and its host
  EXPECT_EQ(check.changed_entries, 2);
  ASSERT_FALSE(check.examples.empty());
  EXPECT_NE(check.examples.front().find(ring.fabric.node(ring.sw[1]).display_name()), std::string::npos)
      << check.examples.front();
}

}  // namespace
}  // namespace ftclos
