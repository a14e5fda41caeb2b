// "updown": balanced up/down ECMP for any folded Clos (Camarero et al. §4.1
// for random ones; also degraded trees). Destination-based: every switch
// sends each destination LID, in LID order, out of the best port (on a
// shortest path allowed by the up/down rule of updown_reach.h) that carries
// the fewest destinations so far; ties go to the lowest port. Switch LIDs
// follow the same rule, with a shortest-path fallback where no up/down path
// exists (management traffic only).
#include "schemes.h"
#include "updown_reach.h"

namespace ftclos {
namespace {

class UpDownScheme : public Scheme {
 public:
  std::string_view name() const override { return "updown"; }

  Result<Routing> route(const RoutingInput& input) const override {
    const Fabric& fabric = input.fabric;
    const LidMap& lids = input.lids;
    if (input.detection.levels.height < 1) return Status::Error("updown: the fabric has no switch a CA reaches");
    const UpDownReach reach(fabric, input.detection.levels);
    BestPorts best(reach);
    const std::vector<Exit> exits = exits_by_lid(fabric, lids);

    Routing routing;
    routing.lfts.port.assign(fabric.size(), {});
    routing.path_bits.assign(fabric.size(), 0);
    for (int x = 0; x < fabric.size(); ++x) {
      const Node& node = fabric.node(x);
      if (!node.is_switch()) continue;
      std::vector<uint8_t>& table = routing.lfts.port[x];
      table.assign(lids.max_lid + 1, kNoPath);
      std::vector<int> load(node.num_ports + 1, 0);
      best.fill(x);
      for (size_t lid = 1; lid < exits.size(); ++lid) {
        if (lids.owner[lid] < 0) continue;
        table[lid] = best.least_loaded(exits[lid], load);
        if (table[lid] != kNoPath) ++load[table[lid]];
      }
    }
    if (!input.detection.updown_routable)
      routing.notes.push_back("some leaves share no ancestor: CAs on them cannot reach each other up/down (kNoPath)");
    return routing;
  }
};

}  // namespace

std::unique_ptr<Scheme> make_updown_scheme() { return std::make_unique<UpDownScheme>(); }

}  // namespace ftclos
