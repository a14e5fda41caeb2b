// Multicast trees that keep the unicast routing deadlock-free (issue #13).
//
// A switch forwards a multicast packet to every port of its MFT entry but
// the one it came in on, so a tree carries packets both ways: every pair of
// its ports at a switch is a turn. OpenSM's generic tree (osm_mcast_mgr.c,
// rooted at the switch of least average hops) ignores the unicast order:
// where its branches turn from a down channel to an up channel of that
// order they can close a credit loop with unicast traffic on the same VL.
//
// The tree built here keeps the unicast order instead. Switches are totally
// ordered, the top first, exactly as the unicast routing orders them
// (levels for the folded-Clos schemes, (rank, GUID) for up*/down*); a cable
// leads down toward the later switch. The tree is rooted at one switch and
// every tree cable leads down from parent to child. So at every switch the
// tree has at most one up port (toward its parent): a packet that came down
// goes on only down, one that came up goes up or down. No tree turn goes
// from down to up, the turn the unicast routing never takes either; along
// any chain of legal turns the order position falls while climbing and rises
// while descending, never turning back up, so no cycle of channel
// dependencies can close, among the trees, among the unicast routes, or
// between them (per VL, and so on every VL at once).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/fabric.h"
#include "core/status.h"
#include "detect/detect.h"

namespace ftclos {

/// A total order of the switches, top first: position[node] (-1 for CAs and
/// switches the order leaves out). A cable from a to b leads down when
/// position[a] < position[b].
struct SwitchOrder {
  std::vector<int> position;

  bool has(int node) const { return node >= 0 && node < static_cast<int>(position.size()) && position[node] >= 0; }
  bool down(int from, int to) const { return has(from) && has(to) && position[from] < position[to]; }
};

/// Levels highest first, then GUID and name: the up/down order of the
/// folded-Clos schemes (a cable inside a level, which they never route over,
/// leads down toward the higher GUID).
SwitchOrder order_from_levels(const Fabric& fabric, const Levels& levels);
/// Up*/down*'s (rank, GUID, name) order (detect/star_roots.h), roots first.
SwitchOrder order_from_star(const Fabric& fabric, const StarRoots& star);
/// The order the unicast tables of `scheme` (the scheme that routed them,
/// what auto chose) keep: up*/down*'s for "updown-star", the levels' for
/// every other scheme. "layered" keeps none (shortest paths on VL layers):
/// its trees take up*/down*'s order, acyclic among themselves but with no
/// guarantee against its SL 0 unicast routes, so only the audit shows it.
SwitchOrder unicast_order(const Fabric& fabric, const Detection& detection, std::string_view scheme);

/// One multicast group's forwarding: per node, the ports of its MFT entry
/// for the MLID, ascending (port 0: the switch itself is a member); empty
/// for CAs and switches outside the tree.
struct McastForwarding {
  int mlid = 0;    // 0xC000 and above
  uint8_t sl = 0;  // the group's SL, which decides the VL of its packets
  std::vector<std::vector<uint8_t>> ports;  // [node]
};

struct McastTree {
  McastForwarding forwarding;
  int root = -1;           // the tree's top switch
  int depth = 0;           // cables from the root to the farthest member switch
  bool ordered = true;     // false: a shortest-path tree that ignores the order (see below)
};

/// The tree of `mlid` for `members` (CA ports, or port 0 of member
/// switches): rooted at the switch from which every member's switch is
/// reached going only down the order, with the shallowest tree, then the
/// fewest switches (ties rotate with the MLID, so groups spread over the
/// top). Each switch keeps one parent: the first on a shortest downward path.
/// Fails when a member port is not cabled to a switch, or no switch reaches
/// all members going down (MiKANT's halves share no top switch).
Result<McastTree> build_mcast_tree(const Fabric& fabric, const SwitchOrder& order, const std::vector<PortRef>& members,
                                   int mlid);

/// The fallback when build_mcast_tree fails for want of a common top: the
/// same choice over shortest paths through every switch cable, as OpenSM's
/// own tree does (ordered = false: it may close credit loops with unicast).
Result<McastTree> build_shortest_path_tree(const Fabric& fabric, const std::vector<PortRef>& members, int mlid);

}  // namespace ftclos
