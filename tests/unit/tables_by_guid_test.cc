// Tables kept by GUID (tables/tables_by_guid.h) land on the same switches and
// destinations when OpenSM renumbers the nodes and moves the LIDs.
#include "tables/tables_by_guid.h"

#include <gtest/gtest.h>

#include "gen/generate.h"
#include "tables/previous_tables.h"
#include "engine/route_fabric.h"

namespace ftclos {
namespace {

// The same LIDs moved up by `shift` (a multiple of 2^lmc keeps CA bases aligned).
LidMap shifted(const Fabric& renumbered, const Fabric& original, const LidMap& lids, int shift) {
  LidMap out;
  out.lmc = lids.lmc;
  out.base.assign(renumbered.size(), 0);
  out.owner.assign(lids.max_lid + shift + 1, -1);
  out.max_lid = lids.max_lid + shift;
  for (int x = 0; x < renumbered.size(); ++x) {
    const int old = *original.find_guid(renumbered.node(x).guid);
    if (lids.base[old] == 0) continue;
    out.base[x] = lids.base[old] + shift;
    const int count = renumbered.node(x).is_switch() ? 1 : lids.lids_per_ca();
    for (int k = 0; k < count; ++k) out.owner[out.base[x] + k] = x;
  }
  return out;
}

TEST(TablesByGuid, EntriesFollowTheirSwitchAndDestinationAcrossRenumberedNodesAndMovedLids) {
  const Fabric fabric = *generate_ftree(8, 2);
  Result<RoutedFabric> routed = route_fabric(fabric, "dmodk", 1);
  ASSERT_TRUE(routed.ok()) << routed.status().message();
  const TablesByGuid kept(fabric, routed->lids, routed->routing.lfts);
  const Fabric renumbered = shuffle(fabric, 7, false);
  const LidMap lids = shifted(renumbered, fabric, routed->lids, 64);
  const Lfts on = kept.on(renumbered, lids);
  long compared = 0, switches = 0;
  for (int x = 0; x < renumbered.size(); ++x) {
    if (!renumbered.node(x).is_switch()) continue;
    ++switches;
    const int old_x = *fabric.find_guid(renumbered.node(x).guid);
    ASSERT_EQ(on.port[x].size(), static_cast<size_t>(lids.max_lid + 1));
    for (int lid = 1; lid <= lids.max_lid; ++lid) {
      const int owner = lids.owner[lid];
      if (owner < 0) {
        EXPECT_EQ(on.port[x][lid], kNoPath) << lid;
        continue;
      }
      const int old_owner = *fabric.find_guid(renumbered.node(owner).guid);
      const int old_lid = routed->lids.base[old_owner] + (lid - lids.base[owner]);
      EXPECT_EQ(on.port[x][lid], routed->routing.lfts.port[old_x][old_lid]) << renumbered.node(x).name << " " << lid;
      ++compared;
    }
  }
  EXPECT_EQ(compared, switches * (32 * 2 + switches));  // FT(8,2): 32 CAs at LMC 1, one LID per switch
  EXPECT_EQ(table_change(lids, on, on).entries, 0);
}

TEST(TablesByGuid, ASwitchNotKeptHasNoTableAndAnotherLmcKeepsNoEntry) {
  const Fabric fabric = *generate_ftree(8, 2);
  Result<RoutedFabric> routed = route_fabric(fabric, "dmodk", 0);
  ASSERT_TRUE(routed.ok()) << routed.status().message();
  Lfts partial = routed->routing.lfts;
  int dropped = -1;
  for (int x = 0; x < fabric.size() && dropped < 0; ++x)
    if (fabric.node(x).is_switch()) dropped = x;
  partial.port[dropped].clear();
  const Lfts on = TablesByGuid(fabric, routed->lids, partial).on(fabric, routed->lids);
  EXPECT_TRUE(on.port[dropped].empty());
  // A new switch is not churn; every other entry is unchanged.
  EXPECT_EQ(table_change(routed->lids, on, routed->routing.lfts).entries, 0);

  LidMap other_lmc = routed->lids;
  other_lmc.lmc = 1;
  const Lfts none = TablesByGuid(fabric, routed->lids, routed->routing.lfts).on(fabric, other_lmc);
  for (int x = 0; x < fabric.size(); ++x)
    for (uint8_t port : none.port[x]) EXPECT_EQ(port, kNoPath);
}

// take_on() gives what on() gives, moving the tables out where the LIDs
// are the kept ones (a renumbered subnet, a LID no longer owned, a switch
// gone) and copying them where the LIDs moved.
TEST(TablesByGuid, TakingTheTablesGivesWhatOnGives) {
  const Fabric fabric = *generate_ftree(8, 2);
  Result<RoutedFabric> routed = route_fabric(fabric, "dmodk", 1);
  ASSERT_TRUE(routed.ok()) << routed.status().message();
  const Fabric renumbered = shuffle(fabric, 7, false);
  Lfts partial = routed->routing.lfts;
  int dropped = -1;
  for (int x = 0; x < fabric.size() && dropped < 0; ++x)
    if (fabric.node(x).is_switch()) dropped = x;
  partial.port[dropped].clear();
  LidMap same = shifted(renumbered, fabric, routed->lids, 0);
  for (int lid = same.max_lid; lid > 0 && same.owner[lid] >= 0; --lid) {  // the last CA's LIDs are no one's now
    if (renumbered.node(same.owner[lid]).is_switch()) continue;
    same.base[same.owner[lid]] = 0;
    for (int k = lid; k > lid - same.lids_per_ca(); --k) same.owner[k] = -1;
    break;
  }
  for (const LidMap& lids : {same, shifted(renumbered, fabric, routed->lids, 64)}) {
    TablesByGuid kept(fabric, routed->lids, partial);
    const Lfts on = kept.on(renumbered, lids);
    const Lfts taken = kept.take_on(renumbered, lids);
    EXPECT_EQ(taken.port, on.port);
    EXPECT_TRUE(kept.empty());
  }
}

// A repair is a switch port cabled now that was not when the tables were taken.
TEST(TablesByGuid, ARepairIsACableTheKeptFabricLacked) {
  const Fabric whole = *generate_ftree(8, 2);
  int spine_port_switch = -1;
  for (int x = 0; x < whole.size() && spine_port_switch < 0; ++x)
    if (whole.node(x).is_switch() && whole.peer({x, 8}).valid() && whole.node(whole.peer({x, 8}).node).is_switch())
      spine_port_switch = x;
  ASSERT_GE(spine_port_switch, 0);
  Fabric cut = whole;
  cut.disconnect({spine_port_switch, 8});
  Result<RoutedFabric> routed = route_fabric(cut, "dmodk", 0);
  ASSERT_TRUE(routed.ok()) << routed.status().message();
  const TablesByGuid kept(cut, routed->lids, routed->routing.lfts);
  EXPECT_TRUE(kept.repaired_in(whole));
  EXPECT_FALSE(kept.repaired_in(cut));
  Fabric worse = cut;
  worse.disconnect({spine_port_switch, 7});
  EXPECT_FALSE(kept.repaired_in(worse));
}

}  // namespace
}  // namespace ftclos
