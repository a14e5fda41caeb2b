// Levels of a fabric counted from the CAs upward: CAs are level 0, switches
// with a CA are level 1 (leaves), and every other switch is one more than
// its nearest lower neighbour (BFS distance from the CAs). Port directions
// follow from the levels.
#pragma once

#include <vector>

#include "core/fabric.h"

namespace ftclos {

struct Levels {
  std::vector<int> of;  // per node; -1 for a switch no CA can reach
  int height = 0;       // highest switch level
};

Levels compute_levels(const Fabric& fabric);

enum class Direction : uint8_t { kNone, kDown, kUp, kSide };

/// Where a cabled port leads relative to its node: kDown toward the CAs, kUp
/// away from them, kSide to a switch of the same level; kNone when uncabled.
Direction direction(const Fabric& fabric, const Levels& levels, PortRef port);

/// "up", "down", "side" or "none".
const char* direction_name(Direction direction);

}  // namespace ftclos
