// Up/down reachability on any folded Clos, intact, degraded or random
// (Camarero et al. §4.1): which switches can still deliver to which, and the
// port rule every scheme's LFT entries must obey.
//
// The rule, at switch X for a packet whose target switch is T (the leaf of
// a destination CA, or the destination switch itself):
//   X in down_reach(T)   (X reaches T going only down, T itself included):
//                        down ports whose peer is in down_reach(T);
//   otherwise:           up ports whose peer is in updown_reach(T) (it can
//                        go up, then down, to T).
// A packet thus never turns from down to up (deadlock-free) and levels only
// rise, then only fall (loop-free). The best ports are those of the rule on
// shortest up/down paths (turning at the lowest level possible).
//
// Switch LIDs carry only management traffic; where no up/down path to a
// target switch exists (between two top switches, or in a random Clos) the
// rule falls back to shortest paths over switch cables, so every switch stays
// reachable. So do attached hosts (CAs on switches above the leaves: storage
// on spines), whose detours turn from down to up: their LIDs get SLs of
// their own (paths/detour_layers.h). Compute hosts get no fallback.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/fabric.h"
#include "detect/levels.h"
#include "route/routing.h"

namespace ftclos {

/// Where traffic to a node leaves the switches: the switch it must reach and
/// the port out of that switch (the CA's cable; 0 when the node is that switch).
struct Exit {
  int target = -1;  // -1 when the node hangs on no switch
  int port = 0;
};

/// A switch exits to itself; a CA through the switch its port 1 is cabled to
/// (port 1 owns the CA's LIDs).
Exit exit_of(const Fabric& fabric, int node);
/// The switches the CAs that have LIDs enter the fabric at, once each, in node order.
std::vector<int> entry_switches(const Fabric& fabric, const LidMap& lids);
/// exit_of the owner of every LID (index = LID; target -1 where none).
std::vector<Exit> exits_by_lid(const Fabric& fabric, const LidMap& lids);

/// down_reach and updown_reach of every switch, stored as one byte per
/// (switch, target switch): the lowest level at which the switch can turn
/// down toward the target, which gives both sets and the shortest paths.
class UpDownReach {
 public:
  /// Keeps references to both; they must outlive this object.
  UpDownReach(const Fabric& fabric, const Levels& levels);

  bool in_down(int at, int target) const { return turn(at, target) == level(at); }
  bool in_updown(int at, int target) const { return turn(at, target) != kNever; }
  /// Whether some switch reaches `target` only by a detour.
  bool has_detours(int target) const { return index_[target] >= 0 && !detour_[index_[target]].empty(); }
  /// Whether traffic for `exit` may take a detour: a switch LID, or an
  /// attached host (its switch is above the leaves or a management switch,
  /// apart from the tree); compute hosts never do.
  bool may_detour(const Exit& exit) const {
    return exit.port == 0 || level(exit.target) > 1 || levels_.is_management(exit.target);
  }
  /// Whether the rule lets switch `at` send traffic for `exit` out of `port`.
  /// Reads the target's row: cheapest when the calls in a row share a target.
  bool allows(int at, const Exit& exit, int port) const;

  /// The switches a CA reaches, by ascending level, and a node's position
  /// there (-1 for CAs and unreached switches).
  const std::vector<int>& switches() const { return switches_; }
  int index(int node) const { return index_[node]; }
  /// The level at which switch `at` turns down toward `target` on a shortest
  /// up/down path (its own level when it is above the target), -1 if none.
  int turn_level(int at, int target) const {
    const uint8_t t = turn(at, target);
    return t == kNever ? -1 : t;
  }
  /// turn_level(at, target) for every `at` at once, by index (0xFF: none).
  /// The turning level is the lowest level of a switch above both, so it is
  /// symmetric: this is target's row, read in one pass.
  std::span<const uint8_t> turn_levels_toward(int target) const { return {row(target), switches_.size()}; }
  /// Hops to `target` over switch cables from every switch (by index; -1
  /// unreachable) when some switch reaches it only by a detour; else empty.
  std::span<const int> detour_hops_of(int target) const { return detour_[index_[target]]; }

 private:
  friend class BestPorts;
  static constexpr uint8_t kNever = 0xFF;

  int level(int node) const { return levels_.of[node]; }
  const uint8_t* row(int at) const { return &turn_[static_cast<size_t>(index_[at]) * switches_.size()]; }
  // The lowest level at which `at` can turn: of the switches it reaches going
  // up (itself included), the lowest one in down_reach(target); kNever if none.
  uint8_t turn(int at, int target) const { return row(at)[index_[target]]; }
  // Hops from `at` to the target of a detour; -1 when it has none.
  int detour_hops(int target, int at) const;
  void compute_turns();
  void compute_detours();

  const Fabric& fabric_;
  const Levels& levels_;
  std::vector<int> switches_;  // switches a CA reaches, by ascending level
  std::vector<int> index_;     // per node: position in switches_, or -1
  std::vector<uint8_t> turn_;  // [at][target] by index
  // By target index, where some switch cannot reach the target up/down: BFS
  // hops to it over switch cables, by switch index (-1 unreachable); empty
  // for the other targets.
  std::vector<std::vector<int>> detour_;
};

/// The best ports of one switch toward every target at once. Reading the
/// reach table row by row is what keeps routing a large fabric fast: fill it
/// for a switch, ask for any exits, refill for the next (memory is reused).
class BestPorts {
 public:
  explicit BestPorts(const UpDownReach& reach) : reach_(reach), by_target_(reach.switches_.size()) {}

  void fill(int at);
  /// The best ports of the filled switch toward `exit`, ascending (parallel
  /// cables each listed); empty when it cannot deliver, and at the target
  /// itself, which hands the packet over through exit.port.
  std::vector<uint8_t> toward(const Exit& exit) const;
  /// The port with the least load[port] (ties: the lowest): exit.port at the
  /// target itself, kNoPath when there is none.
  uint8_t least_loaded(const Exit& exit, const std::vector<int>& load) const;

 private:
  using PortMask = std::array<uint64_t, 4>;  // bit p set: port p (ports are 1..254)
  const PortMask* mask_toward(const Exit& exit) const;

  const UpDownReach& reach_;
  int at_ = -1;
  std::vector<PortMask> by_target_;  // by target index
  std::vector<bool> detour_;         // by target index: by_target_ holds a detour
};

/// Fills every switch's entries for the switch LIDs with least-loaded best
/// ports, counting the load the LFTs already carry.
void route_switch_lids(const RoutingInput& input, const UpDownReach& reach, Lfts& lfts);

/// Keeps every LFT entry the rule allows and moves the others (dead port,
/// missing cable, a peer that can no longer deliver) to the least-loaded best
/// port; entries with no allowed port become kNoPath (no up/down path exists).
/// Returns how many entries changed and adds that to routing.rerouted. On an
/// intact tree routed minimally it changes nothing.
int repair_dead_ports(const RoutingInput& input, const UpDownReach& reach, Routing& routing);
int repair_dead_ports(const RoutingInput& input, Routing& routing);

}  // namespace ftclos
