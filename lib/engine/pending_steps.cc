#include "engine/pending_steps.h"

#include "engine/deferred_polish.h"

namespace ftclos {

void PendingSteps::keep(const Fabric& fabric, const LidMap& lids, const SafeSteps& steps) {
  steps_.clear();
  total_ = static_cast<int>(steps.steps.size());
  if (total_ < 2) return;
  fabric_ = fabric;
  lids_ = lids;
  for (size_t k = 1; k < steps.steps.size(); ++k) {
    const Lfts &before = steps.steps[k - 1].lfts, &after = steps.steps[k].lfts;
    Step step{{}, steps.steps[k].dest_sl};
    for (int x = 0; x < static_cast<int>(after.port.size()); ++x)
      for (int lid = 0; lid < static_cast<int>(after.port[x].size()); ++lid)
        if (after.port[x][lid] != before.at_or_none(x, lid)) step.entries.push_back({x, lid, after.port[x][lid]});
    steps_.push_back(std::move(step));
  }
}

bool PendingSteps::apply_next(const Fabric& fabric, const LidMap& lids, Lfts& tables, std::vector<uint8_t>& dest_sl) {
  if (steps_.empty()) return false;
  if (!same_subnet(fabric_, lids_, fabric, lids) || tables.port.size() != static_cast<size_t>(fabric.size())) {
    steps_.clear();
    return false;
  }
  Step& step = steps_.front();
  for (const Entry& entry : step.entries) {
    std::vector<uint8_t>& table = tables.port[entry.node];
    if (table.size() <= static_cast<size_t>(entry.lid)) table.resize(entry.lid + 1, kNoPath);
    table[entry.lid] = entry.port;
  }
  dest_sl = std::move(step.dest_sl);
  steps_.pop_front();
  return true;
}

}  // namespace ftclos
