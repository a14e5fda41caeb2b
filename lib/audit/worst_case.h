// A routing's exact worst-case contention, every CA on its path bits and
// SLs as the routing gives them: the one figure route --previous, the
// plugin's trade-off line and auto's challengers (RoutingInput::worst_case)
// compare schemes by.
#pragma once

#include <optional>

#include "audit/audit.h"
#include "core/fabric.h"
#include "detect/levels.h"
#include "route/lid_map.h"
#include "route/routing.h"

namespace ftclos {

double routing_worst_case(const Fabric& fabric, const Levels& levels, const LidMap& lids, const Routing& routing);

/// The same with every CA on offset 0, base(d): what hosts that take the
/// SA's first PathRecord meet (at LMC 0 the one figure).
double offset_zero_worst_case(const Fabric& fabric, const Levels& levels, const LidMap& lids, const Routing& routing);

/// Worst-case contention of LMC > 0 tables per kind of consumer.
struct ConsumerFigures {
  double offset0 = 0;               // every host on base(d) + 0: the SA's first PathRecord, rdmacm, default UCX/MPI
  std::optional<double> path_bits;  // every host on its path bits, where they are known (a scheme's, --pathbits)
  double all_offsets = 0;           // every host spread over all offsets: multipath consumers
};

/// The three figures of `input`'s tables; the path bits' where `own` gives
/// them (OffsetChoice::Mode::kPathBits). input.offsets is not read.
ConsumerFigures consumer_figures(const AuditInput& input, const OffsetChoice& own);

/// routing_worst_case as auto takes it (RoutingInput::worst_case).
WorstCaseMeasure exact_worst_case_measure();

}  // namespace ftclos
