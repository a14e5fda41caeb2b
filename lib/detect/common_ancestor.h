// The up/down condition of Camarero et al. (Theorem 4.2): a folded Clos has a
// deadlock-free up/down routing iff every pair of leaves has a common ancestor.
#pragma once

#include "core/fabric.h"

namespace ftclos {

/// Whether every two leaves (switches with at least one CA) share an ancestor:
/// a switch reached from both by going strictly up, where a node's level is
/// its hop distance from the nearest CA. True when there are fewer than two leaves.
bool every_leaf_pair_has_common_ancestor(const Fabric& fabric);

}  // namespace ftclos
