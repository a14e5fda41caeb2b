// Minimal churn (tables/previous_tables.h): after one cut cable, the only
// entries that change are those whose previous path crossed that cable, and
// the merged tables still deliver every pair.
#include "tables/previous_tables.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "audit/audit.h"
#include "detect/levels.h"
#include "gen/generate.h"
#include "paths/switch_routes_legal.h"
#include "schemes/switch_traffic.h"
#include "engine/route_fabric.h"
#include "routing_checks.h"

namespace ftclos {
namespace {

// Whether the path from switch `at` to `lid` over `lfts` crosses the cable at `cut` (either end).
bool crosses(const Fabric& fabric, const LidMap& lids, const Lfts& lfts, int at, int lid, PortRef cut, PortRef other) {
  for (int hops = 0; hops < fabric.size(); ++hops) {
    if (lids.owner[lid] == at) return false;
    const int port = lfts.port[at][lid];
    if (port == kNoPath || port == 0) return false;
    const PortRef out{at, port};
    if (out == cut || out == other) return true;
    const PortRef next = fabric.peer(out);
    if (!next.valid() || !fabric.node(next.node).is_switch()) return false;
    at = next.node;
  }
  return false;
}

bool at_or_above(const Fabric& fabric, const Levels& levels, int leaf, int x);

// Whether the path from switch `at` to `lid` comes down into `leaf` or a
// switch above it and leaves that switch going up.
bool turns_at(const Fabric& fabric, const Levels& levels, const LidMap& lids, const Lfts& lfts, int at, int lid,
              int leaf) {
  bool descended = false;
  for (int hops = 0; hops < fabric.size(); ++hops) {
    if (lids.owner[lid] == at) return false;
    const int port = lfts.port[at][lid];
    if (port == kNoPath || port == 0) return false;
    const bool up = direction(fabric, levels, {at, port}) == Direction::kUp;
    if (descended && up && at_or_above(fabric, levels, leaf, at)) return true;
    descended = !up;
    const PortRef next = fabric.peer({at, port});
    if (!next.valid() || !fabric.node(next.node).is_switch()) return false;
    at = next.node;
  }
  return false;
}

// Whether `x` is `leaf` or above it (reached from it going only up).
bool at_or_above(const Fabric& fabric, const Levels& levels, int leaf, int x) {
  std::vector<int> todo{leaf};
  std::vector<bool> seen(fabric.size(), false);
  while (!todo.empty()) {
    const int at = todo.back();
    todo.pop_back();
    if (at == x) return true;
    for (int p = 1; p <= fabric.node(at).num_ports; ++p) {
      const PortRef peer = fabric.peer({at, p});
      if (peer.valid() && !seen[peer.node] && direction(fabric, levels, {at, p}) == Direction::kUp)
        todo.push_back(peer.node), seen[peer.node] = true;
    }
  }
  return false;
}

long differing(const Fabric& fabric, const Lfts& a, const Lfts& b) {
  long n = 0;
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch())
      for (size_t lid = 1; lid < a.port[x].size(); ++lid) n += a.port[x][lid] != b.port[x][lid];
  return n;
}

struct Case {
  std::string name;
  Result<Fabric> (*make)();
  const char* scheme;
};

const Case kCases[] = {
    {"ft_8_3_dmodk", [] { return generate_ftree(8, 3); }, "dmodk"},
    {"ft_8_3_updown", [] { return generate_ftree(8, 3); }, "updown"},
    {"ft_8_3_auto", [] { return generate_ftree(8, 3); }, "auto"},
    {"rfc_updown", [] { return generate_rfc(8, 16, 3, 1); }, "updown"},
    {"rfc_auto", [] { return generate_rfc(8, 16, 3, 1); }, "auto"},
};

class PreviousTables : public ::testing::TestWithParam<Case> {};

// Unpolished (RoutingInput::polish): what a repair keeps does not depend on
// it, and the polish would route every cut again for seconds under ASan.
constexpr RouteHooks kUnpolished{.polish = false};
constexpr RouteHooks kUnpolishedMerging{.polish = false, .switch_traffic = false};

// `damaged` routed as a sweep after a failure routes it: the scheme's tables
// merged with `before`'s, switches' own traffic completed once, on the merged
// tables, against `before`'s. `scheme_own` (when given) gets the scheme's
// own tables, their switches' own traffic completed from scratch.
Result<RoutedFabric> route_after_failure(const Fabric& damaged, const char* scheme, const RoutedFabric& before,
                                         Routing* scheme_own = nullptr) {
  Result<RoutedFabric> after = route_fabric(damaged, scheme, before.lids, {}, nullptr, kUnpolishedMerging);
  if (!after.ok()) return after;
  const RoutingInput input{damaged, after->detection, after->lids};
  if (scheme_own) {
    *scheme_own = after->routing;
    complete_switch_traffic(input, *scheme_own);
  }
  keep_previous(input, before.routing.lfts, after->routing);
  complete_switch_traffic(input, after->routing, &before.routing.lfts);
  return after;
}

// The auditor's check of `after` on `damaged`, every offset.
Correctness check_every_offset(const Fabric& damaged, const RoutedFabric& after) {
  OffsetChoice every_offset;
  every_offset.mode = OffsetChoice::Mode::kAllOffsets;
  return check_correctness(
      {damaged, after.detection.levels, after.lids, after.routing.lfts, every_offset, after.routing.dest_sl, {}});
}

TEST_P(PreviousTables, OneCutCableChangesOnlyThePathsThatCrossedIt) {
  const Fabric fabric = *GetParam().make();
  Result<RoutedFabric> before = route_fabric(fabric, GetParam().scheme, *assign_lids(fabric, 0), {}, nullptr, kUnpolished);
  ASSERT_TRUE(before.ok()) << before.status().message();
  const std::vector<PortRef> cables = switch_cables(fabric);
  long kept_total = 0, scratch_total = 0;
  for (size_t i = 0; i < cables.size(); i += 23) {
    const PortRef cut = cables[i], other = fabric.peer(cut);
    Fabric damaged = fabric;
    damaged.disconnect(cut);
    Routing scratch;
    Result<RoutedFabric> after = route_after_failure(damaged, GetParam().scheme, *before, &scratch);
    ASSERT_TRUE(after.ok()) << after.status().message();
    const long changed = table_change(after->lids, before->routing.lfts, after->routing.lfts).entries;
    EXPECT_EQ(changed, differing(fabric, before->routing.lfts, after->routing.lfts));
    // Switches' own routes turn only at one leaf and above it
    // (paths/switch_routes_legal.h); it moves only when the cut takes a top
    // switch from above it, and then the routes that turned there move too.
    const Levels& levels = before->detection.levels;
    const int turn_leaf = switch_turn_leaf(fabric, levels);
    const bool turn_leaf_moved = switch_turn_leaf(damaged, after->detection.levels) != turn_leaf;
    if (turn_leaf_moved) {
      EXPECT_TRUE(at_or_above(fabric, levels, turn_leaf, cut.node) || at_or_above(fabric, levels, turn_leaf, other.node))
          << "the turn leaf moved after a cut not above it: " << fabric.node(cut.node).name;
    }
    for (int x = 0; x < fabric.size(); ++x) {
      if (!fabric.node(x).is_switch()) continue;
      for (int lid = 1; lid <= before->lids.max_lid; ++lid) {
        if (after->routing.lfts.port[x][lid] == before->routing.lfts.port[x][lid]) continue;
        EXPECT_TRUE(crosses(fabric, before->lids, before->routing.lfts, x, lid, cut, other) ||
                    (turn_leaf_moved && turns_at(fabric, levels, before->lids, before->routing.lfts, x, lid, turn_leaf)))
            << fabric.node(x).name << " LID " << lid
            << " changed though its path neither crossed the cut cable nor turned at a turn leaf that moved";
      }
    }
    const Correctness c = check_every_offset(damaged, *after);
    EXPECT_EQ(c.unreachable + c.loops + c.credit_loops, 0) << "cut " << fabric.node(cut.node).name;
    // Switches' own routes deliver, and close no credit loop with the CAs'.
    EXPECT_EQ(c.switch_unreachable + c.switch_credit_loops, 0) << "cut " << fabric.node(cut.node).name;
    kept_total += changed;
    scratch_total += differing(fabric, before->routing.lfts, scratch.lfts);
  }
  EXPECT_GT(kept_total, 0);
  EXPECT_LE(kept_total, scratch_total);
}

INSTANTIATE_TEST_SUITE_P(Generated, PreviousTables, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return info.param.name; });

