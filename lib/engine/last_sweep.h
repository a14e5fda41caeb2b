// What a sweep leaves behind for what comes after it: its tables by GUID, for
// the next sweep's keep step (OpenSM numbers nodes anew on every sweep,
// tables/tables_by_guid.h), and its fabric and unicast order, for the
// multicast trees OpenSM asks for between sweeps (members come by port GUID).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/fabric.h"
#include "engine/sweep.h"
#include "paths/mcast_tree.h"
#include "route/lid_map.h"
#include "tables/tables_by_guid.h"

namespace ftclos {

/// One switch port a multicast group's packets leave by.
struct McastPort {
  uint64_t switch_guid = 0;
  uint8_t port = 0;
};

struct McastAnswer {
  enum class Outcome {
    kOrdered,        // a tree down the unicast order
    kFallback,       // a shortest-path tree: `message` says why, under SweepError::kMcastUnordered
    kUnknownMember,  // no routed fabric, or a member not in it: `message` (SweepError::kMcastTree)
    kNoTree,         // not even a shortest-path tree: `message` (SweepError::kMcastTree)
  };
  Outcome outcome = Outcome::kOrdered;
  std::vector<McastPort> ports;
  std::string message;
  std::string detail;  // the tree in one line, for the log's details
};

class LastSweep {
 public:
  /// The last tables on another discovery of the fabric (indexed like
  /// `fabric`, on `lids`), taken out (TablesByGuid::take_on): for a sweep,
  /// which keeps its own when it succeeds (a failed one clears all); nullopt
  /// when there are none.
  std::optional<Lfts> take_tables_on(const Fabric& fabric, const LidMap& lids);
  /// Whether `fabric` has a switch port cabled that the last sweep's lacked.
  bool repaired_in(const Fabric& fabric) const { return tables_.repaired_in(fabric); }

  /// Keeps `published`, the tables the switches get (`sweep`'s, or the
  /// first step of its change; on `fabric`, `lids`), and what `sweep`'s
  /// multicast trees need.
  void keep(const Fabric& fabric, const LidMap& lids, const Sweep& sweep, Lfts published, std::string_view scheme);
  /// Keeps `lfts` as the tables the switches hold (a step of a change,
  /// engine/pending_steps.h); the multicast order stays the last sweep's.
  void keep_tables(const Fabric& fabric, const LidMap& lids, Lfts lfts) {
    tables_ = TablesByGuid(fabric, lids, std::move(lfts));
  }
  /// The table kept for the switch with this GUID, on the LIDs it was kept
  /// on (the one copy of the tables the plugin holds between sweeps); nullptr when none.
  const std::vector<uint8_t>* table_of(uint64_t switch_guid) const { return tables_.table_of(switch_guid); }
  void clear() { *this = LastSweep(); }

  /// The tree of group `mlid` over the member port GUIDs.
  McastAnswer mcast_tree(uint16_t mlid, std::span<const uint64_t> member_guids) const;

 private:
  TablesByGuid tables_;
  Fabric fabric_;
  SwitchOrder order_;
  std::unordered_map<uint64_t, PortRef> port_by_guid_;
};

}  // namespace ftclos
