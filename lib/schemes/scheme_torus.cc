// "torus": dimension-order routing (Dally and Seitz, "Deadlock-free message
// routing in multiprocessor interconnection networks", 1987) on the tori and
// meshes detect/torus.h recognizes: dimension 0 first, the shorter way
// round each ring; where both ways are equally long (half an even ring) the
// destination's coordinate in that dimension decides, even ones the + way,
// so ties spread over both directions.
//
// Datelines, with an SL of the destination alone (path_sl sees no source):
// a ring's destinations are split into its lower and upper half of
// coordinates, each half on its own VL in that ring. The packets toward a
// half of n/2 destinations, each from at most n/2 hops away, never cross
// one cable of the ring in either direction (the + cable from the half's
// last coordinate onward, the - cable below its first), so that half's
// channel dependencies in the ring form no cycle; a packet keeps its VL
// through a ring and moves from a lower to a higher dimension only, so no
// VL holds a credit loop. The SL is 1 + the destination's half bits over
// the rings of 5 or more, SL k on VL k: 2^rings VLs from VL 1 (torus-2QoS
// needs 2 with SL2VL tables per port; SL k on VL k is what the plugin
// programs). VL 0 is left to the multicast trees (SL 0, paths/mcast_tree.h):
// they hang down an order dimension order does not keep, and on a shared VL
// they close credit loops with its routes (mcast_tree_test.cc). Smaller
// rings need none: a ring of 3 is crossed in one hop, and in a ring of 4 a
// packet crosses two links only toward the coordinate 2 away, the + way to
// even and the - way to odd coordinates, so + link p leads on only where
// p is even, - link p only where p is odd: no dependency chain closes
// round the ring (4x4 tori, 4x4x4 tori and hypercubes route on one VL).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "paths/updown_reach.h"
#include "schemes/schemes.h"

namespace ftclos {
namespace {

constexpr uint8_t kFirstSl = 1;  // SL 0 (VL 0) carries the multicast trees alone

// The rings that need a dateline: 5 switches and more.
std::vector<int> dateline_dims(const TorusLabels& grid) {
  std::vector<int> dims;
  for (size_t k = 0; k < grid.dims.size(); ++k)
    if (grid.wraps[k] && grid.dims[k] >= 5) dims.push_back(static_cast<int>(k));
  return dims;
}

// The direction (+1, -1) from coordinate `from` to `to` in `dim`, 0 where they agree.
int direction(const TorusLabels& grid, int dim, int from, int to) {
  if (from == to) return 0;
  if (!grid.wraps[dim]) return to > from ? 1 : -1;
  const int n = grid.dims[dim], ahead = (to - from + n) % n;
  if (2 * ahead == n) return to % 2 == 0 ? 1 : -1;
  return 2 * ahead < n ? 1 : -1;
}

// Every switch's ports toward each grid neighbour: [grid index][dim][0: -, 1: +].
using NeighborPorts = std::vector<std::vector<std::array<std::vector<int>, 2>>>;

NeighborPorts neighbor_ports(const Fabric& fabric, const TorusLabels& grid, const std::vector<int>& switch_at) {
  const int dims = static_cast<int>(grid.dims.size());
  NeighborPorts ports(switch_at.size(), std::vector<std::array<std::vector<int>, 2>>(dims));
  for (int at = 0; at < static_cast<int>(switch_at.size()); ++at)
    for (int dim = 0; dim < dims; ++dim)
      for (int side = 0; side < 2; ++side) {
        const int next = grid.step(at, dim, side ? 1 : -1);
        if (next < 0) continue;
        const Node& node = fabric.node(switch_at[at]);
        for (int p = 1; p <= node.num_ports; ++p)
          if (node.ports[p].peer.node == switch_at[next]) ports[at][dim][side].push_back(p);
      }
  return ports;
}

class TorusScheme : public Scheme {
 public:
  std::string_view name() const override { return "torus"; }

