// The roots of up*/down* (Autonet) routing, which routes any connected
// fabric (paths/updown_star.h): switches are ranked by BFS hops from the
// roots, and a switch cable leads up toward the end with the lower (rank,
// GUID). Routes climb, then descend: the order is total, so no cycle of
// channel dependencies can close (deadlock-free on one VL).
//
// Which roots: the switches of a root GUID file when one is given, else the
// top level where the fabric has levels above the leaves, else the top
// switches that share a child with the first of them (one chassis' spines in
// a chassis of chassis), else the switch of least eccentricity (lowest GUID
// among equals). Roots are kept only if
// every switch with a CA reaches every switch by a legal path (climb, then
// descend); otherwise the next choice is tried. A single root always
// qualifies on a connected fabric: every other switch climbs to it along
// its BFS tree, and descends from it the same way.
#pragma once

#include <string>
#include <vector>

#include "core/fabric.h"
#include "detect/levels.h"

namespace ftclos {

struct StarRoots {
  std::vector<int> roots;  // node indices, by (GUID, name)
  std::vector<int> rank;   // per node: BFS hops from the nearest root; -1 for CAs
  std::string why;         // how the roots were chosen, for people

  /// Whether a cable from switch `from` to switch `to` leads up: `to` has
  /// the lower (rank, GUID, name).
  bool up(const Fabric& fabric, int from, int to) const;
};

/// The roots for a connected fabric with these levels and hints.
StarRoots choose_star_roots(const Fabric& fabric, const Levels& levels, const HostHints& hints);

/// Up to `count` orders, `first` first, each further one rooted as far
/// (switch hops) from the roots before as a switch of first's roots' level
/// lies (any switch where they span levels; lowest GUID among equals): on a
/// top level, with the top switches that share a child with it (one
/// chassis' spines) where those qualify, else alone. Fewer where every
/// such switch is a root already.
std::vector<StarRoots> spread_star_roots(const Fabric& fabric, const Levels& levels, const StarRoots& first,
                                         int count);

}  // namespace ftclos
