#include "engine/pending_steps.h"

#include <algorithm>

#include "engine/deferred_polish.h"

namespace ftclos {

void PendingSteps::keep(const Fabric& fabric, const LidMap& lids, const SafeSteps& steps, const Lfts& after) {
  steps_.clear();
  total_ = static_cast<int>(steps.steps.size());
  if (total_ < 2) return;
  fabric_ = fabric;
  lids_ = lids;
  const std::vector<uint8_t> no_sls;
  const std::vector<SlException> no_exceptions;
  for (size_t k = 1; k < steps.steps.size(); ++k) {
    const EntryOverrides &earlier = steps.steps[k - 1].differs, &later = steps.steps[k].differs;
    const TablesSide was{after, no_sls, no_exceptions, &earlier}, now{after, no_sls, no_exceptions, &later};
    Step step{{}, steps.steps[k].dest_sl};
    // Only entries either step sets can differ between them.
    for (int lid = 0; lid < static_cast<int>(std::max(earlier.size(), later.size())); ++lid) {
      std::vector<int> switches;
      for (const EntryOverrides* differs : {&earlier, &later})
        if (lid < static_cast<int>(differs->size()))
          for (const auto& [x, port] : (*differs)[lid]) switches.push_back(x);
      std::ranges::sort(switches);
      switches.erase(std::unique(switches.begin(), switches.end()), switches.end());
      for (int x : switches)
        if (now.port(x, lid) != was.port(x, lid)) step.entries.push_back({x, lid, now.port(x, lid)});
    }
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
