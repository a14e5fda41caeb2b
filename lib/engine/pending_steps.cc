#include "engine/pending_steps.h"

#include <iterator>

#include "engine/deferred_polish.h"

namespace ftclos {

void PendingSteps::keep(const Fabric& fabric, const LidMap& lids, SafeSteps&& steps) {
  steps_.clear();
  total_ = static_cast<int>(steps.steps.size());
  if (total_ < 2) return;
  fabric_ = fabric;
  lids_ = lids;
  steps_.assign(std::make_move_iterator(steps.steps.begin() + 1), std::make_move_iterator(steps.steps.end()));
}

std::optional<TableStep> PendingSteps::next_for(const Fabric& fabric, const LidMap& lids) {
  if (steps_.empty()) return std::nullopt;
  if (!same_subnet(fabric_, lids_, fabric, lids)) {
    steps_.clear();
    return std::nullopt;
  }
  TableStep next = std::move(steps_.front());
  steps_.pop_front();
  return next;
}

}  // namespace ftclos
