// Repair against rebalance after a failure: the previous tables' still-valid
// entries kept (fewest changes) or the scheme's own tables (its balance).
// `ftclos route --previous` prints both sides and the plugin logs them.
#pragma once

#include "core/fabric.h"
#include "detect/levels.h"
#include "route/lid_map.h"
#include "route/routing.h"

namespace ftclos {

struct TradeOff {
  long repair_changed = 0;     // entries that differ from the previous tables
  long rebalance_changed = 0;
  double repair_worst = -1;    // exact worst-case contention; -1 when not measured
  double rebalance_worst = -1;
};

/// Counts each side's changed entries and, with `worst_cases`, audits each
/// side's worst-case contention (every CA on its path bits).
TradeOff measure_trade_off(const Fabric& fabric, const Levels& levels, const LidMap& lids, const Lfts& previous,
                           const Routing& repair, const Routing& rebalance, bool worst_cases);

}  // namespace ftclos
