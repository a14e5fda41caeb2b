// Forwarding tables that outlive the node order and the LIDs they were
// computed on: each switch's table is kept under its GUID, each destination
// under the GUID of the port that owns the LID and the LID's offset. OpenSM
// numbers nodes anew on every sweep, so tables kept by index would land on
// the wrong switches; this is what the plugin keeps between sweeps to give
// tables/previous_tables.h its previous tables.
#pragma once

#include <cstdint>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/fabric.h"
#include "route/lid_map.h"
#include "route/routing.h"

namespace ftclos {

class TablesByGuid {
 public:
  TablesByGuid() = default;
  /// Takes `lfts` (indexed like `fabric`, on `lids`) by GUID; moved in,
  /// the tables are not copied (88 MB on FT(48,3)).
  TablesByGuid(const Fabric& fabric, const LidMap& lids, Lfts lfts);

  bool empty() const { return switches_.empty(); }

  /// The kept table of the switch with this GUID, on the kept LIDs; nullptr when none was kept.
  const std::vector<uint8_t>* table_of(uint64_t switch_guid) const {
    const auto kept = switches_.find(switch_guid);
    return kept == switches_.end() ? nullptr : &kept->second;
  }

  /// The kept tables on another discovery of the fabric: indexed like
  /// `fabric`, on `lids`. A switch that was not kept gets an empty table;
  /// entries whose destination was not kept, and every entry when the LMC
  /// differs, are kNoPath.
  Lfts on(const Fabric& fabric, const LidMap& lids) const;
  /// on(), taking each table out instead of copying it where every LID
  /// kept is the same LID now (the common case: a sweep of the same
  /// subnet); no table is kept afterwards.
  Lfts take_on(const Fabric& fabric, const LidMap& lids);

  /// Whether `fabric` has a switch port cabled that was not cabled in the
  /// fabric the tables were taken on (a repair, or a switch that came back).
  bool repaired_in(const Fabric& fabric) const;

 private:
  std::vector<int> kept_lids(const Fabric& fabric, const LidMap& lids) const;
  // on(), given kept_lids().
  Lfts copied_on(const Fabric& fabric, const LidMap& lids, const std::vector<int>& kept_lid) const;

  int lmc_ = 0;
  std::unordered_map<uint64_t, std::vector<uint8_t>> switches_;  // switch GUID -> LFT on the kept LIDs
  std::unordered_map<uint64_t, int> base_;                       // LID owner's port GUID -> its kept base LID
  std::set<std::pair<uint64_t, int>> cabled_;                    // (switch GUID, port) with a cable
};

}  // namespace ftclos