// The cables between the turn leaf's parents and the switches above them:
// a cut there takes a top switch from the turn leaf's ancestors.
std::vector<PortRef> cables_above_parents(const Fabric& fabric, const Levels& levels, int leaf) {
  std::vector<PortRef> out;
  for (int p = 1; p <= fabric.node(leaf).num_ports; ++p) {
    if (direction(fabric, levels, {leaf, p}) != Direction::kUp) continue;
    const int parent = fabric.peer({leaf, p}).node;
    for (int q = 1; q <= fabric.node(parent).num_ports; ++q)
      if (direction(fabric, levels, {parent, q}) == Direction::kUp) out.push_back({parent, q});
  }
  return out;
}

struct CutAboveCase {
  std::string name;
  int ports;
  const char* scheme;
  size_t step;  // every step-th cable above the turn leaf's parents
};

void PrintTo(const CutAboveCase& c, std::ostream* os) { *os << c.name; }

class CutAboveTheTurnLeaf : public ::testing::TestWithParam<CutAboveCase> {};

// Moving the turn leaf to another pod rewrote every switch's routes that
// turn (FT(8,3) 1,090 entries, FT(48,3) 1,072,855): the turn leaf stays and
// only the entries whose path crossed the cut cable change, on SL 0.
TEST_P(CutAboveTheTurnLeaf, ChangesOnlyThePathsThatCrossedIt) {
  const Fabric fabric = *generate_ftree(GetParam().ports, 3);
  Result<RoutedFabric> before =
      route_fabric(fabric, GetParam().scheme, *assign_lids(fabric, 0), {}, nullptr, kUnpolished);
  ASSERT_TRUE(before.ok()) << before.status().message();
  const int turn_leaf = switch_turn_leaf(fabric, before->detection.levels);
  const std::vector<PortRef> cables = cables_above_parents(fabric, before->detection.levels, turn_leaf);
  ASSERT_FALSE(cables.empty());
  for (size_t i = 0; i < cables.size(); i += GetParam().step) {
    const PortRef cut = cables[i], other = fabric.peer(cut);
    const std::string where = fabric.node(cut.node).name + " - " + fabric.node(other.node).name;
    Fabric damaged = fabric;
    damaged.disconnect(cut);
    Result<RoutedFabric> after = route_after_failure(damaged, GetParam().scheme, *before);
    ASSERT_TRUE(after.ok()) << after.status().message();
    long changed = 0, crossed = 0;
    for (int x = 0; x < fabric.size(); ++x) {
      if (!fabric.node(x).is_switch()) continue;
      for (int lid = 1; lid <= before->lids.max_lid; ++lid) {
        const bool crossing = crosses(fabric, before->lids, before->routing.lfts, x, lid, cut, other);
        crossed += crossing;
        if (after->routing.lfts.port[x][lid] == before->routing.lfts.port[x][lid]) continue;
        ++changed;
        EXPECT_TRUE(crossing) << "cut " << where << ": " << fabric.node(x).name << " LID " << lid
                              << " changed though its path did not cross the cut cable";
      }
    }
    EXPECT_GT(changed, 0) << "cut " << where;
    EXPECT_LE(changed, crossed) << "cut " << where;
    for (size_t lid = 1; lid < after->routing.dest_sl.size(); ++lid)
      EXPECT_EQ(after->routing.dest_sl[lid], 0) << "cut " << where << ": LID " << lid << " left SL 0";
    const Correctness c = check_every_offset(damaged, *after);
    EXPECT_EQ(c.unreachable + c.loops + c.credit_loops, 0) << "cut " << where;
    EXPECT_EQ(c.switch_unreachable + c.switch_credit_loops, 0) << "cut " << where;
  }
}

