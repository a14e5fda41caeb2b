// A routing's exact worst-case contention, every CA on its path bits and
// SLs as the routing gives them: the one figure route --previous, the
// plugin's trade-off line and auto's challengers (RoutingInput::worst_case)
// compare schemes by.
#pragma once

#include "core/fabric.h"
#include "detect/levels.h"
#include "route/lid_map.h"
#include "route/routing.h"

namespace ftclos {

double routing_worst_case(const Fabric& fabric, const Levels& levels, const LidMap& lids, const Routing& routing);

/// routing_worst_case as auto takes it (RoutingInput::worst_case).
WorstCaseMeasure exact_worst_case_measure();

}  // namespace ftclos