  Status applies(const Detection& detection) const override {
    if (!detection.torus) return Status::Error("torus: the fabric is no torus or mesh");
    const FamilyMatch& family = *(detection.find(Family::kTorus) ? detection.find(Family::kTorus)
                                                                 : detection.find(Family::kMesh));
    const auto out_of_place = std::ranges::count_if(
        family.deviations, [](const Deviation& d) { return d.kind != Deviation::Kind::kSlowLink; });
    if (out_of_place > 0)
      return Status::Error(fmt::format("torus: {} cable{} out of place in the {}; dimension-order routing needs "
                                       "every grid cable",
                                       out_of_place, out_of_place == 1 ? "" : "s", detection.torus->shape_text()));
    return Status::Ok();
  }

 protected:
  Result<Routing> route_tables(const RoutingInput& input) const override {
    if (Status status = applies(input.detection); !status.ok()) return status;
    const Fabric& fabric = input.fabric;
    const TorusLabels& grid = *input.detection.torus;
    const std::vector<int> datelines = dateline_dims(grid);
    const int vls = 1 << datelines.size();
    if (vls + 1 > input.data_vls)
      return Status::Error(fmt::format("torus: the {} needs {} VLs ({} for the datelines of its rings of 5 or more, "
                                       "VL 0 for multicast), the ports offer {}",
                                       grid.shape_text(), vls + 1, vls, input.data_vls));
    std::vector<int> switch_at(grid.switches(), -1);
    for (int x = 0; x < fabric.size(); ++x)
      if (fabric.node(x).is_switch() && grid.index[x] >= 0) switch_at[grid.index[x]] = x;
    const NeighborPorts ports = neighbor_ports(fabric, grid, switch_at);

    Routing routing;
    routing.path_bits.assign(fabric.size(), 0);
    routing.lfts.port.resize(fabric.size());
    for (int x : switch_at) routing.lfts.port[x].assign(input.lids.max_lid + 1, kNoPath);
    std::vector<uint8_t> sl(input.lids.max_lid + 1, kFirstSl);
    const std::vector<Exit> exits = exits_by_lid(fabric, input.lids);
    for (int lid = 1; lid < static_cast<int>(exits.size()); ++lid) {
      const Exit exit = exits[lid];
      if (exit.target < 0 || grid.index[exit.target] < 0) continue;
      const int to = grid.index[exit.target];
      for (size_t bit = 0; bit < datelines.size(); ++bit) {
        const int dim = datelines[bit], n = grid.dims[dim];
        if (grid.coord(to, dim) >= (n + 1) / 2) sl[lid] += 1 << bit;
      }
      for (int from = 0; from < static_cast<int>(switch_at.size()); ++from) {
        uint8_t& entry = routing.lfts.port[switch_at[from]][lid];
        if (from == to) {
          entry = static_cast<uint8_t>(exit.port);
          continue;
        }
        for (int dim = 0; dim < static_cast<int>(grid.dims.size()); ++dim) {
          const int way = direction(grid, dim, grid.coord(from, dim), grid.coord(to, dim));
          if (way == 0) continue;
          const std::vector<int>& choices = ports[from][dim][way > 0];
          entry = static_cast<uint8_t>(choices[lid % choices.size()]);  // parallel cables share by LID
          break;
        }
      }
    }
    routing.dest_sl = std::move(sl);
    routing.notes.push_back(fmt::format("dimension-order routing on the {}: SL per destination LID, 1 + its half "
                                        "of each ring of 5 or more, SL k on VL k: {} VL{} of {} from VL 1, VL 0 "
                                        "left to multicast (enable qos)",
                                        grid.shape_text(), vls, vls == 1 ? "" : "s", input.data_vls));
    routing.summary = fmt::format("dimension order on {} VL{}", vls, vls == 1 ? "" : "s");
    return routing;
  }
};

}  // namespace

std::unique_ptr<Scheme> make_torus_scheme() { return std::make_unique<TorusScheme>(); }

}  // namespace ftclos