const CutAboveCase kCutAboveCases[] = {
    {"ft_8_3_updown", 8, "updown", 1},
    {"ft_8_3_dmodk", 8, "dmodk", 1},
    {"ft_8_3_auto", 8, "auto", 1},
    {"ft_16_3_updown", 16, "updown", 21},
};

INSTANTIATE_TEST_SUITE_P(Generated, CutAboveTheTurnLeaf, ::testing::ValuesIn(kCutAboveCases),
                         [](const auto& info) { return info.param.name; });

// FT(8,3) whose second leaf by GUID is in another pod than the first (the
// turn leaf): GUIDs of real fabrics follow no pod.
Fabric ft_8_3_guids_across_pods() {
  Fabric fabric = *generate_ftree(8, 3);
  std::swap(fabric.node(*fabric.find("L1-0.1")).guid, fabric.node(*fabric.find("L1-1.1")).guid);
  return fabric;
}

// A cut of the turn leaf's own cable up leaves it no leaf's equal: the turn
// leaf moves, to the leaf sharing the most parents with it (a pod-mate),
// not the next by GUID (another pod: every switch's turning routes then
// change). Only the parents' entries that turned at it change beside the
// paths that crossed the cut.
TEST(TurnLeafUplinkCut, MovesTheTurnLeafToAPodMate) {
  const Fabric fabric = ft_8_3_guids_across_pods();
  Result<RoutedFabric> before = route_fabric(fabric, "updown", *assign_lids(fabric, 0), {}, nullptr, kUnpolished);
  ASSERT_TRUE(before.ok()) << before.status().message();
  const Levels& levels = before->detection.levels;
  const int turn_leaf = switch_turn_leaf(fabric, levels);
  ASSERT_EQ(fabric.node(turn_leaf).name, "L1-0.0");
  std::vector<bool> parent(fabric.size(), false);
  PortRef cut;
  for (int p = 1; p <= fabric.node(turn_leaf).num_ports; ++p)
    if (direction(fabric, levels, {turn_leaf, p}) == Direction::kUp) {
      parent[fabric.peer({turn_leaf, p}).node] = true;
      if (!cut.valid()) cut = {turn_leaf, p};
    }
  const PortRef other = fabric.peer(cut);
  Fabric damaged = fabric;
  damaged.disconnect(cut);
  Result<RoutedFabric> after = route_after_failure(damaged, "updown", *before);
  ASSERT_TRUE(after.ok()) << after.status().message();
  long changed = 0;
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch()) continue;
    for (int lid = 1; lid <= before->lids.max_lid; ++lid) {
      if (after->routing.lfts.port[x][lid] == before->routing.lfts.port[x][lid]) continue;
      ++changed;
      EXPECT_TRUE(parent[x] || crosses(fabric, before->lids, before->routing.lfts, x, lid, cut, other))
          << fabric.node(x).name << " LID " << lid << " changed: no parent of the turn leaf, its path did not cross the cut";
    }
  }
  EXPECT_GT(changed, 0);
  const Correctness c = check_every_offset(damaged, *after);
  EXPECT_EQ(c.unreachable + c.loops + c.credit_loops + c.switch_unreachable + c.switch_credit_loops, 0);
}

}  // namespace
}  // namespace ftclos
