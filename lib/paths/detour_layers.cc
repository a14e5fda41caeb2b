#include "paths/detour_layers.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
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

namespace {

// "WHAT: on SL 1-H (...)", and how many fit no SL.
void note_layers(const std::string& what, int highest, int unplaced, Routing& routing) {
  routing.notes.push_back(fmt::format("{}: on SL 1{} (VL = SL with OpenSM's default qos_sl2vl; enable qos)", what,
                                      highest > 1 ? fmt::format("-{}", highest) : ""));
  if (unplaced > 0)
    routing.notes.push_back(fmt::format("{} of them fit no SL up to {} without a credit loop", unplaced, kMaxDetourSl));
}

}  // namespace

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
  note_layers(fmt::format("{} LIDs of attached hosts are reached through a down-up turn from some switches", layered),
              highest, unplaced, routing);
  return highest;
}

int layer_turning_lids(const Fabric& fabric, const LidMap& lid_map, const std::vector<int>& lids, int lowest_sl,
                       Routing& routing) {
  if (lids.empty()) return 0;
  const Channels channels(fabric);
  CdgLayers layers(channels.count());
  if (routing.dest_sl.empty()) routing.dest_sl.assign(lid_map.max_lid + 1, 0);
  std::vector<bool> turning(lid_map.max_lid + 1, false);
  for (int lid : lids) turning[lid] = true;
  // The layers already there first, each on its SL (layer = SL); SL 0 only when it may take more.
  for (int lid = 1; lid <= lid_map.max_lid; ++lid) {
    const int sl = routing.dest_sl[lid];
    if (lid_map.owner[lid] >= 0 && !turning[lid] && (sl > 0 || lowest_sl == 0))
      layers.place(dependencies_toward(fabric, routing.lfts, channels, lid), sl, sl);
  }
  int moved = 0, unplaced = 0, highest = 0;
  for (int lid : lids) {
    const int sl = layers.place(dependencies_toward(fabric, routing.lfts, channels, lid), lowest_sl, kMaxDetourSl);
    unplaced += sl < 0;
    routing.dest_sl[lid] = static_cast<uint8_t>(sl < 0 ? kMaxDetourSl : sl);
    moved += routing.dest_sl[lid] != 0;
    highest = std::max<int>(highest, routing.dest_sl[lid]);
  }
  if (moved > 0)
    note_layers(fmt::format("{} LIDs to which some switch's own route turns from down to up where, on SL 0, the "
                            "turn would close a credit loop",
                            moved),
                highest, unplaced, routing);
  return moved;
}

}  // namespace ftclos
