// A degraded MiKANT the tests share: the one where one SL is not enough.
#pragma once

#include "core/fabric.h"

namespace ftclos {

/// Removes the straight side cables <0,n-2,D> - <1,n-2,D> of the top block
/// with D_0 = 0: detours then cross the groups twice, and MiKANT's routes
/// have credit loops on one SL (none with one SL per destination group).
void cut_straight_cables(Fabric& fabric);

}  // namespace ftclos
