// "updown": up/down routing for any folded Clos (Camarero et al. §4.1 for
// random ones; also degraded trees), balanced by destination as OpenSM's
// ftree balances (paths/updown_balance.h): each destination's traffic
// converges on one down path from a top switch, and the down paths spread
// over the top switches. Destination-based, deadlock-free (shortest
// up/down paths; detours of switch LIDs and attached hosts get SLs of their
// own, paths/detour_layers.h). On small fabrics a local search then lowers
// the worst-case contention further (paths/contention_polish.h).
//
// Balancing per switch instead (each switch sends each destination out of
// its least-loaded allowed port) spreads one destination's traffic over many
// top switches, whose down ports then each carry many destinations: worst
// case 240 instead of ftree's 114 on a 10,080-host random Clos.
#include <string>
#include <utility>

#include "paths/contention_polish.h"
#include "paths/detour_layers.h"
#include "paths/source_detours.h"
#include "schemes/schemes.h"
#include "paths/updown_balance.h"
#include "paths/updown_reach.h"

namespace ftclos {
namespace {

class UpDownScheme : public Scheme {
 public:
  std::string_view name() const override { return "updown"; }

  Status applies(const Detection& detection) const override {
    if (detection.levels.height < 1) return Status::Error("updown: the fabric has no switch a CA reaches");
    return Status::Ok();
  }

 protected:
  Result<Routing> route_tables(const RoutingInput& input) const override {
    if (Status status = applies(input.detection); !status.ok()) return status;
    const UpDownReach reach(input.fabric, input.detection.levels);
    Routing routing;
    routing.path_bits.assign(input.fabric.size(), 0);
    balance_by_destination(input, reach, routing.lfts);
    layer_detours(input, reach, routing);
    if (std::string note = polish_note(polish_contention(input, reach, routing)); !note.empty())
      routing.notes.push_back(std::move(note));
    route_source_detours(input, reach, routing);
    if (!input.detection.updown_routable)
      routing.notes.push_back("some leaves share no ancestor: CAs on them cannot reach each other up/down (kNoPath)");
    return routing;
  }
};

}  // namespace

std::unique_ptr<Scheme> make_updown_scheme() { return std::make_unique<UpDownScheme>(); }

}  // namespace ftclos
