// The forwarding trees that traffic-matrix loads (pattern_load.h) push
// traffic down. LFTs are keyed by destination LID, so for one LID the entries
// of all switches form an in-tree toward its owner, except where traffic is
// lost: no route, a dead port, the wrong CA, a loop.
//
// Traffic to a LID enters at the switches CAs are cabled to (entry
// switches). A LoadPlan compiles a LID's tree, the switches entry traffic
// passes in order, farthest first, with the channels they leave by, once
// walking paths through the LFTs would have cost about as much, and keeps
// it for every later matrix on the same tables: one plan serves all the
// instances and patterns of a table set, and a sparse matrix does not pay
// for whole trees. On a compiled tree, many entering paths are pushed down
// all of it at once and a few are walked, in a small contiguous block.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "audit/audit.h"
#include "core/fabric.h"
#include "route/routing.h"

namespace ftclos {

/// The tables the traffic is routed over and the LID offset each source uses.
struct LoadInput {
  const Fabric& fabric;
  const LidMap& lids;
  const Lfts& lfts;
  OffsetChoice offsets;
};

class LoadPlan {
 public:
  /// Keeps references to the fabric, LIDs and LFTs of `input`, which must
  /// outlive the plan; no tree is compiled yet.
  explicit LoadPlan(const LoadInput& input);

  const LoadInput& input() const { return input_; }
  int lids_per_ca() const { return lids_per_ca_; }
  /// Whether every source splits its traffic evenly over all LID offsets
  /// (otherwise each sends on one).
  bool spreads() const { return input_.offsets.mode == OffsetChoice::Mode::kAllOffsets; }
  /// Switches are numbered 0..switch_count()-1.
  int switch_count() const { return static_cast<int>(switch_channel_.size()); }

  /// Channel (directed link) c = first_channel()[node] + port, port 0
  /// included; the last element is the channel count.
  const std::vector<int>& first_channel() const { return first_channel_; }

  /// What a CA's traffic meets first.
  struct Source {
    int ca_channel = 0;  // its port 1
    int peer = -1;       // the node past it, -1 when uncabled
    int entry = -1;      // that node's switch number, -1 when it is no switch
    int offset = 0;      // the LID offset it sends on (when it does not spread)
  };
  const Source& source(int ca) const { return sources_[ca]; }

  /// Entry switches are numbered 0..; -1 for other switches.
  int entry_number(int s) const { return entry_number_[s]; }

  /// A compiled tree: the switches traffic from entry switches passes, as
  /// positions 0..size()-1, farthest from the target first; position i
  /// leaves by channel[i] toward position next[i], size() standing for the
  /// target. Positions fit 16 bits: every switch takes a unicast LID.
  struct Tree {
    static constexpr uint16_t kLost = 0xFFFF;
    std::span<const int> channel;
    std::span<const uint16_t> next;
    std::span<const uint16_t> entry;  // per entry number: its position, kLost when its traffic never gets there

    int size() const { return static_cast<int>(channel.size()); }
  };

  /// The tree of LID base(target) + offset when pushing the traffic of
  /// `entries` entry switches down all of it is cheaper than walking their
  /// paths one by one, compiling it first if walks through the LFTs on it
  /// have cost about as much as that; otherwise nothing, and walk() them.
  /// Valid until the next call.
  std::optional<Tree> tree_to_sweep(int target, int offset, int entries);

  /// Walks LID base(target) + offset from entry switch s, through its
  /// compiled tree or else through the LFTs (counting toward compiling it),
  /// calling visit(channel) on each channel taken; returns whether the
  /// traffic gets to the target (visit may have been called when not).
  template <class Visit>
  bool walk(int target, int offset, int s, Visit&& visit);

 private:
  // Where a tree's positions (in channel_, next_) and entry positions are
  // once compiled; before, the steps walks through the LFTs took on it.
  struct Compiled {
    uint32_t begin = 0, end = 0, entries_begin = 0;
    uint32_t walked = 0;
    uint16_t depth = 0;  // the most hops from an entry switch
    bool done = false;
  };

  Compiled& compiled(int target, int offset) {
    return compiled_[static_cast<size_t>(target) * lids_per_ca_ + offset];
  }
  template <class Visit>
  bool walk_lfts(Compiled& tree, int target, int offset, int s, Visit&& visit);
  int port_toward(int s, int lid) const;
  void compile(Compiled& tree, int target, int offset);
  void resolve(int from, int target, int lid);

  LoadInput input_;
  int lids_per_ca_;
  std::vector<int> first_channel_;
  std::vector<int> switch_channel_;   // per switch number: its first channel
  std::vector<int> switch_ports_;     // per switch number: its port count
  std::vector<const uint8_t*> rows_;  // per switch number: its LFT row
  std::vector<int> row_size_;
  std::vector<int> switch_at_;        // per channel: switch number of its far end, -1 when none
  std::vector<int> node_at_;          // per channel: node index of its far end, -1 when uncabled
  std::vector<Source> sources_;       // per node (CAs only filled)
  std::vector<int> entry_switches_;   // by entry number: switch number
  std::vector<int> entry_number_;     // per switch number
  std::vector<Compiled> compiled_;    // per (target node, offset)
  std::vector<int> channel_;          // the compiled trees, one after the other
  std::vector<uint16_t> next_;
  std::vector<uint16_t> entry_position_;
  std::vector<int> seen_;             // per switch: the walk that last passed it
  int walk_number_ = 0;
  std::vector<int> depth_;            // per switch, while compiling: hops to the target
  std::vector<int> position_;         // per switch, while compiling
  std::vector<int> path_, reached_;
};

inline int LoadPlan::port_toward(int s, int lid) const {
  const int port = lid < row_size_[s] ? rows_[s][lid] : kNoPath;
  return port == kNoPath || port > switch_ports_[s] ? 0 : port;
}

template <class Visit>
bool LoadPlan::walk(int target, int offset, int s, Visit&& visit) {
  Compiled& tree = compiled(target, offset);
  if (!tree.done) return walk_lfts(tree, target, offset, s, visit);
  const uint16_t position = entry_position_[tree.entries_begin + entry_number_[s]];
  if (position == Tree::kLost) return false;
  for (uint32_t p = tree.begin + position; p != tree.end; p = tree.begin + next_[p]) visit(channel_[p]);
  return true;
}

template <class Visit>
bool LoadPlan::walk_lfts(Compiled& tree, int target, int offset, int s, Visit&& visit) {
  const int lid = input_.lids.base[target] + offset;
  for (++walk_number_;;) {
    if (seen_[s] == walk_number_) return false;  // a loop
    seen_[s] = walk_number_;
    ++tree.walked;
    const int port = port_toward(s, lid);
    if (port == 0) return false;
    const int channel = switch_channel_[s] + port;
    visit(channel);
    if (node_at_[channel] == target) return true;
    s = switch_at_[channel];
    if (s < 0) return false;  // uncabled, or another CA
  }
}

}  // namespace ftclos
