// Every switch entry's channel dependencies, counted, per VL: what a sweep
// keeps for the next one so that a failure's check and its steps' check
// follow the change, not the fabric (issue #44). A packet toward LID d that
// holds channel x->y waits for y's channel toward d; every switch's entry
// counts, used or not (switches' own routes, and Duato's condition for
// changes in flight, audit/transition.h). The count of a dependency is how
// many LIDs make it (at most the 49,151 unicast LIDs: 16 bits), so the
// dependencies of a LID's old column can be taken out exactly and its new
// column's put in: the graph of the new tables, with no pass over the other
// columns (FT(48,3): 88 million entries; a count row per channel, about 14
// MB per VL that carries any).
#pragma once

#include <cstdint>
#include <vector>

#include "core/fabric.h"
#include "paths/cdg_layers.h"
#include "route/lid_map.h"
#include "route/routing.h"

namespace ftclos {

class DependencyCounts {
 public:
  /// None yet, on `fabric`'s channels (count_tables adds them).
  explicit DependencyCounts(const Fabric& fabric);
  /// The dependencies of every entry of `lfts` (count_tables, on every worker).
  DependencyCounts(const Fabric& fabric, const LidMap& lids, const Lfts& lfts, const std::vector<uint8_t>& dest_sl);

  /// Adds the dependencies of every entry of `lfts` toward every LID with
  /// an owner, each on the VL of its LID's SL (`dest_sl`, SL k on VL k;
  /// empty: SL 0). One pass over the tables, blocks of LIDs on `workers` threads.
  void count_tables(const LidMap& lids, const Lfts& lfts, const std::vector<uint8_t>& dest_sl, int workers);

  /// Whether `fabric` has the same nodes with switch cables lost at most:
  /// no switch port leads to another switch than it did, or to one where
  /// it led to none (a moved cable's channel would keep its old peer's
  /// dependencies and lack its new one's).
  bool lost_cables_only(const Fabric& fabric) const;
  /// The channels of `fabric` (lost_cables_only): the dependencies through
  /// channels that lead nowhere now are dropped.
  void lose_cables(const Fabric& fabric);
  /// The switches with a cable that `fabric` lacks (lost_cables_only), ascending.
  std::vector<int> switches_losing_cables(const Fabric& fabric) const;

  const Channels& channels() const { return channels_; }

  /// Adds (`sign` 1) or takes out (-1) the dependencies toward one LID on
  /// `vl`, each switch's entry read from `port(x)`: of every switch, or,
  /// with `only` (switches), those that leave or enter one of them.
  template <class Port>
  void count_lid(int vl, int sign, Port port, const std::vector<int>* only);

  bool has(int vl, int from, int to) const {
    const std::vector<uint16_t>& counts = counts_[vl];
    return !counts.empty() && counts[slot(from, to)] != 0;
  }
  /// Calls visit(to) for every channel `from` waits for on `vl`.
  template <class Visit>
  void for_next(int vl, int from, Visit visit) const {
    const std::vector<uint16_t>& counts = counts_[vl];
    if (counts.empty() || channels_.peer(from) < 0) return;
    const int y = channels_.peer(from);
    const size_t row = static_cast<size_t>(from) * width_;
    for (int q = 1; q < width_; ++q)
      if (counts[row + q] != 0) visit(channels_.of(y, q));
  }
  /// A cycle's channels on `vl`, in order; empty when there is none.
  std::vector<int> cycle(int vl) const;
  /// Bit v: VL v carries some dependency.
  uint16_t vls() const;
  /// The same dependencies, counted alike, on every VL.
  bool operator==(const DependencyCounts& other) const;

 private:
  size_t slot(int from, int to) const { return static_cast<size_t>(from) * width_ + channels_.port(to); }
  void add(int vl, int from, int to, int sign);
  void list_into();

  Channels channels_;
  int width_ = 1;                              // counts per channel: ports of the widest switch + 1
  std::vector<std::vector<uint16_t>> counts_;  // per VL: [from * width_ + port of `to`]; empty: none
  std::vector<std::vector<int>> into_;  // per switch: the channels into it (built when first asked)
  std::vector<uint8_t> listed_;         // per node: in count_lid's `only` (cleared after each call)
};

template <class Port>
void DependencyCounts::count_lid(int vl, int sign, Port port, const std::vector<int>* only) {
  const auto add_from = [&](int x) {
    const int first = channels_.of(x, port(x));
    if (first < 0) return;
    const int y = channels_.peer(first);
    const int second = channels_.of(y, port(y));
    if (second >= 0) add(vl, first, second, sign);
  };
  if (!only) {
    for (int x : channels_.switches()) add_from(x);
    return;
  }
  if (into_.empty()) list_into();
  for (int x : *only) listed_[x] = 1;
  for (int x : *only) {
    add_from(x);
    // Into x from a switch not listed (a listed one counted it above).
    const int second = channels_.of(x, port(x));
    if (second < 0) continue;
    for (int c : into_[x]) {
      const int w = channels_.from(c);
      if (!listed_[w] && channels_.of(w, port(w)) == c) add(vl, c, second, sign);
    }
  }
  for (int x : *only) listed_[x] = 0;
}

}  // namespace ftclos
