// "updown": balanced up/down ECMP for any folded Clos (Camarero et al. §4.1
// for random ones; also degraded trees). Destination-based: every switch
// sends each destination LID out of the best port (on a shortest path allowed
// by the up/down rule of updown_reach.h) that carries the fewest destinations
// so far; ties go to the lowest port.
//
// The order of the LIDs is what keeps switches from repeating each other's
// choices. Switches are routed level by level from the CAs up, and each
// first balances the destinations that can arrive from below (from its own
// CAs, from a child that sends them up to it, or going down), in LID order,
// and only then the rest. Balancing over every LID instead makes a level-2
// switch, which only ever receives every 4th destination of a leaf, send all
// of them out of one up port: 16 instead of 7 pairs on one link of FT(8,3).
// Switch LIDs follow the same rule, with a shortest-path fallback where no
// up/down path exists (management traffic only).
#include <algorithm>

#include "route/detour_layers.h"
#include "route/schemes.h"
#include "route/updown_reach.h"

namespace ftclos {
namespace {

// Per LID, whether its traffic can reach switch `x` from below: from a CA on
// x (then all can), or from a child switch whose entry leads to x. Children
// are routed before their parents.
std::vector<uint8_t> arrivals_from_below(const Fabric& fabric, const Levels& levels, const Lfts& lfts, int x,
                                         int max_lid) {
  const Node& node = fabric.node(x);
  std::vector<uint8_t> arrives(max_lid + 1, 0);
  for (int p = 1; p <= node.num_ports; ++p) {
    const PortRef peer = node.ports[p].peer;
    if (!peer.valid() || levels.of[peer.node] >= levels.of[x]) continue;
    if (!fabric.node(peer.node).is_switch()) return std::vector<uint8_t>(max_lid + 1, 1);
    const uint8_t* child = lfts.port[peer.node].data();
    const uint8_t toward_x = static_cast<uint8_t>(peer.port);
    for (int lid = 1; lid <= max_lid; ++lid) arrives[lid] |= child[lid] == toward_x;
  }
  return arrives;
}

bool has_up_port(const Fabric& fabric, const Levels& levels, int x) {
  const Node& node = fabric.node(x);
  for (int p = 1; p <= node.num_ports; ++p)
    if (direction(fabric, levels, {x, p}) == Direction::kUp) return true;
  return false;
}

class UpDownScheme : public Scheme {
 public:
  std::string_view name() const override { return "updown"; }

  Status applies(const Detection& detection) const override {
    if (detection.levels.height < 1) return Status::Error("updown: the fabric has no switch a CA reaches");
    return Status::Ok();
  }

  Result<Routing> route(const RoutingInput& input) const override {
    if (Status status = applies(input.detection); !status.ok()) return status;
    const Fabric& fabric = input.fabric;
    const LidMap& lids = input.lids;
    const Levels& levels = input.detection.levels;
    const UpDownReach reach(fabric, levels);
    BestPorts best(reach);
    const std::vector<Exit> exits = exits_by_lid(fabric, lids);

    Routing routing;
    routing.lfts.port.assign(fabric.size(), {});
    routing.path_bits.assign(fabric.size(), 0);
    std::vector<int> switches;
    for (int x = 0; x < fabric.size(); ++x)
      if (fabric.node(x).is_switch()) switches.push_back(x);
    std::ranges::stable_sort(switches, {}, [&](int x) { return levels.of[x]; });
    for (int x : switches) {
      std::vector<uint8_t>& table = routing.lfts.port[x];
      table.assign(lids.max_lid + 1, kNoPath);
      if (levels.of[x] < 0) continue;  // no CA reaches it: nothing to route
      std::vector<int> load(fabric.node(x).num_ports + 1, 0);
      best.fill(x);
      // At the top every destination goes down: there is no up port to balance.
      const std::vector<uint8_t> arrives = has_up_port(fabric, levels, x)
                                               ? arrivals_from_below(fabric, levels, routing.lfts, x, lids.max_lid)
                                               : std::vector<uint8_t>(lids.max_lid + 1, 1);
      auto route_least_loaded = [&](int lid) {
        table[lid] = best.least_loaded(exits[lid], load);
        if (table[lid] != kNoPath) ++load[table[lid]];
      };
      std::vector<int> later;  // CA LIDs that cannot arrive here, and switch LIDs
      for (int lid = 1; lid < static_cast<int>(exits.size()); ++lid) {
        if (lids.owner[lid] < 0) continue;
        const Exit& exit = exits[lid];
        const bool going_down = exit.target >= 0 && reach.in_down(x, exit.target);
        if (fabric.node(lids.owner[lid]).is_switch() || (!going_down && !arrives[lid])) later.push_back(lid);
        else route_least_loaded(lid);
      }
      for (int lid : later) route_least_loaded(lid);
    }
    layer_detours(input, reach, routing);
    if (!input.detection.updown_routable)
      routing.notes.push_back("some leaves share no ancestor: CAs on them cannot reach each other up/down (kNoPath)");
    return routing;
  }
};

}  // namespace

std::unique_ptr<Scheme> make_updown_scheme() { return std::make_unique<UpDownScheme>(); }

}  // namespace ftclos
