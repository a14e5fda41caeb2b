// Minimal churn: after a failure, keep every entry of the previous tables
// that is still valid and change only what the failure forces. Valid means
// the up/down rule (paths/updown_reach.h) still allows it on the fabric as
// it is now, so kept and new entries compose into up/down paths.
#pragma once

#include "route/routing.h"

namespace ftclos {

/// Replaces entries of `routing` (the new tables, on the same LIDs as
/// `previous`) by the previous entry wherever the rule allows that one, and
/// re-layers attached hosts' SLs on the merged tables. Switches' own
/// traffic (on a folded Clos, every switch LID) is the caller's to complete
/// after, against `previous` (schemes/switch_traffic.h).
void keep_previous(const RoutingInput& input, const Lfts& previous, Routing& routing);

/// OpenSM sends a switch's LFT in blocks of this many LIDs, only those that differ.
inline constexpr int kLftBlockLids = 64;

struct TableChange {
  long entries = 0;  // (switch, LID) entries that differ
  long blocks = 0;   // (switch, 64-LID block) holding at least one of them: the LFT SMPs OpenSM sends
};

/// How many entries of `now` differ from `previous` on LIDs that have an
/// owner in `lids`, over the switches that have a previous table (a switch
/// new to the fabric is not churn), and in how many blocks.
TableChange table_change(const LidMap& lids, const Lfts& previous, const Lfts& now);

}  // namespace ftclos
