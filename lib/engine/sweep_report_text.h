// The sweep report for a person (`ftclos report DIR`): the last sweep's
// figures, its deviations, and what changed since the sweep before.
#pragma once

#include <string>

#include "engine/sweep_metrics.h"

namespace ftclos {

/// Lines for people: outcome, scheme, fabric, check, worst cases, change,
/// times, counters; then "since the previous sweep" with each figure that
/// moved ("worst case offset0: 4 -> 6"), or that none did.
std::string sweep_report_text(const SweepReport& report);

}  // namespace ftclos
