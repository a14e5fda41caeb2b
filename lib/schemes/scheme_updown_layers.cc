// "updown-layers": up*/down* (paths/updown_star.h) in as many orders as the
// ports have VLs, one order per VL layer: the floor's roots on SL 0, then
// roots spread as far from those before as the fabric allows (detect/
// star_roots.h, spread_star_roots). Each CA LID takes the order whose tree
// toward it is shortest summed over the CAs that send to it (ties: the
// order with the fewest CA LIDs so far), SL k on VL k; then each order is
// routed again for its own LIDs alone, so its balance weighs only the
// routes it carries (the lengths stay: every legal tree is shortest among
// legal ones; RhinoBased10K 271 -> 259). Every route on SL k
// is legal in order k, so no VL holds a credit loop, and the crowding of
// one root set spreads over all of them (RhinoBased10K on 8 VLs: worst case
// 737 -> 259, where layered's shortest-path trees fill the 8 layers after
// about 650 of 10,000 destinations). Switch LIDs stay on order 0 and SL 0,
// as multicast trees (hung down the floor's order) do. Fabrics whose leaves
// all share ancestors are left to the folded-Clos schemes (updown routes
// them on one VL), as auto leaves them.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "detect/star_roots.h"
#include "paths/updown_reach.h"
#include "paths/updown_star.h"
#include "schemes/schemes.h"

namespace ftclos {
namespace {

// Hops from every switch to `target` along the entries for `lid`, each
// switch's CAs counted once per hop: the tree's summed path length.
long summed_hops(const Fabric& fabric, const Lfts& lfts, int lid, int target, const std::vector<int>& cas_on,
                 std::vector<int>& hops, std::vector<int>& stack) {
  std::ranges::fill(hops, -1);
  stack.clear();
  hops[target] = 0;
  long sum = 0;
  for (int x = 0; x < fabric.size(); ++x) {
    if (cas_on[x] == 0) continue;
    for (int y = x; hops[y] < 0;) {  // walk to a switch whose hops are known, then fill back
      stack.push_back(y);
      const uint8_t port = lfts.at_or_none(y, lid);
      if (port == kNoPath || stack.size() > hops.size()) return -1;
      y = fabric.node(y).ports[port].peer.node;
      if (!fabric.node(y).is_switch()) return -1;
      if (hops[y] >= 0)
        for (int h = hops[y] + 1; !stack.empty(); stack.pop_back(), ++h) hops[stack.back()] = h;
    }
    sum += static_cast<long>(cas_on[x]) * hops[x];
  }
  return sum;
}

class UpDownLayersScheme : public Scheme {
 public:
  std::string_view name() const override { return "updown-layers"; }

  Status applies(const Detection& detection) const override {
    if (detection.star.roots.empty()) return Status::Error("updown-layers: the fabric is not connected");
    if (detection.updown_routable)
      return Status::Error("updown-layers: every pair of leaves shares an ancestor: a folded Clos, routed by updown");
    return Status::Ok();
  }

 protected:
  Result<Routing> route_tables(const RoutingInput& input) const override {
    if (Status status = applies(input.detection); !status.ok()) return status;
    const Fabric& fabric = input.fabric;
    const std::vector<StarRoots> orders =
        spread_star_roots(fabric, input.detection.levels, input.detection.star, std::clamp(input.data_vls, 1, 16));
    std::vector<Detection> detections(orders.size(), input.detection);
    std::vector<Routing> tables;
    for (size_t k = 0; k < orders.size(); ++k) {
      detections[k].star = orders[k];
      Result<Routing> routed = route_updown_star({fabric, detections[k], input.lids});
      if (!routed.ok()) return routed.status();
      tables.push_back(std::move(*routed));
    }
    std::vector<uint8_t> sl(input.lids.max_lid + 1, 0);
    std::vector<int> cas_on(fabric.size(), 0);
    for (int n = 0; n < fabric.size(); ++n)
      if (const Exit exit = exit_of(fabric, n); !fabric.node(n).is_switch() && exit.target >= 0) ++cas_on[exit.target];
    std::vector<long> lids_on(orders.size(), 0);
    std::vector<int> hops(fabric.size()), stack;
    const std::vector<Exit> exits = exits_by_lid(fabric, input.lids);
    // Order 0 routes the switch LIDs; each order its own CA LIDs.
    std::vector<std::vector<bool>> routed_in(orders.size(), std::vector<bool>(exits.size(), false));
    for (size_t lid = 1; lid < exits.size(); ++lid) {
      if (exits[lid].target < 0) continue;
      if (exits[lid].port == 0) {
        routed_in[0][lid] = true;
        continue;
      }
      size_t best = 0;
      long best_hops = -1;
      for (size_t k = 0; k < orders.size(); ++k) {
        const long sum =
            summed_hops(fabric, tables[k].lfts, static_cast<int>(lid), exits[lid].target, cas_on, hops, stack);
        if (sum >= 0 && (best_hops < 0 || sum < best_hops || (sum == best_hops && lids_on[k] < lids_on[best])))
          best = k, best_hops = sum;
      }
      ++lids_on[best];
      sl[lid] = static_cast<uint8_t>(best);
      routed_in[best][lid] = true;
    }
    Routing routing;
    for (size_t k = 0; k < orders.size(); ++k) {
      if (k > 0 && lids_on[k] == 0) continue;
      Result<Routing> own = route_updown_star({fabric, detections[k], input.lids}, routed_in[k]);
      if (!own.ok()) return own.status();
      if (k == 0) {
        routing = std::move(*own);
        continue;
      }
      for (size_t lid = 1; lid < exits.size(); ++lid)
        if (routed_in[k][lid])
          for (int x = 0; x < fabric.size(); ++x)
            if (fabric.node(x).is_switch()) routing.lfts.port[x][lid] = own->lfts.port[x][lid];
    }
    routing.dest_sl = std::move(sl);
    describe(orders, lids_on, input.data_vls, routing);
    return routing;
  }

 private:
  static void describe(const std::vector<StarRoots>& orders, const std::vector<long>& lids_on, int data_vls,
                       Routing& routing) {
    const int used = static_cast<int>(std::ranges::count_if(lids_on, [](long n) { return n > 0; }));
    routing.notes.push_back(fmt::format("up*/down* in {} order{} (of {} VL{}), SL k on VL k{}: CA LIDs per order {}",
                                        orders.size(), orders.size() == 1 ? "" : "s", data_vls,
                                        data_vls == 1 ? "" : "s", used > 1 ? " (enable qos)" : "",
                                        fmt::join(lids_on, ", ")));
    for (size_t k = 1; k < orders.size(); ++k)
      routing.notes.push_back(fmt::format("order {} from {}", k, orders[k].why));
    routing.summary = fmt::format("{} up*/down* orders on {} VL{}", orders.size(), used, used == 1 ? "" : "s");
    if (used == 1 && lids_on.front() > 0) routing.dest_sl.clear();
  }
};

}  // namespace

std::unique_ptr<Scheme> make_updown_layers_scheme() { return std::make_unique<UpDownLayersScheme>(); }

}  // namespace ftclos
