// Rails, as the HCAs' node descriptions name them: a DGX reports each HCA
// as "<host> mlx5_<n>", and a rail-optimized pod cables HCA n of every
// server of a scalable unit to one leaf.
#pragma once

#include "core/fabric.h"
#include "detect/levels.h"

namespace ftclos {

/// The number of distinct "mlx5_<n>" HCA names when every leaf carries
/// compute HCAs of one such name only; 0 when the names do not say (no
/// such names, or a leaf with two).
int named_rails(const Fabric& fabric, const Levels& levels);

}  // namespace ftclos
