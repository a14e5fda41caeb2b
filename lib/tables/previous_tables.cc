#include "tables/previous_tables.h"

#include <algorithm>
#include <cstdint>

#include "core/workers.h"
#include "detect/levels.h"
#include "paths/detour_layers.h"
#include "paths/updown_reach.h"

namespace ftclos {

void keep_previous(const RoutingInput& input, const Lfts& previous, Routing& routing) {
  const Fabric& fabric = input.fabric;
  const UpDownReach reach(fabric, input.detection.levels);
  const std::vector<Exit> exits = exits_by_lid(fabric, input.lids);
  // Switches' own routes that turn (paths/switch_routes_legal.h) are no
  // rule's: on a folded Clos the switch LIDs are kept there, not here.
  const bool folded_clos = is_folded_clos(fabric, input.detection.levels);
  // Each switch's table is its own: blocks of switches in parallel (a
  // failure sweep after a cut, where the scheme's tables differ in a third
  // of FT(48,3)'s 88 million entries, checks each of those here).
  const int switches = std::min(fabric.size(), static_cast<int>(routing.lfts.port.size()));
  for_each_block(switches, worker_count(switches / 64 + 1), [&](int, long begin, long end) {
    for (int x = static_cast<int>(begin); x < end; ++x) {
      if (!fabric.node(x).is_switch()) continue;
      std::vector<uint8_t>& now = routing.lfts.port[x];
      const std::vector<uint8_t>* before = x < static_cast<int>(previous.port.size()) ? &previous.port[x] : nullptr;
      for (int lid = 1; lid < static_cast<int>(now.size()) && lid < static_cast<int>(exits.size()); ++lid) {
        const int owner = input.lids.owner[lid];
        if (owner < 0 || (folded_clos && fabric.node(owner).is_switch())) continue;
        const uint8_t old = before && lid < static_cast<int>(before->size()) ? (*before)[lid] : kNoPath;
        if (old != kNoPath && old != now[lid] && reach.allows(x, exits[lid], old)) now[lid] = old;
      }
    }
  });
  if (!routing.dest_sl.empty() && !input.detection.levels.io_hosts.empty()) {
    // The layers were made for the new tables; the kept entries change the dependencies.
    std::erase_if(routing.notes, [](const std::string& note) { return note.find("down-up turn") != std::string::npos; });
    routing.dest_sl.clear();
    layer_detours(input, reach, routing);
  }
}

TableChange table_change(const LidMap& lids, const Lfts& previous, const Lfts& now) {
  // Each switch's count is its own: blocks of switches in parallel, summed.
  const long switches = static_cast<long>(std::min(now.port.size(), previous.port.size()));
  const int workers = worker_count(switches / 64 + 1);
  std::vector<TableChange> parts(workers);
  for_each_block(switches, workers, [&](int w, long begin, long end) {
    for (long x = begin; x < end; ++x) {
      const std::vector<uint8_t>& before = previous.port[x];
      const std::vector<uint8_t>& after = now.port[x];
      if (before.empty()) continue;
      size_t last_block = SIZE_MAX;
      for (size_t lid = 1; lid < after.size() && lid < lids.owner.size(); ++lid) {
        if (lids.owner[lid] < 0 || after[lid] == (lid < before.size() ? before[lid] : kNoPath)) continue;
        ++parts[w].entries;
        parts[w].blocks += lid / kLftBlockLids != last_block;
        last_block = lid / kLftBlockLids;
      }
    }
  });
  TableChange change;
  for (const TableChange& part : parts) {
    change.entries += part.entries;
    change.blocks += part.blocks;
  }
  return change;
}

}  // namespace ftclos
