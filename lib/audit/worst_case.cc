#include "audit/worst_case.h"

#include <utility>

#include "audit/audit.h"

namespace ftclos {

double routing_worst_case(const Fabric& fabric, const Levels& levels, const LidMap& lids, const Routing& routing) {
  return worst_case_value({fabric, levels, lids, routing.lfts, {OffsetChoice::Mode::kPathBits, 0, routing.path_bits},
                           routing.dest_sl, {}});
}

double offset_zero_worst_case(const Fabric& fabric, const Levels& levels, const LidMap& lids, const Routing& routing) {
  return worst_case_value({fabric, levels, lids, routing.lfts, {OffsetChoice::Mode::kFixed, 0, {}}, routing.dest_sl, {}});
}

ConsumerFigures consumer_figures(const AuditInput& input, const OffsetChoice& own) {
  auto worst = [&](OffsetChoice offsets) {
    AuditInput each = input;
    each.offsets = std::move(offsets);
    return worst_case_value(each);
  };
  ConsumerFigures figures;
  figures.offset0 = worst({OffsetChoice::Mode::kFixed, 0, {}});
  if (own.mode == OffsetChoice::Mode::kPathBits) figures.path_bits = worst(own);
  figures.all_offsets = worst({OffsetChoice::Mode::kAllOffsets, 0, {}});
  return figures;
}

WorstCaseMeasure exact_worst_case_measure() {
  return [](const RoutingInput& input, const Routing& routing) {
    return routing_worst_case(input.fabric, input.detection.levels, input.lids, routing);
  };
}

}  // namespace ftclos
