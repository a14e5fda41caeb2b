// Levels of a fabric counted from the compute hosts upward: CAs are level 0,
// leaves (the switches that carry compute hosts) level 1, and every other
// switch one more than its nearest lower neighbour (BFS distance from the
// leaves). A CA on a higher switch is an attached host (storage, login, SM):
// level 0 too, listed in io_hosts, and not part of the family's shape. Port
// directions follow from the levels. SHARP Aggregation Nodes are attached
// hosts wherever they sit, leaves included: they make no switch a leaf.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "core/fabric.h"

namespace ftclos {

struct Levels {
  std::vector<int> of;        // per node; -1 for a switch no leaf can reach
  int height = 0;             // highest switch level
  std::vector<int> io_hosts;  // CAs cabled to a switch that is no leaf, and every AN, by index
  std::vector<int> aggregation_nodes;  // SHARP ANs (core/aggregation_node.h), by index: attached, never compute hosts
  std::vector<int> management;  // switches apart from the tree (detect/management_leaves.h), by index, sorted

  bool is_io_host(int node) const;
  bool is_management(int node) const;
};

/// What the operator knows, as OpenSM's ftree takes it (cn_guid_file,
/// io_guid_file, root_guid_file): GUIDs of compute CAs, of attached (I/O)
/// CAs — node or port GUIDs — and of root switches. Hints override guesses.
struct HostHints {
  std::set<uint64_t> compute;
  std::set<uint64_t> io;
  std::set<uint64_t> roots;

  bool empty() const { return compute.empty() && io.empty() && roots.empty(); }
};

/// The level of the switch CA `ca` is cabled to (an I/O host's level); 0
/// when it has no cable.
int attached_level(const Fabric& fabric, const Levels& levels, int ca);

/// The levels with `leaf` switches at level 1.
Levels levels_from_leaves(const Fabric& fabric, const std::vector<bool>& leaf);

/// The leaf sets worth fitting, the best guess first. Leaves start as the
/// switches with a CA (those of compute CAs when hints name some, never a
/// switch of only I/O CAs or a root) and the hostless switches cabled to
/// one switch only. Two leaves cabled together cannot both
/// be leaves of a folded Clos: the one whose hosts fill the smaller share of
/// its cabled ports is not (storage on the spines). Leaves with fewer hosts
/// than the median leaf may be attached switches of the same parity (storage
/// on the top of a 3-level tree): then a second guess without them follows,
/// and recognition keeps whichever fits with fewer deviations.
std::vector<std::vector<bool>> leaf_guesses(const Fabric& fabric, const HostHints& hints = {});

/// levels_from_leaves of the first guess.
Levels compute_levels(const Fabric& fabric, const HostHints& hints = {});

enum class Direction : uint8_t { kNone, kDown, kUp, kSide };

/// Where a cabled port leads relative to its node: kDown toward the CAs, kUp
/// away from them, kSide to a switch of the same level; kNone when uncabled.
Direction direction(const Fabric& fabric, const Levels& levels, PortRef port);

/// Whether every switch-to-switch cable joins adjacent levels (a folded
/// Clos, however degraded): then up/down is a rule over the whole fabric.
bool is_folded_clos(const Fabric& fabric, const Levels& levels);

/// "up", "down", "side" or "none".
const char* direction_name(Direction direction);

}  // namespace ftclos
