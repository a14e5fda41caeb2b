// The path engine both audits share. Destination-based tables make the
// route to a LID a function of the switch a packet is at, so one memoized
// walk per LID (a "column" of the LFTs) settles every switch at once, and a
// source CA's path is its entry switch's path plus its own cable: all pairs
// cost O(switches x LIDs) instead of O(pairs x hops). Columns are walked one
// at a time, so memory is O(switches) per worker. A column read straight
// from the LFTs costs a cache miss per switch, and the audits take
// destinations by leaf, whose LIDs OpenSM scatters, so the LFTs are turned
// once into columns (LftColumns, shared by the workers, as large as the
// LFTs): walking a LID reads one contiguous row. A reader that takes LIDs
// in order turns them a tile at a time instead (Layout::kTiles: each
// PathEngine its own tile of 64 LIDs, kept in cache, and no second copy of
// the tables: 88 MB on FT(48,3), the peak of a subnet manager's sweep).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "audit/audit.h"
#include "audit/path_trace.h"
#include "core/workers.h"

namespace ftclos {

/// What a packet for one LID does from one switch on.
struct Step {
  Trace::Outcome outcome = Trace::Outcome::kNoRoute;
  bool up_down = false;    // delivered, and the rest of the path goes only up, then only down
  bool down_only = false;  // delivered, and the rest of the path only goes down
  uint8_t port = 0;        // the egress port the LFT gives
  uint16_t hops = 0;       // links still to go, when delivered (0 at a switch that owns the LID)
  int next = -1;           // the switch that port leads to; -1 when it leads nowhere or to a CA
};

/// The LFTs by LID: per LID, the port of every switch (in node order).
/// Keeps a reference to `lfts`.
class LftColumns {
 public:
  /// kWhole turns every LID at once; kTiles leaves each reader to turn the
  /// tile it reads (copy_tile), for readers that take LIDs in order.
  enum class Layout { kWhole, kTiles };
  static constexpr int kTileLids = 64;

  LftColumns(const Fabric& fabric, const Lfts& lfts, Layout layout = Layout::kWhole);
  bool whole() const { return cells_ != nullptr; }
  /// With kWhole: the switches' ports for `lid` ([switch index]); kNoPath where a table ends before it.
  const uint8_t* column(int lid) const { return cells_.get() + static_cast<size_t>(lid) * switches_.size(); }
  /// The columns of LIDs [first, first + kTileLids) into `tile` ([LID - first][switch index]).
  void copy_tile(int first, uint8_t* tile) const;
  int lids() const { return lids_; }
  const std::vector<int>& switches() const { return switches_; }

 private:
  std::vector<int> switches_;
  int lids_ = 0;
  std::vector<const uint8_t*> tables_;  // per switch index: its table
  std::vector<int> sizes_;              // per switch index: its table's entries
  std::unique_ptr<uint8_t[]> cells_;    // [lid][switch index], with kWhole
};

class PathEngine {
 public:
  PathEngine(const Fabric& fabric, const Levels& levels, const LidMap& lids, const LftColumns& columns);

  /// Settles every switch for `lid`; the results stay valid until the next call.
  void walk(int lid);
  /// Settles only `starts` and the switches their paths for `lid` reach; the
  /// others keep stale steps (correctness asks only about senders' paths).
  void walk(int lid, const std::vector<int>& starts);
  /// The step of switch `node`.
  const Step& at(int node) const { return steps_[switch_index_[node]]; }
  /// After walk(lid) (every switch): whether every switch delivers, and
  /// whether each does so going only up, then only down. False after a walk
  /// from some switches only.
  bool all_deliver() const { return every_switch_walked_ && undelivered_ == 0; }
  bool all_up_down() const { return every_switch_walked_ && undelivered_ == 0 && not_up_down_ == 0; }
  /// The switches that deliver, farthest first: each comes before the switch it forwards to.
  /// Sorted on the first call after a walk (only the contention audit asks).
  const std::vector<int>& delivered_farthest_first();

