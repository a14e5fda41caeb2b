#include "detect/levels.h"

#include <algorithm>
#include <deque>

namespace ftclos {

Levels compute_levels(const Fabric& fabric) {
  Levels levels;
  levels.of.assign(fabric.size(), -1);
  std::deque<int> queue;
  for (int i = 0; i < fabric.size(); ++i) {
    if (!fabric.node(i).is_switch()) {
      levels.of[i] = 0;
      queue.push_back(i);
    }
  }
  while (!queue.empty()) {
    const int current = queue.front();
    queue.pop_front();
    const Node& node = fabric.node(current);
    for (int p = 1; p <= node.num_ports; ++p) {
      const PortRef peer = node.ports[p].peer;
      if (!peer.valid() || levels.of[peer.node] >= 0) continue;
      // CAs are all seeded at level 0; a CA behind a CA is not a tree.
      if (!fabric.node(peer.node).is_switch()) continue;
      levels.of[peer.node] = levels.of[current] + 1;
      levels.height = std::max(levels.height, levels.of[peer.node]);
      queue.push_back(peer.node);
    }
  }
  return levels;
}

Direction direction(const Fabric& fabric, const Levels& levels, PortRef port) {
  const PortRef peer = fabric.peer(port);
  if (!peer.valid()) return Direction::kNone;
  const int mine = levels.of[port.node];
  const int theirs = levels.of[peer.node];
  if (theirs < mine) return Direction::kDown;
  if (theirs > mine) return Direction::kUp;
  return Direction::kSide;
}

const char* direction_name(Direction direction) {
  switch (direction) {
    case Direction::kUp: return "up";
    case Direction::kDown: return "down";
    case Direction::kSide: return "side";
    case Direction::kNone: break;
  }
  return "none";
}

}  // namespace ftclos
