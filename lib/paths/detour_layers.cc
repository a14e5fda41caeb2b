#include "paths/detour_layers.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/aggregation_node.h"
#include "paths/cdg_layers.h"
#include "paths/updown_star.h"

namespace ftclos {

bool layer_acyclic(const Fabric& fabric, const StarRoots& star, const Lfts& lfts, const std::vector<int>& lids) {
  const Channels channels(fabric, star);
  return AcyclicLayer(channels).try_add(dependencies_toward(lfts, channels, lids));
}

namespace {

void note_unplaced(int unplaced, Routing& routing, int highest_sl = kMaxDetourSl) {
  if (unplaced > 0)
    routing.notes.push_back(fmt::format("{} of them fit no SL up to {} without a credit loop", unplaced, highest_sl));
}

// Whether dependency `d` turns from down to up: into a switch from above,
// out of it upward (levels from the detection).
bool turns_down_up(const Channels& channels, const std::vector<int>& level, const Dependency& d) {
  const int at = channels.peer(d.first);
  return level[channels.from(d.first)] > level[at] && level[channels.peer(d.second)] > level[at];
}

// "WHAT: on SL 1-H (...)", and how many fit no SL.
void note_layers(const std::string& what, int highest, int unplaced, Routing& routing,
                 int highest_sl = kMaxDetourSl) {
  routing.notes.push_back(fmt::format("{}: on SL 1{} (VL = SL with OpenSM's default qos_sl2vl; enable qos)", what,
                                      highest > 1 ? fmt::format("-{}", highest) : ""));
  note_unplaced(unplaced, routing, highest_sl);
}

// Each LID of `lids` on the lowest SL in [lowest_sl, kMaxDetourSl] whose
// layer of `layers` (layer k: SL k) stays acyclic with its routes
// (DF-SSSP's layering); the ones that fit none go on kMaxDetourSl (the
// auditor reports the credit loop they close). Returns the highest SL
// given and how many fit none.
std::pair<int, int> place_on_sls(const Channels& channels, CdgLayers& layers,
                                 const std::vector<int>& lids, int lowest_sl, Routing& routing) {
  int highest = 0, unplaced = 0;
  for (int lid : lids) {
    const int sl = layers.place(dependencies_toward(routing.lfts, channels, lid), lowest_sl, kMaxDetourSl);
    unplaced += sl < 0;
    routing.dest_sl[lid] = static_cast<uint8_t>(sl < 0 ? kMaxDetourSl : sl);
    highest = std::max<int>(highest, routing.dest_sl[lid]);
  }
  return {highest, unplaced};
}

// `lids` on SLs from `first` up, in layers of their own.
std::pair<int, int> layer_greedily(const RoutingInput& input, const std::vector<int>& lids, int first,
                                   Routing& routing) {
  const Channels channels(input.fabric, input.detection.star);
  CdgLayers layers(channels);
  return place_on_sls(channels, layers, lids, first, routing);
}

}  // namespace

bool take_updown_star_trees(const RoutingInput& input, const std::vector<int>& lids, int sl, Routing& routing) {
  Result<Routing> star = route_updown_star(input);
  if (!star.ok()) return false;
  Lfts merged = routing.lfts;
  for (size_t node = 0; node < merged.port.size(); ++node)
    for (int lid : lids)
      if (!merged.port[node].empty()) merged.port[node][lid] = star->lfts.port[node][lid];
  std::vector<int> on_sl = lids;
  for (int lid = 1; lid <= input.lids.max_lid; ++lid)
    if (input.lids.owner[lid] >= 0 && (routing.dest_sl.empty() ? 0 : routing.dest_sl[lid]) == sl) on_sl.push_back(lid);
  if (!layer_acyclic(input.fabric, input.detection.star, merged, on_sl)) return false;
  routing.lfts = std::move(merged);
  if (routing.dest_sl.empty()) routing.dest_sl.assign(input.lids.max_lid + 1, 0);
  for (int lid : lids) routing.dest_sl[lid] = static_cast<uint8_t>(sl);
  routing.star_sl = sl;
  return true;
}

int layer_detours(const RoutingInput& input, const UpDownReach& reach, Routing& routing) {
  const Fabric& fabric = input.fabric;
  const std::vector<Exit> exits = exits_by_lid(fabric, input.lids);
  std::vector<int> detour_lids, star_lids, other_lids;
  for (size_t lid = 1; lid < exits.size(); ++lid) {
    const Exit& exit = exits[lid];
    // Switch LIDs carry management traffic only; attached hosts' detours get layers.
    if (exit.target < 0 || exit.port == 0 || !reach.may_detour(exit) || !reach.has_detours(exit.target)) continue;
    detour_lids.push_back(static_cast<int>(lid));
    const int owner = fabric.peer({exit.target, exit.port}).node;
    const bool on_star = is_aggregation_node(fabric.node(owner)) || input.detection.levels.is_management(exit.target);
    (on_star ? star_lids : other_lids).push_back(static_cast<int>(lid));
  }
  if (detour_lids.empty()) return 0;
  if (routing.dest_sl.empty()) routing.dest_sl.assign(exits.size(), 0);
  // The greedy puts every LID on SL 1 exactly where their routes together
  // close no cycle; one search says whether they do, before any layering.
  const bool one_sl = layer_acyclic(fabric, input.detection.star, routing.lfts, detour_lids);
  // Where the tree's detours take more than SL 1 and ANs or management
  // hosts are among them (SHARP Aggregation Nodes on every spine and core
  // of a 3-level pod, hosts of management switches hung off single spines
  // and cores: their tree detours need several SLs together): those on
  // up*/down* trees on SL 1, the others (storage on spines) layered from
  // SL 2. Their traffic needs routes more than bandwidth (contention counts
  // compute hosts only), so their longer paths cost nothing that counts.
  if (!one_sl && !star_lids.empty() && take_updown_star_trees(input, star_lids, 1, routing)) {
    const auto [highest, unplaced] =
        other_lids.empty() ? std::pair{1, 0} : layer_greedily(input, other_lids, 2, routing);
    routing.notes.push_back(fmt::format(
        "{} LIDs of SHARP Aggregation Nodes above the leaves and of hosts on management switches are reached "
        "through a down-up turn from some switches: on up*/down* routes on SL 1 (their tree detours needed more SLs)",
        star_lids.size()));
    if (!other_lids.empty())
      routing.notes.push_back(fmt::format("{} LIDs of other attached hosts reached the same way: on SL 2{}",
                                          other_lids.size(), highest > 2 ? fmt::format("-{}", highest) : ""));
    note_unplaced(unplaced, routing);
    return highest;
  }
  std::pair<int, int> layered{1, 0};
  if (one_sl)
    for (int lid : detour_lids) routing.dest_sl[lid] = 1;
  else
    layered = layer_greedily(input, detour_lids, 1, routing);
  note_layers(fmt::format("{} LIDs of attached hosts are reached through a down-up turn from some switches",
                          detour_lids.size()),
              layered.first, layered.second, routing);
  return layered.first;
}

int layer_turning_lids(const RoutingInput& input, const std::vector<int>& lids, int lowest_sl, Routing& routing) {
  if (lids.empty()) return 0;
  const Fabric& fabric = input.fabric;
  const LidMap& lid_map = input.lids;
  const Channels channels(fabric, input.detection.star);
  CdgLayers layers(channels);
  if (routing.dest_sl.empty()) routing.dest_sl.assign(lid_map.max_lid + 1, 0);
  std::vector<bool> turning(lid_map.max_lid + 1, false);
  for (int lid : lids) turning[lid] = true;
  // The layers already there first, each on its SL (layer = SL); SL 0 only when it may take more.
  for (int lid = 1; lid <= lid_map.max_lid; ++lid) {
    const int sl = routing.dest_sl[lid];
    if (lid_map.owner[lid] >= 0 && !turning[lid] && (sl > 0 || lowest_sl == 0))
      layers.place(dependencies_toward(routing.lfts, channels, lid), sl, sl);
  }
  // Most down-up turns first, as first-fit colouring goes largest first: a
  // LID with many turns fits fewer layers the fuller they are (the
  // 10,080-host RFC: in LID order 100 LIDs fit no SL up to 7, so none).
  const std::vector<int>& level = input.detection.levels.of;
  std::vector<std::pair<long, int>> by_turns;  // (-turns, LID)
  for (int lid : lids) {
    const long turns = std::ranges::count_if(dependencies_toward(routing.lfts, channels, lid), [&](const Dependency& d) {
      return turns_down_up(channels, level, d);
    });
    by_turns.emplace_back(-turns, lid);
  }
  std::ranges::sort(by_turns);
  std::vector<int> ordered;
  for (const auto& [minus_turns, lid] : by_turns) ordered.push_back(lid);
  const auto [highest, unplaced] = place_on_sls(channels, layers, ordered, lowest_sl, routing);
  const int moved = static_cast<int>(std::ranges::count_if(lids, [&](int lid) { return routing.dest_sl[lid] != 0; }));
  routing.switch_turns_layered |= moved > 0;
  if (moved > 0)
    note_layers(fmt::format("{} LIDs to which some switch's own route turns from down to up where, on SL 0, the "
                            "turn would close a credit loop",
                            moved),
                highest, unplaced, routing);
  return moved;
}

int settle_credit_loops(const RoutingInput& input, int highest_sl, std::string_view which, Routing& routing) {
  const Fabric& fabric = input.fabric;
  const LidMap& lid_map = input.lids;
  const auto sl_of = [&](int lid) { return routing.dest_sl.empty() ? 0 : routing.dest_sl[lid]; };
  const Channels channels(fabric, input.detection.star);
  CdgLayers layers(channels);
  // Every SL's layer filled again: where all are acyclic every LID fits its own.
  std::vector<int> in_order;  // CA LIDs, then switch LIDs
  for (const bool switches : {false, true})
    for (int lid = 1; lid <= lid_map.max_lid; ++lid)
      if (const int owner = lid_map.owner[lid]; owner >= 0 && fabric.node(owner).is_switch() == switches)
        in_order.push_back(lid);
  // Where one SL holds only up*/down* trees, a switch LID whose own routes
  // turn from down to up goes to its tree there without a try on its SL:
  // such a turn beside the CA routes' turns (ANs' detours) closes a cycle
  // on SL 0 for most of them, each found by a search of the whole layer
  // (NVIDIA Selene: 441 of 666 switch LIDs, 2.5 ms each, 1.1 s of 2.5).
  const std::vector<int>& level = input.detection.levels.of;
  auto any_down_up = [&](const std::vector<Dependency>& dependencies) {
    return std::ranges::any_of(dependencies, [&](const Dependency& d) { return turns_down_up(channels, level, d); });
  };
  std::vector<std::pair<int, std::vector<Dependency>>> misfits;
  for_each_dependencies(routing.lfts, channels, in_order, [&](int lid, const std::vector<Dependency>& dependencies) {
    const bool to_star =
        routing.star_sl >= 0 && fabric.node(lid_map.owner[lid]).is_switch() && any_down_up(dependencies);
    if (to_star || layers.place(dependencies, sl_of(lid), sl_of(lid)) < 0) misfits.emplace_back(lid, dependencies);
    return true;
  });
  if (misfits.empty()) return 0;
  routing.switch_turns_layered = true;
  // A switch LID's traffic is management traffic (PMA queries and answers):
  // any legal route serves it. A misfit switch LID takes its up*/down*
  // tree where that fits an SL, whose turns never close a cycle among
  // themselves (a 3,784-HCA pod: SL 1 holds the ANs' up*/down* trees, and
  // 456 switch LIDs whose own routes fit no SL fit there). The others, and
  // CA LIDs, keep their routes on the lowest SL where they fit; a misfit
  // that fits none stays where it was (the auditor reports its loop).
  std::optional<Result<Routing>> star;  // routed the first time a switch LID needs it
  int moved = 0, highest = 0, on_star = 0;
  for (const auto& [lid, dependencies] : misfits) {
    int sl = -1;
    if (fabric.node(lid_map.owner[lid]).is_switch()) {
      if (!star) star = route_updown_star(input);
      const int first = routing.star_sl >= 0 ? routing.star_sl : 0;  // the SL of up*/down* trees, where one is
      if (star->ok() && (sl = layers.place(dependencies_toward((*star)->lfts, channels, lid), first, highest_sl)) >= 0) {
        for (int x = 0; x < fabric.size(); ++x)
          if (!routing.lfts.port[x].empty()) routing.lfts.port[x][lid] = (*star)->lfts.port[x][lid];
        ++on_star;
      }
    }
    if (sl < 0) sl = layers.place(dependencies, 0, highest_sl);
    if (sl < 0) continue;
    if (routing.dest_sl.empty()) routing.dest_sl.assign(lid_map.max_lid + 1, 0);
    routing.dest_sl[lid] = static_cast<uint8_t>(sl);
    highest = std::max(highest, sl);
    ++moved;
  }
  note_layers(fmt::format("{} {} where their SL would close a credit loop{}", moved, which,
                          on_star > 0 ? fmt::format(" ({} of them on up*/down* trees)", on_star) : ""),
              highest, static_cast<int>(misfits.size()) - moved, routing, highest_sl);
  return moved;
}

}  // namespace ftclos
