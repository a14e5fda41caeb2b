// Some LIDs' columns of a table set, gathered so that one LID's entries at
// every switch lie side by side. Read from the tables one LID at a time,
// a column takes a cache miss per switch (2,880 per LID on FT(48,3));
// gathered a tile of switches at a time, each table is read in order.
// A repair of the few thousand LIDs a failure touched works on these
// (tables/crossing_repair.h, paths/switch_routes_legal.h).
#pragma once

#include <vector>

#include "core/fabric.h"
#include "route/routing.h"

namespace ftclos {

class LidColumns {
 public:
  /// The columns of `lids` (ascending, each at most max_lid) over the
  /// switches of `fabric`.
  LidColumns(const Fabric& fabric, const Lfts& lfts, std::vector<int> lids, int max_lid);

  const std::vector<int>& lids() const { return lids_; }
  /// Switch `node`'s place in a column (-1 for CAs), and the switch at a place.
  int rank(int node) const { return rank_[node]; }
  int switch_at(int rank) const { return switches_[rank]; }
  int switches() const { return static_cast<int>(switches_.size()); }
  /// Every switch's entry for `lid`, by rank; nullptr when not gathered.
  uint8_t* column(int lid) { return slot_[lid] < 0 ? nullptr : &data_[static_cast<size_t>(slot_[lid]) * switches_.size()]; }
  const uint8_t* column(int lid) const {
    return slot_[lid] < 0 ? nullptr : &data_[static_cast<size_t>(slot_[lid]) * switches_.size()];
  }
  /// Writes every gathered column into the switches' tables (sized to hold them).
  void scatter(Lfts& lfts) const;

 private:
  std::vector<int> lids_;
  std::vector<int> slot_;      // per LID: its place in lids_, -1 when not gathered
  std::vector<int> switches_;  // by rank: the node
  std::vector<int> rank_;      // per node
  std::vector<uint8_t> data_;  // [slot][rank]
};

}  // namespace ftclos
