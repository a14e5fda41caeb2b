// A change of tables in flight (issue #43). OpenSM writes a sweep's changed
// LFT blocks switch by switch, in no order the engine controls: for a while
// every (switch, LID) entry is the old one or the new one. Some mix of the
// two loops a LID's packets exactly when the union of its old and new next
// hops holds a cycle, and can deadlock a VL exactly when the union of the
// old and new channel dependencies on it holds one (Duato's condition for
// reconfiguration: Lysne et al., "Simple deadlock-free dynamic network
// reconfiguration", HiPC 2004). Every switch's entry counts, used or not
// (switches' own routes too), and a LID's dependencies go on the VL of
// every SL either side gives it (VL = SL, OpenSM's default qos_sl2vl).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "audit/audit.h"
#include "core/fabric.h"
#include "route/lid_map.h"
#include "route/routing.h"

namespace ftclos {

/// One side of a change: its tables and SLs (per LID, with per-pair exceptions).
struct TablesSide {
  const Lfts& lfts;
  const std::vector<uint8_t>& dest_sl;           // per LID; empty = SL 0
  const std::vector<SlException>& sl_exceptions;  // override dest_sl for some sources
};

struct TransitionCheck {
  long lids = 0;             // destination LIDs checked
  long changed_entries = 0;  // (switch, LID) entries that differ
  long looping_lids = 0;     // LIDs whose old and new next hops together hold a cycle
  uint16_t credit_loop_vls = 0;  // bit v: the old and new dependencies on VL v together hold a cycle
  std::vector<std::string> examples;  // the first looping LIDs and a cycle per VL, for people

  bool safe() const { return looping_lids == 0 && credit_loop_vls == 0; }
};

/// The SLs packets to each LID may carry on either side: bit s of [lid].
std::vector<uint16_t> sls_by_lid(const LidMap& lids, const TablesSide& before, const TablesSide& after);

/// Whether every mix of `before` and `after` on `lids` is loop-free and
/// deadlock-free. Both sides' tables index the same nodes and LIDs.
TransitionCheck check_transition(const Fabric& fabric, const LidMap& lids, const TablesSide& before,
                                 const TablesSide& after);

}  // namespace ftclos
