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

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "audit/audit.h"
#include "audit/dependency_counts.h"
#include "core/fabric.h"
#include "paths/cdg_layers.h"
#include "route/lid_map.h"
#include "route/routing.h"

namespace ftclos {

/// Entries that replace some of a table set's: per LID, (switch, port)
/// pairs ascending by switch. A step of a change is the new tables but a
/// few thousand such entries (engine/safe_steps.h), not a copy of them all.
using EntryOverrides = std::vector<std::vector<std::pair<int, uint8_t>>>;

/// One side of a change: its tables and SLs (per LID, with per-pair exceptions).
struct TablesSide {
  const Lfts& lfts;
  const std::vector<uint8_t>& dest_sl;           // per LID; empty = SL 0
  const std::vector<SlException>& sl_exceptions;  // override dest_sl for some sources
  const EntryOverrides* overrides = nullptr;      // over `lfts`; nullptr: none

  /// Switch x's port for `lid` on this side.
  uint8_t port(int x, int lid) const {
    if (overrides && lid < static_cast<int>(overrides->size())) {
      const std::vector<std::pair<int, uint8_t>>& entries = (*overrides)[lid];
      const auto at = std::ranges::lower_bound(entries, x, {}, &std::pair<int, uint8_t>::first);
      if (at != entries.end() && at->first == x) return at->second;
    }
    return lfts.at_or_none(x, lid);
  }
};

struct TransitionCheck {
  long lids = 0;             // destination LIDs checked
  long changed_entries = 0;  // (switch, LID) entries that differ
  long looping_lids = 0;     // LIDs whose old and new next hops together hold a cycle
  uint16_t credit_loop_vls = 0;  // bit v: the old and new dependencies on VL v together hold a cycle
  std::vector<std::string> examples;  // the first looping LIDs and a cycle per VL, for people

  bool safe() const { return looping_lids == 0 && credit_loop_vls == 0; }
};

/// A loop among switches with at most two next switches each (toward one
/// LID: the old and the new next hop, -1 for none), by depth-first search.
/// Its scratch is kept for the next LID.
class UnionLoopSearch {
 public:
  explicit UnionLoopSearch(int nodes) : color_(nodes, 0), parent_(nodes, -1) {}

  /// The switches of a loop reachable from `starts`, each one's next hop
  /// the following one (the last's the first); empty when there is none.
  /// `next(x)` gives x's two.
  template <class Next>
  std::vector<int> find(const std::vector<int>& starts, Next next) {
    std::vector<int> loop;
    for (int x : touched_) color_[x] = 0;
    touched_.clear();
    for (int start : starts) {
      if (color_[start] != 0) continue;
      stack_.assign(1, start);
      parent_[start] = -1;
      while (!stack_.empty()) {
        const int x = stack_.back();
        if (color_[x] == 0) touched_.push_back(x);
        color_[x] = 1;  // on the path
        bool pushed = false;
        for (int y : next(x)) {
          if (y < 0 || color_[y] == 2) continue;
          if (color_[y] == 1) {  // back to the path: the loop is y .. x
            for (int z = x; z != y; z = parent_[z]) loop.push_back(z);
            loop.push_back(y);
            std::ranges::reverse(loop);
            return loop;
          }
          parent_[y] = x;
          stack_.push_back(y);
          pushed = true;
          break;
        }
        if (!pushed) {
          color_[x] = 2;  // done
          stack_.pop_back();
        }
      }
    }
    return loop;
  }

 private:
  std::vector<uint8_t> color_;
  std::vector<int> parent_, stack_, touched_;  // touched_: colored by the last search
};

/// The SLs packets to each LID may carry on either side: bit s of [lid].
std::vector<uint16_t> sls_by_lid(const LidMap& lids, const TablesSide& before, const TablesSide& after);

/// What differs between two sides of a change, per LID: the switches whose
/// entries differ, and whether its SL does.
struct ChangedLids {
  std::vector<std::vector<int>> switches;  // [lid]: ascending
  std::vector<uint8_t> sl_moves;           // [lid] = 1: either side gives it an SL the other does not

  bool changing(int lid) const { return sl_moves[lid] || !switches[lid].empty(); }
};
ChangedLids changed_lids(const Fabric& fabric, const LidMap& lids, const TablesSide& before, const TablesSide& after);

/// The dependencies a change leaves alone, per VL, and whether they close
/// a cycle by themselves: those of every entry of the LIDs it does not
/// touch and, of the LIDs whose entries change, those between two switches
/// whose entries stay; the same for every pair of table sets that differ
/// from the change's sides only in those entries, as its steps do (a LID
/// whose SL changes counts whole), so built once (one pass over every
/// entry) for all its pairs.
class TransitionBase {
 public:
  /// From `side`'s entries and SLs, but what `changed` marks.
  TransitionBase(const Fabric& fabric, const LidMap& lids, const TablesSide& side, ChangedLids changed);
  /// The same from `of_side`, the dependency counts of `side`'s every entry
  /// (kept from the sweep that published them): only the changed LIDs'
  /// entries are read, no pass over the others.
  TransitionBase(const Fabric& fabric, const LidMap& lids, const TablesSide& side, ChangedLids changed,
                 DependencyCounts of_side);
  ~TransitionBase();
  TransitionBase(const TransitionBase&) = delete;
  TransitionBase& operator=(const TransitionBase&) = delete;

  /// The switch channels the base numbers its dependencies by.
  const Channels& channels() const;

  struct Graphs;
  const Fabric& fabric;
  const LidMap& lids;
  const ChangedLids changed;
  const std::unique_ptr<Graphs> graphs;
};

/// The dependency counts of `after`'s every entry, from a base made of
/// `before`'s counts: the base's and the changed entries' on `after`.
DependencyCounts counts_after(const TransitionBase& base, const TablesSide& after);

/// Whether every mix of `before` and `after` is loop-free and
/// deadlock-free, both differing from `base`'s side only where it says:
/// only those entries and what they touch are read (a loop of the union
/// passes a changed entry, the old and new tables being loop-free), and a
/// new cycle must pass one of their dependencies, so only what those reach
/// is searched.
TransitionCheck check_transition(const TransitionBase& base, const TablesSide& before, const TablesSide& after);

/// The same for any two sides: the base built from `before` first.
TransitionCheck check_transition(const Fabric& fabric, const LidMap& lids, const TablesSide& before,
                                 const TablesSide& after);

}  // namespace ftclos
