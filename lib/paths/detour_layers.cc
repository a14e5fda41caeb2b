#include "paths/detour_layers.h"

#include <fmt/format.h>

#include <vector>

#include "paths/cdg_layers.h"
#include "paths/updown_star.h"

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

// Where the tree's detours need more than one SL (SHARP Aggregation Nodes on
// every spine and core of a 3-level pod: every AN LID is an attached host),
// the detour LIDs take up*/down* routes (paths/updown_star.h) instead, all on
// SL 1: a subset of one up*/down* routing's LIDs is acyclic on its own, so
// two VLs carry everything and SL 0 keeps the tree's routes untouched.
// Returns false (tables unchanged) where up*/down* cannot route the fabric.
bool detours_on_updown_star(const RoutingInput& input, const std::vector<int>& detour_lids, Routing& routing) {
  Result<Routing> star = route_updown_star(input);
  if (!star.ok()) return false;
  Lfts merged = routing.lfts;
  for (size_t node = 0; node < merged.port.size(); ++node)
    for (int lid : detour_lids)
      if (!merged.port[node].empty()) merged.port[node][lid] = star->lfts.port[node][lid];
  if (!layer_acyclic(input.fabric, merged, detour_lids)) return false;
  routing.lfts = std::move(merged);
  for (int lid : detour_lids) routing.dest_sl[lid] = 1;
  return true;
}

}  // namespace

int layer_detours(const RoutingInput& input, const UpDownReach& reach, Routing& routing) {
  const Fabric& fabric = input.fabric;
  const std::vector<Exit> exits = exits_by_lid(fabric, input.lids);
  const Channels channels(fabric);
  CdgLayers layers(channels.count());
  int unplaced = 0;
  std::vector<int> detour_lids;
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
    detour_lids.push_back(static_cast<int>(lid));
  }
  const int layered = static_cast<int>(detour_lids.size());
  if (layered == 0) return 0;
  if (layers.count() > 1 && detours_on_updown_star(input, detour_lids, routing)) {
    routing.notes.push_back(fmt::format(
        "{} LIDs of attached hosts are reached through a down-up turn from some switches; their tree detours "
        "needed SL 1-{}, so they take up*/down* routes, all on SL 1 (VL = SL with OpenSM's default qos_sl2vl; "
        "enable qos)",
        layered, unplaced > 0 ? kMaxDetourSl : layers.count()));
    return 1;
  }
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
