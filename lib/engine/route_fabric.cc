#include "engine/route_fabric.h"

#include <chrono>

#include <fmt/format.h>

#include "core/fabric_parts.h"

namespace ftclos {

Status check_connected(const Fabric& fabric) {
  // No table joins parts that no cable joins: say where the fabric splits.
  if (const auto parts = fabric_parts(fabric); parts.size() > 1)
    return Status::Error("the fabric is physically disconnected, " + describe_parts(fabric, parts));
  return Status::Ok();
}

Result<RoutedFabric> route_fabric(const Fabric& fabric, std::string_view scheme_name, int lmc, const HostHints& hints,
                                  bool* bad_input) {
  if (bad_input) *bad_input = true;
  Result<LidMap> lids = assign_lids(fabric, lmc);
  if (!lids.ok()) return lids.status();
  return route_fabric(fabric, scheme_name, std::move(*lids), hints, bad_input);
}

Result<RoutedFabric> route_fabric(const Fabric& fabric, std::string_view scheme_name, LidMap lids,
                                  const HostHints& hints, bool* bad_input, const RouteHooks& hooks) {
  if (bad_input) *bad_input = true;
  Result<std::unique_ptr<Scheme>> scheme = make_scheme(scheme_name);
  if (!scheme.ok()) return scheme.status();
  if (bad_input) *bad_input = false;
  if (Status connected = check_connected(fabric); !connected.ok()) return connected;

  RoutedFabric out{detect(fabric, hints), std::move(lids), {}, 0};
  const auto start = std::chrono::steady_clock::now();
  RoutingInput input{fabric, out.detection, out.lids, hooks.strands, hooks.worst_case, hooks.data_vls,
                     hooks.polish, hooks.path_bits_users};
  input.switch_traffic = hooks.switch_traffic;
  Result<Routing> routing = (*scheme)->route(input);
  out.route_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!routing.ok()) return Status::Error(fmt::format("{}: {}", scheme_name, routing.status().message()));
  out.routing = std::move(*routing);
  return out;
}

}  // namespace ftclos