 private:
  // Settles switch `k` (an index) where its egress ends the walk; else
  // returns the index of the switch it leads to.
  int settle_or_next(int k);
  // Sets the column and target of `lid` and forgets every switch's state.
  void start_walk(int lid);
  // Settles switch `k` and every switch its path passes until a settled one.
  void follow(int k);
  const uint8_t* column(int lid);  // from the whole columns, or the tile holding it
  void derive(int k);  // from the settled step of its next switch
  // Whether `port` is one of switch k's ports (an LFT entry that forwards).
  bool leads_out(int k, uint8_t port) const { return port != kNoPath && port != 0 && port <= num_ports_[k]; }
  void settled(int k);  // marks switch k settled (an end of the walk), and counts its outcome

  const LidMap& lids_;
  const LftColumns& columns_;
  std::vector<uint8_t> tile_;  // with LftColumns::kTiles: the tile of columns held
  int tile_first_ = -1;        // its first LID; -1: none yet
  std::vector<int> switches_;
  // The switches from the highest level down: on a tree most routes climb,
  // so nearly every switch's next is settled when it is reached, and the
  // walk's loads do not wait on each other.
  std::vector<int> top_down_;  // switch indices
  std::vector<int> switch_index_;  // per node: its place in switches_, -1 for CAs
  std::vector<uint8_t> is_switch_;  // per node
  // The cabling flat by switch index, for the hot loop (every switch, every
  // LID): per switch its port count and where its ports start in link_ and
  // dir_; per port the switch index it leads to, ~node for a CA, or
  // kDeadLink, and the hop's direction by level (+1 up, -1 down, 0 sideways).
  std::vector<int> num_ports_, first_port_, link_;
  std::vector<int8_t> dir_;
  const uint8_t* column_ = nullptr;  // the walked LID's column; nullptr beyond every table
  int target_index_ = -1;            // the walked LID's owner as a link names it: a switch's index,
  int target_ca_ = 0;                // or a CA's ~node
  // Per switch index: its step, the index its step leads to, and its walk
  // state (0 unknown, 1 on the walk's stack, 2 settled). All of them fit in
  // the first-level cache on FT(48,3).
  std::vector<Step> steps_;
  std::vector<int> next_;
  std::vector<uint8_t> state_;
  std::vector<int> stack_;
  bool every_switch_walked_ = false;  // the last walk settled every switch
  int undelivered_ = 0, not_up_down_ = 0;  // switches the last walk settled so
  void sort_delivered();
  std::vector<int> delivered_;
  bool delivered_sorted_ = false;
  std::vector<int> by_hops_;    // counting-sort buckets
};

/// CAs that send the same traffic: one entry switch, one LID offset.
struct SenderGroup {
  int entry = -1;            // the switch cabled to port 1 of every member
  int offset = -1;           // the LID offset they send on; -1 = all offsets (kAllOffsets)
  std::vector<int> members;  // ascending

  bool sends_on(int lid_offset) const { return offset < 0 || offset == lid_offset; }
};

/// Who sends and on which LIDs, from the offset choice.
struct Senders {
  std::vector<int> cas;                     // every CA with a LID, ascending
  std::vector<SenderGroup> groups;          // by (entry, offset)
  std::vector<std::vector<int>> groups_at;  // per node: its groups, for a switch
  std::vector<int> offsets;                 // the LID offsets anyone sends on, ascending
  std::vector<std::vector<int>> groups_on;  // per entry of `offsets`: the groups sending on it
  std::vector<std::vector<int>> entries_on; // per entry of `offsets`: those groups' entry switches, once each
  std::vector<int> stray;                   // CAs with a LID whose port 1 is not cabled to a switch
  std::vector<int> stray_offset;            // per stray CA (parallel): its offset, -1 = all
};

/// The senders `choice` says: input.offsets for contention, every offset for
/// correctness. `compute_only` leaves SHARP Aggregation Nodes out (contention
/// is the compute hosts'; ANs need routes, not bandwidth figures).
Senders group_senders(const AuditInput& input, const OffsetChoice& choice, bool compute_only = false);

/// The switch behind port 1 of CA `ca`; -1 when none.
int entry_switch(const Fabric& fabric, int ca);

/// Dense numbers for switch ports, so per-channel data can live in vectors.
class ChannelIndex {
 public:
  explicit ChannelIndex(const Fabric& fabric);
  int of(PortRef port) const { return first_[port.node] + port.port; }
  PortRef at(int index) const { return ports_[index]; }
  int size() const { return static_cast<int>(ports_.size()); }

 private:
  std::vector<int> first_;  // per node: index of its port 0; -1 for CAs
  std::vector<PortRef> ports_;
};

}  // namespace ftclos
