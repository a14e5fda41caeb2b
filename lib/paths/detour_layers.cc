#include "paths/detour_layers.h"

#include <fmt/format.h>

#include <vector>

#include "paths/cdg_layers.h"

namespace ftclos {

bool layer_acyclic(const Fabric& fabric, const Lfts& lfts, const std::vector<int>& lids) {
  const Channels channels(fabric);
  std::vector<Dependency> dependencies;
  for (int lid : lids) {
    const std::vector<Dependency> more = dependencies_toward(fabric, lfts, channels, lid);
    dependencies.insert(dependencies.end(), more.begin(), more.end());
  }
  return AcyclicLayer(channels.count()).try_add(dependencies);
}

int layer_detours(const RoutingInput& input, const UpDownReach& reach, Routing& routing) {
  const Fabric& fabric = input.fabric;
  const std::vector<Exit> exits = exits_by_lid(fabric, input.lids);
  const Channels channels(fabric);
  CdgLayers layers(channels.count());
  int layered = 0, unplaced = 0;
  for (size_t lid = 1; lid < exits.size(); ++lid) {
    const Exit& exit = exits[lid];
    // Switch LIDs carry management traffic only; attached hosts' detours get layers.
    if (exit.target < 0 || exit.port == 0 || !reach.may_detour(exit) || !reach.has_detours(exit.target)) continue;
    // Layer k - 1 of `layers` is SL k: SL 0 keeps the up/down routes.
    const int layer = layers.place(dependencies_toward(fabric, routing.lfts, channels, static_cast<int>(lid)), 0,
                                   kMaxDetourSl - 1);
    int sl = layer + 1;
    if (layer < 0) {
      sl = kMaxDetourSl;  // the auditor reports the credit loop it closes
      ++unplaced;
    }
    if (routing.dest_sl.empty()) routing.dest_sl.assign(exits.size(), 0);
    routing.dest_sl[lid] = static_cast<uint8_t>(sl);
    ++layered;
  }
  if (layered == 0) return 0;
  const int highest = layers.count();
  routing.notes.push_back(fmt::format(
      "{} LIDs of attached hosts are reached through a down-up turn from some switches: on SL 1{} "
      "(VL = SL with OpenSM's default qos_sl2vl; enable qos)",
      layered, highest > 1 ? fmt::format("-{}", highest) : ""));
  if (unplaced > 0)
    routing.notes.push_back(fmt::format("{} of them fit no SL up to {} without a credit loop", unplaced, kMaxDetourSl));
  return highest;
}

}  // namespace ftclos
