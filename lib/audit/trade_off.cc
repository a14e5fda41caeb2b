#include "audit/trade_off.h"

#include "audit/worst_case.h"
#include "tables/previous_tables.h"

namespace ftclos {

TradeOff measure_trade_off(const Fabric& fabric, const Levels& levels, const LidMap& lids, const Lfts& previous,
                           const Routing& repair, const Routing& rebalance, bool worst_cases) {
  auto worst_case = [&](const Routing& routing) { return routing_worst_case(fabric, levels, lids, routing); };
  TradeOff trade_off;
  trade_off.repair_changed = table_change(lids, previous, repair.lfts).entries;
  trade_off.rebalance_changed = table_change(lids, previous, rebalance.lfts).entries;
  if (worst_cases) {
    trade_off.repair_worst = worst_case(repair);
    trade_off.rebalance_worst = worst_case(rebalance);
  }
  return trade_off;
}

}  // namespace ftclos
