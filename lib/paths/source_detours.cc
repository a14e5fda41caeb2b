#include "paths/source_detours.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "paths/cdg_layers.h"
#include "paths/detour_layers.h"

namespace ftclos {
namespace {

struct Hole {
  int sw, lid;
};

bool carries_cas(const Fabric& fabric, int sw) {
  const Node& node = fabric.node(sw);
  for (int p = 1; p <= node.num_ports; ++p)
    if (const PortRef peer = node.ports[p].peer; peer.valid() && !fabric.node(peer.node).is_switch()) return true;
  return false;
}

// The LIDs of `holes` no turn filled, where one SL holds up*/down* trees
// (Routing::star_sl: the ANs' and management hosts'), take their trees
// there: every switch reaches them, the SL stays acyclic (one up*/down*
// routing's LIDs), and their traffic runs on longer paths rather than none
// (Selene's twin: 1 of 2,373). Returns how many holes that filled.
int take_star_trees(const RoutingInput& input, const std::vector<Hole>& holes, Routing& routing) {
  std::vector<int> lids;
  int filled = 0;
  for (const Hole& hole : holes)
    if (routing.lfts.at(hole.sw, hole.lid) == kNoPath) {
      lids.push_back(hole.lid);
      ++filled;
    }
  if (lids.empty() || routing.star_sl < 0) return 0;
  std::ranges::sort(lids);
  lids.erase(std::unique(lids.begin(), lids.end()), lids.end());
  if (!take_updown_star_trees(input, lids, routing.star_sl, routing)) return 0;
  routing.notes.push_back(fmt::format("{} LIDs some switch with CAs still could not reach take their up*/down* trees "
                                      "on SL {}",
                                      lids.size(), routing.star_sl));
  return filled;
}

}  // namespace

std::string SourceDetours::unfilled(const Fabric& fabric, const LidMap& lids) const {
  if (left_switch < 0) return "";
  return fmt::format(
      "{} of {} entries of switches with CAs (SHARP ANs) toward compute hosts they cannot reach up/down (missing "
      "cables) find no neighbour below to turn at without a credit loop on SL 0, e.g. the CAs on {} → {} (LID {:#x})",
      holes - filled, holes, fabric.node(left_switch).display_name(),
      fabric.node(lids.owner[left_lid]).display_name(), left_lid);
}

SourceDetours route_source_detours(const RoutingInput& input, const UpDownReach& reach, Routing& routing) {
  const Fabric& fabric = input.fabric;
  const std::vector<int>& level = input.detection.levels.of;
  const std::vector<Exit> exits = exits_by_lid(fabric, input.lids);
  auto on_sl0_compute = [&](size_t lid) {
    const Exit& exit = exits[lid];
    return exit.target >= 0 && exit.port != 0 && !reach.may_detour(exit) &&
           (routing.dest_sl.empty() || routing.dest_sl[lid] == 0);
  };
  // Switches by level, then GUID: the greedy below fills in this order, the
  // same for OpenSM's node order and a file's.
  std::vector<int> switches = reach.switches();
  std::ranges::stable_sort(switches, [&](int a, int b) {
    return level[a] != level[b] ? level[a] < level[b] : precedes_by_guid(fabric, a, b);
  });
  std::vector<Hole> holes;
  for (int sw : switches) {
    if (level[sw] <= 1 || !carries_cas(fabric, sw)) continue;
    const std::vector<uint8_t>& table = routing.lfts.port[sw];
    for (size_t lid = 1; lid < exits.size() && lid < table.size(); ++lid)
      if (table[lid] == kNoPath && on_sl0_compute(lid)) holes.push_back({sw, static_cast<int>(lid)});
  }
  if (holes.empty()) return {};
  SourceDetours outcome{.holes = static_cast<int>(holes.size()), .left_switch = holes[0].sw, .left_lid = holes[0].lid};
  // SL 0's graph as routed; each detour adds one dependency, its turn at the
  // neighbour below (no other packet for that LID reaches the switch).
  const Channels channels(fabric, input.detection.star);
  AcyclicLayer sl0(channels);
  std::vector<int> sl0_lids;
  for (size_t lid = 1; lid < exits.size(); ++lid)
    if (on_sl0_compute(lid)) sl0_lids.push_back(static_cast<int>(lid));
  bool acyclic = true;
  for_each_dependencies(routing.lfts, channels, sl0_lids, [&](int, const std::vector<Dependency>& dependencies) {
    return acyclic = sl0.try_add(dependencies);
  });
  if (!acyclic) return outcome;  // not acyclic as routed: the auditor reports it
  // A credit loop through detours needs every turn to land on a switch that
  // detours too (a packet goes on down from any other), and a cycle of
  // them: turns that land where no hole is come first, then those that land
  // on a switch later in GUID order (a chain of such turns never comes
  // back; GUIDs, not node indices, so that OpenSM's node order and a
  // file's give the same tables), then the rest. The 3,784-HCA pod's core ANs: 6 entries were left
  // without a route when the LID alone picked the neighbour; a real NDR
  // pod's spines, every one with holes, 4 without the order.
  std::vector<uint8_t> holed(fabric.size(), 0);
  for (const Hole& hole : holes) holed[hole.sw] = 1;
  // Fills the holes in `order` on a copy of the tables and of SL 0's graph;
  // returns the tables and how many it filled.
  auto fill = [&](const std::vector<Hole>& order) {
    std::pair<Lfts, int> out{routing.lfts, 0};
    Lfts& lfts = out.first;
    AcyclicLayer layer = sl0;
    auto preference = [&](int sw, int below, int lid) {
      const uint8_t onward = lfts.at(below, lid);
      const PortRef next = onward == kNoPath ? PortRef{} : fabric.node(below).ports[onward].peer;
      if (!next.valid() || holed[next.node] == 0) return 0;
      return precedes_by_guid(fabric, sw, next.node) ? 1 : 2;
    };
    for (const Hole& hole : order) {
      const Node& node = fabric.node(hole.sw);
      const int target = exits[hole.lid].target;
      // The down neighbours with an up/down route, tried from one the LID
      // picks, in the order of preference above.
      std::vector<uint8_t> ports;
      for (int p = 1; p <= node.num_ports; ++p) {
        const PortRef peer = node.ports[p].peer;
        if (peer.valid() && fabric.node(peer.node).is_switch() && level[peer.node] < level[hole.sw] &&
            reach.in_updown(peer.node, target) && lfts.at(peer.node, hole.lid) != kNoPath)
          ports.push_back(static_cast<uint8_t>(p));
      }
      if (ports.empty()) continue;
      // std::rotate, not ranges::rotate: clang with libstdc++ 12 cannot compile the latter.
      std::rotate(ports.begin(), ports.begin() + static_cast<long>(hole.lid % ports.size()), ports.end());
      std::ranges::stable_sort(ports, {}, [&](uint8_t port) {
        return preference(hole.sw, fabric.peer({hole.sw, port}).node, hole.lid);
      });
      for (const uint8_t port : ports) {
        const int below = fabric.peer({hole.sw, port}).node;
        const int onward = channels.of(below, lfts.at(below, hole.lid));
        if (onward >= 0 && !layer.try_add({{channels.of(hole.sw, port), onward}})) continue;
        lfts.port[hole.sw][hole.lid] = port;
        ++out.second;
        break;
      }
    }
    return out;
  };
  // The greedy's order decides which turns close a loop first: where the
  // switches in GUID order leave some holes, the reverse order may not (a
  // real NDR pod: 3 left one way, none the other).
  std::pair<Lfts, int> best = fill(holes);
  if (best.second < static_cast<int>(holes.size())) {
    std::pair<Lfts, int> reversed = fill(std::vector<Hole>(holes.rbegin(), holes.rend()));
    if (reversed.second > best.second) best = std::move(reversed);
  }
  // Still some left: those first, where the turns already placed did not
  // yet close their way (Selene's twin: 1 of 1,827 left both ways, none so).
  for (int round = 0; round < 3 && best.second < static_cast<int>(holes.size()); ++round) {
    std::vector<Hole> left_first = holes;
    // std::stable_partition, not ranges::: clang with libstdc++ 12 cannot compile the latter.
    std::stable_partition(left_first.begin(), left_first.end(),
                          [&](const Hole& h) { return best.first.at(h.sw, h.lid) == kNoPath; });
    std::pair<Lfts, int> again = fill(left_first);
    if (again.second <= best.second) break;
    best = std::move(again);
  }
  routing.lfts = std::move(best.first);
  outcome.filled = best.second;
  routing.notes.push_back(fmt::format(
      "{} of {} entries of switches with CAs (SHARP ANs) toward compute hosts they cannot reach up/down (missing "
      "cables) turn down-up once, at a neighbour below, where SL 0 stays free of credit loops",
      outcome.filled, holes.size()));
  outcome.filled += take_star_trees(input, holes, routing);
  const auto left =
      std::ranges::find_if(holes, [&](const Hole& hole) { return routing.lfts.at(hole.sw, hole.lid) == kNoPath; });
  outcome.left_switch = left == holes.end() ? -1 : left->sw;
  outcome.left_lid = left == holes.end() ? -1 : left->lid;
  return outcome;
}

}  // namespace ftclos
