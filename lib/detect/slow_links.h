// Cables that run slower or narrower than their siblings: a cable that
// trained at 4xDDR among 4xEDR ones halves a path's bandwidth without
// changing the topology, and only the rate ibnetdiscover prints shows it.
#pragma once

#include <vector>

#include "core/fabric.h"
#include "detect/deviation.h"
#include "detect/levels.h"

namespace ftclos {

/// One slow-link deviation per cable whose rate is below the most common
/// rate among the cables joining the same two levels (hosts count as level
/// 0; attached hosts form their own group by the level they hang from).
/// Cables of unknown rate are neither judged nor counted.
std::vector<Deviation> slow_links(const Fabric& fabric, const Levels& levels);

/// Moves out of `slow` (slow_links' output) the host cables that are slow
/// by design and returns them: those of a kind of CA (its name up to the
/// first digit: "stor" of "stor03 HCA-1") of which at least two are
/// cabled, every one of them at the same rate below its siblings' (storage
/// appliances at EDR in an HDR fabric). One compute HCA that trained slower
/// than the others of its kind stays a deviation.
std::vector<Deviation> take_slow_by_design(const Fabric& fabric, std::vector<Deviation>& slow);

}  // namespace ftclos
