// The up/down condition of Camarero et al. (Theorem 4.2): a folded Clos has a
// deadlock-free up/down routing iff every pair of leaves has a common ancestor.
#pragma once

#include "core/fabric.h"
#include "detect/levels.h"

namespace ftclos {

/// Whether every two leaves (level-1 switches; management leaves, routed
/// on up*/down* trees, aside) share an ancestor: a switch reached from both
/// by going strictly up. True when there are fewer than two leaves.
bool every_leaf_pair_has_common_ancestor(const Fabric& fabric, const Levels& levels);
/// The same with compute_levels(fabric).
bool every_leaf_pair_has_common_ancestor(const Fabric& fabric);

}  // namespace ftclos
