// The routing pipeline in one call — recognize, assign LIDs, route — as
// `ftclos route`, `ftclos pathbits` and `ftclos audit --scheme` run it.
#pragma once

#include <string_view>

#include "core/fabric.h"
#include "core/status.h"
#include "detect/detect.h"
#include "route/routing.h"

namespace ftclos {

struct RoutedFabric {
  Detection detection;
  LidMap lids;
  Routing routing;
  double route_ms = 0;  // time in the scheme alone
};

/// Routes `fabric` with the scheme named `scheme` at LMC `lmc`, recognized
/// with the operator's `hints`. On failure `bad_input` (when given) tells an
/// unknown scheme or unusable LIDs (the caller's mistake) from a fabric the
/// scheme cannot route.
Result<RoutedFabric> route_fabric(const Fabric& fabric, std::string_view scheme, int lmc, const HostHints& hints = {},
                                  bool* bad_input = nullptr);
/// What the caller hands down to the scheme beside the fabric (RoutingInput).
struct RouteHooks {
  const StrandCheck* strands = nullptr;          // auto passes over schemes whose tables fail it
  const WorstCaseMeasure* worst_case = nullptr;  // auto weighs challengers by it
  int data_vls = kDefaultDataVls;                // the VLs the ports offer (layered's budget)
  bool polish = true;                            // RoutingInput::polish
  PathBitsUsers path_bits_users = PathBitsUsers::kSome;  // RoutingInput::path_bits_users
  bool switch_traffic = true;                    // RoutingInput::switch_traffic
};

/// The same on given LIDs (those of previous tables, or OpenSM's).
Result<RoutedFabric> route_fabric(const Fabric& fabric, std::string_view scheme, LidMap lids, const HostHints& hints,
                                  bool* bad_input = nullptr, const RouteHooks& hooks = {});

/// Fails, naming the parts, when no cable path joins some nodes of `fabric`:
/// no tables could join them.
Status check_connected(const Fabric& fabric);

}  // namespace ftclos
