// What a sweep keeps for the next one (issue #44): the published tables'
// dependency counts (audit/dependency_counts.h) and their check, on one
// numbering of nodes and LIDs. With them a failure sweep reads only the
// LIDs it changes: their old and new entries' dependencies replace each
// other in the counts (the graph of the new tables, no pass over the
// others), the counts less the changed entries are the steps' transition
// base, and a repair's columns are walked where the whole audit ran.
// A sweep that counted no change (the first one, or one that routed in
// full) keeps the channels and SLs only: the next sweep counts the tables
// it is given as the previous ones, on a thread beside its recognition
// (the core that leaves idle), not under this sweep's time.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "audit/audit.h"
#include "audit/dependency_counts.h"
#include "core/fabric.h"
#include "route/lid_map.h"

namespace ftclos {

struct SweepMemory {
  std::vector<uint64_t> guids;  // per node
  std::vector<int> owners;      // per LID
  long cabled_cas = 0;          // CAs with a cable
  Correctness check;            // of the tables, every route delivered, no credit loop
  std::optional<DependencyCounts> counts;  // of the tables' every entry (their channels only, while uncounted)
  bool uncounted = false;       // counts holds no entry yet: count() adds them
  std::vector<uint8_t> dest_sl;  // the tables' SLs, while uncounted

  /// Whether it holds counts for tables on `fabric`'s nodes (switch cables
  /// may have been lost since, none moved or gained) and `lids`.
  bool fits(const Fabric& fabric, const LidMap& lids) const;
  void keep(const Fabric& fabric, const LidMap& lids, const Correctness& sound, DependencyCounts kept);
  /// Keeps what keep() does, the counts left to count().
  void keep_uncounted(const Fabric& fabric, const LidMap& lids, const Correctness& sound, std::vector<uint8_t> sls);
  /// Counts the kept tables, given again as `tables` (a sweep's previous
  /// ones, on `lids`), on `workers` threads.
  void count(const LidMap& lids, const Lfts& tables, int workers);
  void clear() { *this = SweepMemory(); }
};

/// CAs whose port 1 has a cable (the port their LIDs are routed to).
long cabled_cas(const Fabric& fabric);

}  // namespace ftclos
