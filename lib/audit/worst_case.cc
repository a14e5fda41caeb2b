#include "audit/worst_case.h"

#include "audit/audit.h"

namespace ftclos {

double routing_worst_case(const Fabric& fabric, const Levels& levels, const LidMap& lids, const Routing& routing) {
  return worst_case_contention({fabric, levels, lids, routing.lfts,
                                {OffsetChoice::Mode::kPathBits, 0, routing.path_bits}, routing.dest_sl, {}})
      .worst_case;
}

WorstCaseMeasure exact_worst_case_measure() {
  return [](const RoutingInput& input, const Routing& routing) {
    return routing_worst_case(input.fabric, input.detection.levels, input.lids, routing);
  };
}

}  // namespace ftclos
